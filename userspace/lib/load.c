// SPDX-License-Identifier: MIT
/*
 * load.c - stream a ttpu program (or a request) into its compact form
 *
 * The document is never held as a json-c tree: the top-level object, the
 * "buffers" object, each buffer's "data" and the "commands" array are
 * walked here, and json-c parses one small element at a time (a command, a
 * row of data), which is converted at once and freed. What needs the whole
 * document (names used before they are defined, cross-checks, the cost
 * figures) is done by validate.c once the program object is closed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "error.h"
#include "inputs.h"
#include "load.h"
#include "plan.h"
#include "util.h"

const char *const ttpu_op_names[TTPU_OP_COUNT] = {
	[TTPU_OP_ALLOC] = "alloc",
	[TTPU_OP_PASS] = "pass",
	[TTPU_OP_ACC] = "acc",
	[TTPU_OP_EPILOGUE] = "epilogue",
	[TTPU_OP_HOST_ADD] = "host_add",
	[TTPU_OP_HOST_RELU] = "host_relu",
};

static const size_t ttpu_op_lens[TTPU_OP_COUNT] = {
	[TTPU_OP_ALLOC] = 5, [TTPU_OP_PASS] = 4, [TTPU_OP_ACC] = 3,
	[TTPU_OP_EPILOGUE] = 8, [TTPU_OP_HOST_ADD] = 8, [TTPU_OP_HOST_RELU] = 9,
};

#define PATH_MAX_LEN TTPU_ERROR_NAME_MAX
#define NONE UINT32_MAX

/* ---- pass id -> slot ------------------------------------------------- */

/*
 * Compilers number passes 0, 1, 2, ...: ids below dense_cap are looked up
 * directly; the array only grows while it stays within a small multiple of
 * the passes seen, so scattered ids (any int64) go to the hash instead.
 */
struct ttpu_pass_map {
	uint32_t *dense;		/* by id: slot + 1, 0 = empty */
	size_t dense_cap;
	int64_t *ids;
	uint32_t *slots;		/* slot + 1, 0 = empty */
	size_t n, cap;			/* cap: power of two */
};

static uint64_t id_hash(int64_t id)
{
	uint64_t x = (uint64_t)id;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static void pass_map_free(struct ttpu_pass_map *m)
{
	if (!m)
		return;
	free(m->dense);
	free(m->ids);
	free(m->slots);
	free(m);
}

static size_t pass_map_probe(const struct ttpu_pass_map *m, int64_t id)
{
	size_t i = id_hash(id) & (m->cap - 1);

	while (m->slots[i] && m->ids[i] != id)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* The slot of pass @id, or NONE. */
static uint32_t pass_map_find(const struct ttpu_pass_map *m, int64_t id)
{
	size_t i;

	if ((uint64_t)id < m->dense_cap && m->dense[id])
		return m->dense[id] - 1;
	/* An id added before the dense array reached it lives in the hash. */
	if (!m->n)
		return NONE;
	i = pass_map_probe(m, id);
	return m->slots[i] ? m->slots[i] - 1 : NONE;
}

/* Make ids below @id + 1 direct, if that stays near the passes seen. */
static int pass_map_grow_dense(struct ttpu_pass_map *m, int64_t id,
			       size_t passes)
{
	size_t cap = m->dense_cap ? m->dense_cap : 1024;
	uint32_t *d;

	if ((uint64_t)id >= 4 * (uint64_t)passes + 4096)
		return 0;
	while (cap <= (uint64_t)id)
		cap *= 2;
	d = realloc(m->dense, cap * sizeof(*d));
	if (!d)
		return -1;
	memset(d + m->dense_cap, 0, (cap - m->dense_cap) * sizeof(*d));
	m->dense = d;
	m->dense_cap = cap;
	return 0;
}

/* Add pass @id (not present yet) as @slot; @slot + 1 passes so far. */
static int pass_map_add(struct ttpu_pass_map *m, int64_t id, uint32_t slot)
{
	size_t i;

	if (id >= 0 && (uint64_t)id >= m->dense_cap &&
	    pass_map_grow_dense(m, id, (size_t)slot + 1))
		return -1;
	if (id >= 0 && (uint64_t)id < m->dense_cap) {
		m->dense[id] = slot + 1;
		return 0;
	}
	if ((m->n + 1) * 2 > m->cap) {
		struct ttpu_pass_map g = { .cap = m->cap ? m->cap * 2 : 1024 };

		g.ids = malloc(g.cap * sizeof(*g.ids));
		g.slots = calloc(g.cap, sizeof(*g.slots));
		if (!g.ids || !g.slots) {
			free(g.ids);
			free(g.slots);
			return -1;
		}
		for (i = 0; i < m->cap; i++) {
			if (m->slots[i]) {
				size_t j = pass_map_probe(&g, m->ids[i]);

				g.ids[j] = m->ids[i];
				g.slots[j] = m->slots[i];
			}
		}
		free(m->ids);
		free(m->slots);
		m->ids = g.ids;
		m->slots = g.slots;
		m->cap = g.cap;
	}
	i = pass_map_probe(m, id);
	m->ids[i] = id;
	m->slots[i] = slot + 1;
	m->n++;
	return 0;
}

/* ---- helpers ----------------------------------------------------------- */

enum top_key {
	K_FORMAT, K_VERSION, K_TILE, K_NAME, K_BUFFERS, K_INPUTS, K_OUTPUTS,
	K_COMMANDS, K_ESTIMATE, K_COUNT
};

static const char *const top_keys[K_COUNT] = {
	"format", "version", "tile", "name", "buffers", "inputs", "outputs",
	"commands", "estimate",
};

static int find_key(const char *key, const char *const *keys, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (keys[i] && !strcmp(key, keys[i]))
			return i;
	return -1;
}

static void list_keys(char *buf, size_t size, const char *const *keys, int n)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && len < size; i++)
		if (keys[i])
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
						len ? ", " : "", keys[i]);
}

static int unknown_key(struct ttpu_jstream *js, const char *path,
		       const char *key, const char *const *keys, int n)
{
	char allowed[200];

	list_keys(allowed, sizeof(allowed), keys, n);
	return ttpu_js_error(js, path, "unknown key \"%s\" (allowed: %s)", key,
			     allowed);
}

/*
 * A JSON path formatted only when an error needs it: formatting one for
 * every field of 200k commands would cost more than parsing them.
 */
struct jpath {
	const char *s;			/* a whole path, or NULL for: */
	const char *base;		/* base[idx].k1.k2 */
	size_t idx;
	const char *k1, *k2;
};

#define JP(str) (&(struct jpath){ .s = (str) })

static const char *jp_str(const struct jpath *p, char *buf, size_t n)
{
	if (p->s)
		return p->s;
	ttpu_js_path(buf, n, "%s[%zu]%s%s%s%s", p->base, p->idx,
		     p->k1 ? "." : "", p->k1 ? p->k1 : "",
		     p->k2 ? "." : "", p->k2 ? p->k2 : "");
	return buf;
}

static int get_uint(struct ttpu_jstream *js, const struct jpath *p,
		    struct json_object *obj, int64_t min, int64_t *v)
{
	char path[PATH_MAX_LEN];
	int r = ttpu_js_get_int(obj, v);

	if (!r && *v >= min)
		return 0;
	jp_str(p, path, sizeof(path));
	if (r == 1)
		return ttpu_js_error(js, jp_str(p, path, sizeof(path)),
				     "expected an integer >= %lld, got %s",
				     (long long)min, ttpu_js_describe(obj));
	if (r == 2)
		return ttpu_js_error(js, jp_str(p, path, sizeof(path)),
				     "%s is beyond the int64 range",
				     json_object_get_string(obj));
	return ttpu_js_error(js, jp_str(p, path, sizeof(path)),
			     "expected an integer >= %lld, got %lld",
			     (long long)min, (long long)*v);
}

/* A non-empty buffer name at @obj, interned. */
static int get_name(struct ttpu_loader *L, const struct jpath *p,
		    struct json_object *obj, uint32_t *id)
{
	char path[PATH_MAX_LEN];
	bool created;

	if (!json_object_is_type(obj, json_type_string))
		return ttpu_js_error(L->js, jp_str(p, path, sizeof(path)),
				     "expected a buffer name (a string), got %s",
				     ttpu_js_describe(obj));
	if (!json_object_get_string_len(obj))
		return ttpu_js_error(L->js, jp_str(p, path, sizeof(path)),
				     "buffer names must not be empty");
	*id = ttpu_names_intern(L->intern, json_object_get_string(obj),
				(size_t)json_object_get_string_len(obj), &created);
	if (*id == TTPU_NO_NAME)
		return ttpu_error_nomem(L->err, "interning a buffer name");
	return 0;
}

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

/* ---- commands ---------------------------------------------------------- */

/*
 * Every key a command or a window may have. A command's members are
 * gathered in one walk of json-c's object, each key classified by a
 * switch: no hash lookup per field, and the members are counted (for the
 * duplicate-key check) on the way.
 */
enum cmd_key {
	CK_OP, CK_ID, CK_A, CK_B, CK_PASS, CK_DST, CK_BIAS, CK_RELU, CK_BUF,
	CK_SRC, CK_R, CK_C, CK_UNKNOWN
};

static int classify_key(const char *k)
{
	switch (k[0]) {
	case 'a':
		return !k[1] ? CK_A : CK_UNKNOWN;
	case 'b':
		if (!k[1])
			return CK_B;
		if (!strcmp(k + 1, "uf"))
			return CK_BUF;
		return !strcmp(k + 1, "ias") ? CK_BIAS : CK_UNKNOWN;
	case 'c':
		return !k[1] ? CK_C : CK_UNKNOWN;
	case 'd':
		return !strcmp(k + 1, "st") ? CK_DST : CK_UNKNOWN;
	case 'i':
		return !strcmp(k + 1, "d") ? CK_ID : CK_UNKNOWN;
	case 'o':
		return !strcmp(k + 1, "p") ? CK_OP : CK_UNKNOWN;
	case 'p':
		return !strcmp(k + 1, "ass") ? CK_PASS : CK_UNKNOWN;
	case 'r':
		if (!k[1])
			return CK_R;
		return !strcmp(k + 1, "elu") ? CK_RELU : CK_UNKNOWN;
	case 's':
		return !strcmp(k + 1, "rc") ? CK_SRC : CK_UNKNOWN;
	}
	return CK_UNKNOWN;
}

#define CKB(k) (1u << (k))

struct op_spec {
	const char *keys[5];		/* after "op" */
	uint8_t ck[5];			/* their enum cmd_key */
	unsigned int nkeys;
	unsigned int required;		/* bit per keys[] entry */
	unsigned int allowed;		/* CKB() of "op" and keys[] */
};

static const struct op_spec op_specs[TTPU_OP_COUNT] = {
	[TTPU_OP_ALLOC] = { { "buf" }, { CK_BUF }, 1, 0x1,
			    CKB(CK_OP) | CKB(CK_BUF) },
	[TTPU_OP_PASS] = { { "id", "a", "b" }, { CK_ID, CK_A, CK_B }, 3, 0x7,
			   CKB(CK_OP) | CKB(CK_ID) | CKB(CK_A) | CKB(CK_B) },
	[TTPU_OP_ACC] = { { "pass", "dst", "bias", "relu" },
			  { CK_PASS, CK_DST, CK_BIAS, CK_RELU }, 4, 0x3,
			  CKB(CK_OP) | CKB(CK_PASS) | CKB(CK_DST) | CKB(CK_BIAS) |
			  CKB(CK_RELU) },
	[TTPU_OP_EPILOGUE] = { { "dst", "bias", "relu" },
			       { CK_DST, CK_BIAS, CK_RELU }, 3, 0x1,
			       CKB(CK_OP) | CKB(CK_DST) | CKB(CK_BIAS) | CKB(CK_RELU) },
	[TTPU_OP_HOST_ADD] = { { "dst", "a", "b" }, { CK_DST, CK_A, CK_B }, 3, 0x7,
			       CKB(CK_OP) | CKB(CK_DST) | CKB(CK_A) | CKB(CK_B) },
	[TTPU_OP_HOST_RELU] = { { "dst", "src" }, { CK_DST, CK_SRC }, 2, 0x3,
				CKB(CK_OP) | CKB(CK_DST) | CKB(CK_SRC) },
};

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
	struct json_object *v[CK_UNKNOWN];
	unsigned int present;		/* CKB() per key met */
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
		int i = k == CK_BUF ? 0 : k == CK_R ? 1 : k == CK_C ? 2 : -1;

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
		if (k == CK_UNKNOWN) {
			m->unknown = true;
			m->count += nested_members(val);
			continue;
		}
		m->v[k] = val;
		m->present |= CKB(k);
		wi = k == CK_A ? 0 : k == CK_B ? 1 : k == CK_DST ? 2 : -1;
		if (wi >= 0 && json_object_is_type(val, json_type_object))
			collect_window(val, &m->win[wi], &m->count);
		else
			m->count += nested_members(val);
	}
}

static int get_window(struct ttpu_loader *L, const struct jpath *p,
		      struct json_object *obj, const struct win_members *m,
		      struct ttpu_window *w)
{
	char path[PATH_MAX_LEN];
	struct jpath q = *p;
	int64_t rc[2];
	int i, ret;

	if (!json_object_is_type(obj, json_type_object))
		return ttpu_js_error(L->js, jp_str(p, path, sizeof(path)),
				     "expected a window {\"buf\", \"r\", \"c\"}, got %s",
				     ttpu_js_describe(obj));
	if (m->unknown) {
		/* Name the first one in the text's order. */
		json_object_object_foreach(obj, key, val) {
			(void)val;
			if (find_key(key, window_keys, 3) < 0)
				return unknown_key(L->js, jp_str(p, path, sizeof(path)), key,
						   window_keys, 3);
		}
	}
	for (i = 0; i < 3; i++) {
		q.k2 = window_keys[i];
		if (!(m->present & (1u << i)))
			return ttpu_js_error(L->js, jp_str(p, path, sizeof(path)),
					     "missing key \"%s\"", window_keys[i]);
		if (i == 0)
			ret = get_name(L, &q, m->v[i], &w->buf);
		else
			ret = get_uint(L->js, &q, m->v[i], 0, &rc[i - 1]);
		if (ret)
			return ret;
	}
	/* Beyond UINT32_MAX a window lies outside any buffer: keep it there. */
	w->r = rc[0] > UINT32_MAX ? UINT32_MAX : (uint32_t)rc[0];
	w->c = rc[1] > UINT32_MAX ? UINT32_MAX : (uint32_t)rc[1];
	return 0;
}

static int add_pass(struct ttpu_loader *L, size_t idx, const struct jpath *jp,
		    int64_t id, uint32_t *slot)
{
	struct ttpu_program *p = L->prog;
	char path[PATH_MAX_LEN];
	uint32_t other = pass_map_find(L->pass_map, id);

	if (other != NONE)
		return ttpu_js_error(L->js, jp_str(jp, path, sizeof(path)), "pass id %lld is not unique (also commands[%u])",
				     (long long)id, p->pass_cmd[other]);
	if (p->npasses >= UINT32_MAX - 1)
		return ttpu_js_error(L->js, jp_str(jp, path, sizeof(path)), "too many passes");
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
	if (pass_map_add(L->pass_map, id, *slot))
		return ttpu_error_nomem(L->err, "indexing pass ids");
	p->pass_ids[*slot] = id;
	p->pass_cmd[*slot] = (uint32_t)idx;
	L->consumer[*slot] = NONE;
	p->npasses++;
	return 0;
}

static int consume_pass(struct ttpu_loader *L, size_t idx,
			const struct jpath *jp, int64_t id, uint32_t *slot)
{
	char path[PATH_MAX_LEN];

	*slot = pass_map_find(L->pass_map, id);
	if (*slot == NONE)
		return ttpu_js_error(L->js, jp_str(jp, path, sizeof(path)), "acc names pass %lld, which has not run before it",
				     (long long)id);
	if (L->consumer[*slot] != NONE)
		return ttpu_js_error(L->js, jp_str(jp, path, sizeof(path)), "pass %lld was already consumed by commands[%u]",
				     (long long)id, L->consumer[*slot]);
	L->consumer[*slot] = (uint32_t)idx;
	return 0;
}

/* The op named by the @len bytes at @s (may hold a NUL), or -1. */
static int find_op(const char *s, size_t len)
{
	int op;

	for (op = 0; op < TTPU_OP_COUNT; op++)
		if (ttpu_op_lens[op] == len && !memcmp(s, ttpu_op_names[op], len))
			return op;
	return -1;
}

/* The window collected for key @k (a, b or dst). */
static const struct win_members *win_of(const struct cmd_members *m, int k)
{
	return &m->win[k == CK_A ? 0 : k == CK_B ? 1 : 2];
}

/*
 * @obj is commands[@idx], whose text held @colons name/value separators:
 * fewer members means json-c dropped a duplicate key.
 */
static int convert_command(struct ttpu_loader *L, size_t idx,
			   struct json_object *obj, size_t colons,
			   struct ttpu_command *cmd)
{
	struct json_object *v[5] = { NULL }, *opv;
	char base[PATH_MAX_LEN], path[PATH_MAX_LEN];
	const struct op_spec *spec;
	struct cmd_members m;
	const char *opname;
	int64_t n;
	const struct jpath cp = { .base = "commands", .idx = idx };
	int op, i, ret;

#define BASE jp_str(&cp, base, sizeof(base))
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
	opv = m.v[CK_OP];
	if (!(m.present & CKB(CK_OP)))
		return ttpu_js_error(L->js, BASE, "missing key \"op\"");
	if (!json_object_is_type(opv, json_type_string))
		return ttpu_js_error(L->js, OPPATH, "expected a string, got %s",
				     ttpu_js_describe(opv));
	opname = json_object_get_string(opv);
	op = find_op(opname, (size_t)json_object_get_string_len(opv));
	if (op < 0)
		return ttpu_js_error(L->js, OPPATH, "unknown op \"%s\" (one of alloc, pass, acc, epilogue, host_add, host_relu)",
				     opname);
	spec = &op_specs[op];
	memset(cmd, 0, sizeof(*cmd));
	cmd->op = (uint8_t)op;
	ret = 0;
	if (m.unknown || (m.present & ~spec->allowed)) {
		/* Name the first key this op does not take, in the text's order. */
		json_object_object_foreach(obj, key, val) {
			(void)val;
			if (!strcmp(key, "op") || find_key(key, spec->keys, 5) >= 0)
				continue;
			char what[PATH_MAX_LEN];

			ttpu_js_path(what, sizeof(what), "%s (op %s)", BASE, opname);
			ret = unknown_key(L->js, what, key, spec->keys, 5);
			ttpu_error_at_field(L->err, BASE);
			goto out;
		}
	}
	for (i = 0; i < (int)spec->nkeys; i++) {
		v[i] = m.v[spec->ck[i]];
		if ((spec->required & (1u << i)) && !v[i]) {
			ret = ttpu_js_error(L->js, BASE, "missing key \"%s\" (op %s)",
					    spec->keys[i], opname);
			goto out;
		}
	}
#define FIELD(i) (&(struct jpath){ .base = "commands", .idx = idx, .k1 = spec->keys[i] })
#define WIN(i) win_of(&m, spec->ck[i])
	switch (op) {
	case TTPU_OP_ALLOC:
		ret = get_name(L, FIELD(0), v[0], &cmd->u.alloc.buf);
		break;
	case TTPU_OP_PASS:
		ret = get_window(L, FIELD(1), v[1], WIN(1), &cmd->u.pass.a);
		if (!ret)
			ret = get_window(L, FIELD(2), v[2], WIN(2), &cmd->u.pass.b);
		if (!ret)
			ret = get_uint(L->js, FIELD(0), v[0], 0, &n);
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

		ret = get_window(L, FIELD(d), v[d], WIN(d), dst);
		*bias = TTPU_NO_BUFFER;
		if (!ret && v[d + 1])
			ret = get_name(L, FIELD(d + 1), v[d + 1], bias);
		if (!ret && v[d + 2]) {
			if (!json_object_is_type(v[d + 2], json_type_boolean))
				ret = ttpu_js_error(L->js, jp_str(FIELD(d + 2), path, sizeof(path)), "expected a boolean, got %s",
						    ttpu_js_describe(v[d + 2]));
			else
				cmd->relu = json_object_get_boolean(v[d + 2]) ? 1 : 0;
		}
		if (!ret && op == TTPU_OP_ACC) {
			ret = get_uint(L->js, FIELD(0), v[0], 0, &n);
			if (!ret)
				ret = consume_pass(L, idx, FIELD(0), n, &cmd->u.acc.slot);
		}
		break;
	}
	case TTPU_OP_HOST_ADD:
		ret = get_name(L, FIELD(0), v[0], &cmd->u.add.dst);
		if (!ret)
			ret = get_name(L, FIELD(1), v[1], &cmd->u.add.a);
		if (!ret)
			ret = get_name(L, FIELD(2), v[2], &cmd->u.add.b);
		break;
	case TTPU_OP_HOST_RELU:
		ret = get_name(L, FIELD(0), v[0], &cmd->u.relu.dst);
		if (!ret)
			ret = get_name(L, FIELD(1), v[1], &cmd->u.relu.src);
		break;
	}
#undef WIN
#undef FIELD
#undef OPPATH
#undef BASE
out:
	if (ret)
		ttpu_error_at_command(L->err, (long)idx, opname);
	return ret;
}

static int read_commands(struct ttpu_loader *L)
{
	struct ttpu_program *p = L->prog;
	struct json_object *obj;
	bool first = true;
	size_t colons;
	int ret;

	ret = ttpu_js_array_begin(L->js, "commands");
	while (!ret && (ret = ttpu_js_array_next(L->js, "commands", &first)) > 0) {
		char path[32];

		index_path(path, "commands", p->ncmds);
		ret = ttpu_js_value_raw(L->js, path, &obj, &colons);
		if (ret)
			break;
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
		L->cmd_offset[p->ncmds] = (uint32_t)L->js->elem_start;
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

/* ---- buffers ----------------------------------------------------------- */

enum buf_key { B_DTYPE, B_SHAPE, B_KIND, B_DATA, B_COUNT };
static const char *const buf_keys[B_COUNT] = { "dtype", "shape", "kind", "data" };
static const char *const kind_names[3] = { "input", "const", "temp" };

static int read_shape(struct ttpu_loader *L, const char *path,
		      struct ttpu_pending_buffer *b)
{
	struct json_object *obj;
	size_t i, n;
	int64_t d;
	int ret = ttpu_js_value(L->js, path, &obj);

	if (ret)
		return ret;
	if (!json_object_is_type(obj, json_type_array)) {
		ret = ttpu_js_error(L->js, path, "expected [n] or [rows, cols], got %s",
				    ttpu_js_describe(obj));
		goto out;
	}
	n = json_object_array_length(obj);
	if (n != 1 && n != 2) {
		ret = ttpu_js_error(L->js, path, "rank must be 1 or 2, got %zu", n);
		goto out;
	}
	b->rank = (uint8_t)n;
	b->dims[0] = 1;
	for (i = 0; i < n; i++) {
		char ipath[PATH_MAX_LEN];

		ttpu_js_path(ipath, sizeof(ipath), "%s[%zu]", path, i);
		ret = get_uint(L->js, JP(ipath), json_object_array_get_idx(obj, i), 1, &d);
		if (ret)
			goto out;
		b->dims[n == 1 ? 1 : i] = (uint64_t)d;
	}
out:
	json_object_put(obj);
	return ret;
}

static int read_enum(struct ttpu_loader *L, const char *path,
		     const char *const *names, int n, const char *what,
		     uint8_t *out)
{
	struct json_object *obj;
	int ret = ttpu_js_value(L->js, path, &obj), i;

	if (ret)
		return ret;
	i = json_object_is_type(obj, json_type_string) ?
		find_key(json_object_get_string(obj), names, n) : -1;
	if (i < 0)
		ret = ttpu_js_error(L->js, path, "expected %s, got %s%s%s", what,
				    json_object_is_type(obj, json_type_string) ? "\"" : "",
				    json_object_is_type(obj, json_type_string) ?
				    json_object_get_string(obj) : ttpu_js_describe(obj),
				    json_object_is_type(obj, json_type_string) ? "\"" : "");
	else
		*out = (uint8_t)i;
	json_object_put(obj);
	return ret;
}

static const char *dtype_name(uint8_t dtype)
{
	return dtype == TTPU_DTYPE_I8 ? "i8" : "i32";
}

/* The buffer just closed: required keys, its size, data against shape. */
static int check_buffer(struct ttpu_loader *L, const char *base,
			struct ttpu_pending_buffer *b)
{
	static const char *const dtypes[2] = { "i8", "i32" };
	char path[PATH_MAX_LEN];
	uint64_t count;
	int i;

	(void)dtypes;
	for (i = 0; i < B_DATA; i++) {
		bool has = i == B_DTYPE ? b->has_dtype : i == B_SHAPE ? b->has_shape : b->has_kind;

		if (!has)
			return ttpu_js_error_at(L->js, b->offset, base, "missing key \"%s\"",
						buf_keys[i]);
	}
	ttpu_js_path(path, sizeof(path), "%s.shape", base);
	/*
	 * Cap the elements of all buffers before anything is allocated for
	 * them: a shape is only a few bytes of text.
	 */
	if (b->dims[0] > TTPU_MAX_TOTAL_ELEMENTS || b->dims[1] > TTPU_MAX_TOTAL_ELEMENTS ||
	    (count = b->dims[0] * b->dims[1]) > TTPU_MAX_TOTAL_ELEMENTS - L->total_elements)
	{
		char shape[48];

		if (b->rank == 1)
			ttpu_js_path(shape, sizeof(shape), "[%llu]",
				     (unsigned long long)b->dims[1]);
		else
			ttpu_js_path(shape, sizeof(shape), "[%llu, %llu]",
				     (unsigned long long)b->dims[0],
				     (unsigned long long)b->dims[1]);
		return ttpu_js_error_at(L->js, b->offset, path,
					"shape %s is too large: all buffers together may hold at most %llu elements",
					shape, (unsigned long long)TTPU_MAX_TOTAL_ELEMENTS);
	}
	L->total_elements += count;
	ttpu_js_path(path, sizeof(path), "%s.data", base);
	if (b->kind == TTPU_KIND_CONST && !b->has_data)
		return ttpu_js_error_at(L->js, b->offset, base,
					"a const buffer needs \"data\"");
	if (b->kind != TTPU_KIND_CONST && b->has_data)
		return ttpu_js_error_at(L->js, b->data.offset, path,
					"only const buffers carry data, this one is %s",
					kind_names[b->kind]);
	if (!b->has_data)
		return 0;
	if (ttpu_js_int_list_shape(L->js, path, &b->data, b->rank, b->dims[0], b->dims[1]) ||
	    ttpu_js_int_list_range(L->js, path, &b->data, b->rank, b->dims[1],
				   ttpu_dtype_min(b->dtype), ttpu_dtype_max(b->dtype),
				   dtype_name(b->dtype)))
		return -TTPU_SCHEMA_ERROR;
	return 0;
}

static int read_buffer(struct ttpu_loader *L, const char *name, size_t len)
{
	struct ttpu_pending_buffer *b;
	char base[PATH_MAX_LEN], path[PATH_MAX_LEN];
	bool first = true, created;
	uint32_t id;
	size_t k;
	int ret, key;

	ttpu_js_path(base, sizeof(base), "buffers.%s", name);
	if (!len)
		return ttpu_js_error(L->js, "buffers", "buffer names must not be empty");
	if (memchr(name, '\0', len))
		return ttpu_js_error(L->js, "buffers", "a buffer name contains a NUL character");
	id = ttpu_names_intern(L->intern, name, len, &created);
	if (id == TTPU_NO_NAME)
		return ttpu_error_nomem(L->err, "interning a buffer name");
	if (id >= L->buf_of_name_cap) {
		size_t old = L->buf_of_name_cap;

		if (ttpu_grow(&L->buf_of_name, &L->buf_of_name_cap, (size_t)id + 1,
			 sizeof(*L->buf_of_name)))
			return ttpu_error_nomem(L->err, "reading buffers");
		for (k = old; k < L->buf_of_name_cap; k++)
			L->buf_of_name[k] = NONE;
	}
	if (L->buf_of_name[id] != NONE) {
		ret = ttpu_js_error(L->js, base, "buffer \"%s\" is defined twice", name);
		ttpu_error_at_buffer(L->err, name);
		return ret;
	}
	if (ttpu_grow(&L->bufs, &L->bufs_cap, L->nbufs + 1, sizeof(*L->bufs)))
		return ttpu_error_nomem(L->err, "reading buffers");
	b = &L->bufs[L->nbufs];
	memset(b, 0, sizeof(*b));
	b->name = id;
	L->buf_of_name[id] = (uint32_t)L->nbufs++;

	ret = ttpu_js_object_begin(L->js, base);
	b->offset = L->js->elem_start;
	while (!ret && (ret = ttpu_js_object_next(L->js, base, &first)) > 0) {
		key = find_key(L->js->key, buf_keys, B_COUNT);
		if (key < 0) {
			ret = unknown_key(L->js, base, L->js->key, buf_keys, B_COUNT);
			break;
		}
		ttpu_js_path(path, sizeof(path), "%s.%s", base, buf_keys[key]);
		if ((key == B_DTYPE && b->has_dtype) || (key == B_SHAPE && b->has_shape) ||
		    (key == B_KIND && b->has_kind) || (key == B_DATA && b->has_data)) {
			ret = ttpu_js_error(L->js, base, "duplicate key \"%s\"", buf_keys[key]);
			break;
		}
		switch (key) {
		case B_DTYPE: {
			static const char *const dtypes[2] = { "i8", "i32" };

			ret = read_enum(L, path, dtypes, 2, "\"i8\" or \"i32\"", &b->dtype);
			b->has_dtype = true;
			break;
		}
		case B_SHAPE:
			ret = read_shape(L, path, b);
			b->has_shape = true;
			break;
		case B_KIND:
			ret = read_enum(L, path, kind_names, 3,
					"\"input\", \"const\" or \"temp\"", &b->kind);
			b->has_kind = true;
			break;
		case B_DATA:
			/* The dtype, when already known, bounds values early. */
			ret = ttpu_js_int_list(L->js, path,
					       b->has_dtype ? ttpu_dtype_min(b->dtype) : INT32_MIN,
					       b->has_dtype ? ttpu_dtype_max(b->dtype) : INT32_MAX,
					       b->has_dtype ? dtype_name(b->dtype) : "i32",
					       &b->data);
			b->has_data = !ret;
			break;
		}
	}
	if (!ret)
		ret = check_buffer(L, base, b);
	if (ret < 0 && L->err && !L->err->buffer[0] && L->err->kind == TTPU_SCHEMA_ERROR)
		ttpu_error_at_buffer(L->err, name);
	return ret < 0 ? ret : 0;
}

static int read_buffers(struct ttpu_loader *L)
{
	bool first = true;
	char *name;
	int ret;

	ret = ttpu_js_object_begin(L->js, "buffers");
	while (!ret && (ret = ttpu_js_object_next(L->js, "buffers", &first)) > 0) {
		/* js->key is reused by the buffer's own keys. */
		name = malloc(L->js->key_len + 1);
		if (!name)
			return ttpu_error_nomem(L->err, "reading buffers");
		memcpy(name, L->js->key, L->js->key_len + 1);
		ret = read_buffer(L, name, L->js->key_len);
		free(name);
	}
	return ret < 0 ? ret : 0;
}

/* ---- small top-level values ------------------------------------------- */

static int read_name_list(struct ttpu_loader *L, const char *what,
			  uint32_t **out, size_t *n, size_t *offset)
{
	struct json_object *obj;
	size_t i, len;
	int ret = ttpu_js_value(L->js, what, &obj);

	if (ret)
		return ret;
	*offset = L->js->elem_start;
	if (!json_object_is_type(obj, json_type_array)) {
		ret = ttpu_js_error(L->js, what, "expected a list of buffer names, got %s",
				    ttpu_js_describe(obj));
		goto out;
	}
	len = json_object_array_length(obj);
	*out = malloc((len ? len : 1) * sizeof(**out));
	if (!*out) {
		ret = ttpu_error_nomem(L->err, "reading a name list");
		goto out;
	}
	for (i = 0; i < len && !ret; i++) {
		char path[48];

		ttpu_js_path(path, sizeof(path), "%s[%zu]", what, i);
		ret = get_name(L, JP(path), json_object_array_get_idx(obj, i), &(*out)[i]);
	}
	*n = len;
out:
	json_object_put(obj);
	return ret;
}

static const char *const est_keys[] = {
	"passes", "passes_skipped", "cycles_per_pass", "rtl_cycles", "host_ops",
	"useful_macs", "capacity_macs", "utilization",
};
#define N_EST_KEYS ((int)(sizeof(est_keys) / sizeof(est_keys[0])))

static int read_estimate(struct ttpu_loader *L)
{
	static const char *const host_keys[TTPU_OP_COUNT] = {
		[TTPU_OP_ALLOC] = "alloc", [TTPU_OP_ACC] = "acc",
		[TTPU_OP_EPILOGUE] = "epilogue", [TTPU_OP_HOST_ADD] = "host_add",
		[TTPU_OP_HOST_RELU] = "host_relu",
	};
	struct ttpu_estimate *e = &L->estimate;
	uint64_t *fields[] = {
		&e->passes, &e->passes_skipped, &e->cycles_per_pass, &e->rtl_cycles,
		NULL, &e->useful_macs, &e->capacity_macs, NULL,
	};
	struct json_object *obj, *v;
	char path[64];
	int64_t n;
	int ret = ttpu_js_value(L->js, "estimate", &obj), i;

	if (ret)
		return ret;
	L->estimate_offset = L->js->elem_start;
	if (!json_object_is_type(obj, json_type_object)) {
		ret = ttpu_js_error(L->js, "estimate", "expected an object, got %s",
				    ttpu_js_describe(obj));
		goto out;
	}
	json_object_object_foreach(obj, key, val) {
		(void)val;
		if (find_key(key, est_keys, N_EST_KEYS) < 0) {
			ret = unknown_key(L->js, "estimate", key, est_keys, N_EST_KEYS);
			goto out;
		}
	}
	for (i = 0; i < N_EST_KEYS && !ret; i++) {
		ttpu_js_path(path, sizeof(path), "estimate.%s", est_keys[i]);
		if (!json_object_object_get_ex(obj, est_keys[i], &v)) {
			ret = ttpu_js_error(L->js, "estimate", "missing key \"%s\"", est_keys[i]);
		} else if (fields[i]) {
			ret = get_uint(L->js, JP(path), v, 0, &n);
			*fields[i] = (uint64_t)n;
		} else if (!strcmp(est_keys[i], "utilization")) {
			if (!json_object_is_type(v, json_type_double) &&
			    !json_object_is_type(v, json_type_int))
				ret = ttpu_js_error(L->js, path, "expected a number, got %s",
						    ttpu_js_describe(v));
			e->utilization = json_object_get_double(v);
		} else if (!json_object_is_type(v, json_type_object)) {
			ret = ttpu_js_error(L->js, path, "expected an object, got %s",
					    ttpu_js_describe(v));
		} else {
			json_object_object_foreach(v, hkey, hval) {
				int k = find_key(hkey, host_keys, TTPU_OP_COUNT);

				if (k < 0) {
					ret = unknown_key(L->js, path, hkey, host_keys,
							  TTPU_OP_COUNT);
					break;
				}
				char hpath[64];

				ttpu_js_path(hpath, sizeof(hpath), "estimate.host_ops.%s", hkey);
				ret = get_uint(L->js, JP(hpath), hval, 0, &n);
				if (ret)
					break;
				e->host_ops.count[k] = (uint64_t)n;
			}
		}
	}
	L->has_estimate = !ret;
out:
	json_object_put(obj);
	return ret;
}

/* "format", "version", "tile", "name": a fixed value or any string. */
static int read_header(struct ttpu_loader *L, int key)
{
	struct json_object *obj;
	const char *what = top_keys[key];
	int ret = ttpu_js_value(L->js, what, &obj);
	int64_t n;

	if (ret)
		return ret;
	switch (key) {
	case K_FORMAT:
		if (!json_object_is_type(obj, json_type_string) ||
		    strcmp(json_object_get_string(obj), "ttpu") ||
		    json_object_get_string_len(obj) != 4)
			ret = ttpu_js_error(L->js, what, "must be \"ttpu\" (the only supported format), got %s",
					    json_object_is_type(obj, json_type_string) ?
					    json_object_get_string(obj) : ttpu_js_describe(obj));
		break;
	case K_VERSION:
	case K_TILE: {
		int64_t want = key == K_VERSION ? 1 : TTPU_TILE;

		if (ttpu_js_get_int(obj, &n) || n != want)
			ret = ttpu_js_error(L->js, what, "must be %lld (the only supported %s), got %s",
					    (long long)want, what,
					    json_object_is_type(obj, json_type_int) ?
					    json_object_get_string(obj) : ttpu_js_describe(obj));
		break;
	}
	case K_NAME:
		if (!json_object_is_type(obj, json_type_string)) {
			ret = ttpu_js_error(L->js, what, "expected a string, got %s",
					    ttpu_js_describe(obj));
			break;
		}
		free(L->prog->name);
		L->prog->name = strdup(json_object_get_string(obj));
		if (!L->prog->name)
			ret = ttpu_error_nomem(L->err, "reading the name");
		break;
	}
	json_object_put(obj);
	return ret;
}

/* The program object at the cursor, then validate.c's checks. */
static int read_program(struct ttpu_loader *L, const char *path)
{
	bool first = true;
	int ret, key;

	ret = ttpu_js_object_begin(L->js, path);
	while (!ret && (ret = ttpu_js_object_next(L->js, path, &first)) > 0) {
		key = find_key(L->js->key, top_keys, K_COUNT);
		if (key < 0) {
			ret = unknown_key(L->js, path, L->js->key, top_keys, K_COUNT);
			break;
		}
		if (L->seen & (1u << key)) {
			ret = ttpu_js_error(L->js, path, "duplicate key \"%s\"", top_keys[key]);
			break;
		}
		L->seen |= 1u << key;
		switch (key) {
		case K_BUFFERS: ret = read_buffers(L); break;
		case K_COMMANDS: ret = read_commands(L); break;
		case K_INPUTS:
			ret = read_name_list(L, "inputs", &L->inputs, &L->ninputs,
					     &L->inputs_offset);
			break;
		case K_OUTPUTS:
			ret = read_name_list(L, "outputs", &L->outputs, &L->noutputs,
					     &L->outputs_offset);
			break;
		case K_ESTIMATE: ret = read_estimate(L); break;
		default: ret = read_header(L, key); break;
		}
	}
	if (ret < 0)
		return ret;
	for (key = 0; key < K_COUNT; key++)
		if (key != K_ESTIMATE && !(L->seen & (1u << key)))
			return ttpu_js_error_at(L->js, L->js->pos, path,
						"missing key \"%s\"", top_keys[key]);
	return ttpu_loader_finish(L);
}

/* ---- loader lifetime --------------------------------------------------- */

static int loader_init(struct ttpu_loader *L, struct ttpu_jstream *js,
		       struct ttpu_error *err)
{
	memset(L, 0, sizeof(*L));
	L->js = js;
	L->err = err;
	L->prog = calloc(1, sizeof(*L->prog));
	L->intern = ttpu_names_new();
	L->pass_map = calloc(1, sizeof(*L->pass_map));
	if (!L->prog || !L->intern || !L->pass_map)
		return ttpu_error_nomem(err, "starting to load a program");
	return 0;
}

/* Frees the pending state; the program too unless @keep_prog. */
static void loader_fini(struct ttpu_loader *L, bool keep_prog)
{
	size_t i;

	for (i = 0; i < L->nbufs; i++)
		ttpu_int_list_free(&L->bufs[i].data);
	free(L->bufs);
	free(L->buf_of_name);
	free(L->inputs);
	free(L->outputs);
	free(L->cmd_offset);
	free(L->consumer);
	pass_map_free(L->pass_map);
	ttpu_names_free(L->intern);
	if (!keep_prog)
		ttpu_program_free(L->prog);
	L->prog = NULL;
}

static int load_text(const char *text, size_t len, bool positions,
		     ttpu_program **out, struct ttpu_error *err)
{
	struct ttpu_jstream js;
	struct ttpu_loader L;
	int ret;

	*out = NULL;
	if (len > TTPU_TEXT_MAX)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "program text of %zu bytes is larger than the %zu-byte limit",
				      len, TTPU_TEXT_MAX);
	ret = ttpu_js_init(&js, text, len, TTPU_SCHEMA_ERROR, err);
	if (ret)
		return ret;
	js.positions = positions;
	ret = loader_init(&L, &js, err);
	if (!ret)
		ret = read_program(&L, "");
	if (!ret)
		ret = ttpu_js_end(&js);
	if (!ret)
		ret = ttpu_plan_build(L.prog, &L.prog->plan, err);
	if (!ret)
		*out = L.prog;
	loader_fini(&L, !ret);
	ttpu_js_fini(&js);
	return ret;
}

/* ---- public API -------------------------------------------------------- */

int ttpu_program_load_buffer(const char *json, size_t len, ttpu_program **out,
			     struct ttpu_error *err)
{
	ttpu_error_clear(err);
	if (!out)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_load_buffer: out is NULL");
	*out = NULL;
	if (!json)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_load_buffer: json is NULL");
	return load_text(json, len, true, out, err);
}

int ttpu_program_load_json(struct json_object *obj, ttpu_program **out,
			   struct ttpu_error *err)
{
	const char *text;
	size_t len;

	ttpu_error_clear(err);
	if (!out)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_load_json: out is NULL");
	*out = NULL;
	if (!obj)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_load_json: obj is NULL");
	/*
	 * The caller already holds the tree, so its text costs no more than
	 * it does; going through the text keeps one loader and one set of
	 * checks. Line/column would point into that text: left unknown.
	 */
	text = json_object_to_json_string_length(obj, JSON_C_TO_STRING_PLAIN, &len);
	if (!text)
		return ttpu_error_nomem(err, "serializing the program");
	return load_text(text, len, false, out, err);
}

int ttpu_read_fd(int fd, const char *what, char **text, size_t *len,
		 struct ttpu_error *err)
{
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	char *buf, *nb;
	ssize_t r;

	*text = NULL;
	*len = 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uint64_t)st.st_size > TTPU_TEXT_MAX)
			return ttpu_error_set(err, TTPU_USAGE_ERROR,
					      "%s: %lld bytes is larger than the %zu-byte limit",
					      what, (long long)st.st_size, TTPU_TEXT_MAX);
		cap = (size_t)st.st_size + 1;
	}
	buf = malloc(cap);
	if (!buf)
		return ttpu_error_nomem(err, "reading a file");
	for (;;) {
		if (n == cap) {
			if (cap > TTPU_TEXT_MAX) {
				free(buf);
				return ttpu_error_set(err, TTPU_USAGE_ERROR,
						      "%s: larger than the %zu-byte limit",
						      what, TTPU_TEXT_MAX);
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return ttpu_error_nomem(err, "reading a file");
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			return ttpu_error_sys(err, e, "cannot read %s", what);
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	*text = buf;
	*len = n;
	return 0;
}

int ttpu_read_file(const char *path, char **text, size_t *len,
		   struct ttpu_error *err)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ttpu_error_sys(err, errno, "cannot open %s", path);
	ret = ttpu_read_fd(fd, path, text, len, err);
	close(fd);
	return ret;
}

int ttpu_program_load_file(const char *path, ttpu_program **out,
			   struct ttpu_error *err)
{
	size_t len;
	char *text;
	int ret;

	ttpu_error_clear(err);
	if (!out || !path)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_program_load_file: %s is NULL", out ? "path" : "out");
	*out = NULL;
	ret = ttpu_read_file(path, &text, &len, err);
	if (ret)
		return ret;
	ret = load_text(text, len, true, out, err);
	free(text);
	return ret;
}

void ttpu_program_free(ttpu_program *prog)
{
	size_t i;

	if (!prog)
		return;
	ttpu_plan_free(prog->plan);
	for (i = 0; i < prog->nbuffers; i++) {
		free(prog->buffers[i].name);
		free(prog->buffers[i].init);
	}
	free(prog->buffers);
	free(prog->name);
	free(prog->inputs);
	free(prog->outputs);
	free(prog->cmds);
	free(prog->pass_ids);
	free(prog->pass_cmd);
	ttpu_names_free(prog->names);
	free(prog);
}

const char *ttpu_program_name(const ttpu_program *prog)
{
	return prog ? prog->name : NULL;
}

size_t ttpu_program_command_count(const ttpu_program *prog)
{
	return prog ? prog->ncmds : 0;
}

size_t ttpu_program_pass_count(const ttpu_program *prog)
{
	return prog ? prog->npasses : 0;
}

size_t ttpu_program_input_count(const ttpu_program *prog)
{
	return prog ? prog->ninputs : 0;
}

const char *ttpu_program_input_name(const ttpu_program *prog, size_t i)
{
	if (!prog || i >= prog->ninputs)
		return NULL;
	return prog->buffers[prog->inputs[i]].name;
}

size_t ttpu_program_output_count(const ttpu_program *prog)
{
	return prog ? prog->noutputs : 0;
}

const char *ttpu_program_output_name(const ttpu_program *prog, size_t i)
{
	if (!prog || i >= prog->noutputs)
		return NULL;
	return prog->buffers[prog->outputs[i]].name;
}

int ttpu_program_buffer_shape(const ttpu_program *prog, const char *name,
			      size_t dims[2], int *is_i8)
{
	const struct ttpu_buffer *b;
	uint32_t i = ttpu_program_find_buffer(prog, name);

	if (i == TTPU_NO_BUFFER)
		return 0;
	b = &prog->buffers[i];
	if (dims) {
		dims[0] = b->rank == 1 ? b->cols : b->rows;
		dims[1] = b->rank == 1 ? 0 : b->cols;
	}
	if (is_i8)
		*is_i8 = b->dtype == TTPU_DTYPE_I8;
	return b->rank;
}

/* ---- requests ---------------------------------------------------------- */

struct pending_input {
	char *name;
	struct ttpu_int_list list;
};

static int read_pending_inputs(struct ttpu_jstream *js,
			       struct pending_input **out, size_t *n)
{
	struct pending_input *p = NULL;
	size_t cap = 0, i;
	bool first = true;
	char path[PATH_MAX_LEN];
	int ret;

	ret = ttpu_js_object_begin(js, "inputs");
	while (!ret && (ret = ttpu_js_object_next(js, "inputs", &first)) > 0) {
		for (i = 0; i < *n; i++)
			if (!strcmp((*out)[i].name, js->key))
				return ttpu_js_error(js, "inputs", "input \"%s\" is given twice",
						     js->key);
		if (ttpu_grow(out, &cap, *n + 1, sizeof(**out)))
			return ttpu_error_nomem(js->err, "reading inputs");
		p = &(*out)[*n];
		memset(p, 0, sizeof(*p));
		p->name = strdup(js->key);
		if (!p->name)
			return ttpu_error_nomem(js->err, "reading inputs");
		(*n)++;
		ttpu_js_path(path, sizeof(path), "inputs.%s", p->name);
		/* The dtype is not known yet: the range is checked again later. */
		ret = ttpu_js_int_list(js, path, INT32_MIN, INT32_MAX, "i32", &p->list);
	}
	return ret < 0 ? ret : 0;
}

static const char *const request_keys[2] = { "program", "inputs" };

int ttpu_request_parse(const char *text, size_t len, ttpu_program **prog_out,
		       ttpu_inputs **inputs_out, struct ttpu_error *err)
{
	struct pending_input *pending = NULL;
	size_t npending = 0, i;
	struct ttpu_jstream js;
	struct ttpu_loader L;
	ttpu_inputs *in = NULL;
	bool first = true, have_prog = false, have_inputs = false;
	int ret;

	ttpu_error_clear(err);
	if (!prog_out || !inputs_out || !text)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_request_parse: NULL argument");
	*prog_out = NULL;
	*inputs_out = NULL;
	if (len > TTPU_TEXT_MAX)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "request of %zu bytes is larger than the %zu-byte limit",
				      len, TTPU_TEXT_MAX);
	ret = ttpu_js_init(&js, text, len, TTPU_SCHEMA_ERROR, err);
	if (ret)
		return ret;
	ret = loader_init(&L, &js, err);
	if (!ret)
		ret = ttpu_js_object_begin(&js, "request");
	while (!ret && (ret = ttpu_js_object_next(&js, "request", &first)) > 0) {
		int key = find_key(js.key, request_keys, 2);

		if (key < 0 || (key == 0 ? have_prog : have_inputs)) {
			ret = key < 0 ? unknown_key(&js, "request", js.key, request_keys, 2) :
				ttpu_js_error(&js, "request", "duplicate key \"%s\"", js.key);
			break;
		}
		if (key == 0) {
			have_prog = true;
			ret = read_program(&L, "program");
			if (!ret)
				ret = ttpu_plan_build(L.prog, &L.prog->plan, err);
			if (!ret) {
				in = ttpu_inputs_new(L.prog);
				if (!in)
					ret = ttpu_error_nomem(err, "creating inputs");
			}
			continue;
		}
		have_inputs = true;
		js.kind = TTPU_INPUT_ERROR;
		if (in)
			ret = ttpu_inputs_read_object(in, &js, "inputs");
		else
			ret = read_pending_inputs(&js, &pending, &npending);
		js.kind = TTPU_SCHEMA_ERROR;
	}
	if (ret > 0)
		ret = 0;
	if (!ret)
		ret = ttpu_js_end(&js);
	if (!ret && !have_prog)
		ret = ttpu_js_error_at(&js, 0, "request", "missing key \"program\"");
	js.kind = TTPU_INPUT_ERROR;
	for (i = 0; !ret && i < npending; i++) {
		char path[PATH_MAX_LEN];

		ttpu_js_path(path, sizeof(path), "inputs.%s", pending[i].name);
		ret = ttpu_inputs_set_list(in, &js, path, pending[i].name, &pending[i].list);
	}
	if (!ret)
		ret = ttpu_inputs_check_complete(in, err);
	for (i = 0; i < npending; i++) {
		free(pending[i].name);
		ttpu_int_list_free(&pending[i].list);
	}
	free(pending);
	if (ret) {
		ttpu_inputs_free(in);
	} else {
		*prog_out = L.prog;
		*inputs_out = in;
	}
	loader_fini(&L, !ret);
	ttpu_js_fini(&js);
	return ret;
}
