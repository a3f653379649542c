// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_wildcard.c: initiator name patterns of
 * access groups.
 */
#include "unit.h"

struct match_case {
	const char *pattern;
	const char *name;
	bool match;
};

static const struct match_case match_cases[] = {
	{ "", "", true },
	{ "", "a", false },
	{ "a", "", false },
	{ "abc", "abc", true },
	{ "abc", "ab", false },
	{ "ab", "abc", false },
	{ "*", "", true },
	{ "*", "anything at all", true },
	{ "**", "", true },
	{ "?", "", false },
	{ "?", "a", true },
	{ "??", "a", false },
	{ "a?c", "abc", true },
	{ "a?c", "ac", false },
	{ "*?", "", false },
	{ "*?", "a", true },
	{ "?*", "ab", true },
	{ "a*", "a", true },
	{ "a*", "b", false },
	{ "a**", "a", true },
	{ "**a**", "a", true },
	{ "a*b", "ab", true },
	{ "a*b", "axxb", true },
	{ "a*b", "axxbc", false },
	{ "a*b*c", "abbbc", true },
	{ "a*b*c", "acb", false },
	{ "*abc", "ababc", true },
	{ "*x", "xx", true },
	{ "*aab", "aaab", true },
	{ "a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaa", false },
	{ "abc", "ABC", false },
	{ "IQN*", "iqn.1993-08.org.debian:01:abc", false },
	{ "iqn.1993-08.org.debian:*", "iqn.1993-08.org.debian:01:abc", true },
	{ "iqn.2004-*:host?", "iqn.2004-01.com.example:host1", true },
	{ "iqn.2004-*:host?", "iqn.2004-01.com.example:host12", false },
	{ "0x*c2", "0xfe800000000000000002c90300a0b1c2", true },
	{ "0x????????????????0002c9*", "0xfe800000000000000002c90300a0b1c2",
	  true },
	{ "192.168.1.*", "192.168.1.17", true },
	{ "192.168.1.*", "192.168.10.17", false },
	/* A pattern character is never a wildcard in the name. */
	{ "a", "*", false },
	{ "a", "?", false },
	/* '!' means nothing to the bare matcher. */
	{ "!a", "!a", true },
	{ "!a", "a", false },
};

static void test_match_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(match_cases); i++) {
		const struct match_case *c = &match_cases[i];

		if (scst_wildcard_match(c->pattern, c->name) != c->match)
			fail_msg("pattern \"%s\" name \"%s\": expected %d",
				 c->pattern, c->name, c->match);
	}
}

/* Straightforward recursive matcher, exponential but obviously right. */
static bool ref_match(const char *p, const char *n)
{
	if (*p == '\0')
		return *n == '\0';
	if (*p == '*')
		return ref_match(p + 1, n) || (*n && ref_match(p, n + 1));
	if (*n && (*p == '?' || *p == *n))
		return ref_match(p + 1, n + 1);
	return false;
}

static void test_match_vs_reference(void **state)
{
	static const char pat_alpha[] = "ab*?";
	static const char name_alpha[] = "ab";
	char pattern[9], name[11];
	u32 seed = 0x5c57u;
	int iter, i, plen, nlen;

	(void)state;
	for (iter = 0; iter < 200000; iter++) {
		plen = unit_rand(&seed) % sizeof(pattern);
		nlen = unit_rand(&seed) % sizeof(name);
		for (i = 0; i < plen; i++)
			pattern[i] = pat_alpha[unit_rand(&seed) % 4];
		pattern[plen] = '\0';
		for (i = 0; i < nlen; i++)
			name[i] = name_alpha[unit_rand(&seed) % 2];
		name[nlen] = '\0';
		if (scst_wildcard_match(pattern, name) !=
		    ref_match(pattern, name))
			fail_msg("pattern \"%s\" name \"%s\" disagrees",
				 pattern, name);
	}
}

/*
 * Patterns that make a naive backtracking matcher exponential must finish
 * at once; a recursive one would also blow the stack on the long name.
 */
static void test_match_pathological(void **state)
{
	static char name[100001];
	char pattern[SCST_PATTERN_MAX_LEN + 1];
	size_t i;

	(void)state;
	memset(name, 'a', sizeof(name) - 1);
	for (i = 0; i + 3 < sizeof(pattern); i += 2) {
		pattern[i] = '*';
		pattern[i + 1] = 'a';
	}
	pattern[i] = 'b';
	pattern[i + 1] = '\0';
	assert_false(scst_wildcard_match(pattern, name));
	pattern[i] = '*';
	assert_true(scst_wildcard_match(pattern, name));

	memset(pattern, '*', sizeof(pattern) - 2);
	pattern[sizeof(pattern) - 2] = 'b';
	pattern[sizeof(pattern) - 1] = '\0';
	assert_false(scst_wildcard_match(pattern, name));
	name[sizeof(name) - 2] = 'b';
	assert_true(scst_wildcard_match(pattern, name));
}

static void test_negation(void **state)
{
	(void)state;
	assert_true(scst_pattern_is_negated("!iqn.*"));
	assert_true(scst_pattern_is_negated("!"));
	assert_false(scst_pattern_is_negated("iqn.*"));
	assert_false(scst_pattern_is_negated(""));
	assert_false(scst_pattern_is_negated("a!"));
	assert_string_equal(scst_pattern_strip_negation("!iqn.*"), "iqn.*");
	assert_string_equal(scst_pattern_strip_negation("iqn.*"), "iqn.*");
	assert_string_equal(scst_pattern_strip_negation("!!x"), "!x");
}

struct tri_case {
	const char *pattern;
	const char *name;
	enum scst_pattern_result result;
};

static const struct tri_case tri_cases[] = {
	{ "iqn.*", "iqn.host1", SCST_PATTERN_MATCH },
	{ "iqn.*", "eui.host1", SCST_PATTERN_NO_MATCH },
	{ "!iqn.*", "iqn.host1", SCST_PATTERN_EXCLUDE },
	{ "!iqn.*", "eui.host1", SCST_PATTERN_NO_MATCH },
	{ "!*", "anything", SCST_PATTERN_EXCLUDE },
	{ "!host?", "host1", SCST_PATTERN_EXCLUDE },
	{ "!host?", "host12", SCST_PATTERN_NO_MATCH },
	{ "host1", "!host1", SCST_PATTERN_NO_MATCH },
};

static void test_pattern_match_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(tri_cases); i++) {
		const struct tri_case *c = &tri_cases[i];

		if (scst_pattern_match(c->pattern, c->name) != c->result)
			fail_msg("pattern \"%s\" name \"%s\": expected %d",
				 c->pattern, c->name, c->result);
	}
}

/* How the core decides group membership from a group's pattern list. */
static bool in_group(const char *const *patterns, size_t n, const char *name)
{
	bool match = false;
	size_t i;

	for (i = 0; i < n; i++) {
		switch (scst_pattern_match(patterns[i], name)) {
		case SCST_PATTERN_EXCLUDE:
			return false;
		case SCST_PATTERN_MATCH:
			match = true;
			break;
		case SCST_PATTERN_NO_MATCH:
			break;
		}
	}
	return match;
}

static void test_group_membership(void **state)
{
	static const char *const grp[] = {
		"!iqn.2004-01.com.example:bad*", "iqn.2004-01.com.example:*",
		"0x*",
	};
	static const char *const rev[] = {
		"iqn.2004-01.com.example:*", "!iqn.2004-01.com.example:bad*",
	};

	(void)state;
	assert_true(in_group(grp, ARRAY_SIZE(grp),
			     "iqn.2004-01.com.example:good1"));
	assert_false(in_group(grp, ARRAY_SIZE(grp),
			      "iqn.2004-01.com.example:bad1"));
	assert_true(in_group(grp, ARRAY_SIZE(grp),
			     "0xfe800000000000000002c90300a0b1c2"));
	assert_false(in_group(grp, ARRAY_SIZE(grp), "iqn.other"));
	/* Exclusion wins whatever the order of the patterns. */
	assert_false(in_group(rev, ARRAY_SIZE(rev),
			      "iqn.2004-01.com.example:bad1"));
	assert_true(in_group(rev, ARRAY_SIZE(rev),
			     "iqn.2004-01.com.example:good1"));
}

static void test_validate_good(void **state)
{
	static const char *const good[] = {
		"a", "*", "?", "!*", "!a", "a!", "a!b",
		"iqn.1993-08.org.debian:01:abc",
		"0xfe800000000000000002c90300a0b1c2",
		"192.168.1.*", "host\x80\xff",
	};
	char max_len[SCST_PATTERN_MAX_LEN + 1];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++)
		if (scst_pattern_validate(good[i]))
			fail_msg("\"%s\" rejected", good[i]);

	memset(max_len, 'x', SCST_PATTERN_MAX_LEN);
	max_len[SCST_PATTERN_MAX_LEN] = '\0';
	assert_int_equal(scst_pattern_validate(max_len), 0);
	max_len[0] = '!';
	assert_int_equal(scst_pattern_validate(max_len), 0);
}

static void test_validate_bad(void **state)
{
	static const char *const bad[] = {
		"", "!", "!!", "!!a", " ", "a b", " a", "a ", "a\tb", "a\n",
		"\r", "a\x01", "\x1f", "a\x7f", "!a b",
	};
	char too_long[SCST_PATTERN_MAX_LEN + 2];
	size_t i;

	(void)state;
	assert_int_equal(scst_pattern_validate(NULL), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (scst_pattern_validate(bad[i]) != -EINVAL)
			fail_msg("bad pattern #%zu accepted", i);

	memset(too_long, 'x', SCST_PATTERN_MAX_LEN + 1);
	too_long[SCST_PATTERN_MAX_LEN + 1] = '\0';
	assert_int_equal(scst_pattern_validate(too_long), -EINVAL);
	too_long[0] = '!';
	assert_int_equal(scst_pattern_validate(too_long), -EINVAL);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_match_table),
		cmocka_unit_test(test_match_vs_reference),
		cmocka_unit_test(test_match_pathological),
		cmocka_unit_test(test_negation),
		cmocka_unit_test(test_pattern_match_table),
		cmocka_unit_test(test_group_membership),
		cmocka_unit_test(test_validate_good),
		cmocka_unit_test(test_validate_bad),
	};

	return cmocka_run_group_tests_name("wildcard", tests, NULL, NULL);
}
