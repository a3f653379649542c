// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_local's command path: a scsi_cmnd of the midlayer becomes a command
 * of the core (queuecommand), its data moves between the two scatterlists
 * (->rdy_to_xfer(), ->xmit_response()) and it completes back to the
 * midlayer. See scst_local.h for the objects and their locking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/highmem.h>
#include <linux/scatterlist.h>
#include <linux/sched/mm.h>

#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

#include "scst_local.h"

/*
 * Contexts in which the core continues a command.
 *
 * SCST_LOCAL_CMD_CTX, for scst_cmd_init_done() from queuecommand: where
 * the kernel lets a SCSI host's queuecommand sleep (queuecommand_may_block,
 * 6.2+; blk-mq then holds SRCU, not RCU, around it), the core runs the
 * command right there, in the submitter's context, under
 * memalloc_noio_save() so that its buffer allocations cannot recurse into
 * I/O on our own disks: no worker wakeup and no context switch per command
 * (the two top costs of the queued path in make profile). Elsewhere, as
 * SCST_LOCAL_CTX.
 *
 * SCST_LOCAL_CTX, for scst_cmd_init_done()
 * on older kernels: queuecommand may not sleep (blk-mq calls it inside an
 * RCU read-side section) and ->xmit_response() may be called in atomic
 * context, so the core continues on a worker of this CPU (or, for a deep
 * queue, of another CPU, so the submitter keeps its own): one switch per
 * command, as with tcm_loop's target_queue_submission().
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
#ifdef SCST_HAVE_QUEUECOMMAND_MAY_BLOCK
#define SCST_LOCAL_CMD_CTX		SCST_CONTEXT_DIRECT
#else
#define SCST_LOCAL_CMD_CTX		SCST_LOCAL_CTX
#endif

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
 * Called by blk-mq in a context that may sleep where the kernel has
 * queuecommand_may_block (6.2+), otherwise in one that may not.
 *
 * Return: 0, or SCSI_MLQUEUE_HOST_BUSY when the core has no memory for the
 * command right now (the block layer retries it).
 */
int scst_local_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	struct scst_local_sess *sess = shost_priv(shost);
	struct scst_local_cmd *lcmd = scsi_cmd_priv(sc);
	struct scst_session *scst_sess;
	struct scst_cmd *cmd;
	struct scsi_lun lun;
	unsigned int noio;

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

	/*
	 * Inside a submit_bio() of the submitter (current->bio_list set: an
	 * unplugged direct issue) the handler's bios would only be parked
	 * until we return, and a handler allocating a second bio from a
	 * shared bio_set could then wait on memory forever: queue instead.
	 * From a plug flush or blk-mq's run work the list is not set.
	 */
	if (current->bio_list) {
		scst_cmd_init_done(cmd, SCST_LOCAL_CTX);
		return 0;
	}
	noio = memalloc_noio_save();
	scst_cmd_init_done(cmd, SCST_LOCAL_CMD_CTX);
	memalloc_noio_restore(noio);
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
int scst_local_rdy_to_xfer(struct scst_cmd *cmd)
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
int scst_local_xmit_response(struct scst_cmd *cmd)
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
	scst_tgt_cmd_done(cmd);
	return 0;
}
