#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile-test the module against a kernel source tree the way a user would:
# configure it (a defconfig plus a fragment: MTD, modules), make
# modules_prepare, build cramfs_xip.ko, and fail on any compiler warning.
# modpost may warn that symbols are unresolved in a tree with no vmlinux,
# which is expected and not counted (KBUILD_MODPOST_WARN: from 6.x on,
# modpost makes them errors otherwise). Further config fragments are merged
# last (tests/boards/vexpress-a9/nomtd.config: a kernel without MTD).
#   scripts/compile-test.sh KERNEL_SRC BUILD_DIR [FRAGMENT...]
#   scripts/compile-test.sh VERSION BUILD_DIR [FRAGMENT...]
# KERNEL_SRC: a kernel source tree (4.19, 5.10, 5.15, 6.6, 6.18, 7.1: public
# snapshots, see Documentation/testing.md). VERSION: a Debian linux-source
# package (6.1, 6.12, 7.2, 7.3), fetched by scripts/setup-host.sh if it is
# not here yet and unpacked beside BUILD_DIR (BUILD_DIR.src).
# KARCH in the environment: the architecture, each with its compiler and
# configuration (fragments in scripts/compile-test/):
#   arm (the default)  arm-linux-gnueabi-    vexpress_defconfig + tests/boards/vexpress-a9/kernel.config
#   arm64              aarch64-linux-gnu-    defconfig + arm64.config (4 KiB pages)
#   riscv              riscv64-linux-gnu-    nommu_virt_defconfig + riscv.config (no MMU)
# A BUILD_DIR is prepared for one architecture.
set -euo pipefail
. "$(dirname "$0")/common.sh"
check_args "KERNEL_SRC|VERSION BUILD_DIR [FRAGMENT...]" 2 "" "$@"
KARCH=${KARCH:-arm}
case $KARCH in
arm) CROSS_COMPILE=arm-linux-gnueabi- defconfig=vexpress_defconfig
	base=$CRAMFS_XIP_TOP/tests/boards/vexpress-a9/kernel.config ;;
arm64) CROSS_COMPILE=aarch64-linux-gnu- defconfig=defconfig
	base=$CRAMFS_XIP_TOP/scripts/compile-test/arm64.config ;;
riscv) CROSS_COMPILE=riscv64-linux-gnu- defconfig=nommu_virt_defconfig
	base=$CRAMFS_XIP_TOP/scripts/compile-test/riscv.config ;;
*) die "KARCH=$KARCH: arm, arm64 or riscv" ;;
esac
# build-module.sh takes the compiler from here (the architecture from the
# tree's .config).
export CROSS_COMPILE
out=$(readlink -m "$2")
if [ ! -d "$1" ] && [[ $1 =~ ^[0-9]+\.[0-9]+$ ]]; then
	kver=$1
	# The suite of each Debian kernel source bookworm lacks.
	case $kver in
	7.2) suite=sid ;;
	7.3) suite=trixie-backports ;;
	*) suite= ;;
	esac
	if ! kernel_tarball "$kver" > /dev/null; then
		[ -n "$suite" ] || die "linux-source-$kver: not installed and no suite known for it"
		EXTRA_KERNELS="$kver $suite" "$CRAMFS_XIP_TOP/scripts/setup-host.sh"
	fi
	src=$out.src
	if [ ! -f "$src/.extracted" ]; then
		rm -rf "$src"
		mkdir -p "$src"
		tar -xJf "$(kernel_tarball "$kver")" -C "$src" --strip-components=1
		touch "$src/.extracted"
	fi
else
	src=$(readlink -f "$1")
fi
shift 2
fragments=()
for f in "$@"; do
	fragments+=("$(readlink -f "$f")")
done
kmake() { make -s -C "$src" O="$out" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" "$@"; }
# The marker holds the architecture (empty: arm, as before it did).
marker=$out/.cramfs-xip-prepared
if [ -f "$marker" ]; then
	prepared=$(cat "$marker")
	[ "${prepared:-arm}" = "$KARCH" ] || die "$out is prepared for ${prepared:-arm}, not $KARCH"
else
	mkdir -p "$out"
	kmake "$defconfig"
	(cd "$src" && ARCH=$KARCH scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" \
		"$base" "${fragments[@]}" > /dev/null)
	kmake olddefconfig
	kmake -j"$JOBS" modules_prepare
	echo "$KARCH" > "$marker"
fi
mod=$out/cramfs-xip-module
"$CRAMFS_XIP_TOP/scripts/build-module.sh" "$out" "$mod" KBUILD_MODPOST_WARN=1 2> "$out/module-build.log" || {
	cat "$out/module-build.log"
	die "module build failed against $src"
}
if grep -E 'warning:|error:' "$out/module-build.log" | grep -v '^WARNING: modpost'; then
	die "compiler warnings against $src"
fi
# Again with every medium that can be left out left out (a kernel without MTD
# keeps physaddr=).
slim="CONFIG_CRAMFS_XIP_BLOCKDEV=n CONFIG_CRAMFS_XIP_MTD_READ=n"
grep -q '^CONFIG_MTD=[ym]' "$out/.config" && slim="$slim CONFIG_CRAMFS_XIP_PHYSADDR=n"
# shellcheck disable=SC2086
"$CRAMFS_XIP_TOP/scripts/build-module.sh" "$out" "$mod-slim" KBUILD_MODPOST_WARN=1 $slim 2> "$out/module-build-slim.log" || {
	cat "$out/module-build-slim.log"
	die "module build ($slim) failed against $src"
}
if grep -E 'warning:|error:' "$out/module-build-slim.log" | grep -v '^WARNING: modpost'; then
	die "compiler warnings ($slim) against $src"
fi
log "$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$src/Makefile" | paste -sd.) $KARCH: cramfs_xip.ko built without warnings (also with $slim)"
