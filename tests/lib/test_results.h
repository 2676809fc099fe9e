/* SPDX-License-Identifier: MIT */
/*
 * test_results.h - comparing two runs' results of one program.
 */
#ifndef TEST_RESULTS_H
#define TEST_RESULTS_H

#include <string.h>

#include "ttpu-run.h"

/* Every output of @prog is present in both @a and @b, and the same. */
static inline int same_outputs(const ttpu_program *prog, const ttpu_result *a,
			       const ttpu_result *b)
{
	for (size_t i = 0; i < ttpu_program_output_count(prog); i++) {
		const char *name = ttpu_program_output_name(prog, i);
		size_t na, nb;
		const int32_t *va = ttpu_result_output(a, name, &na);
		const int32_t *vb = ttpu_result_output(b, name, &nb);

		if (!va || !vb || na != nb || memcmp(va, vb, na * sizeof(*va)))
			return 0;
	}
	return 1;
}

#endif /* TEST_RESULTS_H */
