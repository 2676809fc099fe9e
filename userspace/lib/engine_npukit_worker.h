/* SPDX-License-Identifier: MIT */
/*
 * engine_npukit_worker.h - a second thread that runs one task at a time:
 * the NpuKit engine's SUBMIT of one chunk while the caller packs the next
 */
#ifndef TTPU_ENGINE_NPUKIT_WORKER_H
#define TTPU_ENGINE_NPUKIT_WORKER_H

struct npk_worker;

/* A started worker, or NULL when no thread could be made. */
struct npk_worker *npk_worker_start(void);

/*
 * Run @fn(@arg) on the worker. The worker must be idle (every post
 * waited for): it runs one task at a time.
 */
void npk_worker_post(struct npk_worker *w, void (*fn)(void *), void *arg);

/*
 * Wait until the posted task has returned; what it wrote is then visible
 * to the caller. Returns at once when nothing is posted.
 */
void npk_worker_wait(struct npk_worker *w);

/* Wait for the task in hand, end the thread and free @w (NULL: nothing). */
void npk_worker_stop(struct npk_worker *w);

#endif /* TTPU_ENGINE_NPUKIT_WORKER_H */
