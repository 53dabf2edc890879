// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: the read path: block pointers, zlib, and the page cache.
 *
 * Every block of a regular file or symlink is found through its block
 * pointer: compressed, stored plain, or a direct pointer to a plain or
 * compressed block anywhere in the image. Each is checked against the image
 * before a byte of it is read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/vmalloc.h>
#include <linux/zlib.h>
#include "internal.h"

/* The bytes of block @index that belong to the file: a full block, or the tail. */
static u32 cramfs_xip_block_bytes(struct inode *inode, pgoff_t index)
{
	return min_t(u64, PAGE_SIZE, inode->i_size - ((u64)index << PAGE_SHIFT));
}

/*
 * Decode the pointer of block @index. A plain pointer marks the block's end,
 * so its start is the previous block's end, which itself depends on what
 * kind of pointer that block has: hence the helper for one pointer at a time.
 */
static int cramfs_xip_decode_ptr(struct inode *inode, pgoff_t index, struct cramfs_xip_block *b,
				 u32 *end)
{
	struct super_block *sb = inode->i_sb;
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	u32 table = CRAMFS_XIP_I(inode)->data_offset;
	u32 word, ptr;
	u8 len[2] __aligned(4);
	const void *p;
	int err;

	err = cramfs_xip_read32(sb, table + index * 4, &word);
	if (err)
		return err;
	ptr = word;
	if ((ptr & CRAMFS_XIP_BLK_FLAGS) && !(sbi->flags & CRAMFS_XIP_FLAG_EXT_BLOCK_POINTERS))
		goto bad;
	b->compressed = !(ptr & CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED);
	b->direct = ptr & CRAMFS_XIP_BLK_FLAG_DIRECT_PTR;
	ptr &= ~CRAMFS_XIP_BLK_FLAGS;
	if (!b->direct) {
		*end = ptr;
		return 0;
	}
	if (ptr > (U32_MAX >> CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT))
		goto bad;
	b->start = ptr << CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT;
	if (b->compressed) {
		/* A direct compressed block carries its length in front. */
		if (!cramfs_xip_in_image(sb, b->start, 2))
			goto bad;
		p = cramfs_xip_bytes(sb, b->start, 2, len);
		if (IS_ERR(p))
			return PTR_ERR(p);
		b->len = cramfs_xip_get16(p, CRAMFS_XIP_BIG);
		b->start += 2;
	} else {
		b->len = cramfs_xip_block_bytes(inode, index);
	}
	if (!cramfs_xip_in_image(sb, b->start, b->len))
		goto bad;
	*end = b->start + b->len;
	return 0;
bad:
	cramfs_xip_err(sb, "inode %llu: bad block pointer %u (%#x)", (u64)inode->i_ino,
		       (unsigned int)index, word);
	return -EIO;
}

/**
 * cramfs_xip_get_block() - find and check where block @index of a file is stored
 * @inode: a regular file or symlink
 * @index: the block number, below the file's block count
 * @b: where the block is and how it is stored
 *
 * Return: 0, or -EIO with a message when the pointers are inconsistent.
 */
int cramfs_xip_get_block(struct inode *inode, pgoff_t index, struct cramfs_xip_block *b)
{
	struct super_block *sb = inode->i_sb;
	u32 nblocks = cramfs_xip_pages(inode);
	struct cramfs_xip_block prev;
	u32 end, prev_end;
	int err;

	err = cramfs_xip_decode_ptr(inode, index, b, &end);
	if (err || b->direct)
		goto check;
	if (index == 0) {
		prev_end = CRAMFS_XIP_I(inode)->data_offset + nblocks * 4;
	} else {
		err = cramfs_xip_decode_ptr(inode, index - 1, &prev, &prev_end);
		if (err)
			return err;
	}
	if (end < prev_end || !cramfs_xip_in_image(sb, prev_end, end - prev_end)) {
		cramfs_xip_err(sb, "inode %llu: block %u runs from %u to %u", (u64)inode->i_ino,
			       (unsigned int)index, prev_end, end);
		return -EIO;
	}
	b->start = prev_end;
	b->len = end - prev_end;
check:
	if (err)
		return err;
	if (b->len > (b->compressed ? CRAMFS_XIP_MAX_COMPRESSED_LEN :
		      cramfs_xip_block_bytes(inode, index))) {
		cramfs_xip_err(sb, "inode %llu: block %u has a bad length %u", (u64)inode->i_ino,
			       (unsigned int)index, b->len);
		return -EIO;
	}
	return 0;
}

#if CRAMFS_XIP_HAS_FIEMAP
/**
 * cramfs_xip_fiemap() - FIEMAP (filefrag -v) of a regular file
 * @inode: the file (a directory gets -EOPNOTSUPP: it shares the table)
 * @fi: the request
 * @start: the first byte of the file asked for
 * @len: how many
 *
 * Where each stored block of the file lies in the medium (its image offset)
 * and how. Plain blocks that follow one another, in the file and in the
 * image, with the same flags make one extent; a compressed block, or a
 * plain one stored shorter than its part of the file (read as zeros past
 * its end), is an extent of its own, as long as the bytes of the file it
 * holds (FIEMAP_EXTENT_ENCODED if compressed); a plain block that is not
 * direct and page-aligned, or any plain block of a mount that maps nothing
 * in place (a block device, memory the kernel cannot map so), is never
 * mapped in place, and FIEMAP_EXTENT_NOT_ALIGNED. A hole has no extent.
 *
 * Return: 0 or a negative error.
 */
int cramfs_xip_fiemap(struct inode *inode, struct fiemap_extent_info *fi, u64 start, u64 len)
{
	/* A file is at most 16 MiB: u32 will do from here on. */
	u32 size = inode->i_size, pos, last, bytes, e_pos = 0, e_phys = 0, e_len = 0;
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(inode->i_sb);
	struct cramfs_xip_block b;
	u32 flags, e_flags = 0;
	bool exact, e_exact = false;
	int err;

	if (!S_ISREG(inode->i_mode))
		return -EOPNOTSUPP;
	err = cramfs_xip_compat_fiemap_prep(inode, fi, start, &len);
	if (err || start >= size || !len)
		return err;
	last = min_t(u64, size - 1, start + len - 1);
	for (pos = start & PAGE_MASK; pos <= last; pos += PAGE_SIZE) {
		err = cramfs_xip_get_block(inode, pos >> PAGE_SHIFT, &b);
		if (err)
			return err;
		if (!b.len)
			continue;
		/* In place needs a page-aligned physical address, not just image offset. */
		flags = b.compressed ? FIEMAP_EXTENT_ENCODED :
			b.direct && sbi->xip && PAGE_ALIGNED(sbi->phys + b.start) ? 0 :
			FIEMAP_EXTENT_NOT_ALIGNED;
		/* Only plain blocks that hold all their bytes follow one another. */
		bytes = cramfs_xip_block_bytes(inode, pos >> PAGE_SHIFT);
		exact = !b.compressed && b.len == bytes;
		if (e_exact && exact && flags == e_flags && e_pos + e_len == pos &&
		    e_phys + e_len == b.start) {
			e_len += bytes;
			continue;
		}
		if (e_len) {
			err = fiemap_fill_next_extent(fi, e_pos, e_phys, e_len, e_flags);
			if (err)
				return err < 0 ? err : 0;
		}
		e_pos = pos;
		e_phys = b.start;
		e_len = bytes;
		e_flags = flags;
		e_exact = exact;
	}
	if (!e_len)
		return 0;
	if (e_pos + e_len == size)
		e_flags |= FIEMAP_EXTENT_LAST;
	err = fiemap_fill_next_extent(fi, e_pos, e_phys, e_len, e_flags);
	return err < 0 ? err : 0;
}
#endif

/* How much of zlib's inflate workspace each mount allocates: see cramfs_xip_zlib_init(). */
static size_t cramfs_xip_zlib_ws_size;

/*
 * A failure is the caller's to report (once, rate limited): __GFP_NOWARN
 * keeps the allocator's own warning and its stack dump off the console.
 */
static void *cramfs_xip_zlib_alloc(size_t size)
{
	return IS_ENABLED(CONFIG_MMU) ? cramfs_xip_compat_vmalloc(size, GFP_KERNEL | __GFP_NOWARN) :
	       alloc_pages_exact(size, GFP_KERNEL | __GFP_NOWARN);
}

static void cramfs_xip_zlib_free(void *p, size_t size)
{
	if (IS_ENABLED(CONFIG_MMU))
		vfree(p);
	else
		free_pages_exact(p, size);
}

/*
 * Inflate one stored block of a page into @out with workspace @ws, whose
 * bytes from @part on are filled with a pattern: true if the page came out
 * right and the pattern is whole.
 */
static bool __init cramfs_xip_zlib_probe(u8 *ws, size_t part, size_t full, u8 *src, u8 *out)
{
	struct z_stream_s stream = { .workspace = ws };
	size_t i;
	int err;

	memset(ws + part, 0x5a, full - part);
	/* A raw deflate stream: one final stored block of PAGE_SIZE bytes. */
	src[0] = 1;
	src[1] = PAGE_SIZE & 0xff;
	src[2] = PAGE_SIZE >> 8;
	src[3] = ~src[1];
	src[4] = ~src[2];
	for (i = 0; i < PAGE_SIZE; i++)
		src[5 + i] = i * 7;
	stream.next_in = src;
	stream.avail_in = PAGE_SIZE + 5;
	stream.next_out = out;
	stream.avail_out = PAGE_SIZE;
	if (zlib_inflateInit2(&stream, -MAX_WBITS) != Z_OK)
		return false;
	err = zlib_inflate(&stream, Z_FINISH);
	zlib_inflateEnd(&stream);
	return err == Z_STREAM_END && stream.total_out == PAGE_SIZE &&
	       !memcmp(out, src + 5, PAGE_SIZE) && !memchr_inv(ws + part, 0x5a, full - part);
}

/**
 * cramfs_xip_zlib_init() - choose how much zlib inflate workspace a mount needs
 *
 * The workspace ends with a 32 KiB window (1 << MAX_WBITS) into which
 * inflate copies the output of each call. cramfs_xip inflates each block in
 * one call, from a fresh stream, into one page: at most PAGE_SIZE of the
 * window is touched, so a mount allocates about 13 KB instead of 43. That
 * rests on lib/zlib_inflate's private layout, so it is checked here, once:
 * a page is inflated with the rest of the workspace filled with a pattern.
 * Should the layout change, the pattern breaks, the kernel log says so, and
 * every mount allocates the whole workspace (as it does when there is no
 * memory for the check).
 */
void __init cramfs_xip_zlib_init(void)
{
	size_t full = zlib_inflate_workspacesize();
	size_t part = full - (1 << MAX_WBITS) + PAGE_SIZE;
	u8 *ws;
	bool ok;

	cramfs_xip_zlib_ws_size = full;
	/* s390's DFLTCC lays the workspace out differently: it gets the whole one. */
	if (IS_ENABLED(CONFIG_ZLIB_DFLTCC) || PAGE_SIZE >= (1 << MAX_WBITS) ||
	    full <= (1 << MAX_WBITS))
		return;
	ws = cramfs_xip_zlib_alloc(full + 2 * PAGE_SIZE + 8);
	ok = ws && cramfs_xip_zlib_probe(ws, part, full, ws + full, ws + full + PAGE_SIZE + 8);
	if (ws)
		cramfs_xip_zlib_free(ws, full + 2 * PAGE_SIZE + 8);
	if (ok)
		cramfs_xip_zlib_ws_size = part;
	else
		pr_warn("zlib workspace layout %s: %zu bytes a mount\n",
			ws ? "not as expected" : "not checked (no memory)", full);
}

#ifndef MODULE
/*
 * Built into the kernel, the check runs among the first initcalls. Without an
 * MMU it needs 64 KiB of contiguous pages for a moment: by the time the
 * filesystems register, a system in a few hundred KiB (mem=768K) has no such
 * block left, and each mount would then need one for the whole workspace.
 */
static int __init cramfs_xip_zlib_early(void)
{
	cramfs_xip_zlib_init();
	return 0;
}
core_initcall(cramfs_xip_zlib_early);
#endif

/*
 * The zlib workspace of a mount, allocated when it first decompresses a
 * block (an image read only through XIP mappings never needs one) and held
 * until unmount. Called under zlib_lock. Without an MMU, vmalloc() is
 * kmalloc(), which would round the size up to a power of two: there,
 * alloc_pages_exact() keeps just the pages the workspace needs.
 */
static void *cramfs_xip_zlib_workspace(struct cramfs_xip_sb_info *sbi)
{
	unsigned int nofs;

	if (sbi->zlib_workspace)
		return sbi->zlib_workspace;
	/* We may hold a locked page-cache page: reclaim must not re-enter filesystems. */
	nofs = memalloc_nofs_save();
	sbi->zlib_workspace = cramfs_xip_zlib_alloc(cramfs_xip_zlib_ws_size);
	memalloc_nofs_restore(nofs);
	return sbi->zlib_workspace;
}

/* Inflate the @len stored bytes at image offset @start into @dst: @want bytes. */
static int cramfs_xip_inflate(struct super_block *sb, void *dst, u32 want, u32 start, u32 len)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	struct z_stream_s stream = {};
	const void *src;
	int err;

	mutex_lock(&sbi->zlib_lock);
	stream.workspace = cramfs_xip_zlib_workspace(sbi);
	if (!stream.workspace) {
		mutex_unlock(&sbi->zlib_lock);
		cramfs_xip_err(sb, "no memory for the zlib workspace");
		return -ENOMEM;
	}
	/* A medium that is not mapped is read into the mount's buffer, under the lock. */
	src = cramfs_xip_bytes(sb, start, len, sbi->bounce);
	if (IS_ERR(src)) {
		mutex_unlock(&sbi->zlib_lock);
		return PTR_ERR(src);
	}
	stream.next_in = src;
	stream.avail_in = len;
	stream.next_out = dst;
	stream.avail_out = PAGE_SIZE;
	err = zlib_inflateInit(&stream);
	if (err == Z_OK) {
		err = zlib_inflate(&stream, Z_FINISH);
		zlib_inflateEnd(&stream);
	}
	mutex_unlock(&sbi->zlib_lock);
	if (err != Z_STREAM_END || stream.total_out != want) {
		cramfs_xip_err(sb, "zlib error %d, %lu bytes of %u", err, stream.total_out, want);
		return -EIO;
	}
	return 0;
}

/* Fill one page-cache page, @index of its file. */
static int cramfs_xip_fill_page(struct inode *inode, struct page *page, pgoff_t index)
{
	struct super_block *sb = inode->i_sb;
	struct cramfs_xip_block b;
	u32 want = 0;
	void *dst;
	int err = 0;

	dst = cramfs_xip_compat_kmap(page);
	if (index < cramfs_xip_pages(inode)) {
		want = cramfs_xip_block_bytes(inode, index);
		err = cramfs_xip_get_block(inode, index, &b);
		if (err || !b.len)
			want = 0;	/* a hole: zeros */
		else if (b.compressed)
			err = cramfs_xip_inflate(sb, dst, want, b.start, b.len);
		else
			err = cramfs_xip_copy(sb, dst, b.start, b.len);
		if (!err && b.len && !b.compressed)
			want = b.len;
		if (!err && b.len)
			cramfs_xip_count(CRAMFS_XIP_SB(sb), b.compressed ? CRAMFS_XIP_DECOMPRESSED :
					 CRAMFS_XIP_COPIED, 1);
	}
	if (!err && want < PAGE_SIZE)
		memset(dst + want, 0, PAGE_SIZE - want);
	cramfs_xip_compat_kunmap(page, dst);
	if (!err)
		flush_dcache_page(page);
	return err;
}

#ifdef CRAMFS_XIP_COMPAT_READ_FOLIO
static int cramfs_xip_read_folio(struct file *file, struct folio *folio)
{
	int err = cramfs_xip_fill_page(folio->mapping->host, &folio->page, folio->index);

	if (err)
		cramfs_xip_verity_refused(file, folio->index, 1);
	else
		folio_mark_uptodate(folio);
	folio_unlock(folio);
	return err;
}

const struct address_space_operations cramfs_xip_aops = {
	.read_folio	= cramfs_xip_read_folio,
};
#else
static int cramfs_xip_readpage(struct file *file, struct page *page)
{
	int err = cramfs_xip_fill_page(page->mapping->host, page, page->index);

	if (err)
		cramfs_xip_verity_refused(file, page->index, 1);
	else
		SetPageUptodate(page);
	unlock_page(page);
	return err;
}

const struct address_space_operations cramfs_xip_aops = {
	.readpage	= cramfs_xip_readpage,
};
#endif

/**
 * cramfs_xip_zlib_exit() - free the zlib workspace of a mount, if it has one
 * @sbi: the mount
 */
void cramfs_xip_zlib_exit(struct cramfs_xip_sb_info *sbi)
{
	if (!sbi->zlib_workspace)
		return;
	cramfs_xip_zlib_free(sbi->zlib_workspace, cramfs_xip_zlib_ws_size);
	sbi->zlib_workspace = NULL;
}
