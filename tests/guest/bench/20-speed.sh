# SPDX-License-Identifier: GPL-2.0
# Speed, cramfs_xip against mainline cramfs on the same images: the BusyBox
# tree laid out for XIP (fs_partition) and all compressed (spare). Times are
# QEMU's (TCG; tests/bench.sh runs it with -icount, so they count guest
# instructions), good for ratios only. Prints BENCH speed lines (benchtool),
# labelled MODULE IMAGE ROUND.
#
# The method: QEMU translates guest code the first time it runs, so whichever
# module runs first pays for translating the kernel's own mount, page-cache,
# exec and zlib paths; and within one boot, mainline measured after
# cramfs_xip had been loaded ran 2.5 times slower than in a round after
# itself (readall and fault, zlib and xip alike), while cramfs_xip did not
# move. So each round is a boot of its own, with one module: tests/bench.sh
# boots the guest once per round, in the order A B B A B A A B (A:
# cramfs_xip), passing bench_module and bench_round on the kernel command
# line (the kernel hands them to init as environment). In each boot a
# warm-up round (round 0, not reported) precedes the measured one. The
# report takes the median of the round medians and shows the spread of the
# rounds and of each A/B pair's ratio.
[ -n "${bench_module:-}" ] || return 0
echo 1 > /proc/sys/kernel/printk
speed_run() {	# speed_run MODULE IMAGE MTD ROUND [OPTIONS]
	L="$1 $2 $4"
	benchtool mount "$L" 15 "$3" /mnt "${5:-}"
	# Verity's rounds: the first read and exec after each mount too.
	case $1 in verity-*)
		benchtool firstread "$L" 5 "$3" /mnt "${5:-}"
		benchtool firstexec "$L" 5 "$3" /mnt "${5:-}"
		;;
	esac
	mount -t cramfs ${5:+-o "$5"} "$3" /mnt || return
	benchtool readall "$L" 5 /mnt
	benchtool fault "$L" 5 /mnt/bin/busybox
	benchtool exec "$L" 11 /mnt/bin/busybox true
	umount /mnt
}
speed_round() {	# speed_round MODULE ROUND
	ko=cramfs
	mod=cramfs
	ox=
	oz=
	case $1 in
	cramfs_xip*)
		ko=$1	# cramfs_xip-wN: the module built with a fault window of N pages
		mod=cramfs_xip
		;;
	verity-off)	# 7.3: the module, on images made with --verity
		ko=cramfs_xip
		mod=cramfs_xip
		;;
	verity-on)	# ... and the module built with verity, given their root hashes
		ko=cramfs_xip-verity
		mod=cramfs_xip
		ox=verity=$(cat /images/bench-xip.root)
		oz=verity=$(cat /images/bench-zlib.root)
		;;
	esac
	insmod /lib/modules/$ko.ko
	speed_run "$1" xip mtd:fs_partition "$2" "$ox"
	speed_run "$1" zlib mtd:spare "$2" "$oz"
	rmmod $mod
}
speed_round "$bench_module" 0
speed_round "$bench_module" "$bench_round"
