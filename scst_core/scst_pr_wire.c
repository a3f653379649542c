// SPDX-License-Identifier: GPL-2.0-only
/*
 * Persistent reservation state in the lock value blocks of the kernel's
 * DLM (cluster_mode, Documentation/ha.md): the encoding every node of a
 * cluster reads and writes, and its strict decoder.
 *
 * A device's state is one header block ("state") and one block per
 * registrant ("reg.<i>", i < the header's count), each
 * SCST_PR_WIRE_LVB_LEN bytes, big-endian, versioned. The header carries
 * the update's sequence number and a digest of the registrant blocks, so
 * that a reader who sees blocks of two updates (a writer died halfway,
 * or a block a dead node left invalid) refuses the set instead of
 * enforcing it. A registrant block does not name its update: an update
 * rewrites only the blocks whose registrant changed. A PR OUT's notices
 * (unit attentions and aborts, SPC-4 §5.9.11 and §5.9.10.4) travel in
 * one more block ("note"), naming the registrants
 * by their index in the state the update started from, which every node
 * holds.
 *
 * Nothing here calls the DLM: scst_pr_cluster.c moves the blocks.
 */

#include <scst_pr.h>

#define PR_WIRE_VERSION		1
#define PR_WIRE_HDR_MAGIC	0x53505253	/* "SPRS" */
#define PR_WIRE_REG_MAGIC	0x53505252	/* "SPRR" */
#define PR_WIRE_NOTE_MAGIC	0x5350524e	/* "SPRN" */

/*
 * Header block:
 *   0  magic (4)  4 version (1)  5 flags (1: bit 0 APTPL)  6 type (1)
 *   7  scope (1)  8 holder (2, 0xffff: all registrants)  10 count (2)
 *   12 PRgeneration (4)  16 sequence (8)  24 digest (8)  32 writer node (4)
 *   36.. zero
 */
#define HDR_FLAG_APTPL		0x01
#define HDR_HOLDER_ALL		0xffff
#define HDR_LEN			36

/*
 * Registrant block:
 *   0  magic (4)  4 version (1)  5 flags (1: bit 0 ALL_TG_PT)
 *   6  relative target port id (2)  8 key (8)  16 TransportID length (2)
 *   18 TransportID (up to 228)  246.. zero
 */
#define REG_FLAG_ALL_TG_PT	0x01
#define REG_TID_LEN_OFF		16
#define REG_TID_OFF		18

/*
 * Notice block:
 *   0  magic (4)  4 version (1)  5 groups (1)  6 zero (2)
 *   8  sequence of the update (8)  16 sequence it started from (8)
 *   24 groups of 21 bytes: sense key/ASC/ASCQ as a u32 (4), flags
 *      (1: bit 0 abort), one bit per registrant of the base state (16)
 */
#define NOTE_HDR_LEN		24
#define NOTE_MAP_LEN		(SCST_PR_MAX_REGISTRANTS / 8)
#define NOTE_GROUP_LEN		(5 + NOTE_MAP_LEN)
#define NOTE_FLAG_ABORT		0x01

/* FNV-1a, 64 bits: a digest against torn sets, not against an attacker. */
static u64 pr_wire_fnv(u64 h, const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static bool pr_wire_zero(const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/**
 * scst_pr_wire_put_reg() - encode one registrant
 * @r: the registrant (a valid state's)
 * @lvb: SCST_PR_WIRE_LVB_LEN bytes
 */
void scst_pr_wire_put_reg(const struct scst_pr_registrant *r, u8 *lvb)
{
	u16 len = min_t(u16, r->tid.len, SCST_PR_TID_MAX_LEN);

	memset(lvb, 0, SCST_PR_WIRE_LVB_LEN);
	put_unaligned_be32(PR_WIRE_REG_MAGIC, lvb);
	lvb[4] = PR_WIRE_VERSION;
	lvb[5] = r->all_tg_pt ? REG_FLAG_ALL_TG_PT : 0;
	put_unaligned_be16(r->rel_tgt_id, lvb + 6);
	put_unaligned_be64(r->key, lvb + 8);
	put_unaligned_be16(len, lvb + REG_TID_LEN_OFF);
	memcpy(lvb + REG_TID_OFF, r->tid.data, len);
}
EXPORT_SYMBOL_GPL(scst_pr_wire_put_reg);

/**
 * scst_pr_wire_get_reg() - decode one registrant block
 * @lvb: SCST_PR_WIRE_LVB_LEN bytes
 * @r: the registrant
 *
 * Return: 0; -EPROTO for a block that is not a registrant of this
 * version, has unknown flags, a key of 0, a TransportID longer than
 * SCST_PR_TID_MAX_LEN or not in its canonical form, or bytes after it.
 */
int scst_pr_wire_get_reg(const u8 *lvb, struct scst_pr_registrant *r)
{
	struct scst_pr_tid canon;
	u16 len;

	memset(r, 0, sizeof(*r));
	if (get_unaligned_be32(lvb) != PR_WIRE_REG_MAGIC ||
	    lvb[4] != PR_WIRE_VERSION || (lvb[5] & ~REG_FLAG_ALL_TG_PT))
		return -EPROTO;
	len = get_unaligned_be16(lvb + REG_TID_LEN_OFF);
	if (len > SCST_PR_TID_MAX_LEN ||
	    !pr_wire_zero(lvb + REG_TID_OFF + len,
			  SCST_PR_WIRE_LVB_LEN - REG_TID_OFF - len))
		return -EPROTO;
	r->key = get_unaligned_be64(lvb + 8);
	r->rel_tgt_id = get_unaligned_be16(lvb + 6);
	r->all_tg_pt = lvb[5] & REG_FLAG_ALL_TG_PT;
	r->tid.len = len;
	memcpy(r->tid.data, lvb + REG_TID_OFF, len);
	if (!r->key || scst_pr_tid_parse(r->tid.data, len, &canon) != len ||
	    memcmp(&canon, &r->tid, sizeof(canon))) {
		memset(r, 0, sizeof(*r));
		return -EPROTO;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(scst_pr_wire_get_reg);

/* The digest of @st's registrants as scst_pr_wire_put_reg() writes them. */
static u64 pr_wire_digest(const struct scst_pr_state *st)
{
	u8 lvb[SCST_PR_WIRE_LVB_LEN];
	u64 h = 0xcbf29ce484222325ULL;
	unsigned int i;

	for (i = 0; i < st->nreg && i < SCST_PR_MAX_REGISTRANTS; i++) {
		scst_pr_wire_put_reg(&st->reg[i], lvb);
		h = pr_wire_fnv(h, lvb, sizeof(lvb));
	}
	return h;
}

/**
 * scst_pr_wire_put_hdr() - encode a state's header
 * @st: the state (valid: scst_pr_state_valid())
 * @seq: the update's sequence number, above every one before it
 * @node: the writer's DLM node id (for the logs of the other nodes)
 * @lvb: SCST_PR_WIRE_LVB_LEN bytes
 *
 * The registrants go in their own blocks (scst_pr_wire_put_reg()); the
 * header's digest covers them.
 */
void scst_pr_wire_put_hdr(const struct scst_pr_state *st, u64 seq, u32 node,
			  u8 *lvb)
{
	memset(lvb, 0, SCST_PR_WIRE_LVB_LEN);
	put_unaligned_be32(PR_WIRE_HDR_MAGIC, lvb);
	lvb[4] = PR_WIRE_VERSION;
	lvb[5] = st->aptpl ? HDR_FLAG_APTPL : 0;
	lvb[6] = st->type;
	lvb[7] = st->scope;
	put_unaligned_be16(st->holder == SCST_PR_HOLDER_ALL ? HDR_HOLDER_ALL :
			   (u16)st->holder, lvb + 8);
	put_unaligned_be16(st->nreg, lvb + 10);
	put_unaligned_be32(st->generation, lvb + 12);
	put_unaligned_be64(seq, lvb + 16);
	put_unaligned_be64(pr_wire_digest(st), lvb + 24);
	put_unaligned_be32(node, lvb + 32);
}
EXPORT_SYMBOL_GPL(scst_pr_wire_put_hdr);

/**
 * scst_pr_wire_get_hdr() - decode a header block
 * @lvb: SCST_PR_WIRE_LVB_LEN bytes
 * @hdr: its sequence number, digest and writer
 * @st: gets the state's fields but its registrants; @st->nreg says how
 *	many registrant blocks to read
 *
 * Return: 0; -ENODATA for an all-zero block (no node has published a
 * state in this lockspace yet); -EPROTO for a block that is not a header
 * of this version, or has unknown flags, an unknown type or scope, or
 * more than SCST_PR_MAX_REGISTRANTS registrants.
 */
int scst_pr_wire_get_hdr(const u8 *lvb, struct scst_pr_wire_hdr *hdr,
			 struct scst_pr_state *st)
{
	u16 holder, nreg;

	scst_pr_state_init(st);
	memset(hdr, 0, sizeof(*hdr));
	if (pr_wire_zero(lvb, SCST_PR_WIRE_LVB_LEN))
		return -ENODATA;
	if (get_unaligned_be32(lvb) != PR_WIRE_HDR_MAGIC ||
	    lvb[4] != PR_WIRE_VERSION || (lvb[5] & ~HDR_FLAG_APTPL) ||
	    !pr_wire_zero(lvb + HDR_LEN, SCST_PR_WIRE_LVB_LEN - HDR_LEN))
		return -EPROTO;
	nreg = get_unaligned_be16(lvb + 10);
	holder = get_unaligned_be16(lvb + 8);
	if (nreg > SCST_PR_MAX_REGISTRANTS || lvb[7] != SCST_PR_SCOPE_LU ||
	    (lvb[6] != SCST_PR_TYPE_NONE && !scst_pr_type_valid(lvb[6])) ||
	    (holder != HDR_HOLDER_ALL && holder >= SCST_PR_MAX_REGISTRANTS))
		return -EPROTO;
	st->aptpl = lvb[5] & HDR_FLAG_APTPL;
	st->type = lvb[6];
	st->scope = lvb[7];
	st->holder = holder == HDR_HOLDER_ALL ? SCST_PR_HOLDER_ALL : holder;
	st->nreg = nreg;
	st->generation = get_unaligned_be32(lvb + 12);
	hdr->seq = get_unaligned_be64(lvb + 16);
	hdr->digest = get_unaligned_be64(lvb + 24);
	hdr->node = get_unaligned_be32(lvb + 32);
	return 0;
}
EXPORT_SYMBOL_GPL(scst_pr_wire_get_hdr);

/**
 * scst_pr_wire_get_state() - decode a whole state
 * @hdr_lvb: the header block
 * @reg_lvb: the registrant blocks, @nblocks of them one after the other,
 *	in index order
 * @nblocks: how many were read (at least the header's count)
 * @hdr: the header's sequence number, digest and writer
 * @st: the state; empty unless 0 is returned
 *
 * Return: 0 for a consistent state; as scst_pr_wire_get_hdr(), or as
 * scst_pr_wire_get_reg() for a registrant block; -ESTALE for registrant
 * blocks whose digest is not the header's (a torn set: read again);
 * -EPROTO also for fewer blocks than the header counts, or for a state
 * that breaks scst_pr_state_valid()'s rules.
 */
int scst_pr_wire_get_state(const u8 *hdr_lvb, const u8 *reg_lvb,
			   unsigned int nblocks, struct scst_pr_wire_hdr *hdr,
			   struct scst_pr_state *st)
{
	unsigned int i;
	int ret;

	ret = scst_pr_wire_get_hdr(hdr_lvb, hdr, st);
	if (ret)
		goto empty;
	ret = -EPROTO;
	if (st->nreg > nblocks)
		goto empty;
	for (i = 0; i < st->nreg; i++) {
		ret = scst_pr_wire_get_reg(reg_lvb + i * SCST_PR_WIRE_LVB_LEN,
					   &st->reg[i]);
		if (ret)
			goto empty;
	}
	ret = -ESTALE;
	if (pr_wire_digest(st) != hdr->digest)
		goto empty;
	ret = -EPROTO;
	if (!scst_pr_state_valid(st))
		goto empty;
	return 0;
empty:
	scst_pr_state_init(st);
	return ret;
}
EXPORT_SYMBOL_GPL(scst_pr_wire_get_state);

/* The index in @base of the registrant @who is, or -1. */
static int pr_wire_base_index(const struct scst_pr_state *base,
			      const struct scst_pr_registrant *who)
{
	unsigned int i;

	for (i = 0; i < base->nreg; i++) {
		const struct scst_pr_registrant *r = &base->reg[i];

		if (r->key == who->key && r->rel_tgt_id == who->rel_tgt_id &&
		    r->all_tg_pt == who->all_tg_pt &&
		    scst_pr_tid_equal(&r->tid, &who->tid))
			return i;
	}
	return -1;
}

/**
 * scst_pr_wire_put_notes() - encode a PR OUT's notices
 * @base: the state the PR OUT started from
 * @eff: its effects (scst_pr_out()); each notice names a registrant of
 *	@base
 * @seq: the update's sequence number
 * @base_seq: @base's
 * @lvb: SCST_PR_WIRE_LVB_LEN bytes
 *
 * Notices with the same unit attention and abort flag share one group.
 *
 * Return: 0; -E2BIG for more kinds of notice than one block holds;
 * -EINVAL for a notice naming no registrant of @base.
 */
int scst_pr_wire_put_notes(const struct scst_pr_state *base,
			   const struct scst_pr_effects *eff, u64 seq,
			   u64 base_seq, u8 *lvb)
{
	unsigned int i, g, ngroups = 0;
	u8 *grp;
	int idx;

	memset(lvb, 0, SCST_PR_WIRE_LVB_LEN);
	put_unaligned_be32(PR_WIRE_NOTE_MAGIC, lvb);
	lvb[4] = PR_WIRE_VERSION;
	put_unaligned_be64(seq, lvb + 8);
	put_unaligned_be64(base_seq, lvb + 16);
	for (i = 0; i < eff->n && i < ARRAY_SIZE(eff->notice); i++) {
		const struct scst_pr_notice *n = &eff->notice[i];
		u8 flags = n->abort ? NOTE_FLAG_ABORT : 0;

		idx = pr_wire_base_index(base, &n->who);
		if (idx < 0)
			goto bad;
		for (g = 0; g < ngroups; g++) {
			grp = lvb + NOTE_HDR_LEN + g * NOTE_GROUP_LEN;
			if (get_unaligned_be32(grp) == n->ua && grp[4] == flags)
				break;
		}
		if (g == ngroups) {
			if (ngroups == SCST_PR_WIRE_MAX_NOTE_GROUPS)
				goto too_many;
			grp = lvb + NOTE_HDR_LEN + ngroups++ * NOTE_GROUP_LEN;
			put_unaligned_be32(n->ua, grp);
			grp[4] = flags;
		}
		grp[5 + idx / 8] |= 1 << (idx % 8);
	}
	lvb[5] = ngroups;
	return 0;
bad:
	memset(lvb, 0, SCST_PR_WIRE_LVB_LEN);
	return -EINVAL;
too_many:
	memset(lvb, 0, SCST_PR_WIRE_LVB_LEN);
	return -E2BIG;
}
EXPORT_SYMBOL_GPL(scst_pr_wire_put_notes);

/* Whether a group before group @g has @g's notice (the encoder merges). */
static bool pr_wire_group_seen(const u8 *lvb, unsigned int g)
{
	const u8 *grp = lvb + NOTE_HDR_LEN + g * NOTE_GROUP_LEN;
	unsigned int i;

	for (i = 0; i < g; i++)
		if (!memcmp(lvb + NOTE_HDR_LEN + i * NOTE_GROUP_LEN, grp, 5))
			return true;
	return false;
}

/**
 * scst_pr_wire_get_notes() - decode a notice block
 * @lvb: SCST_PR_WIRE_LVB_LEN bytes
 * @base: this node's state before the update (the one at @base_seq)
 * @base_seq: its sequence number
 * @seq: the update's, from its header
 * @eff: the notices, one per registrant and group, in group order;
 *	nothing else of it is set
 *
 * Return: 0; -ENODATA for an all-zero block (the update had no
 * notices); -EPROTO for a block that is not a notice block of this
 * version, or has unknown flags, a group naming nobody, two groups of
 * one kind (scst_pr_wire_put_notes() writes neither), or bits past
 * @base's registrants; -ESTALE
 * for notices of another update, or from another base state than this
 * node's (the caller then cannot tell whom they name).
 */
int scst_pr_wire_get_notes(const u8 *lvb, const struct scst_pr_state *base,
			   u64 base_seq, u64 seq, struct scst_pr_effects *eff)
{
	unsigned int g, i, ngroups;
	const u8 *grp;

	eff->n = 0;
	if (pr_wire_zero(lvb, SCST_PR_WIRE_LVB_LEN))
		return -ENODATA;
	ngroups = lvb[5];
	if (get_unaligned_be32(lvb) != PR_WIRE_NOTE_MAGIC ||
	    lvb[4] != PR_WIRE_VERSION || lvb[6] || lvb[7] ||
	    ngroups > SCST_PR_WIRE_MAX_NOTE_GROUPS ||
	    !pr_wire_zero(lvb + NOTE_HDR_LEN + ngroups * NOTE_GROUP_LEN,
			  SCST_PR_WIRE_LVB_LEN - NOTE_HDR_LEN -
			  ngroups * NOTE_GROUP_LEN))
		return -EPROTO;
	if (get_unaligned_be64(lvb + 8) != seq ||
	    get_unaligned_be64(lvb + 16) != base_seq)
		return -ESTALE;
	for (g = 0; g < ngroups; g++) {
		grp = lvb + NOTE_HDR_LEN + g * NOTE_GROUP_LEN;
		if ((grp[4] & ~NOTE_FLAG_ABORT) ||
		    pr_wire_zero(grp + 5, NOTE_MAP_LEN) ||
		    pr_wire_group_seen(lvb, g))
			goto bad;
		for (i = 0; i < SCST_PR_MAX_REGISTRANTS; i++) {
			if (!(grp[5 + i / 8] & (1 << (i % 8))))
				continue;
			if (i >= base->nreg ||
			    eff->n >= ARRAY_SIZE(eff->notice))
				goto bad;
			eff->notice[eff->n].who = base->reg[i];
			eff->notice[eff->n].ua = get_unaligned_be32(grp);
			eff->notice[eff->n].abort = grp[4] & NOTE_FLAG_ABORT;
			eff->n++;
		}
	}
	return 0;
bad:
	eff->n = 0;
	return -EPROTO;
}
EXPORT_SYMBOL_GPL(scst_pr_wire_get_notes);
