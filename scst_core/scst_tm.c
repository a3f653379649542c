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
 *
 * A TMF never takes scst_mutex: it runs on scst_tmf_wq and reaches the
 * sessions it affects through referenced nexuses (tgt_devs), so a backend
 * command that never ends stalls only the TMFs that wait for it, not
 * logins, logouts or configuration changes elsewhere.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "scst_priv.h"

/*
 * TMFs and the background unregistration of sessions (scst_tgt.c, an I_T
 * nexus loss) run here: unbound, they wait for commands, never holding
 * scst_mutex.
 */
struct workqueue_struct *scst_tmf_wq;
/*
 * Woken whenever something a TMF, a session's or a target's removal may
 * wait for has ended: a command freed (scst_cmd.c), a nexus released
 * (scst_nexus.c), a TMF done, a session gone (scst_tgt.c).
 */
DECLARE_WAIT_QUEUE_HEAD(scst_tmf_waitq);

static atomic64_t scst_abort_gen = ATOMIC64_INIT(0);

int scst_tm_init(void)
{
	scst_tmf_wq = alloc_workqueue("scst_tmf", WQ_UNBOUND | WQ_MEM_RECLAIM,
				      0);
	return scst_tmf_wq ? 0 : -ENOMEM;
}

void scst_tm_exit(void)
{
	destroy_workqueue(scst_tmf_wq);
}

/* Which commands of a session a TMF affects (scst_tmf_match()). */
struct scst_tmf_scope {
	u64 gen;
	struct scst_tmf_match match;	/* .lu: a struct scst_device */
};

/* Mark the commands of @sess within @scope; return how many. */
static unsigned int scst_abort_sess_cmds(struct scst_session *sess,
					 const struct scst_tmf_scope *scope)
{
	unsigned long flags;
	unsigned int n = 0;
	struct scst_cmd *cmd;

	spin_lock_irqsave(&sess->sess_lock, flags);
	list_for_each_entry(cmd, &sess->cmd_list, sess_entry) {
		if (!scst_tmf_match(&scope->match, cmd->tag, cmd->dev))
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

/*
 * Every command of @sess is freed and scst_free_cmd() is done with the
 * session: the list empties before the last active_cmds decrement, which
 * is scst_free_cmd()'s last access to it. Both, as scst_rx_cmd() lists a
 * command before it counts it.
 */
static bool scst_sess_cmds_gone(struct scst_session *sess)
{
	return list_empty_careful(&sess->cmd_list) &&
	       atomic_read(&sess->active_cmds) == 0;
}

/*
 * I_T nexus loss: abort every command of @sess and wait until none of
 * them touches the session any more, so that the caller may free it.
 */
void scst_abort_sess_cmds_and_wait(struct scst_session *sess)
{
	struct scst_tmf_scope scope = {
		.gen = atomic64_inc_return(&scst_abort_gen),
	};

	scst_abort_sess_cmds(sess, &scope);
	while (wait_event_timeout(scst_tmf_waitq, scst_sess_cmds_gone(sess),
				  60 * HZ) == 0)
		pr_warn("session %s: %d commands still outstanding\n",
			sess->sess_name, atomic_read(&sess->active_cmds));
}

static bool scst_any_nexus_done(struct scst_tgt_dev **tds, unsigned int n,
				u64 gen)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (tds[i] && !scst_sess_has_aborted(tds[i]->sess, gen))
			return true;
	return false;
}

/*
 * Wait for the commands @gen aborted on the sessions of @tds, dropping
 * each nexus's reference as soon as its session has none left: a session
 * whose commands ended may go away (logout) while another one's are
 * still stuck in a backend.
 */
static void scst_wait_nexuses_aborted(struct scst_tgt_dev **tds,
				      unsigned int n, u64 gen)
{
	unsigned int i, left = n;

	for (;;) {
		for (i = 0; i < n; i++) {
			if (tds[i] &&
			    !scst_sess_has_aborted(tds[i]->sess, gen)) {
				scst_put_tgt_dev(tds[i]);
				tds[i] = NULL;
				left--;
			}
		}
		if (!left)
			return;
		if (!wait_event_timeout(scst_tmf_waitq,
					scst_any_nexus_done(tds, n, gen), 60 * HZ))
			pr_warn("%u sessions still have commands being aborted\n",
				left);
	}
}

/**
 * scst_abort_nexuses_and_wait() - PREEMPT AND ABORT's aborts
 * @tds: referenced I_T_L nexuses, of one logical unit; each reference is
 *	dropped here (the array is the caller's)
 * @n: number of entries
 *
 * SPC-4 §5.9.11.5: the tasks of each preempted I_T nexus to the logical
 * unit are aborted as CLEAR TASK SET would (TAS 0: they end without a
 * response of their own, SAM-5 5.6; the nexus learns of it from the
 * REGISTRATIONS PREEMPTED unit attention the caller queued), and the
 * PERSISTENT RESERVE OUT completes once they are gone. Process context,
 * no lock held.
 *
 * Return: how many commands were aborted.
 */
unsigned int scst_abort_nexuses_and_wait(struct scst_tgt_dev **tds,
					 unsigned int n)
{
	struct scst_tmf_scope scope = {
		.gen = atomic64_inc_return(&scst_abort_gen),
	};
	unsigned int i, aborted = 0;

	for (i = 0; i < n; i++) {
		scope.match.lu = tds[i]->dev;
		aborted += scst_abort_sess_cmds(tds[i]->sess, &scope);
	}
	scst_wait_nexuses_aborted(tds, n, scope.gen);
	return aborted;
}

/* SAM-5 6.3.3: BUS DEVICE RESET FUNCTION OCCURRED */
#define SCST_SENSE_BUS_DEVICE_RESET \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x29, 0x03)

/*
 * The device side of a logical unit reset (SAM-5 6.3.3), once its
 * commands are gone: the SPC-2 reservation goes, and every I_T nexus of
 * the logical unit gets BUS DEVICE RESET FUNCTION OCCURRED, the one that
 * asked included (as a disk does, and as the Linux initiator expects
 * after its reset: expecting_cc_ua).
 */
static void scst_dev_reset(struct scst_device *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->dev_lock, flags);
	scst_spc2_res_clear(&dev->spc2_res);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	scst_dev_add_ua(dev, SCST_SENSE_BUS_DEVICE_RESET, NULL);
}

/*
 * CLEAR TASK SET and LOGICAL UNIT RESET of @dev (SAM-5 7.4, 7.7), and the
 * logical unit resets of TARGET RESET. With TST 000b (one task set per
 * logical unit, for all I_T nexuses, scst_tmf_reach()) they act on the
 * commands of every session of every target that sees the device, not
 * just on the nexus or target they came through.
 *
 * The control mode page reports TAS 0 and QErr 00b: commands aborted for
 * another nexus end without a response of their own (the driver sees
 * scst_cmd_aborted(); SAM-5 5.6), their initiators learn of it from a unit
 * attention (scst_tmf_other_nexus_ua(), or the reset's own); a CHECK
 * CONDITION aborts nothing else (QErr 00b).
 *
 * No scst_mutex: the nexuses are referenced (scst_dev_get_tgt_devs()),
 * which keeps their sessions, each until its session's aborted commands
 * are done; the wait for a stuck backend holds no global lock.
 *
 * Return: 0, or -ENOMEM (nothing was aborted).
 */
static int scst_clear_dev_task_set(struct scst_device *dev,
				   struct scst_session *from,
				   const struct scst_tmf_scope *scope,
				   enum scst_tmf fn)
{
	const u32 ua = scst_tmf_other_nexus_ua(fn, false);
	struct scst_tgt_dev **tds;
	unsigned int i, n;

	tds = scst_dev_get_tgt_devs(dev, &n);
	if (IS_ERR(tds))
		return PTR_ERR(tds);
	for (i = 0; i < n; i++) {
		scst_abort_sess_cmds(tds[i]->sess, scope);
		if (ua && tds[i]->sess != from)
			scst_tgt_dev_add_ua(tds[i], ua);
	}
	/*
	 * A reset ends what the device itself holds (SAM-5 6.3.3: the
	 * logical unit aborts all its tasks) before we wait: the handler
	 * aborts its requests now, so a request stuck in a pass-through
	 * device does not hold the reset for its whole timeout (30 s, a
	 * day for FORMAT UNIT). Commands that were in flight when the
	 * scope was marked are aborted and do not start once this
	 * returns; commands that arrive after the marking are new tasks,
	 * which the reset does not end, and may reach ->exec() while or
	 * after this runs.
	 */
	if (scst_tmf_resets_lu(fn) && dev->handler->task_mgmt_fn)
		dev->handler->task_mgmt_fn(dev, SCST_LUN_RESET);
	scst_wait_nexuses_aborted(tds, n, scope->gen);
	kfree(tds);
	if (scst_tmf_resets_lu(fn))
		scst_dev_reset(dev);
	return 0;
}

/*
 * TARGET RESET (SAM-5 7.9): a logical unit reset of every logical unit the
 * session reaches, each on all its nexuses, and the session's own
 * commands (those without a logical unit too).
 */
static int scst_reset_sess_devs(struct scst_session *sess,
				const struct scst_tmf_scope *scope)
{
	struct scst_tgt_dev **tds;
	unsigned int i, n;
	int ret = 0;

	tds = scst_sess_get_tgt_devs(sess, &n);
	if (IS_ERR(tds))
		return PTR_ERR(tds);
	for (i = 0; i < n; i++) {
		struct scst_tmf_scope dev_scope = *scope;

		dev_scope.match.lu = tds[i]->dev;
		if (scst_clear_dev_task_set(tds[i]->dev, sess, &dev_scope,
					    SCST_TARGET_RESET))
			ret = -ENOMEM;
	}
	for (i = 0; i < n; i++)
		scst_put_tgt_dev(tds[i]);
	kfree(tds);
	scst_abort_sess_cmds(sess, scope);
	scst_wait_sess_aborted(sess, scope->gen);
	return ret;
}

/* Which commands the TMF reaches: scst_tmf_reach() (scst_tmf_scope.c). */
static enum scst_tmf_response scst_do_tmf(struct scst_mgmt_cmd *mcmd)
{
	struct scst_session *sess = mcmd->sess;
	struct scst_tmf_scope scope = {
		.gen = atomic64_inc_return(&scst_abort_gen),
	};
	enum scst_tmf_response resp = SCST_MGMT_STATUS_SUCCESS;
	struct scst_tgt_dev *tgt_dev = NULL;
	u8 tst = SCST_TST_SHARED;

	if (scst_tmf_needs_lun(mcmd->fn)) {
		tgt_dev = scst_lookup_tgt_dev(sess, mcmd->lun);
		if (!tgt_dev)
			return SCST_MGMT_STATUS_LUN_NOT_EXIST;
		scope.match.lu = tgt_dev->dev;
		tst = tgt_dev->dev->tst;
	}

	switch (scst_tmf_reach(mcmd->fn, tst)) {
	case SCST_TMF_REACH_TASK:
		scope.match.by_tag = true;
		scope.match.tag = mcmd->tag;
		if (!scst_abort_sess_cmds(sess, &scope))
			return SCST_MGMT_STATUS_TASK_NOT_EXIST;
		scst_wait_sess_aborted(sess, scope.gen);
		break;
	case SCST_TMF_REACH_I_T_L:
		/* SAM-5 7.3: only this I_T nexus's tasks */
		scst_abort_sess_cmds(sess, &scope);
		scst_wait_sess_aborted(sess, scope.gen);
		break;
	case SCST_TMF_REACH_LU:
		if (scst_clear_dev_task_set(tgt_dev->dev, sess, &scope,
					    mcmd->fn))
			resp = SCST_MGMT_STATUS_FAILED;
		break;
	case SCST_TMF_REACH_TARGET:
		if (scst_reset_sess_devs(sess, &scope))
			resp = SCST_MGMT_STATUS_FAILED;
		break;
	case SCST_TMF_REACH_I_T:
		/* SAM-5 6.3.4: the session stays; it learns of the loss */
		scst_abort_sess_cmds(sess, &scope);
		scst_wait_sess_aborted(sess, scope.gen);
		scst_sess_add_ua(sess, SCST_SENSE_NEXUS_LOSS);
		break;
	case SCST_TMF_REACH_NONE:
	default:
		/* NACA is 0 in our INQUIRY data: there is never an ACA */
		resp = SCST_MGMT_STATUS_FN_NOT_SUPPORTED;
		break;
	}
	if (tgt_dev)
		scst_put_tgt_dev(tgt_dev);
	return resp;
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

/**
 * scst_tmf_name() - the name of a task management function, for the log
 * @fn: an enum scst_tmf value, or anything a driver received
 *
 * Return: the SAM-5 name, or "unknown TMF" for a value outside the enum.
 */
const char *scst_tmf_name(int fn)
{
	if ((unsigned int)fn >= ARRAY_SIZE(scst_tmf_names) ||
	    !scst_tmf_names[fn])
		return "unknown TMF";
	return scst_tmf_names[fn];
}
EXPORT_SYMBOL_GPL(scst_tmf_name);

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
		scst_tmf_name(mcmd->fn), mcmd->lun, mcmd->tag,
		scst_tmf_response_names[mcmd->status]);
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
