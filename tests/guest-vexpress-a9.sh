#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the vexpress-a9 board (Cortex-A9, MMU) in QEMU and run the guest tests
# in tests/guest/vexpress-a9/ against cramfs_xip.ko and mainline cramfs.ko.
#   tests/guest-vexpress-a9.sh [--bench|--badimages] [--debug|--trace] [KERNEL_VERSION]
# Prints "PASS: name" / "FAIL: name" per check. Everything it makes, and the
# guest's console log, is under build-tests/vexpress-a9-<version>/.
# With --bench it runs tests/guest/bench/ instead and prints the guest's BENCH lines
# (GUEST_APPEND: more kernel arguments, e.g. the speed rounds' bench_module=M;
# GUEST_QEMU: more QEMU options, e.g. -icount);
# with --ramimage, tests/guest/ramimage/: RAM past mem= (QEMU -m 128M, the
# kernel given mem=126M) holding images put there by QEMU's loader, the
# first one also described as an mtd-ram (the struct page decision:
# Documentation/user-guide.md);
# with --verity, tests/guest/verity/: the module built with verity, a
# signed image in fs_partition and tampered copies in flash bank 1 (the
# kernel must have MODULE_SIG: kernel-7.3.config);
# with --badimages, only the bad-image run, over $BADIMAGES images from
# $BADIMAGES_START (tests/badimages.sh runs many such boots);
# with --profile-record or --profile-check, the two boots of the XIP profile
# round trip (tests/guest-profile.sh): tests/guest/profile-*/ against the
# image $PROFILE_IMAGE in fs_partition, with the files of $PROFILE_FILES
# in the guest's /images/profile (PROFILE_LABEL: a name for the run's
# directory, build-tests/profile-check-LABEL-vexpress-a9-<version>).
# --debug uses the debug kernel (KASAN, kmemleak, lockdep: debug.config);
# --trace the tracing kernel (function_graph: trace.config).
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
. "$CRAMFS_XIP_TOP/tests/lib/initramfs.sh"
. "$CRAMFS_XIP_TOP/tests/lib/guest-wait.sh"

board=vexpress-a9
suite=$board
fragments=()
variant=$board
mem=128M
while [ $# -gt 0 ]; do
	case $1 in
	--bench) suite=bench ;;
	--profile-record | --profile-check) suite=${1#--} ;;
	--ramimage) suite=ramimage ;;
	--verity) suite=verity ;;
	--badimages)
		suite=badimages
		mem=256M
		;;
	--debug)
		fragments+=("$CRAMFS_XIP_TOP/tests/boards/$board/debug.config")
		variant=$board-debug
		mem=256M
		# The allocation-failure series and LOAD_SECONDS (600) of load.
		timeout_s=${GUEST_TIMEOUT:-$((2400 + ${LOAD_SECONDS:-600}))}
		;;
	--trace)
		fragments+=("$CRAMFS_XIP_TOP/tests/boards/$board/trace.config")
		variant=$board-trace
		;;
	*) break ;;
	esac
	shift
done
kver=${1:-$KVER_DEFAULT}
timeout_s=${timeout_s:-${GUEST_TIMEOUT:-600}}
top=$CRAMFS_XIP_TOP
work=$top/build-tests/$variant-$kver
[ $suite = $board ] || work=$top/build-tests/$suite${PROFILE_LABEL:+-$PROFILE_LABEL}-$variant-$kver
. "$top/tests/boards/$board/board.env"

kb=$("$top/scripts/build-kernel.sh" "$board" "$kver" "${fragments[@]}")
log "kernel: $kb"
module=$(built_against "$kb" cramfs_xip)
KO_COPY=$work.ko/cramfs_xip.ko "$top/scripts/build-module.sh" "$kb" "$module" >&2
# The same module for memory-mapped MTDs only (28-mtd-only.sh).
KO_COPY=$work.ko/mtd-only/cramfs_xip.ko "$top/scripts/build-module.sh" "$kb" "$module-mtd-only" \
	CONFIG_CRAMFS_XIP_PHYSADDR=n CONFIG_CRAMFS_XIP_BLOCKDEV=n CONFIG_CRAMFS_XIP_MTD_READ=n >&2
make -s -C "$top" tools >&2

rm -rf "$work"
mkdir -p "$work/stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,mnt,tmp,images,tests,lib/modules/deps}
dts=$DTS
[ $suite != ramimage ] || dts=dts/vexpress-v2p-ca9-cramfs-xip-ramimage.dts
"$top/scripts/build-dtb.sh" "$top/$dts" "$kb" "$work/board.dtb"

# Test images and their manifests, made on the host.
python3 "$top/tests/lib/mktrees.py" "$work/trees"
img=$work/stage/images
for t in tiny types big; do
	mkfs.cramfs "$work/trees/$t" "$img/$t.img" > /dev/null
	"$top/tests/lib/manifest.sh" "$work/trees/$t" 255 > "$img/$t.manifest"
done
mkfs.cramfs -N big "$work/trees/tiny" "$img/bigendian.img" > /dev/null
# Holes (-z), hard links and files with the same data (mktrees.py's shared
# tree), by our mkcramfs.
"$top/scripts/mkcramfs" -z "$work/trees/shared" "$img/shared.img" > /dev/null
"$top/tests/lib/manifest.sh" "$work/trees/shared" 255 > "$img/shared.manifest"
# The XIP image: BusyBox and xiptest (read-only segments in place), whole
# files chosen by a rule (one with a partial last page, one of whole pages),
# and a compressed file.
"${CROSS_COMPILE}gcc" -static -O2 -Wall -o "$work/xiptest" "$top/tests/guest/xiptest.c"
x=$work/trees/xip
mkdir -p "$x/bin" "$x/data"
cp "$CRAMFS_XIP_CACHE/guest-debs/root/bin/busybox" "$work/xiptest" "$x/bin/"
python3 -c "import random; r = random.Random(4); open('$x/data/xip-partial.bin', 'wb').write(r.randbytes(3 * 4096 + 100)); open('$x/data/xip-exact.bin', 'wb').write(r.randbytes(2 * 4096))"
seq 1 20000 > "$x/data/compressed.txt"
printf 'xip /data/xip-*\n' > "$work/xip.rules"
"$top/scripts/mkcramfs" -X -R "$work/xip.rules" "$x" "$img/xip.img" > /dev/null
"$top/tests/lib/manifest.sh" "$x" 255 > "$img/xip.manifest"
"$top/scripts/cramfsck" --layout "$img/xip.img" > "$img/xip.layout"
mkdir -p "$img/xip-ref"
cp -a "$x/." "$img/xip-ref/"
# The command lines build systems run (Buildroot's host-cramfs: -L, and
# -X -X for XIP on an MMU), on the BusyBox tree (10-mount.sh).
bbt=$work/trees/bbtree
mkdir -p "$bbt/bin"
cp "$CRAMFS_XIP_CACHE/guest-debs/root/bin/busybox" "$bbt/bin/"
"$top/scripts/mkcramfs" -L "$bbt" "$img/buildroot.img" > /dev/null
"$top/scripts/mkcramfs" -L -X -X "$bbt" "$img/buildroot-xip.img" > /dev/null
"$top/tests/lib/manifest.sh" "$bbt" 255 > "$img/buildroot.manifest"
# Reads that mainline cramfs gets wrong (48-mainline-reads.sh): files stored
# in place whose size is a multiple of the page or not, an ELF file whose
# last page is text, a file of holes, a compressed one; the files mainline
# misreads are those of whole pages whose last block is plain and direct.
rt=$work/trees/reads
mkdir -p "$rt"
python3 - "$rt" <<'PY'
import random, struct, sys
d, r = sys.argv[1], random.Random(37)
for name, size in (("sticky-64k", 65536), ("sticky-65000", 65000), ("sticky-8k", 8192),
                   ("sticky-4k", 4096), ("sticky-4097", 4097)):
    open(f"{d}/{name}", "wb").write(r.randbytes(size))
# An ELF file of 3 whole pages, its one segment executable: all of it text.
size = 3 * 4096
eh = b"\x7fELF" + bytes([1, 1, 1]) + bytes(9) + struct.pack("<HHIIIIIHHHHHH", 2, 40, 1, 0, 52, 0, 0, 52, 32, 1, 40, 0, 0)
ph = struct.pack("<8I", 1, 0, 0x10000, 0x10000, size, size, 5, 4096)
open(f"{d}/elf-text", "wb").write(eh + ph + r.randbytes(size - len(eh) - len(ph)))
open(f"{d}/holes", "wb").write(bytes(3 * 4096))
open(f"{d}/compressed-8k", "wb").write(b"compressible " * 630 + b"tail")
PY
chmod +t "$rt"/sticky-*
"$top/scripts/mkcramfs" -X -z "$rt" "$img/reads.img" > /dev/null
mkdir -p "$img/reads-ref"
cp "$rt"/* "$img/reads-ref/"
"$top/scripts/cramfsck" --layout "$img/reads.img" | python3 -c "
import sys
last = {}
for line in sys.stdin:
    f = line.split()
    if len(f) > 4 and f[1] == 'block':
        last[f[0]] = f[3]
import os
for path, kind in sorted(last.items()):
    if kind == 'xip' and os.path.getsize('$rt' + path) % 4096 == 0:
        print(path[1:])
" > "$img/reads.misread"
# A directory of 300 entries (43-readdir.sh), names of 9 bytes: one
# getdents64() entry each in 48 bytes.
dt=$work/trees/dirs
mkdir -p "$dt/many"
for i in $(seq -w 0 299); do echo "$i" > "$dt/many/entry-$i"; done
"$top/scripts/mkcramfs" "$dt" "$img/dirs.img" > /dev/null
# For the debugger (47-debug.sh): xiptest whose text is in place only on the
# page of bp_target(), the rest compressed (a mixed mapping), by a profile.
dbg=$work/trees/debug
mkdir -p "$dbg/bin"
cp "$work/xiptest" "$dbg/bin/xiptest-mixed"
page=$(python3 "$top/tests/lib/elf-page.py" "$work/xiptest" \
	"$("${CROSS_COMPILE}nm" "$work/xiptest" | sed -n 's/^\([0-9a-f]*\) T bp_target$/\1/p')")
printf 'page-size 4096\n/bin/xiptest-mixed %s\n' "$page" > "$work/debug.profile"
"$top/scripts/mkcramfs" -X --xip-profile "$work/debug.profile" "$dbg" "$img/debug.img" > /dev/null
echo "$page" > "$img/debug.page"
# Bad images: a small XIP seed, one crafted image per known mainline hole, and
# a deterministic corpus of mutations of the small images.
sx=$work/trees/smallxip
mkdir -p "$sx/bin" "$sx/data"
python3 "$top/tests/lib/badimages.py" tinyelf "$sx/bin/tiny"
cp "$x/data/xip-partial.bin" "$x/data/compressed.txt" "$sx/data/"
"$top/scripts/mkcramfs" -X -R "$work/xip.rules" "$sx" "$img/smallxip.img" > /dev/null
python3 "$top/tests/lib/badimages.py" crafted "$img/crafted" "$img/smallxip.img" 0x48000000
# What FIEMAP should list of each file, page by page (42-fiemap.sh).
for i in "xip $x" "smallxip $sx" "shared $work/trees/shared"; do
	set -- $i
	"$top/scripts/cramfsck" --layout "$img/$1.img" |
		python3 "$top/tests/lib/layout-pages.py" "$2" > "$img/$1.pages"
done
# 200 on the default kernel; 100 on the others; 20 on the debug kernel, where
# each takes 4 times as long (make badimages-debug runs thousands).
# The first third of them also through a loop device (all of them in a
# make badimages run, which sets BADIMAGES).
# None for the profile boots, which do not run them.
nbad=${BADIMAGES:-200}
[ $variant = $board ] && [ "$kver" = "$KVER_DEFAULT" ] || nbad=${BADIMAGES:-100}
[ $variant != $board-debug ] || nbad=${BADIMAGES:-20}
case $suite in profile-*) nbad=0 ;; esac
nloop=${BADIMAGES:-$((nbad / 3))}
python3 "$top/tests/lib/badimages.py" corpus "$work/stage/badimages" "$nbad" \
	"$img/tiny.img" "$img/types.img" "$img/smallxip.img"
echo "$nbad" > "$work/stage/badimages/count"
echo "$nloop" > "$work/stage/badimages/loop-count"
# BusyBox and a small compressed file, for the benchmark.
mkdir -p "$work/trees/busybox/bin" "$work/trees/busybox/etc"
cp "$CRAMFS_XIP_CACHE/guest-debs/root/bin/busybox" "$work/trees/busybox/bin/"
seq 1 2000 > "$work/trees/busybox/etc/numbers.txt"
python3 - "$img" <<'PY'
import sys
d = sys.argv[1]
open(f"{d}/garbage.img", "wb").write(bytes((i * 7 + 3) & 0xff for i in range(65536)))
b = bytearray(open(f"{d}/types.img", "rb").read())
b[len(b) - 64] ^= 0x01
open(f"{d}/badcrc.img", "wb").write(b)
PY

# Flash bank 0: the XIP image in fs_partition (at 1 MiB, physical 0x40100000),
# the first 256 KiB of the big image in small_partition, the types image in
# spare (0x42140000); bank 1 empty. Each bank is 64 MiB.
truncate -s 64M "$work/flash0.img" "$work/flash1.img"
flash_img=$img/xip.img
spare_img=$img/types.img
if [ $suite = bench ]; then
	# The same BusyBox tree twice: laid out for XIP, and all compressed. On a
	# kernel with MODULE_SIG (7.3, verity's rounds) made with --verity, their
	# root hashes for the guest.
	bv=
	[ ! -f "$kb/certs/signing_key.pem" ] || bv=--verity
	"$top/scripts/mkcramfs" -X $bv "$work/trees/busybox" "$img/bench-xip.img" |
		sed -n 's/^mkcramfs: verity root hash //p' > "$img/bench-xip.root"
	"$top/scripts/mkcramfs" $bv "$work/trees/busybox" "$img/bench-zlib.img" |
		sed -n 's/^mkcramfs: verity root hash //p' > "$img/bench-zlib.root"
	flash_img=$img/bench-xip.img
	spare_img=$img/bench-zlib.img
fi
if [ $suite = verity ]; then
	# The verity module, and images signed with the key this kernel's build
	# generated (certs/signing_key.pem, in its built-in keyring).
	key=$kb/certs/signing_key.pem
	[ -f "$key" ] || die "$kb has no certs/signing_key.pem: a kernel without MODULE_SIG"
	KO_COPY=$work.ko/verity/cramfs_xip.ko "$top/scripts/build-module.sh" "$kb" \
		"$module-verity" CONFIG_CRAMFS_XIP_VERITY=y >&2
	# BusyBox and xiptest in place, the XIP tree's data files, and a
	# directory whose entries reach past the image's first 4 KiB.
	vt=$work/trees/verity
	mkdir -p "$vt/many"
	cp -a "$x/." "$vt/"
	for i in $(seq -w 0 599); do echo "$i" > "$vt/many/entry-$i"; done
	"$top/tests/lib/manifest.sh" "$vt" 255 > "$img/verity.manifest"
	mkx() { "$top/scripts/mkcramfs" -X -R "$work/xip.rules" "$@"; }
	# The images stay out of the initramfs: they go into the flash.
	vi=$work/verity
	mkdir -p "$vi" "$img/cases"
	mkx --verity --sign-key "$key" --sign-cert "$key" "$vt" "$vi/signed.img" > "$work/signed.out"
	sed -n 's/^mkcramfs: verity root hash //p' "$work/signed.out" > "$img/signed.root"
	"$top/scripts/cramfsck" --layout "$vi/signed.img" > "$vi/signed.layout"
	python3 "$top/tests/lib/verity-cases.py" "$vi/signed.img" "$vi/signed.layout" "$vi/cases" >&2
	cp "$vi"/cases/{cases,files,dir.listed,xip.offset,*.expect} "$img/cases/"
	stat -c %s "$vi/signed.img" > "$img/signed.bytes"
	# A key no keyring of the kernel holds.
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 36500 -subj "/CN=cramfs-xip untrusted" \
		-keyout "$work/other.pem" -out "$work/other.crt" 2> /dev/null
	mkx --verity --sign-key "$work/other.pem" --sign-cert "$work/other.crt" "$vt" \
		"$vi/wrongkey.img" > /dev/null
	mkx --verity "$vt" "$vi/unsigned.img" | sed -n 's/^mkcramfs: verity root hash //p' \
		> "$img/unsigned.root"
	mkx "$vt" "$vi/plain.img" > /dev/null
	size=$(od -An -tu4 -j4 -N4 "$vi/signed.img" | tr -d ' ')
	head -c "$size" "$vi/signed.img" > "$vi/stripped.img"
	flash_img=$vi/signed.img
fi
case $suite in
profile-*)
	flash_img=${PROFILE_IMAGE:?}
	cp -r "${PROFILE_FILES:?}" "$img/profile"
	;;
esac
dd if="$flash_img" of="$work/flash0.img" bs=64k seek=$((FS_PARTITION_OFFSET / 65536)) \
	conv=notrunc status=none
dd if="$spare_img" of="$work/flash0.img" bs=64k seek=$((0x2140000 / 65536)) \
	conv=notrunc status=none
dd if="$img/big.img" of="$work/flash0.img" bs=64k seek=$((0x2100000 / 65536)) count=4 \
	conv=notrunc status=none
# Flash bank 1 (0x44000000, no driver: images mounted by address): the XIP
# image at its start, the types image at 32 MiB, and at 64 KiB before its
# end the XIP image's first 64 KiB, whose size field reaches past the bank.
dd if="$img/xip.img" of="$work/flash1.img" conv=notrunc status=none
dd if="$img/types.img" of="$work/flash1.img" bs=64k seek=$((0x2000000 / 65536)) \
	conv=notrunc status=none
dd if="$img/xip.img" of="$work/flash1.img" bs=64k seek=$((0x3ff0000 / 65536)) count=1 \
	conv=notrunc status=none
# 8 KiB before the types image, the tiny image with a size field of 12 KiB:
# its range reaches the types image's (45-physaddr.sh mounts both).
python3 - "$img/tiny.img" "$work/flash1.img" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
assert len(b) <= 0x2000
struct.pack_into("<I", b, 4, 0x3000)
with open(sys.argv[2], "r+b") as f:
    f.seek(0x1ffe000)
    f.write(b)
PY
# The verity boot: bank 1 holds the tampered and the other images instead,
# one each 4 MiB, mounted by physaddr= (bank1.list: name and address).
if [ $suite = verity ]; then
	truncate -s 0 "$work/flash1.img"
	truncate -s 64M "$work/flash1.img"
	a=0
	: > "$img/bank1.list"
	for f in "$vi"/cases/*.img "$vi"/{wrongkey,unsigned,plain,stripped}.img; do
		n=$(basename "$f" .img)
		dd if="$f" of="$work/flash1.img" bs=64k seek=$((a / 65536)) conv=notrunc status=none
		printf '%s 0x%x\n' "$n" $((0x44000000 + a)) >> "$img/bank1.list"
		a=$((a + 0x400000))
	done
	# Two images back to back: the unsigned one, and right after its last
	# byte (its verity area's end) the one without verity.
	b=$((a + $(stat -c %s "$vi/unsigned.img")))
	dd if="$vi/unsigned.img" of="$work/flash1.img" bs=4096 seek=$((a / 4096)) conv=notrunc status=none
	dd if="$vi/plain.img" of="$work/flash1.img" bs=4096 seek=$((b / 4096)) conv=notrunc status=none
	printf 'pair-first 0x%x\npair-second 0x%x\n' $((0x44000000 + a)) $((0x44000000 + b)) \
		>> "$img/bank1.list"
fi
# The SD card (a block device): the XIP image at its start. QEMU wants a
# power-of-two size.
truncate -s 8M "$work/sd.img"
dd if="$([ $suite = verity ] && echo "$vi/signed.img" || echo "$img/xip.img")" of="$work/sd.img" \
	conv=notrunc status=none

# The guest: BusyBox, mtd-utils with its libraries, modules, tests.
groot=$CRAMFS_XIP_CACHE/guest-debs/root
cp "$groot/bin/busybox" "$work/stage/bin/"
ln -s busybox "$work/stage/bin/sh"
cp -a "$groot/lib" "$work/stage/"
cp -a "$groot/usr/lib" "$work/stage/usr/" 2>/dev/null || true
for t in flash_erase flashcp mtdinfo filefrag; do cp "$groot/usr/sbin/$t" "$work/stage/usr/sbin/"; done
rm -rf "$work/stage/usr/lib/arm-linux-gnueabihf/gconv" "$work/stage/usr/share"
cp "$work.ko/cramfs_xip.ko" "$work/stage/lib/modules/"
if [ $suite = verity ]; then
	mkdir -p "$work/stage/lib/modules/verity"
	cp "$work.ko/verity/cramfs_xip.ko" "$work/stage/lib/modules/verity/"
fi
mkdir -p "$work/stage/lib/modules/mtd-only"
cp "$work.ko/mtd-only/cramfs_xip.ko" "$work/stage/lib/modules/mtd-only/"
for m in fs/cramfs/cramfs.ko drivers/mtd/devices/block2mtd.ko drivers/mtd/devices/mtdram.ko \
	drivers/block/brd.ko; do
	cp "$kb/$m" "$work/stage/lib/modules/"
done
# Mainline cramfs with its fix (scripts/patches/mainline-cramfs/), for 48.
fixed=$(built_against "$kb" mainline-cramfs-fixed)
"$top/tests/lib/mainline-cramfs-fixed.sh" "$kb" "$fixed"
mkdir -p "$work/stage/lib/modules/fixed"
cp "$fixed/cramfs.ko" "$work/stage/lib/modules/fixed/"
[ ! -f "$kb/lib/zlib_inflate/zlib_inflate.ko" ] ||
	cp "$kb/lib/zlib_inflate/zlib_inflate.ko" "$work/stage/lib/modules/deps/"
# The test MTD whose reads fail on request (82-flash-errors.sh), and the
# allocation-failure driver (80-faults.sh).
fm=$(built_against "$kb" faultmtd)
mkdir -p "$fm"
(
	# Suites of one kernel may build it at once (the profile boots).
	flock 9
	for f in faultmtd.c Kbuild; do
		cmp -s "$top/tests/guest/faultmtd/$f" "$fm/$f" || cp "$top/tests/guest/faultmtd/$f" "$fm/"
	done
	make -s -C "$kb" M="$fm" ARCH=arm CROSS_COMPILE="$CROSS_COMPILE" modules >&2
	cp "$fm/faultmtd.ko" "$work/stage/lib/modules/"
) 9> "$fm.lock"
"${CROSS_COMPILE}gcc" -static -O2 -Wall -o "$work/stage/bin/faultop" "$top/tests/guest/faultop.c"
[ -z "${LOAD_SECONDS:-}" ] || echo "$LOAD_SECONDS" > "$img/load-seconds"
cp "$top/tests/guest/init" "$work/stage/init"
cp "$work/xiptest" "$top/scripts/xip-in-place.sh" "$work/stage/bin/"
"${CROSS_COMPILE}gcc" -static -O2 -Wall -o "$work/stage/bin/xip-profile" "$top/scripts/xip-profile.c"
if [ $suite = bench ]; then
	"${CROSS_COMPILE}gcc" -static -O2 -Wall -o "$work/stage/bin/benchtool" \
		"$top/tests/guest/benchtool.c"
	# The fault windows make bench compares (bench_module=cramfs_xip-wN;
	# 0: every page in place inserted at mmap).
	for w in 0 1 64; do
		KO_COPY=$work/stage/lib/modules/cramfs_xip-w$w.ko "$top/scripts/build-module.sh" \
			"$kb" "$module-w$w" CRAMFS_XIP_WINDOW=$w >&2
	done
	# Verity's rounds (bench_module=verity-on).
	[ ! -f "$kb/certs/signing_key.pem" ] ||
		KO_COPY=$work/stage/lib/modules/cramfs_xip-verity.ko "$top/scripts/build-module.sh" \
			"$kb" "$module-verity" CONFIG_CRAMFS_XIP_VERITY=y >&2
fi
cp "$top/tests/guest/lib.sh" "$top/tests/lib/manifest.sh" "$work/stage/tests/"
if [ $suite = badimages ]; then
	cp "$top/tests/guest/vexpress-a9/55-badimages.sh" "$work/stage/tests/"
	printf '# checks: 1\ncheck "module loads" insmod /lib/modules/cramfs_xip.ko\n' > "$work/stage/tests/10-load.sh"
else
	cp "$top"/tests/guest/$suite/[0-9]*.sh "$work/stage/tests/"
	# GUEST_ONLY="10 46": only those scripts (while working on them).
	if [ -n "${GUEST_ONLY:-}" ]; then
		rm -f "$work"/stage/tests/[0-9]*.sh
		for t in $GUEST_ONLY; do cp "$top"/tests/guest/$suite/$t-*.sh "$work/stage/tests/"; done
	fi
fi
# The debug kernel checks our module: the mainline comparison is left out.
# Allocation failures and load need it (fault injection, kmemleak, KASAN).
[ $variant = $board ] || rm -f "$work/stage/tests/20-mainline.sh" \
	"$work/stage/tests/26-media-mainline.sh" "$work/stage/tests/48-mainline-reads.sh"
[ $variant = $board-debug ] || rm -f "$work/stage/tests/80-faults.sh" \
	"$work/stage/tests/85-load.sh"
# The ramimage boot: images past the kernel's mem=, at 0x67e00000 and 0x67f00000.
ram_append=
ram_qemu=()
if [ $suite = ramimage ]; then
	# xiptest alone, laid out for XIP, for the mtd-ram's 1 MiB; the tiny
	# image in the last MiB, which no node describes.
	rx=$work/trees/ramxip
	mkdir -p "$rx/bin"
	cp "$work/xiptest" "$rx/bin/"
	"$top/scripts/mkcramfs" -X "$rx" "$img/ram-xip.img" > /dev/null
	"$top/tests/lib/manifest.sh" "$rx" 255 > "$img/ram-xip.manifest"
	ram_append=mem=126M
	ram_qemu=(-device "loader,file=$img/ram-xip.img,addr=0x67e00000,force-raw=on"
		-device "loader,file=$img/tiny.img,addr=0x67f00000,force-raw=on")
fi

mk_initramfs "$work/stage" "$kb" "$work/initramfs.cpio.gz"

# Boot. The guest ends itself with reboot -f; a guest that hangs is stopped
# at the timeout, and one that is done but stuck on its way down is stopped
# as soon as it prints GUEST-DONE.
console=$work/console.log
QEMU_AUDIO_DRV=none qemu-system-arm -M vexpress-a9 -m $mem -display none -monitor none -serial "file:$console" \
	-no-reboot -kernel "$kb/$KERNEL_IMAGE" -dtb "$work/board.dtb" \
	-initrd "$work/initramfs.cpio.gz" \
	-append "console=ttyAMA0 rdinit=/init oops=panic panic=-1 log_buf_len=1M $ram_append ${GUEST_APPEND:-}" \
	"${ram_qemu[@]}" \
	-drive if=pflash,file="$work/flash0.img",format=raw \
	-drive if=pflash,file="$work/flash1.img",format=raw \
	-drive if=sd,file="$work/sd.img",format=raw ${GUEST_QEMU:-} < /dev/null 2> "$work/qemu.err" &
guest_wait $! "$console" "$timeout_s"

if [ $suite = bench ]; then
	tr -d '\r' < "$console" | grep '^BENCH '
	grep -q '^GUEST-DONE' "$console" || { log "benchmark did not finish: see $console"; exit 1; }
	exit 0
fi
"$top/tests/lib/judge-console.sh" "$console" "$variant-$kver" "$work"/stage/tests/[0-9]*.sh

# The footprint the README states: size(1)'s text of the default module
# (every medium built in) against 6.1's kernel, under 18 KiB, built with the
# kernel's own stack protector (its .config says which; kbuild's command
# line for each object, in its .o.cmd file, must end with that one).
if [ $suite = $board ] && [ $variant = $board ] && [ "$kver" = 6.1 ]; then
	text=$("${CROSS_COMPILE}size" "$work.ko/cramfs_xip.ko" | awk 'NR == 2 { print $1 }')
	if [ -n "$text" ] && [ "$text" -lt 18432 ]; then
		echo "PASS: $variant-$kver: module text $text bytes, under 18432"
	else
		echo "FAIL: $variant-$kver: module text ${text:-unknown} bytes, not under 18432" \
			"(make bench: Documentation/benchmarks.md says where it goes)"
	fi
	want=-fno-stack-protector
	grep -q '^CONFIG_STACKPROTECTOR=y' "$kb/.config" && want=-fstack-protector
	grep -q '^CONFIG_STACKPROTECTOR_STRONG=y' "$kb/.config" && want=-fstack-protector-strong
	got=$(for c in "$module"/fs/cramfs_xip/.*.o.cmd; do
		grep -o -- '-f\(no-\)\?stack-protector[a-z-]*' "$c" | tail -n 1
	done | sort | uniq -c | awk '{ print $2 " (" $1 " objects)" }' | paste -sd, -)
	if [ "${got% (*}" = "$want" ] && [ "$got" = "${got%%,*}" ]; then
		echo "PASS: $variant-$kver: built with the kernel's stack protector: $got"
	else
		echo "FAIL: $variant-$kver: built with $got, the kernel asks for $want"
	fi
	# The files call down only: mount on top, the image's bytes at the bottom.
	objs=$(ls "$module"/fs/cramfs_xip/*.o | grep -v '/cramfs_xip\.\(mod\.\)\?o$')
	# shellcheck disable=SC2086 # one object per word
	if python3 "$top/tests/lib/call-layers.py" "${CROSS_COMPILE}nm" $objs > "$work/layers.txt"; then
		echo "PASS: $variant-$kver: no call cycle between the module's files ($work/layers.txt)"
	else
		echo "FAIL: $variant-$kver: $(tail -n 1 "$work/layers.txt") ($work/layers.txt)"
	fi
fi
