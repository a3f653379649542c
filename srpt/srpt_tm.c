// SPDX-License-Identifier: GPL-2.0-only
/*
 * srpt_tm.c - SRP task management (SRP r16a 6.7, 6.9): SRP_TSK_MGMT goes
 * to the core as a task management function; its outcome comes back in
 * an SRP_RSP with four bytes of response data (RSP_CODE, table 33). The
 * two mappings are pure code in srp_iu.c: srp_tmf_to_scst() and
 * srp_tmf_rsp_code() (tests/unit/test_srp_map.c).
 *
 * The core completes a TMF only after every command it affects has been
 * through ->xmit_response() (which drops them and counts their credits),
 * so the TMF's SRP_RSP returns those credits to the initiator.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "ib_srpt.h"

/* Send the SRP_RSP of a task management request. */
static void srpt_tm_rsp(struct srpt_send_ioctx *ioctx, u8 rsp_code)
{
	struct srpt_rdma_ch *ch = ioctx->ch;
	s32 delta = 1 + atomic_xchg(&ch->req_lim_delta, 0);
	int len;

	atomic_add(delta, &ch->req_lim);
	len = srp_build_rsp(ioctx->buf, ch->max_rsp_len, ioctx->tag, delta,
			    SCST_STATUS_GOOD, NULL, 0, 0, 0, rsp_code);
	if (WARN_ON_ONCE(len < 0)) {
		srpt_put_send_ioctx(ioctx);
		return;
	}
	((u8 *)ioctx->buf)[1] |=
		srp_rsp_solnt(ioctx->sol_not,
			      rsp_code == SRP_IU_RSP_CODE_COMPLETE);
	ioctx->state = SRPT_IOCTX_MGMT_RSP_SENT;
	srpt_post_send_iu(ioctx, len);
}

/**
 * srpt_handle_tsk_mgmt() - an SRP_TSK_MGMT arrived
 * @ch: the channel
 * @recv: its receive buffer; reposted here
 * @ioctx: a send context for the request and its response
 *
 * The caller checked the IU's type and length (srp_iu_opcode(); a short
 * one logs the initiator out), so only the function can be wrong here.
 */
void srpt_handle_tsk_mgmt(struct srpt_rdma_ch *ch,
			  struct srpt_recv_ioctx *recv,
			  struct srpt_send_ioctx *ioctx)
{
	struct srp_tsk_mgmt_info tm;
	struct scst_mgmt_cmd *mcmd;
	enum scst_tmf fn;
	u64 lun;
	int ret;

	ret = srp_parse_tsk_mgmt(recv->buf, recv->byte_len, &tm);
	/* an SRQ buffer may be reused at once: nothing of it from here on */
	srpt_repost_recv(recv);
	ioctx->tag = tm.tag;
	ioctx->sol_not = tm.sol_not;
	ioctx->state = SRPT_IOCTX_MGMT;

	if (ret || srp_tmf_to_scst(tm.tsk_mgmt_func, &fn)) {
		pr_info_ratelimited("%s: task management function 0x%02x not supported\n",
				    ch->name, tm.tsk_mgmt_func);
		srpt_tm_rsp(ioctx, SRP_IU_RSP_CODE_NOT_SUPPORTED);
		return;
	}
	/* a LUN we cannot decode addresses no logical unit */
	if (scst_lun_decode(tm.lun, sizeof(tm.lun), &lun))
		lun = U64_MAX;

	pr_info("%s: task management function 0x%02x (LUN %lld, tag 0x%llx)\n",
		ch->name, tm.tsk_mgmt_func, lun == U64_MAX ? -1LL : (s64)lun,
		tm.task_tag);
	mcmd = scst_rx_mgmt_fn(ch->sess, fn, lun, tm.task_tag, ioctx,
			       GFP_ATOMIC);
	if (!mcmd)
		srpt_tm_rsp(ioctx, SRP_IU_RSP_CODE_FAILED);
}

/**
 * srpt_tsk_mgmt_done() - ->task_mgmt_fn_done(): the core finished a TMF
 * @mcmd: the TMF; its tgt_priv is the request's send context
 */
void srpt_tsk_mgmt_done(struct scst_mgmt_cmd *mcmd)
{
	struct srpt_send_ioctx *ioctx = mcmd->tgt_priv;

	srpt_tm_rsp(ioctx, srp_tmf_rsp_code(mcmd->status));
}
