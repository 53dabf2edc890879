# SPDX-License-Identifier: GPL-2.0
# RAM used by N sleeping BusyBox processes, run from an XIP image and from a
# compressed image of the same tree, through cramfs_xip and mainline cramfs.
# Prints: BENCH ram MODULE IMAGE N MEMFREE_DROP_KB CACHED_GROWTH_KB RSS_KB PSS_KB ANON_KB
# TEXT_RSS_KB (the last: RAM pages mapped as BusyBox's text, summed; XIP maps none).
# Not in the boots that measure speed (tests/bench.sh).
[ -z "${bench_module:-}${bench_trace:-}" ] || return 0
echo 1 > /proc/sys/kernel/printk
sum_rollup() {	# sum_rollup FIELD PIDS...
	f=$1
	shift
	t=0
	for p in "$@"; do
		v=$(sed -n "s/^$f: *\([0-9]*\) kB/\1/p" /proc/$p/smaps_rollup)
		t=$((t + ${v:-0}))
	done
	echo $t
}
text_rss() {	# text_rss PIDS...: Rss of BusyBox's executable mapping, summed
	for p in "$@"; do
		awk '/ r-xp .*\/mnt\/bin\/busybox$/ { t = 1; next }
		     t && /^Rss:/ { print $2; exit }' /proc/$p/smaps
	done | awk '{ t += $1 } END { print t + 0 }'
}
ram_run() {	# ram_run MODULE IMAGE MTD
	for n in 1 4 16; do
		mount -t cramfs "$3" /mnt || return
		sync
		echo 3 > /proc/sys/vm/drop_caches
		sleep 1
		free0=$(meminfo_kb MemFree)
		cached0=$(meminfo_kb Cached)
		pids=
		i=0
		while [ $i -lt $n ]; do
			/mnt/bin/busybox sleep 600 &
			pids="$pids $!"
			i=$((i + 1))
		done
		sleep 3
		free1=$(meminfo_kb MemFree)
		cached1=$(meminfo_kb Cached)
		echo "BENCH ram $1 $2 $n $((free0 - free1)) $((cached1 - cached0)) $(sum_rollup Rss $pids) $(sum_rollup Pss $pids) $(sum_rollup Anonymous $pids) $(text_rss $pids)"
		kill $pids
		wait $pids 2>/dev/null
		umount /mnt
	done
}
insmod /lib/modules/cramfs_xip.ko
ram_run cramfs_xip xip mtd:fs_partition
ram_run cramfs_xip zlib mtd:spare
rmmod cramfs_xip
insmod /lib/modules/cramfs.ko
ram_run mainline xip mtd:fs_partition
ram_run mainline zlib mtd:spare
rmmod cramfs
