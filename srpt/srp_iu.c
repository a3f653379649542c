// SPDX-License-Identifier: GPL-2.0-only
/*
 * SRP information units: parsing and validation of what an SRP initiator
 * sends, building of what the target sends (T10 SRP r16a chapter 6, §5.5
 * memory descriptors, and the SRP-2 immediate data extension).
 *
 * Every IU comes from the wire, so nothing is trusted: each parser checks
 * every length and count against the number of bytes received before it
 * reads a field, and reports why it refused an IU together with the
 * answer to give (SRP_LOGIN_REJ reason, CHECK CONDITION sense code). The
 * builders write exactly the IU they return the length of, reserved bytes
 * zeroed, or refuse a buffer that is too small.
 *
 * Reserved fields of requests are not checked: SRP r16a §4.3 lets a
 * recipient ignore them, and initiators set bits that later revisions
 * define. Fields whose value we could misinterpret (formats, counts,
 * lengths) are checked strictly.
 */

#include <scst_pure.h>
#include "srp_iu.h"

/* Offsets common to most IUs (§6): TYPE, flags, TAG. */
#define IU_OFF_OPCODE		0
#define IU_OFF_SOL_NOT		1
#define IU_OFF_REQ_LIM		4
#define IU_OFF_TAG		8
#define IU_TAG_END		16

/* §6.2: SRP_LOGIN_REQ as carried in the IB CM REQ private data. */
#define LREQ_OFF_IT_IU_LEN	16
#define LREQ_OFF_BUF_FMT	24
#define LREQ_OFF_FLAGS		26
#define LREQ_OFF_IMM_OFFSET	28	/* SRP-2 */
#define LREQ_OFF_INI_PORT_ID	32
#define LREQ_OFF_TGT_PORT_ID	48

/*
 * The RDMA/CM private data form (Linux' struct srp_login_req_rdma): the
 * same fields without the reserved bytes, since RDMA/CM over InfiniBand
 * leaves only 56 bytes of REQ private data.
 */
#define LREQR_OFF_TAG		0
#define LREQR_OFF_BUF_FMT	8
#define LREQR_OFF_FLAGS		10
#define LREQR_OFF_OPCODE	11
#define LREQR_OFF_IT_IU_LEN	12
#define LREQR_OFF_INI_PORT_ID	16
#define LREQR_OFF_TGT_PORT_ID	32
#define LREQR_OFF_IMM_OFFSET	48

/* §6.3: SRP_LOGIN_RSP. */
#define LRSP_OFF_MAX_IT_IU_LEN	16
#define LRSP_OFF_MAX_TI_IU_LEN	20
#define LRSP_OFF_BUF_FMT	24
#define LRSP_OFF_FLAGS		26

/* §6.4: SRP_LOGIN_REJ. */
#define LREJ_OFF_REASON		4
#define LREJ_OFF_BUF_FMT	24

/* §6.6: SRP_T_LOGOUT. */
#define TLO_OFF_REASON		4

/* §6.7: SRP_TSK_MGMT. */
#define TMF_OFF_LUN		20
#define TMF_OFF_FUNC		30
#define TMF_OFF_TASK_TAG	32

/* §6.8: SRP_CMD. */
#define CMD_OFF_BUF_FMT		5
#define CMD_OFF_DO_CNT		6
#define CMD_OFF_DI_CNT		7
#define CMD_OFF_LUN		20
#define CMD_OFF_TASK_ATTR	29
#define CMD_OFF_ADD_CDB_LEN	31
#define CMD_OFF_CDB		32
#define CMD_CDB_LEN		16
/* ADDITIONAL CDB LENGTH: bits 7-2, in dwords; bits 1-0 reserved. */
#define CMD_ADD_CDB_LEN_MASK	0xfc

/* §5.5.2 and §5.5.3: memory descriptors. */
#define DESC_OFF_VA		0
#define DESC_OFF_KEY		8
#define DESC_OFF_LEN		12
#define IDESC_OFF_TOTAL_LEN	16

/* §6.9: SRP_RSP. */
#define RSP_OFF_FLAGS		18
#define RSP_OFF_STATUS		19
#define RSP_OFF_DO_RESID	20
#define RSP_OFF_DI_RESID	24
#define RSP_OFF_SENSE_LEN	28
#define RSP_OFF_RSP_LEN		32

/* §6.12: SRP_AER_REQ. */
#define AER_OFF_LUN		20
#define AER_OFF_SENSE_LEN	28

/**
 * srp_iu_min_len() - length of an IU type's fixed part
 * @opcode: information unit type, SRP_IU_*
 *
 * Return: the length an IU of this type needs at least (SRP r16a §6), or
 * -EOPNOTSUPP for a type SRP r16a does not define.
 */
int srp_iu_min_len(u8 opcode)
{
	switch (opcode) {
	case SRP_IU_LOGIN_REQ:
		return SRP_IU_LOGIN_REQ_LEN;
	case SRP_IU_TSK_MGMT:
		return SRP_IU_TSK_MGMT_LEN;
	case SRP_IU_CMD:
		return SRP_IU_CMD_LEN;
	case SRP_IU_I_LOGOUT:
		return SRP_IU_I_LOGOUT_LEN;
	case SRP_IU_CRED_RSP:
		return SRP_IU_CRED_RSP_LEN;
	case SRP_IU_AER_RSP:
		return SRP_IU_AER_RSP_LEN;
	case SRP_IU_T_LOGOUT:
		return SRP_IU_T_LOGOUT_LEN;
	case SRP_IU_CRED_REQ:
		return SRP_IU_CRED_REQ_LEN;
	case SRP_IU_AER_REQ:
		return SRP_IU_AER_REQ_LEN;
	case SRP_IU_LOGIN_RSP:
		return SRP_IU_LOGIN_RSP_LEN;
	case SRP_IU_RSP:
		return SRP_IU_RSP_LEN;
	case SRP_IU_LOGIN_REJ:
		return SRP_IU_LOGIN_REJ_LEN;
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * srp_iu_opcode() - the type of a received IU
 * @buf: the IU
 * @len: number of bytes received
 *
 * The IU is long enough for the fixed part of its type when this succeeds;
 * it may still be a type that a target never receives (SRP_RSP, ...): the
 * caller answers those, like unknown types, with SRP_T_LOGOUT reason
 * SRP_IU_TLO_INVALID_IU_TYPE, and an IU too short for its type with
 * SRP_IU_TLO_INVALID_IU_LEN (SRP r16a §6.6).
 *
 * Return: the IU type (SRP r16a §5.1), -EINVAL for an empty IU or one
 * shorter than its type's fixed part, -EOPNOTSUPP for an undefined type.
 */
int srp_iu_opcode(const u8 *buf, size_t len)
{
	int min_len;

	if (!buf || len < 1)
		return -EINVAL;
	min_len = srp_iu_min_len(buf[IU_OFF_OPCODE]);
	if (min_len < 0)
		return min_len;
	if (len < (size_t)min_len)
		return -EINVAL;
	return buf[IU_OFF_OPCODE];
}

/**
 * srp_iu_get_tag() - the TAG of a received IU
 * @buf: the IU
 * @len: number of bytes received
 * @tag: receives the TAG (bytes 8-15 of every IU but SRP_LOGIN_REQ's
 *	RDMA/CM form)
 *
 * Return: 0, or -EINVAL if the IU is too short to hold a TAG.
 */
int srp_iu_get_tag(const u8 *buf, size_t len, u64 *tag)
{
	if (!buf || len < IU_TAG_END)
		return -EINVAL;
	*tag = get_unaligned_be64(buf + IU_OFF_TAG);
	return 0;
}

/* Set *reason and fail. */
static int srp_login_reject(u32 *reject_reason, u32 reason)
{
	if (reject_reason)
		*reject_reason = reason;
	return -EINVAL;
}

/*
 * The checks of §6.2 common to both forms of SRP_LOGIN_REQ, on the fields
 * already copied into @out.
 */
static int srp_check_login_req(struct srp_login_req_info *out,
			       u32 min_iu_len, u32 max_iu_len,
			       u32 *reject_reason)
{
	/*
	 * §6.2: the target rejects a REQUESTED MAXIMUM INITIATOR TO TARGET IU
	 * LENGTH it cannot receive; below 64 bytes not even SRP_CMD fits.
	 */
	if (out->it_iu_len < min_iu_len || out->it_iu_len > max_iu_len)
		return srp_login_reject(reject_reason,
					SRP_IU_REJ_IT_IU_LEN_TOO_LARGE);
	/*
	 * REQUIRED BUFFER FORMATS: formats the target must support. Direct
	 * and indirect are all SRP r16a defines; a bit beyond them asks for
	 * a format we do not know.
	 */
	if (out->req_buf_fmt & ~SRP_IU_BUF_FMT_ALL)
		return srp_login_reject(reject_reason,
					SRP_IU_REJ_UNSUPPORTED_FMT);
	/* MULTI-CHANNEL ACTION: 00b single, 01b multiple, others reserved. */
	switch (out->req_flags & SRP_IU_MCA_MASK) {
	case SRP_IU_MCA_SINGLE:
	case SRP_IU_MCA_MULTI:
		break;
	default:
		return srp_login_reject(reject_reason,
					SRP_IU_REJ_MULTICHANNEL_UNSUP);
	}
	/*
	 * SRP-2: the IMMEDIATE DATA OFFSET only counts when immediate data is
	 * requested. Grantable if an SRP_CMD without additional CDB and with
	 * its immediate data descriptor ends at or before it, and some data
	 * fits behind it within the maximum IU length.
	 */
	if (!(out->req_flags & SRP_IU_IMMED_REQUESTED))
		out->imm_data_offset = 0;
	else
		out->imm_data_ok = out->imm_data_offset >=
			SRP_IU_CMD_LEN + SRP_IU_IMM_DESC_LEN &&
			out->imm_data_offset < out->it_iu_len;
	return 0;
}

/**
 * srp_parse_login_req() - parse an SRP_LOGIN_REQ from IB CM REQ private data
 * @buf: the CM REQ private data
 * @len: its length (92 bytes for IB CM; the IU is the first 64)
 * @min_iu_len: smallest acceptable REQUESTED MAXIMUM INITIATOR TO TARGET IU
 *	LENGTH (64 in SRP r16a)
 * @max_iu_len: largest one the target's receive buffers hold
 * @out: receives the request; all zero but what could be read on failure
 * @reject_reason: on failure, the SRP_LOGIN_REJ REASON to answer with
 *	(SRP r16a §6.4); untouched on success
 *
 * Return: 0, or -EINVAL with @reject_reason set: a truncated IU or another
 * type than SRP_LOGIN_REQ (SRP_IU_REJ_UNABLE_ESTABLISH), an IU length out
 * of range (SRP_IU_REJ_IT_IU_LEN_TOO_LARGE), a required buffer format we
 * do not know (SRP_IU_REJ_UNSUPPORTED_FMT) or a reserved multi-channel
 * action (SRP_IU_REJ_MULTICHANNEL_UNSUP).
 */
int srp_parse_login_req(const u8 *buf, size_t len, u32 min_iu_len,
			u32 max_iu_len, struct srp_login_req_info *out,
			u32 *reject_reason)
{
	memset(out, 0, sizeof(*out));
	if (buf && len >= IU_TAG_END)
		out->tag = get_unaligned_be64(buf + IU_OFF_TAG);
	if (!buf || len < SRP_IU_LOGIN_REQ_LEN ||
	    buf[IU_OFF_OPCODE] != SRP_IU_LOGIN_REQ)
		return srp_login_reject(reject_reason,
					SRP_IU_REJ_UNABLE_ESTABLISH);

	out->it_iu_len = get_unaligned_be32(buf + LREQ_OFF_IT_IU_LEN);
	out->req_buf_fmt = get_unaligned_be16(buf + LREQ_OFF_BUF_FMT);
	out->req_flags = buf[LREQ_OFF_FLAGS];
	out->imm_data_offset = get_unaligned_be16(buf + LREQ_OFF_IMM_OFFSET);
	memcpy(out->initiator_port_id, buf + LREQ_OFF_INI_PORT_ID, 16);
	memcpy(out->target_port_id, buf + LREQ_OFF_TGT_PORT_ID, 16);
	return srp_check_login_req(out, min_iu_len, max_iu_len, reject_reason);
}

/**
 * srp_parse_login_req_rdma() - parse an SRP_LOGIN_REQ from RDMA/CM private
 *	data
 * @buf: the RDMA/CM connect request private data
 * @len: its length (at least 56 bytes)
 * @min_iu_len: as for srp_parse_login_req()
 * @max_iu_len: as for srp_parse_login_req()
 * @out: as for srp_parse_login_req()
 * @reject_reason: as for srp_parse_login_req()
 *
 * The RDMA/CM form carries the fields of SRP_LOGIN_REQ in another order
 * and without the reserved bytes (Linux' struct srp_login_req_rdma).
 *
 * Return: as srp_parse_login_req().
 */
int srp_parse_login_req_rdma(const u8 *buf, size_t len, u32 min_iu_len,
			     u32 max_iu_len, struct srp_login_req_info *out,
			     u32 *reject_reason)
{
	memset(out, 0, sizeof(*out));
	if (buf && len >= LREQR_OFF_TAG + 8)
		out->tag = get_unaligned_be64(buf + LREQR_OFF_TAG);
	if (!buf || len < SRP_IU_LOGIN_REQ_RDMA_LEN ||
	    buf[LREQR_OFF_OPCODE] != SRP_IU_LOGIN_REQ)
		return srp_login_reject(reject_reason,
					SRP_IU_REJ_UNABLE_ESTABLISH);

	out->it_iu_len = get_unaligned_be32(buf + LREQR_OFF_IT_IU_LEN);
	out->req_buf_fmt = get_unaligned_be16(buf + LREQR_OFF_BUF_FMT);
	out->req_flags = buf[LREQR_OFF_FLAGS];
	out->imm_data_offset = get_unaligned_be16(buf + LREQR_OFF_IMM_OFFSET);
	memcpy(out->initiator_port_id, buf + LREQR_OFF_INI_PORT_ID, 16);
	memcpy(out->target_port_id, buf + LREQR_OFF_TGT_PORT_ID, 16);
	return srp_check_login_req(out, min_iu_len, max_iu_len, reject_reason);
}

/* Zero @iu_len bytes of @buf and write TYPE and TAG, or fail. */
static int srp_iu_start(u8 *buf, size_t len, size_t iu_len, u8 opcode,
			u64 tag)
{
	if (!buf || len < iu_len)
		return -ENOSPC;
	memset(buf, 0, iu_len);
	buf[IU_OFF_OPCODE] = opcode;
	put_unaligned_be64(tag, buf + IU_OFF_TAG);
	return 0;
}

/**
 * srp_build_login_rsp() - build an SRP_LOGIN_RSP (SRP r16a §6.3)
 * @buf: buffer for the IU (the IB CM REP or RDMA/CM accept private data)
 * @len: size of @buf
 * @tag: TAG of the SRP_LOGIN_REQ
 * @req_lim_delta: REQUEST LIMIT DELTA: the initial credit
 * @max_it_iu_len: MAXIMUM INITIATOR TO TARGET IU LENGTH
 * @max_ti_iu_len: MAXIMUM TARGET TO INITIATOR IU LENGTH
 * @buf_fmt: SUPPORTED BUFFER FORMATS, SRP_IU_BUF_FMT_* bits
 * @rsp_flags: RESPONSE FLAGS: SRP_IU_MCR_* and SRP_IU_IMMED_SUPPORTED
 *
 * Return: the IU length (52), or -ENOSPC if @buf is too small.
 */
int srp_build_login_rsp(u8 *buf, size_t len, u64 tag, s32 req_lim_delta,
			u32 max_it_iu_len, u32 max_ti_iu_len, u16 buf_fmt,
			u8 rsp_flags)
{
	int ret = srp_iu_start(buf, len, SRP_IU_LOGIN_RSP_LEN,
			       SRP_IU_LOGIN_RSP, tag);

	if (ret)
		return ret;
	put_unaligned_be32((u32)req_lim_delta, buf + IU_OFF_REQ_LIM);
	put_unaligned_be32(max_it_iu_len, buf + LRSP_OFF_MAX_IT_IU_LEN);
	put_unaligned_be32(max_ti_iu_len, buf + LRSP_OFF_MAX_TI_IU_LEN);
	put_unaligned_be16(buf_fmt, buf + LRSP_OFF_BUF_FMT);
	buf[LRSP_OFF_FLAGS] = rsp_flags;
	return SRP_IU_LOGIN_RSP_LEN;
}

/**
 * srp_build_login_rej() - build an SRP_LOGIN_REJ (SRP r16a §6.4)
 * @buf: buffer for the IU (the IB CM REJ or RDMA/CM reject private data:
 *	both carry the same IU)
 * @len: size of @buf
 * @tag: TAG of the SRP_LOGIN_REQ (0 if it was too short to have one)
 * @reason: REASON, SRP_IU_REJ_*
 * @buf_fmt: SUPPORTED BUFFER FORMATS, SRP_IU_BUF_FMT_* bits
 *
 * Return: the IU length (32), or -ENOSPC if @buf is too small.
 */
int srp_build_login_rej(u8 *buf, size_t len, u64 tag, u32 reason,
			u16 buf_fmt)
{
	int ret = srp_iu_start(buf, len, SRP_IU_LOGIN_REJ_LEN,
			       SRP_IU_LOGIN_REJ, tag);

	if (ret)
		return ret;
	put_unaligned_be32(reason, buf + LREJ_OFF_REASON);
	put_unaligned_be16(buf_fmt, buf + LREJ_OFF_BUF_FMT);
	return SRP_IU_LOGIN_REJ_LEN;
}

/**
 * srp_build_t_logout() - build an SRP_T_LOGOUT (SRP r16a §6.6)
 * @buf: buffer for the IU
 * @len: size of @buf
 * @tag: TAG
 * @reason: REASON, SRP_IU_TLO_*
 * @sol_not: byte 1: SRP_IU_SOLNT or 0
 *
 * Return: the IU length (16), or -ENOSPC if @buf is too small.
 */
int srp_build_t_logout(u8 *buf, size_t len, u64 tag, u32 reason, u8 sol_not)
{
	int ret = srp_iu_start(buf, len, SRP_IU_T_LOGOUT_LEN, SRP_IU_T_LOGOUT,
			       tag);

	if (ret)
		return ret;
	buf[IU_OFF_SOL_NOT] = sol_not;
	put_unaligned_be32(reason, buf + TLO_OFF_REASON);
	return SRP_IU_T_LOGOUT_LEN;
}

/**
 * srp_build_cred_req() - build an SRP_CRED_REQ (SRP r16a §6.10)
 * @buf: buffer for the IU
 * @len: size of @buf
 * @tag: TAG
 * @req_lim_delta: REQUEST LIMIT DELTA
 * @sol_not: byte 1: SRP_IU_SOLNT or 0
 *
 * Return: the IU length (16), or -ENOSPC if @buf is too small.
 */
int srp_build_cred_req(u8 *buf, size_t len, u64 tag, s32 req_lim_delta,
		       u8 sol_not)
{
	int ret = srp_iu_start(buf, len, SRP_IU_CRED_REQ_LEN, SRP_IU_CRED_REQ,
			       tag);

	if (ret)
		return ret;
	buf[IU_OFF_SOL_NOT] = sol_not;
	put_unaligned_be32((u32)req_lim_delta, buf + IU_OFF_REQ_LIM);
	return SRP_IU_CRED_REQ_LEN;
}

/**
 * srp_build_aer_req() - build an SRP_AER_REQ (SRP r16a §6.12)
 * @buf: buffer for the IU
 * @len: size of @buf (the initiator's maximum target to initiator IU
 *	length, at most)
 * @tag: TAG
 * @req_lim_delta: REQUEST LIMIT DELTA
 * @lun: LOGICAL UNIT NUMBER, 8 bytes as on the wire
 * @sense: the sense data reporting the event
 * @sense_len: its length, at most SCST_SENSE_MAX_LEN; must fit in @buf
 * @sol_not: byte 1: SRP_IU_SOLNT or 0
 *
 * Return: the IU length, -ENOSPC if @buf is too small, -EINVAL for sense
 * data longer than SPC-4 allows.
 */
int srp_build_aer_req(u8 *buf, size_t len, u64 tag, s32 req_lim_delta,
		      const u8 *lun, const u8 *sense, u32 sense_len,
		      u8 sol_not)
{
	size_t iu_len = (size_t)SRP_IU_AER_REQ_LEN + sense_len;
	int ret;

	if ((sense_len && !sense) || sense_len > SCST_SENSE_MAX_LEN || !lun)
		return -EINVAL;
	ret = srp_iu_start(buf, len, iu_len, SRP_IU_AER_REQ, tag);
	if (ret)
		return ret;
	buf[IU_OFF_SOL_NOT] = sol_not;
	put_unaligned_be32((u32)req_lim_delta, buf + IU_OFF_REQ_LIM);
	memcpy(buf + AER_OFF_LUN, lun, 8);
	put_unaligned_be32(sense_len, buf + AER_OFF_SENSE_LEN);
	if (sense_len)
		memcpy(buf + SRP_IU_AER_REQ_LEN, sense, sense_len);
	return (int)iu_len;
}

/* ---------------------------------------------------------------------- */
/* SRP_CMD                                                                 */
/* ---------------------------------------------------------------------- */

static const char * const srp_cmd_err_strs[] = {
	[SRP_CMD_ERR_NONE] = "no error",
	[SRP_CMD_ERR_SHORT] = "IU shorter than SRP_CMD",
	[SRP_CMD_ERR_OPCODE] = "not an SRP_CMD",
	[SRP_CMD_ERR_ADD_CDB] = "additional CDB runs past the IU",
	[SRP_CMD_ERR_DATA_OUT_FMT] = "reserved data-out descriptor format",
	[SRP_CMD_ERR_DATA_IN_FMT] = "reserved data-in descriptor format",
	[SRP_CMD_ERR_BIDI] = "bidirectional commands are not supported",
	[SRP_CMD_ERR_DESC_CNT] = "descriptor count disagrees with format",
	[SRP_CMD_ERR_DESC_PAST_IU] = "descriptors run past the IU",
	[SRP_CMD_ERR_TABLE] = "invalid indirect descriptor table length",
	[SRP_CMD_ERR_TOTAL_LEN] = "total length disagrees with descriptors",
	[SRP_CMD_ERR_IMM] = "invalid immediate data",
	[SRP_CMD_ERR_TOO_MANY_DESC] = "more descriptors than the target takes",
};

/**
 * srp_cmd_err_str() - describe an srp_parse_cmd() error, for the log
 * @reason: SRP_CMD_ERR_*
 *
 * Return: a constant string.
 */
const char *srp_cmd_err_str(u8 reason)
{
	if (reason >= ARRAY_SIZE(srp_cmd_err_strs))
		return "unknown error";
	return srp_cmd_err_strs[reason];
}

/* Record why an SRP_CMD is refused and fail. */
static int srp_cmd_fail(struct srp_cmd_err *err, u8 reason, u32 sense_code,
			size_t offset)
{
	if (err) {
		err->reason = reason;
		err->sense_code = sense_code;
		err->offset = (u32)offset;
	}
	return -EINVAL;
}

#define srp_cmd_bad(err, reason, offset) \
	srp_cmd_fail(err, reason, SRP_IU_SENSE_INVALID_IU, offset)

/* Sum the LENGTH of @n direct descriptors at @p; false past 2^32 - 1. */
static bool srp_desc_sum(const u8 *p, u32 n, u32 *sum)
{
	u64 total = 0;
	u32 i;

	for (i = 0; i < n; i++, p += SRP_IU_DIRECT_DESC_LEN)
		total += get_unaligned_be32(p + DESC_OFF_LEN);
	if (total > U32_MAX)
		return false;
	*sum = (u32)total;
	return true;
}

/*
 * §5.5.3: an indirect data buffer descriptor at @off: the descriptor of
 * the whole descriptor table, TOTAL LENGTH, then @cnt direct descriptors,
 * the first @cnt of the table (the partial memory descriptor list).
 */
static int srp_parse_indirect(const u8 *buf, size_t iu_len, size_t off,
			      u8 cnt, size_t cnt_off,
			      struct srp_cmd_info *ci, struct srp_cmd_err *err)
{
	const u8 *d = buf + off;
	size_t list_end;
	u32 sum;

	if (off + SRP_IU_INDIRECT_HDR_LEN > iu_len)
		return srp_cmd_bad(err, SRP_CMD_ERR_DESC_PAST_IU, off);
	ci->table_addr = get_unaligned_be64(d + DESC_OFF_VA);
	ci->table_rkey = get_unaligned_be32(d + DESC_OFF_KEY);
	ci->table_len = get_unaligned_be32(d + DESC_OFF_LEN);
	ci->data_len = get_unaligned_be32(d + IDESC_OFF_TOTAL_LEN);
	if (ci->table_len % SRP_IU_DIRECT_DESC_LEN)
		return srp_cmd_bad(err, SRP_CMD_ERR_TABLE, off + DESC_OFF_LEN);
	ci->table_ndesc = ci->table_len / SRP_IU_DIRECT_DESC_LEN;
	/* The IU cannot carry more of the table than the table holds. */
	if (cnt > ci->table_ndesc)
		return srp_cmd_bad(err, SRP_CMD_ERR_DESC_CNT, cnt_off);
	list_end = off + SRP_IU_INDIRECT_HDR_LEN +
		   (size_t)cnt * SRP_IU_DIRECT_DESC_LEN;
	if (list_end > iu_len)
		return srp_cmd_bad(err, SRP_CMD_ERR_DESC_PAST_IU, cnt_off);
	ci->desc_off = (u32)(off + SRP_IU_INDIRECT_HDR_LEN);
	ci->ndesc = cnt;
	ci->table_external = cnt < ci->table_ndesc;
	if (!srp_desc_sum(buf + ci->desc_off, cnt, &sum))
		return srp_cmd_bad(err, SRP_CMD_ERR_TOTAL_LEN,
				   off + IDESC_OFF_TOTAL_LEN);
	/*
	 * TOTAL LENGTH is the sum of the table's descriptor lengths: equal to
	 * what the IU carries when it carries the whole table, at least that
	 * otherwise (srp_parse_ext_table() checks the rest).
	 */
	if (ci->table_external ? sum > ci->data_len : sum != ci->data_len)
		return srp_cmd_bad(err, SRP_CMD_ERR_TOTAL_LEN,
				   off + IDESC_OFF_TOTAL_LEN);
	return 0;
}

/**
 * srp_parse_cmd() - validate an SRP_CMD and locate its parts
 * @buf: the IU
 * @iu_len: number of bytes received
 * @imm_data_offset: the IMMEDIATE DATA OFFSET granted at login (SRP-2),
 *	or 0 if the channel has no immediate data
 * @out: receives the command; on failure it holds what could be read,
 *	the TAG included when @iu_len >= 16
 * @err: receives why the command was refused, or NULL
 *
 * Checks (SRP r16a §6.8, §5.5): the fixed part and the additional CDB lie
 * within the IU; the descriptor formats are defined ones and at most one
 * direction has data (bidirectional commands are refused); the descriptor
 * counts fit the formats: 0 for no data, 0 or 1 for a direct or immediate
 * data descriptor (Linux' initiator leaves them 0), the partial list's
 * length for an indirect one; every descriptor lies within the IU; an
 * indirect table's length is a whole number of descriptors, no fewer than
 * the IU carries, and its TOTAL LENGTH is the sum of the descriptors'
 * lengths and below 2^32; immediate data was granted, starts behind its
 * descriptor and ends within the IU. Bytes received past what the IU
 * needs are ignored. A zero data length is valid.
 *
 * Return: 0, or -EINVAL with @err filled in: answer with a CHECK CONDITION
 * SRP_RSP carrying @err->sense_code, or drop the channel when it is 0.
 */
int srp_parse_cmd(const u8 *buf, size_t iu_len, u32 imm_data_offset,
		  struct srp_cmd_info *out, struct srp_cmd_err *err)
{
	size_t add_cdb_len, off;
	u8 fmt_byte, cnt;
	size_t cnt_off;
	int ret;

	memset(out, 0, sizeof(*out));
	if (err)
		memset(err, 0, sizeof(*err));
	if (!buf || iu_len < IU_TAG_END)
		return srp_cmd_fail(err, SRP_CMD_ERR_SHORT, 0, 0);
	out->tag = get_unaligned_be64(buf + IU_OFF_TAG);
	out->sol_not = buf[IU_OFF_SOL_NOT];
	if (iu_len < SRP_IU_CMD_LEN)
		return srp_cmd_bad(err, SRP_CMD_ERR_SHORT, iu_len);
	if (buf[IU_OFF_OPCODE] != SRP_IU_CMD)
		return srp_cmd_bad(err, SRP_CMD_ERR_OPCODE, IU_OFF_OPCODE);

	memcpy(out->lun, buf + CMD_OFF_LUN, sizeof(out->lun));
	out->task_attr = buf[CMD_OFF_TASK_ATTR] & SRP_IU_TASK_ATTR_MASK;
	add_cdb_len = buf[CMD_OFF_ADD_CDB_LEN] & CMD_ADD_CDB_LEN_MASK;
	if (SRP_IU_CMD_LEN + add_cdb_len > iu_len)
		return srp_cmd_bad(err, SRP_CMD_ERR_ADD_CDB,
				   CMD_OFF_ADD_CDB_LEN);
	out->cdb = buf + CMD_OFF_CDB;
	out->cdb_len = CMD_CDB_LEN + add_cdb_len;

	fmt_byte = buf[CMD_OFF_BUF_FMT];
	out->data_out_fmt = fmt_byte >> 4;
	out->data_in_fmt = fmt_byte & 0xf;
	if (out->data_out_fmt > SRP_IU_DESC_IMM)
		return srp_cmd_bad(err, SRP_CMD_ERR_DATA_OUT_FMT,
				   CMD_OFF_BUF_FMT);
	if (out->data_in_fmt > SRP_IU_DESC_INDIRECT)
		return srp_cmd_bad(err, SRP_CMD_ERR_DATA_IN_FMT,
				   CMD_OFF_BUF_FMT);
	if (out->data_out_fmt && out->data_in_fmt)
		return srp_cmd_bad(err, SRP_CMD_ERR_BIDI, CMD_OFF_BUF_FMT);

	/* The direction without data must not claim descriptors. */
	if (out->data_out_fmt) {
		out->dir = SRP_IU_DIR_WRITE;
		out->fmt = out->data_out_fmt;
		cnt_off = CMD_OFF_DO_CNT;
		if (buf[CMD_OFF_DI_CNT])
			return srp_cmd_bad(err, SRP_CMD_ERR_DESC_CNT,
					   CMD_OFF_DI_CNT);
	} else {
		out->dir = out->data_in_fmt ? SRP_IU_DIR_READ : SRP_IU_DIR_NONE;
		out->fmt = out->data_in_fmt;
		cnt_off = CMD_OFF_DI_CNT;
		if (buf[CMD_OFF_DO_CNT])
			return srp_cmd_bad(err, SRP_CMD_ERR_DESC_CNT,
					   CMD_OFF_DO_CNT);
	}
	cnt = buf[cnt_off];
	off = SRP_IU_CMD_LEN + add_cdb_len;

	switch (out->fmt) {
	case SRP_IU_DESC_NONE:
		if (cnt)
			return srp_cmd_bad(err, SRP_CMD_ERR_DESC_CNT, cnt_off);
		break;
	case SRP_IU_DESC_DIRECT:
		/* §5.5.2: one direct data buffer descriptor. */
		if (cnt > 1)
			return srp_cmd_bad(err, SRP_CMD_ERR_DESC_CNT, cnt_off);
		if (off + SRP_IU_DIRECT_DESC_LEN > iu_len)
			return srp_cmd_bad(err, SRP_CMD_ERR_DESC_PAST_IU, off);
		out->desc_off = (u32)off;
		out->ndesc = 1;
		out->data_len = get_unaligned_be32(buf + off + DESC_OFF_LEN);
		break;
	case SRP_IU_DESC_INDIRECT:
		ret = srp_parse_indirect(buf, iu_len, off, cnt, cnt_off, out,
					 err);
		if (ret)
			return ret;
		break;
	case SRP_IU_DESC_IMM:
		/* SRP-2: LENGTH here, the data at the login's offset. */
		if (cnt > 1)
			return srp_cmd_bad(err, SRP_CMD_ERR_DESC_CNT, cnt_off);
		if (off + SRP_IU_IMM_DESC_LEN > iu_len)
			return srp_cmd_bad(err, SRP_CMD_ERR_DESC_PAST_IU, off);
		if (!imm_data_offset)
			return srp_cmd_bad(err, SRP_CMD_ERR_IMM,
					   CMD_OFF_BUF_FMT);
		if (off + SRP_IU_IMM_DESC_LEN > imm_data_offset)
			return srp_cmd_bad(err, SRP_CMD_ERR_IMM,
					   CMD_OFF_ADD_CDB_LEN);
		out->imm_len = get_unaligned_be32(buf + off);
		if ((u64)imm_data_offset + out->imm_len > iu_len)
			return srp_cmd_bad(err, SRP_CMD_ERR_IMM, off);
		out->imm = true;
		out->imm_offset = imm_data_offset;
		out->data_len = out->imm_len;
		break;
	}
	return 0;
}

/**
 * srp_cmd_ndesc() - number of direct descriptors of an SRP_CMD
 * @ci: what srp_parse_cmd() made of it
 *
 * Return: 1 for a direct data buffer descriptor, the number of
 * descriptors in the whole table of an indirect one (SRP r16a 5.5.3:
 * DESCRIPTOR TABLE LENGTH / 16, whether or not the IU carries them all),
 * 0 for none or immediate data.
 */
u32 srp_cmd_ndesc(const struct srp_cmd_info *ci)
{
	switch (ci->fmt) {
	case SRP_IU_DESC_DIRECT:
		return 1;
	case SRP_IU_DESC_INDIRECT:
		return ci->table_ndesc;
	default:
		return 0;
	}
}

/**
 * srp_cmd_check_desc() - refuse an SRP_CMD with more descriptors than the
 *	target takes
 * @ci: what srp_parse_cmd() made of a valid SRP_CMD
 * @max_desc: most direct descriptors the target accepts in one command
 *	(a limit it chose, and what one command's work requests may use of
 *	the channel's send queue)
 * @err: receives why the command was refused, or NULL
 *
 * SRP r16a 5.5.3 puts no limit on the length of an indirect descriptor
 * table, but every descriptor costs the target an RDMA context and send
 * queue entries: a command with more than it can ever post is refused
 * before anything is allocated for it, so it neither takes memory in
 * proportion to a number from the wire nor waits for send queue room that
 * never comes.
 *
 * Return: 0, or -EINVAL with @err filled in (SRP_CMD_ERR_TOO_MANY_DESC,
 * INVALID FIELD IN COMMAND INFORMATION UNIT, the offset of the DESCRIPTOR
 * TABLE LENGTH): answer with a CHECK CONDITION.
 */
int srp_cmd_check_desc(const struct srp_cmd_info *ci, u32 max_desc,
		       struct srp_cmd_err *err)
{
	size_t off;

	if (err)
		memset(err, 0, sizeof(*err));
	if (srp_cmd_ndesc(ci) <= max_desc)
		return 0;
	/* only an indirect table can hold more than one descriptor */
	off = ci->desc_off - SRP_IU_INDIRECT_HDR_LEN + DESC_OFF_LEN;
	return srp_cmd_bad(err, SRP_CMD_ERR_TOO_MANY_DESC, off);
}

/**
 * srp_desc_get() - read one direct data buffer descriptor of a table
 * @tbl: the descriptors, SRP_IU_DIRECT_DESC_LEN bytes each (SRP r16a §5.5.2)
 * @tbl_len: length of @tbl in bytes
 * @idx: which descriptor
 * @va: receives its VIRTUAL ADDRESS
 * @rkey: receives its MEMORY HANDLE (R_Key)
 * @len: receives its LENGTH
 *
 * Return: 0, or -EINVAL if descriptor @idx is not wholly within @tbl.
 */
int srp_desc_get(const u8 *tbl, size_t tbl_len, unsigned int idx, u64 *va,
		 u32 *rkey, u32 *len)
{
	const u8 *d;

	if (!tbl || idx >= tbl_len / SRP_IU_DIRECT_DESC_LEN)
		return -EINVAL;
	d = tbl + (size_t)idx * SRP_IU_DIRECT_DESC_LEN;
	*va = get_unaligned_be64(d + DESC_OFF_VA);
	*rkey = get_unaligned_be32(d + DESC_OFF_KEY);
	*len = get_unaligned_be32(d + DESC_OFF_LEN);
	return 0;
}

/**
 * srp_cmd_desc() - read a direct descriptor carried in an SRP_CMD
 * @buf: the IU srp_parse_cmd() accepted
 * @ci: what srp_parse_cmd() made of it
 * @idx: which descriptor, below @ci->ndesc: 0 for a direct data buffer
 *	descriptor, the index in the partial memory descriptor list of an
 *	indirect one
 * @va: receives its VIRTUAL ADDRESS
 * @rkey: receives its MEMORY HANDLE (R_Key)
 * @len: receives its LENGTH
 *
 * Return: 0, or -EINVAL if @idx is out of range.
 */
int srp_cmd_desc(const u8 *buf, const struct srp_cmd_info *ci,
		 unsigned int idx, u64 *va, u32 *rkey, u32 *len)
{
	if (!buf || idx >= ci->ndesc)
		return -EINVAL;
	return srp_desc_get(buf + ci->desc_off,
			    (size_t)ci->ndesc * SRP_IU_DIRECT_DESC_LEN, idx,
			    va, rkey, len);
}

/**
 * srp_parse_ext_table() - check an indirect descriptor table fetched from
 *	the initiator
 * @tbl: the table, read by RDMA READ from @ci->table_addr
 * @tbl_len: number of bytes read, @ci->table_len
 * @ci: the SRP_CMD, with @ci->table_external set
 * @err: receives why the table was refused, or NULL
 *
 * SRP r16a §5.5.3: the table holds @ci->table_ndesc direct descriptors
 * whose lengths add up to TOTAL LENGTH. Read them with srp_desc_get().
 *
 * Return: 0, or -EINVAL with @err filled in (SRP_CMD_ERR_TABLE for a
 * table of another size or a command without an external table,
 * SRP_CMD_ERR_TOTAL_LEN for lengths that do not add
 * up); answer with a CHECK CONDITION carrying @err->sense_code.
 */
int srp_parse_ext_table(const u8 *tbl, size_t tbl_len,
			const struct srp_cmd_info *ci, struct srp_cmd_err *err)
{
	u32 sum;

	if (err)
		memset(err, 0, sizeof(*err));
	if (ci->fmt != SRP_IU_DESC_INDIRECT || !ci->table_external || !tbl ||
	    tbl_len != ci->table_len)
		return srp_cmd_bad(err, SRP_CMD_ERR_TABLE, 0);
	if (!srp_desc_sum(tbl, ci->table_ndesc, &sum) || sum != ci->data_len)
		return srp_cmd_bad(err, SRP_CMD_ERR_TOTAL_LEN, 0);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* SRP_TSK_MGMT                                                            */
/* ---------------------------------------------------------------------- */

/**
 * srp_parse_tsk_mgmt() - parse an SRP_TSK_MGMT (SRP r16a §6.7)
 * @buf: the IU
 * @len: number of bytes received
 * @out: receives the request; on failure what could be read, the TAG
 *	included when @len >= 16
 *
 * Return: 0; -EINVAL for an IU that is too short or not an SRP_TSK_MGMT;
 * -EOPNOTSUPP for a TASK MANAGEMENT FUNCTION that SRP r16a does not define,
 * with @out filled in: answer with RSP_CODE SRP_IU_RSP_CODE_NOT_SUPPORTED.
 */
int srp_parse_tsk_mgmt(const u8 *buf, size_t len,
		       struct srp_tsk_mgmt_info *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf || len < IU_TAG_END)
		return -EINVAL;
	out->tag = get_unaligned_be64(buf + IU_OFF_TAG);
	out->sol_not = buf[IU_OFF_SOL_NOT];
	if (len < SRP_IU_TSK_MGMT_LEN || buf[IU_OFF_OPCODE] != SRP_IU_TSK_MGMT)
		return -EINVAL;
	memcpy(out->lun, buf + TMF_OFF_LUN, sizeof(out->lun));
	out->tsk_mgmt_func = buf[TMF_OFF_FUNC];
	out->task_tag = get_unaligned_be64(buf + TMF_OFF_TASK_TAG);
	return srp_tmf_to_scst(out->tsk_mgmt_func, NULL);
}

/**
 * srp_tmf_to_scst() - the SAM-5 function of a TASK MANAGEMENT FUNCTION code
 * @func: TASK MANAGEMENT FUNCTION of an SRP_TSK_MGMT (SRP r16a §6.7)
 * @fn: receives the function, unless NULL
 *
 * Return: 0, or -EOPNOTSUPP for a code SRP r16a does not define (the
 * reserved ones, and any two bits together): answer with RSP_CODE
 * SRP_IU_RSP_CODE_NOT_SUPPORTED.
 */
int srp_tmf_to_scst(u8 func, enum scst_tmf *fn)
{
	enum scst_tmf f;

	switch (func) {
	case SRP_IU_TMF_ABORT_TASK:
		f = SCST_ABORT_TASK;
		break;
	case SRP_IU_TMF_ABORT_TASK_SET:
		f = SCST_ABORT_TASK_SET;
		break;
	case SRP_IU_TMF_CLEAR_TASK_SET:
		f = SCST_CLEAR_TASK_SET;
		break;
	case SRP_IU_TMF_LUN_RESET:
		f = SCST_LUN_RESET;
		break;
	case SRP_IU_TMF_CLEAR_ACA:
		f = SCST_CLEAR_ACA;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (fn)
		*fn = f;
	return 0;
}

/**
 * srp_tmf_rsp_code() - the RSP_CODE of a task management function's outcome
 * @status: the SAM-5 §7.11 service response the core gave
 *
 * SRP r16a §6.9 table 33. Aborting a task that does not exist completes
 * (SAM-5 §7.2); a function refused is not supported; a LUN that does not
 * exist, a failure, and any value the core should never give, failed.
 *
 * Return: SRP_IU_RSP_CODE_*.
 */
u8 srp_tmf_rsp_code(enum scst_tmf_response status)
{
	switch (status) {
	case SCST_MGMT_STATUS_SUCCESS:
	case SCST_MGMT_STATUS_TASK_NOT_EXIST:
		return SRP_IU_RSP_CODE_COMPLETE;
	case SCST_MGMT_STATUS_FN_NOT_SUPPORTED:
	case SCST_MGMT_STATUS_REJECTED:
		return SRP_IU_RSP_CODE_NOT_SUPPORTED;
	case SCST_MGMT_STATUS_LUN_NOT_EXIST:
	case SCST_MGMT_STATUS_FAILED:
	default:
		return SRP_IU_RSP_CODE_FAILED;
	}
}

/* ---------------------------------------------------------------------- */
/* SRP_RSP                                                                 */
/* ---------------------------------------------------------------------- */

/* A residual as the flag to set and the count, saturated at 2^32 - 1. */
static u8 srp_resid(s64 resid, u8 under, u8 over, u32 *count)
{
	u64 mag;

	if (!resid) {
		*count = 0;
		return 0;
	}
	mag = resid > 0 ? (u64)resid : 0 - (u64)resid;
	*count = mag > U32_MAX ? U32_MAX : (u32)mag;
	return resid > 0 ? under : over;
}

/**
 * srp_rsp_resid() - which residual field of an SRP_RSP a residual goes in
 * @dir: the SRP_CMD's direction, SRP_IU_DIR_*, from its descriptors
 * @data_in: the command, as the core decoded its CDB, reads (data-in)
 * @resid: the residual: > 0 underflow, < 0 overflow (scst_cmd_resid())
 * @resid_in: receives the data-in residual (DIUNDER, DIOVER)
 * @resid_out: receives the data-out residual (DOUNDER, DOOVER)
 *
 * SRP r16a §6.9: the residual counts the descriptors' bytes the command
 * did not transfer, in the direction of its descriptors. A command with
 * none counts in the direction its CDB transfers (an overflow: the CDB
 * asked for data the initiator gave no buffer for); one that transfers
 * nothing either, as data-out.
 */
void srp_rsp_resid(u8 dir, bool data_in, s64 resid, s64 *resid_in,
		   s64 *resid_out)
{
	bool in = dir == SRP_IU_DIR_READ ||
		  (dir == SRP_IU_DIR_NONE && data_in);

	*resid_in = in ? resid : 0;
	*resid_out = in ? 0 : resid;
}

/**
 * srp_build_rsp() - build an SRP_RSP (SRP r16a §6.9)
 * @buf: buffer for the IU
 * @len: size of @buf: the initiator's MAXIMUM TARGET TO INITIATOR IU
 *	LENGTH, or less
 * @tag: TAG of the SRP_CMD or SRP_TSK_MGMT answered
 * @req_lim_delta: REQUEST LIMIT DELTA
 * @status: SCSI STATUS
 * @sense: sense data, or NULL
 * @sense_len: length of @sense; cut to what fits in @len, and to the
 *	SCST_SENSE_MAX_LEN bytes that SPC-4 §4.5.2.1 allows
 * @resid_in: data-in residual: > 0 underflow (DIUNDER), < 0 overflow
 *	(DIOVER), 0 none; the count saturates at 2^32 - 1
 * @resid_out: the same for data-out (DOUNDER, DOOVER)
 * @rsp_code: RSP_CODE for the 4 bytes of response data (RSPVALID), e.g.
 *	the outcome of a task management function, or SRP_IU_NO_RSP_DATA
 *
 * Response data precede the sense data (SNSVALID); both lengths are set
 * only when valid. Byte 1 is left 0: OR in srp_rsp_solnt() if wanted.
 *
 * Return: the IU length, -ENOSPC if @buf cannot hold the fixed part and
 * the response data, -EINVAL for an @rsp_code above 255.
 */
int srp_build_rsp(u8 *buf, size_t len, u64 tag, s32 req_lim_delta,
		  u8 status, const u8 *sense, u32 sense_len, s64 resid_in,
		  s64 resid_out, int rsp_code)
{
	size_t rsp_len = rsp_code >= 0 ? SRP_IU_RSP_DATA_LEN : 0;
	size_t room, snslen = 0;
	u8 flags = 0;
	u32 count;
	int ret;

	if (rsp_code > U8_MAX)
		return -EINVAL;
	ret = srp_iu_start(buf, len, SRP_IU_RSP_LEN + rsp_len, SRP_IU_RSP,
			   tag);
	if (ret)
		return ret;
	put_unaligned_be32((u32)req_lim_delta, buf + IU_OFF_REQ_LIM);
	buf[RSP_OFF_STATUS] = status;

	flags |= srp_resid(resid_out, SRP_IU_RSP_DOUNDER, SRP_IU_RSP_DOOVER,
			   &count);
	put_unaligned_be32(count, buf + RSP_OFF_DO_RESID);
	flags |= srp_resid(resid_in, SRP_IU_RSP_DIUNDER, SRP_IU_RSP_DIOVER,
			   &count);
	put_unaligned_be32(count, buf + RSP_OFF_DI_RESID);

	if (rsp_len) {
		flags |= SRP_IU_RSP_RSPVALID;
		put_unaligned_be32(rsp_len, buf + RSP_OFF_RSP_LEN);
		/* §6.9: bytes 0-2 reserved, byte 3 RSP_CODE. */
		buf[SRP_IU_RSP_LEN + 3] = (u8)rsp_code;
	}

	room = min_t(size_t, len - SRP_IU_RSP_LEN - rsp_len,
		     SCST_SENSE_MAX_LEN);
	if (sense && sense_len)
		snslen = min_t(size_t, sense_len, room);
	if (snslen) {
		flags |= SRP_IU_RSP_SNSVALID;
		put_unaligned_be32((u32)snslen, buf + RSP_OFF_SENSE_LEN);
		memcpy(buf + SRP_IU_RSP_LEN + rsp_len, sense, snslen);
	}
	buf[RSP_OFF_FLAGS] = flags;
	return (int)(SRP_IU_RSP_LEN + rsp_len + snslen);
}
