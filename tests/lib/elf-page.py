#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The file page (4 KiB) that holds a virtual address of a 32-bit ELF file.

    elf-page.py FILE HEXADDR   -> the page number, from the PT_LOAD segment
                                  that holds HEXADDR
"""
import struct
import sys


def main():
    path, addr = sys.argv[1], int(sys.argv[2], 16)
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1:
        sys.exit(f"{path}: not a 32-bit ELF file")
    end = "<" if data[5] == 1 else ">"
    phoff, = struct.unpack_from(end + "I", data, 28)
    phentsize, phnum = struct.unpack_from(end + "HH", data, 42)
    for i in range(phnum):
        p_type, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
            end + "5I", data, phoff + i * phentsize)
        if p_type == 1 and p_vaddr <= addr < p_vaddr + p_filesz:
            print((addr - p_vaddr + p_offset) // 4096)
            return
    sys.exit(f"{path}: no PT_LOAD segment holds {addr:#x}")


main()
