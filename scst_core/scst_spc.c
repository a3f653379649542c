// SPDX-License-Identifier: GPL-2.0-only
/*
 * Data the core and the handlers return for the SPC-4 and SBC-3 commands
 * they emulate: standard INQUIRY data and VPD pages (SPC-4 §6.6, §7.8,
 * SBC-3 §6.5), mode parameters (SPC-4 §7.5, SBC-3 §6.4), READ CAPACITY
 * (SBC-3 §5.16, §5.17), REPORT LUNS (SPC-4 §6.33) and GET LBA STATUS
 * (SBC-3 §5.6) data, and the parameter lists of MODE SELECT (SPC-4 §6.9,
 * §6.10) and UNMAP (SBC-3 §5.28).
 *
 * Every builder knows the full length of its data up front, writes only
 * the bytes that fit in the caller's buffer and returns the full length:
 * the caller truncates to the ALLOCATION LENGTH (SPC-4 §4.2.5.6), and a
 * short buffer never truncates a length field inside the data.
 */

#include <scst_spc.h>

/**
 * struct spc_out - a buffer that drops what is written past its end
 * @buf: the buffer
 * @len: its size
 */
struct spc_out {
	u8 *buf;
	size_t len;
};

static void out_mem(const struct spc_out *o, size_t off, const void *src,
		    size_t n)
{
	if (off >= o->len)
		return;
	memcpy(o->buf + off, src, min(n, o->len - off));
}

static void out_zero(const struct spc_out *o, size_t off, size_t n)
{
	if (off >= o->len)
		return;
	memset(o->buf + off, 0, min(n, o->len - off));
}

static void out_u8(const struct spc_out *o, size_t off, u8 v)
{
	if (off < o->len)
		o->buf[off] = v;
}

static void out_be16(const struct spc_out *o, size_t off, u16 v)
{
	u8 b[2];

	put_unaligned_be16(v, b);
	out_mem(o, off, b, sizeof(b));
}

static void out_be24(const struct spc_out *o, size_t off, u32 v)
{
	u8 b[3];

	put_unaligned_be24(v, b);
	out_mem(o, off, b, sizeof(b));
}

static void out_be32(const struct spc_out *o, size_t off, u32 v)
{
	u8 b[4];

	put_unaligned_be32(v, b);
	out_mem(o, off, b, sizeof(b));
}

static void out_be64(const struct spc_out *o, size_t off, u64 v)
{
	u8 b[8];

	put_unaligned_be64(v, b);
	out_mem(o, off, b, sizeof(b));
}

/*
 * SPC-4 §4.4.1: ASCII data fields hold printable characters (20h-7Eh)
 * only, left-aligned and padded with spaces. Write @width bytes of @s
 * (NULL: empty), replacing anything unprintable with a space.
 */
static void out_ascii(const struct spc_out *o, size_t off, const char *s,
		      size_t width)
{
	size_t i, n = s ? strnlen(s, width) : 0;
	u8 c;

	for (i = 0; i < width; i++) {
		c = i < n ? (u8)s[i] : ' ';
		out_u8(o, off + i, c >= 0x20 && c <= 0x7e ? c : ' ');
	}
}

static size_t ascii_len(const char *s, size_t max)
{
	return s ? strnlen(s, max) : 0;
}

/* ---------------------------------------------------------------------- */
/* INQUIRY                                                                */
/* ---------------------------------------------------------------------- */

/* SPC-4 §7.7.2 table 471 (version descriptor values), no version claimed */
#define VD_SAM5			0x00a0
#define VD_SPC4			0x0460
#define VD_SBC3			0x04c0

/* SPC-4 §6.6.2: byte offsets of standard INQUIRY data. */
#define INQ_VENDOR		8
#define INQ_PRODUCT		16
#define INQ_REVISION		32
#define INQ_VERSION_DESC	58
#define INQ_NO_LUN_LEN		36

/* SPC-4 §7.8.6.1 table 482: designator header. */
#define DESIG_HDR_LEN		4
#define CODE_SET_BINARY		0x1
#define CODE_SET_ASCII		0x2
#define CODE_SET_UTF8		0x3
#define ASSOC_LU		0x00
#define ASSOC_PORT		0x10
#define ASSOC_TGT_DEV		0x20
#define PIV			0x80
#define DESIG_T10		0x1
#define DESIG_EUI64		0x2
#define DESIG_NAA		0x3
#define DESIG_REL_PORT		0x4
#define DESIG_TPG		0x5
#define DESIG_SCSI_NAME		0x8

/* VPD page lengths (header included). */
#define VPD_HDR_LEN		4
#define VPD_EXT_INQ_LEN		64
#define VPD_BLOCK_LIMITS_LEN	64
#define VPD_BDC_LEN		64
#define VPD_LBP_LEN		8

/*
 * SPC-4 §6.6.2 standard INQUIRY data byte 3: HISUP (LUNs use the SAM-5
 * hierarchical addressing model) and RESPONSE DATA FORMAT 2.
 */
#define INQ_HISUP_RDF2		0x12
/* SPC-4 §6.6.2 byte 7: CMDQUE, the full task management model. */
#define INQ_CMDQUE		0x02
/* VERSION: SPC-4. */
#define INQ_VERSION_SPC4	0x06

/**
 * scst_build_std_inquiry() - standard INQUIRY data, SPC-4 §6.6.2
 * @p: the logical unit
 * @buf: buffer for the data
 * @buflen: size of @buf; the data is cut to it
 *
 * VERSION 06h (SPC-4), HISUP, RESPONSE DATA FORMAT 2, CMDQUE, the
 * vendor, product and revision strings padded with spaces, and the
 * version descriptors SAM-5, SPC-4, SBC-3 (direct-access devices) and
 * the transport's.
 *
 * Return: the length of the data, SCST_INQ_STD_LEN.
 */
int scst_build_std_inquiry(const struct scst_inq_params *p, u8 *buf,
			   size_t buflen)
{
	struct spc_out o = { buf, buflen };
	size_t vd = INQ_VERSION_DESC;

	out_zero(&o, 0, SCST_INQ_STD_LEN);
	out_u8(&o, 0, p->dev_type & 0x1f);
	out_u8(&o, 1, p->removable ? 0x80 : 0);
	out_u8(&o, 2, INQ_VERSION_SPC4);
	out_u8(&o, 3, INQ_HISUP_RDF2);
	out_u8(&o, 4, SCST_INQ_STD_LEN - 5);
	out_u8(&o, 5, p->tpgs & 0x30);	/* TPGS, SPC-4 §6.6.2 */
	out_u8(&o, 7, INQ_CMDQUE);
	out_ascii(&o, INQ_VENDOR, p->vendor, 8);
	out_ascii(&o, INQ_PRODUCT, p->product, 16);
	out_ascii(&o, INQ_REVISION, p->revision, 4);

	out_be16(&o, vd, VD_SAM5);
	vd += 2;
	out_be16(&o, vd, VD_SPC4);
	vd += 2;
	if (p->dev_type == SCST_TYPE_DISK) {
		out_be16(&o, vd, VD_SBC3);
		vd += 2;
	}
	if (p->transport_vd)
		out_be16(&o, vd, p->transport_vd);
	return SCST_INQ_STD_LEN;
}
EXPORT_SYMBOL_GPL(scst_build_std_inquiry);

/**
 * scst_build_inquiry_no_lun() - INQUIRY data for a LUN that is not mapped
 * @buf: buffer for the data
 * @buflen: size of @buf; the data is cut to it
 *
 * SPC-4 §6.6.2: PERIPHERAL QUALIFIER 011b ("not capable of supporting a
 * peripheral device") with PERIPHERAL DEVICE TYPE 1Fh, 36 bytes with
 * VERSION 06h, RESPONSE DATA FORMAT 2 and blank identification strings.
 *
 * Return: the length of the data, 36.
 */
int scst_build_inquiry_no_lun(u8 *buf, size_t buflen)
{
	struct spc_out o = { buf, buflen };

	out_zero(&o, 0, INQ_NO_LUN_LEN);
	out_u8(&o, 0, 0x60 | SCST_TYPE_NO_LUN);
	out_u8(&o, 2, INQ_VERSION_SPC4);
	out_u8(&o, 3, INQ_HISUP_RDF2);
	out_u8(&o, 4, INQ_NO_LUN_LEN - 5);
	out_ascii(&o, INQ_VENDOR, NULL, 8 + 16 + 4);
	return INQ_NO_LUN_LEN;
}
EXPORT_SYMBOL_GPL(scst_build_inquiry_no_lun);

static bool vpd_page_supported(const struct scst_inq_params *p, u8 page)
{
	switch (page) {
	case SCST_VPD_SUPPORTED_PAGES:
	case SCST_VPD_UNIT_SERIAL:
	case SCST_VPD_DEVICE_ID:
	case SCST_VPD_EXTENDED_INQUIRY:
		return true;
	case SCST_VPD_BLOCK_LIMITS:
	case SCST_VPD_BLOCK_DEV_CHAR:
		return p->dev_type == SCST_TYPE_DISK;
	case SCST_VPD_LB_PROVISIONING:
		return p->dev_type == SCST_TYPE_DISK && p->thin_provisioned;
	default:
		return false;
	}
}

/* SPC-4 §7.8.1: PERIPHERAL QUALIFIER 000b, the device type, page, length. */
static void vpd_header(const struct spc_out *o,
		       const struct scst_inq_params *p, u8 page, size_t total)
{
	out_u8(o, 0, p->dev_type & 0x1f);
	out_u8(o, 1, page);
	out_be16(o, 2, total - VPD_HDR_LEN);
}

/* SPC-4 §7.8.16: Supported VPD Pages, in ascending order. */
static size_t vpd_supported_pages(const struct spc_out *o,
				  const struct scst_inq_params *p)
{
	static const u8 pages[] = {
		SCST_VPD_SUPPORTED_PAGES, SCST_VPD_UNIT_SERIAL,
		SCST_VPD_DEVICE_ID, SCST_VPD_EXTENDED_INQUIRY,
		SCST_VPD_BLOCK_LIMITS, SCST_VPD_BLOCK_DEV_CHAR,
		SCST_VPD_LB_PROVISIONING,
	};
	size_t i, off = VPD_HDR_LEN;

	for (i = 0; i < ARRAY_SIZE(pages); i++)
		if (vpd_page_supported(p, pages[i]))
			out_u8(o, off++, pages[i]);
	return off;
}

/* SPC-4 §7.8.17: Unit Serial Number. */
static size_t vpd_unit_serial(const struct spc_out *o,
			      const struct scst_inq_params *p)
{
	size_t n = ascii_len(p->unit_serial, SCST_INQ_SERIAL_MAX);

	out_ascii(o, VPD_HDR_LEN, p->unit_serial, n);
	return VPD_HDR_LEN + n;
}

static void desig_header(const struct spc_out *o, size_t off,
			 const struct scst_inq_params *p, u8 code_set,
			 u8 assoc, u8 type, size_t len)
{
	bool piv = assoc == ASSOC_PORT && p->piv;

	out_u8(o, off, (piv ? p->protocol_id << 4 : 0) | code_set);
	out_u8(o, off + 1, (piv ? PIV : 0) | assoc | type);
	out_u8(o, off + 2, 0);
	out_u8(o, off + 3, len);
}

/* SPC-4 §7.8.6.11: a SCSI name string, null-padded to a multiple of 4 */
static size_t desig_scsi_name(const struct spc_out *o, size_t off,
			      const struct scst_inq_params *p, u8 assoc,
			      const char *name)
{
	size_t n = strnlen(name, SCST_INQ_SCSI_NAME_MAX);
	size_t padded = (n + 1 + 3) & ~(size_t)3;

	desig_header(o, off, p, CODE_SET_UTF8, assoc, DESIG_SCSI_NAME, padded);
	out_mem(o, off + DESIG_HDR_LEN, name, n);
	out_zero(o, off + DESIG_HDR_LEN + n, padded - n);
	return DESIG_HDR_LEN + padded;
}

/* A binary designator (EUI-64, NAA) of the logical unit, as given */
static size_t desig_binary(const struct spc_out *o, size_t off,
			   const struct scst_inq_params *p, u8 type,
			   const u8 *id, u8 len)
{
	if (len > SCST_INQ_DESIG_ID_MAX)
		len = SCST_INQ_DESIG_ID_MAX;
	desig_header(o, off, p, CODE_SET_BINARY, ASSOC_LU, type, len);
	out_mem(o, off + DESIG_HDR_LEN, id, len);
	return DESIG_HDR_LEN + len;
}

/*
 * SPC-4 §7.8.6: Device Identification. Designators, each only where
 * the parameters provide it, the logical unit's as SCST lays them out
 * (the identities SCST's users' hosts know, see vdisk_identity_defaults()):
 *   SCSI name string (§7.8.6.11), target device: UTF-8, null-terminated,
 *   null-padded to a multiple of 4 bytes;
 *   T10 vendor ID based (§7.8.6.4), logical unit: vendor +
 *   @t10_vend_spec;
 *   EUI-64 (§7.8.6.5), logical unit;
 *   NAA (§7.8.6.6), logical unit;
 *   relative target port (§7.8.6.7), target port;
 *   target port group (§7.8.6.8), target port;
 *   SCSI name string, target port.
 */
static size_t vpd_device_id(const struct spc_out *o,
			    const struct scst_inq_params *p)
{
	size_t off = VPD_HDR_LEN, n;

	if (p->dev_scsi_name && p->dev_scsi_name[0])
		off += desig_scsi_name(o, off, p, ASSOC_TGT_DEV,
				       p->dev_scsi_name);
	if (p->t10_vend_spec) {
		n = ascii_len(p->t10_vend_spec, SCST_INQ_T10_VEND_SPEC_MAX);
		desig_header(o, off, p, CODE_SET_ASCII, ASSOC_LU, DESIG_T10,
			     8 + n);
		out_ascii(o, off + DESIG_HDR_LEN, p->vendor, 8);
		out_ascii(o, off + DESIG_HDR_LEN + 8, p->t10_vend_spec, n);
		off += DESIG_HDR_LEN + 8 + n;
	}
	if (p->eui64 && p->eui64_len)
		off += desig_binary(o, off, p, DESIG_EUI64, p->eui64,
				    p->eui64_len);
	if (p->naa && p->naa_len)
		off += desig_binary(o, off, p, DESIG_NAA, p->naa, p->naa_len);
	if (p->rel_tgt_id) {
		desig_header(o, off, p, CODE_SET_BINARY, ASSOC_PORT,
			     DESIG_REL_PORT, 4);
		out_be16(o, off + DESIG_HDR_LEN, 0);
		out_be16(o, off + DESIG_HDR_LEN + 2, p->rel_tgt_id);
		off += DESIG_HDR_LEN + 4;
	}
	if (p->tpg_id) {
		desig_header(o, off, p, CODE_SET_BINARY, ASSOC_PORT,
			     DESIG_TPG, 4);
		out_be16(o, off + DESIG_HDR_LEN, 0);
		out_be16(o, off + DESIG_HDR_LEN + 2, p->tpg_id);
		off += DESIG_HDR_LEN + 4;
	}
	if (p->tgt_port_name)
		off += desig_scsi_name(o, off, p, ASSOC_PORT,
				       p->tgt_port_name);
	return off;
}

/*
 * SPC-4 §7.8.7: Extended INQUIRY Data. HEADSUP, ORDSUP and SIMPSUP: all
 * task attributes; V_SUP: a volatile write cache.
 */
static size_t vpd_extended_inquiry(const struct spc_out *o,
				   const struct scst_inq_params *p)
{
	out_u8(o, 5, 0x07);
	out_u8(o, 6, p->write_cache ? 0x01 : 0);
	return VPD_EXT_INQ_LEN;
}

/*
 * SBC-3 §6.5.3: Block Limits. WSNZ = 1 (WRITE SAME of zero blocks is
 * refused, see scst_cdb_decode()); the unmap fields only when thin
 * provisioned.
 */
static size_t vpd_block_limits(const struct spc_out *o,
			       const struct scst_inq_params *p)
{
	out_u8(o, 4, 0x01);
	out_u8(o, 5, p->max_cw_len);
	out_be16(o, 6, p->opt_xfer_gran);
	out_be32(o, 8, p->max_xfer_len);
	out_be32(o, 12, p->opt_xfer_len);
	if (p->thin_provisioned) {
		out_be32(o, 20, p->max_unmap_lba_count);
		out_be32(o, 24, p->max_unmap_desc);
		out_be32(o, 28, p->unmap_gran);
		if (p->unmap_gran)
			out_be32(o, 32, 0x80000000 |
				 (p->unmap_gran_align & 0x7fffffff));
	}
	out_be64(o, 36, p->max_ws_len);
	return VPD_BLOCK_LIMITS_LEN;
}

/* SBC-3 §6.5.2: Block Device Characteristics. */
static size_t vpd_block_dev_char(const struct spc_out *o,
				 const struct scst_inq_params *p)
{
	/* MEDIUM ROTATION RATE: 0 not reported, 1 non-rotating medium */
	out_be16(o, 4, p->rotational ? 0 : 1);
	return VPD_BDC_LEN;
}

/*
 * SBC-3 §6.5.4: Logical Block Provisioning. LBPU, LBPWS, LBPWS10, LBPRZ;
 * ANC_SUP = 0, DP = 0; PROVISIONING TYPE 010b (thin provisioned).
 */
static size_t vpd_lb_provisioning(const struct spc_out *o,
				  const struct scst_inq_params *p)
{
	out_u8(o, 5, (p->lbpu ? 0x80 : 0) | (p->lbpws ? 0x40 : 0) |
		  (p->lbpws10 ? 0x20 : 0) | (p->lbprz ? 0x04 : 0));
	out_u8(o, 6, 0x02);
	return VPD_LBP_LEN;
}

/* Length of the page, for zeroing the output before it is written. */
static size_t vpd_len(const struct scst_inq_params *p, u8 page)
{
	struct spc_out none = { NULL, 0 };

	switch (page) {
	case SCST_VPD_SUPPORTED_PAGES:
		return vpd_supported_pages(&none, p);
	case SCST_VPD_UNIT_SERIAL:
		return vpd_unit_serial(&none, p);
	case SCST_VPD_DEVICE_ID:
		return vpd_device_id(&none, p);
	case SCST_VPD_EXTENDED_INQUIRY:
		return VPD_EXT_INQ_LEN;
	case SCST_VPD_BLOCK_LIMITS:
		return VPD_BLOCK_LIMITS_LEN;
	case SCST_VPD_BLOCK_DEV_CHAR:
		return VPD_BDC_LEN;
	default:
		return VPD_LBP_LEN;
	}
}

/**
 * scst_build_vpd() - a VPD page, SPC-4 §7.8, SBC-3 §6.5
 * @p: the logical unit
 * @page: PAGE CODE: 00h, 80h, 83h, 86h, and for direct-access devices
 *	B0h, B1h and (thin provisioned only) B2h
 * @buf: buffer for the page
 * @buflen: size of @buf; the page is cut to it
 * @err: receives the error
 *
 * Return: the length of the whole page, or -EINVAL with @err set to
 * INVALID FIELD IN CDB pointing at the PAGE CODE (byte 2) for a page we
 * do not have.
 */
int scst_build_vpd(const struct scst_inq_params *p, u8 page, u8 *buf,
		   size_t buflen, struct scst_cdb_err *err)
{
	struct spc_out o = { buf, buflen };
	size_t total;

	if (!vpd_page_supported(p, page))
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 2, -1);

	out_zero(&o, 0, vpd_len(p, page));
	switch (page) {
	case SCST_VPD_SUPPORTED_PAGES:
		total = vpd_supported_pages(&o, p);
		break;
	case SCST_VPD_UNIT_SERIAL:
		total = vpd_unit_serial(&o, p);
		break;
	case SCST_VPD_DEVICE_ID:
		total = vpd_device_id(&o, p);
		break;
	case SCST_VPD_EXTENDED_INQUIRY:
		total = vpd_extended_inquiry(&o, p);
		break;
	case SCST_VPD_BLOCK_LIMITS:
		total = vpd_block_limits(&o, p);
		break;
	case SCST_VPD_BLOCK_DEV_CHAR:
		total = vpd_block_dev_char(&o, p);
		break;
	default:
		total = vpd_lb_provisioning(&o, p);
		break;
	}
	vpd_header(&o, p, page, total);
	return total;
}
EXPORT_SYMBOL_GPL(scst_build_vpd);

/**
 * scst_build_inquiry() - INQUIRY data for an INQUIRY CDB
 * @cdb: the INQUIRY CDB
 * @cdb_len: its length
 * @p: the logical unit
 * @buf: buffer for the data
 * @buflen: size of @buf; the data is cut to it
 * @err: receives the error
 *
 * Checks the CDB with scst_check_inquiry_cdb(), then builds the standard
 * INQUIRY data or the VPD page asked for.
 *
 * Return: the length of the whole data, or -EINVAL with @err filled in.
 */
int scst_build_inquiry(const u8 *cdb, unsigned int cdb_len,
		       const struct scst_inq_params *p, u8 *buf, size_t buflen,
		       struct scst_cdb_err *err)
{
	bool evpd;
	u8 page;
	int ret;

	ret = scst_check_inquiry_cdb(cdb, cdb_len, &evpd, &page, err);
	if (ret)
		return ret;
	if (evpd)
		return scst_build_vpd(p, page, buf, buflen, err);
	return scst_build_std_inquiry(p, buf, buflen);
}
EXPORT_SYMBOL_GPL(scst_build_inquiry);

/* ---------------------------------------------------------------------- */
/* Mode parameters                                                        */
/* ---------------------------------------------------------------------- */

/* SPC-4 §6.11.1 table 157: PAGE CONTROL. */
#define PC_CURRENT		0
#define PC_CHANGEABLE		1
#define PC_DEFAULT		2
#define PC_SAVED		3

/* Longest mode page we have: caching, 20 bytes. */
#define MODE_PAGE_MAX		20
/* SPC-4 §7.5.4, §7.5.5: mode parameter header sizes. */
#define MODE_HDR6_LEN		4
#define MODE_HDR10_LEN		8
/* SBC-3 §6.4.2: short and long LBA block descriptors. */
#define BLKDESC_SHORT_LEN	8
#define BLKDESC_LONG_LEN	16
/* SBC-3 §6.4.1 table 144: DEVICE-SPECIFIC PARAMETER. */
#define DSP_WP			0x80
#define DSP_DPOFUA		0x10

/* The pages we have, in the order MODE SENSE returns them (0x3f). */
static const u8 scst_mode_pages[] = {
	SCST_MODE_PAGE_RW_ERR_RECOVERY, SCST_MODE_PAGE_CACHING,
	SCST_MODE_PAGE_CONTROL, SCST_MODE_PAGE_INFO_EXCEPTIONS,
};

/*
 * Build mode page @code for page control @pc (current, changeable or
 * default) in @pg (MODE_PAGE_MAX bytes). Return its length, 0 if we do
 * not have it.
 */
static size_t mode_page(u8 code, u8 pc, const struct scst_mode_params *p,
			u8 *pg)
{
	bool wce = pc == PC_DEFAULT ? p->def_wce : p->wce;
	bool d_sense = pc == PC_DEFAULT ? p->def_d_sense : p->d_sense;
	bool swp = pc == PC_DEFAULT ? p->def_swp : p->swp;
	u8 qam = pc == PC_DEFAULT ? p->def_queue_alg : p->queue_alg;
	bool chg = pc == PC_CHANGEABLE;

	memset(pg, 0, MODE_PAGE_MAX);
	pg[0] = code;
	switch (code) {
	case SCST_MODE_PAGE_RW_ERR_RECOVERY:
		/* SBC-3 §6.4.7: AWRE, ARRE; nothing changeable. */
		pg[1] = 0x0a;
		pg[2] = chg ? 0 : 0xc0;
		return 12;
	case SCST_MODE_PAGE_CACHING:
		/* SBC-3 §6.4.5: WCE changeable, RCD. */
		pg[1] = 0x12;
		if (chg)
			pg[2] = 0x04;
		else
			pg[2] = (wce ? 0x04 : 0) | (p->rcd ? 0x01 : 0);
		return 20;
	case SCST_MODE_PAGE_CONTROL:
		/*
		 * SPC-4 §7.5.8: TST, D_SENSE (changeable), GLTSD (no log
		 * parameters are saved); QUEUE ALGORITHM MODIFIER
		 * (changeable); SWP (changeable); TAS; BUSY TIMEOUT PERIOD
		 * unlimited.
		 */
		pg[1] = 0x0a;
		if (chg) {
			pg[2] = 0x04;
			pg[3] = 0xf0;
			pg[4] = 0x08;
			return 12;
		}
		pg[2] = (p->tst & 0x07) << 5 | (d_sense ? 0x04 : 0) | 0x02;
		pg[3] = (qam & 0x0f) << 4;
		pg[4] = swp ? 0x08 : 0;
		pg[5] = p->tas ? 0x40 : 0;
		pg[8] = 0xff;
		pg[9] = 0xff;
		return 12;
	case SCST_MODE_PAGE_INFO_EXCEPTIONS:
		/* SPC-4 §7.5.13: DEXCPT, no informational exceptions. */
		pg[1] = 0x0a;
		pg[2] = chg ? 0 : 0x08;
		return 12;
	default:
		return 0;
	}
}

/**
 * scst_build_mode_sense() - MODE SENSE(6)/(10) data, SPC-4 §6.11, §6.12
 * @cdb: the MODE SENSE CDB
 * @cdb_len: its length
 * @p: the logical unit's mode parameters
 * @buf: buffer for the data
 * @buflen: size of @buf; the data is cut to it
 * @err: receives the error
 *
 * The mode parameter header (SPC-4 §7.5.4, §7.5.5) with WP (read-only or
 * SWP) and DPOFUA, a short or long (LLBAA) LBA block descriptor unless
 * DBD is set (SBC-3 §6.4.2; NUMBER OF LOGICAL BLOCKS FFFFFFFFh in a short
 * one when the capacity does not fit; zero for changeable values), then
 * pages 01h, 08h, 0Ah, 1Ch or all of them (3Fh), for SUBPAGE CODE 00h or
 * FFh. PAGE CONTROL current, changeable or default; saved values are
 * refused with SAVING PARAMETERS NOT SUPPORTED.
 *
 * Return: the length of the whole data, or -EINVAL with @err filled in.
 */
int scst_build_mode_sense(const u8 *cdb, unsigned int cdb_len,
			  const struct scst_mode_params *p, u8 *buf,
			  size_t buflen, struct scst_cdb_err *err)
{
	struct spc_out o = { buf, buflen };
	bool ten, llbaa, dbd;
	size_t off, hdr, i, n, bdl;
	u8 pg[MODE_PAGE_MAX];
	u8 pc, page, subpage, dsp;

	if (cdb_len < 1 || (cdb[0] != SCST_OP_MODE_SENSE_6 &&
			    cdb[0] != SCST_OP_MODE_SENSE_10))
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_OPCODE, true,
					0, -1);
	ten = cdb[0] == SCST_OP_MODE_SENSE_10;
	if (cdb_len < (ten ? 10U : 6U))
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, -1, -1);
	dbd = cdb[1] & 0x08;
	llbaa = ten && (cdb[1] & 0x10);
	pc = cdb[2] >> 6;
	page = cdb[2] & 0x3f;
	subpage = cdb[3];

	if (pc == PC_SAVED)
		return scst_cdb_err_set(err, SCST_SENSE_SAVING_PARAMS_UNSUP,
					true, 2, 7);
	if (page != SCST_MODE_PAGE_ALL && !mode_page(page, pc, p, pg))
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 2, 5);
	if (subpage && subpage != 0xff)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 3, -1);

	hdr = ten ? MODE_HDR10_LEN : MODE_HDR6_LEN;
	bdl = dbd ? 0 : llbaa ? BLKDESC_LONG_LEN : BLKDESC_SHORT_LEN;
	off = hdr + bdl;
	out_zero(&o, 0, off);

	for (i = 0; i < ARRAY_SIZE(scst_mode_pages); i++) {
		if (page != SCST_MODE_PAGE_ALL && page != scst_mode_pages[i])
			continue;
		n = mode_page(scst_mode_pages[i], pc, p, pg);
		out_mem(&o, off, pg, n);
		off += n;
	}

	/* DEVICE-SPECIFIC PARAMETER and BLOCK DESCRIPTOR LENGTH */
	dsp = (p->read_only || p->swp ? DSP_WP : 0) |
	      (p->dpofua ? DSP_DPOFUA : 0);
	if (ten) {
		out_be16(&o, 0, off - 2);
		out_u8(&o, 3, dsp);
		out_u8(&o, 4, llbaa ? 0x01 : 0);
		out_be16(&o, 6, bdl);
	} else {
		out_u8(&o, 0, off - 1);
		out_u8(&o, 2, dsp);
		out_u8(&o, 3, bdl);
	}

	if (bdl && pc != PC_CHANGEABLE) {
		if (llbaa) {
			out_be64(&o, hdr, p->nblocks);
			out_be32(&o, hdr + 12, p->block_size);
		} else {
			out_be32(&o, hdr, min_t(u64, p->nblocks, U32_MAX));
			out_be24(&o, hdr + 5, p->block_size);
		}
	}
	return off;
}
EXPORT_SYMBOL_GPL(scst_build_mode_sense);

static int param_invalid(struct scst_cdb_err *err, size_t byte, int bit)
{
	return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST,
				false, (int)byte, bit);
}

static int param_len_error(struct scst_cdb_err *err)
{
	return scst_cdb_err_set(err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false,
				-1, -1);
}

/*
 * Where the fields of our mode pages start, for field pointers (SPC-4
 * §4.5.2.4.2: a pointer names the first byte and the leftmost bit of the
 * field in error). Bit b of entry i is set when a field starts at bit b
 * of byte i; an entry of zero continues the multi-byte field of the
 * previous bytes. Reserved and obsolete bits count as one-bit fields.
 */
static const u8 fields_rw_err_recovery[12] = {
	0xe0, 0x80, 0xff, 0x80, 0xff, 0xff, 0xff, 0xff,
	0x80, 0xff, 0x80, 0x00,
};

static const u8 fields_caching[20] = {
	0xe0, 0x80, 0xff, 0x88, 0x80, 0x00, 0x80, 0x00,
	0x80, 0x00, 0x80, 0x00, 0xfd, 0x80, 0x80, 0x00,
	0xff, 0x80, 0x00, 0x00,
};

static const u8 fields_control[12] = {
	0xe0, 0x80, 0x9f, 0x8d, 0xef, 0xfc, 0x80, 0x00,
	0x80, 0x00, 0x80, 0x00,
};

static const u8 fields_info_exceptions[12] = {
	0xe0, 0x80, 0xff, 0xf8, 0x80, 0x00, 0x00, 0x00,
	0x80, 0x00, 0x00, 0x00,
};

/*
 * Point at the field of mode page @code holding bit @bit of byte @i
 * (relative to the page): return the byte, and the bit in *@bit.
 */
static size_t mode_field(u8 code, size_t i, int *bit)
{
	const u8 *f;

	switch (code) {
	case SCST_MODE_PAGE_RW_ERR_RECOVERY:
		f = fields_rw_err_recovery;
		break;
	case SCST_MODE_PAGE_CACHING:
		f = fields_caching;
		break;
	case SCST_MODE_PAGE_CONTROL:
		f = fields_control;
		break;
	default:
		f = fields_info_exceptions;
		break;
	}
	if (!f[i]) {
		while (i && !f[i])
			i--;
		*bit = 7;
		return i;
	}
	/* the field holding @bit starts at the lowest start bit >= @bit */
	while (!(f[i] & (1U << *bit)))
		(*bit)++;
	return i;
}

/* Leftmost bit set in @v (non-zero). */
static int leftmost_bit(u8 v)
{
	int bit = 7;

	while (!(v & (1U << bit)))
		bit--;
	return bit;
}

/*
 * SBC-3 §6.4.2: a block descriptor in MODE SELECT data may restate the
 * capacity (or give zero, keep it) and must give the current logical
 * block length: neither can be changed here.
 */
static int mode_select_blkdesc(const u8 *d, size_t off, bool longlba,
			       const struct scst_mode_params *p,
			       struct scst_cdb_err *err)
{
	u64 nblocks;
	u32 bl;

	if (longlba) {
		nblocks = get_unaligned_be64(d + off);
		bl = get_unaligned_be32(d + off + 12);
		if (nblocks && nblocks != p->nblocks)
			return param_invalid(err, off, -1);
		if (bl != p->block_size)
			return param_invalid(err, off + 12, -1);
		return 0;
	}
	nblocks = get_unaligned_be32(d + off);
	bl = get_unaligned_be24(d + off + 5);
	if (nblocks && nblocks != min_t(u64, p->nblocks, U32_MAX))
		return param_invalid(err, off, -1);
	if (bl != p->block_size)
		return param_invalid(err, off + 5, -1);
	return 0;
}

/*
 * Check one mode page at @d + @off (@avail bytes left in the list)
 * against the current values, allowing changes to changeable bits only,
 * and store those in @next. Return the page's length or -EINVAL.
 */
static int mode_select_page(const u8 *d, size_t off, size_t avail,
			    const struct scst_mode_params *cur,
			    struct scst_mode_params *next,
			    struct scst_cdb_err *err)
{
	u8 want[MODE_PAGE_MAX], chg[MODE_PAGE_MAX], diff;
	const u8 *pg = d + off;
	size_t n, i;
	int bit;

	if (avail < 2)
		return param_len_error(err);
	/* SPC-4 §7.5.7: SPF, the sub_page format; we have no subpages. */
	if (pg[0] & 0x40)
		return param_invalid(err, off, 6);
	n = mode_page(pg[0] & 0x3f, PC_CURRENT, cur, want);
	if (!n)
		return param_invalid(err, off, 5);
	mode_page(pg[0] & 0x3f, PC_CHANGEABLE, cur, chg);
	if (pg[1] != want[1])
		return param_invalid(err, off + 1, -1);
	if (avail < n)
		return param_len_error(err);

	/* Byte 0: PS is reserved in MODE SELECT; ignore it. */
	for (i = 2; i < n; i++) {
		diff = (pg[i] ^ want[i]) & ~chg[i];
		if (diff) {
			bit = leftmost_bit(diff);
			i = mode_field(pg[0] & 0x3f, i, &bit);
			return param_invalid(err, off + i, bit);
		}
	}

	switch (pg[0] & 0x3f) {
	case SCST_MODE_PAGE_CACHING:
		next->wce = pg[2] & 0x04;
		break;
	case SCST_MODE_PAGE_CONTROL:
		if ((pg[3] >> 4) > SCST_QUEUE_ALG_UNRESTRICTED)
			return param_invalid(err, off + 3, 7);
		next->d_sense = pg[2] & 0x04;
		next->queue_alg = pg[3] >> 4;
		next->swp = pg[4] & 0x08;
		break;
	}
	return n;
}

/**
 * scst_parse_mode_select() - apply MODE SELECT(6)/(10) parameter data
 * @cdb: the MODE SELECT CDB
 * @cdb_len: its length
 * @data: the parameter list (data-out buffer)
 * @len: bytes available at @data; the list is the shorter of this and
 *	the PARAMETER LIST LENGTH
 * @inout: the logical unit's current mode parameters, updated on success
 * @err: receives the error
 *
 * SPC-4 §6.9, §6.10, §7.5: PF must be one, SP zero (INVALID FIELD IN
 * CDB). The header's MEDIUM TYPE must be zero, a block descriptor
 * (SBC-3 §6.4.2) must match the current capacity and block length, and
 * each page must be one of ours with its PAGE LENGTH and no change
 * outside its changeable fields: WCE, D_SENSE, SWP and QUEUE ALGORITHM
 * MODIFIER (0 or 1). Violations are INVALID FIELD IN PARAMETER LIST with
 * a field pointer into the list; a list cut inside the header, the block
 * descriptors or a page is a PARAMETER LIST LENGTH ERROR. Nothing is
 * changed unless the whole list is valid.
 *
 * Return: a mask of SCST_MODE_CHANGED_* bits saying which values changed
 * (the caller reports MODE PARAMETERS CHANGED to the other I_T nexuses,
 * SPC-4 §6.9), or -EINVAL with @err filled in.
 */
int scst_parse_mode_select(const u8 *cdb, unsigned int cdb_len,
			   const u8 *data, size_t len,
			   struct scst_mode_params *inout,
			   struct scst_cdb_err *err)
{
	struct scst_mode_params next = *inout;
	size_t plen, hdr, bdl, off;
	bool ten, longlba = false;
	int ret, changed = 0;

	if (cdb_len < 1 || (cdb[0] != SCST_OP_MODE_SELECT_6 &&
			    cdb[0] != SCST_OP_MODE_SELECT_10))
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_OPCODE, true,
					0, -1);
	ten = cdb[0] == SCST_OP_MODE_SELECT_10;
	if (cdb_len < (ten ? 10U : 6U))
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, -1, -1);
	plen = ten ? get_unaligned_be16(cdb + 7) : cdb[4];
	if (cdb[1] & 0x01)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 1, 0);
	if (!(cdb[1] & 0x10) && plen)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 1, 4);

	plen = min(plen, len);
	if (!plen)
		return 0;
	hdr = ten ? MODE_HDR10_LEN : MODE_HDR6_LEN;
	if (plen < hdr)
		return param_len_error(err);
	if (data[ten ? 2 : 1])
		return param_invalid(err, ten ? 2 : 1, -1);
	if (ten) {
		longlba = data[4] & 0x01;
		bdl = get_unaligned_be16(data + 6);
	} else {
		bdl = data[3];
	}
	if (bdl && bdl != (longlba ? BLKDESC_LONG_LEN : BLKDESC_SHORT_LEN))
		return param_invalid(err, ten ? 6 : 3, -1);
	if (hdr + bdl > plen)
		return param_len_error(err);
	if (bdl) {
		ret = mode_select_blkdesc(data, hdr, longlba, inout, err);
		if (ret)
			return ret;
	}

	for (off = hdr + bdl; off < plen; off += ret) {
		ret = mode_select_page(data, off, plen - off, inout, &next,
				       err);
		if (ret < 0)
			return ret;
	}

	if (next.wce != inout->wce)
		changed |= SCST_MODE_CHANGED_WCE;
	if (next.d_sense != inout->d_sense)
		changed |= SCST_MODE_CHANGED_D_SENSE;
	if (next.swp != inout->swp)
		changed |= SCST_MODE_CHANGED_SWP;
	if (next.queue_alg != inout->queue_alg)
		changed |= SCST_MODE_CHANGED_QUEUE_ALG;
	*inout = next;
	return changed;
}
EXPORT_SYMBOL_GPL(scst_parse_mode_select);

/* ---------------------------------------------------------------------- */
/* READ CAPACITY, REPORT LUNS, GET LBA STATUS, UNMAP, COMPARE AND WRITE   */
/* ---------------------------------------------------------------------- */

/**
 * scst_build_read_capacity10() - READ CAPACITY(10) data, SBC-3 §5.16.2
 * @block_size: LOGICAL BLOCK LENGTH IN BYTES
 * @nblocks: capacity in logical blocks
 * @buf: buffer for the data
 * @len: size of @buf; the data is cut to it
 *
 * RETURNED LOGICAL BLOCK ADDRESS is the last LBA, or FFFFFFFFh when it
 * does not fit (the initiator then uses READ CAPACITY(16)).
 *
 * Return: the length of the data, SCST_READ_CAP10_LEN.
 */
int scst_build_read_capacity10(u32 block_size, u64 nblocks, u8 *buf,
			       size_t len)
{
	struct spc_out o = { buf, len };
	u64 last = nblocks ? nblocks - 1 : 0;

	out_be32(&o, 0, min_t(u64, last, U32_MAX));
	out_be32(&o, 4, block_size);
	return SCST_READ_CAP10_LEN;
}
EXPORT_SYMBOL_GPL(scst_build_read_capacity10);

/**
 * scst_build_read_capacity16() - READ CAPACITY(16) data, SBC-3 §5.17.2
 * @block_size: LOGICAL BLOCK LENGTH IN BYTES
 * @nblocks: capacity in logical blocks
 * @lbppbe: LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT (0-15)
 * @lbpme: LBPME, logical block provisioning management enabled
 * @lbprz: LBPRZ, unmapped blocks read as zeroes
 * @buf: buffer for the data
 * @len: size of @buf; the data is cut to it
 *
 * No protection information, LOWEST ALIGNED LOGICAL BLOCK ADDRESS zero.
 *
 * Return: the length of the data, SCST_READ_CAP16_LEN.
 */
int scst_build_read_capacity16(u32 block_size, u64 nblocks, u8 lbppbe,
			       bool lbpme, bool lbprz, u8 *buf, size_t len)
{
	struct spc_out o = { buf, len };

	out_zero(&o, 0, SCST_READ_CAP16_LEN);
	out_be64(&o, 0, nblocks ? nblocks - 1 : 0);
	out_be32(&o, 8, block_size);
	out_u8(&o, 13, lbppbe & 0x0f);
	out_u8(&o, 14, (lbpme ? 0x80 : 0) | (lbprz ? 0x40 : 0));
	return SCST_READ_CAP16_LEN;
}
EXPORT_SYMBOL_GPL(scst_build_read_capacity16);

/**
 * scst_build_report_luns() - REPORT LUNS parameter data, SPC-4 §6.33
 * @luns: the logical unit numbers to report, each at most
 *	SCST_LUN_FLAT_MAX
 * @nluns: number of entries in @luns
 * @buf: buffer for the data
 * @buflen: size of @buf; the data is cut to it
 *
 * LUN LIST LENGTH always counts every LUN, whatever fits in @buf
 * (SPC-4 §6.33: the initiator retries with a larger allocation length).
 *
 * Return: the length of the whole data, 8 + 8 * @nluns, or -EOVERFLOW if
 * that does not fit in an int.
 */
int scst_build_report_luns(const u64 *luns, unsigned int nluns, u8 *buf,
			   size_t buflen)
{
	struct spc_out o = { buf, buflen };
	unsigned int i;
	u8 lun[8];

	if (nluns > (0x7fffffffU - 8) / 8)
		return -EOVERFLOW;
	out_be32(&o, 0, nluns * 8);
	out_be32(&o, 4, 0);
	for (i = 0; i < nluns && 8 + (size_t)i * 8 < buflen; i++) {
		scst_lun_encode(luns[i], lun);
		out_mem(&o, 8 + (size_t)i * 8, lun, sizeof(lun));
	}
	return 8 + nluns * 8;
}
EXPORT_SYMBOL_GPL(scst_build_report_luns);

/**
 * scst_build_lba_status() - GET LBA STATUS data, SBC-3 §5.6.2
 * @lba: LBA STATUS LOGICAL BLOCK ADDRESS, the first block of the extent
 * @nblocks_in_extent: its length; more than FFFFFFFFh is reported as
 *	FFFFFFFFh (the initiator asks again from the next LBA)
 * @provisioning_status: SCST_PROV_STATUS_*
 * @buf: buffer for the data
 * @len: size of @buf; the data is cut to it
 *
 * One LBA status descriptor.
 *
 * Return: the length of the data, SCST_LBA_STATUS_LEN.
 */
int scst_build_lba_status(u64 lba, u64 nblocks_in_extent,
			  u8 provisioning_status, u8 *buf, size_t len)
{
	struct spc_out o = { buf, len };

	out_zero(&o, 0, SCST_LBA_STATUS_LEN);
	out_be32(&o, 0, SCST_LBA_STATUS_LEN - 4);
	out_be64(&o, 8, lba);
	out_be32(&o, 16, min_t(u64, nblocks_in_extent, U32_MAX));
	out_u8(&o, 20, provisioning_status & 0x0f);
	return SCST_LBA_STATUS_LEN;
}
EXPORT_SYMBOL_GPL(scst_build_lba_status);

/**
 * scst_parse_unmap() - check an UNMAP parameter list, SBC-3 §5.28.2
 * @data: the parameter list
 * @len: its length (the PARAMETER LIST LENGTH, or less if less arrived)
 * @capacity: capacity of the logical unit in logical blocks
 * @max_descs: MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT, 0 for no limit
 * @max_lba_count: MAXIMUM UNMAP LBA COUNT, 0 for no limit
 * @err: receives the error
 *
 * A list of 1 to 7 bytes, or whose UNMAP BLOCK DESCRIPTOR DATA LENGTH
 * runs past its end, is a PARAMETER LIST LENGTH ERROR. A trailing partial
 * descriptor is ignored (SBC-3 §5.28.2). More than @max_descs descriptors
 * or more than @max_lba_count blocks in all are INVALID FIELD IN
 * PARAMETER LIST; a range past @capacity is LOGICAL BLOCK ADDRESS OUT OF
 * RANGE. The whole list is checked before the caller unmaps anything.
 *
 * Return: the number of descriptors, for scst_unmap_desc(), or -EINVAL
 * with @err filled in.
 */
int scst_parse_unmap(const u8 *data, size_t len, u64 capacity,
		     u32 max_descs, u32 max_lba_count,
		     struct scst_cdb_err *err)
{
	u64 lba, total = 0;
	size_t bdl, i, n;
	const u8 *d;
	u32 nb;

	if (!len)
		return 0;
	if (len < SCST_UNMAP_HDR_LEN)
		return param_len_error(err);
	bdl = get_unaligned_be16(data + 2);
	if (bdl > len - SCST_UNMAP_HDR_LEN)
		return param_len_error(err);
	n = bdl / SCST_UNMAP_DESC_LEN;
	if (max_descs && n > max_descs)
		return param_invalid(err, 2, -1);

	for (i = 0; i < n; i++) {
		d = data + SCST_UNMAP_HDR_LEN + i * SCST_UNMAP_DESC_LEN;
		lba = get_unaligned_be64(d);
		nb = get_unaligned_be32(d + 8);
		if (lba > capacity || nb > capacity - lba)
			return scst_cdb_err_set(err,
						SCST_SENSE_LBA_OUT_OF_RANGE,
						false, -1, -1);
		total += nb;
		if (max_lba_count && total > max_lba_count)
			return param_invalid(err, d + 8 - data, -1);
	}
	return n;
}
EXPORT_SYMBOL_GPL(scst_parse_unmap);

/**
 * scst_unmap_desc() - one UNMAP block descriptor, SBC-3 §5.28.3
 * @data: a parameter list checked by scst_parse_unmap()
 * @idx: index of the descriptor, below what scst_parse_unmap() returned
 * @lba: receives UNMAP LOGICAL BLOCK ADDRESS
 * @nblocks: receives NUMBER OF LOGICAL BLOCKS (may be zero)
 */
void scst_unmap_desc(const u8 *data, unsigned int idx, u64 *lba,
		     u32 *nblocks)
{
	const u8 *d = data + SCST_UNMAP_HDR_LEN +
		      (size_t)idx * SCST_UNMAP_DESC_LEN;

	*lba = get_unaligned_be64(d);
	*nblocks = get_unaligned_be32(d + 8);
}
EXPORT_SYMBOL_GPL(scst_unmap_desc);

/**
 * scst_miscompare_offset() - where two buffers first differ
 * @a: the verify data of a COMPARE AND WRITE
 * @b: the data read from the medium
 * @len: bytes to compare
 *
 * SBC-3 §5.3: a miscompare ends COMPARE AND WRITE with MISCOMPARE,
 * MISCOMPARE DURING VERIFY OPERATION and the offset of the first
 * differing byte in the INFORMATION field.
 *
 * Return: that offset, or @len if the buffers are equal.
 */
size_t scst_miscompare_offset(const u8 *a, const u8 *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i])
			return i;
	return len;
}
EXPORT_SYMBOL_GPL(scst_miscompare_offset);
