// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcramfs -D: a makedevs-style table adds device nodes and directories and
 * sets modes and owners, without root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "mkcramfs.h"

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
void apply_devtable(struct entry *root, const char *file)
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
