// SPDX-License-Identifier: GPL-2.0-only
/*
 * srp_hostile - a hostile SRP initiator for testing SRP targets.
 *
 * It logs in over RDMA/CM (librdmacm, libibverbs) and sends malformed
 * logins and information units: truncated and invalid SRP_LOGIN_REQs,
 * unknown and truncated IUs, SRP_CMDs whose CDB or descriptors do not fit
 * the IU, descriptors with bogus memory handles, commands to logical units
 * that do not exist, unknown task management functions, more requests
 * than the target granted credits for. Each case states what the target
 * must do (T10 SRP r16a, SPC-4, SAM-5, and where the standard leaves a
 * choice, what our scst_srpt does) and checks that it happened; the
 * target must then still serve a well-behaved login.
 *
 * It writes one line per case, "PASS name - what the target did" or
 * "FAIL name: why", then a summary line, and exits 0 only if every case
 * passed. The IUs are built here from the standard, with none of the
 * target's code, so that a misreading shared with the target cannot hide.
 *
 * Usage: srp_hostile --dest IP:PORT --id-ext HEX16 --ioc-guid HEX16
 *		      [--src IP] [--timeout SECONDS] [--only NAME]...
 *		      [--skip NAME]... [--sysfs-target DIR] [--big-lun LUN]
 *		      [--flip NAME] [--list] [--verbose]
 *
 * It runs in the target's machine (Soft-RoCE in a VM): cases that check
 * resources read the guest's /proc/meminfo, and with --sysfs-target (the
 * target's directory in /sys/kernel/scst_tgt) it reads the session's send
 * queue accounting and sets the target's login limits. --big-lun names a
 * LUN of at least 8 GiB of 512-byte blocks (default 1). Cases marked
 * "(--only)" in --list need a target set up for them and run only when
 * named.
 *
 * --flip NAME inverts the checks of case NAME, which then must fail: it
 * proves that the checks can fail.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

/* ---------------------------------------------------------------------- */
/* SRP r16a constants, written from the standard                           */
/* ---------------------------------------------------------------------- */

/* §5.1: IU types. */
#define SRP_LOGIN_REQ		0x00
#define SRP_TSK_MGMT		0x01
#define SRP_CMD			0x02
#define SRP_I_LOGOUT		0x03
#define SRP_T_LOGOUT		0x80
#define SRP_CRED_REQ		0x81
#define SRP_AER_REQ		0x82
#define SRP_LOGIN_RSP		0xc0
#define SRP_RSP			0xc1
#define SRP_LOGIN_REJ		0xc2

/* Lengths of the fixed parts (§6). */
#define LOGIN_REQ_RDMA_LEN	56	/* Linux' struct srp_login_req_rdma */
#define LOGIN_RSP_LEN		52
#define LOGIN_REJ_LEN		32
#define T_LOGOUT_LEN		16
#define TSK_MGMT_LEN		48
#define CMD_LEN			48
#define RSP_LEN			36
#define I_LOGOUT_LEN		16
#define DIRECT_DESC_LEN		16
#define INDIRECT_HDR_LEN	20

/* §6.2: REQUIRED BUFFER FORMATS, REQUIRED FLAGS. */
#define BUF_FMT_DIRECT		0x0002
#define BUF_FMT_INDIRECT	0x0004
#define MCA_SINGLE		0x00
#define MCA_MULTI		0x01

/* §6.4: SRP_LOGIN_REJ REASON. */
#define REJ_UNABLE_ESTABLISH	0x00010000
#define REJ_INSUFFICIENT_RES	0x00010001
#define REJ_IT_IU_LEN		0x00010002
#define REJ_UNABLE_ASSOCIATE	0x00010003
#define REJ_UNSUPPORTED_FMT	0x00010004
#define REJ_MULTICHANNEL	0x00010005
#define REJ_CHANNEL_LIMIT	0x00010006

/* §6.6: SRP_T_LOGOUT REASON. */
#define TLO_INVALID_IU_TYPE	0x00000002
#define TLO_BAD_DATA_OUT_FMT	0x00000005
#define TLO_BAD_DATA_IN_FMT	0x00000006
#define TLO_INVALID_IU_LEN	0x00000008

/* §6.8: descriptor formats. */
#define DESC_NONE		0
#define DESC_DIRECT		1
#define DESC_INDIRECT		2

/* §6.7: TASK MANAGEMENT FUNCTION. */
#define TMF_ABORT_TASK		0x01
#define TMF_ABORT_TASK_SET	0x02
#define TMF_CLEAR_TASK_SET	0x04
#define TMF_LUN_RESET		0x08
#define TMF_CLEAR_ACA		0x40

/* §6.9: SRP_RSP flags and RSP_CODE. */
#define RSP_RSPVALID		0x01
#define RSP_SNSVALID		0x02
#define RSP_DIUNDER		0x20
#define RSP_CODE_COMPLETE	0x00
#define RSP_CODE_NOT_SUPPORTED	0x04
#define RSP_CODE_FAILED		0x05

/* SAM-5 status, SPC-4 sense keys. */
#define ST_GOOD			0x00
#define ST_CHECK_CONDITION	0x02
#define ST_BUSY			0x08
#define ST_TASK_SET_FULL	0x28
#define SK_ILLEGAL_REQUEST	0x05
#define SK_UNIT_ATTENTION	0x06

/* IBA: CM REJ reason "consumer defined", which carries the SRP_LOGIN_REJ. */
#define IB_CM_REJ_CONSUMER	28

/* ---------------------------------------------------------------------- */
/* Byte order                                                              */
/* ---------------------------------------------------------------------- */

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, v >> 16);
	put_be16(p + 2, v);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

static uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)get_be16(p) << 16 | get_be16(p + 2);
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

/* ---------------------------------------------------------------------- */
/* Options, logging                                                        */
/* ---------------------------------------------------------------------- */

static struct {
	struct sockaddr_storage dst, src;
	bool have_src;
	uint64_t id_ext, ioc_guid;
	int timeout_ms;
	bool verbose;
	const char *only[64];
	unsigned int n_only;
	const char *skip[64];
	unsigned int n_skip;
	const char *flip;
	const char *sysfs_tgt;
	unsigned int big_lun;
} opt = { .timeout_ms = 10000, .big_lun = 1 };

static void vlog(const char *fmt, ...) __printf(1, 2);

static void vlog(const char *fmt, ...)
{
	va_list ap;

	if (!opt.verbose)
		return;
	va_start(ap, fmt);
	fputs("#   ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
	fflush(stdout);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------------- */
/* Cases: the verdict                                                      */
/* ---------------------------------------------------------------------- */

/**
 * struct tcase - the state of the case being run
 * @name: its name
 * @flip: --flip: every check is inverted, so the case must fail
 * @failed: a check failed
 * @why: why the case failed
 * @did: what the target did, for the PASS line
 */
struct tcase {
	const char *name;
	bool flip;
	bool failed;
	char why[512];
	char did[512];
};

static int tfail(struct tcase *t, const char *fmt, ...)
	__printf(2, 3);

/* The case failed for a reason that is no check: always a failure. */
static int tfail(struct tcase *t, const char *fmt, ...)
{
	va_list ap;

	if (t->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
	t->failed = true;
	return -1;
}

/* Record what the target did (appended, for the PASS line). */
static void tdid(struct tcase *t, const char *fmt, ...)
	__printf(2, 3);

static void tdid(struct tcase *t, const char *fmt, ...)
{
	size_t n = strlen(t->did);
	va_list ap;

	if (n && n < sizeof(t->did) - 2) {
		strcpy(t->did + n, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(t->did + n, sizeof(t->did) - n, fmt, ap);
	va_end(ap);
}

/*
 * A check: @ok is what the target must have done. Returns whether the case
 * goes on; records the failure (with --flip, inverted) otherwise.
 */
static bool check(struct tcase *t, bool ok, const char *fmt, ...)
	__printf(3, 4);

static bool check(struct tcase *t, bool ok, const char *fmt, ...)
{
	va_list ap;
	char msg[400];

	if (t->failed)
		return false;
	if (ok != t->flip)
		return true;
	if (t->flip) {
		snprintf(t->why, sizeof(t->why),
			 "the target did what the case expects, and --flip inverted the check");
	} else {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		snprintf(t->why, sizeof(t->why), "%s", msg);
	}
	t->failed = true;
	return false;
}

#define CHECK(t, cond, ...) \
	do { if (!check(t, cond, __VA_ARGS__)) return -1; } while (0)

/* ---------------------------------------------------------------------- */
/* Connections                                                             */
/* ---------------------------------------------------------------------- */

#define NRECV		512		/* receive buffers */
#define RBUF_SIZE	4096		/* each; above any max_ti_iu_len */
#define NSEND		512		/* send slots = send queue depth */
#define SBUF_SIZE	1024		/* each; our IUs are small */
#define DATA_SIZE	(64 * 1024)	/* data-in / data-out buffers */
#define IT_IU_LEN	1024		/* what we ask for at login */
#define WR_RECV		(1ULL << 32)	/* wr_id flag of receives */

/**
 * struct iu - a received information unit
 * @len: its length
 * @buf: its bytes
 */
struct iu {
	uint32_t len;
	uint8_t buf[RBUF_SIZE];
};

/**
 * struct conn - one RDMA channel (or login attempt) to the target
 * @id: the RDMA/CM ID
 * @pd: its protection domain
 * @cc: completion channel of @cq
 * @cq: send and receive completions
 * @mr: registration of @mem
 * @mem: receive buffers, send slots, data area
 * @data: the data area, DATA_SIZE bytes, remotely readable and writable
 * @send_next: next send slot
 * @send_busy: sends posted and not completed
 * @route_ok: RDMA_CM_EVENT_ROUTE_RESOLVED arrived
 * @established: the login was accepted
 * @dead: the QP failed (a flushed or failed completion)
 * @disconnected: RDMA_CM_EVENT_DISCONNECTED arrived
 * @rejected: RDMA_CM_EVENT_REJECTED arrived
 * @cm_error: another CM event ended the connection attempt
 * @cm_status: status of the event that ended the connection attempt
 * @pdata: private data of the ESTABLISHED or REJECTED event
 * @pdata_len: its length
 * @credits: the request limit: granted by SRP_LOGIN_RSP and SRP_RSPs,
 *	less the requests sent
 * @max_ti_iu_len: from SRP_LOGIN_RSP
 * @max_it_iu_len: from SRP_LOGIN_RSP
 */
struct conn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *mem;
	uint8_t *data;
	unsigned int send_next;
	unsigned int send_busy;
	bool route_ok;
	bool established;
	bool dead;
	bool disconnected;
	bool rejected;
	bool cm_error;
	int cm_status;
	uint8_t pdata[256];
	uint8_t pdata_len;
	int32_t credits;
	uint32_t max_ti_iu_len;
	uint32_t max_it_iu_len;
};

static struct rdma_event_channel *cm_ch;
static struct conn *cur;	/* the connection being set up */
static struct conn *conn;	/* the logged-in channel, if any */
static uint64_t next_tag = 0x5350480000000001ULL;
static uint32_t block_len;	/* LUN 0's block length, once known */
static uint8_t lba1_pattern[4096];
static bool lba1_written;
/* conn_prepare() posts no receive buffer (the target's SENDs stall) */
static bool prepare_no_recv;

static uint8_t *recv_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)i * RBUF_SIZE;
}

static uint8_t *send_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)NRECV * RBUF_SIZE + (size_t)i * SBUF_SIZE;
}

static int post_recv(struct conn *c, unsigned int i)
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

static void conn_destroy(struct conn *c)
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

/*
 * Resolve the target's address and route and set up a QP with all
 * receive buffers posted: everything but the login itself.
 */
static struct conn *conn_prepare(struct tcase *t)
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
static int conn_connect(struct tcase *t, struct conn *c, const uint8_t *pdata,
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

/* The login request, RDMA/CM form (Linux' struct srp_login_req_rdma). */
struct login {
	uint64_t tag;
	uint16_t buf_fmt;
	uint8_t flags;
	uint8_t opcode;
	uint32_t it_iu_len;
	uint64_t id_ext;
	uint64_t ioc_guid;
};

static void login_default(struct login *l)
{
	memset(l, 0, sizeof(*l));
	l->tag = next_tag++;
	l->buf_fmt = BUF_FMT_DIRECT | BUF_FMT_INDIRECT;
	l->flags = MCA_SINGLE;
	l->opcode = SRP_LOGIN_REQ;
	l->it_iu_len = IT_IU_LEN;
	l->id_ext = opt.id_ext;
	l->ioc_guid = opt.ioc_guid;
}

static void login_build(uint8_t *p, const struct login *l)
{
	memset(p, 0, LOGIN_REQ_RDMA_LEN);
	put_be64(p + 0, l->tag);
	put_be16(p + 8, l->buf_fmt);
	p[10] = l->flags;
	p[11] = l->opcode;
	put_be32(p + 12, l->it_iu_len);
	/* INITIATOR PORT IDENTIFIER: "hostile" and a number */
	memcpy(p + 16, "hostile!", 8);
	put_be64(p + 24, 0x5350480000000001ULL);
	put_be64(p + 32, l->id_ext);
	put_be64(p + 40, l->ioc_guid);
	/* IMMEDIATE DATA OFFSET (bytes 48-49): none requested */
}

/* ---------------------------------------------------------------------- */
/* Sending and receiving IUs                                               */
/* ---------------------------------------------------------------------- */

enum { GOT_IU, GOT_DEAD, GOT_TIMEOUT };

/* A completion: returns GOT_IU with @iu filled in, or -1 for none. */
static int cq_poll_one(struct conn *c, struct iu *iu)
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
static int conn_wait(struct conn *c, int ms, struct iu *iu)
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
static int conn_send(struct tcase *t, struct conn *c, const void *buf,
		     uint32_t len)
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

/* ---------------------------------------------------------------------- */
/* Building requests, parsing responses                                    */
/* ---------------------------------------------------------------------- */

/* SAM-5 §4.6: single level LUN, peripheral (< 256) or flat addressing. */
static void lun_encode(uint8_t *p, unsigned int lun)
{
	memset(p, 0, 8);
	if (lun < 256) {
		p[1] = lun;
	} else {
		p[0] = 0x40 | ((lun >> 8) & 0x3f);
		p[1] = lun;
	}
}

/**
 * struct cmd - an SRP_CMD to build
 * @lun: LOGICAL UNIT NUMBER
 * @cdb: the CDB (16 bytes)
 * @fmt: byte 5: DATA-OUT (bits 7-4) and DATA-IN (bits 3-0) formats
 * @do_cnt: DATA-OUT BUFFER DESCRIPTOR COUNT
 * @di_cnt: DATA-IN BUFFER DESCRIPTOR COUNT
 * @add_cdb: byte 31: ADDITIONAL CDB LENGTH (bits 7-2, in dwords)
 * @tail: what follows the fixed part (additional CDB, descriptors)
 * @tail_len: its length
 * @tag: the TAG, set by cmd_build()
 */
struct cmd {
	unsigned int lun;
	uint8_t cdb[16];
	uint8_t fmt;
	uint8_t do_cnt;
	uint8_t di_cnt;
	uint8_t add_cdb;
	uint8_t tail[256];
	uint32_t tail_len;
	uint64_t tag;
};

/* §6.8: an SRP_CMD in @p; returns its length. */
static uint32_t cmd_build(uint8_t *p, struct cmd *cm)
{
	memset(p, 0, CMD_LEN);
	cm->tag = next_tag++;
	p[0] = SRP_CMD;
	p[5] = cm->fmt;
	p[6] = cm->do_cnt;
	p[7] = cm->di_cnt;
	put_be64(p + 8, cm->tag);
	lun_encode(p + 20, cm->lun);
	p[31] = cm->add_cdb;
	memcpy(p + 32, cm->cdb, 16);
	memcpy(p + CMD_LEN, cm->tail, cm->tail_len);
	return CMD_LEN + cm->tail_len;
}

/* A direct data buffer descriptor (§5.5.2). */
static void desc_put(uint8_t *p, uint64_t va, uint32_t rkey, uint32_t len)
{
	put_be64(p, va);
	put_be32(p + 8, rkey);
	put_be32(p + 12, len);
}

/**
 * struct rsp - a parsed SRP_RSP (§6.9)
 * @tag: TAG
 * @delta: REQUEST LIMIT DELTA
 * @flags: byte 18
 * @status: SCSI STATUS
 * @resp: response data (RSPVALID)
 * @resp_len: its length
 * @sense: sense data (SNSVALID)
 * @sense_len: its length
 */
struct rsp {
	uint64_t tag;
	int32_t delta;
	uint8_t flags;
	uint8_t status;
	const uint8_t *resp;
	uint32_t resp_len;
	const uint8_t *sense;
	uint32_t sense_len;
};

/* Parse an SRP_RSP; false, with why in @err, for another or a bad IU. */
static bool rsp_parse(const struct iu *iu, struct rsp *r, char *err,
		      size_t errlen)
{
	uint32_t off = RSP_LEN;

	memset(r, 0, sizeof(*r));
	if (iu->len < RSP_LEN || iu->buf[0] != SRP_RSP) {
		snprintf(err, errlen, "not an SRP_RSP (type 0x%02x, %u bytes)",
			 iu->len ? iu->buf[0] : 0, iu->len);
		return false;
	}
	r->delta = (int32_t)get_be32(iu->buf + 4);
	r->tag = get_be64(iu->buf + 8);
	r->flags = iu->buf[18];
	r->status = iu->buf[19];
	if (r->flags & RSP_RSPVALID) {
		r->resp_len = get_be32(iu->buf + 32);
		r->resp = iu->buf + off;
		off += r->resp_len;
	}
	if (r->flags & RSP_SNSVALID) {
		r->sense_len = get_be32(iu->buf + 28);
		r->sense = iu->buf + off;
		off += r->sense_len;
	}
	if (off > iu->len || off < RSP_LEN) {
		snprintf(err, errlen,
			 "SRP_RSP of %u bytes announces %u bytes of response and sense data",
			 iu->len, r->resp_len + r->sense_len);
		return false;
	}
	return true;
}

/* SPC-4 §4.5: sense key, ASC, ASCQ of fixed or descriptor format sense. */
static bool sense_decode(const struct rsp *r, uint8_t *key, uint8_t *asc,
			 uint8_t *ascq)
{
	const uint8_t *s = r->sense;

	if (!s || r->sense_len < 4)
		return false;
	switch (s[0] & 0x7f) {
	case 0x70:
	case 0x71:
		if (r->sense_len < 14)
			return false;
		*key = s[2] & 0xf;
		*asc = s[12];
		*ascq = s[13];
		return true;
	case 0x72:
	case 0x73:
		*key = s[1] & 0xf;
		*asc = s[2];
		*ascq = s[3];
		return true;
	default:
		return false;
	}
}

static const char *status_str(uint8_t st)
{
	switch (st) {
	case ST_GOOD:
		return "GOOD";
	case ST_CHECK_CONDITION:
		return "CHECK CONDITION";
	case ST_BUSY:
		return "BUSY";
	case ST_TASK_SET_FULL:
		return "TASK SET FULL";
	default:
		return "other status";
	}
}

/* What an SRP_RSP says, for messages. */
static void rsp_str(const struct rsp *r, char *buf, size_t len)
{
	uint8_t key, asc, ascq;

	if (r->status == ST_CHECK_CONDITION && sense_decode(r, &key, &asc, &ascq))
		snprintf(buf, len, "%s, sense %x/%02x/%02x",
			 status_str(r->status), key, asc, ascq);
	else if (r->resp_len >= 4)
		snprintf(buf, len, "%s, RSP_CODE 0x%02x",
			 status_str(r->status), r->resp[3]);
	else
		snprintf(buf, len, "%s (0x%02x)", status_str(r->status),
			 r->status);
}

/* ---------------------------------------------------------------------- */
/* Conversations                                                           */
/* ---------------------------------------------------------------------- */

static struct iu *rx;		/* the last IU received */

/* Log in with a valid SRP_LOGIN_REQ and check the SRP_LOGIN_RSP. */
static int login_valid(struct tcase *t)
{
	uint8_t pd[LOGIN_REQ_RDMA_LEN];
	struct login l;
	struct conn *c;
	uint16_t fmt;

	c = conn_prepare(t);
	if (!c)
		return -1;
	login_default(&l);
	login_build(pd, &l);
	if (conn_connect(t, c, pd, sizeof(pd))) {
		conn_destroy(c);
		return -1;
	}
	if (!c->established) {
		tfail(t, "valid login refused (%s, CM status %d, SRP_LOGIN_REJ reason 0x%08x)",
		      c->rejected ? "rejected" : "CM error", c->cm_status,
		      c->pdata_len >= 8 && c->pdata[0] == SRP_LOGIN_REJ ?
		      get_be32(c->pdata + 4) : 0);
		conn_destroy(c);
		return -1;
	}
	/* §6.3: the SRP_LOGIN_RSP */
	if (!check(t, c->pdata_len >= LOGIN_RSP_LEN &&
		   c->pdata[0] == SRP_LOGIN_RSP,
		   "login accepted without an SRP_LOGIN_RSP (%u bytes, type 0x%02x)",
		   c->pdata_len, c->pdata[0]) ||
	    !check(t, get_be64(c->pdata + 8) == l.tag,
		   "SRP_LOGIN_RSP tag 0x%" PRIx64 ", login tag 0x%" PRIx64,
		   get_be64(c->pdata + 8), l.tag)) {
		conn_destroy(c);
		return -1;
	}
	c->credits = (int32_t)get_be32(c->pdata + 4);
	c->max_it_iu_len = get_be32(c->pdata + 16);
	c->max_ti_iu_len = get_be32(c->pdata + 20);
	fmt = get_be16(c->pdata + 24);
	vlog("SRP_LOGIN_RSP: req_lim_delta %d, max_it/ti_iu_len %u/%u, fmt 0x%04x, flags 0x%02x",
	     c->credits, c->max_it_iu_len, c->max_ti_iu_len, fmt,
	     c->pdata[26]);
	if (!check(t, c->credits >= 1, "REQUEST LIMIT DELTA %d grants no credit",
		   c->credits) ||
	    !check(t, c->max_it_iu_len >= 64,
		   "MAXIMUM INITIATOR TO TARGET IU LENGTH %u below 64",
		   c->max_it_iu_len) ||
	    !check(t, c->max_ti_iu_len >= RSP_LEN + 4 &&
		   c->max_ti_iu_len <= RBUF_SIZE,
		   "MAXIMUM TARGET TO INITIATOR IU LENGTH %u: not in %u..%u",
		   c->max_ti_iu_len, RSP_LEN + 4, RBUF_SIZE) ||
	    !check(t, (fmt & (BUF_FMT_DIRECT | BUF_FMT_INDIRECT)) ==
		   (BUF_FMT_DIRECT | BUF_FMT_INDIRECT),
		   "SUPPORTED BUFFER FORMATS 0x%04x lacks what we required",
		   fmt)) {
		conn_destroy(c);
		return -1;
	}
	conn = c;
	return 0;
}

static void logout(void)
{
	conn_destroy(conn);
	conn = NULL;
}

/* A channel that works, logging in again if the last one is gone. */
static int ensure_conn(struct tcase *t)
{
	bool flip = t->flip;
	int ret;

	if (conn && !conn->dead && !conn->disconnected)
		return 0;
	logout();
	/* a precondition of the case, not what it checks: never flipped */
	t->flip = false;
	ret = login_valid(t);
	t->flip = flip;
	return ret;
}

/* A fresh channel, as a precondition. */
static int fresh_conn(struct tcase *t)
{
	logout();
	return ensure_conn(t);
}

/*
 * Send a request IU and wait for the SRP_RSP with its tag. Other IUs on
 * the way are a failure. Returns 0 with *r filled in (pointing into rx),
 * or -1 with the failure recorded.
 */
static int request(struct tcase *t, const uint8_t *iu, uint32_t len,
		   uint64_t tag, struct rsp *r)
{
	char err[200];
	int ret;

	if (conn->credits < 1)
		return tfail(t, "no credit left to send a request (request limit %d)",
			     conn->credits);
	if (conn_send(t, conn, iu, len))
		return -1;
	conn->credits--;
	ret = conn_wait(conn, opt.timeout_ms, rx);
	if (ret == GOT_TIMEOUT)
		return tfail(t, "no response within %d ms", opt.timeout_ms);
	if (ret == GOT_DEAD)
		return tfail(t, "the target dropped the channel instead of responding");
	if (!check(t, rsp_parse(rx, r, err, sizeof(err)), "%s", err))
		return -1;
	conn->credits += r->delta;
	if (!check(t, r->tag == tag,
		   "SRP_RSP for tag 0x%" PRIx64 ", expected 0x%" PRIx64,
		   r->tag, tag) ||
	    !check(t, conn->credits >= 1,
		   "the SRP_RSP (REQUEST LIMIT DELTA %d) leaves no credit",
		   r->delta))
		return -1;
	return 0;
}

/* Send an SRP_CMD and wait for its SRP_RSP. */
static int command(struct tcase *t, struct cmd *cm, struct rsp *r)
{
	uint8_t iu[SBUF_SIZE];
	uint32_t len = cmd_build(iu, cm);

	return request(t, iu, len, cm->tag, r);
}

/*
 * A command that must end GOOD, retried while it reports a UNIT ATTENTION
 * (each new channel is a new I_T nexus with its own POWER ON OCCURRED).
 */
static int command_good(struct tcase *t, struct cmd *cm, const char *what)
{
	uint8_t key = 0, asc = 0, ascq = 0;
	char desc[100];
	struct rsp r;
	int i;

	for (i = 0; i < 5; i++) {
		if (command(t, cm, &r))
			return -1;
		if (r.status == ST_CHECK_CONDITION &&
		    sense_decode(&r, &key, &asc, &ascq) &&
		    key == SK_UNIT_ATTENTION) {
			vlog("%s: UNIT ATTENTION %02x/%02x, again", what, asc,
			     ascq);
			continue;
		}
		rsp_str(&r, desc, sizeof(desc));
		return check(t, r.status == ST_GOOD, "%s: %s, expected GOOD",
			     what, desc) ? 0 : -1;
	}
	return tfail(t, "%s: UNIT ATTENTION five times", what);
}

static void cdb_tur(struct cmd *cm, unsigned int lun)
{
	memset(cm, 0, sizeof(*cm));
	cm->lun = lun;
}

/* TEST UNIT READY to LUN 0 must succeed: the channel works. */
static int tur_ok(struct tcase *t)
{
	struct cmd cm;

	cdb_tur(&cm, 0);
	return command_good(t, &cm, "TEST UNIT READY to LUN 0");
}

/* TEST UNIT READY GOOD as a precondition (the unit attention gone). */
static int tur_pre(struct tcase *t)
{
	bool flip = t->flip;
	int ret;

	t->flip = false;
	ret = tur_ok(t);
	t->flip = flip;
	return ret;
}

/* READ(10) / WRITE(10) of @nblocks at @lba with a direct descriptor. */
static void cdb_rw10(struct cmd *cm, bool write, uint32_t lba,
		     uint16_t nblocks, uint64_t va, uint32_t rkey, uint32_t len)
{
	memset(cm, 0, sizeof(*cm));
	cm->cdb[0] = write ? 0x2a : 0x28;
	put_be32(cm->cdb + 2, lba);
	put_be16(cm->cdb + 7, nblocks);
	cm->fmt = write ? DESC_DIRECT << 4 : DESC_DIRECT;
	desc_put(cm->tail, va, rkey, len);
	cm->tail_len = DIRECT_DESC_LEN;
}

/* The block length of LUN 0, by READ CAPACITY(10). */
static int get_block_len(struct tcase *t)
{
	bool flip = t->flip;
	struct cmd cm;
	int ret = -1;

	if (block_len)
		return 0;
	t->flip = false;
	memset(&cm, 0, sizeof(cm));
	cm.cdb[0] = 0x25;
	cm.fmt = DESC_DIRECT;
	desc_put(cm.tail, (uintptr_t)conn->data, conn->mr->rkey, 8);
	cm.tail_len = DIRECT_DESC_LEN;
	if (command_good(t, &cm, "READ CAPACITY(10) of LUN 0"))
		goto out;
	block_len = get_be32(conn->data + 4);
	vlog("LUN 0: %u blocks of %u bytes", get_be32(conn->data) + 1,
	     block_len);
	if (!check(t, block_len >= 512 && block_len <= 4096 &&
		   !(block_len & (block_len - 1)),
		   "READ CAPACITY(10): block length %u", block_len)) {
		block_len = 0;
		goto out;
	}
	ret = 0;
out:
	t->flip = flip;
	return ret;
}

/* Read block @lba of LUN 0 into conn->data. */
static int read_block(struct tcase *t, uint32_t lba)
{
	struct cmd cm;

	memset(conn->data, 0xee, block_len);
	cdb_rw10(&cm, false, lba, 1, (uintptr_t)conn->data, conn->mr->rkey,
		 block_len);
	return command_good(t, &cm, "READ(10) of LUN 0");
}

/*
 * Expect the target to answer @iu with an SRP_RSP: CHECK CONDITION with
 * sense @key/@asc/@ascq, and then to go on serving the channel.
 */
static int expect_cc(struct tcase *t, const uint8_t *iu, uint32_t len,
		     uint64_t tag, uint8_t key, uint8_t asc, uint8_t ascq)
{
	uint8_t k = 0, a = 0, q = 0;
	char desc[100];
	struct rsp r;

	if (request(t, iu, len, tag, &r))
		return -1;
	rsp_str(&r, desc, sizeof(desc));
	CHECK(t, r.status == ST_CHECK_CONDITION,
	      "%s, expected CHECK CONDITION", desc);
	CHECK(t, sense_decode(&r, &k, &a, &q),
	      "CHECK CONDITION without decodable sense data (%u bytes)",
	      r.sense_len);
	CHECK(t, k == key && a == asc && q == ascq,
	      "sense %x/%02x/%02x, expected %x/%02x/%02x", k, a, q, key, asc,
	      ascq);
	tdid(t, "SRP_RSP %s", desc);
	if (tur_ok(t))
		return -1;
	tdid(t, "channel still serves");
	return 0;
}

/* An SRP_CMD that must be answered with CHECK CONDITION. */
static int cmd_expect_cc(struct tcase *t, struct cmd *cm, uint8_t key,
			 uint8_t asc, uint8_t ascq)
{
	uint8_t iu[SBUF_SIZE];
	uint32_t len = cmd_build(iu, cm);

	return expect_cc(t, iu, len, cm->tag, key, asc, ascq);
}

/* SPC-4: ILLEGAL REQUEST, INVALID FIELD IN COMMAND INFORMATION UNIT. */
static int cmd_expect_invalid_iu(struct tcase *t, struct cmd *cm)
{
	return cmd_expect_cc(t, cm, SK_ILLEGAL_REQUEST, 0x0e, 0x03);
}

/*
 * Expect the target to end the channel over @iu: first an SRP_T_LOGOUT
 * giving one of @reasons (SRP r16a §6.6; the target disconnects only once
 * its SEND completed, so the IU is in our CQ before the disconnect), no
 * SRP_RSP, then the disconnect.
 */
static int expect_logout(struct tcase *t, const uint8_t *iu, uint32_t len,
			 const uint32_t *reasons, unsigned int n)
{
	bool seen = false;
	uint32_t reason = 0;
	unsigned int i;
	int ret;

	if (conn_send(t, conn, iu, len))
		return -1;
	for (;;) {
		ret = conn_wait(conn, opt.timeout_ms, rx);
		/* the receive completion may have come with the CM event */
		if (ret == GOT_DEAD && !seen && cq_poll_one(conn, rx) == GOT_IU)
			ret = GOT_IU;
		if (ret == GOT_DEAD)
			break;
		CHECK(t, ret != GOT_TIMEOUT,
		      "the target neither logged the initiator out nor answered within %d ms",
		      opt.timeout_ms);
		CHECK(t, rx->len >= T_LOGOUT_LEN && rx->buf[0] == SRP_T_LOGOUT,
		      "the target answered with IU type 0x%02x (%u bytes)%s, expected SRP_T_LOGOUT and a disconnect",
		      rx->len ? rx->buf[0] : 0, rx->len,
		      rx->len && rx->buf[0] == SRP_RSP ? " (an SRP_RSP)" : "");
		seen = true;
		reason = get_be32(rx->buf + 4);
		for (i = 0; i < n; i++)
			if (reason == reasons[i])
				break;
		CHECK(t, i < n, "SRP_T_LOGOUT reason 0x%x, expected 0x%x",
		      reason, reasons[0]);
	}
	CHECK(t, seen, "disconnected without an SRP_T_LOGOUT first");
	tdid(t, "SRP_T_LOGOUT reason 0x%x, then disconnected", reason);
	logout();
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The cases: logins                                                       */
/* ---------------------------------------------------------------------- */

/*
 * Connect with @pdata (@len bytes) and expect a refusal: a CM REJ whose
 * private data is an SRP_LOGIN_REJ with one of @reasons (§6.4) and, when
 * @len is at least 8, the login's TAG.
 */
static int login_expect_rej(struct tcase *t, const uint8_t *pdata,
			    uint8_t len, const uint32_t *reasons,
			    unsigned int n)
{
	struct conn *c = conn_prepare(t);
	uint32_t reason;
	unsigned int i;
	uint16_t fmt;
	int ret = -1;

	if (!c)
		return -1;
	if (conn_connect(t, c, pdata, len))
		goto out;
	if (!check(t, !c->established, "the target accepted the login") ||
	    !check(t, c->rejected,
		   "the login failed without a CM REJ (CM status %d)",
		   c->cm_status) ||
	    !check(t, c->cm_status == IB_CM_REJ_CONSUMER,
		   "CM REJ reason %d, expected %d (consumer defined: SRP_LOGIN_REJ)",
		   c->cm_status, IB_CM_REJ_CONSUMER) ||
	    !check(t, c->pdata_len >= LOGIN_REJ_LEN &&
		   c->pdata[0] == SRP_LOGIN_REJ,
		   "the REJ carries no SRP_LOGIN_REJ (%u bytes, type 0x%02x)",
		   c->pdata_len, c->pdata[0]))
		goto out;
	reason = get_be32(c->pdata + 4);
	fmt = get_be16(c->pdata + 24);
	for (i = 0; i < n; i++)
		if (reason == reasons[i])
			break;
	if (!check(t, i < n, "SRP_LOGIN_REJ reason 0x%08x, expected 0x%08x",
		   reason, reasons[0]))
		goto out;
	if (len >= 8 &&
	    !check(t, get_be64(c->pdata + 8) == get_be64(pdata),
		   "SRP_LOGIN_REJ tag 0x%" PRIx64 ", login tag 0x%" PRIx64,
		   get_be64(c->pdata + 8), get_be64(pdata)))
		goto out;
	/* §6.4: SUPPORTED BUFFER FORMATS tells what the target can do */
	if (reason == REJ_UNSUPPORTED_FMT &&
	    !check(t, fmt && !(fmt & ~(BUF_FMT_DIRECT | BUF_FMT_INDIRECT)),
		   "SRP_LOGIN_REJ SUPPORTED BUFFER FORMATS 0x%04x", fmt))
		goto out;
	tdid(t, "SRP_LOGIN_REJ reason 0x%08x", reason);
	ret = 0;
out:
	conn_destroy(c);
	return ret;
}

static int login_rej(struct tcase *t, const struct login *l, uint8_t len,
		     uint32_t r1, uint32_t r2)
{
	uint8_t pd[LOGIN_REQ_RDMA_LEN];
	uint32_t reasons[2] = { r1, r2 ? r2 : r1 };

	login_build(pd, l);
	return login_expect_rej(t, pd, len, reasons, 2);
}

/*
 * Over IB CM (InfiniBand, RoCE) the REQ private data has a fixed size: a
 * truncated login arrives padded with zeros, and the target must refuse
 * what the zeros say. No private data: IU LENGTH 0.
 */
static int c_login_empty(struct tcase *t)
{
	return login_expect_rej(t, NULL, 0, (const uint32_t[]){
				REJ_IT_IU_LEN, REJ_UNABLE_ESTABLISH }, 2);
}

/* 12 bytes: TAG, formats, flags, type; IU LENGTH missing (0). */
static int c_login_trunc12(struct tcase *t)
{
	struct login l;

	login_default(&l);
	return login_rej(t, &l, 12, REJ_IT_IU_LEN, REJ_UNABLE_ESTABLISH);
}

/* 32 bytes: the TARGET PORT IDENTIFIER missing (0): not ours. */
static int c_login_trunc32(struct tcase *t)
{
	struct login l;

	login_default(&l);
	return login_rej(t, &l, 32, REJ_UNABLE_ASSOCIATE, REJ_UNABLE_ESTABLISH);
}

/* §6.2: a login of another IU type: unable to establish. */
static int c_login_opcode(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.opcode = SRP_CMD;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_UNABLE_ESTABLISH, 0);
}

/*
 * §6.2: REQUESTED MAXIMUM INITIATOR TO TARGET IU LENGTH below 64, where
 * not even an SRP_CMD fits: the length is refused (our target) or the
 * channel cannot be established.
 */
static int c_login_iu_small(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.it_iu_len = 32;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_IT_IU_LEN,
			 REJ_UNABLE_ESTABLISH);
}

/* §6.4: a length above what the target receives: reason 0x10002. */
static int c_login_iu_large(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.it_iu_len = 1024 * 1024;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_IT_IU_LEN, 0);
}

static int c_login_iu_huge(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.it_iu_len = 0xffffffff;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_IT_IU_LEN, 0);
}

/*
 * §6.2, §6.4: REQUIRED BUFFER FORMATS naming only formats SRP r16a does
 * not define: "requested buffer formats not supported", with the
 * SUPPORTED BUFFER FORMATS in the SRP_LOGIN_REJ.
 */
static int c_login_buf_fmt(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.buf_fmt = 0xfff8;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_UNSUPPORTED_FMT, 0);
}

/* §6.2: a TARGET PORT IDENTIFIER that is not the target's. */
static int c_login_id_ext(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.id_ext ^= 0x0100000000000001ULL;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_UNABLE_ASSOCIATE, 0);
}

static int c_login_ioc_guid(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.ioc_guid ^= 0x0100000000000001ULL;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_UNABLE_ASSOCIATE, 0);
}

/* §6.2: MULTI-CHANNEL ACTION 10b and 11b are reserved. */
static int c_login_mca2(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.flags = 0x02;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_MULTICHANNEL, 0);
}

static int c_login_mca3(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.flags = 0x03;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_MULTICHANNEL, 0);
}

/* A valid login is accepted and the channel serves commands. */
static int c_login_valid(struct tcase *t)
{
	logout();
	if (login_valid(t))
		return -1;
	tdid(t, "SRP_LOGIN_RSP: %d credits, max_ti_iu_len %u", conn->credits,
	     conn->max_ti_iu_len);
	if (tur_ok(t))
		return -1;
	tdid(t, "TEST UNIT READY GOOD");
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The cases: information units on a channel                               */
/* ---------------------------------------------------------------------- */

/*
 * Data both ways through the tool's own memory: READ CAPACITY, WRITE and
 * READ back of LBA 1 of LUN 0 (the target's RDMA READ and RDMA WRITE).
 */
static int c_rw_valid(struct tcase *t)
{
	struct cmd cm;
	uint32_t i;

	if (ensure_conn(t) || get_block_len(t))
		return -1;
	for (i = 0; i < block_len; i++)
		lba1_pattern[i] = (uint8_t)(i * 7 + 0x5a);
	memcpy(conn->data, lba1_pattern, block_len);
	cdb_rw10(&cm, true, 1, 1, (uintptr_t)conn->data, conn->mr->rkey,
		 block_len);
	if (command_good(t, &cm, "WRITE(10) of LBA 1"))
		return -1;
	lba1_written = true;
	if (read_block(t, 1))
		return -1;
	CHECK(t, !memcmp(conn->data, lba1_pattern, block_len),
	      "LBA 1 reads back other data than was written");
	tdid(t, "block length %u, WRITE and READ back of LBA 1 GOOD",
	     block_len);
	return 0;
}

/* An IU of @len bytes of type @type, otherwise zero but a TAG. */
static int iu_expect_logout(struct tcase *t, uint8_t type, uint32_t len,
			    uint32_t reason)
{
	uint8_t iu[64] = { type };

	if (ensure_conn(t))
		return -1;
	if (len >= 16)
		put_be64(iu + 8, next_tag++);
	return expect_logout(t, iu, len, &reason, 1);
}

/* §6.6: a type SRP r16a does not define: SRP_T_LOGOUT, invalid type. */
static int c_iu_unknown(struct tcase *t)
{
	return iu_expect_logout(t, 0x7f, 64, TLO_INVALID_IU_TYPE);
}

/* §6.6: a type only a target sends (SRP_RSP): invalid type. */
static int c_iu_target_type(struct tcase *t)
{
	return iu_expect_logout(t, SRP_RSP, 64, TLO_INVALID_IU_TYPE);
}

/* §6.6: an SRP_CMD shorter than its 48-byte fixed part: invalid length. */
static int c_iu_cmd_short(struct tcase *t)
{
	return iu_expect_logout(t, SRP_CMD, 40, TLO_INVALID_IU_LEN);
}

static int c_iu_tmf_short(struct tcase *t)
{
	return iu_expect_logout(t, SRP_TSK_MGMT, 24, TLO_INVALID_IU_LEN);
}

/* A SEND without any byte: no type at all. */
static int c_iu_empty(struct tcase *t)
{
	return iu_expect_logout(t, 0, 0, TLO_INVALID_IU_LEN);
}

/* §6.5: SRP_I_LOGOUT: the target ends the channel, without a response. */
static int c_i_logout(struct tcase *t)
{
	uint8_t iu[I_LOGOUT_LEN] = { SRP_I_LOGOUT };
	int ret;

	if (ensure_conn(t))
		return -1;
	put_be64(iu + 8, next_tag++);
	if (conn_send(t, conn, iu, sizeof(iu)))
		return -1;
	ret = conn_wait(conn, opt.timeout_ms, rx);
	CHECK(t, ret != GOT_TIMEOUT,
	      "the channel is still up %d ms after SRP_I_LOGOUT",
	      opt.timeout_ms);
	CHECK(t, ret == GOT_DEAD,
	      "the target answered SRP_I_LOGOUT with IU type 0x%02x",
	      rx->buf[0]);
	tdid(t, "disconnected");
	logout();
	return 0;
}

/*
 * SRP r16a §6.8, SPC-4: an SRP_CMD the target cannot make sense of is
 * answered with CHECK CONDITION, ILLEGAL REQUEST, INVALID FIELD IN COMMAND
 * INFORMATION UNIT (0e/03), and the channel goes on.
 */

/* ADDITIONAL CDB LENGTH 16 bytes, but the IU ends after the CDB. */
static int c_cmd_add_cdb(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_tur(&cm, 0);
	cm.add_cdb = 16;	/* 4 dwords, in bits 7-2 */
	return cmd_expect_invalid_iu(t, &cm);
}

/* The longest additional CDB (252 bytes), the IU 100 bytes. */
static int c_cmd_add_cdb_max(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_tur(&cm, 0);
	cm.add_cdb = 0xfc;
	cm.tail_len = 52;
	return cmd_expect_invalid_iu(t, &cm);
}

/* READ(10) with a direct data-in descriptor that the IU does not hold. */
static int c_cmd_desc_missing(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_rw10(&cm, false, 0, 1, (uintptr_t)conn->data, conn->mr->rkey, 512);
	cm.tail_len = 8;	/* half a descriptor */
	return cmd_expect_invalid_iu(t, &cm);
}

/* A direct data-in format with DATA-IN BUFFER DESCRIPTOR COUNT 3. */
static int c_cmd_desc_count(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_rw10(&cm, false, 0, 1, (uintptr_t)conn->data, conn->mr->rkey, 512);
	cm.di_cnt = 3;
	return cmd_expect_invalid_iu(t, &cm);
}

/* No data at all, but DATA-OUT BUFFER DESCRIPTOR COUNT 1. */
static int c_cmd_desc_count_nodata(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_tur(&cm, 0);
	cm.do_cnt = 1;
	return cmd_expect_invalid_iu(t, &cm);
}

/* An indirect descriptor (§5.5.3) with @cnt of @table descriptors. */
static void cdb_indirect(struct cmd *cm, uint8_t cnt, uint32_t table_len,
			 uint32_t total, unsigned int carried)
{
	unsigned int i;

	cdb_rw10(cm, false, 0, 1, 0, 0, 0);
	cm->fmt = DESC_INDIRECT;
	cm->di_cnt = cnt;
	desc_put(cm->tail, (uintptr_t)conn->data + 4096, conn->mr->rkey,
		 table_len);
	put_be32(cm->tail + 16, total);
	for (i = 0; i < carried; i++)
		desc_put(cm->tail + INDIRECT_HDR_LEN + i * DIRECT_DESC_LEN,
			 (uintptr_t)conn->data + i * 512, conn->mr->rkey, 512);
	cm->tail_len = INDIRECT_HDR_LEN + carried * DIRECT_DESC_LEN;
}

/* Four descriptors announced, one carried: the list runs past the IU. */
static int c_cmd_indirect_past_iu(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 4, 4 * DIRECT_DESC_LEN, 4 * 512, 1);
	return cmd_expect_invalid_iu(t, &cm);
}

/* The indirect header itself cut short. */
static int c_cmd_indirect_short(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 1, DIRECT_DESC_LEN, 512, 1);
	cm.tail_len = 12;
	return cmd_expect_invalid_iu(t, &cm);
}

/* A partial list of two descriptors from a table of one. */
static int c_cmd_indirect_count(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 2, DIRECT_DESC_LEN, 1024, 2);
	return cmd_expect_invalid_iu(t, &cm);
}

/* A table length that is no whole number of descriptors. */
static int c_cmd_indirect_table_len(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 1, DIRECT_DESC_LEN + 4, 512, 1);
	return cmd_expect_invalid_iu(t, &cm);
}

/* TOTAL LENGTH other than the sum of the (whole) table's lengths. */
static int c_cmd_indirect_total(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 1, DIRECT_DESC_LEN, 4096, 1);
	return cmd_expect_invalid_iu(t, &cm);
}

/* Descriptor lengths summing past 2^32 - 1. */
static int c_cmd_indirect_overflow(struct tcase *t)
{
	struct cmd cm;
	unsigned int i;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 2, 2 * DIRECT_DESC_LEN, 0xfffffffe, 2);
	for (i = 0; i < 2; i++)
		put_be32(cm.tail + INDIRECT_HDR_LEN + i * DIRECT_DESC_LEN + 12,
			 0xffffffff);
	return cmd_expect_invalid_iu(t, &cm);
}

/*
 * §6.8: a reserved DATA-IN BUFFER DESCRIPTOR FORMAT. SRP r16a lets the
 * target log the initiator out (SRP_T_LOGOUT reason 6); ours answers
 * CHECK CONDITION, INVALID FIELD IN COMMAND INFORMATION UNIT.
 */
static int c_cmd_reserved_fmt(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_rw10(&cm, false, 0, 1, (uintptr_t)conn->data, conn->mr->rkey, 512);
	cm.fmt = 0x0f;
	return cmd_expect_invalid_iu(t, &cm);
}

/* Data-out and data-in buffers at once: bidirectional, not supported. */
static int c_cmd_bidi(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_rw10(&cm, false, 0, 1, (uintptr_t)conn->data, conn->mr->rkey, 512);
	cm.fmt = DESC_DIRECT << 4 | DESC_DIRECT;
	desc_put(cm.tail + DIRECT_DESC_LEN, (uintptr_t)conn->data + 512,
		 conn->mr->rkey, 512);
	cm.tail_len = 2 * DIRECT_DESC_LEN;
	return cmd_expect_invalid_iu(t, &cm);
}

/* SAM-5, SPC-4: a LUN the session has no logical unit at. */
static int c_cmd_unmapped_lun(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_tur(&cm, 200);
	/* ILLEGAL REQUEST, LOGICAL UNIT NOT SUPPORTED */
	return cmd_expect_cc(t, &cm, SK_ILLEGAL_REQUEST, 0x25, 0x00);
}

/* A LUN of an addressing method nobody uses: no logical unit either. */
static int c_cmd_garbage_lun(struct tcase *t)
{
	uint8_t iu[SBUF_SIZE];
	struct cmd cm;
	uint32_t len;

	if (ensure_conn(t))
		return -1;
	cdb_tur(&cm, 0);
	len = cmd_build(iu, &cm);
	memset(iu + 20, 0xff, 8);
	return expect_cc(t, iu, len, cm.tag, SK_ILLEGAL_REQUEST, 0x25, 0x00);
}

/*
 * A WRITE whose data-out descriptor names memory we never registered:
 * the target's RDMA READ fails (our HCA answers with a remote access
 * error, which also breaks our QP). The target must not report GOOD (it
 * never got the data) and must end or fail the command; it cannot answer
 * over the broken QP, so the channel goes. The medium must not change
 * (checked in "relogin-after-all").
 */
static int bogus_rkey(struct tcase *t, bool write)
{
	char desc[100], err[200];
	struct cmd cm;
	struct rsp r;
	int ret;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	cdb_rw10(&cm, write, 1, 1, 0xdead0000beef0000ULL, 0x0badc0de,
		 block_len);
	{
		uint8_t iu[SBUF_SIZE];
		uint32_t len = cmd_build(iu, &cm);

		if (conn_send(t, conn, iu, len))
			return -1;
		conn->credits--;
	}
	ret = conn_wait(conn, opt.timeout_ms, rx);
	CHECK(t, ret != GOT_TIMEOUT,
	      "neither a response nor a disconnect within %d ms",
	      opt.timeout_ms);
	if (ret == GOT_IU) {
		CHECK(t, rsp_parse(rx, &r, err, sizeof(err)), "%s", err);
		rsp_str(&r, desc, sizeof(desc));
		CHECK(t, r.tag == cm.tag && r.status != ST_GOOD,
		      "SRP_RSP tag 0x%" PRIx64 " %s: reports a transfer that failed",
		      r.tag, desc);
		tdid(t, "SRP_RSP %s", desc);
	} else {
		tdid(t, "the channel failed/disconnected (no response)");
	}
	logout();
	return 0;
}

static int c_cmd_write_bogus_rkey(struct tcase *t)
{
	return bogus_rkey(t, true);
}

static int c_cmd_read_bogus_rkey(struct tcase *t)
{
	return bogus_rkey(t, false);
}

/*
 * SRP r16a §5.5.3: an indirect descriptor whose table the IU holds only
 * the first of: the target must RDMA READ the table (two descriptors of a
 * block each, the second @len2 bytes long) from our memory and check it.
 */
static void cdb_ext_table(struct cmd *cm, bool write, uint32_t lba,
			  uint32_t len2, uint32_t rkey)
{
	uint8_t *tbl = conn->data + DATA_SIZE / 2;

	cdb_rw10(cm, write, lba, 2, 0, 0, 0);
	cm->fmt = write ? DESC_INDIRECT << 4 : DESC_INDIRECT;
	if (write)
		cm->do_cnt = 1;
	else
		cm->di_cnt = 1;
	desc_put(tbl, (uintptr_t)conn->data, conn->mr->rkey, block_len);
	desc_put(tbl + DIRECT_DESC_LEN, (uintptr_t)conn->data + block_len,
		 conn->mr->rkey, len2);
	desc_put(cm->tail, (uintptr_t)tbl, rkey, 2 * DIRECT_DESC_LEN);
	put_be32(cm->tail + 16, 2 * block_len);
	memcpy(cm->tail + INDIRECT_HDR_LEN, tbl, DIRECT_DESC_LEN);
	cm->tail_len = INDIRECT_HDR_LEN + DIRECT_DESC_LEN;
}

/* The control: a valid external table; READ of LBA 1-2 is GOOD. */
static int c_ext_table_valid(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	memset(conn->data, 0xee, 2 * block_len);
	cdb_ext_table(&cm, false, 1, block_len, conn->mr->rkey);
	if (command_good(t, &cm, "READ(10) through an external table"))
		return -1;
	if (lba1_written)
		CHECK(t, !memcmp(conn->data, lba1_pattern, block_len),
		      "LBA 1 read through the table differs from what was written");
	tdid(t, "GOOD, data as written");
	return 0;
}

/*
 * The table's lengths do not add up to TOTAL LENGTH: CHECK CONDITION,
 * INVALID FIELD IN COMMAND INFORMATION UNIT, and for a WRITE the medium
 * stays as it was (checked in "relogin-after-all").
 */
static int ext_table_bad(struct tcase *t, bool write)
{
	struct cmd cm;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	memset(conn->data, 0x99, 2 * block_len);
	cdb_ext_table(&cm, write, 1, block_len / 2, conn->mr->rkey);
	return cmd_expect_invalid_iu(t, &cm);
}

static int c_ext_table_read_bad(struct tcase *t)
{
	return ext_table_bad(t, false);
}

static int c_ext_table_write_bad(struct tcase *t)
{
	return ext_table_bad(t, true);
}

/* A table behind a bogus R_Key: the target's RDMA READ of it fails. */
static int c_ext_table_bogus_rkey(struct tcase *t)
{
	char desc[100], err[200];
	struct cmd cm;
	struct rsp r;
	int ret;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	cdb_ext_table(&cm, false, 1, block_len, 0x0badc0de);
	{
		uint8_t iu[SBUF_SIZE];
		uint32_t len = cmd_build(iu, &cm);

		if (conn_send(t, conn, iu, len))
			return -1;
		conn->credits--;
	}
	ret = conn_wait(conn, opt.timeout_ms, rx);
	CHECK(t, ret != GOT_TIMEOUT,
	      "neither a response nor a disconnect within %d ms",
	      opt.timeout_ms);
	if (ret == GOT_IU) {
		CHECK(t, rsp_parse(rx, &r, err, sizeof(err)), "%s", err);
		rsp_str(&r, desc, sizeof(desc));
		CHECK(t, r.tag == cm.tag && r.status != ST_GOOD,
		      "SRP_RSP tag 0x%" PRIx64 " %s: the target reported data it could not send",
		      r.tag, desc);
		tdid(t, "SRP_RSP %s", desc);
	} else {
		tdid(t, "the channel failed/disconnected (no response)");
	}
	logout();
	return 0;
}

/* An SRP_TSK_MGMT (§6.7) to @lun. */
static int tmf_lun(struct tcase *t, unsigned int lun, uint8_t func,
		   uint64_t task_tag, uint8_t want_code)
{
	uint8_t iu[TSK_MGMT_LEN] = { SRP_TSK_MGMT };
	uint64_t tag = next_tag++;
	char desc[100];
	struct rsp r;

	if (ensure_conn(t))
		return -1;
	put_be64(iu + 8, tag);
	lun_encode(iu + 20, lun);
	iu[30] = func;
	put_be64(iu + 32, task_tag);
	if (request(t, iu, sizeof(iu), tag, &r))
		return -1;
	rsp_str(&r, desc, sizeof(desc));
	/* §6.9: RSPVALID, four bytes of response data, RSP_CODE in byte 3 */
	CHECK(t, (r.flags & RSP_RSPVALID) && r.resp_len == 4,
	      "SRP_RSP without response data (flags 0x%02x, %u bytes): %s",
	      r.flags, r.resp_len, desc);
	CHECK(t, r.resp[3] == want_code, "RSP_CODE 0x%02x, expected 0x%02x",
	      r.resp[3], want_code);
	tdid(t, "SRP_RSP RSP_CODE 0x%02x", r.resp[3]);
	if (tur_ok(t))
		return -1;
	tdid(t, "channel still serves");
	return 0;
}

static int tmf(struct tcase *t, uint8_t func, uint64_t task_tag,
	       uint8_t want_code)
{
	return tmf_lun(t, 0, func, task_tag, want_code);
}

/* §6.9 table: 04h, TASK MANAGEMENT FUNCTION NOT SUPPORTED. */
static int c_tmf_unknown(struct tcase *t)
{
	return tmf(t, 0x7f, 0, RSP_CODE_NOT_SUPPORTED);
}

/* SAM-5 §7.2: ABORT TASK of a task that does not exist completes. */
static int c_tmf_abort_none(struct tcase *t)
{
	return tmf(t, TMF_ABORT_TASK, 0x1234567890abcdefULL,
		   RSP_CODE_COMPLETE);
}

/* SAM-5 §7.3, §7.4: with no task in the set, both complete. */
static int c_tmf_abort_task_set(struct tcase *t)
{
	return tmf(t, TMF_ABORT_TASK_SET, 0, RSP_CODE_COMPLETE);
}

static int c_tmf_clear_task_set(struct tcase *t)
{
	return tmf(t, TMF_CLEAR_TASK_SET, 0, RSP_CODE_COMPLETE);
}

/* SAM-5 §7.7: LUN RESET completes; the next command sees a UA. */
static int c_tmf_lun_reset(struct tcase *t)
{
	return tmf(t, TMF_LUN_RESET, 0, RSP_CODE_COMPLETE);
}

/* NACA is 0 in the target's INQUIRY data: there is no ACA to clear. */
static int c_tmf_clear_aca(struct tcase *t)
{
	return tmf(t, TMF_CLEAR_ACA, 0, RSP_CODE_NOT_SUPPORTED);
}

/* A LUN RESET of a LUN that is not mapped fails (§6.9: 05h). */
static int c_tmf_lun_reset_unmapped(struct tcase *t)
{
	return tmf_lun(t, 200, TMF_LUN_RESET, 0, RSP_CODE_FAILED);
}

/*
 * Credit overrun: twice the credits and more TEST UNIT READYs, sent
 * without waiting. SRP r16a §5.6 forbids it; the target may answer them
 * (GOOD, a UNIT ATTENTION, BUSY, TASK SET FULL) or drop the channel, but
 * must not hang or crash: every request answered, or the channel gone,
 * within the timeout.
 */
static int c_credit_overrun(struct tcase *t)
{
	unsigned int n, sent = 0, answered = 0, bad = 0, busy = 0, credits;
	int64_t end;
	uint8_t iu[CMD_LEN];
	char err[200];
	struct cmd cm;
	struct rsp r;
	bool dead = false;
	int ret;

	if (fresh_conn(t))
		return -1;
	credits = (unsigned int)conn->credits;
	n = 2 * credits + 32;
	if (n > NRECV - 16)
		n = NRECV - 16;
	vlog("%u credits: sending %u requests", credits, n);
	while (sent < n) {
		cdb_tur(&cm, 0);
		cmd_build(iu, &cm);
		if (conn_send(t, conn, iu, sizeof(iu)))
			return -1;
		sent++;
	}
	end = now_ms() + 3 * opt.timeout_ms;
	while (!dead && answered < sent) {
		ret = conn_wait(conn, (int)(end - now_ms()), rx);
		if (ret == GOT_DEAD) {
			dead = true;
			break;
		}
		CHECK(t, ret != GOT_TIMEOUT,
		      "%u of %u requests answered after %d ms, and the channel is still up",
		      answered, sent, 3 * opt.timeout_ms);
		CHECK(t, rsp_parse(rx, &r, err, sizeof(err)), "%s", err);
		answered++;
		if (r.status == ST_BUSY || r.status == ST_TASK_SET_FULL)
			busy++;
		else if (r.status != ST_GOOD &&
			 r.status != ST_CHECK_CONDITION)
			bad++;
	}
	CHECK(t, !bad,
	      "%u responses not GOOD, CHECK CONDITION, BUSY or TASK SET FULL",
	      bad);
	tdid(t, "%u requests sent for %u credits; %u answered (%u BUSY/TASK SET FULL)%s",
	     sent, credits, answered, busy,
	     dead ? ", then the channel was dropped" : "");
	logout();
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The cases: bounded resources                                            */
/* ---------------------------------------------------------------------- */

/*
 * The guest's MemAvailable (/proc/meminfo, KiB), sampled every 2 ms by a
 * thread while a command is in flight: its lowest value shows an
 * allocation the target made and freed again before answering.
 */
static struct {
	pthread_t thread;
	volatile bool stop;
	int64_t min_kib;
	bool running;
} memwatch;

static int64_t mem_available_kib(void)
{
	char line[128];
	int64_t kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %" SCNd64 " kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void *memwatch_fn(void *arg)
{
	struct timespec ts = { 0, 2000000 };

	(void)arg;
	while (!memwatch.stop) {
		int64_t kib = mem_available_kib();

		if (kib >= 0 && kib < memwatch.min_kib)
			memwatch.min_kib = kib;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* Start sampling; returns MemAvailable now, or -1. */
static int64_t memwatch_start(void)
{
	int64_t kib = mem_available_kib();

	if (kib < 0)
		return -1;
	memwatch.min_kib = kib;
	memwatch.stop = false;
	memwatch.running = !pthread_create(&memwatch.thread, NULL,
					   memwatch_fn, NULL);
	return memwatch.running ? kib : -1;
}

/* Stop sampling; returns the lowest MemAvailable seen. */
static int64_t memwatch_stop(void)
{
	int64_t kib;

	if (memwatch.running) {
		memwatch.stop = true;
		pthread_join(memwatch.thread, NULL);
		memwatch.running = false;
	}
	kib = mem_available_kib();
	if (kib >= 0 && kib < memwatch.min_kib)
		memwatch.min_kib = kib;
	return memwatch.min_kib;
}

/*
 * What "a few MiB" is: the target may allocate a command's own buffers
 * (a sense buffer, a small data-in buffer) and the kernel's other users
 * move MemAvailable too, but nothing in proportion to the lengths on the
 * wire (GiB here).
 */
#define MEM_SLACK_KIB	(16 * 1024)

/* A command that must not be retried blindly: again while it reports a UA. */
static int command_noua(struct tcase *t, struct cmd *cm, struct rsp *r)
{
	uint8_t key = 0, asc = 0, ascq = 0;
	int i;

	for (i = 0; i < 5; i++) {
		if (command(t, cm, r))
			return -1;
		if (r->status == ST_CHECK_CONDITION &&
		    sense_decode(r, &key, &asc, &ascq) &&
		    key == SK_UNIT_ATTENTION) {
			vlog("UNIT ATTENTION %02x/%02x, again", asc, ascq);
			continue;
		}
		return 0;
	}
	return tfail(t, "UNIT ATTENTION five times");
}

/* The data-in residual of the last SRP_RSP (§6.9): DIUNDER and its count. */
static uint32_t rsp_di_under(void)
{
	return rx->buf[18] & RSP_DIUNDER ? get_be32(rx->buf + 24) : 0;
}

/*
 * READ(16) / WRITE(16) of 2^24 blocks (8 GiB of 512-byte blocks) at LBA 0
 * of the big LUN (a 16 GiB vdisk_nullio, so the range is valid), with a
 * descriptor as long as SRP can say (2^32 - 512 bytes: 8 GiB does not fit
 * its 32 bits) and a bogus R_Key. The transfer exceeds any maximum a
 * target can have: CHECK CONDITION, ILLEGAL REQUEST, INVALID FIELD IN CDB
 * (SBC-3 4.4, the Block Limits VPD MAXIMUM TRANSFER LENGTH), decided
 * before any buffer is allocated: MemAvailable does not dip, and the
 * bogus R_Key is never used (using it breaks the channel).
 */
static int huge_rw16(struct tcase *t, bool write)
{
	uint8_t k = 0, a = 0, q = 0;
	int64_t before, low;
	char desc[100];
	struct cmd cm;
	struct rsp r;
	int ret;

	if (ensure_conn(t))
		return -1;
	memset(&cm, 0, sizeof(cm));
	cm.lun = opt.big_lun;
	cm.cdb[0] = write ? 0x8a : 0x88;
	put_be64(cm.cdb + 2, 0);
	put_be32(cm.cdb + 10, 1U << 24);
	cm.fmt = write ? DESC_DIRECT << 4 : DESC_DIRECT;
	desc_put(cm.tail, 0xdead0000beef0000ULL, 0x0badc0de, 0xfffffe00);
	cm.tail_len = DIRECT_DESC_LEN;
	before = memwatch_start();
	ret = command_noua(t, &cm, &r);
	low = memwatch_stop();
	if (ret)
		return -1;
	rsp_str(&r, desc, sizeof(desc));
	CHECK(t, r.status == ST_CHECK_CONDITION,
	      "%s(16) of 2^24 blocks: %s, expected CHECK CONDITION",
	      write ? "WRITE" : "READ", desc);
	CHECK(t, sense_decode(&r, &k, &a, &q) && k == SK_ILLEGAL_REQUEST &&
	      a == 0x24 && q == 0,
	      "%s, expected ILLEGAL REQUEST, INVALID FIELD IN CDB (5/24/00)",
	      desc);
	tdid(t, "SRP_RSP %s", desc);
	CHECK(t, before >= 0, "cannot read MemAvailable");
	CHECK(t, before - low <= MEM_SLACK_KIB,
	      "MemAvailable dropped by %" PRId64 " KiB while the command was in flight",
	      before - low);
	tdid(t, "MemAvailable dipped %" PRId64 " KiB at most", before - low);
	if (tur_ok(t))
		return -1;
	tdid(t, "channel still serves");
	return 0;
}

static int c_read16_huge(struct tcase *t)
{
	return huge_rw16(t, false);
}

static int c_write16_huge(struct tcase *t)
{
	return huge_rw16(t, true);
}

/*
 * A command with an allocation length (SPC-4 4.2.5.6) and a data-in
 * descriptor of 2^32 - 1 bytes: the target returns what it has (a few
 * bytes), reports the rest as residual (§6.9 DIUNDER), and allocates
 * what it builds, not what the initiator offers. Our MR covers only
 * DATA_SIZE bytes: the target must not write past what it sends.
 */
static int huge_alloc_len(struct tcase *t, struct cmd *cm, const char *what,
			  uint32_t max_len)
{
	int64_t before, low;
	char desc[100];
	uint32_t under;
	struct rsp r;
	int ret;

	if (ensure_conn(t))
		return -1;
	memset(conn->data, 0xee, DATA_SIZE);
	cm->fmt = DESC_DIRECT;
	desc_put(cm->tail, (uintptr_t)conn->data, conn->mr->rkey, 0xffffffff);
	cm->tail_len = DIRECT_DESC_LEN;
	before = memwatch_start();
	ret = command_noua(t, cm, &r);
	low = memwatch_stop();
	if (ret)
		return -1;
	rsp_str(&r, desc, sizeof(desc));
	CHECK(t, r.status == ST_GOOD, "%s: %s, expected GOOD", what, desc);
	under = rsp_di_under();
	CHECK(t, under >= 0xffffffffU - max_len,
	      "%s: data-in residual %u: more than %u bytes sent", what,
	      under, max_len);
	tdid(t, "GOOD, %u bytes sent", 0xffffffffU - under);
	CHECK(t, before >= 0, "cannot read MemAvailable");
	CHECK(t, before - low <= MEM_SLACK_KIB,
	      "MemAvailable dropped by %" PRId64 " KiB while the command was in flight",
	      before - low);
	tdid(t, "MemAvailable dipped %" PRId64 " KiB at most", before - low);
	return 0;
}

/* REPORT LUNS (SPC-4 6.33), ALLOCATION LENGTH 0xffffffff. */
static int c_report_luns_huge(struct tcase *t)
{
	uint32_t list_len;
	struct cmd cm;

	memset(&cm, 0, sizeof(cm));
	cm.cdb[0] = 0xa0;
	put_be32(cm.cdb + 6, 0xffffffff);
	if (huge_alloc_len(t, &cm, "REPORT LUNS", 8 + 8 * 16384))
		return -1;
	list_len = get_be32(conn->data);
	CHECK(t, list_len >= 8 && list_len % 8 == 0 && list_len <= 8 * 16384,
	      "LUN LIST LENGTH %u", list_len);
	CHECK(t, rsp_di_under() == 0xffffffffU - 8 - list_len,
	      "%u bytes sent for a LUN list of %u bytes",
	      0xffffffffU - rsp_di_under(), list_len);
	tdid(t, "%u LUNs listed", list_len / 8);
	return 0;
}

/*
 * INQUIRY (SPC-4 6.6): its ALLOCATION LENGTH has 16 bits, so 0xffff is
 * its largest; the descriptor is still 2^32 - 1 bytes.
 */
static int c_inquiry_huge(struct tcase *t)
{
	struct cmd cm;

	memset(&cm, 0, sizeof(cm));
	cm.cdb[0] = 0x12;
	put_be16(cm.cdb + 3, 0xffff);
	if (huge_alloc_len(t, &cm, "INQUIRY", 0xffff))
		return -1;
	CHECK(t, (conn->data[0] & 0x1f) == 0 && conn->data[4] >= 31,
	      "standard INQUIRY data: peripheral type 0x%02x, additional length %u",
	      conn->data[0] & 0x1f, conn->data[4]);
	tdid(t, "standard INQUIRY data of %u bytes", conn->data[4] + 5);
	return 0;
}

/*
 * READ(10) of one block with one descriptor of 2^32 - 1 bytes (valid
 * R_Key, our MR much shorter): the target clips the descriptor to the
 * block it sends (SRP r16a 5.5: the descriptor describes a buffer, the
 * CDB what is transferred) and reports the rest as residual.
 */
static int c_read_desc_longer(struct tcase *t)
{
	char desc[100];
	struct cmd cm;
	struct rsp r;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	memset(conn->data, 0xee, 2 * block_len);
	cdb_rw10(&cm, false, 1, 1, (uintptr_t)conn->data, conn->mr->rkey,
		 0xffffffff);
	if (command(t, &cm, &r))
		return -1;
	rsp_str(&r, desc, sizeof(desc));
	CHECK(t, r.status == ST_GOOD, "%s, expected GOOD", desc);
	CHECK(t, rsp_di_under() == 0xffffffffU - block_len,
	      "data-in residual %u, expected %u", rsp_di_under(),
	      0xffffffffU - block_len);
	if (lba1_written)
		CHECK(t, !memcmp(conn->data, lba1_pattern, block_len),
		      "LBA 1 read through a long descriptor differs from what was written");
	CHECK(t, conn->data[block_len] == 0xee,
	      "the target wrote past the block it read");
	tdid(t, "GOOD, one block sent, residual %u", rsp_di_under());
	return 0;
}

/*
 * READ(10) of LBA 1 through an external table (SRP r16a 5.5.3) of @nd
 * descriptors of @len bytes each, in our memory at @tbl_off of the data
 * area; the IU carries the first one.
 */
static void cdb_ext_many(struct cmd *cm, uint32_t nd, uint32_t len,
			 size_t tbl_off)
{
	uint8_t *tbl = conn->data + tbl_off;
	uint32_t i;

	cdb_rw10(cm, false, 1, 1, 0, 0, 0);
	cm->fmt = DESC_INDIRECT;
	cm->di_cnt = 1;
	for (i = 0; i < nd; i++)
		desc_put(tbl + (size_t)i * DIRECT_DESC_LEN,
			 (uintptr_t)conn->data + (uint64_t)i * len,
			 conn->mr->rkey, len);
	desc_put(cm->tail, (uintptr_t)tbl, conn->mr->rkey,
		 nd * DIRECT_DESC_LEN);
	put_be32(cm->tail + 16, nd * len);
	memcpy(cm->tail + INDIRECT_HDR_LEN, tbl, DIRECT_DESC_LEN);
	cm->tail_len = INDIRECT_HDR_LEN + DIRECT_DESC_LEN;
}

/*
 * 3000 one-byte descriptors: more than any target should map for one
 * command (ours takes 2048): CHECK CONDITION, INVALID FIELD IN COMMAND
 * INFORMATION UNIT, before the table is even fetched; the channel goes on.
 */
static int c_many_desc(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	cdb_ext_many(&cm, 3000, 1, 8192);
	return cmd_expect_invalid_iu(t, &cm);
}

/*
 * The control: one block read through a table of block_len / 2 two-byte
 * descriptors (256 for 512-byte blocks), each its own RDMA WRITE: GOOD,
 * and the data is the block's.
 */
static int c_many_desc_ok(struct tcase *t)
{
	uint32_t nd;
	struct cmd cm;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	nd = block_len / 2;
	memset(conn->data, 0xee, 2 * block_len);
	cdb_ext_many(&cm, nd, 2, 16384);
	if (command_good(t, &cm, "READ(10) through many 2-byte descriptors"))
		return -1;
	if (lba1_written)
		CHECK(t, !memcmp(conn->data, lba1_pattern, block_len),
		      "LBA 1 read through %u descriptors differs from what was written",
		      nd);
	tdid(t, "GOOD through %u descriptors%s", nd,
	     lba1_written ? ", data as written" : "");
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The target's sysfs: send queue accounting, login limits                 */
/* ---------------------------------------------------------------------- */

static int sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

static int sysfs_read_long(const char *path, long *v)
{
	char buf[64];

	if (sysfs_read(path, buf, sizeof(buf)))
		return -1;
	*v = strtol(buf, NULL, 0);
	return 0;
}

static int sysfs_write(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(val, f) < 0 ? -1 : 0;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* The directory of the target's only session, in @dir. */
static int sess_dir(struct tcase *t, char *dir, size_t len)
{
	char path[600];
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;

	if (!opt.sysfs_tgt)
		return tfail(t, "this case needs --sysfs-target");
	snprintf(path, sizeof(path), "%s/sessions", opt.sysfs_tgt);
	d = opendir(path);
	if (!d)
		return tfail(t, "cannot open %s: %s", path, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(dir, len, "%s/%s", path, de->d_name) >= (int)len) {
			closedir(d);
			return tfail(t, "session path too long");
		}
		n++;
	}
	closedir(d);
	if (n != 1)
		return tfail(t, "%u sessions on the target, expected only ours", n);
	return 0;
}

/**
 * struct sq_state - a channel's send queue as the target shows it
 * @size: sq_size, entries work requests may use
 * @free: sq_free
 * @waiting: sq_waiting, posts waiting for room
 * @fetching: send contexts in state fetch_table (ioctx_states)
 */
struct sq_state {
	long size, free, waiting, fetching;
};

static int sq_read(struct tcase *t, const char *dir, struct sq_state *sq)
{
	char path[700], buf[512];
	const char *p;

	snprintf(path, sizeof(path), "%s/sq_size", dir);
	if (sysfs_read_long(path, &sq->size))
		return tfail(t, "cannot read %s", path);
	snprintf(path, sizeof(path), "%s/sq_free", dir);
	if (sysfs_read_long(path, &sq->free))
		return tfail(t, "cannot read %s", path);
	snprintf(path, sizeof(path), "%s/sq_waiting", dir);
	if (sysfs_read_long(path, &sq->waiting))
		return tfail(t, "cannot read %s", path);
	snprintf(path, sizeof(path), "%s/ioctx_states", dir);
	if (sysfs_read(path, buf, sizeof(buf)))
		return tfail(t, "cannot read %s", path);
	p = strstr(buf, "fetch_table=");
	sq->fetching = p ? strtol(p + 12, NULL, 10) : -1;
	return 0;
}

/* Wait up to 20 s (a hang detector) until the send queue is idle. */
static int sq_wait_idle(struct tcase *t, const char *dir, struct sq_state *sq)
{
	int64_t end = now_ms() + 20000;

	for (;;) {
		if (sq_read(t, dir, sq))
			return -1;
		if ((sq->free == sq->size && !sq->waiting) || now_ms() > end)
			return 0;
		usleep(20000);
	}
}

/* Send @n TEST UNIT READYs at once; their tags follow @first. */
static int send_turs(struct tcase *t, unsigned int n, uint64_t *first)
{
	uint8_t iu[CMD_LEN];
	struct cmd cm;
	unsigned int i;

	for (i = 0; i < n; i++) {
		cdb_tur(&cm, 0);
		cmd_build(iu, &cm);
		if (!i)
			*first = cm.tag;
		if (conn_send(t, conn, iu, sizeof(iu)))
			return -1;
		conn->credits--;
	}
	return 0;
}

/*
 * Collect @n SRP_RSPs; each must be GOOD or a UNIT ATTENTION, except the
 * one with @tag (0: none), whose status is stored in @status.
 */
static int collect(struct tcase *t, unsigned int n, uint64_t tag,
		   uint8_t *status)
{
	uint8_t key, asc, ascq;
	char err[200], desc[100];
	struct rsp r;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = conn_wait(conn, 2 * opt.timeout_ms, rx);
		CHECK(t, ret == GOT_IU, "%u of %u responses, then %s", i, n,
		      ret == GOT_DEAD ? "the channel failed" : "none");
		CHECK(t, rsp_parse(rx, &r, err, sizeof(err)), "%s", err);
		conn->credits += r.delta;
		if (tag && r.tag == tag) {
			*status = r.status;
			continue;
		}
		rsp_str(&r, desc, sizeof(desc));
		CHECK(t, r.status == ST_GOOD ||
		      (r.status == ST_CHECK_CONDITION &&
		       sense_decode(&r, &key, &asc, &ascq) &&
		       key == SK_UNIT_ATTENTION),
		      "TEST UNIT READY: %s", desc);
	}
	return 0;
}

/* Write LBA 1 and 2 with a known pattern (lba1_pattern for LBA 1). */
static int write_lba12(struct tcase *t)
{
	struct cmd cm;
	uint32_t i;

	for (i = 0; i < 2 * block_len; i++)
		conn->data[i] = (uint8_t)(i * 7 + 0x5a);
	memcpy(lba1_pattern, conn->data, block_len);
	cdb_rw10(&cm, true, 1, 2, (uintptr_t)conn->data, conn->mr->rkey,
		 2 * block_len);
	if (command_good(t, &cm, "WRITE(10) of LBA 1-2"))
		return -1;
	lba1_written = true;
	return 0;
}

/*
 * An external descriptor table fetched while the send queue is full (run
 * against a target with a small send queue, srpt_sq_size=16). The
 * channel posts no receive buffer, so the target's SENDs stall (RNR,
 * retried forever) and hold its send queue; sq_size + 8 TEST UNIT READYs
 * fill it, and then a READ through an external table needs one more entry
 * for the RDMA READ of the table. The target must let that fetch wait
 * (ioctx_states shows it in fetch_table) rather than fail the command;
 * once we post receive buffers everything completes: the READ is GOOD
 * with the data written, and the send queue is back to sq_size free
 * entries, before and after more traffic: no entry was lost.
 */
static int c_sq_full_fetch(struct tcase *t)
{
	struct sq_state sq0, sq;
	char dir[600];
	uint64_t first, read_tag;
	uint8_t iu[SBUF_SIZE], status = 0xff;
	struct cmd cm;
	unsigned int n, i;
	int64_t end;
	uint32_t len;

	if (fresh_conn(t) || get_block_len(t) || tur_pre(t) || write_lba12(t))
		return -1;
	logout();
	prepare_no_recv = true;
	i = (unsigned int)ensure_conn(t);
	prepare_no_recv = false;
	if (i || sess_dir(t, dir, sizeof(dir)) || sq_wait_idle(t, dir, &sq0))
		return -1;
	vlog("send queue: %ld entries, %ld free", sq0.size, sq0.free);
	CHECK(t, sq0.free == sq0.size && sq0.size > 0,
	      "idle channel: sq_free %ld, sq_size %ld", sq0.free, sq0.size);
	n = (unsigned int)sq0.size + 8;
	if (n + 1 > (unsigned int)conn->credits || n + 1 > NSEND)
		return tfail(t, "a send queue of %ld entries cannot be filled with %d credits: load the target with a small srpt_sq_size",
			     sq0.size, conn->credits);

	if (send_turs(t, n, &first))
		return -1;
	memset(conn->data, 0xee, 2 * block_len);
	cdb_ext_table(&cm, false, 1, block_len, conn->mr->rkey);
	len = cmd_build(iu, &cm);
	read_tag = cm.tag;
	if (conn_send(t, conn, iu, len))
		return -1;
	conn->credits--;

	/* the fetch must be waiting for room, not failed */
	end = now_ms() + 20000;
	do {
		usleep(20000);
		if (sq_read(t, dir, &sq))
			return -1;
	} while ((sq.fetching != 1 || sq.free > 0) && now_ms() < end);
	vlog("full: sq_free %ld, sq_waiting %ld, fetch_table %ld", sq.free,
	     sq.waiting, sq.fetching);
	CHECK(t, sq.free <= 0 && sq.waiting >= 1,
	      "the send queue never filled (sq_free %ld, sq_waiting %ld)",
	      sq.free, sq.waiting);
	CHECK(t, sq.fetching == 1,
	      "with the send queue full the table fetch is not waiting (fetch_table=%ld)",
	      sq.fetching);
	tdid(t, "queue full (%ld free, %ld waiting), the table fetch waits",
	     sq.free, sq.waiting);

	for (i = 0; i < NRECV; i++)
		if (post_recv(conn, i))
			return tfail(t, "ibv_post_recv failed");
	if (collect(t, n + 1, read_tag, &status))
		return -1;
	CHECK(t, status == ST_GOOD,
	      "the READ whose table was fetched through a full send queue ended with status 0x%02x",
	      status);
	CHECK(t, !memcmp(conn->data, lba1_pattern, block_len),
	      "LBA 1 read through the table differs from what was written");
	tdid(t, "READ GOOD, data as written");
	if (sq_wait_idle(t, dir, &sq))
		return -1;
	CHECK(t, sq.free == sq0.free && !sq.waiting,
	      "after the burst sq_free is %ld (%ld waiting), was %ld: entries lost",
	      sq.free, sq.waiting, sq0.free);

	/* normal traffic, three queues' worth, then idle again */
	for (i = 0; i < 3; i++) {
		if (send_turs(t, n, &first) || collect(t, n, 0, &status))
			return -1;
	}
	if (c_ext_table_valid(t) || sq_wait_idle(t, dir, &sq))
		return -1;
	CHECK(t, sq.free == sq0.free && !sq.waiting,
	      "after more I/O sq_free is %ld (%ld waiting), was %ld: entries lost",
	      sq.free, sq.waiting, sq0.free);
	tdid(t, "sq_free back to %ld of %ld after %u more commands", sq.free,
	     sq.size, 3 * n + 1);
	logout();
	return 0;
}

/*
 * A command whose RDMA WRITEs can never fit the channel's send queue
 * (small srpt_sq_size: a table of 64 descriptors, each its own RDMA
 * WRITE, against 16 entries): refused with CHECK CONDITION, INVALID FIELD
 * IN COMMAND INFORMATION UNIT, not parked at the head of the send queue's
 * wait list, where it would block every later response and TMF.
 */
static int c_sq_too_small(struct tcase *t)
{
	struct sq_state sq;
	char dir[600];
	struct cmd cm;

	if (fresh_conn(t) || get_block_len(t) || tur_pre(t) ||
	    sess_dir(t, dir, sizeof(dir)) || sq_read(t, dir, &sq))
		return -1;
	if (sq.size >= 64)
		return tfail(t, "send queue of %ld entries: load the target with a small srpt_sq_size",
			     sq.size);
	cdb_ext_many(&cm, 64, block_len / 64, 16384);
	if (cmd_expect_invalid_iu(t, &cm))
		return -1;
	if (tmf(t, TMF_ABORT_TASK_SET, 0, RSP_CODE_COMPLETE) ||
	    c_ext_table_valid(t))
		return -1;
	tdid(t, "a TMF and a READ through a table still complete");
	return 0;
}

/*
 * A log in of our own (MULTI CHANNEL: the earlier ones stay): 1 if it was
 * accepted (*c keeps the channel), 0 if refused with SRP_LOGIN_REJ
 * INSUFFICIENT RESOURCES (§6.4), -1 for anything else.
 */
static int flood_login(struct tcase *t, struct conn **cp)
{
	uint8_t pd[LOGIN_REQ_RDMA_LEN];
	struct login l;
	struct conn *c;

	*cp = NULL;
	c = conn_prepare(t);
	if (!c)
		return -1;
	login_default(&l);
	l.flags = MCA_MULTI;
	login_build(pd, &l);
	if (conn_connect(t, c, pd, sizeof(pd))) {
		conn_destroy(c);
		return -1;
	}
	if (c->established) {
		*cp = c;
		return 1;
	}
	if (!check(t, c->rejected && c->pdata_len >= LOGIN_REJ_LEN &&
		   c->pdata[0] == SRP_LOGIN_REJ,
		   "login neither accepted nor refused with SRP_LOGIN_REJ (CM status %d)",
		   c->cm_status) ||
	    !check(t, get_be32(c->pdata + 4) == REJ_INSUFFICIENT_RES,
		   "SRP_LOGIN_REJ reason 0x%08x, expected 0x%08x (insufficient resources)",
		   get_be32(c->pdata + 4), REJ_INSUFFICIENT_RES) ||
	    !check(t, get_be64(c->pdata + 8) == l.tag,
		   "SRP_LOGIN_REJ tag 0x%" PRIx64 ", login tag 0x%" PRIx64,
		   get_be64(c->pdata + 8), l.tag)) {
		conn_destroy(c);
		return -1;
	}
	conn_destroy(c);
	return 0;
}

#define FLOOD_N		12

/* Set a target attribute to @val; its old value in @old. */
static int tgt_attr_set(struct tcase *t, const char *name, const char *val,
			char *old, size_t len)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", opt.sysfs_tgt, name);
	if (old && sysfs_read(path, old, len))
		return tfail(t, "cannot read %s", path);
	if (old)
		old[strcspn(old, "\n")] = '\0';
	if (sysfs_write(path, val))
		return tfail(t, "cannot write %s to %s", val, path);
	return 0;
}

/*
 * @limit logins are accepted, the FLOOD_N - @limit beyond them refused
 * with INSUFFICIENT RESOURCES; then all are closed again.
 */
static int flood(struct tcase *t, unsigned int limit, const char *what)
{
	struct conn *held[FLOOD_N] = { NULL };
	unsigned int i, acc = 0, rej = 0;
	int ret = 0, r;

	for (i = 0; i < FLOOD_N && !ret; i++) {
		r = flood_login(t, &held[i]);
		if (r < 0)
			ret = -1;
		else if (r)
			acc++;
		else
			rej++;
	}
	for (i = 0; i < FLOOD_N; i++) {
		if (!held[i])
			continue;
		/* its CM events must reach it while it disconnects */
		cur = held[i];
		conn_destroy(held[i]);
	}
	if (ret)
		return -1;
	CHECK(t, acc == limit && rej == FLOOD_N - limit,
	      "%s %u: %u of %u logins accepted, %u refused", what, limit, acc,
	      FLOOD_N, rej);
	tdid(t, "%s %u: %u accepted, %u refused with 0x%08x", what, limit,
	     acc, rej, REJ_INSUFFICIENT_RES);
	return 0;
}

/*
 * A login flood from one initiator beyond the target's max_sessions, then
 * beyond its max_channels_per_initiator: the logins past the limit get
 * SRP_LOGIN_REJ INSUFFICIENT RESOURCES (SRP r16a 6.4); the limits are
 * restored afterwards and a normal login works.
 */
static int c_login_flood(struct tcase *t)
{
	char old_s[32], old_c[32];
	int ret;

	logout();
	if (!opt.sysfs_tgt)
		return tfail(t, "this case needs --sysfs-target");
	if (tgt_attr_set(t, "max_sessions", "4", old_s, sizeof(old_s)))
		return -1;
	ret = flood(t, 4, "max_sessions");
	if (tgt_attr_set(t, "max_sessions", old_s, NULL, 0))
		return -1;
	if (ret)
		return -1;
	if (tgt_attr_set(t, "max_channels_per_initiator", "2", old_c,
			 sizeof(old_c)))
		return -1;
	ret = flood(t, 2, "max_channels_per_initiator");
	if (tgt_attr_set(t, "max_channels_per_initiator", old_c, NULL, 0))
		return -1;
	if (ret || ensure_conn(t) || tur_ok(t))
		return -1;
	tdid(t, "limits restored, a login works");
	return 0;
}

/* After everything: a fresh login works and LBA 1 is what we wrote. */
static int c_relogin(struct tcase *t)
{
	logout();
	if (login_valid(t) || tur_ok(t))
		return -1;
	tdid(t, "login and TEST UNIT READY GOOD");
	if (lba1_written) {
		if (read_block(t, 1))
			return -1;
		CHECK(t, !memcmp(conn->data, lba1_pattern, block_len),
		      "LBA 1 changed: a WRITE whose data never arrived altered the medium");
		tdid(t, "LBA 1 unchanged");
	}
	logout();
	tdid(t, "logged out");
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The table                                                               */
/* ---------------------------------------------------------------------- */

/**
 * struct hcase - one case
 * @name: its name
 * @run: runs it; 0 if the target did what @expect says
 * @expect: what the target must do
 */
struct hcase {
	const char *name;
	int (*run)(struct tcase *t);
	const char *expect;
};

/* Cases that need a target set up for them (a small send queue): --only */
static const char *const explicit_cases[] = {
	"sq-full-table-fetch",
	"sq-cmd-exceeds-queue",
};

static bool case_explicit(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(explicit_cases); i++)
		if (!strcmp(explicit_cases[i], name))
			return true;
	return false;
}

static const struct hcase cases[] = {
	{ "login-empty", c_login_empty,
	  "no private data: SRP_LOGIN_REJ 0x10002 (IU length 0) or 0x10000" },
	{ "login-truncated-12", c_login_trunc12,
	  "12 bytes, IU length cut off: SRP_LOGIN_REJ 0x10002 or 0x10000" },
	{ "login-truncated-32", c_login_trunc32,
	  "32 bytes, target port id cut off: SRP_LOGIN_REJ 0x10003 or 0x10000" },
	{ "login-wrong-opcode", c_login_opcode,
	  "IU type SRP_CMD instead of SRP_LOGIN_REQ: SRP_LOGIN_REJ 0x10000" },
	{ "login-it-iu-len-32", c_login_iu_small,
	  "it_iu_len 32 < 64: SRP_LOGIN_REJ 0x10002 or 0x10000" },
	{ "login-it-iu-len-1M", c_login_iu_large,
	  "it_iu_len 1 MiB: SRP_LOGIN_REJ 0x10002" },
	{ "login-it-iu-len-4G", c_login_iu_huge,
	  "it_iu_len 0xffffffff: SRP_LOGIN_REJ 0x10002" },
	{ "login-buf-fmt-unsupported", c_login_buf_fmt,
	  "only undefined buffer formats required: SRP_LOGIN_REJ 0x10004, supported formats" },
	{ "login-wrong-id-ext", c_login_id_ext,
	  "target port id (id_ext) not the target's: SRP_LOGIN_REJ 0x10003" },
	{ "login-wrong-ioc-guid", c_login_ioc_guid,
	  "target port id (ioc_guid) not the target's: SRP_LOGIN_REJ 0x10003" },
	{ "login-mca-reserved-2", c_login_mca2,
	  "reserved multi-channel action 10b: SRP_LOGIN_REJ 0x10005" },
	{ "login-mca-reserved-3", c_login_mca3,
	  "reserved multi-channel action 11b: SRP_LOGIN_REJ 0x10005" },
	{ "login-valid", c_login_valid,
	  "valid login: SRP_LOGIN_RSP with credits; TEST UNIT READY GOOD" },
	{ "rw-valid", c_rw_valid,
	  "READ CAPACITY, WRITE and READ back of LBA 1 through our memory: GOOD, same data" },
	{ "iu-unknown-type", c_iu_unknown,
	  "IU type 0x7f: SRP_T_LOGOUT reason 2 and disconnect" },
	{ "iu-target-only-type", c_iu_target_type,
	  "an SRP_RSP sent to the target: SRP_T_LOGOUT reason 2 and disconnect" },
	{ "iu-cmd-short", c_iu_cmd_short,
	  "SRP_CMD of 40 bytes: SRP_T_LOGOUT reason 8 and disconnect" },
	{ "iu-tsk-mgmt-short", c_iu_tmf_short,
	  "SRP_TSK_MGMT of 24 bytes: SRP_T_LOGOUT reason 8 and disconnect" },
	{ "iu-empty", c_iu_empty,
	  "a SEND of 0 bytes: SRP_T_LOGOUT reason 8 and disconnect" },
	{ "cmd-add-cdb-past-iu", c_cmd_add_cdb,
	  "additional CDB of 16 bytes in a 48-byte IU: CHECK CONDITION 5/0e/03" },
	{ "cmd-add-cdb-max-past-iu", c_cmd_add_cdb_max,
	  "additional CDB of 252 bytes in a 100-byte IU: CHECK CONDITION 5/0e/03" },
	{ "cmd-direct-desc-missing", c_cmd_desc_missing,
	  "direct data-in descriptor cut short: CHECK CONDITION 5/0e/03" },
	{ "cmd-direct-desc-count", c_cmd_desc_count,
	  "direct format with descriptor count 3: CHECK CONDITION 5/0e/03" },
	{ "cmd-nodata-desc-count", c_cmd_desc_count_nodata,
	  "no data-out format but data-out count 1: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-past-iu", c_cmd_indirect_past_iu,
	  "indirect list of 4 descriptors, IU holds 1: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-header-short", c_cmd_indirect_short,
	  "indirect descriptor header cut short: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-count-gt-table", c_cmd_indirect_count,
	  "2 descriptors carried from a table of 1: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-table-len", c_cmd_indirect_table_len,
	  "table length 20 (not n * 16): CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-total-len", c_cmd_indirect_total,
	  "TOTAL LENGTH 4096, descriptors 512: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-len-overflow", c_cmd_indirect_overflow,
	  "descriptor lengths sum past 2^32: CHECK CONDITION 5/0e/03" },
	{ "cmd-reserved-fmt", c_cmd_reserved_fmt,
	  "reserved data-in format 0xf: CHECK CONDITION 5/0e/03" },
	{ "cmd-bidi", c_cmd_bidi,
	  "data-out and data-in buffers: CHECK CONDITION 5/0e/03" },
	{ "cmd-unmapped-lun", c_cmd_unmapped_lun,
	  "TEST UNIT READY to LUN 200: CHECK CONDITION 5/25/00 (LOGICAL UNIT NOT SUPPORTED)" },
	{ "cmd-garbage-lun", c_cmd_garbage_lun,
	  "LUN ff..ff: CHECK CONDITION 5/25/00" },
	{ "tmf-unknown-function", c_tmf_unknown,
	  "SRP_TSK_MGMT function 0x7f: SRP_RSP RSP_CODE 04h (not supported)" },
	{ "tmf-abort-nonexistent", c_tmf_abort_none,
	  "ABORT TASK of an unknown tag: SRP_RSP RSP_CODE 00h (complete)" },
	{ "tmf-abort-task-set", c_tmf_abort_task_set,
	  "ABORT TASK SET: SRP_RSP RSP_CODE 00h (complete)" },
	{ "tmf-clear-task-set", c_tmf_clear_task_set,
	  "CLEAR TASK SET: SRP_RSP RSP_CODE 00h (complete)" },
	{ "tmf-lun-reset", c_tmf_lun_reset,
	  "LUN RESET: SRP_RSP RSP_CODE 00h (complete), then a UNIT ATTENTION" },
	{ "tmf-clear-aca", c_tmf_clear_aca,
	  "CLEAR ACA without ACA support: SRP_RSP RSP_CODE 04h (not supported)" },
	{ "tmf-lun-reset-unmapped", c_tmf_lun_reset_unmapped,
	  "LUN RESET of unmapped LUN 200: SRP_RSP RSP_CODE 05h (failed)" },
	{ "cmd-ext-table-valid", c_ext_table_valid,
	  "READ of 2 blocks through a table fetched from us (control): GOOD, data as written" },
	{ "cmd-ext-table-read-bad-len", c_ext_table_read_bad,
	  "READ, fetched table's lengths != TOTAL LENGTH: CHECK CONDITION 5/0e/03" },
	{ "cmd-ext-table-write-bad-len", c_ext_table_write_bad,
	  "WRITE, fetched table's lengths != TOTAL LENGTH: CHECK CONDITION 5/0e/03, no write" },
	{ "cmd-ext-table-bogus-rkey", c_ext_table_bogus_rkey,
	  "READ, table behind a bogus R_Key: no GOOD; the channel fails" },
	{ "cmd-write-bogus-rkey", c_cmd_write_bogus_rkey,
	  "WRITE with a bogus R_Key: no GOOD; the channel fails" },
	{ "cmd-read-bogus-rkey", c_cmd_read_bogus_rkey,
	  "READ with a bogus R_Key: no GOOD; the channel fails" },
	{ "cmd-read16-huge-bogus-rkey", c_read16_huge,
	  "READ(16) of 2^24 blocks, 4 GiB descriptor, bogus R_Key: CHECK CONDITION 5/24/00, MemAvailable steady" },
	{ "cmd-write16-huge-bogus-rkey", c_write16_huge,
	  "WRITE(16) of 2^24 blocks, 4 GiB descriptor, bogus R_Key: CHECK CONDITION 5/24/00, MemAvailable steady" },
	{ "cmd-report-luns-alloc-4g", c_report_luns_huge,
	  "REPORT LUNS, allocation length and descriptor 2^32-1: GOOD, the LUN list only, MemAvailable steady" },
	{ "cmd-inquiry-alloc-max", c_inquiry_huge,
	  "INQUIRY, allocation length 0xffff, descriptor 2^32-1: GOOD, standard data, MemAvailable steady" },
	{ "cmd-read-desc-longer", c_read_desc_longer,
	  "READ(10) of 1 block, descriptor 2^32-1: GOOD, one block sent, residual the rest" },
	{ "cmd-many-1byte-desc", c_many_desc,
	  "3000 one-byte descriptors in a fetched table: CHECK CONDITION 5/0e/03" },
	{ "cmd-many-desc-ok", c_many_desc_ok,
	  "READ of 1 block through block/2 two-byte descriptors: GOOD, data as written" },
	{ "login-flood", c_login_flood,
	  "12 logins over max_sessions 4, then max_channels_per_initiator 2: SRP_LOGIN_REJ 0x10001 beyond" },
	{ "sq-full-table-fetch", c_sq_full_fetch,
	  "table fetch with the send queue full (srpt_sq_size=16): waits, READ GOOD, sq_free back to sq_size" },
	{ "sq-cmd-exceeds-queue", c_sq_too_small,
	  "64 descriptors against a 16-entry send queue: CHECK CONDITION 5/0e/03, the channel goes on" },
	{ "i-logout", c_i_logout,
	  "SRP_I_LOGOUT: the target disconnects" },
	{ "credit-overrun", c_credit_overrun,
	  "2 x credits + 32 requests at once: all answered or the channel dropped, no hang" },
	{ "relogin-after-all", c_relogin,
	  "a fresh login works, TEST UNIT READY GOOD, LBA 1 unchanged" },
};

/* ---------------------------------------------------------------------- */
/* main                                                                    */
/* ---------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: srp_hostile --dest IP:PORT --id-ext HEX16 --ioc-guid HEX16\n"
		"                   [--src IP] [--timeout SECONDS] [--only NAME]...\n"
		"                   [--skip NAME]... [--sysfs-target DIR] [--big-lun LUN]\n"
		"                   [--flip NAME] [--list] [--verbose]\n"
		"Sends malformed SRP logins and IUs to an SRP target over RDMA/CM and\n"
		"checks that it refuses each one and keeps serving. --flip NAME inverts\n"
		"the checks of case NAME, which must then fail.\n");
}

static int parse_addr(const char *s, struct sockaddr_storage *ss,
		      bool want_port)
{
	char host[128], *colon;
	const char *port = "0";
	struct addrinfo hints = { .ai_family = AF_UNSPEC }, *ai;

	if (strlen(s) >= sizeof(host))
		return -1;
	strcpy(host, s);
	colon = strrchr(host, ':');
	if (want_port) {
		if (!colon)
			return -1;
		*colon = '\0';
		port = colon + 1;
	}
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	if (getaddrinfo(host, port, &hints, &ai))
		return -1;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return 0;
}

static int parse_hex64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || strlen(s) > 16)
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 16);
	return errno || *end ? -1 : 0;
}

static bool selected(const struct hcase *hc)
{
	const char *name = hc->name;
	unsigned int i;

	for (i = 0; i < opt.n_skip; i++)
		if (!strcmp(opt.skip[i], name))
			return false;
	if (!opt.n_only)
		return !case_explicit(name);
	for (i = 0; i < opt.n_only; i++)
		if (!strcmp(opt.only[i], name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "dest", required_argument, NULL, 'd' },
		{ "src", required_argument, NULL, 's' },
		{ "id-ext", required_argument, NULL, 'i' },
		{ "ioc-guid", required_argument, NULL, 'g' },
		{ "timeout", required_argument, NULL, 't' },
		{ "only", required_argument, NULL, 'o' },
		{ "skip", required_argument, NULL, 'S' },
		{ "sysfs-target", required_argument, NULL, 'T' },
		{ "big-lun", required_argument, NULL, 'b' },
		{ "flip", required_argument, NULL, 'f' },
		{ "list", no_argument, NULL, 'l' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool have_dst = false, have_id = false, have_guid = false;
	unsigned int i, passed = 0, failed = 0;
	int c, flags;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt_long(argc, argv, "d:s:i:g:t:o:S:T:b:f:lvh", lopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			if (parse_addr(optarg, &opt.dst, true)) {
				fprintf(stderr, "srp_hostile: bad --dest %s (IP:PORT)\n",
					optarg);
				return 2;
			}
			have_dst = true;
			break;
		case 's':
			if (parse_addr(optarg, &opt.src, false)) {
				fprintf(stderr, "srp_hostile: bad --src %s\n",
					optarg);
				return 2;
			}
			opt.have_src = true;
			break;
		case 'i':
			if (parse_hex64(optarg, &opt.id_ext)) {
				fprintf(stderr, "srp_hostile: bad --id-ext %s (16 hex digits)\n",
					optarg);
				return 2;
			}
			have_id = true;
			break;
		case 'g':
			if (parse_hex64(optarg, &opt.ioc_guid)) {
				fprintf(stderr, "srp_hostile: bad --ioc-guid %s (16 hex digits)\n",
					optarg);
				return 2;
			}
			have_guid = true;
			break;
		case 't':
			opt.timeout_ms = atoi(optarg) * 1000;
			if (opt.timeout_ms <= 0 || opt.timeout_ms > 600000) {
				fprintf(stderr, "srp_hostile: bad --timeout %s\n",
					optarg);
				return 2;
			}
			break;
		case 'o':
			if (opt.n_only == ARRAY_SIZE(opt.only)) {
				fprintf(stderr, "srp_hostile: too many --only\n");
				return 2;
			}
			opt.only[opt.n_only++] = optarg;
			break;
		case 'S':
			if (opt.n_skip == ARRAY_SIZE(opt.skip)) {
				fprintf(stderr, "srp_hostile: too many --skip\n");
				return 2;
			}
			opt.skip[opt.n_skip++] = optarg;
			break;
		case 'T':
			opt.sysfs_tgt = optarg;
			break;
		case 'b':
			opt.big_lun = (unsigned int)atoi(optarg);
			if (opt.big_lun > 16383) {
				fprintf(stderr, "srp_hostile: bad --big-lun %s\n",
					optarg);
				return 2;
			}
			break;
		case 'f':
			opt.flip = optarg;
			break;
		case 'l':
			for (i = 0; i < ARRAY_SIZE(cases); i++)
				printf("%-28s %s%s\n", cases[i].name,
				       cases[i].expect,
				       case_explicit(cases[i].name) ?
				       " (--only)" : "");
			return 0;
		case 'v':
			opt.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || !have_dst || !have_id || !have_guid) {
		usage(stderr);
		return 2;
	}
	for (i = 0; i < opt.n_only + opt.n_skip; i++) {
		const char *name = i < opt.n_only ? opt.only[i] :
				   opt.skip[i - opt.n_only];
		unsigned int k;

		for (k = 0; k < ARRAY_SIZE(cases); k++)
			if (!strcmp(cases[k].name, name))
				break;
		if (k == ARRAY_SIZE(cases)) {
			fprintf(stderr, "srp_hostile: no case %s (--list)\n",
				name);
			return 2;
		}
	}

	rx = malloc(sizeof(*rx));
	cm_ch = rdma_create_event_channel();
	if (!rx || !cm_ch) {
		fprintf(stderr, "srp_hostile: cannot create an RDMA/CM event channel: %s\n",
			strerror(errno));
		return 1;
	}
	flags = fcntl(cm_ch->fd, F_GETFL);
	fcntl(cm_ch->fd, F_SETFL, flags | O_NONBLOCK);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct hcase *hc = &cases[i];
		struct tcase t = { .name = hc->name };
		int64_t start = now_ms();
		int ret;

		if (!selected(hc))
			continue;
		t.flip = opt.flip && !strcmp(opt.flip, hc->name);
		vlog("%s: expect %s", hc->name, hc->expect);
		ret = hc->run(&t);
		if (ret && !t.failed)
			tfail(&t, "failed without a reason (a bug of the tool)");
		if (!ret && t.failed)
			ret = -1;
		if (ret) {
			/* leave no half-broken channel to the next case */
			logout();
			printf("FAIL %s: %s\n", hc->name, t.why);
			failed++;
		} else {
			printf("PASS %s - %s (%" PRId64 " ms)\n", hc->name,
			       t.did, now_ms() - start);
			passed++;
		}
	}
	logout();
	rdma_destroy_event_channel(cm_ch);
	free(rx);
	printf("srp_hostile: %u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
