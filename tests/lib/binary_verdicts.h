/* SPDX-License-Identifier: MIT */
/*
 * binary_verdicts.h - a compiled program loaded with the loader's fast
 * verifier alone, its precise check alone, and both as a load runs them
 * (program_binary_check.h), and what test_binary and the fuzzer require
 * of them: the fast verifier accepts only what the precise check
 * accepts (it may leave more to it), and the last two end the same, error
 * kind and message. Where the fast verifier has a second walk over the
 * pass/acc pairs (AVX2, chosen by the CPU), it is also run without it and
 * must end exactly as with it.
 */
#ifndef BINARY_VERDICTS_H
#define BINARY_VERDICTS_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "program_binary_check.h"
#include "program_binary_csum.h"
#include "ttpu-run.h"

enum { VERDICT_FAST, VERDICT_PRECISE, VERDICT_BOTH, VERDICT_FAST_NO_AVX2, VERDICT_WAYS };

struct binary_verdicts {
	int rc[VERDICT_WAYS];
	struct ttpu_error err[VERDICT_WAYS];
};

/* Load @len bytes at @image the four ways into @v; whether they agree. */
static inline bool binary_verdicts_agree(const char *image, size_t len,
					 struct binary_verdicts *v)
{
	static const enum ttpu_binary_verify modes[VERDICT_WAYS] = {
		[VERDICT_FAST] = TTPU_VERIFY_FAST_ONLY,
		[VERDICT_PRECISE] = TTPU_VERIFY_PRECISE,
		[VERDICT_BOTH] = TTPU_VERIFY_FAST,
		[VERDICT_FAST_NO_AVX2] = TTPU_VERIFY_FAST_ONLY,
	};
	const int *rc = v->rc;

	for (int m = 0; m < VERDICT_WAYS; m++) {
		ttpu_program *prog = NULL;

		ttpu_binary_verify_mode = modes[m];
		ttpu_binary_avx2 = m == VERDICT_FAST_NO_AVX2 ? 0 : -1;
		v->rc[m] = ttpu_program_load_buffer(image, len, &prog, &v->err[m]);
		ttpu_program_free(prog);
	}
	ttpu_binary_verify_mode = TTPU_VERIFY_FAST;
	ttpu_binary_avx2 = -1;
	return (rc[VERDICT_FAST] || !rc[VERDICT_PRECISE]) && rc[VERDICT_BOTH] == rc[VERDICT_PRECISE] &&
	       (!rc[VERDICT_PRECISE] ||
		(v->err[VERDICT_BOTH].kind == v->err[VERDICT_PRECISE].kind &&
		 !strcmp(v->err[VERDICT_BOTH].message, v->err[VERDICT_PRECISE].message))) &&
	       rc[VERDICT_FAST_NO_AVX2] == rc[VERDICT_FAST] &&
	       (!rc[VERDICT_FAST] ||
		!strcmp(v->err[VERDICT_FAST_NO_AVX2].message, v->err[VERDICT_FAST].message));
}

/* The four outcomes on @f, one line starting with @prefix. */
static inline void binary_verdicts_print(FILE *f, const char *prefix,
					 const struct binary_verdicts *v)
{
	static const char *const names[VERDICT_WAYS] = {
		"fast alone", "precise", "both", "fast alone without AVX2",
	};

	fputs(prefix, f);
	for (int m = 0; m < VERDICT_WAYS; m++)
		fprintf(f, "%s %s: %d \"%s\"", m ? ";" : "", names[m], v->rc[m],
			v->rc[m] ? v->err[m].message : "");
	fputc('\n', f);
}

#endif /* BINARY_VERDICTS_H */
