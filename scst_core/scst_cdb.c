// SPDX-License-Identifier: GPL-2.0-only
/*
 * CDB decoding for the SPC-4 and SBC-3 commands the core emulates, and
 * REPORT SUPPORTED OPERATION CODES (SPC-4 §6.35) built from the same table.
 *
 * Each supported command has one entry in scst_cdb_ops[]: its CDB length,
 * data direction, where its LOGICAL BLOCK ADDRESS and length fields are,
 * what the length field means, the flags the core acts on, an optional
 * check of the command's own fields and its CDB USAGE DATA (SPC-4
 * §6.35.3). scst_cdb_decode() walks the generic part of the entry, then
 * calls the check. Reserved fields are not checked in general: initiators
 * in the field set bits that later standards define, and SPC-4 §4.5.2.4.2
 * lets a device server ignore them.
 */

#include <scst_cdb.h>
#include <scst_alua.h>
#include <scst_pr.h>

/* SAM-5 §5.2: CONTROL byte, NACA bit; we do not support ACA. */
#define CDB_CONTROL_NACA	0x04

/* SBC-3 §5.8 etc.: byte 1 of the 10, 12 and 16 byte block commands. */
#define CDB_PROTECT_MASK	0xe0	/* RDPROTECT/WRPROTECT/VRPROTECT */
#define CDB_DPO			0x10
#define CDB_FUA			0x08

/* SPC-4 §6.35.1: REPORTING OPTIONS and RCTD. */
#define RSOC_RCTD		0x80
#define RSOC_OPTS_MASK		0x07
#define RSOC_OPTS_ALL		0x0
#define RSOC_OPTS_OP		0x1
#define RSOC_OPTS_OP_SA		0x2

/* SPC-4 §6.35.2, §6.35.3, §6.35.4: descriptor sizes. */
#define RSOC_ALL_DESC_LEN	8
#define RSOC_TIMEOUTS_LEN	12
#define RSOC_ONE_HDR_LEN	4
/* SPC-4 §6.35.3 table 351: SUPPORT values. */
#define RSOC_SUPPORT_NONE	0x1
#define RSOC_SUPPORT_STD	0x3

struct scst_cdb_op;

/**
 * struct scst_cdb_ctx - a CDB being decoded
 * @cdb: the CDB, at least @op->cdb_len bytes
 * @op: its table entry
 * @block_shift: log2 of the logical block length
 * @info: the decoded command, filled in by the generic part
 * @err: receives the error
 */
struct scst_cdb_ctx {
	const u8 *cdb;
	const struct scst_cdb_op *op;
	unsigned int block_shift;
	struct scst_cdb_info *info;
	struct scst_cdb_err *err;
};

/* Checks of a command's own fields, after the generic decoding. */
typedef int (*scst_cdb_check_fn)(const struct scst_cdb_ctx *c);

/**
 * struct scst_cdb_op - one command of the decoding table
 * @name: command name
 * @opcode: OPERATION CODE
 * @sa: SERVICE ACTION (with SCST_CDB_HAS_SA)
 * @cdb_len: CDB length
 * @dir: data direction (SCST_CDB_DIR_*); a check may change it
 * @flags: SCST_CDB_* flags
 * @lba_off: offset of the LOGICAL BLOCK ADDRESS field
 * @lba_len: its size: 0 (none), 4 or 8 bytes
 * @len_off: offset of the TRANSFER LENGTH / ALLOCATION LENGTH / PARAMETER
 *	LIST LENGTH field
 * @len_len: its size: 0 (none), 1, 2 or 4 bytes
 * @check: command specific checks, or NULL
 * @id: what the command does (enum scst_op_id)
 * @facts: SCST_OPF_* facts of the command (scst_cdb_info.facts)
 * @refine: the facts that depend on a field of the CDB, or NULL; called
 *	before the CDB is checked, so it reads only the @cdb_len bytes there
 * @usage: CDB USAGE DATA, SPC-4 §6.35.3: bits the device server looks at;
 *	byte 0 is the operation code, byte 1 of a command with a service
 *	action holds the service action
 */
struct scst_cdb_op {
	const char *name;
	u8 opcode;
	u8 sa;
	u8 cdb_len;
	u8 dir;
	u32 flags;
	u8 lba_off;
	u8 lba_len;
	u8 len_off;
	u8 len_len;
	scst_cdb_check_fn check;
	u8 id;
	u32 facts;
	u32 (*refine)(const u8 *cdb, unsigned int cdb_len, u32 facts);
	u8 usage[SCST_CDB_MAX_LEN];
};

static int cdb_invalid(struct scst_cdb_err *err, int byte, int bit)
{
	return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB, true,
				byte, bit);
}

/*
 * Set the transfer of @nblocks logical blocks: bufflen = nblocks <<
 * block_shift, which must fit in 32 bits, else the length field at @byte
 * is invalid.
 */
static int cdb_set_blocks(struct scst_cdb_info *info, u64 nblocks,
			  unsigned int block_shift, int byte,
			  struct scst_cdb_err *err)
{
	if (block_shift >= 32 || nblocks > (U32_MAX >> block_shift))
		return cdb_invalid(err, byte, -1);
	info->bufflen = (u32)(nblocks << block_shift);
	return 0;
}

/* SBC-3 §4.22: protection information is not supported. */
static int cdb_check_protect(const u8 *cdb, struct scst_cdb_err *err)
{
	if (cdb[1] & CDB_PROTECT_MASK)
		return cdb_invalid(err, 1, 7);
	return 0;
}

/**
 * scst_check_inquiry_cdb() - check an INQUIRY CDB, SPC-4 §6.6.1
 * @cdb: the CDB
 * @cdb_len: its length, at least 6
 * @evpd: if not NULL, receives the EVPD bit
 * @page: if not NULL, receives the PAGE CODE
 * @err: receives the error
 *
 * CMDDT (obsolete since SPC-3) must be zero, and so must PAGE CODE when
 * EVPD is zero.
 *
 * Return: 0, or -EINVAL with @err set to INVALID FIELD IN CDB.
 */
int scst_check_inquiry_cdb(const u8 *cdb, unsigned int cdb_len, bool *evpd,
			   u8 *page, struct scst_cdb_err *err)
{
	if (cdb_len < 6)
		return cdb_invalid(err, -1, -1);
	if (cdb[1] & 0x02)
		return cdb_invalid(err, 1, 1);
	if (!(cdb[1] & 0x01) && cdb[2])
		return cdb_invalid(err, 2, -1);
	if (evpd)
		*evpd = cdb[1] & 0x01;
	if (page)
		*page = cdb[2];
	return 0;
}
EXPORT_SYMBOL_GPL(scst_check_inquiry_cdb);

/**
 * scst_check_report_luns_cdb() - check a REPORT LUNS CDB, SPC-4 §6.33
 * @cdb: the CDB
 * @cdb_len: its length, at least 12
 * @select_report: if not NULL, receives SELECT REPORT
 * @err: receives the error
 *
 * SELECT REPORT must be 00h, 01h or 02h, and the ALLOCATION LENGTH at
 * least 16 bytes.
 *
 * Return: 0, or -EINVAL with @err set to INVALID FIELD IN CDB.
 */
int scst_check_report_luns_cdb(const u8 *cdb, unsigned int cdb_len,
			       u8 *select_report, struct scst_cdb_err *err)
{
	if (cdb_len < 12)
		return cdb_invalid(err, -1, -1);
	if (cdb[2] > SCST_REPORT_LUNS_ALL)
		return cdb_invalid(err, 2, -1);
	if (get_unaligned_be32(cdb + 6) < 16)
		return cdb_invalid(err, 6, -1);
	if (select_report)
		*select_report = cdb[2];
	return 0;
}
EXPORT_SYMBOL_GPL(scst_check_report_luns_cdb);

static int chk_inquiry(const struct scst_cdb_ctx *c)
{
	return scst_check_inquiry_cdb(c->cdb, c->op->cdb_len, NULL, NULL,
				      c->err);
}

static int chk_report_luns(const struct scst_cdb_ctx *c)
{
	return scst_check_report_luns_cdb(c->cdb, c->op->cdb_len, NULL,
					  c->err);
}

/* SPC-4 §6.9, §6.10: SP is not supported, PF = 0 (vendor pages) neither. */
static int chk_mode_select(const struct scst_cdb_ctx *c)
{
	if (c->cdb[1] & 0x01)
		return cdb_invalid(c->err, 1, 0);
	if (!(c->cdb[1] & 0x10) && c->info->bufflen)
		return cdb_invalid(c->err, 1, 4);
	return 0;
}

/* SBC-3 §5.20: START STOP UNIT; IMMED in byte 1 bit 0. */
static int chk_start_stop(const struct scst_cdb_ctx *c)
{
	c->info->immed = c->cdb[1] & 0x01;
	return 0;
}

/*
 * SBC-3 §5.16: READ CAPACITY(10) returns 8 bytes. With PMI zero the
 * LOGICAL BLOCK ADDRESS must be zero.
 */
static int chk_read_cap10(const struct scst_cdb_ctx *c)
{
	if (!(c->cdb[8] & 0x01) && c->info->lba)
		return cdb_invalid(c->err, 2, -1);
	c->info->lba = 0;
	c->info->bufflen = SCST_READ_CAP10_LEN;
	return 0;
}

/* SBC-3 §5.17: READ CAPACITY(16), same PMI rule. */
static int chk_read_cap16(const struct scst_cdb_ctx *c)
{
	if (!(c->cdb[14] & 0x01) && c->info->lba)
		return cdb_invalid(c->err, 2, -1);
	c->info->lba = 0;
	return 0;
}

/*
 * SBC-3 §5.6: GET LBA STATUS. The STARTING LOGICAL BLOCK ADDRESS must
 * address a block of the medium: check one block from it.
 */
static int chk_get_lba_status(const struct scst_cdb_ctx *c)
{
	c->info->nblocks = 1;
	return 0;
}

/* SBC-3 §5.9, §5.31: READ(6) and WRITE(6); TRANSFER LENGTH 0 means 256. */
static int chk_rw6(const struct scst_cdb_ctx *c)
{
	struct scst_cdb_info *info = c->info;

	info->lba = get_unaligned_be24(c->cdb + 1) & 0x1fffff;
	info->nblocks = c->cdb[4] ? c->cdb[4] : 256;
	info->len_off = 4;
	return cdb_set_blocks(info, info->nblocks, c->block_shift, 4, c->err);
}

/* SBC-3 §5.10-12, §5.32-34: READ and WRITE(10/12/16). */
static int chk_rw(const struct scst_cdb_ctx *c)
{
	c->info->dpo = c->cdb[1] & CDB_DPO;
	c->info->fua = c->cdb[1] & CDB_FUA;
	return cdb_check_protect(c->cdb, c->err);
}

/*
 * SBC-3 §5.36, §5.37: WRITE AND VERIFY(10/16), and (12) with a 4-byte
 * TRANSFER LENGTH. BYTCHK (bits 2-1) 00b
 * verifies the medium, 01b compares with the data-out buffer; 1xb is
 * reserved.
 */
static int chk_write_verify(const struct scst_cdb_ctx *c)
{
	c->info->dpo = c->cdb[1] & CDB_DPO;
	c->info->bytchk = (c->cdb[1] >> 1) & 0x03;
	if (c->info->bytchk > 1)
		return cdb_invalid(c->err, 1, 2);
	return cdb_check_protect(c->cdb, c->err);
}

/*
 * SBC-3 §5.26, §5.27: VERIFY(10/16), and (12) with a 4-byte
 * VERIFICATION LENGTH. BYTCHK 00b: no data-out, the medium
 * is verified; 01b: nblocks of data-out to compare; 10b is reserved and
 * 11b (one block compared with every block) is not supported.
 */
static int chk_verify(const struct scst_cdb_ctx *c)
{
	struct scst_cdb_info *info = c->info;

	info->dpo = c->cdb[1] & CDB_DPO;
	info->bytchk = (c->cdb[1] >> 1) & 0x03;
	if (info->bytchk > 1)
		return cdb_invalid(c->err, 1, 2);
	if (!info->bytchk) {
		info->direction = SCST_CDB_DIR_NONE;
		info->flags &= ~SCST_CDB_BLOCK_XFER;
		info->bufflen = 0;
	}
	return cdb_check_protect(c->cdb, c->err);
}

/*
 * SBC-3 §5.22, §5.23: SYNCHRONIZE CACHE(10/16), and §5.11, §5.12:
 * PRE-FETCH(10/16), whose IMMED bit is the same. NUMBER OF LOGICAL BLOCKS
 * (PREFETCH LENGTH) zero means up to the last logical block.
 */
static int chk_sync_cache(const struct scst_cdb_ctx *c)
{
	c->info->immed = c->cdb[1] & 0x02;
	return 0;
}

/*
 * SBC-3 §5.42, §5.43: WRITE SAME(10/16). One logical block of data-out,
 * none with NDOB (16 only). ANCHOR (ANC_SUP = 0 in the logical block
 * provisioning VPD page) and the obsolete PBDATA and LBDATA are not
 * supported. The block limits VPD page says WSNZ = 1: a NUMBER OF LOGICAL
 * BLOCKS of zero is invalid. Whether UNMAP is allowed (LBPWS, LBPWS10)
 * is for the handler to check.
 */
static int chk_write_same(const struct scst_cdb_ctx *c)
{
	struct scst_cdb_info *info = c->info;
	const u8 *cdb = c->cdb;
	int ret = cdb_check_protect(cdb, c->err);

	if (ret)
		return ret;
	if (cdb[1] & 0x10)
		return cdb_invalid(c->err, 1, 4);
	if (cdb[1] & 0x04)
		return cdb_invalid(c->err, 1, 2);
	if (cdb[1] & 0x02)
		return cdb_invalid(c->err, 1, 1);
	if (!info->nblocks)
		return cdb_invalid(c->err, c->op->len_off, -1);
	info->unmap = cdb[1] & 0x08;
	if (c->op->opcode == SCST_OP_WRITE_SAME_16 && (cdb[1] & 0x01)) {
		info->ndob = true;
		info->direction = SCST_CDB_DIR_NONE;
		info->bufflen = 0;
		return 0;
	}
	return cdb_set_blocks(info, 1, c->block_shift, c->op->len_off, c->err);
}

/* SBC-3 §5.28: UNMAP. Anchoring is not supported (ANC_SUP = 0). */
static int chk_unmap(const struct scst_cdb_ctx *c)
{
	if (c->cdb[1] & 0x01)
		return cdb_invalid(c->err, 1, 0);
	return 0;
}

/*
 * SBC-3 §5.3: COMPARE AND WRITE. The data-out buffer holds the verify
 * data then the write data: 2 * NUMBER OF LOGICAL BLOCKS blocks. The
 * handler checks the number against its MAXIMUM COMPARE AND WRITE LENGTH.
 */
static int chk_compare_write(const struct scst_cdb_ctx *c)
{
	struct scst_cdb_info *info = c->info;
	int ret = cdb_check_protect(c->cdb, c->err);

	if (ret)
		return ret;
	info->dpo = c->cdb[1] & CDB_DPO;
	info->fua = c->cdb[1] & CDB_FUA;
	info->nblocks = c->cdb[13];
	info->len_off = 13;
	return cdb_set_blocks(info, 2 * info->nblocks, c->block_shift, 13,
			      c->err);
}

/* SPC-4 §6.35.1: REPORTING OPTIONS 000b, 001b and 010b. */
static int chk_rsoc(const struct scst_cdb_ctx *c)
{
	if ((c->cdb[2] & RSOC_OPTS_MASK) > RSOC_OPTS_OP_SA)
		return cdb_invalid(c->err, 2, 2);
	return 0;
}

/* SPC-4 §6.36.1: PARAMETER DATA FORMAT 000b (length) or 001b (extended). */
static int chk_rtpg(const struct scst_cdb_ctx *c)
{
	if ((c->cdb[1] >> 5) > SCST_RTPG_FMT_EXTENDED)
		return cdb_invalid(c->err, 1, 7);
	return 0;
}

/*
 * SPC-4 §6.44: at most one descriptor per target port group a device
 * group may have (SCST_STPG_MAX_LEN), refused before a buffer exists.
 */
static int chk_stpg(const struct scst_cdb_ctx *c)
{
	if (c->info->bufflen > SCST_STPG_MAX_LEN)
		return cdb_invalid(c->err, 6, -1);
	return 0;
}

/*
 * SPC-2 §7.21, §7.22, §7.17, §7.18: RESERVE and RELEASE(6/10) of the whole
 * logical unit only: third-party reservations (3RDPTY, LONGID) and the
 * obsolete extents are not supported. No parameter data is transferred.
 */
static int chk_reserve(const struct scst_cdb_ctx *c)
{
	if (c->cdb[1] & 0x10)
		return cdb_invalid(c->err, 1, 4);
	if (c->op->cdb_len == 10 && (c->cdb[1] & 0x02))
		return cdb_invalid(c->err, 1, 1);
	if (c->cdb[1] & 0x01)
		return cdb_invalid(c->err, 1, 0);
	return 0;
}

/*
 * SPC-4 §6.16.1: PERSISTENT RESERVE OUT. A PARAMETER LIST LENGTH beyond
 * what scst_pr_out() takes is refused before any data-out buffer exists,
 * with the sense scst_pr_out() itself gives (PARAMETER LIST LENGTH ERROR,
 * pointing at the field), so that no initiator sizes an allocation.
 */
static int chk_pr_out(const struct scst_cdb_ctx *c)
{
	if (c->info->bufflen > SCST_PR_OUT_MAX_PARAM_LEN)
		return scst_cdb_err_set(c->err,
					SCST_SENSE_PARAM_LIST_LEN_ERROR,
					true, 5, -1);
	return 0;
}

#define F_RD_BLOCKS	(SCST_CDB_SBC | SCST_CDB_LBA_CHECK | SCST_CDB_BLOCK_XFER | \
			 SCST_CDB_XFER_LIMIT)
#define F_WR_BLOCKS	(F_RD_BLOCKS | SCST_CDB_MEDIUM_WRITE)
#define F_ANY_NEXUS	(SCST_CDB_NO_LUN_OK | SCST_CDB_UA_EXEMPT | \
			 SCST_CDB_RESV_ALLOWED | SCST_CDB_ALLOC_LEN)

/*
 * Facts (SCST_OPF_*). The commands any nexus may send whatever its state:
 * unit attentions (SAM-5 §5.14), ALUA (SPC-4 §5.16.2.4.5-7) and
 * persistent reservations (SPC-4 §5.9.1 table 63) let them through.
 */
#define FA_ANY_NEXUS	(SCST_OPF_UA_EXEMPT | SCST_OPF_ALUA_ALWAYS | \
			 SCST_OPF_PR_ALLOWED)
/* Reads of the medium: allowed through Write Exclusive (table 63). */
#define FA_READ		SCST_OPF_PR_READ
/*
 * PERSISTENT RESERVE IN and OUT: the core's (scst_pr_dev.c); admitted by
 * a standby port (SPC-4 §5.16.2.4.4); through any reservation, OUT's
 * reservation key being checked by scst_pr_out() (table 63).
 */
#define FA_PR		(SCST_OPF_CORE_EMUL | SCST_OPF_ALUA_STANDBY | \
			 SCST_OPF_PR_ALLOWED)
/* SPC-2 RESERVE and RELEASE, the core's (scst_emul.c, scst_res.c). */
#define FA_SPC2		(SCST_OPF_CORE_EMUL | SCST_OPF_SPC2_RES)

/*
 * SBC-3 §4.17 table 13: START STOP UNIT with START 1 and POWER CONDITION
 * 0h is allowed through every persistent reservation, any other conflicts.
 */
static u32 facts_start_stop(const u8 *cdb, unsigned int cdb_len, u32 facts)
{
	u8 b4 = cdb_len > 4 ? cdb[4] : 0;

	return (b4 & 0xf1) == 0x01 ? facts | SCST_OPF_PR_ALLOWED : facts;
}

/*
 * SBC-3 §4.17 table 13: PREVENT ALLOW MEDIUM REMOVAL with PREVENT 00b
 * (allow removal) is allowed through every persistent reservation.
 */
static u32 facts_prevent(const u8 *cdb, unsigned int cdb_len, u32 facts)
{
	u8 b4 = cdb_len > 4 ? cdb[4] : 0;

	return b4 & 0x03 ? facts : facts | SCST_OPF_PR_ALLOWED;
}

/*
 * SBC-3 §5.26: VERIFY with BYTCHK 01b compares the medium with the
 * data-out buffer: a read of the medium the handler may sleep in.
 */
static u32 facts_verify(const u8 *cdb, unsigned int cdb_len, u32 facts)
{
	return cdb_len > 1 && (cdb[1] & 0x02) ? facts | SCST_OPF_MAY_SLEEP :
	       facts;
}

/*
 * The commands, in operation code and service action order: that is the
 * order of REPORT SUPPORTED OPERATION CODES data. The last byte of each
 * CDB USAGE DATA is the CONTROL byte, of which we look at NACA only.
 */
static const struct scst_cdb_op scst_cdb_ops[] = {
	{
		.name = "TEST UNIT READY",
		.opcode = SCST_OP_TEST_UNIT_READY, .cdb_len = 6,
		.dir = SCST_CDB_DIR_NONE,
		.facts = SCST_OPF_PR_ALLOWED,
		.id = SCST_OPID_TEST_UNIT_READY,
		.usage = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x04 },
	}, {
		.name = "REQUEST SENSE",
		.opcode = SCST_OP_REQUEST_SENSE, .cdb_len = 6,
		.dir = SCST_CDB_DIR_READ, .flags = F_ANY_NEXUS,
		.len_off = 4, .len_len = 1,
		.facts = FA_ANY_NEXUS | SCST_OPF_CORE_EMUL,
		.id = SCST_OPID_REQUEST_SENSE,
		.usage = { 0x03, 0x01, 0x00, 0x00, 0xff, 0x04 },
	}, {
		.name = "READ(6)", .opcode = SCST_OP_READ_6, .cdb_len = 6,
		.dir = SCST_CDB_DIR_READ, .flags = F_RD_BLOCKS,
		.check = chk_rw6,
		.facts = FA_READ,
		.id = SCST_OPID_READ,
		.usage = { 0x08, 0x1f, 0xff, 0xff, 0xff, 0x04 },
	}, {
		.name = "WRITE(6)", .opcode = SCST_OP_WRITE_6, .cdb_len = 6,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_WR_BLOCKS,
		.check = chk_rw6,
		.id = SCST_OPID_WRITE,
		.usage = { 0x0a, 0x1f, 0xff, 0xff, 0xff, 0x04 },
	}, {
		.name = "INQUIRY", .opcode = SCST_OP_INQUIRY, .cdb_len = 6,
		.dir = SCST_CDB_DIR_READ, .flags = F_ANY_NEXUS,
		.len_off = 3, .len_len = 2, .check = chk_inquiry,
		.facts = FA_ANY_NEXUS,
		.id = SCST_OPID_INQUIRY,
		.usage = { 0x12, 0x03, 0xff, 0xff, 0xff, 0x04 },
	}, {
		.name = "MODE SELECT(6)",
		.opcode = SCST_OP_MODE_SELECT_6, .cdb_len = 6,
		.dir = SCST_CDB_DIR_WRITE, .flags = SCST_CDB_PARAM_LIST,
		.len_off = 4, .len_len = 1, .check = chk_mode_select,
		.facts = SCST_OPF_ALUA_STANDBY | SCST_OPF_MAY_SLEEP,
		.id = SCST_OPID_MODE_SELECT,
		.usage = { 0x15, 0x11, 0x00, 0x00, 0xff, 0x04 },
	}, {
		.name = "RESERVE(6)", .opcode = SCST_OP_RESERVE_6, .cdb_len = 6,
		.dir = SCST_CDB_DIR_NONE, .flags = SCST_CDB_RESERVE_CMD,
		.check = chk_reserve,
		.facts = FA_SPC2,
		.id = SCST_OPID_RESERVE,
		.usage = { 0x16, 0x11, 0x00, 0x00, 0x00, 0x04 },
	}, {
		.name = "RELEASE(6)", .opcode = SCST_OP_RELEASE_6, .cdb_len = 6,
		.dir = SCST_CDB_DIR_NONE,
		.flags = SCST_CDB_RESERVE_CMD | SCST_CDB_RESV_ALLOWED,
		.check = chk_reserve,
		.facts = FA_SPC2,
		.id = SCST_OPID_RELEASE,
		.usage = { 0x17, 0x11, 0x00, 0x00, 0x00, 0x04 },
	}, {
		.name = "MODE SENSE(6)",
		.opcode = SCST_OP_MODE_SENSE_6, .cdb_len = 6,
		.dir = SCST_CDB_DIR_READ, .flags = SCST_CDB_ALLOC_LEN,
		.len_off = 4, .len_len = 1,
		.facts = SCST_OPF_ALUA_STANDBY | SCST_OPF_PR_READ,
		.id = SCST_OPID_MODE_SENSE,
		.usage = { 0x1a, 0x08, 0xff, 0xff, 0xff, 0x04 },
	}, {
		.name = "START STOP UNIT",
		.opcode = SCST_OP_START_STOP_UNIT, .cdb_len = 6,
		.dir = SCST_CDB_DIR_NONE, .flags = SCST_CDB_SBC,
		.check = chk_start_stop,
		.refine = facts_start_stop,
		.id = SCST_OPID_START_STOP_UNIT,
		.usage = { 0x1b, 0x01, 0x00, 0x0f, 0xf7, 0x04 },
	}, {
		.name = "PREVENT ALLOW MEDIUM REMOVAL",
		.opcode = SCST_OP_PREVENT_ALLOW_MEDIUM,
		.cdb_len = 6, .dir = SCST_CDB_DIR_NONE,
		.refine = facts_prevent,
		.id = SCST_OPID_PREVENT_ALLOW_MEDIUM,
		.usage = { 0x1e, 0x00, 0x00, 0x00, 0x03, 0x04 },
	}, {
		.name = "READ CAPACITY(10)",
		.opcode = SCST_OP_READ_CAPACITY_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_READ, .flags = SCST_CDB_SBC,
		.lba_off = 2, .lba_len = 4, .check = chk_read_cap10,
		.facts = SCST_OPF_ALUA_INFO | SCST_OPF_PR_ALLOWED,
		.id = SCST_OPID_READ_CAPACITY_10,
		.usage = { 0x25, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00,
			   0x01, 0x04 },
	}, {
		.name = "READ(10)", .opcode = SCST_OP_READ_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_READ, .flags = F_RD_BLOCKS,
		.lba_off = 2, .lba_len = 4, .len_off = 7, .len_len = 2,
		.check = chk_rw,
		.facts = FA_READ,
		.id = SCST_OPID_READ,
		.usage = { 0x28, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "WRITE(10)", .opcode = SCST_OP_WRITE_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_WR_BLOCKS,
		.lba_off = 2, .lba_len = 4, .len_off = 7, .len_len = 2,
		.check = chk_rw,
		.id = SCST_OPID_WRITE,
		.usage = { 0x2a, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "WRITE AND VERIFY(10)",
		.opcode = SCST_OP_WRITE_VERIFY_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_WR_BLOCKS,
		.lba_off = 2, .lba_len = 4, .len_off = 7, .len_len = 2,
		.check = chk_write_verify,
		.id = SCST_OPID_WRITE_VERIFY,
		.usage = { 0x2e, 0xf6, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "VERIFY(10)",
		.opcode = SCST_OP_VERIFY_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_RD_BLOCKS,
		.lba_off = 2, .lba_len = 4, .len_off = 7, .len_len = 2,
		.check = chk_verify,
		.facts = FA_READ,
		.refine = facts_verify,
		.id = SCST_OPID_VERIFY,
		.usage = { 0x2f, 0xf6, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PRE-FETCH(10)",
		.opcode = SCST_OP_PRE_FETCH_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_NONE,
		.flags = SCST_CDB_SBC | SCST_CDB_LBA_CHECK,
		.lba_off = 2, .lba_len = 4, .len_off = 7, .len_len = 2,
		.check = chk_sync_cache,
		.facts = FA_READ,
		.id = SCST_OPID_PRE_FETCH,
		.usage = { 0x34, 0x02, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "SYNCHRONIZE CACHE(10)",
		.opcode = SCST_OP_SYNCHRONIZE_CACHE_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_NONE,
		.flags = SCST_CDB_SBC | SCST_CDB_LBA_CHECK,
		.lba_off = 2, .lba_len = 4, .len_off = 7, .len_len = 2,
		.check = chk_sync_cache,
		.id = SCST_OPID_SYNCHRONIZE_CACHE,
		.usage = { 0x35, 0x02, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "WRITE SAME(10)",
		.opcode = SCST_OP_WRITE_SAME_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_SBC | SCST_CDB_LBA_CHECK |
			 SCST_CDB_MEDIUM_WRITE | SCST_CDB_WS_LIMIT |
			 SCST_CDB_EXACT_OUT,
		.lba_off = 2, .lba_len = 4, .len_off = 7, .len_len = 2,
		.check = chk_write_same,
		.facts = SCST_OPF_MAY_SLEEP,
		.id = SCST_OPID_WRITE_SAME,
		.usage = { 0x41, 0xfe, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "UNMAP", .opcode = SCST_OP_UNMAP, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_SBC | SCST_CDB_PARAM_LIST |
			 SCST_CDB_MEDIUM_WRITE,
		.len_off = 7, .len_len = 2, .check = chk_unmap,
		.facts = SCST_OPF_MAY_SLEEP,
		.id = SCST_OPID_UNMAP,
		.usage = { 0x42, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "MODE SELECT(10)",
		.opcode = SCST_OP_MODE_SELECT_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE, .flags = SCST_CDB_PARAM_LIST,
		.len_off = 7, .len_len = 2, .check = chk_mode_select,
		.facts = SCST_OPF_ALUA_STANDBY | SCST_OPF_MAY_SLEEP,
		.id = SCST_OPID_MODE_SELECT,
		.usage = { 0x55, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "RESERVE(10)",
		.opcode = SCST_OP_RESERVE_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_NONE, .flags = SCST_CDB_RESERVE_CMD,
		.check = chk_reserve,
		.facts = FA_SPC2,
		.id = SCST_OPID_RESERVE,
		.usage = { 0x56, 0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
			   0x00, 0x04 },
	}, {
		.name = "RELEASE(10)",
		.opcode = SCST_OP_RELEASE_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_NONE,
		.flags = SCST_CDB_RESERVE_CMD | SCST_CDB_RESV_ALLOWED,
		.check = chk_reserve,
		.facts = FA_SPC2,
		.id = SCST_OPID_RELEASE,
		.usage = { 0x57, 0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
			   0x00, 0x04 },
	}, {
		.name = "MODE SENSE(10)",
		.opcode = SCST_OP_MODE_SENSE_10, .cdb_len = 10,
		.dir = SCST_CDB_DIR_READ, .flags = SCST_CDB_ALLOC_LEN,
		.len_off = 7, .len_len = 2,
		.facts = SCST_OPF_ALUA_STANDBY | SCST_OPF_PR_READ,
		.id = SCST_OPID_MODE_SENSE,
		.usage = { 0x5a, 0x18, 0xff, 0xff, 0x00, 0x00, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		/*
		 * SPC-4 §6.15.1: PERSISTENT RESERVE IN, ALLOCATION LENGTH in
		 * bytes 7-8, one entry per service action (table 166). Not
		 * RESV_ALLOWED: an SPC-2 reservation of another nexus makes
		 * it conflict (SPC-4 §5.9.3).
		 */
		.name = "PERSISTENT RESERVE IN (READ KEYS)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_IN,
		.sa = SCST_PR_IN_READ_KEYS, .cdb_len = 10,
		.dir = SCST_CDB_DIR_READ,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN,
		.len_off = 7, .len_len = 2,
		.facts = FA_PR,
		.id = SCST_OPID_PR_IN,
		.usage = { 0x5e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE IN (READ RESERVATION)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_IN,
		.sa = SCST_PR_IN_READ_RESERVATION, .cdb_len = 10,
		.dir = SCST_CDB_DIR_READ,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN,
		.len_off = 7, .len_len = 2,
		.facts = FA_PR,
		.id = SCST_OPID_PR_IN,
		.usage = { 0x5e, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE IN (REPORT CAPABILITIES)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_IN,
		.sa = SCST_PR_IN_REPORT_CAPABILITIES, .cdb_len = 10,
		.dir = SCST_CDB_DIR_READ,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN,
		.len_off = 7, .len_len = 2,
		.facts = FA_PR,
		.id = SCST_OPID_PR_IN,
		.usage = { 0x5e, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE IN (READ FULL STATUS)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_IN,
		.sa = SCST_PR_IN_READ_FULL_STATUS, .cdb_len = 10,
		.dir = SCST_CDB_DIR_READ,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN,
		.len_off = 7, .len_len = 2,
		.facts = FA_PR,
		.id = SCST_OPID_PR_IN,
		.usage = { 0x5e, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
			   0xff, 0x04 },
	}, {
		/*
		 * SPC-4 §6.16.1: PERSISTENT RESERVE OUT, PARAMETER LIST LENGTH
		 * in bytes 5-8, SCOPE and TYPE in byte 2; one entry per
		 * service action (table 180).
		 */
		.name = "PERSISTENT RESERVE OUT (REGISTER)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_OUT,
		.sa = SCST_PR_OUT_REGISTER, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST,
		.len_off = 5, .len_len = 4, .check = chk_pr_out,
		.facts = FA_PR,
		.id = SCST_OPID_PR_OUT,
		.usage = { 0x5f, 0x00, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE OUT (RESERVE)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_OUT,
		.sa = SCST_PR_OUT_RESERVE, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST,
		.len_off = 5, .len_len = 4, .check = chk_pr_out,
		.facts = FA_PR,
		.id = SCST_OPID_PR_OUT,
		.usage = { 0x5f, 0x01, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE OUT (RELEASE)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_OUT,
		.sa = SCST_PR_OUT_RELEASE, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST,
		.len_off = 5, .len_len = 4, .check = chk_pr_out,
		.facts = FA_PR,
		.id = SCST_OPID_PR_OUT,
		.usage = { 0x5f, 0x02, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE OUT (CLEAR)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_OUT,
		.sa = SCST_PR_OUT_CLEAR, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST,
		.len_off = 5, .len_len = 4, .check = chk_pr_out,
		.facts = FA_PR,
		.id = SCST_OPID_PR_OUT,
		.usage = { 0x5f, 0x03, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE OUT (PREEMPT)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_OUT,
		.sa = SCST_PR_OUT_PREEMPT, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST,
		.len_off = 5, .len_len = 4, .check = chk_pr_out,
		.facts = FA_PR,
		.id = SCST_OPID_PR_OUT,
		.usage = { 0x5f, 0x04, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE OUT (PREEMPT AND ABORT)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_OUT,
		.sa = SCST_PR_OUT_PREEMPT_AND_ABORT, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST,
		.len_off = 5, .len_len = 4, .check = chk_pr_out,
		.facts = FA_PR,
		.id = SCST_OPID_PR_OUT,
		.usage = { 0x5f, 0x05, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE OUT (REGISTER AND IGNORE EXISTING KEY)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_OUT,
		.sa = SCST_PR_OUT_REGISTER_AND_IGNORE, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST,
		.len_off = 5, .len_len = 4, .check = chk_pr_out,
		.facts = FA_PR,
		.id = SCST_OPID_PR_OUT,
		.usage = { 0x5f, 0x06, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "PERSISTENT RESERVE OUT (REGISTER AND MOVE)",
		.opcode = SCST_OP_PERSISTENT_RESERVE_OUT,
		.sa = SCST_PR_OUT_REGISTER_AND_MOVE, .cdb_len = 10,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST,
		.len_off = 5, .len_len = 4, .check = chk_pr_out,
		.facts = FA_PR,
		.id = SCST_OPID_PR_OUT,
		.usage = { 0x5f, 0x07, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff,
			   0xff, 0x04 },
	}, {
		.name = "READ(16)", .opcode = SCST_OP_READ_16, .cdb_len = 16,
		.dir = SCST_CDB_DIR_READ, .flags = F_RD_BLOCKS,
		.lba_off = 2, .lba_len = 8, .len_off = 10, .len_len = 4,
		.check = chk_rw,
		.facts = FA_READ,
		.id = SCST_OPID_READ,
		.usage = { 0x88, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "COMPARE AND WRITE",
		.opcode = SCST_OP_COMPARE_AND_WRITE, .cdb_len = 16,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = F_WR_BLOCKS,
		.lba_off = 2, .lba_len = 8, .check = chk_compare_write,
		.facts = SCST_OPF_MAY_SLEEP,
		.id = SCST_OPID_COMPARE_AND_WRITE,
		.usage = { 0x89, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0x00, 0x00, 0x00, 0xff, 0x00, 0x04 },
	}, {
		.name = "WRITE(16)", .opcode = SCST_OP_WRITE_16, .cdb_len = 16,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_WR_BLOCKS,
		.lba_off = 2, .lba_len = 8, .len_off = 10, .len_len = 4,
		.check = chk_rw,
		.id = SCST_OPID_WRITE,
		.usage = { 0x8a, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "WRITE AND VERIFY(16)",
		.opcode = SCST_OP_WRITE_VERIFY_16, .cdb_len = 16,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_WR_BLOCKS,
		.lba_off = 2, .lba_len = 8, .len_off = 10, .len_len = 4,
		.check = chk_write_verify,
		.id = SCST_OPID_WRITE_VERIFY,
		.usage = { 0x8e, 0xf6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "VERIFY(16)",
		.opcode = SCST_OP_VERIFY_16, .cdb_len = 16,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_RD_BLOCKS,
		.lba_off = 2, .lba_len = 8, .len_off = 10, .len_len = 4,
		.check = chk_verify,
		.facts = FA_READ,
		.refine = facts_verify,
		.id = SCST_OPID_VERIFY,
		.usage = { 0x8f, 0xf6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "PRE-FETCH(16)",
		.opcode = SCST_OP_PRE_FETCH_16, .cdb_len = 16,
		.dir = SCST_CDB_DIR_NONE,
		.flags = SCST_CDB_SBC | SCST_CDB_LBA_CHECK,
		.lba_off = 2, .lba_len = 8, .len_off = 10, .len_len = 4,
		.check = chk_sync_cache,
		.facts = FA_READ,
		.id = SCST_OPID_PRE_FETCH,
		.usage = { 0x90, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "SYNCHRONIZE CACHE(16)",
		.opcode = SCST_OP_SYNCHRONIZE_CACHE_16, .cdb_len = 16,
		.dir = SCST_CDB_DIR_NONE,
		.flags = SCST_CDB_SBC | SCST_CDB_LBA_CHECK,
		.lba_off = 2, .lba_len = 8, .len_off = 10, .len_len = 4,
		.check = chk_sync_cache,
		.id = SCST_OPID_SYNCHRONIZE_CACHE,
		.usage = { 0x91, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "WRITE SAME(16)",
		.opcode = SCST_OP_WRITE_SAME_16, .cdb_len = 16,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_SBC | SCST_CDB_LBA_CHECK |
			 SCST_CDB_MEDIUM_WRITE | SCST_CDB_WS_LIMIT |
			 SCST_CDB_EXACT_OUT,
		.lba_off = 2, .lba_len = 8, .len_off = 10, .len_len = 4,
		.check = chk_write_same,
		.facts = SCST_OPF_MAY_SLEEP,
		.id = SCST_OPID_WRITE_SAME,
		.usage = { 0x93, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "READ CAPACITY(16)",
		.opcode = SCST_OP_SERVICE_ACTION_IN_16,
		.sa = SCST_SAI_READ_CAPACITY_16, .cdb_len = 16,
		.dir = SCST_CDB_DIR_READ,
		.flags = SCST_CDB_SBC | SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN,
		.lba_off = 2, .lba_len = 8, .len_off = 10, .len_len = 4,
		.check = chk_read_cap16,
		.facts = SCST_OPF_ALUA_INFO | SCST_OPF_PR_ALLOWED,
		.id = SCST_OPID_READ_CAPACITY_16,
		.usage = { 0x9e, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x04 },
	}, {
		.name = "GET LBA STATUS",
		.opcode = SCST_OP_SERVICE_ACTION_IN_16,
		.sa = SCST_SAI_GET_LBA_STATUS, .cdb_len = 16,
		.dir = SCST_CDB_DIR_READ,
		.flags = SCST_CDB_SBC | SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN |
			 SCST_CDB_LBA_CHECK,
		.lba_off = 2, .lba_len = 8, .len_off = 10, .len_len = 4,
		.check = chk_get_lba_status,
		.facts = SCST_OPF_PR_READ | SCST_OPF_MAY_SLEEP,
		.id = SCST_OPID_GET_LBA_STATUS,
		.usage = { 0x9e, 0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "REPORT LUNS",
		.opcode = SCST_OP_REPORT_LUNS, .cdb_len = 12,
		.dir = SCST_CDB_DIR_READ, .flags = F_ANY_NEXUS,
		.len_off = 6, .len_len = 4, .check = chk_report_luns,
		.facts = FA_ANY_NEXUS | SCST_OPF_CORE_EMUL,
		.id = SCST_OPID_REPORT_LUNS,
		.usage = { 0xa0, 0x00, 0xff, 0x00, 0x00, 0x00, 0xff, 0xff,
			   0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "REPORT TARGET PORT GROUPS",
		.opcode = SCST_OP_MAINTENANCE_IN,
		.sa = SCST_MI_REPORT_TPGS, .cdb_len = 12,
		.dir = SCST_CDB_DIR_READ,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN,
		.len_off = 6, .len_len = 4, .check = chk_rtpg,
		.facts = SCST_OPF_ALUA_TPG | SCST_OPF_ALUA_ALWAYS |
			 SCST_OPF_PR_ALLOWED,
		.id = SCST_OPID_REPORT_TPGS,
		.usage = { 0xa3, 0xea, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
			   0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "REPORT SUPPORTED OPERATION CODES",
		.opcode = SCST_OP_MAINTENANCE_IN,
		.sa = SCST_MI_REPORT_SUPPORTED_OPCODES, .cdb_len = 12,
		.dir = SCST_CDB_DIR_READ,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN,
		.len_off = 6, .len_len = 4, .check = chk_rsoc,
		.facts = SCST_OPF_ALUA_INFO | SCST_OPF_PR_READ,
		.id = SCST_OPID_REPORT_SUPPORTED_OPCODES,
		.usage = { 0xa3, 0x0c, 0x87, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "SET TARGET PORT GROUPS",
		.opcode = SCST_OP_MAINTENANCE_OUT,
		.sa = SCST_MO_SET_TPGS, .cdb_len = 12,
		.dir = SCST_CDB_DIR_WRITE,
		.flags = SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST,
		.len_off = 6, .len_len = 4, .check = chk_stpg,
		.facts = SCST_OPF_ALUA_TPG | SCST_OPF_ALUA_STPG,
		.id = SCST_OPID_SET_TPGS,
		.usage = { 0xa4, 0x0a, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
			   0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "READ(12)", .opcode = SCST_OP_READ_12, .cdb_len = 12,
		.dir = SCST_CDB_DIR_READ, .flags = F_RD_BLOCKS,
		.lba_off = 2, .lba_len = 4, .len_off = 6, .len_len = 4,
		.check = chk_rw,
		.facts = FA_READ,
		.id = SCST_OPID_READ,
		.usage = { 0xa8, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "WRITE(12)", .opcode = SCST_OP_WRITE_12, .cdb_len = 12,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_WR_BLOCKS,
		.lba_off = 2, .lba_len = 4, .len_off = 6, .len_len = 4,
		.check = chk_rw,
		.id = SCST_OPID_WRITE,
		.usage = { 0xaa, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "WRITE AND VERIFY(12)",
		.opcode = SCST_OP_WRITE_VERIFY_12, .cdb_len = 12,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_WR_BLOCKS,
		.lba_off = 2, .lba_len = 4, .len_off = 6, .len_len = 4,
		.check = chk_write_verify,
		.id = SCST_OPID_WRITE_VERIFY,
		.usage = { 0xae, 0xf6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0x00, 0x04 },
	}, {
		.name = "VERIFY(12)",
		.opcode = SCST_OP_VERIFY_12, .cdb_len = 12,
		.dir = SCST_CDB_DIR_WRITE, .flags = F_RD_BLOCKS,
		.lba_off = 2, .lba_len = 4, .len_off = 6, .len_len = 4,
		.check = chk_verify,
		.facts = FA_READ,
		.refine = facts_verify,
		.id = SCST_OPID_VERIFY,
		.usage = { 0xaf, 0xf6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0x00, 0x04 },
	},
};

/**
 * struct scst_cdb_facts_row - facts of a command the core does not decode
 * @opcode: OPERATION CODE
 * @sa: SERVICE ACTION (or READ/WRITE BUFFER MODE), byte 1 bits 4-0,
 *	when @any_sa is false
 * @any_sa: the row holds for every value of byte 1
 * @facts: SCST_OPF_* facts
 */
struct scst_cdb_facts_row {
	u8 opcode;
	u8 sa;
	bool any_sa;
	u32 facts;
};

/*
 * The facts of what scst_cdb_ops[] does not decode: operation codes a
 * pass-through handler forwards, and the service actions of the core's
 * own operation codes that it does not know. SPC-4 §5.9.1 table 63 and
 * SBC-3 §4.17 table 13 (persistent reservations) and SPC-4 §5.16.2.4
 * (ALUA) name them; everything else conflicts with every persistent
 * reservation type and is refused by a port that is not active. The
 * first row that matches holds.
 */
static const struct scst_cdb_facts_row scst_cdb_facts_x[] = {
	{ SCST_OP_RECEIVE_DIAGNOSTIC, 0, true,
	  SCST_OPF_ALUA_STANDBY | SCST_OPF_PR_READ },
	{ SCST_OP_SEND_DIAGNOSTIC, 0, true, SCST_OPF_ALUA_STANDBY },
	{ SCST_OP_READ_DEFECT_DATA_10, 0, true, SCST_OPF_PR_READ },
	{ SCST_OP_WRITE_BUFFER, SCST_BUFFER_MODE_ECHO, false,
	  SCST_OPF_ALUA_ALWAYS },
	{ SCST_OP_READ_BUFFER, SCST_BUFFER_MODE_ECHO, false,
	  SCST_OPF_ALUA_ALWAYS | SCST_OPF_PR_READ },
	{ SCST_OP_READ_BUFFER, 0, true, SCST_OPF_PR_READ },
	{ SCST_OP_READ_LONG_10, 0, true, SCST_OPF_PR_READ },
	{ SCST_OP_LOG_SELECT, 0, true, SCST_OPF_ALUA_STANDBY },
	{ SCST_OP_LOG_SENSE, 0, true,
	  SCST_OPF_ALUA_STANDBY | SCST_OPF_PR_ALLOWED },
	/* PR IN/OUT of an unknown service action: scst_pr_in/out() say so */
	{ SCST_OP_PERSISTENT_RESERVE_IN, 0, true, FA_PR },
	{ SCST_OP_PERSISTENT_RESERVE_OUT, 0, true, FA_PR },
	{ SCST_OP_ACCESS_CONTROL_IN, 0, true, SCST_OPF_PR_ALLOWED },
	{ SCST_OP_ACCESS_CONTROL_OUT, 0, true, SCST_OPF_PR_ALLOWED },
	{ SCST_OP_READ_ATTRIBUTE, 0, true, SCST_OPF_PR_READ },
	{ SCST_OP_SERVICE_ACTION_IN_16, SCST_SAI_READ_LONG_16, false,
	  SCST_OPF_PR_READ },
	{ SCST_OP_MAINTENANCE_IN, SCST_MI_REPORT_IDENT_INFO, false,
	  SCST_OPF_PR_ALLOWED },
	{ SCST_OP_MAINTENANCE_IN, SCST_MI_REPORT_ALIASES, false,
	  SCST_OPF_PR_ALLOWED },
	{ SCST_OP_MAINTENANCE_IN, SCST_MI_REPORT_TMF, false,
	  SCST_OPF_PR_READ },
	{ SCST_OP_MAINTENANCE_IN, SCST_MI_REPORT_PRIORITY, false,
	  SCST_OPF_PR_ALLOWED },
	{ SCST_OP_MAINTENANCE_IN, SCST_MI_REPORT_TIMESTAMP, false,
	  SCST_OPF_PR_ALLOWED },
	{ SCST_OP_READ_MEDIA_SERIAL, 0, true, SCST_OPF_PR_ALLOWED },
	{ SCST_OP_READ_DEFECT_DATA_12, 0, true, SCST_OPF_PR_READ },
};

/* The facts of a CDB without an scst_cdb_ops[] row. */
static u32 scst_cdb_facts_other(const u8 *cdb, unsigned int cdb_len)
{
	u8 sa = cdb_len > 1 ? cdb[1] & 0x1f : 0;
	const struct scst_cdb_facts_row *r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scst_cdb_facts_x); i++) {
		r = &scst_cdb_facts_x[i];
		if (r->opcode == cdb[0] && (r->any_sa || r->sa == sa))
			return r->facts;
	}
	return 0;
}

static bool scst_cdb_op_applies(const struct scst_cdb_op *op, u8 dev_type)
{
	return !(op->flags & SCST_CDB_SBC) || dev_type == SCST_TYPE_DISK;
}

/*
 * Find the entry for @opcode (and @sa, for commands with service actions)
 * that applies to @dev_type. *@has_sa tells whether @opcode has service
 * actions at all.
 */
static const struct scst_cdb_op *scst_cdb_find(u8 opcode, u8 sa, bool use_sa,
					       u8 dev_type, bool *has_sa)
{
	const struct scst_cdb_op *op;
	size_t i;

	*has_sa = false;
	for (i = 0; i < ARRAY_SIZE(scst_cdb_ops); i++) {
		op = &scst_cdb_ops[i];
		if (op->opcode != opcode || !scst_cdb_op_applies(op, dev_type))
			continue;
		if (!(op->flags & SCST_CDB_HAS_SA))
			return op;
		*has_sa = true;
		if (use_sa && op->sa == sa)
			return op;
	}
	return NULL;
}

/**
 * scst_cdb_group_len() - CDB length from the GROUP CODE of an opcode
 * @opcode: OPERATION CODE
 *
 * SPC-4 §4.2.5.1: group 0 is 6 bytes, groups 1 and 2 are 10, group 4 is
 * 16 and group 5 is 12 bytes long.
 *
 * Return: the CDB length, or -EINVAL for the reserved group 3 (and the
 * variable length CDBs of 7Fh) and the vendor specific groups 6 and 7.
 */
int scst_cdb_group_len(u8 opcode)
{
	static const s8 len[8] = { 6, 10, 10, -EINVAL, 16, 12,
				   -EINVAL, -EINVAL };

	return len[opcode >> 5];
}
EXPORT_SYMBOL_GPL(scst_cdb_group_len);

/**
 * scst_cdb_decode() - decode and check a CDB
 * @cdb: the CDB
 * @cdb_len: number of valid bytes at @cdb
 * @dev_type: PERIPHERAL DEVICE TYPE of the logical unit; SBC-3 commands
 *	are decoded for direct-access devices (type 00h) only
 * @block_shift: log2 of the logical block length
 * @info: receives what the command asks for
 * @err: receives why the command is rejected
 *
 * Unknown operation codes fail with INVALID COMMAND OPERATION CODE
 * (field pointer: byte 0). A known operation code with an unsupported
 * SERVICE ACTION, a CDB shorter than its command's, NACA set in the
 * CONTROL byte (ACA is not supported, SAM-5 §5.9), a transfer whose length
 * in bytes does not fit in 32 bits and invalid values of the fields each
 * command's standard requires checking fail with INVALID FIELD IN CDB and
 * a field pointer (SPC-4 §4.5.2.4.2) where there is a field to point at.
 * Range checks against the capacity are left to scst_cdb_check_lba().
 *
 * Return: 0, or -EINVAL with @err filled in.
 */
int scst_cdb_decode(const u8 *cdb, unsigned int cdb_len, u8 dev_type,
		    unsigned int block_shift, struct scst_cdb_info *info,
		    struct scst_cdb_err *err)
{
	const struct scst_cdb_op *op;
	bool has_sa;
	u64 len = 0;
	int ret;

	memset(info, 0, sizeof(*info));
	if (!cdb_len)
		return cdb_invalid(err, -1, -1);

	op = scst_cdb_find(cdb[0], cdb_len > 1 ? cdb[1] & 0x1f : 0,
			   cdb_len > 1, dev_type, &has_sa);
	/* known from here on, whatever the fields say (scst_cdb.h) */
	if (!op)
		info->facts = scst_cdb_facts_other(cdb, cdb_len);
	else if (op->refine)
		info->facts = op->refine(cdb, cdb_len, op->facts);
	else
		info->facts = op->facts;
	if (op)
		info->op_id = op->id;
	if (!op && !has_sa)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_OPCODE, true,
					0, -1);
	if (!op && cdb_len > 1) {
		cdb_invalid(err, 1, 4);
		if (err)
			err->unknown_sa = true;
		return -EINVAL;
	}
	if (!op || cdb_len < op->cdb_len)
		return cdb_invalid(err, -1, -1);
	if (cdb[op->cdb_len - 1] & CDB_CONTROL_NACA)
		return cdb_invalid(err, op->cdb_len - 1, 2);

	info->opcode = op->opcode;
	info->service_action = op->flags & SCST_CDB_HAS_SA ? op->sa : 0;
	info->name = op->name;
	info->direction = op->dir;
	info->flags = op->flags;
	info->cdb_len = op->cdb_len;
	info->len_off = op->len_len ? op->len_off : 0;

	if (op->lba_len == 4)
		info->lba = get_unaligned_be32(cdb + op->lba_off);
	else if (op->lba_len == 8)
		info->lba = get_unaligned_be64(cdb + op->lba_off);

	switch (op->len_len) {
	case 1:
		len = cdb[op->len_off];
		break;
	case 2:
		len = get_unaligned_be16(cdb + op->len_off);
		break;
	case 4:
		len = get_unaligned_be32(cdb + op->len_off);
		break;
	}
	if (op->len_len) {
		if (op->flags & SCST_CDB_BLOCK_XFER) {
			info->nblocks = len;
			ret = cdb_set_blocks(info, len, block_shift,
					     op->len_off, err);
			if (ret)
				return ret;
		} else if (op->flags & (SCST_CDB_ALLOC_LEN |
					SCST_CDB_PARAM_LIST)) {
			info->bufflen = (u32)len;
		} else {
			info->nblocks = len;
		}
	}

	if (op->check) {
		struct scst_cdb_ctx c = {
			.cdb = cdb, .op = op, .block_shift = block_shift,
			.info = info, .err = err,
		};

		return op->check(&c);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(scst_cdb_decode);

/**
 * scst_cdb_facts() - the facts of a CDB, as scst_cdb_decode() sets them
 * @cdb: the CDB
 * @cdb_len: number of valid bytes at @cdb; 0 has no facts
 *
 * For the pure callers that are given a CDB rather than a decoded
 * command (and their tests): a direct-access logical unit's.
 *
 * Return: the SCST_OPF_* facts, whether or not the CDB is valid.
 */
u32 scst_cdb_facts(const u8 *cdb, unsigned int cdb_len)
{
	struct scst_cdb_info info;

	scst_cdb_decode(cdb, cdb_len, SCST_TYPE_DISK, 9, &info, NULL);
	return info.facts;
}
EXPORT_SYMBOL_GPL(scst_cdb_facts);

/**
 * scst_cdb_check_lba() - check the range a command addresses
 * @info: the command, from scst_cdb_decode()
 * @capacity_blocks: capacity of the logical unit in logical blocks
 * @err: receives the error
 *
 * For commands with SCST_CDB_LBA_CHECK: the LOGICAL BLOCK ADDRESS must
 * address a block of the medium, at most the last LBA, even when no block
 * is transferred (SBC-3 §4.5: an LBA beyond the last one is out of range
 * whatever the TRANSFER LENGTH; §5.11 READ(10) etc. then check that lba +
 * nblocks does not exceed the capacity), else LOGICAL BLOCK ADDRESS OUT
 * OF RANGE.
 *
 * Return: 0, or -EINVAL with @err filled in.
 */
int scst_cdb_check_lba(const struct scst_cdb_info *info, u64 capacity_blocks,
		       struct scst_cdb_err *err)
{
	if (!(info->flags & SCST_CDB_LBA_CHECK))
		return 0;
	if (info->lba >= capacity_blocks ||
	    info->nblocks > capacity_blocks - info->lba)
		return scst_cdb_err_set(err, SCST_SENSE_LBA_OUT_OF_RANGE,
					true, -1, -1);
	return 0;
}
EXPORT_SYMBOL_GPL(scst_cdb_check_lba);

/**
 * scst_cdb_check_xfer_limit() - check a command against the transfer limit
 * @info: the command, from scst_cdb_decode()
 * @max_xfer_bytes: the largest data buffer the nexus accepts, a multiple of
 *	the logical block size; the Block Limits VPD page reports it as
 *	MAXIMUM TRANSFER LENGTH and MAXIMUM WRITE SAME LENGTH
 * @block_shift: log2 of the logical block length
 * @err: receives the error
 *
 * SBC-3 §6.5.3: a READ, WRITE, VERIFY, WRITE AND VERIFY or COMPARE AND
 * WRITE whose TRANSFER LENGTH (NUMBER OF LOGICAL BLOCKS) exceeds MAXIMUM
 * TRANSFER LENGTH fails with INVALID FIELD IN CDB; SBC-3 §5.42: so does a
 * WRITE SAME beyond MAXIMUM WRITE SAME LENGTH. Any other data buffer the
 * CDB asks for (a parameter list, COMPARE AND WRITE's two halves) must
 * fit in @max_xfer_bytes too, so that no initiator sizes an allocation.
 * An ALLOCATION LENGTH is exempt: the core allocates what the command
 * builds, not what the initiator offers (SPC-4 §4.2.5.6).
 *
 * Return: 0, or -EINVAL with @err set to INVALID FIELD IN CDB and the
 * field pointer on the length field; checked before any buffer exists.
 */
int scst_cdb_check_xfer_limit(const struct scst_cdb_info *info,
			      u32 max_xfer_bytes, unsigned int block_shift,
			      struct scst_cdb_err *err)
{
	u64 max_blocks = block_shift < 32 ? max_xfer_bytes >> block_shift : 0;
	int byte = info->len_off ? info->len_off : -1;

	if ((info->flags & (SCST_CDB_XFER_LIMIT | SCST_CDB_WS_LIMIT)) &&
	    info->nblocks > max_blocks)
		return cdb_invalid(err, byte, -1);
	if (!(info->flags & SCST_CDB_ALLOC_LEN) &&
	    info->bufflen > max_xfer_bytes)
		return cdb_invalid(err, byte, -1);
	return 0;
}
EXPORT_SYMBOL_GPL(scst_cdb_check_xfer_limit);

/* Copy what fits of @n bytes at @src to @buf + @off, @buf being @len long. */
static void rsoc_put(u8 *buf, size_t len, size_t off, const u8 *src,
		     size_t n)
{
	if (off >= len)
		return;
	memcpy(buf + off, src, min(n, len - off));
}

/* SPC-4 §6.35.4: a command timeouts descriptor; no timeouts reported. */
static void rsoc_timeouts(u8 *d)
{
	memset(d, 0, RSOC_TIMEOUTS_LEN);
	put_unaligned_be16(RSOC_TIMEOUTS_LEN - 2, d);
}

/* SPC-4 §6.35.2: all_commands parameter data. */
static int rsoc_all(u8 dev_type, bool rctd, u8 *buf, size_t buflen)
{
	u8 d[RSOC_ALL_DESC_LEN + RSOC_TIMEOUTS_LEN];
	size_t dlen = RSOC_ALL_DESC_LEN + (rctd ? RSOC_TIMEOUTS_LEN : 0);
	const struct scst_cdb_op *op;
	size_t off = 4, i;
	u8 hdr[4];

	for (i = 0; i < ARRAY_SIZE(scst_cdb_ops); i++) {
		op = &scst_cdb_ops[i];
		if (!scst_cdb_op_applies(op, dev_type))
			continue;
		memset(d, 0, sizeof(d));
		d[0] = op->opcode;
		if (op->flags & SCST_CDB_HAS_SA) {
			put_unaligned_be16(op->sa, d + 2);
			d[5] |= 0x01;	/* SERVACTV */
		}
		if (rctd) {
			d[5] |= 0x02;	/* CTDP */
			rsoc_timeouts(d + RSOC_ALL_DESC_LEN);
		}
		put_unaligned_be16(op->cdb_len, d + 6);
		rsoc_put(buf, buflen, off, d, dlen);
		off += dlen;
	}
	put_unaligned_be32(off - 4, hdr);
	rsoc_put(buf, buflen, 0, hdr, sizeof(hdr));
	return off;
}

/* SPC-4 §6.35.3: one_command parameter data. */
static int rsoc_one(const struct scst_cdb_op *op, bool rctd, u8 *buf,
		    size_t buflen)
{
	u8 d[RSOC_ONE_HDR_LEN + SCST_CDB_MAX_LEN + RSOC_TIMEOUTS_LEN];
	size_t off = RSOC_ONE_HDR_LEN;

	memset(d, 0, sizeof(d));
	if (!op) {
		d[1] = RSOC_SUPPORT_NONE;
		rsoc_put(buf, buflen, 0, d, RSOC_ONE_HDR_LEN);
		return RSOC_ONE_HDR_LEN;
	}
	d[1] = RSOC_SUPPORT_STD | (rctd ? 0x80 : 0);
	put_unaligned_be16(op->cdb_len, d + 2);
	memcpy(d + off, op->usage, op->cdb_len);
	off += op->cdb_len;
	if (rctd) {
		rsoc_timeouts(d + off);
		off += RSOC_TIMEOUTS_LEN;
	}
	rsoc_put(buf, buflen, 0, d, off);
	return off;
}

/**
 * scst_build_rsoc() - REPORT SUPPORTED OPERATION CODES data, SPC-4 §6.35
 * @cdb: the REPORT SUPPORTED OPERATION CODES CDB
 * @cdb_len: its length
 * @dev_type: PERIPHERAL DEVICE TYPE of the logical unit
 * @buf: buffer for the parameter data
 * @buflen: size of @buf; the data is cut to it
 * @err: receives the error
 *
 * REPORTING OPTIONS 000b (all commands), 001b (one command, by operation
 * code) and 010b (one command, by operation code and service action) are
 * supported, with or without command timeouts descriptors (RCTD; the
 * timeouts are reported as unspecified). 001b for an operation code with
 * service actions and 010b for one without are INVALID FIELD IN CDB.
 *
 * Return: the length of the whole parameter data, or -EINVAL with @err
 * filled in.
 */
int scst_build_rsoc(const u8 *cdb, unsigned int cdb_len, u8 dev_type,
		    u8 *buf, size_t buflen, struct scst_cdb_err *err)
{
	const struct scst_cdb_op *op;
	bool rctd, has_sa;
	u16 sa;

	if (cdb_len < 12)
		return cdb_invalid(err, -1, -1);
	rctd = cdb[2] & RSOC_RCTD;
	switch (cdb[2] & RSOC_OPTS_MASK) {
	case RSOC_OPTS_ALL:
		return rsoc_all(dev_type, rctd, buf, buflen);
	case RSOC_OPTS_OP:
		op = scst_cdb_find(cdb[3], 0, false, dev_type, &has_sa);
		if (has_sa)
			return cdb_invalid(err, 2, 2);
		return rsoc_one(op, rctd, buf, buflen);
	case RSOC_OPTS_OP_SA:
		sa = get_unaligned_be16(cdb + 4);
		op = scst_cdb_find(cdb[3], (u8)sa, sa <= 0x1f, dev_type,
				   &has_sa);
		if (!has_sa) {
			/* Unsupported opcodes have no service actions either */
			if (op)
				return cdb_invalid(err, 2, 2);
			return rsoc_one(NULL, rctd, buf, buflen);
		}
		return rsoc_one(op, rctd, buf, buflen);
	default:
		return cdb_invalid(err, 2, 2);
	}
}
EXPORT_SYMBOL_GPL(scst_build_rsoc);
