#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what building and testing need, from Debian's archive, idempotently:
# nothing is downloaded when everything is already there.
#   scripts/setup-host.sh            host packages + guest (armhf) packages
set -euo pipefail
. "$(dirname "$0")/common.sh"

HOST_PKGS="build-essential gcc-arm-linux-gnueabi binutils-arm-linux-gnueabi
	libc6-dev-armel-cross qemu-system-arm linux-source-6.1 linux-source-6.12 device-tree-compiler
	mtd-utils flex bison bc libssl-dev cpio xz-utils gzip zlib1g-dev util-linux-extra
	kmod python3 python3-matplotlib file binutils clang libclang-rt-14-dev
	squashfs-tools erofs-utils dkms"
# armhf packages unpacked (never installed) into the guest's root.
GUEST_PKGS="busybox-static mtd-utils libc6 libiniparser1 liblzo2-2 libselinux1 libssl3
	libuuid1 libzstd1 zlib1g libpcre2-8-0 e2fsprogs"

need_update=0
missing=""
for p in $HOST_PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if ! dpkg --print-foreign-architectures | grep -qx armhf; then
	dpkg --add-architecture armhf
	need_update=1
fi

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
if [ -n "$missing" ]; then
	log "installing:$missing"
	$SUDO apt-get update -q
	need_update=0
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi

guest=$CRAMFS_XIP_CACHE/guest-debs
stamp=$guest/.unpacked-$(echo "$GUEST_PKGS" | md5sum | cut -c1-8)
if [ ! -f "$stamp" ]; then
	[ "$need_update" = 0 ] || $SUDO apt-get update -q
	rm -rf "$guest"
	mkdir -p "$guest/debs" "$guest/root"
	for p in $GUEST_PKGS; do
		(cd "$guest/debs" && apt-get download -q "$p:armhf" 2>&1 | grep -v unsandboxed || true)
	done
	for d in "$guest"/debs/*.deb; do
		dpkg -x "$d" "$guest/root"
	done
	touch "$stamp"
	log "guest packages unpacked in $guest/root"
fi
