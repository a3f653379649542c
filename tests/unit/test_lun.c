// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_lun.c: SAM-5 §4.7 single level LUN
 * structures. Expected bytes are written out by hand from the standard.
 */
#include "unit.h"
#include <scst_spc.h>

static void test_encode_table(void **state)
{
	static const struct {
		u64 lun;
		u8 want[8];
	} cases[] = {
		/* SAM-5 §4.7.7: peripheral device addressing, bus 0 */
		{ 0, { 0x00, 0x00 } },
		{ 1, { 0x00, 0x01 } },
		{ 255, { 0x00, 0xff } },
		/* SAM-5 §4.7.8: flat space addressing */
		{ 256, { 0x41, 0x00 } },
		{ 0x1234, { 0x52, 0x34 } },
		{ 16383, { 0x7f, 0xff } },
		/* above the flat space: high bits dropped */
		{ 16384, { 0x40, 0x00 } },
	};
	size_t i;
	u8 out[8];

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(out, 0xa5, sizeof(out));
		scst_lun_encode(cases[i].lun, out);
		assert_bytes(out, cases[i].want, sizeof(out));
	}
}

static void test_roundtrip(void **state)
{
	u64 lun, got;
	u8 out[8];

	(void)state;
	for (lun = 0; lun <= SCST_LUN_FLAT_MAX; lun++) {
		scst_lun_encode(lun, out);
		got = ~0ULL;
		assert_int_equal(scst_lun_decode(out, 8, &got), 0);
		assert_int_equal(got, lun);
	}
}

static void test_decode_good(void **state)
{
	static const u8 periph[8] = { 0x00, 0x07 };
	static const u8 flat[8] = { 0x40, 0x07 };
	static const u8 flat_max[8] = { 0x7f, 0xff };
	u64 got;

	(void)state;
	assert_int_equal(scst_lun_decode(periph, 8, &got), 0);
	assert_int_equal(got, 7);
	/* Flat space 7 is LUN 7 too, although we encode it otherwise. */
	assert_int_equal(scst_lun_decode(flat, 8, &got), 0);
	assert_int_equal(got, 7);
	assert_int_equal(scst_lun_decode(flat_max, 8, &got), 0);
	assert_int_equal(got, 16383);
	/* Shorter LUN fields: the missing bytes are zero. */
	assert_int_equal(scst_lun_decode(flat_max, 2, &got), 0);
	assert_int_equal(got, 16383);
	assert_int_equal(scst_lun_decode(periph, 4, &got), 0);
	assert_int_equal(got, 7);
}

static void test_decode_bad(void **state)
{
	static const u8 bad[][8] = {
		/* peripheral device addressing with a non-zero bus */
		{ 0x01, 0x00 },
		{ 0x3f, 0x05 },
		/* logical unit addressing method, 10b */
		{ 0x80, 0x01 },
		/* extended: the REPORT LUNS well known LUN C101h */
		{ 0xc1, 0x01 },
		/* second, third, fourth level */
		{ 0x00, 0x01, 0x00, 0x01 },
		{ 0x40, 0x01, 0x40, 0x00 },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01 },
		{ 0x00, 0x00, 0x00, 0x00, 0x01 },
	};
	static const u8 zero[9];
	size_t i;
	u64 got = 12345;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (scst_lun_decode(bad[i], 8, &got) != -EINVAL)
			fail_msg("case %zu accepted", i);
		assert_int_equal(got, 12345);
	}
	/* Lengths outside 2..8 */
	assert_int_equal(scst_lun_decode(zero, 0, &got), -EINVAL);
	assert_int_equal(scst_lun_decode(zero, 1, &got), -EINVAL);
	assert_int_equal(scst_lun_decode(zero, 9, &got), -EINVAL);
	assert_int_equal(got, 12345);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_encode_table),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_decode_good),
		cmocka_unit_test(test_decode_bad),
	};

	return cmocka_run_group_tests_name("lun", tests, NULL, NULL);
}
