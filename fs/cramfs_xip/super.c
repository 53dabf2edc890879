// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: mount, mount options, superblock checks, module init.
 *
 * The image is mapped whole, once, with the MTD point method or, given
 * physaddr=, with memremap(): every later read is a bounds-checked look at
 * that mapping.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/crc32.h>
#include <linux/statfs.h>
#include <linux/seq_file.h>
#include "compat.h"
#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
#include <linux/fs_context.h>
#endif
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mtd/mtd.h>
#include <linux/mtd/super.h>
#include "internal.h"

static struct kmem_cache *cramfs_xip_inode_cachep;

void _cramfs_xip_err(struct super_block *sb, const char *func, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (!__ratelimit(&CRAMFS_XIP_SB(sb)->ratelimit))
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("(%s): %s: %pV\n", sb->s_id, func, &vaf);
	va_end(args);
}

static struct inode *cramfs_xip_alloc_inode(struct super_block *sb)
{
	struct cramfs_xip_inode_info *ci;

	ci = cramfs_xip_compat_alloc_inode(sb, cramfs_xip_inode_cachep);
	if (!ci)
		return NULL;
	ci->data_offset = 0;
	return &ci->vfs_inode;
}

static void cramfs_xip_free_inode(struct inode *inode)
{
	kmem_cache_free(cramfs_xip_inode_cachep, CRAMFS_XIP_I(inode));
}

#ifdef CRAMFS_XIP_COMPAT_DESTROY_INODE
static void cramfs_xip_free_inode_rcu(struct rcu_head *head)
{
	cramfs_xip_free_inode(container_of(head, struct inode, i_rcu));
}

static void cramfs_xip_destroy_inode(struct inode *inode)
{
	call_rcu(&inode->i_rcu, cramfs_xip_free_inode_rcu);
}
#endif

static void cramfs_xip_inode_init_once(void *ptr)
{
	struct cramfs_xip_inode_info *ci = ptr;

	inode_init_once(&ci->vfs_inode);
}

static int cramfs_xip_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);

	buf->f_type = CRAMFS_XIP_MAGIC;
	buf->f_bsize = PAGE_SIZE;
	buf->f_blocks = sbi->blocks;
	buf->f_bfree = 0;
	buf->f_bavail = 0;
	buf->f_files = sbi->files;
	buf->f_ffree = 0;
	buf->f_fsid = cramfs_xip_compat_u64_to_fsid(huge_encode_dev(sb->s_dev));
	buf->f_namelen = CRAMFS_XIP_MAXPATHLEN;
	return 0;
}

static int cramfs_xip_show_options(struct seq_file *m, struct dentry *root)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(root->d_sb);

	if (sbi->opt.physaddr)
		seq_printf(m, ",physaddr=%pa", &sbi->opt.physaddr);
	if (sbi->opt.size)
		seq_printf(m, ",size=%llu", sbi->opt.size);
	if (sbi->opt.crc)
		seq_puts(m, ",crc");
	return 0;
}

/*
 * A remount may name the options the mount has (mount(8) passes them all
 * again) but change none: they decide what was mapped and checked at mount.
 * An option left out keeps its value. The filesystem stays read-only.
 */
static int cramfs_xip_remount_check(struct fs_context *fc, struct super_block *sb,
				    const struct cramfs_xip_options *new)
{
	const struct cramfs_xip_options *cur = &CRAMFS_XIP_SB(sb)->opt;

	if (new->crc && !cur->crc) {
		errorf(fc, "cramfs: %s: remount cannot add crc: the CRC is checked at mount",
		       sb->s_id);
		return -EINVAL;
	}
	if (new->physaddr && new->physaddr != cur->physaddr) {
		if (cur->physaddr)
			errorf(fc, "cramfs: %s: remount cannot change physaddr= (mounted with physaddr=%pa)",
			       sb->s_id, &cur->physaddr);
		else
			errorf(fc, "cramfs: %s: remount cannot change physaddr= (mounted without)",
			       sb->s_id);
		return -EINVAL;
	}
	if (new->size && new->size != cur->size) {
		errorf(fc, "cramfs: %s: remount cannot change size= (mounted with %llu)",
		       sb->s_id, cur->size);
		return -EINVAL;
	}
	sync_filesystem(sb);
	return 0;
}

#ifdef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
static int cramfs_xip_parse_string(struct cramfs_xip_options *opt, char *options);

static int cramfs_xip_remount(struct super_block *sb, int *flags, char *data)
{
	struct cramfs_xip_options new = {};
	int err = cramfs_xip_parse_string(&new, data);

	if (!err)
		err = cramfs_xip_remount_check(NULL, sb, &new);
	*flags |= SB_RDONLY;
	return err;
}
#endif

static const struct super_operations cramfs_xip_sops = {
	.alloc_inode	= cramfs_xip_alloc_inode,
#ifdef CRAMFS_XIP_COMPAT_DESTROY_INODE
	.destroy_inode	= cramfs_xip_destroy_inode,
#else
	.free_inode	= cramfs_xip_free_inode,
#endif
#ifdef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
	.remount_fs	= cramfs_xip_remount,
#endif
	.statfs		= cramfs_xip_statfs,
	.show_options	= cramfs_xip_show_options,
};

/* The image's CRC covers it from the superblock on, with the CRC field as zero. */
static int cramfs_xip_check_crc(struct super_block *sb, struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	const u8 *start = sbi->virt + sbi->super_offset;
	u32 len = sbi->size - sbi->super_offset;
	u32 stored = cramfs_xip_get32(start + CRAMFS_XIP_SUPER_CRC_OFFSET, sbi->big_endian);
	static const u8 zero[4];
	u32 crc;

	if (!(sbi->flags & CRAMFS_XIP_FLAG_FSID_VERSION_2)) {
		errorf(fc, "cramfs: %s: crc requested, but the image has no CRC (old format)",
		       sb->s_id);
		return -EINVAL;
	}
	crc = crc32_le(~0U, start, CRAMFS_XIP_SUPER_CRC_OFFSET);
	crc = crc32_le(crc, zero, sizeof(zero));
	crc = crc32_le(crc, start + CRAMFS_XIP_SUPER_CRC_OFFSET + 4,
		       len - CRAMFS_XIP_SUPER_CRC_OFFSET - 4);
	crc ^= ~0U;
	if (crc != stored) {
		errorf(fc, "cramfs: %s: CRC mismatch: image says %#x, contents give %#x",
		       sb->s_id, stored, crc);
		return -EUCLEAN;
	}
	return 0;
}

/*
 * Find and check the superblock in the mapped partition. Every field is
 * untrusted: a wrong image is refused here with one message, so that the
 * rest of the module can rely on size, flags and the root inode.
 */
static int cramfs_xip_read_super(struct super_block *sb, struct fs_context *fc,
				 struct cramfs_xip_dinode *root)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	const int big = IS_ENABLED(CONFIG_CPU_BIG_ENDIAN);
	const u8 *super = NULL;
	u32 magic, offsets[] = { 0, CRAMFS_XIP_PAD_SIZE };
	int i;

	for (i = 0; i < ARRAY_SIZE(offsets); i++) {
		if (sbi->mapped < offsets[i] + CRAMFS_XIP_SUPER_SIZE)
			break;
		magic = cramfs_xip_get32(sbi->virt + offsets[i], big);
		if (magic == CRAMFS_XIP_MAGIC_SWAPPED) {
			errorf(fc, "cramfs: %s: image is %s-endian, this kernel reads %s-endian ones",
			       sb->s_id, big ? "little" : "big", big ? "big" : "little");
			return -EINVAL;
		}
		if (magic == CRAMFS_XIP_MAGIC) {
			super = sbi->virt + offsets[i];
			sbi->super_offset = offsets[i];
			break;
		}
	}
	if (!super) {
		/* Said even when silent: mount -t cramfs on the wrong partition deserves a word. */
		errorf(fc, "cramfs: %s: no cramfs image here (wrong magic)", sb->s_id);
		return -EINVAL;
	}

	sbi->big_endian = big;
	sbi->flags = cramfs_xip_get32(super + 8, big);
	if (sbi->flags & ~CRAMFS_XIP_SUPPORTED_FLAGS) {
		errorf(fc, "cramfs: %s: unsupported image features %#x", sb->s_id,
		       sbi->flags & ~CRAMFS_XIP_SUPPORTED_FLAGS);
		return -EINVAL;
	}
	if (sbi->flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) {
		sbi->size = cramfs_xip_get32(super + 4, big);
		sbi->blocks = cramfs_xip_get32(super + 40, big);
		sbi->files = cramfs_xip_get32(super + 44, big);
		if (sbi->size > sbi->mapped) {
			errorf(fc, "cramfs: %s: image (%u bytes) is larger than the partition (%zu bytes)",
			       sb->s_id, sbi->size, sbi->mapped);
			return -EINVAL;
		}
		if (sbi->size < sbi->super_offset + CRAMFS_XIP_SUPER_SIZE) {
			errorf(fc, "cramfs: %s: image size %u is smaller than its superblock",
			       sb->s_id, sbi->size);
			return -EINVAL;
		}
	} else {
		/* The first format version records no size: trust the partition. */
		sbi->size = min_t(size_t, sbi->mapped, U32_MAX);
	}

	cramfs_xip_inode_decode(super + CRAMFS_XIP_SUPER_SIZE - CRAMFS_XIP_INODE_SIZE, big, root);
	if (!S_ISDIR(root->mode)) {
		errorf(fc, "cramfs: %s: root inode is not a directory", sb->s_id);
		return -EINVAL;
	}
	/* mkcramfs stores the root with odd permissions; every reader fixes them so. */
	root->mode |= 0555;
	if (root->offset == 0) {
		if (root->size) {
			errorf(fc, "cramfs: %s: root directory has a size but no entries", sb->s_id);
			return -EINVAL;
		}
	} else if (!(sbi->flags & CRAMFS_XIP_FLAG_SHIFTED_ROOT_OFFSET) &&
		   root->offset != sbi->super_offset + CRAMFS_XIP_SUPER_SIZE &&
		   root->offset != CRAMFS_XIP_PAD_SIZE + CRAMFS_XIP_SUPER_SIZE) {
		errorf(fc, "cramfs: %s: bad root directory offset %u", sb->s_id, root->offset);
		return -EINVAL;
	}
	if (!cramfs_xip_in_image(sb, root->offset, root->size)) {
		errorf(fc, "cramfs: %s: root directory lies outside the image", sb->s_id);
		return -EINVAL;
	}
	if (sbi->opt.crc)
		return cramfs_xip_check_crc(sb, fc);
	return 0;
}

/* The rest of a mount, once sbi->virt/phys/mapped hold the mapped region. */
static int cramfs_xip_fill_common(struct super_block *sb, struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	struct cramfs_xip_dinode root;
	struct inode *inode;
	int err;

	err = cramfs_xip_read_super(sb, fc, &root);
	if (err)
		return err;

	inode = cramfs_xip_iget(sb, &root, 1);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	sb->s_root = d_make_root(inode);
	if (!sb->s_root)
		return -ENOMEM;
	pr_info("(%s): mounted %u-byte image at physical %pa%s\n", sb->s_id, sbi->size,
		&sbi->phys, sbi->opt.crc ? ", CRC checked" : "");
	return 0;
}

static void cramfs_xip_init_sb(struct super_block *sb)
{
	sb->s_flags |= SB_RDONLY;
	sb->s_op = &cramfs_xip_sops;
	sb->s_magic = CRAMFS_XIP_MAGIC;
	cramfs_xip_compat_no_times(sb);
	sb->s_maxbytes = CRAMFS_XIP_MAX_FILE_SIZE;
}

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

/*
 * physaddr=: an image in memory-mapped flash that no MTD driver describes.
 * The window the image may occupy is bounded first (size=, or the memory
 * resource holding the address), so that neither a corrupt size field nor
 * a direct pointer can reach past the flash; then the first page is mapped
 * to read the image's size, then the whole image. Nothing the kernel uses
 * as RAM may be mapped.
 */
static int cramfs_xip_fill_super_phys(struct super_block *sb, struct fs_context *fc)
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
		errorf(fc, "cramfs: physaddr=%pa: must be a nonzero multiple of the page size (%lu)",
		       &phys, PAGE_SIZE);
		return -EINVAL;
	}
	window = cramfs_xip_phys_window(sbi);
	if (!window) {
		errorf(fc, "cramfs: physaddr=%pa: no memory resource holds this address: give the flash's size with size=",
		       &phys);
		return -EINVAL;
	}
	if (window < PAGE_SIZE || window - 1 > (phys_addr_t)~0 - phys) {
		errorf(fc, "cramfs: physaddr=%pa: a %llu-byte window there does not fit", &phys,
		       window);
		return -EINVAL;
	}
	if (region_intersects(phys, window, IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) !=
	    REGION_DISJOINT) {
		errorf(fc, "cramfs: physaddr=%pa: is System RAM, not an image in flash", &phys);
		return -EINVAL;
	}

	first = memremap(phys, PAGE_SIZE, MEMREMAP_WB);
	if (!first) {
		errorf(fc, "cramfs: physaddr=%pa: cannot map it", &phys);
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
		errorf(fc, "cramfs: physaddr=%pa: no cramfs image with a size in its superblock there",
		       &phys);
		return -EINVAL;
	}
	if (size < CRAMFS_XIP_SUPER_SIZE || PAGE_ALIGN((u64)size) > window) {
		errorf(fc, "cramfs: physaddr=%pa: the image claims %u bytes, the flash there has %llu (%s)",
		       &phys, size, window, sbi->opt.size ? "size=" : "its memory resource");
		return -EINVAL;
	}

	virt = memremap(phys, PAGE_ALIGN(size), MEMREMAP_WB);
	if (!virt) {
		errorf(fc, "cramfs: physaddr=%pa: cannot map %u bytes", &phys, size);
		return -ENOMEM;
	}
	sbi->virt = virt;
	sbi->phys = phys;
	sbi->mapped = size;
	sbi->memremapped = true;
	return cramfs_xip_fill_common(sb, fc);
}

#if IS_ENABLED(CONFIG_MTD)
static int cramfs_xip_fill_super_mtd(struct super_block *sb, struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	struct mtd_info *mtd = sb->s_mtd;
	void *virt = NULL;
	size_t len;
	int err;

	cramfs_xip_init_sb(sb);
	snprintf(sb->s_id, sizeof(sb->s_id), "mtd:%s", mtd->name);

	/* Map the whole partition once; the image size is not known yet. */
	len = min_t(u64, mtd->size, U32_MAX);
	err = mtd_point(mtd, 0, len, &sbi->mapped, &virt, &sbi->phys);
	if (err) {
		errorf(fc, "cramfs: %s: no direct access to this flash (MTD point: %d): cramfs_xip needs a memory-mapped MTD",
		       sb->s_id, err);
		sbi->mapped = 0;
		return err == -EOPNOTSUPP ? -EINVAL : err;
	}
	sbi->virt = virt;
	return cramfs_xip_fill_common(sb, fc);
}

static bool cramfs_xip_on_mtd(struct super_block *sb)
{
	return sb->s_mtd;
}

static void cramfs_xip_put_mtd(struct super_block *sb)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);

	if (sbi && sbi->mapped)
		mtd_unpoint(sb->s_mtd, 0, sbi->mapped);
	put_mtd_device(sb->s_mtd);
}

#else
static bool cramfs_xip_on_mtd(struct super_block *sb)
{
	return false;
}

static void cramfs_xip_put_mtd(struct super_block *sb)
{
}

static int cramfs_xip_no_mtd(struct fs_context *fc, const char *source)
{
	errorf(fc, "cramfs: %s: this kernel has no MTD: mount with -o physaddr=<address of the image>",
	       source ? source : "(no source)");
	return -EINVAL;
}
#endif

/* An MTD mount holds its device; any other has an anonymous device number. */
static void cramfs_xip_kill_sb(struct super_block *sb)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);

	if (cramfs_xip_on_mtd(sb)) {
		generic_shutdown_super(sb);
		cramfs_xip_put_mtd(sb);
	} else {
		kill_anon_super(sb);
		if (sbi && sbi->memremapped)
			memunmap((void *)sbi->virt);
	}
	if (sbi) {
		cramfs_xip_zlib_exit(sbi);
		kfree(sbi);
	}
}

/*
 * One mount option, from either mount API (@value is NULL for a flag):
 * 0 if taken, 1 if not ours, -EINVAL if ours and wrong.
 */
static int cramfs_xip_parse_option(struct fs_context *fc, struct cramfs_xip_options *opt,
				   const char *key, const char *value)
{
	char *end;
	u64 v;

	if (!strcmp(key, "crc")) {
		if (value) {
			errorf(fc, "cramfs: crc takes no value");
			return -EINVAL;
		}
		opt->crc = true;
		return 0;
	}
	if (!strcmp(key, "physaddr")) {
		if (!value || kstrtou64(value, 0, &v) || !v || v != (phys_addr_t)v) {
			errorf(fc, "cramfs: physaddr=%s: not a nonzero physical address",
			       value ? value : "");
			return -EINVAL;
		}
		opt->physaddr = v;
		return 0;
	}
	if (!strcmp(key, "size")) {
		v = value && *value ? memparse(value, &end) : 0;
		if (!v || *end || !PAGE_ALIGNED(v) || v > U32_MAX) {
			errorf(fc, "cramfs: size=%s: not a nonzero multiple of the page size up to 4G",
			       value ? value : "");
			return -EINVAL;
		}
		opt->size = v;
		return 0;
	}
	return 1;
}

/* Options that make sense only together. */
static int cramfs_xip_check_options(struct fs_context *fc, const struct cramfs_xip_options *opt)
{
	if (opt->size && !opt->physaddr) {
		errorf(fc, "cramfs: size= bounds a physaddr= mount: give physaddr= too");
		return -EINVAL;
	}
	return 0;
}

static struct cramfs_xip_sb_info *cramfs_xip_alloc_sbi(void)
{
	struct cramfs_xip_sb_info *sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);

	if (!sbi)
		return NULL;
	mutex_init(&sbi->zlib_lock);
	ratelimit_state_init(&sbi->ratelimit, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);
	return sbi;
}

#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
static int cramfs_xip_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	const char *value = NULL;
	int ret;

	if (param->type == fs_value_is_string)
		value = param->string;
	else if (param->type != fs_value_is_flag)
		return -ENOPARAM;
	ret = cramfs_xip_parse_option(fc, &((struct cramfs_xip_sb_info *)fc->s_fs_info)->opt,
				      param->key, value);
	return ret > 0 ? -ENOPARAM : ret;
}

#if IS_ENABLED(CONFIG_MTD)
static int cramfs_xip_get_tree_mtd(struct fs_context *fc)
{
	return get_tree_mtd(fc, cramfs_xip_fill_super_mtd);
}
#else
#define cramfs_xip_get_tree_mtd(fc)	cramfs_xip_no_mtd(fc, (fc)->source)
#endif

static int cramfs_xip_get_tree(struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = fc->s_fs_info;
	struct cramfs_xip_options opt = sbi->opt;
	int err;

	err = cramfs_xip_check_options(fc, &opt);
	if (err)
		return err;
	if (opt.physaddr)
		return get_tree_nodev(fc, cramfs_xip_fill_super_phys);
	err = cramfs_xip_get_tree_mtd(fc);
	/*
	 * A second mount of a mounted MTD shares its superblock, which was
	 * set up with the first mount's options: asking for another check
	 * must not pass silently. The superblock comes back locked.
	 */
	if (!err && opt.crc && !CRAMFS_XIP_SB(fc->root->d_sb)->opt.crc) {
		struct super_block *sb = fc->root->d_sb;

		errorf(fc, "cramfs: %s: already mounted without crc: unmount it first to check the CRC",
		       sb->s_id);
		dput(fc->root);
		fc->root = NULL;
		deactivate_locked_super(sb);
		return -EBUSY;
	}
	return err;
}

static int cramfs_xip_reconfigure(struct fs_context *fc)
{
	struct cramfs_xip_sb_info *new = fc->s_fs_info;

	fc->sb_flags |= SB_RDONLY;
	return cramfs_xip_remount_check(fc, fc->root->d_sb, &new->opt);
}

static void cramfs_xip_free_fc(struct fs_context *fc)
{
	kfree(fc->s_fs_info);
}

static const struct fs_context_operations cramfs_xip_context_ops = {
	.parse_param	= cramfs_xip_parse_param,
	.get_tree	= cramfs_xip_get_tree,
	.reconfigure	= cramfs_xip_reconfigure,
	.free		= cramfs_xip_free_fc,
};

/* Also for a remount: its options are parsed into a superblock info of its own. */
static int cramfs_xip_init_fs_context(struct fs_context *fc)
{
	fc->ops = &cramfs_xip_context_ops;
	fc->s_fs_info = cramfs_xip_alloc_sbi();
	return fc->s_fs_info ? 0 : -ENOMEM;
}
#else
/* Kernels before the fs_context MTD helpers: the ->mount() of old. */
struct cramfs_xip_legacy_mount {
	struct cramfs_xip_sb_info *sbi;
	bool attached;		/* the superblock owns sbi now */
};

static int cramfs_xip_legacy_fill(struct super_block *sb, void *data, int silent,
				  int (*fill)(struct super_block *sb, struct fs_context *fc))
{
	struct cramfs_xip_legacy_mount *m = data;

	sb->s_fs_info = m->sbi;
	m->attached = true;
	return fill(sb, NULL);
}

static int cramfs_xip_legacy_fill_phys(struct super_block *sb, void *data, int silent)
{
	return cramfs_xip_legacy_fill(sb, data, silent, cramfs_xip_fill_super_phys);
}

#if IS_ENABLED(CONFIG_MTD)
static int cramfs_xip_legacy_fill_mtd(struct super_block *sb, void *data, int silent)
{
	return cramfs_xip_legacy_fill(sb, data, silent, cramfs_xip_fill_super_mtd);
}
#endif

/* The legacy option string: "key[=value],..."; @options is cut up. */
static int cramfs_xip_parse_string(struct cramfs_xip_options *opt, char *options)
{
	char *key, *value;
	int ret;

	while ((key = strsep(&options, ",")) != NULL) {
		if (!*key)
			continue;
		value = strchr(key, '=');
		if (value)
			*value++ = 0;
		ret = cramfs_xip_parse_option(NULL, opt, key, value);
		if (ret > 0) {
			pr_err("unknown mount option %s\n", key);
			ret = -EINVAL;
		}
		if (ret)
			return ret;
	}
	return cramfs_xip_check_options(NULL, opt);
}

static struct dentry *cramfs_xip_mount(struct file_system_type *fs_type, int flags,
				       const char *dev_name, void *data)
{
	struct cramfs_xip_legacy_mount m = { .sbi = cramfs_xip_alloc_sbi() };
	struct dentry *root;
	int ret;

	if (!m.sbi)
		return ERR_PTR(-ENOMEM);
	ret = cramfs_xip_parse_string(&m.sbi->opt, data);
	if (ret) {
		kfree(m.sbi);
		return ERR_PTR(ret);
	}
	if (m.sbi->opt.physaddr)
		root = mount_nodev(fs_type, flags | SB_RDONLY, &m, cramfs_xip_legacy_fill_phys);
#if IS_ENABLED(CONFIG_MTD)
	else
		root = mount_mtd(fs_type, flags | SB_RDONLY, dev_name, &m,
				 cramfs_xip_legacy_fill_mtd);
#else
	else
		root = ERR_PTR(cramfs_xip_no_mtd(NULL, dev_name));
#endif
	/* As cramfs_xip_get_tree(): a shared superblock comes back locked. */
	if (!IS_ERR(root) && !m.attached && m.sbi->opt.crc &&
	    !CRAMFS_XIP_SB(root->d_sb)->opt.crc) {
		struct super_block *sb = root->d_sb;

		pr_err("cramfs: %s: already mounted without crc: unmount it first to check the CRC\n",
		       sb->s_id);
		dput(root);
		deactivate_locked_super(sb);
		root = ERR_PTR(-EBUSY);
	}
	if (!m.attached)
		kfree(m.sbi);
	return root;
}
#endif

static struct file_system_type cramfs_xip_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "cramfs",
#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
	.init_fs_context	= cramfs_xip_init_fs_context,
#else
	.mount			= cramfs_xip_mount,
#endif
	.kill_sb		= cramfs_xip_kill_sb,
	/*
	 * No FS_REQUIRES_DEV: with physaddr= there is no device, and the
	 * kernel mounts such a root (root=/dev/null rootflags=physaddr=...)
	 * only with a filesystem that does not require one.
	 */
};
MODULE_ALIAS_FS("cramfs");

static void __init cramfs_xip_check_ondisk_layout(void)
{
	BUILD_BUG_ON(sizeof(struct cramfs_xip_inode) != CRAMFS_XIP_INODE_SIZE);
	BUILD_BUG_ON(sizeof(struct cramfs_xip_super) != CRAMFS_XIP_SUPER_SIZE);
	BUILD_BUG_ON(offsetof(struct cramfs_xip_super, fsid.crc) != CRAMFS_XIP_SUPER_CRC_OFFSET);
	BUILD_BUG_ON(offsetof(struct cramfs_xip_super, fsid.blocks) != 40);
	BUILD_BUG_ON(offsetof(struct cramfs_xip_super, fsid.files) != 44);
	BUILD_BUG_ON(PAGE_SIZE != CRAMFS_XIP_BLOCK_SIZE);
}

static int __init cramfs_xip_init(void)
{
	int err;

	cramfs_xip_check_ondisk_layout();
	cramfs_xip_zlib_init();
	cramfs_xip_inode_cachep = kmem_cache_create("cramfs_xip_inode",
						    sizeof(struct cramfs_xip_inode_info), 0,
						    SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
						    cramfs_xip_inode_init_once);
	if (!cramfs_xip_inode_cachep)
		return -ENOMEM;
	err = register_filesystem(&cramfs_xip_fs_type);
	if (err) {
		if (err == -EBUSY)
			pr_err("another filesystem named \"cramfs\" is registered (mainline cramfs built in or loaded?): remove it first\n");
		kmem_cache_destroy(cramfs_xip_inode_cachep);
	}
	return err;
}

static void __exit cramfs_xip_exit(void)
{
	unregister_filesystem(&cramfs_xip_fs_type);
	/* Inodes are freed after an RCU grace period. */
	rcu_barrier();
	kmem_cache_destroy(cramfs_xip_inode_cachep);
}

module_init(cramfs_xip_init);
module_exit(cramfs_xip_exit);

MODULE_DESCRIPTION("cramfs with execute-in-place from memory-mapped flash");
MODULE_LICENSE("GPL");
