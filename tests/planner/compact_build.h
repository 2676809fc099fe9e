/* SPDX-License-Identifier: MIT */
/*
 * compact_build.h - programs built directly in their compact form (struct
 * ttpu_program), so that the planner's tests need neither the loader nor
 * JSON: buffers with random const data, passes, accs, host commands, and
 * the plan built at the end.
 */
#ifndef COMPACT_BUILD_H
#define COMPACT_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "program.h"
#include "../lib/test_rng.h"

static inline uint32_t rnd(struct rng *g, uint32_t n)
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

static inline uint32_t add_buf(struct pbuild *b, uint8_t dtype, uint8_t kind, uint8_t rank,
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

static inline struct ttpu_command *add_cmd(struct pbuild *b, uint8_t op)
{
	struct ttpu_command *c = &b->cmds[b->p.ncmds++];

	memset(c, 0, sizeof(*c));
	c->op = op;
	if (op != TTPU_OP_PASS)
		b->p.measured.host_ops.count[op]++;
	return c;
}

static inline uint32_t add_pass(struct pbuild *b, uint32_t abuf, uint32_t ar, uint32_t ac,
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

static inline void add_acc(struct pbuild *b, uint32_t slot, uint32_t dbuf, uint32_t r,
			   uint32_t c0, uint32_t bias, bool relu)
{
	struct ttpu_command *c = add_cmd(b, TTPU_OP_ACC);

	c->u.acc.slot = slot;
	c->u.acc.dst = (struct ttpu_window){ dbuf, r, c0 };
	c->u.acc.bias = bias;
	c->relu = relu;
}

static inline void pb_init(struct pbuild *b)
{
	memset(b, 0, sizeof(*b));
	b->p.name = "test";
	b->p.buffers = b->bufs;
	b->p.cmds = b->cmds;
	b->p.pass_ids = b->pass_ids;
	b->p.pass_cmd = b->pass_cmd;
	b->p.outputs = b->outputs;
}

static inline int pb_finish(struct pbuild *b)
{
	b->p.measured.passes = b->p.npasses;
	return ttpu_plan_build(&b->p, &b->p.plan, NULL);
}

static inline void pb_release(struct pbuild *b)
{
	for (size_t i = 0; i < b->p.nbuffers; i++) {
		free(b->bufs[i].name);
		free(b->bufs[i].init);
	}
	ttpu_plan_free(b->p.plan);
}

#endif /* COMPACT_BUILD_H */
