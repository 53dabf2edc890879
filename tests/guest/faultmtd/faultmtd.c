// SPDX-License-Identifier: GPL-2.0-only
/*
 * faultmtd: a RAM-backed test MTD without point, that is NAND-like flash
 * read with mtd_read(), whose reads fail on request: a byte range returns
 * -EIO, -EBADMSG (uncorrectable: the data is garbage) or a count of
 * corrected bit flips (which mtd_read() turns into -EUCLEAN, with the data
 * right), a given number of times or always; and one erase block may be
 * bad (block_isbad() says so, and its reads are uncorrectable). The
 * parameters change at run time in /sys/module/faultmtd/parameters/.
 * For the tests of cramfs_xip only (tests/guest/vexpress-a9/82-flash-errors.sh).
 */
#include <linux/module.h>
#include <linux/mtd/mtd.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

static unsigned int size_kib = 4096;
module_param(size_kib, uint, 0444);
MODULE_PARM_DESC(size_kib, "size in KiB (at load)");

static unsigned long fail_from, fail_len;
module_param(fail_from, ulong, 0644);
module_param(fail_len, ulong, 0644);
MODULE_PARM_DESC(fail_from, "first byte of the range whose reads fail");
MODULE_PARM_DESC(fail_len, "bytes in that range (0: none)");

static int fail_errno;
module_param(fail_errno, int, 0644);
MODULE_PARM_DESC(fail_errno, "5 (EIO), 74 (EBADMSG) or 117 (EUCLEAN: corrected bit flips)");

static int fail_times = -1;
module_param(fail_times, int, 0644);
MODULE_PARM_DESC(fail_times, "reads of the range that fail before it reads right (-1: all)");

static int bad_block = -1;
module_param(bad_block, int, 0644);
MODULE_PARM_DESC(bad_block, "an erase block that is bad (-1: none)");

static unsigned long reads;
module_param(reads, ulong, 0444);
MODULE_PARM_DESC(reads, "reads so far");

static struct mtd_info faultmtd;
static u8 *faultmtd_data;

static bool faultmtd_overlaps(loff_t from, size_t len, loff_t start, u64 n)
{
	return n && from < start + n && start < from + len;
}

static int faultmtd_read(struct mtd_info *mtd, loff_t from, size_t len, size_t *retlen,
			 u_char *buf)
{
	loff_t bad = (loff_t)bad_block * mtd->erasesize;

	reads++;
	memcpy(buf, faultmtd_data + from, len);
	*retlen = len;
	if (bad_block >= 0 && faultmtd_overlaps(from, len, bad, mtd->erasesize)) {
		memset(buf, 0xff, len);
		return -EBADMSG;
	}
	if (!fail_errno || !faultmtd_overlaps(from, len, fail_from, fail_len) || !fail_times)
		return 0;
	if (fail_times > 0)
		fail_times--;
	switch (fail_errno) {
	case EUCLEAN:
		return mtd->bitflip_threshold;	/* corrected: mtd_read() says -EUCLEAN */
	case EBADMSG:
		memset(buf, 0x5a, len);		/* what an uncorrectable page holds */
		return -EBADMSG;
	default:
		*retlen = 0;
		return -EIO;
	}
}

static int faultmtd_write(struct mtd_info *mtd, loff_t to, size_t len, size_t *retlen,
			  const u_char *buf)
{
	memcpy(faultmtd_data + to, buf, len);
	*retlen = len;
	return 0;
}

static int faultmtd_erase(struct mtd_info *mtd, struct erase_info *instr)
{
	memset(faultmtd_data + instr->addr, 0xff, instr->len);
	return 0;
}

static int faultmtd_block_isbad(struct mtd_info *mtd, loff_t ofs)
{
	return bad_block >= 0 && div_u64(ofs, mtd->erasesize) == bad_block;
}

static int __init faultmtd_init(void)
{
	int err;

	faultmtd_data = vmalloc(size_kib * 1024UL);
	if (!faultmtd_data)
		return -ENOMEM;
	memset(faultmtd_data, 0xff, size_kib * 1024UL);
	faultmtd.name = "faultmtd";
	faultmtd.type = MTD_NANDFLASH;
	faultmtd.flags = MTD_CAP_NANDFLASH;
	faultmtd.size = size_kib * 1024ULL;
	faultmtd.erasesize = SZ_16K;
	faultmtd.writesize = 512;
	faultmtd.writebufsize = 512;
	faultmtd.ecc_strength = 4;
	faultmtd.bitflip_threshold = 1;
	faultmtd.owner = THIS_MODULE;
	faultmtd._read = faultmtd_read;
	faultmtd._write = faultmtd_write;
	faultmtd._erase = faultmtd_erase;
	faultmtd._block_isbad = faultmtd_block_isbad;
	err = mtd_device_register(&faultmtd, NULL, 0);
	if (err)
		vfree(faultmtd_data);
	return err;
}

static void __exit faultmtd_exit(void)
{
	mtd_device_unregister(&faultmtd);
	vfree(faultmtd_data);
}

module_init(faultmtd_init);
module_exit(faultmtd_exit);
MODULE_DESCRIPTION("A test MTD whose reads fail on request");
MODULE_LICENSE("GPL");
