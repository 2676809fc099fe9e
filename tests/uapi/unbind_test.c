// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded unbind (issue 8, finding 6): unbinding the device while a long
 * batch runs returns within about one chunk, and the batch stops at its
 * next chunk boundary with ENODEV and an exact kicks_done. The device is
 * bound again afterwards, for the suites that follow.
 *
 * Simulated instances only: the test unbinds the device it runs on.
 */
#include <libgen.h>
#include <limits.h>
#include <pthread.h>

#include "npukit_test.h"

#define NKICKS		1024
#define CHUNK		64	/* NPUKIT_CHUNK_KICKS of the driver */
/* The driver of simulated instances: npukit_sim.ko's (npukit_sim_main.c) */
#define DRV_DIR		"/sys/bus/platform/drivers/npukit-sim"
#define POISON		0x5a

static int sysfs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -errno;
	close(fd);
	return ret;
}

/* The platform device behind the node, e.g. "npukit-sim.0" */
static int platform_name(char *buf, size_t len)
{
	const char *node = strrchr(npu_device_path(), '/');
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/misc/%s/device",
		 node ? node + 1 : npu_device_path());
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = 0;
	snprintf(buf, len, "%s", basename(target));
	return 0;
}

/* Real time one chunk of @k takes: the yardstick of a bounded unbind */
static int64_t chunk_ns(struct __test_metadata *_metadata, int fd,
			const struct npukit_kick *k, npu_ctile *got)
{
	struct npukit_submit s;
	int64_t t0 = npu_now_ns();

	npu_submit_init(&s, k, CHUNK, got, CHUNK);
	test_submit(fd, &s);
	return npu_now_ns() - t0;
}

/*
 * Run the NKICKS kicks of @k (results into @got, poisoned first) with
 * 84 us runs, so a batch of 16 chunks has chunks long enough to measure,
 * and unbind the device in its third chunk, then bind it again. The batch
 * must stop at a chunk boundary with ENODEV, and unbind take at most the
 * chunk on the hardware, not the rest of the batch.
 */
static void unbind_during(struct __test_metadata *_metadata, int fd,
			  const struct npukit_kick *k, npu_ctile *got,
			  struct npu_submitter *t)
{
	int64_t t0, unbind_ns, chunk;
	char name[128];
	pthread_t th;
	int waited;

	ASSERT_EQ(0, platform_name(name, sizeof(name)));
	ASSERT_EQ(0, npu_knob_write("slow", 300));
	chunk = chunk_ns(_metadata, fd, k, got);
	memset(got, POISON, NKICKS * sizeof(*got));
	t->fd = fd;
	npu_submit_init(&t->s, k, NKICKS, got, NKICKS);
	ASSERT_EQ(0, pthread_create(&th, NULL, npu_submit_thread, t));
	usleep(chunk * 5 / 2 / 1000);

	t0 = npu_now_ns();
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/unbind", name));
	unbind_ns = npu_now_ns() - t0;
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, sysfs_write(DRV_DIR "/bind", name))
		TH_LOG("cannot bind %s again", name);
	for (waited = 0; access(npu_device_path(), F_OK) && waited < 2000; waited++)
		usleep(1000);

	TH_LOG("a chunk takes %lld us; unbind took %lld us; the batch ended %lld us after it began, kicks_done %u",
	       (long long)chunk / 1000, (long long)unbind_ns / 1000,
	       (long long)(t->end_ns - t0) / 1000, t->s.kicks_done);
	ASSERT_EQ(-1, t->ret) TH_LOG("the batch finished before unbind");
	ASSERT_EQ(ENODEV, t->err) TH_LOG("got %s", strerror(t->err));
	ASSERT_LT(0, t->s.kicks_done);
	ASSERT_GT(NKICKS, t->s.kicks_done);
	ASSERT_EQ(0, t->s.kicks_done % CHUNK);
	ASSERT_GT(2 * chunk + 100LL * 1000 * 1000, unbind_ns);
}

NPU_TEST_TIMEOUT(unbind_stops_batch_at_chunk, 300)
{
	struct npukit_kick *k = calloc(NKICKS, sizeof(*k));
	npu_ctile *want = calloc(NKICKS, sizeof(*want));
	npu_ctile *got = malloc(NKICKS * sizeof(*got));
	struct npu_submitter t;

	NEED_SIM();
	ASSERT_TRUE(k && want && got);
	npu_readback_batch(k, NKICKS, want, 66);
	unbind_during(_metadata, self->fd, k, got, &t);
	if (!_metadata->passed)
		return;
	ASSERT_TILES_EQ(want, got, t.s.kicks_done);
	for (size_t b = 0; b < sizeof(*got); b++) {
		ASSERT_EQ(POISON, ((uint8_t *)got[t.s.kicks_done])[b]);
	}
	free(k);
	free(want);
	free(got);
}

/*
 * The same while one sum runs through the whole batch: it keeps the
 * device from chunk to chunk, and each chunk leaves its last run going
 * for the next one to confirm. It still stops at a chunk boundary with
 * that run confirmed and counted, and nothing of it left in flight (the
 * driver would WARN on the console).
 */
NPU_TEST_TIMEOUT(unbind_stops_sum_at_chunk, 300)
{
	struct npukit_kick *k = calloc(NKICKS, sizeof(*k));
	npu_ctile *got = malloc(NKICKS * sizeof(*got));
	struct npu_submitter t;
	uint64_t seed = 68;

	NEED_SIM();
	ASSERT_TRUE(k && got);
	for (uint32_t i = 0; i < NKICKS; i++)
		npu_fill_random(&k[i], &seed);
	k[0].flags = NPUKIT_KICK_CLEAR;
	k[NKICKS - 1].flags = NPUKIT_KICK_READ_C;
	unbind_during(_metadata, self->fd, k, got, &t);
	if (!_metadata->passed)
		return;
	/* the sum's one read-back, at its end, was never written */
	for (size_t b = 0; b < sizeof(*got); b++) {
		ASSERT_EQ(POISON, ((uint8_t *)got[0])[b]);
	}
	free(k);
	free(got);
}

/* The node is back and works after the rebind. */
NPU_TEST(works_after_rebind)
{
	struct npukit_kick k[1];
	npu_ctile want[1], got[1];
	struct npukit_submit s;

	npu_readback_batch(k, 1, want, 67);
	npu_submit_init(&s, k, 1, got, 1);
	test_submit(self->fd, &s);
	ASSERT_TILES_EQ(want, got, 1);
}

TEST_HARNESS_MAIN
