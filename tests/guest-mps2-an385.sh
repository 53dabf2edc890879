#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the mps2-an385 board (Cortex-M3, no MMU) in QEMU and run the no-MMU
# guest checks (tests/guest/nommu/init.c) against cramfs_xip.ko and mainline
# cramfs.ko; then boots a kernel with cramfs_xip built in from a root
# filesystem in flash (root=mtd:fs_partition, then root=mtd0), no initramfs,
# the same init.c as /sbin/init. Prints "PASS: name" / "FAIL: name" per check;
# everything it makes, and the console logs, are under
# build-tests/mps2-an385-<version>/.
#   tests/guest-mps2-an385.sh [KERNEL_VERSION]
# GUEST_QEMU: more QEMU options (make bench: -icount, for the speed rows).
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
. "$CRAMFS_XIP_TOP/tests/lib/initramfs.sh"
. "$CRAMFS_XIP_TOP/tests/lib/guest-wait.sh"
. "$CRAMFS_XIP_TOP/tests/lib/nommu-build.sh"

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
module=$(built_against "$kb" cramfs_xip)
KO_COPY=$work.ko/cramfs_xip.ko "$top/scripts/build-module.sh" "$kb" "$module" >&2
make -s -C "$top" tools >&2

# The boot shim, and freestanding Thumb-2 programs needing no relocation.
nommu_shim "$work/shim.elf"
nommu_prog "$work/stage/init" "$gdir/init.c"
nommu_prog "$work/xipprog" "$gdir/xipprog.c"
mark_fdpic "$work/xipprog"

# The image: the program twice (in place, and compressed by a rule), a whole
# file for XIP, a compressed file; reference copies go in the initramfs.
cp "$work/xipprog" "$work/tree/bin/xipprog"
cp "$work/xipprog" "$work/tree/bin/xipprog-z"
# The same program again: mkcramfs stores its data once, two inodes share it.
cp "$work/xipprog" "$work/tree/bin/xipprog-same"
python3 -c "import random; r = random.Random(5); open('$work/tree/data/xip-partial.bin', 'wb').write(r.randbytes(3 * 4096 + 100)); open('$work/tree/data/xip-exact.bin', 'wb').write(r.randbytes(2 * 4096))"
seq 1 2000 > "$work/tree/data/compressed.txt"
printf 'xip /data/xip-*\nnoxip /bin/xipprog-z\n' > "$work/rules"
"$top/scripts/mkcramfs" -X -R "$work/rules" "$work/tree" "$work/flash.img" > /dev/null
cp "$work/tree/bin/xipprog" "$work/tree/data/"* "$work/stage/ref/"
# A second image, XIP data aligned to 16 bytes only (-A 16), at ALIGNED_PHYS
# in init.c (inside the flash, past the first image), mounted by physaddr=.
mkdir -p "$work/atree/bin" "$work/atree/data"
cp "$work/tree/bin/xipprog" "$work/atree/bin/"
cp "$work/tree/data/xip-partial.bin" "$work/atree/data/"
"$top/scripts/mkcramfs" -X -A 16 -R "$work/rules" "$work/atree" "$work/aligned.img" > /dev/null
[ $((FLASH_PHYS + $(stat -c %s "$work/flash.img"))) -le $((0x200000)) ] ||
	die "flash.img reaches into the -A image at 0x200000"
cp "$work.ko/cramfs_xip.ko" "$kb/fs/cramfs/cramfs.ko" "$work/stage/lib/modules/"
mk_initramfs "$work/stage" "$kb" "$work/initramfs.cpio.gz"

initrd=0x21c00000
"$top/scripts/build-dtb.sh" "$top/$DTS" "$kb" "$work/board.dtb"
fdtput -t x "$work/board.dtb" /chosen linux,initrd-start $initrd
fdtput -t x "$work/board.dtb" /chosen linux,initrd-end \
	$(printf '%x' $((initrd + $(stat -c %s "$work/initramfs.cpio.gz"))))

# run CONSOLE DTB [INITRD]: one boot, stopped at GUEST-DONE or the timeout.
# With an initramfs, the images of $images ("FILE@ADDRESS ...") go in too.
images="$work/aligned.img@0x200000"
run() {
	local console=$1 dtb=$2 initrd_arg=() i
	[ -z "${3:-}" ] || initrd_arg=(-device loader,file="$3",addr=$initrd)
	[ -z "${3:-}" ] || for i in $images; do
		initrd_arg+=(-device loader,file="${i%@*}",addr="${i##*@}")
	done
	qemu-system-arm -M mps2-an385 -display none -monitor none -serial "file:$console" \
		-no-reboot -kernel "$work/shim.elf" \
		-device loader,file="$kernel",addr=0x21008000 \
		-device loader,file="$dtb",addr=0x21f00000 "${initrd_arg[@]}" \
		-device loader,file="$flash",addr=$FLASH_PHYS ${GUEST_QEMU:-} \
		< /dev/null 2> "$work/qemu.err" &
	guest_wait $! "$console" "$timeout_s"
}

kernel=$kb/$KERNEL_IMAGE
flash=$work/flash.img
run "$work/console.log" "$work/board.dtb" "$work/initramfs.cpio.gz"
# The checks init.c declares for each kind of boot.
checks() { sed -n "s/^#define CHECKS_$1[[:space:]]*\([0-9]*\)$/total=\1/p" "$gdir/init.c"; }
"$top/tests/lib/judge-console.sh" "$work/console.log" "$board-$kver" "$(checks MODULE_BOOT)"

# Verity, on kernels with MODULE_SIG (7.3's kernel-7.3.config): init.c's
# verity boot. The module built with verity; the image signed with the key
# the kernel's build generated in fs_partition; at 0x200000 on, 256 KiB
# each, mounted by physaddr=: the image with a byte of a page stored in
# place altered, with one of a compressed block altered, signed with a key
# no keyring holds, and without verity (verity-cases.txt: the pages).
if [ -f "$kb/certs/signing_key.pem" ]; then
	key=$kb/certs/signing_key.pem
	v=$work/verity
	mkdir -p "$v/stage"/{proc,mnt,ref,lib/modules/verity}
	KO_COPY=$work.ko/verity/cramfs_xip.ko "$top/scripts/build-module.sh" "$kb" \
		"$module-verity" CONFIG_CRAMFS_XIP_VERITY=y >&2
	cp "$work.ko/verity/cramfs_xip.ko" "$v/stage/lib/modules/verity/"
	cp "$kb/fs/cramfs/cramfs.ko" "$v/stage/lib/modules/"
	cp "$work/stage/init" "$v/stage/"
	cp "$work/stage/ref/"* "$v/stage/ref/"
	mkv() { "$top/scripts/mkcramfs" -X -R "$work/rules" "$@" > /dev/null; }
	mkv --verity --sign-key "$key" --sign-cert "$key" "$work/tree" "$v/signed.img"
	"$top/scripts/cramfsck" --layout "$v/signed.img" > "$v/signed.layout"
	python3 - "$v" <<'PY'
import sys
v = sys.argv[1]
at = {}
for line in open(f"{v}/signed.layout"):
    f = line.split()
    if len(f) == 8 and f[1] == "block":
        at[(f[0], int(f[2].rstrip(":")))] = (f[3], int(f[5].rstrip(",")), int(f[6]))
kind, x, _ = at[("/data/xip-partial.bin", 1)]
assert kind == "xip", kind
kind, z, zlen = at[("/data/compressed.txt", 0)]
assert kind == "zlib", kind
img = open(f"{v}/signed.img", "rb").read()
for name, off in (("xip", x + 100), ("zlib", z + zlen // 2)):
    b = bytearray(img)
    b[off] ^= 0xff
    open(f"{v}/{name}.img", "wb").write(b)
open(f"{v}/stage/verity-cases.txt", "w").write("1 0\n")
PY
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 36500 -subj "/CN=cramfs-xip untrusted" \
		-keyout "$v/other.pem" -out "$v/other.crt" 2> /dev/null
	mkv --verity --sign-key "$v/other.pem" --sign-cert "$v/other.crt" "$work/tree" "$v/wrongkey.img"
	mkv "$work/tree" "$v/plain.img"
	for f in "$v"/{signed,xip,zlib,wrongkey,plain}.img; do
		[ "$(stat -c %s "$f")" -le $((0x40000)) ] || die "$f: over 256 KiB"
	done
	mk_initramfs "$v/stage" "$kb" "$v/initramfs.cpio.gz"
	cp "$work/board.dtb" "$v/board.dtb"
	fdtput -t x "$v/board.dtb" /chosen linux,initrd-end \
		$(printf '%x' $((initrd + $(stat -c %s "$v/initramfs.cpio.gz"))))
	flash=$v/signed.img
	images="$v/xip.img@0x200000 $v/zlib.img@0x240000 $v/wrongkey.img@0x280000 $v/plain.img@0x2c0000"
	run "$work/console-verity.log" "$v/board.dtb" "$v/initramfs.cpio.gz"
	"$top/tests/lib/judge-console.sh" "$work/console-verity.log" "$board-$kver verity" \
		"$(checks VERITY_BOOT)"
fi

# Root from flash: init.c as /sbin/init (FDPIC, in place), the files it checks
# and their checksums (FNV-1a, /etc/sums), mount points.
kr=$("$top/scripts/build-kernel.sh" "$board" "$kver" "$bdir/builtin.config")
grep -qx 'CONFIG_CRAMFS_XIP=y' "$kr/.config" || die "$kr: cramfs_xip is not built in"
r=$work/root
mkdir -p "$r"/{sbin,bin,etc,dev,proc,data}
cp "$work/stage/init" "$r/sbin/init"
mark_fdpic "$r/sbin/init"
cp "$work/tree/bin/xipprog" "$r/bin/"
cp "$work/tree/data/"* "$r/data/"
python3 - "$r" > "$work/sums" <<'PY'
import os, sys
top = sys.argv[1]
for d, _, files in sorted(os.walk(top)):
    for f in sorted(files):
        p = os.path.join(d, f)
        h = 2166136261
        data = open(p, "rb").read()
        for c in data:
            h = ((h ^ c) * 16777619) & 0xffffffff
        print(f"{h:08x} {len(data)} /{os.path.relpath(p, top)}")
PY
cp "$work/sums" "$r/etc/sums"
"$top/scripts/mkcramfs" -X -R "$work/rules" "$r" "$work/root.img" > /dev/null
kernel=$kr/$KERNEL_IMAGE
flash=$work/root.img
# root_boot NAME KERNEL_ARGS [FLASH_PROPERTY]
root_boot() {
	cp "$work/board.dtb" "$work/root-$1.dtb"
	[ -z "${3:-}" ] || fdtput -t s "$work/root-$1.dtb" /flash@10000 "$3" ""
	fdtput -d "$work/root-$1.dtb" /chosen linux,initrd-start
	fdtput -d "$work/root-$1.dtb" /chosen linux,initrd-end
	fdtput -t s "$work/root-$1.dtb" /chosen bootargs "console=ttyMPS0 $2 oops=panic panic=-1"
	run "$work/console-root-$1.log" "$work/root-$1.dtb"
	"$top/tests/lib/judge-console.sh" "$work/console-root-$1.log" "$board-$kver $2" \
		"$(checks ROOT_BOOT)"
}
root_boot named "root=mtd:fs_partition rootfstype=cramfs"
# The flash said to allow no unaligned direct access: physmap gives it no
# physical address (NO_XIP), but maps it; programs still run in place, at
# its kernel address.
root_boot numbered "root=mtd0 rootfstype=cramfs" no-unaligned-direct-access

# No MTD in the kernel at all: the root is mounted by its physical address.
kn=$("$top/scripts/build-kernel.sh" "$board" "$kver" "$bdir/nomtd.config")
grep -q '^# CONFIG_MTD is not set' "$kn/.config" || die "$kn: has MTD"
kernel=$kn/$KERNEL_IMAGE
# No MTD driver claims the flash there, so no memory resource bounds it: size=.
root_boot physaddr \
	"root=/dev/null rootfstype=cramfs rootflags=physaddr=$FLASH_PHYS,size=$FLASH_SIZE"
# Verity from the kernel command line (kernels with MODULE_SIG): cramfs_xip
# built in with verity, the root image made with --verity, its root hash in
# rootflags= and the policy in cramfs_xip.verity_required=1.
if [ -f "$kb/certs/signing_key.pem" ]; then
	kv=$("$top/scripts/build-kernel.sh" "$board" "$kver" "$bdir/builtin.config" \
		"$bdir/builtin-verity.config")
	grep -qx 'CONFIG_CRAMFS_XIP_VERITY=y' "$kv/.config" || die "$kv: no verity built in"
	kernel=$kv/$KERNEL_IMAGE
	flash=$work/root-verity.img
	h=$("$top/scripts/mkcramfs" -X -R "$work/rules" --verity "$r" "$flash" |
		sed -n 's/^mkcramfs: verity root hash //p')
	root_boot verity \
		"root=mtd:fs_partition rootfstype=cramfs rootflags=verity=$h cramfs_xip.verity_required=1"
	c=$work/console-root-verity.log
	if grep -q "(mtd:fs_partition): verity: [0-9]* blocks under a [0-9]-level tree, root hash $h, checked against the one given" "$c"; then
		echo "PASS: $board-$kver: root= with rootflags=verity=<root hash>: the root checked against it"
	else
		echo "FAIL: $board-$kver: root= with rootflags=verity=<root hash>: no verity line: see $c"
	fi
	# The same kernel, the same policy, the image without its trailer: no root.
	flash=$work/root.img
	cp "$work/board.dtb" "$work/root-refused.dtb"
	fdtput -d "$work/root-refused.dtb" /chosen linux,initrd-start
	fdtput -d "$work/root-refused.dtb" /chosen linux,initrd-end
	fdtput -t s "$work/root-refused.dtb" /chosen bootargs \
		"console=ttyMPS0 root=mtd:fs_partition rootfstype=cramfs cramfs_xip.verity_required=1 panic=-1"
	timeout_s=60 run "$work/console-root-refused.log" "$work/root-refused.dtb" || true
	if grep -q "verity: required, but the image has no verity trailer" "$work/console-root-refused.log" &&
		grep -q "VFS: Unable to mount root fs" "$work/console-root-refused.log"; then
		echo "PASS: $board-$kver: cramfs_xip.verity_required=1 and a root without verity: not mounted"
	else
		echo "FAIL: $board-$kver: cramfs_xip.verity_required=1 and a root without verity: see $work/console-root-refused.log"
	fi
fi
# What leaving MTD out saves: kernel size, and RAM at boot (from init).
meminfo() { tr -d '\r' < "$work/console-root-$1.log" | sed -n 's/^BENCH nommu-root-meminfo //p'; }
{
	echo "mtd vmlinux $("${CROSS_COMPILE}size" "$kr/vmlinux" | tail -n 1 | awk '{print $1, $2, $3}') $(meminfo named)"
	echo "nomtd vmlinux $("${CROSS_COMPILE}size" "$kn/vmlinux" | tail -n 1 | awk '{print $1, $2, $3}') $(meminfo physaddr)"
} | sed 's/^/BENCH nommu-kernel-size /' | tee "$work/kernel-size.txt" >&2
