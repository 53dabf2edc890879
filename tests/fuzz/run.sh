#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzz the host tools' image code with libFuzzer, ASan and UBSan:
#   fuzz_image    the walker and block decoder (scripts/image.c)
#   fuzz_extract  extraction, asserting nothing outside the target changes
#   tests/fuzz/run.sh [SECONDS]      (make fuzz FUZZ_SECONDS=N; each target gets N)
# Seeds: images of the test trees, and for extraction the hostile images of
# tests/fuzz/mkhostile.py. Every input in tests/fuzz/regressions/ is replayed
# through both targets first (and by tests/host/130-fuzz-replay.sh); crashing
# inputs land in build-tests/fuzz/ and belong in that folder.
set -euo pipefail
. "$(dirname "$0")/../../scripts/common.sh"
top=$CRAMFS_XIP_TOP
secs=${1:-60}
out=$top/build-tests/fuzz
regressions=$top/tests/fuzz/regressions
export CRAMFS_XIP_FUZZ_DIR=$out/extract-scratch
mkdir -p "$out/corpus" "$out/corpus-extract" "$out/seeds" "$out/seeds-extract"
for t in image extract; do
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-I"$top/fs/cramfs_xip" -I"$top/scripts" -o "$out/fuzz_$t" \
		"$top/tests/fuzz/fuzz_$t.c" "$top/scripts/image.c" -lz
done
make -s -C "$top" tools
if [ ! -f "$out/seeds/.made" ]; then
	python3 "$top/tests/lib/mktrees.py" "$out/trees" 2>/dev/null
	for t in tiny types; do
		"$top/scripts/mkcramfs" "$out/trees/$t" "$out/seeds/$t.img" > /dev/null
		"$top/scripts/mkcramfs" -X -z -N big "$out/trees/$t" "$out/seeds/$t-be.img" > /dev/null
	done
	python3 "$top/tests/lib/badimages.py" tinyelf "$out/trees/tiny/tiny-elf"
	"$top/scripts/mkcramfs" -X "$out/trees/tiny" "$out/seeds/tiny-xip.img" > /dev/null
	python3 "$top/tests/fuzz/mkhostile.py" "$out/seeds-extract" "$CRAMFS_XIP_FUZZ_DIR/outside"
	rm -f "$out/seeds-extract"/*.expect
	cp "$out/seeds/tiny.img" "$out/seeds/tiny-xip.img" "$out/seeds-extract/"
	touch "$out/seeds/.made"
fi
cd "$out"
replay=$(find "$regressions" -type f ! -name README.md | sort)
for t in image extract; do
	if [ -n "$replay" ]; then
		echo "fuzz_$t: replaying $(echo "$replay" | wc -l) regression inputs"
		# shellcheck disable=SC2086
		"$out/fuzz_$t" $replay 2>&1 | tail -n 3
	fi
done
"$out/fuzz_image" -max_total_time="$secs" -max_len=65536 -print_final_stats=1 \
	-artifact_prefix="$out/" corpus seeds "$regressions" 2>&1 | tail -n 25
"$out/fuzz_extract" -max_total_time="$secs" -max_len=65536 -print_final_stats=1 \
	-artifact_prefix="$out/extract-" corpus-extract seeds-extract "$regressions" 2>&1 | tail -n 25
