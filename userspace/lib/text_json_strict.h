/* SPDX-License-Identifier: MIT */
/*
 * text_json_strict.h - what json-c accepts and a ttpu text may not hold
 *
 * json-c takes a string's bytes as they come and keeps the last of
 * duplicate keys without a word. A ttpu text is stricter: every string
 * valid UTF-8 naming no lone surrogate, no key twice in an object, no
 * nesting deeper than TTPU_JSON_MAX_DEPTH (json-c's tokener enforces
 * that one, told the depth). The other checks run on a value json-c has just accepted (text_json_stream.c,
 * program_read_commands.c), on its text and its tree; they know nothing
 * of the stream.
 */
#ifndef TTPU_TEXT_JSON_STRICT_H
#define TTPU_TEXT_JSON_STRICT_H

#include <stddef.h>

struct json_object;

#define TTPU_JSON_MAX_DEPTH 32

/*
 * One pass over text[start, end), a value json-c accepted: count the
 * name/value separators outside strings (*@colons) and check the strings,
 * which json-c takes byte for byte: each must be valid UTF-8 and name no
 * lone surrogate ("\ud800" alone would come back as U+FFFD, a different
 * name). Returns 0, or 1 (bad UTF-8) or 2 (lone surrogate) with *@bad
 * the offset of the culprit.
 */
int ttpu_js_scan_value(const char *s, size_t start, size_t end, size_t *colons,
		       size_t *bad);

/* Object members anywhere in @obj (its own and all nested ones). */
size_t ttpu_js_count_members(struct json_object *obj);

/*
 * Name the duplicate key in text[start, end) (a value json-c accepted):
 * only called once a duplicate is known to exist, so it may be slow.
 */
void ttpu_js_find_duplicate_key(const char *s, size_t start, size_t end,
				char *out, size_t size);

#endif /* TTPU_TEXT_JSON_STRICT_H */
