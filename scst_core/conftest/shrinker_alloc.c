// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compiles when shrinkers are allocated by the shrinker code (6.7 and
 * later): shrinker_alloc() and shrinker_register(), where older kernels
 * register a caller's struct shrinker with register_shrinker().
 */
#include <linux/shrinker.h>

struct shrinker *scst_conftest_shrinker_alloc(void);

struct shrinker *scst_conftest_shrinker_alloc(void)
{
	return shrinker_alloc(0, "scst-conftest");
}
