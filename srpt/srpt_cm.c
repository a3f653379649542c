// SPDX-License-Identifier: GPL-2.0-only
/*
 * srpt_cm.c - connection management: the RDMA/CM listener (RoCE, iWARP,
 * InfiniBand with IP addressing), the IB CM listener (InfiniBand and RoCE
 * logins by service ID), and SRP logins (SRP r16a 6.2 - 6.4, 7.2).
 *
 * A login is checked completely before anything is allocated: the IU
 * (srp_parse_login_req*()), the port and its target, the target's
 * enabled state and the TARGET PORT IDENTIFIER (id_ext and ioc_guid must
 * both be srpt_service_guid). Then the channel gets its buffers, QP and
 * session, and the connection is accepted with SRP_LOGIN_RSP in the CM
 * private data. Any refusal answers SRP_LOGIN_REJ with its reason.
 *
 * Session names: an RDMA/CM session is named by the initiator's address,
 * which the passive side finds in cm_id->route.addr.dst_addr ("10.0.0.2",
 * or an IPv6 address). SCST and LIO use src_addr there, the target's own
 * address, so that every initiator gets the same name and ACLs cannot
 * tell them apart. An IB CM session is named by the INITIATOR PORT
 * IDENTIFIER, "0x" and 32 hex digits. The core names further channels of
 * the same initiator NAME_1, NAME_2..., and matches NAME against the
 * target's initiator groups.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/ipv6.h>

#include "ib_srpt.h"

/* The IB CM REQ carries 92 bytes of private data; the IU is the first 64. */
#define SRPT_MIN_IT_IU_LEN	64

/* Outstanding RDMA READs per channel, in both directions. */
#define SRPT_RD_ATOMIC		4

static struct rdma_cm_id *srpt_rdma_cm_listener;

/**
 * struct srpt_login_ctx - a login request being processed
 * @sdev: the device it arrived on
 * @port_num: the port it arrived on
 * @rdma_cm_id: its RDMA/CM ID (RDMA/CM login)
 * @ib_cm_id: its IB CM ID (IB CM login)
 * @pkey: partition of the connection
 * @initiator_depth: RDMA READs we may have outstanding to the initiator
 *	(its responder resources)
 * @responder_resources: RDMA READs the initiator may have outstanding to
 *	us (its initiator depth)
 * @lr: the parsed SRP_LOGIN_REQ
 * @name: the session name
 * @logged: the refusal was logged already (srpt_login_reject() is quiet)
 * @dev_held: the login counts on @sdev's nr_ch (srpt_login_hold_dev()) and
 *	no channel has taken that count over yet
 */
struct srpt_login_ctx {
	struct srpt_device *sdev;
	u32 port_num;
	struct rdma_cm_id *rdma_cm_id;
	struct ib_cm_id *ib_cm_id;
	u16 pkey;
	u8 initiator_depth;
	u8 responder_resources;
	struct srp_login_req_info lr;
	char name[SCST_MAX_NAME];
	bool logged;
	bool dev_held;
};

/*
 * srpt_login_hold_dev() - find the login's device and count the login on it
 * @lc: the login; @lc->sdev is set when this returns true
 * @device: the RDMA device the request arrived on
 *
 * srpt_remove_one() clears the client data and marks the device removing
 * under srpt_mutex, then waits until nr_ch is zero before it frees the PD,
 * the SRQ and the device. Looking up and counting under the same mutex
 * means a login either keeps the device until its channel is gone, or
 * finds none: a login may arrive while the device is being removed (the
 * RDMA CM is removed from a device after us), and a PD freed under it was
 * a use-after-free in the soak (rdma link delete under reconnects).
 *
 * Return: false when the device is unknown or going away.
 */
static bool srpt_login_hold_dev(struct srpt_login_ctx *lc,
				struct ib_device *device)
{
	struct srpt_device *sdev;

	mutex_lock(&srpt_mutex);
	sdev = ib_get_client_data(device, &srpt_client);
	if (sdev && !sdev->removing) {
		atomic_inc(&sdev->nr_ch);
		lc->sdev = sdev;
		lc->dev_held = true;
	}
	mutex_unlock(&srpt_mutex);
	return lc->dev_held;
}

/* Drop the login's count on its device unless a channel took it over. */
static void srpt_login_release_dev(struct srpt_login_ctx *lc)
{
	if (lc->dev_held)
		srpt_dev_put(lc->sdev);
	lc->dev_held = false;
}

/* Answer a login with SRP_LOGIN_REJ (SRP r16a 6.4). */
static void srpt_login_reject(struct srpt_login_ctx *lc, u32 reason)
{
	u8 rej[SRP_IU_LOGIN_REJ_LEN];
	int len, ret;

	len = srp_build_login_rej(rej, sizeof(rej), lc->lr.tag, reason,
				  SRP_IU_BUF_FMT_ALL);
	if (len < 0)
		return;
	/* an initiator retrying in a loop must not flood the log */
	if (!lc->logged)
		pr_info_ratelimited("login of %s refused (reason 0x%08x)\n",
				    lc->name[0] ? lc->name : "(unknown)",
				    reason);
	if (lc->rdma_cm_id)
		ret = rdma_reject(lc->rdma_cm_id, rej, len,
				  IB_CM_REJ_CONSUMER_DEFINED);
	else
		ret = ib_send_cm_rej(lc->ib_cm_id, IB_CM_REJ_CONSUMER_DEFINED,
				     NULL, 0, rej, len);
	if (ret)
		pr_debug("sending SRP_LOGIN_REJ failed (%d)\n", ret);
}

/* IB CM: INIT -> RTR before the REP. */
static int srpt_ch_qp_rtr(struct srpt_rdma_ch *ch)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTR };
	int mask, ret;

	ret = ib_cm_init_qp_attr(ch->ib_cm_id, &attr, &mask);
	if (ret)
		return ret;
	return ib_modify_qp(ch->qp, &attr, mask);
}

/**
 * srpt_ch_qp_rts() - IB CM: RTR -> RTS once the RTU arrived
 * @ch: the channel
 *
 * Return: 0 or an errno.
 */
int srpt_ch_qp_rts(struct srpt_rdma_ch *ch)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTS };
	int mask, ret;

	/* max_rd_atomic is the initiator depth our REP announced */
	ret = ib_cm_init_qp_attr(ch->ib_cm_id, &attr, &mask);
	if (ret)
		return ret;
	return ib_modify_qp(ch->qp, &attr, mask);
}

/* Send SRP_LOGIN_RSP in the CM's accept message (REP). */
static int srpt_login_accept(struct srpt_login_ctx *lc,
			     struct srpt_rdma_ch *ch, const u8 *rsp, int len)
{
	const struct ib_device_attr *attrs = &ch->sdev->device->attrs;
	/*
	 * RDMA READs outstanding, as the initiator and the device allow. The
	 * CM's REQ event gives the initiator's values from our side already:
	 * @initiator_depth is what the initiator serves (its responder
	 * resources), @responder_resources what it issues.
	 */
	u8 init_depth = min3((int)lc->initiator_depth,
			     attrs->max_qp_init_rd_atom, SRPT_RD_ATOMIC);
	u8 resp_res = min3((int)lc->responder_resources,
			   attrs->max_qp_rd_atom, SRPT_RD_ATOMIC);
	struct rdma_conn_param rdma_param = {
		.private_data = rsp,
		.private_data_len = len,
		.responder_resources = resp_res,
		.initiator_depth = init_depth,
		.flow_control = 1,
		.rnr_retry_count = 7,
	};
	struct ib_cm_rep_param ib_param = {
		.private_data = rsp,
		.private_data_len = len,
		.responder_resources = resp_res,
		.initiator_depth = init_depth,
		.flow_control = 1,
		.rnr_retry_count = 7,
		.srq = !!ch->sdev->srq,
	};

	if (ch->using_rdma_cm)
		return rdma_accept(ch->rdma_cm_id, &rdma_param);
	ib_param.qp_num = ch->qp->qp_num;
	return ib_send_cm_rep(ch->ib_cm_id, &ib_param);
}

/*
 * The login failed after the channel took over the CM ID: refuse it and
 * let the release work free everything (it destroys the CM ID once our CM
 * handler has returned).
 */
static int srpt_login_fail_ch(struct srpt_login_ctx *lc,
			      struct srpt_rdma_ch *ch, u32 reason,
			      bool send_rej)
{
	if (send_rej)
		srpt_login_reject(lc, reason);
	if (srpt_ch_advance(ch, SRPT_CH_DISCONNECTING))
		srpt_ch_start_release(ch);
	return 0;
}

/*
 * Would one more channel exceed the target's limits (max_sessions,
 * max_channels_per_initiator)? Channels already disconnecting do not
 * count, nor those of the same initiator port that a SINGLE channel login
 * terminates (SRP r16a 7.2.3). If so, log it (one rate-limited line) and
 * return true. Called with srpt_mutex held.
 */
static bool srpt_login_over_limit(struct srpt_tgt *tgt,
				  struct srpt_login_ctx *lc)
{
	const struct srp_login_req_info *lr = &lc->lr;
	bool single = (lr->req_flags & SRP_IU_MCA_MASK) == SRP_IU_MCA_SINGLE;
	u32 n_tgt = 0, n_ini = 0;
	struct srpt_rdma_ch *ch;

	lockdep_assert_held(&srpt_mutex);
	list_for_each_entry(ch, &tgt->ch_list, tgt_entry) {
		if (srpt_ch_state(ch) >= SRPT_CH_DISCONNECTING)
			continue;
		if (single && !memcmp(ch->i_port_id, lr->initiator_port_id,
				      sizeof(ch->i_port_id)))
			continue;
		n_tgt++;
		if (!strcmp(ch->ini_name, lc->name))
			n_ini++;
	}
	if (n_tgt < tgt->max_sessions && n_ini < tgt->max_ch_per_ini)
		return false;
	pr_warn_ratelimited("login of %s to %s refused (insufficient resources): %u of max_sessions %u, %u of max_channels_per_initiator %u\n",
			    lc->name, tgt->name, n_tgt, tgt->max_sessions,
			    n_ini, tgt->max_ch_per_ini);
	lc->logged = true;
	return true;
}

/*
 * The target checks of a login; on failure @reason is the SRP_LOGIN_REJ
 * REASON. Returns the target, or NULL.
 */
static struct srpt_tgt *srpt_login_target(struct srpt_login_ctx *lc,
					  struct srpt_port **sportp,
					  u32 *reason)
{
	struct srpt_device *sdev = lc->sdev;
	const struct srp_login_req_info *lr = &lc->lr;
	struct srpt_port *sport;
	struct srpt_tgt *tgt;
	u64 guid;

	if (lc->port_num < 1 || lc->port_num > sdev->port_cnt) {
		*reason = SRP_IU_REJ_UNABLE_ESTABLISH;
		return NULL;
	}
	sport = &sdev->ports[lc->port_num - 1];

	mutex_lock(&srpt_mutex);
	tgt = sdev->removing ? NULL : sport->tgt;
	if (!tgt) {
		mutex_unlock(&srpt_mutex);
		pr_info_ratelimited("login of %s on %s/%u: the port has no target\n",
				    lc->name, dev_name(&sdev->device->dev),
				    lc->port_num);
		*reason = SRP_IU_REJ_UNABLE_ESTABLISH;
		return NULL;
	}
	if (!tgt->enabled) {
		mutex_unlock(&srpt_mutex);
		pr_info_ratelimited("login of %s: target %s is not enabled\n",
				    lc->name, tgt->name);
		*reason = SRP_IU_REJ_INSUFFICIENT_RES;
		return NULL;
	}
	/* SRP r16a 6.4: before anything is allocated for the channel */
	if (srpt_login_over_limit(tgt, lc)) {
		mutex_unlock(&srpt_mutex);
		*reason = SRP_IU_REJ_INSUFFICIENT_RES;
		return NULL;
	}
	mutex_unlock(&srpt_mutex);

	/* SRP r16a 6.2: TARGET PORT IDENTIFIER is id_ext and ioc_guid */
	guid = srpt_tgt_port_guid(tgt);
	if (get_unaligned_be64(lr->target_port_id) != guid ||
	    get_unaligned_be64(lr->target_port_id + 8) != guid) {
		pr_info("login of %s: target port id 0x%016llx%016llx is not ours (id_ext=ioc_guid=%016llx)\n",
			lc->name, get_unaligned_be64(lr->target_port_id),
			get_unaligned_be64(lr->target_port_id + 8), guid);
		*reason = SRP_IU_REJ_UNABLE_ASSOCIATE;
		return NULL;
	}
	*sportp = sport;
	return tgt;
}

/*
 * Multi-channel action (SRP r16a 7.2.3): SINGLE closes the other channels
 * of the same initiator port on this target, MULTI keeps them. Returns the
 * MULTI-CHANNEL RESULT. Called with srpt_mutex held.
 */
static u8 srpt_login_multichannel(struct srpt_tgt *tgt,
				  struct srpt_rdma_ch *ch, u8 req_flags)
{
	struct srpt_rdma_ch *ch2;
	bool found = false;

	lockdep_assert_held(&srpt_mutex);
	list_for_each_entry(ch2, &tgt->ch_list, tgt_entry) {
		if (memcmp(ch2->i_port_id, ch->i_port_id, 16) ||
		    srpt_ch_state(ch2) >= SRPT_CH_DISCONNECTING)
			continue;
		found = true;
		if ((req_flags & SRP_IU_MCA_MASK) == SRP_IU_MCA_SINGLE) {
			pr_info("%s: relogin of %s (single channel): closing %s\n",
				tgt->name, ch->name, ch2->name);
			srpt_ch_disconnect(ch2);
		}
	}
	if (!found)
		return SRP_IU_MCR_NO_CHANNELS;
	return (req_flags & SRP_IU_MCA_MASK) == SRP_IU_MCA_SINGLE ?
	       SRP_IU_MCR_TERMINATED : SRP_IU_MCR_MAINTAINED;
}

/*
 * Process a parsed login. Return 0 when the channel owns the CM ID (login
 * accepted, or refused and being released), or a negative errno after the
 * refusal was sent: the CM then destroys the ID.
 */
static int srpt_login(struct srpt_login_ctx *lc)
{
	const struct srp_login_req_info *lr = &lc->lr;
	u8 rsp[SRP_IU_LOGIN_RSP_LEN];
	struct srpt_rdma_ch *ch;
	struct srpt_port *sport;
	struct scst_session *sess;
	struct srpt_tgt *tgt;
	u32 reason = SRP_IU_REJ_INSUFFICIENT_RES;
	u8 rsp_flags;
	int ret, len;

	/* each outcome logs a line: this one only for debugging */
	pr_debug("login request from %s on %s/%u: i_port_id 0x%016llx%016llx, it_iu_len %u%s%s\n",
		 lc->name, dev_name(&lc->sdev->device->dev), lc->port_num,
		 get_unaligned_be64(lr->initiator_port_id),
		 get_unaligned_be64(lr->initiator_port_id + 8), lr->it_iu_len,
		 (lr->req_flags & SRP_IU_MCA_MASK) == SRP_IU_MCA_MULTI ?
		 ", multichannel" : "",
		 lr->imm_data_ok ? ", immediate data" : "");

	tgt = srpt_login_target(lc, &sport, &reason);
	if (!tgt)
		goto reject;

	ch = srpt_ch_alloc(tgt, sport, srpt_rq_size,
			   lr->imm_data_ok ? lr->imm_data_offset : 0);
	if (!ch) {
		pr_err("login of %s: out of memory\n", lc->name);
		goto reject;
	}
	/* the channel holds the login's count on the device from now on */
	lc->dev_held = false;
	memcpy(ch->i_port_id, lr->initiator_port_id, 16);
	memcpy(ch->t_port_id, lr->target_port_id, 16);
	ch->pkey = lc->pkey;
	strscpy(ch->name, lc->name, sizeof(ch->name));
	strscpy(ch->ini_name, lc->name, sizeof(ch->ini_name));
	ch->imm_data_offset = lr->imm_data_ok ? lr->imm_data_offset : 0;
	if (lc->rdma_cm_id) {
		ch->using_rdma_cm = true;
		ch->rdma_cm_id = lc->rdma_cm_id;
	} else {
		ch->ib_cm_id = lc->ib_cm_id;
	}

	ret = srpt_ch_create_ib(ch);
	if (ret) {
		srpt_ch_free_unused(ch);
		goto reject;
	}
	/* from here on the channel owns the CM ID */
	if (lc->rdma_cm_id)
		lc->rdma_cm_id->context = ch;
	else
		lc->ib_cm_id->context = ch;

	sess = scst_register_session(tgt->scst_tgt, lc->name, ch);
	if (IS_ERR(sess)) {
		pr_err("login of %s: the target core refused the session (%ld)\n",
		       lc->name, PTR_ERR(sess));
		return srpt_login_fail_ch(lc, ch, reason, true);
	}
	ch->sess = sess;
	/* log with the unique session name from now on */
	strscpy(ch->name, sess->sess_name, sizeof(ch->name));

	mutex_lock(&srpt_mutex);
	if (!tgt->enabled || lc->sdev->removing || tgt->sport != sport) {
		mutex_unlock(&srpt_mutex);
		pr_info("login of %s: target %s disabled or port gone meanwhile\n",
			lc->name, tgt->name);
		return srpt_login_fail_ch(lc, ch, reason, true);
	}
	/* again: other logins may have been accepted meanwhile */
	if (srpt_login_over_limit(tgt, lc)) {
		mutex_unlock(&srpt_mutex);
		return srpt_login_fail_ch(lc, ch, SRP_IU_REJ_INSUFFICIENT_RES,
					  true);
	}
	rsp_flags = srpt_login_multichannel(tgt, ch, lr->req_flags);
	list_add_tail(&ch->tgt_entry, &tgt->ch_list);
	mutex_unlock(&srpt_mutex);

	if (!ch->using_rdma_cm) {
		ret = srpt_ch_qp_rtr(ch);
		if (ret) {
			pr_err("%s: QP to RTR failed (%d)\n", ch->name, ret);
			return srpt_login_fail_ch(lc, ch, reason, true);
		}
	}

	if (ch->imm_data_offset)
		rsp_flags |= SRP_IU_IMMED_SUPPORTED;
	atomic_set(&ch->req_lim, ch->rq_size);
	atomic_set(&ch->req_lim_delta, 0);
	len = srp_build_login_rsp(rsp, sizeof(rsp), lr->tag, ch->rq_size,
				  srp_max_req_size, ch->max_rsp_len,
				  SRP_IU_BUF_FMT_ALL, rsp_flags);
	if (WARN_ON_ONCE(len < 0))
		return srpt_login_fail_ch(lc, ch, reason, true);

	/* a disconnect (target disabled, relogin) may have come meanwhile */
	mutex_lock(&ch->cm_mutex);
	if (srpt_ch_state(ch) == SRPT_CH_CONNECTING)
		ret = srpt_login_accept(lc, ch, rsp, len);
	else
		ret = -ECONNABORTED;
	mutex_unlock(&ch->cm_mutex);
	if (ret) {
		pr_info("%s: accepting the login failed (%d)\n", ch->name, ret);
		/* rdma_accept() rejects by itself when it fails */
		return srpt_login_fail_ch(lc, ch, reason,
					  ret == -ECONNABORTED ||
					  !ch->using_rdma_cm);
	}
	pr_info("%s: logged in to %s (%u credits, max_it_iu_len %u, max_ti_iu_len %u)\n",
		ch->name, tgt->name, ch->rq_size, srp_max_req_size,
		ch->max_rsp_len);
	return 0;

reject:
	srpt_login_reject(lc, reason);
	return -ECONNREFUSED;
}

/* ---------------------------------------------------------------------- */
/* RDMA/CM                                                                */
/* ---------------------------------------------------------------------- */

/* The initiator's address: "10.0.0.2", or an IPv6 address. */
static void srpt_format_addr(char *buf, size_t len, const struct sockaddr *sa)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)sa;

	switch (sa->sa_family) {
	case AF_INET:
		snprintf(buf, len, "%pI4", &sin->sin_addr);
		break;
	case AF_INET6:
		if (ipv6_addr_v4mapped(&sin6->sin6_addr))
			snprintf(buf, len, "%pI4", &sin6->sin6_addr.s6_addr32[3]);
		else
			snprintf(buf, len, "%pI6c", &sin6->sin6_addr);
		break;
	default:
		snprintf(buf, len, "%pISc", sa);
		break;
	}
}

static int srpt_rdma_cm_req_recv(struct rdma_cm_id *cm_id,
				 struct rdma_cm_event *event)
{
	struct srpt_login_ctx *lc;
	u32 reason;
	int ret;

	lc = kzalloc(sizeof(*lc), GFP_KERNEL);
	if (!lc)
		return -ENOMEM;
	lc->rdma_cm_id = cm_id;
	lc->port_num = cm_id->port_num;
	lc->pkey = cm_id->route.path_rec ?
		   be16_to_cpu(cm_id->route.path_rec->pkey) : 0xffff;
	lc->initiator_depth = event->param.conn.initiator_depth;
	lc->responder_resources = event->param.conn.responder_resources;
	srpt_format_addr(lc->name, sizeof(lc->name),
			 (struct sockaddr *)&cm_id->route.addr.dst_addr);

	if (!srpt_login_hold_dev(lc, cm_id->device)) {
		pr_info("login of %s on an unknown or departing device refused\n",
			lc->name);
		rdma_reject(cm_id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		ret = -ECONNREFUSED;
		goto free;
	}

	if (srp_parse_login_req_rdma(event->param.conn.private_data,
				     event->param.conn.private_data_len,
				     SRPT_MIN_IT_IU_LEN, srp_max_req_size,
				     &lc->lr, &reason)) {
		pr_info("login of %s: bad SRP_LOGIN_REQ (%u bytes, it_iu_len %u)\n",
			lc->name, event->param.conn.private_data_len,
			lc->lr.it_iu_len);
		srpt_login_reject(lc, reason);
		ret = -ECONNREFUSED;
		goto free;
	}
	ret = srpt_login(lc);
free:
	srpt_login_release_dev(lc);
	kfree(lc);
	return ret;
}

/*
 * RDMA/CM events. Returning non-zero makes the CM destroy the ID, which
 * we do only for a refused login whose ID no channel took over.
 */
static int srpt_rdma_cm_handler(struct rdma_cm_id *cm_id,
				struct rdma_cm_event *event)
{
	struct srpt_rdma_ch *ch = cm_id->context;

	if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return srpt_rdma_cm_req_recv(cm_id, event);
	if (!ch)
		return 0;

	switch (event->event) {
	case RDMA_CM_EVENT_ESTABLISHED:
		srpt_ch_establish(ch);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		srpt_ch_disconnect(ch);
		break;
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		pr_info("%s: %s (%d)\n", ch->name, rdma_event_msg(event->event),
			event->status);
		srpt_ch_disconnect(ch);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		srpt_ch_disconnect(ch);
		break;
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		break;
	default:
		pr_debug("%s: RDMA/CM event %s\n", ch->name,
			 rdma_event_msg(event->event));
		break;
	}
	return 0;
}

static struct rdma_cm_id *srpt_rdma_cm_create(struct sockaddr *addr)
{
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(&init_net, srpt_rdma_cm_handler, NULL, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return id;
	ret = rdma_bind_addr(id, addr);
	if (!ret)
		ret = rdma_listen(id, 128);
	if (ret) {
		rdma_destroy_id(id);
		return ERR_PTR(ret);
	}
	return id;
}

/**
 * srpt_rdma_cm_listen() - listen for RDMA/CM logins on rdma_cm_port
 *
 * On the IPv6 wildcard address, which takes IPv4 connections too, or on
 * the IPv4 one when the kernel has no IPv6.
 *
 * Return: 0 or an errno.
 */
int srpt_rdma_cm_listen(void)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_ANY_INIT,
		.sin6_port = htons(srpt_rdma_cm_port),
	};
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_ANY),
		.sin_port = htons(srpt_rdma_cm_port),
	};
	struct rdma_cm_id *id;

	id = srpt_rdma_cm_create((struct sockaddr *)&sin6);
	if (IS_ERR(id))
		id = srpt_rdma_cm_create((struct sockaddr *)&sin);
	if (IS_ERR(id)) {
		pr_err("cannot listen on RDMA/CM port %u (%ld)\n",
		       srpt_rdma_cm_port, PTR_ERR(id));
		return PTR_ERR(id);
	}
	srpt_rdma_cm_listener = id;
	return 0;
}

/**
 * srpt_rdma_cm_stop() - stop listening for RDMA/CM logins
 */
void srpt_rdma_cm_stop(void)
{
	if (srpt_rdma_cm_listener)
		rdma_destroy_id(srpt_rdma_cm_listener);
	srpt_rdma_cm_listener = NULL;
}

/* ---------------------------------------------------------------------- */
/* IB CM                                                                  */
/* ---------------------------------------------------------------------- */

static int srpt_ib_cm_req_recv(struct ib_cm_id *cm_id,
			       const struct ib_cm_req_event_param *param,
			       const void *private_data)
{
	struct srpt_login_ctx *lc;
	u32 reason;
	int ret;

	lc = kzalloc(sizeof(*lc), GFP_KERNEL);
	if (!lc)
		return -ENOMEM;
	lc->ib_cm_id = cm_id;
	lc->port_num = param->port;
	lc->pkey = param->primary_path ?
		   be16_to_cpu(param->primary_path->pkey) : 0xffff;
	lc->initiator_depth = param->initiator_depth;
	lc->responder_resources = param->responder_resources;

	if (!srpt_login_hold_dev(lc, cm_id->device)) {
		pr_info("IB CM login on an unknown or departing device refused\n");
		ib_send_cm_rej(cm_id, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
			       NULL, 0);
		ret = -ECONNREFUSED;
		goto free;
	}
	if (srp_parse_login_req(private_data, IB_CM_REQ_PRIVATE_DATA_SIZE,
				SRPT_MIN_IT_IU_LEN, srp_max_req_size, &lc->lr,
				&reason)) {
		pr_info("IB CM login: bad SRP_LOGIN_REQ (it_iu_len %u)\n",
			lc->lr.it_iu_len);
		srpt_login_reject(lc, reason);
		ret = -ECONNREFUSED;
		goto free;
	}
	snprintf(lc->name, sizeof(lc->name), "0x%016llx%016llx",
		 get_unaligned_be64(lc->lr.initiator_port_id),
		 get_unaligned_be64(lc->lr.initiator_port_id + 8));
	ret = srpt_login(lc);
free:
	srpt_login_release_dev(lc);
	kfree(lc);
	return ret;
}

/*
 * IB CM events. Returning non-zero makes the CM destroy the ID: only for a
 * refused login. The context of a new connection's ID is the listener's
 * until a channel takes it over; the login looks its device up by the ID's
 * device instead (srpt_login_hold_dev()).
 */
static int srpt_ib_cm_handler(struct ib_cm_id *cm_id,
			      const struct ib_cm_event *event)
{
	struct srpt_rdma_ch *ch;

	if (event->event == IB_CM_REQ_RECEIVED)
		return srpt_ib_cm_req_recv(cm_id, &event->param.req_rcvd,
					   event->private_data);
	ch = cm_id->context;

	switch (event->event) {
	case IB_CM_RTU_RECEIVED:
	case IB_CM_USER_ESTABLISHED:
		if (srpt_ch_qp_rts(ch)) {
			pr_err("%s: QP to RTS failed\n", ch->name);
			srpt_ch_disconnect(ch);
			break;
		}
		srpt_ch_establish(ch);
		break;
	case IB_CM_DREQ_RECEIVED:
		/* answers with a DREP */
		srpt_ch_disconnect(ch);
		break;
	case IB_CM_REJ_RECEIVED:
		pr_info("%s: REJ received: %s\n", ch->name,
			ibcm_reject_msg(event->param.rej_rcvd.reason));
		srpt_ch_disconnect(ch);
		break;
	case IB_CM_REP_ERROR:
	case IB_CM_DREQ_ERROR:
		pr_info("%s: IB CM error event %d\n", ch->name, event->event);
		srpt_ch_disconnect(ch);
		break;
	case IB_CM_DREP_RECEIVED:
	case IB_CM_TIMEWAIT_EXIT:
		srpt_ch_disconnect(ch);
		break;
	case IB_CM_MRA_RECEIVED:
	default:
		break;
	}
	return 0;
}

/**
 * srpt_ib_cm_listen() - listen for IB CM logins on a device
 * @sdev: the device
 *
 * The service ID is srpt_service_guid, as login_info advertises.
 *
 * Return: 0, -EOPNOTSUPP for a device without IB CM (iWARP), or an errno.
 */
int srpt_ib_cm_listen(struct srpt_device *sdev)
{
	struct ib_cm_id *cm_id;
	bool ib_cm = false;
	u32 p;
	int ret;

	rdma_for_each_port(sdev->device, p)
		if (rdma_cap_ib_cm(sdev->device, p))
			ib_cm = true;
	if (!ib_cm)
		return -EOPNOTSUPP;

	cm_id = ib_create_cm_id(sdev->device, srpt_ib_cm_handler, sdev);
	if (IS_ERR(cm_id))
		return PTR_ERR(cm_id);
	ret = ib_cm_listen(cm_id, cpu_to_be64(srpt_service_guid));
	if (ret) {
		ib_destroy_cm_id(cm_id);
		return ret;
	}
	sdev->cm_id = cm_id;
	return 0;
}

/**
 * srpt_ib_cm_stop() - stop listening for IB CM logins on a device
 * @sdev: the device
 */
void srpt_ib_cm_stop(struct srpt_device *sdev)
{
	if (sdev->cm_id)
		ib_destroy_cm_id(sdev->cm_id);
	sdev->cm_id = NULL;
}
