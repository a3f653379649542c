// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_alua.c: ALUA state names, REPORT TARGET
 * PORT GROUPS data (SPC-4 6.36), SET TARGET PORT GROUPS parameter lists
 * (SPC-4 6.44) and the per-state command admission (SPC-4 5.16.2.4).
 */
#include "unit.h"
#include <scst_alua.h>

static void test_state_names(void **state)
{
	static const struct {
		const char *name;
		int st;
	} t[] = {
		{ "active", SCST_ALUA_ACTIVE },
		{ "nonoptimized", SCST_ALUA_NONOPTIMIZED },
		{ "standby", SCST_ALUA_STANDBY },
		{ "unavailable", SCST_ALUA_UNAVAILABLE },
		{ "offline", SCST_ALUA_OFFLINE },
		{ "transitioning", SCST_ALUA_TRANSITIONING },
	};
	static const char *const bad[] = {
		"", "Active", "optimized", "active ", "lba_dependent",
		"standbyx", "stand", "transition",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		assert_int_equal(scst_alua_state_from_name(t[i].name), t[i].st);
		assert_string_equal(scst_alua_state_name(t[i].st), t[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(scst_alua_state_from_name(bad[i]), -EINVAL);
	assert_null(scst_alua_state_name(SCST_ALUA_LBA_DEPENDENT));
	assert_null(scst_alua_state_name(0x5));
	assert_null(scst_alua_state_name(0xd));
	assert_null(scst_alua_state_name(0xff));
}

static void test_rtpg_cdb(void **state)
{
	u8 cdb[12] = { 0xa3, 0x0a, 0, 0, 0, 0, 0x00, 0x00, 0x10, 0x00, 0, 0 };
	struct scst_cdb_err err;
	u32 alloc;
	u8 fmt;

	(void)state;
	assert_int_equal(scst_rtpg_check_cdb(cdb, 12, &fmt, &alloc, &err), 0);
	assert_int_equal(fmt, SCST_RTPG_FMT_LENGTH);
	assert_int_equal(alloc, 0x1000);
	cdb[1] = 0x2a;	/* extended header */
	assert_int_equal(scst_rtpg_check_cdb(cdb, 12, &fmt, &alloc, &err), 0);
	assert_int_equal(fmt, SCST_RTPG_FMT_EXTENDED);
	cdb[1] = 0x4a;	/* format 010b: reserved */
	assert_int_equal(scst_rtpg_check_cdb(cdb, 12, &fmt, &alloc, &err),
			 -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_FIELD_IN_CDB);
	assert_true(err.has_field && err.in_cdb);
	assert_int_equal(err.byte, 1);
	assert_int_equal(err.bit, 7);
	cdb[1] = 0x0a;
	assert_int_equal(scst_rtpg_check_cdb(cdb, 11, &fmt, &alloc, &err),
			 -EINVAL);
}

/* Two groups as the VM test configures them: 1 active, 2 standby. */
static const u16 ports1[] = { 1 }, ports2[] = { 2, 0x1234 };
static const struct scst_alua_tpg two_groups[] = {
	{ .group_id = 1, .state = SCST_ALUA_ACTIVE, .preferred = true,
	  .status = SCST_ALUA_STATUS_NONE, .rel_tgt_ids = ports1, .nports = 1 },
	{ .group_id = 2, .state = SCST_ALUA_STANDBY, .preferred = false,
	  .status = SCST_ALUA_STATUS_BY_STPG, .rel_tgt_ids = ports2,
	  .nports = 2 },
};

static void test_rtpg_data(void **state)
{
	static const u8 exp[] = {
		0x00, 0x00, 0x00, 0x1c,		/* RETURN DATA LENGTH 28 */
		0x80, 0xcf, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x01,
		0x02, 0xcf, 0x00, 0x02, 0x00, 0x01, 0x00, 0x02,
		0x00, 0x00, 0x00, 0x02,
		0x00, 0x00, 0x12, 0x34,
	};
	static const u8 exp_ext_hdr[] = {
		0x00, 0x00, 0x00, 0x20, 0x10, 0x00, 0x00, 0x00,
	};
	u8 buf[64];
	size_t cut;

	(void)state;
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_rtpg(two_groups, 2, SCST_RTPG_FMT_LENGTH,
					 buf, sizeof(buf)), sizeof(exp));
	assert_bytes(buf, exp, sizeof(exp));
	assert_filled(buf, sizeof(exp), sizeof(buf));

	/* extended header: 4 more bytes, counted in RETURN DATA LENGTH */
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_rtpg(two_groups, 2, SCST_RTPG_FMT_EXTENDED,
					 buf, sizeof(buf)), sizeof(exp) + 4);
	assert_bytes(buf, exp_ext_hdr, sizeof(exp_ext_hdr));
	assert_bytes(buf + 8, exp + 4, sizeof(exp) - 4);
	assert_filled(buf, sizeof(exp) + 4, sizeof(buf));

	/* the allocation length cuts the data, never the length field */
	for (cut = 0; cut <= sizeof(exp); cut++) {
		fill(buf, sizeof(buf));
		assert_int_equal(scst_build_rtpg(two_groups, 2,
						 SCST_RTPG_FMT_LENGTH, buf,
						 cut), sizeof(exp));
		assert_bytes(buf, exp, cut);
		assert_filled(buf, cut, sizeof(buf));
	}

	/* no groups: the header alone */
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_rtpg(NULL, 0, SCST_RTPG_FMT_LENGTH, buf,
					 sizeof(buf)), 4);
	assert_bytes(buf, (const u8 []){ 0, 0, 0, 0 }, 4);
	assert_filled(buf, 4, sizeof(buf));
}

static void test_rtpg_limits(void **state)
{
	static u16 ids[SCST_ALUA_MAX_TG_PORTS + 10];
	static struct scst_alua_tpg g[SCST_ALUA_MAX_TGS + 3];
	static u8 buf[SCST_RTPG_MAX_LEN + 64];
	unsigned int i;
	int len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		ids[i] = (u16)(i + 1);
	for (i = 0; i < ARRAY_SIZE(g); i++) {
		g[i].group_id = (u16)(i + 1);
		g[i].rel_tgt_ids = ids;
		g[i].nports = ARRAY_SIZE(ids);	/* more than a count holds */
	}
	fill(buf, sizeof(buf));
	len = scst_build_rtpg(g, ARRAY_SIZE(g), SCST_RTPG_FMT_EXTENDED, buf,
			      sizeof(buf));
	assert_int_equal(len, SCST_RTPG_MAX_LEN);
	assert_int_equal(get_unaligned_be32(buf), SCST_RTPG_MAX_LEN - 4);
	assert_int_equal(buf[8 + 7], SCST_ALUA_MAX_TG_PORTS);
	assert_filled(buf, SCST_RTPG_MAX_LEN, sizeof(buf));
}

static void test_stpg_cdb(void **state)
{
	u8 cdb[12] = { 0xa4, 0x0a, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0 };
	struct scst_cdb_err err;
	u32 len;

	(void)state;
	assert_int_equal(scst_stpg_check_cdb(cdb, 12, &len, &err), 0);
	assert_int_equal(len, 8);
	put_unaligned_be32(SCST_STPG_MAX_LEN, cdb + 6);
	assert_int_equal(scst_stpg_check_cdb(cdb, 12, &len, &err), 0);
	put_unaligned_be32(SCST_STPG_MAX_LEN + 1, cdb + 6);
	assert_int_equal(scst_stpg_check_cdb(cdb, 12, &len, &err), -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_FIELD_IN_CDB);
	assert_true(err.in_cdb);
	assert_int_equal(err.byte, 6);
	put_unaligned_be32(0xffffffff, cdb + 6);
	assert_int_equal(scst_stpg_check_cdb(cdb, 12, &len, &err), -EINVAL);
	assert_int_equal(scst_stpg_check_cdb(cdb, 10, &len, &err), -EINVAL);
}

static void test_stpg_parse(void **state)
{
	static const u8 list[] = {
		0, 0, 0, 0,
		0x02, 0x00, 0x00, 0x01,
		0xf0, 0xff, 0x00, 0x02,	/* upper bits and reserved ignored */
	};
	struct scst_stpg_desc d[4];
	struct scst_cdb_err err;
	unsigned int n = 99;
	size_t len;

	(void)state;
	assert_int_equal(scst_stpg_parse(list, 0, d, 4, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_int_equal(scst_stpg_parse(list, 4, d, 4, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_int_equal(scst_stpg_parse(list, sizeof(list), d, 4, &n, &err),
			 0);
	assert_int_equal(n, 2);
	assert_int_equal(d[0].state, SCST_ALUA_STANDBY);
	assert_int_equal(d[0].group_id, 1);
	assert_int_equal(d[1].state, SCST_ALUA_ACTIVE);
	assert_int_equal(d[1].group_id, 2);
	/* a descriptor cut short, or a header cut short */
	for (len = 1; len < sizeof(list); len++) {
		if (len % 4 == 0)
			continue;
		n = 99;
		assert_int_equal(scst_stpg_parse(list, len, d, 4, &n, &err),
				 -EINVAL);
		assert_int_equal(err.sense_code,
				 SCST_SENSE_PARAM_LIST_LEN_ERROR);
		assert_false(err.has_field);
		assert_int_equal(n, 0);
	}
	/* more descriptors than the caller has room for */
	assert_int_equal(scst_stpg_parse(list, sizeof(list), d, 1, &n, &err),
			 -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_FIELD_IN_CDB);
}

static void test_stpg_validate(void **state)
{
	struct scst_alua_tpg g[2];
	struct scst_cdb_err err;
	struct scst_stpg_desc d[2];
	static const u8 good[] = { SCST_ALUA_ACTIVE, SCST_ALUA_NONOPTIMIZED,
				   SCST_ALUA_STANDBY, SCST_ALUA_UNAVAILABLE };
	static const u8 bad[] = { SCST_ALUA_LBA_DEPENDENT, 0x5, 0x9, 0xd,
				  SCST_ALUA_OFFLINE, SCST_ALUA_TRANSITIONING };
	size_t i;

	(void)state;
	memcpy(g, two_groups, sizeof(g));
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		d[0] = (struct scst_stpg_desc){ good[i], 2 };
		assert_int_equal(scst_stpg_validate(d, 1, g, 2, &err), 0);
	}
	/* the state of the second descriptor: byte 8 bit 3 */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		d[0] = (struct scst_stpg_desc){ SCST_ALUA_ACTIVE, 1 };
		d[1] = (struct scst_stpg_desc){ bad[i], 2 };
		assert_int_equal(scst_stpg_validate(d, 2, g, 2, &err),
				 -EINVAL);
		assert_int_equal(err.sense_code,
				 SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST);
		assert_true(err.has_field);
		assert_false(err.in_cdb);
		assert_int_equal(err.byte, 8);
		assert_int_equal(err.bit, 3);
	}
	/* an unknown group, and group 0 (a group whose id is not set) */
	d[0] = (struct scst_stpg_desc){ SCST_ALUA_ACTIVE, 3 };
	assert_int_equal(scst_stpg_validate(d, 1, g, 2, &err), -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST);
	assert_int_equal(err.byte, 6);
	assert_int_equal(err.bit, -1);
	g[1].group_id = 0;
	d[0] = (struct scst_stpg_desc){ SCST_ALUA_ACTIVE, 0 };
	assert_int_equal(scst_stpg_validate(d, 1, g, 2, &err), -EINVAL);
	assert_int_equal(err.byte, 6);
	/* a group in transition refuses */
	memcpy(g, two_groups, sizeof(g));
	g[0].state = SCST_ALUA_TRANSITIONING;
	d[0] = (struct scst_stpg_desc){ SCST_ALUA_STANDBY, 1 };
	assert_int_equal(scst_stpg_validate(d, 1, g, 2, &err), -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_ALUA_TRANSITIONING);
	/* nothing to do is fine */
	assert_int_equal(scst_stpg_validate(d, 0, g, 2, &err), 0);
}

static void test_admission(void **state)
{
	static const struct {
		const char *what;
		u8 cdb[16];
		unsigned int len;
		/* admitted in: standby, unavailable, offline, transitioning */
		bool sb, un, off, tr;
	} t[] = {
		{ "INQUIRY", { 0x12 }, 6, 1, 1, 1, 1 },
		{ "REPORT LUNS", { 0xa0 }, 12, 1, 1, 1, 1 },
		{ "REQUEST SENSE", { 0x03 }, 6, 1, 1, 1, 1 },
		{ "RTPG", { 0xa3, 0x0a }, 12, 1, 1, 1, 1 },
		{ "RTPG ext", { 0xa3, 0x2a }, 12, 1, 1, 1, 1 },
		{ "RSOC", { 0xa3, 0x0c }, 12, 1, 1, 1, 1 },
		{ "STPG", { 0xa4, 0x0a }, 12, 1, 1, 1, 0 },
		{ "MAINTENANCE OUT other", { 0xa4, 0x06 }, 12, 0, 0, 0, 0 },
		{ "MAINTENANCE IN other", { 0xa3, 0x05 }, 12, 0, 0, 0, 0 },
		{ "READ BUFFER echo", { 0x3c, 0x0a }, 10, 1, 1, 1, 1 },
		{ "READ BUFFER data", { 0x3c, 0x02 }, 10, 0, 0, 0, 0 },
		{ "WRITE BUFFER echo", { 0x3b, 0x0a }, 10, 1, 1, 1, 1 },
		{ "WRITE BUFFER microcode", { 0x3b, 0x05 }, 10, 0, 0, 0, 0 },
		{ "TEST UNIT READY", { 0x00 }, 6, 0, 0, 0, 0 },
		{ "READ CAPACITY(10)", { 0x25 }, 10, 1, 1, 1, 1 },
		{ "READ CAPACITY(16)", { 0x9e, 0x10 }, 16, 1, 1, 1, 1 },
		{ "GET LBA STATUS", { 0x9e, 0x12 }, 16, 0, 0, 0, 0 },
		{ "MODE SENSE(6)", { 0x1a }, 6, 1, 0, 0, 0 },
		{ "MODE SENSE(10)", { 0x5a }, 10, 1, 0, 0, 0 },
		{ "MODE SELECT(6)", { 0x15 }, 6, 1, 0, 0, 0 },
		{ "MODE SELECT(10)", { 0x55 }, 10, 1, 0, 0, 0 },
		{ "LOG SENSE", { 0x4d }, 10, 1, 0, 0, 0 },
		{ "LOG SELECT", { 0x4c }, 10, 1, 0, 0, 0 },
		{ "RECEIVE DIAGNOSTIC", { 0x1c }, 6, 1, 0, 0, 0 },
		{ "SEND DIAGNOSTIC", { 0x1d }, 6, 1, 0, 0, 0 },
		{ "PR IN", { 0x5e }, 10, 1, 0, 0, 0 },
		{ "PR OUT", { 0x5f }, 10, 1, 0, 0, 0 },
		{ "READ(10)", { 0x28 }, 10, 0, 0, 0, 0 },
		{ "WRITE(10)", { 0x2a }, 10, 0, 0, 0, 0 },
		{ "READ(16)", { 0x88 }, 16, 0, 0, 0, 0 },
		{ "SYNCHRONIZE CACHE", { 0x35 }, 10, 0, 0, 0, 0 },
		{ "UNMAP", { 0x42 }, 10, 0, 0, 0, 0 },
		{ "RESERVE(6)", { 0x16 }, 6, 0, 0, 0, 0 },
		{ "START STOP UNIT", { 0x1b }, 6, 0, 0, 0, 0 },
		{ "opcode 0xff", { 0xff }, 6, 0, 0, 0, 0 },
		{ "MAINTENANCE IN, no byte 1", { 0xa3 }, 1, 0, 0, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		const u8 *c = t[i].cdb;
		unsigned int l = t[i].len;

		if (scst_alua_admit(SCST_ALUA_ACTIVE, c, l) ||
		    scst_alua_admit(SCST_ALUA_NONOPTIMIZED, c, l))
			fail_msg("%s refused by an active state", t[i].what);
		if (scst_alua_admit(SCST_ALUA_STANDBY, c, l) !=
		    (t[i].sb ? 0 : SCST_SENSE_ALUA_STANDBY))
			fail_msg("%s in standby", t[i].what);
		if (scst_alua_admit(SCST_ALUA_UNAVAILABLE, c, l) !=
		    (t[i].un ? 0 : SCST_SENSE_ALUA_UNAVAILABLE))
			fail_msg("%s in unavailable", t[i].what);
		if (scst_alua_admit(SCST_ALUA_OFFLINE, c, l) !=
		    (t[i].off ? 0 : SCST_SENSE_LU_OFFLINE))
			fail_msg("%s in offline", t[i].what);
		if (scst_alua_admit(SCST_ALUA_TRANSITIONING, c, l) !=
		    (t[i].tr ? 0 : SCST_SENSE_ALUA_TRANSITIONING))
			fail_msg("%s in transitioning", t[i].what);
	}
	/* the sense codes themselves, SPC-4 table 51 */
	assert_int_equal(SCST_SENSE_ALUA_STANDBY, 0x02040b);
	assert_int_equal(SCST_SENSE_ALUA_UNAVAILABLE, 0x02040c);
	assert_int_equal(SCST_SENSE_ALUA_TRANSITIONING, 0x02040a);
	assert_int_equal(SCST_SENSE_ASYM_ACCESS_STATE_CHANGED, 0x062a06);
	/* a state we never set refuses everything but nothing crashes */
	assert_int_equal(scst_alua_admit(SCST_ALUA_LBA_DEPENDENT,
					 t[27].cdb, t[27].len),
			 SCST_SENSE_ALUA_UNAVAILABLE);
	assert_int_equal(scst_alua_admit(SCST_ALUA_STANDBY, NULL, 0),
			 SCST_SENSE_ALUA_STANDBY);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_rtpg_cdb),
		cmocka_unit_test(test_rtpg_data),
		cmocka_unit_test(test_rtpg_limits),
		cmocka_unit_test(test_stpg_cdb),
		cmocka_unit_test(test_stpg_parse),
		cmocka_unit_test(test_stpg_validate),
		cmocka_unit_test(test_admission),
	};

	return cmocka_run_group_tests_name("alua", tests, NULL, NULL);
}
