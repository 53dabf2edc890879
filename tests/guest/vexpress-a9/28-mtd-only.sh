# SPDX-License-Identifier: GPL-2.0
# checks: 17
# The module built for memory-mapped MTDs only (make CONFIG_CRAMFS_XIP_PHYSADDR=n
# CONFIG_CRAMFS_XIP_BLOCKDEV=n CONFIG_CRAMFS_XIP_MTD_READ=n): the NOR image
# in place as with the full module, and every other medium refused with a
# message that names the option which would serve it.

FS=$(mtdnum fs_partition)
# The full module has the code the MTD-only one leaves out (kallsyms lists
# a module's static functions too): without this, the checks below could
# not tell the two builds apart.
for f in cramfs_xip_fill_super_phys cramfs_xip_fill_super_bdev cramfs_xip_mtd_read; do
	check "mtd-only: the full module has $f" grep -qw "$f" /proc/kallsyms
done
check "mtd-only: the full module unloads" rmmod cramfs_xip
check "mtd-only: the MTD-only build loads" insmod /lib/modules/mtd-only/cramfs_xip.ko
check "mtd-only: it has no physaddr=, block device or mtd_read code" sh -c \
	'! grep -wE "cramfs_xip_(fill_super_phys|fill_super_bdev|mtd_read)" /proc/kallsyms'

mark
check "mtd-only: mount the NOR partition" mount -t cramfs mtd:fs_partition /mnt
check "mtd-only: every entry matches the host manifest" same_manifest /images/xip.manifest /mnt
check "mtd-only: the image is mapped in place" klog_has "mounted [0-9]*-byte image at physical"
xiptest maps /mnt/data/xip-partial.bin > /tmp/maps.out
check "mtd-only: an XIP file's mapping holds no RAM (Rss 0 kB)" grep -q '^Rss: *0 kB' /tmp/maps.out
check "mtd-only: BusyBox from the image runs" sh -c '[ "$(/mnt/bin/busybox echo here)" = here ]'
umount /mnt
check "mtd-only: the NOR named as /dev/mtdblock$FS mounts (its MTD)" \
	sh -c "mount -t cramfs /dev/mtdblock$FS /mnt && umount /mnt"

refuse "mtd-only: physaddr= is refused, naming the option" \
	"physaddr= is not built in (CONFIG_CRAMFS_XIP_PHYSADDR)" \
	mount -t cramfs -o physaddr=0x40100000 none /mnt
losetup -r /dev/loop0 /images/xip.img
refuse "mtd-only: a block device is refused, naming the option" \
	"built without block devices (CONFIG_CRAMFS_XIP_BLOCKDEV)" mount -t cramfs /dev/loop0 /mnt
losetup -d /dev/loop0
insmod /lib/modules/brd.ko rd_nr=1 rd_size=8192
cat /images/xip.img > /dev/ram0
insmod /lib/modules/block2mtd.ko block2mtd=/dev/ram0,65536
B2M=$(mtdnum "block2mtd: /dev/ram0")
refuse "mtd-only: an MTD without point is refused, naming the option" \
	"built without mtd_read (CONFIG_CRAMFS_XIP_MTD_READ)" mount -t cramfs mtd$B2M /mnt
rmmod block2mtd
rmmod brd

check "mtd-only: nothing left mounted" sh -c '! grep -q " cramfs " /proc/mounts'
check "mtd-only: unloads, and the full module loads again" \
	sh -c 'rmmod cramfs_xip && insmod /lib/modules/cramfs_xip.ko'
