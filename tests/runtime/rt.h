/* SPDX-License-Identifier: MIT */
/*
 * rt.h - helpers shared by the runtime library's tests
 *
 * Programs are written inline as JSON with single quotes (RT_PROG and
 * friends), so each test shows the whole program it checks; rt_dq() turns
 * them into JSON. Every helper reports through its return value, so the
 * tests' ASSERTs (which need the harness's _metadata) stay in the tests.
 */
#ifndef RT_H
#define RT_H

#include <stddef.h>
#include <stdint.h>

#include "ttpu-run.h"

/* A program with the fixed header; the pieces are single-quoted JSON. */
#define RT_PROG(bufs, ins, outs, cmds) \
	"{'format':'ttpu','version':1,'tile':4,'name':'t','buffers':{" bufs \
	"},'inputs':[" ins "],'outputs':[" outs "],'commands':[" cmds "]}"

#define RT_BUF(name, dtype, shape, kind) \
	"'" name "':{'dtype':'" dtype "','shape':" shape ",'kind':'" kind "'}"
#define RT_CONST(name, dtype, shape, data) \
	"'" name "':{'dtype':'" dtype "','shape':" shape ",'kind':'const','data':" data "}"
#define RT_WIN(buf, r, c) "{'buf':'" buf "','r':" #r ",'c':" #c "}"
#define RT_PASS(id, a, ar, ac, b, br, bc) \
	"{'op':'pass','id':" #id ",'a':" RT_WIN(a, ar, ac) ",'b':" RT_WIN(b, br, bc) "}"
#define RT_ACC(id, dst, r, c) \
	"{'op':'acc','pass':" #id ",'dst':" RT_WIN(dst, r, c) "}"

/* Returned instead of the library's code when a failed call left an object. */
#define RT_LEFT_OBJECT 1000

/* A text that grows as it is written (tests build programs in it). */
struct rt_text {
	char *s;
	size_t len, cap;
};

/* printf() onto the end of @t, growing it; aborts when out of memory. */
__attribute__((format(printf, 2, 3)))
void rt_put(struct rt_text *t, const char *fmt, ...);

/* @sq with every ' replaced by "; malloc'd. */
char *rt_dq(const char *sq);

/* Load single-quoted @sq; on failure checks that *@out stayed NULL. */
int rt_load(const char *sq, ttpu_program **out, struct ttpu_error *err);

/* The software engine, opened once per process. */
ttpu_engine *rt_engine(void);

/*
 * Parse single-quoted @sq_inputs (NULL: no inputs set) and run @prog on the
 * software engine; on failure checks that *@out stayed NULL.
 */
int rt_run(const ttpu_program *prog, const char *sq_inputs, ttpu_result **out,
	   struct ttpu_error *err);

/* rt_load() then rt_run(); the program is freed, the result kept. */
int rt_load_run(const char *sq_prog, const char *sq_inputs, ttpu_result **out,
		struct ttpu_error *err);

/* @res's response (ttpu_result_write_json(), no stats); malloc'd, NULL on failure. */
char *rt_response(const ttpu_result *res);

/*
 * Compare output @name of @res with @n values @exp. Returns -1 when equal,
 * else the first differing index (or -2 when missing or of another size),
 * with a description in @why.
 */
long rt_cmp(const ttpu_result *res, const char *name, const int32_t *exp,
	    size_t n, char *why, size_t len);

/*
 * Whether @err points where expected; NULL expectations are not checked, a
 * @field ending in '*' is a prefix. Describes the first difference in @why.
 */
int rt_where(const struct ttpu_error *err, const char *field, long command,
	     const char *op, const char *buffer, char *why, size_t len);

/* Assert a failure of @kind at the given place (see rt_where). */
#define ASSERT_ERROR_AT(kind_, rc, err, field, command, op, buffer) do { \
	char rt_why_[512]; \
	ASSERT_KIND(kind_, rc, err); \
	ASSERT_NE('\0', (err).message[0]); \
	ASSERT_TRUE(rt_where(&(err), (field), (command), (op), (buffer), \
			     rt_why_, sizeof(rt_why_))) { \
		TH_LOG("%s", rt_why_); \
	} \
} while (0)

#define RT_N(a) (sizeof(a) / sizeof((a)[0]))

/* Assert output @name of @res equals the listed values. */
#define ASSERT_OUTPUT(res, name, ...) do { \
	static const int32_t rt_exp_[] = { __VA_ARGS__ }; \
	char rt_why_[256]; \
	ASSERT_EQ(-1L, rt_cmp((res), (name), rt_exp_, RT_N(rt_exp_), \
			       rt_why_, sizeof(rt_why_))) { \
		TH_LOG("%s", rt_why_); \
	} \
} while (0)

/* Assert a failure of @kind, logging the error when it is another. */
#define ASSERT_KIND(kind_, rc, err) \
	ASSERT_EQ(-(int)(kind_), (rc)) { \
		TH_LOG("got %d %s: %s", (rc), \
		       ttpu_error_kind_name((err).kind), (err).message); \
	}

/* Assert the "where" of a failed command. */
#define ASSERT_AT_COMMAND(err, idx, opname) do { \
	ASSERT_EQ((long)(idx), (err).command) { TH_LOG("%s", (err).message); } \
	ASSERT_STREQ((opname), (err).op); \
} while (0)

#define ASSERT_AT_ELEMENT(err, buf, elem, r, c) do { \
	ASSERT_STREQ((buf), (err).buffer) { TH_LOG("%s", (err).message); } \
	ASSERT_EQ((long)(elem), (err).element); \
	ASSERT_EQ((long)(r), (err).row); \
	ASSERT_EQ((long)(c), (err).col); \
} while (0)

#endif /* RT_H */
