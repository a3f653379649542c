// SPDX-License-Identifier: GPL-2.0-only
/*
 * InfiniBand device management (DM) MAD payloads that let SRP initiators
 * discover the target (InfiniBand Architecture Specification volume 1,
 * §16.3 "Device management"; SRP r16a annex B.7): ClassPortInfo,
 * IOUnitInfo, IOControllerProfile and ServiceEntries, the checks of the
 * attribute modifiers of Get requests for them, and the answer to a whole
 * request MAD.
 *
 * The builders write the MAD data area only, byte by byte as the tables of
 * §16.3.3 lay it out. srp_dm_decide() maps a request (method, attribute,
 * modifier) to the builder and the MAD status to answer with, and
 * srp_dm_answer_mad() writes the whole GetResp MAD; the driver
 * (srpt_mad.c) only moves MADs between the MAD layer and these functions.
 */

#include <scst_pure.h>
#include "srp_iu.h"

/* IBA §13.4.8.1 and §16.3.3.1: ClassPortInfo. */
#define CPI_OFF_BASE_VERSION	0
#define CPI_OFF_CLASS_VERSION	1
#define CPI_OFF_CAP_MASK2_RESP	4	/* CapabilityMask2:27, RespTimeValue:5 */
#define CPI_RESP_TIME_MASK	0x1f

/* IBA §16.3.3.3: IOUnitInfo. */
#define IOU_OFF_CHANGE_ID	0
#define IOU_OFF_MAX_CTRLS	2
#define IOU_OFF_OP_ROM		3
#define IOU_OFF_CTRL_LIST	4
#define IOU_CTRL_LIST_LEN	128	/* 4 bits per slot, slot 1 first */

/* IBA §16.3.3.4: IOControllerProfile. */
#define IOC_OFF_GUID		0
#define IOC_OFF_VENDOR_ID	8	/* 24 bits, then 8 reserved */
#define IOC_OFF_DEVICE_ID	12
#define IOC_OFF_DEVICE_VERSION	16
#define IOC_OFF_SUBSYS_VENDOR	20	/* 24 bits, then 8 reserved */
#define IOC_OFF_SUBSYS_ID	24
#define IOC_OFF_IO_CLASS	28
#define IOC_OFF_IO_SUBCLASS	30
#define IOC_OFF_PROTOCOL	32
#define IOC_OFF_PROTOCOL_VER	34
#define IOC_OFF_SEND_DEPTH	40
#define IOC_OFF_RDMA_READ_DEPTH	43
#define IOC_OFF_SEND_SIZE	44
#define IOC_OFF_RDMA_SIZE	48
#define IOC_OFF_OP_CAP_MASK	52
#define IOC_OFF_SVC_ENTRIES	54
#define IOC_OFF_ID_STRING	64

/* IBA §16.3.3.5: one ServiceEntry. */
#define SVC_OFF_NAME		0
#define SVC_OFF_ID		40

/**
 * srp_dm_build_class_port_info() - build ClassPortInfo (IBA §13.4.8.1)
 * @buf: the MAD data area
 * @len: its size
 * @resp_time_value: RespTimeValue: 4.096 us * 2^value to answer
 *
 * Device management class version 1, no capabilities, no redirection.
 *
 * Return: the payload length (72), or -ENOSPC if @buf is too small.
 */
int srp_dm_build_class_port_info(u8 *buf, size_t len, u8 resp_time_value)
{
	if (!buf || len < SRP_DM_CLASS_PORT_INFO_LEN)
		return -ENOSPC;
	memset(buf, 0, SRP_DM_CLASS_PORT_INFO_LEN);
	buf[CPI_OFF_BASE_VERSION] = SRP_DM_BASE_VERSION;
	buf[CPI_OFF_CLASS_VERSION] = SRP_DM_CLASS_VERSION;
	put_unaligned_be32(resp_time_value & CPI_RESP_TIME_MASK,
			   buf + CPI_OFF_CAP_MASK2_RESP);
	return SRP_DM_CLASS_PORT_INFO_LEN;
}

/**
 * srp_dm_build_iou_info() - build IOUnitInfo (IBA §16.3.3.3)
 * @buf: the MAD data area
 * @len: its size
 * @change_id: ChangeID: changes whenever an IOC profile changes
 * @max_controllers: MaxControllers: number of controller slots
 * @op_rom: byte 3 as is (DiagDeviceID and OptionROM bits; 0 for us)
 * @slot_state: @max_controllers entries: the 4-bit state of slot 1, 2, ...
 *	(SRP_DM_SLOT_PRESENT or SRP_DM_SLOT_NOT_INSTALLED)
 *
 * ControllerList holds 4 bits per slot, slot 1 in the high nibble of its
 * first byte; slots past @max_controllers read as not installed.
 *
 * Return: the payload length (132), or -ENOSPC if @buf is too small.
 */
int srp_dm_build_iou_info(u8 *buf, size_t len, u16 change_id,
			  u8 max_controllers, u8 op_rom,
			  const u8 *slot_state)
{
	unsigned int i;
	u8 *list;

	if (!buf || len < SRP_DM_IOU_INFO_LEN)
		return -ENOSPC;
	if (max_controllers && !slot_state)
		return -EINVAL;
	memset(buf, 0, SRP_DM_IOU_INFO_LEN);
	put_unaligned_be16(change_id, buf + IOU_OFF_CHANGE_ID);
	buf[IOU_OFF_MAX_CTRLS] = max_controllers;
	buf[IOU_OFF_OP_ROM] = op_rom;
	list = buf + IOU_OFF_CTRL_LIST;
	for (i = 0; i < max_controllers; i++) {
		u8 nibble = slot_state[i] & 0xf;

		list[i / 2] |= i % 2 ? nibble : nibble << 4;
	}
	return SRP_DM_IOU_INFO_LEN;
}

/**
 * srp_dm_build_ioc_profile() - build IOControllerProfile (IBA §16.3.3.4)
 * @buf: the MAD data area
 * @len: its size
 * @p: the profile; SRP r16a annex B.7 table B.7 fixes @p->io_class,
 *	@p->io_subclass, @p->protocol and @p->protocol_version for SRP
 *
 * VendorID and SubsystemVendorID are 24-bit fields followed by a reserved
 * byte; IDString is cut to 64 bytes and NUL-padded.
 *
 * Return: the payload length (128), or -ENOSPC if @buf is too small.
 */
int srp_dm_build_ioc_profile(u8 *buf, size_t len,
			     const struct srp_dm_ioc_profile *p)
{
	size_t id_len;

	if (!buf || len < SRP_DM_IOC_PROFILE_LEN)
		return -ENOSPC;
	memset(buf, 0, SRP_DM_IOC_PROFILE_LEN);
	put_unaligned_be64(p->guid, buf + IOC_OFF_GUID);
	put_unaligned_be24(p->vendor_id & 0xffffff, buf + IOC_OFF_VENDOR_ID);
	put_unaligned_be32(p->device_id, buf + IOC_OFF_DEVICE_ID);
	put_unaligned_be16(p->device_version, buf + IOC_OFF_DEVICE_VERSION);
	put_unaligned_be24(p->subsys_vendor_id & 0xffffff,
			   buf + IOC_OFF_SUBSYS_VENDOR);
	put_unaligned_be32(p->subsys_device_id, buf + IOC_OFF_SUBSYS_ID);
	put_unaligned_be16(p->io_class, buf + IOC_OFF_IO_CLASS);
	put_unaligned_be16(p->io_subclass, buf + IOC_OFF_IO_SUBCLASS);
	put_unaligned_be16(p->protocol, buf + IOC_OFF_PROTOCOL);
	put_unaligned_be16(p->protocol_version, buf + IOC_OFF_PROTOCOL_VER);
	put_unaligned_be16(p->send_queue_depth, buf + IOC_OFF_SEND_DEPTH);
	buf[IOC_OFF_RDMA_READ_DEPTH] = p->rdma_read_depth;
	put_unaligned_be32(p->send_size, buf + IOC_OFF_SEND_SIZE);
	put_unaligned_be32(p->rdma_size, buf + IOC_OFF_RDMA_SIZE);
	buf[IOC_OFF_OP_CAP_MASK] = p->op_cap_mask;
	buf[IOC_OFF_SVC_ENTRIES] = p->num_svc_entries;
	if (p->id_string) {
		id_len = strnlen(p->id_string, SRP_DM_ID_STRING_LEN);
		memcpy(buf + IOC_OFF_ID_STRING, p->id_string, id_len);
	}
	return SRP_DM_IOC_PROFILE_LEN;
}

/**
 * srp_dm_srp_svc_entry() - fill in the service entry of an SRP target
 * @e: the entry
 * @id_ext: the target's identifier extension (its service GUID)
 *
 * SRP r16a annex B.7 table B.8: ServiceName "SRP.T10:" followed by the
 * identifier extension in 16 hexadecimal digits, ServiceID the same
 * identifier. The digits are lowercase, as Linux' srp_daemon and the
 * existing SRP targets write them.
 */
void srp_dm_srp_svc_entry(struct srp_dm_svc_entry *e, u64 id_ext)
{
	static const char hex[] = "0123456789abcdef";
	const size_t plen = sizeof(SRP_DM_SVC_NAME_PREFIX) - 1;
	unsigned int i;

	memset(e, 0, sizeof(*e));
	memcpy(e->name, SRP_DM_SVC_NAME_PREFIX, plen);
	for (i = 0; i < 16; i++)
		e->name[plen + i] = hex[(id_ext >> (60 - 4 * i)) & 0xf];
	e->id = id_ext;
}

/**
 * srp_dm_build_svc_entries() - build ServiceEntries (IBA §16.3.3.5)
 * @buf: the MAD data area
 * @len: its size
 * @entries: the IOC's service entries, indexed by entry number
 * @lo: first entry to send, from srp_dm_check_svc_entries()
 * @hi: last entry to send, at most 3 past @lo
 *
 * Return: the payload length (48 bytes per entry), -ENOSPC if @buf is too
 * small, -EINVAL for a range that is empty or longer than four entries.
 */
int srp_dm_build_svc_entries(u8 *buf, size_t len,
			     const struct srp_dm_svc_entry *entries,
			     u8 lo, u8 hi)
{
	unsigned int i, n;
	u8 *e;

	if (lo > hi || hi - lo >= SRP_DM_SVC_ENTRIES_MAX || !entries)
		return -EINVAL;
	n = hi - lo + 1;
	if (!buf || len < n * SRP_DM_SVC_ENTRY_LEN)
		return -ENOSPC;
	memset(buf, 0, n * SRP_DM_SVC_ENTRY_LEN);
	for (i = 0; i < n; i++) {
		e = buf + i * SRP_DM_SVC_ENTRY_LEN;
		memcpy(e + SVC_OFF_NAME, entries[lo + i].name,
		       SRP_DM_SVC_NAME_LEN);
		put_unaligned_be64(entries[lo + i].id, e + SVC_OFF_ID);
	}
	return n * SRP_DM_SVC_ENTRY_LEN;
}

/* The status for a Get of controller slot @slot. */
static u16 srp_dm_check_slot(u32 slot, u8 max_controllers,
			     const u8 *slot_state)
{
	/* Slots count from 1 (IBA §16.3.3.4). */
	if (!slot || slot > max_controllers || !slot_state)
		return SRP_DM_STATUS_INVALID_FIELD;
	if ((slot_state[slot - 1] & 0xf) != SRP_DM_SLOT_PRESENT)
		return SRP_DM_STATUS_NO_IOC;
	return SRP_DM_STATUS_OK;
}

/**
 * srp_dm_check_ioc_profile() - check a Get(IOControllerProfile)
 * @attr_mod: the request's AttributeModifier: the controller slot
 * @max_controllers: number of slots (IOUnitInfo MaxControllers)
 * @slot_state: state of each slot, as for srp_dm_build_iou_info()
 * @slot: receives the slot when the request is valid
 *
 * Return: the MAD status to answer with: SRP_DM_STATUS_OK,
 * SRP_DM_STATUS_INVALID_FIELD for a slot out of 1..@max_controllers,
 * SRP_DM_STATUS_NO_IOC for a slot without a controller.
 */
u16 srp_dm_check_ioc_profile(u32 attr_mod, u8 max_controllers,
			     const u8 *slot_state, u8 *slot)
{
	u16 status = srp_dm_check_slot(attr_mod, max_controllers, slot_state);

	if (status == SRP_DM_STATUS_OK)
		*slot = (u8)attr_mod;
	return status;
}

/**
 * srp_dm_check_svc_entries() - check a Get(ServiceEntries)
 * @attr_mod: the request's AttributeModifier: bits 31-16 the controller
 *	slot, bits 15-8 the last and bits 7-0 the first entry wanted
 *	(IBA §16.3.3.5)
 * @max_controllers: number of slots (IOUnitInfo MaxControllers)
 * @slot_state: state of each slot, as for srp_dm_build_iou_info()
 * @num_svc_entries: number of service entries of the controller
 * @slot: receives the slot when the request is valid
 * @lo: receives the first entry when the request is valid
 * @hi: receives the last entry when the request is valid
 *
 * Return: the MAD status to answer with: SRP_DM_STATUS_OK, as
 * srp_dm_check_ioc_profile() for the slot, SRP_DM_STATUS_INVALID_FIELD for
 * a range that is reversed, reaches past the controller's entries or asks
 * for more than the four entries a MAD holds.
 */
u16 srp_dm_check_svc_entries(u32 attr_mod, u8 max_controllers,
			     const u8 *slot_state, u8 num_svc_entries,
			     u8 *slot, u8 *lo, u8 *hi)
{
	u32 s = attr_mod >> 16;
	u8 h = (attr_mod >> 8) & 0xff;
	u8 l = attr_mod & 0xff;
	u16 status = srp_dm_check_slot(s, max_controllers, slot_state);

	if (status != SRP_DM_STATUS_OK)
		return status;
	if (l > h || h >= num_svc_entries || h - l >= SRP_DM_SVC_ENTRIES_MAX)
		return SRP_DM_STATUS_INVALID_FIELD;
	*slot = (u8)s;
	*lo = l;
	*hi = h;
	return SRP_DM_STATUS_OK;
}

/* The controller in @slot, which srp_dm_check_slot() found present. */
static const struct srp_dm_ioc *
srp_dm_iou_ioc(const struct srp_dm_iou *iou, u8 slot)
{
	return &iou->ioc[slot - 1];
}

/**
 * srp_dm_decide() - how to answer a device management request
 * @method: the request's Method (IBA §13.4.5; R bit clear)
 * @attr_id: its AttributeID
 * @attr_mod: its AttributeModifier
 * @iou: the IO unit that answers
 * @act: receives the payload to build and the MAD status to send
 *
 * IBA §16.3.3 table 279 and SRP r16a annex B.7: Get(ClassPortInfo),
 * Get(IOUnitInfo), Get(IOControllerProfile) of a present slot and
 * Get(ServiceEntries) of a valid range of a present slot are answered
 * with their payload and status 0. A Get of a slot out of range, or of a
 * range of entries the controller does not have, answers "invalid
 * attribute field" (§13.4.7, status code 7), a Get of an empty slot
 * "no IOC" (§16.3.1.1, class-specific status bit 8). A Get of any other
 * attribute and a Set of any attribute (none of ours can be set) answer
 * "method / attribute combination not supported" (code 3); any other
 * method "method not supported" (code 2). The MAD layer hands the driver
 * only the methods it registered (Get and Set), so the last never reaches
 * the wire. Only Get answers carry a payload.
 */
void srp_dm_decide(u8 method, u16 attr_id, u32 attr_mod,
		   const struct srp_dm_iou *iou, struct srp_dm_action *act)
{
	const struct srp_dm_ioc *ioc;
	u8 slot;

	memset(act, 0, sizeof(*act));
	act->reply = SRP_DM_REPLY_NONE;
	if (method == SRP_DM_METHOD_SET) {
		act->status = SRP_DM_STATUS_UNSUP_METHOD_ATTR;
		return;
	}
	if (method != SRP_DM_METHOD_GET) {
		act->status = SRP_DM_STATUS_UNSUP_METHOD;
		return;
	}

	switch (attr_id) {
	case SRP_DM_ATTR_CLASS_PORT_INFO:
		act->reply = SRP_DM_REPLY_CLASS_PORT_INFO;
		break;
	case SRP_DM_ATTR_IOU_INFO:
		act->reply = SRP_DM_REPLY_IOU_INFO;
		break;
	case SRP_DM_ATTR_IOC_PROFILE:
		act->status = srp_dm_check_ioc_profile(attr_mod,
						       iou->max_controllers,
						       iou->slot_state, &slot);
		if (act->status != SRP_DM_STATUS_OK)
			return;
		act->reply = SRP_DM_REPLY_IOC_PROFILE;
		act->slot = slot;
		break;
	case SRP_DM_ATTR_SVC_ENTRIES:
		/* the slot first: its controller knows how many entries */
		act->status = srp_dm_check_slot(attr_mod >> 16,
						iou->max_controllers,
						iou->slot_state);
		if (act->status != SRP_DM_STATUS_OK)
			return;
		ioc = srp_dm_iou_ioc(iou, (u8)(attr_mod >> 16));
		act->status =
			srp_dm_check_svc_entries(attr_mod, iou->max_controllers,
						 iou->slot_state,
						 ioc->profile.num_svc_entries,
						 &act->slot, &act->lo,
						 &act->hi);
		if (act->status != SRP_DM_STATUS_OK)
			return;
		act->reply = SRP_DM_REPLY_SVC_ENTRIES;
		break;
	default:
		act->status = SRP_DM_STATUS_UNSUP_METHOD_ATTR;
		break;
	}
}

/* Build the payload @act names into the data area @buf. */
static int srp_dm_build_reply(u8 *buf, size_t len,
			      const struct srp_dm_iou *iou,
			      const struct srp_dm_action *act)
{
	const struct srp_dm_ioc *ioc;

	switch (act->reply) {
	case SRP_DM_REPLY_NONE:
		return 0;
	case SRP_DM_REPLY_CLASS_PORT_INFO:
		return srp_dm_build_class_port_info(buf, len,
						    iou->resp_time_value);
	case SRP_DM_REPLY_IOU_INFO:
		return srp_dm_build_iou_info(buf, len, iou->change_id,
					     iou->max_controllers, 0,
					     iou->slot_state);
	case SRP_DM_REPLY_IOC_PROFILE:
		ioc = srp_dm_iou_ioc(iou, act->slot);
		return srp_dm_build_ioc_profile(buf, len, &ioc->profile);
	case SRP_DM_REPLY_SVC_ENTRIES:
		ioc = srp_dm_iou_ioc(iou, act->slot);
		return srp_dm_build_svc_entries(buf, len, ioc->svc_entries,
						act->lo, act->hi);
	}
	return -EINVAL;
}

/**
 * srp_dm_answer_mad() - answer a device management request MAD
 * @req: the request MAD, as received
 * @req_len: its length (at least the 24-byte common header)
 * @rsp: receives the response MAD
 * @rsp_len: its size, at least SRP_DM_MAD_LEN
 * @iou: the IO unit that answers
 *
 * The response is a GetResp (IBA §13.4.5: Get and Set are both answered
 * with GetResp) with the request's common header: BaseVersion, MgmtClass,
 * ClassVersion, TransactionID, AttributeID and AttributeModifier as
 * received; ClassSpecific and the reserved fields zero; the status of
 * srp_dm_decide(), or "bad version" (§13.4.7, status code 1) for a
 * request of another base or class version than 1. The 40 reserved bytes
 * of the DM header and the data area past the payload are zero, whatever
 * the request carried there.
 *
 * Return: SRP_DM_MAD_LEN when @rsp holds the response to send; -EINVAL
 * for a request too short to answer, -ENOSPC if @rsp is too small,
 * -EPROTO for a MAD that is no DM request (another class, or a response,
 * which is never answered): @rsp is not written then. Another negative
 * errno if @iou does not hold what it announces (the caller's bug;
 * nothing to send).
 */
int srp_dm_answer_mad(const u8 *req, size_t req_len, u8 *rsp,
		      size_t rsp_len, const struct srp_dm_iou *iou)
{
	struct srp_dm_action act;
	u8 method;
	int ret;

	if (!req || req_len < SRP_DM_MAD_COMMON_HDR_LEN)
		return -EINVAL;
	if (!rsp || rsp_len < SRP_DM_MAD_LEN)
		return -ENOSPC;
	method = req[SRP_DM_MAD_OFF_METHOD];
	if (req[SRP_DM_MAD_OFF_MGMT_CLASS] != SRP_DM_MGMT_CLASS ||
	    (method & SRP_DM_METHOD_RESP))
		return -EPROTO;

	if (req[SRP_DM_MAD_OFF_BASE_VERSION] != SRP_DM_BASE_VERSION ||
	    req[SRP_DM_MAD_OFF_CLASS_VERSION] != SRP_DM_CLASS_VERSION) {
		memset(&act, 0, sizeof(act));
		act.reply = SRP_DM_REPLY_NONE;
		act.status = SRP_DM_STATUS_BAD_VERSION;
	} else {
		srp_dm_decide(method,
			      get_unaligned_be16(req + SRP_DM_MAD_OFF_ATTR_ID),
			      get_unaligned_be32(req + SRP_DM_MAD_OFF_ATTR_MOD),
			      iou, &act);
	}

	memset(rsp, 0, SRP_DM_MAD_LEN);
	ret = srp_dm_build_reply(rsp + SRP_DM_MAD_HDR_LEN,
				 SRP_DM_MAD_LEN - SRP_DM_MAD_HDR_LEN, iou, &act);
	if (ret < 0)
		return ret;
	rsp[SRP_DM_MAD_OFF_BASE_VERSION] = req[SRP_DM_MAD_OFF_BASE_VERSION];
	rsp[SRP_DM_MAD_OFF_MGMT_CLASS] = SRP_DM_MGMT_CLASS;
	rsp[SRP_DM_MAD_OFF_CLASS_VERSION] = req[SRP_DM_MAD_OFF_CLASS_VERSION];
	rsp[SRP_DM_MAD_OFF_METHOD] = SRP_DM_METHOD_GET_RESP;
	put_unaligned_be16(act.status, rsp + SRP_DM_MAD_OFF_STATUS);
	memcpy(rsp + SRP_DM_MAD_OFF_TID, req + SRP_DM_MAD_OFF_TID, 8);
	memcpy(rsp + SRP_DM_MAD_OFF_ATTR_ID, req + SRP_DM_MAD_OFF_ATTR_ID, 2);
	memcpy(rsp + SRP_DM_MAD_OFF_ATTR_MOD, req + SRP_DM_MAD_OFF_ATTR_MOD, 4);
	return SRP_DM_MAD_LEN;
}
