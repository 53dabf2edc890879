/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cramfs_xip: in-memory structures and the functions the files share.
 */
#ifndef _CRAMFS_XIP_INTERNAL_H
#define _CRAMFS_XIP_INTERNAL_H

#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include "cramfs_xip_fs.h"
#include "compat.h"

/* Mount options; a remount may repeat them but not change them. */
struct cramfs_xip_options {
	bool crc;			/* check the image's CRC at mount */
	phys_addr_t physaddr;		/* physaddr=, 0 if not given */
	u64 size;			/* size=: bytes at physaddr, 0 if not given */
};

struct cramfs_xip_sb_info {
	/* The whole image, mapped once at mount: never written through. */
	const u8 *virt;
	phys_addr_t phys;
	size_t mapped;			/* bytes mapped from the start of the partition */
	u32 size;			/* image size, <= mapped */
	u32 super_offset;		/* 0, or CRAMFS_XIP_PAD_SIZE */
	u32 flags;			/* CRAMFS_XIP_FLAG_* */
	u32 blocks;
	u32 files;
	bool big_endian;
	bool memremapped;		/* mapped by physaddr=, not by MTD point */
	struct cramfs_xip_options opt;	/* as given at mount */

	/* zlib: one workspace per mount, from its first compressed block to unmount. */
	struct mutex zlib_lock;
	void *zlib_workspace;

	/* Messages an image can trigger are rate limited per mount. */
	struct ratelimit_state ratelimit;
};

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

/* Is [off, off + len) inside the image? Safe against overflow. */
static inline bool cramfs_xip_in_image(struct super_block *sb, u32 off, u32 len)
{
	u32 size = CRAMFS_XIP_SB(sb)->size;

	return off <= size && len <= size - off;
}

static inline u32 cramfs_xip_read32(struct super_block *sb, u32 off)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);

	return cramfs_xip_get32(sbi->virt + off, sbi->big_endian);
}

__printf(3, 4) void _cramfs_xip_err(struct super_block *sb, const char *func,
				    const char *fmt, ...);
/* For anything an image can trigger: names the device and function, rate limited. */
#define cramfs_xip_err(sb, fmt, ...) _cramfs_xip_err(sb, __func__, fmt, ##__VA_ARGS__)

/* inode.c */
struct inode *cramfs_xip_iget(struct super_block *sb, const struct cramfs_xip_dinode *d,
			      unsigned long ino);

/* dir.c */
extern const struct inode_operations cramfs_xip_dir_iops;
extern const struct file_operations cramfs_xip_dir_fops;

/* data.c */
struct cramfs_xip_block {
	u32 start;		/* image offset of the stored bytes */
	u32 len;		/* stored bytes; 0 for a hole */
	bool compressed;
	bool direct;
};

extern const struct address_space_operations cramfs_xip_aops;
int cramfs_xip_get_block(struct inode *inode, pgoff_t index, struct cramfs_xip_block *b);
void cramfs_xip_zlib_init(void);
void cramfs_xip_zlib_exit(struct cramfs_xip_sb_info *sbi);

/* xip.c */
extern const struct file_operations cramfs_xip_file_fops;

#endif /* _CRAMFS_XIP_INTERNAL_H */
