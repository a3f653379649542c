/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scst_priv.h - state private to the target core module (scst.ko).
 */
#ifndef __SCST_PRIV_H
#define __SCST_PRIV_H

#include <linux/kobject.h>

#include <scst.h>

/* The /sys/kernel/scst_tgt kobject; the root of the management tree. */
extern struct kobject *scst_root_kobj;

int scst_sysfs_init(void);
void scst_sysfs_exit(void);

#endif /* __SCST_PRIV_H */
