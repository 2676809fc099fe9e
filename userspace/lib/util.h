/* SPDX-License-Identifier: MIT */
/*
 * util.h - the small helpers every part of the library (and the CLI) needs:
 * growing arrays without overflowing the byte count, and a monotonic clock.
 */
#ifndef TTPU_UTIL_H
#define TTPU_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/*
 * Resize *@arr (a pointer to an array) to @n items of @size bytes. A byte
 * count that does not fit in size_t fails like an allocation failure
 * (ENOMEM) instead of wrapping to a small buffer. *@arr is kept on failure.
 */
static inline int ttpu_resize(void *arr, size_t n, size_t size)
{
	void **p = arr;
	void *q;

	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return -1;
	}
	q = realloc(*p, n * size);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

/*
 * Make *@arr (capacity *@cap items of @size bytes) hold at least @need
 * items, doubling from 16 so that appending one at a time stays amortised
 * O(1). On failure *@arr and *@cap are unchanged.
 */
static inline int ttpu_grow(void *arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return 0;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (ttpu_resize(arr, n, size))
		return -1;
	*cap = n;
	return 0;
}

/* CLOCK_MONOTONIC in nanoseconds: for durations, never for dates. */
static inline uint64_t ttpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * TTPU_RUN_THREADS (Documentation/libttpu-run.rst): 1 (one thread) or 2
 * (a second thread wherever one can be used, however little the work) when
 * set to that, else 0 (each part's own threshold).
 */
static inline int ttpu_threads_env(void)
{
	const char *v = getenv("TTPU_RUN_THREADS");

	return v && (v[0] == '1' || v[0] == '2') && !v[1] ? v[0] - '0' : 0;
}

#endif /* TTPU_UTIL_H */
