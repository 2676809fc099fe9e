// SPDX-License-Identifier: GPL-2.0
/*
 * NPUKIT_IOCTL_SUBMIT computes what the CPU reference computes: one kick,
 * K accumulation, random batches, int8 extremes, the largest batch; and the
 * per-batch Out fields (status, kicks_done, register and DMA counters)
 * describe what the batch did.
 */
#include <sys/mman.h>

#include "npukit_test.h"

#define SEED_DEFAULT	0x5eed1234abcdULL

static uint64_t test_seed(void)
{
	const char *s = getenv("NPUKIT_SEED");

	return s && *s ? strtoull(s, NULL, 0) : SEED_DEFAULT;
}

/* The Out fields of a batch that completed every kick. */
#define ASSERT_BATCH_OK(_s, _nkicks, _nreads) do {				\
	ASSERT_EQ(NPUKIT_STATUS_OK, (_s)->status);				\
	ASSERT_EQ((_nkicks), (_s)->kicks_done);					\
	/* Each kick streams A||B in; each read-back streams C out. */	\
	ASSERT_EQ(128ULL * (_nkicks) + 256ULL * (_nreads), (_s)->dma_bytes);	\
	/* Completion is only known by reading STATUS; a load, LENGTH	\
	 * and CTRL are writes: lower bounds of any correct protocol. */	\
	ASSERT_LE(1ULL * (_nkicks), (_s)->mmio_reads);				\
	ASSERT_LE(3ULL * (_nkicks), (_s)->mmio_writes);				\
	ASSERT_LT(0, (_s)->device_ns);						\
} while (0)

static uint32_t count_reads(const struct npukit_kick *k, uint32_t n)
{
	uint32_t r = 0;

	for (uint32_t i = 0; i < n; i++)
		r += !!(k[i].flags & NPUKIT_KICK_READ_C);
	return r;
}

NPU_TEST(one_kick)
{
	struct npukit_kick k = { .flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C };
	npu_ctile got[1], want[1];
	struct npukit_submit s;

	for (int i = 0; i < NPU_ELEMS; i++) {
		k.a[i] = (int8_t)(i - 32);
		k.b[i] = (int8_t)(3 * i - 100);
	}
	memset(got, 0x5a, sizeof(got));
	npu_ref_batch(&k, 1, want);
	npu_submit_init(&s, &k, 1, got, 1);
	test_submit(self->fd, &s);
	ASSERT_BATCH_OK(&s, 1, 1);
	ASSERT_TILES_EQ(want, got, 1);
}

/* B not transposed, A row-major: the identity on either side shows it. */
NPU_TEST(layout_identity)
{
	struct npukit_kick k[2] = { { .flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C },
				    { .flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C,
				      .c_slot = 1 } };
	npu_ctile got[2];
	struct npukit_submit s;

	for (int i = 0; i < NPU_ELEMS; i++) {
		k[0].a[i] = (i / NPU_TILE == i % NPU_TILE);
		k[0].b[i] = (int8_t)(i + 1);
		k[1].a[i] = (int8_t)(i - 64);
		k[1].b[i] = (i / NPU_TILE == i % NPU_TILE);
	}
	npu_submit_init(&s, k, 2, got, 2);
	test_submit(self->fd, &s);
	for (int i = 0; i < NPU_ELEMS; i++) {
		ASSERT_EQ(i + 1, got[0][i]) TH_LOG("I * B, element %d", i);
		ASSERT_EQ(i - 64, got[1][i]) TH_LOG("A * I, element %d", i);
	}
}

/* CLEAR once, then hundreds of kicks accumulate on chip, read once. */
NPU_TEST(k_accumulation)
{
	const uint32_t n = self->info.max_kicks < 512 ? self->info.max_kicks : 512;
	struct npukit_kick *k = calloc(n, sizeof(*k));
	uint64_t st = test_seed();
	npu_ctile got[1], want[1];
	struct npukit_submit s;

	ASSERT_NE(NULL, k);
	for (uint32_t i = 0; i < n; i++)
		npu_fill_random(&k[i], &st);
	k[0].flags = NPUKIT_KICK_CLEAR;
	k[n - 1].flags |= NPUKIT_KICK_READ_C;
	npu_ref_batch(k, n, want);
	npu_submit_init(&s, k, n, got, 1);
	test_submit(self->fd, &s);
	ASSERT_BATCH_OK(&s, n, 1);
	ASSERT_TILES_EQ(want, got, 1);
	free(k);
}

/* Read-backs mid-accumulation see the partial sums; CLEAR restarts. */
NPU_TEST(partial_reads)
{
	struct npukit_kick k[6] = { 0 };
	uint64_t st = test_seed() + 1;
	npu_ctile got[4], want[4];
	struct npukit_submit s;

	for (int i = 0; i < 6; i++)
		npu_fill_random(&k[i], &st);
	k[0].flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C;
	k[1].flags = NPUKIT_KICK_READ_C;
	k[1].c_slot = 3;
	k[3].flags = NPUKIT_KICK_READ_C;
	k[3].c_slot = 1;
	k[4].flags = NPUKIT_KICK_CLEAR;
	k[5].flags = NPUKIT_KICK_READ_C;
	k[5].c_slot = 2;
	npu_ref_batch(k, 6, want);
	npu_submit_init(&s, k, 6, got, 4);
	test_submit(self->fd, &s);
	ASSERT_BATCH_OK(&s, 6, 4);
	ASSERT_TILES_EQ(want, got, 4);
}

/* A slot no kick reads back is left as userspace wrote it. */
NPU_TEST(unread_slot_untouched)
{
	struct npukit_kick k = { .flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C,
				 .c_slot = 1 };
	npu_ctile got[3];
	struct npukit_submit s;

	k.a[0] = 2;
	k.b[0] = 3;
	memset(got, 0x5a, sizeof(got));
	npu_submit_init(&s, &k, 1, got, 3);
	test_submit(self->fd, &s);
	ASSERT_EQ(6, got[1][0]);
	for (int i = 0; i < NPU_ELEMS; i++) {
		ASSERT_EQ(0x5a5a5a5a, got[0][i]);
		ASSERT_EQ(0x5a5a5a5a, got[2][i]);
	}
}

/* Accumulators do not leak from one SUBMIT into the next. */
NPU_TEST(batches_independent)
{
	struct npukit_kick k = { .flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C };
	npu_ctile got[1];
	struct npukit_submit s;

	for (int i = 0; i < NPU_ELEMS; i++) {
		k.a[i] = 1;
		k.b[i] = 1;
	}
	for (int rep = 0; rep < 3; rep++) {
		npu_submit_init(&s, &k, 1, got, 1);
		test_submit(self->fd, &s);
		for (int i = 0; i < NPU_ELEMS; i++) {
			ASSERT_EQ(NPU_TILE, got[0][i]);
		}
	}
}

/*
 * One random batch of @n kicks and @nres result slots through SUBMIT,
 * checked against the CPU reference. Slots no kick reads must match too,
 * so both sides start zeroed.
 */
static void random_batch_round_trip(struct __test_metadata *_metadata, int fd,
				    struct npukit_kick *k, uint32_t n, npu_ctile *got,
				    npu_ctile *want, uint32_t nres, uint64_t *st)
{
	struct npukit_submit s;

	npu_random_batch(k, n, nres, st);
	memset(got, 0, sizeof(*got) * nres);
	memset(want, 0, sizeof(*want) * nres);
	npu_ref_batch(k, n, want);
	npu_submit_init(&s, k, n, got, nres);
	/*
	 * The largest batch takes over 20 s on the emulated Zynq (TCG, KASAN)
	 * when the host is busy: give it most of its 120 s test timeout.
	 */
	if (n > 4096)
		s.timeout_ns = npu_now_ns() + 100LL * 1000 * 1000 * 1000;
	test_submit(fd, &s);
	ASSERT_BATCH_OK(&s, n, count_reads(k, n));
	ASSERT_TILES_EQ(want, got, nres);
}

NPU_TEST_TIMEOUT(random_batches, 120)
{
	const uint32_t maxk = self->info.max_kicks < 200 ? self->info.max_kicks : 200;
	const uint32_t maxr = self->info.max_results < 16 ? self->info.max_results : 16;
	struct npukit_kick *k = calloc(maxk, sizeof(*k));
	npu_ctile *got = calloc(maxr, sizeof(*got));
	npu_ctile *want = calloc(maxr, sizeof(*want));
	const uint64_t seed = test_seed();
	uint64_t st = seed;

	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	TH_LOG("seed 0x%llx (NPUKIT_SEED reproduces)", (unsigned long long)seed);
	for (int iter = 0; iter < 40; iter++) {
		uint32_t n = 1 + npu_rand(&st) % maxk;
		uint32_t nres = 1 + npu_rand(&st) % maxr;

		/* A failed ASSERT in there ends the test (the harness longjmps). */
		random_batch_round_trip(_metadata, self->fd, k, n, got, want, nres, &st);
	}
	free(k);
	free(got);
	free(want);
}

/* -128 * -128 * 8 per kick: the largest products, summed over many kicks. */
NPU_TEST(int8_extremes)
{
	const uint32_t n = self->info.max_kicks < 64 ? self->info.max_kicks : 64;
	struct npukit_kick *k = calloc(n, sizeof(*k));
	npu_ctile got[3], want[3];
	struct npukit_submit s;

	ASSERT_NE(NULL, k);
	for (uint32_t i = 0; i < n; i++) {
		memset(k[i].a, 0x80, sizeof(k[i].a));
		memset(k[i].b, 0x80, sizeof(k[i].b));
	}
	k[0].flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C;
	k[n - 1].flags |= NPUKIT_KICK_READ_C;
	k[n - 1].c_slot = 1;
	npu_ref_batch(k, n, want);
	ASSERT_EQ(128 * 128 * 8, want[0][0]);
	ASSERT_EQ(128 * 128 * 8 * (int32_t)n, want[1][63]);
	npu_submit_init(&s, k, n, got, 2);
	test_submit(self->fd, &s);
	ASSERT_TILES_EQ(want, got, 2);

	/* Mixed signs: -128 * 127 is the most negative product. */
	memset(k, 0, sizeof(*k) * n);
	for (uint32_t i = 0; i < n; i++) {
		memset(k[i].a, 0x80, sizeof(k[i].a));
		memset(k[i].b, 0x7f, sizeof(k[i].b));
	}
	k[0].flags = NPUKIT_KICK_CLEAR;
	k[n - 1].flags |= NPUKIT_KICK_READ_C;
	k[n - 1].c_slot = 2;
	npu_ref_batch(k, n, want);
	ASSERT_EQ(-128 * 127 * 8 * (int32_t)n, want[2][0]);
	npu_submit_init(&s, k, n, got, 3);
	test_submit(self->fd, &s);
	ASSERT_TILES_EQ(want + 2, got + 2, 1);
	free(k);
}

NPU_TEST_TIMEOUT(largest_batch, 120)
{
	const uint32_t n = self->info.max_kicks;
	const uint32_t nres = self->info.max_results;
	struct npukit_kick *k = calloc(n, sizeof(*k));
	npu_ctile *got = calloc(nres, sizeof(*got));
	npu_ctile *want = calloc(nres, sizeof(*want));
	uint64_t st = test_seed() + 2;

	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	random_batch_round_trip(_metadata, self->fd, k, n, got, want, nres, &st);
	free(k);
	free(got);
	free(want);
}

/*
 * The register protocol's cost per kick, from the simulated NpuKit's
 * counters: an accumulating kick needs a handful of register accesses, so
 * a driver that polls more than it must (or re-reads C per kick) shows.
 */
NPU_TEST(counters_per_kick)
{
	const uint32_t n = self->info.max_kicks < 256 ? self->info.max_kicks : 256;
	struct npukit_kick *k = calloc(n, sizeof(*k));
	uint64_t st = test_seed() + 3;
	struct npukit_submit s1, s2;
	long long dropped;
	long idle_lag;
	npu_ctile got[1];

	ASSERT_NE(NULL, k);
	if (self->info.backend != NPUKIT_BACKEND_SIMULATED)
		SKIP(goto out, "counters are exact only on the simulated NpuKit");
	if (npu_no_debugfs())
		SKIP(goto out, NPU_NO_DEBUGFS_WHY);
	dropped = npu_stat("sim_dropped_writes");
	ASSERT_LE(0, dropped) TH_LOG("no sim_dropped_writes in debugfs stats");
	for (uint32_t i = 0; i < n; i++)
		npu_fill_random(&k[i], &st);
	k[0].flags = NPUKIT_KICK_CLEAR;
	k[n - 1].flags |= NPUKIT_KICK_READ_C;
	npu_submit_init(&s1, k, n, got, 1);
	test_submit(self->fd, &s1);
	ASSERT_BATCH_OK(&s1, n, 1);
	TH_LOG("%u kicks: %llu reads, %llu writes, %llu ns modelled", n,
	       (unsigned long long)s1.mmio_reads, (unsigned long long)s1.mmio_writes,
	       (unsigned long long)s1.device_ns);
	/*
	 * The pipelined protocol (npukit_hw.c) needs about three reads (the
	 * one that pushes START ahead of the next tile's DMA, and the two of
	 * the MM2S Idle wait) and three writes per accumulating kick and
	 * ~1.2 us of board time; the board-proven unpipelined sequence needs
	 * more than twice that. The bounds leave room for polls the wait
	 * estimates miss.
	 */
	ASSERT_GE(4ULL * n, s1.mmio_reads);
	ASSERT_GE(5ULL * n, s1.mmio_writes);
	/* plus the MM2S Idle lag the simulator is set to (timing_test.c) */
	idle_lag = npu_knob_read("idle_lag");
	ASSERT_LE(0, idle_lag) TH_LOG("no idle_lag knob in debugfs");
	ASSERT_GE((2000ULL + 10ULL * idle_lag) * n, s1.device_ns);
	/* The model's clock advances with the work, at least the GEMM time. */
	ASSERT_LE(270ULL * n, s1.device_ns);

	/* A correct protocol never has a write silently dropped (8.2). */
	ASSERT_EQ(dropped, npu_stat("sim_dropped_writes"));
	/* The same batch again, with the wait estimates settled: no dearer. */
	npu_submit_init(&s2, k, n, got, 1);
	test_submit(self->fd, &s2);
	ASSERT_GE(s1.mmio_reads + n / 8, s2.mmio_reads);
	ASSERT_GE(s1.device_ns + s1.device_ns / 8, s2.device_ns);
out:
	free(k);
}

/* Results reach memory the kernel must fault in: a fresh mapping. */
NPU_TEST(results_unfaulted_pages)
{
	struct npukit_kick k = { .flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C };
	npu_ctile want[1], *got;
	struct npukit_submit s;

	got = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, got);
	k.a[7] = -5;
	k.b[63] = 9;
	npu_ref_batch(&k, 1, want);
	npu_submit_init(&s, &k, 1, got, 1);
	test_submit(self->fd, &s);
	ASSERT_TILES_EQ(want, got, 1);
	munmap(got, 4096);
}

TEST_HARNESS_MAIN
