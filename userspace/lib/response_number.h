/* SPDX-License-Identifier: MIT */
/*
 * response_number.h - integers in decimal, as a response writes them:
 * the outputs' values (response.c) and the passes list's ids
 * (response_passes.c), the one formatter both use
 */
#ifndef TTPU_RESPONSE_NUMBER_H
#define TTPU_RESPONSE_NUMBER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The most an int64 takes in decimal: a sign and 19 digits. */
#define INT_MAX_CHARS 20

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* The digits of @u, @digits of them, ending at @end: two per division. */
static inline void fmt_digits32(char *end, uint32_t u, unsigned int digits)
{
	while (digits >= 2) {
		uint32_t r = u % 100;

		u /= 100;
		end -= 2;
		memcpy(end, digit_pairs + 2 * r, 2);
		digits -= 2;
	}
	if (digits)
		end[-1] = (char)('0' + u);
}

/* Decimal digits in @u: comparisons, no division. */
static inline unsigned int digits32(uint32_t u)
{
	if (u < 100000)
		return u < 100 ? 1 + (u >= 10) : u < 10000 ? 3 + (u >= 1000) : 5;
	return u < 10000000 ? 6 + (u >= 1000000) : u < 1000000000 ? 8 + (u >= 100000000) : 10;
}

/* fmt_int() beyond 32 bits: the top part, then the 9 low digits, zero-padded. */
static inline size_t fmt_u64_wide(char *dst, uint64_t u)
{
	uint64_t top = u / 1000000000;
	size_t len = top > UINT32_MAX ? fmt_u64_wide(dst, top) : digits32((uint32_t)top);

	if (top <= UINT32_MAX)
		fmt_digits32(dst + len, (uint32_t)top, (unsigned int)len);
	fmt_digits32(dst + len + 9, (uint32_t)(u % 1000000000), 9);
	return len + 9;
}

/*
 * @v in decimal at @dst (INT_MAX_CHARS bytes of room); returns its length.
 * A response holds hundreds of thousands of numbers (pass ids, values),
 * almost all below 2^32: those are made in 32-bit arithmetic, two digits
 * per division, straight into place, inline in the loops that write them.
 */
static inline __attribute__((always_inline)) size_t fmt_int(char *dst, int64_t v)
{
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t neg = v < 0, len;

	dst[0] = '-';
	dst += neg;
	if (u > UINT32_MAX)
		return neg + fmt_u64_wide(dst, u);
	len = digits32((uint32_t)u);
	fmt_digits32(dst + len, (uint32_t)u, (unsigned int)len);
	return neg + len;
}

#endif /* TTPU_RESPONSE_NUMBER_H */
