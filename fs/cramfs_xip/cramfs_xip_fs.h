/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cramfs on-disk format: the one definition shared by the kernel module
 * (fs/cramfs_xip/) and the host tools (scripts/mkcramfs, scripts/cramfsck).
 *
 * The format is the classic cramfs one, including the block pointer
 * extensions that make execute-in-place possible. All words are 32 bits in
 * the image's byte order (the byte order of the CPU that mounts it). Inode
 * fields are packed into three words the way the original C bitfields fall:
 * on a little-endian image the first field sits in the low bits, on a
 * big-endian image in the high bits. The helpers below hide that, so no
 * reader or writer touches a bitfield directly; the tools read words byte by
 * byte, the module (whose words are all aligned) with one load.
 *
 * Documentation/format.md describes the layout and the XIP rules in prose.
 */
#ifndef _CRAMFS_XIP_FS_H
#define _CRAMFS_XIP_FS_H

#include <linux/types.h>
#ifdef __KERNEL__
#include <asm/byteorder.h>
#endif

#define CRAMFS_XIP_MAGIC		0x28cd3d45
#define CRAMFS_XIP_MAGIC_SWAPPED	0x453dcd28
#define CRAMFS_XIP_SIGNATURE		"Compressed ROMFS"
/* The superblock is at offset 0, or after a 512-byte boot block (mkcramfs -p). */
#define CRAMFS_XIP_PAD_SIZE		512

/* Widths of the inode fields, in bits. */
#define CRAMFS_XIP_MODE_WIDTH		16
#define CRAMFS_XIP_UID_WIDTH		16
#define CRAMFS_XIP_SIZE_WIDTH		24
#define CRAMFS_XIP_GID_WIDTH		8
#define CRAMFS_XIP_NAMELEN_WIDTH	6
#define CRAMFS_XIP_OFFSET_WIDTH		26

/* Names are stored in 4-byte units, NUL padded: at most 63 * 4 bytes. */
#define CRAMFS_XIP_MAXPATHLEN	(((1 << CRAMFS_XIP_NAMELEN_WIDTH) - 1) << 2)
/* A file's size field is 24 bits wide. */
#define CRAMFS_XIP_MAX_FILE_SIZE	((1U << CRAMFS_XIP_SIZE_WIDTH) - 1)
/* Offsets are stored divided by 4 in 26 bits: metadata must lie below 256 MiB. */
#define CRAMFS_XIP_MAX_OFFSET		((1U << (CRAMFS_XIP_OFFSET_WIDTH + 2)) - 4)

/*
 * The data block size: 4 KiB, the page size of every kernel cramfs_xip
 * builds for (ARM, RISC-V, x86; arm64 with 4 KiB pages). Mainline cramfs
 * takes the page size of the kernel that mounts the image, which the
 * superblock does not record: mkcramfs -b makes larger blocks for it.
 */
#define CRAMFS_XIP_BLOCK_SIZE		4096

/* struct cramfs_xip_inode: three packed words; see cramfs_xip_inode_decode(). */
struct cramfs_xip_inode {
	__u32 mode_uid;
	__u32 size_gid;
	__u32 namelen_offset;
};

struct cramfs_xip_info {
	__u32 crc;
	__u32 edition;
	__u32 blocks;
	__u32 files;
};

struct cramfs_xip_super {
	__u32 magic;
	__u32 size;			/* image size in bytes, from offset 0 */
	__u32 flags;			/* CRAMFS_XIP_FLAG_* */
	__u32 future;
	__u8 signature[16];		/* CRAMFS_XIP_SIGNATURE, not NUL terminated */
	struct cramfs_xip_info fsid;	/* valid with CRAMFS_XIP_FLAG_FSID_VERSION_2 */
	__u8 name[16];
	struct cramfs_xip_inode root;
};

#define CRAMFS_XIP_INODE_SIZE		12
#define CRAMFS_XIP_SUPER_SIZE		76
#define CRAMFS_XIP_SUPER_CRC_OFFSET	32

/*
 * Feature flags. Bits 0-7 are features every past kernel understands;
 * anything above that a reader does not know must refuse the mount.
 */
#define CRAMFS_XIP_FLAG_FSID_VERSION_2		0x00000001
#define CRAMFS_XIP_FLAG_SORTED_DIRS		0x00000002
#define CRAMFS_XIP_FLAG_HOLES			0x00000100
#define CRAMFS_XIP_FLAG_WRONG_SIGNATURE		0x00000200
#define CRAMFS_XIP_FLAG_SHIFTED_ROOT_OFFSET	0x00000400
#define CRAMFS_XIP_FLAG_EXT_BLOCK_POINTERS	0x00000800

#define CRAMFS_XIP_SUPPORTED_FLAGS	(0x000000ff |				\
					 CRAMFS_XIP_FLAG_HOLES |		\
					 CRAMFS_XIP_FLAG_WRONG_SIGNATURE |	\
					 CRAMFS_XIP_FLAG_SHIFTED_ROOT_OFFSET |	\
					 CRAMFS_XIP_FLAG_EXT_BLOCK_POINTERS)

/*
 * Block pointers. A regular file or symlink with data has a table of one
 * 32-bit pointer per block at its offset. Without flags, a pointer is the
 * end of its block (one past the last byte); the block starts where the
 * previous block ends, or right after the table for block 0. A block whose
 * start equals its end is a hole (zeros).
 *
 * With CRAMFS_XIP_FLAG_EXT_BLOCK_POINTERS in the superblock, two flag bits
 * may be set:
 *  - UNCOMPRESSED: the block is stored plain, not zlib-compressed;
 *  - DIRECT_PTR: the pointer holds the block's start, divided by 4, instead
 *    of its end. A direct plain block is a full block (or the file's tail);
 *    a direct compressed block starts with a 16-bit length in image byte
 *    order. Direct plain blocks aligned to CRAMFS_XIP_BLOCK_SIZE are what
 *    can be mapped into user space straight from flash.
 */
#define CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED	(1U << 31)
#define CRAMFS_XIP_BLK_FLAG_DIRECT_PTR		(1U << 30)
#define CRAMFS_XIP_BLK_FLAGS		(CRAMFS_XIP_BLK_FLAG_UNCOMPRESSED |	\
					 CRAMFS_XIP_BLK_FLAG_DIRECT_PTR)
#define CRAMFS_XIP_BLK_DIRECT_PTR_SHIFT		2
/* A compressed block may not be longer than this (zlib worst case is smaller). */
#define CRAMFS_XIP_MAX_COMPRESSED_LEN		(2 * CRAMFS_XIP_BLOCK_SIZE)

/*
 * Verity: a hash tree over the image and a trailer that carries its root,
 * both after the image's size, where every cramfs reader ignores them.
 * Documentation/format.md ("Verity") is the full description.
 *
 * The verity area starts at CRAMFS_XIP_VERITY_START(size), size being the
 * superblock's (counted from offset 0, a boot block included):
 *
 *   trailer block:	one 4 KiB block, struct cramfs_xip_verity_trailer at its
 *			start, zeros after it
 *   hash tree:		levels top-down (the one-block top level first, level 0,
 *			the hashes of the data blocks, last), as dm-verity lays
 *			out its hash device
 *   signature:		optional, right after the tree: a detached PKCS#7
 *			(DER) over the trailer's first CRAMFS_XIP_VERITY_SIGNED_SIZE
 *			bytes
 *
 * Data block i is image bytes [i * 4096, (i + 1) * 4096) below size, the last
 * one zero-padded; its hash is SHA-256 of the 4096 bytes, with no salt. A
 * tree block holds 128 hashes (zeros after the last); the hash of block j of
 * a level is entry j % 128 of block j / 128 one level up. Level i has
 * DIV_ROUND_UP(data blocks, 128^(i + 1)) blocks; there are as many levels as
 * it takes to reach one block (none for a one-block image). The root hash is
 * the SHA-256 of the top level's block (of data block 0 with no level): the
 * value dm-verity (format 1, no salt, 4 KiB blocks) computes.
 *
 * All of the geometry follows from size, so a reader derives it and demands
 * that the trailer says the same. The trailer's words are 32 bits in the
 * image's byte order.
 */
#define CRAMFS_XIP_VERITY_MAGIC		"CXVERITY"	/* 8 bytes, no NUL */
#define CRAMFS_XIP_VERITY_VERSION	1
#define CRAMFS_XIP_VERITY_BLOCK_SIZE	4096
#define CRAMFS_XIP_VERITY_BLOCK_SHIFT	12
#define CRAMFS_XIP_VERITY_HASH_SHA256	1		/* hash_alg */
#define CRAMFS_XIP_VERITY_HASH_SIZE	32
#define CRAMFS_XIP_VERITY_HASHES_PER_BLOCK	\
	(CRAMFS_XIP_VERITY_BLOCK_SIZE / CRAMFS_XIP_VERITY_HASH_SIZE)
/* A 32-bit size has at most 2^20 data blocks: 3 levels; one slot to spare. */
#define CRAMFS_XIP_VERITY_MAX_LEVELS	4
/* The signature's length at most (mkcramfs writes one of well under 1 KiB). */
#define CRAMFS_XIP_VERITY_MAX_SIG_SIZE	16384

/* Trailer flags; a reader refuses a trailer with a flag it does not know. */
#define CRAMFS_XIP_VERITY_FLAG_SIGNED	0x00000001	/* sig_offset, sig_len valid */
#define CRAMFS_XIP_VERITY_SUPPORTED_FLAGS	CRAMFS_XIP_VERITY_FLAG_SIGNED

/* Where the verity area starts: the image size rounded up to 4 KiB. */
#define CRAMFS_XIP_VERITY_START(size)						\
	(((__u64)(size) + CRAMFS_XIP_VERITY_BLOCK_SIZE - 1) &				\
	 ~(__u64)(CRAMFS_XIP_VERITY_BLOCK_SIZE - 1))

struct cramfs_xip_verity_trailer {
	__u8 magic[8];			/* CRAMFS_XIP_VERITY_MAGIC */
	__u32 version;			/* CRAMFS_XIP_VERITY_VERSION */
	__u32 flags;			/* CRAMFS_XIP_VERITY_FLAG_* */
	__u32 data_size;		/* the superblock's size: bytes hashed */
	__u32 block_size;		/* CRAMFS_XIP_VERITY_BLOCK_SIZE, data and tree */
	__u32 hash_alg;			/* CRAMFS_XIP_VERITY_HASH_SHA256 */
	__u32 hash_size;		/* CRAMFS_XIP_VERITY_HASH_SIZE */
	__u32 levels;			/* tree levels, 0 to 3 */
	__u32 tree_offset;		/* image offset of the tree: the trailer's + 4096 */
	__u32 tree_size;		/* bytes of the tree, all levels */
	/* Image offset of each level (0: the leaves); 0 for a level not there. */
	__u32 level_offset[CRAMFS_XIP_VERITY_MAX_LEVELS];
	__u8 root_hash[CRAMFS_XIP_VERITY_HASH_SIZE];
	/* The signature covers everything above. */
	__u32 sig_offset;		/* image offset: tree_offset + tree_size; or 0 */
	__u32 sig_len;			/* bytes of DER; 0 when unsigned */
	__u32 reserved[6];		/* zero */
	__u32 crc;			/* CRC-32 (zlib's) of these 128 bytes, this field 0 */
};

#define CRAMFS_XIP_VERITY_TRAILER_SIZE	128
/* The bytes the signature covers: the trailer up to and including root_hash. */
#define CRAMFS_XIP_VERITY_SIGNED_SIZE	92
#define CRAMFS_XIP_VERITY_CRC_OFFSET	124

/* An inode's fields, decoded. Name length and offset are in bytes. */
struct cramfs_xip_dinode {
	__u32 mode;
	__u32 uid;
	__u32 size;
	__u32 gid;
	__u32 namelen;
	__u32 offset;
};

/**
 * cramfs_xip_get32() - read a 32-bit word of the image
 * @p: where the word starts (any alignment in the tools, 4-aligned in the module)
 * @big: non-zero for a big-endian image
 *
 * Return: the word's value.
 */
static inline __u32 cramfs_xip_get32(const void *p, int big)
{
#ifdef __KERNEL__
	/*
	 * Every word the module reads lies at a 4-aligned image offset, in a
	 * page-aligned mapping or in a buffer aligned for it: one load (and no
	 * swap: the module reads images of the CPU's byte order only).
	 */
	return big ? be32_to_cpup((const __be32 *)p) : le32_to_cpup((const __le32 *)p);
#else
	const __u8 *b = (const __u8 *)p;

	if (big)
		return (__u32)b[0] << 24 | (__u32)b[1] << 16 | (__u32)b[2] << 8 | b[3];
	return (__u32)b[3] << 24 | (__u32)b[2] << 16 | (__u32)b[1] << 8 | b[0];
#endif
}

/**
 * cramfs_xip_put32() - write a 32-bit word of the image
 * @p: where the word goes (any alignment)
 * @v: the value
 * @big: non-zero for a big-endian image
 */
static inline void cramfs_xip_put32(void *p, __u32 v, int big)
{
	__u8 *b = (__u8 *)p;
	int i;

	for (i = 0; i < 4; i++)
		b[big ? 3 - i : i] = (__u8)(v >> (8 * i));
}

/**
 * cramfs_xip_get16() - read the 16-bit length word of a direct compressed block
 * @p: where the word starts (4-aligned in the module)
 * @big: non-zero for a big-endian image
 *
 * Return: the word's value.
 */
static inline __u32 cramfs_xip_get16(const void *p, int big)
{
#ifdef __KERNEL__
	/* At a 4-aligned image offset, as the words (cramfs_xip_get32()). */
	return big ? be16_to_cpup((const __be16 *)p) : le16_to_cpup((const __le16 *)p);
#else
	const __u8 *b = (const __u8 *)p;

	return big ? ((__u32)b[0] << 8 | b[1]) : ((__u32)b[1] << 8 | b[0]);
#endif
}

/*
 * Little-endian images keep the first bitfield in the low bits of each word,
 * big-endian ones in the high bits: swap the two halves of the field layout.
 */
static inline __u32 cramfs_xip_field(__u32 w, int big, unsigned int first_width, int second)
{
	unsigned int width = second ? 32 - first_width : first_width;
	unsigned int shift;

	if (big)
		shift = second ? 0 : 32 - first_width;
	else
		shift = second ? first_width : 0;
	return (w >> shift) & (width == 32 ? ~0U : ((1U << width) - 1));
}

/**
 * cramfs_xip_inode_decode() - decode an inode as stored in the image
 * @p: the inode's 12 bytes
 * @big: non-zero for a big-endian image
 * @d: the decoded fields
 */
static inline void cramfs_xip_inode_decode(const void *p, int big, struct cramfs_xip_dinode *d)
{
	const __u8 *b = (const __u8 *)p;
	__u32 w0 = cramfs_xip_get32(b, big);
	__u32 w1 = cramfs_xip_get32(b + 4, big);
	__u32 w2 = cramfs_xip_get32(b + 8, big);

	d->mode = cramfs_xip_field(w0, big, CRAMFS_XIP_MODE_WIDTH, 0);
	d->uid = cramfs_xip_field(w0, big, CRAMFS_XIP_MODE_WIDTH, 1);
	d->size = cramfs_xip_field(w1, big, CRAMFS_XIP_SIZE_WIDTH, 0);
	d->gid = cramfs_xip_field(w1, big, CRAMFS_XIP_SIZE_WIDTH, 1);
	d->namelen = cramfs_xip_field(w2, big, CRAMFS_XIP_NAMELEN_WIDTH, 0) << 2;
	d->offset = cramfs_xip_field(w2, big, CRAMFS_XIP_NAMELEN_WIDTH, 1) << 2;
}

/**
 * cramfs_xip_inode_encode() - pack an inode for the image
 * @p: where the inode's 12 bytes go
 * @big: non-zero for a big-endian image
 * @d: the fields; namelen and offset in bytes, multiples of 4, in range
 */
static inline void cramfs_xip_inode_encode(void *p, int big, const struct cramfs_xip_dinode *d)
{
	__u8 *b = (__u8 *)p;
	__u32 lo[3], hi[3];
	unsigned int width[3] = {
		CRAMFS_XIP_MODE_WIDTH, CRAMFS_XIP_SIZE_WIDTH, CRAMFS_XIP_NAMELEN_WIDTH
	};
	int i;

	lo[0] = d->mode;
	hi[0] = d->uid;
	lo[1] = d->size;
	hi[1] = d->gid;
	lo[2] = d->namelen >> 2;
	hi[2] = d->offset >> 2;
	for (i = 0; i < 3; i++) {
		__u32 l = lo[i] & ((1U << width[i]) - 1);
		__u32 h = hi[i] & ((1U << (32 - width[i])) - 1);

		cramfs_xip_put32(b + 4 * i, big ? (l << (32 - width[i]) | h) : (h << width[i] | l),
				 big);
	}
}

#endif /* _CRAMFS_XIP_FS_H */
