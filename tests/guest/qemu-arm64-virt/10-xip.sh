# SPDX-License-Identifier: GPL-2.0
# checks: 18
# arm64 (QEMU virt, Cortex-A53, 4 KiB pages): cramfs_xip over CFI bank 1
# (0x04000000), BusyBox (arm64, -X) runs in place, and a debugger attaching
# to it while it runs (gdb -p: PTRACE_PEEKTEXT, /proc/PID/mem) reads its
# text, which arm64 asks the mapping's ->access for (CONFIG_HAVE_IOREMAP_PROT).
FLASH=$((0x04000000))
in_flash() { [ "$1" != none ] && [ $((0x$1)) -ge $FLASH ] && [ $((0x$1)) -lt $((FLASH + 0x4000000)) ]; }
awk '$1 == "/bin/busybox" && $2 == "block" { sub(":", "", $3); print "page " $3 " " ($4 == "xip" ? "flash" : "ram") }' \
	/images/xip.layout > /tmp/pages.want

check "cramfs_xip loads" insmod /lib/modules/cramfs_xip.ko
mark
check "the image mounts" mount -t cramfs mtd:fs_partition /mnt
check "in place, at physical 0x0000000004100000" klog_has \
	"(mtd:fs_partition): mounted [0-9]*-byte image at physical 0x0000000004100000"
check "every file reads right" same_manifest /images/xip.manifest /mnt
/mnt/bin/busybox sleep 30 &
pid=$!
sleep 1
phys=$(text_phys $pid /mnt/bin/busybox)
where=ram
in_flash "$phys" && where=flash
check "BusyBox runs, its text at the flash ($phys)" test $where = flash
check "its text mapping is mixed and I/O, no pfnmap (VmFlags mm io, no pf)" sh -c \
	"f=\$(awk '/ r-xp .*\\/mnt\\/bin\\/busybox/ { on = 1 } on && /^VmFlags:/ { print; exit }' /proc/$pid/smaps);
	 echo \"\$f \" | grep -q ' mm ' && echo \"\$f \" | grep -q ' io ' && ! echo \"\$f \" | grep -q ' pf '"
xiptest peek $pid /mnt/bin/busybox > /tmp/peek.out 2>&1
check "a debugger attached to it reads its text: $(cat /tmp/peek.out)" grep -q '= file, poke refused$' /tmp/peek.out
check "... and BusyBox runs on (it was only read)" kill -0 $pid
check "mount -o remount,ro with the mount's options again" mount -o remount,ro /mnt
# A lazy unmount while BusyBox runs in place: the mapping lives on, and the
# debugger still reads it; the module is held until the program exits.
check "umount -l while BusyBox runs from it: /mnt is gone" sh -c \
	'umount -l /mnt && ! grep -q " /mnt " /proc/mounts'
# /mnt is detached: compare with the initramfs's BusyBox, the same file.
xiptest peek $pid /bin/busybox > /tmp/peek.out 2>&1
now=$(text_phys $pid busybox)
check "... it runs on, its text still at the flash ($now), read by a debugger" sh -c \
	"kill -0 $pid && [ '$now' = '$phys' ] && grep -q '= file, poke refused\$' /tmp/peek.out ||
	 { cat /tmp/peek.out; false; }"
check "... and the module stays loaded, in use, while it runs" sh -c \
	'! rmmod cramfs_xip 2> /dev/null && awk "\$1 == \"cramfs_xip\" && \$3 > 0 { ok = 1 } END { exit !ok }" /proc/modules'
kill $pid
wait $pid 2> /dev/null
mark
check "once it exits, the image mounts again" mount -t cramfs mtd:fs_partition /mnt
n=$(klog_since_mark | grep -c "(mtd:fs_partition): mounted")
check "... a new mount, not the old one: its own mount line ($n)" test "$n" = 1
xiptest pages /mnt/bin/busybox > /tmp/pages.out
check "BusyBox read() then mapped: each page in place maps the flash, the rest RAM" \
	sh -c 'grep "^page " /tmp/pages.out | cmp - /tmp/pages.want'
check "MADV_DONTNEED, then the pages come back in place" xiptest dontneed /mnt/bin/busybox
check "unmount" umount /mnt
check "cramfs_xip unloads" rmmod cramfs_xip
