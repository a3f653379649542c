// SPDX-License-Identifier: GPL-2.0-only
/*
 * Persistent reservations (SPC-4 §5.9, §6.15, §6.16): TransportIDs, the
 * PERSISTENT RESERVE OUT state machine, the PERSISTENT RESERVE IN data and
 * the conflict check. The model and our choices are described at the top
 * of include/scst_pr.h; the APTPL file format is in scst_pr_file.c.
 */

#include <scst_alua.h>
#include <scst_pr.h>

/* ---------------------------------------------------------------------- */
/* TransportIDs, SPC-4 §7.6.4                                             */
/* ---------------------------------------------------------------------- */

/*
 * Where the identifier of a fixed-size TransportID lies: FC N_PORT_NAME
 * (§7.6.4.2), SBP EUI-64 (§7.6.4.4), SRP initiator port identifier
 * (§7.6.4.5), SAS address (§7.6.4.7). Everything else in them is reserved.
 */
static bool tid_fixed_layout(u8 proto, unsigned int *off, unsigned int *len)
{
	switch (proto) {
	case 0x0:	/* FC */
	case 0x3:	/* SBP */
		*off = 8;
		*len = 8;
		return true;
	case SCST_PROTO_ID_SRP:
		*off = 8;
		*len = 16;
		return true;
	case SCST_PROTO_ID_SAS:
		*off = 4;
		*len = 8;
		return true;
	}
	return false;
}

/* RFC 3720 §3.2.6.2 names use a subset of these; we take printable ASCII. */
static bool iscsi_name_char_ok(u8 c)
{
	return c > 0x20 && c < 0x7f;
}

/* Canonical iSCSI TransportID of the @n-byte name @name (already checked). */
static void tid_set_iscsi(struct scst_pr_tid *out, const u8 *name, size_t n)
{
	size_t addl = max_t(size_t, 20, (n + 1 + 3) & ~(size_t)3), i;

	memset(out, 0, sizeof(*out));
	out->data[0] = SCST_PROTO_ID_ISCSI;
	put_unaligned_be16(addl, out->data + 2);
	for (i = 0; i < n; i++)
		out->data[4 + i] = tolower(name[i]);
	out->len = 4 + addl;
}

/**
 * scst_pr_tid_parse() - check a TransportID and make it canonical
 * @buf: the TransportID, e.g. in a PERSISTENT RESERVE OUT parameter list
 * @len: bytes available at @buf
 * @out: receives the canonical form (see include/scst_pr.h)
 *
 * Return: the number of bytes the TransportID takes at @buf (its own
 * length, not the canonical one); -EOVERFLOW when its length runs past
 * @len (the ADDITIONAL LENGTH of an iSCSI one, bytes 2-3, is wrong);
 * -EINVAL for a protocol or format we do not take or a malformed name.
 * @out is cleared on error.
 */
int scst_pr_tid_parse(const u8 *buf, size_t len, struct scst_pr_tid *out)
{
	unsigned int off, idlen;
	u8 proto, fmt;
	size_t addl, n;

	memset(out, 0, sizeof(*out));
	if (len < 4)
		return -EOVERFLOW;
	proto = buf[0] & 0x0f;
	fmt = buf[0] >> 6;
	if (fmt != 0)
		return -EINVAL;
	if (tid_fixed_layout(proto, &off, &idlen)) {
		if (len < SCST_PR_TID_FIXED_LEN)
			return -EOVERFLOW;
		out->data[0] = proto;
		memcpy(out->data + off, buf + off, idlen);
		out->len = SCST_PR_TID_FIXED_LEN;
		return SCST_PR_TID_FIXED_LEN;
	}
	if (proto != SCST_PROTO_ID_ISCSI)
		return -EINVAL;
	addl = get_unaligned_be16(buf + 2);
	if (addl > len - 4)
		return -EOVERFLOW;
	if (addl % 4 || addl < 4 || addl > SCST_PR_TID_MAX_LEN - 4)
		return -EINVAL;
	/* SPC-4 §7.6.4.6: a null-terminated, null-padded name. */
	for (n = 0; n < addl && buf[4 + n]; n++)
		if (!iscsi_name_char_ok(buf[4 + n]))
			return -EINVAL;
	if (n == 0 || n == addl || n > SCST_PR_ISCSI_NAME_MAX)
		return -EINVAL;
	tid_set_iscsi(out, buf + 4, n);
	return 4 + addl;
}
EXPORT_SYMBOL_GPL(scst_pr_tid_parse);

/**
 * scst_pr_tid_from_iscsi_name() - the TransportID of an iSCSI-style name
 * @out: receives it
 * @name: the name, e.g. a scst_local session name
 *
 * Return: 0, or -EINVAL when @name is empty, longer than
 * SCST_PR_ISCSI_NAME_MAX or has a character outside printable ASCII or a
 * blank (@out is then cleared).
 */
int scst_pr_tid_from_iscsi_name(struct scst_pr_tid *out, const char *name)
{
	size_t n;

	memset(out, 0, sizeof(*out));
	for (n = 0; name[n]; n++)
		if (n >= SCST_PR_ISCSI_NAME_MAX ||
		    !iscsi_name_char_ok((u8)name[n]))
			return -EINVAL;
	if (!n)
		return -EINVAL;
	tid_set_iscsi(out, (const u8 *)name, n);
	return 0;
}
EXPORT_SYMBOL_GPL(scst_pr_tid_from_iscsi_name);

/**
 * scst_pr_tid_from_srp() - the TransportID of an SRP initiator port
 * @out: receives it
 * @port_id: the 128-bit initiator port identifier (SRP r16a §5.3.2)
 */
void scst_pr_tid_from_srp(struct scst_pr_tid *out, const u8 port_id[16])
{
	memset(out, 0, sizeof(*out));
	out->data[0] = SCST_PROTO_ID_SRP;
	memcpy(out->data + 8, port_id, 16);
	out->len = SCST_PR_TID_FIXED_LEN;
}
EXPORT_SYMBOL_GPL(scst_pr_tid_from_srp);

/**
 * scst_pr_tid_equal() - whether two canonical TransportIDs are the same
 * @a: one
 * @b: the other
 *
 * Return: true if they name the same initiator port.
 */
bool scst_pr_tid_equal(const struct scst_pr_tid *a,
		       const struct scst_pr_tid *b)
{
	return a->len == b->len && !memcmp(a->data, b->data, a->len);
}
EXPORT_SYMBOL_GPL(scst_pr_tid_equal);

static const char hexdig[] = "0123456789abcdef";

/**
 * scst_pr_tid_format() - a TransportID as text
 * @tid: a canonical TransportID
 * @buf: receives the text, NUL-terminated, cut to @size
 * @size: size of @buf
 *
 * The text is iscsi:NAME, or srp:, fc:, sbp:, sas: followed by the
 * identifier in lowercase hex, as in the APTPL file and sysfs.
 *
 * Return: the length of the whole text (the NUL excluded), or -EINVAL for
 * a TransportID that is not canonical.
 */
int scst_pr_tid_format(const struct scst_pr_tid *tid, char *buf, size_t size)
{
	char text[8 + SCST_PR_TID_MAX_LEN];
	unsigned int off, idlen, i, n = 0;
	const char *pfx;
	u8 proto;

	if (tid->len < 4 || tid->len > SCST_PR_TID_MAX_LEN)
		return -EINVAL;
	proto = tid->data[0];
	if (proto == SCST_PROTO_ID_ISCSI) {
		memcpy(text, "iscsi:", 6);
		n = 6;
		for (i = 4; i < tid->len && tid->data[i]; i++)
			text[n++] = tid->data[i];
	} else if (tid_fixed_layout(proto, &off, &idlen)) {
		pfx = proto == SCST_PROTO_ID_SRP ? "srp:" :
		      proto == SCST_PROTO_ID_SAS ? "sas:" :
		      proto == 0 ? "fc:" : "sbp:";
		n = strlen(pfx);
		memcpy(text, pfx, n);
		for (i = 0; i < idlen; i++) {
			text[n++] = hexdig[tid->data[off + i] >> 4];
			text[n++] = hexdig[tid->data[off + i] & 0xf];
		}
	} else {
		return -EINVAL;
	}
	if (size) {
		i = min_t(unsigned int, n, size - 1);
		memcpy(buf, text, i);
		buf[i] = '\0';
	}
	return n;
}
EXPORT_SYMBOL_GPL(scst_pr_tid_format);

/* ---------------------------------------------------------------------- */
/* State queries                                                          */
/* ---------------------------------------------------------------------- */

/**
 * scst_pr_state_init() - an empty state: no registrants, no reservation
 * @st: the state
 */
void scst_pr_state_init(struct scst_pr_state *st)
{
	memset(st, 0, sizeof(*st));
	st->type = SCST_PR_TYPE_NONE;
	st->scope = SCST_PR_SCOPE_LU;
}
EXPORT_SYMBOL_GPL(scst_pr_state_init);

/**
 * scst_pr_reg_matches() - whether a registrant is that of an I_T nexus
 * @reg: the registrant
 * @nexus: the I_T nexus
 *
 * Return: true if the TransportIDs are equal and @reg was registered
 * through the nexus's target port or through all of them (ALL_TG_PT).
 */
bool scst_pr_reg_matches(const struct scst_pr_registrant *reg,
			 const struct scst_pr_nexus *nexus)
{
	return scst_pr_tid_equal(&reg->tid, &nexus->tid) &&
	       (reg->all_tg_pt || reg->rel_tgt_id == nexus->rel_tgt_id);
}
EXPORT_SYMBOL_GPL(scst_pr_reg_matches);

/**
 * scst_pr_find() - the registrant of an I_T nexus
 * @st: the state
 * @nexus: the I_T nexus
 *
 * Return: its index in @st->reg, or -1 when the nexus is not registered.
 */
int scst_pr_find(const struct scst_pr_state *st,
		 const struct scst_pr_nexus *nexus)
{
	unsigned int i;

	for (i = 0; i < st->nreg; i++)
		if (scst_pr_reg_matches(&st->reg[i], nexus))
			return i;
	return -1;
}
EXPORT_SYMBOL_GPL(scst_pr_find);

static bool type_all_reg(u8 type)
{
	return type == SCST_PR_TYPE_WE_AR || type == SCST_PR_TYPE_EA_AR;
}

/* Registrants Only or All Registrants: registrants may access. */
static bool type_reg_access(u8 type)
{
	return type == SCST_PR_TYPE_WE_RO || type == SCST_PR_TYPE_EA_RO ||
	       type_all_reg(type);
}

static bool type_excl_access(u8 type)
{
	return type == SCST_PR_TYPE_EA || type == SCST_PR_TYPE_EA_RO ||
	       type == SCST_PR_TYPE_EA_AR;
}

/**
 * scst_pr_type_valid() - whether a TYPE field value is one we implement
 * @type: the value
 *
 * Return: true for the six types of SPC-4 §6.15.3.3 table 169.
 */
bool scst_pr_type_valid(u8 type)
{
	switch (type) {
	case SCST_PR_TYPE_WE:
	case SCST_PR_TYPE_EA:
	case SCST_PR_TYPE_WE_RO:
	case SCST_PR_TYPE_EA_RO:
	case SCST_PR_TYPE_WE_AR:
	case SCST_PR_TYPE_EA_AR:
		return true;
	}
	return false;
}
EXPORT_SYMBOL_GPL(scst_pr_type_valid);

/* Whether registrant @i holds the reservation (SPC-4 §5.9.10). */
static bool reg_is_holder(const struct scst_pr_state *st, int i)
{
	if (st->type == SCST_PR_TYPE_NONE || i < 0)
		return false;
	return type_all_reg(st->type) || st->holder == i;
}

/**
 * scst_pr_is_holder() - whether an I_T nexus holds the reservation
 * @st: the state
 * @nexus: the I_T nexus
 *
 * Return: true if a reservation exists and @nexus is its holder, or is
 * registered while an all registrants reservation exists.
 */
bool scst_pr_is_holder(const struct scst_pr_state *st,
		       const struct scst_pr_nexus *nexus)
{
	return reg_is_holder(st, scst_pr_find(st, nexus));
}
EXPORT_SYMBOL_GPL(scst_pr_is_holder);

/**
 * scst_pr_has_registrations() - whether any I_T nexus is registered
 * @st: the state
 *
 * SPC-2 §5.5.1 and SPC-4 §5.9.3 (CRH = 0): while this holds, RESERVE and
 * RELEASE from any I_T nexus get RESERVATION CONFLICT.
 *
 * Return: true if at least one registration exists.
 */
bool scst_pr_has_registrations(const struct scst_pr_state *st)
{
	return st->nreg > 0;
}
EXPORT_SYMBOL_GPL(scst_pr_has_registrations);

/**
 * scst_pr_regs_overlap() - whether two registrations match a common nexus
 * @a: one registration
 * @b: the other
 *
 * Return: true if some I_T nexus would match both, which we never allow.
 */
bool scst_pr_regs_overlap(const struct scst_pr_registrant *a,
			  const struct scst_pr_registrant *b)
{
	return scst_pr_tid_equal(&a->tid, &b->tid) &&
	       (a->all_tg_pt || b->all_tg_pt || a->rel_tgt_id == b->rel_tgt_id);
}
EXPORT_SYMBOL_GPL(scst_pr_regs_overlap);

/* Whether a registration like @r would overlap one of @st's. */
static bool state_overlaps(const struct scst_pr_state *st,
			   const struct scst_pr_registrant *r)
{
	unsigned int i;

	for (i = 0; i < st->nreg; i++)
		if (scst_pr_regs_overlap(&st->reg[i], r))
			return true;
	return false;
}

/**
 * scst_pr_state_valid() - whether a state keeps this file's invariants
 * @st: the state
 *
 * For the fuzzers and scst_pr_file_parse(): at most
 * SCST_PR_MAX_REGISTRANTS registrants, no key 0, canonical TransportIDs,
 * no two registrants matching one I_T nexus, a valid type, a holder that
 * exists (an all registrants reservation: "all", and some registrant).
 *
 * Return: true if @st is consistent.
 */
bool scst_pr_state_valid(const struct scst_pr_state *st)
{
	struct scst_pr_tid canon;
	unsigned int i, j;

	if (st->nreg > SCST_PR_MAX_REGISTRANTS || st->scope != SCST_PR_SCOPE_LU)
		return false;
	for (i = 0; i < st->nreg; i++) {
		const struct scst_pr_registrant *r = &st->reg[i];

		if (!r->key || r->tid.len > SCST_PR_TID_MAX_LEN ||
		    scst_pr_tid_parse(r->tid.data, r->tid.len, &canon) !=
		    r->tid.len || memcmp(&canon, &r->tid, sizeof(canon)))
			return false;
		for (j = 0; j < i; j++)
			if (scst_pr_regs_overlap(&st->reg[j], r))
				return false;
	}
	if (st->type == SCST_PR_TYPE_NONE)
		return true;
	if (!scst_pr_type_valid(st->type) || !st->nreg)
		return false;
	if (type_all_reg(st->type))
		return st->holder == SCST_PR_HOLDER_ALL;
	return st->holder >= 0 && st->holder < st->nreg;
}
EXPORT_SYMBOL_GPL(scst_pr_state_valid);

/**
 * scst_pr_state_equal() - whether two states are the same
 * @a: one state
 * @b: the other
 *
 * Compares what SPC-4 keeps, field by field (not padding), e.g. to tell
 * whether a reloaded APTPL file changes anything.
 *
 * Return: true if @a and @b hold the same registrants in the same order,
 * the same reservation, PRgeneration and APTPL flag.
 */
bool scst_pr_state_equal(const struct scst_pr_state *a,
			 const struct scst_pr_state *b)
{
	unsigned int i;

	if (a->generation != b->generation || a->aptpl != b->aptpl ||
	    a->type != b->type || a->nreg != b->nreg)
		return false;
	if (a->type != SCST_PR_TYPE_NONE &&
	    (a->scope != b->scope || a->holder != b->holder))
		return false;
	for (i = 0; i < a->nreg; i++) {
		const struct scst_pr_registrant *x = &a->reg[i], *y = &b->reg[i];

		if (x->key != y->key || !scst_pr_tid_equal(&x->tid, &y->tid) ||
		    x->rel_tgt_id != y->rel_tgt_id ||
		    x->all_tg_pt != y->all_tg_pt)
			return false;
	}
	return true;
}
EXPORT_SYMBOL_GPL(scst_pr_state_equal);

/* ---------------------------------------------------------------------- */
/* PERSISTENT RESERVE OUT, SPC-4 §5.9.7-5.9.11, §6.16                     */
/* ---------------------------------------------------------------------- */

/* SPC-4 §6.16.3 table 182: basic parameter list, byte 20. */
#define PR_SPEC_I_PT		0x08
#define PR_ALL_TG_PT		0x04
#define PR_APTPL		0x01
/* SPC-4 §6.16.4 table 184: REGISTER AND MOVE list, byte 17. */
#define PR_RAM_UNREG		0x02

/* One PERSISTENT RESERVE OUT in progress. */
struct pr_op {
	struct scst_pr_state *st;
	const struct scst_pr_out_req *req;
	struct scst_pr_effects *eff;
	struct scst_cdb_err *err;
	const u8 *par;		/* the parameter list */
	u32 par_len;		/* PARAMETER LIST LENGTH */
	u8 sa;
	u8 type;
	u8 scope;
	u64 key;		/* RESERVATION KEY */
	u64 sa_key;		/* SERVICE ACTION RESERVATION KEY */
	u8 flags;		/* byte 20 of the basic list */
	int me;			/* the issuer's registrant, -1: none */
	bool no_effect;		/* a REGISTER that registered nothing */
};

static int par_err(struct pr_op *op, int byte, int bit)
{
	return scst_cdb_err_set(op->err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST,
				false, byte, bit);
}

static int cdb_err(struct pr_op *op, int byte, int bit)
{
	return scst_cdb_err_set(op->err, SCST_SENSE_INVALID_FIELD_IN_CDB, true,
				byte, bit);
}

static int len_err(struct pr_op *op)
{
	return scst_cdb_err_set(op->err, SCST_SENSE_PARAM_LIST_LEN_ERROR, true,
				5, -1);
}

static int no_resources(struct pr_op *op)
{
	return scst_cdb_err_set(op->err, SCST_SENSE_INSUFFICIENT_REG_RESOURCES,
				false, -1, -1);
}

/* Record what registrant @i (as it is now) must get; one entry per call. */
static void notify(struct pr_op *op, int i, u32 ua, bool abort)
{
	struct scst_pr_effects *eff = op->eff;

	if (i == op->me || eff->n >= ARRAY_SIZE(eff->notice))
		return;
	eff->notice[eff->n].who = op->st->reg[i];
	eff->notice[eff->n].ua = ua;
	eff->notice[eff->n].abort = abort;
	eff->n++;
}

/* Remove registrant @i, keeping @st->holder and @op->me right. */
static void reg_delete(struct pr_op *op, int i)
{
	struct scst_pr_state *st = op->st;

	memmove(&st->reg[i], &st->reg[i + 1],
		(st->nreg - i - 1) * sizeof(st->reg[0]));
	st->nreg--;
	memset(&st->reg[st->nreg], 0, sizeof(st->reg[0]));
	if (st->holder > i)
		st->holder--;
	if (op->me > i)
		op->me--;
	else if (op->me == i)
		op->me = -1;
	if (type_all_reg(st->type) && !st->nreg)
		st->type = SCST_PR_TYPE_NONE;
	op->eff->changed = true;
}

static void release(struct scst_pr_state *st)
{
	st->type = SCST_PR_TYPE_NONE;
	st->scope = SCST_PR_SCOPE_LU;
	st->holder = 0;
}

/*
 * SPC-4 §5.9.11.3: unregister the issuer. Releasing the holder's
 * reservation this way tells the other registrants of a Registrants Only
 * one (RESERVATIONS RELEASED); an all registrants reservation goes with
 * its last registrant (reg_delete()).
 */
static void unregister_me(struct pr_op *op)
{
	struct scst_pr_state *st = op->st;
	int me = op->me, i;

	if (st->type != SCST_PR_TYPE_NONE && !type_all_reg(st->type) &&
	    st->holder == me) {
		if (type_reg_access(st->type))
			for (i = 0; i < st->nreg; i++)
				notify(op, i, SCST_SENSE_RESERVATIONS_RELEASED,
				       false);
		release(st);
	}
	reg_delete(op, me);
}

static int reg_append(struct pr_op *op, u64 key, const struct scst_pr_tid *tid,
		      u16 rel_tgt_id, bool all_tg_pt)
{
	struct scst_pr_state *st = op->st;
	struct scst_pr_registrant *r;

	if (st->nreg >= SCST_PR_MAX_REGISTRANTS)
		return -1;
	r = &st->reg[st->nreg];
	r->key = key;
	r->tid = *tid;
	r->rel_tgt_id = rel_tgt_id;
	r->all_tg_pt = all_tg_pt;
	op->eff->changed = true;
	return st->nreg++;
}

/*
 * Walk the SPEC_I_PT TransportID list (SPC-4 §6.16.3): check each one
 * (@apply false) or register it (@apply true, after a successful check).
 * Returns the number of registrations it makes, or -EINVAL.
 */
static int spec_i_pt_walk(struct pr_op *op, bool apply)
{
	const struct scst_pr_nexus *nx = op->req->nexus;
	struct scst_pr_registrant r;
	struct scst_pr_tid other;
	u32 tlen = get_unaligned_be32(op->par + 24);
	u32 off = 28, end = 28 + tlen, prev;
	int ret, count = 0;

	r.key = op->sa_key;
	r.rel_tgt_id = nx->rel_tgt_id;
	r.all_tg_pt = op->flags & PR_ALL_TG_PT;
	while (off < end) {
		ret = scst_pr_tid_parse(op->par + off, end - off, &r.tid);
		if (ret == -EOVERFLOW)
			return par_err(op, end - off >= 4 ? off + 2 : 24, -1);
		if (ret < 0)
			return par_err(op, off, -1);
		if (!scst_pr_tid_equal(&r.tid, &nx->tid)) {
			if (apply) {
				reg_append(op, r.key, &r.tid, r.rel_tgt_id,
					   r.all_tg_pt);
			} else {
				if (state_overlaps(op->st, &r))
					return par_err(op, off, -1);
				/* Listed twice: compare with those before. */
				for (prev = 28; prev < off; prev += ret) {
					ret = scst_pr_tid_parse(op->par + prev,
								end - prev,
								&other);
					if (scst_pr_tid_equal(&other, &r.tid))
						return par_err(op, off, -1);
				}
				ret = scst_pr_tid_parse(op->par + off,
							end - off, &r.tid);
			}
			count++;
		}
		off += ret;
	}
	return count;
}

/* SPC-4 §5.9.7: REGISTER and REGISTER AND IGNORE EXISTING KEY. */
static int do_register(struct pr_op *op)
{
	const struct scst_pr_nexus *nx = op->req->nexus;
	bool spec = op->flags & PR_SPEC_I_PT, all = op->flags & PR_ALL_TG_PT;
	bool ignore = op->sa == SCST_PR_OUT_REGISTER_AND_IGNORE;
	struct scst_pr_registrant r;
	int n = 0;

	if (spec && (ignore || op->me >= 0))
		return par_err(op, 20, 3);
	if (op->me >= 0) {
		if (!ignore && op->key != op->st->reg[op->me].key)
			return SCST_PR_CONFLICT;
		if (!op->sa_key)
			unregister_me(op);
		else if (op->st->reg[op->me].key != op->sa_key)
			op->st->reg[op->me].key = op->sa_key;
		op->eff->changed = true;
		return 0;
	}
	if (!ignore && op->key)
		return SCST_PR_CONFLICT;
	if (!op->sa_key) {
		/*
		 * Unregistered nexus, key 0: GOOD and nothing registered, so
		 * its APTPL bit must not touch the LU's (an initiator that
		 * holds no registration could otherwise drop persistence).
		 */
		op->no_effect = true;
		return 0;
	}
	r.tid = nx->tid;
	r.rel_tgt_id = nx->rel_tgt_id;
	r.all_tg_pt = all;
	/* ALL_TG_PT while registered through another port: overlaps. */
	if (state_overlaps(op->st, &r))
		return par_err(op, 20, 2);
	if (spec) {
		n = spec_i_pt_walk(op, false);
		if (n < 0)
			return n;
	}
	if (op->st->nreg + 1 + n > SCST_PR_MAX_REGISTRANTS)
		return no_resources(op);
	op->me = reg_append(op, op->sa_key, &nx->tid, nx->rel_tgt_id, all);
	if (spec)
		spec_i_pt_walk(op, true);
	return 0;
}

/* The issuer must be registered with the RESERVATION KEY it gives. */
static bool key_ok(struct pr_op *op)
{
	return op->me >= 0 && op->st->reg[op->me].key == op->key;
}

static void reserve(struct scst_pr_state *st, u8 type, u8 scope, int holder)
{
	st->type = type;
	st->scope = scope;
	st->holder = type_all_reg(type) ? SCST_PR_HOLDER_ALL : holder;
}

/* SPC-4 §5.9.10: RESERVE. */
static int do_reserve(struct pr_op *op)
{
	struct scst_pr_state *st = op->st;

	if (!key_ok(op))
		return SCST_PR_CONFLICT;
	if (st->type == SCST_PR_TYPE_NONE) {
		reserve(st, op->type, op->scope, op->me);
		op->eff->changed = true;
		return 0;
	}
	if (!reg_is_holder(st, op->me) || st->type != op->type ||
	    st->scope != op->scope)
		return SCST_PR_CONFLICT;
	return 0;
}

/* SPC-4 §5.9.11.2: RELEASE. */
static int do_release(struct pr_op *op)
{
	struct scst_pr_state *st = op->st;
	int i;

	if (!key_ok(op))
		return SCST_PR_CONFLICT;
	if (!reg_is_holder(st, op->me))
		return 0;
	if (st->type != op->type || st->scope != op->scope)
		return scst_cdb_err_set(op->err,
					SCST_SENSE_INVALID_RELEASE_OF_PR,
					false, -1, -1);
	if (type_reg_access(st->type))
		for (i = 0; i < st->nreg; i++)
			notify(op, i, SCST_SENSE_RESERVATIONS_RELEASED, false);
	release(st);
	op->eff->changed = true;
	return 0;
}

/* SPC-4 §5.9.11.6: CLEAR. */
static int do_clear(struct pr_op *op)
{
	struct scst_pr_state *st = op->st;
	int i;

	if (!key_ok(op))
		return SCST_PR_CONFLICT;
	for (i = 0; i < st->nreg; i++)
		notify(op, i, SCST_SENSE_RESERVATIONS_PREEMPTED, false);
	release(st);
	st->nreg = 0;
	memset(st->reg, 0, sizeof(st->reg));
	op->me = -1;
	op->eff->changed = true;
	return 0;
}

/*
 * Remove every registration with key @key (all but the issuer's when @key
 * is 0) except the issuer's, telling each REGISTRATIONS PREEMPTED and,
 * for PREEMPT AND ABORT, aborting its tasks (SPC-4 §5.9.11.4.3-4).
 */
static void remove_keyed(struct pr_op *op, u64 key)
{
	bool abort = op->sa == SCST_PR_OUT_PREEMPT_AND_ABORT;
	struct scst_pr_state *st = op->st;
	int i = 0;

	while (i < st->nreg) {
		if (i != op->me && (!key || st->reg[i].key == key)) {
			notify(op, i, SCST_SENSE_REGISTRATIONS_PREEMPTED,
			       abort);
			reg_delete(op, i);
		} else {
			i++;
		}
	}
}

static bool key_registered(const struct scst_pr_state *st, u64 key)
{
	unsigned int i;

	for (i = 0; i < st->nreg; i++)
		if (st->reg[i].key == key)
			return true;
	return false;
}

/* SPC-4 §5.9.11.4-5: PREEMPT and PREEMPT AND ABORT. */
static int do_preempt(struct pr_op *op)
{
	struct scst_pr_state *st = op->st;
	bool all = type_all_reg(st->type), moved;
	u8 old_type = st->type, old_scope = st->scope;
	int i;

	if (!key_ok(op))
		return SCST_PR_CONFLICT;
	if (!op->sa_key) {
		/* Zero preempts every other registrant of an AR one only. */
		if (!all)
			return par_err(op, 8, -1);
		remove_keyed(op, 0);
		reserve(st, op->type, op->scope, op->me);
		op->eff->changed = true;
		return 0;
	}
	if (!key_registered(st, op->sa_key))
		return SCST_PR_CONFLICT;
	moved = st->type != SCST_PR_TYPE_NONE && !all &&
		st->reg[st->holder].key == op->sa_key;
	if (moved)
		release(st);
	remove_keyed(op, op->sa_key);
	if (!moved)
		return 0;
	reserve(st, op->type, op->scope, op->me);
	/* SPC-4 §5.9.11.4.3: a new type or scope releases the others. */
	if (old_type != op->type || old_scope != op->scope)
		for (i = 0; i < st->nreg; i++)
			notify(op, i, SCST_SENSE_RESERVATIONS_RELEASED, false);
	return 0;
}

static bool port_exists(struct pr_op *op, u16 rel_tgt_id)
{
	return !op->req->port_exists ||
	       op->req->port_exists(rel_tgt_id, op->req->ctx);
}

/* SPC-4 §5.9.9: REGISTER AND MOVE. */
static int do_register_and_move(struct pr_op *op)
{
	struct scst_pr_state *st = op->st;
	struct scst_pr_nexus dest;
	u32 tlen = get_unaligned_be32(op->par + 20);
	int ret, d;

	if (!key_ok(op) || st->type == SCST_PR_TYPE_NONE ||
	    type_all_reg(st->type) || st->holder != op->me)
		return SCST_PR_CONFLICT;
	if (st->reg[op->me].all_tg_pt)
		return par_err(op, -1, -1);
	if (!op->sa_key)
		return par_err(op, 8, -1);
	ret = scst_pr_tid_parse(op->par + 24, tlen, &dest.tid);
	if (ret == -EOVERFLOW)
		return par_err(op, tlen >= 4 ? 26 : 20, -1);
	if (ret < 0)
		return par_err(op, 24, -1);
	if ((u32)ret != tlen)
		return par_err(op, 20, -1);
	dest.rel_tgt_id = get_unaligned_be16(op->par + 18);
	if (scst_pr_reg_matches(&st->reg[op->me], &dest))
		return par_err(op, 24, -1);
	if (!port_exists(op, dest.rel_tgt_id))
		return par_err(op, 18, -1);
	d = scst_pr_find(st, &dest);
	if (d < 0) {
		d = reg_append(op, op->sa_key, &dest.tid, dest.rel_tgt_id,
			       false);
		if (d < 0)
			return no_resources(op);
	}
	st->holder = d;
	op->eff->changed = true;
	if (op->par[17] & PR_RAM_UNREG)
		reg_delete(op, op->me);
	return 0;
}

/* CDB and parameter list checks that need no state (SPC-4 §6.16). */
static int check_request(struct pr_op *op)
{
	const struct scst_pr_out_req *req = op->req;
	const u8 *cdb = req->cdb;
	u32 tlen;

	if (req->cdb_len < 10)
		return cdb_err(op, -1, -1);
	op->sa = cdb[1] & 0x1f;
	if (op->sa > SCST_PR_OUT_REGISTER_AND_MOVE)
		return cdb_err(op, 1, 4);
	op->scope = cdb[2] >> 4;
	op->type = cdb[2] & 0x0f;
	switch (op->sa) {
	case SCST_PR_OUT_RESERVE:
	case SCST_PR_OUT_RELEASE:
	case SCST_PR_OUT_PREEMPT:
	case SCST_PR_OUT_PREEMPT_AND_ABORT:
		if (op->scope != SCST_PR_SCOPE_LU)
			return cdb_err(op, 2, 7);
		if (!scst_pr_type_valid(op->type))
			return cdb_err(op, 2, 3);
	}
	op->par_len = get_unaligned_be32(cdb + 5);
	if (op->par_len < SCST_PR_OUT_PARAM_LEN ||
	    op->par_len > SCST_PR_OUT_MAX_PARAM_LEN ||
	    op->par_len > req->data_len || !req->data)
		return len_err(op);
	op->par = req->data;
	op->key = get_unaligned_be64(op->par);
	op->sa_key = get_unaligned_be64(op->par + 8);
	op->flags = op->par[20];
	if (op->sa == SCST_PR_OUT_REGISTER_AND_MOVE) {
		/* TRANSPORTID PARAMETER DATA LENGTH, bytes 20-23. */
		tlen = get_unaligned_be32(op->par + 20);
		if (tlen != op->par_len - SCST_PR_OUT_PARAM_LEN)
			return len_err(op);
		return 0;
	}
	if (!(op->flags & PR_SPEC_I_PT)) {
		if (op->par_len != SCST_PR_OUT_PARAM_LEN)
			return len_err(op);
		return 0;
	}
	if (op->sa != SCST_PR_OUT_REGISTER)
		return par_err(op, 20, 3);
	if (op->par_len < SCST_PR_OUT_PARAM_LEN + 4)
		return len_err(op);
	tlen = get_unaligned_be32(op->par + 24);
	if (tlen != op->par_len - SCST_PR_OUT_PARAM_LEN - 4)
		return len_err(op);
	return 0;
}

/**
 * scst_pr_out() - carry out a PERSISTENT RESERVE OUT command
 * @st: the logical unit's state
 * @req: the command and the I_T nexus it came through
 * @eff: receives what the core must do for other I_T nexuses and for the
 *	APTPL file
 * @err: receives the sense code on -EINVAL
 *
 * Return: 0 for GOOD status; SCST_PR_CONFLICT for RESERVATION CONFLICT
 * status; -EINVAL for CHECK CONDITION with the sense in @err. On any
 * return but 0, @st is unchanged and @eff empty.
 */
int scst_pr_out(struct scst_pr_state *st, const struct scst_pr_out_req *req,
		struct scst_pr_effects *eff, struct scst_cdb_err *err)
{
	struct pr_op op = {
		.st = st, .req = req, .eff = eff, .err = err,
	};
	bool old_aptpl = st->aptpl, reg_sa;
	int ret;

	eff->n = 0;
	eff->persist = SCST_PR_PERSIST_NONE;
	eff->changed = false;
	ret = check_request(&op);
	if (ret)
		goto fail;
	op.me = scst_pr_find(st, req->nexus);
	switch (op.sa) {
	case SCST_PR_OUT_REGISTER:
	case SCST_PR_OUT_REGISTER_AND_IGNORE:
		ret = do_register(&op);
		break;
	case SCST_PR_OUT_RESERVE:
		ret = do_reserve(&op);
		break;
	case SCST_PR_OUT_RELEASE:
		ret = do_release(&op);
		break;
	case SCST_PR_OUT_CLEAR:
		ret = do_clear(&op);
		break;
	case SCST_PR_OUT_PREEMPT:
	case SCST_PR_OUT_PREEMPT_AND_ABORT:
		ret = do_preempt(&op);
		break;
	default:
		ret = do_register_and_move(&op);
		break;
	}
	if (ret)
		goto fail;
	/* SPC-4 §6.15.2: which service actions count in PRgeneration. */
	reg_sa = op.sa == SCST_PR_OUT_REGISTER ||
		 op.sa == SCST_PR_OUT_REGISTER_AND_IGNORE ||
		 op.sa == SCST_PR_OUT_REGISTER_AND_MOVE;
	if (op.sa != SCST_PR_OUT_RESERVE && op.sa != SCST_PR_OUT_RELEASE) {
		st->generation++;
		eff->changed = true;
	}
	/* SPC-4 §6.16.3: APTPL counts for the registering actions only. */
	if (reg_sa && !op.no_effect) {
		st->aptpl = op.sa == SCST_PR_OUT_REGISTER_AND_MOVE ?
			    op.par[17] & PR_APTPL : op.flags & PR_APTPL;
		if (st->aptpl != old_aptpl)
			eff->changed = true;
	}
	if (eff->changed)
		eff->persist = st->aptpl ? SCST_PR_PERSIST_SAVE :
			       old_aptpl ? SCST_PR_PERSIST_REMOVE :
			       SCST_PR_PERSIST_NONE;
	return 0;
fail:
	/* Every check precedes the first change: nothing to undo. */
	eff->n = 0;
	eff->changed = false;
	return ret;
}
EXPORT_SYMBOL_GPL(scst_pr_out);

/* ---------------------------------------------------------------------- */
/* PERSISTENT RESERVE IN, SPC-4 §6.15                                     */
/* ---------------------------------------------------------------------- */

/* Copy what fits of @len bytes at @src to @buf at offset @off. */
static void put_bytes(u8 *buf, size_t buflen, size_t off, const void *src,
		      size_t len)
{
	if (off < buflen)
		memcpy(buf + off, src, min(len, buflen - off));
}

static void put_be32(u8 *buf, size_t buflen, size_t off, u32 v)
{
	u8 b[4];

	put_unaligned_be32(v, b);
	put_bytes(buf, buflen, off, b, 4);
}

static void put_be64(u8 *buf, size_t buflen, size_t off, u64 v)
{
	u8 b[8];

	put_unaligned_be64(v, b);
	put_bytes(buf, buflen, off, b, 8);
}

/**
 * scst_pr_build_read_keys() - READ KEYS parameter data (SPC-4 §6.15.2)
 * @st: the state
 * @buf: receives what fits of the data
 * @buflen: size of @buf
 *
 * Return: the full length of the data.
 */
int scst_pr_build_read_keys(const struct scst_pr_state *st, u8 *buf,
			    size_t buflen)
{
	unsigned int i;

	put_be32(buf, buflen, 0, st->generation);
	put_be32(buf, buflen, 4, st->nreg * 8);
	for (i = 0; i < st->nreg; i++)
		put_be64(buf, buflen, 8 + i * 8, st->reg[i].key);
	return 8 + st->nreg * 8;
}
EXPORT_SYMBOL_GPL(scst_pr_build_read_keys);

/**
 * scst_pr_build_read_reservation() - READ RESERVATION data (§6.15.3)
 * @st: the state
 * @buf: receives what fits of the data
 * @buflen: size of @buf
 *
 * The RESERVATION KEY of an all registrants reservation is zero
 * (SPC-4 §6.15.3.1).
 *
 * Return: the full length of the data: 8, or 24 with a reservation.
 */
int scst_pr_build_read_reservation(const struct scst_pr_state *st, u8 *buf,
				   size_t buflen)
{
	u8 d[24] = { 0 };
	int len = 8;

	put_unaligned_be32(st->generation, d);
	if (st->type != SCST_PR_TYPE_NONE) {
		put_unaligned_be32(16, d + 4);
		if (!type_all_reg(st->type))
			put_unaligned_be64(st->reg[st->holder].key, d + 8);
		d[21] = st->scope << 4 | st->type;
		len = 24;
	}
	put_bytes(buf, buflen, 0, d, len);
	return len;
}
EXPORT_SYMBOL_GPL(scst_pr_build_read_reservation);

/**
 * scst_pr_build_report_caps() - REPORT CAPABILITIES data (§6.15.4)
 * @st: the state (for PTPL_A)
 * @buf: receives what fits of the data
 * @buflen: size of @buf
 *
 * Return: the full length of the data, 8.
 */
int scst_pr_build_report_caps(const struct scst_pr_state *st, u8 *buf,
			      size_t buflen)
{
	u8 d[8] = { 0 };

	put_unaligned_be16(8, d);
	/* CRH 0, SIP_C, ATP_C, PTPL_C */
	d[2] = 0x08 | 0x04 | 0x01;
	/* TMV, ALLOW COMMANDS 010b, PTPL_A */
	d[3] = 0x80 | 0x02 << 4 | (st->aptpl ? 0x01 : 0);
	/* WR_EX_AR, EX_AC_RO, WR_EX_RO, EX_AC, WR_EX; EX_AC_AR */
	d[4] = 0x80 | 0x40 | 0x20 | 0x08 | 0x02;
	d[5] = 0x01;
	put_bytes(buf, buflen, 0, d, sizeof(d));
	return sizeof(d);
}
EXPORT_SYMBOL_GPL(scst_pr_build_report_caps);

/**
 * scst_pr_build_full_status() - READ FULL STATUS data (SPC-4 §6.15.5)
 * @st: the state
 * @buf: receives what fits of the data
 * @buflen: size of @buf
 *
 * One full status descriptor per registrant, in READ KEYS order, with
 * its TransportID; RELATIVE TARGET PORT IDENTIFIER is zero for an
 * ALL_TG_PT registration (SPC-4 §6.15.5: it is then not meaningful).
 *
 * Return: the full length of the data.
 */
int scst_pr_build_full_status(const struct scst_pr_state *st, u8 *buf,
			      size_t buflen)
{
	size_t off = 8;
	unsigned int i;
	u8 d[24];

	put_be32(buf, buflen, 0, st->generation);
	for (i = 0; i < st->nreg; i++) {
		const struct scst_pr_registrant *r = &st->reg[i];
		bool holder = reg_is_holder(st, i);

		memset(d, 0, sizeof(d));
		put_unaligned_be64(r->key, d);
		d[12] = (r->all_tg_pt ? 0x02 : 0) | (holder ? 0x01 : 0);
		if (holder)
			d[13] = st->scope << 4 | st->type;
		if (!r->all_tg_pt)
			put_unaligned_be16(r->rel_tgt_id, d + 18);
		put_unaligned_be32(r->tid.len, d + 20);
		put_bytes(buf, buflen, off, d, sizeof(d));
		put_bytes(buf, buflen, off + 24, r->tid.data, r->tid.len);
		off += 24 + r->tid.len;
	}
	put_be32(buf, buflen, 4, off - 8);
	return off;
}
EXPORT_SYMBOL_GPL(scst_pr_build_full_status);

/**
 * scst_pr_in() - answer a PERSISTENT RESERVE IN command
 * @st: the state
 * @cdb: its CDB
 * @cdb_len: length of @cdb, at least 10
 * @buf: receives what fits of the data, cut to the ALLOCATION LENGTH
 * @buflen: size of @buf
 * @err: receives the sense code on -EINVAL
 *
 * Return: the full length of the data (the caller transfers at most the
 * ALLOCATION LENGTH of it, SPC-4 §4.2.5.6), or -EINVAL for INVALID FIELD
 * IN CDB (an unknown SERVICE ACTION).
 */
int scst_pr_in(const struct scst_pr_state *st, const u8 *cdb,
	       unsigned int cdb_len, u8 *buf, size_t buflen,
	       struct scst_cdb_err *err)
{
	size_t n;

	if (cdb_len < 10)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, -1, -1);
	n = min_t(size_t, buflen, get_unaligned_be16(cdb + 7));
	switch (cdb[1] & 0x1f) {
	case SCST_PR_IN_READ_KEYS:
		return scst_pr_build_read_keys(st, buf, n);
	case SCST_PR_IN_READ_RESERVATION:
		return scst_pr_build_read_reservation(st, buf, n);
	case SCST_PR_IN_REPORT_CAPABILITIES:
		return scst_pr_build_report_caps(st, buf, n);
	case SCST_PR_IN_READ_FULL_STATUS:
		return scst_pr_build_full_status(st, buf, n);
	}
	return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB, true,
				1, 4);
}
EXPORT_SYMBOL_GPL(scst_pr_in);

/* ---------------------------------------------------------------------- */
/* Conflicts, SPC-4 §5.9.1 table 63, SBC-3 §4.17 table 13                 */
/* ---------------------------------------------------------------------- */

/**
 * scst_pr_conflicts_facts() - whether a command must get RESERVATION
 *	CONFLICT
 * @st: the logical unit's state
 * @nexus: the I_T nexus the command came through
 * @facts: the command's SCST_OPF_* facts (scst_cdb_decode()): its access
 *	class, SCST_OPF_PR_ALLOWED or SCST_OPF_PR_READ (neither: a write),
 *	and SCST_OPF_SPC2_RES
 *
 * The holder may run anything; so may any registrant while a Registrants
 * Only or All Registrants reservation exists. Everyone else may run the
 * commands that touch neither the medium nor the LU's state, and those
 * that only read them unless the type is an Exclusive Access one. SPC-2
 * RESERVE and RELEASE conflict while any registration exists.
 *
 * Return: true if the command conflicts.
 */
bool scst_pr_conflicts_facts(const struct scst_pr_state *st,
			     const struct scst_pr_nexus *nexus, u32 facts)
{
	int i;

	if (facts & SCST_OPF_SPC2_RES)
		return scst_pr_has_registrations(st);
	if (st->type == SCST_PR_TYPE_NONE)
		return false;
	i = scst_pr_find(st, nexus);
	if (reg_is_holder(st, i) || (i >= 0 && type_reg_access(st->type)))
		return false;
	if (facts & SCST_OPF_PR_ALLOWED)
		return false;
	return !(facts & SCST_OPF_PR_READ) || type_excl_access(st->type);
}
EXPORT_SYMBOL_GPL(scst_pr_conflicts_facts);

/**
 * scst_pr_conflicts() - scst_pr_conflicts_facts() for a CDB
 * @st: the logical unit's state
 * @nexus: the I_T nexus the command came through
 * @cdb: its CDB (the operation code, a service action and, for START
 *	STOP UNIT and PREVENT ALLOW MEDIUM REMOVAL, byte 4 count)
 * @cdb_len: length of @cdb; 0 never conflicts
 *
 * Return: true if the command conflicts.
 */
bool scst_pr_conflicts(const struct scst_pr_state *st,
		       const struct scst_pr_nexus *nexus, const u8 *cdb,
		       unsigned int cdb_len)
{
	if (!cdb_len)
		return false;
	return scst_pr_conflicts_facts(st, nexus,
				       scst_cdb_facts(cdb, cdb_len));
}
EXPORT_SYMBOL_GPL(scst_pr_conflicts);

/**
 * scst_pr_unknown_allows() - what a logical unit whose persistent
 *	reservation state is unknown still answers
 * @cdb: the CDB
 * @cdb_len: its length
 *
 * The state is unknown when the APTPL file could not be read: the
 * reservation that fenced a node may be in it. So the logical unit is
 * not ready (NOT READY, MANUAL INTERVENTION REQUIRED) for everything but
 * the commands that identify it and report its paths, which SPC-4 §5.9.1
 * table 63 allows through any reservation and which an initiator needs
 * to find the device and see why it is not ready: INQUIRY, REPORT LUNS,
 * REQUEST SENSE and, of MAINTENANCE IN, REPORT TARGET PORT GROUPS and
 * REPORT SUPPORTED OPERATION CODES / TASK MANAGEMENT FUNCTIONS. TEST UNIT
 * READY reports the logical unit not ready, which is its purpose;
 * PERSISTENT RESERVE IN is refused too, as it would report a state that
 * is not known.
 *
 * Return: true if the command may run.
 */
bool scst_pr_unknown_allows(const u8 *cdb, unsigned int cdb_len)
{
	if (!cdb_len)
		return false;
	switch (cdb[0]) {
	case SCST_OP_INQUIRY:
	case SCST_OP_REPORT_LUNS:
	case SCST_OP_REQUEST_SENSE:
		return true;
	case SCST_OP_MAINTENANCE_IN:
		if (cdb_len < 2)
			return false;
		switch (cdb[1] & 0x1f) {
		case SCST_MI_REPORT_TPGS:
		case SCST_MI_REPORT_SUPPORTED_OPCODES:
		case SCST_MI_REPORT_TMF:
			return true;
		}
		return false;
	}
	return false;
}
EXPORT_SYMBOL_GPL(scst_pr_unknown_allows);
