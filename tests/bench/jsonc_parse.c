// SPDX-License-Identifier: MIT
/*
 * jsonc_parse.c - the baseline ttpu-run is measured against: json-c's bare
 * whole-document parse (json_tokener_parse) of a file already in memory.
 *
 * Prints "read_s S", "parse_s S" and "peak_rss_kb K" (the whole process:
 * the file's bytes plus the DOM).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <json-c/json.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
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

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE.json\n", argv[0]);
		return 2;
	}
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
