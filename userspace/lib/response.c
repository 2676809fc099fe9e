// SPDX-License-Identifier: MIT
/*
 * response.c - results and the contract's response/error objects
 *
 * A result is a copy of a finished run's outputs (it outlives the
 * program and the run), made and freed here, with a reference to the
 * program's passes list (response_passes.c).
 *
 * A response can hold hundreds of thousands of values and pass records,
 * so it is streamed through a fixed buffer, never built as a json-c
 * tree. Error objects are small and go through json-c, which gets string
 * escaping right for free.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "response_number.h"
#include "response_passes.h"
#include "run.h"

int ttpu_result_new(const struct ttpu_program *prog,
		    const struct ttpu_run_ctx *ctx, const char *engine,
		    const char *reason, ttpu_result **out,
		    struct ttpu_error *err)
{
	struct ttpu_result *res = calloc(1, sizeof(*res));

	if (!res)
		goto oom;
	res->outputs = calloc(prog->noutputs + 1, sizeof(*res->outputs));
	res->passes = ttpu_passes_text_get(prog);
	if (!res->outputs || !res->passes)
		goto oom;
	for (size_t i = 0; i < prog->noutputs; i++) {
		const struct ttpu_buffer *b = &prog->buffers[prog->outputs[i]];
		const void *d = ctx->data[prog->outputs[i]];
		struct ttpu_result_output *o = &res->outputs[res->noutputs++];

		o->name = strdup(b->name);
		o->data = malloc((b->count ? b->count : 1) * sizeof(int32_t));
		if (!o->name || !o->data)
			goto oom;
		o->rank = b->rank;
		o->rows = b->rows;
		o->cols = b->cols;
		o->count = b->count;
		if (b->dtype == TTPU_DTYPE_I32)
			memcpy(o->data, d, b->count * sizeof(int32_t));
		else
			for (size_t e = 0; e < b->count; e++)
				o->data[e] = ((const int8_t *)d)[e];
	}
	res->npasses = prog->npasses;
	if (prog->npasses) {
		res->first_pass_id = prog->pass_ids[0];
		res->last_pass_id = prog->pass_ids[prog->npasses - 1];
	}
	/* A run that succeeds executed every command once. */
	res->host_ops = prog->measured.host_ops;
	res->stats = ctx->stats;
	snprintf(res->engine, sizeof(res->engine), "%s", engine);
	snprintf(res->engine_reason, sizeof(res->engine_reason), "%s", reason);
	*out = res;
	return 0;
oom:
	ttpu_result_free(res);
	return ttpu_error_nomem(err, "copying the result");
}

void ttpu_result_free(ttpu_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->noutputs; i++) {
		free(res->outputs[i].name);
		free(res->outputs[i].data);
	}
	free(res->outputs);
	ttpu_passes_text_put(res->passes);
	free(res);
}

const struct ttpu_run_stats *ttpu_result_stats(const ttpu_result *res)
{
	return res ? &res->stats : NULL;
}

const int32_t *ttpu_result_output(const ttpu_result *res, const char *name,
				  size_t *count)
{
	if (res && name) {
		for (size_t i = 0; i < res->noutputs; i++) {
			if (!strcmp(res->outputs[i].name, name)) {
				if (count)
					*count = res->outputs[i].count;
				return res->outputs[i].data;
			}
		}
	}
	if (count)
		*count = 0;
	return NULL;
}

struct writer {
	FILE *f;
	size_t n;
	int error;			/* errno of the first failed write */
	char buf[1 << 16];
};

static void w_flush(struct writer *w)
{
	if (w->n && !w->error && fwrite(w->buf, 1, w->n, w->f) != w->n)
		w->error = errno ? errno : EIO;
	w->n = 0;
}

/*
 * A long piece (the passes list: megabytes) straight to the stream's file
 * descriptor once the stream is flushed: through fwrite() stdio would copy
 * up to a buffer's worth of it first (a megabyte on ttpu-run's stdout).
 * A stream without a descriptor (fmemopen(), open_memstream()) takes
 * fwrite().
 */
static void w_direct(struct writer *w, const char *s, size_t len)
{
	int fd;

	w_flush(w);
	if (w->error)
		return;
	if (fflush(w->f)) {
		w->error = errno ? errno : EIO;
		return;
	}
	fd = fileno(w->f);
	if (fd < 0) {
		if (fwrite(s, 1, len, w->f) != len)
			w->error = errno ? errno : EIO;
		return;
	}
	while (len) {
		ssize_t k = write(fd, s, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			w->error = k < 0 ? errno : EIO;
			return;
		}
		s += k;
		len -= (size_t)k;
	}
}

static void w_mem(struct writer *w, const char *s, size_t len)
{
	if (len >= sizeof(w->buf)) {	/* straight from where it is */
		w_direct(w, s, len);
		return;
	}
	while (len) {
		size_t k = sizeof(w->buf) - w->n;

		if (!k) {
			w_flush(w);
			continue;
		}
		if (k > len)
			k = len;
		memcpy(w->buf + w->n, s, k);
		w->n += k;
		s += k;
		len -= k;
	}
}

static void w_str(struct writer *w, const char *s)
{
	w_mem(w, s, strlen(s));
}

/* A string literal, its length known when compiled. */
#define W_LIT(w, lit) w_mem(w, lit, sizeof(lit) - 1)

/* @len free bytes at the buffer's end, flushing it first if need be. */
static char *w_room(struct writer *w, size_t len)
{
	if (sizeof(w->buf) - w->n < len)
		w_flush(w);
	return w->buf + w->n;
}

static void w_int(struct writer *w, int64_t v)
{
	char *p = w_room(w, INT_MAX_CHARS);

	w->n += fmt_int(p, v);
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void w_jstr(struct writer *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	w_mem(w, "\"", 1);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		char esc[6] = { '\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15] };

		if (ch == '"' || ch == '\\') {
			w_mem(w, "\\", 1);
			w_mem(w, s, 1);
		} else if (ch < 0x20) {
			w_mem(w, esc, sizeof(esc));
		} else {
			w_mem(w, s, 1);
		}
	}
	w_mem(w, "\"", 1);
}

static void w_key_int(struct writer *w, const char *key, int64_t v, bool more)
{
	w_jstr(w, key);
	w_mem(w, ": ", 2);
	w_int(w, v);
	if (more)
		w_mem(w, ", ", 2);
}

static void w_row(struct writer *w, const int32_t *v, size_t n)
{
	char *p;

	W_LIT(w, "[");
	for (size_t i = 0; i < n; i++) {
		p = w_room(w, 2 + INT_MAX_CHARS);
		if (i) {
			memcpy(p, ", ", 2);
			w->n += 2;
			p += 2;
		}
		w->n += fmt_int(p, v[i]);
	}
	W_LIT(w, "]");
}

static void w_output(struct writer *w, const struct ttpu_result_output *o)
{
	w_jstr(w, o->name);
	w_str(w, ": {\"shape\": [");
	if (o->rank == 2) {
		w_int(w, o->rows);
		w_mem(w, ", ", 2);
	}
	w_int(w, o->cols);
	w_str(w, "], \"data\": ");
	if (o->rank == 1) {
		w_row(w, o->data, o->cols);
	} else {
		w_mem(w, "[", 1);
		for (size_t r = 0; r < o->rows; r++) {
			if (r)
				w_mem(w, ", ", 2);
			w_row(w, o->data + r * o->cols, o->cols);
		}
		w_mem(w, "]", 1);
	}
	w_mem(w, "}", 1);
}

static void w_stats(struct writer *w, const struct ttpu_run_stats *s)
{
	w_str(w, ", \"stats\": {");
	w_key_int(w, "passes", (int64_t)s->passes, true);
	w_key_int(w, "stages", (int64_t)s->stages, true);
	w_key_int(w, "kicks", (int64_t)s->kicks, true);
	w_key_int(w, "ioctls", (int64_t)s->ioctls, true);
	w_key_int(w, "mmioReads", (int64_t)s->mmio_reads, true);
	w_key_int(w, "mmioWrites", (int64_t)s->mmio_writes, true);
	w_key_int(w, "dmaBytes", (int64_t)s->dma_bytes, true);
	w_key_int(w, "deviceNs", (int64_t)s->device_ns, true);
	w_key_int(w, "runNs", (int64_t)s->run_ns, false);
	w_mem(w, "}", 1);
}

static const char *const passes_form_names[] = {
	[TTPU_PASSES_FULL] = "full",
	[TTPU_PASSES_SUMMARY] = "summary",
	[TTPU_PASSES_NONE] = "none",
};

#define NFORMS (sizeof(passes_form_names) / sizeof(passes_form_names[0]))

const char *ttpu_passes_form_name(enum ttpu_passes_form form)
{
	return (unsigned int)form < NFORMS ? passes_form_names[form] : NULL;
}

int ttpu_passes_form_parse(const char *name, enum ttpu_passes_form *form,
			   struct ttpu_error *err)
{
	if (!name || !form)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_passes_form_parse: NULL argument");
	for (size_t i = 0; i < NFORMS; i++) {
		if (!strcmp(name, passes_form_names[i])) {
			*form = (enum ttpu_passes_form)i;
			return 0;
		}
	}
	return ttpu_error_set(err, TTPU_USAGE_ERROR,
			      "unknown passes form '%s' (expected full, summary or none)", name);
}

/* "passes" in @form, with the separator after it. */
static void w_passes(struct writer *w, const ttpu_result *res, enum ttpu_passes_form form)
{
	if (form == TTPU_PASSES_NONE)
		return;
	if (form == TTPU_PASSES_FULL) {
		w_str(w, "\"passes\": [");
		w_mem(w, res->passes->text, res->passes->len);
		w_str(w, "], ");
		return;
	}
	w_str(w, "\"passes\": {");
	w_key_int(w, "count", (int64_t)res->npasses, res->npasses);
	if (res->npasses) {
		w_key_int(w, "firstId", res->first_pass_id, true);
		w_key_int(w, "lastId", res->last_pass_id, false);
	}
	w_str(w, "}, ");
}

int ttpu_result_write_json(const ttpu_result *res, FILE *f, int with_stats,
			   struct ttpu_error *err)
{
	return ttpu_result_write_json_passes(res, f, with_stats, TTPU_PASSES_FULL, err);
}

int ttpu_result_write_json_passes(const ttpu_result *res, FILE *f, int with_stats,
				  enum ttpu_passes_form form, struct ttpu_error *err)
{
	static const struct { const char *key; enum ttpu_op op; } host_ops[] = {
		{ "alloc", TTPU_OP_ALLOC }, { "acc", TTPU_OP_ACC },
		{ "epilogue", TTPU_OP_EPILOGUE }, { "host_add", TTPU_OP_HOST_ADD },
		{ "host_relu", TTPU_OP_HOST_RELU },
	};
	struct writer *w;
	int werr;

	if (!res || !f)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				     "ttpu_result_write_json: no %s", res ? "stream" : "result");
	if (!ttpu_passes_form_name(form))
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_result_write_json_passes: no passes form %d", (int)form);
	w = malloc(sizeof(*w));
	if (!w)
		return ttpu_error_nomem(err, "writing the response");
	w->f = f;
	w->n = 0;
	w->error = 0;

	w_str(w, "{\"outputs\": {");
	for (size_t i = 0; i < res->noutputs; i++) {
		if (i)
			w_mem(w, ", ", 2);
		w_output(w, &res->outputs[i]);
	}
	w_str(w, "}, ");
	w_passes(w, res, form);
	w_key_int(w, "totalCycles", (int64_t)res->stats.total_cycles, true);
	w_str(w, "\"hostOps\": {");
	for (size_t i = 0; i < sizeof(host_ops) / sizeof(host_ops[0]); i++)
		w_key_int(w, host_ops[i].key, (int64_t)res->host_ops.count[host_ops[i].op],
			  i + 1 < sizeof(host_ops) / sizeof(host_ops[0]));
	w_str(w, "}, \"engine\": ");
	w_jstr(w, res->engine);
	w_str(w, ", \"engineReason\": ");
	w_jstr(w, res->engine_reason);
	if (with_stats)
		w_stats(w, &res->stats);
	w_str(w, "}\n");
	w_flush(w);
	werr = w->error;
	free(w);
	if (!werr && fflush(f))
		werr = errno ? errno : EIO;
	if (werr) {
		return ttpu_error_sys(err, werr, "writing the response");
	}
	return 0;
}

int ttpu_error_write_json(const struct ttpu_error *err, FILE *f)
{
	struct json_object *root, *e;
	const char *text;
	int ret = 0;

	if (!err || !f)
		return -TTPU_USAGE_ERROR;
	root = json_object_new_object();
	e = json_object_new_object();
	if (!root || !e) {
		json_object_put(root);
		json_object_put(e);
		return -TTPU_SYSTEM_ERROR;
	}
	json_object_object_add(root, "error", e);
	json_object_object_add(e, "kind", json_object_new_string(ttpu_error_kind_name(err->kind)));
	json_object_object_add(e, "message", json_object_new_string(err->message));
	if (err->command >= 0)
		json_object_object_add(e, "command", json_object_new_int64(err->command));
	if (err->op[0])
		json_object_object_add(e, "op", json_object_new_string(err->op));
	if (err->field[0])
		json_object_object_add(e, "field", json_object_new_string(err->field));
	if (err->buffer[0])
		json_object_object_add(e, "buffer", json_object_new_string(err->buffer));
	if (err->element >= 0)
		json_object_object_add(e, "element", json_object_new_int64(err->element));
	if (err->row >= 0)
		json_object_object_add(e, "row", json_object_new_int64(err->row));
	if (err->col >= 0)
		json_object_object_add(e, "col", json_object_new_int64(err->col));
	if (err->line > 0)
		json_object_object_add(e, "line", json_object_new_int64(err->line));
	if (err->column > 0)
		json_object_object_add(e, "column", json_object_new_int64(err->column));
	if (err->sys_errno)
		json_object_object_add(e, "errno", json_object_new_int(err->sys_errno));
	/* Paths in messages stay readable: "/dev/npukit0", not "\/dev\/npukit0". */
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (fprintf(f, "%s\n", text) < 0 || fflush(f))
		ret = -TTPU_SYSTEM_ERROR;
	json_object_put(root);
	return ret;
}
