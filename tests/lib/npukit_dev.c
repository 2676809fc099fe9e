// SPDX-License-Identifier: MIT
/*
 * npukit_dev.c - the NpuKit device under test: node, debugfs knobs,
 * stats counters (see npukit_dev.h).
 */
#include "npukit_dev.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *npu_device_path(void)
{
	const char *p = getenv("NPUKIT_DEVICE");

	return p && *p ? p : "/dev/npukit0";
}

int npu_have_device(void)
{
	return access(npu_device_path(), F_OK) == 0;
}

static int npu_env_set(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

int npu_device_required(void)
{
	return npu_env_set("NPUKIT_REQUIRE_DEVICE");
}

int npu_no_debugfs(void)
{
	return npu_env_set("NPUKIT_NO_DEBUGFS");
}

int npu_device_per_process(void)
{
	return npu_env_set("NPUKIT_DEVICE_PER_PROCESS");
}

void npu_debugfs_path(char *buf, size_t len, const char *file)
{
	const char *dir = getenv("NPUKIT_DEBUGFS");
	const char *dev = strrchr(npu_device_path(), '/');

	if (dir && *dir)
		snprintf(buf, len, "%s/%s", dir, file);
	else
		snprintf(buf, len, "/sys/kernel/debug/npukit/%s/%s",
			 dev ? dev + 1 : npu_device_path(), file);
}

void npu_sysfs_path(char *buf, size_t len, const char *file)
{
	char node[256];

	snprintf(node, sizeof(node), "%s", npu_device_path());
	snprintf(buf, len, "/sys/class/misc/%s/%s", basename(node), file);
}

const char *npu_sysfs_read(const char *file)
{
	static char val[128];
	char path[512];
	ssize_t n;
	int fd;

	npu_sysfs_path(path, sizeof(path), file);
	val[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return val;
	n = read(fd, val, sizeof(val) - 1);
	close(fd);
	if (n <= 0 || val[n - 1] != '\n') {
		val[0] = '\0';
		return val;
	}
	val[n - 1] = '\0';
	return val;
}

int npu_sysfs_write(const char *file, const char *val)
{
	char path[512];
	size_t len = strlen(val);
	int fd, ret;

	npu_sysfs_path(path, sizeof(path), file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write(fd, val, len) == (ssize_t)len ? 0 : (errno ? -errno : -EIO);
	close(fd);
	return ret;
}

int npu_knob_write(const char *knob, unsigned long val)
{
	char path[256], s[32];
	int fd, n, ret;

	npu_debugfs_path(path, sizeof(path), knob);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(s, sizeof(s), "%lu\n", val);
	/* the write's errno matters: "reset" fails with EIO when it cannot prove the device clean */
	ret = write(fd, s, (size_t)n) == n ? 0 : (errno ? -errno : -EIO);
	close(fd);
	return ret;
}

long npu_knob_read(const char *knob)
{
	char path[256], s[32] = "";
	ssize_t n;
	int fd;

	npu_debugfs_path(path, sizeof(path), knob);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, s, sizeof(s) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	/* debugfs bools read "Y" or "N" */
	if (s[0] == 'Y' || s[0] == 'N')
		return s[0] == 'Y';
	return strtol(s, NULL, 0);
}

long long npu_stat(const char *name)
{
	char path[256], line[128];
	long long val = -1, v;
	size_t len = strlen(name);
	FILE *f;

	npu_debugfs_path(path, sizeof(path), "stats");
	f = fopen(path, "re");
	if (!f)
		return -1;
	/* Line by line: some values (backend) are words, not numbers. */
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ' ' &&
		    sscanf(line + len, "%lld", &v) == 1)
			val = v;
	fclose(f);
	return val;
}
