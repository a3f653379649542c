// SPDX-License-Identifier: GPL-2.0-only
/*
 * srp_hostile: the cases about logins: malformed SRP_LOGIN_REQs the
 * target must refuse with SRP_LOGIN_REJ (SRP r16a 6.4), a valid login,
 * and a fresh login after all the other cases.
 */
#include <inttypes.h>
#include <string.h>

#include "srp_hostile.h"

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
int c_login_empty(struct tcase *t)
{
	return login_expect_rej(t, NULL, 0, (const uint32_t[]){
				REJ_IT_IU_LEN, REJ_UNABLE_ESTABLISH }, 2);
}

/* 12 bytes: TAG, formats, flags, type; IU LENGTH missing (0). */
int c_login_trunc12(struct tcase *t)
{
	struct login l;

	login_default(&l);
	return login_rej(t, &l, 12, REJ_IT_IU_LEN, REJ_UNABLE_ESTABLISH);
}

/* 32 bytes: the TARGET PORT IDENTIFIER missing (0): not ours. */
int c_login_trunc32(struct tcase *t)
{
	struct login l;

	login_default(&l);
	return login_rej(t, &l, 32, REJ_UNABLE_ASSOCIATE, REJ_UNABLE_ESTABLISH);
}

/* §6.2: a login of another IU type: unable to establish. */
int c_login_opcode(struct tcase *t)
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
int c_login_iu_small(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.it_iu_len = 32;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_IT_IU_LEN,
			 REJ_UNABLE_ESTABLISH);
}

/* §6.4: a length above what the target receives: reason 0x10002. */
int c_login_iu_large(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.it_iu_len = 1024 * 1024;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_IT_IU_LEN, 0);
}

int c_login_iu_huge(struct tcase *t)
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
int c_login_buf_fmt(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.buf_fmt = 0xfff8;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_UNSUPPORTED_FMT, 0);
}

/* §6.2: a TARGET PORT IDENTIFIER that is not the target's. */
int c_login_id_ext(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.id_ext ^= 0x0100000000000001ULL;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_UNABLE_ASSOCIATE, 0);
}

int c_login_ioc_guid(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.ioc_guid ^= 0x0100000000000001ULL;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_UNABLE_ASSOCIATE, 0);
}

/* §6.2: MULTI-CHANNEL ACTION 10b and 11b are reserved. */
int c_login_mca2(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.flags = 0x02;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_MULTICHANNEL, 0);
}

int c_login_mca3(struct tcase *t)
{
	struct login l;

	login_default(&l);
	l.flags = 0x03;
	return login_rej(t, &l, LOGIN_REQ_RDMA_LEN, REJ_MULTICHANNEL, 0);
}

/* A valid login is accepted and the channel serves commands. */
int c_login_valid(struct tcase *t)
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

/* After everything: a fresh login works and LBA 1 is what we wrote. */
int c_relogin(struct tcase *t)
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
