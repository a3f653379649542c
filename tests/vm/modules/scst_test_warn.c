// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_test_warn.c - raises one kernel WARNING when loaded, or with
 * leak=1 leaks one allocation instead.
 *
 * The VM harness must fail any test whose guest dmesg shows a WARNING, and
 * on the debug kernel any kmemleak report; this module is how its
 * self-tests prove those checks work with a real splat and a real leak.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/module.h>
#include <linux/slab.h>

static bool leak;
module_param(leak, bool, 0444);
MODULE_PARM_DESC(leak, "leak one allocation instead of warning");

/*
 * Only this module's data points at the allocation: once the module is
 * unloaded nothing does, which is the leak kmemleak must report.
 */
static void *scst_test_leaked;

static int __init scst_test_warn_init(void)
{
	if (leak) {
		scst_test_leaked = kmalloc(96, GFP_KERNEL);
		return scst_test_leaked ? 0 : -ENOMEM;
	}
	WARN(1, "deliberate warning for the VM harness self-test\n");
	return 0;
}

static void __exit scst_test_warn_exit(void)
{
}

module_init(scst_test_warn_init);
module_exit(scst_test_warn_exit);

MODULE_DESCRIPTION("Test-only module that raises a WARNING or leaks at load");
MODULE_LICENSE("GPL");
