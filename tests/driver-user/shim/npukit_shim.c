// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_shim.c - the kernel services the driver calls out of line, for
 * its userspace build (npukit_shim.h): memory, user copies (the process's
 * own memory; shim_uaccess.c: a fault is a short copy), locks (single-threaded:
 * a lock taken twice is a deadlock, and aborts), clocks (CLOCK_MONOTONIC,
 * as ktime_get_ns() is; the simulator keeps the board's time itself),
 * device-managed actions, module parameters, misc devices and the
 * platform bus; DMA buffers and cache maintenance are shim_dma.c's (the
 * driver charges the maintenance's cost to the simulator's CPU account
 * itself). No interrupt and no timer reaches this
 * process: arming one aborts, so an instance must run polled.
 */
#include <stdlib.h>
#include <time.h>

#include "npukit_shim.h"

static void __attribute__((noreturn)) shim_abort(const char *what)
{
	fprintf(stderr, "npukit shim: %s\n", what);
	abort();
}

void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, size);
}

void *kvmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return malloc(size);
}

void kfree(const void *p)
{
	free((void *)p);
}

void kvfree(const void *p)
{
	free((void *)p);
}

void *kvmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return n && size > SIZE_MAX / n ? NULL : malloc(n * size);
}

void unpin_user_pages(struct page **pages, unsigned long npages)
{
	(void)pages;
	(void)npages;
}

void unpin_user_pages_dirty_lock(struct page **pages, unsigned long npages,
				 bool make_dirty)
{
	(void)pages;
	(void)npages;
	(void)make_dirty;
}

int kstrtobool(const char *s, bool *res)
{
	switch (s[0]) {
	case '1': case 'y': case 'Y':
		*res = true;
		return 0;
	case '0': case 'n': case 'N':
		*res = false;
		return 0;
	}
	return -EINVAL;
}

void mutex_init(struct mutex *m)
{
	m->locked = false;
}

void mutex_lock(struct mutex *m)
{
	if (m->locked)
		shim_abort("mutex_lock: already held (a deadlock)");
	m->locked = true;
}

int mutex_lock_killable(struct mutex *m)
{
	mutex_lock(m);
	return 0;
}

int mutex_lock_interruptible(struct mutex *m)
{
	mutex_lock(m);
	return 0;
}

void mutex_unlock(struct mutex *m)
{
	if (!m->locked)
		shim_abort("mutex_unlock: not held");
	m->locked = false;
}

void spin_lock_init(spinlock_t *l)
{
	l->locked = false;
}

unsigned long shim_spin_lock_irqsave(spinlock_t *l)
{
	if (l->locked)
		shim_abort("spin_lock: already held (a deadlock)");
	l->locked = true;
	return 0;
}

void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	(void)flags;
	if (!l->locked)
		shim_abort("spin_unlock: not held");
	l->locked = false;
}

volatile int shim_fatal_signal;

void cond_resched(void)
{
}

u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static void shim_sleep_ns(u64 ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void ndelay(unsigned long ns)
{
	shim_sleep_ns(ns);
}

void udelay(unsigned long us)
{
	shim_sleep_ns((u64)us * NSEC_PER_USEC);
}

void usleep_range(unsigned long min_us, unsigned long max_us)
{
	(void)max_us;
	shim_sleep_ns((u64)min_us * NSEC_PER_USEC);
}

void shim_hrtimer_init(struct hrtimer *t)
{
	t->function = NULL;
}

void hrtimer_start(struct hrtimer *t, ktime_t rel, enum hrtimer_mode mode)
{
	(void)t, (void)rel, (void)mode;
	shim_abort("hrtimer_start: no timers in userspace (run with sim_irq=0)");
}

/* Never started (hrtimer_start() aborts): nothing to cancel */
int hrtimer_cancel(struct hrtimer *t)
{
	(void)t;
	return 0;
}

u64 hrtimer_forward_now(struct hrtimer *t, ktime_t interval)
{
	(void)t, (void)interval;
	shim_abort("hrtimer_forward_now: no timers in userspace");
}

/* No interrupt handler and no sleeper: nothing to wake or wait for */
void wake_up(wait_queue_head_t *wq)
{
	(void)wq;
}

struct task_struct shim_current = { .mm = &(struct mm_struct){ { 0 } } };

void schedule(void)
{
	shim_abort("schedule: one thread, nothing can wake it (a deadlock)");
}

int schedule_hrtimeout(ktime_t *expires, enum hrtimer_mode mode)
{
	(void)expires;
	(void)mode;
	shim_abort("schedule_hrtimeout: a wait for the device lock in one thread");
}

int wake_up_process(struct task_struct *t)
{
	(void)t;
	return 1;
}

unsigned long rlimit(unsigned int limit)
{
	(void)limit;
	return ~0UL;
}

bool capable(int cap)
{
	(void)cap;
	return true;
}

long shim_wait_unsupported(void)
{
	shim_abort("wait_event: no interrupts in userspace (run with sim_irq=0)");
}

void synchronize_irq(unsigned int irq)
{
	(void)irq;
}

void shim_log(const struct device *dev, const char *level, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", dev ? dev_name(dev) : "npukit", level);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

int dev_err_probe(const struct device *dev, int err, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s error %d: ", dev_name(dev), err);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	return err;
}

/* Device-managed actions, run in reverse when the driver lets go */
struct shim_devres {
	void (*action)(void *data);
	void *data;
	struct shim_devres *next;
};

int devm_add_action_or_reset(struct device *dev, void (*action)(void *),
			     void *data)
{
	struct shim_devres *r = malloc(sizeof(*r));

	if (!r) {
		action(data);
		return -ENOMEM;
	}
	r->action = action;
	r->data = data;
	r->next = dev->devres;
	dev->devres = r;
	return 0;
}

static void shim_devres_release(struct device *dev)
{
	struct shim_devres *r;

	while ((r = dev->devres)) {
		dev->devres = r->next;
		r->action(r->data);
		free(r);
	}
}

int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	(void)dev;
	return mask >= DMA_BIT_MASK(32) ? 0 : -EIO;
}

int simple_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return 0;
}

loff_t noop_llseek(struct file *file, loff_t off, int whence)
{
	(void)off, (void)whence;
	return file->f_pos;
}

long compat_ptr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return file->f_op->unlocked_ioctl(file, cmd, arg);
}

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, 4096, fmt, ap);
	va_end(ap);
	return n;
}

#define SHIM_PARAMS 16
static struct {
	const char *name;
	void *var;
	size_t size;
} shim_params[SHIM_PARAMS];
static unsigned int shim_nparams;

void shim_param_add(const char *name, void *var, size_t size)
{
	if (shim_nparams == SHIM_PARAMS)
		shim_abort("too many module parameters");
	shim_params[shim_nparams].name = name;
	shim_params[shim_nparams].var = var;
	shim_params[shim_nparams].size = size;
	shim_nparams++;
}

int shim_param_set(const char *name, u64 val)
{
	unsigned int i;

	for (i = 0; i < shim_nparams; i++) {
		if (strcmp(shim_params[i].name, name))
			continue;
		switch (shim_params[i].size) {
		case 1:
			*(u8 *)shim_params[i].var = (u8)val;
			return 0;
		case 4:
			*(u32 *)shim_params[i].var = (u32)val;
			return 0;
		}
		return -EINVAL;
	}
	return -ENOENT;
}

#define SHIM_MISC 8
static struct miscdevice *shim_misc[SHIM_MISC];
static struct device shim_misc_dev[SHIM_MISC];

/* The node's driver data is its miscdevice, as misc_register() makes it */
int misc_register(struct miscdevice *misc)
{
	unsigned int i;

	for (i = 0; i < SHIM_MISC; i++) {
		if (shim_misc[i])
			continue;
		if (misc->minor == MISC_DYNAMIC_MINOR)
			misc->minor = (int)i;
		misc->this_device = &shim_misc_dev[i];
		misc->this_device->name = misc->name;
		dev_set_drvdata(misc->this_device, misc);
		shim_misc[i] = misc;
		return 0;
	}
	return -EBUSY;
}

void misc_deregister(struct miscdevice *misc)
{
	unsigned int i;

	for (i = 0; i < SHIM_MISC; i++)
		if (shim_misc[i] == misc)
			shim_misc[i] = NULL;
	misc->this_device = NULL;
}

int kobject_uevent_env(struct kobject *kobj, enum kobject_action action,
		       char *envp[])
{
	(void)kobj;
	(void)action;
	(void)envp;
	return 0;
}

struct workqueue_struct *system_wq;

bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
		      unsigned long delay)
{
	bool was = dw->pending;

	(void)wq;
	(void)delay;
	dw->pending = true;
	return was;
}

bool cancel_delayed_work_sync(struct delayed_work *dw)
{
	bool was = dw->pending;

	dw->pending = false;
	return was;
}

struct miscdevice *shim_misc_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < SHIM_MISC; i++)
		if (shim_misc[i] && !strcmp(shim_misc[i]->name, name))
			return shim_misc[i];
	return NULL;
}

int ida_alloc(struct ida *ida, gfp_t gfp)
{
	unsigned int i;

	(void)gfp;
	for (i = 0; i < 64; i++) {
		if (!(ida->used & (1ULL << i))) {
			ida->used |= 1ULL << i;
			return (int)i;
		}
	}
	return -ENOSPC;
}

void ida_free(struct ida *ida, unsigned int id)
{
	ida->used &= ~(1ULL << id);
}

void ida_destroy(struct ida *ida)
{
	ida->used = 0;
}

/* The modules: npukit.ko, then the others (npukit_sim.ko) */
#define SHIM_MODULES 4
static struct {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
} shim_modules[SHIM_MODULES];
static unsigned int shim_nmodules, shim_loaded;

void shim_module_add(const char *name, int (*init)(void), void (*exit)(void))
{
	unsigned int i;

	for (i = 0; i < shim_nmodules; i++)
		if (!strcmp(shim_modules[i].name, name))
			break;
	if (i == SHIM_MODULES)
		shim_abort("too many modules");
	if (i == shim_nmodules)
		shim_nmodules++;
	shim_modules[i].name = name;
	if (init)
		shim_modules[i].init = init;
	if (exit)
		shim_modules[i].exit = exit;
	/* npukit.ko first: the others use what it exports */
	if (i && !strcmp(name, "npukit")) {
		typeof(shim_modules[0]) t = shim_modules[0];

		shim_modules[0] = shim_modules[i];
		shim_modules[i] = t;
	}
}

int shim_modules_load(void)
{
	int ret;

	for (shim_loaded = 0; shim_loaded < shim_nmodules; shim_loaded++) {
		ret = shim_modules[shim_loaded].init();
		if (ret) {
			shim_modules_unload();
			return ret;
		}
	}
	return 0;
}

void shim_modules_unload(void)
{
	while (shim_loaded)
		shim_modules[--shim_loaded].exit();
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	(void)m, (void)fmt;
	shim_abort("seq_printf: no debugfs in userspace");
}

/* The platform bus: its devices probed as they are added */
#define SHIM_PDRVS 2
static struct platform_driver *shim_pdrvs[SHIM_PDRVS];

int platform_driver_register(struct platform_driver *drv)
{
	unsigned int i;

	for (i = 0; i < SHIM_PDRVS; i++) {
		if (!shim_pdrvs[i]) {
			shim_pdrvs[i] = drv;
			return 0;
		}
	}
	return -EBUSY;
}

void platform_driver_unregister(struct platform_driver *drv)
{
	unsigned int i;

	for (i = 0; i < SHIM_PDRVS; i++)
		if (shim_pdrvs[i] == drv)
			shim_pdrvs[i] = NULL;
}

struct shim_pdev {
	struct platform_device pdev;
	char name[PLATFORM_NAME_SIZE + 8];
	struct platform_driver *bound;
};

/* A driver's id_table entry for @name, or its own name */
static bool shim_pdrv_match(struct platform_driver *drv,
			    struct platform_device *pdev)
{
	const struct platform_device_id *id;

	for (id = drv->id_table; id && id->name[0]; id++) {
		if (!strcmp(id->name, pdev->name)) {
			pdev->id_entry = id;
			return true;
		}
	}
	return drv->driver.name && !strcmp(drv->driver.name, pdev->name);
}

struct platform_device *
platform_device_register_full(const struct platform_device_info *info)
{
	struct shim_pdev *p = calloc(1, sizeof(*p));
	struct platform_driver *drv;
	unsigned int i;

	if (!p)
		return ERR_PTR(-ENOMEM);
	snprintf(p->name, sizeof(p->name), "%s.%d", info->name, info->id);
	p->pdev.name = info->name;
	p->pdev.id = info->id;
	p->pdev.dev.name = p->name;
	p->pdev.dma_mask = info->dma_mask;
	p->pdev.dev.dma_mask = &p->pdev.dma_mask;
	for (i = 0; i < SHIM_PDRVS; i++) {
		drv = shim_pdrvs[i];
		if (!drv || !shim_pdrv_match(drv, &p->pdev))
			continue;
		if (drv->probe(&p->pdev))
			shim_devres_release(&p->pdev.dev);
		else
			p->bound = drv;
		break;
	}
	return &p->pdev;
}

void platform_device_unregister(struct platform_device *pdev)
{
	struct shim_pdev *p = container_of(pdev, struct shim_pdev, pdev);

	if (!pdev || IS_ERR(pdev))
		return;
	if (p->bound)
		p->bound->remove(pdev);
	shim_devres_release(&pdev->dev);
	free(p);
}

/* No registers, interrupts, clocks or resets to map in userspace */
void __iomem *devm_platform_ioremap_resource(struct platform_device *pdev,
					     unsigned int index)
{
	(void)pdev, (void)index;
	return ERR_PTR(-ENODEV);
}

int platform_get_irq_byname_optional(struct platform_device *pdev,
				     const char *name)
{
	(void)pdev, (void)name;
	return -ENXIO;
}

int devm_request_irq(struct device *dev, unsigned int irq,
		     irq_handler_t handler, unsigned long flags,
		     const char *name, void *data)
{
	(void)dev, (void)irq, (void)handler, (void)flags, (void)name, (void)data;
	return -ENOSYS;
}

struct clk *devm_clk_get_optional_enabled(struct device *dev, const char *id)
{
	(void)dev, (void)id;
	return NULL;
}

struct reset_control *devm_reset_control_get_optional_exclusive(struct device *dev,
								const char *id)
{
	(void)dev, (void)id;
	return NULL;
}

int reset_control_assert(struct reset_control *rstc)
{
	(void)rstc;
	return 0;
}

int reset_control_deassert(struct reset_control *rstc)
{
	(void)rstc;
	return 0;
}
