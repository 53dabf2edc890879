#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests: run each tests/host/NNN-*.sh; each prints PASS:/FAIL:/SKIP: lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
make -s -C "$top" tools >&2 || { echo "FAIL: host: make tools"; exit 1; }
export TOP=$top MKCRAMFS=$top/scripts/mkcramfs CRAMFSCK=$top/scripts/cramfsck
export WORK=$top/build-tests/host
rm -rf "$WORK"
mkdir -p "$WORK"
for t in "$here"/[0-9]*.sh; do
	bash "$t"
done
