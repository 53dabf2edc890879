// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: extraction (cimg_extract() in scripts/image.c) of
 * arbitrary bytes, straight, without cramfsck's check pass in front. After
 * each input, nothing outside the target may have changed: a directory
 * "outside" next to it holds a file "victim" and a directory "dir" that the
 * hostile seeds (tests/fuzz/mkhostile.py) aim their symlinks at, and the
 * target's parent may hold nothing but the target. Any change aborts.
 *
 * The scratch directory is $CRAMFS_XIP_FUZZ_DIR, default
 * /tmp/cramfs-xip-fuzz-extract, emptied at start.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "image.h"

#define SNAP_MAX	16

static char scratch[4096], root[4200], outside[4200];
static int rootfd = -1;

struct snap {
	char path[4200];
	struct stat st;
	char data[64];
};

static struct snap before[SNAP_MAX], now[SNAP_MAX];
static int nbefore, nnow;
static struct snap *filling;
static int *filled;

static int snap_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	struct snap *s;
	int fd;

	(void)flag;
	(void)ftw;
	if (*filled >= SNAP_MAX)
		return 1;
	s = &filling[(*filled)++];
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->st = *st;
	if (S_ISREG(st->st_mode)) {
		fd = open(path, O_RDONLY | O_NOFOLLOW);
		if (fd >= 0) {
			if (read(fd, s->data, sizeof(s->data) - 1) < 0)
				s->data[0] = 0;
			close(fd);
		}
	}
	return 0;
}

static void snapshot(struct snap *s, int *n)
{
	filling = s;
	filled = n;
	*n = 0;
	if (nftw(outside, snap_one, 8, FTW_PHYS))
		abort();
}

static int same(const struct snap *a, const struct snap *b)
{
	return !strcmp(a->path, b->path) && a->st.st_mode == b->st.st_mode &&
	       a->st.st_ino == b->st.st_ino && a->st.st_size == b->st.st_size &&
	       a->st.st_uid == b->st.st_uid && a->st.st_gid == b->st.st_gid &&
	       a->st.st_nlink == b->st.st_nlink &&
	       a->st.st_mtim.tv_sec == b->st.st_mtim.tv_sec &&
	       a->st.st_mtim.tv_nsec == b->st.st_mtim.tv_nsec && !strcmp(a->data, b->data);
}

static int make_writable(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_D || flag == FTW_DNR)
		chmod(path, 0700);
	(void)st;
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path))
		abort();
	return 0;
}

static void remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return;
	/* Twice: a directory made 0000 hides its entries until made writable. */
	nftw(path, make_writable, 8, FTW_PHYS);
	nftw(path, make_writable, 8, FTW_PHYS);
	if (nftw(path, remove_one, 8, FTW_PHYS | FTW_DEPTH))
		abort();
}

static void setup(void)
{
	const char *dir = getenv("CRAMFS_XIP_FUZZ_DIR");
	char path[4300];
	int fd;

	snprintf(scratch, sizeof(scratch), "%s", dir ? dir : "/tmp/cramfs-xip-fuzz-extract");
	snprintf(root, sizeof(root), "%s/root", scratch);
	snprintf(outside, sizeof(outside), "%s/outside", scratch);
	remove_tree(scratch);
	snprintf(path, sizeof(path), "%s/dir", outside);
	if (mkdir(scratch, 0755) || mkdir(root, 0755) || mkdir(outside, 0755) || mkdir(path, 0755))
		abort();
	snprintf(path, sizeof(path), "%s/victim", outside);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0 || write(fd, "original\n", 9) != 9 || close(fd))
		abort();
	rootfd = open(root, O_RDONLY | O_DIRECTORY);
	if (rootfd < 0)
		abort();
	snapshot(before, &nbefore);
}

/* The target's parent holds the target or nothing. */
static void check_root(void)
{
	DIR *d = opendir(root);
	struct dirent *de;

	if (!d)
		abort();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, "t"))
			abort();
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cimg img = { .quiet = 1 };
	char target[4300];
	int i;

	if (rootfd < 0)
		setup();
	if (!cimg_open(&img, data, size, 0))
		cimg_extract(&img, rootfd, "t", !geteuid());
	cimg_close(&img);
	snapshot(now, &nnow);
	if (nnow != nbefore)
		abort();
	for (i = 0; i < nnow; i++)
		if (!same(&before[i], &now[i]))
			abort();
	check_root();
	snprintf(target, sizeof(target), "%s/t", root);
	remove_tree(target);
	return 0;
}
