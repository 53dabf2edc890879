#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: measure, in one run, and write Documentation/benchmarks.md with
# its plots. Benchmarks report figures; they pass or fail on nothing but
# being able to measure.
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
top=$CRAMFS_XIP_TOP
out=$top/build-tests/bench
mkdir -p "$out"
"$top/tests/guest-vexpress-a9.sh" --bench > "$out/guest.txt"
grep -q '^BENCH ram ' "$out/guest.txt" || die "the guest measured nothing: see build-tests/"
/usr/bin/python3 "$top/tests/lib/bench-report.py" "$out/guest.txt" "$top/Documentation"
cat "$top/Documentation/benchmarks.md"
