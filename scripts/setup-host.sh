#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what building and testing need, from Debian's archive, idempotently:
# nothing is downloaded when everything is already there.
#   scripts/setup-host.sh    host packages, guest (armhf) packages, and the kernel
#                            sources bookworm does not carry (EXTRA_KERNELS)
#
# 'apt-get update' exits 100 when a single index could not be fetched (seen for
# days: "File has unexpected size ... Mirror sync in progress?" on one armhf
# index) although it keeps the lists it had and every package still installs.
# So an update is retried, then taken as a warning; what decides is whether
# the packages themselves install, and only that failure stops us.
set -euo pipefail
. "$(dirname "$0")/common.sh"
check_args "" 0 0 "$@"

HOST_PKGS="build-essential gcc-arm-linux-gnueabi binutils-arm-linux-gnueabi
	libc6-dev-armel-cross qemu-system-arm linux-source-6.1 linux-source-6.12 device-tree-compiler
	mtd-utils flex bison bc libssl-dev cpio xz-utils gzip zlib1g-dev util-linux-extra
	kmod python3 python3-matplotlib file binutils clang libclang-rt-14-dev
	squashfs-tools erofs-utils dkms gdb-multiarch gcc-riscv64-linux-gnu binutils-riscv64-linux-gnu
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-system-misc"
# armhf packages unpacked (never installed) into the guest's root.
GUEST_PKGS="busybox-static mtd-utils libc6 libiniparser1 liblzo2-2 libselinux1 libssl3
	libuuid1 libzstd1 zlib1g libpcre2-8-0 e2fsprogs"
# arm64 packages for the arm64 guest's root, unpacked the same way.
GUEST_PKGS_ARM64="busybox-static"
# Kernel sources from a newer Debian suite: "VERSION SUITE" pairs. The .deb is
# fetched with a private apt configuration (the machine's sources stay as they
# are) and unpacked under the cache, where kernel_tarball finds it.
EXTRA_KERNELS=${EXTRA_KERNELS-"7.3 trixie-backports"}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

APT_GET=${APT_GET:-apt-get}
APT_TRIES=${APT_TRIES:-3}
APT_RETRY_DELAY=${APT_RETRY_DELAY:-10}
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

# apt-get options of the update and of the retries (a private configuration below).
apt_opts=()
# apt_update: an update, retried; never fatal.
apt_update() {
	local try
	for ((try = 1; try <= APT_TRIES; try++)); do
		$SUDO "$APT_GET" "${apt_opts[@]}" update -q && return 0
		if [ "$try" -lt "$APT_TRIES" ]; then
			log "apt-get update failed (try $try of $APT_TRIES); again in ${APT_RETRY_DELAY}s"
			sleep "$APT_RETRY_DELAY"
		fi
	done
	log "warning: apt-get update still reports errors after $APT_TRIES tries;" \
		"going on with the package lists it has"
}

# apt_retry WHAT CMD...: CMD, once more after an update when it fails (a list
# that was stale can name a file the mirror no longer has); dies naming WHAT.
apt_retry() {
	local what=$1
	shift
	"$@" && return 0
	log "$what failed; updating the package lists and trying once more"
	apt_update
	"$@" || die "$what failed: the packages above could not be had from Debian's archive" \
		"(see apt-get's messages; a mirror in the middle of a sync passes within hours)"
}

need_update=0
for a in armhf arm64; do
	if ! dpkg --print-foreign-architectures | grep -qx $a; then
		$SUDO dpkg --add-architecture $a
		need_update=1
	fi
done

missing=""
for p in $HOST_PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	log "installing:$missing"
	apt_update
	need_update=0
	# shellcheck disable=SC2086 # one word per package
	apt_retry "installing$missing" $SUDO env DEBIAN_FRONTEND=noninteractive \
		"$APT_GET" install -y -q --no-install-recommends $missing
fi

# unpack_guest ARCH DIR PACKAGES: the packages of ARCH, downloaded and
# unpacked under DIR/root (never installed); again only when the list changes.
unpack_guest() {
	local arch=$1 guest=$2 pkgs=$3 stamp d
	stamp=$guest/.unpacked-$(echo "$pkgs" | md5sum | cut -c1-8)
	[ ! -f "$stamp" ] || return 0
	[ "$need_update" = 0 ] || { apt_update; need_update=0; }
	rm -rf "$guest"
	mkdir -p "$guest/debs" "$guest/root"
	download_guest() {
		local p
		for p in $pkgs; do
			ls "$guest/debs/${p}_"*_"$arch".deb > /dev/null 2>&1 && continue
			(cd "$guest/debs" && "$APT_GET" download -q "$p:$arch") || return 1
		done
	}
	apt_retry "downloading the guest packages ($arch)" download_guest
	for d in "$guest"/debs/*.deb; do
		dpkg -x "$d" "$guest/root"
	done
	touch "$stamp"
	log "guest packages ($arch) unpacked in $guest/root"
}
unpack_guest armhf "$CRAMFS_XIP_CACHE/guest-debs" "$GUEST_PKGS"
unpack_guest arm64 "$CRAMFS_XIP_CACHE/guest-debs-arm64" "$GUEST_PKGS_ARM64"

# Kernel sources from another suite: one download of linux-source-VERSION,
# unpacked where kernel_tarball looks. apt's state for it lives in the cache.
set -- $EXTRA_KERNELS
while [ $# -ge 2 ]; do
	kver=$1 suite=$2
	shift 2
	[ -n "$(kernel_tarball "$kver")" ] && continue
	state=$CRAMFS_XIP_CACHE/apt-$suite
	mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/debs"
	echo "deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"$DEBIAN_MIRROR $suite main" > "$state/sources.list"
	apt_opts=(-o Dir::Etc::sourcelist="$state/sources.list"
		-o Dir::Etc::sourceparts=/nonexistent -o Dir::State::Lists="$state/lists"
		-o Dir::Cache="$state/cache")
	SUDO=""
	log "fetching linux-source-$kver from Debian's $suite"
	fetch_source() {
		rm -f "$state/debs"/linux-source-"$kver"_*.deb
		(cd "$state/debs" && "$APT_GET" "${apt_opts[@]}" download -q "linux-source-$kver")
	}
	# The private lists start empty: update before the first try.
	apt_update
	apt_retry "downloading linux-source-$kver from $suite" fetch_source
	rm -rf "$state/unpacked"
	dpkg -x "$state/debs"/linux-source-"$kver"_*.deb "$state/unpacked"
	[ -f "$state/unpacked/usr/src/linux-source-$kver.tar.xz" ] ||
		die "linux-source-$kver from $suite holds no usr/src/linux-source-$kver.tar.xz"
	mkdir -p "$CRAMFS_XIP_CACHE/kernel-sources"
	mv "$state/unpacked/usr/src/linux-source-$kver.tar.xz" "$CRAMFS_XIP_CACHE/kernel-sources/"
	rm -rf "$state/unpacked" "$state/debs"
	log "linux-source-$kver in $CRAMFS_XIP_CACHE/kernel-sources"
done
