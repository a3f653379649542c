// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_tmf_scope.c: which commands a task
 * management function reaches (SAM-5 7), by nexus, logical unit and tag,
 * and what the other nexuses learn of it (TST, TAS).
 */
#include "unit.h"
#include <scst_sam.h>

static void test_reach_table(void **state)
{
	static const struct {
		enum scst_tmf fn;
		enum scst_tmf_reach shared, per_nexus;
		bool needs_lun, resets_lu;
	} cases[] = {
		{ SCST_ABORT_TASK, SCST_TMF_REACH_TASK, SCST_TMF_REACH_TASK,
		  false, false },
		{ SCST_ABORT_TASK_SET, SCST_TMF_REACH_I_T_L,
		  SCST_TMF_REACH_I_T_L, true, false },
		/* SAM-5 7.4: the task set, which TST says whose it is */
		{ SCST_CLEAR_TASK_SET, SCST_TMF_REACH_LU, SCST_TMF_REACH_I_T_L,
		  true, false },
		/* SAM-5 7.7: every nexus of the logical unit, whatever TST */
		{ SCST_LUN_RESET, SCST_TMF_REACH_LU, SCST_TMF_REACH_LU,
		  true, true },
		{ SCST_TARGET_RESET, SCST_TMF_REACH_TARGET,
		  SCST_TMF_REACH_TARGET, false, true },
		{ SCST_NEXUS_LOSS_SESS, SCST_TMF_REACH_I_T, SCST_TMF_REACH_I_T,
		  false, false },
		/* NACA 0: no ACA to clear */
		{ SCST_CLEAR_ACA, SCST_TMF_REACH_NONE, SCST_TMF_REACH_NONE,
		  false, false },
		{ (enum scst_tmf)99, SCST_TMF_REACH_NONE, SCST_TMF_REACH_NONE,
		  false, false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum scst_tmf fn = cases[i].fn;

		assert_int_equal(scst_tmf_reach(fn, SCST_TST_SHARED),
				 cases[i].shared);
		assert_int_equal(scst_tmf_reach(fn, SCST_TST_PER_NEXUS),
				 cases[i].per_nexus);
		assert_int_equal(scst_tmf_needs_lun(fn), cases[i].needs_lun);
		assert_int_equal(scst_tmf_resets_lu(fn), cases[i].resets_lu);
	}
	/* reserved TST values are taken as 000b */
	assert_int_equal(scst_tmf_reach(SCST_CLEAR_TASK_SET, 7),
			 SCST_TMF_REACH_LU);
}

static void test_other_nexus_ua(void **state)
{
	static const enum scst_tmf others[] = {
		SCST_ABORT_TASK, SCST_ABORT_TASK_SET, SCST_LUN_RESET,
		SCST_TARGET_RESET, SCST_NEXUS_LOSS_SESS, SCST_CLEAR_ACA,
	};
	size_t i;

	(void)state;
	/* TAS 0: COMMANDS CLEARED BY ANOTHER INITIATOR (SPC-4 7.5.8) */
	assert_int_equal(scst_tmf_other_nexus_ua(SCST_CLEAR_TASK_SET, false),
			 SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x2f, 0x00));
	/* TAS 1: TASK ABORTED status instead, no unit attention */
	assert_int_equal(scst_tmf_other_nexus_ua(SCST_CLEAR_TASK_SET, true),
			 0);
	for (i = 0; i < ARRAY_SIZE(others); i++) {
		assert_int_equal(scst_tmf_other_nexus_ua(others[i], false), 0);
		assert_int_equal(scst_tmf_other_nexus_ua(others[i], true), 0);
	}
}

static void test_match(void **state)
{
	static const int lu1, lu2;
	struct scst_tmf_match all = { };
	struct scst_tmf_match by_lu = { .lu = &lu1 };
	struct scst_tmf_match by_tag = { .by_tag = true, .tag = 42 };
	struct scst_tmf_match tag0 = { .by_tag = true, .tag = 0 };
	struct scst_tmf_match tag_max = { .by_tag = true, .tag = U64_MAX };

	(void)state;
	/* the whole session: commands with and without a logical unit */
	assert_true(scst_tmf_match(&all, 1, &lu1));
	assert_true(scst_tmf_match(&all, 2, &lu2));
	assert_true(scst_tmf_match(&all, 3, NULL));
	/* one logical unit: not the others, not those without one */
	assert_true(scst_tmf_match(&by_lu, 1, &lu1));
	assert_false(scst_tmf_match(&by_lu, 1, &lu2));
	assert_false(scst_tmf_match(&by_lu, 1, NULL));
	/* by tag: whatever the logical unit, only that tag */
	assert_true(scst_tmf_match(&by_tag, 42, &lu1));
	assert_true(scst_tmf_match(&by_tag, 42, NULL));
	assert_false(scst_tmf_match(&by_tag, 41, &lu1));
	assert_false(scst_tmf_match(&by_tag, 42ULL | 1ULL << 32, &lu1));
	assert_true(scst_tmf_match(&tag0, 0, &lu2));
	assert_false(scst_tmf_match(&tag0, 1, &lu2));
	assert_true(scst_tmf_match(&tag_max, U64_MAX, NULL));
	assert_false(scst_tmf_match(&tag_max, U64_MAX - 1, NULL));
	/* a tag match with a LU set still goes by the tag alone */
	by_tag.lu = &lu2;
	assert_true(scst_tmf_match(&by_tag, 42, &lu1));
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_reach_table),
		cmocka_unit_test(test_other_nexus_ua),
		cmocka_unit_test(test_match),
	};

	return cmocka_run_group_tests_name("tmf_scope", tests, NULL, NULL);
}
