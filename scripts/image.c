// SPDX-License-Identifier: GPL-2.0-only
/*
 * Walking a cramfs image on the host; see image.h. The checks follow the
 * kernel module's (fs/cramfs_xip/) so that what cramfsck accepts, the
 * module reads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <zlib.h>
#include "image.h"

#define S_ISDIR_MODE(m)	(((m) & 0170000) == 0040000)
#define S_ISREG_MODE(m)	(((m) & 0170000) == 0100000)
#define S_ISLNK_MODE(m)	(((m) & 0170000) == 0120000)

void cimg_problem(struct cimg *img, const char *fmt, ...)
{
	va_list ap;

	img->errors++;
	if (img->quiet)
		return;
	va_start(ap, fmt);
	if (img->who)
		fprintf(stderr, "%s: ", img->who);
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int cimg_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *v)
{
	unsigned long long n;
	char *end;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	n = strtoull(s, &end, 0);
	if (errno || *end || n < min || n > max)
		return -1;
	*v = n;
	return 0;
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

/* A directory being walked: where its entries are and how far we are. */
struct frame {
	uint32_t base, size, pos;
	size_t plen;		/* length of the directory's path */
	int depth;
};

struct walk {
	cimg_visit_fn fn;
	void *ctx;
	char *path;		/* of the entry being visited */
	size_t path_cap;
	struct frame *stack;
	size_t depth_cap;
	uint8_t *claimed;	/* a bit per 4 bytes: part of some directory's entries */
};

struct name_ref {
	const char *name;
	size_t len;
};

static int name_ref_cmp(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Two entries of one name, in a directory that does not claim to be sorted. */
static int find_duplicate(struct cimg *img, const char *dpath, struct name_ref *names, size_t n)
{
	size_t i;

	qsort(names, n, sizeof(*names), name_ref_cmp);
	for (i = 1; i < n; i++) {
		if (!name_ref_cmp(&names[i - 1], &names[i])) {
			cimg_problem(img, "%s: two entries named \"%.*s\"", dpath, (int)names[i].len,
				     names[i].name);
			return -1;
		}
	}
	return 0;
}

/* Mark [off, off + len) as directory entries; no byte may belong to two. */
static int claim(struct cimg *img, struct walk *w, const char *dpath, uint32_t off, uint32_t len)
{
	uint32_t u;

	for (u = off / 4; u < (off + len + 3) / 4; u++) {
		if (w->claimed[u / 8] & (1 << (u % 8))) {
			cimg_problem(img, "%s: its entries at %u are also another directory's (a directory listed twice)",
				     dpath, off);
			return -1;
		}
		w->claimed[u / 8] |= 1 << (u % 8);
	}
	return 0;
}

/*
 * Check every entry of a directory before any is visited: lengths, names,
 * order, no two of one name, and entries no other directory holds. Nothing
 * the walk hands out (an extraction, say) ever sees half a bad directory.
 */
static int check_dir(struct cimg *img, struct walk *w, const char *dpath, uint32_t base,
		     uint32_t size)
{
	int sorted = !!(img->flags & CRAMFS_XIP_FLAG_SORTED_DIRS);
	struct name_ref prev = { "", 0 }, *names = NULL;
	size_t n = 0, cap = 0;
	uint32_t pos = 0;
	int ret = -1;

	while (pos < size) {
		const uint8_t *p = img->data + base + pos;
		struct cramfs_xip_dinode d;
		struct name_ref cur;
		size_t i;

		if (size - pos < CRAMFS_XIP_INODE_SIZE) {
			cimg_problem(img, "%s: truncated entry at position %u", dpath, pos);
			goto out;
		}
		cramfs_xip_inode_decode(p, img->big, &d);
		if (!d.namelen || d.namelen > size - pos - CRAMFS_XIP_INODE_SIZE) {
			cimg_problem(img, "%s: bad name length at position %u", dpath, pos);
			goto out;
		}
		cur.name = (const char *)p + CRAMFS_XIP_INODE_SIZE;
		cur.len = strnlen(cur.name, d.namelen);
		if (!cur.len || d.namelen - cur.len > 3 || memchr(cur.name, '/', cur.len) ||
		    (cur.len == 1 && cur.name[0] == '.') ||
		    (cur.len == 2 && !memcmp(cur.name, "..", 2))) {
			cimg_problem(img, "%s: bad name at position %u", dpath, pos);
			goto out;
		}
		for (i = cur.len; i < d.namelen; i++) {
			if (cur.name[i]) {
				cimg_problem(img, "%s: name padding not zero at position %u",
					     dpath, pos);
				goto out;
			}
		}
		if (sorted && pos && name_ref_cmp(&prev, &cur) >= 0) {
			cimg_problem(img, name_ref_cmp(&prev, &cur) ?
				     "%s: entries not sorted at \"%.*s\"" :
				     "%s: two entries named \"%.*s\"", dpath, (int)cur.len, cur.name);
			goto out;
		}
		if (!sorted) {
			if (n == cap) {
				struct name_ref *v;

				cap = cap ? 2 * cap : 64;
				v = realloc(names, cap * sizeof(*names));
				if (!v) {
					cimg_problem(img, "out of memory");
					goto out;
				}
				names = v;
			}
			names[n++] = cur;
		}
		prev = cur;
		if (claim(img, w, dpath, base + pos, CRAMFS_XIP_INODE_SIZE + d.namelen))
			goto out;
		pos += CRAMFS_XIP_INODE_SIZE + d.namelen;
	}
	ret = sorted ? 0 : find_duplicate(img, dpath, names, n);
out:
	free(names);
	return ret;
}

/* Room for one more level and a path of @len bytes. */
static int walk_grow(struct walk *w, int depth, size_t len)
{
	if ((size_t)depth >= w->depth_cap) {
		size_t cap = w->depth_cap ? 2 * w->depth_cap : 64;
		struct frame *v = realloc(w->stack, cap * sizeof(*v));

		if (!v)
			return -1;
		w->stack = v;
		w->depth_cap = cap;
	}
	if (len >= w->path_cap) {
		size_t cap = w->path_cap ? w->path_cap : 256;
		char *p;

		while (cap <= len)
			cap *= 2;
		p = realloc(w->path, cap);
		if (!p)
			return -1;
		w->path = p;
		w->path_cap = cap;
	}
	return 0;
}

/*
 * Check a directory's entries and make it the innermost one being walked;
 * its path is @plen bytes (known to the caller: measuring it here made a
 * deep walk quadratic).
 */
static int walk_enter(struct cimg *img, struct walk *w, const struct cimg_entry *dir,
		      size_t plen)
{
	struct frame *f;

	if (walk_grow(w, dir->depth, 0)) {
		cimg_problem(img, "out of memory");
		return -1;
	}
	if (check_dir(img, w, dir->path, dir->d.offset, dir->d.size))
		return -1;
	f = &w->stack[dir->depth];
	f->base = dir->d.offset;
	f->size = dir->d.size;
	f->pos = 0;
	f->plen = plen;
	f->depth = dir->depth;
	return 0;
}

/*
 * Depth first, without recursion and without a depth limit: a directory's
 * entries lie after the entry naming it and no two directories share
 * entries, so the walk ends, and visits each entry once.
 */
static int walk_tree(struct cimg *img, struct walk *w, const struct cimg_entry *root)
{
	int top = 0, ret;

	if (walk_enter(img, w, root, 1))
		return -1;
	while (top >= 0) {
		struct frame *f = &w->stack[top];
		const uint8_t *p = img->data + f->base + f->pos;
		size_t plen = f->plen, sep = plen > 1, len;
		struct cimg_entry e;

		if (f->pos >= f->size) {
			top--;
			continue;
		}
		cramfs_xip_inode_decode(p, img->big, &e.d);
		len = strnlen((const char *)p + CRAMFS_XIP_INODE_SIZE, e.d.namelen);
		if (walk_grow(w, 0, plen + sep + len + 1)) {
			cimg_problem(img, "out of memory");
			return -1;
		}
		w->path[plen] = '/';
		memcpy(w->path + plen + sep, p + CRAMFS_XIP_INODE_SIZE, len);
		w->path[plen + sep + len] = 0;
		e.path = w->path;
		e.name = w->path + plen + sep;
		e.entry_off = f->base + f->pos;
		e.depth = f->depth + 1;
		f->pos += CRAMFS_XIP_INODE_SIZE + e.d.namelen;
		ret = check_inode(img, &e);
		if (!ret)
			ret = w->fn(img, &e, w->ctx);
		if (!ret && S_ISDIR_MODE(e.d.mode) && e.d.size) {
			ret = walk_enter(img, w, &e, plen + sep + len);
			top++;
		}
		if (ret)
			return ret;
	}
	return 0;
}

int cimg_walk(struct cimg *img, cimg_visit_fn fn, void *ctx)
{
	struct cimg_entry root = { .path = "/", .name = "", .d = img->root };
	struct walk w = { .fn = fn, .ctx = ctx };
	int ret;

	w.claimed = calloc(1, img->size / 32 + 1);
	if (!w.claimed || walk_grow(&w, 0, 1)) {
		free(w.claimed);
		cimg_problem(img, "out of memory");
		return -1;
	}
	strcpy(w.path, "/");
	ret = fn(img, &root, ctx);
	if (!ret && img->root.size)
		ret = walk_tree(img, &w, &root);
	free(w.claimed);
	free(w.stack);
	free(w.path);
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

/*
 * What is known of a zlib block by the position of its pointer word: entries
 * may share block tables (hard links do), and a few hundred bytes of entries
 * naming one table of thousands of blocks must not cost thousands of decodes
 * each. A full block (not a file's last) that is not a table's first is
 * decided, bounds and decode alike, by the image's bytes alone: its pointer
 * word, the word before it (and what they point at), and the block size.
 * So two bits per word of the image: unknown, clean, bad. (A first block
 * starts after the table, whose length comes from the entry's size: those
 * are checked for each entry.)
 */
enum { PTR_UNKNOWN, PTR_CLEAN, PTR_BAD };

/* The pointer word of a block whose verdict can be kept, if it is one. */
static int ptr_word(const struct cimg *img, const struct cramfs_xip_dinode *d, uint32_t index,
		    size_t *word)
{
	if (!index || S_ISLNK_MODE(d->mode) || block_want(img, d, index) != img->blksize)
		return 0;
	*word = (d->offset + (size_t)index * 4) / 4;
	return 1;
}

static int ptr_state(const struct cimg *img, size_t word)
{
	return img->ptr_state ? (img->ptr_state[word / 4] >> (word % 4 * 2)) & 3 : PTR_UNKNOWN;
}

/* Without memory the block is just decoded again next time. */
static void ptr_remember(struct cimg *img, size_t word, int state)
{
	if (!img->ptr_state)
		img->ptr_state = calloc(img->len / 16 + 1, 1);
	if (img->ptr_state)
		img->ptr_state[word / 4] |= state << (word % 4 * 2);
}

void cimg_close(struct cimg *img)
{
	free(img->ptr_state);
	img->ptr_state = NULL;
}

int cimg_check_data(struct cimg *img, const struct cimg_entry *e, cimg_block_fn fn, void *ctx,
		    char **link)
{
	const struct cramfs_xip_dinode *d = &e->d;
	uint32_t n = cimg_nblocks(img, d), i;
	uint8_t *buf = malloc(img->blksize + 1);
	int ret = 0;

	if (link)
		*link = NULL;
	if (!buf) {
		cimg_problem(img, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct cimg_block b;
		size_t word = 0;
		int zlib, known = ptr_word(img, d, i, &word);

		if (known && ptr_state(img, word) == PTR_BAD) {
			/* Reported with the entry that first had it; the rest of this one is not checked again. */
			cimg_problem(img, "block %u: the bad block reported above", i);
			if (!img->quiet)
				fprintf(stderr, "  (in %s, block %u)\n", e->path, i);
			ret = -1;
			break;
		}
		if (cimg_block(img, d, i, &b))
			goto bad;
		/*
		 * A symlink's bytes are wanted; a file's plain blocks need no
		 * more than cimg_block()'s bounds, its zlib blocks one decode.
		 */
		zlib = b.kind == CIMG_COMPRESSED || b.kind == CIMG_DIRECT_COMPRESSED;
		if (S_ISLNK_MODE(d->mode) || (zlib && !(known && ptr_state(img, word) == PTR_CLEAN))) {
			if (cimg_read_block(img, &b, buf))
				goto bad;
			if (known)
				ptr_remember(img, word, PTR_CLEAN);
		}
		if (fn)
			fn(img, e, i, &b, ctx);
		continue;
bad:
		if (known)
			ptr_remember(img, word, PTR_BAD);
		if (!img->quiet)
			fprintf(stderr, "  (in %s, block %u)\n", e->path, i);
		ret = -1;
	}
	if (!ret && S_ISLNK_MODE(d->mode)) {
		buf[d->size] = 0;
		if (strlen((char *)buf) != d->size) {
			cimg_problem(img, "%s: symlink target holds a NUL", e->path);
			ret = -1;
		} else if (link) {
			*link = (char *)buf;
			buf = NULL;
		}
	}
	free(buf);
	return ret;
}

struct check_tree {
	int first_only;
	uint32_t entries;
};

static int check_tree_entry(struct cimg *img, const struct cimg_entry *e, void *ctx)
{
	struct check_tree *c = ctx;

	c->entries++;
	if ((S_ISREG_MODE(e->d.mode) || S_ISLNK_MODE(e->d.mode)) && e->d.size)
		cimg_check_data(img, e, NULL, NULL, NULL);
	return c->first_only && img->errors;
}

int cimg_check_tree(struct cimg *img, int first_only, uint32_t *entries)
{
	struct check_tree c = { .first_only = first_only };
	unsigned int errors = img->errors;
	int ret = cimg_walk(img, check_tree_entry, &c);

	*entries = c.entries;
	return ret || img->errors != errors ? -1 : 0;
}

void cimg_host_error(const struct cimg *img, const char *what, const char *path)
{
	if (!img->quiet)
		fprintf(stderr, "%s%serror: %s: %s: %s\n", img->who ? img->who : "",
			img->who ? ": " : "", path, what, strerror(errno));
}

/*
 * Extraction: every directory on the path from the target to the entry
 * being made is open, so each object is made relative to its parent's
 * descriptor, by its single-component name, exclusively and without
 * following a symlink. Whatever the image says, nothing outside the target
 * can be named, let alone created, written or chmod'ed.
 */
struct extract {
	int atfd;
	const char *target;
	int owners;
	int host_error;
	int *fd;		/* fd[depth]: the open directory at that depth */
	struct cramfs_xip_dinode *dir;	/* its inode: owner and mode set when done */
	size_t *plen;		/* its path's length in @path, for messages */
	char *path;		/* the deepest open directory's path */
	size_t cap, path_cap;
	int top;		/* deepest open directory, -1 for none */
	uint8_t *buf;
};

static int host_fail(struct cimg *img, struct extract *x, const char *what,
		     const struct cimg_entry *e)
{
	cimg_host_error(img, what, e->path);
	x->host_error = 1;
	return -1;
}

/* Owner before mode: chown clears set-id bits. */
static int set_attrs(struct cimg *img, struct extract *x, const struct cimg_entry *e, int fd)
{
	int parent = e->depth ? x->fd[e->depth - 1] : -1;
	uint32_t mode = e->d.mode & 07777;

	if (x->owners && (fd >= 0 ? fchown(fd, e->d.uid, e->d.gid) :
			  fchownat(parent, e->name, e->d.uid, e->d.gid, AT_SYMLINK_NOFOLLOW)))
		return host_fail(img, x, "chown", e);
	if (S_ISLNK_MODE(e->d.mode))
		return 0;
	if (fd >= 0 ? fchmod(fd, mode) : fchmodat(parent, e->name, mode, AT_SYMLINK_NOFOLLOW))
		return host_fail(img, x, "chmod", e);
	return 0;
}

/* Finish (owner, mode) and close every directory deeper than @depth. */
static int close_to(struct cimg *img, struct extract *x, int depth)
{
	int ret = 0;

	for (; x->top > depth; x->top--) {
		struct cimg_entry e = { .path = x->path, .d = x->dir[x->top], .depth = x->top };

		x->path[x->plen[x->top]] = 0;

		if (!x->host_error && set_attrs(img, x, &e, x->fd[x->top]))
			ret = -1;
		close(x->fd[x->top]);
	}
	return ret;
}

/*
 * Every open directory's path is a prefix of the deepest one's: one copy of
 * that, and a length per level (a copy per level would cost depth squared).
 */
static int push_dir(struct cimg *img, struct extract *x, const struct cimg_entry *e, int fd)
{
	size_t len = strlen(e->path);

	if ((size_t)e->depth >= x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 64;
		int *fds = realloc(x->fd, cap * sizeof(*fds));
		struct cramfs_xip_dinode *dirs = NULL;
		size_t *plens = NULL;

		if (fds) {
			x->fd = fds;
			dirs = realloc(x->dir, cap * sizeof(*dirs));
		}
		if (dirs) {
			x->dir = dirs;
			plens = realloc(x->plen, cap * sizeof(*plens));
		}
		if (!plens)
			goto nomem;
		x->plen = plens;
		x->cap = cap;
	}
	if (len >= x->path_cap) {
		char *path = realloc(x->path, 2 * len + 1);

		if (!path)
			goto nomem;
		x->path = path;
		x->path_cap = 2 * len + 1;
	}
	memcpy(x->path, e->path, len + 1);
	x->plen[e->depth] = len;
	x->fd[e->depth] = fd;
	x->dir[e->depth] = e->d;
	x->top = e->depth;
	return 0;
nomem:
	close(fd);
	errno = ENOMEM;
	return host_fail(img, x, "directory stack", e);
}

static int extract_dir(struct cimg *img, struct extract *x, const struct cimg_entry *e)
{
	int parent = e->depth ? x->fd[e->depth - 1] : x->atfd;
	const char *name = e->depth ? e->name : x->target;
	int fd;

	/* 0700 until the subtree is done: a read-only directory still gets its entries. */
	if (mkdirat(parent, name, 0700))
		return host_fail(img, x, "mkdir", e);
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return host_fail(img, x, "open", e);
	return push_dir(img, x, e, fd);
}

/* Holes stay holes: the file is sized at the end. */
static int extract_file(struct cimg *img, struct extract *x, const struct cimg_entry *e)
{
	uint32_t n = cimg_nblocks(img, &e->d), i;
	int fd, ret = -1;

	fd = openat(x->fd[e->depth - 1], e->name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return host_fail(img, x, "create", e);
	for (i = 0; i < n; i++) {
		off_t at = (off_t)i * img->blksize;
		struct cimg_block b;

		if (cimg_block(img, &e->d, i, &b) || cimg_read_block(img, &b, x->buf))
			goto out;
		if (b.kind != CIMG_HOLE && pwrite(fd, x->buf, b.want, at) != (ssize_t)b.want) {
			host_fail(img, x, "write", e);
			goto out;
		}
	}
	if (ftruncate(fd, e->d.size)) {
		host_fail(img, x, "write", e);
		goto out;
	}
	ret = set_attrs(img, x, e, fd);
out:
	if (close(fd) && !ret)
		ret = host_fail(img, x, "close", e);
	return ret;
}

static int extract_visit(struct cimg *img, const struct cimg_entry *e, void *ctx)
{
	struct extract *x = ctx;
	int parent, ret;
	char *link;

	if (close_to(img, x, e->depth - 1))
		return -1;
	if (S_ISDIR_MODE(e->d.mode))
		return extract_dir(img, x, e);
	if (S_ISREG_MODE(e->d.mode))
		return extract_file(img, x, e);
	parent = x->fd[e->depth - 1];
	if (S_ISLNK_MODE(e->d.mode)) {
		if (cimg_check_data(img, e, NULL, NULL, &link))
			return -1;
		ret = symlinkat(link, parent, e->name);
		free(link);
		if (ret)
			return host_fail(img, x, "symlink", e);
	} else if (mknodat(parent, e->name, (e->d.mode & 0170000) | 0600,
			   makedev((e->d.size >> 8) & 0xff, e->d.size & 0xff))) {
		return host_fail(img, x, "mknod", e);
	}
	return set_attrs(img, x, e, -1);
}

int cimg_extract(struct cimg *img, int atfd, const char *target, int owners)
{
	struct extract x = { .atfd = atfd, .target = target, .owners = owners, .top = -1 };
	int ret;

	x.buf = malloc(img->blksize);
	if (!x.buf) {
		cimg_problem(img, "out of memory");
		return CIMG_EXTRACT_IMAGE;
	}
	ret = cimg_walk(img, extract_visit, &x);
	if (close_to(img, &x, -1))
		ret = -1;
	free(x.buf);
	free(x.fd);
	free(x.dir);
	free(x.plen);
	free(x.path);
	if (x.host_error)
		return CIMG_EXTRACT_HOST;
	return ret ? CIMG_EXTRACT_IMAGE : 0;
}
