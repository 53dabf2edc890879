#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot QEMU's xilinx-zynq-a9 (Cortex-A9, MMU, AMD-command-set NOR) and run
# the guest tests of one flash layout against cramfs_xip.ko:
#   tests/guest-zynq.sh [--rom] [KERNEL_VERSION]       (7.3 unless given)
# Without --rom (tests/guest/zynq-cfi/): the flash as CFI (physmap), read
# with the stock cfi_cmdset_0002.ko (no point: mtd_read) and with the one
# patched by scripts/patches/cfi-amdstd-point/ (point: in place), and a
# sibling partition written while the image is mounted. With --rom
# (tests/guest/zynq-rom/): the first half as mtd-rom, the second half a
# window no driver binds, mounted by physaddr=. The kernel is vexpress-a9's
# (one zImage for both boards). Prints PASS:/FAIL: lines; everything it
# makes, and the console log, is under build-tests/zynq-{cfi,rom}-VERSION/.
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
. "$CRAMFS_XIP_TOP/tests/lib/initramfs.sh"
. "$CRAMFS_XIP_TOP/tests/lib/guest-wait.sh"
. "$CRAMFS_XIP_TOP/tests/lib/images.sh"

top=$CRAMFS_XIP_TOP
suite=zynq-cfi
dts=dts/zynq-cramfs-xip.dts
if [ "${1:-}" = --rom ]; then
	suite=zynq-rom
	dts=dts/zynq-cramfs-xip-rom.dts
	shift
fi
kver=${1:-7.3}
timeout_s=${GUEST_TIMEOUT:-600}
work=$top/build-tests/$suite-$kver
. "$top/tests/boards/xilinx-zynq-a9/board.env"

kb=$("$top/scripts/build-kernel.sh" "$KERNEL_BOARD" "$kver")
log "kernel: $kb"
grep -q '^CONFIG_ARCH_ZYNQ=y' "$kb/.config" || die "$kb has no Zynq support"
module=$(built_against "$kb" cramfs_xip)
KO_COPY=$work.ko/cramfs_xip.ko "$top/scripts/build-module.sh" "$kb" "$module" >&2
make -s -C "$top" tools >&2

rm -rf "$work"
mkdir -p "$work/stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,mnt,tmp,images,tests}
mkdir -p "$work/stage/lib/modules/stock" "$work/stage/lib/modules/patched"
"$top/scripts/build-dtb.sh" "$top/$dts" "$kb" "$work/board.dtb"

# The AMD command set, stock and with point: an out-of-tree build of the
# patched copy of the one file; the rest of the kernel is the same.
if [ "$suite" = zynq-cfi ]; then
	cp "$kb/drivers/mtd/chips/cfi_cmdset_0002.ko" "$work/stage/lib/modules/stock/"
	amd=$(built_against "$kb" cfi-amdstd-point)
	"$top/tests/lib/cfi-amdstd-point.sh" "$kb" "$kver" "$amd" >&2
	cp "$amd/cfi_cmdset_0002.ko" "$work/stage/lib/modules/patched/"
fi

# The XIP image: BusyBox and xiptest, read-only segments in place.
"${CROSS_COMPILE}gcc" -static -O2 -Wall -o "$work/xiptest" "$top/tests/guest/xiptest.c"
img=$work/stage/images
xip_image "$CRAMFS_XIP_CACHE/guest-debs/root/bin/busybox" "$work/xiptest" "$work/trees/xip" "$img"
# What the sibling partition gets while the image is mounted: 8 KiB (QEMU
# programs the 8-bit AMD flash a byte at a time, without buffered writes).
head -c 8192 /dev/urandom > "$img/sibling.bin"
truncate -s 64M "$work/flash.img"
if [ "$suite" = zynq-cfi ]; then
	dd if="$img/xip.img" of="$work/flash.img" bs=64k seek=$((FS_PARTITION_OFFSET / 65536)) \
		conv=notrunc status=none
else
	dd if="$img/xip.img" of="$work/flash.img" conv=notrunc status=none
	dd if="$img/xip.img" of="$work/flash.img" bs=64k seek=$((0x2000000 / 65536)) \
		conv=notrunc status=none
fi

groot=$CRAMFS_XIP_CACHE/guest-debs/root
cp "$groot/bin/busybox" "$work/stage/bin/"
ln -s busybox "$work/stage/bin/sh"
cp -a "$groot/lib" "$work/stage/"
cp -a "$groot/usr/lib" "$work/stage/usr/" 2>/dev/null || true
for t in flash_erase flashcp mtdinfo; do cp "$groot/usr/sbin/$t" "$work/stage/usr/sbin/"; done
rm -rf "$work/stage/usr/lib/arm-linux-gnueabihf/gconv" "$work/stage/usr/share"
cp "$work.ko/cramfs_xip.ko" "$work/stage/lib/modules/"
cp "$top/tests/guest/init" "$work/stage/init"
cp "$work/xiptest" "$top/scripts/xip-in-place.sh" "$work/stage/bin/"
cp "$top/tests/guest/lib.sh" "$top/tests/lib/manifest.sh" "$work/stage/tests/"
cp "$top"/tests/guest/$suite/[0-9]*.sh "$work/stage/tests/"
mk_initramfs "$work/stage" "$kb" "$work/initramfs.cpio.gz"

# UART1 is the console: QEMU's second serial port.
console=$work/console.log
QEMU_AUDIO_DRV=none qemu-system-arm -M xilinx-zynq-a9 -m 256M -display none -monitor none \
	-serial null -serial "file:$console" -no-reboot \
	-kernel "$kb/$KERNEL_IMAGE" -dtb "$work/board.dtb" -initrd "$work/initramfs.cpio.gz" \
	-append "console=ttyPS0,115200 rdinit=/init oops=panic panic=-1 log_buf_len=1M ${GUEST_APPEND:-}" \
	-drive if=pflash,file="$work/flash.img",format=raw ${GUEST_QEMU:-} < /dev/null 2> "$work/qemu.err" &
guest_wait $! "$console" "$timeout_s"
"$top/tests/lib/judge-console.sh" "$console" "$suite-$kver" "$work"/stage/tests/[0-9]*.sh
