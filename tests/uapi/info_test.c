// SPDX-License-Identifier: GPL-2.0
/*
 * NPUKIT_IOCTL_GET_INFO: the fields, and the size-first extensibility rules
 * (older smaller struct accepted, larger one only with a zero tail).
 */
#include "npukit_test.h"

NPU_TEST(fields)
{
	const struct npukit_info *i = &self->info;

	ASSERT_EQ(sizeof(*i), i->size);
	ASSERT_EQ(NPUKIT_UAPI_VERSION, i->uapi_version);
	ASSERT_EQ(NPU_ID, i->ip_id);
	/* The driver supports the stream/DMA IP versions, 0x200 and later. */
	ASSERT_LE(0x200, i->ip_version);
	ASSERT_GT(0x400, i->ip_version);
	if (i->ip_version < 0x300) {
		ASSERT_EQ(0, i->ip_features);
	} else {
		ASSERT_NE(0, i->ip_features & 1) TH_LOG("FEATURES lacks GEMM");
	}
	ASSERT_EQ(NPUKIT_TILE_N, i->array_n);
	ASSERT_TRUE(i->backend == NPUKIT_BACKEND_HARDWARE ||
		    i->backend == NPUKIT_BACKEND_SIMULATED);
	ASSERT_LE(1, i->max_kicks);
	ASSERT_LE(1, i->max_results);
	/* One A||B load (128 bytes) and one C read-back (256) must fit. */
	ASSERT_LE(256, i->dma_max_bytes);
	ASSERT_EQ(sizeof(struct npukit_kick), i->kick_size);
	ASSERT_EQ(0, i->pad);
}

NPU_TEST(same_answer_twice)
{
	struct npukit_info again = { .size = sizeof(again) };

	test_ioctl(self->fd, NPUKIT_IOCTL_GET_INFO, &again);
	ASSERT_EQ(0, memcmp(&again, &self->info, sizeof(again)));
}

/*
 * A size below the first version of the struct is malformed, not old:
 * version 1 is the first, so anything smaller than it is -EINVAL (as in
 * iommufd, where min_size is the first version's size). The kernel must
 * not write a byte of it either.
 */
NPU_TEST(smaller_than_first_version)
{
	unsigned char buf[sizeof(struct npukit_info)];
	struct npukit_info *i = (struct npukit_info *)buf;

	memset(buf, 0xA5, sizeof(buf));
	i->size = sizeof(*i) - 4;
	test_err_ioctl(EINVAL, self->fd, NPUKIT_IOCTL_GET_INFO, i);
	for (size_t b = sizeof(i->size); b < sizeof(buf); b++) {
		ASSERT_EQ(0xA5, buf[b]) TH_LOG("byte %zu written", b);
	}
}

/* A newer userspace with a zero tail: accepted, the tail left zero. */
NPU_TEST(larger_size_zero_tail)
{
	unsigned char buf[sizeof(struct npukit_info) + 16] = { 0 };
	struct npukit_info *i = (struct npukit_info *)buf;

	i->size = sizeof(buf);
	test_ioctl(self->fd, NPUKIT_IOCTL_GET_INFO, i);
	ASSERT_EQ(NPU_ID, i->ip_id);
	ASSERT_EQ(self->info.max_kicks, i->max_kicks);
	for (size_t b = sizeof(struct npukit_info); b < sizeof(buf); b++) {
		ASSERT_EQ(0, buf[b]);
	}
}

NPU_TEST(larger_size_nonzero_tail)
{
	unsigned char buf[sizeof(struct npukit_info) + 16] = { 0 };
	struct npukit_info *i = (struct npukit_info *)buf;

	i->size = sizeof(buf);
	buf[sizeof(buf) - 1] = 1;
	test_err_ioctl(E2BIG, self->fd, NPUKIT_IOCTL_GET_INFO, i);
}

NPU_TEST(size_too_small)
{
	struct npukit_info i = { .size = 0 };

	test_err_ioctl(EINVAL, self->fd, NPUKIT_IOCTL_GET_INFO, &i);
	i.size = 2;
	test_err_ioctl(EINVAL, self->fd, NPUKIT_IOCTL_GET_INFO, &i);
}

NPU_TEST(pad_nonzero)
{
	struct npukit_info i = { .size = sizeof(i), .pad = 1 };

	test_err_ioctl(EINVAL, self->fd, NPUKIT_IOCTL_GET_INFO, &i);
}

NPU_TEST(bad_pointer)
{
	test_err_ioctl(EFAULT, self->fd, NPUKIT_IOCTL_GET_INFO, NULL);
	test_err_ioctl(EFAULT, self->fd, NPUKIT_IOCTL_GET_INFO, (void *)8);
}

NPU_TEST(unknown_ioctl)
{
	struct npukit_info i = { .size = sizeof(i) };

	test_err_ioctl(ENOTTY, self->fd, _IO(NPUKIT_IOCTL_MAGIC, 0x7f), &i);
	test_err_ioctl(ENOTTY, self->fd, _IO(NPUKIT_IOCTL_MAGIC + 1, 0x00), &i);
	/* The size lives in the struct: a sized ioctl number is not ours. */
	test_err_ioctl(ENOTTY, self->fd, _IOWR(NPUKIT_IOCTL_MAGIC, 0x00, struct npukit_info), &i);
}

TEST_HARNESS_MAIN
