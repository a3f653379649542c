// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_cmd.c - the life of a SCSI command in the core.
 *
 *   INIT           LUN lookup, CDB parse, reservations, unit attention,
 *                  ALUA (scst_admit_decide() orders what is reported)
 *   PREPARE_SPACE  data buffer; for writes ->rdy_to_xfer(), then DATA_WAIT
 *   TASK_SET       SAM-5 8.6 task attributes (SIMPLE, ORDERED, HEAD OF
 *                  QUEUE) in the device's task set
 *   EXEC           reservations again if they changed since INIT; the
 *                  core's own commands, or the handler's ->exec(), on
 *                  this CPU or, for handlers that sleep, a device thread
 *   XMIT           ->xmit_response(); the driver ends with
 *                  scst_tgt_cmd_done(), which frees the command
 *
 * The state machine runs in process context: on the caller's thread when
 * the driver says it may (SCST_CONTEXT_DIRECT), otherwise on a worker of
 * the CPU that received the command. It takes no lock shared by all CPUs:
 * the LUN map is read under RCU, the session and device locks are per
 * nexus and per device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/scatterlist.h>
#include <linux/error-injection.h>

#include "scst_priv.h"

static struct kmem_cache *scst_cmd_cache;
/* ->exec() of the commands that may sleep for long, per CPU */
static struct workqueue_struct *scst_exec_wq;

static void scst_free_data_buf(struct scst_cmd *cmd);

int scst_cmd_init(void)
{
	scst_cmd_cache = KMEM_CACHE(scst_cmd, SLAB_HWCACHE_ALIGN);
	if (!scst_cmd_cache)
		return -ENOMEM;
	scst_exec_wq = alloc_workqueue("scst_exec", WQ_MEM_RECLAIM, 0);
	if (!scst_exec_wq) {
		kmem_cache_destroy(scst_cmd_cache);
		return -ENOMEM;
	}
	return 0;
}

void scst_cmd_exit(void)
{
	destroy_workqueue(scst_exec_wq);
	kmem_cache_destroy(scst_cmd_cache);
}

/* ---------------------------------------------------------------------- */
/* errors and data helpers for handlers                                   */

void scst_set_sense(struct scst_cmd *cmd, u32 sense_code)
{
	bool desc = cmd->dev && cmd->dev->d_sense;
	int len;

	len = scst_build_sense_code(cmd->sense, sizeof(cmd->sense), desc,
				    sense_code);
	cmd->sense_len = len > 0 ? len : 0;
}

/**
 * scst_set_cmd_error() - end a command with CHECK CONDITION
 * @cmd: the command
 * @sense_code: SCST_SENSE_* code (sense key, ASC, ASCQ)
 */
void scst_set_cmd_error(struct scst_cmd *cmd, u32 sense_code)
{
	cmd->status = SCST_STATUS_CHECK_CONDITION;
	scst_set_sense(cmd, sense_code);
	cmd->resp_len = 0;
}
EXPORT_SYMBOL_GPL(scst_set_cmd_error);

/**
 * scst_set_cmd_error_field() - CHECK CONDITION with a field pointer
 * @cmd: the command
 * @sense_code: SCST_SENSE_* code, normally INVALID FIELD IN CDB or
 *	INVALID FIELD IN PARAMETER LIST
 * @in_cdb: the field is in the CDB (C/D bit), not in the parameter data
 * @byte: byte offset of the field
 * @bit: bit of the field, or -1 (SPC-4 4.5.2.4.2)
 */
void scst_set_cmd_error_field(struct scst_cmd *cmd, u32 sense_code,
			      bool in_cdb, u16 byte, int bit)
{
	scst_set_cmd_error(cmd, sense_code);
	scst_sense_set_field_pointer(cmd->sense, sizeof(cmd->sense), in_cdb,
				     byte, bit);
	cmd->sense_len = scst_sense_len(cmd->sense, sizeof(cmd->sense));
}
EXPORT_SYMBOL_GPL(scst_set_cmd_error_field);

/**
 * scst_set_cmd_error_status() - end a command with a status, no sense
 * @cmd: the command
 * @status: SAM status, e.g. RESERVATION CONFLICT or BUSY
 */
void scst_set_cmd_error_status(struct scst_cmd *cmd, u8 status)
{
	cmd->status = status;
	cmd->sense_len = 0;
	cmd->resp_len = 0;
}
EXPORT_SYMBOL_GPL(scst_set_cmd_error_status);

/**
 * scst_set_cmd_error_from() - end a command as a decoder said
 * @cmd: the command
 * @err: sense code, field pointer and INFORMATION from a pure-logic
 *	decoder or builder
 */
void scst_set_cmd_error_from(struct scst_cmd *cmd,
			     const struct scst_cdb_err *err)
{
	if (err->has_field)
		scst_set_cmd_error_field(cmd, err->sense_code, err->in_cdb,
					 err->byte, err->bit);
	else
		scst_set_cmd_error(cmd, err->sense_code);
	if (err->has_info) {
		scst_sense_set_information(cmd->sense, sizeof(cmd->sense),
					   err->info);
		cmd->sense_len = scst_sense_len(cmd->sense, sizeof(cmd->sense));
	}
}
EXPORT_SYMBOL_GPL(scst_set_cmd_error_from);

/**
 * scst_set_resp_len() - how much data-in the command produced
 * @cmd: the command
 * @len: bytes; capped at the buffer length
 */
void scst_set_resp_len(struct scst_cmd *cmd, u32 len)
{
	cmd->resp_len = min(len, cmd->bufflen);
}
EXPORT_SYMBOL_GPL(scst_set_resp_len);

/**
 * scst_copy_to_sg() - copy emulated data-in into the command's buffer
 * @cmd: the command
 * @buf: the data
 * @len: its length; what does not fit in the buffer (the allocation
 *	length) is dropped, as SPC-4 4.2.5.6 requires
 *
 * Also sets the response length. A command with an ALLOCATION LENGTH has
 * no buffer yet: it gets one of what is copied (BUSY without memory).
 *
 * Return: bytes copied.
 */
u32 scst_copy_to_sg(struct scst_cmd *cmd, const void *buf, u32 len)
{
	u32 n = min(len, cmd->bufflen);

	if (n && !cmd->sg && scst_cmd_alloc_data_buf(cmd, n)) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		return 0;
	}
	if (n && cmd->sg)
		n = sg_copy_from_buffer(cmd->sg, cmd->sg_cnt, buf, n);
	else
		n = 0;
	cmd->resp_len = n;
	return n;
}
EXPORT_SYMBOL_GPL(scst_copy_to_sg);

/* Whether @cmd's buffer is written before it is read (see below). */
static bool scst_buf_may_reuse(const struct scst_cmd *cmd)
{
	switch (cmd->data_direction) {
	case SCST_DATA_WRITE:
		return true;
	case SCST_DATA_READ:
		return (cmd->cdb_flags & SCST_CDB_BLOCK_XFER) && cmd->dev &&
			cmd->dev->handler->fills_data_in;
	default:
		return false;
	}
}

/**
 * scst_cmd_alloc_data_buf() - give a command its data buffer
 * @cmd: the command
 * @len: bytes, at most cmd->bufflen (the length the CDB and the transport
 *	allow); the buffer length becomes @len
 *
 * The buffer is made of order-0 pages in a chained scatterlist whose
 * chunks are a page each, so that no transfer size reaches a high-order
 * allocation. Nothing is done when the command has a buffer already. A
 * buffer that is written before anyone reads it may get pages of earlier
 * commands (scst_page_stash.c) rather than zeroed ones: data-out, which
 * the transport overwrites before the command executes, and a medium
 * read's data-in on a device whose handler fills what it returns
 * (fills_data_in: vdisk_fileio, vdisk_nullio).
 *
 * Return: 0, or -ENOMEM (nothing allocated).
 */
int scst_cmd_alloc_data_buf(struct scst_cmd *cmd, u32 len)
{
	bool reuse = scst_buf_may_reuse(cmd);
	unsigned int nents, i;
	struct scatterlist *sg;
	struct page *page;

	if (cmd->sg || !len)
		return 0;
	if (WARN_ON_ONCE(len > cmd->bufflen))
		return -EINVAL;
	nents = DIV_ROUND_UP(len, PAGE_SIZE);
	if (sg_alloc_table(&cmd->sg_table, nents, GFP_KERNEL | __GFP_NOWARN))
		return -ENOMEM;
	for_each_sg(cmd->sg_table.sgl, sg, nents, i) {
		page = reuse ? scst_stash_get_page(GFP_KERNEL | __GFP_NOWARN) :
			       alloc_page(GFP_KERNEL | __GFP_NOWARN);
		if (!page)
			goto free_pages;
		sg_set_page(sg, page, min_t(u32, len - i * PAGE_SIZE, PAGE_SIZE),
			    0);
	}
	cmd->sg = cmd->sg_table.sgl;
	cmd->sg_cnt = nents;
	cmd->bufflen = len;
	return 0;

free_pages:
	scst_free_data_buf(cmd);
	return -ENOMEM;
}
EXPORT_SYMBOL_GPL(scst_cmd_alloc_data_buf);
ALLOW_ERROR_INJECTION(scst_cmd_alloc_data_buf, ERRNO);

/* Free what scst_cmd_alloc_data_buf() allocated; unfilled entries are 0. */
static void scst_free_data_buf(struct scst_cmd *cmd)
{
	struct scatterlist *sg;
	unsigned int i;

	if (!cmd->sg_table.sgl)
		return;
	for_each_sg(cmd->sg_table.sgl, sg, cmd->sg_table.orig_nents, i)
		if (sg_page(sg))
			scst_stash_put_page(sg_page(sg));
	sg_free_table(&cmd->sg_table);
	cmd->sg_table.sgl = NULL;
	if (cmd->sg != cmd->tgt_sg)
		cmd->sg = NULL;
}

/*
 * max_transfer_kb: the default of devices/<dev>/max_transfer_kb, read when
 * a device is registered. 8 MiB is what Linux initiators never exceed in
 * practice (their max_sectors is smaller) and keeps one command's buffer
 * at 2048 pages.
 */
unsigned int scst_max_transfer_kb = SCST_MAX_XFER_KB_DEFAULT;

static int scst_max_transfer_kb_set(const char *val,
				    const struct kernel_param *kp)
{
	unsigned int kb;

	if (kstrtouint(val, 0, &kb) || kb < SCST_MAX_XFER_KB_MIN ||
	    kb > SCST_MAX_XFER_KB_MAX) {
		pr_err("max_transfer_kb: '%s' is not a number of KiB in %u-%u\n",
		       val, SCST_MAX_XFER_KB_MIN, SCST_MAX_XFER_KB_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(scst_max_transfer_kb, kb);
	return 0;
}

static const struct kernel_param_ops scst_max_transfer_kb_ops = {
	.set = scst_max_transfer_kb_set,
	.get = param_get_uint,
};
module_param_cb(max_transfer_kb, &scst_max_transfer_kb_ops,
		&scst_max_transfer_kb, 0644);
MODULE_PARM_DESC(max_transfer_kb,
		 "Default largest data buffer of one command, in KiB, for devices registered from now on (64-65536, default 8192)");

/**
 * scst_cmd_max_transfer() - the largest data buffer @cmd may ask for
 * @cmd: the command, its device (if any) set
 *
 * The device's max_transfer_kb, or the module's for a command without a
 * logical unit, cut to the target driver's own limit and rounded down to
 * whole logical blocks (one block at least). The Block Limits VPD page
 * reports it (SBC-3 §6.5.3), so initiators never exceed it.
 *
 * Return: bytes.
 */
u32 scst_cmd_max_transfer(const struct scst_cmd *cmd)
{
	const struct scst_device *dev = cmd->dev;
	u32 drv = cmd->sess->tgt->tgtt->max_transfer_size;
	u32 max;

	max = (dev ? READ_ONCE(dev->max_transfer_kb) :
	       READ_ONCE(scst_max_transfer_kb)) << 10;
	if (drv && drv < max)
		max = drv;
	if (dev)
		max = max_t(u32, round_down(max, dev->block_size),
			    dev->block_size);
	return max;
}
EXPORT_SYMBOL_GPL(scst_cmd_max_transfer);

/**
 * scst_copy_from_sg() - copy the command's data-out into a buffer
 * @cmd: the command
 * @buf: the destination
 * @len: its size
 *
 * Return: bytes copied.
 */
u32 scst_copy_from_sg(struct scst_cmd *cmd, void *buf, u32 len)
{
	u32 n = min(len, cmd->bufflen);

	if (!n || !cmd->sg)
		return 0;
	return sg_copy_to_buffer(cmd->sg, cmd->sg_cnt, buf, n);
}
EXPORT_SYMBOL_GPL(scst_copy_from_sg);

/**
 * scst_cmd_aborted() - whether a task management function aborted @cmd
 * @cmd: the command
 *
 * A driver seeing true in ->xmit_response() need not send a response (the
 * initiator aborted the command), but must still call scst_tgt_cmd_done().
 */
bool scst_cmd_aborted(const struct scst_cmd *cmd)
{
	return scst_cmd_is_aborted(cmd);
}
EXPORT_SYMBOL_GPL(scst_cmd_aborted);

/**
 * scst_cmd_resid() - the residual count of a finished command
 * @cmd: the command
 *
 * Return: positive: underflow, the bytes of the expected transfer that did
 * not move; negative: overflow, the bytes the CDB asked for beyond the
 * expected transfer (SAM-5 5.4.1, SRP r16a 6.9 DIUNDER/DIOVER).
 */
s64 scst_cmd_resid(const struct scst_cmd *cmd)
{
	return scst_xfer_resid(cmd->data_direction, cmd->cdb_bufflen,
			       cmd->expected_len, cmd->bufflen, cmd->resp_len,
			       cmd->status);
}
EXPORT_SYMBOL_GPL(scst_cmd_resid);

/* ---------------------------------------------------------------------- */
/* receiving                                                              */

/**
 * scst_rx_cmd() - a SCSI command arrived
 * @sess: the session (I_T nexus)
 * @lun: the 8-byte LUN field (SAM-5 4.7); shorter fields are zero-padded
 * @lun_len: its length
 * @cdb: the CDB
 * @cdb_len: its length; more than SCST_MAX_CDB_SIZE fails the command
 * @gfp: allocation flags for the caller's context
 *
 * Return: the command, or NULL without memory (the driver answers BUSY or
 * TASK SET FULL itself).
 */
struct scst_cmd *scst_rx_cmd(struct scst_session *sess, const u8 *lun,
			     unsigned int lun_len, const u8 *cdb,
			     unsigned int cdb_len, gfp_t gfp)
{
	unsigned long flags;
	struct scst_cmd *cmd;
	u8 lun8[8] = { };

	cmd = kmem_cache_zalloc(scst_cmd_cache, gfp);
	if (!cmd)
		return NULL;
	cmd->sess = sess;
	cmd->state = SCST_CMD_STATE_INIT;
	cmd->status = SCST_STATUS_GOOD;
	memcpy(lun8, lun, min_t(unsigned int, lun_len, sizeof(lun8)));
	if (lun_len > sizeof(lun8) || scst_lun_decode(lun8, 8, &cmd->lun))
		cmd->lun = U64_MAX;
	cmd->cdb_len = cdb_len;
	if (cdb_len && cdb_len <= SCST_MAX_CDB_SIZE)
		memcpy(cmd->cdb, cdb, cdb_len);
	INIT_WORK(&cmd->work, scst_cmd_work_fn);
	cmd->backlog_cpu = -1;
	cmd->rx_jiffies = jiffies;
	scst_lat_stamp(cmd, SCST_LAT_TS_RX);

	spin_lock_irqsave(&sess->sess_lock, flags);
	list_add_tail(&cmd->sess_entry, &sess->cmd_list);
	if (READ_ONCE(sess->shutting_down))
		set_bit(SCST_CMD_ABORTED, &cmd->flags);
	spin_unlock_irqrestore(&sess->sess_lock, flags);
	atomic_inc(&sess->active_cmds);
	atomic64_inc(&sess->commands);
	return cmd;
}
EXPORT_SYMBOL_GPL(scst_rx_cmd);

void scst_cmd_work_fn(struct work_struct *work)
{
	scst_dispatch_run(container_of(work, struct scst_cmd, work));
}

/**
 * scst_cmd_init_done() - hand a received command to the core
 * @cmd: the command from scst_rx_cmd(), with tag and expected transfer set
 * @ctx: the caller's context
 */
void scst_cmd_init_done(struct scst_cmd *cmd, enum scst_exec_context ctx)
{
	cmd->cpu = scst_dispatch_pick_cpu(cmd->sess, raw_smp_processor_id(),
					  ctx == SCST_CONTEXT_DIRECT);
	scst_continue(cmd, ctx);
}
EXPORT_SYMBOL_GPL(scst_cmd_init_done);

/**
 * scst_rx_data() - the data-out buffer of a command has arrived
 * @cmd: the command
 * @status: 0, or a negative errno when the transfer failed (the command
 *	then ends with ABORTED COMMAND, without executing)
 * @ctx: the caller's context
 */
void scst_rx_data(struct scst_cmd *cmd, int status,
		  enum scst_exec_context ctx)
{
	if (status) {
		/* SPC-4: DATA PHASE ERROR */
		scst_rx_data_error(cmd, SCST_SENSE_CODE(SCST_SK_ABORTED_COMMAND,
							0x4b, 0x00), ctx);
		return;
	}
	cmd->state = SCST_CMD_STATE_TASK_SET;
	scst_continue(cmd, ctx);
}
EXPORT_SYMBOL_GPL(scst_rx_data);

/**
 * scst_rx_data_error() - the data-out buffer of a command cannot be had
 * @cmd: the command; it ends with CHECK CONDITION, without executing
 * @sense_code: SCST_SENSE_* code the transport chose (e.g. SRP's INVALID
 *	FIELD IN COMMAND INFORMATION UNIT for a descriptor it cannot use)
 * @ctx: the caller's context
 */
void scst_rx_data_error(struct scst_cmd *cmd, u32 sense_code,
			enum scst_exec_context ctx)
{
	scst_set_cmd_error(cmd, sense_code);
	cmd->state = SCST_CMD_STATE_XMIT;
	scst_continue(cmd, ctx);
}
EXPORT_SYMBOL_GPL(scst_rx_data_error);

/* ---------------------------------------------------------------------- */
/* INIT: LUN, parse, reservations, unit attentions, ALUA                  */

/* SPC-4 5.14 / SAM-5 5.14: these report rather than fail on a UA. */
/**
 * scst_cdb_parse() - decode the CDB of an SPC/SBC command
 * @cmd: the command; its device is set
 *
 * Sets data_direction, bufflen, lba, nblocks, cdb_flags, fua and dpo,
 * and cdb_facts even for a CDB it refuses;
 * refuses transfers beyond scst_cmd_max_transfer() (INVALID FIELD IN CDB,
 * before any buffer exists), writes to read-only LUNs (DATA PROTECT) and
 * LBAs past the end of the device (LBA OUT OF RANGE).
 *
 * Return: 0, or -EINVAL with the command's sense set.
 */
int scst_cdb_parse(struct scst_cmd *cmd)
{
	struct scst_device *dev = cmd->dev;
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	int ret;

	ret = scst_cdb_decode(cmd->cdb, cmd->cdb_len,
			      dev ? dev->handler->type : 0,
			      dev ? dev->block_shift : 9, &info, &err);
	/* a refused CDB still has its unit attention and ALUA class */
	cmd->cdb_facts = info.facts;
	cmd->op_id = info.op_id;
	if (ret)
		goto bad;
	cmd->data_direction = info.direction;
	cmd->dir_known = true;
	cmd->bufflen = info.bufflen;
	cmd->lba = info.lba;
	cmd->nblocks = info.nblocks;
	cmd->cdb_flags = info.flags;
	cmd->fua = info.fua;
	cmd->dpo = info.dpo;
	if (!dev)
		return 0;

	if (scst_cdb_check_xfer_limit(&info, scst_cmd_max_transfer(cmd),
				      dev->block_shift, &err)) {
		pr_warn_ratelimited("%s: %s of %llu blocks (%u bytes) exceeds the maximum transfer of %u bytes of %s\n",
				    cmd->sess->sess_name, info.name,
				    info.nblocks, info.bufflen,
				    scst_cmd_max_transfer(cmd), dev->name);
		goto bad;
	}
	if ((info.flags & SCST_CDB_MEDIUM_WRITE) && scst_cmd_read_only(cmd)) {
		scst_set_cmd_error(cmd, SCST_SENSE_WRITE_PROTECTED);
		return -EINVAL;
	}
	if ((info.flags & SCST_CDB_LBA_CHECK) &&
	    scst_cdb_check_lba(&info, dev->nblocks, &err))
		goto bad;
	return 0;

bad:
	scst_set_cmd_error_from(cmd, &err);
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(scst_cdb_parse);

/* Fit the buffer to what the transport announced: scst_xfer_fit(). */
static int scst_check_expected(struct scst_cmd *cmd)
{
	int ret;

	cmd->cdb_bufflen = cmd->bufflen;
	ret = scst_xfer_fit(cmd->data_direction, cmd->cdb_bufflen,
			    cmd->expected_dir, cmd->expected_len,
			    cmd->cdb_flags & SCST_CDB_EXACT_OUT, &cmd->bufflen);
	if (ret == -EINVAL) {
		pr_warn_ratelimited("%s: opcode 0x%02x needs %u bytes of data-out, the initiator sends %u\n",
				    cmd->sess->sess_name, cmd->cdb[0],
				    cmd->cdb_bufflen, cmd->expected_len);
		scst_set_cmd_error(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB);
	} else if (ret) {
		scst_set_cmd_error(cmd, SCST_SENSE_INVALID_OPCODE);
	}
	return ret ? -EINVAL : 0;
}

/* Decode the CDB; 0, or -EINVAL with the command's sense set. */
static int scst_init_parse(struct scst_cmd *cmd)
{
	int ret;

	if (cmd->dev->handler->parse)
		ret = cmd->dev->handler->parse(cmd);
	else
		ret = scst_cdb_parse(cmd);
	if (ret)
		return -EINVAL;
	/* a handler's own ->parse() is held to the same limit */
	if (!(cmd->cdb_flags & SCST_CDB_ALLOC_LEN) &&
	    cmd->bufflen > scst_cmd_max_transfer(cmd)) {
		scst_set_cmd_error(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB);
		return -EINVAL;
	}
	return scst_check_expected(cmd);
}

/*
 * A unit attention or the ALUA state ends @cmd before its CDB counts:
 * nothing of what the parse decoded (direction, lengths) is reported,
 * as when these were checked before the parse.
 */
static void scst_init_unparse(struct scst_cmd *cmd)
{
	cmd->data_direction = SCST_DATA_NONE;
	cmd->dir_known = false;
	cmd->bufflen = 0;
	cmd->cdb_bufflen = 0;
	cmd->lba = 0;
	cmd->nblocks = 0;
	cmd->cdb_flags = 0;
	cmd->cdb_facts = 0;
	cmd->op_id = SCST_OPID_NONE;
	cmd->fua = false;
	cmd->dpo = false;
}

/* Return the next state. */
static int scst_init_cmd(struct scst_cmd *cmd)
{
	struct scst_admit_conds c = { };
	struct scst_tgt_dev *tgt_dev;
	u32 ua, alua_sense = 0;
	enum scst_admit verdict;

	if (!cmd->cdb_len || cmd->cdb_len > SCST_MAX_CDB_SIZE) {
		pr_warn_ratelimited("%s: CDB length %u out of range\n",
				    cmd->sess->sess_name, cmd->cdb_len);
		scst_set_cmd_error(cmd, SCST_SENSE_INVALID_FIELD_IN_CDB);
		cmd->cdb_len = 0;
		return SCST_CMD_STATE_XMIT;
	}

	tgt_dev = cmd->lun == U64_MAX ? NULL :
		  scst_lookup_tgt_dev(cmd->sess, cmd->lun);
	if (!tgt_dev) {
		/* SPC-4 6.6.2, 6.33, 6.39: still answered without a LU */
		if (scst_cdb_parse(cmd) == 0 && !scst_check_expected(cmd) &&
		    (cmd->cdb_flags & SCST_CDB_NO_LUN_OK))
			return SCST_CMD_STATE_PREPARE_SPACE;
		if (cmd->status == SCST_STATUS_GOOD)
			scst_set_cmd_error(cmd, SCST_SENSE_LUN_NOT_SUPPORTED);
		return SCST_CMD_STATE_XMIT;
	}
	cmd->tgt_dev = tgt_dev;
	cmd->dev = tgt_dev->dev;

	/*
	 * Every condition first, then the one to report
	 * (scst_admit_decide()): a command that meets a reservation gets
	 * RESERVATION CONFLICT and leaves a pending unit attention for the
	 * next command (SAM-5 5.3.2), so the reservation check, which needs
	 * the decoded command, comes before a unit attention is taken.
	 */
	c.cdb_err = scst_init_parse(cmd) != 0;
	/*
	 * SPC-2 reservation (SPC-2 §5.5.1), then persistent reservations
	 * (SPC-4 §5.9.1; one bool read while there are none).
	 */
	if (!c.cdb_err)
		c.res = scst_res_check(cmd);
	c.ua = !(cmd->cdb_facts & SCST_OPF_UA_EXEMPT) &&
	       READ_ONCE(tgt_dev->ua_pending);
	/* SPC-4 5.16.2.4: only devices in an ALUA device group pay for it */
	if (unlikely(READ_ONCE(cmd->dev->alua_dg))) {
		alua_sense = scst_alua_check_cmd(cmd);
		c.alua = alua_sense != 0;
	}

	verdict = scst_admit_decide(&c);
	if (verdict == SCST_ADMIT_UA) {
		if (scst_tgt_dev_pop_ua(tgt_dev, &ua)) {
			scst_init_unparse(cmd);
			scst_set_cmd_error(cmd, ua);
			return SCST_CMD_STATE_XMIT;
		}
		/* taken meanwhile (REQUEST SENSE): the next condition */
		c.ua = false;
		verdict = scst_admit_decide(&c);
	}
	switch (verdict) {
	case SCST_ADMIT_GO:
		return SCST_CMD_STATE_PREPARE_SPACE;
	case SCST_ADMIT_ALUA:
		scst_init_unparse(cmd);
		scst_set_cmd_error(cmd, alua_sense);
		break;
	case SCST_ADMIT_CONFLICT:
		scst_set_cmd_error_status(cmd, SCST_STATUS_RESERVATION_CONFLICT);
		break;
	case SCST_ADMIT_NOT_READY:
		scst_set_cmd_error(cmd, SCST_SENSE_NOT_READY_MANUAL);
		break;
	default:
		/* SCST_ADMIT_CDB_ERR: the sense is set */
		break;
	}
	return SCST_CMD_STATE_XMIT;
}

/*
 * Does the driver's buffer meet what the backing store needs of memory
 * (scst_device.dma_align_mask)? SRP's immediate data, for one, sits at
 * 512 bytes in a receive buffer: a block device whose queue asks for
 * more fails such a bio, and direct I/O refuses it (-EINVAL).
 */
static bool scst_tgt_sg_fits(const struct scst_cmd *cmd)
{
	unsigned int mask;
	struct scatterlist *sg;
	int i;

	mask = cmd->dev ? READ_ONCE(cmd->dev->dma_align_mask) : 0;
	if (!mask)
		return true;
	for_each_sg(cmd->tgt_sg, sg, cmd->tgt_sg_cnt, i)
		if ((sg->offset | sg->length) & mask)
			return false;
	return true;
}

/*
 * The data buffer: the driver's own when it offered one of the right
 * length that the device can take; none yet for data-in with an
 * ALLOCATION LENGTH, which gets what the command builds
 * (scst_copy_to_sg()), not what the initiator offers (up to 4 GiB);
 * otherwise bufflen, which scst_cdb_parse() held to the maximum transfer.
 */
static int scst_prepare_space(struct scst_cmd *cmd)
{
	if (!cmd->bufflen)
		return 0;
	if (cmd->tgt_sg && cmd->bufflen == cmd->expected_len &&
	    cmd->cdb_bufflen == cmd->bufflen && scst_tgt_sg_fits(cmd)) {
		cmd->sg = cmd->tgt_sg;
		cmd->sg_cnt = cmd->tgt_sg_cnt;
		return 0;
	}
	if ((cmd->cdb_flags & SCST_CDB_ALLOC_LEN) &&
	    cmd->data_direction == SCST_DATA_READ)
		return 0;
	if (scst_cmd_alloc_data_buf(cmd, cmd->bufflen)) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		return -ENOMEM;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* TASK_SET: SAM-5 8.6 task attributes, one task set per device (TST 000) */
/* (the rules: scst_task_set.c)                                           */

static void scst_task_set_enter(struct scst_device *dev, struct scst_cmd *cmd)
{
	/* what is counted in is counted out, whatever queue_type says later */
	cmd->counted_type = cmd->queue_type;
	scst_task_set_start(&dev->task_set, cmd->counted_type);
	cmd->counted_on_dev = true;
}

/* Return true when @cmd may execute now; otherwise it waits on the device. */
static bool scst_task_set_admit(struct scst_cmd *cmd)
{
	unsigned long flags;
	struct scst_device *dev = cmd->dev;
	bool run;

	if (!dev)
		return true;
	spin_lock_irqsave(&dev->dev_lock, flags);
	run = scst_task_set_may_start(&dev->task_set, cmd->queue_type,
				      !list_empty(&dev->blocked_cmds));
	if (run)
		scst_task_set_enter(dev, cmd);
	else
		list_add_tail(&cmd->queue_entry, &dev->blocked_cmds);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	return run;
}

/* @cmd finished executing: admit what waited for it. */
void scst_dev_task_set_done(struct scst_cmd *cmd)
{
	unsigned long flags;
	struct scst_device *dev = cmd->dev;
	struct scst_cmd *next;
	LIST_HEAD(ready);

	if (!cmd->counted_on_dev)
		return;
	spin_lock_irqsave(&dev->dev_lock, flags);
	scst_task_set_end(&dev->task_set, cmd->counted_type);
	cmd->counted_on_dev = false;
	while (!list_empty(&dev->blocked_cmds)) {
		next = list_first_entry(&dev->blocked_cmds, struct scst_cmd,
					queue_entry);
		if (!scst_task_set_may_start(&dev->task_set, next->queue_type,
					     false))
			break;
		list_move_tail(&next->queue_entry, &ready);
		scst_task_set_enter(dev, next);
	}
	spin_unlock_irqrestore(&dev->dev_lock, flags);

	while (!list_empty(&ready)) {
		next = list_first_entry(&ready, struct scst_cmd, queue_entry);
		list_del_init(&next->queue_entry);
		next->state = SCST_CMD_STATE_EXEC;
		scst_dispatch_queue(next);
	}
}

/* ---------------------------------------------------------------------- */
/* EXEC and completion                                                    */

/* Both the executor and the completion hold a reference: the last goes on. */
static bool scst_exec_put(struct scst_cmd *cmd)
{
	return atomic_dec_and_test(&cmd->exec_refs);
}

/* The response goes to the driver: XMIT_WAIT until scst_tgt_cmd_done(). */
static void scst_xmit(struct scst_cmd *cmd)
{
	cmd->state = SCST_CMD_STATE_XMIT_WAIT;
	cmd->sess->tgt->tgtt->xmit_response(cmd);
}

/*
 * The completion tail of an executed command, run once by whichever of
 * the executor and the completion drops the last exec_refs: the task set
 * lets the next command in, then the response goes out.
 */
static void scst_exec_finish(struct scst_cmd *cmd)
{
	scst_lat_stamp(cmd, SCST_LAT_TS_DONE);
	scst_dev_task_set_done(cmd);
	scst_xmit(cmd);
}

/**
 * scst_cmd_exec_done() - a handler finished executing a command
 * @cmd: the command, with its status, sense and response length set
 *
 * Any context, also from ->exec() itself.
 */
void scst_cmd_exec_done(struct scst_cmd *cmd)
{
	if (!scst_exec_put(cmd))
		return;	/* ->exec() has not returned yet; it goes on */
	scst_exec_finish(cmd);
}
EXPORT_SYMBOL_GPL(scst_cmd_exec_done);

/*
 * A reservation changed since @cmd was admitted: check it again, so that
 * a command that waited (for its data-out, in the task set, behind a busy
 * device thread) does not run after another nexus's RESERVE, PREEMPT or
 * CLEAR that it conflicts with (SPC-4 §5.9.1). Costs one atomic read per
 * command while nothing changes. Return true when @cmd ends here.
 */
static bool scst_exec_res_refused(struct scst_cmd *cmd)
{
	switch (scst_res_check(cmd)) {
	case SCST_RES_CONFLICT:
		scst_set_cmd_error_status(cmd, SCST_STATUS_RESERVATION_CONFLICT);
		return true;
	case SCST_RES_NOT_READY:
		scst_set_cmd_error(cmd, SCST_SENSE_NOT_READY_MANUAL);
		return true;
	default:
		return false;
	}
}

/*
 * Run ->exec() (or the core's emulation) on the current thread. A handler
 * answering SCST_EXEC_NEED_THREAD gets the command again on scst_exec_wq,
 * where it may sleep: the fast path (often an RDMA CQ worker that other
 * queues share) never waits for synchronous I/O or another command. So
 * does a command the core emulates with work that sleeps (PERSISTENT
 * RESERVE OUT), whatever the handler, until it runs there. A handler
 * with exec_inline_first gets it again on the device's own threads.
 */
void scst_do_exec(struct scst_cmd *cmd)
{
	const struct scst_dev_type *dt = cmd->dev->handler;
	enum scst_exec_res res;
	bool requeue;

	scst_lat_stamp(cmd, SCST_LAT_TS_EXEC);
	atomic_set(&cmd->exec_refs, 2);
	if (dt->exec_may_sleep && !dt->exec_inline_first)
		cmd->may_block = true;
	if (scst_cmd_is_aborted(cmd)) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_TASK_ABORTED);
		scst_cmd_exec_done(cmd);
	} else if (unlikely(scst_res_changed_since(cmd)) &&
		   scst_exec_res_refused(cmd)) {
		scst_cmd_exec_done(cmd);
	} else {
		res = scst_emulate_cmd(cmd);
		if (res == SCST_EXEC_NOT_HANDLED) {
			res = dt->exec(cmd);
			requeue = res == SCST_EXEC_NEED_THREAD &&
				  !cmd->may_block;
			if (requeue && dt->exec_may_sleep) {
				/* exec_inline_first: nothing was done */
				cmd->state = SCST_CMD_STATE_EXEC_WAIT;
				scst_dev_queue_exec(cmd);
				return;
			}
		} else {
			requeue = res == SCST_EXEC_NEED_THREAD;
		}
		if (requeue) {
			/* nothing was done: no exec_refs to drop */
			cmd->state = SCST_CMD_STATE_EXEC_BLOCKING;
			queue_work_on(cmd->cpu, scst_exec_wq, &cmd->work);
			return;
		}
		if (res != SCST_EXEC_COMPLETED) {
			WARN_ON_ONCE(res == SCST_EXEC_NEED_THREAD);
			scst_set_cmd_error_field(cmd, SCST_SENSE_INVALID_OPCODE,
						 true, 0, -1);
			scst_cmd_exec_done(cmd);
		}
	}
	if (scst_exec_put(cmd))
		scst_exec_finish(cmd);
}

static void scst_exec(struct scst_cmd *cmd)
{
	struct scst_device *dev = cmd->dev;

	cmd->state = SCST_CMD_STATE_EXEC_WAIT;
	if (dev && dev->handler->exec_may_sleep &&
	    !dev->handler->exec_inline_first &&
	    !scst_cmd_is_aborted(cmd) && !scst_cmd_core_emulated(cmd)) {
		scst_dev_queue_exec(cmd);
		return;
	}
	if (!dev) {
		/* no LU: only the commands scst_emulate_no_lun() answers */
		scst_emulate_no_lun(cmd);
		scst_xmit(cmd);
		return;
	}
	scst_do_exec(cmd);
}

/**
 * scst_process_cmd() - run a command's state machine as far as it goes
 * @cmd: the command
 *
 * Process context. Stops when the command waits for the driver (data-out,
 * response), the device (task set, a thread, asynchronous completion).
 */
void scst_process_cmd(struct scst_cmd *cmd)
{
	for (;;) {
		switch (cmd->state) {
		case SCST_CMD_STATE_INIT:
			if (scst_cmd_is_aborted(cmd)) {
				u8 st = SCST_STATUS_TASK_ABORTED;

				scst_set_cmd_error_status(cmd, st);
				cmd->state = SCST_CMD_STATE_XMIT;
				break;
			}
			cmd->state = scst_init_cmd(cmd);
			break;
		case SCST_CMD_STATE_PREPARE_SPACE:
			if (scst_prepare_space(cmd)) {
				cmd->state = SCST_CMD_STATE_XMIT;
				break;
			}
			if (cmd->data_direction == SCST_DATA_WRITE &&
			    cmd->bufflen) {
				cmd->state = SCST_CMD_STATE_DATA_WAIT;
				cmd->sess->tgt->tgtt->rdy_to_xfer(cmd);
				return;
			}
			cmd->state = SCST_CMD_STATE_TASK_SET;
			break;
		case SCST_CMD_STATE_TASK_SET:
			cmd->state = SCST_CMD_STATE_EXEC;
			if (!scst_task_set_admit(cmd))
				return;	/* requeued by scst_dev_task_set_done() */
			break;
		case SCST_CMD_STATE_EXEC:
			scst_exec(cmd);
			return;
		case SCST_CMD_STATE_EXEC_BLOCKING:
			/* on scst_exec_wq, after SCST_EXEC_NEED_THREAD */
			cmd->may_block = true;
			cmd->on_exec_wq = true;
			cmd->state = SCST_CMD_STATE_EXEC_WAIT;
			scst_do_exec(cmd);
			return;
		case SCST_CMD_STATE_XMIT:
			scst_xmit(cmd);
			return;
		default:
			WARN_ONCE(1, "command in state %d\n", cmd->state);
			return;
		}
	}
}

/*
 * SCST's ..._unaligned_cmd_count: a command on a device with a block size
 * whose byte offset (its LBA; 0 for commands without one) or whose length
 * as the CDB asks for it is not a multiple of 4 KiB, the unit of most
 * initiators' page caches and of 4Kn media: what a misaligned partition
 * shows as.
 */
static bool scst_cmd_unaligned_4k(const struct scst_cmd *cmd)
{
	if (!cmd->dev || !cmd->dev->block_shift)
		return false;
	return ((cmd->lba << cmd->dev->block_shift) | cmd->cdb_bufflen) &
	       (SZ_4K - 1);
}

/*
 * SCST's per-session I/O counters (sessions/<sess>/..._cmd_count,
 * ..._io_count_kb, ..._unaligned_cmd_count): every command that ends
 * counts once, by the direction its CDB decoded to, "unknown" when it
 * ended before that (no LUN, an unsupported opcode, a unit attention);
 * the bytes are those moved by a command that ended GOOD.
 */
static void scst_sess_count_io(struct scst_session *sess,
			       const struct scst_cmd *cmd)
{
	bool good = cmd->status == SCST_STATUS_GOOD;
	bool unaligned;

	if (!cmd->dir_known) {
		atomic64_inc(&sess->unknown_cmds);
		return;
	}
	unaligned = scst_cmd_unaligned_4k(cmd);
	switch (cmd->data_direction) {
	case SCST_DATA_READ:
		atomic64_inc(&sess->read_cmds);
		if (good)
			atomic64_add(cmd->resp_len, &sess->read_bytes);
		if (unaligned)
			atomic64_inc(&sess->read_unaligned);
		break;
	case SCST_DATA_WRITE:
		atomic64_inc(&sess->write_cmds);
		if (good)
			atomic64_add(cmd->bufflen, &sess->write_bytes);
		if (unaligned)
			atomic64_inc(&sess->write_unaligned);
		break;
	case SCST_DATA_BIDI:
		atomic64_inc(&sess->bidi_cmds);
		if (good)
			atomic64_add((u64)cmd->bufflen + cmd->resp_len,
				     &sess->bidi_bytes);
		if (unaligned)
			atomic64_inc(&sess->bidi_unaligned);
		break;
	default:
		atomic64_inc(&sess->none_cmds);
		break;
	}
}

/*
 * The session may be freed as soon as its active_cmds reaches 0
 * (scst_abort_sess_cmds_and_wait() at unregistration): that decrement is
 * the last access to it. A command without a LUN holds no nexus
 * reference, so nothing else keeps the session for it.
 */
void scst_free_cmd(struct scst_cmd *cmd)
{
	unsigned long flags;
	struct scst_session *sess = cmd->sess;
	bool aborted;

	if (sess->tgt->tgtt->on_free_cmd)
		sess->tgt->tgtt->on_free_cmd(cmd);
	if (cmd->dev && cmd->dev->handler->on_free_cmd)
		cmd->dev->handler->on_free_cmd(cmd);

	scst_sess_count_io(sess, cmd);
	if (static_branch_unlikely(&scst_lat_key))
		scst_lat_cmd_done(cmd);

	spin_lock_irqsave(&sess->sess_lock, flags);
	list_del(&cmd->sess_entry);
	/*
	 * Read with the command still on the list, under the lock a TMF
	 * marks it with: aborted before, its TMF waits for it to go.
	 */
	aborted = scst_cmd_is_aborted(cmd);
	spin_unlock_irqrestore(&sess->sess_lock, flags);

	scst_free_data_buf(cmd);
	if (cmd->tgt_dev)
		scst_put_tgt_dev(cmd->tgt_dev);
	kmem_cache_free(scst_cmd_cache, cmd);

	/* fully ordered: every access to @sess above comes before it */
	if (atomic_dec_and_test(&sess->active_cmds) || aborted)
		wake_up_all(&scst_tmf_waitq);	/* not @sess's: may be gone */
}

/**
 * scst_tgt_cmd_done() - the driver is done with a command
 * @cmd: the command; freed here
 *
 * Any context: nothing here sleeps (scst_free_cmd()).
 */
void scst_tgt_cmd_done(struct scst_cmd *cmd)
{
	cmd->state = SCST_CMD_STATE_FINISHED;
	scst_free_cmd(cmd);
}
EXPORT_SYMBOL_GPL(scst_tgt_cmd_done);
