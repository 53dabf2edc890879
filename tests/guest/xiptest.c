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
 *   xiptest touch FILE...         map each file and touch every page, counting
 *                                 the pages that raise SIGBUS (for bad images)
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
#include <sys/wait.h>
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
	char line[512], start[32];
	volatile unsigned char sum = 0;
	size_t i;
	FILE *f;
	int in = 0;

	if (!m)
		return fail("mmap");
	for (i = 0; i < len; i += 4096)
		sum += m[i];	/* touch every page */
	snprintf(start, sizeof(start), "%08lx-", (unsigned long)m);
	f = fopen("/proc/self/smaps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strchr(line, ':') && strchr(line, '/'))
			in = !strncmp(line, start, strlen(start));
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
	unsigned long pages = 0, faults = 0;
	volatile unsigned char sum = 0;
	int i;

	signal(SIGBUS, on_sigbus);
	signal(SIGSEGV, on_sigbus);
	for (i = 0; i < n; i++) {
		size_t len, off;
		unsigned char *m = map(files[i], &len, PROT_READ, MAP_PRIVATE);

		if (!m)
			continue;
		for (off = 0; off < len; off += 4096) {
			pages++;
			if (sigsetjmp(touch_jmp, 1) == 0)
				sum += m[off];
			else
				faults++;
		}
		munmap(m, len);
	}
	printf("%lu pages touched, %lu faults\n", pages, faults);
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
	fprintf(stderr, "usage: xiptest cmp|cow|fork|mremap|maps|sharedwrite|touch FILE [REF]\n");
	return 2;
}
