/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure-logic SRP information unit (IU) library of scst_srpt: parsing and
 * validation of the IUs an SRP initiator sends, building of the IUs the
 * target sends (srp_iu.c), and the InfiniBand device management (DM) MAD
 * payloads that advertise the target (srp_dm.c); which scatterlist
 * entries an RDMA transfer covers (srp_window.c).
 *
 * Written from the T10 SRP r16a draft (and the SRP-2 immediate data
 * extension as Linux' ib_srp uses it) and the InfiniBand Architecture
 * Specification volume 1, chapter 16.3. Everything here works on bytes
 * in caller-provided memory only: it never sleeps, never allocates and
 * includes nothing but scst_pure.h, so the same files build into
 * scst_srpt.ko and into the userspace unit tests and fuzzers.
 *
 * Every multi-byte field on the wire is big-endian. The names below use
 * the SRP_IU_ and SRP_DM_ prefixes so that they can coexist with the
 * kernel's <scsi/srp.h> and <rdma/ib_mad.h> in the driver.
 */
#ifndef __SRP_IU_H
#define __SRP_IU_H
/* API-READY */

#include <scst_sam.h>

/* ---------------------------------------------------------------------- */
/* Constants, SRP r16a                                                     */
/* ---------------------------------------------------------------------- */

/* SRP r16a §5.1: information unit types, byte 0 of every IU. */
#define SRP_IU_LOGIN_REQ		0x00
#define SRP_IU_TSK_MGMT			0x01
#define SRP_IU_CMD			0x02
#define SRP_IU_I_LOGOUT			0x03
#define SRP_IU_CRED_RSP			0x41
#define SRP_IU_AER_RSP			0x42
#define SRP_IU_T_LOGOUT			0x80
#define SRP_IU_CRED_REQ			0x81
#define SRP_IU_AER_REQ			0x82
#define SRP_IU_LOGIN_RSP		0xc0
#define SRP_IU_RSP			0xc1
#define SRP_IU_LOGIN_REJ		0xc2

/* Lengths of the IUs (the fixed part, for those with a variable part). */
#define SRP_IU_LOGIN_REQ_LEN		64	/* §6.2 */
#define SRP_IU_LOGIN_REQ_RDMA_LEN	56	/* RDMA/CM private data form */
#define SRP_IU_LOGIN_RSP_LEN		52	/* §6.3 */
#define SRP_IU_LOGIN_REJ_LEN		32	/* §6.4 */
#define SRP_IU_I_LOGOUT_LEN		16	/* §6.5 */
#define SRP_IU_T_LOGOUT_LEN		16	/* §6.6 */
#define SRP_IU_TSK_MGMT_LEN		48	/* §6.7 */
#define SRP_IU_CMD_LEN			48	/* §6.8, without add. CDB */
#define SRP_IU_RSP_LEN			36	/* §6.9, without data */
#define SRP_IU_CRED_REQ_LEN		16	/* §6.10 */
#define SRP_IU_CRED_RSP_LEN		16	/* §6.11 */
#define SRP_IU_AER_REQ_LEN		36	/* §6.12, without sense */
#define SRP_IU_AER_RSP_LEN		16	/* §6.13 */

/* §5.5: memory descriptors. */
#define SRP_IU_DIRECT_DESC_LEN		16	/* VA(8) R_Key(4) LENGTH(4) */
#define SRP_IU_INDIRECT_HDR_LEN		20	/* table descriptor + TOTAL LEN */
#define SRP_IU_IMM_DESC_LEN		4	/* SRP-2: LENGTH(4) */

/* SRP_LOGIN_REQ / _RSP / _REJ buffer formats (bit mask, §6.2, §6.3). */
#define SRP_IU_BUF_FMT_DIRECT		0x0002
#define SRP_IU_BUF_FMT_INDIRECT		0x0004
#define SRP_IU_BUF_FMT_ALL		(SRP_IU_BUF_FMT_DIRECT | \
					 SRP_IU_BUF_FMT_INDIRECT)

/*
 * SRP_CMD DATA-OUT (bits 7-4) and DATA-IN (bits 3-0) BUFFER DESCRIPTOR
 * FORMAT codes (§6.8), IMM being SRP-2's immediate data.
 */
#define SRP_IU_DESC_NONE		0
#define SRP_IU_DESC_DIRECT		1
#define SRP_IU_DESC_INDIRECT		2
#define SRP_IU_DESC_IMM			3

/* SRP_LOGIN_REQ REQUIRED FLAGS (§6.2): MULTI-CHANNEL ACTION, bits 1-0. */
#define SRP_IU_MCA_MASK			0x03
#define SRP_IU_MCA_SINGLE		0x00	/* terminate other channels */
#define SRP_IU_MCA_MULTI		0x01	/* keep other channels */
#define SRP_IU_IMMED_REQUESTED		0x80	/* SRP-2 immediate data */

/* SRP_LOGIN_RSP RESPONSE FLAGS (§6.3): MULTI-CHANNEL RESULT, bits 1-0. */
#define SRP_IU_MCR_NO_CHANNELS		0x00	/* no existing channels */
#define SRP_IU_MCR_TERMINATED		0x01	/* existing ones terminated */
#define SRP_IU_MCR_MAINTAINED		0x02	/* existing ones maintained */
#define SRP_IU_IMMED_SUPPORTED		0x80	/* SRP-2 immediate data */

/* §6.4: SRP_LOGIN_REJ REASON codes. */
#define SRP_IU_REJ_UNABLE_ESTABLISH	0x00010000
#define SRP_IU_REJ_INSUFFICIENT_RES	0x00010001
#define SRP_IU_REJ_IT_IU_LEN_TOO_LARGE	0x00010002
#define SRP_IU_REJ_UNABLE_ASSOCIATE	0x00010003
#define SRP_IU_REJ_UNSUPPORTED_FMT	0x00010004
#define SRP_IU_REJ_MULTICHANNEL_UNSUP	0x00010005
#define SRP_IU_REJ_CHANNEL_LIMIT	0x00010006

/* §6.6: SRP_T_LOGOUT REASON codes. */
#define SRP_IU_TLO_NO_REASON		0x00000000
#define SRP_IU_TLO_INACTIVE		0x00000001
#define SRP_IU_TLO_INVALID_IU_TYPE	0x00000002
#define SRP_IU_TLO_UNEXPECTED_RSP	0x00000003
#define SRP_IU_TLO_MULTICHANNEL		0x00000004
#define SRP_IU_TLO_BAD_DATA_OUT_FMT	0x00000005
#define SRP_IU_TLO_BAD_DATA_IN_FMT	0x00000006
#define SRP_IU_TLO_INVALID_IU_LEN	0x00000008

/* Byte 1 of SRP_CMD and SRP_TSK_MGMT (§6.7, §6.8): solicited notification. */
#define SRP_IU_SCSOLNT			0x02	/* on successful completion */
#define SRP_IU_UCSOLNT			0x04	/* on unsuccessful completion */
/* Byte 1 of SRP_RSP, SRP_T_LOGOUT, SRP_CRED_REQ, SRP_AER_REQ. */
#define SRP_IU_SOLNT			0x01

/* SRP_CMD TASK ATTRIBUTE, byte 29 bits 2-0 (§6.8): SAM task attributes. */
#define SRP_IU_TASK_ATTR_MASK		0x07
#define SRP_IU_TASK_SIMPLE		0x00
#define SRP_IU_TASK_HEAD_OF_QUEUE	0x01
#define SRP_IU_TASK_ORDERED		0x02
#define SRP_IU_TASK_ACA			0x04

/* §6.7: TASK MANAGEMENT FUNCTION codes. */
#define SRP_IU_TMF_ABORT_TASK		0x01
#define SRP_IU_TMF_ABORT_TASK_SET	0x02
#define SRP_IU_TMF_CLEAR_TASK_SET	0x04
#define SRP_IU_TMF_LUN_RESET		0x08
#define SRP_IU_TMF_CLEAR_ACA		0x40

/* SRP_RSP byte 18 (§6.9). */
#define SRP_IU_RSP_RSPVALID		0x01
#define SRP_IU_RSP_SNSVALID		0x02
#define SRP_IU_RSP_DOOVER		0x04
#define SRP_IU_RSP_DOUNDER		0x08
#define SRP_IU_RSP_DIOVER		0x10
#define SRP_IU_RSP_DIUNDER		0x20

/* §6.9: RSP_CODE in the 4 bytes of SRP_RSP response data. */
#define SRP_IU_RSP_CODE_COMPLETE	0x00	/* no failure / TMF complete */
#define SRP_IU_RSP_CODE_INVALID_FIELDS	0x02	/* request fields invalid */
#define SRP_IU_RSP_CODE_NOT_SUPPORTED	0x04	/* TMF not supported */
#define SRP_IU_RSP_CODE_FAILED		0x05	/* TMF failed */
#define SRP_IU_RSP_DATA_LEN		4
/* srp_build_rsp() rsp_code: send no response data (RSPVALID = 0). */
#define SRP_IU_NO_RSP_DATA		(-1)

/* SPC-4: ILLEGAL REQUEST, INVALID FIELD IN COMMAND INFORMATION UNIT. */
#define SRP_IU_SENSE_INVALID_IU \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x0e, 0x03)

/* ---------------------------------------------------------------------- */
/* IU type                                                                 */
/* ---------------------------------------------------------------------- */

int srp_iu_opcode(const u8 *buf, size_t len);
int srp_iu_min_len(u8 opcode);
int srp_iu_get_tag(const u8 *buf, size_t len, u64 *tag);

/* ---------------------------------------------------------------------- */
/* Login, SRP r16a §6.2 - §6.4                                             */
/* ---------------------------------------------------------------------- */

/**
 * struct srp_login_req_info - a validated SRP_LOGIN_REQ
 * @tag: TAG, echoed in SRP_LOGIN_RSP / SRP_LOGIN_REJ
 * @it_iu_len: REQUESTED MAXIMUM INITIATOR TO TARGET IU LENGTH
 * @req_buf_fmt: REQUIRED BUFFER FORMATS, SRP_IU_BUF_FMT_* bits
 * @req_flags: REQUIRED FLAGS: SRP_IU_MCA_* in bits 1-0 and
 *	SRP_IU_IMMED_REQUESTED
 * @imm_data_offset: SRP-2 IMMEDIATE DATA OFFSET, 0 unless requested
 * @imm_data_ok: immediate data was requested and @imm_data_offset leaves
 *	room for an SRP_CMD with its immediate data descriptor in front of
 *	the data and inside @it_iu_len: the target may grant it
 * @initiator_port_id: INITIATOR PORT IDENTIFIER
 * @target_port_id: TARGET PORT IDENTIFIER
 */
struct srp_login_req_info {
	u64 tag;
	u32 it_iu_len;
	u16 req_buf_fmt;
	u8 req_flags;
	u16 imm_data_offset;
	bool imm_data_ok;
	u8 initiator_port_id[16];
	u8 target_port_id[16];
};

int srp_parse_login_req(const u8 *buf, size_t len, u32 min_iu_len,
			u32 max_iu_len, struct srp_login_req_info *out,
			u32 *reject_reason);
int srp_parse_login_req_rdma(const u8 *buf, size_t len, u32 min_iu_len,
			     u32 max_iu_len, struct srp_login_req_info *out,
			     u32 *reject_reason);
int srp_build_login_rsp(u8 *buf, size_t len, u64 tag, s32 req_lim_delta,
			u32 max_it_iu_len, u32 max_ti_iu_len, u16 buf_fmt,
			u8 rsp_flags);
int srp_build_login_rej(u8 *buf, size_t len, u64 tag, u32 reason,
			u16 buf_fmt);

/* ---------------------------------------------------------------------- */
/* Logout, credits, asynchronous events, SRP r16a §6.5, §6.6, §6.10-§6.13  */
/* ---------------------------------------------------------------------- */

int srp_build_t_logout(u8 *buf, size_t len, u64 tag, u32 reason, u8 sol_not);
int srp_build_cred_req(u8 *buf, size_t len, u64 tag, s32 req_lim_delta,
		       u8 sol_not);
int srp_build_aer_req(u8 *buf, size_t len, u64 tag, s32 req_lim_delta,
		      const u8 *lun, const u8 *sense, u32 sense_len,
		      u8 sol_not);

/* ---------------------------------------------------------------------- */
/* SRP_CMD, SRP r16a §6.8 and §5.5                                         */
/* ---------------------------------------------------------------------- */

/* Longest additional CDB: ADDITIONAL CDB LENGTH is 6 bits of dwords. */
#define SRP_IU_MAX_ADD_CDB_LEN		252

/* Data direction of an SRP_CMD, the values of SCST_CDB_DIR_*. */
#define SRP_IU_DIR_NONE			0
#define SRP_IU_DIR_WRITE		1	/* data-out */
#define SRP_IU_DIR_READ			2	/* data-in */

/**
 * struct srp_cmd_info - a validated SRP_CMD
 * @tag: TAG
 * @lun: LOGICAL UNIT NUMBER, as on the wire (SAM-5 §4.6)
 * @sol_not: byte 1: SRP_IU_SCSOLNT and SRP_IU_UCSOLNT
 * @task_attr: TASK ATTRIBUTE, SRP_IU_TASK_*
 * @cdb: the CDB (16 bytes + additional CDB), points into the IU
 * @cdb_len: 16 + ADDITIONAL CDB LENGTH * 4
 * @data_out_fmt: DATA-OUT BUFFER DESCRIPTOR FORMAT, SRP_IU_DESC_*
 * @data_in_fmt: DATA-IN BUFFER DESCRIPTOR FORMAT, SRP_IU_DESC_*
 * @fmt: the format of the one direction with data (SRP_IU_DESC_NONE for
 *	none)
 * @dir: SRP_IU_DIR_NONE, _WRITE or _READ
 * @data_len: length of the data buffer: the direct descriptor's LENGTH,
 *	the indirect descriptor's TOTAL LENGTH or the immediate data length
 * @desc_off: offset in the IU of the first direct descriptor: the direct
 *	descriptor itself, or the partial memory descriptor list of an
 *	indirect one; read them with srp_cmd_desc()
 * @ndesc: number of direct descriptors at @desc_off (1 for direct, the
 *	DESCRIPTOR COUNT for indirect, 0 otherwise)
 * @table_addr: indirect: VIRTUAL ADDRESS of the descriptor table
 * @table_rkey: indirect: MEMORY HANDLE of the descriptor table
 * @table_len: indirect: LENGTH of the descriptor table, in bytes
 * @table_ndesc: indirect: number of descriptors in the whole table
 * @table_external: indirect: the table has more descriptors than the IU
 *	carries (§5.5.3 allows it): the target must RDMA READ the table
 *	(@table_addr, @table_rkey, @table_len) and check it with
 *	srp_parse_ext_table() before using it
 * @imm: SRP-2 immediate data: the data-out data is in the IU
 * @imm_offset: offset of the immediate data in the IU
 * @imm_len: length of the immediate data (= @data_len)
 */
struct srp_cmd_info {
	u64 tag;
	u8 lun[8];
	u8 sol_not;
	u8 task_attr;
	const u8 *cdb;
	u32 cdb_len;
	u8 data_out_fmt;
	u8 data_in_fmt;
	u8 fmt;
	u8 dir;
	u32 data_len;
	u32 desc_off;
	unsigned int ndesc;
	u64 table_addr;
	u32 table_rkey;
	u32 table_len;
	u32 table_ndesc;
	bool table_external;
	bool imm;
	u32 imm_offset;
	u32 imm_len;
};

/**
 * enum srp_cmd_err_reason - why srp_parse_cmd() rejected an SRP_CMD
 * @SRP_CMD_ERR_NONE: no error
 * @SRP_CMD_ERR_SHORT: IU shorter than the fixed part of SRP_CMD (48 bytes)
 * @SRP_CMD_ERR_OPCODE: byte 0 is not SRP_CMD
 * @SRP_CMD_ERR_ADD_CDB: the additional CDB runs past the end of the IU
 * @SRP_CMD_ERR_DATA_OUT_FMT: reserved DATA-OUT BUFFER DESCRIPTOR FORMAT
 * @SRP_CMD_ERR_DATA_IN_FMT: reserved DATA-IN BUFFER DESCRIPTOR FORMAT
 *	(immediate data exists for data-out only)
 * @SRP_CMD_ERR_BIDI: both a data-out and a data-in buffer (not supported)
 * @SRP_CMD_ERR_DESC_CNT: a DESCRIPTOR COUNT that disagrees with its format
 *	or with the indirect table's length
 * @SRP_CMD_ERR_DESC_PAST_IU: the descriptors run past the end of the IU
 * @SRP_CMD_ERR_TABLE: bad indirect descriptor table length (not a multiple
 *	of 16 bytes)
 * @SRP_CMD_ERR_TOTAL_LEN: indirect TOTAL LENGTH differs from the sum of
 *	the descriptor lengths, or that sum exceeds 2^32 - 1
 * @SRP_CMD_ERR_IMM: immediate data not granted at login, its descriptor
 *	overlaps the data, or the data runs past the IU
 * @SRP_CMD_ERR_TOO_MANY_DESC: more descriptors than the target accepts in
 *	one command (srp_cmd_check_desc())
 */
enum srp_cmd_err_reason {
	SRP_CMD_ERR_NONE,
	SRP_CMD_ERR_SHORT,
	SRP_CMD_ERR_OPCODE,
	SRP_CMD_ERR_ADD_CDB,
	SRP_CMD_ERR_DATA_OUT_FMT,
	SRP_CMD_ERR_DATA_IN_FMT,
	SRP_CMD_ERR_BIDI,
	SRP_CMD_ERR_DESC_CNT,
	SRP_CMD_ERR_DESC_PAST_IU,
	SRP_CMD_ERR_TABLE,
	SRP_CMD_ERR_TOTAL_LEN,
	SRP_CMD_ERR_IMM,
	SRP_CMD_ERR_TOO_MANY_DESC,
};

/**
 * struct srp_cmd_err - why an SRP_CMD was rejected, and what to answer
 * @reason: SRP_CMD_ERR_*
 * @sense_code: SCST_SENSE_CODE() for the CHECK CONDITION SRP_RSP; 0 when
 *	no response can be sent (the IU is too short to hold a TAG)
 * @offset: byte offset in the IU of the offending field, for the log
 */
struct srp_cmd_err {
	u8 reason;
	u32 sense_code;
	u32 offset;
};

int srp_parse_cmd(const u8 *buf, size_t iu_len, u32 imm_data_offset,
		  struct srp_cmd_info *out, struct srp_cmd_err *err);
const char *srp_cmd_err_str(u8 reason);
int srp_cmd_desc(const u8 *buf, const struct srp_cmd_info *ci,
		 unsigned int idx, u64 *va, u32 *rkey, u32 *len);
u32 srp_cmd_ndesc(const struct srp_cmd_info *ci);
int srp_cmd_check_desc(const struct srp_cmd_info *ci, u32 max_desc,
		       struct srp_cmd_err *err);
int srp_parse_ext_table(const u8 *tbl, size_t tbl_len,
			const struct srp_cmd_info *ci, struct srp_cmd_err *err);
int srp_desc_get(const u8 *tbl, size_t tbl_len, unsigned int idx, u64 *va,
		 u32 *rkey, u32 *len);

/* ---------------------------------------------------------------------- */
/* SRP_TSK_MGMT, SRP r16a §6.7                                             */
/* ---------------------------------------------------------------------- */

/**
 * struct srp_tsk_mgmt_info - a parsed SRP_TSK_MGMT
 * @tag: TAG of the task management request itself
 * @lun: LOGICAL UNIT NUMBER, as on the wire
 * @sol_not: byte 1: SRP_IU_SCSOLNT and SRP_IU_UCSOLNT
 * @tsk_mgmt_func: TASK MANAGEMENT FUNCTION, SRP_IU_TMF_*
 * @task_tag: TAG OF TASK TO BE MANAGED (ABORT TASK)
 */
struct srp_tsk_mgmt_info {
	u64 tag;
	u8 lun[8];
	u8 sol_not;
	u8 tsk_mgmt_func;
	u64 task_tag;
};

int srp_parse_tsk_mgmt(const u8 *buf, size_t len,
		       struct srp_tsk_mgmt_info *out);
int srp_tmf_to_scst(u8 func, enum scst_tmf *fn);
u8 srp_tmf_rsp_code(enum scst_tmf_response status);

/* ---------------------------------------------------------------------- */
/* SRP_RSP, SRP r16a §6.9                                                  */
/* ---------------------------------------------------------------------- */

void srp_rsp_resid(u8 dir, bool data_in, s64 resid, s64 *resid_in,
		   s64 *resid_out);
int srp_build_rsp(u8 *buf, size_t len, u64 tag, s32 req_lim_delta,
		  u8 status, const u8 *sense, u32 sense_len, s64 resid_in,
		  s64 resid_out, int rsp_code);

/**
 * srp_rsp_solnt() - SOLNT for an SRP_RSP answering an SRP_CMD/SRP_TSK_MGMT
 * @req_sol_not: byte 1 of the request (struct srp_cmd_info.sol_not)
 * @success: the request completed successfully (GOOD status, TMF complete)
 *
 * Return: SRP_IU_SOLNT if the initiator asked for solicited notification of
 * this kind of completion (§6.8 SCSOLNT / UCSOLNT), else 0; store it in
 * byte 1 of the SRP_RSP.
 */
static inline u8 srp_rsp_solnt(u8 req_sol_not, bool success)
{
	return (req_sol_not & (success ? SRP_IU_SCSOLNT : SRP_IU_UCSOLNT)) ?
		SRP_IU_SOLNT : 0;
}

/* ---------------------------------------------------------------------- */
/* RDMA windows over a command's buffer (srp_window.c)                     */
/* ---------------------------------------------------------------------- */

/**
 * struct srp_sg_win - the scatterlist entries of one window of bytes
 * @first: index of the first entry
 * @first_off: where in it the window starts
 * @nents: number of entries from @first on
 * @last_len: bytes of the last entry inside the window
 * @whole: the window is entries 0 .. @nents - 1, all of each
 */
struct srp_sg_win {
	u32 first;
	u32 first_off;
	u32 nents;
	u32 last_len;
	bool whole;
};

int srp_sg_window(u32 nents, u32 (*next_len)(void *it), void *it, u32 off,
		  u32 len, struct srp_sg_win *w);

/* ---------------------------------------------------------------------- */
/* Device management MADs, InfiniBand Architecture vol 1 §16.3 (srp_dm.c)  */
/* ---------------------------------------------------------------------- */

/*
 * IBA §13.4.2, §13.4.3: the common MAD header at the start of every MAD,
 * and the device management class that these MADs belong to. A DM MAD is
 * the 24-byte common header, 40 reserved bytes and 192 bytes of data
 * (§16.3.1, IB_MGMT_DEVICE_HDR and IB_MGMT_DEVICE_DATA).
 */
#define SRP_DM_MAD_LEN			256
#define SRP_DM_MAD_COMMON_HDR_LEN	24
#define SRP_DM_MAD_HDR_LEN		64	/* IB_MGMT_DEVICE_HDR */
#define SRP_DM_MAD_OFF_BASE_VERSION	0
#define SRP_DM_MAD_OFF_MGMT_CLASS	1
#define SRP_DM_MAD_OFF_CLASS_VERSION	2
#define SRP_DM_MAD_OFF_METHOD		3	/* R bit and Method */
#define SRP_DM_MAD_OFF_STATUS		4
#define SRP_DM_MAD_OFF_CLASS_SPECIFIC	6
#define SRP_DM_MAD_OFF_TID		8
#define SRP_DM_MAD_OFF_ATTR_ID		16
#define SRP_DM_MAD_OFF_ATTR_MOD		20
#define SRP_DM_MGMT_CLASS		0x06	/* IB_MGMT_CLASS_DEVICE_MGMT */
#define SRP_DM_BASE_VERSION		1	/* IB_MGMT_BASE_VERSION */
#define SRP_DM_CLASS_VERSION		1

/* IBA §13.4.5, §16.3.2: the methods of the DM class. */
#define SRP_DM_METHOD_GET		0x01
#define SRP_DM_METHOD_SET		0x02
#define SRP_DM_METHOD_GET_RESP		0x81
#define SRP_DM_METHOD_RESP		0x80	/* the R bit */

/* IBA §16.3.3 table 279: device management attribute IDs. */
#define SRP_DM_ATTR_CLASS_PORT_INFO	0x0001
#define SRP_DM_ATTR_IOU_INFO		0x0010
#define SRP_DM_ATTR_IOC_PROFILE		0x0011
#define SRP_DM_ATTR_SVC_ENTRIES		0x0012

/* IBA §13.4.7 (common MAD status bits) and §16.3.1.1: MAD status values. */
#define SRP_DM_STATUS_OK		0x0000
#define SRP_DM_STATUS_BAD_VERSION	0x0004
#define SRP_DM_STATUS_UNSUP_METHOD	0x0008
#define SRP_DM_STATUS_UNSUP_METHOD_ATTR	0x000c
#define SRP_DM_STATUS_INVALID_FIELD	0x001c
#define SRP_DM_STATUS_NO_IOC		0x0100

/* Payload sizes (the MAD data area of 192 bytes holds each of them). */
#define SRP_DM_MAD_DATA_LEN		192	/* IB_MGMT_DEVICE_DATA */
#define SRP_DM_CLASS_PORT_INFO_LEN	72	/* §13.4.8.1 */
#define SRP_DM_IOU_INFO_LEN		132	/* §16.3.3.3 */
#define SRP_DM_IOC_PROFILE_LEN		128	/* §16.3.3.4 */
#define SRP_DM_SVC_ENTRY_LEN		48	/* §16.3.3.5 */
#define SRP_DM_SVC_ENTRIES_MAX		4	/* entries per MAD */
#define SRP_DM_SVC_NAME_LEN		40
#define SRP_DM_ID_STRING_LEN		64
#define SRP_DM_MAX_CONTROLLERS		255	/* MaxControllers is 8 bits */

/* IBA §16.3.3.3: controller list nibbles. */
#define SRP_DM_SLOT_NOT_INSTALLED	0x0
#define SRP_DM_SLOT_PRESENT		0x1

/* SRP r16a annex B.7 table B.7: IOControllerProfile values for SRP. */
#define SRP_DM_IO_CLASS_SRP		0x0100	/* r10 used 0xff00 */
#define SRP_DM_IO_SUBCLASS_SRP		0x609e	/* T10 OUI */
#define SRP_DM_PROTOCOL_SRP		0x0108	/* SCSI, SRP */
#define SRP_DM_PROTOCOL_VERSION_SRP	0x0001

/* IBA §16.3.3.4: ControllerOperationsCapabilityMask bits. */
#define SRP_DM_OP_SEND_TO_IOC		0x01
#define SRP_DM_OP_SEND_FROM_IOC		0x02
#define SRP_DM_OP_RDMA_READ_TO_IOC	0x04
#define SRP_DM_OP_RDMA_READ_FROM_IOC	0x08
#define SRP_DM_OP_RDMA_WRITE_TO_IOC	0x10
#define SRP_DM_OP_RDMA_WRITE_FROM_IOC	0x20
#define SRP_DM_OP_ATOMIC_TO_IOC		0x40
#define SRP_DM_OP_ATOMIC_FROM_IOC	0x80

/* SRP r16a annex B.7 table B.8: service name prefix. */
#define SRP_DM_SVC_NAME_PREFIX		"SRP.T10:"

/**
 * struct srp_dm_ioc_profile - IOControllerProfile contents (IBA §16.3.3.4)
 * @guid: IO controller GUID
 * @vendor_id: 24-bit IEEE vendor ID
 * @device_id: device ID
 * @device_version: device version
 * @subsys_vendor_id: 24-bit subsystem vendor ID
 * @subsys_device_id: subsystem ID
 * @io_class: SRP_DM_IO_CLASS_SRP
 * @io_subclass: SRP_DM_IO_SUBCLASS_SRP
 * @protocol: SRP_DM_PROTOCOL_SRP
 * @protocol_version: SRP_DM_PROTOCOL_VERSION_SRP
 * @send_queue_depth: SendMessageQueueDepth
 * @rdma_read_depth: RDMAReadQueueDepth
 * @send_size: SendMessageSize: the largest IU the target accepts
 * @rdma_size: RDMATransferSize: the largest single RDMA transfer
 * @op_cap_mask: ControllerOperationsCapabilityMask, SRP_DM_OP_*
 * @num_svc_entries: ServiceEntries: number of service entries
 * @id_string: IDString, NUL-terminated or SRP_DM_ID_STRING_LEN bytes
 */
struct srp_dm_ioc_profile {
	u64 guid;
	u32 vendor_id;
	u32 device_id;
	u16 device_version;
	u32 subsys_vendor_id;
	u32 subsys_device_id;
	u16 io_class;
	u16 io_subclass;
	u16 protocol;
	u16 protocol_version;
	u16 send_queue_depth;
	u8 rdma_read_depth;
	u32 send_size;
	u32 rdma_size;
	u8 op_cap_mask;
	u8 num_svc_entries;
	const char *id_string;
};

/**
 * struct srp_dm_svc_entry - one ServiceEntry (IBA §16.3.3.5)
 * @name: ServiceName, NUL-padded, not necessarily NUL-terminated
 * @id: ServiceID
 */
struct srp_dm_svc_entry {
	char name[SRP_DM_SVC_NAME_LEN];
	u64 id;
};

/**
 * struct srp_dm_ioc - an IO controller as device management shows it
 * @profile: its IOControllerProfile
 * @svc_entries: its service entries, @profile.num_svc_entries of them
 */
struct srp_dm_ioc {
	struct srp_dm_ioc_profile profile;
	const struct srp_dm_svc_entry *svc_entries;
};

/**
 * struct srp_dm_iou - an IO unit (one port of the target) as device
 *	management shows it (IBA §16.3.3.3)
 * @change_id: IOUnitInfo ChangeID
 * @resp_time_value: ClassPortInfo RespTimeValue
 * @max_controllers: IOUnitInfo MaxControllers: number of slots
 * @slot_state: @max_controllers entries: SRP_DM_SLOT_* of slot 1, 2, ...
 * @ioc: @max_controllers entries: the controller in slot 1, 2, ...; only
 *	those of slots that are SRP_DM_SLOT_PRESENT are read
 */
struct srp_dm_iou {
	u16 change_id;
	u8 resp_time_value;
	u8 max_controllers;
	const u8 *slot_state;
	const struct srp_dm_ioc *ioc;
};

/**
 * enum srp_dm_reply - the payload that answers a DM request
 * @SRP_DM_REPLY_NONE: none: the data area stays zero, the status says why
 * @SRP_DM_REPLY_CLASS_PORT_INFO: srp_dm_build_class_port_info()
 * @SRP_DM_REPLY_IOU_INFO: srp_dm_build_iou_info()
 * @SRP_DM_REPLY_IOC_PROFILE: srp_dm_build_ioc_profile() of a slot
 * @SRP_DM_REPLY_SVC_ENTRIES: srp_dm_build_svc_entries() of a slot
 */
enum srp_dm_reply {
	SRP_DM_REPLY_NONE,
	SRP_DM_REPLY_CLASS_PORT_INFO,
	SRP_DM_REPLY_IOU_INFO,
	SRP_DM_REPLY_IOC_PROFILE,
	SRP_DM_REPLY_SVC_ENTRIES,
};

/**
 * struct srp_dm_action - how to answer a DM request (srp_dm_decide())
 * @reply: the payload to build, enum srp_dm_reply
 * @status: the MAD status of the GetResp, SRP_DM_STATUS_*
 * @slot: the controller slot (SRP_DM_REPLY_IOC_PROFILE, _SVC_ENTRIES)
 * @lo: first service entry (SRP_DM_REPLY_SVC_ENTRIES)
 * @hi: last service entry (SRP_DM_REPLY_SVC_ENTRIES)
 */
struct srp_dm_action {
	u8 reply;
	u16 status;
	u8 slot;
	u8 lo;
	u8 hi;
};

int srp_dm_build_class_port_info(u8 *buf, size_t len, u8 resp_time_value);
int srp_dm_build_iou_info(u8 *buf, size_t len, u16 change_id,
			  u8 max_controllers, u8 op_rom,
			  const u8 *slot_state);
int srp_dm_build_ioc_profile(u8 *buf, size_t len,
			     const struct srp_dm_ioc_profile *p);
void srp_dm_srp_svc_entry(struct srp_dm_svc_entry *e, u64 id_ext);
int srp_dm_build_svc_entries(u8 *buf, size_t len,
			     const struct srp_dm_svc_entry *entries,
			     u8 lo, u8 hi);
u16 srp_dm_check_ioc_profile(u32 attr_mod, u8 max_controllers,
			     const u8 *slot_state, u8 *slot);
u16 srp_dm_check_svc_entries(u32 attr_mod, u8 max_controllers,
			     const u8 *slot_state, u8 num_svc_entries,
			     u8 *slot, u8 *lo, u8 *hi);
void srp_dm_decide(u8 method, u16 attr_id, u32 attr_mod,
		   const struct srp_dm_iou *iou, struct srp_dm_action *act);
int srp_dm_answer_mad(const u8 *req, size_t req_len, u8 *rsp,
		      size_t rsp_len, const struct srp_dm_iou *iou);

#endif /* __SRP_IU_H */
