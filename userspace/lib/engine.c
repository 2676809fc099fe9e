// SPDX-License-Identifier: MIT
/*
 * engine.c - choosing an engine
 *
 * AUTO falls back to the software engine only when the device node does
 * not exist: a node that exists but cannot be used is a DeviceError, so a
 * broken board is never silently replaced by the CPU.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "engine.h"
#include "error.h"
#include "run.h"

static const char *const default_nodes[] = { "/dev/npukit0", "/dev/npukit" };

static int node_exists(const char *path, struct ttpu_error *err)
{
	struct stat st;

	if (!stat(path, &st))
		return 1;
	if (errno == ENOENT || errno == ENOTDIR)
		return 0;
	int e = errno;

	ttpu_error_set(err, TTPU_DEVICE_ERROR, "cannot look at %s: %s", path, strerror(e));
	if (err)
		err->sys_errno = e;
	return -TTPU_DEVICE_ERROR;
}

/* The first default node that exists, or NULL in *@node when none does. */
static int find_default_node(const char **node, struct ttpu_error *err)
{
	int ret;

	*node = NULL;
	for (size_t i = 0; i < sizeof(default_nodes) / sizeof(default_nodes[0]); i++) {
		ret = node_exists(default_nodes[i], err);
		if (ret < 0)
			return ret;
		if (ret) {
			*node = default_nodes[i];
			break;
		}
	}
	return 0;
}

/* AUTO found no node: the software engine, saying which node was missing. */
static int software_instead(const char *missing, ttpu_engine **out,
			    struct ttpu_error *err)
{
	int ret = ttpu_software_engine_open(out, err);

	if (!ret)
		snprintf((*out)->reason, sizeof((*out)->reason),
			 "no %s: software engine", missing);
	return ret;
}

int ttpu_engine_open(enum ttpu_engine_choice choice, const char *device,
		     ttpu_engine **out, struct ttpu_error *err)
{
	const char *node = device;
	int ret;

	if (!out)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_engine_open: no engine pointer");
	*out = NULL;
	switch (choice) {
	case TTPU_ENGINE_SOFTWARE:
		return ttpu_software_engine_open(out, err);
	case TTPU_ENGINE_NPUKIT:
		/*
		 * The same default nodes as AUTO, so that forcing the engine
		 * never finds less than AUTO would; with neither present the
		 * error names /dev/npukit0.
		 */
		if (!node) {
			ret = find_default_node(&node, err);
			if (ret < 0)
				return ret;
		}
		return ttpu_npukit_engine_open(node, out, err);
	case TTPU_ENGINE_AUTO:
		break;
	default:
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_engine_open: unknown engine choice %d",
				     (int)choice);
	}

	if (!node) {
		ret = find_default_node(&node, err);
		if (ret < 0)
			return ret;
		if (!node)
			return software_instead("/dev/npukit0 or /dev/npukit", out, err);
	} else {
		ret = node_exists(node, err);
		if (ret < 0)
			return ret;
		if (!ret)
			return software_instead(device, out, err);
	}
	/* The engine's own reason names the node and the IP it found. */
	return ttpu_npukit_engine_open(node, out, err);
}

void ttpu_engine_close(ttpu_engine *eng)
{
	if (eng)
		eng->ops->close(eng);
}

const char *ttpu_engine_name(const ttpu_engine *eng)
{
	return eng ? eng->ops->name : "";
}

const char *ttpu_engine_reason(const ttpu_engine *eng)
{
	return eng ? eng->reason : "";
}
