// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: execute in place: mapping file pages straight from flash.
 *
 * A page can be mapped in place when its block is direct and plain, lies
 * page-aligned inside the image, and (for a file's partial last page) the
 * rest of its flash page is zero, so that nothing beyond the file shows.
 *
 * With an MMU, the qualifying pages of a mapping are inserted at fault, an
 * aligned window of them at a time, and the rest come from the page cache
 * (VM_MIXEDMAP). Private
 * writable mappings work either way: the ptes are read-only, and a write
 * copies the page. Without an MMU there are no page tables: a mapping
 * is either the flash address itself (get_unmapped_area) or a RAM copy.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/ioport.h>
#include <linux/log2.h>
#include <linux/pageblock-flags.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "internal.h"

/*
 * Where page @index of @inode lies in the image, if it can be mapped in
 * place; if not, *@why says why: a CRAMFS_XIP_WHY_*, or CRAMFS_XIP_NR_STATS
 * for a page outside the file or a bad block pointer (whose read fails with
 * the image's message). Everything is checked against the image here, so
 * that nothing outside it can ever reach a page table. With an MMU the
 * block must also fill a page-aligned flash page, zero past the file's
 * tail; without one a mapping is an address, so any direct plain block in
 * the image will do. Runs of whole pages are found from the pointer words
 * alone (cramfs_xip_run_length()); a run's first page, the file's last and
 * a fault come here.
 */
static bool cramfs_xip_page(struct inode *inode, pgoff_t index, u32 *offset,
			    enum cramfs_xip_stat *why)
{
	struct super_block *sb = inode->i_sb;
	struct cramfs_xip_block b;
	const u8 *virt;
	phys_addr_t phys;

	*why = CRAMFS_XIP_WHY_MEDIUM;
	if (!CRAMFS_XIP_SB(sb)->xip)
		return false;
	*why = CRAMFS_XIP_NR_STATS;
	if (index >= cramfs_xip_pages(inode) ||
	    cramfs_xip_get_block(inode, index, &b))
		return false;
	*why = !b.len ? CRAMFS_XIP_WHY_HOLE : b.compressed ? CRAMFS_XIP_WHY_COMPRESSED :
	       CRAMFS_XIP_WHY_UNALIGNED;
	virt = cramfs_xip_map(sb, b.start, &phys);
	if (!b.len || b.compressed || !b.direct ||
	    (IS_ENABLED(CONFIG_MMU) && !PAGE_ALIGNED(phys)))
		return false;
	if (IS_ENABLED(CONFIG_MMU)) {
		*why = CRAMFS_XIP_WHY_PAST_IMAGE;
		if (!cramfs_xip_in_image(sb, b.start, PAGE_SIZE))
			return false;
		*why = CRAMFS_XIP_WHY_TAIL;
		if (b.len < PAGE_SIZE && memchr_inv(virt + b.len, 0, PAGE_SIZE - b.len))
			return false;
	}
	*offset = b.start;
	return true;
}

/* @run pages from @pgoff on lie in place one after the other from @offset. */
struct cramfs_xip_run {
	pgoff_t pgoff;
	unsigned long run;
	u32 offset;
	enum cramfs_xip_stat why;	/* with no run: why the first page is not in place */
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
	u32 nblocks = cramfs_xip_pages(inode);
	const u8 *ptrs;
	unsigned long n, limit;
	u32 first;

	if (!sbi->xip || r->pgoff + 1 >= nblocks)
		return 1;
	ptrs = sbi->virt + CRAMFS_XIP_I(inode)->data_offset + r->pgoff * 4;
	first = cramfs_xip_get32(ptrs, CRAMFS_XIP_BIG);
	limit = min3(pages, (unsigned long)(nblocks - 1 - r->pgoff),
		     (unsigned long)(sbi->size - r->offset) >> PAGE_SHIFT);
	/* The words read in place below, checked first where the mount verifies. */
	if (limit > 1 && cramfs_xip_verified(inode->i_sb, CRAMFS_XIP_I(inode)->data_offset +
					     (r->pgoff + 1) * 4, (limit - 1) * 4))
		return 1;
	for (n = 1; n < limit; n++)
		if (cramfs_xip_get32(ptrs + n * 4, CRAMFS_XIP_BIG) !=
		    first + (n << (PAGE_SHIFT - CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT)))
			break;
	return n;
}

/* How many of @pages pages from @r->pgoff on form one consecutive run in flash. */
static void cramfs_xip_find_run(struct inode *inode, struct cramfs_xip_run *r,
				unsigned long pages)
{
	enum cramfs_xip_stat why;
	u32 off;

	r->run = 0;
	if (!cramfs_xip_page(inode, r->pgoff, &r->offset, &r->why))
		return;
	for (r->run = cramfs_xip_run_length(inode, r, pages); r->run < pages; r->run++)
		if (!cramfs_xip_page(inode, r->pgoff + r->run, &off, &why) ||
		    off != r->offset + r->run * PAGE_SIZE)
			return;
}

#ifdef CONFIG_MMU

/*
 * One model for every mapping that holds a page in place: VM_MIXEDMAP, the
 * pages in place inserted with vmf_insert_mixed() at fault, the others read
 * into the page cache. Nothing about a mapping is kept anywhere: what each
 * page is comes from the image at every fault, so fork, split, mremap,
 * MADV_DONTNEED and exit need nothing from the filesystem, and vm_pgoff
 * stays the file offset (/proc/PID/maps, pagemap). Such mappings are
 * VM_SPECIAL and are never merged, which nothing here relies on.
 *
 * A fault on a page in place inserts the pages in place of its aligned
 * window of CRAMFS_XIP_WINDOW pages (16: fault-around's 64 KiB; make
 * CRAMFS_XIP_WINDOW=N out of tree), as fault-around does for the page
 * cache (TTM prefaults the same way): program text is touched in
 * clusters, and one fault then serves its neighbours
 * (Documentation/benchmarks.md compares windows). Fault-around over
 * the page cache (->map_pages) sees only the pages that are not in place:
 * a read() of the file leaves copies of the others there, and they must
 * never be mapped instead of the flash.
 *
 * They are VM_IO too, which keeps get_user_pages() off them, as off
 * mainline's: a page in place has no struct page, and a write that ptrace
 * forced into it would have the kernel copy the page from the faulting
 * address in the debugger's own address space. A debugger still reads
 * and writes a program it runs: a process being traced when it maps a file
 * (a program started under gdb, strace or gdbserver) gets its mappings
 * from the page cache, which ptrace reads, and writes to as a copy of its
 * own. A debugger that attaches to a program already running in place
 * reads its text through the mapping's ->access (cramfs_xip_access()),
 * where the kernel asks it: with CONFIG_HAVE_IOREMAP_PROT (arm64 in 6.1,
 * not in 5.10), never on 32-bit ARM.
 */
#ifndef CRAMFS_XIP_WINDOW
#define CRAMFS_XIP_WINDOW	16
#endif
/*
 * make CRAMFS_XIP_WINDOW=0, an option make bench measures: every page in
 * place goes into the page table at mmap, one vmf_insert_mixed() each (what
 * remap_pfn_range() did in one pass), and a fault inserts one page.
 */
#define CRAMFS_XIP_FAULT_PAGES	(CRAMFS_XIP_WINDOW ?: 1)


/**
 * cramfs_xip_frames_unusable() - why the medium's frames cannot go in page tables
 * @sb: the mount, its medium memory-mapped
 *
 * Without pte_special (32-bit ARM without LPAE), vmf_insert_mixed() takes
 * a reference on the struct page of any frame pfn_valid() accepts, and the
 * unmap gives it back, maybe to the page allocator. That is right for the
 * kernel's own RAM (an mtdram), and wrong where pfn_valid() is true but the
 * kernel never set the struct page up: FLATMEM's memory map covers whole
 * pageblocks, so memory past mem= and flash or RAM next to it count as
 * valid. So a medium with a frame that pfn_valid() accepts and that is not
 * System RAM (page_is_ram(), frame by frame) maps nothing in place; decided
 * once per mount.
 *
 * Return: NULL if every frame of the medium can be mapped, else why not.
 */
const char *cramfs_xip_frames_unusable(struct super_block *sb)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	unsigned long pfn = PHYS_PFN(sbi->phys), next, p;
	unsigned long end = PHYS_PFN(sbi->phys + sbi->medium_size - 1) + 1;

	if (IS_ENABLED(CONFIG_ARCH_HAS_PTE_SPECIAL))
		return NULL;
	/*
	 * pfn_valid() is one memblock search on ARM: 8,192 of them (32 MiB)
	 * made mount(2) 13 times slower. Its answer is the same all through
	 * an aligned pageblock (ARM's pfn_valid() goes by pageblock, and no
	 * section is smaller), or changes once in it (FLATMEM's one range): a
	 * pageblock whose first and last frame are not valid has none.
	 */
	for (; pfn < end; pfn = next) {
		next = min(ALIGN(pfn + 1, pageblock_nr_pages), end);
		if (!pfn_valid(pfn) && !pfn_valid(next - 1))
			continue;
		for (p = pfn; p < next; p++)
			if (pfn_valid(p) && !page_is_ram(p))
				return "its struct pages are not set up";
	}
	return NULL;
}

/*
 * -o strict: page @index of @file is in a mapping but not mapped in place,
 * for reason @why. If the image stores the page for execute-in-place
 * (direct, plain and page-aligned: the mount checked that the image is),
 * the mapping is refused with a line naming file, page and reason; a
 * compressed page, a hole or a plain block elsewhere may come from RAM.
 * CRAMFS_XIP_NR_STATS: the page is in place, but the mapping has no page
 * in place and cannot take it (mremap() grew it over the page).
 * 0 if the mapping may go on.
 */
static int cramfs_xip_strict(struct file *file, pgoff_t index, enum cramfs_xip_stat why)
{
	struct super_block *sb = file_inode(file)->i_sb;
	const char *what;

	if (!CRAMFS_XIP_SB(sb)->opt.strict)
		return 0;
	if (why == CRAMFS_XIP_WHY_TAIL)
		what = "the rest of its flash page is not zero";
	else if (why == CRAMFS_XIP_WHY_PAST_IMAGE)
		what = "its flash page runs past the image";
	else if (why == CRAMFS_XIP_NR_STATS)
		what = "the mapping grew over it";
	else
		return 0;
	cramfs_xip_err(sb, "strict: %pD: page %lu is stored for execute-in-place, but %s", file,
		       index, what);
	return -EINVAL;
}

/*
 * The pages in place from @first to @end (file pages of @vma, inside it and
 * the file) into the page table; those already there stay. Only page
 * @want's own insertion can fail: its result, else VM_FAULT_NOPAGE.
 */
static vm_fault_t cramfs_xip_insert_runs(struct vm_area_struct *vma, pgoff_t first,
					 pgoff_t end, pgoff_t want)
{
	struct inode *inode = file_inode(vma->vm_file);
	phys_addr_t phys = CRAMFS_XIP_SB(inode->i_sb)->phys;
	struct cramfs_xip_run r;
	unsigned long n;
	vm_fault_t ret;

	for (r.pgoff = first; r.pgoff < end; r.pgoff += max(r.run, 1UL)) {
		cramfs_xip_find_run(inode, &r, end - r.pgoff);
		for (n = 0; n < r.run; n++) {
			/* Never a page the mount's verity has not checked. */
			if (cramfs_xip_verified(inode->i_sb, r.offset + n * PAGE_SIZE, PAGE_SIZE)) {
				if (r.pgoff + n != want)
					continue;	/* its own fault will say so */
				cramfs_xip_verity_refused(vma->vm_file, want, 1);
				return VM_FAULT_SIGBUS;
			}
			ret = cramfs_xip_compat_insert_mixed(vma, vma->vm_start +
							     ((r.pgoff + n - vma->vm_pgoff) << PAGE_SHIFT),
							     phys + r.offset + n * PAGE_SIZE);
			if ((ret & VM_FAULT_ERROR) && r.pgoff + n == want)
				return ret;
		}
	}
	return VM_FAULT_NOPAGE;
}

/*
 * The pages in place of the aligned window of CRAMFS_XIP_FAULT_PAGES pages
 * around @vmf's page (in place), inside its mapping and file.
 */
static vm_fault_t cramfs_xip_fault_window(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	pgoff_t first = max(round_down(vmf->pgoff, CRAMFS_XIP_FAULT_PAGES), vma->vm_pgoff);
	pgoff_t end = min3(round_down(vmf->pgoff, CRAMFS_XIP_FAULT_PAGES) + CRAMFS_XIP_FAULT_PAGES,
			   vma->vm_pgoff + vma_pages(vma),
			   (pgoff_t)cramfs_xip_pages(file_inode(vma->vm_file)));

	BUILD_BUG_ON(!is_power_of_2(CRAMFS_XIP_FAULT_PAGES));
	return cramfs_xip_insert_runs(vma, first, end, vmf->pgoff);
}

/*
 * A page of the mapping that is not in its page table: in place if the
 * image stores it so and the mapping holds pages in place, else from the
 * page cache. A write fault copies the page from the page cache directly
 * (in place, the write would fault again to copy it).
 */
static vm_fault_t cramfs_xip_fault(struct vm_fault *vmf)
{
	struct inode *inode = file_inode(vmf->vma->vm_file);
	enum cramfs_xip_stat why;
	u32 offset;

	if (vmf->flags & FAULT_FLAG_WRITE)
		return filemap_fault(vmf);
	if (cramfs_xip_page(inode, vmf->pgoff, &offset, &why)) {
		if (vmf->vma->vm_flags & VM_MIXEDMAP)
			return cramfs_xip_fault_window(vmf);
		why = CRAMFS_XIP_NR_STATS;
	} else if (why == CRAMFS_XIP_NR_STATS) {
		return filemap_fault(vmf);
	}
	if (cramfs_xip_strict(vmf->vma->vm_file, vmf->pgoff, why))
		return VM_FAULT_SIGBUS;
	return filemap_fault(vmf);
}

#ifdef CRAMFS_XIP_COMPAT_MAP_PAGES
/* May page @index of @inode be mapped from the page cache by fault-around? */
static bool cramfs_xip_cache_ok(struct inode *inode, pgoff_t index)
{
	enum cramfs_xip_stat why;
	u32 offset;

	if (cramfs_xip_page(inode, index, &offset, &why))
		return false;
	return !CRAMFS_XIP_SB(inode->i_sb)->opt.strict ||
	       (why != CRAMFS_XIP_WHY_TAIL && why != CRAMFS_XIP_WHY_PAST_IMAGE);
}

/*
 * Fault-around: filemap_map_pages() over each stretch of pages from
 * @start to @end (inclusive) that may come from the page cache; the pages
 * in place are left to cramfs_xip_fault(), and so are those -o strict
 * refuses from RAM. Called under RCU: the image is memory-mapped (this is
 * only set on such mounts) and nothing here sleeps.
 */
static vm_fault_t cramfs_xip_map_pages(struct vm_fault *vmf, pgoff_t start, pgoff_t end)
{
	struct inode *inode = file_inode(vmf->vma->vm_file);
	pgoff_t from = start, i = vmf->pgoff;
	bool first = true, ok;
	vm_fault_t ret = 0;

	/*
	 * With no page table yet, filemap_map_pages() may map a PMD-sized
	 * page-cache folio whole, pages stored in place included: leave the
	 * first fault of a pmd to cramfs_xip_fault(). (Such a folio exists
	 * only where khugepaged collapsed the file's text through another
	 * mapping, READ_ONLY_THP_FOR_FS: finish_fault() may still map it
	 * whole then; the user guide says so.)
	 */
	if (pmd_none(*vmf->pmd))
		return 0;
	/*
	 * A mount that verifies may have to hash a block to decode a block
	 * pointer, which sleeps: its page-cache pages fault one at a time.
	 */
	if (cramfs_xip_verifying(CRAMFS_XIP_SB(inode->i_sb)))
		return 0;
	/*
	 * The faulting page first: one in place gets its window inserted by
	 * cramfs_xip_fault(), and the range need not be looked at twice.
	 */
	for (;;) {
		ok = cramfs_xip_cache_ok(inode, i);
		if (first) {
			if (!ok)
				return 0;
			first = false;
			i = start;
			continue;
		}
		if (!ok) {
			if (from < i)
				ret |= filemap_map_pages(vmf, from, i - 1);
			from = i + 1;
		}
		if (i++ == end)
			break;
	}
	if (from <= end)
		ret |= filemap_map_pages(vmf, from, end);
	return ret;
}
#endif

#ifdef CONFIG_HAVE_IOREMAP_PROT
/*
 * A debugger's read of the mapping (ptrace, /proc/PID/mem, gdb -p), which
 * get_user_pages() does not walk (VM_IO): a page the image stores in place
 * reads as the flash holds it, mapped yet or not, while the mapping has no
 * private page (no anon_vma: nothing was ever written to it). Anything
 * else, and every write (a breakpoint: the flash is read-only), is
 * -EINVAL, as generic_access_phys() answers for RAM.
 */
static int cramfs_xip_access(struct vm_area_struct *vma, unsigned long addr, void *buf,
			     int len, int write)
{
	struct inode *inode = file_inode(vma->vm_file);
	pgoff_t pgoff = vma->vm_pgoff + ((addr - vma->vm_start) >> PAGE_SHIFT);
	enum cramfs_xip_stat why;
	u32 off;
	int err;

	if (write || vma->anon_vma || !cramfs_xip_page(inode, pgoff, &off, &why))
		return -EINVAL;
	len = min_t(int, len, PAGE_SIZE - offset_in_page(addr));
	err = cramfs_xip_copy(inode->i_sb, buf, off + offset_in_page(addr), len);
	return err ? err : len;
}
#endif

static const struct vm_operations_struct cramfs_xip_vm_ops = {
	.fault		= cramfs_xip_fault,
#ifdef CRAMFS_XIP_COMPAT_MAP_PAGES
	.map_pages	= cramfs_xip_map_pages,
#endif
#ifdef CONFIG_HAVE_IOREMAP_PROT
	.access		= cramfs_xip_access,
#endif
};

static int cramfs_xip_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct inode *inode = file_inode(file);
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(inode->i_sb);
	unsigned long pages = vma_pages(vma), file_pages, i, mapped = 0, out;
	struct cramfs_xip_run r = { .run = 0 };
	enum cramfs_xip_stat why = CRAMFS_XIP_NR_STATS;
	int ret;

	/* Also refuses shared writable mappings: nothing is ever written to flash. */
	ret = generic_file_readonly_mmap(file, vma);
	if (ret)
		return ret;

	/*
	 * Only the file's pages are looked at; a fault past its end gets
	 * SIGBUS. A medium that cannot be mapped (the mount said so) leaves
	 * every page to the page cache, and so do a traced process and a
	 * writable mapping (a program's data): a debugger, a core dump and
	 * get_user_pages() reach their pages, which VM_IO would keep from them.
	 * A mapping made writable later (mprotect()) copies each page from
	 * flash as it is written.
	 */
	file_pages = cramfs_xip_pages(inode);
	if (!sbi->xip)
		why = CRAMFS_XIP_WHY_MEDIUM;
	else if (current->ptrace)
		why = CRAMFS_XIP_WHY_TRACED;
	else if (vma->vm_flags & VM_WRITE)
		why = CRAMFS_XIP_WHY_WRITABLE;
	if (vma->vm_pgoff >= file_pages || why != CRAMFS_XIP_NR_STATS) {
		cramfs_xip_count(sbi, CRAMFS_XIP_MMAP_PAGE_CACHE, 1);
		if (vma->vm_pgoff < file_pages)
			cramfs_xip_count(sbi, why, 1);
		return 0;
	}
	pages = min(pages, file_pages - vma->vm_pgoff);
	out = pages;

	/*
	 * The pages in place, run by run: where one run of consecutive flash
	 * pages ends, the next page starts the next run or is left to the
	 * page cache (and -o strict may refuse the mapping for it). Faults
	 * put them in the page table.
	 */
	for (i = 0; i < pages; i += max(r.run, 1UL)) {
		r.pgoff = vma->vm_pgoff + i;
		cramfs_xip_find_run(inode, &r, pages - i);
		if (!r.run) {
			if (out == pages) {
				out = i;
				why = r.why;
			}
			ret = cramfs_xip_strict(file, r.pgoff, r.why);
			if (ret)
				return ret;
			continue;
		}
		mapped += r.run;
	}
	/*
	 * -o strict looks at every fault of its mappings, which mremap() may
	 * grow over pages it has not seen.
	 */
	if (mapped || sbi->opt.strict)
		vma->vm_ops = &cramfs_xip_vm_ops;
	if (mapped)
		cramfs_xip_compat_vm_flags_set(vma, VM_MIXEDMAP | VM_IO);
#if CRAMFS_XIP_WINDOW == 0
	if (mapped)
		cramfs_xip_insert_runs(vma, vma->vm_pgoff, vma->vm_pgoff + pages, ULONG_MAX);
#endif
	if (!mapped)
		cramfs_xip_count(sbi, CRAMFS_XIP_MMAP_PAGE_CACHE, 1);
	else
		cramfs_xip_count(sbi, mapped < vma_pages(vma) ? CRAMFS_XIP_MMAP_MIXED :
				 CRAMFS_XIP_MMAP_WHOLE, 1);
	if (why != CRAMFS_XIP_NR_STATS)
		cramfs_xip_count(sbi, why, 1);
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

/*
 * The mapping of @pages pages from @pgoff of @file cannot be the flash
 * itself: only @run of them from the first lie in one run there, in the
 * mapped flash. -ENOSYS has the kernel copy it to RAM, unless -o strict
 * refuses that for a first page the image stores for execute-in-place.
 */
static unsigned long cramfs_xip_nommu_copy(struct file *file, pgoff_t pgoff,
					   unsigned long pages, unsigned long run)
{
	struct inode *inode = file_inode(file);
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(inode->i_sb);
	enum cramfs_xip_stat stat;
	u32 off;

	cramfs_xip_count(sbi, CRAMFS_XIP_MMAP_PAGE_CACHE, 1);
	/* A page in place but not next to its neighbours has no reason of its own. */
	if (CRAMFS_XIP_HAS_SYSFS && run < pages &&
	    !cramfs_xip_page(inode, pgoff + run, &off, &stat) && stat != CRAMFS_XIP_NR_STATS)
		cramfs_xip_count(sbi, stat, 1);
	if (run && sbi->opt.strict) {
		cramfs_xip_err(inode->i_sb, "strict: %pD: pages %lu-%lu are stored for execute-in-place, but not as one run",
			       file, pgoff, pgoff + pages - 1);
		return -EINVAL;
	}
	return -ENOSYS;
}

static unsigned long cramfs_xip_get_unmapped_area(struct file *file, unsigned long addr,
						  unsigned long len, unsigned long pgoff,
						  unsigned long flags)
{
	struct inode *inode = file_inode(file);
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(inode->i_sb);
	unsigned long pages = DIV_ROUND_UP(len, PAGE_SIZE);
	unsigned long max = cramfs_xip_pages(inode);
	struct cramfs_xip_run r = { .pgoff = pgoff };

	if (pgoff >= max || pages > max - pgoff)
		return -EINVAL;
	cramfs_xip_find_run(inode, &r, pages);
	/*
	 * The mapping's last bytes past the file's end must still lie in the
	 * mapped flash.
	 */
	if (r.run != pages || len > sbi->medium_size - r.offset)
		return cramfs_xip_nommu_copy(file, pgoff, pages, r.run);
	/*
	 * The flash's address is handed out: every page checked first, and
	 * nothing past the image, which no hash covers (a RAM copy then).
	 */
	if (cramfs_xip_verifying(sbi) && r.offset + ((u64)pages << PAGE_SHIFT) > sbi->size) {
		cramfs_xip_count(sbi, CRAMFS_XIP_MMAP_PAGE_CACHE, 1);
		return -ENOSYS;
	}
	if (cramfs_xip_verified(inode->i_sb, r.offset, pages << PAGE_SHIFT)) {
		cramfs_xip_verity_refused(file, pgoff, pages);
		return -EIO;
	}
	/*
	 * In place, but a region of another file (whose data mkcramfs stored
	 * once for both) or of another length starts there: a RAM copy, which
	 * -o strict allows, the image being as it should.
	 */
	if (cramfs_xip_direct_busy(sbi->phys + r.offset)) {
		cramfs_xip_count(sbi, CRAMFS_XIP_MMAP_PAGE_CACHE, 1);
		return -ENOSYS;
	}
	cramfs_xip_count(sbi, CRAMFS_XIP_MMAP_WHOLE, 1);
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
