#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build cramfs_xip.ko against a kernel build, from a copy of the sources, so
# that builds for several kernels never share objects:
#   scripts/build-module.sh KBUILD OUTDIR [VAR=VALUE...]
#                                  -> OUTDIR/fs/cramfs_xip/cramfs_xip.ko
# (and to $KO_COPY, when set)
# (VAR=VALUE: make variables, e.g. CONFIG_CRAMFS_XIP_PHYSADDR=n.) The
# architecture is the kernel build's (its .config), never the environment's.
# Unchanged files are not copied again, so kbuild rebuilds only what changed.
set -euo pipefail
. "$(dirname "$0")/common.sh"
check_args "KBUILD OUTDIR [VAR=VALUE...]" 2 "" "$@"
kb=$1
out=$2
shift 2
mkdir -p "$out/fs/cramfs_xip"
# Suites running side by side may build into the same OUTDIR: one at a time.
exec 9> "$out.lock"
flock 9
sync_file() { cmp -s "$1" "$2" || cp "$1" "$2"; }
sync_file "$CRAMFS_XIP_TOP/Kbuild" "$out/Kbuild"
sync_file "$CRAMFS_XIP_TOP/Makefile" "$out/Makefile"
sync_file "$CRAMFS_XIP_TOP/VERSION" "$out/VERSION"
for f in "$CRAMFS_XIP_TOP"/fs/cramfs_xip/*; do
	case $f in
	*.mod.c | *.o | *.ko | *.mod | *.order | *.symvers) continue ;;
	esac
	[ -f "$f" ] && sync_file "$f" "$out/fs/cramfs_xip/${f##*/}"
done
arch=arm
if grep -qx 'CONFIG_ARM64=y' "$kb/.config"; then
	arch=arm64
elif grep -qx 'CONFIG_RISCV=y' "$kb/.config"; then
	arch=riscv
fi
make -s -C "$out" KDIR="$kb" ARCH=$arch CROSS_COMPILE="$CROSS_COMPILE" "$@" modules
# KO_COPY=FILE: the module copied there before another checkout may build
# into OUTDIR (a cache directory, shared).
if [ -n "${KO_COPY:-}" ]; then
	mkdir -p "$(dirname "$KO_COPY")"
	cp "$out/fs/cramfs_xip/cramfs_xip.ko" "$KO_COPY"
fi
