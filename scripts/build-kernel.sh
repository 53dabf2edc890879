#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) a kernel for one QEMU board from Debian's linux-source package.
#   scripts/build-kernel.sh BOARD [VERSION] [FRAGMENT...]
# Prints the build directory on stdout. The build lives under $CRAMFS_XIP_CACHE and is
# keyed by kernel version, defconfig and config fragments, so an unchanged configuration
# is never rebuilt.
set -euo pipefail
. "$(dirname "$0")/common.sh"

check_args "BOARD [VERSION] [FRAGMENT...]" 1 "" "$@"
board=$1
kver=${2:-$KVER_DEFAULT}
shift $(( $# >= 2 ? 2 : 1 ))
boarddir=$CRAMFS_XIP_TOP/tests/boards/$board
[ -f "$boarddir/board.env" ] || die "unknown board '$board'"
# KARCH: the board's kernel architecture, arm unless board.env says arm64 or
# riscv (with its CROSS_COMPILE).
KARCH=arm
. "$boarddir/board.env"
fragments=("$boarddir/kernel.config")
# A board's options that exist only in some kernel versions (SLOB before 6.4,
# SLUB_TINY after it) are in kernel-VERSION.config beside kernel.config.
[ ! -f "$boarddir/kernel-$kver.config" ] || fragments+=("$boarddir/kernel-$kver.config")
nboard=${#fragments[@]}
for f in "$@"; do
	fragments+=("$(readlink -f "$f")")
done

# One build at a time for every checkout sharing the cache: the source tree,
# its fs/cramfs_xip link and the build directories are shared. The call for a
# base kernel below runs under its caller's lock.
if [ -z "${CRAMFS_XIP_KERNEL_LOCKED:-}" ]; then
	mkdir -p "$CRAMFS_XIP_CACHE"
	exec 9> "$CRAMFS_XIP_CACHE/build.lock"
	flock 9
	export CRAMFS_XIP_KERNEL_LOCKED=1
fi

tarball=$(kernel_tarball "$kver") || die "linux-source-$kver missing: run scripts/setup-host.sh"

# A kernel with more fragments than the board's own is made from the board's
# kernel: a copy of that build, the fragments merged, and an incremental make,
# which rebuilds only what the changed options touch. One with cramfs_xip built
# in is brought up to date every time, since our sources are part of it. The
# source tree always has the fs/cramfs_xip link (scripts/add-to-kernel.sh);
# without CONFIG_CRAMFS_XIP set it changes nothing.
builtin=0
grep -qsx 'CONFIG_CRAMFS_XIP=y' "${fragments[@]}" && builtin=1

# The key covers everything that decides the kernel's bytes.
key=$( { echo "$kver $DEFCONFIG $KERNEL_TARGETS $CROSS_COMPILE $builtin"; stat -c %s "$tarball";
	 cat "${fragments[@]}"; } | sha256sum | cut -c1-12)
src=$CRAMFS_XIP_CACHE/src/linux-source-$kver
out=$CRAMFS_XIP_CACHE/build/$board-$kver-$key

if [ ! -f "$src/.extracted" ]; then
	log "extracting $tarball"
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	touch "$src/.extracted"
fi
"$CRAMFS_XIP_TOP/scripts/add-to-kernel.sh" "$src" >&2

kmake() { make -s -C "$src" O="$out" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" "$@"; }
# make goes by timestamps, which do not tell two checkouts apart (the link
# may have pointed at another one for the last build, whose files were newer
# or older): the kernel is built again, our objects dropped first, only when
# the sources' contents differ from those of its last successful build, which
# .cramfs-xip-src records. A fresh clone of the same sources builds nothing.
builtin_sum() { cat "$CRAMFS_XIP_TOP"/fs/cramfs_xip/{*.[ch],Kconfig,Makefile} | sha256sum | cut -c1-16; }
builtin_build() {
	local sum
	sum=$(builtin_sum)
	[ "$(cat "$out/.cramfs-xip-src" 2>/dev/null)" = "$sum" ] || rm -rf "$out/fs/cramfs_xip"
	rm -f "$out/.cramfs-xip-src"
	kmake -j"$JOBS" $KERNEL_TARGETS >&2
	echo "$sum" > "$out/.cramfs-xip-src"
}
if [ -f "$out/.cramfs-xip-built" ]; then
	if [ $builtin = 1 ] && [ "$(cat "$out/.cramfs-xip-src" 2>/dev/null)" != "$(builtin_sum)" ]; then
		builtin_build
	fi
	echo "$out"
	exit 0
fi
if [ ${#fragments[@]} -gt "$nboard" ]; then
	base=$("$0" "$board" "$kver")
	log "building $board kernel $kver with ${fragments[*]:$nboard}, from $base"
	rm -rf "$out"
	cp -a "$base" "$out"
	rm -f "$out/.cramfs-xip-built"
	(cd "$src" && ARCH="$KARCH" scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" \
		"${fragments[@]}" >/dev/null)
	kmake olddefconfig >&2
	if [ $builtin = 1 ]; then
		builtin_build
	else
		kmake -j"$JOBS" $KERNEL_TARGETS >&2
	fi
	touch "$out/.cramfs-xip-built"
	echo "$out"
	exit 0
fi

log "building $board kernel $kver in $out (key $key)"
mkdir -p "$out"
kmake "$DEFCONFIG" >&2
(cd "$src" && ARCH="$KARCH" scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" \
	"${fragments[@]}" >/dev/null)
kmake olddefconfig >&2
# A fragment line that did not survive olddefconfig is a silent mistake: report it.
for f in "${fragments[@]}"; do
	grep -E '^CONFIG_[A-Z0-9_]+=' "$f" | while IFS= read -r line; do
		grep -qx "$line" "$out/.config" || log "warning: '$line' not in final config"
	done
done
if [ $builtin = 1 ]; then
	builtin_build
else
	kmake -j"$JOBS" $KERNEL_TARGETS >&2
fi
touch "$out/.cramfs-xip-built"
echo "$out"
