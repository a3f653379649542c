// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parser for the command lines written to SCST's sysfs "mgmt" files.
 *
 * A line is a few blank-separated positional words (the command and its
 * operands) followed by key=value parameters separated by ';' and/or
 * blanks, as SCST accepts them:
 *
 *   add_device disk1 filename=/dev/ram0; blocksize=4096;read_only=1
 *   add vdisk1 0 read_only=1
 *   del 3
 *
 * The line is split in place: no allocation, every pointer handed back
 * points into the caller's buffer. Parsing only checks syntax; which
 * commands and keys exist is up to the owner of the mgmt file, whose
 * table of commands (struct scst_mgmt_table, one row per command with
 * its operands, usage text and handler) the helpers at the end look up.
 */

#include <scst_logic.h>

static bool scst_mgmt_is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ';';
}

/* The same set in the kernel and in libc: no locale, no Latin-1 NBSP. */
static bool scst_mgmt_is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool scst_mgmt_key_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static int scst_mgmt_fail(struct scst_mgmt_line *out, const char **bad_token,
			  const char *token, const char *reason)
{
	out->err_reason = reason;
	if (bad_token)
		*bad_token = token;
	return -EINVAL;
}

/* Validate the key=value token @tok and append it to @out->params. */
static int scst_mgmt_add_param(struct scst_mgmt_line *out, char *tok,
			       const char **bad_token)
{
	char *eq = strchr(tok, '=');
	size_t klen, i;

	if (!eq)
		return scst_mgmt_fail(out, bad_token, tok,
				      "not a key=value parameter");
	klen = eq - tok;
	if (klen == 0)
		return scst_mgmt_fail(out, bad_token, tok,
				      "empty parameter name");
	if (eq[1] == '\0')
		return scst_mgmt_fail(out, bad_token, tok,
				      "empty parameter value");
	for (i = 0; i < klen; i++)
		if (!scst_mgmt_key_char_ok(tok[i]))
			return scst_mgmt_fail(out, bad_token, tok,
					      "parameter name not [a-z0-9_]");
	for (i = 0; i < out->nparams; i++) {
		const char *key = out->params[i].key;

		if (strlen(key) == klen && !memcmp(key, tok, klen))
			return scst_mgmt_fail(out, bad_token, tok,
					      "duplicate parameter");
	}
	if (out->nparams == SCST_MGMT_MAX_PARAMS)
		return scst_mgmt_fail(out, bad_token, tok,
				      "too many parameters");
	*eq = '\0';
	out->params[out->nparams].key = tok;
	out->params[out->nparams].value = eq + 1;
	out->nparams++;
	return 0;
}

/**
 * scst_mgmt_parse() - split a mgmt command line into words and parameters
 * @buf: the line, writable, with a NUL at @buf[@len] (as kmemdup_nul() of
 *	a sysfs store buffer gives); it is modified in place
 * @len: length of the line, at most SCST_MGMT_MAX_LINE
 * @max_positional: how many positional words the command may have, the
 *	command itself included; capped at SCST_MGMT_MAX_ARGS
 * @out: receives the parsed line; pointers go into @buf
 * @bad_token: if not NULL, set on failure to the offending token, which is
 *	NUL-terminated (an empty string when the fault is in the line as a
 *	whole)
 *
 * Trailing white space, the newline written by echo included, is ignored.
 * The positional words come first, separated by blanks (space or tab).
 * They end at the first word containing '=', at the first ';', or after
 * @max_positional words; the rest of the line must be key=value
 * parameters separated by ';' and/or blanks. A key is [a-z0-9_]+ and
 * appears once; a value is not empty and holds neither blanks nor ';'. A
 * value may contain '=': only the first '=' separates key and value.
 * Control characters anywhere but at the end of the line are rejected.
 *
 * Return: 0 on success with @out->argc >= 1 unless @max_positional is 0;
 * -EINVAL otherwise, with @out->err_reason saying what is wrong with
 * *@bad_token.
 */
int scst_mgmt_parse(char *buf, size_t len, unsigned int max_positional,
		    struct scst_mgmt_line *out, const char **bad_token)
{
	bool in_params = false, semicolon;
	char *p = buf, *end, *tok, *q;
	int ret;

	memset(out, 0, sizeof(*out));
	if (bad_token)
		*bad_token = NULL;
	max_positional = min_t(unsigned int, max_positional,
			       SCST_MGMT_MAX_ARGS);

	if (len > SCST_MGMT_MAX_LINE)
		return scst_mgmt_fail(out, bad_token, "", "line too long");
	if (buf[len] != '\0' || memchr(buf, '\0', len))
		return scst_mgmt_fail(out, bad_token, "", "NUL byte in line");

	end = buf + len;
	while (end > buf && scst_mgmt_is_space(end[-1]))
		*--end = '\0';

	for (;;) {
		while (p < end && scst_mgmt_is_sep(*p)) {
			if (*p == ';')
				in_params = true;
			p++;
		}
		if (p == end)
			break;

		tok = p;
		while (p < end && !scst_mgmt_is_sep(*p))
			p++;
		semicolon = p < end && *p == ';';
		if (p < end)
			*p++ = '\0';

		for (q = tok; *q; q++)
			if ((unsigned char)*q < ' ' || *q == 0x7f)
				return scst_mgmt_fail(out, bad_token, tok,
						      "control character");

		if (!in_params && out->argc < max_positional &&
		    !strchr(tok, '=')) {
			out->argv[out->argc++] = tok;
			in_params = semicolon;
			continue;
		}
		in_params = true;
		if (max_positional && out->argc == 0)
			return scst_mgmt_fail(out, bad_token, tok,
					      "missing command");
		ret = scst_mgmt_add_param(out, tok, bad_token);
		if (ret)
			return ret;
	}

	if (out->argc == 0 && out->nparams == 0)
		return scst_mgmt_fail(out, bad_token, "", "empty command");
	return 0;
}
EXPORT_SYMBOL_GPL(scst_mgmt_parse);

/**
 * scst_mgmt_get_param() - look up a parameter of a parsed mgmt line
 * @line: line parsed by scst_mgmt_parse()
 * @key: parameter name
 *
 * Return: the value of @key, or NULL if the line does not set it.
 */
const char *scst_mgmt_get_param(const struct scst_mgmt_line *line,
				const char *key)
{
	unsigned int i;

	for (i = 0; i < line->nparams; i++)
		if (!strcmp(line->params[i].key, key))
			return line->params[i].value;
	return NULL;
}
EXPORT_SYMBOL_GPL(scst_mgmt_get_param);

/**
 * scst_mgmt_check_params() - reject parameters a command does not know
 * @line: line parsed by scst_mgmt_parse()
 * @allowed: names of the parameters the command accepts
 * @nallowed: number of entries in @allowed
 * @bad_token: if not NULL, set on failure to the first unknown key
 *
 * Checking every key before acting on any lets a command fail without
 * leaving anything half-done behind.
 *
 * Return: 0 if every key of @line is in @allowed, -EINVAL otherwise.
 */
int scst_mgmt_check_params(const struct scst_mgmt_line *line,
			   const char *const *allowed, size_t nallowed,
			   const char **bad_token)
{
	unsigned int i;
	size_t j;

	for (i = 0; i < line->nparams; i++) {
		for (j = 0; j < nallowed; j++)
			if (!strcmp(line->params[i].key, allowed[j]))
				break;
		if (j == nallowed) {
			if (bad_token)
				*bad_token = line->params[i].key;
			return -EINVAL;
		}
	}
	return 0;
}
EXPORT_SYMBOL_GPL(scst_mgmt_check_params);

/**
 * scst_mgmt_parse_u64() - strictly parse an unsigned number
 * @s: decimal digits, or "0x"/"0X" and hex digits, and nothing else
 * @val: receives the number on success
 *
 * Signs, blanks and trailing characters are refused. So is a decimal
 * number with a leading zero, which the kernel's kstrto*() with base 0
 * (and therefore SCST) would read as octal.
 *
 * Return: 0 on success, -EINVAL if @s is not a number, -ERANGE if it does
 * not fit in 64 bits.
 */
int scst_mgmt_parse_u64(const char *s, u64 *val)
{
	unsigned int base = 10, digit;
	bool overflow = false;
	u64 v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1] != '\0') {
		return -EINVAL;
	}
	if (*s == '\0')
		return -EINVAL;

	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digit = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			digit = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			digit = *s - 'A' + 10;
		else
			return -EINVAL;
		if (v > (U64_MAX - digit) / base)
			overflow = true;
		v = v * base + digit;
	}
	if (overflow)
		return -ERANGE;
	*val = v;
	return 0;
}
EXPORT_SYMBOL_GPL(scst_mgmt_parse_u64);

/**
 * scst_mgmt_parse_bool() - strictly parse a boolean attribute value
 * @s: "0" or "1"
 * @val: receives the value on success
 *
 * Return: 0 on success, -EINVAL for anything else.
 */
int scst_mgmt_parse_bool(const char *s, bool *val)
{
	if ((s[0] != '0' && s[0] != '1') || s[1] != '\0')
		return -EINVAL;
	*val = s[0] == '1';
	return 0;
}
EXPORT_SYMBOL_GPL(scst_mgmt_parse_bool);

/**
 * scst_mgmt_find_verb() - the row of a mgmt file's table a command names
 * @t: the table
 * @name: the command word
 *
 * Return: the row, or NULL if the file has no such command.
 */
const struct scst_mgmt_verb *
scst_mgmt_find_verb(const struct scst_mgmt_table *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->verbs[i].name, name))
			return &t->verbs[i];
	return NULL;
}
EXPORT_SYMBOL_GPL(scst_mgmt_find_verb);

/**
 * scst_mgmt_usage_ok() - whether a line has the operands its command takes
 * @v: the command's row
 * @line: the parsed line, naming @v
 *
 * Return: true for exactly @v->nargs operands, and parameters only where
 * @v takes them.
 */
bool scst_mgmt_usage_ok(const struct scst_mgmt_verb *v,
			const struct scst_mgmt_line *line)
{
	return line->argc == 1U + v->nargs && (v->params || !line->nparams);
}
EXPORT_SYMBOL_GPL(scst_mgmt_usage_ok);

/**
 * scst_mgmt_max_positional() - the max_positional a table's lines parse with
 * @t: the table
 *
 * A word past them is parsed as a parameter (and refused as "not a
 * key=value parameter" unless it is one), as SCST parses these lines.
 *
 * Return: the command word and the most operands of any row, at most
 * SCST_MGMT_MAX_ARGS.
 */
unsigned int scst_mgmt_max_positional(const struct scst_mgmt_table *t)
{
	unsigned int i, most = 0;

	for (i = 0; i < t->n; i++)
		most = max_t(unsigned int, most, t->verbs[i].nargs);
	return min_t(unsigned int, most + 1, SCST_MGMT_MAX_ARGS);
}
EXPORT_SYMBOL_GPL(scst_mgmt_max_positional);

/* Append @s at *@len of @buf, cut to what fits with the NUL. */
static void scst_mgmt_append(char *buf, size_t size, size_t *len,
			     const char *s)
{
	size_t n = strlen(s);

	if (*len + 1 >= size)
		return;
	n = min(n, size - 1 - *len);
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

/**
 * scst_mgmt_help() - the usage lines reading a mgmt file shows
 * @buf: receives them, NUL-terminated
 * @size: size of @buf, at least 1
 * @t: the file's table
 *
 * SCST's format: "Usage: echo \"<help>\" >mgmt" for the first row, the
 * others aligned under it, one line each.
 *
 * Return: the length written, the NUL excluded (cut to @size - 1).
 */
size_t scst_mgmt_help(char *buf, size_t size, const struct scst_mgmt_table *t)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < t->n; i++) {
		scst_mgmt_append(buf, size, &len,
				 i ? "       echo \"" : "Usage: echo \"");
		scst_mgmt_append(buf, size, &len, t->verbs[i].help);
		scst_mgmt_append(buf, size, &len, "\" >mgmt\n");
	}
	return len;
}
EXPORT_SYMBOL_GPL(scst_mgmt_help);
