# SPDX-License-Identifier: GPL-2.0
# Helpers for host tests: sourced by each tests/host/NNN-*.sh.
# Environment from run.sh: TOP, MKCRAMFS, CRAMFSCK, WORK.
# Each script says how many PASS/FAIL/SKIP lines it prints, in a line
# "# checks: N" or with plan N, and run.sh holds it to that.
set -u
suite=host:$(basename "$0" .sh)
pass() { echo "PASS: $suite: $*"; }
fail() { echo "FAIL: $suite: $*"; }
skip() { echo "SKIP: $suite: $*"; }
# plan N: this script runs N checks (when N comes from its data).
plan() { echo "PLAN: $suite: $1"; }
# skip_all REASON: none of this script's checks can run here.
skip_all() {
	skip "$*"
	exit 77
}

# check NAME CMD...: CMD must succeed; its output is shown on failure.
check() {
	local name=$1
	shift
	if "$@" > "$WORK/check.out" 2>&1; then
		pass "$name"
	else
		fail "$name"
		sed 's/^/    | /' "$WORK/check.out" | head -n 20
	fi
}

# status_is N CMD...: CMD exits with status N.
status_is() {
	local want=$1
	shift
	"$@"
	[ $? -eq "$want" ]
}

# status_and_says STATUS TEXT CMD...: CMD exits with STATUS and its stderr mentions TEXT.
status_and_says() {
	local want=$1 text=$2
	shift 2
	"$@" > "$WORK/out" 2> "$WORK/err.txt"
	local rc=$?
	[ $rc -eq "$want" ] || { echo "exit $rc, wanted $want"; cat "$WORK/err.txt"; return 1; }
	grep -qF -- "$text" "$WORK/err.txt" || { echo "stderr lacks '$text':"; cat "$WORK/err.txt"; return 1; }
}

manifest() { "$TOP/tests/lib/manifest.sh" "$1" 255; }

# trees: the same source trees the guest tests use, made once, in $T. One
# check: without root they lack device nodes and owners, and every script
# that uses them says so.
trees() {
	T=$WORK/trees
	if [ ! -f "$T/.made" ]; then
		rm -rf "$T"
		python3 "$TOP/tests/lib/mktrees.py" "$T" >&2 || { fail "tests/lib/mktrees.py failed"; exit 1; }
		touch "$T/.made"
	fi
	if [ -c "$T/types/dev-null" ] && [ "$(stat -c %u:%g "$T/types/owned/by-1000")" = 1000:100 ]; then
		pass "source trees hold device nodes and owners"
	else
		skip "source trees hold no device nodes or owners (tests/lib/mktrees.py needs root)"
	fi
}

busybox_armhf() { echo "${CRAMFS_XIP_CACHE:-$HOME/.cache/cramfs-xip}/guest-debs/root/bin/busybox"; }

# prepared_kernel: the vexpress-a9 6.1 kernel build the vexpress-a9 suite
# boots (modules, mainline cramfs among them, neither cramfs built in), on
# stdout; status 1 when there is none. Under make check (CRAMFS_XIP_IN_CHECK,
# from tests/run-all.sh) that suite, running beside this one, may still be
# building it: scripts/build-kernel.sh waits for its lock and names the same
# build. Alone, tests/host/run.sh builds no kernel and uses the newest one made.
prepared_kernel() {
	local cache=${CRAMFS_XIP_CACHE:-$HOME/.cache/cramfs-xip} k
	if [ -n "${CRAMFS_XIP_IN_CHECK:-}" ]; then
		"$TOP/scripts/build-kernel.sh" vexpress-a9 6.1 2> "$WORK/build-kernel.log" && return 0
	fi
	for k in $(ls -dt "$cache"/build/vexpress-a9-6.1-* 2> /dev/null); do
		if [ -f "$k/.cramfs-xip-built" ] && [ -f "$k/Module.symvers" ] &&
			[ -f "$k/fs/cramfs/cramfs.ko" ] && ! grep -qxE 'CONFIG_CRAMFS(_XIP)?=y' "$k/.config"; then
			echo "$k"
			return 0
		fi
	done
	return 1
}

# source_files [PATTERN...]: the tree's files (relative to TOP) that match a
# pattern ('*' crosses '/'; all without one): git ls-files in a checkout; in
# an unpacked make dist tarball, which has no .git, every file but what a
# build or the tests made (the files .gitignore names).
source_files() {
	if [ -e "$TOP/.git" ]; then
		git -C "$TOP" ls-files "$@"
		return
	fi
	local f p
	(cd "$TOP" && find . -path ./build-tests -prune -o -path ./.git -prune -o -type f -print) |
		sed 's|^\./||' | sort |
		grep -Ev '(\.(o|ko|mod|mod\.c|cmd|symvers|order)|/__pycache__/.*|^scripts/(mkcramfs|cramfsck))$' |
		while IFS= read -r f; do
			[ $# = 0 ] && { echo "$f"; continue; }
			for p in "$@"; do
				# shellcheck disable=SC2053 # a pattern on purpose
				[[ $f == $p ]] && { echo "$f"; break; }
			done
		done
}
