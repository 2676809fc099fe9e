// SPDX-License-Identifier: MIT
/*
 * fuzz_ttpu.c - libFuzzer harness over libttpu-run's public API
 *
 * One input is "PROGRAM\0INPUTS" (no NUL: all of it is the program, with
 * no inputs): the program is loaded from its buffer, the inputs parsed
 * from the rest of the same bytes, and the program run on the software
 * engine; the whole input is also loaded as a request. Besides crashes,
 * leaks and hangs (ASan, UBSan, libFuzzer), every document the library
 * writes must be valid UTF-8 and exactly one JSON value: a violation
 * aborts, so libFuzzer reports it with the input.
 *
 * Built by mk/80-fuzz.mk with Debian's clang; seeded with the test
 * programs (tests/fuzz/seeds: each program joined to its inputs).
 */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "ttpu-run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static iconv_t utf8_check;

/* glibc's iconv, not the library's own check, judges the UTF-8. */
static int valid_utf8(const char *s, size_t len)
{
	char out[4096], *in = (char *)s, *o;
	size_t ol, r = 0;

	iconv(utf8_check, NULL, NULL, NULL, NULL);
	while (len && r != (size_t)-1) {
		o = out;
		ol = sizeof(out);
		r = iconv(utf8_check, &in, &len, &o, &ol);
		if (r == (size_t)-1 && errno == E2BIG)
			r = 0;
	}
	return r != (size_t)-1 && !len;
}

/* The text is valid UTF-8 and exactly one JSON value, else abort. */
static void check_document(const char *what, char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj;

	if (!tok)
		abort();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	if (!valid_utf8(text, len) || !obj ||
	    json_tokener_get_error(tok) != json_tokener_success ||
	    strspn(text + json_tokener_get_parse_end(tok), " \n") !=
	    len - json_tokener_get_parse_end(tok)) {
		fprintf(stderr, "fuzz_ttpu: %s is not one valid JSON document:\n%.*s\n",
			what, (int)len, text);
		abort();
	}
	json_object_put(obj);
	json_tokener_free(tok);
}

static void check_error(const struct ttpu_error *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	ttpu_error_write_json(err, f);
	fclose(f);
	check_document("an error document", text, len);
	free(text);
}

static void run(const ttpu_program *prog, const ttpu_inputs *in)
{
	struct ttpu_error err;
	ttpu_engine *eng = NULL;
	ttpu_result *res = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &eng, &err))
		abort();	/* the software engine is always there */
	if (ttpu_run(prog, eng, in, &res, &err)) {
		check_error(&err);
	} else {
		f = open_memstream(&text, &len);
		if (!f)
			abort();
		if (ttpu_result_write_json(res, f, 1, &err))
			abort();
		fclose(f);
		check_document("a response", text, len);
		free(text);
	}
	ttpu_result_free(res);
	ttpu_engine_close(eng);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	size_t plen = nul ? (size_t)(nul - text) : size;
	struct ttpu_error err;
	ttpu_program *prog = NULL;
	ttpu_inputs *in = NULL;

	if (!utf8_check) {
		utf8_check = iconv_open("UTF-32LE", "UTF-8");
		if (utf8_check == (iconv_t)-1)
			abort();
	}
	if (ttpu_program_load_buffer(text, plen, &prog, &err)) {
		check_error(&err);
	} else {
		in = ttpu_inputs_new(prog);
		if (!in)
			abort();
		if (nul && ttpu_inputs_parse(in, nul + 1, size - plen - 1, &err))
			check_error(&err);
		else
			run(prog, in);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
	}

	prog = NULL;
	in = NULL;
	if (ttpu_request_load_buffer(text, size, &prog, &in, &err)) {
		check_error(&err);
	} else {
		run(prog, in);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
	}
	return 0;
}
