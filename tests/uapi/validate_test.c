// SPDX-License-Identifier: GPL-2.0
/*
 * NPUKIT_IOCTL_SUBMIT argument validation: one test per check, each batch
 * otherwise valid so that only that check can fire. After every rejection
 * the same fd must still run a valid batch (checked in teardown).
 */
#include <sys/mman.h>

#include "npukit_test.h"

#define NKICKS	4
#define NRES	2

/* A valid two-read batch: fixture tests mutate exactly one thing in it. */
FIXTURE(submit) {
	int fd;
	struct npukit_info info;
	struct npukit_kick k[NKICKS];
	npu_ctile res[NRES];
	struct npukit_submit s;
};

FIXTURE_SETUP(submit)
{
	uint64_t st = 42;

	NPU_OPEN_DEVICE();
	ASSERT_LE(NKICKS, self->info.max_kicks);
	ASSERT_LE(NRES, self->info.max_results);
	for (int i = 0; i < NKICKS; i++)
		npu_fill_random(&self->k[i], &st);
	self->k[0].flags = NPUKIT_KICK_CLEAR;
	self->k[1].flags = NPUKIT_KICK_READ_C;
	self->k[1].c_slot = 1;
	self->k[3].flags = NPUKIT_KICK_READ_C;
	npu_submit_init(&self->s, self->k, NKICKS, self->res, NRES);
}

FIXTURE_TEARDOWN(submit)
{
	npu_ctile want[NRES];

	if (self->fd < 0)
		return;
	/* Whatever the test did, the device still answers correctly. */
	npu_submit_init(&self->s, self->k, NKICKS, self->res, NRES);
	self->k[0].flags = NPUKIT_KICK_CLEAR;
	self->k[1].flags = NPUKIT_KICK_READ_C;
	self->k[1].c_slot = 1;
	self->k[2].flags = 0;
	self->k[2].c_slot = 0;
	self->k[3].flags = NPUKIT_KICK_READ_C;
	self->k[3].c_slot = 0;
	npu_ref_batch(self->k, NKICKS, want);
	EXPECT_EQ(0, ioctl(self->fd, NPUKIT_IOCTL_SUBMIT, &self->s))
		TH_LOG("valid batch after the rejection: %s", strerror(errno));
	EXPECT_EQ(0, memcmp(want, self->res, sizeof(want)));
	close(self->fd);
}

#define VTEST(_name) NPU_TEST_F(submit, _name)

/* The baseline itself must pass, or every rejection below proves nothing. */
VTEST(baseline_valid)
{
	npu_ctile want[NRES];

	npu_ref_batch(self->k, NKICKS, want);
	test_submit(self->fd, &self->s);
	ASSERT_EQ(0, memcmp(want, self->res, sizeof(want)));
}

VTEST(kicks_ptr_null)
{
	self->s.kicks_ptr = 0;
	test_err_submit(EFAULT, self->fd, &self->s);
}

VTEST(kicks_ptr_unmapped)
{
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	self->s.kicks_ptr = (uintptr_t)p;
	test_err_submit(EFAULT, self->fd, &self->s);
	munmap(p, 4096);
}

/* The array runs off the end of the mapping in its last kick. */
VTEST(kicks_ptr_straddles_end)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct npukit_kick *k;

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p + 4096, 4096));
	k = (struct npukit_kick *)(p + 4096 - sizeof(self->k) + 8);
	memcpy(k, self->k, sizeof(self->k) - 8);
	self->s.kicks_ptr = (uintptr_t)k;
	test_err_submit(EFAULT, self->fd, &self->s);
	munmap(p, 4096);
}

VTEST(results_ptr_null)
{
	self->s.results_ptr = 0;
	test_err_submit(EFAULT, self->fd, &self->s);
}

VTEST(results_ptr_readonly)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	self->s.results_ptr = (uintptr_t)p;
	test_err_submit(EFAULT, self->fd, &self->s);
	munmap(p, 4096);
}

VTEST(submit_pad_nonzero)
{
	self->s.pad = 1;
	test_err_submit(EINVAL, self->fd, &self->s);
}

VTEST(submit_flags_unknown)
{
	self->s.flags = 1;
	test_err_submit(EINVAL, self->fd, &self->s);
	self->s.flags = 1U << 31;
	test_err_submit(EINVAL, self->fd, &self->s);
}

VTEST(kick_flag_unknown)
{
	self->k[2].flags = 1U << 2;
	test_err_submit(EINVAL, self->fd, &self->s);
	self->k[2].flags = 1U << 31;
	test_err_submit(EINVAL, self->fd, &self->s);
}

VTEST(first_kick_without_clear)
{
	self->k[0].flags = 0;
	test_err_submit(EINVAL, self->fd, &self->s);
	self->k[0].flags = NPUKIT_KICK_READ_C;
	test_err_submit(EINVAL, self->fd, &self->s);
}

/* A slot beyond the results array: -EOVERFLOW, as ethosu reports a job
 * reaching outside its buffers (and as Documentation/npukit documents). */
VTEST(c_slot_out_of_range)
{
	self->k[1].c_slot = NRES;
	test_err_submit(EOVERFLOW, self->fd, &self->s);
	self->k[1].c_slot = UINT32_MAX;
	test_err_submit(EOVERFLOW, self->fd, &self->s);
}

VTEST(c_slot_without_read)
{
	self->k[2].c_slot = 1;
	test_err_submit(EINVAL, self->fd, &self->s);
}

/* A read-back with no result slots at all. */
VTEST(read_with_zero_results)
{
	self->s.result_count = 0;
	test_err_submit(EOVERFLOW, self->fd, &self->s);
}

VTEST(kick_count_zero)
{
	self->s.kick_count = 0;
	test_err_submit(EINVAL, self->fd, &self->s);
}

VTEST(kick_count_too_large)
{
	self->s.kick_count = self->info.max_kicks + 1;
	test_err_submit(EINVAL, self->fd, &self->s);
	self->s.kick_count = UINT32_MAX;
	test_err_submit(EINVAL, self->fd, &self->s);
}

VTEST(result_count_too_large)
{
	self->s.result_count = self->info.max_results + 1;
	test_err_submit(EINVAL, self->fd, &self->s);
	self->s.result_count = UINT32_MAX;
	test_err_submit(EINVAL, self->fd, &self->s);
}

/* Smaller than the driver's kick, not a multiple of 8, or absurd. */
VTEST(kick_size_wrong)
{
	self->s.kick_size = 0;
	test_err_submit(EINVAL, self->fd, &self->s);
	self->s.kick_size = sizeof(struct npukit_kick) - 8;
	test_err_submit(EINVAL, self->fd, &self->s);
	self->s.kick_size = sizeof(struct npukit_kick) + 4;
	test_err_submit(EINVAL, self->fd, &self->s);
	self->s.kick_size = 1U << 20;
	test_err_submit(EINVAL, self->fd, &self->s);
}

/* A newer userspace's larger kick: accepted when its tail is zero. */
struct wide_kick {
	struct npukit_kick k;
	uint64_t tail;
};

static void widen(const struct npukit_kick *k, struct wide_kick *w, int n)
{
	memset(w, 0, sizeof(*w) * n);
	for (int i = 0; i < n; i++)
		w[i].k = k[i];
}

VTEST(kick_size_larger_zero_tail)
{
	struct wide_kick w[NKICKS];
	npu_ctile want[NRES];

	widen(self->k, w, NKICKS);
	npu_ref_batch(self->k, NKICKS, want);
	self->s.kicks_ptr = (uintptr_t)w;
	self->s.kick_size = sizeof(w[0]);
	test_submit(self->fd, &self->s);
	ASSERT_EQ(0, memcmp(want, self->res, sizeof(want)));
}

VTEST(kick_size_larger_nonzero_tail)
{
	struct wide_kick w[NKICKS];

	widen(self->k, w, NKICKS);
	w[NKICKS - 1].tail = 1;
	self->s.kicks_ptr = (uintptr_t)w;
	self->s.kick_size = sizeof(w[0]);
	test_err_submit(E2BIG, self->fd, &self->s);
}

/* Version 1 is the first: any smaller size is malformed, -EINVAL. */
VTEST(size_too_small)
{
	self->s.size = 0;
	test_err_submit(EINVAL, self->fd, &self->s);
	self->s.size = offsetof(struct npukit_submit, timeout_ns);
	test_err_submit(EINVAL, self->fd, &self->s);
	self->s.size = offsetof(struct npukit_submit, device_ns);
	test_err_submit(EINVAL, self->fd, &self->s);
}

VTEST(size_larger_nonzero_tail)
{
	struct {
		struct npukit_submit s;
		uint64_t tail;
	} big = { .s = self->s, .tail = 1 };

	big.s.size = sizeof(big);
	test_err_submit(E2BIG, self->fd, &big);
}

VTEST(size_larger_zero_tail)
{
	struct {
		struct npukit_submit s;
		uint64_t tail;
	} big = { .s = self->s, .tail = 0 };

	big.s.size = sizeof(big);
	test_submit(self->fd, &big);
	ASSERT_EQ(NKICKS, big.s.kicks_done);
	ASSERT_EQ(0, big.tail);
}

VTEST(submit_arg_null)
{
	test_err_submit(EFAULT, self->fd, NULL);
}

VTEST(timeout_in_past)
{
	self->s.timeout_ns = npu_now_ns() - 1000;
	test_err_submit(ETIME, self->fd, &self->s);
	self->s.timeout_ns = 0;
	test_err_submit(ETIME, self->fd, &self->s);
	self->s.timeout_ns = INT64_MIN;
	test_err_submit(ETIME, self->fd, &self->s);
}

/* Nothing ran: a rejected batch writes no result. */
VTEST(rejected_writes_nothing)
{
	memset(self->res, 0x33, sizeof(self->res));
	self->k[3].flags |= 1U << 5;
	test_err_submit(EINVAL, self->fd, &self->s);
	for (int s = 0; s < NRES; s++) {
		for (int i = 0; i < NPU_ELEMS; i++) {
			ASSERT_EQ(0x33333333, self->res[s][i]);
		}
	}
}

VTEST(unknown_ioctl)
{
	test_err_ioctl(ENOTTY, self->fd, _IO(NPUKIT_IOCTL_MAGIC, 0x02), &self->s);
	test_err_ioctl(ENOTTY, self->fd, _IOWR('T', 0x01, struct npukit_submit), &self->s);
}

TEST_HARNESS_MAIN
