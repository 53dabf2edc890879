#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Inputs the format cannot hold, and damaged images: clear messages, fsck exit codes.
# checks: 13
. "$(dirname "$0")/lib.sh"
d=$WORK/err
rm -rf "$d"
mkdir -p "$d/longname" "$d/bigfile" "$d/owners" "$d/ok"
long=$(printf 'n%.0s' $(seq 253))
echo x > "$d/longname/$long"
truncate -s $((16 * 1024 * 1024)) "$d/bigfile/huge"
echo x > "$d/ok/file"

check "name over 252 bytes: error naming the file" \
	status_and_says 8 "/$long" "$MKCRAMFS" "$d/longname" "$d/o.img"
check "file of 16 MiB: error naming the file and the limit" \
	status_and_says 8 "/huge: 16777216 bytes is larger" "$MKCRAMFS" "$d/bigfile" "$d/o.img"
if [ "$(id -u)" = 0 ]; then
	echo x > "$d/owners/wide"
	chown 70000:300 "$d/owners/wide"
	check "uid over 16 bits and gid over 8 bits: warnings naming the file" \
		bash -c "'$MKCRAMFS' '$d/owners' '$d/o.img' 2>&1 >/dev/null | grep -q '/wide: uid 70000' &&
		'$MKCRAMFS' '$d/owners' '$d/o.img' 2>&1 >/dev/null | grep -q '/wide: gid 300'"
else
	skip "owner warnings need root to chown"
fi
check "source that is not a directory: error" status_and_says 8 "not a directory" \
	"$MKCRAMFS" "$d/ok/file" "$d/o.img"
check "unknown option: usage, exit 16" status_and_says 16 "usage" "$MKCRAMFS" -Q "$d/ok" "$d/o.img"
check "-R without -X: a usage error (16)" status_and_says 16 "only mean something with -X" \
	"$MKCRAMFS" -R /dev/null "$d/ok" "$d/o.img"

"$MKCRAMFS" "$d/ok" "$d/good.img" > /dev/null
check "good image: cramfsck exit 0" "$CRAMFSCK" "$d/good.img"
corrupt() {	# corrupt OFFSET BYTE OUT: a copy of good.img with one byte set
	cp "$d/good.img" "$3"
	printf "$(printf '\\%03o' "$2")" | dd of="$3" bs=1 seek="$1" conv=notrunc status=none
}
corrupt 0 0 "$d/badmagic.img"
check "bad magic: exit 4, says so" status_and_says 4 "bad magic" "$CRAMFSCK" "$d/badmagic.img"
size=$(stat -c %s "$d/good.img")
corrupt $((size - 100)) 255 "$d/badcrc.img"
check "damaged data: CRC mismatch, exit 4" status_and_says 4 "CRC mismatch" "$CRAMFSCK" "$d/badcrc.img"
head -c 2048 "$d/good.img" > "$d/truncated.img"
check "truncated image: exit 4, says the size" status_and_says 4 "larger than the" \
	"$CRAMFSCK" "$d/truncated.img"
corrupt 10 255 "$d/badflags.img"
check "unknown feature flags: exit 4" status_and_says 4 "unsupported feature flags" \
	"$CRAMFSCK" "$d/badflags.img"
check "missing image: exit 8" status_and_says 8 "No such file" "$CRAMFSCK" "$d/nonexistent.img"
check "no arguments: usage, exit 16" status_and_says 16 "usage" "$CRAMFSCK"
