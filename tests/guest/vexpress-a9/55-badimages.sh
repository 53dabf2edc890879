# SPDX-License-Identifier: GPL-2.0
# checks: 11
# Hundreds of mutated images: each mounted, every file read and mapped from
# the psram (an MTD mapped in place), and the first of them (as many as
# /badimages/loop-count says) again through a loop device (a block device,
# the path syzbot drives). A run passes when the guest survives it and the
# kernel log shows no kernel report.
# The console stays quiet during the run (thousands of rate-limited image
# errors); instead the kernel log is read after each image, and every report
# in it is copied to the console ("KLOG"), where the host's judge sees it.
PSRAM=$(mtdnum 48000000.psram)

# attach IMAGE: the image on the medium under test; its mount source on stdout.
attach_psram() { cat "$1" > /dev/mtd$PSRAM && echo mtd$PSRAM; }
detach_psram() { :; }
attach_loop() { losetup -r /dev/loop1 "$1" && echo /dev/loop1; }
detach_loop() { losetup -d /dev/loop1; }

# corpus MEDIUM N: the first N images through attach_MEDIUM, mounted, read, mapped.
corpus() {
	want=$2
	total=0
	unattached=0
	mounted=0
	mapped=0
	stuck=0
	reports=0
	dmesg -c > /dev/null
	echo 1 > /proc/sys/kernel/printk
	for f in $(ls /badimages/*.img | head -n "$want"); do
		total=$((total + 1))
		src=$(attach_$1 "$f") || unattached=$((unattached + 1))
		if [ -n "$src" ] && mount -t cramfs "$src" /mnt 2>/dev/null; then
			mounted=$((mounted + 1))
			ls -lR /mnt > /dev/null 2>&1
			find /mnt -type l -exec readlink {} + > /dev/null 2>&1
			find /mnt -type f -exec cat {} + > /dev/null 2>&1
			# Every file find lists goes through xiptest touch (which says how
			# many it took), each mapped and touched or found not mappable.
			files=$(find /mnt -type f -print0 2>/dev/null | tr -cd '\0' | wc -c)
			took=$(find /mnt -type f -exec xiptest touch {} + 2>/dev/null |
				sed -n 's/^\([0-9]*\) files: .*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
			[ "$took" = "$files" ] && mapped=$((mapped + 1))
			umount /mnt 2>/dev/null || stuck=$((stuck + 1))
		fi
		detach_$1
		if dmesg -c | grep -E "$kernel_reports" > /tmp/bad.klog; then
			reports=$((reports + 1))
			sed "s|^|KLOG $1 ${f##*/}: |" /tmp/bad.klog | head -n 20
		fi
	done
	echo 7 > /proc/sys/kernel/printk
	# Whatever the kernel said after the last image (deferred work, RCU).
	if dmesg -c | grep -E "$kernel_reports" > /tmp/bad.klog; then
		reports=$((reports + 1))
		sed "s/^/KLOG $1 after the last image: /" /tmp/bad.klog | head -n 20
	fi
	check "bad images on $1: $total of $want tried" test "$total" -eq "$want"
	check "bad images on $1: each on the medium ($unattached could not be)" \
		test "$unattached" -eq 0
	check "bad images on $1: $mounted mounted, all $mapped read and mapped" \
		test "$mapped" -eq "$mounted" -a "$mounted" -gt 0
	check "bad images on $1: every mounted image unmounts again ($stuck did not)" test $stuck -eq 0
	check "bad images on $1: no kernel report after any image ($reports had one)" \
		test $reports -eq 0
}

corpus psram "$(cat /badimages/count)"
corpus loop "$(cat /badimages/loop-count)"
check "bad images: the module unloads afterwards" sh -c 'rmmod cramfs_xip && insmod /lib/modules/cramfs_xip.ko'
