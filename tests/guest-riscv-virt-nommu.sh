#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot QEMU's RISC-V virt machine with a kernel without an MMU (7.3's
# nommu_virt_defconfig, plus modules and MTD) and run
# tests/guest/nommu-riscv/init.c: cramfs_xip.ko over the CFI flash's bank 1,
# mmap() of a file stored in place at its flash address, and a bFLT program
# (scripts/elf2flt.py) whose text runs from flash. Prints "PASS: name" /
# "FAIL: name" per check; everything it makes, and the console log, are
# under build-tests/riscv-virt-nommu-<version>/.
#   tests/guest-riscv-virt-nommu.sh [KERNEL_VERSION]   (7.3 unless given)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
. "$CRAMFS_XIP_TOP/tests/lib/initramfs.sh"
. "$CRAMFS_XIP_TOP/tests/lib/guest-wait.sh"
. "$CRAMFS_XIP_TOP/tests/lib/riscv-flat.sh"

board=riscv-virt-nommu
kver=${1:-7.3}
timeout_s=${GUEST_TIMEOUT:-300}
top=$CRAMFS_XIP_TOP
work=$top/build-tests/$board-$kver
. "$top/tests/boards/$board/board.env"
gdir=$top/tests/guest/nommu-riscv

kb=$("$top/scripts/build-kernel.sh" "$board" "$kver")
log "kernel: $kb"
rm -rf "$work"
mkdir -p "$work/stage"/{proc,mnt} "$work/tree"/{bin,data}
module=$(built_against "$kb" cramfs_xip)
CROSS_COMPILE=$CROSS_COMPILE KO_COPY=$work.ko/cramfs_xip.ko \
	"$top/scripts/build-module.sh" "$kb" "$module" >&2
make -s -C "$top" tools >&2

# /init runs from RAM (--ram: its code reaches its data PC-relatively);
# hello is stored in place and runs so, hello-ram is the same program with
# binfmt_flat's RAM flag: its text is copied, the control.
flat_prog "$work/stage/init" "$gdir/init.c" --ram --stack 65536
flat_prog "$work/tree/bin/hello" "$gdir/hello.c"
"$top/scripts/elf2flt.py" --ram "$work/tree/bin/hello.elf" "$work/tree/bin/hello-ram"
rm -f "$work/tree/bin/hello.elf" "$work/stage/init.elf"
cp "$work.ko/cramfs_xip.ko" "$work/stage/"
head -c 12288 /dev/urandom > "$work/tree/data/xip-data"
head -c 12288 < <(yes 'a compressed block, read into the page cache') > "$work/tree/data/packed"
printf 'xip /bin/hello\nxip /data/xip-*\n' > "$work/rules"
"$top/scripts/mkcramfs" -X -R "$work/rules" "$work/tree" "$work/image.img" > /dev/null
# QEMU 7.2 (Debian 12) takes a pflash drive in unit 1 for firmware: the CPU
# would start in it (hw/riscv/virt.c), and it has no pflash1 machine
# property. Both banks exist without a drive, blank: the loader device puts
# the image into bank 1 at fs_partition (1 MiB in), as flash contents.
image_phys=$(printf '0x%x' $((FLASH_PHYS + FS_PARTITION_OFFSET)))
mk_initramfs "$work/stage" "$kb" "$work/initramfs.cpio.gz"
"$top/scripts/build-dtb.sh" "$top/$DTS" "$kb" "$work/board.dtb"

console=$work/console.log
# The kernel's command line is forced (nommu_virt_defconfig); /init comes
# from the initramfs.
qemu-system-riscv64 -M virt -m 64M -smp 1 -bios none -display none -monitor none \
	-serial "file:$console" -no-reboot -kernel "$kb/$KERNEL_IMAGE" -dtb "$work/board.dtb" \
	-initrd "$work/initramfs.cpio.gz" -device loader,file="$work/image.img",addr=$image_phys \
	${GUEST_QEMU:-} \
	< /dev/null 2> "$work/qemu.err" &
guest_wait $! "$console" "$timeout_s"
total=$(sed -n 's/^#define CHECKS_TOTAL[[:space:]]*\([0-9]*\)$/\1/p' "$gdir/init.c")
"$top/tests/lib/judge-console.sh" "$console" "$board-$kver" "total=$total"
