#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The fuzz targets (tests/fuzz/), built with ASan and UBSan, over every input
# saved in tests/fuzz/regressions/ and over the hostile extraction corpus:
# no crash, no sanitizer report, nothing changed outside the extraction target.
# checks: 4
. "$(dirname "$0")/lib.sh"
command -v clang > /dev/null || skip_all "clang not installed"
d=$WORK/fuzz-replay
rm -rf "$d"
mkdir -p "$d/inputs"
export CRAMFS_XIP_FUZZ_DIR=$d/scratch
for t in image extract; do
	check "fuzz_$t builds" clang -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -I"$TOP/fs/cramfs_xip" -I"$TOP/scripts" \
		-o "$d/fuzz_$t" "$TOP/tests/fuzz/fuzz_$t.c" "$TOP/scripts/image.c" -lz
done
python3 "$TOP/tests/fuzz/mkhostile.py" "$d/inputs" "$CRAMFS_XIP_FUZZ_DIR/outside"
rm -f "$d/inputs"/*.expect
find "$TOP/tests/fuzz/regressions" -type f ! -name README.md -exec cp {} "$d/inputs/" \;
n=$(find "$d/inputs" -type f | wc -l)
for t in image extract; do
	check "fuzz_$t: $n regression and hostile inputs replay cleanly" \
		bash -o pipefail -c "'$d/fuzz_$t' '$d/inputs'/* 2>&1 | tail -n 30"
done
