/* SPDX-License-Identifier: MIT */
/*
 * error.h - filling struct ttpu_error
 *
 * Every helper accepts a NULL @err (the caller did not ask for details) and
 * the ttpu_error_set*() functions return -kind, so a failure path reads
 * "return ttpu_error_set(err, TTPU_SCHEMA_ERROR, ...);".
 */
#ifndef TTPU_ERROR_H
#define TTPU_ERROR_H

#include <stddef.h>

#include "ttpu-run.h"

/* Reset every field to "unknown" (command -1, element -1, ...). */
void ttpu_error_clear(struct ttpu_error *err);

/* ttpu_error_set() and ttpu_error_sys() are public: ttpu-run.h. */

/* Out of memory while doing @what. */
int ttpu_error_nomem(struct ttpu_error *err, const char *what);

/* Where it happened; call after ttpu_error_set(). */
void ttpu_error_at_command(struct ttpu_error *err, long command, const char *op);
void ttpu_error_at_field(struct ttpu_error *err, const char *field);
void ttpu_error_at_buffer(struct ttpu_error *err, const char *name);
void ttpu_error_at_element(struct ttpu_error *err, long element, long row,
			   long col);

#endif /* TTPU_ERROR_H */
