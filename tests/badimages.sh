#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make badimages: the large bad-image run (issue: "10,000+"), as boots of the
# vexpress-a9 guest of BATCH images each (images START.. of the deterministic
# corpus, tests/lib/badimages.py), every image mounted, read and mapped
# through cramfs_xip, once from the psram and once through a loop device. A
# boot passes when the guest survives its batch and the kernel log has no
# oops, BUG, warning or sanitizer report.
#   tests/badimages.sh [--debug] [--from START] [COUNT [BATCH]]
# runs COUNT images (default 10000) from image START (default 0), BATCH
# (default 1000) per boot. --debug boots the debug kernel (KASAN, kmemleak,
# lockdep: debug.config), several times slower, so that sanitizer reports
# fail the run too. --from resumes a run, or splits one between checkouts.
# Console logs: build-tests/badimages-vexpress-a9[-debug]-<version>-<start>/.
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"
debug=()
variant=vexpress-a9
per_image=2
if [ "${1:-}" = --debug ]; then
	debug=(--debug)
	variant=vexpress-a9-debug
	per_image=8
	shift
fi
from=0
if [ "${1:-}" = --from ]; then
	from=${2:?--from needs an image number}
	shift 2
fi
count=${1:-10000}
batch=${2:-1000}
for v in "$from" "$count" "$batch"; do
	[[ $v =~ ^[0-9]+$ ]] || die "not a number: $v (usage: $0 [--debug] [--from START] [COUNT [BATCH]])"
done
[ "$batch" -gt 0 ] && [ "$count" -gt 0 ] || die "COUNT and BATCH must be at least 1"
top=$CRAMFS_XIP_TOP
out=$top/build-tests/badimages-$variant-run.txt
: > "$out"
end=$((from + count))
start=$from
while [ $start -lt $end ]; do
	n=$((end - start < batch ? end - start : batch))
	log "images $start..$((start + n - 1))"
	BADIMAGES=$n BADIMAGES_START=$start GUEST_TIMEOUT=$((120 + per_image * n)) \
		"$top/tests/guest-vexpress-a9.sh" --badimages "${debug[@]}" 2> "$top/build-tests/badimages-$variant-$start.stderr" |
		sed "s/^\(PASS\|FAIL\|SKIP\): /&[$start+$n] /" | tee -a "$out"
	d=$top/build-tests/badimages-$variant-$KVER_DEFAULT
	[ ! -d "$d" ] || { rm -rf "$d-$start"; mv "$d" "$d-$start"; rm -rf "$d-$start/stage"; }
	start=$((start + n))
done
echo
passed=$(grep -c '^PASS: ' "$out")
failed=$(grep -c '^FAIL: ' "$out")
# Each image went through each medium: the psram (MTD point) and a loop device.
for m in psram loop; do
	tried=$(sed -n "s/.*bad images on $m: \([0-9]*\) of .*/\1/p" "$out" | paste -sd+ | bc)
	mounted=$(sed -n "s/.*bad images on $m: \([0-9]*\) mounted,.*/\1/p" "$out" | paste -sd+ | bc)
	echo "bad images $from..$((end - 1)) on $m: ${tried:-0} of $count tried, ${mounted:-0} mounted, read and mapped"
	[ "${tried:-0}" = "$count" ] || { echo "FAIL: not every image was tried on $m"; failed=$((failed + 1)); }
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
