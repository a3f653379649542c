// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz srpt/srp_iu.c: SRP_CMD (SRP r16a §6.8), its LUN (scst_lun.c,
 * SAM-5 §4.7), its memory descriptors (§5.5) and SRP-2 immediate data,
 * and the external indirect descriptor table that the target fetches
 * with RDMA READ (§5.5.3).
 *
 * Input: IMMEDIATE DATA OFFSET granted at login (2 bytes), IU length
 * (2 bytes), table mode (1 byte), the IU, then the external table. Table
 * mode bit 0: hand srp_parse_ext_table() the table with the length the
 * IU announces (padded with zeroes), else with what the input holds.
 */
#include "fuzz.h"
#include <srp_iu.h>
#include <scst_spc.h>

/* The largest external table we build from the input: 4096 descriptors. */
#define MAX_TABLE	(4096 * SRP_IU_DIRECT_DESC_LEN)

static void check_err(const struct srp_cmd_err *err, size_t iu_len)
{
	FUZZ_CHECK(err->reason > SRP_CMD_ERR_NONE &&
		   err->reason <= SRP_CMD_ERR_IMM);
	FUZZ_CHECK(srp_cmd_err_str(err->reason) != NULL);
	/* §6.9: a response needs the TAG; only a runt gets none. */
	if (iu_len >= 16)
		FUZZ_CHECK(err->sense_code == SRP_IU_SENSE_INVALID_IU);
	else
		FUZZ_CHECK(err->sense_code == 0 &&
			   err->reason == SRP_CMD_ERR_SHORT);
	FUZZ_CHECK(err->offset <= iu_len);
}

/* Sum of the LENGTH of @n descriptors at @d, in 64 bits. */
static u64 desc_sum(const u8 *d, size_t n)
{
	u64 sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += get_unaligned_be32(d + i * SRP_IU_DIRECT_DESC_LEN + 12);
	return sum;
}

static void check_ext_table(struct fuzz_in *in, const struct srp_cmd_info *ci,
			    bool full, const u8 *iu)
{
	struct srp_cmd_err err;
	size_t tbl_len, i;
	u32 len, rkey;
	u8 *tbl;
	u64 va;
	int ret;

	if (full && ci->table_len <= MAX_TABLE)
		tbl_len = ci->table_len;
	else
		tbl_len = in->n < MAX_TABLE ? in->n : MAX_TABLE;
	tbl = fuzz_take(in, tbl_len);
	/* As srpt does: the IU's partial list is the table's first part. */
	if (tbl_len >= (size_t)ci->ndesc * SRP_IU_DIRECT_DESC_LEN && in->n & 1)
		memcpy(tbl, iu + ci->desc_off,
		       (size_t)ci->ndesc * SRP_IU_DIRECT_DESC_LEN);

	ret = srp_parse_ext_table(tbl, tbl_len, ci, &err);
	if (!ci->table_external || tbl_len != ci->table_len) {
		FUZZ_CHECK(ret == -EINVAL && err.reason == SRP_CMD_ERR_TABLE);
		goto out;
	}
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK(err.reason == SRP_CMD_ERR_TOTAL_LEN);
		FUZZ_CHECK(desc_sum(tbl, ci->table_ndesc) != ci->data_len);
		goto out;
	}
	/* Accepted: the table's lengths add up to TOTAL LENGTH. */
	FUZZ_CHECK(desc_sum(tbl, ci->table_ndesc) == ci->data_len);
	for (i = 0; i < ci->table_ndesc; i++)
		FUZZ_CHECK(!srp_desc_get(tbl, tbl_len, i, &va, &rkey, &len));
	FUZZ_CHECK(srp_desc_get(tbl, tbl_len, ci->table_ndesc, &va, &rkey,
				&len) == -EINVAL);
out:
	free(tbl);
}

/* SAM-5 §4.7: the LOGICAL UNIT NUMBER field, as srpt decodes it. */
static void check_lun(const u8 *lun)
{
	u8 enc[8];
	u64 l, l2;

	if (scst_lun_decode(lun, 8, &l))
		return;
	FUZZ_CHECK(l <= SCST_LUN_FLAT_MAX);
	/* Single level: bytes 2-7 are zero, the method is 00b or 01b. */
	FUZZ_CHECK(!lun[2] && !lun[3] && !get_unaligned_be32(lun + 4));
	scst_lun_encode(l, enc);
	FUZZ_CHECK(!scst_lun_decode(enc, 8, &l2) && l2 == l);
	/* The peripheral form below 256, so flat 01b is the other one. */
	FUZZ_CHECK(!memcmp(enc, lun, 8) || (lun[0] & 0xc0) == 0x40);
}

static void check_cmd(const u8 *buf, size_t iu_len, u32 imm_off,
		      const struct srp_cmd_info *ci)
{
	u32 len, rkey;
	unsigned int i;
	u64 va;

	FUZZ_CHECK(iu_len >= SRP_IU_CMD_LEN && buf[0] == SRP_IU_CMD);
	FUZZ_CHECK(ci->tag == get_unaligned_be64(buf + 8));
	/* The CDB (16 bytes and the additional CDB) lies inside the IU. */
	FUZZ_CHECK(ci->cdb == buf + 32);
	FUZZ_CHECK(ci->cdb_len >= 16 && ci->cdb_len <= 16 +
		   SRP_IU_MAX_ADD_CDB_LEN && ci->cdb_len % 4 == 0);
	FUZZ_CHECK(fuzz_within(buf, iu_len, ci->cdb, ci->cdb_len));
	FUZZ_CHECK(ci->task_attr <= SRP_IU_TASK_ATTR_MASK);
	FUZZ_CHECK(!memcmp(ci->lun, buf + 20, 8));
	check_lun(ci->lun);

	/* One direction at most, and the format is that direction's. */
	FUZZ_CHECK(!(ci->data_out_fmt && ci->data_in_fmt));
	FUZZ_CHECK(ci->data_out_fmt <= SRP_IU_DESC_IMM &&
		   ci->data_in_fmt <= SRP_IU_DESC_INDIRECT);
	switch (ci->dir) {
	case SRP_IU_DIR_NONE:
		FUZZ_CHECK(ci->fmt == SRP_IU_DESC_NONE && !ci->ndesc &&
			   !ci->data_len);
		break;
	case SRP_IU_DIR_WRITE:
		FUZZ_CHECK(ci->fmt == ci->data_out_fmt && ci->fmt);
		break;
	case SRP_IU_DIR_READ:
		FUZZ_CHECK(ci->fmt == ci->data_in_fmt && ci->fmt);
		break;
	default:
		FUZZ_CHECK(0);
	}

	/* Every descriptor the IU carries lies inside it. */
	FUZZ_CHECK(ci->desc_off >= SRP_IU_CMD_LEN || !ci->ndesc);
	FUZZ_CHECK(fuzz_within(buf, iu_len, buf + ci->desc_off,
			       (size_t)ci->ndesc * SRP_IU_DIRECT_DESC_LEN));
	for (i = 0; i < ci->ndesc; i++) {
		FUZZ_CHECK(!srp_cmd_desc(buf, ci, i, &va, &rkey, &len));
		FUZZ_CHECK(len == get_unaligned_be32(buf + ci->desc_off +
						     i * 16 + 12));
	}
	FUZZ_CHECK(srp_cmd_desc(buf, ci, ci->ndesc, &va, &rkey, &len) ==
		   -EINVAL);

	switch (ci->fmt) {
	case SRP_IU_DESC_DIRECT:
		FUZZ_CHECK(ci->ndesc == 1 && !ci->imm && !ci->table_ndesc);
		FUZZ_CHECK(!srp_cmd_desc(buf, ci, 0, &va, &rkey, &len));
		FUZZ_CHECK(len == ci->data_len);
		break;
	case SRP_IU_DESC_INDIRECT:
		FUZZ_CHECK(!ci->imm);
		FUZZ_CHECK(ci->table_len % SRP_IU_DIRECT_DESC_LEN == 0);
		FUZZ_CHECK(ci->table_ndesc ==
			   ci->table_len / SRP_IU_DIRECT_DESC_LEN);
		FUZZ_CHECK(ci->ndesc <= ci->table_ndesc);
		FUZZ_CHECK(ci->table_external ==
			   (ci->ndesc < ci->table_ndesc));
		if (ci->table_external)
			FUZZ_CHECK(desc_sum(buf + ci->desc_off, ci->ndesc) <=
				   ci->data_len);
		else
			FUZZ_CHECK(desc_sum(buf + ci->desc_off, ci->ndesc) ==
				   ci->data_len);
		break;
	case SRP_IU_DESC_IMM:
		/* SRP-2: granted, behind its descriptor, inside the IU. */
		FUZZ_CHECK(ci->imm && imm_off && ci->imm_offset == imm_off);
		FUZZ_CHECK(ci->imm_len == ci->data_len && !ci->ndesc);
		FUZZ_CHECK(ci->imm_offset >=
			   32 + ci->cdb_len + SRP_IU_IMM_DESC_LEN);
		FUZZ_CHECK(fuzz_within(buf, iu_len, buf + ci->imm_offset,
				       ci->imm_len));
		break;
	}
}

/*
 * The descriptor limit (srp_cmd_check_desc()): a command it passes has at
 * most @max descriptors, one it refuses is an indirect one whose
 * DESCRIPTOR TABLE LENGTH is blamed, inside the IU.
 */
static void check_desc_limit(const struct srp_cmd_info *ci, size_t iu_len,
			     u32 max)
{
	struct srp_cmd_err err;
	int ret = srp_cmd_check_desc(ci, max, &err);

	if (!ret) {
		FUZZ_CHECK(srp_cmd_ndesc(ci) <= max);
		return;
	}
	FUZZ_CHECK(ret == -EINVAL && err.reason == SRP_CMD_ERR_TOO_MANY_DESC);
	FUZZ_CHECK(srp_cmd_err_str(err.reason) != NULL);
	FUZZ_CHECK(ci->fmt == SRP_IU_DESC_INDIRECT);
	FUZZ_CHECK(err.sense_code == SRP_IU_SENSE_INVALID_IU);
	/* SRP r16a 5.5.3: DESCRIPTOR TABLE LENGTH, bytes 12-15 of its header */
	FUZZ_CHECK(err.offset == ci->desc_off - SRP_IU_INDIRECT_HDR_LEN + 12);
	FUZZ_CHECK(err.offset + 4 <= iu_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	u32 imm_off = fuzz_u16(&in);
	size_t iu_len = fuzz_u16(&in);
	bool full = fuzz_u8(&in) & 1;
	struct srp_cmd_info ci;
	struct srp_cmd_err err;
	u8 *buf;
	int ret;

	if (iu_len > in.n)
		iu_len = in.n;
	buf = fuzz_take(&in, iu_len);
	ret = srp_parse_cmd(buf, iu_len, imm_off, &ci, &err);
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		check_err(&err, iu_len);
		if (iu_len >= 16)
			FUZZ_CHECK(ci.tag == get_unaligned_be64(buf + 8));
	} else {
		FUZZ_CHECK(err.reason == SRP_CMD_ERR_NONE);
		check_cmd(buf, iu_len, imm_off, &ci);
		/* a limit of 1 to 4096 descriptors, from the input */
		check_desc_limit(&ci, iu_len, imm_off % 4096 + 1);
	}
	/* A table is fetched only for an accepted command, but try always. */
	check_ext_table(&in, &ci, full, buf);
	free(buf);
	return 0;
}
