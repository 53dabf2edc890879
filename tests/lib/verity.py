#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The verity area of an image, recomputed from Documentation/format.md
("Verity") alone: none of the tools' code.

  verity.py root IMAGE         check the trailer and the stored tree against a
                               tree computed here; print the root hash (hex)
  verity.py where IMAGE        the area's offsets, one "name offset" a line:
                               trailer, level0..levelN, signature (when signed)
  verity.py flip IMAGE OUT OFF   OUT is IMAGE with the byte at OFF inverted
Exit status 1, with the reason, when the area is not what the format says.
"""
import hashlib
import struct
import sys
import zlib

BLOCK = 4096
MAGIC = 0x28cd3d45


def superblock(img):
    """The byte order ('<' or '>') and the size, from the superblock at 0 or 512."""
    for off in (0, 512):
        for order in "<>":
            if struct.unpack_from(order + "I", img, off)[0] == MAGIC:
                return order, struct.unpack_from(order + "I", img, off + 4)[0]
    sys.exit("no cramfs superblock")


def tree(img, size):
    """V, the levels (level 0 first, each padded to whole blocks) and the root hash."""
    start = -(-size // BLOCK) * BLOCK
    data = img[:size] + bytes(start - size)
    hashes = [hashlib.sha256(data[i:i + BLOCK]).digest() for i in range(0, start, BLOCK)]
    levels = []
    while len(hashes) > 1:
        level = b"".join(hashes)
        level += bytes(-len(level) % BLOCK)
        levels.append(level)
        hashes = [hashlib.sha256(level[i:i + BLOCK]).digest() for i in range(0, len(level), BLOCK)]
    return start, levels, hashes[0]


def area(img):
    """Everything the trailer must say, checked against the image; the root and offsets."""
    order, size = superblock(img)
    start, levels, root = tree(img, size)
    t = img[start:start + 128]
    if t[:8] != b"CXVERITY":
        sys.exit(f"no trailer at {start}")
    offsets, off = [0] * 4, start + BLOCK
    for k in reversed(range(len(levels))):
        offsets[k] = off
        off += len(levels[k])
    tree_size = off - start - BLOCK
    fields = struct.unpack_from(order + "13I", t, 8)
    want = (1, None, size, BLOCK, 1, 32, len(levels), start + BLOCK, tree_size, *offsets)
    names = ("version", "flags", "data_size", "block_size", "hash_alg", "hash_size", "levels",
             "tree_offset", "tree_size", "level_offset[0]", "level_offset[1]",
             "level_offset[2]", "level_offset[3]")
    for name, got, exp in zip(names, fields, want):
        if exp is not None and got != exp:
            sys.exit(f"trailer {name} {got}, expected {exp}")
    flags = fields[1]
    sig_offset, sig_len = struct.unpack_from(order + "II", t, 92)
    (crc,) = struct.unpack_from(order + "I", t, 124)
    if zlib.crc32(t[:124] + bytes(4)) != crc:
        sys.exit("trailer CRC wrong")
    if t[100:124] != bytes(24) or img[start + 128:start + BLOCK] != bytes(BLOCK - 128):
        sys.exit("trailer block not zero after the fields")
    if flags == 1:
        if sig_offset != off or not 0 < sig_len <= 16384:
            sys.exit(f"signature at {sig_offset}, {sig_len} bytes: not right after the tree")
    elif flags != 0 or sig_offset or sig_len:
        sys.exit(f"flags {flags:#x}, signature at {sig_offset}, {sig_len} bytes")
    if t[60:92] != root:
        sys.exit(f"trailer root {t[60:92].hex()}, computed {root.hex()}")
    if img[start + BLOCK:off] != b"".join(reversed(levels)):
        sys.exit("stored tree differs from the computed one")
    end = -(-(off + sig_len) // BLOCK) * BLOCK
    if len(img) != end or img[off + sig_len:] != bytes(end - off - sig_len):
        sys.exit(f"file is {len(img)} bytes, expected {end}, zeros after the signature")
    where = [("trailer", start)] + [(f"level{k}", offsets[k]) for k in range(len(levels))]
    if sig_len:
        where.append(("signature", sig_offset))
    return root, where


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "root":
        print(area(open(sys.argv[2], "rb").read())[0].hex())
    elif len(sys.argv) == 3 and sys.argv[1] == "where":
        for name, off in area(open(sys.argv[2], "rb").read())[1]:
            print(name, off)
    elif len(sys.argv) == 5 and sys.argv[1] == "flip":
        img = bytearray(open(sys.argv[2], "rb").read())
        img[int(sys.argv[4])] ^= 0xff
        open(sys.argv[3], "wb").write(img)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
