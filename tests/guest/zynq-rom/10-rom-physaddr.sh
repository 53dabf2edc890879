# SPDX-License-Identifier: GPL-2.0
# checks: 14
# AMD NOR laid out with no writes at run time: the first 32 MiB are mtd-rom
# (MTD's map_rom has point whatever the chip's command set), the last
# 32 MiB a window no driver binds (cramfs-xip,image), mounted by physaddr=.
# Each holds the XIP image; BusyBox's text runs from the flash in both.
FLASH=$((0xe2000000))
awk '$1 == "/bin/busybox" && $2 == "block" { sub(":", "", $3); print "page " $3 " " ($4 == "xip" ? "flash" : "ram") }' \
	/images/xip.layout > /tmp/pages.want
# run_in_place LABEL BASE: BusyBox from /mnt runs, its first text page at
# BASE plus its offset in the image, and every page in place maps the flash.
run_in_place() {
	off=$(sed -n 's|^  /bin/busybox block 0: xip at \([0-9]*\),.*|\1|p' /images/xip.layout)
	want=$(printf '%08x' $(($2 + off)))
	/mnt/bin/busybox sleep 20 &
	pid=$!
	sleep 1
	got=$(text_phys $pid /mnt/bin/busybox)
	check "$1: BusyBox runs, its text at the flash ($want): $got" test "$got" = "$want"
	kill $pid
	wait $pid 2> /dev/null
	xiptest pages /mnt/bin/busybox > /tmp/pages.out 2>&1
	check "$1: each page stored in place maps the flash, no RAM page for it" \
		sh -c 'grep "^page " /tmp/pages.out | cmp - /tmp/pages.want'
}

check "cramfs_xip loads" insmod /lib/modules/cramfs_xip.ko
check "mtd-rom: the ROM's partition is there" grep -q '"fs_partition"' /proc/mtd
mark
check "mtd-rom: the image mounts" mount -t cramfs mtd:fs_partition /mnt
check "mtd-rom: in place, at physical 0xe2000000" klog_has \
	"(mtd:fs_partition): mounted [0-9]*-byte image at physical 0xe2000000"
check "mtd-rom: no line about other partitions (a ROM is never written)" \
	no_klog "rest of its chip"
check "mtd-rom: every file reads right" same_manifest /images/xip.manifest /mnt
run_in_place mtd-rom $FLASH
check "mtd-rom: unmount" umount /mnt

mark
check "physaddr=: the window's image mounts" mount -t cramfs -o physaddr=0xe4000000 none /mnt
check "physaddr=: in place" klog_has "(physaddr:0xe4000000): mounted [0-9]*-byte image at physical 0xe4000000"
check "physaddr=: every file reads right" same_manifest /images/xip.manifest /mnt
run_in_place physaddr= $((0xe4000000))
umount /mnt
