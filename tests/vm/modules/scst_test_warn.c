// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_test_warn.c - raises one kernel WARNING when loaded.
 *
 * The VM harness must fail any test whose guest dmesg shows a WARNING; this
 * module is how its self-test proves that check works with a real splat.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/module.h>

static int __init scst_test_warn_init(void)
{
	WARN(1, "deliberate warning for the VM harness self-test\n");
	return 0;
}

static void __exit scst_test_warn_exit(void)
{
}

module_init(scst_test_warn_init);
module_exit(scst_test_warn_exit);

MODULE_DESCRIPTION("Test-only module that raises a WARNING at load");
MODULE_LICENSE("GPL");
