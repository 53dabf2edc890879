#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The AMD command set with point (scripts/patches/cfi-amdstd-point/, the
# patch for the kernel VERSION), built as an out-of-tree module against a
# kernel build whose AMD command set is a module (CONFIG_MTD_CFI_AMDSTD=m):
# the patched kernel is the stock one with this one object rebuilt.
#   tests/lib/cfi-amdstd-point.sh KBUILD VERSION OUTDIR  -> OUTDIR/cfi_cmdset_0002.ko
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"
kb=${1:?usage: cfi-amdstd-point.sh KBUILD VERSION OUTDIR}
kver=${2:?usage: cfi-amdstd-point.sh KBUILD VERSION OUTDIR}
out=${3:?usage: cfi-amdstd-point.sh KBUILD VERSION OUTDIR}
src=$(readlink -f "$kb/source")
p=$CRAMFS_XIP_TOP/scripts/patches/cfi-amdstd-point/cfi-amdstd-point-$kver.patch
[ -f "$p" ] || die "no $p"
grep -q '^CONFIG_MTD_CFI_AMDSTD=m' "$kb/.config" || die "$kb: the AMD command set is not a module"
mkdir -p "$out"
exec 9> "$out.lock"
flock 9
# Patched (patch -p1, as in a kernel tree) in a scratch copy; only what
# differs is copied over, so that a second run rebuilds nothing.
f=$out/.fresh
rm -rf "$f"
mkdir -p "$f/drivers/mtd/chips"
cp "$src"/drivers/mtd/chips/cfi_cmdset_0002.c "$src"/drivers/mtd/chips/fwh_lock.h "$f/drivers/mtd/chips/"
patch -s -p1 -d "$f" < "$p"
printf 'obj-m := cfi_cmdset_0002.o\n' > "$f/drivers/mtd/chips/Kbuild"
for g in "$f"/drivers/mtd/chips/*; do
	cmp -s "$g" "$out/${g##*/}" || cp "$g" "$out/"
done
rm -rf "$f"
make -s -C "$kb" M="$out" ARCH=arm CROSS_COMPILE="$CROSS_COMPILE" modules >&2
