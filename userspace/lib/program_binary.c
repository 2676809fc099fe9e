// SPDX-License-Identifier: MIT
/*
 * program_binary.c - what the writer and the loader of compiled programs
 * share: the magic test, the checksum, the record size of each section
 */
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

static uint64_t fnv_words(uint64_t h, const unsigned char *b, size_t len)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	if (i < len) {
		uint64_t w = 0;

		memcpy(&w, b + i, len - i);
		h = (h ^ w) * 0x100000001b3ull;
	}
	return h;
}

uint64_t ttpu_binary_checksum(const void *image, size_t len)
{
	struct ttpb_header h;

	if (len < sizeof(h))
		return 0;
	memcpy(&h, image, sizeof(h));
	h.checksum = 0;
	return fnv_words(fnv_words(0xcbf29ce484222325ull, (const unsigned char *)&h, sizeof(h)),
			 (const unsigned char *)image + sizeof(h), len - sizeof(h));
}
