# SPDX-License-Identifier: GPL-2.0
# Speed, cramfs_xip against mainline cramfs on the same images: the BusyBox
# tree laid out for XIP (fs_partition) and all compressed (spare). Times are
# QEMU's (TCG), good for ratios only. Prints BENCH speed lines (benchtool),
# labelled MODULE IMAGE ROUND.
#
# The method: QEMU translates guest code the first time it runs, so whichever
# module runs first pays for translating the kernel's own mount, page-cache,
# exec and zlib paths, and the second gets them for free. So a warm-up round
# of each module first (round 0, not reported), then rounds in the order
# A B B A B A A B (A: cramfs_xip): a drift over the run (in either direction)
# weighs on both modules alike. The report takes the median of the round
# medians and shows the spread of the rounds and of each A/B pair's ratio.
speed_run() {	# speed_run MODULE IMAGE MTD ROUND
	L="$1 $2 $4"
	benchtool mount "$L" 15 "$3" /mnt
	mount -t cramfs "$3" /mnt || return
	benchtool readall "$L" 5 /mnt
	benchtool fault "$L" 5 /mnt/bin/busybox
	benchtool exec "$L" 11 /mnt/bin/busybox true
	umount /mnt
}
speed_round() {	# speed_round MODULE ROUND
	ko=cramfs
	[ "$1" = cramfs_xip ] && ko=cramfs_xip
	insmod /lib/modules/$ko.ko
	speed_run "$1" xip mtd:fs_partition "$2"
	speed_run "$1" zlib mtd:spare "$2"
	rmmod $ko
}
speed_round cramfs_xip 0
speed_round mainline 0
r=1
for m in A B B A B A A B; do
	if [ $m = A ]; then speed_round cramfs_xip $r; else speed_round mainline $r; fi
	r=$((r + 1))
done
