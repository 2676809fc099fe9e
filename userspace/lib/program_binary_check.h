/* SPDX-License-Identifier: MIT */
/*
 * program_binary_check.h - how the loader (program_binary_load.c) knows
 * that a compiled program's commands are a program the JSON loader would
 * accept, and that what the file stores derived from them (the pass
 * slots, the measured figures, the plan) is exactly what they make
 *
 * Two checks, one verdict. The precise check (program_binary_check.c)
 * applies the JSON loader's rules to the commands, then derives the rest
 * as the JSON loader does (ttpu_program_measure(), ttpu_plan_build()) and
 * compares it with the file word for word, naming the first difference.
 * The fast verifier (program_binary_fast.c) proves the same equality
 * without planning, for the programs it knows how to (a pass and its acc
 * side by side, each chain's accs together: what compilers emit), and
 * says "ask the precise check" for anything else; so what loads and what
 * error a file gets do not depend on it.
 */
#ifndef TTPU_PROGRAM_BINARY_CHECK_H
#define TTPU_PROGRAM_BINARY_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"
#include "program.h"

/* Which of the two checks a load runs. Internal: tests set it. */
enum ttpu_binary_verify {
	TTPU_VERIFY_FAST,	/* fast first, the precise one if it says no (default) */
	TTPU_VERIFY_PRECISE,	/* the precise one only */
	TTPU_VERIFY_FAST_ONLY,	/* the fast one's verdict as the load's: for tests */
};
extern enum ttpu_binary_verify ttpu_binary_verify_mode;

/* A SchemaError "compiled program: ..." into @err (may be NULL); -TTPU_SCHEMA_ERROR. */
int ttpu_binary_error(struct ttpu_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * program_binary_rules.c: command @i of @p (its buffer table built and
 * checked) against the JSON loader's rules for one command; 0, or a
 * SchemaError into @err (may be NULL) with the JSON loader's message.
 */
int ttpu_binary_command_rules(const struct ttpu_program *p, size_t i, struct ttpu_error *err);

/*
 * The precise check of @p, whose buffers, inputs and outputs are checked
 * and whose commands, pass sections, measured figures and plan point into
 * the image (the plan's ntmp and max_stage_jobs from its header): 0, or a SchemaError naming the first command
 * the JSON loader would refuse, or the first word of what the file
 * stores derived from the commands that is not what they make.
 */
int ttpu_binary_check_precise(const struct ttpu_program *p, struct ttpu_error *err);

/* The fast verifier: true only if ttpu_binary_check_precise() returns 0. */
bool ttpu_binary_verify_fast(const struct ttpu_program *p);

#endif /* TTPU_PROGRAM_BINARY_CHECK_H */
