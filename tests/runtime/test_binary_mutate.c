// SPDX-License-Identifier: MIT
/*
 * test_binary_mutate.c - a compiled program means exactly its commands
 * (issue 19): every word of the command and plan records of several
 * programs changed (plus and less one, 0, all ones, the same word of the
 * neighbouring records), every byte of the records with byte fields set
 * to a few values, every record swapped with the next, the header's plan
 * words changed, each file with its checksum made right again, as a
 * hostile or "repaired" file would have it. Every such file either is a
 * SchemaError, or loads and is exactly the JSON program of the commands
 * it holds: that JSON (tests/lib/binary_oracle.h) loads, compiles to the
 * very bytes of the file, and answers as the file does on the software
 * engine. Each file is also loaded with the fast verifier alone, the
 * precise check alone and both (tests/lib/binary_verdicts.h): the fast
 * one accepts nothing the precise one refuses, and a default load ends
 * as the precise check, message and all; the fast one without its AVX2
 * walk over pass/acc pairs ends as with it. The matmul with long chains
 * gives that walk several pairs a chain to see mutated, and each link's
 * operand buffers are also changed together with their pass's.
 *
 * Under valgrind or the sanitizers the programs are the small ones and
 * the byte mutations every third byte, so that the suite stays well
 * inside its timeout on a loaded machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "plan.h"
#include "program_binary.h"
#include "rt.h"
#include "../lib/binary_oracle.h"
#include "../lib/binary_verdicts.h"

/*
 * Every section holds something: host ops, a pass whose acc is in a
 * later stage (deferred), a bias and a relu, two chains into one window
 * (the second "follows"), an unaligned window, an acc whose operand the
 * stage wrote. The precise check's kind of program.
 */
#define PROG_ODD RT_PROG(RT_BUF("A", "i8", "[6,8]", "input") ","			\
	RT_CONST("W", "i8", "[8,5]", "[[1,0,0,0,1],[0,1,0,0,1],[0,0,1,0,1],[0,0,0,1,1],"	\
		 "[2,0,0,0,2],[0,2,0,0,2],[0,0,2,0,2],[0,0,0,2,2]]") ","		\
	RT_CONST("b", "i32", "[5]", "[1,-2,3,-4,5]") ","				\
	RT_BUF("C", "i32", "[6,5]", "temp") "," RT_BUF("D", "i32", "[6,5]", "temp") ","	\
	RT_BUF("H", "i8", "[6,5]", "temp"),						\
	"'A'", "'C','D','H'",								\
	"{'op':'alloc','buf':'C'},{'op':'alloc','buf':'H'},"				\
	RT_PASS(0, "A", 0, 0, "W", 0, 0) "," RT_PASS(1, "A", 0, 4, "W", 4, 0) ","	\
	RT_PASS(2, "A", 1, 2, "W", 2, 1) "," RT_ACC(0, "C", 0, 0) ","			\
	"{'op':'acc','pass':2,'dst':" RT_WIN("C", 1, 1) "},"				\
	"{'op':'host_relu','dst':'D','src':'C'},"					\
	"{'op':'acc','pass':1,'dst':" RT_WIN("C", 0, 0) ",'bias':'b','relu':true},"	\
	RT_PASS(3, "A", 0, 0, "W", 0, 0) "," RT_ACC(3, "H", 0, 0) ","			\
	RT_PASS(4, "H", 0, 0, "W", 0, 0) ","						\
	"{'op':'acc','pass':4,'dst':" RT_WIN("H", 0, 0) ",'relu':true},"		\
	RT_PASS(5, "A", 4, 4, "W", 4, 4) "," RT_ACC(5, "C", 4, 4) ","			\
	RT_PASS(6, "A", 4, 0, "W", 0, 4) "," RT_ACC(6, "C", 4, 4) ","			\
	"{'op':'epilogue','dst':" RT_WIN("C", 4, 0) ",'bias':'b','relu':true},"	\
	"{'op':'host_add','dst':'D','a':'C','b':'b'}")

/* The fast verifier's kind: pass/acc pairs, chains side by side, aligned windows. */
#define PROG_PLAIN RT_PROG(RT_BUF("A", "i8", "[8,8]", "input") ","			\
	RT_CONST("W", "i8", "[8,6]", "[[1,0,0,0,1,2],[0,1,0,0,1,2],[0,0,1,0,1,2],"	\
		 "[0,0,0,1,1,2],[2,0,0,0,2,2],[0,2,0,0,2,2],[0,0,2,0,2,2],[0,0,0,2,2,2]]") ","	\
	RT_CONST("b", "i32", "[6]", "[1,-2,3,-4,5,-6]") ","				\
	RT_BUF("C", "i32", "[8,6]", "temp"),						\
	"'A'", "'C'",									\
	"{'op':'alloc','buf':'C'},"							\
	RT_PASS(10, "A", 0, 0, "W", 0, 0) "," RT_ACC(10, "C", 0, 0) ","		\
	RT_PASS(11, "A", 0, 4, "W", 4, 0) ","						\
	"{'op':'acc','pass':11,'dst':" RT_WIN("C", 0, 0) ",'bias':'b','relu':true},"	\
	RT_PASS(12, "A", 0, 0, "W", 0, 4) "," RT_ACC(12, "C", 0, 4) ","		\
	RT_PASS(13, "A", 0, 4, "W", 4, 4) "," RT_ACC(13, "C", 0, 4) ","		\
	RT_PASS(14, "A", 4, 0, "W", 0, 0) "," RT_ACC(14, "C", 4, 0) ","		\
	RT_PASS(15, "A", 4, 4, "W", 4, 0) "," RT_ACC(15, "C", 4, 0) ","		\
	RT_PASS(16, "A", 4, 0, "W", 0, 4) "," RT_ACC(16, "C", 4, 4) ","		\
	RT_PASS(17, "A", 4, 4, "W", 4, 4) ","						\
	"{'op':'acc','pass':17,'dst':" RT_WIN("C", 4, 4) ",'relu':true}")

/* valgrind (its preload) or the sanitizers (their options): ten times slower */
static bool slow_build(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return (preload && strstr(preload, "vgpreload")) || getenv("ASAN_OPTIONS") ||
	       getenv("UBSAN_OPTIONS");
}

struct tally {
	unsigned long files, accepted, rejected, fast_left;
	unsigned int seed;
};

/* Every load of @image binary_verdicts.h makes agrees, and a load is its commands' JSON. */
static const char *judge(const char *image, size_t len, struct tally *t, char *why, size_t n)
{
	struct binary_verdicts bv;
	struct ttpu_error err;
	ttpu_program *prog;
	const char *r;

	t->files++;
	if (!binary_verdicts_agree(image, len, &bv)) {
		FILE *f = fmemopen(why, n, "w");

		if (f) {
			binary_verdicts_print(f, "the checks disagree: ", &bv);
			fclose(f);
		}
		return why;
	}
	if (bv.rc[VERDICT_PRECISE]) {
		t->rejected++;
		if (bv.rc[VERDICT_PRECISE] != -TTPU_SCHEMA_ERROR ||
		    strncmp(bv.err[VERDICT_PRECISE].message, "compiled program: ", 18)) {
			snprintf(why, n, "refused with %d \"%s\"", bv.rc[VERDICT_PRECISE],
				 bv.err[VERDICT_PRECISE].message);
			return why;
		}
		return NULL;
	}
	t->accepted++;
	t->fast_left += bv.rc[VERDICT_FAST] != 0;
	if (ttpu_program_load_buffer(image, len, &prog, &err)) {
		snprintf(why, n, "loaded, then not: %s", err.message);
		return why;
	}
	r = binary_means_its_commands(image, len, prog, t->seed++, true, why, n);
	ttpu_program_free(prog);
	return r;
}

static void fix_checksum(char *image, size_t len)
{
	((struct ttpb_header *)image)->checksum = ttpu_binary_checksum(image, len);
}

/* @image with @len bytes at @at set to @with, judged, then put back. */
static const char *try_bytes(char *image, size_t len, size_t at, const void *with, size_t n,
			     struct tally *t, char *why, size_t wn)
{
	char was[128];
	const char *r;

	memcpy(was, image + at, n);
	memcpy(image + at, with, n);
	fix_checksum(image, len);
	r = judge(image, len, t, why, wn);
	memcpy(image + at, was, n);
	fix_checksum(image, len);
	return r;
}

/* Sections whose records are commands or derived from them (and the lists they use). */
static const int mutated[] = {
	TTPB_BUFFERS, TTPB_INPUTS, TTPB_OUTPUTS, TTPB_COMMANDS, TTPB_PASS_IDS, TTPB_PASS_CMD,
	TTPB_MEASURED, TTPB_STAGES, TTPB_JOBS, TTPB_LINKS, TTPB_CHAINS, TTPB_STEPS,
	TTPB_DEFERRED, TTPB_TMP_INDEX,
};

/* Whether records of section @s have byte-wide fields (op, relu, kind, dtype). */
static bool has_bytes(int s)
{
	return s == TTPB_COMMANDS || s == TTPB_STAGES || s == TTPB_CHAINS || s == TTPB_BUFFERS;
}

/*
 * Every mutation above of the compiled @image (@len bytes), named in
 * @where on the first that fails; @byte_step: every how many bytes of a
 * record the byte values are tried.
 */
static const char *mutate_all(char *image, size_t len, size_t byte_step, struct tally *t,
			      char *where, size_t wn)
{
	static const uint8_t bytes[] = { 0, 1, 2, 0xff };
	const struct ttpb_header *h = (const struct ttpb_header *)image;
	char why[1024];
	const char *r = NULL;
	uint32_t v[6];
	uint64_t v64;

	for (size_t k = 0; k < sizeof(mutated) / sizeof(mutated[0]) && !r; k++) {
		int s = mutated[k];
		const struct ttpb_section *x = &h->sections[s];
		size_t size = x->record_size;

		for (size_t rec = 0; rec < x->count && !r; rec++) {
			size_t at = x->offset + rec * size;

			for (size_t w = 0; w + 4 <= size && !r; w += 4) {
				uint32_t old;
				size_t nv = 0;

				memcpy(&old, image + at + w, 4);
				v[nv++] = old + 1;
				v[nv++] = old - 1;
				v[nv++] = 0;
				v[nv++] = UINT32_MAX;
				if (rec)
					memcpy(&v[nv++], image + at - size + w, 4);
				if (rec + 1 < x->count)
					memcpy(&v[nv++], image + at + size + w, 4);
				for (size_t i = 0; i < nv && !r; i++) {
					if (v[i] == old)
						continue;
					r = try_bytes(image, len, at + w, &v[i], 4, t, why, sizeof(why));
					if (r)
						snprintf(where, wn, "section %d, record %zu, word %zu = %u: %s",
							 s, rec, w / 4, v[i], r);
				}
			}
			for (size_t b = 0; has_bytes(s) && b < size && !r; b += byte_step) {
				for (size_t i = 0; i < sizeof(bytes) && !r; i++) {
					if ((uint8_t)image[at + b] == bytes[i])
						continue;
					r = try_bytes(image, len, at + b, &bytes[i], 1, t, why, sizeof(why));
					if (r)
						snprintf(where, wn, "section %d, record %zu, byte %zu = %u: %s",
							 s, rec, b, bytes[i], r);
				}
			}
			if (rec + 1 < x->count && 2 * size <= 128 && !r &&
			    memcmp(image + at, image + at + size, size)) {
				char swap[128];

				memcpy(swap, image + at + size, size);
				memcpy(swap + size, image + at, size);
				r = try_bytes(image, len, at, swap, 2 * size, t, why, sizeof(why));
				if (r)
					snprintf(where, wn, "section %d, records %zu and %zu swapped: %s",
						 s, rec, rec + 1, r);
			}
		}
	}
	/* the header's plan words */
	for (int f = 0; f < 2 && !r; f++) {
		size_t at = f ? offsetof(struct ttpb_header, max_stage_jobs) :
				offsetof(struct ttpb_header, ntmp);
		uint64_t old;

		memcpy(&old, image + at, 8);
		for (int d = -1; d <= 1 && !r; d += 2) {
			v64 = old + (uint64_t)(int64_t)d;
			r = try_bytes(image, len, at, &v64, 8, t, why, sizeof(why));
			if (r)
				snprintf(where, wn, "header %s %+d: %s", f ? "max_stage_jobs" : "ntmp",
					 d, r);
		}
	}
	return r;
}

/*
 * Each link's operand buffer and its pass's set together to every buffer
 * index and one past: a change that no single word shows (the link still
 * matches its pass), which the fast verifier must see as a change of the
 * pass's operand, not take the chain's.
 */
static const char *mutate_operands(char *image, size_t len, struct tally *t, char *where,
				   size_t wn)
{
	const struct ttpb_header *h = (const struct ttpb_header *)image;
	const struct ttpb_section *links = &h->sections[TTPB_LINKS];
	const struct ttpb_section *cmds = &h->sections[TTPB_COMMANDS];
	uint32_t nbuffers = (uint32_t)h->sections[TTPB_BUFFERS].count;
	const char *r = NULL;
	char why[1024];

	for (size_t k = 0; k < links->count && !r; k++) {
		char *link = image + links->offset + k * sizeof(struct ttpu_link);
		struct ttpu_link l;
		char *pass;

		memcpy(&l, link, sizeof(l));
		if (l.pass_cmd >= cmds->count)
			continue;
		pass = image + cmds->offset + (size_t)l.pass_cmd * sizeof(struct ttpu_command);
		for (int operand = 0; operand < 2 && !r; operand++) {
			size_t in_link = operand ? offsetof(struct ttpu_link, b.buf) :
						   offsetof(struct ttpu_link, a.buf);
			size_t in_pass = operand ? offsetof(struct ttpu_command, u.pass.b.buf) :
						   offsetof(struct ttpu_command, u.pass.a.buf);
			uint32_t was_link, was_pass;

			memcpy(&was_link, link + in_link, 4);
			memcpy(&was_pass, pass + in_pass, 4);
			for (uint32_t x = 0; x <= nbuffers && !r; x++) {
				if (x == was_link)
					continue;
				memcpy(link + in_link, &x, 4);
				memcpy(pass + in_pass, &x, 4);
				fix_checksum(image, len);
				r = judge(image, len, t, why, sizeof(why));
				if (r) {
					snprintf(where, wn, "link %zu and its pass, operand %c = %u: %s",
						 k, operand ? 'b' : 'a', x, r);
					r = where;
				}
				memcpy(link + in_link, &was_link, 4);
				memcpy(pass + in_pass, &was_pass, 4);
				fix_checksum(image, len);
			}
		}
	}
	return r;
}

/* @prog compiled, the file judged as it is and mutated every way. */
static const char *mutate_program(const ttpu_program *prog, size_t byte_step, struct tally *t,
				  char *where, size_t wn)
{
	struct ttpu_error err;
	char *image, why[1024];
	size_t len;
	const char *r;

	if (ttpu_program_write_binary(prog, &image, &len, &err)) {
		snprintf(where, wn, "does not compile: %s", err.message);
		return where;
	}
	r = judge(image, len, t, why, sizeof(why));
	if (r)
		snprintf(where, wn, "as compiled: %s", r);
	if (!r)
		r = mutate_all(image, len, byte_step, t, where, wn);
	if (!r)
		r = mutate_operands(image, len, t, where, wn);
	free(image);
	return r;
}

FIXTURE(mutate) {
	struct tally t;
	char where[2048];
	bool slow;
};

FIXTURE_SETUP(mutate)
{
	memset(&self->t, 0, sizeof(self->t));
	self->slow = slow_build();
}

FIXTURE_TEARDOWN(mutate)
{
	TH_LOG("%lu files: %lu accepted (%lu of them left to the precise check), %lu refused",
	       self->t.files, self->t.accepted, self->t.fast_left, self->t.rejected);
}

static const char *mutate_text(const char *sq, size_t byte_step, struct tally *t, char *where,
			       size_t wn)
{
	struct ttpu_error err;
	ttpu_program *prog;
	const char *r;

	if (rt_load(sq, &prog, &err)) {
		snprintf(where, wn, "does not load: %s", err.message);
		return where;
	}
	r = mutate_program(prog, byte_step, t, where, wn);
	ttpu_program_free(prog);
	return r;
}

/* The precise check's kind: every word, every byte. */
TEST_F_TIMEOUT(mutate, odd_program, 600)
{
	ASSERT_EQ(NULL, mutate_text(PROG_ODD, self->slow ? 3 : 1, &self->t, self->where,
				    sizeof(self->where))) {
		TH_LOG("%s", self->where);
	}
	ASSERT_LT(0, self->t.accepted);
	ASSERT_LT(1000, self->t.rejected);
}

/* The fast verifier's kind: every word, every byte. */
TEST_F_TIMEOUT(mutate, plain_program, 600)
{
	ASSERT_EQ(NULL, mutate_text(PROG_PLAIN, self->slow ? 3 : 1, &self->t, self->where,
				    sizeof(self->where))) {
		TH_LOG("%s", self->where);
	}
	ASSERT_LT(0, self->t.accepted);
	ASSERT_LT(1000, self->t.rejected);
	/* some mutations are programs the fast verifier knows: it said yes to them */
	ASSERT_LT(self->t.fast_left, self->t.accepted);
}

/* Corpus programs and the matmul builder's, every word (bytes sampled). */
TEST_F_TIMEOUT(mutate, corpus, 900)
{
	static const char *const files[] = {
		"tests/cli/data/tiny.json", "tests/runtime/data/two-layer.json",
		"tests/cli/data/noinputs.json", "examples/mlp.json",
	};
	static const struct { size_t m, k, n; unsigned int flags; } shapes[] = {
		{ 5, 9, 6, TTPU_MATMUL_BIAS | TTPU_MATMUL_RELU }, { 8, 12, 4, 0 },
		{ 4, 24, 8, TTPU_MATMUL_BIAS },
	};
	size_t nfiles = self->slow ? 2 : sizeof(files) / sizeof(files[0]);
	struct ttpu_error err;
	ttpu_program *prog;

	for (size_t i = 0; i < nfiles; i++) {
		ASSERT_EQ(0, ttpu_program_load_file(files[i], &prog, &err)) {
			TH_LOG("%s: %s", files[i], err.message);
		}
		EXPECT_EQ(NULL, mutate_program(prog, self->slow ? 8 : 2, &self->t, self->where,
					       sizeof(self->where))) {
			TH_LOG("%s: %s", files[i], self->where);
		}
		ttpu_program_free(prog);
	}
	for (size_t i = 0; i < (self->slow ? 1 : sizeof(shapes) / sizeof(shapes[0])); i++) {
		ASSERT_EQ(0, ttpu_program_matmul(shapes[i].m, shapes[i].k, shapes[i].n,
						 shapes[i].flags, &prog, &err));
		EXPECT_EQ(NULL, mutate_program(prog, self->slow ? 8 : 2, &self->t, self->where,
					       sizeof(self->where))) {
			TH_LOG("matmul %zu: %s", i, self->where);
		}
		ttpu_program_free(prog);
	}
}

TEST_HARNESS_MAIN
