#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that an image stores in place exactly the pages a profile lists.

    profile-pages.py PROFILE LAYOUT TREE

PROFILE: what xip-profile prints ("page-size N", then "PATH RANGES" lines,
PATH with \\ooo escapes, RANGES like 0-12,15 or "all"); LAYOUT: cramfsck
--layout of the image built from it; TREE: the tree it was built from. Of
a file's ranges only the pages in executable ELF segments count (mkcramfs
keeps those; "all" keeps the whole file). A page is in place when its block
is "xip" at a page-aligned offset. Prints the differences; exit status 1 if
any.
"""
import re
import struct
import sys


def code_pages(path, psize):
    """The pages of a 32- or 64-bit ELF file's executable PT_LOAD segments."""
    try:
        data = open(path, "rb").read()
    except OSError:
        return set()
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        return set()
    is64, end = data[4] == 2, "<" if data[5] == 1 else ">"
    if is64:
        phoff, = struct.unpack_from(end + "Q", data, 32)
        phentsize, phnum = struct.unpack_from(end + "HH", data, 54)
    else:
        phoff, = struct.unpack_from(end + "I", data, 28)
        phentsize, phnum = struct.unpack_from(end + "HH", data, 42)
    pages = set()
    for i in range(phnum):
        o = phoff + i * phentsize
        if is64:
            p_type, flags, off, _, _, filesz = struct.unpack_from(end + "IIQQQQ", data, o)
        else:
            p_type, off, _, _, filesz, _, flags = struct.unpack_from(end + "7I", data, o)
        if p_type == 1 and flags & 1 and filesz:
            pages.update(range(off // psize, (off + filesz - 1) // psize + 1))
    return pages


def ranges(spec):
    pages = set()
    for part in spec.split(","):
        a, _, b = part.partition("-")
        pages.update(range(int(a), int(b or a) + 1))
    return pages


def main():
    psize = 4096
    want = {}
    for line in open(sys.argv[1]):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        if line.startswith("page-size "):
            psize = int(line.split()[1])
            continue
        path, _, spec = line.rpartition(" ")
        path = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), path)
        want[path] = spec
    got, blocks = {}, {}
    pat = re.compile(r"^  (.*) block (\d+): (\S+) at (\d+), (\d+) bytes")
    for line in open(sys.argv[2]):
        m = pat.match(line)
        if not m:
            continue
        path, block, kind, off = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
        blocks.setdefault(path, set()).add(block)
        if kind == "xip" and off % psize == 0:
            got.setdefault(path, set()).add(block)
    if not want:
        print("the profile lists no file")
        return 1
    bad = 0
    for path in sorted(set(want) | set(got)):
        w = set()
        if path in want:
            w = blocks.get(path, set()) if want[path] == "all" else \
                ranges(want[path]) & code_pages(sys.argv[3] + path, psize)
        g = got.get(path, set())
        if path in want and path not in blocks:
            print(f"{path}: in the profile, not in the image")
            bad += 1
        if w != g:
            print(f"{path}: in place {sorted(g - w)[:20]} not in the profile, "
                  f"profiled {sorted(w - g)[:20]} not in place")
            bad += 1
    print(f"{sum(len(g) for g in got.values())} pages in place in {len(got)} files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
