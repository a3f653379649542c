// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for usr/affinity/cpuset.c: CPU lists ("0-3,8,10-11") and the
 * kernel's hex masks (comma-separated 32-bit words, most significant
 * first), including masks over 64 CPUs, and bad input.
 */
#include "unit.h"
#include <string.h>

#include "cpuset.h"

static struct cpuset set_of(const int *cpus)
{
	struct cpuset s;

	cs_zero(&s);
	for (; *cpus >= 0; cpus++)
		cs_set(&s, (unsigned int)*cpus);
	return s;
}

static void test_list_parse(void **state)
{
	static const int want1[] = { 0, 1, 2, 3, 8, 10, 11, -1 };
	static const int want2[] = { 5, -1 };
	static const int want3[] = { 8191, -1 };
	struct cpuset s, w;
	char err[256];

	(void)state;
	w = set_of(want1);
	assert_int_equal(cs_parse_list("0-3,8,10-11", &s, err, sizeof(err)), 0);
	assert_true(cs_equal(&s, &w));
	assert_int_equal(cs_parse_list("0-3,8,10-11\n", &s, err, sizeof(err)),
			 0);
	assert_true(cs_equal(&s, &w));
	w = set_of(want2);
	assert_int_equal(cs_parse_list(" 5 ", &s, err, sizeof(err)), 0);
	assert_true(cs_equal(&s, &w));
	assert_int_equal(cs_parse_list("5-5", &s, err, sizeof(err)), 0);
	assert_true(cs_equal(&s, &w));
	w = set_of(want3);
	assert_int_equal(cs_parse_list("8191", &s, err, sizeof(err)), 0);
	assert_true(cs_equal(&s, &w));
	assert_int_equal(cs_parse_list("", &s, err, sizeof(err)), 0);
	assert_true(cs_empty(&s));
	assert_int_equal(cs_parse_list("0-8191", &s, err, sizeof(err)), 0);
	assert_int_equal(cs_count(&s), AFF_MAX_CPUS);
}

static void test_list_bad(void **state)
{
	static const char *const bad[] = {
		"3-1", "1,", ",1", "a", "1-", "-1", "8192", "0-8192",
		"99999999999999999999", "1;2", "0x1", "1,,2", "1 2", "1-2-3",
		"+1", NULL
	};
	struct cpuset s, before;
	char err[256];

	(void)state;
	for (const char *const *b = bad; *b; b++) {
		cs_zero(&s);
		cs_set(&s, 77);
		before = s;
		err[0] = '\0';
		assert_int_equal(cs_parse_list(*b, &s, err, sizeof(err)), -1);
		/* a refused list leaves the set as it was, and says why */
		assert_true(cs_equal(&s, &before));
		assert_non_null(strstr(err, "bad CPU list"));
	}
	/* the message names the bad token */
	assert_int_equal(cs_parse_list("0-3,x7,9", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'x7'"));
}

static void test_list_format(void **state)
{
	static const int cpus[] = { 0, 1, 2, 3, 8, 10, 11, -1 };
	struct cpuset s = set_of(cpus);
	char buf[64];

	(void)state;
	assert_int_equal(cs_format_list(&s, buf, sizeof(buf)), 11);
	assert_string_equal(buf, "0-3,8,10-11");
	cs_zero(&s);
	assert_int_equal(cs_format_list(&s, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	cs_set(&s, 8191);
	cs_format_list(&s, buf, sizeof(buf));
	assert_string_equal(buf, "8191");
	/* a short buffer: truncated, terminated, the full length returned */
	s = set_of(cpus);
	assert_int_equal(cs_format_list(&s, buf, 5), 11);
	assert_string_equal(buf, "0-3,");
}

static void test_list_roundtrip(void **state)
{
	u32 seed = 12345;
	static char buf[AFF_MAX_CPUS * 6];

	(void)state;
	for (int round = 0; round < 200; round++) {
		struct cpuset s, back;
		char err[256];
		unsigned int n = unit_rand(&seed) % 300;

		cs_zero(&s);
		for (unsigned int i = 0; i < n; i++)
			cs_set(&s, unit_rand(&seed) %
				   (round % 2 ? AFF_MAX_CPUS : 130));
		cs_format_list(&s, buf, sizeof(buf));
		assert_int_equal(cs_parse_list(buf, &back, err, sizeof(err)), 0);
		assert_true(cs_equal(&s, &back));
	}
}

static void test_mask_parse(void **state)
{
	static const int w1[] = { 0, 1, 2, 3, -1 };
	static const int w2[] = { 0, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
				  42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52,
				  53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
				  -1 };
	static const int w3[] = { 64, -1 };
	static const int w4[] = { 127, 0, -1 };
	struct cpuset s, w;
	char err[256];

	(void)state;
	w = set_of(w1);
	assert_int_equal(cs_parse_mask("f", &s, err, sizeof(err)), 0);
	assert_true(cs_equal(&s, &w));
	assert_int_equal(cs_parse_mask("0000000F\n", &s, err, sizeof(err)), 0);
	assert_true(cs_equal(&s, &w));
	w = set_of(w2);
	assert_int_equal(cs_parse_mask("ffffffff,00000001", &s, err,
				       sizeof(err)), 0);
	assert_true(cs_equal(&s, &w));
	/* over 64 CPUs: three and four words */
	w = set_of(w3);
	assert_int_equal(cs_parse_mask("1,00000000,00000000", &s, err,
				       sizeof(err)), 0);
	assert_true(cs_equal(&s, &w));
	w = set_of(w4);
	assert_int_equal(cs_parse_mask("80000000,00000000,00000000,00000001",
				       &s, err, sizeof(err)), 0);
	assert_true(cs_equal(&s, &w));
	assert_int_equal(cs_parse_mask("0", &s, err, sizeof(err)), 0);
	assert_true(cs_empty(&s));
}

static void test_mask_bad(void **state)
{
	static const char *const bad[] = {
		"", "g", "123456789", "1,,2", ",1", "1,", "0x1", "f f",
		"-1", "ff;ff", NULL
	};
	static char big[AFF_WORDS * 2 + 8];
	struct cpuset s, before;
	char err[256];

	(void)state;
	for (const char *const *b = bad; *b; b++) {
		cs_zero(&s);
		cs_set(&s, 3);
		before = s;
		assert_int_equal(cs_parse_mask(*b, &s, err, sizeof(err)), -1);
		assert_true(cs_equal(&s, &before));
		assert_non_null(strstr(err, "bad hex mask"));
	}
	/* "1,1,...,1": one word more than AFF_MAX_CPUS bits */
	big[0] = '1';
	for (unsigned int i = 1; i <= AFF_WORDS; i++)
		memcpy(big + 2 * i - 1, ",1", 2);
	big[2 * AFF_WORDS + 1] = '\0';
	assert_int_equal(cs_parse_mask(big, &s, err, sizeof(err)), -1);
	/* exactly AFF_MAX_CPUS bits is fine */
	big[2 * AFF_WORDS - 1] = '\0';
	assert_int_equal(cs_parse_mask(big, &s, err, sizeof(err)), 0);
	assert_int_equal(cs_count(&s), AFF_WORDS);
}

static void test_mask_format(void **state)
{
	static const int c1[] = { 0, 1, 2, 3, -1 };
	static const int c2[] = { 0, 1, -1 };
	static const int c3[] = { 0, 32, -1 };
	static const int c4[] = { 99, -1 };
	struct cpuset s;
	char buf[128];

	(void)state;
	s = set_of(c1);
	cs_format_mask(&s, 4, buf, sizeof(buf));
	assert_string_equal(buf, "f");
	/* bits at or above nbits are not shown */
	cs_format_mask(&s, 2, buf, sizeof(buf));
	assert_string_equal(buf, "3");
	s = set_of(c2);
	cs_format_mask(&s, 8, buf, sizeof(buf));
	assert_string_equal(buf, "03");
	cs_format_mask(&s, 36, buf, sizeof(buf));
	assert_string_equal(buf, "0,00000003");
	s = set_of(c3);
	cs_format_mask(&s, 64, buf, sizeof(buf));
	assert_string_equal(buf, "00000001,00000001");
	s = set_of(c4);
	assert_int_equal(cs_format_mask(&s, 100, buf, sizeof(buf)), 28);
	assert_string_equal(buf, "8,00000000,00000000,00000000");
	cs_zero(&s);
	cs_format_mask(&s, 0, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void test_mask_roundtrip(void **state)
{
	static char buf[AFF_WORDS * 9 + 1];
	u32 seed = 777;

	(void)state;
	for (int round = 0; round < 200; round++) {
		struct cpuset s, back;
		char err[256];
		unsigned int nbits = 1 + unit_rand(&seed) % AFF_MAX_CPUS;

		cs_zero(&s);
		for (int i = 0; i < 50; i++)
			cs_set(&s, unit_rand(&seed) % nbits);
		cs_format_mask(&s, nbits, buf, sizeof(buf));
		assert_int_equal(cs_parse_mask(buf, &back, err, sizeof(err)), 0);
		assert_true(cs_equal(&s, &back));
		assert_true(cs_width(&back) <= nbits);
	}
}

static void test_helpers(void **state)
{
	static const int c[] = { 2, 5, 9, -1 };
	static const int d[] = { 2, 9, -1 };
	struct cpuset s = set_of(c), t = set_of(d);

	(void)state;
	assert_int_equal(cs_nth(&s, 0), 2);
	assert_int_equal(cs_nth(&s, 2), 9);
	assert_int_equal(cs_nth(&s, 3), -1);
	assert_int_equal(cs_width(&s), 10);
	assert_true(cs_subset(&t, &s));
	assert_false(cs_subset(&s, &t));
	assert_int_equal(cs_first_not_in(&s, &t), 5);
	assert_int_equal(cs_first_not_in(&t, &s), -1);
	/* out of range CPUs are ignored, never written past the set */
	cs_set(&s, AFF_MAX_CPUS);
	assert_int_equal(cs_count(&s), 3);
	assert_false(cs_test(&s, AFF_MAX_CPUS + 5));
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_list_parse),
		cmocka_unit_test(test_list_bad),
		cmocka_unit_test(test_list_format),
		cmocka_unit_test(test_list_roundtrip),
		cmocka_unit_test(test_mask_parse),
		cmocka_unit_test(test_mask_bad),
		cmocka_unit_test(test_mask_format),
		cmocka_unit_test(test_mask_roundtrip),
		cmocka_unit_test(test_helpers),
	};

	return cmocka_run_group_tests_name("aff_cpuset", tests, NULL, NULL);
}
