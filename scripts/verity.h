/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The verity area of an image on the host (the hash tree, the trailer and
 * the signature after the image's size), shared by mkcramfs, which writes
 * it, and cramfsck, which checks it. The format is cramfs_xip_fs.h's; SHA-256
 * and PKCS#7 are OpenSSL's libcrypto.
 */
#ifndef CRAMFS_XIP_VERITY_H
#define CRAMFS_XIP_VERITY_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include "image.h"

/* The verity area of an image of a given size: all of it follows from the size. */
struct cimg_verity {
	uint32_t data_size;	/* the superblock's size */
	uint32_t data_blocks;	/* 4 KiB blocks hashed, the last zero-padded */
	uint32_t start;		/* the trailer's block: data_size rounded up to 4 KiB */
	uint32_t levels;
	uint32_t level_blocks[CRAMFS_XIP_VERITY_MAX_LEVELS];
	uint32_t level_offset[CRAMFS_XIP_VERITY_MAX_LEVELS];	/* image offsets */
	uint32_t tree_offset, tree_size;
	uint32_t end;		/* where the tree ends: the signature's offset */
	uint8_t root[CRAMFS_XIP_VERITY_HASH_SIZE];
	uint32_t sig_offset, sig_len;
};

/**
 * cimg_verity_geometry() - where the trailer and each tree level of an image lie
 * @v: filled in (the root and signature fields zeroed)
 * @size: the image's size, from its superblock
 *
 * Return: 0, or -1 when the area would not end below 4 GiB.
 */
int cimg_verity_geometry(struct cimg_verity *v, uint32_t size);

/**
 * cimg_verity_build() - hash the image and fill in its tree and root hash
 * @v: the geometry; its root is set
 * @data: the image, @v->data_size bytes
 * @tree: @v->tree_size bytes, what goes at @v->tree_offset
 */
void cimg_verity_build(struct cimg_verity *v, const uint8_t *data, uint8_t *tree);

/**
 * cimg_verity_trailer() - encode the trailer
 * @v: the geometry, root hash and signature place
 * @out: the trailer's CRAMFS_XIP_VERITY_TRAILER_SIZE bytes
 * @big: non-zero for a big-endian image
 */
void cimg_verity_trailer(const struct cimg_verity *v, uint8_t *out, int big);

/**
 * cimg_verity_hex() - a hash in lower-case hex
 * @hash: CRAMFS_XIP_VERITY_HASH_SIZE bytes
 * @hex: 2 * CRAMFS_XIP_VERITY_HASH_SIZE + 1 bytes
 */
void cimg_verity_hex(const uint8_t *hash, char *hex);

/**
 * cimg_verity_parse_hex() - read a root hash given in hex
 * @s: exactly 64 hex digits, either case
 * @hash: CRAMFS_XIP_VERITY_HASH_SIZE bytes
 *
 * Return: 0, or -1 for anything else.
 */
int cimg_verity_parse_hex(const char *s, uint8_t *hash);

/**
 * cimg_verity_load() - read a PEM certificate or private key
 * @who: what messages start with
 * @path: the PEM file (may hold both, as the kernel's signing_key.pem)
 * @cert: set to the certificate, when not NULL
 * @key: set to the private key, when not NULL
 *
 * Return: 0, or -1 with a message.
 */
int cimg_verity_load(const char *who, const char *path, X509 **cert, EVP_PKEY **key);

/**
 * cimg_verity_sign() - a detached PKCS#7 signature over the trailer's signed part
 * @who: what messages start with
 * @trailer: the trailer, signature fields as they will be written
 * @cert: the signer's certificate
 * @key: its private key
 * @sig: set to the DER, allocated by OpenSSL (OPENSSL_free() it)
 *
 * SHA-256, no signed attributes, no certificates in it: the form the
 * kernel's verify_pkcs7_signature() takes, as sign-file and fsverity make.
 *
 * Return: its length, or -1 with a message.
 */
int cimg_verity_sign(const char *who, const uint8_t *trailer, X509 *cert, EVP_PKEY *key,
		     uint8_t **sig);

/* What cimg_verity_check() demands besides a sound area. */
struct cimg_verity_want {
	const uint8_t *root;	/* this root hash, or NULL */
	X509 *cert;		/* a signature this certificate verifies, or NULL */
	const char *cert_path;	/* for messages */
	int required;		/* a trailer at all */
};

#define CIMG_VERITY_NONE	1	/* no trailer where it would be */

/**
 * cimg_verity_check() - check an image's verity area against its contents
 * @img: an opened image; @img->len may run past the area
 * @want: what is demanded
 * @v: the area found (geometry, root, signature place)
 *
 * Every data block is hashed and every tree block checked against the level
 * above, the top against the trailer's root hash. Problems are reported
 * through cimg_problem(): per level, the first bad block and how many.
 *
 * Return: 0 when all holds, CIMG_VERITY_NONE when there is no trailer and
 * none is demanded, -1 with problems reported.
 */
int cimg_verity_check(struct cimg *img, const struct cimg_verity_want *want,
		      struct cimg_verity *v);

#endif /* CRAMFS_XIP_VERITY_H */
