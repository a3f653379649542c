// SPDX-License-Identifier: GPL-2.0-only
/*
 * Build-time probe (see ../Kbuild): compiles only when the kernel opens
 * block devices with bdev_file_open_by_path(), which returns a struct file
 * (Linux 6.9 and later).
 */
#include <linux/blkdev.h>

struct file *vdisk_conftest(void);

struct file *vdisk_conftest(void)
{
	return bdev_file_open_by_path("/dev/null", BLK_OPEN_READ, NULL, NULL);
}
