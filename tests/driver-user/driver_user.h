/* SPDX-License-Identifier: GPL-2.0 */
/*
 * driver_user.h - what a program sees of the userspace-built driver
 * (tests/driver-user/README.md): load the module with parameters, open
 * its node and call its ioctl, as insmod, open(2) and ioctl(2) would.
 * Plain C types: the program includes the UAPI header, not the shim.
 */
#ifndef DRIVER_USER_H
#define DRIVER_USER_H

#include <stddef.h>
#include <stdint.h>

/* A module parameter by name, before driver_user_load(): 0 or -ENOENT */
int driver_user_param(const char *name, uint64_t val);

/* module_init: npukit.ko's, then npukit_sim.ko's (its instances probed) */
int driver_user_load(void);

/* module_exit */
void driver_user_unload(void);

struct driver_user_file;

/* open("/dev/NAME"): the node's fops->open; NULL with errno set */
struct driver_user_file *driver_user_open(const char *name);

/* ioctl(2) on it: the node's unlocked_ioctl, its return as is */
long driver_user_ioctl(struct driver_user_file *f, unsigned int cmd, void *arg);

/* close(2) */
void driver_user_close(struct driver_user_file *f);

/*
 * A read of /sys/class/misc/NAME/ATTR ("state", "stats/pl_resets"): its
 * length, the text in @buf (cut to @len), or -ENOENT
 */
long driver_user_sysfs(const char *name, const char *attr, char *buf, size_t len);

#endif /* DRIVER_USER_H */
