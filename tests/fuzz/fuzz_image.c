// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the shared image walker (scripts/image.c) on arbitrary
 * bytes: open, CRC, walk every directory, decode every block of every file
 * and symlink, as cramfsck and mkcramfs's self-check do.
 * Built and run by `make fuzz`; AddressSanitizer and UBSan report what breaks.
 */
#include <stdint.h>
#include <stdlib.h>
#include "image.h"

static int visit(struct cimg *img, const struct cimg_entry *e, void *ctx)
{
	char *link;

	(void)ctx;
	if (((e->d.mode & 0170000) == 0100000 || (e->d.mode & 0170000) == 0120000) && e->d.size &&
	    !cimg_check_data(img, e, NULL, NULL, &link))
		free(link);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cimg img = { .quiet = 1 };

	if (cimg_open(&img, data, size, 0))
		return 0;
	(void)cimg_crc(&img);
	cimg_walk(&img, visit, NULL);
	cimg_close(&img);
	return 0;
}
