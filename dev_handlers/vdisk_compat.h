/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vdisk_compat.h - the only place where scst_vdisk.ko deals with differences
 * between the kernels it is built for (Debian 12's 6.1 and 6.12). The
 * VDISK_HAVE_* macros come from the build-time probes in Kbuild.
 */
#ifndef __VDISK_COMPAT_H
#define __VDISK_COMPAT_H

#include <linux/blkdev.h>
#include <linux/fs.h>

/**
 * struct vdisk_bdev_handle - an open block device
 * @bdev: the block device
 * @file: the file that holds @bdev open (bdev_file_open_by_path() kernels)
 * @mode: the mode @bdev was opened with (blkdev_get_by_path() kernels)
 */
struct vdisk_bdev_handle {
	struct block_device *bdev;
#ifdef VDISK_HAVE_BDEV_FILE_OPEN
	struct file *file;
#else
	fmode_t mode;
#endif
};

/**
 * vdisk_bdev_open() - open a block device by path, exclusively
 * @path: path of the block device node
 * @write: open it for writing too
 * @holder: the exclusive holder (the vdisk device)
 * @h: receives the open device
 *
 * Exclusively, so that a mounted file system, another export or another
 * target never shares the medium with an initiator behind our back.
 * Since 6.9 bdev_file_open_by_path() returns a struct file that holds the
 * device, exclusively when a holder is given; before 6.5
 * blkdev_get_by_path() took an fmode_t with FMODE_EXCL and a holder.
 *
 * Return: 0 or a negative errno (-ENOTBLK when @path is not a block
 * device, -EBUSY when it is in use).
 */
static inline int vdisk_bdev_open(const char *path, bool write, void *holder,
				  struct vdisk_bdev_handle *h)
{
#ifdef VDISK_HAVE_BDEV_FILE_OPEN
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct file *file;

	file = bdev_file_open_by_path(path, mode, holder, NULL);
	if (IS_ERR(file))
		return PTR_ERR(file);
	h->file = file;
	h->bdev = file_bdev(file);
#else
	fmode_t mode = FMODE_READ | FMODE_EXCL | (write ? FMODE_WRITE : 0);
	struct block_device *bdev;

	bdev = blkdev_get_by_path(path, mode, holder);
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	h->bdev = bdev;
	h->mode = mode;
#endif
	return 0;
}

/* Close what vdisk_bdev_open() opened; harmless on a closed handle. */
static inline void vdisk_bdev_close(struct vdisk_bdev_handle *h)
{
	if (!h->bdev)
		return;
#ifdef VDISK_HAVE_BDEV_FILE_OPEN
	fput(h->file);
	h->file = NULL;
#else
	blkdev_put(h->bdev, h->mode);
#endif
	h->bdev = NULL;
}

#endif /* __VDISK_COMPAT_H */
