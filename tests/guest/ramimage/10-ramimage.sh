# SPDX-License-Identifier: GPL-2.0
# checks: 10
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
# it many times with no kernel report (MemFree is reported, not checked).
check "cramfs_xip loads" insmod /lib/modules/cramfs_xip.ko
check "the kernel manages RAM up to 0x67dfffff only (mem=126M)" \
	grep -q '^60000000-67dfffff : System RAM' /proc/iomem
refuse "physaddr= past mem=, where only /memory describes it, is refused" \
	"physaddr:0x67f00000: in no memory resource or flash or image DT node" \
	mount -t cramfs -o physaddr=0x67f00000,size=0x100000 none /mnt
mark
check "the mtd-ram over the XIP image (MTD 67e00000.ram) mounts" mount -t cramfs mtd:67e00000.ram /mnt
check "... without execute-in-place, and the mount says why" klog_has \
	"(mtd:67e00000.ram): mounted [0-9]*-byte image from the MTD partition, without execute-in-place: its struct pages are not set up"
# MemFree around 40 runs from the image, the page cache dropped before each
# reading, against 40 runs of the same program from the initramfs just
# before (the kernel's own drift), printed as a NOTE, not checked: on 7.3
# it drifts by up to 2 MB across these runs with nothing of the image
# mapped, more than the image's 150 pages could add. A frame given back to
# the page allocator shows as a kernel report ("Bad page state"), which is
# checked, as is where the program's text lies. (/proc/kpageflags stops at
# the last frame of RAM the kernel manages: it says nothing of these.)
free_now() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	meminfo_kb MemFree
}
runs() {
	i=0
	ok=0
	while [ $i -lt 40 ]; do
		"$1" target && ok=$((ok + 1))
		i=$((i + 1))
	done
}
runs /bin/xiptest
start=$(free_now)
runs /bin/xiptest
before=$(free_now)
runs /mnt/bin/xiptest
check "xiptest from it runs 40 times ($ok)" test $ok = 40
/mnt/bin/xiptest target 30 &
pid=$!
sleep 1
phys=$(text_phys $pid /mnt/bin/xiptest)
check "its text is in RAM the kernel manages, not at 0x67e00000 ($phys)" \
	sh -c "[ '$phys' != none ] && [ \$((0x$phys)) -lt \$((0x67e00000)) ]"
kill $pid
wait $pid 2> /dev/null
after=$(free_now)
echo "NOTE: MemFree from the initramfs runs: $start -> $before kB; from the image: -> $after kB"
check "the files read right" same_manifest /images/ram-xip.manifest /mnt
check "unmount" umount /mnt
check "no kernel report (bad page state, BUG, oops)" sh -c "! dmesg | grep -Eq '$kernel_reports'"
