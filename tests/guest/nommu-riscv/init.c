// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the RISC-V guest without an MMU (QEMU virt, nommu_virt_defconfig):
 * freestanding RV64, raw system calls, made into a bFLT file that runs from
 * RAM (scripts/elf2flt.py --ram). Loads cramfs_xip.ko, mounts
 * mtd:fs_partition, checks that mmap() of a file stored in place returns its
 * flash address and the file's bytes, that a compressed file maps from RAM,
 * and that /bin/hello (bFLT, stored in place) runs with its text in flash
 * while /bin/hello-ram (the same program, copied to RAM by its flag) does
 * not. Prints RESULT lines the host counts (judge-console.sh), then
 * GUEST-DONE.
 */

#define CHECKS_TOTAL	16

#define __NR_dup3		24
#define __NR_mkdirat		34
#define __NR_umount2		39
#define __NR_mount		40
#define __NR_openat		56
#define __NR_close		57
#define __NR_pipe2		59
#define __NR_read		63
#define __NR_write		64
#define __NR_ppoll		73
#define __NR_exit		93
#define __NR_syslog		116
#define __NR_munmap		215
#define __NR_clone		220
#define __NR_mmap		222
#define __NR_wait4		260
#define __NR_finit_module	273

#define AT_FDCWD	-100
#define O_RDONLY	0
#define PROT_READ	1
#define PROT_EXEC	4
#define MAP_SHARED	1
#define MAP_PRIVATE	2
#define MS_RDONLY	1
#define CLONE_VM	0x100
#define CLONE_VFORK	0x4000
#define SIGCHLD		17

/* Bank 1 of the flash, which holds the image (its partition from 1 MiB). */
#define FLASH_START	0x22000000UL
#define FLASH_END	0x24000000UL
#define IMAGE_PHYS	"0x0000000022100000"	/* %pa: 64-bit */

#define BUF		16384

static long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a3 __asm__("a3") = d;
	register long a4 __asm__("a4") = e;
	register long a5 __asm__("a5") = f;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4),
			 "r"(a5) : "memory");
	return a0;
}

#define sys1(n, a)		sys6(n, (long)(a), 0, 0, 0, 0, 0)
#define sys2(n, a, b)		sys6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define sys3(n, a, b, c)	sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define sys4(n, a, b, c, d)	sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

static unsigned long str_len(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static void put(const char *s)
{
	sys3(__NR_write, 1, s, str_len(s));
}

static void put_hex(unsigned long v)
{
	char b[19];
	int i;

	b[0] = '0';
	b[1] = 'x';
	for (i = 0; i < 16; i++)
		b[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15];
	b[18] = 0;
	put(b);
}

static void result(int ok, const char *what)
{
	put(ok ? "RESULT PASS " : "RESULT FAIL ");
	put(what);
	put("\n");
}

static int in_flash(unsigned long a)
{
	return a >= FLASH_START && a < FLASH_END;
}

/* Is @needle somewhere in the first @n bytes of @hay? */
static int has(const char *hay, long n, const char *needle)
{
	long m = str_len(needle), i, j;

	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m && hay[i + j] == needle[j]; j++)
			;
		if (j == m)
			return 1;
	}
	return 0;
}

static long open_ro(const char *path)
{
	return sys4(__NR_openat, AT_FDCWD, path, O_RDONLY, 0);
}

static long read_all(long fd, char *buf, long max)
{
	long got = 0, n;

	while (got < max && (n = sys3(__NR_read, fd, buf + got, max - got)) > 0)
		got += n;
	return got;
}

/*
 * Map @path (its first @len bytes) read-only with @flags, compare the mapping
 * with what read() gives; the mapping's address in *@addr.
 */
static int map_matches(const char *path, long len, long flags, unsigned long *addr, char *buf)
{
	long fd = open_ro(path), got, i;
	const char *m;
	int ok;

	if (fd < 0)
		return 0;
	got = read_all(fd, buf, len);
	m = (const char *)sys6(__NR_mmap, 0, len, PROT_READ, flags, fd, 0);
	sys1(__NR_close, fd);
	*addr = (unsigned long)m;
	if ((unsigned long)m > -4096UL || got != len) {
		put("mmap() or read() failed: ");
		put_hex((unsigned long)m);
		put(" ");
		put_hex(got);
		put("\n");
		return 0;
	}
	ok = 1;
	for (i = 0; i < len && ok; i++)
		if (m[i] != buf[i]) {
			put("first difference at byte ");
			put_hex(i);
			put("\n");
			ok = 0;
		}
	sys2(__NR_munmap, m, len);
	return ok;
}

/*
 * vfork by clone(): the child runs only the assembly after the system call
 * (dup3 of @fd to stdout, execve, exit), never a stack frame of the parent.
 * Returns the child's pid or a negative error.
 */
static __attribute__((noinline)) long spawn(const char *path, const char **argv, long fd)
{
	register long a0 __asm__("a0") = CLONE_VM | CLONE_VFORK | SIGCHLD;
	register long a1 __asm__("a1") = 0;
	register long a7 __asm__("a7") = __NR_clone;
	register long s1 __asm__("s1") = (long)path;
	register long s2 __asm__("s2") = (long)argv;
	register long s3 __asm__("s3") = fd;

	__asm__ volatile("ecall\n\t"
			 "bnez a0, 1f\n\t"
			 "mv a0, s3\n\tli a1, 1\n\tli a2, 0\n\tli a7, 24\n\tecall\n\t"
			 "mv a0, s1\n\tmv a1, s2\n\tli a2, 0\n\tli a7, 221\n\tecall\n\t"
			 "li a0, 127\n\tli a7, 93\n\tecall\n"
			 "1:"
			 : "+r"(a0), "+r"(a1), "+r"(a7)
			 : "r"(s1), "r"(s2), "r"(s3)
			 : "a2", "memory");
	return a0;
}

/*
 * Run @path with its output in @out (at most @max bytes, the length in
 * *@len); returns its wait status, or -1.
 */
static long run(const char *path, char *out, long max, long *len)
{
	const char *argv[2] = { path, 0 };
	int fds[2] = { -1, -1 };
	int status = -1;
	long pid;

	*len = 0;
	if (sys2(__NR_pipe2, fds, 0))
		return -1;
	pid = spawn(path, argv, fds[1]);
	sys1(__NR_close, fds[1]);
	if (pid > 0)
		*len = read_all(fds[0], out, max);
	sys1(__NR_close, fds[0]);
	if (pid <= 0 || sys4(__NR_wait4, pid, &status, 0, 0) != pid)
		return -1;
	return status;
}

/* The address after "text at " in a program's output, or 0. */
static unsigned long text_at(const char *s, long n)
{
	unsigned long v = 0;
	long i, j;

	for (i = 0; i + 10 <= n; i++) {
		if (!has(s + i, 10, "text at 0x"))
			continue;
		for (j = i + 10; j < n; j++) {
			char c = s[j];

			if (c >= '0' && c <= '9')
				v = v * 16 + (c - '0');
			else if (c >= 'a' && c <= 'f')
				v = v * 16 + (c - 'a' + 10);
			else
				break;
		}
		return v;
	}
	return 0;
}

__attribute__((used, noreturn)) static void init_main(void)
{
	char buf[BUF], out[512];
	unsigned long addr;
	long fd, r, n;

	put("=== riscv-nommu init\n");
	sys3(__NR_mkdirat, AT_FDCWD, "/proc", 0755);
	sys6(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", 0, 0, 0);
	fd = open_ro("/cramfs_xip.ko");
	r = fd < 0 ? fd : sys3(__NR_finit_module, fd, "", 0);
	result(r == 0, "finit_module(cramfs_xip.ko)");
	r = sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		 0, 0);
	result(r == 0, "mount -t cramfs mtd:fs_partition /mnt");
	n = sys3(__NR_syslog, 3, buf, BUF);
	result(n > 0 && has(buf, n, "at physical " IMAGE_PHYS),
	       "the mount line names the image's physical address " IMAGE_PHYS);

	r = map_matches("/mnt/data/xip-data", 3 * 4096, MAP_SHARED, &addr, buf);
	result(r, "mmap(MAP_SHARED) of a file stored in place gives its bytes");
	result(in_flash(addr), "... at a flash address");
	put("xip-data mapped at ");
	put_hex(addr);
	put("\n");
	r = map_matches("/mnt/data/xip-data", 3 * 4096, MAP_PRIVATE, &addr, buf);
	result(r && in_flash(addr), "mmap(MAP_PRIVATE, PROT_READ) of it: the flash too");
	/* A compressed file has no flash address: MAP_SHARED is refused. */
	r = map_matches("/mnt/data/packed", 3 * 4096, MAP_SHARED, &addr, buf);
	result(!r && addr == (unsigned long)-19, "mmap(MAP_SHARED) of a compressed file: ENODEV");
	r = map_matches("/mnt/data/packed", 3 * 4096, MAP_PRIVATE, &addr, buf);
	result(r, "mmap(MAP_PRIVATE) of a compressed file gives its bytes");
	result(r && addr && !in_flash(addr), "... from RAM, not from flash");

	r = run("/mnt/bin/hello", out, sizeof(out), &n);
	result(r == 0, "/mnt/bin/hello (bFLT, stored in place) exits 0");
	result(has(out, n, "hello from flash\ntwice\ntwice\n"), "... says its greetings");
	addr = text_at(out, n);
	put("hello's text at ");
	put_hex(addr);
	put("\n");
	result(in_flash(addr), "... its text runs from flash");
	r = run("/mnt/bin/hello-ram", out, sizeof(out), &n);
	result(r == 0 && has(out, n, "ok\n"), "/mnt/bin/hello-ram (bFLT, RAM flag) exits 0");
	addr = text_at(out, n);
	result(addr && !in_flash(addr), "... its text runs from RAM");

	result(sys2(__NR_umount2, "/mnt", 0) == 0, "umount /mnt");
	r = sys6(__NR_mount, (long)"mtd:fs_partition", (long)"/mnt", (long)"cramfs", MS_RDONLY,
		 0, 0);
	result(r == 0 && sys2(__NR_umount2, "/mnt", 0) == 0, "mount and umount again");
	put("GUEST-DONE\n");
	for (;;)	/* init never exits: ppoll() with nothing to wait for */
		sys4(__NR_ppoll, 0, 0, 0, 0);
}

__attribute__((naked, noreturn, section(".text.start"))) void _start(void)
{
	__asm__ volatile("j init_main");
}
