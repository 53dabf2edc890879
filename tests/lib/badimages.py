#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Bad cramfs images for the robustness tests, deterministically from a seed.

   badimages.py corpus OUTDIR COUNT SEED_IMAGE...   mutated images bad-NNNNN.img (from
                                                    $BADIMAGES_START, default 0)
   badimages.py crafted OUTDIR XIP_IMAGE PSRAM_PHYS each known mainline hole, by name
   badimages.py tinyelf OUT                         a small static ELF with a read-only
                                                    and a writable segment (XIP seed)

Mutations: bit flips, truncation, each structural field (superblock fields,
inode words, block pointers) set to 0, all ones, random or off by a little,
directory cycles and out-of-range offsets. Every image is padded with 0xff
(erased flash) to a whole number of 4 KiB pages, so what follows a truncated
image is what follows it in real flash.
"""
import os
import random
import struct
import sys

INODE = 12
SUPER = 76


def inode(img, off):
    w0, w1, w2 = struct.unpack_from("<III", img, off)
    return {"mode": w0 & 0xffff, "uid": w0 >> 16, "size": w1 & 0xffffff, "gid": w1 >> 24,
            "namelen": (w2 & 0x3f) * 4, "offset": (w2 >> 6) * 4}


def walk(img):
    """Entries of a little-endian image: (path, entry offset, inode)."""
    out = []
    root = inode(img, SUPER - INODE)

    def rec(path, d, depth):
        pos = 0
        while pos < d["size"] and depth < 64:
            off = d["offset"] + pos
            e = inode(img, off)
            name = img[off + INODE:off + INODE + e["namelen"]].rstrip(b"\0").decode(
                "latin-1")
            out.append((f"{path}/{name}", off, e))
            if e["mode"] & 0o170000 == 0o040000 and e["size"]:
                rec(f"{path}/{name}", e, depth + 1)
            pos += INODE + e["namelen"]
    rec("", root, 0)
    return root, out


def files_with_data(entries):
    return [(p, off, e) for p, off, e in entries
            if e["mode"] & 0o170000 in (0o100000, 0o120000) and e["size"]]


def pad(img):
    return bytes(img) + b"\xff" * (-len(img) % 4096)


def mutate(seed_img, rnd):
    img = bytearray(seed_img)
    _, entries = walk(seed_img)
    files = files_with_data(entries)
    kind = rnd.randrange(8)
    special = [0, 0xffffffff, rnd.getrandbits(32), rnd.randrange(len(img) + 64)]

    def word_at(off):
        v = struct.unpack_from("<I", img, off)[0]
        choice = rnd.choice(special + [v + rnd.randint(-8, 8) & 0xffffffff,
                                       v ^ (1 << rnd.randrange(32))])
        struct.pack_into("<I", img, off, choice)

    if kind == 0:                       # bit flips anywhere
        for _ in range(rnd.randint(1, 8)):
            i = rnd.randrange(len(img))
            img[i] ^= 1 << rnd.randrange(8)
    elif kind == 1:                     # truncation
        img = img[:rnd.randrange(SUPER, len(img))]
    elif kind == 2:                     # a superblock field
        word_at(rnd.choice([4, 8, 12, 40, 44, 64, 68, 72]))
    elif kind == 3 and entries:         # an inode word
        _, off, _ = rnd.choice(entries)
        word_at(off + 4 * rnd.randrange(3))
    elif kind == 4 and files:           # a block pointer
        _, _, e = rnd.choice(files)
        n = (e["size"] + 4095) // 4096
        ptr = e["offset"] + 4 * rnd.randrange(n)
        if ptr + 4 <= len(img):
            word_at(ptr)
    elif kind == 5:                     # a directory pointing back at itself or an ancestor
        dirs = [(p, off, e) for p, off, e in entries if e["mode"] & 0o170000 == 0o040000]
        if dirs:
            _, off, e = rnd.choice(dirs)
            target = rnd.choice([SUPER, off, off - INODE if off > SUPER else SUPER])
            w2 = struct.unpack_from("<I", img, off + 8)[0]
            struct.pack_into("<I", img, off + 8, (w2 & 0x3f) | (target // 4) << 6)
    elif kind == 6 and entries:         # a name: padding, '/', NUL, or length
        _, off, e = rnd.choice(entries)
        if e["namelen"]:
            img[off + INODE + rnd.randrange(e["namelen"])] = rnd.choice([0, 0x2f, 0x2e, 0xff])
    else:                               # a run of random bytes
        i = rnd.randrange(len(img))
        for j in range(i, min(len(img), i + rnd.randint(1, 64))):
            img[j] = rnd.getrandbits(8)
    return pad(img)


def corpus(out, count, seeds, start=0):
    """Images start .. start + count - 1: image i is the same in every run."""
    os.makedirs(out, exist_ok=True)
    blobs = [open(s, "rb").read() for s in seeds]
    for i in range(start, start + count):
        rnd = random.Random(f"cramfs-xip-{i}")
        with open(f"{out}/bad-{i:05d}.img", "wb") as f:
            f.write(mutate(rnd.choice(blobs), rnd))


def set_ptr(img, path, index, value):
    _, entries = walk(img)
    e = next(e for p, _, e in entries if p == path)
    struct.pack_into("<I", img, e["offset"] + 4 * index, value)


def crafted(out, xip_image, psram_phys):
    """One image per known hole of mainline cramfs 6.1 (see issue 6)."""
    os.makedirs(out, exist_ok=True)
    seed = open(xip_image, "rb").read()
    direct = (1 << 31) | (1 << 30)

    img = bytearray(seed)   # a direct pointer at RAM: 0x60000000 on vexpress-a9
    set_ptr(img, "/data/xip-partial.bin", 0, direct | ((0x60000000 - psram_phys) >> 2))
    open(f"{out}/direct-to-ram.img", "wb").write(pad(img))

    img = bytearray(seed)   # a direct pointer just past the image's end
    set_ptr(img, "/data/xip-partial.bin", 1, direct | (len(seed) >> 2))
    open(f"{out}/direct-past-end.img", "wb").write(pad(img))

    img = bytearray(seed)   # the image ends one page into a file's run of direct pages
    _, entries = walk(seed)
    e = next(e for p, _, e in entries if p == "/data/xip-partial.bin")
    first = struct.unpack_from("<I", seed, e["offset"])[0]
    assert first & direct == direct, "xip-partial.bin should start with a direct plain page"
    struct.pack_into("<I", img, 4, ((first & ~direct) << 2) + 4096)
    open(f"{out}/run-past-end.img", "wb").write(pad(img))

    img = bytearray(seed)   # bytes after the tail of xip-partial.bin's last page, in its flash page
    last = (e["size"] - 1) // 4096
    ptr = struct.unpack_from("<I", seed, e["offset"] + 4 * last)[0]
    assert ptr & direct == direct, "xip-partial.bin's last page should be direct and plain"
    img[((ptr & ~direct) << 2) + e["size"] % 4096] = 0x5a
    open(f"{out}/tail-not-zero.img", "wb").write(pad(img))

    img = bytearray(seed)   # /bin/tiny's last two blocks plain, one after the other; the last stored short
    t = next(e for p, _, e in entries if p == "/bin/tiny")
    w = [struct.unpack_from("<I", seed, t["offset"] + 4 * i)[0] for i in range(4)]
    assert all(x & direct == direct for x in w[:2]), "/bin/tiny should start with two direct pages"
    end1 = ((w[1] & ~direct) << 2) + 4096
    struct.pack_into("<II", img, t["offset"] + 8, (1 << 31) | (end1 + 4096), (1 << 31) | (end1 + 4196))
    open(f"{out}/short-plain.img", "wb").write(pad(img))

    img = bytearray(seed)   # superblock size 0
    struct.pack_into("<I", img, 4, 0)
    open(f"{out}/size-zero.img", "wb").write(pad(img))

    img = bytearray(seed)   # a broken zlib stream in a compressed file: a log flood in mainline
    _, entries = walk(seed)
    e = next(e for p, _, e in entries if p == "/data/compressed.txt")
    start = e["offset"] + 4 * ((e["size"] + 4095) // 4096)
    img[start + 2:start + 40] = b"\x55" * 38
    open(f"{out}/bad-zlib.img", "wb").write(pad(img))

    img = bytearray(seed)   # a directory whose entries are its parent's: a loop
    p, off, e = next(x for x in entries if x[0] == "/data")
    w2 = struct.unpack_from("<I", img, off + 8)[0]
    struct.pack_into("<I", img, off + 8, (w2 & 0x3f) | (SUPER // 4) << 6)
    open(f"{out}/dir-loop.img", "wb").write(pad(img))

    img = bytearray(seed)   # a directory whose second entry is bad (no name) after a good one
    p, off, e = next(x for x in entries if x[0] == "/data")
    second = e["offset"] + INODE + inode(seed, e["offset"])["namelen"]
    assert second < e["offset"] + e["size"], "/data should hold two entries"
    w2 = struct.unpack_from("<I", img, second + 8)[0]
    struct.pack_into("<I", img, second + 8, w2 & ~0x3f)
    open(f"{out}/dir-bad-entry.img", "wb").write(pad(img))


def tinyelf(out):
    """ELF32 ARM: PT_LOAD r-x over pages 0-1, PT_LOAD rw- over page 2, 3 pages + a tail."""
    body = bytearray(random.Random("tinyelf").randbytes(3 * 4096 + 300))
    eh = struct.pack("<16sHHIIIIIHHHHHH", b"\x7fELF\x01\x01\x01" + bytes(9), 2, 40, 1,
                     0x10000, 52, 0, 0x5000000, 52, 32, 2, 0, 0, 0)
    ph1 = struct.pack("<8I", 1, 0, 0x10000, 0x10000, 2 * 4096, 2 * 4096, 5, 4096)
    ph2 = struct.pack("<8I", 1, 2 * 4096, 0x12000, 0x12000, 4096 + 300, 8192, 6, 4096)
    hdr = eh + ph1 + ph2
    body[:len(hdr)] = hdr
    with open(out, "wb") as f:
        f.write(body)
    os.chmod(out, 0o755)


def main():
    cmd = sys.argv[1]
    if cmd == "corpus":
        corpus(sys.argv[2], int(sys.argv[3]), sys.argv[4:], int(os.environ.get("BADIMAGES_START", "0")))
    elif cmd == "crafted":
        crafted(sys.argv[2], sys.argv[3], int(sys.argv[4], 0))
    elif cmd == "tinyelf":
        tinyelf(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
