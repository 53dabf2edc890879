# SPDX-License-Identifier: GPL-2.0
# checks: 26
# physaddr=: the same XIP image mounted by its physical address, without MTD
# (the MTD driver still owns the flash here; nothing is claimed or written).

P=0x40100000	# fs_partition: the XIP image
check "physaddr: mount -o physaddr=$P none /mnt" mount -t cramfs -o physaddr=$P none /mnt
check "physaddr: /proc/mounts shows the option" grep -q "^none /mnt cramfs ro.*physaddr=$P" /proc/mounts
check "physaddr: every entry matches the host manifest" same_manifest /images/xip.manifest /mnt
/mnt/bin/busybox sleep 60 &
pid=$!
sleep 1
want=$(xip_phys /bin/busybox)
text=$(grep ' r-xp ' /proc/$pid/maps | grep /mnt/bin/busybox)
check "physaddr: BusyBox text is mapped from flash (offset column $want)" \
	sh -c "echo '$text' | grep -q ' r-xp $want '"
kill $pid
wait $pid 2>/dev/null
for f in bin/busybox data/xip-partial.bin data/xip-exact.bin data/compressed.txt; do
	check "physaddr: $f: mmap() and read() match the host copy" \
		xiptest cmp /mnt/$f /images/xip-ref/$f
done
check "physaddr: private writable mapping copies on write" xiptest cow /mnt/data/xip-partial.bin
check "physaddr: shared writable mapping is refused" xiptest sharedwrite /mnt/data/xip-partial.bin
mkdir -p /mnt2
check "physaddr: the same image twice at once" mount -t cramfs -o physaddr=$P none /mnt2
check "physaddr: each has its directory in /sys/fs/cramfs_xip (the second with .1)" \
	sh -c "ls -d /sys/fs/cramfs_xip/physaddr:* | sort | tr '\n' ' ' | grep -qx '/sys/fs/cramfs_xip/physaddr:0x40100000 /sys/fs/cramfs_xip/physaddr:0x40100000.1 '"
check "physaddr: unmount both" sh -c 'umount /mnt2 && umount /mnt'

refuse "physaddr: 0 is refused" "physaddr=0: not a nonzero physical address" \
	mount -t cramfs -o physaddr=0 none /mnt
refuse "physaddr: not a number is refused" "physaddr=flash: not a nonzero physical address" \
	mount -t cramfs -o physaddr=flash none /mnt
refuse "physaddr: an unaligned address is refused" "must be a nonzero multiple of the page size" \
	mount -t cramfs -o physaddr=0x40100200 none /mnt
refuse "physaddr: System RAM is refused" "physaddr=0x60000000: is System RAM" \
	mount -t cramfs -o physaddr=0x60000000 none /mnt
refuse "physaddr: an address no memory resource holds needs size=" \
	"no memory resource holds this address: give the flash's size with size=" \
	mount -t cramfs -o physaddr=0x44000000 none /mnt
refuse "physaddr: empty flash (bank 1) is refused" "no cramfs image with a size" \
	mount -t cramfs -o physaddr=0x44000000,size=0x100000 none /mnt
refuse "physaddr: size= without physaddr= is refused" "give physaddr= too" \
	mount -t cramfs -o size=0x100000 mtd:fs_partition /mnt
refuse "physaddr: size= not a page multiple is refused" "size=100: not a nonzero multiple" \
	mount -t cramfs -o physaddr=$P,size=100 none /mnt

# The window the image may occupy: size=, else the flash's memory resource.
xsize=$(stat -c %s /images/xip.img)
refuse "physaddr: an image larger than size= is refused" "the image claims $xsize bytes" \
	mount -t cramfs -o physaddr=$P,size=0x10000 none /mnt
check "physaddr: size= that holds the image mounts, and shows" sh -c \
	"mount -t cramfs -o physaddr=$P,size=16M none /mnt && grep -q 'physaddr=$P,size=16777216' /proc/mounts && umount /mnt"
# An image in the psram (its resource: 32 MiB at 0x48000000) whose size
# field claims 33 MiB: nothing past the psram may be mapped.
PSRAM=$(mtdnum 48000000.psram)
cat /images/size33m.img > /dev/mtd$PSRAM
refuse "physaddr: an image claiming more than its flash resource is refused" \
	"the flash there has 33554432 (its memory resource)" \
	mount -t cramfs -o physaddr=0x48000000 none /mnt
cat /images/types.img > /dev/mtd$PSRAM
check "physaddr: the same image with its true size mounts from the psram" \
	mount -t cramfs -o physaddr=0x48000000 none /mnt
check "physaddr: from the psram, every entry matches the host manifest" \
	same_manifest /images/types.manifest /mnt
umount /mnt
