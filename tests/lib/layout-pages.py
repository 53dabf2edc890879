#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What FIEMAP (filefrag -v) should say of each file, from cramfsck --layout.

    layout-pages.py TREE < LAYOUT > PAGES

TREE: the directory the image was made from; its symlinks are left out
(filefrag follows a symlink to its target).

One line per stored page, "PATH PAGE KIND OFFSET" (KIND: inplace for a
direct plain page-aligned block, unaligned for any other plain block,
encoded for a compressed one; holes have none), then per file with any
"PATH extents N": the extents once plain blocks that follow one another in
the file and in the image, of the same kind, are merged (after a full
block: mkcramfs stores every plain block whole). Sorted bytewise,
as tests/guest/vexpress-a9/42-fiemap.sh sorts what it reads from filefrag.
"""
import os
import re
import sys

LINE = re.compile(r"^  (.+) block (\d+): (\S+) at (\d+), (\d+) bytes$")


def main():
    tree = sys.argv[1]
    out, extents, last, seen = [], {}, {}, 0
    for line in sys.stdin:
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        seen += 1
        path, blk, kind, off, length = m[1], int(m[2]), m[3], int(m[4]), int(m[5])
        if kind == "hole" or os.path.islink(tree + path):
            continue
        if kind.startswith("zlib"):
            kind = "encoded"
        elif kind == "xip" and off % 4096 == 0:
            kind = "inplace"
        else:
            kind = "unaligned"
        out.append(f"{path} {blk} {kind} {off}")
        prev = last.get(path)
        if not (prev and kind != "encoded" and prev[0] == kind and prev[1] + 1 == blk
                and prev[3] == 4096 and prev[2] + prev[3] == off):
            extents[path] = extents.get(path, 0) + 1
        last[path] = (kind, blk, off, length)
    if not seen:
        sys.exit("layout-pages.py: no block in the layout on stdin")
    out += [f"{p} extents {n}" for p, n in extents.items()]
    sys.stdout.write("".join(f"{x}\n" for x in sorted(out, key=lambda s: s.encode())))


if __name__ == "__main__":
    main()
