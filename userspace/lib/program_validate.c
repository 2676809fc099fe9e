// SPDX-License-Identifier: MIT
/*
 * program_validate.c - the checks that need the whole program, and its final form
 *
 * program_read*.c have checked every element on its own (keys, types,
 * ranges, pass ids in order); here buffer names are resolved (a command may use a
 * buffer defined later in the text), shapes are checked against each
 * command, the compact struct ttpu_program is completed, its cost figures
 * are measured and compared with the "estimate" block.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "program_validate.h"

#define NONE UINT32_MAX

static int cmd_error(struct ttpu_loader *L, size_t i, const char *field,
		     const char *buffer, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int cmd_error(struct ttpu_loader *L, size_t i, const char *field,
		     const char *buffer, const char *fmt, ...)
{
	char path[TTPU_ERROR_NAME_MAX], msg[TTPU_ERROR_MESSAGE_MAX];
	va_list ap;
	int ret;

	ttpu_js_path(path, sizeof(path), "commands[%zu]%s%s", i, *field ? "." : "", field);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ret = ttpu_js_error_pos(L->js, L->cmd_offset[i], path, "%s (op %s)", msg,
			       ttpu_op_names[L->prog->cmds[i].op]);
	ttpu_error_at_command(L->err, (long)i, ttpu_op_names[L->prog->cmds[i].op]);
	if (buffer)
		ttpu_error_at_buffer(L->err, buffer);
	return ret;
}

/* Intern id *@ref -> buffer index, in place. */
static int resolve(struct ttpu_loader *L, size_t i, const char *field,
		   uint32_t *ref)
{
	uint32_t id = *ref;
	const char *name = ttpu_names_get(L->intern, id);

	*ref = id < L->buf_of_name_cap ? L->buf_of_name[id] : NONE;
	if (*ref == NONE)
		return cmd_error(L, i, field, name, "no buffer named \"%s\"", name);
	return 0;
}

/* @path is the window's "buf" field ("a.buf"): a constant, not formatted. */
static int check_window(struct ttpu_loader *L, size_t i, const char *path,
			struct ttpu_window *w, bool need_i8)
{
	const struct ttpu_buffer *b;
	int ret;

	ret = resolve(L, i, path, &w->buf);
	if (ret)
		return ret;
	b = &L->prog->buffers[w->buf];
	if (b->rank != 2)
		return cmd_error(L, i, path, b->name,
				 "a window needs a rank-2 buffer; \"%s\" has rank 1", b->name);
	if (need_i8 && b->dtype != TTPU_DTYPE_I8)
		return cmd_error(L, i, path, b->name,
				 "pass operands must be i8; \"%s\" is i32", b->name);
	return 0;
}

static int check_epilogue(struct ttpu_loader *L, size_t i,
			  struct ttpu_window *dst, uint32_t *bias)
{
	const struct ttpu_buffer *d, *b;
	char s[48];
	int ret = check_window(L, i, "dst.buf", dst, false);

	if (ret || *bias == TTPU_NO_BUFFER)
		return ret;
	ret = resolve(L, i, "bias", bias);
	if (ret)
		return ret;
	d = &L->prog->buffers[dst->buf];
	b = &L->prog->buffers[*bias];
	if (b->rank != 1 || b->cols < d->cols)
		return cmd_error(L, i, "bias", b->name,
				 "bias \"%s\" must be rank-1 with at least %u elements (the columns of \"%s\"), it has shape %s",
				 b->name, d->cols, d->name, ttpu_buffer_shape_str(b, s, sizeof(s)));
	return 0;
}

static int check_host_add(struct ttpu_loader *L, size_t i,
			  struct ttpu_command *c)
{
	const struct ttpu_buffer *d, *a, *b, *res;
	char sd[48], sa[48], sb[48];
	int ret;

	ret = resolve(L, i, "dst", &c->u.add.dst);
	if (!ret)
		ret = resolve(L, i, "a", &c->u.add.a);
	if (!ret)
		ret = resolve(L, i, "b", &c->u.add.b);
	if (ret)
		return ret;
	d = &L->prog->buffers[c->u.add.dst];
	a = &L->prog->buffers[c->u.add.a];
	b = &L->prog->buffers[c->u.add.b];
	res = ttpu_add_result_shape(a, b);
	if (!res)
		return cmd_error(L, i, "b", b->name,
				 "shapes %s (\"%s\") and %s (\"%s\") do not match: they must be equal, or one rank-1 of the other's column count",
				 ttpu_buffer_shape_str(a, sa, sizeof(sa)), a->name,
				 ttpu_buffer_shape_str(b, sb, sizeof(sb)), b->name);
	if (!ttpu_buffer_same_shape(d, res))
		return cmd_error(L, i, "dst", d->name,
				 "dst \"%s\" has shape %s, the sum has shape %s",
				 d->name, ttpu_buffer_shape_str(d, sd, sizeof(sd)),
				 ttpu_buffer_shape_str(res, sa, sizeof(sa)));
	return 0;
}

static int check_command(struct ttpu_loader *L, size_t i)
{
	struct ttpu_command *c = &L->prog->cmds[i];
	const struct ttpu_buffer *d, *s;
	char sd[48], ss[48];
	int ret;

	switch (c->op) {
	case TTPU_OP_ALLOC:
		return resolve(L, i, "buf", &c->u.alloc.buf);
	case TTPU_OP_PASS:
		ret = check_window(L, i, "a.buf", &c->u.pass.a, true);
		return ret ? ret : check_window(L, i, "b.buf", &c->u.pass.b, true);
	case TTPU_OP_ACC:
		return check_epilogue(L, i, &c->u.acc.dst, &c->u.acc.bias);
	case TTPU_OP_EPILOGUE:
		return check_epilogue(L, i, &c->u.epilogue.dst, &c->u.epilogue.bias);
	case TTPU_OP_HOST_ADD:
		return check_host_add(L, i, c);
	case TTPU_OP_HOST_RELU:
		ret = resolve(L, i, "dst", &c->u.relu.dst);
		if (!ret)
			ret = resolve(L, i, "src", &c->u.relu.src);
		if (ret)
			return ret;
		d = &L->prog->buffers[c->u.relu.dst];
		s = &L->prog->buffers[c->u.relu.src];
		if (!ttpu_buffer_same_shape(d, s))
			return cmd_error(L, i, "dst", d->name,
					 "dst \"%s\" has shape %s, src \"%s\" has shape %s: they must be equal",
					 d->name, ttpu_buffer_shape_str(d, sd, sizeof(sd)), s->name,
					 ttpu_buffer_shape_str(s, ss, sizeof(ss)));
		return 0;
	}
	return cmd_error(L, i, "op", NULL, "unknown op");
}

/* The pending buffers become prog->buffers, const data in its dtype. */
static int build_buffers(struct ttpu_loader *L)
{
	struct ttpu_program *p = L->prog;
	size_t i, k;

	p->buffers = calloc(L->nbufs ? L->nbufs : 1, sizeof(*p->buffers));
	if (!p->buffers)
		return ttpu_error_nomem(L->err, "building buffers");
	p->nbuffers = L->nbufs;
	p->names = ttpu_names_new();
	if (!p->names)
		return ttpu_error_nomem(L->err, "building the name index");
	for (i = 0; i < L->nbufs; i++) {
		struct ttpu_pending_buffer *pb = &L->bufs[i];
		struct ttpu_buffer *b = &p->buffers[i];
		bool created;

		b->name = strdup(ttpu_names_get(L->intern, pb->name));
		if (!b->name ||
		    ttpu_names_intern(p->names, b->name, strlen(b->name), &created) != i)
			return ttpu_error_nomem(L->err, "building buffers");
		b->dtype = pb->dtype;
		b->kind = pb->kind;
		b->rank = pb->rank;
		b->rows = (uint32_t)pb->dims[0];
		b->cols = (uint32_t)pb->dims[1];
		b->count = (size_t)(pb->dims[0] * pb->dims[1]);
		b->input_index = -1;
		if (!pb->has_data)
			continue;
		if (b->dtype == TTPU_DTYPE_I32) {
			/* Same layout: hand the list's storage over. */
			b->init = pb->data.v;
			pb->data.v = NULL;
		} else {
			int8_t *d = malloc(b->count);

			if (!d)
				return ttpu_error_nomem(L->err, "building const data");
			for (k = 0; k < b->count; k++)
				d[k] = (int8_t)pb->data.v[k];
			b->init = d;
		}
		ttpu_int_list_free(&pb->data);
	}
	return 0;
}

static int list_error(struct ttpu_loader *L, const char *what, size_t i,
		      ttpu_js_pos offset, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int list_error(struct ttpu_loader *L, const char *what, size_t i,
		      ttpu_js_pos offset, const char *name, const char *fmt, ...)
{
	char path[48], msg[TTPU_ERROR_MESSAGE_MAX];
	va_list ap;
	int ret;

	if (i == NONE)
		ttpu_js_path(path, sizeof(path), "%s", what);
	else
		ttpu_js_path(path, sizeof(path), "%s[%zu]", what, i);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ret = ttpu_js_error_pos(L->js, offset, path, "%s", msg);
	ttpu_error_at_buffer(L->err, name);
	return ret;
}

static int build_lists(struct ttpu_loader *L)
{
	struct ttpu_program *p = L->prog;
	bool *is_output;
	size_t i;
	uint32_t b;
	int ret = 0;

	p->inputs = malloc((L->ninputs ? L->ninputs : 1) * sizeof(*p->inputs));
	p->outputs = malloc((L->noutputs ? L->noutputs : 1) * sizeof(*p->outputs));
	is_output = calloc(p->nbuffers ? p->nbuffers : 1, sizeof(*is_output));
	if (!p->inputs || !p->outputs || !is_output) {
		free(is_output);
		return ttpu_error_nomem(L->err, "building input/output lists");
	}
	for (i = 0; i < L->ninputs && !ret; i++) {
		const char *name = ttpu_names_get(L->intern, L->inputs[i]);

		b = L->inputs[i] < L->buf_of_name_cap ? L->buf_of_name[L->inputs[i]] : NONE;
		if (b == NONE)
			ret = list_error(L, "inputs", i, L->inputs_offset, name,
					 "no buffer named \"%s\"", name);
		else if (p->buffers[b].kind != TTPU_KIND_INPUT)
			ret = list_error(L, "inputs", i, L->inputs_offset, name,
					 "\"%s\" is a %s buffer, not an input", name,
					 p->buffers[b].kind == TTPU_KIND_CONST ? "const" : "temp");
		else if (p->buffers[b].input_index >= 0)
			ret = list_error(L, "inputs", i, L->inputs_offset, name,
					 "\"%s\" is listed twice", name);
		else
			p->buffers[b].input_index = (int32_t)i;
		p->inputs[i] = b;
	}
	p->ninputs = ret ? 0 : L->ninputs;
	for (i = 0; i < p->nbuffers && !ret; i++)
		if (p->buffers[i].kind == TTPU_KIND_INPUT && p->buffers[i].input_index < 0)
			ret = list_error(L, "inputs", NONE, L->inputs_offset, p->buffers[i].name,
					 "input buffer \"%s\" is not listed", p->buffers[i].name);
	for (i = 0; i < L->noutputs && !ret; i++) {
		const char *name = ttpu_names_get(L->intern, L->outputs[i]);

		b = L->outputs[i] < L->buf_of_name_cap ? L->buf_of_name[L->outputs[i]] : NONE;
		if (b == NONE)
			ret = list_error(L, "outputs", i, L->outputs_offset, name,
					 "no buffer named \"%s\"", name);
		else if (is_output[b])
			ret = list_error(L, "outputs", i, L->outputs_offset, name,
					 "\"%s\" is listed twice", name);
		else
			is_output[b] = true;
		p->outputs[i] = b;
	}
	p->noutputs = ret ? 0 : L->noutputs;
	free(is_output);
	return ret;
}

static int compare_estimate(struct ttpu_loader *L)
{
	const struct ttpu_estimate *e = &L->estimate, *m = &L->prog->measured;
	const struct { const char *key; uint64_t est, meas; } f[] = {
		{ "passes", e->passes, m->passes },
		{ "cycles_per_pass", e->cycles_per_pass, m->cycles_per_pass },
		{ "rtl_cycles", e->rtl_cycles, m->rtl_cycles },
		{ "host_ops.alloc", e->host_ops.count[TTPU_OP_ALLOC], m->host_ops.count[TTPU_OP_ALLOC] },
		{ "host_ops.acc", e->host_ops.count[TTPU_OP_ACC], m->host_ops.count[TTPU_OP_ACC] },
		{ "host_ops.epilogue", e->host_ops.count[TTPU_OP_EPILOGUE], m->host_ops.count[TTPU_OP_EPILOGUE] },
		{ "host_ops.host_add", e->host_ops.count[TTPU_OP_HOST_ADD], m->host_ops.count[TTPU_OP_HOST_ADD] },
		{ "host_ops.host_relu", e->host_ops.count[TTPU_OP_HOST_RELU], m->host_ops.count[TTPU_OP_HOST_RELU] },
		{ "useful_macs", e->useful_macs, m->useful_macs },
		{ "capacity_macs", e->capacity_macs, m->capacity_macs },
	};
	char path[48];
	double d, scale;
	size_t i;
	int ret = 0;

	if (!L->has_estimate)
		return 0;
	L->js->kind = TTPU_ESTIMATE_MISMATCH;
	for (i = 0; i < sizeof(f) / sizeof(f[0]) && !ret; i++) {
		if (f[i].est == f[i].meas)
			continue;
		ttpu_js_path(path, sizeof(path), "estimate.%s", f[i].key);
		ret = ttpu_js_error_pos(L->js, L->estimate_offset, path,
				       "the estimate says %llu, the program measures %llu",
				       (unsigned long long)f[i].est,
				       (unsigned long long)f[i].meas);
	}
	d = fabs(e->utilization - m->utilization);
	scale = fmax(fabs(e->utilization), fabs(m->utilization));
	if (!ret && !(d <= 1e-9 * scale))
		ret = ttpu_js_error_pos(L->js, L->estimate_offset, "estimate.utilization",
				       "the estimate says %.17g, the program measures %.17g",
				       e->utilization, m->utilization);
	L->js->kind = TTPU_SCHEMA_ERROR;
	return ret;
}

int ttpu_loader_finish(struct ttpu_loader *L)
{
	struct ttpu_program *p = L->prog;
	size_t i;
	int ret;

	for (i = 0; i < p->npasses; i++) {
		if (L->consumer[i] != NONE)
			continue;
		ret = cmd_error(L, p->pass_cmd[i], "id", NULL,
				"pass %lld is never consumed by an acc",
				(long long)p->pass_ids[i]);
		return ret;
	}
	/* Never NULL, even without passes: readers may memcpy zero items. */
	if (!p->pass_ids) {
		p->pass_ids = calloc(1, sizeof(*p->pass_ids));
		p->pass_cmd = calloc(1, sizeof(*p->pass_cmd));
		if (!p->pass_ids || !p->pass_cmd)
			return ttpu_error_nomem(L->err, "building passes");
	}
	if (!p->cmds) {
		p->cmds = calloc(1, sizeof(*p->cmds));
		if (!p->cmds)
			return ttpu_error_nomem(L->err, "building commands");
	}
	ret = build_buffers(L);
	if (!ret)
		ret = build_lists(L);
	for (i = 0; !ret && i < p->ncmds; i++)
		ret = check_command(L, i);
	if (ret)
		return ret;
	ttpu_program_measure(p, L->has_estimate ? L->estimate.passes_skipped : 0,
			     &p->measured);
	return compare_estimate(L);
}
