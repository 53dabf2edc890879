/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mkcramfs's own header: the tree it builds from, its options and totals,
 * and what each step's file gives the others. The format itself is
 * fs/cramfs_xip/cramfs_xip_fs.h (through image.h), shared with the module
 * and cramfsck.
 *
 *   mkcramfs.c           the command line, the steps in order, messages
 *   mkcramfs-output.c    the output, opened first, replaced whole or not at all
 *   mkcramfs-tree.c      the host tree read into entries; owners; -v's listing
 *   mkcramfs-devtable.c  -D: device nodes, directories, modes and owners
 *   mkcramfs-elf.c       ELF program headers: the blocks of segments
 *   mkcramfs-xip.c       -X: the blocks stored in place (ELF, -R, sticky, profile)
 *   mkcramfs-layout.c    the image in memory: superblock, directories, data, XIP region
 *   mkcramfs-compress.c  one file's blocks: zlib or plain, behind its pointer table
 *   mkcramfs-verity.c    --verity: the hash tree, trailer and signature after the image
 */
#ifndef MKCRAMFS_H
#define MKCRAMFS_H

#include <stddef.h>
#include <stdint.h>
#include "image.h"

struct entry {
	char *name;
	char *src;		/* host path, or NULL for table-made entries */
	char *ipath;		/* path in the image, for messages and rules */
	uint32_t mode, uid, gid;
	uint32_t size;		/* file size, directory size, or device number */
	uint8_t *data;		/* symlink target; a file's content is read when written */
	uint32_t crc;		/* of the data, once written: finds identical files */
	uint8_t *xip;		/* per block: stored for execute in place */
	uint32_t nxip;
	struct entry *child, *next;
	struct entry *same;	/* identical data already written */
	struct entry *next_seen;	/* in its bucket of written data */
	uint32_t entry_off, data_off;
};

extern struct options {
	unsigned int blksize;
	int big;
	uint32_t edition;
	const char *name;
	const char *image;	/* -i */
	int pad, holes, verbose, xip;
	int ext;		/* -x: extended block pointers, without -X */
	int squash;		/* -q: every entry root's */
	int errors;		/* -E: warnings make the exit status 8 */
	uint32_t xip_align;	/* 0: the block size */
	int level;
	const char *rules;
	const char *profile;
	const char *devtable;
	int verity;		/* --verity */
	const char *sign_key, *sign_cert;
} opt;

extern struct totals {
	uint32_t files, dirs, links, special, nodes, blocks;
	uint64_t in_bytes, zlib_bytes, xip_pages, padding, plain_blocks;
	unsigned int warnings;
} stats;

#define EXIT_ERROR	8
#define EXIT_USAGE	16

/* mkcramfs.c: messages (a warning is counted, for -E) and allocation that cannot fail. */
__printf(2, 3) __noreturn void die_with(int status, const char *fmt, ...);
__printf(1, 2) void warn_count(const char *fmt, ...);
#define die(...)	die_with(EXIT_ERROR, __VA_ARGS__)
#define usage_error(...)	die_with(EXIT_USAGE, __VA_ARGS__)
#define warn(...)	warn_count(__VA_ARGS__)
void *xzalloc(size_t n);
__printf(1, 2) char *xasprintf(const char *fmt, ...);

static inline uint32_t align(uint32_t v, uint32_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* mkcramfs-output.c */
void open_output(const char *path);
void write_output(const uint8_t *data, size_t len);

/* mkcramfs-tree.c */
void read_into(const char *path, uint8_t *buf, size_t len, int whole);
uint8_t *read_whole(const char *path, uint32_t size, int whole);
uint8_t *entry_data(const struct entry *e);
void scan_tree(struct entry *root, char *src);
struct entry *new_entry(struct entry *parent, const char *name);
void place_newest(struct entry *dir);
struct entry *lookup(struct entry *root, const char *path, int create_dirs);
uint32_t encode_dev(const char *ipath, unsigned int maj, unsigned int min, unsigned int count,
		    int first);
void finish_owners(struct entry *root);
void list_entries(struct entry *dir);

/* mkcramfs-devtable.c */
void apply_devtable(struct entry *root, const char *file);

/* mkcramfs-elf.c */
void mark_elf_segments(struct entry *e, uint8_t *out, int exec);

/* mkcramfs-xip.c */
void load_rules(const char *file);
void load_profile(const char *file);
void select_xip(struct entry *root);
extern uint64_t profile_not_code;	/* profiled pages that are not code */

/* mkcramfs-layout.c */
uint8_t *at(size_t off, size_t len);
void put32(uint32_t off, uint32_t v);
void check_offset(const struct entry *e, uint32_t off);
const uint8_t *build_image(struct entry *root, uint32_t *len);

/* mkcramfs-compress.c */
uint32_t write_file(struct entry *e, const uint8_t *data, uint32_t off);
extern struct entry **xip_files;	/* the files with XIP blocks, in the order written */
extern size_t n_xip_files;
extern int ext_ptrs;			/* some block pointer carries a flag */

/* mkcramfs-verity.c */
void load_signer(void);
size_t add_verity(const uint8_t *img, uint32_t size);
void print_verity(size_t len);

#endif /* MKCRAMFS_H */
