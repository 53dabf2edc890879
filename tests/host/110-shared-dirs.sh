#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Two entries naming one directory: the format only asks that a directory's
# entries come after the entry naming it, so N levels of such pairs make 2^N
# paths out of a few hundred bytes. cramfsck refuses them at once instead of
# walking (or extracting) every path. Entries sharing one block table (as
# hard links do) are legal, and the table is checked once, not once per
# entry: 100,000 names of one 16 MiB file take a fraction of a second to
# check (9 s when each entry walked the table), and are not extracted (they
# claim 1.6 TB).
# checks: 12
. "$(dirname "$0")/lib.sh"
d=$WORK/shared
rm -rf "$d"
mkdir -p "$d"
python3 "$TOP/tests/fuzz/mkhostile.py" shared 40 "$d/40.img"
python3 "$TOP/tests/fuzz/mkhostile.py" shared 18 "$d/18.img"
check "40 levels in a $(stat -c %s "$d/40.img")-byte image: refused in seconds, exit 4" \
	status_and_says 4 "directory listed twice" timeout 10 "$CRAMFSCK" "$d/40.img"
check "40 levels: the listing ends too" status_is 4 timeout 10 "$CRAMFSCK" -l "$d/40.img"
timeout 20 "$CRAMFSCK" -l "$d/18.img" > "$d/18.list" 2> /dev/null
check "18 levels: a handful of entries listed, not 524,288" test "$(wc -l < "$d/18.list")" -lt 100
check "18 levels: extraction refused, no target made" \
	bash -c "timeout 20 '$CRAMFSCK' -x '$d/out' '$d/18.img'; [ \$? -eq 4 ] && [ ! -e '$d/out' ]"
# The same directory region reached twice through a shifted start is refused too.
python3 - "$d/18.img" "$d/overlap.img" <<'PY'
import struct, sys, zlib
img = bytearray(open(sys.argv[1], "rb").read())
# Root entry "b" (the second) points 16 bytes further than "a": into a's entries.
w2 = struct.unpack_from("<I", img, 76 + 16 + 8)[0]
struct.pack_into("<I", img, 76 + 16 + 8, w2 + (16 // 4 << 6))
w1 = struct.unpack_from("<I", img, 76 + 16 + 4)[0]
struct.pack_into("<I", img, 76 + 16 + 4, w1 - 16)
struct.pack_into("<I", img, 32, 0)
struct.pack_into("<I", img, 32, zlib.crc32(bytes(img)))
open(sys.argv[2], "wb").write(img)
PY
check "a directory whose entries overlap another's: refused" \
	status_and_says 4 "directory listed twice" timeout 10 "$CRAMFSCK" "$d/overlap.img"
check "mkcramfs images have no shared directories: a deep, wide tree is clean" \
	bash -c "mkdir -p '$d/tree/a/b/c' '$d/tree/a/d' '$d/tree/e' && echo x > '$d/tree/a/b/c/f' &&
	'$MKCRAMFS' '$d/tree' '$d/tree.img' > /dev/null && '$CRAMFSCK' '$d/tree.img'"

python3 "$TOP/tests/fuzz/mkhostile.py" sharedblocks 2000 "$d/blocks.img"
check "2,000 entries sharing a table of 4,095 zlib blocks ($(stat -c %s "$d/blocks.img") bytes): clean, in seconds" \
	timeout 10 "$CRAMFSCK" "$d/blocks.img"
# damage WHAT OUT: blocks.img with its shared table damaged, CRC made right:
# "one" (block 100's stream), "all" (every stream), "ptrs" (every other
# pointer out of order: a bounds error, found before any decode).
damage() {
	python3 - "$d/blocks.img" "$2" "$1" <<'PY'
import struct, sys, zlib
img, what = bytearray(open(sys.argv[1], "rb").read()), sys.argv[3]
off = struct.unpack_from("<I", img, 76 + 8)[0] >> 6 << 2   # entry "a": its block table
for i in {"one": [99], "all": range(4095), "ptrs": range(1, 4095, 2)}[what]:
    if what == "ptrs":
        struct.pack_into("<I", img, off + 4 * i, 8)
    else:
        img[struct.unpack_from("<I", img, off + 4 * i)[0] - 3] ^= 0xff   # inside its stream
struct.pack_into("<I", img, 32, 0)
struct.pack_into("<I", img, 32, zlib.crc32(bytes(img)))
open(sys.argv[2], "wb").write(img)
PY
}
# One block of the shared table made bad: found still, in every entry.
damage one "$d/badblock.img"
check "a bad block in that shared table: reported with its entry and block, and for each of the 2,000 others" \
	bash -c "timeout 10 '$CRAMFSCK' '$d/badblock.img' 2> '$d/bad.err'; [ \$? -eq 4 ] &&
	[ \$(grep -c 'block 99)' '$d/bad.err') -eq 1 ] &&
	[ \$(grep -c 'its data, shared with an entry above, is bad' '$d/bad.err') -eq 2000 ]"
# Every block bad, or every other pointer: each reported once, then once per
# entry, not entries x blocks (16 million lines).
for w in all ptrs; do
	damage $w "$d/$w.img"
	check "$w: every $([ $w = all ] && echo block || echo 'other pointer') of that table bad: exit 4 in seconds, under 20,000 lines of report" \
		bash -c "timeout 10 '$CRAMFSCK' '$d/$w.img' 2> '$d/$w.err'; [ \$? -eq 4 ] &&
		[ \$(wc -l < '$d/$w.err') -lt 20000 ]"
done
python3 "$TOP/tests/fuzz/mkhostile.py" sharedblocks 100000 "$d/sharedblocks.img"
check "100,000 entries naming one 16 MiB block table: checked in under 3 s" \
	timeout 3 "$CRAMFSCK" "$d/sharedblocks.img"
check "... and not extracted: the 1.6 TB they claim is more than the disk has, exit 8" \
	bash -c "'$CRAMFSCK' -x '$d/sb-out' '$d/sharedblocks.img' 2> '$d/sb.err'; [ \$? = 8 ] &&
		grep -q 'its files hold 1677328773120 bytes, more than the' '$d/sb.err' && [ ! -e '$d/sb-out' ]"
rm -f "$d/sharedblocks.img"
