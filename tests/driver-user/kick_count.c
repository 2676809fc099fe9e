// SPDX-License-Identifier: GPL-2.0
/*
 * kick_count.c - SUBMITs through the unmodified driver built in userspace
 * (driver_user.h), on a simulated NpuKit: the module is loaded with
 * sim_devices=1, its node opened and NPUKIT_IOCTL_SUBMIT called through
 * the node's unlocked_ioctl, as /dev/npukit0's ioctl(2) reaches it.
 *
 *   kick_count check           batches at K-run 1, 8, 64 and 512, a batch
 *                              of random sums, kicks not a whole number of
 *                              chunks, and a refused argument: TAP, every
 *                              result checked against the CPU reference
 *   kick_count check-preempt   10,000 batches of random sums with the
 *                              simulated CPU preempted 3 ms at random reads
 *                              (sim_preempt_ms): none may fail, every
 *                              result right (issue 27)
 *   kick_count run KRUN KICKS  one SUBMIT of KICKS kicks in sums of KRUN,
 *                              each read back: what tests/driver-user/
 *                              count-kick-insn runs under callgrind
 *
 * A wrong result or a failed SUBMIT fails either way, so no instruction
 * count is ever taken of a protocol that does not work.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npukit.h"
#include "npukit_ref.h"

#include "driver_user.h"

/* callgrind runs the simulator ~50x slower than native */
#define DEADLINE_NS	(600LL * 1000 * 1000 * 1000)
/* The limits GET_INFO reports (driver/npukit_dev.h) */
#define MAX_KICKS	65536
#define MAX_RESULTS	4096

static struct driver_user_file *node;
static unsigned int tests;

/* SUBMIT @n kicks and compare every result slot with the reference. */
static int submit_checked(struct npukit_kick *k, uint32_t n, uint32_t nres,
			  const char *what)
{
	npu_ctile *got = calloc(nres, sizeof(*got));
	npu_ctile *want = calloc(nres, sizeof(*want));
	struct npukit_submit s;
	long ret;
	int bad = 1;

	if (!got || !want) {
		printf("not ok %u %s: out of memory\n", ++tests, what);
		goto out;
	}
	npu_submit_init(&s, k, n, got, nres);
	s.timeout_ns = npu_now_ns() + DEADLINE_NS;
	ret = driver_user_ioctl(node, NPUKIT_IOCTL_SUBMIT, &s);
	npu_ref_batch(k, n, want);
	if (ret)
		printf("not ok %u %s: SUBMIT returned %ld (status %u, %u done)\n",
		       ++tests, what, ret, s.status, s.kicks_done);
	else if (s.kicks_done != n || s.status)
		printf("not ok %u %s: %u of %u kicks done, status %u\n",
		       ++tests, what, s.kicks_done, n, s.status);
	else if (memcmp(got, want, sizeof(*got) * nres))
		printf("not ok %u %s: results differ from the CPU reference\n",
		       ++tests, what);
	else
		bad = 0;
	if (!bad)
		printf("ok %u %s: %u kicks, %llu reads, %llu writes, %llu ns modelled\n",
		       ++tests, what, n, (unsigned long long)s.mmio_reads,
		       (unsigned long long)s.mmio_writes,
		       (unsigned long long)s.device_ns);
out:
	free(got);
	free(want);
	return bad;
}

static int run_krun(uint32_t krun, uint32_t n, uint64_t seed)
{
	struct npukit_kick *k = calloc(n, sizeof(*k));
	uint32_t nres = (n + krun - 1) / krun;
	char what[64];
	int bad;

	if (nres > MAX_RESULTS)
		nres = MAX_RESULTS;
	if (!k) {
		printf("not ok %u K-run %u: out of memory\n", ++tests, krun);
		return 1;
	}
	npu_krun_batch(k, n, krun, nres, &seed);
	snprintf(what, sizeof(what), "K-run %u", krun);
	bad = submit_checked(k, n, nres, what);
	free(k);
	return bad;
}

/* Sums of 1..8 kicks into random slots (npu_random_batch()). */
static int run_random(uint32_t n, uint32_t nres, uint64_t seed)
{
	struct npukit_kick *k = calloc(n, sizeof(*k));
	int bad;

	if (!k) {
		printf("not ok %u random sums: out of memory\n", ++tests);
		return 1;
	}
	npu_random_batch(k, n, nres, &seed);
	bad = submit_checked(k, n, nres, "random sums");
	free(k);
	return bad;
}

/* The driver's checks run too: kick 0 without CLEAR is refused. */
static int run_refused(void)
{
	struct npukit_kick k;
	npu_ctile res;
	struct npukit_submit s;
	uint64_t seed = 7;
	long ret;

	memset(&k, 0, sizeof(k));
	npu_fill_random(&k, &seed);
	k.flags = NPUKIT_KICK_READ_C;
	npu_submit_init(&s, &k, 1, &res, 1);
	ret = driver_user_ioctl(node, NPUKIT_IOCTL_SUBMIT, &s);
	if (ret != -EINVAL) {
		printf("not ok %u kick 0 without CLEAR: %ld, not -EINVAL\n",
		       ++tests, ret);
		return 1;
	}
	printf("ok %u kick 0 without CLEAR: -EINVAL\n", ++tests);
	return 0;
}

static int check(bool plan)
{
	static const uint32_t kruns[] = { 1, 8, 64, 512 };
	int bad = 0;

	if (plan)
		printf("TAP version 13\n1..%zu\n",
		       (sizeof(kruns) / sizeof(kruns[0])) + 3);
	for (size_t i = 0; i < (sizeof(kruns) / sizeof(kruns[0])); i++)
		bad |= run_krun(kruns[i], 1024, 1 + i);
	/* a sum and a read-back across chunk boundaries, a short last chunk */
	bad |= run_krun(100, 1000, 11);
	bad |= run_random(777, 50, 12);
	bad |= run_refused();
	return bad;
}

/*
 * A healthy device is never reported hung (issue 27, item 3): the poller
 * loses the CPU for PREEMPT_MS, longer than the driver's 2 ms hang limit,
 * at one in PREEMPT_ONE_IN register reads (after the read sampled) and
 * clock reads (before it), while the modelled board goes on. A wait that
 * looked at its limit only after a failed poll returned EIO here.
 * Batches in which a preemption fell show it in their device time.
 */
#define PREEMPT_MS	3
#define PREEMPT_ONE_IN	16
#define PREEMPT_BATCHES	10000
#define PREEMPT_KICKS	16
#define PREEMPT_SLOTS	4

static int check_preempt(void)
{
	struct npukit_kick k[PREEMPT_KICKS];
	npu_ctile got[PREEMPT_SLOTS], want[PREEMPT_SLOTS];
	struct npu_outcomes o = { 0 };
	unsigned int preempted = 0, bad = 0;
	uint64_t seed = 0x5ea1;
	struct npukit_submit s;

	for (unsigned int i = 0; i < PREEMPT_BATCHES; i++) {
		long ret;

		npu_random_submit(&s, k, PREEMPT_KICKS, got, want,
				  PREEMPT_SLOTS, &seed);
		s.timeout_ns = npu_now_ns() + DEADLINE_NS;
		ret = driver_user_ioctl(node, NPUKIT_IOCTL_SUBMIT, &s);
		if (npu_outcome(&o, (int)-ret, &s, PREEMPT_KICKS, got, want,
				sizeof(got)))
			preempted += s.device_ns >= PREEMPT_MS * 1000000ULL;
		else if (!bad++)
			fprintf(stderr, "# batch %u: SUBMIT %ld, status %u, %u of %u kicks done\n",
				i, ret, s.status, s.kicks_done, PREEMPT_KICKS);
	}
	/* the knob must have acted, or the test proves nothing */
	if (bad || preempted < PREEMPT_BATCHES / 4) {
		printf("not ok 60 preempted poller: %u batches, %u EIO, %u ETIMEDOUT, %u other failures, %u wrong results, %u preempted\n",
		       PREEMPT_BATCHES, o.eio, o.etimedout, o.other, o.wrong,
		       preempted);
		return 1;
	}
	printf("ok 60 preempted poller: %u batches of %u kicks, preempted %u ms at 1 in %u reads: 0 EIO, 0 ETIMEDOUT, all right; %u batches preempted\n",
	       PREEMPT_BATCHES, PREEMPT_KICKS, PREEMPT_MS, PREEMPT_ONE_IN,
	       preempted);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: kick_count check | kick_count check-worst | kick_count check-preempt | kick_count run KRUN KICKS\n");
	return 2;
}

int main(int argc, char **argv)
{
	int ret;

	/*
	 * check-worst: the same checks, numbered from 21, under the
	 * simulator's worst bus timing (driver/npukit_sim.h), NPU writes
	 * landing a microsecond late among them: the ordering of
	 * hardware.rst 8.9, without a kernel.
	 */
	static const struct {
		const char *name;
		uint64_t val;
	} worst[] = {
		{ "sim_idle_lag", 100 }, { "sim_overtake", 20 },
		{ "sim_first_beat", 0 }, { "sim_npu_lag", 100 },
	};
	bool worst_timing, preempt;

	if (argc < 2)
		return usage();
	worst_timing = !strcmp(argv[1], "check-worst") && argc == 2;
	preempt = !strcmp(argv[1], "check-preempt") && argc == 2;
	ret = driver_user_param("sim_devices", 1);
	if (!ret && preempt)
		ret = driver_user_param("sim_preempt_ms", PREEMPT_MS);
	if (!ret && preempt)
		ret = driver_user_param("sim_preempt_one_in", PREEMPT_ONE_IN);
	for (size_t i = 0; worst_timing && !ret && i < sizeof(worst) / sizeof(worst[0]); i++)
		ret = driver_user_param(worst[i].name, worst[i].val);
	if (!ret)
		ret = driver_user_load();
	if (ret) {
		fprintf(stderr, "kick_count: loading the driver: %d\n", ret);
		return 1;
	}
	node = driver_user_open("npukit0");
	if (!node) {
		fprintf(stderr, "kick_count: npukit0: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "check") && argc == 2) {
		ret = check(true);
	} else if (worst_timing) {
		tests = 20;
		ret = check(false);
	} else if (preempt) {
		ret = check_preempt();
	} else if (!strcmp(argv[1], "run") && argc == 4) {
		uint32_t krun = (uint32_t)strtoul(argv[2], NULL, 0);
		uint32_t n = (uint32_t)strtoul(argv[3], NULL, 0);

		if (!krun || !n || n > MAX_KICKS)
			return usage();
		ret = run_krun(krun, n, 42);
	} else {
		return usage();
	}
	driver_user_close(node);
	driver_user_unload();
	return ret ? 1 : 0;
}
