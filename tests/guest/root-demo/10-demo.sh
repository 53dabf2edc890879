# SPDX-License-Identifier: GPL-2.0
# make demo: the kernel has booted with its root filesystem served by
# cramfs_xip straight from NOR flash; show it at work.
say() { printf '\n\033[1m# %s\033[0m\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

echo 1 > /proc/sys/kernel/printk
say "The kernel mounted the root filesystem from flash (root=mtd:fs_partition)"
run cat /proc/cmdline
run grep -E ' / cramfs ' /proc/mounts
dmesg | grep 'cramfs_xip' | tail -n 1
run grep fs_partition /proc/mtd

say "RAM right after boot, as the first script run by init found it"
echo "$BOOT_MEMINFO"
echo "(Cached is the whole page cache: init's code is not in it, only the pages"
echo " read through it: ELF headers, BusyBox's data, /etc/inittab, this script)"

say "init is BusyBox from the image; its code is mapped from flash"
run grep busybox /proc/1/maps
line=$(grep ' r-xp .* /bin/busybox$' /proc/1/maps | head -n 1)
echo "(/proc/1/pagemap: the first page of the r-xp line is at physical $(page_phys 1 "${line%%-*}"),"
echo " in NOR flash (0x4xxxxxxx): the code runs in place; the rw-p data lines"
echo " are private RAM copies)"

say "Files in the image"
run ls -l /
run cat /etc/motd
say "RAM now"
run grep -E '^(MemTotal|MemFree|Cached):' /proc/meminfo
