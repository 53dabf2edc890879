#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tree -> mkcramfs -> cramfsck -x -> the same tree: content, modes, links, devices, owners.
# checks: 11
. "$(dirname "$0")/lib.sh"
trees
roundtrip() {
	local tree=$1 tag=$2
	shift 2
	local img=$WORK/rt-$tag.img out=$WORK/rt-$tag.out
	rm -rf "$out"
	"$MKCRAMFS" "$@" "$T/$tree" "$img" > /dev/null &&
		"$CRAMFSCK" -x "$out" "$img" &&
		diff <(manifest "$T/$tree") <(manifest "$out")
}
for tree in tiny types big; do
	check "$tree: round trip, defaults" roundtrip $tree $tree-plain
	check "$tree: round trip, -X" roundtrip $tree $tree-xip -X
	check "$tree: round trip, big-endian -z -p" roundtrip $tree $tree-be -N big -z -p
done
check "types: round trip, -X with the sticky file stored whole for XIP" \
	bash -c "roundtrip() { :; }; '$MKCRAMFS' -X '$T/types' '$WORK/sticky.img' > /dev/null &&
	'$CRAMFSCK' -l '$WORK/sticky.img' | grep -q '\[0 zlib 0 plain 1 xip 0 hole\] /modes/sticky'"
