// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: turning an on-disk inode into a VFS inode.
 *
 * An inode's number is the image offset of its directory entry (the root,
 * which has none, is 1): unique, stable, and independent of where its data
 * lies, so files that share data (mkcramfs merges duplicates) stay apart.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kdev_t.h>
#include "internal.h"

/* Check what the inode's data claims before anything reads it. */
static int cramfs_xip_check_inode(struct super_block *sb, const struct cramfs_xip_dinode *d,
				  unsigned long ino)
{
	u32 nblocks;

	switch (d->mode & S_IFMT) {
	case S_IFDIR:
		if (!d->size)
			return 0;
		/*
		 * mkcramfs writes a directory's entries after the entry that
		 * names it; demanding that order makes loops impossible.
		 */
		if (d->offset <= ino || !cramfs_xip_in_image(sb, d->offset, d->size)) {
			cramfs_xip_err(sb, "directory %lu: entries at %u+%u outside the image or before it",
				       ino, d->offset, d->size);
			return -EIO;
		}
		return 0;
	case S_IFLNK:
		if (!d->size || d->size >= PAGE_SIZE) {
			cramfs_xip_err(sb, "symlink %lu: bad target length %u", ino, d->size);
			return -EIO;
		}
		fallthrough;
	case S_IFREG:
		if (!d->size)
			return 0;
		nblocks = DIV_ROUND_UP(d->size, PAGE_SIZE);
		if (!d->offset || !cramfs_xip_in_image(sb, d->offset, nblocks * 4)) {
			cramfs_xip_err(sb, "inode %lu: block pointers at %u (%u blocks) outside the image",
				       ino, d->offset, nblocks);
			return -EIO;
		}
		return 0;
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		return 0;
	default:
		cramfs_xip_err(sb, "inode %lu: invalid file type %#o", ino, d->mode & S_IFMT);
		return -EIO;
	}
}

/**
 * cramfs_xip_iget() - get the VFS inode for an on-disk inode
 * @sb: the mounted filesystem
 * @d: the decoded on-disk inode
 * @ino: its inode number: the image offset of its directory entry, or 1
 *
 * Return: the inode, or an ERR_PTR (-EIO for an inconsistent image).
 */
struct inode *cramfs_xip_iget(struct super_block *sb, const struct cramfs_xip_dinode *d,
			      unsigned long ino)
{
	struct inode *inode;
	int err;

	inode = iget_locked(sb, ino);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!cramfs_xip_compat_inode_new(inode))
		return inode;

	err = cramfs_xip_check_inode(sb, d, ino);
	if (err) {
		iget_failed(inode);
		return ERR_PTR(err);
	}

	inode->i_mode = d->mode;
	i_uid_write(inode, d->uid);
	i_gid_write(inode, d->gid);
	cramfs_xip_compat_zero_times(inode);
	CRAMFS_XIP_I(inode)->data_offset = d->offset;

	switch (d->mode & S_IFMT) {
	case S_IFREG:
		if (CRAMFS_XIP_HAS_FIEMAP)
			inode->i_op = &cramfs_xip_file_iops;
		inode->i_fop = &cramfs_xip_file_fops;
		inode->i_data.a_ops = &cramfs_xip_aops;
		break;
	case S_IFDIR:
		inode->i_op = &cramfs_xip_dir_iops;
		inode->i_fop = &cramfs_xip_dir_fops;
		break;
	case S_IFLNK:
		inode->i_op = &page_symlink_inode_operations;
		inode_nohighmem(inode);
		inode->i_data.a_ops = &cramfs_xip_aops;
		break;
	default:
		/* Device nodes keep their number in the size field. */
		init_special_inode(inode, d->mode, old_decode_dev(d->size));
		break;
	}

	/* Only files, directories and symlinks have a size; as mainline, blocks of 512. */
	if (S_ISREG(d->mode) || S_ISDIR(d->mode) || S_ISLNK(d->mode)) {
		inode->i_size = d->size;
		inode->i_blocks = d->size ? (d->size - 1) / 512 + 1 : 0;
	}

	unlock_new_inode(inode);
	return inode;
}
