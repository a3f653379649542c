/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure-logic asymmetric logical unit access (ALUA, SPC-4 5.16) of
 * scst_alua.c, shared by scst.ko and the unit tests and fuzzers
 * (scst_pure.h):
 *
 *   - the asymmetric access states and SCST's names for them (the words
 *     of device_groups/<dg>/target_groups/<tg>/state);
 *   - REPORT TARGET PORT GROUPS parameter data (SPC-4 6.36);
 *   - SET TARGET PORT GROUPS parameter list parsing and validation
 *     (SPC-4 6.44);
 *   - which commands a target port group in each state admits, and the
 *     sense of a refusal (SPC-4 5.16.2.4).
 *
 * The kernel glue keeps the device and target groups (scst_dg.c), their
 * sysfs tree (scst_sysfs_dg.c), their lock and the commands
 * (scst_alua_cmd.c); everything here works on caller-provided memory,
 * never sleeps and never allocates.
 */
#ifndef __SCST_ALUA_H
#define __SCST_ALUA_H

#include "scst_cdb.h"

/* SPC-4 6.36 table 171: ASYMMETRIC ACCESS STATE values. */
#define SCST_ALUA_ACTIVE		0x0	/* active/optimized */
#define SCST_ALUA_NONOPTIMIZED		0x1	/* active/non-optimized */
#define SCST_ALUA_STANDBY		0x2
#define SCST_ALUA_UNAVAILABLE		0x3
#define SCST_ALUA_LBA_DEPENDENT		0x4	/* not supported */
#define SCST_ALUA_OFFLINE		0xe
#define SCST_ALUA_TRANSITIONING		0xf

/* SPC-4 6.36: STATUS CODE of a target port group descriptor. */
#define SCST_ALUA_STATUS_NONE		0x00
#define SCST_ALUA_STATUS_BY_STPG	0x01	/* altered by SET TPGS */
#define SCST_ALUA_STATUS_IMPLICIT	0x02	/* altered implicitly */

/* SPC-4 6.6.2 table 142: TPGS field of standard INQUIRY data, byte 5. */
#define SCST_INQ_TPGS_NONE		0x00
#define SCST_INQ_TPGS_IMPLICIT		0x10
#define SCST_INQ_TPGS_EXPLICIT		0x20
#define SCST_INQ_TPGS_BOTH		0x30

/* SPC-4 6.36, 6.44: MAINTENANCE IN / OUT service actions. */
#define SCST_MI_REPORT_TPGS		0x0a
#define SCST_MO_SET_TPGS		0x0a

/* SPC-4 6.36.1: PARAMETER DATA FORMAT, CDB byte 1 bits 7-5. */
#define SCST_RTPG_FMT_LENGTH		0x0
#define SCST_RTPG_FMT_EXTENDED		0x1

/*
 * Our limits (Documentation/design.md §7): a target port group has at
 * most 255 target ports (TARGET PORT COUNT is one byte, SPC-4 6.36), a
 * device group at most SCST_ALUA_MAX_TGS target port groups; so REPORT
 * TARGET PORT GROUPS data never exceeds SCST_RTPG_MAX_LEN bytes and a SET
 * TARGET PORT GROUPS parameter list with more descriptors than that is
 * refused before anything is looked at.
 */
#define SCST_ALUA_MAX_TG_PORTS		255
#define SCST_ALUA_MAX_TGS		64
#define SCST_ALUA_MAX_DGS		256
#define SCST_RTPG_HDR_LEN		4
#define SCST_RTPG_EXT_HDR_LEN		8
#define SCST_RTPG_DESC_LEN		8
#define SCST_RTPG_PORT_LEN		4
#define SCST_RTPG_MAX_LEN \
	(SCST_RTPG_EXT_HDR_LEN + SCST_ALUA_MAX_TGS * \
	 (SCST_RTPG_DESC_LEN + SCST_ALUA_MAX_TG_PORTS * SCST_RTPG_PORT_LEN))
#define SCST_STPG_HDR_LEN		4
#define SCST_STPG_DESC_LEN		4
#define SCST_STPG_MAX_DESCS		SCST_ALUA_MAX_TGS
#define SCST_STPG_MAX_LEN \
	(SCST_STPG_HDR_LEN + SCST_STPG_MAX_DESCS * SCST_STPG_DESC_LEN)

/* SPC-4 4.5.6 table 51: the ALUA additional sense codes. */
#define SCST_SENSE_ALUA_TRANSITIONING \
	SCST_SENSE_CODE(SCST_SK_NOT_READY, 0x04, 0x0a)
#define SCST_SENSE_ALUA_STANDBY \
	SCST_SENSE_CODE(SCST_SK_NOT_READY, 0x04, 0x0b)
#define SCST_SENSE_ALUA_UNAVAILABLE \
	SCST_SENSE_CODE(SCST_SK_NOT_READY, 0x04, 0x0c)
#define SCST_SENSE_LU_OFFLINE \
	SCST_SENSE_CODE(SCST_SK_NOT_READY, 0x04, 0x12)
#define SCST_SENSE_ASYM_ACCESS_STATE_CHANGED \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x2a, 0x06)

int scst_alua_state_from_name(const char *name);
const char *scst_alua_state_name(u8 state);

/**
 * struct scst_alua_tpg - one target port group, as REPORT TARGET PORT
 *	GROUPS describes it and SET TARGET PORT GROUPS looks it up
 * @group_id: TARGET PORT GROUP (1-65535; 0 when not yet set)
 * @state: SCST_ALUA_* asymmetric access state
 * @preferred: PREF bit
 * @status: SCST_ALUA_STATUS_* of the last change
 * @rel_tgt_ids: RELATIVE TARGET PORT IDENTIFIER of each target port
 * @nports: entries in @rel_tgt_ids, at most SCST_ALUA_MAX_TG_PORTS
 */
struct scst_alua_tpg {
	u16 group_id;
	u8 state;
	bool preferred;
	u8 status;
	const u16 *rel_tgt_ids;
	unsigned int nports;
};

int scst_rtpg_check_cdb(const u8 *cdb, unsigned int cdb_len, u8 *format,
			u32 *alloc_len, struct scst_cdb_err *err);
size_t scst_rtpg_put_header(u8 *buf, size_t buflen, u8 format,
			    u8 implicit_transition_time);
size_t scst_rtpg_put_group(u8 *buf, size_t buflen, size_t off,
			   const struct scst_alua_tpg *g);
void scst_rtpg_finish(u8 *buf, size_t buflen, size_t total);
int scst_build_rtpg(const struct scst_alua_tpg *groups, unsigned int ngroups,
		    u8 format, u8 *buf, size_t buflen);

/**
 * struct scst_stpg_desc - one set target port group descriptor
 * @state: the ASYMMETRIC ACCESS STATE asked for
 * @group_id: TARGET PORT GROUP
 */
struct scst_stpg_desc {
	u8 state;
	u16 group_id;
};

int scst_stpg_check_cdb(const u8 *cdb, unsigned int cdb_len, u32 *len,
			struct scst_cdb_err *err);
int scst_stpg_parse(const u8 *data, size_t len, struct scst_stpg_desc *out,
		    unsigned int max, unsigned int *n,
		    struct scst_cdb_err *err);
int scst_stpg_validate(const struct scst_stpg_desc *d, unsigned int n,
		       const struct scst_alua_tpg *groups,
		       unsigned int ngroups, struct scst_cdb_err *err);

u32 scst_alua_admit_facts(u8 state, u32 facts);
u32 scst_alua_admit(u8 state, const u8 *cdb, unsigned int cdb_len);

#endif /* __SCST_ALUA_H */
