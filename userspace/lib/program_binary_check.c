// SPDX-License-Identifier: MIT
/*
 * program_binary_check.c - what a valid command, stage, chain, step and
 * deferred record of a compiled program is: the conditions the runner,
 * the engines and the response rely on when they follow the image's
 * indexes, one predicate per record kind (program_binary_check.h)
 */
#include "program_binary_check.h"

enum ttpu_binary_verify ttpu_binary_verify_mode = TTPU_VERIFY_FAST;

static bool is_buffer(const struct ttpu_program *p, uint32_t b)
{
	return b < p->nbuffers;
}

bool ttpu_binary_i8_buffer(const struct ttpu_program *p, uint32_t b)
{
	return is_buffer(p, b) && p->buffers[b].dtype == TTPU_DTYPE_I8;
}

bool ttpu_binary_bias_ok(const struct ttpu_program *p, const struct ttpu_window *dst,
			 uint32_t bias)
{
	return is_buffer(p, dst->buf) &&
	       (bias == TTPU_NO_BUFFER ||
		(is_buffer(p, bias) && p->buffers[bias].rows == 1 &&
		 p->buffers[bias].cols >= p->buffers[dst->buf].cols));
}

/* host_add's operand: the result's count, or a row it repeats. */
static bool operand_ok(const struct ttpu_program *p, uint32_t dst, uint32_t x)
{
	return is_buffer(p, x) && (p->buffers[x].count == p->buffers[dst].count ||
				   p->buffers[dst].count % p->buffers[x].count == 0);
}

bool ttpu_binary_command_ok(const struct ttpu_program *p, const struct ttpu_command *c,
			    size_t i)
{
	if (c->relu > 1)
		return false;
	switch (c->op) {
	case TTPU_OP_ALLOC:
		return is_buffer(p, c->u.alloc.buf);
	case TTPU_OP_PASS:
		return c->u.pass.slot < p->npasses && p->pass_cmd[c->u.pass.slot] == i &&
		       ttpu_binary_i8_buffer(p, c->u.pass.a.buf) &&
		       ttpu_binary_i8_buffer(p, c->u.pass.b.buf);
	case TTPU_OP_ACC:
		return c->u.acc.slot < p->npasses &&
		       ttpu_binary_bias_ok(p, &c->u.acc.dst, c->u.acc.bias);
	case TTPU_OP_EPILOGUE:
		return ttpu_binary_bias_ok(p, &c->u.epilogue.dst, c->u.epilogue.bias);
	case TTPU_OP_HOST_ADD:
		return is_buffer(p, c->u.add.dst) && operand_ok(p, c->u.add.dst, c->u.add.a) &&
		       operand_ok(p, c->u.add.dst, c->u.add.b);
	case TTPU_OP_HOST_RELU:
		return is_buffer(p, c->u.relu.dst) && is_buffer(p, c->u.relu.src) &&
		       p->buffers[c->u.relu.src].count >= p->buffers[c->u.relu.dst].count;
	default:
		return false;
	}
}

bool ttpu_binary_pass_slot_ok(const struct ttpu_program *p, size_t s)
{
	return p->pass_cmd[s] < p->ncmds && p->cmds[p->pass_cmd[s]].op == TTPU_OP_PASS;
}

bool ttpu_binary_stage_ok(const struct ttpu_program *p, const struct ttpu_stage *st)
{
	const struct ttpu_plan *pl = p->plan;

	return st->kind <= TTPU_STAGE_MATMUL && st->first_cmd < st->end_cmd &&
	       st->end_cmd <= p->ncmds && st->acc_writes_operand <= 1 &&
	       (st->kind != TTPU_STAGE_HOST ||
		(st->end_cmd == st->first_cmd + 1 && p->cmds[st->first_cmd].op != TTPU_OP_PASS &&
		 p->cmds[st->first_cmd].op != TTPU_OP_ACC)) &&
	       ttpu_binary_range_ok(st->first_job, st->njobs, pl->njobs) &&
	       st->njobs <= pl->max_stage_jobs &&
	       ttpu_binary_range_ok(st->first_chain, st->nchains, pl->nchains) &&
	       ttpu_binary_range_ok(st->first_deferred, st->ndeferred, pl->ndeferred);
}

bool ttpu_binary_chain_ok(const struct ttpu_program *p, const struct ttpu_stage *st,
			  const struct ttpu_chain *ch)
{
	return ch->job >= st->first_job && ch->job - st->first_job < st->njobs && ch->nsteps &&
	       ttpu_binary_range_ok(ch->first_step, ch->nsteps, p->plan->nsteps) &&
	       ch->relu <= 1 && ttpu_binary_bias_ok(p, &ch->dst, ch->bias);
}

bool ttpu_binary_step_ok(const struct ttpu_program *p, const struct ttpu_job *job,
			 const struct ttpu_step *x)
{
	if (x->acc_cmd >= p->ncmds || x->slot >= p->npasses)
		return false;
	if (x->link == TTPU_NO_LINK)
		return p->plan->tmp_index[x->slot] != UINT32_MAX;
	return x->link >= job->first_link && x->link - job->first_link < job->nlinks;
}

bool ttpu_binary_deferred_ok(const struct ttpu_program *p, const struct ttpu_stage *st,
			     const struct ttpu_deferred *x)
{
	return x->job >= st->first_job && x->job - st->first_job < st->njobs &&
	       x->slot < p->npasses && p->plan->tmp_index[x->slot] != UINT32_MAX;
}
