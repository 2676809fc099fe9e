/* SPDX-License-Identifier: MIT */
/*
 * program_inputs.h - a run's input values, for requests and the runner
 */
#ifndef TTPU_PROGRAM_INPUTS_H
#define TTPU_PROGRAM_INPUTS_H

#include <stdint.h>

#include "program.h"
#include "text_json_stream.h"

/*
 * For the runner: the values set for input buffer @buf (count
 * dtype-sized elements, row-major), or NULL when that input was not set;
 * and the program @in was made for.
 */
const void *ttpu_inputs_values(const ttpu_inputs *in, uint32_t buf);
const struct ttpu_program *ttpu_inputs_program(const ttpu_inputs *in);

/* Stream an object { NAME: nested lists, ... } at the cursor into @in. */
int ttpu_inputs_read_object(ttpu_inputs *in, struct ttpu_jstream *js,
			    const char *path);
/*
 * Set input @name from a list (read before the program was known, or
 * for it): its values may be taken from @l, which is freed as before.
 */
int ttpu_inputs_set_list(ttpu_inputs *in, struct ttpu_jstream *js,
			 const char *path, const char *name,
			 struct ttpu_int_list *l);
/* An InputError naming the first input that was not set, or 0. */
int ttpu_inputs_check_complete(const ttpu_inputs *in, struct ttpu_error *err);

#endif /* TTPU_PROGRAM_INPUTS_H */
