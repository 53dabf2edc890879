#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: build everything, boot the vexpress-a9 board from a root
# filesystem in NOR flash served by cramfs_xip (built into the kernel), and
# show from inside the guest init's XIP mapping and MemFree/Cached.
set -euo pipefail
exec "$(dirname "$0")/guest-vexpress-a9-root.sh" --demo "$@"
