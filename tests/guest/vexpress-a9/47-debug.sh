# SPDX-License-Identifier: GPL-2.0
# checks: 14
# A debugger on programs stored to run in place, and mappings that the
# kernel takes apart and puts back: a whole-file XIP program (xiptest from
# the XIP image) and a mixed one (xiptest-mixed: only the page of its
# breakpoint in place, the rest compressed; debug.img, made with a profile).
# The program started under ptrace maps its text from the page cache: ptrace
# reads return the file's bytes, a breakpoint written with PTRACE_POKETEXT
# stops it there and it runs on once the word is back, at the cost of one
# private page; another process runs the same text in place meanwhile.

mount -t cramfs mtd:fs_partition /mnt
mark
check "whole-file XIP program: peek, breakpoint, SIGTRAP, run on" \
	xiptest debug /mnt/bin/xiptest 40100000 42100000
check "... the program and its file unchanged after it" \
	xiptest cmp /mnt/bin/xiptest /images/xip-ref/bin/xiptest
check "... no kernel warning from the debugger's write" no_klog "WARNING"
# MADV_DONTNEED drops the page table entries; the pages come back from the
# image, in place where they were.
check "MADV_DONTNEED on BusyBox: its pages come back, those in flash (most) where they were" \
	sh -c "xiptest dontneed /mnt/bin/busybox | grep -q ', [1-9][0-9]* in flash'"
check "MADV_DONTNEED on an XIP data file (partial last page)" \
	xiptest dontneed /mnt/data/xip-partial.bin
check "MADV_DONTNEED on a compressed file" xiptest dontneed /mnt/data/compressed.txt
# After the debugging, the program runs in place as ever.
/mnt/bin/xiptest target 3 &
pid=$!
sleep 1
addr=$(grep ' r-xp .*/mnt/bin/xiptest$' /proc/$pid/maps | cut -d- -f1)
check "the text of a program started after the debugging is in flash" \
	sh -c "[ \"\$(xiptest phys $pid $addr)\" != none ] && [ \$((0x\$(xiptest phys $pid $addr))) -ge \$((0x40100000)) ]"
wait $pid
umount /mnt

PSRAM=$(mtdnum 48000000.psram)
cat /images/debug.img > /dev/mtd$PSRAM
check "mount the image with the mixed program (psram)" mount -t cramfs mtd$PSRAM /mnt
/mnt/bin/xiptest-mixed target 2 &
pid=$!
sleep 1
start=$(grep ' r-xp .*/mnt/bin/xiptest-mixed$' /proc/$pid/maps | cut -d- -f1)
page=$(cat /images/debug.page)
inplace=$(xiptest phys $pid "$(printf %x $((0x$start + page * 4096)))")
other=$(xiptest phys $pid "$start")
wait $pid
check "the mixed program's page $page is in place ($inplace), its page 0 not ($other)" \
	sh -c "[ \$((0x$inplace)) -ge \$((0x48000000)) ] && [ \$((0x$inplace)) -lt \$((0x4a000000)) ] &&
	       { [ $other = none ] || [ \$((0x$other)) -ge \$((0x60000000)) ]; }"
mark
check "mixed program: peek, breakpoint, SIGTRAP, run on" \
	xiptest debug /mnt/bin/xiptest-mixed 48000000 4a000000
check "... its file unchanged after it" \
	sh -c 'cmp /mnt/bin/xiptest-mixed /bin/xiptest && xiptest cmp /mnt/bin/xiptest-mixed /bin/xiptest'
check "... no kernel warning from the debugger's write" no_klog "WARNING"
check "... the psram still holds the image as written" sh -c \
	"dd if=/dev/mtd$PSRAM bs=4096 count=$(($(stat -c %s /images/debug.img) / 4096)) 2>/dev/null | cmp - /images/debug.img"
check "unmount" umount /mnt
