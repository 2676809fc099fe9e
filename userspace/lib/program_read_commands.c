// SPDX-License-Identifier: MIT
/*
 * program_read_commands.c - stream a program's "commands" array
 *
 * The hot loop of loading: a program may hold 200k commands. Each is read
 * by the direct reader (program_read_command_direct.c) when it is plain,
 * else parsed by json-c alone, its members gathered in one walk and
 * freed; either way it is converted by the same steps (convert_fields())
 * to a 32-byte struct ttpu_command. Pass ids get their dense slots
 * here (program_pass_map.c), and each acc is matched to the pass it
 * consumes; buffer names are only interned, and resolved by
 * program_validate.c once every buffer is known.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "error.h"
#include "program_pass_map.h"
#include "program_read_command_direct.h"
#include "program_read_command_keys.h"
#include "program_read_commands.h"
#include "program_read_field.h"
#include "text_json_strict.h"
#include "util.h"

/* "@base[@i]" without printf: it labels every command. */
static void index_path(char path[32], const char *base, size_t i)
{
	char digits[24];
	size_t n = 0, len = strlen(base);

	do {
		digits[n++] = (char)('0' + i % 10);
		i /= 10;
	} while (i);
	memcpy(path, base, len);
	path[len++] = '[';
	while (n)
		path[len++] = digits[--n];
	path[len++] = ']';
	path[len] = '\0';
}

/*
 * A command's members are gathered in one walk of json-c's object, each
 * key classified by a switch (ttpu_cmd_key_find()): no hash lookup per
 * field, and the members are counted (for the duplicate-key check) on the
 * way. json-c's keys are C strings: a key ends at its first NUL, as
 * strcmp sees it.
 */
static int classify_key(const char *k)
{
	return ttpu_cmd_key_find(k, strlen(k));
}


static const char *const window_keys[3] = { "buf", "r", "c" };

/*
 * A window's members: buf, r, c (a JSON null is NULL: @present tells it
 * from a missing key), and whether any other key is there.
 */
struct win_members {
	struct json_object *v[3];
	unsigned int present;		/* bit per v[] */
	bool unknown;
};

struct cmd_members {
	struct json_object *v[TTPU_CK_UNKNOWN];
	unsigned int present;		/* TTPU_CKB() per key met */
	bool unknown;			/* a key no command has */
	struct win_members win[3];	/* of "a", "b", "dst" when objects */
	size_t count;			/* members at every level */
};

static size_t nested_members(struct json_object *val)
{
	enum json_type t = json_object_get_type(val);

	return t == json_type_object || t == json_type_array ?
		ttpu_js_count_members(val) : 0;
}

static void collect_window(struct json_object *obj, struct win_members *w,
			   size_t *count)
{
	json_object_object_foreach(obj, key, val) {
		int k = classify_key(key);
		int i = k == TTPU_CK_BUF ? 0 : k == TTPU_CK_R ? 1 : k == TTPU_CK_C ? 2 : -1;

		(*count) += 1 + nested_members(val);
		if (i < 0) {
			w->unknown = true;
			continue;
		}
		w->v[i] = val;
		w->present |= 1u << i;
	}
}

static void collect_command(struct json_object *obj, struct cmd_members *m)
{
	json_object_object_foreach(obj, key, val) {
		int k = classify_key(key), wi;

		m->count++;
		if (k == TTPU_CK_UNKNOWN) {
			m->unknown = true;
			m->count += nested_members(val);
			continue;
		}
		m->v[k] = val;
		m->present |= TTPU_CKB(k);
		wi = k == TTPU_CK_A ? 0 : k == TTPU_CK_B ? 1 : k == TTPU_CK_DST ? 2 : -1;
		if (wi >= 0 && json_object_is_type(val, json_type_object))
			collect_window(val, &m->win[wi], &m->count);
		else
			m->count += nested_members(val);
	}
}

/* Beyond UINT32_MAX a window lies outside any buffer: keep it there. */
static void set_origin(struct ttpu_window *w, int64_t r, int64_t c)
{
	w->r = r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
	w->c = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

static int get_window(struct ttpu_loader *L, const struct ttpu_jpath *p,
		      struct json_object *obj, const struct win_members *m,
		      struct ttpu_window *w)
{
	char path[TTPU_PATH_MAX];
	struct ttpu_jpath q = *p;
	int64_t rc[2];
	int i, ret;

	if (!json_object_is_type(obj, json_type_object))
		return ttpu_js_error(L->js, ttpu_jpath_str(p, path, sizeof(path)),
				     "expected a window {\"buf\", \"r\", \"c\"}, got %s",
				     ttpu_js_describe(obj));
	if (m->unknown) {
		/* Name the first one in the text's order. */
		json_object_object_foreach(obj, key, val) {
			(void)val;
			if (ttpu_js_key_index(key, window_keys, 3) < 0)
				return ttpu_js_unknown_key(L->js, ttpu_jpath_str(p, path, sizeof(path)), key,
						   window_keys, 3);
		}
	}
	for (i = 0; i < 3; i++) {
		q.k2 = window_keys[i];
		if (!(m->present & (1u << i)))
			return ttpu_js_error(L->js, ttpu_jpath_str(p, path, sizeof(path)),
					     "missing key \"%s\"", window_keys[i]);
		if (i == 0)
			ret = ttpu_read_name(L, &q, m->v[i], &w->buf);
		else
			ret = ttpu_read_uint(L->js, &q, m->v[i], 0, &rc[i - 1]);
		if (ret)
			return ret;
	}
	set_origin(w, rc[0], rc[1]);
	return 0;
}

static int add_pass(struct ttpu_loader *L, size_t idx, const struct ttpu_jpath *jp,
		    int64_t id, uint32_t *slot)
{
	struct ttpu_program *p = L->prog;
	char path[TTPU_PATH_MAX];
	uint32_t other = ttpu_pass_map_find(L->pass_map, id);

	if (other != TTPU_NO_SLOT)
		return ttpu_js_error(L->js, ttpu_jpath_str(jp, path, sizeof(path)), "pass id %lld is not unique (also commands[%u])",
				     (long long)id, p->pass_cmd[other]);
	if (p->npasses >= UINT32_MAX - 1)
		return ttpu_js_error(L->js, ttpu_jpath_str(jp, path, sizeof(path)), "too many passes");
	if (p->npasses == L->passes_cap &&
	    ttpu_grow(&p->pass_ids, &L->passes_cap, p->npasses + 1, sizeof(*p->pass_ids)))
		return ttpu_error_nomem(L->err, "reading passes");
	/* The three by-slot arrays share one capacity: grow the others alike. */
	if (L->pass_aux_cap != L->passes_cap) {
		if (ttpu_resize(&p->pass_cmd, L->passes_cap, sizeof(*p->pass_cmd)) ||
		    ttpu_resize(&L->consumer, L->passes_cap, sizeof(*L->consumer)))
			return ttpu_error_nomem(L->err, "reading passes");
		L->pass_aux_cap = L->passes_cap;
	}
	*slot = (uint32_t)p->npasses;
	if (ttpu_pass_map_add(L->pass_map, id, *slot))
		return ttpu_error_nomem(L->err, "indexing pass ids");
	p->pass_ids[*slot] = id;
	p->pass_cmd[*slot] = (uint32_t)idx;
	L->consumer[*slot] = UINT32_MAX;
	p->npasses++;
	return 0;
}

static int consume_pass(struct ttpu_loader *L, size_t idx,
			const struct ttpu_jpath *jp, int64_t id, uint32_t *slot)
{
	char path[TTPU_PATH_MAX];

	*slot = ttpu_pass_map_find(L->pass_map, id);
	if (*slot == TTPU_NO_SLOT)
		return ttpu_js_error(L->js, ttpu_jpath_str(jp, path, sizeof(path)), "acc names pass %lld, which has not run before it",
				     (long long)id);
	if (L->consumer[*slot] != UINT32_MAX)
		return ttpu_js_error(L->js, ttpu_jpath_str(jp, path, sizeof(path)), "pass %lld was already consumed by commands[%u]",
				     (long long)id, L->consumer[*slot]);
	L->consumer[*slot] = (uint32_t)idx;
	return 0;
}

/* The window collected for key @k (a, b or dst). */
static const struct win_members *win_of(const struct cmd_members *m, int k)
{
	return &m->win[k == TTPU_CK_A ? 0 : k == TTPU_CK_B ? 1 : 2];
}

/*
 * A command's fields as one of its two readers found them: json-c's
 * members, each still to be checked for its type, or the direct reader's
 * values, already of the right one. convert_fields() reads both through
 * the field_*() below, so a command converts through the same steps, in
 * the same order, whichever reader read it.
 */
struct cmd_fields {
	const struct cmd_members *m;		/* json-c's, or NULL for: */
	const struct ttpu_direct_command *d;
};

static bool field_present(const struct cmd_fields *f, int k)
{
	return (f->m ? f->m->present : f->d->present) & TTPU_CKB(k);
}

static int field_name(struct ttpu_loader *L, const struct ttpu_jpath *p,
		      const struct cmd_fields *f, int k, uint32_t *id)
{
	if (f->m)
		return ttpu_read_name(L, p, f->m->v[k], id);
	return ttpu_intern_name(L, p, f->d->v[k].s, f->d->v[k].len, id);
}

static int field_uint(struct ttpu_loader *L, const struct ttpu_jpath *p,
		      const struct cmd_fields *f, int k, int64_t *n)
{
	if (f->m)
		return ttpu_read_uint(L->js, p, f->m->v[k], 0, n);
	*n = f->d->v[k].n;
	return 0;
}

static int field_window(struct ttpu_loader *L, const struct ttpu_jpath *p,
			const struct cmd_fields *f, int k, struct ttpu_window *w)
{
	const struct ttpu_direct_window *dw;
	struct ttpu_jpath q = *p;
	int ret;

	if (f->m)
		return get_window(L, p, f->m->v[k], win_of(f->m, k), w);
	dw = &f->d->v[k].w;
	q.k2 = window_keys[0];
	ret = ttpu_intern_name(L, &q, dw->buf, dw->buf_len, &w->buf);
	if (!ret)
		set_origin(w, dw->r, dw->c);
	return ret;
}

static int field_relu(struct ttpu_loader *L, const struct ttpu_jpath *p,
		      const struct cmd_fields *f, int k, uint8_t *relu)
{
	char path[TTPU_PATH_MAX];
	struct json_object *v;

	if (!f->m) {
		*relu = f->d->v[k].b ? 1 : 0;
		return 0;
	}
	v = f->m->v[k];
	if (!json_object_is_type(v, json_type_boolean))
		return ttpu_js_error(L->js, ttpu_jpath_str(p, path, sizeof(path)),
				     "expected a boolean, got %s", ttpu_js_describe(v));
	*relu = json_object_get_boolean(v) ? 1 : 0;
	return 0;
}

/*
 * commands[@idx], of op @op, whose keys are known to be the op's: each
 * field read into @cmd in the op's order, with the pass ids matched.
 */
static int convert_fields(struct ttpu_loader *L, size_t idx, int op,
			  const struct cmd_fields *f, struct ttpu_command *cmd)
{
	const struct ttpu_op_spec *spec = &ttpu_op_specs[op];
	int64_t n;
	int ret = 0;

	memset(cmd, 0, sizeof(*cmd));
	cmd->op = (uint8_t)op;
#define FIELD(i) (&(struct ttpu_jpath){ .base = "commands", .idx = idx, .k1 = spec->keys[i] })
#define CK(i) (spec->ck[i])
	switch (op) {
	case TTPU_OP_ALLOC:
		ret = field_name(L, FIELD(0), f, CK(0), &cmd->u.alloc.buf);
		break;
	case TTPU_OP_PASS:
		ret = field_window(L, FIELD(1), f, CK(1), &cmd->u.pass.a);
		if (!ret)
			ret = field_window(L, FIELD(2), f, CK(2), &cmd->u.pass.b);
		if (!ret)
			ret = field_uint(L, FIELD(0), f, CK(0), &n);
		if (!ret)
			ret = add_pass(L, idx, FIELD(0), n, &cmd->u.pass.slot);
		break;
	case TTPU_OP_ACC:
	case TTPU_OP_EPILOGUE: {
		int d = op == TTPU_OP_ACC ? 1 : 0;
		struct ttpu_window *dst = op == TTPU_OP_ACC ? &cmd->u.acc.dst :
						 &cmd->u.epilogue.dst;
		uint32_t *bias = op == TTPU_OP_ACC ? &cmd->u.acc.bias :
					&cmd->u.epilogue.bias;

		ret = field_window(L, FIELD(d), f, CK(d), dst);
		*bias = TTPU_NO_BUFFER;
		if (!ret && field_present(f, CK(d + 1)))
			ret = field_name(L, FIELD(d + 1), f, CK(d + 1), bias);
		if (!ret && field_present(f, CK(d + 2)))
			ret = field_relu(L, FIELD(d + 2), f, CK(d + 2), &cmd->relu);
		if (!ret && op == TTPU_OP_ACC) {
			ret = field_uint(L, FIELD(0), f, CK(0), &n);
			if (!ret)
				ret = consume_pass(L, idx, FIELD(0), n, &cmd->u.acc.slot);
		}
		break;
	}
	case TTPU_OP_HOST_ADD:
		ret = field_name(L, FIELD(0), f, CK(0), &cmd->u.add.dst);
		if (!ret)
			ret = field_name(L, FIELD(1), f, CK(1), &cmd->u.add.a);
		if (!ret)
			ret = field_name(L, FIELD(2), f, CK(2), &cmd->u.add.b);
		break;
	case TTPU_OP_HOST_RELU:
		ret = field_name(L, FIELD(0), f, CK(0), &cmd->u.relu.dst);
		if (!ret)
			ret = field_name(L, FIELD(1), f, CK(1), &cmd->u.relu.src);
		break;
	}
#undef CK
#undef FIELD
	if (ret)
		ttpu_error_at_command(L->err, (long)idx, ttpu_op_names[op]);
	return ret;
}

/*
 * @obj is commands[@idx], parsed by json-c, whose text held @colons
 * name/value separators: fewer members means json-c dropped a duplicate
 * key. What the direct reader leaves to json-c is reported here.
 */
static int convert_command(struct ttpu_loader *L, size_t idx,
			   struct json_object *obj, size_t colons,
			   struct ttpu_command *cmd)
{
	struct json_object *opv;
	char base[TTPU_PATH_MAX], path[TTPU_PATH_MAX];
	const struct ttpu_op_spec *spec;
	struct cmd_members m;
	const char *opname;
	const struct ttpu_jpath cp = { .base = "commands", .idx = idx };
	int op, i, ret;

#define BASE ttpu_jpath_str(&cp, base, sizeof(base))
#define OPPATH (ttpu_js_path(path, sizeof(path), "%s.op", BASE), path)

	if (!json_object_is_type(obj, json_type_object)) {
		if (colons && colons != ttpu_js_count_members(obj))
			return ttpu_js_duplicate(L->js, BASE);
		return ttpu_js_error(L->js, BASE, "expected a command object, got %s",
				     ttpu_js_describe(obj));
	}
	memset(&m, 0, sizeof(m));
	collect_command(obj, &m);
	if (colons != m.count)
		return ttpu_js_duplicate(L->js, BASE);
	opv = m.v[TTPU_CK_OP];
	if (!(m.present & TTPU_CKB(TTPU_CK_OP)))
		return ttpu_js_error(L->js, BASE, "missing key \"op\"");
	if (!json_object_is_type(opv, json_type_string))
		return ttpu_js_error(L->js, OPPATH, "expected a string, got %s",
				     ttpu_js_describe(opv));
	opname = json_object_get_string(opv);
	op = ttpu_op_find(opname, (size_t)json_object_get_string_len(opv));
	if (op < 0)
		return ttpu_js_error(L->js, OPPATH, "unknown op \"%s\" (one of alloc, pass, acc, epilogue, host_add, host_relu)",
				     opname);
	spec = &ttpu_op_specs[op];
	ret = 0;
	if (m.unknown || (m.present & ~spec->allowed)) {
		/* Name the first key this op does not take, in the text's order. */
		json_object_object_foreach(obj, key, val) {
			(void)val;
			if (!strcmp(key, "op") || ttpu_js_key_index(key, spec->keys, 5) >= 0)
				continue;
			char what[TTPU_PATH_MAX];

			ttpu_js_path(what, sizeof(what), "%s (op %s)", BASE, opname);
			ret = ttpu_js_unknown_key(L->js, what, key, spec->keys, 5);
			ttpu_error_at_field(L->err, BASE);
			goto out;
		}
	}
	for (i = 0; i < (int)spec->nkeys; i++) {
		/* A null member is present (json-c gives it as NULL): not absent. */
		if ((spec->required & (1u << i)) && !(m.present & TTPU_CKB(spec->ck[i]))) {
			ret = ttpu_js_error(L->js, BASE, "missing key \"%s\" (op %s)",
					    spec->keys[i], opname);
			goto out;
		}
	}
#undef OPPATH
#undef BASE
	return convert_fields(L, idx, op, &(struct cmd_fields){ .m = &m }, cmd);
out:
	ttpu_error_at_command(L->err, (long)idx, opname);
	return ret;
}

bool ttpu_commands_direct = true;

int ttpu_loader_read_commands(struct ttpu_loader *L)
{
	struct ttpu_program *p = L->prog;
	struct ttpu_direct_command dc;
	struct json_object *obj;
	bool first = true, direct;
	size_t colons;
	int ret;

	ret = ttpu_js_array_begin(L->js, "commands");
	while (!ret && (ret = ttpu_js_array_next(L->js, "commands", &first)) > 0) {
		char path[32];

		index_path(path, "commands", p->ncmds);
		obj = NULL;
		direct = ttpu_commands_direct && ttpu_command_scan_direct(L->js, &dc);
		if (!direct) {
			ret = ttpu_js_value_raw(L->js, path, &obj, &colons);
			if (ret)
				break;
		}
		if (p->ncmds >= UINT32_MAX - 1) {
			json_object_put(obj);
			return ttpu_js_error(L->js, path, "too many commands");
		}
		if (p->ncmds == L->cmds_cap &&
		    ttpu_grow(&p->cmds, &L->cmds_cap, p->ncmds + 1, sizeof(*p->cmds))) {
			json_object_put(obj);
			return ttpu_error_nomem(L->err, "reading commands");
		}
		if (L->cmd_offset_cap != L->cmds_cap) {
			if (ttpu_resize(&L->cmd_offset, L->cmds_cap, sizeof(*L->cmd_offset))) {
				json_object_put(obj);
				return ttpu_error_nomem(L->err, "reading commands");
			}
			L->cmd_offset_cap = L->cmds_cap;
		}
		L->cmd_offset[p->ncmds] = ttpu_js_mark_elem(L->js);
		if (direct)
			ret = convert_fields(L, p->ncmds, dc.op,
					     &(struct cmd_fields){ .d = &dc },
					     &p->cmds[p->ncmds]);
		else
			ret = convert_command(L, p->ncmds, obj, colons, &p->cmds[p->ncmds]);
		json_object_put(obj);
		if (!ret)
			p->ncmds++;
	}
	/* Even a command too broken to have an op is command number N. */
	if (ret < 0 && L->err && L->err->command < 0 && L->err->kind == TTPU_SCHEMA_ERROR &&
	    !strncmp(L->err->field, "commands[", 9))
		ttpu_error_at_command(L->err, (long)p->ncmds, "");
	return ret < 0 ? ret : 0;
}
