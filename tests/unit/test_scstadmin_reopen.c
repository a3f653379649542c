// SPDX-License-Identifier: GPL-2.0-only
/*
 * -config on a device whose creation parameters differ from the file (as
 * SCST's scstadmin): the handler's add_device parameters that are
 * read-only in sysfs (filename, blocksize) can only change by closing and
 * re-opening the device. Without -force that is refused and nothing
 * changes (exit 5); with -force the device is closed, opened with the
 * file's parameters, and every LUN that exported it is added again, on
 * the drivers the file names and on those it leaves alone.
 */
#include "scstadmin_unit.h"

#define FILEIO_USAGE \
	"Usage: echo \"add_device NAME filename=...\" >mgmt\n" \
	"The following parameters available: filename, blocksize, write_through\n"
#define SRPT	"targets/ib_srpt/gid1/"
#define LOCAL	"targets/scst_local/loc1/"

/*
 * The harness's tree plus fileio device d1 (/a, 512-byte blocks) exported
 * as LUN 1 of gid1, LUN 3 of its group g1, and LUN 0 and LUN 2 (of group
 * lg) of scst_local's loc1, a driver the files below do not name.
 */
static int setup_d1(void **state)
{
	fake_setup(state);
	fake_put("handlers/vdisk_fileio/mgmt", FILEIO_USAGE);
	fake_put_mode("devices/d1/filename", "/a\n[key]\n", 0444);
	fake_put_mode("devices/d1/blocksize", "512\n", 0444);
	fake_put("devices/d1/write_through", "0\n");
	fake_put_mode("devices/d1/t10_dev_id", "d1\n", 0444);
	fake_put("devices/d1/threads_num", "1\n");
	fake_link("handlers/vdisk_fileio/d1", "../../devices/d1");
	fake_put(SRPT "luns/1/read_only", "0\n");
	fake_link(SRPT "luns/1/device", "../../../../../devices/d1");
	fake_put(SRPT "ini_groups/g1/luns/3/read_only", "1\n[key]\n");
	fake_link(SRPT "ini_groups/g1/luns/3/device",
		  "../../../../../../../devices/d1");
	fake_put("targets/scst_local/mgmt",
		 "Usage: echo \"add_target target_name\" >mgmt\n");
	fake_put(LOCAL "luns/mgmt", "");
	fake_put(LOCAL "luns/0/read_only", "0\n");
	fake_link(LOCAL "luns/0/device", "../../../../../devices/d1");
	fake_put(LOCAL "ini_groups/mgmt", "");
	fake_put(LOCAL "ini_groups/lg/initiators/mgmt", "");
	fake_put(LOCAL "ini_groups/lg/luns/mgmt", "");
	fake_put(LOCAL "ini_groups/lg/luns/2/read_only", "1\n[key]\n");
	fake_link(LOCAL "ini_groups/lg/luns/2/device",
		  "../../../../../../../devices/d1");
	return 0;
}

/* The live ib_srpt part; @d1 is the body of DEVICE d1. */
static const char *conf_with(const char *d1)
{
	static char text[2048];

	snprintf(text, sizeof(text),
		 "HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n}\n"
		 "HANDLER vdisk_fileio {\n\tDEVICE d1 {\n%s\t}\n}\n"
		 "TARGET_DRIVER ib_srpt {\n\tTARGET gid1 {\n\t\tenabled 1\n"
		 "\t\trel_tgt_id 1\n\t\tLUN 0 n1\n\t\tLUN 1 d1\n"
		 "\t\tGROUP g1 {\n\t\t\tLUN 3 d1 {\n\t\t\t\tread_only 1\n"
		 "\t\t\t}\n\t\t\tINITIATOR 0x12*\n\t\t}\n\t}\n}\n", d1);
	return fake_conf(text);
}

static const char new_params[] =
	"\t\tfilename /b\n\t\tblocksize 4096\n\t\tthreads_num 2\n";

static void test_reopen_needs_force(void **state)
{
	const char *path = conf_with(new_params);
	char *before = fake_snapshot();
	struct res r = run("-config", path, NULL);

	(void)state;
	/* SCST: "Use -force to re-open device with new attributes" */
	assert_int_equal(r.rc, EXIT_OK);
	if (!strstr(r.out, "-> not made: close device d1 (vdisk_fileio) to re-open it: filename '/a' -> '/b', blocksize '512' -> '4096'; meanwhile it takes LUN 0 of target loc1 (scst_local), LUN 2 of group lg of target loc1 (scst_local) (re-opens the device: its initiators lose it meanwhile; use -force to make it)\n") ||
	    strstr(r.out, "-> add device") || strstr(r.out, "re-add"))
		fail_msg("stdout '%s'", r.out);
	/* the attribute the file changes waits too, and says so */
	if (!strstr(r.out, "-> not made: set device d1 attribute threads_num=2 (goes with the change above; use -force to make it)\n"))
		fail_msg("threads_num held silently: '%s'", r.out);
	res_free(&r);
	check_unchanged(before);
	free(before);
}

static void test_reopen_check_config(void **state)
{
	const char *path = conf_with(new_params);
	struct res r = run("-check_config", path, NULL);

	(void)state;
	assert_int_equal(r.rc, 0);
	if (!strstr(r.out, "would close device d1 (vdisk_fileio) to re-open it: filename '/a' -> '/b', blocksize '512' -> '4096'; meanwhile it takes LUN 0 of target loc1 (scst_local), LUN 2 of group lg of target loc1 (scst_local) [needs -force: re-opens") ||
	    !strstr(r.out, "would add device d1 (vdisk_fileio) [needs -force: goes with the change above]\n") ||
	    !strstr(r.out, "would re-add LUN 1 (d1) to target gid1 [needs -force: goes with the change above]\n") ||
	    !strstr(r.out, "would re-add LUN 0 (d1) to target loc1 [needs -force: goes with the change above]\n"))
		fail_msg("stdout '%s'", r.out);
	res_free(&r);
	check_file("handlers/vdisk_fileio/mgmt", FILEIO_USAGE);
}

/*
 * A vdisk's filename is writable (SCST 3.11), but only while the device is
 * inactive: a new one in the file still closes and re-opens the device
 * rather than write a live device's filename
 */
static void test_reopen_writable_filename(void **state)
{
	const char *path = conf_with("\t\tfilename /b\n");
	struct res r;

	(void)state;
	fake_put_mode("devices/d1/filename", "/a\n[key]\n", 0644);
	r = run("-check_config", path, NULL);
	assert_int_equal(r.rc, 0);
	if (!strstr(r.out, "would close device d1 (vdisk_fileio) to re-open it: filename '/a' -> '/b'") ||
	    strstr(r.out, "attribute filename"))
		fail_msg("stdout '%s'", r.out);
	res_free(&r);
}

/* Where @what is in @s, failing the test if it is not. */
static size_t pos(const char *s, const char *what)
{
	const char *p = strstr(s, what);

	if (!p)
		fail_msg("'%s' not in '%s'", what, s);
	return (size_t)(p - s);
}

static void test_reopen_force(void **state)
{
	const char *path = conf_with(new_params);
	struct res r = run("-config", path, "-force", NULL);

	(void)state;
	if (r.rc)
		fail_msg("rc %d, stderr '%s'", r.rc, r.err);
	/* closed, opened with the file's parameters, then the LUNs */
	assert_true(pos(r.out, "-> close device d1") <
		    pos(r.out, "-> add device d1"));
	assert_true(pos(r.out, "-> add device d1") <
		    pos(r.out, "-> re-add LUN 1 (d1) to target gid1"));
	res_free(&r);
	check_file("handlers/vdisk_fileio/mgmt", FILEIO_USAGE
		   "del_device d1\nadd_device d1 filename=/b;blocksize=4096\n");
	check_file("devices/d1/threads_num", "2\n");
	check_file(SRPT "luns/mgmt", "add d1 1\n");
	check_file(SRPT "ini_groups/g1/luns/mgmt", "add d1 3 read_only=1\n");
	/* the driver the file leaves alone gets its LUNs back as they were */
	check_file(LOCAL "luns/mgmt", "add d1 0\n");
	check_file(LOCAL "ini_groups/lg/luns/mgmt", "add d1 2 read_only=1\n");
	check_file("handlers/vdisk_nullio/mgmt", "");
}

/* Writable attributes, parameters or not, are written: no re-open. */
static void test_no_reopen_when_writable(void **state)
{
	const char *path = conf_with("\t\tfilename /a\n\t\twrite_through 1\n"
				     "\t\tthreads_num 2\n");
	struct res r = run("-config", path, NULL);

	(void)state;
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	res_free(&r);
	check_file("devices/d1/write_through", "1\n");
	check_file("devices/d1/threads_num", "2\n");
	check_file("handlers/vdisk_fileio/mgmt", FILEIO_USAGE);
	check_file(SRPT "luns/mgmt", "");
}

/* A read-only attribute that is no creation parameter is reported. */
static void test_no_reopen_for_other_attrs(void **state)
{
	const char *path = conf_with("\t\tfilename /a\n\t\tt10_dev_id x\n");
	char *before = fake_snapshot();
	struct res r = run("-config", path, NULL);

	(void)state;
	EXPECT(r, EXIT_WARN,
	       "warning: device d1: attribute 't10_dev_id' is read-only (is 'd1', file says 'x'); ignored");
	res_free(&r);
	check_unchanged(before);
	free(before);
}

/*
 * An attribute a new device turns out not to have is only found while
 * applying (the device did not exist to be checked): a warning, exit 7.
 */
static void test_new_device_missing_attr(void **state)
{
	const char *path = fake_conf(
		"HANDLER vdisk_fileio {\n\tDEVICE d1 {\n\t\tfilename /a\n\t}\n"
		"\tDEVICE d2 {\n\t\tfilename /c\n\t\tno_such_attr 1\n\t}\n}\n");
	struct res r = run("-config", path, NULL);

	(void)state;
	assert_int_equal(r.rc, EXIT_WARN);
	if (!strstr(r.err, "warning: cannot ") ||
	    !strstr(r.err, "devices/d2/no_such_attr is missing"))
		fail_msg("no warning for the missing attribute: '%s'", r.err);
	res_free(&r);
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, setup_d1, fake_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_reopen_needs_force),
		TEST(test_reopen_check_config),
		TEST(test_reopen_writable_filename),
		TEST(test_reopen_force),
		TEST(test_no_reopen_when_writable),
		TEST(test_no_reopen_for_other_attrs),
		TEST(test_new_device_missing_attr),
	};

	return cmocka_run_group_tests_name("scstadmin_reopen", tests, NULL, NULL);
}
