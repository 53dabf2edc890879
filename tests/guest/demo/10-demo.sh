# SPDX-License-Identifier: GPL-2.0
# make demo: mount the image in NOR flash and show it at work.
say() { printf '\n\033[1m# %s\033[0m\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

echo 1 > /proc/sys/kernel/printk
say "Load the module and mount the flash partition"
run insmod /lib/modules/cramfs_xip.ko
run grep fs_partition /proc/mtd
run mount -t cramfs mtd:fs_partition /mnt
run grep /mnt /proc/mounts
dmesg | grep 'cramfs_xip' | tail -n 1

say "Read files from flash"
run ls -l /mnt /mnt/bin /mnt/etc
run cat /mnt/etc/motd

say "Run BusyBox from the image, and look at how its code is mapped"
/mnt/bin/busybox sleep 30 &
pid=$!
sleep 1
run grep busybox /proc/$pid/maps
echo "(an offset column of 4010xxxx is flash: the text runs in place, in no RAM page)"
run grep -E '^(MemFree|Cached):' /proc/meminfo
kill $pid
wait $pid 2>/dev/null

say "Unmount and unload"
run umount /mnt
run rmmod cramfs_xip
