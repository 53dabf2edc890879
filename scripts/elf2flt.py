#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a freestanding, statically linked RV64 ELF program into a bFLT file
(version 4) as Linux's fs/binfmt_flat.c loads it on a kernel without an MMU.

Link the program at address 0 with its relocations kept and not relaxed:

    riscv64-linux-gnu-gcc -ffreestanding -nostdlib -static -fno-pic -no-pie \\
        -mcmodel=medany -Wl,--emit-relocs -Wl,--no-relax -Wl,--build-id=none \\
        -T tests/guest/nommu-riscv/flat.ld -o prog.elf prog.c
    scripts/elf2flt.py prog.elf prog

--emit-relocs (-q) keeps the relocations in the executable, which is how the
absolute addresses are found; --no-relax keeps the code as the relocations
describe it (relaxation rewrites addresses near 0 as absolute, x0-relative).

Read-only PT_LOAD segments make the text, which follows the 64-byte header
in the file; the one writable segment makes the data, and its memory size
past its file size the bss. Each absolute R_RISCV_64 or R_RISCV_32 in the data
becomes a relocation entry: the big-endian offset of the word in the image
(text from 0, then data), the word holding its target's offset the same way,
big-endian in its low 32 bits. binfmt_flat relocates 32-bit words on RISC-V
(asm-generic/flat.h), so the program must be loaded below 4 GiB.

By default the header's FLAT_FLAG_RAM is off: binfmt_flat maps the text from
the file (in place, from a cramfs_xip image) and gives the data RAM of its
own, anywhere. A text that holds an absolute address, or code that reaches
the data PC-relatively (auipc, as RISC-V compilers do for every global), or
the data the text, cannot run so: the program is refused, naming the place.
--ram sets FLAT_FLAG_RAM instead: the whole file is copied into RAM, the data
right after the text as linked (the data must start 32 bytes aligned), and
such programs run, from RAM.

Exit status: 0 converted, 1 the ELF cannot be converted (the reason on
stderr), 2 usage.
"""
import argparse
import os
import struct
import sys

FLAT_VERSION = 4
FLAT_HDR_SIZE = 64
FLAT_DATA_ALIGN = 32    # binfmt_flat's FLAT_DATA_ALIGN
FLAT_FLAG_RAM = 0x1

EM_RISCV = 243
ET_EXEC, ET_DYN = 2, 3
PT_LOAD, PT_DYNAMIC, PT_INTERP, PT_TLS = 1, 2, 3, 7
PF_X, PF_W = 1, 2
SHT_SYMTAB, SHT_RELA, SHT_REL = 2, 4, 9
SHF_ALLOC = 2
SHN_UNDEF, SHN_ABS = 0, 0xfff1

# RISC-V relocation types (psABI), by what the conversion does with them.
ABSOLUTE = {1: ("R_RISCV_32", 4), 2: ("R_RISCV_64", 8)}
PCREL = {16: "R_RISCV_BRANCH", 17: "R_RISCV_JAL", 18: "R_RISCV_CALL",
     19: "R_RISCV_CALL_PLT", 23: "R_RISCV_PCREL_HI20", 44: "R_RISCV_RVC_BRANCH",
     45: "R_RISCV_RVC_JUMP", 57: "R_RISCV_32_PCREL", 59: "R_RISCV_PLT32"}
NOTHING = {0: "R_RISCV_NONE", 24: "R_RISCV_PCREL_LO12_I", 25: "R_RISCV_PCREL_LO12_S",
       43: "R_RISCV_ALIGN", 51: "R_RISCV_RELAX"}
DIFFERENCE = {33: "R_RISCV_ADD8", 34: "R_RISCV_ADD16", 35: "R_RISCV_ADD32",
          36: "R_RISCV_ADD64", 37: "R_RISCV_SUB8", 38: "R_RISCV_SUB16",
          39: "R_RISCV_SUB32", 40: "R_RISCV_SUB64", 52: "R_RISCV_SUB6",
          53: "R_RISCV_SET6", 54: "R_RISCV_SET8", 55: "R_RISCV_SET16",
          56: "R_RISCV_SET32", 60: "R_RISCV_SET_ULEB128", 61: "R_RISCV_SUB_ULEB128"}
# Absolute addresses in instructions: only constants (absolute symbols) pass.
IN_CODE = {26: "R_RISCV_HI20", 27: "R_RISCV_LO12_I", 28: "R_RISCV_LO12_S"}
OTHER = {3: "R_RISCV_RELATIVE", 4: "R_RISCV_COPY", 5: "R_RISCV_JUMP_SLOT",
     20: "R_RISCV_GOT_HI20", 21: "R_RISCV_TLS_GOT_HI20", 22: "R_RISCV_TLS_GD_HI20",
     29: "R_RISCV_TPREL_HI20", 30: "R_RISCV_TPREL_LO12_I", 31: "R_RISCV_TPREL_LO12_S",
     32: "R_RISCV_TPREL_ADD", 41: "R_RISCV_GOT32_PCREL", 58: "R_RISCV_IRELATIVE"}


class Refused(Exception):
    """The ELF cannot be made into a bFLT file; the message says why."""


def type_name(t):
    for table in (PCREL, NOTHING, DIFFERENCE, IN_CODE, OTHER):
        if t in table:
            return table[t]
    return ABSOLUTE[t][0] if t in ABSOLUTE else f"relocation type {t}"


class Elf:
    def __init__(self, data):
        self.data = data
        if data[:4] != b"\x7fELF":
            raise Refused("not an ELF file")
        if data[4] != 2 or data[5] != 1:
            raise Refused("not a 64-bit little-endian ELF file (RV64 wanted)")
        (self.type, machine, _, self.entry, phoff, shoff, _, _, phentsize, phnum,
         shentsize, shnum, _) = struct.unpack_from("<HHIQQQIHHHHHH", data, 16)
        if machine != EM_RISCV:
            raise Refused(f"machine {machine}, not RISC-V ({EM_RISCV})")
        self.phdrs = [struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize)
                  for i in range(phnum)]
        self.shdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                  for i in range(shnum)]

    def section_bytes(self, sh):
        return self.data[sh[4]:sh[4] + sh[5]]

    def section_name(self, index):
        shstrndx, = struct.unpack_from("<H", self.data, 62)
        strtab = self.section_bytes(self.shdrs[shstrndx])
        name = self.shdrs[index][0]
        return strtab[name:strtab.index(b"\0", name)].decode(errors="replace")

    def symbols(self):
        for sh in self.shdrs:
            if sh[1] == SHT_SYMTAB:
                raw = self.section_bytes(sh)
                strtab = self.section_bytes(self.shdrs[sh[6]])
                syms = []
                for off in range(0, len(raw), 24):
                    name, _, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", raw, off)
                    syms.append((strtab[name:strtab.index(b"\0", name)].decode(errors="replace"),
                             shndx, value))
                return syms
        raise Refused("no symbol table (stripped?): link without -s")


class Layout:
    """Where the ELF's addresses go in the bFLT image and in the file."""

    def __init__(self, elf, ram):
        if elf.type == ET_DYN:
            raise Refused("a position-independent executable or shared object (ET_DYN): "
                      "link with -static -no-pie")
        if elf.type != ET_EXEC:
            raise Refused(f"ELF type {elf.type}, not an executable")
        for ph in elf.phdrs:
            if ph[0] in (PT_DYNAMIC, PT_INTERP):
                raise Refused("dynamically linked (PT_DYNAMIC or PT_INTERP): "
                          "bFLT programs are static: link with -static -nostdlib")
            if ph[0] == PT_TLS:
                raise Refused("thread-local storage (PT_TLS) cannot be expressed in bFLT")
        loads = sorted((ph for ph in elf.phdrs if ph[0] == PT_LOAD and ph[6]),
                   key=lambda ph: ph[3])
        text = [ph for ph in loads if not ph[1] & PF_W]
        data = [ph for ph in loads if ph[1] & PF_W]
        for ph in data:
            if ph[1] & PF_X:
                raise Refused(f"segment at {ph[3]:#x} is writable and executable: link "
                          "the text and the data into segments of their own "
                          "(PHDRS, as in tests/guest/nommu-riscv/flat.ld)")
        if not text:
            raise Refused("no read-only segment: nothing to make the text of")
        if len(data) > 1:
            raise Refused(f"{len(data)} writable segments: bFLT has one data segment")
        self.text_base = text[0][3]
        self.text_end = max(ph[3] + ph[6] for ph in text)
        if data and data[0][3] < self.text_end:
            raise Refused("the writable segment lies before or inside the text: "
                      "bFLT places the data after the text")
        self.text = bytearray(self.text_end - self.text_base)
        for ph in text:
            at = ph[3] - self.text_base
            self.text[at:at + ph[5]] = elf.data[ph[2]:ph[2] + ph[5]]
        if data:
            self.data_base, self.data = data[0][3], bytearray(elf.data[data[0][2]:][:data[0][5]])
            self.data_memsz = data[0][6]
        else:
            # No data: it starts where binfmt_flat aligns it after the text.
            pad = -(FLAT_HDR_SIZE + len(self.text)) % FLAT_DATA_ALIGN
            self.data_base, self.data, self.data_memsz = self.text_end + pad, bytearray(), 0
        if ram:
            # Data right after the text as linked: PC-relative code stays right.
            text_len = self.data_base - self.text_base
            if (FLAT_HDR_SIZE + text_len) % FLAT_DATA_ALIGN:
                raise Refused(f"with --ram the data must be linked at a multiple of "
                          f"{FLAT_DATA_ALIGN} from the text (it is at "
                          f"{text_len:#x}): align .data to {FLAT_DATA_ALIGN}")
        else:
            text_len = -(-(FLAT_HDR_SIZE + len(self.text)) // FLAT_DATA_ALIGN) * \
                FLAT_DATA_ALIGN - FLAT_HDR_SIZE
        self.text.extend(bytes(text_len - len(self.text)))
        self.ram = ram

    def segment(self, addr):
        """'text' or 'data' for an address of the program (the end of the bss
        included, as calc_reloc() allows), None for any other."""
        if self.text_base <= addr < self.text_base + len(self.text):
            return "text"
        if self.data_base <= addr <= self.data_base + self.data_memsz:
            return "data"
        return None

    def offset(self, addr):
        """The offset in the image binfmt_flat's calc_reloc() takes: from the
        text's first byte after the header; the data from the text's length."""
        if self.segment(addr) == "text":
            return addr - self.text_base
        return len(self.text) + addr - self.data_base


def convert(elf, ram):
    lay = Layout(elf, ram)
    syms = elf.symbols()
    for i, sh in enumerate(elf.shdrs):
        if sh[1] == SHT_REL and elf.shdrs[sh[7]][2] & SHF_ALLOC:
            raise Refused(f"{elf.section_name(i)}: REL relocations (RISC-V uses RELA)")
        if elf.section_name(i) in (".got", ".got.plt") and sh[5]:
            raise Refused("a global offset table (.got): compile with -fno-pic")
    relas = [(i, sh) for i, sh in enumerate(elf.shdrs)
         if sh[1] == SHT_RELA and elf.shdrs[sh[7]][2] & SHF_ALLOC]
    if not relas:
        raise Refused("no relocations in the executable: link with -Wl,--emit-relocs (-q)")
    relocs = {}
    differences = {}
    for i, sh in relas:
        raw = elf.section_bytes(sh)
        name = elf.section_name(sh[7])
        for off in range(0, len(raw), 24):
            where, info, addend = struct.unpack_from("<QQq", raw, off)
            rtype, sym = info & 0xffffffff, info >> 32
            sname, shndx, value = syms[sym] if sym else ("", SHN_ABS, 0)
            constant = shndx in (SHN_ABS, SHN_UNDEF)
            target = (value + addend) & (2**64 - 1)
            at = f"{name}+{where - elf.shdrs[sh[7]][3]:#x} ({type_name(rtype)} " \
                 f"against {sname or 'no symbol'}{addend:+#x})"
            here, there = lay.segment(where), lay.segment(target)
            if rtype in NOTHING:
                continue
            if rtype in PCREL:
                if constant or there is None:
                    raise Refused(f"{at}: PC-relative to an address outside the program")
                if here != there and not ram:
                    raise Refused(f"{at}: PC-relative from the {here} to the {there}: "
                              "binfmt_flat puts the data in RAM of its own, away from "
                              "text mapped in place. Reach the data another way or "
                              "convert with --ram (no text in place)")
                continue
            if rtype in DIFFERENCE:
                if not constant:
                    differences.setdefault(where, set()).add(there)
                    if there is None or len(differences[where]) > 1 and not ram:
                        raise Refused(f"{at}: a distance between the text and the data, "
                                  "which binfmt_flat does not keep: convert with --ram")
                continue
            if rtype in IN_CODE and constant:
                continue
            if rtype not in ABSOLUTE:
                raise Refused(f"{at}: bFLT cannot express this relocation"
                          + (" (an absolute address in an instruction: compile with "
                         "-mcmodel=medany)" if rtype in IN_CODE else ""))
            if constant:
                continue
            size = ABSOLUTE[rtype][1]
            if there is None:
                raise Refused(f"{at}: points outside the program ({target:#x})")
            if here == "text" and not ram:
                raise Refused(f"{at}: an address in the text, which binfmt_flat would "
                          "write in flash: make the pointer writable data, or "
                          "convert with --ram (no text in place)")
            if here is None or here == "data" and where + size > lay.data_base + len(lay.data):
                raise Refused(f"{at}: a relocated word outside the text and the data")
            image = lay.text if here == "text" else lay.data
            pos = where - (lay.text_base if here == "text" else lay.data_base)
            linked = int.from_bytes(image[pos:pos + size], "little")
            if linked != target & (2**(8 * size) - 1):
                raise Refused(f"{at}: the word holds {linked:#x}, not {target:#x}: "
                          "linked with relaxation? (link with -Wl,--no-relax)")
            value = lay.offset(target)
            if value == 0:
                raise Refused(f"{at}: points at the first byte of the text, offset 0, "
                          "which binfmt_flat leaves unrelocated (it takes 0 for "
                          "NULL): put something else first (flat.ld starts with a word)")
            image[pos:pos + size] = value.to_bytes(4, "big") + bytes(size - 4)
            relocs[lay.offset(where)] = True
    if not lay.text_base <= elf.entry < lay.text_base + len(lay.text):
        raise Refused(f"the entry point {elf.entry:#x} is not in the text")
    lay.entry = elf.entry - lay.text_base
    return lay, sorted(relocs)


def flat_file(lay, relocs, stack, build_date):
    text_len = len(lay.text)
    data_start = FLAT_HDR_SIZE + text_len
    data_end = data_start + len(lay.data)
    # The bss rounded up to 8 bytes: brk(0) is then exactly the end of it.
    bss_end = data_start + -(-lay.data_memsz // 8) * 8
    entry = FLAT_HDR_SIZE + lay.entry
    if entry > 0x00ffffff:
        raise Refused("the entry point lies past 16 MiB into the text "
                  "(binfmt_flat keeps 24 bits of it)")
    if (bss_end + stack + 4 * len(relocs)) >> 28:
        raise Refused("larger than binfmt_flat takes (256 MiB a field)")
    flags = FLAT_FLAG_RAM if lay.ram else 0
    header = struct.pack(">4s10I20x", b"bFLT", FLAT_VERSION, entry, data_start, data_end,
                 bss_end, stack, data_end, len(relocs), flags, build_date)
    return header + bytes(lay.text) + bytes(lay.data) + \
        b"".join(struct.pack(">I", r) for r in relocs)


def main():
    parser = argparse.ArgumentParser(
        prog="elf2flt.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--ram", action="store_true",
                help="set FLAT_FLAG_RAM: the whole program is copied to RAM (no text in place)")
    parser.add_argument("--stack", type=lambda s: int(s, 0), default=4096, metavar="BYTES",
                help="stack size in the header (default 4096; the kernel adds the arguments')")
    parser.add_argument("input", metavar="INPUT.elf")
    parser.add_argument("output", metavar="OUTPUT")
    args = parser.parse_args()
    if not 0 <= args.stack < 1 << 28:
        parser.error(f"--stack {args.stack}: out of range")
    try:
        with open(args.input, "rb") as f:
            elf = Elf(f.read())
        lay, relocs = convert(elf, args.ram)
        out = flat_file(lay, relocs, args.stack, int(os.environ.get("SOURCE_DATE_EPOCH", 0)))
    except Refused as e:
        sys.exit(f"elf2flt.py: {args.input}: {e}")
    except (struct.error, ValueError, IndexError) as e:
        sys.exit(f"elf2flt.py: {args.input}: a truncated or damaged ELF file ({e})")
    except OSError as e:
        sys.exit(f"elf2flt.py: {e.filename}: {e.strerror}")
    tmp = args.output + ".tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(out)
        os.chmod(tmp, 0o755)
        os.replace(tmp, args.output)
    except OSError as e:
        sys.exit(f"elf2flt.py: {e.filename}: {e.strerror}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
