// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_test_align.c - a 16 MiB RAM disk (/dev/scst_align0) whose queue
 * asks for 4 KiB DMA alignment, as some controllers do, and ends with an
 * I/O error every bio whose memory does not have it.
 *
 * The backend of the test (srpt-desc) that a target driver's own buffer
 * (scst_cmd_set_tgt_sg(): SRP immediate data, which sits at 512 bytes in
 * a receive buffer) reaches a device only when it meets the device's
 * alignment. "misaligned" (module parameter, read-only) counts the bios
 * refused.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/vmalloc.h>

#define ALIGN_BYTES	4096
#define DISK_BYTES	(16 << 20)

static unsigned int misaligned;
module_param(misaligned, uint, 0444);
MODULE_PARM_DESC(misaligned, "bios refused for their memory's alignment");

static void *align_data;
static struct gendisk *align_disk;
static int align_major;

static void align_submit_bio(struct bio *bio)
{
	u64 pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	bool write = op_is_write(bio_op(bio));
	struct bvec_iter iter;
	struct bio_vec bv;
	void *p;

	if (bio_op(bio) != REQ_OP_READ && bio_op(bio) != REQ_OP_WRITE)
		goto end;		/* a flush: nothing to do */
	bio_for_each_segment(bv, bio, iter) {
		if ((bv.bv_offset & (ALIGN_BYTES - 1)) ||
		    (bv.bv_len & (SECTOR_SIZE - 1))) {
			WRITE_ONCE(misaligned, misaligned + 1);
			pr_info_ratelimited("bio at %llu: segment at offset %u, %u bytes: not %u-byte aligned\n",
					    pos, bv.bv_offset, bv.bv_len,
					    ALIGN_BYTES);
			bio->bi_status = BLK_STS_IOERR;
			goto end;
		}
		if (pos + bv.bv_len > DISK_BYTES) {
			bio->bi_status = BLK_STS_IOERR;
			goto end;
		}
		p = bvec_kmap_local(&bv);
		if (write)
			memcpy(align_data + pos, p, bv.bv_len);
		else
			memcpy(p, align_data + pos, bv.bv_len);
		kunmap_local(p);
		pos += bv.bv_len;
	}
end:
	bio_endio(bio);
}

static const struct block_device_operations align_fops = {
	.owner = THIS_MODULE,
	.submit_bio = align_submit_bio,
};

static int __init scst_test_align_init(void)
{
#ifdef TEST_HAVE_ALLOC_DISK_LIM
	struct queue_limits lim = { .dma_alignment = ALIGN_BYTES - 1 };
#endif
	int ret = -ENOMEM;

	align_data = vzalloc(DISK_BYTES);
	if (!align_data)
		return -ENOMEM;
	align_major = register_blkdev(0, "scst_align");
	if (align_major < 0) {
		ret = align_major;
		goto free_data;
	}
#ifdef TEST_HAVE_ALLOC_DISK_LIM
	align_disk = blk_alloc_disk(&lim, NUMA_NO_NODE);
	if (IS_ERR(align_disk)) {
		ret = PTR_ERR(align_disk);
		goto unregister;
	}
#else
	align_disk = blk_alloc_disk(NUMA_NO_NODE);
	if (!align_disk)
		goto unregister;
	blk_queue_dma_alignment(align_disk->queue, ALIGN_BYTES - 1);
#endif
	align_disk->major = align_major;
	align_disk->first_minor = 0;
	align_disk->minors = 1;
	align_disk->fops = &align_fops;
	snprintf(align_disk->disk_name, DISK_NAME_LEN, "scst_align0");
	set_capacity(align_disk, DISK_BYTES >> SECTOR_SHIFT);
	ret = add_disk(align_disk);
	if (ret)
		goto put_disk;
	return 0;

put_disk:
	put_disk(align_disk);
unregister:
	unregister_blkdev(align_major, "scst_align");
free_data:
	vfree(align_data);
	return ret;
}

static void __exit scst_test_align_exit(void)
{
	del_gendisk(align_disk);
	put_disk(align_disk);
	unregister_blkdev(align_major, "scst_align");
	vfree(align_data);
}

module_init(scst_test_align_init);
module_exit(scst_test_align_exit);
MODULE_DESCRIPTION("RAM disk asking for 4 KiB DMA alignment (scst-ng tests)");
MODULE_LICENSE("GPL");
