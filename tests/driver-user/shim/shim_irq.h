/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim_irq.h - interrupts for the driver's userspace build (shim_irq.c):
 * request_irq() and its device-managed form with the kernel's rules for
 * sharing a line, and delivery from the board's interrupt lines
 * (shim_platform.h, struct shim_board_ops.irq_level).
 *
 * One thread: a handler runs in it, between two of the driver's MMIO
 * accesses (where the CPU could take the interrupt on a board), never
 * inside another handler; and a wait for an interrupt
 * (wait_event_hrtimeout()) lets the board's time pass until a handler
 * has run or the time is up. The lines are level triggered, as the AXI
 * DMA's mm2s_introut and s2mm_introut are. Without a board nothing is
 * ever raised, and a wait that would sleep aborts (a deadlock).
 */
#ifndef SHIM_IRQ_H
#define SHIM_IRQ_H

#include "npukit_shim.h"

typedef enum {
	IRQ_NONE,
	IRQ_HANDLED,
} irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int irq, void *data);

#define IRQF_SHARED 0x80u

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *data);
void free_irq(unsigned int irq, void *data);
int devm_request_irq(struct device *dev, unsigned int irq,
		     irq_handler_t handler, unsigned long flags,
		     const char *name, void *data);
/* A handler never runs while another context does: nothing to wait for */
void synchronize_irq(unsigned int irq);

/* Deliver every asserted line that has handlers (after an MMIO access) */
void shim_irq_poll(void);
/*
 * Let the board's time pass until a handler returned IRQ_HANDLED (true)
 * or its clock reaches @end_ns (false); aborts without a board
 */
bool shim_irq_wait(u64 end_ns);

/*
 * wait_event_hrtimeout(): 0 once @cond holds, -ETIME when @timeout ns of
 * the board's time passed first. Nothing is set up while @cond holds at
 * once (the common case: a batch's share of held memory, npukit_job.c).
 */
#define wait_event_hrtimeout(wq, cond, timeout) ({			\
	long __ret = 0;							\
	(void)(wq);							\
	if (!(cond)) {							\
		u64 __end = ktime_get_ns() + (u64)(timeout);		\
									\
		while (!(cond)) {					\
			if (!shim_irq_wait(__end)) {			\
				__ret = (cond) ? 0 : -ETIME;		\
				break;					\
			}						\
		}							\
	}								\
	__ret;								\
})
/* No signal reaches this process: as the uninterruptible wait */
#define wait_event_interruptible_hrtimeout(wq, cond, timeout) \
	wait_event_hrtimeout(wq, cond, timeout)

/*
 * What one line saw
 * @handled: deliveries a handler returned IRQ_HANDLED for
 * @unhandled: deliveries every handler returned IRQ_NONE for (the line
 *	is then left alone until it drops, as the kernel would disable it)
 * @still_asserted: handlers returned IRQ_HANDLED and the line was still
 *	asserted when they had: the ack had not reached the device
 * @calls: handler calls, all handlers of the line
 */
struct shim_irq_stats {
	u64 handled;
	u64 unhandled;
	u64 still_asserted;
	u64 calls;
};

/* 0, or -ENOENT: no such line was ever requested */
int shim_irq_stats(unsigned int irq, struct shim_irq_stats *out);

#endif /* SHIM_IRQ_H */
