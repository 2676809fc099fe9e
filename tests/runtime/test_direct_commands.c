// SPDX-License-Identifier: MIT
/*
 * test_direct_commands.c - the two readers of a command cannot disagree
 *
 * A command is read by the direct reader (program_read_command_direct.c)
 * when it is plain, else by json-c. Every program here is loaded twice,
 * with the direct readers on and off, and both loads must end the same
 * (direct_both_ways.h): from memory, from a file (the fd reader's window)
 * and inside a request, run on its inputs.
 *
 * The programs: the test corpus (tests/runtime/data, tests/cli/data,
 * examples); one command replaced by each variant of a table
 * (direct_variants.h), where the direct reader's own verdict is checked
 * too: it must take the plain ones and leave every other to json-c; every
 * prefix of a program (texts cut anywhere); 2000 random byte mutations of
 * its commands; a command cut at the fd reader's first window boundary at
 * each of its bytes; and a program of many windows.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "program_read_command_direct.h"
#include "rt.h"
#include "direct_both_ways.h"
#include "direct_variants.h"
#include "../lib/test_timeout.h"

/* The text of @path, NUL-terminated (ttpu_read_file() does not); malloc'd. */
static char *read_all(const char *path, size_t *len)
{
	struct ttpu_error err;
	char *text, *t;

	if (ttpu_read_file(path, &text, len, &err))
		return NULL;
	t = realloc(text, *len + 1);
	if (!t)
		abort();
	t[*len] = '\0';
	return t;
}

TEST_TIMEOUT(corpus, TIMEOUT_MUTATIONS)
{
	static const char *const dirs[] = {
		"tests/runtime/data/*.json", "tests/cli/data/*.json", "examples/*.json",
	};
	char why[1024];
	glob_t g;
	size_t programs = 0;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		ASSERT_EQ(0, glob(dirs[d], 0, NULL, &g));
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *p = g.gl_pathv[i];
			char inpath[512], *text, *inputs;
			size_t len, ilen, pl = strlen(p);
			int rc;

			if (strstr(p, "-inputs.json") || strstr(p, "-expected.json"))
				continue;
			snprintf(inpath, sizeof(inpath), "%.*s-inputs.json", (int)(pl - 5), p);
			text = read_all(p, &len);
			ASSERT_NE(NULL, text);
			inputs = read_all(inpath, &ilen);
			EXPECT_TRUE(agree_everywhere(text, len, inputs ? inputs : "{}", &rc,
						     why, sizeof(why))) {
				TH_LOG("%s: %s", p, why);
			}
			free(text);
			free(inputs);
			programs++;
		}
		globfree(&g);
	}
	ASSERT_LT(5, programs);
	TH_LOG("%zu programs, %lu texts loaded both ways", programs, compared);
}

/* Whether the direct reader takes @text (one command) whole. */
static bool direct_takes(const char *text)
{
	struct ttpu_direct_command d;
	struct ttpu_jstream js;
	struct ttpu_error err;
	bool took;

	if (ttpu_js_init(&js, text, strlen(text), TTPU_SCHEMA_ERROR, &err))
		abort();
	took = ttpu_command_scan_direct(&js, &d);
	/* Taken, the cursor is after it; left, the stream is as it was. */
	if (took ? js.pos != strlen(text) || js.elem_start != 0 : js.pos != 0)
		abort();
	ttpu_js_fini(&js);
	return took;
}

TEST_TIMEOUT(each_variant, TIMEOUT_MUTATIONS)
{
	char *inputs = rt_dq(INPUTS_A), why[1024];
	size_t i, plain = 0, loaded = 0;
	int rc;

	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		const struct variant *v = &variants[i];
		char *cmd = rt_dq(v->cmd), *text = variant_program(v);

		EXPECT_EQ(v->plain, direct_takes(cmd)) {
			TH_LOG("variant %zu: %s", i, cmd);
		}
		EXPECT_TRUE(agree_everywhere(text, strlen(text), inputs, &rc, why,
					     sizeof(why))) {
			TH_LOG("variant %zu %s: %s", i, cmd, why);
		}
		plain += v->plain;
		loaded += !rc;
		free(cmd);
		free(text);
	}
	TH_LOG("%zu variants (%zu plain, %zu load), %lu texts loaded both ways", i, plain,
	       loaded, compared);
	free(inputs);
}

/* The plain program of the variants, cut after every byte. */
TEST_TIMEOUT(every_prefix, TIMEOUT_MUTATIONS)
{
	char *text = variant_program(&variants[1]), *inputs = rt_dq(INPUTS_A);
	size_t len = strlen(text), cut;
	char why[1024];
	int rc;

	ASSERT_TRUE(agree(text, len, NULL, inputs, FROM_MEMORY, &rc, why, sizeof(why)));
	ASSERT_EQ(0, rc) { TH_LOG("%s", text); }
	for (cut = 0; cut < len; cut++) {
		ASSERT_TRUE(agree(text, cut, NULL, inputs, FROM_MEMORY, NULL, why, sizeof(why))) {
			TH_LOG("cut at %zu: %s", cut, why);
		}
	}
	TH_LOG("%zu prefixes, %lu texts loaded both ways", cut, compared);
	free(text);
	free(inputs);
}

/* Random bytes of the commands replaced, inserted or deleted. */
TEST_TIMEOUT(mutations, TIMEOUT_MUTATIONS)
{
	char *text = variant_program(&variants[1]), *inputs = rt_dq(INPUTS_A), *m;
	size_t len = strlen(text), from = strstr(text, "\"commands\"") - text, n;
	unsigned int state = 1;
	int rounds = 2000, ok_loads = 0, rc;
	char why[1024];

	m = malloc(len + 8);
	ASSERT_NE(NULL, m);
	for (int i = 0; i < rounds; i++) {
		n = mutate(m, text, len, from, &state);
		ASSERT_TRUE(agree(m, n, NULL, inputs, FROM_MEMORY, &rc, why, sizeof(why))) {
			TH_LOG("mutation %d: %s\n%.*s", i, why, (int)n, m);
		}
		ok_loads += !rc;
	}
	TH_LOG("%d mutations (%d still load), %lu texts loaded both ways", rounds, ok_loads, compared);
	free(m);
	free(text);
	free(inputs);
}

/*
 * The program of variant @v with its command starting @before bytes
 * before the fd reader's first window ends (white space ahead of it).
 */
static char *straddling(const struct variant *v, size_t before, size_t *len)
{
	char *prog = variant_program(v), *text;
	const char *cmd = strstr(prog, "}},\n") + 4;	/* after pass 0 */
	size_t head = (size_t)(cmd - prog), pad = FD_WINDOW - before - head;

	text = malloc(strlen(prog) + pad + 1);
	if (!text)
		abort();
	memcpy(text, prog, head);
	/* Lines of spaces: the lines and columns after it count them. */
	for (size_t i = 0; i < pad; i++)
		text[head + i] = i % 100 == 99 ? '\n' : ' ';
	strcpy(text + head + pad, cmd);
	*len = strlen(prog) + pad;
	free(prog);
	return text;
}

/*
 * A command cut by the end of the fd reader's window at each of its bytes:
 * ~100 cuts, each reading two windows both ways, take 40 s and more on the
 * emulated Zynq under load, past the harness's default 30 s.
 */
TEST_TIMEOUT(window_boundary, TIMEOUT_MUTATIONS)
{
	char *inputs = rt_dq(INPUTS_A), why[1024], path[32];
	size_t cuts = 0;

	/* Every eighth variant: each cut reads a window of white space twice. */
	for (size_t i = 1; i < sizeof(variants) / sizeof(variants[0]); i += 8) {
		const struct variant *v = &variants[i];
		char *cmd = rt_dq(v->cmd);
		size_t cmd_len = strlen(cmd);

		for (size_t before = 1; before <= cmd_len + 1; before++) {
			size_t len;
			char *text = straddling(v, before, &len);

			write_temp(text, len, path);
			EXPECT_TRUE(agree(text, len, path, inputs, FROM_FILE, NULL, why, sizeof(why))) {
				TH_LOG("%s cut %zu bytes in: %s", cmd, before, why);
			}
			unlink(path);
			free(text);
			cuts++;
		}
		free(cmd);
	}
	TH_LOG("%zu cuts, %lu texts loaded both ways", cuts, compared);
	free(inputs);
}

/*
 * A program of several fd windows: 4000 passes and their accs, plain in
 * two layouts or not plain (an escaped name, an escaped key) so that the
 * two readers alternate, and a reused pass id at the very end or none.
 */
static char *many_windows(bool broken_end, size_t *len)
{
	size_t cap = 2u << 20, n = 0;
	char *t = malloc(cap), *head = rt_dq(PROG_HEAD);

	if (!t)
		abort();
	n += (size_t)snprintf(t + n, cap - n, "%s", head);
	n += (size_t)snprintf(t + n, cap - n,
			      "{\"op\":\"acc\",\"pass\":0,\"dst\":{\"buf\":\"D\",\"r\":0,\"c\":0}},\n");
	for (int i = 2; i < 4000; i++) {
		if (i % 3 == 0)
			n += (size_t)snprintf(t + n, cap - n,
					      "{\"op\":\"pass\",\"id\":%d,\"a\":{\"buf\":\"A\",\"r\":0,\"c\":4},\"b\":{\"buf\":\"W\",\"r\":4,\"c\":0}},\n",
					      i);
		else if (i % 3 == 1)
			n += (size_t)snprintf(t + n, cap - n,
					      "{ \"id\" : %d , \"op\" : \"pass\",\n  \"b\": {\"c\":0,\"r\":4,\"buf\":\"W\"},\n  \"a\": {\"buf\":\"A\",\"r\":0,\"c\":4}\n},\n",
					      i);
		else
			n += (size_t)snprintf(t + n, cap - n,
					      "{\"op\":\"pass\",\"id\":%d,\"a\":{\"buf\":\"\\u0041\",\"r\":0,\"c\":4},\"b\":{\"buf\":\"W\",\"r\":4,\"c\":0}},\n",
					      i);
		if (i % 5)
			n += (size_t)snprintf(t + n, cap - n,
					      "{\"op\":\"acc\",\"pass\":%d,\"dst\":{\"buf\":\"D\",\"r\":0,\"c\":4}},\n",
					      i);
		else
			n += (size_t)snprintf(t + n, cap - n,
					      "{\"op\":\"acc\",\"p\\u0061ss\":%d,\"dst\":{\"buf\":\"D\",\"r\":0,\"c\":4},\"relu\":true}\n,",
					      i);
	}
	if (broken_end)
		n += (size_t)snprintf(t + n, cap - n,
				      "{\"op\":\"pass\",\"id\":77,\"a\":{\"buf\":\"A\",\"r\":0,\"c\":4},\"b\":{\"buf\":\"W\",\"r\":4,\"c\":0}},\n");
	/* PROG_TAIL without its leading ",\n". */
	n += (size_t)snprintf(t + n, cap - n,
			      "{\"op\":\"pass\",\"id\":1,\"a\":{\"buf\":\"A\",\"r\":0,\"c\":4},\"b\":{\"buf\":\"W\",\"r\":4,\"c\":0}},\n"
			      "{\"op\":\"acc\",\"pass\":1,\"dst\":{\"buf\":\"C\",\"r\":0,\"c\":0}}]}\n");
	if (n >= cap)
		abort();
	free(head);
	*len = n;
	return t;
}

TEST_TIMEOUT(across_many_windows, TIMEOUT_MUTATIONS)
{
	char *inputs = rt_dq(INPUTS_A), why[1024], path[32];

	for (int broken = 0; broken < 2; broken++) {
		size_t len;
		char *text = many_windows(broken, &len);
		int rc;

		ASSERT_LT(2 * FD_WINDOW, len);
		write_temp(text, len, path);
		for (int w = FROM_MEMORY; w <= FROM_FILE; w++) {
			EXPECT_TRUE(agree(text, len, path, inputs, (enum way)w, &rc, why, sizeof(why))) {
				TH_LOG("%s: %s", way_names[w], why);
			}
			EXPECT_EQ(broken ? -TTPU_SCHEMA_ERROR : 0, rc);
		}
		unlink(path);
		free(text);
	}
	free(inputs);
}

TEST_HARNESS_MAIN
