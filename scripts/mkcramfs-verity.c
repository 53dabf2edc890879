// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcramfs --verity: the trailer, the hash tree and the signature after the
 * image (Documentation/format.md, "Verity").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mkcramfs.h"
#include "verity.h"

static struct {
	X509 *cert;
	EVP_PKEY *key;
} signer;
static struct cimg_verity area;

void load_signer(void)
{
	if (cimg_verity_load("mkcramfs: error", opt.sign_cert, &signer.cert, NULL) ||
	    cimg_verity_load("mkcramfs: error", opt.sign_key, NULL, &signer.key))
		exit(EXIT_ERROR);
}

size_t add_verity(const uint8_t *img, uint32_t size)
{
	const size_t trailer_size = CRAMFS_XIP_VERITY_TRAILER_SIZE;
	struct cimg_verity *v = &area;
	uint8_t *sig;
	size_t end;
	int len;

	if (cimg_verity_geometry(v, size))
		die("image too large for a verity tree: it would end past 4 GiB");
	/* The whole trailer block, zeros after the trailer. */
	at(v->start, CRAMFS_XIP_VERITY_BLOCK_SIZE);
	cimg_verity_build(v, img, at(v->tree_offset, v->tree_size));
	if (signer.key) {
		/* The signed part says it is signed; where the signature lies is not in it. */
		v->sig_offset = v->end;
		cimg_verity_trailer(v, at(v->start, trailer_size), opt.big);
		len = cimg_verity_sign("mkcramfs: error", at(v->start, trailer_size), signer.cert,
				       signer.key, &sig);
		if (len < 0)
			exit(EXIT_ERROR);
		v->sig_len = len;
		memcpy(at(v->end, len), sig, len);
		OPENSSL_free(sig);
	}
	cimg_verity_trailer(v, at(v->start, trailer_size), opt.big);
	/* A whole number of 4 KiB blocks, as the image itself. */
	end = ((size_t)v->end + v->sig_len + CRAMFS_XIP_VERITY_BLOCK_SIZE - 1) &
	      ~(size_t)(CRAMFS_XIP_VERITY_BLOCK_SIZE - 1);
	at(0, end);
	return end;
}

void print_verity(size_t len)
{
	const struct cimg_verity *v = &area;
	char hex[2 * CRAMFS_XIP_VERITY_HASH_SIZE + 1], sig[32] = "unsigned";

	if (v->sig_len)
		snprintf(sig, sizeof(sig), "signature %u bytes", v->sig_len);
	printf("mkcramfs: verity: trailer at %u, tree of %u blocks in %u levels, %s: file %zu bytes\n",
	       v->start, v->tree_size / CRAMFS_XIP_VERITY_BLOCK_SIZE, v->levels, sig, len);
	cimg_verity_hex(v->root, hex);
	printf("mkcramfs: verity root hash %s\n", hex);
}
