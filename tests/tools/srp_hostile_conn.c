// SPDX-License-Identifier: GPL-2.0-only
/*
 * srp_hostile: RDMA/CM connections to the target: address and route
 * resolution, the QP and its memory, the login's connect, sends and
 * completions (see srp_hostile.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srp_hostile.h"

/* ---------------------------------------------------------------------- */
/* Connections                                                             */
/* ---------------------------------------------------------------------- */

static struct rdma_event_channel *cm_ch;
static struct conn *cur;	/* the connection being set up */
struct conn *conn;
bool prepare_no_recv;

/* The RDMA/CM event channel all connections share, non-blocking. */
int conn_setup(void)
{
	int flags;

	cm_ch = rdma_create_event_channel();
	if (!cm_ch)
		return -1;
	flags = fcntl(cm_ch->fd, F_GETFL);
	fcntl(cm_ch->fd, F_SETFL, flags | O_NONBLOCK);
	return 0;
}

void conn_teardown(void)
{
	rdma_destroy_event_channel(cm_ch);
}

static uint8_t *recv_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)i * RBUF_SIZE;
}

static uint8_t *send_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)NRECV * RBUF_SIZE + (size_t)i * SBUF_SIZE;
}

int post_recv(struct conn *c, unsigned int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)recv_buf(c, i),
		.length = RBUF_SIZE,
		.lkey = c->mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = WR_RECV | i,
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;

	return ibv_post_recv(c->id->qp, &wr, &bad);
}

/* The connection a CM event is for; NULL for one already destroyed. */
static struct conn *conn_of(struct rdma_cm_id *id)
{
	if (cur && cur->id == id)
		return cur;
	if (conn && conn->id == id)
		return conn;
	return NULL;
}

/* Process one CM event, if there is one; returns whether there was. */
static bool cm_poll_one(void)
{
	struct rdma_cm_event *ev;
	struct conn *c;

	if (rdma_get_cm_event(cm_ch, &ev))
		return false;
	c = conn_of(ev->id);
	vlog("CM event %s (status %d)%s", rdma_event_str(ev->event),
	     ev->status, c ? "" : " for an old connection");
	if (c) {
		switch (ev->event) {
		case RDMA_CM_EVENT_ESTABLISHED:
		case RDMA_CM_EVENT_REJECTED:
			c->pdata_len = 0;
			if (ev->param.conn.private_data) {
				c->pdata_len = ev->param.conn.private_data_len;
				memcpy(c->pdata, ev->param.conn.private_data,
				       c->pdata_len);
			}
			c->cm_status = ev->status;
			if (ev->event == RDMA_CM_EVENT_ESTABLISHED)
				c->established = true;
			else
				c->rejected = true;
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
		case RDMA_CM_EVENT_DEVICE_REMOVAL:
			c->disconnected = true;
			break;
		case RDMA_CM_EVENT_ROUTE_RESOLVED:
			c->route_ok = true;
			break;
		case RDMA_CM_EVENT_ADDR_RESOLVED:
		case RDMA_CM_EVENT_TIMEWAIT_EXIT:
			break;
		default:
			c->cm_error = true;
			c->cm_status = ev->status;
			break;
		}
	}
	rdma_ack_cm_event(ev);
	return true;
}

/* Process the CM events that came. */
static void cm_poll(void)
{
	while (cm_poll_one())
		;
}

/* Wait up to @ms for the connection to reach a state. */
static bool cm_wait(struct conn *c, int ms, bool (*done)(struct conn *c))
{
	int64_t end = now_ms() + ms;
	struct pollfd pfd = { .fd = cm_ch->fd, .events = POLLIN };

	for (;;) {
		cm_poll();
		if (done(c))
			return true;
		if (now_ms() >= end)
			return false;
		poll(&pfd, 1, (int)(end - now_ms()));
	}
}

static bool c_addr_done(struct conn *c)
{
	return c->cm_error || c->id->verbs;
}

static bool c_route_done(struct conn *c)
{
	return c->cm_error || c->route_ok;
}

static bool c_connect_done(struct conn *c)
{
	return c->established || c->rejected || c->cm_error ||
	       c->disconnected;
}

static bool c_disconnected(struct conn *c)
{
	return c->disconnected || c->cm_error;
}

void conn_destroy(struct conn *c)
{
	if (!c)
		return;
	if (c->id) {
		if (c->established && !c->disconnected) {
			rdma_disconnect(c->id);
			cm_wait(c, opt.timeout_ms, c_disconnected);
		}
		if (c->id->qp)
			rdma_destroy_qp(c->id);
	}
	if (c->mr)
		ibv_dereg_mr(c->mr);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->cc)
		ibv_destroy_comp_channel(c->cc);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->id) {
		cm_poll();
		if (cur == c)
			cur = NULL;
		if (conn == c)
			conn = NULL;
		rdma_destroy_id(c->id);
	}
	free(c->mem);
	free(c);
}

/* Close @c, one of several held channels: its CM events must reach it. */
void conn_close(struct conn *c)
{
	cur = c;
	conn_destroy(c);
}

/*
 * Resolve the target's address and route and set up a QP with all
 * receive buffers posted: everything but the login itself.
 */
struct conn *conn_prepare(struct tcase *t)
{
	struct ibv_qp_init_attr qpa = {
		.cap = {
			.max_send_wr = NSEND,
			.max_recv_wr = NRECV,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.qp_type = IBV_QPT_RC,
	};
	size_t mem_len = (size_t)NRECV * RBUF_SIZE +
			 (size_t)NSEND * SBUF_SIZE + DATA_SIZE;
	struct conn *c;
	unsigned int i;
	int flags;

	c = calloc(1, sizeof(*c));
	if (!c) {
		tfail(t, "out of memory");
		return NULL;
	}
	if (rdma_create_id(cm_ch, &c->id, NULL, RDMA_PS_TCP)) {
		tfail(t, "rdma_create_id: %s", strerror(errno));
		c->id = NULL;
		goto fail;
	}
	cur = c;
	if (rdma_resolve_addr(c->id,
			      opt.have_src ? (struct sockaddr *)&opt.src : NULL,
			      (struct sockaddr *)&opt.dst, 2000)) {
		tfail(t, "rdma_resolve_addr: %s", strerror(errno));
		goto fail;
	}
	if (!cm_wait(c, opt.timeout_ms, c_addr_done) || c->cm_error) {
		tfail(t, "cannot resolve the target's address");
		goto fail;
	}
	if (rdma_resolve_route(c->id, 2000)) {
		tfail(t, "rdma_resolve_route: %s", strerror(errno));
		goto fail;
	}
	if (!cm_wait(c, opt.timeout_ms, c_route_done) || c->cm_error) {
		tfail(t, "cannot resolve the route to the target");
		goto fail;
	}

	c->pd = ibv_alloc_pd(c->id->verbs);
	c->cc = c->pd ? ibv_create_comp_channel(c->id->verbs) : NULL;
	c->cq = c->cc ? ibv_create_cq(c->id->verbs, NSEND + NRECV + 16, NULL,
				      c->cc, 0) : NULL;
	if (!c->cq) {
		tfail(t, "cannot create PD/CQ: %s", strerror(errno));
		goto fail;
	}
	flags = fcntl(c->cc->fd, F_GETFL);
	fcntl(c->cc->fd, F_SETFL, flags | O_NONBLOCK);
	qpa.send_cq = c->cq;
	qpa.recv_cq = c->cq;
	if (rdma_create_qp(c->id, c->pd, &qpa)) {
		tfail(t, "rdma_create_qp: %s", strerror(errno));
		goto fail;
	}
	c->mem = aligned_alloc(4096, mem_len);
	if (!c->mem) {
		tfail(t, "out of memory");
		goto fail;
	}
	memset(c->mem, 0, mem_len);
	c->data = c->mem + mem_len - DATA_SIZE;
	c->mr = ibv_reg_mr(c->pd, c->mem, mem_len, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	if (!c->mr) {
		tfail(t, "ibv_reg_mr: %s", strerror(errno));
		goto fail;
	}
	for (i = 0; i < NRECV && !prepare_no_recv; i++) {
		if (post_recv(c, i)) {
			tfail(t, "ibv_post_recv failed");
			goto fail;
		}
	}
	return c;

fail:
	conn_destroy(c);
	return NULL;
}

/* Connect with @pdata as the SRP_LOGIN_REQ; wait for the outcome. */
int conn_connect(struct tcase *t, struct conn *c, const uint8_t *pdata,
		 uint8_t pdata_len)
{
	struct rdma_conn_param p = {
		.private_data = pdata,
		.private_data_len = pdata_len,
		.responder_resources = 4,
		.initiator_depth = 4,
		.retry_count = 7,
		.rnr_retry_count = 7,	/* retry RNR NAKs forever */
	};

	if (rdma_connect(c->id, &p))
		return tfail(t, "rdma_connect: %s", strerror(errno));
	if (!cm_wait(c, opt.timeout_ms, c_connect_done))
		return tfail(t, "no answer to the login within %d ms",
			     opt.timeout_ms);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Sending and receiving IUs                                               */
/* ---------------------------------------------------------------------- */

/* A completion: returns GOT_IU with @iu filled in, or -1 for none. */
int cq_poll_one(struct conn *c, struct iu *iu)
{
	struct ibv_wc wc;

	while (ibv_poll_cq(c->cq, 1, &wc) == 1) {
		/* wc.opcode is undefined in failed completions: use wr_id */
		if (wc.wr_id & WR_RECV) {
			if (wc.status != IBV_WC_SUCCESS) {
				if (!c->dead)
					vlog("receive completion: %s",
					     ibv_wc_status_str(wc.status));
				c->dead = true;
				continue;
			}
			iu->len = wc.byte_len;
			memcpy(iu->buf, recv_buf(c, (unsigned int)wc.wr_id),
			       wc.byte_len < RBUF_SIZE ? wc.byte_len :
			       RBUF_SIZE);
			if (!c->dead && post_recv(c, (unsigned int)wc.wr_id))
				c->dead = true;
			return GOT_IU;
		}
		c->send_busy--;
		if (wc.status != IBV_WC_SUCCESS) {
			if (!c->dead)
				vlog("send completion: %s",
				     ibv_wc_status_str(wc.status));
			c->dead = true;
		}
	}
	return -1;
}

/*
 * Wait up to @ms for the next IU of @c. Send completions are processed on
 * the way. GOT_DEAD: the QP failed or the target disconnected.
 */
int conn_wait(struct conn *c, int ms, struct iu *iu)
{
	int64_t end = now_ms() + ms;
	struct pollfd pfd[2] = {
		{ .fd = cm_ch->fd, .events = POLLIN },
		{ .fd = c->cc->fd, .events = POLLIN },
	};
	struct ibv_cq *ev_cq;
	void *ev_ctx;

	for (;;) {
		if (cq_poll_one(c, iu) == GOT_IU)
			return GOT_IU;
		cm_poll();
		if (c->dead || c->disconnected)
			return GOT_DEAD;
		if (now_ms() >= end)
			return GOT_TIMEOUT;
		ibv_req_notify_cq(c->cq, 0);
		if (cq_poll_one(c, iu) == GOT_IU)
			return GOT_IU;
		if (c->dead)
			return GOT_DEAD;
		poll(pfd, 2, (int)(end - now_ms()));
		if (ibv_get_cq_event(c->cc, &ev_cq, &ev_ctx) == 0)
			ibv_ack_cq_events(ev_cq, 1);
	}
}

/* Wait for all sends to complete (or the connection to die). */
static void conn_wait_sends(struct conn *c, int ms)
{
	int64_t end = now_ms() + ms;
	struct iu *iu = malloc(sizeof(*iu));

	/* IUs arriving meanwhile are not expected here: dropped */
	while (iu && c->send_busy && !c->dead && now_ms() < end)
		conn_wait(c, (int)(end - now_ms()), iu);
	free(iu);
}

/* Send @len bytes of @buf as one SEND. */
int conn_send(struct tcase *t, struct conn *c, const void *buf, uint32_t len)
{
	unsigned int slot;
	struct ibv_sge sge;
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
		.sg_list = &sge,
		.num_sge = len ? 1 : 0,
	}, *bad;

	if (len > SBUF_SIZE)
		return tfail(t, "IU of %u bytes too long for the tool", len);
	if (c->send_busy >= NSEND)
		conn_wait_sends(c, opt.timeout_ms);
	if (c->dead || c->disconnected)
		return tfail(t, "the channel is gone before sending");
	if (c->send_busy >= NSEND)
		return tfail(t, "send queue stuck");
	slot = c->send_next++ % NSEND;
	memcpy(send_buf(c, slot), buf, len);
	sge.addr = (uintptr_t)send_buf(c, slot);
	sge.length = len;
	sge.lkey = c->mr->lkey;
	wr.wr_id = slot;
	if (ibv_post_send(c->id->qp, &wr, &bad))
		return tfail(t, "ibv_post_send: %s", strerror(errno));
	c->send_busy++;
	return 0;
}
