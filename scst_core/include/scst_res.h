/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure-logic reservation rules of a logical unit (scst_res.c), shared by
 * scst.ko and the unit tests (scst_pure.h).
 *
 * Today: SPC-2 RESERVE/RELEASE (SPC-2 5.5.1, 7.17, 7.21): one I_T nexus
 * holds the whole logical unit. Persistent reservations (SPC-4 5.9) sit
 * beside it, with their own struct and their own scst_pr_*() functions
 * (scst_pr.h; not yet called by the command path); the kernel glue
 * (scst_emul.c) asks each kind in turn whether a command conflicts. A
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

int scst_spc2_check_cdb(const u8 *cdb, unsigned int cdb_len,
			struct scst_cdb_err *err);
bool scst_spc2_res_conflict(const struct scst_spc2_res *res,
			    const void *nexus, u32 cdb_flags);
int scst_spc2_reserve(struct scst_spc2_res *res, const void *nexus);
void scst_spc2_release(struct scst_spc2_res *res, const void *nexus);
void scst_spc2_res_clear(struct scst_spc2_res *res);

#endif /* __SCST_RES_H */
