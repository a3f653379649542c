// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_pr_scst_file.c: SCST's binary APTPL files
 * (the layout at the top of that file), built byte for byte, imported
 * into a struct scst_pr_state; every refusal with its offset, record and
 * whether SCST would fall back to <file>.1; and the choice between
 * <device> and <device>.1 at a device's start.
 */
#include "unit.h"
#include <scst_pr.h>

static struct scst_pr_state st, exp_st;
static struct scst_pr_scst_err err;
static struct scst_pr_scst_choice ch;
static char text[SCST_PR_FILE_MAX_LEN];

/*
 * The worked example of the notes: disk1, APTPL, WE_RO (5) held by
 * registrant 0; an SRP registrant (key 0xab, port 1) and an iSCSI one of
 * format 01b as iscsi-scst builds it (key 0xcd, port 2). 114 bytes.
 */
static const u8 example[114] = {
	0x77, 0xdd, 0xbb, 0xee, 0xaa, 0xee, 0xee, 0xbb,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x01, 0x05, 0x00, 0x01, 0x04, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0xfe, 0x80, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xc9,
	0x03, 0x00, 0x0e, 0x8a, 0xcd, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0xab, 0x01, 0x00, 0x00,
	0x45, 0x00, 0x00, 0x2c, 'i', 'q', 'n', '.',
	'2', '0', '0', '1', '-', '0', '4', '.',
	'c', 'o', 'm', '.', 'e', 'x', 'a', 'm',
	'p', 'l', 'e', ':', 'h', '2', ',', 'i',
	',', '0', 'x', '2', '3', 'd', '0', '0',
	'0', '0', '0', '0', 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xcd,
	0x02, 0x00,
};

static const u8 srp_port[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
	0x00, 0x02, 0xc9, 0x03, 0x00, 0x0e, 0x8a, 0xcd };

/* A file under construction, as SCST's writer lays it out. */
struct sfile {
	u8 b[SCST_PR_SCST_FILE_MAX_LEN + 64];
	size_t n;
};

static struct sfile f, g;

static void put(struct sfile *s, const void *p, size_t n)
{
	assert_true(s->n + n <= sizeof(s->b));
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

static void put8(struct sfile *s, u8 v)
{
	put(s, &v, 1);
}

static void put_le(struct sfile *s, u64 v, unsigned int n)
{
	while (n--) {
		put8(s, (u8)v);
		v >>= 8;
	}
}

static void put_be64(struct sfile *s, u64 v)
{
	u8 b[8];

	put_unaligned_be64(v, b);
	put(s, b, 8);
}

static void header(struct sfile *s, u8 aptpl, u8 set, u8 type, u8 scope)
{
	s->n = 0;
	put_le(s, 0xBBEEEEAAEEBBDD77ULL, 8);
	put_le(s, 1, 8);
	put8(s, aptpl);
	put8(s, set);
	put8(s, type);
	put8(s, scope);
}

/* A 24-byte TransportID record: @b0, then @id at @off. */
static void rec_fixed(struct sfile *s, u8 holder, u8 b0, unsigned int off,
		      const u8 *id, unsigned int idlen, u64 key, u16 rel)
{
	u8 tid[24] = { b0 };

	memcpy(tid + off, id, idlen);
	put8(s, holder);
	put(s, tid, sizeof(tid));
	put_be64(s, key);
	put_le(s, rel, 2);
}

/* An iSCSI record: @str NUL-terminated, padded to @addl (0: as iscsi-scst). */
static void rec_iscsi(struct sfile *s, u8 holder, u8 b0, const char *str,
		      unsigned int addl, u64 key, u16 rel)
{
	u8 tid[4 + 300] = { b0 };
	size_t n = strlen(str);

	if (!addl)
		addl = (n + 1 + 3) & ~3U;
	assert_true(addl <= 300 && n <= addl);
	put_unaligned_be16(addl, tid + 2);
	memcpy(tid + 4, str, n);
	put8(s, holder);
	put(s, tid, 4 + addl);
	put_be64(s, key);
	put_le(s, rel, 2);
}

static void exp_reg(unsigned int i, u64 key, u16 rel)
{
	exp_st.reg[i].key = key;
	exp_st.reg[i].rel_tgt_id = rel;
	if (exp_st.nreg < i + 1)
		exp_st.nreg = i + 1;
}

static void check_ok(const struct sfile *s)
{
	int ret = scst_pr_scst_file_parse(s->b, s->n, &st, &err);

	if (ret)
		print_error("refused at %zu (record %d): %s\n", err.offset,
			    err.record, err.reason);
	assert_int_equal(ret, 0);
	assert_true(scst_pr_state_valid(&st));
	assert_true(scst_pr_state_equal(&st, &exp_st));
}

static void test_worked_example(void **state)
{
	static const char want[] =
		"scst-ng-pr 1\n"
		"generation 0\n"
		"aptpl 1\n"
		"registrant 0x00000000000000ab srp:fe800000000000000002c903000e8acd 1 0\n"
		"registrant 0x00000000000000cd iscsi:iqn.2001-04.com.example:h2 2 0\n"
		"reservation 5 0\n"
		"end\n";
	int n;

	(void)state;
	/* the builder lays out the documented bytes */
	header(&f, 1, 1, SCST_PR_TYPE_WE_RO, 0);
	rec_fixed(&f, 1, 0x04, 8, srp_port, 16, 0xab, 1);
	rec_iscsi(&f, 0, 0x45, "iqn.2001-04.com.example:h2,i,0x23d000000", 0,
		  0xcd, 2);
	assert_int_equal(f.n, sizeof(example));
	assert_memory_equal(f.b, example, sizeof(example));

	scst_pr_state_init(&exp_st);
	exp_st.aptpl = true;
	scst_pr_tid_from_srp(&exp_st.reg[0].tid, srp_port);
	exp_reg(0, 0xab, 1);
	assert_int_equal(scst_pr_tid_from_iscsi_name(&exp_st.reg[1].tid,
			 "iqn.2001-04.com.example:h2"), 0);
	exp_reg(1, 0xcd, 2);
	exp_st.type = SCST_PR_TYPE_WE_RO;
	exp_st.holder = 0;
	check_ok(&f);
	assert_int_equal(st.generation, 0);
	assert_int_equal(scst_pr_file_write(&st, text, sizeof(text)),
			 strlen(want));
	assert_string_equal(text, want);
	n = scst_pr_scst_res_text(&st, text, sizeof(text));
	assert_int_equal(n, strlen(text));
	assert_string_equal(text,
			    "a WE_RO reservation (type 5) held by registration 0");
}

/* FC, SBP and SAS TransportIDs; reserved bytes are cleared. */
static void test_fixed_tids(void **state)
{
	static const u8 wwpn[8] = { 0x21, 0, 0, 0x24, 0xff, 0x12, 0x34, 0x56 };
	static const u8 eui[8] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
				   0x77 };
	static const u8 sas[8] = { 0x5f, 0xee, 0xde, 0x40, 0x00, 0x00, 0xe0,
				   0x50 };
	u8 tid[24] = { 0 };

	(void)state;
	header(&f, 1, 1, SCST_PR_TYPE_EA, 0);
	rec_fixed(&f, 0, 0x00, 8, wwpn, 8, 1, 1);
	rec_fixed(&f, 0, 0x03, 8, eui, 8, 2, 1);
	rec_fixed(&f, 1, 0x06, 4, sas, 8, 0xfedcba9876543210ULL, 65535);
	f.b[20 + 1 + 2] = 0x99;	/* a reserved byte of the FC one */

	scst_pr_state_init(&exp_st);
	exp_st.aptpl = true;
	tid[0] = 0x00;
	memcpy(tid + 8, wwpn, 8);
	assert_int_equal(scst_pr_tid_parse(tid, 24, &exp_st.reg[0].tid), 24);
	exp_reg(0, 1, 1);
	memset(tid, 0, sizeof(tid));
	tid[0] = 0x03;
	memcpy(tid + 8, eui, 8);
	assert_int_equal(scst_pr_tid_parse(tid, 24, &exp_st.reg[1].tid), 24);
	exp_reg(1, 2, 1);
	memset(tid, 0, sizeof(tid));
	tid[0] = 0x06;
	memcpy(tid + 4, sas, 8);
	assert_int_equal(scst_pr_tid_parse(tid, 24, &exp_st.reg[2].tid), 24);
	exp_reg(2, 0xfedcba9876543210ULL, 65535);
	exp_st.type = SCST_PR_TYPE_EA;
	exp_st.holder = 2;
	check_ok(&f);
	assert_int_equal(st.reg[0].tid.data[2], 0);
}

/* WE_AR and EA_AR: every registrant holds; a stale holder flag is moot. */
static void test_all_registrants(void **state)
{
	u8 type;

	(void)state;
	for (type = SCST_PR_TYPE_WE_AR; type <= SCST_PR_TYPE_EA_AR; type++) {
		header(&f, 1, 1, type, 0);
		rec_iscsi(&f, 0, 0x45, "iqn.a,i,0x1", 0, 7, 1);
		rec_fixed(&f, 0, 0x04, 8, srp_port, 16, 8, 1);
		scst_pr_state_init(&exp_st);
		exp_st.aptpl = true;
		assert_int_equal(scst_pr_tid_from_iscsi_name(
				 &exp_st.reg[0].tid, "iqn.a"), 0);
		exp_reg(0, 7, 1);
		scst_pr_tid_from_srp(&exp_st.reg[1].tid, srp_port);
		exp_reg(1, 8, 1);
		exp_st.type = type;
		exp_st.holder = SCST_PR_HOLDER_ALL;
		check_ok(&f);
		scst_pr_scst_res_text(&st, text, sizeof(text));
		assert_non_null(strstr(text, "held by all registrants"));
		/* PREEMPT into an AR type can leave the old holder's flag */
		f.b[20] = 1;
		check_ok(&f);
	}
}

/* No reservation: pr_is_set 0, type 0xff; aptpl 0 is carried over. */
static void test_no_reservation(void **state)
{
	(void)state;
	header(&f, 1, 0, 0xff, 0);
	rec_fixed(&f, 0, 0x04, 8, srp_port, 16, 0xab, 3);
	scst_pr_state_init(&exp_st);
	exp_st.aptpl = true;
	scst_pr_tid_from_srp(&exp_st.reg[0].tid, srp_port);
	exp_reg(0, 0xab, 3);
	check_ok(&f);
	scst_pr_scst_res_text(&st, text, sizeof(text));
	assert_string_equal(text, "no reservation");
	f.b[16] = 0;
	exp_st.aptpl = false;
	check_ok(&f);
	/* no registrants at all: SCST deletes such files, but it is valid */
	header(&f, 1, 0, 0xff, 0);
	scst_pr_state_init(&exp_st);
	exp_st.aptpl = true;
	check_ok(&f);
}

/*
 * iSCSI TransportIDs as initiators send them (SPEC_I_PT, REGISTER AND
 * MOVE): format 00b, any case, lengths not a multiple of 4, extra NULs.
 */
static void test_iscsi_forms(void **state)
{
	(void)state;
	header(&f, 1, 1, SCST_PR_TYPE_WE, 0);
	rec_iscsi(&f, 0, 0x05, "IQN.1994-05.com.RedHat:H1", 27, 1, 1);
	rec_iscsi(&f, 1, 0x05, "iqn.x", 6, 2, 1);
	rec_iscsi(&f, 0, 0x45, "iqn.y,i,0x400001370000", 40, 3, 2);
	scst_pr_state_init(&exp_st);
	exp_st.aptpl = true;
	assert_int_equal(scst_pr_tid_from_iscsi_name(&exp_st.reg[0].tid,
			 "iqn.1994-05.com.redhat:h1"), 0);
	exp_reg(0, 1, 1);
	assert_int_equal(scst_pr_tid_from_iscsi_name(&exp_st.reg[1].tid,
			 "iqn.x"), 0);
	exp_reg(1, 2, 1);
	assert_int_equal(scst_pr_tid_from_iscsi_name(&exp_st.reg[2].tid,
			 "iqn.y"), 0);
	exp_reg(2, 3, 2);
	exp_st.type = SCST_PR_TYPE_WE;
	exp_st.holder = 1;
	check_ok(&f);
	/* one initiator name through two target ports is two registrants */
	header(&f, 1, 0, 0xff, 0);
	rec_iscsi(&f, 0, 0x45, "iqn.z,i,0x1", 0, 5, 1);
	rec_iscsi(&f, 0, 0x45, "iqn.z,i,0x1", 0, 5, 2);
	assert_int_equal(scst_pr_scst_file_parse(f.b, f.n, &st, &err), 0);
	assert_int_equal(st.nreg, 2);
}

/* 128 registrants with the longest names fit; a 129th is refused. */
static void test_max_registrants(void **state)
{
	char name[SCST_PR_ISCSI_NAME_MAX + 1];
	size_t at = 0;
	unsigned int i;

	(void)state;
	header(&f, 1, 1, SCST_PR_TYPE_EA_RO, 0);
	for (i = 0; i <= SCST_PR_MAX_REGISTRANTS; i++) {
		memset(name, 'n', SCST_PR_ISCSI_NAME_MAX);
		name[SCST_PR_ISCSI_NAME_MAX] = '\0';
		name[0] = (char)('a' + i % 26);
		name[1] = (char)('a' + i / 26);
		if (i == SCST_PR_MAX_REGISTRANTS)
			at = f.n;
		rec_iscsi(&f, i == 5, 0x05, name, 0, U64_MAX - i, 65535);
	}
	assert_true(f.n <= SCST_PR_SCST_FILE_MAX_LEN);
	assert_int_equal(scst_pr_scst_file_parse(f.b, f.n, &st, &err),
			 -EINVAL);
	assert_int_equal(err.offset, at);
	assert_int_equal(err.record, SCST_PR_MAX_REGISTRANTS);
	assert_non_null(strstr(err.reason, "128"));
	assert_int_equal(st.nreg, 0);
	f.n = at;
	assert_int_equal(scst_pr_scst_file_parse(f.b, f.n, &st, &err), 0);
	assert_int_equal(st.nreg, SCST_PR_MAX_REGISTRANTS);
	assert_int_equal(st.holder, 5);
	assert_int_equal(scst_pr_file_write(&st, text, sizeof(text)) <
			 SCST_PR_FILE_MAX_LEN, 1);
}

/* ---------------------------------------------------------------------- */
/* Refusals                                                               */
/* ---------------------------------------------------------------------- */

static void check_refused(const struct sfile *s, size_t offset, int record,
			  bool fallback, const char *why)
{
	scst_pr_state_init(&exp_st);
	memset(&st, 0x5a, sizeof(st));
	assert_int_equal(scst_pr_scst_file_parse(s->b, s->n, &st, &err),
			 -EINVAL);
	if (!strstr(err.reason, why) || err.offset != offset ||
	    err.record != record || err.fallback != fallback)
		print_error("got %zu/%d/%d \"%s\", want %zu/%d/%d \"%s\"\n",
			    err.offset, err.record, err.fallback, err.reason,
			    offset, record, fallback, why);
	assert_non_null(strstr(err.reason, why));
	assert_int_equal(err.offset, offset);
	assert_int_equal(err.record, record);
	assert_int_equal(err.fallback, fallback);
	/* nothing of the file is kept */
	assert_true(scst_pr_state_equal(&st, &exp_st));
}

static void example_file(struct sfile *s)
{
	memcpy(s->b, example, sizeof(example));
	s->n = sizeof(example);
}

static void test_refuse_header(void **state)
{
	size_t n;

	(void)state;
	for (n = 0; n < 8; n++) {
		example_file(&f);
		f.n = n;
		check_refused(&f, 0, -1, true, "shorter");
	}
	for (n = 8; n < 20; n++) {
		example_file(&f);
		f.n = n;
		/* signature and version intact: only too short */
		check_refused(&f, n == 19 ? 16 : 0, -1, n != 19,
			      n == 19 ? "SCST 2.0" : "shorter");
	}
	example_file(&f);
	f.b[8] = 2;		/* a short file's version is checked first */
	f.n = 16;
	check_refused(&f, 8, -1, true, "version");

	example_file(&f);
	f.b[3] ^= 1;
	check_refused(&f, 0, -1, true, "bad signature");
	example_file(&f);
	memset(f.b, 0, 8);	/* SCST writes the signature last */
	check_refused(&f, 0, -1, true, "did not finish");
	example_file(&f);
	put_unaligned_be64(0xBBEEEEAAEEBBDD77ULL, f.b);
	check_refused(&f, 0, -1, true, "big-endian");
	example_file(&f);
	f.b[8] = 2;
	check_refused(&f, 8, -1, true, "version");
	example_file(&f);
	f.b[15] = 1;
	check_refused(&f, 8, -1, true, "version");
	/* over the limit, even if it would parse */
	header(&f, 1, 0, 0xff, 0);
	while (f.n <= SCST_PR_SCST_FILE_MAX_LEN)
		rec_fixed(&f, 0, 0x04, 8, srp_port, 16, 1, 1);
	check_refused(&f, 0, -1, true, "larger");

	example_file(&f);
	f.b[16] = 2;
	check_refused(&f, 16, -1, false, "aptpl");
	example_file(&f);
	f.b[17] = 0x80;
	check_refused(&f, 17, -1, false, "pr_is_set");
	example_file(&f);
	f.b[18] = 0xff;		/* TYPE_UNSPECIFIED with a reservation */
	check_refused(&f, 18, -1, false, "type");
	example_file(&f);
	f.b[18] = 2;
	check_refused(&f, 18, -1, false, "type");
	example_file(&f);
	f.b[18] = 0;
	check_refused(&f, 18, -1, false, "type");
	example_file(&f);
	f.b[19] = 1;
	check_refused(&f, 19, -1, false, "scope");
	example_file(&f);
	f.b[19] = 2;
	f.b[17] = 0;
	check_refused(&f, 19, -1, false, "scope");
}

/* SCST 2.0: the same header without the aptpl byte. */
static void test_refuse_2_0(void **state)
{
	(void)state;
	example_file(&f);
	memmove(f.b + 16, f.b + 17, f.n - 17);
	f.n--;
	check_refused(&f, 16, -1, false, "SCST 2.0");
	/* with an iSCSI record first */
	header(&g, 1, 1, SCST_PR_TYPE_WE, 0);
	rec_iscsi(&g, 1, 0x45, "iqn.b,i,0x1", 0, 1, 1);
	rec_fixed(&g, 0, 0x06, 4, srp_port, 8, 2, 1);
	assert_int_equal(scst_pr_scst_file_parse(g.b, g.n, &st, &err), 0);
	memmove(g.b + 16, g.b + 17, g.n - 17);
	g.n--;
	check_refused(&g, 16, -1, false, "SCST 2.0");
}

static void test_refuse_records(void **state)
{
	(void)state;
	/* truncated anywhere in either record */
	example_file(&f);
	for (f.n = 22; f.n < sizeof(example); f.n++) {
		if (f.n == 55)
			continue;	/* a whole first record */
		if (f.n == 56) {
			/* one byte after it: SCST 3 ignores it, we do not */
			check_refused(&f, 55, 1, false, "one byte");
			continue;
		}
		check_refused(&f, f.n < 55 ? 20 : 55, f.n < 55 ? 0 : 1, true,
			      "past the end");
	}
	f.n = 20 + 1;
	check_refused(&f, 20, 0, false, "one byte");
	/* an iSCSI ADDITIONAL LENGTH that runs past the end */
	example_file(&f);
	f.b[58] = 0x01;
	check_refused(&f, 55, 1, true, "past the end");
	example_file(&f);
	f.b[59] = 0x30;
	check_refused(&f, 55, 1, true, "past the end");
	/* one that is short by 4: records no longer line up */
	example_file(&f);
	f.b[59] = 0x28;
	check_refused(&f, 110, 2, true, "past the end");

	example_file(&f);
	f.b[20] = 2;
	check_refused(&f, 20, 0, false, "is_holder");
	example_file(&f);
	f.b[17] = 0;
	f.b[18] = 0xff;
	check_refused(&f, 20, 0, false, "without a reservation");
	example_file(&f);
	f.b[55] = 1;
	check_refused(&f, 55, 1, false, "second holder");
	example_file(&f);
	f.b[20] = 0;
	check_refused(&f, 17, -1, false, "no holder");
	header(&f, 1, 1, SCST_PR_TYPE_WE_AR, 0);
	check_refused(&f, 17, -1, false, "without registrants");

	/* TransportIDs */
	example_file(&f);
	f.b[21] = 0x01;		/* parallel SCSI */
	check_refused(&f, 21, 0, false, "unknown TransportID protocol");
	example_file(&f);
	f.b[21] = 0x0f;
	check_refused(&f, 21, 0, false, "unknown TransportID protocol");
	example_file(&f);
	f.b[21] = 0x44;		/* SRP, format 01b */
	check_refused(&f, 21, 0, false, "format");
	example_file(&f);
	f.b[56] = 0x85;		/* iSCSI, format 10b */
	check_refused(&f, 56, 1, false, "format");
	example_file(&f);
	memset(f.b + 100, 'x', 4);	/* no NUL within ADDITIONAL LENGTH */
	check_refused(&f, 56, 1, false, "NUL");
	example_file(&f);
	f.b[86] = ';';		/* ",i,0x" gone */
	check_refused(&f, 56, 1, false, ",i,0x");
	example_file(&f);
	f.b[60] = ',';		/* empty name before ",i,0x" */
	memcpy(f.b + 61, "i,0x1", 6);
	check_refused(&f, 56, 1, false, "empty iSCSI name");
	example_file(&f);
	f.b[63] = ' ';
	check_refused(&f, 56, 1, false, "printable");
	example_file(&f);
	f.b[63] = 0x80;
	check_refused(&f, 56, 1, false, "printable");
	header(&f, 1, 0, 0xff, 0);
	{
		char name[SCST_PR_ISCSI_NAME_MAX + 2];

		memset(name, 'q', sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		rec_iscsi(&f, 0, 0x05, name, 0, 1, 1);
	}
	check_refused(&f, 21, 0, false, "longer than 223");

	example_file(&f);
	memset(f.b + 45, 0, 8);
	check_refused(&f, 45, 0, false, "key 0");
	example_file(&f);
	memset(f.b + 104, 0, 8);
	check_refused(&f, 104, 1, false, "key 0");
	example_file(&f);
	f.b[112] = 0;
	check_refused(&f, 112, 1, false, "relative target port identifier 0");
}

/* Registrants that would match one I_T nexus here are never merged. */
static void test_refuse_overlap(void **state)
{
	(void)state;
	header(&f, 1, 0, 0xff, 0);
	rec_fixed(&f, 0, 0x04, 8, srp_port, 16, 1, 1);
	rec_fixed(&f, 0, 0x04, 8, srp_port, 16, 2, 1);
	check_refused(&f, 55, 1, false, "same initiator port");

	/* one initiator, two sessions with other ISIDs, one target port */
	header(&f, 1, 1, SCST_PR_TYPE_WE, 0);
	rec_iscsi(&f, 1, 0x45, "iqn.h1,i,0x23d000000", 0, 0xa, 1);
	rec_iscsi(&f, 0, 0x45, "iqn.h2,i,0x23d000000", 0, 0xb, 1);
	rec_iscsi(&f, 0, 0x45, "iqn.h1,i,0x23d000001", 0, 0xc, 1);
	check_refused(&f, 20 + 2 * (1 + 28 + 10), 2, false, "another ISID");
	/* the same name in another case, format 00b: a duplicate */
	header(&f, 1, 0, 0xff, 0);
	rec_iscsi(&f, 0, 0x05, "iqn.h1", 0, 1, 1);
	rec_iscsi(&f, 0, 0x05, "IQN.H1", 0, 2, 1);
	check_refused(&f, 20 + 1 + 12 + 10, 1, false, "same initiator port");
	/* 00b and 01b of one name */
	header(&f, 1, 0, 0xff, 0);
	rec_iscsi(&f, 0, 0x05, "iqn.h1", 0, 1, 1);
	rec_iscsi(&f, 0, 0x45, "iqn.h1,i,0x1", 0, 2, 1);
	check_refused(&f, 20 + 1 + 12 + 10, 1, false, "same initiator port");
	/* differing only in reserved bytes (SCST compares all 24) */
	header(&f, 1, 0, 0xff, 0);
	rec_fixed(&f, 0, 0x04, 8, srp_port, 16, 1, 1);
	rec_fixed(&f, 0, 0x04, 8, srp_port, 16, 2, 1);
	f.b[55 + 1 + 3] = 7;
	check_refused(&f, 55, 1, false, "same initiator port");
}

/* Whatever the bytes, a refusal keeps nothing and an import is valid. */
static void test_random_damage(void **state)
{
	u32 seed = 0x5c57f11e;
	unsigned int i, j;

	(void)state;
	for (i = 0; i < 20000; i++) {
		example_file(&f);
		for (j = unit_rand(&seed) % 4 + 1; j; j--)
			f.b[unit_rand(&seed) % f.n] = (u8)unit_rand(&seed);
		if (unit_rand(&seed) % 4 == 0)
			f.n = unit_rand(&seed) % f.n;
		if (scst_pr_scst_file_parse(f.b, f.n, &st, &err)) {
			scst_pr_state_init(&exp_st);
			assert_true(scst_pr_state_equal(&st, &exp_st));
			assert_non_null(err.reason);
			assert_true(err.offset < f.n || (!f.n && !err.offset));
		} else {
			assert_true(scst_pr_state_valid(&st));
		}
	}
}

/* ---------------------------------------------------------------------- */
/* <device> or <device>.1                                                 */
/* ---------------------------------------------------------------------- */

static void choose(const struct sfile *m, const struct sfile *b)
{
	scst_pr_scst_choose(m ? m->b : NULL, m ? m->n : 0, b ? b->b : NULL,
			    b ? b->n : 0, &st, &ch);
}

static void test_choose(void **state)
{
	static const char ours[] = "scst-ng-pr 1\ngeneration 0\naptpl 1\nend\n";
	struct sfile *m = &f, *b = &g;

	(void)state;
	choose(NULL, NULL);
	assert_int_equal(ch.src, SCST_PR_SCST_NONE);
	assert_false(ch.main_refused || ch.bak_refused);

	/* ours, even with a .1 (and a damaged one of ours: its parser's) */
	memcpy(m->b, ours, sizeof(ours) - 1);
	m->n = sizeof(ours) - 1;
	example_file(b);
	choose(m, b);
	assert_int_equal(ch.src, SCST_PR_SCST_OURS);
	m->n = 11;
	choose(m, b);
	assert_int_equal(ch.src, SCST_PR_SCST_OURS);
	assert_int_equal(st.nreg, 0);
	/* text that is neither, and no .1: left to our parser's message */
	memcpy(m->b, "garbage\n", 8);
	m->n = 8;
	choose(m, NULL);
	assert_int_equal(ch.src, SCST_PR_SCST_OURS);
	m->n = 0;
	choose(m, NULL);
	assert_int_equal(ch.src, SCST_PR_SCST_OURS);

	/* SCST's main file: taken, .1 not looked at */
	example_file(m);
	header(b, 1, 0, 0xff, 0);
	choose(m, b);
	assert_int_equal(ch.src, SCST_PR_SCST_MAIN);
	assert_int_equal(st.nreg, 2);
	assert_false(ch.main_refused || ch.bak_refused);
	choose(m, NULL);
	assert_int_equal(ch.src, SCST_PR_SCST_MAIN);

	/* an unfinished write of main: SCST takes .1, so do we */
	memset(m->b, 0, 8);
	example_file(b);
	choose(m, b);
	assert_int_equal(ch.src, SCST_PR_SCST_BACKUP);
	assert_true(ch.main_refused && ch.main_err.fallback);
	assert_false(ch.bak_refused);
	assert_int_equal(st.nreg, 2);
	/* truncated main, garbage main */
	example_file(m);
	m->n = 60;
	choose(m, b);
	assert_int_equal(ch.src, SCST_PR_SCST_BACKUP);
	memcpy(m->b, "garbage\n", 8);
	choose(m, b);
	assert_int_equal(ch.src, SCST_PR_SCST_BACKUP);
	/* no main (SCST unlinks it when its write fails): .1 */
	choose(NULL, b);
	assert_int_equal(ch.src, SCST_PR_SCST_BACKUP);
	assert_false(ch.main_refused);

	/* main SCST would load but we refuse: no fallback to the older .1 */
	example_file(m);
	memset(m->b + 45, 0, 8);
	choose(m, b);
	assert_int_equal(ch.src, SCST_PR_SCST_REFUSED);
	assert_true(ch.main_refused && !ch.main_err.fallback);
	assert_false(ch.bak_refused);
	assert_int_equal(ch.main_err.offset, 45);
	assert_int_equal(st.nreg, 0);

	/* unfinished main, no .1 or a bad one */
	example_file(m);
	memset(m->b, 0, 8);
	choose(m, NULL);
	assert_int_equal(ch.src, SCST_PR_SCST_REFUSED);
	assert_true(ch.main_refused && !ch.bak_refused);
	example_file(b);
	b->b[112] = 0;
	choose(m, b);
	assert_int_equal(ch.src, SCST_PR_SCST_REFUSED);
	assert_true(ch.main_refused && ch.bak_refused);
	assert_int_equal(ch.bak_err.offset, 112);
	assert_int_equal(st.nreg, 0);
	/* no main, bad .1 */
	choose(NULL, b);
	assert_int_equal(ch.src, SCST_PR_SCST_REFUSED);
	assert_true(!ch.main_refused && ch.bak_refused);
}

static void test_res_text(void **state)
{
	char small[8];

	(void)state;
	scst_pr_state_init(&st);
	st.type = SCST_PR_TYPE_EA;
	st.holder = 3;
	scst_pr_scst_res_text(&st, text, sizeof(text));
	assert_string_equal(text, "an EA reservation (type 3) held by registration 3");
	st.type = SCST_PR_TYPE_WE_AR;
	st.holder = SCST_PR_HOLDER_ALL;
	assert_int_equal(scst_pr_scst_res_text(&st, small, sizeof(small)),
			 strlen("a WE_AR reservation (type 7) held by all registrants"));
	assert_string_equal(small, "a WE_AR");
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_worked_example),
		cmocka_unit_test(test_fixed_tids),
		cmocka_unit_test(test_all_registrants),
		cmocka_unit_test(test_no_reservation),
		cmocka_unit_test(test_iscsi_forms),
		cmocka_unit_test(test_max_registrants),
		cmocka_unit_test(test_refuse_header),
		cmocka_unit_test(test_refuse_2_0),
		cmocka_unit_test(test_refuse_records),
		cmocka_unit_test(test_refuse_overlap),
		cmocka_unit_test(test_random_damage),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_res_text),
	};

	return cmocka_run_group_tests_name("pr_scst_file", tests, NULL, NULL);
}
