// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_pr.c: TransportIDs, every PERSISTENT
 * RESERVE OUT service action for every reservation type from an
 * unregistered, a registered and the holding I_T nexus, the errors and
 * that they change nothing, PRgeneration, APTPL, the PERSISTENT RESERVE
 * IN data byte by byte and the conflict check. Expectations are written
 * from SPC-4 §5.9 and §6.15-6.16, not derived from the code.
 */
#include "unit.h"
#include <scst_pr.h>

static const u8 all_types[] = {
	SCST_PR_TYPE_WE, SCST_PR_TYPE_EA, SCST_PR_TYPE_WE_RO,
	SCST_PR_TYPE_EA_RO, SCST_PR_TYPE_WE_AR, SCST_PR_TYPE_EA_AR,
};

static bool is_ar(u8 t)
{
	return t == SCST_PR_TYPE_WE_AR || t == SCST_PR_TYPE_EA_AR;
}

static bool is_ro(u8 t)
{
	return t == SCST_PR_TYPE_WE_RO || t == SCST_PR_TYPE_EA_RO;
}

static struct scst_pr_state st, saved;
static struct scst_pr_effects eff;
static struct scst_cdb_err err;

static struct scst_pr_nexus nx_iscsi(const char *name, u16 port)
{
	struct scst_pr_nexus n;

	memset(&n, 0, sizeof(n));
	assert_int_equal(scst_pr_tid_from_iscsi_name(&n.tid, name), 0);
	n.rel_tgt_id = port;
	return n;
}

static struct scst_pr_nexus nx_srp(u8 id, u16 port)
{
	struct scst_pr_nexus n;
	u8 pid[16];

	memset(&n, 0, sizeof(n));
	memset(pid, 0, sizeof(pid));
	pid[0] = 0xfe;
	pid[15] = id;
	scst_pr_tid_from_srp(&n.tid, pid);
	n.rel_tgt_id = port;
	return n;
}

/* One PERSISTENT RESERVE OUT with a parameter list of @len bytes. */
static int out_raw(const struct scst_pr_nexus *nx, u8 sa, u8 type,
		   const u8 *par, u32 len, size_t data_len)
{
	u8 cdb[10] = { SCST_OP_PERSISTENT_RESERVE_OUT, sa, type };
	struct scst_pr_out_req req = {
		.nexus = nx, .cdb = cdb, .cdb_len = sizeof(cdb),
		.data = par, .data_len = data_len,
	};

	put_unaligned_be32(len, cdb + 5);
	memset(&err, 0, sizeof(err));
	return scst_pr_out(&st, &req, &eff, &err);
}

/* The basic 24-byte parameter list. */
static int out(const struct scst_pr_nexus *nx, u8 sa, u8 type, u64 key,
	       u64 sa_key, u8 flags)
{
	u8 par[24] = { 0 };

	put_unaligned_be64(key, par);
	put_unaligned_be64(sa_key, par + 8);
	par[20] = flags;
	return out_raw(nx, sa, type, par, sizeof(par), sizeof(par));
}

/* REGISTER AND MOVE to @dest through @port. */
static bool ram_port_ok(u16 rel_tgt_id, void *ctx)
{
	(void)ctx;
	return rel_tgt_id != 99;
}

static int ram(const struct scst_pr_nexus *nx, u64 key, u64 sa_key,
	       const struct scst_pr_tid *dest, u16 port, u8 byte17)
{
	u8 par[24 + SCST_PR_TID_MAX_LEN] = { 0 }, cdb[10] = {
		SCST_OP_PERSISTENT_RESERVE_OUT, SCST_PR_OUT_REGISTER_AND_MOVE };
	struct scst_pr_out_req req = {
		.nexus = nx, .cdb = cdb, .cdb_len = sizeof(cdb), .data = par,
		.port_exists = ram_port_ok,
	};

	put_unaligned_be64(key, par);
	put_unaligned_be64(sa_key, par + 8);
	par[17] = byte17;
	put_unaligned_be16(port, par + 18);
	put_unaligned_be32(dest->len, par + 20);
	memcpy(par + 24, dest->data, dest->len);
	req.data_len = 24 + dest->len;
	put_unaligned_be32(req.data_len, cdb + 5);
	memset(&err, 0, sizeof(err));
	return scst_pr_out(&st, &req, &eff, &err);
}

static void assert_err(u32 sense, bool in_cdb, int byte, int bit)
{
	if (err.sense_code != sense)
		fail_msg("sense %06x, expected %06x", err.sense_code, sense);
	if (err.has_field != (byte >= 0))
		fail_msg("has_field %d, expected %d", err.has_field, byte >= 0);
	if (byte >= 0 && (err.byte != byte || err.bit != bit ||
			  err.in_cdb != in_cdb))
		fail_msg("field %u bit %d C/D %d, expected %d bit %d C/D %d",
			 err.byte, err.bit, err.in_cdb, byte, bit, in_cdb);
}

/* An error leaves the state exactly as it was and no effects. */
static void snap(void)
{
	memcpy(&saved, &st, sizeof(st));
}

static void assert_unchanged(void)
{
	if (memcmp(&saved, &st, sizeof(st)))
		fail_msg("state changed by a failed command");
	assert_int_equal(eff.n, 0);
	assert_false(eff.changed);
	assert_int_equal(eff.persist, SCST_PR_PERSIST_NONE);
}

static void assert_notice(unsigned int i, u64 key, u32 ua, bool abort)
{
	assert_true(i < eff.n);
	assert_true(eff.notice[i].who.key == key);
	if (eff.notice[i].ua != ua)
		fail_msg("notice %u: ua %06x, expected %06x", i,
			 eff.notice[i].ua, ua);
	assert_int_equal(eff.notice[i].abort, abort);
}

static int setup(void **state)
{
	(void)state;
	scst_pr_state_init(&st);
	memset(&eff, 0, sizeof(eff));
	return 0;
}

/* ---------------------------------------------------------------------- */
/* TransportIDs                                                           */
/* ---------------------------------------------------------------------- */

static void test_tid_parse(void **state)
{
	static const u8 srp[24] = { 0x04, 1, 2, 3, 4, 5, 6, 7,
		0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 2, 0xc9, 3, 0, 0xe, 0x8a, 0xcd };
	u8 iscsi[4 + 12] = { 0x05, 0, 0, 12, 'I', 'q', 'N', '.', 'x', ':', 'Y',
		0, 0x55, 0x55, 0, 0 };
	struct scst_pr_tid t, u;
	u8 bad[32];

	(void)state;
	/* SRP: reserved bytes cleared. */
	assert_int_equal(scst_pr_tid_parse(srp, sizeof(srp), &t), 24);
	assert_int_equal(t.len, 24);
	assert_int_equal(t.data[0], 4);
	assert_int_equal(t.data[1], 0);
	assert_int_equal(t.data[7], 0);
	assert_memory_equal(t.data + 8, srp + 8, 16);
	assert_int_equal(scst_pr_tid_parse(srp, 23, &t), -EOVERFLOW);
	assert_int_equal(t.len, 0);
	/* iSCSI: consumes its own length, lowercased, padded to 20. */
	assert_int_equal(scst_pr_tid_parse(iscsi, sizeof(iscsi), &t), 16);
	assert_int_equal(t.len, 24);
	assert_int_equal(get_unaligned_be16(t.data + 2), 20);
	assert_memory_equal(t.data + 4, "iqn.x:y\0\0\0\0\0", 12);
	assert_int_equal(scst_pr_tid_from_iscsi_name(&u, "IQN.X:Y"), 0);
	assert_true(scst_pr_tid_equal(&t, &u));
	assert_int_equal(scst_pr_tid_from_iscsi_name(&u, "iqn.x:z"), 0);
	assert_false(scst_pr_tid_equal(&t, &u));
	/* Format 01b, unknown protocol, bad length, no NUL, empty, blank. */
	memcpy(bad, iscsi, sizeof(iscsi));
	bad[0] = 0x45;
	assert_int_equal(scst_pr_tid_parse(bad, sizeof(iscsi), &t), -EINVAL);
	bad[0] = 0x02;
	assert_int_equal(scst_pr_tid_parse(bad, sizeof(iscsi), &t), -EINVAL);
	memcpy(bad, iscsi, sizeof(iscsi));
	bad[3] = 10;
	assert_int_equal(scst_pr_tid_parse(bad, sizeof(iscsi), &t), -EINVAL);
	bad[3] = 16;
	assert_int_equal(scst_pr_tid_parse(bad, sizeof(iscsi), &t),
			 -EOVERFLOW);
	bad[3] = 4;
	assert_int_equal(scst_pr_tid_parse(bad, sizeof(iscsi), &t), -EINVAL);
	bad[3] = 12;
	bad[4] = 0;
	assert_int_equal(scst_pr_tid_parse(bad, sizeof(iscsi), &t), -EINVAL);
	bad[4] = ' ';
	assert_int_equal(scst_pr_tid_parse(bad, sizeof(iscsi), &t), -EINVAL);
	assert_int_equal(scst_pr_tid_parse(bad, 3, &t), -EOVERFLOW);
	assert_int_equal(scst_pr_tid_from_iscsi_name(&u, ""), -EINVAL);
	assert_int_equal(scst_pr_tid_from_iscsi_name(&u, "a b"), -EINVAL);
}

static void test_tid_limits(void **state)
{
	char name[SCST_PR_ISCSI_NAME_MAX + 2], text[300];
	struct scst_pr_tid t, u;

	(void)state;
	memset(name, 'a', sizeof(name));
	name[SCST_PR_ISCSI_NAME_MAX] = '\0';
	assert_int_equal(scst_pr_tid_from_iscsi_name(&t, name), 0);
	assert_int_equal(t.len, SCST_PR_TID_MAX_LEN);
	assert_int_equal(scst_pr_tid_parse(t.data, t.len, &u), t.len);
	assert_true(scst_pr_tid_equal(&t, &u));
	assert_int_equal(scst_pr_tid_format(&t, text, sizeof(text)),
			 6 + SCST_PR_ISCSI_NAME_MAX);
	assert_memory_equal(text, "iscsi:aaa", 9);
	/* Cut to the buffer, the full length returned. */
	assert_int_equal(scst_pr_tid_format(&t, text, 8),
			 6 + SCST_PR_ISCSI_NAME_MAX);
	assert_string_equal(text, "iscsi:a");
	name[SCST_PR_ISCSI_NAME_MAX] = 'a';
	name[SCST_PR_ISCSI_NAME_MAX + 1] = '\0';
	assert_int_equal(scst_pr_tid_from_iscsi_name(&t, name), -EINVAL);
	t = nx_srp(0x42, 1).tid;
	assert_int_equal(scst_pr_tid_format(&t, text, sizeof(text)), 36);
	assert_string_equal(text, "srp:fe000000000000000000000000000042");
}

/* ---------------------------------------------------------------------- */
/* REGISTER, REGISTER AND IGNORE EXISTING KEY                             */
/* ---------------------------------------------------------------------- */

static void test_register(void **state)
{
	struct scst_pr_nexus a = nx_iscsi("iqn.a", 1);

	(void)state;
	/* Unregistered with a non-zero RESERVATION KEY: conflict. */
	snap();
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 5, 0xa, 0),
			 SCST_PR_CONFLICT);
	assert_unchanged();
	/* Key 0 from an unregistered nexus: nothing but PRgeneration. */
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0, 0), 0);
	assert_int_equal(st.nreg, 0);
	assert_int_equal(st.generation, 1);
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_int_equal(st.nreg, 1);
	assert_true(st.reg[0].key == 0xa);
	assert_int_equal(st.generation, 2);
	assert_true(eff.changed);
	assert_int_equal(eff.n, 0);
	/* Registered: the RESERVATION KEY must be the registered one. */
	snap();
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xb, 0),
			 SCST_PR_CONFLICT);
	assert_unchanged();
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0xa, 0xb, 0), 0);
	assert_true(st.reg[0].key == 0xb);
	/* REGISTER AND IGNORE EXISTING KEY: any RESERVATION KEY. */
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER_AND_IGNORE, 0, 0x77,
			     0xc, 0), 0);
	assert_true(st.reg[0].key == 0xc);
	assert_int_equal(st.generation, 4);
	/* Service action key 0 unregisters. */
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER_AND_IGNORE, 0, 0, 0, 0),
			 0);
	assert_int_equal(st.nreg, 0);
	assert_int_equal(st.generation, 5);
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER_AND_IGNORE, 0, 0x99,
			     0xd, 0), 0);
	assert_int_equal(st.nreg, 1);
	assert_true(scst_pr_state_valid(&st));
}

static void test_register_all_tg_pt(void **state)
{
	struct scst_pr_nexus a1 = nx_srp(1, 1), a2 = nx_srp(1, 2);
	struct scst_pr_nexus b1 = nx_srp(2, 1), b2 = nx_srp(2, 2);

	(void)state;
	assert_int_equal(out(&a1, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0x04), 0);
	assert_true(st.reg[0].all_tg_pt);
	/* The same initiator port through another target port matches. */
	assert_int_equal(scst_pr_find(&st, &a2), 0);
	assert_int_equal(out(&a2, SCST_PR_OUT_REGISTER, 0, 0xa, 0xa1, 0), 0);
	assert_true(st.reg[0].key == 0xa1);
	/* Without ALL_TG_PT: one registration per target port. */
	assert_int_equal(out(&b1, SCST_PR_OUT_REGISTER, 0, 0, 0xb1, 0), 0);
	assert_int_equal(scst_pr_find(&st, &b2), -1);
	assert_int_equal(out(&b2, SCST_PR_OUT_REGISTER, 0, 0, 0xb2, 0), 0);
	assert_int_equal(st.nreg, 3);
	assert_int_equal(scst_pr_find(&st, &b2), 2);
	/* ALL_TG_PT over b's port 1 registration would overlap it. */
	assert_int_equal(out(&b2, SCST_PR_OUT_REGISTER, 0, 0xb2, 0, 0), 0);
	snap();
	assert_int_equal(out(&b2, SCST_PR_OUT_REGISTER, 0, 0, 0xb2, 0x04),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 20, 2);
	assert_unchanged();
	assert_true(scst_pr_state_valid(&st));
}

/* SPEC_I_PT: the issuer plus each TransportID of the list. */
static size_t spec_list(u8 *par, u64 sa_key, u8 flags,
			const struct scst_pr_tid *const *tids, unsigned int n)
{
	size_t off = 28;
	unsigned int i;

	memset(par, 0, 28);
	put_unaligned_be64(sa_key, par + 8);
	par[20] = 0x08 | flags;
	for (i = 0; i < n; i++) {
		memcpy(par + off, tids[i]->data, tids[i]->len);
		off += tids[i]->len;
	}
	put_unaligned_be32(off - 28, par + 24);
	return off;
}

static void test_spec_i_pt(void **state)
{
	struct scst_pr_nexus a = nx_iscsi("iqn.a", 3), b = nx_srp(2, 3);
	struct scst_pr_nexus c = nx_iscsi("iqn.c", 3), d = nx_srp(4, 7);
	const struct scst_pr_tid *l1[] = { &b.tid, &a.tid, &c.tid };
	const struct scst_pr_tid *dup[] = { &d.tid, &d.tid };
	const struct scst_pr_tid *one[] = { &d.tid };
	u8 par[1024];
	size_t len;

	(void)state;
	len = spec_list(par, 0xa, 0, l1, 3);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par, len, len),
			 0);
	/* The issuer first, its own TransportID skipped. */
	assert_int_equal(st.nreg, 3);
	assert_int_equal(scst_pr_find(&st, &a), 0);
	assert_int_equal(scst_pr_find(&st, &b), 1);
	assert_int_equal(scst_pr_find(&st, &c), 2);
	assert_int_equal(st.reg[1].rel_tgt_id, 3);
	assert_true(st.reg[2].key == 0xa);
	assert_int_equal(st.generation, 1);

	/* Registered issuer: SPEC_I_PT is refused. */
	snap();
	len = spec_list(par, 0xa, 0, one, 1);
	put_unaligned_be64(0xa, par);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par, len, len),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 20, 3);
	assert_unchanged();

	/* Already registered in the list (b, second entry at 28 + 24). */
	scst_pr_state_init(&st);
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER, 0, 0, 0xb, 0), 0);
	snap();
	{
		const struct scst_pr_tid *l2[] = { &c.tid, &b.tid };

		len = spec_list(par, 0xa, 0, l2, 2);
	}
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par, len, len),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 28 + 24, -1);
	assert_unchanged();
	/* Listed twice. */
	len = spec_list(par, 0xa, 0, dup, 2);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par, len, len),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 28 + 24, -1);
	assert_unchanged();
	/* A TransportID we do not take (FC format 01b). */
	len = spec_list(par, 0xa, 0, one, 1);
	par[28] = 0x40;
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par, len, len),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 28, -1);
	assert_unchanged();
	/* An iSCSI TransportID whose length runs past the list. */
	{
		const struct scst_pr_tid *l3[] = { &c.tid };

		len = spec_list(par, 0xa, 0, l3, 1);
	}
	par[28 + 3] += 4;
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par, len, len),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 30, -1);
	assert_unchanged();
	/* TRANSPORTID PARAMETER DATA LENGTH disagreeing with the CDB. */
	len = spec_list(par, 0xa, 0, one, 1);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par, len - 1,
				 len), -EINVAL);
	assert_err(SCST_SENSE_PARAM_LIST_LEN_ERROR, true, 5, -1);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par, 27, len),
			 -EINVAL);
	assert_err(SCST_SENSE_PARAM_LIST_LEN_ERROR, true, 5, -1);
	assert_unchanged();
	/* With REGISTER AND IGNORE EXISTING KEY. */
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER_AND_IGNORE, 0, par,
				 len, len), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 20, 3);
	assert_unchanged();
	/* ALL_TG_PT applies to the listed ones too. */
	len = spec_list(par, 0xa, 0x04, one, 1);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par, len, len),
			 0);
	assert_int_equal(st.nreg, 3);
	assert_true(st.reg[2].all_tg_pt);
	assert_true(scst_pr_state_valid(&st));
}

static void test_capacity(void **state)
{
	struct scst_pr_nexus n, x = nx_iscsi("iqn.extra", 1);
	const struct scst_pr_tid *one[] = { &x.tid };
	unsigned int i;
	u8 par[64];
	size_t len;

	(void)state;
	for (i = 0; i < SCST_PR_MAX_REGISTRANTS - 1; i++) {
		n = nx_srp(i, 1);
		assert_int_equal(out(&n, SCST_PR_OUT_REGISTER, 0, 0, i + 1, 0),
				 0);
	}
	/* One left: the issuer and one listed TransportID do not fit. */
	n = nx_srp(200, 1);
	len = spec_list(par, 0x1234, 0, one, 1);
	snap();
	assert_int_equal(out_raw(&n, SCST_PR_OUT_REGISTER, 0, par, len, len),
			 -EINVAL);
	assert_err(SCST_SENSE_INSUFFICIENT_REG_RESOURCES, false, -1, -1);
	assert_unchanged();
	assert_int_equal(out(&n, SCST_PR_OUT_REGISTER, 0, 0, 0x1234, 0), 0);
	assert_int_equal(st.nreg, SCST_PR_MAX_REGISTRANTS);
	snap();
	assert_int_equal(out(&x, SCST_PR_OUT_REGISTER_AND_IGNORE, 0, 0, 5, 0),
			 -EINVAL);
	assert_err(SCST_SENSE_INSUFFICIENT_REG_RESOURCES, false, -1, -1);
	assert_unchanged();
}

/* ---------------------------------------------------------------------- */
/* Every service action x type x issuer                                   */
/* ---------------------------------------------------------------------- */

enum role { UNREG, REGD, HOLDER };
static const char *const role_name[] = { "unregistered", "registered",
					 "holder" };

/* A (key 0xa, port 1) holds @type; B (0xb, port 1) registered; C not. */
static struct scst_pr_nexus na, nb, nc;

static void matrix_setup(u8 type)
{
	scst_pr_state_init(&st);
	na = nx_iscsi("iqn.node-a", 1);
	nb = nx_srp(0xb, 1);
	nc = nx_iscsi("iqn.node-c", 2);
	assert_int_equal(out(&na, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_int_equal(out(&nb, SCST_PR_OUT_REGISTER, 0, 0, 0xb, 0), 0);
	assert_int_equal(out(&na, SCST_PR_OUT_RESERVE, type, 0xa, 0, 0), 0);
	assert_int_equal(st.generation, 2);
	snap();
}

static const struct scst_pr_nexus *issuer(enum role r, u64 *key)
{
	*key = r == UNREG ? 0xc : r == REGD ? 0xb : 0xa;
	return r == UNREG ? &nc : r == REGD ? &nb : &na;
}

#define CASE_FAIL(...) do {						\
	print_error("type %u, %s issuer: ", type, role_name[r]);	\
	fail_msg(__VA_ARGS__);						\
} while (0)

static void expect_res(u8 type, enum role r, u8 want_type,
		       const struct scst_pr_nexus *want_holder)
{
	if (st.type != want_type)
		CASE_FAIL("reservation type %u, expected %u", st.type,
			  want_type);
	if (want_type == SCST_PR_TYPE_NONE)
		return;
	if (is_ar(want_type) ? st.holder != SCST_PR_HOLDER_ALL :
	    st.holder != scst_pr_find(&st, want_holder))
		CASE_FAIL("holder %d", st.holder);
	if (!scst_pr_state_valid(&st))
		CASE_FAIL("inconsistent state");
}

static void test_matrix_reserve(void **state)
{
	unsigned int t, r;
	u8 type, other;
	u64 key;

	(void)state;
	for (t = 0; t < ARRAY_SIZE(all_types); t++) {
		type = all_types[t];
		other = all_types[(t + 1) % ARRAY_SIZE(all_types)];
		for (r = UNREG; r <= HOLDER; r++) {
			const struct scst_pr_nexus *x;
			int ret, want;

			matrix_setup(type);
			x = issuer(r, &key);
			ret = out(x, SCST_PR_OUT_RESERVE, type, key, 0, 0);
			/* Same type: only a holder (any registrant of AR). */
			want = r == HOLDER || (r == REGD && is_ar(type)) ? 0 :
			       SCST_PR_CONFLICT;
			if (ret != want)
				CASE_FAIL("RESERVE: %d, expected %d", ret, want);
			assert_true(scst_pr_state_equal(&st, &saved));
			assert_false(eff.changed);
			/* Another type conflicts whoever asks. */
			ret = out(x, SCST_PR_OUT_RESERVE, other, key, 0, 0);
			if (ret != SCST_PR_CONFLICT)
				CASE_FAIL("RESERVE other type: %d", ret);
			assert_unchanged();
		}
	}
}

static void test_matrix_release(void **state)
{
	unsigned int t, r;
	u64 key;
	u8 type;

	(void)state;
	for (t = 0; t < ARRAY_SIZE(all_types); t++) {
		type = all_types[t];
		for (r = UNREG; r <= HOLDER; r++) {
			const struct scst_pr_nexus *x;
			bool holder = r == HOLDER || (r == REGD && is_ar(type));
			int ret;

			matrix_setup(type);
			x = issuer(r, &key);
			ret = out(x, SCST_PR_OUT_RELEASE, type, key, 0, 0);
			if (r == UNREG) {
				if (ret != SCST_PR_CONFLICT)
					CASE_FAIL("RELEASE: %d", ret);
				assert_unchanged();
				continue;
			}
			if (ret)
				CASE_FAIL("RELEASE: %d", ret);
			assert_int_equal(st.generation, 2);
			assert_int_equal(st.nreg, 2);
			if (!holder) {
				/* A non-holder's RELEASE does nothing. */
				expect_res(type, r, type, &na);
				assert_int_equal(eff.n, 0);
				continue;
			}
			expect_res(type, r, SCST_PR_TYPE_NONE, NULL);
			/* RO and AR: the other registrant is told. */
			if (is_ro(type) || is_ar(type)) {
				assert_int_equal(eff.n, 1);
				assert_notice(0, r == HOLDER ? 0xb : 0xa,
					      SCST_SENSE_RESERVATIONS_RELEASED,
					      false);
			} else {
				assert_int_equal(eff.n, 0);
			}
		}
	}
}

static void test_matrix_clear(void **state)
{
	unsigned int t, r;
	u64 key;
	u8 type;

	(void)state;
	for (t = 0; t < ARRAY_SIZE(all_types); t++) {
		type = all_types[t];
		for (r = UNREG; r <= HOLDER; r++) {
			const struct scst_pr_nexus *x;
			int ret;

			matrix_setup(type);
			x = issuer(r, &key);
			ret = out(x, SCST_PR_OUT_CLEAR, type, key, 0, 0);
			if (r == UNREG) {
				if (ret != SCST_PR_CONFLICT)
					CASE_FAIL("CLEAR: %d", ret);
				assert_unchanged();
				continue;
			}
			if (ret)
				CASE_FAIL("CLEAR: %d", ret);
			assert_int_equal(st.nreg, 0);
			expect_res(type, r, SCST_PR_TYPE_NONE, NULL);
			assert_int_equal(st.generation, 3);
			assert_int_equal(eff.n, 1);
			assert_notice(0, r == HOLDER ? 0xb : 0xa,
				      SCST_SENSE_RESERVATIONS_PREEMPTED, false);
		}
	}
}

static void matrix_preempt(u8 sa)
{
	bool abort = sa == SCST_PR_OUT_PREEMPT_AND_ABORT;
	unsigned int t, r;
	u64 key, victim;
	u8 type;

	for (t = 0; t < ARRAY_SIZE(all_types); t++) {
		type = all_types[t];
		for (r = UNREG; r <= HOLDER; r++) {
			const struct scst_pr_nexus *x;
			int ret;

			matrix_setup(type);
			x = issuer(r, &key);
			victim = r == HOLDER ? 0xb : 0xa;
			ret = out(x, sa, type, key, victim, 0);
			if (r == UNREG) {
				if (ret != SCST_PR_CONFLICT)
					CASE_FAIL("PREEMPT: %d", ret);
				assert_unchanged();
				continue;
			}
			if (ret)
				CASE_FAIL("PREEMPT: %d", ret);
			assert_int_equal(st.nreg, 1);
			assert_int_equal(scst_pr_find(&st, x), 0);
			assert_int_equal(st.generation, 3);
			/* B preempting holder A takes the reservation. */
			expect_res(type, r, type, x);
			assert_int_equal(eff.n, 1);
			assert_notice(0, victim,
				      SCST_SENSE_REGISTRATIONS_PREEMPTED, abort);
		}
	}
}

static void test_matrix_preempt(void **state)
{
	(void)state;
	matrix_preempt(SCST_PR_OUT_PREEMPT);
}

static void test_matrix_preempt_abort(void **state)
{
	(void)state;
	matrix_preempt(SCST_PR_OUT_PREEMPT_AND_ABORT);
}

static void test_matrix_unregister(void **state)
{
	unsigned int t, r;
	u64 key;
	u8 type;

	(void)state;
	for (t = 0; t < ARRAY_SIZE(all_types); t++) {
		type = all_types[t];
		for (r = UNREG; r <= HOLDER; r++) {
			const struct scst_pr_nexus *x;
			int ret;

			matrix_setup(type);
			x = issuer(r, &key);
			ret = out(x, SCST_PR_OUT_REGISTER, 0,
				  r == UNREG ? 0 : key, 0, 0);
			if (ret)
				CASE_FAIL("REGISTER key 0: %d", ret);
			assert_int_equal(st.generation, 3);
			if (r == UNREG) {
				assert_int_equal(st.nreg, 2);
				expect_res(type, r, type, &na);
				assert_int_equal(eff.n, 0);
				continue;
			}
			assert_int_equal(st.nreg, 1);
			if (r == REGD || is_ar(type)) {
				/* The reservation stays (with A, or AR). */
				expect_res(type, r, type, &na);
				assert_int_equal(eff.n, 0);
				continue;
			}
			/* The holder unregistered: released. */
			expect_res(type, r, SCST_PR_TYPE_NONE, NULL);
			if (is_ro(type)) {
				assert_int_equal(eff.n, 1);
				assert_notice(0, 0xb,
					      SCST_SENSE_RESERVATIONS_RELEASED,
					      false);
			} else {
				assert_int_equal(eff.n, 0);
			}
		}
	}
}

static void test_matrix_register_ignore(void **state)
{
	unsigned int t, r;
	u64 key;
	u8 type;

	(void)state;
	for (t = 0; t < ARRAY_SIZE(all_types); t++) {
		type = all_types[t];
		for (r = UNREG; r <= HOLDER; r++) {
			const struct scst_pr_nexus *x;
			int ret;

			matrix_setup(type);
			x = issuer(r, &key);
			ret = out(x, SCST_PR_OUT_REGISTER_AND_IGNORE, 0,
				  0x5555, 0x77, 0);
			if (ret)
				CASE_FAIL("REGISTER AND IGNORE: %d", ret);
			assert_int_equal(st.nreg, r == UNREG ? 3 : 2);
			assert_true(st.reg[scst_pr_find(&st, x)].key == 0x77);
			assert_int_equal(st.generation, 3);
			expect_res(type, r, type, &na);
			assert_int_equal(eff.n, 0);
		}
	}
}

static void test_matrix_register_and_move(void **state)
{
	struct scst_pr_nexus d;
	unsigned int t, r;
	u64 key;
	u8 type;

	(void)state;
	for (t = 0; t < ARRAY_SIZE(all_types); t++) {
		type = all_types[t];
		for (r = UNREG; r <= HOLDER; r++) {
			const struct scst_pr_nexus *x;
			int ret;

			matrix_setup(type);
			d = nx_iscsi("iqn.dest", 2);
			x = issuer(r, &key);
			ret = ram(x, key, 0xd, &d.tid, 2, 0);
			if (r != HOLDER || is_ar(type)) {
				if (ret != SCST_PR_CONFLICT)
					CASE_FAIL("REGISTER AND MOVE: %d", ret);
				assert_unchanged();
				continue;
			}
			if (ret)
				CASE_FAIL("REGISTER AND MOVE: %d", ret);
			assert_int_equal(st.nreg, 3);
			assert_true(st.reg[2].key == 0xd);
			expect_res(type, r, type, &d);
			assert_int_equal(st.generation, 3);
			assert_int_equal(eff.n, 0);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* PREEMPT details                                                        */
/* ---------------------------------------------------------------------- */

static void test_preempt_cases(void **state)
{
	struct scst_pr_nexus a = nx_srp(1, 1), b = nx_srp(2, 1);
	struct scst_pr_nexus b2 = nx_srp(2, 2), c = nx_srp(3, 1);

	(void)state;
	/* No reservation: removes the registrations of the key. */
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER, 0, 0, 0xb, 0), 0);
	assert_int_equal(out(&b2, SCST_PR_OUT_REGISTER, 0, 0, 0xb, 0), 0);
	assert_int_equal(out(&c, SCST_PR_OUT_REGISTER, 0, 0, 0xc, 0), 0);
	snap();
	/* Zero key without an all registrants reservation. */
	assert_int_equal(out(&a, SCST_PR_OUT_PREEMPT, SCST_PR_TYPE_WE, 0xa, 0,
			     0), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 8, -1);
	assert_unchanged();
	/* A key nobody holds: conflict. */
	assert_int_equal(out(&a, SCST_PR_OUT_PREEMPT, SCST_PR_TYPE_WE, 0xa,
			     0xee, 0), SCST_PR_CONFLICT);
	assert_unchanged();
	assert_int_equal(out(&a, SCST_PR_OUT_PREEMPT_AND_ABORT,
			     SCST_PR_TYPE_WE, 0xa, 0xb, 0), 0);
	assert_int_equal(st.nreg, 2);
	assert_int_equal(st.type, SCST_PR_TYPE_NONE);
	assert_int_equal(eff.n, 2);
	assert_int_equal(eff.notice[0].who.rel_tgt_id, 1);
	assert_int_equal(eff.notice[1].who.rel_tgt_id, 2);
	assert_true(eff.notice[0].abort && eff.notice[1].abort);

	/* Preempting the holder with a new type: the others are told. */
	assert_int_equal(out(&c, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_WE_RO,
			     0xc, 0, 0), 0);
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER, 0, 0, 0xb, 0), 0);
	assert_int_equal(out(&a, SCST_PR_OUT_PREEMPT, SCST_PR_TYPE_EA, 0xa,
			     0xc, 0), 0);
	assert_int_equal(st.type, SCST_PR_TYPE_EA);
	assert_true(scst_pr_is_holder(&st, &a));
	assert_int_equal(eff.n, 2);
	assert_notice(0, 0xc, SCST_SENSE_REGISTRATIONS_PREEMPTED, false);
	assert_notice(1, 0xb, SCST_SENSE_RESERVATIONS_RELEASED, false);

	/* Preempting oneself changes the type. */
	assert_int_equal(out(&a, SCST_PR_OUT_PREEMPT, SCST_PR_TYPE_WE, 0xa,
			     0xa, 0), 0);
	assert_int_equal(st.type, SCST_PR_TYPE_WE);
	assert_int_equal(st.nreg, 2);
	assert_notice(0, 0xb, SCST_SENSE_RESERVATIONS_RELEASED, false);

	/* All registrants, zero key: everyone else goes, new type. */
	assert_int_equal(out(&c, SCST_PR_OUT_REGISTER, 0, 0, 0xc, 0), 0);
	assert_int_equal(out(&a, SCST_PR_OUT_RELEASE, SCST_PR_TYPE_WE, 0xa,
			     0, 0), 0);
	assert_int_equal(out(&b, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_EA_AR,
			     0xb, 0, 0), 0);
	assert_int_equal(out(&c, SCST_PR_OUT_PREEMPT_AND_ABORT,
			     SCST_PR_TYPE_WE_RO, 0xc, 0, 0), 0);
	assert_int_equal(st.nreg, 1);
	assert_int_equal(st.type, SCST_PR_TYPE_WE_RO);
	assert_true(scst_pr_is_holder(&st, &c));
	assert_int_equal(eff.n, 2);
	assert_true(eff.notice[0].abort && eff.notice[1].abort);
	assert_true(scst_pr_state_valid(&st));
}

/* An all registrants reservation lasts until its last registrant goes. */
static void test_all_registrants_last(void **state)
{
	struct scst_pr_nexus a = nx_srp(1, 1), b = nx_srp(2, 1);

	(void)state;
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER, 0, 0, 0xb, 0), 0);
	assert_int_equal(out(&b, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_WE_AR, 0xb,
			     0, 0), 0);
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER, 0, 0xb, 0, 0), 0);
	assert_int_equal(st.type, SCST_PR_TYPE_WE_AR);
	assert_true(scst_pr_is_holder(&st, &a));
	assert_false(scst_pr_is_holder(&st, &b));
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0xa, 0, 0), 0);
	assert_int_equal(st.type, SCST_PR_TYPE_NONE);
	assert_int_equal(st.nreg, 0);
}

/* ---------------------------------------------------------------------- */
/* REGISTER AND MOVE details, CDB and list errors                         */
/* ---------------------------------------------------------------------- */

static void test_register_and_move(void **state)
{
	struct scst_pr_nexus a = nx_srp(1, 1), b = nx_srp(2, 2);
	struct scst_pr_nexus all = nx_srp(3, 1);

	(void)state;
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	snap();
	/* No reservation. */
	assert_int_equal(ram(&a, 0xa, 0xb, &b.tid, 2, 0), SCST_PR_CONFLICT);
	assert_unchanged();
	assert_int_equal(out(&a, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_EA, 0xa, 0,
			     0), 0);
	snap();
	assert_int_equal(ram(&a, 0xa, 0, &b.tid, 2, 0), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 8, -1);
	assert_unchanged();
	/* To itself. */
	assert_int_equal(ram(&a, 0xa, 0xb, &a.tid, 1, 0), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 24, -1);
	assert_unchanged();
	/* A target port that does not exist. */
	assert_int_equal(ram(&a, 0xa, 0xb, &b.tid, 99, 0), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 18, -1);
	assert_unchanged();
	/* Wrong key. */
	assert_int_equal(ram(&a, 0xab, 0xb, &b.tid, 2, 0), SCST_PR_CONFLICT);
	assert_unchanged();
	/* Moved with UNREG and APTPL: a is gone, b holds EA. */
	assert_int_equal(ram(&a, 0xa, 0xb, &b.tid, 2, 0x03), 0);
	assert_int_equal(st.nreg, 1);
	assert_true(scst_pr_is_holder(&st, &b));
	assert_int_equal(st.type, SCST_PR_TYPE_EA);
	assert_true(st.aptpl);
	assert_int_equal(eff.persist, SCST_PR_PERSIST_SAVE);
	assert_int_equal(st.generation, 2);

	/* From an ALL_TG_PT registration: refused. */
	scst_pr_state_init(&st);
	assert_int_equal(out(&all, SCST_PR_OUT_REGISTER, 0, 0, 0x3, 0x04), 0);
	assert_int_equal(out(&all, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_WE, 0x3,
			     0, 0), 0);
	snap();
	assert_int_equal(ram(&all, 0x3, 0xb, &b.tid, 2, 0), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, -1, -1);
	assert_unchanged();
	/* An already registered destination keeps its key. */
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER, 0, 0, 0xbb, 0), 0);
	assert_int_equal(out(&all, SCST_PR_OUT_REGISTER, 0, 0x3, 0, 0), 0);
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_int_equal(out(&a, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_WE, 0xa, 0,
			     0), 0);
	assert_int_equal(ram(&a, 0xa, 0xcc, &b.tid, 2, 0), 0);
	assert_int_equal(st.nreg, 2);
	assert_true(st.reg[scst_pr_find(&st, &b)].key == 0xbb);
	assert_true(scst_pr_is_holder(&st, &b));
	assert_true(scst_pr_state_valid(&st));
}

static void test_ram_list_errors(void **state)
{
	struct scst_pr_nexus a = nx_srp(1, 1), b = nx_iscsi("iqn.b", 2);
	u8 par[64] = { 0 };

	(void)state;
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_int_equal(out(&a, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_WE, 0xa, 0,
			     0), 0);
	snap();
	put_unaligned_be64(0xa, par);
	put_unaligned_be64(0xb, par + 8);
	put_unaligned_be16(2, par + 18);
	memcpy(par + 24, b.tid.data, b.tid.len);
	/* TRANSPORTID PARAMETER DATA LENGTH != list length - 24. */
	put_unaligned_be32(b.tid.len + 4, par + 20);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER_AND_MOVE, 0, par,
				 24 + b.tid.len, sizeof(par)), -EINVAL);
	assert_err(SCST_SENSE_PARAM_LIST_LEN_ERROR, true, 5, -1);
	assert_unchanged();
	/* The TransportID shorter than the data length. */
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER_AND_MOVE, 0, par,
				 28 + b.tid.len, sizeof(par)), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 20, -1);
	assert_unchanged();
	/* Its own length past the data. */
	put_unaligned_be32(b.tid.len, par + 20);
	par[24 + 3] += 4;
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER_AND_MOVE, 0, par,
				 24 + b.tid.len, sizeof(par)), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 26, -1);
	assert_unchanged();
	/* None at all. */
	put_unaligned_be32(0, par + 20);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER_AND_MOVE, 0, par,
				 24, sizeof(par)), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 20, -1);
	assert_unchanged();
}

static void test_cdb_errors(void **state)
{
	struct scst_pr_nexus a = nx_srp(1, 1);
	u8 par[24] = { 0 }, cdb[10] = { SCST_OP_PERSISTENT_RESERVE_OUT };
	struct scst_pr_out_req req = {
		.nexus = &a, .cdb = cdb, .cdb_len = 9, .data = par,
		.data_len = 24,
	};

	(void)state;
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_int_equal(out(&a, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_WE, 0xa, 0,
			     0), 0);
	snap();
	assert_int_equal(scst_pr_out(&st, &req, &eff, &err), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_CDB, true, -1, -1);
	assert_int_equal(out(&a, 8, 0, 0xa, 0, 0), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_CDB, true, 1, 4);
	assert_int_equal(out(&a, 0x1f, 0, 0xa, 0, 0), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_CDB, true, 1, 4);
	/* Scope and type of the actions that use them. */
	assert_int_equal(out(&a, SCST_PR_OUT_RESERVE, 0x11, 0xa, 0, 0),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_CDB, true, 2, 7);
	assert_int_equal(out(&a, SCST_PR_OUT_RELEASE, 0x02, 0xa, 0, 0),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_CDB, true, 2, 3);
	assert_int_equal(out(&a, SCST_PR_OUT_PREEMPT, 0x00, 0xa, 0xa, 0),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_CDB, true, 2, 3);
	assert_int_equal(out(&a, SCST_PR_OUT_PREEMPT_AND_ABORT, 0x09, 0xa,
			     0xa, 0), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_CDB, true, 2, 3);
	assert_unchanged();
	/* Parameter list lengths: 24 only, and all of it received. */
	put_unaligned_be64(0xa, par);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_RELEASE, 1, par, 0, 24),
			 -EINVAL);
	assert_err(SCST_SENSE_PARAM_LIST_LEN_ERROR, true, 5, -1);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_RELEASE, 1, par, 23, 24),
			 -EINVAL);
	assert_err(SCST_SENSE_PARAM_LIST_LEN_ERROR, true, 5, -1);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_CLEAR, 0, par, 25, 25),
			 -EINVAL);
	assert_err(SCST_SENSE_PARAM_LIST_LEN_ERROR, true, 5, -1);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_CLEAR, 0, par, 24, 20),
			 -EINVAL);
	assert_err(SCST_SENSE_PARAM_LIST_LEN_ERROR, true, 5, -1);
	assert_int_equal(out_raw(&a, SCST_PR_OUT_REGISTER, 0, par,
				 SCST_PR_OUT_MAX_PARAM_LEN + 4, 1 << 20),
			 -EINVAL);
	assert_err(SCST_SENSE_PARAM_LIST_LEN_ERROR, true, 5, -1);
	/* SPEC_I_PT with anything but REGISTER. */
	par[20] = 0x08;
	assert_int_equal(out_raw(&a, SCST_PR_OUT_CLEAR, 0, par, 24, 24),
			 -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 20, 3);
	/* RELEASE by the holder with another type. */
	assert_int_equal(out(&a, SCST_PR_OUT_RELEASE, SCST_PR_TYPE_EA, 0xa, 0,
			     0), -EINVAL);
	assert_err(SCST_SENSE_INVALID_RELEASE_OF_PR, false, -1, -1);
	assert_unchanged();
	/* Type and scope are ignored by REGISTER and CLEAR. */
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0xff, 0xa, 0xa, 0), 0);
	assert_int_equal(out(&a, SCST_PR_OUT_CLEAR, 0xff, 0xa, 0, 0), 0);
}

/* ---------------------------------------------------------------------- */
/* PRgeneration and APTPL                                                 */
/* ---------------------------------------------------------------------- */

static void test_generation(void **state)
{
	struct scst_pr_nexus a = nx_srp(1, 1), b = nx_srp(2, 1);
	static const struct {
		u8 who, sa, type;
		u64 key, sa_key;
		int ret;
		u32 gen;
	} seq[] = {
		{ 0, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0, 1 },
		{ 1, SCST_PR_OUT_REGISTER, 0, 0, 0xb, 0, 2 },
		{ 0, SCST_PR_OUT_RESERVE, 1, 0xa, 0, 0, 2 },
		{ 0, SCST_PR_OUT_RESERVE, 1, 0xa, 0, 0, 2 },
		{ 1, SCST_PR_OUT_RESERVE, 1, 0xb, 0, SCST_PR_CONFLICT, 2 },
		{ 1, SCST_PR_OUT_REGISTER, 0, 0xbad, 0xc, SCST_PR_CONFLICT, 2 },
		{ 0, SCST_PR_OUT_RELEASE, 1, 0xa, 0, 0, 2 },
		{ 0, SCST_PR_OUT_RELEASE, 1, 0xa, 0, 0, 2 },
		{ 0, SCST_PR_OUT_REGISTER, 0, 0xa, 0xa, 0, 3 },
		{ 0, SCST_PR_OUT_PREEMPT, 1, 0xa, 0xb, 0, 4 },
		{ 0, SCST_PR_OUT_PREEMPT, 1, 0xa, 0, -EINVAL, 4 },
		{ 1, SCST_PR_OUT_REGISTER_AND_IGNORE, 0, 0, 0xb, 0, 5 },
		{ 1, SCST_PR_OUT_CLEAR, 0, 0xb, 0, 0, 6 },
		{ 1, SCST_PR_OUT_CLEAR, 0, 0xb, 0, SCST_PR_CONFLICT, 6 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(seq); i++) {
		int ret = out(seq[i].who ? &b : &a, seq[i].sa, seq[i].type,
			      seq[i].key, seq[i].sa_key, 0);

		if (ret != seq[i].ret || st.generation != seq[i].gen)
			fail_msg("step %u: ret %d gen %u, expected %d %u", i,
				 ret, st.generation, seq[i].ret, seq[i].gen);
	}
	/* It wraps. */
	st.generation = U32_MAX;
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_int_equal(st.generation, 0);
}

static void test_aptpl(void **state)
{
	struct scst_pr_nexus a = nx_srp(1, 1), b;
	u8 caps[8];

	(void)state;
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_int_equal(eff.persist, SCST_PR_PERSIST_NONE);
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0xa, 0xa, 0x01), 0);
	assert_true(st.aptpl);
	assert_int_equal(eff.persist, SCST_PR_PERSIST_SAVE);
	scst_pr_build_report_caps(&st, caps, sizeof(caps));
	assert_int_equal(caps[3] & 1, 1);
	/* RESERVE: the file changes; a repeated one changes nothing. */
	assert_int_equal(out(&a, SCST_PR_OUT_RESERVE, 1, 0xa, 0, 0), 0);
	assert_int_equal(eff.persist, SCST_PR_PERSIST_SAVE);
	assert_int_equal(out(&a, SCST_PR_OUT_RESERVE, 1, 0xa, 0, 0), 0);
	assert_int_equal(eff.persist, SCST_PR_PERSIST_NONE);
	assert_false(eff.changed);
	/* APTPL is ignored by the other service actions. */
	assert_int_equal(out(&a, SCST_PR_OUT_RELEASE, 1, 0xa, 0, 0x00), 0);
	assert_true(st.aptpl);
	assert_int_equal(eff.persist, SCST_PR_PERSIST_SAVE);
	/*
	 * An unregistered nexus's REGISTER of key 0 registers nothing: its
	 * APTPL 0 must not end the LU's persistence.
	 */
	b = nx_srp(2, 1);
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER, 0, 0, 0, 0), 0);
	assert_true(st.aptpl);
	assert_int_equal(eff.persist, SCST_PR_PERSIST_SAVE);
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER_AND_IGNORE, 0, 0, 0, 0),
			 0);
	assert_true(st.aptpl);
	/* A REGISTER without it clears it: remove the file. */
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0xa, 0xa, 0), 0);
	assert_false(st.aptpl);
	assert_int_equal(eff.persist, SCST_PR_PERSIST_REMOVE);
	scst_pr_build_report_caps(&st, caps, sizeof(caps));
	assert_int_equal(caps[3] & 1, 0);
}

/* ---------------------------------------------------------------------- */
/* PERSISTENT RESERVE IN                                                  */
/* ---------------------------------------------------------------------- */

#define FILL	0xa5

/* scst_pr_in() at every allocation length up to @len + 2, to @want. */
static void check_in(u8 sa, const u8 *want, size_t len)
{
	u8 cdb[10] = { SCST_OP_PERSISTENT_RESERVE_IN, sa }, buf[1024];
	size_t alloc, i;

	assert_true(len + 2 <= sizeof(buf));
	for (alloc = 0; alloc <= len + 2; alloc++) {
		memset(buf, FILL, sizeof(buf));
		put_unaligned_be16(alloc, cdb + 7);
		assert_int_equal(scst_pr_in(&st, cdb, sizeof(cdb), buf,
					    sizeof(buf), &err), len);
		for (i = 0; i < sizeof(buf); i++) {
			u8 w = i < alloc && i < len ? want[i] : FILL;

			if (buf[i] != w)
				fail_msg("alloc %zu byte %zu: 0x%02x, expected 0x%02x",
					 alloc, i, buf[i], w);
		}
	}
}

static void test_pr_in(void **state)
{
	struct scst_pr_nexus a = nx_srp(0x11, 3), b = nx_iscsi("iqn.b", 1);
	static const u8 keys0[] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	static const u8 keys[] = { 0, 0, 0, 3, 0, 0, 0, 16,
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
		0, 0, 0, 0, 0, 0, 0, 0x0b };
	static const u8 resv0[] = { 0, 0, 0, 3, 0, 0, 0, 0 };
	static const u8 resv[] = { 0, 0, 0, 3, 0, 0, 0, 16,
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
		0, 0, 0, 0, 0, 0x06, 0, 0 };
	static const u8 resv_ar[] = { 0, 0, 0, 4, 0, 0, 0, 16,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x07, 0, 0 };
	static const u8 caps[] = { 0, 8, 0x0d, 0xa0, 0xea, 0x01, 0, 0 };
	static const u8 full[] = { 0, 0, 0, 3, 0, 0, 0, 48 + 24 + 24,
		/* a: holder, port 3, SRP TransportID */
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
		0, 0, 0, 0, 0x01, 0x06, 0, 0, 0, 0, 0, 3, 0, 0, 0, 24,
		0x04, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0x11,
		/* b: ALL_TG_PT, iSCSI TransportID */
		0, 0, 0, 0, 0, 0, 0, 0x0b,
		0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 24,
		0x05, 0, 0, 20, 'i', 'q', 'n', '.', 'b', 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	u8 cdb[10] = { SCST_OP_PERSISTENT_RESERVE_IN, 4 }, buf[8];

	(void)state;
	check_in(SCST_PR_IN_READ_KEYS, keys0, sizeof(keys0));
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0,
			     0x0123456789abcdefULL, 0), 0);
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER, 0, 0, 0xb, 0x04), 0);
	assert_int_equal(out(&b, SCST_PR_OUT_REGISTER_AND_IGNORE, 0, 0, 0xb,
			     0x04), 0);
	check_in(SCST_PR_IN_READ_KEYS, keys, sizeof(keys));
	check_in(SCST_PR_IN_READ_RESERVATION, resv0, sizeof(resv0));
	check_in(SCST_PR_IN_REPORT_CAPABILITIES, caps, sizeof(caps));
	assert_int_equal(out(&a, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_EA_RO,
			     0x0123456789abcdefULL, 0, 0), 0);
	check_in(SCST_PR_IN_READ_RESERVATION, resv, sizeof(resv));
	check_in(SCST_PR_IN_READ_FULL_STATUS, full, sizeof(full));
	/* All registrants: RESERVATION KEY 0, every registrant R_HOLDER. */
	assert_int_equal(out(&a, SCST_PR_OUT_PREEMPT, SCST_PR_TYPE_WE_AR,
			     0x0123456789abcdefULL, 0x0123456789abcdefULL,
			     0), 0);
	check_in(SCST_PR_IN_READ_RESERVATION, resv_ar, sizeof(resv_ar));
	assert_int_equal(scst_pr_build_full_status(&st, buf, 0), 8 + 96);
	{
		u8 fs[8 + 96];

		scst_pr_build_full_status(&st, fs, sizeof(fs));
		assert_int_equal(fs[8 + 12], 0x01);
		assert_int_equal(fs[8 + 13], 0x07);
		assert_int_equal(fs[8 + 48 + 12], 0x03);
		assert_int_equal(fs[8 + 48 + 13], 0x07);
	}
	/* Unknown service action, short CDB. */
	assert_int_equal(scst_pr_in(&st, cdb, sizeof(cdb), buf, sizeof(buf),
				    &err), -EINVAL);
	assert_err(SCST_SENSE_INVALID_FIELD_IN_CDB, true, 1, 4);
	assert_int_equal(scst_pr_in(&st, cdb, 9, buf, sizeof(buf), &err),
			 -EINVAL);
	/* The caller's buffer bounds the data as well. */
	memset(buf, FILL, sizeof(buf));
	cdb[1] = SCST_PR_IN_READ_KEYS;
	put_unaligned_be16(1000, cdb + 7);
	assert_int_equal(scst_pr_in(&st, cdb, sizeof(cdb), buf, 4, &err),
			 sizeof(keys));
	assert_int_equal(buf[4], FILL);
}

/* ---------------------------------------------------------------------- */
/* Conflicts                                                              */
/* ---------------------------------------------------------------------- */

enum acc { ALLOWED, READ, WRITE };

static const struct {
	u8 cdb[6];
	enum acc acc;
} cmds[] = {
	{ { 0x00 }, ALLOWED },			/* TEST UNIT READY */
	{ { 0x03 }, ALLOWED },			/* REQUEST SENSE */
	{ { 0x12 }, ALLOWED },			/* INQUIRY */
	{ { 0xa0 }, ALLOWED },			/* REPORT LUNS */
	{ { 0x25 }, ALLOWED },			/* READ CAPACITY(10) */
	{ { 0x9e, 0x10 }, ALLOWED },		/* READ CAPACITY(16) */
	{ { 0x5e }, ALLOWED },			/* PERSISTENT RESERVE IN */
	{ { 0x5f }, ALLOWED },			/* PERSISTENT RESERVE OUT */
	{ { 0x4d }, ALLOWED },			/* LOG SENSE */
	{ { 0xa3, 0x0a }, ALLOWED },		/* REPORT TARGET PORT GROUPS */
	{ { 0x1e, 0, 0, 0, 0 }, ALLOWED },	/* PREVENT ALLOW, allow */
	{ { 0x1b, 0, 0, 0, 1 }, ALLOWED },	/* START STOP UNIT, start */
	{ { 0x08 }, READ },			/* READ(6) */
	{ { 0x28 }, READ },			/* READ(10) */
	{ { 0xa8 }, READ },			/* READ(12) */
	{ { 0x88 }, READ },			/* READ(16) */
	{ { 0x2f }, READ },			/* VERIFY(10) */
	{ { 0x8f }, READ },			/* VERIFY(16) */
	{ { 0x9e, 0x12 }, READ },		/* GET LBA STATUS */
	{ { 0x1a }, READ },			/* MODE SENSE(6) */
	{ { 0x5a }, READ },			/* MODE SENSE(10) */
	{ { 0x3c }, READ },			/* READ BUFFER */
	{ { 0xa3, 0x0c }, READ },		/* REPORT SUPPORTED OPCODES */
	{ { 0x0a }, WRITE },			/* WRITE(6) */
	{ { 0x2a }, WRITE },			/* WRITE(10) */
	{ { 0xaa }, WRITE },			/* WRITE(12) */
	{ { 0x8a }, WRITE },			/* WRITE(16) */
	{ { 0x2e }, WRITE },			/* WRITE AND VERIFY(10) */
	{ { 0x41 }, WRITE },			/* WRITE SAME(10) */
	{ { 0x93 }, WRITE },			/* WRITE SAME(16) */
	{ { 0x42 }, WRITE },			/* UNMAP */
	{ { 0x89 }, WRITE },			/* COMPARE AND WRITE */
	{ { 0x35 }, WRITE },			/* SYNCHRONIZE CACHE(10) */
	{ { 0x91 }, WRITE },			/* SYNCHRONIZE CACHE(16) */
	{ { 0x15 }, WRITE },			/* MODE SELECT(6) */
	{ { 0x55 }, WRITE },			/* MODE SELECT(10) */
	{ { 0x3b }, WRITE },			/* WRITE BUFFER */
	{ { 0x04 }, WRITE },			/* FORMAT UNIT */
	{ { 0x1e, 0, 0, 0, 1 }, WRITE },	/* PREVENT ALLOW, prevent */
	{ { 0x1b, 0, 0, 0, 0 }, WRITE },	/* START STOP UNIT, stop */
	{ { 0xa4, 0x0a }, WRITE },		/* SET TARGET PORT GROUPS */
	{ { 0xc0 }, WRITE },			/* vendor specific */
};

static void test_conflicts(void **state)
{
	unsigned int t, r, i;
	u8 type;

	(void)state;
	/* No reservation: nothing conflicts, not even for strangers. */
	matrix_setup(SCST_PR_TYPE_WE);
	assert_int_equal(out(&na, SCST_PR_OUT_RELEASE, SCST_PR_TYPE_WE, 0xa, 0,
			     0), 0);
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		assert_false(scst_pr_conflicts(&st, &nc, cmds[i].cdb, 6));
	for (t = 0; t < ARRAY_SIZE(all_types); t++) {
		type = all_types[t];
		matrix_setup(type);
		for (r = UNREG; r <= HOLDER; r++) {
			const struct scst_pr_nexus *x = r == UNREG ? &nc :
				r == REGD ? &nb : &na;
			bool access = r == HOLDER ||
				      (r == REGD && (is_ro(type) || is_ar(type)));
			bool excl = type == SCST_PR_TYPE_EA ||
				    type == SCST_PR_TYPE_EA_RO ||
				    type == SCST_PR_TYPE_EA_AR;

			for (i = 0; i < ARRAY_SIZE(cmds); i++) {
				bool want = !access && cmds[i].acc != ALLOWED &&
					    (cmds[i].acc == WRITE || excl);

				if (scst_pr_conflicts(&st, x, cmds[i].cdb, 6) !=
				    want)
					CASE_FAIL("command %02x/%02x: conflict %d",
						  cmds[i].cdb[0], cmds[i].cdb[1],
						  !want);
			}
		}
	}
}

/* SPC-2 RESERVE and RELEASE while a registration exists. */
static void test_conflicts_spc2(void **state)
{
	static const u8 ops[] = { 0x16, 0x17, 0x56, 0x57 };
	struct scst_pr_nexus a = nx_srp(1, 1);
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		assert_false(scst_pr_conflicts(&st, &a, &ops[i], 1));
	assert_false(scst_pr_has_registrations(&st));
	assert_int_equal(out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa, 0), 0);
	assert_true(scst_pr_has_registrations(&st));
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		assert_true(scst_pr_conflicts(&st, &a, &ops[i], 1));
	assert_false(scst_pr_conflicts(&st, &a, ops, 0));
}

/* A logical unit whose PR state is unknown: what it still answers. */
static void test_unknown_allows(void **state)
{
	static const struct {
		const char *what;
		u8 cdb[16];
		unsigned int len;
		bool allowed;
	} cases[] = {
		{ "INQUIRY", { 0x12, 0, 0, 0, 36, 0 }, 6, true },
		{ "REPORT LUNS", { 0xa0 }, 12, true },
		{ "REQUEST SENSE", { 0x03, 0, 0, 0, 18, 0 }, 6, true },
		{ "REPORT TARGET PORT GROUPS", { 0xa3, 0x0a }, 12, true },
		{ "REPORT SUPPORTED OPERATION CODES", { 0xa3, 0x0c }, 12,
		  true },
		{ "REPORT SUPPORTED TMFS", { 0xa3, 0x0d }, 12, true },
		/* the SA field is 5 bits: the top bits are not looked at */
		{ "REPORT TARGET PORT GROUPS, bit 5 set", { 0xa3, 0x2a }, 12,
		  true },
		{ "MAINTENANCE IN of 1 byte", { 0xa3 }, 1, false },
		{ "REPORT IDENTIFYING INFORMATION", { 0xa3, 0x05 }, 12, false },
		{ "TEST UNIT READY", { 0x00 }, 6, false },
		{ "READ CAPACITY(10)", { 0x25 }, 10, false },
		{ "READ(10)", { 0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0 }, 10, false },
		{ "WRITE(10)", { 0x2a, 0, 0, 0, 0, 0, 0, 0, 1, 0 }, 10, false },
		{ "PERSISTENT RESERVE IN", { 0x5e }, 10, false },
		{ "PERSISTENT RESERVE OUT", { 0x5f }, 10, false },
		{ "RESERVE(6)", { 0x16 }, 6, false },
		{ "RELEASE(6)", { 0x17 }, 6, false },
		{ "SET TARGET PORT GROUPS", { 0xa4, 0x0a }, 12, false },
		{ "no CDB", { 0x12 }, 0, false },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (scst_pr_unknown_allows(cases[i].cdb, cases[i].len) !=
		    cases[i].allowed)
			fail_msg("%s: %s, expected %s", cases[i].what,
				 cases[i].allowed ? "refused" : "allowed",
				 cases[i].allowed ? "allowed" : "refused");
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test_setup(test_tid_parse, setup),
		cmocka_unit_test_setup(test_tid_limits, setup),
		cmocka_unit_test_setup(test_register, setup),
		cmocka_unit_test_setup(test_register_all_tg_pt, setup),
		cmocka_unit_test_setup(test_spec_i_pt, setup),
		cmocka_unit_test_setup(test_capacity, setup),
		cmocka_unit_test_setup(test_matrix_reserve, setup),
		cmocka_unit_test_setup(test_matrix_release, setup),
		cmocka_unit_test_setup(test_matrix_clear, setup),
		cmocka_unit_test_setup(test_matrix_preempt, setup),
		cmocka_unit_test_setup(test_matrix_preempt_abort, setup),
		cmocka_unit_test_setup(test_matrix_unregister, setup),
		cmocka_unit_test_setup(test_matrix_register_ignore, setup),
		cmocka_unit_test_setup(test_matrix_register_and_move, setup),
		cmocka_unit_test_setup(test_preempt_cases, setup),
		cmocka_unit_test_setup(test_all_registrants_last, setup),
		cmocka_unit_test_setup(test_register_and_move, setup),
		cmocka_unit_test_setup(test_ram_list_errors, setup),
		cmocka_unit_test_setup(test_cdb_errors, setup),
		cmocka_unit_test_setup(test_generation, setup),
		cmocka_unit_test_setup(test_aptpl, setup),
		cmocka_unit_test_setup(test_pr_in, setup),
		cmocka_unit_test_setup(test_conflicts, setup),
		cmocka_unit_test_setup(test_conflicts_spc2, setup),
		cmocka_unit_test(test_unknown_allows),
	};

	return cmocka_run_group_tests_name("scst_pr", tests, NULL, NULL);
}
