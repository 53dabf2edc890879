// SPDX-License-Identifier: GPL-2.0
/*
 * benchtool: timings for make bench, in the ARM guest (static). Each command
 * repeats its measurement and prints one line:
 *   BENCH speed WHAT LABEL median=N min=N max=N unit=UNIT reps=N
 *
 *   benchtool mount LABEL REPS SOURCE DIR [OPTIONS]
 *                                             mount(2) + umount(2) of cramfs
 *                                             SOURCE on DIR; times the mount
 *   benchtool firstread LABEL REPS SOURCE DIR OPTIONS
 *                                             mount, read every file, unmount:
 *                                             times the reads, the first after
 *                                             the mount (ms/MiB)
 *   benchtool firstexec LABEL REPS SOURCE DIR OPTIONS
 *                                             mount, run DIR/bin/busybox true,
 *                                             unmount: times the run (ms)
 *   benchtool readall LABEL REPS DIR          read every file under DIR, caches
 *                                             dropped first (cold): time per MiB
 *   benchtool fault LABEL REPS FILE           map FILE read-only, touch each page
 *                                             once, caches dropped first: time per
 *                                             page fault
 *   benchtool exec LABEL REPS PROG ARG...     fork + exec PROG + wait, caches
 *                                             dropped before each: time per run
 *
 * Exit status 0 if every repetition could be measured.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_REPS 100

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int ok;

	sync();
	if (fd < 0)
		return -1;
	ok = write(fd, "3\n", 2) == 2;
	close(fd);
	return ok ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *what, const char *label, double *v, int n, const char *unit)
{
	qsort(v, n, sizeof(*v), cmp_double);
	printf("BENCH speed %s %s median=%.1f min=%.1f max=%.1f unit=%s reps=%d\n", what, label,
	       n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0], v[n - 1], unit, n);
}

/* Read every regular file under @dir; bytes read, or -1. */
static long long read_tree(const char *dir, char *buf, size_t bufsz)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long long total = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[4096];
		struct stat st;
		ssize_t n;
		int fd;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			long long t = read_tree(path, buf, bufsz);

			if (t < 0)
				return closedir(d), -1;
			total += t;
		} else if (S_ISREG(st.st_mode)) {
			fd = open(path, O_RDONLY);
			if (fd < 0)
				return closedir(d), -1;
			while ((n = read(fd, buf, bufsz)) > 0)
				total += n;
			close(fd);
			if (n < 0)
				return closedir(d), -1;
		}
	}
	closedir(d);
	return total;
}

/* fork + exec @argv[0] + wait: 0 if it exited 0. */
static int run(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return fprintf(stderr, "benchtool: %s failed\n", argv[0]), -1;
	return 0;
}

/*
 * firstread and firstexec: each repetition a new mount of @source on @dir
 * with @opts, caches dropped, then the measured work, the first since the
 * mount (a mount that verifies hashes what it reads then).
 */
static int first(const char *what, const char *label, int reps, const char *source,
		 const char *dir, const char *opts)
{
	static char buf[65536];
	char prog[4096];
	char *argv[] = { prog, "true", NULL };
	double v[MAX_REPS], t0;
	long long bytes = 0;
	int i, read_all = !strcmp(what, "firstread");

	snprintf(prog, sizeof(prog), "%s/bin/busybox", dir);
	for (i = 0; i < reps; i++) {
		if (mount(source, dir, "cramfs", MS_RDONLY, *opts ? opts : NULL))
			return perror("mount"), 1;
		if (drop_caches())
			return perror("drop_caches"), 1;
		t0 = now_us();
		if (read_all ? (bytes = read_tree(dir, buf, sizeof(buf))) <= 0 : run(argv) != 0)
			return perror(what), 1;
		v[i] = (now_us() - t0) / 1e3;
		if (read_all)
			v[i] /= bytes / 1048576.0;
		if (umount(dir))
			return perror("umount"), 1;
	}
	report(what, label, v, reps, read_all ? "ms/MiB" : "ms");
	return 0;
}

int main(int argc, char **argv)
{
	double v[MAX_REPS];
	int reps, i;

	if (argc < 5)
		goto usage;
	reps = atoi(argv[3]);
	if (reps < 1 || reps > MAX_REPS)
		goto usage;

	if ((!strcmp(argv[1], "firstread") || !strcmp(argv[1], "firstexec")) && argc == 7)
		return first(argv[1], argv[2], reps, argv[4], argv[5], argv[6]);
	if (!strcmp(argv[1], "mount") && (argc == 6 || argc == 7)) {
		for (i = 0; i < reps; i++) {
			double t0 = now_us();

			if (mount(argv[4], argv[5], "cramfs", MS_RDONLY,
				  argc == 7 && *argv[6] ? argv[6] : NULL))
				return perror("mount"), 1;
			v[i] = now_us() - t0;
			if (umount(argv[5]))
				return perror("umount"), 1;
		}
		report("mount", argv[2], v, reps, "us");
		return 0;
	}
	if (!strcmp(argv[1], "readall") && argc == 5) {
		static char buf[65536];

		for (i = 0; i < reps; i++) {
			double t0;
			long long bytes;

			if (drop_caches())
				return perror("drop_caches"), 1;
			t0 = now_us();
			bytes = read_tree(argv[4], buf, sizeof(buf));
			if (bytes <= 0)
				return perror("read"), 1;
			v[i] = (now_us() - t0) / 1e3 / (bytes / 1048576.0);
		}
		report("readall", argv[2], v, reps, "ms/MiB");
		return 0;
	}
	if (!strcmp(argv[1], "fault") && argc == 5) {
		for (i = 0; i < reps; i++) {
			int fd = open(argv[4], O_RDONLY);
			volatile const char *p;
			struct stat st;
			unsigned long sum = 0;
			size_t off, pages;
			double t0;

			if (fd < 0 || fstat(fd, &st) || drop_caches())
				return perror(argv[4]), 1;
			p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
			close(fd);
			if (p == MAP_FAILED)
				return perror("mmap"), 1;
			pages = (st.st_size + 4095) / 4096;
			t0 = now_us();
			for (off = 0; off < (size_t)st.st_size; off += 4096)
				sum += p[off];
			v[i] = (now_us() - t0) / pages;
			munmap((void *)p, st.st_size);
			if (sum == 1)
				fprintf(stderr, " ");	/* keeps the loads */
		}
		report("fault", argv[2], v, reps, "us/page");
		return 0;
	}
	if (!strcmp(argv[1], "exec")) {
		for (i = 0; i < reps; i++) {
			double t0;

			if (drop_caches())
				return perror("drop_caches"), 1;
			t0 = now_us();
			if (run(argv + 4))
				return 1;
			v[i] = (now_us() - t0) / 1e3;
		}
		report("exec", argv[2], v, reps, "ms");
		return 0;
	}
usage:
	fprintf(stderr, "usage: benchtool mount|readall|fault|exec|firstread|firstexec LABEL REPS ...\n");
	return 2;
}
