// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: the image on a block device (an SD card, a loop device, a
 * disk partition): read through the device's page cache, as mainline
 * cramfs does, a page at a time. A block device cannot be mapped in place:
 * no execute-in-place, mmap uses the page cache.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include "compat.h"
#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
#include <linux/fs_context.h>
#endif
#include "internal.h"

static int cramfs_xip_bdev_read(struct super_block *sb, u32 off, u32 len, void *buf)
{
	struct address_space *mapping = cramfs_xip_compat_bdev_mapping(sb->s_bdev);
	u32 in, n;
	struct page *page;
	void *src;

	for (; len; off += n, buf += n, len -= n) {
		in = offset_in_page(off);
		n = min_t(u32, len, PAGE_SIZE - in);
		page = read_mapping_page(mapping, off >> PAGE_SHIFT, NULL);
		if (IS_ERR(page)) {
			cramfs_xip_err(sb, "read error %ld at offset %u", PTR_ERR(page), off);
			return -EIO;
		}
		src = cramfs_xip_compat_kmap(page);
		memcpy(buf, src + in, n);
		cramfs_xip_compat_kunmap(page, src);
		put_page(page);
	}
	return 0;
}

static const struct cramfs_xip_medium cramfs_xip_bdev_medium = {
	.name		= "block device",
	.no_xip		= "a block device cannot be mapped",
	.read		= cramfs_xip_bdev_read,
};

/**
 * cramfs_xip_open_bdev() - the superblock's block device as the medium of its image
 * @sb: the new superblock, sb->s_bdev opened read-only
 * @fc: the mount's context, for messages (NULL with the legacy mount API)
 *
 * Return: 0, or a negative error with a message.
 */
int cramfs_xip_open_bdev(struct super_block *sb, struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);

	sbi->medium = &cramfs_xip_bdev_medium;
	sbi->medium_size = min_t(u64, cramfs_xip_compat_bdev_bytes(sb->s_bdev), U32_MAX);
	return 0;
}
