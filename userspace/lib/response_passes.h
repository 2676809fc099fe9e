/* SPDX-License-Identifier: MIT */
/*
 * response_passes.h - the response's "passes" list, rendered once per
 * program and shared, counted, by the program and every result of it
 */
#ifndef TTPU_RESPONSE_PASSES_H
#define TTPU_RESPONSE_PASSES_H

#include <stddef.h>

#include "program.h"

/*
 * The records, comma-separated, without the brackets: what
 * TTPU_PASSES_FULL writes between "[" and "]".
 */
struct ttpu_passes_text {
	unsigned int refs;		/* the program's and each result's */
	size_t len;
	char text[];
};

/*
 * ttpu_passes_text_get() - @prog's rendered list with a reference for the
 * caller (ttpu_passes_text_put() drops it): made now if no run and no
 * ttpu_program_prepare() made it before. NULL when out of memory.
 */
struct ttpu_passes_text *ttpu_passes_text_get(const struct ttpu_program *prog);

/* ttpu_passes_text_put() is program.h's: the program drops its own too. */

#endif /* TTPU_RESPONSE_PASSES_H */
