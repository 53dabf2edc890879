# SPDX-License-Identifier: GPL-2.0
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
check "physaddr: unmount both" sh -c 'umount /mnt2 && umount /mnt'

refuse "physaddr: 0 is refused" "physaddr=0: not a nonzero physical address" \
	mount -t cramfs -o physaddr=0 none /mnt
refuse "physaddr: not a number is refused" "physaddr=flash: not a nonzero physical address" \
	mount -t cramfs -o physaddr=flash none /mnt
refuse "physaddr: an unaligned address is refused" "must be a nonzero multiple of the page size" \
	mount -t cramfs -o physaddr=0x40100200 none /mnt
refuse "physaddr: System RAM is refused" "physaddr=0x60000000: is System RAM" \
	mount -t cramfs -o physaddr=0x60000000 none /mnt
refuse "physaddr: empty flash (bank 1) is refused" "no cramfs image with a size" \
	mount -t cramfs -o physaddr=0x44000000 none /mnt
