# SPDX-License-Identifier: GPL-2.0
# No leaks: 100 mount/read/map/umount cycles and module reloads, then kmemleak.
# checks: 1
# Needs the debug kernel (CONFIG_DEBUG_KMEMLEAK); skipped on the plain one.
mount -t debugfs debugfs /sys/kernel/debug 2> /dev/null
if [ ! -e /sys/kernel/debug/kmemleak ]; then
	skip "kmemleak: this kernel has no kmemleak (the debug kernel runs it)"
else
	echo clear > /sys/kernel/debug/kmemleak
	i=0
	ok=0
	while [ $i -lt 100 ]; do
		if mount -t cramfs mtd:fs_partition /mnt; then
			cat /mnt/data/compressed.txt /mnt/bin/xiptest > /dev/null &&
				xiptest cmp /mnt/data/xip-partial.bin /images/xip-ref/data/xip-partial.bin > /dev/null &&
				ls -lR /mnt > /dev/null && ok=$((ok + 1))
			umount /mnt
		fi
		i=$((i + 1))
		if [ $((i % 25)) = 0 ]; then
			rmmod cramfs_xip && insmod /lib/modules/cramfs_xip.ko
		fi
	done
	check "kmemleak: 100 mount/read/map/umount cycles with 4 module reloads ($ok good)" test $ok = 100
	echo 3 > /proc/sys/vm/drop_caches
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > /tmp/leaks
	n=$(grep -c '^unreferenced object' /tmp/leaks)
	check "kmemleak: no unreferenced objects ($n)" test "$n" = 0
	[ "$n" = 0 ] || head -n 30 /tmp/leaks | sed 's/^/    | /'
fi
