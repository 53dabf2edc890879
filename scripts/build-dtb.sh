#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build one of dts/*.dts against a kernel tree's device-tree includes, with
# that tree's dtc.  scripts/build-dtb.sh DTS KERNEL_BUILD_DIR OUT.dtb
# (a build directory made with O=, or the source tree built in place)
set -euo pipefail
. "$(dirname "$0")/common.sh"

check_args "DTS KERNEL_BUILD_DIR OUT.dtb" 3 3 "$@"
dts=$1
kbuild=$2
out=$3
if [ -e "$kbuild/source" ]; then
	src=$(readlink -f "$kbuild/source")
elif [ -d "$kbuild/arch/arm/boot/dts" ]; then
	src=$kbuild
else
	src=$(sed -n 's/^KERNEL_SOURCE *:= *//p' "$kbuild/Makefile")
fi
[ -d "$src/arch/arm/boot/dts" ] || die "no kernel source behind $kbuild"
dtc=$kbuild/scripts/dtc/dtc
[ -x "$dtc" ] || dtc=dtc
# The ARM tree moved its device trees into per-vendor folders in v6.5.
inc=(-I "$src/arch/arm/boot/dts" -I "$src/arch/arm/boot/dts/arm" -I "$src/arch/arm/boot/dts/xilinx"
     -I "$src/include"
     -I "$src/scripts/dtc/include-prefixes")
cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp "${inc[@]}" "$dts" -o "$out.pre"
"$dtc" -q -I dts -O dtb -i "$src/arch/arm/boot/dts" -i "$src/arch/arm/boot/dts/xilinx" -o "$out" "$out.pre"
rm -f "$out.pre"
