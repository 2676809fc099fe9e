// SPDX-License-Identifier: GPL-2.0
/*
 * The fault storm (issue 8): several processes submit random batches
 * while the simulator's fault knobs are armed at random (DMA errors,
 * hangs, slow runs, short deadlines). Every SUBMIT that returns 0 has its
 * results checked against the CPU reference; a single wrong tile fails.
 * Failures must carry a documented errno. Root resets the device whenever
 * it is failed, as an operator would. Bounded in time.
 */
#include <sys/wait.h>

#include "npukit_test.h"

#define NPROC		3
#define STORM_NS	(4LL * 1000 * 1000 * 1000)
#define MAXK		200
#define NRES		8
#define POISON		0x5a

/* Exit codes of a submitter: what went wrong */
enum { STORM_OK, STORM_ERRNO, STORM_WRONG, STORM_OPEN };

static int storm_submitter(uint64_t seed, int64_t end)
{
	static struct npukit_kick k[MAXK];
	static npu_ctile want[NRES], got[NRES];
	struct npukit_submit s;
	int fd = open(npu_device_path(), O_RDWR | O_CLOEXEC);
	int ok = 0, failed = 0;

	if (fd < 0)
		return STORM_OPEN;
	while (npu_now_ns() < end) {
		uint32_t n = 1 + npu_rand(&seed) % MAXK;
		int r;

		npu_random_batch(k, n, NRES, &seed);
		memset(want, POISON, sizeof(want));
		memset(got, POISON, sizeof(got));
		npu_ref_batch(k, n, want);
		npu_submit_init(&s, k, n, got, NRES);
		/* one batch in eight with a deadline that may pass mid-batch */
		if (!(npu_rand(&seed) % 8))
			s.timeout_ns = npu_now_ns() + 100000 +
				       npu_rand(&seed) % 2000000;
		r = ioctl(fd, NPUKIT_IOCTL_SUBMIT, &s);
		if (r) {
			failed++;
			if (errno != EIO && errno != ETIMEDOUT && errno != ETIME) {
				fprintf(stderr, "# storm pid %d: SUBMIT of %u kicks: %s, status %u\n",
					getpid(), n, strerror(errno), s.status);
				close(fd);
				return STORM_ERRNO;
			}
			continue;
		}
		ok++;
		if (s.kicks_done != n || memcmp(want, got, sizeof(got))) {
			fprintf(stderr, "# storm pid %d: SUBMIT of %u kicks returned 0 with %s (kicks_done %u)\n",
				getpid(), n, s.kicks_done != n ? "a short count" :
				"a wrong tile", s.kicks_done);
			close(fd);
			return STORM_WRONG;
		}
	}
	fprintf(stderr, "# storm pid %d: %d batches right, %d failed\n",
		getpid(), ok, failed);
	close(fd);
	return STORM_OK;
}

/* One random fault, armed and, for the lasting ones, taken back. */
static void storm_fault(uint64_t *seed)
{
	switch (npu_rand(seed) % 3) {
	case 0:
		npu_knob_write("dma_error", 1 + npu_rand(seed) % 3);
		break;
	case 1:
		npu_knob_write("hang", 1);
		usleep(1000 + npu_rand(seed) % 3000);
		npu_knob_write("hang", 0);
		break;
	case 2:
		npu_knob_write("slow", 1 + npu_rand(seed) % 100);
		usleep(npu_rand(seed) % 5000);
		npu_knob_write("slow", 1);
		break;
	}
}

static void assert_clean_batch(struct __test_metadata *_metadata, int fd,
			       uint64_t *seed)
{
	struct npukit_kick k[16];
	npu_ctile want[NRES], got[NRES];
	struct npukit_submit s;

	npu_random_batch(k, 16, NRES, seed);
	memset(want, POISON, sizeof(want));
	memset(got, POISON, sizeof(got));
	npu_ref_batch(k, 16, want);
	npu_submit_init(&s, k, 16, got, NRES);
	test_submit(fd, &s);
	ASSERT_EQ(0, memcmp(want, got, sizeof(got)));
}

NPU_TEST_TIMEOUT(fault_storm, 120)
{
	int64_t end = npu_now_ns() + STORM_NS;
	long long rec = npu_stat("recoveries"), pl = npu_stat("pl_resets");
	uint64_t seed = 0x570;
	pid_t pids[NPROC];
	int faults = 0, resets = 0, bad = 0;

	NEED_SIM();
	for (int i = 0; i < NPROC; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			_exit(storm_submitter(0x5707 + i, end));
	}
	while (npu_now_ns() < end) {
		usleep(500 + npu_rand(&seed) % 5000);
		storm_fault(&seed);
		faults++;
		/* the operator: the fault is gone, reset what it failed */
		if (npu_stat("failed") > 0 && !npu_knob_write("reset", 1))
			resets++;
	}
	for (int i = 0; i < NPROC; i++) {
		int st;

		ASSERT_EQ(pids[i], waitpid(pids[i], &st, 0));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != STORM_OK)
			bad++;
	}
	TH_LOG("%d faults armed, %d resets, %lld recoveries, %lld PL resets",
	       faults, resets, npu_stat("recoveries") - rec,
	       npu_stat("pl_resets") - pl);
	ASSERT_EQ(0, bad) TH_LOG("a submitter saw a wrong answer or errno");

	/* afterwards the device is clean, or a reset makes it so */
	ASSERT_EQ(0, npu_knob_write("dma_error", 0));
	ASSERT_EQ(0, npu_knob_write("reset", 1));
	assert_clean_batch(_metadata, self->fd, &seed);
}

TEST_HARNESS_MAIN
