#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cramfsck meets fsck.cramfs users' habits: --help, --version, -V, fsck's -a,
# bounded -b, block devices, exit 8 for what the host refuses during an
# extraction, one error counted once, every message naming the image, a
# hint naming the block size an image seems made with when -b does not match.
# checks: 16
. "$(dirname "$0")/lib.sh"
d=$WORK/ckconv
rm -rf "$d"
mkdir -p "$d/tree/sub"
seq 1 3000 > "$d/tree/numbers"
head -c 65536 /dev/zero | tr '\0' x > "$d/tree/sub/big"
"$MKCRAMFS" "$d/tree" "$d/img" > /dev/null

check "--help: usage on stdout, exit 0" bash -c "'$CRAMFSCK' --help | grep -q '^usage: cramfsck'"
check "--version and -V: the version, exit 0" \
	bash -c "'$CRAMFSCK' --version | grep -q '^cramfsck from cramfs-xip [0-9]' &&
	'$CRAMFSCK' -V | grep -q '^cramfsck from cramfs-xip [0-9]'"
check "-a and -y (what fsck passes) are accepted" "$CRAMFSCK" -a -y "$d/img"
check "-b junk, -b 0, -b 1048576: usage errors, exit 16" \
	bash -c "for b in junk 0 1048576 4096x 8191; do '$CRAMFSCK' -b \$b '$d/img' 2>/dev/null;
	[ \$? -eq 16 ] || { echo \"-b \$b accepted\"; exit 1; }; done"
check "--blocksize=4096 and --extract=dir work as in fsck.cramfs" \
	bash -c "'$CRAMFSCK' --blocksize=4096 --extract='$d/long' '$d/img' && cmp '$d/tree/numbers' '$d/long/numbers'"

if [ "$(id -u)" = 0 ] && loop=$(losetup -f --show -r "$d/img" 2> /dev/null); then
	check "a block device holding an image is checked" "$CRAMFSCK" "$loop"
	losetup -d "$loop"
else
	skip "no loop device to test a block device with"
fi

# A host limit mid-extraction (RLIMIT_FSIZE: EFBIG on the 64 KiB file).
check "extraction stopped by the host (EFBIG): exit 8, names the file" \
	status_and_says 8 "/sub/big" bash -c "trap '' XFSZ; ulimit -f 16; exec '$CRAMFSCK' -x '$d/fsize' '$d/img'"
check "an existing target: exit 8" status_and_says 8 "File exists" "$CRAMFSCK" -x "$d/tree" "$d/img"
check "a target whose parent is missing: exit 8, 'nothing extracted' (not 'left in')" \
	bash -c "'$CRAMFSCK' -x '$d/missing/t' '$d/img' 2> '$d/miss.err'; [ \$? -eq 8 ] &&
	! grep -q 'left in' '$d/miss.err' && grep -q 'nothing extracted' '$d/miss.err'"

# One damaged zlib stream, CRC made right again: one error, not two.
python3 - "$d/img" "$d/onebad.img" <<'PY'
import struct, sys, zlib
img = bytearray(open(sys.argv[1], "rb").read())
root = struct.unpack_from("<III", img, 64)
base = (root[2] >> 6) * 4
off = base
while True:             # find "numbers": the first entry
    w0, w1, w2 = struct.unpack_from("<III", img, off)
    name = img[off + 12:off + 12 + (w2 & 0x3f) * 4].rstrip(b"\0")
    if name == b"numbers":
        break
    off += 12 + (w2 & 0x3f) * 4
ptrs = (w2 >> 6) * 4
nblocks = ((w1 & 0xffffff) + 4095) // 4096
start = ptrs + 4 * nblocks
img[start + 10:start + 30] = b"\x55" * 20
struct.pack_into("<I", img, 32, 0)
struct.pack_into("<I", img, 32, zlib.crc32(bytes(img)))
open(sys.argv[2], "wb").write(img)
PY
check "a damaged block: reported once, counted once (1 errors), exit 4" \
	bash -c "'$CRAMFSCK' '$d/onebad.img' 2> '$d/onebad.err'; [ \$? -eq 4 ] && cat '$d/onebad.err' &&
	grep -q ': 1 errors' '$d/onebad.err' && [ \$(grep -c ': error: ' '$d/onebad.err') = 1 ]"

if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	mkdir -p "$d/devtree"
	mknod "$d/devtree/null" c 1 3
	"$MKCRAMFS" "$d/devtree" "$d/types.img" > /dev/null
	mkdir -m 1777 "$d/user"
	check "a device node refused to a user (EPERM): exit 8, not 4" \
		status_and_says 8 "mknod" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$CRAMFSCK" -x "$d/user/out" "$d/types.img"
else
	skip "a user refused mknod: needs root and setpriv"
fi
check "a directory given as the image: said so, exit 8" \
	status_and_says 8 "a directory, not an image" "$CRAMFSCK" "$d"
: > "$d/empty.img"
check "an empty file: said so, exit 4" status_and_says 4 "empty, no image in it" "$CRAMFSCK" "$d/empty.img"

# Messages start "cramfsck: IMAGE: " (a block's path follows on an indented line).
names_image() {	# names_image IMAGE [OPTION...]: stderr of cramfsck on IMAGE
	local img=$1
	shift
	"$CRAMFSCK" "$@" "$img" > /dev/null 2> "$d/names.err"
	cat "$d/names.err"
	[ -s "$d/names.err" ] && ! grep -v -e "^cramfsck: $img: " -e '^  (in ' "$d/names.err"
}
head -c 100 "$d/img" > "$d/short.img"
check "every message names the image: a damaged block, a short image, an existing target" \
	bash -c "$(declare -f names_image); d='$d' CRAMFSCK='$CRAMFSCK'
	names_image '$d/onebad.img' && names_image '$d/short.img' && names_image '$d/img' -x '$d/tree'"

"$MKCRAMFS" -b 16384 "$d/tree" "$d/b16.img" > /dev/null
check "-b 8192 on a 4 KiB image, no -b on a 16 KiB one: exit 4, one hint naming the block size" \
	bash -c "'$CRAMFSCK' -b 8192 '$d/img' 2> '$d/b8.err'; [ \$? -eq 4 ] &&
	'$CRAMFSCK' '$d/b16.img' 2> '$d/b16.err'; [ \$? -eq 4 ] && tail -n 2 '$d/b8.err' '$d/b16.err' &&
	[ \$(grep -c 'hint' '$d/b8.err') = 1 ] && grep -q '^cramfsck: $d/img: hint: .*-b 4096' '$d/b8.err' &&
	[ \$(grep -c 'hint' '$d/b16.err') = 1 ] && grep -q 'hint: .*-b 16384' '$d/b16.err'"
check "a damaged image checked with its own block size: no hint" \
	bash -c "'$CRAMFSCK' '$d/onebad.img' 2> '$d/nohint.err'; [ \$? -eq 4 ] && cat '$d/nohint.err' &&
	! grep -q hint '$d/nohint.err'"
