// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_tgt_attr.c: the values of the target,
 * group and device attributes comment, io_grouping_type, tst and the 0/1
 * flags, good and bad.
 */
#include "unit.h"

#define W(s) (s), (sizeof(s) - 1)

static void test_comment(void **state)
{
	char big[SCST_COMMENT_MAX_LEN + 2];
	size_t len = 99;

	(void)state;
	assert_int_equal(scst_comment_parse(W("rack 4, row 2\n"), &len), 0);
	assert_int_equal(len, 13);
	assert_int_equal(scst_comment_parse(W("tab\there"), &len), 0);
	assert_int_equal(len, 8);
	assert_int_equal(scst_comment_parse(W("\n"), &len), 0);
	assert_int_equal(len, 0);
	assert_int_equal(scst_comment_parse(W(""), &len), 0);
	assert_int_equal(len, 0);

	memset(big, 'x', sizeof(big));
	assert_int_equal(scst_comment_parse(big, SCST_COMMENT_MAX_LEN, &len),
			 0);
	assert_int_equal(len, SCST_COMMENT_MAX_LEN);
	big[SCST_COMMENT_MAX_LEN] = '\n';
	assert_int_equal(scst_comment_parse(big, SCST_COMMENT_MAX_LEN + 1,
					    &len), 0);
	/* refused: too long, a newline inside, a NUL, escape */
	len = 7;
	assert_int_equal(scst_comment_parse(big, SCST_COMMENT_MAX_LEN + 2,
					    &len), -EINVAL);
	big[SCST_COMMENT_MAX_LEN] = 'x';
	assert_int_equal(scst_comment_parse(big, SCST_COMMENT_MAX_LEN + 1,
					    &len), -EINVAL);
	assert_int_equal(scst_comment_parse(W("two\nlines\n"), &len), -EINVAL);
	assert_int_equal(scst_comment_parse("a\0b", 3, &len), -EINVAL);
	assert_int_equal(scst_comment_parse(W("\033[2J"), &len), -EINVAL);
	assert_int_equal(scst_comment_parse(W("del\x7f"), &len), -EINVAL);
	assert_int_equal(len, 7);	/* unchanged on refusal */
}

static void test_io_grouping_parse(void **state)
{
	static const struct {
		const char *in;
		int ret, type;
	} cases[] = {
		{ "auto", 0, SCST_IO_GROUPING_AUTO },
		{ "auto\n", 0, SCST_IO_GROUPING_AUTO },
		{ "AUTO", 0, SCST_IO_GROUPING_AUTO },
		{ "this_group_only\n", 0, SCST_IO_GROUPING_THIS_GROUP_ONLY },
		{ "never", 0, SCST_IO_GROUPING_NEVER },
		{ "Never\n", 0, SCST_IO_GROUPING_NEVER },
		{ "1", 0, 1 },
		{ "42\n", 0, 42 },
		{ "0x10", 0, 16 },
		{ "010", 0, 8 },
		{ "2147483647", 0, 0x7fffffff },
		{ "0", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
		{ "2147483648", -EINVAL, 0 },
		{ "99999999999999999999999", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
		{ "autox", -EINVAL, 0 },
		{ "aut", -EINVAL, 0 },
		{ "this_group", -EINVAL, 0 },
		{ "12a", -EINVAL, 0 },
		{ "08", -EINVAL, 0 },
		{ "0x", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },
		{ "1\n\n", -EINVAL, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int type = 12345;
		int ret = scst_io_grouping_parse(cases[i].in,
						 strlen(cases[i].in), &type);

		assert_int_equal(ret, cases[i].ret);
		assert_int_equal(type, ret ? 12345 : cases[i].type);
	}
}

static void test_io_grouping_format(void **state)
{
	char b[32];

	(void)state;
	scst_io_grouping_format(b, sizeof(b), SCST_IO_GROUPING_AUTO);
	assert_string_equal(b, "auto\n");
	scst_io_grouping_format(b, sizeof(b),
				SCST_IO_GROUPING_THIS_GROUP_ONLY);
	assert_string_equal(b, "this_group_only\n");
	scst_io_grouping_format(b, sizeof(b), SCST_IO_GROUPING_NEVER);
	assert_string_equal(b, "never\n");
	scst_io_grouping_format(b, sizeof(b), 7);
	assert_string_equal(b, "7\n");
}

static void test_io_grouping_key(void **state)
{
	char a[64], b[64], tiny[4];

	(void)state;
	/* auto: the initiator, whatever group or session */
	assert_int_equal(scst_io_grouping_key(a, sizeof(a), 0, "ini", "t1",
					      "g1", "ini_1"), 0);
	assert_string_equal(a, "ini");
	/* this_group_only: two initiators of a group share, two groups not */
	scst_io_grouping_key(a, sizeof(a), SCST_IO_GROUPING_THIS_GROUP_ONLY,
			     "ini1", "t1", "g1", "ini1");
	scst_io_grouping_key(b, sizeof(b), SCST_IO_GROUPING_THIS_GROUP_ONLY,
			     "ini2", "t1", "g1", "ini2");
	assert_string_equal(a, b);
	scst_io_grouping_key(b, sizeof(b), SCST_IO_GROUPING_THIS_GROUP_ONLY,
			     "ini1", "t1", "g2", "ini1");
	assert_string_not_equal(a, b);
	/* never: two channels of one initiator do not share */
	scst_io_grouping_key(a, sizeof(a), SCST_IO_GROUPING_NEVER, "ini",
			     "t1", "g1", "ini");
	scst_io_grouping_key(b, sizeof(b), SCST_IO_GROUPING_NEVER, "ini",
			     "t1", "g1", "ini_1");
	assert_string_not_equal(a, b);
	/* a number: groups of two targets share */
	scst_io_grouping_key(a, sizeof(a), 5, "i1", "t1", "g1", "i1");
	scst_io_grouping_key(b, sizeof(b), 5, "i2", "t2", "g9", "i2");
	assert_string_equal(a, b);
	/* no grouped key is an initiator name */
	assert_true(a[0] == '\001');
	assert_int_equal(scst_io_grouping_key(tiny, sizeof(tiny), 5, "i",
					      "t", "g", "s"), -ENAMETOOLONG);
	assert_int_equal(scst_io_grouping_key(tiny, sizeof(tiny), 0, "long",
					      "t", "g", "s"), -ENAMETOOLONG);
}

static void test_tst_and_flags(void **state)
{
	u8 tst = 9;
	bool v = true;

	(void)state;
	assert_int_equal(scst_tst_parse(W("0\n"), &tst), 0);
	assert_int_equal(tst, 0);
	assert_int_equal(scst_tst_parse(W("1"), &tst), 0);
	assert_int_equal(tst, 1);
	tst = 9;
	assert_int_equal(scst_tst_parse(W("2"), &tst), -EINVAL);
	assert_int_equal(scst_tst_parse(W("01"), &tst), -EINVAL);
	assert_int_equal(scst_tst_parse(W(""), &tst), -EINVAL);
	assert_int_equal(scst_tst_parse(W("yes"), &tst), -EINVAL);
	assert_int_equal(scst_tst_parse(W("1 "), &tst), -EINVAL);
	assert_int_equal(tst, 9);

	assert_int_equal(scst_bool01_parse(W("0\n"), &v), 0);
	assert_false(v);
	assert_int_equal(scst_bool01_parse(W("1"), &v), 0);
	assert_true(v);
	assert_int_equal(scst_bool01_parse(W("true"), &v), -EINVAL);
	assert_int_equal(scst_bool01_parse(W("-1"), &v), -EINVAL);
	assert_true(v);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_comment),
		cmocka_unit_test(test_io_grouping_parse),
		cmocka_unit_test(test_io_grouping_format),
		cmocka_unit_test(test_io_grouping_key),
		cmocka_unit_test(test_tst_and_flags),
	};

	return cmocka_run_group_tests_name("tgt_attr", tests, NULL, NULL);
}
