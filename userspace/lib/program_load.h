/* SPDX-License-Identifier: MIT */
/*
 * program_load.h - loading a program: text -> validated program -> plan
 *
 * A loader walks one program object (program_read.h: streaming, one
 * element at a time into the pending form of program_pending.h), then
 * validates it as a whole (program_validate.h), then builds its plan
 * (plan.h). The public ttpu_program_load_*() and
 * ttpu_request_load_buffer() (request.c) are thin wrappers around
 * ttpu_loader_load().
 */
#ifndef TTPU_PROGRAM_LOAD_H
#define TTPU_PROGRAM_LOAD_H

#include <stdbool.h>

#include "program_pending.h"

/* Start loading a program from @js. Call ttpu_loader_fini() even on failure. */
int ttpu_loader_init(struct ttpu_loader *L, struct ttpu_jstream *js,
		     struct ttpu_error *err);
/* Free the pending state, and the program too unless @keep_prog. */
void ttpu_loader_fini(struct ttpu_loader *L, bool keep_prog);

/*
 * The program object at the cursor (@path names it in messages: "" for a
 * whole document, "program" in a request): read, validated and planned.
 * L->prog is the loaded program on success.
 */
int ttpu_loader_load(struct ttpu_loader *L, const char *path);

#endif /* TTPU_PROGRAM_LOAD_H */
