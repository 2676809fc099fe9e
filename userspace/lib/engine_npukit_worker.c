// SPDX-License-Identifier: MIT
/*
 * engine_npukit_worker.c - one task at a time on a second thread
 * (engine_npukit_worker.h). A mutex and one condition variable: the
 * caller posts a task and later waits for it, the thread sleeps between
 * tasks. The PYNQ-Z2's A9 has two cores: while one is in the driver's
 * SUBMIT, the other packs the next chunk's kicks.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "engine_npukit_worker.h"

struct npk_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* a task posted, a task done, or quit */
	void (*fn)(void *);
	void *arg;
	bool busy;			/* posted and not yet returned */
	bool quit;
};

static void *worker_main(void *p)
{
	struct npk_worker *w = p;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->busy && !w->quit)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->busy)
			break;
		pthread_mutex_unlock(&w->lock);
		w->fn(w->arg);
		pthread_mutex_lock(&w->lock);
		w->busy = false;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct npk_worker *npk_worker_start(void)
{
	struct npk_worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	if (pthread_mutex_init(&w->lock, NULL))
		goto fail;
	if (pthread_cond_init(&w->cond, NULL))
		goto fail_lock;
	if (pthread_create(&w->thread, NULL, worker_main, w))
		goto fail_cond;
	return w;

fail_cond:
	pthread_cond_destroy(&w->cond);
fail_lock:
	pthread_mutex_destroy(&w->lock);
fail:
	free(w);
	return NULL;
}

void npk_worker_post(struct npk_worker *w, void (*fn)(void *), void *arg)
{
	pthread_mutex_lock(&w->lock);
	w->fn = fn;
	w->arg = arg;
	w->busy = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void npk_worker_wait(struct npk_worker *w)
{
	pthread_mutex_lock(&w->lock);
	while (w->busy)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void npk_worker_stop(struct npk_worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->quit = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
