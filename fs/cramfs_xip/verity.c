// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: verity: every 4 KiB block of the image checked against a
 * SHA-256 hash tree before it is used or mapped (Documentation/format.md,
 * "Verity", has the layout; the user guide what it stops and what not).
 *
 * At mount, the trailer after the image gives the tree and its root hash.
 * The root is trusted when it equals the one given with -o verity=, or when
 * the trailer's PKCS#7 signature checks against the kernel's keyrings; else
 * (no policy asking for either) it only tells a damaged image from a good
 * one. The tree's top block is checked against the root at mount. From
 * then on cramfs_xip_bytes(), which every read of the image goes through,
 * and the insertion of pages in place check the blocks they touch. An
 * unchecked block is hashed and compared with its entry in the tree block
 * above it, itself checked the same way first, up to a block checked
 * before. On memory-mapped media a bitmap remembers what was checked (each
 * block is hashed once per mount, and one that fails is never marked); on
 * media read by copy the bytes served are those hashed (struct
 * cramfs_xip_verity says how).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crc32.h>
#include <linux/moduleparam.h>
#include <linux/mtd/mtd.h>
#include <linux/slab.h>
#include <linux/verification.h>
#include <crypto/hash.h>
#include "compat.h"
#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
#include <linux/fs_context.h>
#endif
#include "internal.h"

#define VBLOCK		CRAMFS_XIP_VERITY_BLOCK_SIZE
#define VHASH		CRAMFS_XIP_VERITY_HASH_SIZE
#define VPER_BLOCK	CRAMFS_XIP_VERITY_HASHES_PER_BLOCK

/*
 * A module built without verity has no such parameter: the kernel loads it
 * saying "unknown parameter 'verity_required' ignored" (the user guide
 * says so); the mount option is refused there.
 */
static bool verity_required;
module_param(verity_required, bool, 0444);
MODULE_PARM_DESC(verity_required,
		 "refuse every mount not verified against a root hash given at mount or a signature");

/*
 * A node of the tree is (level, index): level 0 the data blocks, level k + 1
 * the blocks of tree level k (format.md's level k). Level @levels, the top,
 * has one block, checked at mount.
 *
 * A memory-mapped medium is checked in place, and a bitmap remembers each
 * node checked. A medium read by copy (a block device, an MTD without
 * point) could answer the next read with other bytes: there the bytes
 * served are always those hashed, a checked copy of one node per level
 * (@node, @tag), the top one loaded at mount.
 */
#define CRAMFS_XIP_NO_TAG	U32_MAX
struct cramfs_xip_verity {
	struct crypto_shash *tfm;
	struct mutex lock;		/* @node, @tag, and checking blocks not yet checked */
	bool copies;			/* the medium is read by copy */
	bool trusted;			/* the root was given or signed */
	/* Copies: the checked copy of node (level, tag[level]); else node[0] a buffer. */
	u8 *node[CRAMFS_XIP_VERITY_MAX_LEVELS + 1];
	u32 tag[CRAMFS_XIP_VERITY_MAX_LEVELS + 1];
	unsigned long *checked;		/* mapped: a bit per node, level by level from 0 */
	u32 levels;			/* tree levels: the top node is at this level */
	u32 offset[CRAMFS_XIP_VERITY_MAX_LEVELS + 1];	/* image offset of each level */
	u32 first_bit[CRAMFS_XIP_VERITY_MAX_LEVELS + 1];
	u32 nodes[CRAMFS_XIP_VERITY_MAX_LEVELS + 1];	/* blocks in each level */
	u8 root[VHASH];
	const char *trust;		/* what the root hash was checked against: for the log */
};

static bool cramfs_xip_node_checked(const struct cramfs_xip_verity *v, u32 level, u32 index)
{
	return test_bit(v->first_bit[level] + index, v->checked);
}

/*
 * Hash node (@level, @index) into @out, the data block's last one
 * zero-padded past the image, as format.md says (nothing past the image is
 * ever served or mapped on a mount that verifies); read into @buf (a
 * block) when it is copied.
 */
static int cramfs_xip_verity_hash(struct super_block *sb, struct cramfs_xip_verity *v,
				  u32 level, u32 index, u8 *buf, u8 *out)
{
	u32 off = v->offset[level] + index * VBLOCK;
	u32 len = level ? VBLOCK : min_t(u32, VBLOCK, CRAMFS_XIP_SB(sb)->size - off);
	const u8 *p = cramfs_xip_medium_bytes(sb, off, len, buf);

	if (IS_ERR(p))
		return PTR_ERR(p);
	if (len < VBLOCK) {
		if (p != buf)
			memcpy(buf, p, len);
		memset(buf + len, 0, VBLOCK - len);
		p = buf;
	}
	cramfs_xip_count(CRAMFS_XIP_SB(sb), CRAMFS_XIP_BLOCKS_HASHED, 1);
	return cramfs_xip_compat_sha256(v->tfm, p, VBLOCK, out);
}

/* "data block 3 (image bytes ...)" or "tree level 0 block 1 (at ...)", as cramfsck says. */
static void cramfs_xip_verity_mismatch(struct super_block *sb, const struct cramfs_xip_verity *v,
				       u32 level, u32 index)
{
	u32 off = v->offset[level] + index * VBLOCK;
	char above[32] = "the root hash";

	if (level < v->levels)
		snprintf(above, sizeof(above), "its hash in tree level %u", level);
	if (level)
		cramfs_xip_err(sb, "verity: tree level %u block %u (at %u) does not match %s",
			       level - 1, index, off, above);
	else
		cramfs_xip_err(sb, "verity: data block %u (image bytes %u to %u) does not match %s",
			       index, off, off + VBLOCK - 1, above);
}

/*
 * Check data block @block against the tree: the nodes above it that were
 * not checked, from the highest down, each against its parent's entry.
 * Called with v->lock held.
 */
static int cramfs_xip_verity_check(struct super_block *sb, struct cramfs_xip_verity *v, u32 block)
{
	u32 index[CRAMFS_XIP_VERITY_MAX_LEVELS + 1];
	u8 want[VHASH] __aligned(4), got[VHASH];
	const u8 *p;
	int level, top, err;

	index[0] = block;
	for (top = 0; top < v->levels && !cramfs_xip_node_checked(v, top, index[top]); top++)
		index[top + 1] = index[top] / VPER_BLOCK;
	/* Node (top, index[top]) is checked: the top one was, at mount. */
	for (level = top - 1; level >= 0; level--) {
		p = cramfs_xip_medium_bytes(sb, v->offset[level + 1] + index[level + 1] * VBLOCK +
					    (index[level] % VPER_BLOCK) * VHASH, VHASH, want);
		if (IS_ERR(p))
			return PTR_ERR(p);
		if (p != want)
			memcpy(want, p, VHASH);
		err = cramfs_xip_verity_hash(sb, v, level, index[level], v->node[0], got);
		if (err)
			return err;
		if (memcmp(want, got, VHASH)) {
			cramfs_xip_verity_mismatch(sb, v, level, index[level]);
			return -EIO;
		}
		set_bit(v->first_bit[level] + index[level], v->checked);
	}
	return 0;
}

int cramfs_xip_verify(struct super_block *sb, u32 off, u32 len)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	struct cramfs_xip_verity *v = sbi->verity;
	u32 block, last;
	int err = 0;

	/* Called for memory-mapped media only: copies have no bitmap. */
	if (v->copies)
		return -EIO;
	if (!len || off >= sbi->size)
		return 0;
	len = min(len, sbi->size - off);
	last = (off + len - 1) / VBLOCK;
	for (block = off / VBLOCK; block <= last && !err; block++) {
		if (cramfs_xip_node_checked(v, 0, block))
			continue;
		mutex_lock(&v->lock);
		err = cramfs_xip_verity_check(sb, v, block);
		mutex_unlock(&v->lock);
		/* Up to 16 MiB at once (an mmap without an MMU): let others run. */
		cond_resched();
	}
	return err;
}

/*
 * Copies: make v->node[@level] a checked copy of node (@level, @index), its
 * parent first. Called with v->lock held.
 */
static int cramfs_xip_verity_load(struct super_block *sb, struct cramfs_xip_verity *v,
				  u32 level, u32 index)
{
	u8 got[VHASH];
	int err;

	/* The top node, loaded at mount, always matches: the recursion ends there. */
	if (v->tag[level] == index)
		return 0;
	err = cramfs_xip_verity_load(sb, v, level + 1, index / VPER_BLOCK);
	if (err)
		return err;
	v->tag[level] = CRAMFS_XIP_NO_TAG;
	err = cramfs_xip_verity_hash(sb, v, level, index, v->node[level], got);
	if (err)
		return err;
	if (memcmp(v->node[level + 1] + (index % VPER_BLOCK) * VHASH, got, VHASH)) {
		cramfs_xip_verity_mismatch(sb, v, level, index);
		return -EIO;
	}
	v->tag[level] = index;
	return 0;
}

const void *cramfs_xip_verity_bytes(struct super_block *sb, u32 off, u32 len, void *buf)
{
	struct cramfs_xip_verity *v = CRAMFS_XIP_SB(sb)->verity;
	u32 done, at, n;
	int err = 0;

	if (!v->copies) {
		err = cramfs_xip_verify(sb, off, len);
		return err ? ERR_PTR(err) : cramfs_xip_medium_bytes(sb, off, len, buf);
	}
	/* Served from the checked copies, never read from the medium again. */
	mutex_lock(&v->lock);
	for (done = 0; done < len && !err; done += n) {
		at = off + done;
		n = min(len - done, VBLOCK - at % VBLOCK);
		err = cramfs_xip_verity_load(sb, v, 0, at / VBLOCK);
		if (!err)
			memcpy(buf + done, v->node[0] + at % VBLOCK, n);
	}
	mutex_unlock(&v->lock);
	return err ? ERR_PTR(err) : buf;
}

bool cramfs_xip_verity_satisfies(const struct cramfs_xip_sb_info *sbi,
				 const struct cramfs_xip_options *opt)
{
	const struct cramfs_xip_verity *v = sbi->verity;

	if (opt->verity_required && !(v && v->trusted))
		return false;
	return !opt->root_hash_given ||
	       (v && v->trusted && !memcmp(v->root, opt->root_hash, VHASH));
}

void cramfs_xip_verity_refused(struct file *file, pgoff_t index, unsigned long pages)
{
	struct super_block *sb;

	if (!file)
		return;
	sb = file_inode(file)->i_sb;
	if (cramfs_xip_verifying(CRAMFS_XIP_SB(sb)))
		cramfs_xip_err(sb, "verity: %pD: bytes %llu to %llu (pages %lu to %lu) not served",
			       file, (u64)index << PAGE_SHIFT, ((u64)(index + pages) << PAGE_SHIFT) - 1,
			       index, index + pages - 1);
}

/*
 * The tree's shape for @size bytes, as format.md derives it, into @v; the
 * bitmap's size in bits.
 */
static u32 cramfs_xip_verity_shape(struct cramfs_xip_verity *v, u32 size)
{
	u64 start = CRAMFS_XIP_VERITY_START(size);
	u32 level, n = start / VBLOCK, off, bits = 0;

	v->nodes[0] = n;
	for (v->levels = 0; n > 1; v->levels++) {
		n = DIV_ROUND_UP(n, VPER_BLOCK);
		v->nodes[v->levels + 1] = n;
	}
	/* Stored top-down after the trailer block. */
	off = start + VBLOCK;
	for (level = v->levels; level >= 1; level--) {
		v->offset[level] = off;
		off += v->nodes[level] * VBLOCK;
	}
	v->offset[0] = 0;
	for (level = 0; level <= v->levels; level++) {
		v->first_bit[level] = bits;
		bits += v->nodes[level];
	}
	return bits;
}

/* Where the tree of shape @v ends: after the trailer block at @start and every level. */
static u64 cramfs_xip_verity_tree_end(const struct cramfs_xip_verity *v, u64 start)
{
	u64 end = start + VBLOCK;
	u32 level;

	for (level = 1; level <= v->levels; level++)
		end += (u64)v->nodes[level] * VBLOCK;
	return end;
}

u64 cramfs_xip_verity_extent(u32 size, u32 sig_len)
{
	struct cramfs_xip_verity v;

	cramfs_xip_verity_shape(&v, size);
	return PAGE_ALIGN(cramfs_xip_verity_tree_end(&v, CRAMFS_XIP_VERITY_START(size)) +
			  min_t(u32, sig_len, CRAMFS_XIP_VERITY_MAX_SIG_SIZE));
}

/*
 * Check the trailer @t (CRAMFS_XIP_VERITY_TRAILER_SIZE bytes at @start)
 * against the shape in @v: NULL, or what is wrong.
 */
static const char *cramfs_xip_trailer_wrong(struct super_block *sb,
					    const struct cramfs_xip_verity *v, const u8 *t,
					    u64 start, u32 *sig_len)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	const int big = CRAMFS_XIP_BIG;
	u64 tree_end = cramfs_xip_verity_tree_end(v, start);
	u32 want[13], i, flags, sig_offset;
	static const u8 zero[4];
	u32 crc;

	crc = crc32_le(~0U, t, CRAMFS_XIP_VERITY_CRC_OFFSET);
	crc = crc32_le(crc, zero, sizeof(zero)) ^ ~0U;
	if (crc != cramfs_xip_get32(t + CRAMFS_XIP_VERITY_CRC_OFFSET, big))
		return "CRC";
	want[0] = CRAMFS_XIP_VERITY_VERSION;
	want[2] = sbi->size;
	want[3] = VBLOCK;
	want[4] = CRAMFS_XIP_VERITY_HASH_SHA256;
	want[5] = VHASH;
	want[6] = v->levels;
	want[7] = start + VBLOCK;
	want[8] = tree_end - want[7];
	for (i = 0; i < CRAMFS_XIP_VERITY_MAX_LEVELS; i++)
		want[9 + i] = i < v->levels ? v->offset[i + 1] : 0;
	for (i = 0; i < 13; i++)
		if (i != 1 && cramfs_xip_get32(t + 8 + 4 * i, big) != want[i])
			return "a field differs from what the image size gives";
	for (i = 100; i < CRAMFS_XIP_VERITY_CRC_OFFSET; i++)
		if (t[i])
			return "reserved bytes not zero";
	flags = cramfs_xip_get32(t + 12, big);
	sig_offset = cramfs_xip_get32(t + 92, big);
	*sig_len = cramfs_xip_get32(t + 96, big);
	if (tree_end > sbi->medium_size)
		return "the tree runs past the medium";
	if (flags & ~CRAMFS_XIP_VERITY_SUPPORTED_FLAGS)
		return "unknown flags";
	if (!(flags & CRAMFS_XIP_VERITY_FLAG_SIGNED))
		return sig_offset || *sig_len ? "a signature without the flag" : NULL;
	if (sig_offset != tree_end || !*sig_len || *sig_len > CRAMFS_XIP_VERITY_MAX_SIG_SIZE)
		return "the signature is not where the format puts it";
	if (tree_end + *sig_len > sbi->medium_size)
		return "the signature runs past the medium";
	return NULL;
}

#if IS_ENABLED(CONFIG_SYSTEM_DATA_VERIFICATION)
/*
 * The signature of trailer @t (@sig_len bytes where it says) against the
 * built-in and secondary keyrings: 0, or the error with a message.
 */
static int cramfs_xip_verity_signature(struct super_block *sb, struct fs_context *fc,
				       const u8 *t, u32 sig_len)
{
	void *sig = kmalloc(sig_len, GFP_KERNEL);
	const u8 *p;
	int err;

	if (!sig)
		return -ENOMEM;
	p = cramfs_xip_medium_bytes(sb, cramfs_xip_get32(t + 92, CRAMFS_XIP_BIG), sig_len, sig);
	err = PTR_ERR_OR_ZERO(p);
	/* Parsed from RAM: flash in place could change under the parser. */
	if (!err && p != sig)
		memcpy(sig, p, sig_len);
	if (!err)
		err = verify_pkcs7_signature(t, CRAMFS_XIP_VERITY_SIGNED_SIZE, sig, sig_len,
					     VERIFY_USE_SECONDARY_KEYRING,
					     VERIFYING_UNSPECIFIED_SIGNATURE, NULL, NULL);
	kfree(sig);
	if (err)
		cramfs_xip_mount_err(fc, sb, "verity: the signature does not verify (%d%s)", err,
				     err == -ENOKEY ? ": its key is in no keyring of this kernel" : "");
	return err;
}
#endif

/*
 * Is the root hash of trailer @t trusted: given at mount, or signed by a key
 * in the kernel's keyrings? Sets v->trust, or says why not and fails. With
 * no policy asking for either, an unsigned trailer checks the image against
 * its own root hash, which finds damage and nothing else.
 */
static int cramfs_xip_verity_trust_root(struct super_block *sb, struct fs_context *fc,
					struct cramfs_xip_verity *v, const u8 *t, u32 sig_len,
					bool required)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	int __maybe_unused err;

	if (sbi->opt.root_hash_given) {
		if (memcmp(sbi->opt.root_hash, v->root, VHASH)) {
			cramfs_xip_mount_err(fc, sb, "verity: the image's root hash %*phN is not the one given",
					     VHASH, v->root);
			return -EKEYREJECTED;
		}
		v->trust = ", checked against the one given";
		v->trusted = true;
		return 0;
	}
	if (!sig_len) {
		if (required) {
			cramfs_xip_mount_err(fc, sb, "verity: required, but the image is not signed and no verity=<root hash> is given");
			return -EKEYREJECTED;
		}
		v->trust = ", not authenticated: the image's own (no signature, no verity=)";
		return 0;
	}
#if IS_ENABLED(CONFIG_SYSTEM_DATA_VERIFICATION)
	err = cramfs_xip_verity_signature(sb, fc, t, sig_len);
	if (err)
		return err;
	v->trust = ", signed by a trusted key";
	v->trusted = true;
#else
	if (required) {
		cramfs_xip_mount_err(fc, sb, "verity: the image is signed, but this kernel cannot check signatures (CONFIG_SYSTEM_DATA_VERIFICATION): give verity=<root hash>");
		return -EKEYREJECTED;
	}
	v->trust = ", not authenticated: the image's own (this kernel cannot check signatures)";
#endif
	return 0;
}

/*
 * Can the MTD a memory-mapped mount checks in place be written while
 * mounted? Then what was checked can change. (Media read by copy are
 * hashed at every read; physaddr= has no driver to ask.)
 */
static bool cramfs_xip_medium_writable(struct super_block *sb)
{
#if IS_ENABLED(CONFIG_MTD)
	if (CRAMFS_XIP_SB(sb)->on == CRAMFS_XIP_ON_MTD)
		return sb->s_mtd->flags & MTD_WRITEABLE;
#endif
	return false;
}

static void cramfs_xip_verity_free(struct cramfs_xip_verity *v)
{
	int i;

	if (!v)
		return;
	if (!IS_ERR_OR_NULL(v->tfm))
		crypto_free_shash(v->tfm);
	kvfree(v->checked);
	for (i = 0; i <= CRAMFS_XIP_VERITY_MAX_LEVELS; i++)
		kfree(v->node[i]);
	kfree(v);
}

/**
 * cramfs_xip_verity_exit() - free what verity holds for a mount
 * @sbi: the mount's info
 */
void cramfs_xip_verity_exit(struct cramfs_xip_sb_info *sbi)
{
	cramfs_xip_verity_free(sbi->verity);
	sbi->verity = NULL;
}

/*
 * Set up @v from the trailer @t at @start and check the tree's top block
 * against the trusted root hash.
 */
static int cramfs_xip_verity_setup(struct super_block *sb, struct fs_context *fc,
				   struct cramfs_xip_verity *v, const u8 *t, u64 start,
				   bool required)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	const char *wrong;
	u8 got[VHASH];
	u32 bits, sig_len = 0;
	int err, i;

	bits = cramfs_xip_verity_shape(v, sbi->size);
	wrong = cramfs_xip_trailer_wrong(sb, v, t, start, &sig_len);
	if (wrong) {
		cramfs_xip_mount_err(fc, sb, "verity: the trailer at %llu is damaged: %s", start,
				     wrong);
		return -EINVAL;
	}
	memcpy(v->root, t + 60, VHASH);
	err = cramfs_xip_verity_trust_root(sb, fc, v, t, sig_len, required);
	if (err)
		return err;
	mutex_init(&v->lock);
	v->copies = !sbi->virt;
	for (i = 0; i <= (v->copies ? v->levels : 0); i++) {
		v->node[i] = kmalloc(VBLOCK, GFP_KERNEL);
		v->tag[i] = CRAMFS_XIP_NO_TAG;
		if (!v->node[i])
			return -ENOMEM;
	}
	if (!v->copies) {
		v->checked = kvcalloc(BITS_TO_LONGS(bits), sizeof(long), GFP_KERNEL);
		if (!v->checked)
			return -ENOMEM;
	}
	v->tfm = crypto_alloc_shash("sha256", 0, 0);
	if (IS_ERR(v->tfm)) {
		cramfs_xip_mount_err(fc, sb, "verity: no SHA-256 in this kernel (%ld): CONFIG_CRYPTO_SHA256",
				     PTR_ERR(v->tfm));
		return PTR_ERR(v->tfm);
	}
	err = cramfs_xip_verity_hash(sb, v, v->levels, 0, v->node[v->copies ? v->levels : 0], got);
	if (err)
		return err;
	if (memcmp(got, v->root, VHASH)) {
		cramfs_xip_verity_mismatch(sb, v, v->levels, 0);
		cramfs_xip_mount_err(fc, sb, "verity: the tree's top block does not match the root hash");
		return -EIO;
	}
	if (v->copies)
		v->tag[v->levels] = 0;
	else
		set_bit(v->first_bit[v->levels], v->checked);
	return 0;
}

int cramfs_xip_verity_mount(struct super_block *sb, struct fs_context *fc)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	bool required = verity_required || sbi->opt.verity_required ||
			sbi->opt.root_hash_given;
	u8 t[CRAMFS_XIP_VERITY_TRAILER_SIZE] __aligned(4);
	struct cramfs_xip_verity *v;
	const u8 *p = NULL;
	u64 start = 0;
	int err;

	/* Only an image that records its size can have a trailer after it. */
	if (sbi->flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) {
		start = CRAMFS_XIP_VERITY_START(sbi->size);
		if (start + VBLOCK <= sbi->medium_size)
			p = cramfs_xip_medium_bytes(sb, start, sizeof(t), t);
		/* Unreadable: no trailer, unless one is required. */
		if (IS_ERR(p) && required)
			return PTR_ERR(p);
	}
	if (IS_ERR_OR_NULL(p) || memcmp(p, CRAMFS_XIP_VERITY_MAGIC, 8)) {
		if (!required)
			return 0;
		cramfs_xip_mount_err(fc, sb, "verity: required, but the image has no verity trailer%s",
				     !start ? " (it records no size)" :
				     start + VBLOCK > sbi->medium_size ?
				     " (none within the medium: made without one, stripped, or cut off by the medium's end, size= or another claim)" : "");
		return -EINVAL;
	}
	if (p != t)
		memcpy(t, p, sizeof(t));
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	err = cramfs_xip_verity_setup(sb, fc, v, t, start, required);
	if (err) {
		cramfs_xip_verity_free(v);
		return err;
	}
	sbi->verity = v;
	pr_info("(%s): verity: %u blocks under a %u-level tree, root hash %*phN%s\n", sb->s_id,
		v->nodes[0], v->levels, VHASH, v->root, v->trust);
	/* Copies are hashed at every read from the medium: nothing goes unseen. */
	if (!v->copies && cramfs_xip_medium_writable(sb))
		pr_warn("(%s): verity: the medium is writable: each block is checked once, before its first use, and a write after that goes unseen (make the partition read-only)\n",
			sb->s_id);
	return 0;
}
