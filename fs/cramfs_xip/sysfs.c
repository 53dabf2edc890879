// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: a directory per mount in /sys/fs/cramfs_xip/, and the XIP
 * profile it holds.
 *
 * With the module parameter xip_profile set, every mapping with execute
 * permission made from then on comes from the page cache, one fault per
 * page touched (no fault-around), and each fault records its page. The
 * file xip_profile in the mount's directory lists the pages recorded, one
 * line per file: its path in the image, then the page numbers as ranges
 * ("/bin/busybox 0-12,15"). mkcramfs --xip-profile stores exactly those
 * pages for execute-in-place. When xip_profile is off, an mmap asks one
 * question more and nothing else changes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dcache.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string_helpers.h>
#include <linux/sysfs.h>
#include "internal.h"

static bool xip_profile;
module_param(xip_profile, bool, 0644);
MODULE_PARM_DESC(xip_profile,
		 "record the pages that executable mappings fault in: /sys/fs/cramfs_xip/<mount>/xip_profile");

/* The pages of one file that executable mappings have faulted in. */
struct cramfs_xip_profile {
	struct list_head list;
	unsigned long ino;
	char *path;			/* in the image, spaces and the like escaped */
	unsigned long pages;		/* the file's, when first seen */
	unsigned long bits[];
};

struct cramfs_xip_sysfs {
	struct kobject kobj;
	struct mutex lock;		/* the profile */
	struct list_head profile;
};

static struct kset *cramfs_xip_kset;

/* Find or add @file's entry; NULL without memory. Under s->lock. */
static struct cramfs_xip_profile *cramfs_xip_profile_entry(struct cramfs_xip_sysfs *s,
							   struct file *file)
{
	struct inode *inode = file_inode(file);
	unsigned long pages = DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE);
	struct cramfs_xip_profile *p;
	char *buf, *path;
	size_t len;

	list_for_each_entry(p, &s->profile, list)
		if (p->ino == inode->i_ino)
			return p;
	p = kzalloc(struct_size(p, bits, BITS_TO_LONGS(pages)), GFP_KERNEL);
	buf = __getname();
	if (!p || !buf)
		goto fail;
	/* The path from the filesystem's root, wherever it is mounted. */
	path = dentry_path_raw(file->f_path.dentry, buf, PATH_MAX);
	if (IS_ERR(path))
		goto fail;
	len = strlen(path) * 4;		/* each byte at most \ooo */
	p->path = kmalloc(len + 1, GFP_KERNEL);
	if (!p->path)
		goto fail;
	p->path[string_escape_str(path, p->path, len, ESCAPE_OCTAL, " \t\r\n\\")] = 0;
	__putname(buf);
	p->ino = inode->i_ino;
	p->pages = pages;
	list_add_tail(&p->list, &s->profile);
	return p;
fail:
	if (buf)
		__putname(buf);
	kfree(p);
	return NULL;
}

static vm_fault_t cramfs_xip_profile_fault(struct vm_fault *vmf)
{
	struct file *file = vmf->vma->vm_file;
	struct cramfs_xip_sysfs *s = CRAMFS_XIP_SB(file_inode(file)->i_sb)->sysfs;
	struct cramfs_xip_profile *p;

	mutex_lock(&s->lock);
	p = cramfs_xip_profile_entry(s, file);
	if (p && vmf->pgoff < p->pages)
		set_bit(vmf->pgoff, p->bits);
	mutex_unlock(&s->lock);
	return filemap_fault(vmf);
}

/* Every page touched faults: no fault-around, nothing mapped in place. */
static const struct vm_operations_struct cramfs_xip_profile_vm_ops = {
	.fault		= cramfs_xip_profile_fault,
};

/**
 * cramfs_xip_profile_mmap() - take an executable mapping while recording
 * @file: the file mapped
 * @vma: its new mapping, set up by generic_file_readonly_mmap()
 *
 * Return: true if the mapping is recorded: its pages then come from the
 * page cache; false if it is mapped as usual.
 */
bool cramfs_xip_profile_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (!READ_ONCE(xip_profile) || !(vma->vm_flags & VM_EXEC) ||
	    !CRAMFS_XIP_SB(file_inode(file)->i_sb)->sysfs)
		return false;
	vma->vm_ops = &cramfs_xip_profile_vm_ops;
	return true;
}

/*
 * xip_profile: the whole profile, made anew for each read (a reader that
 * takes it in pieces while recording goes on may see it change between
 * them). First line "page-size N", then a line per file.
 */
static ssize_t xip_profile_read(struct file *filp, struct kobject *kobj,
				struct bin_attribute *attr, char *out, loff_t off, size_t count)
{
	struct cramfs_xip_sysfs *s = container_of(kobj, struct cramfs_xip_sysfs, kobj);
	struct cramfs_xip_profile *p;
	size_t len, n = 0;
	ssize_t ret = 0;
	char *buf;

	mutex_lock(&s->lock);
	len = snprintf(NULL, 0, "page-size %lu\n", PAGE_SIZE) + 1;
	list_for_each_entry(p, &s->profile, list)
		len += snprintf(NULL, 0, "%s %*pbl\n", p->path, (int)p->pages, p->bits);
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	n = scnprintf(buf, len, "page-size %lu\n", PAGE_SIZE);
	list_for_each_entry(p, &s->profile, list)
		n += scnprintf(buf + n, len - n, "%s %*pbl\n", p->path, (int)p->pages, p->bits);
	if (off < n) {
		ret = min_t(size_t, count, n - off);
		memcpy(out, buf + off, ret);
	}
	kvfree(buf);
out:
	mutex_unlock(&s->lock);
	return ret;
}

/* Root only (it names the programs run); size 0: as long as the profile is. */
static struct bin_attribute bin_attr_xip_profile = __BIN_ATTR(xip_profile, 0400,
							      xip_profile_read, NULL, 0);

static void cramfs_xip_sysfs_release(struct kobject *kobj)
{
	struct cramfs_xip_sysfs *s = container_of(kobj, struct cramfs_xip_sysfs, kobj);
	struct cramfs_xip_profile *p, *n;

	list_for_each_entry_safe(p, n, &s->profile, list) {
		kfree(p->path);
		kfree(p);
	}
	kfree(s);
}

/* Not const: before 6.2, kobject_init_and_add() takes it without. */
static struct kobj_type cramfs_xip_ktype = {
	.sysfs_ops	= &kobj_sysfs_ops,
	.release	= cramfs_xip_sysfs_release,
};

/**
 * cramfs_xip_sysfs_add() - the mount's directory, /sys/fs/cramfs_xip/<s_id>
 * @sb: a superblock whose mount has succeeded
 *
 * A mount goes on without it (a second superblock with the same name, no
 * memory): it then has no profile, and says so.
 */
void cramfs_xip_sysfs_add(struct super_block *sb)
{
	struct cramfs_xip_sysfs *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int err = -ENOMEM;

	if (s) {
		mutex_init(&s->lock);
		INIT_LIST_HEAD(&s->profile);
		s->kobj.kset = cramfs_xip_kset;
		err = kobject_init_and_add(&s->kobj, &cramfs_xip_ktype, NULL, "%s", sb->s_id);
		if (!err) {
			err = sysfs_create_bin_file(&s->kobj, &bin_attr_xip_profile);
			if (err)
				kobject_del(&s->kobj);
		}
		if (err)
			kobject_put(&s->kobj);
		else
			CRAMFS_XIP_SB(sb)->sysfs = s;
	}
	if (err)
		pr_warn("(%s): no directory in /sys/fs/cramfs_xip (%d): no XIP profile\n",
			sb->s_id, err);
}

/**
 * cramfs_xip_sysfs_del() - remove the mount's directory, if it has one
 * @sb: the superblock, when it is shut down
 *
 * Once it is gone no one reads the profile, and no mapping records into it.
 */
void cramfs_xip_sysfs_del(struct super_block *sb)
{
	struct cramfs_xip_sysfs *s = CRAMFS_XIP_SB(sb)->sysfs;

	if (s) {
		kobject_del(&s->kobj);
		kobject_put(&s->kobj);
	}
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
