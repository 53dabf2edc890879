#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: build everything, boot the vexpress-a9 board, show cramfs_xip at work.
set -euo pipefail
exec "$(dirname "$0")/guest-vexpress-a9.sh" --demo "$@"
