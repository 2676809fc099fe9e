// SPDX-License-Identifier: MIT
/*
 * no_avx2.c - linked into host_cost_no_avx2: the compiled loader's AVX2
 * paths (the checksum's kernel, the fast verifier's pair walk) off before
 * main(), so that `make bench-host` also counts what an x86-64 without
 * AVX2 pays to load a compiled program (its SSE2 paths).
 */
#include "program_binary_csum.h"

__attribute__((constructor))
static void no_avx2(void)
{
	ttpu_binary_avx2 = 0;
}
