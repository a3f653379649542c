/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure-logic SPC-4 / SBC-3 emulation shared by the core and the device
 * handlers: INQUIRY, VPD, mode page, READ CAPACITY, REPORT LUNS, GET LBA
 * STATUS and UNMAP data (scst_spc.c) and SAM-5 LUN addressing
 * (scst_lun.c). The builders check their CDBs with the decoder's API
 * (scst_cdb.h), never the other way round.
 *
 * Like scst_logic.h, everything here works on caller-provided memory only,
 * never sleeps and never allocates. The builders write at most the buffer
 * size they are given and return the full length of the data, so that a
 * caller truncates to the ALLOCATION LENGTH (SPC-4 §4.2.5.6) by passing a
 * short buffer or by copying fewer bytes.
 */
#ifndef __SCST_SPC_H
#define __SCST_SPC_H
/* API-READY */

#include "scst_cdb.h"

/* ---------------------------------------------------------------------- */
/* INQUIRY and VPD pages (scst_spc.c)                                     */
/* ---------------------------------------------------------------------- */

/* SPC-4 §6.6.2: standard INQUIRY data length we return. */
#define SCST_INQ_STD_LEN		74
/* VPD page codes, SPC-4 §7.8 and SBC-3 §6.5. */
#define SCST_VPD_SUPPORTED_PAGES	0x00
#define SCST_VPD_UNIT_SERIAL		0x80
#define SCST_VPD_DEVICE_ID		0x83
#define SCST_VPD_EXTENDED_INQUIRY	0x86
#define SCST_VPD_BLOCK_LIMITS		0xb0
#define SCST_VPD_BLOCK_DEV_CHAR		0xb1
#define SCST_VPD_LB_PROVISIONING	0xb2

/* SPC-4 §7.6.1 table 362: protocol identifiers. */
#define SCST_PROTO_ID_SRP		0x4
#define SCST_PROTO_ID_ISCSI		0x5
#define SCST_PROTO_ID_SAS		0x6

/*
 * Longest strings put into INQUIRY data; longer ones are cut. A SCSI name
 * string designator holds at most 252 bytes (its one-byte DESIGNATOR
 * LENGTH, a multiple of 4), the terminating NUL included.
 */
#define SCST_INQ_SERIAL_MAX		64
#define SCST_INQ_T10_VEND_SPEC_MAX	128
#define SCST_INQ_SCSI_NAME_MAX		251
/* EUI-64 designators are 8, 12 or 16 bytes; NAA ones 8 or 16 */
#define SCST_INQ_DESIG_ID_MAX		16

/**
 * struct scst_inq_params - what a logical unit reports in INQUIRY data
 * @dev_type: PERIPHERAL DEVICE TYPE
 * @removable: RMB bit
 * @vendor: T10 VENDOR IDENTIFICATION, up to 8 ASCII characters
 * @product: PRODUCT IDENTIFICATION, up to 16 characters
 * @revision: PRODUCT REVISION LEVEL, up to 4 characters
 * @unit_serial: PRODUCT SERIAL NUMBER of VPD page 80h, or NULL
 * @t10_vend_spec: vendor specific part of the T10 vendor ID designator, or
 *	NULL for none
 * @eui64: the EUI-64 designator's bytes (@eui64_len of them)
 * @eui64_len: 8, 12 or 16; 0: no EUI-64 designator
 * @naa: the NAA designator's bytes (@naa_len of them)
 * @naa_len: 8 or 16; 0: no NAA designator
 * @dev_scsi_name: SCSI name string of the SCSI target device, or NULL
 * @rel_tgt_id: RELATIVE TARGET PORT IDENTIFIER, 0: no such designator
 * @tgt_port_name: SCSI name string of the target port, or NULL
 * @tpg_id: TARGET PORT GROUP, 0: no such designator
 * @tpgs: TPGS field of standard INQUIRY data (SPC-4 §6.6.2), already in
 *	bits 5-4 (SCST_INQ_TPGS_*, scst_alua.h); 0: no ALUA
 * @piv: @protocol_id is valid in the target port designators
 * @protocol_id: PROTOCOL IDENTIFIER, e.g. SCST_PROTO_ID_SRP
 * @thin_provisioned: logical block provisioning management enabled
 * @rotational: a rotating medium (otherwise MEDIUM ROTATION RATE = 1)
 * @write_cache: a volatile write cache exists (V_SUP)
 * @lbpu: UNMAP supported
 * @lbpws: WRITE SAME(16) with UNMAP supported
 * @lbpws10: WRITE SAME(10) with UNMAP supported
 * @lbprz: unmapped blocks read as zeroes
 * @block_size: logical block length in bytes
 * @nblocks: capacity in logical blocks
 * @max_xfer_len: MAXIMUM TRANSFER LENGTH in blocks, 0: no limit
 * @opt_xfer_len: OPTIMAL TRANSFER LENGTH in blocks, 0: not reported
 * @opt_xfer_gran: OPTIMAL TRANSFER LENGTH GRANULARITY in blocks
 * @max_unmap_lba_count: MAXIMUM UNMAP LBA COUNT
 * @max_unmap_desc: MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT
 * @unmap_gran: OPTIMAL UNMAP GRANULARITY in blocks
 * @unmap_gran_align: UNMAP GRANULARITY ALIGNMENT (valid if @unmap_gran)
 * @max_ws_len: MAXIMUM WRITE SAME LENGTH in blocks, 0: no limit
 * @max_cw_len: MAXIMUM COMPARE AND WRITE LENGTH in blocks, 0: no support
 * @transport_vd: transport's version descriptor, 0: none (SRP: 0x0940)
 */
struct scst_inq_params {
	u8 dev_type;
	bool removable;
	const char *vendor;
	const char *product;
	const char *revision;
	const char *unit_serial;
	const char *t10_vend_spec;
	const u8 *eui64;
	u8 eui64_len;
	const u8 *naa;
	u8 naa_len;
	const char *dev_scsi_name;
	u16 rel_tgt_id;
	const char *tgt_port_name;
	u16 tpg_id;
	u8 tpgs;
	bool piv;
	u8 protocol_id;
	bool thin_provisioned;
	bool rotational;
	bool write_cache;
	bool lbpu;
	bool lbpws;
	bool lbpws10;
	bool lbprz;
	u32 block_size;
	u64 nblocks;
	u32 max_xfer_len;
	u32 opt_xfer_len;
	u16 opt_xfer_gran;
	u32 max_unmap_lba_count;
	u32 max_unmap_desc;
	u32 unmap_gran;
	u32 unmap_gran_align;
	u64 max_ws_len;
	u8 max_cw_len;
	u16 transport_vd;
};

int scst_build_std_inquiry(const struct scst_inq_params *p, u8 *buf,
			   size_t buflen);
int scst_build_inquiry_no_lun(u8 *buf, size_t buflen);
int scst_build_vpd(const struct scst_inq_params *p, u8 page, u8 *buf,
		   size_t buflen, struct scst_cdb_err *err);
int scst_build_inquiry(const u8 *cdb, unsigned int cdb_len,
		       const struct scst_inq_params *p, u8 *buf, size_t buflen,
		       struct scst_cdb_err *err);

/* ---------------------------------------------------------------------- */
/* Mode parameters (scst_spc.c), SPC-4 §7.5, SBC-3 §6.4                   */
/* ---------------------------------------------------------------------- */

#define SCST_MODE_PAGE_RW_ERR_RECOVERY	0x01
#define SCST_MODE_PAGE_CACHING		0x08
#define SCST_MODE_PAGE_CONTROL		0x0a
#define SCST_MODE_PAGE_INFO_EXCEPTIONS	0x1c
#define SCST_MODE_PAGE_ALL		0x3f

/* SPC-4 §7.5.8: QUEUE ALGORITHM MODIFIER values we accept. */
#define SCST_QUEUE_ALG_RESTRICTED	0
#define SCST_QUEUE_ALG_UNRESTRICTED	1

/* scst_parse_mode_select() return value: what MODE SELECT changed. */
#define SCST_MODE_CHANGED_WCE		0x0001
#define SCST_MODE_CHANGED_D_SENSE	0x0002
#define SCST_MODE_CHANGED_SWP		0x0004
#define SCST_MODE_CHANGED_QUEUE_ALG	0x0008

/**
 * struct scst_mode_params - a logical unit's mode parameters
 * @wce: caching page WCE (write cache enabled); changeable
 * @rcd: caching page RCD (read cache disabled)
 * @d_sense: control page D_SENSE (descriptor format sense); changeable
 * @swp: control page SWP (software write protect); changeable
 * @tst: control page TST (task set type)
 * @queue_alg: control page QUEUE ALGORITHM MODIFIER; changeable (0 or 1)
 * @tas: control page TAS (task aborted status)
 * @read_only: WP bit of the mode parameter header (set also when @swp)
 * @dpofua: DPOFUA bit of the mode parameter header
 * @block_size: LOGICAL BLOCK LENGTH of the block descriptor
 * @nblocks: NUMBER OF LOGICAL BLOCKS of the block descriptor
 * @def_wce: default value (page control 10b) of @wce
 * @def_d_sense: default value of @d_sense
 * @def_swp: default value of @swp
 * @def_queue_alg: default value of @queue_alg
 */
struct scst_mode_params {
	bool wce;
	bool rcd;
	bool d_sense;
	bool swp;
	u8 tst;
	u8 queue_alg;
	bool tas;
	bool read_only;
	bool dpofua;
	u32 block_size;
	u64 nblocks;
	bool def_wce;
	bool def_d_sense;
	bool def_swp;
	u8 def_queue_alg;
};

int scst_build_mode_sense(const u8 *cdb, unsigned int cdb_len,
			  const struct scst_mode_params *p, u8 *buf,
			  size_t buflen, struct scst_cdb_err *err);
int scst_parse_mode_select(const u8 *cdb, unsigned int cdb_len,
			   const u8 *data, size_t len,
			   struct scst_mode_params *inout,
			   struct scst_cdb_err *err);

/* ---------------------------------------------------------------------- */
/* READ CAPACITY, REPORT LUNS, GET LBA STATUS, UNMAP (scst_spc.c)         */
/* ---------------------------------------------------------------------- */

int scst_build_read_capacity10(u32 block_size, u64 nblocks, u8 *buf,
			       size_t len);
int scst_build_read_capacity16(u32 block_size, u64 nblocks, u8 lbppbe,
			       bool lbpme, bool lbprz, u8 *buf, size_t len);

int scst_build_report_luns(const u64 *luns, unsigned int nluns, u8 *buf,
			   size_t buflen);

/* SBC-3 §5.6.2 table 40: PROVISIONING STATUS. */
#define SCST_PROV_STATUS_MAPPED		0x0
#define SCST_PROV_STATUS_DEALLOCATED	0x1
#define SCST_PROV_STATUS_ANCHORED	0x2
#define SCST_LBA_STATUS_LEN		24

int scst_build_lba_status(u64 lba, u64 nblocks_in_extent,
			  u8 provisioning_status, u8 *buf, size_t len);

/* SBC-3 §5.28.2: UNMAP parameter list header and descriptor lengths. */
#define SCST_UNMAP_HDR_LEN		8
#define SCST_UNMAP_DESC_LEN		16

int scst_parse_unmap(const u8 *data, size_t len, u64 capacity,
		     u32 max_descs, u32 max_lba_count,
		     struct scst_cdb_err *err);
void scst_unmap_desc(const u8 *data, unsigned int idx, u64 *lba,
		     u32 *nblocks);

size_t scst_miscompare_offset(const u8 *a, const u8 *b, size_t len);

/* ---------------------------------------------------------------------- */
/* LUN addressing, SAM-5 §4.7 (scst_lun.c)                                */
/* ---------------------------------------------------------------------- */

/* Highest LUN of the flat space addressing method, SAM-5 §4.7.8. */
#define SCST_LUN_FLAT_MAX		16383

int scst_lun_decode(const u8 *lun, unsigned int len, u64 *out);
void scst_lun_encode(u64 lun, u8 out[8]);

#endif /* __SCST_SPC_H */
