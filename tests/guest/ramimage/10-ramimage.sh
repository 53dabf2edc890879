# SPDX-License-Identifier: GPL-2.0
# checks: 11
# RAM past mem=: the kernel was given mem=126M of QEMU's 128 MiB, and the
# 2 MiB it does not manage hold two images: an XIP image of xiptest at
# 0x67e00000, described as an mtd-ram, and the tiny image at 0x67f00000,
# in no node but /memory (dts/vexpress-v2p-ca9-cramfs-xip-ramimage.dts).
# On 32-bit ARM without LPAE, pfn_valid() is true there (FLATMEM's memory
# map covers the whole 4 MiB pageblock) while the kernel never set those
# page structures up: mapping such a frame would take a reference on
# garbage, and giving it back could hand the image's RAM to the page
# allocator. physaddr= refuses /memory (no node of flash or an image); the
# MTD mounts, maps nothing in place and says why, and a program runs from
# it many times with no kernel report and no MemFree jump.
check "cramfs_xip loads" insmod /lib/modules/cramfs_xip.ko
check "the kernel manages RAM up to 0x67dfffff only (mem=126M)" \
	grep -q '^60000000-67dfffff : System RAM' /proc/iomem
refuse "physaddr= past mem=, where only /memory describes it, is refused" \
	"physaddr:0x67f00000: not in a memory resource or a device tree node of flash or an image" \
	mount -t cramfs -o physaddr=0x67f00000,size=0x100000 none /mnt
mark
check "the mtd-ram over the XIP image (MTD 67e00000.ram) mounts" mount -t cramfs mtd:67e00000.ram /mnt
check "... without execute-in-place, and the mount says why" klog_has \
	"(mtd:67e00000.ram): mounted [0-9]*-byte image from the MTD partition, without execute-in-place: the kernel has page structures for its frames but does not manage them"
# MemFree around 40 runs, after 10 to warm up, the page cache dropped each
# time: frames of the image given to the page allocator would show here.
i=0
while [ $i -lt 10 ]; do
	/mnt/bin/xiptest target
	i=$((i + 1))
done
sync
echo 3 > /proc/sys/vm/drop_caches
before=$(meminfo_kb MemFree)
i=0
ok=0
while [ $i -lt 40 ]; do
	/mnt/bin/xiptest target && ok=$((ok + 1))
	i=$((i + 1))
done
check "xiptest from it runs 40 times ($ok)" test $ok = 40
/mnt/bin/xiptest target 30 &
pid=$!
sleep 1
text=$(grep ' r-xp ' /proc/$pid/maps | grep /mnt/bin/xiptest)
phys=$(page_phys $pid "${text%%-*}")
check "its text is in RAM the kernel manages, not at 0x67e00000 ($phys)" \
	sh -c "[ '$phys' != none ] && [ \$((0x$phys)) -lt \$((0x67e00000)) ]"
kill $pid
wait $pid 2> /dev/null
echo 3 > /proc/sys/vm/drop_caches
after=$(meminfo_kb MemFree)
check "MemFree did not jump (before $before kB, after $after kB)" \
	test $((after - before)) -lt 1024
check "the files read right" same_manifest /images/ram-xip.manifest /mnt
check "unmount" umount /mnt
check "no kernel report (bad page state, BUG, oops)" sh -c "! dmesg | grep -Eq '$kernel_reports'"
