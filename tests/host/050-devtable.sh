#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A makedevs-style table puts device nodes and owners in the image without root.
# checks: 18
. "$(dirname "$0")/lib.sh"
d=$WORK/devtable
rm -rf "$d"
mkdir -p "$d/tree/etc"
echo root > "$d/tree/etc/passwd"
cat > "$d/table" <<'TABLE'
# name		type mode uid gid major minor start inc count
/dev		d    755  0   0   -     -     -     -   -
/dev/console	c    600  0   5   5     1     -     -   -
/dev/ttyS	c    660  0   20  4     64    0     1   3
/dev/mtdblock0	b    640  0   6   31    0     -     -   -
/dev/initctl	p    600  0   0   -     -     -     -   -
/etc/passwd	f    644  0   0   -     -     -     -   -
/home/user	d    700  1000 100 -    -     -     -   -
TABLE
check "mkcramfs -D: exit 0" "$MKCRAMFS" -D "$d/table" "$d/tree" "$d/img"
"$CRAMFSCK" -l "$d/img" > "$d/list"
check "table image is clean" "$CRAMFSCK" "$d/img"
check "char device with owner" grep -q '^crw-------     0   5   5,  1 /dev/console$' "$d/list"
check "numbered series: ttyS0..2 with minors 64..66" \
	bash -c "grep -q ' 4, 64 /dev/ttyS0$' '$d/list' && grep -q ' 4, 66 /dev/ttyS2$' '$d/list' && ! grep -q ttyS3 '$d/list'"
check "block device" grep -q '^brw-r-----     0   6  31,  0 /dev/mtdblock0$' "$d/list"
check "fifo" grep -q '^prw------- .* /dev/initctl$' "$d/list"
check "existing file gets the table's mode" grep -q '^-rw-r--r-- .* /etc/passwd$' "$d/list"
check "new directory with owner" grep -q '^drwx------  1000 100 .* /home/user$' "$d/list"
echo '/x q' > "$d/bad"
check "bad table line: exit 8, error with line number" \
	status_and_says 8 "bad:1:" "$MKCRAMFS" -D "$d/bad" "$d/tree" "$d/img2"
# Lines that cannot be honoured: refused with the line's number, no image.
n=0
bad_line() {	# bad_line LABEL LINE TEXT
	n=$((n + 1))
	printf '%s\n' "$2" > "$d/bad$n"
	check "refused: $1" bash -c "
		'$MKCRAMFS' -D '$d/bad$n' '$d/tree' '$d/img$n' 2> '$d/err$n'
		[ \$? -eq 8 ] && grep -qF -- \"bad$n:1: \" '$d/err$n' &&
		grep -qF -- \"\$1\" '$d/err$n' && [ ! -e '$d/img$n' ]" _ "$3"
}
bad_line "device under a regular file" \
	"/etc/passwd/sub/null c 666 0 0 1 3 - - -" "/etc/passwd/sub is not a directory"
bad_line "device over a directory" "/etc c 666 0 0 1 3 - - -" "/etc is a directory"
bad_line "a '..' component" "/dev/../../null c 666 0 0 1 3 - - -" "'..'"
bad_line "a '.' component" "/./dev d 755 0 0 - - - - -" "'.'"
bad_line "a trailing slash on a device" "/dev/null/ c 666 0 0 1 3 - - -" "no name"
bad_line "a major that is not a number" "/null c 666 0 0 1x 3 - - -" "major"
# A long numbered series: each new node goes to its place, no sort per node
# (that took 15 s for 20,000 and minutes for 65,536).
echo "/dev/tty c 666 0 0 4 0 0 0 30000" > "$d/series"
check "a series of 30,000 nodes: built in seconds, all listed" \
	bash -c "timeout 15 '$MKCRAMFS' -D '$d/series' '$d/tree' '$d/series.img' > /dev/null &&
	[ \$('$CRAMFSCK' -l '$d/series.img' | grep -c ' /dev/tty[0-9]*\$') = 30000 ]"
# Owners too wide for the format are judged as stored: after the table.
mkdir -p "$d/wide"
echo x > "$d/wide/file"
echo x > "$d/wide/other"
printf '/file f 644 7 9 - - - - -\n/other f 644 7 300 - - - - -\n' > "$d/owners"
if [ "$(id -u)" = 0 ]; then
	chown 1:300 "$d/wide/file"
	check "a wide gid the table replaces: no warning; one the table sets: warned" \
		bash -c "'$MKCRAMFS' -D '$d/owners' '$d/wide' '$d/wide.img' 2> '$d/wide.err' > /dev/null;
		cat '$d/wide.err'; ! grep -q '/file' '$d/wide.err' && grep -q '/other: gid 300' '$d/wide.err'"
else
	skip "a wide gid the table replaces: needs root to chown"
fi
check "-q with -D: the tree's owners root, the table's kept" \
	bash -c "'$MKCRAMFS' -q -D '$d/owners' '$d/wide' '$d/q.img' > /dev/null 2>&1 &&
	'$CRAMFSCK' -l '$d/q.img' | tee /dev/stderr | grep -q '^-rw-r--r--     7   9 .* /file\$' &&
	'$CRAMFSCK' -l '$d/q.img' | grep -q '^drwxr-xr-x     0   0 .* /\$'"
