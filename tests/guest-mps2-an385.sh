#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the mps2-an385 board (Cortex-M3, no MMU) in QEMU and run the no-MMU
# guest checks (tests/guest/nommu/init.c) against cramfs_xip.ko and mainline
# cramfs.ko. Prints "PASS: name" / "FAIL: name" per check; everything it
# makes, and the console log, is under build-tests/mps2-an385-<version>/.
#   tests/guest-mps2-an385.sh [KERNEL_VERSION]
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
. "$CRAMFS_XIP_TOP/tests/lib/initramfs.sh"

board=mps2-an385
kver=${1:-$KVER_DEFAULT}
timeout_s=${GUEST_TIMEOUT:-300}
top=$CRAMFS_XIP_TOP
work=$top/build-tests/$board-$kver
. "$top/tests/boards/$board/board.env"
bdir=$top/tests/boards/$board
gdir=$top/tests/guest/nommu

kb=$("$top/scripts/build-kernel.sh" "$board" "$kver")
log "kernel: $kb"
rm -rf "$work"
mkdir -p "$work/stage"/{proc,mnt,ref,lib/modules} "$work/tree"/{bin,data}
module=$top/build-tests/module-$board-$kver
"$top/scripts/build-module.sh" "$kb" "$module" >&2
make -s -C "$top" tools >&2

# The boot shim, and freestanding Thumb-2 programs needing no relocation.
cc="${CROSS_COMPILE}gcc -mcpu=cortex-m3 -mthumb"
$cc -c -o "$work/shim.o" "$bdir/shim.S"
"${CROSS_COMPILE}ld" -T "$bdir/shim.lds" -o "$work/shim.elf" "$work/shim.o"
ncflags="-Os -Wall -fPIE -fvisibility=hidden -ffreestanding -fno-builtin -fomit-frame-pointer
	-fno-stack-protector -fno-tree-loop-distribute-patterns -nostdlib -static-pie
	-Wl,--no-dynamic-linker -Wl,-z,max-page-size=4096"
$cc $ncflags -o "$work/stage/init" "$gdir/init.c"
$cc $ncflags -o "$work/xipprog" "$gdir/xipprog.c"
# EI_OSABI 65: an FDPIC program, which binfmt_elf_fdpic maps segment by segment.
printf '\101' | dd of="$work/xipprog" bs=1 seek=7 conv=notrunc status=none

# The image: the program twice (in place, and compressed by a rule), a whole
# file for XIP, a compressed file; reference copies go in the initramfs.
cp "$work/xipprog" "$work/tree/bin/xipprog"
cp "$work/xipprog" "$work/tree/bin/xipprog-z"
python3 -c "import random; open('$work/tree/data/xip-partial.bin', 'wb').write(random.Random(5).randbytes(3 * 4096 + 100))"
seq 1 2000 > "$work/tree/data/compressed.txt"
printf 'xip /data/xip-*\nnoxip /bin/xipprog-z\n' > "$work/rules"
"$top/scripts/mkcramfs" -X -R "$work/rules" "$work/tree" "$work/flash.img" > /dev/null
cp "$work/tree/bin/xipprog" "$work/tree/data/"* "$work/stage/ref/"
cp "$module/fs/cramfs_xip/cramfs_xip.ko" "$kb/fs/cramfs/cramfs.ko" "$work/stage/lib/modules/"
mk_initramfs "$work/stage" "$kb" "$work/initramfs.cpio.gz"

initrd=0x21c00000
"$top/scripts/build-dtb.sh" "$top/$DTS" "$kb" "$work/board.dtb"
fdtput -t x "$work/board.dtb" /chosen linux,initrd-start $initrd
fdtput -t x "$work/board.dtb" /chosen linux,initrd-end \
	$(printf '%x' $((initrd + $(stat -c %s "$work/initramfs.cpio.gz"))))

console=$work/console.log
qemu-system-arm -M mps2-an385 -display none -monitor none -serial "file:$console" -no-reboot \
	-kernel "$work/shim.elf" \
	-device loader,file="$kb/$KERNEL_IMAGE",addr=0x21008000 \
	-device loader,file="$work/board.dtb",addr=0x21f00000 \
	-device loader,file="$work/initramfs.cpio.gz",addr=$initrd \
	-device loader,file="$work/flash.img",addr=$FLASH_PHYS \
	< /dev/null 2> "$work/qemu.err" &
qpid=$!
deadline=$((SECONDS + timeout_s))
while kill -0 $qpid 2>/dev/null; do
	grep -q '^GUEST-DONE' "$console" 2>/dev/null && { sleep 1; break; }
	[ $SECONDS -lt $deadline ] || { log "guest timed out after ${timeout_s}s"; break; }
	sleep 1
done
kill $qpid 2>/dev/null || true
wait $qpid 2>/dev/null || true
"$top/tests/lib/judge-console.sh" "$console" "$board-$kver"
