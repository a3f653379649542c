// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdisk_fileio.c - the vdisk_fileio back end: a regular file or a block
 * device through the VFS. I/O is synchronous, on the device's worker
 * threads (exec_may_sleep), with ->read_iter()/->write_iter() over a bio_vec
 * iterator that points at the command's own pages: no copy between the
 * core's buffer and the page cache other than the one the file system
 * does. With o_direct the file is opened O_DIRECT and not even that.
 *
 * write_through and FUA writes use IOCB_DSYNC, so the write cache can be
 * switched with MODE SELECT without reopening the file. UNMAP punches
 * holes (FALLOC_FL_PUNCH_HOLE), GET LBA STATUS looks for them with
 * SEEK_DATA/SEEK_HOLE.
 *
 * The "async" parameter of SCST is accepted; I/O stays synchronous, the
 * parallelism comes from the worker threads (threads_num).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include "vdisk.h"

/* bio_vecs on the stack for small commands */
#define FILEIO_STACK_BVECS	8
/* bio_vecs per ->write_iter() of a WRITE SAME */
#define FILEIO_WS_BVECS		256

static struct inode *fileio_inode(const struct vdisk_dev *vdev)
{
	/* the block device's inode for a device node, not the node's */
	return vdev->filp->f_mapping->host;
}

/*
 * O_EXCL without O_CREAT opens a block device exclusively (and means
 * nothing for a regular file): as for vdisk_blockio, a mounted or already
 * exported block device is refused with EBUSY.
 */
/*
 * What direct I/O asks of the memory it is given: each segment's address
 * aligned to the block device's DMA alignment and its length to the
 * logical block size (bdev_iter_is_aligned(); the legacy fs/direct-io.c
 * wants the address aligned to the block size too). One mask holds both,
 * so an address is held to the block size as well: safe, at the price of
 * a copy of SRP immediate data on a 4 KiB-sector device. The device of
 * the file's filesystem for a regular file, a sector where there is none
 * (a filesystem over several devices or none may ask more: btrfs,
 * overlayfs, FUSE). Buffered I/O copies: nothing.
 */
static u32 fileio_dio_align_mask(const struct vdisk_dev *vdev,
				 struct inode *inode,
				 struct block_device *bdev)
{
	if (!vdev->o_direct)
		return 0;
	if (!bdev)
		bdev = inode->i_sb->s_bdev;
	if (!bdev)
		return SECTOR_SIZE - 1;
	return max(bdev_logical_block_size(bdev) - 1, bdev_dma_alignment(bdev));
}

static int fileio_open(struct vdisk_dev *vdev)
{
	int flags = O_LARGEFILE | O_EXCL |
		    (vdev->read_only ? O_RDONLY : O_RDWR);
	struct block_device *bdev = NULL;
	struct inode *inode;
	struct file *filp;
	u32 lbs = 512, pbs;
	int ret;

	if (vdev->o_direct)
		flags |= O_DIRECT;
	filp = filp_open(vdev->filename, flags, 0);
	if (IS_ERR(filp)) {
		ret = PTR_ERR(filp);
		if (ret == -EBUSY)
			pr_err("%s: block device %s is in use (mounted, or exported by another device): it is opened exclusively\n",
			       vdev->name, vdev->filename);
		else
			pr_err("%s: cannot open %s: error %d\n", vdev->name,
			       vdev->filename, ret);
		return ret;
	}
	vdev->filp = filp;
	inode = fileio_inode(vdev);
	if (S_ISBLK(inode->i_mode)) {
		bdev = I_BDEV(inode);
		lbs = bdev_logical_block_size(bdev);
		pbs = bdev_physical_block_size(bdev);
	} else if (S_ISREG(inode->i_mode)) {
		pbs = i_blocksize(inode);
	} else {
		pr_err("%s: %s is neither a regular file nor a block device\n",
		       vdev->name, vdev->filename);
		ret = -EINVAL;
		goto close;
	}
	if (!filp->f_op->read_iter || !filp->f_op->write_iter) {
		pr_err("%s: %s does not support vectored I/O\n", vdev->name,
		       vdev->filename);
		ret = -EINVAL;
		goto close;
	}

	if (!vdev->block_size)
		vdev->block_size = VDISK_DEF_BLOCK_SIZE;
	/* direct I/O needs the block device's alignment */
	if (bdev && vdev->o_direct && vdev->block_size < lbs) {
		pr_err("%s: blocksize=%u is smaller than the logical block size %u of %s (o_direct)\n",
		       vdev->name, vdev->block_size, lbs, vdev->filename);
		ret = -EINVAL;
		goto close;
	}
	vdev->backing_size = i_size_read(inode);
	vdev->phys_blocks = max_t(u32, pbs / vdev->block_size, 1);
	vdev->unmap_gran = bdev ? 1 : vdev->phys_blocks;
	/* what lb_per_pb_exp reports: SCST 3.11 assumes 4096 for fileio */
	vdev->phys_bs = VDISK_DEF_PHYS_BS;
	vdev->dma_align_mask = fileio_dio_align_mask(vdev, inode, bdev);
	return 0;

close:
	filp_close(filp, NULL);
	vdev->filp = NULL;
	return ret;
}

static void fileio_close(struct vdisk_dev *vdev)
{
	if (vdev->filp)
		filp_close(vdev->filp, NULL);
	vdev->filp = NULL;
}

static int fileio_get_size(struct vdisk_dev *vdev, loff_t *size)
{
	*size = i_size_read(fileio_inode(vdev));
	return 0;
}

/*
 * Punching holes needs ->fallocate(); on a block device node it becomes a
 * zeroing without fallback (blkdev_fallocate()), so the device must have
 * REQ_OP_WRITE_ZEROES.
 */
static bool fileio_thin_capable(struct vdisk_dev *vdev)
{
	struct inode *inode = fileio_inode(vdev);

	if (!vdev->filp->f_op->fallocate)
		return false;
	if (S_ISBLK(inode->i_mode))
		return bdev_write_zeroes_sectors(I_BDEV(inode)) > 0;
	return true;
}

/*
 * One synchronous read_iter/write_iter call, as the loop driver and the
 * NVMe target's file back end make them: a sync kiocb with IOCB_DSYNC for
 * FUA, and the file system's freeze protection around writes.
 */
static ssize_t fileio_iter_io(struct file *filp, bool write, bool dsync,
			      loff_t pos, struct iov_iter *iter)
{
	struct kiocb kiocb;
	ssize_t ret;

	init_sync_kiocb(&kiocb, filp);
	kiocb.ki_pos = pos;
	if (!write)
		return filp->f_op->read_iter(&kiocb, iter);
	if (dsync)
		kiocb.ki_flags |= IOCB_DSYNC;
	file_start_write(filp);
	ret = filp->f_op->write_iter(&kiocb, iter);
	file_end_write(filp);
	return ret;
}

/**
 * fileio_sync_io() - synchronous I/O between the file and bio_vecs
 * @vdev: the device
 * @write: write (else read)
 * @fua: the write reaches stable storage before this returns (O_DSYNC)
 * @pos: byte offset in the file
 * @bv: the memory
 * @nr: number of entries of @bv
 * @len: bytes, the sum of the lengths of @bv
 *
 * Return: 0, or a negative errno; -EIO when the file ends early.
 */
static int fileio_sync_io(struct vdisk_dev *vdev, bool write, bool fua,
			  loff_t pos, struct bio_vec *bv, unsigned int nr,
			  size_t len)
{
	struct iov_iter iter;
	ssize_t ret;

	iov_iter_bvec(&iter, write ? ITER_SOURCE : ITER_DEST, bv, nr, len);
	while (iov_iter_count(&iter)) {
		ret = fileio_iter_io(vdev->filp, write, fua, pos, &iter);
		if (ret < 0)
			return ret;
		if (!ret)
			return -EIO;
		pos += ret;
	}
	return 0;
}

static void fileio_rw(struct scst_cmd *cmd, bool write, bool fua, loff_t pos,
		      u32 len)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	struct bio_vec stack_bv[FILEIO_STACK_BVECS];
	struct bio_vec *bv = stack_bv;
	unsigned int nr;
	int ret;

	if (cmd->sg_cnt > FILEIO_STACK_BVECS) {
		bv = kmalloc_array(cmd->sg_cnt, sizeof(*bv), GFP_NOIO);
		if (!bv) {
			scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
			goto done;
		}
	}
	nr = vdisk_sg_to_bvec(cmd, 0, len, bv, max(cmd->sg_cnt, 1));
	if (!nr) {
		vdisk_set_io_error(cmd, -EIO, write);
		goto free_bv;
	}
	ret = fileio_sync_io(vdev, write, fua, pos, bv, nr, len);
	if (ret)
		vdisk_set_io_error(cmd, ret, write);
free_bv:
	if (bv != stack_bv)
		kfree(bv);
done:
	vdisk_cmd_done(cmd, write);
}

static int fileio_fsync(struct vdisk_dev *vdev, loff_t start, loff_t end)
{
	return vfs_fsync_range(vdev->filp, start, end, 1);
}

/* SYNCHRONIZE CACHE: the LBA range, or to the end for NUMBER OF BLOCKS 0 */
static void fileio_flush(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	loff_t start = (loff_t)cmd->lba << vdev->block_shift;
	loff_t end = LLONG_MAX;
	int ret;

	if (cmd->nblocks)
		end = start + ((loff_t)cmd->nblocks << vdev->block_shift) - 1;
	ret = fileio_fsync(vdev, start, end);
	if (ret)
		vdisk_set_io_error(cmd, ret, true);
	vdisk_cmd_done(cmd, false);
}

static int fileio_fallocate(struct vdisk_dev *vdev, int mode, u64 lba,
			    u64 nblocks)
{
	return vfs_fallocate(vdev->filp, mode | FALLOC_FL_KEEP_SIZE,
			     (loff_t)lba << vdev->block_shift,
			     (loff_t)nblocks << vdev->block_shift);
}

/* UNMAP: punch a hole per range; deallocated blocks read as zeros */
static void fileio_unmap(struct scst_cmd *cmd,
			 const struct vdisk_range *ranges, unsigned int nr)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	unsigned int i;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++)
		ret = fileio_fallocate(vdev, FALLOC_FL_PUNCH_HOLE,
				       ranges[i].lba, ranges[i].nblocks);
	if (!ret && vdisk_write_fua(vdev, false))
		ret = fileio_fsync(vdev, 0, LLONG_MAX);
	if (ret)
		vdisk_set_io_error(cmd, ret, true);
	vdisk_cmd_done(cmd, true);
}

/*
 * WRITE SAME of zeros: a hole when deallocating is allowed, otherwise
 * FALLOC_FL_ZERO_RANGE (allocated blocks that read as zeros). -EOPNOTSUPP
 * makes the caller write zeros instead.
 */
static int fileio_write_zeroes(struct vdisk_dev *vdev, u64 lba, u64 nblocks,
			       bool unmap)
{
	loff_t start = (loff_t)lba << vdev->block_shift;
	int ret;

	if (!vdev->filp->f_op->fallocate)
		return -EOPNOTSUPP;
	ret = fileio_fallocate(vdev, unmap ? FALLOC_FL_PUNCH_HOLE :
			       FALLOC_FL_ZERO_RANGE, lba, nblocks);
	if (ret == -EINVAL || ret == -ENODEV)
		ret = -EOPNOTSUPP;
	if (!ret && vdisk_write_fua(vdev, false))
		ret = fileio_fsync(vdev, start, start +
				   ((loff_t)nblocks << vdev->block_shift) - 1);
	return ret;
}

/* WRITE SAME of a non-zero block: FILEIO_WS_BVECS copies per write */
static void fileio_write_same(struct scst_cmd *cmd, struct page *page,
			      u64 lba, u64 nblocks)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	bool fua = vdisk_write_fua(vdev, false);
	loff_t pos = (loff_t)lba << vdev->block_shift;
	struct bio_vec *bv;
	unsigned int i, n;
	int ret = 0;

	bv = kmalloc_array(FILEIO_WS_BVECS, sizeof(*bv), GFP_NOIO);
	if (!bv) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		goto free_page;
	}
	for (i = 0; i < FILEIO_WS_BVECS; i++)
		bvec_set_page(&bv[i], page, vdev->block_size, 0);
	while (nblocks && !ret) {
		n = min_t(u64, nblocks, FILEIO_WS_BVECS);
		ret = fileio_sync_io(vdev, true, fua, pos, bv, n,
				     (size_t)n << vdev->block_shift);
		pos += (loff_t)n << vdev->block_shift;
		nblocks -= n;
	}
	if (ret)
		vdisk_set_io_error(cmd, ret, true);
	kfree(bv);
free_page:
	__free_page(page);
	vdisk_cmd_done(cmd, true);
}

/*
 * GET LBA STATUS of a regular file: SEEK_DATA and SEEK_HOLE find the
 * extent that holds @lba. A hole shorter than a block does not make the
 * block deallocated. File systems without SEEK_DATA report all data.
 */
static int fileio_lba_status(struct vdisk_dev *vdev, u64 lba, u64 *nblocks,
			     bool *mapped)
{
	loff_t pos = (loff_t)lba << vdev->block_shift;
	loff_t end = pos + ((loff_t)*nblocks << vdev->block_shift);
	loff_t data, hole;
	u64 n;

	if (!S_ISREG(fileio_inode(vdev)->i_mode))
		return 0;
	data = vfs_llseek(vdev->filp, pos, SEEK_DATA);
	if (data == -ENXIO)
		data = end;
	else if (data < 0)
		return 0;
	if (data > pos) {
		n = (min(data, end) - pos) >> vdev->block_shift;
		if (n) {
			*mapped = false;
			*nblocks = n;
			return 0;
		}
	}
	hole = vfs_llseek(vdev->filp, pos, SEEK_HOLE);
	if (hole < 0)
		return 0;
	n = DIV_ROUND_UP(min(hole, end) - pos, vdev->block_size);
	*mapped = true;
	*nblocks = max_t(u64, n, 1);
	return 0;
}

const struct vdisk_backend vdisk_fileio_backend = {
	.name = "vdisk_fileio",
	.vendor = VDISK_VENDOR_FIO,
	.has_filename = true,
	/* holes read as zeros */
	.lbprz = true,
	.open = fileio_open,
	.close = fileio_close,
	.get_size = fileio_get_size,
	.thin_capable = fileio_thin_capable,
	.rw = fileio_rw,
	.flush = fileio_flush,
	.unmap = fileio_unmap,
	.write_same = fileio_write_same,
	.write_zeroes = fileio_write_zeroes,
	.sync_io = fileio_sync_io,
	.lba_status = fileio_lba_status,
};
