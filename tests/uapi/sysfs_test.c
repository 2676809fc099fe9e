// SPDX-License-Identifier: GPL-2.0
/*
 * The node's sysfs attributes (Documentation/ABI/testing/sysfs-driver-npukit):
 * they say what GET_INFO and debugfs say, follow the counters and the failed
 * state, and anyone may read them (read here as user nobody).
 */
#include <grp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "npukit_test.h"

static unsigned long long sysfs_num(const char *file)
{
	return strtoull(npu_sysfs_read(file), NULL, 0);
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
	ASSERT_STREQ(want, npu_sysfs_read("id"));
	snprintf(want, sizeof(want), "0x%08x", self->info.ip_version);
	ASSERT_STREQ(want, npu_sysfs_read("version"));
	snprintf(want, sizeof(want), "0x%08x", self->info.ip_features);
	ASSERT_STREQ(want, npu_sysfs_read("features"));
	ASSERT_EQ(self->info.array_n, sysfs_num("array_n"));
	ASSERT_STREQ(self->info.backend == NPUKIT_BACKEND_SIMULATED ? "simulated" : "hardware",
		     npu_sysfs_read("backend"));
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

	snprintf(mode, sizeof(mode), "%s", npu_sysfs_read("completion"));
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		known |= !strcmp(mode, modes[i]);
	ASSERT_TRUE(known) TH_LOG("completion reads '%s'", mode);
	clock = npu_sysfs_read("pl_clock_hz");
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
		npu_sysfs_path(path, sizeof(path), attrs[i]);
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
			if (!npu_sysfs_read(attrs[i])[0])
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

/*
 * Reading the counters never waits for a batch (issue 27, item 5). One
 * SUBMIT of max_kicks kicks in a single sum, which keeps the device for
 * all of it, runs in a thread; meanwhile every attribute and the debugfs
 * counters are read over and over until it ends. No read may take half
 * of the batch: where readers take the device lock, the first read after
 * the batch took it waits until the batch lets go, at its end (a single
 * vCPU shared with the batch makes a lock-free read take up to a tenth). No fault knob: nothing sleeps, so the batch is long by its
 * size alone, and a deadline bounds it.
 */
#define HOLD_NS		(10LL * 1000 * 1000 * 1000)
#define HOLD_MIN_NS	(200LL * 1000 * 1000)

struct holder {
	struct npu_submitter t;
	atomic_int done;
};

static void *hold_thread(void *arg)
{
	struct holder *h = arg;

	npu_submit_thread(&h->t);
	atomic_store(&h->done, 1);
	return NULL;
}

/* Read @file (debugfs stats when NULL); return how long it took. */
static int64_t timed_read(struct __test_metadata *_metadata, const char *file)
{
	int64_t t0 = npu_now_ns();

	if (file) {
		EXPECT_STRNE("", npu_sysfs_read(file)) TH_LOG("%s", file);
	} else {
		npu_stat("kicks");
	}
	return npu_now_ns() - t0;
}

NPU_TEST_TIMEOUT(reads_never_wait_for_a_batch, 120)
{
	const uint32_t n = self->info.max_kicks;
	struct npukit_kick *k = calloc(n, sizeof(*k));
	struct holder h = { .t = { .fd = self->fd } };
	int64_t start, hold, worst = 0;
	npu_ctile got[1];
	uint64_t seed = 17;
	unsigned int reads = 0;
	pthread_t th;

	ASSERT_NE(NULL, k);
	for (uint32_t i = 0; i < n; i++)
		npu_fill_random(&k[i], &seed);
	k[0].flags = NPUKIT_KICK_CLEAR;
	k[n - 1].flags |= NPUKIT_KICK_READ_C;
	npu_submit_init(&h.t.s, k, n, got, 1);
	h.t.s.timeout_ns = npu_now_ns() + HOLD_NS;
	start = npu_now_ns();
	ASSERT_EQ(0, pthread_create(&th, NULL, hold_thread, &h));
	while (!atomic_load(&h.done)) {
		for (size_t i = 0; i <= sizeof(attrs) / sizeof(attrs[0]); i++, reads++) {
			int64_t took = timed_read(_metadata, i < sizeof(attrs) / sizeof(attrs[0]) ?
						  attrs[i] : NULL);

			if (took > worst)
				worst = took;
		}
	}
	ASSERT_EQ(0, pthread_join(th, NULL));
	free(k);
	ASSERT_TRUE(h.t.ret == 0 || h.t.err == ETIMEDOUT)
		TH_LOG("the batch: %s, status %u", strerror(h.t.err), h.t.s.status);
	hold = h.t.end_ns - start;
	TH_LOG("%u reads during a batch of %lld ms (%u kicks), the longest %lld ms",
	       reads, (long long)hold / 1000000, h.t.s.kicks_done, (long long)worst / 1000000);
	if (hold < HOLD_MIN_NS)
		SKIP(return, "the batch was too short to tell (%lld ms)", (long long)hold / 1000000);
	ASSERT_LT(worst, hold / 2) TH_LOG("a read waited for the batch");
}

/* "failed" while recovery could not prove the device clean, "ok" after a reset. */
NPU_TEST_TIMEOUT(state_follows_failed, 60)
{
	static struct npukit_kick k[4];
	npu_ctile want[4], got[4];
	struct npukit_submit s;

	NEED_SIM();
	ASSERT_STREQ("ok", npu_sysfs_read("state"));
	ASSERT_EQ(0, npu_knob_write("reset_line", 0));
	ASSERT_EQ(0, npu_knob_write("hang", 1));
	npu_readback_batch(k, 4, want, 5);
	npu_submit_init(&s, k, 4, got, 4);
	test_err_submit(EIO, self->fd, &s);
	ASSERT_STREQ("failed", npu_sysfs_read("state"));
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	ASSERT_EQ(0, npu_knob_write("reset", 1));
	ASSERT_EQ(0, npu_knob_write("reset_line", 1));
	ASSERT_STREQ("ok", npu_sysfs_read("state"));
}

TEST_HARNESS_MAIN
