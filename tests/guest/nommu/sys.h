/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Freestanding Linux system calls and a little formatting for the no-MMU
 * guest programs (Thumb-2, ARM EABI: number in r7, arguments in r0-r5).
 * No C library, no writable globals and no pointer tables, so the programs
 * need no relocation and their text can run from flash.
 */
#ifndef NOMMU_SYS_H
#define NOMMU_SYS_H

#define __NR_exit		1
#define __NR_read		3
#define __NR_write		4
#define __NR_open		5
#define __NR_close		6
#define __NR_lseek		19
#define __NR_execve		11
#define __NR_mount		21
#define __NR_mkdir		39
#define __NR_umount2		52
#define __NR_reboot		88
#define __NR_munmap		91
#define __NR_wait4		114
#define __NR_delete_module	129
#define __NR_nanosleep		162
#define __NR_vfork		190
#define __NR_mmap2		192
#define __NR_getpid		20
#define __NR_finit_module	379
#define __NR_clock_gettime	263

/* mps2-an385's flash (ssram1) past the boot shim, and its RAM (psram). */
#define FLASH_START	0x00010000UL
#define FLASH_END	0x00400000UL
#define RAM_START	0x21000000UL
#define RAM_END		0x22000000UL

#define O_RDONLY	0
#define O_WRONLY	1
#define SEEK_END	2
#define PROT_READ	1
#define PROT_WRITE	2
#define PROT_EXEC	4
#define MAP_SHARED	1
#define MAP_PRIVATE	2
#define MS_RDONLY	1
#define MS_REMOUNT	32
#define MS_BIND		4096
#define MS_MOVE		8192
#define MNT_DETACH	2
#define EINVAL		22

typedef unsigned long size_t;

static inline long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	register long r3 __asm__("r3") = d;
	register long r4 __asm__("r4") = e;
	register long r5 __asm__("r5") = f;
	register long r7 __asm__("r7") = n;

	__asm__ volatile("svc 0" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5),
			 "r"(r7) : "memory");
	return r0;
}

#define sys0(n)			sys6(n, 0, 0, 0, 0, 0, 0)
#define sys1(n, a)		sys6(n, (long)(a), 0, 0, 0, 0, 0)
#define sys2(n, a, b)		sys6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define sys3(n, a, b, c)	sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)

static inline size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static inline void put(const char *s)
{
	sys3(__NR_write, 1, s, str_len(s));
}

/* @v as "0x" and 8 hex digits in @buf. */
static inline char *fmt_hex(char buf[11], unsigned long v)
{
	int i;

	buf[0] = '0';
	buf[1] = 'x';
	for (i = 0; i < 8; i++)
		buf[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 15];
	buf[10] = 0;
	return buf;
}

/* @v in decimal, at the end of @buf: returns where it starts. */
static inline char *fmt_dec(char buf[13], long v)
{
	int i = 12, neg = v < 0;

	buf[i] = 0;
	if (neg)
		v = -v;
	do {
		buf[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	if (neg)
		buf[--i] = '-';
	return buf + i;
}

static inline void put_hex(unsigned long v)
{
	char buf[11];

	put(fmt_hex(buf, v));
}

static inline void put_dec(long v)
{
	char buf[13];

	put(fmt_dec(buf, v));
}

static inline int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static const char *str_find(const char *hay, size_t n, const char *needle)
{
	size_t i, j, m = str_len(needle);

	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m && hay[i + j] == needle[j]; j++)
			;
		if (j == m)
			return hay + i;
	}
	return 0;
}

/*
 * The first line of the /proc/PID/maps text @maps (@n bytes) that names
 * @path and maps it executable ("00201000-00212000 r-xs ..."), 0 if none.
 */
static inline const char *maps_exec_line(const char *maps, long n, const char *path)
{
	const char *hit = str_find(maps, n, path), *p, *q;

	while (hit) {
		p = hit;
		while (p > maps && p[-1] != '\n')
			p--;
		for (q = p; q < hit && *q != ' '; q++)
			;
		if (hit - q > 4 && q[3] == 'x')
			return p;
		hit = str_find(hit + 1, n - (hit + 1 - maps), path);
	}
	return 0;
}

static inline unsigned long parse_hex(const char *s)
{
	unsigned long v = 0;

	for (;; s++) {
		if (*s >= '0' && *s <= '9')
			v = v * 16 + *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			v = v * 16 + *s - 'a' + 10;
		else
			return v;
	}
}

static inline long read_file(const char *path, char *buf, size_t max)
{
	long fd = sys2(__NR_open, path, O_RDONLY), n, got = 0;

	if (fd < 0)
		return fd;
	while ((size_t)got < max && (n = sys3(__NR_read, fd, buf + got, max - got)) > 0)
		got += n;
	sys1(__NR_close, fd);
	return got;
}

static inline void sleep_s(long s)
{
	long ts[2] = { s, 0 };

	sys2(__NR_nanosleep, ts, 0);
}

/*
 * Append @s to the line in @buf (@size bytes) at *@n, cut short if need be:
 * the last byte stays free for the line's end (put_line()).
 */
static inline void str_add(char *buf, long size, long *n, const char *s)
{
	while (*s && *n < size - 1)
		buf[(*n)++] = *s++;
}

/*
 * End the line in @buf (@n bytes) and write it with one write(): programs
 * running at once would interleave the pieces of lines written piecemeal on
 * the console, and the host would count fewer RESULT lines.
 */
static inline void put_line(char *buf, long n)
{
	buf[n] = '\n';
	sys3(__NR_write, 1, buf, n + 1);
}

static inline void result(int ok, const char *what)
{
	char line[256];
	long n = 0;

	str_add(line, sizeof(line), &n, ok ? "RESULT PASS " : "RESULT FAIL ");
	str_add(line, sizeof(line), &n, what);
	put_line(line, n);
}

#endif /* NOMMU_SYS_H */
