#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Interoperability with util-linux mkfs.cramfs / fsck.cramfs, both byte orders.
# checks: 31
. "$(dirname "$0")/lib.sh"
trees
command -v mkfs.cramfs > /dev/null || skip_all "util-linux cramfs tools not installed"
for tree in tiny types big; do
	for order in little big; do
		ours=$WORK/io-$tree-$order-ours.img
		theirs=$WORK/io-$tree-$order-ul.img
		"$MKCRAMFS" -N $order "$T/$tree" "$ours" > /dev/null
		mkfs.cramfs -N $order "$T/$tree" "$theirs" > /dev/null
		check "$tree/$order: fsck.cramfs accepts our image" fsck.cramfs "$ours"
		check "$tree/$order: cramfsck accepts the mkfs.cramfs image" "$CRAMFSCK" "$theirs"
		check "$tree/$order: our image is no larger than mkfs.cramfs's" \
			test "$(stat -c %s "$ours")" -le "$(stat -c %s "$theirs")"
		check "$tree/$order: at zlib level 6, byte for byte what mkfs.cramfs writes" \
			bash -c "'$MKCRAMFS' -Z 6 -N $order '$T/$tree' '$ours.z6' > /dev/null && cmp '$ours.z6' '$theirs'"
		rm -rf "$WORK/io-x"
		check "$tree/$order: fsck.cramfs extracts our image to the source tree" \
			bash -c "fsck.cramfs --extract='$WORK/io-x' '$ours' > /dev/null &&
			diff <('$TOP/tests/lib/manifest.sh' '$T/$tree' 255) <('$TOP/tests/lib/manifest.sh' '$WORK/io-x' 255)"
	done
done
