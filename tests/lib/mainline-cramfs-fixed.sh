#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Mainline cramfs with scripts/patches/mainline-cramfs/ applied, built as an
# out-of-tree module against a kernel build whose source has fs/cramfs: for
# the guest test that shows the patch reading every page right.
#   tests/lib/mainline-cramfs-fixed.sh KBUILD OUTDIR   -> OUTDIR/cramfs.ko
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"
kb=${1:?usage: mainline-cramfs-fixed.sh KBUILD OUTDIR}
out=${2:?usage: mainline-cramfs-fixed.sh KBUILD OUTDIR}
src=$(readlink -f "$kb/source")
mkdir -p "$out"
# Suites of one kernel may build it at once (the profile boots).
exec 9> "$out.lock"
flock 9
# Patched in a scratch copy; only what differs is copied over, so that a
# second run rebuilds nothing.
rm -rf "$out/.fresh"
mkdir -p "$out/.fresh"
cp "$src"/fs/cramfs/*.[ch] "$out/.fresh/"
fix_mainline_cramfs "$out/.fresh"
printf 'obj-m := cramfs.o\ncramfs-y := inode.o uncompress.o\n' > "$out/.fresh/Kbuild"
for f in "$out"/.fresh/*; do
	cmp -s "$f" "$out/${f##*/}" || cp "$f" "$out/"
done
rm -rf "$out/.fresh"
make -s -C "$kb" M="$out" ARCH=arm CROSS_COMPILE="$CROSS_COMPILE" modules >&2
