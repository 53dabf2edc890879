# SPDX-License-Identifier: GPL-2.0
# checks: 82
# Verity (fs/cramfs_xip/verity.c): the module built with it, the image in
# fs_partition made by mkcramfs -X --verity and signed with the key this
# kernel's build generated (in its built-in keyring), and in flash bank 1
# (bank1.list, mounted by physaddr=) copies with one byte inverted
# (tests/lib/verity-cases.py says where and what each must break), one
# signed with a key no keyring holds, one unsigned, one without verity and
# the signed one stripped of its trailer.
cases=/images/cases
at() { sed -n "s/^$1 //p" /images/bank1.list; }
bank1() { mount -t cramfs -o "physaddr=$(at "$1"),size=0x400000${2:+,$2}" none /mnt; }
hashed() { sed -n 's/^verity_blocks_hashed //p' /sys/fs/cramfs_xip/mtd:fs_partition; }
readall() { find /mnt -type f -exec cat {} + > /dev/null; }
# nomount NAME PATTERN CMD...: refuse, and unmount what a mount that
# wrongly succeeded left.
nomount() {
	refuse "$@"
	umount /mnt 2> /dev/null
}
klog_both() { klog_has "$1" && klog_has "$2"; }
# tree_blocks N: the blocks of the tree over N data blocks (2 levels).
tree_blocks() { echo $((($1 + 127) / 128 + 1)); }
root=$(cat /images/signed.root)

check "cramfs_xip with verity loads" insmod /lib/modules/verity/cramfs_xip.ko

# The signed image, verification required.
L=signed
mark
check "$L: mounts with -o verity_required" mount -t cramfs -o verity_required mtd:fs_partition /mnt
check "$L: its signature checks against the built-in keyring, root $root" klog_has \
	"(mtd:fs_partition): verity: [0-9]* blocks under a 2-level tree, root hash $root, signed by a trusted key"
check "$L: in place, at physical 0x40100000" klog_has \
	"(mtd:fs_partition): mounted [0-9]*-byte image at physical 0x40100000"
check "$L: the writable partition is warned about" klog_has \
	"(mtd:fs_partition): verity: the medium is writable: each block is checked once"
check "$L: /proc/mounts shows verity_required" \
	grep -q '^mtd:fs_partition /mnt cramfs ro,.*verity_required' /proc/mounts
h0=$(hashed)
check "$L: every file reads as the tree made it" same_manifest /images/verity.manifest /mnt
h1=$(hashed)
readall
h2=$(hashed)
echo 3 > /proc/sys/vm/drop_caches
readall
h3=$(hashed)
check "$L: blocks hashed: $h0 at mount, $h1 after reading everything, $h2 after again, $h3 after dropping caches and again: each once" \
	sh -c "[ $h0 -ge 2 ] && [ $h1 -gt $h0 ] && [ $h2 = $h1 ] && [ $h3 = $h1 ]"
/mnt/bin/busybox sleep 20 &
bb=$!
sleep 1
phys=$(text_phys $bb /mnt/bin/busybox)
check "$L: BusyBox runs from it with its text in place (at $phys)" \
	sh -c "[ '$phys' != none ] && [ \$((0x$phys)) -ge \$((0x40100000)) ] && [ \$((0x$phys)) -lt \$((0x42100000)) ]"
check "$L: xiptest from it maps BusyBox page by page with no fault" \
	sh -c "/mnt/bin/xiptest touch /mnt/bin/busybox | grep -q ' 0 faults\$'"
kill $bb
wait $bb 2> /dev/null
check "$L: remount with its options again" mount -o remount,verity_required /mnt
check "$L: remount naming its root hash: the one it was checked against" \
	mount -o remount,verity=$root /mnt
other=$(echo $root | tr 0-9a-f 1-9a-f0)
refuse "$L: remount with another root hash is refused" \
	"remount cannot change verity=" mount -o remount,verity=$other /mnt
mkdir -p /mnt2
refuse "$L: a second mount of it with another root hash is refused" \
	"already mounted without this verity=" \
	mount -t cramfs -o verity=$other mtd:fs_partition /mnt2
umount /mnt2 2> /dev/null
check "$L: unmounts" umount /mnt
# Bind, then a lazy unmount while a mapping of BusyBox waits to be read:
# its pages are checked at fault after the mount is gone from the tree.
mount -t cramfs -o verity_required mtd:fs_partition /mnt
check "$L: a bind mount of it reads as the tree made it" sh -c \
	"mount --bind /mnt /mnt2 && /tests/manifest.sh /mnt2 255 | diff /images/verity.manifest - && umount /mnt2"
/mnt/bin/xiptest hold /mnt/bin/busybox 3 > /tmp/hold.out 2>&1 &
hold=$!
sleep 1
check "$L: lazily unmounted with the mapping live" umount -l /mnt
wait $hold
check "$L: ... the mapping then reads BusyBox's bytes, checked at fault" test $? = 0
mark
check "$L: -o crc and verity together mount" mount -t cramfs -o crc,verity_required mtd:fs_partition /mnt
n=$(klog_since_mark | sed -n 's/.*verity: \([0-9]*\) blocks under a 2-level tree.*/\1/p')
h=$(hashed)
check "$L: ... the CRC's read hashed every block at mount: $h of $n data blocks and $(tree_blocks $n) tree blocks" \
	sh -c "[ -n '$n' ] && [ '$h' = $((${n:-0} + $(tree_blocks ${n:-0}))) ]"
check "$L: ... and says it checked the CRC" klog_has "CRC checked"
umount /mnt
check "$L: mounts without options: the signature is checked anyway" \
	mount -t cramfs mtd:fs_partition /mnt
check "$L: ... so a remount adding verity_required is taken" \
	mount -o remount,verity_required /mnt
check "$L: ... and a second mount of it asking for verity_required" \
	mount -t cramfs -o verity_required mtd:fs_partition /mnt2
umount /mnt2
umount /mnt

# Media read by copy: the SD card (a block device), and a loop device over
# a copy of it in tmpfs whose block is rewritten while mounted. The bytes a
# read gets are the bytes hashed: the rewritten block fails once the page
# cache no longer holds it, and exactly that block.
L="block device"
mark
check "$L: the SD card mounts with -o verity_required" \
	mount -t cramfs -o verity_required /dev/mmcblk0 /mnt
check "$L: ... its signature checked" klog_has \
	"(mmcblk0): verity: [0-9]* blocks under a 2-level tree, root hash $root, signed by a trusted key"
# Copies are hashed at every read from the device: a write is never missed.
check "$L: ... and no warning that the device is writable" no_klog "(mmcblk0): verity: the medium is writable"
check "$L: ... every file reads as the tree made it" same_manifest /images/verity.manifest /mnt
umount /mnt
dd if=/dev/mmcblk0 of=/tmp/v.img bs=4096 count=$(($(cat /images/signed.bytes) / 4096)) 2> /dev/null
L="loop device, a block rewritten while mounted"
check "$L: mounts with -o verity_required" mount -t cramfs -o loop,verity_required /tmp/v.img /mnt
/mnt/bin/xiptest readpages $(cat $cases/files) > /tmp/pages.loop0
check "$L: before, every page of every file reads" diff $cases/dir.expect /tmp/pages.loop0
dd if=/dev/zero of=/tmp/v.img bs=1 seek=$(cat $cases/xip.offset) count=16 conv=notrunc 2> /dev/null
echo 3 > /proc/sys/vm/drop_caches
/mnt/bin/xiptest readpages $(cat $cases/files) > /tmp/pages.loop1
check "$L: after, the pages of that block fail with EIO, exactly" diff $cases/xip.expect /tmp/pages.loop1
umount /mnt

# One byte inverted: exactly what it covers fails, and nothing else.
files=$(cat $cases/files)
for c in xip zlib level0 dir; do
	L="flipped in $c"
	mark
	check "$L: mounts with -o verity_required" bank1 $c verity_required
	/mnt/bin/xiptest readpages $files > /tmp/pages.$c
	check "$L: the pages that fail to read (EIO) are exactly those its block covers" \
		diff $cases/$c.expect /tmp/pages.$c
	want=$(sed -n 's|^/mnt/bin/busybox: unreadable pages:||p' $cases/$c.expect)
	got=$(/mnt/bin/xiptest touch /mnt/bin/busybox | sed -n 's|^/mnt/bin/busybox: faults at:||p')
	check "$L: mapped, BusyBox faults (SIGBUS) on the same pages ('$got')" test "$got" = "$want"
	case $c in
	xip) check "$L: the kernel names the data block and the file's bytes" klog_both \
		"verity: data block [0-9]* (image bytes [0-9]* to [0-9]*) does not match its hash in tree level 0" \
		"verity: busybox: bytes [0-9]* to [0-9]* (pages [0-9]* to [0-9]*) not served" ;;
	zlib) check "$L: the kernel names the data block and the file" klog_both \
		"verity: data block [0-9]* (image bytes" "verity: compressed.txt: bytes [0-9]* to [0-9]*" ;;
	level0) check "$L: the kernel names the tree block" klog_has \
		"verity: tree level 0 block 1 (at [0-9]*) does not match its hash in tree level 1" ;;
	dir)
		# An entry is read with up to 268 bytes after it (the longest an
		# entry can be): those within 268 bytes of the block stop too.
		n=$(ls /mnt/many | wc -l)
		b=$(cat $cases/dir.listed)
		check "$L: listing /many stops at the block: $n of its 600 entries, of the $b before it" \
			sh -c "[ $n -le $b ] && [ $n -ge $((b - 268 / 24)) ]"
		check "$L: its last entry, past the block, is not found: EIO" sh -c \
			"! cat /mnt/many/entry-599 2> /tmp/cat.err && grep -E 'I/O error|Input/output error' /tmp/cat.err ||
			{ cat /tmp/cat.err; false; }"
		check "$L: the other directories list" ls /mnt /mnt/bin /mnt/data ;;
	esac
	umount /mnt
done
nomount "flipped in the tree's top block: the mount is refused" \
	"verity: the tree's top block does not match the root hash" bank1 top
nomount "flipped in the trailer's root hash: the mount is refused" \
	"verity: the trailer at [0-9]* is damaged: CRC" bank1 trailer
nomount "flipped in the signature: the mount is refused" \
	"verity: the signature does not verify" bank1 sig

# Two images back to back in the flash: the first one's claim covers its
# verity area, up to its last byte, and no further.
L="back to back"
mark
check "$L: the first image mounts, checked" bank1 pair-first
check "$L: ... its tree found after it" klog_has "(physaddr:$(at pair-first)): verity: [0-9]* blocks"
check "$L: the second, right after the first's verity area, mounts beside it" \
	mount -t cramfs -o physaddr=$(at pair-second),size=0x400000 none /mnt2
umount /mnt2
umount /mnt

# Keys and policy.
nomount "signed with a key no keyring holds: refused" \
	"verity: the signature does not verify (-126: its key is in no keyring" bank1 wrongkey
nomount "... also without verity_required" "verity: the signature does not verify" \
	bank1 wrongkey verity_required
L=unsigned
u=$(cat /images/unsigned.root)
mark
check "$L: mounts without options, checked against its own root" bank1 unsigned
check "$L: ... and says it is not authenticated" klog_has "root hash $u, not authenticated"
refuse "$L: ... so a remount adding verity_required is refused" \
	"remount cannot add verity_required" mount -o remount,verity_required /mnt
umount /mnt
nomount "$L: refused under verity_required" "not signed and no verity=<root hash> is given" \
	bank1 unsigned verity_required
mark
check "$L: mounts with -o verity=<its root hash>" bank1 unsigned verity=$u
check "$L: ... checked against the one given" klog_has "root hash $u, checked against the one given"
check "$L: ... /proc/mounts shows it" grep -q "verity=$u" /proc/mounts
check "$L: ... every file reads" same_manifest /images/verity.manifest /mnt
umount /mnt
nomount "$L: -o verity=<another root hash> is refused" "is not the one given" \
	bank1 unsigned verity=$other
nomount "-o verity= with 63 hex digits is refused" "not a root hash (64 hex digits)" \
	bank1 unsigned verity=${u%?}
check "without verity: mounts without options" bank1 plain
umount /mnt
nomount "without verity: refused under verity_required" \
	"verity: required, but the image has no verity trailer" bank1 plain verity_required
check "stripped of its trailer: mounts without options" bank1 stripped
check "... every file reads" same_manifest /images/verity.manifest /mnt
umount /mnt
nomount "stripped of its trailer: refused under verity_required" \
	"verity: required, but the image has no verity trailer" bank1 stripped verity_required
nomount "stripped of its trailer: refused with -o verity=<its root hash>" \
	"verity: required, but the image has no verity trailer" bank1 stripped verity=$root

# The module parameter: every mount, whatever its options.
rmmod cramfs_xip
check "loaded with verity_required=1" insmod /lib/modules/verity/cramfs_xip.ko verity_required=1
check "... /sys/module shows it" grep -qx Y /sys/module/cramfs_xip/parameters/verity_required
nomount "... an image without verity is refused with no option given" \
	"verity: required, but the image has no verity trailer" bank1 plain
nomount "... the unsigned one too" "not signed and no verity=<root hash> is given" bank1 unsigned
check "... the signed one mounts" mount -t cramfs mtd:fs_partition /mnt
umount /mnt
rmmod cramfs_xip

# Mainline cramfs mounts the same signed image (it stops at the image's size).
check "mainline cramfs loads" insmod /lib/modules/cramfs.ko
check "mainline cramfs mounts the signed image" mount -t cramfs mtd:fs_partition /mnt
# Less the file of whole pages stored in place, whose last page mainline
# misreads (48-mainline-reads.sh of the main suite).
grep -v xip-exact.bin /images/verity.manifest > /tmp/mainline.manifest
check "... and reads every file as the tree made it (but xip-exact.bin, mainline's own bug)" \
	sh -c "/tests/manifest.sh /mnt 255 | grep -v xip-exact.bin | diff /tmp/mainline.manifest -"
umount /mnt
rmmod cramfs
check "cramfs_xip without verity refuses -o verity_required (unknown option)" sh -c \
	"insmod /lib/modules/cramfs_xip.ko && ! mount -t cramfs -o verity_required mtd:fs_partition /mnt &&
	rmmod cramfs_xip"
