// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_local's task management: the SCSI error handlers turn into TMFs of
 * the core and wait until the core lets go of the commands they are about.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/delay.h>

#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

#include "scst_local.h"

/* How often an EH handler complains while a TMF is outstanding */
#define SCST_LOCAL_TMF_WARN_SECS	60
/* How often an EH handler checks whether the core let go of its commands */
#define SCST_LOCAL_POLL_MS		20
#define SCST_LOCAL_POLLS_PER_WARN	(SCST_LOCAL_TMF_WARN_SECS * 1000 / \
					 SCST_LOCAL_POLL_MS)

/* EH statistics, targets/scst_local/stats */
atomic_t scst_local_nr_aborts = ATOMIC_INIT(0);
atomic_t scst_local_nr_lun_resets = ATOMIC_INIT(0);
atomic_t scst_local_nr_target_resets = ATOMIC_INIT(0);
atomic_t scst_local_nr_host_resets = ATOMIC_INIT(0);

/* ---------------------------------------------------------------------- */
/* Task management (SCSI error handling)                                  */
/* ---------------------------------------------------------------------- */

/**
 * scst_local_sdev_lun() - the LUN number of a SCSI device, as the core
 *	numbers LUNs (for scst_rx_mgmt_fn())
 * @sdev: the device
 *
 * Return: the LUN, or U64_MAX for an address the core does not use (the
 * TMF then fails with LUN_NOT_EXIST).
 */
static u64 scst_local_sdev_lun(const struct scsi_device *sdev)
{
	struct scsi_lun lun;
	u64 n;

	int_to_scsilun(sdev->lun, &lun);
	if (scst_lun_decode(lun.scsi_lun, sizeof(lun.scsi_lun), &n))
		return U64_MAX;
	return n;
}

/**
 * struct scst_local_in_core - what scst_local_count_in_core() looks for
 * @sdev: count only commands of this device (NULL: of the whole host)
 * @n: number of commands found that the core still holds
 */
struct scst_local_in_core {
	struct scsi_device *sdev;
	unsigned int n;
};

static bool scst_local_count_in_core(struct scsi_cmnd *sc, void *data)
{
	struct scst_local_in_core *ic = data;
	struct scst_local_cmd *lcmd = scsi_cmd_priv(sc);

	if (ic->sdev && sc->device != ic->sdev)
		return true;
	/* pairs with smp_store_release() in ->xmit_response() */
	if (smp_load_acquire(&lcmd->in_core))
		ic->n++;
	return true;
}

/**
 * scst_local_wait_in_core() - wait until the core holds none of the
 *	commands a TMF was about
 * @shost: the SCSI host
 * @sdev: wait for the commands of this device only, or NULL
 * @sc: wait for this one command only (ABORT TASK), or NULL
 * @what: the TMF, for the log
 *
 * Returns at once when the core kept its promise that a TMF completes after
 * the commands it affects; otherwise polls, complaining now and then, since
 * letting the midlayer reuse those scsi_cmnds would corrupt memory.
 */
static void scst_local_wait_in_core(struct Scsi_Host *shost,
				    struct scsi_device *sdev,
				    struct scsi_cmnd *sc, const char *what)
{
	struct scst_local_in_core ic = { .sdev = sdev };
	unsigned int polls = 0;

	for (;;) {
		ic.n = 0;
		if (sc) {
			struct scst_local_cmd *lcmd = scsi_cmd_priv(sc);

			/* pairs with smp_store_release() in ->xmit_response() */
			ic.n = smp_load_acquire(&lcmd->in_core);
		} else {
			scsi_host_busy_iter(shost, scst_local_count_in_core,
					    &ic);
		}
		if (!ic.n)
			return;
		if (polls && !(polls % SCST_LOCAL_POLLS_PER_WARN))
			shost_printk(KERN_WARNING, shost,
				     "%s done, but the target core still holds %u of its commands after %u s\n",
				     what, ic.n,
				     polls / SCST_LOCAL_POLLS_PER_WARN *
				     SCST_LOCAL_TMF_WARN_SECS);
		msleep(SCST_LOCAL_POLL_MS);
		polls++;
	}
}

/**
 * scst_local_tmf() - run a task management function and wait for it
 * @sc: the command the SCSI error handler passed to us
 * @fn: the function
 * @lun: LUN it addresses (LUN-scoped functions)
 * @tag: tag of the command to abort (ABORT TASK)
 *
 * Runs in the error handler's process context. Waits without a time limit:
 * until the core reports the TMF done, it may still hold commands whose
 * scsi_cmnd the midlayer would reuse as soon as we return.
 *
 * Return: the core's service response.
 */
static enum scst_tmf_response scst_local_tmf(struct scsi_cmnd *sc,
					     enum scst_tmf fn, u64 lun,
					     u64 tag)
{
	struct scst_local_sess *sess = shost_priv(sc->device->host);
	struct scst_session *scst_sess;
	struct scst_local_tmf tmf;
	struct scst_mgmt_cmd *mcmd;
	unsigned int waited = 0;

	init_completion(&tmf.done);
	tmf.status = SCST_MGMT_STATUS_FAILED;

	/*
	 * Not during a nexus swap (force_close): the TMF goes to the new
	 * session, whose commands are the only ones left. Once received, it
	 * holds its session until it completes (the core's active_tmfs).
	 */
	mutex_lock(&sess->nexus_mutex);
	scst_sess = rcu_dereference_protected(sess->scst_sess,
					      lockdep_is_held(&sess->nexus_mutex));
	/* GFP_NOIO: we may be what stands between reclaim and its I/O */
	mcmd = scst_sess ? scst_rx_mgmt_fn(scst_sess, fn, lun, tag, &tmf,
					   GFP_NOIO) : NULL;
	mutex_unlock(&sess->nexus_mutex);
	if (IS_ERR_OR_NULL(mcmd)) {
		scmd_printk(KERN_ERR, sc, "%s: the target core refused it (%ld)\n",
			    scst_tmf_name(fn),
			    mcmd ? PTR_ERR(mcmd) : -ENOMEM);
		return SCST_MGMT_STATUS_FAILED;
	}

	while (!wait_for_completion_timeout(&tmf.done,
					    SCST_LOCAL_TMF_WARN_SECS * HZ)) {
		waited += SCST_LOCAL_TMF_WARN_SECS;
		scmd_printk(KERN_WARNING, sc,
			    "%s: still waiting for the target after %u s\n",
			    scst_tmf_name(fn), waited);
	}
	return tmf.status;
}

/**
 * scst_local_task_mgmt_fn_done() - the core finished a TMF
 * @mcmd: the TMF; its tgt_priv is the waiting struct scst_local_tmf
 */
void scst_local_task_mgmt_fn_done(struct scst_mgmt_cmd *mcmd)
{
	struct scst_local_tmf *tmf = mcmd->tgt_priv;

	tmf->status = mcmd->status;
	complete(&tmf->done);
}

/**
 * scst_local_eh_abort() - eh_abort_handler: ABORT TASK of a timed out
 *	command
 * @sc: the command
 *
 * Return: SUCCESS when the core no longer holds the command: it aborted it,
 * or the command had finished already (TASK_NOT_EXIST); FAILED otherwise,
 * and the midlayer escalates to a LUN reset.
 */
int scst_local_eh_abort(struct scsi_cmnd *sc)
{
	enum scst_tmf_response r;

	atomic_inc(&scst_local_nr_aborts);
	r = scst_local_tmf(sc, SCST_ABORT_TASK, scst_local_sdev_lun(sc->device),
			   blk_mq_unique_tag(scsi_cmd_to_rq(sc)));
	if (r != SCST_MGMT_STATUS_SUCCESS &&
	    r != SCST_MGMT_STATUS_TASK_NOT_EXIST) {
		scmd_printk(KERN_WARNING, sc, "ABORT TASK failed (response %d)\n",
			    r);
		return FAILED;
	}
	scst_local_wait_in_core(sc->device->host, NULL, sc, "ABORT TASK");
	return SUCCESS;
}

/**
 * scst_local_eh_device_reset() - eh_device_reset_handler: LUN RESET
 * @sc: a command of the LUN
 *
 * Return: SUCCESS or FAILED (the midlayer then tries a target reset).
 */
int scst_local_eh_device_reset(struct scsi_cmnd *sc)
{
	enum scst_tmf_response r;

	atomic_inc(&scst_local_nr_lun_resets);
	r = scst_local_tmf(sc, SCST_LUN_RESET, scst_local_sdev_lun(sc->device),
			   0);
	scmd_printk(KERN_INFO, sc, "LUN RESET: response %d\n", r);
	if (r != SCST_MGMT_STATUS_SUCCESS)
		return FAILED;
	scst_local_wait_in_core(sc->device->host, sc->device, NULL,
				"LUN RESET");
	return SUCCESS;
}

/**
 * scst_local_eh_target_reset() - eh_target_reset_handler: TARGET RESET
 * @sc: a command of the target
 *
 * Resets every LUN the session sees, for all the nexuses of each (on
 * every target that exports it).
 *
 * Return: SUCCESS or FAILED (the midlayer then tries a host reset).
 */
int scst_local_eh_target_reset(struct scsi_cmnd *sc)
{
	enum scst_tmf_response r;

	atomic_inc(&scst_local_nr_target_resets);
	r = scst_local_tmf(sc, SCST_TARGET_RESET, 0, 0);
	scmd_printk(KERN_INFO, sc, "TARGET RESET: response %d\n", r);
	if (r != SCST_MGMT_STATUS_SUCCESS)
		return FAILED;
	scst_local_wait_in_core(sc->device->host, NULL, NULL, "TARGET RESET");
	return SUCCESS;
}

/**
 * scst_local_eh_host_reset() - eh_host_reset_handler: I_T nexus loss
 * @sc: a command of the host
 *
 * The loopback "adapter" has nothing to reset but its I_T nexus: every
 * command of the session is aborted, nothing of other sessions. This is
 * the midlayer's last resort: if it fails, the devices go offline and
 * their commands are freed, so we wait for the core to let go of all our
 * commands whatever it answered.
 *
 * The core's SCST_NEXUS_LOSS_SESS aborts every command of the session,
 * establishes the I_T NEXUS LOSS OCCURRED unit attention (SAM-5 6.3.4)
 * and leaves the session registered.
 *
 * Return: SUCCESS, or FAILED and the midlayer takes the devices offline.
 */
int scst_local_eh_host_reset(struct scsi_cmnd *sc)
{
	enum scst_tmf_response r;

	atomic_inc(&scst_local_nr_host_resets);
	r = scst_local_tmf(sc, SCST_NEXUS_LOSS_SESS, 0, 0);
	scmd_printk(KERN_INFO, sc, "host reset (I_T nexus loss): response %d\n",
		    r);
	scst_local_wait_in_core(sc->device->host, NULL, NULL,
				"I_T NEXUS LOSS");
	return r == SCST_MGMT_STATUS_SUCCESS ? SUCCESS : FAILED;
}
