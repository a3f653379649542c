// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for usr/affinity/layout.c: what each layout wants for given
 * IRQ, target, group, device and CPU sets, managed IRQs skipped with a
 * reason, explicit maps, and bad input (unknown layout or name, offline
 * or malformed CPUs) refused.
 */
#include "unit.h"
#include <string.h>

#include "layout.h"

/*
 * Four CPUs on two nodes (0-1, 2-3); mlx5_0 on node 1 with four
 * completion vector IRQs; a managed NVMe queue IRQ; a virtio IRQ; two
 * ib_srpt targets on mlx5_0, a group of the first; a device with two
 * worker threads.
 */
static struct aff_irq irqs[6];
static struct aff_target targets[2];
static struct aff_group groups[1];
static struct aff_device devices[1];
static int pids[] = { 100, 101 };
static struct aff_sys sys;

static struct cpuset list(const char *s)
{
	struct cpuset c;
	char err[128];

	assert_int_equal(cs_parse_list(s, &c, err, sizeof(err)), 0);
	return c;
}

static void assert_cpus(const struct cpuset *s, const char *want)
{
	char buf[256];

	cs_format_list(s, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static int setup(void **state)
{
	(void)state;
	memset(&sys, 0, sizeof(sys));
	memset(irqs, 0, sizeof(irqs));
	memset(targets, 0, sizeof(targets));
	memset(groups, 0, sizeof(groups));
	memset(devices, 0, sizeof(devices));
	sys.online = list("0-3");
	sys.nr_cpu_ids = 4;
	sys.nnodes = 2;
	sys.node_cpus[0] = list("0-1");
	sys.node_cpus[1] = list("2-3");
	for (int i = 0; i < 4; i++) {
		irqs[i].irq = 40 + (unsigned int)i;
		snprintf(irqs[i].name, sizeof(irqs[i].name),
			 "mlx5_comp%d@pci:0000:03:00.0", i);
		strcpy(irqs[i].owner, "mlx5_0");
		irqs[i].kind = AFF_IRQ_RDMA;
		irqs[i].node = 1;
		irqs[i].vector = i;
		irqs[i].req = list("0-3");
	}
	irqs[4] = (struct aff_irq){ .irq = 50, .kind = AFF_IRQ_BLOCK,
				    .managed = true, .node = 0, .vector = -1 };
	strcpy(irqs[4].name, "nvme0q1");
	strcpy(irqs[4].owner, "nvme0n1");
	irqs[4].req = list("0");
	irqs[4].eff = list("0");
	irqs[5] = (struct aff_irq){ .irq = 7, .kind = AFF_IRQ_OTHER,
				    .node = -1, .vector = -1 };
	strcpy(irqs[5].name, "virtio0-requests");
	strcpy(irqs[5].owner, "virtio*");
	irqs[5].req = list("0-3");
	for (int t = 0; t < 2; t++) {
		strcpy(targets[t].driver, "ib_srpt");
		snprintf(targets[t].name, sizeof(targets[t].name), "T%d", t);
		strcpy(targets[t].rdma_dev, "mlx5_0");
		targets[t].node = 1;
		targets[t].cpu_mask = list("0-3");
		targets[t].has_comp_v = true;
		targets[t].comp_v_bits = 64;
		targets[t].comp_v_mask = list("0-63");
		targets[t].thread_mode = 0;
	}
	groups[0].target = 0;
	strcpy(groups[0].name, "g");
	groups[0].cpu_mask = list("0-3");
	strcpy(devices[0].name, "disk");
	devices[0].npids = 2;
	devices[0].pids = pids;
	sys.irqs = irqs;
	sys.nirqs = 6;
	sys.targets = targets;
	sys.ntargets = 2;
	sys.groups = groups;
	sys.ngroups = 1;
	sys.devices = devices;
	sys.ndevices = 1;
	return 0;
}

static int run_layout(const char *const *words, int n,
		      const struct aff_layout_opts *o, struct aff_plan *p,
		      char *err, size_t errlen)
{
	assert_int_equal(aff_plan_init(p, &sys), 0);
	return aff_layout(&sys, n, words, o, p, err, errlen);
}

static void test_none(void **state)
{
	static const char *const w[] = { "none" };
	struct aff_plan p;
	char err[512];

	(void)state;
	assert_int_equal(run_layout(w, 1, NULL, &p, err, sizeof(err)), 0);
	for (int i = 0; i < 6; i++) {
		assert_true(p.irqs[i].set);
		assert_cpus(&p.irqs[i].cpus, "0-3");
	}
	/* the managed IRQ is wanted too, but skipped with a reason */
	assert_true(p.irqs[4].skip);
	assert_non_null(strstr(p.irqs[4].why, "managed"));
	assert_false(p.irqs[0].skip);
	for (int t = 0; t < 2; t++) {
		assert_true(p.targets[t].set_cpu_mask);
		assert_cpus(&p.targets[t].cpu_mask, "0-3");
		assert_true(p.targets[t].set_comp_v);
		assert_cpus(&p.targets[t].comp_v_mask, "0-63");
		assert_false(p.targets[t].set_thread_mode);
	}
	assert_true(p.groups[0].set);
	assert_cpus(&p.groups[0].cpus, "0-3");
	assert_true(p.devices[0].set);
	assert_cpus(&p.devices[0].cpus, "0-3");
	aff_plan_free(&p);
}

static void test_spread(void **state)
{
	static const char *const w[] = { "spread" };
	struct aff_plan p;
	char err[512];

	(void)state;
	assert_int_equal(run_layout(w, 1, NULL, &p, err, sizeof(err)), 0);
	/* IRQ i on CPU i mod 4 */
	assert_cpus(&p.irqs[0].cpus, "0");
	assert_cpus(&p.irqs[1].cpus, "1");
	assert_cpus(&p.irqs[3].cpus, "3");
	assert_cpus(&p.irqs[5].cpus, "1");
	assert_true(p.irqs[4].skip);
	/* target k: vector k of its device, next to that vector's IRQ */
	assert_cpus(&p.targets[0].cpu_mask, "0");
	assert_cpus(&p.targets[0].comp_v_mask, "0");
	assert_cpus(&p.targets[1].cpu_mask, "1");
	assert_cpus(&p.targets[1].comp_v_mask, "1");
	/* a group follows its target */
	assert_cpus(&p.groups[0].cpus, "0");
	/* devices are left alone: their threads follow the cpu_masks */
	assert_false(p.devices[0].set);
	aff_plan_free(&p);
}

static void test_spread_no_irqs(void **state)
{
	static const char *const w[] = { "spread" };
	struct aff_plan p;
	char err[512];

	(void)state;
	/* Soft-RoCE: the device has no IRQs; threads are spread */
	strcpy(targets[0].rdma_dev, "rxe0");
	strcpy(targets[1].rdma_dev, "rxe0");
	assert_int_equal(run_layout(w, 1, NULL, &p, err, sizeof(err)), 0);
	assert_cpus(&p.targets[0].cpu_mask, "0");
	assert_cpus(&p.targets[1].cpu_mask, "1");
	assert_cpus(&p.targets[0].comp_v_mask, "0-63");
	aff_plan_free(&p);
}

static void test_split(void **state)
{
	static const char *const w[] = { "split" };
	struct aff_layout_opts o = { .thread_mode = -1 };
	struct aff_plan p;
	char err[512];

	(void)state;
	assert_int_equal(run_layout(w, 1, NULL, &p, err, sizeof(err)), 0);
	for (int i = 0; i < 6; i++)
		assert_cpus(&p.irqs[i].cpus, "0");
	assert_cpus(&p.targets[0].cpu_mask, "1-3");
	assert_cpus(&p.targets[1].cpu_mask, "1-3");
	assert_cpus(&p.groups[0].cpus, "1-3");
	aff_plan_free(&p);

	o.have_irq_cpus = true;
	o.irq_cpus = list("0-1");
	assert_int_equal(run_layout(w, 1, &o, &p, err, sizeof(err)), 0);
	assert_cpus(&p.irqs[0].cpus, "0");
	assert_cpus(&p.irqs[1].cpus, "1");
	assert_cpus(&p.irqs[2].cpus, "0");
	assert_cpus(&p.targets[0].cpu_mask, "2-3");
	aff_plan_free(&p);

	/* one CPU: IRQs and threads share it */
	sys.online = list("2");
	assert_int_equal(run_layout(w, 1, NULL, &p, err, sizeof(err)), 0);
	assert_cpus(&p.irqs[0].cpus, "2");
	assert_cpus(&p.targets[0].cpu_mask, "2");
	aff_plan_free(&p);
}

static void test_numa(void **state)
{
	static const char *const w[] = { "numa" };
	struct aff_plan p;
	char err[512];

	(void)state;
	assert_int_equal(run_layout(w, 1, NULL, &p, err, sizeof(err)), 0);
	assert_cpus(&p.irqs[0].cpus, "2-3");
	assert_cpus(&p.irqs[4].cpus, "0-1");
	/* unknown node: all online CPUs */
	assert_cpus(&p.irqs[5].cpus, "0-3");
	assert_cpus(&p.targets[0].cpu_mask, "2-3");
	assert_cpus(&p.groups[0].cpus, "2-3");
	aff_plan_free(&p);
	/* a node whose CPUs are all offline: all online CPUs */
	sys.online = list("0-1");
	assert_int_equal(run_layout(w, 1, NULL, &p, err, sizeof(err)), 0);
	assert_cpus(&p.targets[0].cpu_mask, "0-1");
	aff_plan_free(&p);
}

static void test_map(void **state)
{
	static const char *const w[] = {
		"split", "irq:mlx5_comp*=3", "target:T1=2-3", "group:T0/g=2",
		"device:disk=1", "irq:7=1-2"
	};
	struct aff_layout_opts o = { .thread_mode = 1 };
	struct aff_plan p;
	char err[512];

	(void)state;
	assert_int_equal(run_layout(w, 6, &o, &p, err, sizeof(err)), 0);
	for (int i = 0; i < 4; i++)
		assert_cpus(&p.irqs[i].cpus, "3");
	assert_cpus(&p.irqs[5].cpus, "1-2");
	assert_cpus(&p.irqs[4].cpus, "0");	/* from split */
	assert_cpus(&p.targets[0].cpu_mask, "1-3");
	assert_cpus(&p.targets[1].cpu_mask, "2-3");
	assert_cpus(&p.groups[0].cpus, "2");
	assert_true(p.devices[0].set);
	assert_cpus(&p.devices[0].cpus, "1");
	/* --thread-mode on: every ib_srpt target */
	assert_true(p.targets[0].set_thread_mode);
	assert_int_equal(p.targets[1].thread_mode, 1);
	aff_plan_free(&p);
	/* a target by driver/name and by pattern */
	{
		static const char *const w2[] = { "target:ib_srpt/T*=0" };

		assert_int_equal(run_layout(w2, 1, NULL, &p, err, sizeof(err)),
				 0);
		assert_cpus(&p.targets[0].cpu_mask, "0");
		assert_cpus(&p.targets[1].cpu_mask, "0");
		assert_false(p.irqs[0].set);
		assert_false(p.groups[0].set);
		aff_plan_free(&p);
	}
}

struct bad_case {
	const char *word;
	const char *msg;
};

static void test_bad(void **state)
{
	static const struct bad_case cases[] = {
		{ "bogus", "unknown layout 'bogus'" },
		{ "Spread", "unknown layout" },
		{ "irq:nomatch=1", "no irq named 'nomatch'" },
		{ "target:zzz=1", "no target named 'zzz'" },
		{ "group:T0/nogroup=1", "no group" },
		{ "group:T0=1", "TARGET/GROUP" },
		{ "device:nodev=1", "no device" },
		{ "irq:*=7", "CPU 7 is not online" },
		{ "irq:*=4", "CPU 4 is not online" },
		{ "irq:*=1-", "bad CPU list" },
		{ "irq:*=", "empty CPU list" },
		{ "irq:*=0,,1", "bad CPU list" },
		{ "irq:*=99999999999", "bad CPU list" },
		{ "foo:x=1", "unknown kind 'foo'" },
		{ "irq:=1", "bad map entry" },
		{ "irq=1", "unknown layout" },
	};
	struct aff_plan p;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *w[] = { "none", cases[i].word };

		err[0] = '\0';
		assert_int_equal(run_layout(w, 2, NULL, &p, err, sizeof(err)),
				 -1);
		if (!strstr(err, cases[i].msg))
			fail_msg("'%s': '%s' lacks '%s'", cases[i].word, err,
				 cases[i].msg);
		aff_plan_free(&p);
	}
	/* no layout; an offline --irq-cpus */
	assert_int_equal(run_layout(NULL, 0, NULL, &p, err, sizeof(err)), -1);
	aff_plan_free(&p);
	{
		static const char *const w[] = { "split" };
		struct aff_layout_opts o = { .thread_mode = -1,
					     .have_irq_cpus = true };

		o.irq_cpus = list("5");
		assert_int_equal(run_layout(w, 1, &o, &p, err, sizeof(err)),
				 -1);
		assert_non_null(strstr(err, "--irq-cpus"));
		aff_plan_free(&p);
	}
	/* a CPU that is present but offline */
	sys.online = list("0,2-3");
	{
		static const char *const w[] = { "target:T0=1" };

		assert_int_equal(run_layout(w, 1, NULL, &p, err, sizeof(err)),
				 -1);
		assert_non_null(strstr(err, "CPU 1 is not online (online CPUs: 0,2-3)"));
		aff_plan_free(&p);
	}
}

static void test_many_cpus(void **state)
{
	static const char *const w[] = { "spread" };
	static struct aff_irq many[130];
	struct aff_plan p;
	char err[512];

	(void)state;
	/* 200 CPUs, 130 IRQs of one device: masks over 64 CPUs */
	sys.online = list("0-199");
	sys.nr_cpu_ids = 200;
	for (unsigned int i = 0; i < 130; i++) {
		memset(&many[i], 0, sizeof(many[i]));
		many[i].irq = 100 + i;
		snprintf(many[i].name, sizeof(many[i].name), "mlx5_comp%u", i);
		strcpy(many[i].owner, "mlx5_0");
		many[i].vector = (int)i;
		many[i].node = -1;
	}
	sys.irqs = many;
	sys.nirqs = 130;
	assert_int_equal(run_layout(w, 1, NULL, &p, err, sizeof(err)), 0);
	assert_cpus(&p.irqs[129].cpus, "129");
	assert_cpus(&p.irqs[70].cpus, "70");
	aff_plan_free(&p);
}

static void test_match(void **state)
{
	(void)state;
	assert_true(aff_match("virtio*", "virtio0-requests"));
	assert_true(aff_match("*comp?", "mlx5_comp3"));
	assert_false(aff_match("*comp?", "mlx5_comp13"));
	assert_true(aff_match("*", ""));
	assert_false(aff_match("a", ""));
	assert_true(aff_match("a*b*c", "aXbYc"));
	assert_false(aff_match("a*b*c", "aXcYb"));
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test_setup(test_none, setup),
		cmocka_unit_test_setup(test_spread, setup),
		cmocka_unit_test_setup(test_spread_no_irqs, setup),
		cmocka_unit_test_setup(test_split, setup),
		cmocka_unit_test_setup(test_numa, setup),
		cmocka_unit_test_setup(test_map, setup),
		cmocka_unit_test_setup(test_bad, setup),
		cmocka_unit_test_setup(test_many_cpus, setup),
		cmocka_unit_test(test_match),
	};

	return cmocka_run_group_tests_name("aff_layout", tests, NULL, NULL);
}
