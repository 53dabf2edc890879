// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfs_xip: a directory per mount in /sys/fs/cramfs_xip/: its figures,
 * and the XIP profile.
 *
 * The figures, one value per file: pages read into the page cache
 * (decompressed, copied plain), mmaps served whole in place, in part, or
 * not at all, and in not_in_place/ each mmap whose pages are not all in
 * place, by the reason for the first of them; then the pages in place in
 * live mappings (whole, mixed), and the RAM they save: each image page in
 * place once, however many mappings share it, as the page cache would have
 * held it.
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
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/sort.h>
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
	struct cramfs_xip_sb_info *sbi;
	struct mutex lock;		/* the profile and the vmas */
	struct list_head profile;
	struct list_head vmas;		/* cramfs_xip_vmref: mappings with pages in place */
};

/*
 * What one mmap mapped in place: runs of file pages and the image pages
 * they lie in. The mapping's pieces and copies share it.
 */
struct cramfs_xip_live {
	refcount_t ref;
	struct cramfs_xip_sysfs *s;
	unsigned long pfn;		/* whole (remap_pfn_range): of its first page */
	unsigned int nruns, cap;
	struct {
		u32 pgoff, first, n;	/* file page, image page, pages */
	} runs[];
};

/*
 * A mapping (VMA) with pages in place, in the mount's list, through its
 * vm_private_data: its pieces after a split or mremap, and its copies in a
 * fork, are mappings of their own (vm_ops->open), each gone at its close.
 * What each maps is worked out from its range when the figures are read,
 * so that a partial munmap (the ELF loader's and ld.so's way) counts.
 */
struct cramfs_xip_vmref {
	struct list_head list;
	struct vm_area_struct *vma;
	struct cramfs_xip_live *live;
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
	if (!pages)
		return NULL;
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

	/*
	 * A mapping made while recording stays in the page cache when
	 * recording stops, but records no more. A fault past the file's end
	 * (SIGBUS) records nothing.
	 */
	if (READ_ONCE(xip_profile) &&
	    vmf->pgoff < DIV_ROUND_UP(i_size_read(file_inode(file)), PAGE_SIZE)) {
		mutex_lock(&s->lock);
		p = cramfs_xip_profile_entry(s, file);
		if (p && vmf->pgoff < p->pages)
			set_bit(vmf->pgoff, p->bits);
		mutex_unlock(&s->lock);
	}
	return filemap_fault(vmf);
}

/* Every page touched faults: no fault-around, nothing mapped in place. */
static const struct vm_operations_struct cramfs_xip_profile_vm_ops = {
	.fault		= cramfs_xip_profile_fault,
};

/**
 * cramfs_xip_live_new() - a record of what a new mapping maps in place
 * @sb: the mount
 * @runs: the most runs of pages it will hold
 *
 * Return: the record, or NULL (no figures for this mount, or no memory:
 * the mapping is then not counted).
 */
struct cramfs_xip_live *cramfs_xip_live_new(struct super_block *sb, unsigned long runs)
{
	struct cramfs_xip_sysfs *s = CRAMFS_XIP_SB(sb)->sysfs;
	struct cramfs_xip_live *l;

	if (!s || runs > UINT_MAX)
		return NULL;
	l = kvzalloc(struct_size(l, runs, runs), GFP_KERNEL);
	if (l) {
		refcount_set(&l->ref, 1);
		l->s = s;
		l->cap = runs;
	}
	return l;
}

/**
 * cramfs_xip_live_add() - more pages in place
 * @l: the record (or NULL)
 * @pgoff: the file page of the first
 * @offset: where it lies in the image
 * @pages: how many, one after the other in the file and in the image
 */
void cramfs_xip_live_add(struct cramfs_xip_live *l, pgoff_t pgoff, u32 offset,
			 unsigned long pages)
{
	u32 first = offset >> PAGE_SHIFT;

	if (!l || !pages)
		return;
	if (l->nruns && l->runs[l->nruns - 1].pgoff + l->runs[l->nruns - 1].n == pgoff &&
	    l->runs[l->nruns - 1].first + l->runs[l->nruns - 1].n == first) {
		l->runs[l->nruns - 1].n += pages;
	} else if (!WARN_ON_ONCE(l->nruns == l->cap)) {
		l->runs[l->nruns].pgoff = pgoff;
		l->runs[l->nruns].first = first;
		l->runs[l->nruns++].n = pages;
	}
}

/**
 * cramfs_xip_live_free() - drop a record that never reached a mapping
 * @l: the record (or NULL)
 */
void cramfs_xip_live_free(struct cramfs_xip_live *l)
{
	kvfree(l);
}

static void cramfs_xip_live_put(struct cramfs_xip_live *l)
{
	if (refcount_dec_and_test(&l->ref))
		kvfree(l);
}

/* @vma maps pages of @l in place: list it. False without memory. */
static bool cramfs_xip_vmref_add(struct vm_area_struct *vma, struct cramfs_xip_live *l)
{
	struct cramfs_xip_vmref *v = kmalloc(sizeof(*v), GFP_KERNEL);

	vma->vm_private_data = v;
	if (!v)
		return false;
	v->vma = vma;
	v->live = l;
	mutex_lock(&l->s->lock);
	list_add(&v->list, &l->s->vmas);
	mutex_unlock(&l->s->lock);
	return true;
}

/* A piece of a split or moved mapping, or a copy in a fork (NULL: not counted). */
static void cramfs_xip_live_open(struct vm_area_struct *vma)
{
	struct cramfs_xip_vmref *from = vma->vm_private_data;

	if (!from)
		return;
	refcount_inc(&from->live->ref);
	if (!cramfs_xip_vmref_add(vma, from->live))
		cramfs_xip_live_put(from->live);
}

static void cramfs_xip_live_close(struct vm_area_struct *vma)
{
	struct cramfs_xip_vmref *v = vma->vm_private_data;

	if (!v)
		return;
	mutex_lock(&v->live->s->lock);
	list_del(&v->list);
	mutex_unlock(&v->live->s->lock);
	cramfs_xip_live_put(v->live);
	kfree(v);
}

/* A mapping with pages in place: the page cache's, plus the record. */
static const struct vm_operations_struct cramfs_xip_live_vm_ops = {
	.open		= cramfs_xip_live_open,
	.close		= cramfs_xip_live_close,
	.fault		= filemap_fault,
	.map_pages	= filemap_map_pages,
};

/**
 * cramfs_xip_live_start() - count a mapping's pages in place while it lives
 * @vma: the mapping, set up (cramfs_xip_mmap() succeeded)
 * @l: its record (or NULL)
 */
void cramfs_xip_live_start(struct vm_area_struct *vma, struct cramfs_xip_live *l)
{
	if (!l)
		return;
	if (l->nruns)
		l->pfn = (l->s->sbi->phys >> PAGE_SHIFT) + l->runs[0].first;
	if (!l->nruns || !cramfs_xip_vmref_add(vma, l)) {
		kvfree(l);
		return;
	}
	vma->vm_ops = &cramfs_xip_live_vm_ops;
}

/* One run of image pages in place in one mapping, for the RAM saved. */
struct cramfs_xip_span {
	u32 first, n;
};

static int cramfs_xip_cmp_span(const void *a, const void *b)
{
	const struct cramfs_xip_span *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * The image pages @v maps in place now: at most @v's runs of them, into
 * @out; returns how many, and adds the pages to *@pages. The mapping may
 * change meanwhile (its mm's lock is not ours): its fields are read once.
 * A whole mapping (remap_pfn_range) is one run; a private one has its
 * physical page number in vm_pgoff.
 */
static unsigned int cramfs_xip_vmref_spans(struct cramfs_xip_vmref *v, unsigned long flags,
					   struct cramfs_xip_span *out, unsigned long *pages)
{
	struct cramfs_xip_live *l = v->live;
	unsigned long start = READ_ONCE(v->vma->vm_pgoff);
	unsigned long len = (READ_ONCE(v->vma->vm_end) - READ_ONCE(v->vma->vm_start)) >> PAGE_SHIFT;
	unsigned long a, b;
	unsigned int i, n = 0;

	if ((flags & VM_PFNMAP) && (flags & (VM_SHARED | VM_MAYWRITE)) == VM_MAYWRITE)
		start = start - l->pfn + l->runs[0].pgoff;
	for (i = 0; i < l->nruns; i++) {
		a = max_t(unsigned long, start, l->runs[i].pgoff);
		b = min_t(unsigned long, start + len, l->runs[i].pgoff + l->runs[i].n);
		if (a >= b)
			continue;
		*pages += b - a;
		out[n].first = l->runs[i].first + (a - l->runs[i].pgoff);
		out[n++].n = b - a;
	}
	return n;
}

/*
 * The figures of what is in place now: pages in whole and in mixed
 * mappings, each mapping counted; and the kB of RAM they save, each image
 * page once.
 */
static int cramfs_xip_live_figures(struct cramfs_xip_sysfs *s, unsigned long *whole,
				   unsigned long *mixed, unsigned long *saved_kb)
{
	struct cramfs_xip_span *spans;
	struct cramfs_xip_vmref *v;
	unsigned long cap = 0, n = 0, i, pages = 0, flags;
	u64 end = 0;

	*whole = *mixed = 0;
	mutex_lock(&s->lock);
	/* Each mapping gives at most its record's runs, which never change. */
	list_for_each_entry(v, &s->vmas, list)
		cap += v->live->nruns;
	spans = kvmalloc_array(max(cap, 1UL), sizeof(*spans), GFP_KERNEL);
	if (!spans) {
		mutex_unlock(&s->lock);
		return -ENOMEM;
	}
	list_for_each_entry(v, &s->vmas, list) {
		flags = READ_ONCE(v->vma->vm_flags);
		n += cramfs_xip_vmref_spans(v, flags, spans + n, flags & VM_PFNMAP ? whole : mixed);
	}
	mutex_unlock(&s->lock);
	sort(spans, n, sizeof(*spans), cramfs_xip_cmp_span, NULL);
	for (i = 0; i < n; i++) {
		u64 first = max_t(u64, spans[i].first, end);

		end = max_t(u64, end, (u64)spans[i].first + spans[i].n);
		pages += end > first ? end - first : 0;
	}
	kvfree(spans);
	*saved_kb = pages << (PAGE_SHIFT - 10);
	return 0;
}

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
	struct cramfs_xip_sb_info *sbi = CRAMFS_XIP_SB(file_inode(file)->i_sb);

	if (!READ_ONCE(xip_profile) || !(vma->vm_flags & VM_EXEC) || !sbi->sysfs)
		return false;
	vma->vm_ops = &cramfs_xip_profile_vm_ops;
	cramfs_xip_count(sbi, CRAMFS_XIP_MMAP_PAGE_CACHE, 1);
	cramfs_xip_count(sbi, CRAMFS_XIP_WHY_RECORDING, 1);
	return true;
}

/*
 * xip_profile: the whole profile, made anew for each read (a reader that
 * takes it in pieces while recording goes on may see it change between
 * them). First line "page-size N", then a line per file.
 */
static ssize_t xip_profile_read(struct file *filp, struct kobject *kobj,
				CRAMFS_XIP_COMPAT_BIN_ATTR_CONST struct bin_attribute *attr,
				char *out, loff_t off, size_t count)
{
	struct cramfs_xip_sysfs *s = container_of(kobj, struct cramfs_xip_sysfs, kobj);
	struct cramfs_xip_profile *p;
	size_t len, n = 0;
	ssize_t ret = 0;
	char *buf;

	mutex_lock(&s->lock);
	len = snprintf(NULL, 0, "page-size %lu\n", PAGE_SIZE) + 1;
	list_for_each_entry(p, &s->profile, list)
		if (!bitmap_empty(p->bits, p->pages))
			len += snprintf(NULL, 0, "%s %*pbl\n", p->path, (int)p->pages, p->bits);
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	n = scnprintf(buf, len, "page-size %lu\n", PAGE_SIZE);
	list_for_each_entry(p, &s->profile, list)
		if (!bitmap_empty(p->bits, p->pages))
			n += scnprintf(buf + n, len - n, "%s %*pbl\n", p->path, (int)p->pages,
				       p->bits);
	if (off < n) {
		ret = min_t(size_t, count, n - off);
		memcpy(out, buf + off, ret);
	}
	kvfree(buf);
out:
	mutex_unlock(&s->lock);
	return ret;
}

/*
 * One figure: a count (struct cramfs_xip_stat), or worked out when read:
 * CRAMFS_XIP_LIVE_WHOLE, _MIXED, and CRAMFS_XIP_LIVE_SAVED.
 */
struct cramfs_xip_attr {
	struct attribute attr;
	enum cramfs_xip_stat stat;
};

static ssize_t cramfs_xip_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct cramfs_xip_sysfs *s = container_of(kobj, struct cramfs_xip_sysfs, kobj);
	enum cramfs_xip_stat stat = container_of(attr, struct cramfs_xip_attr, attr)->stat;

	unsigned long live[3];
	int err;

	if (stat >= CRAMFS_XIP_LIVE_WHOLE) {
		err = cramfs_xip_live_figures(s, &live[0], &live[1], &live[2]);
		if (err)
			return err;
		return cramfs_xip_compat_sysfs_emit(buf, "%lu\n",
						    live[stat - CRAMFS_XIP_LIVE_WHOLE]);
	}
	return cramfs_xip_compat_sysfs_emit(buf, "%ld\n", atomic_long_read(&s->sbi->stats[stat]));
}

static const struct sysfs_ops cramfs_xip_sysfs_ops = {
	.show	= cramfs_xip_attr_show,
};

#define CRAMFS_XIP_ATTR(_name, _stat)						\
	static struct cramfs_xip_attr cramfs_xip_attr_##_name = {		\
		.attr = { .name = #_name, .mode = 0444 },			\
		.stat = _stat,							\
	}

CRAMFS_XIP_ATTR(pages_decompressed, CRAMFS_XIP_DECOMPRESSED);
CRAMFS_XIP_ATTR(pages_copied, CRAMFS_XIP_COPIED);
CRAMFS_XIP_ATTR(mmaps_in_place, CRAMFS_XIP_MMAP_WHOLE);
CRAMFS_XIP_ATTR(mmaps_mixed, CRAMFS_XIP_MMAP_MIXED);
CRAMFS_XIP_ATTR(mmaps_page_cache, CRAMFS_XIP_MMAP_PAGE_CACHE);
CRAMFS_XIP_ATTR(xip_pages_whole, CRAMFS_XIP_LIVE_WHOLE);
CRAMFS_XIP_ATTR(xip_pages_mixed, CRAMFS_XIP_LIVE_MIXED);
CRAMFS_XIP_ATTR(xip_saved_kb, CRAMFS_XIP_LIVE_SAVED);
CRAMFS_XIP_ATTR(compressed, CRAMFS_XIP_WHY_COMPRESSED);
CRAMFS_XIP_ATTR(hole, CRAMFS_XIP_WHY_HOLE);
CRAMFS_XIP_ATTR(unaligned, CRAMFS_XIP_WHY_UNALIGNED);
CRAMFS_XIP_ATTR(tail_not_zero, CRAMFS_XIP_WHY_TAIL);
CRAMFS_XIP_ATTR(past_image, CRAMFS_XIP_WHY_PAST_IMAGE);
CRAMFS_XIP_ATTR(medium, CRAMFS_XIP_WHY_MEDIUM);
CRAMFS_XIP_ATTR(recording, CRAMFS_XIP_WHY_RECORDING);

static struct attribute *cramfs_xip_attrs[] = {
	&cramfs_xip_attr_pages_decompressed.attr,
	&cramfs_xip_attr_pages_copied.attr,
	&cramfs_xip_attr_mmaps_in_place.attr,
	&cramfs_xip_attr_mmaps_mixed.attr,
	&cramfs_xip_attr_mmaps_page_cache.attr,
	&cramfs_xip_attr_xip_pages_whole.attr,
	&cramfs_xip_attr_xip_pages_mixed.attr,
	&cramfs_xip_attr_xip_saved_kb.attr,
	NULL,
};

static struct attribute *cramfs_xip_why_attrs[] = {
	&cramfs_xip_attr_compressed.attr,
	&cramfs_xip_attr_hole.attr,
	&cramfs_xip_attr_unaligned.attr,
	&cramfs_xip_attr_tail_not_zero.attr,
	&cramfs_xip_attr_past_image.attr,
	&cramfs_xip_attr_medium.attr,
	&cramfs_xip_attr_recording.attr,
	NULL,
};

static const struct attribute_group cramfs_xip_group = {
	.attrs = cramfs_xip_attrs,
};

static const struct attribute_group cramfs_xip_why_group = {
	.name = "not_in_place",
	.attrs = cramfs_xip_why_attrs,
};

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
	.sysfs_ops	= &cramfs_xip_sysfs_ops,
	.release	= cramfs_xip_sysfs_release,
};

/*
 * Add @s as @id, or, when a mount of the same source has that name (the
 * same physaddr= mounted twice, two MTDs of one name), as @id.1, @id.2 ...
 * (kobject_add() of a name in use would warn with a stack trace).
 */
static int cramfs_xip_sysfs_name(struct cramfs_xip_sysfs *s, const char *id)
{
	static DEFINE_MUTEX(names);
	struct kobject *other;
	char name[sizeof(((struct super_block *)0)->s_id) + 8];
	int i, err = -EEXIST;

	mutex_lock(&names);
	for (i = 0; i < 100; i++) {
		if (i)
			snprintf(name, sizeof(name), "%s.%d", id, i);
		else
			strscpy(name, id, sizeof(name));
		/* As kobject_set_name() names it. */
		strreplace(name, '/', '!');
		other = kset_find_obj(cramfs_xip_kset, name);
		if (!other)
			break;
		kobject_put(other);
	}
	/* A kobject that is initialised is put by the caller, added or not. */
	kobject_init(&s->kobj, &cramfs_xip_ktype);
	if (i < 100)
		err = kobject_add(&s->kobj, NULL, "%s", name);
	mutex_unlock(&names);
	return err;
}

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
		INIT_LIST_HEAD(&s->vmas);
		s->sbi = CRAMFS_XIP_SB(sb);
		s->kobj.kset = cramfs_xip_kset;
		err = cramfs_xip_sysfs_name(s, sb->s_id);
		if (!err) {
			err = sysfs_create_group(&s->kobj, &cramfs_xip_group) ?:
			      sysfs_create_group(&s->kobj, &cramfs_xip_why_group) ?:
			      sysfs_create_bin_file(&s->kobj, &bin_attr_xip_profile);
			if (err)
				kobject_del(&s->kobj);
		}
		if (err)
			kobject_put(&s->kobj);
		else
			CRAMFS_XIP_SB(sb)->sysfs = s;
	}
	if (err)
		pr_warn("(%s): no directory in /sys/fs/cramfs_xip (%d): no figures, no XIP profile\n",
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
		CRAMFS_XIP_SB(sb)->sysfs = NULL;
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
