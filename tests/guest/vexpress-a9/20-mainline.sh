# SPDX-License-Identifier: GPL-2.0
# checks: 12
# The same images through mainline cramfs.ko: both must read them identically.

check "cramfs_xip unloads" rmmod cramfs_xip
check "mainline cramfs.ko loads" insmod /lib/modules/cramfs.ko
refuse "cramfs_xip refuses to load beside mainline cramfs" '"cramfs" is registered already' \
	insmod /lib/modules/cramfs_xip.ko

PSRAM=$(mtdnum 48000000.psram)
mount -t cramfs -o ro mtd:fs_partition /mnt && ls -lanR /mnt > /tmp/mainline-flash.ls 2>&1
umount /mnt
check "fs_partition: mainline and cramfs_xip list identically" cmp /tmp/ours-flash.ls /tmp/mainline-flash.ls
for img in tiny types big; do
	cat /images/$img.img > /dev/mtd$PSRAM
	mount -t cramfs mtd$PSRAM /mnt
	check "$img image: mainline reads the host manifest" same_manifest /images/$img.manifest /mnt
	ls -lanR /mnt > /tmp/mainline-$img.ls 2>&1
	umount /mnt
	check "$img image: mainline and cramfs_xip list identically (ls -lanR)" \
		cmp /tmp/ours-$img.ls /tmp/mainline-$img.ls
done

check "mainline cramfs unloads" rmmod cramfs
check "cramfs_xip loads again" insmod /lib/modules/cramfs_xip.ko
