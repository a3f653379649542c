// SPDX-License-Identifier: GPL-2.0-only
/*
 * Session directory names, as SCST makes them: the first session of an
 * initiator on a target is named after the initiator, further ones (more
 * SRP channels, a reconnect while the old session is still going away)
 * get "_1", "_2"... appended.
 *
 * The rule is pure so that its bound can be unit-tested: a name always
 * fits the buffer whole (never truncated, so two indices never yield the
 * same name), and the caller tries at most SCST_SESS_NAME_MAX_TRIES of
 * them, so the search ends for any initiator name, 63 characters long or
 * not, however many sessions already use it.
 */

#include <scst_logic.h>

/**
 * scst_sess_name_format() - the session name with index @n
 * @out: receives the name
 * @size: size of @out
 * @initiator: the initiator name
 * @n: 0 for the plain name, otherwise the suffix number
 *
 * Return: 0, or -ENAMETOOLONG when the name with its suffix does not fit
 * @size whole (@out then holds an empty string).
 */
int scst_sess_name_format(char *out, size_t size, const char *initiator,
			  unsigned int n)
{
	char digits[10];
	size_t len = strlen(initiator), nd = 0, i;

	if (n) {
		do {
			digits[nd++] = (char)('0' + n % 10);
			n /= 10;
		} while (n);
	}
	if (!size || len + (nd ? 1 + nd : 0) >= size) {
		if (size)
			out[0] = '\0';
		return -ENAMETOOLONG;
	}
	memcpy(out, initiator, len);
	if (nd) {
		out[len++] = '_';
		for (i = 0; i < nd; i++)
			out[len++] = digits[nd - 1 - i];
	}
	out[len] = '\0';
	return 0;
}

/**
 * scst_sess_name_pick() - the first session name not in use
 * @out: receives the name
 * @size: size of @out
 * @initiator: the initiator name
 * @used: whether a name is taken (on the target)
 * @ctx: passed to @used
 *
 * Tries NAME, NAME_1, ... at most SCST_SESS_NAME_MAX_TRIES names.
 *
 * Return: 0, or -EBUSY when every one of them is taken or too long.
 */
int scst_sess_name_pick(char *out, size_t size, const char *initiator,
			bool (*used)(const char *name, void *ctx), void *ctx)
{
	unsigned int n;

	for (n = 0; n < SCST_SESS_NAME_MAX_TRIES; n++)
		if (scst_sess_name_format(out, size, initiator, n) == 0 &&
		    !used(out, ctx))
			return 0;
	if (size)
		out[0] = '\0';
	return -EBUSY;
}
