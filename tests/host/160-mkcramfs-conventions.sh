#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mkcramfs meets mkfs.cramfs users' habits: --help, --version, -V, usage
# errors exit 16, numbers checked whole, messages naming the real cause, one
# warning for owners wider than the format, an image written whole or not at
# all (never a partial one, nor a temporary file left behind).
# checks: 11
. "$(dirname "$0")/lib.sh"
d=$WORK/mkconv
rm -rf "$d"
mkdir -p "$d/ok"
echo x > "$d/ok/file"

check "--help: usage on stdout, exit 0" bash -c "'$MKCRAMFS' --help | grep -q '^usage: mkcramfs'"
check "--version and -V: the version, exit 0" \
	bash -c "'$MKCRAMFS' --version | grep -q '^mkcramfs from cramfs-xip [0-9]' &&
	'$MKCRAMFS' -V | grep -q '^mkcramfs from cramfs-xip [0-9]'"
bad_numbers() {
	local args
	for args in "-e junk" "-e 12x" "-e -1" "-e 4294967296" "-b 1000" "-b 8192x" "-b 131072" \
		"-Z 0" "-Z 10" "-Z six" "-X -A 3" "-X -A 0" "-N middle"; do
		# shellcheck disable=SC2086
		"$MKCRAMFS" $args "$d/ok" "$d/o.img" > /dev/null 2> "$d/err"
		rc=$?
		[ $rc -eq 16 ] || { echo "$args: exit $rc, wanted 16"; return 1; }
		grep -q "mkcramfs: error: -" "$d/err" || { echo "$args: no message"; cat "$d/err"; return 1; }
	done
}
check "bad option values (-e junk, -b 1000, -Z 0, -A 3, ...): exit 16 with a message" bad_numbers
check "-e 0x10 and -e 7 accepted" \
	bash -c "'$MKCRAMFS' -e 0x10 '$d/ok' '$d/o.img' > /dev/null && '$MKCRAMFS' -e 7 '$d/ok' '$d/o.img' > /dev/null &&
	'$CRAMFSCK' -v '$d/o.img' | grep -q 'edition 7'"
check "missing source: 'No such file or directory', not 'not a directory'" \
	bash -c "'$MKCRAMFS' '$d/nonexistent' '$d/o.img' 2> '$d/err' > /dev/null; [ \$? -eq 8 ] && cat '$d/err' &&
	grep -q 'No such file or directory' '$d/err' && ! grep -q 'not a directory' '$d/err'"
check "no arguments: usage, exit 16" status_and_says 16 "usage" "$MKCRAMFS"
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$d/wide"
	for i in 1 2 3 4 5; do echo $i > "$d/wide/f$i"; done
	chown 70000:300 "$d/wide"/f*
	check "five files with wide owners: one uid warning and one gid warning, naming the first" \
		bash -c "'$MKCRAMFS' '$d/wide' '$d/o.img' 2> '$d/err' > /dev/null; cat '$d/err';
		[ \$(grep -c 'uid' '$d/err') = 1 ] && [ \$(grep -c 'gid' '$d/err') = 1 ] &&
		grep -q '/f1: uid 70000 .*4 more' '$d/err'"
else
	skip "wide owners need root to chown"
fi

# The image goes to a temporary file beside the output, renamed when whole.
mkdir -p "$d/out" "$d/big"
head -c 200000 /dev/urandom > "$d/big/random"
check "a write cut short (ulimit -f 40): exit 8, names the output, no file and no temporary left" \
	bash -c "ulimit -f 40; '$MKCRAMFS' '$d/big' '$d/out/new.img' > /dev/null 2> '$d/err'; rc=\$?;
	cat '$d/err'; ls -A '$d/out'; [ \$rc -eq 8 ] && grep -q 'out/new.img: File too large' '$d/err' &&
	[ -z \"\$(ls -A '$d/out')\" ]"
echo old > "$d/out/old.img"
check "a write cut short leaves an existing output as it was" \
	bash -c "ulimit -f 40; '$MKCRAMFS' '$d/big' '$d/out/old.img' > /dev/null 2>&1; ls -A '$d/out';
	[ \"\$(cat '$d/out/old.img')\" = old ] && [ \"\$(ls -A '$d/out')\" = old.img ]"
# An output that cannot be made is said before the tree is read: this tree
# holds a file the format refuses, which the scan would report first.
truncate -s $((16 * 1024 * 1024)) "$d/big/huge"
check "an output in a missing directory: refused before the tree is read" \
	status_and_says 8 "nodir/o.img: No such file or directory" "$MKCRAMFS" "$d/big" "$d/nodir/o.img"
rm "$d/big/huge"
ln -s old.img "$d/out/link"
check "outputs that are no plain file: a device written in place, a symlink's file replaced" \
	bash -c "'$MKCRAMFS' '$d/ok' /dev/null > /dev/null && [ -c /dev/null ] &&
	'$MKCRAMFS' '$d/ok' '$d/out/link' > /dev/null && [ -L '$d/out/link' ] &&
	'$CRAMFSCK' '$d/out/old.img' && [ \"\$(ls -A '$d/out' | tr '\n' ' ')\" = 'link old.img ' ]"
