// SPDX-License-Identifier: GPL-2.0
/*
 * shim_irq.c - interrupt lines, their handlers and their delivery, for
 * the driver's userspace build (shim_irq.h).
 *
 * request_irq() follows the kernel's rules where a driver can tell: a
 * line already requested is -EBUSY unless every requester passes
 * IRQF_SHARED, and a shared request needs a dev_id to free it by. A line
 * is delivered, level triggered, wherever the thread could take an
 * interrupt: after each MMIO access and while a wait lets time pass. All
 * its handlers run; when none of them says IRQ_HANDLED the line is left
 * alone until it drops (the kernel disables such a line), and a line
 * still asserted after a handler said IRQ_HANDLED is counted, since the
 * driver's handler makes sure its ack has landed before it returns.
 */
#include <stdlib.h>

#include "npukit_shim.h"

#define SHIM_IRQ_LINES		4
#define SHIM_IRQ_ACTIONS	4
/* A wait's step of board time between two looks at the lines */
#define SHIM_IRQ_WAIT_STEP_NS	100

struct shim_irq_action {
	irq_handler_t handler;
	void *data;
	unsigned long flags;
};

static struct shim_irq_line {
	unsigned int irq;
	bool used;
	bool ignored;		/* unhandled, until the line drops */
	unsigned int nact;
	struct shim_irq_action act[SHIM_IRQ_ACTIONS];
	struct shim_irq_stats st;
} shim_lines[SHIM_IRQ_LINES];

static bool shim_in_irq;
static u64 shim_irq_handled;

static struct shim_irq_line *shim_irq_line(unsigned int irq, bool create)
{
	struct shim_irq_line *free_line = NULL;
	unsigned int i;

	for (i = 0; i < SHIM_IRQ_LINES; i++) {
		if (shim_lines[i].used && shim_lines[i].irq == irq)
			return &shim_lines[i];
		if (!shim_lines[i].used && !free_line)
			free_line = &shim_lines[i];
	}
	if (!create || !free_line)
		return NULL;
	memset(free_line, 0, sizeof(*free_line));
	free_line->used = true;
	free_line->irq = irq;
	return free_line;
}

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *data)
{
	struct shim_irq_line *l;

	(void)name;
	if (!irq || !handler || ((flags & IRQF_SHARED) && !data))
		return -EINVAL;
	l = shim_irq_line(irq, true);
	if (!l || l->nact == SHIM_IRQ_ACTIONS)
		return -ENOMEM;
	if (l->nact && (!(flags & IRQF_SHARED) || !(l->act[0].flags & IRQF_SHARED)))
		return -EBUSY;
	l->act[l->nact++] = (struct shim_irq_action){ handler, data, flags };
	shim_held.irqs++;
	return 0;
}

void free_irq(unsigned int irq, void *data)
{
	struct shim_irq_line *l = shim_irq_line(irq, false);
	unsigned int i;

	for (i = 0; l && i < l->nact; i++) {
		if (l->act[i].data != data)
			continue;
		memmove(&l->act[i], &l->act[i + 1], (l->nact - i - 1) * sizeof(l->act[0]));
		l->nact--;
		shim_held.irqs--;
		shim_release_note("irq %u", irq);
		return;
	}
	fprintf(stderr, "npukit shim: free_irq(%u): already free\n", irq);
	abort();
}

struct shim_irq_devres {
	unsigned int irq;
	void *data;
};

static void shim_irq_release(void *p)
{
	struct shim_irq_devres *r = p;

	free_irq(r->irq, r->data);
	free(r);
}

int devm_request_irq(struct device *dev, unsigned int irq,
		     irq_handler_t handler, unsigned long flags,
		     const char *name, void *data)
{
	struct shim_irq_devres *r = malloc(sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	ret = request_irq(irq, handler, flags, name, data);
	if (ret) {
		free(r);
		return ret;
	}
	r->irq = irq;
	r->data = data;
	return devm_add_action_or_reset(dev, shim_irq_release, r);
}

void synchronize_irq(unsigned int irq)
{
	(void)irq;
}

/* Run every handler of @l, as the kernel's handle_irq_event() does */
static void shim_irq_deliver(struct shim_irq_line *l,
			     const struct shim_board_ops *ops, void *ctx)
{
	bool handled = false;
	unsigned int i;

	shim_in_irq = true;
	for (i = 0; i < l->nact; i++) {
		l->st.calls++;
		if (l->act[i].handler((int)l->irq, l->act[i].data) == IRQ_HANDLED)
			handled = true;
	}
	shim_in_irq = false;
	if (!handled) {
		l->st.unhandled++;
		l->ignored = true;
		return;
	}
	l->st.handled++;
	shim_irq_handled++;
	if (ops->irq_level(ctx, l->irq))
		l->st.still_asserted++;
}

void shim_irq_poll(void)
{
	const struct shim_board_ops *ops;
	void *ctx;
	unsigned int i;

	ops = shim_board(&ctx);
	if (shim_in_irq || !ops)
		return;
	for (i = 0; i < SHIM_IRQ_LINES; i++) {
		struct shim_irq_line *l = &shim_lines[i];

		if (!l->used || !l->nact)
			continue;
		if (!ops->irq_level(ctx, l->irq)) {
			l->ignored = false;
			continue;
		}
		if (!l->ignored)
			shim_irq_deliver(l, ops, ctx);
	}
}

bool shim_irq_wait(u64 end_ns)
{
	const struct shim_board_ops *ops;
	u64 before = shim_irq_handled, now;
	void *ctx;

	ops = shim_board(&ctx);
	if (!ops) {
		fprintf(stderr, "npukit shim: wait_event: no interrupt can wake this thread (a deadlock)\n");
		abort();
	}
	for (;;) {
		shim_irq_poll();
		if (shim_irq_handled != before)
			return true;
		now = ops->now(ctx);
		if (now >= end_ns)
			return false;
		ops->delay(ctx, min_t(u64, end_ns - now, SHIM_IRQ_WAIT_STEP_NS));
	}
}

int shim_irq_stats(unsigned int irq, struct shim_irq_stats *out)
{
	struct shim_irq_line *l = shim_irq_line(irq, false);

	if (!l)
		return -ENOENT;
	*out = l->st;
	return 0;
}
