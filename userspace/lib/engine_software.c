// SPDX-License-Identifier: MIT
/*
 * engine_software.c - job sums on the CPU
 *
 * Per run, every i8 buffer a pass reads is copied once into int16 with
 * three zero rows and columns of padding: A-side operands row-major,
 * B-side operands transposed, so both operands of an output element are
 * contiguous. A window that starts inside its buffer then lies inside the
 * padded copy, and one that starts outside contributes nothing, so the
 * inner loop has no bounds checks. Links that walk K (a.c and b.r both
 * advancing by 4, as a tiled matmul's passes do) are merged into one long
 * dot product per output element, which the compiler vectorises (pmaddwd
 * on x86; on armhf, whose Debian code has no NEON, engine_software_neon.c
 * does it with NEON where the CPU has it). Copies are redone only when
 * the runner bumped the buffer's version.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "engine_software_neon.h"
#include "engine_software_walks.h"
#include "error.h"
#include "run_range_neon.h"
#include "util.h"

struct packed {
	int16_t *a;			/* [rows + 3][cols + 3] */
	int16_t *bt;			/* [cols + 3][rows + 3], B transposed */
	uint64_t a_version;
	uint64_t bt_version;
};

struct sw_run {
	struct packed *p;		/* by buffer */
};

/* Product terms are at most 2^14 and jobs at most 2^17 terms long: int32 is exact. */
__attribute__((optimize("O3")))
static int32_t dot(const int16_t *restrict x, const int16_t *restrict y, size_t n)
{
	int32_t s = 0;

	for (size_t k = 0; k < n; k++)
		s += (int32_t)x[k] * y[k];
	return s;
}

static int pack(struct ttpu_run_ctx *ctx, uint32_t buf, bool transposed,
		struct ttpu_error *err)
{
	struct sw_run *sw = ctx->engine_scratch;
	struct packed *pk = &sw->p[buf];
	const struct ttpu_buffer *b = &ctx->prog->buffers[buf];
	const int8_t *d = ctx->data[buf];
	int16_t **dst = transposed ? &pk->bt : &pk->a;
	uint64_t *ver = transposed ? &pk->bt_version : &pk->a_version;
	size_t rows = b->rows, cols = b->cols;

	if (*dst && *ver == ctx->version[buf])
		return 0;
	if (!*dst) {
		*dst = calloc((rows + 3) * (cols + 3), sizeof(int16_t));
		if (!*dst)
			return ttpu_error_nomem(err, "packing an operand (software engine)");
	}
	/* Padding stays zero from calloc; only the data part is rewritten. */
	if (transposed) {
		for (size_t r = 0; r < rows; r++)
			for (size_t c = 0; c < cols; c++)
				(*dst)[c * (rows + 3) + r] = d[r * cols + c];
	} else {
		for (size_t r = 0; r < rows; r++)
			for (size_t c = 0; c < cols; c++)
				(*dst)[r * (cols + 3) + c] = d[r * cols + c];
	}
	*ver = ctx->version[buf];
	return 0;
}

static int sw_run_begin(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx,
			struct ttpu_error *err)
{
	struct sw_run *sw = calloc(1, sizeof(*sw));

	if (sw)
		sw->p = calloc(ctx->prog->nbuffers + 1, sizeof(*sw->p));
	if (!sw || !sw->p) {
		free(sw);
		return ttpu_error_nomem(err, "starting the software engine");
	}
	ctx->engine_scratch = sw;
	return 0;
}

static void sw_run_end(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx)
{
	struct sw_run *sw = ctx->engine_scratch;

	if (!sw)
		return;
	for (size_t i = 0; i < ctx->prog->nbuffers; i++) {
		free(sw->p[i].a);
		free(sw->p[i].bt);
	}
	free(sw->p);
	free(sw);
	ctx->engine_scratch = NULL;
}

/* Add the sum of one K-walk into out, with NEON or without. */
static void add_walk(const struct ttpu_run_ctx *ctx, const struct ttpu_link *l,
		     uint32_t n, bool neon, int32_t out[16])
{
	const struct sw_run *sw = ctx->engine_scratch;
	const struct ttpu_buffer *ab = &ctx->prog->buffers[l->a.buf];
	const struct ttpu_buffer *bb = &ctx->prog->buffers[l->b.buf];
	size_t as = (size_t)ab->cols + 3, bs = (size_t)bb->rows + 3;
	const int16_t *a = sw->p[l->a.buf].a + (size_t)l->a.r * as + l->a.c;
	const int16_t *b = sw->p[l->b.buf].bt + (size_t)l->b.c * bs + l->b.r;
	size_t len = (size_t)n * TTPU_TILE;

	if (neon) {
		for (int i = 0; i < TTPU_TILE; i++)
			ttpu_sw_dot4_neon(a + i * as, b, bs, len, &out[i * TTPU_TILE]);
		return;
	}
	for (int i = 0; i < TTPU_TILE; i++)
		for (int j = 0; j < TTPU_TILE; j++)
			out[i * TTPU_TILE + j] += dot(a + i * as, b + j * bs, len);
}

/*
 * From how many links (64 products each) a stage's jobs are shared by two
 * threads: about 0.2 ms of NEON products on the board's A9 (engine_software_neon.c),
 * several times what starting and joining a thread costs there.
 */
#define THREAD_MIN_LINKS 4096

unsigned long ttpu_software_shared_stages;

/* A stage's jobs [begin, end) and what summing them reads. */
struct sw_share {
	const struct ttpu_run_ctx *ctx;
	const struct ttpu_stage *stage;
	const struct ttpu_sw_walks *walks;
	const uint8_t *host_job;
	int32_t (*sums)[16];
	uint32_t begin, end;
	bool neon;			/* ttpu_range_neon_on(), asked once */
};

/* Each job writes only its own sums; the packed operands are only read. */
static void *sum_jobs(void *arg)
{
	const struct sw_share *s = arg;
	const struct ttpu_link *links = s->ctx->prog->plan->links;

	for (uint32_t j = s->begin; j < s->end; j++) {
		uint32_t job = s->stage->first_job + j;

		if (s->host_job && s->host_job[j])
			continue;	/* the runner's, fused with its range check */
		memset(s->sums[j], 0, sizeof(s->sums[j]));
		for (uint32_t k = s->walks->first[job]; k < s->walks->first[job + 1]; k++)
			add_walk(s->ctx, &links[s->walks->walk[k].link], s->walks->walk[k].n,
				 s->neon, s->sums[j]);
	}
	return NULL;
}

/*
 * Pack every operand the stage's jobs read (before any thread sums:
 * packing writes the engine's scratch) and count their links; whether
 * the runner keeps any job (then it may be computing on the other core).
 */
static int pack_stage(struct ttpu_run_ctx *ctx, const struct sw_share *s, uint64_t *links,
		      bool *runner_jobs, struct ttpu_error *err)
{
	const struct ttpu_link *all = ctx->prog->plan->links;
	int ret = 0;

	*links = 0;
	*runner_jobs = false;
	for (uint32_t j = 0; j < s->stage->njobs && !ret; j++) {
		uint32_t job = s->stage->first_job + j;

		if (s->host_job && s->host_job[j]) {
			*runner_jobs = true;
			continue;
		}
		for (uint32_t k = s->walks->first[job]; k < s->walks->first[job + 1] && !ret; k++) {
			const struct ttpu_link *l = &all[s->walks->walk[k].link];

			ret = pack(ctx, l->a.buf, false, err);
			if (!ret)
				ret = pack(ctx, l->b.buf, true, err);
			*links += s->walks->walk[k].n;
		}
	}
	return ret;
}

/* The job after which about half of the stage's links are summed. */
static uint32_t half_way(const struct sw_share *s, uint64_t links)
{
	uint64_t done = 0;
	uint32_t j = 0;

	for (; j < s->stage->njobs && 2 * done < links; j++) {
		uint32_t job = s->stage->first_job + j;

		if (s->host_job && s->host_job[j])
			continue;
		for (uint32_t k = s->walks->first[job]; k < s->walks->first[job + 1]; k++)
			done += s->walks->walk[k].n;
	}
	return j;
}

static int sw_compute_stage(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx,
			    const struct ttpu_stage *stage, const uint8_t *host_job,
			    int32_t (*sums)[16], struct ttpu_error *err)
{
	struct sw_share all = {
		.ctx = ctx, .stage = stage, .walks = ttpu_sw_walks_of(ctx->prog),
		.host_job = host_job, .sums = sums, .end = stage->njobs,
		.neon = ttpu_range_neon_on(),
	};
	struct sw_share first;
	int threads = ttpu_threads_env();
	uint64_t links;
	bool runner_jobs;
	pthread_t th;
	int ret;

	if (!all.walks)
		return ttpu_error_nomem(err, "merging links (software engine)");
	ret = pack_stage(ctx, &all, &links, &runner_jobs, err);
	if (ret)
		return ret;
	/*
	 * Two threads unless the runner computes some of the stage's chains
	 * itself: then it has a second thread of its own (run.c).
	 */
	if (threads != 1 && !runner_jobs && stage->njobs > 1 &&
	    (threads == 2 || links >= THREAD_MIN_LINKS)) {
		first = all;
		first.end = all.begin = half_way(&all, links);
		if (!pthread_create(&th, NULL, sum_jobs, &first)) {
			sum_jobs(&all);
			pthread_join(th, NULL);
			__atomic_fetch_add(&ttpu_software_shared_stages, 1, __ATOMIC_RELAXED);
			return 0;
		}
		all.begin = 0;
	}
	sum_jobs(&all);
	return 0;
}

/* The K-walks, made at the first compute_stage() of a run otherwise. */
static int sw_prepare(struct ttpu_engine *eng, const struct ttpu_program *prog,
		      struct ttpu_error *err)
{
	if (!ttpu_sw_walks_of(prog))
		return ttpu_error_nomem(err, "merging links (software engine)");
	return 0;
}

static void sw_close(struct ttpu_engine *eng)
{
	free(eng);
}

static const struct ttpu_engine_ops sw_ops = {
	.prepare = sw_prepare,
	.run_begin = sw_run_begin,
	.compute_stage = sw_compute_stage,
	.run_end = sw_run_end,
	.close = sw_close,
};

/* The CPU is always there: AUTO's last resort. */
static int sw_present(const char *device, char *why, size_t why_size,
		      struct ttpu_error *err)
{
	return 1;
}

static int sw_open(const char *device, struct ttpu_engine **out,
		   struct ttpu_error *err)
{
	struct ttpu_engine *eng = calloc(1, sizeof(*eng));

	*out = NULL;
	if (!eng)
		return ttpu_error_nomem(err, "starting the software engine");
	eng->ops = &sw_ops;
	snprintf(eng->reason, sizeof(eng->reason), "software engine requested");
	*out = eng;
	return 0;
}

const struct ttpu_engine_type ttpu_software_engine_type = {
	.name = "software",
	.present = sw_present,
	.open = sw_open,
};
