// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz scst_core/scst_mgmt_parse.c: the sysfs "mgmt" command lines, their
 * key=value parameters and the strict number and boolean parsers.
 *
 * Input: max_positional (1 byte, 0-15), then the line as written to the
 * sysfs file (NUL bytes included: the parser must refuse them).
 */
#include "fuzz.h"
#include <scst_logic.h>

static bool in_buf(const char *buf, size_t len, const char *s)
{
	return s >= buf && s <= buf + len && memchr(s, '\0', buf + len + 1 - s);
}

static void check_word(const char *buf, size_t len, const char *w,
		       bool is_value)
{
	FUZZ_CHECK(in_buf(buf, len, w));
	FUZZ_CHECK(*w);
	for (; *w; w++) {
		FUZZ_CHECK((unsigned char)*w >= ' ' && *w != 0x7f);
		FUZZ_CHECK(*w != ' ' && *w != ';');
		if (!is_value)
			FUZZ_CHECK(*w != '=');
	}
}

/* scst_mgmt_parse_u64() against strtoull() where both have an opinion. */
static void check_u64(const char *s)
{
	unsigned long long ref;
	char *end;
	u64 v;
	int ret = scst_mgmt_parse_u64(s, &v);

	if (ret == -EINVAL)
		return;
	/* Digits only (hex after 0x), no sign, no blank, no octal. */
	FUZZ_CHECK(isdigit((unsigned char)s[0]));
	errno = 0;
	ref = strtoull(s, &end, 0);
	FUZZ_CHECK(*end == '\0');
	if (ret == -ERANGE) {
		FUZZ_CHECK(errno == ERANGE);
	} else {
		FUZZ_CHECK(ret == 0 && errno == 0 && v == ref);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	unsigned int maxpos = fuzz_u8(&in) & 0xf, i, j;
	const char *allowed[SCST_MGMT_MAX_PARAMS];
	struct scst_mgmt_line line;
	const char *bad = NULL;
	size_t len;
	char *buf;
	bool b;
	int ret;

	/* As kmemdup_nul() of the sysfs store buffer: NUL at buf[len]. */
	len = in.n;
	buf = fuzz_take_str(&in, len);

	ret = scst_mgmt_parse(buf, len, maxpos, &line, &bad);
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK(line.err_reason && *line.err_reason);
		/* The bad token is a string inside the line, or "". */
		FUZZ_CHECK(bad && (!*bad || in_buf(buf, len, bad)));
		goto out;
	}
	FUZZ_CHECK(!line.err_reason && !bad);
	FUZZ_CHECK(len <= SCST_MGMT_MAX_LINE);
	FUZZ_CHECK(line.argc <= maxpos && line.argc <= SCST_MGMT_MAX_ARGS);
	FUZZ_CHECK(line.argc >= 1 || maxpos == 0);
	FUZZ_CHECK(line.argc + line.nparams >= 1);
	FUZZ_CHECK(line.nparams <= SCST_MGMT_MAX_PARAMS);
	for (i = 0; i < line.argc; i++)
		check_word(buf, len, line.argv[i], false);
	for (i = 0; i < line.nparams; i++) {
		const char *k = line.params[i].key;

		check_word(buf, len, k, false);
		check_word(buf, len, line.params[i].value, true);
		for (; *k; k++)
			FUZZ_CHECK((*k >= 'a' && *k <= 'z') || *k == '_' ||
				   (*k >= '0' && *k <= '9'));
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(line.params[i].key,
					  line.params[j].key));
		/* Each key is found again, with its own value. */
		FUZZ_CHECK(scst_mgmt_get_param(&line, line.params[i].key) ==
			   line.params[i].value);
		allowed[i] = line.params[i].key;
		check_u64(line.params[i].value);
		if (!scst_mgmt_parse_bool(line.params[i].value, &b))
			FUZZ_CHECK(!strcmp(line.params[i].value, b ? "1" :
					   "0"));
	}
	for (i = 0; i < line.argc; i++)
		check_u64(line.argv[i]);
	/* No key holds a blank. */
	FUZZ_CHECK(!scst_mgmt_get_param(&line, "no such key"));
	FUZZ_CHECK(!scst_mgmt_check_params(&line, allowed, line.nparams,
					   &bad));
	if (line.nparams) {
		/* Leave the last key out of the allowed set: it is refused. */
		FUZZ_CHECK(scst_mgmt_check_params(&line, allowed,
						  line.nparams - 1, &bad) ==
			   -EINVAL);
		FUZZ_CHECK(bad == line.params[line.nparams - 1].key);
	}
out:
	free(buf);
	return 0;
}
