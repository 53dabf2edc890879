/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Walking a cramfs image on the host: the one piece of code that mkcramfs's
 * tests, cramfsck and the fuzzer share. Every offset and length read from
 * the image is checked before use; errors are reported, never trusted.
 */
#ifndef CRAMFS_XIP_IMAGE_H
#define CRAMFS_XIP_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include "cramfs_xip_fs.h"

/* The kernel's spellings of the attributes the tools use too. */
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn	__attribute__((noreturn))
#endif

/* The tools' version: the file VERSION, passed by the Makefile. */
#ifdef CRAMFS_XIP_VERSION
#define CIMG_VERSION	CRAMFS_XIP_VERSION
#else
#define CIMG_VERSION	"unknown"
#endif

struct cimg {
	const uint8_t *data;
	size_t len;		/* bytes available */
	int big;		/* big-endian image */
	uint32_t super_off;	/* 0 or CRAMFS_XIP_PAD_SIZE */
	uint32_t size;		/* image size from the superblock (<= len) */
	uint32_t flags;
	uint32_t crc, edition, blocks, files;
	char name[17];
	struct cramfs_xip_dinode root;
	unsigned int blksize;
	unsigned int errors;	/* problems reported so far */
	int quiet;		/* do not print problems, only count them */
	const char *who;	/* what problems start with ("cramfsck: IMAGE"), or NULL */
	uint8_t *ptr_state;	/* 2 bits per pointer word: its zlib block's verdict */
};

enum cimg_block_kind {
	CIMG_HOLE,		/* zero length: reads as zeros */
	CIMG_COMPRESSED,	/* zlib, located by end pointers */
	CIMG_PLAIN,		/* stored plain, located by end pointers */
	CIMG_DIRECT_COMPRESSED,	/* zlib, direct pointer, 16-bit length in front */
	CIMG_DIRECT_PLAIN,	/* plain, direct pointer: what maps in place */
};

struct cimg_block {
	enum cimg_block_kind kind;
	uint32_t start;		/* image offset of the stored bytes */
	uint32_t len;		/* stored bytes */
	uint32_t want;		/* bytes of the file this block holds */
};

struct cimg_entry {
	const char *path;	/* "/" for the root, else "/a/b" */
	const char *name;	/* last component */
	struct cramfs_xip_dinode d;
	uint32_t entry_off;	/* image offset of the entry; 0 for the root */
	int depth;
};

/* Called for every entry, parents before children; non-zero stops the walk. */
typedef int (*cimg_visit_fn)(struct cimg *img, const struct cimg_entry *e, void *ctx);

/**
 * cimg_open() - find and check the superblock of an image in memory
 * @img: filled in
 * @data: the image (or a whole partition holding it)
 * @len: bytes at @data
 * @blksize: block size to read files with (4096 unless the image says otherwise)
 *
 * Return: 0, or -1 with a problem reported.
 */
int cimg_open(struct cimg *img, const void *data, size_t len, unsigned int blksize);

/**
 * cimg_close() - free what checking an image allocated (not the image)
 * @img: an opened image
 */
void cimg_close(struct cimg *img);

/**
 * cimg_crc() - compute the image's CRC the way the format defines it
 * @img: an opened image
 *
 * Return: the CRC-32 of the image from its superblock on, CRC field as zero.
 */
uint32_t cimg_crc(const struct cimg *img);

/**
 * cimg_walk() - visit every entry of the image, checking each directory
 * @img: an opened image
 * @fn: called per entry
 * @ctx: passed to @fn
 *
 * Return: 0, -1 when a directory was inconsistent, or @fn's non-zero value.
 */
int cimg_walk(struct cimg *img, cimg_visit_fn fn, void *ctx);

/**
 * cimg_nblocks() - the number of data blocks of a file or symlink
 * @img: an opened image
 * @d: the inode
 *
 * Return: the block count.
 */
uint32_t cimg_nblocks(const struct cimg *img, const struct cramfs_xip_dinode *d);

/**
 * cimg_block() - locate and check block @index of a file or symlink
 * @img: an opened image
 * @d: the inode
 * @index: the block number
 * @b: filled in
 *
 * Return: 0, or -1 with a problem reported.
 */
int cimg_block(struct cimg *img, const struct cramfs_xip_dinode *d, uint32_t index,
	       struct cimg_block *b);

/**
 * cimg_read_block() - decode one block into @out (blksize bytes, zero padded)
 * @img: an opened image
 * @b: a block from cimg_block()
 * @out: blksize bytes
 *
 * Return: 0, or -1 with a problem reported.
 */
int cimg_read_block(struct cimg *img, const struct cimg_block *b, uint8_t *out);

/* Called for each block cimg_check_data() decoded. */
typedef void (*cimg_block_fn)(struct cimg *img, const struct cimg_entry *e, uint32_t index,
			      const struct cimg_block *b, void *ctx);

/**
 * cimg_check_data() - decode every block of a file or symlink, once
 * @img: an opened image
 * @e: the entry
 * @fn: called per block decoded, or NULL
 * @ctx: passed to @fn
 * @link: for a symlink, its malloc'd NUL-terminated target; or NULL
 *
 * A bad block is one problem, reported with the path and block number.
 *
 * Return: 0, or -1 with problems reported.
 */
int cimg_check_data(struct cimg *img, const struct cimg_entry *e, cimg_block_fn fn, void *ctx,
		    char **link);

/**
 * cimg_check_tree() - walk the image and decode every block of every entry
 * @img: an opened image
 * @first_only: stop at the first problem (a quick "does it read?")
 * @entries: the entries visited, the root included
 *
 * Return: 0 when the walk went through without a problem, else -1.
 */
int cimg_check_tree(struct cimg *img, int first_only, uint32_t *entries);

#define CIMG_EXTRACT_IMAGE	1	/* the image stopped it: problems reported */
#define CIMG_EXTRACT_HOST	2	/* the host refused something: reported with errno */

/**
 * cimg_extract() - write the tree of an image into a new directory
 * @img: an opened image, best one a check walk found clean
 * @atfd: directory @target is relative to, or AT_FDCWD
 * @target: the directory to make; it must not exist
 * @owners: set owners too (needs privileges)
 *
 * Everything is made relative to its parent directory's descriptor, with
 * O_EXCL and O_NOFOLLOW, and modes and owners are set through descriptors or
 * without following symlinks: nothing outside @target is created or changed,
 * whatever the image holds. What was made before a failure stays.
 *
 * Return: 0, CIMG_EXTRACT_IMAGE or CIMG_EXTRACT_HOST.
 */
int cimg_extract(struct cimg *img, int atfd, const char *target, int owners);

/**
 * cimg_host_error() - report a failed host operation with errno (unless quiet)
 * @img: the image
 * @what: the operation
 * @path: the path in the image
 */
void cimg_host_error(const struct cimg *img, const char *what, const char *path);

/**
 * cimg_parse_u32() - parse a whole number option strictly
 * @s: the text: decimal, 0x hex or 0 octal, nothing else around it
 * @min: smallest value accepted
 * @max: largest value accepted
 * @v: the value
 *
 * Return: 0, or -1 for text that is not such a number in [@min, @max].
 */
int cimg_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *v);

/**
 * cimg_problem() - report an image problem (counted; printed unless quiet)
 * @img: the image
 * @fmt: printf format
 */
__printf(2, 3) void cimg_problem(struct cimg *img, const char *fmt, ...);

/**
 * cimg_block_kind_name() - a short name for a block kind, for listings
 * @kind: the kind
 *
 * Return: a static string.
 */
const char *cimg_block_kind_name(enum cimg_block_kind kind);

#endif /* CRAMFS_XIP_IMAGE_H */
