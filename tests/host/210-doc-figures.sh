#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The figures README, the user guide and the tiny system's document state
# from make bench are the ones Documentation/benchmarks.md holds (make bench
# writes it; a new run that moves a figure fails here until the documents
# follow), and README states no other figure unless beside a link to it.
# checks: 2
. "$(dirname "$0")/lib.sh"
d=$WORK/doc-figures
mkdir -p "$d"
# DOCUMENT @@ TEXT, %s the figure @@ SECTION of benchmarks.md (a "## " heading
# starting so) @@ ROW (a regex on the line) @@ COLUMN of that table row, or
# /REGEX/ whose group is the figure. Thousands commas and line breaks do not
# count; a figure's sign and [spread] are left out.
cat > "$d/list" <<'LIST'
README.md @@ 4 programs run in place in %s of RAM @@ The tiny system @@ programs stored for XIP @@ 2
Documentation/user-guide.md @@ its text is %s bytes smaller @@ Footprint @@ memory-mapped MTDs only @@ 3
Documentation/user-guide.md @@ `mkcramfs -X` stores every page of every read-only ELF segment plain, most of which never run (the Debian armhf BusyBox: %s times @@ Profile-guided @@ ^\| `mkcramfs -X` @@ 3
Documentation/user-guide.md @@ the image is %s times the all-compressed one @@ Profile-guided @@ ^\| `mkcramfs --xip-profile` @@ 3
Documentation/user-guide.md @@ (%s with `-X`) @@ Profile-guided @@ ^\| `mkcramfs -X` @@ 3
Documentation/user-guide.md @@ %s times mainline's whole mount @@ Speed @@ mount\(2\).*\| xip \| @@ 5
Documentation/user-guide.md @@ the module costs %s kB loaded @@ No MMU @@ ^\| cramfs_xip( \| [0-9,]+){5} \|$ @@ 3
Documentation/user-guide.md @@ %s kB per mount @@ No MMU @@ ^\| cramfs_xip( \| [0-9,]+){5} \|$ @@ 4
Documentation/user-guide.md @@ %s kB at its first decompression @@ No MMU @@ ^\| cramfs_xip( \| [0-9,]+){5} \|$ @@ 5
Documentation/user-guide.md @@ against %s kB loaded for mainline cramfs @@ No MMU @@ ^\| mainline cramfs( \| [0-9,]+){5} \|$ @@ 3
Documentation/user-guide.md @@ %s bytes of kernel text @@ No MMU @@ ^\| difference @@ 2
Documentation/user-guide.md @@ %s bytes of data @@ No MMU @@ ^\| difference @@ 3
Documentation/user-guide.md @@ %s bytes of bss @@ No MMU @@ ^\| difference @@ 4
Documentation/user-guide.md @@ %s kB more MemTotal @@ No MMU @@ ^\| difference @@ 5
Documentation/user-guide.md @@ %s kB more MemFree @@ No MMU @@ ^\| difference @@ 6
Documentation/tiny-system.md @@ the least is %s. @@ The tiny system @@ programs stored for XIP @@ 2
Documentation/tiny-system.md @@ `CONFIG_XIP_PHYS_ADDR`) | %s | @@ The tiny system @@ ^Flash: @@ /xipImage\) ([0-9,]+) bytes/
Documentation/tiny-system.md @@ 2 MiB) | %s | @@ The tiny system @@ ^Flash: @@ /root image[^0-9]*([0-9,]+) bytes/
Documentation/tiny-system.md @@ reservations (%s bytes @@ The tiny system @@ ^\| total @@ 2
Documentation/tiny-system.md @@ 27 caches hold %s pages @@ The tiny system @@ slab-walk.py @@ /; ([0-9]+) pages/
Documentation/tiny-system.md @@ Its least `mem=` is %s against @@ The tiny system @@ on Linux 7.3 @@ 2
Documentation/tiny-system.md @@ against 6.1's %s: @@ The tiny system @@ programs stored for XIP @@ 2
LIST
check "the documents' figures from make bench are benchmarks.md's ($(grep -c ' @@ ' "$d/list") figures)" \
	python3 "$TOP/tests/lib/docs.py" figures "$TOP" "$d/list" "$d/expanded"
check "every figure in README.md is one of those or stands beside a link to benchmarks.md" \
	python3 "$TOP/tests/lib/docs.py" figures-covered "$TOP/README.md" "$d/expanded"
