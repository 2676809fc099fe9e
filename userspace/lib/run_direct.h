/* SPDX-License-Identifier: MIT */
/*
 * run_direct.h - the reference executor: one command at a time
 */
#ifndef TTPU_RUN_DIRECT_H
#define TTPU_RUN_DIRECT_H

#include "ttpu-run.h"

/**
 * ttpu_run_direct() - execute @prog command by command, exactly as the
 * contract words it, with no plan and no engine
 * Same outputs, errors and response keys as ttpu_run() (engine "direct").
 * It is the tests' oracle for the planned path and the benchmarks'
 * pass-at-a-time baseline.
 */
int ttpu_run_direct(const ttpu_program *prog, const ttpu_inputs *in,
		    ttpu_result **out, struct ttpu_error *err);

#endif /* TTPU_RUN_DIRECT_H */
