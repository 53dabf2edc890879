#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Same tree and options: the same bytes, whatever the times and creation order.
# checks: 4
. "$(dirname "$0")/lib.sh"
trees
d=$WORK/repro
rm -rf "$d"
mkdir -p "$d"
cp -a "$T/types" "$d/a"
# A second copy made in reverse order, with other times.
mkdir "$d/b"
(cd "$d/a" && find . -mindepth 1 -maxdepth 1 | sort -r | while read -r p; do cp -a "$p" "$d/b/"; done)
find "$d/b" -exec touch -h -d '2001-02-03 04:05:06' {} +
for opts in "" "-X" "-z -N big"; do
	"$MKCRAMFS" $opts "$d/a" "$d/a.img" > /dev/null
	SOURCE_DATE_EPOCH=1 "$MKCRAMFS" $opts "$d/b" "$d/b.img" > /dev/null
	check "byte-identical images from equal trees (options: ${opts:-none})" cmp "$d/a.img" "$d/b.img"
done
