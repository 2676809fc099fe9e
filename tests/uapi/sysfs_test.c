// SPDX-License-Identifier: GPL-2.0
/*
 * The node's sysfs attributes (Documentation/ABI/testing/sysfs-driver-npukit):
 * they say what GET_INFO and debugfs say, follow the counters and the failed
 * state, and anyone may read them (read here as user nobody).
 */
#include <grp.h>
#include <libgen.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "npukit_test.h"

/* /sys/class/misc/<node's name>/@file into @buf */
static void sysfs_path(char *buf, size_t len, const char *file)
{
	char node[256];

	snprintf(node, sizeof(node), "%s", npu_device_path());
	snprintf(buf, len, "/sys/class/misc/%s/%s", basename(node), file);
}

/* The attribute's one line without its newline, or "" when unreadable. */
static const char *sysfs_read(const char *file)
{
	static char val[128];
	char path[512];
	ssize_t n;
	int fd;

	sysfs_path(path, sizeof(path), file);
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

static unsigned long long sysfs_num(const char *file)
{
	return strtoull(sysfs_read(file), NULL, 0);
}

static const char *const attrs[] = {
	"id", "version", "features", "array_n", "backend", "state",
	"completion", "pl_clock_hz", "stats/batches", "stats/kicks", "stats/readbacks", "stats/dma_bytes",
	"stats/errors", "stats/timeouts", "stats/dma_errors", "stats/hangs",
	"stats/interrupted", "stats/device_ns", "stats/recoveries",
	"stats/self_test_failures", "stats/pl_resets", "stats/failed_submits",
};

NPU_TEST(values_are_get_info)
{
	char want[32];

	snprintf(want, sizeof(want), "0x%08x", self->info.ip_id);
	ASSERT_STREQ(want, sysfs_read("id"));
	snprintf(want, sizeof(want), "0x%08x", self->info.ip_version);
	ASSERT_STREQ(want, sysfs_read("version"));
	snprintf(want, sizeof(want), "0x%08x", self->info.ip_features);
	ASSERT_STREQ(want, sysfs_read("features"));
	ASSERT_EQ(self->info.array_n, sysfs_num("array_n"));
	ASSERT_STREQ(self->info.backend == NPUKIT_BACKEND_SIMULATED ? "simulated" : "hardware",
		     sysfs_read("backend"));
}

/*
 * completion: "polled" or "interrupt" and its channels; pl_clock_hz: a
 * rate on hardware with a clock, "unknown" on the simulator (no clock);
 * the module says its version.
 */
NPU_TEST(completion_clock_and_module_version)
{
	static const char *const modes[] = {
		"polled", "interrupt mm2s s2mm", "interrupt mm2s", "interrupt s2mm",
	};
	char mode[128], ver[64] = "";
	const char *clock;
	bool known = false;
	int fd;
	ssize_t n;

	snprintf(mode, sizeof(mode), "%s", sysfs_read("completion"));
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		known |= !strcmp(mode, modes[i]);
	ASSERT_TRUE(known) TH_LOG("completion reads '%s'", mode);
	clock = sysfs_read("pl_clock_hz");
	if (self->info.backend == NPUKIT_BACKEND_SIMULATED) {
		ASSERT_STREQ("unknown", clock);
	} else {
		ASSERT_TRUE(!strcmp(clock, "unknown") || strtoull(clock, NULL, 10) > 0)
			TH_LOG("pl_clock_hz reads '%s'", clock);
	}
	fd = open("/sys/module/npukit/version", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("/sys/module/npukit/version: %s", strerror(errno));
	n = read(fd, ver, sizeof(ver) - 1);
	close(fd);
	ASSERT_LT(1, n);
	ASSERT_EQ('\n', ver[n - 1]);
}

/* Mode 0444 and readable by user nobody: no root, no group needed. */
NPU_TEST(readable_without_root)
{
	char path[512];
	struct stat st;
	pid_t pid;
	int status;

	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		sysfs_path(path, sizeof(path), attrs[i]);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
		ASSERT_EQ(0444, st.st_mode & 07777) TH_LOG("%s: mode %o", path, st.st_mode & 07777);
	}
	if (geteuid() != 0)
		return;	/* already not root: the reads below are the test */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
			if (!sysfs_read(attrs[i])[0])
				_exit(3 + (int)i);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status))
		TH_LOG("as nobody: %s unreadable", WEXITSTATUS(status) >= 3 ?
		       attrs[WEXITSTATUS(status) - 3] : "(setuid failed)");
}

/* stats/ follows the counters debugfs shows, across a SUBMIT. */
NPU_TEST(counters_follow_a_submit)
{
	static struct npukit_kick k[4];
	npu_ctile want[4], got[4];
	struct npukit_submit s;
	unsigned long long kicks = sysfs_num("stats/kicks");
	unsigned long long batches = sysfs_num("stats/batches");

	if (npu_stat("kicks") >= 0) {
		ASSERT_EQ((long long)kicks, npu_stat("kicks"));
	}
	npu_readback_batch(k, 4, want, 7);
	npu_submit_init(&s, k, 4, got, 4);
	test_submit(self->fd, &s);
	ASSERT_TILES_EQ(want, got, 4);
	/* other users of the device can only add to them */
	ASSERT_LE(kicks + 4, sysfs_num("stats/kicks"));
	ASSERT_LE(batches + 1, sysfs_num("stats/batches"));
}

/* "failed" while recovery could not prove the device clean, "ok" after a reset. */
NPU_TEST_TIMEOUT(state_follows_failed, 60)
{
	static struct npukit_kick k[4];
	npu_ctile want[4], got[4];
	struct npukit_submit s;

	NEED_SIM();
	ASSERT_STREQ("ok", sysfs_read("state"));
	ASSERT_EQ(0, npu_knob_write("reset_line", 0));
	ASSERT_EQ(0, npu_knob_write("hang", 1));
	npu_readback_batch(k, 4, want, 5);
	npu_submit_init(&s, k, 4, got, 4);
	test_err_submit(EIO, self->fd, &s);
	ASSERT_STREQ("failed", sysfs_read("state"));
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	ASSERT_EQ(0, npu_knob_write("reset", 1));
	ASSERT_EQ(0, npu_knob_write("reset_line", 1));
	ASSERT_STREQ("ok", sysfs_read("state"));
}

TEST_HARNESS_MAIN
