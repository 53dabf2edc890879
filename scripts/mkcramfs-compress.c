// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcramfs: a file's blocks compressed with zlib, or stored plain, behind its
 * block pointer table; its XIP blocks are left for the XIP region.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "mkcramfs.h"

static int is_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

struct entry **xip_files;
int ext_ptrs;
size_t n_xip_files;

/*
 * compress2() of one block, the stream's state kept from block to block:
 * compress2() allocates and clears 256 KiB of it each time, which was most
 * of a build of many small files. deflateReset() gives the same bytes.
 */
static int zcompress(uint8_t *dst, uLongf *dlen, const uint8_t *src, uLong len)
{
	static z_stream zs;
	static int ready;
	int err;

	if (!ready) {
		if (deflateInit(&zs, opt.level) != Z_OK)
			return Z_MEM_ERROR;
		ready = 1;
	} else if (deflateReset(&zs) != Z_OK) {
		return Z_STREAM_ERROR;
	}
	zs.next_in = (Bytef *)src;
	zs.avail_in = len;
	zs.next_out = dst;
	zs.avail_out = *dlen;
	err = deflate(&zs, Z_FINISH);
	*dlen = zs.total_out;
	return err == Z_STREAM_END ? Z_OK : err == Z_OK ? Z_BUF_ERROR : err;
}

/*
 * A file's block pointer table, then its non-XIP blocks. A block right after
 * an XIP block cannot be found by the previous block's end (that lies in the
 * XIP region), so it gets a direct pointer with its length in front.
 */
uint32_t write_file(struct entry *e, const uint8_t *data, uint32_t off)
{
	uint32_t n = (e->size + opt.blksize - 1) / opt.blksize, i;
	uint32_t cur = off + 4 * n;
	uint8_t *zbuf = xzalloc(2 * opt.blksize + 64);

	check_offset(e, off);
	e->data_off = off;
	at(off, 4 * n);
	stats.blocks += n;
	for (i = 0; i < n; i++) {
		uint32_t in = e->size - i * opt.blksize;
		const uint8_t *src = data + i * opt.blksize;
		uLongf zlen = 2 * opt.blksize + 64;
		int after_xip = i > 0 && e->xip && e->xip[i - 1];
		int plain = 0;

		if (in > opt.blksize)
			in = opt.blksize;
		if (e->xip && e->xip[i])
			continue;	/* placed in the XIP region later */
		stats.in_bytes += in;
		/* A hole is found by the previous block's end: not after an XIP block. */
		if (opt.holes && !after_xip && is_zero(src, in))
			zlen = 0;
		else if (zcompress(zbuf, &zlen, src, in) != Z_OK)
			die("%s: zlib failed", e->ipath);
		/* With flagged pointers, a block zlib cannot shrink is cheaper stored plain. */
		if ((opt.xip || opt.ext) && zlen >= in) {
			plain = 1;
			zlen = in;
			stats.plain_blocks++;
		}
		if (zlen > 2 * opt.blksize)
			die("%s: block %u compresses to %lu bytes", e->ipath, i, zlen);
		if (after_xip) {
			uint32_t start = align(cur, 4);

			cur = start;
			if (!plain) {
				uint8_t *h = at(cur, 2);

				if (zlen > 0xffff)
					die("%s: block %u too large for a direct pointer", e->ipath, i);
				h[opt.big] = zlen & 0xff;
				h[!opt.big] = zlen >> 8;
				cur += 2;
			}
			put32(off + 4 * i, CRAMFS_XIP_BLK_FLAG_DIRECT_PTR |
			      (plain ? CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED : 0) |
			      (start >> CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT));
			ext_ptrs = 1;
		}
		memcpy(at(cur, zlen), plain ? src : zbuf, zlen);
		cur += zlen;
		stats.zlib_bytes += zlen;
		/* With flags in the top two bits, an end pointer reaches 1 GiB. */
		if ((opt.xip || opt.ext) && cur >= CRAMFS_XIP_BLK_FLAG_DIRECT_PTR)
			die("image too large for -X or -x: data of %s would end at %u, beyond the 1 GiB a block pointer with flags can reach",
			    e->ipath, cur);
		if (!after_xip)
			put32(off + 4 * i, cur | (plain ? CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED : 0));
		ext_ptrs |= plain;
	}
	free(zbuf);
	if (e->xip) {
		xip_files = realloc(xip_files, (n_xip_files + 1) * sizeof(*xip_files));
		xip_files[n_xip_files++] = e;
	}
	return align(cur, 4);
}
