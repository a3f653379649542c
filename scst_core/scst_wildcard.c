// SPDX-License-Identifier: GPL-2.0-only
/*
 * Initiator name patterns of SCST access groups.
 *
 * ini_groups/<group>/initiators/mgmt takes patterns rather than names: '*'
 * matches any run of characters (the empty run included), '?' exactly one
 * character, everything else itself, case-sensitively. A pattern that
 * starts with '!' keeps the initiators it matches out of the group, even
 * when another pattern of the group matches them.
 */

#include <scst_logic.h>

/**
 * scst_wildcard_match() - match an initiator name against a pattern
 * @pattern: pattern with '*' and '?' wildcards; a leading '!' is literal
 *	here, see scst_pattern_match()
 * @name: initiator name
 *
 * Iterative backtracking: only the most recent '*' is ever retried, since
 * any match found by retrying an earlier one is also found by retrying the
 * later one. Each retry advances the name position it restarts from, so
 * the cost is O(strlen(@pattern) * strlen(@name)) at worst, with no
 * recursion.
 *
 * Return: true if @name matches all of @pattern.
 */
bool scst_wildcard_match(const char *pattern, const char *name)
{
	const char *star_pat = NULL;	/* pattern just past the last '*' */
	const char *star_name = NULL;	/* where that '*' run ends for now */

	while (*name) {
		if (*pattern == '*') {
			star_pat = ++pattern;
			star_name = name;
		} else if (*pattern && (*pattern == '?' || *pattern == *name)) {
			pattern++;
			name++;
		} else if (star_pat) {
			/* Let the last '*' swallow one more character. */
			pattern = star_pat;
			name = ++star_name;
		} else {
			return false;
		}
	}
	while (*pattern == '*')
		pattern++;
	return *pattern == '\0';
}
EXPORT_SYMBOL_GPL(scst_wildcard_match);

/**
 * scst_pattern_is_negated() - whether a pattern excludes what it matches
 * @pattern: ini_groups initiator pattern
 *
 * Return: true if @pattern starts with '!'.
 */
bool scst_pattern_is_negated(const char *pattern)
{
	return pattern[0] == '!';
}
EXPORT_SYMBOL_GPL(scst_pattern_is_negated);

/**
 * scst_pattern_strip_negation() - the wildcard part of a pattern
 * @pattern: ini_groups initiator pattern
 *
 * Return: @pattern without its leading '!', if it has one.
 */
const char *scst_pattern_strip_negation(const char *pattern)
{
	return scst_pattern_is_negated(pattern) ? pattern + 1 : pattern;
}
EXPORT_SYMBOL_GPL(scst_pattern_strip_negation);

/**
 * scst_pattern_match() - apply one access group pattern to an initiator
 * @pattern: ini_groups initiator pattern, possibly negated with '!'
 * @name: initiator name
 *
 * An initiator belongs to a group when at least one of the group's patterns
 * returns SCST_PATTERN_MATCH and none returns SCST_PATTERN_EXCLUDE.
 *
 * Return: SCST_PATTERN_NO_MATCH if @name does not match, otherwise
 * SCST_PATTERN_EXCLUDE for a negated pattern and SCST_PATTERN_MATCH for a
 * plain one.
 */
enum scst_pattern_result scst_pattern_match(const char *pattern,
					    const char *name)
{
	if (!scst_wildcard_match(scst_pattern_strip_negation(pattern), name))
		return SCST_PATTERN_NO_MATCH;
	return scst_pattern_is_negated(pattern) ? SCST_PATTERN_EXCLUDE :
						  SCST_PATTERN_MATCH;
}
EXPORT_SYMBOL_GPL(scst_pattern_match);

/**
 * scst_pattern_validate() - check a pattern written to initiators/mgmt
 * @pattern: candidate pattern, NUL-terminated
 *
 * A valid pattern is 1 to SCST_PATTERN_MAX_LEN bytes of printable,
 * non-blank characters. It may start with one '!'; something must follow
 * it, and not a second '!', which would read as a double negation.
 *
 * Return: 0 if @pattern is valid, -EINVAL otherwise.
 */
int scst_pattern_validate(const char *pattern)
{
	size_t len, i;

	if (!pattern)
		return -EINVAL;
	len = strnlen(pattern, SCST_PATTERN_MAX_LEN + 1);
	if (len == 0 || len > SCST_PATTERN_MAX_LEN)
		return -EINVAL;
	if (pattern[0] == '!' && (pattern[1] == '\0' || pattern[1] == '!'))
		return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned char c = pattern[i];

		if (c <= ' ' || c == 0x7f)
			return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(scst_pattern_validate);
