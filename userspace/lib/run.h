/* SPDX-License-Identifier: MIT */
/*
 * run.h - what the runner (run.c), the direct executor (run_direct.c),
 * the host ops (run_host.c) and the results (response.c) share
 */
#ifndef TTPU_RUN_INTERNAL_H
#define TTPU_RUN_INTERNAL_H

#include "engine.h"
#include "program.h"
#include "ttpu-run.h"

/* One output of a finished run, copied so the result outlives its program. */
struct ttpu_result_output {
	char *name;
	uint8_t rank;
	uint32_t rows;
	uint32_t cols;
	size_t count;
	int32_t *data;
};

struct ttpu_result {
	struct ttpu_run_stats stats;
	struct ttpu_result_output *outputs;
	size_t noutputs;
	struct ttpu_passes_text *passes;	/* the program's, shared (response.c) */
	size_t npasses;
	int64_t first_pass_id, last_pass_id;	/* in execution order; npasses > 0 */
	struct ttpu_host_ops host_ops;
	char engine[16];
	char engine_reason[160];
};

/**
 * ttpu_run_ctx_init() - the state a run starts from
 * Buffers hold their const data, their input values or zeros. Fails with
 * an InputError naming every input that was not set, or a UsageError when
 * @in was made for another program.
 */
int ttpu_run_ctx_init(struct ttpu_run_ctx *ctx, const struct ttpu_program *prog,
		      const ttpu_inputs *in, struct ttpu_error *err);
void ttpu_run_ctx_release(struct ttpu_run_ctx *ctx);

/** response.c: copy the outputs of a finished run into a new result. */
int ttpu_result_new(const struct ttpu_program *prog,
		    const struct ttpu_run_ctx *ctx, const char *engine,
		    const char *reason, ttpu_result **out,
		    struct ttpu_error *err);

#endif /* TTPU_RUN_INTERNAL_H */
