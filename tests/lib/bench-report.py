#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest's BENCH lines into Documentation/benchmarks.md and PNG plots.

   bench-report.py GUEST_OUTPUT DOC_DIR
"""
import datetime
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
            ram[(mod, img, n)] = [int(x) for x in f[5:10]]
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
          "*MemFree* is how much free memory dropped (noisy at this scale).", "",
          "| module | image | N | RAM kB (Cached + Σ Anon) | Cached growth kB | Σ Rss kB "
          "| Σ Pss kB | Σ Anon kB | MemFree drop kB |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for mod in ("cramfs_xip", "mainline"):
        for img in ("xip", "zlib"):
            for n in ns:
                v = ram.get((mod, img, n))
                if v:
                    md.append(f"| {mod} | {img} | {n} | {v[1] + v[4]} | {v[1]} | {v[2]} | {v[3]} "
                              f"| {v[4]} | {v[0]} |")
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
    with open(f"{doc}/benchmarks.md", "w") as f:
        f.write("\n".join(md))


if __name__ == "__main__":
    main()
