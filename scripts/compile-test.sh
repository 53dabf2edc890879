#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile-test the module against a kernel source tree the way a user would:
# configure it for the vexpress-a9 board (vexpress_defconfig plus the board's
# fragment: MTD, modules), make modules_prepare, build cramfs_xip.ko, and fail
# on any compiler warning. For kernel trees that are not in Debian (4.19,
# 5.10, 5.15: see README.md); modpost may warn that symbols are unresolved in
# a tree with no vmlinux, which is expected and not counted (KBUILD_MODPOST_WARN:
# from 6.x on, modpost makes them errors otherwise). Further config
# fragments are merged last (tests/boards/vexpress-a9/nomtd.config: a kernel
# without MTD).
#   scripts/compile-test.sh KERNEL_SRC BUILD_DIR [FRAGMENT...]
set -euo pipefail
. "$(dirname "$0")/common.sh"
src=$(readlink -f "${1:?usage: compile-test.sh KERNEL_SRC BUILD_DIR}")
out=$(readlink -m "${2:?usage: compile-test.sh KERNEL_SRC BUILD_DIR}")
shift 2
fragments=()
for f in "$@"; do
	fragments+=("$(readlink -f "$f")")
done
cc=arm-linux-gnueabi-
kmake() { make -s -C "$src" O="$out" ARCH=arm CROSS_COMPILE=$cc "$@"; }
if [ ! -f "$out/.cramfs-xip-prepared" ]; then
	mkdir -p "$out"
	kmake vexpress_defconfig
	(cd "$src" && ARCH=arm scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" \
		"$CRAMFS_XIP_TOP/tests/boards/vexpress-a9/kernel.config" "${fragments[@]}" > /dev/null)
	kmake olddefconfig
	kmake -j"$JOBS" modules_prepare
	touch "$out/.cramfs-xip-prepared"
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
log "$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$src/Makefile" | paste -sd.): cramfs_xip.ko built without warnings (also with $slim)"
