#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the calls between a module's object files and exit 1 on a cycle.

    tests/lib/call-layers.py NM OBJ...

Each object's functions and undefined symbols come from NM (the cross nm);
an object that uses a function another one defines calls it (a table of
operations naming a function counts as its file calling it; referring to
another file's table, which is data, does not). The files must
form layers: mount on top, the image's byte access at the bottom, and no
file that calls back into one above it.
"""
import subprocess
import sys


def symbols(nm, obj):
    defined, used = set(), set()
    for line in subprocess.run([nm, obj], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] == "U":
            used.add(f[1])
        elif len(f) == 3 and f[1] == "T":
            defined.add(f[2])
    return defined, used


def main():
    nm, objs = sys.argv[1], sys.argv[2:]
    syms = {o.rsplit("/", 1)[-1]: symbols(nm, o) for o in objs}
    calls = {a: sorted(b for b in syms if b != a and syms[a][1] & syms[b][0]) for a in syms}
    for a in sorted(calls):
        print(f"{a} -> {' '.join(calls[a]) or '-'}")
    state = {}

    def visit(a, path):
        state[a] = 1
        for b in calls[a]:
            if state.get(b) == 1:
                print("cycle: " + " -> ".join(path[path.index(b):] + [b]))
                return True
            if not state.get(b) and visit(b, path + [b]):
                return True
        state[a] = 2
        return False

    return 1 if any(not state.get(a) and visit(a, [a]) for a in sorted(calls)) else 0


if __name__ == "__main__":
    sys.exit(main())
