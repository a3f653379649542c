// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin and SCST's ALUA configuration (DEVICE_GROUP blocks, the
 * device_groups/ tree): the grammar (good files and each bad one with
 * its exact message), the writer's round trip (parse(write(x)) == x,
 * and a difference is seen), the reconciliation diff as the list of
 * sysfs writes it makes (order, -force marks, moves, re-created
 * devices, ALUA missing), the apply step writing them into a fake
 * tree, and the command line on a fake tree laid out
 * as SCST's sysfs (a target of this system is a link in its target
 * group, another system's a directory with rel_tgt_id).
 */
#include <unistd.h>

#include "scstadmin_unit.h"

#define HND	"HANDLER vdisk_nullio {\n DEVICE d1\n DEVICE d2\n}\n"
#define DRV	"TARGET_DRIVER scst_local {\n TARGET t1\n TARGET t2\n}\n"

static const char full[] =
	HND DRV
	"DEVICE_GROUP dg1 {\n"
	"\tDEVICE d1\n"
	"\tDEVICE d2\n"
	"\n"
	"\tTARGET_GROUP local {\n"
	"\t\tgroup_id 1\n"
	"\t\tpreferred 1\n"
	"\t\tstate active\n"
	"\n"
	"\t\tTARGET t1\n"
	"\t}\n"
	"\tTARGET_GROUP remote {\n"
	"\t\tgroup_id 0x20\n"
	"\t\tstate standby\n"
	"\t\tTARGET iqn.2026-01.org.example:peer {\n"
	"\t\t\trel_tgt_id 5\n"
	"\t\t}\n"
	"\t\tTARGET t2\n"
	"\t}\n"
	"}\n";

static struct tree *parse_ok(const char *text)
{
	char err[512];
	struct tree *t = conf_parse("t.conf", text, err, sizeof(err));

	if (!t)
		fail_msg("parse failed: %s\n%s", err, text);
	return t;
}

static void test_parse_good(void **state)
{
	struct tree *t = parse_ok(full);
	const struct dev_group *g;
	const struct tgt_group *tg;

	(void)state;
	assert_int_equal(t->dgroups.n, 1);
	g = t->dgroups.v[0];
	assert_string_equal(g->name, "dg1");
	assert_int_equal(g->devices.n, 2);
	assert_string_equal(g->devices.v[1].name, "d2");
	assert_int_equal(g->devices.v[1].line, 11);
	assert_int_equal(g->tgroups.n, 2);
	tg = dgroup_find_tgroup(g, "local");
	assert_non_null(tg);
	assert_int_equal(tg->attrs.n, 3);
	assert_string_equal(attr_find(&tg->attrs, "state")->value, "active");
	assert_int_equal(tg->targets.n, 1);
	assert_int_equal(tg->targets.v[0]->attrs.n, 0);
	tg = dgroup_find_tgroup(g, "remote");
	assert_string_equal(attr_find(&tg->attrs, "group_id")->value, "0x20");
	assert_int_equal(tg->targets.n, 2);
	assert_string_equal(tg->targets.v[0]->name,
			    "iqn.2026-01.org.example:peer");
	assert_string_equal(attr_find(&tg->targets.v[0]->attrs,
				      "rel_tgt_id")->value, "5");
	tree_free(t);
	/* every state SCST names; group_id 0 (never set, SCST writes it) */
	t = parse_ok(HND "DEVICE_GROUP g {\n TARGET_GROUP a { state nonoptimized }\n"
		     " TARGET_GROUP b { state unavailable; group_id 0 }\n"
		     " TARGET_GROUP c { state offline; preferred 0 }\n"
		     " TARGET_GROUP e { state transitioning; group_id 65535 }\n"
		     " TARGET_GROUP f\n}\n"
		     "DEVICE_GROUP empty {\n}\n");
	assert_int_equal(t->dgroups.n, 2);
	assert_int_equal(t->dgroups.v[0]->tgroups.n, 5);
	tree_free(t);
}

struct bad_case {
	const char *text;
	const char *msg;
};

#define DG(body)	HND DRV "DEVICE_GROUP dg {\n" body "}\n"
#define TG(body)	DG(" TARGET_GROUP tg {\n" body " }\n")

/* HND DRV take lines 1-8; DEVICE_GROUP dg is line 9 */
static const struct bad_case bad_cases[] = {
	{ TG("  state sleeping\n"),
	  "t.conf:11:3: bad state 'sleeping' of TARGET_GROUP 'tg': expected active, nonoptimized, standby, unavailable, offline or transitioning" },
	{ TG("  state Active\n"),
	  "t.conf:11:3: bad state 'Active' of TARGET_GROUP 'tg': expected active, nonoptimized, standby, unavailable, offline or transitioning" },
	{ TG("  group_id 65536\n"),
	  "t.conf:11:3: bad group_id '65536' of TARGET_GROUP 'tg': expected 1 to 65535" },
	{ TG("  group_id 0x10000\n"),
	  "t.conf:11:3: bad group_id '0x10000' of TARGET_GROUP 'tg': expected 1 to 65535" },
	{ TG("  group_id -1\n"),
	  "t.conf:11:3: bad group_id '-1' of TARGET_GROUP 'tg': expected 1 to 65535" },
	{ TG("  group_id 012\n"),
	  "t.conf:11:3: bad group_id '012' of TARGET_GROUP 'tg': expected 1 to 65535" },
	{ TG("  group_id 99999999999999999999999\n"),
	  "t.conf:11:3: bad group_id '99999999999999999999999' of TARGET_GROUP 'tg': expected 1 to 65535" },
	{ TG("  group_id 0x\n"),
	  "t.conf:11:3: bad group_id '0x' of TARGET_GROUP 'tg': expected 1 to 65535" },
	{ TG("  preferred 2\n"),
	  "t.conf:11:3: bad preferred '2' of TARGET_GROUP 'tg': expected 0 or 1" },
	{ TG("  preferred yes\n"),
	  "t.conf:11:3: bad preferred 'yes' of TARGET_GROUP 'tg': expected 0 or 1" },
	{ TG("  colour blue\n"),
	  "t.conf:11:3: unknown TARGET_GROUP attribute 'colour' in 'tg': expected group_id, preferred or state" },
	{ TG("  state active\n  state standby\n"),
	  "t.conf:12:3: duplicate attribute 'state' in TARGET_GROUP 'tg' (first at line 11)" },
	{ TG("  TARGET x {\n   rel_tgt_id 0\n  }\n"),
	  "t.conf:12:4: bad rel_tgt_id '0' of TARGET 'x': expected 1 to 65535" },
	{ TG("  TARGET x {\n   rel_tgt_id 65536\n  }\n"),
	  "t.conf:12:4: bad rel_tgt_id '65536' of TARGET 'x': expected 1 to 65535" },
	{ TG("  TARGET x {\n   rel_tgt_id 1\n   rel_tgt_id 2\n  }\n"),
	  "t.conf:13:4: duplicate attribute 'rel_tgt_id' of TARGET 'x' (first at line 12)" },
	{ TG("  TARGET x {\n   enabled 1\n  }\n"),
	  "t.conf:12:4: unknown attribute 'enabled' of TARGET 'x' in a TARGET_GROUP: expected rel_tgt_id" },
	{ TG("  TARGET x\n  TARGET x\n"),
	  "t.conf:12:3: duplicate TARGET 'x' in TARGET_GROUP 'tg'" },
	{ TG("  LUN 0 d1\n"),
	  "t.conf:11:3: unknown section keyword 'LUN': expected TARGET or an attribute" },
	{ TG("  TARGET\n"),
	  "t.conf:11:9: unexpected end of line: expected a target name after TARGET" },
	{ TG("  TARGET \"a b\"\n"),
	  "t.conf:11:3: bad TARGET name 'a b': contains a blank, ';' or a control character" },
	/* names that are files beside them in the tree */
	{ TG("  TARGET state\n"),
	  "t.conf:11:3: bad TARGET name 'state': it is the name of a file beside it in the management tree" },
	{ TG("  TARGET mgmt\n"),
	  "t.conf:11:3: bad TARGET name 'mgmt': it is the name of a file beside it in the management tree" },
	{ DG(" TARGET_GROUP mgmt\n"),
	  "t.conf:10:2: bad TARGET_GROUP name 'mgmt': it is the name of a file beside it in the management tree" },
	{ HND "DEVICE_GROUP mgmt {\n}\n",
	  "t.conf:5:1: bad DEVICE_GROUP name 'mgmt': it is the name of a file beside it in the management tree" },
	/* one target in two target groups of a device group (SCST: EEXIST) */
	{ DG(" TARGET_GROUP a {\n  TARGET t1\n }\n TARGET_GROUP b {\n  TARGET t1\n }\n"),
	  "t.conf:14:3: TARGET 't1' is in TARGET_GROUP 'b' and in TARGET_GROUP 'a' (line 11) of DEVICE_GROUP 'dg': a target belongs to one target group of a device group" },
	{ DG(" TARGET_GROUP a {\n  group_id 7\n }\n TARGET_GROUP b {\n  group_id 0x7\n }\n"),
	  "t.conf:14:3: group_id 0x7 of TARGET_GROUP 'b' is also that of TARGET_GROUP 'a' (line 11) in DEVICE_GROUP 'dg': expected one per target group" },
	{ DG(" TARGET_GROUP a\n TARGET_GROUP a\n"),
	  "t.conf:11:2: duplicate TARGET_GROUP 'a' in DEVICE_GROUP 'dg'" },
	{ DG(" TARGET_GROUP\n"),
	  "t.conf:10:14: unexpected end of line: expected a target group name after TARGET_GROUP" },
	{ DG(" TARGET_GROUP \"../x\"\n"),
	  "t.conf:10:2: bad TARGET_GROUP name '../x': contains '/'" },
	{ DG(" TARGET_GROUP tg {\n"),
	  "t.conf:12:1: unexpected end of file: expected '}' to close DEVICE_GROUP dg opened at line 9" },
	/* devices */
	{ DG(" DEVICE nosuch\n"),
	  "t.conf:10:2: DEVICE_GROUP 'dg' names unknown device 'nosuch': expected a DEVICE defined in a HANDLER section" },
	{ DG(" DEVICE d1\n DEVICE d1\n"),
	  "t.conf:11:2: duplicate DEVICE 'd1' in DEVICE_GROUP 'dg'" },
	{ DG(" DEVICE\n"),
	  "t.conf:10:8: unexpected end of line: expected a device name after DEVICE" },
	{ DG(" DEVICE d1 {\n }\n"),
	  "t.conf:10:12: unexpected '{': expected end of line" },
	{ DG(" DEVICE d1\n") "DEVICE_GROUP dg2 {\n DEVICE d1\n}\n",
	  "t.conf:13:2: DEVICE 'd1' is in DEVICE_GROUP 'dg2' and in DEVICE_GROUP 'dg' (line 10): a device belongs to one device group" },
	{ DG(" INITIATOR x\n"),
	  "t.conf:10:2: unknown section keyword 'INITIATOR': expected DEVICE, TARGET_GROUP or an attribute" },
	/* the block itself */
	{ HND "DEVICE_GROUP dg\n DEVICE d1\n",
	  "t.conf:6:2: unexpected 'DEVICE': expected '{' after DEVICE_GROUP dg" },
	{ HND "DEVICE_GROUP {\n}\n",
	  "t.conf:5:14: unexpected '{': expected a device group name after DEVICE_GROUP" },
	{ HND "DEVICE_GROUP dg {\n DEVICE d1\n",
	  "t.conf:7:1: unexpected end of file: expected '}' to close DEVICE_GROUP dg opened at line 5" },
	{ HND "DEVICE_GROUP dg {\n}\nDEVICE_GROUP dg {\n}\n",
	  "t.conf:7:1: duplicate DEVICE_GROUP 'dg' (first at line 5)" },
	{ HND "DEVICE_GROUP \"a;b\" {\n}\n",
	  "t.conf:5:1: bad DEVICE_GROUP name 'a;b': contains a blank, ';' or a control character" },
	{ HND "TARGET_GROUP tg {\n}\n",
	  "t.conf:5:1: unknown section keyword 'TARGET_GROUP': expected HANDLER, TARGET_DRIVER or DEVICE_GROUP" },
};

/* 255 targets fit a target group (SPC-4 6.37: one byte), 256 do not */
static void test_parse_tg_ports(void **state)
{
	char *text = xstrdup(HND "DEVICE_GROUP dg {\n TARGET_GROUP tg {\n");
	char err[512];
	struct tree *t;

	(void)state;
	for (int i = 0; i < 256; i++) {
		char *n = xasprintf("%s  TARGET p%d\n", text, i);

		free(text);
		text = n;
		if (i == 254) {
			char *ok = xasprintf("%s }\n}\n", text);

			t = conf_parse("t.conf", ok, err, sizeof(err));
			if (!t)
				fail_msg("255 targets: %s", err);
			tree_free(t);
			free(ok);
		}
	}
	{
		char *bad = xasprintf("%s }\n}\n", text);

		t = conf_parse("t.conf", bad, err, sizeof(err));
		assert_null(t);
		assert_string_equal(err,
			"t.conf:262:3: TARGET_GROUP 'tg' has more than 255 targets: REPORT TARGET PORT GROUPS counts them in one byte");
		free(bad);
	}
	free(text);
}

static void test_parse_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		char err[512];
		struct tree *t = conf_parse("t.conf", bad_cases[i].text, err,
					    sizeof(err));

		if (t)
			fail_msg("case %zu parsed but should not:\n%s", i,
				 bad_cases[i].text);
		if (strcmp(err, bad_cases[i].msg))
			fail_msg("case %zu:\n got  %s\n want %s", i, err,
				 bad_cases[i].msg);
	}
}

static char *write_str(struct tree *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	conf_write(f, t, false);
	fclose(f);
	return buf;
}

/* parse(write(x)) == x, and writing that again gives the same text */
static void test_roundtrip(void **state)
{
	struct tree *a = parse_ok(full), *b;
	char *w1 = write_str(a), *w2, err[512], why[256];

	(void)state;
	b = conf_parse("written", w1, err, sizeof(err));
	if (!b)
		fail_msg("written file does not parse: %s\n%s", err, w1);
	tree_sort(b);
	if (!tree_equal(a, b, why, sizeof(why)))
		fail_msg("round trip differs: %s\n%s", why, w1);
	w2 = write_str(b);
	assert_string_equal(w1, w2);
	/* SCST's layout: members, then each target group's attributes */
	assert_non_null(strstr(w1,
		"DEVICE_GROUP dg1 {\n\tDEVICE d1\n\tDEVICE d2\n\n"
		"\tTARGET_GROUP local {\n\t\tgroup_id 1\n\t\tpreferred 1\n"
		"\t\tstate active\n\t\tTARGET t1\n\t}\n"));
	assert_non_null(strstr(w1,
		"\t\tTARGET iqn.2026-01.org.example:peer {\n"
		"\t\t\trel_tgt_id 5\n\t\t}\n\t\tTARGET t2\n"));
	tree_free(b);
	free(w2);
	free(w1);
	tree_free(a);
}

/* the comparison sees every part of a DEVICE_GROUP (it can fail) */
static void test_equal_sees_changes(void **state)
{
	static const char *const variants[] = {
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n}\n",
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d2\n}\n",
		HND DRV "DEVICE_GROUP dg2 {\n DEVICE d1\n}\n",
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n TARGET_GROUP a\n}\n",
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n TARGET_GROUP b\n}\n",
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n TARGET_GROUP a { state standby }\n}\n",
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n TARGET_GROUP a { state active }\n}\n",
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n TARGET_GROUP a { TARGET t1 }\n}\n",
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n TARGET_GROUP a { TARGET t2 }\n}\n",
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n TARGET_GROUP a { TARGET x { rel_tgt_id 3 } }\n}\n",
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n TARGET_GROUP a { TARGET x { rel_tgt_id 4 } }\n}\n",
		HND DRV,
	};
	size_t n = sizeof(variants) / sizeof(variants[0]);
	char why[256];

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			struct tree *a = parse_ok(variants[i]);
			struct tree *b = parse_ok(variants[j]);
			bool eq;

			tree_sort(a);
			tree_sort(b);
			eq = tree_equal(a, b, why, sizeof(why));
			if (eq != (i == j))
				fail_msg("variants %zu and %zu: equal=%d", i, j,
					 eq);
			tree_free(a);
			tree_free(b);
		}
}

/* ---- diff: the sysfs writes -------------------------------------------- */

/* d1, d2 (nullio), targets t1, t2 (scst_local), device_groups/ present */
static struct tree *live_base(bool alua)
{
	struct tree *t = tree_new();
	struct handler *h = tree_add_handler(t, "vdisk_nullio");
	struct driver *d = tree_add_driver(t, "scst_local");

	*vec_push(&h->params) = xstrdup("size_mb");
	handler_add_device(h, "d1");
	handler_add_device(h, "d2");
	d->can_add_target = true;
	driver_add_target(d, "t1");
	driver_add_target(d, "t2");
	t->has_alua = alua;
	return t;
}

static struct attr *wattr(attr_vec *a, const char *k, const char *v)
{
	struct attr *at = attr_add(a, k, v);

	at->writable = true;
	return at;
}

/* live: dg1 { d1; tg1 { group_id 1; state active; t1 } } */
static struct tree *live_dg1(void)
{
	struct tree *t = live_base(true);
	struct dev_group *g = tree_add_dgroup(t, "dg1");
	struct tgt_group *tg = dgroup_add_tgroup(g, "tg1");

	vec_push(&g->devices)->name = xstrdup("d1");
	wattr(&tg->attrs, "group_id", "1");
	wattr(&tg->attrs, "preferred", "0");
	wattr(&tg->attrs, "state", "active");
	tgroup_add_target(tg, "t1");
	return t;
}

/*
 * "PATH: TEXT" per action, with marks: [rm] needs -force as a removal,
 * [part] goes with another forced change; warnings after "--".
 */
static char *plan(const char *want_text, const struct tree *live, int *ret)
{
	struct tree *want = parse_ok(want_text);
	action_vec acts = { 0 };
	str_vec warns = { 0 };
	char err[512];
	char *s = xstrdup("");

	*ret = diff_trees(want, live, NULL, &acts, &warns, err, sizeof(err));
	for (size_t i = 0; i < acts.n; i++) {
		char *n = xasprintf("%s%s: %s%s%s\n", s, acts.v[i].path,
				    acts.v[i].text,
				    acts.v[i].removal ? " [rm]" : "",
				    acts.v[i].forced_part ? " [part]" : "");
		free(s);
		s = n;
	}
	for (size_t i = 0; i < warns.n; i++) {
		char *n = xasprintf("%s-- %s\n", s, warns.v[i]);

		free(s);
		s = n;
	}
	actions_free(&acts);
	strs_free(&warns);
	tree_free(want);
	return s;
}

static void expect_plan(const char *want_text, struct tree *live,
			const char *expected)
{
	int ret;
	char *s = plan(want_text, live, &ret);

	assert_int_equal(ret, 0);
	if (strcmp(s, expected))
		fail_msg("plan:\n%s\nwant:\n%s", s, expected);
	free(s);
	tree_free(live);
}

/* everything new: after the devices and targets, before LUNs/enable */
static void test_diff_create(void **state)
{
	struct tree *live = live_base(true);

	(void)state;
	/* d3 and t3 are new: the group writes come after their creation */
	expect_plan(
		"HANDLER vdisk_nullio {\n DEVICE d1\n DEVICE d2\n DEVICE d3\n}\n"
		"TARGET_DRIVER scst_local {\n TARGET t1\n TARGET t2\n"
		" TARGET t3 {\n  LUN 0 d3\n }\n}\n"
		"DEVICE_GROUP dg1 {\n DEVICE d1\n DEVICE d3\n"
		" TARGET_GROUP tg1 {\n  group_id 1\n  preferred 1\n  state active\n"
		"  TARGET t3\n  TARGET peer { rel_tgt_id 9 }\n }\n"
		" TARGET_GROUP tg2 {\n  group_id 2\n  state standby\n  TARGET t2\n }\n}\n",
		live,
		"handlers/vdisk_nullio/mgmt: add_device d3\n"
		"targets/scst_local/mgmt: add_target t3\n"
		"device_groups/mgmt: create dg1\n"
		"device_groups/dg1/devices/mgmt: add d1\n"
		"device_groups/dg1/devices/mgmt: add d3\n"
		"device_groups/dg1/target_groups/mgmt: create tg1\n"
		"device_groups/dg1/target_groups/tg1/mgmt: add t3\n"
		"device_groups/dg1/target_groups/tg1/mgmt: add peer\n"
		"device_groups/dg1/target_groups/mgmt: create tg2\n"
		"device_groups/dg1/target_groups/tg2/mgmt: add t2\n"
		"targets/scst_local/t3/luns/mgmt: add d3 0\n"
		"device_groups/dg1/target_groups/tg1/peer/rel_tgt_id: 9\n"
		"device_groups/dg1/target_groups/tg1/group_id: 1\n"
		"device_groups/dg1/target_groups/tg1/preferred: 1\n"
		"device_groups/dg1/target_groups/tg1/state: active\n"
		"device_groups/dg1/target_groups/tg2/group_id: 2\n"
		"device_groups/dg1/target_groups/tg2/state: standby\n");
}

/* the live tree as the file says: nothing to do */
static void test_diff_same(void **state)
{
	(void)state;
	expect_plan(HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n"
		    " TARGET_GROUP tg1 {\n  group_id 1\n  state active\n  TARGET t1\n }\n}\n",
		    live_dg1(), "");
}

/* only what differs: one state write, one member added */
static void test_diff_changes(void **state)
{
	(void)state;
	expect_plan(HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n DEVICE d2\n"
		    " TARGET_GROUP tg1 {\n  group_id 1\n  state standby\n"
		    "  TARGET t1\n  TARGET t2\n }\n}\n",
		    live_dg1(),
		    "device_groups/dg1/devices/mgmt: add d2\n"
		    "device_groups/dg1/target_groups/tg1/mgmt: add t2\n"
		    "device_groups/dg1/target_groups/tg1/state: standby\n");
}

/* removals need -force, and come before the devices' and targets' */
static void test_diff_removals(void **state)
{
	struct tree *live = live_dg1();

	(void)state;
	expect_plan(HND DRV "DEVICE_GROUP dg1 {\n TARGET_GROUP tg1 {\n  group_id 1\n }\n}\n",
		    live,
		    "device_groups/dg1/devices/mgmt: del d1 [rm]\n"
		    "device_groups/dg1/target_groups/tg1/mgmt: del t1 [rm]\n");
	live = live_dg1();
	expect_plan(HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n}\n", live,
		    "device_groups/dg1/target_groups/mgmt: del tg1 [rm]\n");
	/* the file drops the group, a device and a target: group first */
	live = live_dg1();
	expect_plan("HANDLER vdisk_nullio {\n DEVICE d2\n}\n"
		    "TARGET_DRIVER scst_local {\n TARGET t2\n}\n", live,
		    "device_groups/mgmt: del dg1 [rm]\n"
		    "targets/scst_local/mgmt: del_target t1 [rm]\n"
		    "handlers/vdisk_nullio/mgmt: del_device d1 [rm]\n");
}

/*
 * SCST keeps a device in one device group and a target in one target
 * group of a device group: a move is the removal (with -force) and the
 * add that goes with it.
 */
static void test_diff_moves(void **state)
{
	struct tree *live = live_dg1();
	struct tgt_group *tg2 = dgroup_add_tgroup(live->dgroups.v[0], "tg2");

	(void)state;
	wattr(&tg2->attrs, "group_id", "2");
	expect_plan(HND DRV "DEVICE_GROUP dg1 {\n"
		    " TARGET_GROUP tg1 {\n  group_id 1\n }\n"
		    " TARGET_GROUP tg2 {\n  group_id 2\n  TARGET t1\n }\n}\n"
		    "DEVICE_GROUP dg2 {\n DEVICE d1\n}\n",
		    live,
		    "device_groups/dg1/devices/mgmt: del d1 [rm]\n"
		    "device_groups/dg1/target_groups/tg1/mgmt: del t1 [rm]\n"
		    "device_groups/dg1/target_groups/tg2/mgmt: add t1 [part]\n"
		    "device_groups/mgmt: create dg2\n"
		    "device_groups/dg2/devices/mgmt: add d1 [part]\n");
}

/* closing a device to re-open it takes it out of its group: re-added */
static void test_diff_recreated(void **state)
{
	struct tree *live = live_dg1();
	struct device *d = tree_find_device(live, "d1", NULL);

	(void)state;
	attr_add(&d->attrs, "size_mb", "64");
	expect_plan("HANDLER vdisk_nullio {\n DEVICE d1 { size_mb 128 }\n DEVICE d2\n}\n"
		    DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n"
		    " TARGET_GROUP tg1 {\n  group_id 1\n  TARGET t1\n }\n}\n",
		    live,
		    "handlers/vdisk_nullio/mgmt: del_device d1 [rm]\n"
		    "handlers/vdisk_nullio/mgmt: add_device d1 size_mb=128 [part]\n"
		    "device_groups/dg1/devices/mgmt: add d1 [part]\n");
}

/* no device_groups/: one warning per block, nothing written */
static void test_diff_no_alua(void **state)
{
	(void)state;
	expect_plan(HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n}\n"
		    "DEVICE_GROUP dg2 {\n}\n", live_base(false),
		    "-- ALUA not supported by the running modules (no device_groups in the management tree): DEVICE_GROUP dg1 (line 9) skipped\n"
		    "-- ALUA not supported by the running modules (no device_groups in the management tree): DEVICE_GROUP dg2 (line 12) skipped\n");
}

/*
 * rel_tgt_id in a target group: another system's target's is written;
 * one of this system's is its own TARGET_DRIVER attribute (warned,
 * unless it says what the target has); group_id 0 is never written.
 */
static void test_diff_ttgt_attrs(void **state)
{
	struct tree *live = live_dg1();
	struct tgt_group *tg = live->dgroups.v[0]->tgroups.v[0];
	struct target *peer = tgroup_add_target(tg, "peer");
	struct target *t1 = driver_find_target(live->drivers.v[0], "t1");

	(void)state;
	wattr(&peer->attrs, "rel_tgt_id", "3");
	wattr(&t1->attrs, "rel_tgt_id", "1");
	expect_plan(HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n"
		    " TARGET_GROUP tg1 {\n  group_id 0\n"
		    "  TARGET t1 { rel_tgt_id 1 }\n  TARGET peer { rel_tgt_id 4 }\n }\n}\n",
		    live,
		    "device_groups/dg1/target_groups/tg1/peer/rel_tgt_id: 4\n"
		    "-- target group tg1: group_id 0 (never set) cannot be written; left at 1\n");
	live = live_dg1();
	expect_plan(HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n"
		    " TARGET_GROUP tg1 {\n  group_id 1\n  TARGET t1 { rel_tgt_id 7 }\n }\n}\n",
		    live,
		    "-- target t1 of target group tg1: attribute rel_tgt_id=7 ignored: t1 is a target of this system, whose rel_tgt_id is set in its TARGET_DRIVER section\n");
}

/* a device whose handler is not loaded: its membership is skipped */
static void test_diff_skipped_handler(void **state)
{
	(void)state;
	expect_plan(HND "HANDLER vdisk_fileio {\n DEVICE f1\n}\n"
		    "DEVICE_GROUP dg1 {\n DEVICE d1\n DEVICE f1\n}\n",
		    live_base(true),
		    "device_groups/mgmt: create dg1\n"
		    "device_groups/dg1/devices/mgmt: add d1\n"
		    "-- handler 'vdisk_fileio' is not loaded (no handlers/vdisk_fileio in the management tree): HANDLER vdisk_fileio (line 5) and its 1 device(s) skipped\n"
		    "-- device f1 of device group dg1 skipped: its handler is not loaded\n");
}

/* a target of a driver that is not loaded is not taken for a remote one */
static void test_diff_skipped_driver(void **state)
{
	(void)state;
	expect_plan(HND DRV "TARGET_DRIVER ib_srpt {\n TARGET gid1\n}\n"
		    "DEVICE_GROUP dg1 {\n TARGET_GROUP tg1 {\n"
		    "  TARGET gid1\n  TARGET t1\n }\n}\n", live_base(true),
		    "device_groups/mgmt: create dg1\n"
		    "device_groups/dg1/target_groups/mgmt: create tg1\n"
		    "device_groups/dg1/target_groups/tg1/mgmt: add t1\n"
		    "-- target driver 'ib_srpt' is not loaded (no targets/ib_srpt in the management tree): TARGET_DRIVER ib_srpt (line 9) skipped\n"
		    "-- target gid1 of target group tg1 skipped: its target driver is not loaded\n");
}

/* ---- the command line on SCST's sysfs layout --------------------------- */

#define DGD	"device_groups/dg1/"
#define TGD	DGD "target_groups/tg1/"

/*
 * device_groups/dg1 with member n1 and target group tg1 { group_id 1,
 * state active }: gid1 (this system's ib_srpt target) as a link to its
 * directory, peer (another system's) as a directory with rel_tgt_id.
 */
static void prep_scst_alua(void)
{
	fake_put("device_groups/mgmt", "");
	fake_put(DGD "devices/mgmt", "");
	fake_link(DGD "devices/n1", "../../../devices/n1");
	fake_put(DGD "target_groups/mgmt", "");
	fake_put(TGD "mgmt", "");
	fake_put(TGD "group_id", "1\n[key]\n");
	fake_put(TGD "preferred", "0\n[key]\n");
	fake_put(TGD "state", "active\n[key]\n");
	fake_link(TGD "gid1", "../../../../targets/ib_srpt/gid1");
	fake_put(TGD "peer/rel_tgt_id", "5\n[key]\n");
}

#define LIVE_CONF \
	"HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n}\n" \
	"TARGET_DRIVER ib_srpt {\n\tTARGET gid1 {\n\t\tenabled 1\n" \
	"\t\trel_tgt_id 1\n\t\tLUN 0 n1\n\t\tGROUP g1 {\n" \
	"\t\t\tINITIATOR 0x12*\n\t\t}\n\t}\n}\n"
#define LIVE_DG \
	"DEVICE_GROUP dg1 {\n\tDEVICE n1\n\n\tTARGET_GROUP tg1 {\n" \
	"\t\tgroup_id 1\n\t\tpreferred 0\n\t\tstate active\n" \
	"\t\tTARGET gid1\n\t\tTARGET peer {\n\t\t\trel_tgt_id 5\n\t\t}\n" \
	"\t}\n}\n"

static const struct opt_case cases[] = {
	{ "write_config: SCST's block, a local target without attributes",
	  A("-write_config", "-"), .prep = prep_scst_alua,
	  .out = LIVE_DG },
	{ "config of what write_config wrote: no changes",
	  A("-config", "@CONF"), .prep = prep_scst_alua,
	  .conf = LIVE_CONF LIVE_DG, .out = "no changes" },
	{ "config: state standby",
	  A("-config", "@CONF"), .prep = prep_scst_alua,
	  .conf = LIVE_CONF
		  "DEVICE_GROUP dg1 {\n\tDEVICE n1\n\tTARGET_GROUP tg1 {\n"
		  "\t\tgroup_id 1\n\t\tstate standby\n\t\tTARGET gid1\n"
		  "\t\tTARGET peer {\n\t\t\trel_tgt_id 5\n\t\t}\n\t}\n}\n",
	  .out = "-> set target group tg1 attribute state=standby\n",
	  .file = TGD "state", .content = "standby\n" },
	{ "config: remote rel_tgt_id",
	  A("-config", "@CONF"), .prep = prep_scst_alua,
	  .conf = LIVE_CONF
		  "DEVICE_GROUP dg1 {\n\tDEVICE n1\n\tTARGET_GROUP tg1 {\n"
		  "\t\tgroup_id 1\n\t\tTARGET gid1\n"
		  "\t\tTARGET peer {\n\t\t\trel_tgt_id 6\n\t\t}\n\t}\n}\n",
	  .file = TGD "peer/rel_tgt_id", .content = "6\n" },
	{ "config without the block: not made without -force",
	  A("-config", "@CONF"), .prep = prep_scst_alua, .conf = LIVE_CONF,
	  .out = "-> not made: remove device group dg1, and with it device(s) n1; target group(s) tg1 (2 target(s))" },
	{ "config without a target: -force",
	  A("-config", "@CONF", "-force"), .prep = prep_scst_alua,
	  .conf = LIVE_CONF
		  "DEVICE_GROUP dg1 {\n\tDEVICE n1\n\tTARGET_GROUP tg1 {\n"
		  "\t\tgroup_id 1\n\t\tTARGET gid1\n\t}\n}\n",
	  .out = "-> remove target peer from target group tg1\n",
	  .file = TGD "mgmt", .content = "del peer\n" },
	{ "check_config: a bad state is a config error",
	  A("-check_config", "@CONF"), .prep = prep_scst_alua,
	  .conf = LIVE_CONF
		  "DEVICE_GROUP dg1 {\n\tTARGET_GROUP tg1 {\n\t\tstate up\n\t}\n}\n",
	  .rc = EXIT_CONFIG,
	  .err = ".conf:18:3: bad state 'up' of TARGET_GROUP 'tg1'" },
	{ "config: a bad group_id changes nothing",
	  A("-config", "@CONF"), .prep = prep_scst_alua,
	  .conf = LIVE_CONF "TARGET_DRIVER ib_srpt {\n}\n"
		  "DEVICE_GROUP dg1 {\n\tTARGET_GROUP tg1 {\n\t\tgroup_id 70000\n\t}\n}\n",
	  .rc = EXIT_CONFIG, .err = "expected 1 to 65535" },
	{ "clear_config removes the device groups",
	  A("-clear_config", "-force", "-noprompt"), .prep = prep_scst_alua,
	  .out = "-> remove device group dg1",
	  .file = "device_groups/mgmt", .content = "del dg1\n" },
	{ "check_config: the plan of a state change",
	  A("-check_config", "@CONF"), .prep = prep_scst_alua,
	  .conf = LIVE_CONF
		  "DEVICE_GROUP dg1 {\n\tDEVICE n1\n\tTARGET_GROUP tg1 {\n"
		  "\t\tgroup_id 1\n\t\tstate offline\n\t\tTARGET gid1\n"
		  "\t\tTARGET peer {\n\t\t\trel_tgt_id 5\n\t\t}\n\t}\n}\n",
	  .out = "would set target group tg1 attribute state=offline\n" },
	{ "set_tgrp_attr state",
	  A("-set_tgrp_attr", "tg1", "-dev_group", "dg1", "-attributes",
	    "state=nonoptimized"), .prep = prep_scst_alua,
	  .file = TGD "state", .content = "nonoptimized\n" },
	{ "set_ttgt_attr remote",
	  A("-set_ttgt_attr", "peer", "-dev_group", "dg1", "-tgt_group", "tg1",
	    "-attributes", "rel_tgt_id=7"), .prep = prep_scst_alua,
	  .file = TGD "peer/rel_tgt_id", .content = "7\n" },
	{ "list_tgrp",
	  A("-list_tgrp", "-dev_group", "dg1"), .prep = prep_scst_alua,
	  .out = "\tTarget group: tg1\n\t\tTarget: gid1\n\t\tTarget: peer\n" },
	{ "add_tgrp_tgt without -dev_group",
	  A("-add_tgrp_tgt", "t9", "-tgt_group", "tg1"), .prep = prep_scst_alua,
	  .rc = EXIT_USAGE, .err = "-add_tgrp_tgt needs -dev_group" },
	{ "rem_tgrp unknown target group",
	  A("-rem_tgrp", "nosuch", "-dev_group", "dg1"), .prep = prep_scst_alua,
	  .rc = EXIT_NOTFOUND,
	  .err = "target group 'nosuch' of device group 'dg1' does not exist" },
	{ "add_dgrp that exists", A("-add_dgrp", "dg1"), .prep = prep_scst_alua,
	  .rc = EXIT_SYSFS, .err = "device group 'dg1' already exists" },
	{ "rem_dgrp unknown", A("-rem_dgrp", "dg9"), .prep = prep_scst_alua,
	  .rc = EXIT_NOTFOUND, .err = "device group 'dg9' does not exist" },
	{ "add_dgrp_dev of a device in a group",
	  A("-add_dgrp_dev", "n1", "-dev_group", "dg1"), .prep = prep_scst_alua,
	  .rc = EXIT_SYSFS,
	  .err = "device 'n1' is already in device group 'dg1' (a device belongs to one device group)" },
	{ "rem_dgrp_dev of a device not in it",
	  A("-rem_dgrp_dev", "n2", "-dev_group", "dg1"), .prep = prep_scst_alua,
	  .rc = EXIT_NOTFOUND, .err = "device 'n2' is not in device group 'dg1'" },
	{ "add_tgrp that exists",
	  A("-add_tgrp", "tg1", "-dev_group", "dg1"), .prep = prep_scst_alua,
	  .rc = EXIT_SYSFS,
	  .err = "target group 'tg1' of device group 'dg1' already exists" },
	{ "add_tgrp_tgt of a target in a group",
	  A("-add_tgrp_tgt", "peer", "-dev_group", "dg1", "-tgt_group", "tg1"),
	  .prep = prep_scst_alua, .rc = EXIT_SYSFS,
	  .err = "target 'peer' is already in target group 'tg1' of device group 'dg1'" },
	{ "rem_tgrp_tgt of a target not in it",
	  A("-rem_tgrp_tgt", "t9", "-dev_group", "dg1", "-tgt_group", "tg1"),
	  .prep = prep_scst_alua, .rc = EXIT_NOTFOUND,
	  .err = "target 't9' is not in target group 'tg1'" },
	{ "add_tgrp_tgt", A("-add_tgrp_tgt", "t9", "-dev_group", "dg1",
			    "-tgt_group", "tg1"), .prep = prep_scst_alua,
	  .file = TGD "mgmt", .content = "add t9\n" },
	{ "rem_tgrp_tgt of a local target",
	  A("-rem_tgrp_tgt", "gid1", "-dev_group", "dg1", "-tgt_group", "tg1"),
	  .prep = prep_scst_alua, .file = TGD "mgmt", .content = "del gid1\n" },
	{ "set_tgrp_attr without ALUA",
	  A("-set_tgrp_attr", "tg1", "-dev_group", "dg1", "-attributes",
	    "state=active"), .rc = EXIT_NOTSUPP,
	  .err = "-set_tgrp_attr: ALUA (device and target groups) is not supported by the running modules" },
	{ "list_tgrp without ALUA", A("-list_tgrp"), .rc = EXIT_NOTSUPP,
	  .err = "is not supported by the running modules" },
};

/*
 * The apply step on the writes of a new device group: the fake tree has
 * the files the kernel would make on each "create" (a fake tree does
 * not make them), the live tree is the one before. Each mgmt file gets
 * its commands in order; an attribute equal to the file's is not
 * written (preferred), group_id 0 is never written, others are.
 */
static void test_apply_fake_tree(void **state)
{
	struct tree *want = parse_ok(
		HND DRV "DEVICE_GROUP dg1 {\n DEVICE d1\n"
		" TARGET_GROUP tg1 {\n  group_id 3\n  preferred 0\n"
		"  state standby\n  TARGET t1\n  TARGET peer { rel_tgt_id 9 }\n }\n"
		" TARGET_GROUP tg2 {\n  group_id 0\n }\n}\n");
	struct tree *live = live_base(true);
	action_vec acts = { 0 };
	str_vec warns = { 0 };
	struct apply_result res;
	struct sysfs sys;
	char err[256];

	(void)state;
	fake_put(DGD "devices/mgmt", "");
	fake_put("device_groups/mgmt", "");
	fake_put(DGD "target_groups/mgmt", "");
	fake_put(TGD "mgmt", "");
	fake_put(TGD "group_id", "0\n[key]\n");
	fake_put(TGD "preferred", "0\n[key]\n");
	fake_put(TGD "state", "active\n[key]\n");
	fake_put(TGD "peer/rel_tgt_id", "0\n[key]\n");
	fake_put(DGD "target_groups/tg2/mgmt", "");
	fake_put(DGD "target_groups/tg2/group_id", "0\n[key]\n");
	assert_int_equal(diff_trees(want, live, NULL, &acts, &warns, err,
				    sizeof(err)), 0);
	assert_int_equal(sysfs_open(&sys, fake_root), 0);
	assert_int_equal(apply_actions(&sys, &acts, false, false, &res),
			 EXIT_OK);
	check_file("device_groups/mgmt", "create dg1\n");
	check_file(DGD "devices/mgmt", "add d1\n");
	check_file(DGD "target_groups/mgmt", "create tg1\ncreate tg2\n");
	check_file(TGD "mgmt", "add t1\nadd peer\n");
	check_file(TGD "group_id", "3\n");
	check_file(TGD "preferred", "0\n[key]\n");
	check_file(TGD "state", "standby\n");
	check_file(TGD "peer/rel_tgt_id", "9\n");
	check_file(DGD "target_groups/tg2/group_id", "0\n[key]\n");
	assert_int_equal(res.failed, 0);
	assert_int_equal(res.skipped, 1);
	assert_int_equal(res.not_forced, 0);
	assert_int_equal(warns.n, 0);
	sysfs_close(&sys);
	actions_free(&acts);
	strs_free(&warns);
	tree_free(want);
	tree_free(live);
}

int main(void)
{
	static const struct CMUnitTest pure[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_tg_ports),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_equal_sees_changes),
		cmocka_unit_test(test_diff_create),
		cmocka_unit_test(test_diff_same),
		cmocka_unit_test(test_diff_changes),
		cmocka_unit_test(test_diff_removals),
		cmocka_unit_test(test_diff_moves),
		cmocka_unit_test(test_diff_recreated),
		cmocka_unit_test(test_diff_no_alua),
		cmocka_unit_test(test_diff_ttgt_attrs),
		cmocka_unit_test(test_diff_skipped_handler),
		cmocka_unit_test(test_diff_skipped_driver),
		cmocka_unit_test_setup_teardown(test_apply_fake_tree,
						fake_setup, fake_teardown),
	};

	return run_cases("scstadmin_alua", cases,
			 sizeof(cases) / sizeof(cases[0]), pure,
			 sizeof(pure) / sizeof(pure[0]));
}
