# SPDX-License-Identifier: GPL-2.0
# Helpers for host tests: sourced by each tests/host/NNN-*.sh.
# Environment from run.sh: TOP, MKCRAMFS, CRAMFSCK, WORK.
set -u
suite=host:$(basename "$0" .sh)
pass() { echo "PASS: $suite: $*"; }
fail() { echo "FAIL: $suite: $*"; }
skip() { echo "SKIP: $suite: $*"; }

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

manifest() { "$TOP/tests/lib/manifest.sh" "$1" 255; }

# trees: the same source trees the guest tests use.
trees() {
	[ -d "$WORK/trees/types" ] || python3 "$TOP/tests/lib/mktrees.py" "$WORK/trees" 2>/dev/null
	echo "$WORK/trees"
}

busybox_armhf() { echo "${CRAMFS_XIP_CACHE:-$HOME/.cache/cramfs-xip}/guest-debs/root/bin/busybox"; }
