/* SPDX-License-Identifier: MIT */
/*
 * cli_check.h - what the ttpu-run suites check a run against, and the
 * files they run it on. Running it is tests/lib/proc_run.h's job.
 *
 * Include after kselftest_harness.h: the check helpers use its ASSERT_*
 * macros, which abort the test child from inside a helper too.
 *
 * Environment (set by mk/12-cli.mk):
 *   TTPU_RUN       the binary under test (tests/lib/proc_run.h)
 *   TTPU_CLI_DATA  the test programs (default tests/cli/data)
 */
#ifndef TTPU_CLI_CHECK_H
#define TTPU_CLI_CHECK_H

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "../lib/proc_run.h"
#include "../lib/test_util.h"

/* The path of test program @name; valid until the next call. */
static inline const char *cli_data(const char *name)
{
	static char path[4096];
	const char *dir = getenv("TTPU_CLI_DATA");

	snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : "tests/cli/data",
		 name);
	return path;
}

/* cli_data() into one of 8 buffers in turn: for argv holding several paths. */
static inline const char *cli_data_kept(const char *name)
{
	static char paths[8][4096];
	static unsigned int next;
	char *p = paths[next++ % 8];

	snprintf(p, sizeof(paths[0]), "%s", cli_data(name));
	return p;
}

static inline int cli_spit(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -1;
	if (fwrite(text, 1, len, f) != len)
		ret = -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* A copy of @text with its first @from replaced by @to; NULL if absent. */
static inline char *cli_replace(const char *text, const char *from,
				const char *to)
{
	const char *at = strstr(text, from);
	size_t head, len;
	char *s;

	if (!at)
		return NULL;
	head = (size_t)(at - text);
	len = strlen(text) - strlen(from) + strlen(to);
	s = malloc(len + 1);
	if (!s)
		return NULL;
	memcpy(s, text, head);
	strcpy(s + head, to);
	strcat(s, at + strlen(from));
	return s;
}

/* {"program": PROGRAM-FILE, "inputs": INPUTS-FILE or {}} as text. */
static inline char *cli_request(const char *program, const char *inputs)
{
	char *p = test_slurp(cli_data(program), NULL);
	char *in = inputs ? test_slurp(cli_data(inputs), NULL) : strdup("{}");
	char *req = NULL;

	if (p && in && asprintf(&req, "{\"program\": %s, \"inputs\": %s}\n", p, in) < 0)
		req = NULL;
	free(p);
	free(in);
	return req;
}

/*
 * The @n arguments of @args (stopping at a NULL) into @argv, NULL-terminated:
 * "@name" becomes the path of test program @name and "OUT" becomes @out.
 * The paths made are copies in @owned (@n slots, NULL when unused), which
 * cli_args_free() frees.
 */
static inline void cli_args(const char *const *args, size_t n, const char *out,
			    const char **argv, char **owned)
{
	size_t i;

	for (i = 0; i < n && args[i]; i++) {
		owned[i] = NULL;
		if (args[i][0] == '@')
			owned[i] = strdup(cli_data(args[i] + 1));
		argv[i] = owned[i] ? owned[i] : !strcmp(args[i], "OUT") && out ? out : args[i];
	}
	for (size_t j = i; j < n; j++)
		owned[j] = NULL;
	argv[i] = NULL;
}

static inline void cli_args_free(char **owned, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(owned[i]);
}

/* A fresh directory under $TMPDIR for one test's files. */
static inline char *cli_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir;

	if (asprintf(&dir, "%s/ttpu-cli.XXXXXX", base && *base ? base : "/tmp") < 0)
		return NULL;
	if (!mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* "dir/name"; the caller frees it. */
static inline char *cli_path(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

/* Names in @dir, space-separated (empty when none). */
static inline char *cli_listdir(const char *dir)
{
	size_t len = 0;
	struct dirent *de;
	char *s = NULL;
	FILE *f = open_memstream(&s, &len);
	DIR *d = opendir(dir);

	if (!f)
		return NULL;
	while (d && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fprintf(f, "%s ", de->d_name);
	}
	if (d)
		closedir(d);
	fclose(f);
	return s;
}

static inline void cli_rmdir(char *dir)
{
	struct dirent *de;
	DIR *d;
	char *p;

	if (!dir)
		return;
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = cli_path(dir, de->d_name);
		if (p)
			unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	free(dir);
}

static inline const char *cli_get_string(struct json_object *obj,
					 const char *path)
{
	struct json_object *v = test_json_get(obj, path);

	return v && json_object_is_type(v, json_type_string) ?
		json_object_get_string(v) : NULL;
}

/*
 * Whether @s[0..@len) is valid UTF-8, judged by the table of well-formed
 * byte sequences of the Unicode standard (chapter 3, table 3-7), written
 * out here independently of the library's own check: no overlongs, no
 * encoded surrogates, nothing above U+10FFFF, no cut sequences. (glibc's
 * iconv would be another judge, but a static binary in the VMs' initramfs
 * has no gconv modules to load.)
 */
static inline bool cli_utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		unsigned char lo = 0x80, hi = 0xbf;
		size_t n;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3;
		else
			return false;	/* 80..C1 and F5..FF never start one */
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
		else if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
		if (len - i <= n)
			return false;
		if (s[i + 1] < lo || s[i + 1] > hi)
			return false;
		for (size_t k = 2; k <= n; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xbf)
				return false;
		i += n + 1;
	}
	return true;
}

/* Whether the suite runs built with ASan or TSan, which cannot run under ulimit -v. */
static inline bool cli_sanitized(void)
{
	return getenv("ASAN_OPTIONS") != NULL || getenv("TSAN_OPTIONS") != NULL;
}

/* ---- checks: need the harness's _metadata ------------------------------ */

/* Whatever ttpu-run wrote, it wrote valid UTF-8. */
static inline void check_utf8(struct __test_metadata *_metadata,
			      const struct proc_result *r)
{
	ASSERT_TRUE(cli_utf8_valid(r->out, r->out_len))
		TH_LOG("stdout is not valid UTF-8: %s", r->out);
	ASSERT_TRUE(cli_utf8_valid(r->err, r->err_len))
		TH_LOG("stderr is not valid UTF-8: %s", r->err);
}

#define RUN_CLI(_r, _stdin_text, ...) \
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ __VA_ARGS__, NULL }, \
			      &(struct proc_opts){ .stdin_text = (_stdin_text) }, (_r)))

/*
 * A failure of @kind with exit status @status: {"error": {"kind": @kind,
 * "message": M}} on stdout (unless @stdout_json is false) and exactly the
 * line "ttpu-run: @kind: M" on stderr.
 */
static inline void check_error_ex(struct __test_metadata *_metadata,
				  const struct proc_result *r, const char *kind,
				  int status, bool stdout_json)
{
	const char *msg, *nl;
	char *line;

	if (r->status != status)
		TH_LOG("stdout: %s\nstderr: %s", r->out, r->err);
	ASSERT_EQ(0, r->signal);
	ASSERT_EQ(status, r->status);
	check_utf8(_metadata, r);
	/* Exactly one line on stderr. */
	nl = strchr(r->err, '\n');
	ASSERT_NE(NULL, nl) TH_LOG("stderr has no line: '%s'", r->err);
	ASSERT_EQ(r->err_len, (size_t)(nl - r->err) + 1)
		TH_LOG("more than one line on stderr:\n%s", r->err);
	if (!stdout_json) {
		ASSERT_EQ(0, strncmp(r->err, "ttpu-run: ", 10));
		ASSERT_EQ(0, strncmp(r->err + 10, kind, strlen(kind)))
			TH_LOG("stderr: %s", r->err);
		return;
	}
	ASSERT_NE(NULL, r->json) TH_LOG("stdout is not one JSON value: '%s'", r->out);
	ASSERT_EQ(1, json_object_object_length(r->json)) TH_LOG("stdout: %s", r->out);
	ASSERT_NE(NULL, cli_get_string(r->json, "error.kind")) TH_LOG("stdout: %s", r->out);
	ASSERT_STREQ(kind, cli_get_string(r->json, "error.kind"));
	msg = cli_get_string(r->json, "error.message");
	ASSERT_NE(NULL, msg);
	ASSERT_NE(0, strlen(msg));
	ASSERT_LT(0, asprintf(&line, "ttpu-run: %s: %s\n", kind, msg));
	for (char *p = line + 10; p[1]; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	EXPECT_STREQ(line, r->err);
	free(line);
}

static inline void check_error(struct __test_metadata *_metadata,
			       const struct proc_result *r, const char *kind,
			       int status)
{
	check_error_ex(_metadata, r, kind, status, true);
}

/* Exit 0, nothing on stderr, a response on stdout. */
static inline void check_ok(struct __test_metadata *_metadata,
			    const struct proc_result *r)
{
	if (r->status != 0 || r->err_len)
		TH_LOG("status %d signal %d\nstdout: %s\nstderr: %s", r->status,
		       r->signal, r->out, r->err);
	ASSERT_EQ(0, r->signal);
	ASSERT_EQ(0, r->status);
	ASSERT_EQ(0, r->err_len);
	check_utf8(_metadata, r);
	ASSERT_NE(NULL, r->json) TH_LOG("stdout is not one JSON value: '%s'", r->out);
	ASSERT_EQ(NULL, test_json_get(r->json, "error"));
}

#endif /* TTPU_CLI_CHECK_H */
