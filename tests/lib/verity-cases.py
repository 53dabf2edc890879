#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tampered copies of a signed verity image, and what each must break.

  verity-cases.py IMAGE LAYOUT OUTDIR

IMAGE is made by mkcramfs -X --verity, signed; LAYOUT is its cramfsck
--layout. Every byte is inverted but the name's, whose lowest bit is: the
name stays a valid one, which only the tree tells from the right one. Its tree must have /bin/busybox (pages in place),
/data/compressed.txt (zlib) and /many (a directory whose entries fill more
than the image's first 4 KiB). For each case NAME, OUTDIR gets NAME.img,
IMAGE with one byte inverted, NAME.offset that byte's offset, and
NAME.expect: for a case that must still
mount, the lines "xiptest readpages" prints for every regular file outside
/many (its pages that do not read, exactly those whose stored bytes lie in
the 4 KiB block the byte is in, or under the tree block it is in); for one
whose mount must be refused, the word "refused". OUTDIR/cases lists the
names, OUTDIR/files the files, in the order readpages is given them,
OUTDIR/dir.listed how many entries of /many a listing gives in case dir
(those before the altered block).

  xip      a byte in a page of BusyBox stored in place
  zlib     a byte in a compressed block of /data/compressed.txt
  dir      the first byte of the name of an entry of /many past the first
           4 KiB, 'e' made 'd'
  level0   a byte in tree level 0's second block: data blocks 128 to 255
  top      a byte in the tree's top block: the mount is refused
  trailer  a byte of the trailer's root hash: refused (its CRC)
  sig      a byte in the middle of the signature: refused
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import badimages  # noqa: E402  (walk(): the entries, from the image alone)

BLOCK = 4096


def where(image):
    """verity.py where: name -> offset."""
    out = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "verity.py"),
                          "where", image], check=True, capture_output=True, text=True).stdout
    return {n: int(o) for n, o in (line.split() for line in out.splitlines())}


def stored(layout):
    """path -> {page: (start, len)} from cramfsck --layout."""
    files = {}
    for line in open(layout):
        f = line.split()
        if len(f) == 8 and f[1] == "block":
            files.setdefault(f[0], {})[int(f[2].rstrip(":"))] = (int(f[5].rstrip(",")),
                                                                 int(f[6]))
    return files


def main():
    image, layout, out = sys.argv[1:4]
    img = bytearray(open(image, "rb").read())
    at = where(image)
    blocks = stored(layout)
    _, entries = badimages.walk(img)
    files = sorted(p for p, _, e in entries
                   if e["mode"] & 0o170000 == 0o100000 and not p.startswith("/many/"))
    # Metadata and block pointer tables: every byte a read of a file page
    # may need besides the page's own stored bytes.
    meta = [(0, 76)]
    for p, off, e in entries:
        meta.append((off, 12 + e["namelen"]))
        if e["mode"] & 0o170000 == 0o100000 and e["size"]:
            meta.append((e["offset"], 4 * -(-e["size"] // BLOCK)))
        elif e["mode"] & 0o170000 == 0o040000:
            meta.append((e["offset"], e["size"]))

    def meta_in(lo, hi):
        return any(o < hi and o + n > lo for o, n in meta)

    def expect(lo, hi):
        """readpages' lines when the image bytes [lo, hi) do not verify."""
        assert not meta_in(lo, hi), f"metadata in [{lo}, {hi})"
        lines = []
        for p in files:
            bad = [str(i) for i, (s, n) in sorted(blocks.get(p, {}).items())
                   if n and s < hi and s + n > lo]
            lines.append(f"/mnt{p}: unreadable pages:" + "".join(" " + b for b in bad))
        return "\n".join(lines) + "\n"

    cases = {}
    bb = blocks["/bin/busybox"]
    xpage = sorted(i for i, (s, n) in bb.items() if n == BLOCK and s % BLOCK == 0)[200]
    off = bb[xpage][0] + 1234
    cases["xip"] = (off, expect(off // BLOCK * BLOCK, off // BLOCK * BLOCK + BLOCK))
    z = blocks["/data/compressed.txt"]
    s, n = z[len(z) // 2]
    off = s + n // 2
    cases["zlib"] = (off, expect(off // BLOCK * BLOCK, off // BLOCK * BLOCK + BLOCK))
    # A block of /many's entries and nothing else: its names read by
    # nothing but a listing of /many or a lookup there.
    many = [(o, 12 + e["namelen"]) for p, o, e in entries if p.startswith("/many/")]
    others = [m for m in meta if m not in many and m[0] != dict(
        (p, e["offset"]) for p, _, e in entries)["/many"]]
    d = next(d for d in range(1, len(img) // BLOCK)
             if any(d * BLOCK <= o < d * BLOCK + BLOCK for o, _ in many) and
             not any(o < d * BLOCK + BLOCK and o + n > d * BLOCK for o, n in others))
    off = next(o for o, _ in many if o >= d * BLOCK) + 12
    assert img[off:off + 6] == b"entry-", "a name's first byte"
    cases["dir"] = (off, expect(0, 0))
    listed = sum(1 for o, n in many if o + n <= d * BLOCK)
    off = at["level0"] + BLOCK + 100
    cases["level0"] = (off, expect(128 * BLOCK, 256 * BLOCK))
    top = at["level%d" % max(int(k[5:]) for k in at if k.startswith("level"))]
    cases["top"] = (top + 40, "refused\n")
    cases["trailer"] = (at["trailer"] + 70, "refused\n")
    cases["sig"] = (at["signature"] + 150, "refused\n")
    os.makedirs(out, exist_ok=True)
    for name, (off, exp) in cases.items():
        b = bytearray(img)
        b[off] ^= 0x01 if name == "dir" else 0xff
        open(f"{out}/{name}.img", "wb").write(b)
        open(f"{out}/{name}.expect", "w").write(exp)
        open(f"{out}/{name}.offset", "w").write(f"{off}\n")
        print(f"{name} byte {off}")
    open(f"{out}/cases", "w").write(" ".join(cases) + "\n")
    open(f"{out}/dir.listed", "w").write(f"{listed}\n")
    open(f"{out}/files", "w").write(" ".join("/mnt" + p for p in files) + "\n")


if __name__ == "__main__":
    main()
