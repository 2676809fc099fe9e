// SPDX-License-Identifier: GPL-2.0
/*
 * What a SUBMIT may hold and how long it may wait (issue 27, design.rst
 * "Bounded batches"):
 *
 *  - the deadline bounds the whole call: a batch queued behind a long sum
 *    fails -ETIMEDOUT at its deadline, nothing of it run;
 *  - any signal stops a wait for the device (-EINTR, nothing run), and a
 *    running batch at its next chunk, with kicks_done exact;
 *  - the device is let go at sum boundaries whatever the CLEAR pattern:
 *    a batch of 2-kick sums that never line up with a 64-kick chunk keeps
 *    another process waiting for about one sum and one chunk, not for
 *    the whole batch;
 *  - result slots are pinned against the caller's RLIMIT_MEMLOCK: over it,
 *    without CAP_IPC_LOCK, a batch fails -ENOMEM before anything runs,
 *    and nothing stays charged (VmPin) after any batch;
 *  - a kick_size of 4096 holds 136 bytes a kick, not 4096 pinned, and
 *    the kicks' memory is not held while the batch runs;
 *  - a batch that must wait for the device's cap checks its kicks first;
 *  - three processes at their limits leave the machine its memory.
 *
 * The holder runs its sums with the simulator's "slow" knob, so that it
 * holds the device for seconds (fault knobs: simulated NpuKit only).
 */
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "npukit_test.h"

#define HOLD_KICKS	8192
#define MS		(1000LL * 1000)

/* A holder thread running one long sum (or @pattern) slowly */
struct holder {
	struct npu_submitter t;
	struct npukit_kick *k;
	npu_ctile *got;
	pthread_t th;
};

static int holder_start(struct holder *h, int fd, uint32_t n, bool two_sums)
{
	uint64_t seed = 99;
	uint32_t sums = 0;

	/* one sum: one slot; 2-kick sums: fewer than n */
	uint32_t slots = two_sums ? n : 1;

	h->k = calloc(n, sizeof(*h->k));
	h->got = calloc(slots, sizeof(*h->got));
	if (!h->k || !h->got)
		return -1;
	memset(h->got, 0x5a, slots * sizeof(*h->got));
	for (uint32_t i = 0; i < n; i++) {
		npu_fill_random(&h->k[i], &seed);
		/*
		 * two_sums: a 1-kick sum, then 2-kick sums: CLEAR on 0 and
		 * on every odd kick, so no 64-kick chunk boundary (an even
		 * kick) begins a sum; each sum read back into a slot of its
		 * own, so that the slots written say how far the batch got
		 */
		if (!i || (two_sums && i % 2))
			h->k[i].flags = NPUKIT_KICK_CLEAR;
		if (two_sums && (i == n - 1 || (i + 1) % 2)) {
			h->k[i].flags |= NPUKIT_KICK_READ_C;
			h->k[i].c_slot = sums++;
		}
	}
	if (!two_sums) {
		h->k[n - 1].flags |= NPUKIT_KICK_READ_C;
		sums = 1;
	}
	memset(&h->t, 0, sizeof(h->t));
	h->t.fd = fd;
	npu_submit_init(&h->t.s, h->k, n, h->got, sums);
	h->t.s.timeout_ns = npu_now_ns() + 300LL * 1000 * MS;
	if (npu_knob_write("slow", 1000))
		return -1;
	return pthread_create(&h->th, NULL, npu_submit_thread, &h->t);
}

static int holder_end(struct holder *h)
{
	int ret = npu_knob_write("slow", 1);

	pthread_join(h->th, NULL);
	free(h->k);
	free(h->got);
	return ret;
}

/* Stop a holder with SIGUSR1 (a handler without SA_RESTART installed) */
static int holder_stop(struct holder *h)
{
	int ret = npu_knob_write("slow", 1);

	if (pthread_kill(h->th, SIGUSR1))
		ret = -1;
	pthread_join(h->th, NULL);
	free(h->k);
	free(h->got);
	return ret;
}

/* One readback kick, its answer in *want */
static void one_kick(struct npukit_submit *s, struct npukit_kick *k,
		     npu_ctile *want, npu_ctile *got)
{
	npu_readback_batch(k, 1, want, 5);
	memset(got, 0x5a, sizeof(*got));
	npu_submit_init(s, k, 1, got, 1);
}

NPU_TEST_TIMEOUT(deadline_bounds_lock_wait, 240)
{
	struct npukit_kick k[1];
	npu_ctile want[1], got[1];
	struct npukit_submit s;
	struct holder h;
	int64_t t0, took;

	NEED_SIM();
	ASSERT_EQ(0, holder_start(&h, self->fd, HOLD_KICKS, false));
	usleep(300 * 1000);
	one_kick(&s, k, want, got);
	t0 = npu_now_ns();
	s.timeout_ns = t0 + 200 * MS;
	test_err_submit(ETIMEDOUT, self->fd, &s);
	took = npu_now_ns() - t0;
	EXPECT_EQ(NPUKIT_STATUS_TIMEOUT, s.status);
	EXPECT_EQ(0, s.kicks_done);
	EXPECT_EQ(0, s.mmio_reads);
	EXPECT_EQ(0, s.mmio_writes);
	/* nothing ran: the slot keeps what userspace put there */
	EXPECT_EQ(0x5a5a5a5a, got[0][0]);
	/* at the deadline, not when the holder lets go (seconds later) */
	EXPECT_GT(700 * MS, took) TH_LOG("returned %lld ms after the call",
					 (long long)(took / MS));
	EXPECT_FALSE(h.t.end_ns && h.t.end_ns < npu_now_ns() - 100 * MS)
		TH_LOG("the holder ended before the waiter: nothing was measured");
	EXPECT_EQ(0, holder_end(&h));
	EXPECT_EQ(0, h.t.ret) TH_LOG("holder: %s", strerror(h.t.err));
}

static void on_usr1(int sig)
{
	(void)sig;
}

NPU_TEST_TIMEOUT(signal_interrupts_lock_wait, 240)
{
	struct npu_submitter w = { .fd = self->fd };
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct npukit_kick k[1];
	npu_ctile want[1], got[1];
	struct holder h;
	pthread_t th;
	int64_t t_sig;

	NEED_SIM();
	/* no SA_RESTART: the interrupted SUBMIT returns EINTR */
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, holder_start(&h, self->fd, HOLD_KICKS, false));
	usleep(300 * 1000);
	one_kick(&w.s, k, want, got);
	w.s.timeout_ns = npu_now_ns() + 120LL * 1000 * MS;
	ASSERT_EQ(0, pthread_create(&th, NULL, npu_submit_thread, &w));
	usleep(300 * 1000);
	t_sig = npu_now_ns();
	ASSERT_EQ(0, pthread_kill(th, SIGUSR1));
	pthread_join(th, NULL);
	EXPECT_EQ(-1, w.ret);
	EXPECT_EQ(EINTR, w.err) TH_LOG("got %s", strerror(w.err));
	EXPECT_EQ(NPUKIT_STATUS_INTERRUPTED, w.s.status);
	EXPECT_EQ(0, w.s.kicks_done);
	EXPECT_EQ(0x5a5a5a5a, got[0][0]);
	EXPECT_GT(700 * MS, w.end_ns - t_sig)
		TH_LOG("returned %lld ms after the signal",
		       (long long)((w.end_ns - t_sig) / MS));
	EXPECT_EQ(0, holder_end(&h));
	EXPECT_EQ(0, h.t.ret) TH_LOG("holder: %s", strerror(h.t.err));
	signal(SIGUSR1, SIG_DFL);
}

NPU_TEST_TIMEOUT(signal_stops_batch_at_chunk, 240)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct npu_submitter w = { .fd = self->fd };
	const uint32_t n = 2048;
	struct npukit_kick *k = calloc(n, sizeof(*k));
	npu_ctile *want = calloc(n, sizeof(*want));
	npu_ctile *got = calloc(n, sizeof(*got));
	pthread_t th;

	ASSERT_TRUE(k && want && got);
	NEED_SIM();
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	npu_readback_batch(k, n, want, 11);
	memset(got, 0x5a, n * sizeof(*got));
	npu_submit_init(&w.s, k, n, got, n);
	w.s.timeout_ns = npu_now_ns() + 120LL * 1000 * MS;
	ASSERT_EQ(0, npu_knob_write("slow", 1000));
	ASSERT_EQ(0, pthread_create(&th, NULL, npu_submit_thread, &w));
	usleep(200 * 1000);
	ASSERT_EQ(0, pthread_kill(th, SIGUSR1));
	pthread_join(th, NULL);
	EXPECT_EQ(0, npu_knob_write("slow", 1));
	EXPECT_EQ(-1, w.ret);
	EXPECT_EQ(EINTR, w.err) TH_LOG("got %s", strerror(w.err));
	EXPECT_EQ(NPUKIT_STATUS_INTERRUPTED, w.s.status);
	EXPECT_GT(n, w.s.kicks_done);
	/* single-kick sums: every chunk is 64 kicks, and it stops between */
	EXPECT_EQ(0, w.s.kicks_done % 64) TH_LOG("kicks_done %u", w.s.kicks_done);
	for (uint32_t i = 0; i < n; i++) {
		if (i < w.s.kicks_done) {
			ASSERT_EQ(0, memcmp(want[i], got[i], sizeof(got[i])))
				TH_LOG("slot %u of a counted kick is wrong", i);
		} else {
			ASSERT_EQ(0x5a5a5a5a, got[i][0])
				TH_LOG("slot %u of an uncounted kick written", i);
		}
	}
	signal(SIGUSR1, SIG_DFL);
	free(k);
	free(want);
	free(got);
}

/* Wait up to 60 s for the device's batches to hold @bytes of its cap */
static long long wait_held(long long bytes)
{
	long long held = -1;

	for (int i = 0; i < 600; i++) {
		held = npu_stat("held_bytes");
		if (held < 0 || held >= bytes)
			break;
		usleep(100 * 1000);
	}
	return held;
}

/*
 * The device's batches hold at most 24 MiB at once (design.rst "Bounded
 * batches"): two holders of 65,536 kicks hold 17 MB of it, so a third
 * batch of as many kicks waits for the cap. That wait is bounded like the
 * wait for the device, and comes after the kicks are checked: a bad kick
 * is -EINVAL at once, not -ETIMEDOUT at the deadline; the Out fields of a
 * rejected batch are not written.
 */
NPU_TEST_TIMEOUT(cap_wait_bounded_and_kicks_checked_first, 600)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	const uint32_t n = self->info.max_kicks;
	const long long holder_bytes = (long long)n * sizeof(struct npukit_kick);
	struct npu_submitter w = { .fd = self->fd };
	struct npukit_kick *k = calloc(n, sizeof(*k));
	struct holder h1, h2;
	int64_t t0, took;
	uint64_t seed = 7;
	pthread_t th;

	ASSERT_TRUE(k != NULL);
	NEED_SIM();
	ASSERT_LE(0, npu_stat("held_bytes")) TH_LOG("no held_bytes in debugfs stats");
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, holder_start(&h1, self->fd, n, false));
	ASSERT_LE(holder_bytes, wait_held(holder_bytes));
	ASSERT_EQ(0, holder_start(&h2, self->fd, n, false));
	ASSERT_LE(2 * holder_bytes, wait_held(2 * holder_bytes));

	for (uint32_t i = 0; i < n; i++)
		npu_fill_random(&k[i], &seed);
	k[0].flags = NPUKIT_KICK_CLEAR;
	k[n - 1].flags = 1u << 31;
	npu_submit_init(&w.s, k, n, NULL, 0);
	w.s.kicks_done = 0xdeadbeef;
	w.s.status = 0xdeadbeef;
	w.s.timeout_ns = npu_now_ns() + 20LL * 1000 * MS;
	test_err_submit(EINVAL, self->fd, &w.s);
	EXPECT_EQ(0xdeadbeef, w.s.kicks_done);
	EXPECT_EQ(0xdeadbeef, w.s.status);

	k[n - 1].flags = 0;
	npu_submit_init(&w.s, k, n, NULL, 0);
	t0 = npu_now_ns();
	w.s.timeout_ns = t0 + 300 * MS;
	test_err_submit(ETIMEDOUT, self->fd, &w.s);
	took = npu_now_ns() - t0;
	EXPECT_EQ(NPUKIT_STATUS_TIMEOUT, w.s.status);
	EXPECT_EQ(0, w.s.kicks_done);
	EXPECT_EQ(0, w.s.mmio_writes);
	EXPECT_GT(5000 * MS, took) TH_LOG("returned %lld ms after the call",
					  (long long)(took / MS));

	w.s.timeout_ns = npu_now_ns() + 120LL * 1000 * MS;
	ASSERT_EQ(0, pthread_create(&th, NULL, npu_submit_thread, &w));
	usleep(500 * 1000);
	ASSERT_EQ(0, pthread_kill(th, SIGUSR1));
	pthread_join(th, NULL);
	EXPECT_EQ(EINTR, w.err) TH_LOG("got %s", strerror(w.err));
	EXPECT_EQ(NPUKIT_STATUS_INTERRUPTED, w.s.status);
	EXPECT_EQ(0, w.s.kicks_done);
	/* neither the timed-out nor the interrupted batch kept its share */
	/* each holder: its kicks, its one result slot, a page (npukit_job.c) */
	EXPECT_EQ(2 * (holder_bytes + (long long)sizeof(npu_ctile) +
		       sysconf(_SC_PAGESIZE)), npu_stat("held_bytes"));

	EXPECT_EQ(0, holder_stop(&h2));
	EXPECT_EQ(0, holder_stop(&h1));
	EXPECT_TRUE(h2.t.ret == 0 || h2.t.err == EINTR) TH_LOG("%s", strerror(h2.t.err));
	EXPECT_TRUE(h1.t.ret == 0 || h1.t.err == EINTR) TH_LOG("%s", strerror(h1.t.err));
	EXPECT_EQ(0, npu_stat("held_bytes"));
	signal(SIGUSR1, SIG_DFL);
	free(k);
}

/* Sums of the holder written so far: its slots not holding the fill */
static uint32_t sums_written(const struct holder *h)
{
	uint32_t n = 0;

	for (uint32_t j = 0; j < h->t.s.result_count; j++)
		n += __atomic_load_n(&h->got[j][0], __ATOMIC_RELAXED) !=
		     0x5a5a5a5a;
	return n;
}

/*
 * 8190 kicks in 2-kick sums that straddle every 64-kick boundary: before
 * issue 27 the holder kept the device for the whole batch; now a waiter
 * gets it within a section, a sum and a chunk. Counted in the holder's
 * kicks, from its result slots (written a chunk at a time), not in time:
 * the holder ran at most two sections and a chunk while the waiter
 * waited, not the thousands of kicks it had left.
 */
#define TWO_SUM_KICKS	8190
NPU_TEST_TIMEOUT(clear_patterns_bound_the_wait, 240)
{
	struct npukit_kick k[1];
	npu_ctile want[1], got[1];
	struct npukit_submit s;
	struct holder h;
	uint32_t before, after;

	NEED_SIM();
	ASSERT_EQ(0, holder_start(&h, self->fd, TWO_SUM_KICKS, true));
	ASSERT_EQ(TWO_SUM_KICKS / 2 + 1, h.t.s.result_count);
	usleep(200 * 1000);
	one_kick(&s, k, want, got);
	s.timeout_ns = npu_now_ns() + 120LL * 1000 * MS;
	before = sums_written(&h);
	test_submit(self->fd, &s);
	after = sums_written(&h);
	ASSERT_TILES_EQ(want, got, 1);
	EXPECT_EQ(0, holder_end(&h));
	EXPECT_EQ(0, h.t.ret) TH_LOG("holder: %s", strerror(h.t.err));
	EXPECT_EQ(TWO_SUM_KICKS, h.t.s.kicks_done);
	/* the waiter came while the holder had work left */
	EXPECT_GT(h.t.s.result_count / 2, before)
		TH_LOG("the holder was nearly done before the waiter came");
	/* 2 kicks a sum: two sections of 64 kicks and a chunk, 96 sums */
	EXPECT_GE(96, after - before)
		TH_LOG("the holder ran %u sums (of %u left) while the waiter waited",
		       after - before, h.t.s.result_count - before);
	fprintf(stderr, "# the holder ran %u sums while the waiter waited\n",
		after - before);
}

static long vm_pin_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Give up CAP_IPC_LOCK, so that RLIMIT_MEMLOCK applies to this process */
static int drop_ipc_lock(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective &= ~(1U << CAP_IPC_LOCK);
	data[0].permitted &= ~(1U << CAP_IPC_LOCK);
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

/* In a child: the result slots count against its RLIMIT_MEMLOCK */
static int memlock_child(int fd)
{
	struct rlimit rl = { 64 * 1024, 64 * 1024 };
	const uint32_t big = 1024, small = 8;
	struct npukit_kick k[8];
	npu_ctile want[8], *got;
	struct npukit_submit s;

	got = aligned_alloc(4096, big * sizeof(*got));
	if (!got || drop_ipc_lock() || setrlimit(RLIMIT_MEMLOCK, &rl))
		return 10;
	if (vm_pin_kb() != 0)
		return 11;
	npu_readback_batch(k, small, want, 3);
	/* 1024 slots: 256 KiB of results, over the 64 KiB limit */
	memset(got, 0x5a, big * sizeof(*got));
	npu_submit_init(&s, k, small, got, big);
	if (ioctl(fd, NPUKIT_IOCTL_SUBMIT, &s) != -1 || errno != ENOMEM)
		return 12;
	if (s.kicks_done || got[0][0] != 0x5a5a5a5a)
		return 13;
	if (vm_pin_kb() != 0)
		return 14;
	/* 8 slots, 2 KiB: within it, and right */
	npu_submit_init(&s, k, small, got, small);
	if (ioctl(fd, NPUKIT_IOCTL_SUBMIT, &s) || s.kicks_done != small)
		return 15;
	if (memcmp(want, got, sizeof(want)))
		return 16;
	/* and nothing stays charged */
	if (vm_pin_kb() != 0)
		return 17;
	return 0;
}

NPU_TEST_TIMEOUT(memlock_limit_applies_to_results, 120)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid)
		_exit(memlock_child(self->fd));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	/* 10: setup, 11..17: the step of memlock_child() that failed */
	EXPECT_EQ(0, WEXITSTATUS(status));
}

static long meminfo_kb(const char *key)
{
	char line[256];
	long kb = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && sscanf(line + n, ": %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

#define CAPPED_KICKS	16384
#define CAPPED_SLOTS	48	/* 12 KiB: 4 pages within a 64 KiB limit */

/* A process at a 64 KiB RLIMIT_MEMLOCK submitting its largest batches */
static int capped_child(uint64_t seed)
{
	struct rlimit rl = { 64 * 1024, 64 * 1024 };
	struct npukit_kick *k = calloc(CAPPED_KICKS, sizeof(*k));
	npu_ctile *want = calloc(CAPPED_SLOTS, sizeof(*want));
	npu_ctile *got = calloc(CAPPED_SLOTS, sizeof(*got));
	struct npukit_submit s;
	int fd = open(npu_device_path(), O_RDWR | O_CLOEXEC);

	if (fd < 0 || !k || !want || !got || drop_ipc_lock() ||
	    setrlimit(RLIMIT_MEMLOCK, &rl))
		return 10;
	npu_krun_batch(k, CAPPED_KICKS, 64, CAPPED_SLOTS, &seed);
	npu_ref_batch(k, CAPPED_KICKS, want);
	for (int i = 0; i < 3; i++) {
		memset(got, 0, CAPPED_SLOTS * sizeof(*got));
		npu_submit_init(&s, k, CAPPED_KICKS, got, CAPPED_SLOTS);
		s.timeout_ns = npu_now_ns() + 600LL * 1000 * MS;
		if (ioctl(fd, NPUKIT_IOCTL_SUBMIT, &s))
			return 11;
		if (memcmp(want, got, CAPPED_SLOTS * sizeof(*got)))
			return 12;
		if (vm_pin_kb() != 0)
			return 13;
	}
	return 0;
}

/*
 * Three processes, each at its RLIMIT_MEMLOCK, submit their largest
 * batches at once; meanwhile a fourth takes and touches half of what the
 * machine had available before they started: nothing is killed, every
 * batch is right (the x86 guest has 512 MB, like the board).
 */
NPU_TEST_TIMEOUT(three_capped_processes_leave_memory, 600)
{
	long avail = meminfo_kb("MemAvailable");
	pid_t pid[4];
	int status;

	ASSERT_LT(0, avail);
	for (int p = 0; p < 3; p++) {
		pid[p] = fork();
		ASSERT_LE(0, pid[p]);
		if (!pid[p])
			_exit(capped_child(100 + p));
	}
	usleep(200 * 1000);
	pid[3] = fork();
	ASSERT_LE(0, pid[3]);
	if (!pid[3]) {
		size_t len = (size_t)avail / 2 * 1024;
		uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			_exit(20);
		for (size_t i = 0; i < len; i += 4096)
			m[i] = 1;
		_exit(0);
	}
	for (int p = 0; p < 4; p++) {
		ASSERT_EQ(pid[p], waitpid(pid[p], &status, 0));
		EXPECT_TRUE(WIFEXITED(status))
			TH_LOG("process %d killed by signal %d", p,
			       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
		/* 10..13: the step of capped_child() that failed, 20: mmap */
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("process %d", p);
	}
}

/*
 * kick_size 4096 (a future UAPI's kick, its tail zero): 16384 kicks are
 * 64 MiB of the caller's memory, untouched pages but the first. The
 * driver copies 136 bytes of each and pins none of them: VmPin stays 0
 * while the batch runs.
 */
NPU_TEST_TIMEOUT(large_kick_size_pins_nothing, 240)
{
	const uint32_t n = 16384, ksize = 4096;
	struct npu_submitter t = { .fd = self->fd };
	size_t len = (size_t)n * ksize;
	uint8_t *mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	struct npukit_kick *k0 = (struct npukit_kick *)mem;
	npu_ctile want[1], got[1];
	long max_pin = 0, pin;
	pthread_t th;
	uint64_t seed = 4;

	ASSERT_NE(MAP_FAILED, mem);
	npu_fill_random(k0, &seed);
	k0->flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C;
	npu_ref_batch(k0, 1, want);
	/* the rest: all-zero kicks that add 0 to the accumulators */
	npu_submit_init(&t.s, k0, n, got, 1);
	t.s.kick_size = ksize;
	t.s.timeout_ns = npu_now_ns() + 120LL * 1000 * MS;
	ASSERT_EQ(0, pthread_create(&th, NULL, npu_submit_thread, &t));
	while (!__atomic_load_n(&t.end_ns, __ATOMIC_ACQUIRE)) {
		pin = vm_pin_kb();
		if (pin > max_pin)
			max_pin = pin;
		usleep(1000);
	}
	pthread_join(th, NULL);
	EXPECT_EQ(0, t.ret) TH_LOG("%s", strerror(t.err));
	EXPECT_EQ(n, t.s.kicks_done);
	ASSERT_TILES_EQ(want, got, 1);
	/* one result page, charged while the batch ran */
	EXPECT_GE(8, max_pin) TH_LOG("VmPin reached %ld kB", max_pin);
	EXPECT_EQ(0, vm_pin_kb());
	munmap(mem, len);
}

/*
 * The kicks' memory is not held while the batch runs: 65536 kicks of 1024
 * bytes, every page touched, unmapped while the batch runs, give their
 * 64 MiB back at once. Pinned (as before issue 27), the pages would stay
 * taken until the batch ended, seconds later at the "slow" knob. The
 * batch still completes, from its copy.
 */
NPU_TEST_TIMEOUT(unmapped_kicks_free_their_memory, 400)
{
	const uint32_t n = 65536, ksize = 1024;
	struct npu_submitter t = { .fd = self->fd };
	size_t len = (size_t)n * ksize;
	uint8_t *mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct npukit_kick *k0 = (struct npukit_kick *)mem;
	struct npukit_kick *last = (struct npukit_kick *)(mem + len - ksize);
	npu_ctile want[1], got[1];
	int64_t took;
	long free0, free1 = -1;
	pthread_t th;
	uint64_t seed = 5;

	ASSERT_NE(MAP_FAILED, mem);
	NEED_SIM();
	ASSERT_LE(n, self->info.max_kicks);
	/* every page its own frame: all-zero kicks that add 0 */
	memset(mem, 0, len);
	npu_fill_random(k0, &seed);
	k0->flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C;
	npu_ref_batch(k0, 1, want);
	/*
	 * How long taking the kicks takes here: the same batch with its last
	 * kick bad is copied and checked whole, then refused, nothing run.
	 * Half as long again into the slow batch its kicks were taken, and
	 * it runs on for seconds (65536 runs at 1000 times their length).
	 */
	last->flags = 1u << 31;
	npu_submit_init(&t.s, k0, n, got, 1);
	t.s.kick_size = ksize;
	t.s.timeout_ns = npu_now_ns() + 120LL * 1000 * MS;
	took = npu_now_ns();
	test_err_submit(EINVAL, self->fd, &t.s);
	took = npu_now_ns() - took;
	last->flags = 0;
	npu_submit_init(&t.s, k0, n, got, 1);
	t.s.kick_size = ksize;
	t.s.timeout_ns = npu_now_ns() + 240LL * 1000 * MS;
	ASSERT_EQ(0, npu_knob_write("slow", 1000));
	ASSERT_EQ(0, pthread_create(&th, NULL, npu_submit_thread, &t));
	usleep((took + took / 2 + 200 * MS) / 1000);
	free0 = meminfo_kb("MemFree");
	ASSERT_EQ(0, munmap(mem, len));
	for (int i = 0; i < 20; i++) {
		usleep(10 * 1000);
		free1 = meminfo_kb("MemFree");
		if (free1 - free0 >= 48 * 1024)
			break;
	}
	EXPECT_EQ(0, __atomic_load_n(&t.end_ns, __ATOMIC_ACQUIRE))
		TH_LOG("the batch ended before its memory was unmapped");
	EXPECT_LE(48 * 1024, free1 - free0)
		TH_LOG("unmapping 64 MiB of kicks freed %ld kB while the batch ran (%lld ms to take them)",
		       free1 - free0, (long long)(took / MS));
	EXPECT_EQ(0, npu_knob_write("slow", 1));
	pthread_join(th, NULL);
	EXPECT_EQ(0, t.ret) TH_LOG("%s", strerror(t.err));
	EXPECT_EQ(n, t.s.kicks_done);
	ASSERT_TILES_EQ(want, got, 1);
}

TEST_HARNESS_MAIN
