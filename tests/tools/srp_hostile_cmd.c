// SPDX-License-Identifier: GPL-2.0-only
/*
 * srp_hostile: the cases on a live channel: unknown and truncated IUs,
 * SRP_CMDs whose CDB or descriptors do not fit the IU, external tables,
 * bogus R_Keys, unmapped LUNs, task management, credit overrun.
 */
#include <inttypes.h>
#include <string.h>

#include "srp_hostile.h"

/* ---------------------------------------------------------------------- */
/* The cases: information units on a channel                               */
/* ---------------------------------------------------------------------- */

/*
 * Data both ways through the tool's own memory: READ CAPACITY, WRITE and
 * READ back of LBA 1 of LUN 0 (the target's RDMA READ and RDMA WRITE).
 */
int c_rw_valid(struct tcase *t)
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
int c_iu_unknown(struct tcase *t)
{
	return iu_expect_logout(t, 0x7f, 64, TLO_INVALID_IU_TYPE);
}

/* §6.6: a type only a target sends (SRP_RSP): invalid type. */
int c_iu_target_type(struct tcase *t)
{
	return iu_expect_logout(t, SRP_RSP, 64, TLO_INVALID_IU_TYPE);
}

/* §6.6: an SRP_CMD shorter than its 48-byte fixed part: invalid length. */
int c_iu_cmd_short(struct tcase *t)
{
	return iu_expect_logout(t, SRP_CMD, 40, TLO_INVALID_IU_LEN);
}

int c_iu_tmf_short(struct tcase *t)
{
	return iu_expect_logout(t, SRP_TSK_MGMT, 24, TLO_INVALID_IU_LEN);
}

/* A SEND without any byte: no type at all. */
int c_iu_empty(struct tcase *t)
{
	return iu_expect_logout(t, 0, 0, TLO_INVALID_IU_LEN);
}

/* §6.5: SRP_I_LOGOUT: the target ends the channel, without a response. */
int c_i_logout(struct tcase *t)
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
int c_cmd_add_cdb(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_tur(&cm, 0);
	cm.add_cdb = 16;	/* 4 dwords, in bits 7-2 */
	return cmd_expect_invalid_iu(t, &cm);
}

/* The longest additional CDB (252 bytes), the IU 100 bytes. */
int c_cmd_add_cdb_max(struct tcase *t)
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
int c_cmd_desc_missing(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_rw10(&cm, false, 0, 1, (uintptr_t)conn->data, conn->mr->rkey, 512);
	cm.tail_len = 8;	/* half a descriptor */
	return cmd_expect_invalid_iu(t, &cm);
}

/* A direct data-in format with DATA-IN BUFFER DESCRIPTOR COUNT 3. */
int c_cmd_desc_count(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_rw10(&cm, false, 0, 1, (uintptr_t)conn->data, conn->mr->rkey, 512);
	cm.di_cnt = 3;
	return cmd_expect_invalid_iu(t, &cm);
}

/* No data at all, but DATA-OUT BUFFER DESCRIPTOR COUNT 1. */
int c_cmd_desc_count_nodata(struct tcase *t)
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
int c_cmd_indirect_past_iu(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 4, 4 * DIRECT_DESC_LEN, 4 * 512, 1);
	return cmd_expect_invalid_iu(t, &cm);
}

/* The indirect header itself cut short. */
int c_cmd_indirect_short(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 1, DIRECT_DESC_LEN, 512, 1);
	cm.tail_len = 12;
	return cmd_expect_invalid_iu(t, &cm);
}

/* A partial list of two descriptors from a table of one. */
int c_cmd_indirect_count(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 2, DIRECT_DESC_LEN, 1024, 2);
	return cmd_expect_invalid_iu(t, &cm);
}

/* A table length that is no whole number of descriptors. */
int c_cmd_indirect_table_len(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 1, DIRECT_DESC_LEN + 4, 512, 1);
	return cmd_expect_invalid_iu(t, &cm);
}

/* TOTAL LENGTH other than the sum of the (whole) table's lengths. */
int c_cmd_indirect_total(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_indirect(&cm, 1, DIRECT_DESC_LEN, 4096, 1);
	return cmd_expect_invalid_iu(t, &cm);
}

/* Descriptor lengths summing past 2^32 - 1. */
int c_cmd_indirect_overflow(struct tcase *t)
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
int c_cmd_reserved_fmt(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_rw10(&cm, false, 0, 1, (uintptr_t)conn->data, conn->mr->rkey, 512);
	cm.fmt = 0x0f;
	return cmd_expect_invalid_iu(t, &cm);
}

/* Data-out and data-in buffers at once: bidirectional, not supported. */
int c_cmd_bidi(struct tcase *t)
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
int c_cmd_unmapped_lun(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t))
		return -1;
	cdb_tur(&cm, 200);
	/* ILLEGAL REQUEST, LOGICAL UNIT NOT SUPPORTED */
	return cmd_expect_cc(t, &cm, SK_ILLEGAL_REQUEST, 0x25, 0x00);
}

/* A LUN of an addressing method nobody uses: no logical unit either. */
int c_cmd_garbage_lun(struct tcase *t)
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
 * Send @cm, whose data or table lies behind a bogus R_Key, and expect no
 * GOOD: the target's RDMA fails, and with it our QP, so either it answers
 * with another status or the channel goes. @bad says what a GOOD means.
 */
static int expect_no_good(struct tcase *t, struct cmd *cm, const char *bad)
{
	char desc[100], err[200];
	uint8_t iu[SBUF_SIZE];
	uint32_t len = cmd_build(iu, cm);
	struct rsp r;
	int ret;

	if (conn_send(t, conn, iu, len))
		return -1;
	conn->credits--;
	ret = conn_wait(conn, opt.timeout_ms, rx);
	CHECK(t, ret != GOT_TIMEOUT,
	      "neither a response nor a disconnect within %d ms",
	      opt.timeout_ms);
	if (ret == GOT_IU) {
		CHECK(t, rsp_parse(rx, &r, err, sizeof(err)), "%s", err);
		rsp_str(&r, desc, sizeof(desc));
		CHECK(t, r.tag == cm->tag && r.status != ST_GOOD,
		      "SRP_RSP tag 0x%" PRIx64 " %s: %s", r.tag, desc, bad);
		tdid(t, "SRP_RSP %s", desc);
	} else {
		tdid(t, "the channel failed/disconnected (no response)");
	}
	logout();
	return 0;
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
	struct cmd cm;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	cdb_rw10(&cm, write, 1, 1, 0xdead0000beef0000ULL, 0x0badc0de,
		 block_len);
	return expect_no_good(t, &cm, "reports a transfer that failed");
}

int c_cmd_write_bogus_rkey(struct tcase *t)
{
	return bogus_rkey(t, true);
}

int c_cmd_read_bogus_rkey(struct tcase *t)
{
	return bogus_rkey(t, false);
}

/*
 * SRP r16a §5.5.3: an indirect descriptor whose table the IU holds only
 * the first of: the target must RDMA READ the table (two descriptors of a
 * block each, the second @len2 bytes long) from our memory and check it.
 */
void cdb_ext_table(struct cmd *cm, bool write, uint32_t lba,
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
int c_ext_table_valid(struct tcase *t)
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

int c_ext_table_read_bad(struct tcase *t)
{
	return ext_table_bad(t, false);
}

int c_ext_table_write_bad(struct tcase *t)
{
	return ext_table_bad(t, true);
}

/* A table behind a bogus R_Key: the target's RDMA READ of it fails. */
int c_ext_table_bogus_rkey(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	cdb_ext_table(&cm, false, 1, block_len, 0x0badc0de);
	return expect_no_good(t, &cm,
			      "the target reported data it could not send");
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

int tmf(struct tcase *t, uint8_t func, uint64_t task_tag, uint8_t want_code)
{
	return tmf_lun(t, 0, func, task_tag, want_code);
}

/* §6.9 table: 04h, TASK MANAGEMENT FUNCTION NOT SUPPORTED. */
int c_tmf_unknown(struct tcase *t)
{
	return tmf(t, 0x7f, 0, RSP_CODE_NOT_SUPPORTED);
}

/* SAM-5 §7.2: ABORT TASK of a task that does not exist completes. */
int c_tmf_abort_none(struct tcase *t)
{
	return tmf(t, TMF_ABORT_TASK, 0x1234567890abcdefULL,
		   RSP_CODE_COMPLETE);
}

/* SAM-5 §7.3, §7.4: with no task in the set, both complete. */
int c_tmf_abort_task_set(struct tcase *t)
{
	return tmf(t, TMF_ABORT_TASK_SET, 0, RSP_CODE_COMPLETE);
}

int c_tmf_clear_task_set(struct tcase *t)
{
	return tmf(t, TMF_CLEAR_TASK_SET, 0, RSP_CODE_COMPLETE);
}

/* SAM-5 §7.7: LUN RESET completes; the next command sees a UA. */
int c_tmf_lun_reset(struct tcase *t)
{
	return tmf(t, TMF_LUN_RESET, 0, RSP_CODE_COMPLETE);
}

/* NACA is 0 in the target's INQUIRY data: there is no ACA to clear. */
int c_tmf_clear_aca(struct tcase *t)
{
	return tmf(t, TMF_CLEAR_ACA, 0, RSP_CODE_NOT_SUPPORTED);
}

/* A LUN RESET of a LUN that is not mapped fails (§6.9: 05h). */
int c_tmf_lun_reset_unmapped(struct tcase *t)
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
int c_credit_overrun(struct tcase *t)
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
