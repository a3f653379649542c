/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SCST's loopback target driver: a Linux SCSI host (LLD) whose commands
 * go straight to the target core, so that the LUNs of an scst_local target
 * show up as local /dev/sdX without any transport.
 *
 * Objects:
 *   targets/scst_local/<tgt>           struct scst_local_tgt
 *   targets/scst_local/<tgt>/sessions/<sess>
 *                                      struct scst_local_sess, the hostdata
 *                                      of one Scsi_Host (/sys/class/scsi_host)
 *
 * Every Scsi_Host hangs below one root device, /sys/devices/scst_local.
 *
 * Files:
 *   scst_local_main.c   module parameters, the SCSI host and target
 *                       templates, module init and exit
 *   scst_local_cmd.c    the command path and its data movement
 *   scst_local_tmf.c    task management: the SCSI error handlers
 *   scst_local_sess.c   targets, sessions and their I_T nexus
 *   scst_local_sysfs.c  targets/scst_local/: mgmt verbs and attributes
 *
 * Per-command path (queuecommand -> scst_rx_cmd -> ... -> xmit_response ->
 * scsi_done): no locks, no allocation besides the core's command; the
 * scsi_cmnd pointer travels in cmd->tgt_priv, and the little state we keep
 * per command (struct scst_local_cmd) lives in the scsi_cmnd's private
 * area (cmd_size).
 *
 * Locking: scst_local_mutex serializes target/session creation and removal
 * (the mgmt hooks, the close_session worker and module exit) and protects
 * scst_local_tgt_list and each target's session list. The command path,
 * the EH handlers, close_session(), the reset worker and the sysfs
 * attributes never take it.
 *
 * A force_close of a session (sessions/<sess>/force_close) ends its I_T
 * nexus and opens a new one on the same SCSI host, as a real initiator
 * logs in again: the host and its disks stay, the commands of the old
 * nexus end with TASK ABORTED (which the midlayer retries) and the new one
 * starts with POWER ON OCCURRED (SAM-5 6.3.4). scst_local_sess.nexus_mutex
 * serializes that swap with the EH handlers' TMFs and with the session's
 * removal; the command path reads the session pointer under RCU.
 */
#ifndef SCST_LOCAL_H
#define SCST_LOCAL_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <scst.h>

struct device;
struct Scsi_Host;
struct scsi_cmnd;
struct scsi_host_template;

/**
 * struct scst_local_tgt - an scst_local target
 * @scst_tgt: the core's target
 * @entry: on scst_local_tgt_list
 * @sessions: its struct scst_local_sess, by @entry
 */
struct scst_local_tgt {
	struct scst_tgt *scst_tgt;
	struct list_head entry;
	struct list_head sessions;
};

/* bits of scst_local_sess.flags */
enum {
	/* the core asked us to close the session (->close_session()) */
	SCST_LOCAL_SESS_CLOSING,
	/* scst_local_remove_session() started: no more nexus swaps */
	SCST_LOCAL_SESS_REMOVING,
};

/**
 * struct scst_local_sess - a session, i.e. one SCSI host; this is the
 *	hostdata of @shost, so it lives as long as the Scsi_Host does
 * @scst_sess: the core's session (NULL while a force_close swaps it);
 *	RCU for the command path, @nexus_mutex for the rest
 * @nexus_mutex: see "Locking" above
 * @reset_work: opens a new nexus after a force_close
 * @shost: the SCSI host
 * @tgt: the target
 * @flags: SCST_LOCAL_SESS_* bits
 * @entry: on @tgt->sessions while the session exists
 * @name: session (= initiator) name
 */
struct scst_local_sess {
	struct scst_session __rcu *scst_sess;
	struct mutex nexus_mutex;		/* swaps of @scst_sess */
	struct work_struct reset_work;
	struct Scsi_Host *shost;
	struct scst_local_tgt *tgt;
	unsigned long flags;
	struct list_head entry;
	char name[SCST_MAX_NAME];
};

/**
 * struct scst_local_cmd - our part of a scsi_cmnd (scsi_cmd_priv())
 * @xfer_len: bytes moved between the scsi_cmnd's and the core's buffers,
 *	for the residual count
 * @in_core: the core holds a command for this scsi_cmnd and may still
 *	touch it; set before scst_cmd_init_done(), cleared (release) by
 *	->xmit_response() before its last access that the EH could race with
 */
struct scst_local_cmd {
	u32 xfer_len;
	bool in_core;
};

/**
 * struct scst_local_tmf - a task management function an EH handler waits for
 * @done: completed by ->task_mgmt_fn_done()
 * @status: the core's service response
 */
struct scst_local_tmf {
	struct completion done;
	enum scst_tmf_response status;
};

/* scst_local_main.c: module parameters and templates */
extern unsigned int scst_local_can_queue;
extern unsigned int scst_local_cmd_per_lun;
extern unsigned int scst_local_nr_hw_queues;
extern struct device *scst_local_root;
extern struct scsi_host_template scst_local_sht;
extern struct scst_tgt_template scst_local_tgtt;

/* scst_local_cmd.c */
int scst_local_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *sc);
int scst_local_rdy_to_xfer(struct scst_cmd *cmd);
int scst_local_xmit_response(struct scst_cmd *cmd);

/* scst_local_tmf.c */
extern atomic_t scst_local_nr_aborts;
extern atomic_t scst_local_nr_lun_resets;
extern atomic_t scst_local_nr_target_resets;
extern atomic_t scst_local_nr_host_resets;
void scst_local_task_mgmt_fn_done(struct scst_mgmt_cmd *mcmd);
int scst_local_eh_abort(struct scsi_cmnd *sc);
int scst_local_eh_device_reset(struct scsi_cmnd *sc);
int scst_local_eh_target_reset(struct scsi_cmnd *sc);
int scst_local_eh_host_reset(struct scsi_cmnd *sc);

/* scst_local_sess.c: the find, add and remove functions need scst_local_mutex */
extern struct mutex scst_local_mutex;
extern struct work_struct scst_local_close_work;
struct scst_local_tgt *scst_local_find_tgt(const char *name);
struct scst_local_sess *scst_local_find_sess(struct scst_local_tgt *tgt,
					     const char *name);
int scst_local_check_sess_name(const char *name);
int scst_local_add_session(struct scst_local_tgt *tgt, const char *name);
void scst_local_remove_session(struct scst_local_sess *sess);
int scst_local_add_target(const char *name, const char *sess_name);
void scst_local_remove_target(struct scst_local_tgt *tgt);
bool scst_local_is_exiting(void);
void scst_local_remove_all_targets(void);
void scst_local_close_session(struct scst_session *scst_sess);

/* scst_local_sysfs.c */
int scst_local_mgmt_add_target(const char *name,
			       const struct scst_mgmt_line *line);
int scst_local_mgmt_del_target(const char *name);
int scst_local_mgmt_cmd(const struct scst_mgmt_line *line);
extern const struct attribute *scst_local_tgtt_attrs[];
extern const struct attribute *scst_local_sess_attrs[];

#endif /* SCST_LOCAL_H */
