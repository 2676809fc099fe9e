// SPDX-License-Identifier: MIT
/*
 * engine_npukit.c - the NpuKit engine: plan jobs as 8x8 kicks on /dev/npukit
 *
 * A job (plan.h) is a 4x4 result summed over K-steps ("links"), each link
 * one 4x4x4 product. An 8x8 kick is a 2x2 grid of 4x4 blocks:
 *
 *	C8[p][q] = A8[p][0] * B8[0][q] + A8[p][1] * B8[1][q]
 *
 * so one kick carries two K-steps of up to four jobs. A "group" names the
 * job whose A windows feed block row p (row[p]) and the job whose B
 * windows feed block column q (col[q]); kick t of the group loads links
 * 2t and 2t+1 and the array accumulates over t on chip (CLEAR only on the
 * first kick), so each group is read back once.
 *
 *  - quad: four jobs of a 2x2 output block of the compiler's tiling share
 *    A rows and B columns: row = (X00, X10), col = (X00, X01), all four
 *    blocks of C8 are results. 8 passes per kick.
 *  - pair: any two jobs: row = col = (X, Y); C8[0][0] is X, C8[1][1] is Y,
 *    the off-diagonal blocks are discarded. 4 passes per kick.
 *  - single: row = col = (X, -); C8[0][0]. 2 passes per kick.
 *
 * Exactness: every job sum is bounded by TTPU_CHAIN_MAX_STEPS * 2^16 < 2^31
 * (plan.h), so the on-chip int32 accumulators of result blocks never wrap;
 * discarded blocks may wrap harmlessly. A group longer than one SUBMIT can
 * carry is split into segments, each cleared and read back; the host adds
 * the segments, which is exact for the same reason.
 *
 * The runner's jobs (run_split.h: chains into i8, which it computes with
 * their exact range checks) are in no group: their sums are left alone, and
 * a stage of only such jobs makes no SUBMIT. The groups, of every job or of
 * the device's, are made once per program (engine_npukit_groups.c).
 *
 * All groups of a stage go into as few SUBMIT ioctls as the driver's
 * max_kicks / max_results allow: one per dependency stage of up to
 * NPUKIT_ENGINE_CHUNK_KICKS kicks. A larger stage goes in chunks of that
 * many, pipelined on the A9's two cores: a worker thread SUBMITs chunk i
 * while this one packs chunk i + 1 (engine_npukit_worker.c), then collects
 * chunk i. The chunks are the very SUBMITs that a stage capped at that
 * many kicks makes on one thread, in the same order, and the first that
 * fails ends the stage with its DeviceError.
 *
 * Packing (engine_npukit_pack.c): a kick of the compiler's tiling is 16
 * rows of 8 bytes copied from offsets worked out with the groups, in NEON
 * where the CPU has it. On a served MLP request whose layers all go to
 * the device (784-128-10, batch 64, 12,800 kicks; make bench-board,
 * armhf, counted under qemu-arm), packing and collecting took 2.26 M
 * instructions (177 a kick) with each kick's links looked up; now 1.46 M
 * (114) scalar and 0.81-0.82 M (64) with NEON (Documentation/host-cost.rst,
 * "Packing").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npukit.h"

#include "engine.h"
#include "engine_npukit_groups.h"
#include "engine_npukit_pack.h"
#include "engine_npukit_worker.h"
#include "error.h"
#include "util.h"

/* Our own cap per SUBMIT: 16384 kicks is 2.2 MB of kicks per ioctl. */
#define NPUKIT_ENGINE_MAX_KICKS 16384
#define NPUKIT_DEFAULT_TIMEOUT_MS 60000

struct ttpu_npukit_engine {
	int fd;
	char path[256];
	struct npukit_info info;
	uint32_t max_kicks;
	uint32_t max_results;
	int64_t timeout_ns;
};

/*
 * Kicks a SUBMIT carries when a stage takes several: the worker thread
 * SUBMITs one chunk while the caller packs the next. 1024 kicks is ~2.2 ms
 * of the board's bus time against ~0.1 ms of packing them with NEON.
 */
#define NPUKIT_ENGINE_CHUNK_KICKS 1024

/* A span of a group's kicks inside one SUBMIT, read back into a slot. */
struct npk_segment {
	uint32_t group;
	uint32_t first_step;		/* first link index (even) */
	uint32_t nsteps;
	uint32_t slot;
};

/* The kicks, result slots and segments of one SUBMIT. */
struct npk_batch {
	struct npukit_kick *kicks;
	size_t kicks_cap;
	int32_t (*results)[NPUKIT_TILE_ELEMS];
	size_t results_cap;
	struct npk_segment *segs;
	size_t segs_cap;
	size_t nkicks, nsegs;
};

/* A SUBMIT handed to the worker thread, and what it returned. */
struct npk_job {
	struct ttpu_npukit_engine *ne;
	struct ttpu_run_ctx *ctx;
	const struct ttpu_stage *st;
	struct npk_batch *batch;
	struct ttpu_error *err;
	int ret;
};

struct npk_run {
	struct npk_batch batch[2];	/* one SUBMITs while the other is packed */
	struct npk_worker *worker;	/* made at the first stage of chunks */
	bool no_worker;			/* a thread could not be made: serial */
	struct npk_job job;
};

/* Where packing a stage has got to: group @gi, link @step. */
struct npk_cursor {
	size_t gi;
	uint32_t step;
};

static const char *status_name(uint32_t status)
{
	switch (status) {
	case NPUKIT_STATUS_OK: return "ok";
	case NPUKIT_STATUS_TIMEOUT: return "timeout";
	case NPUKIT_STATUS_DMA_ERROR: return "DMA error";
	case NPUKIT_STATUS_DEVICE_HANG: return "device hang";
	case NPUKIT_STATUS_INTERRUPTED: return "interrupted";
	case NPUKIT_STATUS_DEVICE_FAILED:
		return "device failed, until the driver's retries or root's reset "
		       "(/sys/class/misc/npukitN/reset) prove it clean";
	default: return "unknown status";
	}
}

/*
 * The driver pins a SUBMIT's result slots against the caller's
 * RLIMIT_MEMLOCK (ENOMEM over it, without CAP_IPC_LOCK; kernels before
 * 5.16 default to 64 KiB). Two SUBMITs of a run can be in flight (the
 * worker's and this thread's), each a page more than its slots: keep both
 * within the limit, so that an ordinary user's run never meets ENOMEM.
 */
static uint32_t memlock_results(uint32_t max_results)
{
	const uint64_t page = 4096, tiles_a_page = page / sizeof(int32_t[64]);
	struct rlimit rl;
	uint64_t pages, slots;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return max_results;
	pages = rl.rlim_cur / page / 2;
	slots = pages > 1 ? (pages - 1) * tiles_a_page : 1;
	return slots < max_results ? (uint32_t)slots : max_results;
}

/* One SUBMIT; retried on EINTR/EAGAIN like libdrm's drmIoctl. */
static int submit(struct ttpu_npukit_engine *ne, struct ttpu_run_ctx *ctx,
		  const struct ttpu_stage *st, const struct npk_batch *r,
		  struct ttpu_error *err)
{
	size_t nkicks = r->nkicks, nslots = r->nsegs;
	struct npukit_submit s;
	int ret;

	do {
		memset(&s, 0, sizeof(s));
		s.size = sizeof(s);
		s.kicks_ptr = (uintptr_t)r->kicks;
		s.results_ptr = (uintptr_t)r->results;
		s.kick_count = nkicks;
		s.kick_size = sizeof(struct npukit_kick);
		s.result_count = nslots;
		s.timeout_ns = (int64_t)ttpu_now_ns() + ne->timeout_ns;
		ret = ioctl(ne->fd, NPUKIT_IOCTL_SUBMIT, &s);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));

	ctx->stats.ioctls++;
	ctx->stats.kicks += s.kicks_done;
	ctx->stats.mmio_reads += s.mmio_reads;
	ctx->stats.mmio_writes += s.mmio_writes;
	ctx->stats.dma_bytes += s.dma_bytes;
	ctx->stats.device_ns += s.device_ns;
	if (ret == 0)
		return 0;
	ret = errno;
	/*
	 * How far the run got: which SUBMIT of the run, how many of its kicks
	 * completed, and the device's status. Arguments the driver refused
	 * leave status at OK: say "rejected" rather than "ok".
	 */
	ttpu_error_set(err, TTPU_DEVICE_ERROR,
		       "%s: SUBMIT %llu of the run (%zu kicks, commands %u..%u) failed after %u kicks: %s (status: %s)",
		       ne->path, (unsigned long long)ctx->stats.ioctls, nkicks, st->first_cmd,
		       st->end_cmd - 1, s.kicks_done, strerror(ret),
		       s.status == NPUKIT_STATUS_OK ? "rejected" : status_name(s.status));
	ttpu_error_at_command(err, st->first_cmd,
			      ttpu_op_names[ctx->prog->cmds[st->first_cmd].op]);
	if (err)
		err->sys_errno = ret;
	return -TTPU_DEVICE_ERROR;
}

/* Add the read-back blocks of every segment of this batch into the job sums. */
static void collect(const struct npk_batch *r, const struct npk_group *groups,
		    int32_t (*sums)[16], bool neon)
{
	for (size_t s = 0; s < r->nsegs; s++)
		ttpu_npukit_collect(&groups[r->segs[s].group], r->results[r->segs[s].slot], sums,
				    neon);
}

/* The worker's task: one SUBMIT. */
static void submit_job(void *p)
{
	struct npk_job *job = p;

	job->ret = submit(job->ne, job->ctx, job->st, job->batch, job->err);
}

static int batch_grow(struct npk_batch *b, uint32_t kicks, uint32_t results)
{
	return ttpu_grow(&b->kicks, &b->kicks_cap, kicks, sizeof(*b->kicks)) ||
	       ttpu_grow(&b->results, &b->results_cap, results, sizeof(*b->results)) ||
	       ttpu_grow(&b->segs, &b->segs_cap, results, sizeof(*b->segs));
}

/*
 * Pack kicks from @cur on into @b, up to @cap kicks and the driver's
 * result slots: each group's span a segment, cleared on its first kick and
 * read back on its last. @b stays empty once every group is packed.
 */
static void fill_batch(const struct ttpu_npukit_engine *ne, const struct ttpu_run_ctx *ctx,
		       const struct ttpu_stage *st, const struct npk_stage_groups *sg,
		       struct npk_cursor *cur, struct npk_batch *b, uint32_t cap, bool neon)
{
	b->nkicks = b->nsegs = 0;
	while (cur->gi < sg->ngroups && b->nkicks < cap && b->nsegs < ne->max_results) {
		const struct npk_group *g = &sg->groups[cur->gi];
		uint32_t left = (g->nsteps - cur->step + 1) / 2;
		uint32_t room = cap - (uint32_t)b->nkicks;
		uint32_t take = left < room ? left : room;
		struct npukit_kick *k = &b->kicks[b->nkicks];
		struct npk_segment *seg = &b->segs[b->nsegs];

		seg->group = cur->gi;
		seg->first_step = cur->step;
		seg->slot = b->nsegs++;
		seg->nsteps = take * 2;
		ttpu_npukit_pack(ctx->prog, ctx->data, st, sg, g, cur->step / 2, take, k, neon);
		k[0].flags = NPUKIT_KICK_CLEAR;
		k[take - 1].flags |= NPUKIT_KICK_READ_C;
		k[take - 1].c_slot = seg->slot;
		b->nkicks += take;
		cur->step += take * 2;
		if (cur->step >= g->nsteps) {
			cur->gi++;
			cur->step = 0;
		}
	}
}

/*
 * The stage's chunks after the first (packed in r->batch[0]): while the
 * worker SUBMITs one, this thread packs the next, then collects the first
 * once the worker is done. The same SUBMITs, in the same order, as one
 * thread would make; the first that fails ends the stage with its error.
 */
static int run_pipelined(struct ttpu_npukit_engine *ne, struct ttpu_run_ctx *ctx,
			 const struct ttpu_stage *st, const struct npk_stage_groups *sg,
			 struct npk_cursor *cur, uint32_t cap, int32_t (*sums)[16],
			 struct ttpu_error *err, bool neon)
{
	struct npk_run *r = ctx->engine_scratch;
	int i = 0;

	r->job = (struct npk_job){ .ne = ne, .ctx = ctx, .st = st, .err = err };
	for (;;) {
		struct npk_batch *now = &r->batch[i], *next = &r->batch[i ^ 1];

		r->job.batch = now;
		npk_worker_post(r->worker, submit_job, &r->job);
		fill_batch(ne, ctx, st, sg, cur, next, cap, neon);
		npk_worker_wait(r->worker);
		if (r->job.ret)
			return r->job.ret;
		collect(now, sg->groups, sums, neon);
		if (!next->nkicks)
			return 0;
		i ^= 1;
	}
}

/*
 * The groups of @st for @host_job: the program's cached set, or, for a mask
 * that is not the program's own (run_split.h), groups made for it in @own.
 */
static const struct npk_stage_groups *stage_groups(const struct ttpu_program *prog,
						   const struct ttpu_stage *st,
						   const uint8_t *host_job,
						   struct npk_stage_groups *own)
{
	const struct npk_stage_groups *sg = ttpu_npukit_stage_groups(prog, st, host_job != NULL);
	bool same = true;

	if (!sg || !host_job)
		return sg;
	if (sg->host_job)
		same = !memcmp(sg->host_job, host_job, st->njobs);
	else
		for (uint32_t j = 0; j < st->njobs; j++)
			same &= !host_job[j];
	if (same)
		return sg;
	return ttpu_npukit_stage_groups_make(prog, st, host_job, own) ? NULL : own;
}

static int ttpu_npukit_compute_stage(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx,
				const struct ttpu_stage *st, const uint8_t *host_job,
				int32_t (*sums)[16], struct ttpu_error *err)
{
	struct ttpu_npukit_engine *ne = eng->priv;
	struct npk_run *r = ctx->engine_scratch;
	struct npk_stage_groups own = { .groups = NULL };
	const struct npk_stage_groups *sg;
	bool neon = ttpu_npukit_pack_neon_on();
	struct npk_cursor cur = { 0, 0 };
	uint32_t cap = ne->max_kicks;
	int ret = 0;

	if (!st->njobs)
		return 0;
	/* The runner's jobs' sums are its own: untouched. */
	if (!host_job)
		memset(sums, 0, st->njobs * sizeof(*sums));
	else
		for (uint32_t j = 0; j < st->njobs; j++)
			if (!host_job[j])
				memset(sums[j], 0, sizeof(*sums));
	sg = stage_groups(ctx->prog, st, host_job, &own);
	if (!sg)
		goto nomem;
	/* More than a chunk: SUBMITs of chunks, packed and sent side by side. */
	if (cap > NPUKIT_ENGINE_CHUNK_KICKS)
		cap = NPUKIT_ENGINE_CHUNK_KICKS;
	if (sg->nkicks > cap && !r->worker && !r->no_worker) {
		r->worker = npk_worker_start();
		r->no_worker = !r->worker;
	}
	if (sg->nkicks <= cap || !r->worker)
		cap = ne->max_kicks;
	if (batch_grow(&r->batch[0], cap, ne->max_results) ||
	    (r->worker && batch_grow(&r->batch[1], cap, ne->max_results)))
		goto nomem;
	fill_batch(ne, ctx, st, sg, &cur, &r->batch[0], cap, neon);
	if (r->worker && cur.gi < sg->ngroups) {
		ret = run_pipelined(ne, ctx, st, sg, &cur, cap, sums, err, neon);
		goto out;
	}
	/* One thread: pack, SUBMIT, collect, chunk after chunk. */
	while (r->batch[0].nkicks) {
		ret = submit(ne, ctx, st, &r->batch[0], err);
		if (ret)
			break;
		collect(&r->batch[0], sg->groups, sums, neon);
		fill_batch(ne, ctx, st, sg, &cur, &r->batch[0], cap, neon);
	}
out:
	ttpu_npukit_stage_groups_release(&own);
	return ret;

nomem:
	ttpu_npukit_stage_groups_release(&own);
	return ttpu_error_nomem(err, "planning NpuKit kicks");
}

/*
 * The kick groups of the device's jobs (the runner always passes its mask
 * of the jobs it keeps): one set for every stage, made at the first
 * stage_groups() of a run otherwise. A program without a MATMUL stage
 * has none to make.
 */
static int npukit_prepare(struct ttpu_engine *eng, const struct ttpu_program *prog,
			  struct ttpu_error *err)
{
	const struct ttpu_plan *plan = prog->plan;

	for (size_t i = 0; i < plan->nstages; i++)
		if (plan->stages[i].kind == TTPU_STAGE_MATMUL)
			return ttpu_npukit_stage_groups(prog, &plan->stages[i], true) ? 0 :
				ttpu_error_nomem(err, "planning NpuKit kicks");
	return 0;
}

static int npukit_run_begin(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx,
			    struct ttpu_error *err)
{
	ctx->engine_scratch = calloc(1, sizeof(struct npk_run));
	if (!ctx->engine_scratch)
		return ttpu_error_nomem(err, "starting an NpuKit run");
	return 0;
}

static void npukit_run_end(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx)
{
	struct npk_run *r = ctx->engine_scratch;

	if (!r)
		return;
	npk_worker_stop(r->worker);
	for (int i = 0; i < 2; i++) {
		free(r->batch[i].kicks);
		free(r->batch[i].results);
		free(r->batch[i].segs);
	}
	free(r);
	ctx->engine_scratch = NULL;
}

static void npukit_close(struct ttpu_engine *eng)
{
	struct ttpu_npukit_engine *ne = eng->priv;

	close(ne->fd);
	free(ne);
	free(eng);
}

static const struct ttpu_engine_ops npukit_ops = {
	.prepare = npukit_prepare,
	.run_begin = npukit_run_begin,
	.compute_stage = ttpu_npukit_compute_stage,
	.run_end = npukit_run_end,
	.close = npukit_close,
};

static int device_error(struct ttpu_error *err, const char *path, int e, const char *what)
{
	ttpu_error_set(err, TTPU_DEVICE_ERROR, "%s: %s: %s", path, what, strerror(e));
	if (err)
		err->sys_errno = e;
	return -TTPU_DEVICE_ERROR;
}

/*
 * What a board owner does about a failed open(): the two usual causes
 * have a fix, documented on the bring-up page.
 */
static const char *open_failure_hint(int e)
{
	switch (e) {
	case ENOENT:
	case ENXIO:
	case ENODEV:
		return "cannot open (no NpuKit there: load the bitstream and its overlay, then the module; see Documentation/npukit/pynq-z2.rst)";
	case EACCES:
	case EPERM:
		return "cannot open (permission denied: join group npukit, or run as root; see Documentation/npukit/pynq-z2.rst, access without root)";
	default:
		return "cannot open";
	}
}

/* ---- presence and opening: the engine table's entry ------------------- */

static const char *const default_nodes[] = { "/dev/npukit0", "/dev/npukit" };

static int node_exists(const char *path, struct ttpu_error *err)
{
	struct stat st;

	if (!stat(path, &st))
		return 1;
	if (errno == ENOENT || errno == ENOTDIR)
		return 0;
	int e = errno;

	ttpu_error_set(err, TTPU_DEVICE_ERROR, "cannot look at %s: %s", path, strerror(e));
	if (err)
		err->sys_errno = e;
	return -TTPU_DEVICE_ERROR;
}

/* The first default node that exists, or NULL in *@node when none does. */
static int find_default_node(const char **node, struct ttpu_error *err)
{
	int ret;

	*node = NULL;
	for (size_t i = 0; i < sizeof(default_nodes) / sizeof(default_nodes[0]); i++) {
		ret = node_exists(default_nodes[i], err);
		if (ret < 0)
			return ret;
		if (ret) {
			*node = default_nodes[i];
			break;
		}
	}
	return 0;
}

/*
 * Present when the node exists: one that exists but cannot be used is
 * open()'s DeviceError, not a reason for AUTO to use the CPU instead.
 */
static int npukit_present(const char *device, char *why, size_t why_size,
			  struct ttpu_error *err)
{
	const char *node = device;
	int ret = device ? node_exists(device, err) : find_default_node(&node, err);

	if (ret < 0)
		return ret;
	if (!device)
		ret = node != NULL;
	if (!ret)
		snprintf(why, why_size, "no %s", device ? device : "/dev/npukit0 or /dev/npukit");
	return ret;
}

static int npukit_open(const char *device, struct ttpu_engine **out,
		       struct ttpu_error *err)
{
	struct ttpu_npukit_engine *ne;
	struct ttpu_engine *eng;
	const char *env;
	int ret;

	/*
	 * The same default nodes as AUTO looks for, so that asking for this
	 * engine never finds less than AUTO would; with neither present the
	 * error names /dev/npukit0.
	 */
	if (!device) {
		ret = find_default_node(&device, err);
		if (ret < 0)
			return ret;
	}
	ne = calloc(1, sizeof(*ne));
	eng = calloc(1, sizeof(*eng));
	if (!ne || !eng) {
		free(ne);
		free(eng);
		return ttpu_error_nomem(err, "opening the NpuKit engine");
	}
	snprintf(ne->path, sizeof(ne->path), "%s", device ? device : "/dev/npukit0");
	ne->fd = open(ne->path, O_RDWR | O_CLOEXEC);
	if (ne->fd < 0) {
		ret = device_error(err, ne->path, errno, open_failure_hint(errno));
		goto fail;
	}
	ne->info.size = sizeof(ne->info);
	if (ioctl(ne->fd, NPUKIT_IOCTL_GET_INFO, &ne->info)) {
		ret = device_error(err, ne->path, errno, "GET_INFO failed (not an npukit device?)");
		goto fail_close;
	}
	if (ne->info.uapi_version != NPUKIT_UAPI_VERSION || ne->info.array_n != NPUKIT_TILE_N ||
	    ne->info.kick_size < sizeof(struct npukit_kick) || !ne->info.max_kicks ||
	    !ne->info.max_results) {
		ttpu_error_set(err, TTPU_DEVICE_ERROR,
			       "%s: incompatible device: UAPI version %u (need %u), array %ux%u (need 8x8), max_kicks %u, max_results %u",
			       ne->path, ne->info.uapi_version, NPUKIT_UAPI_VERSION,
			       ne->info.array_n, ne->info.array_n, ne->info.max_kicks,
			       ne->info.max_results);
		ret = -TTPU_DEVICE_ERROR;
		goto fail_close;
	}
	ne->max_kicks = ne->info.max_kicks < NPUKIT_ENGINE_MAX_KICKS ?
			ne->info.max_kicks : NPUKIT_ENGINE_MAX_KICKS;
	/* A lower cap bounds the time one ioctl holds the device. */
	env = getenv("TTPU_NPUKIT_MAX_KICKS");
	if (env && atol(env) > 0 && (unsigned long)atol(env) < ne->max_kicks)
		ne->max_kicks = atol(env);
	/* Every read-back ends a kick: more slots than kicks are never used. */
	ne->max_results = ne->info.max_results < ne->max_kicks ?
			  ne->info.max_results : ne->max_kicks;
	ne->max_results = memlock_results(ne->max_results);
	env = getenv("TTPU_NPUKIT_TIMEOUT_MS");
	ne->timeout_ns = (int64_t)(env && atol(env) > 0 ? atol(env) : NPUKIT_DEFAULT_TIMEOUT_MS) *
			 1000000;
	eng->ops = &npukit_ops;
	eng->priv = ne;
	snprintf(eng->reason, sizeof(eng->reason), "%.96s: NpuKit IP %#x (%s)", ne->path,
		 ne->info.ip_version,
		 ne->info.backend == NPUKIT_BACKEND_SIMULATED ? "simulated" : "hardware");
	*out = eng;
	return 0;

fail_close:
	close(ne->fd);
fail:
	free(ne);
	free(eng);
	return ret;
}

const struct ttpu_engine_type ttpu_npukit_engine_type = {
	.name = "npukit",
	.present = npukit_present,
	.open = npukit_open,
};
