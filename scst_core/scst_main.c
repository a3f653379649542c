// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_main.c - module entry points of the target core: each layer's init
 * and exit, in order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "scst_priv.h"

static int __init scst_init(void)
{
	int ret;

	ret = scst_stash_init();
	if (ret)
		return ret;
	ret = scst_cmd_init();
	if (ret)
		goto stash_exit;
	ret = scst_tm_init();
	if (ret)
		goto cmd_exit;
	ret = scst_dispatch_init();
	if (ret)
		goto tm_exit;

	ret = scst_nexus_init();
	if (ret)
		goto dispatch_exit;

	ret = scst_sysfs_init();
	if (ret)
		goto nexus_exit;

	pr_info("target core version %s loaded\n", SCST_VERSION_STRING);
	return 0;

nexus_exit:
	scst_nexus_exit();
dispatch_exit:
	scst_dispatch_exit();
tm_exit:
	scst_tm_exit();
cmd_exit:
	scst_cmd_exit();
stash_exit:
	scst_stash_exit();
	return ret;
}

static void __exit scst_exit(void)
{
	scst_sysfs_exit();
	scst_nexus_exit();
	scst_dispatch_exit();
	scst_tm_exit();
	scst_cmd_exit();
	scst_stash_exit();
	pr_info("target core unloaded\n");
}

module_init(scst_init);
module_exit(scst_exit);

MODULE_DESCRIPTION("SCST-compatible SCSI target core");
MODULE_LICENSE("GPL");
MODULE_VERSION(SCST_VERSION_STRING);
