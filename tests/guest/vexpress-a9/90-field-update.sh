# SPDX-License-Identifier: GPL-2.0
# checks: 6
# Field update with mtd-utils: erase and rewrite the NOR partition, mount the new image.
# QEMU emulates the CFI erase and program commands, so this really rewrites the flash.

FS=$(mtdnum fs_partition)
check "mtdinfo shows fs_partition" sh -c "mtdinfo /dev/mtd$FS | grep -q fs_partition"
check "flash_erase fs_partition" flash_erase -q /dev/mtd$FS 0 0
check "flashcp writes the tiny image" flashcp /images/tiny.img /dev/mtd$FS
check "mount the updated partition" mount -t cramfs mtd:fs_partition /mnt
check "updated partition serves the new image" same_manifest /images/tiny.manifest /mnt
check "unmount the updated partition" umount /mnt
