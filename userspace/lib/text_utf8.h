/* SPDX-License-Identifier: MIT */
/*
 * text_utf8.h - strict UTF-8 (RFC 3629) for what comes in and goes out
 *
 * Every string the library reads is checked with ttpu_utf8_check(), and
 * every message it writes passes ttpu_utf8_fix(), so a response or an
 * error document is valid UTF-8 whatever bytes it echoes or cuts.
 */
#ifndef TTPU_TEXT_UTF8_H
#define TTPU_TEXT_UTF8_H

#include <stddef.h>

/*
 * Length of the valid UTF-8 character at @s[0..@len), or 0 when it is not
 * one: a stray continuation byte, an overlong form, an encoded surrogate
 * (U+D800..U+DFFF), a value above U+10FFFF or a sequence cut by @len.
 */
size_t ttpu_utf8_char_len(const unsigned char *s, size_t len);

/* 0 when @s[0..@len) is valid UTF-8, else 1 with *@bad its first bad byte. */
int ttpu_utf8_check(const char *s, size_t len, size_t *bad);

/*
 * Make the NUL-terminated @s (in a buffer of @size bytes) valid UTF-8 in
 * place: each invalid byte becomes U+FFFD and a character that no longer
 * fits is dropped whole, so a cut never splits one. For the library's
 * fixed-size strings: @size is at most 1024.
 */
void ttpu_utf8_fix(char *s, size_t size);

#endif /* TTPU_TEXT_UTF8_H */
