// SPDX-License-Identifier: GPL-2.0
/*
 * The Out fields and errnos are exact on every return path (issue 8,
 * findings 3, 4 and 7):
 *  - kicks_done counts only kicks whose read-backs were written: every
 *    slot below it holds the right tile, the slot of the first kick not
 *    counted still holds what userspace put there;
 *  - nothing of a SUBMIT survives its return, EFAULT included;
 *  - EINVAL and a submit struct that cannot be written both fail before
 *    anything runs.
 */
#include <pthread.h>
#include <sys/mman.h>

#include "npukit_test.h"

#define NREAD	256
#define ROUNDS	30

/* A byte pattern no tile of these batches can equal as a whole */
#define POISON	0x5a

static bool slot_poisoned(const npu_ctile t)
{
	const uint8_t *p = (const uint8_t *)t;

	for (size_t i = 0; i < sizeof(npu_ctile); i++)
		if (p[i] != POISON)
			return false;
	return true;
}

/* A failed batch's kicks_done: slots below are right, the next untouched */
static void assert_exact(struct __test_metadata *_metadata,
			 const struct npukit_submit *s, npu_ctile *want,
			 npu_ctile *got, uint32_t n)
{
	ASSERT_TILES_EQ(want, got, s->kicks_done);
	if (s->kicks_done < n) {
		ASSERT_TRUE(slot_poisoned(got[s->kicks_done]))
			TH_LOG("status %u kicks_done %u: slot %u was written but not counted",
			       s->status, s->kicks_done, s->kicks_done);
	}
}

/*
 * Finding 3, DMA errors: one at a random moment of a batch of read-backs.
 * The batch fails EIO; its kicks_done is exact.
 */
NPU_TEST_TIMEOUT(kicks_done_exact_on_dma_error, 120)
{
	static struct npukit_kick k[NREAD];
	static npu_ctile want[NREAD], got[NREAD];
	uint64_t seed = 0xd0e;
	int failed = 0;

	NEED_SIM();
	for (int round = 0; round < ROUNDS; round++) {
		struct npu_submitter t = { .fd = self->fd };
		pthread_t th;

		npu_readback_batch(k, NREAD, want, npu_rand(&seed));
		memset(got, POISON, sizeof(got));
		npu_submit_init(&t.s, k, NREAD, got, NREAD);
		ASSERT_EQ(0, pthread_create(&th, NULL, npu_submit_thread, &t));
		usleep(npu_rand(&seed) % 3000);
		ASSERT_EQ(0, npu_knob_write("dma_error", 1));
		ASSERT_EQ(0, pthread_join(th, NULL));
		ASSERT_EQ(0, npu_knob_write("dma_error", 0));
		if (!t.ret) {
			ASSERT_EQ(NREAD, t.s.kicks_done);
		} else {
			failed++;
			ASSERT_EQ(EIO, t.err);
			ASSERT_EQ(NPUKIT_STATUS_DMA_ERROR, t.s.status);
		}
		assert_exact(_metadata, &t.s, want, got, NREAD);
	}
	TH_LOG("%d of %d batches hit the DMA error", failed, ROUNDS);
}

/* Finding 3, deadlines: a deadline passing at a random moment. */
NPU_TEST_TIMEOUT(kicks_done_exact_on_deadline, 120)
{
	static struct npukit_kick k[NREAD];
	static npu_ctile want[NREAD], got[NREAD];
	struct npukit_submit s;
	uint64_t seed = 0xdead;
	int timedout = 0;

	for (int round = 0; round < ROUNDS; round++) {
		int r;

		npu_readback_batch(k, NREAD, want, npu_rand(&seed));
		memset(got, POISON, sizeof(got));
		npu_submit_init(&s, k, NREAD, got, NREAD);
		s.timeout_ns = npu_now_ns() + 100000 + npu_rand(&seed) % 3000000;
		r = ioctl(self->fd, NPUKIT_IOCTL_SUBMIT, &s);
		if (r && errno == ETIME)
			continue;	/* passed before the batch started */
		if (r) {
			timedout++;
			ASSERT_EQ(ETIMEDOUT, errno);
			ASSERT_EQ(NPUKIT_STATUS_TIMEOUT, s.status);
		} else {
			ASSERT_EQ(NREAD, s.kicks_done);
		}
		assert_exact(_metadata, &s, want, got, NREAD);
	}
	TH_LOG("%d of %d batches ran out of time", timedout, ROUNDS);
}

/*
 * Finding 4: results in a read-only page. The read-back of kick 0 cannot
 * be written: EFAULT, kicks_done 0 (kick 0 is not complete), and nothing
 * of that batch leaks into the next one on another fd.
 */
NPU_TEST(efault_leaves_nothing_behind)
{
	long page = sysconf(_SC_PAGESIZE);
	struct npukit_kick k[2], k2[1];
	npu_ctile want2[1], got2[1];
	struct npukit_submit s;
	long long kicks;
	uint64_t seed = 4;
	void *ro;
	int fd2;

	ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	memset(k, 0, sizeof(k));
	npu_fill_random(&k[0], &seed);
	npu_fill_random(&k[1], &seed);
	k[0].flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C;
	k[1].flags = NPUKIT_KICK_CLEAR;
	kicks = npu_stat("kicks");
	npu_submit_init(&s, k, 2, ro, 1);
	test_err_submit(EFAULT, self->fd, &s);
	ASSERT_EQ(0, s.kicks_done);
	munmap(ro, page);

	fd2 = open(npu_device_path(), O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	npu_readback_batch(k2, 1, want2, 5);
	npu_submit_init(&s, k2, 1, got2, 1);
	test_submit(fd2, &s);
	close(fd2);
	ASSERT_EQ(1, s.kicks_done);
	ASSERT_TILES_EQ(want2, got2, 1);
	if (kicks >= 0) {
		ASSERT_EQ(kicks + 1, npu_stat("kicks"));
	}
}

/*
 * Finding 7: results overlapping the kicks of a later chunk are EINVAL
 * before anything runs (kick 100 onwards would be rewritten by the
 * read-backs of the first chunk).
 */
NPU_TEST(results_overlapping_kicks_run_nothing)
{
	static struct npukit_kick k[128];
	static npu_ctile want[128];
	struct npukit_submit s;
	long long batches, runs;

	npu_readback_batch(k, 128, want, 7);
	for (int i = 0; i < 128; i++)
		k[i].c_slot = i % 8;
	batches = npu_stat("batches");
	runs = npu_stat("sim_gemm_runs");
	npu_submit_init(&s, k, 128, (npu_ctile *)&k[100], 8);
	test_err_submit(EINVAL, self->fd, &s);
	ASSERT_EQ(batches, npu_stat("batches"));
	ASSERT_EQ(runs, npu_stat("sim_gemm_runs"));
	/* the kicks, which the results overlap, were not written */
	ASSERT_EQ(NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C, k[100].flags);
}

/*
 * Finding 7: a submit struct in a read-only page cannot take the Out
 * fields: EFAULT, and the batch did not run (its results are untouched).
 */
NPU_TEST(readonly_submit_runs_nothing)
{
	long page = sysconf(_SC_PAGESIZE);
	struct npukit_kick k[4];
	npu_ctile want[4], got[4];
	struct npukit_submit *s;
	long long batches;

	s = mmap(NULL, page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, s);
	npu_readback_batch(k, 4, want, 8);
	memset(got, POISON, sizeof(got));
	npu_submit_init(s, k, 4, got, 4);
	ASSERT_EQ(0, mprotect(s, page, PROT_READ));
	batches = npu_stat("batches");
	test_err_submit(EFAULT, self->fd, s);
	ASSERT_EQ(batches, npu_stat("batches"));
	for (int i = 0; i < 4; i++) {
		ASSERT_TRUE(slot_poisoned(got[i])) TH_LOG("slot %d written", i);
	}
	munmap(s, page);
}

TEST_HARNESS_MAIN
