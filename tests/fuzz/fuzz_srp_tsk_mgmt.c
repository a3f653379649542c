// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz srpt/srp_iu.c: SRP_TSK_MGMT (SRP r16a §6.7), the IU type and TAG
 * checks every received IU goes through, and the SRP_RSP (§6.9) that
 * answers it, with sense data (scst_core/scst_sense.c builds and decodes
 * it, SPC-4 §4.5) and residuals taken from the input.
 *
 * Input: response buffer size (2 bytes), residuals (2 x 8 bytes), sense
 * mode (1 byte: bit 0 descriptor format, bit 1 raw sense from the input,
 * bits 2-7 its length), raw sense, then the IU.
 */
#include "fuzz.h"
#include <srp_iu.h>

static void check_rsp(u64 tag, int rsp_code, const u8 *sense, u32 sense_len,
		      size_t rsp_size, s64 resid_in, s64 resid_out)
{
	u8 *rsp = fuzz_take(&(struct fuzz_in){ NULL, 0 }, rsp_size);
	size_t rsp_data = rsp_code >= 0 ? SRP_IU_RSP_DATA_LEN : 0;
	u32 snslen;
	int ret;

	ret = srp_build_rsp(rsp, rsp_size, tag, 1, 0x02, sense, sense_len,
			    resid_in, resid_out, rsp_code);
	if (rsp_size < SRP_IU_RSP_LEN + rsp_data) {
		FUZZ_CHECK(ret == -ENOSPC);
		goto out;
	}
	/* The IU is inside the buffer and says how long its parts are. */
	FUZZ_CHECK(ret >= (int)(SRP_IU_RSP_LEN + rsp_data));
	FUZZ_CHECK((size_t)ret <= rsp_size);
	FUZZ_CHECK(rsp[0] == SRP_IU_RSP);
	FUZZ_CHECK(get_unaligned_be64(rsp + 8) == tag);
	/* SENSE DATA LIST LENGTH 28-31, RESPONSE DATA LIST LENGTH 32-35. */
	snslen = rsp[18] & SRP_IU_RSP_SNSVALID ?
		 get_unaligned_be32(rsp + 28) : 0;
	FUZZ_CHECK(snslen <= SCST_SENSE_MAX_LEN && snslen <= sense_len);
	FUZZ_CHECK((size_t)ret == SRP_IU_RSP_LEN + rsp_data + snslen);
	if (snslen)
		FUZZ_CHECK(!memcmp(rsp + SRP_IU_RSP_LEN + rsp_data, sense,
				   snslen));
	if (rsp_data) {
		FUZZ_CHECK(rsp[18] & SRP_IU_RSP_RSPVALID);
		FUZZ_CHECK(get_unaligned_be32(rsp + 32) == SRP_IU_RSP_DATA_LEN);
		FUZZ_CHECK(rsp[SRP_IU_RSP_LEN + 3] == rsp_code);
	}
	/* Residual flags: at most one per direction, with its count. */
	FUZZ_CHECK(!((rsp[18] & SRP_IU_RSP_DIOVER) &&
		     (rsp[18] & SRP_IU_RSP_DIUNDER)));
	FUZZ_CHECK(!((rsp[18] & SRP_IU_RSP_DOOVER) &&
		     (rsp[18] & SRP_IU_RSP_DOUNDER)));
	FUZZ_CHECK(!!(rsp[18] & (SRP_IU_RSP_DIOVER | SRP_IU_RSP_DIUNDER)) ==
		   !!resid_in);
	/* SRP r16a §6.9: DATA-OUT RESIDUAL COUNT 20-23, DATA-IN 24-27. */
	FUZZ_CHECK(!!get_unaligned_be32(rsp + 24) == !!resid_in);
	FUZZ_CHECK(!!get_unaligned_be32(rsp + 20) == !!resid_out);
out:
	free(rsp);
}

/*
 * The other IUs the target sends (§6.6, §6.10, §6.12): -ENOSPC or the
 * whole IU inside the buffer.
 */
static void check_target_ius(u64 tag, const u8 *lun, const u8 *sense,
			     u32 sense_len, size_t size)
{
	u8 *buf = malloc(size ? size : 1);
	int ret;

	ret = srp_build_t_logout(buf, size, tag, SRP_IU_TLO_INVALID_IU_TYPE,
				 SRP_IU_SOLNT);
	FUZZ_CHECK(size < SRP_IU_T_LOGOUT_LEN ? ret == -ENOSPC :
		   ret == SRP_IU_T_LOGOUT_LEN && buf[0] == SRP_IU_T_LOGOUT);
	ret = srp_build_cred_req(buf, size, tag, 5, 0);
	FUZZ_CHECK(size < SRP_IU_CRED_REQ_LEN ? ret == -ENOSPC :
		   ret == SRP_IU_CRED_REQ_LEN && buf[0] == SRP_IU_CRED_REQ);
	ret = srp_build_aer_req(buf, size, tag, 1, lun, sense, sense_len, 0);
	if (ret >= 0) {
		FUZZ_CHECK((size_t)ret <= size && buf[0] == SRP_IU_AER_REQ);
		FUZZ_CHECK((size_t)ret >= SRP_IU_AER_REQ_LEN);
		FUZZ_CHECK(get_unaligned_be64(buf + 8) == tag);
	} else {
		FUZZ_CHECK(ret == -ENOSPC || ret == -EINVAL);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	size_t rsp_size = fuzz_u16(&in) & 0x3ff;
	s64 resid_in = (s64)fuzz_u64(&in);
	s64 resid_out = (s64)fuzz_u64(&in);
	u8 mode = fuzz_u8(&in);
	u32 raw_len = (mode >> 2) * 5;	/* 0 .. 315: also past 252 bytes */
	u8 *raw = fuzz_take(&in, raw_len);
	struct srp_tsk_mgmt_info tm;
	u8 sense[SCST_SENSE_MAX_LEN];
	u8 key, asc, ascq;
	int ret, op, sense_len, rsp_code;
	size_t len;
	u8 *buf = fuzz_rest(&in, &len);
	u64 tag;

	/* The checks every IU passes first (srpt_handle_iu()). */
	op = srp_iu_opcode(buf, len);
	FUZZ_CHECK(op == -EINVAL || op == -EOPNOTSUPP || (op >= 0 && op <= 255));
	if (op >= 0)
		FUZZ_CHECK(len >= (size_t)srp_iu_min_len((u8)op));
	if (!srp_iu_get_tag(buf, len, &tag))
		FUZZ_CHECK(len >= 16 && tag == get_unaligned_be64(buf + 8));
	else
		FUZZ_CHECK(len < 16);

	ret = srp_parse_tsk_mgmt(buf, len, &tm);
	if (ret == -EINVAL) {
		FUZZ_CHECK(len < SRP_IU_TSK_MGMT_LEN ||
			   buf[0] != SRP_IU_TSK_MGMT);
		goto out;
	}
	FUZZ_CHECK(op == SRP_IU_TSK_MGMT);
	FUZZ_CHECK(tm.tag == tag && tm.task_tag ==
		   get_unaligned_be64(buf + 32));
	FUZZ_CHECK(!memcmp(tm.lun, buf + 20, 8));
	if (ret == -EOPNOTSUPP) {
		rsp_code = SRP_IU_RSP_CODE_NOT_SUPPORTED;
	} else {
		FUZZ_CHECK(ret == 0);
		FUZZ_CHECK(tm.tsk_mgmt_func == SRP_IU_TMF_ABORT_TASK ||
			   tm.tsk_mgmt_func == SRP_IU_TMF_ABORT_TASK_SET ||
			   tm.tsk_mgmt_func == SRP_IU_TMF_CLEAR_TASK_SET ||
			   tm.tsk_mgmt_func == SRP_IU_TMF_LUN_RESET ||
			   tm.tsk_mgmt_func == SRP_IU_TMF_CLEAR_ACA);
		rsp_code = mode & 2 ? SRP_IU_NO_RSP_DATA :
			   SRP_IU_RSP_CODE_COMPLETE;
	}

	check_target_ius(tm.tag, tm.lun, raw, raw_len, rsp_size);
	if (mode & 2) {
		check_rsp(tm.tag, rsp_code, raw, raw_len, rsp_size, resid_in,
			  resid_out);
		/* Whatever the initiator's sense looks like: no crash. */
		scst_sense_decode(raw, raw_len, &key, &asc, &ascq);
	} else {
		sense_len = scst_build_sense(sense, sizeof(sense), mode & 1,
					     tm.lun[1] & 0xf, tm.lun[2],
					     tm.lun[3]);
		FUZZ_CHECK(sense_len > 0 &&
			   (size_t)sense_len <= sizeof(sense));
		FUZZ_CHECK(!scst_sense_decode(sense, sense_len, &key, &asc,
					      &ascq));
		FUZZ_CHECK(key == (tm.lun[1] & 0xf) && asc == tm.lun[2] &&
			   ascq == tm.lun[3]);
		check_rsp(tm.tag, rsp_code, sense, sense_len, rsp_size,
			  resid_in, resid_out);
	}
out:
	free(raw);
	free(buf);
	return 0;
}
