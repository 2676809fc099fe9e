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

/* One block's words into the sums. */
#define CSUM_ADD_BLOCK(b) do {						\
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
} while (0)

/*
 * @n whole blocks at @b; the sums in locals, so that they stay in
 * registers. Where @b is 16-byte aligned (a mapping; x86-64's malloc),
 * the compiler may add straight from memory, as SSE2 allows only then:
 * the same sums in a quarter fewer instructions.
 */
static void csum_blocks(struct ttpu_binary_csum *c, const unsigned char *b, size_t n)
{
	ttpu_u64x2 a0 = c->sum1[0], a1 = c->sum1[1], a2 = c->sum1[2], a3 = c->sum1[3];
	ttpu_u64x2 b0 = c->sum2[0], b1 = c->sum2[1], b2 = c->sum2[2], b3 = c->sum2[3];

	if ((uintptr_t)b % sizeof(ttpu_u64x2) == 0) {
		const unsigned char *v = __builtin_assume_aligned(b, sizeof(ttpu_u64x2));

		for (; n; n--, v += TTPB_CSUM_BLOCK)
			CSUM_ADD_BLOCK(v);
	} else {
		for (; n; n--, b += TTPB_CSUM_BLOCK)
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

void ttpu_binary_csum_feed(struct ttpu_binary_csum *c, const void *data, size_t n)
{
	const unsigned char *p = data;

	c->len += n;
	if (c->ncarry) {
		size_t k = TTPB_CSUM_BLOCK - c->ncarry < n ? TTPB_CSUM_BLOCK - c->ncarry : n;

		memcpy(c->carry + c->ncarry, p, k);
		c->ncarry += k;
		p += k;
		n -= k;
		if (c->ncarry < TTPB_CSUM_BLOCK)
			return;
		csum_blocks(c, c->carry, 1);
		c->ncarry = 0;
	}
	csum_blocks(c, p, n / TTPB_CSUM_BLOCK);
	memcpy(c->carry, p + n / TTPB_CSUM_BLOCK * TTPB_CSUM_BLOCK, n % TTPB_CSUM_BLOCK);
	c->ncarry = n % TTPB_CSUM_BLOCK;
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
uint64_t ttpu_binary_csum_end(struct ttpu_binary_csum *c)
{
	uint64_t h = 0;

	if (c->ncarry) {
		memset(c->carry + c->ncarry, 0, TTPB_CSUM_BLOCK - c->ncarry);
		csum_blocks(c, c->carry, 1);
	}
	for (int k = 0; k < TTPB_CSUM_VECTORS; k++)
		for (int l = 0; l < 2; l++)
			h = mix64(mix64(h ^ c->sum1[k][l]) ^ c->sum2[k][l]);
	return mix64(h ^ c->len);
}

uint64_t ttpu_binary_checksum(const void *image, size_t len)
{
	struct ttpb_header h;
	struct ttpu_binary_csum c = { 0 };

	if (len < sizeof(h))
		return 0;
	memcpy(&h, image, sizeof(h));
	h.checksum = 0;
	ttpu_binary_csum_feed(&c, (const unsigned char *)&h, sizeof(h));
	ttpu_binary_csum_feed(&c, (const unsigned char *)image + sizeof(h), len - sizeof(h));
	return ttpu_binary_csum_end(&c);
}
