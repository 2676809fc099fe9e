// SPDX-License-Identifier: MIT
/*
 * program_binary_fast.c - the compiled loader's fast verifier: "the
 * commands are valid and the file's pass slots, measured figures and plan
 * are exactly what they make", or "ask the precise check"
 *
 * It knows the plan of one kind of program, the kind compilers emit and
 * the benchmark is: every matmul stage a run of pass/acc pairs (each acc
 * right after the pass it consumes), each chain's accs side by side, the
 * chains' windows tile-aligned and in increasing order (so no two are the
 * same or overlap) or outside their buffer. For such a stage the planner's
 * rules (plan.h) leave one plan, which this walk compares word for word
 * with the file's while it checks each command; anything else (a pass
 * whose acc comes later, two chains on one window, an unaligned window, a
 * boundary it cannot justify) is "no", and program_binary_check.c then
 * plans and compares. Documentation/ttpu-binary.rst gives the argument
 * that a "yes" means the precise check's "yes". What makes it fast: one
 * loop over the pairs that compares whole words, operand buffers checked
 * only when they change, no call per record.
 */
#include <stdlib.h>
#include <string.h>

#include "program_binary_check.h"
#include "program_binary_csum.h"

/* Four lanes, two: an SSE2 or NEON register; else the compiler goes scalar. */
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* Never equal to a 32-bit buffer index: "no operand buffer known valid". */
#define NOT_A_BUFFER ((uint64_t)1 << 32)

static uint64_t load64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

struct fast {
	const struct ttpu_program *p;
	const struct ttpu_plan *pl;
	uint32_t *written, *read;	/* by buffer: stamp of the stage that wrote, read it */
	uint32_t stamp;			/* the stage's, from 1 */
	/* what the stages before hold: where the next one's records start */
	size_t cmd, job, chain, step, link, npass;
	size_t most_jobs;
	uint64_t useful, host[TTPU_OP_COUNT];
	/* operands of the last pass: valid i8 rank-2 buffers this stage has not written */
	uint64_t ok_a, ok_b;
	int64_t a_rows, a_cols, b_rows, b_cols;	/* their shapes less a tile */
	struct ttpu_window last;		/* the stage's last in-bounds chain window */
	bool any_window;
};

static bool same_window(const struct ttpu_window *x, const struct ttpu_window *y)
{
	return x->buf == y->buf && x->r == y->r && x->c == y->c;
}

/* @x after @y in (buffer, row, column) order. */
static bool window_after(const struct ttpu_window *x, const struct ttpu_window *y)
{
	if (x->buf != y->buf)
		return x->buf > y->buf;
	return x->r != y->r ? x->r > y->r : x->c > y->c;
}

/* Link @l is pass command @i's operands. */
static bool link_is(const struct ttpu_link *l, const struct ttpu_command *pc, size_t i)
{
	const char *x = (const char *)l, *y = (const char *)&pc->u.pass.a;

	return ((load64(x) ^ load64(y)) | (load64(x + 8) ^ load64(y + 8)) |
		(load64(x + 16) ^ load64(y + 16))) == 0 && l->pass_cmd == i;
}

/*
 * The pair at commands @i, @i + 1 as pair @t of the stage (slot and link
 * @t on from where the stage's start), in chain @ch, its last step or
 * not: every condition but its pass commands entry and its step
 * (stage_sequences_ok()), the operands' hazards and shapes remembered.
 */
static bool pair_ok(struct fast *fs, size_t i, size_t t, const struct ttpu_chain *ch, bool last)
{
	const struct ttpu_program *p = fs->p;
	const struct ttpu_command *pc = &p->cmds[i], *ac = pc + 1;
	size_t slot = fs->npass + t, link = fs->link + t;
	uint32_t a, b, bias;

	if (pc->op != TTPU_OP_PASS || ttpu_binary_command_rules(p, i, NULL) ||
	    pc->u.pass.slot != slot)
		return false;
	a = pc->u.pass.a.buf;
	b = pc->u.pass.b.buf;
	if (fs->written[a] == fs->stamp || fs->written[b] == fs->stamp)
		return false;
	fs->read[a] = fs->read[b] = fs->stamp;
	fs->ok_a = a;
	fs->ok_b = b;
	fs->a_rows = (int64_t)p->buffers[a].rows - TTPU_TILE;
	fs->a_cols = (int64_t)p->buffers[a].cols - TTPU_TILE;
	fs->b_rows = (int64_t)p->buffers[b].rows - TTPU_TILE;
	fs->b_cols = (int64_t)p->buffers[b].cols - TTPU_TILE;
	if (!link_is(&fs->pl->links[link], pc, i))
		return false;
	fs->useful += ttpu_pass_useful_macs(p, pc);
	if (ac->op != TTPU_OP_ACC || ttpu_binary_command_rules(p, i + 1, NULL) ||
	    ac->u.acc.slot != slot || !same_window(&ac->u.acc.dst, &ch->dst))
		return false;
	bias = ac->u.acc.bias;
	if (last ? ac->relu != ch->relu || bias != ch->bias : ac->relu || bias != TTPU_NO_BUFFER)
		return false;
	return bias == TTPU_NO_BUFFER || fs->written[bias] != fs->stamp;
}

/*
 * What ttpu_binary_command_rules() requires of an acc's dst and bias,
 * checked once for all the accs that pair_quick() finds to be @ch's.
 */
static bool chain_target_ok(const struct ttpu_program *p, const struct ttpu_chain *ch)
{
	const struct ttpu_buffer *d, *b;

	if (ch->dst.buf >= p->nbuffers || ch->relu > 1)
		return false;
	d = &p->buffers[ch->dst.buf];
	if (d->rank != 2)
		return false;
	if (ch->bias == TTPU_NO_BUFFER)
		return true;
	if (ch->bias >= p->nbuffers)
		return false;
	b = &p->buffers[ch->bias];
	return b->rank == 1 && b->cols >= d->cols;
}

/* The MACs of pass @c on the operands fs->ok_a, fs->ok_b: 64 when it lies inside both. */
static uint64_t pass_macs(const struct fast *fs, const struct ttpu_command *c)
{
	if ((int64_t)c->u.pass.a.r <= fs->a_rows && (int64_t)c->u.pass.a.c <= fs->a_cols &&
	    (int64_t)c->u.pass.b.r <= fs->b_rows && (int64_t)c->u.pass.b.c <= fs->b_cols)
		return TTPU_TILE * TTPU_TILE * TTPU_TILE;
	return ttpu_pass_useful_macs(fs->p, c);
}

/*
 * The pair at commands @i, @i + 1 as pair @t of the stage, by whole
 * words: true only if it is a pass on the last pass's operands (valid i8
 * rank-2 buffers the stage has not written: fs->ok_a, fs->ok_b) with its
 * link, and its acc into @ch's window (chain_target_ok()), plain unless
 * @last, then with @ch's bias (not written by the stage) and relu, the
 * bytes after its fields 0. Its MACs are added.
 */
static bool pair_quick(struct fast *fs, size_t i, size_t t, const struct ttpu_chain *ch,
		       bool last)
{
	const struct ttpu_command *pc = &fs->p->cmds[i], *ac = pc + 1;
	uint64_t slot = fs->npass + t;
	uint32_t bias = last ? ch->bias : TTPU_NO_BUFFER;

	if (load64(pc) != (TTPU_OP_PASS | slot << 32) || pc->u.pass.a.buf != fs->ok_a ||
	    pc->u.pass.b.buf != fs->ok_b || !link_is(&fs->pl->links[fs->link + t], pc, i) ||
	    load64(ac) != (TTPU_OP_ACC | (uint64_t)(last ? ch->relu : 0) << 8 | slot << 32) ||
	    !same_window(&ac->u.acc.dst, &ch->dst) || ac->u.acc.bias != bias ||
	    load64((const char *)ac + 24) ||
	    (bias != TTPU_NO_BUFFER && fs->written[bias] == fs->stamp))
		return false;
	fs->useful += pass_macs(fs, pc);
	return true;
}

/*
 * What plain_pairs() compares a run of pairs with: from pass command @i,
 * slot @slot and link @l on, passes on buffers @a and @b whose window
 * origins (a.r, a.c, b.r, b.c) are at most @lim, accs into @ch's window.
 */
struct pairs_want {
	uint32_t i, slot, a, b, lim[4];
	const struct ttpu_chain *ch;
};

/*
 * The pairs' records from @pc to @stop and their links from @l, four lanes
 * at a time (SSE2, NEON; else the compiler goes scalar): the pass's op,
 * slot and operand buffers; its link's words against its own; its acc's
 * op, slot, window, bias and trailing 0 bytes; its window's origins
 * against the last full one. The differences are gathered, no branch.
 */
static bool pairs_vec16(const unsigned char *pc, const unsigned char *stop,
			const unsigned char *l, const struct pairs_want *w)
{
	const struct ttpu_chain *ch = w->ch;
	u32x4 ep0 = { TTPU_OP_PASS, w->slot, w->a, 0 }, ep1 = { 0, w->b, 0, 0 };
	u32x4 ea0 = { TTPU_OP_ACC, w->slot, ch->dst.buf, ch->dst.r };
	const u32x4 ea1 = { ch->dst.c, TTPU_NO_BUFFER, 0, 0 };
	const u32x4 mp0 = { ~0u, ~0u, ~0u, 0 }, mp1 = { 0, ~0u, 0, 0 };
	/* the link's pass_cmd less the acc's op word, in the lane after b.c */
	u32x4 el1 = { 0, 0, 0, w->i - TTPU_OP_ACC };
	const u32x4 next = { 0, 1, 0, 0 }, next_cmd = { 0, 0, 0, 2 };
	const u32x4 lim0 = { UINT32_MAX, UINT32_MAX, UINT32_MAX, w->lim[0] };
	const u32x4 lim1 = { w->lim[1], UINT32_MAX, w->lim[2], w->lim[3] };
	u32x4 bad = { 0 }, bad_p0 = { 0 }, bad_p1 = { 0 }, p0, p1, a0, a1, q0, q1, l0, l1;

	for (; pc != stop; pc += 2 * sizeof(struct ttpu_command), l += sizeof(struct ttpu_link)) {
		memcpy(&p0, pc, sizeof(p0));
		memcpy(&p1, pc + 16, sizeof(p1));
		memcpy(&a0, pc + 32, sizeof(a0));
		memcpy(&a1, pc + 48, sizeof(a1));
		memcpy(&q0, pc + 8, sizeof(q0));
		memcpy(&q1, pc + 20, sizeof(q1));
		memcpy(&l0, l, sizeof(l0));
		memcpy(&l1, l + 12, sizeof(l1));
		/* the pass's words masked once, after the loop */
		bad_p0 |= p0 ^ ep0;
		bad_p1 |= p1 ^ ep1;
		bad |= (a0 ^ ea0) | (a1 ^ ea1) | (l0 ^ q0) | (l1 - q1 - el1) |
		       (u32x4)(p0 > lim0) | (u32x4)(p1 > lim1);
		ep0 += next;
		ea0 += next;
		el1 += next_cmd;
	}
	bad |= (bad_p0 & mp0) | (bad_p1 & mp1);
	return !(bad[0] | bad[1] | bad[2] | bad[3]);
}

#if defined(__x86_64__)
#include <immintrin.h>

typedef uint32_t u32x8 __attribute__((vector_size(32)));

/*
 * pairs_vec16() with AVX2, where the CPU has it, for pairs that are not
 * the links' first: the same conditions in about half the instructions.
 * A pair's pass and acc records are one vector each; its link is compared
 * with the pass's operands as one more, the link read from 4 bytes before
 * it (the previous link's pass command, which must be i - 2: the walk or
 * pair_is() found it so) and the pass from 4 bytes on (its slot, operands
 * and the acc's op word). The origins' bounds are checked once, on their
 * running maxima.
 */
__attribute__((target("avx2")))
static bool pairs_avx2(const unsigned char *pc, const unsigned char *stop,
		       const unsigned char *l, const struct pairs_want *w)
{
	const struct ttpu_chain *ch = w->ch;
	u32x8 ep = { TTPU_OP_PASS, w->slot, w->a, 0, 0, w->b, 0, 0 };
	const u32x8 mp = { ~0u, ~0u, ~0u, 0, 0, ~0u, 0, 0 };
	u32x8 ea = { TTPU_OP_ACC, w->slot, ch->dst.buf, ch->dst.r, ch->dst.c, TTPU_NO_BUFFER, 0, 0 };
	u32x8 el = { w->i - 2 - w->slot, 0, 0, 0, 0, 0, 0, w->i - TTPU_OP_ACC };
	const u32x8 next = { 0, 1, 0, 0, 0, 0, 0, 0 }, next_el = { 1, 0, 0, 0, 0, 0, 0, 2 };
	u32x8 bad = { 0 }, most = { 0 }, p, q, c, k;

	for (; pc != stop; pc += 2 * sizeof(struct ttpu_command), l += sizeof(struct ttpu_link)) {
		memcpy(&p, pc, sizeof(p));
		memcpy(&q, pc + 4, sizeof(q));
		memcpy(&c, pc + 32, sizeof(c));
		memcpy(&k, l - 4, sizeof(k));
		bad |= ((p ^ ep) & mp) | (c ^ ea) | (k - q - el);
		most = (u32x8)_mm256_max_epu32((__m256i)most, (__m256i)p);
		ep += next;
		ea += next;
		el += next_el;
	}
	for (int j = 1; j < 8; j++)
		bad[0] |= bad[j];
	return !bad[0] && most[3] <= w->lim[0] && most[4] <= w->lim[1] && most[6] <= w->lim[2] &&
	       most[7] <= w->lim[3];
}
#endif

/*
 * Pairs @t to @end - 1 of the stage at command @f, chain @ch's middle
 * ones, all plain pairs on the last pass's operands that lie inside them
 * (64 MACs each), or false.
 */
static bool plain_pairs(struct fast *fs, size_t f, size_t t, size_t end,
			const struct ttpu_chain *ch)
{
	const unsigned char *pc = (const unsigned char *)&fs->p->cmds[f + 2 * t];
	const unsigned char *stop = (const unsigned char *)&fs->p->cmds[f + 2 * end];
	const unsigned char *l = (const unsigned char *)&fs->pl->links[fs->link + t];
	struct pairs_want w;
	bool ok;

	if (fs->ok_a == NOT_A_BUFFER || fs->ok_b == NOT_A_BUFFER || fs->a_rows < 0 ||
	    fs->a_cols < 0 || fs->b_rows < 0 || fs->b_cols < 0)
		return false;
	w = (struct pairs_want){
		.i = (uint32_t)(f + 2 * t), .slot = (uint32_t)(fs->npass + t),
		.a = (uint32_t)fs->ok_a, .b = (uint32_t)fs->ok_b, .ch = ch,
		.lim = { (uint32_t)fs->a_rows, (uint32_t)fs->a_cols, (uint32_t)fs->b_rows,
			 (uint32_t)fs->b_cols },
	};
#if defined(__x86_64__)
	/* a link before the first: plain pairs are a chain's middle ones */
	if (fs->link + t && ttpu_binary_avx2_on())
		ok = pairs_avx2(pc, stop, l, &w);
	else
#endif
		ok = pairs_vec16(pc, stop, l, &w);
	if (!ok)
		return false;
	fs->useful += (uint64_t)(TTPU_TILE * TTPU_TILE * TTPU_TILE) * (end - t);
	return true;
}

/* Pair @t, chain @ch's, by its words, or looked at with every rule. */
static bool pair_is(struct fast *fs, size_t f, size_t t, const struct ttpu_chain *ch, bool last)
{
	return pair_quick(fs, f + 2 * t, t, ch, last) || pair_ok(fs, f + 2 * t, t, ch, last);
}

/* Chain @k of the stage at command @f, its first pair at step *@t. */
static bool chain_ok(struct fast *fs, size_t f, uint32_t k, size_t npairs, size_t *t)
{
	const struct ttpu_program *p = fs->p;
	const struct ttpu_chain *ch = &fs->pl->chains[fs->chain + k];
	const struct ttpu_job *job = &fs->pl->jobs[fs->job + k];
	const struct ttpu_window *w = &ch->dst;
	const struct ttpu_buffer *b;
	size_t n = ch->nsteps;
	struct ttpu_chain want;

	if (!n || n > TTPU_CHAIN_MAX_STEPS || n > npairs - *t || !chain_target_ok(p, ch) ||
	    job->first_link != fs->link + *t || job->nlinks != n)
		return false;
	memset(&want, 0, sizeof(want));
	want.dst = *w;
	want.job = (uint32_t)(fs->job + k);
	want.first_step = (uint32_t)(fs->step + *t);
	want.nsteps = (uint32_t)n;
	want.bias = ch->bias;	/* the last acc's: pair_is() */
	want.relu = ch->relu;
	if (memcmp(&want, ch, sizeof(want)))
		return false;
	/* distinct aligned windows neither meet nor overlap; outside ones take one acc each */
	b = &p->buffers[w->buf];
	if (w->r < b->rows && w->c < b->cols) {
		if (w->r % TTPU_TILE || w->c % TTPU_TILE ||
		    (fs->any_window && !window_after(w, &fs->last)))
			return false;
		fs->last = *w;
		fs->any_window = true;
	} else if (n != 1) {
		return false;
	}
	if (!pair_is(fs, f, *t, ch, n == 1))
		return false;
	/* later passes of the stage must not read what the chain writes */
	fs->written[w->buf] = fs->stamp;
	if (w->buf == fs->ok_a || w->buf == fs->ok_b)
		fs->ok_a = fs->ok_b = NOT_A_BUFFER;
	if (n > 2 && !plain_pairs(fs, f, *t + 1, *t + n - 1, ch))
		for (size_t u = *t + 1; u < *t + n - 1; u++)
			if (!pair_is(fs, f, u, ch, false))
				return false;
	if (n > 1 && !pair_is(fs, f, *t + n - 1, ch, true))
		return false;
	*t += n;
	return true;
}

/*
 * The stage's steps and pass slots, which its pairs fix: pair @t (of @n,
 * from command @f) is step (f + 2t + 1, P0 + t, L0 + t) and the pass of
 * slot P0 + t is command f + 2t. Arithmetic sequences, compared four
 * lanes at a time; steps are 12 bytes, so four are three vectors whose
 * lanes hold acc, slot and link in turn.
 */
static bool stage_sequences_ok(const struct fast *fs, uint32_t f, uint32_t n)
{
	const unsigned char *x = (const unsigned char *)(fs->pl->steps + fs->step);
	const uint32_t *pass_cmd = fs->p->pass_cmd + fs->npass;
	const uint32_t a = f + 1, s = (uint32_t)fs->npass, l = (uint32_t)fs->link;
	u32x4 e0 = { a, s, l, a + 2 }, e1 = { s + 1, l + 1, a + 4, s + 2 };
	u32x4 e2 = { l + 2, a + 6, s + 3, l + 3 }, e = { f, f + 2, f + 4, f + 6 };
	const u32x4 i0 = { 8, 4, 4, 8 }, i1 = { 4, 4, 8, 4 }, i2 = { 4, 8, 4, 4 };
	u32x4 v0, v1, v2, bad = { 0 };
	uint32_t t;

	for (t = 0; t + 4 <= n; t += 4, x += 48) {
		memcpy(&v0, x, sizeof(v0));
		memcpy(&v1, x + 16, sizeof(v1));
		memcpy(&v2, x + 32, sizeof(v2));
		bad |= (v0 ^ e0) | (v1 ^ e1) | (v2 ^ e2);
		e0 += i0;
		e1 += i1;
		e2 += i2;
	}
	for (; t < n; t++, x += 12) {
		memcpy(&v0, x, 12);
		bad[0] |= (v0[0] ^ (f + 2 * t + 1)) | (v0[1] ^ (s + t)) | (v0[2] ^ (l + t));
	}
	for (t = 0; t + 4 <= n; t += 4, e += 8) {
		memcpy(&v0, pass_cmd + t, sizeof(v0));
		bad |= v0 ^ e;
	}
	for (; t < n; t++)
		bad[0] |= pass_cmd[t] ^ (f + 2 * t);
	return !(bad[0] | bad[1] | bad[2] | bad[3]);
}

/* Where the planner ends a stage before command @e: another kind, or a hazard. */
static bool stage_ends(const struct fast *fs, size_t e)
{
	const struct ttpu_program *p = fs->p;
	const struct ttpu_command *c = &p->cmds[e];

	if (e == p->ncmds || (c->op != TTPU_OP_PASS && c->op != TTPU_OP_ACC))
		return true;
	/* an acc's hazards (bias, overlap) are left to the precise check */
	return c->op == TTPU_OP_PASS &&
	       ((c->u.pass.a.buf < p->nbuffers && fs->written[c->u.pass.a.buf] == fs->stamp) ||
		(c->u.pass.b.buf < p->nbuffers && fs->written[c->u.pass.b.buf] == fs->stamp));
}

static bool matmul_stage_ok(struct fast *fs, const struct ttpu_stage *st)
{
	const struct ttpu_plan *pl = fs->pl;
	size_t f = fs->cmd, e = st->end_cmd, npairs = (e - f) / 2, t = 0;
	uint32_t nch = st->nchains;
	struct ttpu_stage want;

	if (e <= f || e > fs->p->ncmds || (e - f) % 2 || nch > pl->nchains - fs->chain ||
	    nch > pl->njobs - fs->job || npairs > fs->p->npasses - fs->npass ||
	    npairs > pl->nlinks - fs->link || npairs > pl->nsteps - fs->step)
		return false;
	fs->ok_a = fs->ok_b = NOT_A_BUFFER;
	fs->any_window = false;
	for (uint32_t k = 0; k < nch; k++)
		if (!chain_ok(fs, f, k, npairs, &t))
			return false;
	if (t != npairs || !stage_ends(fs, e) ||
	    !stage_sequences_ok(fs, (uint32_t)f, (uint32_t)npairs))
		return false;
	memset(&want, 0, sizeof(want));
	want.kind = TTPU_STAGE_MATMUL;
	want.first_cmd = (uint32_t)f;
	want.end_cmd = (uint32_t)e;
	want.first_job = (uint32_t)fs->job;
	want.njobs = nch;
	want.first_chain = (uint32_t)fs->chain;
	want.nchains = nch;
	for (uint32_t k = 0; k < nch; k++)
		if (fs->read[pl->chains[fs->chain + k].dst.buf] == fs->stamp)
			want.acc_writes_operand = 1;
	if (memcmp(&want, st, sizeof(want)))
		return false;
	fs->cmd = e;
	fs->job += nch;
	fs->chain += nch;
	fs->step += npairs;
	fs->link += npairs;
	fs->npass += npairs;
	fs->host[TTPU_OP_ACC] += npairs;
	if (nch > fs->most_jobs)
		fs->most_jobs = nch;
	return true;
}

static bool host_stage_ok(struct fast *fs, const struct ttpu_stage *st)
{
	const struct ttpu_command *c;
	struct ttpu_stage want;

	if (fs->cmd >= fs->p->ncmds)
		return false;
	c = &fs->p->cmds[fs->cmd];
	if (c->op == TTPU_OP_PASS || c->op == TTPU_OP_ACC ||
	    ttpu_binary_command_rules(fs->p, fs->cmd, NULL))
		return false;
	memset(&want, 0, sizeof(want));
	want.kind = TTPU_STAGE_HOST;
	want.first_cmd = (uint32_t)fs->cmd;
	want.end_cmd = (uint32_t)fs->cmd + 1;
	want.first_job = (uint32_t)fs->job;
	want.first_chain = (uint32_t)fs->chain;
	if (memcmp(&want, st, sizeof(want)))
		return false;
	fs->host[c->op]++;
	fs->cmd++;
	return true;
}

/* Every one of the @n indexes at @t UINT32_MAX: no pass deferred. */
static bool all_none(const uint32_t *t, size_t n)
{
	u32x4 v, all = ~(u32x4){ 0 };
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		memcpy(&v, t + i, sizeof(v));
		all &= v;
	}
	for (; i < n; i++)
		all[0] &= t[i];
	return (all[0] & all[1] & all[2] & all[3]) == UINT32_MAX;
}

/*
 * The @n ids at @id strictly increasing from 0 on, so non-negative and
 * unique: no id has its sign bit set, and each id less the next has it
 * (taken modulo 2^64: non-negative ids differ by less than 2^63). Four
 * differences a turn, two to a vector.
 */
static bool increasing(const int64_t *id, size_t n)
{
	const uint64_t *u = (const uint64_t *)id;
	u64x2 a, s, b, t, below = ~(u64x2){ 0 }, signs = { 0 };
	size_t i = 0;

	if (!n)
		return true;
	signs[0] = u[0];
	for (; i + 5 <= n; i += 4) {
		memcpy(&a, u + i, sizeof(a));
		memcpy(&s, u + i + 1, sizeof(s));
		memcpy(&b, u + i + 2, sizeof(b));
		memcpy(&t, u + i + 3, sizeof(t));
		below &= (a - s) & (b - t);
		signs |= s | t;
	}
	for (; i + 1 < n; i++) {
		below[0] &= u[i] - u[i + 1];
		signs[0] |= u[i + 1];
	}
	return ((below[0] & below[1]) >> 63) == 1 && ((signs[0] | signs[1]) >> 63) == 0;
}

/* No pass deferred, ids increasing from 0 on, the figures the walk measured. */
static bool rest_ok(const struct fast *fs)
{
	const struct ttpu_program *p = fs->p;
	const struct ttpu_plan *pl = fs->pl;
	struct ttpu_estimate want;

	if (fs->cmd != p->ncmds || fs->chain != pl->nchains || fs->job != pl->njobs ||
	    fs->step != pl->nsteps || fs->link != pl->nlinks || fs->npass != p->npasses ||
	    pl->ndeferred || pl->ntmp || fs->most_jobs != pl->max_stage_jobs)
		return false;
	if (!all_none(pl->tmp_index, p->npasses) || !increasing(p->pass_ids, p->npasses))
		return false;
	memset(&want, 0, sizeof(want));
	want.passes = p->npasses;
	want.passes_skipped = p->measured.passes_skipped;
	memcpy(want.host_ops.count, fs->host, sizeof(fs->host));
	want.useful_macs = fs->useful;
	ttpu_estimate_complete(&want);
	return !memcmp(&want, &p->measured, sizeof(want));
}

bool ttpu_binary_verify_fast(const struct ttpu_program *p)
{
	struct fast fs = { .p = p, .pl = p->plan };
	bool ok = true;

	/* the sequences are compared in 32 bits */
	if (p->ncmds >= UINT32_MAX || p->npasses >= UINT32_MAX || fs.pl->nlinks >= UINT32_MAX)
		return false;
	fs.written = calloc(2 * (p->nbuffers + 1), sizeof(*fs.written));
	if (!fs.written)
		return false;
	fs.read = fs.written + p->nbuffers + 1;
	for (size_t i = 0; i < fs.pl->nstages && ok; i++) {
		const struct ttpu_stage *st = &fs.pl->stages[i];

		fs.stamp = (uint32_t)i + 1;
		ok = st->kind == TTPU_STAGE_MATMUL ? matmul_stage_ok(&fs, st) : host_stage_ok(&fs, st);
	}
	ok = ok && rest_ok(&fs);
	free(fs.written);
	return ok;
}
