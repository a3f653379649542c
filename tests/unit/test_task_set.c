// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_task_set.c: task set admission by task
 * attribute (SAM-5 8.6). A small model of one device drives the pure
 * functions the way scst_cmd.c does: a new command starts when
 * scst_task_set_may_start() says so with "older dormant" = the waiting
 * list is not empty, or goes to the tail of that list; a completion
 * starts the oldest waiting ones for as long as they may.
 */
#include "unit.h"
#include <scst_sam.h>

#define S	SCST_CMD_QUEUE_SIMPLE
#define O	SCST_CMD_QUEUE_ORDERED
#define H	SCST_CMD_QUEUE_HEAD_OF_QUEUE
#define A	SCST_CMD_QUEUE_ACA

#define MAX_CMDS	64

struct model {
	struct scst_task_set ts;
	enum scst_queue_type type[MAX_CMDS];
	bool enabled[MAX_CMDS];
	bool done[MAX_CMDS];
	unsigned int waiting[MAX_CMDS];	/* FIFO of dormant commands */
	unsigned int nwaiting;
	unsigned int ncmds;
	unsigned int started[MAX_CMDS];	/* the order commands started in */
	unsigned int nstarted;
};

static void model_start(struct model *m, unsigned int c)
{
	scst_task_set_start(&m->ts, m->type[c]);
	m->enabled[c] = true;
	m->started[m->nstarted++] = c;
}

/* A command arrives; returns its index. */
static unsigned int model_rx(struct model *m, enum scst_queue_type type)
{
	unsigned int c = m->ncmds++;

	assert_true(c < MAX_CMDS);
	m->type[c] = type;
	if (scst_task_set_may_start(&m->ts, type, m->nwaiting != 0))
		model_start(m, c);
	else
		m->waiting[m->nwaiting++] = c;
	return c;
}

/* An enabled command completes. */
static void model_done(struct model *m, unsigned int c)
{
	assert_true(m->enabled[c]);
	assert_false(m->done[c]);
	m->done[c] = true;
	m->enabled[c] = false;
	scst_task_set_end(&m->ts, m->type[c]);
	while (m->nwaiting &&
	       scst_task_set_may_start(&m->ts, m->type[m->waiting[0]], false)) {
		model_start(m, m->waiting[0]);
		m->nwaiting--;
		memmove(m->waiting, m->waiting + 1,
			m->nwaiting * sizeof(m->waiting[0]));
	}
}

static void assert_enabled(const struct model *m, const char *want)
{
	unsigned int c;

	assert_int_equal(strlen(want), m->ncmds);
	for (c = 0; c < m->ncmds; c++) {
		char got = m->done[c] ? 'd' : m->enabled[c] ? 'E' : '.';

		if (got != want[c])
			fail_msg("command %u: '%c', expected '%c' (%s)", c, got,
				 want[c], want);
	}
}

static void test_simple_run_together(void **state)
{
	struct model m = { };

	(void)state;
	model_rx(&m, S);
	model_rx(&m, S);
	model_rx(&m, S);
	assert_enabled(&m, "EEE");
	assert_int_equal(m.ts.active, 3);
	assert_int_equal(m.ts.ordered, 0);
	model_done(&m, 1);
	model_done(&m, 0);
	model_done(&m, 2);
	assert_int_equal(m.ts.active, 0);
}

/* An ORDERED command waits for every older command, whatever its type. */
static void test_ordered_waits_for_all_older(void **state)
{
	struct model m = { };

	(void)state;
	model_rx(&m, S);
	model_rx(&m, H);
	model_rx(&m, O);
	assert_enabled(&m, "EE.");
	model_done(&m, 0);
	assert_enabled(&m, "dE.");
	model_done(&m, 1);
	assert_enabled(&m, "ddE");
	assert_int_equal(m.ts.ordered, 1);
	model_done(&m, 2);
	assert_int_equal(m.ts.active, 0);
	assert_int_equal(m.ts.ordered, 0);
}

/* A SIMPLE command waits for an older ORDERED one, enabled or dormant. */
static void test_simple_waits_for_older_ordered(void **state)
{
	struct model m = { };

	(void)state;
	model_rx(&m, O);		/* enabled at once: nothing older */
	model_rx(&m, S);
	assert_enabled(&m, "E.");
	model_done(&m, 0);
	assert_enabled(&m, "dE");

	memset(&m, 0, sizeof(m));
	model_rx(&m, S);
	model_rx(&m, O);		/* dormant behind the SIMPLE */
	model_rx(&m, S);		/* dormant behind the ORDERED */
	assert_enabled(&m, "E..");
	model_done(&m, 0);
	assert_enabled(&m, "dE.");
	model_done(&m, 1);
	assert_enabled(&m, "ddE");
}

/* Commands younger than an ORDERED one do not hold it back. */
static void test_ordered_ignores_younger(void **state)
{
	struct model m = { };

	(void)state;
	model_rx(&m, S);
	model_rx(&m, O);
	model_rx(&m, S);
	model_rx(&m, S);
	model_done(&m, 0);
	assert_enabled(&m, "dE..");
	model_done(&m, 1);
	/* both younger SIMPLE ones start together once it completed */
	assert_enabled(&m, "ddEE");
}

/* HEAD OF QUEUE starts at once, ahead of dormant commands. */
static void test_head_of_queue_goes_first(void **state)
{
	struct model m = { };
	unsigned int h;

	(void)state;
	model_rx(&m, S);
	model_rx(&m, O);
	model_rx(&m, S);
	h = model_rx(&m, H);
	assert_enabled(&m, "E..E");
	/* and the dormant ORDERED now waits for it too */
	model_done(&m, 0);
	assert_enabled(&m, "d..E");
	model_done(&m, h);
	assert_enabled(&m, "dE.d");
	/* also while an ORDERED command is enabled */
	h = model_rx(&m, H);
	assert_enabled(&m, "dE.dE");
	model_done(&m, 1);
	assert_enabled(&m, "ddEdE");
}

/* Two ORDERED commands run one after the other, in order. */
static void test_ordered_one_at_a_time(void **state)
{
	struct model m = { };

	(void)state;
	model_rx(&m, O);
	model_rx(&m, O);
	model_rx(&m, O);
	assert_enabled(&m, "E..");
	model_done(&m, 0);
	assert_enabled(&m, "dE.");
	model_done(&m, 1);
	assert_enabled(&m, "ddE");
}

/* NACA is 0: an ACA task attribute is treated as SIMPLE. */
static void test_aca_as_simple(void **state)
{
	struct model m = { };

	(void)state;
	model_rx(&m, A);
	model_rx(&m, S);
	assert_enabled(&m, "EE");
	assert_int_equal(m.ts.ordered, 0);
	model_rx(&m, O);
	model_rx(&m, A);
	assert_enabled(&m, "EE..");
	model_done(&m, 0);
	model_done(&m, 1);
	assert_enabled(&m, "ddE.");
	model_done(&m, 2);
	assert_enabled(&m, "dddE");
}

/* The predicate itself, on every state that matters. */
static void test_may_start_table(void **state)
{
	static const struct {
		unsigned int active, ordered;
		bool older_dormant;
		bool s, o, h;
	} cases[] = {
		{ 0, 0, false, true, true, true },
		{ 0, 0, true, false, false, true },
		{ 1, 0, false, true, false, true },
		{ 1, 0, true, false, false, true },
		{ 1, 1, false, false, false, true },
		{ 1, 1, true, false, false, true },
		{ 5, 1, false, false, false, true },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct scst_task_set ts = {
			.active = cases[i].active,
			.ordered = cases[i].ordered,
		};
		bool dormant = cases[i].older_dormant;

		assert_int_equal(scst_task_set_may_start(&ts, S, dormant),
				 cases[i].s);
		assert_int_equal(scst_task_set_may_start(&ts, O, dormant),
				 cases[i].o);
		assert_int_equal(scst_task_set_may_start(&ts, H, dormant),
				 cases[i].h);
	}
}

/*
 * Random arrivals and completions: at every step the SAM-5 invariants
 * hold: every command older than an enabled ORDERED one has completed; no
 * SIMPLE command is enabled while an older ORDERED one has not completed
 * (HEAD OF QUEUE ones may be); every command eventually starts, in
 * arrival order apart from HEAD OF QUEUE.
 */
static void test_random_invariants(void **state)
{
	static const enum scst_queue_type types[] = { S, S, S, O, H };
	u32 seed = 0x2468ace1;
	unsigned int round;

	(void)state;
	for (round = 0; round < 2000; round++) {
		struct model m = { };
		unsigned int c, d, left;

		while (m.ncmds < MAX_CMDS) {
			if (!m.ncmds || unit_rand(&seed) % 3) {
				model_rx(&m, types[unit_rand(&seed) % 5]);
			} else {
				/* complete a random enabled command, if any */
				c = unit_rand(&seed) % m.ncmds;
				for (d = 0; d < m.ncmds; d++)
					if (m.enabled[(c + d) % m.ncmds])
						break;
				if (d < m.ncmds)
					model_done(&m, (c + d) % m.ncmds);
			}
			for (c = 0; c < m.ncmds; c++) {
				if (!m.enabled[c])
					continue;
				for (d = 0; d < c; d++) {
					if (m.type[c] == O && !m.done[d])
						fail_msg("ORDERED %u enabled with older %u",
							 c, d);
					if (m.type[c] != H && m.type[d] == O &&
					    !m.done[d])
						fail_msg("SIMPLE %u enabled with older ORDERED %u",
							 c, d);
				}
			}
		}
		/* drain: everything completes */
		for (left = MAX_CMDS * MAX_CMDS; left; left--) {
			for (c = 0; c < m.ncmds; c++)
				if (m.enabled[c])
					break;
			if (c == m.ncmds)
				break;
			model_done(&m, c);
		}
		assert_int_equal(m.nwaiting, 0);
		assert_int_equal(m.nstarted, m.ncmds);
		assert_int_equal(m.ts.active, 0);
		assert_int_equal(m.ts.ordered, 0);
		/* apart from HEAD OF QUEUE, commands start in arrival order */
		for (c = 0, d = MAX_CMDS; c < m.nstarted; c++) {
			if (m.type[m.started[c]] == H)
				continue;
			if (d != MAX_CMDS)
				assert_true(m.started[c] > d);
			d = m.started[c];
		}
	}
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_simple_run_together),
		cmocka_unit_test(test_ordered_waits_for_all_older),
		cmocka_unit_test(test_simple_waits_for_older_ordered),
		cmocka_unit_test(test_ordered_ignores_younger),
		cmocka_unit_test(test_head_of_queue_goes_first),
		cmocka_unit_test(test_ordered_one_at_a_time),
		cmocka_unit_test(test_aca_as_simple),
		cmocka_unit_test(test_may_start_table),
		cmocka_unit_test(test_random_invariants),
	};

	return cmocka_run_group_tests_name("task_set", tests, NULL, NULL);
}
