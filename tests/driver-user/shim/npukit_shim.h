/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npukit_shim.h - the kernel API that the driver's files use, for building the
 * unmodified driver in userspace (tests/driver-user/README.md): the one
 * header behind every <linux/...> the driver includes (the build makes
 * each of them a one-line include of this file, mk/42-driver-user.mk).
 *
 * What the kernel inlines is inline here, so that it is counted with the
 * driver's own instructions (get_user, fatal_signal_pending, atomics,
 * min/max, overflow checks); what the kernel calls out of line is a call
 * into npukit_shim.c, counted apart (copies, locks, cache maintenance,
 * clocks). Nothing here implements the driver's logic. Single-threaded:
 * one process stands for one task; interrupts, where a board raises them,
 * are taken between the driver's MMIO accesses (shim_irq.h), and no timer
 * ever fires (npukit_shim.c refuses to arm one).
 */
#ifndef NPUKIT_SHIM_H
#define NPUKIT_SHIM_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* Errnos the kernel has and libc does not */
#define ERESTARTSYS	512
#define EPROBE_DEFER	517
#define ENOTSUPP	524

/* Types */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef unsigned long long __u64;
typedef int8_t __s8;
typedef int16_t __s16;
typedef int32_t __s32;
typedef long long __s64;
typedef uint32_t __le32;
typedef uint16_t __le16;
typedef uint64_t __le64;
/* 32-bit bus addresses on the Zynq (no LPAE), 64-bit on x86-64 */
#if UINTPTR_MAX > 0xffffffffu
typedef u64 dma_addr_t;
#else
typedef u32 dma_addr_t;
#endif
typedef s64 ktime_t;
typedef unsigned int gfp_t;

/* Annotations */
#define __user
#define __iomem
#define __force
#define __must_check
#define __init
#define __exit
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __aligned(x) __attribute__((aligned(x)))
#define fallthrough __attribute__((fallthrough))
#define noinline __attribute__((__noinline__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define static_assert(expr, ...) _Static_assert(expr, #expr)

/* linux/bits.h, linux/kernel.h, linux/minmax.h, linux/math64.h */
#define BIT(n) (1UL << (n))
#define GENMASK(h, l) (((~0UL) - (1UL << (l)) + 1) & \
		       (~0UL >> (8 * sizeof(long) - 1 - (h))))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define U32_MAX	UINT32_MAX
#define U64_MAX	UINT64_MAX
#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define NSEC_PER_SEC	1000000000L
#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a > _b ? _a : _b; })
#define min_t(t, a, b) ({ t _a = (a); t _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b) ({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })
#define max3(a, b, c) max(max(a, b), c)
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)
static inline u64 div_u64(u64 n, u32 d)
{
	return n / d;
}

/*
 * linux/kconfig.h, which the kernel's build includes in every file: no
 * CONFIG_ option is set here, so IS_ENABLED() is 0 for all of them
 */
#define IS_ENABLED(option) 0

/* Byte order: both targets are little-endian, as the Zynq's A9 runs */
#define le32_to_cpu(x) ((u32)(x))
#define cpu_to_le32(x) ((__le32)(x))

/* linux/err.h */
#define MAX_ERRNO 4095
static inline void *ERR_PTR(long err)
{
	return (void *)err;
}

static inline long PTR_ERR(const void *p)
{
	return (long)p;
}

static inline bool IS_ERR(const void *p)
{
	return (unsigned long)p >= (unsigned long)-MAX_ERRNO;
}

/* linux/slab.h, linux/mm.h */
#define GFP_KERNEL 0u
#define GFP_KERNEL_ACCOUNT 0u
void *kzalloc(size_t size, gfp_t gfp);
void *kvmalloc(size_t size, gfp_t gfp);
void kfree(const void *p);
void kvfree(const void *p);

/*
 * linux/mm.h, linux/highmem.h: pinning the process's own memory. A struct
 * page * here is the page's address, so the kernel mapping of a pinned
 * page is the page itself.
 */
#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define offset_in_page(p) ((unsigned long)(p) & ~PAGE_MASK)
#define FOLL_WRITE 0x01u
struct page;
void *kvmalloc_array(size_t n, size_t size, gfp_t gfp);
int pin_user_pages_fast(unsigned long start, int nr_pages,
			unsigned int gup_flags, struct page **pages);
void unpin_user_pages(struct page **pages, unsigned long npages);
void unpin_user_pages_dirty_lock(struct page **pages, unsigned long npages,
				 bool make_dirty);
static inline void *kmap_local_page(struct page *page)
{
	return (void *)page;
}
#define kunmap_local(addr) ((void)(addr))
#define flush_dcache_page(page) ((void)(page))

/* linux/uaccess.h: the process's memory is the "user" memory */
#define access_ok(p, n) ((void)(p), (void)(n), true)
#define u64_to_user_ptr(x) ((void __user *)(uintptr_t)(x))
/* inline in the kernel: one checked load; here a checked copy (shim_uaccess.c) */
#define get_user(x, p) ({						\
	u64 __gu = 0;							\
	int __ge = copy_from_user(&__gu, (p), sizeof(*(p))) ? -EFAULT : 0; \
	(x) = *(__typeof__(*(p)) *)&__gu;				\
	__ge;								\
})
unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
long copy_from_user_nofault(void *to, const void __user *from, size_t n);
long copy_to_user_nofault(void __user *to, const void *from, size_t n);
int check_zeroed_user(const void __user *from, size_t size);
int copy_struct_from_user(void *dst, size_t ksize, const void __user *src,
			  size_t usize);
int kstrtobool_from_user(const char __user *s, size_t count, bool *res);
int kstrtobool(const char *s, bool *res);

/* linux/atomic.h: the kernel's are inline; single-threaded here */
typedef struct {
	int counter;
} atomic_t;
typedef struct {
	s64 counter;
} atomic64_t;
#define atomic_read(v) __atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_set(v, i) __atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_or(i, v) ((void)__atomic_fetch_or(&(v)->counter, (i), __ATOMIC_SEQ_CST))
#define atomic_xchg(v, i) __atomic_exchange_n(&(v)->counter, (i), __ATOMIC_SEQ_CST)
static inline int atomic_dec_if_positive(atomic_t *v)
{
	int c = atomic_read(v);

	if (c > 0)
		atomic_set(v, c - 1);
	return c - 1;
}

#define atomic64_read(v) __atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic64_set(v, i) __atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic64_inc(v) ((void)__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST))
#define atomic64_add(i, v) ((void)__atomic_add_fetch(&(v)->counter, (i), __ATOMIC_SEQ_CST))
#define atomic64_inc_return(v) __atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic64_add_return(i, v) __atomic_add_fetch(&(v)->counter, (i), __ATOMIC_SEQ_CST)
#define atomic64_sub(i, v) ((void)__atomic_sub_fetch(&(v)->counter, (i), __ATOMIC_SEQ_CST))
#define atomic64_try_cmpxchg(v, old, new) \
	__atomic_compare_exchange_n(&(v)->counter, (old), (new), false, \
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

/* linux/kref.h */
struct kref {
	atomic_t refcount;
};

static inline void kref_init(struct kref *k)
{
	atomic_set(&k->refcount, 1);
}

static inline void kref_get(struct kref *k)
{
	__atomic_add_fetch(&k->refcount.counter, 1, __ATOMIC_SEQ_CST);
}

static inline int kref_put(struct kref *k, void (*release)(struct kref *))
{
	if (__atomic_sub_fetch(&k->refcount.counter, 1, __ATOMIC_SEQ_CST))
		return 0;
	release(k);
	return 1;
}

/*
 * Barriers: one instruction each, as in the kernel (bar the PL310 sync);
 * mb() also acts on a board's bus (shim_platform.h)
 */
#define wmb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define local_irq_save(flags) ((flags) = 0)
#define local_irq_restore(flags) ((void)(flags))

/* linux/mutex.h, linux/spinlock.h: out of line, and checked */
struct mutex {
	bool locked;
};

void mutex_init(struct mutex *m);
void mutex_lock(struct mutex *m);
int mutex_lock_killable(struct mutex *m);
int mutex_lock_interruptible(struct mutex *m);
void mutex_unlock(struct mutex *m);

typedef struct {
	bool locked;
} spinlock_t;

void spin_lock_init(spinlock_t *l);
unsigned long shim_spin_lock_irqsave(spinlock_t *l);
void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags);
#define spin_lock_irqsave(l, flags) ((flags) = shim_spin_lock_irqsave(l))
#define spin_lock(l) ((void)shim_spin_lock_irqsave(l))
#define spin_unlock(l) spin_unlock_irqrestore(l, 0)

/* linux/sched.h, linux/sched/signal.h, linux/sched/mm.h, capabilities */
struct mm_struct {
	atomic64_t pinned_vm;
};

struct task_struct {
	struct mm_struct *mm;
};

extern struct task_struct shim_current;
#define current (&shim_current)
void cond_resched(void);
#define might_sleep() do { } while (0)
#define __must_hold(x)
/* One thread, no interrupt handler, no debugfs: never in atomic context */
#define preemptible() 1
/* a flag test, inline as in the kernel; no signal reaches this process */
extern volatile int shim_fatal_signal;
#define fatal_signal_pending(t) ((void)(t), shim_fatal_signal != 0)
#define signal_pending(t) fatal_signal_pending(t)
#define signal_pending_state(state, t) ((void)(state), fatal_signal_pending(t))
#define TASK_RUNNING 0u
#define TASK_INTERRUPTIBLE 1u
#define TASK_UNINTERRUPTIBLE 2u
#define TASK_KILLABLE (TASK_UNINTERRUPTIBLE | 0x100u)
#define set_current_state(state) ((void)(state))
#define __set_current_state(state) ((void)(state))
/* one thread: nothing can wake a sleeper, so blocking is a deadlock */
void schedule(void);
int wake_up_process(struct task_struct *t);
#define RLIMIT_MEMLOCK 8
#define CAP_IPC_LOCK 14
unsigned long rlimit(unsigned int limit);
bool capable(int cap);
#define pr_debug(...) do { } while (0)

/* linux/lockdep.h without CONFIG_LOCKDEP */
struct lock_class_key {
	int unused;
};

struct lockdep_map {
	int unused;
};

#define lockdep_init_map(map, name, key, sub) \
	((void)(map), (void)(name), (void)(key), (void)(sub))
#define lock_map_acquire(map) ((void)(map))
#define lock_map_release(map) ((void)(map))

/* linux/ktime.h, linux/delay.h, linux/hrtimer.h */
u64 ktime_get_ns(void);
static inline ktime_t ns_to_ktime(u64 ns)
{
	return (ktime_t)ns;
}

void ndelay(unsigned long ns);
void udelay(unsigned long us);
void usleep_range(unsigned long min_us, unsigned long max_us);

enum hrtimer_restart {
	HRTIMER_NORESTART,
	HRTIMER_RESTART,
};

enum hrtimer_mode {
	HRTIMER_MODE_REL,
	HRTIMER_MODE_REL_HARD,
	HRTIMER_MODE_ABS,
};

struct hrtimer {
	enum hrtimer_restart (*function)(struct hrtimer *timer);
};

void shim_hrtimer_init(struct hrtimer *t);
#define hrtimer_init(t, clock, mode) shim_hrtimer_init(t)
void hrtimer_start(struct hrtimer *t, ktime_t rel, enum hrtimer_mode mode);
int hrtimer_cancel(struct hrtimer *t);
u64 hrtimer_forward_now(struct hrtimer *t, ktime_t interval);

/*
 * linux/workqueue.h, linux/jiffies.h: one process and no worker thread, so
 * queued work stays pending, as work the kernel has not got to yet, until
 * it is cancelled
 */
struct work_struct {
	void (*func)(struct work_struct *work);
};

struct delayed_work {
	struct work_struct work;
	bool pending;
};

struct workqueue_struct;
extern struct workqueue_struct *system_wq;
#define INIT_DELAYED_WORK(dw, fn) \
	((void)((dw)->work.func = (fn)), (void)((dw)->pending = false))
#define to_delayed_work(w) container_of(w, struct delayed_work, work)
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
		      unsigned long delay);
bool cancel_delayed_work_sync(struct delayed_work *dw);
#define msecs_to_jiffies(ms) ((unsigned long)(ms))

/*
 * linux/wait.h: one thread, so a waiter is woken by nothing but its own
 * condition becoming true, in an interrupt handler it lets run
 * (wait_event_hrtimeout(), shim_irq.h)
 */
typedef struct {
	int unused;
} wait_queue_head_t;

#define init_waitqueue_head(wq) ((void)(wq))
void wake_up(wait_queue_head_t *wq);
#define wake_up_all(wq) wake_up(wq)
int schedule_hrtimeout(ktime_t *expires, enum hrtimer_mode mode);

/* linux/kobject.h: a uevent goes nowhere (no userspace listens here) */
struct kobject {
	int unused;
};

enum kobject_action {
	KOBJ_ADD,
	KOBJ_REMOVE,
	KOBJ_CHANGE,
};

int kobject_uevent_env(struct kobject *kobj, enum kobject_action action,
		       char *envp[]);

/* linux/device.h, printk */
struct device {
	const char *name;
	void *driver_data;
	u64 *dma_mask;
	struct shim_devres *devres;
	struct kobject kobj;
};

static inline const char *dev_name(const struct device *dev)
{
	return dev->name;
}

static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}

static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

void shim_log(const struct device *dev, const char *level, const char *fmt, ...)
	__printf(3, 4);
/* dynamic debug off: a user's mistake costs nothing (the kernel's nop) */
#define dev_dbg(dev, fmt, ...) \
	do { if (0) shim_log(dev, "debug", fmt, ##__VA_ARGS__); } while (0)
#define dev_info(dev, fmt, ...) shim_log(dev, "info", fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...) shim_log(dev, "warning", fmt, ##__VA_ARGS__)
#define dev_err(dev, fmt, ...) shim_log(dev, "error", fmt, ##__VA_ARGS__)
#define dev_err_ratelimited dev_err
#define pr_warn(fmt, ...) shim_log(NULL, "warning", fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) shim_log(NULL, "error", fmt, ##__VA_ARGS__)
#define WARN_ON_ONCE(cond) ({						\
	static bool __warned;						\
	bool __c = !!(cond);						\
	if (unlikely(__c) && !__warned) {				\
		__warned = true;					\
		shim_log(NULL, "warning", "WARN_ON_ONCE(%s) at %s:%d\n", \
			 #cond, __FILE__, __LINE__);			\
	}								\
	__c;								\
})
int dev_err_probe(const struct device *dev, int err, const char *fmt, ...)
	__printf(3, 4);
int devm_add_action_or_reset(struct device *dev, void (*action)(void *),
			     void *data);

/* linux/dma-mapping.h: memory the simulator's DMA reaches by window */
enum dma_data_direction {
	DMA_BIDIRECTIONAL,
	DMA_TO_DEVICE,
	DMA_FROM_DEVICE,
};

#define DMA_BIT_MASK(n) (((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))
int dma_set_mask_and_coherent(struct device *dev, u64 mask);
void *dma_alloc_noncoherent(struct device *dev, size_t size, dma_addr_t *handle,
			    enum dma_data_direction dir, gfp_t gfp);
void dma_free_noncoherent(struct device *dev, size_t size, void *cpu,
			  dma_addr_t handle, enum dma_data_direction dir);
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir);
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir);

/* linux/fs.h, linux/module.h: no module references to count here */
struct module;
#define THIS_MODULE ((struct module *)NULL)
#define try_module_get(mod) ((void)(mod), 1)
#define module_put(mod) ((void)(mod))
#define module_name(mod) ((void)(mod), KBUILD_MODNAME)
#define EXPORT_SYMBOL_GPL(sym)
struct inode {
	void *i_private;
};

struct file {
	void *private_data;
	loff_t f_pos;
	const struct file_operations *f_op;
};

struct file_operations {
	struct module *owner;
	int (*open)(struct inode *inode, struct file *file);
	int (*release)(struct inode *inode, struct file *file);
	ssize_t (*read)(struct file *file, char __user *buf, size_t count,
			loff_t *ppos);
	ssize_t (*write)(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos);
	long (*unlocked_ioctl)(struct file *file, unsigned int cmd,
			       unsigned long arg);
	long (*compat_ioctl)(struct file *file, unsigned int cmd,
			     unsigned long arg);
	loff_t (*llseek)(struct file *file, loff_t off, int whence);
};

int simple_open(struct inode *inode, struct file *file);
loff_t noop_llseek(struct file *file, loff_t off, int whence);
long compat_ptr_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* Module parameters: set by name before module_init (npukit_shim.c) */
void shim_param_add(const char *name, void *var, size_t size);
#define module_param_named_unsafe(name, var, type, perm)		\
	static void __attribute__((constructor)) shim_param_##name(void) \
	{ shim_param_add(#name, &(var), sizeof(var)); }
#define module_param_unsafe(name, type, perm) \
	module_param_named_unsafe(name, name, type, perm)
#define MODULE_PARM_DESC(name, desc)
#define MODULE_DEVICE_TABLE(type, name)
#define MODULE_DESCRIPTION(s)
#define MODULE_AUTHOR(s)
#define MODULE_LICENSE(s)
#define MODULE_VERSION(s)
/*
 * Each module's init and exit, by KBUILD_MODNAME as Kbuild passes it
 * (mk/42-driver-user.mk): driver_user_load() runs npukit's first.
 */
#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME "npukit"
#endif
void shim_module_add(const char *name, int (*init)(void), void (*exit)(void));
#define module_init(fn)							\
	static void __attribute__((constructor)) shim_init_##fn(void)	\
	{ shim_module_add(KBUILD_MODNAME, fn, NULL); }
#define module_exit(fn)							\
	static void __attribute__((constructor)) shim_exit_##fn(void)	\
	{ shim_module_add(KBUILD_MODNAME, NULL, fn); }
int shim_modules_load(void);
void shim_modules_unload(void);

/* linux/seq_file.h: only debugfs files write one, and debugfs is off */
struct seq_file;
void seq_printf(struct seq_file *m, const char *fmt, ...) __printf(2, 3);

/* linux/debugfs.h as in a kernel without CONFIG_DEBUG_FS */
struct dentry;
#define debugfs_create_dir(name, parent) ((struct dentry *)ERR_PTR(-ENODEV))
#define debugfs_create_file(name, mode, parent, data, fops) \
	((void)(data), (void)(fops), (struct dentry *)ERR_PTR(-ENODEV))
#define debugfs_create_u32(name, mode, parent, var) ((void)(name), (void)(var))
#define debugfs_create_bool(name, mode, parent, var) ((void)(name), (void)(var))
#define debugfs_create_u64(name, mode, parent, var) ((void)(name), (void)(var))
#define debugfs_create_atomic_t(name, mode, parent, var) \
	((void)(name), (void)(var))
#define debugfs_remove_recursive(d) ((void)(d))

/* linux/sysfs.h */
struct attribute {
	const char *name;
	unsigned short mode;
};

struct attribute_group {
	const char *name;
	struct attribute **attrs;
};

struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr,
			char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count);
};

#define __ATTR(_name, _mode, _show, _store) \
	{ .attr = { .name = #_name, .mode = _mode }, \
	  .show = _show, .store = _store }
#define DEVICE_ATTR_RO(_name) \
	struct device_attribute dev_attr_##_name = \
		__ATTR(_name, 0444, _name##_show, NULL)
#define DEVICE_ATTR_WO(_name) \
	struct device_attribute dev_attr_##_name = \
		__ATTR(_name, 0200, NULL, _name##_store)
int sysfs_emit(char *buf, const char *fmt, ...) __printf(2, 3);

/* linux/miscdevice.h, linux/idr.h */
#define MISC_DYNAMIC_MINOR 255
struct miscdevice {
	int minor;
	const char *name;
	const struct file_operations *fops;
	struct device *parent;
	const struct attribute_group **groups;
	struct device *this_device;
};

int misc_register(struct miscdevice *misc);
void misc_deregister(struct miscdevice *misc);

struct ida {
	u64 used;
};

#define DEFINE_IDA(name) struct ida name
int ida_alloc(struct ida *ida, gfp_t gfp);
void ida_free(struct ida *ida, unsigned int id);
void ida_destroy(struct ida *ida);

/* For driver_user.c: the module's parameters and nodes (npukit_shim.c) */
int shim_param_set(const char *name, u64 val);
struct miscdevice *shim_misc_find(const char *name);
/* A sysfs attribute of node @misc, "name" or "group/name", into @buf */
ssize_t shim_sysfs_show(struct miscdevice *misc, const char *attr, char *buf);

/* The platform bus, MMIO, clocks and resets; interrupts */
#include "shim_platform.h"
#include "shim_irq.h"

#endif /* NPUKIT_SHIM_H */
