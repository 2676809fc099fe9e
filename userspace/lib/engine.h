/* SPDX-License-Identifier: MIT */
/*
 * engine.h - what an engine provides to the runner
 *
 * An engine computes the jobs of a MATMUL stage (see plan.h); everything
 * else (acc, epilogue, host ops, range checks, the response) is the
 * runner's, so every engine gives the same answers by construction as long
 * as it computes exact sums.
 */
#ifndef TTPU_ENGINE_H
#define TTPU_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "program.h"
#include "ttpu-run.h"

/**
 * struct ttpu_run_ctx - the mutable state of one run
 * @data: per buffer, its current contents (int8_t or int32_t by dtype)
 * @version: per buffer, bumped by the runner on every write, so engines can
 *	cache packed copies of operands between stages
 * @tmp: deferred pass results, 16 int32 per plan->ntmp
 * @engine_scratch: the engine's per-run state, freed by its run_end
 * @stats: counters the engine adds to (kicks, ioctls, device counters)
 */
struct ttpu_run_ctx {
	const struct ttpu_program *prog;
	void **data;
	uint64_t *version;
	int32_t *tmp;
	void *engine_scratch;
	struct ttpu_run_stats stats;
};

struct ttpu_engine_ops {
	/*
	 * Optional: derive now what this engine's runs of @prog derive from
	 * the program alone and keep with it (the first run would make it
	 * otherwise: ttpu_program_prepare(), run_prepare.c). Idempotent, and
	 * safe beside runs of @prog on other threads: whatever it makes is
	 * published once, atomically, as a first run publishes it. Returns 0
	 * or a negative ttpu_error_kind with @err filled.
	 */
	int (*prepare)(struct ttpu_engine *eng, const struct ttpu_program *prog,
		       struct ttpu_error *err);
	/* Optional: set up per-run state in ctx->engine_scratch. */
	int (*run_begin)(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx,
			 struct ttpu_error *err);
	/*
	 * sums[j - stage->first_job][0..15] = sum over the links of job j of
	 * the 4x4x4 product, row-major, for every job of @stage but those
	 * the runner computes itself: with @host_job non-NULL, a job with
	 * host_job[j - stage->first_job] set (ttpu_stage_host_jobs(),
	 * run_split.h: it depends on the program alone) is left alone, its
	 * sums[] untouched. Operands are read from ctx->data with zero padding
	 * outside each buffer; the runner may read them (never write them)
	 * from another thread meanwhile. Returns 0 or a negative
	 * ttpu_error_kind with @err filled.
	 */
	int (*compute_stage)(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx,
			     const struct ttpu_stage *stage, const uint8_t *host_job,
			     int32_t (*sums)[16], struct ttpu_error *err);
	/* Optional: free ctx->engine_scratch. Called after every run_begin. */
	void (*run_end)(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx);
	void (*close)(struct ttpu_engine *eng);
};

/**
 * struct ttpu_engine_type - one entry of the engine table (engine.c)
 * @name: what users call it ("npukit"), also the response's "engine"
 * @present: whether the engine can be used on this machine, for AUTO:
 *	1, or 0 with one line in @why saying what is missing ("no
 *	/dev/npukit0"), or a negative ttpu_error_kind when looking failed.
 *	@device is the caller's device node or NULL.
 * @open: open the engine on @device (or its default); fills (*out)->ops,
 *	->priv and ->reason. Returns 0 or a negative ttpu_error_kind.
 */
struct ttpu_engine_type {
	const char *name;
	int (*present)(const char *device, char *why, size_t why_size,
		       struct ttpu_error *err);
	int (*open)(const char *device, struct ttpu_engine **out,
		    struct ttpu_error *err);
};

struct ttpu_engine {
	const struct ttpu_engine_type *type;	/* set by ttpu_engine_open() */
	const struct ttpu_engine_ops *ops;
	char reason[160];		/* why this engine was chosen */
	void *priv;
};

/* The engines of the table, one file each. */
extern const struct ttpu_engine_type ttpu_npukit_engine_type;
extern const struct ttpu_engine_type ttpu_software_engine_type;
/* How many stages the software engine shared between two threads (tests). */
extern unsigned long ttpu_software_shared_stages;

/*
 * The reference 4x4x4 product of one link, straight from the definition
 * (zero padding by bounds checks). The single piece of code the runner's
 * step-by-step fallback, the direct executor and the engines' tests share.
 */
void ttpu_link_product(const struct ttpu_program *prog, void *const *data,
		       const struct ttpu_window *a, const struct ttpu_window *b,
		       int32_t out[16]);

#endif /* TTPU_ENGINE_H */
