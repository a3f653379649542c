/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure-logic reservation rules of a logical unit (scst_res.c), shared by
 * scst.ko and the unit tests (scst_pure.h).
 *
 * Today: SPC-2 RESERVE/RELEASE (SPC-2 5.5.1, 7.17, 7.21): one I_T nexus
 * holds the whole logical unit. Persistent reservations (SPC-4 5.9) sit
 * beside it, with their own struct and their own scst_pr_*() functions
 * (scst_pr.h); the kernel glue (scst_emul.c, scst_pr_dev.c) asks each
 * kind in turn whether a command conflicts, and scst_admit_decide() says
 * which of the conditions an arriving command meets it is told of. A
 * nexus is an opaque pointer here (the core's struct scst_session); the
 * caller holds the lock that protects the state (the device's dev_lock).
 */
#ifndef __SCST_RES_H
#define __SCST_RES_H

#include "scst_cdb.h"

/**
 * struct scst_spc2_res - the SPC-2 reservation of a logical unit
 * @holder: the I_T nexus holding it, NULL when the logical unit is not
 *	reserved
 */
struct scst_spc2_res {
	const void *holder;
};

/**
 * enum scst_res_verdict - what the reservations of a logical unit say
 *	about one command
 * @SCST_RES_OK: it may run
 * @SCST_RES_CONFLICT: RESERVATION CONFLICT (an SPC-2 or a persistent
 *	reservation, SPC-2 5.5.1, SPC-4 5.9.1)
 * @SCST_RES_NOT_READY: the persistent reservation state is unknown (an
 *	APTPL file that could not be read): CHECK CONDITION, NOT READY,
 *	LOGICAL UNIT NOT READY, MANUAL INTERVENTION REQUIRED
 */
enum scst_res_verdict {
	SCST_RES_OK,
	SCST_RES_CONFLICT,
	SCST_RES_NOT_READY,
};

/**
 * struct scst_admit_conds - the conditions an arriving command meets
 * @ua: a unit attention is pending on its I_T_L nexus and the command is
 *	not one that reports instead (INQUIRY, REPORT LUNS, REQUEST SENSE)
 * @alua: the ALUA state of its target port group refuses it
 * @cdb_err: its CDB was refused (the sense is the command's already)
 * @res: the reservations' verdict; meaningless with @cdb_err
 */
struct scst_admit_conds {
	bool ua;
	bool alua;
	bool cdb_err;
	enum scst_res_verdict res;
};

/**
 * enum scst_admit - how scst_admit_decide() says a command ends
 * @SCST_ADMIT_GO: it goes on to execute
 * @SCST_ADMIT_UA: CHECK CONDITION with the oldest unit attention, which
 *	is then cleared
 * @SCST_ADMIT_ALUA: CHECK CONDITION with the ALUA sense
 * @SCST_ADMIT_CDB_ERR: CHECK CONDITION with the CDB's error
 * @SCST_ADMIT_CONFLICT: RESERVATION CONFLICT; a pending unit attention
 *	stays pending
 * @SCST_ADMIT_NOT_READY: CHECK CONDITION, NOT READY, MANUAL INTERVENTION
 *	REQUIRED
 */
enum scst_admit {
	SCST_ADMIT_GO,
	SCST_ADMIT_UA,
	SCST_ADMIT_ALUA,
	SCST_ADMIT_CDB_ERR,
	SCST_ADMIT_CONFLICT,
	SCST_ADMIT_NOT_READY,
};

enum scst_admit scst_admit_decide(const struct scst_admit_conds *c);

int scst_spc2_check_cdb(const u8 *cdb, unsigned int cdb_len,
			struct scst_cdb_err *err);
bool scst_spc2_res_conflict(const struct scst_spc2_res *res,
			    const void *nexus, u32 cdb_flags);
int scst_spc2_reserve(struct scst_spc2_res *res, const void *nexus);
void scst_spc2_release(struct scst_spc2_res *res, const void *nexus);
void scst_spc2_res_clear(struct scst_spc2_res *res);

#endif /* __SCST_RES_H */
