// SPDX-License-Identifier: MIT
/*
 * program_binary_fast.c - the compiled loader's fast verifier: "every
 * command and plan record is valid", or "ask the precise checker"
 *
 * It tests exactly the conditions of program_binary_check.c, in fewer
 * instructions on the records a big program has by the hundred thousand
 * (commands, pass slots, links, steps): no call per record, the limits in
 * locals, an operand buffer looked up only when it differs from the last
 * one found valid, a pass's acc in the same turn of the loop, steps and
 * tmp indexes four at a time, and the pass-slot loop replaced by a count
 * (below). Stages, chains, jobs and deferred passes
 * are few and go through the predicates themselves. Whatever it does not
 * settle it hands back as "no", and the precise checker then finds and
 * names the first wrong record: a load's outcome does not depend on it.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "program_binary_check.h"

/* Four lanes: an SSE2 or NEON register; else the compiler goes scalar. */
typedef uint32_t u32x4 __attribute__((vector_size(16)));

/* The first i8 buffer in @*b, or false if there is none. */
static bool first_i8_buffer(const struct ttpu_program *p, uint32_t *b)
{
	for (*b = 0; *b < p->nbuffers; (*b)++)
		if (p->buffers[*b].dtype == TTPU_DTYPE_I8)
			return true;
	*b = 0;
	return false;
}

/* Where the command scan is: the next command, passes seen, known-good operands. */
struct cmd_scan {
	size_t i;
	size_t npass;
	uint32_t ok_a, ok_b;	/* operand buffers known to be i8 */
};

/*
 * @n as a bound for 32-bit indexes, compared in 32 bits. Above UINT32_MAX
 * it turns an index of UINT32_MAX away where the precise test would not:
 * that is a "no", never a wrong "yes".
 */
static uint32_t limit32(size_t n)
{
#if SIZE_MAX > UINT32_MAX
	if (n > UINT32_MAX)
		return UINT32_MAX;
#endif
	return (uint32_t)n;
}

/* Whether @c is an @op without relu: both bytes in one compare. */
static bool plain(const struct ttpu_command *c, unsigned int op)
{
	return (c->op | (unsigned int)c->relu << 8) == op;
}

/* An acc without relu or bias into an existing buffer from a slot below @np. */
static bool acc_common(const struct ttpu_command *c, uint32_t np, uint32_t nb)
{
	return plain(c, TTPU_OP_ACC) && c->u.acc.bias == TTPU_NO_BUFFER &&
	       c->u.acc.slot < np && c->u.acc.dst.buf < nb;
}

/*
 * The commands from @s->i on while each is a pass on the operands of the
 * last one checked or an acc without bias, neither with relu, and valid;
 * stops at the first other. A leaf, so that every limit stays in a register.
 */
__attribute__((noinline))
static void scan_common(const struct ttpu_program *p, struct cmd_scan *s)
{
	const struct ttpu_command *c = p->cmds + s->i;
	const uint32_t *pass_cmd = p->pass_cmd;
	size_t i = s->i, n = p->ncmds, npass = s->npass;
	uint32_t np = limit32(p->npasses), nb = limit32(p->nbuffers);
	uint32_t ok_a = s->ok_a, ok_b = s->ok_b;

	for (; i < n; i++, c++) {
		if (plain(c, TTPU_OP_PASS)) {
			if (c->u.pass.slot >= np || pass_cmd[c->u.pass.slot] != i ||
			    c->u.pass.a.buf != ok_a || c->u.pass.b.buf != ok_b)
				break;
			npass++;
			/* most passes have their acc next: taken without a turn of the loop */
			if (i + 1 == n || !acc_common(c + 1, np, nb))
				continue;
			i++;
			c++;
		} else if (!acc_common(c, np, nb)) {
			break;
		}
	}
	s->i = i;
	s->npass = npass;
}

bool ttpu_binary_commands_fast(const struct ttpu_program *p)
{
	struct cmd_scan s = { 0 };
	size_t np = p->npasses;

	/* without an i8 buffer, no pass is valid, and no slot can name one */
	if (!first_i8_buffer(p, &s.ok_a) && np)
		return false;
	s.ok_b = s.ok_a;
	for (;;) {
		const struct ttpu_command *c;

		scan_common(p, &s);
		if (s.i == p->ncmds)
			break;
		/* what scan_common() stopped at: the precise test */
		c = &p->cmds[s.i];
		if (!ttpu_binary_command_ok(p, c, s.i))
			return false;
		if (c->op == TTPU_OP_PASS) {
			s.ok_a = c->u.pass.a.buf;
			s.ok_b = c->u.pass.b.buf;
			s.npass++;
		}
		s.i++;
	}
	/*
	 * Each pass took a slot naming it, so npass different slots name a
	 * pass; when that is all of them, every slot is valid. Else (slots
	 * shared, or left over) each one is looked at.
	 */
	if (s.npass == np)
		return true;
	for (size_t i = 0; i < np; i++)
		if (!ttpu_binary_pass_slot_ok(p, i))
			return false;
	return true;
}

/*
 * Every tmp index UINT32_MAX (none) or below @ntmp. Adding one takes
 * UINT32_MAX to 0, so that the test is one unsigned compare per index.
 */
static bool tmp_index_fast(const uint32_t *t, size_t n, size_t ntmp)
{
	u32x4 one = { 1, 1, 1, 1 }, lim, bad = { 0 };
	size_t i = 0;

	if (ntmp >= UINT32_MAX) {
		for (; i < n; i++)
			if (t[i] != UINT32_MAX && t[i] >= ntmp)
				return false;
		return true;
	}
	lim = (u32x4){ 0 } + (uint32_t)ntmp;
	for (; i + 4 <= n; i += 4) {
		u32x4 v;

		memcpy(&v, t + i, sizeof(v));
		bad |= (u32x4)(v + one > lim);
	}
	for (; i < n; i++)
		bad[0] |= (uint32_t)(t[i] + 1) > ntmp;
	return !(bad[0] | bad[1] | bad[2] | bad[3]);
}

static bool links_fast(const struct ttpu_program *p)
{
	const struct ttpu_plan *pl = p->plan;
	const struct ttpu_link *l = pl->links;
	uint32_t ncmds = limit32(p->ncmds);
	uint32_t ok_a, ok_b;	/* as in ttpu_binary_commands_fast() */

	if (!first_i8_buffer(p, &ok_a) && pl->nlinks)
		return false;
	ok_b = ok_a;
	for (size_t n = pl->nlinks; n; n--, l++) {
		if (l->pass_cmd >= ncmds)
			return false;
		if (l->a.buf != ok_a) {
			if (!ttpu_binary_i8_buffer(p, l->a.buf))
				return false;
			ok_a = l->a.buf;
		}
		if (l->b.buf != ok_b) {
			if (!ttpu_binary_i8_buffer(p, l->b.buf))
				return false;
			ok_b = l->b.buf;
		}
	}
	return true;
}

/*
 * The @n steps at @x of a chain summed by @job, four at a time: four
 * 12-byte steps are three vectors whose lanes hold acc_cmd, slot and link
 * in turn, each lane tested against its own bound (link less its job's
 * first link). A deferred step (TTPU_NO_LINK) fails its lane like a wrong
 * link; then the chain is looked at step by step, where it is settled.
 */
static_assert(sizeof(struct ttpu_step) == 12 &&
	      offsetof(struct ttpu_step, acc_cmd) == 0 &&
	      offsetof(struct ttpu_step, slot) == 4 &&
	      offsetof(struct ttpu_step, link) == 8,
	      "steps_fast() reads steps as lanes of acc_cmd, slot, link");

static bool steps_fast(const struct ttpu_program *p, const struct ttpu_job *job,
		       const struct ttpu_step *x, uint32_t n)
{
	uint32_t a = limit32(p->ncmds), s = limit32(p->npasses);
	uint32_t first = job->first_link, l = job->nlinks;
	const u32x4 sub0 = { 0, 0, first, 0 }, sub1 = { 0, first, 0, 0 }, sub2 = { first, 0, 0, first };
	const u32x4 lim0 = { a, s, l, a }, lim1 = { s, l, a, s }, lim2 = { l, a, s, l };
	u32x4 ok = ~(u32x4){ 0 };
	uint32_t k = 0;

	/* below TTPU_NO_LINK, link - first (mod 2^32) < l says "one of the job's" */
	if ((uint64_t)first + l <= TTPU_NO_LINK) {
		for (; k + 4 <= n; k += 4) {
			const unsigned char *b = (const unsigned char *)(x + k);
			u32x4 w0, w1, w2;

			memcpy(&w0, b, sizeof(w0));
			memcpy(&w1, b + sizeof(w0), sizeof(w1));
			memcpy(&w2, b + 2 * sizeof(w0), sizeof(w2));
			ok &= (u32x4)(w0 - sub0 < lim0) & (u32x4)(w1 - sub1 < lim1) &
			      (u32x4)(w2 - sub2 < lim2);
		}
		if (!(ok[0] & ok[1] & ok[2] & ok[3]))
			k = 0;
	}
	for (; k < n; k++)
		if (!ttpu_binary_step_ok(p, job, x + k))
			return false;
	return true;
}

bool ttpu_binary_plan_fast(const struct ttpu_program *p)
{
	const struct ttpu_plan *pl = p->plan;
	size_t most_jobs = 0;

	if (!tmp_index_fast(pl->tmp_index, p->npasses, pl->ntmp))
		return false;
	for (size_t j = 0; j < pl->njobs; j++)
		if (!ttpu_binary_range_ok(pl->jobs[j].first_link, pl->jobs[j].nlinks, pl->nlinks))
			return false;
	if (!links_fast(p))
		return false;
	for (size_t i = 0; i < pl->nstages; i++) {
		const struct ttpu_stage *st = &pl->stages[i];

		if (st->njobs > most_jobs)
			most_jobs = st->njobs;
		if (!ttpu_binary_stage_ok(p, st))
			return false;
		for (uint32_t k = 0; k < st->nchains; k++) {
			const struct ttpu_chain *ch = &pl->chains[st->first_chain + k];

			if (!ttpu_binary_chain_ok(p, st, ch) ||
			    !steps_fast(p, &pl->jobs[ch->job], &pl->steps[ch->first_step], ch->nsteps))
				return false;
		}
		for (uint32_t d = 0; d < st->ndeferred; d++)
			if (!ttpu_binary_deferred_ok(p, st, &pl->deferred[st->first_deferred + d]))
				return false;
	}
	return most_jobs == pl->max_stage_jobs;
}
