/* SPDX-License-Identifier: MIT */
/*
 * program_binary_csum.h - the .ttpb checksum's block sums, one kernel per
 * kind of CPU, chosen at run time (program_binary_csum.c)
 *
 * Every kernel computes the same sums (Documentation/ttpu-binary.rst,
 * "Checksum"); they differ only in how many instructions that takes on a
 * given CPU. The tests force each one in turn and compare. The AVX2
 * switch here is the compiled loader's, also its fast verifier's.
 */
#ifndef TTPU_PROGRAM_BINARY_CSUM_H
#define TTPU_PROGRAM_BINARY_CSUM_H

#include <stdbool.h>
#include <stddef.h>

#include "program_binary.h"

enum ttpu_csum_kernel {
	/* Two lanes to a 16-byte vector: SSE2 on x86-64, NEON on AArch64. */
	TTPU_CSUM_VECTOR,
	/* One lane at a time in core registers: 32-bit CPUs without a vector unit. */
	TTPU_CSUM_SCALAR,
	/* TTPU_CSUM_VECTOR's code for NEON, on armhf where the CPU has it. */
	TTPU_CSUM_NEON,
	/* Four lanes to a 32-byte vector, on x86-64 where the CPU has AVX2. */
	TTPU_CSUM_AVX2,
	TTPU_CSUM_NKERNELS
};

/*
 * The kernel every checksum uses: -1 (the default) chooses by the CPU,
 * once; else that kernel, which must be usable here. Tests set it.
 */
extern int ttpu_binary_csum_kernel;

/*
 * Whether the AVX2 paths (TTPU_CSUM_AVX2, the fast verifier's walk over
 * pass/acc pairs) are used, on x86-64: -1 (the default) asks the CPU
 * once, 0 never, 1 where the CPU has it. Tests set it to run both.
 */
extern int ttpu_binary_avx2;
bool ttpu_binary_avx2_on(void);

/* Whether @k is built into this library and the CPU can run it. */
bool ttpu_binary_csum_kernel_usable(enum ttpu_csum_kernel k);

/* The kernel chosen for this CPU when none is forced. */
enum ttpu_csum_kernel ttpu_binary_csum_kernel_chosen(void);

/* @n whole 64-byte blocks at @b (any alignment) into @c's sums. */
void ttpu_binary_csum_blocks(struct ttpu_binary_csum *c, const unsigned char *b, size_t n);

#endif /* TTPU_PROGRAM_BINARY_CSUM_H */
