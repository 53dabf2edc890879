// SPDX-License-Identifier: GPL-2.0-only
/*
 * cramfsck: check, list, lay out and extract a cramfs image, XIP or not.
 * Documentation/cramfsck.8 is the manual.
 *
 * Exit codes follow fsck: 0 clean, 4 errors found, 8 operational error,
 * 16 usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "image.h"

#define EXIT_CLEAN	0
#define EXIT_ERRORS	4
#define EXIT_OPERATION	8
#define EXIT_USAGE	16

static struct {
	int verbose, list, layout;
	const char *extract;
	unsigned int blksize;
} opt;

static struct {
	unsigned long files, blocks[5], unaligned_xip;
} stats;

static void mode_string(uint32_t mode, char *s)
{
	static const char types[] = "?pc?d?b?-?l?s???";
	int i;

	s[0] = types[(mode >> 12) & 15];
	for (i = 0; i < 9; i++)
		s[1 + i] = (mode & (0400 >> i)) ? "rwxrwxrwx"[i] : '-';
	if (mode & 04000)
		s[3] = (mode & 0100) ? 's' : 'S';
	if (mode & 02000)
		s[6] = (mode & 0010) ? 's' : 'S';
	if (mode & 01000)
		s[9] = (mode & 0001) ? 't' : 'T';
	s[10] = 0;
}

static int extract(const struct cimg_entry *e, const uint8_t *data)
{
	char *path;
	int ret = 0, fd;

	if (asprintf(&path, "%s%s", opt.extract, e->path) < 0)
		return -1;
	switch (e->d.mode & S_IFMT) {
	case S_IFDIR:
		if (mkdir(path, 0700) && errno != EEXIST)
			ret = -1;
		break;
	case S_IFREG:
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || write(fd, data, e->d.size) != (ssize_t)e->d.size || close(fd))
			ret = -1;
		break;
	case S_IFLNK:
		ret = symlink((const char *)data, path);
		break;
	default:
		ret = mknod(path, e->d.mode & (S_IFMT | 0777),
			    makedev((e->d.size >> 8) & 0xff, e->d.size & 0xff));
		break;
	}
	if (ret) {
		fprintf(stderr, "cramfsck: %s: %s\n", path, strerror(errno));
		free(path);
		return -1;
	}
	/* Owner before mode: chown clears set-id bits. */
	if (!geteuid() && lchown(path, e->d.uid, e->d.gid))
		fprintf(stderr, "cramfsck: %s: chown: %s\n", path, strerror(errno));
	if (!S_ISLNK(e->d.mode) && chmod(path, e->d.mode & 07777))
		fprintf(stderr, "cramfsck: %s: chmod: %s\n", path, strerror(errno));
	free(path);
	return 0;
}

static int visit(struct cimg *img, const struct cimg_entry *e, void *ctx)
{
	const struct cramfs_xip_dinode *d = &e->d;
	unsigned long kinds[5] = { 0 };
	uint8_t *data = NULL;
	int has_data = (S_ISREG(d->mode) || S_ISLNK(d->mode)) && d->size;
	char mode[11];
	uint32_t i;

	(void)ctx;
	stats.files++;
	if (has_data) {
		uint8_t *buf = malloc(img->blksize);

		if (!buf)
			return -1;
		for (i = 0; i < cimg_nblocks(img, d); i++) {
			struct cimg_block b;

			if (cimg_block(img, d, i, &b) || cimg_read_block(img, &b, buf)) {
				fprintf(stderr, "cramfsck: in %s, block %u\n", e->path, i);
				continue;
			}
			kinds[b.kind]++;
			stats.blocks[b.kind]++;
			if (b.kind == CIMG_DIRECT_PLAIN && b.start % img->blksize)
				stats.unaligned_xip++;
			if (opt.layout)
				printf("  %s block %u: %s at %u, %u bytes\n", e->path, i,
				       cimg_block_kind_name(b.kind), b.start, b.len);
		}
		free(buf);
		if (cimg_read_file(img, d, &data))
			return 0;	/* reported; keep checking the rest */
		if (S_ISLNK(d->mode) && strlen((char *)data) != d->size)
			cimg_problem(img, "%s: symlink target holds a NUL", e->path);
	}
	if (opt.list) {
		mode_string(d->mode, mode);
		printf("%s %5u %3u ", mode, d->uid, d->gid);
		if (S_ISCHR(d->mode) || S_ISBLK(d->mode))
			printf("%3u,%3u ", (d->size >> 8) & 0xff, d->size & 0xff);
		else
			printf("%7u ", d->size);
		if (has_data && S_ISREG(d->mode))
			printf("[%lu zlib %lu plain %lu xip %lu hole] ",
			       kinds[CIMG_COMPRESSED] + kinds[CIMG_DIRECT_COMPRESSED],
			       kinds[CIMG_PLAIN], kinds[CIMG_DIRECT_PLAIN], kinds[CIMG_HOLE]);
		printf("%s", e->path);
		if (S_ISLNK(d->mode) && data)
			printf(" -> %s", (char *)data);
		putchar('\n');
	}
	if (opt.extract && (has_data ? data != NULL : 1) && extract(e, data))
		cimg_problem(img, "%s: could not extract", e->path);
	free(data);
	return 0;
}

static __noreturn void usage_exit(int status);
static void usage_exit(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: cramfsck [-v] [-l] [--layout] [-x dir] [-b blksize] image\n"
		" -v          verbose: superblock and totals\n"
		" -l          list every entry, with per file its zlib / plain / xip blocks\n"
		" --layout    show where each block of each file lies in the image\n"
		" -x dir      extract the image into dir (must not exist)\n"
		" -b blksize  block size the image was made with (default 4096)\n"
		"Exit status: 0 clean, 4 errors found, 8 operational error, 16 usage.\n");
	exit(status);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "layout", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cimg img = { 0 };
	struct stat st;
	void *map;
	int c, fd;

	while ((c = getopt_long(argc, argv, "vlx:b:hL", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			opt.verbose = 1;
			break;
		case 'l':
			opt.list = 1;
			break;
		case 'L':
			opt.layout = 1;
			break;
		case 'x':
			opt.extract = optarg;
			break;
		case 'b':
			opt.blksize = strtoul(optarg, NULL, 0);
			if (opt.blksize < 4096 || (opt.blksize & (opt.blksize - 1)))
				usage_exit(EXIT_USAGE);
			break;
		case 'h':
			usage_exit(EXIT_CLEAN);
		default:
			usage_exit(EXIT_USAGE);
		}
	}
	if (argc - optind != 1)
		usage_exit(EXIT_USAGE);
	fd = open(argv[optind], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "cramfsck: %s: %s\n", argv[optind], strerror(errno));
		return EXIT_OPERATION;
	}
	if (st.st_size == 0) {
		fprintf(stderr, "cramfsck: %s: empty\n", argv[optind]);
		return EXIT_ERRORS;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "cramfsck: %s: %s\n", argv[optind], strerror(errno));
		return EXIT_OPERATION;
	}
	if (opt.extract && mkdir(opt.extract, 0755)) {
		fprintf(stderr, "cramfsck: %s: %s\n", opt.extract, strerror(errno));
		return EXIT_OPERATION;
	}
	if (cimg_open(&img, map, st.st_size, opt.blksize))
		return EXIT_ERRORS;
	if ((img.flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) && cimg_crc(&img) != img.crc)
		cimg_problem(&img, "CRC mismatch: superblock says %#x, contents give %#x", img.crc,
			     cimg_crc(&img));
	if (opt.verbose)
		printf("%s: %s-endian, %u bytes, flags %#x, edition %u, %u blocks, %u files, name \"%s\"\n",
		       argv[optind], img.big ? "big" : "little", img.size, img.flags, img.edition,
		       img.blocks, img.files, img.name);
	cimg_walk(&img, visit, NULL);
	if ((img.flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) && img.files != stats.files)
		cimg_problem(&img, "superblock counts %u files, the directories hold %lu", img.files,
			     stats.files);
	if (opt.verbose || opt.list)
		printf("%lu entries; blocks: %lu zlib, %lu plain, %lu xip (%lu not page-aligned), %lu holes\n",
		       stats.files, stats.blocks[CIMG_COMPRESSED] + stats.blocks[CIMG_DIRECT_COMPRESSED],
		       stats.blocks[CIMG_PLAIN], stats.blocks[CIMG_DIRECT_PLAIN], stats.unaligned_xip,
		       stats.blocks[CIMG_HOLE]);
	if (img.errors) {
		fprintf(stderr, "cramfsck: %s: %u errors\n", argv[optind], img.errors);
		return EXIT_ERRORS;
	}
	if (opt.verbose)
		printf("%s: clean\n", argv[optind]);
	return EXIT_CLEAN;
}
