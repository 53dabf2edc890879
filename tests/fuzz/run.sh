#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzz the shared image walker with libFuzzer, ASan and UBSan.
#   tests/fuzz/run.sh [SECONDS]      (make fuzz FUZZ_SECONDS=N)
# Seeds: images of the test trees. Crashing inputs land in build-tests/fuzz/
# and belong in tests/fuzz/regressions/, which `make check` replays.
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"
top=$CRAMFS_XIP_TOP
secs=${1:-60}
out=$top/build-tests/fuzz
mkdir -p "$out/corpus" "$out/seeds"
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$top/fs/cramfs_xip" -I"$top/scripts" -o "$out/fuzz_image" \
	"$top/tests/fuzz/fuzz_image.c" "$top/scripts/image.c" -lz
make -s -C "$top" tools
if [ ! -f "$out/seeds/.made" ]; then
	python3 "$top/tests/lib/mktrees.py" "$out/trees" 2>/dev/null
	for t in tiny types; do
		"$top/scripts/mkcramfs" "$out/trees/$t" "$out/seeds/$t.img" > /dev/null
		"$top/scripts/mkcramfs" -X -z -N big "$out/trees/$t" "$out/seeds/$t-be.img" > /dev/null
	done
	python3 "$top/tests/lib/badimages.py" tinyelf "$out/trees/tiny/tiny-elf"
	"$top/scripts/mkcramfs" -X "$out/trees/tiny" "$out/seeds/tiny-xip.img" > /dev/null
	touch "$out/seeds/.made"
fi
cd "$out"
"$out/fuzz_image" -max_total_time="$secs" -max_len=65536 -print_final_stats=1 \
	-artifact_prefix="$out/" corpus seeds "$top/tests/fuzz/regressions" 2>&1 | tail -n 25
