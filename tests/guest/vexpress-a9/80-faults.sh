# SPDX-License-Identifier: GPL-2.0
# checks: 34
# Allocation failures, each once (the debug kernel only: CONFIG_FAILSLAB,
# CONFIG_FAIL_PAGE_ALLOC): every operation runs with its Nth allocation
# failing (faultop, /proc/thread-self/fail-nth), N = 1, 2, ... until it
# completes without reaching the Nth, so that every allocation on its path
# has failed once. Each run must end in success or ENOMEM/EIO, leave no
# mount behind, and the operation must succeed afterwards; the kernel log
# (judged after the boot) must hold no report, and kmemleak must find
# nothing after the series.
FI=/sys/kernel/debug
mount -t debugfs debugfs $FI 2> /dev/null
for f in failslab fail_page_alloc; do
	echo N > $FI/$f/ignore-gfp-wait
	echo 0 > $FI/$f/verbose
done
echo N > $FI/fail_page_alloc/ignore-gfp-highmem
echo 0 > $FI/fail_page_alloc/min-order

mounted() { grep -q " $1 cramfs " /proc/mounts; }
# series NAME SETUP CLEANUP OPERATION: SETUP and CLEANUP are shell commands
# run around each try; the operation is faultop's. A mount's CLEANUP checks
# that a failed mount left nothing ($rc is the try's result).
series() {
	_sname=$1 _setup=$2 _cleanup=$3 _op=$4
	_n=1 _bad=0
	: > /tmp/series.bad
	while [ $_n -le 3000 ]; do
		eval "$_setup"
		_out=$(faultop $_n $_op) || { echo "faultop $_n $_op: exit $?" >> /tmp/series.bad; break; }
		rc=${_out% *}
		_inj=${_out#* }
		case $rc in
		0 | 5 | 12) ;;
		*) echo "fault $_n: error $rc" >> /tmp/series.bad ;;
		esac
		eval "$_cleanup"
		[ "$_inj" = 1 ] || break
		_n=$((_n + 1))
	done
	_points=$((_n - 1))
	check "faults: $_sname: each of its $_points allocations failed once: success or ENOMEM/EIO, nothing left behind" \
		sh -c "[ $_points -gt 0 ] && [ $_n -le 3000 ] && [ ! -s /tmp/series.bad ]"
	[ -s /tmp/series.bad ] && head -n 5 /tmp/series.bad | sed 's/^/    | /'
	eval "$_setup"
	check "faults: $_sname: then it succeeds" sh -c "[ \"\$(faultop 0 $_op)\" = '0 0' ]"
	rc=0
	eval "$_cleanup"
}
# After a mount's try: a failed mount must have left no mount; a good one is undone.
after_mount() {
	if [ "$rc" != 0 ] && mounted $1; then
		echo "fault $_n: failed ($rc), but mounted" >> /tmp/series.bad
	fi
	! mounted $1 || umount $1
}
fresh() {	# fresh MOUNT-ARGS: mounted, with nothing of it cached
	mount -t cramfs $* /mnt
	echo 3 > /proc/sys/vm/drop_caches
}
undo() { ! mounted /mnt || umount /mnt; }

losetup -r /dev/loop0 /images/xip.img
insmod /lib/modules/faultmtd.ko
F=$(mtdnum faultmtd)
cat /images/xip.img > /dev/mtd$F

series "mount of an MTD" "" "after_mount /mnt" "mount mtd:fs_partition /mnt"
series "mount -o crc" "" "after_mount /mnt" "mount mtd:fs_partition /mnt crc"
series "mount by physaddr=" "" "after_mount /mnt" "mount none /mnt physaddr=0x44000000"
series "mount of a block device" "" "after_mount /mnt" "mount /dev/loop0 /mnt"
series "mount of an MTD without point" "" "after_mount /mnt" "mount mtd$F /mnt"
series "remount" "fresh mtd:fs_partition" "undo" "remount /mnt ro"
series "readdir of the whole tree" "fresh mtd:fs_partition" "undo" "readdir /mnt"
series "read every file of /data" "fresh mtd:fs_partition" "undo" "read /mnt/data"
series "read every file of /data, MTD without point" "fresh mtd$F" "undo" "read /mnt/data"
series "read every file of /data, block device" "fresh /dev/loop0" "undo" "read /mnt/data"
series "mmap in place whole" "fresh mtd:fs_partition" "undo" "map /mnt/data/xip-partial.bin"
series "mmap in place mixed (BusyBox)" "fresh mtd:fs_partition" "undo" "map /mnt/bin/busybox"
series "mmap private writable, written" "fresh mtd:fs_partition" "undo" "mapwrite /mnt/data/xip-partial.bin"
series "FIEMAP" "fresh mtd:fs_partition" "undo" "fiemap /mnt/bin/busybox"
series "umount" "fresh mtd:fs_partition" "undo" "umount /mnt"
series "lazy umount with a live mapping" "fresh mtd:fs_partition" "undo" "lazy /mnt /mnt/bin/busybox"

losetup -d /dev/loop0
rmmod faultmtd
check "faults: nothing mounted after the series" sh -c '! grep -q " cramfs " /proc/mounts'
if [ -e $FI/kmemleak ]; then
	echo 3 > /proc/sys/vm/drop_caches
	echo scan > $FI/kmemleak
	sleep 6
	echo scan > $FI/kmemleak
	n=$(grep -c '^unreferenced object' $FI/kmemleak)
	check "faults: kmemleak after the series: no unreferenced objects ($n)" test "$n" = 0
	[ "$n" = 0 ] || head -n 30 $FI/kmemleak | sed 's/^/    | /'
else
	skip "faults: kmemleak: this kernel has none"
fi
