// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcramfs -X: which blocks are stored in place, from ELF segments, rules
 * (-R), the sticky bit or a profile (--xip-profile).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "mkcramfs.h"

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

void load_rules(const char *file)
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
void load_profile(const char *file)
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

static uint64_t profile_past_end;
uint64_t profile_not_code;

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


/* What -X stores in place, and the warnings about what it was asked for. */
void select_xip(struct entry *root)
{
	size_t i;

	if (opt.xip && !(choose_xip_tree(root) + (opt.profile ? share_profiled(root) : 0))) {
		warn("-X: no %s, rule or sticky file to execute in place: the image is a standard one, as without -X",
		     opt.profile ? "page in the profile" : "read-only ELF segment");
		opt.xip = 0;
	}
	if (!opt.profile)
		return;
	for (i = 0; i < nprofile; i++)
		if (!profile[i].used)
			warn("%s: %s is not in the tree", opt.profile, profile[i].path);
	if (profile_past_end)
		warn("%s: %llu profiled pages lie past the end of their file (changed since?)",
		     opt.profile, (unsigned long long)profile_past_end);
}
