// SPDX-License-Identifier: GPL-2.0
/*
 * xip-profile: the XIP profile of a workload, from user space, for
 * "mkcramfs --xip-profile". Run on the target after the workload ran on an
 * image mounted from an MTD (which reads no page ahead) with the page cache
 * dropped before it: the pages of each file that are in the page cache are
 * the ones the workload touched. mkcramfs keeps those that lie in an
 * executable ELF segment (data files and data pages stay compressed).
 *
 *   xip-profile MOUNT > profile
 *
 * Prints "page-size N", then a line per file with pages in the page cache:
 * its path in the image (space, tab, newline and backslash as \ooo), then
 * the pages as ranges ("/bin/busybox 0-12,15"). Build it for the target,
 * e.g. arm-linux-gnueabihf-gcc -O2 -static -o xip-profile xip-profile.c.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t root_len;
static long page_size;
static int errors;

/* @path with the characters the profile's format escapes as \ooo. */
static void put_path(const char *path)
{
	for (; *path; path++) {
		if (strchr(" \t\n\\", *path))
			printf("\\%03o", (unsigned char)*path);
		else
			putchar(*path);
	}
}

static int one_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t pages, i, first;
	unsigned char *vec;
	void *map;
	int fd, any = 0;

	if (type != FTW_F || !S_ISREG(st->st_mode) || !st->st_size)
		return 0;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		errors = 1;
		return 0;
	}
	/* Mapping a file reads none of it; mincore() then asks the page cache. */
	map = mmap(NULL, st->st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	pages = (st->st_size + page_size - 1) / page_size;
	vec = malloc(pages);
	if (map == MAP_FAILED || !vec || mincore(map, st->st_size, vec)) {
		perror(path);
		errors = 1;
		goto out;
	}
	for (i = 0; i < pages; i++) {
		if (!(vec[i] & 1))
			continue;
		for (first = i; i + 1 < pages && (vec[i + 1] & 1); i++)
			;
		if (!any++) {
			put_path(path + root_len);
			putchar(' ');
		} else {
			putchar(',');
		}
		if (first == i)
			printf("%zu", i);
		else
			printf("%zu-%zu", first, i);
	}
	if (any)
		putchar('\n');
out:
	if (map != MAP_FAILED)
		munmap(map, st->st_size);
	free(vec);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: xip-profile MOUNT > profile\n");
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	root_len = strlen(argv[1]);
	while (root_len && argv[1][root_len - 1] == '/')
		root_len--;	/* "/" and "/mnt/" leave "" and "/mnt" */
	printf("page-size %ld\n", page_size);
	/* Physical walk, same filesystem: the image's own files, each name once. */
	if (nftw(argv[1], one_file, 16, FTW_PHYS | FTW_MOUNT)) {
		perror(argv[1]);
		return 1;
	}
	return errors;
}
