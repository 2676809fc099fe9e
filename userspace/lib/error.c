// SPDX-License-Identifier: MIT
/*
 * error.c - struct ttpu_error helpers and the contract's kind names
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "text_utf8.h"

static const char *const kind_names[] = {
	[TTPU_OK] = "OK",
	[TTPU_SCHEMA_ERROR] = "SchemaError",
	[TTPU_INPUT_ERROR] = "InputError",
	[TTPU_RANGE_ERROR] = "RangeError",
	[TTPU_ESTIMATE_MISMATCH] = "EstimateMismatch",
	[TTPU_DEVICE_ERROR] = "DeviceError",
	[TTPU_USAGE_ERROR] = "UsageError",
	[TTPU_SYSTEM_ERROR] = "SystemError",
};

const char *ttpu_error_kind_name(enum ttpu_error_kind kind)
{
	if ((unsigned int)kind >= sizeof(kind_names) / sizeof(kind_names[0]))
		return "UnknownError";
	return kind_names[kind];
}

void ttpu_error_clear(struct ttpu_error *err)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->command = -1;
	err->element = -1;
	err->row = -1;
	err->col = -1;
}

static int error_vset(struct ttpu_error *err, enum ttpu_error_kind kind,
		      const char *fmt, va_list ap)
{
	if (err) {
		ttpu_error_clear(err);
		err->kind = kind;
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		/* Cut at a character, never inside one; echoed bytes made valid. */
		ttpu_utf8_fix(err->message, sizeof(err->message));
	}
	return -(int)kind;
}

int ttpu_error_set(struct ttpu_error *err, enum ttpu_error_kind kind,
		   const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = error_vset(err, kind, fmt, ap);
	va_end(ap);
	return ret;
}

int ttpu_error_sys(struct ttpu_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	error_vset(err, TTPU_SYSTEM_ERROR, fmt, ap);
	va_end(ap);
	if (err) {
		n = strlen(err->message);
		snprintf(err->message + n, sizeof(err->message) - n, ": %s",
			 strerror(errnum));
		ttpu_utf8_fix(err->message, sizeof(err->message));
		err->sys_errno = errnum;
	}
	return -TTPU_SYSTEM_ERROR;
}

int ttpu_error_nomem(struct ttpu_error *err, const char *what)
{
	return ttpu_error_sys(err, ENOMEM, "out of memory while %s", what);
}

void ttpu_error_at_command(struct ttpu_error *err, long command, const char *op)
{
	if (!err)
		return;
	err->command = command;
	snprintf(err->op, sizeof(err->op), "%s", op ? op : "");
	ttpu_utf8_fix(err->op, sizeof(err->op));
}

void ttpu_error_at_field(struct ttpu_error *err, const char *field)
{
	if (!err)
		return;
	snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
	ttpu_utf8_fix(err->field, sizeof(err->field));
}

void ttpu_error_at_buffer(struct ttpu_error *err, const char *name)
{
	if (!err)
		return;
	snprintf(err->buffer, sizeof(err->buffer), "%s", name ? name : "");
	ttpu_utf8_fix(err->buffer, sizeof(err->buffer));
}

void ttpu_error_at_element(struct ttpu_error *err, long element, long row,
			   long col)
{
	if (!err)
		return;
	err->element = element;
	err->row = row;
	err->col = col;
}
