// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcramfs: the image laid out in memory: superblock, directories, each
 * file's data, then the XIP region; identical files stored once; the
 * result checked with the code cramfsck uses.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <zlib.h>
#include "mkcramfs.h"

/*
 * The image is built in an anonymous mapping reserved up front: pages are
 * zero until written and only written pages take RAM, so the peak is the
 * image itself (plus one file), with no copy when it grows.
 */
static uint8_t *img;
static size_t img_len, img_cap;

static void reserve_image(void)
{
	/* All the format can address; less where the address space is small. */
	size_t cap = (size_t)-1 > UINT32_MAX ? (size_t)UINT32_MAX + 1 : (size_t)1 << 30;

	for (; cap >= (size_t)64 << 20; cap /= 2) {
		img = mmap(NULL, cap, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (img != MAP_FAILED) {
			img_cap = cap;
			return;
		}
	}
	die("cannot reserve address space for the image: %s", strerror(errno));
}

/* Make [off, off + len) part of the image; it reads as zeros until written. */
uint8_t *at(size_t off, size_t len)
{
	if (off > UINT32_MAX || len > UINT32_MAX - off)
		die("image too large: over 4 GiB");
	if (off + len > img_cap)
		die("image too large: over the %zu MiB this host can hold", img_cap >> 20);
	if (off + len > img_len)
		img_len = off + len;
	return img + off;
}

void put32(uint32_t off, uint32_t v)
{
	cramfs_xip_put32(at(off, 4), v, opt.big);
}

static uint32_t dir_size(struct entry *dir)
{
	uint32_t size = 0;
	struct entry *e;

	for (e = dir->child; e; e = e->next)
		size += CRAMFS_XIP_INODE_SIZE + align(strlen(e->name), 4);
	if (size > CRAMFS_XIP_MAX_FILE_SIZE)
		die("%s: its entries take %u bytes, more than the format's %u for a directory",
		    dir->ipath, size, CRAMFS_XIP_MAX_FILE_SIZE);
	return size;
}

static void write_inode(uint32_t off, const struct entry *e, uint32_t namelen)
{
	struct cramfs_xip_dinode d = {
		.mode = e->mode, .uid = e->uid, .size = e->size, .gid = e->gid,
		.namelen = namelen, .offset = e->data_off,
	};

	cramfs_xip_inode_encode(at(off, CRAMFS_XIP_INODE_SIZE), opt.big, &d);
}

void check_offset(const struct entry *e, uint32_t off)
{
	if (off > CRAMFS_XIP_MAX_OFFSET)
		die("image too large: data of %s would start at %u, beyond the format's 256 MiB limit for offsets",
		    e->ipath, off);
}

/* Entries of @dir, then each subdirectory's in turn: a directory's entries follow the entry naming it. */
static uint32_t write_dirs(struct entry *dir, uint32_t off)
{
	struct entry *e;

	for (e = dir->child; e; e = e->next) {
		size_t len = strlen(e->name);

		if (S_ISDIR(e->mode))
			e->size = dir_size(e);
		e->entry_off = off;
		write_inode(off, e, align(len, 4));
		memcpy(at(off + CRAMFS_XIP_INODE_SIZE, len), e->name, len);
		off += CRAMFS_XIP_INODE_SIZE + align(len, 4);
		stats.nodes++;
	}
	for (e = dir->child; e; e = e->next) {
		if (S_ISDIR(e->mode) && e->child) {
			check_offset(e, off);
			e->data_off = off;
			write_inode(e->entry_off, e, align(strlen(e->name), 4));
			off = write_dirs(e, off);
		}
	}
	return off;
}

/* @a (written earlier) holds @data, @b's bytes: compared for real only when the CRCs agree. */
static int same_data(const struct entry *a, const struct entry *b, const uint8_t *data)
{
	uint32_t n = (a->size + opt.blksize - 1) / opt.blksize;
	uint8_t *other;
	int same;

	if (a->size != b->size || a->crc != b->crc || !!a->xip != !!b->xip ||
	    (a->xip && memcmp(a->xip, b->xip, n)))
		return 0;
	other = entry_data(a);
	same = !memcmp(other, data, a->size);
	free(other);
	return same;
}

/*
 * Files and symlinks written so far, by size and CRC: only those that agree
 * on both are compared (each file against every earlier one was a quarter
 * of a 100,000-file build).
 */
#define SEEN_BUCKETS	65536
static struct entry **seen;

static struct entry **seen_bucket(const struct entry *e)
{
	if (!seen)
		seen = xzalloc(SEEN_BUCKETS * sizeof(*seen));
	return &seen[(e->crc ^ e->size * 2654435761u) % SEEN_BUCKETS];
}

/* Earlier file or symlink with the same bytes: its data is shared, as util-linux does. */
static struct entry *find_same(const struct entry *e, const uint8_t *data)
{
	struct entry *s;

	for (s = *seen_bucket(e); s; s = s->next_seen)
		if (same_data(s, e, data))
			return s;
	return NULL;
}

static uint32_t write_data(struct entry *dir, uint32_t off)
{
	struct entry *e;

	for (e = dir->child; e; e = e->next) {
		if ((S_ISREG(e->mode) || S_ISLNK(e->mode)) && e->size) {
			/* One file's data in memory at a time. */
			uint8_t *data = entry_data(e);

			e->crc = crc32(0, data, e->size);
			e->same = find_same(e, data);
			if (e->same) {
				e->data_off = e->same->data_off;
			} else {
				off = write_file(e, data, off);
				e->next_seen = *seen_bucket(e);
				*seen_bucket(e) = e;
			}
			free(data);
			write_inode(e->entry_off, e, align(strlen(e->name), 4));
		} else if (S_ISDIR(e->mode)) {
			off = write_data(e, off);
		}
	}
	return off;
}

/* XIP pages: one contiguous, aligned run per file, in block order. */
static uint32_t write_xip_region(uint32_t off)
{
	size_t f;

	if (!n_xip_files)
		return off;
	stats.padding += align(off, opt.xip_align) - off;
	off = align(off, opt.xip_align);
	for (f = 0; f < n_xip_files; f++) {
		struct entry *e = xip_files[f];
		uint32_t n = (e->size + opt.blksize - 1) / opt.blksize, i;
		uint8_t *data = entry_data(e);

		for (i = 0; i < n; i++) {
			uint32_t in = e->size - i * opt.blksize;

			if (!e->xip[i])
				continue;
			if (in > opt.blksize)
				in = opt.blksize;
			memcpy(at(off, opt.blksize), data + i * opt.blksize, in);
			put32(e->data_off + 4 * i, CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED |
			      CRAMFS_XIP_BLK_FLAG_DIRECT_PTR | (off >> CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT));
			/* A partial last page is zero filled: mapping it shows nothing else. */
			stats.padding += opt.blksize - in;
			stats.xip_pages++;
			off += opt.blksize;
		}
		free(data);
	}
	return off;
}

/* The image must read back whole with the code cramfsck uses: every entry, every block. */
static void self_check(uint32_t len)
{
	struct cimg check = { .who = "mkcramfs" };
	uint32_t n = 0;
	int bad;

	bad = cimg_open(&check, img, len, opt.blksize) || cimg_check_tree(&check, 0, &n) ||
	      n != stats.nodes + 1;
	cimg_close(&check);
	if (bad)
		die("internal error: the image fails its own check (%u problems, %u of %u entries)",
		    check.errors, n, stats.nodes + 1);
}

/* -i: the file's bytes right after the superblock; returns where the root directory goes. */
static uint32_t insert_image(uint32_t off)
{
	struct stat ist;
	uint64_t end;

	if (stat(opt.image, &ist))
		die("%s: %s", opt.image, strerror(errno));
	if (!S_ISREG(ist.st_mode))
		die("%s: not a regular file", opt.image);
	end = ((uint64_t)off + ist.st_size + 3) & ~3ULL;
	if (end > CRAMFS_XIP_MAX_OFFSET)
		die("%s: %lld bytes put the root directory at %llu, beyond the format's 256 MiB limit for offsets",
		    opt.image, (long long)ist.st_size, (unsigned long long)end);
	read_into(opt.image, at(off, ist.st_size), ist.st_size, 1);
	if (!ist.st_size)
		opt.image = NULL;	/* as util-linux: nothing inserted, no flag */
	return end;
}


/* The whole image, its superblock last: it records the final size and the CRC. */
const uint8_t *build_image(struct entry *root, uint32_t *len)
{
	struct cimg check = { .who = "mkcramfs" };
	struct cramfs_xip_dinode rd;
	uint32_t off, root_off;

	reserve_image();
	off = opt.pad + CRAMFS_XIP_SUPER_SIZE;
	at(0, off);
	if (opt.image)
		off = insert_image(off);
	root_off = off;
	root->size = dir_size(root);
	off = write_dirs(root, off);
	off = write_data(root, off);
	off = write_xip_region(off);
	/* A whole number of blocks, as util-linux writes, so losetup and MTD tools take it. */
	stats.padding += align(off, opt.blksize) - off;
	off = align(off, opt.blksize);
	at(0, off);

	put32(opt.pad + 0, CRAMFS_XIP_MAGIC);
	put32(opt.pad + 4, off);
	put32(opt.pad + 8, CRAMFS_XIP_FLAG_FSID_VERSION_2 | CRAMFS_XIP_FLAG_SORTED_DIRS |
	      (opt.holes ? CRAMFS_XIP_FLAG_HOLES : 0) |
	      (opt.image ? CRAMFS_XIP_FLAG_SHIFTED_ROOT_OFFSET : 0) |
	      (n_xip_files || ext_ptrs ? CRAMFS_XIP_FLAG_EXT_BLOCK_POINTERS : 0));
	memcpy(at(opt.pad + 16, 16), CRAMFS_XIP_SIGNATURE, 16);
	put32(opt.pad + 32, 0);
	put32(opt.pad + 36, opt.edition);
	put32(opt.pad + 40, stats.blocks);
	put32(opt.pad + 44, stats.nodes + 1);
	strncpy((char *)at(opt.pad + 48, 16), opt.name ? opt.name : "Compressed", 16);
	/* util-linux points an empty root at where its entries would be, too. */
	rd = (struct cramfs_xip_dinode){ .mode = root->mode, .uid = root->uid, .gid = root->gid,
					 .size = root->size, .offset = root_off };
	cramfs_xip_inode_encode(at(opt.pad + 64, 12), opt.big, &rd);

	/* Check what was built with the same code cramfsck uses, then seal it. */
	self_check(off);
	if (cimg_open(&check, img, off, opt.blksize))
		die("internal error: the image does not open");
	put32(opt.pad + 32, cimg_crc(&check));
	*len = off;
	return img;
}
