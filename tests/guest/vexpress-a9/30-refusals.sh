# SPDX-License-Identifier: GPL-2.0
# checks: 14
# Bad, missing or misplaced images are refused with a clear message, never an oops.

PSRAM=$(mtdnum 48000000.psram)

cat /images/garbage.img > /dev/mtd$PSRAM
refuse "no image (bad magic) is refused" "wrong magic" mount -t cramfs mtd$PSRAM /mnt

refuse "image larger than its partition is refused" "byte MTD partition" \
	mount -t cramfs mtd:small_partition /mnt

cat /images/bigendian.img > /dev/mtd$PSRAM
refuse "big-endian image is refused" "big-endian" mount -t cramfs mtd$PSRAM /mnt

cat /images/badcrc.img > /dev/mtd$PSRAM
refuse "corrupted image with -o crc is refused" "bad CRC" mount -t cramfs -o crc mtd$PSRAM /mnt
check "corrupted image without crc still mounts (CRC is checked on request only)" \
	mount -t cramfs mtd$PSRAM /mnt
umount /mnt 2>/dev/null
cat /images/types.img > /dev/mtd$PSRAM
check "good image with -o crc mounts" mount -t cramfs -o crc mtd$PSRAM /mnt
check "crc shows in /proc/mounts" grep -q "/mnt cramfs ro,.*crc" /proc/mounts
umount /mnt 2>/dev/null

refuse "unknown mount option is refused" "Unknown parameter" \
	mount -t cramfs -o frobnicate mtd$PSRAM /mnt
refuse "missing MTD is refused" 'MTD device with name "no_such_partition" not found' \
	mount -t cramfs mtd:no_such_partition /mnt

# block2mtd over a RAM disk: an MTD without the point method.
insmod /lib/modules/brd.ko rd_nr=1 rd_size=4096
dd if=/images/tiny.img of=/dev/ram0 bs=4096 2>/dev/null
insmod /lib/modules/block2mtd.ko block2mtd=/dev/ram0,65536
B2M=$(mtdnum "block2mtd: /dev/ram0")
check "block2mtd device exists (mtd$B2M)" test -n "$B2M"
refuse "MTD without point is refused with -o strict" "strict: no execute-in-place" \
	mount -t cramfs -o strict mtd$B2M /mnt
rmmod block2mtd
rmmod brd

check "no cramfs left mounted" sh -c '! grep -q " cramfs " /proc/mounts'
check "cramfs_xip unloads cleanly" rmmod cramfs_xip
check "cramfs_xip reloads" insmod /lib/modules/cramfs_xip.ko
