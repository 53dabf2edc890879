// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verity area of an image: its geometry, the hash tree built and
 * checked, the trailer, and the PKCS#7 signature made and verified.
 * Documentation/format.md ("Verity") describes the format.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/sha.h>
#include <openssl/x509v3.h>
#include "verity.h"

#define BLOCK		CRAMFS_XIP_VERITY_BLOCK_SIZE
#define HASH		CRAMFS_XIP_VERITY_HASH_SIZE
#define PER_BLOCK	CRAMFS_XIP_VERITY_HASHES_PER_BLOCK
/* The signer's flags: what the kernel takes, as fsverity-utils signs. */
#define SIGN_FLAGS	(PKCS7_BINARY | PKCS7_DETACHED | PKCS7_NOATTR | PKCS7_NOCERTS)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Where a field of the trailer lies. */
#define WORD(field)	offsetof(struct cramfs_xip_verity_trailer, field)
_Static_assert(sizeof(struct cramfs_xip_verity_trailer) == CRAMFS_XIP_VERITY_TRAILER_SIZE,
	       "trailer size");
_Static_assert(WORD(sig_offset) == CRAMFS_XIP_VERITY_SIGNED_SIZE, "signed part");
_Static_assert(WORD(crc) == CRAMFS_XIP_VERITY_CRC_OFFSET, "crc offset");

int cimg_verity_geometry(struct cimg_verity *v, uint32_t size)
{
	uint64_t start = CRAMFS_XIP_VERITY_START(size), off;
	uint32_t n;
	int i;

	memset(v, 0, sizeof(*v));
	v->data_size = size;
	v->data_blocks = start / BLOCK;
	for (n = v->data_blocks; n > 1; n = v->level_blocks[v->levels++])
		v->level_blocks[v->levels] = (n + PER_BLOCK - 1) / PER_BLOCK;
	off = start + BLOCK;
	for (i = v->levels - 1; i >= 0; i--) {
		v->level_offset[i] = off;
		off += (uint64_t)v->level_blocks[i] * BLOCK;
	}
	if (off > UINT32_MAX)
		return -1;
	v->start = start;
	v->tree_offset = start + BLOCK;
	v->end = off;
	v->tree_size = v->end - v->tree_offset;
	return 0;
}

/* Data block @i: the image's bytes, the last block zero-padded. */
static void hash_data_block(const struct cimg_verity *v, const uint8_t *data, uint32_t i,
			    uint8_t *out)
{
	uint32_t len = v->data_size - i * BLOCK;
	uint8_t buf[BLOCK];

	if (len >= BLOCK) {
		SHA256(data + (size_t)i * BLOCK, BLOCK, out);
		return;
	}
	memcpy(buf, data + (size_t)i * BLOCK, len);
	memset(buf + len, 0, BLOCK - len);
	SHA256(buf, BLOCK, out);
}

void cimg_verity_build(struct cimg_verity *v, const uint8_t *data, uint8_t *tree)
{
	uint8_t *level, *up;
	uint32_t i, l;

	if (!v->levels) {
		hash_data_block(v, data, 0, v->root);
		return;
	}
	/* Entry j of a level sits j * 32 bytes into it: block j / 128, slot j % 128. */
	level = tree + (v->level_offset[0] - v->tree_offset);
	for (i = 0; i < v->data_blocks; i++)
		hash_data_block(v, data, i, level + (size_t)i * HASH);
	for (l = 1; l < v->levels; l++) {
		up = tree + (v->level_offset[l] - v->tree_offset);
		for (i = 0; i < v->level_blocks[l - 1]; i++)
			SHA256(level + (size_t)i * BLOCK, BLOCK, up + (size_t)i * HASH);
		level = up;
	}
	SHA256(level, BLOCK, v->root);
}

void cimg_verity_trailer(const struct cimg_verity *v, uint8_t *out, int big)
{
	uint32_t i;

	memset(out, 0, CRAMFS_XIP_VERITY_TRAILER_SIZE);
	memcpy(out + WORD(magic), CRAMFS_XIP_VERITY_MAGIC, 8);
	cramfs_xip_put32(out + WORD(version), CRAMFS_XIP_VERITY_VERSION, big);
	cramfs_xip_put32(out + WORD(flags), v->sig_offset ? CRAMFS_XIP_VERITY_FLAG_SIGNED : 0, big);
	cramfs_xip_put32(out + WORD(data_size), v->data_size, big);
	cramfs_xip_put32(out + WORD(block_size), BLOCK, big);
	cramfs_xip_put32(out + WORD(hash_alg), CRAMFS_XIP_VERITY_HASH_SHA256, big);
	cramfs_xip_put32(out + WORD(hash_size), HASH, big);
	cramfs_xip_put32(out + WORD(levels), v->levels, big);
	cramfs_xip_put32(out + WORD(tree_offset), v->tree_offset, big);
	cramfs_xip_put32(out + WORD(tree_size), v->tree_size, big);
	for (i = 0; i < v->levels; i++)
		cramfs_xip_put32(out + WORD(level_offset) + 4 * i, v->level_offset[i], big);
	memcpy(out + WORD(root_hash), v->root, HASH);
	cramfs_xip_put32(out + WORD(sig_offset), v->sig_offset, big);
	cramfs_xip_put32(out + WORD(sig_len), v->sig_len, big);
	cramfs_xip_put32(out + WORD(crc), crc32(0, out, CRAMFS_XIP_VERITY_TRAILER_SIZE), big);
}

void cimg_verity_hex(const uint8_t *hash, char *hex)
{
	int i;

	for (i = 0; i < HASH; i++)
		sprintf(hex + 2 * i, "%02x", hash[i]);
}

int cimg_verity_parse_hex(const char *s, uint8_t *hash)
{
	static const char digits[] = "0123456789abcdef0123456789ABCDEF";
	const char *p;
	int i;

	if (strlen(s) != 2 * HASH)
		return -1;
	for (i = 0; i < 2 * HASH; i++) {
		p = strchr(digits, s[i]);
		if (!s[i] || !p)
			return -1;
		if (i % 2 == 0)
			hash[i / 2] = 0;
		hash[i / 2] |= ((p - digits) % 16) << (i % 2 ? 0 : 4);
	}
	return 0;
}

/* OpenSSL's reason for the last failure, for a message. */
static const char *ssl_reason(void)
{
	const char *r = ERR_reason_error_string(ERR_peek_last_error());

	ERR_clear_error();
	return r ? r : "unknown reason";
}

/* No passphrase is asked for: the key is read unencrypted, as sign-file does in a build. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
	(void)buf;
	(void)size;
	(void)rwflag;
	(void)u;
	return -1;
}

int cimg_verity_load(const char *who, const char *path, X509 **cert, EVP_PKEY **key)
{
	BIO *b = BIO_new_file(path, "rb");

	if (!b) {
		fprintf(stderr, "%s: %s: %s\n", who, path, ssl_reason());
		return -1;
	}
	if (cert) {
		*cert = PEM_read_bio_X509(b, NULL, no_passphrase, NULL);
		/* The kernel's build leaves certs/signing_key.x509 in DER. */
		if (!*cert && BIO_seek(b, 0) == 0)
			*cert = d2i_X509_bio(b, NULL);
	}
	if (key && (!cert || *cert) && BIO_seek(b, 0) == 0)
		*key = PEM_read_bio_PrivateKey(b, NULL, no_passphrase, NULL);
	BIO_free(b);
	if (cert && !*cert) {
		fprintf(stderr, "%s: %s: no certificate (PEM or DER) in it: %s\n", who, path,
			ssl_reason());
		return -1;
	}
	if (key && !*key) {
		fprintf(stderr, "%s: %s: no unencrypted private key (PEM) in it: %s\n", who, path,
			ssl_reason());
		return -1;
	}
	ERR_clear_error();
	return 0;
}

int cimg_verity_sign(const char *who, const uint8_t *trailer, X509 *cert, EVP_PKEY *key,
		     uint8_t **sig)
{
	BIO *msg = BIO_new_mem_buf(trailer, CRAMFS_XIP_VERITY_SIGNED_SIZE);
	PKCS7 *p7 = NULL;
	int len = -1;

	*sig = NULL;
	if (!X509_check_private_key(cert, key)) {
		fprintf(stderr, "%s: the signing key is not the certificate's: %s\n", who,
			ssl_reason());
		goto out;
	}
	p7 = PKCS7_sign(NULL, NULL, NULL, msg, SIGN_FLAGS | PKCS7_PARTIAL);
	if (!msg || !p7 || !PKCS7_sign_add_signer(p7, cert, key, EVP_sha256(), SIGN_FLAGS) ||
	    !PKCS7_final(p7, msg, SIGN_FLAGS)) {
		fprintf(stderr, "%s: signing failed: %s\n", who, ssl_reason());
		goto out;
	}
	len = i2d_PKCS7(p7, sig);
	if (len <= 0 || len > CRAMFS_XIP_VERITY_MAX_SIG_SIZE) {
		fprintf(stderr, "%s: the signature takes %d bytes, not 1 to %d\n", who, len,
			CRAMFS_XIP_VERITY_MAX_SIG_SIZE);
		len = -1;
	}
out:
	PKCS7_free(p7);
	BIO_free(msg);
	return len;
}

/* The stored block @j of level @l, data blocks being level -1: its hash. */
static void stored_hash(const struct cimg *img, const struct cimg_verity *v, int l, uint32_t j,
			uint8_t *out)
{
	if (l < 0)
		hash_data_block(v, img->data, j, out);
	else
		SHA256(img->data + v->level_offset[l] + (size_t)j * BLOCK, BLOCK, out);
}

/* Where the hash of block @j of level @l is kept: the level above, or the root. */
static const uint8_t *kept_hash(const struct cimg *img, const struct cimg_verity *v, int l,
				uint32_t j)
{
	if (l + 1 == (int)v->levels)
		return v->root;
	return img->data + v->level_offset[l + 1] + (size_t)j * HASH;
}

static void name_block(const struct cimg_verity *v, int l, uint32_t j, char *s, size_t n)
{
	if (l < 0)
		snprintf(s, n, "data block %u (image bytes %llu to %llu)", j,
			 (unsigned long long)j * BLOCK, (unsigned long long)j * BLOCK + BLOCK - 1);
	else
		snprintf(s, n, "tree level %d block %u (at %llu)", l, j,
			 (unsigned long long)v->level_offset[l] + (unsigned long long)j * BLOCK);
}

/* Each level, top first (a bad block above explains the ones below): 0 or -1. */
static int check_tree(struct cimg *img, const struct cimg_verity *v)
{
	uint32_t j, n, bad, first = 0;
	uint8_t h[HASH];
	char what[96], where[64];
	int l, ret = 0;

	for (l = v->levels - 1; l >= -1; l--) {
		n = l < 0 ? v->data_blocks : v->level_blocks[l];
		bad = 0;
		for (j = 0; j < n; j++) {
			stored_hash(img, v, l, j, h);
			if (memcmp(h, kept_hash(img, v, l, j), HASH) && !bad++)
				first = j;
		}
		if (!bad)
			continue;
		name_block(v, l, first, what, sizeof(what));
		if (l + 1 == (int)v->levels)
			snprintf(where, sizeof(where), "the trailer's root hash");
		else
			snprintf(where, sizeof(where), "its hash in tree level %d", l + 1);
		cimg_problem(img, "verity: %s does not match %s (%u bad of %u at this level)", what,
			     where, bad, n);
		ret = -1;
	}
	return ret;
}

/* The trailer's fields against the geometry its data size gives: 0 or -1. */
static int check_fields(struct cimg *img, const uint8_t *t, struct cimg_verity *v)
{
	static const struct {
		size_t off;
		const char *name;
	} fields[] = {
		{ WORD(version), "version" }, { WORD(data_size), "data size" },
		{ WORD(block_size), "block size" }, { WORD(hash_alg), "hash algorithm" },
		{ WORD(hash_size), "hash size" }, { WORD(levels), "levels" },
		{ WORD(tree_offset), "tree offset" }, { WORD(tree_size), "tree size" },
		{ WORD(level_offset) + 0, "level 0 offset" },
		{ WORD(level_offset) + 4, "level 1 offset" },
		{ WORD(level_offset) + 8, "level 2 offset" },
		{ WORD(level_offset) + 12, "level 3 offset" },
	};
	uint32_t want[ARRAY_SIZE(fields)] = {
		CRAMFS_XIP_VERITY_VERSION, v->data_size, BLOCK, CRAMFS_XIP_VERITY_HASH_SHA256,
		HASH, v->levels, v->tree_offset, v->tree_size, v->level_offset[0],
		v->level_offset[1], v->level_offset[2], v->level_offset[3],
	};
	uint32_t flags = cramfs_xip_get32(t + WORD(flags), img->big), got;
	size_t i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		got = cramfs_xip_get32(t + fields[i].off, img->big);
		if (got == want[i])
			continue;
		cimg_problem(img, "verity: the trailer's %s is %u, the image's size %u gives %u",
			     fields[i].name, got, v->data_size, want[i]);
		ret = -1;
	}
	for (i = WORD(reserved); i < WORD(crc); i++)
		if (t[i]) {
			cimg_problem(img, "verity: the trailer's reserved bytes are not zero");
			return -1;
		}
	if (flags & ~CRAMFS_XIP_VERITY_SUPPORTED_FLAGS) {
		cimg_problem(img, "verity: the trailer has unknown flags %#x",
			     flags & ~CRAMFS_XIP_VERITY_SUPPORTED_FLAGS);
		return -1;
	}
	v->sig_offset = cramfs_xip_get32(t + WORD(sig_offset), img->big);
	v->sig_len = cramfs_xip_get32(t + WORD(sig_len), img->big);
	if (!(flags & CRAMFS_XIP_VERITY_FLAG_SIGNED) ? v->sig_offset || v->sig_len :
	    v->sig_offset != v->end || !v->sig_len || v->sig_len > CRAMFS_XIP_VERITY_MAX_SIG_SIZE) {
		cimg_problem(img, "verity: the trailer's signature at %u, %u bytes, is not %s",
			     v->sig_offset, v->sig_len,
			     flags ? "right after the tree, 1 to 16384 bytes" : "none (unsigned)");
		return -1;
	}
	return ret;
}

/* The signature: DER of a detached PKCS#7; with a certificate, verified. 0 or -1. */
static int check_signature(struct cimg *img, const struct cimg_verity *v,
			   const struct cimg_verity_want *want)
{
	const uint8_t *der = img->data + v->sig_offset;
	PKCS7 *p7 = d2i_PKCS7(NULL, &der, v->sig_len);
	struct stack_st_X509 *certs = NULL;	/* STACK_OF(X509) */
	X509_STORE *store = NULL;
	BIO *msg = NULL;
	int ret = -1;

	if (!p7 || der != img->data + v->sig_offset + v->sig_len || !PKCS7_type_is_signed(p7) ||
	    !PKCS7_get_detached(p7)) {
		cimg_problem(img, "verity: the signature at %u (%u bytes) is not a detached PKCS#7 signature%s%s",
			     v->sig_offset, v->sig_len, p7 ? "" : ": ", p7 ? "" : ssl_reason());
		goto out;
	}
	if (!want->cert) {
		ret = 0;
		goto out;
	}
	/* The certificate is the trust anchor, whatever uses its extensions name. */
	msg = BIO_new_mem_buf(img->data + v->start, CRAMFS_XIP_VERITY_SIGNED_SIZE);
	store = X509_STORE_new();
	certs = sk_X509_new_null();
	if (!msg || !store || !certs || !X509_STORE_add_cert(store, want->cert) ||
	    !X509_STORE_set_purpose(store, X509_PURPOSE_ANY) || !sk_X509_push(certs, want->cert)) {
		cimg_problem(img, "verity: cannot set up the signature check: %s", ssl_reason());
		goto out;
	}
	if (PKCS7_verify(p7, certs, store, msg, NULL, PKCS7_BINARY) != 1) {
		cimg_problem(img, "verity: the signature at %u (%u bytes) does not verify with %s: %s",
			     v->sig_offset, v->sig_len, want->cert_path, ssl_reason());
		goto out;
	}
	ret = 0;
out:
	sk_X509_free(certs);
	X509_STORE_free(store);
	BIO_free(msg);
	PKCS7_free(p7);
	return ret;
}

int cimg_verity_check(struct cimg *img, const struct cimg_verity_want *want,
		      struct cimg_verity *v)
{
	uint8_t t[CRAMFS_XIP_VERITY_TRAILER_SIZE];
	char hex[2 * HASH + 1], asked[2 * HASH + 1];
	uint32_t crc, i;
	int ret;

	if (!(img->flags & CRAMFS_XIP_FLAG_FSID_VERSION_2) || cimg_verity_geometry(v, img->size)) {
		if (want->required)
			cimg_problem(img, "verity: the image has no size in its superblock for a tree to follow");
		return want->required ? -1 : CIMG_VERITY_NONE;
	}
	if (v->start + sizeof(t) > img->len ||
	    memcmp(img->data + v->start, CRAMFS_XIP_VERITY_MAGIC, 8)) {
		if (want->required)
			cimg_problem(img, "verity: no trailer at %u (the image's size rounded up to 4 KiB)",
				     v->start);
		return want->required ? -1 : CIMG_VERITY_NONE;
	}
	memcpy(t, img->data + v->start, sizeof(t));
	crc = cramfs_xip_get32(t + WORD(crc), img->big);
	cramfs_xip_put32(t + WORD(crc), 0, img->big);
	if (crc32(0, t, sizeof(t)) != crc) {
		cimg_problem(img, "verity: the trailer at %u is damaged: CRC %#x, contents give %#lx",
			     v->start, crc, crc32(0, t, sizeof(t)));
		return -1;
	}
	if (check_fields(img, t, v))
		return -1;
	if ((uint64_t)v->end + v->sig_len > img->len) {
		cimg_problem(img, "verity: the tree and signature end at %llu, past the %zu bytes there",
			     (unsigned long long)v->end + v->sig_len, img->len);
		return -1;
	}
	memcpy(v->root, t + WORD(root_hash), HASH);
	ret = check_tree(img, v);
	for (i = sizeof(t); i < BLOCK; i++)
		if (img->data[v->start + i]) {
			cimg_problem(img, "verity: the trailer's block is not zero after the trailer (byte %u)",
				     i);
			ret = -1;
			break;
		}
	if (want->root && memcmp(want->root, v->root, HASH)) {
		cimg_verity_hex(v->root, hex);
		cimg_verity_hex(want->root, asked);
		cimg_problem(img, "verity: the root hash is %s, not the %s asked for", hex, asked);
		ret = -1;
	}
	if (v->sig_len && check_signature(img, v, want))
		ret = -1;
	else if (!v->sig_len && want->cert) {
		cimg_problem(img, "verity: the image is not signed, and a signature is demanded");
		ret = -1;
	}
	return ret;
}
