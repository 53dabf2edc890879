// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: the image at a physical address (physaddr=): memory-mapped
 * flash that no MTD driver describes, mapped whole with memremap().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>
#include "compat.h"
#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
#include <linux/fs_context.h>
#endif
#include "internal.h"

#ifdef CONFIG_OF
/*
 * What a device tree node must be to hold an image mounted by address:
 * the project's own, or memory-mapped flash (or RAM) that MTD would serve.
 * Not any node with a reg (a syscon, an MFD's child, /memory past mem=).
 */
static const char *const cramfs_xip_windows[] = {
	"cramfs-xip,image", "mtd-rom", "mtd-ram", "cfi-flash", "jedec-flash", NULL
};

/*
 * The bytes from @phys to the end of the smallest reg of an enabled device
 * tree node of cramfs_xip_windows[] that holds it and that no driver is
 * bound to, or 0. Such a node is in no resource of /proc/iomem (only
 * drivers put their devices' regions there), and it is how a board
 * describes flash that cramfs_xip mounts by address.
 */
static phys_addr_t cramfs_xip_of_window(phys_addr_t phys)
{
	struct device_node *np;
	struct resource r;
	phys_addr_t window = 0;
	int i;

	for (np = of_find_all_nodes(NULL); np; np = of_find_all_nodes(np)) {
		struct platform_device *pdev;
		bool bound;

		const char *const *c = cramfs_xip_windows;

		/* of_device_compatible_match() is exported from 6.1 on only. */
		while (*c && !of_device_is_compatible(np, *c))
			c++;
		if (!*c || !of_device_is_available(np))
			continue;
		/* A driver's device may map its registers without claiming them. */
		pdev = of_find_device_by_node(np);
		bound = pdev && pdev->dev.driver;
		if (pdev)
			put_device(&pdev->dev);
		if (bound)
			continue;
		for (i = 0; !of_address_to_resource(np, i, &r); i++)
			if (resource_type(&r) == IORESOURCE_MEM && r.start <= phys && phys <= r.end &&
			    (!window || r.end - phys + 1 < window))
				window = r.end - phys + 1;
	}
	return window;
}
#else
static phys_addr_t cramfs_xip_of_window(phys_addr_t phys)
{
	return 0;
}
#endif

/*
 * The image's size from its superblock at @phys (at 0, or after the
 * 512-byte pad), read uncached: nothing is mapped cacheable before the
 * image is known to be there. 0 if there is none, -ENOMEM if the page
 * cannot be mapped.
 */
static long long cramfs_xip_phys_size(phys_addr_t phys)
{
	void __iomem *io = ioremap(phys, PAGE_SIZE);
	u8 super[12];
	u32 off, size = 0;

	if (!io)
		return -ENOMEM;
	for (off = 0; off <= CRAMFS_XIP_PAD_SIZE && !size; off += CRAMFS_XIP_PAD_SIZE) {
		memcpy_fromio(super, io + off, sizeof(super));
		if (cramfs_xip_get32(super, CRAMFS_XIP_BIG) == CRAMFS_XIP_MAGIC &&
		    (cramfs_xip_get32(super + 8, CRAMFS_XIP_BIG) & CRAMFS_XIP_FLAG_FSID_VERSION_2))
			size = cramfs_xip_get32(super + 4, CRAMFS_XIP_BIG);
	}
	iounmap(io);
	return size;
}

/* @res (clipped to the page @arg) is claimed, or holds part of the page only. */
static int cramfs_xip_in_the_way(struct resource *res, void *arg)
{
	const struct resource *page = arg;

	return (res->flags & IORESOURCE_BUSY) || res->start != page->start ||
	       res->end != page->end;
}

static void cramfs_xip_phys_release(struct super_block *sb)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);

	memunmap((void *)sbi->virt);
	release_mem_region(sbi->phys, sbi->medium_size);
}

static const struct cramfs_xip_medium cramfs_xip_phys_medium = {
	.name		= "physaddr= window",
	.release	= cramfs_xip_phys_release,
};

#if CRAMFS_XIP_HAS_VERITY
/*
 * Grow @claim, the @size-byte image at @phys, over the verity area after
 * it, within @limit bytes of flash: the trailer's page first (claimed
 * before it is read), then as far as the tree and the signature the
 * trailer says go. The claim's length; the image's alone when no trailer
 * follows or something stops the claim (the mount then finds no trailer,
 * and verity_required refuses it).
 */
static u32 cramfs_xip_phys_verity(struct resource *claim, phys_addr_t phys, u32 size, u64 limit)
{
	u64 start = PAGE_ALIGN(size), end = start + PAGE_SIZE;
	u8 t[CRAMFS_XIP_VERITY_TRAILER_SIZE];
	void __iomem *io;

	limit = min_t(u64, limit, (u32)PAGE_MASK);
	if (end > limit || adjust_resource(claim, phys, end))
		return start;
	io = ioremap(phys + start, PAGE_SIZE);
	if (io) {
		memcpy_fromio(t, io, sizeof(t));
		iounmap(io);
		if (!memcmp(t, CRAMFS_XIP_VERITY_MAGIC, 8)) {
			end = cramfs_xip_verity_extent(size, cramfs_xip_get32(t + 96, CRAMFS_XIP_BIG));
			if (end <= limit && !adjust_resource(claim, phys, end))
				return end;
		}
	}
	/* Back to the image: shrinking a claim cannot fail. */
	adjust_resource(claim, phys, start);
	return start;
}
#endif

/**
 * cramfs_xip_open_phys() - open the image at the address physaddr= gives
 * @sb: the new superblock, its info holding the options
 * @fc: the mount's context, for messages (NULL with the legacy mount API)
 *
 * Refused on a locked-down kernel, as /dev/mem is. The image must lie in one
 * memory region that no driver and no other mount has claimed, up to its
 * end (or to size=, which may only make it smaller), so that neither a
 * corrupt size field nor a direct pointer can reach past the flash. The
 * region is a resource in /proc/iomem (a device a board file registered),
 * or else the reg of a device tree node of flash or an image that no
 * driver has claimed (cramfs_xip_windows[]). Claiming the first page finds
 * it: request_mem_region() goes down into unclaimed
 * resources and fails on claimed ones, and the new region's parent is the
 * resource that holds it. The page, read uncached, tells the image's
 * size, and the claim
 * grows to the image (adjust_resource() fails where another claim is in the
 * way). Nothing the kernel uses as RAM, and nothing a driver has claimed,
 * may be mapped.
 *
 * Return: 0, or a negative error with a message.
 */
int cramfs_xip_open_phys(struct super_block *sb, struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	phys_addr_t phys = sbi->opt.physaddr;	/* nonzero and page-aligned: parsed so */
	struct resource *claim;
	phys_addr_t window;
	long long size;
	u32 len;
	void *virt;
	int err = -EINVAL;

	snprintf(sb->s_id, sizeof(sb->s_id), "physaddr:%pa", &phys);
	if (cramfs_xip_compat_locked_down()) {
		cramfs_xip_mount_err(fc, sb, "the kernel is locked down");
		return -EPERM;
	}
	if (region_intersects(phys, PAGE_SIZE, IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) !=
	    REGION_DISJOINT) {
		cramfs_xip_mount_err(fc, sb, "is System RAM");
		return -EINVAL;
	}
	claim = request_mem_region(phys, PAGE_SIZE, "cramfs_xip");
	if (!claim) {
		struct resource page = DEFINE_RES_MEM(phys, PAGE_SIZE);

		/* A resource in the way, or no memory for the new one. */
		if (walk_iomem_res_desc(IORES_DESC_NONE, IORESOURCE_MEM, page.start, page.end,
					&page, cramfs_xip_in_the_way) == 1)
			goto busy;
		cramfs_xip_mount_err(fc, sb, "cannot claim it");
		return -ENOMEM;
	}
	window = claim->parent != &iomem_resource ? claim->parent->end - phys + 1 :
		 cramfs_xip_of_window(phys);
	if (window < PAGE_SIZE) {
		cramfs_xip_mount_err(fc, sb, "in no memory resource or flash or image DT node");
		goto release;
	}
	size = cramfs_xip_phys_size(phys);
	if (size < 0)
		goto nomap;
	if (!size) {
		cramfs_xip_mount_err(fc, sb, "no cramfs image (version 2) there");
		goto release;
	}
	/* Up to 4 GiB less a page: PAGE_ALIGN(size) stays a u32. */
	if (size < CRAMFS_XIP_SUPER_SIZE || size > (u32)PAGE_MASK || sbi->opt.size > window ||
	    PAGE_ALIGN(size) > (sbi->opt.size ?: window)) {
		cramfs_xip_mount_err(fc, sb, "%lld-byte image, size=%llu, %llu bytes of flash there",
				     size, sbi->opt.size, (u64)window);
		goto release;
	}
	if (adjust_resource(claim, phys, PAGE_ALIGN(size))) {
		release_mem_region(phys, PAGE_SIZE);
		goto busy;
	}
	len = PAGE_ALIGN(size);
#if CRAMFS_XIP_HAS_VERITY
	/* A verity area after the image too, if no claim is in the way. */
	len = cramfs_xip_phys_verity(claim, phys, size, sbi->opt.size ?: window);
#endif
	virt = memremap(phys, len, MEMREMAP_WB);
	if (!virt)
		goto nomap;
	/* From here on, the release gives back the mapping and the claim. */
	sbi->medium = &cramfs_xip_phys_medium;
	sbi->virt = virt;
	sbi->phys = phys;
	sbi->medium_size = len;
	return 0;
busy:
	cramfs_xip_mount_err(fc, sb, "in use (/proc/iomem)");
	return -EBUSY;
nomap:
	cramfs_xip_mount_err(fc, sb, "cannot map it");
	err = -ENOMEM;
release:
	release_mem_region(claim->start, resource_size(claim));
	return err;
}
