// SPDX-License-Identifier: MIT
/*
 * program_read_command_direct.c - a plain command read without json-c
 *
 * json-c was most of a load's cost: for each of a program's 200k commands
 * it built a tree of objects that the loader walked once and freed. The
 * commands a compiler writes are plain and alike, so they are read here
 * straight from the jstream's window into a struct ttpu_direct_command,
 * which program_read_commands.c converts through the same steps as
 * json-c's tree.
 *
 * Only a strict, plainly valid subset is accepted: an object whose keys
 * are all ones its op takes (any order, none twice, every required one
 * there); strings of printable ASCII (0x20-0x7e) without '\' escapes;
 * integers written 0 or [1-9][0-9]* with at most 18 digits; true and
 * false; windows {"buf", "r", "c"} under the same rules; JSON white space
 * (space, tab, newline, carriage return) between tokens. Anything else,
 * and a command that runs past the end of the window (the fd reader's
 * window may end inside it), is "not mine": the jstream is left as it was
 * and json-c reads the command as it always has. So every error, its
 * message, line and column, comes from one reader only, and what this one
 * accepts is valid JSON whose every value json-c would read as the same
 * bytes or the same number: the two readers cannot disagree.
 * tests/runtime/test_direct_commands.c loads programs both ways to show it.
 */
#include <string.h>

#include "program_ops.h"
#include "program_read_command_direct.h"

/* A cursor over the window; its end means "not mine" wherever it is met. */
struct scan {
	const char *s;
	size_t i, end;
};

/* JSON's white space, and only it. */
static bool skip_ws(struct scan *sc)
{
	while (sc->i < sc->end) {
		char c = sc->s[sc->i];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return true;
		sc->i++;
	}
	return false;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* At '"': a string of printable ASCII and no escape, whose bytes are its value. */
static bool scan_string(struct scan *sc, const char **str, size_t *len)
{
	size_t i;

	for (i = sc->i + 1; i < sc->end; i++) {
		unsigned char c = (unsigned char)sc->s[i];

		if (c == '"') {
			*str = sc->s + sc->i + 1;
			*len = i - sc->i - 1;
			sc->i = i + 1;
			return true;
		}
		if (c < 0x20 || c > 0x7e || c == '\\')
			return false;
	}
	return false;
}

/*
 * At a digit: 0 or [1-9][0-9]* of at most 18 digits (below INT64_MAX), as
 * the direct reader of integer lists reads it (ttpu_js_plain_int()).
 */
static bool scan_uint(struct scan *sc, int64_t *v)
{
	return ttpu_js_plain_int(sc->s, &sc->i, sc->end, v);
}

/* true or false; what must follow a value is the caller's to check. */
static bool scan_bool(struct scan *sc, bool *b)
{
	size_t left = sc->end - sc->i;

	if (left >= 4 && !memcmp(sc->s + sc->i, "true", 4)) {
		*b = true;
		sc->i += 4;
		return true;
	}
	if (left >= 5 && !memcmp(sc->s + sc->i, "false", 5)) {
		*b = false;
		sc->i += 5;
		return true;
	}
	return false;
}

/*
 * The next member of an object whose '{' is consumed: true with its key
 * in *@k and the cursor on its value's first byte, or with *@k = -1 after
 * the closing '}'. False when the text is not plain: no command or window
 * is empty, and a key must be one some command or window has.
 */
static bool next_member(struct scan *sc, bool *first, int *k)
{
	const char *key;
	size_t len;

	if (!skip_ws(sc))
		return false;
	if (!*first) {
		if (sc->s[sc->i] == '}') {
			sc->i++;
			*k = -1;
			return true;
		}
		if (sc->s[sc->i] != ',')
			return false;
		sc->i++;
		if (!skip_ws(sc))
			return false;
	}
	*first = false;
	if (sc->s[sc->i] != '"' || !scan_string(sc, &key, &len))
		return false;
	*k = ttpu_cmd_key_find(key, len);
	if (*k == TTPU_CK_UNKNOWN || !skip_ws(sc) || sc->s[sc->i] != ':')
		return false;
	sc->i++;
	return skip_ws(sc);
}

#define WINDOW_KEYS (TTPU_CKB(TTPU_CK_BUF) | TTPU_CKB(TTPU_CK_R) | TTPU_CKB(TTPU_CK_C))

/* At '{': a window with exactly "buf" (a string), "r" and "c" (integers). */
static bool scan_window(struct scan *sc, struct ttpu_direct_window *w)
{
	unsigned int seen = 0;
	bool first = true, ok;
	int k;

	sc->i++;
	for (;;) {
		if (!next_member(sc, &first, &k))
			return false;
		if (k < 0)
			return seen == WINDOW_KEYS;
		if (seen & TTPU_CKB(k))
			return false;
		seen |= TTPU_CKB(k);
		if (k == TTPU_CK_BUF)
			ok = sc->s[sc->i] == '"' && scan_string(sc, &w->buf, &w->buf_len);
		else if (k == TTPU_CK_R || k == TTPU_CK_C)
			ok = is_digit(sc->s[sc->i]) &&
			     scan_uint(sc, k == TTPU_CK_R ? &w->r : &w->c);
		else
			ok = false;
		if (!ok)
			return false;
	}
}

/* The keys whose values are integers or booleans in every op that takes them. */
#define INT_KEYS (TTPU_CKB(TTPU_CK_ID) | TTPU_CKB(TTPU_CK_PASS))
#define BOOL_KEYS TTPU_CKB(TTPU_CK_RELU)

/*
 * Whether the members @seen, of the types found (@windows, @ints,
 * @bools; the rest are strings), are what op @op takes.
 */
static bool op_takes(int op, unsigned int seen, unsigned int windows,
		     unsigned int ints, unsigned int bools)
{
	const struct ttpu_op_spec *spec = &ttpu_op_specs[op];
	unsigned int i;

	if (seen & ~spec->allowed)
		return false;
	for (i = 0; i < spec->nkeys; i++)
		if ((spec->required & (1u << i)) && !(seen & TTPU_CKB(spec->ck[i])))
			return false;
	return windows == (seen & spec->windows) && ints == (seen & INT_KEYS) &&
	       bools == (seen & BOOL_KEYS);
}

bool ttpu_command_scan_direct(struct ttpu_jstream *js,
			      struct ttpu_direct_command *d)
{
	struct scan sc = { js->text, js->pos, js->len };
	unsigned int seen = 0, windows = 0, ints = 0, bools = 0;
	struct ttpu_direct_value *v;
	bool first = true, ok;
	int k, op;
	char c;

	if (sc.i >= sc.end || sc.s[sc.i] != '{')
		return false;
	sc.i++;
	for (;;) {
		if (!next_member(&sc, &first, &k))
			return false;
		if (k < 0)
			break;
		if (seen & TTPU_CKB(k))
			return false;
		seen |= TTPU_CKB(k);
		v = &d->v[k];
		c = sc.s[sc.i];
		if (c == '"') {
			ok = scan_string(&sc, &v->s, &v->len);
		} else if (c == '{') {
			ok = scan_window(&sc, &v->w);
			windows |= TTPU_CKB(k);
		} else if (is_digit(c)) {
			ok = scan_uint(&sc, &v->n);
			ints |= TTPU_CKB(k);
		} else {
			ok = scan_bool(&sc, &v->b);
			bools |= TTPU_CKB(k);
		}
		if (!ok)
			return false;
	}
	if (!(seen & TTPU_CKB(TTPU_CK_OP)) ||
	    ((windows | ints | bools) & TTPU_CKB(TTPU_CK_OP)))
		return false;
	op = ttpu_op_find(d->v[TTPU_CK_OP].s, d->v[TTPU_CK_OP].len);
	if (op < 0 || !op_takes(op, seen, windows, ints, bools))
		return false;
	d->op = op;
	d->present = seen;
	/* Where ttpu_js_value_raw() would leave them. */
	js->elem_start = js->pos;
	js->elem_mark = 0;
	js->pos = sc.i;
	return true;
}
