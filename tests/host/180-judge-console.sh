#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The console judge (tests/lib/judge-console.sh) on made-up logs: a kernel
# report fails a suite wherever it lands, except the restart path's own
# after GUEST-DONE; a script that ran fewer checks than it declares fails.
# checks: 10
. "$(dirname "$0")/lib.sh"
d=$WORK/judge
mkdir -p "$d/tests"
printf '# checks: 2\n' > "$d/tests/10-x.sh"
judge() {	# judge LOG_TEXT: the judge's lines for it
	printf '%b' "$1" > "$d/console.log"
	bash "$TOP/tests/lib/judge-console.sh" "$d/console.log" s "$d/tests/10-x.sh"
}
ok='=== /tests/10-x.sh\nRESULT PASS a\nRESULT PASS b\n'
bt=' machine_restart from __do_sys_reboot+0x138/0x274\n'
clean() { judge "$1" | grep -q '^PASS: s: kernel log has no'; }
dirty() { judge "$1" | grep -q '^FAIL: s: kernel log has a kernel report'; }
check "a clean log passes" clean "${ok}GUEST-DONE\nreboot: Restarting system\n"
check "an oops before GUEST-DONE fails" \
	dirty "${ok}Unable to handle kernel NULL pointer dereference at virtual address 0\nGUEST-DONE\n"
check "an oops after GUEST-DONE, before the restart, fails" \
	dirty "${ok}GUEST-DONE\nUnable to handle kernel paging request at virtual address 0\nreboot: Restarting system\n${bt}"
check "lockdep in the restart path after 'Restarting system' (with its backtrace) passes" \
	clean "${ok}GUEST-DONE\nreboot: Restarting system\nWARNING: suspicious RCU usage\n${bt}[ BUG: Invalid wait context ]\n${bt}"
check "a warning after 'Restarting system' without a restart backtrace fails" \
	dirty "${ok}GUEST-DONE\nreboot: Restarting system\nWARNING: CPU: 0 PID: 1 at fs/x.c:1 f\n"
check "a hung reboot task in the restart path passes" \
	clean "${ok}GUEST-DONE\nINFO: task reboot:99 blocked for more than 30 seconds.\n kernel_restart from x\n"
check "a script that ran 1 of its 2 checks fails" \
	bash -c "printf '=== /tests/10-x.sh\nRESULT PASS a\nGUEST-DONE\n' > '$d/c2.log' &&
	bash '$TOP/tests/lib/judge-console.sh' '$d/c2.log' s '$d/tests/10-x.sh' |
	grep -q '^FAIL: s: 10-x.sh ran 1 of its 2 checks'"
check "an oops in our module after 'Restarting system', then the restart path's report, fails" \
	dirty "${ok}GUEST-DONE\nreboot: Restarting system\nUnable to handle kernel NULL pointer dereference at virtual address 4\nPC is at cramfs_xip_read_folio+0x2c/0x1a0 [cramfs_xip]\nWARNING: suspicious RCU usage\n${bt}"
check "an unknown report after 'Restarting system', beside the known one, fails" \
	dirty "${ok}GUEST-DONE\nreboot: Restarting system\nWARNING: suspicious RCU usage\n${bt}BUG: Bad page state in process reboot\n${bt}"
check "a known report shape from another task after 'Restarting system' fails" \
	dirty "${ok}GUEST-DONE\nreboot: Restarting system\nBUG: sleeping function called from invalid context at mm/filemap.c:1\nin_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 77, name: readall\n${bt}"
