#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: build everything, boot the vexpress-a9 board from a root
# filesystem in NOR flash served by cramfs_xip (built into the kernel), and
# show from inside the guest init's XIP mapping and MemFree/Cached.
# make demo BOARD=mps2-an385: the tiny system instead (Cortex-M3, no MMU):
# the kernel executing in place from flash, the root image in flash, in
# mem=768K; shows where each piece runs from and MemTotal/MemFree.
set -euo pipefail
# KVER=7.3: the kernel version (6.1 unless given).
case ${BOARD:-vexpress-a9} in
vexpress-a9) exec "$(dirname "$0")/guest-vexpress-a9-root.sh" --demo ${KVER:+"$KVER"} ;;
mps2-an385) exec "$(dirname "$0")/guest-mps2-an385-tiny.sh" --demo ${KVER:+"$KVER"} ;;
*) echo "demo: unknown BOARD '$BOARD' (vexpress-a9 or mps2-an385)" >&2; exit 2 ;;
esac
