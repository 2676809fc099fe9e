// SPDX-License-Identifier: MIT
/*
 * program_binary_rules.c - what the JSON loader requires of one command
 * (program_read_commands.c, program_validate.c), asked of a compiled
 * program's command record, whose buffers are indexes rather than names
 *
 * The same rules in the same order, with the JSON loader's message after
 * "compiled program: ": an op it knows; relu only on acc and epilogue;
 * every buffer a command names exists; windows on rank-2 buffers; pass
 * operands i8; a bias rank-1 with an element per dst column; host_add's
 * and host_relu's shapes. Besides, what the JSON loader leaves 0 is 0
 * (the reserved bytes, the bytes past the op's fields), so that a file
 * holds one program in one way. The slots, pass ids and accs' passes
 * concern the commands together: program_binary_check.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "program_binary_check.h"

/* Bytes of a command record that the op's fields fill: the rest is 0. */
static const unsigned char used_bytes[TTPU_OP_COUNT] = {
	[TTPU_OP_ALLOC] = 8, [TTPU_OP_PASS] = 32, [TTPU_OP_ACC] = 24,
	[TTPU_OP_EPILOGUE] = 20, [TTPU_OP_HOST_ADD] = 16, [TTPU_OP_HOST_RELU] = 12,
};

struct rule_ctx {
	const struct ttpu_program *p;
	const struct ttpu_command *c;
	size_t i;
	struct ttpu_error *err;
};

__attribute__((format(printf, 4, 5)))
static int broken(const struct rule_ctx *x, const char *field, const struct ttpu_buffer *b,
		  const char *fmt, ...)
{
	char msg[TTPU_ERROR_MESSAGE_MAX - 64], path[64];
	const char *op = x->c->op < TTPU_OP_COUNT ? ttpu_op_names[x->c->op] : "?";
	va_list ap;

	if (!x->err)
		return -TTPU_SCHEMA_ERROR;
	snprintf(path, sizeof(path), "commands[%zu]%s%s", x->i, *field ? "." : "", field);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ttpu_binary_error(x->err, "%s: %s (op %s)", path, msg, op);
	ttpu_error_at_command(x->err, (long)x->i, op);
	ttpu_error_at_field(x->err, path);
	if (b)
		ttpu_error_at_buffer(x->err, b->name);
	return -TTPU_SCHEMA_ERROR;
}

/* Buffer @idx of field @field, or NULL (an error set). */
static const struct ttpu_buffer *buffer(const struct rule_ctx *x, const char *field,
					uint32_t idx, int *ret)
{
	if (idx < x->p->nbuffers)
		return &x->p->buffers[idx];
	*ret = broken(x, field, NULL, "no buffer %u (the program has %zu)", idx,
		      x->p->nbuffers);
	return NULL;
}

static int window(const struct rule_ctx *x, const char *field, const struct ttpu_window *w,
		  bool need_i8)
{
	int ret = 0;
	const struct ttpu_buffer *b = buffer(x, field, w->buf, &ret);

	if (!b)
		return ret;
	if (b->rank != 2)
		return broken(x, field, b, "a window needs a rank-2 buffer; \"%s\" has rank 1",
			      b->name);
	if (need_i8 && b->dtype != TTPU_DTYPE_I8)
		return broken(x, field, b, "pass operands must be i8; \"%s\" is i32", b->name);
	return 0;
}

static int epilogue(const struct rule_ctx *x, const struct ttpu_window *dst, uint32_t bias)
{
	const struct ttpu_buffer *d, *b;
	char s[48];
	int ret = window(x, "dst.buf", dst, false);

	if (ret || bias == TTPU_NO_BUFFER)
		return ret;
	b = buffer(x, "bias", bias, &ret);
	if (!b)
		return ret;
	d = &x->p->buffers[dst->buf];
	if (b->rank != 1 || b->cols < d->cols)
		return broken(x, "bias", b,
			      "bias \"%s\" must be rank-1 with at least %u elements (the columns of \"%s\"), it has shape %s",
			      b->name, d->cols, d->name, ttpu_buffer_shape_str(b, s, sizeof(s)));
	return 0;
}

static int host_add(const struct rule_ctx *x)
{
	const struct ttpu_buffer *d, *a, *b, *res;
	char sd[48], sa[48], sb[48];
	int ret = 0;

	if (!(d = buffer(x, "dst", x->c->u.add.dst, &ret)) ||
	    !(a = buffer(x, "a", x->c->u.add.a, &ret)) ||
	    !(b = buffer(x, "b", x->c->u.add.b, &ret)))
		return ret;
	res = ttpu_add_result_shape(a, b);
	if (!res)
		return broken(x, "b", b,
			      "shapes %s (\"%s\") and %s (\"%s\") do not match: they must be equal, or one rank-1 of the other's column count",
			      ttpu_buffer_shape_str(a, sa, sizeof(sa)), a->name,
			      ttpu_buffer_shape_str(b, sb, sizeof(sb)), b->name);
	if (!ttpu_buffer_same_shape(d, res))
		return broken(x, "dst", d, "dst \"%s\" has shape %s, the sum has shape %s",
			      d->name, ttpu_buffer_shape_str(d, sd, sizeof(sd)), ttpu_buffer_shape_str(res, sa, sizeof(sa)));
	return 0;
}

static int host_relu(const struct rule_ctx *x)
{
	const struct ttpu_buffer *d, *s;
	char sd[48], ss[48];
	int ret = 0;

	if (!(d = buffer(x, "dst", x->c->u.relu.dst, &ret)) ||
	    !(s = buffer(x, "src", x->c->u.relu.src, &ret)))
		return ret;
	if (!ttpu_buffer_same_shape(d, s))
		return broken(x, "dst", d,
			      "dst \"%s\" has shape %s, src \"%s\" has shape %s: they must be equal",
			      d->name, ttpu_buffer_shape_str(d, sd, sizeof(sd)), s->name, ttpu_buffer_shape_str(s, ss, sizeof(ss)));
	return 0;
}

int ttpu_binary_command_rules(const struct ttpu_program *p, size_t i, struct ttpu_error *err)
{
	const struct ttpu_command *c = &p->cmds[i];
	const struct rule_ctx x = { .p = p, .c = c, .i = i, .err = err };
	const unsigned char *raw = (const unsigned char *)c;

	if (c->op >= TTPU_OP_COUNT)
		return broken(&x, "op", NULL, "unknown op %u", c->op);
	if (c->relu > (c->op == TTPU_OP_ACC || c->op == TTPU_OP_EPILOGUE))
		return broken(&x, "relu", NULL, "relu %u where %s", c->relu,
			      c->op == TTPU_OP_ACC || c->op == TTPU_OP_EPILOGUE ?
			      "it is true (1) or false (0)" : "the op has none (0)");
	if (c->reserved)
		return broken(&x, "", NULL, "reserved bytes are %#x, not 0", c->reserved);
	for (size_t k = used_bytes[c->op]; k < sizeof(*c); k++)
		if (raw[k])
			return broken(&x, "", NULL, "byte %zu of the record is %u, not 0: the op has no field there",
				      k, raw[k]);
	switch (c->op) {
	case TTPU_OP_ALLOC: {
		int ret = 0;

		return buffer(&x, "buf", c->u.alloc.buf, &ret) ? 0 : ret;
	}
	case TTPU_OP_PASS: {
		int ret = window(&x, "a.buf", &c->u.pass.a, true);

		return ret ? ret : window(&x, "b.buf", &c->u.pass.b, true);
	}
	case TTPU_OP_ACC:
		return epilogue(&x, &c->u.acc.dst, c->u.acc.bias);
	case TTPU_OP_EPILOGUE:
		return epilogue(&x, &c->u.epilogue.dst, c->u.epilogue.bias);
	case TTPU_OP_HOST_ADD:
		return host_add(&x);
	default:
		return host_relu(&x);
	}
}
