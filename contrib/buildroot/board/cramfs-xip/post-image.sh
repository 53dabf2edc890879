#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Buildroot post-image script: BINARIES_DIR/rootfs.cramfs-xip, an image whose
# programs run in place, from BINARIES_DIR/rootfs.tar (BR2_TARGET_ROOTFS_TAR:
# the root filesystem with its owners and device nodes), with
# BR2_PACKAGE_HOST_CRAMFS_XIP's mkcramfs. Buildroot's own cramfs type
# (BR2_TARGET_ROOTFS_CRAMFS) runs cramfs-tools' mkcramfs instead.
#   BR2_ROOTFS_POST_IMAGE_SCRIPT="$(BR2_EXTERNAL_CRAMFS_XIP_PATH)/board/cramfs-xip/post-image.sh"
#   BR2_ROOTFS_POST_SCRIPT_ARGS="-L -X -X"   (mkcramfs's options; this default:
#   little-endian, XIP with an MMU; -B for big-endian, one -X without an MMU)
set -eu
usage="usage: post-image.sh BINARIES_DIR [MKCRAMFS_OPTION...] (HOST_DIR in the environment)"
case ${1:-} in
--help) echo "$usage"; exit 0 ;;
'') echo "$usage" >&2; exit 1 ;;
esac
bin=$1
shift
[ $# -gt 0 ] || set -- -L -X -X
: "${HOST_DIR:?post-image.sh: HOST_DIR not set (Buildroot sets it)}"
[ -f "$bin/rootfs.tar" ] || { echo "post-image.sh: $bin/rootfs.tar missing: set BR2_TARGET_ROOTFS_TAR=y" >&2; exit 1; }
[ -x "$HOST_DIR/bin/mkcramfs" ] || { echo "post-image.sh: $HOST_DIR/bin/mkcramfs missing: set BR2_PACKAGE_HOST_CRAMFS_XIP=y" >&2; exit 1; }
fakeroot=$HOST_DIR/bin/fakeroot
[ -x "$fakeroot" ] || fakeroot=fakeroot
tmp=$(mktemp -d "${BUILD_DIR:-${TMPDIR:-/tmp}}/cramfs-xip.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/root"
# Unpacked and packed in one fakeroot session, so owners and device nodes survive.
"$fakeroot" -- sh -c 'tar -xpf "$1" -C "$2" && shift 2 && exec "$@"' sh \
	"$bin/rootfs.tar" "$tmp/root" \
	"$HOST_DIR/bin/mkcramfs" "$@" "$tmp/root" "$bin/rootfs.cramfs-xip"
