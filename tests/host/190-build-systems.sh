#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mkcramfs as the build systems call it, with cramfs-tools' options (what
# Buildroot's host-cramfs is): Buildroot's fs/cramfs runs mkcramfs -L or -B,
# with -X for XIP, and -X -X on an MMU; a Yocto layer for an XIP board runs
# mkcramfs -L -X. Each image checks, has the byte order asked for, and holds
# BusyBox's text in place where XIP was asked for; -q, -x and -E (util-linux
# has -E too) do what cramfs-tools does.
# checks: 13
. "$(dirname "$0")/lib.sh"
d=$WORK/buildsys
rm -rf "$d"
mkdir -p "$d/tree/bin" "$d/tree/etc"
bb=$(busybox_armhf)
[ -f "$bb" ] || skip_all "armhf BusyBox not unpacked (scripts/setup-host.sh)"
cp "$bb" "$d/tree/bin/busybox"
seq 1 1000 > "$d/tree/etc/numbers"
magic() { od -An -tx1 -N4 "$1" | tr -d ' '; }
# xip_pages IMG: BusyBox's pages stored in place.
xip_pages() { "$CRAMFSCK" --layout "$1" | grep -c '^  /bin/busybox block [0-9]*: xip at'; }

# build NAME OPTIONS...: mkcramfs OPTIONS tree NAME.img, exit 0, and cramfsck passes it.
build() {
	local name=$1
	shift
	"$MKCRAMFS" "$@" "$d/tree" "$d/$name.img" > "$d/$name.out" 2>&1 &&
		"$CRAMFSCK" "$d/$name.img" > /dev/null 2>&1
}
check "Buildroot, little-endian: mkcramfs -L" build l -L
check "... a little-endian image (magic 453dcd28), nothing in place" \
	bash -c "[ $(magic "$d/l.img") = 453dcd28 ] && [ \$('$CRAMFSCK' --layout '$d/l.img' | grep -c ': xip at') = 0 ]"
check "Buildroot, big-endian: mkcramfs -B" bash -c "'$MKCRAMFS' -B '$d/tree' '$d/b.img' > /dev/null"
check "... a big-endian image (magic 28cd3d45) that fsck.cramfs (util-linux) reads" \
	bash -c "[ \$(od -An -tx1 -N4 '$d/b.img' | tr -d ' ') = 28cd3d45 ] && fsck.cramfs '$d/b.img' > /dev/null"
check "Buildroot, XIP with an MMU: mkcramfs -L -X -X" build lxx -L -X -X
check "Buildroot, XIP without an MMU, and a Yocto XIP layer: mkcramfs -L -X" build lx -L -X
check "... both store BusyBox's text in place, the same layout" bash -c \
	"n=\$('$CRAMFSCK' --layout '$d/lxx.img' | grep -c '^  /bin/busybox block [0-9]*: xip at') &&
	 [ \$n -gt 100 ] && cmp '$d/lxx.img' '$d/lx.img'"
chown -R 1000:100 "$d/tree" 2> /dev/null
check "-q: every entry owned by root" bash -c \
	"'$MKCRAMFS' -q '$d/tree' '$d/q.img' > /dev/null && '$CRAMFSCK' -l '$d/q.img' > '$d/q.list' &&
	 [ -s '$d/q.list' ] && awk '/^[-dlcbps]/ && (\$2 != 0 || \$3 != 0) { exit 1 }' '$d/q.list'"
check "-x: extended block pointers without XIP (a block zlib cannot shrink stored plain)" bash -c \
	"head -c 8192 /dev/urandom > '$d/tree/etc/random' && '$MKCRAMFS' -x '$d/tree' '$d/x.img' > '$d/x.out' &&
	 '$CRAMFSCK' '$d/x.img' > /dev/null && grep -q '^mkcramfs: [1-9][0-9]* blocks zlib could not shrink' '$d/x.out'"
rm -f "$d/tree/etc/random"
# An owner wider than the format's 16-bit uid: a warning.
echo '/etc/numbers f 644 70000 0 - - - - -' > "$d/devtable"
check "-E: a warning makes the exit status 8 (and the image is written)" \
	bash -c "'$MKCRAMFS' -E -D '$d/devtable' '$d/tree' '$d/e.img' > /dev/null 2> '$d/e.err'; [ \$? = 8 ] &&
		 grep -q warning '$d/e.err' && '$CRAMFSCK' '$d/e.img' > /dev/null"
check "... without -E, the same warning exits 0" \
	bash -c "'$MKCRAMFS' -D '$d/devtable' '$d/tree' '$d/e.img' > /dev/null 2>&1"
check "-E without warnings: exit 0" build e -E
check "-h: the help, exit 0" bash -c "'$MKCRAMFS' -h | grep -q '^ -B, -L'"
