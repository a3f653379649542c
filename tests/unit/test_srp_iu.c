// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for srpt/srp_iu.c: SRP information units (T10 SRP r16a
 * chapter 6, §5.5 memory descriptors, SRP-2 immediate data).
 *
 * Inputs are laid out with packed copies of the Linux initiator's own
 * structures (include/scsi/srp.h), whose offsets and sizes are pinned to
 * the SRP r16a tables below; the builders' output is compared byte for
 * byte with arrays written out by hand from the same tables.
 */
#include "unit.h"
#include <endian.h>
#include <srp_iu.h>

/* ---------------------------------------------------------------------- */
/* The wire layouts, as include/scsi/srp.h of Linux 6.1 declares them     */
/* ---------------------------------------------------------------------- */

struct k_direct_buf {
	u64 va;
	u32 key;
	u32 len;
} __attribute__((packed));

struct k_indirect_buf {
	struct k_direct_buf table_desc;
	u32 len;
	struct k_direct_buf desc_list[];
} __attribute__((packed));

struct k_login_req {
	u8 opcode;
	u8 reserved1[7];
	u64 tag;
	u32 req_it_iu_len;
	u8 reserved2[4];
	u16 req_buf_fmt;
	u8 req_flags;
	u8 reserved3[1];
	u16 imm_data_offset;
	u8 reserved4[2];
	u8 initiator_port_id[16];
	u8 target_port_id[16];
} __attribute__((packed));

struct k_login_req_rdma {
	u64 tag;
	u16 req_buf_fmt;
	u8 req_flags;
	u8 opcode;
	u32 req_it_iu_len;
	u8 initiator_port_id[16];
	u8 target_port_id[16];
	u16 imm_data_offset;
	u8 reserved[6];
} __attribute__((packed));

struct k_login_rsp {
	u8 opcode;
	u8 reserved1[3];
	u32 req_lim_delta;
	u64 tag;
	u32 max_it_iu_len;
	u32 max_ti_iu_len;
	u16 buf_fmt;
	u8 rsp_flags;
	u8 reserved2[25];
} __attribute__((packed));

struct k_login_rej {
	u8 opcode;
	u8 reserved1[3];
	u32 reason;
	u64 tag;
	u8 reserved2[8];
	u16 buf_fmt;
	u8 reserved3[6];
} __attribute__((packed));

struct k_t_logout {
	u8 opcode;
	u8 sol_not;
	u8 reserved[2];
	u32 reason;
	u64 tag;
} __attribute__((packed));

struct k_tsk_mgmt {
	u8 opcode;
	u8 sol_not;
	u8 reserved1[6];
	u64 tag;
	u8 reserved2[4];
	u8 lun[8];
	u8 reserved3[2];
	u8 tsk_mgmt_func;
	u8 reserved4;
	u64 task_tag;
	u8 reserved5[8];
} __attribute__((packed));

struct k_cmd {
	u8 opcode;
	u8 sol_not;
	u8 reserved1[3];
	u8 buf_fmt;
	u8 data_out_desc_cnt;
	u8 data_in_desc_cnt;
	u64 tag;
	u8 reserved2[4];
	u8 lun[8];
	u8 reserved3;
	u8 task_attr;
	u8 reserved4;
	u8 add_cdb_len;
	u8 cdb[16];
	u8 add_data[];
} __attribute__((packed));

struct k_rsp {
	u8 opcode;
	u8 sol_not;
	u8 reserved1[2];
	u32 req_lim_delta;
	u64 tag;
	u8 reserved2[2];
	u8 flags;
	u8 status;
	u32 data_out_res_cnt;
	u32 data_in_res_cnt;
	u32 sense_data_len;
	u32 resp_data_len;
	u8 data[];
} __attribute__((packed));

struct k_cred_req {
	u8 opcode;
	u8 sol_not;
	u8 reserved[2];
	u32 req_lim_delta;
	u64 tag;
} __attribute__((packed));

struct k_aer_req {
	u8 opcode;
	u8 sol_not;
	u8 reserved[2];
	u32 req_lim_delta;
	u64 tag;
	u32 reserved2;
	u8 lun[8];
	u32 sense_data_len;
	u32 reserved3;
	u8 sense_data[];
} __attribute__((packed));

#define OFF(s, f)	offsetof(struct s, f)

/* Sizes: the kernel's BUILD_BUG_ON()s in ib_srp.c and SRP r16a §6. */
_Static_assert(sizeof(struct k_direct_buf) == SRP_IU_DIRECT_DESC_LEN, "");
_Static_assert(sizeof(struct k_indirect_buf) == SRP_IU_INDIRECT_HDR_LEN, "");
_Static_assert(sizeof(struct k_login_req) == SRP_IU_LOGIN_REQ_LEN, "");
_Static_assert(sizeof(struct k_login_req) == 64, "");
_Static_assert(sizeof(struct k_login_req_rdma) == 56, "");
_Static_assert(sizeof(struct k_login_req_rdma) == SRP_IU_LOGIN_REQ_RDMA_LEN,
	       "");
_Static_assert(sizeof(struct k_login_rsp) == SRP_IU_LOGIN_RSP_LEN, "");
_Static_assert(sizeof(struct k_login_rsp) == 52, "");
_Static_assert(sizeof(struct k_login_rej) == SRP_IU_LOGIN_REJ_LEN, "");
_Static_assert(sizeof(struct k_login_rej) == 32, "");
_Static_assert(sizeof(struct k_t_logout) == SRP_IU_T_LOGOUT_LEN, "");
_Static_assert(sizeof(struct k_tsk_mgmt) == SRP_IU_TSK_MGMT_LEN, "");
_Static_assert(sizeof(struct k_tsk_mgmt) == 48, "");
_Static_assert(sizeof(struct k_cmd) == SRP_IU_CMD_LEN, "");
_Static_assert(sizeof(struct k_cmd) == 48, "");
_Static_assert(sizeof(struct k_rsp) == SRP_IU_RSP_LEN, "");
_Static_assert(sizeof(struct k_rsp) == 36, "");
_Static_assert(sizeof(struct k_cred_req) == SRP_IU_CRED_REQ_LEN, "");
_Static_assert(sizeof(struct k_aer_req) == SRP_IU_AER_REQ_LEN, "");
_Static_assert(sizeof(struct k_aer_req) == 36, "");

/* Offsets: SRP r16a tables 16, 18, 20, 22, 24, 28, 31, 36 and §5.5. */
_Static_assert(OFF(k_direct_buf, key) == 8 && OFF(k_direct_buf, len) == 12,
	       "");
_Static_assert(OFF(k_indirect_buf, len) == 16, "");
_Static_assert(OFF(k_login_req, tag) == 8, "");
_Static_assert(OFF(k_login_req, req_it_iu_len) == 16, "");
_Static_assert(OFF(k_login_req, req_buf_fmt) == 24, "");
_Static_assert(OFF(k_login_req, req_flags) == 26, "");
_Static_assert(OFF(k_login_req, imm_data_offset) == 28, "");
_Static_assert(OFF(k_login_req, initiator_port_id) == 32, "");
_Static_assert(OFF(k_login_req, target_port_id) == 48, "");
_Static_assert(OFF(k_login_req_rdma, req_buf_fmt) == 8, "");
_Static_assert(OFF(k_login_req_rdma, req_flags) == 10, "");
_Static_assert(OFF(k_login_req_rdma, opcode) == 11, "");
_Static_assert(OFF(k_login_req_rdma, req_it_iu_len) == 12, "");
_Static_assert(OFF(k_login_req_rdma, initiator_port_id) == 16, "");
_Static_assert(OFF(k_login_req_rdma, target_port_id) == 32, "");
_Static_assert(OFF(k_login_req_rdma, imm_data_offset) == 48, "");
_Static_assert(OFF(k_login_rsp, req_lim_delta) == 4, "");
_Static_assert(OFF(k_login_rsp, tag) == 8, "");
_Static_assert(OFF(k_login_rsp, max_it_iu_len) == 16, "");
_Static_assert(OFF(k_login_rsp, max_ti_iu_len) == 20, "");
_Static_assert(OFF(k_login_rsp, buf_fmt) == 24, "");
_Static_assert(OFF(k_login_rsp, rsp_flags) == 26, "");
_Static_assert(OFF(k_login_rej, reason) == 4, "");
_Static_assert(OFF(k_login_rej, tag) == 8, "");
_Static_assert(OFF(k_login_rej, buf_fmt) == 24, "");
_Static_assert(OFF(k_t_logout, reason) == 4 && OFF(k_t_logout, tag) == 8,
	       "");
_Static_assert(OFF(k_tsk_mgmt, lun) == 20, "");
_Static_assert(OFF(k_tsk_mgmt, tsk_mgmt_func) == 30, "");
_Static_assert(OFF(k_tsk_mgmt, task_tag) == 32, "");
_Static_assert(OFF(k_cmd, buf_fmt) == 5, "");
_Static_assert(OFF(k_cmd, data_out_desc_cnt) == 6, "");
_Static_assert(OFF(k_cmd, data_in_desc_cnt) == 7, "");
_Static_assert(OFF(k_cmd, tag) == 8, "");
_Static_assert(OFF(k_cmd, lun) == 20, "");
_Static_assert(OFF(k_cmd, task_attr) == 29, "");
_Static_assert(OFF(k_cmd, add_cdb_len) == 31, "");
_Static_assert(OFF(k_cmd, cdb) == 32, "");
_Static_assert(OFF(k_cmd, add_data) == 48, "");
_Static_assert(OFF(k_rsp, flags) == 18 && OFF(k_rsp, status) == 19, "");
_Static_assert(OFF(k_rsp, data_out_res_cnt) == 20, "");
_Static_assert(OFF(k_rsp, data_in_res_cnt) == 24, "");
_Static_assert(OFF(k_rsp, sense_data_len) == 28, "");
_Static_assert(OFF(k_rsp, resp_data_len) == 32, "");
_Static_assert(OFF(k_rsp, data) == 36, "");
_Static_assert(OFF(k_aer_req, lun) == 20, "");
_Static_assert(OFF(k_aer_req, sense_data_len) == 28, "");
/* Linux' initiator puts immediate data here: 48 + 16 + 4. */
#define LINUX_IMM_OFFSET	68

/* Constants against include/scsi/srp.h's values. */
_Static_assert(SRP_IU_LOGIN_REQ == 0x00 && SRP_IU_TSK_MGMT == 0x01 &&
	       SRP_IU_CMD == 0x02 && SRP_IU_I_LOGOUT == 0x03 &&
	       SRP_IU_LOGIN_RSP == 0xc0 && SRP_IU_RSP == 0xc1 &&
	       SRP_IU_LOGIN_REJ == 0xc2 && SRP_IU_T_LOGOUT == 0x80 &&
	       SRP_IU_CRED_REQ == 0x81 && SRP_IU_AER_REQ == 0x82 &&
	       SRP_IU_CRED_RSP == 0x41 && SRP_IU_AER_RSP == 0x42, "");
_Static_assert(SRP_IU_BUF_FMT_DIRECT == 1 << 1 &&
	       SRP_IU_BUF_FMT_INDIRECT == 1 << 2, "");
_Static_assert(SRP_IU_REJ_UNABLE_ESTABLISH == 0x00010000 &&
	       SRP_IU_REJ_INSUFFICIENT_RES == 0x00010001 &&
	       SRP_IU_REJ_IT_IU_LEN_TOO_LARGE == 0x00010002 &&
	       SRP_IU_REJ_UNABLE_ASSOCIATE == 0x00010003 &&
	       SRP_IU_REJ_UNSUPPORTED_FMT == 0x00010004 &&
	       SRP_IU_REJ_MULTICHANNEL_UNSUP == 0x00010005 &&
	       SRP_IU_REJ_CHANNEL_LIMIT == 0x00010006, "");
_Static_assert(SRP_IU_TMF_ABORT_TASK == 0x01 &&
	       SRP_IU_TMF_ABORT_TASK_SET == 0x02 &&
	       SRP_IU_TMF_CLEAR_TASK_SET == 0x04 &&
	       SRP_IU_TMF_LUN_RESET == 0x08 && SRP_IU_TMF_CLEAR_ACA == 0x40,
	       "");
_Static_assert(SRP_IU_RSP_RSPVALID == 1 << 0 && SRP_IU_RSP_SNSVALID == 1 << 1 &&
	       SRP_IU_RSP_DOOVER == 1 << 2 && SRP_IU_RSP_DOUNDER == 1 << 3 &&
	       SRP_IU_RSP_DIOVER == 1 << 4 && SRP_IU_RSP_DIUNDER == 1 << 5,
	       "");
_Static_assert(SRP_IU_IMMED_REQUESTED == 0x80 &&
	       SRP_IU_IMMED_SUPPORTED == 0x80 && SRP_IU_MCR_MAINTAINED == 2,
	       "");

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */
/* ---------------------------------------------------------------------- */

static const u8 ini_id[16] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0xc9, 0x03, 0x00, 0x0a, 0x0b, 0x0c,
};

static const u8 tgt_id[16] = {
	0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,
	0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,
};

/* ---------------------------------------------------------------------- */
/* IU type                                                                 */
/* ---------------------------------------------------------------------- */

static void test_iu_opcode(void **state)
{
	static const struct {
		u8 opcode;
		size_t len;
		int exp;
	} cases[] = {
		{ SRP_IU_CMD, 48, SRP_IU_CMD },
		{ SRP_IU_CMD, 47, -EINVAL },
		{ SRP_IU_CMD, 1, -EINVAL },
		{ SRP_IU_CMD, 4096, SRP_IU_CMD },
		{ SRP_IU_TSK_MGMT, 48, SRP_IU_TSK_MGMT },
		{ SRP_IU_TSK_MGMT, 47, -EINVAL },
		{ SRP_IU_I_LOGOUT, 16, SRP_IU_I_LOGOUT },
		{ SRP_IU_I_LOGOUT, 15, -EINVAL },
		{ SRP_IU_CRED_RSP, 16, SRP_IU_CRED_RSP },
		{ SRP_IU_CRED_RSP, 8, -EINVAL },
		{ SRP_IU_AER_RSP, 16, SRP_IU_AER_RSP },
		{ SRP_IU_LOGIN_REQ, 64, SRP_IU_LOGIN_REQ },
		{ SRP_IU_LOGIN_REQ, 63, -EINVAL },
		{ SRP_IU_RSP, 36, SRP_IU_RSP },
		{ SRP_IU_RSP, 35, -EINVAL },
		{ SRP_IU_LOGIN_RSP, 52, SRP_IU_LOGIN_RSP },
		{ SRP_IU_LOGIN_REJ, 32, SRP_IU_LOGIN_REJ },
		{ SRP_IU_T_LOGOUT, 16, SRP_IU_T_LOGOUT },
		{ SRP_IU_CRED_REQ, 16, SRP_IU_CRED_REQ },
		{ SRP_IU_AER_REQ, 36, SRP_IU_AER_REQ },
		{ SRP_IU_AER_REQ, 35, -EINVAL },
		/* undefined types, whatever their length */
		{ 0x04, 64, -EOPNOTSUPP },
		{ 0x40, 64, -EOPNOTSUPP },
		{ 0x43, 64, -EOPNOTSUPP },
		{ 0x83, 64, -EOPNOTSUPP },
		{ 0xc3, 64, -EOPNOTSUPP },
		{ 0xff, 1, -EOPNOTSUPP },
		{ 0x05, 0, -EINVAL },
	};
	u8 buf[4096];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char what[32];

		snprintf(what, sizeof(what), "case %zu", i);
		memset(buf, 0, sizeof(buf));
		buf[0] = cases[i].opcode;
		CHECK_EQ(what, srp_iu_opcode(buf, cases[i].len), cases[i].exp);
	}
	assert_int_equal(srp_iu_opcode(NULL, 48), -EINVAL);
}

static void test_iu_min_len(void **state)
{
	static const int exp[256] = {
		[0x00] = 64, [0x01] = 48, [0x02] = 48, [0x03] = 16,
		[0x41] = 16, [0x42] = 16, [0x80] = 16, [0x81] = 16,
		[0x82] = 36, [0xc0] = 52, [0xc1] = 36, [0xc2] = 32,
	};
	unsigned int op;

	(void)state;
	for (op = 0; op < 256; op++) {
		char what[32];

		snprintf(what, sizeof(what), "opcode %#x", op);
		CHECK_EQ(what, srp_iu_min_len(op),
			 exp[op] ? exp[op] : -EOPNOTSUPP);
	}
}

static void test_iu_get_tag(void **state)
{
	u8 buf[16] = { 0x03, 0, 0, 0, 0, 0, 0, 0,
		       0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 };
	u64 tag = 0;

	(void)state;
	assert_int_equal(srp_iu_get_tag(buf, 16, &tag), 0);
	assert_true(tag == 0xfedcba9876543210ULL);
	tag = 7;
	assert_int_equal(srp_iu_get_tag(buf, 15, &tag), -EINVAL);
	assert_true(tag == 7);
	assert_int_equal(srp_iu_get_tag(NULL, 16, &tag), -EINVAL);
}

/* ---------------------------------------------------------------------- */
/* SRP_LOGIN_REQ                                                           */
/* ---------------------------------------------------------------------- */

#define TAG1	0x0102030405060708ULL
#define MIN_IU	64
#define MAX_IU	8260

struct login_case {
	const char *what;
	u32 it_iu_len;
	u16 buf_fmt;
	u8 flags;
	u16 imm_off;
	u8 opcode;
	size_t len_delta;	/* bytes cut from the IU */
	int ret;
	u32 reason;
	u16 exp_imm_off;
	bool exp_imm_ok;
};

static const struct login_case login_cases[] = {
	{ "Linux defaults", 8260, 0x0006, 0x00, 0, 0x00, 0, 0, 0, 0, false },
	{ "it_iu_len at minimum", 64, 0x0006, 0x01, 0, 0x00, 0, 0, 0, 0,
	  false },
	{ "it_iu_len at maximum", MAX_IU, 0x0002, 0x00, 0, 0x00, 0, 0, 0, 0,
	  false },
	{ "no buffer format required", 256, 0x0000, 0x00, 0, 0x00, 0, 0, 0, 0,
	  false },
	{ "indirect only", 256, 0x0004, 0x01, 0, 0x00, 0, 0, 0, 0, false },
	{ "reserved flag bits ignored", 256, 0x0006, 0x7c, 0, 0x00, 0, 0, 0,
	  0, false },
	{ "immediate data at Linux' offset", 8260, 0x0006, 0x81, 68, 0x00, 0,
	  0, 0, 68, true },
	{ "immediate data, smallest offset", 8260, 0x0006, 0x80, 52, 0x00, 0,
	  0, 0, 52, true },
	{ "immediate data offset inside SRP_CMD", 8260, 0x0006, 0x80, 51,
	  0x00, 0, 0, 0, 51, false },
	{ "immediate data offset 48", 8260, 0x0006, 0x80, 48, 0x00, 0, 0, 0,
	  48, false },
	{ "immediate data offset at it_iu_len", 256, 0x0006, 0x80, 256, 0x00,
	  0, 0, 0, 256, false },
	{ "immediate data offset just below it_iu_len", 256, 0x0006, 0x80,
	  255, 0x00, 0, 0, 0, 255, true },
	{ "offset without IMMED_REQUESTED", 8260, 0x0006, 0x00, 68, 0x00, 0,
	  0, 0, 0, false },
	/* rejections */
	{ "truncated IU", 8260, 0x0006, 0x00, 0, 0x00, 1, -EINVAL,
	  SRP_IU_REJ_UNABLE_ESTABLISH, 0, false },
	{ "not a login request", 8260, 0x0006, 0x00, 0, 0x02, 0, -EINVAL,
	  SRP_IU_REJ_UNABLE_ESTABLISH, 0, false },
	{ "it_iu_len too small", 63, 0x0006, 0x00, 0, 0x00, 0, -EINVAL,
	  SRP_IU_REJ_IT_IU_LEN_TOO_LARGE, 0, false },
	{ "it_iu_len zero", 0, 0x0006, 0x00, 0, 0x00, 0, -EINVAL,
	  SRP_IU_REJ_IT_IU_LEN_TOO_LARGE, 0, false },
	{ "it_iu_len too large", MAX_IU + 1, 0x0006, 0x00, 0, 0x00, 0,
	  -EINVAL, SRP_IU_REJ_IT_IU_LEN_TOO_LARGE, 0, false },
	{ "it_iu_len 2^32-1", 0xffffffff, 0x0006, 0x00, 0, 0x00, 0, -EINVAL,
	  SRP_IU_REJ_IT_IU_LEN_TOO_LARGE, 0, false },
	{ "length checked before formats", 63, 0x0001, 0x03, 0, 0x00, 0,
	  -EINVAL, SRP_IU_REJ_IT_IU_LEN_TOO_LARGE, 0, false },
	{ "buffer format bit 0", 256, 0x0001, 0x00, 0, 0x00, 0, -EINVAL,
	  SRP_IU_REJ_UNSUPPORTED_FMT, 0, false },
	{ "buffer format bit 3", 256, 0x000e, 0x00, 0, 0x00, 0, -EINVAL,
	  SRP_IU_REJ_UNSUPPORTED_FMT, 0, false },
	{ "buffer format bit 15", 256, 0x8000, 0x00, 0, 0x00, 0, -EINVAL,
	  SRP_IU_REJ_UNSUPPORTED_FMT, 0, false },
	{ "formats checked before MCA", 256, 0x0100, 0x02, 0, 0x00, 0,
	  -EINVAL, SRP_IU_REJ_UNSUPPORTED_FMT, 0, false },
	{ "multi-channel action 2", 256, 0x0006, 0x02, 0, 0x00, 0, -EINVAL,
	  SRP_IU_REJ_MULTICHANNEL_UNSUP, 0, false },
	{ "multi-channel action 3", 256, 0x0006, 0x83, 68, 0x00, 0, -EINVAL,
	  SRP_IU_REJ_MULTICHANNEL_UNSUP, 0, false },
};

static size_t make_login_req(u8 *buf, const struct login_case *c)
{
	struct k_login_req *r = (struct k_login_req *)buf;

	memset(buf, 0, sizeof(*r));
	r->opcode = c->opcode;
	r->tag = htobe64(TAG1);
	r->req_it_iu_len = htobe32(c->it_iu_len);
	r->req_buf_fmt = htobe16(c->buf_fmt);
	r->req_flags = c->flags;
	r->imm_data_offset = htobe16(c->imm_off);
	memcpy(r->initiator_port_id, ini_id, 16);
	memcpy(r->target_port_id, tgt_id, 16);
	return sizeof(*r) - c->len_delta;
}

static size_t make_login_req_rdma(u8 *buf, const struct login_case *c)
{
	struct k_login_req_rdma *r = (struct k_login_req_rdma *)buf;

	memset(buf, 0, sizeof(*r));
	r->opcode = c->opcode;
	r->tag = htobe64(TAG1);
	r->req_it_iu_len = htobe32(c->it_iu_len);
	r->req_buf_fmt = htobe16(c->buf_fmt);
	r->req_flags = c->flags;
	r->imm_data_offset = htobe16(c->imm_off);
	memcpy(r->initiator_port_id, ini_id, 16);
	memcpy(r->target_port_id, tgt_id, 16);
	return sizeof(*r) - c->len_delta;
}

static void run_login_cases(bool rdma)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(login_cases); i++) {
		const struct login_case *c = &login_cases[i];
		struct srp_login_req_info info;
		u32 reason = 0xdeadbeef;
		u8 buf[128];
		size_t len;
		int ret;

		memset(buf, CANARY, sizeof(buf));
		if (rdma) {
			len = make_login_req_rdma(buf, c);
			ret = srp_parse_login_req_rdma(buf, len, MIN_IU, MAX_IU,
						       &info, &reason);
		} else {
			len = make_login_req(buf, c);
			ret = srp_parse_login_req(buf, len, MIN_IU, MAX_IU,
						  &info, &reason);
		}
		CHECK_EQ(c->what, ret, c->ret);
		/* The TAG comes back even in a rejection. */
		CHECK_EQ(c->what, info.tag, TAG1);
		if (ret) {
			CHECK_EQ(c->what, reason, c->reason);
			continue;
		}
		CHECK_EQ(c->what, reason, 0xdeadbeef);
		CHECK_EQ(c->what, info.it_iu_len, c->it_iu_len);
		CHECK_EQ(c->what, info.req_buf_fmt, c->buf_fmt);
		CHECK_EQ(c->what, info.req_flags, c->flags);
		CHECK_EQ(c->what, info.imm_data_offset, c->exp_imm_off);
		CHECK_EQ(c->what, info.imm_data_ok, c->exp_imm_ok);
		check_bytes(c->what, info.initiator_port_id, ini_id, 16);
		check_bytes(c->what, info.target_port_id, tgt_id, 16);
	}
}

static void test_login_req_ib(void **state)
{
	(void)state;
	run_login_cases(false);
}

static void test_login_req_rdma(void **state)
{
	(void)state;
	run_login_cases(true);
}

/* Both forms written out byte by byte, as Linux' ib_srp sends them. */
static void test_login_req_bytes(void **state)
{
	static const u8 ib[92] = {
		0x00, 0, 0, 0, 0, 0, 0, 0,			/* opcode */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* tag */
		0x00, 0x00, 0x20, 0x44,				/* 8260 */
		0, 0, 0, 0,
		0x00, 0x06,					/* fmt */
		0x81,						/* flags */
		0,
		0x00, 0x44,					/* imm 68 */
		0, 0,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* i port */
		0x00, 0x02, 0xc9, 0x03, 0x00, 0x0a, 0x0b, 0x0c,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,	/* t port */
		0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,
		/* 28 more bytes of IB CM REQ private data */
	};
	static const u8 rdma[56] = {
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* tag */
		0x00, 0x06,					/* fmt */
		0x81,						/* flags */
		0x00,						/* opcode */
		0x00, 0x00, 0x20, 0x44,				/* 8260 */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* i port */
		0x00, 0x02, 0xc9, 0x03, 0x00, 0x0a, 0x0b, 0x0c,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,	/* t port */
		0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,
		0x00, 0x44,					/* imm 68 */
		0, 0, 0, 0, 0, 0,
	};
	struct srp_login_req_info a, b;
	u32 reason = 0;

	(void)state;
	assert_int_equal(srp_parse_login_req(ib, sizeof(ib), 64, 8260, &a,
					     &reason), 0);
	assert_int_equal(srp_parse_login_req_rdma(rdma, sizeof(rdma), 64,
						  8260, &b, &reason), 0);
	assert_true(a.tag == 0x1122334455667788ULL);
	assert_int_equal(a.it_iu_len, 8260);
	assert_int_equal(a.req_buf_fmt, 0x0006);
	assert_int_equal(a.req_flags, 0x81);
	assert_int_equal(a.imm_data_offset, 68);
	assert_true(a.imm_data_ok);
	assert_memory_equal(a.initiator_port_id, ini_id, 16);
	assert_memory_equal(a.target_port_id, tgt_id, 16);
	/* The two forms carry the same request. */
	assert_memory_equal(&a, &b, sizeof(a));
	/* One byte short of each form. */
	assert_int_equal(srp_parse_login_req(ib, 63, 64, 8260, &a, &reason),
			 -EINVAL);
	assert_int_equal(reason, SRP_IU_REJ_UNABLE_ESTABLISH);
	reason = 0;
	assert_int_equal(srp_parse_login_req_rdma(rdma, 55, 64, 8260, &b,
						  &reason), -EINVAL);
	assert_int_equal(reason, SRP_IU_REJ_UNABLE_ESTABLISH);
	/* Nothing at all; a NULL reason pointer is allowed. */
	assert_int_equal(srp_parse_login_req(NULL, 0, 64, 8260, &a, NULL),
			 -EINVAL);
	assert_true(a.tag == 0);
	assert_int_equal(srp_parse_login_req_rdma(rdma, 7, 64, 8260, &b,
						  &reason), -EINVAL);
	assert_true(b.tag == 0);
}

/* ---------------------------------------------------------------------- */
/* Login response, reject, target logout, credit and AER requests         */
/* ---------------------------------------------------------------------- */

static void test_build_login_rsp(void **state)
{
	static const u8 exp[52] = {
		0xc0, 0, 0, 0,
		0x00, 0x00, 0x00, 0x80,				/* 128 */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x00, 0x00, 0x20, 0x44,				/* 8260 */
		0x00, 0x00, 0x10, 0x34,				/* 4148 */
		0x00, 0x06,
		0x82,
		/* 25 reserved bytes */
	};
	struct k_login_rsp *k;
	u8 buf[64];

	(void)state;
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_login_rsp(buf, 52, TAG1, 128, 8260, 4148,
					     SRP_IU_BUF_FMT_ALL,
					     SRP_IU_MCR_MAINTAINED |
					     SRP_IU_IMMED_SUPPORTED), 52);
	check_bytes("login rsp", buf, exp, sizeof(exp));
	check_canary("login rsp", buf, 52, sizeof(buf));
	k = (struct k_login_rsp *)buf;
	assert_int_equal(k->opcode, SRP_IU_LOGIN_RSP);
	assert_true(be64toh(k->tag) == TAG1);
	assert_int_equal(be32toh(k->max_ti_iu_len), 4148);

	/* A negative credit travels as two's complement. */
	assert_int_equal(srp_build_login_rsp(buf, 52, 0, -2, 0, 0, 0, 0), 52);
	assert_int_equal(be32toh(k->req_lim_delta), 0xfffffffe);

	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_login_rsp(buf, 51, TAG1, 1, 1, 1, 0, 0),
			 -ENOSPC);
	check_canary("short login rsp", buf, 0, sizeof(buf));
	assert_int_equal(srp_build_login_rsp(NULL, 52, TAG1, 1, 1, 1, 0, 0),
			 -ENOSPC);
}

static void test_build_login_rej(void **state)
{
	static const u8 exp[32] = {
		0xc2, 0, 0, 0,
		0x00, 0x01, 0x00, 0x02,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x06,
		0, 0, 0, 0, 0, 0,
	};
	struct k_login_rej *k;
	u8 buf[40];

	(void)state;
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_login_rej(buf, sizeof(buf),
					     0x1122334455667788ULL,
					     SRP_IU_REJ_IT_IU_LEN_TOO_LARGE,
					     SRP_IU_BUF_FMT_ALL), 32);
	check_bytes("login rej", buf, exp, sizeof(exp));
	check_canary("login rej", buf, 32, sizeof(buf));
	k = (struct k_login_rej *)buf;
	assert_int_equal(be32toh(k->reason), 0x00010002);
	assert_int_equal(be16toh(k->buf_fmt), 0x0006);

	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_login_rej(buf, 31, 1, 1, 1), -ENOSPC);
	check_canary("short login rej", buf, 0, sizeof(buf));
}

static void test_build_t_logout(void **state)
{
	static const u8 exp[16] = {
		0x80, 0x01, 0, 0,
		0x00, 0x00, 0x00, 0x02,
		0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	};
	struct k_t_logout *k;
	u8 buf[20];

	(void)state;
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_t_logout(buf, sizeof(buf),
					    0xa0a1a2a3a4a5a6a7ULL,
					    SRP_IU_TLO_INVALID_IU_TYPE,
					    SRP_IU_SOLNT), 16);
	check_bytes("t_logout", buf, exp, sizeof(exp));
	check_canary("t_logout", buf, 16, sizeof(buf));
	k = (struct k_t_logout *)buf;
	assert_int_equal(be32toh(k->reason), SRP_IU_TLO_INVALID_IU_TYPE);
	assert_int_equal(srp_build_t_logout(buf, 15, 0, 0, 0), -ENOSPC);
}

static void test_build_cred_req(void **state)
{
	static const u8 exp[16] = {
		0x81, 0x00, 0, 0,
		0x00, 0x00, 0x00, 0x05,
		0, 0, 0, 0, 0, 0, 0x12, 0x34,
	};
	struct k_cred_req *k;
	u8 buf[20];

	(void)state;
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_cred_req(buf, sizeof(buf), 0x1234, 5, 0),
			 16);
	check_bytes("cred_req", buf, exp, sizeof(exp));
	check_canary("cred_req", buf, 16, sizeof(buf));
	k = (struct k_cred_req *)buf;
	assert_int_equal(be32toh(k->req_lim_delta), 5);
	assert_int_equal(srp_build_cred_req(buf, 15, 0, 0, 0), -ENOSPC);
}

static const u8 sense18[18] = {
	0x70, 0, 0x06, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x29, 0x00, 0, 0, 0, 0,
};

static void test_build_aer_req(void **state)
{
	static const u8 lun[8] = { 0x00, 0x01, 0, 0, 0, 0, 0, 0 };
	static const u8 exp[54] = {
		0x82, 0x01, 0, 0,
		0x00, 0x00, 0x00, 0x01,
		0, 0, 0, 0, 0, 0, 0, 0x09,
		0, 0, 0, 0,
		0x00, 0x01, 0, 0, 0, 0, 0, 0,
		0x00, 0x00, 0x00, 0x12,
		0, 0, 0, 0,
		0x70, 0, 0x06, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x29, 0x00,
		0, 0, 0, 0,
	};
	struct k_aer_req *k;
	u8 buf[64], big[600];

	(void)state;
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_aer_req(buf, sizeof(buf), 9, 1, lun,
					   sense18, sizeof(sense18),
					   SRP_IU_SOLNT), 54);
	check_bytes("aer_req", buf, exp, sizeof(exp));
	check_canary("aer_req", buf, 54, sizeof(buf));
	k = (struct k_aer_req *)buf;
	assert_int_equal(be32toh(k->sense_data_len), 18);
	assert_memory_equal(k->sense_data, sense18, 18);

	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_aer_req(buf, 53, 9, 1, lun, sense18, 18, 0),
			 -ENOSPC);
	check_canary("short aer_req", buf, 0, sizeof(buf));
	assert_int_equal(srp_build_aer_req(buf, 36, 9, 1, lun, NULL, 0, 0),
			 36);
	assert_int_equal(srp_build_aer_req(buf, 36, 9, 1, lun, NULL, 1, 0),
			 -EINVAL);
	memset(big, 0x5a, sizeof(big));
	assert_int_equal(srp_build_aer_req(big + 300, sizeof(big) - 300, 9, 1,
					   lun, big, 253, 0), -EINVAL);
	assert_int_equal(srp_build_aer_req(big + 300, sizeof(big) - 300, 9, 1,
					   lun, big, 252, 0), 288);
	assert_int_equal(get_unaligned_be32(big + 300 + 28), 252);
	assert_memory_equal(big + 300 + 36, big, 252);
}

/* ---------------------------------------------------------------------- */
/* SRP_RSP                                                                 */
/* ---------------------------------------------------------------------- */

static void test_build_rsp_bytes(void **state)
{
	static const u8 good[36] = {
		0xc1, 0, 0, 0,
		0x00, 0x00, 0x00, 0x01,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0, 0,
		0x00,				/* flags */
		0x00,				/* GOOD */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const u8 check[54] = {
		0xc1, 0, 0, 0,
		0x00, 0x00, 0x00, 0x02,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0, 0,
		0x22,				/* SNSVALID | DIUNDER */
		0x02,				/* CHECK CONDITION */
		0x00, 0x00, 0x00, 0x00,		/* data-out residual */
		0x00, 0x00, 0x02, 0x00,		/* data-in residual 512 */
		0x00, 0x00, 0x00, 0x12,		/* sense length 18 */
		0x00, 0x00, 0x00, 0x00,		/* no response data */
		0x70, 0, 0x06, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x29, 0x00,
		0, 0, 0, 0,
	};
	static const u8 tmf[40] = {
		0xc1, 0, 0, 0,
		0x00, 0x00, 0x00, 0x01,
		0, 0, 0, 0, 0, 0, 0, 0x2a,
		0, 0,
		0x01,				/* RSPVALID */
		0x00,
		0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x04,		/* response data length */
		0x00, 0x00, 0x00, 0x04,		/* TMF NOT SUPPORTED */
	};
	static const u8 both[58] = {
		0xc1, 0, 0, 0,
		0xff, 0xff, 0xff, 0xff,		/* -1 */
		0, 0, 0, 0, 0, 0, 0, 0x2a,
		0, 0,
		0x07,				/* RSPVALID|SNSVALID|DOOVER */
		0x02,
		0x00, 0x00, 0x00, 0x10,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x12,
		0x00, 0x00, 0x00, 0x04,
		0x00, 0x00, 0x00, 0x05,		/* FAILED, before the sense */
		0x70, 0, 0x06, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x29, 0x00,
		0, 0, 0, 0,
	};
	u8 buf[128];

	(void)state;
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_rsp(buf, sizeof(buf), TAG1, 1, 0x00, NULL,
				       0, 0, 0, SRP_IU_NO_RSP_DATA), 36);
	check_bytes("GOOD", buf, good, sizeof(good));
	check_canary("GOOD", buf, 36, sizeof(buf));

	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_rsp(buf, sizeof(buf), TAG1, 2, 0x02,
				       sense18, 18, 512, 0,
				       SRP_IU_NO_RSP_DATA), 54);
	check_bytes("CHECK CONDITION", buf, check, sizeof(check));
	check_canary("CHECK CONDITION", buf, 54, sizeof(buf));

	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_rsp(buf, sizeof(buf), 0x2a, 1, 0, NULL, 0,
				       0, 0, SRP_IU_RSP_CODE_NOT_SUPPORTED),
			 40);
	check_bytes("TMF", buf, tmf, sizeof(tmf));
	check_canary("TMF", buf, 40, sizeof(buf));

	/* Data-out overflow of 16 (DOOVER) with response and sense data. */
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_build_rsp(buf, sizeof(buf), 0x2a, -1, 0x02,
				       sense18, 18, 0, -16,
				       SRP_IU_RSP_CODE_FAILED), 58);
	check_bytes("rsp and sense", buf, both, sizeof(both));
	check_canary("rsp and sense", buf, 58, sizeof(buf));
}

struct rsp_case {
	const char *what;
	size_t len;
	const u8 *sense;
	u32 sense_len;
	s64 resid_in, resid_out;
	int rsp_code;
	int ret;
	u8 flags;
	u32 di_resid, do_resid, exp_sense_len;
};

static void test_build_rsp_table(void **state)
{
	static u8 sense300[300];
	const struct rsp_case cases[] = {
		{ "DIUNDER", 64, NULL, 0, 512, 0, -1, 36, 0x20, 512, 0, 0 },
		{ "DIOVER", 64, NULL, 0, -512, 0, -1, 36, 0x10, 512, 0, 0 },
		{ "DOUNDER", 64, NULL, 0, 0, 100, -1, 36, 0x08, 0, 100, 0 },
		{ "DOOVER", 64, NULL, 0, 0, -100, -1, 36, 0x04, 0, 100, 0 },
		{ "DIUNDER and DOOVER", 64, NULL, 0, 1, -2, -1, 36, 0x24, 1, 2,
		  0 },
		{ "residual saturates", 64, NULL, 0, 1LL << 40, -(1LL << 33),
		  -1, 36, 0x24, 0xffffffff, 0xffffffff, 0 },
		{ "residual 2^32-1", 64, NULL, 0, 0xffffffffLL, 0, -1, 36, 0x20,
		  0xffffffff, 0, 0 },
		{ "most negative residual", 64, NULL, 0, INT64_MIN, INT64_MAX,
		  -1, 36, 0x18, 0xffffffff, 0xffffffff, 0 },
		{ "sense cut to the IU", 40, sense18, 18, 0, 0, -1, 40, 0x02, 0,
		  0, 4 },
		{ "no room for sense", 36, sense18, 18, 0, 0, -1, 36, 0x00, 0,
		  0, 0 },
		{ "sense cut after response data", 44, sense18, 18, 0, 0, 0,
		  44, 0x03, 0, 0, 4 },
		{ "sense length 0", 64, sense18, 0, 0, 0, -1, 36, 0x00, 0, 0,
		  0 },
		{ "sense cut to 252", 512, sense300, 300, 0, 0, -1, 288, 0x02,
		  0, 0, 252 },
		{ "no room for the fixed part", 35, NULL, 0, 0, 0, -1, -ENOSPC, 0, 0, 0, 0 },
		{ "no room for response data", 39, NULL, 0, 0, 0, 0, -ENOSPC, 0, 0, 0, 0 },
		{ "RSP_CODE 255", 40, NULL, 0, 0, 0, 255, 40, 0x01, 0, 0, 0 },
		{ "RSP_CODE 256", 40, NULL, 0, 0, 0, 256, -EINVAL, 0, 0, 0, 0 },
	};
	u8 buf[600];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct rsp_case *c = &cases[i];
		struct k_rsp *k = (struct k_rsp *)buf;
		int ret;

		memset(buf, CANARY, sizeof(buf));
		ret = srp_build_rsp(buf, c->len, TAG1, 0, 0, c->sense,
				    c->sense_len, c->resid_in, c->resid_out,
				    c->rsp_code);
		CHECK_EQ(c->what, ret, c->ret);
		if (ret < 0) {
			check_canary(c->what, buf, 0, sizeof(buf));
			continue;
		}
		check_canary(c->what, buf, ret, sizeof(buf));
		CHECK_EQ(c->what, k->opcode, SRP_IU_RSP);
		CHECK_EQ(c->what, be64toh(k->tag), TAG1);
		CHECK_EQ(c->what, k->flags, c->flags);
		CHECK_EQ(c->what, be32toh(k->data_in_res_cnt), c->di_resid);
		CHECK_EQ(c->what, be32toh(k->data_out_res_cnt), c->do_resid);
		CHECK_EQ(c->what, be32toh(k->sense_data_len), c->exp_sense_len);
		CHECK_EQ(c->what, be32toh(k->resp_data_len),
			 c->rsp_code >= 0 ? 4 : 0);
		if (c->exp_sense_len)
			check_bytes(c->what, k->data +
				    (c->rsp_code >= 0 ? 4 : 0), c->sense,
				    c->exp_sense_len);
		if (c->rsp_code >= 0)
			CHECK_EQ(c->what, k->data[3], c->rsp_code);
	}
}

static void test_rsp_solnt(void **state)
{
	(void)state;
	assert_int_equal(srp_rsp_solnt(0, true), 0);
	assert_int_equal(srp_rsp_solnt(0, false), 0);
	assert_int_equal(srp_rsp_solnt(SRP_IU_SCSOLNT, true), SRP_IU_SOLNT);
	assert_int_equal(srp_rsp_solnt(SRP_IU_SCSOLNT, false), 0);
	assert_int_equal(srp_rsp_solnt(SRP_IU_UCSOLNT, true), 0);
	assert_int_equal(srp_rsp_solnt(SRP_IU_UCSOLNT, false), SRP_IU_SOLNT);
	assert_int_equal(srp_rsp_solnt(0x06, true), SRP_IU_SOLNT);
	assert_int_equal(srp_rsp_solnt(0x06, false), SRP_IU_SOLNT);
}

/* ---------------------------------------------------------------------- */
/* SRP_CMD                                                                 */
/* ---------------------------------------------------------------------- */

#define CMD_TAG		0x0badc0ffee0ddf00ULL

static const u8 test_lun[8] = { 0x40, 0x05, 0, 0, 0, 0, 0, 0 };

/* The fixed part of an SRP_CMD; returns the offset after the add. CDB. */
static size_t cmd_hdr(u8 *buf, u8 fmt, u8 do_cnt, u8 di_cnt, u8 add_cdb)
{
	struct k_cmd *c = (struct k_cmd *)buf;
	size_t i;

	memset(buf, 0, sizeof(*c));
	c->opcode = SRP_IU_CMD;
	c->sol_not = SRP_IU_UCSOLNT;
	c->buf_fmt = fmt;
	c->data_out_desc_cnt = do_cnt;
	c->data_in_desc_cnt = di_cnt;
	c->tag = htobe64(CMD_TAG);
	memcpy(c->lun, test_lun, 8);
	c->task_attr = SRP_IU_TASK_ORDERED;
	c->add_cdb_len = add_cdb;
	for (i = 0; i < 16; i++)
		c->cdb[i] = 0x28 + i;
	for (i = 0; i < (add_cdb & 0xfcu); i++)
		c->add_data[i] = 0xc0 + i;
	return sizeof(*c) + (add_cdb & 0xfcu);
}

static size_t put_desc(u8 *p, u64 va, u32 key, u32 len)
{
	struct k_direct_buf d = { htobe64(va), htobe32(key), htobe32(len) };

	memcpy(p, &d, sizeof(d));
	return sizeof(d);
}

static size_t put_idb(u8 *p, u64 va, u32 key, u32 tbl_len, u32 total)
{
	struct k_indirect_buf h = {
		{ htobe64(va), htobe32(key), htobe32(tbl_len) }, htobe32(total)
	};

	memcpy(p, &h, sizeof(h));
	return sizeof(h);
}

static size_t put_imm(u8 *p, u32 len)
{
	u32 be = htobe32(len);

	memcpy(p, &be, 4);
	return 4;
}

static void check_cmd_common(const char *what, const u8 *buf,
			     const struct srp_cmd_info *ci)
{
	CHECK_EQ(what, ci->tag, CMD_TAG);
	check_bytes(what, ci->lun, test_lun, 8);
	CHECK_EQ(what, ci->sol_not, SRP_IU_UCSOLNT);
	CHECK_EQ(what, ci->task_attr, SRP_IU_TASK_ORDERED);
	CHECK_EQ(what, ci->cdb - buf, 32);
	CHECK_EQ(what, ci->cdb[0], 0x28);
}

static void test_cmd_no_data(void **state)
{
	struct srp_cmd_info ci;
	struct srp_cmd_err err;
	u8 buf[64];
	size_t len;

	(void)state;
	len = cmd_hdr(buf, 0x00, 0, 0, 0);
	assert_int_equal(srp_parse_cmd(buf, len, 0, &ci, &err), 0);
	check_cmd_common("no data", buf, &ci);
	assert_int_equal(ci.cdb_len, 16);
	assert_int_equal(ci.dir, SRP_IU_DIR_NONE);
	assert_int_equal(ci.fmt, SRP_IU_DESC_NONE);
	assert_int_equal(ci.data_len, 0);
	assert_int_equal(ci.ndesc, 0);
	assert_false(ci.imm);
	assert_int_equal(err.reason, SRP_CMD_ERR_NONE);
	assert_int_equal(err.sense_code, 0);
	/* Task attribute: bits 2-0 only. */
	buf[29] = 0xf8 | SRP_IU_TASK_HEAD_OF_QUEUE;
	assert_int_equal(srp_parse_cmd(buf, len, 0, &ci, &err), 0);
	assert_int_equal(ci.task_attr, SRP_IU_TASK_HEAD_OF_QUEUE);
	/* err may be NULL. */
	assert_int_equal(srp_parse_cmd(buf, len, 0, &ci, NULL), 0);
}

static void test_cmd_direct(void **state)
{
	static const struct {
		const char *what;
		u8 fmt, do_cnt, di_cnt, add_cdb;
		u32 len;
		size_t extra;
		u8 dir;
	} cases[] = {
		{ "read, count 0 (Linux)", 0x01, 0, 0, 0, 4096, 0,
		  SRP_IU_DIR_READ },
		{ "read, count 1", 0x01, 0, 1, 0, 4096, 0, SRP_IU_DIR_READ },
		{ "write, count 0", 0x10, 0, 0, 0, 512, 0, SRP_IU_DIR_WRITE },
		{ "write, count 1", 0x10, 1, 0, 0, 512, 0, SRP_IU_DIR_WRITE },
		{ "zero-length transfer", 0x01, 0, 0, 0, 0, 0,
		  SRP_IU_DIR_READ },
		{ "maximum transfer", 0x10, 0, 0, 0, 0xffffffff, 0,
		  SRP_IU_DIR_WRITE },
		{ "32-byte CDB", 0x01, 0, 0, 16, 8192, 0, SRP_IU_DIR_READ },
		{ "reserved bits of ADDITIONAL CDB LENGTH", 0x01, 0, 0, 0x13,
		  8192, 0, SRP_IU_DIR_READ },
		{ "longest additional CDB", 0x10, 0, 0, 0xfc, 1, 0,
		  SRP_IU_DIR_WRITE },
		{ "trailing bytes ignored", 0x01, 0, 0, 0, 4096, 37,
		  SRP_IU_DIR_READ },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct srp_cmd_info ci;
		struct srp_cmd_err err;
		u8 buf[512];
		u64 va;
		u32 key, len;
		size_t off, n;

		memset(buf, 0, sizeof(buf));
		off = cmd_hdr(buf, cases[i].fmt, cases[i].do_cnt,
			      cases[i].di_cnt, cases[i].add_cdb);
		n = off + put_desc(buf + off, 0x1122334455667788ULL + i,
				   0xabcd0000 + i, cases[i].len);
		n += cases[i].extra;
		CHECK_EQ(cases[i].what, srp_parse_cmd(buf, n, 0, &ci, &err), 0);
		check_cmd_common(cases[i].what, buf, &ci);
		CHECK_EQ(cases[i].what, ci.cdb_len,
			 16 + (cases[i].add_cdb & 0xfc));
		CHECK_EQ(cases[i].what, ci.dir, cases[i].dir);
		CHECK_EQ(cases[i].what, ci.fmt, SRP_IU_DESC_DIRECT);
		CHECK_EQ(cases[i].what, ci.data_out_fmt, cases[i].fmt >> 4);
		CHECK_EQ(cases[i].what, ci.data_in_fmt, cases[i].fmt & 0xf);
		CHECK_EQ(cases[i].what, ci.data_len, cases[i].len);
		CHECK_EQ(cases[i].what, ci.ndesc, 1);
		CHECK_EQ(cases[i].what, ci.desc_off, off);
		CHECK_EQ(cases[i].what, ci.table_external, false);
		CHECK_EQ(cases[i].what, ci.imm, false);
		CHECK_EQ(cases[i].what,
			 srp_cmd_desc(buf, &ci, 0, &va, &key, &len), 0);
		CHECK_EQ(cases[i].what, va, 0x1122334455667788ULL + i);
		CHECK_EQ(cases[i].what, key, 0xabcd0000 + i);
		CHECK_EQ(cases[i].what, len, cases[i].len);
		CHECK_EQ(cases[i].what,
			 srp_cmd_desc(buf, &ci, 1, &va, &key, &len), -EINVAL);
	}
}

static void test_cmd_indirect(void **state)
{
	static const u32 lens[4] = { 4096, 8192, 512, 0x10000 };
	struct srp_cmd_info ci;
	struct srp_cmd_err err;
	u8 buf[256], tbl[64];
	size_t off, n;
	unsigned int i;
	u64 va;
	u32 key, len;

	(void)state;
	/* Whole table in the IU: 3 descriptors, read. */
	off = cmd_hdr(buf, 0x02, 0, 3, 0);
	n = off + put_idb(buf + off, 0xfeed000000ULL, 0x77, 48,
			  4096 + 8192 + 512);
	for (i = 0; i < 3; i++)
		n += put_desc(buf + n, 0x1000ULL * (i + 1), 0x100 + i, lens[i]);
	assert_int_equal(n, 48 + 20 + 48);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	check_cmd_common("indirect", buf, &ci);
	assert_int_equal(ci.dir, SRP_IU_DIR_READ);
	assert_int_equal(ci.fmt, SRP_IU_DESC_INDIRECT);
	assert_int_equal(ci.data_len, 4096 + 8192 + 512);
	assert_int_equal(ci.ndesc, 3);
	assert_int_equal(ci.desc_off, 68);
	assert_true(ci.table_addr == 0xfeed000000ULL);
	assert_int_equal(ci.table_rkey, 0x77);
	assert_int_equal(ci.table_len, 48);
	assert_int_equal(ci.table_ndesc, 3);
	assert_false(ci.table_external);
	for (i = 0; i < 3; i++) {
		assert_int_equal(srp_cmd_desc(buf, &ci, i, &va, &key, &len), 0);
		assert_true(va == 0x1000ULL * (i + 1));
		assert_int_equal(key, 0x100 + i);
		assert_int_equal(len, lens[i]);
	}
	assert_int_equal(srp_cmd_desc(buf, &ci, 3, &va, &key, &len), -EINVAL);
	/* A table in the IU needs no fetching. */
	assert_int_equal(srp_parse_ext_table(buf + 68, 48, &ci, &err),
			 -EINVAL);
	assert_int_equal(err.reason, SRP_CMD_ERR_TABLE);

	/* The same as a write with 32-byte CDB. */
	off = cmd_hdr(buf, 0x20, 3, 0, 16);
	n = off + put_idb(buf + off, 0xfeed000000ULL, 0x77, 48,
			  4096 + 8192 + 512);
	for (i = 0; i < 3; i++)
		n += put_desc(buf + n, 0x1000ULL * (i + 1), 0x100 + i, lens[i]);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	assert_int_equal(ci.dir, SRP_IU_DIR_WRITE);
	assert_int_equal(ci.desc_off, 84);
	assert_int_equal(ci.cdb_len, 32);
	assert_int_equal(srp_cmd_desc(buf, &ci, 2, &va, &key, &len), 0);
	assert_int_equal(len, 512);

	/* External table: 2 of 4 descriptors in the IU (SRP r16a §5.5.3). */
	off = cmd_hdr(buf, 0x20, 2, 0, 0);
	n = off + put_idb(buf + off, 0xbeef0000ULL, 0x99, 64,
			  4096 + 8192 + 512 + 0x10000);
	for (i = 0; i < 2; i++)
		n += put_desc(buf + n, 0x1000ULL * (i + 1), 0x100 + i, lens[i]);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	assert_true(ci.table_external);
	assert_int_equal(ci.ndesc, 2);
	assert_int_equal(ci.table_ndesc, 4);
	assert_int_equal(ci.table_len, 64);
	assert_true(ci.table_addr == 0xbeef0000ULL);
	assert_int_equal(ci.table_rkey, 0x99);
	assert_int_equal(ci.data_len, 4096 + 8192 + 512 + 0x10000);
	for (i = 0, n = 0; i < 4; i++)
		n += put_desc(tbl + n, 0x1000ULL * (i + 1), 0x100 + i, lens[i]);
	assert_int_equal(srp_parse_ext_table(tbl, 64, &ci, &err), 0);
	assert_int_equal(srp_desc_get(tbl, 64, 3, &va, &key, &len), 0);
	assert_true(va == 0x4000);
	assert_int_equal(len, 0x10000);
	assert_int_equal(srp_desc_get(tbl, 64, 4, &va, &key, &len), -EINVAL);
	assert_int_equal(srp_desc_get(tbl, 63, 3, &va, &key, &len), -EINVAL);
	/* Fetched table of another size, or whose lengths do not add up. */
	assert_int_equal(srp_parse_ext_table(tbl, 48, &ci, &err), -EINVAL);
	assert_int_equal(err.reason, SRP_CMD_ERR_TABLE);
	assert_int_equal(err.sense_code, SRP_IU_SENSE_INVALID_IU);
	assert_int_equal(srp_parse_ext_table(tbl, 80, &ci, &err), -EINVAL);
	assert_int_equal(err.reason, SRP_CMD_ERR_TABLE);
	put_desc(tbl + 48, 0x4000, 0x103, 0x10001);
	assert_int_equal(srp_parse_ext_table(tbl, 64, &ci, &err), -EINVAL);
	assert_int_equal(err.reason, SRP_CMD_ERR_TOTAL_LEN);
	put_desc(tbl + 48, 0x4000, 0x103, 0xffffffff);
	assert_int_equal(srp_parse_ext_table(tbl, 64, &ci, &err), -EINVAL);
	assert_int_equal(err.reason, SRP_CMD_ERR_TOTAL_LEN);

	/* External table with no descriptor in the IU. */
	off = cmd_hdr(buf, 0x02, 0, 0, 0);
	n = off + put_idb(buf + off, 0xbeef0000ULL, 0x99, 32, 1 << 20);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	assert_true(ci.table_external);
	assert_int_equal(ci.ndesc, 0);
	assert_int_equal(ci.table_ndesc, 2);
	assert_int_equal(srp_cmd_desc(buf, &ci, 0, &va, &key, &len), -EINVAL);

	/* Empty table: a zero-length transfer. */
	off = cmd_hdr(buf, 0x02, 0, 0, 0);
	n = off + put_idb(buf + off, 0, 0, 0, 0);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	assert_false(ci.table_external);
	assert_int_equal(ci.ndesc, 0);
	assert_int_equal(ci.data_len, 0);

	/* Largest total: 2^32 - 1. */
	off = cmd_hdr(buf, 0x20, 2, 0, 0);
	n = off + put_idb(buf + off, 0, 0, 32, 0xffffffff);
	n += put_desc(buf + n, 0, 1, 0x80000000);
	n += put_desc(buf + n, 0, 1, 0x7fffffff);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	assert_int_equal(ci.data_len, 0xffffffff);
}

static void test_cmd_imm(void **state)
{
	struct srp_cmd_info ci;
	struct srp_cmd_err err;
	u8 buf[1024];
	size_t off;

	(void)state;
	memset(buf, 0, sizeof(buf));
	/* Linux' layout: descriptor at 48, data at 68. */
	off = cmd_hdr(buf, 0x30, 0, 0, 0);
	put_imm(buf + off, 512);
	assert_int_equal(srp_parse_cmd(buf, LINUX_IMM_OFFSET + 512,
				       LINUX_IMM_OFFSET, &ci, &err), 0);
	check_cmd_common("imm", buf, &ci);
	assert_true(ci.imm);
	assert_int_equal(ci.dir, SRP_IU_DIR_WRITE);
	assert_int_equal(ci.fmt, SRP_IU_DESC_IMM);
	assert_int_equal(ci.imm_offset, 68);
	assert_int_equal(ci.imm_len, 512);
	assert_int_equal(ci.data_len, 512);
	assert_int_equal(ci.ndesc, 0);

	/* Count 1, 32-byte CDB: the descriptor ends right at 68. */
	off = cmd_hdr(buf, 0x30, 1, 0, 16);
	put_imm(buf + off, 100);
	assert_int_equal(srp_parse_cmd(buf, 68 + 100, 68, &ci, &err), 0);
	assert_int_equal(ci.imm_len, 100);
	assert_int_equal(ci.cdb_len, 32);

	/* Zero-length immediate data. */
	off = cmd_hdr(buf, 0x30, 0, 0, 0);
	put_imm(buf + off, 0);
	assert_int_equal(srp_parse_cmd(buf, 68, 68, &ci, &err), 0);
	assert_true(ci.imm);
	assert_int_equal(ci.data_len, 0);

	/* Smallest offset: right behind the descriptor. */
	put_imm(buf + off, 8);
	assert_int_equal(srp_parse_cmd(buf, 60, 52, &ci, &err), 0);
	assert_int_equal(ci.imm_offset, 52);
}

struct bad_cmd {
	const char *what;
	u8 fmt, do_cnt, di_cnt, add_cdb;
	/* what follows the fixed part and additional CDB */
	enum { NO_DESC, DIRECT, INDIRECT, IMM } kind;
	u32 tbl_len, total;
	unsigned int ndesc;	/* descriptors appended (indirect) */
	u32 desc_len;		/* each one's LENGTH, or the IMM length */
	int len_delta;		/* added to the IU length */
	u32 imm_off;
	u8 reason;
	u32 offset;
};

static const struct bad_cmd bad_cmds[] = {
	{ "wrong IU type", 0x00, 0, 0, 0, NO_DESC, .reason = SRP_CMD_ERR_OPCODE,
	  .offset = 0 },
	{ "additional CDB past the IU", 0x00, 0, 0, 4, NO_DESC,
	  .len_delta = -1, .reason = SRP_CMD_ERR_ADD_CDB, .offset = 31 },
	{ "longest additional CDB past the IU", 0x00, 0, 0, 0xfc, NO_DESC,
	  .len_delta = -1, .reason = SRP_CMD_ERR_ADD_CDB, .offset = 31 },
	{ "data-out format 4", 0x40, 0, 0, 0, NO_DESC,
	  .reason = SRP_CMD_ERR_DATA_OUT_FMT, .offset = 5 },
	{ "data-out format 15", 0xf0, 0, 0, 0, NO_DESC,
	  .reason = SRP_CMD_ERR_DATA_OUT_FMT, .offset = 5 },
	{ "immediate data-in", 0x03, 0, 0, 0, IMM, .imm_off = 68,
	  .reason = SRP_CMD_ERR_DATA_IN_FMT, .offset = 5 },
	{ "data-in format 15", 0x0f, 0, 0, 0, NO_DESC,
	  .reason = SRP_CMD_ERR_DATA_IN_FMT, .offset = 5 },
	{ "bidirectional direct", 0x11, 0, 0, 0, DIRECT,
	  .reason = SRP_CMD_ERR_BIDI, .offset = 5 },
	{ "bidirectional indirect", 0x22, 1, 1, 0, INDIRECT, 32, 0, 2,
	  .reason = SRP_CMD_ERR_BIDI, .offset = 5 },
	{ "bidirectional mixed", 0x12, 0, 0, 0, DIRECT,
	  .reason = SRP_CMD_ERR_BIDI, .offset = 5 },
	{ "bidirectional with immediate data", 0x31, 0, 0, 0, IMM,
	  .imm_off = 68, .reason = SRP_CMD_ERR_BIDI, .offset = 5 },
	{ "no data, data-out count", 0x00, 1, 0, 0, NO_DESC,
	  .reason = SRP_CMD_ERR_DESC_CNT, .offset = 6 },
	{ "no data, data-in count", 0x00, 0, 1, 0, NO_DESC,
	  .reason = SRP_CMD_ERR_DESC_CNT, .offset = 7 },
	{ "read with a data-out count", 0x01, 1, 0, 0, DIRECT,
	  .reason = SRP_CMD_ERR_DESC_CNT, .offset = 6 },
	{ "write with a data-in count", 0x10, 0, 1, 0, DIRECT,
	  .reason = SRP_CMD_ERR_DESC_CNT, .offset = 7 },
	{ "direct, count 2", 0x01, 0, 2, 0, DIRECT,
	  .reason = SRP_CMD_ERR_DESC_CNT, .offset = 7 },
	{ "direct descriptor past the IU", 0x01, 0, 0, 0, DIRECT,
	  .len_delta = -1, .reason = SRP_CMD_ERR_DESC_PAST_IU, .offset = 48 },
	{ "direct descriptor missing", 0x10, 0, 0, 8, NO_DESC,
	  .reason = SRP_CMD_ERR_DESC_PAST_IU, .offset = 56 },
	{ "indirect header past the IU", 0x02, 0, 1, 0, INDIRECT, 16, 4096, 1,
	  4096, .len_delta = -(16 + 1), .reason = SRP_CMD_ERR_DESC_PAST_IU,
	  .offset = 48 },
	{ "indirect table length not whole descriptors", 0x02, 0, 2, 0,
	  INDIRECT, 40, 8192, 2, 4096, .reason = SRP_CMD_ERR_TABLE,
	  .offset = 60 },
	{ "indirect count above table", 0x20, 3, 0, 0, INDIRECT, 32, 12288,
	  3, 4096, .reason = SRP_CMD_ERR_DESC_CNT, .offset = 6 },
	{ "indirect partial list past the IU", 0x02, 0, 3, 0, INDIRECT, 48,
	  12288, 3, 4096, .len_delta = -1,
	  .reason = SRP_CMD_ERR_DESC_PAST_IU, .offset = 7 },
	{ "indirect count 255, two in the IU", 0x20, 255, 0, 0, INDIRECT,
	  255 * 16, 8192, 2, 4096, .reason = SRP_CMD_ERR_DESC_PAST_IU,
	  .offset = 6 },
	{ "indirect total below the sum", 0x02, 0, 2, 0, INDIRECT, 32, 8191,
	  2, 4096, .reason = SRP_CMD_ERR_TOTAL_LEN, .offset = 64 },
	{ "indirect total above the sum", 0x02, 0, 2, 0, INDIRECT, 32, 8193,
	  2, 4096, .reason = SRP_CMD_ERR_TOTAL_LEN, .offset = 64 },
	{ "indirect sum overflows 2^32", 0x20, 2, 0, 0, INDIRECT, 32,
	  0xfffffffe, 2, 0xffffffff, .reason = SRP_CMD_ERR_TOTAL_LEN,
	  .offset = 64 },
	{ "indirect sum wraps to the total", 0x20, 2, 0, 0, INDIRECT, 32,
	  0x00000000, 2, 0x80000000, .reason = SRP_CMD_ERR_TOTAL_LEN,
	  .offset = 64 },
	{ "external table, partial sum above total", 0x20, 2, 0, 0, INDIRECT,
	  64, 8191, 2, 4096, .reason = SRP_CMD_ERR_TOTAL_LEN, .offset = 64 },
	{ "immediate data not granted", 0x30, 0, 0, 0, IMM, .desc_len = 16,
	  .imm_off = 0, .reason = SRP_CMD_ERR_IMM, .offset = 5 },
	{ "immediate data offset inside the descriptor", 0x30, 0, 0, 0, IMM,
	  .desc_len = 16, .imm_off = 51, .reason = SRP_CMD_ERR_IMM,
	  .offset = 31 },
	{ "immediate data descriptor behind the data", 0x30, 0, 0, 16, IMM,
	  .desc_len = 16, .imm_off = 64, .reason = SRP_CMD_ERR_IMM,
	  .offset = 31 },
	{ "immediate data past the IU", 0x30, 0, 0, 0, IMM, .desc_len = 512,
	  .imm_off = 68, .len_delta = -1, .reason = SRP_CMD_ERR_IMM,
	  .offset = 48 },
	{ "immediate data length 2^32-1", 0x30, 0, 0, 0, IMM,
	  .desc_len = 0xffffffff, .imm_off = 68, .reason = SRP_CMD_ERR_IMM,
	  .offset = 48 },
	{ "immediate data offset past the IU", 0x30, 0, 0, 0, IMM,
	  .desc_len = 0, .imm_off = 200, .len_delta = -100,
	  .reason = SRP_CMD_ERR_IMM, .offset = 48 },
	{ "immediate data, count 2", 0x30, 2, 0, 0, IMM, .desc_len = 16,
	  .imm_off = 68, .reason = SRP_CMD_ERR_DESC_CNT, .offset = 6 },
	{ "immediate data descriptor past the IU", 0x30, 0, 0, 0, IMM,
	  .desc_len = 0, .imm_off = 68, .len_delta = -(68 - 51),
	  .reason = SRP_CMD_ERR_DESC_PAST_IU, .offset = 48 },
};

static size_t make_bad_cmd(u8 *buf, const struct bad_cmd *b)
{
	size_t n = cmd_hdr(buf, b->fmt, b->do_cnt, b->di_cnt, b->add_cdb);
	unsigned int i;

	switch (b->kind) {
	case NO_DESC:
		break;
	case DIRECT:
		n += put_desc(buf + n, 0x1000, 1, 4096);
		break;
	case INDIRECT:
		n += put_idb(buf + n, 0x2000, 2, b->tbl_len, b->total);
		for (i = 0; i < b->ndesc; i++)
			n += put_desc(buf + n, 0x1000 * i, 1, b->desc_len);
		break;
	case IMM:
		put_imm(buf + n, b->desc_len);
		n = (b->imm_off ? b->imm_off : 68) +
		    (b->desc_len > 1024 ? 1024 : b->desc_len);
		break;
	}
	return n + b->len_delta;
}

static void test_cmd_bad(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_cmds); i++) {
		const struct bad_cmd *b = &bad_cmds[i];
		struct srp_cmd_info ci;
		struct srp_cmd_err err;
		u8 buf[8192];
		size_t len;

		memset(buf, 0, sizeof(buf));
		len = make_bad_cmd(buf, b);
		if (b->reason == SRP_CMD_ERR_OPCODE)
			buf[0] = SRP_IU_TSK_MGMT;
		CHECK_EQ(b->what, srp_parse_cmd(buf, len, b->imm_off, &ci,
						&err), -EINVAL);
		CHECK_EQ(b->what, err.reason, b->reason);
		CHECK_EQ(b->what, err.sense_code, SRP_IU_SENSE_INVALID_IU);
		CHECK_EQ(b->what, err.offset, b->offset);
		/* The TAG is there for the CHECK CONDITION. */
		CHECK_EQ(b->what, ci.tag, CMD_TAG);
		/* Without err, the same verdict. */
		CHECK_EQ(b->what, srp_parse_cmd(buf, len, b->imm_off, &ci,
						NULL), -EINVAL);
	}
}

/* Every truncation of valid IUs is refused; the whole IU is accepted. */
static void test_cmd_truncated(void **state)
{
	struct srp_cmd_info ci;
	struct srp_cmd_err err;
	u8 bufs[4][256];
	size_t lens[4], n, i, len;
	u32 imm_off[4] = { 0, 0, 0, 68 };

	(void)state;
	memset(bufs, 0, sizeof(bufs));
	n = cmd_hdr(bufs[0], 0x00, 0, 0, 8);
	lens[0] = n;
	n = cmd_hdr(bufs[1], 0x01, 0, 0, 0);
	lens[1] = n + put_desc(bufs[1] + n, 1, 2, 3);
	n = cmd_hdr(bufs[2], 0x20, 2, 0, 4);
	n += put_idb(bufs[2] + n, 1, 2, 32, 8);
	n += put_desc(bufs[2] + n, 1, 2, 4);
	lens[2] = n + put_desc(bufs[2] + n, 1, 2, 4);
	n = cmd_hdr(bufs[3], 0x30, 0, 0, 0);
	put_imm(bufs[3] + n, 100);
	lens[3] = 68 + 100;

	for (i = 0; i < 4; i++) {
		for (len = 0; len < lens[i]; len++) {
			char what[48];

			snprintf(what, sizeof(what), "IU %zu cut to %zu", i,
				 len);
			CHECK_EQ(what, srp_parse_cmd(bufs[i], len, imm_off[i],
						     &ci, &err), -EINVAL);
			CHECK_EQ(what, err.sense_code,
				 len < 16 ? 0 : SRP_IU_SENSE_INVALID_IU);
			if (len < 48)
				CHECK_EQ(what, err.reason, SRP_CMD_ERR_SHORT);
			CHECK_EQ(what, ci.tag, len < 16 ? 0 : CMD_TAG);
		}
		assert_int_equal(srp_parse_cmd(bufs[i], lens[i], imm_off[i],
					       &ci, &err), 0);
	}
	assert_int_equal(srp_parse_cmd(NULL, 48, 0, &ci, &err), -EINVAL);
	assert_int_equal(err.reason, SRP_CMD_ERR_SHORT);
}

/*
 * Random IUs: whatever srp_parse_cmd() accepts lies within the IU. Under
 * ASan, any read past the buffer (sized exactly) is caught as well.
 */
static void test_cmd_random(void **state)
{
	unsigned int accepted[4] = { 0 };
	u32 seed = 0x5eed1234;
	unsigned int iter;

	(void)state;
	for (iter = 0; iter < 200000; iter++) {
		struct srp_cmd_info ci;
		struct srp_cmd_err err;
		size_t len = 16 + unit_rand(&seed) % 160, i;
		u32 imm_off = (unit_rand(&seed) & 1) ? 68 : 0;
		u8 *buf = malloc(len);
		u32 r;

		assert_non_null(buf);
		for (i = 0; i < len; i++)
			buf[i] = unit_rand(&seed);
		/* Bias towards plausible headers. */
		buf[0] = SRP_IU_CMD;
		r = unit_rand(&seed);
		buf[5] = (r & 0x33);
		buf[6] = (r >> 8) & 3;
		buf[7] = (r >> 16) & 3;
		if (len > 31)
			buf[31] = (r >> 24) & 0x1c;
		if (len > 64 && (r & 0x4000)) {
			/* a small, whole indirect table length */
			buf[60] = buf[61] = buf[62] = 0;
			buf[63] &= 0x30;
		}
		if (!srp_parse_cmd(buf, len, imm_off, &ci, &err)) {
			accepted[ci.fmt]++;
			assert_true(ci.cdb + ci.cdb_len <= buf + len);
			assert_true(ci.desc_off + (size_t)ci.ndesc * 16 <= len);
			if (ci.imm) {
				assert_true((size_t)ci.imm_offset +
					    ci.imm_len <= len);
				assert_int_equal(ci.imm_offset, imm_off);
			}
			assert_false(ci.data_out_fmt && ci.data_in_fmt);
			for (i = 0; i < ci.ndesc; i++) {
				u64 va;
				u32 key, dlen;

				assert_int_equal(srp_cmd_desc(buf, &ci, i, &va,
							      &key, &dlen), 0);
			}
		} else {
			assert_int_not_equal(err.reason, SRP_CMD_ERR_NONE);
		}
		free(buf);
	}
	/* Each format got through now and then. */
	for (iter = 0; iter < 4; iter++)
		assert_true(accepted[iter] > 10);
}

/*
 * srp_cmd_check_desc(): the descriptor count of the whole command (the
 * whole indirect table, carried or not) against the target's limit; the
 * field it blames is the DESCRIPTOR TABLE LENGTH of the indirect
 * descriptor (byte 12 of it, SRP r16a 5.5.3).
 */
static void test_cmd_check_desc(void **state)
{
	struct srp_cmd_info ci;
	struct srp_cmd_err err;
	u8 buf[256];
	size_t off, n;

	(void)state;
	/* No data, immediate data: no descriptor at all. */
	off = cmd_hdr(buf, 0x00, 0, 0, 0);
	assert_int_equal(srp_parse_cmd(buf, off, 0, &ci, &err), 0);
	assert_int_equal(srp_cmd_ndesc(&ci), 0);
	assert_int_equal(srp_cmd_check_desc(&ci, 0, &err), 0);

	/* Direct: one. */
	off = cmd_hdr(buf, 0x01, 0, 1, 0);
	n = off + put_desc(buf + off, 0x1000, 7, 512);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	assert_int_equal(srp_cmd_ndesc(&ci), 1);
	assert_int_equal(srp_cmd_check_desc(&ci, 1, &err), 0);
	assert_int_equal(srp_cmd_check_desc(&ci, 0, &err), -EINVAL);
	assert_int_equal(err.reason, SRP_CMD_ERR_TOO_MANY_DESC);

	/* Indirect, whole table of 3 in the IU. */
	off = cmd_hdr(buf, 0x02, 0, 3, 0);
	n = off + put_idb(buf + off, 0xfeed0000ULL, 0x77, 48, 3 * 512);
	n += put_desc(buf + n, 0x1000, 1, 512);
	n += put_desc(buf + n, 0x2000, 1, 512);
	n += put_desc(buf + n, 0x3000, 1, 512);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	assert_int_equal(srp_cmd_ndesc(&ci), 3);
	assert_int_equal(srp_cmd_check_desc(&ci, 3, &err), 0);
	assert_int_equal(err.reason, SRP_CMD_ERR_NONE);
	assert_int_equal(srp_cmd_check_desc(&ci, 2, &err), -EINVAL);
	assert_int_equal(err.reason, SRP_CMD_ERR_TOO_MANY_DESC);
	assert_int_equal(err.sense_code, SRP_IU_SENSE_INVALID_IU);
	assert_int_equal(err.offset, 48 + 12);
	assert_int_equal(srp_cmd_check_desc(&ci, 2, NULL), -EINVAL);

	/*
	 * External table of 3000 one-byte descriptors, one carried: the
	 * table counts, not what the IU carries. With a 16-byte additional
	 * CDB the indirect descriptor starts at byte 64.
	 */
	off = cmd_hdr(buf, 0x20, 1, 0, 16);
	n = off + put_idb(buf + off, 0xbeef0000ULL, 0x99, 3000 * 16, 3000);
	n += put_desc(buf + n, 0x1000, 1, 1);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	assert_true(ci.table_external);
	assert_int_equal(ci.ndesc, 1);
	assert_int_equal(srp_cmd_ndesc(&ci), 3000);
	assert_int_equal(srp_cmd_check_desc(&ci, 2048, &err), -EINVAL);
	assert_int_equal(err.reason, SRP_CMD_ERR_TOO_MANY_DESC);
	assert_int_equal(err.offset, 64 + 12);
	assert_int_equal(srp_cmd_check_desc(&ci, 3000, &err), 0);
	assert_int_equal(srp_cmd_check_desc(&ci, 0xffffffff, &err), 0);

	/* The largest table the format can name: 2^32 - 16 bytes. */
	off = cmd_hdr(buf, 0x02, 0, 0, 0);
	n = off + put_idb(buf + off, 0, 1, 0xfffffff0, 0);
	assert_int_equal(srp_parse_cmd(buf, n, 0, &ci, &err), 0);
	assert_int_equal(srp_cmd_ndesc(&ci), 0x0fffffff);
	assert_int_equal(srp_cmd_check_desc(&ci, 2048, &err), -EINVAL);
}

static void test_cmd_err_str(void **state)
{
	unsigned int i, j;

	(void)state;
	for (i = 0; i <= SRP_CMD_ERR_TOO_MANY_DESC; i++) {
		assert_non_null(srp_cmd_err_str(i));
		assert_string_not_equal(srp_cmd_err_str(i), "unknown error");
		for (j = 0; j < i; j++)
			assert_string_not_equal(srp_cmd_err_str(i),
						srp_cmd_err_str(j));
	}
	assert_string_equal(srp_cmd_err_str(SRP_CMD_ERR_TOO_MANY_DESC + 1),
			    "unknown error");
	assert_string_equal(srp_cmd_err_str(255), "unknown error");
}

/* ---------------------------------------------------------------------- */
/* SRP_TSK_MGMT                                                            */
/* ---------------------------------------------------------------------- */

static void test_tsk_mgmt(void **state)
{
	static const u8 abort_task[48] = {
		0x01, 0x02, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0x01, 0x00,			/* tag */
		0, 0, 0, 0,
		0x40, 0x05, 0, 0, 0, 0, 0, 0,			/* LUN */
		0, 0,
		0x01,						/* ABORT TASK */
		0,
		0x0b, 0xad, 0xc0, 0xff, 0xee, 0x0d, 0xdf, 0x00,	/* task tag */
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const u8 funcs[] = { 0x01, 0x02, 0x04, 0x08, 0x40 };
	struct srp_tsk_mgmt_info tm;
	struct k_tsk_mgmt *k;
	u8 buf[64];
	size_t i;

	(void)state;
	assert_int_equal(srp_parse_tsk_mgmt(abort_task, 48, &tm), 0);
	assert_true(tm.tag == 0x100);
	assert_memory_equal(tm.lun, test_lun, 8);
	assert_int_equal(tm.sol_not, SRP_IU_SCSOLNT);
	assert_int_equal(tm.tsk_mgmt_func, SRP_IU_TMF_ABORT_TASK);
	assert_true(tm.task_tag == CMD_TAG);

	k = (struct k_tsk_mgmt *)buf;
	for (i = 0; i < 256; i++) {
		char what[32];
		bool known = memchr(funcs, (int)i, sizeof(funcs)) != NULL;

		snprintf(what, sizeof(what), "function %#zx", i);
		memset(buf, 0, sizeof(buf));
		k->opcode = SRP_IU_TSK_MGMT;
		k->tag = htobe64(77);
		memcpy(k->lun, test_lun, 8);
		k->tsk_mgmt_func = (u8)i;
		k->task_tag = htobe64(i + 1000);
		CHECK_EQ(what, srp_parse_tsk_mgmt(buf, 48, &tm),
			 known ? 0 : -EOPNOTSUPP);
		/* Filled in either way, for the response. */
		CHECK_EQ(what, tm.tag, 77);
		CHECK_EQ(what, tm.tsk_mgmt_func, i);
		CHECK_EQ(what, tm.task_tag, i + 1000);
	}

	memset(buf, 0, sizeof(buf));
	memcpy(buf, abort_task, 48);
	assert_int_equal(srp_parse_tsk_mgmt(buf, 47, &tm), -EINVAL);
	assert_true(tm.tag == 0x100);
	assert_int_equal(srp_parse_tsk_mgmt(buf, 15, &tm), -EINVAL);
	assert_true(tm.tag == 0);
	assert_int_equal(srp_parse_tsk_mgmt(NULL, 48, &tm), -EINVAL);
	buf[0] = SRP_IU_CMD;
	assert_int_equal(srp_parse_tsk_mgmt(buf, 48, &tm), -EINVAL);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_iu_opcode),
		cmocka_unit_test(test_iu_min_len),
		cmocka_unit_test(test_iu_get_tag),
		cmocka_unit_test(test_login_req_ib),
		cmocka_unit_test(test_login_req_rdma),
		cmocka_unit_test(test_login_req_bytes),
		cmocka_unit_test(test_build_login_rsp),
		cmocka_unit_test(test_build_login_rej),
		cmocka_unit_test(test_build_t_logout),
		cmocka_unit_test(test_build_cred_req),
		cmocka_unit_test(test_build_aer_req),
		cmocka_unit_test(test_build_rsp_bytes),
		cmocka_unit_test(test_build_rsp_table),
		cmocka_unit_test(test_rsp_solnt),
		cmocka_unit_test(test_cmd_no_data),
		cmocka_unit_test(test_cmd_direct),
		cmocka_unit_test(test_cmd_indirect),
		cmocka_unit_test(test_cmd_imm),
		cmocka_unit_test(test_cmd_bad),
		cmocka_unit_test(test_cmd_truncated),
		cmocka_unit_test(test_cmd_random),
		cmocka_unit_test(test_cmd_check_desc),
		cmocka_unit_test(test_cmd_err_str),
		cmocka_unit_test(test_tsk_mgmt),
	};

	return cmocka_run_group_tests_name("srp_iu", tests, NULL, NULL);
}
