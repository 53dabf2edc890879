# SPDX-License-Identifier: GPL-2.0
# checks: 49
# Execute in place: BusyBox runs from NOR flash with its text mapped from flash,
# mappings read what read() reads, private writes stay private.

FLASH_BASE=$((0x40100000))	# fs_partition in physical memory
# Physical address of block 0 of FILE, from the host's cramfsck --layout.
xip_phys() {
	off=$(sed -n "s|^  $1 block 0: xip at \([0-9]*\),.*|\1|p" /images/xip.layout)
	[ -n "$off" ] && printf '%08x' $((FLASH_BASE + off))
}

xip_suite() {	# xip_suite LABEL: the checks both modules must pass
	L=$1
	check "$L: mount the XIP image from mtd:fs_partition" mount -t cramfs mtd:fs_partition /mnt
	check "$L: BusyBox from flash runs echo" sh -c '[ "$(/mnt/bin/busybox echo in place)" = "in place" ]'
	check "$L: BusyBox from flash runs md5sum" \
		sh -c '[ "$(/mnt/bin/busybox md5sum /mnt/data/compressed.txt | cut -c1-32)" = "$(md5sum /images/xip-ref/data/compressed.txt | cut -c1-32)" ]'
	check "$L: BusyBox from flash runs sh, ls and wc" \
		sh -c '[ "$(/mnt/bin/busybox sh -c "/mnt/bin/busybox ls /mnt/data | /mnt/bin/busybox wc -l")" = 3 ]'
	/mnt/bin/busybox sleep 60 &
	pid=$!
	sleep 1
	want=$(xip_phys /bin/busybox)
	text=$(grep ' r-xp ' /proc/$pid/maps | grep /mnt/bin/busybox)
	# Mainline maps it whole with remap_pfn_range(), which pagemap does not
	# show: its offset column is the physical address there.
	if [ "$L" = cramfs_xip ]; then
		got=$(xiptest phys $pid "${text%%-*}")
	else
		got=$(echo "$text" | awk '{ print $3 }')
	fi
	check "$L: BusyBox text is mapped from flash (its first page at $want): $got" \
		[ "$got" = "$want" ]
	check "$L: unmount is refused while BusyBox runs from the image" sh -c '! umount /mnt'
	kill $pid
	wait $pid 2>/dev/null
	for f in bin/busybox bin/xiptest data/xip-partial.bin data/compressed.txt; do
		check "$L: $f: mmap() and read() match the host copy" \
			xiptest cmp /mnt/$f /images/xip-ref/$f
	done
	check "$L: private writable mapping of an XIP file copies on write" \
		xiptest cow /mnt/data/xip-partial.bin
	check "$L: private writable mapping of BusyBox copies on write" xiptest cow /mnt/bin/busybox
	check "$L: XIP mapping survives fork" xiptest fork /mnt/data/xip-partial.bin
	check "$L: XIP mapping moved by mremap" xiptest mremap /mnt/data/xip-partial.bin
	check "$L: shared writable mapping is refused" xiptest sharedwrite /mnt/data/xip-partial.bin
	check "$L: unmount" umount /mnt
}

xip_suite "cramfs_xip"

check "cramfs_xip: a file of whole XIP pages: mmap() and read() match" sh -c \
	'mount -t cramfs mtd:fs_partition /mnt && xiptest cmp /mnt/data/xip-exact.bin /images/xip-ref/data/xip-exact.bin'
# The mapping model: BusyBox read() first, so that the page cache holds a
# copy of every page, then mapped: the pages the image stores in place map
# the flash, never those copies; the others come from the page cache with
# fault-around (one fault serves its neighbours); smaps shows the flags of
# a mixed mapping and nothing a whole-run helper would leave behind.
xiptest pages /mnt/bin/busybox > /tmp/pages.out
awk '$1 == "/bin/busybox" && $2 == "block" { sub(":", "", $3); print "page " $3 " " ($4 == "xip" ? "flash" : "ram") }' \
	/images/xip.layout > /tmp/pages.want
check "cramfs_xip: BusyBox read() then mapped: each page in place maps the flash, the rest RAM" \
	sh -c 'grep "^page " /tmp/pages.out | cmp - /tmp/pages.want'
set -- $(sed -n 's/^faults ram \([0-9]*\) of \([0-9]*\) pages$/\1 \2/p' /tmp/pages.out)
check "cramfs_xip: fault-around over its page-cache pages: ${1:-?} faults for ${2:-?} pages" \
	test -n "${2:-}" -a "${1:-99}" -le $((${2:-0} / 2))
flags=$(sed -n 's/^VmFlags: //p' /tmp/pages.out)
check "cramfs_xip: its VmFlags ($flags) have mm (mixed) and io, no pf, de or dd" sh -c \
	"echo ' $flags ' | grep -q ' mm ' && echo ' $flags ' | grep -q ' io ' && ! echo ' $flags ' | grep -qE ' (pf|de|dd) '"
xiptest grow /mnt/data/xip-partial.bin 1 > /tmp/grow.out 2>&1
check "cramfs_xip: a mapping grown by mremap() maps the new pages in place" \
	sh -c '[ "$(grep -c "^page [0-9]* flash" /tmp/grow.out)" = 4 ] || { cat /tmp/grow.out; false; }'
check "cramfs_xip: fork, then the child writes every page of BusyBox: the parent's stay in place" \
	xiptest forkwrite /mnt/bin/busybox
xiptest maps /mnt/data/xip-partial.bin > /tmp/maps.out
check "cramfs_xip: an XIP data file's mapping holds no RAM (smaps Rss 0 kB)" \
	grep -q '^Rss: *0 kB' /tmp/maps.out
check "cramfs_xip: its first page is the file's in flash (pagemap)" \
	grep -q "^phys $(xip_phys /data/xip-partial.bin)\$" /tmp/maps.out
cp /mnt/data/xip-partial.bin /mnt/data/compressed.txt /tmp/
check "cramfs_xip: mmap() of 1 GiB of a 4-page XIP file costs what it costs on tmpfs" \
	xiptest bigmap /mnt/data/xip-partial.bin /tmp/xip-partial.bin
check "cramfs_xip: ... and of a compressed file" \
	xiptest bigmap /mnt/data/compressed.txt /tmp/compressed.txt
rm -f /tmp/xip-partial.bin /tmp/compressed.txt

# Page cache used by 16 BusyBox processes: XIP text needs none of it.
sync
echo 3 > /proc/sys/vm/drop_caches
before=$(meminfo_kb Cached)
i=0
pids=
while [ $i -lt 16 ]; do
	/mnt/bin/busybox sleep 30 &
	pids="$pids $!"
	i=$((i + 1))
done
sleep 2
after=$(meminfo_kb Cached)
kill $pids
wait $pids 2>/dev/null
check "cramfs_xip: 16 BusyBox processes from flash add $((after - before)) kB of page cache (< 64 kB)" \
	test $((after - before)) -lt 64
check "cramfs_xip: unmount once the processes are gone" umount /mnt

# Lazy unmount while a program runs from the image: it keeps running.
check "mount for the lazy unmount test" mount -t cramfs mtd:fs_partition /mnt
/mnt/bin/busybox sleep 3 &
pid=$!
sleep 1
check "lazy unmount while BusyBox runs from the image" umount -l /mnt
check "the program keeps running from the detached image" kill -0 $pid
wait $pid
check "the image mounts again afterwards" mount -t cramfs mtd:fs_partition /mnt
umount /mnt

# The same checks through mainline cramfs, where it supports them.
rmmod cramfs_xip
insmod /lib/modules/cramfs.ko
xip_suite "mainline cramfs"
rmmod cramfs
check "cramfs_xip loads again" insmod /lib/modules/cramfs_xip.ko
