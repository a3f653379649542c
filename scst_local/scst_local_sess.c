// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_local's targets and sessions: each session is one SCSI host on one
 * I_T nexus of the core, which a force_close replaces (see scst_local.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include <scsi/scsi_host.h>

#include "scst_local.h"

/*
 * Highest LUN the midlayer may scan: covers the peripheral (0..255) and
 * flat space (0x4000 | 0..16383) encodings of every LUN the core exports.
 */
#define SCST_LOCAL_MAX_LUN		0x7fff

/* target/session creation and removal; the lists (see scst_local.h) */
DEFINE_MUTEX(scst_local_mutex);
static LIST_HEAD(scst_local_tgt_list);
static bool scst_local_exiting;

static void scst_local_close_work_fn(struct work_struct *work);
DECLARE_WORK(scst_local_close_work, scst_local_close_work_fn);
static void scst_local_reset_work_fn(struct work_struct *work);

/* ---------------------------------------------------------------------- */
/* Sessions and targets                                                   */
/* ---------------------------------------------------------------------- */

struct scst_local_tgt *scst_local_find_tgt(const char *name)
{
	struct scst_local_tgt *tgt;

	lockdep_assert_held(&scst_local_mutex);
	list_for_each_entry(tgt, &scst_local_tgt_list, entry)
		if (!strcmp(tgt->scst_tgt->name, name))
			return tgt;
	return NULL;
}

struct scst_local_sess *scst_local_find_sess(struct scst_local_tgt *tgt,
					     const char *name)
{
	struct scst_local_sess *sess;

	lockdep_assert_held(&scst_local_mutex);
	list_for_each_entry(sess, &tgt->sessions, entry)
		if (!strcmp(sess->name, name))
			return sess;
	return NULL;
}

int scst_local_check_sess_name(const char *name)
{
	if (strlen(name) >= SCST_MAX_NAME) {
		pr_err("session name %s is longer than %d characters\n", name,
		       SCST_MAX_NAME - 1);
		return -EINVAL;
	}
	return 0;
}

/**
 * scst_local_add_session() - create a session and its SCSI host
 * @tgt: the target
 * @name: the session (initiator) name; checked by
 *	scst_local_check_sess_name()
 *
 * The SCSI host is scanned (asynchronously if scsi_mod.scan=async) once
 * the session can take commands.
 *
 * Return: 0, -EEXIST if @tgt has a session @name, or another errno.
 */
int scst_local_add_session(struct scst_local_tgt *tgt, const char *name)
{
	struct scst_session *scst_sess;
	struct scst_local_sess *sess;
	struct Scsi_Host *shost;
	int ret;

	lockdep_assert_held(&scst_local_mutex);

	if (scst_local_find_sess(tgt, name)) {
		pr_err("session %s already exists on target %s\n", name,
		       tgt->scst_tgt->name);
		return -EEXIST;
	}

	shost = scsi_host_alloc(&scst_local_sht, sizeof(*sess));
	if (!shost) {
		pr_err("session %s: cannot allocate a SCSI host\n", name);
		return -ENOMEM;
	}
	sess = shost_priv(shost);
	sess->shost = shost;
	sess->tgt = tgt;
	mutex_init(&sess->nexus_mutex);
	INIT_WORK(&sess->reset_work, scst_local_reset_work_fn);
	INIT_LIST_HEAD(&sess->entry);
	strscpy(sess->name, name, sizeof(sess->name));

	shost->max_id = 1;
	shost->max_channel = 0;
	shost->max_lun = SCST_LOCAL_MAX_LUN;
	shost->max_cmd_len = SCST_MAX_CDB_SIZE;
	shost->can_queue = scst_local_can_queue;
	shost->cmd_per_lun = scst_local_cmd_per_lun;
	shost->nr_hw_queues = scst_local_nr_hw_queues ?: nr_cpu_ids;

	scst_sess = scst_register_session(tgt->scst_tgt, name, sess);
	if (IS_ERR_OR_NULL(scst_sess)) {
		ret = scst_sess ? PTR_ERR(scst_sess) : -ENOMEM;
		pr_err("session %s: the target core refused it (%d)\n", name,
		       ret);
		goto put_host;
	}
	RCU_INIT_POINTER(sess->scst_sess, scst_sess);

	ret = scsi_add_host(shost, scst_local_root);
	if (ret) {
		pr_err("session %s: scsi_add_host() failed (%d)\n", name, ret);
		goto unregister_session;
	}

	list_add_tail(&sess->entry, &tgt->sessions);
	pr_info("target %s: session %s is SCSI host%u\n", tgt->scst_tgt->name,
		name, shost->host_no);
	scsi_scan_host(shost);

	/* a close request that came before we were on the list */
	if (test_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags))
		queue_work(system_long_wq, &scst_local_close_work);
	return 0;

unregister_session:
	/*
	 * sess->scst_sess and the session's force_close were visible: a
	 * force_close may have queued the reset work, which may have
	 * swapped the nexus. As scst_local_remove_session(): no more swaps,
	 * the current nexus (if any) goes, the work is done before @sess,
	 * the hostdata, is freed.
	 */
	mutex_lock(&sess->nexus_mutex);
	set_bit(SCST_LOCAL_SESS_REMOVING, &sess->flags);
	scst_sess = rcu_dereference_protected(sess->scst_sess,
					      lockdep_is_held(&sess->nexus_mutex));
	RCU_INIT_POINTER(sess->scst_sess, NULL);
	mutex_unlock(&sess->nexus_mutex);
	if (scst_sess)
		scst_unregister_session(scst_sess, true, NULL);
	cancel_work_sync(&sess->reset_work);
put_host:
	scsi_host_put(shost);
	return ret;
}

/**
 * scst_local_remove_session() - remove a session and its SCSI host
 * @sess: the session, on its target's list
 *
 * Removing the SCSI host first lets sd flush its cache and drains every
 * command through the core; the session is unregistered once the midlayer
 * can send nothing more. scsi_remove_host() waits until the last user of
 * the disks (an open /dev/sdX, a mount) has let go of them.
 */
void scst_local_remove_session(struct scst_local_sess *sess)
{
	struct Scsi_Host *shost = sess->shost;
	struct scst_session *scst_sess;

	lockdep_assert_held(&scst_local_mutex);

	list_del_init(&sess->entry);
	pr_info("target %s: removing session %s (SCSI host%u)\n",
		sess->tgt->scst_tgt->name, sess->name, shost->host_no);
	/* after a swap in progress; none after this */
	mutex_lock(&sess->nexus_mutex);
	set_bit(SCST_LOCAL_SESS_REMOVING, &sess->flags);
	mutex_unlock(&sess->nexus_mutex);
	scsi_remove_host(shost);
	scst_sess = rcu_dereference_protected(sess->scst_sess, true);
	/* NULL: a swap failed to open a new nexus */
	if (scst_sess)
		scst_unregister_session(scst_sess, true, NULL);
	/*
	 * Its force_close attribute is gone: nobody queues the reset work
	 * any more, and a queued one finds SCST_LOCAL_SESS_REMOVING.
	 */
	cancel_work_sync(&sess->reset_work);
	/* frees @sess, the host's hostdata */
	scsi_host_put(shost);
}

/**
 * scst_local_reset_work_fn() - a new I_T nexus after a force_close
 * @work: the session's reset_work
 *
 * Unregistering the old session aborts its commands: each comes back
 * through ->xmit_response() with TASK ABORTED, which the midlayer retries
 * on the new session. Commands queued meanwhile find no session and are
 * requeued by the block layer (SCSI_MLQUEUE_HOST_BUSY). If no new session
 * can be opened, the host goes as after the core's close request.
 */
static void scst_local_reset_work_fn(struct work_struct *work)
{
	struct scst_local_sess *sess = container_of(work, struct scst_local_sess,
						    reset_work);
	struct scst_session *old, *new;
	unsigned int noio;

	/*
	 * The host's I/O waits (queuecommand() answers busy) and its error
	 * handler waits for nexus_mutex: an allocation here must not wait
	 * for writeback to this host.
	 */
	noio = memalloc_noio_save();
	mutex_lock(&sess->nexus_mutex);
	if (test_bit(SCST_LOCAL_SESS_REMOVING, &sess->flags) ||
	    test_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags))
		goto unlock;
	old = rcu_dereference_protected(sess->scst_sess,
					lockdep_is_held(&sess->nexus_mutex));
	if (!old)
		goto unlock;
	RCU_INIT_POINTER(sess->scst_sess, NULL);
	/* queuecommand() calls that saw @old have handed it their command */
	synchronize_rcu();
	scst_unregister_session(old, true, NULL);

	new = scst_register_session(sess->tgt->scst_tgt, sess->name, sess);
	if (IS_ERR_OR_NULL(new)) {
		pr_err("session %s: no new session after force_close (%ld): removing SCSI host%u\n",
		       sess->name, new ? PTR_ERR(new) : -ENOMEM,
		       sess->shost->host_no);
		set_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags);
		queue_work(system_long_wq, &scst_local_close_work);
		goto unlock;
	}
	rcu_assign_pointer(sess->scst_sess, new);
	pr_info("target %s: session %s has a new I_T nexus (SCSI host%u)\n",
		sess->tgt->scst_tgt->name, sess->name, sess->shost->host_no);
unlock:
	mutex_unlock(&sess->nexus_mutex);
	memalloc_noio_restore(noio);
}

/**
 * scst_local_add_target() - create a target and optionally one session
 * @name: the target name
 * @sess_name: name of a session to create with it, or NULL
 *
 * Return: 0, -EEXIST for a target of that name, or another errno; on
 * failure nothing is left behind.
 */
int scst_local_add_target(const char *name, const char *sess_name)
{
	struct scst_local_tgt *tgt;
	struct scst_tgt *scst_tgt;
	int ret;

	lockdep_assert_held(&scst_local_mutex);

	if (scst_local_find_tgt(name)) {
		pr_err("target %s already exists\n", name);
		return -EEXIST;
	}
	if (sess_name) {
		ret = scst_local_check_sess_name(sess_name);
		if (ret)
			return ret;
	}

	tgt = kzalloc(sizeof(*tgt), GFP_KERNEL);
	if (!tgt)
		return -ENOMEM;
	INIT_LIST_HEAD(&tgt->sessions);

	scst_tgt = scst_register_target(&scst_local_tgtt, name);
	if (IS_ERR_OR_NULL(scst_tgt)) {
		ret = scst_tgt ? PTR_ERR(scst_tgt) : -ENOMEM;
		pr_err("target %s: the target core refused it (%d)\n", name,
		       ret);
		goto free_tgt;
	}
	scst_tgt->tgt_priv = tgt;
	tgt->scst_tgt = scst_tgt;
	list_add_tail(&tgt->entry, &scst_local_tgt_list);

	if (sess_name) {
		ret = scst_local_add_session(tgt, sess_name);
		if (ret)
			goto unregister_target;
	}
	pr_info("target %s added\n", name);
	return 0;

unregister_target:
	list_del(&tgt->entry);
	scst_unregister_target(scst_tgt);
free_tgt:
	kfree(tgt);
	return ret;
}

/**
 * scst_local_remove_target() - remove a target with all its sessions
 * @tgt: the target
 */
void scst_local_remove_target(struct scst_local_tgt *tgt)
{
	struct scst_local_sess *sess, *tmp;

	lockdep_assert_held(&scst_local_mutex);

	list_for_each_entry_safe(sess, tmp, &tgt->sessions, entry)
		scst_local_remove_session(sess);
	list_del(&tgt->entry);
	pr_info("removing target %s\n", tgt->scst_tgt->name);
	scst_unregister_target(tgt->scst_tgt);
	kfree(tgt);
}

/**
 * scst_local_close_work_fn() - remove the sessions the core asked us to close
 * @work: scst_local_close_work
 */
static void scst_local_close_work_fn(struct work_struct *work)
{
	struct scst_local_sess *sess, *tmp;
	struct scst_local_tgt *tgt;

	mutex_lock(&scst_local_mutex);
	list_for_each_entry(tgt, &scst_local_tgt_list, entry)
		list_for_each_entry_safe(sess, tmp, &tgt->sessions, entry)
			if (test_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags))
				scst_local_remove_session(sess);
	mutex_unlock(&scst_local_mutex);
}

/**
 * scst_local_close_session() - the core asks us to close a session
 * @scst_sess: the session
 *
 * Does not sleep and takes no lock, whatever the core holds; both cases
 * end in a worker, which calls scst_unregister_session() after this
 * returns.
 *
 * The administrator's force_close: the reset worker replaces the session
 * by a new one on the same SCSI host (see "Locking" in scst_local.h). A request for
 * a session already being replaced is one for the new one, and is ignored.
 *
 * The target is being unregistered: from now on commands the core refuses
 * fail with DID_NO_CONNECT, and a worker removes the SCSI host and
 * unregisters the session. If a mgmt command or the module's exit removes
 * the session first, the worker finds nothing to do. The core calls it
 * from scst_unregister_target() (without scst_mutex) and then waits for
 * the target's sessions to be unregistered; we remove a target's sessions
 * ourselves before we unregister it, so this is a safety net.
 */
void scst_local_close_session(struct scst_session *scst_sess)
{
	struct scst_local_sess *sess = scst_sess->tgt_priv;

	if (!scst_sess_tgt_unregistering(scst_sess)) {
		if (rcu_access_pointer(sess->scst_sess) == scst_sess)
			queue_work(system_long_wq, &sess->reset_work);
		return;
	}
	set_bit(SCST_LOCAL_SESS_CLOSING, &sess->flags);
	queue_work(system_long_wq, &scst_local_close_work);
}

/* Has the module's exit begun? Mgmt commands then refuse to act. */
bool scst_local_is_exiting(void)
{
	lockdep_assert_held(&scst_local_mutex);
	return scst_local_exiting;
}

/* Module exit: refuse new mgmt commands, remove every host and target. */
void scst_local_remove_all_targets(void)
{
	struct scst_local_tgt *tgt, *tmp;

	mutex_lock(&scst_local_mutex);
	scst_local_exiting = true;
	list_for_each_entry_safe(tgt, tmp, &scst_local_tgt_list, entry)
		scst_local_remove_target(tgt);
	mutex_unlock(&scst_local_mutex);
}
