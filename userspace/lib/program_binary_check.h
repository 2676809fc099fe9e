/* SPDX-License-Identifier: MIT */
/*
 * program_binary_check.h - what a valid record of a compiled program is,
 * and the two ways the loader (program_binary_load.c) checks the image's
 * commands and plan against it
 *
 * The precise checker walks every record through the predicates below and
 * names the first one that is wrong. The fast verifier
 * (program_binary_fast.c) tests the same conditions with fewer
 * instructions and can only say "all valid" or "ask the precise checker";
 * so what loads and what error a file gets do not depend on it.
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

/* [first, first + n) lies within [0, total). */
static inline bool ttpu_binary_range_ok(uint64_t first, uint64_t n, uint64_t total)
{
	return first <= total && n <= total - first;
}

/* Whether buffer @b exists and is of dtype i8 (a pass's or link's operand). */
bool ttpu_binary_i8_buffer(const struct ttpu_program *p, uint32_t b);

/* An epilogue's bias: none, or a buffer with an element for each dst column. */
bool ttpu_binary_bias_ok(const struct ttpu_program *p, const struct ttpu_window *dst,
			 uint32_t bias);

/* Command @i, @c: its op, relu, slot and buffers in range. */
bool ttpu_binary_command_ok(const struct ttpu_program *p, const struct ttpu_command *c,
			    size_t i);

/* Pass slot @s names a command that is a pass. */
bool ttpu_binary_pass_slot_ok(const struct ttpu_program *p, size_t s);

/* Stage @st: its kind, command range and job, chain, deferred ranges. */
bool ttpu_binary_stage_ok(const struct ttpu_program *p, const struct ttpu_stage *st);

/* Chain @ch of stage @st, apart from its steps: job, step range, relu, bias. */
bool ttpu_binary_chain_ok(const struct ttpu_program *p, const struct ttpu_stage *st,
			  const struct ttpu_chain *ch);

/* Step @x of a chain summed by job @job: acc command, slot, link or tmp tile. */
bool ttpu_binary_step_ok(const struct ttpu_program *p, const struct ttpu_job *job,
			 const struct ttpu_step *x);

/* Deferred pass @x of stage @st: a job of the stage, a slot with a tmp tile. */
bool ttpu_binary_deferred_ok(const struct ttpu_program *p, const struct ttpu_stage *st,
			     const struct ttpu_deferred *x);

/*
 * The fast verifier: true only if every command and pass slot
 * (ttpu_binary_command_ok(), ttpu_binary_pass_slot_ok()) is valid; false
 * may be either.
 */
bool ttpu_binary_commands_fast(const struct ttpu_program *p);

/*
 * The same for the plan: every tmp index, job, link, stage, chain, step and
 * deferred pass valid, and the largest stage of plan->max_stage_jobs jobs.
 */
bool ttpu_binary_plan_fast(const struct ttpu_program *p);

#endif /* TTPU_PROGRAM_BINARY_CHECK_H */
