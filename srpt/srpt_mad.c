// SPDX-License-Identifier: GPL-2.0-only
/*
 * srpt_mad.c - the device management (DM) MAD agent of each InfiniBand
 * port (InfiniBand Architecture Specification volume 1, §16.3; SRP r16a
 * annex B.7).
 *
 * srp_daemon and ibsrpdm find SRP targets on an InfiniBand fabric by
 * asking the subnet administrator for the ports whose PortInfo
 * CapabilityMask has IsDeviceManagementSupported set, and then sending
 * each such port DM Get requests on QP1: IOUnitInfo (which controller
 * slots are populated), IOControllerProfile of each populated slot and
 * the ServiceEntries of its controller ("SRP.T10:<id_ext>" and the
 * service ID to log in with).
 *
 * Every InfiniBand port of the target is an IO unit with one controller,
 * in slot 1. The controller GUID, the id_ext of its one service entry and
 * the service ID are all srpt_service_guid: what the IB CM listener and
 * the login checks accept (srpt_cm.c) and what login_info shows. RoCE and
 * iWARP ports have neither a subnet manager nor the DM class: they get no
 * agent, and their capability mask is left alone.
 *
 * Per port, while its device is ours: the agent is registered first, then
 * the capability bit is set, so that nobody is pointed at a port that
 * does not answer yet; on removal (device removal, module unload) the bit
 * is cleared first, then the agent goes. What to answer is pure logic
 * (srp_dm.c, unit-tested byte for byte); this file only describes the
 * port as an IO unit and moves MADs between the MAD layer and
 * srp_dm_answer_mad().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sizes.h>
#include <rdma/ib_mad.h>

#include "ib_srpt.h"

/* IOControllerProfile IDString (IBA §16.3.3.4). */
#define SRPT_DM_ID_STRING		"SCST SRP target"
/* IOUnitInfo ChangeID: the profile does not change while the port lives. */
#define SRPT_DM_CHANGE_ID		1
/* ClassPortInfo RespTimeValue: 4.096 us * 2^20, about 4 s, as ib_srpt. */
#define SRPT_DM_RESP_TIME_VALUE		20
/* RDMA READs a channel has outstanding at most (SRPT_RD_ATOMIC, srpt_cm.c). */
#define SRPT_DM_RDMA_READ_DEPTH		4
/*
 * RDMATransferSize: rdma_rw splits any descriptor into as many work
 * requests as it needs; announce 16 MiB, as LIO's ib_srpt at most does.
 */
#define SRPT_DM_RDMA_SIZE		SZ_16M

/**
 * struct srpt_dm_port - a port as device management shows it
 * @iou: the IO unit: one controller slot
 * @ioc: the controller in slot 1
 * @svc: its service entry
 * @slot_state: the state of slot 1
 */
struct srpt_dm_port {
	struct srp_dm_iou iou;
	struct srp_dm_ioc ioc;
	struct srp_dm_svc_entry svc;
	u8 slot_state;
};

/* Whether @sport is an InfiniBand port with a GSI QP for DM MADs. */
static bool srpt_mad_port_wanted(const struct srpt_port *sport)
{
	struct ib_device *device = sport->sdev->device;

	return rdma_protocol_ib(device, sport->port) &&
	       rdma_cap_ib_mad(device, sport->port);
}

/*
 * Describe @sport as an IO unit with one SRP controller in slot 1 (SRP
 * r16a annex B.7 tables B.6 - B.8).
 */
static void srpt_dm_describe(const struct srpt_port *sport,
			     struct srpt_dm_port *d)
{
	const struct ib_device_attr *attrs = &sport->sdev->device->attrs;
	u64 guid = READ_ONCE(srpt_service_guid);

	memset(d, 0, sizeof(*d));
	srp_dm_srp_svc_entry(&d->svc, guid);

	d->ioc.profile.guid = guid;
	d->ioc.profile.vendor_id = attrs->vendor_id;
	d->ioc.profile.device_id = attrs->vendor_part_id;
	d->ioc.profile.device_version = attrs->hw_ver;
	d->ioc.profile.subsys_vendor_id = attrs->vendor_id;
	d->ioc.profile.io_class = SRP_DM_IO_CLASS_SRP;
	d->ioc.profile.io_subclass = SRP_DM_IO_SUBCLASS_SRP;
	d->ioc.profile.protocol = SRP_DM_PROTOCOL_SRP;
	d->ioc.profile.protocol_version = SRP_DM_PROTOCOL_VERSION_SRP;
	/* the credits a login grants (srpt_login()) */
	d->ioc.profile.send_queue_depth = srpt_rq_size;
	d->ioc.profile.rdma_read_depth =
		min_t(int, attrs->max_qp_init_rd_atom, SRPT_DM_RDMA_READ_DEPTH);
	d->ioc.profile.send_size = srp_max_req_size;
	d->ioc.profile.rdma_size = SRPT_DM_RDMA_SIZE;
	/* initiators SEND IUs to us; we SEND, RDMA READ and RDMA WRITE */
	d->ioc.profile.op_cap_mask = SRP_DM_OP_SEND_TO_IOC |
				     SRP_DM_OP_SEND_FROM_IOC |
				     SRP_DM_OP_RDMA_READ_FROM_IOC |
				     SRP_DM_OP_RDMA_WRITE_FROM_IOC;
	d->ioc.profile.num_svc_entries = 1;
	d->ioc.profile.id_string = SRPT_DM_ID_STRING;
	d->ioc.svc_entries = &d->svc;

	d->slot_state = SRP_DM_SLOT_PRESENT;
	d->iou.change_id = SRPT_DM_CHANGE_ID;
	d->iou.resp_time_value = SRPT_DM_RESP_TIME_VALUE;
	d->iou.max_controllers = 1;
	d->iou.slot_state = &d->slot_state;
	d->iou.ioc = &d->ioc;
}

/*
 * A response was sent (or flushed when the agent went away): free it and
 * its address handle. Runs in process context (the MAD layer's CQ is
 * polled from a workqueue; flushes come from ib_unregister_mad_agent()).
 */
static void srpt_mad_send_handler(struct ib_mad_agent *agent,
				  struct ib_mad_send_wc *mad_send_wc)
{
	struct ib_mad_send_buf *rsp = mad_send_wc->send_buf;

	if (mad_send_wc->status != IB_WC_SUCCESS)
		pr_debug("%s/%u: DM response not sent (status %d)\n",
			 dev_name(&agent->device->dev), agent->port_num,
			 mad_send_wc->status);
	rdma_destroy_ah(rsp->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(rsp);
}

/*
 * A DM request (Get or Set, the methods the agent registered) arrived:
 * answer it with a GetResp to its sender (IBA §13.4.5), built by
 * srp_dm_answer_mad(). The response and its address handle belong to the
 * MAD layer once posted and come back in srpt_mad_send_handler().
 */
static void srpt_mad_recv_handler(struct ib_mad_agent *agent,
				  struct ib_mad_send_buf *send_buf,
				  struct ib_mad_recv_wc *mad_recv_wc)
{
	struct srpt_port *sport = agent->context;
	struct ib_mad_send_buf *rsp;
	struct srpt_dm_port desc;
	struct ib_ah *ah;
	int ret;

	ah = ib_create_ah_from_wc(agent->qp->pd, mad_recv_wc->wc,
				  mad_recv_wc->recv_buf.grh, agent->port_num);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto free_recv;
	}
	rsp = ib_create_send_mad(agent, mad_recv_wc->wc->src_qp,
				 mad_recv_wc->wc->pkey_index, 0,
				 IB_MGMT_DEVICE_HDR, IB_MGMT_DEVICE_DATA,
				 GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(rsp)) {
		ret = PTR_ERR(rsp);
		goto destroy_ah;
	}
	rsp->ah = ah;

	srpt_dm_describe(sport, &desc);
	ret = srp_dm_answer_mad((const u8 *)mad_recv_wc->recv_buf.mad,
				mad_recv_wc->mad_len, rsp->mad,
				rsp->hdr_len + rsp->data_len, &desc.iou);
	if (ret < 0)
		goto free_rsp;
	ret = ib_post_send_mad(rsp, NULL);
	if (ret)
		goto free_rsp;
	ib_free_recv_mad(mad_recv_wc);
	return;

free_rsp:
	ib_free_send_mad(rsp);
destroy_ah:
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
free_recv:
	pr_debug("%s/%u: DM request not answered (%d)\n",
		 dev_name(&agent->device->dev), agent->port_num, ret);
	ib_free_recv_mad(mad_recv_wc);
}

/**
 * srpt_mad_port_init() - answer device management MADs on a port
 * @sport: the port; its device and number are set
 *
 * On an InfiniBand port: registers a MAD agent for the DM class (version
 * 1, Get and Set, on QP1) and then sets IsDeviceManagementSupported in
 * the port's capability mask, which the subnet manager publishes. Other
 * ports are left alone. Failure is not fatal: the port serves logins
 * whose initiator knows the target's address, but discovery does not
 * find it (expected on SR-IOV virtual functions, which may not change
 * the capability mask, and while another driver, LIO's ib_srpt say, owns
 * the DM class on the port).
 *
 * Return: 0 (also for a port that needs no agent) or a negative errno.
 */
int srpt_mad_port_init(struct srpt_port *sport)
{
	struct ib_device *device = sport->sdev->device;
	struct ib_port_modify set_dm = {
		.set_port_cap_mask = IB_PORT_DEVICE_MGMT_SUP,
	};
	struct ib_mad_reg_req reg_req = {
		.mgmt_class = IB_MGMT_CLASS_DEVICE_MGMT,
		.mgmt_class_version = SRP_DM_CLASS_VERSION,
	};
	struct ib_mad_agent *agent;
	int ret;

	BUILD_BUG_ON(SRP_DM_MGMT_CLASS != IB_MGMT_CLASS_DEVICE_MGMT);
	BUILD_BUG_ON(SRP_DM_BASE_VERSION != IB_MGMT_BASE_VERSION);
	BUILD_BUG_ON(SRP_DM_METHOD_GET != IB_MGMT_METHOD_GET);
	BUILD_BUG_ON(SRP_DM_METHOD_SET != IB_MGMT_METHOD_SET);
	BUILD_BUG_ON(SRP_DM_METHOD_GET_RESP != IB_MGMT_METHOD_GET_RESP);
	BUILD_BUG_ON(SRP_DM_MAD_HDR_LEN != IB_MGMT_DEVICE_HDR);
	BUILD_BUG_ON(SRP_DM_MAD_DATA_LEN != IB_MGMT_DEVICE_DATA);
	BUILD_BUG_ON(SRP_DM_MAD_LEN != IB_MGMT_MAD_SIZE);
	BUILD_BUG_ON(SRP_DM_STATUS_UNSUP_METHOD !=
		     IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD);
	BUILD_BUG_ON(SRP_DM_STATUS_UNSUP_METHOD_ATTR !=
		     IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	BUILD_BUG_ON(SRP_DM_STATUS_INVALID_FIELD !=
		     IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE);

	if (!srpt_mad_port_wanted(sport))
		return 0;

	set_bit(IB_MGMT_METHOD_GET, reg_req.method_mask);
	set_bit(IB_MGMT_METHOD_SET, reg_req.method_mask);
	agent = ib_register_mad_agent(device, sport->port, IB_QPT_GSI,
				      &reg_req, 0, srpt_mad_send_handler,
				      srpt_mad_recv_handler, sport, 0);
	if (IS_ERR(agent)) {
		ret = PTR_ERR(agent);
		pr_warn("%s/%u: no device management MAD agent (%d); srp_daemon and ibsrpdm will not discover this port\n",
			dev_name(&device->dev), sport->port, ret);
		return ret;
	}

	ret = ib_modify_port(device, sport->port, 0, &set_dm);
	if (ret) {
		pr_warn("%s/%u: cannot set IsDeviceManagementSupported (%d); srp_daemon and ibsrpdm will not discover this port\n",
			dev_name(&device->dev), sport->port, ret);
		goto unregister_agent;
	}
	sport->mad_agent = agent;
	pr_info("%s/%u: answering device management MADs (SRP IO controller 0x%016llx)\n",
		dev_name(&device->dev), sport->port,
		READ_ONCE(srpt_service_guid));
	return 0;

unregister_agent:
	ib_unregister_mad_agent(agent);
	return ret;
}

/**
 * srpt_mad_port_exit() - stop answering device management MADs on a port
 * @sport: the port
 *
 * Undoes srpt_mad_port_init() in reverse order: clears
 * IsDeviceManagementSupported, then unregisters the agent, which waits
 * for its handlers and flushes the responses not sent yet. Does nothing
 * for a port without an agent.
 */
void srpt_mad_port_exit(struct srpt_port *sport)
{
	struct ib_device *device = sport->sdev->device;
	struct ib_port_modify clear_dm = {
		.clr_port_cap_mask = IB_PORT_DEVICE_MGMT_SUP,
	};
	int ret;

	if (!sport->mad_agent)
		return;
	ret = ib_modify_port(device, sport->port, 0, &clear_dm);
	if (ret)
		pr_debug("%s/%u: cannot clear IsDeviceManagementSupported (%d)\n",
			 dev_name(&device->dev), sport->port, ret);
	ib_unregister_mad_agent(sport->mad_agent);
	sport->mad_agent = NULL;
}
