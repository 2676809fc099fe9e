// SPDX-License-Identifier: MIT
/*
 * fuzz_ttpu.c - libFuzzer harness over libttpu-run's public API
 *
 * One input is "PROGRAM\0INPUTS" (no NUL: all of it is the program, with
 * no inputs): the program is loaded from its buffer, the inputs parsed
 * from the rest of the same bytes, and the program run on the software
 * engine; the whole input is also loaded as a request. A compiled program
 * (.ttpb, starting with its magic) ends where its header's file_size says,
 * and is loaded twice: as it is, and with its checksum made right, since
 * the checksum alone would turn almost every mutation away before the
 * checks of each offset, count and index that follow it; each of the two
 * is also loaded with the loader's fast verifier alone, its precise
 * check alone and both (program_binary_check.h): the fast one accepts
 * nothing the precise one refuses, and both ends as precise. Besides crashes,
 * leaks and hangs (ASan, UBSan, libFuzzer), every document the library
 * writes must be valid UTF-8 and exactly one JSON value, and a JSON
 * program, its inputs and a request must load the same with the direct
 * readers turned off (ttpu_commands_direct, program_read_commands.h;
 * ttpu_int_lists_direct, text_json_stream.h): the same error document, or
 * the same compiled bytes and the same response. Every program that
 * loads, compiled and loaded back, answers as it did; every compiled
 * program that loads (as it came, or with its checksum made right) is
 * byte for byte the compiled JSON of its commands and answers as that
 * JSON does (binary_oracle.h). A violation aborts, so libFuzzer reports
 * it with the input.
 *
 * Built by mk/80-fuzz.mk with Debian's clang; seeded with the test
 * programs (each program joined to its inputs, as JSON and compiled).
 */
#include <errno.h>
#include <iconv.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "ttpu-run.h"
#include "program_binary.h"
#include "program_read_commands.h"
#include "../lib/binary_oracle.h"
#include "../lib/binary_verdicts.h"

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

/* Run @prog on @in: the response or the error document; malloc'd. */
static char *run(const ttpu_program *prog, const ttpu_inputs *in, size_t *len)
{
	struct ttpu_error err;
	ttpu_engine *eng = NULL;
	ttpu_result *res = NULL;
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f || ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &eng, &err))
		abort();	/* the software engine is always there */
	if (ttpu_run(prog, eng, in, &res, &err)) {
		if (ttpu_error_write_json(&err, f))
			abort();
		fclose(f);
		check_document("an error document", text, *len);
	} else {
		if (ttpu_result_write_json(res, f, 0, &err))
			abort();
		fclose(f);
		check_document("a response", text, *len);
	}
	ttpu_result_free(res);
	ttpu_engine_close(eng);
	return text;
}

/* @err as the error document the CLI would write; malloc'd. */
static char *error_text(const struct ttpu_error *err, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f || ttpu_error_write_json(err, f))
		abort();
	fclose(f);
	return text;
}

/* @prog compiled (ttpu_program_write_binary()), then freed; malloc'd. */
static char *compiled(ttpu_program *prog, size_t *len)
{
	char *image;

	if (ttpu_program_write_binary(prog, &image, len, NULL))
		abort();
	ttpu_program_free(prog);
	return image;
}

/*
 * Output elements above which a program is loaded and checked but not run:
 * a legal program may declare outputs of up to 2^28 elements, whose
 * response (gigabytes of text) no 10 s budget can write and check. The
 * loader's own limits are what such programs test.
 */
#define FUZZ_MAX_OUTPUT_ELEMS	(1u << 20)

static int outputs_small(const ttpu_program *prog)
{
	size_t total = 0, dims[2];
	int is_i8, rank;

	for (size_t i = 0; i < ttpu_program_output_count(prog); i++) {
		rank = ttpu_program_buffer_shape(prog, ttpu_program_output_name(prog, i),
						 dims, &is_i8);
		total += rank == 2 ? dims[0] * dims[1] : rank == 1 ? dims[0] : 0;
		if (total > FUZZ_MAX_OUTPUT_ELEMS)
			return 0;
	}
	return 1;
}

/* Both direct readers on (the library's default) or both off. */
static void set_direct(bool direct)
{
	ttpu_commands_direct = direct;
	ttpu_int_lists_direct = direct;
}

/* Two documents the two readers led to must be the same bytes. */
static void check_same(const char *what, char *got, size_t got_len, char *want,
		       size_t want_len)
{
	if (want_len != got_len || memcmp(want, got, want_len)) {
		fprintf(stderr, "fuzz_ttpu: the direct readers and json-c disagree on %s:\n%.*s\n%.*s\n",
			what, (int)got_len, got, (int)want_len, want);
		abort();
	}
	free(want);
	free(got);
}

/*
 * The inputs @inputs of @prog read by the direct readers (into @in, as
 * @rc and @err say) and by json-c alone: the same error document, or the
 * same response when run (FUZZ_MAX_OUTPUT_ELEMS permitting).
 */
static void check_inputs_agree(const ttpu_program *prog, const char *inputs,
			       size_t ilen, const ttpu_inputs *in, int rc,
			       const struct ttpu_error *err)
{
	ttpu_inputs *jin = ttpu_inputs_new(prog);
	struct ttpu_error jerr;
	size_t want_len, got_len;
	char *want, *got;
	int jrc;

	if (!jin)
		abort();
	set_direct(false);
	jrc = ttpu_inputs_parse(jin, inputs, ilen, &jerr);
	set_direct(true);
	if (jrc != rc) {
		fprintf(stderr, "fuzz_ttpu: inputs read with %d directly, %d by json-c\n", rc, jrc);
		abort();
	}
	if (rc) {
		check_same("inputs", error_text(err, &got_len), got_len,
			   error_text(&jerr, &want_len), want_len);
	} else if (outputs_small(prog)) {
		got = run(prog, in, &got_len);
		want = run(prog, jin, &want_len);
		check_same("a run on inputs", got, got_len, want, want_len);
	}
	ttpu_inputs_free(jin);
}

/*
 * The program at @text, which loaded with the direct command reader as
 * @rc, @prog and @err say, loads alike by json-c alone: the same error
 * document, or a program that compiles to the same bytes.
 */
static void check_readers_agree(const char *text, size_t len, int rc,
				const ttpu_program *prog, const struct ttpu_error *err)
{
	struct ttpu_error jerr;
	ttpu_program *jprog = NULL;
	char *want, *got;
	size_t want_len, got_len;
	int jrc;

	set_direct(false);
	jrc = ttpu_program_load_buffer(text, len, &jprog, &jerr);
	set_direct(true);
	if (jrc != rc) {
		fprintf(stderr, "fuzz_ttpu: the direct reader loads with %d, json-c with %d\n",
			rc, jrc);
		abort();
	}
	if (rc) {
		want = error_text(&jerr, &want_len);
		got = error_text(err, &got_len);
	} else {
		if (ttpu_program_write_binary(prog, &got, &got_len, NULL))
			abort();
		want = compiled(jprog, &want_len);
	}
	check_same(rc ? "an error" : "a program", got, got_len, want, want_len);
}

/*
 * A program that loaded from @text (@plen bytes) means what the JSON of
 * its commands means (binary_oracle.h): compiled, it loads back and
 * answers as it does; and a compiled @text that loaded is byte for byte
 * the compiled JSON of its commands and answers alike.
 */
static void check_compiled_means(const char *text, size_t plen, const ttpu_program *prog)
{
	struct ttpu_error err;
	ttpu_program *back = NULL;
	char why[1024], *image, *got, *want;
	ttpu_inputs *in, *bin;
	const char *r;
	size_t len;

	if (ttpu_binary_has_magic(text, plen)) {
		r = binary_means_its_commands(text, plen, prog, (unsigned int)plen,
					      outputs_small(prog), why, sizeof(why));
		if (r) {
			fprintf(stderr, "fuzz_ttpu: a compiled program that loaded is not its commands: %s\n", r);
			abort();
		}
		return;
	}
	if (ttpu_program_write_binary(prog, &image, &len, &err) ||
	    ttpu_program_load_buffer(image, len, &back, &err)) {
		fprintf(stderr, "fuzz_ttpu: a program does not compile and load back: %s\n",
			err.message);
		abort();
	}
	r = binary_means_its_commands(image, len, back, (unsigned int)len, outputs_small(prog),
				      why, sizeof(why));
	if (!r && outputs_small(prog)) {
		in = oracle_inputs(prog, (unsigned int)plen);
		bin = oracle_inputs(back, (unsigned int)plen);
		got = oracle_outcome(back, bin);
		want = oracle_outcome(prog, in);
		if (strcmp(got, want)) {
			snprintf(why, sizeof(why), "compiled, it answers %.300s where it answered %.300s",
				 got, want);
			r = why;
		}
		free(got);
		free(want);
		ttpu_inputs_free(in);
		ttpu_inputs_free(bin);
	}
	if (r) {
		fprintf(stderr, "fuzz_ttpu: %s\n", r);
		abort();
	}
	ttpu_program_free(back);
	free(image);
}

/* Load PROGRAM (plen bytes), parse INPUTS after it if any, run. */
static void program_then_inputs(const char *text, size_t plen, const char *inputs,
				size_t ilen)
{
	struct ttpu_error err;
	ttpu_program *prog = NULL;
	ttpu_inputs *in = NULL;
	size_t rlen;

	int rc = ttpu_program_load_buffer(text, plen, &prog, &err);

	if (!ttpu_binary_has_magic(text, plen))
		check_readers_agree(text, plen, rc, prog, &err);
	if (rc) {
		check_error(&err);
		return;
	}
	check_compiled_means(text, plen, prog);
	in = ttpu_inputs_new(prog);
	if (!in)
		abort();
	if (inputs) {
		rc = ttpu_inputs_parse(in, inputs, ilen, &err);
		if (rc)
			check_error(&err);
		check_inputs_agree(prog, inputs, ilen, in, rc, &err);
	} else if (outputs_small(prog)) {
		free(run(prog, in, &rlen));
	}
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

/* @image loaded every way binary_verdicts.h has, which must agree. */
static void check_verifiers_agree(const char *image, size_t len)
{
	struct binary_verdicts v;

	if (!binary_verdicts_agree(image, len, &v)) {
		binary_verdicts_print(stderr, "fuzz_ttpu: the compiled loader's checks disagree: ", &v);
		abort();
	}
}

/* A compiled program, then "\0INPUTS" after its file_size bytes. */
static void compiled_then_inputs(const uint8_t *data, size_t size)
{
	size_t plen = size;
	uint64_t fsize, sum;
	const char *inputs = NULL;
	char *fixed;

	if (size >= sizeof(struct ttpb_header)) {
		memcpy(&fsize, data + offsetof(struct ttpb_header, file_size),
		       sizeof(fsize));
		if (fsize < size)
			plen = (size_t)fsize;
	}
	if (plen < size && data[plen] == '\0')
		inputs = (const char *)data + plen + 1;
	program_then_inputs((const char *)data, plen, inputs,
			    inputs ? size - plen - 1 : 0);
	check_verifiers_agree((const char *)data, plen);
	if (plen < sizeof(struct ttpb_header))
		return;
	fixed = malloc(plen);
	if (!fixed)
		abort();
	memcpy(fixed, data, plen);
	sum = ttpu_binary_checksum(fixed, plen);
	memcpy(fixed + offsetof(struct ttpb_header, checksum), &sum, sizeof(sum));
	program_then_inputs(fixed, plen, inputs, inputs ? size - plen - 1 : 0);
	check_verifiers_agree(fixed, plen);
	free(fixed);
}

/*
 * The whole input loaded as a request, the direct readers on or off: the
 * error document, the response of a run, or (outputs too large to run)
 * the program compiled; malloc'd.
 */
static char *request_outcome(const char *text, size_t size, bool direct,
			     size_t *len)
{
	struct ttpu_error err;
	ttpu_program *prog = NULL;
	ttpu_inputs *in = NULL;
	char *out;
	int rc;

	set_direct(direct);
	rc = ttpu_request_load_buffer(text, size, &prog, &in, &err);
	set_direct(true);
	if (rc) {
		if (direct)
			check_error(&err);
		return error_text(&err, len);
	}
	if (outputs_small(prog)) {
		out = run(prog, in, len);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
	} else {
		ttpu_inputs_free(in);
		out = compiled(prog, len);
	}
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	size_t plen = nul ? (size_t)(nul - text) : size, got_len, want_len;
	char *got, *want;

	if (!utf8_check) {
		utf8_check = iconv_open("UTF-32LE", "UTF-8");
		if (utf8_check == (iconv_t)-1)
			abort();
	}
	if (ttpu_binary_has_magic(data, size)) {
		compiled_then_inputs(data, size);
		return 0;
	}
	program_then_inputs(text, plen, nul ? nul + 1 : NULL, nul ? size - plen - 1 : 0);

	got = request_outcome(text, size, true, &got_len);
	want = request_outcome(text, size, false, &want_len);
	check_same("a request", got, got_len, want, want_len);
	return 0;
}
