# SPDX-License-Identifier: GPL-2.0
# Kernel memory each module holds (Slab + VmallocUsed, which covers module
# code and data, slabs and vmalloc'd workspaces): after insmod, after a mount
# of the XIP image, and after that mount has decompressed a block. A first
# unreported round warms up what any first load and mount allocate; the
# figures are the medians of the next ROUNDS rounds (slab counts move with
# whatever else the kernel frees meanwhile). Prints
# BENCH footprint MODULE load KB mount KB zlib KB, and for a block device
# BENCH footprint-block MODULE mount KB read KB cache KB.
# Not in the boots that measure speed (tests/bench.sh).
[ -z "${bench_module:-}${bench_trace:-}" ] || return 0
ROUNDS=${ROUNDS:-7}
kmem() { echo $(($(meminfo_kb Slab) + $(meminfo_kb VmallocUsed))); }
footprint() {	# footprint MODULE KO NAME: one round, appended to /tmp/fp-MODULE
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
	echo "$((m1 - m0)) $((m2 - m1)) $((m3 - m2))" >> "/tmp/fp-$1"
}
# The same on a block device (the SD card, holding the XIP image): what a
# mount holds, and what reading every file adds to kernel memory and to the
# page cache (the file pages and the device's own). Appended to /tmp/fpb-MODULE.
footprint_block() {	# footprint_block MODULE KO NAME
	sync
	echo 3 > /proc/sys/vm/drop_caches
	insmod "$2" || return
	# What drop_caches and insmod free after an RCU grace period, first.
	sleep 1
	m1=$(kmem)
	mount -t cramfs /dev/mmcblk0 /mnt || { rmmod "$3"; return; }
	sleep 1
	m2=$(kmem)
	c2=$(meminfo_kb Cached)
	find /mnt -type f -exec cat {} + > /dev/null
	m3=$(kmem)
	c3=$(meminfo_kb Cached)
	umount /mnt
	rmmod "$3"
	echo "$((m2 - m1)) $((m3 - m2)) $((c3 - c2))" >> "/tmp/fpb-$1"
}
median() {	# median COLUMN FILE
	cut -d' ' -f"$1" "$2" | sort -n | sed -n "$((($(wc -l < "$2") + 1) / 2))p"
}
for m in cramfs_xip mainline; do
	rm -f "/tmp/fp-$m" "/tmp/fpb-$m"
done
for round in $(seq 0 "$ROUNDS"); do
	footprint cramfs_xip /lib/modules/cramfs_xip.ko cramfs_xip
	footprint mainline /lib/modules/cramfs.ko cramfs
	footprint_block cramfs_xip /lib/modules/cramfs_xip.ko cramfs_xip
	footprint_block mainline /lib/modules/cramfs.ko cramfs
	[ "$round" = 0 ] && rm -f /tmp/fp-cramfs_xip /tmp/fp-mainline /tmp/fpb-cramfs_xip /tmp/fpb-mainline
done
for m in cramfs_xip mainline; do
	[ -s "/tmp/fp-$m" ] || continue
	echo "BENCH footprint $m load $(median 1 "/tmp/fp-$m") mount $(median 2 "/tmp/fp-$m")" \
		"zlib $(median 3 "/tmp/fp-$m")"
done
for m in cramfs_xip mainline; do
	[ -s "/tmp/fpb-$m" ] || continue
	echo "BENCH footprint-block $m mount $(median 1 "/tmp/fpb-$m") read $(median 2 "/tmp/fpb-$m")" \
		"cache $(median 3 "/tmp/fpb-$m")"
done
