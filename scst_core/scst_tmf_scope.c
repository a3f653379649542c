// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which commands a task management function reaches (SAM-5 7), and what
 * the other I_T nexuses learn of it. scst_tm.c walks the sessions and
 * waits; these rules decide.
 *
 * Our control mode page reports the device's TST (devices/<dev>/tst:
 * 001b, one task set per I_T nexus, by default for vdisk as in SCST;
 * 000b, one shared by every I_T nexus, when set to 0), TAS 0 and QErr
 * 00b: commands aborted for another nexus end without a response of
 * their own (SAM-5 5.6), their initiators learn of it from a unit
 * attention, and a CHECK CONDITION aborts nothing else.
 */

#include <scst_sam.h>

/**
 * scst_tmf_reach() - which commands a task management function aborts
 * @fn: the function
 * @tst: the logical unit's TST (SCST_TST_SHARED or SCST_TST_PER_NEXUS)
 *
 * ABORT TASK (SAM-5 7.2) one command of the nexus, ABORT TASK SET (7.3)
 * those of the nexus to the logical unit; CLEAR TASK SET (7.4) the task
 * set: the logical unit's with TST 000b, the nexus's own with TST 001b;
 * LOGICAL UNIT RESET (7.7) every command of the logical unit; TARGET
 * RESET (7.9) a logical unit reset of each logical unit the nexus
 * reaches; I_T NEXUS LOSS (SAM-5 6.3.4) every command of the nexus. There
 * is never an ACA to clear (NACA 0 in our INQUIRY data).
 *
 * Return: an enum scst_tmf_reach; SCST_TMF_REACH_NONE for CLEAR ACA and
 * for a function we do not know.
 */
enum scst_tmf_reach scst_tmf_reach(enum scst_tmf fn, u8 tst)
{
	switch (fn) {
	case SCST_ABORT_TASK:
		return SCST_TMF_REACH_TASK;
	case SCST_ABORT_TASK_SET:
		return SCST_TMF_REACH_I_T_L;
	case SCST_CLEAR_TASK_SET:
		return tst == SCST_TST_PER_NEXUS ? SCST_TMF_REACH_I_T_L :
		       SCST_TMF_REACH_LU;
	case SCST_LUN_RESET:
		return SCST_TMF_REACH_LU;
	case SCST_TARGET_RESET:
		return SCST_TMF_REACH_TARGET;
	case SCST_NEXUS_LOSS_SESS:
		return SCST_TMF_REACH_I_T;
	case SCST_CLEAR_ACA:
	default:
		return SCST_TMF_REACH_NONE;
	}
}
EXPORT_SYMBOL_GPL(scst_tmf_reach);

/**
 * scst_tmf_needs_lun() - whether a function addresses a logical unit
 * @fn: the function
 *
 * Return: true when its LUN must be mapped in the session (otherwise the
 * service response is INCORRECT LOGICAL UNIT NUMBER, SAM-5 7.11).
 */
bool scst_tmf_needs_lun(enum scst_tmf fn)
{
	return fn == SCST_ABORT_TASK_SET || fn == SCST_CLEAR_TASK_SET ||
	       fn == SCST_LUN_RESET;
}
EXPORT_SYMBOL_GPL(scst_tmf_needs_lun);

/**
 * scst_tmf_resets_lu() - whether a function resets the logical units it
 *	reaches
 * @fn: the function
 *
 * A logical unit reset (SAM-5 6.3.3) also ends the SPC-2 reservation and
 * gives every I_T nexus of the logical unit, the one that asked included,
 * BUS DEVICE RESET FUNCTION OCCURRED.
 *
 * Return: true for LOGICAL UNIT RESET and TARGET RESET.
 */
bool scst_tmf_resets_lu(enum scst_tmf fn)
{
	return fn == SCST_LUN_RESET || fn == SCST_TARGET_RESET;
}
EXPORT_SYMBOL_GPL(scst_tmf_resets_lu);

/**
 * scst_tmf_other_nexus_ua() - what the other I_T nexuses of a logical unit
 *	learn of a function that cleared their commands
 * @fn: the function
 * @tas: the control mode page's TAS bit
 *
 * With TAS 0 the commands of the other nexuses that CLEAR TASK SET aborts
 * end without a response, and those nexuses get COMMANDS CLEARED BY
 * ANOTHER INITIATOR (SPC-4 7.5.8); with TAS 1 they get TASK ABORTED
 * status instead. A reset's unit attention is the reset's own
 * (scst_tmf_resets_lu()); the other functions stay on their nexus.
 *
 * Return: an SCST_SENSE_* code, or 0 for none.
 */
u32 scst_tmf_other_nexus_ua(enum scst_tmf fn, bool tas)
{
	if (fn == SCST_CLEAR_TASK_SET && !tas)
		return SCST_SENSE_CLEARED_BY_ANOTHER_INI;
	return 0;
}
EXPORT_SYMBOL_GPL(scst_tmf_other_nexus_ua);

/**
 * scst_tmf_match() - whether a TMF aborts a command of a session it reaches
 * @m: what it aborts
 * @tag: the command's tag
 * @lu: the command's logical unit, or NULL for a command without one
 *
 * Return: true when the command is to be aborted.
 */
bool scst_tmf_match(const struct scst_tmf_match *m, u64 tag, const void *lu)
{
	if (m->by_tag)
		return tag == m->tag;
	return !m->lu || lu == m->lu;
}
EXPORT_SYMBOL_GPL(scst_tmf_match);
