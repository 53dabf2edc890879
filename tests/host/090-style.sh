#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Kernel coding style (checkpatch.pl from linux-source-6.1) on every C file,
# and an SPDX line on every file we ship.
# checks: 3
. "$(dirname "$0")/lib.sh"
tarball=/usr/src/linux-source-6.1.tar.xz
cp_dir=$WORK/../checkpatch-6.1
if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	rm -rf "$cp_dir"
	mkdir -p "$cp_dir"
	tar -xJf "$tarball" -C "$cp_dir" --strip-components=1 linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt linux-source-6.1/scripts/const_structs.checkpatch >&2
fi
checkpatch() { (cd "$cp_dir" && ./scripts/checkpatch.pl --no-tree --terse --no-summary -f "$@"); }

# checkpatch.pl is there and finds what it should: a missing or broken one
# would find no fault in our files either.
printf '// SPDX-License-Identifier: GPL-2.0\nint f(int x)\n{\n        return x ;\n}\n' > "$WORK/bad-style.c"
checkpatch_works=no
finds_known_faults() {
	checkpatch "$WORK/bad-style.c" > "$WORK/bad-style.out" 2>&1
	cat "$WORK/bad-style.out"
	grep -q 'ERROR: code indent should use tabs' "$WORK/bad-style.out" &&
		grep -q 'WARNING: space prohibited before semicolon' "$WORK/bad-style.out" &&
		checkpatch_works=yes
}
check "checkpatch.pl (from $tarball) runs and flags a badly indented file" finds_known_faults

# The compat header is where version checks and old APIs are supposed to be,
# and the host tools define the kernel's attribute spellings for themselves.
allowed='compat.h:.*(LINUX_VERSION_CODE|Deprecated use of .kmap.)|image.h:.*Prefer (__printf|__noreturn)|xip.c:.*ENOSYS means'
cd "$TOP" || exit 1
files=$(source_files 'fs/*.[ch]' 'scripts/*.[ch]')
clean_style() {
	[ $checkpatch_works = yes ] || { echo "checkpatch.pl does not work"; return 1; }
	[ -n "$files" ] || { echo "source_files lists no C files"; return 1; }
	checkpatch $(printf "$TOP/%s " $files) 2>&1 | grep -E ': (ERROR|WARNING|CHECK):' | grep -Ev "$allowed"
	# Status 1: the last grep found no fault left (2 would be its own error).
	[ "${PIPESTATUS[2]}" = 1 ]
}
check "checkpatch.pl: no errors or warnings in $(echo $files | wc -w) C files" clean_style
shipped=$(source_files | grep -Ev '^(LICENSE|VERSION|\.gitignore)$|\.(md|8|txt|png|manifest)$')
all_spdx() {
	[ -n "$shipped" ] || { echo "source_files lists no files"; return 1; }
	local f missing=0
	while IFS= read -r f; do
		head -n 3 "$f" | grep -q 'SPDX-License-Identifier' || { echo "$f"; missing=1; }
	done <<< "$shipped"
	return $missing
}
check "every source file carries an SPDX line ($(echo $shipped | wc -w) files)" all_spdx
