#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cramfs_xip builds only for kernels with 4 KiB pages, the image format's
# block size, and says so before compiling anything: the #error in
# fs/cramfs_xip/internal.h, which every file includes, stops a build with
# 16 KiB or 64 KiB pages (out of tree too, where Kconfig is never read);
# in a kernel tree Kconfig does not offer CRAMFS_XIP with such pages.
# checks: 3
. "$(dirname "$0")/lib.sh"
d=$WORK/page-size
rm -rf "$d"
mkdir -p "$d"
m=$TOP/fs/cramfs_xip

# The headers preprocessed alone: every kernel header they include is an
# empty stub but two, <linux/version.h> and <asm/page.h> (PAGE_SIZE written
# as the kernel writes it, from the PAGE_SHIFT given).
stub=$d/include
for h in $(sed -n 's/^#include <\(.*\)>$/\1/p' "$m/internal.h" "$m/compat.h" "$m/cramfs_xip_fs.h"); do
	mkdir -p "$stub/$(dirname "$h")"
	: > "$stub/$h"
done
cat > "$stub/linux/version.h" << 'EOF'
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE KERNEL_VERSION(7, 3, 0)
EOF
cat > "$stub/asm/page.h" << 'EOF'
#define __AC(X, Y) (X##Y)
#define _AC(X, Y) __AC(X, Y)
#define PAGE_SIZE (_AC(1, UL) << PAGE_SHIFT)
EOF
preprocess() {
	gcc -E -P -nostdinc -I "$stub" -D"PAGE_SHIFT=$1" -D'IS_ENABLED(x)=1' \
		-DCRAMFS_XIP_HAS_PHYSADDR=1 -DCRAMFS_XIP_HAS_BLOCKDEV=1 -DCRAMFS_XIP_HAS_MTD_READ=1 \
		-DCONFIG_MMU -DCONFIG_BLOCK "$m/internal.h" > /dev/null
}
guard() {
	local shift
	preprocess 12 || { echo "4 KiB pages: refused"; return 1; }
	for shift in 14 16; do
		preprocess $shift 2> "$d/err" && { echo "PAGE_SHIFT $shift: no error"; return 1; }
		grep -q '#error "cramfs_xip: needs 4 KiB pages' "$d/err" ||
			{ echo "PAGE_SHIFT $shift: another error"; cat "$d/err"; return 1; }
	done
}
check "internal.h: 16 KiB and 64 KiB pages stop the build with '#error \"cramfs_xip: needs 4 KiB pages...\"', 4 KiB passes" guard

every_file() {
	local f ok=0
	for f in "$m"/*.c; do
		case $f in *.mod.c) continue ;; esac
		grep -q '^#include "internal.h"$' "$f" || { echo "${f#"$TOP"/} does not include internal.h"; ok=1; }
	done
	return $ok
}
check "every source file of the module includes internal.h, so the guard stops each" every_file

# Kconfig, read by the kconfig of a prepared kernel: CRAMFS_XIP=y stays with
# 4 KiB pages and goes with larger ones, by 6.9's names and by arm64's own.
kb=$(prepared_kernel)
conf=${kb:+$kb/scripts/kconfig/conf}
if [ -z "$conf" ] || [ ! -x "$conf" ]; then
	skip "Kconfig: no prepared vexpress-a9 6.1 kernel with scripts/kconfig/conf (make check builds one)"
	exit 0
fi
# offered SYMBOL: CONFIG_CRAMFS_XIP=y survives olddefconfig beside SYMBOL=y.
offered() {
	local k=$d/kconfig-$1
	mkdir -p "$k"
	{
		printf 'config %s\n\tdef_bool y\n' MTD BLOCK SYSFS MMU "$1"
		printf 'config %s\n\ttristate\n' CRAMFS ZLIB_INFLATE CRC32
		printf 'source "fs/cramfs_xip/Kconfig"\n'
	} > "$k/Kconfig"
	echo CONFIG_CRAMFS_XIP=y > "$k/.config"
	(cd "$k" && srctree=$TOP KCONFIG_CONFIG=.config "$conf" --olddefconfig Kconfig > conf.log 2>&1) ||
		{ cat "$k/conf.log"; return 2; }
	grep -qx CONFIG_CRAMFS_XIP=y "$k/.config"
}
kconfig() {
	local s rc
	for s in ARM64_4K_PAGES PAGE_SIZE_4KB; do
		offered $s || { echo "$s: CRAMFS_XIP not offered"; return 1; }
	done
	for s in ARM64_16K_PAGES ARM64_64K_PAGES PAGE_SIZE_8KB PAGE_SIZE_16KB PAGE_SIZE_64KB; do
		offered $s
		rc=$?
		[ $rc = 1 ] || { echo "$s: CRAMFS_XIP offered (or conf failed: $rc)"; return 1; }
	done
}
check "Kconfig: CRAMFS_XIP with 4 KiB pages only (ARM64_16K/64K_PAGES, PAGE_SIZE_8/16/64KB: not offered)" kconfig
