// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcramfs: build a cramfs image, optionally laid out for execute-in-place.
 *
 * Without -X the output is the standard format, byte for byte what
 * util-linux mkfs.cramfs writes for the same tree. With -X, the pages of
 * every read-only ELF segment (and of whole files chosen by rules or the
 * sticky bit) are stored plain and page-aligned in one region at the end of
 * the image, addressed by direct block pointers, so the kernel can map them
 * straight from flash; everything else stays compressed.
 *
 * Documentation/mkcramfs.8 is the manual.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <zlib.h>
#include "image.h"

struct entry {
	char *name;
	char *src;		/* host path, or NULL for table-made entries */
	char *ipath;		/* path in the image, for messages and rules */
	uint32_t mode, uid, gid;
	uint32_t size;		/* file size, directory size, or device number */
	uint8_t *data;		/* symlink target; a file's content is read when written */
	uint32_t crc;		/* of the data, once written: finds identical files */
	uint8_t *xip;		/* per block: stored for execute in place */
	uint32_t nxip;
	struct entry *child, *next;
	struct entry *same;	/* identical data already written */
	struct entry *next_seen;	/* in its bucket of written data */
	uint32_t entry_off, data_off;
};

static struct {
	unsigned int blksize;
	int big;
	uint32_t edition;
	const char *name;
	const char *image;	/* -i */
	int pad, holes, verbose, xip;
	int ext;		/* -x: extended block pointers, without -X */
	int squash;		/* -q: every entry root's */
	int errors;		/* -E: warnings make the exit status 8 */
	uint32_t xip_align;	/* 0: the block size */
	int level;
	const char *rules;
	const char *profile;
	const char *devtable;
} opt = { .blksize = CRAMFS_XIP_BLOCK_SIZE, .level = Z_BEST_COMPRESSION };

static struct {
	uint32_t files, dirs, links, special, nodes, blocks;
	uint64_t in_bytes, zlib_bytes, xip_pages, padding, plain_blocks;
	unsigned int warnings;
} stats;

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

struct rule {
	int xip;
	char *glob;
};

static struct rule *rules;
static size_t nrules;

/* --xip-profile: the pages of one file to store in place. */
struct profiled {
	char *path;
	uint32_t *ranges;	/* first and last page, in pairs; NULL: the whole file */
	size_t nranges;
	int used;
};

static struct profiled *profile;
static size_t nprofile;

/*
 * The image is built in an anonymous mapping reserved up front: pages are
 * zero until written and only written pages take RAM, so the peak is the
 * image itself (plus one file), with no copy when it grows.
 */
static uint8_t *img;
static size_t img_len, img_cap;

#define EXIT_ERROR	8
#define EXIT_USAGE	16

static __printf(2, 3) __noreturn void die_with(int status, const char *fmt, ...);
static void die_with(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("mkcramfs: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(status);
}

#define die(...)	die_with(EXIT_ERROR, __VA_ARGS__)
#define usage_error(...)	die_with(EXIT_USAGE, __VA_ARGS__)

static __printf(1, 2) void warn(const char *fmt, ...);
static void warn(const char *fmt, ...)
{
	va_list ap;

	stats.warnings++;
	va_start(ap, fmt);
	fputs("mkcramfs: warning: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void *xzalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static __printf(1, 2) char *xasprintf(const char *fmt, ...);
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return s;
}

static void reserve_image(void)
{
	/* All the format can address; less where the address space is small. */
	size_t cap = (size_t)-1 > UINT32_MAX ? (size_t)UINT32_MAX + 1 : (size_t)1 << 30;

	for (; cap >= (size_t)64 << 20; cap /= 2) {
		img = mmap(NULL, cap, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (img != MAP_FAILED) {
			img_cap = cap;
			return;
		}
	}
	die("cannot reserve address space for the image: %s", strerror(errno));
}

/* Make [off, off + len) part of the image; it reads as zeros until written. */
static uint8_t *at(size_t off, size_t len)
{
	if (off > UINT32_MAX || len > UINT32_MAX - off)
		die("image too large: over 4 GiB");
	if (off + len > img_cap)
		die("image too large: over the %zu MiB this host can hold", img_cap >> 20);
	if (off + len > img_len)
		img_len = off + len;
	return img + off;
}

static void put32(uint32_t off, uint32_t v)
{
	cramfs_xip_put32(at(off, 4), v, opt.big);
}

static uint32_t align(uint32_t v, uint32_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* The first @len bytes of a file into @buf (which has room). */
/*
 * The first @len bytes of @path; with @whole, all of it, which the scan
 * found @len long: a file that grew or shrank since is an error, not a
 * prefix stored as if it were the file.
 */
static void read_into(const char *path, uint8_t *buf, size_t len, int whole)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		die("%s: %s", path, strerror(errno));
	if ((len && fread(buf, 1, len, f) != len) || (whole && fgetc(f) != EOF))
		die("%s: changed while mkcramfs read it (it was %zu bytes)", path, len);
	fclose(f);
}

static uint8_t *read_whole(const char *path, uint32_t size, int whole)
{
	uint8_t *buf = xzalloc(size);

	read_into(path, buf, size, whole);
	return buf;
}

/* A file's or symlink's data, malloc'd. */
static uint8_t *entry_data(const struct entry *e)
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
static void place_newest(struct entry *dir)
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

/*
 * The kernel decodes the 24-bit size field as an old 8:8 device number. One
 * warning per device table line: @count is how many devices the line
 * makes, @first says this is the line's first.
 */
static uint32_t encode_dev(const char *ipath, unsigned int maj, unsigned int min,
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

static struct entry *new_entry(struct entry *parent, const char *name)
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

/* The entry at @path ("/" is @root itself), or NULL; missing directories made on request. */
static struct entry *lookup(struct entry *root, const char *path, int create_dirs)
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

/* A number field of a table line, or death with the line's number. */
static unsigned int table_number(const char *file, unsigned int lineno, const char *what,
				 const char *s, uint32_t min, uint32_t max)
{
	uint32_t v;

	if (cimg_parse_u32(s, min, max, &v))
		die("%s:%u: %s '%s' is not a number from %u to %u", file, lineno, what, s, min,
		    max);
	return v;
}

/* A table path names entries inside the tree: no '.' or '..' components. */
static void table_path(const char *file, unsigned int lineno, const char *path)
{
	const char *p = path;

	while (*p) {
		size_t len = strcspn(p, "/");

		if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
			die("%s:%u: %s: a '%.*s' component", file, lineno, path, (int)len, p);
		p += len + strspn(p + len, "/");
	}
}

/* A makedevs / genext2fs -D table: name type mode uid gid major minor start inc count. */
static void apply_devtable(struct entry *root, const char *file)
{
	FILE *f = fopen(file, "r");
	char line[1024];
	unsigned int lineno = 0;

	if (!f)
		die("%s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char name[512], type, maj_s[16], min_s[16], start_s[16], inc_s[16], cnt_s[16];
		unsigned int mode, uid, gid, count = 1, start = 0, inc = 1, maj = 0, min = 0, i;
		char *parent, *base;
		struct entry *e, *dir;
		int n;

		lineno++;
		if (line[strspn(line, " \t")] == '#' || line[strspn(line, " \t\r\n")] == 0)
			continue;
		n = sscanf(line, "%511s %c %o %u %u %15s %15s %15s %15s %15s", name, &type, &mode,
			   &uid, &gid, maj_s, min_s, start_s, inc_s, cnt_s);
		if (n != 10 || name[0] != '/')
			die("%s:%u: expected: /path type mode uid gid major minor start inc count",
			    file, lineno);
		table_path(file, lineno, name);
		if (type == 'c' || type == 'b') {
			maj = table_number(file, lineno, "major", maj_s, 0, UINT32_MAX);
			min = table_number(file, lineno, "minor", min_s, 0, UINT32_MAX);
		}
		if (strcmp(cnt_s, "-")) {
			count = table_number(file, lineno, "count", cnt_s, 1, 65536);
			start = table_number(file, lineno, "start", start_s, 0, UINT32_MAX);
			inc = table_number(file, lineno, "inc", inc_s, 0, UINT32_MAX);
		}
		for (i = 0; i < count; i++) {
			char *path = strcmp(cnt_s, "-") ? xasprintf("%s%u", name, start + i) :
							   strdup(name);

			if (type == 'd' || type == 'f') {
				e = lookup(root, path, type == 'd');
				if (!e)
					die("%s:%u: %s is not in the tree", file, lineno, path);
				if (type == 'd' && !S_ISDIR(e->mode))
					die("%s:%u: %s is not a directory", file, lineno, path);
				if (type == 'f' && !S_ISREG(e->mode))
					die("%s:%u: %s is not a regular file", file, lineno, path);
				e->mode = (e->mode & S_IFMT) | (mode & 07777);
			} else if (type == 'c' || type == 'b' || type == 'p') {
				parent = strdup(path);
				base = strrchr(parent, '/');
				*base++ = 0;
				if (!*base)
					die("%s:%u: %s: no name after the last '/'", file, lineno, path);
				dir = *parent ? lookup(root, parent, 1) : root;
				if (!dir || !S_ISDIR(dir->mode))
					die("%s:%u: %s is not a directory", file, lineno, parent);
				e = lookup(dir, base, 0);
				if (e && S_ISDIR(e->mode))
					die("%s:%u: %s is a directory", file, lineno, path);
				if (e && !S_ISCHR(e->mode) && !S_ISBLK(e->mode) && !S_ISFIFO(e->mode))
					die("%s:%u: %s is a %s in the tree: a device line cannot replace it",
					    file, lineno, path, S_ISLNK(e->mode) ? "symlink" : "file");
				if (!e) {
					e = new_entry(dir, base);
					place_newest(dir);
					stats.special++;
				}
				e->mode = (type == 'c' ? S_IFCHR : type == 'b' ? S_IFBLK : S_IFIFO) |
					  (mode & 07777);
				e->size = type == 'p' ? 0 : encode_dev(e->ipath, maj, min + i * inc,
								    count, !i);
				free(parent);
			} else {
				die("%s:%u: unknown type '%c'", file, lineno, type);
			}
			/* -q squashes the tree's owners, not the table's. */
			e->uid = uid;
			e->gid = gid;
			free(path);
		}
	}
	fclose(f);
}

static void load_rules(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[1024], word[16], glob[1000];
	unsigned int lineno = 0;

	if (!f)
		die("%s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[strspn(line, " \t")] == '#' || line[strspn(line, " \t\r\n")] == 0)
			continue;
		if (sscanf(line, "%15s %999s", word, glob) != 2 ||
		    (strcmp(word, "xip") && strcmp(word, "noxip")))
			die("%s:%u: expected 'xip GLOB' or 'noxip GLOB'", file, lineno);
		rules = realloc(rules, (nrules + 1) * sizeof(*rules));
		rules[nrules].xip = !strcmp(word, "xip");
		rules[nrules++].glob = strdup(glob);
	}
	fclose(f);
}

/* Undo the kernel's octal escapes (\\ooo) of a profile's path, in place. */
static int unescape_path(char *p)
{
	char *o = p;

	for (; *p; p++) {
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		if (p[1] < '0' || p[1] > '3' || p[2] < '0' || p[2] > '7' || p[3] < '0' || p[3] > '7')
			return -1;
		*o = (p[1] - '0') << 6 | (p[2] - '0') << 3 | (p[3] - '0');
		if (!*o++)
			return -1;	/* a NUL would cut the path short */
		p += 3;
	}
	*o = 0;
	return 0;
}

/* "all", or page ranges "0-12,15": 0 or -1 for bad text. */
static int parse_pages(struct profiled *f, const char *spec)
{
	unsigned long a, b;
	char *end;

	if (!strcmp(spec, "all"))
		return 0;
	for (;;) {
		if (*spec < '0' || *spec > '9')
			return -1;
		errno = 0;
		a = b = strtoul(spec, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -1;
			b = strtoul(end + 1, &end, 10);
		}
		if ((*end && *end != ',') || errno || b < a || b > UINT32_MAX)
			return -1;
		f->ranges = realloc(f->ranges, (f->nranges + 1) * 2 * sizeof(*f->ranges));
		if (!f->ranges)
			die("out of memory");
		f->ranges[2 * f->nranges] = a;
		f->ranges[2 * f->nranges++ + 1] = b;
		if (!*end)
			return 0;
		spec = end + 1;
	}
}

/*
 * The profile, as xip-profile(8) writes it (scripts/xip-profile.c):
 * "page-size N", then "PATH PAGES" lines, PATH from the image's root with
 * spaces and the like as \\ooo, PAGES "all" or ranges "0-12,15". '#' starts
 * a comment line.
 */
static void load_profile(const char *file)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, *sp;
	unsigned int lineno = 0;
	unsigned long psize = 0;
	size_t cap = 0;
	int end = 0;

	if (!f)
		die("%s: %s", file, strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		if (line[strspn(line, " \t")] == '#' || line[strspn(line, " \t")] == 0)
			continue;
		if (!strncmp(line, "page-size", 9)) {
			if (sscanf(line, "page-size %lu%n", &psize, &end) != 1 || line[end])
				die("%s:%u: expected 'page-size N'", file, lineno);
			if (psize != opt.blksize)
				die("%s:%u: a profile of %lu-byte pages, but the block size is %u (-b)",
				    file, lineno, psize, opt.blksize);
			continue;
		}
		if (!psize)
			die("%s:%u: no 'page-size N' line before the first file", file, lineno);
		sp = strrchr(line, ' ');
		if (line[0] != '/' || !sp)
			die("%s:%u: expected '/PATH PAGES' (PAGES: 'all' or ranges like 0-12,15)",
			    file, lineno);
		*sp = 0;
		profile = realloc(profile, (nprofile + 1) * sizeof(*profile));
		if (!profile)
			die("out of memory");
		memset(&profile[nprofile], 0, sizeof(*profile));
		if (unescape_path(line) || parse_pages(&profile[nprofile], sp + 1))
			die("%s:%u: expected '/PATH PAGES' (PAGES: 'all' or ranges like 0-12,15)",
			    file, lineno);
		profile[nprofile++].path = xasprintf("%s", line);
	}
	free(line);
	fclose(f);
}

/*
 * @e's entries in the profile, marked as found; with @mark, its blocks
 * they list (pages past its end are counted). True if one says "all".
 */
static int mark_profiled(struct entry *e, uint32_t n, int mark, uint64_t *past_end)
{
	size_t i, r;
	uint64_t b;
	int all = 0;

	for (i = 0; i < nprofile; i++) {
		struct profiled *f = &profile[i];

		if (strcmp(f->path, e->ipath))
			continue;
		f->used = 1;
		if (mark && !f->ranges) {
			memset(e->xip, 1, n);
			all = 1;
		}
		for (r = 0; mark && r < f->nranges; r++) {
			uint64_t first = f->ranges[2 * r], last = f->ranges[2 * r + 1];

			for (b = first; b <= last && b < n; b++)
				e->xip[b] = 1;
			if (last >= n)
				*past_end += last - (first > n ? first : n) + 1;
		}
	}
	return all;
}

/* The last matching rule wins: 1 = whole file XIP, 0 = never, -1 = no rule. */
static int rule_for(const char *ipath)
{
	int r = -1;
	size_t i;

	for (i = 0; i < nrules; i++)
		if (!fnmatch(rules[i].glob, ipath, FNM_PATHNAME))
			r = rules[i].xip;
	return r;
}

static uint64_t elf_word(const uint8_t *p, int size, int big)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[big ? size - 1 - i : i] << (8 * i);
	return v;
}

/*
 * Mark in @out the blocks of every read-only PT_LOAD segment (with @exec,
 * of every executable one). Only the ELF header and the program headers are
 * read, not the file. An ELF file without program headers (a relocatable
 * object, a kernel module) has no segment.
 */
static void mark_elf_segments(struct entry *e, uint8_t *out, int exec)
{
	uint8_t hdr[64], *d;
	int is64, big, i;
	uint64_t phoff, phentsize, phnum;

	if (e->size < 52)
		return;
	read_into(e->src, hdr, e->size < sizeof(hdr) ? e->size : sizeof(hdr), 0);
	if (memcmp(hdr, "\177ELF", 4) || (hdr[4] != 1 && hdr[4] != 2) ||
	    (hdr[5] != 1 && hdr[5] != 2))
		return;
	is64 = hdr[4] == 2;
	big = hdr[5] == 2;
	if (is64 && e->size < 64)
		return;
	phoff = elf_word(hdr + (is64 ? 32 : 28), is64 ? 8 : 4, big);
	phentsize = elf_word(hdr + (is64 ? 54 : 42), 2, big);
	phnum = elf_word(hdr + (is64 ? 56 : 44), 2, big);
	if (!phnum)
		return;
	if (phentsize < (is64 ? 56U : 32U) || phoff > e->size ||
	    phnum * phentsize > e->size - phoff) {
		warn("%s: ELF program headers out of range: stored compressed", e->ipath);
		return;
	}
	/* The headers lie within the file, which is under 16 MiB. */
	d = read_whole(e->src, phoff + phnum * phentsize, 0);
	for (i = 0; i < (int)phnum; i++) {
		const uint8_t *ph = d + phoff + i * phentsize;
		uint32_t type = elf_word(ph, 4, big);
		uint32_t flags = elf_word(ph + (is64 ? 4 : 24), 4, big);
		uint64_t off = elf_word(ph + (is64 ? 8 : 4), is64 ? 8 : 4, big);
		uint64_t filesz = elf_word(ph + (is64 ? 32 : 16), is64 ? 8 : 4, big);
		uint64_t b;

		if (type != 1 /* PT_LOAD */ || !filesz ||
		    (exec ? !(flags & 1 /* PF_X */) : flags & 2 /* PF_W */))
			continue;
		if (off > e->size || filesz > e->size - off) {
			warn("%s: ELF segment %d lies outside the file: not XIP", e->ipath, i);
			continue;
		}
		for (b = off / opt.blksize; b <= (off + filesz - 1) / opt.blksize; b++)
			out[b] = 1;
	}
	free(d);
}

static uint64_t profile_past_end, profile_not_code;

/*
 * A profile lists the pages a workload had in the page cache, code or not:
 * of a file's listed pages ("all" aside) only those of its executable ELF
 * segments are kept; the others (a data file, data pages) are counted.
 */
static void profile_code_only(struct entry *e, uint32_t n)
{
	uint8_t *code = xzalloc(n);
	uint32_t i;

	mark_elf_segments(e, code, 1);
	for (i = 0; i < n; i++) {
		profile_not_code += e->xip[i] && !code[i];
		e->xip[i] &= code[i];
	}
	free(code);
}

static void choose_xip(struct entry *e)
{
	uint32_t n = (e->size + opt.blksize - 1) / opt.blksize, i;
	int rule;

	if (!S_ISREG(e->mode) || !e->size)
		return;
	e->xip = xzalloc(n);
	rule = rule_for(e->ipath);
	if (opt.profile && !mark_profiled(e, n, rule < 0 && !(e->mode & S_ISVTX),
					  &profile_past_end))
		profile_code_only(e, n);
	if (rule == 1 || (rule < 0 && (e->mode & S_ISVTX)))
		memset(e->xip, 1, n);
	else if (rule < 0 && !opt.profile)
		mark_elf_segments(e, e->xip, 0);
	for (i = 0; i < n; i++)
		e->nxip += e->xip[i];
	if (!e->nxip) {
		free(e->xip);
		e->xip = NULL;
	}
}

/* What -X stores in place, before anything is written: the total block count. */
static uint64_t choose_xip_tree(struct entry *dir)
{
	uint64_t n = 0;
	struct entry *e;

	for (e = dir->child; e; e = e->next) {
		choose_xip(e);
		n += e->nxip;
		if (S_ISDIR(e->mode))
			n += choose_xip_tree(e);
	}
	return n;
}

static void collect_files(struct entry *dir, struct entry ***v, size_t *n)
{
	struct entry *e;

	for (e = dir->child; e; e = e->next) {
		if (S_ISDIR(e->mode))
			collect_files(e, v, n);
		if (!S_ISREG(e->mode) || !e->size || !e->src)
			continue;
		*v = realloc(*v, (*n + 1) * sizeof(**v));
		if (!*v)
			die("out of memory");
		(*v)[(*n)++] = e;
	}
}

static int by_size(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;

	return x->size < y->size ? -1 : x->size > y->size;
}

/*
 * --xip-profile: the kernel records each name of a file, so the names of one
 * content (hard links, copies) may list different pages, and mkcramfs stores
 * files once only where their XIP pages agree: each gets the pages of all.
 * Returns the pages added.
 */
static uint64_t share_profiled(struct entry *root)
{
	struct entry **v = NULL;
	size_t n = 0, i, j, k, m;
	uint64_t added = 0;

	collect_files(root, &v, &n);
	qsort(v, n, sizeof(*v), by_size);
	for (i = 0; i < n; i = j) {
		uint32_t blocks = (v[i]->size + opt.blksize - 1) / opt.blksize, b;
		uint8_t **data;
		size_t *rep;
		int any = 0;

		for (j = i; j < n && v[j]->size == v[i]->size; j++)
			any |= !!v[j]->xip;
		if (j - i < 2 || !any)
			continue;
		data = xzalloc((j - i) * sizeof(*data));
		rep = xzalloc((j - i) * sizeof(*rep));
		for (k = 0; k < j - i; k++) {
			data[k] = read_whole(v[i + k]->src, v[i]->size, 1);
			for (rep[k] = k, m = 0; m < k; m++)
				if (rep[m] == m && !memcmp(data[m], data[k], v[i]->size)) {
					rep[k] = m;
					break;
				}
		}
		/* The union in each content's first name, then copied to the others. */
		for (k = 0; k < j - i; k++) {
			struct entry *r = v[i + rep[k]], *e = v[i + k];

			if (!e->xip || r == e)
				continue;
			if (!r->xip)
				r->xip = xzalloc(blocks);
			for (b = 0; b < blocks; b++)
				r->xip[b] |= e->xip[b];
		}
		for (k = 0; k < j - i; k++) {
			struct entry *r = v[i + rep[k]], *e = v[i + k];
			uint32_t before = e->nxip;

			if (r->xip) {
				if (!e->xip)
					e->xip = xzalloc(blocks);
				memcpy(e->xip, r->xip, blocks);
				for (e->nxip = 0, b = 0; b < blocks; b++)
					e->nxip += e->xip[b];
				added += e->nxip - before;
			}
			free(data[k]);
		}
		free(data);
		free(rep);
	}
	free(v);
	return added;
}

static uint32_t dir_size(struct entry *dir)
{
	uint32_t size = 0;
	struct entry *e;

	for (e = dir->child; e; e = e->next)
		size += CRAMFS_XIP_INODE_SIZE + align(strlen(e->name), 4);
	if (size > CRAMFS_XIP_MAX_FILE_SIZE)
		die("%s: its entries take %u bytes, more than the format's %u for a directory",
		    dir->ipath, size, CRAMFS_XIP_MAX_FILE_SIZE);
	return size;
}

static void write_inode(uint32_t off, const struct entry *e, uint32_t namelen)
{
	struct cramfs_xip_dinode d = {
		.mode = e->mode, .uid = e->uid, .size = e->size, .gid = e->gid,
		.namelen = namelen, .offset = e->data_off,
	};

	cramfs_xip_inode_encode(at(off, CRAMFS_XIP_INODE_SIZE), opt.big, &d);
}

static void check_offset(const struct entry *e, uint32_t off)
{
	if (off > CRAMFS_XIP_MAX_OFFSET)
		die("image too large: data of %s would start at %u, beyond the format's 256 MiB limit for offsets",
		    e->ipath, off);
}

/* Entries of @dir, then each subdirectory's in turn: a directory's entries follow the entry naming it. */
static uint32_t write_dirs(struct entry *dir, uint32_t off)
{
	struct entry *e;

	for (e = dir->child; e; e = e->next) {
		size_t len = strlen(e->name);

		if (S_ISDIR(e->mode))
			e->size = dir_size(e);
		e->entry_off = off;
		write_inode(off, e, align(len, 4));
		memcpy(at(off + CRAMFS_XIP_INODE_SIZE, len), e->name, len);
		off += CRAMFS_XIP_INODE_SIZE + align(len, 4);
		stats.nodes++;
	}
	for (e = dir->child; e; e = e->next) {
		if (S_ISDIR(e->mode) && e->child) {
			check_offset(e, off);
			e->data_off = off;
			write_inode(e->entry_off, e, align(strlen(e->name), 4));
			off = write_dirs(e, off);
		}
	}
	return off;
}

static int is_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

static struct entry **xip_files;
static int ext_ptrs;		/* some block pointer carries a flag */
static size_t n_xip_files;

/*
 * A file's block pointer table, then its non-XIP blocks. A block right after
 * an XIP block cannot be found by the previous block's end (that lies in the
 * XIP region), so it gets a direct pointer with its length in front.
 */
/*
 * compress2() of one block, the stream's state kept from block to block:
 * compress2() allocates and clears 256 KiB of it each time, which was most
 * of a build of many small files. deflateReset() gives the same bytes.
 */
static int zcompress(uint8_t *dst, uLongf *dlen, const uint8_t *src, uLong len)
{
	static z_stream zs;
	static int ready;
	int err;

	if (!ready) {
		if (deflateInit(&zs, opt.level) != Z_OK)
			return Z_MEM_ERROR;
		ready = 1;
	} else if (deflateReset(&zs) != Z_OK) {
		return Z_STREAM_ERROR;
	}
	zs.next_in = (Bytef *)src;
	zs.avail_in = len;
	zs.next_out = dst;
	zs.avail_out = *dlen;
	err = deflate(&zs, Z_FINISH);
	*dlen = zs.total_out;
	return err == Z_STREAM_END ? Z_OK : err == Z_OK ? Z_BUF_ERROR : err;
}

static uint32_t write_file(struct entry *e, const uint8_t *data, uint32_t off)
{
	uint32_t n = (e->size + opt.blksize - 1) / opt.blksize, i;
	uint32_t cur = off + 4 * n;
	uint8_t *zbuf = xzalloc(2 * opt.blksize + 64);

	check_offset(e, off);
	e->data_off = off;
	at(off, 4 * n);
	stats.blocks += n;
	for (i = 0; i < n; i++) {
		uint32_t in = e->size - i * opt.blksize;
		const uint8_t *src = data + i * opt.blksize;
		uLongf zlen = 2 * opt.blksize + 64;
		int after_xip = i > 0 && e->xip && e->xip[i - 1];
		int plain = 0;

		if (in > opt.blksize)
			in = opt.blksize;
		if (e->xip && e->xip[i])
			continue;	/* placed in the XIP region later */
		stats.in_bytes += in;
		/* A hole is found by the previous block's end: not after an XIP block. */
		if (opt.holes && !after_xip && is_zero(src, in))
			zlen = 0;
		else if (zcompress(zbuf, &zlen, src, in) != Z_OK)
			die("%s: zlib failed", e->ipath);
		/* With flagged pointers, a block zlib cannot shrink is cheaper stored plain. */
		if ((opt.xip || opt.ext) && zlen >= in) {
			plain = 1;
			zlen = in;
			stats.plain_blocks++;
		}
		if (zlen > 2 * opt.blksize)
			die("%s: block %u compresses to %lu bytes", e->ipath, i, zlen);
		if (after_xip) {
			uint32_t start = align(cur, 4);

			cur = start;
			if (!plain) {
				uint8_t *h = at(cur, 2);

				if (zlen > 0xffff)
					die("%s: block %u too large for a direct pointer", e->ipath, i);
				h[opt.big] = zlen & 0xff;
				h[!opt.big] = zlen >> 8;
				cur += 2;
			}
			put32(off + 4 * i, CRAMFS_XIP_BLK_FLAG_DIRECT_PTR |
			      (plain ? CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED : 0) |
			      (start >> CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT));
			ext_ptrs = 1;
		}
		memcpy(at(cur, zlen), plain ? src : zbuf, zlen);
		cur += zlen;
		stats.zlib_bytes += zlen;
		/* With flags in the top two bits, an end pointer reaches 1 GiB. */
		if ((opt.xip || opt.ext) && cur >= CRAMFS_XIP_BLK_FLAG_DIRECT_PTR)
			die("image too large for -X or -x: data of %s would end at %u, beyond the 1 GiB a block pointer with flags can reach",
			    e->ipath, cur);
		if (!after_xip)
			put32(off + 4 * i, cur | (plain ? CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED : 0));
		ext_ptrs |= plain;
	}
	free(zbuf);
	if (e->xip) {
		xip_files = realloc(xip_files, (n_xip_files + 1) * sizeof(*xip_files));
		xip_files[n_xip_files++] = e;
	}
	return align(cur, 4);
}

/* @a (written earlier) holds @data, @b's bytes: compared for real only when the CRCs agree. */
static int same_data(const struct entry *a, const struct entry *b, const uint8_t *data)
{
	uint32_t n = (a->size + opt.blksize - 1) / opt.blksize;
	uint8_t *other;
	int same;

	if (a->size != b->size || a->crc != b->crc || !!a->xip != !!b->xip ||
	    (a->xip && memcmp(a->xip, b->xip, n)))
		return 0;
	other = entry_data(a);
	same = !memcmp(other, data, a->size);
	free(other);
	return same;
}

/*
 * Files and symlinks written so far, by size and CRC: only those that agree
 * on both are compared (each file against every earlier one was a quarter
 * of a 100,000-file build).
 */
#define SEEN_BUCKETS	65536
static struct entry **seen;

static struct entry **seen_bucket(const struct entry *e)
{
	if (!seen)
		seen = xzalloc(SEEN_BUCKETS * sizeof(*seen));
	return &seen[(e->crc ^ e->size * 2654435761u) % SEEN_BUCKETS];
}

/* Earlier file or symlink with the same bytes: its data is shared, as util-linux does. */
static struct entry *find_same(const struct entry *e, const uint8_t *data)
{
	struct entry *s;

	for (s = *seen_bucket(e); s; s = s->next_seen)
		if (same_data(s, e, data))
			return s;
	return NULL;
}

static uint32_t write_data(struct entry *dir, uint32_t off)
{
	struct entry *e;

	for (e = dir->child; e; e = e->next) {
		if ((S_ISREG(e->mode) || S_ISLNK(e->mode)) && e->size) {
			/* One file's data in memory at a time. */
			uint8_t *data = entry_data(e);

			e->crc = crc32(0, data, e->size);
			e->same = find_same(e, data);
			if (e->same) {
				e->data_off = e->same->data_off;
			} else {
				off = write_file(e, data, off);
				e->next_seen = *seen_bucket(e);
				*seen_bucket(e) = e;
			}
			free(data);
			write_inode(e->entry_off, e, align(strlen(e->name), 4));
		} else if (S_ISDIR(e->mode)) {
			off = write_data(e, off);
		}
	}
	return off;
}

/* XIP pages: one contiguous, aligned run per file, in block order. */
static uint32_t write_xip_region(uint32_t off)
{
	size_t f;

	if (!n_xip_files)
		return off;
	stats.padding += align(off, opt.xip_align) - off;
	off = align(off, opt.xip_align);
	for (f = 0; f < n_xip_files; f++) {
		struct entry *e = xip_files[f];
		uint32_t n = (e->size + opt.blksize - 1) / opt.blksize, i;
		uint8_t *data = entry_data(e);

		for (i = 0; i < n; i++) {
			uint32_t in = e->size - i * opt.blksize;

			if (!e->xip[i])
				continue;
			if (in > opt.blksize)
				in = opt.blksize;
			memcpy(at(off, opt.blksize), data + i * opt.blksize, in);
			put32(e->data_off + 4 * i, CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED |
			      CRAMFS_XIP_BLK_FLAG_DIRECT_PTR | (off >> CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT));
			/* A partial last page is zero filled: mapping it shows nothing else. */
			stats.padding += opt.blksize - in;
			stats.xip_pages++;
			off += opt.blksize;
		}
		free(data);
	}
	return off;
}

/*
 * The output. A file is written under a temporary name in its directory and
 * renamed over @path only when whole: a failure leaves no partial image, and
 * an image already there as it was. A device (an MTD block device,
 * /dev/null) is written in place. Opened before anything else is done, so
 * that an output that cannot be written is said at once.
 */
static struct {
	const char *path;
	char *tmp;		/* the temporary file, while it exists */
	int fd;
} out = { .fd = -1 };

static void remove_tmp(void)
{
	if (out.tmp)
		unlink(out.tmp);
}

static void remove_tmp_and_die(int sig)
{
	remove_tmp();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void open_output(const char *path)
{
	char *target = NULL, *slash;
	struct stat st;
	mode_t mask;

	out.path = path;
	/* A symlink stays one: the file it names is replaced. */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		target = realpath(path, NULL);
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			die("%s: %s", path, strerror(EISDIR));
		out.fd = open(path, O_WRONLY);
		if (out.fd < 0)
			die("%s: %s", path, strerror(errno));
		return;
	}
	if (target)
		path = target;
	slash = strrchr(path, '/');
	out.tmp = slash ? xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1) :
			  xasprintf(".%s.XXXXXX", path);
	/* A write past RLIMIT_FSIZE fails with EFBIG, reported, rather than killing us. */
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGHUP, remove_tmp_and_die);
	signal(SIGINT, remove_tmp_and_die);
	signal(SIGTERM, remove_tmp_and_die);
	atexit(remove_tmp);
	out.fd = mkstemp(out.tmp);
	if (out.fd < 0) {
		free(out.tmp);
		out.tmp = NULL;
		die("%s: %s", out.path, strerror(errno));
	}
	if (target)
		out.path = target;
	/* The mode a newly created file gets. */
	mask = umask(0);
	umask(mask);
	if (fchmod(out.fd, 0666 & ~mask))
		die("%s: %s", out.path, strerror(errno));
}

static void write_output(const uint8_t *data, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(out.fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("%s: %s", out.path, n ? strerror(errno) : "short write");
		data += n;
		len -= n;
	}
	if (close(out.fd))
		die("%s: %s", out.path, strerror(errno));
	if (out.tmp && rename(out.tmp, out.path))
		die("%s: %s", out.path, strerror(errno));
	free(out.tmp);
	out.tmp = NULL;
}

static __noreturn void usage_exit(int status);
static void usage_exit(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: mkcramfs [options] dirname outfile\n"
		" -b blksize      block size: the target's page size, 4096 to 65536\n"
		"                 (default 4096)\n"
		" -e edition      edition number to put in the superblock\n"
		" -N big|little|host  byte order of the image (default host)\n"
		" -B, -L          big-endian, little-endian image (cramfs-tools' -N)\n"
		" -i file         insert a file image into the filesystem\n"
		" -n name         name of the filesystem (default \"Compressed\")\n"
		" -p              pad by 512 bytes for a boot block\n"
		" -s              sort directory entries (always done; kept for compatibility)\n"
		" -z              store all-zero blocks as holes\n"
		" -x              extended block pointers without -X: blocks zlib cannot\n"
		"                 shrink stored plain (needs Linux 4.15)\n"
		" -X              execute in place: store read-only ELF segments plain and\n"
		"                 block-aligned (works with and without an MMU; -X -X, as\n"
		"                 cramfs-tools' page-aligned form, is the same)\n"
		" -A align        with -X: align XIP runs to 'align' bytes instead of a block;\n"
		"                 a tighter layout only no-MMU kernels can map in place\n"
		" -R rulesfile    with -X: 'xip GLOB' / 'noxip GLOB' lines choose whole files\n"
		" --xip-profile FILE  -X for the pages of code FILE lists (what xip-profile\n"
		"                 printed on the target), not whole ELF segments\n"
		" -D devtable     device and ownership table (makedevs format)\n"
		" -q              every entry owned by root (the device table still sets owners)\n"
		" -Z level        zlib level, 1-9 (default 9; util-linux mkfs.cramfs uses 6)\n"
		" -E              warnings are errors: exit status 8 (the image is written)\n"
		" -v              verbose: list every entry\n"
		" -h, --help      this help\n"
		" -V, --version   the version\n"
		"With -X, files with the sticky bit are stored XIP whole unless a rule says otherwise.\n"
		"Exit status: 0 done, 8 error, 16 usage error.\n");
	exit(status);
}

/* A number option: the whole text, within [min, max], or a usage error. */
static uint32_t num_opt(int c, const char *arg, uint32_t min, uint32_t max)
{
	uint32_t v;

	if (cimg_parse_u32(arg, min, max, &v))
		usage_error("-%c takes a number from %u to %u, not '%s'", c, min, max, arg);
	return v;
}

static uint32_t pow2_opt(int c, const char *arg, uint32_t min, uint32_t max)
{
	uint32_t v = num_opt(c, arg, min, max);

	if (v & (v - 1))
		usage_error("-%c takes a power of two, not %u", c, v);
	return v;
}

/* The image must read back whole with the code cramfsck uses: every entry, every block. */
static void self_check(uint32_t len)
{
	struct cimg check = { .who = "mkcramfs" };
	uint32_t n = 0;
	int bad;

	bad = cimg_open(&check, img, len, opt.blksize) || cimg_check_tree(&check, 0, &n) ||
	      n != stats.nodes + 1;
	cimg_close(&check);
	if (bad)
		die("internal error: the image fails its own check (%u problems, %u of %u entries)",
		    check.errors, n, stats.nodes + 1);
}

/* -i: the file's bytes right after the superblock; returns where the root directory goes. */
static uint32_t insert_image(uint32_t off)
{
	struct stat ist;
	uint64_t end;

	if (stat(opt.image, &ist))
		die("%s: %s", opt.image, strerror(errno));
	if (!S_ISREG(ist.st_mode))
		die("%s: not a regular file", opt.image);
	end = ((uint64_t)off + ist.st_size + 3) & ~3ULL;
	if (end > CRAMFS_XIP_MAX_OFFSET)
		die("%s: %lld bytes put the root directory at %llu, beyond the format's 256 MiB limit for offsets",
		    opt.image, (long long)ist.st_size, (unsigned long long)end);
	read_into(opt.image, at(off, ist.st_size), ist.st_size, 1);
	if (!ist.st_size)
		opt.image = NULL;	/* as util-linux: nothing inserted, no flag */
	return end;
}

static void list_entries(struct entry *dir)
{
	struct entry *e;

	for (e = dir->child; e; e = e->next) {
		printf("  %06o %5u %3u %8u %s%s%s\n", e->mode, e->uid, e->gid, e->size, e->ipath,
		       e->nxip ? " (xip)" : "", e->same ? " (shared)" : "");
		if (S_ISDIR(e->mode))
			list_entries(e);
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "xip-profile", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	struct entry root = { .ipath = "/" };
	uint32_t off, root_off;
	struct cramfs_xip_dinode rd;
	struct cimg check = { .who = "mkcramfs" };
	struct stat st;
	int c;

	opt.big = cramfs_xip_get32("\x12\x34\x56\x78", 1) == *(uint32_t *)"\x12\x34\x56\x78";
	while ((c = getopt_long(argc, argv, "b:e:N:BLi:n:pszxXA:R:D:qZ:EvhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			opt.blksize = pow2_opt(c, optarg, 4096, 65536);
			break;
		case 'e':
			opt.edition = num_opt(c, optarg, 0, UINT32_MAX);
			break;
		case 'N':
			if (!strcmp(optarg, "big"))
				opt.big = 1;
			else if (!strcmp(optarg, "little"))
				opt.big = 0;
			else if (strcmp(optarg, "host"))
				usage_error("-N takes big, little or host, not '%s'", optarg);
			break;
		case 'B':	/* cramfs-tools' byte order options */
			opt.big = 1;
			break;
		case 'L':
			opt.big = 0;
			break;
		case 'x':
			opt.ext = 1;
			break;
		case 'q':
			opt.squash = 1;
			break;
		case 'E':
			opt.errors = 1;
			break;
		case 'i':
			opt.image = optarg;
			break;
		case 'n':
			opt.name = optarg;
			break;
		case 'p':
			opt.pad = CRAMFS_XIP_PAD_SIZE;
			break;
		case 's':
			break;
		case 'z':
			opt.holes = 1;
			break;
		case 'X':	/* cramfs-tools' -X -X (page-aligned, for an MMU) is -X */
			opt.xip = 1;
			break;
		case 'A':
			opt.xip_align = pow2_opt(c, optarg, 4, 65536);
			break;
		case 'R':
			opt.rules = optarg;
			break;
		case 'P':
			opt.profile = optarg;
			opt.xip = 1;
			break;
		case 'D':
			opt.devtable = optarg;
			break;
		case 'Z':
			opt.level = num_opt(c, optarg, 1, 9);
			break;
		case 'v':
			opt.verbose = 1;
			break;
		case 'h':
			usage_exit(0);
		case 'V':
			printf("mkcramfs from cramfs-xip %s\n", CIMG_VERSION);
			return 0;
		default:
			usage_exit(EXIT_USAGE);
		}
	}
	if (argc - optind != 2)
		usage_exit(EXIT_USAGE);
	if ((opt.rules || opt.xip_align) && !opt.xip)
		usage_error("-R and -A only mean something with -X");
	if (opt.xip_align > opt.blksize)
		die("-A cannot exceed the block size");
	open_output(argv[optind + 1]);
	/* XIP blocks are mapped by the page: the block size is the target's page size. */
	if (!opt.xip_align)
		opt.xip_align = opt.blksize;
	if (opt.rules)
		load_rules(opt.rules);
	if (opt.profile)
		load_profile(opt.profile);
	if (opt.profile && opt.xip_align < opt.blksize)
		warn("-A %u: the profiled pages are not page-aligned: only a kernel without an MMU maps them in place",
		     opt.xip_align);
	if (stat(argv[optind], &st))
		die("%s: %s", argv[optind], strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die("%s: not a directory", argv[optind]);
	root.mode = st.st_mode;
	set_owner(&root, st.st_uid, st.st_gid);
	/* "tree/" as "tree": no doubled slash in the paths messages name. */
	for (c = strlen(argv[optind]); c > 1 && argv[optind][c - 1] == '/'; c--)
		argv[optind][c - 1] = 0;
	scan_dir(&root, argv[optind]);
	if (opt.devtable)
		apply_devtable(&root, opt.devtable);
	truncate_owners(&root);
	warn_truncated(&wide_uids);
	warn_truncated(&wide_gids);
	if (opt.xip && !(choose_xip_tree(&root) + (opt.profile ? share_profiled(&root) : 0))) {
		warn("-X: no %s, rule or sticky file to execute in place: the image is a standard one, as without -X",
		     opt.profile ? "page in the profile" : "read-only ELF segment");
		opt.xip = 0;
	}
	if (opt.profile) {
		size_t i;

		for (i = 0; i < nprofile; i++)
			if (!profile[i].used)
				warn("%s: %s is not in the tree", opt.profile, profile[i].path);
		if (profile_past_end)
			warn("%s: %llu profiled pages lie past the end of their file (changed since?)",
			     opt.profile, (unsigned long long)profile_past_end);

	}

	reserve_image();
	off = opt.pad + CRAMFS_XIP_SUPER_SIZE;
	at(0, off);
	if (opt.image)
		off = insert_image(off);
	root_off = off;
	root.size = dir_size(&root);
	off = write_dirs(&root, off);
	off = write_data(&root, off);
	off = write_xip_region(off);
	/* A whole number of blocks, as util-linux writes, so losetup and MTD tools take it. */
	stats.padding += align(off, opt.blksize) - off;
	off = align(off, opt.blksize);
	at(0, off);

	/* The superblock last: it records the final size and the CRC. */
	put32(opt.pad + 0, CRAMFS_XIP_MAGIC);
	put32(opt.pad + 4, off);
	put32(opt.pad + 8, CRAMFS_XIP_FLAG_FSID_VERSION_2 | CRAMFS_XIP_FLAG_SORTED_DIRS |
	      (opt.holes ? CRAMFS_XIP_FLAG_HOLES : 0) |
	      (opt.image ? CRAMFS_XIP_FLAG_SHIFTED_ROOT_OFFSET : 0) |
	      (n_xip_files || ext_ptrs ? CRAMFS_XIP_FLAG_EXT_BLOCK_POINTERS : 0));
	memcpy(at(opt.pad + 16, 16), CRAMFS_XIP_SIGNATURE, 16);
	put32(opt.pad + 32, 0);
	put32(opt.pad + 36, opt.edition);
	put32(opt.pad + 40, stats.blocks);
	put32(opt.pad + 44, stats.nodes + 1);
	strncpy((char *)at(opt.pad + 48, 16), opt.name ? opt.name : "Compressed", 16);
	/* util-linux points an empty root at where its entries would be, too. */
	rd = (struct cramfs_xip_dinode){ .mode = root.mode, .uid = root.uid, .gid = root.gid,
					 .size = root.size, .offset = root_off };
	cramfs_xip_inode_encode(at(opt.pad + 64, 12), opt.big, &rd);

	/* Check what was built with the same code cramfsck uses, then seal it. */
	self_check(off);
	if (cimg_open(&check, img, off, opt.blksize))
		die("internal error: the image does not open");
	put32(opt.pad + 32, cimg_crc(&check));

	write_output(img, off);

	if (opt.verbose)
		list_entries(&root);
	printf("mkcramfs: %u files, %u directories, %u symlinks, %u special files\n",
	       stats.files, stats.dirs, stats.links, stats.special);
	printf("mkcramfs: %llu bytes of data compressed to %llu bytes\n",
	       (unsigned long long)stats.in_bytes, (unsigned long long)stats.zlib_bytes);
	printf("mkcramfs: %llu bytes (%llu pages) stored for XIP in %zu files\n",
	       (unsigned long long)stats.xip_pages * opt.blksize,
	       (unsigned long long)stats.xip_pages, n_xip_files);
	if (opt.profile)
		printf("mkcramfs: %llu profiled pages outside executable ELF segments, compressed\n",
		       (unsigned long long)profile_not_code);
	if (opt.xip || opt.ext)
		printf("mkcramfs: %llu blocks zlib could not shrink, stored plain\n",
		       (unsigned long long)stats.plain_blocks);
	printf("mkcramfs: %llu bytes of alignment padding\n", (unsigned long long)stats.padding);
	printf("mkcramfs: image %u bytes%s\n", off, stats.warnings ? " (with warnings)" : "");
	return opt.errors && stats.warnings ? EXIT_ERROR : 0;
}
