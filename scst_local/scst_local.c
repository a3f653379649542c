// SPDX-License-Identifier: GPL-2.0-only
/*
 * SCST's loopback target driver: a Linux SCSI host (LLD) whose commands
 * go straight to the target core, so that the LUNs of an scst_local target
 * show up as local /dev/sdX without any transport.
 *
 * Objects:
 *   targets/scst_local/<tgt>           struct scst_local_tgt
 *   targets/scst_local/<tgt>/sessions/<sess>
 *                                      struct scst_local_sess, the hostdata
 *                                      of one Scsi_Host (/sys/class/scsi_host)
 *
 * Every Scsi_Host hangs below one root device, /sys/devices/scst_local.
 *
 * Per-command path (queuecommand -> scst_rx_cmd -> ... -> xmit_response ->
 * scsi_done): no locks, no allocation besides the core's command; the
 * scsi_cmnd pointer travels in cmd->tgt_priv, and the little state we keep
 * per command (struct scst_local_cmd) lives in the scsi_cmnd's private
 * area (cmd_size).
 *
 * Locking: scst_local_mutex serializes target/session creation and removal
 * (the mgmt hooks, the close_session worker and module exit) and protects
 * scst_local_tgt_list and each target's session list. The command path,
 * the EH handlers, close_session(), the reset worker and the sysfs
 * attributes never take it.
 *
 * A force_close of a session (sessions/<sess>/force_close) ends its I_T
 * nexus and opens a new one on the same SCSI host, as a real initiator
 * logs in again: the host and its disks stay, the commands of the old
 * nexus end with TASK ABORTED (which the midlayer retries) and the new one
 * starts with POWER ON OCCURRED (SAM-5 6.3.4). scst_local_sess.nexus_mutex
 * serializes that swap with the EH handlers' TMFs and with the session's
 * removal; the command path reads the session pointer under RCU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/sched/mm.h>
#include <linux/highmem.h>
#include <linux/blk-mq.h>
#include <linux/scatterlist.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/delay.h>

#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

#include <scst.h>

#define SCST_LOCAL_NAME			"scst_local"
#define SCST_LOCAL_DEFAULT_TGT		"scst_local_tgt"
#define SCST_LOCAL_DEFAULT_SESS		"scst_local_host"

/* Largest command, in 512-byte sectors (2 MiB) */
#define SCST_LOCAL_MAX_SECTORS		4096
/* Enough entries for the largest command even if no two pages merge */
#define SCST_LOCAL_SG_TABLESIZE		(SCST_LOCAL_MAX_SECTORS >> \
					 (PAGE_SHIFT - SECTOR_SHIFT))
/*
 * Highest LUN the midlayer may scan: covers the peripheral (0..255) and
 * flat space (0x4000 | 0..16383) encodings of every LUN the core exports.
 */
#define SCST_LOCAL_MAX_LUN		0x7fff
/* How often an EH handler complains while a TMF is outstanding */
#define SCST_LOCAL_TMF_WARN_SECS	60
/* How often an EH handler checks whether the core let go of its commands */
#define SCST_LOCAL_POLL_MS		20
#define SCST_LOCAL_POLLS_PER_WARN	(SCST_LOCAL_TMF_WARN_SECS * 1000 / \
					 SCST_LOCAL_POLL_MS)

/*
 * Contexts in which the core continues a command.
 *
 * SCST_LOCAL_CTX, for scst_cmd_init_done() and scst_tgt_cmd_done():
 * queuecommand may not sleep (blk-mq calls it inside an RCU read-side
 * section) and ->xmit_response() may be called in atomic context, so the
 * core continues on a worker of this CPU: one switch per command, as with
 * tcm_loop's target_queue_submission().
 * NEEDS-CORE: SCST_CONTEXT_DIRECT_ATOMIC, "the caller may not sleep; run
 * the command inline as far as that is possible without sleeping (LUN
 * lookup, parse, ->exec() of handlers without exec_may_sleep; buffers with
 * GFP_ATOMIC) and defer to this CPU's worker only what must sleep". Using
 * it is the one-line change below.
 *
 * SCST_LOCAL_RX_DATA_CTX, for scst_rx_data() from ->rdy_to_xfer(): the
 * core's state machine calls ->rdy_to_xfer() in process context only, and
 * touches the command no more once it has called it (scst_cmd.c), so the
 * write continues on this thread without a second switch.
 * NEEDS-CORE: say so in scst.h's description of @rdy_to_xfer.
 */
#define SCST_LOCAL_CTX			SCST_CONTEXT_ATOMIC
#define SCST_LOCAL_RX_DATA_CTX		SCST_CONTEXT_DIRECT

static bool scst_local_add_default_tgt = true;
module_param_named(add_default_tgt, scst_local_add_default_tgt, bool, 0444);
MODULE_PARM_DESC(add_default_tgt,
		 "Create target " SCST_LOCAL_DEFAULT_TGT " with session "
		 SCST_LOCAL_DEFAULT_SESS " at load (default: true)");

static unsigned int scst_local_can_queue = 256;
module_param_named(can_queue, scst_local_can_queue, uint, 0444);
MODULE_PARM_DESC(can_queue,
		 "Commands in flight per SCSI host, all LUNs together (default: 256)");

static unsigned int scst_local_cmd_per_lun = 64;
module_param_named(cmd_per_lun, scst_local_cmd_per_lun, uint, 0444);
MODULE_PARM_DESC(cmd_per_lun, "Initial queue depth of each LUN (default: 64)");

static unsigned int scst_local_nr_hw_queues;
module_param_named(nr_hw_queues, scst_local_nr_hw_queues, uint, 0444);
MODULE_PARM_DESC(nr_hw_queues,
		 "blk-mq hardware queues per SCSI host, sharing one tag space (default 0: one per CPU)");

/**
 * struct scst_local_tgt - an scst_local target
 * @scst_tgt: the core's target
 * @entry: on scst_local_tgt_list
 * @sessions: its struct scst_local_sess, by @entry
 */
struct scst_local_tgt {
	struct scst_tgt *scst_tgt;
	struct list_head entry;
	struct list_head sessions;
};

/* bits of scst_local_sess.flags */
enum {
	/* the core asked us to close the session (->close_session()) */
	SCST_LOCAL_SESS_CLOSING,
	/* scst_local_remove_session() started: no more nexus swaps */
	SCST_LOCAL_SESS_REMOVING,
};

/**
 * struct scst_local_sess - a session, i.e. one SCSI host; this is the
 *	hostdata of @shost, so it lives as long as the Scsi_Host does
 * @scst_sess: the core's session (NULL while a force_close swaps it);
 *	RCU for the command path, @nexus_mutex for the rest
 * @nexus_mutex: see "Locking" above
 * @reset_work: opens a new nexus after a force_close
 * @shost: the SCSI host
 * @tgt: the target
 * @flags: SCST_LOCAL_SESS_* bits
 * @entry: on @tgt->sessions while the session exists
 * @name: session (= initiator) name
 */
struct scst_local_sess {
	struct scst_session __rcu *scst_sess;
	struct mutex nexus_mutex;		/* swaps of @scst_sess */
	struct work_struct reset_work;
	struct Scsi_Host *shost;
	struct scst_local_tgt *tgt;
	unsigned long flags;
	struct list_head entry;
	char name[SCST_MAX_NAME];
};

/**
 * struct scst_local_cmd - our part of a scsi_cmnd (scsi_cmd_priv())
 * @xfer_len: bytes moved between the scsi_cmnd's and the core's buffers,
 *	for the residual count
 * @in_core: the core holds a command for this scsi_cmnd and may still
 *	touch it; set before scst_cmd_init_done(), cleared (release) by
 *	->xmit_response() before its last access that the EH could race with
 */
struct scst_local_cmd {
	u32 xfer_len;
	bool in_core;
};

/**
 * struct scst_local_tmf - a task management function an EH handler waits for
 * @done: completed by ->task_mgmt_fn_done()
 * @status: the core's service response
 */
struct scst_local_tmf {
	struct completion done;
	enum scst_tmf_response status;
};

static DEFINE_MUTEX(scst_local_mutex);
static LIST_HEAD(scst_local_tgt_list);
static bool scst_local_exiting;
static struct device *scst_local_root;

static void scst_local_close_work_fn(struct work_struct *work);
static DECLARE_WORK(scst_local_close_work, scst_local_close_work_fn);
static void scst_local_reset_work_fn(struct work_struct *work);

/* EH statistics, targets/scst_local/stats */
static atomic_t scst_local_nr_aborts = ATOMIC_INIT(0);
static atomic_t scst_local_nr_lun_resets = ATOMIC_INIT(0);
static atomic_t scst_local_nr_target_resets = ATOMIC_INIT(0);
static atomic_t scst_local_nr_host_resets = ATOMIC_INIT(0);

static struct scst_tgt_template scst_local_tgtt;

/* ---------------------------------------------------------------------- */
/* Data movement                                                          */
/* ---------------------------------------------------------------------- */

/**
 * scst_local_sg_copy() - copy bytes from one scatterlist to another
 * @dst: destination list
 * @dst_cnt: number of entries of @dst
 * @src: source list
 * @src_cnt: number of entries of @src
 * @len: bytes to copy at most
 *
 * Maps one page of each list at a time with kmap_local_page() and unmaps
 * them in reverse order, so it works in atomic context and on HIGHMEM.
 * Entries may span several pages and may have any offset.
 *
 * Return: the number of bytes copied: @len, or less if a list is shorter.
 */
static u32 scst_local_sg_copy(struct scatterlist *dst, unsigned int dst_cnt,
			      struct scatterlist *src, unsigned int src_cnt,
			      u32 len)
{
	unsigned int doff = 0, soff = 0;
	u32 done = 0;

	if (!dst || !src || !dst_cnt || !src_cnt)
		return 0;

	while (done < len) {
		unsigned int dpos, spos, n;
		struct page *dpage, *spage;
		void *d, *s;

		if (doff == dst->length) {
			if (!--dst_cnt)
				break;
			dst = sg_next(dst);
			if (!dst)
				break;
			doff = 0;
			continue;
		}
		if (soff == src->length) {
			if (!--src_cnt)
				break;
			src = sg_next(src);
			if (!src)
				break;
			soff = 0;
			continue;
		}

		dpos = dst->offset + doff;
		spos = src->offset + soff;
		dpage = nth_page(sg_page(dst), dpos >> PAGE_SHIFT);
		spage = nth_page(sg_page(src), spos >> PAGE_SHIFT);
		dpos = offset_in_page(dpos);
		spos = offset_in_page(spos);

		n = min_t(unsigned int, len - done, dst->length - doff);
		n = min_t(unsigned int, n, src->length - soff);
		n = min_t(unsigned int, n, PAGE_SIZE - dpos);
		n = min_t(unsigned int, n, PAGE_SIZE - spos);

		s = kmap_local_page(spage);
		d = kmap_local_page(dpage);
		memcpy(d + dpos, s + spos, n);
		kunmap_local(d);
		kunmap_local(s);
		flush_dcache_page(dpage);

		doff += n;
		soff += n;
		done += n;
	}
	return done;
}

/* ---------------------------------------------------------------------- */
/* Command path                                                           */
/* ---------------------------------------------------------------------- */

static enum scst_data_direction
scst_local_data_dir(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_TO_DEVICE:
		return SCST_DATA_WRITE;
	case DMA_FROM_DEVICE:
		return SCST_DATA_READ;
	case DMA_BIDIRECTIONAL:
		return SCST_DATA_BIDI;
	default:
		return SCST_DATA_NONE;
	}
}

/**
 * scst_local_queuecommand() - hand a command of the SCSI midlayer to the core
 * @shost: our SCSI host
 * @sc: the command
 *
 * Called by blk-mq in a context that may not sleep.
 *
 * Return: 0, or SCSI_MLQUEUE_HOST_BUSY when the core has no memory for the
 * command right now (the block layer retries it).
 */
static int scst_local_queuecommand(struct Scsi_Host *shost,
				   struct scsi_cmnd *sc)
{
	struct scst_local_sess *sess = shost_priv(shost);
	struct scst_local_cmd *lcmd = scsi_cmd_priv(sc);
	struct scst_session *scst_sess;
	struct scst_cmd *cmd;
	struct scsi_lun lun;

	lcmd->xfer_len = 0;
	lcmd->in_core = false;

	if (unlikely(sc->cmd_len > SCST_MAX_CDB_SIZE)) {
		/* SPC-4 4.5.6: INVALID FIELD IN CDB */
		scsi_build_sense(sc, 0, ILLEGAL_REQUEST, 0x24, 0);
		scsi_done(sc);
		return 0;
	}

	int_to_scsilun(sc->device->lun, &lun);
	/*
	 * The reset worker waits for a grace period before it unregisters
	 * the old session, so the session we pass stays until the command
	 * holds it; none while it opens a new one: the block layer retries.
	 */
	rcu_read_lock();
	scst_sess = rcu_dereference(sess->scst_sess);
	cmd = scst_sess ? scst_rx_cmd(scst_sess, lun.scsi_lun,
				      sizeof(lun.scsi_lun), sc->cmnd,
				      sc->cmd_len, GFP_ATOMIC) : NULL;
	rcu_read_unlock();
	if (IS_ERR_OR_NULL(cmd)) {
		/*
		 * Once the core asked us to close the session it may refuse
		 * new commands for good: fail them rather than retry forever
		 * while scsi_remove_host() flushes the disks.
		 */
		if (test_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags)) {
			set_host_byte(sc, DID_NO_CONNECT);
			scsi_done(sc);
			return 0;
		}
		return SCSI_MLQUEUE_HOST_BUSY;
	}

	/* hardware queue and tag: unique among this host's commands */
	scst_cmd_set_tag(cmd, blk_mq_unique_tag(scsi_cmd_to_rq(sc)));
	scst_cmd_set_expected(cmd, scst_local_data_dir(sc->sc_data_direction),
			      scsi_bufflen(sc));
	scst_cmd_set_queue_type(cmd, SCST_CMD_QUEUE_SIMPLE);
	if (scsi_sg_count(sc))
		scst_cmd_set_tgt_sg(cmd, scsi_sglist(sc), scsi_sg_count(sc));
	cmd->tgt_priv = sc;
	lcmd->in_core = true;

	scst_cmd_init_done(cmd, SCST_LOCAL_CTX);
	return 0;
}

/**
 * scst_local_rdy_to_xfer() - fetch the data-out buffer of a command
 * @cmd: the command; cmd->sg is the core's buffer of cmd->bufflen bytes
 *
 * Copies the scsi_cmnd's data-out into the core's buffer. If the midlayer
 * sent less than the core expects, the rest of the buffer is zeroed so no
 * stale memory ever reaches a backend. Process context (see
 * SCST_LOCAL_RX_DATA_CTX).
 *
 * Return: 0.
 */
static int scst_local_rdy_to_xfer(struct scst_cmd *cmd)
{
	struct scsi_cmnd *sc = cmd->tgt_priv;
	struct scst_local_cmd *lcmd = scsi_cmd_priv(sc);
	u32 len = min_t(u32, cmd->bufflen, scsi_bufflen(sc));

	if (cmd->sg == scsi_sglist(sc)) {	/* zero copy */
		lcmd->xfer_len = cmd->bufflen;
		scst_rx_data(cmd, 0, SCST_LOCAL_RX_DATA_CTX);
		return 0;
	}
	lcmd->xfer_len = scst_local_sg_copy(cmd->sg, cmd->sg_cnt,
					    scsi_sglist(sc), scsi_sg_count(sc),
					    len);
	if (unlikely(lcmd->xfer_len < cmd->bufflen))
		sg_zero_buffer(cmd->sg, cmd->sg_cnt,
			       cmd->bufflen - lcmd->xfer_len, lcmd->xfer_len);

	scst_rx_data(cmd, 0, SCST_LOCAL_RX_DATA_CTX);
	return 0;
}

/*
 * Aborts and the scsi_cmnd's ownership.
 *
 * The core calls ->xmit_response() exactly once for every command it
 * received, aborted or not, and completes a TMF (->task_mgmt_fn_done())
 * only after every command the TMF affects has been through it. Our EH
 * handlers wait for that completion, and then check that none of the
 * commands in the TMF's scope is still in the core (struct scst_local_cmd
 * @in_core), before they return: the midlayer reuses a failed scsi_cmnd
 * (retry, EH's TEST UNIT READY, or back to the block layer) only after its
 * handler returned, so the core never touches a recycled scsi_cmnd. The
 * last resort, the host reset, waits for the commands even when it fails,
 * since the midlayer then takes the devices offline and frees them all.
 *
 * In ->xmit_response():
 * - The command timed out: the midlayer's timeout handler claimed the
 *   scsi_cmnd (SCMD_STATE_COMPLETE) and its error handler owns it now; it
 *   may even be building a REQUEST SENSE in it if it finds CHECK CONDITION
 *   in the result. We leave it alone (no result, no data, no scsi_done(),
 *   which would be ignored anyway) and let the EH decide its fate.
 * - Aborted by another nexus' TMF, by the TMF of an sg_reset ioctl or
 *   because the core is closing the session, while the scsi_cmnd is live:
 *   complete it with TASK ABORTED (SAM-5 5.3.1, as with TAS=1), which the
 *   midlayer retries, or with DID_NO_CONNECT once the core asked us to
 *   close the session.
 * - Commands the error handler sends itself (TEST UNIT READY, REQUEST
 *   SENSE, in a failed scsi_cmnd it reuses once our handler returned) are
 *   ordinary commands here: their submitter is not the block layer.
 *
 * scsi_done() comes before scst_tgt_cmd_done(): the core sees the command
 * finished only when we no longer touch the scsi_cmnd.
 */

/* Has the midlayer's timeout handler taken @sc from us? */
static bool scst_local_sc_timed_out(const struct scsi_cmnd *sc)
{
	return sc->submitter == SUBMITTED_BY_BLOCK_LAYER &&
	       test_bit(SCMD_STATE_COMPLETE, &sc->state);
}

/**
 * scst_local_xmit_response() - complete a command to the SCSI midlayer
 * @cmd: the command; unless aborted, its data-in is in cmd->sg
 *	(cmd->resp_len bytes), its status in cmd->status and its sense in
 *	cmd->sense
 *
 * Return: 0.
 */
static int scst_local_xmit_response(struct scst_cmd *cmd)
{
	struct scsi_cmnd *sc = cmd->tgt_priv;
	struct scst_local_cmd *lcmd = scsi_cmd_priv(sc);
	struct scst_local_sess *sess = shost_priv(sc->device->host);

	if (unlikely(scst_local_sc_timed_out(sc))) {
		/* pairs with the EH handlers' smp_load_acquire() */
		smp_store_release(&lcmd->in_core, false);
		goto done;
	}

	if (unlikely(scst_cmd_aborted(cmd))) {
		if (test_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags))
			sc->result = DID_NO_CONNECT << 16;
		else
			sc->result = SAM_STAT_TASK_ABORTED;
		scsi_set_resid(sc, scsi_bufflen(sc));
	} else {
		if (sc->sc_data_direction == DMA_FROM_DEVICE &&
		    cmd->sg == scsi_sglist(sc))	/* zero copy */
			lcmd->xfer_len = cmd->resp_len;
		else if (sc->sc_data_direction == DMA_FROM_DEVICE &&
			 cmd->resp_len)
			lcmd->xfer_len =
				scst_local_sg_copy(scsi_sglist(sc),
						   scsi_sg_count(sc),
						   cmd->sg, cmd->sg_cnt,
						   min_t(u32, cmd->resp_len,
							 scsi_bufflen(sc)));
		scsi_set_resid(sc, scsi_bufflen(sc) - lcmd->xfer_len);

		if (unlikely(cmd->sense_len))
			memcpy(sc->sense_buffer, cmd->sense,
			       min_t(unsigned int, cmd->sense_len,
				     SCSI_SENSE_BUFFERSIZE));
		/* host byte DID_OK, SAM status */
		sc->result = cmd->status;
	}
	/* orders our writes to @sc before the EH handlers' check of it */
	smp_store_release(&lcmd->in_core, false);
	scsi_done(sc);
done:
	scst_tgt_cmd_done(cmd, SCST_LOCAL_CTX);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Task management (SCSI error handling)                                  */
/* ---------------------------------------------------------------------- */

/**
 * scst_local_sdev_lun() - the LUN number of a SCSI device, as the core
 *	numbers LUNs (for scst_rx_mgmt_fn())
 * @sdev: the device
 *
 * Return: the LUN, or U64_MAX for an address the core does not use (the
 * TMF then fails with LUN_NOT_EXIST).
 */
static u64 scst_local_sdev_lun(const struct scsi_device *sdev)
{
	struct scsi_lun lun;
	u64 n;

	int_to_scsilun(sdev->lun, &lun);
	if (scst_lun_decode(lun.scsi_lun, sizeof(lun.scsi_lun), &n))
		return U64_MAX;
	return n;
}

/**
 * struct scst_local_in_core - what scst_local_count_in_core() looks for
 * @sdev: count only commands of this device (NULL: of the whole host)
 * @n: number of commands found that the core still holds
 */
struct scst_local_in_core {
	struct scsi_device *sdev;
	unsigned int n;
};

static bool scst_local_count_in_core(struct scsi_cmnd *sc, void *data)
{
	struct scst_local_in_core *ic = data;
	struct scst_local_cmd *lcmd = scsi_cmd_priv(sc);

	if (ic->sdev && sc->device != ic->sdev)
		return true;
	/* pairs with smp_store_release() in ->xmit_response() */
	if (smp_load_acquire(&lcmd->in_core))
		ic->n++;
	return true;
}

/**
 * scst_local_wait_in_core() - wait until the core holds none of the
 *	commands a TMF was about
 * @shost: the SCSI host
 * @sdev: wait for the commands of this device only, or NULL
 * @sc: wait for this one command only (ABORT TASK), or NULL
 * @what: the TMF, for the log
 *
 * Returns at once when the core kept its promise that a TMF completes after
 * the commands it affects; otherwise polls, complaining now and then, since
 * letting the midlayer reuse those scsi_cmnds would corrupt memory.
 */
static void scst_local_wait_in_core(struct Scsi_Host *shost,
				    struct scsi_device *sdev,
				    struct scsi_cmnd *sc, const char *what)
{
	struct scst_local_in_core ic = { .sdev = sdev };
	unsigned int polls = 0;

	for (;;) {
		ic.n = 0;
		if (sc) {
			struct scst_local_cmd *lcmd = scsi_cmd_priv(sc);

			/* pairs with smp_store_release() in ->xmit_response() */
			ic.n = smp_load_acquire(&lcmd->in_core);
		} else {
			scsi_host_busy_iter(shost, scst_local_count_in_core,
					    &ic);
		}
		if (!ic.n)
			return;
		if (polls && !(polls % SCST_LOCAL_POLLS_PER_WARN))
			shost_printk(KERN_WARNING, shost,
				     "%s done, but the target core still holds %u of its commands after %u s\n",
				     what, ic.n,
				     polls / SCST_LOCAL_POLLS_PER_WARN *
				     SCST_LOCAL_TMF_WARN_SECS);
		msleep(SCST_LOCAL_POLL_MS);
		polls++;
	}
}

/**
 * scst_local_tmf() - run a task management function and wait for it
 * @sc: the command the SCSI error handler passed to us
 * @fn: the function
 * @lun: LUN it addresses (LUN-scoped functions)
 * @tag: tag of the command to abort (ABORT TASK)
 *
 * Runs in the error handler's process context. Waits without a time limit:
 * until the core reports the TMF done, it may still hold commands whose
 * scsi_cmnd the midlayer would reuse as soon as we return.
 *
 * Return: the core's service response.
 */
static enum scst_tmf_response scst_local_tmf(struct scsi_cmnd *sc,
					     enum scst_tmf fn, u64 lun,
					     u64 tag)
{
	struct scst_local_sess *sess = shost_priv(sc->device->host);
	struct scst_session *scst_sess;
	struct scst_local_tmf tmf;
	struct scst_mgmt_cmd *mcmd;
	unsigned int waited = 0;

	init_completion(&tmf.done);
	tmf.status = SCST_MGMT_STATUS_FAILED;

	/*
	 * Not during a nexus swap (force_close): the TMF goes to the new
	 * session, whose commands are the only ones left. Once received, it
	 * holds its session until it completes (the core's active_tmfs).
	 */
	mutex_lock(&sess->nexus_mutex);
	scst_sess = rcu_dereference_protected(sess->scst_sess,
					      lockdep_is_held(&sess->nexus_mutex));
	/* GFP_NOIO: we may be what stands between reclaim and its I/O */
	mcmd = scst_sess ? scst_rx_mgmt_fn(scst_sess, fn, lun, tag, &tmf,
					   GFP_NOIO) : NULL;
	mutex_unlock(&sess->nexus_mutex);
	if (IS_ERR_OR_NULL(mcmd)) {
		scmd_printk(KERN_ERR, sc, "%s: the target core refused it (%ld)\n",
			    scst_tmf_name(fn),
			    mcmd ? PTR_ERR(mcmd) : -ENOMEM);
		return SCST_MGMT_STATUS_FAILED;
	}

	while (!wait_for_completion_timeout(&tmf.done,
					    SCST_LOCAL_TMF_WARN_SECS * HZ)) {
		waited += SCST_LOCAL_TMF_WARN_SECS;
		scmd_printk(KERN_WARNING, sc,
			    "%s: still waiting for the target after %u s\n",
			    scst_tmf_name(fn), waited);
	}
	return tmf.status;
}

/**
 * scst_local_task_mgmt_fn_done() - the core finished a TMF
 * @mcmd: the TMF; its tgt_priv is the waiting struct scst_local_tmf
 */
static void scst_local_task_mgmt_fn_done(struct scst_mgmt_cmd *mcmd)
{
	struct scst_local_tmf *tmf = mcmd->tgt_priv;

	tmf->status = mcmd->status;
	complete(&tmf->done);
}

/**
 * scst_local_eh_abort() - eh_abort_handler: ABORT TASK of a timed out
 *	command
 * @sc: the command
 *
 * Return: SUCCESS when the core no longer holds the command: it aborted it,
 * or the command had finished already (TASK_NOT_EXIST); FAILED otherwise,
 * and the midlayer escalates to a LUN reset.
 */
static int scst_local_eh_abort(struct scsi_cmnd *sc)
{
	enum scst_tmf_response r;

	atomic_inc(&scst_local_nr_aborts);
	r = scst_local_tmf(sc, SCST_ABORT_TASK, scst_local_sdev_lun(sc->device),
			   blk_mq_unique_tag(scsi_cmd_to_rq(sc)));
	if (r != SCST_MGMT_STATUS_SUCCESS &&
	    r != SCST_MGMT_STATUS_TASK_NOT_EXIST) {
		scmd_printk(KERN_WARNING, sc, "ABORT TASK failed (response %d)\n",
			    r);
		return FAILED;
	}
	scst_local_wait_in_core(sc->device->host, NULL, sc, "ABORT TASK");
	return SUCCESS;
}

/**
 * scst_local_eh_device_reset() - eh_device_reset_handler: LUN RESET
 * @sc: a command of the LUN
 *
 * Return: SUCCESS or FAILED (the midlayer then tries a target reset).
 */
static int scst_local_eh_device_reset(struct scsi_cmnd *sc)
{
	enum scst_tmf_response r;

	atomic_inc(&scst_local_nr_lun_resets);
	r = scst_local_tmf(sc, SCST_LUN_RESET, scst_local_sdev_lun(sc->device),
			   0);
	scmd_printk(KERN_INFO, sc, "LUN RESET: response %d\n", r);
	if (r != SCST_MGMT_STATUS_SUCCESS)
		return FAILED;
	scst_local_wait_in_core(sc->device->host, sc->device, NULL,
				"LUN RESET");
	return SUCCESS;
}

/**
 * scst_local_eh_target_reset() - eh_target_reset_handler: TARGET RESET
 * @sc: a command of the target
 *
 * Resets every LUN the session sees, for all the nexuses of each (on
 * every target that exports it).
 *
 * Return: SUCCESS or FAILED (the midlayer then tries a host reset).
 */
static int scst_local_eh_target_reset(struct scsi_cmnd *sc)
{
	enum scst_tmf_response r;

	atomic_inc(&scst_local_nr_target_resets);
	r = scst_local_tmf(sc, SCST_TARGET_RESET, 0, 0);
	scmd_printk(KERN_INFO, sc, "TARGET RESET: response %d\n", r);
	if (r != SCST_MGMT_STATUS_SUCCESS)
		return FAILED;
	scst_local_wait_in_core(sc->device->host, NULL, NULL, "TARGET RESET");
	return SUCCESS;
}

/**
 * scst_local_eh_host_reset() - eh_host_reset_handler: I_T nexus loss
 * @sc: a command of the host
 *
 * The loopback "adapter" has nothing to reset but its I_T nexus: every
 * command of the session is aborted, nothing of other sessions. This is
 * the midlayer's last resort: if it fails, the devices go offline and
 * their commands are freed, so we wait for the core to let go of all our
 * commands whatever it answered.
 *
 * The core's SCST_NEXUS_LOSS_SESS aborts every command of the session,
 * establishes the I_T NEXUS LOSS OCCURRED unit attention (SAM-5 6.3.4)
 * and leaves the session registered.
 *
 * Return: SUCCESS, or FAILED and the midlayer takes the devices offline.
 */
static int scst_local_eh_host_reset(struct scsi_cmnd *sc)
{
	enum scst_tmf_response r;

	atomic_inc(&scst_local_nr_host_resets);
	r = scst_local_tmf(sc, SCST_NEXUS_LOSS_SESS, 0, 0);
	scmd_printk(KERN_INFO, sc, "host reset (I_T nexus loss): response %d\n",
		    r);
	scst_local_wait_in_core(sc->device->host, NULL, NULL,
				"I_T NEXUS LOSS");
	return r == SCST_MGMT_STATUS_SUCCESS ? SUCCESS : FAILED;
}

/*
 * The core hands our buffers (zero copy) to back ends that need every
 * segment sector-aligned (bios): make the block layer bounce SG_IO buffers
 * that are not. Newer kernels say so in the host template (probed by
 * Kbuild), older ones on the queue.
 */
#ifndef SCST_HAVE_SHT_DMA_ALIGNMENT
static int scst_local_slave_configure(struct scsi_device *sdev)
{
	blk_queue_dma_alignment(sdev->request_queue, SECTOR_SIZE - 1);
	return 0;
}

#define SCST_LOCAL_DMA_ALIGNMENT .slave_configure = scst_local_slave_configure
#else
#define SCST_LOCAL_DMA_ALIGNMENT .dma_alignment = SECTOR_SIZE - 1
#endif

/* The template is not const: 6.1's scsi_host_alloc() takes it non-const. */
static struct scsi_host_template scst_local_sht = {
	.module			= THIS_MODULE,
	.name			= SCST_LOCAL_NAME,
	.proc_name		= SCST_LOCAL_NAME,
	.queuecommand		= scst_local_queuecommand,
	.change_queue_depth	= scsi_change_queue_depth,
	.eh_abort_handler	= scst_local_eh_abort,
	.eh_device_reset_handler = scst_local_eh_device_reset,
	.eh_target_reset_handler = scst_local_eh_target_reset,
	.eh_host_reset_handler	= scst_local_eh_host_reset,
	.this_id		= -1,
	/* overridden per host by the module parameters */
	.can_queue		= 256,
	.cmd_per_lun		= 64,
	.sg_tablesize		= SCST_LOCAL_SG_TABLESIZE,
	.max_sectors		= SCST_LOCAL_MAX_SECTORS,
	/* we copy with the CPU: no DMA boundary, default segment size */
	.cmd_size		= sizeof(struct scst_local_cmd),
	.host_tagset		= 1,
	.track_queue_depth	= 1,
	.skip_settle_delay	= 1,
	SCST_LOCAL_DMA_ALIGNMENT,
};

/* ---------------------------------------------------------------------- */
/* Sessions and targets                                                   */
/* ---------------------------------------------------------------------- */

static struct scst_local_tgt *scst_local_find_tgt(const char *name)
{
	struct scst_local_tgt *tgt;

	lockdep_assert_held(&scst_local_mutex);
	list_for_each_entry(tgt, &scst_local_tgt_list, entry)
		if (!strcmp(tgt->scst_tgt->name, name))
			return tgt;
	return NULL;
}

static struct scst_local_sess *scst_local_find_sess(struct scst_local_tgt *tgt,
						    const char *name)
{
	struct scst_local_sess *sess;

	lockdep_assert_held(&scst_local_mutex);
	list_for_each_entry(sess, &tgt->sessions, entry)
		if (!strcmp(sess->name, name))
			return sess;
	return NULL;
}

static int scst_local_check_sess_name(const char *name)
{
	if (strlen(name) >= SCST_MAX_NAME) {
		pr_err("session name %s is longer than %d characters\n", name,
		       SCST_MAX_NAME - 1);
		return -EINVAL;
	}
	return 0;
}

/**
 * scst_local_add_session() - create a session and its SCSI host
 * @tgt: the target
 * @name: the session (initiator) name; checked by
 *	scst_local_check_sess_name()
 *
 * The SCSI host is scanned (asynchronously if scsi_mod.scan=async) once
 * the session can take commands.
 *
 * Return: 0, -EEXIST if @tgt has a session @name, or another errno.
 */
static int scst_local_add_session(struct scst_local_tgt *tgt,
				  const char *name)
{
	struct scst_session *scst_sess;
	struct scst_local_sess *sess;
	struct Scsi_Host *shost;
	int ret;

	lockdep_assert_held(&scst_local_mutex);

	if (scst_local_find_sess(tgt, name)) {
		pr_err("session %s already exists on target %s\n", name,
		       tgt->scst_tgt->name);
		return -EEXIST;
	}

	shost = scsi_host_alloc(&scst_local_sht, sizeof(*sess));
	if (!shost) {
		pr_err("session %s: cannot allocate a SCSI host\n", name);
		return -ENOMEM;
	}
	sess = shost_priv(shost);
	sess->shost = shost;
	sess->tgt = tgt;
	mutex_init(&sess->nexus_mutex);
	INIT_WORK(&sess->reset_work, scst_local_reset_work_fn);
	INIT_LIST_HEAD(&sess->entry);
	strscpy(sess->name, name, sizeof(sess->name));

	shost->max_id = 1;
	shost->max_channel = 0;
	shost->max_lun = SCST_LOCAL_MAX_LUN;
	shost->max_cmd_len = SCST_MAX_CDB_SIZE;
	shost->can_queue = scst_local_can_queue;
	shost->cmd_per_lun = scst_local_cmd_per_lun;
	shost->nr_hw_queues = scst_local_nr_hw_queues ?: nr_cpu_ids;

	scst_sess = scst_register_session(tgt->scst_tgt, name, sess);
	if (IS_ERR_OR_NULL(scst_sess)) {
		ret = scst_sess ? PTR_ERR(scst_sess) : -ENOMEM;
		pr_err("session %s: the target core refused it (%d)\n", name,
		       ret);
		goto put_host;
	}
	RCU_INIT_POINTER(sess->scst_sess, scst_sess);

	ret = scsi_add_host(shost, scst_local_root);
	if (ret) {
		pr_err("session %s: scsi_add_host() failed (%d)\n", name, ret);
		goto unregister_session;
	}

	list_add_tail(&sess->entry, &tgt->sessions);
	pr_info("target %s: session %s is SCSI host%u\n", tgt->scst_tgt->name,
		name, shost->host_no);
	scsi_scan_host(shost);

	/* a close request that came before we were on the list */
	if (test_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags))
		queue_work(system_long_wq, &scst_local_close_work);
	return 0;

unregister_session:
	/*
	 * sess->scst_sess and the session's force_close were visible: a
	 * force_close may have queued the reset work, which may have
	 * swapped the nexus. As scst_local_remove_session(): no more swaps,
	 * the current nexus (if any) goes, the work is done before @sess,
	 * the hostdata, is freed.
	 */
	mutex_lock(&sess->nexus_mutex);
	set_bit(SCST_LOCAL_SESS_REMOVING, &sess->flags);
	scst_sess = rcu_dereference_protected(sess->scst_sess,
					      lockdep_is_held(&sess->nexus_mutex));
	RCU_INIT_POINTER(sess->scst_sess, NULL);
	mutex_unlock(&sess->nexus_mutex);
	if (scst_sess)
		scst_unregister_session(scst_sess, true, NULL);
	cancel_work_sync(&sess->reset_work);
put_host:
	scsi_host_put(shost);
	return ret;
}

/**
 * scst_local_remove_session() - remove a session and its SCSI host
 * @sess: the session, on its target's list
 *
 * Removing the SCSI host first lets sd flush its cache and drains every
 * command through the core; the session is unregistered once the midlayer
 * can send nothing more. scsi_remove_host() waits until the last user of
 * the disks (an open /dev/sdX, a mount) has let go of them.
 */
static void scst_local_remove_session(struct scst_local_sess *sess)
{
	struct Scsi_Host *shost = sess->shost;
	struct scst_session *scst_sess;

	lockdep_assert_held(&scst_local_mutex);

	list_del_init(&sess->entry);
	pr_info("target %s: removing session %s (SCSI host%u)\n",
		sess->tgt->scst_tgt->name, sess->name, shost->host_no);
	/* after a swap in progress; none after this */
	mutex_lock(&sess->nexus_mutex);
	set_bit(SCST_LOCAL_SESS_REMOVING, &sess->flags);
	mutex_unlock(&sess->nexus_mutex);
	scsi_remove_host(shost);
	scst_sess = rcu_dereference_protected(sess->scst_sess, true);
	/* NULL: a swap failed to open a new nexus */
	if (scst_sess)
		scst_unregister_session(scst_sess, true, NULL);
	/*
	 * Its force_close attribute is gone: nobody queues the reset work
	 * any more, and a queued one finds SCST_LOCAL_SESS_REMOVING.
	 */
	cancel_work_sync(&sess->reset_work);
	/* frees @sess, the host's hostdata */
	scsi_host_put(shost);
}

/**
 * scst_local_reset_work_fn() - a new I_T nexus after a force_close
 * @work: the session's reset_work
 *
 * Unregistering the old session aborts its commands: each comes back
 * through ->xmit_response() with TASK ABORTED, which the midlayer retries
 * on the new session. Commands queued meanwhile find no session and are
 * requeued by the block layer (SCSI_MLQUEUE_HOST_BUSY). If no new session
 * can be opened, the host goes as after the core's close request.
 */
static void scst_local_reset_work_fn(struct work_struct *work)
{
	struct scst_local_sess *sess = container_of(work, struct scst_local_sess,
						    reset_work);
	struct scst_session *old, *new;
	unsigned int noio;

	/*
	 * The host's I/O waits (queuecommand() answers busy) and its error
	 * handler waits for nexus_mutex: an allocation here must not wait
	 * for writeback to this host.
	 */
	noio = memalloc_noio_save();
	mutex_lock(&sess->nexus_mutex);
	if (test_bit(SCST_LOCAL_SESS_REMOVING, &sess->flags) ||
	    test_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags))
		goto unlock;
	old = rcu_dereference_protected(sess->scst_sess,
					lockdep_is_held(&sess->nexus_mutex));
	if (!old)
		goto unlock;
	RCU_INIT_POINTER(sess->scst_sess, NULL);
	/* queuecommand() calls that saw @old have handed it their command */
	synchronize_rcu();
	scst_unregister_session(old, true, NULL);

	new = scst_register_session(sess->tgt->scst_tgt, sess->name, sess);
	if (IS_ERR_OR_NULL(new)) {
		pr_err("session %s: no new session after force_close (%ld): removing SCSI host%u\n",
		       sess->name, new ? PTR_ERR(new) : -ENOMEM,
		       sess->shost->host_no);
		set_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags);
		queue_work(system_long_wq, &scst_local_close_work);
		goto unlock;
	}
	rcu_assign_pointer(sess->scst_sess, new);
	pr_info("target %s: session %s has a new I_T nexus (SCSI host%u)\n",
		sess->tgt->scst_tgt->name, sess->name, sess->shost->host_no);
unlock:
	mutex_unlock(&sess->nexus_mutex);
	memalloc_noio_restore(noio);
}

/**
 * scst_local_add_target() - create a target and optionally one session
 * @name: the target name
 * @sess_name: name of a session to create with it, or NULL
 *
 * Return: 0, -EEXIST for a target of that name, or another errno; on
 * failure nothing is left behind.
 */
static int scst_local_add_target(const char *name, const char *sess_name)
{
	struct scst_local_tgt *tgt;
	struct scst_tgt *scst_tgt;
	int ret;

	lockdep_assert_held(&scst_local_mutex);

	if (scst_local_find_tgt(name)) {
		pr_err("target %s already exists\n", name);
		return -EEXIST;
	}
	if (sess_name) {
		ret = scst_local_check_sess_name(sess_name);
		if (ret)
			return ret;
	}

	tgt = kzalloc(sizeof(*tgt), GFP_KERNEL);
	if (!tgt)
		return -ENOMEM;
	INIT_LIST_HEAD(&tgt->sessions);

	scst_tgt = scst_register_target(&scst_local_tgtt, name);
	if (IS_ERR_OR_NULL(scst_tgt)) {
		ret = scst_tgt ? PTR_ERR(scst_tgt) : -ENOMEM;
		pr_err("target %s: the target core refused it (%d)\n", name,
		       ret);
		goto free_tgt;
	}
	scst_tgt->tgt_priv = tgt;
	tgt->scst_tgt = scst_tgt;
	list_add_tail(&tgt->entry, &scst_local_tgt_list);

	if (sess_name) {
		ret = scst_local_add_session(tgt, sess_name);
		if (ret)
			goto unregister_target;
	}
	pr_info("target %s added\n", name);
	return 0;

unregister_target:
	list_del(&tgt->entry);
	scst_unregister_target(scst_tgt);
free_tgt:
	kfree(tgt);
	return ret;
}

/**
 * scst_local_remove_target() - remove a target with all its sessions
 * @tgt: the target
 */
static void scst_local_remove_target(struct scst_local_tgt *tgt)
{
	struct scst_local_sess *sess, *tmp;

	lockdep_assert_held(&scst_local_mutex);

	list_for_each_entry_safe(sess, tmp, &tgt->sessions, entry)
		scst_local_remove_session(sess);
	list_del(&tgt->entry);
	pr_info("removing target %s\n", tgt->scst_tgt->name);
	scst_unregister_target(tgt->scst_tgt);
	kfree(tgt);
}

/**
 * scst_local_close_work_fn() - remove the sessions the core asked us to close
 * @work: scst_local_close_work
 */
static void scst_local_close_work_fn(struct work_struct *work)
{
	struct scst_local_sess *sess, *tmp;
	struct scst_local_tgt *tgt;

	mutex_lock(&scst_local_mutex);
	list_for_each_entry(tgt, &scst_local_tgt_list, entry)
		list_for_each_entry_safe(sess, tmp, &tgt->sessions, entry)
			if (test_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags))
				scst_local_remove_session(sess);
	mutex_unlock(&scst_local_mutex);
}

/**
 * scst_local_close_session() - the core asks us to close a session
 * @scst_sess: the session
 *
 * Does not sleep and takes no lock, whatever the core holds; both cases
 * end in a worker, which calls scst_unregister_session() after this
 * returns.
 *
 * The administrator's force_close: the reset worker replaces the session
 * by a new one on the same SCSI host (see "Locking" above). A request for
 * a session already being replaced is one for the new one, and is ignored.
 *
 * The target is being unregistered: from now on commands the core refuses
 * fail with DID_NO_CONNECT, and a worker removes the SCSI host and
 * unregisters the session. If a mgmt command or the module's exit removes
 * the session first, the worker finds nothing to do. The core calls it
 * from scst_unregister_target() (without scst_mutex) and then waits for
 * the target's sessions to be unregistered; we remove a target's sessions
 * ourselves before we unregister it, so this is a safety net.
 */
static void scst_local_close_session(struct scst_session *scst_sess)
{
	struct scst_local_sess *sess = scst_sess->tgt_priv;

	if (!scst_sess_tgt_unregistering(scst_sess)) {
		if (rcu_access_pointer(sess->scst_sess) == scst_sess)
			queue_work(system_long_wq, &sess->reset_work);
		return;
	}
	set_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags);
	queue_work(system_long_wq, &scst_local_close_work);
}

/* ---------------------------------------------------------------------- */
/* targets/scst_local/mgmt                                                */
/* ---------------------------------------------------------------------- */

/* Called with scst_local_mutex held by every mgmt command before it acts. */
static int scst_local_check_exiting(const char *cmd)
{
	lockdep_assert_held(&scst_local_mutex);
	if (scst_local_exiting) {
		pr_err("%s: the module is being unloaded\n", cmd);
		return -ENODEV;
	}
	return 0;
}

/**
 * scst_local_mgmt_add_target() - "add_target NAME [session_name=S]"
 * @name: NAME
 * @line: the parsed command, argv[0] being "add_target"
 *
 * Return: 0, -EINVAL for a bad argument, -EEXIST for an existing target or
 * another errno.
 */
static int scst_local_mgmt_add_target(const char *name,
				      const struct scst_mgmt_line *line)
{
	static const char *const params[] = { "session_name" };
	const char *bad;
	int ret;

	if (line->argc > 2) {
		pr_err("add_target %s: unexpected argument %s\n", name,
		       line->argv[2]);
		return -EINVAL;
	}
	if (scst_mgmt_check_params(line, params, ARRAY_SIZE(params), &bad)) {
		pr_err("add_target %s: unknown parameter %s\n", name, bad);
		return -EINVAL;
	}

	mutex_lock(&scst_local_mutex);
	ret = scst_local_check_exiting("add_target");
	if (!ret)
		ret = scst_local_add_target(name,
					    scst_mgmt_get_param(line,
								"session_name"));
	mutex_unlock(&scst_local_mutex);
	return ret;
}

/**
 * scst_local_mgmt_del_target() - "del_target NAME"
 * @name: NAME
 *
 * Return: 0 or -ENOENT.
 */
static int scst_local_mgmt_del_target(const char *name)
{
	struct scst_local_tgt *tgt;
	int ret;

	mutex_lock(&scst_local_mutex);
	ret = scst_local_check_exiting("del_target");
	if (ret)
		goto unlock;
	tgt = scst_local_find_tgt(name);
	if (!tgt) {
		pr_err("del_target: no target %s\n", name);
		ret = -ENOENT;
		goto unlock;
	}
	scst_local_remove_target(tgt);
unlock:
	mutex_unlock(&scst_local_mutex);
	return ret;
}

/**
 * scst_local_mgmt_cmd() - "add_session TGT SESS", "del_session TGT SESS"
 * @line: the parsed command
 *
 * The core hands us every command but add_target and del_target, and
 * passes our errno on as is; an unknown command is ours to refuse.
 * NEEDS-CORE: scst.h still says @mgmt_cmd returns -ENOENT for an unknown
 * command, which would clash with "no such target"; the core does not
 * treat -ENOENT specially, so only that sentence needs to go.
 *
 * Return: 0; -EINVAL for a bad command line; -ENOENT for an unknown target
 * or session; -EEXIST for an existing session; or another errno.
 */
static int scst_local_mgmt_cmd(const struct scst_mgmt_line *line)
{
	const char *cmd = line->argc ? line->argv[0] : "";
	struct scst_local_sess *sess;
	struct scst_local_tgt *tgt;
	bool add;
	int ret;

	if (!strcmp(cmd, "add_session")) {
		add = true;
	} else if (!strcmp(cmd, "del_session")) {
		add = false;
	} else {
		pr_err("unknown command %s\n", cmd);
		return -EINVAL;
	}
	if (line->argc < 3) {
		pr_err("%s: target and session names required\n", cmd);
		return -EINVAL;
	}
	if (line->argc > 3) {
		pr_err("%s: unexpected argument %s\n", cmd, line->argv[3]);
		return -EINVAL;
	}
	if (line->nparams) {
		pr_err("%s: unknown parameter %s\n", cmd, line->params[0].key);
		return -EINVAL;
	}
	if (add) {
		ret = scst_local_check_sess_name(line->argv[2]);
		if (ret)
			return ret;
	}

	mutex_lock(&scst_local_mutex);
	ret = scst_local_check_exiting(cmd);
	if (ret)
		goto unlock;
	tgt = scst_local_find_tgt(line->argv[1]);
	if (!tgt) {
		pr_err("%s: no target %s\n", cmd, line->argv[1]);
		ret = -ENOENT;
		goto unlock;
	}
	if (add) {
		ret = scst_local_add_session(tgt, line->argv[2]);
		goto unlock;
	}
	sess = scst_local_find_sess(tgt, line->argv[2]);
	if (!sess) {
		pr_err("%s: no session %s on target %s\n", cmd, line->argv[2],
		       line->argv[1]);
		ret = -ENOENT;
		goto unlock;
	}
	scst_local_remove_session(sess);
unlock:
	mutex_unlock(&scst_local_mutex);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* sysfs                                                                  */
/* ---------------------------------------------------------------------- */

/* targets/scst_local/stats: error handling counters, as SCST's */
static ssize_t scst_local_stats_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf,
			  "Aborts: %d, Device Resets: %d, Target Resets: %d, Host Resets: %d\n",
			  atomic_read(&scst_local_nr_aborts),
			  atomic_read(&scst_local_nr_lun_resets),
			  atomic_read(&scst_local_nr_target_resets),
			  atomic_read(&scst_local_nr_host_resets));
}

static struct kobj_attribute scst_local_stats_attr =
	__ATTR(stats, 0444, scst_local_stats_show, NULL);

static const struct attribute *scst_local_tgtt_attrs[] = {
	&scst_local_stats_attr.attr,
	NULL,
};

/*
 * targets/scst_local/<tgt>/sessions/<sess>/host: the SCSI host of the
 * session, "hostN" (/sys/class/scsi_host/hostN).
 *
 * The core sets sess->tgt_priv before the attributes appear and removes
 * them before scst_unregister_session(.., true, ..) returns; we free the
 * host only after that.
 */
static ssize_t scst_local_host_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	struct scst_local_sess *sess = scst_kobj_to_sess(kobj)->tgt_priv;

	if (!sess)
		return -ENODEV;
	return sysfs_emit(buf, "host%u\n", sess->shost->host_no);
}

static struct kobj_attribute scst_local_host_attr =
	__ATTR(host, 0444, scst_local_host_show, NULL);

static const struct attribute *scst_local_sess_attrs[] = {
	&scst_local_host_attr.attr,
	NULL,
};

/* scst_local targets need no enabling: they take sessions at once */
static bool scst_local_is_target_enabled(struct scst_tgt *tgt)
{
	return true;
}

static struct scst_tgt_template scst_local_tgtt = {
	.name			= SCST_LOCAL_NAME,
	/* we copy the data with the CPU: any scatterlist will do */
	.sg_tablesize		= 0,
	.xmit_response		= scst_local_xmit_response,
	.rdy_to_xfer		= scst_local_rdy_to_xfer,
	.task_mgmt_fn_done	= scst_local_task_mgmt_fn_done,
	.is_target_enabled	= scst_local_is_target_enabled,
	.close_session		= scst_local_close_session,
	.add_target		= scst_local_mgmt_add_target,
	.del_target		= scst_local_mgmt_del_target,
	.mgmt_cmd		= scst_local_mgmt_cmd,
	.mgmt_help		=
		"Usage: echo \"add_target target_name [session_name=name]\" >mgmt\n"
		"       echo \"del_target target_name\" >mgmt\n"
		"       echo \"add_session target_name session_name\" >mgmt\n"
		"       echo \"del_session target_name session_name\" >mgmt\n"
		"\nThe following parameters available: session_name",
	.tgtt_attrs		= scst_local_tgtt_attrs,
	.sess_attrs		= scst_local_sess_attrs,
	.owner			= THIS_MODULE,
};

/* ---------------------------------------------------------------------- */
/* Module                                                                 */
/* ---------------------------------------------------------------------- */

static int scst_local_check_params(void)
{
	if (!scst_local_can_queue || scst_local_can_queue > BLK_MQ_MAX_DEPTH) {
		pr_err("can_queue=%u: must be 1..%u\n", scst_local_can_queue,
		       (unsigned int)BLK_MQ_MAX_DEPTH);
		return -EINVAL;
	}
	if (!scst_local_cmd_per_lun ||
	    scst_local_cmd_per_lun > scst_local_can_queue) {
		pr_err("cmd_per_lun=%u: must be 1..can_queue (%u)\n",
		       scst_local_cmd_per_lun, scst_local_can_queue);
		return -EINVAL;
	}
	return 0;
}

static void scst_local_remove_all_targets(void)
{
	struct scst_local_tgt *tgt, *tmp;

	mutex_lock(&scst_local_mutex);
	scst_local_exiting = true;
	list_for_each_entry_safe(tgt, tmp, &scst_local_tgt_list, entry)
		scst_local_remove_target(tgt);
	mutex_unlock(&scst_local_mutex);
}

static int __init scst_local_init(void)
{
	int ret;

	ret = scst_local_check_params();
	if (ret)
		return ret;

	scst_local_root = root_device_register(SCST_LOCAL_NAME);
	if (IS_ERR(scst_local_root)) {
		ret = PTR_ERR(scst_local_root);
		pr_err("cannot register root device %s (%d)\n",
		       SCST_LOCAL_NAME, ret);
		return ret;
	}

	ret = scst_register_target_template(&scst_local_tgtt);
	if (ret)
		goto unregister_root;

	if (scst_local_add_default_tgt) {
		mutex_lock(&scst_local_mutex);
		ret = scst_local_add_target(SCST_LOCAL_DEFAULT_TGT,
					    SCST_LOCAL_DEFAULT_SESS);
		mutex_unlock(&scst_local_mutex);
		if (ret)
			goto unregister_template;
	}
	return 0;

unregister_template:
	scst_local_remove_all_targets();
	scst_unregister_target_template(&scst_local_tgtt);
	cancel_work_sync(&scst_local_close_work);
unregister_root:
	root_device_unregister(scst_local_root);
	return ret;
}

static void __exit scst_local_exit(void)
{
	/* refuse new mgmt commands, remove every host and target */
	scst_local_remove_all_targets();
	/* waits for mgmt writes in progress, which now fail at once */
	scst_unregister_target_template(&scst_local_tgtt);
	cancel_work_sync(&scst_local_close_work);
	root_device_unregister(scst_local_root);
}

module_init(scst_local_init);
module_exit(scst_local_exit);

MODULE_DESCRIPTION("SCST loopback target driver: local SCSI hosts for SCST targets");
MODULE_LICENSE("GPL");
