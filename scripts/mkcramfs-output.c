// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcramfs: the image written out whole or not at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mkcramfs.h"

/*
 * The output. A file is written under a temporary name in its directory and
 * renamed over @path only when whole: a failure leaves no partial image, and
 * an image already there as it was. A device (an MTD block device,
 * /dev/null) is written in place. Opened before anything else is done, so
 * that an output that cannot be written is said at once.
 */
static struct {
	const char *path;
	char *tmp;		/* the temporary file, while it exists */
	int fd;
} out = { .fd = -1 };

static void remove_tmp(void)
{
	if (out.tmp)
		unlink(out.tmp);
}

static void remove_tmp_and_die(int sig)
{
	remove_tmp();
	signal(sig, SIG_DFL);
	raise(sig);
}

void open_output(const char *path)
{
	char *target = NULL, *slash;
	struct stat st;
	mode_t mask;

	out.path = path;
	/* A symlink stays one: the file it names is replaced. */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		target = realpath(path, NULL);
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			die("%s: %s", path, strerror(EISDIR));
		out.fd = open(path, O_WRONLY);
		if (out.fd < 0)
			die("%s: %s", path, strerror(errno));
		return;
	}
	if (target)
		path = target;
	slash = strrchr(path, '/');
	out.tmp = slash ? xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1) :
			  xasprintf(".%s.XXXXXX", path);
	/* A write past RLIMIT_FSIZE fails with EFBIG, reported, rather than killing us. */
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGHUP, remove_tmp_and_die);
	signal(SIGINT, remove_tmp_and_die);
	signal(SIGTERM, remove_tmp_and_die);
	atexit(remove_tmp);
	out.fd = mkstemp(out.tmp);
	if (out.fd < 0) {
		free(out.tmp);
		out.tmp = NULL;
		die("%s: %s", out.path, strerror(errno));
	}
	if (target)
		out.path = target;
	/* The mode a newly created file gets. */
	mask = umask(0);
	umask(mask);
	if (fchmod(out.fd, 0666 & ~mask))
		die("%s: %s", out.path, strerror(errno));
}

void write_output(const uint8_t *data, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(out.fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("%s: %s", out.path, n ? strerror(errno) : "short write");
		data += n;
		len -= n;
	}
	if (close(out.fd))
		die("%s: %s", out.path, strerror(errno));
	if (out.tmp && rename(out.tmp, out.path))
		die("%s: %s", out.path, strerror(errno));
	free(out.tmp);
	out.tmp = NULL;
}
