// SPDX-License-Identifier: GPL-2.0-only
/*
 * Importing SCST's own APTPL files: the binary files SCST 3.x keeps in
 * /var/lib/scst/pr/<device> (and the previous copy in <device>.1), turned
 * into a struct scst_pr_state, so that a site moving from SCST keeps the
 * registrations and reservations its clusters hold (SPC-4 §5.9.5, APTPL).
 * Pure logic: the core reads the files and writes ours
 * (scst_pr_aptpl.c).
 *
 * SCST's layout (version 1, every SCST release since 2.1; "host order"
 * is little-endian on the x86-64 hosts SCST runs on):
 *
 *	0   8  signature 0xBBEEEEAAEEBBDD77, host order (0: unfinished write)
 *	8   8  version 1, host order
 *	16  1  aptpl
 *	17  1  pr_is_set: a persistent reservation exists
 *	18  1  pr_type, SPC-4 table 169 (0xff without a reservation)
 *	19  1  pr_scope, 0 (LU_SCOPE)
 *	20  then per registrant, in registration order, packed:
 *	       1 is_holder, T TransportID, 8 key (big-endian, as in the CDB),
 *	       2 relative target port identifier (host order)
 *
 * where T is 4 + the ADDITIONAL LENGTH (bytes 2-3, big-endian) for iSCSI
 * and 24 for every other protocol. SCST's loader trusts these lengths;
 * here every one is checked against the buffer first.
 *
 * What we refuse (with the offset and the record at fault), and why:
 *  - What SCST itself refuses, so that its fallback to <device>.1 can be
 *    followed (err->fallback): a size under 20 or over
 *    SCST_PR_SCST_FILE_MAX_LEN, a bad signature (0 included: SCST writes
 *    the signature last), version != 1, a record running past the end.
 *  - What SCST would load but we cannot map faithfully: a single byte
 *    after the last record (recent SCST ignores it; no SCST writes it),
 *    flag bytes other than 0 and 1, a scope other than LU_SCOPE, an
 *    invalid type with a reservation, a reservation of a one-holder type
 *    with no holder or two, a holder flag without a reservation, a
 *    TransportID protocol or format our PR code does not take (FC, SBP,
 *    SRP, SAS format 00b, iSCSI 00b and 01b), key 0, relative target
 *    port 0, more than SCST_PR_MAX_REGISTRANTS registrants, and two
 *    registrants that would match one I_T nexus here. The last one
 *    includes two iSCSI registrants of one initiator name on one target
 *    port with different ISIDs (format 01b): SCST keeps them apart, we
 *    register by initiator name (include/scst_pr.h), so they would merge;
 *    picking one key would be a silent guess about which one fences whom.
 *  - SCST 2.0's layout (19-byte header without the aptpl byte; the key
 *    probably in host order): the version number is the same, so it is
 *    recognized by its records lining up from offset 19 and refused with
 *    its own message rather than imported by guesswork. Files written on
 *    a big-endian host (signature bytes reversed) likewise.
 *
 * Holder flags with an all registrants type (7, 8) are ignored: every
 * registrant holds those, and SCST can leave the flag of an earlier holder
 * behind when a PREEMPT changes the type to one of them.
 */

#include <scst_pr.h>

#define SCST_FILE_SIGN		0xBBEEEEAAEEBBDD77ULL
#define SCST_FILE_VERSION	1
#define SCST_FILE_HDR_LEN	20
#define SCST_FILE_HDR_LEN_2_0	19
/* SCST's TID_COMMON_SIZE: every TransportID but iSCSI's */
#define SCST_FILE_TID_COMMON	24
/* after the TransportID: the key and the relative target port id */
#define SCST_FILE_REC_TAIL	10
/* our own file's first line (scst_pr_file.c) */
#define OUR_FILE_MAGIC		"scst-ng-pr "

static u64 get_le64(const u8 *p)
{
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static u16 get_le16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

static int refuse(struct scst_pr_scst_err *err, size_t offset, int record,
		  const char *reason, bool fallback)
{
	err->offset = offset;
	err->record = record;
	err->reason = reason;
	err->fallback = fallback;
	return -EINVAL;
}

/*
 * The length of the TransportID at @p with @avail bytes left in the file,
 * as SCST computes it; 0 when even its length cannot be read.
 */
static size_t tid_len(const u8 *p, size_t avail)
{
	if (avail < 1)
		return 0;
	if ((p[0] & 0x0f) != SCST_PROTO_ID_ISCSI)
		return SCST_FILE_TID_COMMON;
	if (avail < 4)
		return 0;
	return 4 + (size_t)get_unaligned_be16(p + 2);
}

/*
 * SCST's size walk, bounds-checked: from @hdr, records until the end.
 * Return: the number of records; -1 when one runs past the end (offset
 * in *@bad, record number in *@rec), -2 when one byte is left over.
 */
static int walk(const u8 *buf, size_t len, size_t hdr, size_t *bad,
		int *rec)
{
	size_t pos = hdr, t;
	int n = 0;

	while (pos < len) {
		*bad = pos;
		*rec = n;
		if (len - pos == 1)
			return -2;
		t = tid_len(buf + pos + 1, len - pos - 1);
		if (!t || t + SCST_FILE_REC_TAIL > len - pos - 1)
			return -1;
		pos += 1 + t + SCST_FILE_REC_TAIL;
		n++;
	}
	return n;
}

/*
 * Whether @buf lines up as SCST 2.0's layout: records from offset 19 to
 * the end, with plausible holder flags and TransportID protocols.
 */
static bool looks_like_2_0(const u8 *buf, size_t len)
{
	size_t pos = SCST_FILE_HDR_LEN_2_0, bad;
	int rec, n, i;
	u8 proto;

	n = walk(buf, len, SCST_FILE_HDR_LEN_2_0, &bad, &rec);
	if (n < 0)
		return false;
	for (i = 0; i < n; i++) {
		proto = buf[pos + 1] & 0x0f;
		if (buf[pos] > 1 || (proto != 0 && proto != 3 && proto != 4 &&
				     proto != 5 && proto != 6))
			return false;
		pos += 1 + tid_len(buf + pos + 1, len - pos - 1) +
		       SCST_FILE_REC_TAIL;
	}
	return true;
}

/*
 * The TransportID of the record at @p (@t bytes) in our canonical form.
 * Return: NULL, or why it cannot be imported.
 */
static const char *import_tid(const u8 *p, size_t t, struct scst_pr_tid *out,
			      bool *isid)
{
	char name[SCST_PR_ISCSI_NAME_MAX + 1];
	u8 proto = p[0] & 0x0f, fmt = p[0] >> 6;
	size_t n, cut;

	*isid = false;
	if (proto != SCST_PROTO_ID_ISCSI) {
		if (proto != 0 && proto != 3 && proto != SCST_PROTO_ID_SRP &&
		    proto != SCST_PROTO_ID_SAS)
			return "unknown TransportID protocol (not FC, SBP, SRP, iSCSI or SAS)";
		if (fmt)
			return "TransportID format other than 00b";
		if (scst_pr_tid_parse(p, t, out) != SCST_PR_TID_FIXED_LEN)
			return "TransportID refused";
		return NULL;
	}
	/*
	 * iSCSI (SPC-4 §7.6.4.6): the name, NUL-terminated, and with format
	 * 01b ",i,0x" and the ISID after it, which we drop: our
	 * registrations name the initiator, not the session's port.
	 */
	if (fmt > 1)
		return "iSCSI TransportID format other than 00b and 01b";
	for (n = 0; n < t - 4 && p[4 + n]; n++)
		;
	if (n == t - 4)
		return "iSCSI name not NUL-terminated";
	cut = n;
	if (fmt == 1) {
		for (cut = 0; cut < n && p[4 + cut] != ','; cut++)
			;
		if (n - cut < 6 || memcmp(p + 4 + cut, ",i,0x", 5))
			return "iSCSI TransportID format 01b without \",i,0x<ISID>\"";
		*isid = true;
	}
	if (!cut)
		return "empty iSCSI name";
	if (cut > SCST_PR_ISCSI_NAME_MAX)
		return "iSCSI name longer than 223 bytes";
	memcpy(name, p + 4, cut);
	name[cut] = '\0';
	if (scst_pr_tid_from_iscsi_name(out, name))
		return "iSCSI name with a blank or a character outside printable ASCII";
	return NULL;
}

static bool type_all_registrants(u8 type)
{
	return type == SCST_PR_TYPE_WE_AR || type == SCST_PR_TYPE_EA_AR;
}

static int parse(const u8 *buf, size_t len, struct scst_pr_state *st,
		 struct scst_pr_scst_err *err)
{
	bool set, isid[SCST_PR_MAX_REGISTRANTS], this_isid;
	size_t pos = SCST_FILE_HDR_LEN, bad = 0, t;
	int nrec, rec = 0, holder = -1;
	struct scst_pr_registrant *r;
	const char *why;
	unsigned int i;
	u8 type;
	u16 rel;

	if (len < 8)
		return refuse(err, 0, -1, "shorter than SCST's 20-byte header",
			      true);
	if (len > SCST_PR_SCST_FILE_MAX_LEN)
		return refuse(err, 0, -1, "larger than we import (64 KiB)",
			      true);
	if (get_le64(buf) != SCST_FILE_SIGN) {
		if (get_unaligned_be64(buf) == SCST_FILE_SIGN)
			return refuse(err, 0, -1, "written on a big-endian host: not supported",
				      true);
		if (!get_le64(buf))
			return refuse(err, 0, -1, "signature 0: SCST did not finish writing it",
				      true);
		return refuse(err, 0, -1, "bad signature", true);
	}
	if (len < 16)
		return refuse(err, 0, -1, "shorter than SCST's 20-byte header",
			      true);
	if (get_le64(buf + 8) != SCST_FILE_VERSION)
		return refuse(err, 8, -1, "version not 1", true);
	if (len == SCST_FILE_HDR_LEN_2_0)
		return refuse(err, 16, -1,
			      "a 19-byte header: SCST 2.0's layout (no aptpl byte), not supported",
			      false);
	if (len < SCST_FILE_HDR_LEN)
		return refuse(err, 0, -1, "shorter than SCST's 20-byte header",
			      true);
	nrec = walk(buf, len, SCST_FILE_HDR_LEN, &bad, &rec);
	if (nrec < 0 && looks_like_2_0(buf, len))
		return refuse(err, 16, -1,
			      "records line up after a 19-byte header: SCST 2.0's layout (no aptpl byte), not supported",
			      false);
	if (nrec == -1)
		return refuse(err, bad, rec,
			      "record runs past the end of the file (truncated, or a TransportID length is wrong)",
			      true);
	if (nrec == -2)
		return refuse(err, bad, rec, "one byte after the last record",
			      false);

	/* The header (SCST writes each flag as 0 or 1). */
	if (buf[16] > 1)
		return refuse(err, 16, -1, "aptpl byte not 0 or 1", false);
	if (buf[17] > 1)
		return refuse(err, 17, -1, "pr_is_set byte not 0 or 1", false);
	set = buf[17];
	type = buf[18];
	if (set && !scst_pr_type_valid(type))
		return refuse(err, 18, -1, "invalid persistent reservation type",
			      false);
	if (buf[19] != SCST_PR_SCOPE_LU)
		return refuse(err, 19, -1, "scope not LU_SCOPE (0)", false);
	if (nrec > SCST_PR_MAX_REGISTRANTS) {
		/* the first record past the limit */
		for (i = 0; i < SCST_PR_MAX_REGISTRANTS; i++)
			pos += 1 + tid_len(buf + pos + 1, len - pos - 1) +
			       SCST_FILE_REC_TAIL;
		return refuse(err, pos, SCST_PR_MAX_REGISTRANTS,
			      "more registrants than we keep (128)", false);
	}
	st->aptpl = buf[16];

	for (rec = 0; rec < nrec; rec++) {
		r = &st->reg[rec];
		t = tid_len(buf + pos + 1, len - pos - 1);
		if (buf[pos] > 1)
			return refuse(err, pos, rec, "is_holder byte not 0 or 1",
				      false);
		if (buf[pos] && !set)
			return refuse(err, pos, rec, "holder flag without a reservation",
				      false);
		if (buf[pos] && !type_all_registrants(type)) {
			if (holder >= 0)
				return refuse(err, pos, rec, "a second holder flag",
					      false);
			holder = rec;
		}
		why = import_tid(buf + pos + 1, t, &r->tid, &this_isid);
		if (why)
			return refuse(err, pos + 1, rec, why, false);
		r->key = get_unaligned_be64(buf + pos + 1 + t);
		if (!r->key)
			return refuse(err, pos + 1 + t, rec, "key 0", false);
		rel = get_le16(buf + pos + 1 + t + 8);
		if (!rel)
			return refuse(err, pos + 1 + t + 8, rec,
				      "relative target port identifier 0",
				      false);
		r->rel_tgt_id = rel;
		r->all_tg_pt = false;
		isid[rec] = this_isid;
		for (i = 0; i < (unsigned int)rec; i++) {
			if (!scst_pr_regs_overlap(&st->reg[i], r))
				continue;
			if (isid[i] && this_isid)
				return refuse(err, pos, rec,
					      "same iSCSI initiator name and target port as an earlier registrant, with another ISID: they would merge here (one registration per initiator name); keep one in SCST first",
					      false);
			return refuse(err, pos, rec,
				      "same initiator port and target port as an earlier registrant",
				      false);
		}
		pos += 1 + t + SCST_FILE_REC_TAIL;
	}
	st->nreg = nrec;

	if (set) {
		if (!nrec)
			return refuse(err, 17, -1, "a reservation without registrants",
				      false);
		if (type_all_registrants(type)) {
			holder = SCST_PR_HOLDER_ALL;
		} else if (holder < 0) {
			return refuse(err, 17, -1,
				      "a reservation with no holder flag on any registrant",
				      false);
		}
		st->type = type;
		st->holder = holder;
	}
	if (!scst_pr_state_valid(st))
		return refuse(err, 0, -1, "inconsistent state", false);
	return 0;
}

/**
 * scst_pr_scst_file_parse() - import one SCST APTPL file
 * @buf: the file's bytes
 * @len: their number
 * @st: receives the state: PRgeneration 0 (SCST does not keep it and
 *	starts again from 0), registrants in the file's order with
 *	ALL_TG_PT clear (SCST stores one record per target port); empty on
 *	refusal
 * @err: on refusal, the offset and record at fault, the reason, and
 *	whether SCST itself would refuse the file (and try <file>.1)
 *
 * Return: 0, or -EINVAL after filling @err.
 */
int scst_pr_scst_file_parse(const u8 *buf, size_t len,
			    struct scst_pr_state *st,
			    struct scst_pr_scst_err *err)
{
	int ret;

	scst_pr_state_init(st);
	memset(err, 0, sizeof(*err));
	ret = parse(buf, len, st, err);
	if (ret)
		scst_pr_state_init(st);
	return ret;
}
EXPORT_SYMBOL_GPL(scst_pr_scst_file_parse);

/**
 * scst_pr_scst_choose() - which file to take at a device's start
 * @main: the bytes of /var/lib/scst/pr/<device>, NULL when there is none
 * @main_len: their number
 * @bak: the bytes of <device>.1, NULL when there is none
 * @bak_len: their number
 * @st: receives the imported state (SCST_PR_SCST_MAIN, _BACKUP), empty
 *	otherwise
 * @c: receives the decision and why each SCST file tried was refused
 *
 * As SCST's loader: <device> first; when SCST itself would refuse it
 * (bad signature or an unfinished write, truncated), <device>.1. A main
 * file in our format (or none that looks like SCST's, with no .1 beside
 * it) is left to scst_pr_file_parse(): SCST_PR_SCST_OURS. A main file
 * SCST would have loaded but we cannot import does not fall back: the
 * backup is older than the state SCST was using.
 */
void scst_pr_scst_choose(const u8 *main, size_t main_len, const u8 *bak,
			 size_t bak_len, struct scst_pr_state *st,
			 struct scst_pr_scst_choice *c)
{
	size_t magic = sizeof(OUR_FILE_MAGIC) - 1;
	bool scst_like;

	memset(c, 0, sizeof(*c));
	scst_pr_state_init(st);
	if (main) {
		if (main_len >= magic && !memcmp(main, OUR_FILE_MAGIC, magic)) {
			c->src = SCST_PR_SCST_OURS;
			return;
		}
		scst_like = main_len >= 8 &&
			    (get_le64(main) == SCST_FILE_SIGN ||
			     get_unaligned_be64(main) == SCST_FILE_SIGN ||
			     !get_le64(main));
		if (!scst_like && !bak) {
			c->src = SCST_PR_SCST_OURS;
			return;
		}
		if (!scst_pr_scst_file_parse(main, main_len, st, &c->main_err)) {
			c->src = SCST_PR_SCST_MAIN;
			return;
		}
		c->main_refused = true;
		if (!c->main_err.fallback || !bak) {
			c->src = SCST_PR_SCST_REFUSED;
			return;
		}
	} else if (!bak) {
		c->src = SCST_PR_SCST_NONE;
		return;
	}
	if (!scst_pr_scst_file_parse(bak, bak_len, st, &c->bak_err)) {
		c->src = SCST_PR_SCST_BACKUP;
		return;
	}
	c->bak_refused = true;
	c->src = SCST_PR_SCST_REFUSED;
}
EXPORT_SYMBOL_GPL(scst_pr_scst_choose);

/**
 * scst_pr_scst_res_text() - the reservation of a state, for a log line
 * @st: the state
 * @buf: receives the text, NUL-terminated, cut to @size
 * @size: size of @buf (64 always suffices)
 *
 * "no reservation", "a WE_RO reservation (type 5) held by registration 0"
 * or "an EA_AR reservation (type 8) held by all registrants".
 *
 * Return: the length of the whole text.
 */
int scst_pr_scst_res_text(const struct scst_pr_state *st, char *buf,
			  size_t size)
{
	static const char *const names[] = {
		[SCST_PR_TYPE_WE] = "a WE", [SCST_PR_TYPE_EA] = "an EA",
		[SCST_PR_TYPE_WE_RO] = "a WE_RO",
		[SCST_PR_TYPE_EA_RO] = "an EA_RO",
		[SCST_PR_TYPE_WE_AR] = "a WE_AR",
		[SCST_PR_TYPE_EA_AR] = "an EA_AR",
	};

	if (st->type == SCST_PR_TYPE_NONE || st->type >= ARRAY_SIZE(names) ||
	    !names[st->type])
		return snprintf(buf, size, "no reservation");
	if (st->holder == SCST_PR_HOLDER_ALL)
		return snprintf(buf, size,
				"%s reservation (type %u) held by all registrants",
				names[st->type], st->type);
	return snprintf(buf, size,
			"%s reservation (type %u) held by registration %d",
			names[st->type], st->type, st->holder);
}
EXPORT_SYMBOL_GPL(scst_pr_scst_res_text);
