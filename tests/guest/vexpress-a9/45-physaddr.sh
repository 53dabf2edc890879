# SPDX-License-Identifier: GPL-2.0
# checks: 35
# physaddr=: images mounted by their physical address, without MTD, from
# flash bank 1 (0x44000000: a device tree node no driver claims). A mount
# claims its image in /proc/iomem; flash a driver has claimed (bank 0, the
# MTD's), System RAM, and addresses no memory resource holds are refused,
# and nothing past the resource is ever mapped.

P=0x44000000	# bank 1: the XIP image
check "physaddr: mount -o physaddr=$P none /mnt" mount -t cramfs -o physaddr=$P none /mnt
check "physaddr: /proc/mounts shows the option" grep -q "^none /mnt cramfs ro.*physaddr=$P" /proc/mounts
check "physaddr: the image is claimed in /proc/iomem" grep -q '44000000-441[0-9a-f]* : cramfs_xip' /proc/iomem
check "physaddr: every entry matches the host manifest" same_manifest /images/xip.manifest /mnt
/mnt/bin/busybox sleep 60 &
pid=$!
sleep 1
want=$(FLASH_BASE=$((P)) xip_phys /bin/busybox)
text=$(grep ' r-xp ' /proc/$pid/maps | grep /mnt/bin/busybox)
check "physaddr: BusyBox text is mapped from flash (its first page at $want)" \
	[ "$(xiptest phys $pid "${text%%-*}")" = "$want" ]
kill $pid
wait $pid 2>/dev/null
for f in bin/busybox data/xip-partial.bin data/xip-exact.bin data/compressed.txt; do
	check "physaddr: $f: mmap() and read() match the host copy" \
		xiptest cmp /mnt/$f /images/xip-ref/$f
done
check "physaddr: private writable mapping copies on write" xiptest cow /mnt/data/xip-partial.bin
check "physaddr: shared writable mapping is refused" xiptest sharedwrite /mnt/data/xip-partial.bin
mkdir -p /mnt2
refuse "physaddr: the same image a second time is refused: it is claimed" \
	"physaddr:$P: in use (/proc/iomem)" \
	mount -t cramfs -o physaddr=$P none /mnt2
check "physaddr: unmount" umount /mnt
check "physaddr: unmounted, the claim is gone" sh -c '! grep -q cramfs_xip /proc/iomem'

refuse "physaddr: flash the MTD driver has claimed (bank 0) is refused" \
	"physaddr:0x40100000: in use (/proc/iomem)" \
	mount -t cramfs -o physaddr=0x40100000 none /mnt
refuse "physaddr: 0 is refused" "physaddr=0: not a nonzero page-aligned address" \
	mount -t cramfs -o physaddr=0 none /mnt
refuse "physaddr: not a number is refused" "physaddr=flash: not a nonzero page-aligned address" \
	mount -t cramfs -o physaddr=flash none /mnt
refuse "physaddr: an unaligned address is refused" "physaddr=0x44000200: not a nonzero page-aligned address" \
	mount -t cramfs -o physaddr=0x44000200 none /mnt
refuse "physaddr: System RAM is refused" "physaddr:0x60000000: is System RAM" \
	mount -t cramfs -o physaddr=0x60000000 none /mnt
refuse "physaddr: an address no memory resource holds is refused, size= or not" \
	"physaddr:0x50000000: in no memory resource or flash or image DT node" \
	mount -t cramfs -o physaddr=0x50000000,size=0x100000 none /mnt
refuse "physaddr: empty flash is refused" "physaddr:0x45000000: no cramfs image (version 2) there" \
	mount -t cramfs -o physaddr=0x45000000 none /mnt
refuse "physaddr: size= without physaddr= is refused" "size= goes with physaddr=" \
	mount -t cramfs -o size=0x100000 mtd:fs_partition /mnt
refuse "physaddr: size= not a page multiple is refused" "size=100: not a nonzero page multiple" \
	mount -t cramfs -o physaddr=$P,size=100 none /mnt
refuse "physaddr: size= past the memory resource is refused" \
	"size=134217728, 67108864 bytes of flash there" \
	mount -t cramfs -o physaddr=$P,size=128M none /mnt

# The window the image may occupy: size=, else the flash's memory resource.
xsize=$(stat -c %s /images/xip.img)
refuse "physaddr: an image larger than size= is refused" "$xsize-byte image, size=65536, 67108864 bytes of flash there" \
	mount -t cramfs -o physaddr=$P,size=0x10000 none /mnt
check "physaddr: size= that holds the image mounts, and shows" sh -c \
	"mount -t cramfs -o physaddr=$P,size=16M none /mnt && grep -q 'physaddr=$P,size=16777216' /proc/mounts && umount /mnt"
# 64 KiB before the bank's end: an image whose size field claims more than
# is left of the bank. Nothing past the resource may be mapped.
refuse "physaddr: an image claiming more than its flash resource is refused" \
	"physaddr:0x47ff0000: $xsize-byte image, size=0, 65536 bytes of flash there" \
	mount -t cramfs -o physaddr=0x47ff0000 none /mnt
check "physaddr: a second image in the bank (types, at 32 MiB) mounts" \
	mount -t cramfs -o physaddr=0x46000000 none /mnt
check "physaddr: ... every entry matches the host manifest" \
	same_manifest /images/types.manifest /mnt
# Its claim grows from the first page to the image: an image whose range
# reaches another mount's claim is refused, and mounts once that is gone.
refuse "physaddr: an image reaching into another mount's claim is refused" \
	"physaddr:0x45ffe000: in use (/proc/iomem)" mount -t cramfs -o physaddr=0x45ffe000 none /mnt2
check "physaddr: ... and its first page is not left claimed" \
	sh -c '! grep -q "45ffe000-.* : cramfs_xip" /proc/iomem'
check "physaddr: ... beside the first" mount -t cramfs -o physaddr=$P none /mnt2
check "physaddr: ... each has its stats file in /sys/fs/cramfs_xip" sh -c \
	"ls /sys/fs/cramfs_xip/physaddr:0x46000000 /sys/fs/cramfs_xip/physaddr:0x44000000"
check "physaddr: unmount both" sh -c 'umount /mnt2 && umount /mnt'
check "physaddr: the image that reached the claim mounts once it is gone" \
	sh -c "mount -t cramfs -o physaddr=0x45ffe000 none /mnt && umount /mnt"
