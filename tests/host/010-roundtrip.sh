#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tree -> mkcramfs -> cramfsck -x -> the same tree: content, modes, links, devices, owners.
# checks: 17
. "$(dirname "$0")/lib.sh"
trees
# roundtrip TREE TAG MKCRAMFS-OPTIONS...: the extracted tree has the source's
# manifest (types, modes, owners, sizes, checksums, link targets, devices), and
# every regular file is byte for byte the source's.
roundtrip() {
	local tree=$1 tag=$2
	shift 2
	local img=$WORK/rt-$tag.img out=$WORK/rt-$tag.out
	rm -rf "$out"
	"$MKCRAMFS" "$@" "$T/$tree" "$img" > /dev/null || return 1
	"$CRAMFSCK" -x "$out" "$img" || return 1
	diff <(manifest "$T/$tree") <(manifest "$out") || return 1
	(cd "$T/$tree" && find . -type f -exec cmp {} "$out/{}" \;) > "$WORK/rt.cmp" 2>&1
	[ ! -s "$WORK/rt.cmp" ] || { cat "$WORK/rt.cmp"; return 1; }
}
for tree in tiny types big shared; do
	check "$tree: round trip, defaults" roundtrip $tree $tree-plain
	check "$tree: round trip, -X" roundtrip $tree $tree-xip -X
	check "$tree: round trip, big-endian -z -p" roundtrip $tree $tree-be -N big -z -p
done

sticky_whole_xip() {
	"$CRAMFSCK" -l "$WORK/rt-types-xip.img" | grep '\[0 zlib 0 plain 1 xip 0 hole\] /modes/sticky$' &&
		cmp "$T/types/modes/sticky" "$WORK/rt-types-xip.out/modes/sticky"
}
check "types: -X stores the sticky file whole for XIP, and it extracts unchanged" sticky_whole_xip

# Holes: the blocks of zeros in the shared tree, as mktrees.py writes them.
"$CRAMFSCK" -l "$WORK/rt-shared-be.img" > "$WORK/rt-shared-z.list"
"$CRAMFSCK" -l "$WORK/rt-shared-plain.img" > "$WORK/rt-shared.list"
holes() { grep -E "\[[0-9]+ zlib 0 plain 0 xip $1 hole\] $2\$" "$WORK/rt-shared-z.list"; }
holes_with_z() { holes 3 /holes-middle.bin && holes 1 /holes-tail.bin && holes 5 /sparse.bin; }
no_holes() {
	grep -q ' /sparse.bin$' "$WORK/rt-shared.list" && ! grep -E '[1-9][0-9]* hole\]' "$WORK/rt-shared.list"
}
check "-z: zero blocks stored as holes (3 inside a file, 1 partial at the end, 5 of a sparse file)" \
	holes_with_z
check "without -z: no holes, not even for the sparse file" no_holes

# Shared data: hard links and copies point at the same blocks.
same_blocks() {
	local img=$1 f
	"$CRAMFSCK" --layout "$img" > "$WORK/rt.layout" || return 1
	for f in /orig.bin /hardlink.bin /copy.bin /sub/hardlink.bin /sub/copy.bin; do
		sed -n "s|^  $f block \([0-9]*:\)|\1|p" "$WORK/rt.layout" > "$WORK/rt.blocks$f"
		[ -s "$WORK/rt.blocks$f" ] || { echo "no blocks listed for $f"; return 1; }
		diff "$WORK/rt.blocks/orig.bin" "$WORK/rt.blocks$f" || return 1
	done
}
mkdir -p "$WORK/rt.blocks/sub"
check "hard links and identical files share one copy of the data" same_blocks "$WORK/rt-shared-plain.img"
