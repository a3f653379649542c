// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the SRP <-> SAM-5 mappings of srpt/srp_iu.c: SRP_TSK_MGMT
 * function codes to the core's task management functions (SRP r16a
 * §6.7), the core's service responses to RSP_CODE (§6.9), and the
 * residual of a command to the SRP_RSP field and flag it goes in, every
 * code tried, the undefined ones included.
 */
#include "unit.h"
#include "srp_iu.h"

static void test_tmf_to_scst(void **state)
{
	static const struct {
		u8 func;
		enum scst_tmf fn;
	} defined[] = {
		{ SRP_IU_TMF_ABORT_TASK, SCST_ABORT_TASK },
		{ SRP_IU_TMF_ABORT_TASK_SET, SCST_ABORT_TASK_SET },
		{ SRP_IU_TMF_CLEAR_TASK_SET, SCST_CLEAR_TASK_SET },
		{ SRP_IU_TMF_LUN_RESET, SCST_LUN_RESET },
		{ SRP_IU_TMF_CLEAR_ACA, SCST_CLEAR_ACA },
	};
	unsigned int code, i, found = 0;

	(void)state;
	/* the wire values of §6.7 */
	assert_int_equal(SRP_IU_TMF_ABORT_TASK, 0x01);
	assert_int_equal(SRP_IU_TMF_ABORT_TASK_SET, 0x02);
	assert_int_equal(SRP_IU_TMF_CLEAR_TASK_SET, 0x04);
	assert_int_equal(SRP_IU_TMF_LUN_RESET, 0x08);
	assert_int_equal(SRP_IU_TMF_CLEAR_ACA, 0x40);

	for (code = 0; code <= 0xff; code++) {
		enum scst_tmf fn = (enum scst_tmf)0x5a;
		int ret = srp_tmf_to_scst((u8)code, &fn);

		for (i = 0; i < ARRAY_SIZE(defined); i++)
			if (defined[i].func == code)
				break;
		if (i == ARRAY_SIZE(defined)) {
			/* reserved, TARGET RESET (not in SRP), bits ORed */
			if (ret != -EOPNOTSUPP)
				fail_msg("code 0x%02x: %d", code, ret);
			assert_int_equal(fn, 0x5a);
			assert_int_equal(srp_tmf_to_scst((u8)code, NULL),
					 -EOPNOTSUPP);
			continue;
		}
		found++;
		assert_int_equal(ret, 0);
		assert_int_equal(fn, defined[i].fn);
		assert_int_equal(srp_tmf_to_scst((u8)code, NULL), 0);
	}
	assert_int_equal(found, ARRAY_SIZE(defined));
}

/* srp_parse_tsk_mgmt() refuses exactly the codes the mapping does not know */
static void test_parse_agrees(void **state)
{
	struct srp_tsk_mgmt_info tm;
	u8 iu[SRP_IU_TSK_MGMT_LEN];
	unsigned int code;

	(void)state;
	for (code = 0; code <= 0xff; code++) {
		memset(iu, 0, sizeof(iu));
		iu[0] = SRP_IU_TSK_MGMT;
		iu[30] = (u8)code;
		assert_int_equal(srp_parse_tsk_mgmt(iu, sizeof(iu), &tm),
				 srp_tmf_to_scst((u8)code, NULL));
		assert_int_equal(tm.tsk_mgmt_func, code);
	}
}

static void test_tmf_rsp_code(void **state)
{
	(void)state;
	assert_int_equal(srp_tmf_rsp_code(SCST_MGMT_STATUS_SUCCESS),
			 SRP_IU_RSP_CODE_COMPLETE);
	/* SAM-5 7.2: ABORT TASK of a task that is not there completes */
	assert_int_equal(srp_tmf_rsp_code(SCST_MGMT_STATUS_TASK_NOT_EXIST),
			 SRP_IU_RSP_CODE_COMPLETE);
	assert_int_equal(srp_tmf_rsp_code(SCST_MGMT_STATUS_FN_NOT_SUPPORTED),
			 SRP_IU_RSP_CODE_NOT_SUPPORTED);
	assert_int_equal(srp_tmf_rsp_code(SCST_MGMT_STATUS_REJECTED),
			 SRP_IU_RSP_CODE_NOT_SUPPORTED);
	assert_int_equal(srp_tmf_rsp_code(SCST_MGMT_STATUS_LUN_NOT_EXIST),
			 SRP_IU_RSP_CODE_FAILED);
	assert_int_equal(srp_tmf_rsp_code(SCST_MGMT_STATUS_FAILED),
			 SRP_IU_RSP_CODE_FAILED);
	/* values the core never gives fail, never complete */
	assert_int_equal(srp_tmf_rsp_code((enum scst_tmf_response)
					  (SCST_MGMT_STATUS_FAILED + 1)),
			 SRP_IU_RSP_CODE_FAILED);
	assert_int_equal(srp_tmf_rsp_code((enum scst_tmf_response)255),
			 SRP_IU_RSP_CODE_FAILED);
	assert_int_equal(srp_tmf_rsp_code((enum scst_tmf_response)-1),
			 SRP_IU_RSP_CODE_FAILED);
	/* the wire values of §6.9 */
	assert_int_equal(SRP_IU_RSP_CODE_COMPLETE, 0x00);
	assert_int_equal(SRP_IU_RSP_CODE_NOT_SUPPORTED, 0x04);
	assert_int_equal(SRP_IU_RSP_CODE_FAILED, 0x05);
}

/* A TMF's SRP_RSP: GOOD, RSPVALID and RSP_CODE in byte 3 of the data. */
static void test_tmf_rsp_iu(void **state)
{
	u8 buf[64];
	int len;

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	len = srp_build_rsp(buf, sizeof(buf), 0x1234, 1, 0, NULL, 0, 0, 0,
			    srp_tmf_rsp_code(SCST_MGMT_STATUS_REJECTED));
	assert_int_equal(len, SRP_IU_RSP_LEN + SRP_IU_RSP_DATA_LEN);
	assert_int_equal(buf[18], SRP_IU_RSP_RSPVALID);
	assert_int_equal(buf[19], 0);
	assert_int_equal(get_unaligned_be32(buf + 32), SRP_IU_RSP_DATA_LEN);
	assert_int_equal(buf[SRP_IU_RSP_LEN + 3],
			 SRP_IU_RSP_CODE_NOT_SUPPORTED);
	assert_int_equal(buf[SRP_IU_RSP_LEN], 0);
}

struct resid_case {
	u8 dir;
	bool data_in;
	s64 resid;
	u8 flags;		/* of SRP_RSP byte 18 */
	u32 do_count, di_count;
};

static const struct resid_case resid_cases[] = {
	/* the descriptors' direction wins over the CDB's */
	{ SRP_IU_DIR_READ, true, 512, SRP_IU_RSP_DIUNDER, 0, 512 },
	{ SRP_IU_DIR_READ, false, 512, SRP_IU_RSP_DIUNDER, 0, 512 },
	{ SRP_IU_DIR_READ, true, -512, SRP_IU_RSP_DIOVER, 0, 512 },
	{ SRP_IU_DIR_WRITE, false, 4096, SRP_IU_RSP_DOUNDER, 4096, 0 },
	{ SRP_IU_DIR_WRITE, true, 4096, SRP_IU_RSP_DOUNDER, 4096, 0 },
	{ SRP_IU_DIR_WRITE, false, -1, SRP_IU_RSP_DOOVER, 1, 0 },
	/* no descriptors: the CDB's direction; an overflow */
	{ SRP_IU_DIR_NONE, true, -4096, SRP_IU_RSP_DIOVER, 0, 4096 },
	{ SRP_IU_DIR_NONE, false, -4096, SRP_IU_RSP_DOOVER, 4096, 0 },
	/* none at all: no flag either way */
	{ SRP_IU_DIR_NONE, false, 0, 0, 0, 0 },
	{ SRP_IU_DIR_NONE, true, 0, 0, 0, 0 },
	{ SRP_IU_DIR_READ, true, 0, 0, 0, 0 },
	{ SRP_IU_DIR_WRITE, false, 0, 0, 0, 0 },
	/* an undefined direction is not data-in */
	{ 3, true, 8, SRP_IU_RSP_DOUNDER, 8, 0 },
	{ 0xff, true, -8, SRP_IU_RSP_DOOVER, 8, 0 },
	/* counts saturate at 2^32 - 1 */
	{ SRP_IU_DIR_READ, true, 1LL << 40, SRP_IU_RSP_DIUNDER, 0,
	  0xffffffff },
	{ SRP_IU_DIR_WRITE, false, -(1LL << 40), SRP_IU_RSP_DOOVER,
	  0xffffffff, 0 },
	{ SRP_IU_DIR_READ, true, INT64_MIN, SRP_IU_RSP_DIOVER, 0,
	  0xffffffff },
	{ SRP_IU_DIR_WRITE, false, INT64_MAX, SRP_IU_RSP_DOUNDER,
	  0xffffffff, 0 },
};

static void test_resid(void **state)
{
	u8 buf[SRP_IU_RSP_LEN + SCST_SENSE_FIXED_LEN];
	unsigned int i;
	s64 in, out;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(resid_cases); i++) {
		const struct resid_case *c = &resid_cases[i];

		in = out = 0x5a5a;
		srp_rsp_resid(c->dir, c->data_in, c->resid, &in, &out);
		/* one field at most, the other cleared */
		assert_true(!in || !out);
		assert_int_equal(in + out, c->resid);
		assert_int_equal(srp_build_rsp(buf, sizeof(buf), 1, 1, 0, NULL,
					       0, in, out,
					       SRP_IU_NO_RSP_DATA),
				 SRP_IU_RSP_LEN);
		if (buf[18] != c->flags)
			fail_msg("case %u: flags 0x%02x, expected 0x%02x", i,
				 buf[18], c->flags);
		assert_int_equal(get_unaligned_be32(buf + 20), c->do_count);
		assert_int_equal(get_unaligned_be32(buf + 24), c->di_count);
	}
}

/*
 * SAM-5 status and sense into the SRP_RSP: the status byte as is, the
 * sense behind SNSVALID, no response data for a command, and SOLNT only
 * where the initiator asked for it (§6.8).
 */
static void test_status_sense(void **state)
{
	static const u8 statuses[] = { 0x00, 0x02, 0x08, 0x18, 0x28, 0x30,
				       0x40 };
	u8 buf[SRP_IU_RSP_LEN + SCST_SENSE_FIXED_LEN], sense[18];
	unsigned int i;
	int len, slen;

	(void)state;
	slen = scst_build_sense_code(sense, sizeof(sense), false,
				     SRP_IU_SENSE_INVALID_IU);
	assert_int_equal(slen, SCST_SENSE_FIXED_LEN);
	for (i = 0; i < ARRAY_SIZE(statuses); i++) {
		bool good = statuses[i] == 0;

		len = srp_build_rsp(buf, sizeof(buf), 7, 1, statuses[i],
				    good ? NULL : sense, good ? 0 : slen, 0, 0,
				    SRP_IU_NO_RSP_DATA);
		assert_int_equal(len, SRP_IU_RSP_LEN + (good ? 0 : slen));
		assert_int_equal(buf[19], statuses[i]);
		assert_int_equal(buf[18], good ? 0 : SRP_IU_RSP_SNSVALID);
		assert_int_equal(get_unaligned_be32(buf + 28),
				 good ? 0 : slen);
		assert_int_equal(get_unaligned_be32(buf + 32), 0);
		if (!good)
			assert_memory_equal(buf + SRP_IU_RSP_LEN, sense, slen);
		assert_int_equal(srp_rsp_solnt(SRP_IU_SCSOLNT, good),
				 good ? SRP_IU_SOLNT : 0);
		assert_int_equal(srp_rsp_solnt(SRP_IU_UCSOLNT, good),
				 good ? 0 : SRP_IU_SOLNT);
		assert_int_equal(srp_rsp_solnt(0, good), 0);
	}
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_tmf_to_scst),
		cmocka_unit_test(test_parse_agrees),
		cmocka_unit_test(test_tmf_rsp_code),
		cmocka_unit_test(test_tmf_rsp_iu),
		cmocka_unit_test(test_resid),
		cmocka_unit_test(test_status_sense),
	};

	return cmocka_run_group_tests_name("srp_map", tests, NULL, NULL);
}
