/* SPDX-License-Identifier: MIT */
/*
 * inputs.h - input values, for the loader and the runner
 *
 * ttpu_inputs_values() and ttpu_inputs_program() (program.h) give the
 * runner the values; these are the rest of the internal interface.
 */
#ifndef TTPU_INPUTS_H
#define TTPU_INPUTS_H

#include "json_stream.h"
#include "program.h"

/* Stream an object { NAME: nested lists, ... } at the cursor into @in. */
int ttpu_inputs_read_object(ttpu_inputs *in, struct ttpu_jstream *js,
			    const char *path);
/* Set input @name from a list read before the program was known. */
int ttpu_inputs_set_list(ttpu_inputs *in, struct ttpu_jstream *js,
			 const char *path, const char *name,
			 const struct ttpu_int_list *l);
/* An InputError naming the first input that was not set, or 0. */
int ttpu_inputs_check_complete(const ttpu_inputs *in, struct ttpu_error *err);

#endif /* TTPU_INPUTS_H */
