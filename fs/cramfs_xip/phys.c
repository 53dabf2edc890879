// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: the image at a physical address (physaddr=): memory-mapped
 * flash that no MTD driver describes, mapped whole with memremap().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include "compat.h"
#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
#include <linux/fs_context.h>
#endif
#include "internal.h"

/* Records the end of the first memory resource found from the address on. */
static int cramfs_xip_resource_end(struct resource *res, void *arg)
{
	struct resource *found = arg;

	*found = *res;
	return 1;
}

/*
 * How many bytes from @phys on the image may occupy: size= if given, else
 * the extent of the memory resource (the flash's device-tree node) that
 * holds @phys. 0 if neither says: then nothing is mapped.
 */
static u64 cramfs_xip_phys_window(struct cramfs_xip_sb_info *sbi)
{
	phys_addr_t phys = sbi->opt.physaddr;
	resource_size_t last = phys + min_t(u64, U32_MAX - 1, (resource_size_t)~0 - phys);
	struct resource found = {};

	if (sbi->opt.size)
		return sbi->opt.size;
	if (walk_iomem_res_desc(IORES_DESC_NONE, IORESOURCE_MEM, phys, last, &found,
				cramfs_xip_resource_end) <= 0 || found.start != phys)
		return 0;
	return (u64)found.end - phys + 1;
}

static void cramfs_xip_phys_release(struct super_block *sb)
{
	memunmap((void *)CRAMFS_XIP_SB(sb)->virt);
}

static const struct cramfs_xip_medium cramfs_xip_phys_medium = {
	.name		= "physaddr= window",
	.release	= cramfs_xip_phys_release,
};

/**
 * cramfs_xip_fill_super_phys() - mount the image at the address physaddr= gives
 * @sb: the new superblock, its info holding the options
 * @fc: the mount's context, for messages (NULL with the legacy mount API)
 *
 * The window the image may occupy is bounded first (size=, or the memory
 * resource holding the address), so that neither a corrupt size field nor
 * a direct pointer can reach past the flash; then the first page is mapped
 * to read the image's size, then the whole image. Nothing the kernel uses
 * as RAM may be mapped.
 *
 * Return: 0, or a negative error with a message.
 */
int cramfs_xip_fill_super_phys(struct super_block *sb, struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	phys_addr_t phys = sbi->opt.physaddr;
	u32 size = 0, off, magic, flags;
	const u8 *first;
	u64 window;
	void *virt;

	cramfs_xip_init_sb(sb);
	snprintf(sb->s_id, sizeof(sb->s_id), "physaddr:%pa", &phys);
	if (!phys || !PAGE_ALIGNED(phys)) {
		errorfc(fc, "physaddr=%pa: must be a nonzero multiple of the page size (%lu)",
			&phys, PAGE_SIZE);
		return -EINVAL;
	}
	window = cramfs_xip_phys_window(sbi);
	if (!window) {
		errorfc(fc, "physaddr=%pa: no memory resource holds this address: give the flash's size with size=",
			&phys);
		return -EINVAL;
	}
	if (window < PAGE_SIZE || window - 1 > (phys_addr_t)~0 - phys) {
		errorfc(fc, "physaddr=%pa: a %llu-byte window there does not fit", &phys,
			window);
		return -EINVAL;
	}
	if (region_intersects(phys, window, IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) !=
	    REGION_DISJOINT) {
		errorfc(fc, "physaddr=%pa: is System RAM, not an image in flash", &phys);
		return -EINVAL;
	}

	first = memremap(phys, PAGE_SIZE, MEMREMAP_WB);
	if (!first) {
		errorfc(fc, "physaddr=%pa: cannot map it", &phys);
		return -EINVAL;
	}
	for (off = 0; off <= CRAMFS_XIP_PAD_SIZE; off += CRAMFS_XIP_PAD_SIZE) {
		magic = cramfs_xip_get32(first + off, IS_ENABLED(CONFIG_CPU_BIG_ENDIAN));
		flags = cramfs_xip_get32(first + off + 8, IS_ENABLED(CONFIG_CPU_BIG_ENDIAN));
		if (magic == CRAMFS_XIP_MAGIC && (flags & CRAMFS_XIP_FLAG_FSID_VERSION_2)) {
			size = cramfs_xip_get32(first + off + 4, IS_ENABLED(CONFIG_CPU_BIG_ENDIAN));
			break;
		}
	}
	memunmap((void *)first);
	if (!size) {
		errorfc(fc, "physaddr=%pa: no cramfs image with a size in its superblock there",
			&phys);
		return -EINVAL;
	}
	if (size < CRAMFS_XIP_SUPER_SIZE || PAGE_ALIGN((u64)size) > window) {
		errorfc(fc, "physaddr=%pa: the image claims %u bytes, the flash there has %llu (%s)",
			&phys, size, window, sbi->opt.size ? "size=" : "its memory resource");
		return -EINVAL;
	}

	virt = memremap(phys, PAGE_ALIGN(size), MEMREMAP_WB);
	if (!virt) {
		errorfc(fc, "physaddr=%pa: cannot map %u bytes", &phys, size);
		return -ENOMEM;
	}
	sbi->medium = &cramfs_xip_phys_medium;
	sbi->virt = virt;
	sbi->phys = phys;
	sbi->medium_size = size;
	return cramfs_xip_fill_common(sb, fc);
}
