// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: mount, mount options, superblock checks, module init.
 *
 * A mount picks the medium the image lives on from its source and options
 * (physaddr=: phys.c; an MTD, also named as /dev/mtdblockN: mtd.c; any other
 * block device: bdev.c), which sets up the superblock info; what follows is
 * the same for every medium.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/major.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/crc32.h>
#include <linux/statfs.h>
#include <linux/seq_file.h>
#include "compat.h"
#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
#include <linux/fs_context.h>
#endif
#include <linux/mtd/mtd.h>
#include <linux/mtd/super.h>
#include "internal.h"

static struct kmem_cache *cramfs_xip_inode_cachep;

static struct inode *cramfs_xip_alloc_inode(struct super_block *sb)
{
	struct cramfs_xip_inode_info *ci;

	/* data_offset is set by cramfs_xip_iget(), the only one to ask for an inode. */
	ci = cramfs_xip_compat_alloc_inode(sb, cramfs_xip_inode_cachep);
	return ci ? &ci->vfs_inode : NULL;
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
	/* The rest is zero: statfs_by_dentry() cleared it. */
	buf->f_blocks = sbi->blocks;
	buf->f_files = sbi->files;
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
	if (sbi->opt.strict)
		seq_puts(m, ",strict");
	if (CRAMFS_XIP_HAS_VERITY && sbi->opt.root_hash_given)
		seq_printf(m, ",verity=%*phN", CRAMFS_XIP_VERITY_HASH_SIZE, sbi->opt.root_hash);
	if (CRAMFS_XIP_HAS_VERITY && sbi->opt.verity_required)
		seq_puts(m, ",verity_required");
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
	const char *what = NULL;

	if (new->crc && !cur->crc)
		what = "add crc";
	else if (new->strict && !cur->strict)
		what = "add strict";
	else if (new->physaddr && new->physaddr != cur->physaddr)
		what = "change physaddr=";
	else if (new->size && new->size != cur->size)
		what = "change size=";
	else if (CRAMFS_XIP_HAS_VERITY &&
		 !cramfs_xip_verity_satisfies(CRAMFS_XIP_SB(sb), new))
		what = new->root_hash_given ? "change verity=" : "add verity_required";
	if (what) {
		cramfs_xip_mount_err(fc, sb, "remount cannot %s: unmount and mount with it", what);
		return -EINVAL;
	}
	/* Nothing to sync: the superblock is read-only from its mount on. */
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
static int cramfs_xip_check_crc(struct super_block *sb, struct fs_context *fc, u32 stored)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	u32 off = sbi->super_offset + CRAMFS_XIP_SUPER_CRC_OFFSET;
	static const u8 zero[4];
	const u8 *p;
	u32 crc, len;
	void *buf;

	if (!(sbi->flags & CRAMFS_XIP_FLAG_FSID_VERSION_2)) {
		cramfs_xip_mount_err(fc, sb, "crc: the image has no CRC (old format)");
		return -EINVAL;
	}
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = cramfs_xip_bytes(sb, sbi->super_offset, CRAMFS_XIP_SUPER_CRC_OFFSET, buf);
	if (IS_ERR(p))
		goto read_error;
	crc = crc32_le(~0U, p, CRAMFS_XIP_SUPER_CRC_OFFSET);
	crc = crc32_le(crc, zero, sizeof(zero));
	/* A page at a time: a medium that is not mapped is read into @buf. */
	for (off += 4; off < sbi->size; off += len) {
		len = min_t(u32, PAGE_SIZE, sbi->size - off);
		p = cramfs_xip_bytes(sb, off, len, buf);
		if (IS_ERR(p))
			goto read_error;
		crc = crc32_le(crc, p, len);
		/* Up to 4 GiB on a kernel that may not preempt: let others run. */
		cond_resched();
	}
	kfree(buf);
	crc ^= ~0U;
	if (crc != stored) {
		cramfs_xip_mount_err(fc, sb, "bad CRC %#x, the image says %#x", crc, stored);
		return -EUCLEAN;
	}
	return 0;
read_error:
	/* The read said what failed. */
	kfree(buf);
	return PTR_ERR(p);
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
	const int big = CRAMFS_XIP_BIG;
	const u8 *p, *super = NULL;
	u8 buf[CRAMFS_XIP_SUPER_SIZE] __aligned(4);
	u32 magic, off;
	int err;

	/* At the start, or after the 512 bytes a boot loader may take. */
	for (off = 0; off <= CRAMFS_XIP_PAD_SIZE; off += CRAMFS_XIP_PAD_SIZE) {
		if (sbi->medium_size < off + CRAMFS_XIP_SUPER_SIZE)
			break;
		p = cramfs_xip_bytes(sb, off, CRAMFS_XIP_SUPER_SIZE, buf);
		if (IS_ERR(p))
			return PTR_ERR(p);	/* the read said what failed */
		magic = cramfs_xip_get32(p, big);
		if (magic == CRAMFS_XIP_MAGIC_SWAPPED) {
			cramfs_xip_mount_err(fc, sb, "image is %s-endian, the kernel %s-endian",
					     big ? "little" : "big", big ? "big" : "little");
			return -EINVAL;
		}
		if (magic == CRAMFS_XIP_MAGIC) {
			super = p;
			sbi->super_offset = off;
			break;
		}
	}
	if (!super) {
		/* Said even when silent: mount -t cramfs on the wrong partition deserves a word. */
		cramfs_xip_mount_err(fc, sb, "no cramfs image (wrong magic)");
		return -EINVAL;
	}

	sbi->flags = cramfs_xip_get32(super + 8, big);
	if (sbi->flags & ~CRAMFS_XIP_SUPPORTED_FLAGS) {
		cramfs_xip_mount_err(fc, sb, "unsupported image features %#x",
				     sbi->flags & ~CRAMFS_XIP_SUPPORTED_FLAGS);
		return -EINVAL;
	}
	if (sbi->flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) {
		sbi->size = cramfs_xip_get32(super + 4, big);
		if (sbi->size > sbi->medium_size) {
			cramfs_xip_mount_err(fc, sb, "%u-byte image in a %zu-byte %s", sbi->size,
					     sbi->medium_size, sbi->medium->name);
			return -EINVAL;
		}
		if (sbi->size < sbi->super_offset + CRAMFS_XIP_SUPER_SIZE) {
			cramfs_xip_mount_err(fc, sb, "bad image size %u", sbi->size);
			return -EINVAL;
		}
	} else {
		/* The first format version records no size: trust the partition. */
		sbi->size = min_t(size_t, sbi->medium_size, U32_MAX);
	}
	/*
	 * The size finds the verity trailer. A mount that verifies reads the
	 * superblock again, checked, and goes on with what it says.
	 */
	err = cramfs_xip_verity_mount(sb, fc);
	if (err)
		return err;
	if (cramfs_xip_verifying(sbi)) {
		super = cramfs_xip_bytes(sb, sbi->super_offset, CRAMFS_XIP_SUPER_SIZE, buf);
		if (IS_ERR(super))
			return PTR_ERR(super);
		if (cramfs_xip_get32(super, big) != CRAMFS_XIP_MAGIC ||
		    cramfs_xip_get32(super + 8, big) != sbi->flags ||
		    cramfs_xip_get32(super + 4, big) != sbi->size) {
			cramfs_xip_mount_err(fc, sb, "verity: the superblock changed while mounting");
			return -EIO;
		}
	}
	if (sbi->flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) {
		sbi->blocks = cramfs_xip_get32(super + 40, big);
		sbi->files = cramfs_xip_get32(super + 44, big);
	}

	cramfs_xip_inode_decode(super + CRAMFS_XIP_SUPER_SIZE - CRAMFS_XIP_INODE_SIZE, big, root);
	/*
	 * A directory, with entries or none (size 0) where a writer puts them,
	 * inside the image.
	 */
	if (!S_ISDIR(root->mode) || (!root->offset && root->size) ||
	    (root->offset && !(sbi->flags & CRAMFS_XIP_FLAG_SHIFTED_ROOT_OFFSET) &&
	     root->offset != sbi->super_offset + CRAMFS_XIP_SUPER_SIZE &&
	     root->offset != CRAMFS_XIP_PAD_SIZE + CRAMFS_XIP_SUPER_SIZE) ||
	    !cramfs_xip_in_image(sb, root->offset, root->size)) {
		cramfs_xip_mount_err(fc, sb, "bad root directory (mode %#o, %u bytes at %u)",
				     root->mode, root->size, root->offset);
		return -EINVAL;
	}
	/* mkcramfs stores the root with odd permissions; every reader fixes them so. */
	root->mode |= 0555;
	if (sbi->opt.crc)
		return cramfs_xip_check_crc(sb, fc,
					    cramfs_xip_get32(super + CRAMFS_XIP_SUPER_CRC_OFFSET, big));
	return 0;
}

/*
 * The rest of a mount, once its medium is open (@sb's info holds it and
 * its size): 0, or a negative error with a message for a bad image.
 */
static int cramfs_xip_fill_common(struct super_block *sb, struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	struct cramfs_xip_dinode root;
	const char *no_xip, *held;
	struct inode *inode;
	int err;

	sb->s_flags |= SB_RDONLY;
	sb->s_op = &cramfs_xip_sops;
	sb->s_magic = CRAMFS_XIP_MAGIC;
	cramfs_xip_compat_no_times(sb);
	sb->s_maxbytes = CRAMFS_XIP_MAX_FILE_SIZE;
	no_xip = sbi->medium->no_xip;
	if (!no_xip && sbi->virt)
		no_xip = cramfs_xip_frames_unusable(sb);
	if (sbi->opt.strict && (no_xip || (IS_ENABLED(CONFIG_MMU) && !PAGE_ALIGNED(sbi->phys)))) {
		cramfs_xip_mount_err(fc, sb, "strict: no execute-in-place on this medium: %s",
				     no_xip ?: "it does not start on a page boundary");
		return -EINVAL;
	}
	/* Compressed blocks are read into this buffer when reads are copies. */
	if (cramfs_xip_reads_copy(sbi)) {
		sbi->bounce = kmalloc(CRAMFS_XIP_MAX_COMPRESSED_LEN, GFP_KERNEL);
		if (!sbi->bounce)
			return -ENOMEM;
	}
	/* Until the superblock says how large the image is: the whole medium. */
	sbi->size = min_t(size_t, sbi->medium_size, U32_MAX);
	err = cramfs_xip_read_super(sb, fc, &root);
	if (err)
		return err;

	inode = cramfs_xip_iget(sb, &root, 1);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	sb->s_root = d_make_root(inode);
	if (!sb->s_root)
		return -ENOMEM;
	sbi->xip = sbi->virt && !no_xip;
	/* Held by point whether or not pages are mapped in place. */
	held = sbi->holds_chip ? "; writes to the rest of its chip wait for unmount" : "";
	cramfs_xip_sysfs_add(sb);
	if (sbi->xip)
		pr_info("(%s): mounted %u-byte image at physical %pa%s%s\n", sb->s_id, sbi->size,
			&sbi->phys, sbi->opt.crc ? ", CRC checked" : "", held);
	else
		pr_info("(%s): mounted %u-byte image from the %s%s, without execute-in-place: %s%s\n",
			sb->s_id, sbi->size, sbi->medium->name,
			sbi->opt.crc ? ", CRC checked" : "", no_xip, held);
	return 0;
}

/* A mount on each medium: open it, then the rest is the same. */
static int cramfs_xip_fill_super_phys(struct super_block *sb, struct fs_context *fc)
{
	return cramfs_xip_open_phys(sb, fc) ?: cramfs_xip_fill_common(sb, fc);
}

static int cramfs_xip_fill_super_mtd(struct super_block *sb, struct fs_context *fc)
{
	return cramfs_xip_open_mtd(sb, fc) ?: cramfs_xip_fill_common(sb, fc);
}

static int cramfs_xip_fill_super_bdev(struct super_block *sb, struct fs_context *fc)
{
	return cramfs_xip_open_bdev(sb, fc) ?: cramfs_xip_fill_common(sb, fc);
}

#if IS_ENABLED(CONFIG_MTD)
static bool cramfs_xip_on_mtd(struct super_block *sb)
{
	return sb->s_mtd;
}

static void cramfs_xip_put_mtd(struct super_block *sb)
{
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
#endif

/* Does @source name an MTD's block device, /dev/mtdblockN? */
static bool cramfs_xip_mtdblock(const char *source)
{
#ifdef CONFIG_BLOCK
	dev_t dev;

	return !cramfs_xip_compat_lookup_bdev(source, &dev) && MAJOR(dev) == MTD_BLOCK_MAJOR;
#else
	return false;
#endif
}

/*
 * The medium a mount source names: an MTD (mtd:NAME, mtdN, or its
 * /dev/mtdblockN, whose MTD is used rather than the block device, so that
 * a memory-mapped one still executes in place), else a block device; or a
 * negative error with a message when this kernel cannot serve it.
 */
static int cramfs_xip_source(struct fs_context *fc, const char *source)
{
	bool named = source && !strncmp(source, "mtd", 3) &&
		     (source[3] == ':' || isdigit(source[3]));

	if (IS_ENABLED(CONFIG_MTD) && (!source || named || cramfs_xip_mtdblock(source)))
		return CRAMFS_XIP_ON_MTD;
	if (CRAMFS_XIP_BLOCKDEV && !named)
		return CRAMFS_XIP_ON_BDEV;
	errorfc(fc, "%s: %s%s", source ? source : "(no source)",
		named ? "this kernel has no MTD" :
		!IS_ENABLED(CONFIG_BLOCK) ? "this kernel has no block devices" :
		"this cramfs_xip is built without block devices (CONFIG_CRAMFS_XIP_BLOCKDEV)",
		CRAMFS_XIP_PHYSADDR ? " (or -o physaddr=)" : "");
	return -EINVAL;
}

/*
 * An MTD mount holds its device, a block device mount its block device; a
 * physaddr= mount has an anonymous device number. The medium is given back
 * after the superblock is shut down, and the MTD device after that.
 */
static void cramfs_xip_kill_sb(struct super_block *sb)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);

	/*
	 * A block device superblock is one whether or not its device was
	 * opened: from 6.6 on, get_tree_bdev() makes the superblock (with the
	 * device's number, not an anonymous one) before it opens the device.
	 */
	/* Its file in /sys/fs/cramfs_xip goes first, so that its name is free. */
	if (sbi)
		cramfs_xip_sysfs_del(sbi);
	if (cramfs_xip_on_mtd(sb))
		generic_shutdown_super(sb);
	else if (CRAMFS_XIP_BLOCKDEV && sbi && sbi->on == CRAMFS_XIP_ON_BDEV)
		kill_block_super(sb);
	else
		kill_anon_super(sb);
	if (sbi) {
		if (sbi->medium && sbi->medium->release)
			sbi->medium->release(sb);
		kfree(sbi->bounce);
		cramfs_xip_zlib_exit(sbi);
		cramfs_xip_verity_exit(sbi);
		kfree(sbi);
	}
	if (cramfs_xip_on_mtd(sb))
		cramfs_xip_put_mtd(sb);
}

/* 64 hex digits into the 32 bytes of a root hash: 0, or -EINVAL. */
static int cramfs_xip_parse_hash(u8 *hash, const char *hex)
{
	int i, d;

	for (i = 0; i < 2 * CRAMFS_XIP_VERITY_HASH_SIZE; i++) {
		d = isdigit(hex[i]) ? hex[i] - '0' :
		    isxdigit(hex[i]) ? tolower(hex[i]) - 'a' + 10 : -1;
		if (d < 0)
			return -EINVAL;
		hash[i / 2] = i % 2 ? hash[i / 2] | d : d << 4;
	}
	return 0;
}

/*
 * One mount option, from either mount API (@value is NULL for a flag):
 * 0 if taken, 1 if not ours, -EINVAL if ours and wrong.
 */
static int cramfs_xip_parse_option(struct fs_context *fc, struct cramfs_xip_options *opt,
				   const char *key, const char *value)
{
	bool *flag = !strcmp(key, "crc") ? &opt->crc : !strcmp(key, "strict") ? &opt->strict :
		     CRAMFS_XIP_HAS_VERITY && !strcmp(key, "verity_required") ?
		     &opt->verity_required : NULL;
	char *end;
	u64 v;

	/* Without verity built in, its options are unknown ones, refused. */
	if (CRAMFS_XIP_HAS_VERITY && !strcmp(key, "verity")) {
		if (!value || strlen(value) != 2 * sizeof(opt->root_hash) ||
		    cramfs_xip_parse_hash(opt->root_hash, value)) {
			errorfc(fc, "verity=%s: not a root hash (64 hex digits)", value ? value : "");
			return -EINVAL;
		}
		opt->root_hash_given = true;
		return 0;
	}

	if (flag) {
		if (value) {
			errorfc(fc, "%s takes no value", key);
			return -EINVAL;
		}
		*flag = true;
		return 0;
	}
	if (!CRAMFS_XIP_PHYSADDR && (!strcmp(key, "physaddr") || !strcmp(key, "size"))) {
		errorfc(fc, "%s= is not built in (CONFIG_CRAMFS_XIP_PHYSADDR)", key);
		return -EINVAL;
	}
	if (!strcmp(key, "physaddr")) {
		if (!value || kstrtou64(value, 0, &v) || !v || v != (phys_addr_t)v ||
		    !PAGE_ALIGNED(v)) {
			errorfc(fc, "physaddr=%s: not a nonzero page-aligned address",
				value ? value : "");
			return -EINVAL;
		}
		opt->physaddr = v;
		return 0;
	}
	if (!strcmp(key, "size")) {
		v = value && *value ? memparse(value, &end) : 0;
		if (!v || *end || !PAGE_ALIGNED(v) || v > U32_MAX) {
			errorfc(fc, "size=%s: not a nonzero page multiple up to 4G",
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
		errorfc(fc, "size= goes with physaddr=");
		return -EINVAL;
	}
	return 0;
}

/*
 * A second mount of a mounted device shares its superblock, which was set
 * up with the first mount's options: a check or a promise the first mount
 * did not make must not pass silently. The option it lacks, or NULL.
 */
static const char *cramfs_xip_shared_refused(struct super_block *sb,
					     const struct cramfs_xip_options *opt)
{
	const struct cramfs_xip_options *cur = &CRAMFS_XIP_SB(sb)->opt;

	if (opt->crc && !cur->crc)
		return "crc";
	if (opt->strict && !cur->strict)
		return "strict";
	if (CRAMFS_XIP_HAS_VERITY && !cramfs_xip_verity_satisfies(CRAMFS_XIP_SB(sb), opt))
		return opt->root_hash_given ? "this verity=" : "verity_required";
	return NULL;
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

static int cramfs_xip_get_tree(struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = fc->s_fs_info;
	struct cramfs_xip_options opt = sbi->opt;
	const char *refused;
	int err;

	err = cramfs_xip_check_options(fc, &opt);
	if (err)
		return err;
	/* Nothing is ever written: a block device is opened read-only. */
	fc->sb_flags |= SB_RDONLY;
	if (CRAMFS_XIP_PHYSADDR && opt.physaddr)
		return get_tree_nodev(fc, cramfs_xip_fill_super_phys);
	err = cramfs_xip_source(fc, fc->source);
	if (err < 0)
		return err;
	/* A new superblock takes this info; kill_sb goes by what it says. */
	sbi->on = err;
	if (IS_ENABLED(CONFIG_MTD) && err == CRAMFS_XIP_ON_MTD)
		err = get_tree_mtd(fc, cramfs_xip_fill_super_mtd);
	else
		err = CRAMFS_XIP_BLOCKDEV ? get_tree_bdev(fc, cramfs_xip_fill_super_bdev) : -EINVAL;
	if (err)
		return err;
	/* The superblock of a device mounted already comes back locked. */
	refused = cramfs_xip_shared_refused(fc->root->d_sb, &opt);
	if (refused) {
		struct super_block *sb = fc->root->d_sb;

		cramfs_xip_mount_err(fc, sb, "already mounted without %s: unmount it first", refused);
		dput(fc->root);
		fc->root = NULL;
		deactivate_locked_super(sb);
		return -EBUSY;
	}
	return 0;
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

static int cramfs_xip_legacy_fill_mtd(struct super_block *sb, void *data, int silent)
{
	return cramfs_xip_legacy_fill(sb, data, silent, cramfs_xip_fill_super_mtd);
}

static int cramfs_xip_legacy_fill_bdev(struct super_block *sb, void *data, int silent)
{
	return cramfs_xip_legacy_fill(sb, data, silent, cramfs_xip_fill_super_bdev);
}

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
	const char *refused;
	struct dentry *root;
	int ret;

	if (!m.sbi)
		return ERR_PTR(-ENOMEM);
	ret = cramfs_xip_parse_string(&m.sbi->opt, data);
	if (ret) {
		kfree(m.sbi);
		return ERR_PTR(ret);
	}
	ret = CRAMFS_XIP_PHYSADDR && m.sbi->opt.physaddr ? CRAMFS_XIP_ON_PHYS :
	      cramfs_xip_source(NULL, dev_name);
	if (ret >= 0)
		m.sbi->on = ret;
	if (ret < 0)
		root = ERR_PTR(ret);
	else if (CRAMFS_XIP_PHYSADDR && ret == CRAMFS_XIP_ON_PHYS)
		root = mount_nodev(fs_type, flags | SB_RDONLY, &m, cramfs_xip_legacy_fill_phys);
	else if (IS_ENABLED(CONFIG_MTD) && ret == CRAMFS_XIP_ON_MTD)
		root = mount_mtd(fs_type, flags | SB_RDONLY, dev_name, &m,
				 cramfs_xip_legacy_fill_mtd);
	else
		root = CRAMFS_XIP_BLOCKDEV ? mount_bdev(fs_type, flags | SB_RDONLY, dev_name, &m,
							cramfs_xip_legacy_fill_bdev) :
		       ERR_PTR(-EINVAL);
	/* As cramfs_xip_get_tree(): a shared superblock comes back locked. */
	refused = IS_ERR(root) || m.attached ? NULL :
		  cramfs_xip_shared_refused(root->d_sb, &m.sbi->opt);
	if (refused) {
		struct super_block *sb = root->d_sb;

		cramfs_xip_mount_err(NULL, sb, "already mounted without %s: unmount it first",
				     refused);
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
}

static int __init cramfs_xip_init(void)
{
	int err;

	cramfs_xip_check_ondisk_layout();
#ifdef MODULE
	cramfs_xip_zlib_init();	/* built in: an initcall of its own, in data.c */
#endif
	cramfs_xip_inode_cachep = kmem_cache_create("cramfs_xip_inode",
						    sizeof(struct cramfs_xip_inode_info), 0,
						    SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
						    cramfs_xip_inode_init_once);
	if (!cramfs_xip_inode_cachep)
		return -ENOMEM;
	err = cramfs_xip_sysfs_init();
	if (!err)
		err = register_filesystem(&cramfs_xip_fs_type);
	if (err) {
		if (err == -EBUSY)
			pr_err("\"cramfs\" is registered already (mainline cramfs?)\n");
		cramfs_xip_sysfs_exit();
		kmem_cache_destroy(cramfs_xip_inode_cachep);
	}
	return err;
}

static void __exit cramfs_xip_exit(void)
{
	unregister_filesystem(&cramfs_xip_fs_type);
	cramfs_xip_sysfs_exit();
	/* Inodes are freed after an RCU grace period. */
	rcu_barrier();
	kmem_cache_destroy(cramfs_xip_inode_cachep);
}

module_init(cramfs_xip_init);
module_exit(cramfs_xip_exit);

MODULE_DESCRIPTION("cramfs with execute-in-place from memory-mapped flash");
MODULE_LICENSE("GPL");
MODULE_VERSION(CRAMFS_XIP_VERSION);
