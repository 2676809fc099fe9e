// SPDX-License-Identifier: MIT
/*
 * test_planner.c - the planned path (plan + software engine + runner)
 * against the one-command-at-a-time reference executor
 *
 * Programs are built directly in their compact form, so these tests need
 * neither the loader nor JSON: random programs with edge and overlapping
 * windows, passes reading buffers that accs write, deferred passes, chains
 * broken by epilogues, and values near the dtype limits so that range
 * errors fire in the middle of chains, in epilogues and in host ops.
 */
#include <json-c/json.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "engine.h"
#include "error.h"
#include "run_direct.h"
#include "plan.h"
#include "program.h"
#include "run.h"
#include "../lib/test_rng.h"
#include "../lib/test_timeout.h"

/* ---- building programs in compact form ------------------------------ */

static uint32_t rnd(struct rng *g, uint32_t n)
{
	uint64_t v = rng_next(g);

	return n ? (uint32_t)(v % n) : 0;
}

#define MAXB 32
#define MAXC 4096

struct pbuild {
	struct ttpu_program p;
	struct ttpu_buffer bufs[MAXB];
	struct ttpu_command cmds[MAXC];
	int64_t pass_ids[MAXC];
	uint32_t pass_cmd[MAXC];
	uint32_t outputs[MAXB];
};

static uint32_t add_buf(struct pbuild *b, uint8_t dtype, uint8_t kind, uint8_t rank,
			uint32_t rows, uint32_t cols, struct rng *g, int32_t lo, int32_t hi)
{
	uint32_t i = (uint32_t)b->p.nbuffers++;
	struct ttpu_buffer *x = &b->bufs[i];
	char name[16];

	snprintf(name, sizeof(name), "b%u", i);
	x->name = strdup(name);
	x->dtype = dtype;
	x->kind = kind;
	x->rank = rank;
	x->rows = rank == 1 ? 1 : rows;
	x->cols = cols;
	x->count = (size_t)x->rows * cols;
	x->input_index = -1;
	if (kind == TTPU_KIND_CONST) {
		x->init = malloc(x->count * (dtype == TTPU_DTYPE_I8 ? 1 : 4));
		for (size_t e = 0; e < x->count; e++) {
			int64_t v = lo + (int64_t)rnd(g, (uint32_t)((int64_t)hi - lo + 1));

			if (dtype == TTPU_DTYPE_I8)
				((int8_t *)x->init)[e] = (int8_t)v;
			else
				((int32_t *)x->init)[e] = (int32_t)v;
		}
	}
	b->outputs[b->p.noutputs++] = i;
	return i;
}

static struct ttpu_command *add_cmd(struct pbuild *b, uint8_t op)
{
	struct ttpu_command *c = &b->cmds[b->p.ncmds++];

	memset(c, 0, sizeof(*c));
	c->op = op;
	if (op != TTPU_OP_PASS)
		b->p.measured.host_ops.count[op]++;
	return c;
}

static uint32_t add_pass(struct pbuild *b, uint32_t abuf, uint32_t ar, uint32_t ac,
			 uint32_t bbuf, uint32_t br, uint32_t bc)
{
	uint32_t slot = (uint32_t)b->p.npasses++;
	struct ttpu_command *c;

	b->pass_cmd[slot] = (uint32_t)b->p.ncmds;
	b->pass_ids[slot] = 1000 + 7 * (int64_t)slot;
	c = add_cmd(b, TTPU_OP_PASS);
	c->u.pass.slot = slot;
	c->u.pass.a = (struct ttpu_window){ abuf, ar, ac };
	c->u.pass.b = (struct ttpu_window){ bbuf, br, bc };
	return slot;
}

static void add_acc(struct pbuild *b, uint32_t slot, uint32_t dbuf, uint32_t r,
		    uint32_t c0, uint32_t bias, bool relu)
{
	struct ttpu_command *c = add_cmd(b, TTPU_OP_ACC);

	c->u.acc.slot = slot;
	c->u.acc.dst = (struct ttpu_window){ dbuf, r, c0 };
	c->u.acc.bias = bias;
	c->relu = relu;
}

static void pb_init(struct pbuild *b)
{
	memset(b, 0, sizeof(*b));
	b->p.name = "test";
	b->p.buffers = b->bufs;
	b->p.cmds = b->cmds;
	b->p.pass_ids = b->pass_ids;
	b->p.pass_cmd = b->pass_cmd;
	b->p.outputs = b->outputs;
}

static int pb_finish(struct pbuild *b)
{
	b->p.measured.passes = b->p.npasses;
	return ttpu_plan_build(&b->p, &b->p.plan, NULL);
}

static void pb_release(struct pbuild *b)
{
	for (size_t i = 0; i < b->p.nbuffers; i++) {
		free(b->bufs[i].name);
		free(b->bufs[i].init);
	}
	ttpu_plan_free(b->p.plan);
}

/*
 * A random program. Operand buffers are i8 consts and the i8 dsts (so
 * passes read what accs wrote); dsts are i32 and i8, some starting near
 * the i32 limits; windows reach past the edges; passes are consumed in
 * order, out of order or much later (deferred); tiled matmul blocks give
 * the engine long K-walks.
 */
static void random_program(struct pbuild *b, uint64_t seed)
{
	struct rng g = { seed * 0x9e3779b97f4a7c15ull + 1 };
	uint32_t ops[8], nops = 0, dsts[8], ndsts = 0, biases[5], nbias = 0;
	uint32_t pending[MAXC], npend = 0, last_dst = 0, last_r = 0, last_c = 0;
	bool big = rnd(&g, 3) == 0, small = rnd(&g, 2) == 0;
	uint32_t ncmd = 10 + rnd(&g, 300);
	/* i8 dsts overflow easily: only now and then, so most runs finish. */
#define PICK_DST() (rnd(&g, 8) ? dsts[2 + rnd(&g, 3)] : dsts[rnd(&g, 2)])

	pb_init(b);
	for (int i = 0; i < 3; i++)
		ops[nops++] = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 1 + rnd(&g, 12),
				      1 + rnd(&g, 12), &g, small ? -3 : -128, small ? 3 : 127);
	for (int i = 0; i < 2; i++) {
		uint32_t d = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_TEMP, 2, 1 + rnd(&g, 12),
				     1 + rnd(&g, 12), &g, 0, 0);

		ops[nops++] = d;
		dsts[ndsts++] = d;
	}
	for (int i = 0; i < 3; i++) {
		int32_t lo = big ? INT32_MAX - 300000 : -1000, hi = big ? INT32_MAX : 1000;

		if (big && i == 1) {
			lo = INT32_MIN;
			hi = INT32_MIN + 300000;
		}
		dsts[ndsts++] = add_buf(b, TTPU_DTYPE_I32, i ? TTPU_KIND_CONST : TTPU_KIND_TEMP,
					2, 1 + rnd(&g, 12), 1 + rnd(&g, 12), &g, lo, hi);
	}
	biases[nbias++] = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 12, &g,
				  big ? INT32_MAX - 100000 : -50, big ? INT32_MAX : 50);
	biases[nbias++] = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 1, 1, 12, &g, -128, 127);
	biases[nbias++] = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 12, &g, -100, 100);
	/* Lifts a small dst to where the next chain on its window overflows. */
	biases[nbias++] = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 12, &g,
				  INT32_MAX - 90000, INT32_MAX - 60000);

	while (b->p.ncmds < ncmd) {
		uint32_t what = rnd(&g, 100);

		if (what < 8) {
			/* A tiled block: passes walking K, then their accs. */
			uint32_t a = ops[rnd(&g, nops)], bb = ops[rnd(&g, nops)];
			uint32_t d = PICK_DST();
			uint32_t ar = 4 * rnd(&g, 3), bc = 4 * rnd(&g, 3);
			uint32_t nk = 1 + rnd(&g, 4), first = (uint32_t)b->p.npasses;
			bool interleave = rnd(&g, 2);

			for (uint32_t k = 0; k < nk; k++) {
				add_pass(b, a, ar, 4 * k, bb, 4 * k, bc);
				if (interleave)
					add_acc(b, first + k, d, ar, bc, TTPU_NO_BUFFER, false);
			}
			for (uint32_t k = 0; !interleave && k < nk; k++)
				add_acc(b, first + k, d, ar, bc,
					k + 1 == nk && rnd(&g, 2) ? biases[rnd(&g, nbias)] :
					TTPU_NO_BUFFER, k + 1 == nk && rnd(&g, 2));
		} else if (what < 45) {
			uint32_t a = ops[rnd(&g, nops)], bb = ops[rnd(&g, nops)];

			pending[npend++] = add_pass(b, a, rnd(&g, b->bufs[a].rows + 3),
						    rnd(&g, b->bufs[a].cols + 3), bb,
						    rnd(&g, b->bufs[bb].rows + 3),
						    rnd(&g, b->bufs[bb].cols + 3));
		} else if (what < 80 && npend) {
			uint32_t i = rnd(&g, 3) ? 0 : rnd(&g, npend);
			uint32_t slot = pending[i];

			memmove(&pending[i], &pending[i + 1], (npend - i - 1) * sizeof(pending[0]));
			npend--;
			if (rnd(&g, 3)) {
				last_dst = PICK_DST();
				last_r = rnd(&g, b->bufs[last_dst].rows + 2);
				last_c = rnd(&g, b->bufs[last_dst].cols + 2);
				if (rnd(&g, 2)) {
					last_r &= ~3u;
					last_c &= ~3u;
				}
			} else if (!last_dst) {
				last_dst = dsts[2];
			}
			add_acc(b, slot, last_dst, last_r, last_c,
				rnd(&g, 6) ? TTPU_NO_BUFFER : biases[rnd(&g, nbias)],
				rnd(&g, 6) == 0);
		} else if (what < 86) {
			uint32_t d = PICK_DST();
			struct ttpu_command *c = add_cmd(b, TTPU_OP_EPILOGUE);

			c->u.epilogue.dst = (struct ttpu_window){ d, rnd(&g, b->bufs[d].rows + 2),
								  rnd(&g, b->bufs[d].cols + 2) };
			c->u.epilogue.bias = rnd(&g, 3) ? biases[rnd(&g, nbias)] : TTPU_NO_BUFFER;
			c->relu = rnd(&g, 2);
		} else if (what < 90) {
			add_cmd(b, TTPU_OP_ALLOC)->u.alloc.buf = dsts[rnd(&g, ndsts)];
		} else if (what < 95) {
			/* dst = dst + dst, or + a broadcast rank-1 row of its width. */
			uint32_t d = PICK_DST();
			struct ttpu_command *c = add_cmd(b, TTPU_OP_HOST_ADD);
			uint32_t other = d;

			if (rnd(&g, 2) && b->p.nbuffers < MAXB)
				other = add_buf(b, rnd(&g, 2) ? TTPU_DTYPE_I8 : TTPU_DTYPE_I32,
						TTPU_KIND_CONST, 1, 1, b->bufs[d].cols, &g, -100, 100);
			c->u.add.dst = d;
			c->u.add.a = d;
			c->u.add.b = other;
			if (rnd(&g, 2)) {
				c->u.add.a = other;
				c->u.add.b = d;
			}
		} else {
			/* relu of an i32 dst into itself, or of an i32 copy into an i8 dst. */
			uint32_t d = PICK_DST();
			struct ttpu_command *c = add_cmd(b, TTPU_OP_HOST_RELU);

			c->u.relu.dst = d;
			c->u.relu.src = d;
			if (b->bufs[d].dtype == TTPU_DTYPE_I8 && b->p.nbuffers < MAXB)
				c->u.relu.src = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 2,
							b->bufs[d].rows, b->bufs[d].cols, &g,
							-200, 200);
		}
		if (b->p.ncmds + 2 * npend + 16 >= MAXC)
			break;
	}
	while (npend) {
		uint32_t d = dsts[2 + rnd(&g, 3)];

		add_acc(b, pending[--npend], d, rnd(&g, b->bufs[d].rows + 1),
			rnd(&g, b->bufs[d].cols + 1), TTPU_NO_BUFFER, false);
	}
}

/* ---- comparing the two executors ------------------------------------ */

struct outcome {
	int ok, range_errors, deferred, follows, replays_possible;
};

/* Returns 0 when the planned run and the direct run agree. */
static int compare(struct __test_metadata *_metadata, struct ttpu_program *p,
		   ttpu_engine *eng, struct outcome *oc)
{
	struct ttpu_error e1, e2;
	ttpu_result *r1 = NULL, *r2 = NULL;
	int ret1, ret2;

	ret1 = ttpu_run(p, eng, NULL, &r1, &e1);
	ret2 = ttpu_run_direct(p, NULL, &r2, &e2);
	EXPECT_EQ(ret2, ret1);
	if (ret1 != ret2) {
		TH_LOG("planned: %s", ret1 ? e1.message : "ok");
		TH_LOG("direct: %s", ret2 ? e2.message : "ok");
	} else if (ret1) {
		EXPECT_NULL(r1);
		EXPECT_EQ(e2.kind, e1.kind);
		EXPECT_EQ(e2.command, e1.command);
		EXPECT_EQ(e2.element, e1.element);
		EXPECT_STREQ(e2.buffer, e1.buffer);
		EXPECT_STREQ(e2.message, e1.message);
		oc->range_errors += e1.kind == TTPU_RANGE_ERROR;
	} else {
		for (size_t i = 0; i < p->noutputs; i++) {
			const char *name = p->buffers[p->outputs[i]].name;
			size_t n1, n2;
			const int32_t *d1 = ttpu_result_output(r1, name, &n1);
			const int32_t *d2 = ttpu_result_output(r2, name, &n2);

			ASSERT_NE(NULL, d1);
			ASSERT_NE(NULL, d2);
			ASSERT_EQ(n2, n1);
			EXPECT_EQ(0, memcmp(d1, d2, n1 * sizeof(*d1)));
		}
		EXPECT_EQ(p->npasses * 15, ttpu_result_stats(r1)->total_cycles);
		EXPECT_EQ(p->plan->nstages, ttpu_result_stats(r1)->stages);
		oc->ok++;
	}
	ttpu_result_free(r1);
	ttpu_result_free(r2);
	return _metadata->passed ? 0 : -1;
}

/* ---- plan invariants -------------------------------------------------- */

static void check_plan(struct __test_metadata *_metadata, const struct ttpu_program *p,
		       struct outcome *oc)
{
	const struct ttpu_plan *pl = p->plan;
	uint32_t next = 0, nacc = 0, chains = 0, jobs = 0;
	size_t deferred = 0;

	for (size_t s = 0; s < pl->nstages; s++) {
		const struct ttpu_stage *st = &pl->stages[s];

		ASSERT_EQ(next, st->first_cmd);
		ASSERT_LT(st->first_cmd, st->end_cmd);
		next = st->end_cmd;
		ASSERT_EQ(jobs, st->first_job);
		ASSERT_EQ(chains, st->first_chain);
		jobs += st->njobs;
		chains += st->nchains;
		ASSERT_LE(st->njobs, pl->max_stage_jobs);
		ASSERT_EQ(st->nchains + st->ndeferred, st->njobs);
		if (st->kind == TTPU_STAGE_HOST) {
			ASSERT_EQ(st->first_cmd + 1, st->end_cmd);
			ASSERT_NE(TTPU_OP_PASS, p->cmds[st->first_cmd].op);
			ASSERT_NE(TTPU_OP_ACC, p->cmds[st->first_cmd].op);
			continue;
		}
		for (uint32_t k = 0; k < st->nchains; k++) {
			const struct ttpu_chain *ch = &pl->chains[st->first_chain + k];
			const struct ttpu_job *job = &pl->jobs[ch->job];
			uint32_t links = 0;

			ASSERT_GE(ch->nsteps, 1);
			ASSERT_LE(ch->nsteps, TTPU_CHAIN_MAX_STEPS);
			oc->follows += ch->follows;
			for (uint32_t i = 0; i < ch->nsteps; i++) {
				const struct ttpu_step *sp = &pl->steps[ch->first_step + i];
				const struct ttpu_command *c = &p->cmds[sp->acc_cmd];

				ASSERT_EQ(TTPU_OP_ACC, c->op);
				ASSERT_GE(sp->acc_cmd, st->first_cmd);
				ASSERT_LT(sp->acc_cmd, st->end_cmd);
				ASSERT_EQ(c->u.acc.slot, sp->slot);
				ASSERT_EQ(ch->dst.buf, c->u.acc.dst.buf);
				ASSERT_EQ(ch->dst.r, c->u.acc.dst.r);
				ASSERT_EQ(ch->dst.c, c->u.acc.dst.c);
				/* Only the last step may carry an epilogue. */
				if (i + 1 < ch->nsteps) {
					ASSERT_EQ(TTPU_NO_BUFFER, c->u.acc.bias);
					ASSERT_EQ(0, c->relu);
				} else {
					ASSERT_EQ(c->u.acc.bias, ch->bias);
					ASSERT_EQ(c->relu, ch->relu);
				}
				if (sp->link == TTPU_NO_LINK) {
					ASSERT_LT(p->pass_cmd[sp->slot], st->first_cmd);
					ASSERT_NE(UINT32_MAX, pl->tmp_index[sp->slot]);
				} else {
					ASSERT_EQ(job->first_link + links, sp->link);
					ASSERT_EQ(p->pass_cmd[sp->slot], pl->links[sp->link].pass_cmd);
					links++;
				}
				nacc++;
			}
			ASSERT_EQ(links, job->nlinks);
		}
		for (uint32_t i = 0; i < st->ndeferred; i++) {
			const struct ttpu_deferred *d = &pl->deferred[st->first_deferred + i];

			ASSERT_EQ(1, pl->jobs[d->job].nlinks);
			ASSERT_GE(p->pass_cmd[d->slot], st->first_cmd);
			ASSERT_LT(p->pass_cmd[d->slot], st->end_cmd);
			deferred++;
		}
	}
	ASSERT_EQ(p->ncmds, next);
	ASSERT_EQ(pl->njobs, jobs);
	ASSERT_EQ(pl->nchains, chains);
	ASSERT_EQ(pl->ndeferred, deferred);
	ASSERT_EQ(pl->ntmp, deferred);
	ASSERT_EQ(p->npasses, nacc);
	oc->deferred += (int)deferred;
}

/* ---- tests ------------------------------------------------------------- */

/* Each test's engine and program builder. */
struct fx {
	ttpu_engine *eng;
	struct pbuild *b;
};

static int fx_open(struct fx *f)
{
	f->b = calloc(1, sizeof(*f->b));
	return f->b ? ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &f->eng, NULL) : -1;
}

static void fx_close(struct fx *f)
{
	ttpu_engine_close(f->eng);
	free(f->b);
}

/*
 * 10,000 random programs: 6.4 s under ASan on a 2-core machine at a load of
 * 15 (planner-san), against the harness's 30 s default (test_timeout.h).
 */
TEST_TIMEOUT(random_programs_match_direct, 300)
{
	struct fx fx, *f = &fx;
	struct outcome oc = { 0 };

	ASSERT_EQ(0, fx_open(f));
	for (uint64_t seed = 1; seed <= 10000; seed++) {
		random_program(f->b, seed);
		ASSERT_EQ(0, pb_finish(f->b));
		check_plan(_metadata, &f->b->p, &oc);
		if (compare(_metadata, &f->b->p, f->eng, &oc)) {
			TH_LOG("seed %llu differs", (unsigned long long)seed);
			pb_release(f->b);
			fx_close(f);
			return;
		}
		pb_release(f->b);
	}
	TH_LOG("%d ran, %d range errors, %d deferred passes, %d following chains",
	       oc.ok, oc.range_errors, oc.deferred, oc.follows);
	/* The generator must reach every path it is there for. */
	EXPECT_GT(oc.ok, 1000);
	EXPECT_GT(oc.range_errors, 1000);
	EXPECT_GT(oc.deferred, 100);
	EXPECT_GT(oc.follows, 50);
	fx_close(f);
}

/* A pass reading a buffer that a later acc of its stage writes. */
TEST(pass_reads_buffer_a_later_acc_writes)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 7 };
	struct outcome oc = { 0 };
	uint32_t x, w, y, z, s0, s1;

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	x = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, -128, 127);
	w = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, -128, 127);
	y = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, -5, 5);
	z = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 2, 4, 4, &g, INT32_MAX - 10, INT32_MAX);
	s0 = add_pass(b, x, 0, 0, w, 0, 0);
	s1 = add_pass(b, y, 0, 0, w, 0, 0);
	add_acc(b, s0, y, 0, 0, TTPU_NO_BUFFER, false);	/* writes y after s1 read it */
	add_acc(b, s1, z, 0, 0, TTPU_NO_BUFFER, false);	/* z near the limit: replayed */
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(1, b->p.plan->nstages);
	check_plan(_metadata, &b->p, &oc);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

/* An overflow in the middle of a chain is a RangeError even if later steps bring it back. */
TEST(overflow_mid_chain_is_reported_at_its_step)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 9 };
	struct outcome oc = { 0 };
	struct ttpu_error e;
	ttpu_result *r = NULL;
	uint32_t pos, neg, d, s0, s1;

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	pos = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, 127, 127);
	neg = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, -128, -128);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 2, 4, 4, &g, INT32_MAX - 1000, INT32_MAX - 1000);
	s0 = add_pass(b, pos, 0, 0, pos, 0, 0);		/* +64516 each */
	s1 = add_pass(b, pos, 0, 0, neg, 0, 0);		/* -65024 each */
	add_acc(b, s0, d, 0, 0, TTPU_NO_BUFFER, false);
	add_acc(b, s1, d, 0, 0, TTPU_NO_BUFFER, false);
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(-TTPU_RANGE_ERROR, ttpu_run(&b->p, self->eng, NULL, &r, &e));
	ASSERT_NULL(r);
	EXPECT_EQ(2, e.command);
	EXPECT_STREQ("acc", e.op);
	EXPECT_EQ(0, e.element);
	EXPECT_EQ(0, e.row);
	EXPECT_EQ(0, e.col);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

/* A chain after an epilogue on the same window starts from what the epilogue left. */
TEST(chain_after_epilogue_on_same_window)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 17 };
	struct outcome oc = { 0 };
	struct ttpu_error e;
	ttpu_result *r = NULL;
	uint32_t pos, bias, d, s0, s1;

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	pos = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, 127, 127);
	bias = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 4, &g,
		       INT32_MAX - 150000, INT32_MAX - 150000);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_TEMP, 2, 4, 4, &g, 0, 0);
	s0 = add_pass(b, pos, 0, 0, pos, 0, 0);
	s1 = add_pass(b, pos, 0, 0, pos, 0, 0);
	add_acc(b, s0, d, 0, 0, TTPU_NO_BUFFER, false);
	add_acc(b, s1, d, 0, 0, bias, false);		/* 129032 + bias: fits */
	s0 = add_pass(b, pos, 4, 0, pos, 0, 0);		/* outside: 0 */
	add_acc(b, s0, d, 0, 0, TTPU_NO_BUFFER, false);	/* + 0: fits */
	s1 = add_pass(b, pos, 0, 0, pos, 0, 0);
	add_acc(b, s1, d, 0, 0, TTPU_NO_BUFFER, false);	/* + 64516: overflows */
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(1, b->p.plan->nstages);
	ASSERT_EQ(2, b->p.plan->nchains);
	ASSERT_EQ(1, b->p.plan->chains[1].follows);
	ASSERT_EQ(-TTPU_RANGE_ERROR, ttpu_run(&b->p, self->eng, NULL, &r, &e));
	EXPECT_EQ(7, e.command);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

/* Errors in two chains of one stage: the smaller command index wins. */
TEST(first_error_of_a_stage_wins)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 11 };
	struct outcome oc = { 0 };
	struct ttpu_error e;
	ttpu_result *r = NULL;
	uint32_t pos, d, s[4];

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	pos = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 8, &g, 127, 127);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 2, 4, 8, &g, INT32_MAX - 70000, INT32_MAX - 70000);
	for (int i = 0; i < 4; i++)
		s[i] = add_pass(b, pos, 0, 0, pos, 0, 0);
	add_acc(b, s[0], d, 0, 0, TTPU_NO_BUFFER, false);	/* chain A, fits */
	add_acc(b, s[1], d, 0, 4, TTPU_NO_BUFFER, false);	/* chain B, fits */
	add_acc(b, s[2], d, 0, 4, TTPU_NO_BUFFER, false);	/* chain B overflows: cmd 6 */
	add_acc(b, s[3], d, 0, 0, TTPU_NO_BUFFER, false);	/* chain A overflows: cmd 7 */
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(1, b->p.plan->nstages);
	ASSERT_EQ(-TTPU_RANGE_ERROR, ttpu_run(&b->p, self->eng, NULL, &r, &e));
	EXPECT_EQ(6, e.command);
	EXPECT_EQ(4, e.col);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

/* A tiled matmul is one stage, one job per output tile, one K-walk each. */
TEST(tiled_matmul_is_one_stage)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 13 };
	struct outcome oc = { 0 };
	uint32_t a, w, bias, d;

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	a = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 8, 14, &g, -128, 127);
	w = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 14, 6, &g, -128, 127);
	bias = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 6, &g, -1000, 1000);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_TEMP, 2, 8, 6, &g, 0, 0);
	for (uint32_t i = 0; i < 8; i += 4)
		for (uint32_t j = 0; j < 6; j += 4)
			for (uint32_t k = 0; k < 14; k += 4)
				add_acc(b, add_pass(b, a, i, k, w, k, j), d, i, j,
					k + 4 >= 14 ? bias : TTPU_NO_BUFFER, k + 4 >= 14);
	ASSERT_EQ(0, pb_finish(b));
	EXPECT_EQ(1, b->p.plan->nstages);
	EXPECT_EQ(4, b->p.plan->nchains);
	EXPECT_EQ(0, b->p.plan->ndeferred);
	check_plan(_metadata, &b->p, &oc);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

/* ---- engines and responses -------------------------------------------- */

TEST(engine_auto_without_node_is_software)
{
	ttpu_engine *eng = NULL;

	ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_AUTO, "/nonexistent/npukit9", &eng, NULL));
	EXPECT_STREQ("software", ttpu_engine_name(eng));
	EXPECT_NE(NULL, strstr(ttpu_engine_reason(eng), "no /nonexistent/npukit9"));
	ttpu_engine_close(eng);
}

TEST(engine_npukit_refuses_clearly)
{
	struct ttpu_error e;
	ttpu_engine *eng = (ttpu_engine *)&e;

	/* Asked for by name, a missing node is an error naming the node. */
	ASSERT_EQ(-TTPU_DEVICE_ERROR,
		  ttpu_engine_open(TTPU_ENGINE_NPUKIT, "/nonexistent/npukit9", &eng, &e));
	EXPECT_NULL(eng);
	EXPECT_NE(NULL, strstr(e.message, "/nonexistent/npukit9")) TH_LOG("%s", e.message);
	EXPECT_EQ(ENOENT, e.sys_errno);
	/* An existing node that is no NpuKit is an error, never a fall-back. */
	ASSERT_EQ(-TTPU_DEVICE_ERROR, ttpu_engine_open(TTPU_ENGINE_AUTO, "/dev/null", &eng, &e));
	EXPECT_NULL(eng);
}

TEST(response_and_error_json)
{
	struct pbuild *b = calloc(1, sizeof(*b));
	struct rng g = { 5 };
	ttpu_engine *eng;
	ttpu_result *r;
	struct ttpu_error e;
	struct json_object *o, *x;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	uint32_t a, d;

	ASSERT_NE(NULL, b);
	pb_init(b);
	a = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 2, 3, &g, -4, 4);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_TEMP, 2, 2, 2, &g, 0, 0);
	add_acc(b, add_pass(b, a, 0, 0, a, 0, 0), d, 0, 0, TTPU_NO_BUFFER, true);
	add_cmd(b, TTPU_OP_ALLOC)->u.alloc.buf = d;
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &eng, NULL));
	ASSERT_EQ(0, ttpu_run(&b->p, eng, NULL, &r, &e));
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ttpu_result_write_json(r, f, 1, &e));
	fclose(f);
	o = json_tokener_parse(text);
	ASSERT_NE(NULL, o);
	ASSERT_TRUE(json_object_object_get_ex(o, "outputs", &x));
	ASSERT_TRUE(json_object_object_get_ex(x, "b1", &x));
	EXPECT_STREQ("{ \"shape\": [ 2, 2 ], \"data\": [ [ 0, 0 ], [ 0, 0 ] ] }",
		     json_object_to_json_string_ext(x, JSON_C_TO_STRING_SPACED));
	ASSERT_TRUE(json_object_object_get_ex(o, "passes", &x));
	EXPECT_STREQ("[ { \"id\": 1000, \"cycles\": 15 } ]",
		     json_object_to_json_string_ext(x, JSON_C_TO_STRING_SPACED));
	ASSERT_TRUE(json_object_object_get_ex(o, "totalCycles", &x));
	EXPECT_EQ(15, json_object_get_int(x));
	ASSERT_TRUE(json_object_object_get_ex(o, "hostOps", &x));
	EXPECT_STREQ("{ \"alloc\": 1, \"acc\": 1, \"epilogue\": 0, \"host_add\": 0, \"host_relu\": 0 }",
		     json_object_to_json_string_ext(x, JSON_C_TO_STRING_SPACED));
	ASSERT_TRUE(json_object_object_get_ex(o, "engine", &x));
	EXPECT_STREQ("software", json_object_get_string(x));
	ASSERT_TRUE(json_object_object_get_ex(o, "stats", &x));
	ASSERT_TRUE(json_object_object_get_ex(x, "runNs", &x));
	json_object_put(o);
	free(text);
	ttpu_result_free(r);

	/* Error objects escape what they quote. */
	ttpu_error_clear(&e);
	e.kind = TTPU_RANGE_ERROR;
	snprintf(e.message, sizeof(e.message), "bad \"name\"\\\n");
	snprintf(e.buffer, sizeof(e.buffer), "q\"\x01");
	e.command = 3;
	text = NULL;
	f = open_memstream(&text, &len);
	ASSERT_EQ(0, ttpu_error_write_json(&e, f));
	fclose(f);
	x = json_tokener_parse(text);
	ASSERT_NE(NULL, x);
	ASSERT_TRUE(json_object_object_get_ex(x, "error", &o));
	EXPECT_STREQ("RangeError", json_object_get_string(json_object_object_get(o, "kind")));
	EXPECT_STREQ("bad \"name\"\\\n", json_object_get_string(json_object_object_get(o, "message")));
	EXPECT_STREQ("q\"\x01", json_object_get_string(json_object_object_get(o, "buffer")));
	EXPECT_EQ(3, json_object_get_int(json_object_object_get(o, "command")));
	EXPECT_NULL(json_object_object_get(o, "row"));
	json_object_put(x);
	free(text);
	ttpu_engine_close(eng);
	pb_release(b);
	free(b);
}

TEST_HARNESS_MAIN
