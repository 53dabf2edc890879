#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cramfsck built with AddressSanitizer and UBSan over hundreds of mutated
# images and every saved fuzzer crash: errors are reported (exit 4), never a
# crash, a sanitizer report or a hang.
# checks: 3
. "$(dirname "$0")/lib.sh"
command -v clang > /dev/null || skip_all "clang not installed"
d=$WORK/badimg
rm -rf "$d"
mkdir -p "$d"
trees
clang -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -I"$TOP/fs/cramfs_xip" \
	-o "$d/cramfsck-asan" "$TOP/scripts/cramfsck.c" "$TOP/scripts/image.c" \
	"$TOP/scripts/verity.c" -lz -lcrypto
python3 "$TOP/tests/lib/badimages.py" tinyelf "$d/tiny-elf"
mkdir -p "$d/xtree"
cp "$d/tiny-elf" "$d/xtree/"
"$MKCRAMFS" "$T/tiny" "$d/tiny.img" > /dev/null
"$MKCRAMFS" "$T/types" "$d/types.img" > /dev/null
"$MKCRAMFS" -X "$d/xtree" "$d/xip.img" > /dev/null
"$MKCRAMFS" -X --verity "$d/xtree" "$d/verity.img" > /dev/null
python3 "$TOP/tests/lib/badimages.py" corpus "$d/corpus" 400 "$d/tiny.img" "$d/types.img" "$d/xip.img" \
	"$d/verity.img"
cp "$TOP"/tests/fuzz/regressions/*.img "$d/corpus/" 2>/dev/null
total=0
crashed=0
found=0
for f in "$d"/corpus/*.img; do
	total=$((total + 1))
	timeout 10 "$d/cramfsck-asan" "$f" > /dev/null 2> "$d/last.err"
	rc=$?
	if [ $rc -eq 4 ]; then
		found=$((found + 1))
	elif [ $rc -ne 0 ]; then
		crashed=$((crashed + 1))
		echo "    | $f: exit $rc: $(grep -m1 -E 'ERROR|runtime error' "$d/last.err")"
	fi
done
check "$total bad images: $found reported as damaged, $crashed crashed, hung or tripped a sanitizer" \
	test $crashed -eq 0 -a $total -ge 400
check "most mutations are caught ($found of $total)" test $found -gt $((total / 2))
