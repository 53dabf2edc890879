# SPDX-License-Identifier: GPL-2.0
# checks: 11
# The chip a mount holds: Intel's command set keeps a pointed chip in read
# mode, so while fs_partition (bank 0) is mounted in place, an erase and a
# write of its sibling partition spare wait in the MTD driver (reads of it
# are served) until the unmount; programs keep running from the flash, and
# afterwards the sibling holds its new bytes and the image reads right. The
# mount says so once. (Bank 1 is another chip: tests/guest/vexpress-a9-ab/.)
SPARE=$(mtdnum spare)
head -c 8192 /images/xip.img > /tmp/sibling.bin
mark
check "mount the XIP image from fs_partition" mount -t cramfs mtd:fs_partition /mnt
n=$(klog_since_mark | grep -c '(mtd:fs_partition): mounted [0-9]*-byte image at physical 0x40100000; writes to the rest of its chip wait for unmount')
check "the mount says once that the chip's other partitions wait ($n)" test "$n" = 1
/mnt/bin/busybox sleep 60 &
runner=$!
sleep 1
L=bank0
sibling_start $SPARE /tmp/sibling.bin
check "meanwhile the running program is alive" kill -0 $runner
kill $runner
wait $runner 2> /dev/null
check "unmount" umount /mnt
sibling_finish $SPARE /tmp/sibling.bin
mount -t cramfs mtd:fs_partition /mnt
check "the image reads right afterwards" same_manifest /images/xip.manifest /mnt
umount /mnt
