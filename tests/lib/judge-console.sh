#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn a guest console log into PASS/FAIL lines: one per RESULT line the
# guest printed, one for the guest finishing at all, one per declared count
# of checks, and one for a kernel log free of any kernel report (a test can
# pass while the kernel warns).
#   judge-console.sh CONSOLE_LOG SUITE [EXPECT...]
# Each EXPECT is a guest test script, which declares "# checks: N" (at least
# N RESULT lines in its "=== /tests/NAME" section of the log), or total=N (at
# least N RESULT lines in the whole log). A script that died early or never
# ran fails its count.
set -u
console=$1
suite=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
log=$(tr -d '\r' < "$console")
printf '%s\n' "$log" |
	awk -v suite="$suite" '/^RESULT (PASS|FAIL|SKIP) / { print $2 ": " suite ": " substr($0, length($2) + 9) }'
if printf '%s\n' "$log" | grep -q '^GUEST-DONE'; then
	echo "PASS: $suite: guest ran every test and finished"
else
	echo "FAIL: $suite: guest did not finish (hang, crash or timeout): see $console"
fi

for e in "$@"; do
	case $e in
	total=*)
		want=${e#total=}
		name="the whole boot"
		got=$(printf '%s\n' "$log" | grep -c '^RESULT ')
		;;
	*)
		want=$(sed -n 's/^# checks: //p' "$e" | head -n 1)
		name=$(basename "$e")
		got=$(printf '%s\n' "$log" | awk -v s="=== /tests/$name" '
			$0 == s || index($0, s " ") == 1 { on = 1; seen = 1; next }
			/^=== |^GUEST-DONE/ { on = 0 }
			on && /^RESULT / { n++ }
			END { print seen ? n + 0 : "none" }')
		;;
	esac
	if ! [[ $want =~ ^[0-9]+$ ]]; then
		echo "FAIL: $suite: $name declares no '# checks: N' (found '${want}')"
	elif [ "$got" = none ]; then
		echo "FAIL: $suite: $name never ran ($want checks declared): see $console"
	elif [ "$got" -ge "$want" ] 2>/dev/null; then
		echo "PASS: $suite: $name ran its checks ($got of at least $want)"
	else
		echo "FAIL: $suite: $name ran $got of its $want checks: see $console"
	fi
done

# What counts as a kernel report is defined once, beside the guest helpers.
bad=$(sed -n "s/^kernel_reports='\(.*\)'\$/\1/p" "$here/../guest/lib.sh")
[ -n "$bad" ] || { echo "FAIL: $suite: no kernel_reports pattern in tests/guest/lib.sh"; exit 0; }
# The tests' own lines (results, their details, section marks) are not the
# kernel's; the guest's copy of every report in its kernel log, printed just
# before GUEST-DONE ("KLOG "), is (a report printed onto a test's line on the
# console is found there). After GUEST-DONE the reports of the restart path
# are not ours: a hung "reboot" task (QEMU's CFI flash after a field update),
# or, under lockdep, vexpress_restart() taking a mutex in an atomic notifier.
# What follows the hung task or the kernel's "Restarting system" is excused
# only when all of it is that: a restart backtrace is there, nothing names
# cramfs, every report it starts is one of those known ones (the lines
# inside a report, such as its backtrace, are not starts), and every task it
# names is reboot.
restart_known='INFO: task reboot:[0-9]+ blocked for more than|WARNING: suspicious RCU usage|BUG: Invalid wait context|BUG: sleeping function called from invalid context'
report_inside='Call trace|Backtrace:|Hardware name:|hung_task'
kernel_lines() {
	printf '%s\n' "$log" | grep -nvE '^(RESULT |    \| |=== )' |
		awk -v bad="$bad" -v known="$restart_known" -v inside="$report_inside" '
		     /^[0-9]+:GUEST-DONE/ { done = 1 }
		     !done { print; next }
		     { tail[++n] = $0 }
		     /INFO: task reboot:[0-9]+ blocked for more than|reboot: Restarting system/ &&
			!cut { cut = n }
		     !cut { next }
		     /kernel_restart|machine_restart/ { restart = 1 }
		     /cramfs/ { ours = 1 }
		     $0 ~ bad && $0 !~ inside && $0 !~ known { other = 1 }
		     /(Comm: |, name: )/ && !/(Comm: |, name: )reboot/ { other = 1 }
		     END { last = (cut && restart && !ours && !other) ? cut - 1 : n
			   for (i = 1; i <= last; i++) print tail[i] }'
}
if kernel_lines | grep -Eq "$bad"; then
	echo "FAIL: $suite: kernel log has a kernel report (oops, BUG, warning, hang, sanitizer): see $console"
	kernel_lines | grep -E "$bad" | head -n 5 | sed 's/^/    | /'
else
	echo "PASS: $suite: kernel log has no oops, BUG, warning or other kernel report"
fi
