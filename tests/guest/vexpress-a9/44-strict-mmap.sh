# SPDX-License-Identifier: GPL-2.0
# checks: 12
# -o strict and mmap: a mapping that holds pages the image stores for
# execute-in-place (direct, plain, page-aligned), but which cannot be mapped
# in place, fails with EINVAL and one kernel line naming the file, the page
# and why, instead of quietly costing RAM; compressed pages, and plain ones
# the image does not align for XIP, still come from the page cache.

PSRAM=$(mtdnum 48000000.psram)
# xip-partial.bin's last page (100 bytes) lies page-aligned in flash, and
# the crafted image has a byte that is not zero after its tail.
cat /images/crafted/tail-not-zero.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
xiptest touch /mnt/data/xip-partial.bin > /tmp/strict.out 2>&1
check "without strict: a file whose last flash page is not zero past its tail maps" \
	grep -q ' 0 could not be mapped' /tmp/strict.out
umount /mnt

check "strict mount of that image" mount -t cramfs -o strict mtd$PSRAM /mnt
mark
xiptest touch /mnt/data/xip-partial.bin > /tmp/strict.out 2>&1
check "strict: its mmap fails with EINVAL" \
	grep -q '^/mnt/data/xip-partial.bin: mmap: Invalid argument' /tmp/strict.out
check "strict: the kernel names the file, the page and why" \
	klog_has "strict: xip-partial.bin: page 3 is stored for execute-in-place, but the rest of its flash page is not zero"
mark
xiptest grow /mnt/data/xip-partial.bin 3 > /tmp/strict.out 2>&1
check "strict: a mapping of its first 3 pages grown by mremap() gets SIGBUS at page 3" \
	sh -c "grep -q '^sigbus at page 3\$' /tmp/strict.out || { cat /tmp/strict.out; false; }"
check "strict: ... and the kernel names the file and the page" \
	klog_has "strict: xip-partial.bin: page 3 is stored for execute-in-place, but the rest of its flash page is not zero"
check "strict: read() of it still works" sh -c 'cat /mnt/data/xip-partial.bin > /dev/null'
# /bin/tiny: page 2 direct and plain off a page boundary (not for XIP with
# an MMU), page 3 plain; a compressed file.
xiptest touch /mnt/bin/tiny /mnt/data/compressed.txt > /tmp/strict.out 2>&1
check "strict: a file with unaligned plain pages and a compressed file map" \
	grep -q ' 0 could not be mapped' /tmp/strict.out
umount /mnt

# The XIP image: program text in place, data compressed: nothing to refuse.
check "strict mount of the NOR XIP image" mount -t cramfs -o strict mtd:fs_partition /mnt
xiptest touch /mnt/bin/busybox /mnt/data/xip-partial.bin > /tmp/strict.out 2>&1
check "strict: all of BusyBox and an XIP file map" grep -q ' 0 could not be mapped' /tmp/strict.out
check "strict: BusyBox runs from it" sh -c '[ "$(/mnt/bin/busybox echo here)" = here ]'
umount /mnt
check "nothing left mounted" sh -c '! grep -q " cramfs " /proc/mounts'
