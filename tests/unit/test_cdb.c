// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for scst_core/scst_cdb.c: CDB decoding (SPC-4, SBC-3) and
 * REPORT SUPPORTED OPERATION CODES data (SPC-4 §6.35). CDBs and expected
 * results are written out by hand from the standards.
 */
#include "unit.h"
#include <scst_cdb.h>

/* Expected flags, spelt out independently of scst_cdb.c's shorthands. */
#define X_SBC	SCST_CDB_SBC
#define X_RD	(SCST_CDB_SBC | SCST_CDB_LBA_CHECK | SCST_CDB_BLOCK_XFER | \
		 SCST_CDB_XFER_LIMIT)
#define X_WR	(X_RD | SCST_CDB_MEDIUM_WRITE)
#define X_ANY	(SCST_CDB_NO_LUN_OK | SCST_CDB_UA_EXEMPT | \
		 SCST_CDB_RESV_ALLOWED | SCST_CDB_ALLOC_LEN)
#define X_WS	(SCST_CDB_SBC | SCST_CDB_LBA_CHECK | SCST_CDB_MEDIUM_WRITE | \
		 SCST_CDB_WS_LIMIT | SCST_CDB_EXACT_OUT)
#define X_SA	(SCST_CDB_SBC | SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN)

#define NONE	SCST_CDB_DIR_NONE
#define OUT	SCST_CDB_DIR_WRITE
#define IN	SCST_CDB_DIR_READ

struct good_case {
	const char *what;
	u8 cdb[16];
	unsigned int len;
	u8 dev_type;
	unsigned int shift;
	const char *name;
	u16 sa;
	u8 dir;
	u32 flags;
	u64 lba;
	u64 nblocks;
	u32 bufflen;
	bool fua, dpo, immed, unmap, ndob;
	u8 bytchk;
};

static const struct good_case good_cases[] = {
	{ "TUR", { 0x00 }, 6, 0, 9, "TEST UNIT READY", 0, NONE, 0, .bufflen = 0 },
	{ "REQUEST SENSE", { 0x03, 0x01, 0, 0, 0xfc }, 6, 0, 9,
	  "REQUEST SENSE", 0, IN, X_ANY, .bufflen = 252 },
	{ "INQUIRY std", { 0x12, 0, 0, 0x01, 0x00 }, 6, 0, 9, "INQUIRY", 0,
	  IN, X_ANY, .bufflen = 256 },
	{ "INQUIRY vpd 83", { 0x12, 0x01, 0x83, 0x00, 0xff }, 6, 0, 9,
	  "INQUIRY", 0, IN, X_ANY, .bufflen = 255 },
	{ "INQUIRY on a CD-ROM", { 0x12, 0, 0, 0, 36 }, 6, 5, 11, "INQUIRY",
	  0, IN, X_ANY, .bufflen = 36 },
	{ "MODE SELECT(6)", { 0x15, 0x10, 0, 0, 0x18 }, 6, 0, 9,
	  "MODE SELECT(6)", 0, OUT, SCST_CDB_PARAM_LIST, .bufflen = 24 },
	{ "MODE SELECT(6) PF=0 no data", { 0x15, 0x00, 0, 0, 0 }, 6, 0, 9,
	  "MODE SELECT(6)", 0, OUT, SCST_CDB_PARAM_LIST, .bufflen = 0 },
	{ "MODE SELECT(10)", { 0x55, 0x10, 0, 0, 0, 0, 0, 0x01, 0x00 }, 10,
	  0, 9, "MODE SELECT(10)", 0, OUT, SCST_CDB_PARAM_LIST,
	  .bufflen = 256 },
	{ "MODE SENSE(6)", { 0x1a, 0x08, 0x3f, 0, 0xc0 }, 6, 0, 9,
	  "MODE SENSE(6)", 0, IN, SCST_CDB_ALLOC_LEN, .bufflen = 192 },
	{ "MODE SENSE(10)", { 0x5a, 0x10, 0x08, 0, 0, 0, 0, 0x10, 0x00 }, 10,
	  0, 9, "MODE SENSE(10)", 0, IN, SCST_CDB_ALLOC_LEN,
	  .bufflen = 4096 },
	{ "START STOP UNIT immed", { 0x1b, 0x01, 0, 0, 0x01 }, 6, 0, 9,
	  "START STOP UNIT", 0, NONE, X_SBC, .immed = true },
	{ "PREVENT ALLOW", { 0x1e, 0, 0, 0, 0x01 }, 6, 0, 9,
	  "PREVENT ALLOW MEDIUM REMOVAL", 0, NONE, 0, .bufflen = 0 },
	{ "READ CAPACITY(10)", { 0x25 }, 10, 0, 9, "READ CAPACITY(10)", 0,
	  IN, X_SBC, .bufflen = 8 },
	{ "READ CAPACITY(10) PMI", { 0x25, 0, 0, 0, 0, 5, 0, 0, 0x01 }, 10,
	  0, 9, "READ CAPACITY(10)", 0, IN, X_SBC, .bufflen = 8 },
	{ "READ CAPACITY(16)", { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0x20 }, 16, 0, 9, "READ CAPACITY(16)", 0x10, IN, X_SA,
	  .bufflen = 32 },
	{ "GET LBA STATUS", { 0x9e, 0x12, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0, 0,
	  0, 24 }, 16, 0, 9, "GET LBA STATUS", 0x12, IN,
	  X_SA | SCST_CDB_LBA_CHECK, .lba = 0x1234, .nblocks = 1,
	  .bufflen = 24 },
	{ "READ(6) length 0 is 256", { 0x08, 0x1f, 0xff, 0xff, 0x00 }, 6, 0,
	  9, "READ(6)", 0, IN, X_RD, .lba = 0x1fffff, .nblocks = 256,
	  .bufflen = 131072 },
	{ "READ(6) old LUN bits", { 0x08, 0xe1, 0x02, 0x03, 0x08 }, 6, 0, 12,
	  "READ(6)", 0, IN, X_RD, .lba = 0x10203, .nblocks = 8,
	  .bufflen = 32768 },
	{ "WRITE(6)", { 0x0a, 0x00, 0x00, 0x10, 0x01 }, 6, 0, 9, "WRITE(6)",
	  0, OUT, X_WR, .lba = 16, .nblocks = 1, .bufflen = 512 },
	{ "READ(10) DPO FUA", { 0x28, 0x18, 0x12, 0x34, 0x56, 0x78, 0x1f,
	  0x00, 0x80 }, 10, 0, 9, "READ(10)", 0, IN, X_RD,
	  .lba = 0x12345678, .nblocks = 128, .bufflen = 65536, .fua = true,
	  .dpo = true },
	{ "WRITE(10) zero blocks", { 0x2a, 0, 0, 0, 0, 0x10 }, 10, 0, 9,
	  "WRITE(10)", 0, OUT, X_WR, .lba = 16 },
	{ "WRITE(10) longest at 64 KiB blocks", { 0x2a, 0, 0, 0, 0, 0, 0,
	  0xff, 0xff }, 10, 0, 16, "WRITE(10)", 0, OUT, X_WR,
	  .nblocks = 0xffff, .bufflen = 0xffff0000 },
	{ "READ(12)", { 0xa8, 0x08, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0x01, 0x00
	  }, 12, 0, 9, "READ(12)", 0, IN, X_RD, .lba = 0xfffffffe,
	  .nblocks = 256, .bufflen = 131072, .fua = true },
	{ "WRITE(12)", { 0xaa, 0x10, 0, 0, 0, 1, 0, 0, 0, 2 }, 12, 0, 9,
	  "WRITE(12)", 0, OUT, X_WR, .lba = 1, .nblocks = 2, .bufflen = 1024,
	  .dpo = true },
	{ "READ(16)", { 0x88, 0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
	  0xef, 0, 0, 0, 0x10 }, 16, 0, 12, "READ(16)", 0, IN, X_RD,
	  .lba = 0x0123456789abcdefULL, .nblocks = 16, .bufflen = 65536 },
	{ "READ(16) longest", { 0x88, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x7f,
	  0xff, 0xff }, 16, 0, 9, "READ(16)", 0, IN, X_RD,
	  .nblocks = 0x7fffff, .bufflen = 0xfffffe00 },
	{ "WRITE(16) FUA", { 0x8a, 0x08, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8
	  }, 16, 0, 9, "WRITE(16)", 0, OUT, X_WR, .lba = 1ULL << 32,
	  .nblocks = 8, .bufflen = 4096, .fua = true },
	{ "WRITE AND VERIFY(10) BYTCHK 1", { 0x2e, 0x02, 0, 0, 0, 7, 0, 0, 1
	  }, 10, 0, 9, "WRITE AND VERIFY(10)", 0, OUT, X_WR, .lba = 7,
	  .nblocks = 1, .bufflen = 512, .bytchk = 1 },
	{ "WRITE AND VERIFY(16) DPO", { 0x8e, 0x10, 0, 0, 0, 0, 0, 0, 0, 9, 0,
	  0, 0, 4 }, 16, 0, 9, "WRITE AND VERIFY(16)", 0, OUT, X_WR, .lba = 9,
	  .nblocks = 4, .bufflen = 2048, .dpo = true },
	{ "VERIFY(10) BYTCHK 0: no data", { 0x2f, 0x00, 0, 0, 0, 7, 0, 0, 16
	  }, 10, 0, 9, "VERIFY(10)", 0, NONE,
	  SCST_CDB_SBC | SCST_CDB_LBA_CHECK | SCST_CDB_XFER_LIMIT, .lba = 7,
	  .nblocks = 16 },
	{ "VERIFY(16) BYTCHK 1", { 0x8f, 0x02, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0,
	  0, 16 }, 16, 0, 9, "VERIFY(16)", 0, OUT, X_RD, .lba = 7,
	  .nblocks = 16, .bufflen = 8192, .bytchk = 1 },
	{ "WRITE AND VERIFY(12)", { 0xae, 0x00, 0, 0, 0x01, 0x00, 0, 0, 0, 2
	  }, 12, 0, 9, "WRITE AND VERIFY(12)", 0, OUT, X_WR, .lba = 0x100,
	  .nblocks = 2, .bufflen = 1024 },
	{ "VERIFY(12) BYTCHK 1", { 0xaf, 0x02, 0, 0, 0, 3, 0, 0, 0, 4 }, 12,
	  0, 9, "VERIFY(12)", 0, OUT, X_RD, .lba = 3, .nblocks = 4,
	  .bufflen = 2048, .bytchk = 1 },
	{ "VERIFY(12) BYTCHK 0: no data", { 0xaf, 0x00, 0, 0, 0, 3, 0, 0, 0,
	  4 }, 12, 0, 9, "VERIFY(12)", 0, NONE,
	  SCST_CDB_SBC | SCST_CDB_LBA_CHECK | SCST_CDB_XFER_LIMIT, .lba = 3,
	  .nblocks = 4 },
	{ "PRE-FETCH(10) IMMED", { 0x34, 0x02, 0, 0, 0, 0x10, 0, 0, 8 }, 10,
	  0, 9, "PRE-FETCH(10)", 0, NONE, SCST_CDB_SBC | SCST_CDB_LBA_CHECK,
	  .lba = 0x10, .nblocks = 8, .immed = true },
	{ "PRE-FETCH(16) to the end", { 0x90, 0, 0, 0, 0, 0, 0, 0, 0, 5 }, 16,
	  0, 9, "PRE-FETCH(16)", 0, NONE, SCST_CDB_SBC | SCST_CDB_LBA_CHECK,
	  .lba = 5 },
	{ "SYNCHRONIZE CACHE(10) whole", { 0x35, 0x02 }, 10, 0, 9,
	  "SYNCHRONIZE CACHE(10)", 0, NONE, SCST_CDB_SBC | SCST_CDB_LBA_CHECK,
	  .immed = true },
	{ "SYNCHRONIZE CACHE(16)", { 0x91, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0,
	  0, 0, 8 }, 16, 0, 9, "SYNCHRONIZE CACHE(16)", 0, NONE,
	  SCST_CDB_SBC | SCST_CDB_LBA_CHECK, .lba = 0x1000, .nblocks = 8 },
	{ "WRITE SAME(10) UNMAP", { 0x41, 0x08, 0, 0, 0, 0x20, 0, 0x00, 0x10
	  }, 10, 0, 9, "WRITE SAME(10)", 0, OUT, X_WS, .lba = 0x20,
	  .nblocks = 16, .bufflen = 512, .unmap = true },
	{ "WRITE SAME(16) 4 KiB", { 0x93, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00,
	  0x01, 0x00, 0x00 }, 16, 0, 12, "WRITE SAME(16)", 0, OUT, X_WS,
	  .nblocks = 65536, .bufflen = 4096 },
	{ "WRITE SAME(16) NDOB UNMAP", { 0x93, 0x09, 0, 0, 0, 0, 0, 0, 0, 0,
	  0, 0, 0, 0x80 }, 16, 0, 9, "WRITE SAME(16)", 0, NONE, X_WS,
	  .nblocks = 128, .unmap = true, .ndob = true },
	{ "UNMAP", { 0x42, 0, 0, 0, 0, 0, 0, 0x00, 0x18 }, 10, 0, 9, "UNMAP",
	  0, OUT, SCST_CDB_SBC | SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE,
	  .bufflen = 24 },
	{ "UNMAP no data", { 0x42 }, 10, 0, 9, "UNMAP", 0, OUT,
	  SCST_CDB_SBC | SCST_CDB_PARAM_LIST | SCST_CDB_MEDIUM_WRITE, .bufflen = 0 },
	{ "COMPARE AND WRITE", { 0x89, 0x08, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0,
	  0, 0x02 }, 16, 0, 9, "COMPARE AND WRITE", 0, OUT, X_WR, .lba = 0x40,
	  .nblocks = 2, .bufflen = 2048, .fua = true },
	{ "COMPARE AND WRITE 255 blocks", { 0x89, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0, 0, 0, 0xff }, 16, 0, 12, "COMPARE AND WRITE", 0, OUT, X_WR,
	  .nblocks = 255, .bufflen = 510 * 4096 },
	{ "REPORT LUNS", { 0xa0, 0, 0x02, 0, 0, 0, 0, 0, 0x10, 0x00 }, 12, 0,
	  9, "REPORT LUNS", 0, IN, X_ANY, .bufflen = 4096 },
	{ "REPORT LUNS 16 bytes", { 0xa0, 0, 0x00, 0, 0, 0, 0, 0, 0, 16 },
	  12, 0, 9, "REPORT LUNS", 0, IN, X_ANY, .bufflen = 16 },
	{ "RSOC", { 0xa3, 0x0c, 0x00, 0, 0, 0, 0, 0, 0x10, 0x00 }, 12, 0, 9,
	  "REPORT SUPPORTED OPERATION CODES", 0x0c, IN,
	  SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN, .bufflen = 4096 },
	{ "RTPG extended", { 0xa3, 0x2a, 0, 0, 0, 0, 0, 0, 0x04, 0x00 }, 12,
	  0, 9, "REPORT TARGET PORT GROUPS", 0x0a, IN,
	  SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN, .bufflen = 1024 },
	{ "STPG 8 bytes", { 0xa4, 0x0a, 0, 0, 0, 0, 0, 0, 0, 8 }, 12, 0, 9,
	  "SET TARGET PORT GROUPS", 0x0a, OUT,
	  SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST, .bufflen = 8 },
	{ "RSOC one command RCTD", { 0xa3, 0x0c, 0x82, 0x9e, 0, 0x10, 0, 0, 0,
	  0xff }, 12, 5, 9, "REPORT SUPPORTED OPERATION CODES", 0x0c, IN,
	  SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN, .bufflen = 255 },
	{ "RESERVE(6)", { 0x16 }, 6, 0, 9, "RESERVE(6)", 0, NONE,
	  SCST_CDB_RESERVE_CMD, .bufflen = 0 },
	{ "RELEASE(6)", { 0x17 }, 6, 0, 9, "RELEASE(6)", 0, NONE,
	  SCST_CDB_RESERVE_CMD | SCST_CDB_RESV_ALLOWED, .bufflen = 0 },
	{ "RESERVE(10)", { 0x56 }, 10, 0, 9, "RESERVE(10)", 0, NONE,
	  SCST_CDB_RESERVE_CMD, .bufflen = 0 },
	{ "RELEASE(10)", { 0x57 }, 10, 0, 9, "RELEASE(10)", 0, NONE,
	  SCST_CDB_RESERVE_CMD | SCST_CDB_RESV_ALLOWED, .bufflen = 0 },
	/* SPC-4 §6.15.1, §6.16.1: for every device type */
	{ "PR IN READ KEYS", { 0x5e, 0x00, 0, 0, 0, 0, 0, 0x20, 0x00 }, 10,
	  0, 9, "PERSISTENT RESERVE IN (READ KEYS)", 0, IN,
	  SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN, .bufflen = 8192 },
	{ "PR IN READ FULL STATUS on a CD-ROM", { 0x5e, 0x03, 0, 0, 0, 0, 0,
	  0x00, 0xff }, 10, 5, 11, "PERSISTENT RESERVE IN (READ FULL STATUS)",
	  3, IN, SCST_CDB_HAS_SA | SCST_CDB_ALLOC_LEN, .bufflen = 255 },
	{ "PR OUT REGISTER", { 0x5f, 0x00, 0, 0, 0, 0, 0, 0, 0x18 }, 10, 0,
	  9, "PERSISTENT RESERVE OUT (REGISTER)", 0, OUT,
	  SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST, .bufflen = 24 },
	{ "PR OUT RESERVE WE_RO", { 0x5f, 0x01, 0x05, 0, 0, 0, 0, 0, 0x18 },
	  10, 0, 9, "PERSISTENT RESERVE OUT (RESERVE)", 1, OUT,
	  SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST, .bufflen = 24 },
	{ "PR OUT REGISTER AND MOVE, largest list", { 0x5f, 0x07, 0, 0, 0,
	  0x00, 0x00, 0x80, 0x00 }, 10, 0, 9,
	  "PERSISTENT RESERVE OUT (REGISTER AND MOVE)", 7, OUT,
	  SCST_CDB_HAS_SA | SCST_CDB_PARAM_LIST, .bufflen = 32768 },
	{ "READ(10) in a 16-byte CDB field", { 0x28, 0, 0, 0, 0, 1, 0, 0, 1
	  }, 16, 0, 9, "READ(10)", 0, IN, X_RD, .lba = 1, .nblocks = 1,
	  .bufflen = 512 },
};

struct bad_case {
	const char *what;
	u8 cdb[16];
	unsigned int len;
	u8 dev_type;
	unsigned int shift;
	u32 sense;
	int byte;	/* -1: no field pointer */
	int bit;
};

#define INV_OP		SCST_SENSE_INVALID_OPCODE
#define INV_FLD		SCST_SENSE_INVALID_FIELD_IN_CDB

static const struct bad_case bad_cases[] = {
	{ "FORMAT UNIT", { 0x04 }, 6, 0, 9, INV_OP, 0, -1 },
	{ "PR IN service action 04h", { 0x5e, 0x04 }, 10, 0, 9, INV_FLD, 1,
	  4 },
	{ "PR OUT service action 08h", { 0x5f, 0x08 }, 10, 0, 9, INV_FLD, 1,
	  4 },
	{ "PR IN in 9 bytes", { 0x5e }, 9, 0, 9, INV_FLD, -1, -1 },
	{ "PR OUT list of 32 KiB + 1", { 0x5f, 0x00, 0, 0, 0, 0x00, 0x00,
	  0x80, 0x01 }, 10, 0, 9, SCST_SENSE_PARAM_LIST_LEN_ERROR, 5, -1 },
	{ "PR OUT list of 4 GiB - 1", { 0x5f, 0x06, 0, 0, 0, 0xff, 0xff,
	  0xff, 0xff }, 10, 0, 9, SCST_SENSE_PARAM_LIST_LEN_ERROR, 5, -1 },
	{ "PR OUT NACA", { 0x5f, 0x00, 0, 0, 0, 0, 0, 0, 0x18, 0x04 }, 10, 0,
	  9, INV_FLD, 9, 2 },
	{ "variable length CDB", { 0x7f }, 16, 0, 9, INV_OP, 0, -1 },
	{ "vendor specific", { 0xc0 }, 16, 0, 9, INV_OP, 0, -1 },
	{ "READ(10) on a CD-ROM", { 0x28 }, 10, 5, 11, INV_OP, 0, -1 },
	{ "READ CAPACITY(16) on a CD-ROM", { 0x9e, 0x10 }, 16, 5, 11, INV_OP,
	  0, -1 },
	{ "SERVICE ACTION IN 13h", { 0x9e, 0x13 }, 16, 0, 9, INV_FLD, 1, 4 },
	{ "MAINTENANCE IN 05h", { 0xa3, 0x05 }, 12, 0, 9, INV_FLD, 1, 4 },
	{ "RTPG format 010b", { 0xa3, 0x4a }, 12, 0, 9, INV_FLD, 1, 7 },
	{ "STPG 261 bytes", { 0xa4, 0x0a, 0, 0, 0, 0, 0, 0, 0x01, 0x05 }, 12, 0,
	  9, INV_FLD, 6, -1 },
	{ "empty CDB", { 0 }, 0, 0, 9, INV_FLD, -1, -1 },
	{ "READ(10) in 6 bytes", { 0x28 }, 6, 0, 9, INV_FLD, -1, -1 },
	{ "READ(16) in 10 bytes", { 0x88 }, 10, 0, 9, INV_FLD, -1, -1 },
	{ "TUR in 5 bytes", { 0x00 }, 5, 0, 9, INV_FLD, -1, -1 },
	{ "RSOC opcode only", { 0xa3 }, 1, 0, 9, INV_FLD, -1, -1 },
	{ "READ CAPACITY(16) in 12 bytes", { 0x9e, 0x10 }, 12, 0, 9, INV_FLD,
	  -1, -1 },
	{ "TUR NACA", { 0x00, 0, 0, 0, 0, 0x04 }, 6, 0, 9, INV_FLD, 5, 2 },
	{ "READ(10) NACA", { 0x28, 0, 0, 0, 0, 0, 0, 0, 0, 0x04 }, 10, 0, 9,
	  INV_FLD, 9, 2 },
	{ "INQUIRY page without EVPD", { 0x12, 0x00, 0x80, 0, 0xff }, 6, 0,
	  9, INV_FLD, 2, -1 },
	{ "INQUIRY CMDDT", { 0x12, 0x02, 0x00, 0, 0xff }, 6, 0, 9, INV_FLD, 1,
	  1 },
	{ "READ(10) RDPROTECT", { 0x28, 0x20, 0, 0, 0, 0, 0, 0, 1 }, 10, 0, 9,
	  INV_FLD, 1, 7 },
	{ "WRITE(16) WRPROTECT", { 0x8a, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0, 1 }, 16, 0, 9, INV_FLD, 1, 7 },
	{ "WRITE(12) WRPROTECT", { 0xaa, 0x40 }, 12, 0, 9, INV_FLD, 1, 7 },
	{ "VERIFY(10) BYTCHK 10b", { 0x2f, 0x04, 0, 0, 0, 0, 0, 0, 1 }, 10, 0,
	  9, INV_FLD, 1, 2 },
	{ "VERIFY(10) BYTCHK 11b", { 0x2f, 0x06, 0, 0, 0, 0, 0, 0, 1 }, 10, 0,
	  9, INV_FLD, 1, 2 },
	{ "VERIFY(16) BYTCHK 11b", { 0x8f, 0x06 }, 16, 0, 9, INV_FLD, 1, 2 },
	{ "VERIFY(16) VRPROTECT", { 0x8f, 0x80 }, 16, 0, 9, INV_FLD, 1, 7 },
	{ "VERIFY(12) BYTCHK 11b", { 0xaf, 0x06 }, 12, 0, 9, INV_FLD, 1, 2 },
	{ "WRITE AND VERIFY(12) WRPROTECT", { 0xae, 0x40 }, 12, 0, 9,
	  INV_FLD, 1, 7 },
	{ "WRITE AND VERIFY(10) BYTCHK 10b", { 0x2e, 0x04 }, 10, 0, 9,
	  INV_FLD, 1, 2 },
	{ "WRITE AND VERIFY(16) WRPROTECT", { 0x8e, 0x20 }, 16, 0, 9,
	  INV_FLD, 1, 7 },
	{ "WRITE SAME(10) ANCHOR", { 0x41, 0x18, 0, 0, 0, 0, 0, 0, 1 }, 10, 0,
	  9, INV_FLD, 1, 4 },
	{ "WRITE SAME(10) PBDATA", { 0x41, 0x04, 0, 0, 0, 0, 0, 0, 1 }, 10, 0,
	  9, INV_FLD, 1, 2 },
	{ "WRITE SAME(10) LBDATA", { 0x41, 0x02, 0, 0, 0, 0, 0, 0, 1 }, 10, 0,
	  9, INV_FLD, 1, 1 },
	{ "WRITE SAME(10) zero blocks (WSNZ)", { 0x41, 0x08 }, 10, 0, 9,
	  INV_FLD, 7, -1 },
	{ "WRITE SAME(16) zero blocks (WSNZ)", { 0x93, 0x01 }, 16, 0, 9,
	  INV_FLD, 10, -1 },
	{ "WRITE SAME(16) WRPROTECT", { 0x93, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0, 0, 1 }, 16, 0, 9, INV_FLD, 1, 7 },
	{ "WRITE SAME(16) ANCHOR", { 0x93, 0x19, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0, 1 }, 16, 0, 9, INV_FLD, 1, 4 },
	{ "UNMAP ANCHOR", { 0x42, 0x01, 0, 0, 0, 0, 0, 0, 24 }, 10, 0, 9,
	  INV_FLD, 1, 0 },
	{ "COMPARE AND WRITE WRPROTECT", { 0x89, 0x20, 0, 0, 0, 0, 0, 0, 0, 0,
	  0, 0, 0, 1 }, 16, 0, 9, INV_FLD, 1, 7 },
	{ "READ(16) 4 GiB", { 0x88, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x80,
	  0x00, 0x00 }, 16, 0, 9, INV_FLD, 10, -1 },
	{ "READ(12) 2^32-1 blocks", { 0xa8, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff,
	  0xff }, 12, 0, 9, INV_FLD, 6, -1 },
	{ "WRITE(10) overflow at 128 KiB blocks", { 0x2a, 0, 0, 0, 0, 0, 0,
	  0xff, 0xff }, 10, 0, 17, INV_FLD, 7, -1 },
	{ "WRITE(6) 256 blocks of 16 MiB", { 0x0a }, 6, 0, 24, INV_FLD, 4, -1 },
	{ "COMPARE AND WRITE 2*255 blocks overflow", { 0x89, 0, 0, 0, 0, 0, 0,
	  0, 0, 0, 0, 0, 0, 0xff }, 16, 0, 24, INV_FLD, 13, -1 },
	{ "READ CAPACITY(10) LBA without PMI", { 0x25, 0, 0, 0, 0, 1 }, 10, 0,
	  9, INV_FLD, 2, -1 },
	{ "READ CAPACITY(16) LBA without PMI", { 0x9e, 0x10, 0, 0, 0, 0, 0, 0,
	  0, 1, 0, 0, 0, 32 }, 16, 0, 9, INV_FLD, 2, -1 },
	{ "REPORT LUNS SELECT REPORT 03h", { 0xa0, 0, 0x03, 0, 0, 0, 0, 0,
	  0x10, 0 }, 12, 0, 9, INV_FLD, 2, -1 },
	{ "REPORT LUNS SELECT REPORT 10h", { 0xa0, 0, 0x10, 0, 0, 0, 0, 0,
	  0x10, 0 }, 12, 0, 9, INV_FLD, 2, -1 },
	{ "REPORT LUNS 15 bytes", { 0xa0, 0, 0, 0, 0, 0, 0, 0, 0, 15 }, 12, 0,
	  9, INV_FLD, 6, -1 },
	{ "RSOC REPORTING OPTIONS 011b", { 0xa3, 0x0c, 0x03, 0, 0, 0, 0, 0, 1
	  }, 12, 0, 9, INV_FLD, 2, 2 },
	{ "RSOC REPORTING OPTIONS 111b", { 0xa3, 0x0c, 0x07, 0, 0, 0, 0, 0, 1
	  }, 12, 0, 9, INV_FLD, 2, 2 },
	{ "MODE SELECT(6) SP", { 0x15, 0x11, 0, 0, 0x18 }, 6, 0, 9, INV_FLD,
	  1, 0 },
	{ "MODE SELECT(10) PF=0", { 0x55, 0x00, 0, 0, 0, 0, 0, 0, 0x18 }, 10,
	  0, 9, INV_FLD, 1, 4 },
	{ "RESERVE(6) 3RDPTY", { 0x16, 0x10 }, 6, 0, 9, INV_FLD, 1, 4 },
	{ "RESERVE(6) extent", { 0x16, 0x01 }, 6, 0, 9, INV_FLD, 1, 0 },
	{ "RESERVE(10) LONGID", { 0x56, 0x02 }, 10, 0, 9, INV_FLD, 1, 1 },
	{ "RELEASE(10) 3RDPTY", { 0x57, 0x10 }, 10, 0, 9, INV_FLD, 1, 4 },
};

static void assert_err(const struct scst_cdb_err *err, u32 sense, int byte,
		       int bit, const char *what)
{
	if (err->sense_code != sense)
		fail_msg("%s: sense %06x, expected %06x", what,
			 err->sense_code, sense);
	if (err->has_field != (byte >= 0))
		fail_msg("%s: has_field %d", what, err->has_field);
	if (byte >= 0 && (err->byte != byte || err->bit != bit ||
			  !err->in_cdb))
		fail_msg("%s: field %u bit %d (in_cdb %d), expected %d bit %d",
			 what, err->byte, err->bit, err->in_cdb, byte, bit);
}

static void test_decode_good(void **state)
{
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good_cases); i++) {
		const struct good_case *c = &good_cases[i];

		memset(&info, FILL, sizeof(info));
		memset(&err, 0, sizeof(err));
		ret = scst_cdb_decode(c->cdb, c->len, c->dev_type, c->shift,
				      &info, &err);
		if (ret)
			fail_msg("%s: %d, sense %06x byte %u", c->what, ret,
				 err.sense_code, err.byte);
		if (info.opcode != c->cdb[0] || strcmp(info.name, c->name) ||
		    info.service_action != c->sa)
			fail_msg("%s: opcode %02x sa %x name %s", c->what,
				 info.opcode, info.service_action, info.name);
		if (info.direction != c->dir || info.flags != c->flags)
			fail_msg("%s: dir %u flags %x, expected %u %x", c->what,
				 info.direction, info.flags, c->dir, c->flags);
		if (info.lba != c->lba || info.nblocks != c->nblocks ||
		    info.bufflen != c->bufflen)
			fail_msg("%s: lba %llx nblocks %llu bufflen %u", c->what,
				 info.lba, info.nblocks, info.bufflen);
		if (info.fua != c->fua || info.dpo != c->dpo ||
		    info.immed != c->immed || info.unmap != c->unmap ||
		    info.ndob != c->ndob || info.bytchk != c->bytchk)
			fail_msg("%s: fua %d dpo %d immed %d unmap %d ndob %d bytchk %u",
				 c->what, info.fua, info.dpo, info.immed,
				 info.unmap, info.ndob, info.bytchk);
		if (info.cdb_len != scst_cdb_group_len(c->cdb[0]))
			fail_msg("%s: cdb_len %u", c->what, info.cdb_len);
	}
}

static void test_decode_bad(void **state)
{
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];

		memset(&err, FILL, sizeof(err));
		if (scst_cdb_decode(c->cdb, c->len, c->dev_type, c->shift,
				    &info, &err) != -EINVAL)
			fail_msg("%s: accepted", c->what);
		assert_err(&err, c->sense, c->byte, c->bit, c->what);
	}
}

/* Every supported CDB cut short by one byte is refused, never read past. */
/*
 * An unknown SERVICE ACTION is reported as such (a pass-through handler
 * passes what it knows), another field at byte 1 bit 4 (MODE SELECT with
 * PF 0 and a parameter list) is not.
 */
static void test_decode_unknown_sa(void **state)
{
	const u8 sai[16] = { 0x9e, 0x13 }, mi[12] = { 0xa3, 0x05 };
	const u8 msel[6] = { 0x15, 0x00, 0, 0, 0x10, 0 };
	const u8 vendor[6] = { 0xc0 };
	struct scst_cdb_info info;
	struct scst_cdb_err err;

	(void)state;
	assert_int_equal(scst_cdb_decode(sai, 16, 0, 9, &info, &err), -EINVAL);
	assert_true(err.unknown_sa);
	assert_int_equal(scst_cdb_decode(mi, 12, 0, 9, &info, &err), -EINVAL);
	assert_true(err.unknown_sa);
	assert_int_equal(scst_cdb_decode(msel, 6, 0, 9, &info, &err), -EINVAL);
	assert_int_equal(err.sense_code, SCST_SENSE_INVALID_FIELD_IN_CDB);
	assert_int_equal(err.byte, 1);
	assert_int_equal(err.bit, 4);
	assert_false(err.unknown_sa);
	assert_int_equal(scst_cdb_decode(vendor, 6, 0, 9, &info, &err),
			 -EINVAL);
	assert_false(err.unknown_sa);
}

static void test_decode_short(void **state)
{
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	unsigned int len;
	size_t i;
	u8 *cdb;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good_cases); i++) {
		const struct good_case *c = &good_cases[i];
		unsigned int full = scst_cdb_group_len(c->cdb[0]);

		for (len = 1; len < full; len++) {
			/* exact-size heap copy: ASan catches over-reads */
			cdb = malloc(len);
			assert_non_null(cdb);
			memcpy(cdb, c->cdb, len);
			assert_int_equal(scst_cdb_decode(cdb, len, c->dev_type,
							 c->shift, &info,
							 &err), -EINVAL);
			assert_int_equal(err.sense_code, INV_FLD);
			free(cdb);
		}
	}
}

static void test_check_lba(void **state)
{
	static const struct {
		u8 cdb[16];
		u64 capacity;
		bool ok;
	} cases[] = {
		/* READ(10) LBA 90, 10 blocks */
		{ { 0x28, 0, 0, 0, 0, 90, 0, 0, 10 }, 100, true },
		{ { 0x28, 0, 0, 0, 0, 90, 0, 0, 10 }, 99, false },
		/* READ(10) LBA 91, 10 blocks */
		{ { 0x28, 0, 0, 0, 0, 91, 0, 0, 10 }, 100, false },
		/*
		 * zero blocks at the last LBA; at the capacity (no such
		 * block, SBC-3 §4.5) and past it
		 */
		{ { 0x28, 0, 0, 0, 0, 99, 0, 0, 0 }, 100, true },
		{ { 0x28, 0, 0, 0, 0, 100, 0, 0, 0 }, 100, false },
		{ { 0x28, 0, 0, 0, 0, 101, 0, 0, 0 }, 100, false },
		/* WRITE(16) and VERIFY(16) of zero blocks at the capacity */
		{ { 0x8a, 0, 0, 0, 0, 0, 0, 0, 0, 100 }, 100, false },
		{ { 0x8f, 0, 0, 0, 0, 0, 0, 0, 0, 100 }, 100, false },
		/* READ(16) near 2^64: lba + nblocks wraps */
		{ { 0x88, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		    0, 0, 0, 2 }, ~0ULL, false },
		{ { 0x88, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
		    0, 0, 0, 1 }, ~0ULL, true },
		/* WRITE SAME(16) of 16 blocks */
		{ { 0x93, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0, 0, 0, 0x10 }, 256,
		  true },
		{ { 0x93, 0, 0, 0, 0, 0, 0, 0, 0, 0xf1, 0, 0, 0, 0x10 }, 256,
		  false },
		/* GET LBA STATUS: the starting LBA must exist */
		{ { 0x9e, 0x12, 0, 0, 0, 0, 0, 0, 0, 99, 0, 0, 0, 24 }, 100,
		  true },
		{ { 0x9e, 0x12, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 24 }, 100,
		  false },
		/* COMPARE AND WRITE: nblocks, not the 2 * nblocks of data */
		{ { 0x89, 0, 0, 0, 0, 0, 0, 0, 0, 98, 0, 0, 0, 2 }, 100,
		  true },
		/* SYNCHRONIZE CACHE(10) to the end from the last LBA */
		{ { 0x35, 0, 0, 0, 0, 99 }, 100, true },
		{ { 0x35, 0, 0, 0, 0, 100 }, 100, false },
		{ { 0x35, 0, 0, 0, 0, 101 }, 100, false },
		/* INQUIRY: nothing to check */
		{ { 0x12, 0, 0, 0, 36 }, 0, true },
	};
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(scst_cdb_decode(cases[i].cdb, 16, 0, 9, &info,
						 &err), 0);
		memset(&err, FILL, sizeof(err));
		if (cases[i].ok) {
			if (scst_cdb_check_lba(&info, cases[i].capacity, &err))
				fail_msg("case %zu refused", i);
			continue;
		}
		if (scst_cdb_check_lba(&info, cases[i].capacity, &err) !=
		    -EINVAL)
			fail_msg("case %zu accepted", i);
		assert_err(&err, SCST_SENSE_LBA_OUT_OF_RANGE, -1, -1, "lba");
	}
}

/*
 * SBC-3 §6.5.3 MAXIMUM TRANSFER LENGTH and §5.42 MAXIMUM WRITE SAME
 * LENGTH; a limit of 8 MiB is 16384 blocks of 512 bytes, 2048 of 4096.
 */
static void test_xfer_limit(void **state)
{
	static const struct {
		const char *what;
		u8 cdb[16];
		unsigned int shift;
		bool ok;
		int byte;
	} cases[] = {
		{ "READ(10) at the limit", { 0x28, 0, 0, 0, 0, 0, 0, 0x40, 0x00 },
		  9, true, 0 },
		{ "READ(10) one block over", { 0x28, 0, 0, 0, 0, 0, 0, 0x40,
		  0x01 }, 9, false, 7 },
		{ "READ(10) 4K blocks at the limit", { 0x28, 0, 0, 0, 0, 0, 0,
		  0x08, 0x00 }, 12, true, 0 },
		{ "READ(10) 4K blocks over", { 0x28, 0, 0, 0, 0, 0, 0, 0x08,
		  0x01 }, 12, false, 7 },
		{ "READ(6) of 256 blocks", { 0x08, 0, 0, 0, 0 }, 9, true, 0 },
		{ "WRITE(16) of 2^20 blocks", { 0x8a, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  0x00, 0x10, 0x00, 0x00 }, 9, false, 10 },
		{ "WRITE(16) of 2^32-1 blocks of 1 byte", { 0x8a, 0, 0, 0, 0, 0,
		  0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff }, 0, false, 10 },
		{ "READ(12) over", { 0xa8, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x01 }, 9,
		  false, 6 },
		{ "WRITE AND VERIFY(10) over", { 0x2e, 0, 0, 0, 0, 0, 0, 0x40,
		  0x01 }, 9, false, 7 },
		/* VERIFY without data still has a VERIFICATION LENGTH limit */
		{ "VERIFY(16) BYTCHK=0 over", { 0x8f, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  0, 0, 0x40, 0x01 }, 9, false, 10 },
		{ "VERIFY(10) BYTCHK=1 at the limit", { 0x2f, 0x02, 0, 0, 0, 0, 0,
		  0x40, 0x00 }, 9, true, 0 },
		{ "WRITE SAME(16) over", { 0x93, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  0, 0, 0x40, 0x01 }, 9, false, 10 },
		{ "WRITE SAME(16) NDOB over", { 0x93, 0x01, 0, 0, 0, 0, 0, 0, 0,
		  0, 0, 0, 0x40, 0x01 }, 9, false, 10 },
		{ "WRITE SAME(10) at the limit", { 0x41, 0, 0, 0, 0, 0, 0, 0x40,
		  0x00 }, 9, true, 0 },
		/* 2 * 255 blocks of data-out: fits in 8 MiB of 4K blocks */
		{ "COMPARE AND WRITE 255", { 0x89, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  0, 0, 0, 0xff }, 12, true, 0 },
		/* allocation lengths are not limited: the answer is built */
		{ "REPORT LUNS 4 GiB", { 0xa0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff,
		  0xff }, 9, true, 0 },
		{ "INQUIRY 64K", { 0x12, 0, 0, 0xff, 0xff }, 9, true, 0 },
		{ "RSOC 4 GiB", { 0xa3, 0x0c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff },
		  9, true, 0 },
	};
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (scst_cdb_decode(cases[i].cdb, 16, 0, cases[i].shift, &info,
				    &err))
			fail_msg("%s: decode failed", cases[i].what);
		memset(&err, FILL, sizeof(err));
		if (cases[i].ok) {
			if (scst_cdb_check_xfer_limit(&info, 8 << 20,
						      cases[i].shift, &err))
				fail_msg("%s: refused", cases[i].what);
			continue;
		}
		if (scst_cdb_check_xfer_limit(&info, 8 << 20, cases[i].shift,
					      &err) != -EINVAL)
			fail_msg("%s: accepted", cases[i].what);
		assert_err(&err, INV_FLD, cases[i].byte, -1, cases[i].what);
	}

	/* a parameter list longer than the limit, with a tiny limit */
	{
		const u8 unmap[10] = { 0x42, 0, 0, 0, 0, 0, 0, 0x10, 0x00 };

		assert_int_equal(scst_cdb_decode(unmap, 10, 0, 9, &info, &err),
				 0);
		assert_int_equal(scst_cdb_check_xfer_limit(&info, 4096, 9,
							   &err), 0);
		assert_int_equal(scst_cdb_check_xfer_limit(&info, 4095, 9,
							   &err), -EINVAL);
		assert_err(&err, INV_FLD, 7, -1, "UNMAP list");
	}
}

static void test_group_len(void **state)
{
	(void)state;
	assert_int_equal(scst_cdb_group_len(0x00), 6);
	assert_int_equal(scst_cdb_group_len(0x1f), 6);
	assert_int_equal(scst_cdb_group_len(0x28), 10);
	assert_int_equal(scst_cdb_group_len(0x5a), 10);
	assert_int_equal(scst_cdb_group_len(0x7f), -EINVAL);
	assert_int_equal(scst_cdb_group_len(0x60), -EINVAL);
	assert_int_equal(scst_cdb_group_len(0x88), 16);
	assert_int_equal(scst_cdb_group_len(0xa0), 12);
	assert_int_equal(scst_cdb_group_len(0xc0), -EINVAL);
	assert_int_equal(scst_cdb_group_len(0xff), -EINVAL);
}

static void test_report_luns_cdb(void **state)
{
	static const u8 good[12] = { 0xa0, 0, 0x01, 0, 0, 0, 0, 0, 0, 16 };
	static const u8 bad[12] = { 0xa0, 0, 0x02, 0, 0, 0, 0, 0, 0, 8 };
	struct scst_cdb_err err;
	u8 sel = 0xff;

	(void)state;
	assert_int_equal(scst_check_report_luns_cdb(good, 12, &sel, &err), 0);
	assert_int_equal(sel, SCST_REPORT_LUNS_WLUN_ONLY);
	assert_int_equal(scst_check_report_luns_cdb(bad, 12, &sel, &err),
			 -EINVAL);
	assert_err(&err, INV_FLD, 6, -1, "alloc 8");
	assert_int_equal(scst_check_report_luns_cdb(good, 11, &sel, &err),
			 -EINVAL);
}

static void test_inquiry_cdb(void **state)
{
	static const u8 vpd[6] = { 0x12, 0x01, 0xb0, 0x00, 0x40 };
	struct scst_cdb_err err;
	bool evpd = false;
	u8 page = 0;

	(void)state;
	assert_int_equal(scst_check_inquiry_cdb(vpd, 6, &evpd, &page, &err),
			 0);
	assert_true(evpd);
	assert_int_equal(page, 0xb0);
	assert_int_equal(scst_check_inquiry_cdb(vpd, 5, &evpd, &page, &err),
			 -EINVAL);
}

/* ---------------------------------------------------------------------- */
/* REPORT SUPPORTED OPERATION CODES                                       */
/* ---------------------------------------------------------------------- */

/* Commands in our table: all for disks, the SPC ones for other types. */
#define RSOC_DISK_CMDS		54
#define RSOC_OTHER_CMDS		28

static int rsoc(u8 opts, u8 op, u16 sa, u8 dev_type, u8 *buf, size_t len,
		struct scst_cdb_err *err)
{
	u8 cdb[12] = { 0xa3, 0x0c, opts, op };

	put_unaligned_be16(sa, cdb + 4);
	put_unaligned_be32(len, cdb + 6);
	memset(buf, FILL, len);
	return scst_build_rsoc(cdb, sizeof(cdb), dev_type, buf, len, err);
}

static void test_rsoc_all(void **state)
{
	/* SPC-4 §6.35.2: TEST UNIT READY, first; READ CAPACITY(16). */
	static const u8 tur[8] = { 0x00, 0, 0x00, 0x00, 0, 0x00, 0x00, 0x06 };
	static const u8 rc16[8] = { 0x9e, 0, 0x00, 0x10, 0, 0x01, 0x00, 0x10 };
	size_t total = 4 + RSOC_DISK_CMDS * 8, off;
	struct scst_cdb_info info;
	struct scst_cdb_err err;
	u8 buf[1024], cdb[16];
	int prev = -1, seen_rc16 = 0;

	(void)state;
	assert_int_equal(rsoc(0, 0, 0, 0, buf, sizeof(buf), &err), total);
	assert_int_equal(get_unaligned_be32(buf), total - 4);
	assert_bytes(buf + 4, tur, sizeof(tur));
	assert_filled(buf, total, sizeof(buf));

	for (off = 4; off < total; off += 8) {
		const u8 *d = buf + off;
		int key = d[0] << 16 | get_unaligned_be16(d + 2);

		/* ascending, each decodable with its CDB length */
		assert_true(key > prev);
		prev = key;
		assert_int_equal(d[1], 0);
		assert_int_equal(d[4], 0);
		assert_int_equal(d[5] & ~1, 0);
		memset(cdb, 0, sizeof(cdb));
		cdb[0] = d[0];
		if (d[5] & 1)
			cdb[1] = d[3];
		if (scst_cdb_decode(cdb, get_unaligned_be16(d + 6), 0, 9,
				    &info, &err) == 0)
			assert_int_equal(info.cdb_len,
					 get_unaligned_be16(d + 6));
		else
			assert_int_not_equal(err.sense_code, INV_OP);
		if (!memcmp(d, rc16, sizeof(rc16)))
			seen_rc16++;
	}
	assert_int_equal(seen_rc16, 1);

	/* Other device types: SPC commands only. */
	total = 4 + RSOC_OTHER_CMDS * 8;
	assert_int_equal(rsoc(0, 0, 0, 5, buf, sizeof(buf), &err), total);
	assert_int_equal(get_unaligned_be32(buf), total - 4);
	for (off = 4; off < total; off += 8)
		assert_int_not_equal(buf[off], 0x28);
}

static void test_rsoc_all_rctd(void **state)
{
	/* SPC-4 §6.35.4: CTDP set, a 12-byte timeouts descriptor follows */
	static const u8 first[20] = {
		0x00, 0, 0x00, 0x00, 0, 0x02, 0x00, 0x06,
		0x00, 0x0a, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	size_t total = 4 + RSOC_DISK_CMDS * 20;
	struct scst_cdb_err err;
	u8 buf[1024];

	(void)state;
	assert_int_equal(rsoc(0x80, 0, 0, 0, buf, sizeof(buf), &err), total);
	assert_int_equal(get_unaligned_be32(buf), total - 4);
	assert_bytes(buf + 4, first, sizeof(first));
	assert_int_equal(buf[4 + 20 + 5], 0x02);
	assert_filled(buf, total, sizeof(buf));
}

static void test_rsoc_truncated(void **state)
{
	struct scst_cdb_err err;
	u8 buf[64];

	(void)state;
	memset(buf, FILL, sizeof(buf));
	/* the whole length is returned, only 10 bytes written */
	assert_int_equal(scst_build_rsoc((const u8[12]){ 0xa3, 0x0c, 0, 0, 0,
			 0, 0, 0, 0, 10 }, 12, 0, buf, 10, &err),
			 4 + RSOC_DISK_CMDS * 8);
	assert_int_equal(get_unaligned_be32(buf), RSOC_DISK_CMDS * 8);
	assert_filled(buf, 10, sizeof(buf));
}

static void test_rsoc_one(void **state)
{
	/* SPC-4 §6.15.1, §6.16.1: READ FULL STATUS, PREEMPT AND ABORT */
	static const u8 pr_in_fs[] = {
		0x00, 0x03, 0x00, 0x0a,
		0x5e, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0x04,
	};
	static const u8 pr_out_pa[] = {
		0x00, 0x03, 0x00, 0x0a,
		0x5f, 0x05, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x04,
	};
	/* SPC-4 §6.35.3: READ(10), supported, CDB usage data. */
	static const u8 read10[] = {
		0x00, 0x03, 0x00, 0x0a,
		0x28, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff, 0xff, 0x04,
	};
	static const u8 read10_rctd[] = {
		0x00, 0x83, 0x00, 0x0a,
		0x28, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff, 0xff, 0x04,
		0x00, 0x0a, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const u8 rc16[] = {
		0x00, 0x03, 0x00, 0x10,
		0x9e, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0x01, 0x04,
	};
	static const u8 unmap[] = {
		0x00, 0x03, 0x00, 0x0a,
		0x42, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0x04,
	};
	static const u8 not_supported[] = { 0x00, 0x01, 0x00, 0x00 };
	struct scst_cdb_err err;
	u8 buf[64];

	(void)state;
	assert_int_equal(rsoc(1, 0x28, 0, 0, buf, sizeof(buf), &err),
			 sizeof(read10));
	assert_bytes(buf, read10, sizeof(read10));
	assert_filled(buf, sizeof(read10), sizeof(buf));

	assert_int_equal(rsoc(0x81, 0x28, 0, 0, buf, sizeof(buf), &err),
			 sizeof(read10_rctd));
	assert_bytes(buf, read10_rctd, sizeof(read10_rctd));

	assert_int_equal(rsoc(1, 0x42, 0, 0, buf, sizeof(buf), &err),
			 sizeof(unmap));
	assert_bytes(buf, unmap, sizeof(unmap));

	/* by operation code and service action */
	assert_int_equal(rsoc(2, 0x9e, 0x10, 0, buf, sizeof(buf), &err),
			 sizeof(rc16));
	assert_bytes(buf, rc16, sizeof(rc16));

	/* unsupported: operation code, service action, SBC on a CD-ROM */
	assert_int_equal(rsoc(1, 0x04, 0, 0, buf, sizeof(buf), &err), 4);
	assert_bytes(buf, not_supported, 4);
	assert_filled(buf, 4, sizeof(buf));
	assert_int_equal(rsoc(2, 0x9e, 0x13, 0, buf, sizeof(buf), &err), 4);
	assert_bytes(buf, not_supported, 4);
	assert_int_equal(rsoc(2, 0x9e, 0x110, 0, buf, sizeof(buf), &err), 4);
	assert_bytes(buf, not_supported, 4);
	assert_int_equal(rsoc(2, 0x5e, 0x04, 0, buf, sizeof(buf), &err), 4);
	assert_bytes(buf, not_supported, 4);
	/* PERSISTENT RESERVE IN/OUT, by service action, any device type */
	assert_int_equal(rsoc(2, 0x5e, 0x03, 5, buf, sizeof(buf), &err),
			 sizeof(pr_in_fs));
	assert_bytes(buf, pr_in_fs, sizeof(pr_in_fs));
	assert_int_equal(rsoc(2, 0x5f, 0x05, 0, buf, sizeof(buf), &err),
			 sizeof(pr_out_pa));
	assert_bytes(buf, pr_out_pa, sizeof(pr_out_pa));
	assert_int_equal(rsoc(1, 0x5f, 0, 0, buf, sizeof(buf), &err), -EINVAL);
	assert_int_equal(rsoc(1, 0x28, 0, 5, buf, sizeof(buf), &err), 4);
	assert_bytes(buf, not_supported, 4);

	/* 001b for a command with service actions, 010b for one without */
	assert_int_equal(rsoc(1, 0x9e, 0, 0, buf, sizeof(buf), &err),
			 -EINVAL);
	assert_err(&err, INV_FLD, 2, 2, "001b on 9Eh");
	assert_int_equal(rsoc(2, 0x28, 0, 0, buf, sizeof(buf), &err),
			 -EINVAL);
	assert_err(&err, INV_FLD, 2, 2, "010b on 28h");
	assert_int_equal(rsoc(3, 0x28, 0, 0, buf, sizeof(buf), &err),
			 -EINVAL);
	assert_err(&err, INV_FLD, 2, 2, "011b");
	assert_int_equal(scst_build_rsoc(buf, 10, 0, buf, sizeof(buf), &err),
			 -EINVAL);
}

/* Each command's one_command usage data agrees with its descriptor. */
static void test_rsoc_consistent(void **state)
{
	size_t total = 4 + RSOC_DISK_CMDS * 8, off, ulen;
	struct scst_cdb_err err;
	u8 all[512], one[64];

	(void)state;
	assert_int_equal(rsoc(0, 0, 0, 0, all, sizeof(all), &err), total);
	for (off = 4; off < total; off += 8) {
		const u8 *d = all + off;
		bool sa = d[5] & 1;

		ulen = get_unaligned_be16(d + 6);
		assert_int_equal(rsoc(sa ? 2 : 1, d[0],
				      get_unaligned_be16(d + 2), 0, one,
				      sizeof(one), &err), 4 + ulen);
		assert_int_equal(one[1], 0x03);
		assert_int_equal(get_unaligned_be16(one + 2), ulen);
		assert_int_equal(one[4], d[0]);
		if (sa)
			assert_int_equal(one[5] & 0x1f, d[3]);
		/* CONTROL byte: NACA only */
		assert_int_equal(one[4 + ulen - 1], 0x04);
	}
}

/* ---------------------------------------------------------------------- */
/* The facts of each row (SCST_OPF_*) against the switches they replace   */
/* ---------------------------------------------------------------------- */

/*
 * The pre-table reference: the switches on the operation code that the
 * core and vdisk made before the table rows carried these facts, copied
 * as they were (scst_ua_exempt() of scst_cmd.c, scst_cmd_core_emulated()
 * of scst_emul.c with scst_alua_tpg_cmd(), alua_cmd_class() of
 * scst_alua.c, classify() and the RESERVE/RELEASE case of
 * scst_pr_conflicts() of scst_pr.c, vdisk_cmd_may_sleep() of
 * vdisk_spc.c). Every CDB must get from scst_cdb_decode() the facts these
 * said, whether or not its fields are valid: a wrong bit in a row fails.
 */
#define REF_ALWAYS	0x01
#define REF_STPG	0x02
#define REF_STANDBY	0x04
#define REF_INFO	0x10

enum ref_pr { REF_PR_ALLOWED, REF_PR_READ, REF_PR_WRITE };

static bool ref_ua_exempt(u8 opcode)
{
	return opcode == 0x12 || opcode == 0xa0 || opcode == 0x03;
}

static bool ref_tpg_cmd(const u8 *cdb, unsigned int len)
{
	return len > 1 && ((cdb[0] == 0xa3 && (cdb[1] & 0x1f) == 0x0a) ||
			   (cdb[0] == 0xa4 && (cdb[1] & 0x1f) == 0x0a));
}

/* scst_cmd_core_emulated() but for MAINTENANCE IN/OUT (ref_tpg_cmd()) */
static bool ref_core_emulated(u8 opcode)
{
	switch (opcode) {
	case 0xa0: case 0x03: case 0x16: case 0x56: case 0x17: case 0x57:
	case 0x5e: case 0x5f:
		return true;
	default:
		return false;
	}
}

static u8 ref_alua_class(const u8 *cdb, unsigned int len)
{
	u8 sa = len > 1 ? cdb[1] & 0x1f : 0;

	switch (cdb[0]) {
	case 0x12: case 0xa0: case 0x03:
		return REF_ALWAYS;
	case 0x3c: case 0x3b:
		return sa == 0x0a ? REF_ALWAYS : 0;
	case 0x4c: case 0x4d: case 0x15: case 0x55: case 0x1a: case 0x5a:
	case 0x1c: case 0x1d: case 0x5e: case 0x5f:
		return REF_STANDBY;
	case 0x25:
		return REF_INFO;
	case 0x9e:
		return sa == 0x10 ? REF_INFO : 0;
	case 0xa3:
		if (sa == 0x0a)
			return REF_ALWAYS;
		return sa == 0x0c ? REF_INFO : 0;
	case 0xa4:
		return sa == 0x0a ? REF_STPG : 0;
	default:
		return 0;
	}
}

static enum ref_pr ref_pr_classify(const u8 *cdb, unsigned int len)
{
	u8 sa = len > 1 ? cdb[1] & 0x1f : 0;
	u8 b4 = len > 4 ? cdb[4] : 0;

	switch (cdb[0]) {
	case 0x00: case 0x03: case 0x12: case 0x4d: case 0x25: case 0x5e:
	case 0x5f: case 0xa0: case 0x86: case 0x87: case 0xab:
		return REF_PR_ALLOWED;
	case 0x08: case 0x28: case 0xa8: case 0x88: case 0x2f: case 0xaf:
	case 0x8f: case 0x34: case 0x90: case 0x37: case 0xb7: case 0x3e:
	case 0x1a: case 0x5a: case 0x3c: case 0x1c: case 0x8c:
		return REF_PR_READ;
	case 0x1e:
		return b4 & 0x03 ? REF_PR_WRITE : REF_PR_ALLOWED;
	case 0x1b:
		return (b4 & 0xf1) == 0x01 ? REF_PR_ALLOWED : REF_PR_WRITE;
	case 0x9e:
		if (sa == 0x10)
			return REF_PR_ALLOWED;
		if (sa == 0x12 || sa == 0x11)
			return REF_PR_READ;
		return REF_PR_WRITE;
	case 0xa3:
		switch (sa) {
		case 0x05: case 0x0a: case 0x0b: case 0x0e: case 0x0f:
			return REF_PR_ALLOWED;
		case 0x0c: case 0x0d:
			return REF_PR_READ;
		}
		return REF_PR_WRITE;
	}
	return REF_PR_WRITE;
}

static bool ref_spc2_res(u8 opcode)
{
	return opcode == 0x16 || opcode == 0x17 || opcode == 0x56 ||
	       opcode == 0x57;
}

/* vdisk_cmd_may_sleep(), which read byte 1 whatever the CDB's length */
static bool ref_may_sleep(const u8 *cdb)
{
	switch (cdb[0]) {
	case 0x2f: case 0xaf: case 0x8f:
		return cdb[1] & 0x02;
	case 0x89: case 0x41: case 0x93: case 0x42: case 0x15: case 0x55:
		return true;
	case 0x9e:
		return (cdb[1] & 0x1f) == 0x12;
	default:
		return false;
	}
}

/*
 * What the old switches executed for each opcode (vdisk_exec_cmd() of
 * vdisk_spc.c, scst_emulate_cmd() of scst_emul.c, scst_alua_emulate()):
 * the op id a row must carry.
 */
static u8 ref_op_id(const u8 *cdb)
{
	u8 sa = cdb[1] & 0x1f;

	switch (cdb[0]) {
	case 0x00: return SCST_OPID_TEST_UNIT_READY;
	case 0x03: return SCST_OPID_REQUEST_SENSE;
	case 0x08: case 0x28: case 0xa8: case 0x88: return SCST_OPID_READ;
	case 0x0a: case 0x2a: case 0xaa: case 0x8a: return SCST_OPID_WRITE;
	case 0x12: return SCST_OPID_INQUIRY;
	case 0x15: case 0x55: return SCST_OPID_MODE_SELECT;
	case 0x16: case 0x56: return SCST_OPID_RESERVE;
	case 0x17: case 0x57: return SCST_OPID_RELEASE;
	case 0x1a: case 0x5a: return SCST_OPID_MODE_SENSE;
	case 0x1b: return SCST_OPID_START_STOP_UNIT;
	case 0x1e: return SCST_OPID_PREVENT_ALLOW_MEDIUM;
	case 0x25: return SCST_OPID_READ_CAPACITY_10;
	case 0x2e: case 0xae: case 0x8e: return SCST_OPID_WRITE_VERIFY;
	case 0x2f: case 0xaf: case 0x8f: return SCST_OPID_VERIFY;
	case 0x34: case 0x90: return SCST_OPID_PRE_FETCH;
	case 0x35: case 0x91: return SCST_OPID_SYNCHRONIZE_CACHE;
	case 0x41: case 0x93: return SCST_OPID_WRITE_SAME;
	case 0x42: return SCST_OPID_UNMAP;
	case 0x5e: return SCST_OPID_PR_IN;
	case 0x5f: return SCST_OPID_PR_OUT;
	case 0x89: return SCST_OPID_COMPARE_AND_WRITE;
	case 0x9e:
		return sa == 0x10 ? SCST_OPID_READ_CAPACITY_16 :
		       sa == 0x12 ? SCST_OPID_GET_LBA_STATUS : SCST_OPID_NONE;
	case 0xa0: return SCST_OPID_REPORT_LUNS;
	case 0xa3:
		return sa == 0x0a ? SCST_OPID_REPORT_TPGS :
		       sa == 0x0c ? SCST_OPID_REPORT_SUPPORTED_OPCODES :
		       SCST_OPID_NONE;
	case 0xa4:
		return sa == 0x0a ? SCST_OPID_SET_TPGS : SCST_OPID_NONE;
	default: return SCST_OPID_NONE;
	}
}

static u8 facts_alua_class(u32 f)
{
	return (f & SCST_OPF_ALUA_ALWAYS ? REF_ALWAYS : 0) |
	       (f & SCST_OPF_ALUA_STPG ? REF_STPG : 0) |
	       (f & SCST_OPF_ALUA_STANDBY ? REF_STANDBY : 0) |
	       (f & SCST_OPF_ALUA_INFO ? REF_INFO : 0);
}

static enum ref_pr facts_pr_class(u32 f)
{
	if (f & SCST_OPF_PR_ALLOWED)
		return REF_PR_ALLOWED;
	return f & SCST_OPF_PR_READ ? REF_PR_READ : REF_PR_WRITE;
}

/* Check the facts of @len bytes of @cdb; return the decoder's verdict. */
static int check_facts(const u8 *cdb, unsigned int len)
{
	struct scst_cdb_info info;
	u32 f;
	int ret;

	memset(&info, FILL, sizeof(info));
	ret = scst_cdb_decode(cdb, len, SCST_TYPE_DISK, 9, &info, NULL);
	f = info.facts;
	if (!!(f & SCST_OPF_UA_EXEMPT) != ref_ua_exempt(cdb[0]) ||
	    !!(f & SCST_OPF_CORE_EMUL) != ref_core_emulated(cdb[0]) ||
	    !!(f & SCST_OPF_ALUA_TPG) != ref_tpg_cmd(cdb, len) ||
	    facts_alua_class(f) != ref_alua_class(cdb, len) ||
	    facts_pr_class(f) != ref_pr_classify(cdb, len) ||
	    !!(f & SCST_OPF_SPC2_RES) != ref_spc2_res(cdb[0]) ||
	    (len > 1 && !!(f & SCST_OPF_MAY_SLEEP) != ref_may_sleep(cdb)))
		fail_msg("%02x %02x .. %02x (%u bytes): facts %x", cdb[0],
			 cdb[1], cdb[4], len, f);
	/* the table marks the UA-exempt commands twice: one answer */
	if (!ret && !!(info.flags & SCST_CDB_UA_EXEMPT) !=
		    !!(f & SCST_OPF_UA_EXEMPT))
		fail_msg("%02x: UA_EXEMPT flag and fact differ", cdb[0]);
	if (scst_cdb_facts(cdb, len) != f)
		fail_msg("%02x: scst_cdb_facts() differs", cdb[0]);
	/* a decoded command has the op id its executor is picked by */
	if (!ret && (info.op_id == SCST_OPID_NONE ||
		     info.op_id >= SCST_OPID_COUNT ||
		     info.op_id != ref_op_id(cdb)))
		fail_msg("%02x %02x: op id %u", cdb[0], cdb[1], info.op_id);
	return ret;
}

static const u8 facts_b4[] = { 0x00, 0x01, 0x03, 0x11, 0xf1, 0xff };
static const unsigned int facts_len[] = { 1, 2, 5, 6, 10, 12, 16 };

/*
 * Every row of the table, as REPORT SUPPORTED OPERATION CODES lists them:
 * its operation code and service action, with the fields its facts
 * depend on (BYTCHK, START, PREVENT) both ways, whole and cut short.
 */
static void test_facts_rows(void **state)
{
	static u8 rsoc_cdb[12] = { 0xa3, 0x0c, 0x00 };
	u8 buf[2048], cdb[16];
	unsigned int rows = 0, ok = 0, off, total, l;
	size_t i, k;

	(void)state;
	total = scst_build_rsoc(rsoc_cdb, 12, SCST_TYPE_DISK, buf, sizeof(buf),
				NULL);
	assert_true(total > 4 && total <= sizeof(buf));
	for (off = 4; off + 8 <= total; off += 8) {
		const u8 *d = buf + off;

		rows++;
		for (i = 0; i < ARRAY_SIZE(facts_b4); i++) {
			for (k = 0; k < 4; k++) {
				memset(cdb, 0, sizeof(cdb));
				cdb[0] = d[0];
				/* the service action, or BYTCHK 00b/01b */
				cdb[1] = (d[5] & 0x01) ? d[3] :
					 (k & 1 ? 0x02 : 0x00);
				cdb[4] = facts_b4[i];
				l = get_unaligned_be16(d + 6);
				if (k & 2)
					l = l > 2 ? 2 : 1;
				if (!check_facts(cdb, l))
					ok++;
			}
		}
	}
	/* 54 rows today; each decoded whole at least once */
	assert_true(rows >= 54);
	assert_true(ok >= rows);
}

/*
 * Every operation code, every value of byte 1 (service actions, BUFFER
 * MODEs, BYTCHK), the byte-4 fields, and every CDB length the groups
 * have or that cuts one short: the facts of what the table decodes, of
 * what it refuses, and of what it does not know (a pass-through
 * handler's commands) are the old switches'.
 */
static void test_facts_all_opcodes(void **state)
{
	u8 cdb[16];
	unsigned int op, b1;
	size_t i, k;

	(void)state;
	for (op = 0; op < 256; op++) {
		for (b1 = 0; b1 < 256; b1++) {
			for (i = 0; i < ARRAY_SIZE(facts_b4); i++) {
				memset(cdb, 0, sizeof(cdb));
				cdb[0] = op;
				cdb[1] = b1;
				cdb[4] = facts_b4[i];
				for (k = 0; k < ARRAY_SIZE(facts_len); k++)
					check_facts(cdb, facts_len[k]);
			}
		}
	}
	/* no CDB, no facts */
	assert_int_equal(scst_cdb_facts(NULL, 0), 0);
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_decode_good),
		cmocka_unit_test(test_decode_bad),
		cmocka_unit_test(test_decode_unknown_sa),
		cmocka_unit_test(test_decode_short),
		cmocka_unit_test(test_check_lba),
		cmocka_unit_test(test_xfer_limit),
		cmocka_unit_test(test_group_len),
		cmocka_unit_test(test_report_luns_cdb),
		cmocka_unit_test(test_inquiry_cdb),
		cmocka_unit_test(test_rsoc_all),
		cmocka_unit_test(test_rsoc_all_rctd),
		cmocka_unit_test(test_rsoc_truncated),
		cmocka_unit_test(test_rsoc_one),
		cmocka_unit_test(test_rsoc_consistent),
		cmocka_unit_test(test_facts_rows),
		cmocka_unit_test(test_facts_all_opcodes),
	};

	return cmocka_run_group_tests_name("cdb", tests, NULL, NULL);
}
