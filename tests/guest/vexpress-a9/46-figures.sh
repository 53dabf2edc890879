# SPDX-License-Identifier: GPL-2.0
# checks: 27
# The figures of a mount in /sys/fs/cramfs_xip/<source>/: pages read into
# the page cache against /proc/meminfo's Cached, pages in place in live
# mappings (each mapping, and each image page once: the RAM saved) as
# processes come and go, and every mmap not served in place by its reason.

D=/sys/fs/cramfs_xip/mtd:fs_partition
fig() { cat "$D/$1"; }
# The XIP image's BusyBox pages stored in place (page-aligned plain), from the host.
inplace=$(awk '$1 == "/bin/busybox" && $4 == "xip" { sub(/,$/, "", $6); if ($6 % 4096 == 0) n++ }
	END { print n + 0 }' /images/xip.layout)

mount -t cramfs mtd:fs_partition /mnt
check "every figure is one number" sh -c "for f in $D/* $D/not_in_place/*; do
	[ -d \$f ] || [ \$f = $D/xip_profile ] || grep -qx '[0-9][0-9]*' \$f || { echo \$f; exit 1; }; done"
check "a fresh mount has nothing in place" \
	test "$(fig xip_pages_whole) $(fig xip_pages_mixed) $(fig xip_saved_kb)" = "0 0 0"

# Reading: pages inflated and copied into the page cache, and Cached with them.
sync
echo 3 > /proc/sys/vm/drop_caches
d0=$(fig pages_decompressed)
c0=$(meminfo_kb Cached)
cat /mnt/data/compressed.txt > /dev/null
d=$(($(fig pages_decompressed) - d0))
c=$(($(meminfo_kb Cached) - c0))
want=$((($(stat -c %s /mnt/data/compressed.txt) + 4095) / 4096))
check "reading a compressed file: pages_decompressed +$d, its $want pages" test $d = $want
# (Cached moves by a few pages on its own after drop_caches.)
check "... and Cached grew by them ($c kB for $((d * 4)) kB, give or take 16)" \
	test $c -ge $((d * 4 - 16)) -a $c -le $((d * 4 + 16))
p0=$(fig pages_copied)
cat /mnt/data/xip-partial.bin > /dev/null
check "reading a plain file: pages_copied +4" test $(($(fig pages_copied) - p0)) = 4

# Four processes running BusyBox in place: each mapping counts, the RAM
# saved counts each image page once, and the page cache holds none of it.
sync
echo 3 > /proc/sys/vm/drop_caches
m0=$(fig mmaps_in_place)
c0=$(meminfo_kb Cached)
pids=
for i in 1 2 3 4; do
	/mnt/bin/busybox sleep 60 &
	pids="$pids $!"
done
sleep 1
set -- $pids
text=$(awk '$2 ~ /x/ && $6 == "/mnt/bin/busybox" { split($1, a, "-"); print (("0x" a[2]) - ("0x" a[1])) / 4096 }' /proc/$1/maps)
whole=$(fig xip_pages_whole)
saved=$(fig xip_saved_kb)
c=$(($(meminfo_kb Cached) - c0))
check "4 BusyBox processes: xip_pages_whole $whole, 4 x its $text text pages" test "$whole" = $((4 * text))
check "... xip_saved_kb $saved, its text once ($((text * 4)) kB)" test "$saved" = $((text * 4))
check "... mmaps_in_place +$(($(fig mmaps_in_place) - m0)), at least 4" \
	test $(($(fig mmaps_in_place) - m0)) -ge 4
check "... Cached grew by $c kB, a fraction of the $saved kB saved" \
	test $c -ge 0 -a $((c * 4)) -lt "$saved"
kill $pids
wait $pids 2> /dev/null
check "they exit: nothing in place" \
	test "$(fig xip_pages_whole) $(fig xip_pages_mixed) $(fig xip_saved_kb)" = "0 0 0"

# A mixed mapping (BusyBox whole: text in place, data compressed).
x0=$(fig mmaps_mixed)
z0=$(fig not_in_place/compressed)
xiptest hold /mnt/bin/busybox 3 > /tmp/hold.out 2>&1 &
hold=$!
sleep 1
check "a mapping of all of BusyBox: xip_pages_mixed $(fig xip_pages_mixed), its $inplace pages in place" \
	test "$(fig xip_pages_mixed)" = "$inplace"
check "... mmaps_mixed +1" test $(($(fig mmaps_mixed) - x0)) = 1
check "... not_in_place/compressed +1 (its data)" test $(($(fig not_in_place/compressed) - z0)) = 1
wait $hold
check "... it ends: nothing in place" test "$(fig xip_pages_mixed) $(fig xip_saved_kb)" = "0 0"

# A mapping half unmapped (as the ELF loader and ld.so do), then forked:
# what is still mapped counts, in each process, and the RAM saved once.
xiptest split /mnt/data/xip-partial.bin 3 > /tmp/split.out 2>&1 &
split=$!
sleep 1
check "half of a 4-page mapping unmapped, then forked: xip_pages_whole $(fig xip_pages_whole), 2 pages in 2 processes" \
	test "$(fig xip_pages_whole)" = 4
check "... xip_saved_kb $(fig xip_saved_kb), those 2 pages once" test "$(fig xip_saved_kb)" = 8
wait $split
check "... both exit: nothing in place" \
	test "$(fig xip_pages_whole) $(fig xip_pages_mixed) $(fig xip_saved_kb)" = "0 0 0"

# Copies of mappings (fork, mremap) are given back with them.
xiptest fork /mnt/data/xip-partial.bin > /dev/null 2>&1
xiptest mremap /mnt/data/xip-partial.bin > /dev/null 2>&1
xiptest cow /mnt/bin/busybox > /dev/null 2>&1
check "after fork, mremap and copy-on-write: nothing left in place" \
	test "$(fig xip_pages_whole) $(fig xip_pages_mixed) $(fig xip_saved_kb)" = "0 0 0"

# Each reason.
why() { cat "$D/not_in_place/$1"; }
z0=$(why compressed)
n0=$(fig mmaps_page_cache)
xiptest maps /mnt/data/compressed.txt > /dev/null 2>&1
check "a compressed file: not_in_place/compressed +1" test $(($(why compressed) - z0)) = 1
check "... mmaps_page_cache +1" test $(($(fig mmaps_page_cache) - n0)) = 1
r0=$(why recording)
echo 1 > /sys/module/cramfs_xip/parameters/xip_profile
/mnt/bin/busybox true
echo 0 > /sys/module/cramfs_xip/parameters/xip_profile
check "while the XIP profile records: not_in_place/recording +$(($(why recording) - r0))" \
	test $(($(why recording) - r0)) -ge 1
umount /mnt

losetup -r /dev/loop0 /images/xip.img
mount -t cramfs /dev/loop0 /mnt
xiptest maps /mnt/data/xip-partial.bin > /dev/null 2>&1
check "a loop device: /sys/fs/cramfs_xip/loop0/not_in_place/medium is 1" \
	grep -qx 1 /sys/fs/cramfs_xip/loop0/not_in_place/medium
umount /mnt
losetup -d /dev/loop0

PSRAM=$(mtdnum 48000000.psram)
P=/sys/fs/cramfs_xip/mtd:48000000.psram
cat /images/crafted/tail-not-zero.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
xiptest touch /mnt/data/xip-partial.bin > /dev/null 2>&1
check "a last page not zero past its tail: not_in_place/tail_not_zero is 1" \
	grep -qx 1 $P/not_in_place/tail_not_zero
xiptest hold /mnt/data/xip-partial.bin 3 > /dev/null 2>&1 &
hold=$!
sleep 1
check "... its other 3 pages in place in a live mapping: xip_pages_mixed $(cat $P/xip_pages_mixed)" \
	grep -qx 3 $P/xip_pages_mixed
wait $hold
check "... and none once it is gone" grep -qx 0 $P/xip_pages_mixed
umount /mnt
cat /images/smallxip.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
xiptest touch /mnt/bin/tiny > /dev/null 2>&1
check "a plain page off a page boundary: not_in_place/unaligned is 1" \
	grep -qx 1 $P/not_in_place/unaligned
umount /mnt
check "the directories go with their mounts" sh -c '[ -z "$(ls /sys/fs/cramfs_xip)" ]'
