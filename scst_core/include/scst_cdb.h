/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure-logic CDB decoding (scst_cdb.c): the operation codes the core
 * knows, what a CDB asks for (struct scst_cdb_info), why a request is
 * refused (struct scst_cdb_err), the transfer and LBA checks, and REPORT
 * SUPPORTED OPERATION CODES data built from the same table.
 *
 * The INQUIRY, mode page and other builders (scst_spc.h) include this
 * header; this one knows nothing of them. Like scst_logic.h, everything
 * here works on caller-provided memory only, never sleeps and never
 * allocates.
 */
#ifndef __SCST_CDB_H
#define __SCST_CDB_H

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
#define SCST_OP_PRE_FETCH_10		0x34
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
#define SCST_OP_PRE_FETCH_16		0x90
#define SCST_OP_SYNCHRONIZE_CACHE_16	0x91
#define SCST_OP_WRITE_SAME_16		0x93
#define SCST_OP_SERVICE_ACTION_IN_16	0x9e
#define SCST_OP_REPORT_LUNS		0xa0
#define SCST_OP_MAINTENANCE_IN		0xa3
#define SCST_OP_MAINTENANCE_OUT		0xa4
#define SCST_OP_READ_12			0xa8
#define SCST_OP_WRITE_12		0xaa
#define SCST_OP_WRITE_VERIFY_12		0xae
#define SCST_OP_VERIFY_12		0xaf

/*
 * Operation codes the core does not decode but whose admission it knows:
 * SPC-4 §5.9.1 table 63 (persistent reservations) and §5.16.2.4 (ALUA)
 * name them, and a pass-through handler forwards them (scst_cdb_facts_x[]).
 */
#define SCST_OP_RECEIVE_DIAGNOSTIC	0x1c
#define SCST_OP_SEND_DIAGNOSTIC		0x1d
#define SCST_OP_READ_DEFECT_DATA_10	0x37
#define SCST_OP_WRITE_BUFFER		0x3b
#define SCST_OP_READ_BUFFER		0x3c
#define SCST_OP_READ_LONG_10		0x3e
#define SCST_OP_LOG_SELECT		0x4c
#define SCST_OP_LOG_SENSE		0x4d
#define SCST_OP_ACCESS_CONTROL_IN	0x86
#define SCST_OP_ACCESS_CONTROL_OUT	0x87
#define SCST_OP_READ_ATTRIBUTE		0x8c
#define SCST_OP_READ_MEDIA_SERIAL	0xab
#define SCST_OP_READ_DEFECT_DATA_12	0xb7

/* SBC-3 §5.16, §5.6: SERVICE ACTION IN(16) service actions. */
#define SCST_SAI_READ_CAPACITY_16	0x10
#define SCST_SAI_GET_LBA_STATUS		0x12
/* SBC-3 §5.14: SERVICE ACTION IN(16), READ LONG(16). */
#define SCST_SAI_READ_LONG_16		0x11
/* SPC-4 annex D, MAINTENANCE IN service actions (the ones named here). */
#define SCST_MI_REPORT_IDENT_INFO	0x05
#define SCST_MI_REPORT_ALIASES		0x0b
#define SCST_MI_REPORT_SUPPORTED_OPCODES	0x0c
#define SCST_MI_REPORT_TMF		0x0d
#define SCST_MI_REPORT_PRIORITY		0x0e
#define SCST_MI_REPORT_TIMESTAMP	0x0f
/* SPC-4 §6.17.1, §6.49.1: READ/WRITE BUFFER MODE of the echo buffer. */
#define SCST_BUFFER_MODE_ECHO		0x0a

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
/* The data-out must be exactly bufflen bytes (scst_xfer_fit()). */
#define SCST_CDB_EXACT_OUT		0x2000

/*
 * struct scst_cdb_info.facts: what the layers after the parse ask of a
 * command, decoded once from its table row (scst_cdb_decode()) instead of
 * each switching on the operation code again. They are set as soon as
 * the operation code (and service action) is known, before the fields
 * are checked: a refused CDB still tells its unit attention and ALUA
 * class (scst_admit_decide() weighs those against the CDB error).
 */
/* Not failed by a pending unit attention (SAM-5 §5.14, SPC-4 §5.14). */
#define SCST_OPF_UA_EXEMPT		0x0001
/* The core answers it whatever the handler (scst_emul.c). */
#define SCST_OPF_CORE_EMUL		0x0002
/*
 * REPORT / SET TARGET PORT GROUPS (SPC-4 §6.36, §6.44): the core answers
 * it for a device in an ALUA device group, the handler otherwise.
 */
#define SCST_OPF_ALUA_TPG		0x0004
/*
 * A hint to handlers: executing it may sleep (reads or writes of the
 * medium beyond the data transfer, a mutex, a file system lookup).
 */
#define SCST_OPF_MAY_SLEEP		0x0008
/*
 * ALUA classes, SPC-4 §5.16.2.4 (scst_alua_admit_facts()): admitted in
 * every state (INQUIRY, REPORT LUNS, REQUEST SENSE, REPORT TARGET PORT
 * GROUPS, the echo buffer; §5.16.2.4.5-7) ...
 */
#define SCST_OPF_ALUA_ALWAYS		0x0010
/* ... SET TARGET PORT GROUPS: standby, unavailable, offline ... */
#define SCST_OPF_ALUA_STPG		0x0020
/* ... in standby only: LOG, MODE, diagnostics, PR (§5.16.2.4.4) ... */
#define SCST_OPF_ALUA_STANDBY		0x0040
/* ... and what an initiator needs to attach the logical unit. */
#define SCST_OPF_ALUA_INFO		0x0080
/*
 * Persistent reservation access, SPC-4 §5.9.1 table 63, SBC-3 §4.17
 * table 13 (scst_pr_conflicts_facts()): allowed through every type, or
 * a read that conflicts with the Exclusive Access types only; neither
 * means it conflicts with every type.
 */
#define SCST_OPF_PR_ALLOWED		0x0100
#define SCST_OPF_PR_READ		0x0200
/* SPC-2 RESERVE or RELEASE: conflicts while any registration exists. */
#define SCST_OPF_SPC2_RES		0x0400

/**
 * enum scst_op_id - what a command does, whatever its CDB's size
 *
 * Each row of the core's CDB table names one (scst_cdb_info.op_id, copied
 * to scst_cmd.op_id by the parse), so that a handler picks its executor
 * from a table indexed by it instead of switching on the operation code
 * and service action again. SCST_OPID_NONE: a command the table does not
 * decode (a pass-through handler's own).
 */
enum scst_op_id {
	SCST_OPID_NONE,
	SCST_OPID_TEST_UNIT_READY,
	SCST_OPID_REQUEST_SENSE,
	SCST_OPID_READ,
	SCST_OPID_WRITE,
	SCST_OPID_INQUIRY,
	SCST_OPID_MODE_SELECT,
	SCST_OPID_RESERVE,
	SCST_OPID_RELEASE,
	SCST_OPID_MODE_SENSE,
	SCST_OPID_START_STOP_UNIT,
	SCST_OPID_PREVENT_ALLOW_MEDIUM,
	SCST_OPID_READ_CAPACITY_10,
	SCST_OPID_WRITE_VERIFY,
	SCST_OPID_VERIFY,
	SCST_OPID_PRE_FETCH,
	SCST_OPID_SYNCHRONIZE_CACHE,
	SCST_OPID_WRITE_SAME,
	SCST_OPID_UNMAP,
	SCST_OPID_PR_IN,
	SCST_OPID_PR_OUT,
	SCST_OPID_COMPARE_AND_WRITE,
	SCST_OPID_READ_CAPACITY_16,
	SCST_OPID_GET_LBA_STATUS,
	SCST_OPID_REPORT_LUNS,
	SCST_OPID_REPORT_TPGS,
	SCST_OPID_REPORT_SUPPORTED_OPCODES,
	SCST_OPID_SET_TPGS,
	SCST_OPID_COUNT
};

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
 * @facts: SCST_OPF_* facts of the command, set even when the CDB is
 *	refused once its operation code is known
 * @op_id: what the command does (enum scst_op_id), set with @facts
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
	u32 facts;
	u8 op_id;
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
u32 scst_cdb_facts(const u8 *cdb, unsigned int cdb_len);
int scst_cdb_check_lba(const struct scst_cdb_info *info, u64 capacity_blocks,
		       struct scst_cdb_err *err);
/*
 * The largest data buffer one command may have (Documentation/design.md
 * §7): the default of the max_transfer_kb module parameter and device attribute,
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

/* SBC-3 §5.16, §5.17: READ CAPACITY(10) and (16) data lengths. */
#define SCST_READ_CAP10_LEN		8
#define SCST_READ_CAP16_LEN		32

/* SPC-4 §6.33: SELECT REPORT values. */
#define SCST_REPORT_LUNS_ALL_NO_WLUN	0x00
#define SCST_REPORT_LUNS_WLUN_ONLY	0x01
#define SCST_REPORT_LUNS_ALL		0x02

#endif /* __SCST_CDB_H */
