// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_lat.c: latency buckets, accumulation,
 * file names and the text SCST's latency files have.
 */
#include "unit.h"

static void test_bucket(void **state)
{
	(void)state;
	assert_int_equal(scst_lat_bucket(0), 0);
	assert_int_equal(scst_lat_bucket(1), 0);
	assert_int_equal(scst_lat_bucket(512), 0);
	assert_int_equal(scst_lat_bucket(1023), 0);
	assert_int_equal(scst_lat_bucket(1024), 1);
	assert_int_equal(scst_lat_bucket(4096), 3);
	assert_int_equal(scst_lat_bucket(524288), 10);
	assert_int_equal(scst_lat_bucket(1 << 20), 10);
	assert_int_equal(scst_lat_bucket(~0ULL), 10);
}

static void test_file_parse(void **state)
{
	unsigned int dir = 9, size = 9;

	(void)state;
	assert_int_equal(scst_lat_file_parse("n512", &dir, &size), 0);
	assert_int_equal(dir, 0);
	assert_int_equal(size, 0);
	assert_int_equal(scst_lat_file_parse("w4096", &dir, &size), 0);
	assert_int_equal(dir, 1);
	assert_int_equal(size, 3);
	assert_int_equal(scst_lat_file_parse("r524288", &dir, &size), 0);
	assert_int_equal(dir, 2);
	assert_int_equal(size, 10);
	assert_int_equal(scst_lat_file_parse("b1024", &dir, &size), 0);
	assert_int_equal(dir, 3);
	assert_int_equal(size, 1);
	dir = size = 9;
	assert_int_equal(scst_lat_file_parse("r256", &dir, &size), -EINVAL);
	assert_int_equal(scst_lat_file_parse("r1048576", &dir, &size),
			 -EINVAL);
	assert_int_equal(scst_lat_file_parse("x512", &dir, &size), -EINVAL);
	assert_int_equal(scst_lat_file_parse("r4096x", &dir, &size), -EINVAL);
	assert_int_equal(scst_lat_file_parse("", &dir, &size), -EINVAL);
	assert_int_equal(dir, 9);
	assert_int_equal(size, 9);
}

static void test_add_and_format(void **state)
{
	static struct scst_lat_stats s;
	char buf[512];
	int n;

	(void)state;
	memset(&s, 0, sizeof(s));
	n = scst_lat_format(&s, 2, 3, buf, sizeof(buf));
	assert_string_equal(buf, "state count min max avg stddev\n");
	assert_int_equal(n, (int)strlen(buf));
	n = scst_lat_format(NULL, 2, 3, buf, sizeof(buf));
	assert_string_equal(buf, "state count min max avg stddev\n");

	/* INIT 1 us and 3 us; EXEC 10 us twice; XMIT 0.5 us twice */
	scst_lat_add(&s.e[2][3][SCST_LAT_INIT], 1000);
	scst_lat_add(&s.e[2][3][SCST_LAT_INIT], 3000);
	scst_lat_add(&s.e[2][3][SCST_LAT_EXEC], 10000);
	scst_lat_add(&s.e[2][3][SCST_LAT_EXEC], 10099);	/* 100 ns units */
	scst_lat_add(&s.e[2][3][SCST_LAT_XMIT], 500);
	scst_lat_add(&s.e[2][3][SCST_LAT_XMIT], 500);
	assert_int_equal(s.e[2][3][SCST_LAT_INIT].count, 2);
	assert_int_equal(s.e[2][3][SCST_LAT_INIT].min, 10);
	assert_int_equal(s.e[2][3][SCST_LAT_INIT].max, 30);
	assert_int_equal(s.e[2][3][SCST_LAT_EXEC].max, 100);
	n = scst_lat_format(&s, 2, 3, buf, sizeof(buf));
	/*
	 * total: 3 stages * 250 / 6 = 125 (12.5 us, the sum of the
	 * averages); the deviation of {10,30,100,100,5,5} in integers,
	 * sqrt(21050 / 6 - 41 * 41) = 42, times 3 stages: 12.6 us
	 */
	assert_string_equal(buf,
		"state count min max avg stddev\n"
		"INIT 2 1.0 3.0 2.0 1.0 us\n"
		"EXEC 2 10.0 10.0 10.0 0.0 us\n"
		"XMIT 2 0.5 0.5 0.5 0.0 us\n"
		"total 2 - - 12.5 12.6 us\n");
	assert_int_equal(n, (int)strlen(buf));
	/* other files of the session stay empty */
	scst_lat_format(&s, 1, 3, buf, sizeof(buf));
	assert_string_equal(buf, "state count min max avg stddev\n");
	/* out of range: the header only */
	scst_lat_format(&s, 4, 3, buf, sizeof(buf));
	assert_string_equal(buf, "state count min max avg stddev\n");
	scst_lat_format(&s, 2, 11, buf, sizeof(buf));
	assert_string_equal(buf, "state count min max avg stddev\n");
	/* a short buffer is cut, terminated */
	n = scst_lat_format(&s, 2, 3, buf, 40);
	assert_int_equal(n, 39);
	assert_int_equal(strlen(buf), 39);
	n = scst_lat_format(&s, 2, 3, buf, 1);
	assert_int_equal(n, 0);
	assert_string_equal(buf, "");
}

static void test_add_limits(void **state)
{
	struct scst_lat_entry e;

	(void)state;
	memset(&e, 0, sizeof(e));
	/* a time over 2^32 units (7 minutes) is not counted */
	scst_lat_add(&e, 100ULL * 0x100000000ULL);
	assert_int_equal(e.count, 0);
	e.count = U32_MAX;
	scst_lat_add(&e, 1000);
	assert_int_equal(e.count, U32_MAX);
	assert_int_equal(e.sum, 0);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_bucket),
		cmocka_unit_test(test_file_parse),
		cmocka_unit_test(test_add_and_format),
		cmocka_unit_test(test_add_limits),
	};

	return cmocka_run_group_tests_name("lat", tests, NULL, NULL);
}
