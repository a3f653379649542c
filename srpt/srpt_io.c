// SPDX-License-Identifier: GPL-2.0-only
/*
 * srpt_io.c - the SRP data path: receiving IUs, SRP_CMD (SRP r16a 6.8),
 * data-out by RDMA READ or immediate data (SRP-2), data-in by RDMA WRITE
 * chained with the SRP_RSP (6.9) SEND, and credits (req_lim_delta).
 *
 * A command's life, in its send context (struct srpt_send_ioctx):
 *
 *   srpt_recv_done()        SRP_CMD parsed and checked, handed to the core
 *                           (scst_rx_cmd(), scst_cmd_init_done()); its
 *                           receive buffer is reposted at once unless it
 *                           holds immediate data or many descriptors
 *   srpt_rdy_to_xfer()      data-out: copy the immediate data, or post the
 *                           RDMA READs (one rdma_rw context per
 *                           descriptor, over its window of cmd->sg)
 *   srpt_fetch_table()      (an indirect descriptor table the IU holds only
 *                           part of: RDMA READ it first, SRP r16a 5.5.3;
 *                           srpt_table_read_done() checks it and goes on)
 *   srpt_rdma_read_done()   scst_rx_data()
 *   srpt_xmit_response()    post the RDMA WRITEs of cmd->resp_len bytes of
 *                           data-in and the SEND of SRP_RSP in one chain
 *   srpt_send_done()        scst_tgt_cmd_done()
 *
 * A command the core aborted reaches srpt_xmit_response() too: no
 * response is sent (the initiator aborted it, or the nexus is gone), its
 * credit is returned with the next response.
 *
 * Posting: work requests are posted only while the channel is LIVE, which
 * is checked under rcu_read_lock(); the release work moves the channel on
 * and waits for an RCU grace period before it drains the QP, so every
 * work request posted completes before the drain does. The send queue is
 * accounted in ch->sq_wr_avail: every post (RDMA READs of data-out or of
 * a descriptor table, RDMA WRITEs with their SEND, a response alone) takes
 * its entries there and its completion gives them back. A post that does
 * not fit, or finds others waiting, waits on ch->sq_wait, in order, until
 * completions free room. A command that could never fit (more descriptors
 * than the send queue has entries, e.g. after the QP was created smaller)
 * is refused with CHECK CONDITION instead of waiting at the head of the
 * list forever (srpt_handle_cmd(), srpt_sq_fits()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/scatterlist.h>
#include <linux/highmem.h>
#include <linux/error-injection.h>

#include "ib_srpt.h"

static void srpt_ioctx_work(struct work_struct *work);

/* ---------------------------------------------------------------------- */
/* Send contexts, receive buffers, credits                                */
/* ---------------------------------------------------------------------- */

/**
 * srpt_ioctx_init() - initialize a send context once, at allocation
 * @ioctx: the context
 */
void srpt_ioctx_init(struct srpt_send_ioctx *ioctx)
{
	ioctx->send_cqe.done = srpt_send_done;
	ioctx->rdma_cqe.done = srpt_rdma_read_done;
	ioctx->table_cqe.done = srpt_table_read_done;
	ioctx->state = SRPT_IOCTX_FREE;
	INIT_WORK(&ioctx->work, srpt_ioctx_work);
	INIT_LIST_HEAD(&ioctx->wait_entry);
}

/*
 * The context to hand a command to the core in. Every caller runs in the
 * channel's completion context, with no lock held: the CQ pool's
 * IB_POLL_WORKQUEUE work (srpt_ch_create_cq()) or the target's thread,
 * which polls its channels' CQs (thread mode). That is process context,
 * where the core may carry the command on at once instead of queueing it
 * to a worker of this CPU.
 */
static enum scst_exec_context srpt_core_context(void)
{
	return SCST_CONTEXT_DIRECT;
}

/**
 * srpt_get_send_ioctx() - take a free send context of a channel
 * @ch: the channel
 *
 * Return: the context, or NULL if all are in use.
 */
struct srpt_send_ioctx *srpt_get_send_ioctx(struct srpt_rdma_ch *ch)
{
	struct srpt_send_ioctx *ioctx;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	ioctx = list_first_entry_or_null(&ch->free_list,
					 struct srpt_send_ioctx, wait_entry);
	if (ioctx)
		list_del_init(&ioctx->wait_entry);
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!ioctx)
		return NULL;

	ioctx->state = SRPT_IOCTX_NEW;
	ioctx->cmd = NULL;
	ioctx->recv = NULL;
	ioctx->tag = 0;
	ioctx->sol_not = 0;
	ioctx->dir = SRP_IU_DIR_NONE;
	ioctx->data_len = 0;
	ioctx->ndesc = 0;
	ioctx->ext_table = NULL;
	ioctx->ext_ready = false;
	ioctx->ext_failed = false;
	ioctx->ext_dma = 0;
	ioctx->rw_ctxs = NULL;
	ioctx->n_rw_ctx = 0;
	ioctx->n_wr = 0;
	ioctx->rsp_len = 0;
	return ioctx;
}

/**
 * srpt_put_send_ioctx() - give a send context back to its channel
 * @ioctx: the context; its RDMA contexts and receive buffer are released
 */
void srpt_put_send_ioctx(struct srpt_send_ioctx *ioctx)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	unsigned long flags;

	ioctx->state = SRPT_IOCTX_FREE;
	ioctx->cmd = NULL;
	kfree(ioctx->ext_table);
	ioctx->ext_table = NULL;
	spin_lock_irqsave(&ch->lock, flags);
	list_add_tail(&ioctx->wait_entry, &ch->free_list);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/**
 * srpt_repost_recv() - give a receive buffer back to the HCA
 * @recv: the buffer
 *
 * A buffer of a closing channel is not posted any more: it is freed with
 * the channel. SRQ buffers are always reposted.
 */
void srpt_repost_recv(struct srpt_recv_ioctx *recv)
{
	struct srpt_rdma_ch *ch = recv->ch;
	int ret = 0;

	if (!ch) {
		ret = srpt_post_recv(recv);
	} else {
		rcu_read_lock();
		if (srpt_ch_state(ch) <= SRPT_CH_LIVE)
			ret = srpt_post_recv(recv);
		rcu_read_unlock();
	}
	if (ret)
		pr_err_ratelimited("reposting a receive buffer failed (%d)\n",
				   ret);
}

/**
 * srpt_put_recv() - release the receive buffer a command still holds
 * @ioctx: the command's send context
 */
void srpt_put_recv(struct srpt_send_ioctx *ioctx)
{
	struct srpt_recv_ioctx *recv = ioctx->recv;

	if (!recv)
		return;
	ioctx->recv = NULL;
	srpt_repost_recv(recv);
}

/*
 * REQUEST LIMIT DELTA of a response: its own credit and those of the
 * commands that ended without a response (SRP r16a 5.6).
 */
static s32 srpt_take_credits(struct srpt_rdma_ch *ch)
{
	s32 delta = 1 + atomic_xchg(&ch->req_lim_delta, 0);

	atomic_add(delta, &ch->req_lim);
	return delta;
}

/* ---------------------------------------------------------------------- */
/* RDMA contexts                                                          */
/* ---------------------------------------------------------------------- */

/* srp_sg_window()'s walk over a scatterlist */
static u32 srpt_sg_next_len(void *it)
{
	struct scatterlist **s = it;
	u32 len = (*s)->length;

	*s = sg_next(*s);
	return len;
}

/*
 * A scatterlist for bytes [@off, @off + @len) of @sg. A window that is the
 * first entries of @sg exactly is @sg itself; any other is a new list
 * pointing at the same pages. Process context.
 */
static int srpt_sg_window(struct scatterlist *sg, u32 nents, u32 off,
			  u32 len, struct srpt_rw_ctx *ctx)
{
	struct scatterlist *s = sg, *out;
	struct srp_sg_win w;
	u32 pos = 0, i;
	int ret;

	ret = srp_sg_window(nents, srpt_sg_next_len, &s, off, len, &w);
	if (ret)
		return ret;
	if (w.whole) {
		ctx->sg = sg;
		ctx->nents = w.nents;
		ctx->sg_owned = false;
		return 0;
	}

	/* nents follows the command's (clipped) transfer: maybe many pages */
	out = kvmalloc_array(w.nents, sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	sg_init_table(out, w.nents);
	for (i = 0, s = sg; i < w.first; i++)
		s = sg_next(s);
	for (i = 0; i < w.nents; i++, s = sg_next(s)) {
		u32 o = s->offset + (i ? 0 : w.first_off);
		u32 l = min_t(u32, s->length - (i ? 0 : w.first_off), len - pos);

		sg_set_page(&out[i], nth_page(sg_page(s), o >> PAGE_SHIFT), l,
			    offset_in_page(o));
		pos += l;
	}
	ctx->sg = out;
	ctx->nents = w.nents;
	ctx->sg_owned = true;
	return 0;
}

/*
 * Descriptor @idx of the command: from the table fetched from the
 * initiator, a copy, or read from its IU.
 */
static int srpt_get_desc(struct srpt_send_ioctx *ioctx, u32 idx,
			 struct srpt_desc *d)
{
	if (ioctx->ext_ready)
		return srp_desc_get(ioctx->ext_table, ioctx->ci.table_len, idx,
				    &d->va, &d->rkey, &d->len);
	if (ioctx->ndesc) {
		if (idx >= ioctx->ndesc)
			return -EINVAL;
		*d = ioctx->desc[idx];
		return 0;
	}
	if (!ioctx->recv)
		return -EINVAL;
	return srp_cmd_desc(ioctx->recv->buf, &ioctx->ci, idx, &d->va,
			    &d->rkey, &d->len);
}

static u32 srpt_desc_count(struct srpt_send_ioctx *ioctx)
{
	if (ioctx->ext_ready)
		return ioctx->ci.table_ndesc;
	return ioctx->ndesc ? ioctx->ndesc :
	       ioctx->recv ? ioctx->ci.ndesc : 0;
}

/* The descriptor table must be fetched before the data can move. */
static bool srpt_need_table(struct srpt_send_ioctx *ioctx)
{
	return ioctx->ci.table_external && !ioctx->ext_ready &&
	       !ioctx->ext_failed;
}

/**
 * srpt_free_rw_ctxs() - destroy a command's RDMA contexts
 * @ioctx: the command's send context
 *
 * Unmaps the buffer (a data-out buffer becomes visible to the CPU).
 */
static void srpt_free_rw_ctxs(struct srpt_send_ioctx *ioctx)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	u32 i;

	for (i = 0; i < ioctx->n_rw_ctx; i++) {
		struct srpt_rw_ctx *ctx = &ioctx->rw_ctxs[i];

		rdma_rw_ctx_destroy(&ctx->rw, ch->qp, ch->port_num, ctx->sg,
				    ctx->nents, ioctx->rw_dir);
		if (ctx->sg_owned)
			kvfree(ctx->sg);
	}
	if (ioctx->rw_ctxs != &ioctx->s_rw_ctx)
		kvfree(ioctx->rw_ctxs);
	ioctx->rw_ctxs = NULL;
	ioctx->n_rw_ctx = 0;
}

/*
 * Set up the RDMA READs (@dir DMA_FROM_DEVICE) or WRITEs (DMA_TO_DEVICE)
 * that move the first @xfer bytes of the command's buffer to or from the
 * initiator's descriptors, in order: one rdma_rw context per descriptor
 * over its window of cmd->sg. Descriptors are clipped to @xfer (what the
 * command transfers, never more than cmd->sg holds): a descriptor longer
 * than that, or descriptors past it, cost nothing. Process context.
 * Returns the number of send queue entries the contexts need, or a
 * negative errno.
 */
static noinline int srpt_alloc_rw_ctxs(struct srpt_send_ioctx *ioctx,
				       u32 xfer, enum dma_data_direction dir)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	struct scst_cmd *cmd = ioctx->cmd;
	u32 ndesc = srpt_desc_count(ioctx), needed = 0, left, off, i, k;
	struct srpt_desc d;
	int ret, n_wr = 0;

	/* how many descriptors the transfer touches */
	for (i = 0, left = xfer; i < ndesc && left; i++) {
		if (srpt_get_desc(ioctx, i, &d))
			return -EINVAL;
		if (d.len) {
			needed++;
			left -= min(left, d.len);
		}
	}
	if (left || !needed)
		return -EINVAL;

	if (needed == 1) {
		ioctx->rw_ctxs = &ioctx->s_rw_ctx;
	} else {
		/* up to SRPT_MAX_DESC contexts: too large for kmalloc */
		ioctx->rw_ctxs = kvcalloc(needed, sizeof(*ioctx->rw_ctxs),
					  GFP_KERNEL);
		if (!ioctx->rw_ctxs)
			return -ENOMEM;
	}
	ioctx->rw_dir = dir;
	ioctx->n_rw_ctx = 0;

	for (i = 0, k = 0, off = 0, left = xfer; k < needed; i++) {
		struct srpt_rw_ctx *ctx = &ioctx->rw_ctxs[k];
		u32 chunk;

		srpt_get_desc(ioctx, i, &d);
		chunk = min(left, d.len);
		if (!chunk)
			continue;
		ret = srpt_sg_window(cmd->sg, cmd->sg_cnt, off, chunk, ctx);
		if (ret)
			goto unwind;
		ret = rdma_rw_ctx_init(&ctx->rw, ch->qp, ch->port_num, ctx->sg,
				       ctx->nents, 0, d.va, d.rkey, dir);
		if (ret < 0) {
			if (ctx->sg_owned)
				kvfree(ctx->sg);
			goto unwind;
		}
		n_wr += ret;
		ioctx->n_rw_ctx = ++k;
		off += chunk;
		left -= chunk;
	}
	return n_wr;

unwind:
	srpt_free_rw_ctxs(ioctx);
	return ret;
}

ALLOW_ERROR_INJECTION(srpt_alloc_rw_ctxs, ERRNO);

/* ---------------------------------------------------------------------- */
/* Posting                                                                */
/* ---------------------------------------------------------------------- */

/*
 * Post the work requests of @ioctx while the channel is LIVE: for a
 * command fetching its descriptor table the RDMA READ of the table, for
 * one waiting for data-out its RDMA READs, otherwise its RDMA WRITEs (if
 * any) chained before the SEND of its response. Returns 0 when they are
 * posted, or when only their first ones were (the rest failed; the
 * channel closes and the command ends after the drain); an errno when
 * none was: the caller ends the command.
 */
static int srpt_do_post(struct srpt_send_ioctx *ioctx)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	const struct ib_send_wr *bad_wr = NULL;
	struct ib_send_wr *first = NULL;
	unsigned long flags;
	int i, ret;

	if (ioctx->state == SRPT_IOCTX_FETCH_TABLE) {
		first = &ioctx->table_wr.wr;
	} else if (ioctx->state != SRPT_IOCTX_NEED_DATA) {
		ioctx->sge.addr = ioctx->dma;
		ioctx->sge.length = ioctx->rsp_len;
		ioctx->sge.lkey = ch->sdev->lkey;
		ioctx->send_wr.next = NULL;
		ioctx->send_wr.wr_cqe = &ioctx->send_cqe;
		ioctx->send_wr.sg_list = &ioctx->sge;
		ioctx->send_wr.num_sge = 1;
		ioctx->send_wr.opcode = IB_WR_SEND;
		ioctx->send_wr.send_flags = IB_SEND_SIGNALED;
		first = &ioctx->send_wr;
		ib_dma_sync_single_for_device(ch->sdev->device, ioctx->dma,
					      ioctx->rsp_len, DMA_TO_DEVICE);
	}
	for (i = (int)ioctx->n_rw_ctx - 1; i >= 0; i--)
		first = rdma_rw_ctx_wrs(&ioctx->rw_ctxs[i].rw, ch->qp,
					ch->port_num,
					first ? NULL : &ioctx->rdma_cqe, first);

	rcu_read_lock();
	if (srpt_ch_state(ch) == SRPT_CH_LIVE)
		ret = ib_post_send(ch->qp, first, &bad_wr);
	else
		ret = -ENOTCONN;
	if (unlikely(ret && ret != -ENOTCONN && bad_wr && bad_wr != first)) {
		/*
		 * The work requests before @bad_wr were posted and may still
		 * move data from or into the buffer: it must not be unmapped
		 * or freed (a page stash would hand it to another command)
		 * before the drain. The one that is signalled is the last,
		 * never posted: no completion comes for this context. Parked
		 * inside the RCU read section, which the release work waits
		 * for before it drains and flushes the list.
		 */
		spin_lock_irqsave(&ch->lock, flags);
		list_add_tail(&ioctx->wait_entry, &ch->post_partial);
		spin_unlock_irqrestore(&ch->lock, flags);
	}
	rcu_read_unlock();
	if (likely(!ret) || ret == -ENOTCONN)
		return ret;
	pr_err_ratelimited("%s: posting a send failed (%d)\n", ch->name, ret);
	srpt_ch_close_async(ch);
	return bad_wr && bad_wr != first ? 0 : ret;
}

/* Undo srpt_fetch_table()'s buffer; the command goes on without it. */
static void srpt_table_release(struct srpt_send_ioctx *ioctx)
{
	struct srpt_rdma_ch *ch = ioctx->ch;

	ib_dma_unmap_single(ch->sdev->device, ioctx->ext_dma,
			    ioctx->ci.table_len, DMA_FROM_DEVICE);
	ioctx->ext_dma = 0;
	kfree(ioctx->ext_table);
	ioctx->ext_table = NULL;
	ioctx->ext_failed = true;
	ioctx->state = SRPT_IOCTX_NEW;
}

/* A command whose work requests will not be posted: finish it. */
static void srpt_ioctx_unsent(struct srpt_send_ioctx *ioctx)
{
	struct scst_cmd *cmd = ioctx->cmd;

	switch (ioctx->state) {
	case SRPT_IOCTX_FETCH_TABLE:
		/* continues, and ends, in srpt_ioctx_work() */
		srpt_table_release(ioctx);
		queue_work(srpt_wq, &ioctx->work);
		break;
	case SRPT_IOCTX_NEED_DATA:
		srpt_free_rw_ctxs(ioctx);
		ioctx->state = SRPT_IOCTX_DATA_IN;
		scst_rx_data(cmd, -ECONNABORTED, SCST_CONTEXT_ATOMIC);
		break;
	case SRPT_IOCTX_RSP_SENT:
		srpt_free_rw_ctxs(ioctx);
		srpt_put_recv(ioctx);
		srpt_put_send_ioctx(ioctx);
		scst_tgt_cmd_done(cmd);
		break;
	default:
		srpt_put_send_ioctx(ioctx);
		break;
	}
}

/**
 * srpt_sq_fits() - can @n_wr work requests of one command ever be posted
 * @ch: the channel
 * @n_wr: send queue entries they need
 *
 * Return: true if the send queue has that many entries when it is idle.
 */
static bool srpt_sq_fits(const struct srpt_rdma_ch *ch, u32 n_wr)
{
	return n_wr <= ch->sq_wr_max;
}

/* Take @n send queue entries; false, changing nothing, if they are not free. */
static bool srpt_sq_take(struct srpt_rdma_ch *ch, u32 n)
{
	if (atomic_sub_return(n, &ch->sq_wr_avail) >= 0)
		return true;
	atomic_add(n, &ch->sq_wr_avail);
	return false;
}

/*
 * Post or queue the work requests of @ioctx (@ioctx->n_wr entries). They
 * wait behind those already waiting, so that a command needing many
 * entries is not overtaken forever. A failure to post finishes the
 * command at once.
 */
static void srpt_post(struct srpt_send_ioctx *ioctx)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	unsigned long flags;
	bool queued = false;

	if (unlikely(!srpt_sq_fits(ch, ioctx->n_wr))) {
		/* the callers check this: a command must never wait for it */
		pr_err_ratelimited("%s: tag 0x%llx needs %u send queue entries of %u; dropped\n",
				   ch->name, ioctx->tag, ioctx->n_wr,
				   ch->sq_wr_max);
		srpt_ioctx_unsent(ioctx);
		return;
	}
	if (likely(list_empty_careful(&ch->sq_wait)) &&
	    srpt_sq_take(ch, ioctx->n_wr)) {
		if (srpt_do_post(ioctx)) {
			atomic_add(ioctx->n_wr, &ch->sq_wr_avail);
			srpt_ioctx_unsent(ioctx);
		}
		return;
	}
	spin_lock_irqsave(&ch->lock, flags);
	if (ch->state == SRPT_CH_LIVE) {
		list_add_tail(&ioctx->wait_entry, &ch->sq_wait);
		queued = true;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!queued) {
		srpt_ioctx_unsent(ioctx);
		return;
	}
	pr_debug("%s: send queue full; tag 0x%llx waits for %u entries\n",
		 ch->name, ioctx->tag, ioctx->n_wr);
	/* room may have come meanwhile */
	srpt_process_sq_wait(ch);
}

/**
 * srpt_process_sq_wait() - post what waits for send queue room
 * @ch: the channel
 *
 * Any context; called after completions returned send queue entries.
 */
void srpt_process_sq_wait(struct srpt_rdma_ch *ch)
{
	struct srpt_send_ioctx *ioctx;
	unsigned long flags;

	if (list_empty_careful(&ch->sq_wait))
		return;
	for (;;) {
		spin_lock_irqsave(&ch->lock, flags);
		ioctx = list_first_entry_or_null(&ch->sq_wait,
						 struct srpt_send_ioctx,
						 wait_entry);
		if (ioctx && !srpt_sq_take(ch, ioctx->n_wr))
			ioctx = NULL;
		if (ioctx)
			list_del_init(&ioctx->wait_entry);
		spin_unlock_irqrestore(&ch->lock, flags);
		if (!ioctx)
			return;
		if (srpt_do_post(ioctx)) {
			atomic_add(ioctx->n_wr, &ch->sq_wr_avail);
			srpt_ioctx_unsent(ioctx);
		}
	}
}

/**
 * srpt_post_send_iu() - send an IU built in a send context's buffer
 * @ioctx: the context, in state MGMT_RSP_SENT, LOCAL_RSP_SENT or
 *	LOGOUT_SENT
 * @len: length of the IU
 *
 * The context returns to the free list when the SEND completes, or at
 * once if it cannot be posted.
 *
 * Return: 0 (posted or queued) or -ENOTCONN.
 */
int srpt_post_send_iu(struct srpt_send_ioctx *ioctx, u32 len)
{
	ioctx->rsp_len = len;
	ioctx->n_rw_ctx = 0;
	ioctx->n_wr = 1;
	if (srpt_ch_state(ioctx->ch) != SRPT_CH_LIVE) {
		srpt_put_send_ioctx(ioctx);
		return -ENOTCONN;
	}
	srpt_post(ioctx);
	return 0;
}

/**
 * srpt_send_t_logout() - tell the initiator the target logs it out
 * @ch: the channel
 * @reason: SRP_IU_TLO_* (SRP r16a 6.6 table 23)
 *
 * The channel is disconnected when the SEND completes: disconnecting
 * earlier moves the QP to error and flushes the IU before the initiator
 * sees it. The caller bounds the wait (srpt_ch_close_after()).
 *
 * Return: 0 if SRP_T_LOGOUT was posted.
 */
static int srpt_send_t_logout(struct srpt_rdma_ch *ch, u32 reason)
{
	struct srpt_send_ioctx *ioctx;
	int len;

	if (srpt_ch_state(ch) != SRPT_CH_LIVE)
		return -ENOTCONN;
	ioctx = srpt_get_send_ioctx(ch);
	if (!ioctx)
		return -ENOMEM;
	len = srp_build_t_logout(ioctx->buf, ch->max_rsp_len, 0, reason, 0);
	if (len < 0) {
		srpt_put_send_ioctx(ioctx);
		return len;
	}
	ioctx->state = SRPT_IOCTX_LOGOUT_SENT;
	return srpt_post_send_iu(ioctx, len);
}

/*
 * How long a channel may wait for its SRP_T_LOGOUT to be delivered: an
 * initiator that posts no receive buffer would hold it forever (our QPs
 * retry RNR NAKs without limit).
 */
#define SRPT_T_LOGOUT_TIMEOUT	HZ

/**
 * srpt_logout_and_close() - log the initiator out and disconnect
 * @ch: the channel
 * @reason: SRP_IU_TLO_* (SRP r16a 6.6 table 23)
 *
 * Disconnects once SRP_T_LOGOUT is delivered, after SRPT_T_LOGOUT_TIMEOUT
 * at the latest, or at once if it could not be posted.
 */
void srpt_logout_and_close(struct srpt_rdma_ch *ch, u32 reason)
{
	/* armed first: the SEND may complete before we get further */
	srpt_ch_close_after(ch, SRPT_T_LOGOUT_TIMEOUT);
	if (srpt_send_t_logout(ch, reason))
		srpt_ch_close_async(ch);
}

/*
 * Answer a request ourselves, without the core: CHECK CONDITION with
 * @sense_code for a malformed SRP_CMD, BUSY without memory for it.
 */
static void srpt_send_local_rsp(struct srpt_send_ioctx *ioctx, u8 status,
				u32 sense_code)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	u8 sense[SCST_SENSE_FIXED_LEN];
	s64 resid_in, resid_out;
	int sense_len = 0, len;

	if (sense_code)
		sense_len = scst_build_sense_code(sense, sizeof(sense), false,
						  sense_code);
	srp_rsp_resid(ioctx->dir, false, ioctx->data_len, &resid_in,
		      &resid_out);
	len = srp_build_rsp(ioctx->buf, ch->max_rsp_len, ioctx->tag,
			    srpt_take_credits(ch), status, sense,
			    max(sense_len, 0), resid_in, resid_out,
			    SRP_IU_NO_RSP_DATA);
	if (len < 0) {
		srpt_put_send_ioctx(ioctx);
		return;
	}
	((u8 *)ioctx->buf)[1] |= srp_rsp_solnt(ioctx->sol_not, false);
	ioctx->state = SRPT_IOCTX_LOCAL_RSP_SENT;
	srpt_post_send_iu(ioctx, len);
}

/* ---------------------------------------------------------------------- */
/* Receiving                                                              */
/* ---------------------------------------------------------------------- */

static enum scst_queue_type srpt_queue_type(u8 task_attr)
{
	switch (task_attr) {
	case SRP_IU_TASK_HEAD_OF_QUEUE:
		return SCST_CMD_QUEUE_HEAD_OF_QUEUE;
	case SRP_IU_TASK_ORDERED:
		return SCST_CMD_QUEUE_ORDERED;
	case SRP_IU_TASK_ACA:
		return SCST_CMD_QUEUE_ACA;
	case SRP_IU_TASK_SIMPLE:
	default:
		return SCST_CMD_QUEUE_SIMPLE;
	}
}

static enum scst_data_direction srpt_scst_dir(u8 dir)
{
	switch (dir) {
	case SRP_IU_DIR_WRITE:
		return SCST_DATA_WRITE;
	case SRP_IU_DIR_READ:
		return SCST_DATA_READ;
	default:
		return SCST_DATA_NONE;
	}
}

/*
 * A write's immediate data, placed at SRPT_IMM_ALIGN in a channel's
 * receive buffer (srpt_alloc_recv_ring()), becomes the command's data
 * buffer as it is, as LIO's ib_srpt does: no page to allocate, no copy.
 * The core takes it when the CDB's transfer is exactly the data's length
 * (scst_cmd_set_tgt_sg()); the buffer then stays ours until the response
 * (srpt_do_xmit()) or the command's end without one (srpt_cmd_drop()),
 * and is reposted only after the backend is done with it. The SRQ's
 * buffers are shared by every channel of the device: one held through a
 * slow backend's execution would leave the others short of receives, so
 * their data is copied (srpt_do_rdy_to_xfer()), as is data that is not
 * aligned (512 bytes: what LIO's ib_srpt gives its backends too), and the
 * core copies it into its own pages for a device that needs more
 * (scst_device.dma_align_mask).
 */
static void srpt_offer_imm_data(struct srpt_send_ioctx *ioctx)
{
	void *data = ioctx->recv->buf + ioctx->ci.imm_offset;

	if (!ioctx->recv->ch || ioctx->ci.dir != SRP_IU_DIR_WRITE ||
	    !ioctx->ci.imm_len ||
	    !IS_ALIGNED((unsigned long)data, SRPT_IMM_ALIGN))
		return;
	sg_init_one(&ioctx->imm_sg, data, ioctx->ci.imm_len);
	scst_cmd_set_tgt_sg(ioctx->cmd, &ioctx->imm_sg, 1);
}

/* SRP_CMD: check it and hand it to the core. */
static void srpt_handle_cmd(struct srpt_rdma_ch *ch,
			    struct srpt_recv_ioctx *recv,
			    struct srpt_send_ioctx *ioctx)
{
	u32 byte_len = recv->byte_len;
	struct srp_cmd_info ci;
	struct srp_cmd_err err;
	struct scst_cmd *cmd;
	u32 i, max_desc;

	if (srp_parse_cmd(recv->buf, byte_len, ch->imm_data_offset, &ci,
			  &err)) {
		/* an SRQ buffer may be reused at once: nothing of it after */
		srpt_repost_recv(recv);
		if (!err.sense_code) {
			/* not even a TAG to answer to */
			pr_err_ratelimited("%s: SRP_CMD of %u bytes dropped; closing the channel\n",
					   ch->name, byte_len);
			srpt_put_send_ioctx(ioctx);
			srpt_ch_close_async(ch);
			return;
		}
		pr_warn_ratelimited("%s: SRP_CMD tag 0x%llx refused: %s (byte %u)\n",
				    ch->name, ci.tag,
				    srp_cmd_err_str(err.reason), err.offset);
		ioctx->tag = ci.tag;
		ioctx->sol_not = ci.sol_not;
		srpt_send_local_rsp(ioctx, SCST_STATUS_CHECK_CONDITION,
				    err.sense_code);
		return;
	}
	ioctx->tag = ci.tag;
	ioctx->sol_not = ci.sol_not;
	ioctx->dir = ci.dir;
	ioctx->data_len = ci.data_len;

	/*
	 * Each descriptor costs an RDMA context and at least one send queue
	 * entry; the response needs one more. Refuse what could never be
	 * posted before the core allocates anything for it.
	 */
	max_desc = min_t(u32, SRPT_MAX_DESC, ch->sq_wr_max - 1);
	if (srp_cmd_check_desc(&ci, max_desc, &err)) {
		pr_warn_ratelimited("%s: SRP_CMD tag 0x%llx refused: %u descriptors, at most %u (byte %u)\n",
				    ch->name, ci.tag, srp_cmd_ndesc(&ci),
				    max_desc, err.offset);
		srpt_repost_recv(recv);
		srpt_send_local_rsp(ioctx, SCST_STATUS_CHECK_CONDITION,
				    err.sense_code);
		return;
	}

	cmd = scst_rx_cmd(ch->sess, ci.lun, sizeof(ci.lun), ci.cdb, ci.cdb_len,
			  GFP_ATOMIC);
	if (!cmd) {
		srpt_repost_recv(recv);
		srpt_send_local_rsp(ioctx, SCST_STATUS_BUSY, 0);
		return;
	}
	scst_cmd_set_tag(cmd, ci.tag);
	scst_cmd_set_expected(cmd, srpt_scst_dir(ci.dir), ci.data_len);
	scst_cmd_set_queue_type(cmd, srpt_queue_type(ci.task_attr));
	cmd->tgt_priv = ioctx;
	ioctx->cmd = cmd;
	ioctx->state = SRPT_IOCTX_NEW;

	ioctx->ci = ci;
	if (ci.table_external) {
		/* the whole table is fetched when the data moves */
		ioctx->ci.cdb = NULL;
		srpt_repost_recv(recv);
	} else if (ci.imm || ci.ndesc > SRPT_INLINE_DESC) {
		/* the IU holds what the command needs later */
		ioctx->recv = recv;
		if (ci.imm)
			srpt_offer_imm_data(ioctx);
	} else {
		for (i = 0; i < ci.ndesc; i++) {
			struct srpt_desc *d = &ioctx->desc[i];

			srp_cmd_desc(recv->buf, &ci, i, &d->va, &d->rkey,
				     &d->len);
		}
		ioctx->ndesc = ci.ndesc;
		srpt_repost_recv(recv);
	}
	scst_cmd_init_done(cmd, srpt_core_context());
}

/*
 * Process one IU. Return false when it must wait for a free send context;
 * it is then still the caller's.
 */
static bool srpt_handle_iu(struct srpt_rdma_ch *ch,
			   struct srpt_recv_ioctx *recv)
{
	u32 byte_len = recv->byte_len;
	int opcode = srp_iu_opcode(recv->buf, byte_len);
	struct srpt_send_ioctx *ioctx;
	u32 reason;

	switch (opcode) {
	case SRP_IU_CMD:
	case SRP_IU_TSK_MGMT:
		ioctx = srpt_get_send_ioctx(ch);
		if (!ioctx)
			return false;
		atomic_dec(&ch->req_lim);
		if (opcode == SRP_IU_CMD)
			srpt_handle_cmd(ch, recv, ioctx);
		else
			srpt_handle_tsk_mgmt(ch, recv, ioctx);
		return true;
	case SRP_IU_I_LOGOUT:
		/* SRP r16a 6.5: the initiator ends the channel */
		pr_info("%s: SRP_I_LOGOUT\n", ch->name);
		srpt_repost_recv(recv);
		srpt_ch_close_async(ch);
		return true;
	case SRP_IU_CRED_RSP:
	case SRP_IU_AER_RSP:
		srpt_repost_recv(recv);
		return true;
	default:
		/*
		 * SRP r16a 6.6, SRP_T_LOGOUT reasons: an IU of a type a
		 * target does not accept, or one too short for its type.
		 */
		reason = opcode == -EINVAL ? SRP_IU_TLO_INVALID_IU_LEN :
					     SRP_IU_TLO_INVALID_IU_TYPE;
		pr_err_ratelimited("%s: %s IU (type 0x%02x, %u bytes); logging the initiator out\n",
				   ch->name,
				   reason == SRP_IU_TLO_INVALID_IU_LEN ?
				   "truncated" : "unexpected",
				   byte_len ? ((u8 *)recv->buf)[0] : 0, byte_len);
		srpt_repost_recv(recv);
		srpt_logout_and_close(ch, reason);
		return true;
	}
}

/**
 * srpt_process_recv_wait() - process the IUs that waited
 * @ch: the channel, LIVE
 *
 * In the channel's completion context only.
 */
void srpt_process_recv_wait(struct srpt_rdma_ch *ch)
{
	struct srpt_recv_ioctx *recv;

	while (srpt_ch_state(ch) == SRPT_CH_LIVE) {
		recv = list_first_entry_or_null(&ch->recv_wait,
						struct srpt_recv_ioctx,
						wait_entry);
		if (!recv)
			return;
		list_del_init(&recv->wait_entry);
		if (!srpt_handle_iu(ch, recv)) {
			list_add(&recv->wait_entry, &ch->recv_wait);
			return;
		}
	}
}

/**
 * srpt_recv_done() - an IU arrived
 * @cq: the CQ
 * @wc: its work completion
 *
 * In the channel's completion context. IUs are processed in the order
 * they arrived: one that finds others waiting waits behind them.
 */
void srpt_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srpt_rdma_ch *ch = wc->qp->qp_context;
	struct srpt_recv_ioctx *recv = container_of(wc->wr_cqe,
						    struct srpt_recv_ioctx,
						    cqe);
	enum srpt_ch_state state = srpt_ch_state(ch);

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		if (wc->status != IB_WC_WR_FLUSH_ERR ||
		    state == SRPT_CH_LIVE) {
			pr_info_ratelimited("%s: receive failed: %s (%d)\n",
					    ch->name,
					    ib_wc_status_msg(wc->status),
					    wc->status);
			srpt_ch_close_async(ch);
		}
		if (!recv->ch)
			srpt_repost_recv(recv);
		return;
	}

	recv->byte_len = wc->byte_len;
	ib_dma_sync_single_for_cpu(ch->sdev->device, recv->dma,
				   recv->byte_len, DMA_FROM_DEVICE);
	if (unlikely(state == SRPT_CH_CONNECTING ||
		     !list_empty(&ch->recv_wait))) {
		list_add_tail(&recv->wait_entry, &ch->recv_wait);
		return;
	}
	if (unlikely(state != SRPT_CH_LIVE)) {
		srpt_repost_recv(recv);
		return;
	}
	if (!srpt_handle_iu(ch, recv))
		list_add_tail(&recv->wait_entry, &ch->recv_wait);
}

/**
 * srpt_ch_flush_waiting() - account for what still waits on a drained
 *	channel
 * @ch: the channel, DRAINING, its QP drained
 *
 * Commands waiting for send queue room, and those whose work requests
 * were only partly posted, end: those waiting to fetch data-out fail
 * (scst_rx_data() with an error), responses are dropped. IUs waiting to
 * be processed are dropped (SRQ buffers are reposted).
 */
void srpt_ch_flush_waiting(struct srpt_rdma_ch *ch)
{
	struct srpt_send_ioctx *ioctx, *tmp;
	struct srpt_recv_ioctx *recv, *rtmp;
	unsigned long flags;
	LIST_HEAD(sq_wait);

	spin_lock_irqsave(&ch->lock, flags);
	list_splice_init(&ch->sq_wait, &sq_wait);
	list_splice_tail_init(&ch->post_partial, &sq_wait);
	spin_unlock_irqrestore(&ch->lock, flags);
	list_for_each_entry_safe(ioctx, tmp, &sq_wait, wait_entry) {
		list_del_init(&ioctx->wait_entry);
		srpt_ioctx_unsent(ioctx);
	}

	list_for_each_entry_safe(recv, rtmp, &ch->recv_wait, wait_entry) {
		list_del_init(&recv->wait_entry);
		if (!recv->ch)
			srpt_repost_recv(recv);
	}
}

/* ---------------------------------------------------------------------- */
/* Completions of what we sent                                            */
/* ---------------------------------------------------------------------- */

/* A failed completion of a LIVE channel ends it. */
static void srpt_check_wc(struct srpt_rdma_ch *ch, struct ib_wc *wc,
			  const char *what)
{
	if (likely(wc->status == IB_WC_SUCCESS))
		return;
	if (wc->status != IB_WC_WR_FLUSH_ERR ||
	    srpt_ch_state(ch) == SRPT_CH_LIVE) {
		pr_info_ratelimited("%s: %s failed: %s (%d)\n", ch->name, what,
				    ib_wc_status_msg(wc->status), wc->status);
		srpt_ch_close_async(ch);
	}
}

/**
 * srpt_send_done() - the SEND of a response completed
 * @cq: the CQ
 * @wc: its work completion; also flushed ones at teardown
 *
 * The RDMA WRITEs chained before it are complete too: the command is
 * finished.
 */
void srpt_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srpt_send_ioctx *ioctx = container_of(wc->wr_cqe,
						     struct srpt_send_ioctx,
						     send_cqe);
	struct srpt_rdma_ch *ch = ioctx->ch;
	struct scst_cmd *cmd = ioctx->cmd;

	atomic_add(ioctx->n_wr, &ch->sq_wr_avail);
	ioctx->n_wr = 0;
	srpt_check_wc(ch, wc, "sending a response");

	if (ioctx->state == SRPT_IOCTX_RSP_SENT) {
		srpt_free_rw_ctxs(ioctx);
		srpt_put_send_ioctx(ioctx);
		scst_tgt_cmd_done(cmd);
	} else if (ioctx->state == SRPT_IOCTX_LOGOUT_SENT) {
		/* SRP r16a 6.6: the initiator has it; now disconnect */
		srpt_put_send_ioctx(ioctx);
		srpt_ch_close_async(ch);
	} else {
		srpt_put_send_ioctx(ioctx);
	}

	srpt_process_sq_wait(ch);
	if (unlikely(!list_empty(&ch->recv_wait)))
		srpt_process_recv_wait(ch);
}

/**
 * srpt_rdma_read_done() - the RDMA READs of a data-out buffer completed
 * @cq: the CQ
 * @wc: the completion of the last of them
 */
void srpt_rdma_read_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srpt_send_ioctx *ioctx = container_of(wc->wr_cqe,
						     struct srpt_send_ioctx,
						     rdma_cqe);
	struct srpt_rdma_ch *ch = ioctx->ch;

	atomic_add(ioctx->n_wr, &ch->sq_wr_avail);
	ioctx->n_wr = 0;
	srpt_check_wc(ch, wc, "RDMA READ");
	/* unmapping makes the data visible to the CPU */
	srpt_free_rw_ctxs(ioctx);
	ioctx->state = SRPT_IOCTX_DATA_IN;
	scst_rx_data(ioctx->cmd, wc->status == IB_WC_SUCCESS ? 0 : -EIO,
		     srpt_core_context());
	srpt_process_sq_wait(ch);
}

/* ---------------------------------------------------------------------- */
/* Target driver callbacks                                                */
/* ---------------------------------------------------------------------- */

/*
 * May we sleep here? rdma_rw_ctx_init() allocates with GFP_KERNEL, and the
 * core may call ->xmit_response() in atomic context (scst.h: a bio
 * completion of vdisk_blockio on a real disk); such calls continue in
 * srpt_wq, but only when there is data-in to map: a response alone is
 * posted at once. (A template flag asking the core for process context,
 * as SCST's xmit_response_atomic, would move every such response.) Only
 * the handler knows the context of its completion, and the core's
 * contract leaves it open: so this asks the kernel, and errs to "no"
 * (preemptible() is always false without CONFIG_PREEMPT_COUNT), which
 * costs a deferral, never a sleep in atomic context.
 * ->rdy_to_xfer() is always called in process context (scst.h).
 */
static bool srpt_may_sleep(void)
{
	return preemptible();
}

static void srpt_defer_xmit(struct srpt_send_ioctx *ioctx)
{
	ioctx->work_rdy = false;
	queue_work(srpt_wq, &ioctx->work);
}

/*
 * SRP r16a 5.5.3: the IU holds only the first descriptors of an indirect
 * table; RDMA READ the whole table from the initiator, then continue the
 * data transfer (@rdy: ->rdy_to_xfer(), else ->xmit_response()) in process
 * context from srpt_table_read_done(). The READ takes one send queue entry
 * and waits for it like any other post (srpt_post()): a full send queue
 * only delays the command. Process context.
 */
static void srpt_fetch_table(struct srpt_send_ioctx *ioctx, bool rdy)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	struct ib_device *dev = ch->sdev->device;
	u32 len = ioctx->ci.table_len;

	ioctx->work_rdy = rdy;
	/* len <= SRPT_MAX_EXT_TABLE (srpt_handle_cmd()); mapped, so kmalloc */
	ioctx->ext_table = kmalloc(len, GFP_KERNEL);
	if (!ioctx->ext_table)
		goto fail;
	ioctx->ext_dma = ib_dma_map_single(dev, ioctx->ext_table, len,
					   DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(dev, ioctx->ext_dma)) {
		kfree(ioctx->ext_table);
		ioctx->ext_table = NULL;
		goto fail;
	}
	ioctx->table_sge.addr = ioctx->ext_dma;
	ioctx->table_sge.length = len;
	ioctx->table_sge.lkey = ch->sdev->lkey;
	memset(&ioctx->table_wr, 0, sizeof(ioctx->table_wr));
	ioctx->table_wr.wr.wr_cqe = &ioctx->table_cqe;
	ioctx->table_wr.wr.sg_list = &ioctx->table_sge;
	ioctx->table_wr.wr.num_sge = 1;
	ioctx->table_wr.wr.opcode = IB_WR_RDMA_READ;
	ioctx->table_wr.wr.send_flags = IB_SEND_SIGNALED;
	ioctx->table_wr.remote_addr = ioctx->ci.table_addr;
	ioctx->table_wr.rkey = ioctx->ci.table_rkey;

	ioctx->state = SRPT_IOCTX_FETCH_TABLE;
	ioctx->n_rw_ctx = 0;
	ioctx->n_wr = 1;
	srpt_post(ioctx);
	return;

fail:
	pr_warn_ratelimited("%s: tag 0x%llx: no memory to fetch a descriptor table of %u bytes\n",
			    ch->name, ioctx->tag, len);
	ioctx->ext_failed = true;
	queue_work(srpt_wq, &ioctx->work);
}

/**
 * srpt_table_read_done() - an indirect descriptor table arrived
 * @cq: the CQ
 * @wc: the completion of its RDMA READ
 *
 * Checks the table (srp_parse_ext_table()) and continues the command's
 * data transfer in a worker: the RDMA contexts are set up in process
 * context.
 */
void srpt_table_read_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srpt_send_ioctx *ioctx = container_of(wc->wr_cqe,
						     struct srpt_send_ioctx,
						     table_cqe);
	struct srpt_rdma_ch *ch = ioctx->ch;
	struct srp_cmd_err err;

	atomic_add(ioctx->n_wr, &ch->sq_wr_avail);
	ioctx->n_wr = 0;
	ib_dma_unmap_single(ch->sdev->device, ioctx->ext_dma,
			    ioctx->ci.table_len, DMA_FROM_DEVICE);
	ioctx->ext_dma = 0;
	srpt_check_wc(ch, wc, "reading a descriptor table");
	if (wc->status == IB_WC_SUCCESS &&
	    !srp_parse_ext_table(ioctx->ext_table, ioctx->ci.table_len,
				 &ioctx->ci, &err)) {
		ioctx->ext_ready = true;
	} else {
		if (wc->status == IB_WC_SUCCESS)
			pr_warn_ratelimited("%s: tag 0x%llx: bad descriptor table: %s\n",
					    ch->name, ioctx->tag,
					    srp_cmd_err_str(err.reason));
		ioctx->ext_failed = true;
	}
	ioctx->state = SRPT_IOCTX_NEW;
	queue_work(srpt_wq, &ioctx->work);
	srpt_process_sq_wait(ch);
}

/* Fetch the data-out buffer; process context. */
static void srpt_do_rdy_to_xfer(struct srpt_send_ioctx *ioctx,
				enum scst_exec_context ctx)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	struct scst_cmd *cmd = ioctx->cmd;
	int n_wr;

	if (ioctx->recv && ioctx->ci.imm && cmd->sg == &ioctx->imm_sg) {
		/* the IU's immediate data is the buffer: nothing to move */
		ioctx->state = SRPT_IOCTX_DATA_IN;
		scst_rx_data(cmd, 0, ctx);
		return;
	}
	if (ioctx->recv && ioctx->ci.imm) {
		/* SRP-2 immediate data: it is in the IU already */
		u32 len = min(ioctx->ci.imm_len, cmd->bufflen);
		u32 n = sg_copy_from_buffer(cmd->sg, cmd->sg_cnt,
					    ioctx->recv->buf +
					    ioctx->ci.imm_offset, len);

		srpt_put_recv(ioctx);
		ioctx->state = SRPT_IOCTX_DATA_IN;
		scst_rx_data(cmd, n == len ? 0 : -EIO, ctx);
		return;
	}

	if (srpt_need_table(ioctx)) {
		srpt_fetch_table(ioctx, true);
		return;
	}
	if (ioctx->ext_failed) {
		/* SRP r16a 5.5.3: a descriptor table we could not read or use */
		srpt_put_recv(ioctx);
		ioctx->state = SRPT_IOCTX_DATA_IN;
		scst_rx_data_error(cmd, SRP_IU_SENSE_INVALID_IU, ctx);
		return;
	}
	n_wr = srpt_alloc_rw_ctxs(ioctx, cmd->bufflen, DMA_FROM_DEVICE);
	srpt_put_recv(ioctx);
	if (n_wr < 0) {
		pr_warn_ratelimited("%s: tag 0x%llx: cannot map %u bytes of data-out (%d)\n",
				    ch->name, ioctx->tag, cmd->bufflen, n_wr);
		ioctx->state = SRPT_IOCTX_DATA_IN;
		scst_rx_data(cmd, n_wr, ctx);
		return;
	}
	if (!srpt_sq_fits(ch, n_wr)) {
		/* more RDMA READs than the send queue holds: never postable */
		pr_warn_ratelimited("%s: tag 0x%llx: data-out needs %d send queue entries of %u\n",
				    ch->name, ioctx->tag, n_wr, ch->sq_wr_max);
		srpt_free_rw_ctxs(ioctx);
		ioctx->state = SRPT_IOCTX_DATA_IN;
		scst_rx_data_error(cmd, SRP_IU_SENSE_INVALID_IU, ctx);
		return;
	}
	ioctx->n_wr = n_wr;
	ioctx->state = SRPT_IOCTX_NEED_DATA;
	srpt_post(ioctx);
}

/**
 * srpt_rdy_to_xfer() - ->rdy_to_xfer(): fetch a command's data-out buffer
 * @cmd: the command; cmd->sg holds cmd->bufflen bytes, at most the
 *	length the descriptors describe
 *
 * Return: 0.
 */
int srpt_rdy_to_xfer(struct scst_cmd *cmd)
{
	struct srpt_send_ioctx *ioctx = cmd->tgt_priv;

	if (unlikely(srpt_ch_state(ioctx->ch) != SRPT_CH_LIVE ||
		     scst_cmd_aborted(cmd))) {
		srpt_put_recv(ioctx);
		ioctx->state = SRPT_IOCTX_DATA_IN;
		scst_rx_data(cmd, -ECONNABORTED, SCST_CONTEXT_ATOMIC);
		return 0;
	}
	might_sleep();
	srpt_do_rdy_to_xfer(ioctx, SCST_CONTEXT_DIRECT);
	return 0;
}

/*
 * A command ends without a response: aborted (the initiator gets its
 * credit back with the next response) or its channel is gone.
 */
static void srpt_cmd_drop(struct srpt_send_ioctx *ioctx, bool credit)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	struct scst_cmd *cmd = ioctx->cmd;

	srpt_free_rw_ctxs(ioctx);
	srpt_put_recv(ioctx);
	if (credit)
		atomic_inc(&ch->req_lim_delta);
	srpt_put_send_ioctx(ioctx);
	scst_tgt_cmd_done(cmd);
}

/* Bytes of data-in to send. */
static u32 srpt_data_in_len(struct srpt_send_ioctx *ioctx)
{
	struct scst_cmd *cmd = ioctx->cmd;

	if (ioctx->dir != SRP_IU_DIR_READ ||
	    cmd->data_direction != SCST_DATA_READ ||
	    cmd->status != SCST_STATUS_GOOD || !cmd->sg)
		return 0;
	return min3(cmd->resp_len, ioctx->data_len, cmd->bufflen);
}

/* Send data-in and SRP_RSP; process context if there is data-in. */
static void srpt_do_xmit(struct srpt_send_ioctx *ioctx)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	struct scst_cmd *cmd = ioctx->cmd;
	u32 xfer = srpt_data_in_len(ioctx);
	u8 bad_iu_sense[SCST_SENSE_FIXED_LEN];
	const u8 *sense = cmd->sense;
	u32 sense_len = cmd->sense_len;
	u8 status = cmd->status;
	s64 resid_in, resid_out, resid;
	bool bad_iu = false;
	int n_wr = 0, len;

	if (xfer && srpt_need_table(ioctx)) {
		srpt_fetch_table(ioctx, false);
		return;
	}
	resid = scst_cmd_resid(cmd);
	if (ioctx->ext_failed && xfer) {
		/*
		 * SRP r16a 5.5.3: a data-in table we could not read or use,
		 * found only after the core executed the command (a data-out
		 * one ended it before, through scst_rx_data_error()).
		 */
		xfer = 0;
		bad_iu = true;
	}
	if (xfer) {
		n_wr = srpt_alloc_rw_ctxs(ioctx, xfer, DMA_TO_DEVICE);
		if (n_wr < 0) {
			pr_warn_ratelimited("%s: tag 0x%llx: cannot map %u bytes of data-in (%d)\n",
					    ch->name, ioctx->tag, xfer, n_wr);
			n_wr = 0;
			status = SCST_STATUS_BUSY;
			sense = NULL;
			sense_len = 0;
			resid = ioctx->data_len;
		} else if (!srpt_sq_fits(ch, n_wr + 1)) {
			/*
			 * More RDMA WRITEs than the send queue holds: they
			 * could never be posted. Refuse the data-in buffer
			 * as srpt_handle_cmd() refuses too many descriptors.
			 */
			pr_warn_ratelimited("%s: tag 0x%llx: data-in needs %d send queue entries of %u\n",
					    ch->name, ioctx->tag, n_wr + 1,
					    ch->sq_wr_max);
			srpt_free_rw_ctxs(ioctx);
			n_wr = 0;
			bad_iu = true;
		}
	}
	if (bad_iu) {
		/* INVALID FIELD IN COMMAND IU, nothing of the data-in sent */
		status = SCST_STATUS_CHECK_CONDITION;
		sense_len = scst_build_sense_code(bad_iu_sense,
						  sizeof(bad_iu_sense), false,
						  SRP_IU_SENSE_INVALID_IU);
		sense = bad_iu_sense;
		resid = ioctx->data_len;
	}
	/* the descriptors are in our hands now: the IU buffer is free */
	srpt_put_recv(ioctx);

	srp_rsp_resid(ioctx->dir, cmd->data_direction == SCST_DATA_READ, resid,
		      &resid_in, &resid_out);

	len = srp_build_rsp(ioctx->buf, ch->max_rsp_len, ioctx->tag,
			    srpt_take_credits(ch), status, sense, sense_len,
			    resid_in, resid_out, SRP_IU_NO_RSP_DATA);
	if (WARN_ON_ONCE(len < 0)) {
		srpt_cmd_drop(ioctx, true);
		return;
	}
	((u8 *)ioctx->buf)[1] |= srp_rsp_solnt(ioctx->sol_not,
					       status == SCST_STATUS_GOOD);
	ioctx->rsp_len = len;
	ioctx->n_wr = n_wr + 1;
	ioctx->state = SRPT_IOCTX_RSP_SENT;
	srpt_post(ioctx);
}

/**
 * srpt_xmit_response() - ->xmit_response(): send data-in and the status
 * @cmd: the command
 *
 * Any context: with data-in to map it continues in a worker unless it may
 * sleep here.
 *
 * Return: 0.
 */
int srpt_xmit_response(struct scst_cmd *cmd)
{
	struct srpt_send_ioctx *ioctx = cmd->tgt_priv;

	if (unlikely(scst_cmd_aborted(cmd))) {
		srpt_cmd_drop(ioctx, true);
		return 0;
	}
	if (unlikely(srpt_ch_state(ioctx->ch) != SRPT_CH_LIVE)) {
		srpt_cmd_drop(ioctx, false);
		return 0;
	}
	if (srpt_data_in_len(ioctx) && !srpt_may_sleep()) {
		srpt_defer_xmit(ioctx);
		return 0;
	}
	srpt_do_xmit(ioctx);
	return 0;
}

/* ->rdy_to_xfer() or ->xmit_response() continued in process context. */
static void srpt_ioctx_work(struct work_struct *work)
{
	struct srpt_send_ioctx *ioctx = container_of(work,
						     struct srpt_send_ioctx,
						     work);

	if (ioctx->work_rdy) {
		srpt_do_rdy_to_xfer(ioctx, SCST_CONTEXT_DIRECT);
		return;
	}
	if (unlikely(srpt_ch_state(ioctx->ch) != SRPT_CH_LIVE)) {
		srpt_cmd_drop(ioctx, false);
		return;
	}
	srpt_do_xmit(ioctx);
}
