# SPDX-License-Identifier: GPL-2.0
# checks: 10
# The XIP profile round trip, first boot: the BusyBox image all compressed
# in fs_partition, mounted from the MTD, which reads no page ahead. With the
# page cache dropped before it, the workload leaves in the page cache the
# pages it touched; xip-profile lists them, file by file, and the profile
# goes to the host (between PROFILE-BEGIN and PROFILE-END), which builds the
# second boot's image from it (mkcramfs keeps the pages of code).

. /images/profile/lib.sh

check "load cramfs_xip" insmod /lib/modules/cramfs_xip.ko
check "mount the compressed BusyBox image" mount -t cramfs mtd:fs_partition /mnt
sync
echo 3 > /proc/sys/vm/drop_caches
workload
check "the workload runs" cmp /tmp/workload.out /images/profile/workload.expected
rss=$(text_rss /tmp/sh.smaps)
check "the shell's text is in RAM (page cache): $rss kB" test "$rss" -gt 0
check "xip-profile lists the pages in the page cache" sh -c 'xip-profile /mnt > /tmp/profile'
check "... page-size first" sh -c '[ "$(head -n 1 /tmp/profile)" = "page-size 4096" ]'
check "... BusyBox's pages" grep -q '^/bin/busybox [0-9][0-9,-]*$' /tmp/profile
check "... and the data file the workload read (mkcramfs leaves it compressed)" \
	grep -q '^/etc/numbers.txt [0-9]' /tmp/profile
check "the mount point given with a slash: the same profile" \
	sh -c 'xip-profile /mnt/ | cmp - /tmp/profile'
echo PROFILE-BEGIN
cat /tmp/profile
echo PROFILE-END
umount /mnt
check "unload cramfs_xip" rmmod cramfs_xip
