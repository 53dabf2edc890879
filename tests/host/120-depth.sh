#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A 1,100-deep tree: what mkcramfs builds, cramfsck checks, lists and
# extracts, and mkfs.cramfs's image of it too. No depth limit in either tool.
# And 1,000 levels of the longest names: extraction keeps one path, not one
# per level (that was 126 MB for this 260 KB image). And a million levels:
# the check is linear in depth (it measured each directory's whole path:
# 18 s for this 16 MB image, against 0.2).
# checks: 8
. "$(dirname "$0")/lib.sh"
d=$WORK/depth
rm -rf "$d"
mkdir -p "$d/tree"
deep=$d/tree$(printf '/d%.0s' $(seq 1100))
mkdir -p "$deep"
echo bottom > "$deep/file"
ln -s ../file "$deep/link"
check "mkcramfs builds the 1,100-deep tree" "$MKCRAMFS" "$d/tree" "$d/ours.img"
check "cramfsck finds it clean" "$CRAMFSCK" "$d/ours.img"
# manifest.sh takes seconds per entry this deep: find alone is enough.
tree_list() { (cd "$1" && find . -printf '%y %m %s %l %p\n' | LC_ALL=C sort); }
check "cramfsck lists all 1,103 entries, the deepest file among them" \
	bash -c "'$CRAMFSCK' -l '$d/ours.img' > '$d/list' && [ \$(grep -c '^[-dl]' '$d/list') = 1103 ] &&
	grep -q '/d/d/.*/d/file\$' '$d/list'"
check "cramfsck extracts it to the same tree" \
	bash -c "'$CRAMFSCK' -x '$d/out' '$d/ours.img' && cmp '$deep/file' '$d/out${deep#$d/tree}/file' &&
	diff <($(declare -f tree_list); tree_list '$d/tree') <($(declare -f tree_list); tree_list '$d/out')"
if command -v mkfs.cramfs > /dev/null; then
	check "cramfsck accepts mkfs.cramfs's image of it, as fsck.cramfs does" \
		bash -c "mkfs.cramfs '$d/tree' '$d/theirs.img' > /dev/null && fsck.cramfs '$d/theirs.img' &&
		'$CRAMFSCK' '$d/theirs.img'"
else
	skip "mkfs.cramfs not installed"
fi
python3 "$TOP/tests/fuzz/mkhostile.py" deep 1000 "$d/long.img"
check "1,000 levels of 252-byte names: clean" "$CRAMFSCK" "$d/long.img"
check "... and extracted within 40 MiB of address space" \
	bash -c "(ulimit -v 40960 && '$CRAMFSCK' -x '$d/long' '$d/long.img') &&
	[ \$(find '$d/long' -type f -name file -size 6c | wc -l) = 1 ]"
python3 "$TOP/tests/fuzz/mkhostile.py" chain 1000000 "$d/chain.img"
check "a 1,000,000-deep chain of directories: clean, checked in under 6 s" \
	timeout 6 "$CRAMFSCK" "$d/chain.img"
rm -f "$d/chain.img"
