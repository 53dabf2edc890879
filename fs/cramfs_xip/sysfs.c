// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: the figures of each mount, in /sys/fs/cramfs_xip/<mount>/stats.
 *
 * Counts since the mount, one "name value" line each: pages read into the
 * page cache (decompressed, copied plain), mmaps served whole in place, in
 * part, or not at all, and for each mmap whose pages are not all in place
 * the reason for the first of them. They are counted where the work is
 * done and only added up here: reading them walks nothing and locks
 * nothing. What is mapped in place at a given moment is for user space to
 * work out (FIEMAP, /proc/PID/maps: Documentation/user-guide.md).
 *
 * The directory is a kobject inside the mount's superblock info, with one
 * file, so that a mount creates two sysfs nodes and no more; the superblock
 * info is freed only once the kobject is released, which unmount waits for.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>
#include "internal.h"

static struct kset *cramfs_xip_kset;

/* The names of enum cramfs_xip_stat, in its order. */
static const char *const cramfs_xip_stat_names[CRAMFS_XIP_NR_STATS] = {
	[CRAMFS_XIP_DECOMPRESSED]	= "pages_decompressed",
	[CRAMFS_XIP_COPIED]		= "pages_copied",
	[CRAMFS_XIP_MMAP_WHOLE]		= "mmaps_in_place",
	[CRAMFS_XIP_MMAP_MIXED]		= "mmaps_mixed",
	[CRAMFS_XIP_MMAP_PAGE_CACHE]	= "mmaps_page_cache",
	[CRAMFS_XIP_WHY_COMPRESSED]	= "not_in_place_compressed",
	[CRAMFS_XIP_WHY_HOLE]		= "not_in_place_hole",
	[CRAMFS_XIP_WHY_UNALIGNED]	= "not_in_place_unaligned",
	[CRAMFS_XIP_WHY_TAIL]		= "not_in_place_tail_not_zero",
	[CRAMFS_XIP_WHY_PAST_IMAGE]	= "not_in_place_past_image",
	[CRAMFS_XIP_WHY_MEDIUM]		= "not_in_place_medium",
	[CRAMFS_XIP_WHY_TRACED]		= "not_in_place_traced",
	[CRAMFS_XIP_WHY_WRITABLE]	= "not_in_place_writable",
};

static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct cramfs_xip_sb_info *sbi = container_of(kobj, struct cramfs_xip_sb_info, kobj);
	int i, n = 0;

	for (i = 0; i < CRAMFS_XIP_NR_STATS; i++)
		n += scnprintf(buf + n, PAGE_SIZE - n, "%s %ld\n", cramfs_xip_stat_names[i],
			       atomic_long_read(&sbi->stats[i]));
	return n;
}

static struct kobj_attribute cramfs_xip_attr_stats = __ATTR_RO(stats);

static struct attribute *cramfs_xip_attrs[] = {
	&cramfs_xip_attr_stats.attr,
	NULL,
};
CRAMFS_XIP_COMPAT_ATTRIBUTE_GROUPS(cramfs_xip);

static void cramfs_xip_sysfs_release(struct kobject *kobj)
{
	complete(&container_of(kobj, struct cramfs_xip_sb_info, kobj)->kobj_released);
}

/* Not const: before 6.2, kobject_init_and_add() takes it without. */
static struct kobj_type cramfs_xip_ktype = {
	.sysfs_ops	= &kobj_sysfs_ops,
	.release	= cramfs_xip_sysfs_release,
	CRAMFS_XIP_COMPAT_KTYPE_ATTRS(cramfs_xip),
};

static bool cramfs_xip_name_taken(struct kobject *kobj)
{
	struct kobject *other = kset_find_obj(cramfs_xip_kset, kobject_name(kobj));

	kobject_put(other);
	return other;
}

/**
 * cramfs_xip_sysfs_add() - the mount's directory, /sys/fs/cramfs_xip/<s_id>
 * @sb: a superblock whose mount has succeeded
 *
 * Two MTDs may have one name: the second of two such mounts gets
 * <s_id>.<MTD number> (kobject_add() of a name in use would warn with a
 * stack trace); no other sources share an s_id. A mount goes on without a
 * directory (no memory, or both names taken), and says so.
 */
void cramfs_xip_sysfs_add(struct super_block *sb)
{
	static DEFINE_MUTEX(names);
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	int err;

	init_completion(&sbi->kobj_released);
	sbi->kobj.kset = cramfs_xip_kset;
	kobject_init(&sbi->kobj, &cramfs_xip_ktype);
	mutex_lock(&names);
	err = kobject_set_name(&sbi->kobj, "%s", sb->s_id);
	if (!err && cramfs_xip_name_taken(&sbi->kobj))
		err = kobject_set_name(&sbi->kobj, "%s.%u", sb->s_id, MINOR(sb->s_dev));
	if (!err && cramfs_xip_name_taken(&sbi->kobj))
		err = -EEXIST;
	if (!err)
		err = kobject_add(&sbi->kobj, NULL, "%s", kobject_name(&sbi->kobj));
	mutex_unlock(&names);
	if (!err) {
		sbi->kobj_added = true;
		return;
	}
	/* An initialised kobject is put, added or not: its release is due. */
	kobject_put(&sbi->kobj);
	wait_for_completion(&sbi->kobj_released);
	pr_warn("(%s): no stats in /sys/fs/cramfs_xip (%d)\n", sb->s_id, err);
}

/**
 * cramfs_xip_sysfs_del() - remove the mount's directory, if it has one
 * @sbi: the superblock info, before it is freed
 *
 * Waits for the directory's release: a reader of its file may hold it a
 * little longer than the unmount, and the info must outlive that.
 */
void cramfs_xip_sysfs_del(struct cramfs_xip_sb_info *sbi)
{
	if (!sbi->kobj_added)
		return;
	kobject_del(&sbi->kobj);
	kobject_put(&sbi->kobj);
	wait_for_completion(&sbi->kobj_released);
	sbi->kobj_added = false;
}

/**
 * cramfs_xip_sysfs_init() - /sys/fs/cramfs_xip
 *
 * Return: 0 or -ENOMEM.
 */
int __init cramfs_xip_sysfs_init(void)
{
	cramfs_xip_kset = kset_create_and_add("cramfs_xip", NULL, fs_kobj);
	return cramfs_xip_kset ? 0 : -ENOMEM;
}

/**
 * cramfs_xip_sysfs_exit() - remove /sys/fs/cramfs_xip, every mount gone
 */
void cramfs_xip_sysfs_exit(void)
{
	kset_unregister(cramfs_xip_kset);
}
