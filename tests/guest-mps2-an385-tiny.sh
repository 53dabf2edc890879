#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The tiny system on mps2-an385 (Cortex-M3, no MMU): the kernel executes in
# place from flash (CONFIG_XIP_KERNEL, Debian's linux-source and
# tests/boards/mps2-an385-tiny/kernel.config with its kernel-VERSION.config,
# no patches), the root filesystem is a cramfs_xip image in that flash, init
# and the XIP program run in place.
#   tests/guest-mps2-an385-tiny.sh [VERSION]          make check: boots at
#                                        mem=768K with root=mtd:fs_partition,
#                                        and by rootflags=physaddr= on a kernel
#                                        without MTD; PASS/FAIL lines
#   tests/guest-mps2-an385-tiny.sh --demo [VERSION]   make demo BOARD=mps2-an385
#   tests/guest-mps2-an385-tiny.sh --bench [VERSION]  make bench: the least mem=
#                                        of four systems, and where the RAM goes;
#                                        on another VERSION than 6.1 the XIP
#                                        system's only, its names suffixed
#                                        -VERSION (the 7.3 row beside 6.1's)
# VERSION: the kernel (6.1 unless given). Everything it makes, and each
# boot's console log, is under build-tests/mps2-an385-tiny-VERSION/.
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
. "$CRAMFS_XIP_TOP/tests/lib/guest-wait.sh"
. "$CRAMFS_XIP_TOP/tests/lib/nommu-build.sh"

mode=check
case ${1:-} in --demo | --bench) mode=$1; shift ;; esac
board=mps2-an385-tiny
kver=${1:-$KVER_DEFAULT}
top=$CRAMFS_XIP_TOP
work=$top/build-tests/$board-$kver
bdir=$top/tests/boards/$board
. "$bdir/board.env"
ram_base=0x21000000
mem=${TINY_MEM:-768K}
TINY_ARGS=${TINY_ARGS:-}

kb=$("$top/scripts/build-kernel.sh" "$board" "$kver")
log "kernel: $kb"
grep -qx "CONFIG_XIP_PHYS_ADDR=$KERNEL_PHYS" "$kb/.config" ||
	die "$kb: the kernel is not linked for $KERNEL_PHYS in flash"
[ $((KERNEL_PHYS + $(stat -c %s "$kb/$KERNEL_IMAGE"))) -le $((FLASH_PHYS)) ] ||
	die "the kernel ($(stat -c %s "$kb/$KERNEL_IMAGE") bytes at $KERNEL_PHYS) reaches the root image at $FLASH_PHYS"
rm -rf "$work"
mkdir -p "$work/root"/{sbin,bin,proc}
make -s -C "$top" tools >&2

# The boot shim (entering the kernel in flash, the device tree in flash), and
# the programs: freestanding FDPIC, each with the stack it needs (the FDPIC
# loader gives 128 KiB to a program that does not say).
nommu_shim "$work/shim.elf" -DSHIM_SP=$((ram_base + 0x8000)) -DSHIM_DTB=$DTB_PHYS \
	-DSHIM_KERNEL=$KERNEL_PHYS
nommu_prog "$work/root/sbin/init" "$top/tests/guest/nommu/tiny-init.c" -Wl,-z,stack-size=8192
nommu_prog "$work/root/bin/xipprog" "$top/tests/guest/nommu/xipprog.c" -Wl,-z,stack-size=8192
mark_fdpic "$work/root/sbin/init"
mark_fdpic "$work/root/bin/xipprog"
# The root image with the programs' text stored for XIP; the same stored
# compressed; the same files as an initramfs (for the comparisons).
"$top/scripts/mkcramfs" -X "$work/root" "$work/root-xip.img" > /dev/null
"$top/scripts/mkcramfs" "$work/root" "$work/root-z.img" > /dev/null
for i in root-xip root-z; do
	[ "$(stat -c %s "$work/$i.img")" -le $((FLASH_SIZE)) ] || die "$i.img is larger than its partition"
done
. "$top/tests/lib/initramfs.sh"
mk_initramfs "$work/root" "$kb" "$work/initramfs.cpio.gz"
"$top/scripts/build-dtb.sh" "$top/$DTS" "$kb" "$work/board.dtb"

checks=$(sed -n 's/^#define CHECKS_TINY_BOOT[[:space:]]*\([0-9]*\)$/\1/p' \
	"$top/tests/guest/nommu/tiny-init.c")
[ -n "$checks" ] || die "no CHECKS_TINY_BOOT in tests/guest/nommu/tiny-init.c"

# boot NAME KERNEL_DIR IMAGE|initramfs MEM ARGS [TIMEOUT]: one boot, its console
# in $work/console-NAME.log; it ends when init powers off (QEMU exits), on a
# panic (panic=-1, QEMU exits), or at the timeout.
boot() {
	local name=$1 k=$2 img=$3 m=$4 args=$5 t=${6:-120} dtb=$work/$1.dtb extra=()
	local console=$work/console-$1.log
	cp "$work/board.dtb" "$dtb"
	if [ "$img" = initramfs ]; then
		# The initramfs is loaded at the top of RAM (a boot loader's copy),
		# and nothing uses the flash partition: its node goes.
		local size start
		size=$(stat -c %s "$work/initramfs.cpio.gz")
		start=$(( (ram_base + ${m%K} * 1024 - size) & ~4095 ))
		fdtput -r "$dtb" /flash@200000
		fdtput -t x "$dtb" /chosen linux,initrd-start "$(printf %x $start)"
		fdtput -t x "$dtb" /chosen linux,initrd-end "$(printf %x $((start + size)))"
		extra=(-device loader,file="$work/initramfs.cpio.gz",addr=$start)
	else
		extra=(-device loader,file="$img",addr=$FLASH_PHYS)
	fi
	# The device tree's command line, then this boot's (the last root= counts).
	fdtput -t s "$dtb" /chosen bootargs \
		"$(fdtget "$work/board.dtb" /chosen bootargs) mem=$m $args $TINY_ARGS oops=panic panic=-1"
	rm -f "$console"
	qemu-system-arm -M mps2-an385 -display none -monitor none \
		-serial "file:$console" -no-reboot -kernel "$work/shim.elf" \
		-device loader,file="$dtb",addr=$DTB_PHYS \
		-device loader,file="$k/$KERNEL_IMAGE",addr=$KERNEL_PHYS "${extra[@]}" \
		${GUEST_QEMU:-} < /dev/null 2> "$work/qemu-$name.err" &
	# The board's restart does not end QEMU: the console says when it is over
	# (or that it failed: the OOM killer's victims may leave init waiting).
	guest_wait $! "$console" "$t" '^GUEST-DONE|Reboot failed|end Kernel panic|Out of memory'
	touch "$console"
}

# passed NAME: the boot reached init, ran every check, and none failed.
passed() {
	local c
	c=$(tr -d '\r' < "$work/console-$1.log")
	grep -q '^GUEST-DONE' <<< "$c" && ! grep -q '^RESULT FAIL' <<< "$c" &&
		[ "$(grep -c '^RESULT PASS' <<< "$c")" -ge "$checks" ]
}

# The device tree's command line mounts root=mtd:fs_partition.
root_mtd=""
root_phys="root=/dev/null rootfstype=cramfs rootflags=physaddr=$FLASH_PHYS,size=$FLASH_SIZE"

case $mode in
check)
	boot xip "$kb" "$work/root-xip.img" "$mem" "$root_mtd"
	"$top/tests/lib/judge-console.sh" "$work/console-xip.log" "$board mem=$mem root=mtd:fs_partition" \
		"total=$checks"
	# Built in, the zlib workspace check runs among the first initcalls,
	# while 64 KiB can still be had in one piece (fs/cramfs_xip/data.c).
	if ! grep -q '^GUEST-DONE' "$work/console-xip.log"; then
		echo "FAIL: $board mem=$mem: the zlib workspace check: no whole boot to look at"
	elif grep -q 'zlib workspace layout' "$work/console-xip.log"; then
		echo "FAIL: $board mem=$mem: the zlib workspace check did not run at boot: $(grep -o 'cramfs_xip: zlib workspace.*' "$work/console-xip.log")"
	else
		echo "PASS: $board mem=$mem: the zlib workspace check ran at boot (each mount takes 13 KB, not 43)"
	fi
	# Without MTD: the root image by its address.
	kn=$("$top/scripts/build-kernel.sh" "$board" "$kver" "$bdir/nomtd.config")
	grep -q '^# CONFIG_MTD is not set' "$kn/.config" || die "$kn: has MTD"
	boot physaddr "$kn" "$work/root-xip.img" "$mem" "$root_phys"
	"$top/tests/lib/judge-console.sh" "$work/console-physaddr.log" \
		"$board mem=$mem $root_phys" "total=$checks"
	;;
--demo)
	boot demo "$kb" "$work/root-xip.img" "$mem" "$root_mtd"
	c=$(tr -d '\r' < "$work/console-demo.log")
	cat <<EOF
=== The tiny system: mps2-an385 (Cortex-M3, no MMU), $mem of RAM
$(grep -o 'Linux version .*' <<< "$c" | head -n 1)
Flash (ssram1 at 0): boot shim 0x0, device tree $DTB_PHYS, kernel (xipImage,
$(stat -c %s "$kb/$KERNEL_IMAGE") bytes) $KERNEL_PHYS, root image (cramfs_xip, $(stat -c %s "$work/root-xip.img") bytes) $FLASH_PHYS.
Kernel command line: $(sed -n 's/^TINY cmdline //p' <<< "$c")

The kernel's own account of RAM at boot:
$(grep -o 'Memory: .*' <<< "$c" | head -n 1)

Where the kernel runs from (kallsyms):
$(sed -n 's/^TINY kernel text/  kernel text/p' <<< "$c")

init's mappings (/proc/1/maps: its text in flash, its data and stack in RAM):
$(sed -n 's/^TINY init maps /  /p' <<< "$c")

4 instances of /bin/xipprog, each checking where its own code runs:
$(sed -n 's/^RESULT [A-Z]* xipprog/  xipprog/p' <<< "$c")

/proc/meminfo while they run:
$(grep -E '^TINY-MEMINFO (MemTotal|MemFree|Cached|Slab|KernelStack|Percpu):' <<< "$c" |
	sed 's/^TINY-MEMINFO /  /')
EOF
	if passed demo; then
		echo "demo: every check passed ($(grep -c '^RESULT PASS' <<< "$c") of them)"
	else
		die "demo: the tiny system did not pass: see $work/console-demo.log"
	fi
	;;
--bench)
	# Another version than the default: its XIP system only (no kernel
	# with mainline cramfs built in to make), named with the version.
	sfx=
	[ "$kver" = "$KVER_DEFAULT" ] || sfx=-$kver
	if [ -z "$sfx" ]; then
		km=$("$top/scripts/build-kernel.sh" "$board" "$kver" "$bdir/mainline.config")
		grep -qx 'CONFIG_CRAMFS=y' "$km/.config" || die "$km: mainline cramfs is not built in"
	fi
	# least NAME KERNEL IMAGE ARGS: bisect mem= (KiB, a page at a time)
	# between a size that fails and one that passes.
	least() {
		local name=$1 k=$2 img=$3 args=$4 lo=256 hi=2048 mid
		# (A boot that passes takes about 10 s; one that fails early hangs
		# without a console.)
		boot "$name-$hi" "$k" "$img" "${hi}K" "$args" 30
		passed "$name-$hi" || { echo "BENCH tiny-least $name >$hi"; return; }
		boot "$name-$lo" "$k" "$img" "${lo}K" "$args" 30
		! passed "$name-$lo" || { echo "BENCH tiny-least $name <=$lo"; return; }
		while [ $((hi - lo)) -gt 4 ]; do
			mid=$(( (lo + hi) / 8 * 4 ))
			boot "$name-$mid" "$k" "$img" "${mid}K" "$args" 30
			if passed "$name-$mid"; then hi=$mid; else lo=$mid; fi
		done
		echo "BENCH tiny-least $name $hi"
		tr -d '\r' < "$work/console-$name-$hi.log" |
			sed -n "s/^TINY-MEMINFO \([A-Za-z_()]*\): *\([0-9]*\) kB$/BENCH tiny-meminfo $name \1 \2/p"
		tr -d '\r' < "$work/console-$name-$hi.log" | grep -o 'Memory: .*' | head -n 1 |
			sed "s/^/BENCH tiny-memory $name /"
	}
	least "xip$sfx" "$kb" "$work/root-xip.img" "$root_mtd"
	if [ -z "$sfx" ]; then
		least compressed "$kb" "$work/root-z.img" "$root_mtd tiny=ram"
		least mainline "$km" "$work/root-xip.img" "$root_mtd"
		least initramfs "$kb" initramfs "rdinit=/sbin/init tiny=ram"
	fi
	# What the kernel set aside at boot (memblock), by the function that asked.
	# (earlycon: the log holds 4 KiB, the early lines would be gone.)
	boot memblock "$kb" "$work/root-xip.img" "$mem" "memblock=debug earlycon"
	grep -q 'arm_memblock_init' "$work/console-memblock.log" ||
		die "memblock=debug: no kernel image reservation on the console: see $work/console-memblock.log"
	/usr/bin/python3 "$top/tests/lib/tiny-ram.py" --memblock "$work/console-memblock.log" |
		sed "s/^memblock /BENCH tiny-memblock$sfx /"
	# SLUB (7.3): what the slab holds, cache by cache, while the 4 programs
	# run: gdb stops the guest there and reads the page array.
	if [ -n "$sfx" ]; then
		port=$((20000 + $$ % 20000))
		rm -f "$work/console-slab.log"
		(
			for _ in $(seq 900); do
				grep -qs '^TINY-MEMINFO KernelStack' "$work/console-slab.log" && break
				sleep 0.1
			done
			gdb-multiarch -q -batch -ex "set architecture armv7" -ex "file $kb/vmlinux" \
				-ex "target remote 127.0.0.1:$port" -ex "source $top/tests/lib/slab-walk.py" \
				-ex detach
		) > "$work/slab-walk.txt" 2>&1 &
		walker=$!
		GUEST_QEMU="-gdb tcp:127.0.0.1:$port" boot slab "$kb" "$work/root-xip.img" "$mem" "$root_mtd"
		wait $walker || true
		total=$(sed -n 's/^slab-total //p' "$work/slab-walk.txt")
		slab=$(tr -d '\r' < "$work/console-slab.log" | sed -n 's/^TINY-MEMINFO Slab: *\([0-9]*\) kB$/\1/p')
		# The walk reads the same pages as the kernel's counter (a page either
		# way: the guest runs on between the two).
		[ -n "$total" ] && [ -n "$slab" ] && [ $((total * 4 - slab)) -le 4 ] &&
			[ $((slab - total * 4)) -le 4 ] ||
			die "slab walk: ${total:-no} pages against Slab ${slab:-?} kB: see $work/slab-walk.txt"
		sed -n "s/^slab /BENCH tiny-slab$sfx /p" "$work/slab-walk.txt"
		echo "BENCH tiny-slab-total$sfx $total $slab"
	fi
	echo "BENCH tiny-flash$sfx kernel $(stat -c %s "$kb/$KERNEL_IMAGE") image $(stat -c %s "$work/root-xip.img")"
	/usr/bin/python3 "$top/tests/lib/tiny-ram.py" "$kb" | sed "s/^/BENCH tiny-ram$sfx /"
	;;
*)
	die "usage: $0 [--demo|--bench] [VERSION]"
	;;
esac
