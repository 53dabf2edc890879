# SPDX-License-Identifier: GPL-2.0
# checks: 20
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
/mnt/bin/busybox sh /mnt/etc/others.sh > /dev/null 2>&1
check "recording off again: other applets add nothing" sh -c "cat $D/xip_profile | cmp - /tmp/profile"
echo PROFILE-BEGIN
cat /tmp/profile
echo PROFILE-END
check "unmount" umount /mnt
check "the directory goes with the mount" test ! -e $D

# Recording on an image laid out for XIP: mappings that would be in place
# come from the page cache while recording, so that each page faults.
PSRAM=$(mtdnum 48000000.psram)
X=/sys/fs/cramfs_xip/mtd:48000000.psram
cat /images/profile/x.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
echo 1 > $P
workload
echo 0 > $P
rss=$(text_rss /tmp/sh.smaps)
check "recording on the -X image: the shell's text in the page cache ($rss kB)" test "$rss" -gt 0
check "... its pages are listed" grep -q '^/bin/busybox [0-9]' $X/xip_profile
check "... as mappings not in place while recording" sh -c "[ \$(cat $X/not_in_place/recording) -gt 0 ]"
workload
rss=$(text_rss /tmp/sh.smaps)
check "recording off: the shell's text in place again ($rss kB)" test "$rss" = 0
umount /mnt
check "unload cramfs_xip" rmmod cramfs_xip
