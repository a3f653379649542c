// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fake-sysfs tests of the scstadmin binary: each test builds a small
 * management tree in a temporary directory (directories, attribute files,
 * plain-file mgmt files), runs scstadmin --sysfs-root on it and checks the
 * exit status, the message and what was written into the mgmt files.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scstadmin_unit.h"

#ifndef SCSTADMIN_BIN
#define SCSTADMIN_BIN "../../usr/scstadmin/scstadmin"
#endif

static char root[256];

static void put(const char *rel, const char *content)
{
	char p[512];
	char *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void link_to(const char *rel, const char *target)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = xcalloc(1, 65536);

	if (f) {
		size_t n = fread(buf, 1, 65535, f);

		buf[n] = '\0';
		fclose(f);
	}
	return buf;
}

static char *get(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return slurp(p);
}

/* A tree with one nullio device on an ib_srpt target with one group. */
static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/scstadmin-test.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("version", "3.11.0\n");
	put("setup_id", "0x0\n");
	put("last_sysfs_mgmt_res", "0\n");
	put("handlers/vdisk_nullio/mgmt", "");
	put("handlers/vdisk_nullio/type", "0 - Direct-access device (e.g., magnetic disk)\n");
	put("devices/n1/size_mb", "64\n[key]\n");
	put("devices/n1/read_only", "0\n");
	put("devices/n1/blocksize", "512\n");
	link_to("handlers/vdisk_nullio/n1", "../../devices/n1");
	link_to("devices/n1/handler", "../../handlers/vdisk_nullio");
	put("targets/ib_srpt/mgmt", "");
	put("targets/ib_srpt/gid1/enabled", "1\n[key]\n");
	put("targets/ib_srpt/gid1/rel_tgt_id", "1\n[key]\n");
	put("targets/ib_srpt/gid1/cpu_mask", "ff\n");
	put("targets/ib_srpt/gid1/luns/mgmt", "");
	put("targets/ib_srpt/gid1/luns/0/read_only", "0\n");
	link_to("targets/ib_srpt/gid1/luns/0/device", "../../../../../devices/n1");
	put("targets/ib_srpt/gid1/ini_groups/mgmt", "");
	put("targets/ib_srpt/gid1/ini_groups/g1/initiators/mgmt", "");
	put("targets/ib_srpt/gid1/ini_groups/g1/initiators/0x12*", "");
	put("targets/ib_srpt/gid1/ini_groups/g1/luns/mgmt", "");
	put("targets/ib_srpt/gid1/ini_groups/g1/cpu_mask", "ff\n");
	put("targets/ib_srpt/gid1/sessions/.keep", "");
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) != 0;
}

struct res {
	int rc;
	char *out, *err;
};

/* Run scstadmin --sysfs-root ROOT ARGS... (NULL-terminated). */
static struct res run(const char *arg, ...)
{
	const char *argv[32] = { SCSTADMIN_BIN, "--sysfs-root", root };
	char out[300], err[300];
	struct res r;
	int n = 3, st;
	va_list ap;
	pid_t pid;

	va_start(ap, arg);
	for (const char *a = arg; a && n < 31; a = va_arg(ap, const char *))
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	snprintf(out, sizeof(out), "/tmp/scstadmin-test.%d.out", (int)getpid());
	snprintf(err, sizeof(err), "/tmp/scstadmin-test.%d.err", (int)getpid());
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fi = open("/dev/null", O_RDONLY);

		dup2(fo, 1);
		dup2(fe, 2);
		dup2(fi, 0);
		unsetenv("SCST_SYSFS_ROOT");
		execv(SCSTADMIN_BIN, (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	r.out = slurp(out);
	r.err = slurp(err);
	unlink(out);
	unlink(err);
	return r;
}

static void res_free(struct res *r)
{
	free(r->out);
	free(r->err);
}

#define EXPECT(r, code, errtext) do {					\
	if ((r).rc != (code) || !strstr((r).err, (errtext)))		\
		fail_msg("rc %d (want %d), stderr '%s' (want '%s'), stdout '%s'", \
			 (r).rc, (code), (r).err, (errtext), (r).out);	\
} while (0)

static void check_file(const char *rel, const char *want)
{
	char *s = get(rel);

	if (strcmp(s, want))
		fail_msg("%s: got '%s', want '%s'", rel, s, want);
	free(s);
}

static void test_help_and_usage(void **state)
{
	struct res r = run("-h", NULL);

	(void)state;
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "-add_lun"));
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
	const char *argv[] = { SCSTADMIN_BIN, "--sysfs-root",
			       "/nonexistent/scst", "-list_device", NULL };
	char save[256];
	struct res r;

	(void)state;
	(void)argv;
	strcpy(save, root);
	strcpy(root, "/nonexistent/scst");
	r = run("-list_device", NULL);
	strcpy(root, save);
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
	r = run("-close_dev", "n1", "-handler", "vdisk_nullio", NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	check_file("handlers/vdisk_nullio/mgmt",
		   "add_device n2 size_mb=128;read_only=1\ndel_device n1\n");
	r = run("-open_dev", "n3", "-handler", "vdisk_nohandler", NULL);
	EXPECT(r, EXIT_NOTFOUND, "handler 'vdisk_nohandler' does not exist");
	res_free(&r);
	r = run("-close_dev", "nodev", "-handler", "vdisk_nullio", NULL);
	EXPECT(r, EXIT_NOTFOUND, "device 'nodev' does not exist");
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
	EXPECT(r, EXIT_NOTFOUND, "LUN 7 does not exist");
	res_free(&r);
	r = run("-add_init", "x", "-driver", "ib_srpt", "-target", "gid1",
		"-group", "nogroup", NULL);
	EXPECT(r, EXIT_NOTFOUND, "group 'nogroup' of target 'gid1' does not exist");
	res_free(&r);
	r = run("-add_group", "g", "-driver", "iscsi", "-target", "t", NULL);
	EXPECT(r, EXIT_NOTFOUND, "target driver 'iscsi' does not exist");
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
	r = run("-set_dev_attr", "n1", "-attributes", "junk", NULL);
	EXPECT(r, EXIT_USAGE, "bad attribute 'junk': expected key=value");
	res_free(&r);
}

static void test_write_config(void **state)
{
	char path[300], err[512];
	struct res r;
	struct tree *t;
	char *s;

	(void)state;
	snprintf(path, sizeof(path), "%s.conf", root);
	r = run("-write_config", path, NULL);
	assert_int_equal(r.rc, 0);
	res_free(&r);
	s = slurp(path);
	assert_non_null(strstr(s, "\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n"));
	assert_non_null(strstr(s, "\t\tenabled 1\n\t\trel_tgt_id 1\n\n\t\tLUN 0 n1\n"));
	assert_non_null(strstr(s, "\t\tGROUP g1 {\n\t\t\tINITIATOR 0x12*\n\t\t}\n"));
	assert_null(strstr(s, "cpu_mask"));	/* not a key attribute */
	free(s);
	t = conf_parse_file(path, err, sizeof(err));
	if (!t)
		fail_msg("written config does not parse: %s", err);
	tree_free(t);
	/* applying what was written changes nothing */
	r = run("-config", path, NULL);
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "no changes"));
	res_free(&r);
	check_file("handlers/vdisk_nullio/mgmt", "");
	check_file("targets/ib_srpt/gid1/luns/mgmt", "");
	unlink(path);
}

static void test_config_apply(void **state)
{
	char path[300];
	struct res r;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s.conf", root);
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
	put("targets/ib_srpt/gid1/sessions/0x12ab/initiator_name", "0x12ab\n");
	snprintf(path, sizeof(path), "%s.conf", root);
	f = fopen(path, "w");
	fputs("HANDLER vdisk_nullio {\n}\n", f);	/* drops n1 */
	fclose(f);
	r = run("-config", path, NULL);
	EXPECT(r, EXIT_INUSE, "use -force");
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
	assert_int_equal(sysfs_open(&s, root), 0);
	s.eagain_timeout_ms = 100;
	put("last_sysfs_mgmt_res", "0\n");
	assert_int_equal(sysfs_resolve_eagain(&s), 0);
	put("last_sysfs_mgmt_res", "-22\n");
	assert_int_equal(sysfs_resolve_eagain(&s), -EINVAL);
	put("last_sysfs_mgmt_res", "-11\n");
	assert_int_equal(sysfs_resolve_eagain(&s), -ETIMEDOUT);
	sysfs_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_help_and_usage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_scst, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lists, setup, teardown),
		cmocka_unit_test_setup_teardown(test_device_cmds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_target_cmds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_attr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_config, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_apply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_in_use, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eagain, setup, teardown),
	};

	return cmocka_run_group_tests_name("scstadmin_cli", tests, NULL, NULL);
}
