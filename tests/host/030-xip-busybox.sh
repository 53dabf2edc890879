#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mkcramfs -X on the armhf BusyBox: read-only segments XIP and page-aligned,
# page by page as readelf -l describes them; everything else compressed.
# checks: 8
. "$(dirname "$0")/lib.sh"
bb=$(busybox_armhf)
[ -f "$bb" ] || skip_all "armhf BusyBox not unpacked (scripts/setup-host.sh)"
src=$WORK/bbtree
mkdir -p "$src/bin"
cp "$bb" "$src/bin/busybox"
"$MKCRAMFS" "$src" "$WORK/bb.img" > /dev/null
"$MKCRAMFS" -X "$src" "$WORK/bb-x.img" > "$WORK/bb-x.summary"
mkfs.cramfs "$src" "$WORK/bb-ul.img" > /dev/null 2>&1
size() { stat -c %s "$1"; }
check "without -X: no larger than util-linux mkfs.cramfs ($(size "$WORK/bb.img") <= $(size "$WORK/bb-ul.img"))" \
	test "$(size "$WORK/bb.img")" -le "$(size "$WORK/bb-ul.img")"
check "with -X: no larger than 1277952 bytes, the reference XIP tool's ($(size "$WORK/bb-x.img"))" \
	test "$(size "$WORK/bb-x.img")" -le 1277952
check "cramfsck accepts the -X image" "$CRAMFSCK" "$WORK/bb-x.img"
check "cramfsck -l shows busybox with XIP and zlib blocks" \
	bash -c "'$CRAMFSCK' -l '$WORK/bb-x.img' | grep -E '\[[1-9][0-9]* zlib 0 plain [1-9][0-9]* xip 0 hole\] /bin/busybox'"

# The expected kind of every page, from the program headers.
"$CRAMFSCK" --layout "$WORK/bb-x.img" | sed -n 's|^  /bin/busybox block \([0-9]*\): \([a-z-]*\) at \([0-9]*\),.*|\1 \2 \3|p' > "$WORK/bb.layout"
readelf -lW "$bb" > "$WORK/bb.segments"
check "readelf finds a read-only and a writable LOAD segment" \
	bash -c "grep -q 'LOAD.* R E ' '$WORK/bb.segments' && grep -q 'LOAD.* RW ' '$WORK/bb.segments'"
python3 - "$WORK/bb.layout" "$bb" > "$WORK/bb.check" 2>&1 <<'PY'
import struct, sys
layout = {int(i): (k, int(s)) for i, k, s in (l.split() for l in open(sys.argv[1]))}
elf = open(sys.argv[2], "rb").read()
phoff, = struct.unpack_from("<I", elf, 28)
phentsize, phnum = struct.unpack_from("<HH", elf, 42)
ro, rw = set(), set()
for i in range(phnum):
    p_type, p_off, _, _, p_filesz, _, p_flags, _ = struct.unpack_from("<8I", elf, phoff + i * phentsize)
    if p_type != 1 or not p_filesz:
        continue
    pages = set(range(p_off // 4096, (p_off + p_filesz - 1) // 4096 + 1))
    (rw if p_flags & 2 else ro).update(pages)
bad = 0
for page in sorted(ro):
    kind, start = layout[page]
    if kind != "xip" or start % 4096:
        print(f"read-only page {page}: {kind} at {start}")
        bad += 1
for page in sorted(rw - ro):
    if layout[page][0] not in ("zlib", "zlib-direct"):
        print(f"writable page {page}: {layout[page][0]}")
        bad += 1
xs = [layout[p][1] for p in sorted(ro)]
if any(b - a != 4096 for a, b in zip(xs, xs[1:])):
    print("read-only pages are not one contiguous run in flash")
    bad += 1
print(f"{len(ro)} read-only pages, {len(rw - ro)} writable-only pages, {bad} wrong")
sys.exit(1 if bad else 0)
PY
layout_status=$?
layout_checked() { cat "$WORK/bb.check"; return $layout_status; }
check "every read-only segment page is XIP, page-aligned and contiguous; writable pages compressed ($(tail -n1 "$WORK/bb.check"))" \
	layout_checked
rm -rf "$WORK/bb-out"
check "the -X image extracts to the identical busybox" \
	bash -c "'$CRAMFSCK' -x '$WORK/bb-out' '$WORK/bb-x.img' && cmp '$bb' '$WORK/bb-out/bin/busybox'"
check "the summary reports XIP bytes and padding" \
	bash -c "grep -q 'stored for XIP in 1 files' '$WORK/bb-x.summary' && grep -q 'alignment padding' '$WORK/bb-x.summary'"
