#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Add cramfs_xip to a kernel source tree as a built-in option (CONFIG_CRAMFS_XIP),
# so that it can mount the root filesystem. Idempotent; copies nothing that
# could drift: fs/cramfs_xip in the tree is a symlink to this checkout.
#   scripts/add-to-kernel.sh [--fix-mainline-cramfs] KERNEL_SRC [KERNEL_BUILD_DIR]
# A kernel configuration with mainline CONFIG_CRAMFS=y is refused (both
# register the filesystem type "cramfs"). --fix-mainline-cramfs also patches
# mainline cramfs in the tree (fs/cramfs/inode.c) so that it reads the last
# page of a page-multiple file stored for XIP (scripts/patches/mainline-cramfs/,
# the user guide's "Behaviour compared with mainline cramfs"); never needed
# by cramfs_xip, only asked for.
set -euo pipefail
. "$(dirname "$0")/common.sh"
fix=0
if [ "${1:-}" = --fix-mainline-cramfs ]; then
	fix=1
	shift
fi
check_args "[--fix-mainline-cramfs] KERNEL_SRC [KERNEL_BUILD_DIR]" 1 2 "$@"
src=$1
build=${2:-$src}
[ -f "$src/fs/Kconfig" ] && [ -f "$src/fs/Makefile" ] || die "$src is no kernel source tree"
if [ -f "$build/.config" ] && grep -qx 'CONFIG_CRAMFS=y' "$build/.config"; then
	die "$build/.config has CONFIG_CRAMFS=y: mainline cramfs and cramfs_xip both register \"cramfs\"; set CONFIG_CRAMFS=n (or m) first"
fi
link=$src/fs/cramfs_xip
if [ -e "$link" ] && [ ! -L "$link" ]; then
	die "$link exists and is not our symlink: remove it first"
fi
ln -sfn "$CRAMFS_XIP_TOP/fs/cramfs_xip" "$link"
grep -qx 'source "fs/cramfs_xip/Kconfig"' "$src/fs/Kconfig" ||
	sed -i '/^source "fs\/cramfs\/Kconfig"/a source "fs/cramfs_xip/Kconfig"' "$src/fs/Kconfig"
grep -qx 'obj-$(CONFIG_CRAMFS_XIP)		+= cramfs_xip/' "$src/fs/Makefile" ||
	sed -i '/^obj-$(CONFIG_CRAMFS)/a obj-$(CONFIG_CRAMFS_XIP)		+= cramfs_xip/' "$src/fs/Makefile"
grep -qx 'source "fs/cramfs_xip/Kconfig"' "$src/fs/Kconfig" && grep -q 'CONFIG_CRAMFS_XIP' "$src/fs/Makefile" ||
	die "could not add cramfs_xip to $src/fs/Kconfig or fs/Makefile"
log "cramfs_xip added to $src (fs/cramfs_xip -> $CRAMFS_XIP_TOP/fs/cramfs_xip)"
[ $fix = 0 ] || fix_mainline_cramfs "$src/fs/cramfs"
