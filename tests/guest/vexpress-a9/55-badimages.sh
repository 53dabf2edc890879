# SPDX-License-Identifier: GPL-2.0
# Hundreds of mutated images: each mounted, every file read and mapped. The run
# passes when the guest survives it and the kernel log shows no oops, BUG or
# warning (judged on the host, and from dmesg below).
PSRAM=$(mtdnum 48000000.psram)
total=0
mounted=0
stuck=0
echo 1 > /proc/sys/kernel/printk
for f in /badimages/*.img; do
	total=$((total + 1))
	cat "$f" > /dev/mtd$PSRAM
	if mount -t cramfs mtd$PSRAM /mnt 2>/dev/null; then
		mounted=$((mounted + 1))
		ls -lR /mnt > /dev/null 2>&1
		find /mnt -type l -exec readlink {} + > /dev/null 2>&1
		find /mnt -type f -exec cat {} + > /dev/null 2>&1
		find /mnt -type f -exec xiptest touch {} + > /dev/null 2>&1
		umount /mnt 2>/dev/null || stuck=$((stuck + 1))
	fi
done
echo 7 > /proc/sys/kernel/printk
check "bad images: $total tried, $mounted mounted, all read and mapped" test $total -gt 0
check "bad images: every mounted image unmounts again ($stuck did not)" test $stuck -eq 0
dmesg | grep -E 'Oops|BUG:|WARNING:|Unable to handle|Internal error' > /tmp/bad.klog
check "bad images: no oops, BUG or warning in the kernel log" test ! -s /tmp/bad.klog
check "bad images: the module unloads afterwards" sh -c 'rmmod cramfs_xip && insmod /lib/modules/cramfs_xip.ko'
