// SPDX-License-Identifier: MIT
/*
 * info.c - ttpu-run --info: which NpuKit devices there are and what they say
 *
 * For each /dev/npukitN (or the one --device names): GET_INFO (ID, VERSION,
 * FEATURES, limits) and, from sysfs, the state, the counters, polled or
 * interrupt-driven completion and the PL clock
 * (Documentation/ABI/testing/sysfs-driver-npukit); the module's version
 * (/sys/module/npukit/version), the device-tree node's compatible (which
 * overlay the kernel bound it from) and the FPGA managers' state (what the
 * kernel knows of the bitstream), as `xbutil examine` shows a card. The
 * sysfs attributes are readable by anyone, so a user outside group npukit
 * still sees the device, only without the limits that need the node opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <json-c/json.h>

#include "npukit.h"
#include "cli.h"

/* The counters of sysfs stats/, in the order they are shown. */
static const char *const counters[] = {
	"batches", "kicks", "readbacks", "dma_bytes", "errors", "timeouts",
	"dma_errors", "hangs", "interrupted", "device_ns", "recoveries",
	"self_test_failures", "pl_resets", "failed_submits",
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

struct dev_info {
	const char *path;
	bool have_info;			/* GET_INFO answered */
	struct npukit_info info;
	int info_errno;			/* why it did not */
	char id[32], version[32], features[32], backend[32], state[32];
	bool have_sysfs;
	unsigned long long counters[NCOUNTERS];
	bool have_counters;
	char completion[64], pl_clock[32], compatible[128];
};

/* One line of PATH, without its newline (or NUL: device-tree strings); 0 or -1. */
static int line_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* One line of /sys/class/misc/NAME/FILE; 0 or -1. */
static int sysfs_read(const char *name, const char *file, char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "/sys/class/misc/%s/%s", name, file);
	return line_read(path, buf, len);
}

static void dev_info_read(struct dev_info *d, const char *path)
{
	char copy[256], num[32];
	const char *name;
	int fd;

	memset(d, 0, sizeof(*d));
	d->path = path;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		d->info.size = sizeof(d->info);
		if (ioctl(fd, NPUKIT_IOCTL_GET_INFO, &d->info) == 0)
			d->have_info = true;
		else
			d->info_errno = errno;
		close(fd);
	} else {
		d->info_errno = errno;
	}
	snprintf(copy, sizeof(copy), "%s", path);
	name = basename(copy);
	d->have_sysfs = !sysfs_read(name, "id", d->id, sizeof(d->id)) &&
			!sysfs_read(name, "version", d->version, sizeof(d->version)) &&
			!sysfs_read(name, "features", d->features, sizeof(d->features)) &&
			!sysfs_read(name, "backend", d->backend, sizeof(d->backend)) &&
			!sysfs_read(name, "state", d->state, sizeof(d->state));
	d->have_counters = true;
	for (size_t i = 0; i < NCOUNTERS; i++) {
		char file[64];

		snprintf(file, sizeof(file), "stats/%s", counters[i]);
		if (sysfs_read(name, file, num, sizeof(num))) {
			d->have_counters = false;
			break;
		}
		d->counters[i] = strtoull(num, NULL, 10);
	}
	/* Attributes an older module lacks, and the node's device-tree origin */
	if (sysfs_read(name, "completion", d->completion, sizeof(d->completion)))
		d->completion[0] = '\0';
	if (sysfs_read(name, "pl_clock_hz", d->pl_clock, sizeof(d->pl_clock)) ||
	    !strcmp(d->pl_clock, "unknown"))
		d->pl_clock[0] = '\0';
	if (sysfs_read(name, "device/of_node/compatible", d->compatible, sizeof(d->compatible)))
		d->compatible[0] = '\0';
	/* Without sysfs (an older module), GET_INFO still names the device. */
	if (!d->have_sysfs && d->have_info) {
		snprintf(d->id, sizeof(d->id), "0x%08x", d->info.ip_id);
		snprintf(d->version, sizeof(d->version), "0x%08x", d->info.ip_version);
		snprintf(d->features, sizeof(d->features), "0x%08x", d->info.ip_features);
		snprintf(d->backend, sizeof(d->backend), "%s",
			 d->info.backend == NPUKIT_BACKEND_SIMULATED ? "simulated" : "hardware");
	}
}

/* What a failed open or GET_INFO means to the person reading. */
static const char *info_errno_hint(int e)
{
	if (e == EACCES || e == EPERM)
		return " (join group npukit to open it: Documentation/npukit/pynq-z2.rst)";
	return "";
}

static void print_text(FILE *out, const struct dev_info *d)
{
	unsigned long v = strtoul(d->version, NULL, 16);
	unsigned long f = strtoul(d->features, NULL, 16);

	if (d->have_sysfs || d->have_info)
		fprintf(out, "%s: NpuKit ID=%s VERSION=%#lx FEATURES=%#lx, %s, state %s\n", d->path,
		       d->id, v, f, d->backend, d->have_sysfs ? d->state : "unknown");
	else
		fprintf(out, "%s: not an NpuKit, or no sysfs: %s\n", d->path, strerror(d->info_errno));
	if (d->have_info)
		fprintf(out, "  GET_INFO: UAPI %u, array %ux%u, max_kicks %u, max_results %u, dma_max_bytes %u, kick_size %u\n",
		       d->info.uapi_version, d->info.array_n, d->info.array_n, d->info.max_kicks,
		       d->info.max_results, d->info.dma_max_bytes, d->info.kick_size);
	else
		fprintf(out, "  GET_INFO: %s%s\n", strerror(d->info_errno), info_errno_hint(d->info_errno));
	fprintf(out, "  driver: completion %s, PL clock %s%s, node %s\n",
		d->completion[0] ? d->completion : "unknown",
		d->pl_clock[0] ? d->pl_clock : "unknown", d->pl_clock[0] ? " Hz" : "",
		d->compatible[0] ? d->compatible : "without a device-tree node");
	if (d->have_counters) {
		fprintf(out, "  counters:");
		for (size_t i = 0; i < NCOUNTERS; i++)
			fprintf(out, "%s %s %llu", i ? "," : "", counters[i], d->counters[i]);
		fprintf(out, "\n");
	}
}

static int add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

/* @key: @v when @have (and then @v must exist), else JSON null */
static int add_or_null(struct json_object *o, const char *key, bool have, struct json_object *v)
{
	if (have)
		return add(o, key, v);
	json_object_put(v);
	return json_object_object_add(o, key, NULL) ? -1 : 0;
}

static struct json_object *to_json(const struct dev_info *d)
{
	struct json_object *o = json_object_new_object(), *c;
	int bad = !o;

	if (bad)
		return NULL;
	bad |= add(o, "path", json_object_new_string(d->path));
	if (d->have_sysfs || d->have_info) {
		bad |= add(o, "id", json_object_new_string(d->id));
		bad |= add(o, "version", json_object_new_string(d->version));
		bad |= add(o, "features", json_object_new_string(d->features));
		bad |= add(o, "backend", json_object_new_string(d->backend));
	}
	if (d->have_sysfs)
		bad |= add(o, "state", json_object_new_string(d->state));
	if (d->completion[0])
		bad |= add(o, "completion", json_object_new_string(d->completion));
	bad |= add_or_null(o, "plClockHz", d->pl_clock[0],
			   json_object_new_int64((int64_t)strtoll(d->pl_clock, NULL, 10)));
	bad |= add_or_null(o, "compatible", d->compatible[0],
			   json_object_new_string(d->compatible));
	if (d->have_info) {
		bad |= add(o, "uapiVersion", json_object_new_int64(d->info.uapi_version));
		bad |= add(o, "arrayN", json_object_new_int64(d->info.array_n));
		bad |= add(o, "maxKicks", json_object_new_int64(d->info.max_kicks));
		bad |= add(o, "maxResults", json_object_new_int64(d->info.max_results));
		bad |= add(o, "dmaMaxBytes", json_object_new_int64(d->info.dma_max_bytes));
		bad |= add(o, "kickSize", json_object_new_int64(d->info.kick_size));
	} else {
		bad |= add(o, "getInfoError", json_object_new_string(strerror(d->info_errno)));
	}
	if (d->have_counters) {
		c = json_object_new_object();
		bad |= add(o, "counters", c);
		for (size_t i = 0; c && i < NCOUNTERS; i++)
			bad |= add(c, counters[i], json_object_new_int64((int64_t)d->counters[i]));
	}
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/*
 * What the kernel knows beyond the nodes: the module's version, and each
 * FPGA manager's name and state (whether a bitstream is loaded).
 */
struct host_info {
	char module_version[64];
	size_t nfpga;
	struct {
		char dev[32], name[96], state[48];
	} fpga[4];
};

static void host_info_read(struct host_info *h)
{
	glob_t g = { 0 };

	memset(h, 0, sizeof(*h));
	if (line_read("/sys/module/npukit/version", h->module_version, sizeof(h->module_version)))
		h->module_version[0] = '\0';
	if (glob("/sys/class/fpga_manager/*", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && h->nfpga < 4; i++) {
			char path[512], *base = strrchr(g.gl_pathv[i], '/');

			snprintf(h->fpga[h->nfpga].dev, sizeof(h->fpga[0].dev), "%s", base ? base + 1 : "");
			snprintf(path, sizeof(path), "%s/name", g.gl_pathv[i]);
			if (line_read(path, h->fpga[h->nfpga].name, sizeof(h->fpga[0].name)))
				h->fpga[h->nfpga].name[0] = '\0';
			snprintf(path, sizeof(path), "%s/state", g.gl_pathv[i]);
			if (line_read(path, h->fpga[h->nfpga].state, sizeof(h->fpga[0].state)))
				snprintf(h->fpga[h->nfpga].state, sizeof(h->fpga[0].state), "unknown");
			h->nfpga++;
		}
	}
	globfree(&g);
}

static void host_print_text(FILE *out, const struct host_info *h)
{
	fprintf(out, "npukit module %s", h->module_version[0] ? h->module_version : "(no version: not loaded as a module)");
	for (size_t i = 0; i < h->nfpga; i++)
		fprintf(out, "; %s %s: %s", h->fpga[i].dev, h->fpga[i].name, h->fpga[i].state);
	fprintf(out, "\n");
}

static struct json_object *host_to_json(const struct host_info *h, struct json_object *root)
{
	struct json_object *list = json_object_new_array();
	int bad = !list;

	bad |= add_or_null(root, "moduleVersion", h->module_version[0],
			   json_object_new_string(h->module_version));
	bad |= add(root, "fpgaManagers", list);
	for (size_t i = 0; !bad && i < h->nfpga; i++) {
		struct json_object *f = json_object_new_object();

		bad |= !f || json_object_array_add(list, f);
		if (bad) {
			json_object_put(f);
			break;
		}
		bad |= add(f, "device", json_object_new_string(h->fpga[i].dev));
		bad |= add(f, "name", json_object_new_string(h->fpga[i].name));
		bad |= add(f, "state", json_object_new_string(h->fpga[i].state));
	}
	return bad ? NULL : root;
}

/* Sort /dev/npukit2 before /dev/npukit10. */
static int by_number(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);

	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

int cli_info(const char *device, bool json, FILE *out, struct ttpu_error *err)
{
	struct json_object *root = NULL, *list = NULL;
	const char *one[1] = { device };
	const char **paths = one;
	size_t n = 1, unknown = 0;
	struct dev_info *ds = NULL;
	struct host_info host;
	glob_t g = { 0 };
	int ret = 0;

	if (!device) {
		int gr = glob("/dev/npukit[0-9]*", 0, NULL, &g);

		if (gr == GLOB_NOSPACE)
			return ttpu_error_sys(err, ENOMEM, "listing /dev/npukit*");
		if (gr || !g.gl_pathc) {
			globfree(&g);
			return ttpu_error_set(err, TTPU_DEVICE_ERROR,
					      "no /dev/npukit0 or other NpuKit node: load the bitstream and its overlay, then the module; see Documentation/npukit/pynq-z2.rst");
		}
		paths = (const char **)g.gl_pathv;
		n = g.gl_pathc;
		qsort(paths, n, sizeof(*paths), by_number);
	} else if (access(device, F_OK)) {
		int e = errno;

		ttpu_error_set(err, TTPU_DEVICE_ERROR, "%s: %s%s", device, strerror(e),
			       e == ENOENT ? ": load the bitstream and its overlay, then the module; see Documentation/npukit/pynq-z2.rst" : "");
		if (err)
			err->sys_errno = e;
		return -TTPU_DEVICE_ERROR;
	}
	ds = calloc(n, sizeof(*ds));
	if (!ds) {
		globfree(&g);
		return ttpu_error_sys(err, ENOMEM, "--info");
	}
	for (size_t i = 0; i < n; i++) {
		dev_info_read(&ds[i], paths[i]);
		if (!ds[i].have_info && !ds[i].have_sysfs)
			unknown++;
	}
	/* Nothing listed answered as an NpuKit: an error, and nothing else on stdout. */
	if (unknown == n) {
		ret = ttpu_error_set(err, TTPU_DEVICE_ERROR, "%s: not an NpuKit device (GET_INFO: %s)",
				     device ? device : "/dev/npukit*", strerror(ds[0].info_errno));
		goto out;
	}
	host_info_read(&host);
	if (!json) {
		host_print_text(out, &host);
		for (size_t i = 0; i < n; i++)
			print_text(out, &ds[i]);
		goto out;
	}
	root = json_object_new_object();
	list = json_object_new_array();
	if (!root || !list || json_object_object_add(root, "devices", list)) {
		json_object_put(list);
		ret = ttpu_error_sys(err, ENOMEM, "--info");
		goto out;
	}
	if (!host_to_json(&host, root)) {
		ret = ttpu_error_sys(err, ENOMEM, "--info");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = to_json(&ds[i]);

		if (!o || json_object_array_add(list, o)) {
			json_object_put(o);
			ret = ttpu_error_sys(err, ENOMEM, "--info");
			goto out;
		}
	}
	if (fprintf(out, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_SPACED |
							       JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		ret = ttpu_error_sys(err, errno ? errno : EIO, "writing the device list");
out:
	json_object_put(root);
	free(ds);
	globfree(&g);
	return ret;
}
