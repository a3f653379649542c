// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for dev_handlers/disk/disk_cdb.c: the commands dev_disk
 * passes beyond the core's CDB table, the ones it refuses, the Block
 * Limits VPD rewrite and the ALUA fields of INQUIRY data. CDBs and pages
 * are written out by hand from SPC-4, SBC-3 and SAT-3.
 */
#include "unit.h"
#include "disk_cdb.h"

#define NONE	SCST_CDB_DIR_NONE
#define OUT	SCST_CDB_DIR_WRITE
#define IN	SCST_CDB_DIR_READ
#define MAX	(1U << 20)

struct disk_case {
	const char *what;
	u8 cdb[16];
	unsigned int len;
	u8 edir;
	u32 elen;
	u8 dir;
	u32 bufflen;
	u32 flags;
};

static const struct disk_case good[] = {
	{ "LOG SENSE", { 0x4d, 0, 0x40, 0, 0, 0, 0, 0x10, 0x00, 0 }, 10,
	  IN, 4096, IN, 4096, SCST_CDB_ALLOC_LEN },
	{ "LOG SELECT", { 0x4c, 0x02, 0, 0, 0, 0, 0, 0x00, 0x20, 0 }, 10,
	  OUT, 32, OUT, 32, SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE },
	{ "RECEIVE DIAGNOSTIC", { 0x1c, 0x01, 0x00, 0x01, 0x00, 0 }, 6,
	  IN, 256, IN, 256, SCST_CDB_ALLOC_LEN },
	{ "SEND DIAGNOSTIC selftest", { 0x1d, 0x04, 0, 0, 0, 0 }, 6,
	  NONE, 0, NONE, 0, SCST_CDB_MEDIUM_WRITE },
	{ "READ BUFFER 24-bit", { 0x3c, 0x02, 0, 0, 0, 0, 0x01, 0x00, 0x00, 0 },
	  10, IN, 65536, IN, 65536, SCST_CDB_ALLOC_LEN },
	{ "WRITE BUFFER", { 0x3b, 0x05, 0, 0, 0, 0, 0x00, 0x02, 0x00, 0 },
	  10, OUT, 512, OUT, 512,
	  SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE },
	{ "FORMAT UNIT, no data", { 0x04, 0, 0, 0, 0, 0 }, 6, NONE, 0,
	  NONE, 0, SCST_CDB_MEDIUM_WRITE },
	{ "FORMAT UNIT FMTDATA", { 0x04, 0x10, 0, 0, 0, 0 }, 6, OUT, 4,
	  OUT, 4, SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE },
	{ "ATA PT(16) PIO in", { 0x85, 0x08, 0x0e, 0, 0, 0, 0x01, 0, 0, 0, 0,
	  0, 0, 0, 0xec, 0 }, 16, IN, 512, IN, 512, SCST_CDB_MEDIUM_WRITE },
	{ "ATA PT(12) non-data", { 0xa1, 0x06, 0x20, 0, 0, 0, 0, 0, 0, 0xe7,
	  0, 0 }, 12, NONE, 0, NONE, 0, SCST_CDB_MEDIUM_WRITE },
	{ "SECURITY PROTOCOL IN INC_512", { 0xa2, 0x00, 0x00, 0x00, 0x80, 0,
	  0, 0, 0, 0x02, 0, 0 }, 12, IN, 1024, IN, 1024, SCST_CDB_ALLOC_LEN },
	{ "SECURITY PROTOCOL OUT", { 0xb5, 0x01, 0x00, 0x01, 0, 0, 0, 0, 0x02,
	  0x00, 0, 0 }, 12, OUT, 512, OUT, 512,
	  SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE },
	{ "SANITIZE overwrite", { 0x48, 0x01, 0, 0, 0, 0, 0, 0x00, 0x08, 0 },
	  10, OUT, 8, OUT, 8, SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE },
	{ "WRITE LONG(10)", { 0x3f, 0, 0, 0, 0, 8, 0, 0x02, 0x00, 0 }, 10,
	  OUT, 512, OUT, 512, SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE },
	{ "ZBC OUT", { 0x94, 0x04 }, 16, NONE, 0, NONE, 0,
	  SCST_CDB_MEDIUM_WRITE },
	{ "REPORT ZONES", { 0x95, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
	  0x00, 0, 0 }, 16, IN, 4096, IN, 4096, SCST_CDB_ALLOC_LEN },
	{ "REPORT REFERRALS", { 0x9e, 0x13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0x02, 0x00, 0, 0 }, 16, IN, 512, IN, 512, SCST_CDB_ALLOC_LEN },
	{ "PRE-FETCH(10)", { 0x34, 0, 0, 0, 0, 8, 0, 0, 8, 0 }, 10, NONE, 0,
	  NONE, 0, 0 },
};

static void test_decode_good(void **state)
{
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		const struct disk_case *c = &good[i];
		int ret = disk_cdb_decode(c->cdb, c->len, c->edir, c->elen,
					  MAX, &info, &err);

		if (ret)
			fail_msg("%s: refused, sense %06x", c->what,
				 err.sense_code);
		assert_int_equal(info.direction, c->dir);
		assert_int_equal(info.bufflen, c->bufflen);
		assert_int_equal(info.flags, c->flags);
		assert_int_equal(info.opcode, c->cdb[0]);
	}
}

static void test_decode_bad(void **state)
{
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	/* vendor specific: never guessed */
	const u8 vendor[6] = { 0xc7 };
	/* MAINTENANCE IN, REPORT TARGET PORT GROUPS: not passed */
	const u8 rtpg[12] = { 0xa3, 0x0a, 0, 0, 0, 0, 0, 0, 1, 0 };
	/* FORMAT UNIT FMTDATA with no data-out announced */
	const u8 fmt[6] = { 0x04, 0x10 };
	/* ATA PT(16) data-in, announced beyond the limit */
	const u8 ata[16] = { 0x85, 0x08, 0x0e };
	const u8 log[10] = { 0x4d, 0, 0x40, 0, 0, 0, 0, 0x10, 0x00, 0 };

	(void)state;
	assert_int_equal(disk_cdb_decode(vendor, 6, NONE, 0, MAX, &info, &err),
			 -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_OPCODE);
	assert_true(err.has_field);
	assert_int_equal(err.byte, 0);
	assert_int_equal(disk_cdb_decode(rtpg, 12, IN, 256, MAX, &info, &err),
			 -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_OPCODE);
	assert_int_equal(disk_cdb_decode(fmt, 6, NONE, 0, MAX, &info, &err),
			 -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_FIELD_IN_CDB);
	assert_int_equal(disk_cdb_decode(ata, 16, IN, MAX + 512, MAX, &info,
					 &err), -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_FIELD_IN_CDB);
	/* ATA PT announced in the other direction */
	assert_int_equal(disk_cdb_decode(ata, 16, OUT, 512, MAX, &info, &err),
			 -EINVAL);
	/* shorter than the command's CDB */
	assert_int_equal(disk_cdb_decode(log, 6, IN, 4096, MAX, &info, &err),
			 -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_FIELD_IN_CDB);
	assert_int_equal(disk_cdb_decode(log, 0, IN, 4096, MAX, &info, &err),
			 -EINVAL);
}

/*
 * Every command that changes the device carries SCST_CDB_MEDIUM_WRITE,
 * which a read-only LUN refuses (scst_cmd_read_only() in disk_parse());
 * the ones that only read do not.
 */
static void test_medium_write(void **state)
{
	static const struct {
		u8 cdb[16];
		unsigned int len;
		u8 edir;
		u32 elen;
		bool writes;
	} c[] = {
		{ { 0x04 }, 6, NONE, 0, true },		/* FORMAT UNIT */
		{ { 0x07 }, 6, OUT, 8, true },		/* REASSIGN BLOCKS */
		{ { 0x1d, 0x04 }, 6, NONE, 0, true },	/* SEND DIAGNOSTIC */
		{ { 0x3b, 0x05, 0, 0, 0, 0, 0, 2, 0 }, 10, OUT, 512, true },
		{ { 0x48, 0x01, 0, 0, 0, 0, 0, 0, 8 }, 10, OUT, 8, true },
		{ { 0x4c, 0x02 }, 10, NONE, 0, true },	/* LOG SELECT */
		{ { 0xb5, 0x01, 0, 1, 0, 0, 0, 0, 2, 0 }, 12, OUT, 512, true },
		{ { 0x4d, 0, 0x40, 0, 0, 0, 0, 0, 64 }, 10, IN, 64, false },
		{ { 0xa2, 0, 0, 0, 0, 0, 0, 0, 2, 0 }, 12, IN, 512, false },
		{ { 0x1c, 0x01, 0, 1, 0 }, 6, IN, 256, false },
		{ { 0x3c, 0x02, 0, 0, 0, 0, 0, 2, 0 }, 10, IN, 512, false },
	};
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		if (disk_cdb_decode(c[i].cdb, c[i].len, c[i].edir, c[i].elen,
				    MAX, &info, &err))
			fail_msg("opcode %02x: refused", c[i].cdb[0]);
		if (!!(info.flags & SCST_CDB_MEDIUM_WRITE) != c[i].writes)
			fail_msg("opcode %02x: MEDIUM_WRITE %d", c[i].cdb[0],
				 !c[i].writes);
	}
}

/* The long-running commands get their own timeout; others the queue's */
static void test_timeout(void **state)
{
	const u8 fmt[6] = { 0x04 }, diag[6] = { 0x1d, 0xc0 };
	const u8 san[10] = { 0x48, 0x81 }, wb[10] = { 0x3b, 0x05 };
	const u8 r10[10] = { 0x28 }, log[10] = { 0x4d };

	(void)state;
	assert_true(disk_cdb_timeout(fmt, 6) >= 3600);
	assert_true(disk_cdb_timeout(san, 10) >= 3600);
	assert_true(disk_cdb_timeout(diag, 6) >= 3600);
	assert_true(disk_cdb_timeout(wb, 10) >= 60);
	assert_int_equal(disk_cdb_timeout(r10, 10), 0);
	assert_int_equal(disk_cdb_timeout(log, 10), 0);
	assert_int_equal(disk_cdb_timeout(fmt, 0), 0);
}

static void test_refused(void **state)
{
	const u8 pr_in[10] = { 0x5e }, pr_out[10] = { 0x5f };
	const u8 xcopy[16] = { 0x83 }, read10[10] = { 0x28 };

	(void)state;
	/* the core answers them (scst_pr_dev.c) before ->exec() */
	assert_false(disk_cdb_refused(pr_in));
	assert_false(disk_cdb_refused(pr_out));
	assert_true(disk_cdb_refused(xcopy));
	assert_false(disk_cdb_refused(read10));
}

static void test_block_limits(void **state)
{
	u8 page[64];

	(void)state;
	memset(page, 0, sizeof(page));
	page[1] = DISK_VPD_BLOCK_LIMITS;
	/* none reported: ours */
	assert_true(disk_vpd_b0_limit(page, sizeof(page), 2048));
	assert_int_equal(get_unaligned_be32(page + 8), 2048);
	/* a smaller one stays, OPTIMAL above the maximum is cut */
	put_unaligned_be32(1024, page + 8);
	put_unaligned_be32(4096, page + 12);
	assert_true(disk_vpd_b0_limit(page, sizeof(page), 2048));
	assert_int_equal(get_unaligned_be32(page + 8), 1024);
	assert_int_equal(get_unaligned_be32(page + 12), 2048);
	assert_false(disk_vpd_b0_limit(page, sizeof(page), 2048));
	/* a larger one is cut */
	put_unaligned_be32(65535, page + 8);
	assert_true(disk_vpd_b0_limit(page, sizeof(page), 2048));
	assert_int_equal(get_unaligned_be32(page + 8), 2048);
	/* truncated or another page: untouched */
	put_unaligned_be32(0, page + 8);
	assert_false(disk_vpd_b0_limit(page, 15, 2048));
	page[1] = 0x83;
	assert_false(disk_vpd_b0_limit(page, sizeof(page), 2048));
	assert_int_equal(get_unaligned_be32(page + 8), 0);
}

/*
 * MAXIMUM WRITE SAME LENGTH (bytes 36-43) says what the core's WRITE
 * SAME limit (SCST_CDB_WS_LIMIT, the maximum transfer) lets through
 */
static void test_block_limits_ws(void **state)
{
	u8 page[64];

	(void)state;
	memset(page, 0, sizeof(page));
	page[1] = DISK_VPD_BLOCK_LIMITS;
	page[3] = 0x3c;
	put_unaligned_be32(2048, page + 8);
	/* none reported (0): ours */
	assert_true(disk_vpd_b0_limit(page, sizeof(page), 2048));
	assert_int_equal(get_unaligned_be64(page + 36), 2048);
	/* the device's larger one is cut */
	put_unaligned_be64(0x7fffffULL, page + 36);
	assert_true(disk_vpd_b0_limit(page, sizeof(page), 2048));
	assert_int_equal(get_unaligned_be64(page + 36), 2048);
	/* a smaller one stays */
	put_unaligned_be64(256, page + 36);
	assert_false(disk_vpd_b0_limit(page, sizeof(page), 2048));
	assert_int_equal(get_unaligned_be64(page + 36), 256);
	/* a page that ends before the field: nothing written past it */
	put_unaligned_be64(0x7fffffULL, page + 36);
	assert_false(disk_vpd_b0_limit(page, 43, 2048));
	assert_int_equal(get_unaligned_be64(page + 36), 0x7fffffULL);
	assert_true(disk_vpd_b0_limit(page, 44, 2048));
	assert_int_equal(get_unaligned_be64(page + 36), 2048);
}

/* TPGS (byte 5 bits 5:4) becomes ours; the other bits of byte 5 stay */
static void test_inq_tpgs(void **state)
{
	u8 inq[36];

	(void)state;
	memset(inq, 0x5a, sizeof(inq));
	inq[5] = 0xc9 | 0x10;	/* SCCS, ACC, 3PC, PROTECT; TPGS 01b */
	assert_false(disk_inq_set_tpgs(inq, 5, 0x30));
	assert_int_equal(inq[5], 0xd9);
	assert_true(disk_inq_set_tpgs(inq, 6, 0x30));
	assert_int_equal(inq[5], 0xf9);
	/* only bits 5:4 of the argument count */
	assert_true(disk_inq_set_tpgs(inq, sizeof(inq), 0xff & ~0x30));
	assert_int_equal(inq[5], 0xc9);
	assert_int_equal(inq[4], 0x5a);
	assert_int_equal(inq[6], 0x5a);
}

/*
 * A Device Identification page as scsi_debug returns it: T10 vendor ID
 * and NAA designators of the logical unit, its relative target port 1
 * (PIV, SAS), an NAA designator of its target port and its target port
 * group 0x100: 52 bytes of designators, 56 in all. In a buffer of 96
 * bytes, the rest 0xaa.
 */
#define VPD83_LEN	56U
#define VPD83_REL_OFF	28
#define VPD83_TPG_OFF	48
static void vpd83_fill(u8 *page)
{
	static const u8 p[VPD83_LEN] = {
		0x00, 0x83, 0x00, 52,
		0x02, 0x01, 0x00, 0x08, 'L', 'i', 'n', 'u', 'x', ' ', ' ', ' ',
		0x01, 0x03, 0x00, 0x08, 0x53, 0x33, 0x33, 0x33, 0x30, 0, 0, 0,
		0x61, 0x94, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01,
		0x61, 0x93, 0x00, 0x08, 0x52, 0x22, 0x22, 0x22, 0x20, 0, 0, 0,
		0x61, 0x95, 0x00, 0x04, 0x00, 0x00, 0x01, 0x00,
	};

	memset(page, 0xaa, 96);
	memcpy(page, p, sizeof(p));
}

static const u8 rel5[8] = { 0x01, 0x14, 0x00, 0x04, 0, 0, 0x00, 0x05 };
static const u8 tpg7[8] = { 0x01, 0x15, 0x00, 0x04, 0, 0, 0x00, 0x07 };

/* the device's port designators made vendor specific, nothing else */
static void vpd83_check_own(const u8 *page, const u8 *orig, u32 len)
{
	u32 i;

	for (i = 4; i < len; i++) {
		if (i == VPD83_REL_OFF + 1 || i == VPD83_TPG_OFF + 1)
			assert_int_equal(page[i], 0x90);
		else
			assert_int_equal(page[i], orig[i]);
	}
}

static void test_vpd83_whole(void **state)
{
	u8 page[96], orig[96];

	(void)state;
	vpd83_fill(orig);
	/* the device's made vendor specific, ours appended */
	vpd83_fill(page);
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN, 96, 5, 7),
			 VPD83_LEN + 16);
	assert_int_equal(get_unaligned_be16(page + 2), 52 + 16);
	vpd83_check_own(page, orig, VPD83_LEN);
	assert_memory_equal(page + VPD83_LEN, rel5, 8);
	assert_memory_equal(page + VPD83_LEN + 8, tpg7, 8);
	assert_int_equal(page[VPD83_LEN + 16], 0xaa);
	/* no target port group: the relative port alone */
	vpd83_fill(page);
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN, 96, 5, 0),
			 VPD83_LEN + 8);
	assert_int_equal(get_unaligned_be16(page + 2), 52 + 8);
	vpd83_check_own(page, orig, VPD83_LEN);
	assert_memory_equal(page + VPD83_LEN, rel5, 8);
	assert_int_equal(page[VPD83_LEN + 8], 0xaa);
	/* the allocation length ends inside what is appended */
	vpd83_fill(page);
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN, VPD83_LEN + 12, 5, 7),
			 VPD83_LEN + 12);
	assert_int_equal(get_unaligned_be16(page + 2), 52 + 16);
	assert_memory_equal(page + VPD83_LEN, rel5, 8);
	assert_memory_equal(page + VPD83_LEN + 8, tpg7, 4);
	assert_int_equal(page[VPD83_LEN + 12], 0xaa);
	/* the device returned bytes past PAGE LENGTH: not ours to return */
	vpd83_fill(page);
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN + 20, 96, 0, 0),
			 VPD83_LEN);
	assert_int_equal(get_unaligned_be16(page + 2), 52);
	vpd83_check_own(page, orig, VPD83_LEN);
	/* a header only: both appended */
	vpd83_fill(page);
	page[3] = 0;
	assert_int_equal(disk_vpd83_alua(page, 4, 96, 5, 7), 20);
	assert_int_equal(get_unaligned_be16(page + 2), 16);
	assert_memory_equal(page + 4, rel5, 8);
	assert_memory_equal(page + 12, tpg7, 8);
	/* a designator of the logical unit with type 4: not a port's */
	vpd83_fill(page);
	page[VPD83_REL_OFF + 1] = 0x04;
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN, 96, 5, 0),
			 VPD83_LEN + 8);
	assert_int_equal(page[VPD83_REL_OFF + 1], 0x04);
	assert_int_equal(page[VPD83_TPG_OFF + 1], 0x90);
}

/*
 * The allocation length cut the page: the visible bytes as in the whole
 * page, the same PAGE LENGTH, nothing written past the cut
 */
static void test_vpd83_cut(void **state)
{
	u8 whole[96], page[96], orig[96];
	u32 cut;

	(void)state;
	vpd83_fill(orig);
	vpd83_fill(whole);
	disk_vpd83_alua(whole, VPD83_LEN, 96, 5, 7);
	for (cut = 4; cut <= VPD83_LEN + 16; cut++) {
		vpd83_fill(page);
		assert_int_equal(disk_vpd83_alua(page, min(cut, VPD83_LEN), cut,
						 5, 7), min(cut, VPD83_LEN + 16));
		assert_memory_equal(page, whole, min(cut, VPD83_LEN + 16));
		assert_memory_equal(page + cut, orig + cut, 96 - cut);
	}
	/* byte 1 of the relative port returned, its length not */
	vpd83_fill(page);
	assert_int_equal(disk_vpd83_alua(page, VPD83_REL_OFF + 2,
					 VPD83_REL_OFF + 2, 5, 7),
			 VPD83_REL_OFF + 2);
	assert_int_equal(page[VPD83_REL_OFF + 1], 0x90);
	/* less than the header: untouched */
	vpd83_fill(page);
	assert_int_equal(disk_vpd83_alua(page, 3, 96, 5, 7), 3);
	assert_memory_equal(page, orig, 96);
	/* @len beyond @cap counts as @cap */
	vpd83_fill(page);
	assert_int_equal(disk_vpd83_alua(page, 200, 20, 5, 7), 20);
	assert_int_equal(get_unaligned_be16(page + 2), 52 + 16);
	assert_memory_equal(page + 20, orig + 20, 76);
}

/* Lengths the device claims and does not keep */
static void test_vpd83_bad(void **state)
{
	u8 page[96], orig[96];

	(void)state;
	vpd83_fill(orig);
	/* another page */
	vpd83_fill(page);
	page[1] = 0x80;
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN, 96, 5, 7), VPD83_LEN);
	assert_memory_equal(page + 2, orig + 2, 94);
	/* a designator longer than the page: the walk stops, none appended */
	vpd83_fill(page);
	page[19] = 0x40;
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN, 96, 5, 7), VPD83_LEN);
	assert_int_equal(get_unaligned_be16(page + 2), 52);
	assert_memory_equal(page + 20, orig + 20, 76);
	/* PAGE LENGTH one past the designators: a stray byte, none appended */
	vpd83_fill(page);
	page[3] = 53;
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN + 1, 96, 5, 7),
			 VPD83_LEN + 1);
	assert_int_equal(get_unaligned_be16(page + 2), 53);
	assert_int_equal(page[VPD83_LEN + 1], 0xaa);
	/* PAGE LENGTH shorter than the designators: none appended */
	vpd83_fill(page);
	page[3] = 40;
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN, 96, 5, 7), 44);
	assert_int_equal(get_unaligned_be16(page + 2), 40);
	assert_memory_equal(page + 44, orig + 44, 52);
	/* PAGE LENGTH near the 16-bit limit: no room for ours */
	vpd83_fill(page);
	put_unaligned_be16(0xfff0, page + 2);
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN, VPD83_LEN, 5, 7),
			 VPD83_LEN);
	assert_int_equal(get_unaligned_be16(page + 2), 0xfff0);
	vpd83_fill(page);
	put_unaligned_be16(0xfff0, page + 2);
	assert_int_equal(disk_vpd83_alua(page, VPD83_LEN, VPD83_LEN, 5, 0),
			 VPD83_LEN);
	assert_int_equal(get_unaligned_be16(page + 2), 0xfff8);
	/* a relative port of 6 bytes: vendor specific all the same */
	memset(page, 0xaa, sizeof(page));
	memcpy(page, (const u8 []){ 0x00, 0x83, 0x00, 10, 0x61, 0x94, 0x00, 6,
				    0, 0, 0, 1, 0, 0 }, 14);
	assert_int_equal(disk_vpd83_alua(page, 14, 96, 5, 0), 22);
	assert_int_equal(get_unaligned_be16(page + 2), 18);
	assert_int_equal(page[5], 0x90);
	assert_int_equal(page[7], 6);
	assert_memory_equal(page + 14, rel5, 8);
	assert_int_equal(page[22], 0xaa);
	/* zero-length designators: walked over */
	memset(page, 0xaa, sizeof(page));
	memcpy(page, (const u8 []){ 0x00, 0x83, 0x00, 8, 0x01, 0x00, 0x00, 0,
				    0x01, 0x14, 0x00, 0 }, 12);
	assert_int_equal(disk_vpd83_alua(page, 12, 96, 5, 7), 28);
	assert_int_equal(get_unaligned_be16(page + 2), 24);
	assert_int_equal(page[9], 0x10);
	assert_memory_equal(page + 12, rel5, 8);
	assert_memory_equal(page + 20, tpg7, 8);
	/* every designator length, every PAGE LENGTH: within @cap */
	for (u32 pl = 0; pl < 40; pl++) {
		for (u32 dl = 0; dl < 256; dl += 17) {
			memset(page, 0xaa, sizeof(page));
			page[0] = 0;
			page[1] = 0x83;
			put_unaligned_be16(pl, page + 2);
			page[5] = 0x14;
			page[7] = dl;
			assert_true(disk_vpd83_alua(page, 44, 60, 5, 7) <= 60);
			assert_int_equal(page[60], 0xaa);
		}
	}
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_decode_good),
		cmocka_unit_test(test_decode_bad),
		cmocka_unit_test(test_medium_write),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_block_limits),
		cmocka_unit_test(test_block_limits_ws),
		cmocka_unit_test(test_inq_tpgs),
		cmocka_unit_test(test_vpd83_whole),
		cmocka_unit_test(test_vpd83_cut),
		cmocka_unit_test(test_vpd83_bad),
	};

	return cmocka_run_group_tests_name("disk_cdb", tests, NULL, NULL);
}
