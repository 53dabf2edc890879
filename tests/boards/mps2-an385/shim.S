/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boot shim for QEMU mps2-an385: QEMU cannot start a Linux Image on an
 * M-profile board by itself. Linked at 0: the vector table gives the initial
 * stack and the reset handler, which enables UART0 (Linux's mps2-uart console
 * writes before it opens the port, and QEMU's CMSDK UART only drains once
 * enabled), then enters the kernel as the ARM boot protocol asks:
 * r0 = 0, r1 = ~0 (machine type: use the DT), r2 = the DTB's address.
 * The addresses are the runner's (the tiny system's kernel executes in place
 * from flash, its device tree is in flash too): -D on the command line.
 */
#ifndef SHIM_SP
#define SHIM_SP		0x21008000	/* initial SP: below the kernel, in RAM */
#endif
#ifndef SHIM_DTB
#define SHIM_DTB	0x21f00000	/* DTB, as the runner loads it */
#endif
#ifndef SHIM_KERNEL
#define SHIM_KERNEL	0x21008000	/* kernel Image (entered in Thumb) */
#endif
	.syntax unified
	.cpu cortex-m3
	.thumb

	.section .vectors, "a"
	.word	SHIM_SP
	.word	reset + 1		/* reset handler, Thumb */

	.text
	.thumb_func
reset:
	ldr	r0, =0x40004000		/* UART0 */
	movs	r1, #16
	str	r1, [r0, #0x10]		/* BAUDDIV >= 16 */
	movs	r1, #3
	str	r1, [r0, #0x08]		/* CTRL: TX and RX enable */
	movs	r0, #0
	mov	r1, #0xffffffff
	ldr	r2, =SHIM_DTB
	ldr	r3, =SHIM_KERNEL + 1		/* Thumb bit set */
	bx	r3
	.ltorg
