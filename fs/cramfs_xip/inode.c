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

/**
 * cramfs_xip_iget() - get the VFS inode for an on-disk inode
 * @sb: the mounted filesystem
 * @d: the decoded on-disk inode
 * @ino: its inode number: the image offset of its directory entry, or 1
 *
 * What the inode's data claims is checked before anything reads it.
 *
 * Return: the inode, or an ERR_PTR (-EIO for an inconsistent image).
 */
struct inode *cramfs_xip_iget(struct super_block *sb, const struct cramfs_xip_dinode *d,
			      unsigned long ino)
{
	u32 nblocks = DIV_ROUND_UP(d->size, PAGE_SIZE);
	struct inode *inode;

	inode = iget_locked(sb, ino);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!cramfs_xip_compat_inode_new(inode))
		return inode;

	inode->i_mode = d->mode;
	i_uid_write(inode, d->uid);
	i_gid_write(inode, d->gid);
	cramfs_xip_compat_zero_times(inode);
	CRAMFS_XIP_I(inode)->data_offset = d->offset;

	switch (d->mode & S_IFMT) {
	case S_IFDIR:
		/*
		 * mkcramfs writes a directory's entries after the entry that
		 * names it; demanding that order makes loops impossible.
		 */
		if (d->size && (d->offset <= ino || !cramfs_xip_in_image(sb, d->offset, d->size))) {
			cramfs_xip_err(sb, "directory %lu: entries at %u+%u outside the image or before it",
				       ino, d->offset, d->size);
			goto bad;
		}
		inode->i_op = &cramfs_xip_iops;
		inode->i_fop = &cramfs_xip_dir_fops;
		break;
	case S_IFLNK:
		if (!d->size || d->size >= PAGE_SIZE) {
			cramfs_xip_err(sb, "symlink %lu: bad target length %u", ino, d->size);
			goto bad;
		}
		inode->i_op = &page_symlink_inode_operations;
		inode_nohighmem(inode);
		goto blocks;
	case S_IFREG:
		inode->i_op = &cramfs_xip_iops;
		inode->i_fop = &cramfs_xip_file_fops;
blocks:
		inode->i_data.a_ops = &cramfs_xip_aops;
		if (d->size && (!d->offset || !cramfs_xip_in_image(sb, d->offset, nblocks * 4))) {
			cramfs_xip_err(sb, "inode %lu: block pointers at %u (%u blocks) past the image",
				       ino, d->offset, nblocks);
			goto bad;
		}
		break;
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		/* Device nodes keep their number in the size field; none has a size. */
		init_special_inode(inode, d->mode, old_decode_dev(d->size));
		goto done;
	default:
		cramfs_xip_err(sb, "inode %lu: invalid file type %#o", ino, d->mode & S_IFMT);
		goto bad;
	}
	/* As mainline, in blocks of 512. */
	inode->i_size = d->size;
	inode->i_blocks = d->size ? (d->size - 1) / 512 + 1 : 0;
done:
	unlock_new_inode(inode);
	return inode;
bad:
	iget_failed(inode);
	return ERR_PTR(-EIO);
}
