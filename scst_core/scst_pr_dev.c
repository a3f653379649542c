// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_pr_dev.c - persistent reservations (SPC-4 §5.9) in the command
 * path: the per-device state, the I_T nexus of a session, PERSISTENT
 * RESERVE IN/OUT answered by the core for every handler, the conflict
 * check when a command arrives and again before it runs, and what a
 * PERSISTENT RESERVE OUT implies for the other I_T nexuses (unit
 * attentions, PREEMPT AND ABORT). The rules are scst_pr.c's (pure
 * logic); the APTPL file I/O is in scst_pr_aptpl.c.
 *
 * Locking: dev->pr_mutex serializes PERSISTENT RESERVE OUT (state change
 * and APTPL file, in that order); dev->pr_lock, a spinlock taken in
 * process context only, guards dev->pr for the readers that must not
 * sleep (PERSISTENT RESERVE IN, the conflict check). The state changes
 * under both. dev->pr_active is false when there is neither a
 * registration nor a reservation (and the state is known): the READ/WRITE
 * path then reads one bool and takes no lock. dev->res_gen counts the
 * changes after which commands admitted earlier are checked again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/workqueue.h>

#include "scst_priv.h"

static bool scst_pr_in_use(const struct scst_pr_state *st)
{
	return st->nreg || st->type != SCST_PR_TYPE_NONE;
}

/*
 * pr_active after a change of the state or of pr_unknown: pr_lock held,
 * or the device not yet visible.
 */
void scst_pr_update_active(struct scst_device *dev)
{
	WRITE_ONCE(dev->pr_active,
		   scst_pr_unknown_now(dev) || scst_pr_in_use(dev->pr));
}

/**
 * scst_pr_set_unknown() - the device's PR state cannot be known
 * @dev: the device, not yet visible (its APTPL file is being read)
 * @fmt: why, for pr_state (the caller logs it)
 *
 * Fail closed: a node fenced off before the restart must not get write
 * access back because the file that said so could not be read. Until
 * scst_pr_file_reset(), every command but those that report the logical
 * unit's identity (scst_pr_unknown_allows()) gets NOT READY, and the
 * APTPL file is never written.
 */
void scst_pr_set_unknown(struct scst_device *dev, const char *fmt, ...)
{
	va_list ap;

	scst_pr_state_init(dev->pr);
	kfree(dev->pr_unknown_why);
	va_start(ap, fmt);
	/* NULL without memory: pr_state then says less, nothing else */
	dev->pr_unknown_why = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	dev->pr_unknown = true;
	scst_pr_update_active(dev);
}

/* The APTPL file read in a kworker: scst_pr_dev_init() */
struct scst_pr_load_work {
	struct work_struct work;
	struct scst_device *dev;
};

static void scst_pr_load_workfn(struct work_struct *work)
{
	scst_pr_aptpl_load(container_of(work, struct scst_pr_load_work,
					work)->dev);
}

/**
 * scst_pr_dev_init() - the persistent reservation state of a new device
 * @dev: the device, its name set; not yet visible
 *
 * Reads the device's APTPL file if there is one (scst_pr_aptpl_load();
 * a file that cannot be read or parsed leaves the state unknown) in a
 * kworker, and waits for it.
 * Process context, holding no lock the kworker could need (the handlers
 * call it under their own mutex).
 *
 * Return: 0 or -ENOMEM.
 */
int scst_pr_dev_init(struct scst_device *dev)
{
	struct scst_pr_load_work lw = { .dev = dev };

	dev->pr = kvzalloc(sizeof(*dev->pr), GFP_KERNEL);
	if (!dev->pr)
		return -ENOMEM;
	scst_pr_state_init(dev->pr);
	mutex_init(&dev->pr_mutex);
	mutex_init(&dev->pr_cl_mutex);
	spin_lock_init(&dev->pr_lock);
	/*
	 * In a kworker, as the PERSISTENT RESERVE OUT that writes the file
	 * runs (scst_exec_wq): the path resolves against the init task's
	 * root and working directory, not those of whoever wrote add_device
	 * (scstadmin in a chroot or a container).
	 */
	INIT_WORK_ONSTACK(&lw.work, scst_pr_load_workfn);
	queue_work(system_unbound_wq, &lw.work);
	flush_work(&lw.work);
	destroy_work_on_stack(&lw.work);
	scst_pr_update_active(dev);
	return 0;
}

void scst_pr_dev_free(struct scst_device *dev)
{
	scst_pr_cluster_dev_gone(dev);
	kvfree(dev->pr);
	dev->pr = NULL;
	kfree(dev->pr_unknown_why);
	dev->pr_unknown_why = NULL;
}

/**
 * scst_pr_sess_init() - the I_T nexus of a new session, as PR names it
 * @sess: the session, its target, initiator name and tgt_priv set
 *
 * The target driver's TransportID (->get_transport_id()), else an iSCSI
 * name one made of the initiator name; the relative target port
 * identifier is set under scst_mutex when the session joins its target.
 * Computed once: every command of the session uses it.
 */
void scst_pr_sess_init(struct scst_session *sess)
{
	struct scst_tgt *tgt = sess->tgt;
	struct scst_pr_tid *tid = &sess->pr_nexus.tid;
	int ret;

	if (tgt->tgtt->get_transport_id)
		ret = tgt->tgtt->get_transport_id(sess, tid);
	else
		ret = scst_pr_tid_from_iscsi_name(tid, sess->initiator_name);
	if (ret || !tid->len) {
		memset(tid, 0, sizeof(*tid));
		pr_warn("%s/%s: session of %s has no TransportID: it cannot register persistent reservation keys\n",
			tgt->tgtt->name, tgt->name, sess->initiator_name);
	}
}

/**
 * scst_pr_cmd_check() - whether a command meets a persistent reservation
 *	(SPC-4 §5.9.1, SBC-3 §4.17) or, being an SPC-2 RESERVE or RELEASE, a
 *	registration (SPC-4 §5.9.3), or a PR state that is unknown
 * @cmd: the command, parsed, its device set
 *
 * Return: SCST_RES_OK, SCST_RES_CONFLICT (RESERVATION CONFLICT) or
 * SCST_RES_NOT_READY (the state is unknown: scst_pr_set_unknown(), or
 * this node is not in step with its cluster: scst_pr_cluster.c).
 */
enum scst_res_verdict scst_pr_cmd_check(struct scst_cmd *cmd)
{
	struct scst_device *dev = cmd->dev;
	enum scst_res_verdict ret;

	if (!READ_ONCE(dev->pr_active))
		return SCST_RES_OK;
	spin_lock(&dev->pr_lock);
	if (unlikely(scst_pr_unknown_now(dev)))
		ret = scst_pr_unknown_allows(cmd->cdb, cmd->cdb_len) ?
		      SCST_RES_OK : SCST_RES_NOT_READY;
	else if (scst_pr_conflicts_facts(dev->pr, &cmd->sess->pr_nexus,
					 cmd->cdb_facts))
		ret = SCST_RES_CONFLICT;
	else
		ret = SCST_RES_OK;
	spin_unlock(&dev->pr_lock);
	return ret;
}

/**
 * scst_res_check() - the reservations' verdict on a command
 * @cmd: the command, parsed, its device set
 *
 * The SPC-2 reservation (SPC-2 §5.5.1), then the persistent ones. Made
 * when the command arrives and, if a reservation changed meanwhile
 * (scst_res_changed_since()), again before ->exec(): a command that
 * waited for its data, the task set or a device thread must not run
 * after a RESERVE, PREEMPT or CLEAR of another nexus that it conflicts
 * with (SPC-4 §5.9.1: the reservation restricts the commands the device
 * server processes). The generation is read first: a change after it is
 * seen again before ->exec().
 *
 * Return: SCST_RES_OK, SCST_RES_CONFLICT or SCST_RES_NOT_READY.
 */
enum scst_res_verdict scst_res_check(struct scst_cmd *cmd)
{
	cmd->res_gen = atomic_read(&cmd->dev->res_gen);
	/* generation, then state: pairs with scst_res_changed()'s barrier */
	smp_rmb();
	if (!scst_check_reservation(cmd))
		return SCST_RES_CONFLICT;
	return scst_pr_cmd_check(cmd);
}

/*
 * SPC-4 §6.15: PERSISTENT RESERVE IN. The data is built twice under
 * pr_lock: once for its length, then into a buffer of what the command
 * transfers (the smaller of that length and the ALLOCATION LENGTH), not
 * of what the initiator offers (SPC-4 §4.2.5.6).
 */
void scst_pr_in_exec(struct scst_cmd *cmd)
{
	struct scst_device *dev = cmd->dev;
	struct scst_cdb_err err;
	u8 none = 0;
	size_t size;
	int len;
	u8 *buf;

	spin_lock(&dev->pr_lock);
	len = scst_pr_in(dev->pr, cmd->cdb, cmd->cdb_len, &none, 0, &err);
	spin_unlock(&dev->pr_lock);
	if (len < 0) {
		scst_set_cmd_error_from(cmd, &err);
		return;
	}
	size = min_t(size_t, len, cmd->bufflen);
	if (!size) {
		cmd->resp_len = 0;
		return;
	}
	/* GFP_NOIO: this may run on the receiving (completion) context */
	buf = kvzalloc(size, GFP_NOIO);
	if (!buf) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		return;
	}
	spin_lock(&dev->pr_lock);
	len = scst_pr_in(dev->pr, cmd->cdb, cmd->cdb_len, buf, size, &err);
	spin_unlock(&dev->pr_lock);
	if (len < 0)
		scst_set_cmd_error_from(cmd, &err);
	else
		scst_copy_to_sg(cmd, buf, min_t(size_t, len, size));
	kvfree(buf);
}

/*
 * REGISTER AND MOVE (SPC-4 §5.9.8): whether a target port with the
 * RELATIVE TARGET PORT IDENTIFIER of the parameter list exists: one of
 * this system's targets, or a remote port of the device's ALUA groups
 * (the other node of an HA pair, Documentation/ha.md). Looked up
 * under scst_mutex before the PR locks are taken (scst_pr_out() calls
 * back under pr_lock, where nothing may sleep).
 */
struct scst_pr_port {
	u16 rel_tgt_id;
	bool exists;
};

static void scst_pr_port_lookup(struct scst_device *dev,
				struct scst_pr_port *p, const u8 *data, u32 len)
{
	struct scst_tgt_template *tgtt;
	struct scst_tgt *tgt;

	p->exists = false;
	if (len < SCST_PR_OUT_PARAM_LEN)
		return;
	/* SPC-4 §6.16.4 table 184: bytes 18-19 */
	p->rel_tgt_id = get_unaligned_be16(data + 18);
	mutex_lock(&scst_mutex);
	list_for_each_entry(tgtt, &scst_template_list, list_entry)
		list_for_each_entry(tgt, &tgtt->tgt_list, tgtt_entry)
			if (tgt->rel_tgt_id == p->rel_tgt_id)
				p->exists = true;
	mutex_unlock(&scst_mutex);
	/* a port of the other node of a pair, in the device's ALUA groups */
	if (!p->exists)
		p->exists = scst_alua_remote_port(dev, p->rel_tgt_id);
}

static bool scst_pr_port_exists(u16 rel_tgt_id, void *ctx)
{
	const struct scst_pr_port *p = ctx;

	return p->exists && p->rel_tgt_id == rel_tgt_id;
}

/*
 * The I_T_L nexuses a PERSISTENT RESERVE OUT's notices go to: every one
 * of the device's, referenced, and room for the PREEMPT AND ABORT list.
 * Taken under pr_mutex after the state changed under pr_lock, so a nexus
 * missing from the copy has only commands that see the new state; taken
 * before the change is committed, so that when memory runs out the
 * command fails with nothing changed instead of succeeding without its
 * unit attentions or aborts.
 */
void scst_pr_nexuses_put(struct scst_pr_nexuses *nx)
{
	unsigned int i;

	for (i = 0; i < nx->n; i++)
		scst_put_tgt_dev(nx->tds[i]);
	kfree(nx->tds);
	kfree(nx->ab);
	memset(nx, 0, sizeof(*nx));
}

int scst_pr_nexuses_get(struct scst_device *dev, struct scst_pr_nexuses *nx)
{
	nx->ab = NULL;
	nx->tds = scst_dev_get_tgt_devs(dev, &nx->n);
	if (IS_ERR(nx->tds)) {
		nx->tds = NULL;
		nx->n = 0;
		return -ENOMEM;
	}
	if (!nx->n)
		return 0;
	nx->ab = kcalloc(nx->n, sizeof(*nx->ab), GFP_KERNEL);
	if (nx->ab)
		return 0;
	scst_pr_nexuses_put(nx);
	return -ENOMEM;
}

/*
 * Carry out the notices of a PERSISTENT RESERVE OUT for every I_T_L nexus
 * of @nx whose session's I_T nexus a notice's registrant matches: its
 * unit attention (SPC-4 §5.9.7-5.9.11), and for PREEMPT AND ABORT the
 * abort of its tasks (SPC-4 §5.9.11.5). Drops every reference of @nx and
 * frees it. @cmd: the PERSISTENT RESERVE OUT, or NULL for another node's.
 * Return how many commands were aborted.
 */
unsigned int scst_pr_apply(struct scst_cmd *cmd,
			   const struct scst_pr_effects *eff,
			   struct scst_pr_nexuses *nx)
{
	unsigned int i, j, nab = 0, aborted = 0;

	for (i = 0; i < nx->n; i++) {
		struct scst_tgt_dev *td = nx->tds[i];
		bool keep = false;

		for (j = 0; j < eff->n; j++) {
			const struct scst_pr_notice *no = &eff->notice[j];

			if (!scst_pr_reg_matches(&no->who, &td->sess->pr_nexus))
				continue;
			if (no->ua)
				scst_tgt_dev_add_ua(td, no->ua);
			if (no->abort) {
				nx->ab[nab++] = td;
				keep = true;
			}
			break;
		}
		if (!keep)
			scst_put_tgt_dev(td);
	}
	kfree(nx->tds);
	if (nab) {
		/*
		 * Aborted commands waiting in the task set behind this one
		 * must be able to start (and end as aborted) while we wait.
		 */
		if (cmd)
			scst_dev_task_set_done(cmd);
		aborted = scst_abort_nexuses_and_wait(nx->ab, nab);
	}
	kfree(nx->ab);
	return aborted;
}

/* Put back the state copied before a PERSISTENT RESERVE OUT; pr_mutex held */
static void scst_pr_restore(struct scst_device *dev,
			    const struct scst_pr_state *old)
{
	spin_lock(&dev->pr_lock);
	memcpy(dev->pr, old, sizeof(*old));
	scst_pr_update_active(dev);
	spin_unlock(&dev->pr_lock);
	/* what the failed command released may conflict again */
	scst_res_changed(dev);
}

/* The parameter list of a PERSISTENT RESERVE OUT, in one buffer. */
static u8 *scst_pr_out_data(struct scst_cmd *cmd, u32 *len)
{
	u8 *data;

	*len = 0;
	if (!cmd->bufflen)
		return NULL;
	data = kvmalloc(cmd->bufflen, GFP_KERNEL);
	if (data)
		*len = scst_copy_from_sg(cmd, data, cmd->bufflen);
	return data;
}

/* A device in cluster_mode could not take part: BUSY to retry, or fail closed. */
static void scst_pr_cl_refused(struct scst_cmd *cmd, int err)
{
	if (err == -ETIMEDOUT || err == -EAGAIN || err == -ENOMEM)
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
	else
		scst_set_cmd_error(cmd, SCST_SENSE_NOT_READY_MANUAL);
}

/*
 * SPC-4 §6.16: PERSISTENT RESERVE OUT, on scst_exec_wq (it sleeps: the
 * mutex, the APTPL file, the wait for aborted commands). The state is
 * copied first: when the APTPL file cannot be written the command fails
 * (INTERNAL TARGET FAILURE), and when the copy of the nexuses its notices
 * go to cannot be allocated it fails with BUSY; either way the state is
 * put back, as if it had not run. (Between the change and the put-back,
 * under pr_mutex, the conflict check and PERSISTENT RESERVE IN may see the
 * new state: the same window a state change that succeeds has.)
 *
 * In cluster_mode (scst_pr_cluster.c) the cluster module first takes the
 * cluster-wide lock and brings the state up to date; a change is then
 * published to the other nodes before the APTPL file is written (and
 * published back if the file fails), and the command completes once every
 * other node has applied it, its aborts included (out_end), or fails
 * with INTERNAL TARGET FAILURE when one did not say so in time.
 */
void scst_pr_out_exec(struct scst_cmd *cmd)
{
	struct scst_device *dev = cmd->dev;
	struct scst_pr_out_req req = {
		.nexus = &cmd->sess->pr_nexus,
		.cdb = cmd->cdb,
		.cdb_len = cmd->cdb_len,
		.port_exists = scst_pr_port_exists,
	};
	const struct scst_pr_cluster_ops *clops;
	struct scst_pr_port port = { };
	struct scst_pr_nexuses nx = { };
	struct scst_pr_state *old = NULL;
	struct scst_pr_effects *eff;
	struct scst_cdb_err err;
	unsigned int aborted = 0;
	bool published = false;
	int ret, cl_ret = 0;
	u8 *data = NULL;
	void *cl;
	u32 len;

	if (!cmd->sess->pr_nexus.tid.len) {
		scst_set_cmd_error(cmd, SCST_SENSE_INSUFFICIENT_REG_RESOURCES);
		return;
	}
	eff = kvmalloc(sizeof(*eff), GFP_KERNEL);
	old = kvmalloc(sizeof(*old), GFP_KERNEL);
	data = scst_pr_out_data(cmd, &len);
	if (!eff || !old || (cmd->bufflen && !data)) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		goto free;
	}
	req.data = data;
	req.data_len = len;
	req.ctx = &port;
	if ((cmd->cdb[1] & 0x1f) == SCST_PR_OUT_REGISTER_AND_MOVE)
		scst_pr_port_lookup(dev, &port, data, len);

	mutex_lock(&dev->pr_cl_mutex);
	cl = dev->pr_cl;
	clops = dev->pr_cl_ops;
	if (cl) {
		cl_ret = clops->out_begin(cl);
		if (cl_ret) {
			mutex_unlock(&dev->pr_cl_mutex);
			scst_pr_cl_refused(cmd, cl_ret);
			goto free;
		}
	}
	mutex_lock(&dev->pr_mutex);
	if (unlikely(scst_pr_unknown_now(dev))) {
		/* refused on arrival; never change or write an unknown state */
		scst_set_cmd_error(cmd, SCST_SENSE_NOT_READY_MANUAL);
		goto unlock;
	}
	/* pr_mutex keeps writers out: the copy needs no pr_lock */
	memcpy(old, dev->pr, sizeof(*old));
	spin_lock(&dev->pr_lock);
	ret = scst_pr_out(dev->pr, &req, eff, &err);
	scst_pr_update_active(dev);
	spin_unlock(&dev->pr_lock);
	if (!ret)
		scst_res_changed(dev);
	if (!ret && eff->n && scst_pr_nexuses_get(dev, &nx)) {
		scst_pr_restore(dev, old);
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		goto unlock;
	}
	if (cl && !ret && eff->changed) {
		cl_ret = clops->out_publish(cl, old, dev->pr, eff);
		if (cl_ret) {
			scst_pr_restore(dev, old);
			scst_pr_nexuses_put(&nx);
			scst_set_cmd_error(cmd, SCST_SENSE_HARDWARE_ERROR);
			goto unlock;
		}
		published = true;
	}
	if (!ret && eff->persist != SCST_PR_PERSIST_NONE &&
	    scst_pr_aptpl_persist(dev, eff->persist)) {
		/* the state goes back, on the other nodes too; no notice */
		if (published)
			clops->out_publish(cl, dev->pr, old, NULL);
		scst_pr_restore(dev, old);
		scst_set_cmd_error(cmd, SCST_SENSE_HARDWARE_ERROR);
		scst_pr_nexuses_put(&nx);
		goto unlock;
	}
	if (cl)
		cl_ret = clops->out_end(cl);
	cl = NULL;
	mutex_unlock(&dev->pr_mutex);
	mutex_unlock(&dev->pr_cl_mutex);

	if (ret < 0) {
		scst_set_cmd_error_from(cmd, &err);
	} else if (ret == SCST_PR_CONFLICT) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_RESERVATION_CONFLICT);
	} else {
		if (eff->n)
			aborted = scst_pr_apply(cmd, eff, &nx);
		if ((cmd->cdb[1] & 0x1f) == SCST_PR_OUT_PREEMPT_AND_ABORT)
			pr_info("%s: %s: PREEMPT AND ABORT aborted %u commands\n",
				dev->name, cmd->sess->sess_name, aborted);
		/* taken effect here, not known to have everywhere */
		if (cl_ret)
			scst_set_cmd_error(cmd, SCST_SENSE_HARDWARE_ERROR);
	}
	goto free;
unlock:
	if (cl)
		clops->out_end(cl);
	mutex_unlock(&dev->pr_mutex);
	mutex_unlock(&dev->pr_cl_mutex);
free:
	kvfree(data);
	kvfree(old);
	kvfree(eff);
}

/* devices/<dev>/pr_state */
ssize_t scst_pr_dev_show(struct scst_device *dev, char *buf)
{
	int len;

	/* pr_lock, not pr_mutex: a reader never waits for the APTPL file */
	spin_lock(&dev->pr_lock);
	if (unlikely(!dev->pr_unknown && scst_pr_unknown_now(dev)))
		len = scnprintf(buf, PAGE_SIZE,
				"cluster: not in step with the other nodes (joining, recovery or no quorum): commands that a reservation could restrict get NOT READY\n");
	else if (unlikely(dev->pr_unknown))
		len = scnprintf(buf, PAGE_SIZE,
				"state unknown: %s\nwrite 1 to pr_file_reset to discard the APTPL file and start with no reservations\n",
				dev->pr_unknown_why ?: "the APTPL file could not be read");
	else
		len = scst_pr_state_show(dev->pr, buf, PAGE_SIZE);
	spin_unlock(&dev->pr_lock);
	if (len >= PAGE_SIZE) {
		/* 128 long iSCSI names do not fit in a page: say so */
		len = PAGE_SIZE - 1;
		memcpy(buf + PAGE_SIZE - 5, "...\n", 4);
	}
	return len;
}
