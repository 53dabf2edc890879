#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mkcramfs --xip-profile: exactly the pages of code a profile lists are
# stored in place, everything else compressed (a listed page outside an
# executable ELF segment too); the profile's syntax and its mistakes.
# (The round trip through a guest: tests/guest-profile.sh.)
# checks: 28
. "$(dirname "$0")/lib.sh"
d=$WORK/profile
rm -rf "$d"
mkdir -p "$d/tree/bin" "$d/tree/a b"
# bin/prog: an ELF file whose one segment, executable, is the whole file.
python3 -c "
import random, struct; r = random.Random(7)
size = 10 * 4096 + 5
eh = b'\\x7fELF' + bytes([1, 1, 1]) + bytes(9) + struct.pack('<HHIIIIIHHHHHH', 2, 40, 1, 0, 52, 0, 0, 52, 32, 1, 40, 0, 0)
ph = struct.pack('<8I', 1, 0, 0x10000, 0x10000, size, size, 5, 4096)
body = eh + ph
open('$d/tree/bin/prog', 'wb').write(body + r.randbytes(size - len(body)))
open('$d/tree/a b/x', 'wb').write(r.randbytes(3 * 4096))
open('$d/tree/bin/text', 'wb').write(b'compressible ' * 3000)"
cat > "$d/profile" <<'P'
# as xip-profile writes it, and a comment
page-size 4096
/bin/prog 0-2,5,10
/a\040b/x all
P
pages() { "$CRAMFSCK" --layout "$1" > "$d/layout" && python3 "$TOP/tests/lib/profile-pages.py" "$2" "$d/layout" "${3:-$d/tree}"; }

check "mkcramfs --xip-profile: exit 0" "$MKCRAMFS" --xip-profile "$d/profile" "$d/tree" "$d/img"
check "the image is clean" "$CRAMFSCK" "$d/img"
check "exactly the profiled pages in place (ranges, 'all', an escaped space)" \
	pages "$d/img" "$d/profile"
"$CRAMFSCK" -l "$d/img" > "$d/list"
check "a file not in the profile is all compressed, ELF or not" \
	grep -q '\[.* 0 plain 0 xip 0 hole\] /bin/text$' "$d/list"
rm -rf "$d/x"
check "the image extracts to the same tree" \
	bash -c "'$CRAMFSCK' -x '$d/x' '$d/img' && diff -r '$d/tree' '$d/x'"
printf 'xip /bin/text\nnoxip /bin/prog\n' > "$d/rules"
"$MKCRAMFS" -R "$d/rules" --xip-profile "$d/profile" "$d/tree" "$d/rimg" > /dev/null
"$CRAMFSCK" -l "$d/rimg" > "$d/rlist"
check "-R rules still win over the profile (xip whole, noxip none)" bash -c \
	"grep -q '\[0 zlib 0 plain 10 xip 0 hole\] /bin/text$' '$d/rlist' && grep -q ' 0 xip 0 hole\] /bin/prog$' '$d/rlist'"

bb=$(busybox_armhf)
if [ -f "$bb" ]; then
	mkdir -p "$d/bb/bin"
	cp "$bb" "$d/bb/bin/busybox"
	printf 'page-size 4096\n/bin/busybox 0-3,40-41\n' > "$d/bbprofile"
	"$MKCRAMFS" --xip-profile "$d/bbprofile" "$d/bb" "$d/bbimg" > /dev/null
	check "BusyBox: only the profiled pages of its text in place, not its ELF segments" \
		pages "$d/bbimg" "$d/bbprofile" "$d/bb"
else
	skip "BusyBox: armhf BusyBox not unpacked (scripts/setup-host.sh)"
fi

printf 'page-size 4096\n/bin/prog 1\n/not/there 0\n/bin/prog 99\n' > "$d/odd"
check "a file the tree lacks: a warning naming it" \
	status_and_says 0 "/not/there is not in the tree" \
	"$MKCRAMFS" --xip-profile "$d/odd" "$d/tree" "$d/oimg"
check "a page past the file's end: a warning" \
	status_and_says 0 "1 profiled pages lie past the end of their file" \
	"$MKCRAMFS" --xip-profile "$d/odd" "$d/tree" "$d/oimg"
printf 'page-size 16384\n/bin/prog 1\n' > "$d/p16k"
check "a profile of other pages than -b: refused" \
	status_and_says 8 "a profile of 16384-byte pages, but the block size is 4096" \
	"$MKCRAMFS" --xip-profile "$d/p16k" "$d/tree" "$d/bad"
check "... and accepted with -b 16384" "$MKCRAMFS" -b 16384 --xip-profile "$d/p16k" "$d/tree" "$d/b16"
for bad in '/bin/prog' 'bin/prog 1' '/bin/prog 3-1' '/bin/prog 1,,2' '/bin/prog x' '/bin\09prog 1' \
	'/bin/prog\000/x 1' '/bin/prog '; do
	printf 'page-size 4096\n%s\n' "$bad" > "$d/bad.profile"
	check "a bad line is refused with its line number: '$bad'" \
		status_and_says 8 "bad.profile:2: expected '/PATH PAGES'" \
		"$MKCRAMFS" --xip-profile "$d/bad.profile" "$d/tree" "$d/bad"
done
printf '/bin/prog 1\n' > "$d/nosize"
check "a profile without its page size: refused" \
	status_and_says 8 "nosize:1: no 'page-size N' line before the first file" \
	"$MKCRAMFS" --xip-profile "$d/nosize" "$d/tree" "$d/bad"
printf 'page-size 4096x\n/bin/prog 1\n' > "$d/junk"
check "a page size with more after it: refused" \
	status_and_says 8 "junk:1: expected 'page-size N'" \
	"$MKCRAMFS" --xip-profile "$d/junk" "$d/tree" "$d/bad"
{
	echo page-size 4096
	for i in $(seq 1 200); do echo "/bin/prog 0-4294967295"; done
} > "$d/huge"
check "200 ranges of 2^32 pages each: quick, with a warning" \
	timeout 10 "$MKCRAMFS" --xip-profile "$d/huge" "$d/tree" "$d/himg"
python3 -c "print('page-size 4096'); print('/bin/prog ' + ','.join(str(i) for i in range(0, 8000, 2)))" > "$d/long"
check "a line of 20 kB (every other page of a large file): read whole" \
	"$MKCRAMFS" --xip-profile "$d/long" "$d/tree" "$d/limg"
check "-A with a profile: a warning that MMU kernels will not map the pages" \
	status_and_says 0 "only a kernel without an MMU maps them in place" \
	"$MKCRAMFS" -A 16 --xip-profile "$d/profile" "$d/tree" "$d/aimg"
mkdir -p "$d/links/bin"
cp "$d/tree/bin/prog" "$d/links/bin/a"
ln "$d/links/bin/a" "$d/links/bin/b"
cp "$d/tree/bin/prog" "$d/links/bin/c"
printf 'page-size 4096\n/bin/a 0-1\n/bin/b 2\n/bin/c 5\n' > "$d/lprofile"
"$MKCRAMFS" --xip-profile "$d/lprofile" "$d/links" "$d/lnimg" > /dev/null
"$CRAMFSCK" --layout "$d/lnimg" > "$d/lnlayout"
check "names of one content with different pages: stored once, with the pages of all" bash -c \
	"test \$(grep -c ' xip at ' '$d/lnlayout') -ge 12 &&
	 test \$(stat -c %s '$d/lnimg') -lt \$((2 * \$(stat -c %s '$d/tree/bin/prog')))"
printf 'page-size 4096\n/bin/prog 0\n/bin/text 0\n' > "$d/none"
check "a listed page of a file that is not ELF holds no code: compressed, and counted" \
	bash -c "'$MKCRAMFS' --xip-profile '$d/none' '$d/tree' '$d/nimg' > '$d/nout' &&
		 ! '$CRAMFSCK' --layout '$d/nimg' | grep -q '/bin/text block 0: xip at' &&
		 grep -q '^mkcramfs: 1 profiled pages outside executable ELF segments' '$d/nout'"
printf 'page-size 4096\n' > "$d/empty"
check "an empty profile: the standard image, with a warning" \
	status_and_says 0 "no page in the profile, rule or sticky file to execute in place" \
	"$MKCRAMFS" --xip-profile "$d/empty" "$d/tree" "$d/eimg"
check "a profile that cannot be opened: refused" \
	status_and_says 8 "$d/nonexistent: No such file or directory" \
	"$MKCRAMFS" --xip-profile "$d/nonexistent" "$d/tree" "$d/bad"
