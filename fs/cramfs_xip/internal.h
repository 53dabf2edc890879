/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cramfs_xip: in-memory structures and the functions the files share.
 */
#ifndef _CRAMFS_XIP_INTERNAL_H
#define _CRAMFS_XIP_INTERNAL_H

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/string.h>
#include <asm/page.h>
#include "cramfs_xip_fs.h"
#include "compat.h"

/*
 * The image's blocks are 4 KiB (cramfs_xip_fs.h), and the module reads,
 * decompresses and maps them a page each: only kernels with 4 KiB pages.
 * Kconfig says so in tree; this stops an out-of-tree build, which never
 * reads Kconfig, before it compiles anything.
 */
#if PAGE_SIZE != CRAMFS_XIP_BLOCK_SIZE
#error "cramfs_xip: needs 4 KiB pages, the image format's block size (arm64: CONFIG_ARM64_4K_PAGES)"
#endif

/* Mount options; a remount may repeat them but not change them. */
struct cramfs_xip_options {
	bool crc;			/* check the image's CRC at mount */
	phys_addr_t physaddr;		/* physaddr=, 0 if not given */
	u64 size;			/* size=: bytes at physaddr, 0 if not given */
	bool strict;			/* refuse a medium that cannot be mapped */
	bool verity_required;		/* refuse an image not verified (verity.c) */
	bool root_hash_given;		/* verity=<root hash>: root_hash holds it */
	u8 root_hash[CRAMFS_XIP_VERITY_HASH_SIZE];
};

/*
 * Where the image lives. super.c opens one medium at mount: mtd.c (an MTD,
 * memory-mapped by its point method or read with mtd_read()), bdev.c (a
 * block device) or phys.c (physaddr=). The rest of the module reads the
 * image through cramfs_xip_bytes() and cramfs_xip_copy(), maps it through
 * cramfs_xip_map(), and never asks which medium it is on. A memory-mapped
 * medium sets sbi->virt and sbi->phys, and needs no read operation.
 */
struct cramfs_xip_medium {
	/* For the kernel log: "MTD point", "block device", ... */
	const char *name;
	/* Why it cannot be mapped in place; NULL if it can. */
	const char *no_xip;
	/* Copy @len bytes at offset @off (inside sbi->size) into @buf: 0 or -EIO. */
	int (*read)(struct super_block *sb, u32 off, u32 len, void *buf);
	/* Give back what the mount holds of it, after the superblock is shut down. */
	void (*release)(struct super_block *sb);
};

/*
 * What this build serves besides MTDs that can be memory-mapped (Kconfig, or
 * the make variables of the same names out of tree; all on by default):
 * images at a physical address (physaddr=), on block devices, and on MTDs
 * without point, read with mtd_read(). A kernel that has no use for one
 * leaves its code out. The Makefile sets CRAMFS_XIP_HAS_*.
 */
#define CRAMFS_XIP_PHYSADDR	CRAMFS_XIP_HAS_PHYSADDR
#define CRAMFS_XIP_BLOCKDEV	(IS_ENABLED(CONFIG_BLOCK) && CRAMFS_XIP_HAS_BLOCKDEV)
#define CRAMFS_XIP_MTD_READ	(IS_ENABLED(CONFIG_MTD) && CRAMFS_XIP_HAS_MTD_READ)
#if !IS_ENABLED(CONFIG_MTD) && !CRAMFS_XIP_BLOCKDEV && !CRAMFS_XIP_PHYSADDR
#if IS_ENABLED(CONFIG_BLOCK)
#error "cramfs_xip: this kernel has no MTD: build with CONFIG_CRAMFS_XIP_PHYSADDR or _BLOCKDEV"
#else
#error "cramfs_xip: this kernel has neither MTD nor block devices: build with CONFIG_CRAMFS_XIP_PHYSADDR"
#endif
#endif

/* Where a mount finds its image: physaddr=, an MTD, or a block device. */
enum cramfs_xip_source {
	CRAMFS_XIP_ON_PHYS,
	CRAMFS_XIP_ON_MTD,
	CRAMFS_XIP_ON_BDEV,
};

/*
 * The figures of a mount in the file /sys/fs/cramfs_xip/<s_id> (sysfs.c, where
 * built): counts since the mount.
 */
enum cramfs_xip_stat {
	CRAMFS_XIP_DECOMPRESSED,	/* pages inflated into the page cache */
	CRAMFS_XIP_COPIED,		/* plain pages copied into it */
	CRAMFS_XIP_MMAP_WHOLE,		/* mmaps mapped in place whole */
	CRAMFS_XIP_MMAP_MIXED,		/* ... in part, the rest from the page cache */
	CRAMFS_XIP_MMAP_PAGE_CACHE,	/* ... not at all */
#if CRAMFS_XIP_HAS_VERITY
	CRAMFS_XIP_BLOCKS_HASHED,	/* verity: image and tree blocks hashed */
#endif
	/* An mmap of pages not all in place, by the first of them that is not: */
	CRAMFS_XIP_WHY_COMPRESSED,
	CRAMFS_XIP_WHY_HOLE,
	CRAMFS_XIP_WHY_UNALIGNED,	/* plain, but not direct and page-aligned */
	CRAMFS_XIP_WHY_TAIL,		/* the rest of its flash page is not zero */
	CRAMFS_XIP_WHY_PAST_IMAGE,
	CRAMFS_XIP_WHY_MEDIUM,		/* a medium that cannot be mapped */
	CRAMFS_XIP_WHY_TRACED,		/* mapped by a process being traced */
	CRAMFS_XIP_WHY_WRITABLE,	/* a writable mapping: MMU only */
	CRAMFS_XIP_NR_STATS,
};

/* Images of the CPU's byte order only: the mount refuses the other. */
#define CRAMFS_XIP_BIG	IS_ENABLED(CONFIG_CPU_BIG_ENDIAN)

struct cramfs_xip_sb_info {
	enum cramfs_xip_source on;	/* set before the superblock exists */
	const struct cramfs_xip_medium *medium;
	/* A memory-mapped medium: the whole image, never written through; else NULL. */
	const u8 *virt;
	phys_addr_t phys;
	bool xip;			/* pages can be mapped in place: virt, phys, no medium->no_xip */
	bool holds_chip;		/* point holds a NOR chip other partitions share (mtd.c) */
	size_t medium_size;		/* bytes of the medium (mapped or readable) from its start */
	/* Other media: one compressed block read from the medium, under zlib_lock. */
	void *bounce;
	u32 size;			/* image size, <= medium_size */
	u32 super_offset;		/* 0, or CRAMFS_XIP_PAD_SIZE */
	u32 flags;			/* CRAMFS_XIP_FLAG_* */
	u32 blocks;
	u32 files;
	struct cramfs_xip_options opt;	/* as given at mount */

	/* zlib: one workspace per mount, from its first compressed block to unmount. */
	struct mutex zlib_lock;
	void *zlib_workspace;

#if CRAMFS_XIP_HAS_VERITY
	/* verity.c: the hash tree, if the mount verifies the image; else NULL. */
	struct cramfs_xip_verity *verity;
#endif

	/* Messages an image can trigger are rate limited per mount. */
	struct ratelimit_state ratelimit;

#if CRAMFS_XIP_HAS_SYSFS
	/* sysfs.c: the file /sys/fs/cramfs_xip/<sysfs_name>, if sysfs_added. */
	struct kobj_attribute stats_attr;
	char sysfs_name[sizeof_field(struct super_block, s_id) + 11];
	bool sysfs_added;
	atomic_long_t stats[CRAMFS_XIP_NR_STATS];
#endif
};

/* Count @n more of @stat, where the figures are built. */
static inline void cramfs_xip_count(struct cramfs_xip_sb_info *sbi, enum cramfs_xip_stat stat,
				    long n)
{
#if CRAMFS_XIP_HAS_SYSFS
	atomic_long_add(n, &sbi->stats[stat]);
#endif
}

struct cramfs_xip_inode_info {
	u32 data_offset;		/* block pointer table or directory entries */
	struct inode vfs_inode;
};

static inline struct cramfs_xip_sb_info *CRAMFS_XIP_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

static inline struct cramfs_xip_inode_info *CRAMFS_XIP_I(struct inode *inode)
{
	return container_of(inode, struct cramfs_xip_inode_info, vfs_inode);
}

/*
 * A file's size in pages. The size is set once, at iget (the filesystem is
 * read-only), and is at most 16 MiB: read without i_size_read()'s retries.
 */
static inline u32 cramfs_xip_pages(const struct inode *inode)
{
	return DIV_ROUND_UP((u32)inode->i_size, PAGE_SIZE);
}

/* Is [off, off + len) inside the image? Safe against overflow. */
static inline bool cramfs_xip_in_image(struct super_block *sb, u32 off, u32 len)
{
	u32 size = CRAMFS_XIP_SB(sb)->size;

	return off <= size && len <= size - off;
}

/**
 * cramfs_xip_err() - report what an image (or a medium) did wrong: rate limited
 * @sb: the mount, whose device the message names
 * @fmt: the message
 */
__printf(2, 3) void cramfs_xip_err(struct super_block *sb, const char *fmt, ...);

/**
 * cramfs_xip_mount_err() - refuse a mount with a message naming its source
 * @fc: the mount's context (NULL with the legacy mount API)
 * @sb: the superblock, whose s_id names the source
 * @fmt: the message
 */
__printf(3, 4) void cramfs_xip_mount_err(struct fs_context *fc, struct super_block *sb,
					 const char *fmt, ...);

/*
 * Are reads of the medium copies into the caller's buffer? For a medium that
 * is not memory-mapped, and on arm64 for every medium: it maps an MTD's flash
 * as Device memory, where an unaligned load faults and memcpy() makes them.
 * (The block pointer words and the zero tail of a page in place are read in
 * place there too: 4-byte aligned words, and memchr_inv()'s byte and aligned
 * loads.)
 */
static inline bool cramfs_xip_reads_copy(const struct cramfs_xip_sb_info *sbi)
{
	return !sbi->virt || IS_ENABLED(CONFIG_ARM64);
}

#if CRAMFS_XIP_HAS_VERITY
/**
 * cramfs_xip_medium_bytes() - the @len bytes at offset @off of the medium
 * @sb: the mounted filesystem
 * @off: offset from the image's start, inside the medium (the verity area
 *	lies past the image)
 * @len: bytes wanted
 * @buf: room for @len bytes, where they are copied when cramfs_xip_reads_copy()
 *
 * Nothing is verified: cramfs_xip_bytes() is the read of the image.
 *
 * Return: as cramfs_xip_bytes(), for a range outside the medium instead.
 */
const void *cramfs_xip_medium_bytes(struct super_block *sb, u32 off, u32 len, void *buf);

/**
 * cramfs_xip_verity_bytes() - cramfs_xip_bytes() on a mount that verifies
 * @sb: the mount
 * @off: image offset
 * @len: bytes wanted, inside the image
 * @buf: room for @len bytes
 *
 * A memory-mapped medium's blocks are checked, then read as ever; a medium
 * read by copy serves them from checked copies.
 *
 * Return: as cramfs_xip_bytes(); ERR_PTR(-EIO) for a block that does not
 * match the tree.
 */
const void *cramfs_xip_verity_bytes(struct super_block *sb, u32 off, u32 len, void *buf);
/**
 * cramfs_xip_verity_satisfies() - does a mount meet the verity options of another?
 * @sbi: the mount
 * @opt: the options of a remount or of a second mount of its device
 *
 * Return: true if @opt asks for nothing the mount does not do: verity_required
 * of a mount whose root was given or signed, verity= of one with that root.
 */
bool cramfs_xip_verity_satisfies(const struct cramfs_xip_sb_info *sbi,
				 const struct cramfs_xip_options *opt);
/**
 * cramfs_xip_verify() - check the image blocks of [@off, @off + @len) against the tree
 * @sb: a mount that verifies its image (sbi->verity set), on a memory-mapped medium
 * @off: image offset
 * @len: bytes; the part past the image is not checked (nothing covers it)
 *
 * Return: 0 once every block is checked (hashed the first time only); -EIO,
 * with a rate-limited message naming the block, for one that does not
 * match, or the medium's read error.
 */
int cramfs_xip_verify(struct super_block *sb, u32 off, u32 len);
/**
 * cramfs_xip_verity_mount() - find the verity trailer and decide whether to trust it
 * @sb: the superblock, its size and flags read (unverified)
 * @fc: the mount's context, for messages (NULL with the legacy mount API)
 *
 * Return: 0 (sbi->verity set if the image is verified from now on), or a
 * negative error with a message: the policy refuses the image, the trailer
 * is damaged, the signature or root hash does not match.
 */
int cramfs_xip_verity_mount(struct super_block *sb, struct fs_context *fc);
void cramfs_xip_verity_exit(struct cramfs_xip_sb_info *sbi);
/**
 * cramfs_xip_verity_extent() - how far the verity area of an image reaches
 * @size: the image's size (its superblock's)
 * @sig_len: its signature's length, as its trailer says (at most the
 *	format's largest is counted)
 *
 * Return: bytes from the image's start to the end of its verity area, in pages.
 */
u64 cramfs_xip_verity_extent(u32 size, u32 sig_len);
/**
 * cramfs_xip_verity_refused() - say which pages of a file a failed read or mapping was for
 * @file: the file read or mapped (NULL: a read without one)
 * @index: its first page
 * @pages: how many
 *
 * Said (rate limited) only on a mount that verifies, after the message of
 * what failed: the file's name and its bytes, for the one who must find
 * what a damaged block breaks.
 */
void cramfs_xip_verity_refused(struct file *file, pgoff_t index, unsigned long pages);

/* Does the mount verify its image? */
static inline bool cramfs_xip_verifying(const struct cramfs_xip_sb_info *sbi)
{
	return sbi->verity;
}

/* Check [@off, @off + @len) of the image, if the mount verifies it: 0 or -EIO. */
static inline int cramfs_xip_verified(struct super_block *sb, u32 off, u32 len)
{
	return CRAMFS_XIP_SB(sb)->verity ? cramfs_xip_verify(sb, off, len) : 0;
}
#else
static inline int cramfs_xip_verified(struct super_block *sb, u32 off, u32 len) { return 0; }
static inline const void *cramfs_xip_verity_bytes(struct super_block *sb, u32 off, u32 len,
						  void *buf)
{
	return ERR_PTR(-EIO);
}
static inline bool cramfs_xip_verity_satisfies(const struct cramfs_xip_sb_info *sbi,
					       const struct cramfs_xip_options *opt)
{
	return true;
}
static inline int cramfs_xip_verity_mount(struct super_block *sb, struct fs_context *fc)
{
	return 0;
}
static inline void cramfs_xip_verity_exit(struct cramfs_xip_sb_info *sbi) { }
static inline bool cramfs_xip_verifying(const struct cramfs_xip_sb_info *sbi) { return false; }
static inline void cramfs_xip_verity_refused(struct file *file, pgoff_t index,
					     unsigned long pages) { }
#endif

/**
 * cramfs_xip_bytes() - the @len bytes at image offset @off
 * @sb: the mounted filesystem
 * @off: image offset
 * @len: bytes wanted
 * @buf: room for @len bytes, always: where they are copied when
 *	cramfs_xip_reads_copy()
 *
 * The caller has checked the range against the image; it is checked once
 * more here, so that no read of any medium can leave the image. A mount
 * that verifies its image checks the blocks of the range first.
 *
 * Return: @buf with a copy, or a pointer into the mapping of a memory-mapped
 * medium (never kept past the caller's use of @buf); ERR_PTR(-EIO) for a
 * range outside the image or a read error.
 */
const void *cramfs_xip_bytes(struct super_block *sb, u32 off, u32 len, void *buf);

/* Copy @len bytes at image offset @off into @dst: 0 or -EIO. */
static inline int cramfs_xip_copy(struct super_block *sb, void *dst, u32 off, u32 len)
{
	const void *src = cramfs_xip_bytes(sb, off, len, dst);

	if (IS_ERR(src))
		return PTR_ERR(src);
	if (src != dst)
		memcpy(dst, src, len);
	return 0;
}

static inline int cramfs_xip_read32(struct super_block *sb, u32 off, u32 *val)
{
	u8 word[4] __aligned(4);
	const void *p = cramfs_xip_bytes(sb, off, 4, word);

	if (IS_ERR(p))
		return PTR_ERR(p);
	*val = cramfs_xip_get32(p, CRAMFS_XIP_BIG);
	return 0;
}

/*
 * Where image offset @off lies in kernel and physical memory, if the medium
 * is memory-mapped: the kernel address (and *@phys), else NULL, which means
 * no execute-in-place for this mount. @off must lie in the image.
 */
static inline const u8 *cramfs_xip_map(struct super_block *sb, u32 off, phys_addr_t *phys)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);

	if (!sbi->xip)
		return NULL;
	if (phys)
		*phys = sbi->phys + off;
	return sbi->virt + off;
}

/*
 * The media: each sets up sbi (super.c mounts the image then). The MTD
 * and block device ones are built with MTD and block device support and
 * called only where IS_ENABLED() says they are.
 */
int cramfs_xip_open_phys(struct super_block *sb, struct fs_context *fc);
int cramfs_xip_open_mtd(struct super_block *sb, struct fs_context *fc);
int cramfs_xip_open_bdev(struct super_block *sb, struct fs_context *fc);

/* inode.c */
struct inode *cramfs_xip_iget(struct super_block *sb, const struct cramfs_xip_dinode *d,
			      unsigned long ino);

/* dir.c */
/* for directories and regular files */
extern const struct inode_operations cramfs_xip_iops;
extern const struct file_operations cramfs_xip_dir_fops;

/* data.c */
struct cramfs_xip_block {
	u32 start;		/* image offset of the stored bytes */
	u32 len;		/* stored bytes; 0 for a hole */
	bool compressed;
	bool direct;
};

extern const struct address_space_operations cramfs_xip_aops;
/* FIEMAP, where built (CRAMFS_XIP_HAS_FIEMAP): filefrag -v */
int cramfs_xip_fiemap(struct inode *inode, struct fiemap_extent_info *fi, u64 start, u64 len);
int cramfs_xip_get_block(struct inode *inode, pgoff_t index, struct cramfs_xip_block *b);
void __init cramfs_xip_zlib_init(void);
void cramfs_xip_zlib_exit(struct cramfs_xip_sb_info *sbi);

/* xip.c */
extern const struct file_operations cramfs_xip_file_fops;
#ifdef CONFIG_MMU
const char *cramfs_xip_frames_unusable(struct super_block *sb);
#else
/* Without page tables, frames are handed out as addresses only. */
static inline const char *cramfs_xip_frames_unusable(struct super_block *sb) { return NULL; }
#endif

/* sysfs.c, where built (CRAMFS_XIP_HAS_SYSFS) */
#if CRAMFS_XIP_HAS_SYSFS
void cramfs_xip_sysfs_add(struct super_block *sb);
void cramfs_xip_sysfs_del(struct cramfs_xip_sb_info *sbi);
int __init cramfs_xip_sysfs_init(void);
void cramfs_xip_sysfs_exit(void);
#else
static inline void cramfs_xip_sysfs_add(struct super_block *sb) { }
static inline void cramfs_xip_sysfs_del(struct cramfs_xip_sb_info *sbi) { }
static inline int cramfs_xip_sysfs_init(void) { return 0; }
static inline void cramfs_xip_sysfs_exit(void) { }
#endif

#endif /* _CRAMFS_XIP_INTERNAL_H */
