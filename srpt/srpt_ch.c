// SPDX-License-Identifier: GPL-2.0-only
/*
 * srpt_ch.c - RDMA channels: their resources (QP, CQ, IU buffers), their
 * state machine (enum srpt_ch_state in ib_srpt.h) and the per-target
 * completion thread.
 *
 * Teardown, whatever starts it (the initiator's DREQ or logout, a transport
 * error, the target being disabled, a SINGLE relogin, the port or the
 * module going away):
 *
 *   srpt_ch_disconnect()    CONNECTING/LIVE -> DISCONNECTING: QP to error,
 *                           DREQ (or DREP); queue the release work
 *   srpt_ch_release_work()  -> DRAINING: wait until no poster can see a
 *                           postable state (RCU), drain the QP: every work
 *                           request posted completes, flushed; commands
 *                           waiting for RDMA READs get scst_rx_data(-EIO),
 *                           responses waiting for send queue room are
 *                           dropped; then scst_unregister_session(), which
 *                           aborts every command of the session and waits
 *                           until each went through ->xmit_response() and
 *                           scst_tgt_cmd_done()
 *   srpt_ch_sess_unreg_done() -> RELEASED: destroy the QP and the CM ID,
 *                           leave the target's list, drop the channel's
 *                           reference; the last one frees the CQ and
 *                           buffers
 *
 * Completions are processed per channel either on a CQ of the device's
 * shared pool, polled from its workqueue (default), or by the target's
 * kernel thread, which polls the channel's own CQ and runs on the
 * target's cpu_mask (thread mode). Either way one context at a time
 * processes the completions of a channel, in process context, so the core
 * carries a new command on in that context (SCST_CONTEXT_DIRECT) instead
 * of queueing it to a worker: in softirq context the extra hop cost 10-40%
 * of the IOPS against LIO in bench-srp.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/kthread.h>
#include <linux/error-injection.h>
#include <rdma/ib_cache.h>

#include "ib_srpt.h"

static const char *const srpt_ch_state_names[] = {
	[SRPT_CH_CONNECTING]	= "connecting",
	[SRPT_CH_LIVE]		= "live",
	[SRPT_CH_DISCONNECTING]	= "disconnecting",
	[SRPT_CH_DRAINING]	= "draining",
	[SRPT_CH_RELEASED]	= "released",
};

/**
 * srpt_ch_state_name() - name of a channel state, for logs and sysfs
 * @state: the state
 *
 * Return: a constant string.
 */
const char *srpt_ch_state_name(enum srpt_ch_state state)
{
	if ((unsigned int)state < ARRAY_SIZE(srpt_ch_state_names))
		return srpt_ch_state_names[state];
	return "unknown";
}

/**
 * srpt_ch_advance() - move a channel's state forward
 * @ch: the channel
 * @new: the new state
 *
 * States only move forward (CONNECTING, LIVE, DISCONNECTING, DRAINING,
 * RELEASED); the caller that makes a transition owns its consequences.
 * Any context.
 *
 * Return: true if the state was before @new and is now @new.
 */
bool srpt_ch_advance(struct srpt_rdma_ch *ch, enum srpt_ch_state new)
{
	unsigned long flags;
	bool changed = false;

	spin_lock_irqsave(&ch->lock, flags);
	if (ch->state < new) {
		WRITE_ONCE(ch->state, new);
		changed = true;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	return changed;
}

/* ---------------------------------------------------------------------- */
/* IU buffers                                                             */
/* ---------------------------------------------------------------------- */

/**
 * srpt_post_recv() - post a receive buffer
 * @ioctx: the buffer; on its channel's QP, or on the device's SRQ when it
 *	has no channel
 *
 * The caller makes sure the QP may still take work requests.
 *
 * Return: 0 or the error of the post.
 */
int srpt_post_recv(struct srpt_recv_ioctx *ioctx)
{
	struct srpt_device *sdev = ioctx->sdev;
	struct ib_sge sge = {
		.addr = ioctx->dma,
		.length = srp_max_req_size,
		.lkey = sdev->lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &ioctx->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	ib_dma_sync_single_for_device(sdev->device, ioctx->dma,
				      srp_max_req_size, DMA_FROM_DEVICE);
	if (!ioctx->ch)
		return ib_post_srq_recv(sdev->srq, &wr, NULL);
	return ib_post_recv(ioctx->ch->qp, &wr, NULL);
}

static void srpt_free_recv_ioctx(struct srpt_device *sdev,
				 struct srpt_recv_ioctx *ioctx)
{
	ib_dma_unmap_single(sdev->device, ioctx->dma, srp_max_req_size,
			    DMA_FROM_DEVICE);
	kmem_cache_free(srpt_req_cache, ioctx->buf_base);
	kfree(ioctx);
}

/**
 * srpt_free_recv_ring() - free receive buffers
 * @sdev: their device
 * @ring: the buffers, from srpt_alloc_recv_ring(); may be NULL
 * @n: their number
 */
void srpt_free_recv_ring(struct srpt_device *sdev,
			 struct srpt_recv_ioctx **ring, u32 n)
{
	u32 i;

	if (!ring)
		return;
	for (i = 0; i < n; i++)
		srpt_free_recv_ioctx(sdev, ring[i]);
	kvfree(ring);
}

/**
 * srpt_alloc_recv_ring() - allocate and map receive buffers
 * @sdev: the device
 * @ch: the channel that owns them, or NULL for the device's SRQ
 * @n: how many
 * @imm_data_offset: where the channel's SRP_CMDs carry immediate data (0:
 *	none, or buffers of the SRQ): it lands at SRPT_IMM_ALIGN
 *
 * Return: the array of buffers, or NULL without memory.
 */
struct srpt_recv_ioctx **srpt_alloc_recv_ring(struct srpt_device *sdev,
					      struct srpt_rdma_ch *ch, u32 n,
					      u32 imm_data_offset)
{
	u32 pad = ALIGN(imm_data_offset, SRPT_IMM_ALIGN) - imm_data_offset;
	struct srpt_recv_ioctx **ring;
	u32 i;

	ring = kvcalloc(n, sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return NULL;
	for (i = 0; i < n; i++) {
		struct srpt_recv_ioctx *ioctx;

		ioctx = kzalloc(sizeof(*ioctx), GFP_KERNEL);
		if (!ioctx)
			goto free_ring;
		ioctx->buf_base = kmem_cache_alloc(srpt_req_cache, GFP_KERNEL);
		if (!ioctx->buf_base)
			goto free_ioctx;
		ioctx->buf = ioctx->buf_base + pad;
		ioctx->dma = ib_dma_map_single(sdev->device, ioctx->buf,
					       srp_max_req_size,
					       DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(sdev->device, ioctx->dma))
			goto free_buf;
		ioctx->cqe.done = srpt_recv_done;
		ioctx->ch = ch;
		ioctx->sdev = sdev;
		INIT_LIST_HEAD(&ioctx->wait_entry);
		ring[i] = ioctx;
		continue;

free_buf:
		kmem_cache_free(srpt_req_cache, ioctx->buf_base);
free_ioctx:
		kfree(ioctx);
		goto free_ring;
	}
	return ring;

free_ring:
	srpt_free_recv_ring(sdev, ring, i);
	return NULL;
}

static void srpt_free_send_ring(struct srpt_rdma_ch *ch, u32 n)
{
	struct srpt_device *sdev = ch->sdev;
	u32 i;

	if (!ch->send_ring)
		return;
	for (i = 0; i < n; i++) {
		struct srpt_send_ioctx *ioctx = ch->send_ring[i];

		ib_dma_unmap_single(sdev->device, ioctx->dma, srp_max_rsp_size,
				    DMA_TO_DEVICE);
		kmem_cache_free(srpt_rsp_cache, ioctx->buf);
		kfree(ioctx);
	}
	kvfree(ch->send_ring);
	ch->send_ring = NULL;
}

static int srpt_alloc_send_ring(struct srpt_rdma_ch *ch, u32 n)
{
	struct srpt_device *sdev = ch->sdev;
	u32 i;

	ch->send_ring = kvcalloc(n, sizeof(*ch->send_ring), GFP_KERNEL);
	if (!ch->send_ring)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct srpt_send_ioctx *ioctx;

		ioctx = kzalloc(sizeof(*ioctx), GFP_KERNEL);
		if (!ioctx)
			goto free_ring;
		ioctx->buf = kmem_cache_alloc(srpt_rsp_cache, GFP_KERNEL);
		if (!ioctx->buf)
			goto free_ioctx;
		ioctx->dma = ib_dma_map_single(sdev->device, ioctx->buf,
					       srp_max_rsp_size, DMA_TO_DEVICE);
		if (ib_dma_mapping_error(sdev->device, ioctx->dma))
			goto free_buf;
		ioctx->ch = ch;
		srpt_ioctx_init(ioctx);
		list_add_tail(&ioctx->wait_entry, &ch->free_list);
		ch->send_ring[i] = ioctx;
		continue;

free_buf:
		kmem_cache_free(srpt_rsp_cache, ioctx->buf);
free_ioctx:
		kfree(ioctx);
		goto free_ring;
	}
	ch->send_ring_size = n;
	return 0;

free_ring:
	srpt_free_send_ring(ch, i);
	return -ENOMEM;
}

/* ---------------------------------------------------------------------- */
/* Channel allocation                                                     */
/* ---------------------------------------------------------------------- */

static void srpt_ch_release_work(struct work_struct *work);
static void srpt_ch_close_work(struct work_struct *work);

/*
 * The zero-length RDMA WRITE posted when the channel goes LIVE completes
 * in the channel's completion context, after every receive completion
 * that came before it: the IUs that arrived while it was connecting are
 * processed there, in order. (IBA C9-88: the R_Key of a zero-length RDMA
 * WRITE is not checked.)
 */
static void srpt_zerolength_write_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srpt_rdma_ch *ch = wc->qp->qp_context;

	atomic_inc(&ch->sq_wr_avail);
	/* posts may have queued behind it (seen with Soft-RoCE of 6.12) */
	srpt_process_sq_wait(ch);
	if (wc->status == IB_WC_SUCCESS)
		srpt_process_recv_wait(ch);
	else if (wc->status != IB_WC_WR_FLUSH_ERR)
		srpt_ch_close_async(ch);
}

/**
 * srpt_ch_alloc() - allocate a channel with its IU buffers
 * @tgt: the target of the login
 * @sport: the port of the login
 * @rq_size: credits to grant
 * @imm_data_offset: the IMMEDIATE DATA OFFSET granted (SRP-2), 0 if none
 *
 * The channel starts CONNECTING, with one reference; it takes over the
 * login's count on its device (nr_ch, taken by the login under srpt_mutex
 * while the device was not removing) and drops it when freed. It gets its
 * QP from srpt_ch_create_ib().
 *
 * Return: the channel, or NULL without memory.
 */
struct srpt_rdma_ch *srpt_ch_alloc(struct srpt_tgt *tgt,
				   struct srpt_port *sport, u32 rq_size,
				   u32 imm_data_offset)
{
	struct srpt_device *sdev = sport->sdev;
	struct srpt_rdma_ch *ch;

	ch = kzalloc(sizeof(*ch), GFP_KERNEL);
	if (!ch)
		return NULL;
	ch->tgt = tgt;
	ch->sport = sport;
	ch->sdev = sdev;
	ch->port_num = sport->port;
	ch->rq_size = rq_size;
	ch->max_rsp_len = srp_max_rsp_size;
	ch->state = SRPT_CH_CONNECTING;
	ch->zw_cqe.done = srpt_zerolength_write_done;
	spin_lock_init(&ch->lock);
	INIT_LIST_HEAD(&ch->free_list);
	INIT_LIST_HEAD(&ch->sq_wait);
	INIT_LIST_HEAD(&ch->post_partial);
	INIT_LIST_HEAD(&ch->recv_wait);
	INIT_LIST_HEAD(&ch->tgt_entry);
	mutex_init(&ch->cm_mutex);
	INIT_DELAYED_WORK(&ch->close_work, srpt_ch_close_work);
	INIT_WORK(&ch->release_work, srpt_ch_release_work);
	init_completion(&ch->last_wqe);
	kref_init(&ch->kref);

	/*
	 * Twice as many send contexts as credits: a response frees its
	 * context only when its SEND completes, and the initiator may reuse
	 * the credit it returned before that.
	 */
	if (srpt_alloc_send_ring(ch, 2 * rq_size))
		goto free_ch;
	if (!sdev->srq) {
		ch->recv_ring = srpt_alloc_recv_ring(sdev, ch, rq_size,
						     imm_data_offset);
		if (!ch->recv_ring)
			goto free_send_ring;
	}
	return ch;

free_send_ring:
	srpt_free_send_ring(ch, ch->send_ring_size);
free_ch:
	kfree(ch);
	return NULL;
}

ALLOW_ERROR_INJECTION(srpt_ch_alloc, NULL);

/* The last reference is gone: free what the channel still holds. */
static void srpt_ch_free(struct kref *kref)
{
	struct srpt_rdma_ch *ch = container_of(kref, struct srpt_rdma_ch,
					       kref);
	struct srpt_device *sdev = ch->sdev;

	if (ch->cq) {
		if (ch->cq_pooled)
			ib_cq_pool_put(ch->cq, ch->cq_size);
		else
			ib_destroy_cq(ch->cq);
	}
	srpt_free_recv_ring(sdev, ch->recv_ring, ch->rq_size);
	srpt_free_send_ring(ch, ch->send_ring_size);
	kfree(ch);
	srpt_dev_put(sdev);
}

/**
 * srpt_dev_put() - drop a login's or a channel's count on its device
 * @sdev: the device; srpt_remove_one() may free it once the count is zero
 */
void srpt_dev_put(struct srpt_device *sdev)
{
	atomic_dec(&sdev->nr_ch);
	wake_up_all(&srpt_release_wq);
}

void srpt_ch_get(struct srpt_rdma_ch *ch)
{
	kref_get(&ch->kref);
}

/* Drop a reference; process context (the last one frees the CQ). */
void srpt_ch_put(struct srpt_rdma_ch *ch)
{
	kref_put(&ch->kref, srpt_ch_free);
}

/**
 * srpt_ch_free_unused() - free a channel that never got a QP
 * @ch: the channel, from srpt_ch_alloc()
 */
void srpt_ch_free_unused(struct srpt_rdma_ch *ch)
{
	srpt_ch_put(ch);
}

/* ---------------------------------------------------------------------- */
/* Queue pair and completion queue                                        */
/* ---------------------------------------------------------------------- */

/* Asynchronous events of a channel's QP. */
static void srpt_qp_event(struct ib_event *event, void *ptr)
{
	struct srpt_rdma_ch *ch = ptr;

	switch (event->event) {
	case IB_EVENT_COMM_EST:
		/* the first IU arrived before the RTU: the connection is up */
		if (ch->using_rdma_cm)
			rdma_notify(ch->rdma_cm_id, event->event);
		else
			ib_cm_notify(ch->ib_cm_id, event->event);
		break;
	case IB_EVENT_QP_LAST_WQE_REACHED:
		/*
		 * IBA 11.6.3.1 (SRQ): the QP, in the error state, will take
		 * no more receive buffers from the SRQ; the completions of
		 * those it took are in the CQ. srpt_ch_drain_srq() waits for
		 * this before it drains the CQ.
		 */
		pr_debug("%s: last WQE reached\n", ch->name);
		complete(&ch->last_wqe);
		break;
	default:
		pr_info("%s: QP event %s (%d)\n", ch->name,
			ib_event_msg(event->event), event->event);
		if (event->event == IB_EVENT_QP_FATAL ||
		    event->event == IB_EVENT_QP_ACCESS_ERR ||
		    event->event == IB_EVENT_QP_REQ_ERR)
			srpt_ch_close_async(ch);
		break;
	}
}

static void srpt_cq_event(struct ib_event *event, void *ptr)
{
	struct srpt_rdma_ch *ch = ptr;

	pr_err("%s: CQ event %s (%d)\n", ch->name, ib_event_msg(event->event),
	       event->event);
	srpt_ch_close_async(ch);
}

/* Pick the next completion vector of the target's comp_v_mask. */
static int srpt_pick_comp_vector(struct srpt_tgt *tgt, struct ib_device *dev)
{
	unsigned int nvec = min_t(unsigned int, dev->num_comp_vectors,
				  SRPT_MAX_COMP_VECTORS);
	unsigned int start, i;

	if (!nvec)
		return 0;
	start = (unsigned int)atomic_inc_return(&tgt->comp_v_next);
	for (i = 0; i < nvec; i++) {
		unsigned int v = (start + i) % nvec;

		if (test_bit(v, tgt->comp_v_mask))
			return v;
	}
	/* the mask names none of this device's vectors: use any */
	return start % nvec;
}

static void srpt_thread_cq_comp(struct ib_cq *cq, void *ctx);

/* The CQ of a channel: from the shared pool, or its own (thread mode). */
static int srpt_ch_create_cq(struct srpt_rdma_ch *ch, bool thread_mode)
{
	struct ib_device *dev = ch->sdev->device;
	struct ib_cq_init_attr cq_attr = {
		.cqe = ch->cq_size,
		.comp_vector = ch->comp_vector,
	};
	struct ib_cq *cq;

	if (!thread_mode) {
		cq = ib_cq_pool_get(dev, ch->cq_size, ch->comp_vector,
				    IB_POLL_WORKQUEUE);
		if (IS_ERR(cq))
			return PTR_ERR(cq);
		ch->cq = cq;
		ch->cq_pooled = true;
		return 0;
	}

	cq = ib_create_cq(dev, srpt_thread_cq_comp, srpt_cq_event, ch,
			  &cq_attr);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	ch->cq = cq;
	ch->cq_pooled = false;
	ch->thread = ch->tgt->thread;
	return 0;
}

static void srpt_ch_destroy_cq(struct srpt_rdma_ch *ch)
{
	if (ch->cq_pooled)
		ib_cq_pool_put(ch->cq, ch->cq_size);
	else
		ib_destroy_cq(ch->cq);
	ch->cq = NULL;
}

/* IB CM: RESET -> INIT, with the partition of the connection. */
static int srpt_ch_qp_init(struct srpt_rdma_ch *ch)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE,
		.port_num = ch->port_num,
	};
	int ret;

	ret = ib_find_cached_pkey(ch->sdev->device, ch->port_num, ch->pkey,
				  &attr.pkey_index);
	if (ret < 0) {
		pr_warn("%s: P_Key 0x%04x not found (%d); using index 0\n",
			ch->name, ch->pkey, ret);
		attr.pkey_index = 0;
	}
	return ib_modify_qp(ch->qp, &attr,
			    IB_QP_STATE | IB_QP_ACCESS_FLAGS | IB_QP_PORT |
			    IB_QP_PKEY_INDEX);
}

/**
 * srpt_ch_create_ib() - create the CQ and QP of a channel, post receives
 * @ch: the channel; its CM ID is set
 *
 * The send queue holds srpt_sq_size work requests, half for the SENDs of
 * responses and half for RDMA READ/WRITE contexts (rdma_rw adds what
 * memory registration needs); a device that cannot create it gets half as
 * many, down to SRPT_MIN_SQ_SIZE. One receive and two send entries more
 * stay free for ib_drain_qp().
 *
 * Return: 0 or an errno; on failure nothing is left allocated.
 */
int srpt_ch_create_ib(struct srpt_rdma_ch *ch)
{
	const struct ib_device_attr *attrs = &ch->sdev->device->attrs;
	struct srpt_device *sdev = ch->sdev;
	struct ib_qp_init_attr qp_init;
	u32 sq_size = srpt_sq_size;
	bool thread_mode;
	u32 i;
	int ret;

	mutex_lock(&srpt_mutex);
	thread_mode = ch->tgt->thread_mode;
	if (thread_mode && srpt_thread_start(ch->tgt)) {
		pr_warn("%s: no completion thread; using the CQ pool\n",
			ch->name);
		thread_mode = false;
	}
	mutex_unlock(&srpt_mutex);
	ch->comp_vector = srpt_pick_comp_vector(ch->tgt, sdev->device);

retry:
	ch->cq_size = ch->rq_size + 1 + sq_size + 2;
	ret = srpt_ch_create_cq(ch, thread_mode);
	if (ret) {
		pr_err("%s: cannot create a CQ of %u entries (%d)\n", ch->name,
		       ch->cq_size, ret);
		return ret;
	}

	memset(&qp_init, 0, sizeof(qp_init));
	qp_init.qp_context = ch;
	qp_init.event_handler = srpt_qp_event;
	qp_init.send_cq = ch->cq;
	qp_init.recv_cq = ch->cq;
	qp_init.sq_sig_type = IB_SIGNAL_REQ_WR;
	qp_init.qp_type = IB_QPT_RC;
	qp_init.port_num = ch->port_num;
	qp_init.cap.max_send_wr = min_t(u32, sq_size / 2 + 2,
					attrs->max_qp_wr);
	qp_init.cap.max_rdma_ctxs = sq_size / 2;
	qp_init.cap.max_send_sge = attrs->max_send_sge;
	qp_init.cap.max_recv_sge = 1;
	if (sdev->srq)
		qp_init.srq = sdev->srq;
	else
		qp_init.cap.max_recv_wr = ch->rq_size + 1;

	if (ch->using_rdma_cm) {
		ret = rdma_create_qp(ch->rdma_cm_id, sdev->pd, &qp_init);
		ch->qp = ret ? NULL : ch->rdma_cm_id->qp;
	} else {
		ch->qp = ib_create_qp(sdev->pd, &qp_init);
		ret = PTR_ERR_OR_ZERO(ch->qp);
		if (ret)
			ch->qp = NULL;
	}
	if (ret) {
		srpt_ch_destroy_cq(ch);
		if (sq_size > SRPT_MIN_SQ_SIZE) {
			pr_debug("%s: no QP with %u send entries (%d); trying fewer\n",
				 ch->name, sq_size, ret);
			sq_size = max_t(u32, sq_size / 2, SRPT_MIN_SQ_SIZE);
			goto retry;
		}
		pr_err("%s: cannot create a QP (%d)\n", ch->name, ret);
		return ret;
	}
	/* keep two entries free for ib_drain_qp()'s marker */
	ch->sq_wr_max = qp_init.cap.max_send_wr - 2;
	atomic_set(&ch->sq_wr_avail, ch->sq_wr_max);

	if (!ch->using_rdma_cm) {
		ret = srpt_ch_qp_init(ch);
		if (ret) {
			pr_err("%s: QP to INIT failed (%d)\n", ch->name, ret);
			goto destroy_qp;
		}
	}

	if (!sdev->srq) {
		for (i = 0; i < ch->rq_size; i++) {
			ret = srpt_post_recv(ch->recv_ring[i]);
			if (ret) {
				pr_err("%s: posting receive buffers failed (%d)\n",
				       ch->name, ret);
				goto destroy_qp;
			}
		}
	}
	if (!ch->cq_pooled)
		ib_req_notify_cq(ch->cq, IB_CQ_NEXT_COMP);
	pr_debug("%s: QP 0x%x, %u send entries, CQ vector %d%s\n", ch->name,
		 ch->qp->qp_num, qp_init.cap.max_send_wr, ch->comp_vector,
		 ch->cq_pooled ? "" : ", thread mode");
	return 0;

destroy_qp:
	if (ch->using_rdma_cm)
		rdma_destroy_qp(ch->rdma_cm_id);
	else
		ib_destroy_qp(ch->qp);
	ch->qp = NULL;
	srpt_ch_destroy_cq(ch);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* State machine                                                          */
/* ---------------------------------------------------------------------- */

/**
 * srpt_ch_establish() - the connection is up: CONNECTING -> LIVE
 * @ch: the channel
 *
 * Called from the CM handler on RDMA_CM_EVENT_ESTABLISHED or the IB CM
 * RTU (the QP is in RTS). IUs received so far are processed by the
 * completion of a zero-length RDMA WRITE, in the completion context.
 */
void srpt_ch_establish(struct srpt_rdma_ch *ch)
{
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &ch->zw_cqe,
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED,
		},
	};
	int ret;

	if (!srpt_ch_advance(ch, SRPT_CH_LIVE))
		return;
	pr_info("%s: channel live (QP 0x%x, %u credits%s)\n", ch->name,
		ch->qp->qp_num, ch->rq_size,
		ch->imm_data_offset ? ", immediate data" : "");
	/* accounted like any work request; returned by its completion */
	atomic_dec(&ch->sq_wr_avail);
	rcu_read_lock();
	ret = srpt_ch_state(ch) == SRPT_CH_LIVE ?
	      ib_post_send(ch->qp, &wr.wr, NULL) : -ENOTCONN;
	rcu_read_unlock();
	if (ret) {
		atomic_inc(&ch->sq_wr_avail);
		if (ret != -ENOTCONN) {
			pr_err("%s: zero-length write failed (%d)\n", ch->name,
			       ret);
			srpt_ch_close_async(ch);
		}
	}
}

/* Move the QP to the error state: its work requests get flushed. */
static void srpt_ch_qp_err(struct srpt_rdma_ch *ch)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	int ret;

	ret = ib_modify_qp(ch->qp, &attr, IB_QP_STATE);
	if (ret)
		pr_err("%s: QP to error failed (%d)\n", ch->name, ret);
}

/**
 * srpt_ch_disconnect() - start closing a channel
 * @ch: the channel
 *
 * CONNECTING/LIVE -> DISCONNECTING: the QP goes to the error state, a
 * DREQ (or the DREP of the initiator's DREQ) is sent, and the release work
 * drains and releases the channel. Nothing happens for a channel already
 * closing. Process context; not from the CM handler of @ch's own IB CM ID
 * with @ch->cm_mutex held.
 */
void srpt_ch_disconnect(struct srpt_rdma_ch *ch)
{
	int ret;

	mutex_lock(&ch->cm_mutex);
	if (!srpt_ch_advance(ch, SRPT_CH_DISCONNECTING)) {
		mutex_unlock(&ch->cm_mutex);
		return;
	}
	pr_info("%s: disconnecting\n", ch->name);
	if (ch->using_rdma_cm) {
		ret = rdma_disconnect(ch->rdma_cm_id);
		if (ret)
			srpt_ch_qp_err(ch);
	} else {
		srpt_ch_qp_err(ch);
		if (ib_send_cm_dreq(ch->ib_cm_id, NULL, 0) < 0)
			ib_send_cm_drep(ch->ib_cm_id, NULL, 0);
	}
	mutex_unlock(&ch->cm_mutex);
	srpt_ch_start_release(ch);
}

static void srpt_ch_close_work(struct work_struct *work)
{
	srpt_ch_disconnect(container_of(to_delayed_work(work),
					struct srpt_rdma_ch, close_work));
}

/**
 * srpt_ch_close_async() - disconnect a channel from any context
 * @ch: the channel
 *
 * For completion handlers, QP events and the core's ->close_session().
 */
void srpt_ch_close_async(struct srpt_rdma_ch *ch)
{
	if (srpt_ch_state(ch) >= SRPT_CH_DISCONNECTING)
		return;
	/* also brings a delayed close forward */
	mod_delayed_work(srpt_wq, &ch->close_work, 0);
}

/**
 * srpt_ch_close_after() - disconnect a channel after a delay at most
 * @ch: the channel
 * @delay: jiffies
 *
 * A close already queued keeps its earlier time; srpt_ch_close_async()
 * brings this one forward.
 */
void srpt_ch_close_after(struct srpt_rdma_ch *ch, unsigned long delay)
{
	if (srpt_ch_state(ch) >= SRPT_CH_DISCONNECTING)
		return;
	queue_delayed_work(srpt_wq, &ch->close_work, delay);
}

/**
 * srpt_ch_start_release() - queue the release of a DISCONNECTING channel
 * @ch: the channel
 */
void srpt_ch_start_release(struct srpt_rdma_ch *ch)
{
	queue_work(srpt_wq, &ch->release_work);
}

/* RELEASED: free what belongs to the connection, drop our reference. */
static void srpt_ch_release_resources(struct srpt_rdma_ch *ch)
{
	srpt_ch_advance(ch, SRPT_CH_RELEASED);
	cancel_delayed_work_sync(&ch->close_work);

	if (ch->using_rdma_cm) {
		rdma_destroy_qp(ch->rdma_cm_id);
		rdma_destroy_id(ch->rdma_cm_id);
	} else {
		ib_destroy_qp(ch->qp);
		ib_destroy_cm_id(ch->ib_cm_id);
	}
	ch->qp = NULL;

	mutex_lock(&srpt_mutex);
	list_del_init(&ch->tgt_entry);
	mutex_unlock(&srpt_mutex);
	pr_info("%s: channel released\n", ch->name);
	wake_up_all(&srpt_release_wq);
	/* the thread may still hold a reference; the last one frees */
	srpt_ch_put(ch);
}

/* Every command of the session is finished: the session is going. */
static void srpt_ch_sess_unreg_done(struct scst_session *sess)
{
	struct srpt_rdma_ch *ch = sess->tgt_priv;

	ch->sess = NULL;
	srpt_ch_release_resources(ch);
}

/* How long a QP on the SRQ may take to report IB_EVENT_QP_LAST_WQE_REACHED. */
#define SRPT_LAST_WQE_TIMEOUT	(2 * HZ)

/*
 * Drain a QP whose receive buffers come from the device's SRQ. Its
 * receive queue holds none of them, so ib_drain_rq() has nothing to wait
 * for, yet receive completions of the QP may still be in the CQ, and each
 * names the channel (wc->qp->qp_context): the channel must outlive them.
 * IBA 11.6.3.1: once in the error state the QP reports Last WQE Reached
 * when it takes no more buffers from the SRQ; the completions of those it
 * took are in the CQ by then, so the send queue's drain marker, posted
 * after, completes behind them (one CQ, processed in order). A device that
 * never reports the event (Soft-RoCE of Linux 6.1) is waited for once,
 * SRPT_LAST_WQE_TIMEOUT; it then gets only the send queue drain, which
 * still orders every completion already in the CQ. (ib_drain_qp() of
 * Linux 6.11 and later waits for the event itself, for a minute, then
 * polls the CQ directly, which a pooled CQ must not be.)
 */
static void srpt_ch_drain_srq(struct srpt_rdma_ch *ch)
{
	struct srpt_device *sdev = ch->sdev;

	srpt_ch_qp_err(ch);
	if (!READ_ONCE(sdev->no_last_wqe) &&
	    !wait_for_completion_timeout(&ch->last_wqe,
					 SRPT_LAST_WQE_TIMEOUT)) {
		WRITE_ONCE(sdev->no_last_wqe, true);
		pr_info("%s: %s reported no Last WQE Reached within %u ms; draining the send queue only from now on\n",
			ch->name, dev_name(&sdev->device->dev),
			jiffies_to_msecs(SRPT_LAST_WQE_TIMEOUT));
	}
	ib_drain_sq(ch->qp);
}

/* DISCONNECTING -> DRAINING -> (session unregistered) -> RELEASED. */
static void srpt_ch_release_work(struct work_struct *work)
{
	struct srpt_rdma_ch *ch = container_of(work, struct srpt_rdma_ch,
					       release_work);

	srpt_ch_advance(ch, SRPT_CH_DRAINING);
	/* posters check the state under rcu_read_lock(): none sees it open */
	synchronize_rcu();
	if (ch->sdev->srq)
		srpt_ch_drain_srq(ch);
	else
		ib_drain_qp(ch->qp);
	/* no completion comes any more; account for what still waits */
	srpt_ch_flush_waiting(ch);

	if (ch->sess)
		scst_unregister_session(ch->sess, false,
					srpt_ch_sess_unreg_done);
	else
		srpt_ch_release_resources(ch);
}

/* ---------------------------------------------------------------------- */
/* Targets' channels                                                      */
/* ---------------------------------------------------------------------- */

/**
 * srpt_tgt_close_channels() - disconnect every channel of a target
 * @tgt: the target
 * @t_logout: tell the initiators first with SRP_T_LOGOUT (SRP r16a 6.6):
 *	the target is being disabled
 *
 * Called with srpt_mutex held; the channels are disconnected (after their
 * SRP_T_LOGOUT is delivered) and released in the background
 * (srpt_tgt_wait_channels() waits for them).
 */
void srpt_tgt_close_channels(struct srpt_tgt *tgt, bool t_logout)
{
	struct srpt_rdma_ch *ch;

	lockdep_assert_held(&srpt_mutex);
	list_for_each_entry(ch, &tgt->ch_list, tgt_entry) {
		if (t_logout)
			srpt_logout_and_close(ch, SRP_IU_TLO_NO_REASON);
		else
			srpt_ch_disconnect(ch);
	}
}

/*
 * Without srpt_mutex: this is a wait_event() condition, evaluated after
 * the task state is set, where a sleeping lock is a bug (the debug
 * kernel's DEBUG_ATOMIC_SLEEP reported it). A channel leaves the list
 * under srpt_mutex before srpt_release_wq is woken, and
 * list_empty_careful() reads a list that is being changed safely.
 */
static bool srpt_tgt_no_channels(struct srpt_tgt *tgt)
{
	return list_empty_careful(&tgt->ch_list);
}

/**
 * srpt_tgt_wait_channels() - wait until a target has no channel left
 * @tgt: the target; its channels are being closed
 */
void srpt_tgt_wait_channels(struct srpt_tgt *tgt)
{
	while (!wait_event_timeout(srpt_release_wq, srpt_tgt_no_channels(tgt),
				   10 * HZ))
		pr_info("target %s: waiting for its channels to close\n",
			tgt->name);
}

/**
 * srpt_dev_wait_channels() - wait until every channel of a device is freed
 * @sdev: the device, marked removing; its channels are being closed
 */
void srpt_dev_wait_channels(struct srpt_device *sdev)
{
	while (!wait_event_timeout(srpt_release_wq,
				   !atomic_read(&sdev->nr_ch), 10 * HZ))
		pr_info("%s: waiting for %d channel(s) to close\n",
			dev_name(&sdev->device->dev),
			atomic_read(&sdev->nr_ch));
}

/* ---------------------------------------------------------------------- */
/* Thread mode                                                            */
/* ---------------------------------------------------------------------- */

/* Queue a channel for its thread (any context). */
static void srpt_thread_kick(struct srpt_rdma_ch *ch)
{
	struct srpt_thread *thr = ch->thread;

	if (test_and_set_bit(SRPT_CH_THREAD_PENDING, &ch->thread_flags))
		return;
	if (!kref_get_unless_zero(&ch->kref)) {
		clear_bit(SRPT_CH_THREAD_PENDING, &ch->thread_flags);
		return;
	}
	llist_add(&ch->thread_node, &thr->pending);
	wake_up_process(thr->task);
}

/* Completion event of a thread-mode CQ (interrupt or softirq context). */
static void srpt_thread_cq_comp(struct ib_cq *cq, void *ctx)
{
	srpt_thread_kick(ctx);
}

/*
 * Process the completions of one channel, up to SRPT_THREAD_BUDGET; the
 * CQ is re-armed when it is empty. Return true if it may hold more.
 */
static bool srpt_thread_poll_ch(struct srpt_rdma_ch *ch)
{
	struct ib_wc wcs[SRPT_THREAD_POLL_BATCH];
	unsigned int done = 0;
	int n, i;

	for (;;) {
		n = ib_poll_cq(ch->cq, ARRAY_SIZE(wcs), wcs);
		for (i = 0; i < n; i++) {
			/* an unsignaled WR completes only when it failed */
			if (wcs[i].wr_cqe)
				wcs[i].wr_cqe->done(ch->cq, &wcs[i]);
		}
		if (n < 0)
			return false;
		done += n;
		if (n == ARRAY_SIZE(wcs)) {
			if (done >= SRPT_THREAD_BUDGET)
				return true;
			continue;
		}
		if (ib_req_notify_cq(ch->cq, IB_CQ_NEXT_COMP |
				     IB_CQ_REPORT_MISSED_EVENTS) <= 0)
			return false;
	}
}

/*
 * Follow the target's cpu_mask, checked once per wakeup.
 * NEEDS-CORE: a ->cpu_mask_changed(tgt) callback of the target template
 * (and a lock or RCU around tgt->cpu_mask, which its sysfs store rewrites
 * in place), so the thread is moved when the administrator writes it.
 */
static void srpt_thread_update_affinity(struct srpt_thread *thr)
{
	const cpumask_t *mask = &thr->tgt->scst_tgt->cpu_mask;

	if (cpumask_equal(mask, &thr->cpu_mask))
		return;
	cpumask_copy(&thr->cpu_mask, mask);
	if (cpumask_intersects(&thr->cpu_mask, cpu_online_mask))
		set_cpus_allowed_ptr(current, &thr->cpu_mask);
}

static int srpt_thread_fn(void *arg)
{
	struct srpt_thread *thr = arg;
	struct srpt_rdma_ch *ch, *tmp;
	struct llist_node *list;

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (llist_empty(&thr->pending) && !kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
		srpt_thread_update_affinity(thr);

		list = llist_reverse_order(llist_del_all(&thr->pending));
		llist_for_each_entry_safe(ch, tmp, list, thread_node) {
			bool more;

			clear_bit(SRPT_CH_THREAD_PENDING, &ch->thread_flags);
			/* pairs with the CQ event: see new completions */
			smp_mb__after_atomic();
			more = srpt_thread_poll_ch(ch);
			if (more)
				srpt_thread_kick(ch);
			srpt_ch_put(ch);
		}
		cond_resched();
	}
	return 0;
}

/**
 * srpt_thread_start() - start a target's completion thread if needed
 * @tgt: the target
 *
 * Called with srpt_mutex held. The thread lives until the target is
 * unregistered.
 *
 * Return: 0 or an errno.
 */
int srpt_thread_start(struct srpt_tgt *tgt)
{
	struct srpt_thread *thr;
	struct task_struct *task;

	lockdep_assert_held(&srpt_mutex);
	if (tgt->thread)
		return 0;
	thr = kzalloc(sizeof(*thr), GFP_KERNEL);
	if (!thr)
		return -ENOMEM;
	thr->tgt = tgt;
	init_llist_head(&thr->pending);
	cpumask_copy(&thr->cpu_mask, &tgt->scst_tgt->cpu_mask);
	task = kthread_create(srpt_thread_fn, thr, "srpt_%s",
			      tgt->name + SRPT_GID_STR_LEN - 10);
	if (IS_ERR(task)) {
		kfree(thr);
		return PTR_ERR(task);
	}
	if (cpumask_intersects(&thr->cpu_mask, cpu_online_mask))
		set_cpus_allowed_ptr(task, &thr->cpu_mask);
	thr->task = task;
	WRITE_ONCE(tgt->thread, thr);
	WRITE_ONCE(tgt->thread_pid, task_pid_nr(task));
	wake_up_process(task);
	pr_info("target %s: completion thread %d\n", tgt->name, task->pid);
	return 0;
}

/**
 * srpt_thread_stop() - stop a target's completion thread
 * @tgt: the target; it has no channel left
 */
void srpt_thread_stop(struct srpt_tgt *tgt)
{
	struct srpt_thread *thr = tgt->thread;

	if (!thr)
		return;
	WRITE_ONCE(tgt->thread_pid, 0);
	kthread_stop(thr->task);
	WARN_ON_ONCE(!llist_empty(&thr->pending));
	WRITE_ONCE(tgt->thread, NULL);
	kfree(thr);
}
