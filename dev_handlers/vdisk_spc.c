// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdisk_spc.c - command execution of the vdisk handlers: dispatch on the
 * operation code, the SPC-4 / SBC-3 commands emulated from the device's
 * state (INQUIRY, MODE SENSE/SELECT, READ CAPACITY, GET LBA STATUS, ...),
 * and the media commands built on the back ends' primitives (VERIFY,
 * COMPARE AND WRITE, WRITE SAME, UNMAP).
 *
 * The core has decoded the CDB (scst_cdb_parse()) before ->exec(): the
 * data direction, buffer length, LBA and number of blocks are set, the LBA
 * range is checked against the capacity and medium writes to a read-only
 * LUN were refused with DATA PROTECT. ->exec() runs in process context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vdisk.h"

/* Size of the buffers of the emulated, small data-in commands. */
#define VDISK_EMUL_BUF_LEN	PAGE_SIZE

/* ---------------------------------------------------------------------- */
/* Medium writes and COMPARE AND WRITE                                    */
/* ---------------------------------------------------------------------- */

/*
 * COMPARE AND WRITE (SBC-3 5.3) must be atomic with respect to every other
 * write to the device. Writes announce themselves in writes_inflight; a
 * COMPARE AND WRITE sets caw_active, waits for the writes in flight to
 * finish and keeps new ones waiting until it is done. The two sides use
 * the store-buffer pattern (store, full barrier, load), so at least one of
 * them sees the other. Commands other than COMPARE AND WRITE pay one atomic
 * increment and decrement of a per-device counter.
 */

/**
 * vdisk_write_try_begin() - a medium-modifying command starts, if it can
 * @vdev: the device
 *
 * Return: true when the write may go on (vdisk_write_end() when it is
 * done); false while a COMPARE AND WRITE owns the medium. Never sleeps.
 */
static bool vdisk_write_try_begin(struct vdisk_dev *vdev)
{
	atomic_inc(&vdev->writes_inflight);
	/* pairs with the smp_mb() in vdisk_caw_begin() */
	smp_mb__after_atomic();
	if (likely(!READ_ONCE(vdev->caw_active)))
		return true;
	vdisk_write_end(vdev);
	return false;
}

/**
 * vdisk_write_begin() - a medium-modifying command starts
 * @vdev: the device
 *
 * Waits while a COMPARE AND WRITE owns the medium: only where the command
 * may block (scst_cmd_may_block()).
 */
void vdisk_write_begin(struct vdisk_dev *vdev)
{
	while (!vdisk_write_try_begin(vdev))
		wait_event(vdev->caw_wq, !READ_ONCE(vdev->caw_active));
}

/**
 * vdisk_write_end() - a medium-modifying command finished
 * @vdev: the device
 *
 * Any context (bio completion included).
 */
void vdisk_write_end(struct vdisk_dev *vdev)
{
	/* atomic_dec_and_test() is a full barrier */
	if (atomic_dec_and_test(&vdev->writes_inflight) &&
	    READ_ONCE(vdev->caw_active))
		wake_up_all(&vdev->caw_wq);
}

static void vdisk_caw_begin(struct vdisk_dev *vdev)
{
	mutex_lock(&vdev->caw_mutex);
	WRITE_ONCE(vdev->caw_active, true);
	/* pairs with smp_mb__after_atomic() in vdisk_write_begin() */
	smp_mb();
	wait_event(vdev->caw_wq, !atomic_read(&vdev->writes_inflight));
}

static void vdisk_caw_end(struct vdisk_dev *vdev)
{
	WRITE_ONCE(vdev->caw_active, false);
	/* the waiters in vdisk_write_begin() see caw_active cleared */
	smp_mb();
	wake_up_all(&vdev->caw_wq);
	mutex_unlock(&vdev->caw_mutex);
}

/**
 * vdisk_cmd_done() - a back end finished a command
 * @cmd: the command, with its status set
 * @write: it was a medium write started with vdisk_write_begin()
 *
 * Any context.
 */
void vdisk_cmd_done(struct scst_cmd *cmd, bool write)
{
	if (write)
		vdisk_write_end(vdisk_cmd_vdev(cmd));
	scst_cmd_exec_done(cmd);
}

/**
 * vdisk_set_io_error() - end a command whose I/O failed
 * @cmd: the command
 * @err: negative errno from the back end
 * @write: the failed I/O was a write
 *
 * ENOSPC (a thin file system or device ran out of space) becomes SPACE
 * ALLOCATION FAILED WRITE PROTECT (SBC-3 4.7.3.7), ENOMEM BUSY, anything
 * else a MEDIUM ERROR: WRITE ERROR or UNRECOVERED READ ERROR.
 */
void vdisk_set_io_error(struct scst_cmd *cmd, int err, bool write)
{
	switch (err) {
	case -ENOSPC:
		scst_set_cmd_error(cmd, SCST_SENSE_SPACE_ALLOC_FAILED_WP);
		break;
	case -ENOMEM:
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		break;
	default:
		scst_set_cmd_error(cmd, write ? SCST_SENSE_WRITE_ERROR :
				   SCST_SENSE_UNRECOVERED_READ_ERROR);
		break;
	}
}

/**
 * vdisk_sg_to_bvec() - describe part of a command's buffer as bio_vecs
 * @cmd: the command
 * @skip: bytes of the buffer to skip
 * @len: bytes to describe
 * @bv: the bio_vecs to fill
 * @max: number of entries of @bv
 *
 * Return: the number of entries used, 0 when @max is too small or the
 * buffer too short.
 */
unsigned int vdisk_sg_to_bvec(struct scst_cmd *cmd, u32 skip, u32 len,
			      struct bio_vec *bv, unsigned int max)
{
	struct scatterlist *sg;
	unsigned int n = 0;
	u32 off, l;
	int i;

	for_each_sg(cmd->sg, sg, cmd->sg_cnt, i) {
		if (!len)
			break;
		if (skip >= sg->length) {
			skip -= sg->length;
			continue;
		}
		if (n == max)
			return 0;
		off = sg->offset + skip;
		l = min(sg->length - skip, len);
		bvec_set_page(&bv[n++], nth_page(sg_page(sg), off >> PAGE_SHIFT),
			      l, offset_in_page(off));
		skip = 0;
		len -= l;
	}
	return len ? 0 : n;
}

/* ---------------------------------------------------------------------- */
/* INQUIRY, READ CAPACITY, MODE SENSE/SELECT, GET LBA STATUS              */
/* ---------------------------------------------------------------------- */

/* A copy of the identity: a sysfs write may change it meanwhile */
struct vdisk_inq_ident {
	struct vdisk_identity id;
	u8 eui64[VDISK_DESIG_ID_MAX];
};

static void vdisk_fill_inq_params(struct scst_cmd *cmd,
				  struct vdisk_inq_ident *ii,
				  struct scst_inq_params *p)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	bool thin = vdev->thin_provisioned;

	spin_lock(&vdev->ident_lock);
	ii->id = vdev->ident;
	spin_unlock(&vdev->ident_lock);

	memset(p, 0, sizeof(*p));
	p->dev_type = SCST_TYPE_DISK;
	p->removable = vdev->removable;
	/* SCST's identity (vdisk_identity_defaults()), as configured */
	p->vendor = ii->id.t10_vend_id;
	p->product = ii->id.prod_id;
	p->revision = ii->id.prod_rev_lvl;
	p->unit_serial = ii->id.usn;
	p->t10_vend_spec = ii->id.vend_specific_id;
	p->eui64_len = vdisk_identity_eui64(&ii->id, ii->eui64);
	p->eui64 = ii->eui64;
	p->naa = ii->id.naa_id;
	p->naa_len = ii->id.naa_len;
	p->dev_scsi_name = ii->id.scsi_device_name;
	p->rel_tgt_id = cmd->sess->tgt->rel_tgt_id;
	/* ALUA (SPC-4 5.16): TPGS and the port's target port group */
	scst_alua_inq_info(cmd, &p->tpgs, &p->tpg_id);
	p->thin_provisioned = thin;
	p->rotational = vdev->rotational;
	p->write_cache = !vdev->nv_cache;
	p->lbpu = thin;
	p->lbpws = thin;
	p->lbpws10 = thin;
	p->lbprz = thin && vdev->be->lbprz;
	p->block_size = vdev->block_size;
	p->nblocks = READ_ONCE(cmd->dev->nblocks);
	/* one physical block, as READ CAPACITY(16) reports it */
	p->opt_xfer_gran = 1u << vdisk_lbppbe(READ_ONCE(vdev->lb_per_pb_exp),
					      vdev->phys_bs, vdev->block_size);
	p->max_unmap_lba_count = thin ? U32_MAX : 0;
	p->max_unmap_desc = thin ? VDISK_MAX_UNMAP_DESCS : 0;
	p->unmap_gran = thin ? vdev->unmap_gran : 0;
	/*
	 * SBC-3 6.5.3: what scst_cdb_parse() enforces. The optimal length
	 * is opt_trans_len (SCST's, 512 KiB by default; Linux initiators
	 * size their I/O from it), no more than the maximum: a host ignores
	 * an optimal length above it.
	 */
	p->max_xfer_len = scst_cmd_max_transfer(cmd) >> vdev->block_shift;
	p->opt_xfer_len = min_t(u32, scst_cmd_max_transfer(cmd),
				READ_ONCE(vdev->opt_trans_len)) >>
			  vdev->block_shift;
	p->max_ws_len = min_t(u64, VDISK_MAX_WS_BYTES,
			      scst_cmd_max_transfer(cmd)) >> vdev->block_shift;
	p->max_cw_len = VDISK_MAX_CW_BLOCKS;
}

/*
 * Data-in of an emulated command is built in a page-size buffer, not on
 * the stack: vdisk_emul_buf() gets one (BUSY without memory),
 * vdisk_emul_done() sends what a builder put there (the allocation length
 * cuts it, SPC-4 4.2.5.6) or the builder's error, and frees it.
 */
static u8 *vdisk_emul_buf(struct scst_cmd *cmd)
{
	u8 *buf = kzalloc(VDISK_EMUL_BUF_LEN, GFP_NOIO);

	if (!buf)
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
	return buf;
}

static void vdisk_emul_done(struct scst_cmd *cmd, u8 *buf, int len,
			    const struct scst_cdb_err *err)
{
	if (len < 0)
		scst_set_cmd_error_from(cmd, err);
	else
		scst_copy_to_sg(cmd, buf, min_t(u32, len, VDISK_EMUL_BUF_LEN));
	kfree(buf);
}

/* SPC-4 6.6 INQUIRY: standard data and VPD pages 00, 80, 83, 86, B0-B2 */
static void vdisk_exec_inquiry(struct scst_cmd *cmd)
{
	struct vdisk_inq_ident *ii;
	struct scst_inq_params p;
	struct scst_cdb_err err;
	u8 *buf;
	int len;

	buf = vdisk_emul_buf(cmd);
	if (!buf)
		return;
	ii = kmalloc(sizeof(*ii), GFP_NOIO);
	if (!ii) {
		kfree(buf);
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		return;
	}
	vdisk_fill_inq_params(cmd, ii, &p);
	len = scst_build_inquiry(cmd->cdb, cmd->cdb_len, &p, buf,
				 VDISK_EMUL_BUF_LEN, &err);
	/*
	 * nullio's dummy: PERIPHERAL QUALIFIER 001b, DEVICE TYPE 1Fh (SPC-4
	 * 6.6.2): no device is connected here, so hosts add no disk for the
	 * LUN (a LUN 0 placeholder), as SCST
	 */
	if (len > 0 && READ_ONCE(vdisk_cmd_vdev(cmd)->dummy))
		buf[0] = 1 << 5 | 0x1f;
	vdisk_emul_done(cmd, buf, len, &err);
	kfree(ii);
}

/* SBC-3 5.15, 5.16 READ CAPACITY(10) and (16) */
static void vdisk_exec_read_capacity(struct scst_cmd *cmd, bool cap16)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	u64 nblocks = READ_ONCE(cmd->dev->nblocks);
	u8 buf[SCST_READ_CAP16_LEN] = { };
	bool thin = vdev->thin_provisioned;
	int len;

	if (cap16)
		len = scst_build_read_capacity16(vdev->block_size, nblocks,
						 vdisk_lbppbe(READ_ONCE(vdev->lb_per_pb_exp),
							      vdev->phys_bs,
							      vdev->block_size),
						 thin,
						 thin && vdev->be->lbprz, buf,
						 sizeof(buf));
	else
		len = scst_build_read_capacity10(vdev->block_size, nblocks,
						 buf, sizeof(buf));
	if (len < 0) {
		scst_set_cmd_error(cmd, SCST_SENSE_HARDWARE_ERROR);
		return;
	}
	scst_copy_to_sg(cmd, buf, min_t(u32, len, sizeof(buf)));
}

static void vdisk_fill_mode_params(struct scst_cmd *cmd,
				   struct scst_mode_params *mp)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	struct scst_device *dev = cmd->dev;

	memset(mp, 0, sizeof(*mp));
	/* as SCST: a non-volatile cache is reported as no write cache */
	mp->wce = !(READ_ONCE(vdev->write_through) || vdev->nv_cache);
	mp->d_sense = dev->d_sense;
	mp->swp = dev->swp;
	mp->tst = dev->tst;
	mp->queue_alg = dev->queue_alg;
	mp->read_only = scst_cmd_read_only(cmd);
	mp->dpofua = true;
	mp->block_size = vdev->block_size;
	mp->nblocks = READ_ONCE(dev->nblocks);
	mp->def_wce = !(vdev->def_write_through || vdev->nv_cache);
	mp->def_queue_alg = SCST_QUEUE_ALG_UNRESTRICTED;
}

/* SPC-4 6.11, 6.12 MODE SENSE(6) and (10) */
static void vdisk_exec_mode_sense(struct scst_cmd *cmd)
{
	struct scst_mode_params mp;
	struct scst_cdb_err err;
	u8 *buf;
	int len;

	buf = vdisk_emul_buf(cmd);
	if (!buf)
		return;
	vdisk_fill_mode_params(cmd, &mp);
	len = scst_build_mode_sense(cmd->cdb, cmd->cdb_len, &mp, buf,
				    VDISK_EMUL_BUF_LEN, &err);
	vdisk_emul_done(cmd, buf, len, &err);
}

/*
 * SPC-4 6.9, 6.10 MODE SELECT(6) and (10): the caching page's WCE, the
 * control page's D_SENSE, SWP and QUEUE ALGORITHM MODIFIER are changeable.
 * The other I_T nexuses get MODE PARAMETERS CHANGED (SPC-4 7.5.1).
 */
static void vdisk_exec_mode_select(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	struct scst_device *dev = cmd->dev;
	struct scst_mode_params mp;
	struct scst_cdb_err err;
	u32 len = cmd->bufflen;
	u8 *data = NULL;
	int changed;

	VDISK_ASSERT_MAY_BLOCK(cmd);

	if (len) {
		data = kmalloc(len, GFP_NOIO);
		if (!data) {
			scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
			return;
		}
		len = scst_copy_from_sg(cmd, data, len);
	}

	mutex_lock(&vdev->cfg_mutex);
	vdisk_fill_mode_params(cmd, &mp);
	changed = scst_parse_mode_select(cmd->cdb, cmd->cdb_len, data, len,
					 &mp, &err);
	if (changed < 0) {
		scst_set_cmd_error_from(cmd, &err);
		goto unlock;
	}
	if (changed & SCST_MODE_CHANGED_WCE) {
		WRITE_ONCE(vdev->write_through, !mp.wce);
		pr_info("%s: write cache %s by MODE SELECT\n", vdev->name,
			mp.wce ? "enabled" : "disabled");
	}
	if (changed & SCST_MODE_CHANGED_D_SENSE)
		WRITE_ONCE(dev->d_sense, mp.d_sense);
	if (changed & SCST_MODE_CHANGED_SWP)
		WRITE_ONCE(dev->swp, mp.swp);
	if (changed & SCST_MODE_CHANGED_QUEUE_ALG)
		WRITE_ONCE(dev->queue_alg, mp.queue_alg);
	if (changed)
		scst_dev_mode_params_changed(dev, cmd->tgt_dev);
unlock:
	mutex_unlock(&vdev->cfg_mutex);
	kfree(data);
}

/* SBC-3 5.6 GET LBA STATUS: one descriptor, for the extent at the LBA */
static void vdisk_exec_get_lba_status(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	u64 capacity = READ_ONCE(cmd->dev->nblocks);
	u8 buf[SCST_LBA_STATUS_LEN] = { };
	u64 lba = cmd->lba, nblocks;
	bool mapped = true;
	int len, ret;

	VDISK_ASSERT_MAY_BLOCK(cmd);

	if (lba >= capacity) {
		scst_set_cmd_error(cmd, SCST_SENSE_LBA_OUT_OF_RANGE);
		return;
	}
	nblocks = capacity - lba;
	if (vdev->thin_provisioned && vdev->be->lba_status) {
		ret = vdev->be->lba_status(vdev, lba, &nblocks, &mapped);
		if (ret) {
			vdisk_set_io_error(cmd, ret, false);
			return;
		}
	}
	len = scst_build_lba_status(lba, nblocks, mapped ?
				    SCST_PROV_STATUS_MAPPED :
				    SCST_PROV_STATUS_DEALLOCATED,
				    buf, sizeof(buf));
	if (len < 0) {
		scst_set_cmd_error(cmd, SCST_SENSE_HARDWARE_ERROR);
		return;
	}
	scst_copy_to_sg(cmd, buf, min_t(u32, len, sizeof(buf)));
}

/* SPC-4 6.35 REPORT SUPPORTED OPERATION CODES, from the CDB table */
static void vdisk_exec_rsoc(struct scst_cmd *cmd)
{
	struct scst_cdb_err err;
	u8 *buf;
	int len;

	buf = vdisk_emul_buf(cmd);
	if (!buf)
		return;
	len = scst_build_rsoc(cmd->cdb, cmd->cdb_len, SCST_TYPE_DISK, buf,
			      VDISK_EMUL_BUF_LEN, &err);
	vdisk_emul_done(cmd, buf, len, &err);
}

/* ---------------------------------------------------------------------- */
/* Media commands                                                         */
/* ---------------------------------------------------------------------- */

/*
 * SBC-3 5.7-5.10, 5.29-5.32 READ and WRITE (6, 10, 12, 16). A write that
 * finds a COMPARE AND WRITE owning the medium waits for it only where it
 * may block; on the fast path it asks for a thread.
 */
static enum scst_exec_res vdisk_exec_rw(struct scst_cmd *cmd, bool write,
					bool fua)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	/* a data-in buffer may have been cut to the expected length */
	u32 len = round_down(cmd->bufflen, vdev->block_size);

	if (!len) {
		scst_cmd_exec_done(cmd);
		return SCST_EXEC_COMPLETED;
	}
	if (write) {
		if (!vdisk_write_try_begin(vdev)) {
			if (!scst_cmd_may_block(cmd))
				return SCST_EXEC_NEED_THREAD;
			vdisk_write_begin(vdev);
		}
		fua = vdisk_write_fua(vdev, fua);
	} else {
		fua = false;
		scst_set_resp_len(cmd, len);
	}
	vdev->be->rw(cmd, write, fua, (loff_t)cmd->lba << vdev->block_shift,
		     len);
	return SCST_EXEC_COMPLETED;
}

/*
 * Commands whose execution may sleep for long: synchronous reads and
 * writes of the medium (VERIFY with BYTCHK, COMPARE AND WRITE, WRITE SAME
 * zeroing, UNMAP), waits for a COMPARE AND WRITE or the configuration
 * mutex (MODE SELECT), file system lookups (GET LBA STATUS). They run on
 * a worker thread, never on the completion context that received them.
 */
static bool vdisk_cmd_may_sleep(const struct scst_cmd *cmd)
{
	/* the core's table marks them (SCST_OPF_MAY_SLEEP, scst_cdb.c) */
	return cmd->cdb_facts & SCST_OPF_MAY_SLEEP;
}

/* Compare @len bytes of the data-out buffer, from its start, with @buf. */
static bool vdisk_miter_cmp(struct sg_mapping_iter *miter, const u8 *buf,
			    size_t len, size_t *diff)
{
	size_t done = 0, n, off;

	while (done < len) {
		if (!sg_miter_next(miter)) {
			*diff = done;
			return true;
		}
		n = min(miter->length, len - done);
		off = scst_miscompare_offset(miter->addr, buf + done, n);
		if (off < n) {
			*diff = done + off;
			return true;
		}
		miter->consumed = n;
		done += n;
	}
	return false;
}

/**
 * vdisk_compare() - compare the medium with the command's data-out buffer
 * @cmd: the command; its buffer holds at least @len bytes
 * @pos: byte offset of the medium to compare from
 * @len: bytes to compare
 * @miscompare: receives the offset of the first differing byte
 *
 * Reads the medium through a bounce buffer of at most VDISK_BOUNCE_PAGES
 * pages at a time.
 *
 * Return: 0 when equal, 1 on a miscompare, or a negative errno when the
 * medium could not be read.
 */
static int vdisk_compare(struct scst_cmd *cmd, loff_t pos, u32 len,
			 u32 *miscompare)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	unsigned int nr = min_t(unsigned int, DIV_ROUND_UP(len, PAGE_SIZE),
				VDISK_BOUNCE_PAGES);
	struct sg_mapping_iter miter;
	u32 done = 0, chunk, l, i;
	struct bio_vec *bv;
	size_t diff;
	bool differ;
	void *addr;
	int ret = 0;

	VDISK_ASSERT_MAY_BLOCK(cmd);

	bv = kcalloc(nr, sizeof(*bv), GFP_NOIO);
	if (!bv)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct page *page = alloc_page(GFP_NOIO);

		if (!page) {
			ret = -ENOMEM;
			goto free_pages;
		}
		bvec_set_page(&bv[i], page, PAGE_SIZE, 0);
	}

	sg_miter_start(&miter, cmd->sg, cmd->sg_cnt, SG_MITER_FROM_SG);
	while (done < len && !ret) {
		chunk = min_t(u32, len - done, nr * PAGE_SIZE);
		for (i = 0; i * PAGE_SIZE < chunk; i++)
			bv[i].bv_len = min_t(u32, chunk - i * PAGE_SIZE,
					     PAGE_SIZE);
		ret = vdev->be->sync_io(vdev, false, false, pos + done, bv, i,
					chunk);
		if (ret)
			break;
		for (i = 0; i * PAGE_SIZE < chunk; i++) {
			l = bv[i].bv_len;
			addr = kmap_local_page(bv[i].bv_page);
			differ = vdisk_miter_cmp(&miter, addr, l, &diff);
			kunmap_local(addr);
			if (differ) {
				*miscompare = done + i * PAGE_SIZE + diff;
				ret = 1;
				break;
			}
		}
		done += chunk;
	}
	sg_miter_stop(&miter);

free_pages:
	for (i = 0; i < nr; i++)
		if (bv[i].bv_page)
			__free_page(bv[i].bv_page);
	kfree(bv);
	return ret;
}

/* MISCOMPARE, MISCOMPARE DURING VERIFY OPERATION, INFORMATION = @offset */
static void vdisk_set_miscompare(struct scst_cmd *cmd, u32 offset)
{
	struct scst_cdb_err err = {
		.sense_code = SCST_SENSE_MISCOMPARE_DURING_VERIFY,
		.has_info = true,
		.info = offset,
	};

	scst_set_cmd_error_from(cmd, &err);
}

/*
 * SBC-3 5.33, 5.34 VERIFY(10) and (16): with BYTCHK 0 there is nothing to
 * check (the back ends report read errors when the data is read); with
 * BYTCHK 1 the medium is compared with the data-out buffer.
 */
static void vdisk_exec_verify(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	/* BYTCHK: scst_cdb_decode() refused 1xb */
	bool bytchk = cmd->cdb[1] & 0x02;
	u32 len, miscompare;
	int ret;

	if (!bytchk || !cmd->nblocks)
		return;
	len = cmd->nblocks << vdev->block_shift;
	if (cmd->bufflen < len) {
		scst_set_cmd_error(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB);
		return;
	}
	ret = vdisk_compare(cmd, (loff_t)cmd->lba << vdev->block_shift, len,
			    &miscompare);
	if (ret < 0)
		vdisk_set_io_error(cmd, ret, false);
	else if (ret)
		vdisk_set_miscompare(cmd, miscompare);
}

/*
 * SBC-3 5.3 COMPARE AND WRITE: the data-out buffer holds the verify data
 * then the write data, NUMBER OF LOGICAL BLOCKS each. Executed
 * synchronously, with the device's writes held off (vdisk_caw_begin()).
 * A miscompare reports the offset of the first differing byte in the
 * INFORMATION field.
 */
static void vdisk_exec_caw(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	loff_t pos = (loff_t)cmd->lba << vdev->block_shift;
	bool fua = vdisk_write_fua(vdev, cmd->fua);
	struct bio_vec *bv;
	u32 len, miscompare;
	unsigned int nr;
	int ret;

	VDISK_ASSERT_MAY_BLOCK(cmd);

	if (!cmd->nblocks)
		return;
	len = cmd->nblocks << vdev->block_shift;
	if (cmd->nblocks > VDISK_MAX_CW_BLOCKS || cmd->bufflen < 2 * len) {
		scst_set_cmd_error_field(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB,
					 true, 13, -1);
		return;
	}
	bv = kmalloc_array(cmd->sg_cnt, sizeof(*bv), GFP_NOIO);
	if (!bv) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		return;
	}
	nr = vdisk_sg_to_bvec(cmd, len, len, bv, cmd->sg_cnt);
	if (!nr) {
		scst_set_cmd_error(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB);
		goto free_bv;
	}

	vdisk_caw_begin(vdev);
	ret = vdisk_compare(cmd, pos, len, &miscompare);
	if (ret < 0) {
		vdisk_set_io_error(cmd, ret, false);
	} else if (ret) {
		vdisk_set_miscompare(cmd, miscompare);
	} else {
		ret = vdev->be->sync_io(vdev, true, fua, pos, bv, nr, len);
		if (ret)
			vdisk_set_io_error(cmd, ret, true);
	}
	vdisk_caw_end(vdev);

free_bv:
	kfree(bv);
}

/*
 * SBC-3 5.45, 5.46 WRITE SAME(10) and (16). A block of zeros (or NDOB) is
 * handed to the back end's write_zeroes, which deallocates the blocks
 * when UNMAP is set and the device is thin provisioned; any other block is
 * written NUMBER OF LOGICAL BLOCKS times. Returns true when the command
 * was handed to an asynchronous back end path.
 */
static bool vdisk_exec_write_same(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	bool unmap = cmd->cdb[1] & 0x08;
	bool ndob = cmd->cdb[0] == SCST_OP_WRITE_SAME_16 &&
		    (cmd->cdb[1] & 0x01);
	u64 lba = cmd->lba, nblocks = cmd->nblocks;
	struct page *page;
	bool zero = true;
	void *addr;
	int ret;

	VDISK_ASSERT_MAY_BLOCK(cmd);

	/* scst_cdb_decode() refused ANCHOR and NUMBER OF LOGICAL BLOCKS 0 */
	if (unmap && !vdev->thin_provisioned) {
		scst_set_cmd_error_field(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB,
					 true, 1, 3);
		return false;
	}
	if (nblocks > (VDISK_MAX_WS_BYTES >> vdev->block_shift)) {
		scst_set_cmd_error_field(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB,
					 true, cmd->cdb[0] ==
					 SCST_OP_WRITE_SAME_16 ? 10 : 7, -1);
		return false;
	}

	page = NULL;
	if (!ndob) {
		if (cmd->bufflen < vdev->block_size) {
			scst_set_cmd_error(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB);
			return false;
		}
		page = alloc_page(GFP_NOIO);
		if (!page) {
			scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
			return false;
		}
		addr = page_address(page);
		scst_copy_from_sg(cmd, addr, vdev->block_size);
		zero = !memchr_inv(addr, 0, vdev->block_size);
	}

	vdisk_write_begin(vdev);
	if (zero) {
		ret = vdev->be->write_zeroes(vdev, lba, nblocks, unmap);
		if (ret != -EOPNOTSUPP)
			goto done;
		/* no zeroing primitive: write a block of zeros repeatedly */
		if (!page) {
			page = alloc_page(GFP_NOIO | __GFP_ZERO);
			if (!page) {
				ret = -ENOMEM;
				goto done;
			}
		}
	}
	vdev->be->write_same(cmd, page, lba, nblocks);
	return true;

done:
	if (ret)
		vdisk_set_io_error(cmd, ret, true);
	vdisk_write_end(vdev);
	if (page)
		__free_page(page);
	return false;
}

/*
 * SBC-3 5.28 UNMAP. The parameter list is checked as a whole (lengths,
 * descriptor count, LBA ranges) before anything is deallocated. Returns
 * true when the command was handed to the back end.
 */
static bool vdisk_exec_unmap(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	u64 capacity = READ_ONCE(cmd->dev->nblocks);
	struct vdisk_range *ranges = NULL;
	unsigned int i, ndesc, n = 0;
	struct scst_cdb_err err;
	u32 len = cmd->bufflen;
	u8 *data;
	u64 lba;
	u32 nb;
	int ret;

	VDISK_ASSERT_MAY_BLOCK(cmd);

	if (!vdev->thin_provisioned) {
		scst_set_cmd_error_field(cmd, SCST_SENSE_INVALID_OPCODE,
					 true, 0, -1);
		return false;
	}
	/* SBC-3 5.28.1: a PARAMETER LIST LENGTH of zero is not an error */
	if (!len)
		return false;

	data = kmalloc(len, GFP_NOIO);
	if (!data) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		return false;
	}
	len = scst_copy_from_sg(cmd, data, len);
	ret = scst_parse_unmap(data, len, capacity, VDISK_MAX_UNMAP_DESCS,
			       U32_MAX, &err);
	if (ret < 0) {
		scst_set_cmd_error_from(cmd, &err);
		goto free_data;
	}
	ndesc = ret;
	if (ndesc) {
		ranges = kmalloc_array(ndesc, sizeof(*ranges), GFP_NOIO);
		if (!ranges) {
			scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
			goto free_data;
		}
	}
	for (i = 0; i < ndesc; i++) {
		scst_unmap_desc(data, i, &lba, &nb);
		if (!nb)
			continue;
		ranges[n].lba = lba;
		ranges[n++].nblocks = nb;
	}
	if (!n)
		goto free_data;

	vdisk_write_begin(vdev);
	vdev->be->unmap(cmd, ranges, n);
	kfree(ranges);
	kfree(data);
	return true;

free_data:
	kfree(ranges);
	kfree(data);
	return false;
}

/* SBC-3 5.22, 5.23 SYNCHRONIZE CACHE(10) and (16) */
static bool vdisk_exec_sync_cache(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);

	/* nothing volatile to write back */
	if (vdev->nv_cache || vdev->read_only)
		return false;
	vdev->be->flush(cmd);
	return true;
}

/* The end of a command executed here: done now, or by its completion. */
static enum scst_exec_res vdisk_done(struct scst_cmd *cmd, bool async)
{
	if (!async)
		scst_cmd_exec_done(cmd);
	return SCST_EXEC_COMPLETED;
}

static enum scst_exec_res vop_read(struct scst_cmd *cmd)
{
	return vdisk_exec_rw(cmd, false, false);
}

static enum scst_exec_res vop_write(struct scst_cmd *cmd)
{
	/* FUA as scst_cdb_decode() found it (none in a 6-byte CDB) */
	return vdisk_exec_rw(cmd, true, cmd->fua);
}

static enum scst_exec_res vop_write_verify(struct scst_cmd *cmd)
{
	/* SBC-3 5.36: written through to the medium, then verified */
	return vdisk_exec_rw(cmd, true, true);
}

static enum scst_exec_res vop_verify(struct scst_cmd *cmd)
{
	vdisk_exec_verify(cmd);
	return vdisk_done(cmd, false);
}

/*
 * SBC-3 5.11 PRE-FETCH: GOOD, not CONDITION MET, says that the blocks are
 * not guaranteed to be in a cache: we keep none of our own (the page
 * cache or the backing device may). TEST UNIT READY, START STOP UNIT,
 * PREVENT ALLOW MEDIUM REMOVAL: the medium is always there and cannot be
 * removed.
 */
static enum scst_exec_res vop_good(struct scst_cmd *cmd)
{
	return vdisk_done(cmd, false);
}

static enum scst_exec_res vop_caw(struct scst_cmd *cmd)
{
	vdisk_exec_caw(cmd);
	return vdisk_done(cmd, false);
}

static enum scst_exec_res vop_write_same(struct scst_cmd *cmd)
{
	return vdisk_done(cmd, vdisk_exec_write_same(cmd));
}

static enum scst_exec_res vop_unmap(struct scst_cmd *cmd)
{
	return vdisk_done(cmd, vdisk_exec_unmap(cmd));
}

static enum scst_exec_res vop_sync_cache(struct scst_cmd *cmd)
{
	return vdisk_done(cmd, vdisk_exec_sync_cache(cmd));
}

static enum scst_exec_res vop_inquiry(struct scst_cmd *cmd)
{
	vdisk_exec_inquiry(cmd);
	return vdisk_done(cmd, false);
}

static enum scst_exec_res vop_read_cap10(struct scst_cmd *cmd)
{
	vdisk_exec_read_capacity(cmd, false);
	return vdisk_done(cmd, false);
}

static enum scst_exec_res vop_read_cap16(struct scst_cmd *cmd)
{
	vdisk_exec_read_capacity(cmd, true);
	return vdisk_done(cmd, false);
}

static enum scst_exec_res vop_mode_sense(struct scst_cmd *cmd)
{
	vdisk_exec_mode_sense(cmd);
	return vdisk_done(cmd, false);
}

static enum scst_exec_res vop_mode_select(struct scst_cmd *cmd)
{
	vdisk_exec_mode_select(cmd);
	return vdisk_done(cmd, false);
}

static enum scst_exec_res vop_get_lba_status(struct scst_cmd *cmd)
{
	vdisk_exec_get_lba_status(cmd);
	return vdisk_done(cmd, false);
}

static enum scst_exec_res vop_rsoc(struct scst_cmd *cmd)
{
	vdisk_exec_rsoc(cmd);
	return vdisk_done(cmd, false);
}

/**
 * struct vdisk_op - how vdisk executes one kind of command
 * @exec: the executor
 * @medium: it reaches the backing store, or reports its capacity: with
 *	active=0 there is none open, and it gets NOT READY, MEDIUM NOT
 *	PRESENT (SPC-4 4.5.6) as in SCST; INQUIRY, MODE SENSE/SELECT, TEST
 *	UNIT READY and the commands the core answers keep working
 */
struct vdisk_op {
	enum scst_exec_res (*exec)(struct scst_cmd *cmd);
	bool medium;
};

/*
 * The executors, by the op id of the core's CDB table row (cmd->op_id,
 * set by the parse): the opcode is not decoded again here. A command
 * without an entry (REPORT or SET TARGET PORT GROUPS of a device outside
 * a device group: TPGS is 00b) is returned to the core, which fails it
 * with INVALID COMMAND OPERATION CODE.
 */
static const struct vdisk_op vdisk_ops[SCST_OPID_COUNT] = {
	[SCST_OPID_READ]		= { vop_read, true },
	[SCST_OPID_WRITE]		= { vop_write, true },
	[SCST_OPID_WRITE_VERIFY]	= { vop_write_verify, true },
	[SCST_OPID_VERIFY]		= { vop_verify, true },
	[SCST_OPID_PRE_FETCH]		= { vop_good, true },
	[SCST_OPID_COMPARE_AND_WRITE]	= { vop_caw, true },
	[SCST_OPID_WRITE_SAME]		= { vop_write_same, true },
	[SCST_OPID_UNMAP]		= { vop_unmap, true },
	[SCST_OPID_SYNCHRONIZE_CACHE]	= { vop_sync_cache, true },
	[SCST_OPID_TEST_UNIT_READY]	= { vop_good, false },
	[SCST_OPID_START_STOP_UNIT]	= { vop_good, false },
	[SCST_OPID_PREVENT_ALLOW_MEDIUM] = { vop_good, false },
	[SCST_OPID_INQUIRY]		= { vop_inquiry, false },
	[SCST_OPID_READ_CAPACITY_10]	= { vop_read_cap10, true },
	[SCST_OPID_MODE_SENSE]		= { vop_mode_sense, false },
	[SCST_OPID_MODE_SELECT]		= { vop_mode_select, false },
	[SCST_OPID_READ_CAPACITY_16]	= { vop_read_cap16, true },
	[SCST_OPID_GET_LBA_STATUS]	= { vop_get_lba_status, true },
	[SCST_OPID_REPORT_SUPPORTED_OPCODES] = { vop_rsoc, false },
};

/* The entry of @cmd in vdisk_ops[], or NULL. */
static const struct vdisk_op *vdisk_op_of(const struct scst_cmd *cmd)
{
	if (cmd->op_id >= ARRAY_SIZE(vdisk_ops) || !vdisk_ops[cmd->op_id].exec)
		return NULL;
	return &vdisk_ops[cmd->op_id];
}

static enum scst_exec_res vdisk_exec_cmd(struct scst_cmd *cmd)
{
	const struct vdisk_op *op;

	if (!scst_cmd_may_block(cmd) && vdisk_cmd_may_sleep(cmd))
		return SCST_EXEC_NEED_THREAD;
	op = vdisk_op_of(cmd);
	if (!op)
		return SCST_EXEC_NOT_HANDLED;
	return op->exec(cmd);
}

/* cmd->dh_flags: the command holds vdev->media_ref */
#define VDISK_CMD_MEDIA		BIT(0)

/**
 * vdisk_exec() - ->exec() of the three vdisk handlers
 * @cmd: the command, parsed by the core
 *
 * REPORT LUNS, REQUEST SENSE and RESERVE/RELEASE never get here (the core
 * answers them); other commands this handler does not know are returned to
 * the core, which fails them with INVALID COMMAND OPERATION CODE. A
 * command that reaches the backing store holds the device's media_ref
 * until it is freed (vdisk_on_free_cmd()), so that active=0 closes the
 * backing store only once none uses it.
 *
 * Return: SCST_EXEC_COMPLETED when the command is done or will complete
 * with scst_cmd_exec_done(), SCST_EXEC_NEED_THREAD when it must run where
 * it may sleep (see vdisk_cmd_may_sleep()), SCST_EXEC_NOT_HANDLED
 * otherwise.
 */
enum scst_exec_res vdisk_exec(struct scst_cmd *cmd)
{
	struct vdisk_dev *vdev = vdisk_cmd_vdev(cmd);
	const struct vdisk_op *op = vdisk_op_of(cmd);

	/* a command sent back with NEED_THREAD holds it already */
	if (!(cmd->dh_flags & VDISK_CMD_MEDIA) && op && op->medium) {
		if (!percpu_ref_tryget_live(&vdev->media_ref)) {
			scst_set_cmd_error(cmd, SCST_SENSE_MEDIUM_NOT_PRESENT);
			scst_cmd_exec_done(cmd);
			return SCST_EXEC_COMPLETED;
		}
		cmd->dh_flags |= VDISK_CMD_MEDIA;
	}
	return vdisk_exec_cmd(cmd);
}

/**
 * vdisk_on_free_cmd() - ->on_free_cmd() of the three vdisk handlers
 * @cmd: the command, done
 *
 * Any context.
 */
void vdisk_on_free_cmd(struct scst_cmd *cmd)
{
	if (cmd->dh_flags & VDISK_CMD_MEDIA) {
		cmd->dh_flags &= ~VDISK_CMD_MEDIA;
		percpu_ref_put(&vdisk_cmd_vdev(cmd)->media_ref);
	}
}
