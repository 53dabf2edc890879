#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mkcramfs builds what it says: XIP blocks aligned to the block size, offsets
# range-checked, the device table's "/", util-linux's bytes for an empty root
# and an empty -i file, no XIP flags when nothing is XIP, objects without
# program headers taken quietly.
# checks: 11
. "$(dirname "$0")/lib.sh"
d=$WORK/mkcorrect
rm -rf "$d"
mkdir -p "$d/elf" "$d/empty" "$d/one" "$d/text" "$d/obj"
python3 "$TOP/tests/lib/badimages.py" tinyelf "$d/elf/tiny-elf"

# -b 16384 -X: the XIP region aligned to 16 KiB, nothing counted unaligned.
"$MKCRAMFS" -X -b 16384 "$d/elf" "$d/b16.img" > /dev/null 2> "$d/b16.err"
check "-X -b 16384: XIP blocks aligned to 16 KiB, none 'not page-aligned', no warning" \
	bash -c "cat '$d/b16.err'; [ ! -s '$d/b16.err' ] &&
	'$CRAMFSCK' -b 16384 -v '$d/b16.img' | tee /dev/stderr | grep -q ' 1 xip, 0 direct plain not page-aligned'"

# -i with a file that pushes the root past the 256 MiB offsets can reach.
truncate -s 300M "$d/huge.bin"
check "-i with 300 MB: refused (exit 8), naming the limit; no image" \
	bash -c "timeout 60 '$MKCRAMFS' -i '$d/huge.bin' '$d/one' '$d/huge.img' > /dev/null 2> '$d/huge.err';
	rc=\$?; cat '$d/huge.err'; [ \$rc -eq 8 ] && grep -q '256 MiB' '$d/huge.err' && [ ! -e '$d/huge.img' ]"
rm -f "$d/huge.bin"

# The device table's "/" (the root itself): valgrind finds no uninitialised read.
echo x > "$d/one/file"
printf '/ d 700 12 34 - - - - -\n' > "$d/rootdev.txt"
# Built at -O0: at -O2 the uninitialised read this guards against is folded
# into a conditional move that valgrind cannot see.
if command -v valgrind > /dev/null &&
	cc -O0 -g -I"$TOP/fs/cramfs_xip" -o "$d/mkcramfs-O0" "$TOP"/scripts/mkcramfs*.c "$TOP/scripts/image.c" \
		"$TOP/scripts/verity.c" -lz -lcrypto; then
	check "-D with '/': valgrind clean" valgrind -q --error-exitcode=99 \
		"$d/mkcramfs-O0" -D "$d/rootdev.txt" "$d/one" "$d/rootdev.img"
else
	skip "valgrind not installed"
fi
# Readers add r-x for all to the root's mode, as mainline does.
check "-D with '/': the root gets the table's owner" \
	bash -c "'$MKCRAMFS' -D '$d/rootdev.txt' '$d/one' '$d/rootdev.img' > /dev/null &&
	'$CRAMFSCK' -l '$d/rootdev.img' | grep -q '^drwxr-xr-x    12  34 .* /\$'"

# util-linux's bytes: an empty root, an empty -i file.
: > "$d/empty.bin"
if command -v mkfs.cramfs > /dev/null; then
	check "empty root directory: byte for byte what mkfs.cramfs writes" \
		bash -c "'$MKCRAMFS' '$d/empty' '$d/e1.img' > /dev/null && mkfs.cramfs '$d/empty' '$d/e2.img' > /dev/null &&
		cmp '$d/e1.img' '$d/e2.img'"
	check "empty -i file: byte for byte what mkfs.cramfs writes" \
		bash -c "'$MKCRAMFS' -Z 6 -i '$d/empty.bin' '$d/one' '$d/i1.img' > /dev/null &&
		mkfs.cramfs -i '$d/empty.bin' '$d/one' '$d/i2.img' > /dev/null && cmp '$d/i1.img' '$d/i2.img'"
else
	skip "mkfs.cramfs not installed"
	skip "mkfs.cramfs not installed"
fi

# -X with nothing to execute in place: the standard image, and a warning saying so.
seq 1 5000 > "$d/text/numbers"
head -c 12288 /dev/urandom > "$d/text/random"
"$MKCRAMFS" "$d/text" "$d/std.img" > /dev/null
check "-X on a tree without ELF: the same bytes as without -X, and a warning" \
	bash -c "'$MKCRAMFS' -X '$d/text' '$d/x.img' 2>&1 > /dev/null | grep -q 'nothing\\|no read-only ELF' &&
	cmp '$d/std.img' '$d/x.img'"
cp "$d/text/random" "$d/elf/"
check "-X: incompressible blocks stored plain, and the summary says how many" \
	bash -c "'$MKCRAMFS' -X '$d/elf' '$d/plain.img' | grep -q '^mkcramfs: [1-9][0-9]* blocks zlib could not shrink, stored plain'"

# A relocatable object and a module-like ELF without program headers.
if printf 'int f(void) { return 42; }\n' > "$d/f.c" && cc -c -o "$d/obj/f.o" "$d/f.c" 2> /dev/null; then
	cp "$d/elf/tiny-elf" "$d/obj/"
	check "-X with a .o: no 'program headers out of range' warning, and the image is clean" \
		bash -c "'$MKCRAMFS' -X '$d/obj' '$d/obj.img' 2> '$d/obj.err' > /dev/null; cat '$d/obj.err';
		! grep -q 'program headers' '$d/obj.err' && '$CRAMFSCK' '$d/obj.img'"
else
	skip "no C compiler for a relocatable object"
fi
check "the 16 KiB -X image extracts to the same tree" \
	bash -c "'$CRAMFSCK' -b 16384 -x '$d/b16.out' '$d/b16.img' && diff -r '$d/b16.out' '$d/elf' | grep -v random | grep -q . && exit 1; cmp '$d/b16.out/tiny-elf' '$d/elf/tiny-elf'"

# A directory whose entries outgrow the 24-bit size field: said so, no image.
python3 - "$d/bigdir/sub" <<'PY'
import os, sys
os.makedirs(sys.argv[1])
for i in range(63600):
    open(os.path.join(sys.argv[1], "%05d" % i + "n" * 247), "w").close()
PY
check "a directory of 63,600 252-byte names (16.8 MB of entries): refused by name, no image" \
	bash -c "'$MKCRAMFS' '$d/bigdir' '$d/bigdir.img' 2> '$d/bigdir.err' > /dev/null
	[ \$? -eq 8 ] && grep -q '/sub: its entries take 16790400 bytes' '$d/bigdir.err' &&
	[ ! -e '$d/bigdir.img' ]"
rm -rf "$d/bigdir"
