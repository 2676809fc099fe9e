// SPDX-License-Identifier: MIT
/*
 * program_load.c - load a program: its text read, validated and planned
 *
 * One loader for every entry point (a file, a buffer, a json-c tree, a
 * request's "program"): program_read*.c stream the text into the loader,
 * program_validate.c checks what needs the whole program and fills the
 * final struct ttpu_program, plan.c groups its commands into stages. A
 * compiled program (recognised by its magic) goes to program_binary_load.c
 * instead. A loaded program is immutable: runs share it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "error.h"
#include "plan.h"
#include "program_binary.h"
#include "program_load.h"
#include "program_read.h"
#include "program_validate.h"
#include "program_pass_map.h"
#include "util.h"

int ttpu_loader_init(struct ttpu_loader *L, struct ttpu_jstream *js,
		     struct ttpu_error *err)
{
	memset(L, 0, sizeof(*L));
	L->js = js;
	L->err = err;
	L->prog = calloc(1, sizeof(*L->prog));
	L->intern = ttpu_names_new();
	L->pass_map = ttpu_pass_map_new();
	if (!L->prog || !L->intern || !L->pass_map)
		return ttpu_error_nomem(err, "starting to load a program");
	return 0;
}

void ttpu_loader_fini(struct ttpu_loader *L, bool keep_prog)
{
	size_t i;

	for (i = 0; i < L->nbufs; i++)
		ttpu_int_list_free(&L->bufs[i].data);
	free(L->bufs);
	free(L->buf_of_name);
	free(L->inputs);
	free(L->outputs);
	free(L->cmd_offset);
	free(L->consumer);
	ttpu_pass_map_free(L->pass_map);
	ttpu_names_free(L->intern);
	if (!keep_prog)
		ttpu_program_free(L->prog);
	L->prog = NULL;
}

/*
 * The arrays grew by doubling while the commands streamed in: give the
 * slack (up to half of each) back before validation and planning add
 * their own, so a program costs its size, not twice it. A failed shrink
 * keeps the larger array.
 */
static void loader_trim(struct ttpu_loader *L)
{
	struct ttpu_program *p = L->prog;

	if (p->ncmds && p->ncmds < L->cmds_cap &&
	    !ttpu_resize(&p->cmds, p->ncmds, sizeof(*p->cmds)))
		L->cmds_cap = p->ncmds;
	if (p->ncmds && p->ncmds < L->cmd_offset_cap &&
	    !ttpu_resize(&L->cmd_offset, p->ncmds, sizeof(*L->cmd_offset)))
		L->cmd_offset_cap = p->ncmds;
	if (p->npasses && p->npasses < L->passes_cap &&
	    !ttpu_resize(&p->pass_ids, p->npasses, sizeof(*p->pass_ids)))
		L->passes_cap = p->npasses;
	if (p->npasses && p->npasses < L->pass_aux_cap &&
	    !ttpu_resize(&p->pass_cmd, p->npasses, sizeof(*p->pass_cmd)) &&
	    !ttpu_resize(&L->consumer, p->npasses, sizeof(*L->consumer)))
		L->pass_aux_cap = p->npasses;
}

/* Streamed, then checked as a whole, then planned: loading ends with a plan. */
int ttpu_loader_load(struct ttpu_loader *L, const char *path)
{
	int ret = ttpu_loader_read(L, path);

	if (!ret)
		loader_trim(L);
	if (!ret)
		ret = ttpu_loader_finish(L);
	if (!ret) {
		/* What only reading and validation needed goes before the plan comes. */
		free(L->cmd_offset);
		free(L->consumer);
		ttpu_pass_map_free(L->pass_map);
		L->cmd_offset = NULL;
		L->consumer = NULL;
		L->pass_map = NULL;
		L->cmd_offset_cap = L->pass_aux_cap = 0;
		ret = ttpu_plan_build(L->prog, &L->prog->plan, L->err);
	}
	return ret;
}

/* The program that is the whole of @js's text; @js is finished here. */
static int load_stream(struct ttpu_jstream *js, ttpu_program **out)
{
	struct ttpu_loader L;
	int ret;

	ret = ttpu_loader_init(&L, js, js->err);
	if (!ret)
		ret = ttpu_loader_load(&L, "");
	if (!ret)
		ret = ttpu_js_end(js);
	if (!ret)
		*out = L.prog;
	ttpu_loader_fini(&L, !ret);
	ttpu_js_fini(js);
	return ret;
}

static int load_text(const char *text, size_t len, bool positions,
		     ttpu_program **out, struct ttpu_error *err)
{
	struct ttpu_jstream js;
	int ret;

	*out = NULL;
	if (len > ttpu_text_limit())
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "program text of %zu bytes is larger than the %zu-byte input limit",
				      len, ttpu_text_limit());
	ret = ttpu_js_init(&js, text, len, TTPU_SCHEMA_ERROR, err);
	if (ret)
		return ret;
	js.positions = positions;
	return load_stream(&js, out);
}

int ttpu_program_load_buffer(const char *json, size_t len, ttpu_program **out,
			     struct ttpu_error *err)
{
	ttpu_error_clear(err);
	if (!out)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_load_buffer: out is NULL");
	*out = NULL;
	if (!json)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_load_buffer: json is NULL");
	if (ttpu_binary_has_magic(json, len))
		return ttpu_binary_load_copy(json, len, out, err);
	return load_text(json, len, true, out, err);
}

int ttpu_program_load_json(struct json_object *obj, ttpu_program **out,
			   struct ttpu_error *err)
{
	const char *text;
	size_t len;

	ttpu_error_clear(err);
	if (!out)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_load_json: out is NULL");
	*out = NULL;
	if (!obj)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_load_json: obj is NULL");
	/*
	 * The caller already holds the tree, so its text costs no more than
	 * it does; going through the text keeps one loader and one set of
	 * checks. Line/column would point into that text: left unknown.
	 */
	text = json_object_to_json_string_length(obj, JSON_C_TO_STRING_PLAIN, &len);
	if (!text)
		return ttpu_error_nomem(err, "serializing the program");
	return load_text(text, len, false, out, err);
}

int ttpu_program_load_file(const char *path, ttpu_program **out,
			   struct ttpu_error *err)
{
	struct ttpu_jstream js;
	int fd, ret;

	ttpu_error_clear(err);
	if (!out || !path)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_program_load_file: %s is NULL", out ? "path" : "out");
	*out = NULL;
	ret = ttpu_binary_try_file(path, out, err);
	if (ret <= 0)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ttpu_error_sys(err, errno, "cannot open %s", path);
	/* Read in chunks as it is parsed: memory follows the program, not its text. */
	ret = ttpu_js_init_fd(&js, fd, path, TTPU_SCHEMA_ERROR, err);
	if (!ret)
		ret = load_stream(&js, out);
	close(fd);
	return ret;
}
