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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "verity.h"

#define EXIT_CLEAN	0
#define EXIT_ERRORS	4
#define EXIT_OPERATION	8
#define EXIT_USAGE	16

static struct {
	int verbose, list, layout;
	const char *extract;
	uint32_t blksize;
	uint8_t root_hash[CRAMFS_XIP_VERITY_HASH_SIZE];
	struct cimg_verity_want verity;
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

/*
 * What the check of one block table found, by its offset and size: entries
 * that share their data (mkcramfs stores identical files once, and a crafted
 * image can point 100,000 entries at one 16 MiB table) are checked once.
 */
struct table {
	uint32_t offset, size;	/* offset 0: an empty slot */
	unsigned long kinds[5], unaligned;
	int bad;
};

static struct {
	struct table *slot;
	size_t cap, used;
} tables;

/* @d's table: the one found, or an empty slot for it; NULL without memory. */
static struct table *table_slot(const struct cramfs_xip_dinode *d)
{
	size_t i;

	if (tables.used * 2 >= tables.cap) {
		struct table *old = tables.slot;
		size_t cap = tables.cap, n = tables.cap ? 2 * tables.cap : 1024;

		tables.slot = calloc(n, sizeof(*tables.slot));
		if (!tables.slot) {
			tables.slot = old;
			return NULL;
		}
		tables.cap = n;
		tables.used = 0;
		for (i = 0; i < cap; i++)
			if (old[i].offset)
				*table_slot(&(struct cramfs_xip_dinode){ .offset = old[i].offset,
									.size = old[i].size }) = old[i];
		free(old);
	}
	for (i = (d->offset * 2654435761u ^ d->size) & (tables.cap - 1);
	     tables.slot[i].offset && (tables.slot[i].offset != d->offset ||
				       tables.slot[i].size != d->size);
	     i = (i + 1) & (tables.cap - 1))
		;
	if (!tables.slot[i].offset) {
		tables.slot[i].offset = d->offset;
		tables.slot[i].size = d->size;
		tables.slot[i].bad = -1;	/* not checked yet */
		tables.used++;
	}
	return &tables.slot[i];
}

static void count_block(struct cimg *img, const struct cimg_entry *e, uint32_t index,
			const struct cimg_block *b, void *ctx)
{
	unsigned long *kinds = ctx;

	kinds[b->kind]++;
	stats.blocks[b->kind]++;
	if (b->kind == CIMG_DIRECT_PLAIN && b->start % img->blksize) {
		stats.unaligned_xip++;
		kinds[5]++;
	}
	if (opt.layout)
		printf("  %s block %u: %s at %u, %u bytes\n", e->path, index,
		       cimg_block_kind_name(b->kind), b->start, b->len);
}

static int visit(struct cimg *img, const struct cimg_entry *e, void *ctx)
{
	const struct cramfs_xip_dinode *d = &e->d;
	unsigned long kinds[6] = { 0 };
	int has_data = (S_ISREG(d->mode) || S_ISLNK(d->mode)) && d->size, i, bad;
	struct table *t = NULL;
	char *link = NULL;
	char mode[11];

	(void)ctx;
	stats.files++;
	/* A file whose table was checked with an earlier entry: its findings again. */
	if (has_data && S_ISREG(d->mode) && !opt.layout)
		t = table_slot(d);
	if (t && t->bad >= 0) {
		for (i = 0; i < 5; i++) {
			kinds[i] = t->kinds[i];
			stats.blocks[i] += t->kinds[i];
		}
		kinds[5] = t->unaligned;
		stats.unaligned_xip += t->unaligned;
		if (t->bad)
			cimg_problem(img, "%s: its data, shared with an entry above, is bad", e->path);
	} else if (has_data) {
		/* A bad block is reported there; the check goes on with the next entry. */
		bad = cimg_check_data(img, e, count_block, kinds, &link) != 0;
		if (t) {
			memcpy(t->kinds, kinds, sizeof(t->kinds));
			t->unaligned = kinds[5];
			t->bad = bad;
		}
	}
	if (opt.list) {
		mode_string(d->mode, mode);
		printf("%s %5u %3u ", mode, d->uid, d->gid);
		if (S_ISCHR(d->mode) || S_ISBLK(d->mode))
			printf("%3u,%3u ", (d->size >> 8) & 0xff, d->size & 0xff);
		else
			printf("%7u ", d->size);
		if (has_data && S_ISREG(d->mode))
			/* As the summary: direct plain blocks off a page boundary are plain. */
			printf("[%lu zlib %lu plain %lu xip %lu hole] ",
			       kinds[CIMG_COMPRESSED] + kinds[CIMG_DIRECT_COMPRESSED],
			       kinds[CIMG_PLAIN] + kinds[5], kinds[CIMG_DIRECT_PLAIN] - kinds[5],
			       kinds[CIMG_HOLE]);
		printf("%s", e->path);
		if (link)
			printf(" -> %s", link);
		putchar('\n');
	}
	free(link);
	return 0;
}

static __noreturn void usage_exit(int status);
static void usage_exit(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: cramfsck [options] image\n"
		" -v, --verbose          superblock and totals\n"
		" -l, --list             list every entry, with per file its zlib / plain /\n"
		"                        xip blocks\n"
		"     --layout           show where each block of each file lies in the image\n"
		" -x, --extract=dir      extract the image into dir (must not exist)\n"
		" -b, --blocksize=size   block size the image was made with (default 4096)\n"
		"     --verity           demand a verity trailer and tree (without it, one\n"
		"                        found is checked, and its root hash printed)\n"
		"     --root-hash=hex    demand this root hash (64 hex digits); implies --verity\n"
		"     --cert=cert        demand a signature this certificate (PEM or DER)\n"
		"                        verifies; implies --verity\n"
		" -a, -y                 accepted for fsck's sake, ignored\n"
		" -h, --help             this help\n"
		" -V, --version          the version\n"
		"Exit status: 0 clean, 4 errors found, 8 operational error, 16 usage.\n");
	exit(status);
}

/* Bytes of a regular file or a block device. */
static int image_size(int fd, const struct stat *st, off_t *size)
{
	if (!S_ISBLK(st->st_mode)) {
		*size = st->st_size;
		return 0;
	}
	*size = lseek(fd, 0, SEEK_END);
	return *size < 0 ? -1 : 0;
}

/* One open directory per level of the tree: as many as the hard limit allows. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int sum_sizes(struct cimg *img, const struct cimg_entry *e, void *ctx)
{
	(void)img;
	if (S_ISREG(e->d.mode))
		*(unsigned long long *)ctx += e->d.size;
	return 0;
}

/*
 * What the image's files claim, against the free space where they would
 * go: entries can share data, so that a 16 MiB image can claim terabytes
 * (100,000 names of one 16 MiB file). Such an image is refused before
 * anything is written. 0, or 1 with a message.
 */
static int extract_fits(struct cimg *img, const char *image)
{
	unsigned long long claimed = 0, avail;
	char *dir = strdup(opt.extract), *slash;
	unsigned int errors;
	struct statvfs vfs;
	int ret = 0;

	if (!dir)
		return 0;
	/* The target, or the directory it will be made in. */
	while (statvfs(dir, &vfs)) {
		slash = strrchr(dir, '/');
		if (!slash || slash == dir) {
			strcpy(dir, slash == dir ? "/" : ".");
			if (statvfs(dir, &vfs))
				goto out;
			break;
		}
		*slash = 0;
	}
	/* Its problems are the extraction's to report. */
	errors = img->errors;
	img->quiet++;
	cimg_walk(img, sum_sizes, &claimed);
	img->quiet--;
	img->errors = errors;
	avail = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
	if (claimed > avail) {
		fprintf(stderr, "cramfsck: %s: its files hold %llu bytes, more than the %llu free in %s: nothing extracted\n",
			image, claimed, avail, dir);
		ret = 1;
	}
out:
	free(dir);
	return ret;
}

static int extract(struct cimg *img, const char *image)
{
	struct stat st;
	int ret;

	if (extract_fits(img, image))
		return EXIT_OPERATION;
	raise_fd_limit();
	ret = cimg_extract(img, AT_FDCWD, opt.extract, !geteuid());
	if (!ret)
		return EXIT_CLEAN;
	if (lstat(opt.extract, &st))
		fprintf(stderr, "cramfsck: %s: %s not made, nothing extracted\n", image,
			opt.extract);
	else
		fprintf(stderr, "cramfsck: %s: extraction stopped; what it made so far is left in %s\n",
			image, opt.extract);
	return ret == CIMG_EXTRACT_HOST ? EXIT_OPERATION : EXIT_ERRORS;
}

/*
 * Errors a wrong -b explains: the image read with each other block size,
 * quietly and up to its first problem. One that reads clean is named.
 */
static void hint_block_size(const void *map, size_t size, const char *image, unsigned int used)
{
	struct cimg other = { .quiet = 1 };
	unsigned int b;
	uint32_t n;
	int clean;

	for (b = 4096; b <= 65536; b *= 2) {
		if (b == used || cimg_open(&other, map, size, b))
			continue;
		clean = !cimg_check_tree(&other, 1, &n);
		cimg_close(&other);
		if (clean) {
			fprintf(stderr, "cramfsck: %s: hint: it reads clean with -b %u: made with that block size?\n",
				image, b);
			return;
		}
	}
}

/* What cimg_verity_check() found: the root hash and signature said, --layout's lines. */
static void print_verity(const char *image, const struct cimg_verity *v, int clean)
{
	char hex[2 * CRAMFS_XIP_VERITY_HASH_SIZE + 1];
	int l;

	if (opt.layout) {
		printf("  verity trailer at %u, %u bytes\n", v->start, CRAMFS_XIP_VERITY_BLOCK_SIZE);
		for (l = v->levels - 1; l >= 0; l--)
			printf("  verity tree level %d at %u, %u blocks\n", l, v->level_offset[l],
			       v->level_blocks[l]);
		if (v->sig_len)
			printf("  verity signature at %u, %u bytes\n", v->sig_offset, v->sig_len);
	}
	if (!clean)
		return;
	cimg_verity_hex(v->root, hex);
	printf("%s: verity root hash %s\n", image, hex);
	if (v->sig_len)
		printf("%s: verity signature %s%s\n", image,
		       opt.verity.cert ? "verified with " : "not checked (no --cert)",
		       opt.verity.cert ? opt.verity.cert_path : "");
}

/* Long options without a letter. */
enum { OPT_LAYOUT = 256, OPT_VERITY, OPT_ROOT_HASH, OPT_CERT };

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "list", no_argument, NULL, 'l' },
		{ "layout", no_argument, NULL, OPT_LAYOUT },
		{ "verity", no_argument, NULL, OPT_VERITY },
		{ "root-hash", required_argument, NULL, OPT_ROOT_HASH },
		{ "cert", required_argument, NULL, OPT_CERT },
		{ "extract", optional_argument, NULL, 'E' },
		{ "blocksize", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char who[PATH_MAX + sizeof("cramfsck: ")];
	struct cimg img = { .who = who };
	const char *image;
	struct stat st;
	off_t size;
	void *map;
	unsigned int tree_errors;
	struct cimg_verity area;
	int c, fd, verity;

	while ((c = getopt_long(argc, argv, "vlx:b:ayhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			opt.verbose = 1;
			break;
		case 'l':
			opt.list = 1;
			break;
		case OPT_LAYOUT:
			opt.layout = 1;
			break;
		case OPT_VERITY:
			opt.verity.required = 1;
			break;
		case OPT_ROOT_HASH:
			if (cimg_verity_parse_hex(optarg, opt.root_hash)) {
				fprintf(stderr, "cramfsck: --root-hash takes 64 hex digits, not '%s'\n",
					optarg);
				exit(EXIT_USAGE);
			}
			opt.verity.root = opt.root_hash;
			opt.verity.required = 1;
			break;
		case OPT_CERT:
			opt.verity.cert_path = optarg;
			opt.verity.required = 1;
			break;
		case 'E':
			/* util-linux: --extract alone only tests decompression, as we always do. */
			if (!optarg)
				break;
			/* fall through */
		case 'x':
			opt.extract = optarg;
			break;
		case 'b':
			if (cimg_parse_u32(optarg, 4096, 65536, &opt.blksize) ||
			    (opt.blksize & (opt.blksize - 1))) {
				fprintf(stderr, "cramfsck: -b takes a power of two from 4096 to 65536, not '%s'\n",
					optarg);
				exit(EXIT_USAGE);
			}
			break;
		case 'a':
		case 'y':
			break;
		case 'h':
			usage_exit(EXIT_CLEAN);
		case 'V':
			printf("cramfsck from cramfs-xip %s\n", CIMG_VERSION);
			return EXIT_CLEAN;
		default:
			usage_exit(EXIT_USAGE);
		}
	}
	if (argc - optind != 1)
		usage_exit(EXIT_USAGE);
	if (opt.verity.cert_path &&
	    cimg_verity_load("cramfsck", opt.verity.cert_path, &opt.verity.cert, NULL))
		return EXIT_OPERATION;
	image = argv[optind];
	/* Every problem names the image, as the other messages do. */
	snprintf(who, sizeof(who), "cramfsck: %s", image);
	if (opt.extract && !fstatat(AT_FDCWD, opt.extract, &st, AT_SYMLINK_NOFOLLOW)) {
		fprintf(stderr, "cramfsck: %s: %s: %s\n", image, opt.extract, strerror(EEXIST));
		return EXIT_OPERATION;
	}
	fd = open(image, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || image_size(fd, &st, &size)) {
		fprintf(stderr, "cramfsck: %s: %s\n", image, strerror(errno));
		return EXIT_OPERATION;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		fprintf(stderr, "cramfsck: %s: a %s, not an image (a file or a block device)\n",
			image, S_ISDIR(st.st_mode) ? "directory" : "special file");
		return EXIT_OPERATION;
	}
	if (size == 0) {
		fprintf(stderr, "cramfsck: %s: empty, no image in it\n", image);
		return EXIT_ERRORS;
	}
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "cramfsck: %s: %s\n", image, strerror(errno));
		return EXIT_OPERATION;
	}
	if (cimg_open(&img, map, size, opt.blksize))
		return EXIT_ERRORS;
	if ((img.flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) && cimg_crc(&img) != img.crc)
		cimg_problem(&img, "CRC mismatch: superblock says %#x, contents give %#x", img.crc,
			     cimg_crc(&img));
	if (opt.verbose)
		printf("%s: %s-endian, %u bytes, flags %#x, edition %u, %u blocks, %u files, name \"%s\"\n",
		       image, img.big ? "big" : "little", img.size, img.flags, img.edition,
		       img.blocks, img.files, img.name);
	tree_errors = img.errors;
	cimg_walk(&img, visit, NULL);
	cimg_close(&img);
	tree_errors = img.errors - tree_errors;
	if ((img.flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) && img.files != stats.files)
		cimg_problem(&img, "superblock counts %u files, the directories hold %lu", img.files,
			     stats.files);
	if (opt.verbose || opt.list)
		/*
		 * Direct plain blocks: page-aligned ones are what mkcramfs -X
		 * stored for XIP, which any kernel maps in place; the others
		 * (-A, or a block zlib could not shrink stored after one) only
		 * a kernel without an MMU.
		 */
		printf("%lu entries; blocks: %lu zlib, %lu plain, %lu xip, %lu direct plain not page-aligned, %lu holes\n",
		       stats.files, stats.blocks[CIMG_COMPRESSED] + stats.blocks[CIMG_DIRECT_COMPRESSED],
		       stats.blocks[CIMG_PLAIN], stats.blocks[CIMG_DIRECT_PLAIN] - stats.unaligned_xip,
		       stats.unaligned_xip, stats.blocks[CIMG_HOLE]);
	/* The tree covers every stored byte, whatever the walk made of them. */
	verity = cimg_verity_check(&img, &opt.verity, &area);
	if (verity != CIMG_VERITY_NONE)
		print_verity(image, &area, !verity);
	if (img.errors) {
		fprintf(stderr, "cramfsck: %s: %u errors%s\n", image, img.errors,
			opt.extract ? ", nothing extracted" : "");
		/* The tree's errors, not the superblock's, may come from the block size. */
		if (tree_errors)
			hint_block_size(map, size, image, img.blksize);
		return EXIT_ERRORS;
	}
	/* Only a clean image is extracted: a bad one leaves no half-made tree. */
	if (opt.extract) {
		c = extract(&img, image);
		if (c)
			return c;
	}
	if (opt.verbose)
		printf("%s: clean\n", image);
	return EXIT_CLEAN;
}
