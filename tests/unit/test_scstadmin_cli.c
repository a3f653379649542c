// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fake-sysfs tests of the scstadmin binary, by scenario: each test starts
 * from the harness's tree (test_scstadmin_harness.c), runs scstadmin
 * --sysfs-root on it and checks the exit status, the message and what was
 * written into the mgmt files. test_scstadmin_opts.c goes option by
 * option.
 */
#include <errno.h>
#include <unistd.h>

#include "scstadmin_unit.h"

static void test_help_and_usage(void **state)
{
	struct res r = run("-h", NULL);

	(void)state;
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "-add_lun"));
	/* -force's line names all it gates, as scstadmin(1) does */
	{
		const char *f = strstr(r.out, "  -force ");
		const char *gated[] = { "-config", "-close_dev", "-rem_group",
					"-clear_config", "empty", "suspend" };

		assert_non_null(f);
		for (size_t i = 0; i < sizeof(gated) / sizeof(gated[0]); i++) {
			const char *nl = strchr(f, '\n');
			const char *g = strstr(f, gated[i]);

			if (!g || (nl && g > nl))
				fail_msg("-h: -force does not name %s", gated[i]);
		}
	}
	res_free(&r);
	r = run("-bogus", NULL);
	EXPECT(r, EXIT_USAGE, "unknown option '-bogus'");
	res_free(&r);
	r = run("-add_lun", NULL);
	EXPECT(r, EXIT_USAGE, "-add_lun needs an argument");
	res_free(&r);
	r = run("-list_device", "-list_target", NULL);
	EXPECT(r, EXIT_USAGE, "one command at a time");
	res_free(&r);
}

static void test_no_scst(void **state)
{
	static const struct run_env none = { .root = "/nonexistent/scst" };
	static const char *const args[] = { "-list_device", NULL };
	struct res r = run_argv(&none, args);

	(void)state;
	EXPECT(r, EXIT_NOSCST, "SCST is not loaded");
	res_free(&r);
}

static void test_lists(void **state)
{
	struct res r = run("-list_device", NULL);

	(void)state;
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "n1"));
	assert_non_null(strstr(r.out, "vdisk_nullio"));
	res_free(&r);
	r = run("-list_group", NULL);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "Group: g1"));
	assert_non_null(strstr(r.out, "INITIATOR 0x12*"));
	res_free(&r);
	r = run("-list_dev_attr", "n1", NULL);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "size_mb"));
	res_free(&r);
	r = run("-list_dev_attr", "nodev", NULL);
	EXPECT(r, EXIT_NOTFOUND, "device 'nodev' does not exist");
	res_free(&r);
	r = run("-list_tgt_attr", "nogid", "-driver", "ib_srpt", NULL);
	EXPECT(r, EXIT_NOTFOUND, "target 'nogid' of driver 'ib_srpt' does not exist");
	res_free(&r);
}

static void test_device_cmds(void **state)
{
	struct res r = run("-open_dev", "n2", "-handler", "vdisk_nullio",
			   "-attributes", "size_mb=128,read_only=1", NULL);

	(void)state;
	assert_int_equal(r.rc, 0);
	res_free(&r);
	r = run("-close_dev", "n1", "-handler", "vdisk_nullio", "-force", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("handlers/vdisk_nullio/mgmt",
		   "add_device n2 size_mb=128;read_only=1\ndel_device n1\n");
	r = run("-open_dev", "n3", "-handler", "vdisk_nohandler", NULL);
	EXPECT(r, EXIT_NOTFOUND, "handler 'vdisk_nohandler' is not loaded");
	res_free(&r);
	r = run("-close_dev", "nodev", "-handler", "vdisk_nullio", NULL);
	EXPECT(r, EXIT_NOTFOUND, "device 'nodev' of handler 'vdisk_nullio' does not exist");
	res_free(&r);
	r = run("-open_dev", "n1", NULL);
	EXPECT(r, EXIT_USAGE, "-open_dev needs -handler");
	res_free(&r);
}

static void test_target_cmds(void **state)
{
	struct res r;

	(void)state;
	r = run("-add_lun", "1", "-driver", "ib_srpt", "-target", "gid1",
		"-device", "n1", "-attributes", "read_only=1", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	r = run("-add_lun", "2", "-driver", "ib_srpt", "-target", "gid1",
		"-group", "g1", "-device", "n1", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	r = run("-rem_lun", "0", "-driver", "ib_srpt", "-target", "gid1", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("targets/ib_srpt/gid1/luns/mgmt",
		   "add n1 1 read_only=1\ndel 0\n");
	check_file("targets/ib_srpt/gid1/ini_groups/g1/luns/mgmt",
		   "add n1 2\n");
	r = run("-add_group", "g2", "-driver", "ib_srpt", "-target", "gid1",
		NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("targets/ib_srpt/gid1/ini_groups/mgmt", "create g2\n");
	fake_put("targets/ib_srpt/gid1/ini_groups/g2/initiators/mgmt", "");
	r = run("-add_init", "iqn.x*", "-driver", "ib_srpt", "-target", "gid1",
		"-group", "g1", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	r = run("-move_init", "0x12*", "-driver", "ib_srpt", "-target", "gid1",
		"-group", "g1", "-to", "g2", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("targets/ib_srpt/gid1/ini_groups/g1/initiators/mgmt",
		   "add iqn.x*\nmove 0x12* g2\n");
	r = run("-disable_target", "gid1", "-driver", "ib_srpt", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("targets/ib_srpt/gid1/enabled", "0\n");
	r = run("-add_target", "t2", "-driver", "ib_srpt", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("targets/ib_srpt/mgmt", "add_target t2\n");
	/* errors */
	r = run("-add_lun", "1", "-driver", "ib_srpt", "-target", "nogid",
		"-device", "n1", NULL);
	EXPECT(r, EXIT_NOTFOUND, "target 'nogid' of driver 'ib_srpt' does not exist");
	res_free(&r);
	r = run("-add_lun", "1", "-driver", "ib_srpt", "-target", "gid1",
		"-device", "nodev", NULL);
	EXPECT(r, EXIT_NOTFOUND, "device 'nodev' does not exist");
	res_free(&r);
	r = run("-add_lun", "16384", "-driver", "ib_srpt", "-target", "gid1",
		"-device", "n1", NULL);
	EXPECT(r, EXIT_USAGE, "bad LUN number '16384'");
	res_free(&r);
	r = run("-rem_lun", "7", "-driver", "ib_srpt", "-target", "gid1", NULL);
	EXPECT(r, EXIT_NOTFOUND, "LUN 7 of target 'gid1' does not exist");
	res_free(&r);
	r = run("-add_init", "x", "-driver", "ib_srpt", "-target", "gid1",
		"-group", "nogroup", NULL);
	EXPECT(r, EXIT_NOTFOUND, "group 'nogroup' of target 'gid1' does not exist");
	res_free(&r);
	r = run("-add_group", "g", "-driver", "iscsi", "-target", "t", NULL);
	EXPECT(r, EXIT_NOTFOUND, "driver 'iscsi' is not loaded");
	res_free(&r);
}

static void test_set_attr(void **state)
{
	struct res r;

	(void)state;
	r = run("-set_tgt_attr", "gid1", "-driver", "ib_srpt", "-attributes",
		"cpu_mask=3", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("targets/ib_srpt/gid1/cpu_mask", "3\n");
	r = run("-set_grp_attr", "g1", "-driver", "ib_srpt", "-target", "gid1",
		"-attributes", "cpu_mask=f", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("targets/ib_srpt/gid1/ini_groups/g1/cpu_mask", "f\n");
	r = run("-set_scst_attr", "-attributes", "setup_id=0x5", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("setup_id", "0x5\n");
	/* nothing is written when one attribute does not exist */
	r = run("-set_dev_attr", "n1", "-attributes", "blocksize=4096,nosuch=1",
		NULL);
	EXPECT(r, EXIT_NOTFOUND, "device 'n1' has no attribute 'nosuch'");
	res_free(&r);
	check_file("devices/n1/blocksize", "512\n");
	r = run("-set_dev_attr", "nodev", "-attributes", "a=1", NULL);
	EXPECT(r, EXIT_NOTFOUND, "device 'nodev' does not exist");
	res_free(&r);
	/* a bare key is key=1 (SCST's form), then checked like the others */
	r = run("-set_dev_attr", "n1", "-attributes", "junk", NULL);
	EXPECT(r, EXIT_NOTFOUND, "device 'n1' has no attribute 'junk'");
	res_free(&r);
	r = run("-set_dev_attr", "n1", "-attributes", "=1", NULL);
	EXPECT(r, EXIT_USAGE, "bad attribute '=1': expected key=value or key");
	res_free(&r);
}

/*
 * -write_config [@opt] to a file that parses, and that -config applies
 * without a change to the tree; returns the file's text.
 */
static char *write_reapply(const char *opt)
{
	char *before = fake_snapshot();
	char path[300], err[512];
	struct tree *t;
	struct res r;
	char *s;

	snprintf(path, sizeof(path), "%s.conf", fake_root);
	r = run("-write_config", path, opt, NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	t = conf_parse_file(path, err, sizeof(err));
	if (!t)
		fail_msg("written config does not parse: %s", err);
	tree_free(t);
	r = run("-config", path, NULL);
	EXPECT(r, 0, "");
	assert_non_null(strstr(r.out, "no changes"));
	assert_string_equal(r.err, "");
	res_free(&r);
	check_unchanged(before);
	free(before);
	s = slurp(path);
	unlink(path);
	return s;
}

static void test_write_config(void **state)
{
	char *s = write_reapply(NULL);

	(void)state;
	assert_non_null(strstr(s, "\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n"));
	assert_non_null(strstr(s, "\t\tenabled 1\n\t\trel_tgt_id 1\n\n\t\tLUN 0 n1\n"));
	assert_non_null(strstr(s, "\t\tGROUP g1 {\n\t\t\tINITIATOR 0x12*\n\t\t}\n"));
	assert_null(strstr(s, "cpu_mask"));	/* not a key attribute */
	free(s);
}

/* -nonkey: the other attributes as comments, under each object's keys */
static void test_write_config_nonkey(void **state)
{
	char *s = write_reapply("-nonkey");

	(void)state;
	assert_non_null(strstr(s, "\tDEVICE n1 {\n\t\tsize_mb 64\n\n"
				  "\t\t# Non-key attributes\n"
				  "\t\t# blocksize 512\n\t\t# read_only 0\n\t}\n"));
	assert_non_null(strstr(s, "\t\tLUN 0 n1 {\n\t\t\t# Non-key attributes\n"
				  "\t\t\t# read_only 0\n\t\t}\n"));
	assert_non_null(strstr(s, "\t\t\tINITIATOR 0x12*\n\n"
				  "\t\t\t# Non-key attributes\n"
				  "\t\t\t# cpu_mask ff\n\t\t}\n"));
	assert_non_null(strstr(s, "\t\t# Non-key attributes\n\t\t# cpu_mask ff\n"));
	free(s);
}

static void test_config_apply(void **state)
{
	char path[300];
	struct res r;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s.conf", fake_root);
	f = fopen(path, "w");
	fputs("HANDLER vdisk_nullio {\n DEVICE n1 { size_mb 64 }\n"
	      " DEVICE n2 { size_mb 32 }\n}\n"
	      "TARGET_DRIVER ib_srpt {\n TARGET gid1 {\n  enabled 1\n"
	      "  rel_tgt_id 1\n  LUN 0 n1\n  LUN 1 n2\n"
	      "  GROUP g1 {\n   INITIATOR 0x12*\n   INITIATOR 0x34*\n  }\n"
	      " }\n}\n", f);
	fclose(f);
	r = run("-check_config", path, NULL);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "would add device n2 (vdisk_nullio)"));
	res_free(&r);
	check_file("handlers/vdisk_nullio/mgmt", "");
	r = run("-config", path, NULL);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "3 change(s) made"));
	res_free(&r);
	check_file("handlers/vdisk_nullio/mgmt", "add_device n2 size_mb=32\n");
	check_file("targets/ib_srpt/gid1/luns/mgmt", "add n2 1\n");
	check_file("targets/ib_srpt/gid1/ini_groups/g1/initiators/mgmt",
		   "add 0x34*\n");
	/* a parse error changes nothing and names file:line:col */
	f = fopen(path, "w");
	fputs("HANDLER vdisk_nullio {\n DEVICE n9\n", f);
	fclose(f);
	r = run("-config", path, NULL);
	EXPECT(r, EXIT_CONFIG, ":3:1: unexpected end of file: expected '}'");
	res_free(&r);
	check_file("handlers/vdisk_nullio/mgmt", "add_device n2 size_mb=32\n");
	unlink(path);
}

static void test_config_in_use(void **state)
{
	char path[300];
	struct res r;
	FILE *f;

	(void)state;
	fake_put("targets/ib_srpt/gid1/sessions/0x12ab/initiator_name", "0x12ab\n");
	snprintf(path, sizeof(path), "%s.conf", fake_root);
	f = fopen(path, "w");
	fputs("HANDLER vdisk_nullio {\n}\n", f);	/* drops n1 */
	fclose(f);
	/* SCST's rule: without -force nothing the file lacks is removed */
	r = run("-config", path, NULL);
	assert_int_equal(r.rc, EXIT_OK);
	assert_non_null(strstr(r.out,
		"-> not made: remove device n1 (vdisk_nullio), and with it LUN 0 of target gid1 (ib_srpt) (in use: a target with sessions; use -force to make it)"));
	res_free(&r);
	check_file("handlers/vdisk_nullio/mgmt", "");
	r = run("-config", path, "-force", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("handlers/vdisk_nullio/mgmt", "del_device n1\n");
	r = run("-clear_config", NULL);
	EXPECT(r, EXIT_INUSE, "add -force");
	res_free(&r);
	unlink(path);
}

static void test_eagain(void **state)
{
	struct sysfs s;

	(void)state;
	assert_int_equal(sysfs_open(&s, fake_root), 0);
	s.eagain_timeout_ms = 100;
	fake_put("last_sysfs_mgmt_res", "0\n");
	assert_int_equal(sysfs_resolve_eagain(&s), 0);
	fake_put("last_sysfs_mgmt_res", "-22\n");
	assert_int_equal(sysfs_resolve_eagain(&s), -EINVAL);
	fake_put("last_sysfs_mgmt_res", "-11\n");
	assert_int_equal(sysfs_resolve_eagain(&s), -ETIMEDOUT);
	sysfs_close(&s);
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, fake_setup, fake_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_help_and_usage),
		TEST(test_no_scst),
		TEST(test_lists),
		TEST(test_device_cmds),
		TEST(test_target_cmds),
		TEST(test_set_attr),
		TEST(test_write_config),
		TEST(test_write_config_nonkey),
		TEST(test_config_apply),
		TEST(test_config_in_use),
		TEST(test_eagain),
	};

	return cmocka_run_group_tests_name("scstadmin_cli", tests, NULL, NULL);
}
