# SPDX-License-Identifier: GPL-2.0
# checks: 18
# One crafted image per hole mainline cramfs 6.1 has: ours must refuse or fail
# the read with a message, never hand out memory outside the image.
PSRAM=$(mtdnum 48000000.psram)
load() { cat /images/crafted/$1.img > /dev/mtd$PSRAM; }

load direct-to-ram
check "direct pointer at RAM: image mounts (the pointer is only met on read)" \
	mount -t cramfs mtd$PSRAM /mnt
mark
check "direct pointer at RAM: read() fails instead of returning RAM" \
	sh -c '! cat /mnt/data/xip-partial.bin > /dev/null 2>&1'
check "direct pointer at RAM: the kernel names the bad pointer" \
	klog_has "bad block pointer"
xiptest touch /mnt/data/xip-partial.bin > /tmp/touch.out
check "direct pointer at RAM: page 0 (the bad pointer) faults, the others map: $(head -n 1 /tmp/touch.out)" \
	grep -qx '/mnt/data/xip-partial.bin: faults at: 0' /tmp/touch.out
check "direct pointer at RAM: the file's other pages still read" \
	sh -c 'dd if=/mnt/data/xip-partial.bin bs=4096 skip=1 count=2 2>/dev/null | cmp -s - /tmp/ref-tail || { dd if=/images/xip-ref/data/xip-partial.bin bs=4096 skip=1 count=2 2>/dev/null > /tmp/ref-tail; dd if=/mnt/data/xip-partial.bin bs=4096 skip=1 count=2 2>/dev/null | cmp -s - /tmp/ref-tail; }'
umount /mnt

load direct-past-end
check "direct pointer past the image end: image mounts (the pointer is only met on read)" \
	mount -t cramfs mtd$PSRAM /mnt
check "direct pointer past the image end: read() fails" \
	sh -c '! cat /mnt/data/xip-partial.bin > /dev/null 2>&1'
xiptest touch /mnt/data/xip-partial.bin > /tmp/touch.out
check "direct pointer past the image end: page 1 (the bad pointer) faults: $(head -n 1 /tmp/touch.out)" \
	grep -q '^/mnt/data/xip-partial.bin: faults at: \(.* \)\?1\( \|$\)' /tmp/touch.out
umount /mnt

# The image ends one page into xip-partial.bin, whose pages lie one after
# the other in flash: the run mapped in place must stop at the image's end.
load run-past-end
check "image ending inside a run of direct pages: mounts" mount -t cramfs mtd$PSRAM /mnt
xiptest touch /mnt/data/xip-partial.bin > /tmp/touch.out
check "image ending inside a run of direct pages: pages 1-3, past its end, fault: $(head -n 1 /tmp/touch.out)" \
	grep -qx '/mnt/data/xip-partial.bin: faults at: 1 2 3' /tmp/touch.out
umount /mnt

load size-zero
refuse "superblock size 0 is refused at mount" "bad image size 0" \
	mount -t cramfs mtd$PSRAM /mnt

load bad-zlib
mount -t cramfs mtd$PSRAM /mnt
mark
t0=$(cut -d. -f1 /proc/uptime)
i=0
while [ $i -lt 50 ]; do
	cat /mnt/data/compressed.txt > /dev/null 2>&1
	echo 3 > /proc/sys/vm/drop_caches
	i=$((i + 1))
done
n=$(klog_since_mark | grep -c 'zlib error')
# The default rate limit: a burst of 10 lines per 5 seconds (mainline: 2 per read).
secs=$(($(cut -d. -f1 /proc/uptime) - t0))
max=$((10 * (secs / 5 + 1)))
check "broken zlib block read 50 times in ${secs}s: $n log lines (rate limited: <= $max)" \
	test "$n" -ge 1 -a "$n" -le "$max" -a "$n" -lt 50
check "broken zlib block: read() fails with an error" \
	sh -c '! cat /mnt/data/compressed.txt > /dev/null 2>&1'
umount /mnt

load dir-loop
mount -t cramfs mtd$PSRAM /mnt
mark
check "directory pointing back at the root: lookup fails, no loop" \
	sh -c '! ls /mnt/data/data/data > /dev/null 2>&1'
check "directory loop: the kernel says why" \
	klog_has "outside the image or before it"
umount /mnt

# readdir gives what it read before a bad entry, then the error; a listing
# that brought the good entry back each time would never end.
load dir-bad-entry
mount -t cramfs mtd$PSRAM /mnt
mark
timeout 30 ls -1 /mnt/data > /tmp/ls.out 2>&1
rc=$?
check "directory with a bad second entry: ls ends (status $rc, not killed)" test $rc -lt 128
check "... after listing the good entry once" test "$(grep -c '^compressed.txt$' /tmp/ls.out)" = 1
check "... and the kernel names the bad entry" klog_has "bad entry at position 28"
umount /mnt
