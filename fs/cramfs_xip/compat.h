/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cramfs_xip: every kernel-version difference, in one place.
 *
 * Each block names the kernel change it bridges. The rest of the module
 * calls the cramfs_xip_compat_* names and never tests a kernel version.
 */
#ifndef _CRAMFS_XIP_COMPAT_H
#define _CRAMFS_XIP_COMPAT_H

#include <linux/version.h>
#include <linux/fs.h>
#include <linux/highmem.h>

/*
 * v5.11 added kmap_local_page(); before it, kmap() is the sleeping-safe
 * equivalent.
 */
#if KERNEL_VERSION(5, 11, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_kmap(page)		kmap_local_page(page)
#define cramfs_xip_compat_kunmap(page, addr)	kunmap_local(addr)
#else
#define cramfs_xip_compat_kmap(page)		kmap(page)
#define cramfs_xip_compat_kunmap(page, addr)	kunmap(page)
#endif

/*
 * v5.8 ("mm: remove the pgprot argument to __vmalloc") dropped __vmalloc()'s
 * page protection; vmalloc() itself takes no GFP flags (__GFP_NOWARN here).
 */
#if KERNEL_VERSION(5, 8, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_vmalloc(size, gfp)	__vmalloc(size, gfp)
#else
#define cramfs_xip_compat_vmalloc(size, gfp)	__vmalloc(size, gfp, PAGE_KERNEL)
#endif

/*
 * v6.6 ("fs: add ctime accessors infrastructure") and v6.7 ("fs: new
 * accessor methods for atime and mtime") hid the inode times behind
 * accessors. cramfs stores no times: every inode is at the epoch.
 */
static inline void cramfs_xip_compat_zero_times(struct inode *inode)
{
#if KERNEL_VERSION(6, 7, 0) <= LINUX_VERSION_CODE
	inode_set_mtime(inode, 0, 0);
	inode_set_atime(inode, 0, 0);
	inode_set_ctime(inode, 0, 0);
#elif KERNEL_VERSION(6, 6, 0) <= LINUX_VERSION_CODE
	inode->i_mtime = inode->i_atime = (struct timespec64){};
	inode_set_ctime(inode, 0, 0);
#else
	inode->i_mtime = inode->i_atime = inode->i_ctime = (struct timespec64){};
#endif
}

/*
 * v5.19 ("fs: Convert aops->readpage to aops->read_folio") replaced the
 * page-based read hook with a folio-based one. cramfs_xip_fill_page() does
 * the work on one page either way; these wrap it.
 */
#if KERNEL_VERSION(5, 19, 0) <= LINUX_VERSION_CODE
#define CRAMFS_XIP_COMPAT_READ_FOLIO 1
#endif

/*
 * v6.3 ("mm: introduce vma->vm_flags wrapper functions") made vm_flags
 * read-only outside the accessors.
 */
#if KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_vm_flags_set(vma, flags)	vm_flags_set(vma, flags)
#else
#define cramfs_xip_compat_vm_flags_set(vma, flags)	((vma)->vm_flags |= (flags))
#endif

/*
 * v5.12 ("mm: Cleanup faultaround and finish_fault() codepaths") made
 * ->map_pages return a vm_fault_t, and filemap_map_pages() find and lock
 * the page table of the range it is given itself, so that it can be called
 * on parts of the fault-around range. Before it, the caller set the page
 * table up for the whole range: xip.c has no fault-around there.
 */
#if KERNEL_VERSION(5, 12, 0) <= LINUX_VERSION_CODE
#define CRAMFS_XIP_COMPAT_MAP_PAGES	1
#endif

/*
 * v6.3 ("mm/nommu: don't use VM_MAYSHARE for MAP_PRIVATE mappings"): a
 * private read-only mapping, which no-MMU may still serve directly, no
 * longer carries VM_MAYSHARE but VM_MAYOVERLAY; is_nommu_shared_mapping()
 * tests for either.
 */
#ifndef CONFIG_MMU
#if KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_nommu_shared(vma)	is_nommu_shared_mapping((vma)->vm_flags)
#else
#define cramfs_xip_compat_nommu_shared(vma)	((vma)->vm_flags & (VM_SHARED | VM_MAYSHARE))
#endif
#endif

/*
 * v6.5 ("splice: Remove generic_file_splice_read()") left
 * filemap_splice_read(), which v6.4 had added, as the page-cache splice.
 */
#if KERNEL_VERSION(6, 5, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_splice_read	filemap_splice_read
#else
#define cramfs_xip_compat_splice_read	generic_file_splice_read
#endif

/*
 * v5.18 ("fs: introduce alloc_inode_sb() to allocate filesystems specific
 * inode") charges inodes to the superblock's memory cgroup; before it, a
 * plain cache allocation.
 */
#if KERNEL_VERSION(5, 18, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_alloc_inode(sb, cache)	alloc_inode_sb(sb, cache, GFP_KERNEL)
#else
#define cramfs_xip_compat_alloc_inode(sb, cache)	kmem_cache_alloc(cache, GFP_KERNEL)
#endif

/*
 * v5.4 ("mtd: Provide fs_context-aware mount_mtd() replacement") gave MTD
 * filesystems get_tree_mtd() in the new mount API. Before it, super.c uses
 * the legacy ->mount() with mount_mtd()/mount_nodev() and parses the option
 * string itself; mount errors then go to the kernel log only.
 */
#if KERNEL_VERSION(5, 4, 0) > LINUX_VERSION_CODE
#define CRAMFS_XIP_COMPAT_LEGACY_MOUNT 1
struct fs_context;
#define errorf(fc, fmt, ...)	pr_err(fmt "\n", ##__VA_ARGS__)
#else
#include <linux/fs_context.h>
#endif

/*
 * errorfc() logs a mount error with the filesystem type's name in front, as
 * super.c wants every one; where there is none (the legacy mount API, and
 * the first kernels with fs_context), the prefix is written out.
 */
#ifndef errorfc
#define errorfc(fc, fmt, ...)	errorf(fc, "cramfs: " fmt, ##__VA_ARGS__)
#endif

/*
 * v5.1 ("fs: common implementation of file type") added fs_umode_to_dtype();
 * the DT_* values are the S_IFMT bits shifted down, as it computes them.
 */
#if KERNEL_VERSION(5, 1, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_dtype(mode)	fs_umode_to_dtype(mode)
#else
#define cramfs_xip_compat_dtype(mode)	(((mode) & S_IFMT) >> 12)
#endif

/*
 * v5.4 ("compiler_attributes.h: Add 'fallthrough' pseudo keyword").
 */
#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif

/*
 * v5.4 ("vfs: Add file timestamp range support") lets a filesystem say which
 * times it can store: cramfs stores none, every time is the epoch.
 */
static inline void cramfs_xip_compat_no_times(struct super_block *sb)
{
#if KERNEL_VERSION(5, 4, 0) <= LINUX_VERSION_CODE
	sb->s_time_min = 0;
	sb->s_time_max = 0;
#endif
}

/*
 * v5.2 ("new inode method: ->free_inode()") frees inodes after the RCU grace
 * period for the filesystem; before it, ->destroy_inode() queues that itself.
 */
#if KERNEL_VERSION(5, 2, 0) > LINUX_VERSION_CODE
#define CRAMFS_XIP_COMPAT_DESTROY_INODE 1
#endif

/*
 * v5.9 ("statfs: add a helper to turn u64 into a fsid") added u64_to_fsid().
 */
#if KERNEL_VERSION(5, 9, 0) > LINUX_VERSION_CODE
static inline __kernel_fsid_t cramfs_xip_compat_u64_to_fsid(u64 v)
{
	return (__kernel_fsid_t){ .val = { (u32)v, (u32)(v >> 32) } };
}
#else
#define cramfs_xip_compat_u64_to_fsid(v)	u64_to_fsid(v)
#endif

#ifdef CONFIG_BLOCK
#include <linux/blkdev.h>
/*
 * v6.10 ("RIP ->bd_inode") took the block device's inode out of struct
 * block_device; its page cache is bd_mapping and its size bdev_nr_bytes().
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_bdev_mapping(bdev)	((bdev)->bd_mapping)
#define cramfs_xip_compat_bdev_bytes(bdev)	bdev_nr_bytes(bdev)
#else
#define cramfs_xip_compat_bdev_mapping(bdev)	((bdev)->bd_inode->i_mapping)
#define cramfs_xip_compat_bdev_bytes(bdev)	i_size_read((bdev)->bd_inode)
#endif

/*
 * v5.11 made lookup_bdev() give the device number through an argument;
 * before it, it returned a referenced struct block_device.
 */
static inline int cramfs_xip_compat_lookup_bdev(const char *path, dev_t *dev)
{
#if KERNEL_VERSION(5, 11, 0) <= LINUX_VERSION_CODE
	return lookup_bdev(path, dev);
#else
	struct block_device *bdev = lookup_bdev(path);

	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	*dev = bdev->bd_dev;
	bdput(bdev);
	return 0;
#endif
}
#endif

/*
 * v5.8 ("fs: move fiemap range validation into the file systems instead")
 * added fiemap_prep(), which checks the flags and bounds the length, and
 * moved struct fiemap_extent_info to <linux/fiemap.h>; before it,
 * ioctl_fiemap() bounded the length and a filesystem checked the flags.
 */
#if KERNEL_VERSION(5, 8, 0) <= LINUX_VERSION_CODE
#include <linux/fiemap.h>
#define cramfs_xip_compat_fiemap_prep(inode, fi, start, len)	\
	fiemap_prep(inode, fi, start, len, 0)
#else
#define cramfs_xip_compat_fiemap_prep(inode, fi, start, len)	\
	fiemap_check_flags(fi, FIEMAP_FLAG_SYNC)
#endif

/*
 * v6.19 ("fs: hide ->i_state handling behind accessors") made i_state a
 * structure read through inode_state_read_once() (absent in 6.18.26,
 * present in 7.1.5).
 */
#if KERNEL_VERSION(6, 19, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_inode_new(inode)	(inode_state_read_once(inode) & I_NEW)
#else
#define cramfs_xip_compat_inode_new(inode)	((inode)->i_state & I_NEW)
#endif

/*
 * v6.17 ("mm: remove pfn_t type"; <linux/pfn_t.h> went with it) made
 * vmf_insert_mixed() take a plain page frame number. Callers give the
 * physical address: the conversion is made here, once, so that no caller
 * can hand over an address where a frame number is wanted.
 */
#ifdef CONFIG_MMU
#include <linux/mm.h>
#if KERNEL_VERSION(6, 17, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_insert_mixed(vma, addr, phys)	\
	vmf_insert_mixed(vma, addr, PHYS_PFN(phys))
#else
#include <linux/pfn_t.h>
#define cramfs_xip_compat_insert_mixed(vma, addr, phys)	\
	vmf_insert_mixed(vma, addr, phys_to_pfn_t(phys, PFN_DEV))
#endif
#endif

/*
 * v5.8 ("mtd: implement proper partition handling") gave every MTD
 * partition a parent and mtd_get_master(); before it, a partition's chip
 * was private to the MTD layer, and mtd.c says nothing of it.
 */
#if KERNEL_VERSION(5, 8, 0) <= LINUX_VERSION_CODE
#define CRAMFS_XIP_COMPAT_MTD_MASTER	1
#endif

/*
 * v6.6 ("filelock: move file locking definitions to separate header file")
 * moved generic_setlease() to <linux/filelock.h>. v7.0 ("fs: leases: make
 * lease support opt-in") refuses leases (EINVAL) to files and directories
 * whose file operations name no ->setlease; before it, generic_setlease()
 * was the default, so naming it changes nothing on older kernels.
 */
#if KERNEL_VERSION(6, 6, 0) <= LINUX_VERSION_CODE
#include <linux/filelock.h>
#endif

/*
 * v5.4 ("security: Add a 'locked down' LSM hook"): physaddr= maps physical
 * memory, as /dev/mem does, and is refused where that is.
 */
#if KERNEL_VERSION(5, 4, 0) <= LINUX_VERSION_CODE
#include <linux/security.h>
#define cramfs_xip_compat_locked_down()	security_locked_down(LOCKDOWN_DEV_MEM)
#else
#define cramfs_xip_compat_locked_down()	0
#endif

/*
 * v5.8 ("crypto: hash - introduce crypto_shash_tfm_digest()") hashes with a
 * transform alone; before it, a descriptor on the stack, whose flags field
 * v5.2 ("crypto: shash - remove shash_desc::flags") removed.
 */
#if CRAMFS_XIP_HAS_VERITY
#include <crypto/hash.h>
#if KERNEL_VERSION(5, 8, 0) <= LINUX_VERSION_CODE
#define cramfs_xip_compat_sha256(tfm, data, len, out)	crypto_shash_tfm_digest(tfm, data, len, out)
#else
static inline int cramfs_xip_compat_sha256(struct crypto_shash *tfm, const u8 *data,
					   unsigned int len, u8 *out)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	int err;

	desc->tfm = tfm;
#if KERNEL_VERSION(5, 2, 0) > LINUX_VERSION_CODE
	desc->flags = 0;
#endif
	err = crypto_shash_digest(desc, data, len, out);
	shash_desc_zero(desc);
	return err;
}
#endif
#endif

#endif /* _CRAMFS_XIP_COMPAT_H */
