// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for srpt/srp_dm.c: the InfiniBand device management MAD
 * payloads of an SRP target (IBA vol 1 §13.4.8.1, §16.3.3; SRP r16a annex
 * B.7). Expected payloads are written out byte by byte from the tables of
 * the specification, and checked against the layout that Linux' srp_daemon
 * and ib_srpt use (struct ib_dm_ioc_profile etc.).
 */
#include "unit.h"
#include <endian.h>
#include <srp_iu.h>

/* drivers/infiniband/ulp/srpt/ib_dm_mad.h of Linux 6.1, packed. */
struct k_dm_iou_info {
	u16 change_id;
	u8 max_controllers;
	u8 op_rom;
	u8 controller_list[128];
} __attribute__((packed));

struct k_dm_ioc_profile {
	u64 guid;
	u32 vendor_id;
	u32 device_id;
	u16 device_version;
	u16 reserved1;
	u32 subsys_vendor_id;
	u32 subsys_device_id;
	u16 io_class;
	u16 io_subclass;
	u16 protocol;
	u16 protocol_version;
	u16 service_conn;
	u16 initiators_supported;
	u16 send_queue_depth;
	u8 reserved2;
	u8 rdma_read_depth;
	u32 send_size;
	u32 rdma_size;
	u8 op_cap_mask;
	u8 svc_cap_mask;
	u8 num_svc_entries;
	u8 reserved3[9];
	u8 id_string[64];
} __attribute__((packed));

struct k_dm_svc_entry {
	u8 name[40];
	u64 id;
} __attribute__((packed));

_Static_assert(sizeof(struct k_dm_iou_info) == SRP_DM_IOU_INFO_LEN, "");
_Static_assert(sizeof(struct k_dm_ioc_profile) == SRP_DM_IOC_PROFILE_LEN, "");
_Static_assert(sizeof(struct k_dm_svc_entry) == SRP_DM_SVC_ENTRY_LEN, "");
_Static_assert(4 * SRP_DM_SVC_ENTRY_LEN <= SRP_DM_MAD_DATA_LEN, "");
_Static_assert(SRP_DM_IOC_PROFILE_LEN <= SRP_DM_MAD_DATA_LEN, "");
_Static_assert(SRP_DM_IOU_INFO_LEN <= SRP_DM_MAD_DATA_LEN, "");
/* IBA §16.3.3.4 table 283, bit offsets / 8. */
_Static_assert(offsetof(struct k_dm_ioc_profile, device_id) == 12, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, subsys_vendor_id) == 20, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, io_class) == 28, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, protocol_version) == 34, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, send_queue_depth) == 40, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, rdma_read_depth) == 43, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, send_size) == 44, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, rdma_size) == 48, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, op_cap_mask) == 52, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, num_svc_entries) == 54, "");
_Static_assert(offsetof(struct k_dm_ioc_profile, id_string) == 64, "");
/* SRP r16a annex B.7 and include/scsi/srp.h SRP_REV16A_IB_IO_CLASS. */
_Static_assert(SRP_DM_IO_CLASS_SRP == 0x0100 &&
	       SRP_DM_IO_SUBCLASS_SRP == 0x609e &&
	       SRP_DM_PROTOCOL_SRP == 0x0108 &&
	       SRP_DM_PROTOCOL_VERSION_SRP == 0x0001, "");
/* ib_dm_mad.h's status and attribute values. */
_Static_assert(SRP_DM_STATUS_UNSUP_METHOD == 0x0008 &&
	       SRP_DM_STATUS_UNSUP_METHOD_ATTR == 0x000c &&
	       SRP_DM_STATUS_INVALID_FIELD == 0x001c &&
	       SRP_DM_STATUS_NO_IOC == 0x0100, "");
_Static_assert(SRP_DM_ATTR_CLASS_PORT_INFO == 0x01 &&
	       SRP_DM_ATTR_IOU_INFO == 0x10 &&
	       SRP_DM_ATTR_IOC_PROFILE == 0x11 &&
	       SRP_DM_ATTR_SVC_ENTRIES == 0x12, "");

static void test_class_port_info(void **state)
{
	u8 exp[72] = { 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14 };
	u8 buf[200];

	(void)state;
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_dm_build_class_port_info(buf, 192, 20), 72);
	check_bytes("ClassPortInfo", buf, exp, sizeof(exp));
	check_canary("ClassPortInfo", buf, 72, sizeof(buf));
	/* RespTimeValue is 5 bits; CapabilityMask2 stays 0. */
	assert_int_equal(srp_dm_build_class_port_info(buf, 72, 0xff), 72);
	assert_int_equal(get_unaligned_be32(buf + 4), 0x1f);
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_dm_build_class_port_info(buf, 71, 20), -ENOSPC);
	check_canary("short ClassPortInfo", buf, 0, sizeof(buf));
}

static void test_iou_info(void **state)
{
	static const struct {
		const char *what;
		u16 change_id;
		u8 max;
		u8 op_rom;
		u8 slots[8];
		u8 list[4];
	} cases[] = {
		{ "ib_srpt's: 16 slots, slot 1 present", 1, 16, 0,
		  { 1, 0, 0, 0, 0, 0, 0, 0 }, { 0x10, 0x00, 0x00, 0x00 } },
		{ "odd slots", 0xbeef, 5, 0, { 1, 0, 1, 1, 0 },
		  { 0x10, 0x11, 0x00, 0x00 } },
		{ "even slot", 0x0102, 3, 0x80, { 0, 1, 1 },
		  { 0x01, 0x10, 0x00, 0x00 } },
		{ "states are 4 bits", 7, 2, 0, { 0x21, 0xf1 },
		  { 0x11, 0x00, 0x00, 0x00 } },
		{ "slots past MaxControllers", 7, 1, 0, { 1, 1, 1, 1 },
		  { 0x10, 0x00, 0x00, 0x00 } },
		{ "no controllers", 0, 0, 0, { 0 }, { 0 } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u8 slots[16] = { 0 };
		u8 buf[200], exp[132];
		struct k_dm_iou_info *k = (struct k_dm_iou_info *)buf;

		memcpy(slots, cases[i].slots, sizeof(cases[i].slots));
		memset(exp, 0, sizeof(exp));
		exp[0] = cases[i].change_id >> 8;
		exp[1] = cases[i].change_id & 0xff;
		exp[2] = cases[i].max;
		exp[3] = cases[i].op_rom;
		memcpy(exp + 4, cases[i].list, 4);
		memset(buf, CANARY, sizeof(buf));
		CHECK_EQ(cases[i].what,
			 srp_dm_build_iou_info(buf, 192, cases[i].change_id,
					       cases[i].max, cases[i].op_rom,
					       slots), 132);
		check_bytes(cases[i].what, buf, exp, sizeof(exp));
		check_canary(cases[i].what, buf, 132, sizeof(buf));
		CHECK_EQ(cases[i].what, be16toh(k->change_id),
			 cases[i].change_id);
		CHECK_EQ(cases[i].what, k->max_controllers, cases[i].max);
	}
}

static void test_iou_info_all_slots(void **state)
{
	u8 slots[255], buf[132];
	unsigned int i;

	(void)state;
	/* Present where the slot number is a multiple of 3. */
	for (i = 0; i < 255; i++)
		slots[i] = (i + 1) % 3 == 0;
	assert_int_equal(srp_dm_build_iou_info(buf, sizeof(buf), 1, 255, 0,
					       slots), 132);
	for (i = 0; i < 256; i++) {
		/* srp_daemon's reading of the list, slot i + 1. */
		u8 st = (buf[4 + i / 2] >> (4 * (1 - i % 2))) & 0xf;
		char what[16];

		snprintf(what, sizeof(what), "slot %u", i + 1);
		CHECK_EQ(what, st, i < 255 && (i + 1) % 3 == 0);
	}
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_dm_build_iou_info(buf, 131, 1, 1, 0, slots),
			 -ENOSPC);
	check_canary("short IOUnitInfo", buf, 0, sizeof(buf));
	assert_int_equal(srp_dm_build_iou_info(buf, 132, 1, 1, 0, NULL),
			 -EINVAL);
	assert_int_equal(srp_dm_build_iou_info(buf, 132, 1, 0, 0, NULL), 132);
}

static void test_ioc_profile(void **state)
{
	static const u8 exp[128] = {
		0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,	/* GUID */
		0x00, 0x02, 0xc9, 0x00,		/* VendorID, reserved */
		0x00, 0x00, 0x10, 0x03,		/* DeviceID */
		0x00, 0xa0, 0x00, 0x00,		/* DeviceVersion, reserved */
		0x00, 0x02, 0xc8, 0x00,		/* SubsystemVendorID */
		0x00, 0x00, 0x00, 0x42,		/* SubsystemID */
		0x01, 0x00, 0x60, 0x9e,		/* IOClass, IOSubclass */
		0x01, 0x08, 0x00, 0x01,		/* Protocol, version */
		0x00, 0x00, 0x00, 0x00,		/* reserved */
		0x0f, 0xff, 0x00, 0x04,		/* send depth, RDMA read */
		0x00, 0x00, 0x20, 0x44,		/* SendMessageSize */
		0x01, 0x00, 0x00, 0x00,		/* RDMATransferSize */
		0xff, 0x00, 0x01, 0x00,		/* op caps, -, entries, - */
		0, 0, 0, 0, 0, 0, 0, 0,
		'S', 'C', 'S', 'T', ' ', 'S', 'R', 'P', ' ', 't', 'a', 'r',
		'g', 'e', 't',
	};
	struct srp_dm_ioc_profile p = {
		.guid = 0x0002c90300a1b2c3ULL,
		.vendor_id = 0x0002c9,
		.device_id = 0x1003,
		.device_version = 0x00a0,
		.subsys_vendor_id = 0x0002c8,
		.subsys_device_id = 0x42,
		.io_class = SRP_DM_IO_CLASS_SRP,
		.io_subclass = SRP_DM_IO_SUBCLASS_SRP,
		.protocol = SRP_DM_PROTOCOL_SRP,
		.protocol_version = SRP_DM_PROTOCOL_VERSION_SRP,
		.send_queue_depth = 4095,
		.rdma_read_depth = 4,
		.send_size = 8260,
		.rdma_size = 1 << 24,
		.op_cap_mask = 0xff,
		.num_svc_entries = 1,
		.id_string = "SCST SRP target",
	};
	char long_id[100];
	struct k_dm_ioc_profile *k;
	u8 buf[200];

	(void)state;
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_dm_build_ioc_profile(buf, 192, &p), 128);
	check_bytes("IOControllerProfile", buf, exp, sizeof(exp));
	check_canary("IOControllerProfile", buf, 128, sizeof(buf));
	/* As srp_daemon reads it. */
	k = (struct k_dm_ioc_profile *)buf;
	assert_true(be64toh(k->guid) == 0x0002c90300a1b2c3ULL);
	assert_int_equal(be32toh(k->vendor_id) >> 8, 0x0002c9);
	assert_int_equal(be32toh(k->device_id), 0x1003);
	assert_int_equal(be16toh(k->io_class), 0x0100);
	assert_int_equal(be32toh(k->send_size), 8260);
	assert_int_equal(k->num_svc_entries, 1);
	assert_string_equal((char *)k->id_string, "SCST SRP target");

	/* Only 24 bits of vendor IDs; the IDString is cut to 64 bytes. */
	memset(long_id, 'x', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = 0;
	p.vendor_id = 0xff123456;
	p.subsys_vendor_id = 0xee654321;
	p.id_string = long_id;
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_dm_build_ioc_profile(buf, 128, &p), 128);
	assert_int_equal(get_unaligned_be32(buf + 8), 0x12345600);
	assert_int_equal(get_unaligned_be32(buf + 20), 0x65432100);
	assert_int_equal(buf[63], 0);
	assert_int_equal(buf[64], 'x');
	assert_int_equal(buf[127], 'x');
	check_canary("long IDString", buf, 128, sizeof(buf));
	p.id_string = NULL;
	assert_int_equal(srp_dm_build_ioc_profile(buf, 128, &p), 128);
	assert_int_equal(buf[64], 0);

	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_dm_build_ioc_profile(buf, 127, &p), -ENOSPC);
	check_canary("short IOControllerProfile", buf, 0, sizeof(buf));
}

static void test_svc_entry_name(void **state)
{
	struct srp_dm_svc_entry e;
	char exp[40] = "SRP.T10:0002c90300a1b2c3";

	(void)state;
	memset(&e, CANARY, sizeof(e));
	srp_dm_srp_svc_entry(&e, 0x0002c90300a1b2c3ULL);
	assert_memory_equal(e.name, exp, sizeof(exp));
	assert_true(e.id == 0x0002c90300a1b2c3ULL);

	srp_dm_srp_svc_entry(&e, 0xfedcba9876543210ULL);
	assert_string_equal(e.name, "SRP.T10:fedcba9876543210");
	srp_dm_srp_svc_entry(&e, 0);
	assert_string_equal(e.name, "SRP.T10:0000000000000000");
}

static void test_svc_entries(void **state)
{
	static const u8 one[48] = {
		'S', 'R', 'P', '.', 'T', '1', '0', ':',
		'0', '0', '0', '2', 'c', '9', '0', '3',
		'0', '0', 'a', '1', 'b', '2', 'c', '3',
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,
	};
	struct srp_dm_svc_entry e[8];
	struct k_dm_svc_entry *k;
	u8 buf[200];
	unsigned int i;

	(void)state;
	srp_dm_srp_svc_entry(&e[0], 0x0002c90300a1b2c3ULL);
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_dm_build_svc_entries(buf, 192, e, 0, 0), 48);
	check_bytes("one entry", buf, one, sizeof(one));
	check_canary("one entry", buf, 48, sizeof(buf));

	for (i = 0; i < 8; i++)
		srp_dm_srp_svc_entry(&e[i], 0x1000 + i);
	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_dm_build_svc_entries(buf, 192, e, 4, 7), 192);
	k = (struct k_dm_svc_entry *)buf;
	for (i = 0; i < 4; i++) {
		assert_true(be64toh(k[i].id) == 0x1004 + i);
		assert_memory_equal(k[i].name, e[4 + i].name, 40);
	}
	check_canary("four entries", buf, 192, sizeof(buf));
	assert_int_equal(srp_dm_build_svc_entries(buf, 192, e, 2, 3), 96);
	assert_true(be64toh(k[1].id) == 0x1003);

	memset(buf, CANARY, sizeof(buf));
	assert_int_equal(srp_dm_build_svc_entries(buf, 95, e, 2, 3), -ENOSPC);
	assert_int_equal(srp_dm_build_svc_entries(buf, 192, e, 3, 2), -EINVAL);
	assert_int_equal(srp_dm_build_svc_entries(buf, 192, e, 0, 4), -EINVAL);
	assert_int_equal(srp_dm_build_svc_entries(buf, 192, NULL, 0, 0),
			 -EINVAL);
	check_canary("refused entries", buf, 0, sizeof(buf));
}

static void test_check_ioc_profile(void **state)
{
	static const struct {
		u32 attr_mod;
		u16 status;
	} cases[] = {
		{ 0, SRP_DM_STATUS_INVALID_FIELD },
		{ 1, SRP_DM_STATUS_OK },
		{ 2, SRP_DM_STATUS_NO_IOC },
		{ 3, SRP_DM_STATUS_OK },
		{ 16, SRP_DM_STATUS_NO_IOC },
		{ 17, SRP_DM_STATUS_INVALID_FIELD },
		{ 255, SRP_DM_STATUS_INVALID_FIELD },
		{ 0x10001, SRP_DM_STATUS_INVALID_FIELD },
		{ 0xffffffff, SRP_DM_STATUS_INVALID_FIELD },
	};
	u8 slots[16] = { 1, 0, 1 };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char what[32];
		u8 slot = 0xee;

		snprintf(what, sizeof(what), "attr_mod %#x", cases[i].attr_mod);
		CHECK_EQ(what, srp_dm_check_ioc_profile(cases[i].attr_mod, 16,
							slots, &slot),
			 cases[i].status);
		CHECK_EQ(what, slot, cases[i].status ? 0xee : cases[i].attr_mod);
	}
	assert_int_equal(srp_dm_check_ioc_profile(1, 0, slots, NULL),
			 SRP_DM_STATUS_INVALID_FIELD);
}

static void test_check_svc_entries(void **state)
{
	static const struct {
		u16 slot;
		u8 hi, lo, n;
		u16 status;
	} cases[] = {
		{ 1, 0, 0, 1, SRP_DM_STATUS_OK },
		{ 1, 1, 0, 1, SRP_DM_STATUS_INVALID_FIELD },
		{ 1, 0, 1, 1, SRP_DM_STATUS_INVALID_FIELD },
		{ 1, 0, 0, 0, SRP_DM_STATUS_INVALID_FIELD },
		{ 2, 0, 0, 1, SRP_DM_STATUS_NO_IOC },
		{ 0, 0, 0, 1, SRP_DM_STATUS_INVALID_FIELD },
		{ 17, 0, 0, 1, SRP_DM_STATUS_INVALID_FIELD },
		{ 0xffff, 0, 0, 1, SRP_DM_STATUS_INVALID_FIELD },
		{ 1, 3, 0, 8, SRP_DM_STATUS_OK },
		{ 1, 4, 0, 8, SRP_DM_STATUS_INVALID_FIELD },
		{ 1, 7, 4, 8, SRP_DM_STATUS_OK },
		{ 1, 8, 5, 8, SRP_DM_STATUS_INVALID_FIELD },
		{ 1, 255, 252, 255, SRP_DM_STATUS_INVALID_FIELD },
		{ 1, 254, 251, 255, SRP_DM_STATUS_OK },
		{ 1, 255, 255, 255, SRP_DM_STATUS_INVALID_FIELD },
	};
	u8 slots[16] = { 1 };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u32 attr_mod = (u32)cases[i].slot << 16 | cases[i].hi << 8 |
			       cases[i].lo;
		u8 slot = 0xee, lo = 0xee, hi = 0xee;
		char what[48];

		snprintf(what, sizeof(what), "attr_mod %#x, %u entries",
			 attr_mod, cases[i].n);
		CHECK_EQ(what, srp_dm_check_svc_entries(attr_mod, 16, slots,
							cases[i].n, &slot, &lo,
							&hi),
			 cases[i].status);
		if (cases[i].status) {
			CHECK_EQ(what, slot, 0xee);
			continue;
		}
		CHECK_EQ(what, slot, cases[i].slot);
		CHECK_EQ(what, lo, cases[i].lo);
		CHECK_EQ(what, hi, cases[i].hi);
	}
}

/* ---------------------------------------------------------------------- */
/* Answering whole requests: srp_dm_decide(), srp_dm_answer_mad()          */
/* ---------------------------------------------------------------------- */

/* IBA §13.4.7, §16.3.1.1 and ib_mad.h / ib_dm_mad.h: the status words. */
_Static_assert(SRP_DM_STATUS_BAD_VERSION == 0x0004, "");
_Static_assert(SRP_DM_MGMT_CLASS == 0x06 && SRP_DM_CLASS_VERSION == 1 &&
	       SRP_DM_BASE_VERSION == 1, "");
_Static_assert(SRP_DM_METHOD_GET == 0x01 && SRP_DM_METHOD_SET == 0x02 &&
	       SRP_DM_METHOD_GET_RESP == 0x81, "");
_Static_assert(SRP_DM_MAD_HDR_LEN + SRP_DM_MAD_DATA_LEN == SRP_DM_MAD_LEN,
	       "");

/* Other DM attributes of IBA §16.3.3 table 279, and unassigned ones. */
#define ATTR_NOTICE		0x0002
#define ATTR_DIAG_TIMEOUT	0x0020
#define ATTR_PREPARE_TO_TEST	0x0021
#define ATTR_TEST_DEVICE_ONCE	0x0022
#define ATTR_TEST_DEVICE_LOOP	0x0023
#define ATTR_DIAG_CODE		0x0024

/* Methods of IBA §13.4.5 the DM class does not have for our attributes. */
#define METHOD_SEND		0x03
#define METHOD_TRAP		0x05
#define METHOD_REPORT		0x06
#define METHOD_GET_TABLE	0x12
#define METHOD_DELETE		0x15

#define GUID	0x0002c90300a1b2c3ULL

/* The IO unit scst_srpt describes for a port (srpt_dm_describe()). */
static struct srp_dm_svc_entry tgt_svc;
static const u8 tgt_slots[1] = { SRP_DM_SLOT_PRESENT };
static struct srp_dm_ioc tgt_ioc = {
	.profile = {
		.guid = GUID,
		.vendor_id = 0x0002c9,
		.device_id = 0x1003,
		.device_version = 0x00a0,
		.subsys_vendor_id = 0x0002c9,
		.io_class = SRP_DM_IO_CLASS_SRP,
		.io_subclass = SRP_DM_IO_SUBCLASS_SRP,
		.protocol = SRP_DM_PROTOCOL_SRP,
		.protocol_version = SRP_DM_PROTOCOL_VERSION_SRP,
		.send_queue_depth = 128,
		.rdma_read_depth = 4,
		.send_size = 8276,
		.rdma_size = 1 << 24,
		.op_cap_mask = SRP_DM_OP_SEND_TO_IOC | SRP_DM_OP_SEND_FROM_IOC |
			       SRP_DM_OP_RDMA_READ_FROM_IOC |
			       SRP_DM_OP_RDMA_WRITE_FROM_IOC,
		.num_svc_entries = 1,
		.id_string = "SCST SRP target",
	},
	.svc_entries = &tgt_svc,
};
static const struct srp_dm_iou tgt_iou = {
	.change_id = 1,
	.resp_time_value = 20,
	.max_controllers = 1,
	.slot_state = tgt_slots,
	.ioc = &tgt_ioc,
};

/* Three slots: 1 and 3 present (3 with six entries), 2 empty. */
static struct srp_dm_svc_entry multi_svc[6];
static const u8 multi_slots[3] = { SRP_DM_SLOT_PRESENT,
				   SRP_DM_SLOT_NOT_INSTALLED,
				   SRP_DM_SLOT_PRESENT };
static struct srp_dm_ioc multi_ioc[3];
static const struct srp_dm_iou multi_iou = {
	.change_id = 0x1234,
	.resp_time_value = 18,
	.max_controllers = 3,
	.slot_state = multi_slots,
	.ioc = multi_ioc,
};

static int dm_setup(void **state)
{
	unsigned int i;

	(void)state;
	srp_dm_srp_svc_entry(&tgt_svc, GUID);
	for (i = 0; i < 6; i++)
		srp_dm_srp_svc_entry(&multi_svc[i], 0x3000 + i);
	memset(multi_ioc, 0, sizeof(multi_ioc));
	multi_ioc[0] = tgt_ioc;
	/* slot 2 is empty: whatever is there must never be read */
	multi_ioc[1].profile.num_svc_entries = 0xff;
	multi_ioc[2].profile.guid = 0x3000;
	multi_ioc[2].profile.num_svc_entries = 6;
	multi_ioc[2].svc_entries = multi_svc;
	return 0;
}

static void test_decide(void **state)
{
	static const struct {
		const char *what;
		const struct srp_dm_iou *iou;
		u8 method;
		u16 attr_id;
		u32 attr_mod;
		u8 reply;
		u16 status;
		u8 slot, lo, hi;
	} cases[] = {
		/* every attribute we answer */
		{ "Get ClassPortInfo", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_CLASS_PORT_INFO, 0, SRP_DM_REPLY_CLASS_PORT_INFO,
		  SRP_DM_STATUS_OK, 0, 0, 0 },
		{ "Get ClassPortInfo, modifier ignored", &tgt_iou,
		  SRP_DM_METHOD_GET, SRP_DM_ATTR_CLASS_PORT_INFO, 0xffffffff,
		  SRP_DM_REPLY_CLASS_PORT_INFO, SRP_DM_STATUS_OK, 0, 0, 0 },
		{ "Get IOUnitInfo", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOU_INFO, 0, SRP_DM_REPLY_IOU_INFO,
		  SRP_DM_STATUS_OK, 0, 0, 0 },
		{ "Get IOControllerProfile 1", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOC_PROFILE, 1, SRP_DM_REPLY_IOC_PROFILE,
		  SRP_DM_STATUS_OK, 1, 0, 0 },
		{ "Get ServiceEntries 1/0-0", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00010000,
		  SRP_DM_REPLY_SVC_ENTRIES, SRP_DM_STATUS_OK, 1, 0, 0 },
		/* bad slot numbers of the one-controller unit */
		{ "IOC slot 0", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOC_PROFILE, 0, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "IOC slot 2", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOC_PROFILE, 2, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "IOC slot 16 (ib_srpt's MaxControllers)", &tgt_iou,
		  SRP_DM_METHOD_GET, SRP_DM_ATTR_IOC_PROFILE, 16,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "IOC slot 0x10001", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOC_PROFILE, 0x10001, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "IOC slot ~0", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOC_PROFILE, 0xffffffff, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "svc slot 0", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00000000, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "svc slot 2", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00020000, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "svc slot 0xffff", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0xffff0000, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "svc 1/0-1: one entry only", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00010100, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "svc 1/1-1", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00010101, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "svc 1/1-0 reversed", &tgt_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00010001, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		/* a unit with an empty slot and a controller of 6 entries */
		{ "IOUnitInfo of three slots", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOU_INFO, 0, SRP_DM_REPLY_IOU_INFO,
		  SRP_DM_STATUS_OK, 0, 0, 0 },
		{ "IOC empty slot 2", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOC_PROFILE, 2, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_NO_IOC, 0, 0, 0 },
		{ "IOC slot 3", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOC_PROFILE, 3, SRP_DM_REPLY_IOC_PROFILE,
		  SRP_DM_STATUS_OK, 3, 0, 0 },
		{ "IOC slot 4", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_IOC_PROFILE, 4, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "svc empty slot 2", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00020000, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_NO_IOC, 0, 0, 0 },
		{ "svc 3/2-5", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00030502,
		  SRP_DM_REPLY_SVC_ENTRIES, SRP_DM_STATUS_OK, 3, 2, 5 },
		{ "svc 3/5-5", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00030505,
		  SRP_DM_REPLY_SVC_ENTRIES, SRP_DM_STATUS_OK, 3, 5, 5 },
		{ "svc 3/1-5: five entries", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00030501, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "svc 3/5-6: past the entries", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00030605, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_INVALID_FIELD, 0, 0, 0 },
		{ "svc 1/0-0 of three slots", &multi_iou, SRP_DM_METHOD_GET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00010000,
		  SRP_DM_REPLY_SVC_ENTRIES, SRP_DM_STATUS_OK, 1, 0, 0 },
		/* attributes we do not have */
		{ "Get 0x0000", &tgt_iou, SRP_DM_METHOD_GET, 0x0000, 0,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Get Notice", &tgt_iou, SRP_DM_METHOD_GET, ATTR_NOTICE, 0,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Get 0x0013", &tgt_iou, SRP_DM_METHOD_GET, 0x0013, 1,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Get DiagnosticTimeout", &tgt_iou, SRP_DM_METHOD_GET,
		  ATTR_DIAG_TIMEOUT, 0, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Get PrepareToTest", &tgt_iou, SRP_DM_METHOD_GET,
		  ATTR_PREPARE_TO_TEST, 1, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Get TestDeviceOnce", &tgt_iou, SRP_DM_METHOD_GET,
		  ATTR_TEST_DEVICE_ONCE, 1, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Get TestDeviceLoop", &tgt_iou, SRP_DM_METHOD_GET,
		  ATTR_TEST_DEVICE_LOOP, 1, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Get DiagCode", &tgt_iou, SRP_DM_METHOD_GET, ATTR_DIAG_CODE,
		  1, SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Get vendor 0xff00", &tgt_iou, SRP_DM_METHOD_GET, 0xff00, 0,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Get 0xffff", &tgt_iou, SRP_DM_METHOD_GET, 0xffff, 0,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		/* Set: nothing can be set */
		{ "Set ClassPortInfo", &tgt_iou, SRP_DM_METHOD_SET,
		  SRP_DM_ATTR_CLASS_PORT_INFO, 0, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Set IOUnitInfo", &tgt_iou, SRP_DM_METHOD_SET,
		  SRP_DM_ATTR_IOU_INFO, 0, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Set IOControllerProfile 1", &tgt_iou, SRP_DM_METHOD_SET,
		  SRP_DM_ATTR_IOC_PROFILE, 1, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Set IOControllerProfile 0", &tgt_iou, SRP_DM_METHOD_SET,
		  SRP_DM_ATTR_IOC_PROFILE, 0, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Set ServiceEntries", &tgt_iou, SRP_DM_METHOD_SET,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00010000, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Set PrepareToTest", &tgt_iou, SRP_DM_METHOD_SET,
		  ATTR_PREPARE_TO_TEST, 1, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		{ "Set 0xffff", &tgt_iou, SRP_DM_METHOD_SET, 0xffff, 0,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD_ATTR, 0, 0, 0 },
		/* other methods */
		{ "Send", &tgt_iou, METHOD_SEND, SRP_DM_ATTR_IOU_INFO, 0,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD, 0, 0, 0 },
		{ "Trap", &tgt_iou, METHOD_TRAP, ATTR_NOTICE, 0,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD, 0, 0, 0 },
		{ "Report", &tgt_iou, METHOD_REPORT, ATTR_NOTICE, 0,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD, 0, 0, 0 },
		{ "GetTable", &tgt_iou, METHOD_GET_TABLE,
		  SRP_DM_ATTR_SVC_ENTRIES, 0x00010000, SRP_DM_REPLY_NONE,
		  SRP_DM_STATUS_UNSUP_METHOD, 0, 0, 0 },
		{ "Delete", &tgt_iou, METHOD_DELETE, SRP_DM_ATTR_IOC_PROFILE, 1,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD, 0, 0, 0 },
		{ "method 0", &tgt_iou, 0, SRP_DM_ATTR_IOU_INFO, 0,
		  SRP_DM_REPLY_NONE, SRP_DM_STATUS_UNSUP_METHOD, 0, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct srp_dm_action act;
		const char *what = cases[i].what;

		memset(&act, CANARY, sizeof(act));
		srp_dm_decide(cases[i].method, cases[i].attr_id,
			      cases[i].attr_mod, cases[i].iou, &act);
		CHECK_EQ(what, act.reply, cases[i].reply);
		CHECK_EQ(what, act.status, cases[i].status);
		CHECK_EQ(what, act.slot, cases[i].slot);
		CHECK_EQ(what, act.lo, cases[i].lo);
		CHECK_EQ(what, act.hi, cases[i].hi);
	}
}

/*
 * A request MAD as srp_daemon sends it, with noise where a response must
 * not copy from: ClassSpecific, the reserved fields and the data area.
 */
static void make_req(u8 *req, u8 base, u8 mgmt_class, u8 class_ver,
		     u8 method, u16 attr_id, u32 attr_mod)
{
	static const u8 tid[8] = { 0x11, 0x22, 0x33, 0x44,
				   0x55, 0x66, 0x77, 0x88 };

	memset(req, 0xcc, SRP_DM_MAD_LEN);
	req[0] = base;
	req[1] = mgmt_class;
	req[2] = class_ver;
	req[3] = method;
	req[4] = 0x5a;		/* Status: 0 in requests, noise here */
	req[5] = 0xa5;
	memcpy(req + 8, tid, 8);
	put_unaligned_be16(attr_id, req + 16);
	put_unaligned_be32(attr_mod, req + 20);
}

/*
 * Answer @req and compare the whole response with the GetResp header
 * written out below plus @data (@data_len bytes at offset 64, the rest of
 * the MAD zero); the canary past the MAD stays.
 */
static void check_answer(const char *what, const u8 *req,
			 const struct srp_dm_iou *iou, u16 status,
			 const u8 *data, size_t data_len)
{
	u8 rsp[SRP_DM_MAD_LEN + 16], exp[SRP_DM_MAD_LEN];

	memset(exp, 0, sizeof(exp));
	exp[0] = req[0];		/* BaseVersion */
	exp[1] = 0x06;			/* MgmtClass: device management */
	exp[2] = req[2];		/* ClassVersion */
	exp[3] = 0x81;			/* GetResp */
	exp[4] = status >> 8;		/* Status, big-endian */
	exp[5] = status & 0xff;
	/* ClassSpecific (6, 7) reserved: zero */
	memcpy(exp + 8, req + 8, 8);	/* TransactionID */
	memcpy(exp + 16, req + 16, 2);	/* AttributeID */
	/* Reserved (18, 19): zero */
	memcpy(exp + 20, req + 20, 4);	/* AttributeModifier */
	/* 24..63: reserved DM header, zero */
	if (data_len)
		memcpy(exp + SRP_DM_MAD_HDR_LEN, data, data_len);

	memset(rsp, CANARY, sizeof(rsp));
	CHECK_EQ(what, srp_dm_answer_mad(req, SRP_DM_MAD_LEN, rsp,
					 SRP_DM_MAD_LEN, iou),
		 SRP_DM_MAD_LEN);
	check_bytes(what, rsp, exp, SRP_DM_MAD_LEN);
	check_canary(what, rsp, SRP_DM_MAD_LEN, sizeof(rsp));
	/* the status field byte for byte, as ib_mad.h's __be16 */
	CHECK_EQ(what, rsp[4], status >> 8);
	CHECK_EQ(what, rsp[5], status & 0xff);
}

static void test_answer_class_port_info(void **state)
{
	static const u8 cpi[72] = {
		0x01, 0x01, 0x00, 0x00,	/* BaseVersion, ClassVersion, CapMask */
		0x00, 0x00, 0x00, 0x14,	/* CapMask2, RespTimeValue 20 */
	};
	u8 req[SRP_DM_MAD_LEN];

	(void)state;
	make_req(req, 1, 0x06, 1, 0x01, 0x0001, 0);
	check_answer("Get ClassPortInfo", req, &tgt_iou, 0x0000, cpi,
		     sizeof(cpi));
}

static void test_answer_iou_info(void **state)
{
	static const u8 iou[132] = {
		0x00, 0x01,		/* ChangeID */
		0x01,			/* MaxControllers */
		0x00,			/* DiagDeviceID, OptionROM */
		0x10,			/* slot 1 present */
	};
	static const u8 iou3[132] = {
		0x12, 0x34, 0x03, 0x00,
		0x10, 0x10,		/* 1 present, 2 empty, 3 present */
	};
	u8 req[SRP_DM_MAD_LEN];

	(void)state;
	make_req(req, 1, 0x06, 1, 0x01, 0x0010, 0);
	check_answer("Get IOUnitInfo", req, &tgt_iou, 0x0000, iou,
		     sizeof(iou));
	check_answer("Get IOUnitInfo, three slots", req, &multi_iou, 0x0000,
		     iou3, sizeof(iou3));
}

static void test_answer_ioc_profile(void **state)
{
	static const u8 ioc[128] = {
		0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,	/* GUID */
		0x00, 0x02, 0xc9, 0x00,		/* VendorID, reserved */
		0x00, 0x00, 0x10, 0x03,		/* DeviceID */
		0x00, 0xa0, 0x00, 0x00,		/* DeviceVersion, reserved */
		0x00, 0x02, 0xc9, 0x00,		/* SubsystemVendorID */
		0x00, 0x00, 0x00, 0x00,		/* SubsystemID */
		0x01, 0x00, 0x60, 0x9e,		/* IOClass, IOSubclass */
		0x01, 0x08, 0x00, 0x01,		/* Protocol, ProtocolVersion */
		0x00, 0x00, 0x00, 0x00,		/* reserved */
		0x00, 0x80, 0x00, 0x04,		/* SendMessageQueueDepth 128,
						 * RDMAReadQueueDepth 4 */
		0x00, 0x00, 0x20, 0x54,		/* SendMessageSize 8276 */
		0x01, 0x00, 0x00, 0x00,		/* RDMATransferSize 16 MiB */
		0x2b, 0x00, 0x01, 0x00,		/* SEND to/from, RDMA READ and
						 * WRITE from the IOC; one
						 * service entry */
		0, 0, 0, 0, 0, 0, 0, 0,
		'S', 'C', 'S', 'T', ' ', 'S', 'R', 'P', ' ', 't', 'a', 'r',
		'g', 'e', 't',
	};
	u8 req[SRP_DM_MAD_LEN];

	(void)state;
	make_req(req, 1, 0x06, 1, 0x01, 0x0011, 1);
	check_answer("Get IOControllerProfile 1", req, &tgt_iou, 0x0000, ioc,
		     sizeof(ioc));
	make_req(req, 1, 0x06, 1, 0x01, 0x0011, 0);
	check_answer("IOControllerProfile 0", req, &tgt_iou, 0x001c, NULL, 0);
	make_req(req, 1, 0x06, 1, 0x01, 0x0011, 2);
	check_answer("IOControllerProfile 2", req, &tgt_iou, 0x001c, NULL, 0);
	make_req(req, 1, 0x06, 1, 0x01, 0x0011, 0x01000001);
	check_answer("IOControllerProfile 0x01000001", req, &tgt_iou, 0x001c,
		     NULL, 0);
	make_req(req, 1, 0x06, 1, 0x01, 0x0011, 2);
	check_answer("IOControllerProfile of an empty slot", req, &multi_iou,
		     0x0100, NULL, 0);
}

static void test_answer_svc_entries(void **state)
{
	static const u8 one[48] = {
		'S', 'R', 'P', '.', 'T', '1', '0', ':',
		'0', '0', '0', '2', 'c', '9', '0', '3',
		'0', '0', 'a', '1', 'b', '2', 'c', '3',
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,
	};
	u8 req[SRP_DM_MAD_LEN], four[192];
	unsigned int i;

	(void)state;
	make_req(req, 1, 0x06, 1, 0x01, 0x0012, 0x00010000);
	check_answer("Get ServiceEntries 1/0-0", req, &tgt_iou, 0x0000, one,
		     sizeof(one));
	make_req(req, 1, 0x06, 1, 0x01, 0x0012, 0x00010100);
	check_answer("ServiceEntries 1/0-1", req, &tgt_iou, 0x001c, NULL, 0);
	make_req(req, 1, 0x06, 1, 0x01, 0x0012, 0x00000000);
	check_answer("ServiceEntries 0/0-0", req, &tgt_iou, 0x001c, NULL, 0);
	make_req(req, 1, 0x06, 1, 0x01, 0x0012, 0x00020000);
	check_answer("ServiceEntries 2/0-0", req, &tgt_iou, 0x001c, NULL, 0);
	make_req(req, 1, 0x06, 1, 0x01, 0x0012, 0x00020000);
	check_answer("ServiceEntries of an empty slot", req, &multi_iou,
		     0x0100, NULL, 0);

	/* entries 2..5 of slot 3: "SRP.T10:0000000000003002" ... */
	memset(four, 0, sizeof(four));
	for (i = 0; i < 4; i++) {
		u8 *e = four + 48 * i;

		snprintf((char *)e, 40, "SRP.T10:%016x", 0x3002 + i);
		e[46] = 0x30;
		e[47] = 0x02 + i;
	}
	make_req(req, 1, 0x06, 1, 0x01, 0x0012, 0x00030502);
	check_answer("ServiceEntries 3/2-5", req, &multi_iou, 0x0000, four,
		     sizeof(four));
}

static void test_answer_refusals(void **state)
{
	static const struct {
		const char *what;
		u8 base, class_ver, method;
		u16 attr_id;
		u32 attr_mod;
		u16 status;
	} cases[] = {
		{ "Get Notice", 1, 1, 0x01, 0x0002, 0, 0x000c },
		{ "Get DiagnosticTimeout", 1, 1, 0x01, 0x0020, 0, 0x000c },
		{ "Get TestDeviceOnce", 1, 1, 0x01, 0x0022, 1, 0x000c },
		{ "Get 0xff00", 1, 1, 0x01, 0xff00, 0, 0x000c },
		{ "Set ClassPortInfo", 1, 1, 0x02, 0x0001, 0, 0x000c },
		{ "Set IOUnitInfo", 1, 1, 0x02, 0x0010, 0, 0x000c },
		{ "Set IOControllerProfile", 1, 1, 0x02, 0x0011, 1, 0x000c },
		{ "Set ServiceEntries", 1, 1, 0x02, 0x0012, 0x00010000,
		  0x000c },
		{ "Set 0x0013", 1, 1, 0x02, 0x0013, 0, 0x000c },
		{ "Send", 1, 1, 0x03, 0x0010, 0, 0x0008 },
		{ "GetTable", 1, 1, 0x12, 0x0012, 0x00010000, 0x0008 },
		{ "base version 2", 2, 1, 0x01, 0x0010, 0, 0x0004 },
		{ "class version 2", 1, 2, 0x01, 0x0010, 0, 0x0004 },
		{ "class version 0, a Set", 1, 0, 0x02, 0x0001, 0, 0x0004 },
	};
	u8 req[SRP_DM_MAD_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		make_req(req, cases[i].base, 0x06, cases[i].class_ver,
			 cases[i].method, cases[i].attr_id, cases[i].attr_mod);
		check_answer(cases[i].what, req, &tgt_iou, cases[i].status,
			     NULL, 0);
	}
}

static void test_answer_not_answered(void **state)
{
	u8 req[SRP_DM_MAD_LEN], rsp[SRP_DM_MAD_LEN + 16];
	struct srp_dm_ioc bad_ioc;
	struct srp_dm_iou bad_iou;

	(void)state;
	memset(rsp, CANARY, sizeof(rsp));
	/* responses, and MADs of other classes, are not ours to answer */
	make_req(req, 1, 0x06, 1, 0x81, 0x0010, 0);
	assert_int_equal(srp_dm_answer_mad(req, 256, rsp, 256, &tgt_iou),
			 -EPROTO);
	make_req(req, 1, 0x06, 1, 0x86, 0x0002, 0);
	assert_int_equal(srp_dm_answer_mad(req, 256, rsp, 256, &tgt_iou),
			 -EPROTO);
	make_req(req, 1, 0x03, 2, 0x01, 0x0010, 0);	/* SA */
	assert_int_equal(srp_dm_answer_mad(req, 256, rsp, 256, &tgt_iou),
			 -EPROTO);
	make_req(req, 1, 0x07, 2, 0x01, 0x0010, 0);	/* CM */
	assert_int_equal(srp_dm_answer_mad(req, 256, rsp, 256, &tgt_iou),
			 -EPROTO);
	/* too short a request, too small a response buffer */
	make_req(req, 1, 0x06, 1, 0x01, 0x0010, 0);
	assert_int_equal(srp_dm_answer_mad(req, 23, rsp, 256, &tgt_iou),
			 -EINVAL);
	assert_int_equal(srp_dm_answer_mad(NULL, 256, rsp, 256, &tgt_iou),
			 -EINVAL);
	assert_int_equal(srp_dm_answer_mad(req, 256, rsp, 255, &tgt_iou),
			 -ENOSPC);
	assert_int_equal(srp_dm_answer_mad(req, 256, NULL, 256, &tgt_iou),
			 -ENOSPC);
	check_canary("not answered", rsp, 0, sizeof(rsp));
	/* the header alone is enough to answer */
	assert_int_equal(srp_dm_answer_mad(req, 24, rsp, 256, &tgt_iou), 256);
	assert_int_equal(rsp[3], 0x81);

	/* a controller without the service entries it announces */
	bad_ioc = tgt_ioc;
	bad_ioc.svc_entries = NULL;
	bad_iou = tgt_iou;
	bad_iou.ioc = &bad_ioc;
	make_req(req, 1, 0x06, 1, 0x01, 0x0012, 0x00010000);
	assert_true(srp_dm_answer_mad(req, 256, rsp, 256, &bad_iou) < 0);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_class_port_info),
		cmocka_unit_test(test_iou_info),
		cmocka_unit_test(test_iou_info_all_slots),
		cmocka_unit_test(test_ioc_profile),
		cmocka_unit_test(test_svc_entry_name),
		cmocka_unit_test(test_svc_entries),
		cmocka_unit_test(test_check_ioc_profile),
		cmocka_unit_test(test_check_svc_entries),
		cmocka_unit_test_setup(test_decide, dm_setup),
		cmocka_unit_test_setup(test_answer_class_port_info, dm_setup),
		cmocka_unit_test_setup(test_answer_iou_info, dm_setup),
		cmocka_unit_test_setup(test_answer_ioc_profile, dm_setup),
		cmocka_unit_test_setup(test_answer_svc_entries, dm_setup),
		cmocka_unit_test_setup(test_answer_refusals, dm_setup),
		cmocka_unit_test_setup(test_answer_not_answered, dm_setup),
	};

	return cmocka_run_group_tests_name("srp_dm", tests, NULL, NULL);
}
