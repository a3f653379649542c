/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure-logic SPC-4 / SBC-3 emulation shared by the core and the device
 * handlers: CDB decoding (scst_cdb.c), INQUIRY, VPD, mode page, READ
 * CAPACITY, REPORT LUNS, GET LBA STATUS and UNMAP data (scst_spc.c) and
 * SAM-5 LUN addressing (scst_lun.c).
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

#include "scst_logic.h"

/* ---------------------------------------------------------------------- */
/* Operation codes, SPC-4 and SBC-3                                       */
/* ---------------------------------------------------------------------- */

#define SCST_OP_TEST_UNIT_READY		0x00
#define SCST_OP_REQUEST_SENSE		0x03
#define SCST_OP_READ_6			0x08
#define SCST_OP_WRITE_6			0x0a
#define SCST_OP_INQUIRY			0x12
#define SCST_OP_MODE_SELECT_6		0x15
#define SCST_OP_RESERVE_6		0x16
#define SCST_OP_RELEASE_6		0x17
#define SCST_OP_MODE_SENSE_6		0x1a
#define SCST_OP_START_STOP_UNIT		0x1b
#define SCST_OP_PREVENT_ALLOW_MEDIUM	0x1e
#define SCST_OP_READ_CAPACITY_10	0x25
#define SCST_OP_READ_10			0x28
#define SCST_OP_WRITE_10		0x2a
#define SCST_OP_WRITE_VERIFY_10		0x2e
#define SCST_OP_VERIFY_10		0x2f
#define SCST_OP_SYNCHRONIZE_CACHE_10	0x35
#define SCST_OP_WRITE_SAME_10		0x41
#define SCST_OP_UNMAP			0x42
#define SCST_OP_MODE_SELECT_10		0x55
#define SCST_OP_RESERVE_10		0x56
#define SCST_OP_RELEASE_10		0x57
#define SCST_OP_MODE_SENSE_10		0x5a
#define SCST_OP_PERSISTENT_RESERVE_IN	0x5e
#define SCST_OP_PERSISTENT_RESERVE_OUT	0x5f
#define SCST_OP_READ_16			0x88
#define SCST_OP_COMPARE_AND_WRITE	0x89
#define SCST_OP_WRITE_16		0x8a
#define SCST_OP_WRITE_VERIFY_16		0x8e
#define SCST_OP_VERIFY_16		0x8f
#define SCST_OP_SYNCHRONIZE_CACHE_16	0x91
#define SCST_OP_WRITE_SAME_16		0x93
#define SCST_OP_SERVICE_ACTION_IN_16	0x9e
#define SCST_OP_REPORT_LUNS		0xa0
#define SCST_OP_MAINTENANCE_IN		0xa3
#define SCST_OP_READ_12			0xa8
#define SCST_OP_WRITE_12		0xaa

/* SBC-3 §5.16, §5.6: SERVICE ACTION IN(16) service actions. */
#define SCST_SAI_READ_CAPACITY_16	0x10
#define SCST_SAI_GET_LBA_STATUS		0x12
/* SPC-4 §6.35: MAINTENANCE IN service action. */
#define SCST_MI_REPORT_SUPPORTED_OPCODES	0x0c

/* Peripheral device types, SPC-4 §6.6.2 table 140 (the ones we use). */
#define SCST_TYPE_DISK			0x00
#define SCST_TYPE_NO_LUN		0x1f

/* ---------------------------------------------------------------------- */
/* CDB decoding (scst_cdb.c)                                              */
/* ---------------------------------------------------------------------- */

/* Data direction of a CDB, as seen from the initiator. */
#define SCST_CDB_DIR_NONE		0
#define SCST_CDB_DIR_WRITE		1	/* data-out */
#define SCST_CDB_DIR_READ		2	/* data-in */

/*
 * struct scst_cdb_info.flags. The core acts on them before the command
 * reaches the device handler.
 */
/* Modifies the medium: DATA PROTECT / WRITE PROTECTED on a read-only LU. */
#define SCST_CDB_MEDIUM_WRITE		0x0001
/* lba + nblocks must not exceed the capacity: scst_cdb_check_lba(). */
#define SCST_CDB_LBA_CHECK		0x0002
/* Allowed on a LUN that is not mapped (SPC-4 §6.6.2, §6.33, §6.39). */
#define SCST_CDB_NO_LUN_OK		0x0004
/* Not failed by a pending unit attention (SAM-5 §5.14, SPC-4 §5.14). */
#define SCST_CDB_UA_EXEMPT		0x0008
/* Allowed while another I_T nexus holds an SPC-2 reservation. */
#define SCST_CDB_RESV_ALLOWED		0x0010
/* bufflen is an ALLOCATION LENGTH: less data-in is fine (SPC-4 §4.2.5.6). */
#define SCST_CDB_ALLOC_LEN		0x0020
/* bufflen is a PARAMETER LIST LENGTH (data-out). */
#define SCST_CDB_PARAM_LIST		0x0040
/* bufflen is a number of logical blocks: nblocks << block_shift. */
#define SCST_CDB_BLOCK_XFER		0x0080
/* A RESERVE or RELEASE (SPC-2 §7.21, §7.17): the core handles it. */
#define SCST_CDB_RESERVE_CMD		0x0100
/* Has a service action in byte 1, bits 4-0. */
#define SCST_CDB_HAS_SA			0x0200
/* SBC-3 command: decoded for direct-access devices only. */
#define SCST_CDB_SBC			0x0400
/*
 * SBC-3 §6.5.3: the transfer length is bounded by MAXIMUM TRANSFER LENGTH
 * (READ, WRITE, VERIFY, WRITE AND VERIFY, COMPARE AND WRITE).
 */
#define SCST_CDB_XFER_LIMIT		0x0800
/* SBC-3 §5.42: NUMBER OF LOGICAL BLOCKS bounded by MAXIMUM WRITE SAME LENGTH. */
#define SCST_CDB_WS_LIMIT		0x1000

/* Longest CDB we decode, and the longest CDB usage data (SPC-4 §6.35.3). */
#define SCST_CDB_MAX_LEN		16

/**
 * struct scst_cdb_info - what a CDB asks for, from scst_cdb_decode()
 * @opcode: OPERATION CODE
 * @service_action: SERVICE ACTION, 0 for a command without one
 * @name: the command's name, e.g. "READ(10)"
 * @direction: SCST_CDB_DIR_NONE, _WRITE (data-out) or _READ (data-in)
 * @flags: SCST_CDB_* flags
 * @lba: first logical block, for commands that address the medium
 * @nblocks: number of logical blocks addressed (READ(6) with a TRANSFER
 *	LENGTH of 0 means 256; SYNCHRONIZE CACHE with 0 means "to the last
 *	LBA"; GET LBA STATUS: 1, so that scst_cdb_check_lba() checks the
 *	starting LBA)
 * @bufflen: bytes of data to transfer: the allocation or parameter list
 *	length, or the logical blocks transferred << block_shift
 * @fua: FUA bit (force unit access)
 * @dpo: DPO bit (disable page out)
 * @cdb_len: the length of the command's CDB (its group's size)
 * @bytchk: VERIFY and WRITE AND VERIFY BYTCHK field (0 or 1)
 * @unmap: WRITE SAME UNMAP bit
 * @ndob: WRITE SAME(16) NDOB bit: no data-out buffer, write zeroes
 * @immed: IMMED bit (SYNCHRONIZE CACHE, START STOP UNIT)
 * @len_off: offset of the CDB's length field (the field pointer of a
 *	length error), 0 when it has none
 */
struct scst_cdb_info {
	u8 opcode;
	u16 service_action;
	const char *name;
	u8 direction;
	u32 flags;
	u64 lba;
	u64 nblocks;
	u32 bufflen;
	bool fua;
	bool dpo;
	u8 cdb_len;
	u8 bytchk;
	bool unmap;
	bool ndob;
	bool immed;
	u8 len_off;
};

/**
 * struct scst_cdb_err - why a request was rejected
 * @sense_code: SCST_SENSE_* code, e.g. SCST_SENSE_INVALID_FIELD_IN_CDB
 * @has_field: @byte and @bit make a field pointer (SPC-4 §4.5.2.4.2)
 * @in_cdb: the field is in the CDB (C/D = 1), not in the parameter data
 * @byte: FIELD POINTER
 * @bit: BIT POINTER, or -1 for the whole byte (BPV = 0)
 * @has_info: @info is valid: set the INFORMATION field of the sense data
 * @info: INFORMATION, e.g. the offset of a miscompare
 * @unknown_sa: scst_cdb_decode() knows the operation code but not its
 *	SERVICE ACTION (INVALID FIELD IN CDB on byte 1 bit 4); a
 *	pass-through handler may know it
 */
struct scst_cdb_err {
	u32 sense_code;
	bool has_field;
	bool in_cdb;
	u16 byte;
	s8 bit;
	bool has_info;
	u64 info;
	bool unknown_sa;
};

/**
 * scst_cdb_err_set() - fill a struct scst_cdb_err
 * @err: where to store the error, or NULL
 * @sense_code: SCST_SENSE_* code
 * @in_cdb: the field pointer points into the CDB (C/D = 1)
 * @byte: FIELD POINTER, or -1 for no field pointer
 * @bit: BIT POINTER (0-7), or -1 for the whole byte
 *
 * Return: -EINVAL, for "return scst_cdb_err_set(...);".
 */
static inline int scst_cdb_err_set(struct scst_cdb_err *err, u32 sense_code,
				   bool in_cdb, int byte, int bit)
{
	if (err) {
		memset(err, 0, sizeof(*err));
		err->sense_code = sense_code;
		err->has_field = byte >= 0;
		err->in_cdb = in_cdb;
		err->byte = byte >= 0 ? byte : 0;
		err->bit = bit;
	}
	return -EINVAL;
}

int scst_cdb_decode(const u8 *cdb, unsigned int cdb_len, u8 dev_type,
		    unsigned int block_shift, struct scst_cdb_info *info,
		    struct scst_cdb_err *err);
int scst_cdb_check_lba(const struct scst_cdb_info *info, u64 capacity_blocks,
		       struct scst_cdb_err *err);
/*
 * The largest data buffer one command may have (DESIGN.md §5): the
 * default of the max_transfer_kb module parameter and device attribute,
 * and the range they accept, in KiB. The upper end keeps a command's
 * buffer and its scatterlist within order-0 allocations of bounded count.
 */
#define SCST_MAX_XFER_KB_DEFAULT	8192
#define SCST_MAX_XFER_KB_MIN		64
#define SCST_MAX_XFER_KB_MAX		65536

int scst_cdb_check_xfer_limit(const struct scst_cdb_info *info,
			      u32 max_xfer_bytes, unsigned int block_shift,
			      struct scst_cdb_err *err);
int scst_cdb_group_len(u8 opcode);
int scst_build_rsoc(const u8 *cdb, unsigned int cdb_len, u8 dev_type,
		    u8 *buf, size_t buflen, struct scst_cdb_err *err);
int scst_check_report_luns_cdb(const u8 *cdb, unsigned int cdb_len,
			       u8 *select_report, struct scst_cdb_err *err);
int scst_check_inquiry_cdb(const u8 *cdb, unsigned int cdb_len, bool *evpd,
			   u8 *page, struct scst_cdb_err *err);

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

/* IEEE company ID of the NAA and EUI-64 designators when none is given. */
#define SCST_INQ_DEFAULT_OUI		0x001405

/*
 * Longest strings put into INQUIRY data; longer ones are cut. A SCSI name
 * string designator holds at most 252 bytes (its one-byte DESIGNATOR
 * LENGTH, a multiple of 4), the terminating NUL included.
 */
#define SCST_INQ_SERIAL_MAX		64
#define SCST_INQ_T10_DEV_ID_MAX		64
#define SCST_INQ_SCSI_NAME_MAX		251

/**
 * struct scst_inq_params - what a logical unit reports in INQUIRY data
 * @dev_type: PERIPHERAL DEVICE TYPE
 * @removable: RMB bit
 * @vendor: T10 VENDOR IDENTIFICATION, up to 8 ASCII characters
 * @product: PRODUCT IDENTIFICATION, up to 16 characters
 * @revision: PRODUCT REVISION LEVEL, up to 4 characters
 * @unit_serial: PRODUCT SERIAL NUMBER of VPD page 80h, or NULL
 * @id: 64-bit source of the NAA (type 6) and EUI-64 designators, e.g. a
 *	hash of the device name; 0: no such designators
 * @ieee_oui: IEEE company ID of those designators, 0: SCST_INQ_DEFAULT_OUI
 * @t10_dev_id: vendor specific part of the T10 vendor ID designator, or
 *	NULL for none
 * @rel_tgt_id: RELATIVE TARGET PORT IDENTIFIER, 0: no such designator
 * @tgt_port_name: SCSI name string of the target port, or NULL
 * @tpg_id: TARGET PORT GROUP, 0: no such designator
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
	u64 id;
	u32 ieee_oui;
	const char *t10_dev_id;
	u16 rel_tgt_id;
	const char *tgt_port_name;
	u16 tpg_id;
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

#define SCST_READ_CAP10_LEN		8
#define SCST_READ_CAP16_LEN		32

int scst_build_read_capacity10(u32 block_size, u64 nblocks, u8 *buf,
			       size_t len);
int scst_build_read_capacity16(u32 block_size, u64 nblocks, u8 lbppbe,
			       bool lbpme, bool lbprz, u8 *buf, size_t len);

/* SPC-4 §6.33: SELECT REPORT values. */
#define SCST_REPORT_LUNS_ALL_NO_WLUN	0x00
#define SCST_REPORT_LUNS_WLUN_ONLY	0x01
#define SCST_REPORT_LUNS_ALL		0x02

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
