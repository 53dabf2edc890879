// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: execute in place: mapping file pages straight from flash.
 *
 * A page can be mapped in place when its block is direct and plain, lies
 * page-aligned inside the image, and (for a file's partial last page) the
 * rest of its flash page is zero, so that nothing beyond the file shows.
 *
 * With an MMU, a mapping whose pages all qualify and lie consecutively in
 * flash is mapped whole with remap_pfn_range(); otherwise the qualifying
 * pages are inserted one by one and the rest come from the page cache.
 * Private writable mappings work either way: the ptes are read-only, and a
 * write copies the page. Without an MMU there are no page tables: a mapping
 * is either the flash address itself (get_unmapped_area) or a RAM copy.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "internal.h"

static bool verbose_xip;
module_param(verbose_xip, bool, 0644);
MODULE_PARM_DESC(verbose_xip, "log how each mmap of a file was served (in place, mixed, page cache)");

#define cramfs_xip_note(file, fmt, ...)						\
	do {									\
		if (verbose_xip)						\
			pr_info_ratelimited("%pD: " fmt "\n", file, ##__VA_ARGS__); \
	} while (0)

/*
 * Where page @index of @inode lies in the image, if it can be mapped in
 * place. Everything is checked against the image here, so that nothing
 * outside it can ever reach a page table. With an MMU the block must also
 * fill a page-aligned flash page, zero past the file's tail; without one a
 * mapping is an address, so any direct plain block in the image will do.
 */
static bool cramfs_xip_page(struct inode *inode, pgoff_t index, u32 *offset)
{
	struct super_block *sb = inode->i_sb;
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	u32 nblocks = DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE);
	struct cramfs_xip_block b;
	const u8 *virt;
	phys_addr_t phys;
	u32 ptr;

	/* Without extended pointers no block is direct (data.c refuses their flags). */
	if (index >= nblocks || !(sbi->flags & CRAMFS_XIP_FLAG_EXT_BLOCK_POINTERS))
		return false;
	/*
	 * A whole page (not the file's last) of a mapped image, the case of
	 * every page of program text: the pointer word must say direct and
	 * plain, and the page lie inside the image, page-aligned in flash.
	 * That is what cramfs_xip_get_block() and the checks below come to
	 * for it, in a few steps per page (an exec maps hundreds); the pointer
	 * table itself was checked against the image at iget. Anything else,
	 * or a pointer that fails, takes the full path, which says what is wrong.
	 */
	if (sbi->xip && index + 1 < nblocks) {
		ptr = cramfs_xip_get32(sbi->virt + CRAMFS_XIP_I(inode)->data_offset + index * 4,
				       sbi->big_endian);
		if ((ptr & CRAMFS_XIP_BLK_FLAGS) != CRAMFS_XIP_BLK_FLAGS)
			return false;
		b.start = (ptr & ~CRAMFS_XIP_BLK_FLAGS) << CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT;
		if (cramfs_xip_in_image(sb, b.start, PAGE_SIZE) &&
		    (!IS_ENABLED(CONFIG_MMU) || PAGE_ALIGNED(sbi->phys + b.start))) {
			*offset = b.start;
			return true;
		}
	}
	if (cramfs_xip_get_block(inode, index, &b) || !b.direct || b.compressed)
		return false;
	virt = cramfs_xip_map(sb, b.start, &phys);
	if (!virt)
		return false;
	if (IS_ENABLED(CONFIG_MMU) &&
	    (!PAGE_ALIGNED(phys) || !cramfs_xip_in_image(sb, b.start, PAGE_SIZE) ||
	     (b.len < PAGE_SIZE && memchr_inv(virt + b.len, 0, PAGE_SIZE - b.len))))
		return false;
	*offset = b.start;
	return true;
}

/*
 * A walk over consecutive pages of a file that decodes each block once:
 * @run pages from @pgoff on lie in place one after the other from @offset;
 * the page that ended the run is @next_ok (at @next_offset) or not.
 */
struct cramfs_xip_run {
	pgoff_t pgoff;
	unsigned long run;
	u32 offset;
	bool next_ok;
	u32 next_offset;
};

/*
 * In a mapped image, how far the run that page @r->pgoff (in place at
 * @r->offset) starts goes on, from its pointer words alone: each must be
 * the first one plus a page, which makes it direct and plain, page-aligned
 * and next in flash. The file's last page is left to cramfs_xip_page() (its
 * tail must be zero) and the run to the image's end, so the checks are those
 * of cramfs_xip_page() made once for the run: program text is one run of
 * hundreds of pages, and this is one load and one compare per page.
 */
static unsigned long cramfs_xip_run_length(struct inode *inode, struct cramfs_xip_run *r,
					   unsigned long pages)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(inode->i_sb);
	u32 nblocks = DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE);
	const u8 *ptrs;
	unsigned long n, limit;
	u32 first;

	if (!sbi->xip || r->pgoff + 1 >= nblocks)
		return 1;
	ptrs = sbi->virt + CRAMFS_XIP_I(inode)->data_offset + r->pgoff * 4;
	first = cramfs_xip_get32(ptrs, sbi->big_endian);
	limit = min3(pages, (unsigned long)(nblocks - 1 - r->pgoff),
		     (unsigned long)(sbi->size - r->offset) >> PAGE_SHIFT);
	for (n = 1; n < limit; n++)
		if (cramfs_xip_get32(ptrs + n * 4, sbi->big_endian) !=
		    first + (n << (PAGE_SHIFT - CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT)))
			break;
	return n;
}

/* How many of @pages pages from @r->pgoff on form one consecutive run in flash. */
static void cramfs_xip_find_run(struct inode *inode, struct cramfs_xip_run *r,
				unsigned long pages)
{
	u32 off;

	r->next_ok = false;
	r->run = 0;
	if (!pages || !cramfs_xip_page(inode, r->pgoff, &r->offset))
		return;
	for (r->run = cramfs_xip_run_length(inode, r, pages); r->run < pages; r->run++) {
		if (!cramfs_xip_page(inode, r->pgoff + r->run, &off))
			return;
		if (off != r->offset + r->run * PAGE_SIZE) {
			r->next_ok = true;
			r->next_offset = off;
			return;
		}
	}
}

#ifdef CONFIG_MMU

/*
 * Why page @index of @inode (inside the file) is not mapped in place:
 * a CRAMFS_XIP_WHY_*, or CRAMFS_XIP_NR_STATS for a bad block pointer (its
 * read fails with the image's message).
 */
static enum cramfs_xip_stat cramfs_xip_why_not(struct inode *inode, pgoff_t index)
{
	struct super_block *sb = inode->i_sb;
	struct cramfs_xip_block b;

	if (!CRAMFS_XIP_SB(sb)->xip)
		return CRAMFS_XIP_WHY_MEDIUM;
	if (cramfs_xip_get_block(inode, index, &b))
		return CRAMFS_XIP_NR_STATS;
	if (!b.len)
		return CRAMFS_XIP_WHY_HOLE;
	if (b.compressed)
		return CRAMFS_XIP_WHY_COMPRESSED;
	if (!b.direct || !PAGE_ALIGNED(CRAMFS_XIP_SB(sb)->phys + b.start))
		return CRAMFS_XIP_WHY_UNALIGNED;
	if (!cramfs_xip_in_image(sb, b.start, PAGE_SIZE))
		return CRAMFS_XIP_WHY_PAST_IMAGE;
	return CRAMFS_XIP_WHY_TAIL;
}

/*
 * -o strict: page @index of @file is in a mapping but not mapped in place.
 * If the image stores the page for execute-in-place (direct, plain and
 * page-aligned: the mount checked that the image is), the mmap fails with
 * -EINVAL and a line naming file, page and reason; a compressed page, a
 * hole or a plain block elsewhere may come from RAM. 0 if the mapping may
 * go on.
 */
static int cramfs_xip_strict(struct file *file, pgoff_t index)
{
	struct inode *inode = file_inode(file);
	struct super_block *sb = inode->i_sb;
	enum cramfs_xip_stat why;

	if (!CRAMFS_XIP_SB(sb)->opt.strict)
		return 0;
	why = cramfs_xip_why_not(inode, index);
	if (why != CRAMFS_XIP_WHY_TAIL && why != CRAMFS_XIP_WHY_PAST_IMAGE)
		return 0;
	cramfs_xip_err(sb, "strict: %pD: page %lu is stored for execute-in-place, but %s", file,
		       index, why == CRAMFS_XIP_WHY_TAIL ?
		       "the rest of its flash page is not zero" : "its flash page runs past the image");
	return -EINVAL;
}

static int cramfs_xip_insert(struct vm_area_struct *vma, unsigned long i, phys_addr_t phys)
{
	vm_fault_t vmf = cramfs_xip_compat_insert_mixed(vma, vma->vm_start + (i << PAGE_SHIFT),
							phys);

	return vmf & VM_FAULT_ERROR ? vm_fault_to_errno(vmf, 0) : 0;
}

/* A mixed mapping: flash pages now, the others from the page cache on fault. */
static int cramfs_xip_mmap_mixed(struct file *file, struct vm_area_struct *vma,
				 struct cramfs_xip_run *r, unsigned long pages)
{
	struct inode *inode = file_inode(file);
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(inode->i_sb);
	struct cramfs_xip_live *l = NULL;
	unsigned long i, mapped = 0, out = pages;
	u32 offset;
	int ret = 0;

	for (i = 0; i < pages && !ret; i++) {
		if (i < r->run) {
			offset = r->offset + i * PAGE_SIZE;
		} else if (i == r->run && r->next_ok) {
			offset = r->next_offset;
		} else if (i == r->run || !cramfs_xip_page(inode, vma->vm_pgoff + i, &offset)) {
			out = min(out, i);
			ret = cramfs_xip_strict(file, vma->vm_pgoff + i);
			continue;
		}
		if (!mapped++) {
			cramfs_xip_compat_vm_flags_set(vma, VM_MIXEDMAP);
			l = cramfs_xip_live_new(inode->i_sb, pages - i);
		}
		ret = cramfs_xip_insert(vma, i, sbi->phys + offset);
		cramfs_xip_live_add(l, vma->vm_pgoff + i, offset, 1);
	}
	if (ret) {
		cramfs_xip_live_free(l);
		return ret;
	}
	cramfs_xip_count(sbi, mapped ? CRAMFS_XIP_MMAP_MIXED : CRAMFS_XIP_MMAP_PAGE_CACHE, 1);
	if (CRAMFS_XIP_HAS_SYSFS && out < pages) {
		enum cramfs_xip_stat why = cramfs_xip_why_not(inode, vma->vm_pgoff + out);

		if (why != CRAMFS_XIP_NR_STATS)
			cramfs_xip_count(sbi, why, 1);
	}
	cramfs_xip_live_start(vma, l);
	cramfs_xip_note(file, "%lu of %lu pages from offset %lu mapped in place, the rest from the page cache",
			mapped, vma_pages(vma), vma->vm_pgoff);
	return 0;
}

static int cramfs_xip_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct inode *inode = file_inode(file);
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(inode->i_sb);
	unsigned long pages = vma_pages(vma), file_pages;
	struct cramfs_xip_run r = { .pgoff = vma->vm_pgoff };
	struct cramfs_xip_live *l;
	int ret;

	/* Also refuses shared writable mappings: nothing is ever written to flash. */
	ret = generic_file_readonly_mmap(file, vma);
	if (ret || cramfs_xip_profile_mmap(file, vma))
		return ret;

	/*
	 * Only the file's pages are looked at; a fault past its end gets
	 * SIGBUS. A medium that cannot be mapped (the mount said so) leaves
	 * every page to the page cache.
	 */
	file_pages = DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE);
	if (vma->vm_pgoff >= file_pages || !cramfs_xip_map(inode->i_sb, 0, NULL)) {
		cramfs_xip_count(sbi, CRAMFS_XIP_MMAP_PAGE_CACHE, 1);
		if (vma->vm_pgoff < file_pages)
			cramfs_xip_count(sbi, CRAMFS_XIP_WHY_MEDIUM, 1);
		return 0;
	}
	pages = min(pages, file_pages - vma->vm_pgoff);

	cramfs_xip_find_run(inode, &r, pages);
	if (r.run != vma_pages(vma))
		return cramfs_xip_mmap_mixed(file, vma, &r, pages);
	/*
	 * The whole mapping from flash. For a private mapping,
	 * remap_pfn_range() records the physical page number in vm_pgoff,
	 * which is what /proc/PID/maps then shows.
	 */
	ret = remap_pfn_range(vma, vma->vm_start, (sbi->phys + r.offset) >> PAGE_SHIFT,
			      pages << PAGE_SHIFT, vma->vm_page_prot);
	if (ret)
		return ret;
	cramfs_xip_count(sbi, CRAMFS_XIP_MMAP_WHOLE, 1);
	l = cramfs_xip_live_new(inode->i_sb, 1);
	cramfs_xip_live_add(l, r.pgoff, r.offset, pages);
	cramfs_xip_live_start(vma, l);
	cramfs_xip_note(file, "%lu pages at %pa+%#x mapped in place", pages, &sbi->phys, r.offset);
	return 0;
}

#else /* !CONFIG_MMU */

/*
 * The no-MMU kernel keeps one tree of mapped regions for the whole system,
 * keyed by start address, and BUG()s on two regions that start at the same
 * address. It asks get_unmapped_area() for a new region whenever a mapping
 * is not a subset of a region of the same inode, and an in-place mapping's
 * address is where the data lies: a second mapping of one file with another
 * length, or of a file whose data mkcramfs stored once for two, would start
 * where a live region does. So the starts of the in-place regions are kept
 * here, each with the file the region was created through: the region holds
 * that file until it has left the kernel's tree (__put_nommu_region() drops
 * it after delete_nommu_region()), so forgetting the start in the file's
 * ->release can never be early. (A vm_ops close would be: delete_vma() calls
 * it before put_nommu_region() takes the region out of the tree.) Such a
 * request gets a RAM copy (MAP_SHARED: -ENODEV).
 */
struct cramfs_xip_direct {
	struct list_head list;
	unsigned long start;
	struct file *owner;
};

static LIST_HEAD(cramfs_xip_directs);
static DEFINE_MUTEX(cramfs_xip_directs_lock);

static struct cramfs_xip_direct *cramfs_xip_find_direct(unsigned long start)
{
	struct cramfs_xip_direct *d;

	list_for_each_entry(d, &cramfs_xip_directs, list)
		if (d->start == start)
			return d;
	return NULL;
}

/*
 * Shared (direct) mappings are the flash itself, their region's start noted
 * until the file that created the region is released; private ones are RAM
 * copies.
 */
static int cramfs_xip_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct vm_region *region = vma->vm_region;
	struct cramfs_xip_direct *d;
	int ret = 0;

	if (!cramfs_xip_compat_nommu_shared(vma))
		return -ENOSYS;
	mutex_lock(&cramfs_xip_directs_lock);
	if (!cramfs_xip_find_direct(region->vm_start)) {
		d = kzalloc(sizeof(*d), GFP_KERNEL);
		if (d) {
			d->start = region->vm_start;
			d->owner = region->vm_file;
			list_add(&d->list, &cramfs_xip_directs);
		} else {
			ret = -ENOMEM;
		}
	}
	mutex_unlock(&cramfs_xip_directs_lock);
	return ret;
}

static int cramfs_xip_release(struct inode *inode, struct file *file)
{
	struct cramfs_xip_direct *d, *n;

	mutex_lock(&cramfs_xip_directs_lock);
	list_for_each_entry_safe(d, n, &cramfs_xip_directs, list)
		if (d->owner == file) {
			list_del(&d->list);
			kfree(d);
		}
	mutex_unlock(&cramfs_xip_directs_lock);
	return 0;
}

/* Is there a live in-place region starting at @start? */
static bool cramfs_xip_direct_busy(unsigned long start)
{
	bool busy;

	mutex_lock(&cramfs_xip_directs_lock);
	busy = cramfs_xip_find_direct(start);
	mutex_unlock(&cramfs_xip_directs_lock);
	return busy;
}

static unsigned long cramfs_xip_get_unmapped_area(struct file *file, unsigned long addr,
						  unsigned long len, unsigned long pgoff,
						  unsigned long flags)
{
	struct inode *inode = file_inode(file);
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(inode->i_sb);
	unsigned long pages = DIV_ROUND_UP(len, PAGE_SIZE);
	unsigned long max = DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE);
	struct cramfs_xip_run r = { .pgoff = pgoff };

	if (pgoff >= max || pages > max - pgoff)
		return -EINVAL;
	cramfs_xip_find_run(inode, &r, pages);
	/*
	 * -ENOSYS: not mappable in place; the kernel then makes a RAM copy.
	 * The mapping's last bytes past the file's end must still lie in the
	 * mapped flash.
	 */
	if (r.run != pages || len > sbi->medium_size - r.offset) {
		cramfs_xip_note(file, "pages %lu-%lu not in place: copied to RAM", pgoff,
				pgoff + pages - 1);
		return -ENOSYS;
	}
	if (cramfs_xip_direct_busy(sbi->phys + r.offset)) {
		cramfs_xip_note(file, "pages %lu-%lu: a mapping starts there: RAM copy",
				pgoff, pgoff + pages - 1);
		return -ENOSYS;
	}
	cramfs_xip_note(file, "%lu pages mapped in place at %#lx", pages,
			(unsigned long)(sbi->phys + r.offset));
	return sbi->phys + r.offset;
}

static unsigned int cramfs_xip_mmap_capabilities(struct file *file)
{
	return NOMMU_MAP_COPY | NOMMU_MAP_DIRECT | NOMMU_MAP_READ | NOMMU_MAP_EXEC;
}

#endif /* CONFIG_MMU */

const struct file_operations cramfs_xip_file_fops = {
	.llseek			= generic_file_llseek,
	.read_iter		= generic_file_read_iter,
	.splice_read		= cramfs_xip_compat_splice_read,
	.mmap			= cramfs_xip_mmap,
	.setlease		= generic_setlease,
#ifndef CONFIG_MMU
	.get_unmapped_area	= cramfs_xip_get_unmapped_area,
	.mmap_capabilities	= cramfs_xip_mmap_capabilities,
	.release		= cramfs_xip_release,
#endif
};
