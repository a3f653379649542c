// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_sess_name.c: session names NAME, NAME_1...
 * and the bound that makes the unique-name search end.
 */
#include "unit.h"

/* struct scst_session's sess_name: SCST_MAX_NAME + 8 */
#define SESS_NAME_SIZE	(64 + 8)

static void test_plain_and_suffixed(void **state)
{
	char out[SESS_NAME_SIZE];

	(void)state;
	assert_int_equal(scst_sess_name_format(out, sizeof(out), "ini", 0), 0);
	assert_string_equal(out, "ini");
	assert_int_equal(scst_sess_name_format(out, sizeof(out), "ini", 1), 0);
	assert_string_equal(out, "ini_1");
	assert_int_equal(scst_sess_name_format(out, sizeof(out), "ini", 10), 0);
	assert_string_equal(out, "ini_10");
	assert_int_equal(scst_sess_name_format(out, sizeof(out), "ini",
					       4294967295U), 0);
	assert_string_equal(out, "ini_4294967295");
}

/* A 63-character initiator name (the longest the core accepts). */
static void test_longest_initiator(void **state)
{
	char ini[64], out[SESS_NAME_SIZE], prev[SESS_NAME_SIZE] = "";
	unsigned int n;

	(void)state;
	memset(ini, 'a', 63);
	ini[63] = '\0';
	/* every index the core tries gives a whole, distinct name */
	for (n = 0; n < SCST_SESS_NAME_MAX_TRIES; n++) {
		assert_int_equal(scst_sess_name_format(out, sizeof(out), ini,
						       n), 0);
		assert_int_equal(strncmp(out, ini, 63), 0);
		assert_string_not_equal(out, prev);
		strcpy(prev, out);
	}
	assert_string_equal(prev, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_1023");
}

/* Never truncated: a name that does not fit is refused, not cut. */
static void test_never_truncated(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(scst_sess_name_format(out, sizeof(out), "abcdef", 0),
			 0);
	assert_string_equal(out, "abcdef");
	assert_int_equal(scst_sess_name_format(out, sizeof(out), "abcdef", 1),
			 -ENAMETOOLONG);
	assert_string_equal(out, "");
	assert_int_equal(scst_sess_name_format(out, sizeof(out), "abcde", 1),
			 0);
	assert_string_equal(out, "abcde_1");
	assert_int_equal(scst_sess_name_format(out, sizeof(out), "abcde", 10),
			 -ENAMETOOLONG);
	assert_int_equal(scst_sess_name_format(out, sizeof(out), "abcdefgh",
					       0), -ENAMETOOLONG);
	assert_int_equal(scst_sess_name_format(out, 0, "a", 0),
			 -ENAMETOOLONG);
}

/* A target's session names, for scst_sess_name_pick()'s @used. */
struct taken {
	const char *const *names;
	unsigned int nr;
	bool all;		/* every name is taken */
	unsigned int calls;
};

static bool taken_used(const char *name, void *ctx)
{
	struct taken *t = ctx;
	unsigned int i;

	t->calls++;
	if (t->all)
		return true;
	for (i = 0; i < t->nr; i++)
		if (strcmp(t->names[i], name) == 0)
			return true;
	return false;
}

static void test_pick_first_free(void **state)
{
	static const char *const names[] = { "ini", "ini_1", "ini_3" };
	struct taken t = { .names = names, .nr = 3 };
	char out[SESS_NAME_SIZE];

	(void)state;
	assert_int_equal(scst_sess_name_pick(out, sizeof(out), "ini",
					     taken_used, &t), 0);
	assert_string_equal(out, "ini_2");
	assert_int_equal(scst_sess_name_pick(out, sizeof(out), "other",
					     taken_used, &t), 0);
	assert_string_equal(out, "other");
}

/* Every name taken, 63-character initiator: the search ends, -EBUSY. */
static void test_pick_ends(void **state)
{
	struct taken t = { .all = true };
	char ini[64], out[SESS_NAME_SIZE];

	(void)state;
	memset(ini, 'z', 63);
	ini[63] = '\0';
	assert_int_equal(scst_sess_name_pick(out, sizeof(out), ini,
					     taken_used, &t), -EBUSY);
	assert_int_equal(t.calls, SCST_SESS_NAME_MAX_TRIES);
	assert_string_equal(out, "");
	/* a buffer too small for any suffix: ends too, asking nothing */
	t.calls = 0;
	assert_int_equal(scst_sess_name_pick(out, 64, ini, taken_used, &t),
			 -EBUSY);
	assert_int_equal(t.calls, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_suffixed),
		cmocka_unit_test(test_longest_initiator),
		cmocka_unit_test(test_never_truncated),
		cmocka_unit_test(test_pick_first_free),
		cmocka_unit_test(test_pick_ends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
