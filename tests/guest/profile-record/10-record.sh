# SPDX-License-Identifier: GPL-2.0
# checks: 16
# The XIP profile round trip, first boot: the BusyBox image all compressed
# in fs_partition. Record which pages the workload's executable mappings
# touch, and print the profile for the host (between PROFILE-BEGIN and
# PROFILE-END), which builds the second boot's image from it.

P=/sys/module/cramfs_xip/parameters/xip_profile
D=/sys/fs/cramfs_xip/mtd:fs_partition
. /images/profile/lib.sh

check "load cramfs_xip" insmod /lib/modules/cramfs_xip.ko
check "recording is off by default" grep -qx N $P
check "mount the compressed BusyBox image" mount -t cramfs mtd:fs_partition /mnt
check "the mount has its directory, $D" test -d $D
workload
check "the workload runs, recording off" cmp /tmp/workload.out /images/profile/workload.expected
check "recording off: the profile is empty" sh -c "[ \"\$(cat $D/xip_profile)\" = 'page-size 4096' ]"
echo 1 > $P
workload
check "the workload runs while recording" cmp /tmp/workload.out /images/profile/workload.expected
rss=$(text_rss /tmp/sh.smaps)
check "while recording, the shell's text is in RAM (page cache): $rss kB" test "$rss" -gt 0
workload
xiptest cmp /mnt/etc/numbers.txt /images/profile/numbers.txt > /dev/null
echo 0 > $P
cat $D/xip_profile > /tmp/profile
check "the profile lists BusyBox's pages" grep -q '^/bin/busybox [0-9][0-9,-]*$' /tmp/profile
check "only executable mappings are recorded (not a mapped data file)" \
	sh -c '! grep -q numbers.txt /tmp/profile'
check "read in 7-byte pieces, the profile is the same" \
	sh -c "dd if=$D/xip_profile bs=7 2> /dev/null | cmp - /tmp/profile"
check "the profile is readable by root only" sh -c "ls -l $D/xip_profile | grep -q '^-r-------- '"
workload
check "recording off again: nothing more is recorded" sh -c "cat $D/xip_profile | cmp - /tmp/profile"
echo PROFILE-BEGIN
cat /tmp/profile
echo PROFILE-END
check "unmount" umount /mnt
check "the directory goes with the mount" test ! -e $D
check "unload cramfs_xip" rmmod cramfs_xip
