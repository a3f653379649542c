/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure-logic SAM-5 rules of the command path, shared by scst.ko and the
 * unit tests (scst_pure.h):
 *
 *   scst_xfer.c       the buffer a command gets when the transport's
 *                     expected transfer differs from the CDB's, and the
 *                     residual it reports (SAM-5 5.4.1)
 *   scst_task_set.c   task set admission by task attribute (SAM-5 8.6)
 *   scst_tmf_scope.c  which commands a task management function reaches
 *                     (SAM-5 7)
 *
 * The kernel glue (scst_cmd.c, scst_tm.c) holds the locks and the lists;
 * the decisions are made here. Nothing here sleeps or allocates.
 */
#ifndef __SCST_SAM_H
#define __SCST_SAM_H

#include "scst_logic.h"

/* SAM-5 status codes (SAM-5 5.3.1) */
#define SCST_STATUS_GOOD			0x00
#define SCST_STATUS_CHECK_CONDITION		0x02
#define SCST_STATUS_BUSY			0x08
#define SCST_STATUS_RESERVATION_CONFLICT	0x18
#define SCST_STATUS_TASK_SET_FULL		0x28
#define SCST_STATUS_ACA_ACTIVE			0x30
#define SCST_STATUS_TASK_ABORTED		0x40

/* Direction of a command's data transfer, as seen from the initiator. */
enum scst_data_direction {
	SCST_DATA_NONE = 0,
	SCST_DATA_WRITE = 1,	/* data-out: initiator to target */
	SCST_DATA_READ = 2,	/* data-in: target to initiator */
	SCST_DATA_BIDI = 3,
};

/* SAM-5 8.6 task attributes */
enum scst_queue_type {
	SCST_CMD_QUEUE_SIMPLE = 0,
	SCST_CMD_QUEUE_ORDERED,
	SCST_CMD_QUEUE_HEAD_OF_QUEUE,
	SCST_CMD_QUEUE_ACA,
};

/* SAM-5 7 task management functions */
enum scst_tmf {
	SCST_ABORT_TASK = 0,
	SCST_ABORT_TASK_SET,
	SCST_CLEAR_ACA,
	SCST_CLEAR_TASK_SET,
	SCST_LUN_RESET,
	SCST_TARGET_RESET,
	SCST_NEXUS_LOSS_SESS,	/* I_T nexus loss of one session */
};

/* SAM-5 7.11 task management function service responses */
enum scst_tmf_response {
	SCST_MGMT_STATUS_SUCCESS = 0,	/* FUNCTION COMPLETE */
	SCST_MGMT_STATUS_TASK_NOT_EXIST,
	SCST_MGMT_STATUS_LUN_NOT_EXIST,
	SCST_MGMT_STATUS_FN_NOT_SUPPORTED,
	SCST_MGMT_STATUS_REJECTED,
	SCST_MGMT_STATUS_FAILED,
};

/* ---------------------------------------------------------------------- */
/* Transfer lengths and residuals (scst_xfer.c)                           */
/* ---------------------------------------------------------------------- */

int scst_xfer_fit(enum scst_data_direction cdb_dir, u32 cdb_len,
		  enum scst_data_direction exp_dir, u32 exp_len,
		  bool exact_out, u32 *bufflen);
s64 scst_xfer_resid(enum scst_data_direction dir, u32 cdb_len, u32 exp_len,
		    u32 bufflen, u32 resp_len, u8 status);

/* ---------------------------------------------------------------------- */
/* Task set admission, SAM-5 8.6 (scst_task_set.c)                        */
/* ---------------------------------------------------------------------- */

/**
 * struct scst_task_set - the enabled commands of one task set
 * @active: commands that entered the enabled state and have not completed
 * @ordered: how many of them have the ORDERED task attribute
 *
 * The dormant commands wait, in the order they arrived, on a list the
 * caller keeps, under the same lock as this.
 */
struct scst_task_set {
	unsigned int active;
	unsigned int ordered;
};

bool scst_task_set_may_start(const struct scst_task_set *ts,
			     enum scst_queue_type type, bool older_dormant);
void scst_task_set_start(struct scst_task_set *ts, enum scst_queue_type type);
void scst_task_set_end(struct scst_task_set *ts, enum scst_queue_type type);

/* ---------------------------------------------------------------------- */
/* Task management function scope, SAM-5 7 (scst_tmf_scope.c)            */
/* ---------------------------------------------------------------------- */

/* Control mode page TST values, SPC-4 7.5.8. */
#define SCST_TST_SHARED			0	/* one task set for all nexuses */
#define SCST_TST_PER_NEXUS		1	/* one task set per I_T nexus */

/**
 * enum scst_tmf_reach - which commands a task management function aborts
 * @SCST_TMF_REACH_NONE: none: the function is not supported
 * @SCST_TMF_REACH_TASK: the command of the I_T nexus with the given tag
 * @SCST_TMF_REACH_I_T_L: the commands of the I_T nexus to the logical unit
 * @SCST_TMF_REACH_LU: the commands of every I_T nexus to the logical unit
 * @SCST_TMF_REACH_TARGET: for each logical unit the I_T nexus reaches,
 *	the commands of every I_T nexus to it; then all commands of the
 *	I_T nexus, those without a logical unit too
 * @SCST_TMF_REACH_I_T: all commands of the I_T nexus
 */
enum scst_tmf_reach {
	SCST_TMF_REACH_NONE,
	SCST_TMF_REACH_TASK,
	SCST_TMF_REACH_I_T_L,
	SCST_TMF_REACH_LU,
	SCST_TMF_REACH_TARGET,
	SCST_TMF_REACH_I_T,
};

/**
 * struct scst_tmf_match - which commands of one session a TMF aborts
 * @by_tag: only the command tagged @tag
 * @tag: the tag, for @by_tag
 * @lu: only commands to this logical unit (an opaque pointer); NULL:
 *	every command of the session
 */
struct scst_tmf_match {
	bool by_tag;
	u64 tag;
	const void *lu;
};

enum scst_tmf_reach scst_tmf_reach(enum scst_tmf fn, u8 tst);
bool scst_tmf_needs_lun(enum scst_tmf fn);
bool scst_tmf_resets_lu(enum scst_tmf fn);
u32 scst_tmf_other_nexus_ua(enum scst_tmf fn, bool tas);
bool scst_tmf_match(const struct scst_tmf_match *m, u64 tag, const void *lu);

#endif /* __SCST_SAM_H */
