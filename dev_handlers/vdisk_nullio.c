// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdisk_nullio.c - the vdisk_nullio back end: no backing store. Reads
 * return zeros, writes are dropped; every command completes at once on the
 * CPU that received it. Meant for measuring the target stack itself.
 *
 * SCST's read_zero=0 leaves a read's buffer as it was, to save the
 * zeroing; here it is zeroed whatever read_zero says, because a buffer
 * that held another command's data must never reach an initiator: the
 * content of such a read is unspecified in SCST, and zeros are one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/scatterlist.h>

#include "vdisk.h"

static int nullio_open(struct vdisk_dev *vdev)
{
	if (!vdev->block_size)
		vdev->block_size = VDISK_DEF_BLOCK_SIZE;
	/* the size comes from the size or size_mb parameter */
	vdev->phys_blocks = 1;
	/* what lb_per_pb_exp reports: SCST 3.11 assumes 4096 for nullio */
	vdev->phys_bs = VDISK_DEF_PHYS_BS;
	vdev->unmap_gran = 1;
	return 0;
}

static void nullio_close(struct vdisk_dev *vdev)
{
}

static int nullio_get_size(struct vdisk_dev *vdev, loff_t *size)
{
	*size = vdev->backing_size;
	return 0;
}

static bool nullio_thin_capable(struct vdisk_dev *vdev)
{
	return true;
}

static void nullio_rw(struct scst_cmd *cmd, bool write, bool fua, loff_t pos,
		      u32 len)
{
	if (!write)
		sg_zero_buffer(cmd->sg, cmd->sg_cnt, len, 0);
	vdisk_cmd_done(cmd, write);
}

static void nullio_flush(struct scst_cmd *cmd)
{
	vdisk_cmd_done(cmd, false);
}

static void nullio_unmap(struct scst_cmd *cmd,
			 const struct vdisk_range *ranges, unsigned int nr)
{
	vdisk_cmd_done(cmd, true);
}

static void nullio_write_same(struct scst_cmd *cmd, struct page *page,
			      u64 lba, u64 nblocks)
{
	__free_page(page);
	vdisk_cmd_done(cmd, true);
}

static int nullio_write_zeroes(struct vdisk_dev *vdev, u64 lba, u64 nblocks,
			       bool unmap)
{
	return 0;
}

static int nullio_sync_io(struct vdisk_dev *vdev, bool write, bool fua,
			  loff_t pos, struct bio_vec *bv, unsigned int nr,
			  size_t len)
{
	unsigned int i;

	if (write)
		return 0;
	for (i = 0; i < nr; i++)
		memzero_page(bv[i].bv_page, bv[i].bv_offset, bv[i].bv_len);
	return 0;
}

const struct vdisk_backend vdisk_nullio_backend = {
	.name = "vdisk_nullio",
	.vendor = VDISK_VENDOR_FIO,
	.has_filename = false,
	.lbprz = true,
	.open = nullio_open,
	.close = nullio_close,
	.get_size = nullio_get_size,
	.thin_capable = nullio_thin_capable,
	.rw = nullio_rw,
	.flush = nullio_flush,
	.unmap = nullio_unmap,
	.write_same = nullio_write_same,
	.write_zeroes = nullio_write_zeroes,
	.sync_io = nullio_sync_io,
};
