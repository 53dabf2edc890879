# SPDX-License-Identifier: GPL-2.0
# Sourced by the mps2-an385 runners: the boot shim, and the freestanding
# Thumb-2 programs of tests/guest/nommu/ (static PIE with no relocations and
# no writable data, so that their text can run from flash).
#   nommu_shim OUT.elf [CPPFLAGS...]   tests/boards/mps2-an385/shim.S (its
#                                      addresses: -DSHIM_SP/DTB/KERNEL)
#   nommu_prog OUT SRC [FLAGS...]      a program
#   mark_fdpic FILE                    EI_OSABI 65: binfmt_elf_fdpic maps the
#                                      program segment by segment (its text
#                                      in place)

nommu_cc() { "${CROSS_COMPILE}gcc" -mcpu=cortex-m3 -mthumb "$@"; }

nommu_shim() {
	local out=$1 dir=$CRAMFS_XIP_TOP/tests/boards/mps2-an385
	shift
	nommu_cc "$@" -c -o "${out%.elf}.o" "$dir/shim.S"
	"${CROSS_COMPILE}ld" -T "$dir/shim.lds" -o "$out" "${out%.elf}.o"
}

nommu_prog() {
	local out=$1 src=$2
	shift 2
	nommu_cc -Os -Wall -fPIE -fvisibility=hidden -ffreestanding -fno-builtin \
		-fomit-frame-pointer -fno-stack-protector -fno-tree-loop-distribute-patterns \
		-nostdlib -static-pie -Wl,--no-dynamic-linker -Wl,-z,max-page-size=4096 \
		"$@" -o "$out" "$src"
}

mark_fdpic() { printf '\101' | dd of="$1" bs=1 seek=7 conv=notrunc status=none; }
