#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Choosing what executes in place: rules files and -A (the sticky bit: 010-roundtrip).
# checks: 7
. "$(dirname "$0")/lib.sh"
bb=$(busybox_armhf)
d=$WORK/rules
rm -rf "$d"
mkdir -p "$d/tree/bin" "$d/tree/data"
[ -f "$bb" ] && cp "$bb" "$d/tree/bin/busybox"
head -c 20000 /dev/zero | tr '\0' 'a' > "$d/tree/data/table.bin"
seq 1 2000 > "$d/tree/data/readme"
cat > "$d/rules" <<'RULES'
# whole files for XIP; busybox never
xip /data/*.bin
noxip /bin/busybox
RULES
"$MKCRAMFS" -X -R "$d/rules" "$d/tree" "$d/img" > /dev/null
"$CRAMFSCK" -l "$d/img" > "$d/list"
check "rules image is clean" "$CRAMFSCK" "$d/img"
check "xip GLOB: a data file stored whole for XIP" grep -q '\[0 zlib 0 plain 5 xip 0 hole\] /data/table.bin' "$d/list"
check "unmatched text file stays compressed" grep -q '\[3 zlib 0 plain 0 xip 0 hole\] /data/readme' "$d/list"
if [ -f "$bb" ]; then
	check "noxip GLOB: busybox not XIP" grep -q ' 0 xip 0 hole\] /bin/busybox$' "$d/list"
else
	skip "noxip GLOB: armhf BusyBox not unpacked (scripts/setup-host.sh)"
fi
"$MKCRAMFS" -X "$d/tree" "$d/mmu.img" > /dev/null
"$MKCRAMFS" -X -A 64 "$d/tree" "$d/nommu.img" > /dev/null
check "-A 64 (no-MMU layout) image is clean" "$CRAMFSCK" "$d/nommu.img"
check "-A 64 image is not larger than the page-aligned one" \
	test "$(stat -c %s "$d/nommu.img")" -le "$(stat -c %s "$d/mmu.img")"
rm -rf "$d/x"
check "rules image extracts to the same tree" \
	bash -c "'$CRAMFSCK' -x '$d/x' '$d/img' && diff -r '$d/tree' '$d/x'"
