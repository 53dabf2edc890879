#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The release: one version, in the file VERSION, and every place that shows
# it agrees (the module's MODULE_VERSION is checked where it is built:
# 191-build-system-commands); make dist's tarball holds every file git
# tracks, nothing else, and builds its tools without the checkout.
# checks: 9
. "$(dirname "$0")/lib.sh"
d=$WORK/release
rm -rf "$d"
mkdir -p "$d"
ver=$(cat "$TOP/VERSION")
one_version() {
	[ "$(wc -l < "$TOP/VERSION")" = 1 ] && [[ $ver =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "VERSION: '$ver'"; return 1; }
}
check "VERSION holds one version, MAJOR.MINOR.PATCH ($ver)" one_version
check "mkcramfs --version and cramfsck --version say $ver" bash -c \
	"[ \"\$('$MKCRAMFS' --version)\" = 'mkcramfs from cramfs-xip $ver' ] &&
	 [ \"\$('$CRAMFSCK' --version)\" = 'cramfsck from cramfs-xip $ver' ]"
th() { grep -qx "\.TH $1 8 \"[0-9]*\" \"cramfs-xip $ver\" \"System Administration\"" "$TOP/Documentation/$2.8" ||
	{ grep '^\.TH' "$TOP/Documentation/$2.8"; return 1; }; }
check "the manual pages' .TH lines say cramfs-xip $ver" eval 'th MKCRAMFS mkcramfs && th CRAMFSCK cramfsck'
dkms_version() {
	grep -qx "PACKAGE_VERSION=\"$ver\"" "$TOP/dkms.conf" || { grep PACKAGE_VERSION "$TOP/dkms.conf"; return 1; }
	# Every cramfs-xip-N.N.N or cramfs-xip/N.N.N the documents show is this one.
	! grep -noE 'cramfs-xip[-/][0-9]+\.[0-9.]*[0-9]' "$TOP/dkms.conf" "$TOP/README.md" "$TOP"/Documentation/*.md |
		grep -v "[-/]$ver\$"
}
check "dkms.conf's PACKAGE_VERSION, and the DKMS commands README and dkms.conf show, are $ver" dkms_version
check "NEWS.md's first release heading is $ver" \
	test "$(grep -m1 '^## ' "$TOP/NEWS.md")" = "## $ver"

# make dist, in a checkout: the files of HEAD.
if [ ! -e "$TOP/.git" ]; then
	for c in "make dist" "its files" "its tools" "its make check and make demo"; do
		skip "$c: not a git checkout (an unpacked tarball)"
	done
	exit 0
fi
tarball=$d/cramfs-xip-$ver.tar.gz
check "make dist DISTDIR=...: cramfs-xip-$ver.tar.gz" \
	eval 'make -C "$TOP" dist DISTDIR="$d" && tar -tzf "$tarball" > "$d/tar.list"'
same_files() {
	git -C "$TOP" ls-tree -r --name-only HEAD | sed "s|^|cramfs-xip-$ver/|" | sort > "$d/git.list"
	grep -v '/$' "$d/tar.list" | sort > "$d/tar.files"
	diff "$d/git.list" "$d/tar.files" && [ "$(wc -l < "$d/git.list")" -gt 100 ]
}
check "the tarball holds every file git tracks in HEAD, under cramfs-xip-$ver/, and nothing else" same_files
tar -xzf "$tarball" -C "$d"
u=$d/cramfs-xip-$ver
unpacked_tools() {
	make -C "$u" tools && [ "$("$u/scripts/mkcramfs" --version)" = "mkcramfs from cramfs-xip $(cat "$u/VERSION")" ] &&
		[ "$(cat "$u/VERSION")" = "$ver" ]
}
check "make -C <unpacked> tools builds tools that say $ver" unpacked_tools
# README's two commands: what they run is there, and the host suite's
# harness works without .git (090-style's file lists included).
readme_commands() {
	grep -q '^make demo' "$TOP/README.md" && grep -q '^make check' "$TOP/README.md" || return 1
	make -n -C "$u" demo > "$d/demo.n" && make -n -C "$u" check > "$d/check.n" || return 1
	local s
	for s in $(grep -ohE '(scripts|tests)/[A-Za-z0-9_./-]+\.sh' "$d/demo.n" "$d/check.n"); do
		[ -x "$u/$s" ] || { echo "$s missing or not executable"; return 1; }
	done
	(cd "$u" && WORK=$d/unpacked-work TOP=$u bash -c '. tests/host/lib.sh; source_files' > "$d/source.list") &&
		diff <(sed "s|^cramfs-xip-$ver/||" "$d/tar.files") <(sort "$d/source.list")
}
check "in the unpacked tarball, make demo and make check name scripts it holds, and the tests list its files without git" \
	readme_commands
