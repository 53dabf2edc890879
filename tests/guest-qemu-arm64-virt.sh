#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot QEMU's arm64 virt machine (Cortex-A53, 4 KiB pages) and run the guest
# tests of tests/guest/qemu-arm64-virt/ against cramfs_xip.ko, the image in
# CFI flash bank 1 (bank 0 is firmware: with an image there the CPU would
# start in it); then boot a kernel with cramfs_xip built in from that image
# (root=mtd:fs_partition, then root=mtd1) with tests/guest/root/. BusyBox is
# Debian's arm64 busybox-static. Prints PASS:/FAIL: lines; everything it
# makes, and the console logs, are under build-tests/qemu-arm64-virt-VERSION/.
#   tests/guest-qemu-arm64-virt.sh [KERNEL_VERSION]      (7.3 unless given)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
. "$CRAMFS_XIP_TOP/tests/lib/initramfs.sh"
. "$CRAMFS_XIP_TOP/tests/lib/guest-wait.sh"
. "$CRAMFS_XIP_TOP/tests/lib/images.sh"

board=qemu-arm64-virt
kver=${1:-7.3}
timeout_s=${GUEST_TIMEOUT:-300}
top=$CRAMFS_XIP_TOP
work=$top/build-tests/$board-$kver
. "$top/tests/boards/$board/board.env"
groot=$CRAMFS_XIP_CACHE/guest-debs-arm64/root
[ -x "$groot/bin/busybox" ] || die "no arm64 BusyBox in $groot: run scripts/setup-host.sh"

kb=$("$top/scripts/build-kernel.sh" "$board" "$kver")
log "kernel: $kb"
module=$(built_against "$kb" cramfs_xip)
CROSS_COMPILE=$CROSS_COMPILE KO_COPY=$work.ko/cramfs_xip.ko \
	"$top/scripts/build-module.sh" "$kb" "$module" >&2
make -s -C "$top" tools >&2

rm -rf "$work"
mkdir -p "$work/stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,mnt,tmp,images,tests,lib/modules}
"$top/scripts/build-dtb.sh" "$top/$DTS" "$kb" "$work/board.dtb"

# The XIP image: BusyBox and xiptest, read-only segments in place.
"${CROSS_COMPILE}gcc" -static -O2 -Wall -o "$work/xiptest" "$top/tests/guest/xiptest.c"
img=$work/stage/images
xip_image "$groot/bin/busybox" "$work/xiptest" "$work/trees/xip" "$img"
truncate -s 64M "$work/flash1.img"
dd if="$img/xip.img" of="$work/flash1.img" bs=64k seek=$((FS_PARTITION_OFFSET / 65536)) \
	conv=notrunc status=none

cp "$groot/bin/busybox" "$work/stage/bin/"
ln -s busybox "$work/stage/bin/sh"
cp "$work.ko/cramfs_xip.ko" "$work/stage/lib/modules/"
cp "$top/tests/guest/init" "$work/stage/init"
cp "$work/xiptest" "$work/stage/bin/"
cp "$top/tests/guest/lib.sh" "$top/tests/lib/manifest.sh" "$work/stage/tests/"
cp "$top"/tests/guest/$board/[0-9]*.sh "$work/stage/tests/"
mk_initramfs "$work/stage" "$kb" "$work/initramfs.cpio.gz"

# boot CONSOLE KERNEL APPEND [QEMU_ARGS...]: one boot; the guest ends itself
# with reboot -f, a guest that hangs is stopped at the timeout.
boot() {
	local console=$1 kernel=$2 append=$3
	shift 3
	qemu-system-aarch64 -M virt -cpu cortex-a53 -m 256M -smp 1 -display none -monitor none \
		-serial "file:$console" -no-reboot -kernel "$kernel" -dtb "$work/board.dtb" \
		-append "console=ttyAMA0 oops=panic panic=-1 log_buf_len=1M $append" \
		-drive if=pflash,unit=1,format=raw,file="$work/flash1.img" "$@" ${GUEST_QEMU:-} \
		< /dev/null 2> "$work/qemu.err" &
	guest_wait $! "$console" "$timeout_s"
}
boot "$work/console.log" "$kb/$KERNEL_IMAGE" "rdinit=/init" -initrd "$work/initramfs.cpio.gz"
"$top/tests/lib/judge-console.sh" "$work/console.log" "$board-$kver" "$work"/stage/tests/[0-9]*.sh

# Root from flash: BusyBox as init, tests/guest/root/ (the same checks as
# vexpress-a9's root boots).
kr=$("$top/scripts/build-kernel.sh" "$board" "$kver" "$top/tests/boards/$board/builtin.config")
grep -qx 'CONFIG_CRAMFS_XIP=y' "$kr/.config" || die "$kr: cramfs_xip is not built in"
r=$work/root
root_tree "$r" "$groot/bin/busybox" "$top/tests/guest/root"
root_image "$r" "$work" $((FLASH_PHYS + FS_PARTITION_OFFSET))
truncate -s 0 "$work/flash1.img"
truncate -s 64M "$work/flash1.img"
dd if="$work/root.img" of="$work/flash1.img" bs=64k seek=$((FS_PARTITION_OFFSET / 65536)) \
	conv=notrunc status=none
for root in mtd:fs_partition "mtd$ROOT_MTDNUM"; do
	boot "$work/console-root-$root.log" "$kr/$KERNEL_IMAGE" \
		"root=$root rootfstype=cramfs"
	"$top/tests/lib/judge-console.sh" "$work/console-root-$root.log" \
		"$board-$kver root=$root" "$r"/tests/[0-9]*.sh
done
