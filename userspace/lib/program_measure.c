// SPDX-License-Identifier: MIT
/*
 * program_measure.c - what a program's commands measure (passes, cycles,
 * host ops, MACs): the JSON loader compares it with the "estimate" block,
 * the compiled loader with the figures the file holds
 */
#include <string.h>

#include "program.h"

uint64_t ttpu_pass_useful_macs(const struct ttpu_program *p, const struct ttpu_command *c)
{
	const struct ttpu_buffer *a = &p->buffers[c->u.pass.a.buf];
	const struct ttpu_buffer *b = &p->buffers[c->u.pass.b.buf];
	uint64_t rows = 0, ks = 0, cols = 0, t;

	for (t = 0; t < TTPU_TILE; t++) {
		rows += (uint64_t)c->u.pass.a.r + t < a->rows;
		cols += (uint64_t)c->u.pass.b.c + t < b->cols;
		ks += (uint64_t)c->u.pass.a.c + t < a->cols &&
		      (uint64_t)c->u.pass.b.r + t < b->rows;
	}
	return rows * ks * cols;
}

void ttpu_estimate_complete(struct ttpu_estimate *m)
{
	m->cycles_per_pass = TTPU_CYCLES_PER_PASS;
	m->rtl_cycles = m->passes * TTPU_CYCLES_PER_PASS;
	m->capacity_macs = 64 * m->passes;
	m->utilization = m->capacity_macs ?
		(double)m->useful_macs / (double)m->capacity_macs : 0.0;
}

void ttpu_program_measure(const struct ttpu_program *p, uint64_t passes_skipped,
			  struct ttpu_estimate *m)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < p->ncmds; i++) {
		if (p->cmds[i].op == TTPU_OP_PASS)
			m->useful_macs += ttpu_pass_useful_macs(p, &p->cmds[i]);
		else
			m->host_ops.count[p->cmds[i].op]++;
	}
	m->passes = p->npasses;
	m->passes_skipped = passes_skipped;
	ttpu_estimate_complete(m);
}
