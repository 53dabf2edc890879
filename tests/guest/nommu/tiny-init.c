// SPDX-License-Identifier: GPL-2.0
/*
 * /sbin/init of the tiny system (mps2-an385, XIP kernel, root from flash):
 * freestanding, raw system calls, a small stack. Shows where each piece runs
 * from (the kernel's text and data, init's own mappings), runs 4 instances of
 * the XIP program at once and prints /proc/meminfo while they run, then powers
 * off. Prints RESULT lines the host counts, and GUEST-DONE.
 *
 * "tiny=ram" on the kernel command line says the programs are expected in RAM
 * (a compressed image, an initramfs); otherwise their text must be in flash.
 */
#include "sys.h"

#define KERNEL_END	0x00200000UL	/* the root image starts here */
#define INSTANCES	4

/*
 * The RESULT lines a boot prints (init's 3, each program's 1): the host fails
 * one with fewer.
 */
#define CHECKS_TINY_BOOT	7

__attribute__((used)) void tiny_main(long *sp);

__attribute__((naked, noreturn)) void _start(void)
{
	__asm__ volatile("mov r0, sp\n\tbl tiny_main\n");
}

/* Print each line of @buf (@n bytes) after @tag, a write() each. */
static void put_lines(const char *tag, char *buf, long n)
{
	char line[256];
	long i, k, start = 0;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n')
			continue;
		buf[i] = 0;
		k = 0;
		str_add(line, sizeof(line), &k, tag);
		str_add(line, sizeof(line), &k, buf + start);
		put_line(line, k);
		start = i + 1;
	}
}

/*
 * The address of kernel symbol @name from /proc/kallsyms, 0 if it is not
 * there. The file is read a piece at a time; a line cut by the end of a
 * piece is carried to the next.
 */
static unsigned long ksym(const char *name, char *buf, long size)
{
	long fd = sys2(__NR_open, "/proc/kallsyms", O_RDONLY), have = 0, n, i, start;
	size_t len = str_len(name);
	unsigned long addr = 0;

	if (fd < 0)
		return 0;
	while (!addr && (n = sys3(__NR_read, fd, buf + have, size - have)) > 0) {
		have += n;
		start = 0;
		for (i = 0; i < have; i++) {
			const char *l = buf + start;

			if (buf[i] != '\n')
				continue;
			/* "00012345 T start_kernel" */
			if (i - start > 11 && (size_t)(i - start - 11) == len &&
			    str_find(l + 11, len, name) == l + 11) {
				addr = parse_hex(l);
				break;
			}
			start = i + 1;
		}
		for (i = 0; start + i < have; i++)
			buf[i] = buf[start + i];
		have = i;
		if (have == size)
			have = 0;
	}
	sys1(__NR_close, fd);
	return addr;
}

/*
 * Every task's name, from /proc/PID/comm: each has a kernel stack (8 KiB),
 * the kernel's threads as much as the programs.
 */
static void tasks(char *buf)
{
	char path[24], tag[24], num[13];
	long pid, n, k;

	for (pid = 1; pid < 100; pid++) {
		k = 0;
		str_add(path, sizeof(path), &k, "/proc/");
		str_add(path, sizeof(path), &k, fmt_dec(num, pid));
		str_add(path, sizeof(path), &k, "/comm");
		path[k] = 0;
		n = read_file(path, buf, 64);
		if (n <= 0)
			continue;
		k = 0;
		str_add(tag, sizeof(tag), &k, "TINY task ");
		str_add(tag, sizeof(tag), &k, fmt_dec(num, pid));
		str_add(tag, sizeof(tag), &k, " ");
		tag[k] = 0;
		put_lines(tag, buf, n);
	}
}

void tiny_main(long *sp)
{
	char buf[2048];
	long n, pids[INSTANCES], i, status;
	unsigned long text, data, init_text;
	const char *line;
	int ram, ok;
	char *argv[4], *envp[1] = { 0 };

	(void)sp;
	sys2(__NR_mkdir, "/proc", 0755);
	sys6(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", 0, 0, 0);
	put("GUEST-START tiny\n");
	/* What the kernel holds once it has started init. */
	n = read_file("/proc/meminfo", buf, sizeof(buf) - 1);
	put_lines("TINY-START-MEMINFO ", buf, n > 0 ? n : 0);
	n = read_file("/proc/cmdline", buf, sizeof(buf) - 1);
	ram = n > 0 && str_find(buf, n, "tiny=ram") != 0;
	put_lines("TINY cmdline ", buf, n > 0 ? n : 0);

	text = ksym("start_kernel", buf, sizeof(buf));
	/* "  21008000-2102bfff : Kernel data" (kallsyms has no data symbols). */
	n = read_file("/proc/iomem", buf, sizeof(buf) - 1);
	line = n > 0 ? str_find(buf, n, " : Kernel data") : 0;
	while (line && line > buf && line[-1] != '\n')
		line--;
	while (line && *line == ' ')
		line++;
	data = line ? parse_hex(line) : 0;
	put("TINY kernel text (start_kernel) at ");
	put_hex(text);
	put(", kernel data (/proc/iomem) at ");
	put_hex(data);
	put("\n");
	result(text >= FLASH_START && text < KERNEL_END && data >= RAM_START && data < RAM_END,
	       "tiny: the kernel executes in place from flash, its data in RAM");

	n = read_file("/proc/self/maps", buf, sizeof(buf) - 1);
	line = maps_exec_line(buf, n > 0 ? n : 0, "/sbin/init");
	init_text = line ? parse_hex(line) : 0;
	put_lines("TINY init maps ", buf, n > 0 ? n : 0);
	put("TINY init text at ");
	put_hex(init_text);
	put(ram ? " (expected in RAM)\n" : " (expected in flash)\n");
	result(init_text && (init_text >= FLASH_START && init_text < FLASH_END) == !ram,
	       ram ? "tiny: init's text is in RAM" : "tiny: init's text runs in place from flash");

	/* The XIP program, INSTANCES at once: its text in place, or copied. */
	argv[0] = "/bin/xipprog";
	argv[1] = ram ? "ram" : "flash";
	argv[2] = "3";
	argv[3] = 0;
	ok = 1;
	for (i = 0; i < INSTANCES; i++) {
		pids[i] = sys0(__NR_vfork);
		if (pids[i] == 0) {
			sys3(__NR_execve, argv[0], argv, envp);
			sys1(__NR_exit, 127);
		}
		if (pids[i] < 0)
			ok = 0;
	}
	sleep_s(1);
	n = read_file("/proc/meminfo", buf, sizeof(buf) - 1);
	put_lines("TINY-MEMINFO ", buf, n > 0 ? n : 0);
	tasks(buf);
	for (i = 0; i < INSTANCES; i++) {
		status = -1;
		if (pids[i] <= 0 || sys6(__NR_wait4, pids[i], (long)&status, 0, 0, 0, 0) < 0 ||
		    status != 0)
			ok = 0;
		put("TINY instance pid ");
		put_dec(pids[i]);
		put(" exit status ");
		put_hex(status);
		put("\n");
	}
	result(ok, ram ? "tiny: 4 instances of the program ran from RAM" :
		   "tiny: 4 instances of the program ran in place from flash");
	put("GUEST-DONE\n");
	sys6(__NR_reboot, 0xfee1dead, 672274793, 0x01234567, 0, 0, 0);
	for (;;)
		sleep_s(1);
}
