// SPDX-License-Identifier: GPL-2.0-only
/*
 * srpt_main.c - scst_srpt module: parameters, RDMA devices and ports
 * (ib_client), and the targets that ports serve.
 *
 * One scst target per port GID, named by the GID as SCST names them
 * (fe80:0000:0000:0000:xxxx:xxxx:xxxx:xxxx), so that scst.conf files
 * written for SCST's ib_srpt keep working. A target outlives its port:
 * when an RDMA device goes away (rdma link delete, driver unload) its
 * channels are closed, but its target stays registered, port-less, with
 * its LUNs, groups and enabled state; when a port with the same GID comes
 * back it is attached to that target again and initiators reconnect
 * without any administrator action. (SCST drops and recreates the target,
 * empty and disabled.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/kthread.h>
#include <rdma/ib_cache.h>

#include "ib_srpt.h"

/* ---------------------------------------------------------------------- */
/* Module parameters (SCST's ib_srpt names)                               */
/* ---------------------------------------------------------------------- */

u16 srpt_rdma_cm_port;
module_param_named(rdma_cm_port, srpt_rdma_cm_port, ushort, 0444);
MODULE_PARM_DESC(rdma_cm_port,
		 "Port number RDMA/CM logins are accepted on (default 0: no RDMA/CM listener)");

unsigned int srp_max_req_size = SRPT_DEF_MAX_REQ_SIZE;
module_param(srp_max_req_size, uint, 0444);
MODULE_PARM_DESC(srp_max_req_size,
		 "Largest SRP request (IU) an initiator may send, in bytes (default 8276: 8 KiB of immediate data)");

unsigned int srp_max_rsp_size = SRPT_DEF_MAX_RSP_SIZE;
module_param(srp_max_rsp_size, uint, 0444);
MODULE_PARM_DESC(srp_max_rsp_size,
		 "Largest SRP response the target sends, in bytes (default 256)");

unsigned int srpt_sq_size = SRPT_DEF_SQ_SIZE;
module_param(srpt_sq_size, uint, 0444);
MODULE_PARM_DESC(srpt_sq_size,
		 "Send queue entries per channel (default 4096)");

unsigned int srpt_rq_size = SRPT_DEF_RQ_SIZE;
module_param(srpt_rq_size, uint, 0444);
MODULE_PARM_DESC(srpt_rq_size,
		 "Credits (receive buffers) per channel, i.e. the initiator's queue depth + 1 (default 128)");

bool srpt_use_srq;
module_param_named(use_srq, srpt_use_srq, bool, 0444);
MODULE_PARM_DESC(use_srq,
		 "Share one receive queue per RDMA device between its channels (default false)");

unsigned int srpt_srq_size = SRPT_DEF_SRQ_SIZE;
module_param(srpt_srq_size, uint, 0444);
MODULE_PARM_DESC(srpt_srq_size,
		 "Receive buffers of a shared receive queue (default 4095)");

bool srpt_thread_mode;
module_param_named(thread_mode, srpt_thread_mode, bool, 0444);
MODULE_PARM_DESC(thread_mode,
		 "Process completions in a per-target kernel thread bound to the target's cpu_mask instead of the shared CQ pool's workqueue (default false; per target: attribute thread_mode)");

u64 srpt_service_guid;

static int srpt_set_u64_x(const char *buffer, const struct kernel_param *kp)
{
	return kstrtou64(buffer, 16, (u64 *)kp->arg);
}

static int srpt_get_u64_x(char *buffer, const struct kernel_param *kp)
{
	return sprintf(buffer, "0x%016llx\n", *(u64 *)kp->arg);
}

static const struct kernel_param_ops srpt_u64_x_ops = {
	.set = srpt_set_u64_x,
	.get = srpt_get_u64_x,
};

module_param_cb(srpt_service_guid, &srpt_u64_x_ops, &srpt_service_guid,
		0444);
MODULE_PARM_DESC(srpt_service_guid,
		 "id_ext, ioc_guid and service ID the target accepts logins for (default: node GUID of the first RDMA device)");

/* targets, port bindings, channel lists: see ib_srpt.h */
DEFINE_MUTEX(srpt_mutex);
DECLARE_WAIT_QUEUE_HEAD(srpt_release_wq);
struct workqueue_struct *srpt_wq;
struct kmem_cache *srpt_req_cache, *srpt_rsp_cache;

/* every target, attached or port-less (srpt_mutex) */
static LIST_HEAD(srpt_tgt_list);
/* the module is being unloaded: ports go away with it */
static bool srpt_unloading;

/* ---------------------------------------------------------------------- */
/* Targets                                                                */
/* ---------------------------------------------------------------------- */

/**
 * srpt_format_gid() - write a GID as SCST names targets
 * @buf: output buffer
 * @len: its size, at least SRPT_GID_STR_LEN
 * @gid: the GID
 *
 * Eight groups of four hex digits: fe80:0000:0000:0000:68fb:2eff:fe29:ac8b.
 */
void srpt_format_gid(char *buf, size_t len, const union ib_gid *gid)
{
	const __be16 *w = (const __be16 *)gid->raw;

	snprintf(buf, len, "%04x:%04x:%04x:%04x:%04x:%04x:%04x:%04x",
		 be16_to_cpu(w[0]), be16_to_cpu(w[1]), be16_to_cpu(w[2]),
		 be16_to_cpu(w[3]), be16_to_cpu(w[4]), be16_to_cpu(w[5]),
		 be16_to_cpu(w[6]), be16_to_cpu(w[7]));
}

/**
 * srpt_tgt_from_scst() - our target behind an scst target
 * @scst_tgt: the core's target
 *
 * Return: the target, or NULL while it is being registered.
 */
struct srpt_tgt *srpt_tgt_from_scst(struct scst_tgt *scst_tgt)
{
	/* pairs with smp_store_release() in srpt_tgt_create() */
	return smp_load_acquire(&scst_tgt->tgt_priv);
}

/**
 * srpt_tgt_port_guid() - the GUID initiators must name as id_ext and
 *	ioc_guid to log in to a target
 * @tgt: the target
 *
 * Return: srpt_service_guid (the same for every target, as in SCST).
 */
u64 srpt_tgt_port_guid(const struct srpt_tgt *tgt)
{
	return READ_ONCE(srpt_service_guid);
}

static struct srpt_tgt *srpt_tgt_find(const union ib_gid *gid)
{
	struct srpt_tgt *tgt;

	lockdep_assert_held(&srpt_mutex);
	list_for_each_entry(tgt, &srpt_tgt_list, entry)
		if (!memcmp(&tgt->gid, gid, sizeof(*gid)))
			return tgt;
	return NULL;
}

/*
 * Register the target of a GID. It starts disabled, with the default
 * thread mode and every completion vector allowed.
 */
static struct srpt_tgt *srpt_tgt_create(const union ib_gid *gid)
{
	struct scst_tgt *scst_tgt;
	struct srpt_tgt *tgt;

	lockdep_assert_held(&srpt_mutex);
	tgt = kzalloc(sizeof(*tgt), GFP_KERNEL);
	if (!tgt)
		return ERR_PTR(-ENOMEM);
	tgt->gid = *gid;
	srpt_format_gid(tgt->name, sizeof(tgt->name), gid);
	tgt->thread_mode = srpt_thread_mode;
	tgt->max_sessions = SRPT_DEF_MAX_SESSIONS;
	tgt->max_ch_per_ini = SRPT_DEF_MAX_CH_PER_INI;
	bitmap_fill(tgt->comp_v_mask, SRPT_MAX_COMP_VECTORS);
	INIT_LIST_HEAD(&tgt->ch_list);

	scst_tgt = scst_register_target(&srpt_template, tgt->name);
	if (IS_ERR(scst_tgt)) {
		pr_err("target %s: the target core refused it (%ld)\n",
		       tgt->name, PTR_ERR(scst_tgt));
		kfree(tgt);
		return ERR_CAST(scst_tgt);
	}
	tgt->scst_tgt = scst_tgt;
	/* the attributes may be read from now on */
	smp_store_release(&scst_tgt->tgt_priv, tgt);
	list_add_tail(&tgt->entry, &srpt_tgt_list);
	return tgt;
}

/* ---------------------------------------------------------------------- */
/* Ports                                                                  */
/* ---------------------------------------------------------------------- */

/*
 * Detach @sport from its target: the target becomes port-less and its
 * channels are closed. The caller waits for them without srpt_mutex.
 */
static struct srpt_tgt *srpt_port_detach(struct srpt_port *sport)
{
	struct srpt_tgt *tgt = sport->tgt;

	lockdep_assert_held(&srpt_mutex);
	if (!tgt)
		return NULL;
	if (!srpt_unloading)
		pr_info("target %s: port %s/%u going away; the target stays, port-less\n",
			tgt->name, dev_name(&sport->sdev->device->dev),
			sport->port);
	WRITE_ONCE(tgt->sport, NULL);
	sport->tgt = NULL;
	srpt_tgt_close_channels(tgt, false);
	return tgt;
}

/**
 * srpt_port_refresh() - (re)attach a port to the target of its GID
 * @sport: the port
 *
 * Reads GID 0 of the port. A port without a GID yet (RoCE before its
 * netdev is up) is attached later, from the port event that announces it.
 * A port whose GID changed leaves its old target (closing its channels)
 * for the target of its new GID, which is created if needed.
 */
static void srpt_port_refresh(struct srpt_port *sport)
{
	struct srpt_device *sdev = sport->sdev;
	struct srpt_tgt *tgt, *old = NULL;
	union ib_gid gid;
	int ret;

	ret = rdma_query_gid(sdev->device, sport->port, 0, &gid);
	if (ret || !memchr_inv(&gid, 0, sizeof(gid))) {
		pr_debug("%s/%u: no GID yet (%d)\n",
			 dev_name(&sdev->device->dev), sport->port, ret);
		return;
	}

	mutex_lock(&srpt_mutex);
	if (sdev->removing)
		goto unlock;
	if (sport->tgt && !memcmp(&sport->tgt->gid, &gid, sizeof(gid)))
		goto unlock;
	old = srpt_port_detach(sport);

	tgt = srpt_tgt_find(&gid);
	if (!tgt) {
		tgt = srpt_tgt_create(&gid);
		if (IS_ERR(tgt))
			goto unlock;
		pr_info("target %s: port %s/%u (%s)\n", tgt->name,
			dev_name(&sdev->device->dev), sport->port,
			sport->link_layer == IB_LINK_LAYER_ETHERNET ?
			"RoCE" : "InfiniBand");
	} else if (tgt->sport) {
		pr_warn("%s/%u: GID %s is already served by %s/%u\n",
			dev_name(&sdev->device->dev), sport->port, tgt->name,
			dev_name(&tgt->sport->sdev->device->dev),
			tgt->sport->port);
		goto unlock;
	} else {
		pr_info("target %s: port %s/%u is back; re-attached (%s)\n",
			tgt->name, dev_name(&sdev->device->dev), sport->port,
			tgt->enabled ? "enabled" : "disabled");
	}
	sport->tgt = tgt;
	WRITE_ONCE(tgt->sport, sport);
unlock:
	mutex_unlock(&srpt_mutex);
	if (old)
		srpt_tgt_wait_channels(old);
}

static void srpt_port_refresh_work(struct work_struct *work)
{
	srpt_port_refresh(container_of(work, struct srpt_port, refresh_work));
}

/*
 * Asynchronous events of a device. Port state and GID changes re-read the
 * port's GID; the rest only concern the QPs (srpt_qp_event()).
 */
static void srpt_event_handler(struct ib_event_handler *handler,
			       struct ib_event *event)
{
	struct srpt_device *sdev = container_of(handler, struct srpt_device,
						event_handler);
	u32 port = event->element.port_num;

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
		if (port >= 1 && port <= sdev->port_cnt)
			queue_work(srpt_wq, &sdev->ports[port - 1].refresh_work);
		break;
	case IB_EVENT_PORT_ERR:
		pr_info("%s/%u: port error\n", dev_name(&sdev->device->dev),
			port);
		break;
	default:
		break;
	}
}

/* ---------------------------------------------------------------------- */
/* RDMA devices                                                           */
/* ---------------------------------------------------------------------- */

static void srpt_free_srq(struct srpt_device *sdev)
{
	if (!sdev->srq)
		return;
	ib_destroy_srq(sdev->srq);
	srpt_free_recv_ring(sdev, sdev->srq_ring, sdev->srq_size);
	sdev->srq = NULL;
	sdev->srq_ring = NULL;
}

/* Create the shared receive queue of a device and fill it. */
static int srpt_alloc_srq(struct srpt_device *sdev)
{
	struct ib_srq_init_attr srq_attr = {
		.srq_type = IB_SRQT_BASIC,
		.attr.max_wr = min_t(u32, srpt_srq_size,
				     sdev->device->attrs.max_srq_wr),
		.attr.max_sge = 1,
	};
	struct ib_srq *srq;
	u32 i;
	int ret;

	srq = ib_create_srq(sdev->pd, &srq_attr);
	if (IS_ERR(srq))
		return PTR_ERR(srq);
	sdev->srq_size = srq_attr.attr.max_wr;
	/* shared by every channel: immediate data is copied out of it */
	sdev->srq_ring = srpt_alloc_recv_ring(sdev, NULL, sdev->srq_size, 0);
	if (!sdev->srq_ring) {
		ret = -ENOMEM;
		goto destroy_srq;
	}
	sdev->srq = srq;
	for (i = 0; i < sdev->srq_size; i++) {
		ret = srpt_post_recv(sdev->srq_ring[i]);
		if (ret)
			goto free_ring;
	}
	return 0;

free_ring:
	sdev->srq = NULL;
	srpt_free_recv_ring(sdev, sdev->srq_ring, sdev->srq_size);
	sdev->srq_ring = NULL;
destroy_srq:
	ib_destroy_srq(srq);
	return ret;
}

static int srpt_add_one(struct ib_device *device)
{
	struct srpt_device *sdev;
	u32 i;
	int ret;

	sdev = kzalloc(struct_size(sdev, ports, rdma_end_port(device)),
		       GFP_KERNEL);
	if (!sdev)
		return -ENOMEM;
	sdev->device = device;
	sdev->port_cnt = rdma_end_port(device);
	atomic_set(&sdev->nr_ch, 0);

	sdev->pd = ib_alloc_pd(device, 0);
	if (IS_ERR(sdev->pd)) {
		ret = PTR_ERR(sdev->pd);
		goto free_dev;
	}
	sdev->lkey = sdev->pd->local_dma_lkey;

	mutex_lock(&srpt_mutex);
	if (!srpt_service_guid)
		srpt_service_guid = be64_to_cpu(device->node_guid);
	mutex_unlock(&srpt_mutex);

	if (srpt_use_srq) {
		ret = srpt_alloc_srq(sdev);
		if (ret)
			pr_warn("%s: no shared receive queue (%d); each channel gets its own\n",
				dev_name(&device->dev), ret);
	}

	for (i = 0; i < sdev->port_cnt; i++) {
		struct srpt_port *sport = &sdev->ports[i];

		sport->sdev = sdev;
		sport->port = i + 1;
		sport->link_layer = rdma_port_get_link_layer(device, i + 1);
		INIT_WORK(&sport->refresh_work, srpt_port_refresh_work);
	}

	ib_set_client_data(device, &srpt_client, sdev);
	INIT_IB_EVENT_HANDLER(&sdev->event_handler, device, srpt_event_handler);
	ib_register_event_handler(&sdev->event_handler);

	/* IB CM logins (InfiniBand, RoCE); iWARP has only RDMA/CM */
	ret = srpt_ib_cm_listen(sdev);
	if (ret && ret != -EOPNOTSUPP)
		pr_warn("%s: no IB CM listener (%d); RDMA/CM logins only\n",
			dev_name(&device->dev), ret);

	/*
	 * DM MAD agents of the InfiniBand ports, for discovery: after the
	 * IB CM listener, so that a discovered port accepts logins. A port
	 * without one (logged) still serves initiators told its address.
	 */
	for (i = 0; i < sdev->port_cnt; i++)
		srpt_mad_port_init(&sdev->ports[i]);

	for (i = 0; i < sdev->port_cnt; i++)
		srpt_port_refresh(&sdev->ports[i]);

	pr_info("added %s: %u port(s)%s\n", dev_name(&device->dev),
		sdev->port_cnt, sdev->srq ? ", shared receive queue" : "");
	return 0;

free_dev:
	kfree(sdev);
	return ret;
}

static void srpt_remove_one(struct ib_device *device, void *client_data)
{
	struct srpt_device *sdev = client_data;
	u32 p;

	/* no longer discoverable, then no longer logged in to */
	for (p = 0; p < sdev->port_cnt; p++)
		srpt_mad_port_exit(&sdev->ports[p]);
	ib_unregister_event_handler(&sdev->event_handler);
	for (p = 0; p < sdev->port_cnt; p++)
		cancel_work_sync(&sdev->ports[p].refresh_work);
	srpt_ib_cm_stop(sdev);

	/* a login looks the device up and counts itself under this mutex */
	mutex_lock(&srpt_mutex);
	sdev->removing = true;
	ib_set_client_data(device, &srpt_client, NULL);
	for (p = 0; p < sdev->port_cnt; p++)
		srpt_port_detach(&sdev->ports[p]);
	mutex_unlock(&srpt_mutex);

	/* every channel of the device must be gone before its PD goes */
	srpt_dev_wait_channels(sdev);

	srpt_free_srq(sdev);
	ib_dealloc_pd(sdev->pd);
	pr_info("removed %s\n", dev_name(&device->dev));
	kfree(sdev);
}

struct ib_client srpt_client = {
	.name = "scst_srpt",
	.add = srpt_add_one,
	.remove = srpt_remove_one,
};

/* ---------------------------------------------------------------------- */
/* Target driver callbacks                                                */
/* ---------------------------------------------------------------------- */

/*
 * The "enabled" attribute. Disabling closes every channel of the target
 * (SRP_T_LOGOUT, then a disconnect) and waits until their sessions are
 * gone; logins are refused until it is enabled again.
 */
static int srpt_enable_target(struct scst_tgt *scst_tgt, bool enable)
{
	struct srpt_tgt *tgt = srpt_tgt_from_scst(scst_tgt);

	if (!tgt)
		return -ENODEV;

	mutex_lock(&srpt_mutex);
	if (tgt->enabled == enable) {
		mutex_unlock(&srpt_mutex);
		return 0;
	}
	WRITE_ONCE(tgt->enabled, enable);
	pr_info("target %s %s\n", tgt->name, enable ? "enabled" : "disabled");
	if (!enable)
		srpt_tgt_close_channels(tgt, true);
	mutex_unlock(&srpt_mutex);

	if (!enable)
		srpt_tgt_wait_channels(tgt);
	return 0;
}

static bool srpt_is_target_enabled(struct scst_tgt *scst_tgt)
{
	struct srpt_tgt *tgt = srpt_tgt_from_scst(scst_tgt);

	return tgt && READ_ONCE(tgt->enabled);
}

/* The core asks us to close a session: disconnect its channel. */
static void srpt_close_session(struct scst_session *sess)
{
	struct srpt_rdma_ch *ch = sess->tgt_priv;

	srpt_ch_close_async(ch);
}

/*
 * SPC-4 §7.6.4.5: persistent reservations name an SRP initiator port by
 * its 128-bit INITIATOR PORT IDENTIFIER from the login (SRP r16a §5.3.2),
 * copied to the channel before the session registers.
 */
static int srpt_get_transport_id(struct scst_session *sess,
				 struct scst_pr_tid *tid)
{
	struct srpt_rdma_ch *ch = sess->tgt_priv;

	scst_pr_tid_from_srp(tid, ch->i_port_id);
	return 0;
}

struct scst_tgt_template srpt_template = {
	.name			= SRPT_DRV_NAME,
	/* rdma_rw maps any scatterlist, with MRs where the device needs them */
	.sg_tablesize		= 0,
	.xmit_response		= srpt_xmit_response,
	.rdy_to_xfer		= srpt_rdy_to_xfer,
	.task_mgmt_fn_done	= srpt_tsk_mgmt_done,
	.enable_target		= srpt_enable_target,
	.is_target_enabled	= srpt_is_target_enabled,
	.close_session		= srpt_close_session,
	.get_transport_id	= srpt_get_transport_id,
	.tgt_attrs		= srpt_tgt_attrs,
	.sess_attrs		= srpt_sess_attrs,
	.owner			= THIS_MODULE,
};

/* ---------------------------------------------------------------------- */
/* Module                                                                 */
/* ---------------------------------------------------------------------- */

static int srpt_check_params(void)
{
	if (srp_max_req_size < SRPT_MIN_MAX_REQ_SIZE ||
	    srp_max_req_size > SRPT_MAX_MAX_REQ_SIZE) {
		pr_err("srp_max_req_size=%u: must be %u..%u\n",
		       srp_max_req_size, SRPT_MIN_MAX_REQ_SIZE,
		       SRPT_MAX_MAX_REQ_SIZE);
		return -EINVAL;
	}
	if (srp_max_rsp_size < SRPT_MIN_MAX_RSP_SIZE ||
	    srp_max_rsp_size > SRPT_MAX_MAX_RSP_SIZE) {
		pr_err("srp_max_rsp_size=%u: must be %u..%u\n",
		       srp_max_rsp_size, SRPT_MIN_MAX_RSP_SIZE,
		       SRPT_MAX_MAX_RSP_SIZE);
		return -EINVAL;
	}
	if (srpt_sq_size < SRPT_MIN_SQ_SIZE || srpt_sq_size > SRPT_MAX_SQ_SIZE) {
		pr_err("srpt_sq_size=%u: must be %u..%u\n", srpt_sq_size,
		       SRPT_MIN_SQ_SIZE, SRPT_MAX_SQ_SIZE);
		return -EINVAL;
	}
	if (srpt_rq_size < SRPT_MIN_RQ_SIZE || srpt_rq_size > SRPT_MAX_RQ_SIZE) {
		pr_err("srpt_rq_size=%u: must be %u..%u\n", srpt_rq_size,
		       SRPT_MIN_RQ_SIZE, SRPT_MAX_RQ_SIZE);
		return -EINVAL;
	}
	if (srpt_srq_size < SRPT_MIN_SRQ_SIZE ||
	    srpt_srq_size > SRPT_MAX_SRQ_SIZE) {
		pr_err("srpt_srq_size=%u: must be %u..%u\n", srpt_srq_size,
		       SRPT_MIN_SRQ_SIZE, SRPT_MAX_SRQ_SIZE);
		return -EINVAL;
	}
	return 0;
}

/* Unregister every target; their channels are gone (no devices left). */
static void srpt_remove_targets(void)
{
	struct srpt_tgt *tgt;

	for (;;) {
		mutex_lock(&srpt_mutex);
		tgt = list_first_entry_or_null(&srpt_tgt_list, struct srpt_tgt,
					       entry);
		if (tgt)
			list_del(&tgt->entry);
		mutex_unlock(&srpt_mutex);
		if (!tgt)
			break;
		srpt_tgt_wait_channels(tgt);
		srpt_thread_stop(tgt);
		scst_unregister_target(tgt->scst_tgt);
		kfree(tgt);
	}
}

static int __init srpt_init_module(void)
{
	int ret;

	ret = srpt_check_params();
	if (ret)
		return ret;

	ret = -ENOMEM;
	/* room to place a channel's immediate data at SRPT_IMM_ALIGN */
	srpt_req_cache = kmem_cache_create("srpt_req",
					   srp_max_req_size + SRPT_IMM_ALIGN,
					   SRPT_IMM_ALIGN, 0, NULL);
	if (!srpt_req_cache)
		goto out;
	srpt_rsp_cache = kmem_cache_create("srpt_rsp", srp_max_rsp_size, 0,
					   SLAB_HWCACHE_ALIGN, NULL);
	if (!srpt_rsp_cache)
		goto destroy_req_cache;
	srpt_wq = alloc_workqueue("scst_srpt", WQ_MEM_RECLAIM, 0);
	if (!srpt_wq)
		goto destroy_rsp_cache;

	ret = scst_register_target_template(&srpt_template);
	if (ret)
		goto destroy_wq;

	ret = ib_register_client(&srpt_client);
	if (ret) {
		pr_err("cannot register as RDMA client (%d)\n", ret);
		goto unregister_template;
	}

	if (srpt_rdma_cm_port) {
		ret = srpt_rdma_cm_listen();
		if (ret)
			goto unregister_client;
	}
	pr_info("SCSI RDMA Protocol target loaded (RDMA/CM port %u, service GUID 0x%016llx%s)\n",
		srpt_rdma_cm_port, srpt_service_guid,
		srpt_thread_mode ? ", thread mode" : "");
	return 0;

unregister_client:
	ib_unregister_client(&srpt_client);
	srpt_remove_targets();
unregister_template:
	scst_unregister_target_template(&srpt_template);
destroy_wq:
	destroy_workqueue(srpt_wq);
destroy_rsp_cache:
	kmem_cache_destroy(srpt_rsp_cache);
destroy_req_cache:
	kmem_cache_destroy(srpt_req_cache);
out:
	return ret;
}

static void __exit srpt_cleanup_module(void)
{
	/* no new RDMA/CM logins */
	srpt_rdma_cm_stop();
	mutex_lock(&srpt_mutex);
	srpt_unloading = true;
	mutex_unlock(&srpt_mutex);
	/* closes every channel of every device and waits for them */
	ib_unregister_client(&srpt_client);
	srpt_remove_targets();
	scst_unregister_target_template(&srpt_template);
	destroy_workqueue(srpt_wq);
	kmem_cache_destroy(srpt_rsp_cache);
	kmem_cache_destroy(srpt_req_cache);
}

module_init(srpt_init_module);
module_exit(srpt_cleanup_module);

MODULE_DESCRIPTION("SCSI RDMA Protocol target driver for the SCST-compatible target core");
MODULE_LICENSE("GPL");
