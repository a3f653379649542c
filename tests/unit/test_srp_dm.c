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

#define CANARY	0xa5

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

#define CHECK_EQ(what, a, b)						\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b)						\
			fail_msg("%s: %s = %lld (%#llx), expected %lld (%#llx)", \
				 what, #a, _a, (unsigned long long)_a,	\
				 _b, (unsigned long long)_b);		\
	} while (0)

static void check_bytes(const char *what, const u8 *got, const u8 *exp,
			size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (got[i] != exp[i])
			fail_msg("%s: byte %zu is %#04x, expected %#04x", what,
				 i, got[i], exp[i]);
}

static void check_canary(const char *what, const u8 *buf, size_t from,
			 size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (buf[i] != CANARY)
			fail_msg("%s: byte %zu written (%#04x)", what, i,
				 buf[i]);
}

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
	};

	return cmocka_run_group_tests_name("srp_dm", tests, NULL, NULL);
}
