// SPDX-License-Identifier: GPL-2.0
/*
 * What pinning a batch's memory promises (issue 18, design.rst "Pinned
 * batches"), tried the way that broke the driver before it pinned:
 *
 *  - three processes run long sums (K-runs of 50 to 300, 640 kicks a
 *    batch) on one device while a thread of each evicts their kick and
 *    result pages the whole time (memfd, MADV_PAGEOUT and MADV_DONTNEED):
 *    every read-back must equal the C matmul, every batch must finish
 *    well inside its deadline;
 *  - a process waiting for the device while another holds it with a long
 *    sum dies within a second of SIGKILL;
 *  - results made read-only in the middle of a batch: either the batch
 *    succeeds with every tile right, or it fails and every slot of a
 *    kick it did not count keeps, byte for byte, what userspace put there.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "npukit_test.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

#define EVICT_KICKS	640
#define EVICT_BATCHES	8
#define EVICT_PROCS	3
/* A batch under eviction must finish within this, on the emulated Zynq too */
#define EVICT_DEADLINE_NS	(30LL * 1000 * 1000 * 1000)

struct evictor {
	void *mem[2];
	size_t len[2];
	volatile int stop;
};

static void *evict_loop(void *arg)
{
	struct evictor *e = arg;

	while (!e->stop) {
		/*
		 * PAGEOUT writes shmem to swap where there is some; DONTNEED
		 * unmaps the pages either way (a memfd keeps their data), so
		 * every access after it faults.
		 */
		for (int i = 0; i < 2; i++) {
			madvise(e->mem[i], e->len[i], MADV_PAGEOUT);
			madvise(e->mem[i], e->len[i], MADV_DONTNEED);
		}
		sched_yield();
	}
	return NULL;
}

/* Shared memfd memory: its pages leave the process and come back. */
static void *memfd_map(size_t len)
{
	int fd = memfd_create("npukit-evict", MFD_CLOEXEC);
	void *p;

	if (fd < 0 || ftruncate(fd, len)) {
		if (fd >= 0)
			close(fd);
		return MAP_FAILED;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p;
}

/*
 * A child cannot use ASSERT_* (it would longjmp into the harness's copy):
 * it reports by exit code, 0 ok, 1 setup, 2 SUBMIT failed, 3 wrong tile,
 * 4 deadline.
 */
static int evict_child(const char *path, uint64_t seed)
{
	size_t klen = EVICT_KICKS * sizeof(struct npukit_kick);
	size_t rlen = EVICT_KICKS * sizeof(npu_ctile);
	struct evictor e = { .len = { klen, rlen } };
	npu_ctile *want = calloc(EVICT_KICKS, sizeof(npu_ctile));
	struct npukit_kick *k = memfd_map(klen);
	npu_ctile *got = memfd_map(rlen);
	struct npukit_submit s;
	pthread_t th;
	int fd = open(path, O_RDWR | O_CLOEXEC), ret = 0;

	if (fd < 0 || !want || k == MAP_FAILED || got == MAP_FAILED)
		return 1;
	e.mem[0] = k;
	e.mem[1] = got;
	if (pthread_create(&th, NULL, evict_loop, &e))
		return 1;
	for (int b = 0; b < EVICT_BATCHES && !ret; b++) {
		uint32_t i = 0, reads = 0;
		int64_t t0;

		memset(k, 0, klen);
		while (i < EVICT_KICKS) {
			uint32_t krun = 50 + npu_rand(&seed) % 251;

			for (uint32_t j = 0; j < krun && i < EVICT_KICKS; j++, i++) {
				npu_fill_random(&k[i], &seed);
				k[i].flags = j ? 0 : NPUKIT_KICK_CLEAR;
				if (j == krun - 1 || i == EVICT_KICKS - 1) {
					k[i].flags |= NPUKIT_KICK_READ_C;
					k[i].c_slot = reads++;
				}
			}
		}
		memset(got, 0x5a, rlen);
		memset(want, 0x5a, rlen);
		npu_ref_batch(k, EVICT_KICKS, want);
		npu_submit_init(&s, k, EVICT_KICKS, got, reads);
		t0 = npu_now_ns();
		s.timeout_ns = t0 + EVICT_DEADLINE_NS;
		if (ioctl(fd, NPUKIT_IOCTL_SUBMIT, &s)) {
			fprintf(stderr, "# pid %d batch %d: %s, status %u, kicks_done %u/%u\n",
				getpid(), b, strerror(errno), s.status,
				s.kicks_done, EVICT_KICKS);
			ret = errno == ETIMEDOUT ? 4 : 2;
			break;
		}
		for (uint32_t r = 0; r < reads; r++)
			if (memcmp(want[r], got[r], sizeof(npu_ctile))) {
				fprintf(stderr, "# pid %d batch %d: success with a wrong tile in slot %u of %u\n",
					getpid(), b, r, reads);
				ret = 3;
				break;
			}
	}
	e.stop = 1;
	pthread_join(th, NULL);
	close(fd);
	return ret;
}

NPU_TEST_TIMEOUT(long_sums_three_processes_pages_evicted, 300)
{
	pid_t pid[EVICT_PROCS];
	int status;

	for (int p = 0; p < EVICT_PROCS; p++) {
		pid[p] = fork();
		ASSERT_LE(0, pid[p]);
		if (!pid[p])
			_exit(evict_child(npu_device_path(), 0x5eed0 + p));
	}
	for (int p = 0; p < EVICT_PROCS; p++) {
		ASSERT_EQ(pid[p], waitpid(pid[p], &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status))
			TH_LOG("process %d: %s", p,
			       (const char *[]){ "ok", "setup failed",
				"SUBMIT failed", "wrong tile with status 0",
				"deadline passed" }[WEXITSTATUS(status) % 5]);
	}
}

/* One sum as long as a batch can be: the holder keeps the array for it. */
#define HOLD_KICKS	8192

/*
 * One try: the holder's long sum, then a waiter that SIGKILL must take
 * out of its wait for the device lock. 1: the waiter never waited (it
 * got the device before the holder's thread did: a loaded machine), so
 * nothing was shown; 0: shown.
 */
static int kill_waiter_once(struct __test_metadata *_metadata, int fd,
			    struct npukit_kick *k, const npu_ctile *want,
			    useconds_t head_start_us)
{
	struct npu_submitter t = { .fd = fd };
	npu_ctile got[1];
	int64_t t_kill;
	pthread_t th;
	pid_t child;
	int status;

	/* runs 1000 times longer: the sum holds the device for seconds */
	EXPECT_EQ(0, npu_knob_write("slow", 1000));
	npu_submit_init(&t.s, k, HOLD_KICKS, got, 1);
	t.s.timeout_ns = npu_now_ns() + 100LL * 1000 * 1000 * 1000;
	if (pthread_create(&th, NULL, npu_submit_thread, &t)) {
		EXPECT_TRUE(0) TH_LOG("pthread_create failed");
		return 0;
	}
	usleep(head_start_us);

	child = fork();
	EXPECT_LE(0, child);
	if (!child) {
		struct npukit_kick ck[1];
		npu_ctile cw[1], cg[1];
		struct npukit_submit cs;
		int cfd = open(npu_device_path(), O_RDWR | O_CLOEXEC);

		npu_readback_batch(ck, 1, cw, 7);
		npu_submit_init(&cs, ck, 1, cg, 1);
		ioctl(cfd, NPUKIT_IOCTL_SUBMIT, &cs);
		_exit(0);
	}
	/* let it reach the device lock behind the holder */
	usleep(300 * 1000);
	t_kill = npu_now_ns();
	EXPECT_EQ(0, kill(child, SIGKILL));
	for (;;) {
		pid_t w = waitpid(child, &status, WNOHANG);

		if (w < 0) {
			EXPECT_LE(0, w);
			break;
		}
		if (w)
			break;
		if (npu_now_ns() - t_kill > 1000LL * 1000 * 1000) {
			EXPECT_TRUE(0) TH_LOG("the killed waiter is not dead after 1 s");
			waitpid(child, &status, 0);
			break;
		}
		usleep(1000);
	}
	EXPECT_EQ(0, npu_knob_write("slow", 1));
	EXPECT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, t.ret) TH_LOG("holder: %s, status %u", strerror(t.err), t.s.status);
	EXPECT_EQ(HOLD_KICKS, t.s.kicks_done);
	EXPECT_EQ(0, memcmp(want, got, sizeof(got))) TH_LOG("the holder's tile is wrong");
	/* Exited by itself: it had the device before the holder; try again. */
	return WIFEXITED(status) ? 1 : 0;
}

NPU_TEST_TIMEOUT(sigkilled_waiter_dies_within_a_second, 240)
{
	struct npukit_kick *k = calloc(HOLD_KICKS, sizeof(*k));
	npu_ctile want[1];
	uint64_t seed = 0x4b111;
	useconds_t head_start = 200 * 1000;
	int tries = 0;

	NEED_SIM();
	ASSERT_NE(NULL, k);
	for (int i = 0; i < HOLD_KICKS; i++)
		npu_fill_random(&k[i], &seed);
	k[0].flags = NPUKIT_KICK_CLEAR;
	k[HOLD_KICKS - 1].flags = NPUKIT_KICK_READ_C;
	npu_ref_batch(k, HOLD_KICKS, want);
	/* A head start of 0.2, 0.8, then 3.2 s for the holder's thread. */
	while (kill_waiter_once(_metadata, self->fd, k, want, head_start) && ++tries < 3)
		head_start *= 4;
	EXPECT_GT(3, tries) TH_LOG("the waiter never waited behind the holder in 3 tries");
	free(k);
}

#define RO_KICKS	512
#define RO_FILL		0xa5

struct protector {
	void *mem;
	size_t len;
	useconds_t delay;
};

static void *protect_later(void *arg)
{
	struct protector *p = arg;

	usleep(p->delay);
	mprotect(p->mem, p->len, PROT_READ);
	return NULL;
}

NPU_TEST_TIMEOUT(results_read_only_mid_batch, 120)
{
	static struct npukit_kick k[RO_KICKS];
	static npu_ctile want[RO_KICKS];
	size_t rlen = RO_KICKS * sizeof(npu_ctile);
	unsigned int succeeded = 0, refused = 0;
	uint64_t seed = 0x70;

	for (int round = 0; round < 24; round++) {
		struct protector p = { .len = rlen, .delay = round * 250 };
		npu_ctile *got = mmap(NULL, rlen, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct npukit_submit s;
		pthread_t th;
		int ret;

		ASSERT_NE(MAP_FAILED, got);
		npu_readback_batch(k, RO_KICKS, want, seed++);
		memset(got, RO_FILL, rlen);
		p.mem = got;
		npu_submit_init(&s, k, RO_KICKS, got, RO_KICKS);
		ASSERT_EQ(0, pthread_create(&th, NULL, protect_later, &p));
		ret = ioctl(self->fd, NPUKIT_IOCTL_SUBMIT, &s);
		ASSERT_EQ(0, pthread_join(th, NULL));
		if (ret) {
			ASSERT_EQ(EFAULT, errno);
			refused++;
		} else {
			ASSERT_EQ(RO_KICKS, s.kicks_done);
			succeeded++;
		}
		/* kick i reads back into slot i */
		for (uint32_t i = 0; i < RO_KICKS; i++) {
			if (i < s.kicks_done) {
				ASSERT_EQ(0, memcmp(want[i], got[i], sizeof(npu_ctile)))
					TH_LOG("round %d: slot %u of counted kick wrong",
					       round, i);
				continue;
			}
			for (size_t b = 0; b < sizeof(npu_ctile); b++) {
				ASSERT_EQ(RO_FILL, ((uint8_t *)got[i])[b])
					TH_LOG("round %d: %s, kicks_done %u: slot %u of uncounted kick %u written (byte %zu)",
					       round, ret ? strerror(EFAULT) : "ok",
					       s.kicks_done, i, i, b);
			}
		}
		munmap(got, rlen);
	}
	TH_LOG("%u batches succeeded, %u refused before they ran", succeeded,
	       refused);
}

TEST_HARNESS_MAIN
