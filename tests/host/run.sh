#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests: run each tests/host/NNN-*.sh; each prints PASS:/FAIL:/SKIP: lines.
#   tests/host/run.sh [NNN...]     only the scripts whose names start so
# A script declares how many such lines it prints: in a line "# checks: N", or,
# when the number comes from its data, by printing "PLAN: N" before its checks
# (plan in lib.sh). One that prints another number, exits non-zero or is killed
# gets a FAIL line of its own: checks that never ran are failures, not silence.
# A script that cannot run at all prints a SKIP line and exits 77 (skip_all).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
make -s -C "$top" tools >&2 || { echo "FAIL: host: make tools"; exit 1; }
export TOP=$top MKCRAMFS=$top/scripts/mkcramfs CRAMFSCK=$top/scripts/cramfsck
export WORK=$top/build-tests/host
rm -rf "$WORK"
mkdir -p "$WORK/logs"

selected() {
	[ $# -eq 1 ] && return 0
	local name=$1 p
	shift
	for p in "$@"; do
		case $name in "$p"*) return 0 ;; esac
	done
	return 1
}

for t in "$here"/[0-9]*.sh; do
	name=$(basename "$t" .sh)
	selected "$name" "$@" || continue
	log=$WORK/logs/$name.out
	bash "$t" | tee "$log"
	rc=${PIPESTATUS[0]}
	want=$( (sed -n 's/^# checks: \([0-9][0-9]*\)$/\1/p' "$t"
		sed -n 's/^PLAN: [^ ]* \([0-9][0-9]*\)$/\1/p' "$log") | head -n 1)
	got=$(grep -cE '^(PASS|FAIL|SKIP): ' "$log")
	if [ $rc -gt 128 ]; then
		echo "FAIL: host:$name: killed by signal $((rc - 128)) after $got of ${want:-?} checks"
	elif [ $rc -eq 77 ]; then
		grep -q '^SKIP: ' "$log" || echo "FAIL: host:$name: exit 77 (skip) without a SKIP line"
	elif [ $rc -ne 0 ]; then
		echo "FAIL: host:$name: exited with status $rc after $got of ${want:-?} checks"
	elif [ -z "$want" ]; then
		echo "FAIL: host:$name: says nowhere how many checks it runs ('# checks: N' or plan N)"
	elif [ "$got" -ne "$want" ]; then
		echo "FAIL: host:$name: $got checks ran, $want declared"
	fi
done
exit 0
