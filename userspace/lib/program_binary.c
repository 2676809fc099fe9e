// SPDX-License-Identifier: MIT
/*
 * program_binary.c - what the writer and the loader of compiled programs
 * share: the magic test, the checksum (its block sums in
 * program_binary_csum.c), the record size of each section
 */
#include <stdint.h>
#include <string.h>

#include "plan.h"
#include "program_binary.h"
#include "program_binary_csum.h"

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
		ttpu_binary_csum_blocks(c, c->carry, 1);
		c->ncarry = 0;
	}
	ttpu_binary_csum_blocks(c, p, n / TTPB_CSUM_BLOCK);
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
		ttpu_binary_csum_blocks(c, c->carry, 1);
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
