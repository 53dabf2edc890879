# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest test scripts (BusyBox sh). Each check prints one
# "RESULT PASS|FAIL name" line; the host counts them.

# Every kind of report the kernel prints when something is wrong (the host's
# judge, tests/lib/judge-console.sh, reads this line too).
kernel_reports='Oops|BUG:|WARNING:|Kernel panic|Unable to handle|Internal error|Call trace|Backtrace:|Hardware name:|hung_task|blocked for more than|soft lockup|hard LOCKUP|rcu: INFO|stall on CPU|UBSAN|KASAN|kmemleak: .*suspected|general protection|refcount_t:|list_(add|del) corruption|Bad page|sleeping function called|possible (recursive|circular) locking|inconsistent lock state|stack-protector'

pass() { echo "RESULT PASS $*"; }
fail() { echo "RESULT FAIL $*"; }
skip() { echo "RESULT SKIP $*"; }

# check NAME CMD...: CMD must succeed.
check() {
	_name=$1
	shift
	if "$@" > /tmp/check.out 2>&1; then
		pass "$_name"
	else
		fail "$_name"
		sed 's/^/    | /' /tmp/check.out | head -n 30
	fi
}

# mark: a line in the kernel log; klog_since_mark prints what came after it.
_mark=0
mark() {
	_mark=$((_mark + 1))
	echo "cramfs-xip-test: mark $_mark" > /dev/kmsg
}
klog_since_mark() { dmesg | sed -n "/cramfs-xip-test: mark $_mark\$/,\$p"; }
klog_has() { klog_since_mark | grep -q -- "$1"; }
no_klog() { ! klog_has "$1"; }

# refuse NAME PATTERN CMD...: CMD must fail, and the kernel must say PATTERN.
refuse() {
	_name=$1
	_pat=$2
	shift 2
	[ -n "$_pat" ] || { fail "$_name: no kernel message given to look for"; return; }
	mark
	if "$@" > /tmp/check.out 2>&1; then
		fail "$_name: succeeded, should have been refused"
		return
	fi
	if klog_since_mark | grep -q -- "$_pat"; then
		pass "$_name"
	else
		fail "$_name: kernel log lacks '$_pat'"
		klog_since_mark | sed 's/^/    | /' | tail -n 10
	fi
}

# meminfo_kb FIELD: /proc/meminfo's FIELD in kB, up to date. An SMP kernel
# keeps each CPU's recent changes to a counter apart and adds them in every
# second (vm.stat_interval) or past a few pages, so a plain read can be off
# by a few pages; reading vm/stat_refresh adds them in now (a UP kernel has
# no such file: its counters are always exact). Shell builtins only: no
# program runs between the refresh and the read.
meminfo_kb() {
	[ ! -e /proc/sys/vm/stat_refresh ] || read -r _ < /proc/sys/vm/stat_refresh
	while read -r _k _v _u; do
		[ "$_k" != "$1:" ] || echo "$_v"
	done < /proc/meminfo
}

# mtdnum NAME: the number of the MTD device called NAME.
mtdnum() { grep -F "\"$1\"" /proc/mtd | cut -d: -f1 | sed 's/^mtd//'; }

# same_manifest EXPECTED DIR: DIR's manifest equals EXPECTED's (gids are 8 bits).
same_manifest() {
	/tests/manifest.sh "$2" 255 > /tmp/manifest.now && diff "$1" /tmp/manifest.now
}

# page_phys PID HEXADDR: the physical address (hex, 8 digits) that PID's page
# at HEXADDR maps, from /proc/PID/pagemap (root only), or "none". A page in
# place maps the flash itself; the offset column of /proc/PID/maps is the
# file offset, whatever serves the page.
page_phys() {
	_e=$(dd if=/proc/$1/pagemap bs=8 skip=$((0x$2 / 4096)) count=1 2> /dev/null |
		od -An -t x8 | tr -d ' ')
	if [ -z "$_e" ] || [ $((0x$_e >> 63 & 1)) = 0 ] || [ $((0x$_e & 0x7fffffffffffff)) = 0 ]; then
		echo none
	else
		printf '%08x\n' $(((0x$_e & 0x7fffffffffffff) * 4096))
	fi
}

# text_phys PID PROG: page_phys of the first page of PID's text mapping of
# PROG (its r-xp line in /proc/PID/maps), or "none".
text_phys() {
	_t=$(grep ' r-xp ' /proc/$1/maps | grep "$2")
	page_phys $1 "${_t%%-*}"
}

# A sibling partition of the chip a mount on /mnt holds (88-sibling-write.sh,
# zynq-cfi): sibling_start MTDNUM FILE starts an erase of its erase block 1
# and a flashcp of FILE (into block 0) in the background, and three checks
# 3 s later: both still wait, reads of it are served, BusyBox from /mnt runs.
# sibling_finish LABEL MTDNUM FILE, after the unmount: both finished, the
# bytes are FILE's and block 1 is erased (three checks).
sibling_start() {
	_eb=$(cat /sys/class/mtd/mtd$1/erasesize)
	flash_erase -q /dev/mtd$1 $_eb 1 > /tmp/erase.out 2>&1 &
	_eraser=$!
	flashcp "$2" /dev/mtd$1 > /tmp/write.out 2>&1 &
	_writer=$!
	sleep 3
	check "$L: 3 s later the erase and the write of the sibling still wait" \
		sh -c "kill -0 $_eraser && kill -0 $_writer"
	check "$L: meanwhile reads of the sibling are served" \
		timeout 10 dd if=/dev/mtd$1 of=/dev/null bs=4096 count=4
	check "$L: meanwhile BusyBox runs from the flash" \
		sh -c '[ "$(/mnt/bin/busybox echo still here)" = "still here" ]'
}
sibling_finish() {
	wait $_eraser
	_e=$?
	wait $_writer
	_w=$?
	check "$L: after the unmount the erase and the write finish (exit $_e and $_w)" test "$_e$_w" = 00
	check "$L: the sibling holds the written bytes" sh -c \
		"dd if=/dev/mtd$1 bs=$(stat -c %s "$2") count=1 2> /dev/null | cmp - '$2'"
	_n=$(dd if=/dev/mtd$1 bs=$_eb skip=1 count=1 2> /dev/null | od -An -tx1 -v |
		tr -s ' \n' '\n\n' | grep -cv -e '^ff$' -e '^$')
	check "$L: its erased block ($_eb bytes) reads all ones ($_n bytes not)" test "$_n" = 0
}
