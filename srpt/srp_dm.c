// SPDX-License-Identifier: GPL-2.0-only
/*
 * InfiniBand device management (DM) MAD payloads that let SRP initiators
 * discover the target (InfiniBand Architecture Specification volume 1,
 * §16.3 "Device management"; SRP r16a annex B.7): ClassPortInfo,
 * IOUnitInfo, IOControllerProfile and ServiceEntries, and the checks of
 * the attribute modifiers of Get requests for them.
 *
 * The builders write the MAD data area only, byte by byte as the tables of
 * §16.3.3 lay it out; the driver owns the MAD header (method, status, TID)
 * and sends the status that the checks return.
 */

#include <scst_pure.h>
#include "srp_iu.h"

/* IBA §13.4.8.1 and §16.3.3.1: ClassPortInfo. */
#define CPI_OFF_BASE_VERSION	0
#define CPI_OFF_CLASS_VERSION	1
#define CPI_OFF_CAP_MASK2_RESP	4	/* CapabilityMask2:27, RespTimeValue:5 */
#define CPI_RESP_TIME_MASK	0x1f
#define DM_BASE_VERSION		1
#define DM_CLASS_VERSION	1

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
	buf[CPI_OFF_BASE_VERSION] = DM_BASE_VERSION;
	buf[CPI_OFF_CLASS_VERSION] = DM_CLASS_VERSION;
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
