// SPDX-License-Identifier: GPL-2.0-only
/*
 * Task set admission by task attribute (SAM-5 8.6), for one task set
 * (the control mode page's TST 000b: one task set for the logical unit,
 * every I_T nexus sharing it):
 *
 *   HEAD OF QUEUE  enters the enabled state at once
 *   ORDERED        once every older command has completed
 *   SIMPLE         once no older ORDERED command is dormant or enabled
 *
 * A command that may not start waits, dormant, behind the older dormant
 * ones; as commands complete the oldest dormant ones start, in order, for
 * as long as scst_task_set_may_start() allows. ACA is not supported (NACA
 * 0 in our INQUIRY data): a command with the ACA attribute is admitted as
 * a SIMPLE one.
 */

#include <scst_sam.h>

/**
 * scst_task_set_may_start() - whether a command may enter the enabled state
 * @ts: the task set
 * @type: the command's task attribute
 * @older_dormant: older commands are dormant (the caller's waiting list is
 *	not empty); false when checking the oldest dormant command itself
 *
 * Return: true when the command may start now; otherwise it goes dormant,
 * at the tail of the waiting list.
 */
bool scst_task_set_may_start(const struct scst_task_set *ts,
			     enum scst_queue_type type, bool older_dormant)
{
	switch (type) {
	case SCST_CMD_QUEUE_HEAD_OF_QUEUE:
		return true;
	case SCST_CMD_QUEUE_ORDERED:
		return !older_dormant && ts->active == 0;
	default:
		return !older_dormant && !ts->ordered;
	}
}
EXPORT_SYMBOL_GPL(scst_task_set_may_start);

/**
 * scst_task_set_start() - a command entered the enabled state
 * @ts: the task set
 * @type: its task attribute
 */
void scst_task_set_start(struct scst_task_set *ts, enum scst_queue_type type)
{
	ts->active++;
	if (type == SCST_CMD_QUEUE_ORDERED)
		ts->ordered++;
}
EXPORT_SYMBOL_GPL(scst_task_set_start);

/**
 * scst_task_set_end() - an enabled command completed
 * @ts: the task set
 * @type: its task attribute, as given to scst_task_set_start()
 */
void scst_task_set_end(struct scst_task_set *ts, enum scst_queue_type type)
{
	ts->active--;
	if (type == SCST_CMD_QUEUE_ORDERED)
		ts->ordered--;
}
EXPORT_SYMBOL_GPL(scst_task_set_end);
