// SPDX-License-Identifier: GPL-2.0-only
/*
 * disk_cdb.c - the commands dev_disk passes to the SCSI device although
 * the core's CDB table (scst_core/scst_cdb.c) does not know them, the
 * Block Limits rewrite and the ALUA fields of INQUIRY data. Pure logic:
 * the unit tests compile this file.
 *
 * Each entry names where the command's transfer length is, so that the
 * core can size and bound the buffer before the device sees the CDB; a
 * command not listed here or in the core's table is refused (SCST keeps a
 * table for the same reason: a guessed direction or length would let an
 * initiator make the target move data it did not allocate).
 */
#include "disk_cdb.h"

/* Where a command's transfer length comes from. */
enum disk_len_kind {
	DISK_LEN_NONE,		/* no data */
	DISK_LEN_FIELD,		/* a byte count in the CDB */
	DISK_LEN_EXPECTED,	/* in the parameter data: the announced one */
};

/**
 * struct disk_cdb_op - a pass-through command the core does not decode
 * @opcode: OPERATION CODE
 * @sa: SERVICE ACTION (byte 1 bits 4:0) with @has_sa
 * @has_sa: the entry is for one service action of @opcode
 * @cdb_len: CDB length
 * @dir: data direction (SCST_CDB_DIR_*)
 * @kind: where the length is
 * @len_off: offset of the length field (DISK_LEN_FIELD)
 * @len_len: its size in bytes: 2, 3 or 4
 * @flags: SCST_CDB_ALLOC_LEN or SCST_CDB_PARAM_LIST, SCST_CDB_MEDIUM_WRITE
 *	for every command that changes the device (its medium, firmware,
 *	logs, security state or self-test results), so that a read-only LUN
 *	refuses it (scst_cmd_read_only())
 * @timeout_s: request timeout in seconds for a command that may run far
 *	longer than the queue's default, 0 for the queue's (disk_cdb_timeout())
 */
struct disk_cdb_op {
	u8 opcode;
	u8 sa;
	bool has_sa;
	u8 cdb_len;
	u8 dir;
	u8 kind;
	u8 len_off;
	u8 len_len;
	u32 flags;
	u32 timeout_s;
};

/*
 * Timeouts of the long-running commands (disk_cdb_timeout()): a format or
 * sanitize of a large disk and an extended foreground self-test take
 * hours, a microcode download minutes.
 */
#define DISK_TIMEOUT_FORMAT_S	(24 * 3600)
#define DISK_TIMEOUT_DIAG_S	(4 * 3600)
#define DISK_TIMEOUT_FW_S	(10 * 60)

#define DISK_IN(op, len, off, n) \
	{ .opcode = (op), .cdb_len = (len), .dir = SCST_CDB_DIR_READ, \
	  .kind = DISK_LEN_FIELD, .len_off = (off), .len_len = (n), \
	  .flags = SCST_CDB_ALLOC_LEN }
#define DISK_OUT(op, len, off, n, f) \
	{ .opcode = (op), .cdb_len = (len), .dir = SCST_CDB_DIR_WRITE, \
	  .kind = DISK_LEN_FIELD, .len_off = (off), .len_len = (n), \
	  .flags = SCST_CDB_PARAM_LIST | (f) }
#define DISK_OUT_LONG(op, len, off, n, f, t) \
	{ .opcode = (op), .cdb_len = (len), .dir = SCST_CDB_DIR_WRITE, \
	  .kind = DISK_LEN_FIELD, .len_off = (off), .len_len = (n), \
	  .flags = SCST_CDB_PARAM_LIST | (f), .timeout_s = (t) }
#define DISK_NONE(op, len, f) \
	{ .opcode = (op), .cdb_len = (len), .dir = SCST_CDB_DIR_NONE, \
	  .kind = DISK_LEN_NONE, .flags = (f) }

/* Opcodes checked specially in disk_cdb_decode() */
#define DISK_OP_FORMAT_UNIT		0x04
#define DISK_OP_REASSIGN_BLOCKS		0x07
#define DISK_OP_ATA_PT_12		0xa1
#define DISK_OP_ATA_PT_16		0x85
#define DISK_OP_SECURITY_IN		0xa2
#define DISK_OP_SECURITY_OUT		0xb5
#define DISK_OP_SA_IN_16		0x9e
#define DISK_OP_MAINT_IN		0xa3

static const struct disk_cdb_op disk_cdb_ops[] = {
	/* SBC-3 §5.3 FORMAT UNIT: data-out with FMTDATA, see below */
	{ .opcode = DISK_OP_FORMAT_UNIT, .cdb_len = 6,
	  .dir = SCST_CDB_DIR_WRITE, .kind = DISK_LEN_EXPECTED,
	  .flags = SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE,
	  .timeout_s = DISK_TIMEOUT_FORMAT_S },
	/* SBC-3 §5.20 REASSIGN BLOCKS: the list length is in its header */
	{ .opcode = DISK_OP_REASSIGN_BLOCKS, .cdb_len = 6,
	  .dir = SCST_CDB_DIR_WRITE, .kind = DISK_LEN_EXPECTED,
	  .flags = SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE },
	DISK_IN(0x1c, 6, 3, 2),		/* SPC-4 RECEIVE DIAGNOSTIC RESULTS */
	/* SPC-4 §6.42 SEND DIAGNOSTIC: a foreground self-test runs in it */
	DISK_OUT_LONG(0x1d, 6, 3, 2, SCST_CDB_MEDIUM_WRITE,
		      DISK_TIMEOUT_DIAG_S),
	DISK_NONE(0x34, 10, 0),		/* SBC-3 PRE-FETCH(10) */
	DISK_IN(0x37, 10, 7, 2),	/* SBC-3 READ DEFECT DATA(10) */
	/* SPC-4 §6.49 WRITE BUFFER: microcode download and activation */
	DISK_OUT_LONG(0x3b, 10, 6, 3, SCST_CDB_MEDIUM_WRITE,
		      DISK_TIMEOUT_FW_S),
	DISK_IN(0x3c, 10, 6, 3),	/* SPC-4 READ BUFFER */
	DISK_IN(0x3e, 10, 7, 2),	/* SBC-3 READ LONG(10) */
	DISK_OUT(0x3f, 10, 7, 2, SCST_CDB_MEDIUM_WRITE), /* WRITE LONG(10) */
	/* SBC-3 §5.30 SANITIZE */
	DISK_OUT_LONG(0x48, 10, 7, 2, SCST_CDB_MEDIUM_WRITE,
		      DISK_TIMEOUT_FORMAT_S),
	/* SPC-4 §6.6 LOG SELECT: resets or sets the device's log pages */
	DISK_OUT(0x4c, 10, 7, 2, SCST_CDB_MEDIUM_WRITE),
	DISK_IN(0x4d, 10, 7, 2),	/* SPC-4 LOG SENSE */
	/* SAT-3 ATA PASS-THROUGH(16) and (12): see disk_cdb_ata() */
	{ .opcode = DISK_OP_ATA_PT_16, .cdb_len = 16,
	  .kind = DISK_LEN_EXPECTED, .flags = SCST_CDB_MEDIUM_WRITE },
	{ .opcode = DISK_OP_ATA_PT_12, .cdb_len = 12,
	  .kind = DISK_LEN_EXPECTED, .flags = SCST_CDB_MEDIUM_WRITE },
	DISK_NONE(0x90, 16, 0),		/* SBC-3 PRE-FETCH(16) */
	DISK_NONE(0x94, 16, SCST_CDB_MEDIUM_WRITE), /* ZBC OUT */
	DISK_IN(0x95, 16, 10, 4),	/* ZBC IN (REPORT ZONES) */
	/* SERVICE ACTION IN(16) the core does not know: REPORT REFERRALS */
	{ .opcode = DISK_OP_SA_IN_16, .sa = 0x13, .has_sa = true,
	  .cdb_len = 16, .dir = SCST_CDB_DIR_READ, .kind = DISK_LEN_FIELD,
	  .len_off = 10, .len_len = 4, .flags = SCST_CDB_ALLOC_LEN },
	/* MAINTENANCE IN: REPORT IDENTIFYING INFORMATION (SPC-4 §6.32) */
	{ .opcode = DISK_OP_MAINT_IN, .sa = 0x05, .has_sa = true,
	  .cdb_len = 12, .dir = SCST_CDB_DIR_READ, .kind = DISK_LEN_FIELD,
	  .len_off = 6, .len_len = 4, .flags = SCST_CDB_ALLOC_LEN },
	DISK_IN(DISK_OP_SECURITY_IN, 12, 6, 4),	/* SPC-4 §6.40 */
	/* SPC-4 §6.41: changes the security state (TCG Opal locking) */
	DISK_OUT(DISK_OP_SECURITY_OUT, 12, 6, 4, SCST_CDB_MEDIUM_WRITE),
	DISK_IN(0xb7, 12, 6, 4),	/* SBC-3 READ DEFECT DATA(12) */
};

bool disk_cdb_refused(const u8 *cdb)
{
	/*
	 * PERSISTENT RESERVE IN/OUT never get here: the core answers them
	 * for every handler (scst_pr_dev.c), so that the reservations of
	 * the exported LU are the target's, not the backing device's.
	 */
	switch (cdb[0]) {
	case 0x83:	/* EXTENDED COPY */
	case 0x84:	/* RECEIVE COPY RESULTS */
		return true;
	default:
		return false;
	}
}

static const struct disk_cdb_op *disk_cdb_find(const u8 *cdb,
					       unsigned int cdb_len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(disk_cdb_ops); i++) {
		const struct disk_cdb_op *op = &disk_cdb_ops[i];

		if (op->opcode != cdb[0])
			continue;
		if (op->has_sa && (cdb_len < 2 || (cdb[1] & 0x1f) != op->sa))
			continue;
		return op;
	}
	return NULL;
}

/*
 * SAT-3 §12.2.2: T_LENGTH (byte 2 bits 1:0) 0 means no data; T_DIR (bit
 * 3) 1 is from the device. The length is in ATA registers in units the
 * CDB chooses; the announced one is used.
 */
static u8 disk_cdb_ata_dir(const u8 *cdb)
{
	if (!(cdb[2] & 0x03))
		return SCST_CDB_DIR_NONE;
	return cdb[2] & 0x08 ? SCST_CDB_DIR_READ : SCST_CDB_DIR_WRITE;
}

static u32 disk_cdb_field(const u8 *cdb, const struct disk_cdb_op *op)
{
	const u8 *p = cdb + op->len_off;

	switch (op->len_len) {
	case 2:
		return get_unaligned_be16(p);
	case 3:
		return (u32)p[0] << 16 | (u32)p[1] << 8 | p[2];
	default:
		return get_unaligned_be32(p);
	}
}

int disk_cdb_decode(const u8 *cdb, unsigned int cdb_len, u8 expected_dir,
		    u32 expected_len, u32 max_len, struct scst_cdb_info *info,
		    struct scst_cdb_err *err)
{
	const struct disk_cdb_op *op;
	u64 len = 0;
	u8 dir;

	memset(info, 0, sizeof(*info));
	if (!cdb_len)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, -1, -1);
	op = disk_cdb_find(cdb, cdb_len);
	if (!op)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_OPCODE, true,
					0, -1);
	if (cdb_len < op->cdb_len)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, -1, -1);

	dir = op->dir;
	if (op->opcode == DISK_OP_ATA_PT_12 || op->opcode == DISK_OP_ATA_PT_16)
		dir = disk_cdb_ata_dir(cdb);
	/* SBC-3 §5.3.1: FMTDATA (byte 1 bit 4) 0: no parameter list */
	if (op->opcode == DISK_OP_FORMAT_UNIT && !(cdb[1] & 0x10))
		dir = SCST_CDB_DIR_NONE;

	if (dir != SCST_CDB_DIR_NONE && op->kind == DISK_LEN_EXPECTED) {
		/* the length is not in the CDB: the transport's must fit */
		if (expected_dir != dir || expected_len > max_len)
			return scst_cdb_err_set(err,
						SCST_SENSE_INVALID_FIELD_IN_CDB,
						true, -1, -1);
		len = expected_len;
	} else if (op->kind == DISK_LEN_FIELD) {
		len = disk_cdb_field(cdb, op);
		/* SPC-4 §6.40/§6.41: INC_512 counts 512-byte units */
		if ((op->opcode == DISK_OP_SECURITY_IN ||
		     op->opcode == DISK_OP_SECURITY_OUT) && (cdb[4] & 0x80))
			len <<= 9;
		if (len > U32_MAX)
			return scst_cdb_err_set(err,
						SCST_SENSE_INVALID_FIELD_IN_CDB,
						true, op->len_off, -1);
	}

	/* a zero length is no data phase (SEND DIAGNOSTIC's self-test) */
	if (!len)
		dir = SCST_CDB_DIR_NONE;
	info->opcode = op->opcode;
	info->service_action = op->has_sa ? op->sa : 0;
	info->name = "pass-through";
	info->direction = dir;
	info->flags = op->flags;
	if (dir == SCST_CDB_DIR_NONE) {
		info->flags &= ~(SCST_CDB_ALLOC_LEN | SCST_CDB_PARAM_LIST);
		len = 0;
	} else if (dir == SCST_CDB_DIR_READ) {
		info->flags &= ~SCST_CDB_PARAM_LIST;
		if (op->kind == DISK_LEN_EXPECTED)
			info->flags &= ~SCST_CDB_ALLOC_LEN;
	} else {
		info->flags &= ~SCST_CDB_ALLOC_LEN;
	}
	info->bufflen = (u32)len;
	info->cdb_len = op->cdb_len;
	info->len_off = op->kind == DISK_LEN_FIELD ? op->len_off : 0;
	return 0;
}

unsigned int disk_cdb_timeout(const u8 *cdb, unsigned int cdb_len)
{
	const struct disk_cdb_op *op;

	if (!cdb_len)
		return 0;
	op = disk_cdb_find(cdb, cdb_len);
	return op ? op->timeout_s : 0;
}

bool disk_vpd_b0_limit(u8 *page, u32 len, u32 max_blocks)
{
	bool changed = false;
	u64 ws;
	u32 v;

	if (len < DISK_VPD_B0_MIN_LEN || page[1] != DISK_VPD_BLOCK_LIMITS)
		return false;
	v = get_unaligned_be32(page + DISK_VPD_B0_MAX_XFER_OFF);
	if (!v || v > max_blocks) {
		put_unaligned_be32(max_blocks, page + DISK_VPD_B0_MAX_XFER_OFF);
		changed = true;
	}
	v = get_unaligned_be32(page + DISK_VPD_B0_OPT_XFER_OFF);
	if (v > max_blocks) {
		put_unaligned_be32(max_blocks, page + DISK_VPD_B0_OPT_XFER_OFF);
		changed = true;
	}
	/*
	 * SBC-3 §6.6.4: MAXIMUM WRITE SAME LENGTH is what the core enforces
	 * for WRITE SAME (SCST_CDB_WS_LIMIT, scst_cdb_parse(), the same
	 * limit as MAXIMUM TRANSFER LENGTH): the device's own or none (0)
	 * would have Linux sd size WRITE SAME beyond it, get INVALID FIELD
	 * IN CDB and turn WRITE SAME off. Only a page long enough to hold
	 * the field (SBC-3, not SBC-2) has it.
	 */
	if (len < DISK_VPD_B0_WS_END)
		return changed;
	ws = get_unaligned_be64(page + DISK_VPD_B0_MAX_WS_OFF);
	if (!ws || ws > max_blocks) {
		put_unaligned_be64(max_blocks, page + DISK_VPD_B0_MAX_WS_OFF);
		changed = true;
	}
	return changed;
}

bool disk_inq_set_tpgs(u8 *buf, u32 len, u8 tpgs)
{
	if (len <= DISK_INQ_TPGS_OFF)
		return false;
	buf[DISK_INQ_TPGS_OFF] = (buf[DISK_INQ_TPGS_OFF] & ~DISK_INQ_TPGS_MASK) |
				 (tpgs & DISK_INQ_TPGS_MASK);
	return true;
}

/* SPC-4 §7.8.6.1 table 482: the designator header */
#define VPD_HDR_LEN		4
#define DESIG_HDR_LEN		4
#define DESIG_CODE_SET_BINARY	0x01
#define DESIG_ASSOC_MASK	0x30
#define DESIG_ASSOC_PORT	0x10
#define DESIG_TYPE_MASK		0x0f
#define DESIG_VENDOR		0x0
#define DESIG_REL_PORT		0x4
#define DESIG_TPG		0x5
/* SPC-4 §7.8.6.7, §7.8.6.8: both designators are 4 bytes */
#define DESIG_PORT_ID_LEN	4
#define DESIG_PORT_ID_SIZE	(DESIG_HDR_LEN + DESIG_PORT_ID_LEN)

/*
 * A relative target port or target port group designator: binary, target
 * port association, PIV 0 (no PROTOCOL IDENTIFIER claimed), the 16-bit
 * identifier in bytes 6-7.
 */
static void disk_desig_port_id(u8 *d, u8 type, u16 id)
{
	d[0] = DESIG_CODE_SET_BINARY;
	d[1] = DESIG_ASSOC_PORT | type;
	d[2] = 0;
	d[3] = DESIG_PORT_ID_LEN;
	d[4] = 0;
	d[5] = 0;
	put_unaligned_be16(id, d + 6);
}

u32 disk_vpd83_alua(u8 *page, u32 len, u32 cap, u16 rel_tgt_id, u16 tpg_id)
{
	u8 add[DISK_VPD83_ADD_MAX];
	u32 page_end, end, off, n = 0;
	u8 type;

	len = min(len, cap);
	if (len < VPD_HDR_LEN || page[1] != DISK_VPD_DEVICE_ID)
		return len;
	page_end = VPD_HDR_LEN + get_unaligned_be16(page + 2);
	end = min(len, page_end);
	/*
	 * Byte 1 says what a designator is, byte 3 how long it is: the
	 * device's port designators are made vendor specific wherever
	 * byte 1 is within what was returned, the walk goes on while
	 * byte 3 is. The page keeps its size and layout, so that what an
	 * allocation length cuts is the start of the whole page, and PAGE
	 * LENGTH is the same whatever the allocation length.
	 */
	off = VPD_HDR_LEN;
	while (off + 1 < end) {
		type = page[off + 1] & DESIG_TYPE_MASK;
		if ((page[off + 1] & DESIG_ASSOC_MASK) == DESIG_ASSOC_PORT &&
		    (type == DESIG_REL_PORT || type == DESIG_TPG))
			page[off + 1] &= ~DESIG_TYPE_MASK;	/* DESIG_VENDOR */
		if (off + DESIG_HDR_LEN > end)
			break;
		off += DESIG_HDR_LEN + page[off + 3];
	}
	/* the designators must end at PAGE LENGTH, or we cannot tell where */
	if (len >= page_end && off != page_end)
		return page_end;
	if (rel_tgt_id) {
		disk_desig_port_id(add + n, DESIG_REL_PORT, rel_tgt_id);
		n += DESIG_PORT_ID_SIZE;
	}
	if (tpg_id) {
		disk_desig_port_id(add + n, DESIG_TPG, tpg_id);
		n += DESIG_PORT_ID_SIZE;
	}
	if (!n || page_end - VPD_HDR_LEN + n > 0xffff)
		return min(len, page_end);
	put_unaligned_be16(page_end - VPD_HDR_LEN + n, page + 2);
	if (len < page_end)
		return len;	/* ours are past the allocation length */
	n = min(n, cap - page_end);
	memcpy(page + page_end, add, n);
	return page_end + n;
}
