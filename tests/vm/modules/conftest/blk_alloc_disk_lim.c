// SPDX-License-Identifier: GPL-2.0-only
/* Compiles when blk_alloc_disk() takes the queue's limits (6.9 and later). */
#include <linux/blkdev.h>

struct gendisk *scst_conftest_alloc_disk(struct queue_limits *lim);

struct gendisk *scst_conftest_alloc_disk(struct queue_limits *lim)
{
	return blk_alloc_disk(lim, NUMA_NO_NODE);
}
