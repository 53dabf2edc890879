#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hostile cramfs images for the extraction tests, written from scratch.

   mkhostile.py OUTDIR VICTIM_DIR
   mkhostile.py shared LEVELS OUT     LEVELS directories of two entries each,
                                      both naming the next level: 2^LEVELS paths
   mkhostile.py sharedblocks N OUT    N files sharing one block table of 4,095
                                      compressed blocks (as hard links do)
   mkhostile.py deep N OUT            N nested directories of 252-byte names
   mkhostile.py chain N OUT           N nested directories named "a" (millions: 16 bytes each)

Each image NAME.img tries to make `cramfsck -x` create, write or chmod
something outside its target: two entries of one name in every order of
types, a symlink followed by a directory or a file of its name, absolute and
`..` symlink targets, names holding '/', NUL, '.' or '..', unsorted names,
two entries sharing one directory, nesting. VICTIM_DIR is an absolute
directory outside the target, holding a file `victim` and a directory `dir`,
which the symlinks aim at. The images are well formed apart from the one
thing each is about (CRC, sizes and counts are right), so that only that
thing can refuse them.

NAME.expect holds "refuse" (cramfsck must exit 4 and create nothing) or
"extract" (cramfsck must exit 0, and whatever it made lies inside the target).
"""
import os
import struct
import sys
import zlib

INODE = 12
SUPER = 76
S_IFDIR, S_IFREG, S_IFLNK, S_IFIFO = 0o040000, 0o100000, 0o120000, 0o010000
FLAG_V2, FLAG_SORTED = 0x1, 0x2


def ent(name, mode, data=b"", children=None, share=None, key=None):
    """One directory entry. `share` names the `key` of a directory laid out
    earlier whose entries this one points at too."""
    if isinstance(name, str):
        name = name.encode()
    return {"name": name, "mode": mode, "data": data, "children": children or [],
            "share": share, "key": key}


def d(name, children, mode=0o755, **kw):
    return ent(name, S_IFDIR | mode, children=children, **kw)


def f(name, data=b"pwned\n", mode=0o644):
    return ent(name, S_IFREG | mode, data=data)


def ln(name, target):
    return ent(name, S_IFLNK | 0o777, data=target.encode())


def fifo(name):
    return ent(name, S_IFIFO | 0o644)


def inode(mode, size, namelen, offset):
    return struct.pack("<III", mode | 0 << 16, size & 0xffffff,
                       (namelen // 4) | (offset // 4) << 6)


def build(root, sorted_flag=True):
    """A little-endian image of the tree `root` (a list of entries)."""
    img = bytearray(SUPER)
    regions = {}
    count = [1]

    def dir_bytes(entries):
        return sum(INODE + -(-len(e["name"]) // 4) * 4 for e in entries)

    def lay_dir(entries):
        """Entries at the end of the image; returns their offset and patch list."""
        base = len(img)
        offs = []
        for e in entries:
            offs.append(len(img))
            name = e["name"] + b"\0" * (-len(e["name"]) % 4)
            img.extend(bytes(INODE) + name)
            count[0] += 1
        return base, offs

    def fill(entries, offs):
        for e, off in zip(entries, offs):
            mode, size, target = e["mode"], 0, 0
            namelen = -(-len(e["name"]) // 4) * 4
            if mode & 0o170000 == S_IFDIR:
                if e["share"] is not None:
                    target, size = regions[e["share"]]
                elif e["children"]:
                    size = dir_bytes(e["children"])
                    target, coffs = lay_dir(e["children"])
                    if e["key"] is not None:
                        regions[e["key"]] = (target, size)
                    fill(e["children"], coffs)
            elif e["share"] is not None:
                target, size = regions[e["share"]]
            elif e["data"]:
                size = len(e["data"])
                target = len(img)
                blocks = [e["data"][i:i + 4096] for i in range(0, size, 4096)]
                img.extend(bytes(4 * len(blocks)))
                for i, b in enumerate(blocks):
                    img.extend(zlib.compress(b, 9))
                    struct.pack_into("<I", img, target + 4 * i, len(img))
                img.extend(bytes(-len(img) % 4))
                if e["key"] is not None:
                    regions[e["key"]] = (target, size)
            img[off:off + INODE] = inode(mode, size, namelen, target)

    root_size = dir_bytes(root)
    base, offs = lay_dir(root)
    fill(root, offs)
    img.extend(bytes(-len(img) % 4096))
    flags = FLAG_V2 | (FLAG_SORTED if sorted_flag else 0)
    struct.pack_into("<IIII16sIIII16s", img, 0, 0x28cd3d45, len(img), flags, 0,
                     b"Compressed ROMFS", 0, 0, 0, count[0], b"hostile")
    img[64:76] = inode(S_IFDIR | 0o755, root_size, 0, base)
    struct.pack_into("<I", img, 32, zlib.crc32(bytes(img)))
    return bytes(img)


def hostile(victim):
    """(name, expectation, root entries, sorted flag)."""
    vfile, vdir = f"{victim}/victim", f"{victim}/dir"
    kinds = {
        "link": lambda n: ln(n, vfile),
        "dirlink": lambda n: ln(n, vdir),
        "file": lambda n: f(n, mode=0o4777),
        "dir": lambda n: d(n, [f("pwned", mode=0o777)], mode=0o777),
        "fifo": fifo,
    }
    out = []
    # Two entries of one name, every ordered pair of kinds, in sorted and
    # unsorted images: never a second object on the first's name.
    for a, ka in kinds.items():
        for b, kb in kinds.items():
            for s in (True, False):
                out.append((f"dup-{a}-{b}{'' if s else '-unsorted'}", "refuse",
                            [ka("b"), kb("b")], s))
    out.append(("dup-three", "refuse", [ln("b", vfile), f("b"), d("b", [f("c")])], True))
    out.append(("dup-nested", "refuse",
                [d("a", [ln("x", vdir), d("x", [f("pwned", mode=0o777)])])], True))
    out.append(("dup-after-others", "refuse",
                [f("a"), ln("b", vfile), f("c"), f("b", mode=0o4777)], False))
    # The classic: a symlink, then a directory or file of the same name.
    out.append(("symlink-then-dir", "refuse",
                [ln("a", vdir), d("a", [f("pwned", mode=0o777)], mode=0o777)], True))
    out.append(("symlink-then-file", "refuse", [ln("b", vfile), f("b", mode=0o4777)], True))
    out.append(("relative-symlink-then-dir", "refuse",
                [ln("a", "../../../../../../../../.." + vdir), d("a", [f("pwned")])], True))
    # Unsorted names in an image that says it is sorted.
    out.append(("unsorted", "refuse", [f("b"), f("a")], True))
    # Names no directory may hold.
    for tag, name in (("slash", b"a/b"), ("dotdot-slash", b"../escape"), ("dot", b"."),
                      ("dotdot", b".."), ("nul", b"a\0b"), ("abs", b"/escape"),
                      ("empty", b"")):
        out.append((f"name-{tag}", "refuse", [ent(name, S_IFREG | 0o644, b"pwned\n")], True))
    # Symlinks aiming anywhere are fine as long as nothing follows them.
    out.append(("symlink-targets", "extract",
                [ln("abs-dir", vdir), ln("abs-file", vfile), ln("dotdot", ".."),
                 ln("dotdot-deep", "../../../../../../../../../../etc/passwd"),
                 ln("self", "self")], True))
    out.append(("symlink-dir-and-sibling", "extract",
                [ln("a", vdir), d("b", [f("pwned", mode=0o777)])], True))
    # Two entries sharing one directory: refused, not walked twice.
    out.append(("shared-dir", "refuse",
                [d("a", [f("x")], key="k"), d("b", [], share="k")], True))
    out.append(("shared-dir-40", "refuse", shared_chain(40), True))
    return out


def shared_chain(levels):
    """Each level: entries a and b both pointing at the next level's entries."""
    inner = [f("z", b"z")]
    for i in range(levels):
        key = f"l{i}"
        inner = [d("a", inner, key=key), d("b", [], share=key)]
    return inner


def shared_blocks(n):
    """One file of 4,095 blocks and n more entries naming its data."""
    files = [ent("f%05d" % i, S_IFREG | 0o644, share="data") for i in range(n)]
    return [ent("a", S_IFREG | 0o644, bytes(4095 * 4096), key="data")] + files


def deep(n):
    """n nested directories with names as long as the format allows, a file at the bottom."""
    sys.setrecursionlimit(10 * n + 1000)
    tree = [f("file")]
    for i in range(n):
        tree = [d("%04d" % i + "d" * 248, tree)]
    return tree


def chain(n):
    """n directories each holding the next, named "a", built flat: entry i at 76 + 16 i."""
    img = bytearray(SUPER + 16 * n)
    for i in range(n):
        off = SUPER + 16 * i
        img[off:off + INODE] = inode(S_IFDIR | 0o755, 16 if i + 1 < n else 0, 4,
                                     off + 16 if i + 1 < n else 0)
        img[off + INODE:off + 16] = b"a\0\0\0"
    img.extend(bytes(-len(img) % 4096))
    struct.pack_into("<IIII16sIIII16s", img, 0, 0x28cd3d45, len(img), FLAG_V2 | FLAG_SORTED, 0,
                     b"Compressed ROMFS", 0, 0, 0, n + 1, b"chain")
    img[64:76] = inode(S_IFDIR | 0o755, 16, 0, SUPER)
    struct.pack_into("<I", img, 32, zlib.crc32(bytes(img)))
    return bytes(img)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "chain":
        with open(sys.argv[3], "wb") as fh:
            fh.write(chain(int(sys.argv[2])))
        return
    makers = {"shared": shared_chain, "sharedblocks": shared_blocks, "deep": deep}
    if len(sys.argv) == 4 and sys.argv[1] in makers:
        with open(sys.argv[3], "wb") as fh:
            fh.write(build(makers[sys.argv[1]](int(sys.argv[2]))))
        return
    if len(sys.argv) != 3 or not sys.argv[2].startswith("/"):
        sys.exit(__doc__)
    out, victim = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name, expect, root, s in hostile(victim):
        with open(f"{out}/{name}.img", "wb") as fh:
            fh.write(build(root, s))
        with open(f"{out}/{name}.expect", "w") as fh:
            fh.write(expect + "\n")


if __name__ == "__main__":
    main()
