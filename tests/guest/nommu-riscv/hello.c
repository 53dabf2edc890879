// SPDX-License-Identifier: GPL-2.0
/*
 * hello: a freestanding RV64 program for a kernel without an MMU, made
 * into a bFLT file by scripts/elf2flt.py, whose text can run in place.
 *
 * RISC-V code reaches its globals PC-relatively (auipc), which assumes
 * the data at a fixed distance from the text. binfmt_flat maps the text
 * from the file and gives the data RAM of its own, so this program never
 * names a global in its code (elf2flt.py refuses a program that does):
 * it finds its data from brk(0), which binfmt_flat sets right after the
 * data and bss, less their size, read from the bFLT header that is
 * mapped just before the text. The data holds a table of absolute
 * pointers, which binfmt_flat relocates: strings and functions in the
 * text, and a pointer to the data itself.
 *
 * Prints its greetings, "text at 0x..." (where its text runs: the guest
 * checks that this is flash) and "ok", exits 0; exits 1 when a pointer
 * the loader relocated is wrong.
 */

#define __NR_write	64
#define __NR_exit	93
#define __NR_brk	214

static long sys3(long n, long a, long b, long c)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
	return a0;
}

struct greeting {
	const char *text;
	unsigned long len;
	long (*say)(const struct greeting *g);
};

static long say(const struct greeting *g)
{
	return sys3(__NR_write, 1, (long)g->text, g->len);
}

static long say_twice(const struct greeting *g)
{
	return say(g) + say(g);
}

/* The program's only writable data, first in .data (flat.ld). */
struct globals {
	struct greeting table[2];
	struct globals *self;		/* a data address: relocated too */
	unsigned long calls;
};

__attribute__((section(".data.first"), used)) struct globals globals = {
	.table = {
		{ "hello from flash\n", 17, say },
		{ "twice\n", 6, say_twice },
	},
	.self = &globals,
};

/* The first byte of the text, after the header (flat.ld). */
extern const unsigned char __flat_text[];

static unsigned long be32(const unsigned char *p)
{
	return (unsigned long)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* "text at 0x<hex>\n", from a stack buffer: no global is named. */
static void say_where(unsigned long text)
{
	const char *head = "text at 0x";
	char line[40];
	int n = 0, shift;

	while (head[n]) {
		line[n] = head[n];
		n++;
	}
	for (shift = 60; shift >= 0; shift -= 4)
		line[n++] = "0123456789abcdef"[(text >> shift) & 15];
	line[n++] = '\n';
	sys3(__NR_write, 1, (long)line, n);
}

__attribute__((noreturn)) static void finish(long status)
{
	for (;;)
		sys3(__NR_exit, status, 0, 0);
}

__attribute__((used, noreturn)) static void hello_main(void)
{
	unsigned long text = (unsigned long)__flat_text;
	const unsigned char *hdr;
	unsigned long span;
	struct globals *g;
	int i;

	/*
	 * The header is mapped right before the text. Hidden from the compiler,
	 * which would fold the - 64 into a PC-relative reference outside the
	 * program (refused by elf2flt.py).
	 */
	__asm__("" : "+r"(text));
	hdr = (const unsigned char *)(text - 64);
	span = be32(hdr + 20) - be32(hdr + 12);	/* bss_end - data_start */
	g = (struct globals *)(sys3(__NR_brk, 0, 0, 0) - ((span + 3) & ~3UL));
	if (g->self != g)
		finish(1);
	for (i = 0; i < 2; i++) {
		g->calls++;
		if (g->table[i].say(&g->table[i]) <= 0)
			finish(1);
	}
	if (g->calls != 2)
		finish(1);
	say_where(text);
	sys3(__NR_write, 1, (long)"ok\n", 3);
	finish(0);
}

__attribute__((naked, noreturn, section(".text.start"))) void _start(void)
{
	__asm__ volatile("j hello_main");
}
