// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_spc.c: INQUIRY and VPD data, mode pages,
 * READ CAPACITY, REPORT LUNS, GET LBA STATUS and UNMAP parameter lists.
 * Expected bytes are written out by hand from SPC-4 and SBC-3.
 */
#include "unit.h"
#include <scst_spc.h>

static void assert_err(const struct scst_cdb_err *err, u32 sense,
		       bool in_cdb, int byte, int bit)
{
	if (err->sense_code != sense)
		fail_msg("sense %06x, expected %06x", err->sense_code, sense);
	if (err->has_field != (byte >= 0))
		fail_msg("has_field %d, expected %d", err->has_field,
			 byte >= 0);
	if (byte >= 0 && (err->byte != byte || err->bit != bit ||
			  err->in_cdb != in_cdb))
		fail_msg("field %u bit %d C/D %d, expected %d bit %d C/D %d",
			 err->byte, err->bit, err->in_cdb, byte, bit, in_cdb);
}

/*
 * Build with @len bytes of buffer, check the returned length, the bytes
 * written and that nothing past @len was touched.
 */
#define CHECK_BUILT(call, buf, want, total) do {			\
	assert_int_equal((call), (total));				\
	assert_bytes((buf), (want), sizeof(want));			\
} while (0)

/* ---------------------------------------------------------------------- */
/* INQUIRY                                                                */
/* ---------------------------------------------------------------------- */

static const struct scst_inq_params disk = {
	.dev_type = 0,
	.vendor = "SCST_BIO",
	.product = "disk01",
	.revision = "320",
	.unit_serial = "1a2b3c4d",
	.t10_vend_spec = "disk01",
	.eui64 = (const u8 *)"27cddc71",
	.eui64_len = 8,
	.rel_tgt_id = 1,
	.tgt_port_name = "eui.0002C903000E8ACD",
	.piv = true,
	.protocol_id = SCST_PROTO_ID_SRP,
	.thin_provisioned = true,
	.rotational = false,
	.write_cache = true,
	.lbpu = true,
	.lbpws = true,
	.lbpws10 = true,
	.lbprz = true,
	.block_size = 512,
	.nblocks = 0x200000,
	.max_xfer_len = 2048,
	.opt_xfer_len = 256,
	.opt_xfer_gran = 8,
	.max_unmap_lba_count = 0x400000,
	.max_unmap_desc = 256,
	.unmap_gran = 8,
	.unmap_gran_align = 0,
	.max_ws_len = 0x100000,
	.max_cw_len = 1,
	.transport_vd = 0x0940,
};

static void test_std_inquiry(void **state)
{
	/* SPC-4 §6.6.2 */
	static const u8 want[SCST_INQ_STD_LEN] = {
		0x00, 0x00, 0x06, 0x12, 0x45, 0x00, 0x00, 0x02,
		'S', 'C', 'S', 'T', '_', 'B', 'I', 'O',
		'd', 'i', 's', 'k', '0', '1', ' ', ' ',
		' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
		'3', '2', '0', ' ',
		/* 36-55 vendor specific, 56-57 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0,
		/* 58: SAM-5, SPC-4, SBC-3, SRP */
		0x00, 0xa0, 0x04, 0x60, 0x04, 0xc0, 0x09, 0x40,
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct scst_inq_params p = disk;
	u8 buf[128];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_std_inquiry(&p, buf, sizeof(buf)), buf, want,
		    SCST_INQ_STD_LEN);
	assert_filled(buf, SCST_INQ_STD_LEN, sizeof(buf));

	/* Truncated to 36 bytes: the full length is still returned. */
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_std_inquiry(&p, buf, 36),
			 SCST_INQ_STD_LEN);
	assert_bytes(buf, want, 36);
	assert_filled(buf, 36, sizeof(buf));

	/* Removable CD-ROM: no SBC-3 descriptor; odd strings. */
	p.dev_type = 5;
	p.removable = true;
	p.vendor = "A\tB";
	p.product = "a product name longer than 16";
	p.revision = NULL;
	p.transport_vd = 0;
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_std_inquiry(&p, buf, sizeof(buf)),
			 SCST_INQ_STD_LEN);
	assert_int_equal(buf[0], 0x05);
	assert_int_equal(buf[1], 0x80);
	assert_memory_equal(buf + 8, "A B     a product name l    ", 28);
	assert_bytes(buf + 58, (const u8[]){ 0x00, 0xa0, 0x04, 0x60, 0, 0 },
		     6);
	assert_int_equal(buf[5], 0x00);

	/* SPC-4 6.6.2: TPGS in byte 5 bits 5-4, nothing else there */
	p.tpgs = 0x30;
	assert_int_equal(scst_build_std_inquiry(&p, buf, sizeof(buf)),
			 SCST_INQ_STD_LEN);
	assert_int_equal(buf[5], 0x30);
	p.tpgs = 0xff;
	scst_build_std_inquiry(&p, buf, sizeof(buf));
	assert_int_equal(buf[5], 0x30);
}

static void test_inquiry_no_lun(void **state)
{
	static const u8 want[36] = {
		0x7f, 0x00, 0x06, 0x12, 0x1f, 0x00, 0x00, 0x00,
		' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
		' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
		' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
		' ', ' ', ' ', ' ',
	};
	u8 buf[64];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_inquiry_no_lun(buf, sizeof(buf)), buf, want,
		    36);
	assert_filled(buf, 36, sizeof(buf));
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_inquiry_no_lun(buf, 5), 36);
	assert_bytes(buf, want, 5);
	assert_filled(buf, 5, sizeof(buf));
}

static void test_vpd_00(void **state)
{
	static const u8 thin[] = {
		0x00, 0x00, 0x00, 0x07, 0x00, 0x80, 0x83, 0x86, 0xb0, 0xb1,
		0xb2,
	};
	static const u8 thick[] = {
		0x00, 0x00, 0x00, 0x06, 0x00, 0x80, 0x83, 0x86, 0xb0, 0xb1,
	};
	static const u8 cdrom[] = {
		0x05, 0x00, 0x00, 0x04, 0x00, 0x80, 0x83, 0x86,
	};
	struct scst_inq_params p = disk;
	struct scst_cdb_err err;
	u8 buf[32];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0x00, buf, sizeof(buf), &err), buf,
		    thin, sizeof(thin));
	assert_filled(buf, sizeof(thin), sizeof(buf));
	p.thin_provisioned = false;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0x00, buf, sizeof(buf), &err), buf,
		    thick, sizeof(thick));
	assert_filled(buf, sizeof(thick), sizeof(buf));
	p.dev_type = 5;
	CHECK_BUILT(scst_build_vpd(&p, 0x00, buf, sizeof(buf), &err), buf,
		    cdrom, sizeof(cdrom));
}

static void test_vpd_80(void **state)
{
	static const u8 want[] = {
		0x00, 0x80, 0x00, 0x08, '1', 'a', '2', 'b', '3', 'c', '4', 'd',
	};
	static const u8 none[] = { 0x00, 0x80, 0x00, 0x00 };
	struct scst_inq_params p = disk;
	struct scst_cdb_err err;
	u8 buf[32];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0x80, buf, sizeof(buf), &err), buf,
		    want, sizeof(want));
	assert_filled(buf, sizeof(want), sizeof(buf));
	p.unit_serial = NULL;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0x80, buf, sizeof(buf), &err), buf,
		    none, sizeof(none));
	assert_filled(buf, sizeof(none), sizeof(buf));
}

static void test_vpd_83(void **state)
{
	/* SPC-4 §7.8.6, the logical unit's designators as SCST's */
	static const u8 want[] = {
		0x00, 0x83, 0x00, 0x42,
		/* T10 vendor ID: ASCII, LU, type 1 */
		0x02, 0x01, 0x00, 0x0e,
		'S', 'C', 'S', 'T', '_', 'B', 'I', 'O',
		'd', 'i', 's', 'k', '0', '1',
		/* EUI-64: binary, LU, type 2 (SCST's: t10_dev_id's bytes) */
		0x01, 0x02, 0x00, 0x08,
		'2', '7', 'c', 'd', 'd', 'c', '7', '1',
		/* relative target port: SRP, PIV, target port, type 4 */
		0x41, 0x94, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01,
		/* SCSI name string: UTF-8, PIV, target port, type 8 */
		0x43, 0x98, 0x00, 0x18,
		'e', 'u', 'i', '.', '0', '0', '0', '2', 'C', '9', '0', '3',
		'0', '0', '0', 'E', '8', 'A', 'C', 'D', 0, 0, 0, 0,
	};
	/*
	 * No protocol identifier; the target device's SCSI name first; an
	 * NAA 6 designator; target port group.
	 */
	static const u8 want2[] = {
		0x00, 0x83, 0x00, 0x38,
		0x03, 0x28, 0x00, 0x08, 't', 'g', 't', 'd', 'e', 'v', 0, 0,
		0x01, 0x03, 0x00, 0x10,
		0x60, 0x01, 0x40, 0x50, 0x00, 0x00, 0x00, 0x02,
		0x00, 0x00, 0x00, 0x00, 0x27, 0xcd, 0xdc, 0x71,
		0x01, 0x14, 0x00, 0x04, 0x00, 0x00, 0x12, 0x34,
		0x01, 0x15, 0x00, 0x04, 0x00, 0x00, 0x00, 0x02,
		0x03, 0x18, 0x00, 0x04, 'a', 'b', 'c', 0,
	};
	static const u8 empty[] = { 0x00, 0x83, 0x00, 0x00 };
	struct scst_inq_params p = disk;
	struct scst_cdb_err err;
	u8 buf[512];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0x83, buf, sizeof(buf), &err), buf,
		    want, sizeof(want));
	assert_filled(buf, sizeof(want), sizeof(buf));

	/* Cut at 10 bytes: full length returned, nothing beyond written. */
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_vpd(&p, 0x83, buf, 10, &err),
			 sizeof(want));
	assert_bytes(buf, want, 10);
	assert_filled(buf, 10, sizeof(buf));

	p.t10_vend_spec = NULL;
	p.eui64 = NULL;
	p.naa = want2 + 20;
	p.naa_len = 16;
	p.dev_scsi_name = "tgtdev";
	p.piv = false;
	p.rel_tgt_id = 0x1234;
	p.tpg_id = 2;
	p.tgt_port_name = "abc";
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0x83, buf, sizeof(buf), &err), buf,
		    want2, sizeof(want2));
	assert_filled(buf, sizeof(want2), sizeof(buf));

	memset(&p, 0, sizeof(p));
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0x83, buf, sizeof(buf), &err), buf,
		    empty, sizeof(empty));
	assert_filled(buf, sizeof(empty), sizeof(buf));
}

static void test_vpd_83_long_name(void **state)
{
	struct scst_inq_params p = disk;
	struct scst_cdb_err err;
	char name[400];
	u8 buf[1024];
	int len;

	(void)state;
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	p.tgt_port_name = name;
	fill(buf, sizeof(buf));
	len = scst_build_vpd(&p, 0x83, buf, sizeof(buf), &err);
	/* 251 characters kept, a NUL: 252 bytes, DESIGNATOR LENGTH FCh */
	assert_int_equal(len, 4 + 18 + 12 + 8 + 4 + 252);
	assert_int_equal(get_unaligned_be16(buf + 2), len - 4);
	assert_int_equal(buf[len - 252 - 1], 0xfc);
	assert_int_equal(buf[len - 252 - 4], 0x43);
	assert_int_equal(buf[len - 252], 'n');
	assert_int_equal(buf[len - 2], 'n');
	assert_int_equal(buf[len - 1], 0);
	assert_filled(buf, len, sizeof(buf));
}

static void test_vpd_86(void **state)
{
	struct scst_inq_params p = disk;
	struct scst_cdb_err err;
	u8 want[64] = { 0x00, 0x86, 0x00, 0x3c, 0x00, 0x07, 0x01 };
	u8 buf[80];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0x86, buf, sizeof(buf), &err), buf,
		    want, 64);
	assert_filled(buf, 64, sizeof(buf));
	p.write_cache = false;
	want[6] = 0;
	CHECK_BUILT(scst_build_vpd(&p, 0x86, buf, sizeof(buf), &err), buf,
		    want, 64);
}

static void test_vpd_b0(void **state)
{
	/* SBC-3 §6.5.3 */
	static const u8 want[64] = {
		0x00, 0xb0, 0x00, 0x3c,
		0x01, 0x01, 0x00, 0x08,		/* WSNZ, CAW 1, OTLG 8 */
		0x00, 0x00, 0x08, 0x00,		/* max transfer 2048 */
		0x00, 0x00, 0x01, 0x00,		/* optimal 256 */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x40, 0x00, 0x00,		/* max unmap LBA count */
		0x00, 0x00, 0x01, 0x00,		/* max unmap descriptors */
		0x00, 0x00, 0x00, 0x08,		/* unmap granularity */
		0x80, 0x00, 0x00, 0x00,		/* UGAVALID, alignment 0 */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00,
	};
	static const u8 thick[64] = {
		0x00, 0xb0, 0x00, 0x3c,
		0x01, 0x01, 0x00, 0x08,
		0x00, 0x00, 0x08, 0x00,
		0x00, 0x00, 0x01, 0x00,
		[36] = 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00,
	};
	struct scst_inq_params p = disk;
	struct scst_cdb_err err;
	u8 buf[80];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0xb0, buf, sizeof(buf), &err), buf,
		    want, 64);
	assert_filled(buf, 64, sizeof(buf));
	p.thin_provisioned = false;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0xb0, buf, sizeof(buf), &err), buf,
		    thick, 64);
}

static void test_vpd_b1_b2(void **state)
{
	u8 b1[64] = { 0x00, 0xb1, 0x00, 0x3c, 0x00, 0x01 };
	static const u8 b2[8] = {
		0x00, 0xb2, 0x00, 0x04, 0x00, 0xe4, 0x02, 0x00,
	};
	static const u8 b2_lbpu[8] = {
		0x00, 0xb2, 0x00, 0x04, 0x00, 0x80, 0x02, 0x00,
	};
	struct scst_inq_params p = disk;
	struct scst_cdb_err err;
	u8 buf[80];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0xb1, buf, sizeof(buf), &err), buf,
		    b1, 64);
	assert_filled(buf, 64, sizeof(buf));
	p.rotational = true;
	b1[5] = 0;
	CHECK_BUILT(scst_build_vpd(&p, 0xb1, buf, sizeof(buf), &err), buf,
		    b1, 64);

	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_vpd(&p, 0xb2, buf, sizeof(buf), &err), buf,
		    b2, 8);
	assert_filled(buf, 8, sizeof(buf));
	p.lbpws = p.lbpws10 = p.lbprz = false;
	CHECK_BUILT(scst_build_vpd(&p, 0xb2, buf, sizeof(buf), &err), buf,
		    b2_lbpu, 8);
}

static void test_vpd_unsupported(void **state)
{
	static const u8 pages[] = { 0x01, 0x81, 0x84, 0x87, 0x89, 0xb3, 0xff };
	struct scst_inq_params p = disk;
	struct scst_cdb_err err;
	u8 buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pages); i++) {
		memset(&err, FILL, sizeof(err));
		fill(buf, sizeof(buf));
		assert_int_equal(scst_build_vpd(&p, pages[i], buf, sizeof(buf),
						&err), -EINVAL);
		assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true, 2, -1);
		assert_filled(buf, 0, sizeof(buf));
	}
	/* B2h only when thin provisioned; B0h-B2h only for disks */
	p.thin_provisioned = false;
	assert_int_equal(scst_build_vpd(&p, 0xb2, buf, sizeof(buf), &err),
			 -EINVAL);
	p.thin_provisioned = true;
	p.dev_type = 5;
	assert_int_equal(scst_build_vpd(&p, 0xb0, buf, sizeof(buf), &err),
			 -EINVAL);
	assert_int_equal(scst_build_vpd(&p, 0xb2, buf, sizeof(buf), &err),
			 -EINVAL);
}

static void test_build_inquiry_cdb(void **state)
{
	static const u8 std[6] = { 0x12, 0, 0, 0, 0xff };
	static const u8 vpd80[6] = { 0x12, 1, 0x80, 0, 0xff };
	static const u8 bad[6] = { 0x12, 0, 0x80, 0, 0xff };
	struct scst_cdb_err err;
	u8 buf[128];

	(void)state;
	assert_int_equal(scst_build_inquiry(std, 6, &disk, buf, sizeof(buf),
					    &err), SCST_INQ_STD_LEN);
	assert_int_equal(buf[2], 0x06);
	assert_int_equal(scst_build_inquiry(vpd80, 6, &disk, buf, sizeof(buf),
					    &err), 12);
	assert_int_equal(buf[1], 0x80);
	assert_int_equal(scst_build_inquiry(bad, 6, &disk, buf, sizeof(buf),
					    &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true, 2, -1);
}

/* ---------------------------------------------------------------------- */
/* Mode parameters                                                        */
/* ---------------------------------------------------------------------- */

static const struct scst_mode_params mode = {
	.wce = true,
	.queue_alg = 1,
	.dpofua = true,
	.block_size = 512,
	.nblocks = 0x200000,
	.def_wce = true,
	.def_queue_alg = 1,
};

/* The current pages of @mode, SBC-3 §6.4.7, §6.4.5, SPC-4 §7.5.8, 7.5.13 */
static const u8 pg_rw[12] = { 0x01, 0x0a, 0xc0 };
static const u8 pg_caching[20] = { 0x08, 0x12, 0x04 };
static const u8 pg_control[12] = {
	0x0a, 0x0a, 0x02, 0x10, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0, 0,
};
static const u8 pg_iec[12] = { 0x1c, 0x0a, 0x08 };

static int mode_sense6(const struct scst_mode_params *p, u8 b1, u8 b2,
		       u8 b3, u8 *buf, size_t len, struct scst_cdb_err *err)
{
	const u8 cdb[6] = { 0x1a, b1, b2, b3, (u8)len };

	fill(buf, len);
	return scst_build_mode_sense(cdb, sizeof(cdb), p, buf, len, err);
}

static int mode_sense10(const struct scst_mode_params *p, u8 b1, u8 b2,
			u8 b3, u8 *buf, size_t len, struct scst_cdb_err *err)
{
	u8 cdb[10] = { 0x5a, b1, b2, b3 };

	put_unaligned_be16(len, cdb + 7);
	fill(buf, len);
	return scst_build_mode_sense(cdb, sizeof(cdb), p, buf, len, err);
}

static void test_mode_sense6_caching(void **state)
{
	/* header, short block descriptor, caching page */
	u8 want[32] = {
		0x1f, 0x00, 0x10, 0x08,
		0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
	};
	struct scst_cdb_err err;
	u8 buf[64];

	(void)state;
	memcpy(want + 12, pg_caching, 20);
	CHECK_BUILT(mode_sense6(&mode, 0, 0x08, 0, buf, sizeof(buf), &err),
		    buf, want, sizeof(want));
	assert_filled(buf, sizeof(want), sizeof(buf));
	/* subpage FFh: the page and its subpages (none) */
	CHECK_BUILT(mode_sense6(&mode, 0, 0x08, 0xff, buf, sizeof(buf), &err),
		    buf, want, sizeof(want));
	/* cut to 4 bytes by the allocation length */
	assert_int_equal(mode_sense6(&mode, 0, 0x08, 0, buf, 4, &err), 32);
	assert_bytes(buf, want, 4);
}

static void test_mode_sense6_all_dbd(void **state)
{
	u8 want[60] = { 0x3b, 0x00, 0x10, 0x00 };
	struct scst_cdb_err err;
	u8 buf[128];

	(void)state;
	memcpy(want + 4, pg_rw, 12);
	memcpy(want + 16, pg_caching, 20);
	memcpy(want + 36, pg_control, 12);
	memcpy(want + 48, pg_iec, 12);
	CHECK_BUILT(mode_sense6(&mode, 0x08, 0x3f, 0, buf, sizeof(buf), &err),
		    buf, want, sizeof(want));
	assert_filled(buf, sizeof(want), sizeof(buf));
	CHECK_BUILT(mode_sense6(&mode, 0x08, 0x3f, 0xff, buf, sizeof(buf),
				&err), buf, want, sizeof(want));
}

static void test_mode_sense10_llbaa(void **state)
{
	static const u8 want[36] = {
		0x00, 0x22, 0x00, 0x10, 0x01, 0x00, 0x00, 0x10,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
		0x0a, 0x0a, 0x02, 0x10, 0x00, 0x00, 0x00, 0x00,
		0xff, 0xff, 0x00, 0x00,
	};
	/* MODE SENSE(10) without LLBAA: a short descriptor */
	static const u8 want_short[28] = {
		0x00, 0x1a, 0x00, 0x10, 0x00, 0x00, 0x00, 0x08,
		0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
		0x0a, 0x0a, 0x02, 0x10, 0x00, 0x00, 0x00, 0x00,
		0xff, 0xff, 0x00, 0x00,
	};
	struct scst_cdb_err err;
	u8 buf[64];

	(void)state;
	CHECK_BUILT(mode_sense10(&mode, 0x10, 0x0a, 0, buf, sizeof(buf),
				 &err), buf, want, sizeof(want));
	assert_filled(buf, sizeof(want), sizeof(buf));
	CHECK_BUILT(mode_sense10(&mode, 0x00, 0x0a, 0, buf, sizeof(buf),
				 &err), buf, want_short, sizeof(want_short));
	assert_filled(buf, sizeof(want_short), sizeof(buf));
}

static void test_mode_sense_capacity(void **state)
{
	struct scst_mode_params p = mode;
	struct scst_cdb_err err;
	u8 buf[64];

	(void)state;
	p.nblocks = 0x123456789ULL;
	p.block_size = 4096;
	/* short: FFFFFFFFh; long: the capacity */
	assert_int_equal(mode_sense6(&p, 0, 0x1c, 0, buf, sizeof(buf), &err),
			 24);
	assert_bytes(buf + 4, (const u8[]){ 0xff, 0xff, 0xff, 0xff, 0x00,
		     0x00, 0x10, 0x00 }, 8);
	assert_int_equal(mode_sense10(&p, 0x10, 0x1c, 0, buf, sizeof(buf),
				      &err), 36);
	assert_bytes(buf + 8, (const u8[]){ 0, 0, 0, 0x01, 0x23, 0x45, 0x67,
		     0x89, 0, 0, 0, 0, 0x00, 0x00, 0x10, 0x00 }, 16);
}

static void test_mode_sense_changeable_default(void **state)
{
	/* SPC-4 §6.11.1: PC 01b; the block descriptor has nothing */
	static const u8 chg[] = {
		0x43, 0x00, 0x10, 0x08,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x08, 0x12, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0,
		0x0a, 0x0a, 0x04, 0xf0, 0x08, 0, 0, 0, 0, 0, 0, 0,
		0x1c, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct scst_mode_params p = mode;
	struct scst_cdb_err err;
	u8 buf[128];

	(void)state;
	CHECK_BUILT(mode_sense6(&p, 0, 0x40 | 0x3f, 0, buf, sizeof(buf),
				&err), buf, chg, sizeof(chg));
	assert_filled(buf, sizeof(chg), sizeof(buf));

	/* Defaults differ from the current values. */
	p.wce = false;
	p.d_sense = true;
	p.queue_alg = 0;
	p.swp = true;
	assert_int_equal(mode_sense6(&p, 0x08, 0x08, 0, buf, sizeof(buf),
				     &err), 24);
	assert_int_equal(buf[2], 0x90);		/* WP (SWP), DPOFUA */
	assert_int_equal(buf[6], 0x00);		/* current: WCE = 0 */
	assert_int_equal(mode_sense6(&p, 0x08, 0x80 | 0x08, 0, buf,
				     sizeof(buf), &err), 24);
	assert_int_equal(buf[6], 0x04);		/* default: WCE = 1 */
	assert_int_equal(mode_sense6(&p, 0x08, 0x0a, 0, buf, sizeof(buf),
				     &err), 16);
	assert_bytes(buf + 4, (const u8[]){ 0x0a, 0x0a, 0x06, 0x00, 0x08 },
		     5);
	assert_int_equal(mode_sense6(&p, 0x08, 0x80 | 0x0a, 0, buf,
				     sizeof(buf), &err), 16);
	assert_bytes(buf + 4, pg_control, 12);

	/* TST, TAS, RCD, read-only LU without DPOFUA */
	p.tst = 1;
	p.tas = true;
	p.rcd = true;
	p.swp = false;
	p.read_only = true;
	p.dpofua = false;
	assert_int_equal(mode_sense6(&p, 0x08, 0x0a, 0, buf, sizeof(buf),
				     &err), 16);
	assert_int_equal(buf[2], 0x80);
	assert_bytes(buf + 4, (const u8[]){ 0x0a, 0x0a, 0x26, 0x00, 0x00,
		     0x40 }, 6);
	assert_int_equal(mode_sense6(&p, 0x08, 0x08, 0, buf, sizeof(buf),
				     &err), 24);
	assert_int_equal(buf[6], 0x01);
}

static void test_mode_sense_errors(void **state)
{
	static const u8 read10[10] = { 0x28 };
	struct scst_cdb_err err;
	u8 buf[64];

	(void)state;
	/* saved values */
	assert_int_equal(mode_sense6(&mode, 0, 0xc0 | 0x08, 0, buf,
				     sizeof(buf), &err), -EINVAL);
	assert_err(&err, SCST_SENSE_SAVING_PARAMS_UNSUP, true, 2, 7);
	assert_int_equal(mode_sense10(&mode, 0, 0xff, 0, buf, sizeof(buf),
				      &err), -EINVAL);
	assert_err(&err, SCST_SENSE_SAVING_PARAMS_UNSUP, true, 2, 7);
	/* pages we do not have */
	assert_int_equal(mode_sense6(&mode, 0, 0x19, 0, buf, sizeof(buf),
				     &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true, 2, 5);
	assert_int_equal(mode_sense6(&mode, 0, 0x00, 0, buf, sizeof(buf),
				     &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true, 2, 5);
	/* subpages other than 00h and FFh */
	assert_int_equal(mode_sense10(&mode, 0, 0x0a, 0x01, buf, sizeof(buf),
				      &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true, 3, -1);
	assert_int_equal(mode_sense6(&mode, 0, 0x3f, 0xfe, buf, sizeof(buf),
				     &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true, 3, -1);
	/* not a MODE SENSE, or too short */
	assert_int_equal(scst_build_mode_sense(read10, 10, &mode, buf,
					       sizeof(buf), &err), -EINVAL);
	assert_int_equal(scst_build_mode_sense((const u8[]){ 0x5a, 0, 0x3f },
					       6, &mode, buf, sizeof(buf),
					       &err), -EINVAL);
}

static int mode_select(const u8 *cdb, const u8 *data, size_t len,
		       struct scst_mode_params *p, struct scst_cdb_err *err)
{
	unsigned int cdb_len = cdb[0] == 0x55 ? 10 : 6;

	memset(err, FILL, sizeof(*err));
	return scst_parse_mode_select(cdb, cdb_len, data, len, p, err);
}

static void test_mode_select_accept(void **state)
{
	static const u8 sel6[6] = { 0x15, 0x10, 0, 0, 24 };
	static const u8 sel10[10] = { 0x55, 0x10, 0, 0, 0, 0, 0, 0, 20 };
	struct scst_mode_params p = mode, want;
	struct scst_cdb_err err;
	u8 data[64];

	(void)state;
	/* MODE SELECT(6): WCE off */
	memset(data, 0, sizeof(data));
	memcpy(data + 4, pg_caching, 20);
	data[6] = 0x00;
	assert_int_equal(mode_select(sel6, data, 24, &p, &err),
			 SCST_MODE_CHANGED_WCE);
	want = mode;
	want.wce = false;
	assert_memory_equal(&p, &want, sizeof(p));

	/* The same again changes nothing. */
	assert_int_equal(mode_select(sel6, data, 24, &p, &err), 0);

	/* MODE SELECT(10): D_SENSE on, QAM 0, SWP on */
	memset(data, 0, sizeof(data));
	memcpy(data + 8, pg_control, 12);
	data[10] |= 0x04;
	data[11] = 0x00;
	data[12] = 0x08;
	assert_int_equal(mode_select(sel10, data, 20, &p, &err),
			 SCST_MODE_CHANGED_D_SENSE |
			 SCST_MODE_CHANGED_QUEUE_ALG | SCST_MODE_CHANGED_SWP);
	want.d_sense = true;
	want.queue_alg = 0;
	want.swp = true;
	assert_memory_equal(&p, &want, sizeof(p));

	/* PS set (as MODE SENSE may return it) is ignored */
	p = mode;
	memset(data, 0, sizeof(data));
	memcpy(data + 4, pg_caching, 20);
	data[4] |= 0x80;
	assert_int_equal(mode_select(sel6, data, 24, &p, &err), 0);

	/* PARAMETER LIST LENGTH 0: nothing */
	assert_int_equal(mode_select((const u8[6]){ 0x15, 0x10 }, data, 24,
				     &p, &err), 0);
	assert_memory_equal(&p, &mode, sizeof(p));
}

static void test_mode_select_blkdesc(void **state)
{
	static const u8 sel6[6] = { 0x15, 0x10, 0, 0, 32 };
	static const u8 sel10[10] = { 0x55, 0x10, 0, 0, 0, 0, 0, 0, 44 };
	struct scst_mode_params p = mode;
	struct scst_cdb_err err;
	u8 data[64];

	(void)state;
	/* short descriptor restating the capacity and block length */
	memset(data, 0, sizeof(data));
	data[3] = 8;
	put_unaligned_be32(0x200000, data + 4);
	put_unaligned_be24(512, data + 9);
	memcpy(data + 12, pg_caching, 20);
	data[14] = 0;
	assert_int_equal(mode_select(sel6, data, 32, &p, &err),
			 SCST_MODE_CHANGED_WCE);
	/* NUMBER OF LOGICAL BLOCKS 0: keep the capacity */
	put_unaligned_be32(0, data + 4);
	assert_int_equal(mode_select(sel6, data, 32, &p, &err), 0);
	/* another capacity, another block length */
	put_unaligned_be32(0x100000, data + 4);
	assert_int_equal(mode_select(sel6, data, 32, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 4,
		   -1);
	put_unaligned_be32(0x200000, data + 4);
	put_unaligned_be24(4096, data + 9);
	assert_int_equal(mode_select(sel6, data, 32, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 9,
		   -1);
	/* a BLOCK DESCRIPTOR LENGTH that is not 8 */
	data[3] = 4;
	assert_int_equal(mode_select(sel6, data, 32, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 3,
		   -1);

	/* MODE SELECT(10), LONGLBA, long descriptor */
	p = mode;
	memset(data, 0, sizeof(data));
	data[4] = 0x01;
	data[7] = 16;
	put_unaligned_be64(0x200000, data + 8);
	put_unaligned_be32(512, data + 20);
	memcpy(data + 24, pg_control, 12);
	memcpy(data + 36, (const u8[]){ 0x1c, 0x0a, 0x08 }, 3);
	memset(data + 39, 0, 5);
	assert_int_equal(mode_select(sel10, data, 44, &p, &err), -EINVAL);
	/* the informational exceptions page is 12 bytes: list too short */
	assert_err(&err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false, -1, -1);
	assert_int_equal(mode_select((const u8[10]){ 0x55, 0x10, 0, 0, 0, 0,
				     0, 0, 48 }, data, 48, &p, &err), 0);
	/* a long descriptor without LONGLBA */
	data[4] = 0;
	assert_int_equal(mode_select(sel10, data, 44, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 6,
		   -1);
	/* long descriptor: another block length */
	data[4] = 1;
	put_unaligned_be32(520, data + 20);
	assert_int_equal(mode_select(sel10, data, 44, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 20,
		   -1);
}

static void test_mode_select_reject(void **state)
{
	static const u8 sel6[6] = { 0x15, 0x10, 0, 0, 40 };
	struct scst_mode_params p = mode;
	struct scst_cdb_err err;
	u8 data[64];

	(void)state;
	memset(data, 0, sizeof(data));
	memcpy(data + 4, pg_caching, 20);
	memcpy(data + 24, pg_control, 12);

	/* RCD is not changeable: caching byte 2 bit 0 */
	data[6] = 0x01;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 6, 0);
	/* ... nor is WCE's neighbour, the whole rest of the page */
	data[6] = 0x04;
	data[17] = 0x20;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 17,
		   7);
	data[17] = 0;
	/* TST in the control page: byte 2 bits 7-5, pointer to bit 7 */
	data[26] |= 0x20;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 26,
		   7);
	data[26] = pg_control[2];
	/* BUSY TIMEOUT PERIOD, bytes 8-9: pointer to its first byte */
	data[33] = 0x00;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 32,
		   7);
	data[33] = 0xff;
	/* QERR, control byte 3 bits 2-1: pointer to bit 2 */
	data[27] |= 0x02;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 27,
		   2);
	data[27] = 0x10;
	/* SWP's neighbour UA_INTLCK_CTRL, byte 4 bits 5-4 */
	data[28] = 0x08 | 0x10;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 28,
		   5);
	data[28] = 0;
	/*
	 * QUEUE ALGORITHM MODIFIER 2 is reserved; the valid WCE change in
	 * the page before is not applied either.
	 */
	data[6] = 0x00;
	data[27] = 0x20;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 27,
		   7);
	assert_memory_equal(&p, &mode, sizeof(p));
	data[27] = 0x10;

	/* wrong PAGE LENGTH */
	data[5] = 0x0a;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 5,
		   -1);
	data[5] = 0x12;
	/* a page we do not have, a sub_page format page */
	data[24] = 0x19;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 24,
		   5);
	data[24] = 0x4a;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 24,
		   6);
	data[24] = 0x0a;
	/* MEDIUM TYPE */
	data[1] = 0x01;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 1,
		   -1);
	data[1] = 0;
	assert_int_equal(mode_select(sel6, data, 36, &p, &err),
			 SCST_MODE_CHANGED_WCE);
}

static void test_mode_select_truncated(void **state)
{
	struct scst_mode_params p = mode;
	struct scst_cdb_err err;
	u8 cdb6[6] = { 0x15, 0x10 };
	u8 data[64];
	size_t len;

	(void)state;
	memset(data, 0, sizeof(data));
	memcpy(data + 4, pg_caching, 20);
	data[6] = 0;
	/* any cut inside the header or the page */
	for (len = 1; len < 24; len++) {
		cdb6[4] = len;
		if (len == 4) {
			/* the header alone is a valid list */
			assert_int_equal(mode_select(cdb6, data, len, &p,
						     &err), 0);
			continue;
		}
		assert_int_equal(mode_select(cdb6, data, len, &p, &err),
				 -EINVAL);
		assert_err(&err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false, -1,
			   -1);
	}
	/* less data arrived than the PARAMETER LIST LENGTH says */
	cdb6[4] = 24;
	assert_int_equal(mode_select(cdb6, data, 23, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false, -1, -1);
	/* block descriptor longer than the list */
	data[3] = 8;
	cdb6[4] = 10;
	assert_int_equal(mode_select(cdb6, data, 10, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false, -1, -1);
	assert_memory_equal(&p, &mode, sizeof(p));
}

static void test_mode_select_cdb(void **state)
{
	struct scst_mode_params p = mode;
	struct scst_cdb_err err;
	u8 data[24] = { 0 };

	(void)state;
	memcpy(data + 4, pg_caching, 20);
	assert_int_equal(mode_select((const u8[6]){ 0x15, 0x11, 0, 0, 24 },
				     data, 24, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true, 1, 0);
	assert_int_equal(mode_select((const u8[10]){ 0x55, 0x00, 0, 0, 0, 0,
				     0, 0, 24 }, data, 24, &p, &err), -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true, 1, 4);
	assert_int_equal(scst_parse_mode_select((const u8[6]){ 0x1a }, 6,
						data, 24, &p, &err), -EINVAL);
	assert_int_equal(scst_parse_mode_select((const u8[6]){ 0x55, 0x10 },
						6, data, 24, &p, &err),
			 -EINVAL);
}

/* What MODE SENSE returns, MODE SELECT takes back unchanged (sdparm). */
static void test_mode_sense_select_roundtrip(void **state)
{
	struct scst_mode_params p = mode;
	struct scst_cdb_err err;
	u8 buf[128], cdb[10] = { 0x55, 0x10 };
	int len;

	(void)state;
	p.nblocks = 0x123456789ULL;
	len = mode_sense10(&p, 0x10, 0x3f, 0, buf, sizeof(buf), &err);
	assert_int_equal(len, 8 + 16 + 56);
	put_unaligned_be16(len, cdb + 7);
	assert_int_equal(mode_select(cdb, buf, len, &p, &err), 0);
	len = mode_sense6(&p, 0, 0x3f, 0, buf, sizeof(buf), &err);
	assert_int_equal(len, 4 + 8 + 56);
	assert_int_equal(mode_select((const u8[6]){ 0x15, 0x10, 0, 0,
				     (u8)len }, buf, len, &p, &err), 0);
}

/* ---------------------------------------------------------------------- */
/* READ CAPACITY, REPORT LUNS, GET LBA STATUS, UNMAP, miscompare          */
/* ---------------------------------------------------------------------- */

static void test_read_capacity10(void **state)
{
	static const u8 small[8] = {
		0x00, 0x1f, 0xff, 0xff, 0x00, 0x00, 0x02, 0x00,
	};
	static const u8 big[8] = {
		0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x10, 0x00,
	};
	static const u8 edge[8] = {
		0xff, 0xff, 0xff, 0xfe, 0x00, 0x00, 0x02, 0x00,
	};
	u8 buf[16];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_read_capacity10(512, 0x200000, buf,
					       sizeof(buf)), buf, small, 8);
	assert_filled(buf, 8, sizeof(buf));
	CHECK_BUILT(scst_build_read_capacity10(4096, (1ULL << 32) + 5, buf,
					       sizeof(buf)), buf, big, 8);
	CHECK_BUILT(scst_build_read_capacity10(4096, 1ULL << 32, buf,
					       sizeof(buf)), buf, big, 8);
	CHECK_BUILT(scst_build_read_capacity10(512, 0xffffffffULL, buf,
					       sizeof(buf)), buf, edge, 8);
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_read_capacity10(512, 0x200000, buf, 3),
			 8);
	assert_bytes(buf, small, 3);
	assert_filled(buf, 3, sizeof(buf));
}

static void test_read_capacity16(void **state)
{
	static const u8 want[32] = {
		0x00, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff,
		0x00, 0x00, 0x02, 0x00, 0x00, 0x03, 0xc0, 0x00,
	};
	static const u8 plain[32] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x1f, 0xff, 0xff,
		0x00, 0x00, 0x10, 0x00,
	};
	u8 buf[48];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_read_capacity16(512, 1ULL << 33, 3, true, true,
					       buf, sizeof(buf)), buf, want,
		    32);
	assert_filled(buf, 32, sizeof(buf));
	CHECK_BUILT(scst_build_read_capacity16(4096, 0x200000, 0, false,
					       false, buf, sizeof(buf)), buf,
		    plain, 32);
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_read_capacity16(512, 1ULL << 33, 3, true,
						    true, buf, 12), 32);
	assert_bytes(buf, want, 12);
	assert_filled(buf, 12, sizeof(buf));
}

static void test_report_luns(void **state)
{
	static const u64 luns[] = { 0, 1, 255, 256, 16383 };
	static const u8 want[48] = {
		0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0, 0, 0, 0, 0, 0,
		0x00, 0x01, 0, 0, 0, 0, 0, 0,
		0x00, 0xff, 0, 0, 0, 0, 0, 0,
		0x41, 0x00, 0, 0, 0, 0, 0, 0,
		0x7f, 0xff, 0, 0, 0, 0, 0, 0,
	};
	static const u8 empty[8] = { 0 };
	u8 buf[64];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_report_luns(luns, 5, buf, sizeof(buf)), buf,
		    want, 48);
	assert_filled(buf, 48, sizeof(buf));
	/* allocation length 16: LUN LIST LENGTH still counts all five */
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_report_luns(luns, 5, buf, 16), 48);
	assert_bytes(buf, want, 16);
	assert_filled(buf, 16, sizeof(buf));
	/* cut inside an entry */
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_report_luns(luns, 5, buf, 35), 48);
	assert_bytes(buf, want, 35);
	assert_filled(buf, 35, sizeof(buf));
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_report_luns(NULL, 0, buf, sizeof(buf)), buf,
		    empty, 8);
	assert_filled(buf, 8, sizeof(buf));
	assert_int_equal(scst_build_report_luns(luns, 0x10000000, buf, 0),
			 -EOVERFLOW);
}

static void test_lba_status(void **state)
{
	static const u8 want[24] = {
		0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
		0x00, 0x00, 0x00, 0x20, 0x01, 0x00, 0x00, 0x00,
	};
	static const u8 clamped[24] = {
		0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
		0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	};
	u8 buf[32];

	(void)state;
	fill(buf, sizeof(buf));
	CHECK_BUILT(scst_build_lba_status(0x1000, 0x20,
					  SCST_PROV_STATUS_DEALLOCATED, buf,
					  sizeof(buf)), buf, want, 24);
	assert_filled(buf, 24, sizeof(buf));
	CHECK_BUILT(scst_build_lba_status(1ULL << 33, 1ULL << 40,
					  SCST_PROV_STATUS_MAPPED, buf,
					  sizeof(buf)), buf, clamped, 24);
	fill(buf, sizeof(buf));
	assert_int_equal(scst_build_lba_status(0x1000, 0x20, 1, buf, 8), 24);
	assert_bytes(buf, want, 8);
	assert_filled(buf, 8, sizeof(buf));
}

/* An UNMAP parameter list with @n descriptors from @d (lba, nblocks). */
static size_t unmap_list(u8 *buf, const u64 (*d)[2], size_t n)
{
	size_t i, len = 8 + 16 * n;

	memset(buf, 0, len);
	put_unaligned_be16(len - 2, buf);
	put_unaligned_be16(16 * n, buf + 2);
	for (i = 0; i < n; i++) {
		put_unaligned_be64(d[i][0], buf + 8 + 16 * i);
		put_unaligned_be32((u32)d[i][1], buf + 16 + 16 * i);
	}
	return len;
}

static void test_unmap_good(void **state)
{
	static const u64 d[3][2] = { { 0, 8 }, { 100, 16 }, { 1000, 0 } };
	/* SBC-3 §5.28.2, two descriptors written out */
	static const u8 two[40] = {
		0x00, 0x26, 0x00, 0x20, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x08, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 100, 0x00, 0x00, 0x00, 0x10, 0, 0, 0, 0,
	};
	struct scst_cdb_err err;
	u8 buf[64];
	u64 lba;
	u32 nb;

	(void)state;
	assert_int_equal(scst_parse_unmap(two, sizeof(two), 1000, 0, 0, &err),
			 2);
	scst_unmap_desc(two, 0, &lba, &nb);
	assert_int_equal(lba, 0);
	assert_int_equal(nb, 8);
	scst_unmap_desc(two, 1, &lba, &nb);
	assert_int_equal(lba, 100);
	assert_int_equal(nb, 16);

	/* a zero-length range at the capacity is fine */
	assert_int_equal(scst_parse_unmap(buf, unmap_list(buf, d, 3), 1000,
					  3, 24, &err), 3);
	/* no data, no descriptors */
	assert_int_equal(scst_parse_unmap(buf, 0, 1000, 0, 0, &err), 0);
	put_unaligned_be16(0, buf + 2);
	assert_int_equal(scst_parse_unmap(buf, 8, 1000, 0, 0, &err), 0);
	/* a trailing partial descriptor is ignored */
	unmap_list(buf, d, 2);
	put_unaligned_be16(20, buf + 2);
	assert_int_equal(scst_parse_unmap(buf, 40, 1000, 0, 0, &err), 1);
}

static void test_unmap_bad(void **state)
{
	static const u64 d[2][2] = { { 0, 8 }, { 100, 16 } };
	static const u64 last[1][2] = { { 999, 2 } };
	static const u64 wrap[1][2] = { { ~0ULL, 2 } };
	static const u64 past[1][2] = { { 1001, 0 } };
	struct scst_cdb_err err;
	size_t len;
	u8 buf[64];

	(void)state;
	/* 1 to 7 bytes */
	for (len = 1; len < 8; len++) {
		memset(buf, 0, sizeof(buf));
		memset(&err, FILL, sizeof(err));
		assert_int_equal(scst_parse_unmap(buf, len, 1000, 0, 0, &err),
				 -EINVAL);
		assert_err(&err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false, -1,
			   -1);
	}
	/* descriptor data longer than the list */
	len = unmap_list(buf, d, 2);
	assert_int_equal(scst_parse_unmap(buf, len - 1, 1000, 0, 0, &err),
			 -EINVAL);
	assert_err(&err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false, -1, -1);
	put_unaligned_be16(0xfff0, buf + 2);
	assert_int_equal(scst_parse_unmap(buf, len, 1000, 0, 0, &err),
			 -EINVAL);
	assert_err(&err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false, -1, -1);
	/* too many descriptors, too many blocks */
	len = unmap_list(buf, d, 2);
	assert_int_equal(scst_parse_unmap(buf, len, 1000, 1, 0, &err),
			 -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 2,
		   -1);
	assert_int_equal(scst_parse_unmap(buf, len, 1000, 2, 23, &err),
			 -EINVAL);
	assert_err(&err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST, false, 32,
		   -1);
	assert_int_equal(scst_parse_unmap(buf, len, 1000, 2, 24, &err), 2);
	/* out of range: past the end, wrapping, LBA past the capacity */
	len = unmap_list(buf, last, 1);
	assert_int_equal(scst_parse_unmap(buf, len, 1000, 0, 0, &err),
			 -EINVAL);
	assert_err(&err, SCST_SENSE_LBA_OUT_OF_RANGE, false, -1, -1);
	assert_int_equal(scst_parse_unmap(buf, len, 1001, 0, 0, &err), 1);
	len = unmap_list(buf, wrap, 1);
	assert_int_equal(scst_parse_unmap(buf, len, ~0ULL, 0, 0, &err),
			 -EINVAL);
	assert_err(&err, SCST_SENSE_LBA_OUT_OF_RANGE, false, -1, -1);
	len = unmap_list(buf, past, 1);
	assert_int_equal(scst_parse_unmap(buf, len, 1000, 0, 0, &err),
			 -EINVAL);
	assert_err(&err, SCST_SENSE_LBA_OUT_OF_RANGE, false, -1, -1);
}

static void test_unmap_random(void **state)
{
	struct scst_cdb_err err;
	u32 seed = 0x5eed1234;
	size_t len, i, iter;
	u8 *buf;
	int n;

	(void)state;
	for (iter = 0; iter < 2000; iter++) {
		len = unit_rand(&seed) % 80;
		buf = malloc(len ? len : 1);
		assert_non_null(buf);
		for (i = 0; i < len; i++)
			buf[i] = unit_rand(&seed);
		if (len > 3)
			buf[2] = 0;
		n = scst_parse_unmap(buf, len, unit_rand(&seed), 0, 0, &err);
		if (n > 0) {
			u64 lba;
			u32 nb;

			assert_true((size_t)(8 + 16 * n) <= len);
			scst_unmap_desc(buf, n - 1, &lba, &nb);
		}
		free(buf);
	}
}

static void test_miscompare(void **state)
{
	static const u8 a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	u8 b[8];

	(void)state;
	memcpy(b, a, sizeof(b));
	assert_int_equal(scst_miscompare_offset(a, b, 8), 8);
	assert_int_equal(scst_miscompare_offset(a, b, 0), 0);
	b[7] = 0;
	assert_int_equal(scst_miscompare_offset(a, b, 8), 7);
	assert_int_equal(scst_miscompare_offset(a, b, 7), 7);
	b[2] = 0;
	assert_int_equal(scst_miscompare_offset(a, b, 8), 2);
	b[0] = 0;
	assert_int_equal(scst_miscompare_offset(a, b, 8), 0);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_std_inquiry),
		cmocka_unit_test(test_inquiry_no_lun),
		cmocka_unit_test(test_vpd_00),
		cmocka_unit_test(test_vpd_80),
		cmocka_unit_test(test_vpd_83),
		cmocka_unit_test(test_vpd_83_long_name),
		cmocka_unit_test(test_vpd_86),
		cmocka_unit_test(test_vpd_b0),
		cmocka_unit_test(test_vpd_b1_b2),
		cmocka_unit_test(test_vpd_unsupported),
		cmocka_unit_test(test_build_inquiry_cdb),
		cmocka_unit_test(test_mode_sense6_caching),
		cmocka_unit_test(test_mode_sense6_all_dbd),
		cmocka_unit_test(test_mode_sense10_llbaa),
		cmocka_unit_test(test_mode_sense_capacity),
		cmocka_unit_test(test_mode_sense_changeable_default),
		cmocka_unit_test(test_mode_sense_errors),
		cmocka_unit_test(test_mode_select_accept),
		cmocka_unit_test(test_mode_select_blkdesc),
		cmocka_unit_test(test_mode_select_reject),
		cmocka_unit_test(test_mode_select_truncated),
		cmocka_unit_test(test_mode_select_cdb),
		cmocka_unit_test(test_mode_sense_select_roundtrip),
		cmocka_unit_test(test_read_capacity10),
		cmocka_unit_test(test_read_capacity16),
		cmocka_unit_test(test_report_luns),
		cmocka_unit_test(test_lba_status),
		cmocka_unit_test(test_unmap_good),
		cmocka_unit_test(test_unmap_bad),
		cmocka_unit_test(test_unmap_random),
		cmocka_unit_test(test_miscompare),
	};

	return cmocka_run_group_tests_name("spc", tests, NULL, NULL);
}
