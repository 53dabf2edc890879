#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn a guest console log into PASS/FAIL lines: one per RESULT line the
# guest printed, one for the guest finishing at all, and one for a kernel log
# free of oopses, BUGs and warnings (a test can pass while the kernel warns).
#   judge-console.sh CONSOLE_LOG SUITE
set -u
console=$1
suite=$2
tr -d '\r' < "$console" |
	awk -v suite="$suite" '/^RESULT (PASS|FAIL|SKIP) / { print $2 ": " suite ": " substr($0, length($2) + 9) }'
if grep -q '^GUEST-DONE' "$console"; then
	echo "PASS: $suite: guest ran every test and finished"
else
	echo "FAIL: $suite: guest did not finish (hang, crash or timeout): see $console"
fi
bad='Oops|BUG:|WARNING:|Kernel panic|Unable to handle|Internal error|Call trace|hung_task|blocked for more than|UBSAN|KASAN|kmemleak: .*suspected'
# The tests' own lines (results, their details, section marks) are not the kernel's.
# What the kernel says after GUEST-DONE is the restart path (QEMU's CFI flash
# after a field update), not the tests'.
kernel_lines() { tr -d '\r' < "$console" | sed '/^GUEST-DONE/q' | grep -nvE '^(RESULT |    \| |=== )'; }
if kernel_lines | grep -Eq "$bad"; then
	echo "FAIL: $suite: kernel log has an oops/BUG/warning: see $console"
	kernel_lines | grep -E "$bad" | head -n 5 | sed 's/^/    | /'
else
	echo "PASS: $suite: kernel log has no oops, BUG or warning"
fi
