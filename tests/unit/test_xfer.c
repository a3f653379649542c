// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_xfer.c: the data buffer a command gets
 * when the transport's expected transfer differs from the CDB's, and the
 * residual it reports (SAM-5 5.4.1, SRP r16a 6.9).
 */
#include "unit.h"
#include <scst_sam.h>

#define NONE	SCST_DATA_NONE
#define OUT	SCST_DATA_WRITE
#define IN	SCST_DATA_READ
#define BIDI	SCST_DATA_BIDI
#define GOOD	SCST_STATUS_GOOD
#define CHECK	SCST_STATUS_CHECK_CONDITION

/* A canary: scst_xfer_fit() must always set the buffer length. */
#define XFER_UNSET	0xdeadbeefu

struct fit_case {
	int line;
	enum scst_data_direction cdb_dir;
	u32 cdb_len;
	enum scst_data_direction exp_dir;
	u32 exp_len;
	int ret;
	u32 bufflen;
};

static void check_fit(const struct fit_case *cases, size_t n, bool exact)
{
	size_t i;

	for (i = 0; i < n; i++) {
		u32 bufflen = XFER_UNSET;
		int ret = scst_xfer_fit(cases[i].cdb_dir, cases[i].cdb_len,
					cases[i].exp_dir, cases[i].exp_len,
					exact, &bufflen);

		if (ret != cases[i].ret || bufflen != cases[i].bufflen)
			fail_msg("line %d: ret %d bufflen %u, expected %d %u",
				 cases[i].line, ret, bufflen, cases[i].ret,
				 cases[i].bufflen);
	}
}

static void test_fit_table(void **state)
{
	static const struct fit_case cases[] = {
		/* no data: whatever the transport announced */
		{ __LINE__, NONE, 0, NONE, 0, 0, 0 },
		{ __LINE__, NONE, 0, IN, 512, 0, 0 },
		{ __LINE__, NONE, 0, OUT, 512, 0, 0 },
		/* data-in: exact, underflow (the CDB wants less), overflow */
		{ __LINE__, IN, 4096, IN, 4096, 0, 4096 },
		{ __LINE__, IN, 512, IN, 4096, 0, 512 },
		{ __LINE__, IN, 8192, IN, 4096, 0, 4096 },
		{ __LINE__, IN, 8192, IN, 0, 0, 0 },
		{ __LINE__, IN, 0, IN, 4096, 0, 0 },
		/* data-in without a data-in buffer: nothing is sent */
		{ __LINE__, IN, 4096, NONE, 0, 0, 0 },
		{ __LINE__, IN, 4096, NONE, 4096, 0, 0 },
		{ __LINE__, IN, 4096, OUT, 4096, 0, 0 },
		/* data-out: exact, or the initiator sends more */
		{ __LINE__, OUT, 4096, OUT, 4096, 0, 4096 },
		{ __LINE__, OUT, 512, OUT, 4096, 0, 512 },
		{ __LINE__, OUT, 0, OUT, 0, 0, 0 },
		/* data-out short of what the CDB needs */
		{ __LINE__, OUT, 4096, OUT, 4095, -EINVAL, 4096 },
		{ __LINE__, OUT, 4096, OUT, 0, -EINVAL, 4096 },
		/* data-out not announced, or announced as data-in */
		{ __LINE__, OUT, 4096, NONE, 4096, -EINVAL, 4096 },
		{ __LINE__, OUT, 4096, IN, 4096, -EINVAL, 4096 },
		/*
		 * a zero-length data-out CDB (WRITE(10) of 0 blocks, MODE
		 * SELECT with a PARAMETER LIST LENGTH of 0) needs no data-out
		 */
		{ __LINE__, OUT, 0, NONE, 0, 0, 0 },
		{ __LINE__, OUT, 0, IN, 512, 0, 0 },
		/* bidirectional commands are not supported */
		{ __LINE__, BIDI, 512, BIDI, 512, -EOPNOTSUPP, 512 },
		{ __LINE__, BIDI, 0, NONE, 0, -EOPNOTSUPP, 0 },
		/* 32-bit extremes */
		{ __LINE__, IN, U32_MAX, IN, U32_MAX, 0, U32_MAX },
		{ __LINE__, IN, U32_MAX, IN, U32_MAX - 1, 0, U32_MAX - 1 },
		{ __LINE__, IN, U32_MAX - 1, IN, U32_MAX, 0, U32_MAX - 1 },
		{ __LINE__, OUT, U32_MAX, OUT, U32_MAX, 0, U32_MAX },
		{ __LINE__, OUT, U32_MAX, OUT, U32_MAX - 1, -EINVAL, U32_MAX },
		/* data-in cut to a length that is no multiple of a block */
		{ __LINE__, IN, 8 * 4096, IN, 5000, 0, 5000 },
		{ __LINE__, IN, 8 * 512, IN, 4097, 0, 4096 },
	};

	(void)state;
	check_fit(cases, ARRAY_SIZE(cases), false);
}

/*
 * WRITE SAME's data-out is one logical block (SBC-3 §5.42): with
 * exact_out, more is refused as well as less; other directions and
 * no-data CDBs are as without it.
 */
static void test_fit_exact_out(void **state)
{
	static const struct fit_case cases[] = {
		{ __LINE__, OUT, 512, OUT, 512, 0, 512 },
		{ __LINE__, OUT, 512, OUT, 1024, -EINVAL, 512 },
		{ __LINE__, OUT, 512, OUT, 256, -EINVAL, 512 },
		{ __LINE__, OUT, 512, NONE, 0, -EINVAL, 512 },
		{ __LINE__, OUT, 4096, OUT, 4097, -EINVAL, 4096 },
		{ __LINE__, NONE, 0, OUT, 512, 0, 0 },
		{ __LINE__, IN, 512, IN, 1024, 0, 512 },
	};

	(void)state;
	check_fit(cases, ARRAY_SIZE(cases), true);
}

static void test_resid_table(void **state)
{
	static const struct {
		int line;
		enum scst_data_direction dir;
		u32 cdb_len, exp_len, bufflen, resp_len;
		u8 status;
		s64 resid;
	} cases[] = {
		/* exact transfers */
		{ __LINE__, IN, 4096, 4096, 4096, 4096, GOOD, 0 },
		{ __LINE__, OUT, 4096, 4096, 4096, 0, GOOD, 0 },
		{ __LINE__, NONE, 0, 0, 0, 0, GOOD, 0 },
		/* zero length everywhere, also with CHECK CONDITION */
		{ __LINE__, IN, 0, 0, 0, 0, CHECK, 0 },
		/* underflow: an ALLOCATION LENGTH answered with less */
		{ __LINE__, IN, 255, 255, 255, 36, GOOD, 219 },
		/* underflow: the CDB asks less than the transport offers */
		{ __LINE__, IN, 512, 4096, 512, 512, GOOD, 3584 },
		{ __LINE__, OUT, 512, 4096, 512, 0, GOOD, 3584 },
		/* a no-data command with a buffer announced */
		{ __LINE__, NONE, 0, 4096, 0, 0, GOOD, 4096 },
		/* data-in of a failed command did not move */
		{ __LINE__, IN, 4096, 4096, 4096, 4096, CHECK, 4096 },
		{ __LINE__, IN, 4096, 4096, 4096, 4096,
		  SCST_STATUS_TASK_ABORTED, 4096 },
		/* data-out of a failed command was moved all the same */
		{ __LINE__, OUT, 4096, 4096, 4096, 0, CHECK, 0 },
		/* overflow: the CDB asks more than the transport offers */
		{ __LINE__, IN, 8192, 4096, 4096, 4096, GOOD, -4096 },
		{ __LINE__, IN, 8192, 0, 0, 0, GOOD, -8192 },
		/* overflow wins over the status */
		{ __LINE__, IN, 8192, 4096, 4096, 0, CHECK, -4096 },
		/* 32-bit extremes: the difference needs 33 bits of sign */
		{ __LINE__, IN, U32_MAX, 0, 0, 0, GOOD, -(s64)U32_MAX },
		{ __LINE__, IN, 0, U32_MAX, 0, 0, GOOD, (s64)U32_MAX },
		{ __LINE__, NONE, 0, U32_MAX, 0, 0, GOOD, (s64)U32_MAX },
		{ __LINE__, IN, U32_MAX, U32_MAX, U32_MAX, U32_MAX, GOOD, 0 },
		{ __LINE__, OUT, U32_MAX, U32_MAX, U32_MAX, 0, GOOD, 0 },
		/*
		 * Block multiples: READ of 8 blocks of 4096 cut to an expected
		 * 5000 bytes; the handler moves the one whole block.
		 */
		{ __LINE__, IN, 8 * 4096, 5000, 5000, 4096, GOOD,
		  -(s64)(8 * 4096 - 5000) },
		/* the same READ where the transport offers 2 blocks */
		{ __LINE__, IN, 2 * 4096, 5 * 4096, 2 * 4096, 2 * 4096, GOOD,
		  3 * 4096 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		s64 got = scst_xfer_resid(cases[i].dir, cases[i].cdb_len,
					  cases[i].exp_len, cases[i].bufflen,
					  cases[i].resp_len, cases[i].status);

		if (got != cases[i].resid)
			fail_msg("line %d: resid %lld, expected %lld",
				 cases[i].line, (long long)got,
				 (long long)cases[i].resid);
	}
}

/*
 * scst_xfer_fit() then scst_xfer_resid() as the core uses them: whatever
 * the lengths, the buffer never exceeds either announcement for data-in,
 * and the residual is the expected length minus what moved, or minus the
 * CDB's length when that is larger.
 */
static void test_fit_then_resid_random(void **state)
{
	static const enum scst_data_direction dirs[] = { NONE, OUT, IN };
	u32 seed = 0x13579bdf;
	unsigned int n;

	(void)state;
	for (n = 0; n < 100000; n++) {
		enum scst_data_direction cdb_dir = dirs[unit_rand(&seed) % 3];
		enum scst_data_direction exp_dir = dirs[unit_rand(&seed) % 3];
		u32 cdb_len = cdb_dir == NONE ? 0 : unit_rand(&seed);
		u32 exp_len = unit_rand(&seed);
		u32 bufflen = XFER_UNSET, resp_len;
		s64 resid, want;
		bool exact;
		int ret;

		if (n & 1)	/* small lengths hit the equal cases */
			cdb_len &= 0xf, exp_len &= 0xf;
		exact = n & 2;
		ret = scst_xfer_fit(cdb_dir, cdb_len, exp_dir, exp_len, exact,
				    &bufflen);
		if (ret) {
			assert_int_equal(cdb_dir, OUT);
			assert_true(cdb_len);
			assert_true(cdb_len > exp_len || exp_dir != OUT ||
				    (exact && cdb_len != exp_len));
			continue;
		}
		if (cdb_dir == OUT && cdb_len)
			assert_true(exp_dir == OUT && exp_len >= cdb_len &&
				    (!exact || exp_len == cdb_len));
		assert_true(bufflen <= cdb_len);
		if (cdb_dir == IN)
			assert_true(bufflen <= (exp_dir == IN ? exp_len : 0));
		if (cdb_dir == OUT)
			assert_int_equal(bufflen, cdb_len);
		resp_len = cdb_dir == IN ? bufflen : 0;
		resid = scst_xfer_resid(cdb_dir, cdb_len, exp_len, bufflen,
					resp_len, GOOD);
		if (cdb_len > exp_len)
			want = (s64)exp_len - cdb_len;
		else
			want = (s64)exp_len - (cdb_dir == NONE ? 0 : bufflen);
		assert_true(resid == want);
	}
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_fit_table),
		cmocka_unit_test(test_fit_exact_out),
		cmocka_unit_test(test_resid_table),
		cmocka_unit_test(test_fit_then_resid_random),
	};

	return cmocka_run_group_tests_name("xfer", tests, NULL, NULL);
}
