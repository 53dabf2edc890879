// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the no-MMU guest (mps2-an385): freestanding, raw system calls.
 * Loads cramfs_xip, mounts mtd:fs_partition, checks files against reference
 * copies, maps XIP and compressed files, runs the FDPIC program from flash,
 * several at once, measures RAM, then does it again through mainline
 * cramfs.ko. Prints RESULT lines the host counts, and GUEST-DONE.
 *
 * Run as /sbin/init from a root filesystem in flash (root=mtd:fs_partition,
 * cramfs_xip built into the kernel), it checks that root instead: files
 * against the host's checksums (/etc/sums), its own text running from flash.
 */
#include "sys.h"

#define BUF		16384
#define __NR_syslog	103
#define EROFS		30
#define ALIGNED_PHYS	"0x200000"	/* the -A image: physaddr= */

/*
 * The RESULT lines each kind of boot prints at least (the host fails a boot
 * that printed fewer): keep them in step with the checks below.
 */
#define CHECKS_MODULE_BOOT	61
#define CHECKS_ROOT_BOOT	12
#define CHECKS_VERITY_BOOT	21

/*
 * The verity boot (tests/guest-mps2-an385.sh, kernels with MODULE_SIG): the
 * images after the signed one in fs_partition, mounted by physaddr=, and
 * the page of each file the host altered (verity-cases.txt).
 */
#define VERITY_OPTS(slot)	"physaddr=0x" slot "0000,size=0x40000,verity_required"

__attribute__((used)) void init_main(long *sp);

__attribute__((naked, noreturn)) void _start(void)
{
	__asm__ volatile("mov r0, sp\n\tbl init_main\n");
}

static int load_module(const char *path)
{
	long fd = sys2(__NR_open, path, O_RDONLY), r;

	if (fd < 0)
		return (int)fd;
	r = sys3(__NR_finit_module, fd, "", 0);
	sys1(__NR_close, fd);
	return (int)r;
}

static void result2(int ok, const char *label, const char *what)
{
	char line[256];
	long n = 0;

	str_add(line, sizeof(line), &n, ok ? "RESULT PASS " : "RESULT FAIL ");
	str_add(line, sizeof(line), &n, label);
	str_add(line, sizeof(line), &n, ": ");
	str_add(line, sizeof(line), &n, what);
	put_line(line, n);
}

/* Read @path into @a and @ref into @b and compare them. */
static int same_file(const char *path, const char *ref, char *a, char *b)
{
	long n = read_file(path, a, BUF), m = read_file(ref, b, BUF), i;

	if (n < 0 || n != m)
		return 0;
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/*
 * Mainline cramfs's known misreading (user guide, "Behaviour compared with
 * mainline cramfs"): a file whose size is a multiple of the page size and
 * whose last block is stored plain behind a direct pointer reads its last
 * page as zeros. True if @path reads as @ref but for that.
 */
static int last_page_zeros(const char *path, const char *ref, char *a, char *b)
{
	long n = read_file(path, a, BUF), m = read_file(ref, b, BUF), i;

	if (n < 4096 || n != m || n % 4096)
		return 0;
	for (i = 0; i < n - 4096; i++)
		if (a[i] != b[i])
			return 0;
	for (; i < n; i++)
		if (a[i])
			return 0;
	return 1;
}

/*
 * Start @prog with vfork: the child shares this stack until it execs, so
 * it runs only this function's few instructions (a caller's loop could
 * spill its state to the stack, and the child would change it under the
 * parent). Returns the child's pid, or a negative error.
 */
static __attribute__((noinline)) long spawn(const char *prog, char **argv, char **envp)
{
	long pid = sys0(__NR_vfork);

	if (pid == 0) {
		sys3(__NR_execve, prog, argv, envp);
		sys1(__NR_exit, 127);
	}
	return pid;
}

/* mmap @path: where it lands, and whether its bytes are @ref's. */
static unsigned long map_check(const char *path, const char *ref, int flags, char *b, int *same)
{
	long fd = sys2(__NR_open, path, O_RDONLY), n = read_file(ref, b, BUF), i;
	unsigned long addr;
	const char *p;

	*same = 0;
	if (fd < 0 || n <= 0)
		return 0;
	addr = sys6(__NR_mmap2, 0, n, PROT_READ, flags, fd, 0);
	sys1(__NR_close, fd);
	if (addr > 0xfffff000UL)
		return 0;
	p = (const char *)addr;
	for (i = 0; i < n && p[i] == b[i]; i++)
		;
	*same = i == n;
	sys2(__NR_munmap, addr, n);
	return addr;
}

static long meminfo(const char *key, char *buf)
{
	long n = read_file("/proc/meminfo", buf, 4095), v = 0;
	const char *p;

	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = str_find(buf, n, key);
	if (!p)
		return -1;
	while (*p && (*p < '0' || *p > '9'))
		p++;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + *p++ - '0';
	return v;
}

/*
 * Start @k copies of @prog expecting @where; MemFree drop while they run, in
 * kB, and in *@slab what slab memory grew by meanwhile.
 */
static long run_many(const char *prog, const char *where, int k, int *all_ok, char *buf,
		     long *slab)
{
	long pids[8], before = meminfo("MemFree:", buf), after;
	long slab_before = meminfo("Slab:", buf);
	int i, status;

	*all_ok = 1;
	for (i = 0; i < k; i++) {
		char *argv[4];
		char *envp[1];
		char secs[2] = "3";

		argv[0] = (char *)prog;
		argv[1] = (char *)where;
		argv[2] = secs;
		argv[3] = 0;
		envp[0] = 0;
		pids[i] = spawn(prog, argv, envp);
	}
	sleep_s(1);
	after = meminfo("MemFree:", buf);
	*slab = meminfo("Slab:", buf) - slab_before;
	for (i = 0; i < k; i++) {
		status = -1;
		if (pids[i] < 0 || sys6(__NR_wait4, pids[i], (long)&status, 0, 0, 0, 0) < 0 ||
		    status != 0)
			*all_ok = 0;
	}
	return before - after;
}

/* Copy @a then @b into @out (of @max bytes). */
static void str_cat(char *out, size_t max, const char *a, const char *b)
{
	size_t i = 0;

	while (*a && i + 1 < max)
		out[i++] = *a++;
	while (*b && i + 1 < max)
		out[i++] = *b++;
	out[i] = 0;
}

static long remount(const char *target, long flags, const char *data)
{
	return sys6(__NR_mount, 0, (long)target, 0, MS_REMOUNT | flags, (long)data, 0);
}

/*
 * What init systems do to a mounted filesystem: remount it read-only, with
 * its own options again (@own), with a changed option, read-write (it stays
 * read-only).
 */
static void remounts(const char *label, const char *target, const char *own)
{
	char path[64];

	str_cat(path, sizeof(path), target, "/newdir");
	result2(remount(target, MS_RDONLY, "") == 0, label, "remount,ro");
	result2(remount(target, MS_RDONLY, own) == 0, label, "remount,ro with its own options");
	result2(remount(target, MS_RDONLY, "crc") == -EINVAL, label,
		"remount adding crc is refused (EINVAL)");
	result2(remount(target, 0, own) == 0 && sys2(__NR_mkdir, path, 0755) == -EROFS, label,
		"remount,rw: still read-only (EROFS)");
}

static void suite(const char *label, char *a, char *b)
{
	unsigned long addr;
	int same, ok;
	long ram_xip, ram_zlib, slab_xip, slab_zlib;

	ok = sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		  (long)"", 0) == 0;
	result2(ok, label, "mount -t cramfs mtd:fs_partition /mnt");
	if (!ok)
		return;
	remounts(label, "/mnt", "");
	result2(same_file("/mnt/data/xip-partial.bin", "/ref/xip-partial.bin", a, b), label,
		"XIP file reads as the host copy");
	result2(same_file("/mnt/data/compressed.txt", "/ref/compressed.txt", a, b), label,
		"compressed file reads as the host copy");
	result2(same_file("/mnt/bin/xipprog", "/ref/xipprog", a, b), label,
		"the FDPIC program reads as the host copy");
	/* 8192 bytes, stored plain and direct: mainline reads its last page wrong. */
	if (str_eq(label, "mainline cramfs"))
		result2(last_page_zeros("/mnt/data/xip-exact.bin", "/ref/xip-exact.bin", a, b),
			label, "an XIP file of whole pages reads its last page as zeros (the known defect)");
	else
		result2(same_file("/mnt/data/xip-exact.bin", "/ref/xip-exact.bin", a, b), label,
			"an XIP file of whole pages reads as the host copy");
	map_check("/mnt/data/xip-exact.bin", "/ref/xip-exact.bin", MAP_PRIVATE, b, &same);
	result2(same, label, "... and maps as the host copy");

	addr = map_check("/mnt/data/xip-partial.bin", "/ref/xip-partial.bin", MAP_PRIVATE, b,
			 &same);
	put("  XIP file mapped at ");
	put_hex(addr);
	put("\n");
	result2(addr >= FLASH_START && addr < FLASH_END, label,
		"read-only mapping of an XIP file is the flash itself");
	result2(same, label, "its mapped bytes match the host copy");
	addr = map_check("/mnt/data/xip-partial.bin", "/ref/xip-partial.bin", MAP_SHARED, b,
			 &same);
	result2(addr >= FLASH_START && addr < FLASH_END && same, label,
		"shared read-only mapping: flash, same bytes");
	addr = map_check("/mnt/data/compressed.txt", "/ref/compressed.txt", MAP_PRIVATE, b,
			 &same);
	put("  compressed file mapped at ");
	put_hex(addr);
	put("\n");
	result2(addr >= RAM_START && addr < RAM_END, label,
		"mapping of a compressed file is a RAM copy");
	result2(same, label, "its mapped bytes match the host copy");
	{
		long fd = sys2(__NR_open, "/mnt/data/xip-partial.bin", O_RDONLY);
		unsigned long w = sys6(__NR_mmap2, 0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				       0);

		sys1(__NR_close, fd);
		result2(w > 0xfffff000UL, label, "shared writable mapping is refused");
	}

	ram_xip = run_many("/mnt/bin/xipprog", "flash", 4, &ok, b, &slab_xip);
	result2(ok, label, "4 instances of the FDPIC program run in place from flash");
	ram_zlib = run_many("/mnt/bin/xipprog-z", "ram", 4, &ok, b, &slab_zlib);
	result2(ok, label, "4 instances of the compressed copy run from RAM");
	put("BENCH nommu-ram ");
	put(label);
	put(" xip ");
	put_dec(ram_xip);
	put(" slab ");
	put_dec(slab_xip);
	put(" zlib ");
	put_dec(ram_zlib);
	put(" slab ");
	put_dec(slab_zlib);
	put("\n");
	result2(ram_xip < ram_zlib, label, "running in place costs less RAM than from a copy");
	result2(sys2(__NR_umount2, "/mnt", 0) == 0, label, "unmount");
}

/*
 * An image made with mkcramfs -X -A 16: its XIP data aligned to 16 bytes,
 * not to a page. Without an MMU that is all mapping in place needs.
 */
static void aligned_suite(char *a, char *b)
{
	unsigned long addr;
	int same, ok;
	long slab;

	ok = sys6(__NR_mount, (long)"none", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		  (long)"physaddr=" ALIGNED_PHYS, 0) == 0;
	result(ok, "-A 16 image: mount -o physaddr=" ALIGNED_PHYS);
	if (!ok)
		return;
	remounts("-A 16 image", "/mnt", "physaddr=" ALIGNED_PHYS);
	addr = map_check("/mnt/data/xip-partial.bin", "/ref/xip-partial.bin", MAP_PRIVATE, b,
			 &same);
	put("  -A 16 XIP file mapped at ");
	put_hex(addr);
	put("\n");
	result(addr >= FLASH_START && addr < FLASH_END && same,
	       "-A 16 image: an XIP file maps in place, same bytes");
	run_many("/mnt/bin/xipprog", "flash", 2, &ok, b, &slab);
	result(ok, "-A 16 image: 2 instances of the FDPIC program run in place from flash");
	result(sys2(__NR_umount2, "/mnt", 0) == 0, "-A 16 image: unmount");
}

/*
 * Mappings the no-MMU region tree would see start at one address (a BUG()
 * in add_nommu_region()): one file mapped twice at once with different
 * lengths, and two files whose data mkcramfs stored once running at once.
 * The second of each gets a RAM copy. Which of the two programs maps first
 * is the scheduler's choice (vfork returns when the child's exec has
 * replaced its memory, before the loader maps the text), so one must run
 * in place and the other from a copy, either way round.
 */
static void overlaps(char *b)
{
	long fd = sys2(__NR_open, "/mnt/data/xip-partial.bin", O_RDONLY), pids[2], i;
	unsigned long m1, m2;
	int ok = fd >= 0, status, copies = 0;

	m1 = sys6(__NR_mmap2, 0, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	m2 = sys6(__NR_mmap2, 0, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
	sys1(__NR_close, fd);
	ok = ok && m1 >= FLASH_START && m1 < FLASH_END && m2 >= RAM_START && m2 < RAM_END &&
	     *(const char *)m1 == *(const char *)m2 && read_file("/ref/xip-partial.bin", b, BUF) > 0 &&
	     *(const char *)m2 == b[0] && ((const char *)m2)[4096] == b[4096];
	put("  mapped at ");
	put_hex(m1);
	put(" and ");
	put_hex(m2);
	put("\n");
	sys2(__NR_munmap, m1, 4096);
	sys2(__NR_munmap, m2, 8192);
	result(ok, "cramfs_xip: one file mapped twice at once, 1 and 2 pages: in place, then a copy");

	for (i = 0; i < 2; i++) {
		char *argv[4], *envp[1];

		/* Set one by one: an initialised array of pointers would need relocating. */
		argv[0] = i ? "/mnt/bin/xipprog-same" : "/mnt/bin/xipprog";
		argv[1] = "either";
		argv[2] = "2";
		argv[3] = 0;
		envp[0] = 0;

		pids[i] = spawn(argv[0], argv, envp);
	}
	ok = 1;
	for (i = 0; i < 2; i++) {
		long w;

		status = -1;
		w = pids[i] < 0 ? pids[i] : sys6(__NR_wait4, pids[i], (long)&status, 0, 0, 0, 0);
		/* Exit status 0: in place; 3: a copy. */
		copies += status == 3 << 8;
		if (w < 0 || (status != 0 && status != 3 << 8)) {
			put("    | pid ");
			put_dec(pids[i]);
			put(": wait4 ");
			put_dec(w);
			put(", status ");
			put_hex(status);
			put("\n");
			ok = 0;
		}
	}
	result(ok && copies == 1,
	       "cramfs_xip: two programs whose data is stored once, at once: one in place, one a copy");
}

/*
 * Bind and move mounts, and a lazy unmount while a program runs in place
 * from the image and a file of it is open.
 */
static void mount_ops(char *a, char *b)
{
	char *argv[4], *envp[1];
	long fd, pid, n, m;
	int status = -1, ok;

	/* Set one by one: an initialised array of pointers would need relocating. */
	argv[0] = "/mnt/bin/xipprog";
	argv[1] = "flash";
	argv[2] = "3";
	argv[3] = 0;
	envp[0] = 0;

	sys2(__NR_mkdir, "/mnt2", 0755);
	sys2(__NR_mkdir, "/mnt3", 0755);
	ok = sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		  (long)"", 0) == 0;
	ok = ok && sys6(__NR_mount, (long)"/mnt", (long)"/mnt2", 0, MS_BIND, 0, 0) == 0;
	result(ok && same_file("/mnt2/data/xip-partial.bin", "/ref/xip-partial.bin", a, b),
	       "cramfs_xip: bind mount reads as the host copy");
	ok = sys6(__NR_mount, (long)"/mnt2", (long)"/mnt3", 0, MS_MOVE, 0, 0) == 0;
	result(ok && same_file("/mnt3/data/compressed.txt", "/ref/compressed.txt", a, b),
	       "cramfs_xip: moved bind mount reads as the host copy");
	result(sys2(__NR_umount2, "/mnt3", 0) == 0, "cramfs_xip: unmount the moved mount");

	fd = sys2(__NR_open, "/mnt/data/compressed.txt", O_RDONLY);
	pid = spawn(argv[0], argv, envp);
	sleep_s(1);
	result(sys2(__NR_umount2, "/mnt", MNT_DETACH) == 0,
	       "cramfs_xip: lazy unmount while a program runs from it and a file is open");
	n = fd >= 0 ? sys3(__NR_read, fd, a, BUF) : -1;
	m = n > 0 && read_file("/ref/compressed.txt", b, BUF) >= n ? 0 : -1;
	while (m >= 0 && m < n && a[m] == b[m])
		m++;
	result(n > 0 && m == n, "cramfs_xip: lazy unmount: the open file still reads");
	sys1(__NR_close, fd);
	n = pid > 0 ? sys6(__NR_wait4, pid, (long)&status, 0, 0, 0, 0) : pid;
	if (n != pid || status != 0) {
		put("    | pid ");
		put_dec(pid);
		put(", wait4 ");
		put_dec(n);
		put(", status ");
		put_hex(status);
		put("\n");
	}
	result(n == pid && status == 0,
	       "cramfs_xip: lazy unmount: the program from flash runs to its end");
	ok = sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		  (long)"", 0) == 0;
	result(ok && sys2(__NR_umount2, "/mnt", 0) == 0,
	       "cramfs_xip: after the last user, the flash mounts again");
}

static void overlaps_mount(char *b)
{
	if (sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		 (long)"", 0) != 0) {
		result(0, "cramfs_xip: mount for the overlapping mappings");
		return;
	}
	overlaps(b);
	sys2(__NR_umount2, "/mnt", 0);
}

/*
 * -o strict without an MMU: a mapping whose first page the image stores
 * for execute-in-place but whose pages are not one run in flash (the whole
 * FDPIC program: its last page, past its segments, is compressed) fails;
 * the second mapping of overlaps(), in place but where a region of another
 * length starts, is a RAM copy, strict or not.
 */
static void strict_mmap(void)
{
	unsigned long m1 = -1UL, m2 = -1UL, whole = -1UL;
	long fd = -1, size = 0;
	int ok = sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs",
		      MS_RDONLY, (long)"strict", 0) == 0, mounted = ok;

	if (ok) {
		fd = sys2(__NR_open, "/mnt/bin/xipprog", O_RDONLY);
		size = sys3(__NR_lseek, fd, 0, SEEK_END);
		whole = sys6(__NR_mmap2, 0, size, PROT_READ, MAP_PRIVATE, fd, 0);
		sys1(__NR_close, fd);
	}
	ok = ok && fd >= 0 && size > 4096 && whole == (unsigned long)-EINVAL;
	if (whole < -4095UL)
		sys2(__NR_munmap, whole, size);
	result(ok, "cramfs_xip -o strict: a mapping of pages stored for XIP that are not one run fails (EINVAL)");
	fd = -1;
	if (mounted) {
		fd = sys2(__NR_open, "/mnt/data/xip-partial.bin", O_RDONLY);
		m1 = sys6(__NR_mmap2, 0, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
		m2 = sys6(__NR_mmap2, 0, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
		sys1(__NR_close, fd);
	}
	ok = mounted && fd >= 0 && m1 >= FLASH_START && m1 < FLASH_END && m2 >= RAM_START &&
	     m2 < RAM_END;
	if (m1 < -4095UL)
		sys2(__NR_munmap, m1, 4096);
	if (m2 < -4095UL)
		sys2(__NR_munmap, m2, 8192);
	sys2(__NR_umount2, "/mnt", 0);
	result(ok, "cramfs_xip -o strict: where another region starts, in place, a mapping is a RAM copy");
}

/* FNV-1a of the file at @path; its length, or a negative error. */
static long file_sum(const char *path, unsigned long *sum, char *buf)
{
	long fd = sys2(__NR_open, path, O_RDONLY), n, total = 0, i;
	unsigned long h = 2166136261UL;

	if (fd < 0)
		return fd;
	while ((n = sys3(__NR_read, fd, buf, BUF)) > 0) {
		for (i = 0; i < n; i++)
			h = (h ^ (unsigned char)buf[i]) * 16777619UL;
		total += n;
	}
	sys1(__NR_close, fd);
	*sum = h;
	return n < 0 ? n : total;
}

/* Check every "HASH SIZE PATH" line of @list; the number of files that match. */
static int check_sums(const char *list, long n, int *files, char *buf)
{
	const char *p = list, *end = list + n;
	int good = 0;

	*files = 0;
	while (p < end) {
		char path[256];
		unsigned long want = parse_hex(p), got = 0;
		long size = 0, len;
		int i = 0;

		while (p < end && *p != ' ')
			p++;
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
			size = size * 10 + *p - '0';
		for (p++; p < end && *p != '\n' && i < 255; p++)
			path[i++] = *p;
		path[i] = 0;
		p++;
		(*files)++;
		len = file_sum(path, &got, buf);
		if (len == size && got == want) {
			good++;
		} else {
			put("    | differs from the host: ");
			put(path);
			put("\n");
		}
	}
	return good;
}

/* The start address of @path's executable mapping in /proc/self/maps, 0 if none. */
static unsigned long maps_start(const char *path, char *buf)
{
	long n = read_file("/proc/self/maps", buf, BUF - 1);
	const char *line = maps_exec_line(buf, n > 0 ? n : 0, path);

	return line ? parse_hex(line) : 0;
}

static void root_suite(char *a, char *b)
{
	char root[128], want[160];
	const char *p;
	unsigned long addr;
	long n, slab;
	int i = 0, files = 0, good, same, ok;

	put("GUEST-START nommu root\n");
	result(sys6(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", 0, 0, 0) == 0,
	       "root: mount /proc");
	n = read_file("/proc/cmdline", a, BUF - 1);
	a[n > 0 ? n : 0] = 0;
	p = str_find(a, n > 0 ? n : 0, "root=");
	p = p ? p + 5 : "";
	/* prepare_namespace() drops "/dev/" from the name it mounts under. */
	if (str_find(p, 5, "/dev/") == p)
		p += 5;
	for (; *p && *p != ' ' && *p != '\n' && i < (int)sizeof(root) - 1; p++)
		root[i++] = *p;
	root[i] = 0;
	str_cat(want, sizeof(want), root, " / cramfs ro");
	n = read_file("/proc/mounts", a, BUF - 1);
	put("  root=");
	put(root);
	put("\n");
	result(n > 0 && str_find(a, n, want) != 0, "root: / is cramfs, read-only, from root=");
	/* Its line among cramfs_xip's (a verified root's comes after its verity line). */
	n = sys3(__NR_syslog, 3, a, BUF);
	for (p = n > 0 ? str_find(a, n, "cramfs_xip: (") : 0; p && !str_find(p, 60, "): mounted ");
	     p = str_find(p + 1, n - (p + 1 - a), "cramfs_xip: ("))
		;
	result(p != 0, "root: mounted by cramfs_xip");
	put("BENCH nommu-root-meminfo MemTotal ");
	put_dec(meminfo("MemTotal:", b));
	put(" MemFree ");
	put_dec(meminfo("MemFree:", b));
	put("\n");
	result(sys2(__NR_mkdir, "/newdir", 0755) == -EROFS, "root: writing is refused (EROFS)");
	/* The root's own options: rootflags= from the command line. */
	n = read_file("/proc/cmdline", a, BUF - 1);
	a[n > 0 ? n : 0] = 0;
	p = str_find(a, n > 0 ? n : 0, "rootflags=");
	i = 0;
	for (p = p ? p + 10 : ""; *p && *p != ' ' && *p != '\n' && i < (int)sizeof(root) - 1; p++)
		root[i++] = *p;
	root[i] = 0;
	remounts("root", "/", root);

	n = read_file("/etc/sums", a, BUF);
	good = n > 0 ? check_sums(a, n, &files, b) : 0;
	put("  files checked: ");
	put_dec(files);
	put("\n");
	result(n > 0 && files > 3 && good == files, "root: every file matches the host's checksum");

	addr = maps_start("/sbin/init", a);
	put("  init text at ");
	put_hex(addr);
	put("\n");
	result(addr >= FLASH_START && addr < FLASH_END, "root: init's text runs from flash");
	addr = map_check("/data/xip-partial.bin", "/data/xip-partial.bin", MAP_PRIVATE, b, &same);
	result(addr >= FLASH_START && addr < FLASH_END && same,
	       "root: mapping an XIP file gives the flash, same bytes as read()");
	run_many("/bin/xipprog", "flash", 2, &ok, b, &slab);
	result(ok, "root: 2 instances of the FDPIC program run in place from flash");
}

/*
 * RAM a filesystem module costs on this board: MemFree lost by loading it
 * and by one mount (code, slabs, zlib workspace, mainline's buffers). The
 * first round (@report 0) only warms up what any first load and mount
 * allocate, so that the order of the two modules does not matter.
 */
/*
 * The largest coresize allowed. Up to 6.3 the loader makes one allocation
 * (a kmalloc() without an MMU, rounded up to a power of two) for the
 * module's code, data and symbols: 16 KiB, and 2 KiB of it is kept to
 * spare for the next no-MMU feature. From 6.4 on it makes one per kind,
 * each rounded up to pages, and coresize is their sum: the text (with the
 * unwind tables and PLT entries that ARM's loader keeps with it, 8.4 KiB
 * on 7.3) 3 pages, read-only data and data one each, 20 KiB, the pages'
 * unused room (about 6 KiB) well over 2 KiB.
 */
static long core_limit(char *b)
{
	long n = read_file("/proc/sys/kernel/osrelease", b, 16), major = 0, minor = 0, i = 0;

	while (i < n && b[i] >= '0' && b[i] <= '9')
		major = major * 10 + b[i++] - '0';
	for (i++; i < n && b[i] >= '0' && b[i] <= '9'; i++)
		minor = minor * 10 + b[i] - '0';
	return major > 6 || (major == 6 && minor >= 4) ? 20480 : 16384 - 2048;
}

static void footprint(const char *label, const char *path, const char *name, char *a, char *b,
		      int report)
{
	long m0, m1, m2, m3, fd, n, i, size;

	m0 = meminfo("MemFree:", b);
	if (load_module(path) != 0) {
		put("RESULT FAIL footprint: ");
		put(path);
		put(" did not load\n");
		return;
	}
	m1 = meminfo("MemFree:", b);
	if (report) {
		/* What the module loader allocated for the module's code and data. */
		str_cat(a, BUF, "/sys/module/", name);
		str_cat(a, BUF, a, "/coresize");
		n = read_file(a, a, 31);
		a[n > 0 ? n : 0] = 0;
		put("BENCH nommu-coresize ");
		put(label);
		put(" ");
		put(n > 0 ? a : "-\n");
		/*
		 * Without an MMU that is one kmalloc(), rounded up to a power
		 * of two: 5 bytes over 16 KiB once cost 16 KiB more RAM.
		 */
		for (i = 0, size = 0; i < n && a[i] >= '0' && a[i] <= '9'; i++)
			size = size * 10 + a[i] - '0';
		if (str_eq(name, "cramfs_xip"))
			result(size > 0 && size <= core_limit(b),
			       "cramfs_xip: its code and data fit their allocations, with room to spare (coresize)");
	}
	if (sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		 (long)"", 0) != 0) {
		sys2(__NR_delete_module, name, 0);
		if (report)
			put("RESULT FAIL footprint: mount failed\n");
		return;
	}
	m2 = meminfo("MemFree:", b);
	/* One compressed page read: its page-cache page and the zlib workspace. */
	fd = sys2(__NR_open, "/mnt/data/compressed.txt", O_RDONLY);
	if (fd >= 0) {
		sys3(__NR_read, fd, b, 1);
		sys1(__NR_close, fd);
	}
	m3 = meminfo("MemFree:", b);
	sys2(__NR_umount2, "/mnt", 0);
	sys2(__NR_delete_module, name, 0);
	if (!report)
		return;
	put("BENCH nommu-footprint ");
	put(label);
	put(" load ");
	put_dec(m0 - m1);
	put(" mount ");
	put_dec(m1 - m2);
	put(" first-decompression ");
	put_dec(m2 - m3);
	put(" kB\n");
}

/* Microseconds of CLOCK_MONOTONIC (under -icount: guest instructions, 8 ns each). */
static long now_us(void)
{
	long ts[2] = { 0, 0 };

	sys2(__NR_clock_gettime, 1, (long)ts);
	return ts[0] * 1000000 + ts[1] / 1000;
}

static void drop_caches(void)
{
	long fd = sys2(__NR_open, "/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd >= 0) {
		sys3(__NR_write, fd, "3", 1);
		sys1(__NR_close, fd);
	}
}

/* The median of @n timings (n <= 15), sorted in place. */
static long median_us(long *t, int n)
{
	int i, j;
	long x;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && t[j - 1] > t[j]; j--) {
			x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	return t[n / 2];
}

/* Read @path whole, in @b-sized reads, after dropping the caches: microseconds. */
static long time_read(const char *path, char *b)
{
	long t0, fd, n;

	drop_caches();
	t0 = now_us();
	fd = sys2(__NR_open, path, O_RDONLY);
	if (fd < 0)
		return -1;
	do
		n = sys3(__NR_read, fd, b, BUF);
	while (n > 0);
	sys1(__NR_close, fd);
	return n < 0 ? -1 : now_us() - t0;
}

/* vfork + execve @prog (checking it runs from @where) + wait, caches dropped: microseconds. */
static long time_exec(const char *prog, const char *where)
{
	char *argv[4], *envp[1];
	char secs[2] = "0";
	long t0, pid;
	int status = -1;

	argv[0] = (char *)prog;
	argv[1] = (char *)where;
	argv[2] = secs;
	argv[3] = 0;
	envp[0] = 0;
	drop_caches();
	t0 = now_us();
	pid = sys0(__NR_vfork);
	if (pid == 0) {
		/* Its RESULT line is not a check of this boot: only its status counts. */
		sys1(__NR_close, 1);
		sys3(__NR_execve, prog, argv, envp);
		sys1(__NR_exit, 127);
	}
	if (pid < 0 || sys6(__NR_wait4, pid, (long)&status, 0, 0, 0, 0) < 0 || status != 0)
		return -1;
	return now_us() - t0;
}

/*
 * Speed of one module on this board, the rows of the vexpress-a9 table:
 * mount(2) of the image, a cold read of an XIP file and of a compressed
 * one, and vfork + exec + exit of the FDPIC program in place and of its
 * compressed copy (RAM). Medians of 7 runs, in microseconds; make bench
 * runs this board under QEMU -icount, where they count instructions.
 * Prints BENCH nommu-speed LABEL ROW us ...
 */
static const char *speed_row(int r)
{
	/* A switch, not an array of pointers: this program has no relocations. */
	switch (r) {
	case 0:
		return "mount";
	case 1:
		return "read-xip";
	case 2:
		return "read-zlib";
	case 3:
		return "exec-xip";
	default:
		return "exec-zlib";
	}
}

static void speed(const char *label, const char *path, const char *name, char *b)
{
	long t[7], med[5];
	int r, i;

	if (load_module(path) != 0) {
		put("RESULT FAIL speed: ");
		put(path);
		put(" did not load\n");
		return;
	}
	for (r = 0; r < 5; r++) {
		for (i = 0; i < 7; i++) {
			if (r == 0) {
				t[i] = now_us();
				if (sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt",
					 (long)"cramfs", MS_RDONLY, (long)"", 0) != 0) {
					t[i] = -1;
					continue;
				}
				t[i] = now_us() - t[i];
				sys2(__NR_umount2, "/mnt", 0);
				continue;
			}
			t[i] = r == 1 ? time_read("/mnt/bin/xipprog", b) :
			       r == 2 ? time_read("/mnt/data/compressed.txt", b) :
			       r == 3 ? time_exec("/mnt/bin/xipprog", "flash") :
			       time_exec("/mnt/bin/xipprog-z", "ram");
		}
		med[r] = median_us(t, 7);
		if (r == 0)
			sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs",
			     MS_RDONLY, (long)"", 0);
	}
	sys2(__NR_umount2, "/mnt", 0);
	sys2(__NR_delete_module, name, 0);
	put("BENCH nommu-speed ");
	put(label);
	for (r = 0; r < 5; r++) {
		put(" ");
		put(speed_row(r));
		put(" ");
		put_dec(med[r]);
	}
	put(" us\n");
}

/* Mount the image @opts (VERITY_OPTS) names. */
static long verity_mount(const char *opts)
{
	return sys6(__NR_mount, (long)"none", (long)"/mnt", (long)"cramfs", MS_RDONLY, (long)opts, 0);
}

/* read() page @page of @path on its own: 0, or the error. */
static long read_page(const char *path, long page, char *b)
{
	long fd = sys2(__NR_open, path, O_RDONLY), n;

	if (fd < 0)
		return fd;
	n = sys3(__NR_lseek, fd, page * 4096, 0);
	if (n >= 0)
		n = sys3(__NR_read, fd, b, 4096);
	sys1(__NR_close, fd);
	return n < 0 ? n : 0;
}

/*
 * The @nth number (from 0) in verity-cases.txt ("XIP_PAGE ZLIB_PAGE"): the
 * page of each file the host altered; -1 if there is none.
 */
static long verity_page(int nth, char *b)
{
	long n = read_file("/verity-cases.txt", b, 255), i = 0, v;

	for (; n > 0; nth--) {
		while (i < n && (b[i] < '0' || b[i] > '9'))
			i++;
		if (i == n)
			break;
		for (v = 0; i < n && b[i] >= '0' && b[i] <= '9'; i++)
			v = v * 10 + b[i] - '0';
		if (!nth)
			return v;
	}
	return -1;
}

static void verity_suite(char *a, char *b)
{
	unsigned long addr;
	long xpage = verity_page(0, b), zpage = verity_page(1, b);
	int same, ok;
	long slab;

	result(load_module("/lib/modules/verity/cramfs_xip.ko") == 0,
	       "verity: cramfs_xip built with verity loads");
	ok = sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		  (long)"verity_required", 0) == 0;
	result(ok, "verity: the signed image mounts from fs_partition with -o verity_required");
	result(same_file("/mnt/data/xip-partial.bin", "/ref/xip-partial.bin", a, b) &&
	       same_file("/mnt/data/compressed.txt", "/ref/compressed.txt", a, b) &&
	       same_file("/mnt/bin/xipprog", "/ref/xipprog", a, b),
	       "verity: its files read as the host copies");
	addr = map_check("/mnt/data/xip-partial.bin", "/ref/xip-partial.bin", MAP_PRIVATE, b,
			 &same);
	result(addr >= FLASH_START && addr < FLASH_END && same,
	       "verity: a file stored in place maps as the flash itself, checked");
	run_many("/mnt/bin/xipprog", "flash", 2, &ok, b, &slab);
	result(ok, "verity: the FDPIC program runs in place from it, twice at once");
	result(sys2(__NR_umount2, "/mnt", 0) == 0, "verity: unmounts");

	/* A byte of page xpage of xip-partial.bin, stored in place, altered. */
	result(xpage > 0 && verity_mount(VERITY_OPTS("20")) == 0,
	       "verity: the image with a page in place altered mounts");
	addr = map_check("/mnt/data/xip-partial.bin", "/ref/xip-partial.bin", MAP_PRIVATE, b,
			 &same);
	result(!addr, "verity: ... mmap of that file fails: no flash address for unchecked bytes");
	result(read_page("/mnt/data/xip-partial.bin", xpage, b) == -5,
	       "verity: ... read() of the altered page fails with EIO");
	result(read_page("/mnt/data/xip-partial.bin", xpage - 1, b) == 0 &&
	       same_file("/mnt/data/compressed.txt", "/ref/compressed.txt", a, b) &&
	       same_file("/mnt/bin/xipprog", "/ref/xipprog", a, b),
	       "verity: ... the page before it and the other files read");
	run_many("/mnt/bin/xipprog", "flash", 1, &ok, b, &slab);
	result(ok, "verity: ... the program runs in place from it");
	sys2(__NR_umount2, "/mnt", 0);

	/* A byte of compressed.txt's block zpage altered. */
	result(zpage >= 0 && verity_mount(VERITY_OPTS("24")) == 0,
	       "verity: the image with a compressed block altered mounts");
	result(read_page("/mnt/data/compressed.txt", zpage, b) == -5,
	       "verity: ... read() of that page fails with EIO");
	/*
	 * The block holds the pointer tables of the data files too; the
	 * program's table and data lie in other blocks.
	 */
	run_many("/mnt/bin/xipprog", "flash", 1, &ok, b, &slab);
	result(ok && same_file("/mnt/bin/xipprog", "/ref/xipprog", a, b),
	       "verity: ... the program, in other blocks, reads and runs in place");
	sys2(__NR_umount2, "/mnt", 0);

	result(verity_mount(VERITY_OPTS("28")) == -126,
	       "verity: an image signed with a key no keyring holds is refused (ENOKEY)");
	result(verity_mount(VERITY_OPTS("2c")) == -EINVAL,
	       "verity: an image without verity is refused under verity_required");
	result(sys6(__NR_mount, (long)"none", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		    (long)"physaddr=0x2c0000,size=0x40000", 0) == 0 &&
	       sys2(__NR_umount2, "/mnt", 0) == 0,
	       "verity: ... and mounts without it");
	result(sys2(__NR_delete_module, "cramfs_xip", 0) == 0, "verity: the module unloads");

	ok = load_module("/lib/modules/cramfs.ko") == 0 &&
	     sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		  (long)"", 0) == 0;
	result(ok, "verity: mainline cramfs mounts the signed image");
	result(same_file("/mnt/data/xip-partial.bin", "/ref/xip-partial.bin", a, b) &&
	       same_file("/mnt/data/compressed.txt", "/ref/compressed.txt", a, b),
	       "verity: ... and reads its files as the host copies");
	result(sys2(__NR_umount2, "/mnt", 0) == 0 && sys2(__NR_delete_module, "cramfs", 0) == 0,
	       "verity: ... unmounts and unloads");
}

void init_main(long *sp)
{
	char a[BUF], b[BUF];

	if (str_eq(((char **)(sp + 1))[0], "/sbin/init")) {
		root_suite(a, b);
		put("GUEST-DONE\n");
		sys6(__NR_reboot, 0xfee1dead, 672274793, 0x01234567, 0, 0, 0);
		for (;;)
			sleep_s(1);
	}
	sys2(__NR_mkdir, "/proc", 0755);
	sys6(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", 0, 0, 0);
	put("GUEST-START nommu\n");
	sys2(__NR_mkdir, "/sys", 0755);
	sys6(__NR_mount, (long)"sysfs", (long)"/sys", (long)"sysfs", 0, 0, 0);
	if (read_file("/verity-cases.txt", b, 255) > 0) {
		verity_suite(a, b);
		put("GUEST-DONE\n");
		sys6(__NR_reboot, 0xfee1dead, 672274793, 0x01234567, 0, 0, 0);
		for (;;)
			sleep_s(1);
	}
	footprint("cramfs_xip", "/lib/modules/cramfs_xip.ko", "cramfs_xip", a, b, 0);
	footprint("mainline cramfs", "/lib/modules/cramfs.ko", "cramfs", a, b, 0);
	footprint("cramfs_xip", "/lib/modules/cramfs_xip.ko", "cramfs_xip", a, b, 1);
	footprint("mainline cramfs", "/lib/modules/cramfs.ko", "cramfs", a, b, 1);
	speed("cramfs_xip", "/lib/modules/cramfs_xip.ko", "cramfs_xip", b);
	speed("mainline", "/lib/modules/cramfs.ko", "cramfs", b);
	result(load_module("/lib/modules/cramfs_xip.ko") == 0, "cramfs_xip: module loads");
	suite("cramfs_xip", a, b);
	overlaps_mount(b);
	strict_mmap();
	mount_ops(a, b);
	aligned_suite(a, b);
	result(sys2(__NR_delete_module, "cramfs_xip", 0) == 0, "cramfs_xip: module unloads");
	if (load_module("/lib/modules/cramfs.ko") == 0) {
		suite("mainline cramfs", a, b);
		sys2(__NR_delete_module, "cramfs", 0);
	} else {
		put("RESULT FAIL mainline cramfs.ko did not load\n");
	}
	put("GUEST-DONE\n");
	sys6(__NR_reboot, 0xfee1dead, 672274793, 0x01234567, 0, 0, 0);
	for (;;)
		sleep_s(1);
}
