# SPDX-License-Identifier: GPL-2.0
# checks: 29
# The figures of a mount, the file /sys/fs/cramfs_xip/<source>: pages read into
# the page cache against /proc/meminfo's Cached, and every mmap by how it was
# served and, not in place, why. What is in place now is worked out in user
# space by xip-in-place.sh (/proc/PID/maps and FIEMAP), as processes come and
# go: the module walks nothing for it.

D=/sys/fs/cramfs_xip/mtd:fs_partition
fig() { sed -n "s/^$1 //p" "$D"; }
inplace() { xip-in-place.sh /mnt | sed -n "s/^$1 //p"; }
# snap, then got FIGURE: the figures of one xip-in-place.sh run, for checks
# on processes that hold their mappings a while (the debug kernel is slow).
snap() { xip-in-place.sh /mnt > /tmp/inplace; }
# ready FILE WORD: wait (30 s at most) until xiptest's output FILE starts a line with WORD.
ready() {
	_i=0
	while ! grep -q "^$2" "$1" 2> /dev/null && [ $_i -lt 150 ]; do
		sleep 0.2
		_i=$((_i + 1))
	done
}
got() { sed -n "s/^$1 //p" /tmp/inplace; }
# The XIP image's BusyBox pages stored in place (page-aligned plain), from the host.
stored=$(awk '$1 == "/bin/busybox" && $4 == "xip" { sub(/,$/, "", $6); if ($6 % 4096 == 0) n++ }
	END { print n + 0 }' /images/xip.layout)

mount -t cramfs mtd:fs_partition /mnt
check "the figures file is root's alone (mode 400: the traced count tells of debugging)" \
	sh -c "[ \$(stat -c %a $D) = 400 ]"
check "the mount's stats: one file, 13 lines of 'name number'" sh -c \
	"[ -f $D ] && [ \$(grep -c '^[a-z_]* [0-9][0-9]*\$' $D) = 13 ] && [ \$(wc -l < $D) = 13 ]"
check "a fresh mount has nothing in place" test "$(inplace pages_in_place) $(inplace saved_kb)" = "0 0"

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
# Their text mappings (the data mapping's first page is the text's last).
pages=$(xip-in-place.sh /mnt | awk '$2 == "r-xp" { n += $4 } END { print n + 0 }')
saved=$(inplace saved_kb)
c=$(($(meminfo_kb Cached) - c0))
check "4 BusyBox processes: $pages pages in place, 4 x its $text text pages" test "$pages" = $((4 * text))
check "... saved_kb $saved, its text once ($((text * 4)) kB)" test "$saved" = $((text * 4))
data=$(xip-in-place.sh /mnt | awk '$2 == "rw-p" { n += $4 } END { print n + 0 }')
check "... their data mappings (writable: page cache) count none in place ($data)" test "$data" = 0
check "... mmaps_in_place +$(($(fig mmaps_in_place) - m0)), at least 4" \
	test $(($(fig mmaps_in_place) - m0)) -ge 4
check "... Cached grew by $c kB, a fraction of the $saved kB saved" \
	test $c -ge 0 -a $((c * 4)) -lt "$saved"
kill $pids
wait $pids 2> /dev/null
check "they exit: nothing in place" test "$(inplace pages_in_place) $(inplace saved_kb)" = "0 0"

# A mixed mapping (BusyBox whole: text in place, data compressed).
x0=$(fig mmaps_mixed)
z0=$(fig not_in_place_compressed)
xiptest hold /mnt/bin/busybox 15 > /tmp/hold.out 2>&1 &
hold=$!
ready /tmp/hold.out mapped
snap
check "a mapping of all of BusyBox: $(got pages_in_place) pages in place, its $stored stored so" \
	test "$(got pages_in_place)" = "$stored"
check "... mmaps_mixed +1" test $(($(fig mmaps_mixed) - x0)) = 1
check "... not_in_place_compressed +1 (its data)" test $(($(fig not_in_place_compressed) - z0)) = 1
kill $hold
wait $hold 2> /dev/null

# A mapping half unmapped (as the ELF loader and ld.so do), then forked:
# what is still mapped counts, in each process, and the RAM saved once.
xiptest split /mnt/data/xip-partial.bin 15 > /tmp/split.out 2>&1 &
split=$!
ready /tmp/split.out split:
snap
check "half of a 4-page mapping unmapped, then forked: $(got pages_in_place) pages in place, 2 pages in 2 processes" \
	test "$(got pages_in_place)" = 4
check "... saved_kb $(got saved_kb), those 2 pages once" test "$(got saved_kb)" = 8
# Both hold their mappings 15 s (time enough for the checks under load): stopped now.
kill $(pidof xiptest) 2> /dev/null
wait $split
check "... both exit: nothing in place" test "$(inplace pages_in_place) $(inplace saved_kb)" = "0 0"

# Each reason.
z0=$(fig not_in_place_compressed)
n0=$(fig mmaps_page_cache)
xiptest maps /mnt/data/compressed.txt > /dev/null 2>&1
check "a compressed file: not_in_place_compressed +1" test $(($(fig not_in_place_compressed) - z0)) = 1
check "... mmaps_page_cache +1" test $(($(fig mmaps_page_cache) - n0)) = 1
# A writable private mapping (a program's data) comes from the page cache,
# where a debugger and a core dump reach it; one made writable later copies
# from flash (xiptest cow does both, and maps read-only in a child).
w0=$(fig not_in_place_writable)
n0=$(fig mmaps_page_cache)
xiptest cow /mnt/data/xip-partial.bin > /dev/null 2>&1
check "a writable private mapping: not_in_place_writable +1" \
	test $(($(fig not_in_place_writable) - w0)) = 1
check "... mmaps_page_cache +1" test $(($(fig mmaps_page_cache) - n0)) = 1
umount /mnt

losetup -r /dev/loop0 /images/xip.img
mount -t cramfs /dev/loop0 /mnt
xiptest maps /mnt/data/xip-partial.bin > /dev/null 2>&1
check "a loop device: not_in_place_medium is 1" \
	grep -qx 'not_in_place_medium 1' /sys/fs/cramfs_xip/loop0
umount /mnt
losetup -d /dev/loop0

PSRAM=$(mtdnum 48000000.psram)
P=/sys/fs/cramfs_xip/mtd:48000000.psram
cat /images/crafted/tail-not-zero.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
xiptest touch /mnt/data/xip-partial.bin > /dev/null 2>&1
check "a last page not zero past its tail: not_in_place_tail_not_zero is 1" \
	grep -qx 'not_in_place_tail_not_zero 1' $P
check "... mmaps_mixed is 1 (its other 3 pages in place)" grep -qx 'mmaps_mixed 1' $P
umount /mnt
cat /images/smallxip.img > /dev/mtd$PSRAM
mount -t cramfs mtd$PSRAM /mnt
xiptest touch /mnt/bin/tiny > /dev/null 2>&1
check "a plain page off a page boundary: not_in_place_unaligned is 1" \
	grep -qx 'not_in_place_unaligned 1' $P
umount /mnt
check "the files go with their mounts" sh -c '[ -z "$(ls /sys/fs/cramfs_xip)" ]'
# Reading the figures while mounts come and go: no warning, no leak (the
# kmemleak suite runs this file under the debug kernel).
mark
mount -t cramfs mtd:fs_partition /mnt
( for i in 1 2 3 4 5 6 7 8 9 10; do cat $D > /dev/null 2>&1; done ) &
reader=$!
# A reader holding the file open across the unmount: an error after it.
exec 3< $D
umount /mnt
wait $reader
check "the stats file held open across the unmount: read fails after it" sh -c '! cat <&3'
exec 3<&-
check "reading the stats file while its mount goes: no kernel warning" no_klog "WARNING"
