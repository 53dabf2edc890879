// SPDX-License-Identifier: GPL-2.0
/*
 * xipprog: the program the no-MMU guest runs in place. Built freestanding as
 * a static PIE with no relocations and no writable data, then marked FDPIC
 * (EI_OSABI 65) so that binfmt_elf_fdpic maps its text segment by itself:
 * from flash when the image stores it for XIP.
 *
 *   xipprog flash|ram|either SECONDS
 *                               check where this program's code runs from
 *                               (its /proc/self/maps line and its own PC),
 *                               report, then sleep SECONDS; exit 0 if as
 *                               expected (either: 0 from flash, 3 from RAM)
 */
#include "sys.h"


__attribute__((used)) void xipprog_main(long *sp);

/*
 * 64 KiB of read-only data in the text segment, standing in for the code of a
 * real program, so that the RAM figures show what a program's text costs:
 * nothing when it runs in place, a copy per instance when it is compressed.
 */
__attribute__((used)) static const unsigned char bulk[64 * 1024] = { 1 };

__attribute__((naked, noreturn)) void _start(void)
{
	__asm__ volatile("mov r0, sp\n\tbl xipprog_main\n");
}

void xipprog_main(long *sp)
{
	char **argv = (char **)(sp + 1);
	int want_flash = sp[0] > 1 && str_eq(argv[1], "flash");
	int either = sp[0] > 1 && str_eq(argv[1], "either");
	long secs = sp[0] > 2 ? argv[2][0] - '0' : 0;
	unsigned long pc = (unsigned long)&xipprog_main, start = 0;
	char maps[2048], perms[5] = "----", num[13];
	const char *line;
	long n = read_file("/proc/self/maps", maps, sizeof(maps) - 1);
	int in_flash, ok;

	/* The executable mapping of this file is the text segment. */
	line = maps_exec_line(maps, n > 0 ? n : 0, "xipprog");
	if (line) {
		const char *p = line;
		int i;

		start = parse_hex(p);
		while (*p != ' ')
			p++;
		for (i = 0; i < 4; i++)
			perms[i] = p[1 + i];
	}
	in_flash = pc >= FLASH_START && pc < FLASH_END;
	if (either)
		want_flash = in_flash;
	/*
	 * The code's address says where it runs. (Before 6.3 a direct private
	 * mapping showed as shared, "r-xs"; since, as "r-xp".)
	 */
	ok = line && in_flash == want_flash && perms[2] == 'x' &&
	     (start >= FLASH_START && start < FLASH_END) == want_flash;
	n = 0;
	str_add(maps, sizeof(maps), &n, ok ? "RESULT PASS " : "RESULT FAIL ");
	str_add(maps, sizeof(maps), &n, "xipprog pid ");
	str_add(maps, sizeof(maps), &n, fmt_dec(num, sys0(__NR_getpid)));
	str_add(maps, sizeof(maps), &n, ": code at ");
	str_add(maps, sizeof(maps), &n, fmt_hex(num, pc));
	str_add(maps, sizeof(maps), &n, ", text mapping ");
	str_add(maps, sizeof(maps), &n, fmt_hex(num, start));
	str_add(maps, sizeof(maps), &n, " ");
	str_add(maps, sizeof(maps), &n, perms);
	str_add(maps, sizeof(maps), &n,
		either ? (in_flash ? ", in flash (either)" : ", in RAM (either)") :
		want_flash ? ", expected in flash" : ", expected in RAM");
	put_line(maps, n);
	sleep_s(secs);
	sys1(__NR_exit, !ok ? 1 : either && !in_flash ? 3 : 0);
}
