// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz scst_core/scst_cdb.c: scst_cdb_decode(), scst_cdb_check_lba() and
 * scst_cdb_check_xfer_limit() with the device state they consult
 * (peripheral device type, logical block size, capacity, maximum transfer
 * size: the capacity's low 32 bits), the INQUIRY / REPORT LUNS CDB checks and REPORT
 * SUPPORTED OPERATION CODES (SPC-4 §6.35) built from the same table.
 *
 * Input: device type selector (1 byte), block shift (1 byte), capacity
 * (8 bytes), REPORT SUPPORTED OPERATION CODES buffer size (2 bytes), then
 * the CDB (at most 32 bytes are used).
 */
#include "fuzz.h"
#include <scst_pr.h>
#include <scst_cdb.h>

#define RSOC_BIG	8192

static const u8 dev_types[] = { SCST_TYPE_DISK, 0x05, SCST_TYPE_NO_LUN,
				0x01 };

/*
 * The sense data the core builds from an error (scst_set_cmd_error_field()
 * in scst_cmd.c): decoded back, it says what the error said, and a fixed
 * format field pointer (SPC-4 §4.5.2.4.2) points where the error does.
 */
static void check_sense(const struct scst_cdb_err *err, bool desc)
{
	u8 sense[SCST_SENSE_MAX_LEN], key, asc, ascq;
	int len = scst_build_sense_code(sense, sizeof(sense), desc,
					err->sense_code);

	FUZZ_CHECK(len > 0 && (size_t)len <= sizeof(sense));
	if (err->has_field) {
		len = scst_sense_set_field_pointer(sense, sizeof(sense),
						   err->in_cdb, err->byte,
						   err->bit);
		FUZZ_CHECK(len > 0 && (size_t)len <= sizeof(sense));
		if (!desc) {
			FUZZ_CHECK(sense[15] & 0x80);
			FUZZ_CHECK(!!(sense[15] & 0x40) == err->in_cdb);
			FUZZ_CHECK(get_unaligned_be16(sense + 16) == err->byte);
			if (err->bit >= 0)
				FUZZ_CHECK((sense[15] & 0x0f) ==
					   (0x08 | err->bit));
		}
	}
	FUZZ_CHECK(!scst_sense_decode(sense, len, &key, &asc, &ascq));
	FUZZ_CHECK(SCST_SENSE_CODE(key, asc, ascq) == err->sense_code);
}

static void check_err(const struct scst_cdb_err *err, unsigned int cdb_len,
		      u32 want1, u32 want2)
{
	FUZZ_CHECK(err->sense_code == want1 || err->sense_code == want2);
	FUZZ_CHECK(err->in_cdb);
	/* A field pointer points into the CDB (SPC-4 §4.5.2.4.2). */
	if (err->has_field)
		FUZZ_CHECK(err->byte < cdb_len);
	else
		FUZZ_CHECK(err->byte == 0);
	FUZZ_CHECK(err->bit >= -1 && err->bit <= 7);
	check_sense(err, false);
	check_sense(err, true);
}

static void check_decoded(const u8 *cdb, unsigned int cdb_len, u8 dev_type,
			  unsigned int shift, const struct scst_cdb_info *ci)
{
	int glen = scst_cdb_group_len(cdb[0]);

	FUZZ_CHECK(ci->opcode == cdb[0] && ci->name && *ci->name);
	FUZZ_CHECK(ci->cdb_len >= 6 && ci->cdb_len <= SCST_CDB_MAX_LEN &&
		   ci->cdb_len <= cdb_len);
	FUZZ_CHECK(glen < 0 || glen == ci->cdb_len);
	FUZZ_CHECK(ci->direction <= SCST_CDB_DIR_READ);
	/* SAM-5 §5.2: NACA is not supported, so it is never accepted. */
	FUZZ_CHECK(!(cdb[ci->cdb_len - 1] & 0x04));
	if (ci->flags & SCST_CDB_SBC)
		FUZZ_CHECK(dev_type == SCST_TYPE_DISK);
	if (ci->flags & SCST_CDB_HAS_SA)
		FUZZ_CHECK(ci->service_action == (cdb[1] & 0x1f));
	else
		FUZZ_CHECK(ci->service_action == 0);
	/*
	 * The data length in bytes is that of the blocks transferred, which
	 * fits in 32 bits: one block for WRITE SAME (none with NDOB), verify
	 * and write data for COMPARE AND WRITE (SBC-3 §5.3, §5.42, §5.43).
	 */
	if (ci->opcode == SCST_OP_WRITE_SAME_10 ||
	    ci->opcode == SCST_OP_WRITE_SAME_16) {
		FUZZ_CHECK(ci->nblocks);	/* WSNZ = 1 */
		FUZZ_CHECK(ci->bufflen == (ci->ndob ? 0 : 1U << shift));
	} else if (ci->flags & SCST_CDB_BLOCK_XFER) {
		u64 xfer = ci->nblocks;

		if (ci->opcode == SCST_OP_COMPARE_AND_WRITE)
			xfer = 2 * ci->nblocks;
		FUZZ_CHECK(shift < 32 && xfer <= (U32_MAX >> shift));
		FUZZ_CHECK(ci->bufflen == xfer << shift);
	}
	if (ci->direction == SCST_CDB_DIR_NONE)
		FUZZ_CHECK(ci->bufflen == 0);
	if (ci->flags & SCST_CDB_MEDIUM_WRITE)
		FUZZ_CHECK(dev_type == SCST_TYPE_DISK);
	FUZZ_CHECK(ci->bytchk <= 1);
}

static void check_lba(const struct scst_cdb_info *ci, u64 cap)
{
	struct scst_cdb_err err;
	unsigned __int128 end = (unsigned __int128)ci->lba + ci->nblocks;
	int ret = scst_cdb_check_lba(ci, cap, &err);

	if (!(ci->flags & SCST_CDB_LBA_CHECK)) {
		FUZZ_CHECK(ret == 0);
		return;
	}
	if (!ret) {
		/* SBC-3 §4.5: the range lies within the capacity. */
		FUZZ_CHECK(end <= cap);
		return;
	}
	FUZZ_CHECK(ret == -EINVAL);
	FUZZ_CHECK(end > cap || ci->lba >= cap);
	FUZZ_CHECK(err.sense_code == SCST_SENSE_LBA_OUT_OF_RANGE);
}

/*
 * SBC-3 §6.5.3: what passes the transfer limit cannot make the core
 * allocate more than the limit; what fails points at the length field.
 */
static void check_xfer_limit(const struct scst_cdb_info *ci,
			     unsigned int cdb_len, unsigned int shift,
			     u32 max)
{
	struct scst_cdb_err err;
	int ret = scst_cdb_check_xfer_limit(ci, max, shift, &err);

	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		check_err(&err, cdb_len, SCST_SENSE_INVALID_FIELD_IN_CDB, 0);
		return;
	}
	if (ci->flags & (SCST_CDB_XFER_LIMIT | SCST_CDB_WS_LIMIT))
		FUZZ_CHECK(shift < 32 && ci->nblocks <= (u64)(max >> shift));
	if (!(ci->flags & SCST_CDB_ALLOC_LEN))
		FUZZ_CHECK(ci->bufflen <= max);
}

static void check_rsoc(const u8 *cdb, unsigned int cdb_len, u8 dev_type,
		       size_t buflen)
{
	struct scst_cdb_err err;
	u8 *big = calloc(1, RSOC_BIG), *small = fuzz_take(&(struct fuzz_in){ 0 },
							  buflen);
	int ret = scst_build_rsoc(cdb, cdb_len, dev_type, big, RSOC_BIG, &err);
	int ret2 = scst_build_rsoc(cdb, cdb_len, dev_type, small, buflen,
				   &err);

	FUZZ_CHECK(ret == ret2);
	if (ret < 0) {
		FUZZ_CHECK(ret == -EINVAL);
		check_err(&err, cdb_len, SCST_SENSE_INVALID_FIELD_IN_CDB, 0);
		goto out;
	}
	FUZZ_CHECK(ret >= 4 && ret <= RSOC_BIG);
	/* SPC-4 §4.2.5.6: cut to the allocation length, not changed. */
	FUZZ_CHECK(!memcmp(big, small, (size_t)ret < buflen ? (size_t)ret :
			   buflen));
	if ((cdb[2] & 7) == 0)
		/* all_commands: COMMAND DATA LENGTH covers the rest. */
		FUZZ_CHECK(get_unaligned_be32(big) + 4 == (u32)ret &&
			   (ret - 4) % (cdb[2] & 0x80 ? 20 : 8) == 0);
	else if (big[1] & 0x3)
		FUZZ_CHECK((u32)ret >= 4 + get_unaligned_be16(big + 2));
out:
	free(big);
	free(small);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	u8 sel = fuzz_u8(&in);
	u8 dev_type = sel & 0x80 ? sel & 0x1f : dev_types[sel & 3];
	unsigned int shift = fuzz_u8(&in);
	u64 cap = fuzz_u64(&in);
	size_t rsoc_len = fuzz_u16(&in) & 0x1fff;
	struct scst_cdb_info ci;
	struct scst_cdb_err err;
	unsigned int cdb_len;
	u8 *cdb, sel_report, page;
	bool evpd;
	int ret;

	/* Mostly real block sizes (512 B to 64 KiB), sometimes anything. */
	shift = shift & 0x80 ? shift & 0x3f : 9 + (shift & 7);
	cdb_len = in.n < 32 ? in.n : 32;
	cdb = fuzz_take(&in, cdb_len);

	ret = scst_cdb_decode(cdb, cdb_len, dev_type, shift, &ci, &err);
	if (ret && cdb_len && cdb[0] == SCST_OP_PERSISTENT_RESERVE_OUT &&
	    err.sense_code == SCST_SENSE_PARAM_LIST_LEN_ERROR) {
		/* SPC-4 §6.16.1: a list longer than scst_pr_out() takes */
		FUZZ_CHECK(cdb_len >= 10 &&
			   get_unaligned_be32(cdb + 5) >
			   SCST_PR_OUT_MAX_PARAM_LEN);
		check_err(&err, cdb_len, SCST_SENSE_PARAM_LIST_LEN_ERROR,
			  SCST_SENSE_PARAM_LIST_LEN_ERROR);
	} else if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		check_err(&err, cdb_len ? cdb_len : 1,
			  SCST_SENSE_INVALID_OPCODE,
			  SCST_SENSE_INVALID_FIELD_IN_CDB);
	} else {
		check_decoded(cdb, cdb_len, dev_type, shift, &ci);
		check_lba(&ci, cap);
		check_xfer_limit(&ci, cdb_len, shift, (u32)cap);
	}

	if (!scst_check_inquiry_cdb(cdb, cdb_len, &evpd, &page, &err))
		FUZZ_CHECK(cdb_len >= 6 && (evpd || page == 0));
	if (!scst_check_report_luns_cdb(cdb, cdb_len, &sel_report, &err))
		FUZZ_CHECK(cdb_len >= 12 && sel_report == cdb[2]);
	check_rsoc(cdb, cdb_len, dev_type, rsoc_len);
	free(cdb);
	return 0;
}
