# SPDX-License-Identifier: GPL-2.0
# checks: 21
# Flash that fails, under the mtd_read medium: faultmtd (tests/guest/faultmtd/)
# holds the XIP image and makes chosen reads fail. Corrected bit flips
# (-EUCLEAN) read right; uncorrectable pages (-EBADMSG, their data garbage)
# and read errors (-EIO) give the reader EIO, rate-limited messages and
# never wrong data, and leave nothing half done: once the fault clears the
# same pages read right. A bad erase block where the image lies reads as
# uncorrectable: mtd_read() does not skip bad blocks (Documentation/user-guide.md:
# put cramfs on NAND through UBI and ubiblock).
insmod /lib/modules/faultmtd.ko
F=$(mtdnum faultmtd)
P=/sys/module/faultmtd/parameters
R=/images/xip-ref/data
cat /images/xip.img > /dev/mtd$F
# Where a block of a file lies in the image (cramfsck --layout, on the host).
at() { awk -v f="$1" -v b="$2:" '$1 == f && $3 == b { sub(/,$/, "", $6); print $6 }' /images/xip.layout; }
fault() {	# fault FROM LEN ERRNO TIMES
	echo "$1" > $P/fail_from
	echo "$2" > $P/fail_len
	echo "$4" > $P/fail_times
	echo "$3" > $P/fail_errno
}
clear_fault() { echo 0 > $P/fail_errno; }
cold() { echo 3 > /proc/sys/vm/drop_caches; }
# fails_right FILE: reading FILE fails with EIO, and gives only bytes of the host's copy.
fails_right() {
	! cat "/mnt/data/$1" > /tmp/out 2> /tmp/err && grep -q 'Input/output error' /tmp/err &&
		head -c "$(stat -c %s /tmp/out)" "$R/$1" | cmp -s - /tmp/out
}
# right_or_eio FILE: reading FILE once gives the host's copy, or EIO after a prefix of it.
right_or_eio() {
	cat "/mnt/data/$1" > /tmp/out 2> /tmp/err && cmp -s /tmp/out "$R/$1" && return
	grep -q 'Input/output error' /tmp/err && head -c "$(stat -c %s /tmp/out)" "$R/$1" | cmp -s - /tmp/out
}
Z=$(at /data/compressed.txt 1)
X=$(at /data/xip-partial.bin 1)

check "faultmtd (no point): the image mounts, read with mtd_read" mount -t cramfs mtd$F /mnt
check "... without execute-in-place: the MTD driver cannot map its flash" \
	sh -c "dmesg | grep -q '(mtd:faultmtd): mounted .* without execute-in-place: the MTD driver cannot map its flash'"

cold
fault "$Z" 1 117 -1
check "corrected bit flips (EUCLEAN) in a compressed block: the file reads right" \
	cmp /mnt/data/compressed.txt $R/compressed.txt
fault "$X" 1 117 -1
check "... in a plain block: the file reads right" cmp /mnt/data/xip-partial.bin $R/xip-partial.bin
clear_fault

cold
mark
fault "$Z" 1 74 -1
check "an uncorrectable page (EBADMSG) in a compressed block: EIO, and no wrong byte" \
	fails_right compressed.txt
check "... the kernel says which read failed" klog_has "(mtd:faultmtd): mtd_read of [0-9]* bytes at [0-9]*: error -74"
t0=$(cut -d. -f1 /proc/uptime)
i=0
while [ $i -lt 12 ]; do
	cat /mnt/data/compressed.txt > /dev/null 2>&1
	i=$((i + 1))
done
n=$(klog_since_mark | grep -c 'mtd_read of')
# The default rate limit: a burst of 10 lines per 5 seconds.
max=$((10 * (($(cut -d. -f1 /proc/uptime) - t0) / 5 + 1)))
check "... read 12 times more: $n messages, rate limited (at most $max)" test "$n" -le "$max"
fault "$X" 1 74 -1
check "... in a plain block: EIO, and no wrong byte" fails_right xip-partial.bin
clear_fault
check "the fault cleared: the compressed file reads right" cmp /mnt/data/compressed.txt $R/compressed.txt
check "... and the plain one" cmp /mnt/data/xip-partial.bin $R/xip-partial.bin

# A read error once: whether the reader sees it depends on the kernel (the
# page cache reads a failed page again when the reader reaches it; the error
# may come at a readahead's read or at that one), so: the right bytes, or EIO
# after a right prefix; and the fault was met; and then the right bytes.
cold
fault "$Z" 1 5 1
check "a read error (EIO) once: the reader gets EIO or the right bytes, no wrong byte" \
	right_or_eio compressed.txt
check "... the flash's read did fail" test "$(cat $P/fail_times)" = 0
check "... the next read of the same pages is right" cmp /mnt/data/compressed.txt $R/compressed.txt
# A read error that lasts: the reader gets EIO; once it clears, right bytes.
cold
fault "$Z" 1 5 -1
check "a read error (EIO) that lasts: the read fails, and no wrong byte" fails_right compressed.txt
clear_fault
check "... the next read of the same pages is right" cmp /mnt/data/compressed.txt $R/compressed.txt
umount /mnt

# At mount: the superblock's read fails.
fault 0 1 5 -1
refuse "a read error on the superblock: the mount fails" "mtd_read of 76 bytes at 0: error -5" \
	mount -t cramfs mtd$F /mnt
fault 0 1 74 -1
refuse "... an uncorrectable superblock: the mount fails" "mtd_read of 76 bytes at 0: error -74" \
	mount -t cramfs mtd$F /mnt
clear_fault
check "... cleared, it mounts" mount -t cramfs mtd$F /mnt

# A bad erase block (16 KiB) under the compressed file: its pages there read
# as uncorrectable, the others right.
echo $((Z / 16384)) > $P/bad_block
cold
check "a bad block under a file: EIO, and no wrong byte" fails_right compressed.txt
check "... a file elsewhere reads right" cmp /mnt/data/xip-exact.bin $R/xip-exact.bin
echo -1 > $P/bad_block
check "... the block good again: the file reads right" cmp /mnt/data/compressed.txt $R/compressed.txt
umount /mnt
rmmod faultmtd
