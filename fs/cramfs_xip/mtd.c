// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: the image on an MTD. The whole partition is memory-mapped
 * once with the MTD point method where the driver has one (NOR flash
 * through physmap, mtd-rom, mtd-ram): the image is read in place and its
 * direct blocks can be mapped into user space. Without point (SPI NOR,
 * NAND, block2mtd) the image is read with mtd_read(), as romfs does, and
 * there is no execute-in-place. ECC is the MTD layer's: a read it corrected
 * is good, one it could not is an error. mtd_read() does not skip bad
 * blocks: on NAND, an image that spans one reads garbage there (put it on
 * UBI, with ubiblock, instead).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mtd/mtd.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include "compat.h"
#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
#include <linux/fs_context.h>
#endif
#include "internal.h"

static void cramfs_xip_mtd_unpoint(struct super_block *sb)
{
	mtd_unpoint(sb->s_mtd, 0, CRAMFS_XIP_SB(sb)->medium_size);
}

static const struct cramfs_xip_medium cramfs_xip_mtd_point_medium = {
	.name		= "MTD partition",
	.release	= cramfs_xip_mtd_unpoint,
};

/* Mapped for reading, but the driver (phram, slram) gives no physical address. */
static const struct cramfs_xip_medium cramfs_xip_mtd_nophys_medium = {
	.name		= "MTD partition",
	.no_xip		= "the MTD driver gives no physical address",
	.release	= cramfs_xip_mtd_unpoint,
};

/*
 * SPI NOR and NAND controllers may DMA straight into the buffer they are
 * given: never a stack, a vmalloc'd or a highmem page's address, which
 * cannot be mapped for DMA (on non-coherent ARM, a stack buffer shares
 * cache lines with live data). Those reads go through a kmalloc()ed copy.
 */
static int cramfs_xip_mtd_read(struct super_block *sb, u32 off, u32 len, void *buf)
{
	bool bounce = !virt_addr_valid(buf) || object_is_on_stack(buf);
	void *dst = bounce ? kmalloc(len, GFP_KERNEL) : buf;
	size_t got = 0;
	int err;

	if (!dst)
		return -ENOMEM;
	err = mtd_read(sb->s_mtd, off, len, &got, dst);
	/* Bit flips that the ECC corrected leave the data good. */
	if (mtd_is_bitflip(err))
		err = 0;
	if (bounce) {
		if (!err)
			memcpy(buf, dst, len);
		kfree(dst);
	}
	if (!err && got == len)
		return 0;
	cramfs_xip_err(sb, "mtd_read of %u bytes at %u: error %d, %zu read", len, off, err,
		       got);
	return -EIO;
}

static const struct cramfs_xip_medium cramfs_xip_mtd_read_medium = {
	.name		= "MTD partition without point",
	.no_xip		= "the MTD driver cannot map its flash (user guide: \"Will my flash run in place?\")",
	.read		= cramfs_xip_mtd_read,
};

/*
 * A CFI driver whose point holds the chip (Intel's command set, LPDDR, AMD's
 * with the project's patch) makes every write and erase of the chip wait,
 * other partitions' too, until the last unpoint: the unmount. The mount's
 * line says so when the partition is part of a writable NOR chip.
 */
static bool cramfs_xip_mtd_holds_chip(struct mtd_info *mtd)
{
#ifdef CRAMFS_XIP_COMPAT_MTD_MASTER
	struct mtd_info *master = mtd_get_master(mtd);

	return master != mtd && master->type == MTD_NORFLASH && (master->flags & MTD_WRITEABLE);
#else
	return false;
#endif
}

/**
 * cramfs_xip_open_mtd() - open the superblock's MTD as the medium of its image
 * @sb: the new superblock, sb->s_mtd held by the MTD helpers
 * @fc: the mount's context, for messages (NULL with the legacy mount API)
 *
 * Return: 0, or a negative error with a message.
 */
int cramfs_xip_open_mtd(struct super_block *sb, struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	struct mtd_info *mtd = sb->s_mtd;
	size_t len = min_t(u64, mtd->size, U32_MAX);
	void *virt = NULL;
	int err;

	snprintf(sb->s_id, sizeof(sb->s_id), "mtd:%s", mtd->name);

	/*
	 * Map the whole partition once; the image size is not known yet. A
	 * driver may map less than asked (mtdram: only physically contiguous
	 * pages), or a partition start off a word boundary (which the MTD
	 * layer allows, read-only): then the partition is read as if it had no
	 * point, into aligned buffers (the module reads words with one load).
	 */
	err = mtd_point(mtd, 0, len, &sbi->medium_size, &virt, &sbi->phys);
	if (!err && sbi->medium_size == len && IS_ALIGNED((uintptr_t)virt, 4)) {
		/*
		 * Without an MMU the kernel address is the one user space
		 * uses; the physical one may be unset (0) or, for a map that
		 * allows no direct access (physmap's NO_XIP), garbage. With
		 * an MMU, a driver that sets none (0) gets the image read in
		 * place but not mapped into user space.
		 */
		if (!IS_ENABLED(CONFIG_MMU))
			sbi->phys = (uintptr_t)virt;
		sbi->holds_chip = cramfs_xip_mtd_holds_chip(mtd);
		sbi->medium = sbi->phys ? &cramfs_xip_mtd_point_medium :
					  &cramfs_xip_mtd_nophys_medium;
		sbi->virt = virt;
		return 0;
	}
	if (!err)
		mtd_unpoint(mtd, 0, sbi->medium_size);
	if (!CRAMFS_XIP_MTD_READ) {
		errorfc(fc,
			"%s: %s, and this cramfs_xip is built without mtd_read (CONFIG_CRAMFS_XIP_MTD_READ)",
			sb->s_id, err ? "the MTD driver cannot map its flash" :
			"the MTD driver maps only part of the partition");
		return -EINVAL;
	}
	if (err != -EOPNOTSUPP)
		pr_info("(%s): MTD point maps %zu of %zu bytes (%d): mtd_read\n", sb->s_id,
			err ? 0 : sbi->medium_size, len, err);
	sbi->medium = &cramfs_xip_mtd_read_medium;
	sbi->medium_size = len;
	sbi->phys = 0;
	return 0;
}
