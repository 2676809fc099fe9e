// SPDX-License-Identifier: MIT
/*
 * response_passes.c - the response's "passes" list, once per program
 *
 * The list depends on the program alone (each pass's id, and 15 cycles
 * each): it is rendered once, kept with the program and shared by every
 * result, counted. A response can hold 100k records, 2.9 MB, which were
 * written again for every request (Documentation/host-cost.rst, "Once
 * per program"). It is made by ttpu_program_prepare() (run_prepare.c),
 * so that a served program's start-up pays for it and not its first
 * request, or else at the program's first run.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "response_number.h"
#include "response_passes.h"

/*
 * The @len decimal digits at @d made those of the next number: the last
 * digit goes up by one, with its carries (almost always none). @len is
 * updated; @d has room for INT_MAX_CHARS.
 */
static void decimal_increment(char *d, size_t *len)
{
	size_t i = *len;

	while (i && d[i - 1] == '9')
		d[--i] = '0';
	if (i) {
		d[i - 1]++;
		return;
	}
	memmove(d + 1, d, *len);	/* 99..9 + 1: one more digit */
	d[0] = '1';
	++*len;
}

#define RECORD_ID "{\"id\": "
#define RECORD_CYCLES ", \"cycles\": 15}, "
/* The most one record and its separator take. */
#define RECORD_MAX (sizeof(RECORD_ID) - 1 + INT_MAX_CHARS + sizeof(RECORD_CYCLES) - 1)

/*
 * One record and the separator after it at @q, its id's @len digits at
 * @digits (INT_MAX_CHARS bytes copied, the room a record has, so that
 * every copy has a length known when compiled); returns its end.
 */
static inline char *put_record(char *q, const char digits[INT_MAX_CHARS], size_t len)
{
	memcpy(q, RECORD_ID, sizeof(RECORD_ID) - 1);
	q += sizeof(RECORD_ID) - 1;
	memcpy(q, digits, INT_MAX_CHARS);
	q += len;
	memcpy(q, RECORD_CYCLES, sizeof(RECORD_CYCLES) - 1);
	return q + sizeof(RECORD_CYCLES) - 1;
}

/*
 * Ten records of consecutive ids whose digits differ only in the last, 0
 * to 9 (a decade), kept rendered: the next decade of as many digits
 * differs only in the digits before the last that changed, which are
 * patched in each of the ten before they are copied out as one piece.
 */
struct decade {
	char text[10 * RECORD_MAX];
	size_t len;			/* the ids' digits; 0: nothing rendered */
	size_t rec;			/* one record's length, separator included */
};

/* The decade of @digits (@len of them, the last '0') into @q; returns its end. */
static char *put_decade(struct decade *d, char *q, char digits[INT_MAX_CHARS], size_t len)
{
	char *at = d->text + sizeof(RECORD_ID) - 1;
	size_t first = 0;

	if (d->len != len) {
		char *e = d->text;

		for (int k = 0; k < 10; k++) {
			digits[len - 1] = (char)('0' + k);
			e = put_record(e, digits, len);
		}
		d->len = len;
		d->rec = (size_t)(e - d->text) / 10;
	} else {
		while (first + 1 < len && at[first] == digits[first])
			first++;
		for (size_t j = first; j + 1 < len; j++)
			for (int k = 0; k < 10; k++)
				at[k * d->rec + j] = digits[j];
	}
	digits[len - 1] = '9';
	memcpy(q, d->text, 10 * d->rec);
	return q + 10 * d->rec;
}

/* Whether @ids[0 .. 9] are consecutive and start a decade (@digits ends in 0). */
static bool starts_decade(const int64_t *ids, size_t left, const char *digits, size_t len)
{
	if (left < 10 || digits[len - 1] != '0' || ids[0] < 0 || ids[0] > INT64_MAX - 9)
		return false;
	for (int k = 1; k < 10; k++)
		if (ids[k] != ids[0] + k)
			return false;
	return true;
}

/*
 * The records in slot order. Compilers number passes 0, 1, 2, ...: an id
 * one past the one before is its decimal digits incremented in place
 * (decimal_increment()), any other is formatted (fmt_int()); ten such
 * ids from a multiple of ten go out as a decade.
 */
static struct ttpu_passes_text *passes_text_render(const struct ttpu_program *prog)
{
	struct ttpu_passes_text *t = malloc(sizeof(*t) + prog->npasses * RECORD_MAX + 1), *shrunk;
	char digits[INT_MAX_CHARS] = { 0 }, *q;
	struct decade *dec = malloc(sizeof(*dec));
	const int64_t *ids = prog->pass_ids;
	size_t len = 0, n = prog->npasses;

	if (!t || !dec) {
		free(t);
		free(dec);
		return NULL;
	}
	dec->len = 0;
	q = t->text;
	for (size_t i = 0; i < n;) {
		if (i && ids[i] > 0 && ids[i] - 1 == ids[i - 1])
			decimal_increment(digits, &len);
		else
			len = fmt_int(digits, ids[i]);
		if (starts_decade(ids + i, n - i, digits, len)) {
			q = put_decade(dec, q, digits, len);
			i += 10;
		} else {
			q = put_record(q, digits, len);
			i++;
		}
	}
	free(dec);
	/* No separator after the last. */
	t->len = (size_t)(q - t->text) - (n ? 2 : 0);
	t->refs = 1;
	shrunk = realloc(t, sizeof(*t) + t->len + 1);
	return shrunk ? shrunk : t;
}

/*
 * Runs of one program and ttpu_program_prepare() on several threads may
 * race to make the list: the first to publish wins, the others free
 * theirs.
 */
struct ttpu_passes_text *ttpu_passes_text_get(const struct ttpu_program *prog)
{
	/* A cache: the program is otherwise immutable once loaded. */
	struct ttpu_passes_text **slot = &((struct ttpu_program *)prog)->passes_text;
	struct ttpu_passes_text *t = __atomic_load_n(slot, __ATOMIC_ACQUIRE), *mine;

	if (!t) {
		mine = passes_text_render(prog);
		if (!mine)
			return NULL;
		if (__atomic_compare_exchange_n(slot, &t, mine, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			t = mine;
		} else {
			free(mine);
		}
	}
	__atomic_add_fetch(&t->refs, 1, __ATOMIC_RELAXED);
	return t;
}

void ttpu_passes_text_put(struct ttpu_passes_text *t)
{
	if (t && !__atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL))
		free(t);
}
