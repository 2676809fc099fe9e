// SPDX-License-Identifier: MIT
/*
 * test_direct.c - the two readers of a command, and of a list of
 * integers, cannot disagree
 *
 * A command is read by the direct reader (program_read_command_direct.c)
 * when it is plain, else by json-c; so is each row or element of a list of
 * integers, buffer data or inputs (text_json_int_list_direct.c). Every
 * program here is loaded twice, with the direct readers on and off
 * (ttpu_commands_direct, ttpu_int_lists_direct, internal), and both loads
 * must end the same: the same error (kind, message, field, command, op,
 * buffer, line, column, ...) or the same program, compared as its
 * compiled bytes (ttpu_program_write_binary()), and inside a request the
 * same response of a run on its inputs. Each is loaded from memory, from a
 * file (the fd reader's window) and inside a request; inputs documents are
 * read both ways too, from memory and from a file, and run.
 *
 * The programs: the test corpus (tests/runtime/data, tests/cli/data,
 * examples); one command replaced by each variant of a table (escapes,
 * floats, negative, leading-zero and too-long numbers, nulls, duplicate,
 * unknown and missing keys, wrong types, white space, non-ASCII and
 * invalid UTF-8, pass ids reused or not run yet, ...), where the direct
 * reader's own verdict is checked too: it must take the plain ones and
 * leave every other to json-c; every prefix of a program (texts cut
 * anywhere); 2000 random byte mutations of its commands; a command cut at the
 * fd reader's first window boundary at each of its bytes; and a program
 * of many windows. The lists: each value of a table (signs, leading
 * zeros, fractions, exponents, 18 to 20 digits and beyond int64, the
 * edges of i8 and i32, white space, strings, nulls, nested lists, odd
 * separators) at each place of a row of buffer data, of a flat list and
 * of an input row; every prefix and 2000 random mutations of an inputs
 * document; a row cut at the fd reader's first window boundary at each of
 * its bytes.
 */
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "program_read_command_direct.h"
#include "program_read_commands.h"
#include "rt.h"
#include "../lib/test_timeout.h"

/* JS_CHUNK of text_json_stream.c: the fd reader's first window. */
#define FD_WINDOW (256 * 1024)

/*
 * Every test here loads a corpus or thousands of mutated texts: natively
 * 0.1 to 3.4 s each on a 2-core machine at a load of 15, up to 31 s under
 * ASan and 41 s on the emulated Zynq (test_timeout.h).
 */
#define TIMEOUT_MUTATIONS 300

/* How one load ended. */
struct outcome {
	int rc;
	struct ttpu_error err;
	char *image;			/* the program compiled, on success */
	size_t len;
	char *response;			/* a request's or inputs' run, on success */
	size_t response_len;
};

/* Both direct readers on (the library's default) or both off. */
static void set_direct(bool direct)
{
	ttpu_commands_direct = direct;
	ttpu_int_lists_direct = direct;
}

/* Run @prog on @in (software engine): the response or the error in @o. */
static void keep_response(const ttpu_program *prog, const ttpu_inputs *in,
			  struct outcome *o)
{
	ttpu_result *res = NULL;
	FILE *f;

	f = open_memstream(&o->response, &o->response_len);
	if (!f)
		abort();
	o->rc = ttpu_run(prog, rt_engine(), in, &res, &o->err);
	if (!o->rc && ttpu_result_write_json(res, f, 0, &o->err))
		abort();
	if (fclose(f))
		abort();
	ttpu_result_free(res);
}

enum way { FROM_MEMORY, FROM_FILE, IN_REQUEST };

static const char *const way_names[] = { "memory", "file", "request" };

/* Texts loaded both ways (each twice), for the log. */
static unsigned long compared;

static void keep_program(ttpu_program *prog, struct outcome *o)
{
	if (ttpu_program_write_binary(prog, &o->image, &o->len, &o->err))
		abort();
	ttpu_program_free(prog);
}

/*
 * Load @text (@len bytes; from @path too for FROM_FILE) one way, the
 * direct reader on or off. A request carries @inputs (JSON) as its inputs.
 */
static void load(const char *text, size_t len, const char *path,
		 const char *inputs, enum way way, bool direct, struct outcome *o)
{
	ttpu_program *prog = NULL;
	ttpu_inputs *in = NULL;
	char *req;
	size_t n;

	memset(o, 0, sizeof(*o));
	set_direct(direct);
	switch (way) {
	case FROM_MEMORY:
		o->rc = ttpu_program_load_buffer(text, len, &prog, &o->err);
		break;
	case FROM_FILE:
		o->rc = ttpu_program_load_file(path, &prog, &o->err);
		break;
	case IN_REQUEST:
		n = len + strlen(inputs) + 32;
		req = malloc(n);
		if (!req)
			abort();
		n = (size_t)snprintf(req, n, "{\"program\": %.*s, \"inputs\": %s}",
				     (int)len, text, inputs);
		o->rc = ttpu_request_load_buffer(req, n, &prog, &in, &o->err);
		free(req);
		set_direct(true);
		if (!o->rc)
			keep_response(prog, in, o);
		ttpu_inputs_free(in);
		break;
	}
	set_direct(true);
	if (!o->rc)
		keep_program(prog, o);
	else
		ttpu_program_free(prog);
}

static int same(const struct outcome *a, const struct outcome *b, char *why,
		size_t n)
{
	const struct ttpu_error *x = &a->err, *y = &b->err;

	if (a->rc != b->rc) {
		snprintf(why, n, "rc %d (%.200s) vs %d (%.200s)", a->rc, a->rc ? x->message : "",
			 b->rc, b->rc ? y->message : "");
		return 0;
	}
	if (!a->rc) {
		if (a->len != b->len || (a->len && memcmp(a->image, b->image, a->len))) {
			snprintf(why, n, "the programs differ (%zu and %zu bytes compiled)",
				 a->len, b->len);
			return 0;
		}
		if (a->response_len == b->response_len &&
		    (!a->response_len || !memcmp(a->response, b->response, a->response_len)))
			return 1;
		snprintf(why, n, "the responses differ (%zu and %zu bytes)",
			 a->response_len, b->response_len);
		return 0;
	}
	if (x->kind == y->kind && !strcmp(x->message, y->message) &&
	    x->command == y->command && !strcmp(x->op, y->op) &&
	    !strcmp(x->field, y->field) && !strcmp(x->buffer, y->buffer) &&
	    x->element == y->element && x->row == y->row && x->col == y->col &&
	    x->line == y->line && x->column == y->column &&
	    x->sys_errno == y->sys_errno)
		return 1;
	snprintf(why, n, "\"%.200s\" (field %.60s, command %ld, %ld:%ld) vs \"%.200s\" (field %.60s, command %ld, %ld:%ld)",
		 x->message, x->field, x->command, x->line, x->column,
		 y->message, y->field, y->command, y->line, y->column);
	return 0;
}

static void free_outcome(struct outcome *o)
{
	free(o->image);
	free(o->response);
}

/*
 * Load @text both ways through @way; 1 when they end the same, else 0
 * with the difference in @why. *@rc (when not NULL) is how they ended.
 */
static int agree(const char *text, size_t len, const char *path,
		 const char *inputs, enum way way, int *rc, char *why, size_t n)
{
	struct outcome direct, jsonc;
	int ok;

	load(text, len, path, inputs, way, true, &direct);
	load(text, len, path, inputs, way, false, &jsonc);
	ok = same(&direct, &jsonc, why, n);
	if (rc)
		*rc = direct.rc;
	free_outcome(&direct);
	free_outcome(&jsonc);
	compared++;
	return ok;
}

/* A file under /tmp holding @len bytes of @text; its path in @path[32]. */
static void write_temp(const char *text, size_t len, char path[32])
{
	int fd;

	snprintf(path, 32, "/tmp/test_direct.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd))
		abort();
}

/*
 * @text agrees both ways from memory, from a file and in a request; *@rc
 * is how it loaded from memory.
 */
static int agree_everywhere(const char *text, size_t len, const char *inputs,
			    int *rc, char *why, size_t n)
{
	char path[32];
	int ok = 1;

	write_temp(text, len, path);
	for (int w = FROM_MEMORY; w <= IN_REQUEST && ok; w++) {
		ok = agree(text, len, path, inputs, (enum way)w,
			   w == FROM_MEMORY ? rc : NULL, why, n);
		if (!ok) {
			size_t at = strlen(why);

			snprintf(why + at, n - at, " (from %s)", way_names[w]);
		}
	}
	unlink(path);
	return ok;
}

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

/*
 * A program where one command, CMD, varies; REST follows it. Passes 0 and
 * 1 run around it; D is there for the variants to write.
 */
#define PROG_HEAD \
	"{'format':'ttpu','version':1,'tile':4,'name':'direct','buffers':{"		\
	"'A':{'dtype':'i8','shape':[4,8],'kind':'input'},"				\
	"'W':{'dtype':'i8','shape':[8,4],'kind':'const','data':[[1,0,0,0],[0,1,0,0],"	\
	"[0,0,1,0],[0,0,0,1],[2,0,0,0],[0,2,0,0],[0,0,2,0],[0,0,0,2]]},"		\
	"'b':{'dtype':'i32','shape':[8],'kind':'const','data':[1,-2,3,-4,5,-6,7,-8]},"		\
	"'C':{'dtype':'i32','shape':[4,4],'kind':'temp'},"				\
	"'D':{'dtype':'i32','shape':[4,8],'kind':'temp'}},"				\
	"'inputs':['A'],'outputs':['C','D'],'commands':[\n"				\
	"{'op':'alloc','buf':'C'},{'op':'alloc','buf':'D'},\n"				\
	"{'op':'pass','id':0,'a':{'buf':'A','r':0,'c':0},'b':{'buf':'W','r':0,'c':0}},\n"
#define PROG_TAIL \
	",\n{'op':'pass','id':1,'a':{'buf':'A','r':0,'c':4},'b':{'buf':'W','r':4,'c':0}},\n"	\
	"{'op':'acc','pass':1,'dst':{'buf':'C','r':0,'c':0}}]}\n"
#define INPUTS_A \
	"{'A':[[1,-2,3,-4,5,-6,7,-8],[9,10,11,12,13,14,15,16],"		\
	"[-1,-1,-1,-1,-1,-1,-1,-1],[127,-128,0,1,2,3,4,5]]}"

/* What consumes pass 0 after a variant that is not an acc of it. */
#define ACC0 ",{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'c':0}}"
#define WIN(b, r, c) "{'buf':'" b "','r':" #r ",'c':" #c "}"

struct variant {
	const char *cmd;	/* single-quoted JSON */
	const char *rest;	/* after it, before pass 1 */
	bool plain;		/* the direct reader takes it */
};

static const struct variant variants[] = {
	/* acc of pass 0: plain, and every way of not being plain. */
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 4) ",'bias':'b','relu':true}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'b','relu':false}", "", true },
	{ "{'dst':{'c':0,'r':0,'buf':'D'},'relu':true,'pass':0,'bias':'b','op':'acc'}", "", true },
	{ "{ 'op' : 'acc' ,\n\t'pass' :0 ,\r\n'dst':{ 'buf' :'D','r': 0 ,'c':0 }\n}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",\f'relu':true}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",\v'relu':true}", "", false },
	{ "{'op':'acc','pass':7,'dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'acc','pass':1,'dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'acc','pass':999999999999999999,'dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'acc','pass':1000000000000000000,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':9223372036854775807,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':9223372036854775808,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':99999999999999999999,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':'0','dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0.0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':1.0,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':1e2,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':0E0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':-0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':-1,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':00,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':01,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':null,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':0,'dst':null}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':null}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':null}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':1}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':'true'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':tru}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':truex}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':True}", "", false },
	{ "{'op':'acc','pass':0,'pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':7,'pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','op':'acc','pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'r':0,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','buf':'C','r':0,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'x':1}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'id':0}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'r':0}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'c':0,'d':1}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'c':0,'':1}}", "", false },
	{ "{'op':'acc','pass':0}", "", false },
	{ "{'op':'acc','dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'r':0,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{}}", "", false },
	{ "{'op':'acc','pass':0,'dst':'D'}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':5,'r':0,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':'0','c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':true,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':{'x':1},'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':[0],'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'c':0,}}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':''}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':5}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'a/b c~!#'}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\\u0062'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'a\\/b'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'b\\u0000'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\\ud800'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\\n'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("\\u0044", 0, 0) "}", "", false },
	{ "{'op':'a\\u0063c','pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','p\\u0061ss':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\xc3\xa9'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\xff'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\xc3'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\xed\xa0\x80'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'b\tb'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'b\x7f'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D\xc3\xa9", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 999999999999999999, 0) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 4294967296, 0) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 4294967295) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 1, 0) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("Z", 0, 0) "}", "", true },
	/* Not a command object at all. */
	{ "{}", ACC0, false },
	{ "[]", ACC0, false },
	{ "5", ACC0, false },
	{ "'acc'", ACC0, false },
	{ "null", ACC0, false },
	{ "{'op':'mul','pass':0}", ACC0, false },
	{ "{'op':5}", ACC0, false },
	{ "{'op':''}", ACC0, false },
	{ "{'op':null}", ACC0, false },
	/* Passes. */
	{ "{'op':'pass','id':2,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}",
	  ACC0 ",{'op':'acc','pass':2,'dst':" WIN("D", 0, 4) "}", true },
	{ "{'b':" WIN("W", 0, 0) ",'a':" WIN("A", 0, 0) ",'id':2,'op':'pass'}",
	  ACC0 ",{'op':'acc','pass':2,'dst':" WIN("D", 0, 4) "}", true },
	{ "{'op':'pass','id':0,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}", ACC0, true },
	{ "{'op':'pass','id':1,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}", ACC0, true },
	{ "{'op':'pass','id':-1,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}", ACC0, false },
	{ "{'op':'pass','id':1.5,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}", ACC0, false },
	{ "{'op':'pass','id':123456789012345678,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}",
	  ACC0 ",{'op':'acc','pass':123456789012345678,'dst':" WIN("D", 0, 4) "}", true },
	{ "{'op':'pass','id':2,'a':'A','b':" WIN("W", 0, 0) "}", ACC0, false },
	{ "{'op':'pass','id':2,'a':" WIN("A", 0, 0) "}", ACC0, false },
	{ "{'op':'pass','id':2,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) ",'dst':'D'}",
	  ACC0, false },
	{ "{'op':'pass','id':2,'a':" WIN("Q", 0, 0) ",'b':" WIN("", 0, 0) "}", ACC0, true },
	{ "{'op':'pass','id':2,'a':" WIN("A", 2, 1) ",'b':" WIN("W", 0, 0) "}",
	  ACC0 ",{'op':'acc','pass':2,'dst':" WIN("D", 0, 4) "}", true },
	/* The other ops. */
	{ "{'op':'alloc','buf':'D'}", ACC0, true },
	{ "{'op':'alloc','buf':''}", ACC0, true },
	{ "{'op':'alloc','buf':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'alloc','buf':'D','relu':true}", ACC0, false },
	{ "{'op':'host_relu','dst':'D','src':'D'}", ACC0, true },
	{ "{'op':'host_relu','dst':'D','src':'D','relu':true}", ACC0, false },
	{ "{'op':'host_relu','dst':'D'}", ACC0, false },
	{ "{'op':'host_add','dst':'D','a':'D','b':'D'}", ACC0, true },
	{ "{'op':'host_add','dst':'D','a':'D','b':'C'}", ACC0, true },
	{ "{'op':'host_add','dst':'D','a':" WIN("D", 0, 0) ",'b':'D'}", ACC0, false },
	{ "{'op':'host_add','dst':" WIN("D", 0, 0) ",'a':'D','b':'D'}", ACC0, false },
	{ "{'op':'epilogue','dst':" WIN("D", 0, 0) ",'bias':'b','relu':true}", ACC0, true },
	{ "{'op':'epilogue','dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'epilogue','bias':'b'}", ACC0, false },
	{ "{'op':'epilogue','dst':" WIN("D", 0, 0) ",'pass':0}", ACC0, false },
	{ "{'op':'epilogue','dst':'D'}", ACC0, false },
};

/* The program with variant @v, double-quoted; malloc'd. */
static char *variant_program(const struct variant *v)
{
	size_t n = strlen(PROG_HEAD) + strlen(v->cmd) + strlen(v->rest) + strlen(PROG_TAIL) + 1;
	char *sq = malloc(n), *dq;

	if (!sq)
		abort();
	snprintf(sq, n, "%s%s%s%s", PROG_HEAD, v->cmd, v->rest, PROG_TAIL);
	dq = rt_dq(sq);
	free(sq);
	return dq;
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

/* Bytes a mutation writes: JSON's own, and some it has no place for. */
static const char mutation_bytes[] = "{}[],:\"\\ \t\n\r0123456789.eE+-tfnulbrcdapsiox/'\x7f\x80\xc3\xff";

/* A fixed sequence, the same on every run: a failure can be replayed. */
static unsigned int next_random(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/*
 * @len bytes of @text into @m (room for 3 more) with 1 to 3 random bytes
 * from @from on replaced, inserted or deleted; the new length.
 */
static size_t mutate(char *m, const char *text, size_t len, size_t from,
		     unsigned int *state)
{
	size_t n = len, at;
	unsigned int r;

	memcpy(m, text, len);
	for (int k = 1 + (int)(next_random(state) % 3); k > 0 && n > from; k--) {
		at = from + next_random(state) % (n - from);
		r = next_random(state);
		switch (r % 3) {
		case 0:
			m[at] = mutation_bytes[(r >> 2) % (sizeof(mutation_bytes) - 1)];
			break;
		case 1:
			memmove(m + at + 1, m + at, n - at);
			m[at] = mutation_bytes[(r >> 2) % (sizeof(mutation_bytes) - 1)];
			n++;
			break;
		default:
			memmove(m + at, m + at + 1, n - at - 1);
			n--;
			break;
		}
	}
	return n;
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

/* ---- lists of integers ------------------------------------------------ */

/*
 * Read @text (@len bytes; from @path when not NULL: the fd reader) as the
 * inputs of @prog, the direct readers on or off, and run it.
 */
static void load_inputs(const ttpu_program *prog, const char *text, size_t len,
			const char *path, bool direct, struct outcome *o)
{
	ttpu_inputs *in = ttpu_inputs_new(prog);

	if (!in)
		abort();
	memset(o, 0, sizeof(*o));
	set_direct(direct);
	if (path)
		o->rc = ttpu_inputs_load_file(in, path, &o->err);
	else
		o->rc = ttpu_inputs_parse(in, text, len, &o->err);
	set_direct(true);
	if (!o->rc)
		keep_response(prog, in, o);
	ttpu_inputs_free(in);
}

/* The inputs document @text read both ways agrees, as agree() says. */
static int agree_inputs(const ttpu_program *prog, const char *text, size_t len,
			const char *path, char *why, size_t n)
{
	struct outcome direct, jsonc;
	int ok;

	load_inputs(prog, text, len, path, true, &direct);
	load_inputs(prog, text, len, path, false, &jsonc);
	ok = same(&direct, &jsonc, why, n);
	free_outcome(&direct);
	free_outcome(&jsonc);
	compared++;
	return ok;
}

/* The variants' program, loaded. */
static ttpu_program *plain_program(void)
{
	char *text = variant_program(&variants[1]);
	ttpu_program *prog;
	struct ttpu_error err;

	if (ttpu_program_load_buffer(text, strlen(text), &prog, &err))
		abort();
	free(text);
	return prog;
}

/* @text with the first @old replaced by @new; malloc'd. */
static char *replace(const char *text, const char *old, const char *new)
{
	const char *at = strstr(text, old);
	size_t n = strlen(text) - strlen(old) + strlen(new) + 1;
	char *r = malloc(n);

	if (!at || !r)
		abort();
	snprintf(r, n, "%.*s%s%s", (int)(at - text), text, new, at + strlen(old));
	return r;
}

struct int_variant {
	const char *v;		/* one element's text, single-quoted JSON */
	bool plain;		/* a row holding it is the direct reader's */
};

static const struct int_variant int_variants[] = {
	{ "1", true }, { "0", true }, { "-0", true }, { "-1", true },
	{ "127", true }, { "-128", true }, { "128", true }, { "-129", true },
	{ "2147483647", true }, { "-2147483648", true },
	{ "2147483648", true }, { "-2147483649", true },
	{ "999999999999999999", true }, { "-999999999999999999", true },
	{ "1000000000000000000", false }, { "-1000000000000000000", false },
	{ "9223372036854775807", false }, { "-9223372036854775808", false },
	{ "9223372036854775808", false }, { "-9223372036854775809", false },
	{ "18446744073709551615", false }, { "18446744073709551616", false },
	{ "99999999999999999999999", false }, { "-99999999999999999999999", false },
	{ "-", false }, { "--1", false }, { "+1", false }, { "- 1", false },
	{ "01", false }, { "-01", false }, { "00", false }, { "-00", false },
	{ "1.0", false }, { "1.", false }, { "-0.0", false }, { ".5", false },
	{ "1e2", false }, { "1E+2", false }, { "1e-2", false }, { "0e0", false },
	{ "1E2", false }, { "-1e2", false },
	{ " 1 ", true }, { "\t\n1\r\n", true }, { "\f1", false }, { "1\v", false },
	{ "null", false }, { "true", false }, { "false", false }, { "'1'", false },
	{ "'x'", false }, { "[1]", false }, { "[]", false }, { "{}", false },
	{ "", false }, { "1 1", false }, { "0x10", false }, { "NaN", false },
	{ "Infinity", false }, { "-Infinity", false }, { "1,", false },
	{ "1]", false }, { "1}", false }, { "\xc3\xa9", false },
};

/* Whole rows of W (shape [8, 4]), for what the table cannot say. */
static const struct int_variant row_variants[] = {
	{ "[]", true }, { "[ ]", true }, { "[1,0,0]", true }, { "[ 1 ,0, 0 ,0 ]", true },
	{ "[1,0,0,0,0]", true }, { "[1,0,0,0,]", false }, { "[,1,0,0,0]", false },
	{ "[1,,0,0,0]", false }, { "[1 0,0,0]", false }, { "[1,0,0,0}", false },
	{ "[1;0,0,0]", false }, { "[[1,0,0,0]]", false }, { "[1,0,0,[0]]", false },
};

/* Whether the direct reader takes the row @sq (single-quoted) whole. */
static bool int_row_taken(const char *sq)
{
	char *row = rt_dq(sq), *text;
	struct ttpu_int_list l = { 0 };
	struct ttpu_direct_ints d;
	struct ttpu_jstream js;
	struct ttpu_error err;
	size_t len;
	bool took;

	/* What follows a row in a list: the direct reader must not need it. */
	len = strlen(row) + 2;
	text = malloc(len + 1);
	if (!text)
		abort();
	snprintf(text, len + 1, "%s]}", row);
	if (ttpu_js_init(&js, text, len, TTPU_SCHEMA_ERROR, &err))
		abort();
	took = ttpu_js_ints_scan_direct(&js, true, UINT64_MAX, -128, 127, &l, &d);
	/* Taken, the cursor is after the row; left, all is as it was. */
	if (took ? js.elem_start != 0 || l.n != d.len : js.pos != 0 || l.n != 0)
		abort();
	/* A row that ends early ("[1]]..."): the rest is the list's to read. */
	took = took && js.pos == strlen(row);
	ttpu_js_fini(&js);
	ttpu_int_list_free(&l);
	free(row);
	free(text);
	return took;
}

/* The variants' program with its first @old replaced by @sq (single-quoted); malloc'd. */
static char *program_with(const char *old, const char *sq)
{
	char *prog = variant_program(&variants[1]), *dq = rt_dq(sq), *text;

	text = replace(prog, old, dq);
	free(prog);
	free(dq);
	return text;
}

/*
 * The row @sq in place of W's first row (buffer data, in the program) and
 * of A's first row (inputs): both agree everywhere.
 */
static void try_row(struct __test_metadata *_metadata, const ttpu_program *prog,
		    const char *sq, const char *sq_flat)
{
	char *text, *inputs = rt_dq(INPUTS_A), *in_sq, *in_text, *row;
	char why[1024], path[32];
	size_t n;
	int rc;

	/* W's first row. */
	n = strlen(sq) + 16;
	row = malloc(n);
	if (!row)
		abort();
	snprintf(row, n, "'data':[%s", sq);
	text = program_with("\"data\":[[1,0,0,0]", row);
	EXPECT_TRUE(agree_everywhere(text, strlen(text), inputs, &rc, why, sizeof(why))) {
		TH_LOG("W row %s: %s", sq, why);
	}
	free(text);
	free(row);

	/* b's flat data. */
	if (sq_flat) {
		text = program_with("[1,-2,3,-4,5,-6,7,-8]", sq_flat);
		EXPECT_TRUE(agree_everywhere(text, strlen(text), inputs, &rc, why, sizeof(why))) {
			TH_LOG("b %s: %s", sq_flat, why);
		}
		free(text);
	}

	/* A's first row, in an inputs document. */
	in_sq = replace(INPUTS_A, "[1,-2,3,-4,5,-6,7,-8]", sq);
	in_text = rt_dq(in_sq);
	write_temp(in_text, strlen(in_text), path);
	EXPECT_TRUE(agree_inputs(prog, in_text, strlen(in_text), NULL, why, sizeof(why))) {
		TH_LOG("A row %s (memory): %s", sq, why);
	}
	EXPECT_TRUE(agree_inputs(prog, in_text, strlen(in_text), path, why, sizeof(why))) {
		TH_LOG("A row %s (file): %s", sq, why);
	}
	unlink(path);
	free(in_sq);
	free(in_text);
	free(inputs);
}

TEST_TIMEOUT(int_list_variants, TIMEOUT_MUTATIONS)
{
	ttpu_program *prog = plain_program();
	size_t i, pos, plain = 0, rows = 0;
	char row[160], flat[160];

	for (i = 0; i < sizeof(int_variants) / sizeof(int_variants[0]); i++) {
		const char *v = int_variants[i].v;

		/* First, inside and last in a row of 4 (W) and in the flat list b. */
		for (pos = 0; pos < 3; pos++) {
			snprintf(row, sizeof(row), pos == 0 ? "[%s,0,0,0]" :
				 pos == 1 ? "[1,%s,0,0]" : "[1,0,0,%s]", v);
			snprintf(flat, sizeof(flat), pos == 0 ? "[%s,-2,3,-4,5,-6,7,-8]" :
				 pos == 1 ? "[1,-2,3,%s,5,-6,7,-8]" : "[1,-2,3,-4,5,-6,7,%s]", v);
			EXPECT_EQ(int_variants[i].plain, int_row_taken(row)) {
				TH_LOG("row %s", row);
			}
			try_row(_metadata, prog, row, flat);
			plain += int_variants[i].plain;
			rows++;
		}
	}
	for (i = 0; i < sizeof(row_variants) / sizeof(row_variants[0]); i++) {
		EXPECT_EQ(row_variants[i].plain, int_row_taken(row_variants[i].v)) {
			TH_LOG("row %s", row_variants[i].v);
		}
		try_row(_metadata, prog, row_variants[i].v, NULL);
		plain += row_variants[i].plain;
		rows++;
	}
	TH_LOG("%zu rows (%zu plain), %lu texts loaded both ways", rows, plain, compared);
	ttpu_program_free(prog);
}

/* Every prefix and random mutations of an inputs document. */
TEST_TIMEOUT(inputs_prefixes_and_mutations, TIMEOUT_MUTATIONS)
{
	ttpu_program *prog = plain_program();
	char *text = rt_dq(INPUTS_A), *prog_text = variant_program(&variants[1]), *m;
	size_t len = strlen(text), n;
	unsigned int state = 7;
	char why[1024];

	for (n = 0; n <= len; n++) {
		ASSERT_TRUE(agree_inputs(prog, text, n, NULL, why, sizeof(why))) {
			TH_LOG("cut at %zu: %s", n, why);
		}
	}
	m = malloc(len + 8);
	ASSERT_NE(NULL, m);
	for (int i = 0; i < 2000; i++) {
		n = mutate(m, text, len, 0, &state);
		m[n] = '\0';
		ASSERT_TRUE(agree_inputs(prog, m, n, NULL, why, sizeof(why))) {
			TH_LOG("mutation %d: %s\n%s", i, why, m);
		}
		/* The same inputs inside a request (read with the program). */
		ASSERT_TRUE(agree(prog_text, strlen(prog_text), NULL, m, IN_REQUEST, NULL, why,
				  sizeof(why))) {
			TH_LOG("mutation %d in a request: %s\n%s", i, why, m);
		}
	}
	TH_LOG("%zu prefixes, 2000 mutations, %lu texts loaded both ways", len + 1, compared);
	free(m);
	free(text);
	free(prog_text);
	ttpu_program_free(prog);
}

/*
 * A row of A's inputs, and one of W's data, cut by the end of the fd
 * reader's first window at each of their bytes.
 */
TEST_TIMEOUT(int_rows_at_window_boundary, TIMEOUT_MUTATIONS)
{
	ttpu_program *prog = plain_program();
	char *inputs = rt_dq(INPUTS_A), *prog_text = variant_program(&variants[1]);
	const char *row = "[[1,-2,3,-4,5,-6,7,-8]", *wrow = "[[1,0,0,0]";
	char why[1024], path[32];
	size_t cuts = 0;

	for (int which = 0; which < 2; which++) {
		const char *base = which ? prog_text : inputs, *mark = which ? wrow : row;
		size_t head = (size_t)(strstr(base, mark) - base), blen = strlen(base);

		for (size_t before = 1; before <= strlen(mark) + 1; before++) {
			size_t pad = FD_WINDOW - before - head, len = blen + pad;
			char *text = malloc(len + 1);

			ASSERT_NE(NULL, text);
			memcpy(text, base, head);
			for (size_t i = 0; i < pad; i++)
				text[head + i] = i % 100 == 99 ? '\n' : ' ';
			strcpy(text + head + pad, base + head);
			write_temp(text, len, path);
			if (which) {
				EXPECT_TRUE(agree(text, len, path, inputs, FROM_FILE, NULL, why,
						  sizeof(why))) {
					TH_LOG("W's data cut %zu bytes in: %s", before, why);
				}
			} else {
				EXPECT_TRUE(agree_inputs(prog, text, len, path, why, sizeof(why))) {
					TH_LOG("A's row cut %zu bytes in: %s", before, why);
				}
			}
			unlink(path);
			free(text);
			cuts++;
		}
	}
	TH_LOG("%zu cuts, %lu texts loaded both ways", cuts, compared);
	free(inputs);
	free(prog_text);
	ttpu_program_free(prog);
}

TEST_HARNESS_MAIN
