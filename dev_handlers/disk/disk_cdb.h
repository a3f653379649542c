/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * disk_cdb.h - pure logic of the dev_disk pass-through handler
 * (disk_cdb.c): the commands it passes that the core's CDB table does not
 * know, the commands it refuses, the Block Limits VPD page rewrite and
 * the ALUA fields of INQUIRY data.
 * Compiles in the kernel and in the userspace unit tests (scst_pure.h).
 */
#ifndef __DISK_CDB_H
#define __DISK_CDB_H

#include <scst_cdb.h>

/* SPC-4 §7.8.1: INQUIRY EVPD page codes the handler looks at */
#define DISK_VPD_BLOCK_LIMITS		0xb0
/* SBC-3 §6.6.4 table 209: where the page's limits are */
#define DISK_VPD_B0_MAX_XFER_OFF	8
#define DISK_VPD_B0_OPT_XFER_OFF	12
#define DISK_VPD_B0_MIN_LEN		16
#define DISK_VPD_B0_MAX_WS_OFF		36
#define DISK_VPD_B0_WS_END		44

/**
 * disk_cdb_refused() - whether dev_disk refuses a command the core knows
 * @cdb: the CDB, at least one byte
 *
 * EXTENDED COPY and RECEIVE COPY RESULTS: a third-party copy reaches
 * devices the initiator was not given; they end with INVALID COMMAND
 * OPERATION CODE. (PERSISTENT RESERVE IN/OUT are the core's, which
 * answers them for every handler and never passes them to the device.)
 *
 * Return: true when the command must not reach the device.
 */
bool disk_cdb_refused(const u8 *cdb);

/**
 * disk_cdb_decode() - decode a command the core's table does not know
 * @cdb: the CDB
 * @cdb_len: its length
 * @expected_dir: the data direction the transport announced
 *	(SCST_CDB_DIR_*)
 * @expected_len: the transfer length the transport announced
 * @max_len: the largest buffer allowed for a command whose length is not
 *	in its CDB (taken from the transport's announcement)
 * @info: receives direction, bufflen and flags (SCST_CDB_ALLOC_LEN for a
 *	data-in ALLOCATION LENGTH, SCST_CDB_MEDIUM_WRITE for commands that
 *	change the medium)
 * @err: receives the error
 *
 * Only commands with a known data direction and length are decoded (the
 * table in disk_cdb.c); anything else fails with INVALID COMMAND
 * OPERATION CODE, never guessed. For the few commands whose length is in
 * the parameter data (FORMAT UNIT with FMTDATA, REASSIGN BLOCKS) or in
 * ATA registers (ATA PASS-THROUGH), the announced length is used, in the
 * direction the CDB names, up to @max_len.
 *
 * Return: 0, or -EINVAL with @err set.
 */
int disk_cdb_decode(const u8 *cdb, unsigned int cdb_len, u8 expected_dir,
		    u32 expected_len, u32 max_len, struct scst_cdb_info *info,
		    struct scst_cdb_err *err);

/**
 * disk_cdb_timeout() - the request timeout a long-running command needs
 * @cdb: the CDB
 * @cdb_len: its length
 *
 * FORMAT UNIT, SANITIZE, SEND DIAGNOSTIC (a foreground self-test) and
 * WRITE BUFFER (microcode) may take far longer than a queue's timeout;
 * with IMMED set they return at once and the long timer never matters.
 *
 * Return: the timeout in seconds, or 0 for the queue's own.
 */
unsigned int disk_cdb_timeout(const u8 *cdb, unsigned int cdb_len);

/**
 * disk_vpd_b0_limit() - cap the transfer limits of a Block Limits page
 * @page: the page as the device returned it (SBC-3 §6.6.4)
 * @len: bytes of it that were returned
 * @max_blocks: the largest transfer dev_disk can pass, in logical blocks
 *
 * MAXIMUM TRANSFER LENGTH becomes @max_blocks when the device reports
 * none (0) or a larger one; OPTIMAL TRANSFER LENGTH is cut to it; so is
 * MAXIMUM WRITE SAME LENGTH (0 included) when @len reaches it. Other
 * fields are the device's.
 *
 * Return: true when @page was changed.
 */
bool disk_vpd_b0_limit(u8 *page, u32 len, u32 max_blocks);

/* SPC-4 §6.6.2: TPGS, bits 5:4 of byte 5 of standard INQUIRY data */
#define DISK_INQ_TPGS_OFF		5
#define DISK_INQ_TPGS_MASK		0x30
/* SPC-4 §7.8.6: Device Identification VPD page */
#define DISK_VPD_DEVICE_ID		0x83
/* What disk_vpd83_alua() may add: two designators of 8 bytes */
#define DISK_VPD83_ADD_MAX		16

/**
 * disk_inq_set_tpgs() - put our TPGS field in standard INQUIRY data
 * @buf: the data as the device returned it (SPC-4 §6.6.2)
 * @len: bytes of it that were returned
 * @tpgs: the TPGS field, in bits 5:4 (SCST_INQ_TPGS_*)
 *
 * The device's own TPGS describes its ports, not the target's: a device
 * in an ALUA device group reports the core's (Documentation/alua.md).
 *
 * Return: true when @buf was changed (@len reaches byte 5).
 */
bool disk_inq_set_tpgs(u8 *buf, u32 len, u8 tpgs);

/**
 * disk_vpd83_alua() - the target port designators of the receiving port
 *	in a Device Identification VPD page
 * @page: the page as the device returned it, in a buffer of @cap bytes
 * @len: bytes of it that were returned
 * @cap: the size of @page: what may be returned (the allocation length)
 * @rel_tgt_id: RELATIVE TARGET PORT IDENTIFIER of the receiving port,
 *	0: none
 * @tpg_id: its TARGET PORT GROUP, 0: none
 *
 * The device's relative target port (type 4h) and target port group
 * (type 5h) designators with target port association (SPC-4 §7.8.6.7,
 * §7.8.6.8) name ports of the device, not of the target: they are made
 * vendor specific (type 0h, SPC-4 §7.8.6.2) in place, and ours appended
 * at the end of the page, PAGE LENGTH grown to match. The page keeps
 * its layout, so that PAGE LENGTH is the same and the data a prefix of
 * the whole page whatever the allocation length. Every length in the
 * page is the device's claim and is checked: designators are walked
 * only within the returned bytes and PAGE LENGTH, and a page whose
 * designators do not end at PAGE LENGTH gets nothing appended.
 *
 * Return: the number of bytes to return, at most @cap.
 */
u32 disk_vpd83_alua(u8 *page, u32 len, u32 cap, u16 rel_tgt_id, u16 tpg_id);

#endif /* __DISK_CDB_H */
