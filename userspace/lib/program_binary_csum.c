// SPDX-License-Identifier: MIT
/*
 * program_binary_csum.c - the .ttpb checksum's block sums: 8 independent
 * lanes of Fletcher sums (program_binary.h), computed by the kernel that
 * suits the CPU, chosen at run time
 *
 * The lanes are independent, so any order of work gives the same sums.
 * A CPU with 16-byte vectors takes two lanes to a register (SSE2, NEON);
 * x86-64 with AVX2 takes four. Debian's armhf code assumes no NEON, and
 * there the vector code becomes two 64-bit adds through the stack per lane
 * (some 128 instructions a block); the scalar kernel instead keeps one
 * lane's two sums in four core registers and walks an L1-sized chunk once
 * per lane (adds/adc pairs, one ldrd per word): about 5.5 a lane.
 */
#include <stdint.h>
#include <string.h>

#include "program_binary_csum.h"
#include "run_range_neon.h"

int ttpu_binary_csum_kernel = -1;

#define LANES (TTPB_CSUM_BLOCK / sizeof(uint64_t))	/* 8 */

/*
 * Two lanes to a 16-byte vector, in the compiler's vector code. The sums
 * are named locals, so that they stay in registers. Where @b is 16-byte
 * aligned (a mapping; x86-64's malloc), SSE2 may add straight from
 * memory, as it allows only then: a quarter fewer instructions. Four
 * blocks a turn share the loop's own instructions: 9 a block. Unrolled,
 * gcc regroups sum2's adds (b0 + (a0' + a0'')), which costs a register
 * copy per vector; an empty asm on the sums after each block keeps them
 * one add each.
 */
#if defined(__SSE2__)
#define KEEP_ORDER(b0, b1, b2, b3) __asm__("" : "+x"(b0), "+x"(b1), "+x"(b2), "+x"(b3))
#else
#define KEEP_ORDER(b0, b1, b2, b3) ((void)0)
#endif

#define VEC16_BLOCK(b) do {						\
	ttpu_u64x2 w0, w1, w2, w3;					\
									\
	memcpy(&w0, (b), sizeof(w0));					\
	memcpy(&w1, (b) + 16, sizeof(w1));				\
	memcpy(&w2, (b) + 32, sizeof(w2));				\
	memcpy(&w3, (b) + 48, sizeof(w3));				\
	a0 += w0;							\
	a1 += w1;							\
	a2 += w2;							\
	a3 += w3;							\
	b0 += a0;							\
	b1 += a1;							\
	b2 += a2;							\
	b3 += a3;							\
	KEEP_ORDER(b0, b1, b2, b3);					\
} while (0)

#define VEC16_FOUR(b) do {						\
	VEC16_BLOCK(b);							\
	VEC16_BLOCK((b) + TTPB_CSUM_BLOCK);				\
	VEC16_BLOCK((b) + 2 * TTPB_CSUM_BLOCK);				\
	VEC16_BLOCK((b) + 3 * TTPB_CSUM_BLOCK);				\
} while (0)

static void csum_vector(struct ttpu_binary_csum *c, const unsigned char *b, size_t n)
{
	ttpu_u64x2 a0 = c->sum1[0], a1 = c->sum1[1], a2 = c->sum1[2], a3 = c->sum1[3];
	ttpu_u64x2 b0 = c->sum2[0], b1 = c->sum2[1], b2 = c->sum2[2], b3 = c->sum2[3];

	if ((uintptr_t)b % sizeof(ttpu_u64x2) == 0) {
		const unsigned char *v = __builtin_assume_aligned(b, sizeof(ttpu_u64x2));

		for (; n >= 4; n -= 4, v += 4 * TTPB_CSUM_BLOCK)
			VEC16_FOUR(v);
		for (; n; n--, v += TTPB_CSUM_BLOCK)
			VEC16_BLOCK(v);
	} else {
		for (; n >= 4; n -= 4, b += 4 * TTPB_CSUM_BLOCK)
			VEC16_FOUR(b);
		for (; n; n--, b += TTPB_CSUM_BLOCK)
			VEC16_BLOCK(b);
	}
	c->sum1[0] = a0;
	c->sum1[1] = a1;
	c->sum1[2] = a2;
	c->sum1[3] = a3;
	c->sum2[0] = b0;
	c->sum2[1] = b1;
	c->sum2[2] = b2;
	c->sum2[3] = b3;
}

/*
 * Blocks per chunk of the scalar kernel: 8 KB, a quarter of the Cortex-A9's
 * 32 KB L1 data cache, so that the eight walks over a chunk read it from
 * DRAM once; the sums' loads and stores per lane and chunk are then under
 * one instruction a block.
 */
#define SCALAR_CHUNK 128

/* A word of the image, which may be any type's bytes. */
typedef uint64_t csum_word __attribute__((may_alias));

/* The 8-byte word at @p, which is 8-byte aligned. */
static inline uint64_t word_at(const unsigned char *p)
{
	return *(const csum_word *)__builtin_assume_aligned(p, sizeof(uint64_t));
}

/* One word into a lane's sums. */
#define LANE_ADD(a, z, w) do {						\
	(a) += (w);							\
	(z) += (a);							\
} while (0)

#if defined(__arm__)
/*
 * @turns times four of a lane's words, 64 bytes apart from @p on, into
 * its sums: 22 instructions a turn, each word a post-indexed ldrd then
 * two adds/adc pairs. Written out because gcc, tuning for a generic
 * ARMv7-A, splits every 64-bit load into two ldr.
 */
static void lane_four_blocks(uint64_t *a, uint64_t *z, const unsigned char *p, size_t turns)
{
	uint64_t s1 = *a, s2 = *z, w0, w1;

	if (!turns)
		return;
	/* 64-bit operands: %Q is the low word, %R the high (an even pair in ARM state). */
	__asm__("1:\n\t"
		"ldrd	%Q[w0], %R[w0], [%[p]], #64\n\t"
		"ldrd	%Q[w1], %R[w1], [%[p]], #64\n\t"
		"adds	%Q[s1], %Q[s1], %Q[w0]\n\t"
		"adc	%R[s1], %R[s1], %R[w0]\n\t"
		"adds	%Q[s2], %Q[s2], %Q[s1]\n\t"
		"adc	%R[s2], %R[s2], %R[s1]\n\t"
		"ldrd	%Q[w0], %R[w0], [%[p]], #64\n\t"
		"adds	%Q[s1], %Q[s1], %Q[w1]\n\t"
		"adc	%R[s1], %R[s1], %R[w1]\n\t"
		"adds	%Q[s2], %Q[s2], %Q[s1]\n\t"
		"adc	%R[s2], %R[s2], %R[s1]\n\t"
		"ldrd	%Q[w1], %R[w1], [%[p]], #64\n\t"
		"adds	%Q[s1], %Q[s1], %Q[w0]\n\t"
		"adc	%R[s1], %R[s1], %R[w0]\n\t"
		"adds	%Q[s2], %Q[s2], %Q[s1]\n\t"
		"adc	%R[s2], %R[s2], %R[s1]\n\t"
		"adds	%Q[s1], %Q[s1], %Q[w1]\n\t"
		"adc	%R[s1], %R[s1], %R[w1]\n\t"
		"adds	%Q[s2], %Q[s2], %Q[s1]\n\t"
		"adc	%R[s2], %R[s2], %R[s1]\n\t"
		"subs	%[turns], %[turns], #1\n\t"
		"bne	1b"
		: [s1] "+r"(s1), [s2] "+r"(s2), [p] "+r"(p), [turns] "+r"(turns),
		  [w0] "=&r"(w0), [w1] "=&r"(w1)
		:
		: "cc", "memory");
	*a = s1;
	*z = s2;
}
#else
/* lane_four_blocks() in C, where the compiler's 64-bit loads and adds are whole. */
static void lane_four_blocks(uint64_t *a, uint64_t *z, const unsigned char *p, size_t turns)
{
	uint64_t s1 = *a, s2 = *z;

	for (size_t i = 0; i < 4 * turns; i += 4) {
		LANE_ADD(s1, s2, word_at(p + i * TTPB_CSUM_BLOCK));
		LANE_ADD(s1, s2, word_at(p + (i + 1) * TTPB_CSUM_BLOCK));
		LANE_ADD(s1, s2, word_at(p + (i + 2) * TTPB_CSUM_BLOCK));
		LANE_ADD(s1, s2, word_at(p + (i + 3) * TTPB_CSUM_BLOCK));
	}
	*a = s1;
	*z = s2;
}
#endif

/*
 * @n blocks at @b (8-byte aligned) into the sums, a lane at a time: the
 * lane's sum1 and sum2 and the words being added are all its loop holds,
 * ten core registers on a 32-bit CPU.
 */
static void scalar_chunk(uint64_t *s1, uint64_t *s2, const unsigned char *b, size_t n)
{
	for (size_t k = 0; k < LANES; k++) {
		const unsigned char *lane = b + k * sizeof(uint64_t);

		lane_four_blocks(&s1[k], &s2[k], lane, n / 4);
		for (size_t i = n - n % 4; i < n; i++)
			LANE_ADD(s1[k], s2[k], word_at(lane + i * TTPB_CSUM_BLOCK));
	}
}

static void csum_scalar(struct ttpu_binary_csum *c, const unsigned char *b, size_t n)
{
	/* A chunk of an unaligned piece (a writer's feed) is copied here first. */
	uint64_t s1[LANES], s2[LANES], aligned[SCALAR_CHUNK * LANES];

	memcpy(s1, c->sum1, sizeof(s1));
	memcpy(s2, c->sum2, sizeof(s2));
	while (n) {
		size_t m = n < SCALAR_CHUNK ? n : SCALAR_CHUNK;
		const unsigned char *p = b;

		if ((uintptr_t)b % sizeof(uint64_t)) {
			memcpy(aligned, b, m * TTPB_CSUM_BLOCK);
			p = (const unsigned char *)aligned;
		}
		scalar_chunk(s1, s2, p, m);
		b += m * TTPB_CSUM_BLOCK;
		n -= m;
	}
	memcpy(c->sum1, s1, sizeof(s1));
	memcpy(c->sum2, s2, sizeof(s2));
}

#if defined(__arm__)
#include <arm_neon.h>

#pragma GCC push_options
#pragma GCC target("fpu=neon")
/*
 * Two lanes to a Q register, a block's 64 bytes in two post-indexed
 * vld1 of four D registers each: 12 instructions a block. Written out
 * because gcc's own NEON code for csum_vector()'s loop loads D register by D
 * register or recomputes each address (19 a block).
 */
static void csum_neon(struct ttpu_binary_csum *c, const unsigned char *b, size_t n)
{
	uint64_t *s1 = (uint64_t *)c->sum1, *s2 = (uint64_t *)c->sum2;
	uint64x2_t a0 = vld1q_u64(s1), a1 = vld1q_u64(s1 + 2), a2 = vld1q_u64(s1 + 4),
		   a3 = vld1q_u64(s1 + 6);
	uint64x2_t b0 = vld1q_u64(s2), b1 = vld1q_u64(s2 + 2), b2 = vld1q_u64(s2 + 4),
		   b3 = vld1q_u64(s2 + 6);

	if (n)
		__asm__("1:\n\t"
			"vld1.64	{d0-d3}, [%[b]]!\n\t"
			"vld1.64	{d4-d7}, [%[b]]!\n\t"
			"vadd.i64	%q[a0], %q[a0], q0\n\t"
			"vadd.i64	%q[a1], %q[a1], q1\n\t"
			"vadd.i64	%q[a2], %q[a2], q2\n\t"
			"vadd.i64	%q[a3], %q[a3], q3\n\t"
			"vadd.i64	%q[b0], %q[b0], %q[a0]\n\t"
			"vadd.i64	%q[b1], %q[b1], %q[a1]\n\t"
			"vadd.i64	%q[b2], %q[b2], %q[a2]\n\t"
			"vadd.i64	%q[b3], %q[b3], %q[a3]\n\t"
			"subs	%[n], %[n], #1\n\t"
			"bne	1b"
			: [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3),
			  [b0] "+w"(b0), [b1] "+w"(b1), [b2] "+w"(b2), [b3] "+w"(b3),
			  [b] "+r"(b), [n] "+r"(n)
			:
			: "cc", "memory", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7");
	vst1q_u64(s1, a0);
	vst1q_u64(s1 + 2, a1);
	vst1q_u64(s1 + 4, a2);
	vst1q_u64(s1 + 6, a3);
	vst1q_u64(s2, b0);
	vst1q_u64(s2 + 2, b1);
	vst1q_u64(s2 + 4, b2);
	vst1q_u64(s2 + 6, b3);
}
#pragma GCC pop_options
#endif

#if defined(__x86_64__)
/*
 * Four lanes to a 32-byte vector: a block is two, and VEX-encoded adds
 * take their operand from memory at any alignment. Unrolled by four
 * blocks, so that the loop's own three instructions are shared.
 */
typedef uint64_t u64x4 __attribute__((vector_size(32)));

#define VEC32_BLOCK(b) do {						\
	u64x4 w0, w1;							\
									\
	memcpy(&w0, (b), sizeof(w0));					\
	memcpy(&w1, (b) + 32, sizeof(w1));				\
	a0 += w0;							\
	a1 += w1;							\
	b0 += a0;							\
	b1 += a1;							\
} while (0)

__attribute__((target("avx2")))
static void csum_avx2(struct ttpu_binary_csum *c, const unsigned char *b, size_t n)
{
	u64x4 a0, a1, b0, b1;

	memcpy(&a0, &c->sum1[0], sizeof(a0));
	memcpy(&a1, &c->sum1[2], sizeof(a1));
	memcpy(&b0, &c->sum2[0], sizeof(b0));
	memcpy(&b1, &c->sum2[2], sizeof(b1));
	for (; n >= 4; n -= 4, b += 4 * TTPB_CSUM_BLOCK) {
		VEC32_BLOCK(b);
		VEC32_BLOCK(b + TTPB_CSUM_BLOCK);
		VEC32_BLOCK(b + 2 * TTPB_CSUM_BLOCK);
		VEC32_BLOCK(b + 3 * TTPB_CSUM_BLOCK);
	}
	for (; n; n--, b += TTPB_CSUM_BLOCK)
		VEC32_BLOCK(b);
	memcpy(&c->sum1[0], &a0, sizeof(a0));
	memcpy(&c->sum1[2], &a1, sizeof(a1));
	memcpy(&c->sum2[0], &b0, sizeof(b0));
	memcpy(&c->sum2[2], &b1, sizeof(b1));
}
#endif

int ttpu_binary_avx2 = -1;

#if defined(__x86_64__)
static bool cpu_has_avx2(void)
{
	/* Loads on several threads may ask at once: the same answer, atomically. */
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (h < 0) {
		__builtin_cpu_init();
		h = !!__builtin_cpu_supports("avx2");
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}
#endif

bool ttpu_binary_avx2_on(void)
{
#if defined(__x86_64__)
	return ttpu_binary_avx2 && cpu_has_avx2();
#else
	return false;
#endif
}

bool ttpu_binary_csum_kernel_usable(enum ttpu_csum_kernel k)
{
	switch (k) {
	case TTPU_CSUM_VECTOR:
	case TTPU_CSUM_SCALAR:
		return true;
#if defined(__arm__)
	case TTPU_CSUM_NEON:
		return ttpu_neon_present();
#endif
#if defined(__x86_64__)
	case TTPU_CSUM_AVX2:
		return cpu_has_avx2();
#endif
	default:
		return false;
	}
}

enum ttpu_csum_kernel ttpu_binary_csum_kernel_chosen(void)
{
#if defined(__arm__)
	/* The library's one NEON switch (tests turn it off). */
	return ttpu_range_neon_on() ? TTPU_CSUM_NEON : TTPU_CSUM_SCALAR;
#elif defined(__x86_64__)
	return ttpu_binary_avx2_on() ? TTPU_CSUM_AVX2 : TTPU_CSUM_VECTOR;
#else
	/* 64-bit CPUs have vector units (AArch64's NEON); others may not. */
	return UINTPTR_MAX > 0xffffffffu ? TTPU_CSUM_VECTOR : TTPU_CSUM_SCALAR;
#endif
}

void ttpu_binary_csum_blocks(struct ttpu_binary_csum *c, const unsigned char *b, size_t n)
{
	int k = ttpu_binary_csum_kernel >= 0 ? ttpu_binary_csum_kernel
					     : (int)ttpu_binary_csum_kernel_chosen();

	switch (k) {
#if defined(__arm__)
	case TTPU_CSUM_NEON:
		csum_neon(c, b, n);
		break;
#endif
#if defined(__x86_64__)
	case TTPU_CSUM_AVX2:
		csum_avx2(c, b, n);
		break;
#endif
	case TTPU_CSUM_SCALAR:
		csum_scalar(c, b, n);
		break;
	default:
		csum_vector(c, b, n);
		break;
	}
}
