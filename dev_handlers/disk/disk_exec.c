// SPDX-License-Identifier: GPL-2.0-only
/*
 * disk_exec.c - the data path of dev_disk: every command that reaches the
 * handler becomes a block-layer passthrough request (REQ_OP_DRV_IN/OUT,
 * as the kernel's SG_IO does) on the SCSI device's request queue, built on
 * the core's scatterlist pages, submitted asynchronously and completed
 * from its end_io with the device's status, sense data and residual.
 *
 * The core answers REPORT LUNS, REQUEST SENSE, SPC-2 RESERVE/RELEASE and
 * PERSISTENT RESERVE IN/OUT itself (scst_emul.c) before ->exec();
 * everything else the core's table or disk_cdb.c decodes passes
 * (Documentation/disk.md lists them).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/moduleparam.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/error-injection.h>

#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_proto.h>

#include <scst_alua.h>

#include "disk.h"

/* SPC-4 D.2: ABORTED COMMAND for a transport failure, or its timeout */
#define DISK_SENSE_LU_COMM_FAILURE \
	SCST_SENSE_CODE(SCST_SK_ABORTED_COMMAND, 0x08, 0x00)
#define DISK_SENSE_LU_COMM_TIMEOUT \
	SCST_SENSE_CODE(SCST_SK_ABORTED_COMMAND, 0x08, 0x01)
/* READ CAPACITY(10) at add_device: a few unit attentions may come first */
#define DISK_RC_TRIES		4

/*
 * Copy every command's data through the handler's own pages, as for a
 * buffer the queue refuses: for a host driver that mishandles the
 * target's pages, and so that tests reach the copy path.
 */
static bool disk_bounce_all;
module_param_named(bounce_all, disk_bounce_all, bool, 0644);
MODULE_PARM_DESC(bounce_all,
		 "copy all data through the handler's own pages (default 0: the core's pages where the queue takes them)");

/**
 * struct disk_req - a command on its way through the SCSI device
 * @entry: on disk_dev.inflight
 * @rq: the passthrough request
 * @cmd: the command
 * @bounce_table: a copy of the data in pages of our own, when the
 *	command's buffer does not fit the queue's alignment or segment rules
 * @bounce: its scatterlist, or NULL
 * @bounce_nents: its entries
 * @reset: a logical unit reset aborted the command: the request is
 *	aborted in the device as soon as it has started (disk_abort_reset())
 * @abort_sent: blk_abort_request() was called on it
 *
 * @reset and @abort_sent change under disk_dev.lock.
 */
struct disk_req {
	struct list_head entry;
	struct request *rq;
	struct scst_cmd *cmd;
	struct sg_table bounce_table;
	struct scatterlist *bounce;
	unsigned int bounce_nents;
	bool reset;
	bool abort_sent;
};

/* How often requests of a reset that have not started yet are looked at */
#define DISK_ABORT_POLL		(HZ / 20)

bool disk_sdev_gone(const struct disk_dev *ddev)
{
	enum scsi_device_state st = READ_ONCE(ddev->sdev->sdev_state);

	return st == SDEV_DEL || st == SDEV_CANCEL;
}

/* ---------------------------------------------------------------------- */
/* parse                                                                  */

/*
 * The largest buffer one command may have: the nexus's (max_transfer_kb,
 * the transport's) within what the queue takes. max_transfer_kb keeps
 * the core's default, so that a saved configuration does not carry one
 * device's limit (it would not fit another).
 */
static u32 disk_max_transfer(const struct scst_cmd *cmd)
{
	return min(scst_cmd_max_transfer(cmd), disk_cmd_ddev(cmd)->max_bytes);
}

/*
 * The core's table did not know the command: an unknown operation code,
 * or a known one with an unknown SERVICE ACTION (scst_cdb_decode() says
 * so; another field it refuses at byte 1 bit 4, MODE SELECT's PF for
 * one, stays the core's INVALID FIELD IN CDB).
 */
static bool disk_core_unknown(const struct scst_cdb_err *err)
{
	return err->sense_code == SCST_SENSE_INVALID_OPCODE || err->unknown_sa;
}

/**
 * disk_parse() - decode a command for the pass-through
 * @cmd: the command
 *
 * scst_cdb_parse() for what the core's table knows (its capacity check
 * never fires: the device checks the LBA range and answers itself, see
 * disk_attach()); disk_cdb_decode() for the commands only a real device
 * implements; third-party copy refused
 * (disk_cdb_refused()). Transfers beyond disk_max_transfer() fail here
 * with INVALID FIELD IN CDB, before a buffer exists or the device sees
 * them.
 *
 * Return: 0, or -EINVAL with the sense set.
 */
int disk_parse(struct scst_cmd *cmd)
{
	struct scst_device *dev = cmd->dev;
	u32 max = disk_max_transfer(cmd);
	struct scst_cdb_info info;
	struct scst_cdb_err err;

	if (disk_cdb_refused(cmd->cdb)) {
		scst_set_cmd_error_field(cmd, SCST_SENSE_INVALID_OPCODE, true,
					 0, -1);
		return -EINVAL;
	}
	if (!scst_cdb_decode(cmd->cdb, cmd->cdb_len, dev->handler->type,
			     dev->block_shift, &info, &err) ||
	    !disk_core_unknown(&err)) {
		/* the core's command: its decoding, checks and errors */
		if (scst_cdb_parse(cmd))
			return -EINVAL;
	} else {
		/*
		 * what the core's table knows of it anyway (a service action
		 * of its, or the admission classes of SPC-4 §5.9.1 table 63
		 * and §5.16.2.4), before info is the pass-through's
		 */
		cmd->cdb_facts = info.facts;
		if (disk_cdb_decode(cmd->cdb, cmd->cdb_len, cmd->expected_dir,
				    cmd->expected_len, max, &info, &err))
			goto bad;
		cmd->data_direction = info.direction;
		cmd->bufflen = info.bufflen;
		cmd->cdb_flags = info.flags;
		if ((info.flags & SCST_CDB_MEDIUM_WRITE) &&
		    scst_cmd_read_only(cmd)) {
			scst_set_cmd_error(cmd, SCST_SENSE_WRITE_PROTECTED);
			return -EINVAL;
		}
	}
	if (scst_cdb_check_xfer_limit(&info, max, dev->block_shift, &err)) {
		pr_warn_ratelimited("%s: opcode 0x%02x: %u bytes exceed the maximum transfer of %u bytes of %s\n",
				    cmd->sess->sess_name, cmd->cdb[0],
				    info.bufflen, max, dev->name);
		goto bad;
	}
	/*
	 * The device gets the command's CDB length (SPC-4 §4.2.5.1), not
	 * the transport's (SRP carries 16 bytes or more): a host whose
	 * max_cmd_len is 12 takes a READ(10).
	 */
	cmd->cdb_len = info.cdb_len;
	return 0;

bad:
	scst_set_cmd_error_from(cmd, &err);
	return -EINVAL;
}

/* ---------------------------------------------------------------------- */
/* building the request                                                   */

static void disk_bio_end_io(struct bio *bio)
{
	bio_uninit(bio);
	kfree(bio);
}

/* Number of page-bounded chunks @len bytes of @sgl make */
static unsigned int disk_sg_chunks(struct scatterlist *sgl, unsigned int nents,
				   u32 len)
{
	struct scatterlist *sg;
	unsigned int i, n = 0;

	for_each_sg(sgl, sg, nents, i) {
		u32 l = min(sg->length, len);

		if (!l)
			break;
		n += DIV_ROUND_UP(offset_in_page(sg->offset) + l, PAGE_SIZE);
		len -= l;
	}
	return n;
}

/*
 * Map @len bytes of @sgl onto @rq without copying, a page at most per
 * bio_vec: blk_rq_append_bio() counts one segment per bio_vec, so none
 * may be larger than a segment (max_segment_size is a page at least);
 * bio_add_pc_page() merges what the queue allows. Fails (-EINVAL) when
 * an entry breaks the queue's DMA alignment or its limits (max_hw_sectors,
 * max_segments, virt_boundary), so that the caller bounces instead.
 *
 * @own: @sgl is the handler's bounce pages, whole pages from offset 0:
 * only the transfer's length may be off the DMA alignment (an ALLOCATION
 * LENGTH of 255, say), which in a page of our own is what the kernel's
 * own copy for a passthrough request (bio_copy_kern()) also submits.
 */
static int disk_map_sg(struct request *rq, struct scatterlist *sgl,
		       unsigned int nents, u32 len, bool own)
{
	unsigned int nvecs = disk_sg_chunks(sgl, nents, len);
	struct request_queue *q = rq->q;
	struct scatterlist *sg;
	struct bio *bio;
	unsigned int i;
	int ret;

	if (nvecs > UIO_MAXIOV)
		return -EINVAL;
	bio = bio_kmalloc(nvecs, GFP_NOIO);
	if (!bio)
		return -ENOMEM;
	bio_init(bio, NULL, bio->bi_inline_vecs, nvecs, req_op(rq));
	for_each_sg(sgl, sg, nents, i) {
		u32 n = min(sg->length, len), off = sg->offset, c;
		struct page *page;

		if (!n)
			break;
		if (!own && !blk_rq_aligned(q, off, n)) {
			ret = -EINVAL;
			goto free_bio;
		}
		len -= n;
		page = nth_page(sg_page(sg), off >> PAGE_SHIFT);
		off = offset_in_page(off);
		for (; n; n -= c, off = 0, page = nth_page(page, 1)) {
			c = min_t(u32, n, PAGE_SIZE - off);
			if (bio_add_pc_page(q, bio, page, c, off) != c) {
				ret = -EINVAL;
				goto free_bio;
			}
		}
	}
	if (len) {
		ret = -EINVAL;
		goto free_bio;
	}
	ret = blk_rq_append_bio(rq, bio);
	if (ret)
		goto free_bio;
	bio->bi_end_io = disk_bio_end_io;
	return 0;

free_bio:
	disk_bio_end_io(bio);
	return ret;
}

/* Copy between the command's buffer and the bounce pages. */
static void disk_bounce_copy(struct disk_req *dr, bool to_bounce, u32 len)
{
	struct scst_cmd *cmd = dr->cmd;
	struct scatterlist *b;
	unsigned int i;
	u32 off = 0;

	for_each_sg(dr->bounce, b, dr->bounce_nents, i) {
		u32 n = min(b->length, len - off);

		if (!n)
			break;
		if (to_bounce)
			sg_pcopy_to_buffer(cmd->sg, cmd->sg_cnt, sg_virt(b), n,
					   off);
		else
			sg_pcopy_from_buffer(cmd->sg, cmd->sg_cnt, sg_virt(b),
					     n, off);
		off += n;
	}
}

/* Free the bounce pages; entries not filled yet have no page. */
static void disk_bounce_free(struct disk_req *dr)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sg(dr->bounce_table.sgl, sg, dr->bounce_table.orig_nents, i)
		if (sg_page(sg))
			__free_page(sg_page(sg));
	sg_free_table(&dr->bounce_table);
	dr->bounce = NULL;
}

/*
 * Order-0 pages, a page per entry, as scst_cmd_alloc_data_buf() builds
 * the core's buffers (sgl_alloc() needs CONFIG_SGL_ALLOC, which a module
 * cannot select).
 */
static noinline int disk_bounce_alloc(struct disk_req *dr, u32 len)
{
	unsigned int nents = DIV_ROUND_UP(len, PAGE_SIZE), i;
	struct scatterlist *sg;
	struct page *page;

	if (sg_alloc_table(&dr->bounce_table, nents, GFP_NOIO | __GFP_NOWARN))
		return -ENOMEM;
	dr->bounce = dr->bounce_table.sgl;
	dr->bounce_nents = nents;
	for_each_sg(dr->bounce, sg, nents, i) {
		page = alloc_page(GFP_NOIO | __GFP_NOWARN);
		if (!page) {
			disk_bounce_free(dr);
			return -ENOMEM;
		}
		sg_set_page(sg, page, min_t(u32, len - i * PAGE_SIZE, PAGE_SIZE),
			    0);
	}
	return 0;
}

ALLOW_ERROR_INJECTION(disk_bounce_alloc, ERRNO);

/*
 * The data of @dr's command onto its request: the core's pages where the
 * queue takes them, else a bounce copy in page-sized, page-aligned chunks
 * (what the queue limits were computed for, disk_queue_max_bytes()).
 */
static int disk_map_data(struct disk_req *dr, u32 len, bool write)
{
	struct scst_cmd *cmd = dr->cmd;
	int ret;

	if (!READ_ONCE(disk_bounce_all)) {
		ret = disk_map_sg(dr->rq, cmd->sg, cmd->sg_cnt, len, false);
		if (ret != -EINVAL)
			return ret;
	}
	if (disk_bounce_alloc(dr, len))
		return -ENOMEM;
	if (write)
		disk_bounce_copy(dr, true, len);
	ret = disk_map_sg(dr->rq, dr->bounce, dr->bounce_nents, len, true);
	if (ret)
		disk_bounce_free(dr);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* completion                                                             */

/* A failure below the device (host byte, SAM-5 service response) */
static void disk_set_host_error(struct scst_cmd *cmd, struct disk_dev *ddev,
				u8 host)
{
	switch (host) {
	case DID_TIME_OUT:
		scst_set_cmd_error(cmd, DISK_SENSE_LU_COMM_TIMEOUT);
		break;
	case DID_NO_CONNECT:
	case DID_BAD_TARGET:
		scst_set_cmd_error(cmd, disk_sdev_gone(ddev) ?
				   SCST_SENSE_LUN_NOT_SUPPORTED :
				   SCST_SENSE_NOT_READY);
		break;
	case DID_BUS_BUSY:
	case DID_REQUEUE:
	case DID_IMM_RETRY:
	case DID_SOFT_ERROR:
	case DID_TRANSPORT_DISRUPTED:
		/* the initiator retries; the target does not */
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		break;
	default:
		scst_set_cmd_error(cmd, DISK_SENSE_LU_COMM_FAILURE);
		break;
	}
}

/*
 * SBC-3 §6.6.4: the device's Block Limits page, with MAXIMUM TRANSFER
 * LENGTH and MAXIMUM WRITE SAME LENGTH no larger than what reaches it
 * (disk_parse() refuses more).
 */
static void disk_fix_block_limits(struct scst_cmd *cmd)
{
	u8 page[DISK_VPD_B0_WS_END];
	u32 n;

	if (cmd->cdb[0] != SCST_OP_INQUIRY || !(cmd->cdb[1] & 0x01) ||
	    cmd->cdb[2] != DISK_VPD_BLOCK_LIMITS || !cmd->sg)
		return;
	n = sg_pcopy_to_buffer(cmd->sg, cmd->sg_cnt, page,
			       min_t(u32, sizeof(page), cmd->resp_len), 0);
	if (disk_vpd_b0_limit(page, n,
			      disk_max_transfer(cmd) >> cmd->dev->block_shift))
		sg_pcopy_from_buffer(cmd->sg, cmd->sg_cnt, page, n, 0);
}

/*
 * ALUA (SPC-4 §5.16, Documentation/alua.md): for a device in a device
 * group, the TPGS field of standard INQUIRY data and the target port
 * designators of VPD page 83h are the target's, not the device's, so that
 * the initiator sees the ports and groups the core reports (REPORT TARGET
 * PORT GROUPS) and its ALUA handler attaches. A device in no group
 * answers as it is.
 */
static void disk_fix_alua(struct scst_cmd *cmd)
{
	u32 len = cmd->resp_len, cap, n;
	u16 tpg_id;
	u8 tpgs, *buf;

	if (cmd->cdb[0] != SCST_OP_INQUIRY || !cmd->sg || !len)
		return;
	scst_alua_inq_info(cmd, &tpgs, &tpg_id);
	if (tpgs == SCST_INQ_TPGS_NONE)
		return;
	if (!(cmd->cdb[1] & 0x01)) {
		u8 head[DISK_INQ_TPGS_OFF + 1];

		n = sg_pcopy_to_buffer(cmd->sg, cmd->sg_cnt, head,
				       min_t(u32, len, sizeof(head)), 0);
		if (disk_inq_set_tpgs(head, n, tpgs))
			sg_pcopy_from_buffer(cmd->sg, cmd->sg_cnt, head, n, 0);
		return;
	}
	if (cmd->cdb[2] != DISK_VPD_DEVICE_ID)
		return;
	/*
	 * A contiguous copy, in the completion's context (atomic); a page
	 * of more than PAGE_SIZE bytes is not a Device Identification page
	 * any device returns, and is passed as it is.
	 */
	if (len > PAGE_SIZE) {
		pr_warn_ratelimited("%s: VPD page 83h of %u bytes passed without the ALUA designators\n",
				    cmd->dev->name, len);
		return;
	}
	cap = min_t(u32, cmd->bufflen, len + DISK_VPD83_ADD_MAX);
	buf = kmalloc(cap, GFP_ATOMIC);
	if (!buf) {
		/* the initiator retries; without the designators it would not */
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		return;
	}
	len = sg_pcopy_to_buffer(cmd->sg, cmd->sg_cnt, buf, len, 0);
	n = disk_vpd83_alua(buf, len, cap, cmd->sess->tgt->rel_tgt_id, tpg_id);
	cmd->resp_len = sg_pcopy_from_buffer(cmd->sg, cmd->sg_cnt, buf, n, 0);
	kfree(buf);
}

/* The device's answer, unchanged: status, sense data, residual. */
static void disk_set_result(struct scst_cmd *cmd, struct disk_dev *ddev,
			    struct scsi_cmnd *scmd, blk_status_t sts)
{
	u32 resid = min(scmd->resid_len, cmd->bufflen);
	u8 host = host_byte(scmd->result);
	unsigned int slen;

	if (host != DID_OK) {
		disk_set_host_error(cmd, ddev, host);
		return;
	}
	cmd->status = get_status_byte(scmd);
	if (cmd->status == SAM_STAT_GOOD && sts != BLK_STS_OK) {
		/* failed without reaching the device (queue dying) */
		scst_set_cmd_error(cmd, disk_sdev_gone(ddev) ?
				   SCST_SENSE_LUN_NOT_SUPPORTED :
				   DISK_SENSE_LU_COMM_FAILURE);
		return;
	}
	if (cmd->status == SAM_STAT_CHECK_CONDITION ||
	    cmd->status == SAM_STAT_COMMAND_TERMINATED) {
		/* both formats keep the additional length in byte 7 */
		slen = scmd->sense_len ?: 8 + scmd->sense_buffer[7];
		slen = min_t(unsigned int, slen, sizeof(cmd->sense));
		memcpy(cmd->sense, scmd->sense_buffer, slen);
		cmd->sense_len = slen;
	} else {
		cmd->sense_len = 0;
	}
	if (cmd->data_direction == SCST_DATA_READ)
		cmd->resp_len = cmd->bufflen - resid;
}

static void disk_req_unlink(struct disk_dev *ddev, struct disk_req *dr)
{
	unsigned long flags;

	spin_lock_irqsave(&ddev->lock, flags);
	list_del(&dr->entry);
	if (atomic_dec_and_test(&ddev->nr_inflight))
		wake_up(&ddev->idle_wq);
	spin_unlock_irqrestore(&ddev->lock, flags);
}

/* Any context: the SCSI midlayer's completion (softirq, or the submitter) */
static enum rq_end_io_ret disk_end_io(struct request *rq, blk_status_t sts)
{
	struct disk_req *dr = rq->end_io_data;
	struct scst_cmd *cmd = dr->cmd;
	struct disk_dev *ddev = disk_cmd_ddev(cmd);

	disk_set_result(cmd, ddev, blk_mq_rq_to_pdu(rq), sts);
	if (dr->bounce) {
		if (cmd->data_direction == SCST_DATA_READ && cmd->resp_len)
			disk_bounce_copy(dr, false, cmd->resp_len);
		disk_bounce_free(dr);
	}
	if (cmd->status == SAM_STAT_GOOD) {
		disk_fix_block_limits(cmd);
		disk_fix_alua(cmd);
	}
	disk_req_unlink(ddev, dr);
	kfree(dr);
	scst_cmd_exec_done(cmd);
	return RQ_END_IO_FREE;
}

/* ---------------------------------------------------------------------- */
/* exec                                                                   */

/*
 * The length of the buffer the device will fill or read: an ALLOCATION
 * LENGTH data-in command gets its buffer here (the core leaves it to the
 * handler), of what the initiator offers, within the queue's limits.
 */
static int disk_check_len(struct scst_cmd *cmd, struct disk_dev *ddev)
{
	bool alloc = cmd->cdb_flags & SCST_CDB_ALLOC_LEN;

	/*
	 * A data-in buffer shorter than the CDB's transfer (none at all
	 * included: a READ(10) announced without data-in), which the
	 * device would overrun, or an allocation length larger than the
	 * queue takes
	 */
	if ((!alloc && cmd->bufflen != cmd->cdb_bufflen) ||
	    cmd->bufflen > ddev->max_bytes) {
		scst_set_cmd_error(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB);
		return -EINVAL;
	}
	if (!cmd->bufflen)
		return 0;
	if (!cmd->sg && scst_cmd_alloc_data_buf(cmd, cmd->bufflen)) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		return -ENOMEM;
	}
	return 0;
}

/**
 * disk_exec() - pass a command to the SCSI device
 * @cmd: the command: first where it arrived (exec_inline_first), then, if
 *	the queue had no free request tag, on one of the device's threads
 *
 * Takes a request tag without waiting where the command arrived, which
 * may be a completion context other queues share: a command that finds
 * none (the queue's depth bounds what is in flight) asks for a device
 * thread, which waits for one. Then submits; the command completes in
 * disk_end_io(). Allocations are GFP_NOIO: this is an I/O path.
 *
 * Return: SCST_EXEC_COMPLETED, or SCST_EXEC_NEED_THREAD with nothing done.
 */
enum scst_exec_res disk_exec(struct scst_cmd *cmd)
{
	struct disk_dev *ddev = disk_cmd_ddev(cmd);
	bool write = cmd->data_direction == SCST_DATA_WRITE;
	struct scsi_cmnd *scmd;
	unsigned long flags;
	struct disk_req *dr;
	unsigned int timeout;
	struct request *rq;
	bool reset;
	int ret;

	if (disk_sdev_gone(ddev)) {
		/* hot-removed (SAM-5 5.8.4: the logical unit is gone) */
		scst_set_cmd_error(cmd, SCST_SENSE_LUN_NOT_SUPPORTED);
		goto done;
	}
	if (disk_check_len(cmd, ddev))
		goto done;
	dr = kzalloc(sizeof(*dr), GFP_NOIO);
	if (!dr) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		goto done;
	}
	dr->cmd = cmd;
	rq = scsi_alloc_request(ddev->sdev->request_queue,
				write ? REQ_OP_DRV_OUT : REQ_OP_DRV_IN,
				scst_cmd_may_block(cmd) ? 0 : BLK_MQ_REQ_NOWAIT);
	if (rq == ERR_PTR(-EWOULDBLOCK) && !scst_cmd_may_block(cmd)) {
		/* no free tag (or the queue is frozen): wait on a thread */
		kfree(dr);
		return SCST_EXEC_NEED_THREAD;
	}
	if (IS_ERR(rq)) {
		/* the queue is dying: the device is being removed */
		scst_set_cmd_error(cmd, disk_sdev_gone(ddev) ?
				   SCST_SENSE_LUN_NOT_SUPPORTED :
				   SCST_SENSE_NOT_READY);
		goto free_dr;
	}
	dr->rq = rq;
	scmd = blk_mq_rq_to_pdu(rq);
	/* the command's own length (disk_parse()), not the transport's */
	memcpy(scmd->cmnd, cmd->cdb, cmd->cdb_len);
	scmd->cmd_len = cmd->cdb_len;
	/*
	 * No retries here: the initiator decides. The device's timeout,
	 * or a long one for a format, sanitize, foreground self-test or
	 * microcode download (disk_cdb_timeout()), which would otherwise
	 * be aborted mid-operation.
	 */
	scmd->allowed = 0;
	timeout = disk_cdb_timeout(cmd->cdb, cmd->cdb_len);
	rq->timeout = timeout ? timeout * HZ :
		      ddev->sdev->request_queue->rq_timeout;

	if (cmd->bufflen) {
		ret = disk_map_data(dr, cmd->bufflen, write);
		if (ret) {
			if (ret == -ENOMEM)
				scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
			else
				scst_set_cmd_error(cmd,
						   SCST_SENSE_INVALID_FIELD_IN_CDB);
			goto free_rq;
		}
	}

	rq->end_io = disk_end_io;
	rq->end_io_data = dr;
	spin_lock_irqsave(&ddev->lock, flags);
	list_add_tail(&dr->entry, &ddev->inflight);
	atomic_inc(&ddev->nr_inflight);
	/*
	 * A reset marks the commands aborted before disk_task_mgmt_fn()
	 * takes this lock: either it finds the request on the list, or the
	 * mark is seen here (the core checked it before ->exec(), this
	 * closes the window since). The request, built with its data, is
	 * aborted as soon as it starts.
	 */
	reset = scst_cmd_aborted(cmd);
	dr->reset = reset;
	spin_unlock_irqrestore(&ddev->lock, flags);
	blk_execute_rq_nowait(rq,
			      cmd->queue_type == SCST_CMD_QUEUE_HEAD_OF_QUEUE);
	if (reset)
		schedule_delayed_work(&ddev->abort_work, 0);
	return SCST_EXEC_COMPLETED;

free_rq:
	blk_mq_free_request(rq);
free_dr:
	kfree(dr);
done:
	scst_cmd_exec_done(cmd);
	return SCST_EXEC_COMPLETED;
}

/*
 * Abort in the device each request of a reset that has started and was
 * not aborted yet. blk_abort_request() times the request out now: on a
 * request not started, blk_mq_start_request() would set its deadline
 * again, so those wait for the next look. Return: whether any is left.
 */
static bool disk_abort_reset(struct disk_dev *ddev)
{
	unsigned long flags;
	struct disk_req *dr;
	bool left = false;

	spin_lock_irqsave(&ddev->lock, flags);
	list_for_each_entry(dr, &ddev->inflight, entry) {
		if (!dr->reset || dr->abort_sent)
			continue;
		if (!blk_mq_request_started(dr->rq)) {
			left = true;
			continue;
		}
		blk_abort_request(dr->rq);
		dr->abort_sent = true;
	}
	spin_unlock_irqrestore(&ddev->lock, flags);
	return left;
}

/*
 * A reset's requests that were waiting in the queue (for a tag, or for
 * the device's queue depth) start as the aborted ones end: abort them
 * then, until none is left.
 */
void disk_abort_work(struct work_struct *work)
{
	struct disk_dev *ddev = container_of(to_delayed_work(work),
					     struct disk_dev, abort_work);

	if (disk_abort_reset(ddev))
		schedule_delayed_work(&ddev->abort_work, DISK_ABORT_POLL);
}

/**
 * disk_task_mgmt_fn() - a logical unit reset reached the device
 * @dev: the device
 * @fn: the function; the core calls this for SCST_LUN_RESET only (a
 *	TARGET RESET resets each of its logical units the same way,
 *	scst_clear_dev_task_set()); ABORT TASK, ABORT TASK SET and CLEAR
 *	TASK SET do not reach the handler
 *
 * The core has marked every command of the logical unit aborted and
 * waits for them after this returns: each request in the device is
 * timed out now (blk_abort_request()), and each one still waiting in the
 * queue once it starts (disk_abort_work()), so that the reset does not
 * wait for a stuck request's timeout (SAM-5 6.3.3: a logical unit reset
 * aborts all tasks). The SCSI midlayer's timeout handling runs as for a
 * real timeout: the host driver's eh_abort_handler, and when that fails
 * the SCSI error handler escalates as it would for any timed-out command
 * (device, target, bus, host reset of the Linux host), which other users
 * of the device notice. The device is not reset by us.
 */
void disk_task_mgmt_fn(struct scst_device *dev, enum scst_tmf fn)
{
	struct disk_dev *ddev = dev->dh_priv;
	unsigned long flags;
	struct disk_req *dr;

	if (fn != SCST_LUN_RESET)
		return;
	spin_lock_irqsave(&ddev->lock, flags);
	list_for_each_entry(dr, &ddev->inflight, entry)
		dr->reset = true;
	spin_unlock_irqrestore(&ddev->lock, flags);
	if (disk_abort_reset(ddev))
		schedule_delayed_work(&ddev->abort_work, DISK_ABORT_POLL);
}

/* ---------------------------------------------------------------------- */
/* add_device                                                             */

/* One synchronous READ CAPACITY(10) (SBC-3 §5.15); true when GOOD. */
static bool disk_rc10(struct disk_dev *ddev, u8 *buf)
{
	struct scsi_cmnd *scmd;
	struct request *rq;
	bool ok = false;

	rq = scsi_alloc_request(ddev->sdev->request_queue, REQ_OP_DRV_IN, 0);
	if (IS_ERR(rq))
		return false;
	scmd = blk_mq_rq_to_pdu(rq);
	memset(scmd->cmnd, 0, 10);
	scmd->cmnd[0] = SCST_OP_READ_CAPACITY_10;
	scmd->cmd_len = 10;
	scmd->allowed = 0;
	rq->timeout = ddev->sdev->request_queue->rq_timeout;
	if (!blk_rq_map_kern(rq->q, rq, buf, 8, GFP_KERNEL)) {
		blk_execute_rq(rq, false);
		ok = scmd->result == 0 && scmd->resid_len == 0;
	}
	blk_mq_free_request(rq);
	return ok;
}

/**
 * disk_read_capacity() - the logical block length of the device
 * @ddev: the device being added
 *
 * From the device itself, not sd (which need not be bound): the core sizes
 * READ and WRITE buffers with it.
 *
 * Return: 0, -EIO (no answer) or -EINVAL (a block length we do not take).
 */
int disk_read_capacity(struct disk_dev *ddev)
{
	u8 *buf;
	int i, ret = -EIO;
	u32 bs;

	buf = kzalloc(8, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < DISK_RC_TRIES; i++) {
		if (!disk_rc10(ddev, buf))
			continue;
		bs = get_unaligned_be32(buf + 4);
		if (bs < 512 || bs > 65536 || !is_power_of_2(bs)) {
			pr_err("add_device %s: logical block length %u; dev_disk takes powers of 2 from 512 to 65536\n",
			       ddev->name, bs);
			ret = -EINVAL;
			break;
		}
		ddev->block_size = bs;
		ret = 0;
		break;
	}
	if (ret == -EIO)
		pr_err("add_device %s: READ CAPACITY failed; is the device ready?\n",
		       ddev->name);
	kfree(buf);
	return ret;
}
