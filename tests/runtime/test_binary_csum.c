// SPDX-License-Identifier: MIT
/*
 * test_binary_csum.c - the .ttpb checksum's kernels (program_binary_csum.c):
 * each one the CPU can run, forced in turn, gives the checksum that a
 * plain word-by-word reference of Documentation/ttpu-binary.rst's
 * definition gives, on random bytes of random lengths at every alignment,
 * whole and fed in pieces of random (mostly odd) sizes; the kernel chosen
 * by default too. On x86-64 that is the SSE2, AVX2 (where the CPU has it)
 * and scalar kernels, on armhf (tests/zynq) the NEON and the scalar one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "program_binary.h"
#include "program_binary_csum.h"

static const char *const kernel_names[TTPU_CSUM_NKERNELS] = {
	[TTPU_CSUM_VECTOR] = "vector", [TTPU_CSUM_SCALAR] = "scalar",
	[TTPU_CSUM_NEON] = "neon", [TTPU_CSUM_AVX2] = "avx2",
};

/* xorshift64: the same bytes every run. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* MurmurHash3's 64-bit finaliser, as ttpu-binary.rst writes it. */
static uint64_t ref_mix(uint64_t x)
{
	static const uint64_t k[2] = { 0xff51afd7ed558ccdull, 0xc4ceb9fe1a85ec53ull };

	for (int i = 0; i < 2; i++)
		x = (x ^ (x >> 33)) * k[i];
	return x ^ (x >> 33);
}

/*
 * The definition, one little-endian word at a time: word i of the bytes
 * zero-padded to 64 goes to lane i mod 8. (.ttpb files are read in the
 * producer's byte order; the machines the tests run on are little-endian.)
 */
static uint64_t ref_csum(const unsigned char *p, size_t len)
{
	uint64_t s1[8] = { 0 }, s2[8] = { 0 }, h = 0;
	size_t words = (len + 63) / 64 * 8;

	for (size_t i = 0; i < words; i++) {
		uint64_t w = 0;

		for (size_t j = 0; j < 8 && 8 * i + j < len; j++)
			w |= (uint64_t)p[8 * i + j] << (8 * j);
		s1[i % 8] += w;
		s2[i % 8] += s1[i % 8];
	}
	for (int k = 0; k < 8; k++)
		h = ref_mix(ref_mix(h ^ s1[k]) ^ s2[k]);
	return ref_mix(h ^ len);
}

/* @len bytes at @p fed in pieces: random sizes from 1 to @most. */
static uint64_t fed_csum(const unsigned char *p, size_t len, size_t most, uint64_t *seed)
{
	struct ttpu_binary_csum c = { 0 };

	while (len) {
		size_t n = 1 + rnd(seed) % most;

		n = n < len ? n : len;
		ttpu_binary_csum_feed(&c, p, n);
		p += n;
		len -= n;
	}
	return ttpu_binary_csum_end(&c);
}

FIXTURE(csum) {
	unsigned char *bytes;	/* BIG random bytes, then 64 spare for alignments */
	uint64_t seed;
};

/* Past 128 blocks (the scalar kernel's chunk) several times, and not a whole block. */
#define BIG (3 * 128 * 64 + 1000)

FIXTURE_SETUP(csum)
{
	self->bytes = malloc(BIG + 64);
	ASSERT_NE(NULL, self->bytes);
	self->seed = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < BIG + 64; i++)
		self->bytes[i] = (unsigned char)rnd(&self->seed);
}

FIXTURE_TEARDOWN(csum)
{
	free(self->bytes);
	ttpu_binary_csum_kernel = -1;
}

/* Every usable kernel, whole and fed, against the reference. */
TEST_F(csum, every_kernel_matches_the_reference)
{
	int ran = 0;

	for (int k = 0; k < TTPU_CSUM_NKERNELS; k++) {
		if (!ttpu_binary_csum_kernel_usable(k)) {
			TH_LOG("kernel %s: not on this CPU", kernel_names[k]);
			continue;
		}
		ran++;
		for (int t = 0; t < 400; t++) {
			/* Small lengths often, a few past several chunks. */
			size_t len = t % 8 ? rnd(&self->seed) % 700 : rnd(&self->seed) % BIG;
			size_t off = rnd(&self->seed) % 64, most = 1 + rnd(&self->seed) % 257;
			const unsigned char *p = self->bytes + off;
			uint64_t want = ref_csum(p, len), whole, fed;
			struct ttpu_binary_csum c = { 0 };

			ttpu_binary_csum_kernel = k;
			ttpu_binary_csum_feed(&c, p, len);
			whole = ttpu_binary_csum_end(&c);
			fed = fed_csum(p, len, most, &self->seed);
			ttpu_binary_csum_kernel = -1;
			ASSERT_EQ(want, whole) {
				TH_LOG("kernel %s, %zu bytes at offset %zu", kernel_names[k], len, off);
			}
			ASSERT_EQ(want, fed) {
				TH_LOG("kernel %s, %zu bytes at offset %zu fed in pieces of up to %zu",
				       kernel_names[k], len, off, most);
			}
		}
	}
	/* The plain vector code and the scalar kernel run everywhere. */
	EXPECT_LE(2, ran);
}

/* What a file pays: the chosen kernel, usable here, through ttpu_binary_checksum(). */
TEST_F(csum, default_kernel_and_the_whole_file_checksum)
{
	struct ttpb_header h;
	size_t len = BIG;
	unsigned char *copy = malloc(len);
	enum ttpu_csum_kernel k = ttpu_binary_csum_kernel_chosen();

	ASSERT_NE(NULL, copy);
	EXPECT_TRUE(ttpu_binary_csum_kernel_usable(k)) TH_LOG("kernel %s", kernel_names[k]);
	TH_LOG("chosen here: %s", kernel_names[k]);
	/* The checksum field is taken as 0, whatever it holds. */
	memcpy(copy, self->bytes, len);
	memset(copy + offsetof(struct ttpb_header, checksum), 0, sizeof(h.checksum));
	EXPECT_EQ(ref_csum(copy, len), ttpu_binary_checksum(self->bytes, len));
	for (int t = 0; t < 50; t++) {
		size_t n = rnd(&self->seed) % 5000 + sizeof(h);

		EXPECT_EQ(ref_csum(copy, n), ttpu_binary_checksum(self->bytes, n)) {
			TH_LOG("%zu bytes", n);
		}
	}
	free(copy);
}

TEST_HARNESS_MAIN
