# SPDX-License-Identifier: GPL-2.0
# checks: 5
# readdir from a position it handed out (telldir() and seekdir() keep them)
# reads on from there, without walking the directory from its first entry:
# a directory of 300 entries on faultmtd (tests/guest/faultmtd/), whose
# every entry read is one flash read that it counts. A position no readdir
# handed out (lseek() anywhere) may walk or fail, but is never taken for a
# bad image.
insmod /lib/modules/faultmtd.ko
F=$(mtdnum faultmtd)
cat /images/dirs.img > /dev/mtd$F
check "the image of a 300-entry directory mounts from faultmtd (mtd_read)" \
	mount -t cramfs mtd$F /mnt
xiptest dirseek /mnt/many /sys/module/faultmtd/parameters/reads > /tmp/dirseek.out 2>&1
check "every position handed out, in reverse order, reads the entry that followed it" \
	grep -q '^entries 300 seeks 300 ' /tmp/dirseek.out
set -- $(sed -n 's/^entries [0-9]* seeks \([0-9]*\) reads \([0-9]*\)$/\1 \2/p' /tmp/dirseek.out)
check "... reading ${2:-?} entries for ${1:-?} seeks (at most 3 each: no walk from the first)" \
	test -n "${2:-}" -a "${2:-0}" -le $((${1:-0} * 3))
mark
xiptest dirforge /mnt/many > /tmp/dirforge.out 2>&1
check "lseek() to each of the first 2048 bytes of the directory, one entry read there: no bad image reported ($(cat /tmp/dirforge.out))" \
	sh -c "grep -q '^positions 2048 listed' /tmp/dirforge.out && ! dmesg | grep -q 'cramfs_xip.*bad entry'"
check "... and the kernel says nothing at all of it" no_klog "cramfs_xip"
umount /mnt
rmmod faultmtd
