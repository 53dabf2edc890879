// SPDX-License-Identifier: GPL-2.0
/*
 * faultop: one filesystem operation with the Nth fault-injectable call in
 * it failing (/proc/thread-self/fail-nth, CONFIG_FAULT_INJECTION), for
 * tests/guest/vexpress-a9/80-faults.sh:
 *   faultop N mount SRC DIR [OPTIONS] | remount DIR OPTIONS | umount DIR |
 *           lazy DIR FILE | read DIR | readdir DIR | map FILE | mapwrite FILE |
 *           fiemap FILE
 * N 0 injects nothing. Prints "RESULT INJECTED": RESULT 0 or the errno the
 * operation failed with, INJECTED 1 if the Nth call came (the fault was
 * injected), 0 if the operation made fewer calls. Exit status 0, or 2 for
 * a usage error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile unsigned long sink;

/* Map @path whole; with @write, writable, and write a byte per page. */
static int map_file(const char *path, int write, const char *umount_dir)
{
	int fd = open(path, O_RDONLY);
	unsigned char *m;
	struct stat st;
	off_t i;

	if (fd < 0 || fstat(fd, &st))
		return errno;
	m = mmap(NULL, st.st_size, PROT_READ | (write ? PROT_WRITE : 0), MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return errno;
	if (umount_dir && umount2(umount_dir, MNT_DETACH))
		return errno;
	for (i = 0; i < st.st_size; i += 4096) {
		sink += m[i];
		if (write)
			m[i] = (unsigned char)~m[i];
	}
	munmap(m, st.st_size);
	return 0;
}

/* Every entry under @dir, and with @data every regular file's bytes. */
static int walk(const char *dir, int data)
{
	char path[4096], buf[4096];
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	if (!d)
		return errno;
	errno = 0;
	while (!err && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR) {
			err = walk(path, data);
		} else if (data && de->d_type == DT_REG) {
			int fd = open(path, O_RDONLY);
			ssize_t n;

			if (fd < 0)
				return errno;
			while ((n = read(fd, buf, sizeof(buf))) > 0)
				sink += buf[0];
			if (n < 0)
				err = errno;
			close(fd);
		}
		errno = 0;
	}
	if (!err && errno)
		err = errno;
	closedir(d);
	return err;
}

static int fiemap(const char *path)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent fe[32];
	} f = { .fm = { .fm_length = ~0ULL, .fm_extent_count = 32 } };
	int fd = open(path, O_RDONLY), err = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, FS_IOC_FIEMAP, &f))
		err = errno;
	close(fd);
	return err;
}

static int run(int argc, char **argv)
{
	const char *op = argv[0];

	if (!strcmp(op, "mount") && (argc == 3 || argc == 4))
		return mount(argv[1], argv[2], "cramfs", MS_RDONLY, argc == 4 ? argv[3] : "") ?
		       errno : 0;
	if (!strcmp(op, "remount") && argc == 3)
		return mount("none", argv[1], "cramfs", MS_REMOUNT | MS_RDONLY, argv[2]) ?
		       errno : 0;
	if (!strcmp(op, "umount") && argc == 2)
		return umount2(argv[1], 0) ? errno : 0;
	if (!strcmp(op, "lazy") && argc == 3)
		return map_file(argv[2], 0, argv[1]);
	if (!strcmp(op, "read") && argc == 2)
		return walk(argv[1], 1);
	if (!strcmp(op, "readdir") && argc == 2)
		return walk(argv[1], 0);
	if (!strcmp(op, "map") && argc == 2)
		return map_file(argv[1], 0, NULL);
	if (!strcmp(op, "mapwrite") && argc == 2)
		return map_file(argv[1], 1, NULL);
	if (!strcmp(op, "fiemap") && argc == 2)
		return fiemap(argv[1]);
	return -1;
}

int main(int argc, char **argv)
{
	char buf[32];
	int fd, n, result;
	ssize_t len;

	if (argc < 3)
		goto usage;
	n = atoi(argv[1]);
	/* Opened first: its own allocations must not count. */
	fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0) {
		perror("faultop: /proc/thread-self/fail-nth");
		return 2;
	}
	len = snprintf(buf, sizeof(buf), "%d", n);
	if (n && write(fd, buf, len) != len) {
		perror("faultop: fail-nth");
		return 2;
	}
	result = run(argc - 2, argv + 2);
	/* Reads 0 once the fault has been injected, what is left before it otherwise. */
	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (write(fd, "0", 1) != 1 || len <= 0)
		return 2;
	buf[len] = 0;
	if (result < 0)
		goto usage;
	printf("%d %d\n", result, n && atoi(buf) == 0);
	return 0;
usage:
	fprintf(stderr, "usage: faultop N mount|remount|umount|lazy|read|readdir|map|mapwrite|fiemap ARGS\n");
	return 2;
}
