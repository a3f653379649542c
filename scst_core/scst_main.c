// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_main.c - module entry points of the target core.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "scst_priv.h"

static int __init scst_init(void)
{
	int ret;

	ret = scst_sysfs_init();
	if (ret)
		return ret;

	pr_info("target core version %s loaded\n", SCST_VERSION_STRING);
	return 0;
}

static void __exit scst_exit(void)
{
	scst_sysfs_exit();
	pr_info("target core unloaded\n");
}

module_init(scst_init);
module_exit(scst_exit);

MODULE_DESCRIPTION("SCST-compatible SCSI target core");
MODULE_LICENSE("GPL");
MODULE_VERSION(SCST_VERSION_STRING);
