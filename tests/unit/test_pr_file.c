// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_pr_file.c: the APTPL file text of a
 * persistent reservation state, its round trip, and the parser refusing
 * damaged files with the line at fault and an empty state; and the
 * devices/<dev>/pr_state text (scst_pr_state_show()).
 */
#include "unit.h"
#include <scst_pr.h>

static struct scst_pr_state st, back;
static struct scst_pr_file_err ferr;
static char text[SCST_PR_FILE_MAX_LEN + 16];

static const char sample[] =
	"scst-ng-pr 1\n"
	"generation 7\n"
	"aptpl 1\n"
	"registrant 0x00000000000000ab srp:fe800000000000000002c903000e8acd 1 0\n"
	"registrant 0x0123456789abcdef iscsi:iqn.1994-05.com.redhat:h1 2 1\n"
	"registrant 0xffffffffffffffff sas:5000c50012345678 65535 0\n"
	"reservation 5 1\n"
	"end\n";

static void build_sample(struct scst_pr_state *s)
{
	static const u8 srp_id[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0x0e, 0x8a, 0xcd };
	static const u8 sas[24] = { 0x06, 0, 0, 0,
		0x50, 0x00, 0xc5, 0x00, 0x12, 0x34, 0x56, 0x78 };

	scst_pr_state_init(s);
	s->generation = 7;
	s->aptpl = true;
	s->nreg = 3;
	s->reg[0].key = 0xab;
	scst_pr_tid_from_srp(&s->reg[0].tid, srp_id);
	s->reg[0].rel_tgt_id = 1;
	s->reg[1].key = 0x0123456789abcdefULL;
	assert_int_equal(scst_pr_tid_from_iscsi_name(&s->reg[1].tid,
			 "iqn.1994-05.com.redhat:h1"), 0);
	s->reg[1].rel_tgt_id = 2;
	s->reg[1].all_tg_pt = true;
	s->reg[2].key = U64_MAX;
	assert_int_equal(scst_pr_tid_parse(sas, sizeof(sas), &s->reg[2].tid),
			 24);
	s->reg[2].rel_tgt_id = 65535;
	s->type = SCST_PR_TYPE_WE_RO;
	s->holder = 1;
	assert_true(scst_pr_state_valid(s));
}

static void test_write(void **state)
{
	size_t len = strlen(sample), i;
	char small[16];

	(void)state;
	build_sample(&st);
	assert_int_equal(scst_pr_file_write(&st, text, sizeof(text)), len);
	assert_string_equal(text, sample);
	/* Short buffers get a prefix and the full length. */
	for (i = 0; i < sizeof(small); i++) {
		memset(small, 'X', sizeof(small));
		assert_int_equal(scst_pr_file_write(&st, small, i), len);
		assert_memory_equal(small, sample, i);
		if (i < sizeof(small))
			assert_int_equal(small[i], 'X');
	}
	/* No reservation, AR reservation. */
	st.type = SCST_PR_TYPE_NONE;
	st.aptpl = false;
	scst_pr_file_write(&st, text, sizeof(text));
	assert_non_null(strstr(text, "aptpl 0\n"));
	assert_null(strstr(text, "reservation"));
	st.type = SCST_PR_TYPE_EA_AR;
	st.holder = SCST_PR_HOLDER_ALL;
	scst_pr_file_write(&st, text, sizeof(text));
	assert_non_null(strstr(text, "\nreservation 8 all\nend\n"));
}

static void test_parse(void **state)
{
	(void)state;
	build_sample(&st);
	assert_int_equal(scst_pr_file_parse(sample, strlen(sample), &back,
					    &ferr), 0);
	assert_true(scst_pr_state_equal(&st, &back));
	assert_true(scst_pr_state_valid(&back));
	/* Uppercase iSCSI names are the same name. */
	{
		char up[sizeof(sample)];

		memcpy(up, sample, sizeof(sample));
		memcpy(strstr(up, "iqn."), "IQN.", 4);
		assert_int_equal(scst_pr_file_parse(up, strlen(up), &back,
						    &ferr), 0);
		assert_true(scst_pr_state_equal(&st, &back));
	}
}

/* The largest state: 128 registrants with the longest TransportIDs. */
static void test_round_trip_max(void **state)
{
	char name[SCST_PR_ISCSI_NAME_MAX + 1];
	unsigned int i;
	int len;

	(void)state;
	scst_pr_state_init(&st);
	st.generation = U32_MAX;
	for (i = 0; i < SCST_PR_MAX_REGISTRANTS; i++) {
		memset(name, 'n', SCST_PR_ISCSI_NAME_MAX);
		name[SCST_PR_ISCSI_NAME_MAX] = '\0';
		name[0] = (char)('a' + i % 26);
		name[1] = (char)('a' + i / 26);
		assert_int_equal(scst_pr_tid_from_iscsi_name(&st.reg[i].tid,
							     name), 0);
		st.reg[i].key = U64_MAX - i;
		st.reg[i].rel_tgt_id = 65535;
	}
	st.nreg = SCST_PR_MAX_REGISTRANTS;
	st.type = SCST_PR_TYPE_EA;
	st.holder = SCST_PR_MAX_REGISTRANTS - 1;
	assert_true(scst_pr_state_valid(&st));
	len = scst_pr_file_write(&st, text, sizeof(text));
	assert_true(len > 0 && len <= SCST_PR_FILE_MAX_LEN);
	assert_int_equal(scst_pr_file_parse(text, len, &back, &ferr), 0);
	assert_true(scst_pr_state_equal(&st, &back));
}

static const struct {
	const char *name;
	const char *text;
	unsigned int line;
} bad[] = {
	{ "empty", "", 0 },
	{ "magic", "scst-pr 1\n", 1 },
	{ "version", "scst-ng-pr 2\n", 1 },
	{ "crlf", "scst-ng-pr 1\r\n", 1 },
	{ "double blank", "scst-ng-pr  1\n", 1 },
	{ "trailing blank", "scst-ng-pr 1 \n", 1 },
	{ "empty line", "scst-ng-pr 1\n\n", 2 },
	{ "no generation", "scst-ng-pr 1\naptpl 1\n", 2 },
	{ "generation overflow", "scst-ng-pr 1\ngeneration 4294967296\n", 2 },
	{ "generation leading zero", "scst-ng-pr 1\ngeneration 07\n", 2 },
	{ "generation sign", "scst-ng-pr 1\ngeneration -1\n", 2 },
	{ "aptpl 2", "scst-ng-pr 1\ngeneration 0\naptpl 2\n", 3 },
	{ "no end", "scst-ng-pr 1\ngeneration 0\naptpl 1\n", 0 },
	{ "no newline", "scst-ng-pr 1\ngeneration 0\naptpl 1\nend", 4 },
	{ "after end", "scst-ng-pr 1\ngeneration 0\naptpl 1\nend\nend\n", 5 },
	{ "unknown line", "scst-ng-pr 1\ngeneration 0\naptpl 1\nfoo\nend\n",
	  4 },
	{ "key 0", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000000 iscsi:a 1 0\nend\n", 4 },
	{ "key short", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x01 iscsi:a 1 0\nend\n", 4 },
	{ "key upper", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x00000000000000AB iscsi:a 1 0\nend\n", 4 },
	{ "tid proto", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 ata:00 1 0\nend\n", 4 },
	{ "tid srp short", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 srp:00 1 0\nend\n", 4 },
	{ "tid iscsi empty", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi: 1 0\nend\n", 4 },
	{ "port range", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 65536 0\nend\n", 4 },
	{ "all_tg_pt 2", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 1 2\nend\n", 4 },
	{ "fields", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 1\nend\n", 4 },
	{ "duplicate", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 1 0\n"
	  "registrant 0x0000000000000002 iscsi:A 1 0\nend\n", 5 },
	{ "overlap all_tg_pt", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 1 0\n"
	  "registrant 0x0000000000000002 iscsi:a 2 1\nend\n", 5 },
	{ "holder range", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 1 0\n"
	  "reservation 1 1\nend\n", 5 },
	{ "holder all for WE", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 1 0\n"
	  "reservation 1 all\nend\n", 5 },
	{ "holder index for AR", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 1 0\n"
	  "reservation 7 0\nend\n", 5 },
	{ "bad type", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 1 0\n"
	  "reservation 2 0\nend\n", 5 },
	{ "no registrants", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "reservation 1 0\nend\n", 4 },
	{ "two reservations", "scst-ng-pr 1\ngeneration 0\naptpl 1\n"
	  "registrant 0x0000000000000001 iscsi:a 1 0\n"
	  "reservation 1 0\nreservation 1 0\nend\n", 6 },
	{ "registrant after reservation", "scst-ng-pr 1\ngeneration 0\n"
	  "aptpl 1\nregistrant 0x0000000000000001 iscsi:a 1 0\n"
	  "reservation 1 0\n"
	  "registrant 0x0000000000000002 iscsi:b 1 0\nend\n", 6 },
	{ "nul", "scst-ng-pr 1\ngeneration 0\naptpl 1\nend\n\0", 5 },
};

static void test_corrupt(void **state)
{
	unsigned int i;
	size_t len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		len = strlen(bad[i].text);
		if (!strcmp(bad[i].name, "nul"))
			len++;
		/* A valid state in the output: the parser must empty it. */
		build_sample(&back);
		if (scst_pr_file_parse(bad[i].text, len, &back, &ferr) !=
		    -EINVAL)
			fail_msg("%s: accepted", bad[i].name);
		if (ferr.line != bad[i].line || !ferr.reason)
			fail_msg("%s: line %u (%s), expected %u", bad[i].name,
				 ferr.line, ferr.reason, bad[i].line);
		scst_pr_state_init(&st);
		assert_true(scst_pr_state_equal(&st, &back));
		assert_int_equal(back.nreg, 0);
	}
}

/* Every strict prefix of a valid file is refused; so is a huge one. */
static void test_truncated(void **state)
{
	size_t len = strlen(sample), i;

	(void)state;
	for (i = 0; i < len; i++) {
		if (!scst_pr_file_parse(sample, i, &back, &ferr))
			fail_msg("prefix of %zu bytes accepted", i);
		assert_int_equal(back.nreg, 0);
	}
	memset(text, 'x', sizeof(text));
	memcpy(text, sample, len);
	assert_int_equal(scst_pr_file_parse(text, SCST_PR_FILE_MAX_LEN + 1,
					    &back, &ferr), -EINVAL);
	assert_int_equal(ferr.line, 0);
	assert_string_equal(ferr.reason, "file too long");
}

/* Too many registrants: the 129th line is refused. */
static const char shown[] =
	"generation 7\n"
	"aptpl 1\n"
	"reservation WE_RO (5) holder 1\n"
	"registrants 3\n"
	"registrant 0 key 0x00000000000000ab transport_id srp:fe800000000000000002c903000e8acd rel_tgt_id 1 all_tg_pt 0\n"
	"registrant 1 key 0x0123456789abcdef transport_id iscsi:iqn.1994-05.com.redhat:h1 rel_tgt_id 2 all_tg_pt 1\n"
	"registrant 2 key 0xffffffffffffffff transport_id sas:5000c50012345678 rel_tgt_id 65535 all_tg_pt 0\n";

static void test_show(void **state)
{
	size_t len = strlen(shown), i;
	char small[24];

	(void)state;
	build_sample(&st);
	assert_int_equal(scst_pr_state_show(&st, text, sizeof(text)), len);
	assert_string_equal(text, shown);

	/* cut to the buffer, whole length returned, nothing past it */
	for (i = 0; i < sizeof(small); i++) {
		memset(small, 'x', sizeof(small));
		assert_int_equal(scst_pr_state_show(&st, small, i), len);
		assert_memory_equal(small, shown, i);
		if (i < sizeof(small))
			assert_int_equal(small[i], 'x');
	}

	/* an all registrants reservation; then none, no registrants */
	st.type = SCST_PR_TYPE_EA_AR;
	st.holder = SCST_PR_HOLDER_ALL;
	scst_pr_state_show(&st, text, sizeof(text));
	assert_non_null(strstr(text, "\nreservation EA_AR (8) holder all\n"));
	scst_pr_state_init(&st);
	len = scst_pr_state_show(&st, text, sizeof(text));
	assert_int_equal(len, strlen(text));
	assert_string_equal(text, "generation 0\naptpl 0\nreservation none\nregistrants 0\n");

	/* a TransportID that cannot be written shows as "?" */
	st.nreg = 1;
	st.reg[0].key = 1;
	st.reg[0].tid.len = 2;
	scst_pr_state_show(&st, text, sizeof(text));
	assert_non_null(strstr(text, " transport_id ? rel_tgt_id 0 "));
}

static void test_too_many(void **state)
{
	size_t off;
	unsigned int i;

	(void)state;
	off = sprintf(text, "scst-ng-pr 1\ngeneration 0\naptpl 0\n");
	for (i = 0; i <= SCST_PR_MAX_REGISTRANTS; i++)
		off += sprintf(text + off,
			       "registrant 0x%016x iscsi:n%u 1 0\n", i + 1, i);
	off += sprintf(text + off, "end\n");
	assert_int_equal(scst_pr_file_parse(text, off, &back, &ferr), -EINVAL);
	assert_int_equal(ferr.line, 4 + SCST_PR_MAX_REGISTRANTS);
	assert_int_equal(back.nreg, 0);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_round_trip_max),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_show),
	};

	return cmocka_run_group_tests_name("scst_pr_file", tests, NULL, NULL);
}
