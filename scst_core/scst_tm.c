// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_tm.c - task management functions (SAM-5 7).
 *
 * A TMF marks the commands it affects as aborted, then waits, in process
 * context, until each of them has gone through ->xmit_response() and been
 * freed by the driver's scst_tgt_cmd_done(); only then does the driver get
 * ->task_mgmt_fn_done(). So every affected command is accounted for
 * exactly once, and when the TMF response goes out the driver knows it
 * may reuse everything those commands held. A command that two TMFs
 * affect is waited for by both.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "scst_priv.h"

static atomic64_t scst_abort_gen = ATOMIC64_INIT(0);

/* Which commands of a session a TMF affects. */
struct scst_tmf_scope {
	u64 gen;
	bool by_tag;
	u64 tag;
	struct scst_device *dev;	/* NULL: every device */
};

static bool scst_tmf_affects(const struct scst_tmf_scope *scope,
			     const struct scst_cmd *cmd)
{
	if (scope->by_tag)
		return cmd->tag == scope->tag;
	return !scope->dev || cmd->dev == scope->dev;
}

/* Mark the commands of @sess within @scope; return how many. */
static unsigned int scst_abort_sess_cmds(struct scst_session *sess,
					 const struct scst_tmf_scope *scope)
{
	unsigned long flags;
	unsigned int n = 0;
	struct scst_cmd *cmd;

	spin_lock_irqsave(&sess->sess_lock, flags);
	list_for_each_entry(cmd, &sess->cmd_list, sess_entry) {
		if (!scst_tmf_affects(scope, cmd))
			continue;
		if (!test_and_set_bit(SCST_CMD_ABORTED, &cmd->flags))
			cmd->abort_gen = scope->gen;
		n++;
	}
	spin_unlock_irqrestore(&sess->sess_lock, flags);
	return n;
}

static bool scst_sess_has_aborted(struct scst_session *sess, u64 gen)
{
	unsigned long flags;
	struct scst_cmd *cmd;
	bool found = false;

	spin_lock_irqsave(&sess->sess_lock, flags);
	list_for_each_entry(cmd, &sess->cmd_list, sess_entry) {
		if (scst_cmd_is_aborted(cmd) && cmd->abort_gen <= gen) {
			found = true;
			break;
		}
	}
	spin_unlock_irqrestore(&sess->sess_lock, flags);
	return found;
}

static void scst_wait_sess_aborted(struct scst_session *sess, u64 gen)
{
	while (wait_event_timeout(scst_tmf_waitq,
				  !scst_sess_has_aborted(sess, gen), 60 * HZ) == 0)
		pr_warn("session %s: still waiting for aborted commands\n",
			sess->sess_name);
}

/* I_T nexus loss: abort every command of @sess and wait for them all. */
void scst_abort_sess_cmds_and_wait(struct scst_session *sess)
{
	struct scst_tmf_scope scope = {
		.gen = atomic64_inc_return(&scst_abort_gen),
	};

	scst_abort_sess_cmds(sess, &scope);
	while (wait_event_timeout(scst_tmf_waitq,
				  list_empty_careful(&sess->cmd_list),
				  60 * HZ) == 0)
		pr_warn("session %s: %d commands still outstanding\n",
			sess->sess_name, atomic_read(&sess->active_cmds));
}

/*
 * The device side of a LUN reset (SAM-5 7.7): the handler's hook, the
 * SPC-2 reservation goes, and every other nexus gets a unit attention.
 */
void scst_dev_reset(struct scst_device *dev, struct scst_session *from)
{
	unsigned long flags;
	struct scst_tgt_dev *tgt_dev, *except = NULL;

	if (dev->handler->task_mgmt_fn)
		dev->handler->task_mgmt_fn(dev, SCST_LUN_RESET);
	spin_lock_irqsave(&dev->dev_lock, flags);
	dev->reserved_by = NULL;
	list_for_each_entry(tgt_dev, &dev->tgt_dev_list, dev_entry)
		if (tgt_dev->sess == from)
			except = tgt_dev;
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	scst_dev_add_ua(dev, SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x29, 0x03),
			except);
}

/* Every session of the target that may hold commands for @dev. */
static void scst_abort_dev_cmds(struct scst_tgt *tgt,
				struct scst_tmf_scope *scope)
{
	struct scst_session *s;

	mutex_lock(&scst_mutex);
	list_for_each_entry(s, &tgt->sess_list, tgt_entry)
		scst_abort_sess_cmds(s, scope);
	mutex_unlock(&scst_mutex);
}

static void scst_wait_tgt_aborted(struct scst_tgt *tgt, u64 gen)
{
	struct scst_session *s;

	mutex_lock(&scst_mutex);
	list_for_each_entry(s, &tgt->sess_list, tgt_entry)
		scst_wait_sess_aborted(s, gen);
	mutex_unlock(&scst_mutex);
}

/* LUN reset of every device of a session's LUN map. */
static void scst_reset_sess_devs(struct scst_session *sess)
{
	struct scst_tgt_dev **tds;
	unsigned int i, n;

	tds = scst_sess_get_tgt_devs(sess, &n);
	if (IS_ERR(tds))
		return;
	for (i = 0; i < n; i++) {
		scst_dev_reset(tds[i]->dev, sess);
		scst_put_tgt_dev(tds[i]);
	}
	kfree(tds);
}

static enum scst_tmf_response scst_do_tmf(struct scst_mgmt_cmd *mcmd)
{
	struct scst_session *sess = mcmd->sess;
	struct scst_tgt *tgt = sess->tgt;
	struct scst_tmf_scope scope = {
		.gen = atomic64_inc_return(&scst_abort_gen),
	};
	struct scst_tgt_dev *tgt_dev = NULL;

	switch (mcmd->fn) {
	case SCST_ABORT_TASK:
		scope.by_tag = true;
		scope.tag = mcmd->tag;
		if (!scst_abort_sess_cmds(sess, &scope))
			return SCST_MGMT_STATUS_TASK_NOT_EXIST;
		scst_wait_sess_aborted(sess, scope.gen);
		return SCST_MGMT_STATUS_SUCCESS;

	case SCST_ABORT_TASK_SET:
	case SCST_CLEAR_TASK_SET:
	case SCST_LUN_RESET:
		tgt_dev = scst_lookup_tgt_dev(sess, mcmd->lun);
		if (!tgt_dev)
			return SCST_MGMT_STATUS_LUN_NOT_EXIST;
		scope.dev = tgt_dev->dev;
		if (mcmd->fn == SCST_ABORT_TASK_SET) {
			/* SAM-5 7.3: only this I_T nexus's tasks */
			scst_abort_sess_cmds(sess, &scope);
			scst_wait_sess_aborted(sess, scope.gen);
		} else {
			/* one task set shared by all nexuses (TST 000b) */
			scst_abort_dev_cmds(tgt, &scope);
			scst_wait_tgt_aborted(tgt, scope.gen);
		}
		if (mcmd->fn == SCST_LUN_RESET)
			scst_dev_reset(tgt_dev->dev, sess);
		scst_put_tgt_dev(tgt_dev);
		return SCST_MGMT_STATUS_SUCCESS;

	case SCST_TARGET_RESET:
		scst_abort_dev_cmds(tgt, &scope);
		scst_wait_tgt_aborted(tgt, scope.gen);
		/* SAM-5 7.9: a LUN reset of every logical unit it reaches */
		scst_reset_sess_devs(sess);
		return SCST_MGMT_STATUS_SUCCESS;

	case SCST_NEXUS_LOSS_SESS:
		/* SAM-5 6.3.4: the session stays; it learns of the loss */
		scst_abort_sess_cmds(sess, &scope);
		scst_wait_sess_aborted(sess, scope.gen);
		scst_sess_add_ua(sess, SCST_SENSE_NEXUS_LOSS);
		return SCST_MGMT_STATUS_SUCCESS;

	case SCST_CLEAR_ACA:
	default:
		/* NACA is 0 in our INQUIRY data: there is never an ACA */
		return SCST_MGMT_STATUS_FN_NOT_SUPPORTED;
	}
}

static const char *const scst_tmf_names[] = {
	[SCST_ABORT_TASK] = "ABORT TASK",
	[SCST_ABORT_TASK_SET] = "ABORT TASK SET",
	[SCST_CLEAR_ACA] = "CLEAR ACA",
	[SCST_CLEAR_TASK_SET] = "CLEAR TASK SET",
	[SCST_LUN_RESET] = "LUN RESET",
	[SCST_TARGET_RESET] = "TARGET RESET",
	[SCST_NEXUS_LOSS_SESS] = "I_T NEXUS LOSS",
};

static const char *const scst_tmf_response_names[] = {
	[SCST_MGMT_STATUS_SUCCESS] = "function complete",
	[SCST_MGMT_STATUS_TASK_NOT_EXIST] = "task does not exist",
	[SCST_MGMT_STATUS_LUN_NOT_EXIST] = "LUN does not exist",
	[SCST_MGMT_STATUS_FN_NOT_SUPPORTED] = "function not supported",
	[SCST_MGMT_STATUS_REJECTED] = "rejected",
	[SCST_MGMT_STATUS_FAILED] = "failed",
};

static void scst_tmf_work(struct work_struct *work)
{
	struct scst_mgmt_cmd *mcmd = container_of(work, struct scst_mgmt_cmd,
						  work);
	struct scst_session *sess = mcmd->sess;

	mcmd->status = scst_do_tmf(mcmd);
	pr_info("%s: %s (LUN %llu, tag %llu): %s\n", sess->sess_name,
		mcmd->fn < ARRAY_SIZE(scst_tmf_names) ?
		scst_tmf_names[mcmd->fn] : "unknown TMF",
		mcmd->lun, mcmd->tag, scst_tmf_response_names[mcmd->status]);
	if (sess->tgt->tgtt->task_mgmt_fn_done)
		sess->tgt->tgtt->task_mgmt_fn_done(mcmd);
	atomic_dec(&sess->active_tmfs);
	kfree(mcmd);
	wake_up_all(&scst_tmf_waitq);
}

/**
 * scst_rx_mgmt_fn() - a task management function arrived
 * @sess: the session it arrived on
 * @fn: the function
 * @lun: the LUN it addresses (LUN-scoped functions); decoded LUN number
 * @tag: tag of the command to abort (ABORT TASK)
 * @tgt_priv: the driver's private data (mcmd->tgt_priv)
 * @gfp: allocation flags for the caller's context
 *
 * Any context. The driver gets ->task_mgmt_fn_done() with the mcmd, which
 * is freed when that returns.
 *
 * Return: the mcmd, or NULL without memory.
 */
struct scst_mgmt_cmd *scst_rx_mgmt_fn(struct scst_session *sess,
				      enum scst_tmf fn, u64 lun, u64 tag,
				      void *tgt_priv, gfp_t gfp)
{
	struct scst_mgmt_cmd *mcmd;

	mcmd = kzalloc(sizeof(*mcmd), gfp);
	if (!mcmd)
		return NULL;
	mcmd->sess = sess;
	mcmd->fn = fn;
	mcmd->lun = lun;
	mcmd->tag = tag;
	mcmd->tgt_priv = tgt_priv;
	atomic_inc(&sess->active_tmfs);
	INIT_WORK(&mcmd->work, scst_tmf_work);
	queue_work(scst_tmf_wq, &mcmd->work);
	return mcmd;
}
EXPORT_SYMBOL_GPL(scst_rx_mgmt_fn);
