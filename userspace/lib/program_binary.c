// SPDX-License-Identifier: MIT
/*
 * program_binary.c - what the writer and the loader of compiled programs
 * share: the magic test, the checksum, the record size of each section
 */
#include <stdint.h>
#include <string.h>

#include "plan.h"
#include "program_binary.h"

const uint32_t ttpu_binary_record_sizes[TTPB_NSECTIONS] = {
	[TTPB_STRINGS] = 1, [TTPB_BUFFERS] = sizeof(struct ttpb_buffer),
	[TTPB_DATA] = 1, [TTPB_INPUTS] = 4, [TTPB_OUTPUTS] = 4,
	[TTPB_COMMANDS] = sizeof(struct ttpu_command), [TTPB_PASS_IDS] = 8,
	[TTPB_PASS_CMD] = 4, [TTPB_MEASURED] = sizeof(struct ttpu_estimate),
	[TTPB_STAGES] = sizeof(struct ttpu_stage), [TTPB_JOBS] = sizeof(struct ttpu_job),
	[TTPB_LINKS] = sizeof(struct ttpu_link), [TTPB_CHAINS] = sizeof(struct ttpu_chain),
	[TTPB_STEPS] = sizeof(struct ttpu_step),
	[TTPB_DEFERRED] = sizeof(struct ttpu_deferred), [TTPB_TMP_INDEX] = 4,
};

bool ttpu_binary_has_magic(const void *p, size_t len)
{
	return len >= TTPB_MAGIC_LEN && !memcmp(p, TTPB_MAGIC, TTPB_MAGIC_LEN);
}

/*
 * Two 64-bit lanes, the size of an SSE2 (x86-64) or NEON register; where
 * neither is there, the compiler makes each operation two scalar ones.
 */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

#define CSUM_VECTORS 4
#define CSUM_BLOCK (CSUM_VECTORS * sizeof(u64x2))	/* 64 bytes */

/*
 * Fletcher-style sums in 8 lanes (4 vectors of 2): each 64-byte block's
 * k-th vector is added to sum1[k], and sum1[k] then to sum2[k]. sum1 sees
 * any changed word, sum2 where in the file it sits.
 */
struct csum {
	u64x2 sum1[CSUM_VECTORS], sum2[CSUM_VECTORS];
	unsigned char carry[CSUM_BLOCK];	/* a block not yet whole */
	size_t ncarry;
	uint64_t len;
};

/* One block's words into the sums. */
#define CSUM_ADD_BLOCK(b) do {						\
	u64x2 w0, w1, w2, w3;						\
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
} while (0)

/*
 * @n whole blocks at @b; the sums in locals, so that they stay in
 * registers. Where @b is 16-byte aligned (a mapping; x86-64's malloc),
 * the compiler may add straight from memory, as SSE2 allows only then:
 * the same sums in a quarter fewer instructions.
 */
static void csum_blocks(struct csum *c, const unsigned char *b, size_t n)
{
	u64x2 a0 = c->sum1[0], a1 = c->sum1[1], a2 = c->sum1[2], a3 = c->sum1[3];
	u64x2 b0 = c->sum2[0], b1 = c->sum2[1], b2 = c->sum2[2], b3 = c->sum2[3];

	if ((uintptr_t)b % sizeof(u64x2) == 0) {
		const unsigned char *v = __builtin_assume_aligned(b, sizeof(u64x2));

		for (; n; n--, v += CSUM_BLOCK)
			CSUM_ADD_BLOCK(v);
	} else {
		for (; n; n--, b += CSUM_BLOCK)
			CSUM_ADD_BLOCK(b);
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

static void csum_feed(struct csum *c, const unsigned char *p, size_t n)
{
	c->len += n;
	if (c->ncarry) {
		size_t k = CSUM_BLOCK - c->ncarry < n ? CSUM_BLOCK - c->ncarry : n;

		memcpy(c->carry + c->ncarry, p, k);
		c->ncarry += k;
		p += k;
		n -= k;
		if (c->ncarry < CSUM_BLOCK)
			return;
		csum_blocks(c, c->carry, 1);
		c->ncarry = 0;
	}
	csum_blocks(c, p, n / CSUM_BLOCK);
	memcpy(c->carry, p + n / CSUM_BLOCK * CSUM_BLOCK, n % CSUM_BLOCK);
	c->ncarry = n % CSUM_BLOCK;
}

/* MurmurHash3's 64-bit finaliser: a bijection where every input bit moves every output bit. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

/* The last block zero-padded, then the 16 sums and the length mixed into one. */
static uint64_t csum_end(struct csum *c)
{
	uint64_t h = 0;

	if (c->ncarry) {
		memset(c->carry + c->ncarry, 0, CSUM_BLOCK - c->ncarry);
		csum_blocks(c, c->carry, 1);
	}
	for (int k = 0; k < CSUM_VECTORS; k++)
		for (int l = 0; l < 2; l++)
			h = mix64(mix64(h ^ c->sum1[k][l]) ^ c->sum2[k][l]);
	return mix64(h ^ c->len);
}

uint64_t ttpu_binary_checksum(const void *image, size_t len)
{
	struct ttpb_header h;
	struct csum c = { 0 };

	if (len < sizeof(h))
		return 0;
	memcpy(&h, image, sizeof(h));
	h.checksum = 0;
	csum_feed(&c, (const unsigned char *)&h, sizeof(h));
	csum_feed(&c, (const unsigned char *)image + sizeof(h), len - sizeof(h));
	return csum_end(&c);
}
