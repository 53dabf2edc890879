#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mkcramfs streams file data: one file in memory at a time, the image in
# pages touched only as written. On 32 MB of incompressible files its peak
# RSS stays near the image size, as mkfs.cramfs's does (it once held every
# file as well: twice as much).
# checks: 3
. "$(dirname "$0")/lib.sh"
d=$WORK/memory
rm -rf "$d"
mkdir -p "$d/tree/sub"
for i in 1 2 3 4 5 6 7 8; do head -c 4000000 /dev/urandom > "$d/tree/sub/f$i"; done
cp "$d/tree/sub/f1" "$d/tree/same-as-f1"
seq 1 200000 > "$d/tree/text"
maxrss_kb() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
ours=$(maxrss_kb "$MKCRAMFS" "$d/tree" "$d/ours.img")
size_kb=$(($(stat -c %s "$d/ours.img") / 1024))
echo "    | mkcramfs peak RSS ${ours:-?} kB for a ${size_kb} kB image"
check "the image is clean, identical files share their data" \
	bash -c "'$CRAMFSCK' '$d/ours.img' && [ $size_kb -lt 34000 ]"
check "peak RSS under the image size + 12 MB (${ours:-?} kB, image ${size_kb} kB)" \
	test "${ours:-999999999}" -lt $((size_kb + 12288))
if command -v mkfs.cramfs > /dev/null; then
	theirs=$(maxrss_kb mkfs.cramfs "$d/tree" "$d/theirs.img")
	check "peak RSS within 8 MB of mkfs.cramfs's (${ours:-?} kB against ${theirs:-?} kB)" \
		test "${ours:-999999999}" -lt $((${theirs:-0} + 8192))
else
	skip "mkfs.cramfs not installed"
fi
