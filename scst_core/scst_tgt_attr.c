// SPDX-License-Identifier: GPL-2.0-only
/*
 * Values of the SCST target, initiator group and device attributes that
 * scst_sysfs_tgt.c and scst_sysfs_dev.c parse: comment, aen_disabled,
 * io_grouping_type and tst. Each parser takes the bytes of one sysfs
 * write (one trailing newline allowed, as echo adds it), refuses
 * anything else with -EINVAL, and writes its result only on success.
 */

#include <scst_logic.h>

/* The length of a sysfs write without its one trailing newline. */
static size_t scst_attr_len(const char *buf, size_t count)
{
	if (count && buf[count - 1] == '\n')
		count--;
	return count;
}

/* Whether @buf (@len bytes) is exactly the string @word. */
static bool scst_attr_is(const char *buf, size_t len, const char *word)
{
	return len == strlen(word) && !memcmp(buf, word, len);
}

/**
 * scst_comment_parse() - check a write to a target's comment
 * @buf: the bytes written
 * @count: how many
 * @len: receives the comment's length (0 clears it, as in SCST)
 *
 * The comment is shown on one line followed by the "[key]" line that
 * scstadmin -write_config saves it by, so it may hold neither a newline
 * (other than the one that ends the write) nor a NUL, nor other control
 * characters; it is at most SCST_COMMENT_MAX_LEN bytes (SCST bounds it
 * only by the page a sysfs write carries).
 *
 * Return: 0, or -EINVAL (too long, or a control character in it).
 */
int scst_comment_parse(const char *buf, size_t count, size_t *len)
{
	size_t n = scst_attr_len(buf, count), i;

	if (n > SCST_COMMENT_MAX_LEN)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			if (buf[i] != '\t')
				return -EINVAL;
	*len = n;
	return 0;
}

/**
 * scst_io_grouping_parse() - parse an io_grouping_type write
 * @buf: the bytes written
 * @count: how many
 * @type: receives SCST_IO_GROUPING_AUTO, _THIS_GROUP_ONLY, _NEVER, or an
 *	I/O group number 1 to SCST_IO_GROUPING_MAX
 *
 * SCST's words, as SCST compares them, without regard to case; a number
 * in decimal (SCST's kstrtol() base 0 takes 0x and 0 prefixes too: so do
 * we). Zero and negative numbers are refused, as in SCST.
 *
 * Return: 0, or -EINVAL.
 */
int scst_io_grouping_parse(const char *buf, size_t count, int *type)
{
	size_t n = scst_attr_len(buf, count), i = 0;
	unsigned long long v = 0;
	unsigned int base = 10;
	char w[16];

	if (n == 0)
		return -EINVAL;
	if (n < sizeof(w)) {
		for (i = 0; i < n; i++)
			w[i] = (char)tolower((unsigned char)buf[i]);
		if (scst_attr_is(w, n, "auto")) {
			*type = SCST_IO_GROUPING_AUTO;
			return 0;
		}
		if (scst_attr_is(w, n, "this_group_only")) {
			*type = SCST_IO_GROUPING_THIS_GROUP_ONLY;
			return 0;
		}
		if (scst_attr_is(w, n, "never")) {
			*type = SCST_IO_GROUPING_NEVER;
			return 0;
		}
	}
	i = 0;
	if (n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (n > 1 && buf[0] == '0') {
		base = 8;
		i = 1;
	}
	for (; i < n; i++) {
		int d;

		if (isdigit((unsigned char)buf[i]))
			d = buf[i] - '0';
		else if (base == 16 && isxdigit((unsigned char)buf[i]))
			d = tolower((unsigned char)buf[i]) - 'a' + 10;
		else
			return -EINVAL;
		if (d >= (int)base)
			return -EINVAL;
		v = v * base + (unsigned int)d;
		if (v > SCST_IO_GROUPING_MAX)
			return -EINVAL;
	}
	if (v == 0)
		return -EINVAL;
	*type = (int)v;
	return 0;
}

/**
 * scst_io_grouping_format() - io_grouping_type as SCST shows it
 * @out: buffer
 * @size: its size
 * @type: the value
 *
 * Return: as snprintf(): the length of the text, newline included.
 */
int scst_io_grouping_format(char *out, size_t size, int type)
{
	switch (type) {
	case SCST_IO_GROUPING_AUTO:
		return snprintf(out, size, "auto\n");
	case SCST_IO_GROUPING_THIS_GROUP_ONLY:
		return snprintf(out, size, "this_group_only\n");
	case SCST_IO_GROUPING_NEVER:
		return snprintf(out, size, "never\n");
	default:
		return snprintf(out, size, "%d\n", type);
	}
}

/**
 * scst_io_grouping_key() - which per-initiator thread pool a nexus uses
 * @out: receives the key
 * @size: its size
 * @type: the io_grouping_type of the group the session matched
 * @initiator: the session's initiator name
 * @tgt: its target's name
 * @group: the group's name ("" for the target's own LUNs)
 * @sess: the session's name
 *
 * A device with threads_pool_type per_initiator runs the commands of the
 * nexuses with one key on one pool (scst_threads.c). auto: the initiator
 * name, across groups and targets (all of one initiator's channels and
 * sessions share); this_group_only: the group, whatever the initiator;
 * never: the session alone; a number: every group with that number, on
 * any target. The keys of the last three start with a control character
 * that no initiator name has (SCST_ names are printable), so they cannot
 * meet an initiator's.
 *
 * Return: 0, or -ENAMETOOLONG when @out is too small (the caller then
 * falls back to the initiator name).
 */
int scst_io_grouping_key(char *out, size_t size, int type,
			 const char *initiator, const char *tgt,
			 const char *group, const char *sess)
{
	int n;

	switch (type) {
	case SCST_IO_GROUPING_AUTO:
		n = snprintf(out, size, "%s", initiator);
		break;
	case SCST_IO_GROUPING_THIS_GROUP_ONLY:
		n = snprintf(out, size, "\001group %s/%s", tgt, group);
		break;
	case SCST_IO_GROUPING_NEVER:
		n = snprintf(out, size, "\001session %s/%s", tgt, sess);
		break;
	default:
		n = snprintf(out, size, "\001io_group %d", type);
		break;
	}
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/**
 * scst_tst_parse() - parse a write to a device's tst
 * @buf: the bytes written
 * @count: how many
 * @tst: receives 0 or 1
 *
 * The TST field of the control mode page (SPC-4 7.5.8): 000b one task
 * set shared by every I_T nexus, 001b one task set per I_T nexus; the
 * other values are reserved.
 *
 * Return: 0, or -EINVAL.
 */
int scst_tst_parse(const char *buf, size_t count, u8 *tst)
{
	size_t n = scst_attr_len(buf, count);

	if (scst_attr_is(buf, n, "0"))
		*tst = 0;
	else if (scst_attr_is(buf, n, "1"))
		*tst = 1;
	else
		return -EINVAL;
	return 0;
}

/**
 * scst_bool01_parse() - parse "0" or "1" (aen_disabled, measure_latency)
 * @buf: the bytes written
 * @count: how many
 * @val: receives the value
 *
 * Return: 0, or -EINVAL.
 */
int scst_bool01_parse(const char *buf, size_t count, bool *val)
{
	u8 v;
	int ret = scst_tst_parse(buf, count, &v);

	if (!ret)
		*val = v;
	return ret;
}
