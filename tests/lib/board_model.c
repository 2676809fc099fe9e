// SPDX-License-Identifier: MIT
/*
 * board_model.c - the model's CPU share and the C++ host's sequence on
 * the model (see board_model.h).
 */
#include "board_model.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "npukit_dev.h"

/*
 * The uncertain constants: default and range, ns per unit
 * (Documentation/npukit/board-time.rst gives the sources).
 */
static const struct {
	const char *name;
	double lo, def, hi;
	size_t count;		/* offset in struct board_counts */
	int bound;		/* the row is a bound, not exact */
} constants[] = {
	{ "read round trip", 150, 250, 400, offsetof(struct board_counts, reads), 1 },
	{ "DMA setup (first beat)", 100, 200, 500, offsetof(struct board_counts, transfers), 1 },
	{ "line L1+L2", 25, 60, 150, offsetof(struct board_counts, lines), 0 },
	{ "sync call", 150, 300, 600, offsetof(struct board_counts, syncs), 0 },
	{ "syscall", 700, 1500, 3000, offsetof(struct board_counts, syscalls), 0 },
	{ "copy per byte", 0.25, 0.5, 1.5, offsetof(struct board_counts, copy_bytes), 0 },
	{ "driver code per kick", 442.5, 590, 885, offsetof(struct board_counts, kicks), 0 },
	{ "driver code per read-back", 307.5, 410, 615,
	  offsetof(struct board_counts, readbacks), 0 },
	{ "host code per kick", 300, 500, 1500, offsetof(struct board_counts, host_kicks), 0 },
};

void board_sensitivity(const char *who, const struct board_counts *n, double base_us)
{
	for (size_t i = 0; i < sizeof(constants) / sizeof(constants[0]); i++) {
		double cnt = *(const double *)((const char *)n + constants[i].count);
		double lo = base_us + cnt * (constants[i].lo - constants[i].def) / 1e3;
		double hi = base_us + cnt * (constants[i].hi - constants[i].def) / 1e3;

		printf("# bench: %-10s %-24s %7.2f..%-7.2f ns: %10.3f .. %10.3f%s\n", who,
		       constants[i].name, constants[i].lo, constants[i].hi, lo, hi,
		       constants[i].bound ? " (bound)" : "");
	}
}

int board_cpu_read(struct board_cpu *c)
{
	c->ns = npu_stat("sim_cpu_ns");
	c->syscalls = npu_stat("sim_cpu_syscalls");
	c->syncs = npu_stat("sim_cpu_syncs");
	c->lines = npu_stat("sim_cpu_lines");
	c->copy_bytes = npu_stat("sim_cpu_copy_bytes");
	return c->ns < 0 ? -1 : 0;
}

void board_cpu_diff(const struct board_cpu *after, const struct board_cpu *before,
		    struct board_cpu *d)
{
	d->ns = after->ns - before->ns;
	d->syscalls = after->syscalls - before->syscalls;
	d->syncs = after->syncs - before->syncs;
	d->lines = after->lines - before->lines;
	d->copy_bytes = after->copy_bytes - before->copy_bytes;
}

/* One "name value" line of the legacy file's answer. */
static uint64_t field(const char *text, const char *name)
{
	size_t len = strlen(name);
	unsigned long long v;
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, name, len) && p[len] == ' ' && sscanf(p + len, "%llu", &v) == 1)
			return v;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int board_host_run(uint32_t kicks, uint32_t krun, enum board_path path,
		   struct board_host_run *r)
{
	char file[256], cmd[64], out[512];
	ssize_t n;
	int fd, len, ret = 0;

	npu_debugfs_path(file, sizeof(file), "legacy");
	fd = open(file, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(cmd, sizeof(cmd), "%u %u %d\n", kicks, krun, (int)path);
	if (write(fd, cmd, (size_t)len) != len)
		ret = errno ? -errno : -EIO;
	n = ret ? -1 : pread(fd, out, sizeof(out) - 1, 0);
	if (!ret && n <= 0)
		ret = -EIO;
	close(fd);
	if (ret)
		return ret;
	out[n] = '\0';
	r->kicks = field(out, "kicks");
	r->outputs = field(out, "outputs");
	r->bus_ns = field(out, "bus_ns");
	r->cpu_ns = field(out, "cpu_ns");
	r->reads = field(out, "reads");
	r->writes = field(out, "writes");
	r->syscalls = field(out, "syscalls");
	r->syncs = field(out, "syncs");
	r->lines = field(out, "lines");
	r->copy_bytes = field(out, "copy_bytes");
	return r->kicks == kicks ? 0 : -EIO;
}

double board_host_us(const struct board_host_run *r)
{
	return r->kicks ? (r->bus_ns + r->cpu_ns) / 1e3 / r->kicks : 0.0;
}

void board_host_counts(const struct board_host_run *r, struct board_counts *n)
{
	double k = r->kicks ? (double)r->kicks : 1.0;

	*n = (struct board_counts){
		.reads = r->reads / k,
		.transfers = (r->kicks + r->outputs) / k,
		.syscalls = r->syscalls / k,
		.syncs = r->syncs / k,
		.lines = r->lines / k,
		.copy_bytes = r->copy_bytes / k,
		.host_kicks = 1.0,
	};
}
