# SPDX-License-Identifier: GPL-2.0
# checks: 10
# A live A/B update as products do it: the root filesystem runs in place
# from bank 0 (fs_partition: init and this shell are BusyBox from it) while
# flashcp writes the next image to bank 1, another chip (fs_b:
# dts/vexpress-v2p-ca9-cramfs-xip-ab.dts). The chip the root mount holds
# makes only its own writes wait: bank 1 is written at once. Then the new
# image mounts and runs in place from bank 1.
B=$(mtdnum fs_b)
check "root is cramfs from fs_partition" grep -q '^mtd:fs_partition / cramfs ' /proc/mounts
check "bank 1 is its own MTD (fs_b)" test -n "$B"
start=$(cut -d' ' -f1 /proc/uptime)
LD_LIBRARY_PATH=/lib/arm-linux-gnueabihf /usr/sbin/flashcp /ab/new.img /dev/mtd$B > /tmp/flashcp.out 2>&1 &
writer=$!
# Meanwhile programs run from the root, in place.
i=0
while [ $i -lt 20 ] && kill -0 $writer 2> /dev/null; do
	/bin/busybox true
	i=$((i + 1))
	sleep 1
done
wait $writer
rc=$?
end=$(cut -d' ' -f1 /proc/uptime)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%d", b - a }')
check "flashcp wrote the new image to fs_b while root ran in place (exit $rc, ${secs} s)" test $rc = 0
check "... without waiting for the root's chip (under 60 s)" test "$secs" -lt 60
check "programs ran from the root meanwhile ($i runs)" test $i -ge 1
check "fs_b holds the new image byte for byte" sh -c \
	"dd if=/dev/mtd$B bs=65536 count=$(( ($(stat -c %s /ab/new.img) + 65535) / 65536 )) 2> /dev/null |
	 head -c $(stat -c %s /ab/new.img) | cmp - /ab/new.img"
check "the new image mounts from fs_b" mount -t cramfs mtd:fs_b /mnt
check "it is the new image (its release file)" grep -q '^release B$' /mnt/etc/release
/mnt/bin/busybox sleep 20 &
pid=$!
sleep 1
phys=$(text_phys $pid /mnt/bin/busybox)
check "its BusyBox runs in place from bank 1 ($phys)" \
	sh -c "[ '$phys' != none ] && [ \$((0x$phys)) -ge \$((0x44000000)) ] && [ \$((0x$phys)) -lt \$((0x48000000)) ]"
kill $pid
wait $pid 2> /dev/null
check "unmount fs_b" umount /mnt
