// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz srpt/srp_iu.c: SRP_LOGIN_REQ in both forms (IB CM private data and
 * RDMA/CM private data, SRP r16a §6.2), and the SRP_LOGIN_RSP and
 * SRP_LOGIN_REJ built in answer (§6.3, §6.4).
 *
 * Input: form (1 byte: bit 0 RDMA/CM form), MIN and MAX IU length the
 * target accepts (2 + 4 bytes), response buffer size (1 byte), then the
 * private data.
 */
#include "fuzz.h"
#include <srp_iu.h>

#define NO_REASON	0xdeadbeefU

static void check_rsp(const struct srp_login_req_info *li, size_t rsp_size)
{
	u8 *rsp = malloc(rsp_size ? rsp_size : 1);
	int ret;

	ret = srp_build_login_rsp(rsp, rsp_size, li->tag, 1, li->it_iu_len,
				  li->it_iu_len, li->req_buf_fmt,
				  SRP_IU_MCR_NO_CHANNELS);
	if (rsp_size < SRP_IU_LOGIN_RSP_LEN) {
		FUZZ_CHECK(ret == -ENOSPC);
	} else {
		FUZZ_CHECK(ret == SRP_IU_LOGIN_RSP_LEN);
		FUZZ_CHECK(rsp[0] == SRP_IU_LOGIN_RSP);
		FUZZ_CHECK(get_unaligned_be64(rsp + 8) == li->tag);
	}
	free(rsp);
}

static void check_rej(u64 tag, u32 reason, size_t rej_size)
{
	u8 *rej = malloc(rej_size ? rej_size : 1);
	int ret;

	ret = srp_build_login_rej(rej, rej_size, tag, reason,
				  SRP_IU_BUF_FMT_ALL);
	if (rej_size < SRP_IU_LOGIN_REJ_LEN) {
		FUZZ_CHECK(ret == -ENOSPC);
	} else {
		FUZZ_CHECK(ret == SRP_IU_LOGIN_REJ_LEN);
		FUZZ_CHECK(rej[0] == SRP_IU_LOGIN_REJ);
		FUZZ_CHECK(get_unaligned_be32(rej + 4) == reason);
		FUZZ_CHECK(get_unaligned_be64(rej + 8) == tag);
	}
	free(rej);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct srp_login_req_info li;
	bool rdma = fuzz_u8(&in) & 1;
	u32 min_iu = fuzz_u16(&in);
	u32 max_iu = fuzz_u32(&in);
	size_t rsp_size = fuzz_u8(&in);
	u32 reason = NO_REASON;
	size_t len;
	u8 *buf = fuzz_rest(&in, &len);
	int ret;

	if (rdma)
		ret = srp_parse_login_req_rdma(buf, len, min_iu, max_iu, &li,
					       &reason);
	else
		ret = srp_parse_login_req(buf, len, min_iu, max_iu, &li,
					  &reason);

	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK(reason == SRP_IU_REJ_UNABLE_ESTABLISH ||
			   reason == SRP_IU_REJ_IT_IU_LEN_TOO_LARGE ||
			   reason == SRP_IU_REJ_UNSUPPORTED_FMT ||
			   reason == SRP_IU_REJ_MULTICHANNEL_UNSUP);
		check_rej(li.tag, reason, rsp_size);
		goto out;
	}

	/* SRP r16a §6.2: everything the target accepted is in range. */
	FUZZ_CHECK(reason == NO_REASON);
	FUZZ_CHECK(len >= (rdma ? SRP_IU_LOGIN_REQ_RDMA_LEN :
			   SRP_IU_LOGIN_REQ_LEN));
	FUZZ_CHECK(li.it_iu_len >= min_iu && li.it_iu_len <= max_iu);
	FUZZ_CHECK(!(li.req_buf_fmt & ~SRP_IU_BUF_FMT_ALL));
	FUZZ_CHECK((li.req_flags & SRP_IU_MCA_MASK) == SRP_IU_MCA_SINGLE ||
		   (li.req_flags & SRP_IU_MCA_MASK) == SRP_IU_MCA_MULTI);
	if (!(li.req_flags & SRP_IU_IMMED_REQUESTED)) {
		FUZZ_CHECK(li.imm_data_offset == 0 && !li.imm_data_ok);
	} else if (li.imm_data_ok) {
		/* An SRP_CMD and its immediate data descriptor fit before. */
		FUZZ_CHECK(li.imm_data_offset >=
			   SRP_IU_CMD_LEN + SRP_IU_IMM_DESC_LEN);
		FUZZ_CHECK(li.imm_data_offset < li.it_iu_len);
	}
	/* The fields are the bytes of the wire layout. */
	if (rdma) {
		FUZZ_CHECK(li.tag == get_unaligned_be64(buf));
		FUZZ_CHECK(li.it_iu_len == get_unaligned_be32(buf + 12));
	} else {
		FUZZ_CHECK(li.tag == get_unaligned_be64(buf + 8));
		FUZZ_CHECK(li.it_iu_len == get_unaligned_be32(buf + 16));
	}
	check_rsp(&li, rsp_size);
out:
	free(buf);
	return 0;
}
