# SPDX-License-Identifier: GPL-2.0
# Speed, cramfs_xip against mainline cramfs on the same images: the BusyBox
# tree laid out for XIP (fs_partition) and all compressed (spare). Times are
# QEMU's (TCG), good for ratios only. Prints BENCH speed lines (benchtool).
speed_run() {	# speed_run MODULE IMAGE MTD
	L="$1 $2"
	benchtool mount "$L" 31 "$3" /mnt
	mount -t cramfs "$3" /mnt || return
	benchtool readall "$L" 9 /mnt
	benchtool fault "$L" 9 /mnt/bin/busybox
	benchtool exec "$L" 21 /mnt/bin/busybox true
	umount /mnt
}
insmod /lib/modules/cramfs_xip.ko
speed_run cramfs_xip xip mtd:fs_partition
speed_run cramfs_xip zlib mtd:spare
rmmod cramfs_xip
insmod /lib/modules/cramfs.ko
speed_run mainline xip mtd:fs_partition
speed_run mainline zlib mtd:spare
rmmod cramfs
