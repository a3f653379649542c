// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for usr/affinity/stats.c: the sweep's statistics (mean,
 * min, max, variation, ratio to the baseline, significance, order) and
 * fio terse version 3 lines, good and bad.
 */
#include "unit.h"
#include <math.h>
#include <string.h>

#include "stats.h"

static void test_row(void **state)
{
	static const struct aff_run runs[] = {
		{ .iops = 100, .clat_us = 10, .p99_us = 20, .busy_pct = 50,
		  .cpu_us_per_io = 4 },
		{ .iops = 110, .clat_us = 12, .p99_us = 22, .busy_pct = 60,
		  .cpu_us_per_io = 5 },
		{ .iops = 90, .clat_us = 14, .p99_us = 24, .busy_pct = 70,
		  .cpu_us_per_io = 6 },
	};
	struct aff_row r;

	(void)state;
	aff_row_stats(&r, runs, 3);
	assert_int_equal(r.nruns, 3);
	assert_true(fabs(r.mean - 100) < 1e-9);
	assert_true(fabs(r.min - 90) < 1e-9);
	assert_true(fabs(r.max - 110) < 1e-9);
	/* sample standard deviation: sqrt((0 + 100 + 100) / 2) = 10 */
	assert_true(fabs(r.sd - 10) < 1e-9);
	assert_true(fabs(r.var_pct - 10) < 1e-9);
	assert_true(fabs(r.clat_us - 12) < 1e-9);
	assert_true(fabs(r.p99_us - 22) < 1e-9);
	assert_true(fabs(r.busy_pct - 60) < 1e-9);
	assert_true(fabs(r.cpu_us_per_io - 5) < 1e-9);
	/* one run: no variation; none: all zero */
	aff_row_stats(&r, runs, 1);
	assert_true(r.sd == 0 && r.var_pct == 0 && r.mean == 100);
	aff_row_stats(&r, runs, 0);
	assert_true(r.mean == 0 && r.nruns == 0);
}

static void set_row(struct aff_row *r, const char *layout, int tm,
		    double mean, double sd)
{
	memset(r, 0, sizeof(*r));
	strcpy(r->layout, layout);
	r->thread_mode = tm;
	r->mean = mean;
	r->sd = sd;
}

static void test_finish(void **state)
{
	struct aff_row rows[4];

	(void)state;
	set_row(&rows[0], "none", 1, 101, 1);
	set_row(&rows[1], "none", 0, 100, 1);
	set_row(&rows[2], "split", 0, 105, 1);
	set_row(&rows[3], "spread", 1, 90, 3);
	aff_rows_finish(rows, 4);
	/* best first */
	assert_string_equal(rows[0].layout, "split");
	assert_true(rows[0].significant);	/* 5 > 1 + 1 */
	assert_true(fabs(rows[0].ratio - 1.05) < 1e-9);
	assert_string_equal(rows[1].layout, "none");
	assert_int_equal(rows[1].thread_mode, 1);
	assert_false(rows[1].significant);	/* 1 <= 1 + 1 */
	assert_true(rows[2].baseline);		/* none, thread mode off */
	assert_false(rows[2].significant);
	assert_true(fabs(rows[2].ratio - 1) < 1e-9);
	assert_string_equal(rows[3].layout, "spread");
	assert_true(rows[3].significant);	/* 10 > 3 + 1 */
	assert_true(fabs(rows[3].ratio - 0.9) < 1e-9);

	/* within the variations together: not significant */
	set_row(&rows[0], "none", 0, 100, 4);
	set_row(&rows[1], "split", 0, 107, 3);
	aff_rows_finish(rows, 2);
	assert_string_equal(rows[0].layout, "split");
	assert_false(rows[0].significant);

	/* no "none" row: the first is the baseline */
	set_row(&rows[0], "split", 1, 50, 0);
	set_row(&rows[1], "spread", 1, 60, 0);
	aff_rows_finish(rows, 2);
	assert_true(rows[1].baseline);
	assert_string_equal(rows[1].layout, "split");
	assert_true(fabs(rows[0].ratio - 1.2) < 1e-9);
	aff_rows_finish(rows, 0);
}

/* A terse v3 line with 130 fields: "0" but those given. */
static void terse(char *buf, size_t len, const char *const *set)
{
	const char *f[131];
	size_t n = 0;

	for (int i = 1; i <= 130; i++)
		f[i] = "0";
	f[1] = "3";
	f[2] = "fio-3.33";
	f[3] = "job";
	for (; set[0]; set += 2)
		f[atoi(set[0])] = set[1];
	buf[0] = '\0';
	for (int i = 1; i <= 130; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i > 1 ? ";" : "",
				      f[i]);
}

static void test_terse(void **state)
{
	static const char *const rw[] = {
		"8", "3000", "9", "3000", "16", "10.5", "29", "99.000000%=40",
		"49", "1000", "50", "2900", "57", "20.5", "70", "99.000000%=80",
		NULL
	};
	static const char *const ro[] = {
		"8", "5000", "9", "1000", "16", "6.25", "30", "99.000000%=13",
		"31", "99.500000%=99", "70", "99.000000%=500", NULL
	};
	char line[2048], err[256];
	struct aff_run r;
	long rt;

	(void)state;
	terse(line, sizeof(line), rw);
	assert_int_equal(aff_fio_terse(line, &r, &rt, err, sizeof(err)), 0);
	assert_true(fabs(r.iops - 4000) < 1e-9);
	/* latency weighted by IOPS: (3000 * 10.5 + 1000 * 20.5) / 4000 */
	assert_true(fabs(r.clat_us - 13) < 1e-9);
	assert_true(fabs(r.p99_us - 80) < 1e-9);
	assert_int_equal(rt, 3000);
	/* read only: the write p99 field does not count */
	terse(line, sizeof(line), ro);
	assert_int_equal(aff_fio_terse(line, &r, &rt, err, sizeof(err)), 0);
	assert_true(fabs(r.iops - 5000) < 1e-9);
	assert_true(fabs(r.clat_us - 6.25) < 1e-9);
	assert_true(fabs(r.p99_us - 13) < 1e-9);
	assert_int_equal(rt, 1000);
}

/* A line of fio 3.33 itself (null engine, randrw, 1 s). */
static const char real_line[] =
"3;fio-3.33;t;0;0;1480956;1478477;370239;1001;0;0;0.000000;0.000000;0;3041;0.196325;1.827425;1.000000%=0;5.000000%=0;10.000000%=0;20.000000%=0;30.000000%=0;40.000000%=0;50.000000%=0;60.000000%=0;70.000000%=0;80.000000%=0;90.000000%=0;95.000000%=0;99.000000%=1;99.500000%=0;99.900000%=0;99.950000%=0;99.990000%=4;0%=0;0%=0;0%=0;0;3050;0.236893;1.977744;1393432;1393432;92.593946%;1393432.000000;0.000000;1478400;1476399;369599;1001;0;0;0.000000;0.000000;0;2068;0.079169;0.766094;1.000000%=0;5.000000%=0;10.000000%=0;20.000000%=0;30.000000%=0;40.000000%=0;50.000000%=0;60.000000%=0;70.000000%=0;80.000000%=0;90.000000%=0;95.000000%=0;99.000000%=2;99.500000%=0;99.900000%=0;99.950000%=0;99.990000%=4;0%=0;0%=0;0%=0;0;2075;0.118757;0.911022;1394776;1394776;92.683206%;1394776.000000;0.000000;94.900000%;4.800000%;104;0;9;100.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%";

static void test_terse_real(void **state)
{
	char err[256];
	struct aff_run r;
	long rt;

	(void)state;
	assert_int_equal(aff_fio_terse(real_line, &r, &rt, err, sizeof(err)),
			 0);
	assert_true(fabs(r.iops - (370239 + 369599)) < 1e-9);
	assert_true(fabs(r.p99_us - 2) < 1e-9);
	assert_int_equal(rt, 1001);
}

static void test_terse_bad(void **state)
{
	static const char *const err5[] = { "5", "5", NULL };
	static const char *const v2[] = { "1", "2", NULL };
	static const char *const nan[] = { "8", "12x", NULL };
	static const char *const empty[] = { "49", "", NULL };
	char line[2048], err[256];
	struct aff_run r;
	long rt;

	(void)state;
	terse(line, sizeof(line), err5);
	assert_int_equal(aff_fio_terse(line, &r, &rt, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "reported error 5"));
	terse(line, sizeof(line), v2);
	assert_int_equal(aff_fio_terse(line, &r, &rt, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "terse version 3"));
	terse(line, sizeof(line), nan);
	assert_int_equal(aff_fio_terse(line, &r, &rt, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a number"));
	terse(line, sizeof(line), empty);
	assert_int_equal(aff_fio_terse(line, &r, &rt, err, sizeof(err)), -1);
	assert_int_equal(aff_fio_terse("", &r, &rt, err, sizeof(err)), -1);
	assert_int_equal(aff_fio_terse("3;fio;x;0;0;1;2", &r, &rt, err,
				       sizeof(err)), -1);
	assert_int_equal(aff_fio_terse("fio: error opening file", &r, &rt, err,
				       sizeof(err)), -1);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_row),
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_terse),
		cmocka_unit_test(test_terse_real),
		cmocka_unit_test(test_terse_bad),
	};

	return cmocka_run_group_tests_name("aff_stats", tests, NULL, NULL);
}
