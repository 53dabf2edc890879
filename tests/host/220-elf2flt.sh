#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scripts/elf2flt.py, the ELF-to-bFLT converter for freestanding RV64 programs
# (RISC-V without an MMU, where only binfmt_flat maps a program's text from
# the file): tests/guest/nommu-riscv/hello.c built and converted, and the
# bFLT file read here on its own (not with the converter's code) against the
# ELF as binutils shows it: the header, the text at offset 64, the data, each
# relocation entry against readelf -r, and binfmt_flat's relocation loop
# replayed at a made-up flash and RAM address. Programs the format cannot
# carry in place are refused with a reason. Booted by
# tests/guest-riscv-virt-nommu.sh (make check).
# checks: 17
. "$(dirname "$0")/lib.sh"
cross=riscv64-linux-gnu-
command -v ${cross}gcc > /dev/null ||
	skip_all "${cross}gcc missing (scripts/setup-host.sh installs gcc-riscv64-linux-gnu)"
d=$WORK/elf2flt
rm -rf "$d"
mkdir -p "$d"
src=$TOP/tests/guest/nommu-riscv
e2f=$TOP/scripts/elf2flt.py
. "$TOP/tests/lib/riscv-flat.sh"
cc() { flat_cc "$@"; }

check "hello.c builds: a static RV64 ELF linked at 0, relocations kept" \
	cc -o "$d/hello.elf" "$src/hello.c"
check "elf2flt.py converts it (exit 0)" "$e2f" "$d/hello.elf" "$d/hello"

# What binutils says of the ELF, for the reader below.
${cross}nm "$d/hello.elf" > "$d/nm"
${cross}readelf -SW "$d/hello.elf" > "$d/sections"
${cross}readelf -rW "$d/hello.elf" | sed -n '/^Relocation section .\.rela\.data/,/^$/p' > "$d/rela.data"
${cross}objcopy -O binary --only-section=.text "$d/hello.elf" "$d/text.bin"
${cross}objcopy -O binary --only-section=.data "$d/hello.elf" "$d/data.bin"

cat > "$d/bflt.py" <<'EOF'
import re, struct, sys
d, what = sys.argv[1], sys.argv[2]
f = open(f"{d}/hello", "rb").read()
(magic, rev, entry, dstart, dend, bend, stack, rstart, rcount, flags, date) = \
	struct.unpack_from(">4s10I", f, 0)
text_len = dstart - 64
sym = {l.split()[2]: int(l.split()[0], 16) for l in open(f"{d}/nm")}
sec = {m[0]: (int(m[1], 16), int(m[2], 16)) for m in
       re.findall(r"\] (\.\w+) +\w+ +([0-9a-f]+) [0-9a-f]+ ([0-9a-f]+)", open(f"{d}/sections").read())}
rela = [(int(a, 16), int(v, 16) + int(s + n, 16)) for a, v, s, n in
	re.findall(r"^([0-9a-f]+) +[0-9a-f]+ R_RISCV_64 +([0-9a-f]+) \S+ ([+-]) ([0-9a-f]+)",
		   open(f"{d}/rela.data").read(), re.M)]
relocs = struct.unpack_from(f">{rcount}I", f, rstart)
text, data = open(f"{d}/text.bin", "rb").read(), open(f"{d}/data.bin", "rb").read()
daddr = sec[".data"][0]
def img(v):		# a link-time address as an offset in the image
	return v - daddr + text_len if v >= daddr else v
def fail(msg):
	sys.exit(msg)
if what == "header":
	want = (b"bFLT", 4, 0, 4096)
	if (magic, rev, flags, stack) != want:
		fail(f"magic, rev, flags, stack: {(magic, rev, flags, stack)}, wanted {want}")
	if entry != 64 + sym["_start"]:
		fail(f"entry {entry:#x}, wanted 64 + _start {sym['_start']:#x}")
elif what == "segments":
	if not (text_len >= len(text) and dend - dstart == sec[".data"][1] and
		bend - dend == -(-sec[".bss"][1] // 8) * 8 and rstart == dend and
		len(f) == rstart + 4 * rcount and dstart % 32 == 0):
		fail(f"data_start {dstart:#x} data_end {dend:#x} bss_end {bend:#x} reloc_start "
		     f"{rstart:#x} count {rcount} size {len(f):#x}; ELF {sec}")
elif what == "text":
	if f[64:64 + len(text)] != text or any(f[64 + len(text):dstart]):
		fail("the text at offset 64 differs from the ELF's .text (or the padding is not 0)")
elif what == "relocs":
	if len(relocs) != len(rela) or len(rela) < 5:
		fail(f"{len(relocs)} relocation entries, readelf -r shows {len(rela)} R_RISCV_64 in .data")
	for r, (addr, target) in zip(relocs, sorted(rela)):
		word = f[64 + r:64 + r + 8]
		if r != img(addr) or struct.unpack(">I", word[:4])[0] != img(target) or any(word[4:]):
			fail(f"entry {r:#x}: word {word.hex()}; readelf: {addr:#x} -> {target:#x}")
elif what == "data":
	out = bytearray(f[dstart:dend])
	for r in relocs:
		out[r - text_len:r - text_len + 8] = bytes(8)
	orig = bytearray(data)
	for addr, _ in rela:
		orig[addr - daddr:addr - daddr + 8] = bytes(8)
	if out != orig:
		fail("the data, relocated words aside, differs from the ELF's .data")
elif what == "load":
	# binfmt_flat's load_flat_file() without FLAT_FLAG_RAM: the file mapped in
	# place (flash), the data read into RAM; its relocation loop over 32-bit words.
	textpos, datapos = 0x22000000 + 0x1000, 0x80200000
	start_code = textpos + 64
	mem = {textpos: bytearray(f[:dstart]), datapos: bytearray(f[dstart:] + bytes(bend - dend))}
	def at(a):
		for base, b in mem.items():
			if base <= a < base + len(b):
				return b, a - base
		fail(f"address {a:#x} is neither the mapped file nor the data")
	def calc_reloc(r):
		if r > (bend - dstart) + text_len:
			fail(f"calc_reloc: {r:#x} outside the program")
		return r + start_code if r < text_len else r - text_len + datapos
	for r in relocs:
		b, o = at(calc_reloc(r))
		if b is not mem[datapos]:
			fail(f"relocation {r:#x} writes into the text, in flash")
		v = struct.unpack_from(">I", b, o)[0]	# ntohl(): stored big-endian
		if v:
			struct.pack_into("<I", b, o, calc_reloc(v))
	def u64(a):
		b, o = at(a)
		return struct.unpack_from("<Q", b, o)[0]
	def string(a, n):
		b, o = at(a)
		return bytes(b[o:o + n])
	g = datapos	# struct globals, first in .data: table[2] {text, len, say}, self
	got = [(string(u64(g + 24 * i), u64(g + 24 * i + 8)), u64(g + 24 * i + 16)) for i in (0, 1)]
	want = [(b"hello from flash\n", start_code + sym["say"]),
		(b"twice\n", start_code + sym["say_twice"])]
	if got != want or u64(g + 48) != datapos:
		fail(f"after relocation: {got}, self {u64(g + 48):#x}; wanted {want}, self {datapos:#x}")
	for s, fn in got:
		if not textpos <= fn < textpos + dstart:
			fail(f"function {fn:#x} is not in the text mapped from the file")
	# hello_main() finds its data from brk(0) (mm->brk), less bss_end - data_start.
	brk = (datapos + (dend - dstart) + (bend - dend) + 3) & ~3
	if brk - ((bend - dstart + 3) & ~3) != datapos:
		fail(f"brk(0) {brk:#x} less the data and bss is not the data's address {datapos:#x}")
EOF
bflt() { python3 "$d/bflt.py" "$d" "$1"; }
check "header: bFLT, rev 4, flags 0 (not RAM, not gzip, no GOT), stack 4096, entry 64 + _start" \
	bflt header
check "data_start, data_end, bss_end, reloc_start and the file size agree with the ELF's sections" \
	bflt segments
check "text at offset 64: the ELF's .text byte for byte" bflt text
check "one entry per R_RISCV_64 of readelf -r; each word holds its target's offset, big-endian" \
	bflt relocs
check "the data is the ELF's .data but for the relocated words" bflt data
check "binfmt_flat's relocation loop replayed: strings and functions in the mapped text, self in RAM" \
	bflt load

# Programs bFLT cannot carry in place, each refused with its reason.
refused() {	# refused TEXT [elf2flt.py ARGS...]: exit 1 and TEXT on stderr
	local text=$1
	shift
	status_and_says 1 "$text" "$e2f" "$@"
}
cat > "$d/globals.c" <<'EOF'
/* An ordinary program: its code reaches its globals PC-relatively. */
static long counter = 41;
void _start(void)
{
	register long a0 __asm__("a0") = ++counter;
	register long a7 __asm__("a7") = 93;
	__asm__ volatile("ecall" : : "r"(a0), "r"(a7));
}
EOF
cc -o "$d/globals.elf" "$d/globals.c" 2> "$d/globals.log"
check "code that reaches .data PC-relatively: refused in place, pointing to --ram" \
	refused "PC-relative from the text to the data" "$d/globals.elf" "$d/globals"
ram_layout() {
	"$e2f" --ram "$d/globals.elf" "$d/globals" || return 1
	local flags dstart daddr
	flags=$(od -An -j 36 -N 4 -t x1 "$d/globals" | tr -d ' ')
	dstart=$(od -An -j 12 -N 4 -t x1 "$d/globals" | tr -d ' ')
	daddr=$(${cross}readelf -SW "$d/globals.elf" | sed -n 's/.*\] \.data  *PROGBITS  *\([0-9a-f]*\) .*/\1/p')
	echo "flags $flags, data_start 0x$dstart, .data at 0x$daddr"
	[ "$flags" = 00000001 ] && [ $((0x$dstart - 64)) = $((0x$daddr)) ]
}
check "... and with --ram: FLAT_FLAG_RAM, the data as far from the text as linked" ram_layout

printf 'const char *const names[] = { "a", "b" };\nconst char *first(void) { return names[0]; }\n' \
	> "$d/table.c"
cc -Wl,-e,first -o "$d/table.elf" "$d/table.c" 2> "$d/table.log"
check "a pointer table in the text (const): refused, binfmt_flat would write to flash" \
	refused "which binfmt_flat would write in flash" "$d/table.elf" "$d/table"
cc -mcmodel=medlow -o "$d/medlow.elf" "$d/globals.c" 2> "$d/medlow.log"
check "an absolute address in an instruction (-mcmodel=medlow, R_RISCV_HI20): refused" \
	refused "R_RISCV_HI20" --ram "$d/medlow.elf" "$d/medlow"
printf '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n' > "$d/dyn.c"
${cross}gcc -no-pie -o "$d/dyn.elf" "$d/dyn.c" 2> "$d/dyn.log"
check "a dynamically linked ELF: refused" refused "dynamically linked" "$d/dyn.elf" "$d/dyn"
kept=()
for f in "${flat_cflags[@]}"; do
	[ "$f" = -Wl,--emit-relocs ] || kept+=("$f")
done
${cross}gcc "${kept[@]}" -o "$d/norelocs.elf" "$src/hello.c" 2> "$d/norelocs.log"
check "linked without --emit-relocs: refused, naming the flag" \
	refused "link with -Wl,--emit-relocs" "$d/norelocs.elf" "$d/norelocs"
${cross}gcc -static-pie -nostdlib -fpie -o "$d/pie.elf" "$d/globals.c" 2> "$d/pie.log"
check "a position-independent executable (ET_DYN): refused" \
	refused "position-independent executable" "$d/pie.elf" "$d/pie"
head -c 200 "$d/hello.elf" > "$d/short.elf"
check "a truncated ELF: refused as damaged, not a Python traceback" \
	refused "truncated or damaged" "$d/short.elf" "$d/short"

# A program with no data at all (the guest's /init), with --ram: the data
# starts where binfmt_flat aligns it after the text, 32 bytes.
cat > "$d/nodata.c" <<'C'
static const char msg[] = "no data\n";

__attribute__((noreturn, section(".text.start"))) void _start(void)
{
	register long a7 __asm__("a7") = 64;
	register long a0 __asm__("a0") = 1;
	register long a1 __asm__("a1") = (long)msg;
	register long a2 __asm__("a2") = sizeof(msg) - 1;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
	for (;;)
		__asm__ volatile("li a7, 93\n\tli a0, 0\n\tecall");
}
C
cc -o "$d/nodata.elf" "$d/nodata.c" 2> "$d/nodata.log"
check "no data segment, --ram: converted, the data 32-byte aligned right after the text" sh -c \
	"'$e2f' --ram '$d/nodata.elf' '$d/nodata' && python3 -c '
import struct, sys
e = open(sys.argv[1], \"rb\").read()
phoff, = struct.unpack_from(\"<Q\", e, 32)
phentsize, phnum = struct.unpack_from(\"<HH\", e, 54)
text = [struct.unpack_from(\"<IIQQQQ\", e, phoff + i * phentsize)
        for i in range(phnum)]
text = [p[3] + p[5] for p in text if p[0] == 1 and p[5]][0]
ds, de, be = struct.unpack(\">III\", open(sys.argv[2], \"rb\").read(24)[12:24])
sys.exit(not (ds == de == be == 64 + -(-text // 32) * 32))' '$d/nodata.elf' '$d/nodata'"
