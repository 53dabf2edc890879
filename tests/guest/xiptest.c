// SPDX-License-Identifier: GPL-2.0
/*
 * xiptest: user-space side of the guest XIP tests (static, for the ARM guest).
 *
 *   xiptest cmp FILE REFERENCE    mmap FILE privately, read() it, and check both
 *                                 byte for byte against REFERENCE
 *   xiptest cow FILE              private writable mapping: writes land in a
 *                                 private copy; the file and a second mapping
 *                                 (in a child) keep the original bytes
 *   xiptest fork FILE             a mapping survives fork, in parent and child
 *   xiptest mremap FILE           a mapping moved by mremap keeps its bytes
 *   xiptest maps FILE             print the /proc/self/maps line and the Rss of
 *                                 a read-only private mapping of FILE
 *   xiptest sharedwrite FILE      a shared writable mapping must be refused
 *   xiptest touch FILE...         map each file and touch every page, listing
 *                                 the pages that raise SIGBUS (for bad images)
 *   xiptest readpages FILE...    read() every page of each file on its own,
 *                                 listing the pages that fail ("FILE:
 *                                 unreadable pages: N ..."; with errno
 *                                 other than EIO, "N(errno)")
 *   xiptest bigmap FILE REF       mmap() of 1 GiB of FILE costs no more beyond
 *                                 one of FILE's size than it does for REF (a
 *                                 copy on tmpfs); past the end is SIGBUS
 *   xiptest seekdir DIR           lseek() a directory into the middle of each
 *                                 entry: readdir goes on with the next entry
 *   xiptest hold FILE SECONDS     map FILE privately, then check its bytes
 *                                 against read() after SECONDS (the mount may
 *                                 be lazily unmounted meanwhile)
 *   xiptest split FILE SECONDS    map FILE privately, unmap its first half of
 *                                 pages, fork, and hold the rest in both
 *                                 processes for SECONDS
 *   xiptest lease FILE            take a read lease on FILE (F_SETLEASE, as
 *                                 Samba and NFS servers do) and give it back
 *   xiptest phys PID ADDR         print the physical address that PID's page
 *                                 at ADDR (hex) maps (/proc/PID/pagemap), or
 *                                 "none"
 *   xiptest dontneed FILE         map FILE privately, touch it, drop every
 *                                 page with MADV_DONTNEED, and check that it
 *                                 reads the file's bytes again, each page at
 *                                 the physical address it had
 *   xiptest debug PROG LO HI      a debugger's work on PROG (a copy of this
 *                                 program): ptrace reads of its text return
 *                                 the file's bytes, a breakpoint written with
 *                                 PTRACE_POKETEXT stops it with SIGTRAP there
 *                                 and it runs on once the word is back; the
 *                                 write costs it one private page, and
 *                                 another process runs PROG meanwhile with
 *                                 that page in place: at a physical address
 *                                 from LO to HI (hex), the flash
 *                                 (32-bit ARM)
 *   xiptest peek PID PROG         a debugger attaching to PID, which runs
 *                                 PROG (gdb -p): PTRACE_PEEKTEXT of every
 *                                 page of its text, and /proc/PID/mem, read
 *                                 the file's bytes; PTRACE_POKETEXT there
 *                                 is refused
 *   xiptest target [SECONDS]      what debug runs: call bp_target() a few
 *                                 times, then sleep SECONDS
 *   xiptest pages FILE            read() FILE (its page cache then holds a
 *                                 copy of every page), map it read-only,
 *                                 touch the pages that are System RAM after
 *                                 one pass, then the rest, and print each
 *                                 page's place ("page N flash|ram"), the
 *                                 page faults of each pass ("faults ram|flash
 *                                 F of P pages") and smaps' VmFlags line
 *   xiptest grow FILE PAGES       map the first PAGES pages of FILE, grow the
 *                                 mapping to the whole file with mremap()
 *                                 (moving it: a page is mapped after it),
 *                                 and print each page's place, or the page
 *                                 that raised SIGBUS ("sigbus at page N")
 *   xiptest dirseek DIR COUNTER   list DIR one entry per getdents64() call,
 *                                 noting each entry's position, then go to
 *                                 every position again in reverse order
 *                                 (what telldir() and seekdir() do) and read
 *                                 one entry there: it must be the one that
 *                                 followed; prints the entries and how much
 *                                 the file COUNTER (a count of flash reads)
 *                                 grew during the seeks ("seeks N reads R")
 *   xiptest dirforge DIR          lseek() DIR to each of its first 2048 byte
 *                                 positions and read one entry there; prints
 *                                 how many reads gave an entry or the end and
 *                                 how many failed ("positions N listed L
 *                                 failed F")
 *   xiptest forkwrite FILE        map FILE read-only, fork; the child makes
 *                                 its mapping writable and writes every page;
 *                                 the parent's still reads the file, from
 *                                 the same physical pages
 *
 * Exit status 0 when the check holds; the reason is printed otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/user.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what)
{
	fprintf(stderr, "xiptest: %s: %s\n", what, errno ? strerror(errno) : "mismatch");
	return 1;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(path, O_RDONLY);
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st))
		return NULL;
	buf = malloc(st.st_size + 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, st.st_size - got);

		if (n <= 0) {
			free(buf);
			buf = NULL;
			break;
		}
		got += n;
	}
	close(fd);
	*len = st.st_size;
	return buf;
}

static unsigned char *map(const char *path, size_t *len, int prot, int flags)
{
	struct stat st;
	void *p;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return NULL;
	*len = st.st_size;
	p = mmap(NULL, st.st_size, prot, flags, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* @file's bytes through mmap() (and with @by_read, read()) against @ref's. */
static int cmp(const char *file, const char *ref, int by_read)
{
	size_t flen = 0, rlen, mlen, i;
	unsigned char *r = slurp(ref, &rlen), *f = by_read ? slurp(file, &flen) : NULL, *m;

	if (!r || (by_read && !f))
		return fail("read");
	if (by_read && (flen != rlen || memcmp(f, r, rlen)))
		return fail("read() differs from the reference");
	m = map(file, &mlen, PROT_READ, MAP_PRIVATE);
	if (!m)
		return fail("mmap");
	if (mlen != rlen)
		return fail("the file's size differs from the reference's");
	for (i = 0; i < rlen; i++) {
		if (m[i] != r[i]) {
			fprintf(stderr, "xiptest: mapping differs at byte %zu\n", i);
			return 1;
		}
	}
	printf("%zu bytes equal through %smmap()\n", rlen, by_read ? "read() and " : "");
	return 0;
}

/*
 * Write every byte of a private mapping of @file, mapped writable (from the
 * page cache) or, with @later, read-only (in place) and then made writable
 * with mprotect(), which copies each page from flash as it is written.
 */
static int cow_one(const char *file, const unsigned char *orig, size_t rlen, int later)
{
	unsigned char *m, *again;
	size_t len, i;
	int status;
	pid_t pid;

	m = map(file, &len, later ? PROT_READ : PROT_READ | PROT_WRITE, MAP_PRIVATE);
	if (!m || len != rlen)
		return fail("mmap");
	if (later && mprotect(m, len, PROT_READ | PROT_WRITE))
		return fail("mprotect(PROT_WRITE)");
	for (i = 0; i < len; i++)
		m[i] = (unsigned char)~orig[i];
	for (i = 0; i < len; i++)
		if (m[i] != (unsigned char)~orig[i])
			return fail("the private copy does not hold what was written");
	pid = fork();
	if (pid == 0) {
		unsigned char *c = map(file, &len, PROT_READ, MAP_PRIVATE);

		_exit(!c || memcmp(c, orig, len));
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return fail("a second mapping in another process sees the writes");
	again = slurp(file, &len);
	if (!again || len != rlen || memcmp(again, orig, len))
		return fail("read() of the file sees the writes");
	free(again);
	munmap(m, len);
	return 0;
}

static int cow(const char *file)
{
	size_t rlen;
	unsigned char *orig = slurp(file, &rlen);

	if (!orig)
		return fail("read");
	if (cow_one(file, orig, rlen, 0) || cow_one(file, orig, rlen, 1))
		return 1;
	printf("%zu bytes written privately, mapped writable and made writable; file and other mappings unchanged\n",
	       rlen);
	return 0;
}

static int forked(const char *file)
{
	size_t len, rlen;
	unsigned char *r = slurp(file, &rlen), *m = map(file, &len, PROT_READ, MAP_PRIVATE);
	int status;
	pid_t pid;

	if (!r || !m)
		return fail("read or mmap");
	pid = fork();
	if (pid == 0)
		_exit(memcmp(m, r, len) != 0);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return fail("the child's inherited mapping differs");
	if (memcmp(m, r, len))
		return fail("the parent's mapping differs after fork");
	if (munmap(m, len))
		return fail("munmap");
	printf("mapping intact in parent and child\n");
	return 0;
}

static int remapped(const char *file)
{
	size_t len, rlen;
	unsigned char *r = slurp(file, &rlen), *m = map(file, &len, PROT_READ, MAP_PRIVATE);
	unsigned char *hole, *moved;

	if (!r || !m)
		return fail("read or mmap");
	/* Reserve a different place, then move the mapping there. */
	hole = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (hole == MAP_FAILED)
		return fail("mmap anonymous");
	moved = mremap(m, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, hole);
	if (moved == MAP_FAILED)
		return fail("mremap");
	if (memcmp(moved, r, len))
		return fail("the moved mapping differs");
	printf("mapping moved from %p to %p intact\n", (void *)m, (void *)moved);
	return 0;
}

/* The physical address PID's page at ADDR maps (pagemap), or 0. */
static unsigned long long phys_of(pid_t pid, unsigned long addr)
{
	char path[64];
	unsigned long long e = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (pread(fd, &e, 8, (off_t)(addr / 4096) * 8) != 8)
		e = 0;
	close(fd);
	/* Bit 63: present; bits 0-54: the page frame (root only). */
	if (!(e >> 63) || !(e & ((1ULL << 55) - 1)))
		return 0;
	return (e & ((1ULL << 55) - 1)) * 4096;
}

static int maps(const char *file)
{
	size_t len;
	unsigned char *m = map(file, &len, PROT_READ, MAP_PRIVATE);
	char line[512], perms[8];
	volatile unsigned char sum = 0;
	unsigned long from, to;
	size_t i;
	FILE *f;
	int in = 0;

	if (!m)
		return fail("mmap");
	for (i = 0; i < len; i += 4096)
		sum += m[i];	/* touch every page */
	f = fopen("/proc/self/smaps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		/* A mapping's first line ("start-end perms ..."), then its fields. */
		if (sscanf(line, "%lx-%lx %7s", &from, &to, perms) == 3)
			in = from == (unsigned long)m;
		if (in && (strchr(line, '/') || !strncmp(line, "Rss:", 4)))
			fputs(line, stdout);
	}
	printf("phys %08llx\n", phys_of(getpid(), (unsigned long)m));
	return 0;
}

static int sharedwrite(const char *file)
{
	int fd = open(file, O_RDONLY);
	void *p;

	if (fd < 0)
		return fail("open");
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED) {
		fprintf(stderr, "xiptest: a shared writable mapping was allowed\n");
		return 1;
	}
	printf("shared writable mapping refused: %s\n", strerror(errno));
	return 0;
}

static sigjmp_buf touch_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(touch_jmp, sig);
}

static int touch(int n, char **files)
{
	unsigned long pages = 0, faults = 0, unmapped = 0;
	volatile unsigned char sum = 0;
	int i;

	signal(SIGBUS, on_sigbus);
	signal(SIGSEGV, on_sigbus);
	for (i = 0; i < n; i++) {
		size_t len, off;
		unsigned char *m = map(files[i], &len, PROT_READ, MAP_PRIVATE);

		if (!m) {
			printf("%s: mmap: %s\n", files[i], strerror(errno));
			unmapped++;
			continue;
		}
		printf("%s: faults at:", files[i]);
		for (off = 0; off < len; off += 4096) {
			pages++;
			if (sigsetjmp(touch_jmp, 1) == 0) {
				sum += m[off];
			} else {
				faults++;
				printf(" %zu", off / 4096);
			}
		}
		printf("\n");
		munmap(m, len);
	}
	printf("%d files: %lu could not be mapped; %lu pages touched, %lu faults\n", n, unmapped,
	       pages, faults);
	return 0;
}

static int readpages(int n, char **files)
{
	static char buf[4096];
	struct stat st;
	off_t off;
	int i, fd;

	for (i = 0; i < n; i++) {
		fd = open(files[i], O_RDONLY);
		if (fd < 0 || fstat(fd, &st)) {
			printf("%s: open: %s\n", files[i], strerror(errno));
			continue;
		}
		printf("%s: unreadable pages:", files[i]);
		for (off = 0; off < st.st_size; off += sizeof(buf))
			if (pread(fd, buf, sizeof(buf), off) < 0)
				printf(errno == EIO ? " %lld" : " %lld(%d)",
				       (long long)(off / sizeof(buf)), errno);
		printf("\n");
		close(fd);
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Seconds @n mmap() calls of @len bytes of @fd take; their munmap() is not
 * timed (on ARM it flushes the TLB page by page over the whole range).
 */
static double time_maps(int fd, size_t len, int n)
{
	double t = 0, t0;
	int i;

	for (i = 0; i < n; i++) {
		void *m;

		t0 = now();
		m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		t += now() - t0;
		if (m == MAP_FAILED)
			return -1;
		munmap(m, len);
	}
	return t;
}

/* Best of 3 rounds of 20 mmap() calls of @len bytes of @fd, in seconds. */
static double best_maps(int fd, size_t len)
{
	double best = 1e9, t;
	int i;

	for (i = 0; i < 3; i++) {
		t = time_maps(fd, len, 20);
		if (t < 0)
			return t;
		best = t < best ? t : best;
	}
	return best;
}

/*
 * What a 1 GiB mapping of FILE costs beyond one of its own size, against the
 * same for REF (a copy on tmpfs, whose mmap is the kernel's alone): the
 * filesystem must not add work for pages the file does not have.
 */
static int bigmap(const char *path, const char *ref)
{
	size_t big = 1UL << 30, len;
	int fd = open(path, O_RDONLY), rfd = open(ref, O_RDONLY);
	double ours, theirs;
	volatile unsigned char *m;
	struct stat st;

	if (fd < 0 || rfd < 0 || fstat(fd, &st))
		return fail(path);
	len = (st.st_size + 4095) & ~4095UL;
	ours = best_maps(fd, big) - best_maps(fd, len);
	theirs = best_maps(rfd, big) - best_maps(rfd, len);
	printf("20 mmap() of 1 GiB beyond %zu bytes: %.2f ms, on tmpfs %.2f ms\n", len,
	       ours * 1e3, theirs * 1e3);
	/*
	 * Under the debug kernel (KASAN, lockdep) either difference moves by
	 * some 25 ms from run to run, below zero too: the bound is tmpfs's
	 * cost (never less than nothing) and 50 ms. Work per page of the
	 * mapping (262,144 pages) would cost seconds.
	 */
	if (ours > 2 * (theirs > 0 ? theirs : 0) + 0.05) {
		errno = 0;
		return fail("a large mapping costs more than the file's pages");
	}
	m = mmap(NULL, big, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return fail("mmap");
	signal(SIGBUS, on_sigbus);
	if (sigsetjmp(touch_jmp, 1) == 0) {
		(void)m[len];
		errno = 0;
		return fail("the page past the end of the file did not fault");
	}
	(void)m[0];
	munmap((void *)m, big);
	close(fd);
	close(rfd);
	return 0;
}

struct names {
	int n;
	char name[256][256];
	long long next[256];
};

/* Every entry of the open directory @fd from its current position on. */
static int list_from(int fd, struct names *out)
{
	static char buf[32768];
	long n, off;

	out->n = 0;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n && out->n < 256; out->n++) {
			struct {
				unsigned long long ino;
				long long off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);

			snprintf(out->name[out->n], 256, "%s", d->name);
			out->next[out->n] = d->off;
			off += d->reclen;
		}
	}
	return n < 0 ? -1 : 0;
}

static int seekdir_check(const char *path)
{
	static struct names all, rest;
	int fd = open(path, O_RDONLY | O_DIRECTORY), k, i;
	long long at;

	if (fd < 0 || list_from(fd, &all) || all.n < 2)
		return fail(path);
	for (k = 0; k < all.n; k++) {
		/* Four bytes into entry k: readdir resumes at entry k + 1. */
		at = (k ? all.next[k - 1] : 0) + 4;
		if (lseek(fd, at, SEEK_SET) != at || list_from(fd, &rest))
			return fail("readdir after lseek");
		if (rest.n != all.n - k - 1) {
			fprintf(stderr, "xiptest: lseek to %lld: %d entries, want %d\n", at, rest.n,
				all.n - k - 1);
			return 1;
		}
		for (i = 0; i < rest.n; i++)
			if (strcmp(rest.name[i], all.name[k + 1 + i])) {
				errno = 0;
				return fail("wrong entry after lseek");
			}
	}
	printf("%d entries, each resumed after a seek into it\n", all.n);
	close(fd);
	return 0;
}

static int hold(const char *path, const char *seconds)
{
	size_t len, rlen;
	unsigned char *m = map(path, &len, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	unsigned char *r = slurp(path, &rlen);

	if (!m || !r || len != rlen)
		return fail(path);
	printf("mapped\n");
	fflush(stdout);
	sleep(atoi(seconds));
	if (memcmp(m, r, len)) {
		errno = 0;
		return fail("mapped bytes changed");
	}
	return 0;
}

static int split(const char *path, const char *seconds)
{
	size_t len, half;
	unsigned char *m = map(path, &len, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	pid_t pid;

	if (!m)
		return fail(path);
	half = (len + 4095) / 4096 / 2 * 4096;
	if (munmap(m, half))
		return fail("munmap");
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (!pid) {
		sleep(atoi(seconds));
		_exit(0);
	}
	printf("split: %zu bytes left mapped, in two processes\n", len - half);
	fflush(stdout);
	sleep(atoi(seconds));
	waitpid(pid, NULL, 0);
	return 0;
}

static int lease(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return fail(path);
	if (fcntl(fd, F_SETLEASE, F_RDLCK))
		return fail("F_SETLEASE F_RDLCK");
	if (fcntl(fd, F_GETLEASE) != F_RDLCK)
		return fail("F_GETLEASE after F_RDLCK");
	if (fcntl(fd, F_SETLEASE, F_UNLCK))
		return fail("F_SETLEASE F_UNLCK");
	close(fd);
	return 0;
}

static int phys(const char *pid, const char *addr)
{
	unsigned long long p = phys_of(atoi(pid), strtoul(addr, NULL, 16));

	if (p)
		printf("%08llx\n", p);
	else
		printf("none\n");
	return 0;
}

/* Whether physical address @p is System RAM (/proc/iomem, root only). */
static int in_ram(unsigned long long p)
{
	FILE *f = fopen("/proc/iomem", "r");
	unsigned long long start, end;
	char line[128];
	int ram = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &start, &end) == 2 && strstr(line, ": System RAM") &&
		    start <= p && p <= end)
			ram = 1;
	if (f)
		fclose(f);
	return ram;
}

/*
 * MADV_DONTNEED, then every page again: the bytes are the file's, and each
 * page in flash is back at its flash address. A page-cache page may come
 * back elsewhere: reclaim (drop_caches in the load test) may have freed it.
 */
static int dontneed(const char *path)
{
	size_t len, rlen, i, pages, flash = 0;
	unsigned char *orig = slurp(path, &rlen);
	volatile unsigned char *m = map(path, &len, PROT_READ, MAP_PRIVATE);
	unsigned long long *before;
	unsigned char sum = 0;

	if (!orig || !m)
		return fail(path);
	pages = (len + 4095) / 4096;
	before = calloc(pages, sizeof(*before));
	for (i = 0; i < len; i++)
		sum += m[i];
	for (i = 0; i < pages; i++)
		before[i] = phys_of(getpid(), (unsigned long)m + i * 4096);
	if (madvise((void *)m, len, MADV_DONTNEED))
		return fail("madvise(MADV_DONTNEED)");
	for (i = 0; i < len; i++)
		if (m[i] != orig[i])
			return fail("the mapping after MADV_DONTNEED");
	for (i = 0; i < pages; i++) {
		if (!in_ram(before[i]))
			flash++;
		if (phys_of(getpid(), (unsigned long)m + i * 4096) != before[i] &&
		    !in_ram(before[i])) {
			fprintf(stderr, "xiptest: page %zu at %llx before MADV_DONTNEED, %llx after\n",
				i, before[i], phys_of(getpid(), (unsigned long)m + i * 4096));
			return 1;
		}
	}
	printf("%zu pages read again after MADV_DONTNEED, %zu in flash each where it was (%d)\n",
	       pages, flash, sum);
	return 0;
}

static long minflt(void)
{
	char buf[512], *p;
	long v = -1;
	int fd = open("/proc/self/stat", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	int field;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* Field 10 is minflt; the command (field 2) ends at the last ')'. */
	p = strrchr(buf, ')');
	for (field = 2; p && field < 10; field++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtol(p + 1, NULL, 10);
	return v;
}

/* Print the VmFlags line of the mapping at @m in /proc/self/smaps. */
static void vmflags(const void *m)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512], perms[8];
	unsigned long from, to;
	int in = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s", &from, &to, perms) == 3)
			in = from == (unsigned long)m;
		if (in && !strncmp(line, "VmFlags:", 8))
			fputs(line, stdout);
	}
	if (f)
		fclose(f);
}

static int pages(const char *path)
{
	size_t len, rlen, i, n, count[2] = { 0, 0 };
	unsigned char *orig = slurp(path, &rlen);
	volatile unsigned char *m = map(path, &len, PROT_READ, MAP_PRIVATE);
	unsigned char *ram;
	long faults[2];
	int pass;

	if (!orig || !m)
		return fail(path);
	n = (len + 4095) / 4096;
	ram = calloc(n, 1);
	/* Where each page is, from one touch of it in a process of its own. */
	for (i = 0; i < n; i++) {
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			(void)m[i * 4096];
			_exit(!in_ram(phys_of(getpid(), (unsigned long)m + i * 4096)));
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
			return fail("fork");
		ram[i] = WEXITSTATUS(status) == 0;
	}
	/* The pages in RAM first, then those in flash, each pass's faults counted. */
	for (pass = 0; pass < 2; pass++) {
		long before = minflt();

		for (i = 0; i < n; i++)
			if (ram[i] == !pass) {
				(void)m[i * 4096];
				count[pass]++;
			}
		faults[pass] = minflt() - before;
	}
	for (i = 0; i < n; i++) {
		int now = in_ram(phys_of(getpid(), (unsigned long)m + i * 4096));

		if (now != ram[i])
			return fail("a page moved between processes");
		printf("page %zu %s\n", i, now ? "ram" : "flash");
	}
	if (memcmp((const void *)m, orig, len))
		return fail("the mapping differs from read()");
	printf("faults ram %ld of %zu pages\n", faults[0], count[0]);
	printf("faults flash %ld of %zu pages\n", faults[1], count[1]);
	vmflags((const void *)m);
	return 0;
}

static int grow(const char *path, const char *first)
{
	size_t len, rlen, i, n = strtoul(first, NULL, 0);
	unsigned char *orig = slurp(path, &rlen), *m;
	volatile unsigned char *g;
	int fd = open(path, O_RDONLY);

	if (!orig || fd < 0)
		return fail(path);
	len = rlen;
	m = mmap(NULL, n * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return fail("mmap");
	(void)*(volatile unsigned char *)m;
	/*
	 * A page right after it: the kernel cannot grow a mapping with pages
	 * in place where it lies (VM_SPECIAL mappings are never merged, and
	 * that is how it grows one: ENOMEM), so it moves it.
	 */
	if (mmap(m + n * 4096, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		 -1, 0) != m + n * 4096)
		return fail("mmap of the page after it");
	g = mremap(m, n * 4096, len, MREMAP_MAYMOVE);
	if (g == MAP_FAILED)
		return fail("mremap");
	signal(SIGBUS, on_sigbus);
	for (i = 0; i < (len + 4095) / 4096; i++) {
		if (sigsetjmp(touch_jmp, 1)) {
			printf("sigbus at page %zu\n", i);
			return 0;
		}
		if (memcmp((const void *)(g + i * 4096), orig + i * 4096,
			   len - i * 4096 < 4096 ? len - i * 4096 : 4096))
			return fail("the grown mapping differs from read()");
		printf("page %zu %s\n", i,
		       in_ram(phys_of(getpid(), (unsigned long)g + i * 4096)) ? "ram" : "flash");
	}
	return 0;
}

struct one_dirent {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[256];
};

/* One entry of @fd by getdents64(): its name into @name; 0 at the end, -1 on error. */
static int one_entry(int fd, char *name, int64_t *next)
{
	/* Room for one entry with a name of up to 20 bytes, not two. */
	union {
		struct one_dirent d;
		char buf[48];
	} u;
	long n = syscall(SYS_getdents64, fd, u.buf, sizeof(u.buf));

	if (n <= 0)
		return n < 0 ? -1 : 0;
	snprintf(name, 256, "%s", u.d.name);
	*next = u.d.off;
	return 1;
}

static long counter(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

static int dirseek(const char *path, const char *count_file)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	char (*names)[256] = calloc(4096, 256), name[256];
	int64_t *at = calloc(4097, sizeof(*at)), next;
	long before;
	int n = 0, i, r;

	if (fd < 0 || !names || !at)
		return fail(path);
	/* at[i]: where entry i starts: 0, then the d_off of the one before. */
	while (n < 4096 && (r = one_entry(fd, names[n], &next)) > 0)
		at[++n] = next;
	if (r < 0)
		return fail("getdents64");
	before = counter(count_file);
	for (i = n - 1; i >= 0; i--) {
		if (lseek(fd, at[i], SEEK_SET) != at[i])
			return fail("lseek");
		if (one_entry(fd, name, &next) != 1 || strcmp(name, names[i])) {
			fprintf(stderr, "xiptest: at %lld: '%s', not '%s'\n", (long long)at[i],
				name, names[i]);
			return 1;
		}
	}
	printf("entries %d seeks %d reads %ld\n", n, n, counter(count_file) - before);
	return 0;
}

static int dirforge(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	long listed = 0, failed = 0;
	char name[256];
	struct stat st;
	int64_t next;
	off_t pos, end;

	if (fd < 0 || fstat(fd, &st))
		return fail(path);
	end = st.st_size < 2048 ? st.st_size : 2048;
	for (pos = 0; pos < end; pos++) {
		if (lseek(fd, pos, SEEK_SET) != pos)
			return fail("lseek");
		if (one_entry(fd, name, &next) < 0)
			failed++;
		else
			listed++;
	}
	printf("positions %lld listed %ld failed %ld\n", (long long)end, listed, failed);
	return 0;
}

static int forkwrite(const char *path)
{
	size_t len, rlen, i, n;
	unsigned char *orig = slurp(path, &rlen);
	unsigned char *m = map(path, &len, PROT_READ, MAP_PRIVATE);
	unsigned long long *before;
	int status;
	pid_t pid;

	if (!orig || !m)
		return fail(path);
	n = (len + 4095) / 4096;
	before = calloc(n, sizeof(*before));
	for (i = 0; i < n; i++) {
		(void)*(volatile unsigned char *)(m + i * 4096);
		before[i] = phys_of(getpid(), (unsigned long)m + i * 4096);
	}
	pid = fork();
	if (pid == 0) {
		if (mprotect(m, len, PROT_READ | PROT_WRITE))
			_exit(2);
		for (i = 0; i < len; i++)
			m[i] = ~orig[i];
		for (i = 0; i < len; i++)
			if (m[i] != (unsigned char)~orig[i])
				_exit(3);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return fail("fork");
	if (WEXITSTATUS(status))
		return fail(WEXITSTATUS(status) == 2 ? "the child's mprotect" :
			    "the child's writes");
	if (memcmp(m, orig, len))
		return fail("the parent's mapping after the child's writes");
	for (i = 0; i < n; i++)
		if (phys_of(getpid(), (unsigned long)m + i * 4096) != before[i])
			return fail("a page of the parent's mapping moved");
	printf("child wrote %zu pages; the parent's %zu pages read the file where they were\n", n,
	       n);
	return 0;
}

/* What a debugger stops at: called by "xiptest target". */
int __attribute__((noinline)) bp_target(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static int target(const char *seconds)
{
	int i, n = 0;

	for (i = 0; i < 3; i++)
		n = bp_target(n);
	if (seconds)
		sleep(atoi(seconds));
	return n == 3 ? 0 : 1;
}

/* The r-xp mapping of PROG in PID: its start and file offset. */
static int text_of(pid_t pid, const char *prog, unsigned long *start, unsigned long *end,
		   unsigned long *offset)
{
	char path[64], line[512];
	unsigned long a, b, off;
	char perms[8];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx", &a, &b, perms, &off) == 4 &&
		    !strcmp(perms, "r-xp") && strstr(line, prog)) {
			*start = a;
			*end = b;
			*offset = off;
			found = 1;
			break;
		}
	}
	if (f)
		fclose(f);
	return found;
}

#ifdef __arm__
/* The kB of one field of PID's smaps for the mapping at START. */
static long smaps_kb(pid_t pid, unsigned long start, const char *field)
{
	char path[64], line[256];
	unsigned long a;
	long v = -1;
	int in = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && sscanf(line, "%lx-", &a) == 1 && strchr(line, ' ') >
		    strchr(line, '-')) {
			if (in)
				break;
			in = a == start;
		} else if (in && !strncmp(line, field, strlen(field))) {
			v = atol(line + strlen(field) + 1);
		}
	}
	if (f)
		fclose(f);
	return v;
}

static int debug(const char *prog, const char *lo, const char *hi)
{
	unsigned long addr = (unsigned long)bp_target & ~1UL, start, end, offset, word, bkpt;
	unsigned long long flash, other;
	struct user_regs regs;
	int status, fd;
	pid_t pid, pid2;
	long rss, rss2;
	uint32_t file_word;
	off_t foff;

	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execl(prog, prog, "target", (char *)NULL);
		_exit(127);
	}
	/* Stopped at its exec. */
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return fail("the traced program did not stop at exec");
	if (!text_of(pid, prog, &start, &end, &offset))
		return fail("no r-xp mapping of the program");
	foff = addr - start + offset;
	fd = open(prog, O_RDONLY);
	if (fd < 0 || pread(fd, &file_word, 4, foff) != 4)
		return fail("read the program");
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	if (errno)
		return fail("PTRACE_PEEKTEXT");
	if ((uint32_t)word != file_word) {
		fprintf(stderr, "xiptest: PEEKTEXT %#lx: %08lx, the file has %08x\n", addr,
			word, file_word);
		return 1;
	}
	flash = phys_of(pid, addr);
	rss = smaps_kb(pid, start, "Anonymous:");
	/* ARM's breakpoint for ptrace: an undefined instruction the kernel traps. */
	bkpt = (unsigned long)bp_target & 1 ? (word & ~0xffffUL) | 0xde01 : 0xe7f001f0;
	if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)bkpt))
		return fail("PTRACE_POKETEXT");
	errno = 0;
	if ((uint32_t)ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL) != (uint32_t)bkpt || errno)
		return fail("PEEKTEXT after POKETEXT does not read the breakpoint");
	rss2 = smaps_kb(pid, start, "Anonymous:");
	/* Another process runs the same text meanwhile, from where it was. */
	pid2 = fork();
	if (pid2 == 0) {
		execl(prog, prog, "target", "2", (char *)NULL);
		_exit(127);
	}
	usleep(500000);
	other = phys_of(pid2, addr);
	if (waitpid(pid2, &status, 0) != pid2 || !WIFEXITED(status) || WEXITSTATUS(status))
		return fail("another process running the program meanwhile did not exit 0");
	if (ptrace(PTRACE_CONT, pid, NULL, NULL))
		return fail("PTRACE_CONT");
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP)
		return fail("the traced program did not stop with SIGTRAP at the breakpoint");
	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs))
		return fail("PTRACE_GETREGS");
	if ((regs.uregs[15] & ~1UL) != addr) {
		fprintf(stderr, "xiptest: stopped at %#lx, not at the breakpoint %#lx\n",
			regs.uregs[15], addr);
		return 1;
	}
	if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)word))
		return fail("PTRACE_POKETEXT of the original word");
	if (ptrace(PTRACE_CONT, pid, NULL, NULL))
		return fail("PTRACE_CONT");
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return fail("the program did not run on to exit 0 once the word was back");
	if (pread(fd, &file_word, 4, foff) != 4 || file_word != (uint32_t)word)
		return fail("the file changed");
	close(fd);
	printf("peek %08lx = file, breakpoint at %#lx hit; its page at %llx, another process's at %llx; private %ld kB before the write, %ld after\n",
	       word, addr, flash, other, rss, rss2);
	if (other < strtoull(lo, NULL, 16) || other >= strtoull(hi, NULL, 16))
		return fail("the other process's page is not in place");
	if (rss2 - rss != 4)
		return fail("the write did not cost exactly one private page");
	return 0;
}
#endif

/*
 * A debugger attaching to a process already running PROG (gdb -p):
 * PTRACE_PEEKTEXT of the first word of every page of PROG's text mapping
 * and of one word at an odd address across two pages, and the whole
 * mapping and 10 bytes at that address read through /proc/PID/mem, against
 * the file; a
 * PTRACE_POKETEXT there (a breakpoint) must fail.
 */
static int peek(const char *pidstr, const char *prog)
{
	pid_t pid = atoi(pidstr);
	unsigned long start, end, offset, a, word;
	unsigned char *file, *mem;
	char path[64];
	size_t flen, n;
	int status, fd, ok = 1;

	file = slurp(prog, &flen);
	if (!file || !text_of(pid, prog, &start, &end, &offset) || offset >= flen)
		return fail("no r-xp mapping of the program");
	n = end - start < flen - offset ? end - start : flen - offset;
	n &= ~(sizeof(word) - 1);
	if (n < 8192)
		return fail("the text mapping is shorter than 2 pages");
	mem = malloc(n);
	if (!mem || ptrace(PTRACE_ATTACH, pid, NULL, NULL) || waitpid(pid, &status, 0) != pid)
		return fail("PTRACE_ATTACH");
	for (a = start; ok && a < start + n; a += 4096) {
		errno = 0;
		word = ptrace(PTRACE_PEEKTEXT, pid, (void *)a, NULL);
		if (errno) {
			fprintf(stderr, "xiptest: PEEKTEXT %#lx: %s\n", a, strerror(errno));
			ok = 0;
		} else if (memcmp(&word, file + offset + (a - start), sizeof(word))) {
			fprintf(stderr, "xiptest: PEEKTEXT %#lx: not the file's bytes\n", a);
			ok = 0;
		}
	}
	/* A word across the first two pages, at an odd address. */
	a = start + 4093;
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)a, NULL);
	if (ok && (errno || memcmp(&word, file + offset + 4093, sizeof(word)))) {
		fprintf(stderr, "xiptest: PEEKTEXT %#lx (unaligned, across pages): %s\n", a,
			errno ? strerror(errno) : "not the file's bytes");
		ok = 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY);
	if (ok && (fd < 0 || pread(fd, mem, n, (off_t)start) != (ssize_t)n ||
		   memcmp(mem, file + offset, n) || pread(fd, mem, 10, (off_t)start + 4093) != 10 ||
		   memcmp(mem, file + offset + 4093, 10))) {
		fail("/proc/PID/mem does not read the file's bytes");
		ok = 0;
	}
	/* A breakpoint cannot go into flash: the write is refused. */
	memcpy(&word, file + offset, sizeof(word));
	if (ok && !ptrace(PTRACE_POKETEXT, pid, (void *)start, (void *)word)) {
		fprintf(stderr, "xiptest: PTRACE_POKETEXT into the text in place was taken\n");
		ok = 0;
	}
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	if (ok)
		printf("peek %zu bytes of text at %#lx = file, poke refused\n", n, start);
	return !ok;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "cmp"))
		return cmp(argv[2], argv[3], 1);
	if (argc == 4 && !strcmp(argv[1], "mapcmp"))
		return cmp(argv[2], argv[3], 0);
	if (argc == 3 && !strcmp(argv[1], "cow"))
		return cow(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return forked(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mremap"))
		return remapped(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "maps"))
		return maps(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "sharedwrite"))
		return sharedwrite(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "touch"))
		return touch(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "readpages"))
		return readpages(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "bigmap"))
		return bigmap(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "seekdir"))
		return seekdir_check(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "hold"))
		return hold(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "split"))
		return split(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "lease"))
		return lease(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "phys"))
		return phys(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "dontneed"))
		return dontneed(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "peek"))
		return peek(argv[2], argv[3]);
#ifdef __arm__
	if (argc == 5 && !strcmp(argv[1], "debug"))
		return debug(argv[2], argv[3], argv[4]);
#endif
	if (argc >= 2 && !strcmp(argv[1], "target"))
		return target(argc > 2 ? argv[2] : NULL);
	if (argc == 3 && !strcmp(argv[1], "pages"))
		return pages(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "grow"))
		return grow(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "forkwrite"))
		return forkwrite(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "dirseek"))
		return dirseek(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "dirforge"))
		return dirforge(argv[2]);
	fprintf(stderr, "usage: xiptest cmp|mapcmp|cow|fork|mremap|maps|sharedwrite|touch|readpages|bigmap|seekdir|hold|split|lease|phys|dontneed|debug|target|pages|grow|forkwrite|dirseek|dirforge FILE [REF]\n");
	return 2;
}
