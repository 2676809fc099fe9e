// SPDX-License-Identifier: MIT
/*
 * text_utf8.c - strict UTF-8 (see text_utf8.h)
 */
#include <string.h>

#include "text_utf8.h"

size_t ttpu_utf8_char_len(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	size_t n, i;
	unsigned int lo = 0x80, hi = 0xbf;	/* bounds of the second byte */

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;		/* overlong below U+0800 */
		else if (c == 0xed)
			hi = 0x9f;		/* U+D800..U+DFFF: surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;		/* overlong below U+10000 */
		else if (c == 0xf4)
			hi = 0x8f;		/* above U+10FFFF */
	} else {
		return 0;	/* continuation byte, 0xc0/0xc1 overlongs, 0xf5.. */
	}
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

int ttpu_utf8_check(const char *s, size_t len, size_t *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		n = ttpu_utf8_char_len(u + i, len - i);
		if (!n) {
			*bad = i;
			return 1;
		}
		i += n;
	}
	return 0;
}

void ttpu_utf8_fix(char *s, size_t size)
{
	static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */
	const unsigned char *u = (const unsigned char *)s;
	size_t len, i = 0, o = 0, n, w;
	char out[1024];
	const char *from;

	if (!size)
		return;
	len = strnlen(s, size - 1);
	if (!ttpu_utf8_check(s, len, &n)) {
		s[len] = '\0';
		return;
	}
	if (size > sizeof(out))
		size = sizeof(out);
	while (i < len) {
		n = ttpu_utf8_char_len(u + i, len - i);
		from = n ? s + i : replacement;
		w = n ? n : 3;
		if (o + w >= size)
			break;
		memcpy(out + o, from, w);
		o += w;
		i += n ? n : 1;
	}
	memcpy(s, out, o);
	s[o] = '\0';
}
