// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin and sessions, on the fake management tree: -list_sessions
 * shows each session's lun<N>/ directories (commands in flight, thread
 * PIDs where there are), in LUN order; -close_session writes 1 to the
 * session's force_close, and refuses what does not exist, bad names and
 * modules without the attribute with nothing written.
 */
#include <errno.h>
#include <sys/stat.h>

#include "scstadmin_unit.h"

#define SESS "targets/ib_srpt/gid1/sessions/0x1234"

/* One session of initiator 0x1234 with LUNs 0, 2 and 10. */
static void add_session(bool with_force_close)
{
	fake_put(SESS "/initiator_name", "0x1234\n");
	fake_put(SESS "/active_commands", "3\n");
	fake_link(SESS "/luns", "../../luns");
	fake_put(SESS "/lun0/active_commands", "2\n");
	fake_put(SESS "/lun0/thread_pid", "101 102\n");
	fake_put(SESS "/lun10/active_commands", "0\n");
	fake_put(SESS "/lun2/active_commands", "1\n");
	/* not a LUN directory: ignored */
	fake_put(SESS "/lunatic/active_commands", "9\n");
	if (with_force_close)
		fake_put_mode(SESS "/force_close", "", 0200);
}

static void test_list_sessions_luns(void **state)
{
	struct res r;
	char *l0, *l2, *l10;

	(void)state;
	add_session(true);
	r = run("-list_sessions", NULL);
	EXPECT(r, 0, "");
	assert_non_null(strstr(r.out, "0x1234  initiator 0x1234, 3 active command(s)"));
	l0 = strstr(r.out, "LUN 0     2 active command(s), threads 101 102\n");
	l2 = strstr(r.out, "LUN 2     1 active command(s)\n");
	l10 = strstr(r.out, "LUN 10    0 active command(s)\n");
	if (!l0 || !l2 || !l10)
		fail_msg("LUN lines missing: '%s'", r.out);
	/* numeric order, not the directory's */
	assert_true(l0 < l2 && l2 < l10);
	assert_null(strstr(r.out, "lunatic"));
	assert_null(strstr(r.out, " 9 active"));
	res_free(&r);
}

/* -tsv: one "session" record and one "sesslun" record a LUN, no headers */
static void test_list_sessions_tsv(void **state)
{
	struct res r;

	(void)state;
	add_session(true);
	r = run("-list_sessions", "-tsv", NULL);
	EXPECT(r, 0, "");
	assert_string_equal(r.out,
			    "session\tib_srpt\tgid1\t0x1234\t0x1234\t3\tdefault\n"
			    "sesslun\tib_srpt\tgid1\t0x1234\t0\t2\t101 102\n"
			    "sesslun\tib_srpt\tgid1\t0x1234\t2\t1\t\n"
			    "sesslun\tib_srpt\tgid1\t0x1234\t10\t0\t\n");
	res_free(&r);
}

static void test_close_session(void **state)
{
	struct res r;

	(void)state;
	add_session(true);
	r = run("-close_session", "0x1234", "-driver", "ib_srpt", "-target",
		"gid1", NULL);
	EXPECT(r, 0, "");
	assert_non_null(strstr(r.out, "force_close: 1"));
	res_free(&r);
	check_file(SESS "/force_close", "1\n");
}

static void test_close_session_dry_run(void **state)
{
	struct res r;

	(void)state;
	add_session(true);
	r = run("-close_session", "0x1234", "-driver", "ib_srpt", "-target",
		"gid1", "-dry_run", NULL);
	EXPECT(r, 0, "");
	assert_non_null(strstr(r.out, "would write '1' to " SESS "/force_close"));
	res_free(&r);
	check_file(SESS "/force_close", "");
}

/* -close_session NAME -driver D -target T (NULL: left out) must fail. */
static void close_fails(const char *name, const char *drv, const char *tgt,
			int code, const char *err)
{
	const char *args[8];
	struct res r;
	int n = 0;

	args[n++] = "-close_session";
	if (name)
		args[n++] = name;
	if (drv) {
		args[n++] = "-driver";
		args[n++] = drv;
	}
	if (tgt) {
		args[n++] = "-target";
		args[n++] = tgt;
	}
	args[n] = NULL;
	r = run_argv(NULL, args);
	EXPECT(r, code, err);
	res_free(&r);
}

static void test_close_session_errors(void **state)
{
	char *before;

	(void)state;
	add_session(true);
	before = fake_snapshot();
	close_fails("0x1234", NULL, "gid1", EXIT_USAGE, "needs -driver");
	close_fails("0x1234", "ib_srpt", NULL, EXIT_USAGE, "needs -target");
	close_fails(NULL, NULL, NULL, EXIT_USAGE, "needs an argument");
	close_fails("0x1234", "iscsi", "gid1", EXIT_NOTFOUND,
		    "target driver 'iscsi' is not loaded");
	close_fails("0x1234", "ib_srpt", "gid9", EXIT_NOTFOUND,
		    "target 'gid9' of driver 'ib_srpt' does not exist");
	close_fails("0x9999", "ib_srpt", "gid1", EXIT_NOTFOUND,
		    "session '0x9999' of target 'gid1' (driver ib_srpt) does not exist");
	close_fails("../../gid1", "ib_srpt", "gid1", EXIT_USAGE,
		    "bad session name '../../gid1'");
	close_fails("..", "ib_srpt", "gid1", EXIT_USAGE,
		    "bad session name '..'");
	check_unchanged(before);
	free(before);
}

/* Modules older than force_close: said so, nothing written. */
static void test_close_session_no_attr(void **state)
{
	char *before;

	(void)state;
	add_session(false);
	before = fake_snapshot();
	close_fails("0x1234", "ib_srpt", "gid1", EXIT_NOTFOUND,
		    "the running modules have no force_close attribute");
	check_unchanged(before);
	free(before);
}

/* A failed write names the file and the errno, and points to the log. */
static void test_close_session_write_fails(void **state)
{
	char p[512];
	struct res r;

	(void)state;
	add_session(false);
	/* a directory in its place: open(O_WRONLY) fails with EISDIR */
	snprintf(p, sizeof(p), "%s/" SESS "/force_close", fake_root);
	assert_int_equal(mkdir(p, 0755), 0);
	r = run("-close_session", "0x1234", "-driver", "ib_srpt", "-target",
		"gid1", NULL);
	EXPECT(r, EXIT_SYSFS, SESS "/force_close failed: ");
	assert_non_null(strstr(r.err, strerror(EISDIR)));
	assert_non_null(strstr(r.err, "the kernel log says why"));
	res_free(&r);
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, fake_setup, fake_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_list_sessions_luns),
		TEST(test_list_sessions_tsv),
		TEST(test_close_session),
		TEST(test_close_session_dry_run),
		TEST(test_close_session_errors),
		TEST(test_close_session_no_attr),
		TEST(test_close_session_write_fails),
	};

	return cmocka_run_group_tests_name("scstadmin_sess", tests, NULL, NULL);
}
