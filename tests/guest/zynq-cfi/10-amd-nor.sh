# SPDX-License-Identifier: GPL-2.0
# checks: 28
# AMD-command-set NOR (QEMU xilinx-zynq-a9's cfi.pflash02, 64 MiB at
# 0xe2000000) through physmap. The command set is a module here, so at boot
# physmap finds no driver for the chip and maps it as ROM instead; the test
# unbinds that, and each part loads a command set and binds the flash. With the stock cfi_cmdset_0002 there is no point:
# the image is read with mtd_read, programs run from RAM, the mount's line
# says where the user guide tells what to do, and the figures count it.
# With the project's patch (scripts/patches/cfi-amdstd-point/) point maps
# the chip: BusyBox's text runs from the flash, and an erase and a write of
# a sibling partition started while the image is mounted wait (reads are
# served) until the unmount, then finish, nothing lost.
FLASH=$((0xe2000000))
FS_PHYS=$((FLASH + 0x100000))
D=/sys/fs/cramfs_xip/mtd:fs_partition
bind_flash() { echo e2000000.flash > /sys/bus/platform/drivers/physmap-flash/bind; }
unbind_flash() { echo e2000000.flash > /sys/bus/platform/drivers/physmap-flash/unbind; }
in_flash() { [ "$1" != none ] && [ $((0x$1)) -ge $FLASH ] && [ $((0x$1)) -lt $((FLASH + 0x4000000)) ]; }
# The pages the image stores in place, as xiptest pages lists them.
awk '$1 == "/bin/busybox" && $2 == "block" { sub(":", "", $3); print "page " $3 " " ($4 == "xip" ? "flash" : "ram") }' \
	/images/xip.layout > /tmp/pages.want

# Without its command set physmap falls back to a ROM map of the chip.
check "at boot physmap, lacking the AMD command set, maps the chip as ROM: unbind it" \
	sh -c 'grep -q "\"fs_partition\"" /proc/mtd && echo e2000000.flash > /sys/bus/platform/drivers/physmap-flash/unbind &&
	       ! grep -q "\"fs_partition\"" /proc/mtd'
check "the stock AMD command set loads" insmod /lib/modules/stock/cfi_cmdset_0002.ko
bind_flash
check "physmap binds the chip: boot, fs_partition, spare" \
	sh -c 'grep -q "\"boot\"" /proc/mtd && grep -q "\"fs_partition\"" /proc/mtd && grep -q "\"spare\"" /proc/mtd'
SPARE=$(mtdnum spare)
check "cramfs_xip loads" insmod /lib/modules/cramfs_xip.ko
mark
check "stock: the image mounts" mount -t cramfs mtd:fs_partition /mnt
check "stock: without execute-in-place, the line naming the user guide's section" klog_has \
	'without execute-in-place: the MTD driver cannot map its flash (user guide: "Will my flash run in place?")'
check "stock: every file reads right (mtd_read)" same_manifest /images/xip.manifest /mnt
/mnt/bin/busybox sleep 20 &
pid=$!
sleep 1
phys=$(text_phys $pid /mnt/bin/busybox)
where=ram
in_flash "$phys" && where=flash
check "stock: BusyBox runs, its text in RAM ($phys)" test "$phys" != none -a $where = ram
kill $pid
wait $pid 2> /dev/null
check "stock: the figures count the mmaps (not_in_place_medium)" \
	sh -c "[ \$(sed -n 's/^not_in_place_medium //p' $D) -gt 0 ]"
check "stock: unmount" umount /mnt
unbind_flash
check "the stock command set unloads" rmmod cfi_cmdset_0002

check "the patched AMD command set loads" insmod /lib/modules/patched/cfi_cmdset_0002.ko
bind_flash
check "physmap binds the chip again" sh -c 'grep -q "\"fs_partition\"" /proc/mtd'
SPARE=$(mtdnum spare)
mark
check "patched: the image mounts" mount -t cramfs mtd:fs_partition /mnt
check "patched: in place, at physical 0xe2100000" klog_has \
	"(mtd:fs_partition): mounted [0-9]*-byte image at physical 0xe2100000"
n=$(klog_since_mark | grep -c '(mtd:fs_partition): mounted [0-9]*-byte image at physical 0xe2100000; writes to the rest of its chip wait for unmount')
check "patched: the line says once that the chip's other partitions wait ($n)" test "$n" = 1
check "patched: every file reads right" same_manifest /images/xip.manifest /mnt
xiptest pages /mnt/bin/busybox > /tmp/pages.out 2>&1
check "patched: each BusyBox page stored in place maps the flash, no RAM page for it" \
	sh -c 'grep "^page " /tmp/pages.out | cmp - /tmp/pages.want'

# A sibling partition of the same chip, while the image is mounted: its
# erase (block 1) and a write (flashcp, block 0) wait for the chip.
/mnt/bin/busybox sleep 60 &
runner=$!
sleep 1
L=patched
sibling_start $SPARE /images/sibling.bin
phys=$(text_phys $runner /mnt/bin/busybox)
where=ram
in_flash "$phys" && where=flash
check "patched: ... its text at the flash ($phys)" test $where = flash
kill $runner
wait $runner 2> /dev/null
check "patched: unmount" umount /mnt
sibling_finish $SPARE /images/sibling.bin
check "patched: the image mounts again" mount -t cramfs mtd:fs_partition /mnt
check "patched: ... and reads right" same_manifest /images/xip.manifest /mnt
umount /mnt
