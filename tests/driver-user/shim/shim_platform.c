// SPDX-License-Identifier: GPL-2.0
/*
 * shim_platform.c - the platform bus, MMIO, clocks and reset lines of the
 * driver's userspace build (shim_platform.h), each as the kernel's
 * driver core and device-managed helpers behave where the driver can
 * tell: a driver registered after its device, or a device added after
 * its driver, is probed; unregistering either unbinds; a failed probe and
 * an unbind release the device-managed resources, the newest first;
 * devm_platform_ioremap_resource() is -EINVAL without the resource and
 * -EBUSY on a region already requested; the optional clock and reset
 * getters return NULL without their property.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "npukit_shim.h"

static void __attribute__((noreturn)) shim_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "npukit shim: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* The board behind the bus */
static const struct shim_board_ops *shim_board_ops;
static void *shim_board_ctx;

void shim_board_attach(const struct shim_board_ops *ops, void *ctx)
{
	shim_board_ops = ops;
	shim_board_ctx = ctx;
}

const struct shim_board_ops *shim_board(void **ctx)
{
	if (ctx)
		*ctx = shim_board_ctx;
	return shim_board_ops;
}

bool shim_board_now(u64 *ns)
{
	if (!shim_board_ops)
		return false;
	*ns = shim_board_ops->now(shim_board_ctx);
	return true;
}

bool shim_board_delay(u64 ns)
{
	if (!shim_board_ops)
		return false;
	shim_board_ops->delay(shim_board_ctx, ns);
	return true;
}

void shim_syscall_enter(void)
{
	if (shim_board_ops)
		shim_board_ops->enter(shim_board_ctx);
}

/* The release log: what a test reads to see the order of an unwind */
static char shim_log_buf[2048];

void shim_release_note(const char *fmt, ...)
{
	size_t len = strlen(shim_log_buf);
	va_list ap;

	if (len + 2 >= sizeof(shim_log_buf))
		return;
	if (len)
		shim_log_buf[len++] = ',';
	va_start(ap, fmt);
	vsnprintf(shim_log_buf + len, sizeof(shim_log_buf) - len, fmt, ap);
	va_end(ap);
}

const char *shim_release_log(void)
{
	return shim_log_buf;
}

void shim_release_log_clear(void)
{
	shim_log_buf[0] = 0;
}

/*
 * Mappings: each an address range reserved without access, so that only
 * readl()/writel() reach the board through it and a plain dereference of
 * an __iomem pointer faults, as it may on the board
 */
#define SHIM_MAPPINGS 8
static struct shim_mapping {
	u8 *virt;
	u64 phys;
	u64 size;
} shim_maps[SHIM_MAPPINGS];

static const struct shim_mapping *shim_map_find(const volatile void *addr)
{
	const u8 *a = (const u8 *)addr;
	unsigned int i;

	for (i = 0; i < SHIM_MAPPINGS; i++)
		if (shim_maps[i].virt && a >= shim_maps[i].virt &&
		    a + 4 <= shim_maps[i].virt + shim_maps[i].size)
			return &shim_maps[i];
	return NULL;
}

/* The board's address for an MMIO access; a bad one is a driver bug */
static u64 shim_mmio_phys(const volatile void __iomem *addr, const char *what)
{
	const struct shim_mapping *m = shim_map_find(addr);

	if (!m)
		shim_die("%s of %p: not in any ioremap'd resource", what, (void *)addr);
	if (((uintptr_t)addr & 3))
		shim_die("%s of %p: not 32-bit aligned", what, (void *)addr);
	if (!shim_board_ops)
		shim_die("%s: no board behind the bus", what);
	return m->phys + (u64)((const u8 *)addr - m->virt);
}

u32 shim_readl(const volatile void __iomem *addr)
{
	u64 phys = shim_mmio_phys(addr, "readl");
	u32 val = shim_board_ops->read(shim_board_ctx, phys);

	shim_irq_poll();
	return val;
}

void shim_writel(u32 val, volatile void __iomem *addr)
{
	u64 phys = shim_mmio_phys(addr, "writel");

	shim_board_ops->write(shim_board_ctx, phys, val);
	shim_irq_poll();
}

void shim_mb(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (shim_board_ops)
		shim_board_ops->barrier(shim_board_ctx);
}

/* Requested regions: devm_request_mem_region()'s busy check */
static bool shim_region_busy(u64 start, u64 size)
{
	unsigned int i;

	for (i = 0; i < SHIM_MAPPINGS; i++)
		if (shim_maps[i].virt && start < shim_maps[i].phys + shim_maps[i].size &&
		    shim_maps[i].phys < start + size)
			return true;
	return false;
}

static void shim_iounmap(void *data)
{
	struct shim_mapping *m = data;

	shim_release_note("unmap %#llx", m->phys);
	munmap(m->virt, m->size);
	m->virt = NULL;
	shim_held.mappings--;
	shim_held.regions--;
}

struct resource *platform_get_resource(struct platform_device *pdev,
				       unsigned int type, unsigned int num)
{
	u32 i;

	for (i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];

		if ((r->flags & type) && num-- == 0)
			return r;
	}
	return NULL;
}

void __iomem *devm_platform_ioremap_resource(struct platform_device *pdev,
					     unsigned int index)
{
	struct resource *res = platform_get_resource(pdev, IORESOURCE_MEM, index);
	struct shim_mapping *m = NULL;
	unsigned int i;
	void *virt;

	if (!res) {
		dev_err(&pdev->dev, "invalid resource\n");
		return ERR_PTR(-EINVAL);
	}
	if (shim_region_busy(res->start, resource_size(res))) {
		dev_err(&pdev->dev, "can't request region for resource %#llx\n",
			res->start);
		return ERR_PTR(-EBUSY);
	}
	for (i = 0; i < SHIM_MAPPINGS && !m; i++)
		if (!shim_maps[i].virt)
			m = &shim_maps[i];
	virt = m ? mmap(NULL, resource_size(res), PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) : MAP_FAILED;
	if (virt == MAP_FAILED)
		return ERR_PTR(-ENOMEM);
	m->virt = virt;
	m->phys = res->start;
	m->size = resource_size(res);
	shim_held.mappings++;
	shim_held.regions++;
	if (devm_add_action_or_reset(&pdev->dev, shim_iounmap, m))
		return ERR_PTR(-ENOMEM);
	return (void __iomem *)m->virt;
}

static struct platform_device *shim_to_pdev(struct device *dev)
{
	return container_of(dev, struct platform_device, dev);
}

int platform_get_irq_byname_optional(struct platform_device *pdev,
				     const char *name)
{
	const struct shim_of_node *np = pdev->of_node;
	u32 i;

	if (np && np->irq_err == -EPROBE_DEFER)
		return -EPROBE_DEFER;
	if (np && np->irq_err)
		return -ENXIO;
	for (i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];

		if ((r->flags & IORESOURCE_IRQ) && r->name && !strcmp(r->name, name))
			return (int)r->start;
	}
	return -ENXIO;
}

/* The "clocks" property's clock: one per device, its rate from the node */
struct clk {
	struct device *dev;
	unsigned long rate;
	unsigned int enabled;
};

static void shim_clk_put(void *data)
{
	shim_release_note("clk put");
	free(data);
}

struct clk *devm_clk_get_optional(struct device *dev, const char *id)
{
	const struct shim_of_node *np = shim_to_pdev(dev)->of_node;
	struct clk *clk;

	(void)id;
	if (!np || !np->clk_rate)
		return NULL;
	if (np->clk_get_err)
		return ERR_PTR(np->clk_get_err);
	clk = calloc(1, sizeof(*clk));
	if (!clk)
		return ERR_PTR(-ENOMEM);
	clk->dev = dev;
	clk->rate = np->clk_rate;
	if (devm_add_action_or_reset(dev, shim_clk_put, clk))
		return ERR_PTR(-ENOMEM);
	return clk;
}

int clk_prepare_enable(struct clk *clk)
{
	const struct shim_of_node *np;

	if (!clk)
		return 0;
	np = shim_to_pdev(clk->dev)->of_node;
	if (np->clk_enable_err)
		return np->clk_enable_err;
	if (!clk->enabled++) {
		shim_held.clocks_on++;
		if (shim_board_ops)
			shim_board_ops->clk_enable(shim_board_ctx, clk->rate, true);
	}
	return 0;
}

void clk_disable_unprepare(struct clk *clk)
{
	if (!clk)
		return;
	if (!clk->enabled)
		shim_die("clk_disable_unprepare: clock %s not enabled", dev_name(clk->dev));
	if (!--clk->enabled) {
		shim_held.clocks_on--;
		shim_release_note("clk off");
		if (shim_board_ops)
			shim_board_ops->clk_enable(shim_board_ctx, clk->rate, false);
	}
}

static void shim_clk_disable(void *data)
{
	clk_disable_unprepare(data);
}

struct clk *devm_clk_get_optional_enabled(struct device *dev, const char *id)
{
	struct clk *clk = devm_clk_get_optional(dev, id);
	int ret;

	if (!clk || IS_ERR(clk))
		return clk;
	ret = clk_prepare_enable(clk);
	if (ret)
		return ERR_PTR(ret);
	ret = devm_add_action_or_reset(dev, shim_clk_disable, clk);
	return ret ? ERR_PTR(ret) : clk;
}

/* Not device-managed: the node's clock as another lookup sees it (sysfs) */
struct clk *clk_get(struct device *dev, const char *id)
{
	struct platform_device *pdev = shim_to_pdev(dev);
	struct clk *clk;

	(void)id;
	if (!pdev->of_node || !pdev->of_node->clk_rate)
		return ERR_PTR(-ENOENT);
	clk = calloc(1, sizeof(*clk));
	if (!clk)
		return ERR_PTR(-ENOMEM);
	clk->dev = &pdev->dev;
	clk->rate = pdev->of_node->clk_rate;
	return clk;
}

unsigned long clk_get_rate(struct clk *clk)
{
	return clk ? clk->rate : 0;
}

void clk_put(struct clk *clk)
{
	free(clk);
}

/* The "resets" property's line */
struct reset_control {
	struct device *dev;
	bool asserted;
};

static void shim_reset_put(void *data)
{
	struct reset_control *rstc = data;

	shim_release_note("reset put");
	if (rstc->asserted)
		shim_held.resets_asserted--;
	shim_held.resets--;
	free(rstc);
}

struct reset_control *devm_reset_control_get_optional_exclusive(struct device *dev,
								const char *id)
{
	const struct shim_of_node *np = shim_to_pdev(dev)->of_node;
	struct reset_control *rstc;

	(void)id;
	if (!np || !np->has_reset)
		return NULL;
	if (np->reset_get_err)
		return ERR_PTR(np->reset_get_err);
	rstc = calloc(1, sizeof(*rstc));
	if (!rstc)
		return ERR_PTR(-ENOMEM);
	rstc->dev = dev;
	shim_held.resets++;
	if (devm_add_action_or_reset(dev, shim_reset_put, rstc))
		return ERR_PTR(-ENOMEM);
	return rstc;
}

static int shim_reset_set(struct reset_control *rstc, bool assert)
{
	const struct shim_of_node *np;
	int ret = 0;

	if (!rstc)
		return 0;
	np = shim_to_pdev(rstc->dev)->of_node;
	if (assert && np->reset_assert_err)
		return np->reset_assert_err;
	if (shim_board_ops)
		ret = shim_board_ops->reset(shim_board_ctx, assert);
	if (!ret && rstc->asserted != assert) {
		rstc->asserted = assert;
		shim_held.resets_asserted += assert ? 1 : -1;
	}
	return ret;
}

int reset_control_assert(struct reset_control *rstc)
{
	return shim_reset_set(rstc, true);
}

int reset_control_deassert(struct reset_control *rstc)
{
	return shim_reset_set(rstc, false);
}

/* The platform bus: drivers and devices, bound as either comes */
#define SHIM_PDRVS 2
#define SHIM_PDEVS 8
static struct platform_driver *shim_pdrvs[SHIM_PDRVS];

struct shim_pdev {
	struct platform_device pdev;
	char name[PLATFORM_NAME_SIZE + 8];
	struct platform_driver *bound;
	int probe_ret;
};

static struct shim_pdev *shim_pdevs[SHIM_PDEVS];

/* An id_table entry for the device's name, the node's compatible, or the driver's name */
static bool shim_pdrv_match(struct platform_driver *drv,
			    struct platform_device *pdev)
{
	const struct platform_device_id *id;
	const struct of_device_id *of;

	for (id = drv->id_table; id && id->name[0]; id++) {
		if (!strcmp(id->name, pdev->name)) {
			pdev->id_entry = id;
			return true;
		}
	}
	for (of = drv->driver.of_match_table; pdev->of_node && of && of->compatible[0]; of++)
		if (pdev->of_node->compatible &&
		    !strcmp(of->compatible, pdev->of_node->compatible))
			return true;
	return drv->driver.name && !strcmp(drv->driver.name, pdev->name);
}

static void shim_pdev_probe(struct shim_pdev *p, struct platform_driver *drv)
{
	p->probe_ret = drv->probe(&p->pdev);
	if (p->probe_ret) {
		shim_devres_release_all(&p->pdev.dev);
		dev_set_drvdata(&p->pdev.dev, NULL);
	} else {
		p->bound = drv;
	}
}

static void shim_pdev_unbind(struct shim_pdev *p)
{
	if (!p->bound)
		return;
	p->bound->remove(&p->pdev);
	shim_devres_release_all(&p->pdev.dev);
	dev_set_drvdata(&p->pdev.dev, NULL);
	p->bound = NULL;
	p->probe_ret = 1;
}

int platform_driver_register(struct platform_driver *drv)
{
	unsigned int i, j;

	for (i = 0; i < SHIM_PDRVS && shim_pdrvs[i]; i++)
		;
	if (i == SHIM_PDRVS)
		return -EBUSY;
	shim_pdrvs[i] = drv;
	for (j = 0; j < SHIM_PDEVS; j++)
		if (shim_pdevs[j] && !shim_pdevs[j]->bound &&
		    shim_pdrv_match(drv, &shim_pdevs[j]->pdev))
			shim_pdev_probe(shim_pdevs[j], drv);
	return 0;
}

void platform_driver_unregister(struct platform_driver *drv)
{
	unsigned int i;

	for (i = 0; i < SHIM_PDEVS; i++)
		if (shim_pdevs[i] && shim_pdevs[i]->bound == drv)
			shim_pdev_unbind(shim_pdevs[i]);
	for (i = 0; i < SHIM_PDRVS; i++)
		if (shim_pdrvs[i] == drv)
			shim_pdrvs[i] = NULL;
}

struct platform_device *
platform_device_register_full(const struct platform_device_info *info)
{
	struct shim_pdev *p;
	unsigned int i, slot;

	for (slot = 0; slot < SHIM_PDEVS && shim_pdevs[slot]; slot++)
		;
	if (slot == SHIM_PDEVS)
		return ERR_PTR(-ENOSPC);
	p = calloc(1, sizeof(*p));
	if (!p)
		return ERR_PTR(-ENOMEM);
	/* PLATFORM_DEVID_NONE (-1): a device-tree node's, named as it is */
	if (info->id < 0)
		snprintf(p->name, sizeof(p->name), "%s", info->name);
	else
		snprintf(p->name, sizeof(p->name), "%s.%d", info->name, info->id);
	p->pdev.name = info->name;
	p->pdev.id = info->id;
	p->pdev.dev.name = p->name;
	p->pdev.dma_mask = info->dma_mask;
	p->pdev.dev.dma_mask = &p->pdev.dma_mask;
	p->pdev.of_node = info->of_node;
	p->probe_ret = 1;
	if (info->num_res) {
		p->pdev.resource = calloc(info->num_res, sizeof(*info->res));
		if (!p->pdev.resource) {
			free(p);
			return ERR_PTR(-ENOMEM);
		}
		memcpy(p->pdev.resource, info->res, info->num_res * sizeof(*info->res));
		p->pdev.num_resources = info->num_res;
	}
	shim_pdevs[slot] = p;
	for (i = 0; i < SHIM_PDRVS; i++) {
		if (shim_pdrvs[i] && shim_pdrv_match(shim_pdrvs[i], &p->pdev)) {
			shim_pdev_probe(p, shim_pdrvs[i]);
			break;
		}
	}
	return &p->pdev;
}

void platform_device_unregister(struct platform_device *pdev)
{
	struct shim_pdev *p = container_of(pdev, struct shim_pdev, pdev);
	unsigned int i;

	if (!pdev || IS_ERR(pdev))
		return;
	shim_pdev_unbind(p);
	shim_devres_release_all(&pdev->dev);
	for (i = 0; i < SHIM_PDEVS; i++)
		if (shim_pdevs[i] == p)
			shim_pdevs[i] = NULL;
	free(pdev->resource);
	free(p);
}

int shim_platform_probe_result(struct platform_device *pdev)
{
	return container_of(pdev, struct shim_pdev, pdev)->probe_ret;
}
