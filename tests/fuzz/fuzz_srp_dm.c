// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz srpt/srp_dm.c: the device management MADs an SRP target answers
 * (InfiniBand Architecture vol 1 §16.3, SRP r16a annex B), against an IO
 * unit whose slots and service entries also come from the input.
 *
 * Input: MaxControllers (1 byte, cut to 16), the slot states (one byte
 * each), for each slot its number of service entries (1 byte), response
 * buffer size (2 bytes), then the request MAD.
 */
#include "fuzz.h"
#include <srp_iu.h>

#define MAX_SLOTS	16

static bool all_zero(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	u8 max_controllers = fuzz_u8(&in) % (MAX_SLOTS + 1);
	struct srp_dm_svc_entry *entries[MAX_SLOTS] = { NULL };
	struct srp_dm_ioc ioc[MAX_SLOTS];
	u8 slot_state[MAX_SLOTS];
	struct srp_dm_iou iou;
	size_t rsp_size, req_len, payload;
	u8 *req, *rsp, *want = NULL;
	u16 status, attr_id;
	unsigned int i, j;
	u32 attr_mod;
	int ret;

	memset(ioc, 0, sizeof(ioc));
	for (i = 0; i < max_controllers; i++)
		slot_state[i] = fuzz_u8(&in);
	for (i = 0; i < max_controllers; i++) {
		struct srp_dm_ioc_profile *p = &ioc[i].profile;
		u8 n = fuzz_u8(&in);

		/* Exactly as many entries as the profile announces. */
		entries[i] = calloc(n ? n : 1, sizeof(*entries[i]));
		for (j = 0; j < n; j++)
			srp_dm_srp_svc_entry(&entries[i][j], (u64)i << 32 | j);
		p->guid = 0x0002c90300000000ULL + i;
		p->io_class = SRP_DM_IO_CLASS_SRP;
		p->io_subclass = SRP_DM_IO_SUBCLASS_SRP;
		p->protocol = SRP_DM_PROTOCOL_SRP;
		p->protocol_version = SRP_DM_PROTOCOL_VERSION_SRP;
		p->send_size = 4096;
		p->num_svc_entries = n;
		p->id_string = "scst-ng fuzz";
		ioc[i].svc_entries = entries[i];
	}
	iou.change_id = 1;
	iou.resp_time_value = 20;
	iou.max_controllers = max_controllers;
	iou.slot_state = slot_state;
	iou.ioc = ioc;

	rsp_size = fuzz_u16(&in) & 0x3ff;
	req = fuzz_rest(&in, &req_len);
	rsp = fuzz_take(&in, rsp_size);
	memset(rsp, 0xa5, rsp_size);

	/* The builders on their own, in a buffer of the response size. */
	ret = srp_dm_build_class_port_info(rsp, rsp_size, 20);
	FUZZ_CHECK(rsp_size < SRP_DM_CLASS_PORT_INFO_LEN ? ret == -ENOSPC :
		   ret == SRP_DM_CLASS_PORT_INFO_LEN);
	ret = srp_dm_build_iou_info(rsp, rsp_size, 1, max_controllers, 0,
				    slot_state);
	FUZZ_CHECK(rsp_size < SRP_DM_IOU_INFO_LEN ? ret == -ENOSPC :
		   ret == SRP_DM_IOU_INFO_LEN);
	if (max_controllers) {
		/* The caller checks the range first (check_svc_entries). */
		u8 lo = slot_state[0] & 3, hi = lo + (slot_state[0] >> 6);

		ret = srp_dm_build_ioc_profile(rsp, rsp_size,
					       &ioc[0].profile);
		FUZZ_CHECK(rsp_size < SRP_DM_IOC_PROFILE_LEN ?
			   ret == -ENOSPC : ret == SRP_DM_IOC_PROFILE_LEN);
		ret = hi < ioc[0].profile.num_svc_entries ?
			srp_dm_build_svc_entries(rsp, rsp_size, entries[0],
						 lo, hi) : -EINVAL;
		if (ret >= 0)
			FUZZ_CHECK((size_t)ret <= rsp_size && ret ==
				   (hi - lo + 1) * SRP_DM_SVC_ENTRY_LEN);
		else
			FUZZ_CHECK(ret == -EINVAL || (ret == -ENOSPC &&
				   rsp_size < (size_t)(hi - lo + 1) *
				   SRP_DM_SVC_ENTRY_LEN));
	}
	memset(rsp, 0xa5, rsp_size);

	ret = srp_dm_answer_mad(req, req_len, rsp, rsp_size, &iou);
	if (req_len < SRP_DM_MAD_COMMON_HDR_LEN) {
		FUZZ_CHECK(ret == -EINVAL);
		goto out;
	}
	if (rsp_size < SRP_DM_MAD_LEN) {
		FUZZ_CHECK(ret == -ENOSPC);
		goto out;
	}
	if (req[1] != SRP_DM_MGMT_CLASS || (req[3] & SRP_DM_METHOD_RESP)) {
		FUZZ_CHECK(ret == -EPROTO);
		/* A MAD that is not ours leaves the response alone. */
		FUZZ_CHECK(rsp[0] == 0xa5 && rsp[SRP_DM_MAD_LEN - 1] == 0xa5);
		goto out;
	}
	/* The IO unit holds what it announces: always an answer. */
	FUZZ_CHECK(ret == SRP_DM_MAD_LEN);
	FUZZ_CHECK(rsp[SRP_DM_MAD_OFF_METHOD] == SRP_DM_METHOD_GET_RESP);
	FUZZ_CHECK(rsp[SRP_DM_MAD_OFF_MGMT_CLASS] == SRP_DM_MGMT_CLASS);
	FUZZ_CHECK(!memcmp(rsp + SRP_DM_MAD_OFF_TID, req + SRP_DM_MAD_OFF_TID,
			   8));
	FUZZ_CHECK(!memcmp(rsp + SRP_DM_MAD_OFF_ATTR_ID,
			   req + SRP_DM_MAD_OFF_ATTR_ID, 2));
	FUZZ_CHECK(!memcmp(rsp + SRP_DM_MAD_OFF_ATTR_MOD,
			   req + SRP_DM_MAD_OFF_ATTR_MOD, 4));
	/* ClassSpecific and the 40 reserved bytes of the DM header: zero. */
	FUZZ_CHECK(!rsp[6] && !rsp[7] && !rsp[18] && !rsp[19]);
	FUZZ_CHECK(all_zero(rsp + SRP_DM_MAD_COMMON_HDR_LEN,
			    SRP_DM_MAD_HDR_LEN - SRP_DM_MAD_COMMON_HDR_LEN));
	/* Nothing written past the MAD. */
	for (i = SRP_DM_MAD_LEN; i < rsp_size; i++)
		FUZZ_CHECK(rsp[i] == 0xa5);

	status = get_unaligned_be16(rsp + SRP_DM_MAD_OFF_STATUS);
	attr_id = get_unaligned_be16(req + SRP_DM_MAD_OFF_ATTR_ID);
	attr_mod = get_unaligned_be32(req + SRP_DM_MAD_OFF_ATTR_MOD);
	if (status != SRP_DM_STATUS_OK) {
		/* No payload with an error status (IBA §13.4.7). */
		FUZZ_CHECK(all_zero(rsp + SRP_DM_MAD_HDR_LEN,
				    SRP_DM_MAD_DATA_LEN));
		goto out;
	}
	FUZZ_CHECK(req[3] == SRP_DM_METHOD_GET);
	/* The payload is the one the builders make for that attribute. */
	want = calloc(1, SRP_DM_MAD_DATA_LEN);
	switch (attr_id) {
	case SRP_DM_ATTR_CLASS_PORT_INFO:
		payload = srp_dm_build_class_port_info(want,
				SRP_DM_MAD_DATA_LEN, iou.resp_time_value);
		break;
	case SRP_DM_ATTR_IOU_INFO:
		payload = srp_dm_build_iou_info(want, SRP_DM_MAD_DATA_LEN,
				iou.change_id, max_controllers, 0, slot_state);
		break;
	case SRP_DM_ATTR_IOC_PROFILE:
		FUZZ_CHECK(attr_mod >= 1 && attr_mod <= max_controllers);
		FUZZ_CHECK((slot_state[attr_mod - 1] & 0xf) ==
			   SRP_DM_SLOT_PRESENT);
		payload = srp_dm_build_ioc_profile(want, SRP_DM_MAD_DATA_LEN,
				&ioc[attr_mod - 1].profile);
		break;
	case SRP_DM_ATTR_SVC_ENTRIES: {
		u32 s = attr_mod >> 16;
		u8 hi = attr_mod >> 8, lo = attr_mod;

		FUZZ_CHECK(s >= 1 && s <= max_controllers);
		FUZZ_CHECK((slot_state[s - 1] & 0xf) == SRP_DM_SLOT_PRESENT);
		/* Only entries the controller has, four at most. */
		FUZZ_CHECK(lo <= hi && hi - lo < SRP_DM_SVC_ENTRIES_MAX);
		FUZZ_CHECK(hi < ioc[s - 1].profile.num_svc_entries);
		payload = srp_dm_build_svc_entries(want, SRP_DM_MAD_DATA_LEN,
				entries[s - 1], lo, hi);
		break;
	}
	default:
		FUZZ_CHECK(0);
		payload = 0;
	}
	FUZZ_CHECK((int)payload > 0 && payload <= SRP_DM_MAD_DATA_LEN);
	FUZZ_CHECK(!memcmp(rsp + SRP_DM_MAD_HDR_LEN, want,
			   SRP_DM_MAD_DATA_LEN));
out:
	free(want);
	for (i = 0; i < MAX_SLOTS; i++)
		free(entries[i]);
	free(req);
	free(rsp);
	return 0;
}
