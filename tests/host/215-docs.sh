#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The documents as a new user reads them: README in short sentences, with
# the reasons to choose cramfs_xip over mainline cramfs and the test that
# shows each, a quick start from mkcramfs through writing the flash to
# seeing what runs in place, no test timings (testing.md has them), no
# debugging claim wider than the user guide's; the user guide in the order
# a user works, the tiny system in a document of its own; terms explained
# where first used; every link and every heading another document names.
# checks: 9
. "$(dirname "$0")/lib.sh"
docs() { python3 "$TOP/tests/lib/docs.py" "$@"; }
cd "$TOP" || exit 1
readme=README.md guide=Documentation/user-guide.md

check "README.md: at most 20 words a sentence on average (prose, not code, tables or headings)" \
	docs sentences "$readme" 20

# The table "why ... mainline cramfs": every row names its evidence, a test
# script or a section of benchmarks.md, and each exists.
why_table() {
	local rows
	rows=$(awk '/^## /{why = /mainline/} why && /^\| / && !/^\| *-/' "$readme" | tail -n +2)
	[ "$(wc -l <<< "$rows")" -ge 4 ] || { echo "no '## ...mainline...' chapter with a table of 4 rows or more"; return 1; }
	local row ok=0 p
	while IFS= read -r row; do
		grep -qE 'tests/[a-z0-9/_.-]+\.sh|benchmarks\.md#' <<< "$row" || { echo "no evidence: $row"; ok=1; }
	done <<< "$rows"
	for p in $(grep -ohE 'tests/[A-Za-z0-9/_.-]+\.sh' "$readme"); do
		[ -f "$p" ] || { echo "README names $p: no such file"; ok=1; }
	done
	return $ok
}
check "README.md: a table of reasons over mainline cramfs, each row naming its test or benchmarks.md section" why_table

# The quick start in the order a user works, and what must not be skipped.
quick_start() {
	local at=0 step n
	for step in 'mkcramfs .*-X' 'flashcp ' 'mount -t cramfs' 'dmesg' 'xip-in-place\.sh'; do
		n=$(grep -nE "$step" "$readme" | cut -d: -f1 | awk -v a="$at" '$1 > a' | head -n 1)
		[ -n "$n" ] || { echo "no /$step/ after line $at"; return 1; }
		at=$n
	done
	tr '\n' ' ' < "$readme" | grep -qiE 'unmount[^.]{0,80}before[^.]{0,40}(writ|rewrit)' ||
		{ echo "README does not say to unmount before rewriting the flash"; return 1; }
}
check "README.md: quick start from mkcramfs -X through flashcp and mount to the kernel line and xip-in-place.sh" \
	quick_start

check "point, FIEMAP, FDPIC and -icount explained where first used (README, then the user guide)" \
	docs terms "$readme" "$guide" -- \
	'`point`=(method|operation)[^.]*map|map[^.]*(method|operation)' \
	'FIEMAP=ioctl' 'FDPIC=ELF[^.]*(segment|loader)|(segment|loader)[^.]*ELF' \
	'-icount=instruction'

no_timings() {
	! grep -nE '[0-9]+ min( [0-9]+ s)?\b' "$readme" &&
		grep -qE 'make check.*[0-9]+ min [0-9]+ s' Documentation/testing.md
}
check "README.md states no test timings; Documentation/testing.md has make check's" no_timings

debugging() {
	! grep -n 'stay debuggable' "$readme" &&
		tr '\n' ' ' < "$readme" | grep -qE 'gdb -p' &&
		tr '\n' ' ' < "$readme" | grep -qiE 'started under (a|the) debugger'
}
check "README.md: what debugging works (started under a debugger) and what not (gdb -p), no wider claim" debugging

check "the user guide in the order a user works" docs headings "$guide" \
	'^Making an image' '^Mounting' '^Running programs in place' '^Debugging' \
	'^Updating the flash' '^Without an MMU' '^Built into the kernel' '^Kernel configuration' \
	'^Reference'
tiny_own() {
	[ -f Documentation/tiny-system.md ] || { echo "no Documentation/tiny-system.md"; return 1; }
	! grep -n '^## .*[Tt]iny system' "$guide" &&
		[ "$(grep -ciE 'cortex-m' "$guide")" -le 6 ]
}
check "the tiny system in Documentation/tiny-system.md, not in the user guide" tiny_own

# What a user building for a board must not miss: modules_prepare compiles
# but the board loads only a module built against its own kernel; how to
# take mainline cramfs out of the way (both answer to fs-cramfs).
board_build() {
	local flat
	flat=$(tr '\n' ' ' < "$guide")
	grep -qE 'modules_prepare' <<< "$flat" && grep -qE 'vermagic' <<< "$flat" &&
		grep -qE 'Module\.symvers' <<< "$flat" || { echo "modules_prepare: no vermagic, Module.symvers"; return 1; }
	grep -qE 'fs-cramfs' <<< "$flat" && grep -qE 'blacklist cramfs' <<< "$flat" &&
		grep -qE 'CONFIG_CRAMFS=n' <<< "$flat" || { echo "no recipe for replacing mainline cramfs"; return 1; }
	docs refs README.md NEWS.md contrib/README.md Documentation/*.md
}
check "the user guide: building for a board, replacing mainline cramfs; every link and named heading resolves" board_build
