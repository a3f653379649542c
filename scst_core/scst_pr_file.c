// SPDX-License-Identifier: GPL-2.0-only
/*
 * The APTPL file of persistent reservations (SPC-4 §5.9.4: "activate
 * persist through power loss"): a logical unit's struct scst_pr_state as
 * the text kept in /var/lib/scst/pr/<device>, and its strict parser. The
 * format is described at the top of include/scst_pr.h; the file I/O is
 * the core's.
 */

#include <scst_pr.h>

#define PR_FILE_MAGIC		"scst-ng-pr"
#define PR_FILE_VERSION		1

/* ---------------------------------------------------------------------- */
/* Writing                                                                */
/* ---------------------------------------------------------------------- */

struct pr_out_text {
	char *buf;
	size_t size;
	size_t len;
};

static void put_mem(struct pr_out_text *t, const char *s, size_t n)
{
	if (t->len < t->size)
		memcpy(t->buf + t->len, s, min(n, t->size - t->len));
	t->len += n;
}

static void put_str(struct pr_out_text *t, const char *s)
{
	put_mem(t, s, strlen(s));
}

static void put_dec(struct pr_out_text *t, u64 v)
{
	char d[20];
	size_t n = 0;

	do {
		d[sizeof(d) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put_mem(t, d + sizeof(d) - n, n);
}

static void put_key(struct pr_out_text *t, u64 key)
{
	static const char hex[] = "0123456789abcdef";
	char d[18];
	int i;

	d[0] = '0';
	d[1] = 'x';
	for (i = 0; i < 16; i++)
		d[2 + i] = hex[(key >> (60 - 4 * i)) & 0xf];
	put_mem(t, d, sizeof(d));
}

/**
 * scst_pr_file_write() - the APTPL file text of a state
 * @st: the state, consistent (scst_pr_state_valid())
 * @buf: receives what fits of the text, NUL-terminated if there is room
 *	after it
 * @size: size of @buf; SCST_PR_FILE_MAX_LEN always suffices
 *
 * Return: the length of the whole text (the NUL excluded), or -EINVAL for
 * a state with a TransportID that cannot be written.
 */
int scst_pr_file_write(const struct scst_pr_state *st, char *buf, size_t size)
{
	char tid[8 + SCST_PR_TID_MAX_LEN];
	struct pr_out_text t = { buf, size, 0 };
	unsigned int i;

	put_str(&t, PR_FILE_MAGIC " ");
	put_dec(&t, PR_FILE_VERSION);
	put_str(&t, "\ngeneration ");
	put_dec(&t, st->generation);
	put_str(&t, st->aptpl ? "\naptpl 1\n" : "\naptpl 0\n");
	for (i = 0; i < st->nreg; i++) {
		const struct scst_pr_registrant *r = &st->reg[i];

		if (scst_pr_tid_format(&r->tid, tid, sizeof(tid)) < 0)
			return -EINVAL;
		put_str(&t, "registrant ");
		put_key(&t, r->key);
		put_str(&t, " ");
		put_str(&t, tid);
		put_str(&t, " ");
		put_dec(&t, r->rel_tgt_id);
		put_str(&t, r->all_tg_pt ? " 1\n" : " 0\n");
	}
	if (st->type != SCST_PR_TYPE_NONE) {
		put_str(&t, "reservation ");
		put_dec(&t, st->type);
		put_str(&t, " ");
		if (st->holder == SCST_PR_HOLDER_ALL)
			put_str(&t, "all");
		else
			put_dec(&t, st->holder);
		put_str(&t, "\n");
	}
	put_str(&t, "end\n");
	if (t.len < size)
		buf[t.len] = '\0';
	return t.len;
}
EXPORT_SYMBOL_GPL(scst_pr_file_write);

/* SPC-4 §6.15.3.3 table 169: short names of the reservation types. */
static const char *pr_type_name(u8 type)
{
	switch (type) {
	case SCST_PR_TYPE_WE:
		return "WE";
	case SCST_PR_TYPE_EA:
		return "EA";
	case SCST_PR_TYPE_WE_RO:
		return "WE_RO";
	case SCST_PR_TYPE_EA_RO:
		return "EA_RO";
	case SCST_PR_TYPE_WE_AR:
		return "WE_AR";
	case SCST_PR_TYPE_EA_AR:
		return "EA_AR";
	default:
		return "?";
	}
}

/**
 * scst_pr_state_show() - the state as the text of devices/<dev>/pr_state
 * @st: the state
 * @buf: receives what fits of the text, NUL-terminated if there is room
 *	after it
 * @size: size of @buf
 *
 * For an administrator: the same facts as the APTPL file, labelled:
 *
 *	generation 7
 *	aptpl 1
 *	reservation WE_RO (5) holder 0
 *	registrants 2
 *	registrant 0 key 0x00000000000000ab transport_id iscsi:nodea rel_tgt_id 1 all_tg_pt 0
 *	registrant 1 ...
 *
 * "reservation none" without a reservation, "holder all" for the all
 * registrants types. A TransportID that cannot be written shows as "?".
 *
 * Return: the length of the whole text (the NUL excluded).
 */
int scst_pr_state_show(const struct scst_pr_state *st, char *buf, size_t size)
{
	char tid[8 + SCST_PR_TID_MAX_LEN];
	struct pr_out_text t = { buf, size, 0 };
	unsigned int i;

	put_str(&t, "generation ");
	put_dec(&t, st->generation);
	put_str(&t, st->aptpl ? "\naptpl 1\n" : "\naptpl 0\n");
	if (st->type == SCST_PR_TYPE_NONE) {
		put_str(&t, "reservation none\n");
	} else {
		put_str(&t, "reservation ");
		put_str(&t, pr_type_name(st->type));
		put_str(&t, " (");
		put_dec(&t, st->type);
		put_str(&t, ") holder ");
		if (st->holder == SCST_PR_HOLDER_ALL)
			put_str(&t, "all");
		else
			put_dec(&t, (u16)st->holder);
		put_str(&t, "\n");
	}
	put_str(&t, "registrants ");
	put_dec(&t, st->nreg);
	put_str(&t, "\n");
	for (i = 0; i < st->nreg && i < SCST_PR_MAX_REGISTRANTS; i++) {
		const struct scst_pr_registrant *r = &st->reg[i];

		if (scst_pr_tid_format(&r->tid, tid, sizeof(tid)) < 0)
			memcpy(tid, "?", 2);
		put_str(&t, "registrant ");
		put_dec(&t, i);
		put_str(&t, " key ");
		put_key(&t, r->key);
		put_str(&t, " transport_id ");
		put_str(&t, tid);
		put_str(&t, " rel_tgt_id ");
		put_dec(&t, r->rel_tgt_id);
		put_str(&t, r->all_tg_pt ? " all_tg_pt 1\n" : " all_tg_pt 0\n");
	}
	if (t.len < size)
		buf[t.len] = '\0';
	return t.len;
}
EXPORT_SYMBOL_GPL(scst_pr_state_show);

/* ---------------------------------------------------------------------- */
/* Parsing                                                                */
/* ---------------------------------------------------------------------- */

#define PR_FILE_MAX_TOKENS	5

struct pr_line {
	const char *tok[PR_FILE_MAX_TOKENS];
	size_t len[PR_FILE_MAX_TOKENS];
	unsigned int n;
};

/* Split @s (@n bytes, no newline) at single spaces; false if malformed. */
static bool split_line(const char *s, size_t n, struct pr_line *l,
		       const char **why)
{
	size_t i, start = 0;

	l->n = 0;
	for (i = 0; i <= n; i++) {
		if (i < n && s[i] != ' ') {
			if ((u8)s[i] < 0x21 || (u8)s[i] > 0x7e) {
				*why = "control or non-ASCII character";
				return false;
			}
			continue;
		}
		if (i == start) {
			*why = n ? "empty field (stray blank)" : "empty line";
			return false;
		}
		if (l->n == PR_FILE_MAX_TOKENS) {
			*why = "too many fields";
			return false;
		}
		l->tok[l->n] = s + start;
		l->len[l->n] = i - start;
		l->n++;
		start = i + 1;
	}
	return true;
}

static bool tok_is(const struct pr_line *l, unsigned int i, const char *s)
{
	return l->len[i] == strlen(s) && !memcmp(l->tok[i], s, l->len[i]);
}

/* A decimal number without sign or leading zeroes, at most @max. */
static bool tok_dec(const struct pr_line *l, unsigned int i, u64 max, u64 *v)
{
	const char *s = l->tok[i];
	size_t n = l->len[i], k;
	u64 d;

	*v = 0;
	if (n > 1 && s[0] == '0')
		return false;
	for (k = 0; k < n; k++) {
		if (s[k] < '0' || s[k] > '9')
			return false;
		d = s[k] - '0';
		if (d > max || *v > (max - d) / 10)
			return false;
		*v = *v * 10 + d;
	}
	return true;
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Exactly 2 * @n lowercase hex digits into @out. */
static bool hex_bytes(const char *s, size_t len, u8 *out, size_t n)
{
	size_t i;
	int hi, lo;

	if (len != 2 * n)
		return false;
	for (i = 0; i < n; i++) {
		hi = hex_val(s[2 * i]);
		lo = hex_val(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		out[i] = (u8)(hi << 4 | lo);
	}
	return true;
}

/* The TransportID text of scst_pr_tid_format(). */
static bool tok_tid(const struct pr_line *l, unsigned int i,
		    struct scst_pr_tid *tid)
{
	static const struct {
		const char *pfx;
		u8 proto;
		u8 off;
		u8 len;
	} fixed[] = {
		{ "srp:", SCST_PROTO_ID_SRP, 8, 16 },
		{ "fc:", 0x0, 8, 8 },
		{ "sbp:", 0x3, 8, 8 },
		{ "sas:", SCST_PROTO_ID_SAS, 4, 8 },
	};
	char name[SCST_PR_ISCSI_NAME_MAX + 1];
	const char *s = l->tok[i];
	size_t n = l->len[i], k, p;

	memset(tid, 0, sizeof(*tid));
	if (n > 6 && !memcmp(s, "iscsi:", 6)) {
		if (n - 6 > SCST_PR_ISCSI_NAME_MAX)
			return false;
		memcpy(name, s + 6, n - 6);
		name[n - 6] = '\0';
		return !scst_pr_tid_from_iscsi_name(tid, name);
	}
	for (k = 0; k < ARRAY_SIZE(fixed); k++) {
		p = strlen(fixed[k].pfx);
		if (n < p || memcmp(s, fixed[k].pfx, p))
			continue;
		if (!hex_bytes(s + p, n - p, tid->data + fixed[k].off,
			       fixed[k].len)) {
			memset(tid, 0, sizeof(*tid));
			return false;
		}
		tid->data[0] = fixed[k].proto;
		tid->len = SCST_PR_TID_FIXED_LEN;
		return true;
	}
	return false;
}

/* One "registrant KEY TRANSPORTID REL_TGT_ID ALL_TG_PT" line. */
static const char *parse_registrant(const struct pr_line *l,
				    struct scst_pr_state *st)
{
	struct scst_pr_registrant r;
	u64 v;
	unsigned int i;
	u8 key[8];

	if (l->n != 5)
		return "registrant needs 4 fields";
	if (l->len[1] != 18 || memcmp(l->tok[1], "0x", 2) ||
	    !hex_bytes(l->tok[1] + 2, 16, key, 8))
		return "bad key (0x and 16 lowercase hex digits)";
	r.key = get_unaligned_be64(key);
	if (!r.key)
		return "key 0 cannot be registered";
	if (!tok_tid(l, 2, &r.tid))
		return "bad TransportID";
	if (!tok_dec(l, 3, U16_MAX, &v))
		return "bad relative target port identifier";
	r.rel_tgt_id = (u16)v;
	if (!tok_is(l, 4, "0") && !tok_is(l, 4, "1"))
		return "ALL_TG_PT must be 0 or 1";
	r.all_tg_pt = tok_is(l, 4, "1");
	if (st->nreg >= SCST_PR_MAX_REGISTRANTS)
		return "too many registrants";
	for (i = 0; i < st->nreg; i++)
		if (scst_pr_regs_overlap(&st->reg[i], &r))
			return "registrant duplicates an earlier one";
	st->reg[st->nreg++] = r;
	return NULL;
}

/* One "reservation TYPE HOLDER" line. */
static const char *parse_reservation(const struct pr_line *l,
				     struct scst_pr_state *st)
{
	bool all;
	u64 v;

	if (l->n != 3)
		return "reservation needs 2 fields";
	if (!tok_dec(l, 1, U8_MAX, &v) || !scst_pr_type_valid((u8)v))
		return "bad reservation type";
	st->type = (u8)v;
	all = st->type == SCST_PR_TYPE_WE_AR || st->type == SCST_PR_TYPE_EA_AR;
	if (!st->nreg)
		return "reservation without registrants";
	if (all) {
		if (!tok_is(l, 2, "all"))
			return "all registrants type needs holder \"all\"";
		st->holder = SCST_PR_HOLDER_ALL;
		return NULL;
	}
	if (!tok_dec(l, 2, st->nreg - 1, &v))
		return "holder is not the index of a registrant";
	st->holder = (s16)v;
	return NULL;
}

enum pr_file_stage {
	PR_STAGE_MAGIC,
	PR_STAGE_GENERATION,
	PR_STAGE_APTPL,
	PR_STAGE_REGISTRANTS,
	PR_STAGE_RESERVED,
	PR_STAGE_END,
};

/* One line; @stage says what may come. NULL or what is wrong with it. */
static const char *parse_line(const struct pr_line *l,
			      enum pr_file_stage *stage,
			      struct scst_pr_state *st)
{
	const char *why;
	u64 v;

	switch (*stage) {
	case PR_STAGE_MAGIC:
		if (l->n != 2 || !tok_is(l, 0, PR_FILE_MAGIC))
			return "not a " PR_FILE_MAGIC " file";
		if (!tok_is(l, 1, "1"))
			return "unsupported version";
		*stage = PR_STAGE_GENERATION;
		return NULL;
	case PR_STAGE_GENERATION:
		if (l->n != 2 || !tok_is(l, 0, "generation") ||
		    !tok_dec(l, 1, U32_MAX, &v))
			return "expected \"generation N\"";
		st->generation = (u32)v;
		*stage = PR_STAGE_APTPL;
		return NULL;
	case PR_STAGE_APTPL:
		if (l->n != 2 || !tok_is(l, 0, "aptpl") ||
		    (!tok_is(l, 1, "0") && !tok_is(l, 1, "1")))
			return "expected \"aptpl 0|1\"";
		st->aptpl = tok_is(l, 1, "1");
		*stage = PR_STAGE_REGISTRANTS;
		return NULL;
	case PR_STAGE_REGISTRANTS:
	case PR_STAGE_RESERVED:
		if (l->n == 1 && tok_is(l, 0, "end")) {
			*stage = PR_STAGE_END;
			return NULL;
		}
		if (*stage == PR_STAGE_REGISTRANTS &&
		    tok_is(l, 0, "registrant"))
			return parse_registrant(l, st);
		if (*stage == PR_STAGE_REGISTRANTS &&
		    tok_is(l, 0, "reservation")) {
			why = parse_reservation(l, st);
			*stage = PR_STAGE_RESERVED;
			return why;
		}
		return *stage == PR_STAGE_RESERVED ?
		       "expected \"end\" after the reservation" :
		       "expected registrant, reservation or end";
	case PR_STAGE_END:
		break;
	}
	return "text after \"end\"";
}

/**
 * scst_pr_file_parse() - a state from its APTPL file text
 * @buf: the file's contents (need not be NUL-terminated)
 * @len: its length
 * @st: receives the state; empty (scst_pr_state_init()) on error
 * @err: receives the line and the reason on error
 *
 * Return: 0, or -EINVAL for a file that is malformed, truncated, too long
 * or inconsistent.
 */
int scst_pr_file_parse(const char *buf, size_t len, struct scst_pr_state *st,
		       struct scst_pr_file_err *err)
{
	enum pr_file_stage stage = PR_STAGE_MAGIC;
	const char *why = NULL, *nl;
	unsigned int line = 0;
	struct pr_line l;
	size_t off = 0;

	scst_pr_state_init(st);
	err->line = 0;
	err->reason = NULL;
	if (len > SCST_PR_FILE_MAX_LEN) {
		why = "file too long";
		goto fail;
	}
	while (off < len) {
		line++;
		nl = memchr(buf + off, '\n', len - off);
		if (!nl) {
			why = "last line has no newline (truncated file)";
			goto fail;
		}
		if (!split_line(buf + off, nl - (buf + off), &l, &why))
			goto fail;
		why = parse_line(&l, &stage, st);
		if (why)
			goto fail;
		off = nl + 1 - buf;
	}
	if (stage != PR_STAGE_END) {
		line = 0;
		why = "no \"end\" line (truncated file)";
		goto fail;
	}
	return 0;
fail:
	scst_pr_state_init(st);
	err->line = line;
	err->reason = why;
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(scst_pr_file_parse);
