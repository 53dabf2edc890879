#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every test: host tests of the tools and the format, then the QEMU guest
# suites. Ends with "N passed, N failed". Exit status 0 only if none failed.
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

top=$CRAMFS_XIP_TOP
report=$top/build-tests/report.txt
mkdir -p "$top/build-tests"
: > "$report"

# run_suite NAME CMD...: one suite; its lines go to build-tests/NAME.report,
# shown when it ends, and into the report in the order the suites were named.
run_suite() {
	local name=$1 out=$top/build-tests/$1.report
	shift
	log "suite $name"
	local start=$SECONDS
	"$@" 2> "$top/build-tests/$name.stderr" > "$out"
	local rc=$?
	if [ "$rc" -ne 0 ]; then
		{
			echo "FAIL: $name: suite exited with status $rc: see build-tests/$name.stderr"
			tail -n 15 "$top/build-tests/$name.stderr" | sed 's/^/    | /'
		} >> "$out"
	fi
	cat "$out"
	log "suite $name took $((SECONDS - start))s"
}

# suite_cmd NAME[-VERSION]: the command of a suite; VERSION is the kernel's
# (6.1 unless given), e.g. vexpress-a9-7.3.
suite_cmd() {
	local name=$1 v=""
	if [[ $name =~ ^(.*)-([0-9]+\.[0-9]+)$ ]]; then
		name=${BASH_REMATCH[1]}
		v=${BASH_REMATCH[2]}
	fi
	case $name in
	host) [ -n "$v" ] || echo "$top/tests/host/run.sh" ;;
	vexpress-a9) echo "$top/tests/guest-vexpress-a9.sh $v" ;;
	vexpress-a9-root) echo "$top/tests/guest-vexpress-a9-root.sh $v" ;;
	vexpress-a9-debug) echo "$top/tests/guest-vexpress-a9.sh --debug $v" ;;
	vexpress-a9-ramimage) echo "$top/tests/guest-vexpress-a9.sh --ramimage $v" ;;
	vexpress-a9-verity) echo "$top/tests/guest-vexpress-a9.sh --verity ${v:-7.3}" ;;
	zynq-cfi) echo "$top/tests/guest-zynq.sh ${v:-7.3}" ;;
	zynq-rom) echo "$top/tests/guest-zynq.sh --rom ${v:-7.3}" ;;
	riscv-virt-nommu) echo "$top/tests/guest-riscv-virt-nommu.sh ${v:-7.3}" ;;
	qemu-arm64-virt) echo "$top/tests/guest-qemu-arm64-virt.sh ${v:-7.3}" ;;
	mps2-an385) echo "$top/tests/guest-mps2-an385.sh $v" ;;
	mps2-an385-tiny) echo "$top/tests/guest-mps2-an385-tiny.sh $v" ;;
	profile) echo "$top/tests/guest-profile.sh $v" ;;
	esac
}

# The host tools first, once: the guest suites only use them (the host
# suite builds its sanitizer variants in its own directory). Then up to
# $PARALLEL suites at a time (one QEMU each; kernel builds still take turns,
# scripts/build-kernel.sh holds a lock while it builds), the longest guest
# suite beside the host suite.
make -s -C "$top" tools >&2 || echo "FAIL: make tools" >> "$report"
# Host tests that need the vexpress-a9 6.1 kernel wait for its build here
# (tests/host/lib.sh, prepared_kernel) rather than skip.
export CRAMFS_XIP_IN_CHECK=1
parallel=${PARALLEL:-$JOBS}
# The default: Debian 12's kernel (6.1) and the newest Debian has (7.3);
# CHECK_ALL=1 (make check-all) adds Debian 12's newer kernel, 6.12.
# The profile suite needs only the first kernel: it runs while the second
# builds (last, it added 2 minutes to a fresh machine's run after every build).
# CHECK_ALL=1 also boots 6.1's tiny system (SLOB; 7.3's is in the default):
# its XIP kernel's build took a fresh machine's run (43 min 28 s with it)
# too close to its 45-minute budget.
suites=${SUITES:-"vexpress-a9 host vexpress-a9-7.3 profile vexpress-a9-root vexpress-a9-root-7.3 vexpress-a9-ramimage vexpress-a9-ramimage-7.3 vexpress-a9-verity-7.3 zynq-cfi-7.3 zynq-rom-7.3 riscv-virt-nommu-7.3 qemu-arm64-virt-7.3 mps2-an385 mps2-an385-7.3 mps2-an385-tiny-7.3"}
[ -z "${CHECK_ALL:-}" ] || suites="$suites mps2-an385-tiny vexpress-a9-6.12 vexpress-a9-root-6.12 vexpress-a9-ramimage-6.12 mps2-an385-6.12 qemu-arm64-virt-6.12"
for s in $suites; do
	rm -f "$top/build-tests/$s.report"
	cmd=$(suite_cmd "$s")
	if [ -z "$cmd" ]; then
		echo "FAIL: unknown suite $s" > "$top/build-tests/$s.report"
		continue
	fi
	while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do
		wait -n
	done
	# shellcheck disable=SC2086 # the command and its argument
	run_suite "$s" $cmd &
done
wait
for s in $suites; do
	cat "$top/build-tests/$s.report" >> "$report" 2>/dev/null ||
		echo "FAIL: $s: no report" >> "$report"
done

passed=$(grep -c '^PASS: ' "$report")
failed=$(grep -c '^FAIL: ' "$report")
skipped=$(grep -c '^SKIP: ' "$report")
echo
if [ "$failed" -gt 0 ]; then
	echo "Failed checks:"
	grep '^FAIL: ' "$report"
	echo "Console logs and build output: $top/build-tests/"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
