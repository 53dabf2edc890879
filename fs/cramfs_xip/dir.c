// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: directories: readdir and lookup.
 *
 * A directory's data is a packed run of entries: an inode followed by its
 * name, NUL padded to 4 bytes. Like mainline cramfs, readdir returns the
 * entries only, without "." and "..".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "internal.h"

struct cramfs_xip_dirent {
	struct cramfs_xip_dinode d;
	const char *name;
	unsigned int len;		/* name length without padding */
	u32 ino;			/* image offset of the entry */
	u32 next;			/* position of the next entry in the directory */
	/* The entry, copied here from a medium that is not memory-mapped. */
	u8 buf[CRAMFS_XIP_INODE_SIZE + CRAMFS_XIP_MAXPATHLEN] __aligned(4);
};

/*
 * Read and check the entry at @pos of directory @dir. @quiet: @pos may not
 * be an entry's start (a position from lseek()), and a bad entry there is
 * no fault of the image: no message.
 */
static int cramfs_xip_read_dirent(struct inode *dir, u32 pos, struct cramfs_xip_dirent *de,
				  bool quiet)
{
	struct super_block *sb = dir->i_sb;
	u32 size = dir->i_size;
	u32 off = CRAMFS_XIP_I(dir)->data_offset + pos;
	const char *name;
	unsigned int len;
	const u8 *p;

	/* The directory's whole data range was checked against the image at iget. */
	if (pos & 3 || pos > size || size - pos < CRAMFS_XIP_INODE_SIZE)
		goto bad;
	/* The inode and the longest name it can have, within the directory. */
	p = cramfs_xip_bytes(sb, off, min_t(u32, size - pos, sizeof(de->buf)), de->buf);
	if (IS_ERR(p))
		return PTR_ERR(p);
	cramfs_xip_inode_decode(p, CRAMFS_XIP_BIG, &de->d);
	if (!de->d.namelen || de->d.namelen > size - pos - CRAMFS_XIP_INODE_SIZE)
		goto bad;
	name = (const char *)p + CRAMFS_XIP_INODE_SIZE;
	len = strnlen(name, de->d.namelen);
	/* Padding is at most 3 NULs; a name holds no NUL or '/'. */
	if (!len || de->d.namelen - len > 3 || memchr(name, '/', len) ||
	    (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.'))))
		goto bad;
	if (len < de->d.namelen && memchr_inv(name + len, 0, de->d.namelen - len))
		goto bad;
	de->name = name;
	de->len = len;
	de->ino = off;
	de->next = pos + CRAMFS_XIP_INODE_SIZE + de->d.namelen;
	return 0;
bad:
	if (!quiet)
		cramfs_xip_err(sb, "directory %llu: bad entry at position %u", (u64)dir->i_ino, pos);
	return -EIO;
}

/*
 * A position is an entry's offset in the directory. readdir goes on from
 * the one it left the file at (the file remembers it) and from any other
 * that telldir() may have handed out, read directly. lseek() lets a user
 * put the position anywhere, though, and only the image, never the user,
 * may make an entry look bad: a position that is not the start of an
 * entry is taken to the first entry at or after it by a walk from the
 * start, and after one that looks like an entry but may not be, a bad
 * entry ends the call with -EIO and no message (a listing from the start
 * reports it, if the image is at fault).
 */
static int cramfs_xip_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file_inode(file);
	struct cramfs_xip_dirent de;
	bool sure = !ctx->pos || ctx->pos == (uintptr_t)file->private_data;
	u32 pos = ctx->pos;
	int err;

	if (ctx->pos >= dir->i_size)
		return 0;
	if (!sure && cramfs_xip_read_dirent(dir, pos, &de, true)) {
		pos = 0;
		sure = true;
	}
	for (; pos < dir->i_size; pos = de.next) {
		cond_resched();
		err = cramfs_xip_read_dirent(dir, pos, &de, !sure);
		if (err)
			return err;
		if (pos < ctx->pos)
			continue;
		ctx->pos = pos;
		if (!dir_emit(ctx, de.name, de.len, de.ino, cramfs_xip_compat_dtype(de.d.mode)))
			goto out;
		/* Past it at once: a bad entry next must not bring this one back. */
		ctx->pos = de.next;
	}
	ctx->pos = pos;
out:
	if (sure)
		file->private_data = (void *)(uintptr_t)ctx->pos;
	return 0;
}

/* Names compare as strcmp() does, which is how mkcramfs sorts them. */
static int cramfs_xip_namecmp(const char *a, unsigned int alen, const char *b, unsigned int blen)
{
	int r = memcmp(a, b, min(alen, blen));

	if (r)
		return r;
	return alen < blen ? -1 : alen > blen;
}

static struct dentry *cramfs_xip_lookup(struct inode *dir, struct dentry *dentry,
					unsigned int flags)
{
	struct super_block *sb = dir->i_sb;
	bool sorted = CRAMFS_XIP_SB(sb)->flags & CRAMFS_XIP_FLAG_SORTED_DIRS;
	const struct qstr *q = &dentry->d_name;
	struct inode *inode = NULL;
	struct cramfs_xip_dirent de;
	u32 pos = 0;
	int err, cmp;

	while (pos < dir->i_size) {
		err = cramfs_xip_read_dirent(dir, pos, &de, false);
		if (err) {
			inode = ERR_PTR(err);
			break;
		}
		cmp = cramfs_xip_namecmp(de.name, de.len, q->name, q->len);
		if (!cmp) {
			inode = cramfs_xip_iget(sb, &de.d, de.ino);
			break;
		}
		if (cmp > 0 && sorted)
			break;
		pos = de.next;
		cond_resched();
	}
	return d_splice_alias(inode, dentry);
}

/*
 * Directories and regular files share one table (128 bytes each): the VFS
 * looks up only in directories, and FIEMAP answers for regular files only.
 */
const struct inode_operations cramfs_xip_iops = {
	.lookup		= cramfs_xip_lookup,
#if CRAMFS_XIP_HAS_FIEMAP
	.fiemap		= cramfs_xip_fiemap,
#endif
};

const struct file_operations cramfs_xip_dir_fops = {
	.llseek		= generic_file_llseek,
	.read		= generic_read_dir,
	.iterate_shared	= cramfs_xip_readdir,
	.setlease	= generic_setlease,
};
