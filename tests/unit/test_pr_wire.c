// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_pr_wire.c: a persistent reservation state
 * in DLM lock value blocks (cluster_mode). Round trips of states from
 * empty to full, the decoder refusing foreign, damaged, stale and torn
 * block sets with an empty state, and the notices of a real PREEMPT AND
 * ABORT (scst_pr_out()) carried to another node by their base index.
 */
#include "unit.h"
#include <scst_pr.h>

#define LVB	SCST_PR_WIRE_LVB_LEN

static struct scst_pr_state st, back, base;
static struct scst_pr_effects eff, got;
static struct scst_pr_wire_hdr hdr;
static u8 hlvb[LVB], nlvb[LVB];
static u8 rlvb[SCST_PR_MAX_REGISTRANTS][LVB];

static void reg_iscsi(struct scst_pr_registrant *r, u64 key,
		      const char *name, u16 port, bool all)
{
	memset(r, 0, sizeof(*r));
	r->key = key;
	assert_int_equal(scst_pr_tid_from_iscsi_name(&r->tid, name), 0);
	r->rel_tgt_id = port;
	r->all_tg_pt = all;
}

static void build_sample(struct scst_pr_state *s)
{
	static const u8 srp_id[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0x0e, 0x8a, 0xcd };

	scst_pr_state_init(s);
	s->generation = 0x01020304;
	s->aptpl = true;
	s->nreg = 3;
	s->reg[0].key = 0xab;
	scst_pr_tid_from_srp(&s->reg[0].tid, srp_id);
	s->reg[0].rel_tgt_id = 1;
	reg_iscsi(&s->reg[1], 0x0123456789abcdefULL,
		  "iqn.1994-05.com.redhat:h1", 2, true);
	reg_iscsi(&s->reg[2], U64_MAX, "iqn.1994-05.com.redhat:h2", 65535,
		  false);
	s->type = SCST_PR_TYPE_WE_RO;
	s->holder = 1;
	assert_true(scst_pr_state_valid(s));
}

/* Encode @s as update @seq into hlvb and rlvb. */
static void put_state(const struct scst_pr_state *s, u64 seq)
{
	unsigned int i;

	scst_pr_wire_put_hdr(s, seq, 7, hlvb);
	for (i = 0; i < s->nreg; i++)
		scst_pr_wire_put_reg(&s->reg[i], rlvb[i]);
}

static int get_state(unsigned int nblocks)
{
	memset(&back, 0x5a, sizeof(back));
	return scst_pr_wire_get_state(hlvb, rlvb[0], nblocks, &hdr, &back);
}

static void assert_empty(void)
{
	struct scst_pr_state empty;

	scst_pr_state_init(&empty);
	assert_true(scst_pr_state_equal(&back, &empty));
	assert_int_equal(back.nreg, 0);
}

static void test_round_trip(void **state)
{
	(void)state;
	build_sample(&st);
	put_state(&st, 42);
	assert_int_equal(get_state(st.nreg), 0);
	assert_true(scst_pr_state_equal(&st, &back));
	assert_true(back.aptpl && back.holder == 1);
	assert_true(hdr.seq == 42 && hdr.node == 7);
	/* the layout: big-endian, magic first, count at byte 10 */
	assert_int_equal(get_unaligned_be32(hlvb), 0x53505253);
	assert_int_equal(get_unaligned_be16(hlvb + 10), 3);
	assert_int_equal(get_unaligned_be64(rlvb[2] + 8), U64_MAX);

	/* nothing registered, no reservation */
	scst_pr_state_init(&st);
	put_state(&st, 1);
	assert_int_equal(get_state(0), 0);
	assert_true(scst_pr_state_equal(&st, &back));

	/* an all registrants reservation */
	build_sample(&st);
	st.type = SCST_PR_TYPE_EA_AR;
	st.holder = SCST_PR_HOLDER_ALL;
	st.aptpl = false;
	put_state(&st, U64_MAX);
	assert_int_equal(get_state(SCST_PR_MAX_REGISTRANTS), 0);
	assert_true(scst_pr_state_equal(&st, &back));
	assert_int_equal(back.holder, SCST_PR_HOLDER_ALL);
}

/* 128 registrants with the longest iSCSI names: every block full. */
static void test_round_trip_max(void **state)
{
	char name[SCST_PR_ISCSI_NAME_MAX + 1];
	unsigned int i;

	(void)state;
	scst_pr_state_init(&st);
	for (i = 0; i < SCST_PR_MAX_REGISTRANTS; i++) {
		memset(name, 'a', sizeof(name) - 1);
		name[sizeof(name) - 1] = 0;
		snprintf(name, 12, "iqn.%07u", i);
		name[11] = 'x';
		reg_iscsi(&st.reg[i], i + 1, name, i, false);
		assert_int_equal(st.reg[i].tid.len, SCST_PR_TID_MAX_LEN);
	}
	st.nreg = SCST_PR_MAX_REGISTRANTS;
	st.type = SCST_PR_TYPE_WE;
	st.holder = SCST_PR_MAX_REGISTRANTS - 1;
	assert_true(scst_pr_state_valid(&st));
	put_state(&st, 9);
	assert_int_equal(get_state(SCST_PR_MAX_REGISTRANTS), 0);
	assert_true(scst_pr_state_equal(&st, &back));
}

static void test_bad_header(void **state)
{
	(void)state;
	/* a lockspace where no node published yet */
	memset(hlvb, 0, LVB);
	assert_int_equal(get_state(0), -ENODATA);
	assert_empty();

	build_sample(&st);
	put_state(&st, 5);
	hlvb[0] ^= 1;				/* magic */
	assert_int_equal(get_state(3), -EPROTO);
	assert_empty();
	put_state(&st, 5);
	hlvb[4] = 2;				/* version */
	assert_int_equal(get_state(3), -EPROTO);
	put_state(&st, 5);
	hlvb[5] |= 0x80;			/* unknown flag */
	assert_int_equal(get_state(3), -EPROTO);
	put_state(&st, 5);
	hlvb[LVB - 1] = 1;			/* bytes past the header */
	assert_int_equal(get_state(3), -EPROTO);
	put_state(&st, 5);
	hlvb[6] = 2;				/* no such type */
	assert_int_equal(get_state(3), -EPROTO);
	put_state(&st, 5);
	hlvb[7] = 1;				/* no such scope */
	assert_int_equal(get_state(3), -EPROTO);
	put_state(&st, 5);
	put_unaligned_be16(SCST_PR_MAX_REGISTRANTS + 1, hlvb + 10);
	assert_int_equal(get_state(SCST_PR_MAX_REGISTRANTS), -EPROTO);
	assert_empty();
	put_state(&st, 5);
	put_unaligned_be16(3, hlvb + 8);	/* holder past the count */
	assert_int_equal(get_state(3), -EPROTO);
	assert_empty();
	/* fewer blocks read than the header counts */
	put_state(&st, 5);
	assert_int_equal(get_state(2), -EPROTO);
	assert_empty();
}

static void test_bad_registrant(void **state)
{
	struct scst_pr_registrant r;

	(void)state;
	build_sample(&st);
	put_state(&st, 5);
	assert_int_equal(scst_pr_wire_get_reg(rlvb[1], &r), 0);
	assert_true(r.key == st.reg[1].key && r.all_tg_pt &&
		    scst_pr_tid_equal(&r.tid, &st.reg[1].tid));

	rlvb[1][0] ^= 1;			/* magic */
	assert_int_equal(get_state(3), -EPROTO);
	assert_empty();
	put_state(&st, 5);
	rlvb[1][5] = 2;				/* unknown flag */
	assert_int_equal(get_state(3), -EPROTO);
	put_state(&st, 5);
	put_unaligned_be16(SCST_PR_TID_MAX_LEN + 1, rlvb[1] + 16);
	assert_int_equal(scst_pr_wire_get_reg(rlvb[1], &r), -EPROTO);
	put_state(&st, 5);
	put_unaligned_be64(0, rlvb[1] + 8);	/* key 0 */
	assert_int_equal(scst_pr_wire_get_reg(rlvb[1], &r), -EPROTO);
	assert_int_equal(r.tid.len, 0);
	put_state(&st, 5);
	rlvb[1][LVB - 1] = 1;			/* bytes past the TransportID */
	assert_int_equal(scst_pr_wire_get_reg(rlvb[1], &r), -EPROTO);
	put_state(&st, 5);
	rlvb[0][18] = 0x41;			/* SRP TransportID, format 1 */
	assert_int_equal(scst_pr_wire_get_reg(rlvb[0], &r), -EPROTO);
	assert_int_equal(get_state(3), -EPROTO);
	assert_empty();
}

/*
 * A writer died halfway: the header of one update with a registrant
 * block of another is refused by the digest, whichever was written
 * first; a block that did not change belongs to both.
 */
static void test_torn_set(void **state)
{
	(void)state;
	build_sample(&st);
	put_state(&st, 5);
	st.reg[1].key = 0x77;
	scst_pr_wire_put_reg(&st.reg[1], rlvb[1]);	/* header not yet */
	assert_int_equal(get_state(3), -ESTALE);
	assert_empty();
	scst_pr_wire_put_hdr(&st, 6, 7, hlvb);		/* now it is */
	assert_int_equal(get_state(3), 0);
	assert_true(scst_pr_state_equal(&st, &back) && hdr.seq == 6);
	build_sample(&st);
	scst_pr_wire_put_hdr(&st, 7, 7, hlvb);		/* header first */
	assert_int_equal(get_state(3), -ESTALE);
	assert_empty();

	/* two registrants for one nexus: blocks that break the state rules */
	build_sample(&st);
	st.reg[2] = st.reg[1];
	st.reg[2].key = 5;
	st.holder = 0;
	put_state(&st, 5);
	assert_int_equal(get_state(3), -EPROTO);
	assert_empty();
}

/* One PERSISTENT RESERVE OUT on st from @nx (the basic parameter list). */
static int pr_out(const struct scst_pr_nexus *nx, u8 sa, u8 type, u64 key,
		  u64 sa_key)
{
	u8 cdb[10] = { SCST_OP_PERSISTENT_RESERVE_OUT, sa, type };
	u8 par[24] = { 0 };
	struct scst_cdb_err err = { 0 };
	struct scst_pr_out_req req = {
		.nexus = nx, .cdb = cdb, .cdb_len = sizeof(cdb),
		.data = par, .data_len = sizeof(par),
	};

	put_unaligned_be32(sizeof(par), cdb + 5);
	put_unaligned_be64(key, par);
	put_unaligned_be64(sa_key, par + 8);
	memset(&eff, 0, sizeof(eff));
	return scst_pr_out(&st, &req, &eff, &err);
}

static struct scst_pr_nexus nexus(const char *name, u16 port)
{
	struct scst_pr_nexus n;

	memset(&n, 0, sizeof(n));
	assert_int_equal(scst_pr_tid_from_iscsi_name(&n.tid, name), 0);
	n.rel_tgt_id = port;
	return n;
}

static bool has_notice(const struct scst_pr_effects *e,
		       const struct scst_pr_notice *n)
{
	unsigned int i;

	for (i = 0; i < e->n; i++)
		if (e->notice[i].who.key == n->who.key &&
		    scst_pr_tid_equal(&e->notice[i].who.tid, &n->who.tid) &&
		    e->notice[i].who.rel_tgt_id == n->who.rel_tgt_id &&
		    e->notice[i].ua == n->ua && e->notice[i].abort == n->abort)
			return true;
	return false;
}

/*
 * Fencing as fence_scsi does it: three hosts registered, A holds a
 * Write Exclusive Registrants Only reservation, A preempts and aborts
 * B. The node that ran it sends the notices; the other node, which holds
 * the state the update started from, gets the same notices back.
 */
static void test_notes_preempt_abort(void **state)
{
	struct scst_pr_nexus a = nexus("iqn.x:a", 1), b = nexus("iqn.x:b", 2),
			     c = nexus("iqn.x:c", 1);
	unsigned int i;

	(void)state;
	scst_pr_state_init(&st);
	assert_int_equal(pr_out(&a, SCST_PR_OUT_REGISTER, 0, 0, 0xa), 0);
	assert_int_equal(pr_out(&b, SCST_PR_OUT_REGISTER, 0, 0, 0xb), 0);
	assert_int_equal(pr_out(&c, SCST_PR_OUT_REGISTER, 0, 0, 0xc), 0);
	assert_int_equal(pr_out(&a, SCST_PR_OUT_RESERVE, SCST_PR_TYPE_WE_RO,
				0xa, 0), 0);
	base = st;
	assert_int_equal(pr_out(&a, SCST_PR_OUT_PREEMPT_AND_ABORT,
				SCST_PR_TYPE_WE_RO, 0xa, 0xb), 0);
	assert_true(eff.n > 0);
	assert_int_equal(scst_pr_wire_put_notes(&base, &eff, 11, 10, nlvb), 0);
	assert_int_equal(scst_pr_wire_get_notes(nlvb, &base, 10, 11, &got), 0);
	assert_int_equal(got.n, eff.n);
	for (i = 0; i < eff.n; i++)
		assert_true(has_notice(&got, &eff.notice[i]));
	assert_true(has_notice(&got, &(struct scst_pr_notice){
		.who = base.reg[1], .ua = SCST_SENSE_REGISTRATIONS_PREEMPTED,
		.abort = true }));

	/* a node whose state is not the update's base cannot use them */
	assert_int_equal(scst_pr_wire_get_notes(nlvb, &base, 9, 11, &got),
			 -ESTALE);
	assert_int_equal(got.n, 0);
	assert_int_equal(scst_pr_wire_get_notes(nlvb, &base, 10, 12, &got),
			 -ESTALE);
	/* an update without notices */
	memset(nlvb, 0, LVB);
	assert_int_equal(scst_pr_wire_get_notes(nlvb, &base, 10, 11, &got),
			 -ENODATA);
}

static void test_notes_bad(void **state)
{
	unsigned int i;

	(void)state;
	build_sample(&base);
	memset(&eff, 0, sizeof(eff));
	eff.n = 1;
	eff.notice[0].who = base.reg[2];
	eff.notice[0].ua = SCST_SENSE_RESERVATIONS_RELEASED;
	assert_int_equal(scst_pr_wire_put_notes(&base, &eff, 2, 1, nlvb), 0);

	/* a bit past the base state's registrants */
	nlvb[24 + 5] |= 1 << 3;
	assert_int_equal(scst_pr_wire_get_notes(nlvb, &base, 1, 2, &got),
			 -EPROTO);
	assert_int_equal(got.n, 0);
	assert_int_equal(scst_pr_wire_put_notes(&base, &eff, 2, 1, nlvb), 0);
	nlvb[24 + 4] = 2;			/* unknown flag */
	assert_int_equal(scst_pr_wire_get_notes(nlvb, &base, 1, 2, &got),
			 -EPROTO);
	assert_int_equal(scst_pr_wire_put_notes(&base, &eff, 2, 1, nlvb), 0);
	nlvb[5] = SCST_PR_WIRE_MAX_NOTE_GROUPS + 1;
	assert_int_equal(scst_pr_wire_get_notes(nlvb, &base, 1, 2, &got),
			 -EPROTO);
	assert_int_equal(scst_pr_wire_put_notes(&base, &eff, 2, 1, nlvb), 0);
	nlvb[LVB - 1] = 1;			/* past the last group */
	assert_int_equal(scst_pr_wire_get_notes(nlvb, &base, 1, 2, &got),
			 -EPROTO);

	/* a notice for someone not registered in the base state */
	eff.notice[0].who.key = 0x99;
	assert_int_equal(scst_pr_wire_put_notes(&base, &eff, 2, 1, nlvb),
			 -EINVAL);
	assert_true(nlvb[0] == 0 && nlvb[LVB - 1] == 0);

	/* more kinds of notice than a block holds */
	eff.n = SCST_PR_WIRE_MAX_NOTE_GROUPS + 1;
	for (i = 0; i < eff.n; i++) {
		eff.notice[i].who = base.reg[i % base.nreg];
		eff.notice[i].ua = 0x060000 + i;
	}
	assert_int_equal(scst_pr_wire_put_notes(&base, &eff, 2, 1, nlvb),
			 -E2BIG);
	eff.n--;
	assert_int_equal(scst_pr_wire_put_notes(&base, &eff, 2, 1, nlvb), 0);
	assert_int_equal(scst_pr_wire_get_notes(nlvb, &base, 1, 2, &got), 0);
	assert_int_equal(got.n, SCST_PR_WIRE_MAX_NOTE_GROUPS);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_max),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_bad_registrant),
		cmocka_unit_test(test_torn_set),
		cmocka_unit_test(test_notes_preempt_abort),
		cmocka_unit_test(test_notes_bad),
	};

	return cmocka_run_group_tests_name("scst_pr_wire", tests, NULL, NULL);
}
