// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_sense.c: SPC-4 §4.5 sense data. Expected
 * bytes are written out by hand from the layouts in the standard.
 */
#include "unit.h"

static void test_build_fixed(void **state)
{
	/* SPC-4 §4.5.3: ILLEGAL REQUEST, INVALID FIELD IN CDB. */
	static const u8 want[18] = {
		0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a,
		0x00, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00,
		0x00, 0x00,
	};
	u8 buf[32];

	(void)state;
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_sense(buf, sizeof(buf), false,
					  SCST_SK_ILLEGAL_REQUEST, 0x24, 0x00),
			 18);
	assert_bytes(buf, want, sizeof(want));
	assert_filled(buf, 18, sizeof(buf));

	/* Exactly 18 bytes is enough. */
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_sense_code(buf, 18, false,
					       SCST_SENSE_INVALID_FIELD_IN_CDB),
			 18);
	assert_bytes(buf, want, sizeof(want));
}

static void test_build_descriptor(void **state)
{
	/* SPC-4 §4.5.2.1: UNIT ATTENTION, REPORTED LUNS DATA HAS CHANGED. */
	static const u8 want[8] = {
		0x72, 0x06, 0x3f, 0x0e, 0x00, 0x00, 0x00, 0x00,
	};
	u8 buf[16];

	(void)state;
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_sense_code(buf, sizeof(buf), true,
					       SCST_SENSE_REPORTED_LUNS_CHANGED),
			 8);
	assert_bytes(buf, want, sizeof(want));
	assert_filled(buf, 8, sizeof(buf));

	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_sense(buf, 8, true, 0x06, 0x3f, 0x0e), 8);
	assert_bytes(buf, want, sizeof(want));
}

static void test_build_errors(void **state)
{
	u8 buf[32];

	(void)state;
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_sense(buf, 17, false, 5, 0x24, 0),
			 -ENOSPC);
	assert_int_equal(scst_build_sense(buf, 0, false, 5, 0x24, 0),
			 -ENOSPC);
	assert_int_equal(scst_build_sense(buf, 7, true, 5, 0x24, 0), -ENOSPC);
	assert_int_equal(scst_build_sense(buf, 0, true, 5, 0x24, 0), -ENOSPC);
	assert_int_equal(scst_build_sense(buf, sizeof(buf), false, 0x10, 0, 0),
			 -EINVAL);
	assert_int_equal(scst_build_sense(buf, sizeof(buf), true, 0xff, 0, 0),
			 -EINVAL);
	assert_filled(buf, 0, sizeof(buf));
}

struct code_case {
	const char *name;
	u32 code;
	u8 key, asc, ascq;
};

#define CODE(c, k, a, q)	{ #c, c, k, a, q }

/* Values from SPC-4 §4.5.6 and SBC-3 §4.18, independent of the header. */
static const struct code_case code_cases[] = {
	CODE(SCST_SENSE_NO_SENSE, 0x0, 0x00, 0x00),
	CODE(SCST_SENSE_NOT_READY, 0x2, 0x04, 0x00),
	CODE(SCST_SENSE_MEDIUM_NOT_PRESENT, 0x2, 0x3a, 0x00),
	CODE(SCST_SENSE_WRITE_ERROR, 0x3, 0x0c, 0x00),
	CODE(SCST_SENSE_UNRECOVERED_READ_ERROR, 0x3, 0x11, 0x00),
	CODE(SCST_SENSE_HARDWARE_ERROR, 0x4, 0x44, 0x00),
	CODE(SCST_SENSE_PARAM_LIST_LEN_ERROR, 0x5, 0x1a, 0x00),
	CODE(SCST_SENSE_INVALID_OPCODE, 0x5, 0x20, 0x00),
	CODE(SCST_SENSE_LBA_OUT_OF_RANGE, 0x5, 0x21, 0x00),
	CODE(SCST_SENSE_INVALID_FIELD_IN_CDB, 0x5, 0x24, 0x00),
	CODE(SCST_SENSE_LUN_NOT_SUPPORTED, 0x5, 0x25, 0x00),
	CODE(SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, 0x5, 0x26, 0x00),
	CODE(SCST_SENSE_INVALID_RELEASE_OF_PR, 0x5, 0x26, 0x04),
	CODE(SCST_SENSE_SAVING_PARAMS_UNSUP, 0x5, 0x39, 0x00),
	CODE(SCST_SENSE_INSUFFICIENT_REG_RESOURCES, 0x5, 0x55, 0x04),
	CODE(SCST_SENSE_POWER_ON_RESET, 0x6, 0x29, 0x00),
	CODE(SCST_SENSE_NEXUS_LOSS, 0x6, 0x29, 0x07),
	CODE(SCST_SENSE_MODE_PARAMS_CHANGED, 0x6, 0x2a, 0x01),
	CODE(SCST_SENSE_RESERVATIONS_PREEMPTED, 0x6, 0x2a, 0x03),
	CODE(SCST_SENSE_RESERVATIONS_RELEASED, 0x6, 0x2a, 0x04),
	CODE(SCST_SENSE_REGISTRATIONS_PREEMPTED, 0x6, 0x2a, 0x05),
	CODE(SCST_SENSE_CAPACITY_DATA_CHANGED, 0x6, 0x2a, 0x09),
	CODE(SCST_SENSE_CLEARED_BY_ANOTHER_INI, 0x6, 0x2f, 0x00),
	CODE(SCST_SENSE_INQUIRY_DATA_CHANGED, 0x6, 0x3f, 0x03),
	CODE(SCST_SENSE_REPORTED_LUNS_CHANGED, 0x6, 0x3f, 0x0e),
	CODE(SCST_SENSE_WRITE_PROTECTED, 0x7, 0x27, 0x00),
	CODE(SCST_SENSE_SPACE_ALLOC_FAILED_WP, 0x7, 0x27, 0x07),
	CODE(SCST_SENSE_ABORTED_COMMAND, 0xb, 0x00, 0x00),
	CODE(SCST_SENSE_GUARD_CHECK_FAILED, 0xb, 0x10, 0x01),
	CODE(SCST_SENSE_APP_TAG_CHECK_FAILED, 0xb, 0x10, 0x02),
	CODE(SCST_SENSE_REF_TAG_CHECK_FAILED, 0xb, 0x10, 0x03),
	CODE(SCST_SENSE_OVERLAPPED_COMMANDS, 0xb, 0x4e, 0x00),
	CODE(SCST_SENSE_MISCOMPARE_DURING_VERIFY, 0xe, 0x1d, 0x00),
};

/* Every named condition builds and decodes back, in both formats. */
static void test_codes_roundtrip(void **state)
{
	u8 buf[SCST_SENSE_MAX_LEN], key, asc, ascq;
	size_t i;
	int d;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(code_cases); i++) {
		const struct code_case *c = &code_cases[i];

		for (d = 0; d <= 1; d++) {
			int len = scst_build_sense_code(buf, sizeof(buf), d,
							c->code);

			assert_int_equal(len, d ? 8 : 18);
			assert_int_equal(buf[d ? 1 : 2], c->key);
			assert_int_equal(buf[d ? 2 : 12], c->asc);
			assert_int_equal(buf[d ? 3 : 13], c->ascq);
			if (scst_sense_decode(buf, len, &key, &asc, &ascq))
				fail_msg("%s: decode failed", c->name);
			if (key != c->key || asc != c->asc || ascq != c->ascq)
				fail_msg("%s: decoded %x/%02x/%02x", c->name,
					 key, asc, ascq);
		}
	}
}

static void test_field_pointer_fixed(void **state)
{
	/*
	 * SPC-4 §4.5.2.4.2: SKSV=1, C/D=1, BPV=1, BIT POINTER=4 -> 0xcc;
	 * FIELD POINTER 0x0001 in bytes 16-17.
	 */
	static const u8 want_bit[18] = {
		0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a,
		0x00, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0xcc,
		0x00, 0x01,
	};
	/* Parameter data (C/D=0), no bit pointer (BPV=0), byte 0x0102. */
	static const u8 want_byte[18] = {
		0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a,
		0x00, 0x00, 0x00, 0x00, 0x26, 0x00, 0x00, 0x80,
		0x01, 0x02,
	};
	u8 buf[18];

	(void)state;
	scst_build_sense_code(buf, sizeof(buf), false,
			      SCST_SENSE_INVALID_FIELD_IN_CDB);
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      1, 4), 18);
	assert_bytes(buf, want_bit, sizeof(buf));

	scst_build_sense_code(buf, sizeof(buf), false,
			      SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST);
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), false,
						      0x0102, -1), 18);
	assert_bytes(buf, want_byte, sizeof(buf));

	/* Bit 0 and 7 and the largest field pointer. */
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      0xffff, 7), 18);
	assert_int_equal(buf[15], 0xcf);
	assert_int_equal(buf[16], 0xff);
	assert_int_equal(buf[17], 0xff);
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), false,
						      0, 0), 18);
	assert_int_equal(buf[15], 0x88);
	assert_int_equal(buf[16], 0x00);
	assert_int_equal(buf[17], 0x00);
}

static void test_field_pointer_descriptor(void **state)
{
	/*
	 * SPC-4 §4.5.2.4: sense key specific descriptor, type 02h,
	 * ADDITIONAL LENGTH 06h, field pointer in bytes 4-6.
	 */
	static const u8 want[16] = {
		0x72, 0x05, 0x24, 0x00, 0x00, 0x00, 0x00, 0x08,
		0x02, 0x06, 0x00, 0x00, 0xcc, 0x00, 0x02, 0x00,
	};
	u8 buf[32];

	(void)state;
	fill(buf, sizeof(buf));
	scst_build_sense_code(buf, sizeof(buf), true,
			      SCST_SENSE_INVALID_FIELD_IN_CDB);
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      2, 4), 16);
	assert_bytes(buf, want, sizeof(want));
	assert_filled(buf, 16, sizeof(buf));

	/* Setting it again replaces the descriptor, never adds one. */
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), false,
						      0x1234, -1), 16);
	assert_int_equal(buf[7], 0x08);
	assert_int_equal(buf[12], 0x80);
	assert_int_equal(buf[13], 0x12);
	assert_int_equal(buf[14], 0x34);
	assert_filled(buf, 16, sizeof(buf));

	/* A buffer of exactly 16 bytes is enough. */
	scst_build_sense_code(buf, 16, true, SCST_SENSE_INVALID_FIELD_IN_CDB);
	assert_int_equal(scst_sense_set_field_pointer(buf, 16, true, 2, 4),
			 16);
	assert_bytes(buf, want, sizeof(want));
}

static void test_field_pointer_errors(void **state)
{
	u8 buf[32], copy[32];

	(void)state;
	scst_build_sense_code(buf, sizeof(buf), false,
			      SCST_SENSE_INVALID_FIELD_IN_CDB);
	memcpy(copy, buf, sizeof(buf));
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      0, 8), -EINVAL);
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      0, -2), -EINVAL);
	/* Buffer smaller than the sense data it holds. */
	assert_int_equal(scst_sense_set_field_pointer(buf, 17, true, 0, 0),
			 -EINVAL);
	assert_int_equal(scst_sense_set_field_pointer(buf, 4, true, 0, 0),
			 -EINVAL);
	assert_bytes(buf, copy, sizeof(buf));

	/* Field pointers belong to ILLEGAL REQUEST only. */
	scst_build_sense_code(buf, sizeof(buf), false,
			      SCST_SENSE_POWER_ON_RESET);
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      0, 0), -EINVAL);
	scst_build_sense_code(buf, sizeof(buf), true,
			      SCST_SENSE_MISCOMPARE_DURING_VERIFY);
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      0, 0), -EINVAL);

	/* No room for the descriptor. */
	scst_build_sense_code(buf, sizeof(buf), true,
			      SCST_SENSE_INVALID_FIELD_IN_CDB);
	memcpy(copy, buf, sizeof(buf));
	assert_int_equal(scst_sense_set_field_pointer(buf, 15, true, 0, 0),
			 -ENOSPC);
	assert_int_equal(scst_sense_set_field_pointer(buf, 8, true, 0, 0),
			 -ENOSPC);
	assert_bytes(buf, copy, sizeof(buf));

	/* Not sense data at all. */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      0, 0), -EINVAL);

	/* Fixed format too short to hold sense key specific bytes. */
	scst_build_sense_code(buf, sizeof(buf), false,
			      SCST_SENSE_INVALID_FIELD_IN_CDB);
	buf[7] = 6;
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      0, 0), -EINVAL);

	/* A sense key specific descriptor of the wrong length. */
	scst_build_sense_code(buf, sizeof(buf), true,
			      SCST_SENSE_INVALID_FIELD_IN_CDB);
	buf[7] = 4;
	buf[8] = 0x02;
	buf[9] = 0x02;
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      0, 0), -EINVAL);
	/* A descriptor that overruns the ADDITIONAL SENSE LENGTH. */
	buf[9] = 0x06;
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      0, 0), -EINVAL);
}

static void test_information_fixed(void **state)
{
	/* SBC-3 COMPARE AND WRITE: MISCOMPARE, offset 0x1234, VALID=1. */
	static const u8 want[18] = {
		0xf0, 0x00, 0x0e, 0x00, 0x00, 0x12, 0x34, 0x0a,
		0x00, 0x00, 0x00, 0x00, 0x1d, 0x00, 0x00, 0x00,
		0x00, 0x00,
	};
	u8 buf[18], copy[18];

	(void)state;
	scst_build_sense_code(buf, sizeof(buf), false,
			      SCST_SENSE_MISCOMPARE_DURING_VERIFY);
	assert_int_equal(scst_sense_set_information(buf, sizeof(buf), 0x1234),
			 18);
	assert_bytes(buf, want, sizeof(want));

	assert_int_equal(scst_sense_set_information(buf, sizeof(buf),
						    0xffffffffull), 18);
	assert_int_equal(get_unaligned_be32(buf + 3), 0xffffffffu);

	/* 64-bit values need descriptor format sense data. */
	memcpy(copy, buf, sizeof(buf));
	assert_int_equal(scst_sense_set_information(buf, sizeof(buf),
						    0x100000000ull),
			 -EOVERFLOW);
	assert_bytes(buf, copy, sizeof(buf));
}

static void test_information_descriptor(void **state)
{
	/* SPC-4 §4.5.2.2: type 00h, ADDITIONAL LENGTH 0Ah, VALID=1. */
	static const u8 want[20] = {
		0x72, 0x0e, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x0c,
		0x00, 0x0a, 0x80, 0x00, 0x01, 0x02, 0x03, 0x04,
		0x05, 0x06, 0x07, 0x08,
	};
	u8 buf[64];

	(void)state;
	fill(buf, sizeof(buf));
	scst_build_sense_code(buf, sizeof(buf), true,
			      SCST_SENSE_MISCOMPARE_DURING_VERIFY);
	assert_int_equal(scst_sense_set_information(buf, sizeof(buf),
						    0x0102030405060708ull),
			 20);
	assert_bytes(buf, want, sizeof(want));
	assert_filled(buf, 20, sizeof(buf));

	/* Replaced in place. */
	assert_int_equal(scst_sense_set_information(buf, sizeof(buf), 0x55),
			 20);
	assert_int_equal(get_unaligned_be64(buf + 12), 0x55);
	assert_filled(buf, 20, sizeof(buf));

	assert_int_equal(scst_sense_set_information(buf, 19, 1), -EINVAL);
	scst_build_sense_code(buf, sizeof(buf), true,
			      SCST_SENSE_MISCOMPARE_DURING_VERIFY);
	assert_int_equal(scst_sense_set_information(buf, 19, 1), -ENOSPC);
}

static void test_both_descriptors(void **state)
{
	/* ILLEGAL REQUEST, LBA OUT OF RANGE, information then field ptr. */
	static const u8 want[28] = {
		0x72, 0x05, 0x21, 0x00, 0x00, 0x00, 0x00, 0x14,
		0x00, 0x0a, 0x80, 0x00, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x00, 0x02, 0x06, 0x00, 0x00,
		0xc0, 0x00, 0x02, 0x00,
	};
	u8 buf[SCST_SENSE_MAX_LEN], key, asc, ascq;

	(void)state;
	scst_build_sense_code(buf, sizeof(buf), true,
			      SCST_SENSE_LBA_OUT_OF_RANGE);
	assert_int_equal(scst_sense_set_information(buf, sizeof(buf),
						    0x100000000ull), 20);
	assert_int_equal(scst_sense_set_field_pointer(buf, sizeof(buf), true,
						      2, -1), 28);
	assert_bytes(buf, want, sizeof(want));
	/* Updating the first descriptor leaves the second alone. */
	assert_int_equal(scst_sense_set_information(buf, sizeof(buf),
						    0x100000000ull), 28);
	assert_bytes(buf, want, sizeof(want));
	assert_int_equal(scst_sense_decode(buf, 28, &key, &asc, &ascq), 0);
	assert_int_equal(key, 5);
	assert_int_equal(asc, 0x21);
	assert_int_equal(ascq, 0);
}

/* Descriptors can be added up to the 252-byte limit and no further. */
static void test_descriptor_limit(void **state)
{
	u8 buf[300];
	int len;

	(void)state;
	fill(buf, sizeof(buf));
	scst_build_sense_code(buf, sizeof(buf), true,
			      SCST_SENSE_INVALID_FIELD_IN_CDB);
	/* 236 bytes of vendor descriptors, type 80h. */
	buf[7] = 236;
	buf[8] = 0x80;
	buf[9] = 234;
	memset(buf + 10, 0, 234);
	len = scst_sense_set_field_pointer(buf, sizeof(buf), true, 0, 0);
	assert_int_equal(len, 252);
	assert_int_equal(buf[7], 244);
	assert_int_equal(scst_sense_set_information(buf, sizeof(buf), 1),
			 -ENOSPC);
	assert_filled(buf, 252, sizeof(buf));
	assert_int_equal(scst_sense_decode(buf, 252, NULL, NULL, NULL), 0);
}

struct decode_case {
	const char *what;
	u8 data[24];
	size_t len;
	int ret;
	u8 key, asc, ascq;
};

static const struct decode_case decode_cases[] = {
	{ "fixed current", { 0x70, 0, 0x05, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0,
			     0x24, 0x01 }, 18, 0, 5, 0x24, 0x01 },
	{ "fixed deferred, VALID", { 0xf1, 0, 0x03, 0, 0, 0, 1, 0x0a,
				     0, 0, 0, 0, 0x11, 0 },
	  18, 0, 3, 0x11, 0 },
	{ "fixed, flags above the key", { 0x70, 0, 0xe4, 0, 0, 0, 0, 0x0a,
					  0, 0, 0, 0, 0x44, 0 },
	  18, 0, 4, 0x44, 0 },
	{ "fixed truncated after ASCQ", { 0x70, 0, 0x06, 0, 0, 0, 0, 0x0a,
					  0, 0, 0, 0, 0x29, 0 },
	  14, 0, 6, 0x29, 0 },
	{ "fixed, length covers ASCQ only", { 0x70, 0, 0x06, 0, 0, 0, 0, 6,
					      0, 0, 0, 0, 0x29, 0x07 },
	  14, 0, 6, 0x29, 0x07 },
	{ "descriptor current", { 0x72, 0x0e, 0x1d, 0x00 }, 8, 0,
	  0xe, 0x1d, 0 },
	{ "descriptor deferred", { 0xf3, 0x02, 0x04, 0x01 }, 8, 0,
	  2, 4, 1 },
	{ "descriptor with one descriptor",
	  { 0x72, 5, 0x24, 0, 0, 0, 0, 8, 2, 6, 0, 0, 0xc0, 0, 1, 0 },
	  16, 0, 5, 0x24, 0 },
	{ "descriptor list truncated by length",
	  { 0x72, 5, 0x24, 0, 0, 0, 0, 8, 2, 6, 0, 0, 0xc0, 0, 1, 0 },
	  12, 0, 5, 0x24, 0 },
	{ "descriptor, header cut by length",
	  { 0x72, 5, 0x24, 0, 0, 0, 0, 8, 2, 6, 0, 0, 0xc0, 0, 1, 0 },
	  9, 0, 5, 0x24, 0 },
	{ .what = "empty", .len = 0, .ret = -EINVAL },
	{ .what = "7 bytes", .data = { 0x72, 5, 0x24 }, .len = 7,
	  .ret = -EINVAL },
	{ .what = "response code 00h", .data = { 0x00, 0, 5 }, .len = 18,
	  .ret = -EINVAL },
	{ .what = "response code 74h", .data = { 0x74, 5, 0x24 }, .len = 18,
	  .ret = -EINVAL },
	{ .what = "response code 7Fh", .data = { 0x7f, 5, 0x24 }, .len = 18,
	  .ret = -EINVAL },
	{ .what = "response code 6Fh", .data = { 0x6f, 5, 0x24 }, .len = 18,
	  .ret = -EINVAL },
	{ .what = "fixed, 13 bytes",
	  .data = { 0x70, 0, 5, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x24 },
	  .len = 13, .ret = -EINVAL },
	{ .what = "fixed, length stops before ASCQ",
	  .data = { 0x70, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0x24 },
	  .len = 18, .ret = -EINVAL },
	{ .what = "additional length 245",
	  .data = { 0x70, 0, 5, 0, 0, 0, 0, 245, 0, 0, 0, 0, 0x24 },
	  .len = 18, .ret = -EINVAL },
	{ .what = "descriptor overruns length",
	  .data = { 0x72, 5, 0x24, 0, 0, 0, 0, 8, 0, 0x0a, 0x80 },
	  .len = 24, .ret = -EINVAL },
	{ .what = "second descriptor overruns length",
	  .data = { 0x72, 5, 0x24, 0, 0, 0, 0, 6, 0x80, 0, 0x80, 3 },
	  .len = 24, .ret = -EINVAL },
	{ .what = "stray byte after header",
	  .data = { 0x72, 5, 0x24, 0, 0, 0, 0, 1, 0x02 },
	  .len = 9, .ret = -EINVAL },
};

static void test_decode_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(decode_cases); i++) {
		const struct decode_case *c = &decode_cases[i];
		u8 key = 0xff, asc = 0xff, ascq = 0xff;
		int ret;

		ret = scst_sense_decode(c->data, c->len, &key, &asc, &ascq);
		if (ret != c->ret)
			fail_msg("%s: %d, expected %d", c->what, ret, c->ret);
		if (ret)
			continue;
		if (key != c->key || asc != c->asc || ascq != c->ascq)
			fail_msg("%s: %x/%02x/%02x", c->what, key, asc, ascq);
	}
}

static void test_decode_null_outputs(void **state)
{
	u8 buf[18], key = 0;

	(void)state;
	scst_build_sense_code(buf, sizeof(buf), false,
			      SCST_SENSE_WRITE_PROTECTED);
	assert_int_equal(scst_sense_decode(buf, 18, &key, NULL, NULL), 0);
	assert_int_equal(key, SCST_SK_DATA_PROTECT);
	assert_int_equal(scst_sense_decode(buf, 18, NULL, NULL, NULL), 0);
}

/*
 * Random bytes behind a valid response code: the decoder and the in-place
 * helpers must never read or write outside the given length. ASan checks
 * the buffer, which is allocated to the exact length.
 */
static void test_random_garbage(void **state)
{
	static const u8 codes[] = { 0x70, 0x71, 0x72, 0x73, 0xf0, 0x00 };
	u32 seed = 0x5e75eu;
	int iter;

	(void)state;
	for (iter = 0; iter < 50000; iter++) {
		size_t len = unit_rand(&seed) % 40, i;
		u8 *buf = malloc(len ? len : 1);
		u8 key, asc, ascq;

		assert_non_null(buf);
		for (i = 0; i < len; i++)
			buf[i] = unit_rand(&seed);
		if (len) {
			buf[0] = codes[unit_rand(&seed) % sizeof(codes)];
			if (len > 7)
				buf[7] %= 40;
		}
		if (scst_sense_decode(buf, len, &key, &asc, &ascq) == 0)
			assert_true(key <= 0x0f);
		/* Make the sense key ILLEGAL REQUEST in either format. */
		if (len > 2)
			buf[unit_rand(&seed) % 2 + 1] = 5;
		scst_sense_set_field_pointer(buf, len, true, 1, 1);
		scst_sense_set_information(buf, len, 7);
		free(buf);
	}
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_build_fixed),
		cmocka_unit_test(test_build_descriptor),
		cmocka_unit_test(test_build_errors),
		cmocka_unit_test(test_codes_roundtrip),
		cmocka_unit_test(test_field_pointer_fixed),
		cmocka_unit_test(test_field_pointer_descriptor),
		cmocka_unit_test(test_field_pointer_errors),
		cmocka_unit_test(test_information_fixed),
		cmocka_unit_test(test_information_descriptor),
		cmocka_unit_test(test_both_descriptors),
		cmocka_unit_test(test_descriptor_limit),
		cmocka_unit_test(test_decode_table),
		cmocka_unit_test(test_decode_null_outputs),
		cmocka_unit_test(test_random_garbage),
	};

	return cmocka_run_group_tests_name("sense", tests, NULL, NULL);
}
