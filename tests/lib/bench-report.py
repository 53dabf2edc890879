#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest's BENCH lines into Documentation/benchmarks.md and PNG plots.

   bench-report.py GUEST_OUTPUT DOC_DIR
"""
import datetime
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    lines = [l.split() for l in open(sys.argv[1]) if l.startswith("BENCH ")]
    doc = sys.argv[2]
    ram = {}
    for f in lines:
        if f[1] == "ram":
            mod, img, n = f[2], f[3], int(f[4])
            ram[(mod, img, n)] = [int(x) for x in f[5:11]]
    ns = sorted({k[2] for k in ram})
    md = ["# Benchmarks", "",
          f"Made by `make bench` on {datetime.date.today()} in QEMU vexpress-a9 (Cortex-A9, "
          "128 MiB, Linux 6.1); every figure in a table comes from the same run. "
          "Absolute figures are QEMU's.", "",
          "## RAM: N sleeping BusyBox processes", "",
          "The same tree (Debian's static armhf BusyBox 1.35) as an image made with "
          "`mkcramfs -X` (read-only segments in flash) and without (all compressed), "
          "mounted from NOR flash through cramfs_xip and through mainline `cramfs.ko`. "
          "Page cache is dropped before each run. *Cached* is the page cache the run "
          "added; *Rss*/*Pss* are summed over the processes (`smaps_rollup`); "
          "*Anon* is their private memory. The RAM a run costs is *Cached* + Σ *Anon*; "
          "*MemFree* is how much free memory dropped (noisy at this scale). *Text Rss* "
          "is the RAM mapped as BusyBox's text, summed over the processes: page-cache "
          "pages for a compressed image, none when the text runs from flash.", "",
          "| module | image | N | RAM kB (Cached + Σ Anon) | Cached growth kB | Σ Rss kB "
          "| Σ Pss kB | Σ Anon kB | Σ text Rss kB | MemFree drop kB |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for mod in ("cramfs_xip", "mainline"):
        for img in ("xip", "zlib"):
            for n in ns:
                v = ram.get((mod, img, n))
                if v:
                    md.append(f"| {mod} | {img} | {n} | {v[1] + v[4]} | {v[1]} | {v[2]} | {v[3]} "
                              f"| {v[4]} | {v[5]} | {v[0]} |")
    md += ["", "![RAM against N](bench-ram.png)", ""]
    fig, ax = plt.subplots(figsize=(6, 4))
    for mod, style in (("cramfs_xip", "-"), ("mainline", ":")):
        for img, color in (("xip", "tab:green"), ("zlib", "tab:red")):
            ys = [ram[(mod, img, n)][1] + ram[(mod, img, n)][4] for n in ns
                  if (mod, img, n) in ram]
            if len(ys) == len(ns):
                ax.plot(ns, ys, style, color=color, marker="o", label=f"{mod}, {img} image")
    ax.set_xlabel("BusyBox processes (N)")
    ax.set_ylabel("page cache growth + Σ anonymous (kB)")
    ax.set_title("RAM used by N BusyBox processes")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(f"{doc}/bench-ram.png", dpi=100)
    md += image_sizes(lines, doc)
    md += profile(lines)
    md += speed(lines)
    md += windows(lines)
    md += verity(lines)
    md += trace(lines)
    md += footprint(lines)
    md += nommu(lines)
    md += tiny(lines)
    with open(f"{doc}/benchmarks.md", "w") as f:
        f.write("\n".join(md))


TOOLS = [("mkcramfs-X", "our `mkcramfs -X` (XIP layout)"),
         ("mkcramfs", "our `mkcramfs` (all compressed)"),
         ("mkfs.cramfs", "util-linux `mkfs.cramfs`"),
         ("squashfs-gzip", "`mksquashfs -comp gzip`"),
         ("squashfs-xz", "`mksquashfs -comp xz`"),
         ("erofs-lz4hc", "`mkfs.erofs -zlz4hc`")]


def image_sizes(lines, doc):
    size = {(f[2], f[3]): int(f[4]) for f in lines if f[1] == "size"}
    trees = {f[2]: " ".join(f[3:]) for f in lines if f[1] == "tree"}
    if not size:
        return []
    md = ["## Image size", "",
          "The same trees through each tool (Debian 12's packages for the peers, "
          "default block sizes: 4 KiB for cramfs, 128 KiB for squashfs, 4 KiB for "
          "erofs). Bytes; ratio to util-linux `mkfs.cramfs` in brackets. Only the "
          "`-X` image can run programs in place; the peers must copy every page "
          "they run into RAM.", ""]
    md.append("| tool | " + " | ".join(f"{t} ({trees.get(t, '')})" for t in trees) + " |")
    md.append("| --- |" + " ---: |" * len(trees))
    for tool, desc in TOOLS:
        row = []
        for t in trees:
            v, ref = size.get((t, tool)), size.get((t, "mkfs.cramfs"))
            row.append(f"{v:,} ({v / ref:.2f})" if v and ref else "-")
        md.append(f"| {desc} | " + " | ".join(row) + " |")
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(1, len(trees))
    for i, t in enumerate(trees):
        ys = [size.get((t, tool), 0) / 1024 for tool, _ in TOOLS]
        ax.bar([x + i * width for x in range(len(TOOLS))], ys, width, label=t)
    ax.set_xticks([x + width * (len(trees) - 1) / 2 for x in range(len(TOOLS))])
    ax.set_xticklabels([tool for tool, _ in TOOLS], rotation=20)
    ax.set_ylabel("image size (KiB)")
    ax.set_title("Image size by tool")
    ax.legend()
    fig.tight_layout()
    fig.savefig(f"{doc}/bench-size.png", dpi=100)
    return md + ["", "![Image size](bench-size.png)", ""]


def profile(lines):
    size = {f[2]: int(f[3]) for f in lines if f[1] == "profile-size"}
    ram = {f[2]: f[3:] for f in lines if f[1] == "profile-ram"}
    pages = next((f[2:] for f in lines if f[1] == "profile-pages"), None)
    if not size or "zlib" not in size or not pages:
        return []
    md = ["## Profile-guided XIP", "",
          "The BusyBox tree with a shell script running eight applets "
          "(`tests/guest/profile-workload.sh`): the image all compressed, with `-X`, and "
          "built with `mkcramfs --xip-profile` from the pages the workload executed on "
          "the compressed image (`tests/guest-profile.sh`, the round trip `make check` "
          f"runs). BusyBox pages in place: {pages[0]} profiled, {pages[1]} with `-X`, "
          f"of {pages[2]}. RAM: the page cache the workload leaves (caches dropped "
          "before it), and the text Rss of its shell.", "",
          "| image | bytes | ratio to all compressed | page cache kB | text Rss kB |",
          "| --- | ---: | ---: | ---: | ---: |"]
    for img, desc in (("zlib", "all compressed (`mkcramfs`)"), ("x", "`mkcramfs -X`"),
                      ("profiled", "`mkcramfs --xip-profile`")):
        if img in size:
            r = ram.get(img, ["-", "-"])
            md.append(f"| {desc} | {size[img]:,} | {size[img] / size['zlib']:.2f} "
                      f"| {r[0]} | {r[1] if len(r) > 1 else '-'} |")
    return md + [""]


WHAT = [("mount", "mount(2) of the image"),
        ("readall", "read every file, cold (caches dropped)"),
        ("fault", "first touch of each page of a read-only mapping of BusyBox, cold"),
        ("exec", "`busybox true` from the image: fork + exec + exit, cold")]


def speed(lines):
    """Per (measurement, module, image): the round medians of rounds 1.. (round
    0 is the warm-up). Rounds run A B B A B A A B, so rounds 2k+1 and 2k+2 are
    one pair of the two modules."""
    rounds = {}
    for f in lines:
        if f[1] == "speed" and len(f) > 5 and f[5] != "0":
            kv = dict(x.split("=") for x in f[6:])
            rounds.setdefault((f[2], f[3], f[4]), {})[int(f[5])] = kv
    if not rounds:
        return []
    md = ["## Speed (QEMU with -icount: guest time counts instructions)", "",
          "vexpress-a9 under QEMU TCG with `-icount shift=3,sleep=off`: the guest's clock "
          "advances 8 ns per guest instruction executed (and jumps over idle time), so a "
          "figure is the CPU work of the measured path, the same from run to run and "
          "whatever the host's load; only ratios mean anything. Without it the host's "
          "load moved QEMU's speed by up to 1.7 times from boot to boot and pair ratios "
          "scattered by 30 %. QEMU translates guest code the first time it runs, and in "
          "one boot a module loaded after the other ran slower than after itself (the "
          "old method, one boot with one module after the other, came out up to 1.6 "
          "times slower for whichever ran first: the order, not the module). So each "
          "round is a boot of its own with one module, a warm-up round (not counted) "
          "before the measured one, and the rounds go A B B A B A A B (A: cramfs_xip). "
          "Each cell is the median of the round medians, [min – max] of the round "
          "medians as the spread; *ratio* is cramfs_xip's over mainline's (below 1: ours "
          "is faster), with [min – max] of the ratios of the four A/B pairs of adjacent "
          "rounds.", "",
          "| measurement | image | cramfs_xip | mainline | ratio [pairs] |",
          "| --- | --- | --- | --- | ---: |"]
    med = statistics.median
    for what, desc in WHAT:
        for img in ("xip", "zlib"):
            a, b = rounds.get((what, "cramfs_xip", img)), rounds.get((what, "mainline", img))
            if not a or not b:
                continue
            unit, reps = a[min(a)]["unit"], a[min(a)]["reps"]
            am = {r: float(v["median"]) for r, v in a.items()}
            bm = {r: float(v["median"]) for r, v in b.items()}
            cell = lambda m: f"{med(m.values()):.1f} [{min(m.values()):.1f} – {max(m.values()):.1f}] {unit}"  # noqa: E731
            pairs = []
            for r in range(1, max(max(am), max(bm)) + 1, 2):
                x, y = am.get(r, am.get(r + 1)), bm.get(r, bm.get(r + 1))
                if x is not None and y:
                    pairs.append(x / y)
            ratio = med(am.values()) / med(bm.values())
            md.append(f"| {desc} ({len(am)}+{len(bm)} rounds of {reps}) | {img} | {cell(am)} | "
                      f"{cell(bm)} | {ratio:.2f} [{min(pairs):.2f} – {max(pairs):.2f}] |")
    return md + [""]


def windows(lines):
    """The fault window: cramfs_xip-wN rounds (one each) against the module's
    (16 pages) and mainline's medians, XIP image."""
    runs = {}
    for f in lines:
        if f[1] == "speed" and len(f) > 5 and f[5] != "0" and f[4] == "xip":
            kv = dict(x.split("=") for x in f[6:])
            runs.setdefault(f[3], {}).setdefault(f[2], []).append(float(kv["median"]))
    names = sorted((n for n in runs if n.startswith("cramfs_xip-w")), key=lambda n: int(n[12:]))
    if not names or "cramfs_xip" not in runs or "mainline" not in runs:
        return []
    med = statistics.median
    md = ["### The fault window", "",
          "A fault on a page in place inserts the pages in place of its aligned window "
          "(`CRAMFS_XIP_WINDOW`, 16 pages, fault-around's 64 KiB); the module built with "
          "windows of 1 and 64 pages, and with every page in place inserted at mmap "
          "(`CRAMFS_XIP_WINDOW=0`: one `vmf_insert_mixed()` per page, where mainline's "
          "`remap_pfn_range()` fills the page table in one pass), one round each, against "
          "the rounds above (XIP image; ratio to mainline's median in brackets). First touch "
          "times the touches after `mmap()`: pages inserted at mmap (mainline's, and the "
          "at-mmap option's) cost it nothing there; exec counts both.", "",
          "| measurement | " + " | ".join("all at mmap" if n[12:] == "0" else f"{n[12:]} pages"
                                          for n in names) +
          " | 16 pages | mainline |",
          "| --- |" + " ---: |" * (len(names) + 2)]
    for what, desc in WHAT:
        if what not in runs["mainline"] or any(what not in runs[n] for n in names + ["cramfs_xip"]):
            continue
        base = med(runs["mainline"][what])
        cells = [f"{med(runs[n][what]):.1f} ({med(runs[n][what]) / base:.2f})"
                 for n in names + ["cramfs_xip"]]
        md.append(f"| {desc} | " + " | ".join(cells) + f" | {base:.1f} |")
    return md + [""]


VWHAT = [("mount", "mount(2) of the image"),
         ("firstread", "read every file, the first time after its mount (a new mount each)"),
         ("firstexec", "`busybox true`, the first run after its mount (a new mount each)"),
         ("readall", "read every file, cold (caches dropped), the mount kept"),
         ("fault", "first touch of each page of a read-only mapping of BusyBox, cold"),
         ("exec", "`busybox true` from the image, cold")]


def verity(lines):
    """Verity's rounds on 7.3: verity-on against verity-off, round medians."""
    runs, units = {}, {}
    for f in lines:
        if f[1] == "speed" and len(f) > 5 and f[5] != "0" and f[3] in ("verity-on", "verity-off"):
            kv = dict(x.split("=") for x in f[6:])
            runs.setdefault((f[2], f[3], f[4]), []).append(float(kv["median"]))
            units[f[2]] = kv["unit"]
    size = next((f for f in lines if f[1] == "verity-size"), None)
    var = {f[2]: int(f[3]) for f in lines if f[1] == "kovariant"}
    ko = {f[2]: int(f[3]) for f in lines if f[1] == "kosize"}
    if not runs and not size:
        return []
    med = statistics.median
    md = ["## Verity", "",
          "vexpress-a9 with Linux 7.3 (its kernel has SHA-256), under `-icount` as above: "
          "the module built with verity (`CONFIG_CRAMFS_XIP_VERITY=y`), each mount given "
          "its image's root hash (`-o verity=`), against the module without it, on the "
          "same images made with `mkcramfs --verity`; eight rounds, one module a boot, "
          "A B B A B A A B. A block is hashed the first time anything reads or maps it "
          "after the mount, and never again in that mount: the *first* rows (a new mount "
          "for each repetition) pay for it, the rows with the mount kept pay nothing once "
          "a block is checked (their first repetition does, the median does not). A mount "
          "hashes three blocks before it parses anything (the tree's top block, the "
          "superblock's and the tree block between them): nearly all of its time here, "
          "where a hash of 4 KiB is about a millisecond of guest instructions. Each "
          "cell is the median of the round medians; *ratio* is with over without.", "",
          "| measurement | image | without | with | ratio |",
          "| --- | --- | ---: | ---: | ---: |"]
    for what, desc in VWHAT:
        for img in ("xip", "zlib"):
            a, b = runs.get((what, "verity-off", img)), runs.get((what, "verity-on", img))
            if a and b:
                md.append(f"| {desc} | {img} | {med(a):.1f} {units[what]} | "
                          f"{med(b):.1f} {units[what]} | {med(b) / med(a):.2f} |")
    md.append("")
    if size:
        data, plain, full = (int(x) for x in size[2:5])
        blocks, tree = -(-data // 4096), full - plain - 4096
        md += [f"Flash: the BusyBox tree with `-X` is {plain:,} bytes ({blocks} blocks of "
               f"4 KiB); `--verity` makes it {full:,}, {full - plain:,} bytes more "
               f"({100.0 * (full - plain) / plain:.2f} %): the trailer's 4 KiB and "
               f"{tree:,} bytes of tree ({100.0 * tree / plain:.2f} %). The tree holds 32 "
               "bytes per block (0.78 %) in blocks of 4 KiB, each level's last one "
               "partly filled, plus 1/128 of that for each level above: on a large image "
               "0.79 %, on this one a block per level more. A signature (about 700 bytes "
               "with an RSA-2048 key) adds a page more.", ""]
    if "verity" in var and "cramfs_xip" in ko:
        md += [f"Module text (`size`, Linux 6.1 as in \"Footprint\"): {ko['cramfs_xip']:,} "
               f"bytes without verity, {var['verity']:,} with "
               f"({var['verity'] - ko['cramfs_xip']:,} more). It is a build option, off by "
               "default: the tiny system leaves it out.", ""]
    return md


TRACED = (("mount", "mount(2) + umount(2), 5 times (XIP image)"),
          ("readall-xip", "read every file, cold (XIP image)"),
          ("fault-xip", "first touch of each page of a mapping of BusyBox, cold (XIP image): "
           "the page-cache faults (`filemap_fault`, what it calls of the filesystem "
           "included) beside the filesystem's own functions"),
          ("exec-xip", "`busybox true`, 5 times, cold (XIP image)"),
          ("readall-zlib", "read every file, cold (compressed image)"),
          ("exec-zlib", "`busybox true`, 5 times, cold (compressed image)"))


def trace(lines):
    """BENCH trace MODULE WHAT FUNCTION calls=N total_us=T: the top functions."""
    top = {}
    for f in lines:
        if f[1] == "trace" and len(f) == 7:
            kv = dict(x.split("=") for x in f[5:])
            top.setdefault((f[2], f[3]), []).append(
                (f[4], int(kv["calls"]), float(kv["total_us"])))
    if not top:
        return []
    md = ["## Where the time goes (ftrace)", "",
          "The speed rows once more, in one boot of a kernel with ftrace's `function_graph` "
          "tracer (`BENCH_TRACE=1 make bench`, one more kernel build), under `-icount`, each "
          "module in turn: every function of the filesystem (`cramfs_xip_*`, `cramfs_*`) is "
          "a graph root, and its time includes what it calls elsewhere in the kernel "
          "(zlib, page tables, the MTD). Functions called from one another count in both, so "
          "the column does not add up. Tracing adds its own cost to every call traced. "
          "The functions with the most time, with their calls, in µs:", "",
          "| measurement | cramfs_xip | mainline |", "| --- | --- | --- |"]
    for what, desc in TRACED:
        cells = []
        for mod in ("cramfs_xip", "mainline"):
            rows = sorted(top.get((mod, what), []), key=lambda r: -r[2])[:4]
            cells.append("<br>".join(f"`{n}` {c}× {t:,.0f}" for n, c, t in rows) or "-")
        md.append(f"| {desc} | {cells[0]} | {cells[1]} |")
    return md + [""]


def module_rows(cells):
    """Table rows, one per module that has figures in @cells, then a blank line."""
    return [f"| {name} | " + " | ".join(cells[mod]) + " |"
            for mod, name in (("cramfs_xip", "cramfs_xip.ko"), ("mainline", "cramfs.ko"))
            if mod in cells] + [""]


def footprint(lines):
    fp = {f[2]: (int(f[4]), int(f[6]), int(f[8])) for f in lines if f[1] == "footprint"}
    ko = {f[2]: f[3:6] for f in lines if f[1] == "kosize"}
    if not fp and not ko:
        return []
    md = ["## Footprint", "",
          "`size` of each module (vexpress-a9, Linux 6.1, the same cross compiler and "
          "kernel configuration), and the kernel memory each holds in the guest "
          "(Slab + VmallocUsed: module code and data, slabs, vmalloc'd workspaces; "
          "page granular): gained by `insmod`, by one mount of the XIP image, and by "
          "that mount's first decompressed block (medians of 7 rounds after a warm-up "
          "round; single rounds move by a few pages with unrelated slab reclaim). Mainline "
          "allocates its zlib workspace when loaded and keeps its 32 KiB of "
          "block-device buffers in `.bss`; cramfs_xip allocates a workspace when a "
          "mount first decompresses and frees it at unmount.", "",
          "| module | text | data | bss | insmod kB | mount kB | first decompression kB |",
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for mod, name in (("cramfs_xip", "cramfs_xip.ko"), ("mainline", "cramfs.ko")):
        t = ko.get(mod, ["-"] * 3)
        f = fp.get(mod, ("-", "-", "-"))
        md.append(f"| {name} | {t[0]} | {t[1]} | {t[2]} | {f[0]} | {f[1]} | {f[2]} |")
    md.append("")
    fpb = {f[2]: (f[4], f[6], f[8]) for f in lines if f[1] == "footprint-block"}
    if fpb:
        md += ["The same images on a block device (the SD card holding the XIP image, "
               "which neither module can map in place), each module in turn: the kernel "
               "memory one mount holds, what reading every file adds to it, and what that "
               "reading adds to the page cache (the files' pages and the device's own). "
               "cramfs_xip holds an 8 KiB buffer for one compressed block per such mount, "
               "besides its zlib workspace; mainline's 32 KiB of buffers are in its `.bss` "
               "above, mounted or not.", "",
               "| module | mount kB | reading every file kB | page cache kB |",
               "| --- | ---: | ---: | ---: |"]
        md += module_rows(fpb)
    var = {f[2]: int(f[3]) for f in lines if f[1] == "kovariant"}
    if var and "cramfs_xip" in ko:
        full = int(ko["cramfs_xip"][0])
        names = {"no-physaddr": "without `physaddr=` (`CONFIG_CRAMFS_XIP_PHYSADDR=n`)",
                 "no-blockdev": "without block devices (`CONFIG_CRAMFS_XIP_BLOCKDEV=n`)",
                 "no-mtd-read": "without `mtd_read` (`CONFIG_CRAMFS_XIP_MTD_READ=n`)",
                 "mtd-only": "memory-mapped MTDs only (all three `=n`)"}
        md += ["cramfs_xip.ko's `size` text with the media a kernel may not need left out "
               "(`make CONFIG_CRAMFS_XIP_...=n`, or Kconfig in a kernel tree; the guest "
               "tests run the MTD-only build too):", "",
               "| build | text | saved |", "| --- | ---: | ---: |",
               f"| everything (default) | {full} | |"]
        md += [f"| {names.get(n, n)} | {t} | {full - t} |" for n, t in var.items()
               if n != "verity"]
        md.append("")
    sec = {f[2]: f[3:8] for f in lines if f[1] == "kosections"}
    if sec:
        md += ["Where `size`'s *text* goes, in bytes: code (`.text`, `.init.text`, "
               "`.exit.text`), message strings (`.rodata.str*`), other read-only data, "
               "unwind tables (`.ARM.exidx`/`.ARM.extab`), and the rest (modinfo, notes, "
               "parameters).", "",
               "| module | code | strings | other rodata | unwind | rest |",
               "| --- | ---: | ---: | ---: | ---: | ---: |"]
        md += module_rows(sec)
    for mod, name in (("cramfs_xip", "cramfs_xip.ko"), ("mainline", "cramfs.ko")):
        funcs = [(f[3], int(f[4])) for f in lines if f[1] == "kofunc" and f[2] == mod]
        if funcs:
            md += [f"Largest functions of {name}: " +
                   ", ".join(f"`{n}` {b}" for n, b in sorted(funcs, key=lambda x: -x[1])) + ".", ""]
    return md


def nommu(lines):
    text = [" ".join(f) for f in lines]
    ram, fp, ks, sp, core = {}, {}, {}, {}, {}
    for t in text:
        m = re.match(r"BENCH nommu-coresize (.+) (\d+)$", t)
        if m:
            core[m[1]] = int(m[2])
        m = re.match(r"BENCH nommu-speed (\S+) ((?:[a-z-]+ -?\d+ )+)us$", t)
        if m:
            f = m[2].split()
            sp[m[1]] = dict(zip(f[::2], (int(x) for x in f[1::2])))
        m = re.match(r"BENCH nommu-ram (.+) xip (\d+) slab (-?\d+) zlib (\d+) slab (-?\d+)$", t)
        if m:
            ram[m[1]] = (int(m[2]), int(m[3]), int(m[4]), int(m[5]))
        m = re.match(r"BENCH nommu-footprint (.+) load (\d+) mount (\d+) "
                     r"first-decompression (\d+) kB$", t)
        if m:
            fp[m[1]] = m.groups()[1:]
        m = re.match(r"BENCH nommu-kernel-size (\w+) vmlinux (\d+) (\d+) (\d+) "
                     r"MemTotal (\d+) MemFree (\d+)$", t)
        if m:
            ks[m[1]] = [int(x) for x in m.groups()[1:]]
    if not ram and not fp and not ks and not sp:
        return []
    md = ["## No MMU: mps2-an385 (Cortex-M3, 16 MiB, Linux 6.1)", "",
          "The same kind of figures on the microcontroller board, from the same run. "
          "*MemFree drop* is what starting 4 instances of a small FDPIC program "
          "(68 KiB, 64 of them read-only text) cost, stacks included: stored for XIP "
          "its text is the flash itself; stored compressed, its text runs from a copy "
          "in RAM, and the difference between the columns is that copy.", "",
          "| module | 4 instances, XIP: MemFree drop kB | of it slab kB "
          "| compressed: MemFree drop kB | of it slab kB |",
          "| --- | ---: | ---: | ---: | ---: |"]
    for mod, v in ram.items():
        md.append(f"| {mod} | {v[0]} | {v[1]} | {v[2]} | {v[3]} |")
    md += ["", "RAM each module holds (MemFree, after a warm-up round): loaded, one mount "
           "of the image, and that mount's first compressed page read (the zlib "
           "workspace plus one page-cache page). Without an MMU, mainline's "
           "`vmalloc()` of its 43 KB workspace is a 64 KiB `kmalloc()`; cramfs_xip "
           "allocates only the pages a one-page inflate touches, and only once a "
           "mount decompresses. *coresize* is the module loader's one allocation for "
           "the module's code, data and symbols; without an MMU it is a `kmalloc()`, "
           "rounded up to a power of two (16,389 bytes once cost 32 kB: `make check` "
           "now fails cramfs_xip above 16 KiB on 6.1; from 6.4 the loader allocates "
           "text, read-only data and data apart, each rounded up to pages, and the "
           "limit is 20 KiB there).", "",
           "| module | coresize bytes | insmod kB | mount kB | first decompression kB | total kB |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for mod, v in fp.items():
        md.append(f"| {mod} | {core.get(mod, '-')} | {v[0]} | {v[1]} | {v[2]} | "
                  f"{sum(int(x) for x in v)} |")
    if "cramfs_xip" in sp and "mainline" in sp:
        a, b = sp["cramfs_xip"], sp["mainline"]
        rows = (("mount", "mount(2) of the image"),
                ("read-xip", "read the FDPIC program (stored for XIP), cold"),
                ("read-zlib", "read a compressed file (9 KB), cold"),
                ("exec-xip", "vfork + exec + exit of the program, in place"),
                ("exec-zlib", "the same, compressed copy (runs from RAM)"))
        md += ["", "Speed on this board, each module in turn in one boot under QEMU "
               "`-icount` (guest time counts instructions, so the order and the host do "
               "not matter), caches dropped before each read and exec: medians of 7 "
               "runs, microseconds; *ratio* is cramfs_xip's over mainline's.", "",
               "| measurement | cramfs_xip µs | mainline µs | ratio |",
               "| --- | ---: | ---: | ---: |"]
        for k, desc in rows:
            if k in a and k in b and a[k] > 0 and b[k] > 0:
                md.append(f"| {desc} | {a[k]:,} | {b[k]:,} | {a[k] / b[k]:.2f} |")
    if "mtd" in ks and "nomtd" in ks:
        a, b = ks["mtd"], ks["nomtd"]
        md += ["", "The kernel with cramfs_xip built in, with MTD (root=mtd:fs_partition) "
               "and without (`CONFIG_MTD=n`, root by `physaddr=`): `size vmlinux` in "
               "bytes, and MemTotal/MemFree in kB when init starts.", "",
               "| kernel | text | data | bss | MemTotal | MemFree at init |",
               "| --- | ---: | ---: | ---: | ---: | ---: |",
               f"| with MTD | {a[0]:,} | {a[1]:,} | {a[2]:,} | {a[3]:,} | {a[4]:,} |",
               f"| without MTD | {b[0]:,} | {b[1]:,} | {b[2]:,} | {b[3]:,} | {b[4]:,} |",
               f"| difference | {b[0] - a[0]:,} | {b[1] - a[1]:,} | {b[2] - a[2]:,} "
               f"| {b[3] - a[3]:+,} | {b[4] - a[4]:+,} |"]
    return md + [""]


TINY_ROWS = [("xip", "cramfs_xip root, programs stored for XIP (`mkcramfs -X`)"),
             ("compressed", "cramfs_xip root, the same programs compressed"),
             ("mainline", "mainline cramfs root (`CONFIG_CRAMFS=y`), the `-X` image"),
             ("initramfs", "initramfs (gzip cpio loaded at the top of RAM)"),
             ("xip-7.3", "cramfs_xip root, `-X`, on Linux 7.3 (SLUB_TINY: SLOB is gone)")]


def tiny(lines):
    """The tiny system: the least mem= of each system, and where the RAM goes."""
    least, mi, memory, ram, ram73 = {}, {}, {}, [], []
    flash = None
    slab73, slab73_total = [], None
    for f in lines:
        if f[1] == "tiny-slab-7.3":
            slab73.append((f[2], int(f[3]), int(f[4]), int(f[5])))
        elif f[1] == "tiny-slab-total-7.3":
            slab73_total = (int(f[2]), int(f[3]))
        elif f[1] == "tiny-ram-7.3":
            ram73.append(f[2:])
        elif f[1] == "tiny-memblock-7.3":
            ram73.append(["memblock"] + f[2:])
        elif f[1] == "tiny-least":
            least[f[2]] = f[3]
        elif f[1] == "tiny-meminfo":
            mi.setdefault(f[2], {})[f[3]] = int(f[4])
        elif f[1] == "tiny-memory":
            memory[f[2]] = " ".join(f[3:])
        elif f[1] == "tiny-ram":
            ram.append(f[2:])
        elif f[1] == "tiny-memblock":
            ram.append(["memblock"] + f[2:])
        elif f[1] == "tiny-flash":
            flash = (int(f[3]), int(f[5]))
    if not least:
        return []
    md = ["", "## The tiny system: the least RAM (mps2-an385, XIP kernel)", "",
          "`tests/guest-mps2-an385-tiny.sh --bench`: the kernel executes in place from flash "
          "(Debian 6.1, `tests/boards/mps2-an385-tiny/kernel.config`, no patches); `mem=` is "
          "bisected, a page at a time, to the least at which the board boots to init and runs 4 "
          "instances of the XIP program (each checks where its code runs) while init reads "
          "`/proc/meminfo`. Figures in kB from that boot; *Memory* is the kernel's line at boot.",
          ""]
    if flash:
        md += [f"Flash: kernel (xipImage) {flash[0]:,} bytes, root image (`-X`) {flash[1]:,} bytes.",
               ""]
    md += ["| system | least mem= | MemTotal | MemFree | Slab | KernelStack | Cached | Memory |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for key, label in TINY_ROWS:
        if key in least:
            v = mi.get(key, {})
            md.append(f"| {label} | {least[key]} KiB | {v.get('MemTotal', '')} "
                      f"| {v.get('MemFree', '')} | {v.get('Slab', '')} "
                      f"| {v.get('KernelStack', '')} | {v.get('Cached', '')} "
                      f"| {memory.get(key, '')} |")
    mb = {r[1]: int(r[2]) for r in ram if r[0] == "memblock"}
    mb73 = {r[1]: int(r[2]) for r in ram73 if r[0] == "memblock"}
    if mb:
        md += ["", "What the kernel sets aside at boot (`memblock=debug`, at `mem=768K`), by the "
               "function that asked, in bytes: the kernel image's RAM part (its data, init data "
               "and bss), the page array (`free_area_init`: `struct page` for RAM rounded to the "
               "largest buddy block), the per-CPU area, the dentry and inode hash tables, the "
               "unflattened device tree (`early_init_dt_alloc_memory_arch`); negative: given "
               "back.", "",
               "| function | 6.1 | 7.3 |", "| --- | ---: | ---: |"]
        for k in list(mb) + [k for k in mb73 if k not in mb]:
            a = f"{mb[k]:,}" if k in mb else ""
            b = f"{mb73[k]:,}" if k in mb73 else ""
            md.append(f"| `{k}` | {a} | {b} |")
        if mb73:
            md.append(f"| total | {sum(mb.values()):,} | {sum(mb73.values()):,} |")
    if slab73:
        used = sum(p for _, p, _, _ in slab73)
        md += ["", "The slab on 7.3 (SLUB with `SLUB_TINY`), cache by cache, while the 4 programs "
               "run at `mem=768K`: gdb stops the guest and reads the page array "
               "(`tests/lib/slab-walk.py`; "
               f"{used} pages, {used * 4} KiB, against `/proc/meminfo`'s Slab "
               f"{slab73_total[1] if slab73_total else '?'} kB). SLUB gives each cache whole "
               "pages (merged caches share them, named after the first); 6.1's SLOB packed "
               "objects of every kind into shared pages, so it has no such table.", "",
               "| cache | pages | objects in use / room |", "| --- | ---: | ---: |"]
        md += [f"| `{c}` | {p} | {i} / {o} |" for c, p, i, o in slab73]
    secs = [r for r in ram if r[0] == "section"]
    secs73 = {r[1]: int(r[2]) for r in ram73 if r[0] == "section"}
    dirs = [r for r in ram if r[0] == "dir"]
    syms = [r for r in ram if r[0] == "symbol"]
    md += ["", "What the XIP kernel keeps in RAM, by section (bytes; `.init.data` is given "
           "back after boot):", "",
           "| section | 6.1 | 7.3 |", "| --- | ---: | ---: |"]
    md += [f"| `{r[1]}` | {int(r[2]):,} | "
           f"{(f'{secs73[r[1]]:,}' if r[1] in secs73 else '')} |" for r in secs]
    md += ["", "By subsystem (the built-in objects' writable sections, `size -A vmlinux.a`):", "",
           "| subsystem | data | bss | init data |", "| --- | ---: | ---: | ---: |"]
    md += [f"| {r[1]} | {int(r[2]):,} | {int(r[3]):,} | {int(r[4]):,} |" for r in dirs]
    md += ["", "The largest symbols in RAM:", "", "| symbol | bytes |", "| --- | ---: |"]
    md += [f"| `{r[1]}` | {int(r[2]):,} |" for r in syms]
    return md


if __name__ == "__main__":
    main()
