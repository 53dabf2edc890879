#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What an XIP kernel keeps in RAM, from its build: its sections that live in
RAM (the rest, text and read-only data, stays in flash), that RAM by
subsystem (the built-in objects' writable sections, from vmlinux.a), and the
largest symbols there. Prints lines for make bench:
  section NAME BYTES
  dir DIR DATA BSS INITDATA
  symbol NAME BYTES
  usage: tiny-ram.py KERNEL_BUILD_DIR [RAM_BASE]
Or, from the console log of a boot with memblock=debug, what the kernel set
aside at boot, by the function that asked (the kernel image's RAM part as
"kernel-image"; what it gave back negative):
  memblock FUNCTION BYTES
  usage: tiny-ram.py --memblock CONSOLE_LOG
"""
import collections
import os
import re
import subprocess
import sys

CROSS = os.environ.get("CROSS_COMPILE", "arm-linux-gnueabi-")


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def kind(section):
    """data, bss or init for a section that lives in RAM; None otherwise.
    The XIP linker script puts the objects' init read-only data in RAM too,
    with their init data (INIT_DATA), and .ref.data with the data."""
    if re.match(r"^\.init\.(data|rodata)(\.|$)", section):
        return "init"
    if re.match(r"^\.(s?bss)(\.|$)", section) or section == "COMMON":
        return "bss"
    if re.match(r"^\.(s?data)(\.|$)", section) or section == ".ref.data":
        return "data"
    return None


def subsystem(path):
    """The two leading folders of an object's path (one for init/, mm/, ...)."""
    parts = path.split("/")
    depth = 3 if parts[0] == "arch" else 2
    return "/".join(parts[: min(depth, len(parts) - 1)]) or path


def memblock(log):
    """Each allocation is logged by its caller, then as the reservation of
    its range; a range given back is charged to the caller that had it."""
    total = collections.Counter()
    ranges = []
    caller = None
    for line in open(log, errors="replace"):
        m = re.search(r"memblock_alloc_try_nid(?:_raw)?: (\d+) bytes .* ([\w.]+)\+0x", line)
        if m:
            total[m.group(2)] += int(m.group(1))
            caller = m.group(2)
            continue
        m = re.search(r"memblock_(reserve|phys_free): \[0x([0-9a-f]+)-0x([0-9a-f]+)\] ([\w.]+)\+0x",
                      line)
        if not m:
            continue
        start, end = int(m.group(2), 16), int(m.group(3), 16) + 1
        if m.group(1) == "phys_free":
            owner = next((c for s, e, c in ranges if s <= start and end <= e), m.group(4))
            total[owner] -= end - start
        elif m.group(4) == "arm_memblock_init" and end - start > 1:
            total["kernel-image"] += end - start
        elif m.group(4) == "memblock_alloc_range_nid" and caller:
            ranges.append((start, end, caller))
        caller = None
    for name, size in total.most_common():
        print(f"memblock {name} {size}")


def main():
    if sys.argv[1] == "--memblock":
        memblock(sys.argv[2])
        return
    kb = sys.argv[1]
    ram = int(sys.argv[2], 0) if len(sys.argv) > 2 else 0x21000000
    vmlinux = os.path.join(kb, "vmlinux")
    totals = collections.Counter()
    for line in run(CROSS + "readelf", "-SW", vmlinux).splitlines():
        m = re.match(r"^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m and int(m.group(2), 16) >= ram and int(m.group(3), 16):
            size = int(m.group(3), 16)
            print(f"section {m.group(1)} {size}")
            k = kind(m.group(1))
            if k:
                totals[k] += size

    dirs = collections.defaultdict(collections.Counter)
    obj = None
    for line in run(CROSS + "size", "-A", os.path.join(kb, "vmlinux.a")).splitlines():
        m = re.match(r"^(\S+)\s+\(ex ", line)
        if m:
            obj = os.path.relpath(m.group(1), kb)
            continue
        m = re.match(r"^(\S+)\s+(\d+)\s+\d+$", line)
        if obj and m and kind(m.group(1)):
            dirs[subsystem(obj)][kind(m.group(1))] += int(m.group(2))
    counted = collections.Counter()
    for d in dirs.values():
        counted.update(d)
    rows = sorted(dirs.items(), key=lambda kv: -(kv[1]["data"] + kv[1]["bss"]))
    # The 20 largest, and the filesystems whatever their rank.
    shown = [r for i, r in enumerate(rows) if i < 20 or r[0] in ("fs/cramfs_xip", "fs/cramfs")]
    for name, c in shown:
        print(f"dir {name} {c['data']} {c['bss']} {c['init']}")
    rest = collections.Counter()
    for r in rows:
        if r not in shown:
            rest.update(r[1])
    print(f"dir other-objects {rest['data']} {rest['bss']} {rest['init']}")
    # What no object of vmlinux.a holds: the init task's stack (8 KiB, placed
    # by the linker script), linker tables, lib/lib.a's members, alignment.
    print("dir init-stack-tables-lib.a-padding "
          + " ".join(str(max(totals[k] - counted[k], 0)) for k in ("data", "bss", "init")))

    syms = []
    for line in run(CROSS + "nm", "-S", "--size-sort", vmlinux).splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "dDbB" and int(f[0], 16) >= ram:
            syms.append((int(f[1], 16), f[3]))
    for size, name in sorted(syms, reverse=True)[:15]:
        print(f"symbol {name} {size}")


if __name__ == "__main__":
    main()
