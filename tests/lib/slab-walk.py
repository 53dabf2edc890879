# SPDX-License-Identifier: GPL-2.0
# gdb (Python) script: the pages each slab cache holds in a stopped guest,
# read from the kernel's page array; no debug information needed, only the
# symbols mem_map and max_mapnr. For 32-bit ARM without an MMU (FLATMEM)
# and SLUB, as the tiny system's 7.3 kernel (tests/guest-mps2-an385-tiny.sh
# --bench) is: struct page is 32 bytes, and a slab's head page holds the
# cache at offset 4, its counters (inuse:16, objects:15) at 20 and its page
# type at 24 (top byte 0xf5: a slab); tail pages hold head + 1 at offset 4.
# A cache's name is the first word of struct kmem_cache that points to a
# short C string. The runner checks the total against /proc/meminfo's Slab.
# Prints "slab CACHE PAGES OBJECTS_IN_USE OBJECTS" per cache, largest first,
# then "slab-total PAGES".
import re

import gdb

inf = gdb.selected_inferior()


def word(addr):
    return int.from_bytes(inf.read_memory(addr, 4).tobytes(), "little")


def cstring(addr):
    try:
        b = inf.read_memory(addr, 32).tobytes()
    except gdb.MemoryError:
        return None
    s = b.split(b"\0")[0]
    if b"\0" in b and 3 <= len(s) and re.fullmatch(rb"[A-Za-z0-9_\-:.()]+", s):
        return s.decode()
    return None


def cache_name(cache):
    for k in range(48):
        s = cstring(word(cache + 4 * k))
        if s:
            return s
    return "cache-%x" % cache


mem_map = word(int(gdb.parse_and_eval("(unsigned int)&mem_map")))
pages = word(int(gdb.parse_and_eval("(unsigned int)&max_mapnr")))
caches = {}
for i in range(pages):
    page = mem_map + 32 * i
    if word(page + 24) >> 24 != 0xF5:
        continue
    n = 1
    while i + n < pages and word(mem_map + 32 * (i + n) + 4) == page + 1:
        n += 1
    counters = word(page + 20)
    c = caches.setdefault(word(page + 4), [0, 0, 0])
    c[0] += n
    c[1] += counters & 0xFFFF
    c[2] += (counters >> 16) & 0x7FFF
for cache, (n, inuse, objects) in sorted(caches.items(), key=lambda x: (-x[1][0], x[0])):
    print("slab %s %d %d %d" % (cache_name(cache), n, inuse, objects))
print("slab-total %d" % sum(c[0] for c in caches.values()))
