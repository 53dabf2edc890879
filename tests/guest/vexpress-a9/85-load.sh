# SPDX-License-Identifier: GPL-2.0
# checks: 13
# Load (the debug kernel only): 8 processes for LOAD_SECONDS (600; the host
# may say less in /images/load-seconds) mixing every operation: reading
# every file, mapping in place, writing private copies, readdir and FIEMAP,
# running BusyBox from flash, reading the stats files, and mounts, binds,
# remounts and unmounts of the same MTD, of an image by physaddr= and of a
# loop device (lazily, under a live mapping). No kernel report (judged after
# the boot), no worker failure, no leak (kmemleak), and once everything is
# unmounted the module unloads with no object of its caches left, and the
# RAM in use is what it was before, within a page.
secs=$(cat /images/load-seconds 2> /dev/null || echo 600)
mount -t debugfs debugfs /sys/kernel/debug 2> /dev/null
mkdir -p /mnt2 /mnt3 /mnt4 /mnt5
settle() { sync; echo 3 > /proc/sys/vm/drop_caches; sleep 2; echo 3 > /proc/sys/vm/drop_caches; }
# settle_all: what the kernel keeps of freed memory given back too: each
# slab cache's empty slabs and (KASAN) its quarantine of freed objects, and
# the per-CPU page lists (compaction drains them).
settle_all() {
	settle
	for _c in /sys/kernel/slab/*; do [ -L "$_c" ] || echo 1 > "$_c/shrink"; done 2> /dev/null
	echo 1 > /proc/sys/vm/compact_memory 2> /dev/null
	sleep 1
}
# free_kb: free memory in kB, the per-CPU free lists included: MemFree
# leaves out the pages each CPU keeps for its next allocations, hundreds of
# kB that come and go with every process started.
free_kb() {
	[ ! -e /proc/sys/vm/stat_refresh ] || read -r _ < /proc/sys/vm/stat_refresh
	awk '$1 == "nr_free_pages" || $1 == "count:" { n += $2 } END { print n * 4 }' /proc/zoneinfo
}
ram() {
	for _f in MemFree Slab SUnreclaim KernelStack PageTables VmallocUsed Percpu; do
		printf '%s=%s ' $_f "$(meminfo_kb $_f)"
	done
}
settle_all
free0=$(free_kb)
echo "load: before: free $free0 kB, $(ram)"
mount -t cramfs mtd:fs_partition /mnt
losetup -r /dev/loop0 /images/xip.img
end=$(($(cut -d. -f1 /proc/uptime) + secs))
# worker N COMMANDS: COMMANDS again and again until the end; each failure is
# a line in /tmp/load.N.
worker() {
	_w=$1
	shift
	: > /tmp/load.$_w
	_i=0
	while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do
		eval "$*" > /dev/null 2>> /tmp/load.$_w.err || echo "round $_i" >> /tmp/load.$_w
		_i=$((_i + 1))
	done
	echo $_i > /tmp/load.$_w.rounds
}
worker 1 'for f in /mnt/bin/* /mnt/data/*; do cat $f > /dev/null || exit 1; done; echo 1 > /proc/sys/vm/drop_caches' &
worker 2 'xiptest cmp /mnt/data/xip-partial.bin /images/xip-ref/data/xip-partial.bin && xiptest cmp /mnt/bin/busybox /images/xip-ref/bin/busybox && xiptest dontneed /mnt/bin/busybox' &
worker 3 'xiptest cow /mnt/data/xip-partial.bin && xiptest fork /mnt/data/xip-exact.bin && xiptest split /mnt/data/xip-partial.bin 0' &
worker 4 'ls -lR /mnt && filefrag -v /mnt/bin/busybox && xiptest seekdir /mnt/data' &
worker 5 '/mnt/bin/busybox true && /mnt/bin/busybox md5sum /mnt/data/compressed.txt && /mnt/bin/xiptest maps /mnt/data/compressed.txt' &
worker 6 'for s in /sys/fs/cramfs_xip/*; do cat $s 2> /dev/null; done; true' &
worker 7 'mount -t cramfs mtd:fs_partition /mnt2 && mount -o remount,ro /mnt2 && mount --bind /mnt2 /mnt3 && ls /mnt3/data && umount /mnt3 && umount /mnt2 && mount -t cramfs -o physaddr=0x46000000 none /mnt4 && ls -R /mnt4 && umount /mnt4' &
worker 8 'mount -t cramfs /dev/loop0 /mnt5 && { xiptest hold /mnt5/bin/busybox 1 & sleep 0; } && umount -l /mnt5 && wait' &
wait
for w in 1 2 3 4 5 6 7 8; do
	n=$(wc -l < /tmp/load.$w)
	check "load: worker $w: $(cat /tmp/load.$w.rounds) rounds in ${secs}s, none failed ($n did)" test "$n" = 0
	[ "$n" = 0 ] || head -n 5 /tmp/load.$w.err | sed 's/^/    | /'
done
umount /mnt
losetup -d /dev/loop0
check "load: nothing of ours mounted afterwards" sh -c '! grep -q " cramfs " /proc/mounts'
settle
if [ -e /sys/kernel/debug/kmemleak ]; then
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	n=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
	check "load: kmemleak: no unreferenced objects ($n)" test "$n" = 0
	[ "$n" = 0 ] || head -n 30 /sys/kernel/debug/kmemleak | sed 's/^/    | /'
else
	skip "load: kmemleak: this kernel has none"
fi
# The module's caches go with it: the kernel says so if any object is left
# (KASAN's quarantine, which holds freed objects a while, is emptied then).
mark
check "load: cramfs_xip unloads" rmmod cramfs_xip
check "... no object of its caches left behind" no_klog "Objects remaining"
insmod /lib/modules/cramfs_xip.ko
rm -f /tmp/load.*
settle_all
free1=$(free_kb)
echo "load: after: free $free1 kB, $(ram)"
check "load: RAM in use afterwards within a page of before (free $free1 kB, $free0 kB before)" \
	test "$free1" -ge $((free0 - 4))
