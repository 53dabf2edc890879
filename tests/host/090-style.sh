#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Kernel coding style (checkpatch.pl from linux-source-6.1) on every C file,
# and an SPDX line on every file we ship.
# checks: 2
. "$(dirname "$0")/lib.sh"
tarball=/usr/src/linux-source-6.1.tar.xz
cp_dir=$WORK/../checkpatch-6.1
if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	mkdir -p "$cp_dir"
	tar -xJf "$tarball" -C "$cp_dir" --strip-components=1 linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt linux-source-6.1/scripts/const_structs.checkpatch
fi
# The compat header is where version checks and old APIs are supposed to be,
# and the host tools define the kernel's attribute spellings for themselves.
allowed='compat.h:.*(LINUX_VERSION_CODE|Deprecated use of .kmap.)|image.h:.*Prefer (__printf|__noreturn)|xip.c:.*ENOSYS means'
cd "$TOP"
files=$(git ls-files 'fs/*.[ch]' 'scripts/*.[ch]')
out=$(cd "$cp_dir" && ./scripts/checkpatch.pl --no-tree --terse --no-summary -f $(printf "$TOP/%s " $files) 2>&1)
bad=$(printf '%s\n' "$out" | grep -E ': (ERROR|WARNING|CHECK):' | grep -Ev "$allowed")
check "checkpatch.pl: no errors or warnings in $(echo $files | wc -w) C files" test -z "$bad"
[ -z "$bad" ] || printf '%s\n' "$bad" | head -n 20 | sed 's/^/    | /'
nospdx=$(git ls-files | grep -Ev '^(LICENSE|\.gitignore)$|\.(md|8|txt|png|manifest)$' |
	while read -r f; do head -n 3 "$f" | grep -q 'SPDX-License-Identifier' || echo "$f"; done)
check "every source file carries an SPDX line" test -z "$nospdx"
[ -z "$nospdx" ] || printf '    | %s\n' $nospdx
