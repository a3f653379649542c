// SPDX-License-Identifier: GPL-2.0-only
/*
 * srp_hostile: SRP IUs: building SRP_LOGIN_REQs and SRP_CMDs, parsing
 * SRP_RSPs, and the conversations the cases are made of (a login, a
 * request and its response, a command that must be refused).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "srp_hostile.h"

struct iu *rx;
uint64_t next_tag = 0x5350480000000001ULL;
uint32_t block_len;
uint8_t lba1_pattern[4096];
bool lba1_written;

/* ---------------------------------------------------------------------- */
/* Login requests                                                          */
/* ---------------------------------------------------------------------- */

void login_default(struct login *l)
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

void login_build(uint8_t *p, const struct login *l)
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
/* Building requests, parsing responses                                    */
/* ---------------------------------------------------------------------- */

/* SAM-5 §4.6: single level LUN, peripheral (< 256) or flat addressing. */
void lun_encode(uint8_t *p, unsigned int lun)
{
	memset(p, 0, 8);
	if (lun < 256) {
		p[1] = lun;
	} else {
		p[0] = 0x40 | ((lun >> 8) & 0x3f);
		p[1] = lun;
	}
}

/* §6.8: an SRP_CMD in @p; returns its length. */
uint32_t cmd_build(uint8_t *p, struct cmd *cm)
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
void desc_put(uint8_t *p, uint64_t va, uint32_t rkey, uint32_t len)
{
	put_be64(p, va);
	put_be32(p + 8, rkey);
	put_be32(p + 12, len);
}

/* Parse an SRP_RSP; false, with why in @err, for another or a bad IU. */
bool rsp_parse(const struct iu *iu, struct rsp *r, char *err, size_t errlen)
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
bool sense_decode(const struct rsp *r, uint8_t *key, uint8_t *asc,
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
void rsp_str(const struct rsp *r, char *buf, size_t len)
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

/* Log in with a valid SRP_LOGIN_REQ and check the SRP_LOGIN_RSP. */
int login_valid(struct tcase *t)
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

void logout(void)
{
	conn_destroy(conn);
	conn = NULL;
}

/* A channel that works, logging in again if the last one is gone. */
int ensure_conn(struct tcase *t)
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
int fresh_conn(struct tcase *t)
{
	logout();
	return ensure_conn(t);
}

/*
 * Send a request IU and wait for the SRP_RSP with its tag. Other IUs on
 * the way are a failure. Returns 0 with *r filled in (pointing into rx),
 * or -1 with the failure recorded.
 */
int request(struct tcase *t, const uint8_t *iu, uint32_t len,
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
int command(struct tcase *t, struct cmd *cm, struct rsp *r)
{
	uint8_t iu[SBUF_SIZE];
	uint32_t len = cmd_build(iu, cm);

	return request(t, iu, len, cm->tag, r);
}

/*
 * A command that must end GOOD, retried while it reports a UNIT ATTENTION
 * (each new channel is a new I_T nexus with its own POWER ON OCCURRED).
 */
int command_good(struct tcase *t, struct cmd *cm, const char *what)
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

void cdb_tur(struct cmd *cm, unsigned int lun)
{
	memset(cm, 0, sizeof(*cm));
	cm->lun = lun;
}

/* TEST UNIT READY to LUN 0 must succeed: the channel works. */
int tur_ok(struct tcase *t)
{
	struct cmd cm;

	cdb_tur(&cm, 0);
	return command_good(t, &cm, "TEST UNIT READY to LUN 0");
}

/* TEST UNIT READY GOOD as a precondition (the unit attention gone). */
int tur_pre(struct tcase *t)
{
	bool flip = t->flip;
	int ret;

	t->flip = false;
	ret = tur_ok(t);
	t->flip = flip;
	return ret;
}

/* READ(10) / WRITE(10) of @nblocks at @lba with a direct descriptor. */
void cdb_rw10(struct cmd *cm, bool write, uint32_t lba,
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
int get_block_len(struct tcase *t)
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
int read_block(struct tcase *t, uint32_t lba)
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
int expect_cc(struct tcase *t, const uint8_t *iu, uint32_t len,
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
int cmd_expect_cc(struct tcase *t, struct cmd *cm, uint8_t key,
		  uint8_t asc, uint8_t ascq)
{
	uint8_t iu[SBUF_SIZE];
	uint32_t len = cmd_build(iu, cm);

	return expect_cc(t, iu, len, cm->tag, key, asc, ascq);
}

/* SPC-4: ILLEGAL REQUEST, INVALID FIELD IN COMMAND INFORMATION UNIT. */
int cmd_expect_invalid_iu(struct tcase *t, struct cmd *cm)
{
	return cmd_expect_cc(t, cm, SK_ILLEGAL_REQUEST, 0x0e, 0x03);
}

/*
 * Expect the target to end the channel over @iu: first an SRP_T_LOGOUT
 * giving one of @reasons (SRP r16a §6.6; the target disconnects only once
 * its SEND completed, so the IU is in our CQ before the disconnect), no
 * SRP_RSP, then the disconnect.
 */
int expect_logout(struct tcase *t, const uint8_t *iu, uint32_t len,
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
