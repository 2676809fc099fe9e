// SPDX-License-Identifier: MIT
/*
 * jsonc_parse.c - the baseline ttpu-run is measured against: json-c's bare
 * whole-document parse (json_tokener_parse) of a file already in memory.
 *
 * Prints "read_s S", "parse_s S" and "peak_rss_kb K" (the whole process:
 * the file's bytes plus the DOM).
 *
 * With --elements, the floor of a loader where json-c lexes everything one
 * element at a time: each top-level key and value, and each element of
 * "commands", parsed by json_tokener_parse_ex() and freed, in the "C"
 * locale as the library runs it, with no conversion at all. Prints
 * "elements_s S" and "elements N" instead of "parse_s".
 */
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <json-c/json.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static size_t skip_ws(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/* The value at text[*i]: parsed, freed, *i moved past it. */
static int one(struct json_tokener *tok, const char *s, size_t *i, size_t len,
	       struct json_object **keep)
{
	size_t avail = len - *i > INT_MAX ? INT_MAX : len - *i;
	struct json_object *o;

	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, s + *i, (int)avail);
	if (json_tokener_get_error(tok) != json_tokener_success)
		return -1;
	*i += json_tokener_get_parse_end(tok);
	if (keep)
		*keep = o;
	else
		json_object_put(o);
	return 0;
}

/* Walk the program object; -1 when the text is not one. */
static long elements(const char *s, size_t len)
{
	struct json_tokener *tok = json_tokener_new_ex(32);
	struct json_object *key;
	size_t i = skip_ws(s, 0, len);
	long n = 0;
	int commands;

	if (!tok || i >= len || s[i++] != '{')
		return -1;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	for (;;) {
		i = skip_ws(s, i, len);
		if (i < len && s[i] == '}')
			break;
		if (one(tok, s, &i, len, &key))
			return -1;
		commands = !strcmp(json_object_get_string(key), "commands");
		json_object_put(key);
		i = skip_ws(s, i, len);
		if (i >= len || s[i++] != ':')
			return -1;
		i = skip_ws(s, i, len);
		n += 2;
		if (!commands) {
			if (one(tok, s, &i, len, NULL))
				return -1;
		} else {
			if (i >= len || s[i++] != '[')
				return -1;
			for (;;) {
				i = skip_ws(s, i, len);
				if (i < len && s[i] == ']') {
					i++;
					break;
				}
				if (one(tok, s, &i, len, NULL))
					return -1;
				n++;
				i = skip_ws(s, i, len);
				if (i < len && s[i] == ',')
					i++;
			}
		}
		i = skip_ws(s, i, len);
		if (i < len && s[i] == ',')
			i++;
	}
	json_tokener_free(tok);
	return n;
}

int main(int argc, char **argv)
{
	struct json_object *doc;
	struct rusage ru;
	double t0, t1, t2;
	size_t len, got;
	char *text;
	FILE *f;
	long size;

	int walk = argc == 3 && !strcmp(argv[1], "--elements");
	long n = 0;

	if (argc != 2 && !walk) {
		fprintf(stderr, "usage: %s [--elements] FILE.json\n", argv[0]);
		return 2;
	}
	argv += walk;
	t0 = now();
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(argv[1]);
		return 1;
	}
	len = (size_t)size;
	text = malloc(len + 1);
	if (!text) {
		fprintf(stderr, "%s: out of memory for %zu bytes\n", argv[1], len);
		return 1;
	}
	got = fread(text, 1, len, f);
	fclose(f);
	if (got != len) {
		fprintf(stderr, "%s: short read (%zu of %zu bytes)\n", argv[1], got, len);
		return 1;
	}
	text[len] = '\0';
	t1 = now();
	if (walk) {
		/* Never allocates: "C" with no base is glibc's static C locale. */
		locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);

		if (c)
			uselocale(c);
		n = elements(text, len);
		t2 = now();
		if (n < 0) {
			fprintf(stderr, "%s: not a program object json-c can walk\n", argv[1]);
			return 1;
		}
		getrusage(RUSAGE_SELF, &ru);
		printf("read_s %.6f\nelements_s %.6f\nelements %ld\npeak_rss_kb %ld\n",
		       t1 - t0, t2 - t1, n, ru.ru_maxrss);
		free(text);
		return 0;
	}
	doc = json_tokener_parse(text);
	t2 = now();
	if (!doc) {
		fprintf(stderr, "%s: json-c could not parse it\n", argv[1]);
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("read_s %.6f\nparse_s %.6f\npeak_rss_kb %ld\n", t1 - t0, t2 - t1,
	       ru.ru_maxrss);
	json_object_put(doc);
	free(text);
	return 0;
}
