// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_res.c: SPC-2 RESERVE/RELEASE (SPC-2
 * 5.5.1, 7.17, 7.21). The conflict rule is checked per class of command
 * through the flags scst_cdb_decode() gives each CDB, as the core does.
 * And scst_admit_decide(): which condition an arriving command reports.
 */
#include "unit.h"
#include <scst_res.h>

/* Two I_T nexuses: only their addresses matter. */
static const int nexus_a, nexus_b;
#define A	((const void *)&nexus_a)
#define B	((const void *)&nexus_b)

static u32 cdb_flags(const u8 *cdb, unsigned int len)
{
	struct scst_cdb_info info;
	struct scst_cdb_err err;

	if (scst_cdb_decode(cdb, len, SCST_TYPE_DISK, 9, &info, &err))
		fail_msg("opcode 0x%02x does not decode", cdb[0]);
	return info.flags;
}

static void test_reserve_release(void **state)
{
	struct scst_spc2_res res = { };

	(void)state;
	/* RELEASE of an unreserved logical unit changes nothing */
	scst_spc2_release(&res, A);
	assert_null(res.holder);
	assert_int_equal(scst_spc2_reserve(&res, A), 0);
	assert_ptr_equal(res.holder, A);
	/* the holder may reserve again */
	assert_int_equal(scst_spc2_reserve(&res, A), 0);
	assert_ptr_equal(res.holder, A);
	/* another nexus conflicts, and changes nothing */
	assert_int_equal(scst_spc2_reserve(&res, B), -EBUSY);
	assert_ptr_equal(res.holder, A);
	/* another nexus's RELEASE is GOOD and changes nothing */
	scst_spc2_release(&res, B);
	assert_ptr_equal(res.holder, A);
	scst_spc2_release(&res, A);
	assert_null(res.holder);
	/* now B may */
	assert_int_equal(scst_spc2_reserve(&res, B), 0);
	assert_ptr_equal(res.holder, B);
	/* a logical unit reset ends it whoever holds it */
	scst_spc2_res_clear(&res);
	assert_null(res.holder);
	assert_int_equal(scst_spc2_reserve(&res, A), 0);
}

/* Per command class: what a nexus that does not hold the LU may do. */
static void test_conflict_per_opcode(void **state)
{
	static const struct {
		const char *what;
		u8 cdb[16];
		unsigned int len;
		bool allowed;	/* from a nexus that does not hold it */
	} cases[] = {
		/* SPC-2 5.5.1: the commands that report, always allowed */
		{ "INQUIRY", { 0x12, 0, 0, 0, 36, 0 }, 6, true },
		{ "REPORT LUNS", { 0xa0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0 },
		  12, true },
		{ "REQUEST SENSE", { 0x03, 0, 0, 0, 18, 0 }, 6, true },
		/* RELEASE is allowed: it is GOOD and releases nothing */
		{ "RELEASE(6)", { 0x17, 0, 0, 0, 0, 0 }, 6, true },
		{ "RELEASE(10)", { 0x57, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 10,
		  true },
		/* RESERVE of a reserved logical unit */
		{ "RESERVE(6)", { 0x16, 0, 0, 0, 0, 0 }, 6, false },
		{ "RESERVE(10)", { 0x56, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 10,
		  false },
		/* medium access */
		{ "READ(10)", { 0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0 }, 10, false },
		{ "WRITE(10)", { 0x2a, 0, 0, 0, 0, 0, 0, 0, 1, 0 }, 10, false },
		{ "READ(6)", { 0x08, 0, 0, 0, 1, 0 }, 6, false },
		{ "WRITE(16)", { 0x8a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
				 0, 0 }, 16, false },
		{ "VERIFY(10)", { 0x2f, 0, 0, 0, 0, 0, 0, 0, 1, 0 }, 10, false },
		{ "SYNCHRONIZE CACHE(10)", { 0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		  10, false },
		{ "UNMAP", { 0x42, 0, 0, 0, 0, 0, 0, 0, 24, 0 }, 10, false },
		/* state of the logical unit */
		{ "TEST UNIT READY", { 0x00, 0, 0, 0, 0, 0 }, 6, false },
		{ "READ CAPACITY(10)", { 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 10,
		  false },
		{ "MODE SENSE(6)", { 0x1a, 0, 0x3f, 0, 255, 0 }, 6, false },
		{ "MODE SELECT(6)", { 0x15, 0x10, 0, 0, 0, 0 }, 6, false },
		{ "START STOP UNIT", { 0x1b, 0, 0, 0, 1, 0 }, 6, false },
	};
	struct scst_spc2_res res = { };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u32 flags = cdb_flags(cases[i].cdb, cases[i].len);

		/* unreserved: nobody conflicts */
		res.holder = NULL;
		if (scst_spc2_res_conflict(&res, A, flags))
			fail_msg("%s conflicts with no reservation",
				 cases[i].what);
		/* the holder never conflicts */
		res.holder = A;
		if (scst_spc2_res_conflict(&res, A, flags))
			fail_msg("%s conflicts for the holder", cases[i].what);
		/* another nexus: as the table says */
		if (scst_spc2_res_conflict(&res, B, flags) == cases[i].allowed)
			fail_msg("%s from another nexus: %s, expected %s",
				 cases[i].what,
				 cases[i].allowed ? "conflict" : "allowed",
				 cases[i].allowed ? "allowed" : "conflict");
	}
}

static void test_flag_alone(void **state)
{
	struct scst_spc2_res res = { .holder = A };

	(void)state;
	assert_false(scst_spc2_res_conflict(&res, B, SCST_CDB_RESV_ALLOWED));
	assert_true(scst_spc2_res_conflict(&res, B, 0));
	assert_true(scst_spc2_res_conflict(&res, B, ~(u32)SCST_CDB_RESV_ALLOWED));
	/* a command without a nexus (NULL) is another nexus */
	assert_true(scst_spc2_res_conflict(&res, NULL, 0));
}

static void test_check_cdb(void **state)
{
	static const u8 ok[][10] = {
		{ 0x16, 0, 0, 0, 0, 0 },
		{ 0x17, 0, 0, 0, 0, 0 },
		{ 0x56, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		{ 0x57, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		/* byte 1 bit 4 of the 6-byte CDBs is not 3RDPTY */
		{ 0x16, 0x10, 0, 0, 0, 0 },
		{ 0x17, 0x10, 0, 0, 0, 0 },
	};
	static const u8 third_party[][10] = {
		{ 0x56, 0x10, 0, 0, 0, 0, 0, 0, 0, 0 },
		{ 0x57, 0x10, 0, 0, 0, 0, 0, 0, 0, 0 },
		{ 0x57, 0xff, 0, 0, 0, 0, 0, 0, 0, 0 },
	};
	struct scst_cdb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		memset(&err, 0xa5, sizeof(err));
		assert_int_equal(scst_spc2_check_cdb(ok[i], 10, &err), 0);
	}
	for (i = 0; i < ARRAY_SIZE(third_party); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(scst_spc2_check_cdb(third_party[i], 10, &err),
				 -EINVAL);
		assert_int_equal(err.sense_code,
				 SCST_SENSE_INVALID_FIELD_IN_CDB);
		assert_true(err.has_field);
		assert_true(err.in_cdb);
		assert_int_equal(err.byte, 1);
		assert_int_equal(err.bit, 4);
	}
	/* too short to have byte 1: nothing to refuse */
	assert_int_equal(scst_spc2_check_cdb(third_party[0], 1, NULL), 0);
	assert_int_equal(scst_spc2_check_cdb(third_party[0], 0, NULL), 0);
}

/*
 * What an arriving command is told of (SAM-5 5.3.2): RESERVATION
 * CONFLICT before a pending unit attention, which stays pending; the
 * unit attention before ALUA, a CDB error and an unknown PR state.
 */
static void test_admit_decide(void **state)
{
	static const struct {
		const char *what;
		struct scst_admit_conds c;
		enum scst_admit expect;
	} cases[] = {
		{ "nothing", { }, SCST_ADMIT_GO },
		{ "unit attention", { .ua = true }, SCST_ADMIT_UA },
		/* the preempted nexus's WRITE: the UA waits (fence_scsi) */
		{ "conflict with a unit attention pending",
		  { .ua = true, .res = SCST_RES_CONFLICT },
		  SCST_ADMIT_CONFLICT },
		{ "conflict", { .res = SCST_RES_CONFLICT }, SCST_ADMIT_CONFLICT },
		{ "unit attention, the PR state unknown",
		  { .ua = true, .res = SCST_RES_NOT_READY }, SCST_ADMIT_UA },
		{ "the PR state unknown", { .res = SCST_RES_NOT_READY },
		  SCST_ADMIT_NOT_READY },
		{ "unit attention and ALUA", { .ua = true, .alua = true },
		  SCST_ADMIT_UA },
		{ "ALUA", { .alua = true }, SCST_ADMIT_ALUA },
		{ "ALUA and a conflict, a unit attention pending",
		  { .ua = true, .alua = true, .res = SCST_RES_CONFLICT },
		  SCST_ADMIT_ALUA },
		{ "ALUA and a CDB error", { .alua = true, .cdb_err = true },
		  SCST_ADMIT_ALUA },
		{ "unit attention and a CDB error",
		  { .ua = true, .cdb_err = true }, SCST_ADMIT_UA },
		{ "CDB error", { .cdb_err = true }, SCST_ADMIT_CDB_ERR },
		/* no verdict without a decoded CDB: res is not looked at */
		{ "CDB error, a stale conflict, a unit attention",
		  { .ua = true, .cdb_err = true, .res = SCST_RES_CONFLICT },
		  SCST_ADMIT_UA },
		{ "CDB error, a stale not ready",
		  { .cdb_err = true, .res = SCST_RES_NOT_READY },
		  SCST_ADMIT_CDB_ERR },
	};
	struct scst_admit_conds c;
	unsigned int i, bits, res;
	enum scst_admit got;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		got = scst_admit_decide(&cases[i].c);
		if (got != cases[i].expect)
			fail_msg("%s: %d, expected %d", cases[i].what, got,
				 cases[i].expect);
	}
	/* every combination: the rules, stated once more */
	for (bits = 0; bits < 8; bits++) {
		for (res = SCST_RES_OK; res <= SCST_RES_NOT_READY; res++) {
			bool conflict;

			c.ua = bits & 1;
			c.alua = bits & 2;
			c.cdb_err = bits & 4;
			c.res = res;
			conflict = !c.cdb_err && res == SCST_RES_CONFLICT;
			got = scst_admit_decide(&c);
			/* a conflict never takes the unit attention */
			if (conflict)
				assert_int_not_equal(got, SCST_ADMIT_UA);
			if (c.ua && !conflict)
				assert_int_equal(got, SCST_ADMIT_UA);
			/* GO only with no condition at all */
			assert_int_equal(got == SCST_ADMIT_GO,
					 !c.ua && !c.alua && !c.cdb_err &&
					 res == SCST_RES_OK);
		}
	}
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_reserve_release),
		cmocka_unit_test(test_conflict_per_opcode),
		cmocka_unit_test(test_flag_alone),
		cmocka_unit_test(test_check_cdb),
		cmocka_unit_test(test_admit_decide),
	};

	return cmocka_run_group_tests_name("res", tests, NULL, NULL);
}
