# SPDX-License-Identifier: GPL-2.0
# checks: 11
# The XIP profile round trip, second boot: the image rebuilt with mkcramfs
# --xip-profile from the first boot's profile (or, for comparison, with
# mkcramfs -X). The same workload runs with its text all from flash; the
# files are unchanged; applets the profile did not see run from the page
# cache. Prints the page cache the workload leaves (PROFILE-RAM).

. /images/profile/lib.sh

check "load cramfs_xip" insmod /lib/modules/cramfs_xip.ko
check "mount the profiled image" mount -t cramfs mtd:fs_partition /mnt
check "every file as in the tree" same_manifest /images/profile/tree.manifest /mnt
check "BusyBox: mmap() and read() match the host copy" \
	xiptest cmp /mnt/bin/busybox /images/profile/busybox
sync
echo 3 > /proc/sys/vm/drop_caches
before=$(meminfo_kb Cached)
workload
echo "PROFILE-RAM page cache after the workload: +$(($(meminfo_kb Cached) - before)) kB"
check "the workload runs" cmp /tmp/workload.out /images/profile/workload.expected
rss=$(text_rss /tmp/sh.smaps)
check "the workload's shell: text Rss 0 kB (got $rss)" test "$rss" = 0
rss=$(text_rss /tmp/cat.smaps)
check "the workload's cat: text Rss 0 kB (got $rss)" test "$rss" = 0
/mnt/bin/busybox sh /mnt/etc/others.sh > /tmp/others.out 2>&1
check "applets outside the workload run right" cmp /tmp/others.out /images/profile/others.expected
/mnt/bin/busybox sleep 30 &
pid=$!
sleep 1
rss=$(text_rss /proc/$pid/smaps)
if [ "$(cat /images/profile/kind)" = profiled ]; then
	check "an applet outside the workload (sleep): part of its text from the page cache ($rss kB)" \
		test "$rss" -gt 0
else
	check "-X: an applet outside the workload (sleep): its text all from flash ($rss kB)" \
		test "$rss" = 0
fi
kill $pid
wait $pid 2> /dev/null
check "unmount" umount /mnt
check "unload cramfs_xip" rmmod cramfs_xip
