// SPDX-License-Identifier: MIT
/*
 * program_binary_check.c - the compiled loader's precise check: the
 * commands by the JSON loader's rules, then everything the file stores
 * derived from them made again as the JSON loader makes it and compared
 * word for word (program_binary_check.h)
 *
 * In the JSON loader's order: each command (program_binary_rules.c); the
 * pass slots (dense, in command order) and the pass commands by slot;
 * the pass ids (non-negative, unique); each acc's pass (run before it,
 * consumed once, every pass consumed); then the measured figures
 * (ttpu_program_measure()) and the plan (ttpu_plan_build()), each field
 * of each record against the file's, the first difference named.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "program_binary_check.h"
#include "program_pass_map.h"

enum ttpu_binary_verify ttpu_binary_verify_mode = TTPU_VERIFY_FAST;

int ttpu_binary_error(struct ttpu_error *err, const char *fmt, ...)
{
	char msg[TTPU_ERROR_MESSAGE_MAX - 32];
	va_list ap;

	if (!err)
		return -TTPU_SCHEMA_ERROR;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ttpu_error_set(err, TTPU_SCHEMA_ERROR, "compiled program: %s", msg);
}

/* commands[@i]'s field @field: the JSON loader's message and place. */
__attribute__((format(printf, 5, 6)))
static int cmd_error(const struct ttpu_program *p, size_t i, const char *field,
		     struct ttpu_error *err, const char *fmt, ...)
{
	char msg[TTPU_ERROR_MESSAGE_MAX - 64], path[64];
	const char *op = ttpu_op_names[p->cmds[i].op];
	va_list ap;

	snprintf(path, sizeof(path), "commands[%zu].%s", i, field);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ttpu_binary_error(err, "%s: %s (op %s)", path, msg, op);
	ttpu_error_at_command(err, (long)i, op);
	ttpu_error_at_field(err, path);
	return -TTPU_SCHEMA_ERROR;
}

/* Slots numbered in command order; the pass commands by slot. */
static int check_slots(const struct ttpu_program *p, struct ttpu_error *err)
{
	size_t n = 0;

	for (size_t i = 0; i < p->ncmds; i++) {
		const struct ttpu_command *c = &p->cmds[i];

		if (c->op != TTPU_OP_PASS)
			continue;
		if (c->u.pass.slot != n)
			return cmd_error(p, i, "slot", err,
					 "pass slot %u, where the commands number it %zu",
					 c->u.pass.slot, n);
		if (n >= p->npasses)
			return cmd_error(p, i, "slot", err,
					 "pass slot %zu, past the %zu of the pass sections", n, p->npasses);
		if (p->pass_cmd[n] != i)
			return ttpu_binary_error(err, "pass commands[%zu] is %u, where the commands put pass %zu at %zu",
						 n, p->pass_cmd[n], n, i);
		n++;
	}
	if (n != p->npasses)
		return ttpu_binary_error(err, "the commands hold %zu passes, the pass sections %zu",
					 n, p->npasses);
	return 0;
}

static int check_pass_ids(const struct ttpu_program *p, struct ttpu_error *err)
{
	struct ttpu_pass_map *m = ttpu_pass_map_new();
	int ret = 0;

	if (!m)
		return ttpu_error_nomem(err, "loading a compiled program");
	for (size_t s = 0; s < p->npasses && !ret; s++) {
		int64_t id = p->pass_ids[s];
		uint32_t other = id < 0 ? TTPU_NO_SLOT : ttpu_pass_map_find(m, id);

		if (id < 0)
			ret = cmd_error(p, p->pass_cmd[s], "id", err,
					"expected an integer >= 0, got %lld", (long long)id);
		else if (other != TTPU_NO_SLOT)
			ret = cmd_error(p, p->pass_cmd[s], "id", err,
					"pass id %lld is not unique (also commands[%u])",
					(long long)id, p->pass_cmd[other]);
		else if (ttpu_pass_map_add(m, id, (uint32_t)s))
			ret = ttpu_error_nomem(err, "loading a compiled program");
	}
	ttpu_pass_map_free(m);
	return ret;
}

/* Each acc's pass ran before it and no other acc consumed it; every pass consumed. */
static int check_accs(const struct ttpu_program *p, struct ttpu_error *err)
{
	uint32_t *consumer = malloc((p->npasses + 1) * sizeof(*consumer));
	int ret = 0;

	if (!consumer)
		return ttpu_error_nomem(err, "loading a compiled program");
	memset(consumer, 0xff, (p->npasses + 1) * sizeof(*consumer));
	for (size_t i = 0; i < p->ncmds && !ret; i++) {
		uint32_t s = p->cmds[i].u.acc.slot;

		if (p->cmds[i].op != TTPU_OP_ACC)
			continue;
		if (s >= p->npasses)
			ret = cmd_error(p, i, "pass", err, "acc names pass slot %u, of %zu",
					s, p->npasses);
		else if (p->pass_cmd[s] > i)
			ret = cmd_error(p, i, "pass", err,
					"acc names pass %lld, which has not run before it",
					(long long)p->pass_ids[s]);
		else if (consumer[s] != UINT32_MAX)
			ret = cmd_error(p, i, "pass", err, "pass %lld was already consumed by commands[%u]",
					(long long)p->pass_ids[s], consumer[s]);
		else
			consumer[s] = (uint32_t)i;
	}
	for (size_t s = 0; s < p->npasses && !ret; s++)
		if (consumer[s] == UINT32_MAX)
			ret = cmd_error(p, p->pass_cmd[s], "id", err,
					"pass %lld is never consumed by an acc",
					(long long)p->pass_ids[s]);
	free(consumer);
	return ret;
}

/* A named field of a record: where it is and how wide. */
struct field {
	const char *name;
	unsigned short off, size;
};

#define FIELD(type, member) { #member, offsetof(type, member), sizeof(((type *)0)->member) }

static const struct field stage_fields[] = {
	FIELD(struct ttpu_stage, kind), FIELD(struct ttpu_stage, first_cmd),
	FIELD(struct ttpu_stage, end_cmd), FIELD(struct ttpu_stage, first_job),
	FIELD(struct ttpu_stage, njobs), FIELD(struct ttpu_stage, first_chain),
	FIELD(struct ttpu_stage, nchains), FIELD(struct ttpu_stage, first_deferred),
	FIELD(struct ttpu_stage, ndeferred), FIELD(struct ttpu_stage, acc_writes_operand),
	{ NULL, 0, 0 },
};
static const struct field job_fields[] = {
	FIELD(struct ttpu_job, first_link), FIELD(struct ttpu_job, nlinks), { NULL, 0, 0 },
};
static const struct field link_fields[] = {
	FIELD(struct ttpu_link, a.buf), FIELD(struct ttpu_link, a.r), FIELD(struct ttpu_link, a.c),
	FIELD(struct ttpu_link, b.buf), FIELD(struct ttpu_link, b.r), FIELD(struct ttpu_link, b.c),
	FIELD(struct ttpu_link, pass_cmd), { NULL, 0, 0 },
};
static const struct field chain_fields[] = {
	FIELD(struct ttpu_chain, dst.buf), FIELD(struct ttpu_chain, dst.r),
	FIELD(struct ttpu_chain, dst.c), FIELD(struct ttpu_chain, job),
	FIELD(struct ttpu_chain, first_step), FIELD(struct ttpu_chain, nsteps),
	FIELD(struct ttpu_chain, bias), FIELD(struct ttpu_chain, relu),
	FIELD(struct ttpu_chain, follows), { NULL, 0, 0 },
};
static const struct field step_fields[] = {
	FIELD(struct ttpu_step, acc_cmd), FIELD(struct ttpu_step, slot),
	FIELD(struct ttpu_step, link), { NULL, 0, 0 },
};
static const struct field deferred_fields[] = {
	FIELD(struct ttpu_deferred, job), FIELD(struct ttpu_deferred, slot), { NULL, 0, 0 },
};
static const struct field tmp_fields[] = { { "", 0, 4 }, { NULL, 0, 0 } };

#undef FIELD

static uint64_t field_value(const char *rec, const struct field *f)
{
	uint32_t v32;
	uint8_t v8;

	if (f->size == 1) {
		memcpy(&v8, rec + f->off, 1);
		return v8;
	}
	memcpy(&v32, rec + f->off, 4);
	return v32;
}

/*
 * The @nfile records of @size bytes at @file against the @nmade the
 * commands make at @made: the first record that differs, by field
 * (@fields; padding otherwise), or the counts.
 */
static int compare_records(const char *what, const void *file, size_t nfile, const void *made,
			   size_t nmade, size_t size, const struct field *fields,
			   struct ttpu_error *err)
{
	const char *a = file, *b = made;
	size_t n = nfile < nmade ? nfile : nmade;

	for (size_t r = 0; r < n; r++, a += size, b += size) {
		if (!memcmp(a, b, size))
			continue;
		for (const struct field *f = fields; f->name; f++)
			if (field_value(a, f) != field_value(b, f))
				return ttpu_binary_error(err, "plan: %s[%zu]%s%s is %llu, the commands make %llu",
							 what, r, *f->name ? "." : "", f->name,
							 (unsigned long long)field_value(a, f),
							 (unsigned long long)field_value(b, f));
		return ttpu_binary_error(err, "plan: %s[%zu] has padding bytes that are not 0",
					 what, r);
	}
	if (nfile != nmade)
		return ttpu_binary_error(err, "plan: the commands make %zu %s, the file holds %zu",
					 nmade, what, nfile);
	return 0;
}

static int compare_plan(const struct ttpu_plan *f, const struct ttpu_plan *m,
			size_t npasses, struct ttpu_error *err)
{
	int ret;

	ret = compare_records("stages", f->stages, f->nstages, m->stages, m->nstages,
			      sizeof(*m->stages), stage_fields, err);
	if (!ret)
		ret = compare_records("chains", f->chains, f->nchains, m->chains, m->nchains,
				      sizeof(*m->chains), chain_fields, err);
	if (!ret)
		ret = compare_records("steps", f->steps, f->nsteps, m->steps, m->nsteps,
				      sizeof(*m->steps), step_fields, err);
	if (!ret)
		ret = compare_records("jobs", f->jobs, f->njobs, m->jobs, m->njobs,
				      sizeof(*m->jobs), job_fields, err);
	if (!ret)
		ret = compare_records("links", f->links, f->nlinks, m->links, m->nlinks,
				      sizeof(*m->links), link_fields, err);
	if (!ret)
		ret = compare_records("deferred", f->deferred, f->ndeferred, m->deferred,
				      m->ndeferred, sizeof(*m->deferred), deferred_fields, err);
	if (!ret)
		ret = compare_records("tmp index", f->tmp_index, npasses, m->tmp_index, npasses,
				      sizeof(*m->tmp_index), tmp_fields, err);
	if (!ret && f->ntmp != m->ntmp)
		ret = ttpu_binary_error(err, "plan: %zu tmp tiles stated, the commands make %zu",
					f->ntmp, m->ntmp);
	if (!ret && f->max_stage_jobs != m->max_stage_jobs)
		ret = ttpu_binary_error(err, "plan: largest stage stated as %zu jobs, the commands make %zu",
					f->max_stage_jobs, m->max_stage_jobs);
	return ret;
}

static int compare_measured(const struct ttpu_estimate *f, const struct ttpu_estimate *m,
			    struct ttpu_error *err)
{
	static const char *const host[TTPU_OP_COUNT] = {
		[TTPU_OP_ALLOC] = "host_ops.alloc", [TTPU_OP_PASS] = "host_ops.pass",
		[TTPU_OP_ACC] = "host_ops.acc", [TTPU_OP_EPILOGUE] = "host_ops.epilogue",
		[TTPU_OP_HOST_ADD] = "host_ops.host_add", [TTPU_OP_HOST_RELU] = "host_ops.host_relu",
	};
	const struct { const char *name; uint64_t file, made; } v[] = {
		{ "passes", f->passes, m->passes },
		{ "cycles_per_pass", f->cycles_per_pass, m->cycles_per_pass },
		{ "rtl_cycles", f->rtl_cycles, m->rtl_cycles },
		{ "useful_macs", f->useful_macs, m->useful_macs },
		{ "capacity_macs", f->capacity_macs, m->capacity_macs },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i].file != v[i].made)
			return ttpu_binary_error(err, "measured.%s is %llu, the commands measure %llu",
						 v[i].name, (unsigned long long)v[i].file,
						 (unsigned long long)v[i].made);
	for (int op = 0; op < TTPU_OP_COUNT; op++)
		if (f->host_ops.count[op] != m->host_ops.count[op])
			return ttpu_binary_error(err, "measured.%s is %llu, the commands measure %llu",
						 host[op], (unsigned long long)f->host_ops.count[op],
						 (unsigned long long)m->host_ops.count[op]);
	if (memcmp(&f->utilization, &m->utilization, sizeof(m->utilization)))
		return ttpu_binary_error(err, "measured.utilization is %.17g, the commands measure %.17g",
					 f->utilization, m->utilization);
	return 0;
}

int ttpu_binary_check_precise(const struct ttpu_program *p, struct ttpu_error *err)
{
	struct ttpu_estimate measured;
	struct ttpu_plan *made;
	int ret = 0;

	for (size_t i = 0; i < p->ncmds && !ret; i++)
		ret = ttpu_binary_command_rules(p, i, err);
	if (!ret)
		ret = check_slots(p, err);
	if (!ret)
		ret = check_pass_ids(p, err);
	if (!ret)
		ret = check_accs(p, err);
	if (ret)
		return ret;
	ttpu_program_measure(p, p->measured.passes_skipped, &measured);
	ret = compare_measured(&p->measured, &measured, err);
	if (ret)
		return ret;
	/* The commands are now as valid as the JSON loader's: plan them as it does. */
	ret = ttpu_plan_build(p, &made, err);
	if (ret)
		return ret;
	ret = compare_plan(p->plan, made, p->npasses, err);
	ttpu_plan_free(made);
	return ret;
}
