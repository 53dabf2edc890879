# SPDX-License-Identifier: GPL-2.0
# Sourced by the RISC-V tests: build freestanding RV64 programs and make them
# bFLT files with scripts/elf2flt.py, with the link flags of its usage
# (relocations kept, none relaxed).
#   flat_cc GCC_ARGS...                          the cross gcc with those flags
#   flat_prog OUT SOURCE.c [ELF2FLT_OPTION...]   OUT, and OUT.elf beside it
flat_top=${CRAMFS_XIP_TOP:-$TOP}
flat_cross=riscv64-linux-gnu-
flat_cflags=(-Os -Wall -ffreestanding -fno-builtin -nostdlib -static -fno-pic -no-pie
	-mcmodel=medany -fno-jump-tables -fno-asynchronous-unwind-tables -Wl,--emit-relocs
	-Wl,--no-relax -Wl,--build-id=none -Wl,-T,"$flat_top/tests/guest/nommu-riscv/flat.ld")
flat_cc() { "${flat_cross}gcc" "${flat_cflags[@]}" "$@"; }
flat_prog() {
	local out=$1 src=$2
	shift 2
	flat_cc -o "$out.elf" "$src" && "$flat_top/scripts/elf2flt.py" "$@" "$out.elf" "$out"
}
