// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz scst_core/scst_pr.c: a sequence of PERSISTENT RESERVE OUT
 * commands (SPC-4 §6.16) from a handful of I_T nexuses, applied to a state
 * that starts empty, so that the state is built from the input too. After
 * each command: the state keeps its invariants (scst_pr_state_valid()),
 * a failed command changed nothing and has no effects, PRgeneration went
 * up by exactly one for the actions that count, the notices are for other
 * registrants only, field pointers lie in the CDB or the list, the
 * PERSISTENT RESERVE IN data is consistent at any allocation length, the
 * holder never conflicts, and the APTPL file round trip gives the state
 * back.
 *
 * Input, per command: nexus (1 byte), service action (1), CDB byte 2 (1),
 * RESERVATION KEY and SERVICE ACTION RESERVATION KEY selectors (1 + 1),
 * byte 20 (1), list mode (1), then what the mode reads (see build_list()),
 * then a CDB for the conflict checks (16, its last byte choosing another
 * nexus) and a PR IN allocation length (1).
 */
#include "fuzz.h"
#include <scst_pr.h>

#define NNEXUS	8
#define LIST_MAX	(SCST_PR_OUT_PARAM_LEN + 4 + 8 * SCST_PR_TID_MAX_LEN)

static struct scst_pr_nexus nexus[NNEXUS];

static void init_nexuses(void)
{
	static const char *const names[] = {
		"iqn.2026-01.org.example:a", "IQN.2026-01.ORG.EXAMPLE:A",
		"iqn.2026-01.org.example:b", "host1_1",
	};
	u8 id[16] = { 0xfe, 0x80 };
	unsigned int i;

	for (i = 0; i < NNEXUS; i++) {
		memset(&nexus[i], 0, sizeof(nexus[i]));
		if (i < 4) {
			FUZZ_CHECK(!scst_pr_tid_from_iscsi_name(&nexus[i].tid,
								names[i]));
		} else {
			id[15] = (u8)(i / 2);
			scst_pr_tid_from_srp(&nexus[i].tid, id);
		}
		/* Two target ports. */
		nexus[i].rel_tgt_id = 1 + (i & 1);
	}
}

/* A key from a small set, so that keys match often, or from the input. */
static u64 key_sel(struct fuzz_in *in)
{
	u8 b = fuzz_u8(in);

	if (b == 0xff)
		return fuzz_u64(in);
	return b & 3;
}

/* A TransportID of 20 + @extra bytes from the input; returns its length. */
static u32 raw_tid(struct fuzz_in *in, u8 *p, u8 extra)
{
	u32 i, n = 20 + extra;

	for (i = 0; i < n; i++)
		p[i] = fuzz_u8(in);
	return n;
}

/*
 * The parameter list: mode 0, the basic 24 bytes; 1, a SPEC_I_PT list of
 * up to 7 of our nexuses' TransportIDs; 2, a REGISTER AND MOVE list to
 * one of them; 3, raw bytes from the input with a length from it. The
 * CDB's PARAMETER LIST LENGTH is the list's, or (mode & 4) from the input.
 */
static u32 build_list(struct fuzz_in *in, u8 mode, u8 *par, u64 key,
		      u64 sa_key, u8 byte20, size_t *data_len)
{
	u32 len = SCST_PR_OUT_PARAM_LEN, n, i;
	const struct scst_pr_tid *t;
	u8 b;

	memset(par, 0, LIST_MAX);
	put_unaligned_be64(key, par);
	put_unaligned_be64(sa_key, par + 8);
	par[20] = byte20;
	switch (mode & 3) {
	case 1:
		n = fuzz_u8(in) % 8;
		len += 4;
		for (i = 0; i < n; i++) {
			b = fuzz_u8(in);
			if (b >= 0xf0) {
				/* Raw bytes: other protocols, bad lengths. */
				len += raw_tid(in, par + len, b & 0x0f);
				continue;
			}
			t = &nexus[b % NNEXUS].tid;
			memcpy(par + len, t->data, t->len);
			len += t->len;
		}
		put_unaligned_be32(len - 28, par + 24);
		break;
	case 2:
		b = fuzz_u8(in);
		t = &nexus[b % NNEXUS].tid;
		par[17] = byte20 >> 4;
		put_unaligned_be16(1 + (b >> 3) % 3, par + 18);
		if (b & 0x80) {
			n = raw_tid(in, par + 24, b & 0x0f);
		} else {
			memcpy(par + 24, t->data, t->len);
			n = t->len;
		}
		put_unaligned_be32(n, par + 20);
		len += n;
		break;
	case 3:
		len = fuzz_u16(in) % LIST_MAX;
		for (i = 0; i < len; i++)
			par[i] = fuzz_u8(in);
		break;
	}
	*data_len = len;
	if (mode & 4) {
		len = fuzz_u32(in);
		if (len > LIST_MAX)
			len = LIST_MAX;
	}
	if (mode & 8)
		*data_len = fuzz_u16(in) % (LIST_MAX + 1);
	return len;
}

static bool port_exists(u16 rel_tgt_id, void *ctx)
{
	(void)ctx;
	return rel_tgt_id == 1 || rel_tgt_id == 2;
}

/* PR IN data at full size and cut: a prefix, same length. */
static void check_pr_in(const struct scst_pr_state *st, u8 small)
{
	static u8 big[8 + SCST_PR_MAX_REGISTRANTS * (24 + SCST_PR_TID_MAX_LEN)];
	struct scst_cdb_err err;
	u8 cdb[10] = { SCST_OP_PERSISTENT_RESERVE_IN };
	u8 *cut = malloc(small ? small : 1);
	int sa, len, len2, off, n;

	FUZZ_CHECK(cut);
	for (sa = 0; sa < 4; sa++) {
		cdb[1] = sa;
		put_unaligned_be16(sizeof(big) > 65535 ? 65535 : sizeof(big),
				   cdb + 7);
		len = scst_pr_in(st, cdb, sizeof(cdb), big, sizeof(big), &err);
		put_unaligned_be16(small, cdb + 7);
		len2 = scst_pr_in(st, cdb, sizeof(cdb), cut, small, &err);
		FUZZ_CHECK(len > 0 && len == len2);
		FUZZ_CHECK(!memcmp(big, cut, len < small ? len : small));
		switch (sa) {
		case SCST_PR_IN_READ_KEYS:
			FUZZ_CHECK(len == 8 + 8 * st->nreg);
			break;
		case SCST_PR_IN_READ_RESERVATION:
			FUZZ_CHECK(len == (st->type ? 24 : 8));
			break;
		case SCST_PR_IN_REPORT_CAPABILITIES:
			FUZZ_CHECK(len == 8);
			break;
		default:
			FUZZ_CHECK(get_unaligned_be32(big + 4) + 8 == (u32)len);
			for (off = 8, n = 0; off < len; n++) {
				FUZZ_CHECK(off + 24 <= len);
				off += 24 + get_unaligned_be32(big + off + 20);
			}
			FUZZ_CHECK(off == len && n == st->nreg);
		}
	}
	free(cut);
}

static void check_file(const struct scst_pr_state *st)
{
	static char text[SCST_PR_FILE_MAX_LEN];
	static struct scst_pr_state back;
	struct scst_pr_file_err ferr;
	int len = scst_pr_file_write(st, text, sizeof(text));

	FUZZ_CHECK(len > 0 && len <= SCST_PR_FILE_MAX_LEN);
	FUZZ_CHECK(!scst_pr_file_parse(text, len, &back, &ferr));
	FUZZ_CHECK(scst_pr_state_equal(st, &back));
}

static bool spc2_reserve(u8 op)
{
	return op == SCST_OP_RESERVE_6 || op == SCST_OP_RELEASE_6 ||
	       op == SCST_OP_RESERVE_10 || op == SCST_OP_RELEASE_10;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scst_pr_state st, before;
	static struct scst_pr_effects eff;
	static u8 par[LIST_MAX];
	struct fuzz_in in = { data, size };
	unsigned int steps = 0, i;
	static bool init;

	if (!init) {
		init_nexuses();
		init = true;
	}
	scst_pr_state_init(&st);
	while (in.n && steps++ < 64) {
		const struct scst_pr_nexus *nx = &nexus[fuzz_u8(&in) % NNEXUS];
		const struct scst_pr_nexus *other;
		u8 cdb[10] = { SCST_OP_PERSISTENT_RESERVE_OUT };
		struct scst_pr_out_req req = {
			.nexus = nx, .cdb = cdb, .cdb_len = sizeof(cdb),
			.data = par, .port_exists = port_exists,
		};
		struct scst_cdb_err err;
		u8 sa, byte20, mode;
		u64 key, sa_key;
		u32 len;
		int ret;
		u8 tc[16];

		sa = fuzz_u8(&in);
		cdb[1] = sa & 0x1f;
		cdb[2] = fuzz_u8(&in);
		key = key_sel(&in);
		sa_key = key_sel(&in);
		byte20 = fuzz_u8(&in);
		mode = fuzz_u8(&in);
		len = build_list(&in, mode, par, key, sa_key, byte20,
				 &req.data_len);
		put_unaligned_be32(len, cdb + 5);
		memcpy(&before, &st, sizeof(st));
		memset(&err, 0, sizeof(err));
		ret = scst_pr_out(&st, &req, &eff, &err);
		FUZZ_CHECK(ret == 0 || ret == SCST_PR_CONFLICT || ret == -EINVAL);
		FUZZ_CHECK(scst_pr_state_valid(&st));
		if (ret) {
			/* Atomic: nothing changed, nothing to do. */
			FUZZ_CHECK(!memcmp(&before, &st, sizeof(st)));
			FUZZ_CHECK(!eff.n && !eff.changed &&
				   eff.persist == SCST_PR_PERSIST_NONE);
			if (ret == -EINVAL && err.has_field)
				FUZZ_CHECK(err.in_cdb ? err.byte < 10 :
					   err.byte < len);
		} else {
			bool counts = cdb[1] != SCST_PR_OUT_RESERVE &&
				      cdb[1] != SCST_PR_OUT_RELEASE;

			FUZZ_CHECK(st.generation ==
				   before.generation + (counts ? 1 : 0));
			FUZZ_CHECK(eff.n <= before.nreg);
			for (i = 0; i < eff.n; i++) {
				FUZZ_CHECK(!scst_pr_reg_matches(&eff.notice[i].who,
								nx));
				FUZZ_CHECK(eff.notice[i].ua || eff.notice[i].abort);
			}
			if (!eff.changed)
				FUZZ_CHECK(!memcmp(&before, &st, sizeof(st)));
			if (eff.persist == SCST_PR_PERSIST_SAVE)
				FUZZ_CHECK(st.aptpl);
			if (eff.persist == SCST_PR_PERSIST_REMOVE)
				FUZZ_CHECK(!st.aptpl && before.aptpl);
		}
		/* The holder may run anything; PR IN/OUT always. */
		for (i = 0; i < sizeof(tc); i++)
			tc[i] = fuzz_u8(&in);
		if (scst_pr_is_holder(&st, nx) && !spc2_reserve(tc[0]))
			FUZZ_CHECK(!scst_pr_conflicts(&st, nx, tc, sizeof(tc)));
		if (spc2_reserve(tc[0]))
			FUZZ_CHECK(scst_pr_conflicts(&st, nx, tc, sizeof(tc)) ==
				   scst_pr_has_registrations(&st));
		/*
		 * Another nexus: without a reservation only SPC-2 RESERVE
		 * and RELEASE may conflict; a registrant of a Registrants
		 * Only or All Registrants type is never refused; what
		 * conflicts under Write Exclusive conflicts under Exclusive
		 * Access as well.
		 */
		other = &nexus[tc[15] % NNEXUS];
		if (!spc2_reserve(tc[0]) &&
		    scst_pr_conflicts(&st, other, tc, sizeof(tc))) {
			FUZZ_CHECK(st.type != SCST_PR_TYPE_NONE);
			FUZZ_CHECK(!scst_pr_is_holder(&st, other));
			FUZZ_CHECK(scst_pr_find(&st, other) < 0 ||
				   st.type == SCST_PR_TYPE_WE ||
				   st.type == SCST_PR_TYPE_EA);
			if (st.type == SCST_PR_TYPE_WE) {
				st.type = SCST_PR_TYPE_EA;
				FUZZ_CHECK(scst_pr_conflicts(&st, other, tc,
							     sizeof(tc)));
				st.type = SCST_PR_TYPE_WE;
			}
		}
		tc[0] = SCST_OP_PERSISTENT_RESERVE_IN;
		FUZZ_CHECK(!scst_pr_conflicts(&st, nx, tc, sizeof(tc)));
		check_pr_in(&st, fuzz_u8(&in));
	}
	check_file(&st);
	return 0;
}
