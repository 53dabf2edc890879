# SPDX-License-Identifier: GPL-2.0
# checks: 1
# No leaks: what the earlier scripts left, then 100 cycles of mount, read, map,
# remount and umount (and refused mounts) with module reloads, then kmemleak.
# Needs the debug kernel (CONFIG_DEBUG_KMEMLEAK); skipped on the plain one.
mount -t debugfs debugfs /sys/kernel/debug 2> /dev/null
leaks() {	# leaks LABEL: scan twice (kmemleak reports objects it saw twice)
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > /tmp/leaks
	n=$(grep -c '^unreferenced object' /tmp/leaks)
	check "kmemleak: $1: no unreferenced objects ($n)" test "$n" = 0
	[ "$n" = 0 ] || head -n 30 /tmp/leaks | sed 's/^/    | /'
}
if [ ! -e /sys/kernel/debug/kmemleak ]; then
	skip "kmemleak: this kernel has no kmemleak (the debug kernel runs it)"
else
	echo 3 > /proc/sys/vm/drop_caches
	leaks "the scripts before this one (remounts, refused mounts, bad images)"
	echo clear > /sys/kernel/debug/kmemleak
	i=0
	ok=0
	while [ $i -lt 100 ]; do
		# The refusals and remounts of 15-mount-ops.sh, every time round.
		mount -t cramfs -o physaddr=0x44000200 none /mnt 2> /dev/null
		mount -t cramfs -o physaddr=0x44000000,size=0x100000 none /mnt 2> /dev/null
		mount -t cramfs -o physaddr=0x40100000 none /mnt 2> /dev/null
		if mount -t cramfs -o physaddr=0x44000000 none /mnt; then
			mount -o remount,ro,physaddr=0x44000000 /mnt
			mount -o remount,crc /mnt 2> /dev/null
			umount /mnt
		fi
		if mount -t cramfs mtd:fs_partition /mnt; then
			mount -t cramfs -o crc mtd:fs_partition /mnt2 2> /dev/null && umount /mnt2
			mount -o remount,ro /mnt
			cat /mnt/data/compressed.txt /mnt/bin/xiptest > /dev/null &&
				xiptest cmp /mnt/data/xip-partial.bin /images/xip-ref/data/xip-partial.bin > /dev/null &&
				xiptest seekdir /mnt/data > /dev/null &&
				ls -lR /mnt > /dev/null && ok=$((ok + 1))
			umount /mnt
		fi
		i=$((i + 1))
		if [ $((i % 25)) = 0 ]; then
			rmmod cramfs_xip && insmod /lib/modules/cramfs_xip.ko
		fi
	done
	check "kmemleak: 100 mount/read/map/remount/umount cycles with 4 module reloads ($ok good)" \
		test $ok = 100
	echo 3 > /proc/sys/vm/drop_caches
	leaks "after the cycles"
fi
