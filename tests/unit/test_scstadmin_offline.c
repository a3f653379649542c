// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin's list of the DEVICE attributes of scst-ng's vdisk handlers
 * (usr/scstadmin/offline.c, what -check_config knows without the modules)
 * against the handlers' own add_device parameters
 * (dev_handlers/vdisk_params.c): every parameter is a known attribute, so
 * a file that the modules accept is never flagged.
 */
#include "scstadmin_unit.h"
#include "vdisk_params.h"

static void check_kind(enum vdisk_kind kind, const char *handler)
{
	const char *const *params = vdisk_kind_params(kind);
	const char *const *attrs = offline_dev_attrs(handler);

	assert_non_null(attrs);
	for (; *params; params++) {
		const char *const *a = attrs;

		while (*a && strcmp(*a, *params))
			a++;
		if (!*a)
			fail_msg("%s: add_device parameter '%s' unknown to scstadmin",
				 handler, *params);
	}
}

static void test_vdisk_params_known(void **state)
{
	(void)state;
	check_kind(VDISK_KIND_BLOCKIO, "vdisk_blockio");
	check_kind(VDISK_KIND_FILEIO, "vdisk_fileio");
	check_kind(VDISK_KIND_NULLIO, "vdisk_nullio");
	assert_non_null(offline_dev_attrs("dev_disk"));
	assert_null(offline_dev_attrs("vcdrom"));
}

/* -check_config refuses what the modules refuse, with the same reason */
static void test_refusals_agree(void **state)
{
	static const char *const cases[][2] = {
		{ "cluster_mode", "0" }, { "cluster_mode", "1" },
		{ "cluster_mode", "yes" }, { "dif_mode", "dev_check" },
		{ "dif_type", "1" }, { "dif_static_app_tag", "0x1234" },
		{ "dif_filename", "/a" }, { "read_zero", "1" },
		{ "active", "0" }, { "filename", "/a" },
	};
	const char *a, *b;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		a = offline_refusal(cases[i][0], cases[i][1]);
		b = vdisk_unsupported_param(cases[i][0]);
		if (!a || !b) {
			if (a != b)
				fail_msg("%s=%s: scstadmin '%s', modules '%s'",
					 cases[i][0], cases[i][1],
					 a ? a : "(accepted)",
					 b ? b : "(accepted)");
			continue;
		}
		assert_string_equal(a, b);
	}
	assert_null(offline_refusal("cluster_mode", "0"));
	assert_null(offline_refusal("cluster_mode", "1"));
}

/* the core refuses threads_num but 0 for the handlers that do not sleep */
static void test_threads_num_refused(void **state)
{
	(void)state;
	assert_non_null(offline_dev_refusal("vdisk_blockio", "threads_num", "1"));
	assert_non_null(offline_dev_refusal("vdisk_nullio", "threads_num", "4"));
	assert_null(offline_dev_refusal("vdisk_blockio", "threads_num", "0"));
	assert_null(offline_dev_refusal("vdisk_fileio", "threads_num", "4"));
	assert_null(offline_dev_refusal("dev_disk", "threads_num", "2"));
	assert_null(offline_dev_refusal("vdisk_fileio", "cluster_mode", "1"));
}

/* SCST's root attributes: honoured, inert, refused with a reason, unknown */
static void test_root_attrs(void **state)
{
	(void)state;
	assert_null(offline_root_refusal("setup_id", "0x1234"));
	assert_null(offline_root_refusal("measure_latency", "1"));
	assert_null(offline_root_refusal("poll_us", "0"));
	assert_null(offline_root_refusal("version", "3.11.0"));
	assert_true(root_attr_inert("poll_us", "0"));
	assert_false(root_attr_inert("poll_us", "10"));
	assert_false(root_attr_inert("setup_id", "0x1234"));
	assert_non_null(strstr(offline_root_refusal("poll_us", "10"), "poll"));
	assert_non_null(strstr(offline_root_refusal("max_tasklet_cmd", "10"),
			       "tasklet"));
	assert_null(offline_root_refusal("cluster_name", "c1"));
	assert_non_null(strstr(offline_root_refusal("trace_level", "default"),
			       "dyndbg"));
	assert_non_null(offline_root_refusal("threads", "8"));
	assert_non_null(offline_root_refusal("suspend", "1"));
	assert_string_equal(offline_root_refusal("setupid", "1"), "unknown");
}

/* cluster_mode 1 needs t10_dev_id, as the handlers say; 0 does not */
static void test_cluster_needs_id(void **state)
{
	static const char text[] =
		"HANDLER vdisk_nullio {\n"
		"\tDEVICE a {\n\t\tsize_mb 1\n\t\tcluster_mode 1\n\t}\n"
		"\tDEVICE b {\n\t\tt10_dev_id b\n\t\tcluster_mode 1\n\t}\n"
		"\tDEVICE c {\n\t\tcluster_mode 0\n\t}\n"
		"}\n";
	char err[256];
	struct tree *t = conf_parse("t.conf", text, err, sizeof(err));
	str_vec w = { 0 };

	(void)state;
	assert_non_null(t);
	assert_int_equal(conf_check_refusals(t, &w), 1);
	assert_int_equal(w.n, 1);
	assert_non_null(strstr(w.v[0], "t.conf:4: DEVICE a of vdisk_nullio: 'cluster_mode 1' needs 't10_dev_id'"));
	strs_free(&w);
	assert_int_equal(conf_check_offline(t, &w), 1);
	assert_non_null(strstr(w.v[0], "DEVICE a of vdisk_nullio"));
	strs_free(&w);
	tree_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vdisk_params_known),
		cmocka_unit_test(test_cluster_needs_id),
		cmocka_unit_test(test_refusals_agree),
		cmocka_unit_test(test_threads_num_refused),
		cmocka_unit_test(test_root_attrs),
	};

	return cmocka_run_group_tests_name("scstadmin_offline", tests, NULL,
					   NULL);
}
