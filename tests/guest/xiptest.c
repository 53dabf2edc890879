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
 *
 * Exit status 0 when the check holds; the reason is printed otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

static int cmp(const char *file, const char *ref)
{
	size_t flen, rlen, mlen, i;
	unsigned char *r = slurp(ref, &rlen), *f = slurp(file, &flen), *m;

	if (!r || !f)
		return fail("read");
	if (flen != rlen || memcmp(f, r, rlen))
		return fail("read() differs from the reference");
	m = map(file, &mlen, PROT_READ, MAP_PRIVATE);
	if (!m)
		return fail("mmap");
	for (i = 0; i < rlen; i++) {
		if (m[i] != r[i]) {
			fprintf(stderr, "xiptest: mapping differs at byte %zu\n", i);
			return 1;
		}
	}
	printf("%zu bytes equal through read() and mmap()\n", rlen);
	return 0;
}

static int cow(const char *file)
{
	size_t len, rlen, i;
	unsigned char *orig = slurp(file, &rlen), *m = map(file, &len, PROT_READ | PROT_WRITE,
							   MAP_PRIVATE);
	unsigned char *again;
	int status;
	pid_t pid;

	if (!orig || !m)
		return fail("read or mmap");
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
	free(orig);
	again = slurp(file, &rlen);
	for (i = 0; i < len; i++)
		if (again[i] != (unsigned char)~m[i])
			return fail("read() of the file sees the writes");
	printf("%zu bytes written privately; file and other mappings unchanged\n", len);
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

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "cmp"))
		return cmp(argv[2], argv[3]);
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
	fprintf(stderr, "usage: xiptest cmp|cow|fork|mremap|maps|sharedwrite|touch|bigmap|seekdir|hold|split|lease FILE [REF]\n");
	return 2;
}
