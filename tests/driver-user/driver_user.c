// SPDX-License-Identifier: GPL-2.0
/*
 * driver_user.c - insmod, open(2), ioctl(2) and close(2) for the
 * userspace-built driver (driver_user.h): the same entry points the
 * kernel's VFS and misc device layer call, nothing in between.
 */
#include <stdlib.h>

#include "npukit_shim.h"
#include "driver_user.h"

struct driver_user_file {
	struct inode inode;
	struct file file;
};

int driver_user_param(const char *name, uint64_t val)
{
	return shim_param_set(name, val);
}

/* insmod npukit.ko, then npukit_sim.ko (or what stands in for it) */
int driver_user_load(void)
{
	return shim_modules_load();
}

void driver_user_unload(void)
{
	shim_modules_unload();
}

/* As misc_open(): the file's private data is the miscdevice, then fops->open */
struct driver_user_file *driver_user_open(const char *name)
{
	struct miscdevice *misc = shim_misc_find(name);
	struct driver_user_file *f;
	int ret;

	shim_syscall_enter();
	if (!misc) {
		errno = ENOENT;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->file.private_data = misc;
	f->file.f_op = misc->fops;
	ret = f->file.f_op->open ? f->file.f_op->open(&f->inode, &f->file) : 0;
	if (ret) {
		free(f);
		errno = -ret;
		return NULL;
	}
	return f;
}

long driver_user_ioctl(struct driver_user_file *f, unsigned int cmd, void *arg)
{
	shim_syscall_enter();
	return f->file.f_op->unlocked_ioctl(&f->file, cmd, (unsigned long)arg);
}

void driver_user_close(struct driver_user_file *f)
{
	shim_syscall_enter();
	if (f->file.f_op->release)
		f->file.f_op->release(&f->inode, &f->file);
	free(f);
}

long driver_user_sysfs(const char *name, const char *attr, char *buf, size_t len)
{
	struct miscdevice *misc = shim_misc_find(name);
	/* a sysfs show() writes up to a page */
	char page[4096];
	ssize_t n;

	shim_syscall_enter();
	if (!misc)
		return -ENOENT;
	n = shim_sysfs_show(misc, attr, page);
	if (n < 0)
		return n;
	snprintf(buf, len, "%.*s", (int)n, page);
	return n;
}
