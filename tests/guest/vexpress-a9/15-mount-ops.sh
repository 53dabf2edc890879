# SPDX-License-Identifier: GPL-2.0
# checks: 54
# What users and init systems do to a mounted filesystem: remount (ro, the
# same options again, a changed option, rw), bind, move, lazy unmount with
# open files and live mappings; on an MTD mount and a physaddr= mount.

P=0x44000000	# flash bank 1: the XIP image (45-physaddr.sh)
mkdir -p /mnt2 /mnt3
ro_mount() { awk -v m="$1" '$2 == m && $3 == "cramfs" { print $4 }' /proc/mounts | grep -q '^ro\(,\|$\)'; }

# remount_suite LABEL OPTIONS SOURCE: remounts of a mount made with OPTIONS.
remount_suite() {
	L=$1
	check "$L: mount -o $2" mount -t cramfs -o "$2" "$3" /mnt
	check "$L: remount,ro" mount -o remount,ro /mnt
	check "$L: remount with its own options ($2)" mount -o "remount,ro,$2" /mnt
	check "$L: /proc/mounts still shows ro and the options" sh -c \
		"grep ' /mnt cramfs ' /proc/mounts | grep -q 'ro,.*${2##*,}'"
	mount -o remount,rw /mnt > /tmp/rw.out 2>&1
	check "$L: remount,rw leaves it read-only" ro_mount /mnt
	check "$L: still refuses writes after remount,rw" sh -c '! touch /mnt/newfile 2>/dev/null'
	refuse "$L: remount with another physaddr= is refused" "remount cannot change physaddr=" \
		mount -o remount,physaddr=0x44200000 /mnt
	check "$L: every entry still matches the host manifest" same_manifest /images/xip.manifest /mnt
	check "$L: BusyBox still runs from it" /mnt/bin/busybox true
	check "$L: unmount" umount /mnt
}
remount_suite "mtd crc" crc mtd:fs_partition
remount_suite "physaddr" "physaddr=$P" none
remount_suite "physaddr crc" "physaddr=$P,crc" none

mount -t cramfs mtd:fs_partition /mnt
refuse "remount adding crc is refused" "remount cannot add crc" mount -o remount,crc /mnt
refuse "remount with an unknown option is refused" "Unknown parameter" \
	mount -o remount,frobnicate /mnt
refuse "a second mount of the same MTD asking for crc is refused" "already mounted without crc" \
	mount -t cramfs -o crc mtd:fs_partition /mnt2
check "a second mount of the same MTD with the same options shares it" \
	sh -c 'mount -t cramfs mtd:fs_partition /mnt2 && [ "$(stat -c %d /mnt)" = "$(stat -c %d /mnt2)" ] && umount /mnt2'
umount /mnt

# Bind and move: the same superblock under other names.
mount -t cramfs mtd:fs_partition /mnt
check "bind mount" mount --bind /mnt /mnt2
check "bind mount: every entry matches the host manifest" same_manifest /images/xip.manifest /mnt2
check "remount,bind,ro of the bind mount" mount -o remount,bind,ro /mnt2
check "move the bind mount" mount --move /mnt2 /mnt3
check "moved mount: BusyBox runs from it" /mnt3/bin/busybox true
check "unmount the original; the moved bind mount still reads" \
	sh -c 'umount /mnt && cmp /mnt3/data/compressed.txt /images/xip-ref/data/compressed.txt'
check "unmount the moved mount" umount /mnt3
check "nothing of it left mounted" sh -c '! grep -q " cramfs " /proc/mounts'

# Lazy unmount while a file is open, a program runs from flash and a file
# is mapped: all keep working; the flash is released when the last goes.
mount -t cramfs mtd:fs_partition /mnt
# A reader holding the file open across the unmount (in a subshell: a failed
# redirection must not end the test shell).
( exec 3< /mnt/data/compressed.txt && sleep 3 && cat <&3 > /tmp/lazy-open.out ) &
reader=$!
/mnt/bin/busybox sleep 4 &
sleeper=$!
/mnt/bin/xiptest hold /mnt/data/xip-partial.bin 4 > /tmp/hold.out 2>&1 &
holder=$!
sleep 1
check "lazy unmount with an open file, a running program and a mapping" umount -l /mnt
check "lazy unmount: gone from /proc/mounts" sh -c '! grep -q " /mnt cramfs " /proc/mounts'
check "lazy unmount: the program from flash still runs" kill -0 $sleeper
wait $reader
check "lazy unmount: the open file still reads" \
	cmp /tmp/lazy-open.out /images/xip-ref/data/compressed.txt
check "lazy unmount: the program exits normally" wait $sleeper
check "lazy unmount: the mapping keeps its bytes ($(cat /tmp/hold.out))" wait $holder
rm -f /tmp/lazy-open.out
check "after the last user: the MTD mounts again" mount -t cramfs mtd:fs_partition /mnt
check "and unmounts" umount /mnt

# physaddr= mounts have an anonymous device number: a failed mount must give
# its number back (the next mount gets the same one).
mount -t cramfs -o physaddr=$P none /mnt
dev1=$(stat -c %d /mnt)
umount /mnt
for i in 1 2 3; do
	mount -t cramfs -o physaddr=0x44000200 none /mnt 2>/dev/null
	mount -t cramfs -o physaddr=0x44000000,size=0x100000 none /mnt 2>/dev/null
done
mount -t cramfs -o physaddr=$P none /mnt
dev2=$(stat -c %d /mnt)
umount /mnt
check "failed physaddr= mounts leak no device number ($dev1, then $dev2)" test "$dev1" = "$dev2"

# Directory positions from users: lseek() to a position that is not an
# entry boundary is not image corruption.
mount -t cramfs mtd:fs_partition /mnt
mark
check "readdir after lseek() into the middle of an entry lists the rest" \
	xiptest seekdir /mnt/data
check "readdir after a bad lseek(): no corruption reported" no_klog "bad entry"
# File servers (Samba, knfsd) take leases; from 7.0 a filesystem must ask for them.
check "a read lease on a file (F_SETLEASE)" xiptest lease /mnt/data/compressed.txt
umount /mnt
