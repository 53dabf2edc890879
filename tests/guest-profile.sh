#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The XIP profile round trip on vexpress-a9 (MMU): boot with the BusyBox
# image all compressed, run the workload and list the pages it left in the
# page cache with xip-profile (tests/guest/profile-record/), build the image
# again with mkcramfs
# --xip-profile, boot with it and run the same workload with its text all
# from flash (tests/guest/profile-check/); with PROFILE_BENCH=1, also with
# the -X image, for the RAM figures of make bench.
#   tests/guest-profile.sh [KERNEL_VERSION]
# Prints "PASS: name" / "FAIL: name" per check, and "NOTE:" lines with the
# image sizes; what it makes is under build-tests/profile-vexpress-a9-<version>/,
# the console logs under build-tests/profile-{record,check}-vexpress-a9-<version>/.
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"

kver=${1:-$KVER_DEFAULT}
top=$CRAMFS_XIP_TOP
suite=profile-vexpress-a9-$kver
work=$top/build-tests/$suite
make -s -C "$top" tools >&2
rm -rf "$work"
mkdir -p "$work/tree/bin" "$work/tree/etc" "$work/files"

# The tree: BusyBox, the two scripts and a data file; what the guest checks against.
t=$work/tree
cp "$CRAMFS_XIP_CACHE/guest-debs/root/bin/busybox" "$t/bin/"
cp "$top/tests/guest/profile-workload.sh" "$t/etc/workload.sh"
cp "$top/tests/guest/profile-others.sh" "$t/etc/others.sh"
seq 1 2000 > "$t/etc/numbers.txt"
f=$work/files
cp "$t/bin/busybox" "$t/etc/numbers.txt" "$f/"
cp "$top/tests/guest/profile-lib.sh" "$f/lib.sh"
"$top/tests/lib/manifest.sh" "$t" 255 > "$f/tree.manifest"
LC_ALL=C BB=env DIR=$t sh "$t/etc/workload.sh" > "$f/workload.expected"
LC_ALL=C BB=env DIR=$t sh "$t/etc/others.sh" > "$f/others.expected"

"$top/scripts/mkcramfs" "$t" "$work/zlib.img" > /dev/null
"$top/scripts/mkcramfs" -X "$t" "$work/x.img" > /dev/null
cp "$work/x.img" "$f/"

# First boot: record.
PROFILE_IMAGE=$work/zlib.img PROFILE_FILES=$f "$top/tests/guest-vexpress-a9.sh" \
	--profile-record "$kver" | sed "s/: vexpress-a9-$kver: /: profile-record-$kver: /"
console=$top/build-tests/profile-record-vexpress-a9-$kver/console.log
tr -d '\r' < "$console" | sed -n '/^PROFILE-BEGIN$/,/^PROFILE-END$/p' | sed '1d;$d' > "$work/profile"

# The image from the profile: its XIP pages must be the profile's.
WORK=$work
. "$top/tests/host/lib.sh"
suite=profile-vexpress-a9-$kver
check "the first boot printed a profile" grep -q '^/bin/busybox ' "$work/profile"
check "mkcramfs --xip-profile builds the image" \
	"$top/scripts/mkcramfs" --xip-profile "$work/profile" "$t" "$work/profiled.img"
check "cramfsck passes the profiled image" "$top/scripts/cramfsck" "$work/profiled.img"
"$top/scripts/cramfsck" --layout "$work/profiled.img" > "$work/profiled.layout" || true
check "the pages stored in place are exactly the profile's pages of code" \
	python3 "$top/tests/lib/profile-pages.py" "$work/profile" "$work/profiled.layout" "$t"

# Second boot: the same workload from the profiled image; with PROFILE_BENCH=1
# (make bench) a third from the -X image, for the RAM it takes there.
ram=()
for i in profiled ${PROFILE_BENCH:+x}; do
	echo $i > "$f/kind"
	PROFILE_LABEL=$i PROFILE_IMAGE=$work/$i.img PROFILE_FILES=$f \
		"$top/tests/guest-vexpress-a9.sh" --profile-check "$kver" |
		sed "s/: vexpress-a9-$kver: /: profile-check-$i-$kver: /"
	console=$top/build-tests/profile-check-$i-vexpress-a9-$kver/console.log
	ram+=("$i.img $(tr -d '\r' < "$console" | sed -n 's/^PROFILE-RAM //p')")
done

size() { stat -c %s "$1"; }
z=$(size "$work/zlib.img")
for i in x profiled; do
	s=$(size "$work/$i.img")
	echo "NOTE: $suite: $i.img: $s bytes, $(awk -v a="$s" -v b="$z" 'BEGIN { printf "%.2f", a / b }')x the all-compressed $z"
done
for r in "${ram[@]}"; do
	echo "NOTE: $suite: $r"
done
