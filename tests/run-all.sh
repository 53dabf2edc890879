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

run_suite() {
	local name=$1
	shift
	log "suite $name"
	local start=$SECONDS
	"$@" 2> "$top/build-tests/$name.stderr" | tee -a "$report"
	local rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: $name: suite exited with status $rc: see build-tests/$name.stderr" |
			tee -a "$report"
		tail -n 15 "$top/build-tests/$name.stderr" | sed 's/^/    | /'
	fi
	log "suite $name took $((SECONDS - start))s"
}

suites=${SUITES:-"host vexpress-a9 vexpress-a9-6.12 vexpress-a9-root vexpress-a9-root-6.12 mps2-an385 mps2-an385-6.12"}
for s in $suites; do
	case $s in
	host) run_suite host "$top/tests/host/run.sh" ;;
	vexpress-a9) run_suite vexpress-a9 "$top/tests/guest-vexpress-a9.sh" ;;
	vexpress-a9-6.12) run_suite vexpress-a9-6.12 "$top/tests/guest-vexpress-a9.sh" 6.12 ;;
	vexpress-a9-root) run_suite vexpress-a9-root "$top/tests/guest-vexpress-a9-root.sh" ;;
	vexpress-a9-root-6.12) run_suite vexpress-a9-root-6.12 "$top/tests/guest-vexpress-a9-root.sh" 6.12 ;;
	mps2-an385) run_suite mps2-an385 "$top/tests/guest-mps2-an385.sh" ;;
	mps2-an385-6.12) run_suite mps2-an385-6.12 "$top/tests/guest-mps2-an385.sh" 6.12 ;;
	vexpress-a9-debug) run_suite vexpress-a9-debug "$top/tests/guest-vexpress-a9.sh" --debug ;;
	*) echo "FAIL: unknown suite $s" | tee -a "$report" ;;
	esac
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
