// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: the image on its medium: its bytes, and the messages for what
 * it (or the medium) does wrong. Every other file reads the image through
 * here and calls nothing above it; super.c, which mounts, sits on top.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include "compat.h"
#ifndef CRAMFS_XIP_COMPAT_LEGACY_MOUNT
#include <linux/fs_context.h>
#endif
#include "internal.h"

void cramfs_xip_err(struct super_block *sb, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (!__ratelimit(&CRAMFS_XIP_SB(sb)->ratelimit))
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("(%s): %pV\n", sb->s_id, &vaf);
	va_end(args);
}

void cramfs_xip_mount_err(struct fs_context *fc, struct super_block *sb, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	errorfc(fc, "%s: %pV", sb->s_id, &vaf);
	va_end(args);
}

/* The read itself, of a range checked against the image or the medium. */
static __always_inline const void *cramfs_xip_read(struct super_block *sb, u32 off, u32 len,
						   void *buf)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	int err;

	if (!cramfs_xip_reads_copy(sbi))
		return sbi->virt + off;
	/* arm64: a copy that never makes an unaligned load. */
	if (sbi->virt) {
		memcpy_fromio(buf, (const void __iomem __force *)(sbi->virt + off), len);
		return buf;
	}
	err = sbi->medium->read(sb, off, len, buf);
	return err ? ERR_PTR(err) : buf;
}

#if CRAMFS_XIP_HAS_VERITY
const void *cramfs_xip_medium_bytes(struct super_block *sb, u32 off, u32 len, void *buf)
{
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);

	if (off > sbi->medium_size || len > sbi->medium_size - off) {
		cramfs_xip_err(sb, "read of %u bytes at %u outside the %s", len, off,
			       sbi->medium->name);
		return ERR_PTR(-EIO);
	}
	return cramfs_xip_read(sb, off, len, buf);
}
#endif

const void *cramfs_xip_bytes(struct super_block *sb, u32 off, u32 len, void *buf)
{
	if (!cramfs_xip_in_image(sb, off, len)) {
		cramfs_xip_err(sb, "read of %u bytes at %u outside the image", len, off);
		return ERR_PTR(-EIO);
	}
	if (cramfs_xip_verifying(CRAMFS_XIP_SB(sb)))
		return cramfs_xip_verity_bytes(sb, off, len, buf);
	return cramfs_xip_read(sb, off, len, buf);
}
