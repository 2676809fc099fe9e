// SPDX-License-Identifier: MIT
/*
 * test_binary.c - compiled programs (.ttpb, program_binary.h): a program
 * written by ttpu_program_write_binary() loads back through
 * ttpu_program_load_buffer() and runs to the byte-identical response; a
 * file that is truncated, has any byte flipped, another format version,
 * the other byte order, other record sizes, or indices that point outside
 * what they index (with a valid checksum, as a hostile file would have) is
 * a SchemaError saying what is wrong, and never a crash or a leak.
 *
 * The program has host ops, a deferred pass (its acc in a later stage), a
 * bias and a relu, so that every section holds something.
 *
 * The loader checks commands and plan with a fast verifier first and the
 * precise check when it cannot tell (program_binary_check.h). The
 * verify_* test loads every flipped, truncated and swapped file made here
 * three ways (fast verifier alone, precise check alone, both; and the
 * fast one without its AVX2 walk, which must end as with it): the fast
 * one accepts nothing the precise one refuses, and a default load ends
 * as the precise one, message and all. Every word of the command and plan
 * records changed, with the checksum made right: test_binary_mutate.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "plan.h"
#include "program_binary.h"
#include "rt.h"
#include "../lib/binary_verdicts.h"

#define PROG RT_PROG(RT_BUF("A", "i8", "[4,8]", "input") ","			\
	RT_CONST("W", "i8", "[8,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1],"	\
		 "[2,0,0,0],[0,2,0,0],[0,0,2,0],[0,0,0,2]]") ","			\
	RT_CONST("b", "i32", "[4]", "[1,-2,3,-4]") ","				\
	RT_BUF("C", "i32", "[4,4]", "temp") "," RT_BUF("D", "i32", "[4,4]", "temp"),	\
	"'A'", "'C','D'",							\
	"{'op':'alloc','buf':'C'}," RT_PASS(0, "A", 0, 0, "W", 0, 0) ","		\
	RT_PASS(1, "A", 0, 4, "W", 4, 0) "," RT_ACC(0, "C", 0, 0) ","		\
	"{'op':'host_relu','dst':'D','src':'C'},"					\
	"{'op':'acc','pass':1,'dst':" RT_WIN("C", 0, 0) ",'bias':'b','relu':true}")
#define INPUTS "{'A':[[1,-2,3,-4,5,-6,7,-8],[9,10,11,12,13,14,15,16],"	\
	"[-1,-1,-1,-1,-1,-1,-1,-1],[127,-128,0,1,2,3,4,5]]}"

FIXTURE(binary) {
	ttpu_program *prog;
	char *image;
	size_t len;
	char *response;		/* of the JSON program */
	struct ttpu_error err;
};

static char *respond(ttpu_program *prog)
{
	struct ttpu_error err;
	ttpu_result *res;
	char *text = NULL;
	size_t n;
	FILE *f;

	if (rt_run(prog, INPUTS, &res, &err))
		return NULL;
	f = open_memstream(&text, &n);
	if (f) {
		ttpu_result_write_json(res, f, 0, &err);
		fclose(f);
	}
	ttpu_result_free(res);
	return text;
}

FIXTURE_SETUP(binary)
{
	ASSERT_EQ(0, rt_load(PROG, &self->prog, &self->err)) { TH_LOG("%s", self->err.message); }
	ASSERT_EQ(0, ttpu_program_write_binary(self->prog, &self->image, &self->len, &self->err));
	self->response = respond(self->prog);
	ASSERT_NE(NULL, self->response);
}

FIXTURE_TEARDOWN(binary)
{
	ttpu_program_free(self->prog);
	free(self->image);
	free(self->response);
}

/* Load @len bytes at @image; expect a SchemaError whose message has @what. */
static int load_fails(const char *image, size_t len, const char *what)
{
	struct ttpu_error err;
	ttpu_program *prog = NULL;
	int rc = ttpu_program_load_buffer(image, len, &prog, &err);

	if (rc != -TTPU_SCHEMA_ERROR || prog || (what && !strstr(err.message, what))) {
		fprintf(stderr, "# %zu bytes: rc %d, %s, \"%s\" (wanted \"%s\")\n", len, rc,
			prog ? "a program" : "no program", rc ? err.message : "", what ? what : "");
		ttpu_program_free(prog);
		return 0;
	}
	return 1;
}

static void *fix_checksum(char *image, size_t len)
{
	struct ttpb_header *h = (struct ttpb_header *)image;

	h->checksum = ttpu_binary_checksum(image, len);
	return image;
}

TEST_F(binary, same_response)
{
	ttpu_program *back;
	char *text;

	ASSERT_EQ(0, ttpu_program_load_buffer(self->image, self->len, &back, &self->err)) {
		TH_LOG("%s", self->err.message);
	}
	EXPECT_STREQ(ttpu_program_name(self->prog), ttpu_program_name(back));
	text = respond(back);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ(self->response, text);
	free(text);
	ttpu_program_free(back);
}

/* Compiling the loaded compiled program gives the same bytes. */
TEST_F(binary, stable)
{
	ttpu_program *back;
	char *again;
	size_t len;

	ASSERT_EQ(0, ttpu_program_load_buffer(self->image, self->len, &back, &self->err));
	ASSERT_EQ(0, ttpu_program_write_binary(back, &again, &len, &self->err));
	ASSERT_EQ(self->len, len);
	EXPECT_EQ(0, memcmp(self->image, again, len));
	free(again);
	ttpu_program_free(back);
}

TEST_F(binary, truncated)
{
	for (size_t n = TTPB_MAGIC_LEN; n < self->len; n++)
		ASSERT_TRUE(load_fails(self->image, n,
				       n < sizeof(struct ttpb_header) ? "header" : "truncated"));
	ASSERT_TRUE(load_fails(self->image, 3, NULL));	/* not even the magic: JSON */
}

TEST_F(binary, trailing_bytes)
{
	char *longer = calloc(1, self->len + 8);

	ASSERT_NE(NULL, longer);
	memcpy(longer, self->image, self->len);
	EXPECT_TRUE(load_fails(longer, self->len + 8, "trailing bytes"));
	free(longer);
}

/* Every single flipped byte is caught: by a header check or the checksum. */
TEST_F(binary, any_byte_flipped)
{
	for (size_t i = 0; i < self->len; i++) {
		self->image[i] ^= 0x40;
		ASSERT_TRUE(load_fails(self->image, self->len, NULL)) { TH_LOG("byte %zu", i); }
		self->image[i] ^= 0x40;
	}
}

TEST_F(binary, foreign_version)
{
	((struct ttpb_header *)self->image)->version = TTPB_VERSION + 1;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "format version 3, this library reads version 2"));
}

/* Version 1 (FNV-1a checksum) is refused for its version, whatever its checksum says. */
TEST_F(binary, older_version)
{
	((struct ttpb_header *)self->image)->version = 1;
	EXPECT_TRUE(load_fails(self->image, self->len,
			       "format version 1, this library reads version 2"));
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "format version 1, this library reads version 2"));
}

/*
 * The checksum sees a word changed anywhere (every lane and the zero-padded
 * tail) and two different words swapped, in the same lane or across lanes.
 */
TEST_F(binary, checksum_sees_changes_and_swaps)
{
	uint64_t base = ttpu_binary_checksum(self->image, self->len), a, b;
	size_t words = self->len / 8, swaps = 0;

	for (size_t i = 0; i < self->len; i++) {
		/* The checksum field itself is taken as 0. */
		if (i - offsetof(struct ttpb_header, checksum) < 8)
			continue;
		self->image[i] ^= 1;
		ASSERT_NE(base, ttpu_binary_checksum(self->image, self->len)) TH_LOG("byte %zu", i);
		self->image[i] ^= 1;
	}
	/* Swaps at distances of one word, one lane's step (8 words) and more. */
	for (size_t d = 1; d <= 24; d++) {
		for (size_t i = sizeof(struct ttpb_header) / 8; i + d < words; i += 5) {
			memcpy(&a, self->image + 8 * i, 8);
			memcpy(&b, self->image + 8 * (i + d), 8);
			if (a == b)
				continue;
			memcpy(self->image + 8 * i, &b, 8);
			memcpy(self->image + 8 * (i + d), &a, 8);
			EXPECT_NE(base, ttpu_binary_checksum(self->image, self->len)) {
				TH_LOG("words %zu and %zu swapped", i, i + d);
			}
			memcpy(self->image + 8 * i, &a, 8);
			memcpy(self->image + 8 * (i + d), &b, 8);
			swaps++;
		}
	}
	ASSERT_LT(100, swaps);
}

TEST_F(binary, foreign_endian)
{
	((struct ttpb_header *)self->image)->byte_order = 0x04030201;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "other byte order"));
}

TEST_F(binary, foreign_record_size)
{
	((struct ttpb_header *)self->image)->sections[TTPB_COMMANDS].record_size = 40;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "section \"commands\": records of 40 bytes"));
}

static void *section(char *image, int s)
{
	return image + ((struct ttpb_header *)image)->sections[s].offset;
}

/* Checksum-valid files whose indices point outside what they index. */
TEST_F(binary, hostile_command)
{
	struct ttpu_command *c = section(self->image, TTPB_COMMANDS);

	c[1].u.pass.a.buf = 99;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len, "commands[1]"));
}

TEST_F(binary, hostile_pass_on_i32)
{
	struct ttpu_command *c = section(self->image, TTPB_COMMANDS);

	c[1].u.pass.b.buf = 3;	/* C, an i32 buffer */
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len, "commands[1]"));
}

TEST_F(binary, hostile_step_link)
{
	struct ttpu_step *s = section(self->image, TTPB_STEPS);

	s[0].link = 1000;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "plan: steps[0].link is 1000, the commands make 0"));
}

TEST_F(binary, hostile_stage_jobs)
{
	struct ttpu_stage *st = section(self->image, TTPB_STAGES);
	size_t n = ((struct ttpb_header *)self->image)->sections[TTPB_STAGES].count;

	for (size_t i = 0; i < n; i++)
		st[i].njobs += 1000;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "plan: stages[0].njobs is 1000, the commands make 0"));
}

/*
 * A run allocates per stage job by the stated largest stage: a stated size
 * other than what the stages hold is refused at load (the fuzzer found one
 * as a 2 TB allocation).
 */
TEST_F(binary, hostile_max_stage_jobs)
{
	((struct ttpb_header *)self->image)->max_stage_jobs += 1;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "largest stage"));
	/* and above what a 32-bit size_t holds: compared before any narrowing */
	((struct ttpb_header *)self->image)->max_stage_jobs = ((uint64_t)1 << 40) + 1;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "largest stage"));
}

/* Names are echoed in responses: invalid UTF-8 in them is refused. */
TEST_F(binary, hostile_name_utf8)
{
	char *str = section(self->image, TTPB_STRINGS);

	str[((struct ttpb_header *)self->image)->name] = (char)0xff;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "not valid UTF-8"));
}

TEST_F(binary, hostile_buffer_data)
{
	struct ttpb_buffer *b = section(self->image, TTPB_BUFFERS);

	b[1].data = 1u << 20;	/* W's data, far past the data section */
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len, "\"W\": data"));
}

TEST_F(binary, hostile_tmp_index)
{
	uint32_t *t = section(self->image, TTPB_TMP_INDEX);

	t[1] = 77;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "plan: tmp index[1] is 77, the commands make 0"));
}

/*
 * Issue 19's files: in-range words that make the plan, the lists or the
 * layout other than the commands say, under a valid checksum. Each is
 * refused, naming what disagrees.
 */
TEST_F(binary, plan_not_of_the_commands)
{
	static const struct { int section; size_t record, offset; uint32_t value; const char *what; } cases[] = {
		{ TTPB_LINKS, 0, offsetof(struct ttpu_link, b.buf), 0,
		  "plan: links[0].b.buf is 0, the commands make 1" },
		{ TTPB_CHAINS, 1, offsetof(struct ttpu_chain, relu), 0,
		  "plan: chains[1].relu is 0, the commands make 1" },
		{ TTPB_STAGES, 2, offsetof(struct ttpu_stage, kind), TTPU_STAGE_MATMUL,
		  "plan: stages[2].kind is 1, the commands make 0" },
		{ TTPB_STEPS, 0, offsetof(struct ttpu_step, slot), 1,
		  "plan: steps[0].slot is 1, the commands make 0" },
		{ TTPB_PASS_IDS, 1, 0, 0,
		  "commands[2].id: pass id 0 is not unique (also commands[1]) (op pass)" },
		{ TTPB_OUTPUTS, 1, 0, 3, "outputs[1]: \"C\" is listed twice" },
		{ TTPB_MEASURED, 0, offsetof(struct ttpu_estimate, useful_macs), 7,
		  "measured.useful_macs is 7, the commands measure 128" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *copy = malloc(self->len);
		char *rec;

		ASSERT_NE(NULL, copy);
		memcpy(copy, self->image, self->len);
		rec = section(copy, cases[i].section) +
		      cases[i].record * ttpu_binary_record_sizes[cases[i].section];
		if (cases[i].section == TTPB_CHAINS || cases[i].section == TTPB_STAGES)
			rec[cases[i].offset] = (char)cases[i].value;
		else
			memcpy(rec + cases[i].offset, &cases[i].value, 4);
		EXPECT_TRUE(load_fails(fix_checksum(copy, self->len), self->len, cases[i].what)) {
			TH_LOG("case %zu", i);
		}
		free(copy);
	}
}

/* Sections where the writer does not put them: overlapping, or a count changed. */
TEST_F(binary, sections_overlap_or_miscount)
{
	struct ttpb_header *h = (struct ttpb_header *)self->image;
	uint64_t was = h->sections[TTPB_LINKS].offset;

	h->sections[TTPB_LINKS].offset = h->sections[TTPB_JOBS].offset;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "section \"links\" at offset"));
	h->sections[TTPB_LINKS].offset = was;
	/* its records run into the next section: where its padding would be */
	h->sections[TTPB_OUTPUTS].count++;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "section \"outputs\": the padding after it is not 0"));
	h->sections[TTPB_OUTPUTS].count++;
	EXPECT_TRUE(load_fails(fix_checksum(self->image, self->len), self->len,
			       "section \"commands\" at offset"));
}

/* Files loaded three ways, and how the precise checker judged them. */
struct verdicts {
	unsigned long accepted, rejected;
	unsigned long fast_refused;	/* rejections the fast verifier left to the precise check */
};

/* @image loaded every way binary_verdicts.h has, counted in @v. */
static int same_verdicts(const char *image, size_t len, struct verdicts *v)
{
	struct binary_verdicts bv;

	if (!binary_verdicts_agree(image, len, &bv)) {
		binary_verdicts_print(stderr, "# ", &bv);
		return 0;
	}
	if (!bv.rc[VERDICT_PRECISE]) {
		v->accepted++;
	} else {
		v->rejected++;
		v->fast_refused += !!strstr(bv.err[VERDICT_FAST].message, "the fast check cannot tell");
	}
	return 1;
}

/*
 * Every byte flipped, with the checksum as it was and made valid again;
 * every truncation; words swapped; foreign headers.
 */
TEST_F_TIMEOUT(binary, verify_flips_truncations_swaps_headers, 300)
{
	struct ttpb_header *h = (struct ttpb_header *)self->image;
	struct verdicts v = { 0 };
	uint64_t a, b;

	for (size_t i = 0; i < self->len; i++) {
		self->image[i] ^= 0x40;
		ASSERT_TRUE(same_verdicts(self->image, self->len, &v)) { TH_LOG("byte %zu", i); }
		ASSERT_TRUE(same_verdicts(fix_checksum(self->image, self->len), self->len, &v)) {
			TH_LOG("byte %zu, checksum fixed", i);
		}
		self->image[i] ^= 0x40;
		fix_checksum(self->image, self->len);
	}
	for (size_t n = 0; n < self->len; n++) {
		ASSERT_TRUE(same_verdicts(self->image, n, &v)) {
			TH_LOG("%zu bytes", n);
		}
	}
	for (size_t d = 1; d <= 8; d++) {
		for (size_t i = sizeof(*h) / 8; i + d < self->len / 8; i++) {
			memcpy(&a, self->image + 8 * i, 8);
			memcpy(&b, self->image + 8 * (i + d), 8);
			memcpy(self->image + 8 * i, &b, 8);
			memcpy(self->image + 8 * (i + d), &a, 8);
			ASSERT_TRUE(same_verdicts(fix_checksum(self->image, self->len), self->len, &v)) {
				TH_LOG("words %zu and %zu swapped", i, i + d);
			}
			memcpy(self->image + 8 * i, &a, 8);
			memcpy(self->image + 8 * (i + d), &b, 8);
		}
	}
	fix_checksum(self->image, self->len);
	h->version = TTPB_VERSION + 1;
	ASSERT_TRUE(same_verdicts(fix_checksum(self->image, self->len), self->len, &v));
	h->version = TTPB_VERSION;
	h->byte_order = 0x04030201;
	ASSERT_TRUE(same_verdicts(fix_checksum(self->image, self->len), self->len, &v));
	h->byte_order = TTPB_BYTE_ORDER;
	h->sections[TTPB_STEPS].record_size = 16;
	ASSERT_TRUE(same_verdicts(fix_checksum(self->image, self->len), self->len, &v));
	ASSERT_LT(0, v.fast_refused);
	TH_LOG("%lu files accepted, %lu rejected (%lu refused by the fast verifier)",
	       v.accepted, v.rejected, v.fast_refused);
}

TEST_HARNESS_MAIN
