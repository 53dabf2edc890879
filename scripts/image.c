// SPDX-License-Identifier: GPL-2.0-only
/*
 * Walking a cramfs image on the host; see image.h. The checks follow the
 * kernel module's (fs/cramfs_xip/) so that what cramfsck accepts, the
 * module reads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "image.h"

#define CIMG_MAX_DEPTH	1024
#define CIMG_MAX_PATH	8192

void cimg_problem(struct cimg *img, const char *fmt, ...)
{
	va_list ap;

	img->errors++;
	if (img->quiet)
		return;
	va_start(ap, fmt);
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

const char *cimg_block_kind_name(enum cimg_block_kind kind)
{
	switch (kind) {
	case CIMG_HOLE:
		return "hole";
	case CIMG_COMPRESSED:
		return "zlib";
	case CIMG_PLAIN:
		return "plain";
	case CIMG_DIRECT_COMPRESSED:
		return "zlib-direct";
	case CIMG_DIRECT_PLAIN:
		return "xip";
	}
	return "?";
}

static int in_image(const struct cimg *img, uint32_t off, uint32_t len)
{
	return off <= img->size && len <= img->size - off;
}

int cimg_open(struct cimg *img, const void *data, size_t len, unsigned int blksize)
{
	static const uint32_t offs[] = { 0, CRAMFS_XIP_PAD_SIZE };
	const uint8_t *s = NULL;
	unsigned int i;

	img->data = data;
	img->len = len;
	img->blksize = blksize ? blksize : CRAMFS_XIP_BLOCK_SIZE;
	img->errors = 0;
	for (i = 0; i < 2 && !s; i++) {
		if (len < offs[i] + CRAMFS_XIP_SUPER_SIZE)
			break;
		if (cramfs_xip_get32(img->data + offs[i], 0) == CRAMFS_XIP_MAGIC)
			img->big = 0;
		else if (cramfs_xip_get32(img->data + offs[i], 1) == CRAMFS_XIP_MAGIC)
			img->big = 1;
		else
			continue;
		s = img->data + offs[i];
		img->super_off = offs[i];
	}
	if (!s) {
		cimg_problem(img, "no cramfs superblock (bad magic at offsets 0 and 512)");
		return -1;
	}
	img->flags = cramfs_xip_get32(s + 8, img->big);
	if (img->flags & ~CRAMFS_XIP_SUPPORTED_FLAGS) {
		cimg_problem(img, "unsupported feature flags %#x",
			     img->flags & ~CRAMFS_XIP_SUPPORTED_FLAGS);
		return -1;
	}
	if (img->flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) {
		img->size = cramfs_xip_get32(s + 4, img->big);
		if (img->size > len) {
			cimg_problem(img, "superblock size %u is larger than the %zu bytes available",
				     img->size, len);
			return -1;
		}
		if (img->size < img->super_off + CRAMFS_XIP_SUPER_SIZE) {
			cimg_problem(img, "superblock size %u is smaller than the superblock",
				     img->size);
			return -1;
		}
	} else {
		img->size = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	}
	img->crc = cramfs_xip_get32(s + 32, img->big);
	img->edition = cramfs_xip_get32(s + 36, img->big);
	img->blocks = cramfs_xip_get32(s + 40, img->big);
	img->files = cramfs_xip_get32(s + 44, img->big);
	memcpy(img->name, s + 48, 16);
	img->name[16] = 0;
	cramfs_xip_inode_decode(s + CRAMFS_XIP_SUPER_SIZE - CRAMFS_XIP_INODE_SIZE, img->big,
				&img->root);
	if ((img->root.mode & 0170000) != 0040000) {
		cimg_problem(img, "root inode is not a directory");
		return -1;
	}
	img->root.mode |= 0555;
	if (img->root.offset == 0 && img->root.size) {
		cimg_problem(img, "root directory has a size but no entries");
		return -1;
	}
	if (img->root.offset && !(img->flags & CRAMFS_XIP_FLAG_SHIFTED_ROOT_OFFSET) &&
	    img->root.offset != img->super_off + CRAMFS_XIP_SUPER_SIZE &&
	    img->root.offset != CRAMFS_XIP_PAD_SIZE + CRAMFS_XIP_SUPER_SIZE) {
		cimg_problem(img, "bad root directory offset %u", img->root.offset);
		return -1;
	}
	if (!in_image(img, img->root.offset, img->root.size)) {
		cimg_problem(img, "root directory lies outside the image");
		return -1;
	}
	return 0;
}

uint32_t cimg_crc(const struct cimg *img)
{
	static const uint8_t zero[4];
	const uint8_t *s = img->data + img->super_off;
	uint32_t len = img->size - img->super_off;
	uLong crc = crc32(0L, Z_NULL, 0);

	crc = crc32(crc, s, CRAMFS_XIP_SUPER_CRC_OFFSET);
	crc = crc32(crc, zero, 4);
	crc = crc32(crc, s + CRAMFS_XIP_SUPER_CRC_OFFSET + 4,
		    len - CRAMFS_XIP_SUPER_CRC_OFFSET - 4);
	return (uint32_t)crc;
}

uint32_t cimg_nblocks(const struct cimg *img, const struct cramfs_xip_dinode *d)
{
	return (d->size + img->blksize - 1) / img->blksize;
}

/* Same rules as the kernel's, for an inode met during the walk. */
static int check_inode(struct cimg *img, const struct cimg_entry *e)
{
	const struct cramfs_xip_dinode *d = &e->d;

	switch (d->mode & 0170000) {
	case 0040000:
		if (d->size && (d->offset <= e->entry_off || !in_image(img, d->offset, d->size))) {
			cimg_problem(img, "%s: directory entries at %u+%u outside the image or before it",
				     e->path, d->offset, d->size);
			return -1;
		}
		return 0;
	case 0120000:
		if (!d->size || d->size >= img->blksize) {
			cimg_problem(img, "%s: bad symlink target length %u", e->path, d->size);
			return -1;
		}
		/* fall through */
	case 0100000:
		if (d->size && (!d->offset || !in_image(img, d->offset, cimg_nblocks(img, d) * 4))) {
			cimg_problem(img, "%s: block pointers at %u outside the image", e->path,
				     d->offset);
			return -1;
		}
		return 0;
	case 0020000:
	case 0060000:
	case 0010000:
	case 0140000:
		return 0;
	}
	cimg_problem(img, "%s: invalid file type %#o", e->path, d->mode & 0170000);
	return -1;
}

struct walk {
	cimg_visit_fn fn;
	void *ctx;
	char path[CIMG_MAX_PATH];
};

static int walk_dir(struct cimg *img, struct walk *w, const struct cimg_entry *dir)
{
	uint32_t pos = 0, size = dir->d.size, base = dir->d.offset;
	size_t plen = strlen(w->path);
	char prev[CRAMFS_XIP_MAXPATHLEN + 1] = "";
	int ret;

	if (dir->depth >= CIMG_MAX_DEPTH) {
		cimg_problem(img, "%s: directories nested deeper than %d", w->path, CIMG_MAX_DEPTH);
		return -1;
	}
	while (pos < size) {
		struct cimg_entry e;
		char name[CRAMFS_XIP_MAXPATHLEN + 1];
		const uint8_t *p;
		size_t len;

		if (size - pos < CRAMFS_XIP_INODE_SIZE) {
			cimg_problem(img, "%s: truncated entry at position %u", dir->path, pos);
			return -1;
		}
		p = img->data + base + pos;
		cramfs_xip_inode_decode(p, img->big, &e.d);
		if (!e.d.namelen || e.d.namelen > size - pos - CRAMFS_XIP_INODE_SIZE) {
			cimg_problem(img, "%s: bad name length at position %u", dir->path, pos);
			return -1;
		}
		memcpy(name, p + CRAMFS_XIP_INODE_SIZE, e.d.namelen);
		name[e.d.namelen] = 0;
		len = strlen(name);
		if (!len || e.d.namelen - len > 3 || strchr(name, '/') || !strcmp(name, ".") ||
		    !strcmp(name, "..")) {
			cimg_problem(img, "%s: bad name at position %u", dir->path, pos);
			return -1;
		}
		for (size_t i = len; i < e.d.namelen; i++) {
			if (name[i]) {
				cimg_problem(img, "%s: name padding not zero at position %u",
					     dir->path, pos);
				return -1;
			}
		}
		if ((img->flags & CRAMFS_XIP_FLAG_SORTED_DIRS) && pos && strcmp(prev, name) >= 0)
			cimg_problem(img, "%s: entries not sorted at \"%s\"", dir->path, name);
		strcpy(prev, name);
		if (plen + 1 + len >= sizeof(w->path)) {
			cimg_problem(img, "%s: path too long", dir->path);
			return -1;
		}
		if (plen > 1)
			w->path[plen] = '/';
		memcpy(w->path + plen + (plen > 1), name, len + 1);
		e.path = w->path;
		e.name = w->path + plen + (plen > 1);
		e.entry_off = base + pos;
		e.depth = dir->depth + 1;
		ret = check_inode(img, &e);
		if (!ret)
			ret = w->fn(img, &e, w->ctx);
		if (!ret && (e.d.mode & 0170000) == 0040000 && e.d.size)
			ret = walk_dir(img, w, &e);
		w->path[plen] = 0;
		if (ret)
			return ret;
		pos += CRAMFS_XIP_INODE_SIZE + e.d.namelen;
	}
	return 0;
}

int cimg_walk(struct cimg *img, cimg_visit_fn fn, void *ctx)
{
	struct walk *w = malloc(sizeof(*w));
	struct cimg_entry root = { .path = "/", .name = "", .d = img->root };
	int ret;

	if (!w)
		return -1;
	w->fn = fn;
	w->ctx = ctx;
	strcpy(w->path, "/");
	ret = fn(img, &root, ctx);
	if (!ret && img->root.size)
		ret = walk_dir(img, w, &root);
	free(w);
	return ret;
}

static uint32_t block_want(const struct cimg *img, const struct cramfs_xip_dinode *d,
			   uint32_t index)
{
	uint32_t done = index * img->blksize;

	return d->size - done < img->blksize ? d->size - done : img->blksize;
}

/* One pointer on its own: kind, and either its end or (direct) its start and length. */
static int decode_ptr(struct cimg *img, const struct cramfs_xip_dinode *d, uint32_t index,
		      struct cimg_block *b, uint32_t *end)
{
	uint32_t ptr = cramfs_xip_get32(img->data + d->offset + index * 4, img->big);
	int plain = !!(ptr & CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED);
	int direct = !!(ptr & CRAMFS_XIP_BLK_FLAG_DIRECT_PTR);

	if ((ptr & CRAMFS_XIP_BLK_FLAGS) && !(img->flags & CRAMFS_XIP_FLAG_EXT_BLOCK_POINTERS)) {
		cimg_problem(img, "block pointer %#x has flags, but the image does not enable them",
			     ptr);
		return -1;
	}
	ptr &= ~CRAMFS_XIP_BLK_FLAGS;
	b->want = block_want(img, d, index);
	if (!direct) {
		b->kind = plain ? CIMG_PLAIN : CIMG_COMPRESSED;
		*end = ptr;
		return 0;
	}
	b->start = ptr << CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT;
	if (plain) {
		b->kind = CIMG_DIRECT_PLAIN;
		b->len = b->want;
	} else {
		b->kind = CIMG_DIRECT_COMPRESSED;
		if (!in_image(img, b->start, 2)) {
			cimg_problem(img, "direct block at %u outside the image", b->start);
			return -1;
		}
		b->len = cramfs_xip_get16(img->data + b->start, img->big);
		b->start += 2;
	}
	if (!in_image(img, b->start, b->len)) {
		cimg_problem(img, "direct block %u+%u outside the image", b->start, b->len);
		return -1;
	}
	*end = b->start + b->len;
	return 0;
}

int cimg_block(struct cimg *img, const struct cramfs_xip_dinode *d, uint32_t index,
	       struct cimg_block *b)
{
	struct cimg_block prev;
	uint32_t end, prev_end;

	if (decode_ptr(img, d, index, b, &end))
		return -1;
	if (b->kind == CIMG_COMPRESSED || b->kind == CIMG_PLAIN) {
		if (index == 0)
			prev_end = d->offset + cimg_nblocks(img, d) * 4;
		else if (decode_ptr(img, d, index - 1, &prev, &prev_end))
			return -1;
		if (end < prev_end || !in_image(img, prev_end, end - prev_end)) {
			cimg_problem(img, "block %u runs from %u to %u", index, prev_end, end);
			return -1;
		}
		b->start = prev_end;
		b->len = end - prev_end;
		if (!b->len)
			b->kind = CIMG_HOLE;
	}
	if (b->len > ((b->kind == CIMG_PLAIN || b->kind == CIMG_DIRECT_PLAIN) ?
		      b->want : 2 * img->blksize)) {
		cimg_problem(img, "block %u has a bad length %u", index, b->len);
		return -1;
	}
	return 0;
}

int cimg_read_block(struct cimg *img, const struct cimg_block *b, uint8_t *out)
{
	z_stream z;
	int ret;

	memset(out, 0, img->blksize);
	switch (b->kind) {
	case CIMG_HOLE:
		return 0;
	case CIMG_PLAIN:
	case CIMG_DIRECT_PLAIN:
		memcpy(out, img->data + b->start, b->len);
		return 0;
	default:
		break;
	}
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK) {
		cimg_problem(img, "zlib initialisation failed");
		return -1;
	}
	z.next_in = (Bytef *)(img->data + b->start);
	z.avail_in = b->len;
	z.next_out = out;
	z.avail_out = img->blksize;
	ret = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	if (ret != Z_STREAM_END || z.total_out != b->want) {
		cimg_problem(img, "block at %u: zlib error %d, %lu of %u bytes", b->start, ret,
			     z.total_out, b->want);
		return -1;
	}
	return 0;
}

int cimg_read_file(struct cimg *img, const struct cramfs_xip_dinode *d, uint8_t **out)
{
	uint32_t n = cimg_nblocks(img, d), i;
	uint8_t *buf = malloc((size_t)n * img->blksize + 1);
	struct cimg_block b;

	*out = NULL;
	if (!buf)
		return -1;
	for (i = 0; i < n; i++) {
		if (cimg_block(img, d, i, &b) || cimg_read_block(img, &b, buf + i * img->blksize)) {
			free(buf);
			return -1;
		}
	}
	buf[d->size] = 0;
	*out = buf;
	return 0;
}
