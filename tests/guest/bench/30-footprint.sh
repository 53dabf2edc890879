# SPDX-License-Identifier: GPL-2.0
# Kernel memory each module holds (Slab + VmallocUsed, which covers module
# code and data, slabs and vmalloc'd workspaces): after insmod, after a mount
# of the XIP image, and after that mount has decompressed a block. A first
# unreported round warms up what any first load and mount allocate. Prints
# BENCH footprint MODULE load KB mount KB zlib KB.
kmem() { echo $(($(meminfo Slab) + $(meminfo VmallocUsed))); }
footprint() {	# footprint MODULE KO NAME REPORT
	sync
	echo 3 > /proc/sys/vm/drop_caches
	m0=$(kmem)
	insmod "$2" || return
	m1=$(kmem)
	mount -t cramfs mtd:fs_partition /mnt || { rmmod "$3"; return; }
	m2=$(kmem)
	cat /mnt/etc/numbers.txt > /dev/null
	m3=$(kmem)
	umount /mnt
	rmmod "$3"
	[ "$4" = 1 ] && echo "BENCH footprint $1 load $((m1 - m0)) mount $((m2 - m1)) zlib $((m3 - m2))"
}
for round in 0 1; do
	footprint cramfs_xip /lib/modules/cramfs_xip.ko cramfs_xip $round
	footprint mainline /lib/modules/cramfs.ko cramfs $round
done
