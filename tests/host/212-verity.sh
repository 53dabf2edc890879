#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Verity (issue 46, host side): mkcramfs --verity writes the hash tree and
# trailer after the image and prints the root hash; cramfsck checks them and
# names the first bad block of each level; signatures made with a throwaway
# key verify with its certificate and with openssl cms, and fail with another;
# tests/lib/verity.py recomputes the area from format.md alone; mainline's
# fsck.cramfs still checks the image as documented.
# checks: 26
. "$(dirname "$0")/lib.sh"
d=$WORK/verity
rm -rf "$d"
mkdir -p "$d/tree/sub" "$d/one" "$d/elf"
vpy() { python3 "$TOP/tests/lib/verity.py" "$@"; }
# 172 data blocks (two tree levels): random data zlib cannot shrink.
head -c 600000 /dev/urandom > "$d/tree/random"
seq 1 20000 > "$d/tree/sub/numbers"
ln -s sub/numbers "$d/tree/link"
cp /bin/true "$d/elf/true"
# Throwaway keys, never kept: the signer's and an unrelated one.
for k in key other; do
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$d/$k.pem" -out "$d/$k.crt" -days 2 \
		-subj "/CN=cramfs-xip test $k" > /dev/null 2>&1
done
root_of() { sed -n 's/^mkcramfs: verity root hash \([0-9a-f]\{64\}\)$/\1/p' "$1"; }
ck_root_of() { sed -n "s|^$1: verity root hash \([0-9a-f]\{64\}\)\$|\1|p"; }

"$MKCRAMFS" --verity "$d/tree" "$d/v.img" > "$d/v.out"
root=$(root_of "$d/v.out")
round_trip() {
	cat "$d/v.out"
	[ ${#root} = 64 ] && "$CRAMFSCK" "$d/v.img" > "$d/ck.out" && cat "$d/ck.out" &&
		[ "$(ck_root_of "$d/v.img" < "$d/ck.out")" = "$root" ]
}
check "mkcramfs --verity prints the root hash; cramfsck passes and prints the same" round_trip
check "Python (hashlib, format.md only): the same tree, trailer and root hash" \
	bash -c "[ \"\$(python3 '$TOP/tests/lib/verity.py' root '$d/v.img')\" = '$root' ]"
check "--root-hash with that hash passes; a file of the image size plus the area, whole 4 KiB blocks" \
	bash -c "'$CRAMFSCK' --root-hash '$root' '$d/v.img' > /dev/null &&
	[ \$((\$(stat -c %s '$d/v.img') % 4096)) = 0 ]"
other=$(printf '%064d' 0)
check "--root-hash with another hash: refused (exit 4), both hashes named" \
	status_and_says 4 "the root hash is $root, not the $other asked for" \
	"$CRAMFSCK" --root-hash "$other" "$d/v.img"
check "--root-hash that is not 64 hex digits: usage error (exit 16)" \
	status_and_says 16 "64 hex digits" "$CRAMFSCK" --root-hash "${root}0" "$d/v.img"
check "--layout shows the trailer and both tree levels, top first" \
	bash -c "'$CRAMFSCK' --layout '$d/v.img' | grep '^  verity' | tee /dev/stderr |
	tr '\n' '|' | grep -qE '^  verity trailer at [0-9]+, 4096 bytes\|  verity tree level 1 at [0-9]+, 1 blocks\|  verity tree level 0 at [0-9]+, 2 blocks\|\$'"

# Each stored byte matters: one flipped in each part, found and named.
vpy where "$d/v.img" > "$d/where"
at() { sed -n "s/^$1 //p" "$d/where"; }
flipped() {
	vpy flip "$d/v.img" "$d/flip.img" "$1"
	status_and_says 4 "$2" "$CRAMFSCK" "$d/flip.img"
}
check "a byte of data block 100 flipped: exit 4, 'data block 100'" \
	flipped $((100 * 4096 + 7)) "verity: data block 100 (image bytes 409600 to 413695) does not match its hash in tree level 0"
# Top level first: the bad tree block is named before the data blocks it vouched for.
tree_flip() {
	local b1=$(($(at level0) + 4096))
	flipped $((b1 + 99)) "verity: tree level 0 block 1 (at $b1) does not match its hash in tree level 1" &&
		head -n 1 "$WORK/err.txt" | grep -q 'tree level 0 block 1'
}
check "a byte of tree level 0 block 1 flipped: that block named first" tree_flip
check "a byte of the top level flipped: it does not match the trailer's root hash" \
	flipped $(($(at level1) + 3)) "verity: tree level 1 block 0 (at $(at level1)) does not match the trailer's root hash"
check "a byte of the trailer's data size flipped: the trailer is damaged (CRC)" \
	flipped $(($(at trailer) + 17)) "verity: the trailer at $(at trailer) is damaged: CRC"
check "a byte of the trailer block's zeros flipped: named" \
	flipped $(($(at trailer) + 1000)) "the trailer's block is not zero after the trailer"
# The root hash in the trailer replaced, its CRC made right: the tree disagrees.
python3 - "$d/v.img" "$d/reroot.img" "$(at trailer)" <<'EOF'
import struct, sys, zlib
img = bytearray(open(sys.argv[1], "rb").read())
t = int(sys.argv[3])
img[t + 60:t + 92] = bytes(32)
struct.pack_into("<I", img, t + 124, zlib.crc32(bytes(img[t:t + 124]) + bytes(4)))
open(sys.argv[2], "wb").write(img)
EOF
check "another root hash in the trailer, its CRC right: the top level does not match it" \
	status_and_says 4 "verity: tree level 1 block 0" "$CRAMFSCK" "$d/reroot.img"

# Stripped: cut at the image's size. Without a demand, a plain image.
size=$(at trailer)
head -c "$size" "$d/v.img" > "$d/stripped.img"
check "trailer stripped: cramfsck alone passes it as an image without verity" \
	bash -c "'$CRAMFSCK' '$d/stripped.img' > '$d/s.out' && ! grep -q verity '$d/s.out'"
check "trailer stripped, --root-hash given: refused (exit 4), 'no trailer'" \
	status_and_says 4 "verity: no trailer at $size" "$CRAMFSCK" --root-hash "$root" "$d/stripped.img"
check "trailer stripped, --verity: refused (exit 4)" \
	status_and_says 4 "verity: no trailer" "$CRAMFSCK" --verity "$d/stripped.img"
cut_short() {
	head -c $((size + 8192)) "$d/v.img" > "$d/short.img" &&
		status_and_says 4 "past the $((size + 8192)) bytes there" "$CRAMFSCK" "$d/short.img"
}
check "the tree cut short: refused, 'past the ... bytes there'" cut_short

# Signed.
"$MKCRAMFS" --verity --sign-key "$d/key.pem" --sign-cert "$d/key.crt" "$d/tree" "$d/s.img" > "$d/s.out"
signed() {
	cat "$d/s.out"
	[ "$(root_of "$d/s.out")" = "$root" ] && [ "$(vpy root "$d/s.img")" = "$root" ] &&
		"$CRAMFSCK" --cert "$d/key.crt" "$d/s.img" > "$d/sck.out" && cat "$d/sck.out" &&
		grep -qx "$d/s.img: verity signature verified with $d/key.crt" "$d/sck.out"
}
check "--sign-key/--sign-cert: the same root; cramfsck --cert verifies the signature" signed
vpy where "$d/s.img" > "$d/where"
cms_verifies() {
	local t sig
	t=$(at trailer)
	sig=$(at signature)
	head -c $((t + 92)) "$d/s.img" | tail -c 92 > "$d/signed-part"
	python3 -c "import struct, sys; d = open('$d/s.img', 'rb').read(); o, n = struct.unpack_from('<II', d, $t + 92); sys.stdout.buffer.write(d[o:o + n])" > "$d/sig.der"
	[ "$(stat -c %s "$d/sig.der")" -gt 0 ] && [ "$sig" -gt "$t" ] &&
		openssl cms -verify -binary -inform DER -in "$d/sig.der" -content "$d/signed-part" \
			-CAfile "$d/key.crt" -certfile "$d/key.crt" -purpose any -out /dev/null &&
		openssl pkcs7 -inform DER -in "$d/sig.der" -print | tee "$d/p7.txt" | grep -q 'auth_attr:' &&
		grep -A1 'auth_attr:' "$d/p7.txt" | grep -q ABSENT && grep -A1 '^    cert:' "$d/p7.txt" | grep -q ABSENT
}
check "openssl cms verifies the DER over the trailer's first 92 bytes; no attributes, no certificates" cms_verifies
check "another certificate: refused (exit 4), the certificate named" \
	status_and_says 4 "does not verify with $d/other.crt" "$CRAMFSCK" --cert "$d/other.crt" "$d/s.img"
sig_flip() {
	vpy flip "$d/s.img" "$d/sflip.img" $(($(at signature) + 300)) &&
		status_and_says 4 "verity: the signature at $(at signature)" \
			"$CRAMFSCK" --cert "$d/key.crt" "$d/sflip.img"
}
check "a byte of the signature flipped: refused with --cert" sig_flip
check "an unsigned image with --cert: refused, 'not signed'" \
	status_and_says 4 "the image is not signed" "$CRAMFSCK" --cert "$d/key.crt" "$d/v.img"
sign_usage() {
	status_and_says 16 "need --verity" \
		"$MKCRAMFS" --sign-key "$d/key.pem" --sign-cert "$d/key.crt" "$d/one" "$d/u.img" &&
		status_and_says 16 "go together" "$MKCRAMFS" --verity --sign-key "$d/key.pem" "$d/one" "$d/u.img" &&
		status_and_says 8 "$d/nokey.pem" "$MKCRAMFS" --verity --sign-key "$d/nokey.pem" \
			--sign-cert "$d/key.crt" "$d/one" "$d/u.img" &&
		status_and_says 8 "$d/nocert.crt" "$CRAMFSCK" --cert "$d/nocert.crt" "$d/v.img" &&
		[ ! -e "$d/u.img" ]
}
check "--sign-key without --verity, or without --sign-cert: exit 16; a key or certificate missing: exit 8" \
	sign_usage

# XIP, big-endian, a boot block, a one-block image: the same rules.
xip() {
	"$MKCRAMFS" -X -N big -p --verity --sign-key "$d/key.pem" --sign-cert "$d/key.crt" \
		"$d/elf" "$d/x.img" > "$d/x.out" &&
		"$CRAMFSCK" --layout --cert "$d/key.crt" --root-hash "$(root_of "$d/x.out")" "$d/x.img" > "$d/x.ck" &&
		grep -q ': xip at' "$d/x.ck" && [ "$(vpy root "$d/x.img")" = "$(root_of "$d/x.out")" ]
}
check "-X -N big -p --verity, signed: cramfsck and Python agree; XIP blocks in place" xip
one_block() {
	"$MKCRAMFS" --verity "$d/one" "$d/one.img" > "$d/one.out" && cat "$d/one.out" &&
		grep -q 'tree of 0 blocks in 0 levels' "$d/one.out" &&
		[ "$(vpy root "$d/one.img")" = "$(head -c 4096 "$d/one.img" | sha256sum | cut -c1-64)" ] &&
		[ "$(root_of "$d/one.out")" = "$(vpy root "$d/one.img")" ] && "$CRAMFSCK" --verity "$d/one.img"
}
check "a one-block image: no tree level, the root is the hash of block 0" one_block

# util-linux fsck.cramfs, as format.md says: the warning, and the same verdict as without the area.
if command -v fsck.cramfs > /dev/null; then
	check "fsck.cramfs on a verity image: 'file extends past end of filesystem', exit 0" \
		status_and_says 0 "file extends past end of filesystem" fsck.cramfs "$d/v.img"
	check "fsck.cramfs on an -X image: exit 8 with the verity area and without" \
		bash -c "fsck.cramfs '$d/x.img'; [ \$? = 8 ] || exit 1
		head -c \$(python3 '$TOP/tests/lib/verity.py' where '$d/x.img' | sed -n 's/^trailer //p') '$d/x.img' > '$d/x-plain.img'
		fsck.cramfs '$d/x-plain.img'; [ \$? = 8 ]"
else
	skip "fsck.cramfs (util-linux) not installed"
	skip "fsck.cramfs (util-linux) not installed"
fi
rm -f "$d"/*.pem "$d"/*.crt
