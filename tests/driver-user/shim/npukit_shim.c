// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_shim.c - the kernel services the driver calls out of line, for
 * its userspace build (npukit_shim.h): memory, user copies (the process's
 * own memory; shim_uaccess.c: a fault is a short copy), locks (single-threaded:
 * a lock taken twice is a deadlock, and aborts), clocks (CLOCK_MONOTONIC,
 * as ktime_get_ns() is, or a board's clock; the simulator keeps the
 * board's time itself), device-managed actions, module parameters and
 * misc devices; DMA buffers and cache maintenance are shim_dma.c's (the
 * driver charges the maintenance's cost to the simulator's CPU account
 * itself), the platform bus shim_platform.c's, interrupts shim_irq.c's.
 * No timer fires in this process: arming one aborts.
 */
#include <stdlib.h>
#include <time.h>

#include "npukit_shim.h"

static void __attribute__((noreturn)) shim_abort(const char *what)
{
	fprintf(stderr, "npukit shim: %s\n", what);
	abort();
}

struct shim_live shim_held;

/* Every allocation counted in shim_held, so a test sees one left behind */
static void *shim_counted(void *p)
{
	if (p)
		shim_held.allocs++;
	return p;
}

void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return shim_counted(calloc(1, size));
}

void *kvmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return shim_counted(malloc(size));
}

void kfree(const void *p)
{
	if (p)
		shim_held.allocs--;
	free((void *)p);
}

void kvfree(const void *p)
{
	kfree(p);
}

void *kvmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return n && size > SIZE_MAX / n ? NULL : shim_counted(malloc(n * size));
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

/* The board's clock when there is one (shim_platform.h), else the host's */
u64 ktime_get_ns(void)
{
	struct timespec ts;
	u64 ns;

	if (shim_board_now(&ns))
		return ns;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static void shim_sleep_ns(u64 ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	if (shim_board_delay(ns))
		return;
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
	shim_held.devres++;
	return 0;
}

void shim_devres_release_all(struct device *dev)
{
	struct shim_devres *r;

	while ((r = dev->devres)) {
		dev->devres = r->next;
		shim_held.devres--;
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
		shim_held.nodes++;
		return 0;
	}
	return -EBUSY;
}

void misc_deregister(struct miscdevice *misc)
{
	unsigned int i;

	for (i = 0; i < SHIM_MISC; i++) {
		if (shim_misc[i] == misc) {
			shim_misc[i] = NULL;
			shim_held.nodes--;
		}
	}
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

/* As a read of /sys/class/misc/NODE/@attr: the group's show() */
ssize_t shim_sysfs_show(struct miscdevice *misc, const char *attr, char *buf)
{
	const struct attribute_group **g;
	struct attribute **a;
	size_t glen;

	for (g = misc->groups; g && *g; g++) {
		const char *name = attr;

		glen = (*g)->name ? strlen((*g)->name) : 0;
		if (glen) {
			if (strncmp(attr, (*g)->name, glen) || attr[glen] != '/')
				continue;
			name = attr + glen + 1;
		}
		for (a = (*g)->attrs; *a; a++) {
			struct device_attribute *da =
				container_of(*a, struct device_attribute, attr);

			if (strcmp((*a)->name, name) || !da->show)
				continue;
			return da->show(misc->this_device, da, buf);
		}
	}
	return -ENOENT;
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
