// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: the figures of each mount, in the file /sys/fs/cramfs_xip/<mount>.
 *
 * Counts since the mount, one "name value" line each: pages read into the
 * page cache (decompressed, copied plain), mmaps served whole in place, in
 * part, or not at all, and for each mmap whose pages are not all in place
 * the reason for the first of them. They are counted where the work is
 * done and only added up here: reading them walks nothing and locks
 * nothing. What is mapped in place at a given moment is for user space to
 * work out (FIEMAP, /proc/PID/maps: Documentation/user-guide.md).
 * Only root reads them: the count of mappings made by traced processes
 * would tell anyone that some process is being debugged.
 *
 * A mount adds one sysfs node, a file in the module's directory: a
 * directory holding a file would be two, and each costs mount(2) about 7 %
 * of mainline cramfs's whole mount (17 us of 232 under QEMU -icount).
 * The attribute lives in the superblock info. Removing the file waits for
 * every reader inside its show() (sysfs drains them), and a reader that
 * still holds the file open afterwards gets ENODEV: nothing reaches the
 * info once the unmount has removed the file, and no release is left to
 * wait for.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include "internal.h"

static struct kobject *cramfs_xip_kobj;

/* The names of enum cramfs_xip_stat, in its order; the reasons take a prefix. */
#define CRAMFS_XIP_WHY_PREFIX	"not_in_place_"
static const char *const cramfs_xip_stat_names[CRAMFS_XIP_NR_STATS] = {
	[CRAMFS_XIP_DECOMPRESSED]	= "pages_decompressed",
	[CRAMFS_XIP_COPIED]		= "pages_copied",
	[CRAMFS_XIP_MMAP_WHOLE]		= "mmaps_in_place",
	[CRAMFS_XIP_MMAP_MIXED]		= "mmaps_mixed",
	[CRAMFS_XIP_MMAP_PAGE_CACHE]	= "mmaps_page_cache",
#if CRAMFS_XIP_HAS_VERITY
	[CRAMFS_XIP_BLOCKS_HASHED]	= "verity_blocks_hashed",
#endif
	[CRAMFS_XIP_WHY_COMPRESSED]	= "compressed",
	[CRAMFS_XIP_WHY_HOLE]		= "hole",
	[CRAMFS_XIP_WHY_UNALIGNED]	= "unaligned",
	[CRAMFS_XIP_WHY_TAIL]		= "tail_not_zero",
	[CRAMFS_XIP_WHY_PAST_IMAGE]	= "past_image",
	[CRAMFS_XIP_WHY_MEDIUM]		= "medium",
	[CRAMFS_XIP_WHY_TRACED]		= "traced",
	[CRAMFS_XIP_WHY_WRITABLE]	= "writable",
};

static ssize_t cramfs_xip_stats_show(struct kobject *kobj, struct kobj_attribute *attr,
				     char *buf)
{
	struct cramfs_xip_sb_info *sbi = container_of(attr, struct cramfs_xip_sb_info, stats_attr);
	int i, n = 0;

	for (i = 0; i < CRAMFS_XIP_NR_STATS; i++)
		n += scnprintf(buf + n, PAGE_SIZE - n, "%s%s %ld\n",
			       i >= CRAMFS_XIP_WHY_COMPRESSED ? CRAMFS_XIP_WHY_PREFIX : "",
			       cramfs_xip_stat_names[i], atomic_long_read(&sbi->stats[i]));
	return n;
}

static bool cramfs_xip_name_taken(const char *name)
{
	struct kernfs_node *kn = sysfs_get_dirent(cramfs_xip_kobj->sd, name);

	sysfs_put(kn);
	return kn;
}

/**
 * cramfs_xip_sysfs_add() - the mount's file, /sys/fs/cramfs_xip/<s_id>
 * @sb: a superblock whose mount has succeeded
 *
 * Two MTDs may have one name: the second of two such mounts gets
 * <s_id>.<MTD number> (a second file of one name would warn with a stack
 * trace); no other sources share an s_id. A '/' in the name becomes '!', as
 * in kobject names. A mount goes on without its file (no memory, or both
 * names taken), and says so.
 */
void cramfs_xip_sysfs_add(struct super_block *sb)
{
	static DEFINE_MUTEX(names);
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(sb);
	char *name = sbi->sysfs_name;
	size_t len;
	int err = 0;

	sysfs_attr_init(&sbi->stats_attr.attr);
	sbi->stats_attr.attr.name = name;
	sbi->stats_attr.attr.mode = 0400;
	sbi->stats_attr.show = cramfs_xip_stats_show;
	strscpy(name, sb->s_id, sizeof(sbi->sysfs_name));
	strreplace(name, '/', '!');
	mutex_lock(&names);
	if (cramfs_xip_name_taken(name)) {
		len = strlen(name);
		snprintf(name + len, sizeof(sbi->sysfs_name) - len, ".%u", MINOR(sb->s_dev));
		if (cramfs_xip_name_taken(name))
			err = -EEXIST;
	}
	if (!err)
		err = sysfs_create_file(cramfs_xip_kobj, &sbi->stats_attr.attr);
	mutex_unlock(&names);
	if (!err) {
		sbi->sysfs_added = true;
		return;
	}
	pr_warn("(%s): no figures file (%d)\n", sb->s_id, err);
}

/**
 * cramfs_xip_sysfs_del() - remove the mount's file, if it has one
 * @sbi: the superblock info, before it is freed
 *
 * Returns once no reader is inside the file's show() any longer.
 */
void cramfs_xip_sysfs_del(struct cramfs_xip_sb_info *sbi)
{
	if (!sbi->sysfs_added)
		return;
	sysfs_remove_file(cramfs_xip_kobj, &sbi->stats_attr.attr);
	sbi->sysfs_added = false;
}

/**
 * cramfs_xip_sysfs_init() - /sys/fs/cramfs_xip
 *
 * Return: 0 or -ENOMEM.
 */
int __init cramfs_xip_sysfs_init(void)
{
	cramfs_xip_kobj = kobject_create_and_add("cramfs_xip", fs_kobj);
	return cramfs_xip_kobj ? 0 : -ENOMEM;
}

/**
 * cramfs_xip_sysfs_exit() - remove /sys/fs/cramfs_xip, every mount gone
 */
void cramfs_xip_sysfs_exit(void)
{
	kobject_put(cramfs_xip_kobj);
}
