// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcramfs: reading an ELF file's program headers, for the blocks of its
 * segments (-X stores the read-only ones in place).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "mkcramfs.h"

static uint64_t elf_word(const uint8_t *p, int size, int big)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[big ? size - 1 - i : i] << (8 * i);
	return v;
}

/*
 * Mark in @out the blocks of every read-only PT_LOAD segment (with @exec,
 * of every executable one). Only the ELF header and the program headers are
 * read, not the file. An ELF file without program headers (a relocatable
 * object, a kernel module) has no segment.
 */
void mark_elf_segments(struct entry *e, uint8_t *out, int exec)
{
	uint8_t hdr[64], *d;
	int is64, big, i;
	uint64_t phoff, phentsize, phnum;

	if (e->size < 52)
		return;
	read_into(e->src, hdr, e->size < sizeof(hdr) ? e->size : sizeof(hdr), 0);
	if (memcmp(hdr, "\177ELF", 4) || (hdr[4] != 1 && hdr[4] != 2) ||
	    (hdr[5] != 1 && hdr[5] != 2))
		return;
	is64 = hdr[4] == 2;
	big = hdr[5] == 2;
	if (is64 && e->size < 64)
		return;
	phoff = elf_word(hdr + (is64 ? 32 : 28), is64 ? 8 : 4, big);
	phentsize = elf_word(hdr + (is64 ? 54 : 42), 2, big);
	phnum = elf_word(hdr + (is64 ? 56 : 44), 2, big);
	if (!phnum)
		return;
	if (phentsize < (is64 ? 56U : 32U) || phoff > e->size ||
	    phnum * phentsize > e->size - phoff) {
		warn("%s: ELF program headers out of range: stored compressed", e->ipath);
		return;
	}
	/* The headers lie within the file, which is under 16 MiB. */
	d = read_whole(e->src, phoff + phnum * phentsize, 0);
	for (i = 0; i < (int)phnum; i++) {
		const uint8_t *ph = d + phoff + i * phentsize;
		uint32_t type = elf_word(ph, 4, big);
		uint32_t flags = elf_word(ph + (is64 ? 4 : 24), 4, big);
		uint64_t off = elf_word(ph + (is64 ? 8 : 4), is64 ? 8 : 4, big);
		uint64_t filesz = elf_word(ph + (is64 ? 32 : 16), is64 ? 8 : 4, big);
		uint64_t b;

		if (type != 1 /* PT_LOAD */ || !filesz ||
		    (exec ? !(flags & 1 /* PF_X */) : flags & 2 /* PF_W */))
			continue;
		if (off > e->size || filesz > e->size - off) {
			warn("%s: ELF segment %d lies outside the file: not XIP", e->ipath, i);
			continue;
		}
		for (b = off / opt.blksize; b <= (off + filesz - 1) / opt.blksize; b++)
			out[b] = 1;
	}
	free(d);
}
