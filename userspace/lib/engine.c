// SPDX-License-Identifier: MIT
/*
 * engine.c - the engine table, and choosing an engine from it
 *
 * Every engine is one entry of engines[] (its name, whether it is present
 * on this machine, how to open it) and one engine_<name>.c file; the
 * public enum ttpu_engine_choice is the entry's index, and the names users
 * type (ttpu-run --engine) come from here through
 * ttpu_engine_choice_name() and ttpu_engine_choice_parse().
 *
 * AUTO opens the first engine present, in table order: the NpuKit when its
 * device node exists, else the CPU. An engine that is present but cannot
 * be opened is an error, never a reason to try the next one, so a broken
 * board is never silently replaced by the CPU.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "error.h"

static const struct ttpu_engine_type *const engines[] = {
	[TTPU_ENGINE_NPUKIT] = &ttpu_npukit_engine_type,
	[TTPU_ENGINE_SOFTWARE] = &ttpu_software_engine_type,
};

#define NENGINES (sizeof(engines) / sizeof(engines[0]))

static const char auto_name[] = "auto";

const char *ttpu_engine_choice_name(enum ttpu_engine_choice choice)
{
	if (choice == TTPU_ENGINE_AUTO)
		return auto_name;
	if ((size_t)choice < NENGINES && engines[choice])
		return engines[choice]->name;
	return NULL;
}

int ttpu_engine_choice_parse(const char *name, enum ttpu_engine_choice *choice,
			     struct ttpu_error *err)
{
	char names[128] = "";
	size_t len = 0, count = 0, c;

	if (!name || !choice)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_engine_choice_parse: NULL argument");
	for (; ttpu_engine_choice_name((enum ttpu_engine_choice)count); count++) {
		if (!strcmp(name, ttpu_engine_choice_name((enum ttpu_engine_choice)count))) {
			*choice = (enum ttpu_engine_choice)count;
			return 0;
		}
	}
	/* "auto, npukit or software": every name, from the table. */
	for (c = 0; c < count && len < sizeof(names); c++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
					!c ? "" : c + 1 == count ? " or " : ", ",
					ttpu_engine_choice_name((enum ttpu_engine_choice)c));
	return ttpu_error_set(err, TTPU_USAGE_ERROR,
			      "unknown engine '%s' (expected %s)", name, names);
}

static int open_entry(size_t i, const char *device, ttpu_engine **out,
		      struct ttpu_error *err)
{
	int ret = engines[i]->open(device, out, err);

	if (!ret)
		(*out)->type = engines[i];
	return ret;
}

/*
 * AUTO: the first engine present. When an earlier one was missing, the
 * reason says what was missing ("no /dev/npukit0: software engine").
 */
static int open_auto(const char *device, ttpu_engine **out,
		     struct ttpu_error *err)
{
	char why[128] = "";
	size_t i;
	int ret;

	for (i = 0; i < NENGINES; i++) {
		char missing[sizeof(why)] = "";

		if (!engines[i])
			continue;
		ret = engines[i]->present(device, missing, sizeof(missing), err);
		if (ret < 0)
			return ret;
		if (!ret) {
			if (!why[0])
				snprintf(why, sizeof(why), "%s", missing);
			continue;
		}
		ret = open_entry(i, device, out, err);
		if (!ret && why[0])
			snprintf((*out)->reason, sizeof((*out)->reason),
				 "%s: %s engine", why, engines[i]->name);
		return ret;
	}
	return ttpu_error_set(err, TTPU_DEVICE_ERROR, "no engine is present (%s)", why);
}

int ttpu_engine_open(enum ttpu_engine_choice choice, const char *device,
		     ttpu_engine **out, struct ttpu_error *err)
{
	if (!out)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_engine_open: no engine pointer");
	*out = NULL;
	if (choice == TTPU_ENGINE_AUTO)
		return open_auto(device, out, err);
	if ((size_t)choice >= NENGINES || !engines[choice])
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_engine_open: unknown engine choice %d",
				      (int)choice);
	return open_entry((size_t)choice, device, out, err);
}

void ttpu_engine_close(ttpu_engine *eng)
{
	if (eng)
		eng->ops->close(eng);
}

const char *ttpu_engine_name(const ttpu_engine *eng)
{
	return eng && eng->type ? eng->type->name : "";
}

const char *ttpu_engine_reason(const ttpu_engine *eng)
{
	return eng ? eng->reason : "";
}
