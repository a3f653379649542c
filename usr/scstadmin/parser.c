// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: scst.conf parser (SCST's grammar).
 *
 *   file     := { root-attr | HANDLER name block | TARGET_DRIVER name block
 *                | DEVICE_GROUP name block }
 *   HANDLER  := { DEVICE name [block-of-attrs] | attr }
 *   TARGET_DRIVER := { TARGET name [target-block] | attr }
 *   target   := { HW_TARGET | LUN n dev [block-of-attrs] | GROUP g [group-block]
 *                | attr }
 *   group    := { LUN n dev [block-of-attrs] | INITIATOR pattern | attr }
 *   DEVICE_GROUP := { DEVICE name | TARGET_GROUP name [tgroup-block] | attr }
 *   tgroup   := { TARGET name [block-of-attrs] | attr }
 *   attr     := key value...   (to the end of the line, ';', '{' or '}')
 *
 * '{' may stand on the same line or on the next one; '#' starts a comment;
 * values may be double-quoted. A backslash escapes '#', '"' and itself, in
 * and out of quotes, as SCST's scstadmin writes them ("a\#b" is "a#b").
 * Upper-case words in statement position are section keywords; any other
 * word at the top is an SCST root attribute (setup_id, cluster_name,
 * async_lun_replace...), checked against the live tree when applied. The
 * whole file is parsed and then checked (conf_check) before a tree is
 * returned.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scstadmin.h"

enum tok_type { T_WORD, T_LBRACE, T_RBRACE, T_EOL, T_EOF };

struct tok {
	enum tok_type type;
	char *text;		/* T_WORD */
	bool quoted;
	int line, col;
};

struct parser {
	const char *fname;
	const char *p;
	int line, col;
	struct tok tok;		/* current token */
	char *err;
	size_t errlen;
	bool failed;
};

static void perr(struct parser *ps, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void perr(struct parser *ps, int line, int col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = true;
	n = snprintf(ps->err, ps->errlen, "%s:%d:%d: ", ps->fname, line, col);
	if (n < 0 || (size_t)n >= ps->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static const char *tok_desc(const struct tok *t, char *buf, size_t len)
{
	switch (t->type) {
	case T_WORD:
		snprintf(buf, len, "'%s'", t->text);
		break;
	case T_LBRACE:
		snprintf(buf, len, "'{'");
		break;
	case T_RBRACE:
		snprintf(buf, len, "'}'");
		break;
	case T_EOL:
		snprintf(buf, len, "end of line");
		break;
	case T_EOF:
		snprintf(buf, len, "end of file");
		break;
	}
	return buf;
}

static void advance_char(struct parser *ps)
{
	if (*ps->p == '\n') {
		ps->line++;
		ps->col = 1;
	} else {
		ps->col++;
	}
	ps->p++;
}

/* Read the next token into ps->tok. */
static void next(struct parser *ps)
{
	struct tok *t = &ps->tok;
	size_t len = 0, cap = 32;
	char *buf;

	free(t->text);
	t->text = NULL;
	t->quoted = false;
	for (;;) {
		/*
		 * Every blank the word loop below stops at (isspace()) but
		 * '\n': a form feed or vertical tab skipped by neither made
		 * an empty word that never advanced, and parse_attr() looped
		 * on it, appending to the value until memory ran out.
		 */
		while (*ps->p != '\n' && isspace((unsigned char)*ps->p))
			advance_char(ps);
		if (*ps->p == '#') {
			while (*ps->p && *ps->p != '\n')
				advance_char(ps);
		}
		break;
	}
	t->line = ps->line;
	t->col = ps->col;
	switch (*ps->p) {
	case '\0':
		t->type = T_EOF;
		return;
	case '\n':
	case ';':
		t->type = T_EOL;
		advance_char(ps);
		return;
	case '{':
		t->type = T_LBRACE;
		advance_char(ps);
		return;
	case '}':
		t->type = T_RBRACE;
		advance_char(ps);
		return;
	}
	t->type = T_WORD;
	buf = xmalloc(cap);
	if (*ps->p == '"') {
		t->quoted = true;
		advance_char(ps);
		while (*ps->p != '"') {
			if (*ps->p == '\0' || *ps->p == '\n') {
				perr(ps, t->line, t->col,
				     "unterminated quoted string: expected '\"' before %s",
				     *ps->p ? "end of line" : "end of file");
				break;
			}
			if (*ps->p == '\\' && (ps->p[1] == '"' ||
					       ps->p[1] == '\\' ||
					       ps->p[1] == '#'))
				advance_char(ps);
			if (len + 2 > cap)
				vec_reserve((void **)&buf, &cap, len + 2, 1);
			buf[len++] = *ps->p;
			advance_char(ps);
		}
		if (*ps->p == '"')
			advance_char(ps);
	} else {
		while (*ps->p && !isspace((unsigned char)*ps->p) &&
		       !strchr("{};#\"", *ps->p)) {
			/* SCST writes '#' and '\\' in values as \# and \\ */
			if (*ps->p == '\\' && ps->p[1] &&
			    strchr("#\\\"", ps->p[1]))
				advance_char(ps);
			if (len + 2 > cap)
				vec_reserve((void **)&buf, &cap, len + 2, 1);
			buf[len++] = *ps->p;
			advance_char(ps);
		}
	}
	buf[len] = '\0';
	t->text = buf;
}

static void skip_eols(struct parser *ps)
{
	while (ps->tok.type == T_EOL)
		next(ps);
}

static bool is_keyword(const struct tok *t)
{
	const char *s = t->text;

	if (t->type != T_WORD || t->quoted || !isupper((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isupper((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* A name after a keyword: must be a word on the same line. */
static char *expect_name(struct parser *ps, const char *kw, const char *what)
{
	char d[64];
	char *name;

	next(ps);
	if (ps->tok.type != T_WORD) {
		perr(ps, ps->tok.line, ps->tok.col,
		     "unexpected %s: expected %s after %s",
		     tok_desc(&ps->tok, d, sizeof(d)), what, kw);
		return NULL;
	}
	name = xstrdup(ps->tok.text);
	next(ps);
	return name;
}

/*
 * After a section header: a '{' on this or the next line opens a block
 * (returns true); anything else means no block.
 */
static bool opens_block(struct parser *ps, bool required, const char *kw,
			const char *name)
{
	char d[64];

	if (ps->tok.type == T_EOL) {
		/* look at the next line without losing the statement end */
		const char *save_p = ps->p;
		int sl = ps->line, sc = ps->col;
		struct tok st = ps->tok;

		st.text = NULL;
		while (ps->tok.type == T_EOL)
			next(ps);
		if (ps->tok.type == T_LBRACE) {
			next(ps);
			return true;
		}
		if (required) {
			perr(ps, ps->tok.line, ps->tok.col,
			     "unexpected %s: expected '{' after %s %s",
			     tok_desc(&ps->tok, d, sizeof(d)), kw, name);
			return false;
		}
		/* rewind */
		free(ps->tok.text);
		ps->tok = st;
		ps->p = save_p;
		ps->line = sl;
		ps->col = sc;
	} else if (ps->tok.type == T_LBRACE) {
		next(ps);
		return true;
	}
	if (required || (ps->tok.type != T_EOL && ps->tok.type != T_EOF &&
			 ps->tok.type != T_RBRACE))
		perr(ps, ps->tok.line, ps->tok.col,
		     "unexpected %s: expected '{' after %s %s",
		     tok_desc(&ps->tok, d, sizeof(d)), kw, name);
	return false;
}

/* key value... up to the end of the statement */
static void parse_attr(struct parser *ps, attr_vec *a)
{
	int line = ps->tok.line, col = ps->tok.col;
	char *key = xstrdup(ps->tok.text);
	char *val = NULL;
	size_t vlen = 0;
	struct attr *at;

	next(ps);
	while (ps->tok.type == T_WORD) {
		size_t n = strlen(ps->tok.text);
		char *nv = xmalloc(vlen + n + 2);

		if (val) {
			memcpy(nv, val, vlen);
			nv[vlen++] = ' ';
		}
		memcpy(nv + vlen, ps->tok.text, n + 1);
		vlen += n;
		free(val);
		val = nv;
		next(ps);
	}
	if (!val) {
		char d[64];

		perr(ps, ps->tok.line, ps->tok.col,
		     "unexpected %s: expected a value for attribute '%s'",
		     tok_desc(&ps->tok, d, sizeof(d)), key);
		free(key);
		return;
	}
	at = attr_add(a, key, val);
	at->line = line;
	at->col = col;
	free(key);
	free(val);
}

/* The end of a statement: end of line, ';', '}' or end of file. */
static void end_stmt(struct parser *ps)
{
	char d[64];

	if (ps->tok.type == T_EOL)
		next(ps);
	else if (ps->tok.type != T_RBRACE && ps->tok.type != T_EOF)
		perr(ps, ps->tok.line, ps->tok.col,
		     "unexpected %s: expected end of line",
		     tok_desc(&ps->tok, d, sizeof(d)));
}

typedef void (*body_fn)(struct parser *ps, void *obj);

/* Parse statements until the '}' that closes a block opened at line/col. */
static void parse_block(struct parser *ps, body_fn fn, void *obj,
			const char *kw, const char *name, int line)
{
	while (!ps->failed) {
		skip_eols(ps);
		if (ps->tok.type == T_RBRACE) {
			next(ps);
			return;
		}
		if (ps->tok.type == T_EOF) {
			perr(ps, ps->tok.line, ps->tok.col,
			     "unexpected end of file: expected '}' to close %s %s opened at line %d",
			     kw, name, line);
			return;
		}
		if (ps->tok.type == T_LBRACE) {
			perr(ps, ps->tok.line, ps->tok.col,
			     "unexpected '{': expected an attribute or a section keyword");
			return;
		}
		fn(ps, obj);
		if (!ps->failed)
			end_stmt(ps);
	}
}

static void unknown_kw(struct parser *ps, const char *expected)
{
	perr(ps, ps->tok.line, ps->tok.col,
	     "unknown section keyword '%s': expected %s",
	     ps->tok.text, expected);
}

static void attrs_body(struct parser *ps, void *obj)
{
	if (is_keyword(&ps->tok)) {
		unknown_kw(ps, "an attribute");
		return;
	}
	parse_attr(ps, obj);
}

static void parse_lun(struct parser *ps, void *luns)
{
	int line = ps->tok.line, col;
	char d[64], *end;
	unsigned long num;
	struct lun *l;

	next(ps);
	col = ps->tok.col;
	if (ps->tok.type != T_WORD) {
		perr(ps, ps->tok.line, ps->tok.col,
		     "unexpected %s: expected a LUN number after LUN",
		     tok_desc(&ps->tok, d, sizeof(d)));
		return;
	}
	errno = 0;
	num = strtoul(ps->tok.text, &end, 10);
	if (!isdigit((unsigned char)ps->tok.text[0]) || *end || errno ||
	    num > SCST_MAX_LUN) {
		perr(ps, ps->tok.line, ps->tok.col,
		     "bad LUN number '%s': expected 0 to %d",
		     ps->tok.text, SCST_MAX_LUN);
		return;
	}
	next(ps);
	if (ps->tok.type != T_WORD) {
		perr(ps, ps->tok.line, ps->tok.col,
		     "unexpected %s: expected a device name after LUN %lu",
		     tok_desc(&ps->tok, d, sizeof(d)), num);
		return;
	}
	l = lun_add(luns, num, ps->tok.text);
	l->line = line;
	l->col = col;
	l->dev_col = ps->tok.col;
	next(ps);
	if (opens_block(ps, false, "LUN", l->dev))
		parse_block(ps, attrs_body, &l->attrs, "LUN", l->dev, line);
}

static void group_body(struct parser *ps, void *obj)
{
	struct group *g = obj;

	if (!is_keyword(&ps->tok)) {
		parse_attr(ps, &g->attrs);
	} else if (strcmp(ps->tok.text, "LUN") == 0) {
		parse_lun(ps, &g->luns);
	} else if (strcmp(ps->tok.text, "INITIATOR") == 0) {
		struct initiator *in;
		int line = ps->tok.line;
		int col = ps->tok.col;
		char *name = expect_name(ps, "INITIATOR", "an initiator name");

		if (!name)
			return;
		in = vec_push(&g->inits);
		in->name = name;
		in->line = line;
		in->col = col;
	} else {
		unknown_kw(ps, "LUN, INITIATOR or an attribute");
	}
}

static void target_body(struct parser *ps, void *obj)
{
	struct target *t = obj;

	if (!is_keyword(&ps->tok)) {
		parse_attr(ps, &t->attrs);
	} else if (strcmp(ps->tok.text, "HW_TARGET") == 0) {
		/* SCST: a hardware target, which exists and is never created */
		t->hw_target = true;
		next(ps);
	} else if (strcmp(ps->tok.text, "LUN") == 0) {
		parse_lun(ps, &t->luns);
	} else if (strcmp(ps->tok.text, "GROUP") == 0) {
		int line = ps->tok.line, col = ps->tok.col;
		char *name = expect_name(ps, "GROUP", "a group name");
		struct group *g;

		if (!name)
			return;
		g = target_add_group(t, name);
		g->line = line;
		g->col = col;
		if (opens_block(ps, false, "GROUP", name))
			parse_block(ps, group_body, g, "GROUP", name, line);
		free(name);
	} else {
		unknown_kw(ps, "HW_TARGET, LUN, GROUP or an attribute");
	}
}

typedef VEC(struct target *) target_vec;

/*
 * TARGET name [block]: of a TARGET_DRIVER (@body target_body) or of a
 * TARGET_GROUP (only attributes), added to @targets.
 */
static void target_section(struct parser *ps, void *targets, body_fn body)
{
	target_vec *v = targets;
	int line = ps->tok.line, col = ps->tok.col;
	char *name = expect_name(ps, "TARGET", "a target name");
	struct target *t;

	if (!name)
		return;
	t = xcalloc(1, sizeof(*t));
	t->name = name;
	t->line = line;
	t->col = col;
	*vec_push(v) = t;
	if (opens_block(ps, false, "TARGET", name))
		parse_block(ps, body, t, "TARGET", name, line);
}

static void driver_body(struct parser *ps, void *obj)
{
	struct driver *d = obj;

	if (!is_keyword(&ps->tok)) {
		parse_attr(ps, &d->attrs);
	} else if (strcmp(ps->tok.text, "TARGET") == 0) {
		target_section(ps, &d->targets, target_body);
	} else {
		unknown_kw(ps, "TARGET or an attribute");
	}
}

static void handler_body(struct parser *ps, void *obj)
{
	struct handler *h = obj;

	if (!is_keyword(&ps->tok)) {
		parse_attr(ps, &h->attrs);
	} else if (strcmp(ps->tok.text, "DEVICE") == 0) {
		int line = ps->tok.line, col = ps->tok.col;
		char *name = expect_name(ps, "DEVICE", "a device name");
		struct device *dv;

		if (!name)
			return;
		dv = handler_add_device(h, name);
		dv->line = line;
		dv->col = col;
		if (opens_block(ps, false, "DEVICE", name))
			parse_block(ps, attrs_body, &dv->attrs, "DEVICE", name,
				    line);
		free(name);
	} else {
		unknown_kw(ps, "DEVICE or an attribute");
	}
}

static void tgroup_target_body(struct parser *ps, void *obj)
{
	attrs_body(ps, &((struct target *)obj)->attrs);
}

static void tgroup_body(struct parser *ps, void *obj)
{
	struct tgt_group *g = obj;

	if (!is_keyword(&ps->tok)) {
		parse_attr(ps, &g->attrs);
	} else if (strcmp(ps->tok.text, "TARGET") == 0) {
		target_section(ps, &g->targets, tgroup_target_body);
	} else {
		unknown_kw(ps, "TARGET or an attribute");
	}
}

/* SCST's ALUA block: its devices and target groups */
static void dgroup_body(struct parser *ps, void *obj)
{
	struct dev_group *g = obj;
	int line = ps->tok.line, col = ps->tok.col;

	if (!is_keyword(&ps->tok)) {
		parse_attr(ps, &g->attrs);
	} else if (strcmp(ps->tok.text, "DEVICE") == 0) {
		char *name = expect_name(ps, "DEVICE", "a device name");
		struct initiator *d;

		if (!name)
			return;
		d = vec_push(&g->devices);
		d->name = name;
		d->line = line;
		d->col = col;
	} else if (strcmp(ps->tok.text, "TARGET_GROUP") == 0) {
		char *name = expect_name(ps, "TARGET_GROUP",
					 "a target group name");
		struct tgt_group *tg;

		if (!name)
			return;
		tg = dgroup_add_tgroup(g, name);
		tg->line = line;
		tg->col = col;
		if (opens_block(ps, false, "TARGET_GROUP", name))
			parse_block(ps, tgroup_body, tg, "TARGET_GROUP", name,
				    line);
		free(name);
	} else {
		unknown_kw(ps, "DEVICE, TARGET_GROUP or an attribute");
	}
}

static void top_stmt(struct parser *ps, struct tree *t)
{
	char d[64];
	int line = ps->tok.line, col = ps->tok.col;

	if (ps->tok.type == T_RBRACE) {
		perr(ps, line, col, "unexpected '}': no section is open");
		return;
	}
	if (ps->tok.type == T_LBRACE) {
		perr(ps, line, col,
		     "unexpected '{': expected HANDLER or TARGET_DRIVER");
		return;
	}
	if (!is_keyword(&ps->tok)) {
		/* an SCST root attribute: setup_id, cluster_name... */
		parse_attr(ps, &t->attrs);
		return;
	}
	if (strcmp(ps->tok.text, "HANDLER") == 0) {
		char *name = expect_name(ps, "HANDLER", "a handler name");
		struct handler *h;

		if (!name)
			return;
		h = tree_add_handler(t, name);
		h->line = line;
		h->col = col;
		if (opens_block(ps, true, "HANDLER", name))
			parse_block(ps, handler_body, h, "HANDLER", name, line);
		free(name);
	} else if (strcmp(ps->tok.text, "TARGET_DRIVER") == 0) {
		char *name = expect_name(ps, "TARGET_DRIVER", "a driver name");
		struct driver *dr;

		if (!name)
			return;
		dr = tree_add_driver(t, name);
		dr->line = line;
		dr->col = col;
		if (opens_block(ps, true, "TARGET_DRIVER", name))
			parse_block(ps, driver_body, dr, "TARGET_DRIVER", name,
				    line);
		free(name);
	} else if (strcmp(ps->tok.text, "DEVICE_GROUP") == 0) {
		char *name = expect_name(ps, "DEVICE_GROUP",
					 "a device group name");
		struct dev_group *g;

		if (!name)
			return;
		g = tree_add_dgroup(t, name);
		g->line = line;
		g->col = col;
		if (opens_block(ps, true, "DEVICE_GROUP", name))
			parse_block(ps, dgroup_body, g, "DEVICE_GROUP", name,
				    line);
		free(name);
	} else if (!strcmp(ps->tok.text, "DEVICE") ||
		   !strcmp(ps->tok.text, "TARGET") ||
		   !strcmp(ps->tok.text, "LUN") ||
		   !strcmp(ps->tok.text, "GROUP") ||
		   !strcmp(ps->tok.text, "INITIATOR")) {
		perr(ps, line, col,
		     "%s outside its section: expected HANDLER, TARGET_DRIVER or DEVICE_GROUP",
		     tok_desc(&ps->tok, d, sizeof(d)));
	} else {
		unknown_kw(ps, "HANDLER, TARGET_DRIVER or DEVICE_GROUP");
	}
}

struct tree *conf_parse(const char *fname, const char *text,
			char *err, size_t errlen)
{
	struct parser ps = {
		.fname = fname, .p = text, .line = 1, .col = 1,
		.err = err, .errlen = errlen,
	};
	struct tree *t = tree_new();

	if (errlen)
		err[0] = '\0';
	next(&ps);
	while (!ps.failed) {
		skip_eols(&ps);
		if (ps.tok.type == T_EOF)
			break;
		top_stmt(&ps, t);
		if (!ps.failed)
			end_stmt(&ps);
	}
	free(ps.tok.text);
	if (ps.failed || conf_check(t, fname, err, errlen)) {
		tree_free(t);
		return NULL;
	}
	t->src = xstrdup(fname);
	return t;
}

struct tree *conf_parse_file(const char *fname, char *err, size_t errlen)
{
	size_t len = 0, cap = 4096, n;
	struct stat st;
	struct tree *t;
	char *buf;
	FILE *f;

	if (stat(fname, &st)) {
		snprintf(err, errlen, "%s: %s", fname, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s, expected a configuration file",
			 fname, S_ISDIR(st.st_mode) ? "is a directory" :
			 "not a regular file");
		return NULL;
	}
	f = fopen(fname, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot read it: %s", fname,
			 strerror(errno));
		return NULL;
	}
	buf = xmalloc(cap);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2)
			vec_reserve((void **)&buf, &cap, cap * 2, 1);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: cannot read it: %s", fname,
			 strerror(errno));
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		snprintf(err, errlen, "%s: contains a NUL byte", fname);
		free(buf);
		return NULL;
	}
	t = conf_parse(fname, buf, err, errlen);
	free(buf);
	return t;
}
