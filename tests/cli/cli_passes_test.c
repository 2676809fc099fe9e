// SPDX-License-Identifier: MIT
/*
 * cli_passes_test.c - ttpu-run --passes full|summary|none (issue 29): the
 * response's per-pass list kept whole (the default, byte for byte the
 * protocol's response), summarised as {"count", "firstId", "lastId"}, or
 * left out; every other key unchanged; in file, protocol and --serve
 * mode; a bad value, or --passes where no response is written, is a
 * UsageError naming the forms.
 */
#include "kselftest_harness.h"
#include "cli_check.h"

/* tiny.json's response to tiny-inputs.json, as the protocol writes it. */
#define TINY_RESPONSE "{\"outputs\": {\"C\": {\"shape\": [4, 4], \"data\": " \
	"[[1, 2, 3, 8], [5, 6, 7, 16], [-1, -2, -3, -8], [127, -128, 0, 2]]}}, " \
	"\"passes\": [{\"id\": 0, \"cycles\": 15}], \"totalCycles\": 15, \"hostOps\": " \
	"{\"alloc\": 1, \"acc\": 1, \"epilogue\": 0, \"host_add\": 0, \"host_relu\": 0}, " \
	"\"engine\": \"software\", \"engineReason\": \"software engine requested\"}\n"

#define TWO_LAYER_INPUTS "{\"X\": [[1, -2, 3, 0, 5, -6], [7, 0, -1, 2, 2, 1]]}"

/* ttpu-run --engine software [--passes @form] PROGRAM --inputs FILE. */
static void run_file(struct __test_metadata *_metadata, const char *program,
		     const char *inputs, const char *form, struct proc_result *r)
{
	const char *with[] = { "--engine", "software", "--passes", form, cli_data_kept(program),
			       "--inputs", inputs, NULL };
	const char *without[] = { "--engine", "software", cli_data_kept(program), "--inputs",
				  inputs, NULL };

	ASSERT_EQ(0, proc_run_ttpu(form ? with : without, NULL, r));
	check_ok(_metadata, r);
}

/* @inputs as a file under @dir; the caller frees the path. */
static char *inputs_file(struct __test_metadata *_metadata, const char *dir,
			 const char *inputs)
{
	char *p = cli_path(dir, "inputs.json");

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, cli_spit(p, inputs, strlen(inputs)));
	return p;
}

/*
 * @got (--passes summary or none) against @full (the default): one JSON
 * object each, with the same keys and values but "passes"; "passes" as
 * @form says, from the full list.
 */
static void check_form(struct __test_metadata *_metadata, const char *full,
		       const char *got, const char *form)
{
	struct json_object *f = proc_parse_json(full, strlen(full));
	struct json_object *g = proc_parse_json(got, strlen(got));
	struct json_object *list, *p;
	size_t n;

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, g) { TH_LOG("not one JSON value: %s", got); }
	ASSERT_TRUE(json_object_object_get_ex(f, "passes", &list));
	ASSERT_TRUE(json_object_is_type(list, json_type_array));
	n = json_object_array_length(list);
	json_object_object_foreach(f, key, val) {
		struct json_object *v;

		if (!strcmp(key, "passes"))
			continue;
		ASSERT_TRUE(json_object_object_get_ex(g, key, &v)) { TH_LOG("%s lost", key); }
		EXPECT_TRUE(json_object_equal(val, v)) { TH_LOG("%s changed", key); }
	}
	/* Keys in the same order: the same text but for "passes". */
	EXPECT_EQ(json_object_object_length(f) - (strcmp(form, "none") ? 0 : 1),
		  json_object_object_length(g));
	if (!strcmp(form, "none")) {
		EXPECT_FALSE(json_object_object_get_ex(g, "passes", NULL)) { TH_LOG("%s", got); }
	} else {
		ASSERT_TRUE(json_object_object_get_ex(g, "passes", &p));
		ASSERT_TRUE(json_object_is_type(p, json_type_object)) { TH_LOG("%s", got); }
		EXPECT_EQ((int64_t)n, test_json_get(p, "count") ?
			  json_object_get_int64(test_json_get(p, "count")) : -1);
		if (n) {
			EXPECT_EQ(json_object_get_int64(test_json_get(
					  json_object_array_get_idx(list, 0), "id")),
				  json_object_get_int64(test_json_get(p, "firstId")));
			EXPECT_EQ(json_object_get_int64(test_json_get(
					  json_object_array_get_idx(list, n - 1), "id")),
				  json_object_get_int64(test_json_get(p, "lastId")));
			EXPECT_EQ(3, json_object_object_length(p));
		} else {
			EXPECT_EQ(1, json_object_object_length(p)) { TH_LOG("%s", got); }
		}
	}
	json_object_put(f);
	json_object_put(g);
}

TEST(default_is_the_protocol_byte_for_byte)
{
	struct proc_result a, b;

	run_file(_metadata, "tiny.json", cli_data_kept("tiny-inputs.json"), NULL, &a);
	EXPECT_STREQ(TINY_RESPONSE, a.out);
	run_file(_metadata, "tiny.json", cli_data_kept("tiny-inputs.json"), "full", &b);
	EXPECT_STREQ(a.out, b.out);
	proc_result_free(&a);
	proc_result_free(&b);
}

TEST(protocol_mode_full_is_the_default)
{
	const char *def[] = { "--engine", "software", NULL };
	const char *full[] = { "--engine", "software", "--passes=full", NULL };
	char *req = cli_request("tiny.json", "tiny-inputs.json");
	struct proc_opts o = { .stdin_text = req };
	struct proc_result a, b;

	ASSERT_NE(NULL, req);
	ASSERT_EQ(0, proc_run_ttpu(def, &o, &a));
	ASSERT_EQ(0, proc_run_ttpu(full, &o, &b));
	EXPECT_EQ(0, a.status);
	EXPECT_STREQ(TINY_RESPONSE, a.out);
	EXPECT_STREQ(a.out, b.out);
	proc_result_free(&a);
	proc_result_free(&b);
	free(req);
}

TEST(summary_and_none_in_file_mode)
{
	static const char *const programs[] = { "tiny.json", "two-layer.json", "noinputs.json" };
	char *dir = cli_tmpdir();
	char *two = inputs_file(_metadata, dir, TWO_LAYER_INPUTS);
	const char *inputs[] = { cli_data_kept("tiny-inputs.json"), two,
				 cli_data_kept("tiny-inputs.json") };

	for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		const char *forms[] = { "summary", "none" };
		struct proc_result full, r;

		if (!strcmp(programs[i], "noinputs.json")) {
			const char *args[] = { "--engine", "software", cli_data_kept(programs[i]),
					       NULL };
			const char *s[] = { "--engine", "software", "--passes", "summary",
					    cli_data_kept(programs[i]), NULL };

			ASSERT_EQ(0, proc_run_ttpu(args, NULL, &full));
			ASSERT_EQ(0, proc_run_ttpu(s, NULL, &r));
			EXPECT_EQ(0, r.status);
			/* No passes: a count of 0 and no ids. */
			check_form(_metadata, full.out, r.out, "summary");
			proc_result_free(&full);
			proc_result_free(&r);
			continue;
		}
		run_file(_metadata, programs[i], inputs[i], NULL, &full);
		for (size_t f = 0; f < 2; f++) {
			run_file(_metadata, programs[i], inputs[i], forms[f], &r);
			check_form(_metadata, full.out, r.out, forms[f]);
			EXPECT_EQ('\n', r.out[r.out_len - 1]);
			proc_result_free(&r);
		}
		proc_result_free(&full);
	}
	free(two);
	cli_rmdir(dir);
}

/* One line each, in order; an error line is the same whatever the form. */
TEST(serve_each_form)
{
	const char *forms[] = { "full", "summary", "none" };
	const char *in = "{\"A\": [[1,2,3,4],[5,6,7,8],[-1,-2,-3,-4],[127,-128,0,1]]}\n"
			 "not json\n"
			 "{\"A\": [[1,2,3,4],[5,6,7,8],[-1,-2,-3,-4],[127,-128,0,1]]}\n";
	const char *def[] = { "--serve", "--engine", "software", cli_data_kept("tiny.json"),
			      NULL };
	struct proc_opts o = { .stdin_text = in };
	struct proc_result d;

	ASSERT_EQ(0, proc_run_ttpu(def, &o, &d));
	ASSERT_EQ(0, d.status);
	for (size_t f = 0; f < 3; f++) {
		const char *args[] = { "--serve", "--passes", forms[f], "--engine", "software",
				       cli_data_kept("tiny.json"), NULL };
		struct proc_result r;
		char *dl = d.out, *rl;

		ASSERT_EQ(0, proc_run_ttpu(args, &o, &r));
		ASSERT_EQ(0, r.status) { TH_LOG("%s", r.err); }
		if (!f) {
			EXPECT_STREQ(d.out, r.out);
		}
		rl = r.out;
		for (int i = 0; i < 3; i++) {
			char *dn = strchr(dl, '\n'), *rn = strchr(rl, '\n');

			ASSERT_NE(NULL, dn);
			ASSERT_NE(NULL, rn) { TH_LOG("line %d missing: %s", i, r.out); }
			*dn = *rn = '\0';
			if (i == 1) {
				EXPECT_STREQ(dl, rl);
			} else if (f) {
				check_form(_metadata, dl, rl, forms[f]);
			}
			*dn = *rn = '\n';
			dl = dn + 1;
			rl = rn + 1;
		}
		EXPECT_EQ('\0', *rl);
		proc_result_free(&r);
	}
	proc_result_free(&d);
}

TEST(bad_values_are_usage_errors)
{
	static const char *const bad[] = { "bogus", "", "FULL", "summary ", "nonee", "0" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = { "--engine", "software", "--passes", bad[i],
				       cli_data_kept("tiny.json"), "--inputs",
				       cli_data_kept("tiny-inputs.json"), NULL };
		struct proc_result r;
		char *want;

		ASSERT_EQ(0, proc_run_ttpu(args, NULL, &r));
		check_error(_metadata, &r, "UsageError", 2);
		ASSERT_LT(0, asprintf(&want, "UsageError: unknown passes form '%s' (expected full, summary or none)",
				      bad[i]));
		EXPECT_NE(NULL, strstr(r.err, want)) { TH_LOG("%s", r.err); }
		free(want);
		proc_result_free(&r);
	}
}

TEST(needs_a_value_and_a_response)
{
	const char *none[] = { "--passes", NULL };
	const char *check[] = { "--check", "--passes", "none", cli_data_kept("tiny.json"), NULL };
	const char *compile[] = { "--compile", "--passes", "none", cli_data_kept("tiny.json"),
				  "-o", "/dev/null", NULL };
	const char *info[] = { "--info", "--passes", "none", NULL };
	const char *const *cases[] = { none, check, compile, info };
	const char *says[] = { "'--passes' needs an argument", "--passes shapes a run's response",
			       "--passes shapes a run's response", "--info takes only" };

	for (size_t i = 0; i < 4; i++) {
		struct proc_result r;

		ASSERT_EQ(0, proc_run_ttpu(cases[i], NULL, &r));
		check_error(_metadata, &r, "UsageError", 2);
		EXPECT_NE(NULL, strstr(r.err, says[i])) { TH_LOG("case %zu: %s", i, r.err); }
		proc_result_free(&r);
	}
}

TEST(help_names_it)
{
	const char *args[] = { "--help", NULL };
	struct proc_result r;

	ASSERT_EQ(0, proc_run_ttpu(args, NULL, &r));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "--passes FORM"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
