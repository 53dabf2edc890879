// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcramfs: the tree to store, read from the host: entries sorted as the
 * format wants, owners cut to its widths, device numbers encoded.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "mkcramfs.h"

/* Owners wider than the format: one warning each for uids and gids, at the end. */
struct truncated {
	const char *what;
	unsigned int bits;
	uint32_t first;
	const char *first_path;
	unsigned int count;
};

static struct truncated wide_uids = { .what = "uid", .bits = CRAMFS_XIP_UID_WIDTH };
static struct truncated wide_gids = { .what = "gid", .bits = CRAMFS_XIP_GID_WIDTH };

/*
 * The first @len bytes of @path; with @whole, all of it, which the scan
 * found @len long: a file that grew or shrank since is an error, not a
 * prefix stored as if it were the file.
 */
void read_into(const char *path, uint8_t *buf, size_t len, int whole)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		die("%s: %s", path, strerror(errno));
	if ((len && fread(buf, 1, len, f) != len) || (whole && fgetc(f) != EOF))
		die("%s: changed while mkcramfs read it (it was %zu bytes)", path, len);
	fclose(f);
}

uint8_t *read_whole(const char *path, uint32_t size, int whole)
{
	uint8_t *buf = xzalloc(size);

	read_into(path, buf, size, whole);
	return buf;
}

/* A file's or symlink's data, malloc'd. */
uint8_t *entry_data(const struct entry *e)
{
	uint8_t *buf;

	if (S_ISREG(e->mode))
		return read_whole(e->src, e->size, 1);
	buf = xzalloc(e->size);
	memcpy(buf, e->data, e->size);
	return buf;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp((*(struct entry * const *)a)->name, (*(struct entry * const *)b)->name);
}

/* Keep a directory's children sorted as strcmp() orders names: the format's SORTED_DIRS. */
static void sort_children(struct entry *dir)
{
	struct entry **v, *e;
	size_t n = 0, i;

	for (e = dir->child; e; e = e->next)
		n++;
	if (n < 2)
		return;
	v = xzalloc(n * sizeof(*v));
	for (i = 0, e = dir->child; e; e = e->next)
		v[i++] = e;
	qsort(v, n, sizeof(*v), entry_cmp);
	for (i = 0; i + 1 < n; i++)
		v[i]->next = v[i + 1];
	v[n - 1]->next = NULL;
	dir->child = v[0];
	free(v);
}

/* The newest child (new_entry() puts it first) moved to its place among sorted siblings. */
void place_newest(struct entry *dir)
{
	struct entry *e = dir->child, **p;

	dir->child = e->next;
	for (p = &dir->child; *p && strcmp((*p)->name, e->name) < 0; p = &(*p)->next)
		;
	e->next = *p;
	*p = e;
}

static uint32_t truncate_id(struct truncated *t, const struct entry *e, uint32_t id)
{
	uint32_t mask = (1U << t->bits) - 1;

	if (id <= mask)
		return id;
	if (!t->count++) {
		t->first = id;
		t->first_path = e->ipath;
	}
	return id & mask;
}

static void set_owner(struct entry *e, uint32_t uid, uint32_t gid)
{
	if (opt.squash)
		uid = gid = 0;
	e->uid = uid;
	e->gid = gid;
}

/*
 * Owners are cut to the format's widths once the device table has set its
 * own: a warning names an owner that is stored, not one the table replaced.
 */
static void truncate_owners(struct entry *e)
{
	e->uid = truncate_id(&wide_uids, e, e->uid);
	e->gid = truncate_id(&wide_gids, e, e->gid);
	if (S_ISDIR(e->mode))
		for (e = e->child; e; e = e->next)
			truncate_owners(e);
}

static void warn_truncated(const struct truncated *t)
{
	uint32_t mask = (1U << t->bits) - 1;

	if (!t->count)
		return;
	if (t->count == 1)
		warn("%s: %s %u does not fit in %u bits: stored as %u", t->first_path, t->what,
		     t->first, t->bits, t->first & mask);
	else
		warn("%s: %s %u does not fit in %u bits: stored as %u; %u more entries' %ss truncated the same way",
		     t->first_path, t->what, t->first, t->bits, t->first & mask, t->count - 1,
		     t->what);
}

void finish_owners(struct entry *root)
{
	truncate_owners(root);
	warn_truncated(&wide_uids);
	warn_truncated(&wide_gids);
}

/*
 * The kernel decodes the 24-bit size field as an old 8:8 device number. One
 * warning per device table line: @count is how many devices the line
 * makes, @first says this is the line's first.
 */
uint32_t encode_dev(const char *ipath, unsigned int maj, unsigned int min,
			   unsigned int count, int first)
{
	static int warned;

	if (first)
		warned = 0;
	if ((maj > 255 || min > 255) && !warned++) {
		if (count > 1)
			warn("%s: device %u:%u does not fit the format's 8-bit major and minor (one warning for the %u devices of its line)",
			     ipath, maj, min, count);
		else
			warn("%s: device %u:%u does not fit the format's 8-bit major and minor",
			     ipath, maj, min);
	}
	return (maj & 0xff) << 8 | (min & 0xff);
}

struct entry *new_entry(struct entry *parent, const char *name)
{
	struct entry *e = xzalloc(sizeof(*e));
	size_t len = strlen(name);

	if (len > CRAMFS_XIP_MAXPATHLEN)
		die("%s%s%s: name of %zu bytes is longer than the format's %d", parent->ipath,
		    strcmp(parent->ipath, "/") ? "/" : "", name,
		    len, CRAMFS_XIP_MAXPATHLEN);
	e->name = strdup(name);
	e->ipath = strcmp(parent->ipath, "/") ? xasprintf("%s/%s", parent->ipath, name) :
						 xasprintf("/%s", name);
	e->next = parent->child;
	parent->child = e;
	return e;
}

static void fill_from_stat(struct entry *e, const char *src, const struct stat *st)
{
	e->mode = st->st_mode;
	set_owner(e, st->st_uid, st->st_gid);
	if (S_ISREG(st->st_mode)) {
		if (st->st_size > CRAMFS_XIP_MAX_FILE_SIZE)
			die("%s: %lld bytes is larger than the format's file limit of %u bytes (16 MiB - 1)",
			    e->ipath, (long long)st->st_size, CRAMFS_XIP_MAX_FILE_SIZE);
		e->size = st->st_size;
		stats.files++;
	} else if (S_ISLNK(st->st_mode)) {
		char buf[CRAMFS_XIP_BLOCK_SIZE];
		ssize_t n = readlink(src, buf, sizeof(buf));

		if (n < 0)
			die("%s: %s", src, strerror(errno));
		if ((size_t)n >= opt.blksize)
			die("%s: symlink target longer than a block", e->ipath);
		e->size = n;
		e->data = xzalloc(n);
		memcpy(e->data, buf, n);
		stats.links++;
	} else if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) {
		e->size = encode_dev(e->ipath, major(st->st_rdev), minor(st->st_rdev), 1, 1);
		stats.special++;
	} else if (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode)) {
		stats.special++;
	} else if (!S_ISDIR(st->st_mode)) {
		die("%s: unsupported file type", e->ipath);
	}
}

static void scan_dir(struct entry *dir, const char *src)
{
	DIR *d = opendir(src);
	struct dirent *de;

	if (!d)
		die("%s: %s", src, strerror(errno));
	while ((de = readdir(d))) {
		struct stat st;
		struct entry *e;
		char *path;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", src, de->d_name);
		if (lstat(path, &st))
			die("%s: %s", path, strerror(errno));
		e = new_entry(dir, de->d_name);
		e->src = path;
		fill_from_stat(e, path, &st);
		if (S_ISDIR(st.st_mode)) {
			stats.dirs++;
			scan_dir(e, path);
		}
	}
	closedir(d);
	sort_children(dir);
}

void scan_tree(struct entry *root, char *src)
{
	struct stat st;
	size_t n;

	if (stat(src, &st))
		die("%s: %s", src, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die("%s: not a directory", src);
	root->mode = st.st_mode;
	set_owner(root, st.st_uid, st.st_gid);
	/* "tree/" as "tree": no doubled slash in the paths messages name. */
	for (n = strlen(src); n > 1 && src[n - 1] == '/'; n--)
		src[n - 1] = 0;
	scan_dir(root, src);
}

/* The entry at @path ("/" is @root itself), or NULL; missing directories made on request. */
struct entry *lookup(struct entry *root, const char *path, int create_dirs)
{
	char *copy = strdup(path), *tok, *save;
	struct entry *cur = root, *e;

	for (tok = strtok_r(copy, "/", &save); tok && cur; tok = strtok_r(NULL, "/", &save)) {
		if (!S_ISDIR(cur->mode)) {
			cur = NULL;
			break;
		}
		for (e = cur->child; e && strcmp(e->name, tok); e = e->next)
			;
		if (!e && create_dirs) {
			e = new_entry(cur, tok);
			e->mode = S_IFDIR | 0755;
			stats.dirs++;
			place_newest(cur);
		}
		cur = e;
	}
	free(copy);
	return cur;
}


void list_entries(struct entry *dir)
{
	struct entry *e;

	for (e = dir->child; e; e = e->next) {
		printf("  %06o %5u %3u %8u %s%s%s\n", e->mode, e->uid, e->gid, e->size, e->ipath,
		       e->nxip ? " (xip)" : "", e->same ? " (shared)" : "");
		if (S_ISDIR(e->mode))
			list_entries(e);
	}
}
