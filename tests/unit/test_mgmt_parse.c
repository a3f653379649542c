// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_mgmt_parse.c: sysfs mgmt command lines and
 * attribute values.
 */
#include "unit.h"

#define MAX_EXPECT	4

struct good_case {
	const char *line;
	unsigned int max_positional;
	unsigned int argc;
	const char *argv[MAX_EXPECT];
	unsigned int nparams;
	const char *kv[MAX_EXPECT][2];
};

static const struct good_case good_cases[] = {
	{ "add_device disk1 filename=/dev/ram0; blocksize=4096; read_only=1\n",
	  2, 2, { "add_device", "disk1" },
	  3, { { "filename", "/dev/ram0" }, { "blocksize", "4096" },
	       { "read_only", "1" } } },
	{ "add_device disk1 filename=/dev/ram0;blocksize=4096;read_only=1",
	  2, 2, { "add_device", "disk1" },
	  3, { { "filename", "/dev/ram0" }, { "blocksize", "4096" },
	       { "read_only", "1" } } },
	{ "add_device disk1 filename=/dev/ram0 blocksize=4096", 2,
	  2, { "add_device", "disk1" },
	  2, { { "filename", "/dev/ram0" }, { "blocksize", "4096" } } },
	{ "add vdisk1 0 read_only=1", 3, 3, { "add", "vdisk1", "0" },
	  1, { { "read_only", "1" } } },
	{ "add vdisk1 0", 3, 3, { "add", "vdisk1", "0" }, 0, { } },
	{ "create grp1\n", 2, 2, { "create", "grp1" }, 0, { } },
	{ "del 3", 3, 2, { "del", "3" }, 0, { } },
	{ "clear", 3, 1, { "clear" }, 0, { } },
	{ "clear\r\n", 3, 1, { "clear" }, 0, { } },
	{ "clear \t\v\f\r\n", 3, 1, { "clear" }, 0, { } },
	/* Bytes above 7Fh are not blanks, whatever the locale. */
	{ "add x\xa0", 3, 2, { "add", "x\xa0" }, 0, { } },
	{ "  add_device\tdisk1   size_mb=128 ; \x20\n", 2,
	  2, { "add_device", "disk1" }, 1, { { "size_mb", "128" } } },
	{ "add_device 0:0:0:0", 2, 2, { "add_device", "0:0:0:0" }, 0, { } },
	{ "add_target tgt1 session_name=S", 2, 2, { "add_target", "tgt1" },
	  1, { { "session_name", "S" } } },
	/* Only the first '=' separates key and value. */
	{ "add_device d filename=/a=b", 2, 2, { "add_device", "d" },
	  1, { { "filename", "/a=b" } } },
	{ "add_device d k==", 2, 2, { "add_device", "d" },
	  1, { { "k", "=" } } },
	/* A ';' ends the positional words, as does a word with '='. */
	{ "add_device d;filename=/x", 5, 2, { "add_device", "d" },
	  1, { { "filename", "/x" } } },
	{ "add vdisk1 read_only=1", 3, 2, { "add", "vdisk1" },
	  1, { { "read_only", "1" } } },
	{ "add_device d k=v;", 2, 2, { "add_device", "d" },
	  1, { { "k", "v" } } },
	{ "add_device d k=v;;k2=v2 ; ;", 2, 2, { "add_device", "d" },
	  2, { { "k", "v" }, { "k2", "v2" } } },
	{ "add_device d k_0=v\t;\tk1=v", 2, 2, { "add_device", "d" },
	  2, { { "k_0", "v" }, { "k1", "v" } } },
	{ "k=v", 0, 0, { }, 1, { { "k", "v" } } },
	{ "a=1 b=2", 0, 0, { }, 2, { { "a", "1" }, { "b", "2" } } },
	{ "a b c d e f g h", 100, 8,
	  { "a", "b", "c", "d" }, 0, { } },
};

static void check_good(const struct good_case *c)
{
	struct scst_mgmt_line line;
	const char *bad = "unset";
	char buf[256];
	unsigned int i;
	int ret;

	snprintf(buf, sizeof(buf), "%s", c->line);
	ret = scst_mgmt_parse(buf, strlen(buf), c->max_positional, &line,
			      &bad);
	if (ret)
		fail_msg("\"%s\": %d, bad token \"%s\" (%s)", c->line, ret,
			 bad, line.err_reason);
	assert_null(bad);
	assert_null(line.err_reason);
	assert_int_equal(line.argc, c->argc);
	for (i = 0; i < c->argc && i < MAX_EXPECT; i++)
		assert_string_equal(line.argv[i], c->argv[i]);
	assert_int_equal(line.nparams, c->nparams);
	for (i = 0; i < c->nparams; i++) {
		assert_string_equal(line.params[i].key, c->kv[i][0]);
		assert_string_equal(line.params[i].value, c->kv[i][1]);
	}
}

static void test_parse_good(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good_cases); i++)
		check_good(&good_cases[i]);
}

struct bad_case {
	const char *line;
	unsigned int max_positional;
	const char *bad_token;
	const char *reason;
};

static const struct bad_case bad_cases[] = {
	{ "", 2, "", "empty command" },
	{ "\n", 2, "", "empty command" },
	{ "   ;  ; \t\n", 2, "", "empty command" },
	{ "add_device d filename", 2, "filename",
	  "not a key=value parameter" },
	{ "add_device d k=v k", 2, "k", "not a key=value parameter" },
	{ "add_device d k=v ;x", 2, "x", "not a key=value parameter" },
	{ "del 3 4", 2, "4", "not a key=value parameter" },
	{ "del;3", 2, "3", "not a key=value parameter" },
	{ "add", 0, "add", "not a key=value parameter" },
	{ "add_device d =v", 2, "=v", "empty parameter name" },
	{ "add_device d ==", 2, "==", "empty parameter name" },
	{ "add_device d k=", 2, "k=", "empty parameter value" },
	{ "add_device d k= v", 2, "k=", "empty parameter value" },
	{ "add_device d Blocksize=512", 2, "Blocksize=512",
	  "parameter name not [a-z0-9_]" },
	{ "add_device d block-size=512", 2, "block-size=512",
	  "parameter name not [a-z0-9_]" },
	{ "add_device d k_1=v K=1", 2, "K=1",
	  "parameter name not [a-z0-9_]" },
	{ "add_device d blocksize=512 blocksize=4096", 2, "blocksize=4096",
	  "duplicate parameter" },
	{ "add_device d a=1;b=2;a=1", 2, "a=1", "duplicate parameter" },
	{ "filename=/x", 2, "filename=/x", "missing command" },
	{ ";add_device d", 2, "add_device", "missing command" },
	{ "add_device d k=v\x01", 2, "k=v\x01", "control character" },
	{ "add x\nadd y", 2, "x\nadd", "control character" },
	{ "add\x7f", 2, "add\x7f", "control character" },
	{ "a b c d e f g h i", 100, "i", "not a key=value parameter" },
};

static void check_bad(const struct bad_case *c)
{
	struct scst_mgmt_line line;
	const char *bad = NULL;
	char buf[256];
	int ret;

	snprintf(buf, sizeof(buf), "%s", c->line);
	ret = scst_mgmt_parse(buf, strlen(buf), c->max_positional, &line,
			      &bad);
	if (ret != -EINVAL)
		fail_msg("\"%s\" accepted (%d)", c->line, ret);
	assert_non_null(bad);
	if (strcmp(bad, c->bad_token))
		fail_msg("\"%s\": bad token \"%s\", expected \"%s\"", c->line,
			 bad, c->bad_token);
	assert_non_null(line.err_reason);
	assert_string_equal(line.err_reason, c->reason);
	/* The token is reported in place, never as a copy. */
	if (*bad)
		assert_true(bad >= buf && bad < buf + sizeof(buf));
}

static void test_parse_bad(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_cases); i++)
		check_bad(&bad_cases[i]);
}

static void test_parse_param_limit(void **state)
{
	char buf[SCST_MGMT_MAX_PARAMS * 8 + 32];
	struct scst_mgmt_line line;
	const char *bad;
	size_t len;
	int i;

	(void)state;
	len = snprintf(buf, sizeof(buf), "add_device d");
	for (i = 0; i < SCST_MGMT_MAX_PARAMS; i++)
		len += snprintf(buf + len, sizeof(buf) - len, " p%d=%d", i, i);
	assert_int_equal(scst_mgmt_parse(buf, len, 2, &line, &bad), 0);
	assert_int_equal(line.nparams, SCST_MGMT_MAX_PARAMS);
	assert_string_equal(line.params[SCST_MGMT_MAX_PARAMS - 1].key, "p31");
	assert_string_equal(line.params[SCST_MGMT_MAX_PARAMS - 1].value,
			    "31");

	len = snprintf(buf, sizeof(buf), "add_device d");
	for (i = 0; i <= SCST_MGMT_MAX_PARAMS; i++)
		len += snprintf(buf + len, sizeof(buf) - len, ";p%d=%d", i, i);
	assert_int_equal(scst_mgmt_parse(buf, len, 2, &line, &bad), -EINVAL);
	assert_string_equal(bad, "p32=32");
	assert_string_equal(line.err_reason, "too many parameters");
}

static void test_parse_line_limits(void **state)
{
	static char buf[SCST_MGMT_MAX_LINE + 2];
	struct scst_mgmt_line line;
	const char *bad;

	(void)state;
	/* The longest line accepted: one huge value. */
	memset(buf, 'x', SCST_MGMT_MAX_LINE);
	memcpy(buf, "cmd k=", 6);
	buf[SCST_MGMT_MAX_LINE] = '\0';
	assert_int_equal(scst_mgmt_parse(buf, SCST_MGMT_MAX_LINE, 1, &line,
					 &bad), 0);
	assert_int_equal(strlen(line.params[0].value), SCST_MGMT_MAX_LINE - 6);

	memset(buf, 'x', SCST_MGMT_MAX_LINE + 1);
	buf[SCST_MGMT_MAX_LINE + 1] = '\0';
	assert_int_equal(scst_mgmt_parse(buf, SCST_MGMT_MAX_LINE + 1, 1,
					 &line, &bad), -EINVAL);
	assert_string_equal(bad, "");
	assert_string_equal(line.err_reason, "line too long");

	/* Embedded NUL, and a length that disagrees with the terminator. */
	memcpy(buf, "add\0x", 6);
	assert_int_equal(scst_mgmt_parse(buf, 5, 2, &line, &bad), -EINVAL);
	assert_string_equal(line.err_reason, "NUL byte in line");
	memcpy(buf, "add x", 6);
	assert_int_equal(scst_mgmt_parse(buf, 3, 2, &line, &bad), -EINVAL);
	assert_string_equal(line.err_reason, "NUL byte in line");

	/* bad_token is optional. */
	memcpy(buf, "add x=", 7);
	assert_int_equal(scst_mgmt_parse(buf, 6, 2, &line, NULL), -EINVAL);
	assert_string_equal(line.err_reason, "empty parameter value");
}

static void test_get_and_check_params(void **state)
{
	static const char *const allowed[] = {
		"filename", "blocksize", "read_only", "nv_cache",
	};
	char buf[] = "add_device d filename=/dev/ram0; blocksize=4096";
	char buf2[] = "add_device d filename=/f; bogus=1; blocksize=512";
	struct scst_mgmt_line line;
	const char *bad = NULL;

	(void)state;
	assert_int_equal(scst_mgmt_parse(buf, strlen(buf), 2, &line, &bad), 0);
	assert_string_equal(scst_mgmt_get_param(&line, "filename"),
			    "/dev/ram0");
	assert_string_equal(scst_mgmt_get_param(&line, "blocksize"), "4096");
	assert_null(scst_mgmt_get_param(&line, "read_only"));
	assert_null(scst_mgmt_get_param(&line, "file"));
	assert_int_equal(scst_mgmt_check_params(&line, allowed,
						ARRAY_SIZE(allowed), &bad), 0);

	assert_int_equal(scst_mgmt_parse(buf2, strlen(buf2), 2, &line, &bad),
			 0);
	assert_int_equal(scst_mgmt_check_params(&line, allowed,
						ARRAY_SIZE(allowed), &bad),
			 -EINVAL);
	assert_string_equal(bad, "bogus");
	assert_int_equal(scst_mgmt_check_params(&line, allowed, 0, NULL),
			 -EINVAL);
}

struct u64_case {
	const char *s;
	int ret;
	u64 val;
};

static const struct u64_case u64_cases[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "4096", 0, 4096 },
	{ "18446744073709551615", 0, U64_MAX },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "0x0", 0, 0 },
	{ "0x1f", 0, 0x1f },
	{ "0X1F", 0, 0x1f },
	{ "0x0001", 0, 1 },
	{ "0xffffffffffffffff", 0, U64_MAX },
	{ "0xFFFFFFFFFFFFFFFF", 0, U64_MAX },
	{ "0x10000000000000000", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "0x", -EINVAL, 0 },
	{ "0X", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "1\n", -EINVAL, 0 },
	{ "1a", -EINVAL, 0 },
	{ "0x1g", -EINVAL, 0 },
	{ "0xx1", -EINVAL, 0 },
	{ "x1", -EINVAL, 0 },
	{ "1.5", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "01", -EINVAL, 0 },
	{ "00", -EINVAL, 0 },
	{ "0777", -EINVAL, 0 },
	/* Junk is reported as junk even after an overflow. */
	{ "99999999999999999999x", -EINVAL, 0 },
};

static void test_parse_u64(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(u64_cases); i++) {
		const struct u64_case *c = &u64_cases[i];
		u64 val = 0x5a5a;
		int ret = scst_mgmt_parse_u64(c->s, &val);

		if (ret != c->ret)
			fail_msg("\"%s\": %d, expected %d", c->s, ret, c->ret);
		if (ret == 0 && val != c->val)
			fail_msg("\"%s\": %llu", c->s, val);
		if (ret && val != 0x5a5a)
			fail_msg("\"%s\": value written on failure", c->s);
	}
}

static void test_parse_bool(void **state)
{
	static const char *const bad[] = {
		"", "2", "01", "10", "00", "true", "y", "Y", "1 ", " 0", "0x1",
		"-1",
	};
	bool val = false;
	size_t i;

	(void)state;
	assert_int_equal(scst_mgmt_parse_bool("1", &val), 0);
	assert_true(val);
	assert_int_equal(scst_mgmt_parse_bool("0", &val), 0);
	assert_false(val);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		val = true;
		if (scst_mgmt_parse_bool(bad[i], &val) != -EINVAL)
			fail_msg("\"%s\" accepted", bad[i]);
		assert_true(val);
	}
}

static bool inside(const char *p, const char *buf, size_t size)
{
	return p >= buf && p < buf + size;
}

/* Random lines: no crash, no overrun, and every claim checks out. */
static void test_parse_random(void **state)
{
	static const char alphabet[] = "ab=;= \t\n_Z09\x01";
	char buf[64 + 1];
	struct scst_mgmt_line line;
	u32 seed = 0xdecafu;
	unsigned int i, j;
	const char *bad;
	const char *p;
	size_t len;
	int ret;

	(void)state;
	for (i = 0; i < 100000; i++) {
		len = unit_rand(&seed) % (sizeof(buf) - 1);
		for (j = 0; j < len; j++)
			buf[j] = alphabet[unit_rand(&seed) %
					  (sizeof(alphabet) - 1)];
		buf[len] = '\0';
		ret = scst_mgmt_parse(buf, len, unit_rand(&seed) % 4, &line,
				      &bad);
		if (ret) {
			assert_int_equal(ret, -EINVAL);
			assert_non_null(bad);
			assert_non_null(line.err_reason);
			assert_true(!*bad || inside(bad, buf, sizeof(buf)));
			continue;
		}
		assert_true(line.argc + line.nparams > 0);
		for (j = 0; j < line.argc; j++) {
			assert_true(inside(line.argv[j], buf, sizeof(buf)));
			assert_true(*line.argv[j]);
			assert_null(strpbrk(line.argv[j], "=; \t\n\x01"));
		}
		for (j = 0; j < line.nparams; j++) {
			assert_true(inside(line.params[j].key, buf,
					   sizeof(buf)));
			assert_true(*line.params[j].key);
			assert_true(*line.params[j].value);
			for (p = line.params[j].key; *p; p++)
				assert_non_null(strchr("ab_09", *p));
			assert_null(strpbrk(line.params[j].value,
					    "; \t\n\x01"));
		}
	}
}

/* The mgmt tables: lookup, operands, and the usage reading a file shows. */
static int verb_fn(const struct scst_mgmt_line *line, void *ctx)
{
	(void)line;
	return *(int *)ctx;
}

static const struct scst_mgmt_verb luns_verbs[] = {
	{ "add", 2, true, "add DEVICE LUN [read_only=1]",
	  "add H:C:I:L|VNAME lun [parameters]", verb_fn },
	{ "del", 1, false, "del LUN", "del lun", verb_fn },
	{ "replace", 2, true, "replace DEVICE LUN [read_only=1]",
	  "replace H:C:I:L|VNAME lun [parameters]", verb_fn },
	{ "clear", 0, false, "clear", "clear", verb_fn },
};

static const struct scst_mgmt_table luns_table = {
	.verbs = luns_verbs,
	.n = ARRAY_SIZE(luns_verbs),
	.what = "luns",
};

static bool line_ok(const struct scst_mgmt_table *t, const char *text,
		    const struct scst_mgmt_verb **v)
{
	static char buf[256];
	struct scst_mgmt_line line;

	snprintf(buf, sizeof(buf), "%s", text);
	assert_int_equal(scst_mgmt_parse(buf, strlen(buf),
					 scst_mgmt_max_positional(t), &line,
					 NULL), 0);
	*v = scst_mgmt_find_verb(t, line.argv[0]);
	return *v && scst_mgmt_usage_ok(*v, &line);
}

static void test_verb_table(void **state)
{
	const struct scst_mgmt_verb *v;
	int res = 7;

	(void)state;
	assert_int_equal(luns_table.n, 4);
	/* the operands of the longest command, and the command word */
	assert_int_equal(scst_mgmt_max_positional(&luns_table), 3);
	assert_true(line_ok(&luns_table, "add disk1 0\n", &v));
	assert_ptr_equal(v, &luns_verbs[0]);
	assert_int_equal(v->fn(NULL, &res), 7);
	assert_true(line_ok(&luns_table, "add disk1 0 read_only=1", &v));
	assert_true(line_ok(&luns_table, "replace disk1 0", &v));
	assert_ptr_equal(v, &luns_verbs[2]);
	assert_true(line_ok(&luns_table, "del 0", &v));
	assert_true(line_ok(&luns_table, "clear", &v));
	/* too few, too many, parameters where none are taken */
	assert_false(line_ok(&luns_table, "add disk1", &v));
	assert_ptr_equal(v, &luns_verbs[0]);
	assert_false(line_ok(&luns_table, "add", &v));
	assert_false(line_ok(&luns_table, "del", &v));
	assert_false(line_ok(&luns_table, "del 0 1", &v));
	assert_false(line_ok(&luns_table, "del 0 read_only=1", &v));
	assert_ptr_equal(v, &luns_verbs[1]);
	assert_false(line_ok(&luns_table, "clear 1", &v));
	assert_false(line_ok(&luns_table, "clear x=1", &v));
	/* no such command, whatever its operands; names match exactly */
	assert_false(line_ok(&luns_table, "remove 0", &v));
	assert_null(v);
	assert_null(scst_mgmt_find_verb(&luns_table, "ad"));
	assert_null(scst_mgmt_find_verb(&luns_table, "adds"));
	assert_null(scst_mgmt_find_verb(&luns_table, "ADD"));
	assert_null(scst_mgmt_find_verb(&luns_table, ""));
}

static void test_verb_help(void **state)
{
	static const char want[] =
		"Usage: echo \"add H:C:I:L|VNAME lun [parameters]\" >mgmt\n"
		"       echo \"del lun\" >mgmt\n"
		"       echo \"replace H:C:I:L|VNAME lun [parameters]\" >mgmt\n"
		"       echo \"clear\" >mgmt\n";
	static const struct scst_mgmt_verb one[] = {
		{ "x", 0, false, "x", "x", verb_fn },
	};
	static const struct scst_mgmt_table one_table = {
		.verbs = one,
		.n = ARRAY_SIZE(one),
		.what = NULL,
	};
	static const struct scst_mgmt_verb many[] = {
		{ "a", 8, false, "a", "a", verb_fn },
	};
	static const struct scst_mgmt_table many_table = {
		.verbs = many,
		.n = ARRAY_SIZE(many),
		.what = NULL,
	};
	char buf[512];
	size_t i;

	(void)state;
	/* the text SCST's (and before the tables, our) luns/mgmt shows */
	assert_int_equal(scst_mgmt_help(buf, sizeof(buf), &luns_table),
			 strlen(want));
	assert_string_equal(buf, want);
	assert_int_equal(scst_mgmt_help(buf, sizeof(buf), &one_table), 22);
	assert_string_equal(buf, "Usage: echo \"x\" >mgmt\n");
	/* cut to the buffer, always terminated */
	for (i = 1; i < sizeof(want) + 2; i++) {
		memset(buf, 0x7f, sizeof(buf));
		assert_int_equal(scst_mgmt_help(buf, i, &luns_table),
				 i - 1 < strlen(want) ? i - 1 : strlen(want));
		assert_memory_equal(buf, want, strlen(buf));
		if (i < sizeof(buf))
			assert_int_equal(buf[i], 0x7f);
	}
	/* never more words than the parser keeps */
	assert_int_equal(scst_mgmt_max_positional(&many_table),
			 SCST_MGMT_MAX_ARGS);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_param_limit),
		cmocka_unit_test(test_parse_line_limits),
		cmocka_unit_test(test_get_and_check_params),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_bool),
		cmocka_unit_test(test_parse_random),
		cmocka_unit_test(test_verb_table),
		cmocka_unit_test(test_verb_help),
	};

	return cmocka_run_group_tests_name("mgmt_parse", tests, NULL, NULL);
}
