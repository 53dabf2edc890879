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
 * This file is the command line and the order of the steps, each in a file
 * of its own (mkcramfs.h lists them). Documentation/mkcramfs.8 is the manual.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "mkcramfs.h"

struct options opt = { .blksize = CRAMFS_XIP_BLOCK_SIZE, .level = Z_BEST_COMPRESSION };
struct totals stats;

void die_with(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("mkcramfs: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(status);
}

void warn_count(const char *fmt, ...)
{
	va_list ap;

	stats.warnings++;
	va_start(ap, fmt);
	fputs("mkcramfs: warning: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void *xzalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return s;
}

static __noreturn void usage_exit(int status);
static void usage_exit(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: mkcramfs [options] dirname outfile\n"
		" -b blksize      block size: the target's page size, 4096 to 65536\n"
		"                 (default 4096, the only size cramfs_xip mounts)\n"
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
		" --verity        append a SHA-256 hash tree and a trailer with its root hash,\n"
		"                 which is printed\n"
		" --sign-key KEY --sign-cert CERT  with --verity: sign the root (PKCS#7, for\n"
		"                 the kernel's keyrings) with KEY, a PEM private key, and\n"
		"                 CERT, its certificate (PEM or DER; one PEM file may hold both)\n"
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

/* Long options without a letter. */
enum { OPT_VERITY = 256, OPT_SIGN_KEY, OPT_SIGN_CERT };

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "xip-profile", required_argument, NULL, 'P' },
		{ "verity", no_argument, NULL, OPT_VERITY },
		{ "sign-key", required_argument, NULL, OPT_SIGN_KEY },
		{ "sign-cert", required_argument, NULL, OPT_SIGN_CERT },
		{ NULL, 0, NULL, 0 },
	};
	struct entry root = { .ipath = "/" };
	const uint8_t *img;
	uint32_t len;
	size_t file_len;
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
		case OPT_VERITY:
			opt.verity = 1;
			break;
		case OPT_SIGN_KEY:
			opt.sign_key = optarg;
			break;
		case OPT_SIGN_CERT:
			opt.sign_cert = optarg;
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
	if (!opt.sign_key != !opt.sign_cert)
		usage_error("--sign-key and --sign-cert go together");
	if (opt.sign_key && !opt.verity)
		usage_error("--sign-key and --sign-cert sign the verity root: they need --verity");
	open_output(argv[optind + 1]);
	if (opt.sign_key)
		load_signer();
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
	scan_tree(&root, argv[optind]);
	if (opt.devtable)
		apply_devtable(&root, opt.devtable);
	finish_owners(&root);
	select_xip(&root);
	img = build_image(&root, &len);
	file_len = opt.verity ? add_verity(img, len) : len;
	write_output(img, file_len);

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
	printf("mkcramfs: image %u bytes%s\n", len, stats.warnings ? " (with warnings)" : "");
	if (opt.verity)
		print_verity(file_len);
	return opt.errors && stats.warnings ? EXIT_ERROR : 0;
}
