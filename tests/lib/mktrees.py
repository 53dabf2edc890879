#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make the source trees the image tests are built from, deterministically.

   mktrees.py OUTDIR      creates OUTDIR/{tiny,types,big,shared}

tiny:  one file and one directory.
types: every file type cramfs stores (regular, empty, directory, empty directory,
       symlinks, character and block devices, fifo, socket), deep nesting, long
       names, odd sizes around the 4 KiB block size, owners and mode bits.
big:   several MiB: incompressible and highly compressible files, one > 1 MiB.
shared: one file's data under five names (hard links and copies), and files
       with all-zero blocks (written sparse or not) for mkcramfs -z's holes.
Device nodes and owners need root; without it they are left out (said on stderr).
"""
import os
import random
import socket
import stat
import sys


def write(path, data, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)


def tiny(root, rnd):
    write(f"{root}/hello.txt", b"Hello from cramfs_xip\n")
    os.makedirs(f"{root}/dir", exist_ok=True)
    write(f"{root}/dir/data.bin", bytes(rnd.getrandbits(8) for _ in range(5000)))


def types(root, rnd, is_root):
    text = b"".join(b"line %d of a text file\n" % i for i in range(2000))
    for size in (0, 1, 3, 4095, 4096, 4097, 8192, 12345, 65536):
        write(f"{root}/sizes/file-{size}", (text * 2)[:size])
    write(f"{root}/modes/setuid", b"#!/bin/sh\n", 0o4755)
    write(f"{root}/modes/readonly", b"ro\n", 0o444)
    write(f"{root}/modes/private", b"secret\n", 0o600)
    write(f"{root}/modes/sticky", b"sticky\n", 0o1644)
    os.makedirs(f"{root}/empty-dir", exist_ok=True)
    os.symlink("../sizes/file-4096", f"{root}/modes/link-relative")
    os.symlink("/etc/passwd", f"{root}/link-absolute")
    os.symlink("t" * 200, f"{root}/link-long-target")
    os.symlink("dangling/nowhere", f"{root}/link-dangling")
    deep = root
    for i in range(24):
        deep = f"{deep}/level{i:02d}"
    write(f"{deep}/bottom.txt", b"the bottom\n")
    for n in (1, 100, 200, 250):
        write(f"{root}/names/" + ("n" * (n - 4)) + f"{n:04d}", b"%d\n" % n)
    write(f"{root}/names/with space and,comma", b"spaces\n")
    write(f"{root}/names/UPPER-lower.Mixed", b"case\n")
    os.mkfifo(f"{root}/fifo")
    s = socket.socket(socket.AF_UNIX)
    s.bind(f"{root}/socket")
    s.close()
    for i in range(60):
        write(f"{root}/many/entry-{i:03d}", b"%d\n" % i)
    if is_root:
        for name, kind, perm, dev in (("dev-null", stat.S_IFCHR, 0o666, (1, 3)),
                                      ("dev-block", stat.S_IFBLK, 0o660, (8, 1)),
                                      ("dev-tty", stat.S_IFCHR, 0o620, (4, 64))):
            os.mknod(f"{root}/{name}", kind | perm, os.makedev(*dev))
            os.chmod(f"{root}/{name}", perm)
        write(f"{root}/owned/by-1000", b"user\n")
        os.chown(f"{root}/owned/by-1000", 1000, 100)
        os.chown(f"{root}/owned", 65534, 65)
    else:
        print("mktrees: not root: no device nodes or owners", file=sys.stderr)


def big(root, rnd):
    write(f"{root}/random-2M.bin", rnd.randbytes(2 << 20))
    write(f"{root}/zeros-3M.bin", bytes(3 << 20))
    words = [b"flash", b"page", b"cramfs", b"xip", b"block", b"zlib", b"inode", b"\n"]
    write(f"{root}/text-1M5.txt", b" ".join(rnd.choice(words) for _ in range(300000))[:1536000])
    write(f"{root}/mixed.bin", b"".join(
        rnd.randbytes(4096) if i % 3 == 0 else bytes([i % 251]) * 4096 for i in range(300)) + b"tail")


def shared(root, rnd):
    data = rnd.randbytes(3 * 4096 + 123)
    write(f"{root}/orig.bin", data)
    write(f"{root}/copy.bin", data)
    write(f"{root}/sub/copy.bin", data)
    os.link(f"{root}/orig.bin", f"{root}/hardlink.bin")
    os.link(f"{root}/orig.bin", f"{root}/sub/hardlink.bin")
    # Blocks 1-3 zero: three holes between two data blocks.
    write(f"{root}/holes-middle.bin", rnd.randbytes(4096) + bytes(3 * 4096) + rnd.randbytes(100))
    # A last, partial block of zeros.
    write(f"{root}/holes-tail.bin", rnd.randbytes(4096) + bytes(1000))
    # Five zero blocks that are a hole in the source file too.
    write(f"{root}/sparse.bin", b"")
    os.truncate(f"{root}/sparse.bin", 5 * 4096)


def main():
    out = sys.argv[1]
    is_root = os.geteuid() == 0
    os.umask(0o022)
    for name, fn in (("tiny", tiny), ("types", types), ("big", big), ("shared", shared)):
        root = f"{out}/{name}"
        if os.path.exists(root):
            os.system(f"rm -rf '{root}'")
        os.makedirs(root)
        os.chmod(root, 0o755)
        rnd = random.Random(name)
        if fn is types:
            fn(root, rnd, is_root)
        else:
            fn(root, rnd)


if __name__ == "__main__":
    main()
