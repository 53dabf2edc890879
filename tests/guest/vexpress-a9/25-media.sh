# SPDX-License-Identifier: GPL-2.0
# checks: 102
# The image on every medium cramfs_xip serves: a loop device, the SD card, the
# NOR flash named as /dev/mtdblockN, and block2mtd (an MTD without point):
# every entry against the host manifest, mappings against read(), unmount
# with a live mapping; execute-in-place exactly where the medium is
# memory-mapped. The listings are kept for the mainline comparison (26-*).

FS=$(mtdnum fs_partition)
mkdir -p /mnt2

# medium_suite LABEL SOURCE yes|no: the XIP image mounted from SOURCE, in place or not.
medium_suite() {
	L=$1
	mark
	check "$L: mount -t cramfs $2" mount -t cramfs "$2" /mnt
	check "$L: every entry matches the host manifest" same_manifest /images/xip.manifest /mnt
	if [ "$3" = yes ]; then
		check "$L: the kernel log gives the image's flash address" \
			klog_has "mounted [0-9]*-byte image at physical"
	else
		check "$L: the kernel log says once why there is no execute-in-place" \
			sh -c "[ \$(dmesg | sed -n '/cramfs-xip-test: mark $_mark\$/,\$p' | grep -c 'without execute-in-place') = 1 ]"
	fi
	check "$L: BusyBox from the image runs sh, ls and wc" \
		sh -c '[ "$(/mnt/bin/busybox sh -c "/mnt/bin/busybox ls /mnt/data | /mnt/bin/busybox wc -l")" = 3 ]'
	for f in bin/busybox bin/xiptest data/xip-partial.bin data/xip-exact.bin data/compressed.txt; do
		check "$L: $f: mmap() and read() match the host copy" \
			xiptest cmp /mnt/$f /images/xip-ref/$f
	done
	xiptest maps /mnt/data/xip-partial.bin > /tmp/maps.out
	if [ "$3" = yes ]; then
		check "$L: an XIP file's mapping holds no RAM (Rss 0 kB)" grep -q '^Rss: *0 kB' /tmp/maps.out
	else
		check "$L: an XIP file's mapping comes from the page cache (Rss > 0)" \
			sh -c "grep '^Rss:' /tmp/maps.out && ! grep -q '^Rss: *0 kB' /tmp/maps.out"
	fi
	check "$L: private writable mapping copies on write" xiptest cow /mnt/data/xip-partial.bin
	check "$L: shared writable mapping is refused" xiptest sharedwrite /mnt/data/xip-partial.bin
	check "$L: unmount is refused while a program runs from it" sh -c \
		'/mnt/bin/busybox sleep 30 & p=$!; sleep 1; umount /mnt; r=$?; kill $p; wait $p; [ $r != 0 ]'
	ls -lanR /mnt > "/tmp/media-$4.ls" 2>&1
	xiptest hold /mnt/bin/busybox 2 > /tmp/hold.out 2>&1 &
	hp=$!
	sleep 1
	check "$L: lazy unmount while BusyBox is mapped" umount -l /mnt
	wait $hp
	check "$L: the mapping still reads the file's bytes after it" test $? = 0
}

# A loop device over an image file: every test image, then the XIP one in full.
for img in tiny types big shared; do
	losetup -r /dev/loop0 /images/$img.img
	check "loop device, $img image: mount" mount -t cramfs /dev/loop0 /mnt
	check "loop device, $img image: every entry matches the host manifest" \
		same_manifest /images/$img.manifest /mnt
	ls -lanR /mnt > /tmp/media-loop-$img.ls 2>&1
	check "loop device, $img image: lists as from flash (ls -lanR)" \
		cmp /tmp/ours-$img.ls /tmp/media-loop-$img.ls
	umount /mnt
	losetup -d /dev/loop0
done
losetup -r /dev/loop0 /images/xip.img
medium_suite "loop device" /dev/loop0 no loop
# losetup -d succeeds on a busy device too (it only marks it for autoclear):
# the device must really be free, its size 0.
losetup -d /dev/loop0
check "loop device: detached once the lazily unmounted image is let go" \
	[ "$(cat /sys/block/loop0/size)" = 0 ]

# The SD card (QEMU -drive if=sd): the host wrote the XIP image at its start.
i=0
while [ ! -b /dev/mmcblk0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "SD card present (/dev/mmcblk0)" test -b /dev/mmcblk0
medium_suite "SD card" /dev/mmcblk0 no sd

# The NOR flash by its block device name: the MTD under it, mapped in place.
medium_suite "/dev/mtdblock$FS (NOR)" /dev/mtdblock$FS yes mtdblock

# block2mtd over a RAM disk: an MTD without point, read with mtd_read().
insmod /lib/modules/brd.ko rd_nr=1 rd_size=8192
cat /images/xip.img > /dev/ram0
insmod /lib/modules/block2mtd.ko block2mtd=/dev/ram0,65536
B2M=$(mtdnum "block2mtd: /dev/ram0")
check "block2mtd device exists (mtd$B2M)" test -n "$B2M"
medium_suite "block2mtd (mtd$B2M, no point)" mtd$B2M no block2mtd
mark
check "block2mtd named as /dev/mtdblock$B2M: mount" mount -t cramfs /dev/mtdblock$B2M /mnt
check "block2mtd named as /dev/mtdblock$B2M: every entry matches the host manifest" \
	same_manifest /images/xip.manifest /mnt
check "block2mtd named as /dev/mtdblock$B2M: it is the MTD that is mounted, not the block device" \
	klog_has "(mtd:block2mtd: /dev/ram0): mounted"
umount /mnt
refuse "a block device another driver holds (block2mtd) is refused" "Can't open blockdev" \
	mount -t cramfs /dev/ram0 /mnt

# mtdram: its point maps only physically contiguous pages of its vmalloc'd
# memory, less than the partition: it is read with mtd_read instead. (Since
# about 7.0, vmalloc takes the largest blocks it can get: 4 MiB came in one
# piece. 4 MiB and 64 KiB cannot: the second piece lies elsewhere.)
insmod /lib/modules/mtdram.ko total_size=4160 erase_size=64
RAMMTD=$(mtdnum "mtdram test device")
cat /images/xip.img > /dev/mtd$RAMMTD
mark
check "mtdram (mtd$RAMMTD, point maps part of it): mount" mount -t cramfs mtd$RAMMTD /mnt
check "mtdram: the kernel log says point fell short" klog_has "MTD point maps [0-9]* of 4259840 bytes"
check "mtdram: every entry matches the host manifest" same_manifest /images/xip.manifest /mnt
check "mtdram: BusyBox from it runs" sh -c '[ "$(/mnt/bin/busybox echo here)" = here ]'
umount /mnt
rmmod mtdram

# strict: execute in place or do not mount.
refuse "strict refuses an MTD without point" "strict: no execute-in-place" \
	mount -t cramfs -o strict mtd$B2M /mnt
rmmod block2mtd
losetup -r /dev/loop0 /images/xip.img
refuse "strict refuses a block device" "strict: no execute-in-place" \
	mount -t cramfs -o strict /dev/loop0 /mnt
refuse "strict with a value is refused" "strict takes no value" \
	mount -t cramfs -o strict=1 mtd:fs_partition /mnt
check "strict mounts the NOR flash" mount -t cramfs -o strict mtd:fs_partition /mnt
check "strict shows in /proc/mounts" grep -q "^mtd:fs_partition /mnt cramfs ro,.*strict" /proc/mounts
check "remount with strict again" mount -o remount,ro,strict /mnt
umount /mnt
mount -t cramfs mtd:fs_partition /mnt
refuse "remount adding strict is refused" "remount cannot add strict" mount -o remount,strict /mnt
refuse "a second mount of the same MTD asking for strict is refused" \
	"already mounted without strict" mount -t cramfs -o strict mtd:fs_partition /mnt2
umount /mnt

# A block device mount under what users do to it: crc, remount, a second mount.
check "loop device: mount -o crc" mount -t cramfs -o crc /dev/loop0 /mnt
check "loop device: remount with its own options" mount -o remount,ro,crc /mnt
refuse "loop device: remount with physaddr= is refused" "remount cannot change physaddr=" \
	mount -o remount,physaddr=0x40200000 /mnt
check "loop device: a second mount shares the superblock" \
	sh -c 'mount -t cramfs /dev/loop0 /mnt2 && [ "$(stat -c %d /mnt)" = "$(stat -c %d /mnt2)" ] && umount /mnt2'
check "loop device: still every entry after all that" same_manifest /images/xip.manifest /mnt
umount /mnt
losetup -d /dev/loop0

# What is wrong with a block device is said, and nothing past its end is read.
dd if=/dev/zero of=/dev/ram0 bs=65536 count=16 2> /dev/null
refuse "a block device without an image is refused" "wrong magic" mount -t cramfs /dev/ram0 /mnt
head -c 65536 /images/big.img > /tmp/cut.img
losetup -r /dev/loop0 /tmp/cut.img
refuse "an image larger than its block device is refused" "byte block device" \
	mount -t cramfs /dev/loop0 /mnt
losetup -d /dev/loop0
rm -f /tmp/cut.img
cat /images/badcrc.img > /dev/ram0
refuse "a corrupted image on a block device with -o crc is refused" "bad CRC" \
	mount -t cramfs -o crc /dev/ram0 /mnt
refuse "a block device that does not exist is refused" "blockdev" \
	mount -t cramfs /dev/nonexistent /mnt

rmmod brd
check "no cramfs left mounted" sh -c '! grep -q " cramfs " /proc/mounts'
check "cramfs_xip unloads and reloads after every medium" \
	sh -c 'rmmod cramfs_xip && insmod /lib/modules/cramfs_xip.ko'
