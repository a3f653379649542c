// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz scst_core/scst_wildcard.c: initiator name patterns ('*', '?', a
 * leading '!') against initiator names, compared with a plain dynamic
 * programming matcher written here, and the pattern validator.
 *
 * Input: pattern length (1 byte), the pattern, then the name.
 */
#include "fuzz.h"
#include <scst_logic.h>

#define MAX_LEN	300

/* Reference: m[i][j] = pattern[i..] matches name[j..]. */
static bool ref_match(const char *pat, const char *name)
{
	static bool m[MAX_LEN + 2][MAX_LEN + 2];
	size_t pl = strlen(pat), nl = strlen(name), i, j;

	for (i = pl + 1; i-- > 0;) {
		for (j = nl + 1; j-- > 0;) {
			if (i == pl)
				m[i][j] = j == nl;
			else if (pat[i] == '*')
				m[i][j] = m[i + 1][j] || (j < nl && m[i][j + 1]);
			else
				m[i][j] = j < nl && (pat[i] == '?' ||
						     pat[i] == name[j]) &&
					  m[i + 1][j + 1];
		}
	}
	return m[0][0];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	size_t plen = fuzz_u8(&in) + (size > 280 ? 40 : 0), nlen, i;
	char *pat, *name;
	enum scst_pattern_result r;
	bool neg, valid;

	if (plen > in.n)
		plen = in.n;
	pat = fuzz_take_str(&in, plen);
	nlen = in.n < MAX_LEN ? in.n : MAX_LEN;
	name = fuzz_take_str(&in, nlen);
	plen = strlen(pat);

	FUZZ_CHECK(scst_wildcard_match(pat, name) == ref_match(pat, name));
	neg = scst_pattern_is_negated(pat);
	FUZZ_CHECK(neg == (pat[0] == '!'));
	FUZZ_CHECK(scst_pattern_strip_negation(pat) == pat + neg);
	r = scst_pattern_match(pat, name);
	if (!ref_match(pat + neg, name))
		FUZZ_CHECK(r == SCST_PATTERN_NO_MATCH);
	else
		FUZZ_CHECK(r == (neg ? SCST_PATTERN_EXCLUDE :
				 SCST_PATTERN_MATCH));
	/* Every name matches itself and "*". */
	FUZZ_CHECK(scst_wildcard_match(name, name) || strpbrk(name, "*?") ||
		   !*name);
	FUZZ_CHECK(scst_wildcard_match("*", name));

	valid = plen && plen <= SCST_PATTERN_MAX_LEN &&
		!(pat[0] == '!' && (pat[1] == '\0' || pat[1] == '!'));
	for (i = 0; i < plen; i++)
		if ((unsigned char)pat[i] <= ' ' || pat[i] == 0x7f)
			valid = false;
	FUZZ_CHECK((scst_pattern_validate(pat) == 0) == valid);
	free(pat);
	free(name);
	return 0;
}
