// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdisk_blockio.c - the vdisk_blockio back end: bios built straight over
 * the pages of the command's buffer (zero copy), completed asynchronously
 * from bio end_io with scst_cmd_exec_done(). SYNCHRONIZE CACHE is a data-less
 * REQ_PREFLUSH write, FUA writes carry REQ_FUA, UNMAP is a discard.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/scatterlist.h>

#include "vdisk.h"

/* Writes the target issues on behalf of an initiator: not write-back. */
#define BLOCKIO_WRITE_OPF	(REQ_OP_WRITE | REQ_SYNC | REQ_IDLE)

static struct block_device *blockio_bdev(const struct vdisk_dev *vdev)
{
	return vdev->bdev.bdev;
}

static sector_t blockio_sector(const struct vdisk_dev *vdev, u64 lba)
{
	return lba << (vdev->block_shift - SECTOR_SHIFT);
}

static int blockio_open(struct vdisk_dev *vdev)
{
	struct block_device *bdev;
	u32 lbs, pbs;
	int ret;

	ret = vdisk_bdev_open(vdev->filename, !vdev->read_only, vdev,
			      &vdev->bdev);
	if (ret == -EBUSY) {
		pr_err("%s: block device %s is in use (mounted, or exported by another device): it is opened exclusively\n",
		       vdev->name, vdev->filename);
		return ret;
	}
	if (ret) {
		pr_err("%s: cannot open block device %s: error %d\n",
		       vdev->name, vdev->filename, ret);
		return ret;
	}
	bdev = blockio_bdev(vdev);
	lbs = bdev_logical_block_size(bdev);
	if (!vdev->block_size)
		vdev->block_size = max_t(u32, lbs, VDISK_DEF_BLOCK_SIZE);
	if (vdev->block_size < lbs) {
		pr_err("%s: blocksize=%u is smaller than the logical block size %u of %s\n",
		       vdev->name, vdev->block_size, lbs, vdev->filename);
		vdisk_bdev_close(&vdev->bdev);
		return -EINVAL;
	}
	vdev->backing_size = bdev_nr_bytes(bdev);
	pbs = bdev_physical_block_size(bdev);
	vdev->phys_blocks = max_t(u32, pbs / vdev->block_size, 1);
	/* what lb_per_pb_exp reports, as SCST: the device's own */
	vdev->phys_bs = pbs;
	vdev->unmap_gran = max_t(u32, bdev_discard_granularity(bdev) /
				 vdev->block_size, 1);
	/* bios are built on the command's buffer as it is */
	vdev->dma_align_mask = bdev_dma_alignment(bdev);
	return 0;
}

static void blockio_close(struct vdisk_dev *vdev)
{
	vdisk_bdev_close(&vdev->bdev);
}

static int blockio_get_size(struct vdisk_dev *vdev, loff_t *size)
{
	*size = bdev_nr_bytes(blockio_bdev(vdev));
	return 0;
}

static bool blockio_thin_capable(struct vdisk_dev *vdev)
{
	return bdev_max_discard_sectors(blockio_bdev(vdev)) > 0;
}

static void blockio_end_io(struct bio *bio, bool write)
{
	struct scst_cmd *cmd = bio->bi_private;

	if (unlikely(bio->bi_status))
		vdisk_set_io_error(cmd, blk_status_to_errno(bio->bi_status),
				   write);
	bio_put(bio);
	vdisk_cmd_done(cmd, write);
}

static void blockio_read_end_io(struct bio *bio)
{
	blockio_end_io(bio, false);
}

static void blockio_write_end_io(struct bio *bio)
{
	blockio_end_io(bio, true);
}

static void blockio_flush_end_io(struct bio *bio)
{
	struct scst_cmd *cmd = bio->bi_private;

	if (unlikely(bio->bi_status))
		vdisk_set_io_error(cmd, blk_status_to_errno(bio->bi_status),
				   true);
	bio_put(bio);
	vdisk_cmd_done(cmd, false);
}

static void blockio_write_same_end_io(struct bio *bio)
{
	struct scst_cmd *cmd = bio->bi_private;

	__free_page(cmd->dh_priv);
	cmd->dh_priv = NULL;
	blockio_end_io(bio, true);
}

/*
 * Start a new bio after @prev, which is full: chain @prev to it so that the
 * last bio of a command completes after all of them, and submit @prev.
 */
static struct bio *blockio_next_bio(struct bio *prev, unsigned int nr_vecs)
{
	struct bio *bio;

	bio = bio_alloc(prev->bi_bdev, bio_max_segs(nr_vecs), prev->bi_opf,
			GFP_NOIO);
	bio->bi_iter.bi_sector = bio_end_sector(prev);
	bio_chain(prev, bio);
	submit_bio(prev);
	return bio;
}

/**
 * blockio_rw() - READ or WRITE over the command's own pages
 * @cmd: the command
 * @write: WRITE (else READ)
 * @fua: REQ_FUA
 * @pos: byte offset on the device
 * @len: bytes, a multiple of the block size, at most the buffer length
 *
 * bio_alloc() with GFP_NOIO waits on the bio mempool rather than failing.
 * The bios of a command are chained; the last one completes the command.
 */
static void blockio_rw(struct scst_cmd *cmd, bool write, bool fua, loff_t pos,
		       u32 len)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	unsigned int left = cmd->sg_cnt;
	struct scatterlist *sg;
	blk_opf_t opf;
	struct bio *bio;
	u32 l;
	int i;

	opf = write ? BLOCKIO_WRITE_OPF | (fua ? REQ_FUA : 0) : REQ_OP_READ;
	bio = bio_alloc(blockio_bdev(vdev), bio_max_segs(left), opf, GFP_NOIO);
	bio->bi_iter.bi_sector = pos >> SECTOR_SHIFT;
	for_each_sg(cmd->sg, sg, cmd->sg_cnt, i) {
		if (!len)
			break;
		l = min(sg->length, len);
		while (bio_add_page(bio, sg_page(sg), l, sg->offset) != l)
			bio = blockio_next_bio(bio, left);
		len -= l;
		left--;
	}
	bio->bi_end_io = write ? blockio_write_end_io : blockio_read_end_io;
	bio->bi_private = cmd;
	submit_bio(bio);
}

/* SYNCHRONIZE CACHE: an empty REQ_PREFLUSH write flushes the whole device */
static void blockio_flush(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	struct bio *bio;

	bio = bio_alloc(blockio_bdev(vdev), 0, REQ_OP_WRITE | REQ_PREFLUSH,
			GFP_NOIO);
	bio->bi_end_io = blockio_flush_end_io;
	bio->bi_private = cmd;
	submit_bio(bio);
}

/* UNMAP: one chain of discard bios for all ranges */
static void blockio_unmap(struct scst_cmd *cmd,
			  const struct vdisk_range *ranges, unsigned int nr)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	struct block_device *bdev = blockio_bdev(vdev);
	struct bio *bio = NULL;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++)
		ret = __blkdev_issue_discard(bdev,
					     blockio_sector(vdev, ranges[i].lba),
					     blockio_sector(vdev,
							    ranges[i].nblocks),
					     GFP_NOIO, &bio);
	if (unlikely(ret)) {
		/* wait for the part of the chain already submitted */
		if (bio) {
			submit_bio_wait(bio);
			bio_put(bio);
		}
		vdisk_set_io_error(cmd, ret, true);
		vdisk_cmd_done(cmd, true);
		return;
	}
	if (!bio) {
		vdisk_cmd_done(cmd, true);
		return;
	}
	bio->bi_end_io = blockio_write_end_io;
	bio->bi_private = cmd;
	submit_bio(bio);
}

/* WRITE SAME of a non-zero block: the same page, many times per bio */
static void blockio_write_same(struct scst_cmd *cmd, struct page *page,
			       u64 lba, u64 nblocks)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	u32 bs = vdev->block_size;
	blk_opf_t opf = BLOCKIO_WRITE_OPF;
	struct bio *bio;

	if (vdisk_write_fua(vdev, false))
		opf |= REQ_FUA;
	cmd->dh_priv = page;
	bio = bio_alloc(blockio_bdev(vdev),
			min_t(u64, nblocks, BIO_MAX_VECS), opf, GFP_NOIO);
	bio->bi_iter.bi_sector = blockio_sector(vdev, lba);
	while (nblocks) {
		if (bio_add_page(bio, page, bs, 0) == bs)
			nblocks--;
		else
			bio = blockio_next_bio(bio, min_t(u64, nblocks,
							  BIO_MAX_VECS));
	}
	bio->bi_end_io = blockio_write_same_end_io;
	bio->bi_private = cmd;
	submit_bio(bio);
}

/*
 * WRITE SAME of zeros: REQ_OP_WRITE_ZEROES where the device has it, else
 * the block layer writes zero pages; with @unmap the blocks may be
 * deallocated. Synchronous, bounded by the MAXIMUM WRITE SAME LENGTH.
 */
static int blockio_write_zeroes(struct vdisk_dev *vdev, u64 lba, u64 nblocks,
				bool unmap)
{
	struct block_device *bdev = blockio_bdev(vdev);
	int ret;

	ret = blkdev_issue_zeroout(bdev, blockio_sector(vdev, lba),
				   blockio_sector(vdev, nblocks), GFP_NOIO,
				   unmap ? 0 : BLKDEV_ZERO_NOUNMAP);
	if (!ret && vdisk_write_fua(vdev, false))
		ret = blkdev_issue_flush(bdev);
	return ret;
}

/* Synchronous I/O for COMPARE AND WRITE and VERIFY */
static int blockio_sync_io(struct vdisk_dev *vdev, bool write, bool fua,
			   loff_t pos, struct bio_vec *bv, unsigned int nr,
			   size_t len)
{
	blk_opf_t opf;
	struct bio *bio;
	unsigned int i;
	int ret;

	opf = write ? BLOCKIO_WRITE_OPF | (fua ? REQ_FUA : 0) : REQ_OP_READ;
	bio = bio_alloc(blockio_bdev(vdev), bio_max_segs(nr), opf, GFP_NOIO);
	bio->bi_iter.bi_sector = pos >> SECTOR_SHIFT;
	for (i = 0; i < nr; i++)
		while (bio_add_page(bio, bv[i].bv_page, bv[i].bv_len,
				    bv[i].bv_offset) != bv[i].bv_len)
			bio = blockio_next_bio(bio, nr - i);
	ret = submit_bio_wait(bio);
	bio_put(bio);
	return ret;
}

const struct vdisk_backend vdisk_blockio_backend = {
	.name = "vdisk_blockio",
	.vendor = VDISK_VENDOR_BIO,
	.has_filename = true,
	/* a discard does not promise zeros */
	.lbprz = false,
	.open = blockio_open,
	.close = blockio_close,
	.get_size = blockio_get_size,
	.thin_capable = blockio_thin_capable,
	.rw = blockio_rw,
	.flush = blockio_flush,
	.unmap = blockio_unmap,
	.write_same = blockio_write_same,
	.write_zeroes = blockio_write_zeroes,
	.sync_io = blockio_sync_io,
};
