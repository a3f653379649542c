/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scst_priv.h - state private to the target core module (scst.ko).
 *
 * Locking:
 * - scst_mutex serializes every configuration change (handlers, devices,
 *   targets, groups, LUNs, sessions) and the lists they live on. sysfs
 *   show/store methods of an object never take it, except the mgmt files,
 *   whose objects are never removed while the mutex is held for them.
 * - Nothing sleeps for a command while holding scst_mutex: a backend
 *   command that never ends must not stall logins and sysfs writes of
 *   every target. Under the mutex one only unpublishes (a LUN map, a
 *   session, a LUN) and takes or drops references; the waits come after
 *   mutex_unlock(): scst_sess_wait_tgt_devs(), scst_dev_wait_tgt_devs(),
 *   the session's own abort wait in scst_finish_unregister_session().
 * - A session's LUN map is RCU-protected: the command path looks LUNs up
 *   without locks; a configuration change publishes a new map.
 * - A tgt_dev (I_T_L nexus) is reference counted (cmd_count, scst_nexus.c):
 *   its LUN map holds one reference, dropped an RCU grace period after the
 *   map stops showing it; each command, TMF and scst_*_get_tgt_devs() copy
 *   holds one. The last put queues the nexus's release on scst_release_wq
 *   (any context); the release takes dev->dev_lock and dev->dev_mutex,
 *   never scst_mutex. A reference pins the nexus's session and device.
 * - Task management (scst_tm.c) never takes scst_mutex: it reaches the
 *   sessions of a logical unit through referenced tgt_devs. So a TMF
 *   holding a tgt_dev reference and a configuration change holding
 *   scst_mutex never wait for each other (the old order, TMF: tgt_dev ->
 *   scst_mutex, LUN del/replace and group changes: scst_mutex -> waiting
 *   for tgt_dev references, could deadlock).
 * - Order: scst_mutex -> dev->dev_mutex (per-initiator pools, threads
 *   attributes) -> dev->dev_lock -> tgt_dev->ua_lock; sess->sess_lock
 *   is taken with none of the spinlocks held. The ALUA groups' spinlock
 *   (scst_alua_cmd.c) sits between scst_mutex and dev->dev_lock.
 * - dev->dev_lock protects the task set of a device (ORDERED/SIMPLE
 *   accounting, blocked commands), its SPC-2 reservation and its list of
 *   tgt_devs.
 * - sess->sess_lock protects the session's list of commands in flight.
 */
#ifndef __SCST_PRIV_H
#define __SCST_PRIV_H

#include <linux/kobject.h>
#include <linux/rcupdate.h>
#include <linux/kthread.h>
#include <linux/jump_label.h>
#include <linux/timekeeping.h>
#include <scsi/scsi_proto.h>

#include <scst.h>
#include <scst_cdb.h>
#include <scst_spc.h>

/* A LUN of an access group: LUN number -> device. */
struct scst_acg_dev {
	struct scst_acg *acg;
	struct scst_device *dev;
	u64 lun;
	bool read_only;
	struct list_head acg_entry;	/* on acg->acg_dev_list, sorted by LUN */
	struct list_head dev_entry;	/* on dev->lun_refs */
	struct kobject kobj;		/* luns/<lun> */
	struct completion kobj_released;
};

/* An initiator name pattern of an access group. */
struct scst_acn {
	struct scst_acg *acg;
	struct list_head entry;
	char name[SCST_PATTERN_MAX_LEN + 1];
	struct kobj_attribute attr;	/* initiators/<pattern> file */
};

/*
 * An access group: a set of initiator patterns and the LUNs they see. Each
 * target has a default one (the target's own luns/), which sessions that
 * match no group use.
 */
struct scst_acg {
	struct scst_tgt *tgt;
	char name[SCST_MAX_NAME];
	bool is_default;
	struct list_head tgt_entry;	/* on tgt->acg_list */
	struct list_head acg_dev_list;
	struct list_head acn_list;
	cpumask_t cpu_mask;
	int io_grouping_type;		/* SCST_IO_GROUPING_*; scst_mutex */
	struct kobject kobj;		/* ini_groups/<name> (not for default) */
	struct kobject *luns_kobj;
	struct kobject *initiators_kobj;
	struct completion kobj_released;
};

/* A session's LUNs, sorted by LUN, looked up under RCU per command. */
struct scst_lun_map {
	struct rcu_head rcu;
	unsigned int nr;
	struct scst_tgt_dev *tgt_devs[];
};

/* A pending unit attention of one I_T_L nexus (SAM-5 5.14). */
struct scst_ua {
	struct list_head entry;
	u32 sense_code;
};

/* Worker threads of a device (or of one nexus of it) for ->exec(). */
struct scst_cmd_thread {
	struct list_head entry;
	struct task_struct *task;
};

/*
 * The per-initiator pool of a device (threads_pool_type per_initiator):
 * shared by every nexus of the device whose session has this initiator
 * name. On dev->ini_pools; @users and @cpu_mask under dev->dev_mutex.
 */
struct scst_ini_pool {
	struct list_head entry;
	char initiator_name[SCST_MAX_NAME];
	unsigned int users;
	cpumask_t cpu_mask;
	struct scst_cmd_threads threads;
};

/* Command states */
enum scst_cmd_state {
	SCST_CMD_STATE_INIT = 0,
	SCST_CMD_STATE_PREPARE_SPACE,
	SCST_CMD_STATE_DATA_WAIT,
	SCST_CMD_STATE_TASK_SET,
	SCST_CMD_STATE_EXEC,
	SCST_CMD_STATE_EXEC_WAIT,
	SCST_CMD_STATE_EXEC_BLOCKING,	/* ->exec() again, on scst_exec_wq */
	SCST_CMD_STATE_XMIT,
	SCST_CMD_STATE_XMIT_WAIT,
	SCST_CMD_STATE_FINISHED,
};

/* cmd->flags bits */
#define SCST_CMD_ABORTED	0
#define SCST_CMD_NO_RESP	1	/* aborted by the TMF of another nexus */

extern struct kobject *scst_root_kobj;
extern struct kobject *scst_targets_kobj;
extern struct kobject *scst_devices_kobj;
extern struct kobject *scst_handlers_kobj;
extern int scst_last_mgmt_res;
extern unsigned int scst_max_initiator_pools;
extern unsigned int scst_setup_id;

/*
 * scst_registry.c: the registries of target drivers, device handlers and
 * devices, scst_mutex, and the view of the model's objects
 */
extern struct mutex scst_mutex;
extern struct list_head scst_template_list;
extern struct list_head scst_dev_type_list;
extern struct list_head scst_dev_list;
struct scst_tgt_template *scst_find_template(const char *name);
struct scst_dev_type *scst_find_dev_type(const char *name);
struct scst_device *scst_find_device(const char *name);

struct scst_tg_tgt;

/*
 * The objects of the model that the view shows; each op's @obj is of the
 * type named.
 */
enum scst_view_kind {
	SCST_VIEW_TGTT,		/* struct scst_tgt_template */
	SCST_VIEW_DEVT,		/* struct scst_dev_type */
	SCST_VIEW_DEV,		/* struct scst_device */
	SCST_VIEW_TGT,		/* struct scst_tgt */
	SCST_VIEW_SESS,		/* struct scst_session */
	SCST_VIEW_ACG,		/* struct scst_acg, never a target's default */
	SCST_VIEW_ACN,		/* struct scst_acn */
	SCST_VIEW_LUN,		/* struct scst_acg_dev */
	/*
	 * ALUA (scst_dg.c): del only, when a device or target goes; the
	 * view's own mgmt verbs (scst_sysfs_dg.c) create these entries
	 */
	SCST_VIEW_DG_DEV,	/* struct scst_dg_dev */
	SCST_VIEW_TG_TGT,	/* struct scst_tg_tgt */
};

/**
 * struct scst_view_ops - what the model (scst_registry.c, scst_tgt.c,
 * scst_dg.c) tells the view (the sysfs tree) about its objects
 * @add: show @obj, a @kind object, once the fields the view shows are set
 *	(a session's first LUN map, a LUN's group and device, an initiator
 *	pattern's group). Called under scst_mutex, before anyone but the
 *	caller can find @obj, so that a failure leaves the model as it was;
 *	process context, may sleep. Return 0, or a negative errno with
 *	nothing of @obj left in the view (the model frees @obj). A LUN may
 *	be added again after its @del: a replace that fails shows the old
 *	LUN again.
 * @del: stop showing @obj; once it returns, no method of the view runs on
 *	@obj or starts to, and the model may free @obj: a session only after
 *	@sess_release. Under scst_mutex for a session, a group, an initiator
 *	pattern and a LUN (a session's name, a LUN's number may be taken
 *	again as soon as the mutex is dropped); without it for a driver, a
 *	handler, a device and a target, which nothing finds by then (but a
 *	device's name stays taken until @del has returned). Process context;
 *	may sleep: waits for the view's methods running on @obj, none of
 *	which waits for scst_mutex (the mgmt files only try it).
 * @lun_check: whether LUN @ad can be shown in place of @old (NULL for a
 *	new LUN). Called under scst_mutex before the model changes anything,
 *	so that a refusal leaves everything as it was. Return 0, or a
 *	negative errno after a log line.
 * @sess_luns_changed: a LUN map of @sess other than its first was just
 *	published (sess->lun_map). Under scst_mutex, before the nexuses the
 *	previous map held and the new one does not are released: the view
 *	drops its pointers to them before it returns.
 * @sess_acg_changed: @sess now belongs to another group (sess->acg), whose
 *	LUN map @sess_luns_changed has already been told about. Under
 *	scst_mutex.
 * @tg_tgt_local: @old, a published entry of a target group naming a port
 *	of another system, names @tgt, a target just registered: the view
 *	makes it @tgt's entry (scst_tg_tgt_replace()) or, failing that,
 *	removes it. Under scst_mutex.
 * @sess_release: after @del, without scst_mutex: drop the view's reference
 *	to @sess and wait until the other holders (scst_unregister_target()
 *	across ->close_session()) have dropped theirs; the model frees @sess
 *	afterwards. Process context.
 *
 * scst_sysfs_init() registers it before any driver or handler can
 * register and scst_sysfs_exit() unregisters it after the last has gone:
 * the view is there whenever an object exists, so the model calls it
 * through scst_view without a check.
 */
struct scst_view_ops {
	int (*add)(enum scst_view_kind kind, void *obj);
	void (*del)(enum scst_view_kind kind, void *obj);
	int (*lun_check)(const struct scst_acg_dev *ad,
			 const struct scst_acg_dev *old);
	void (*sess_luns_changed)(struct scst_session *sess);
	void (*sess_acg_changed)(struct scst_session *sess);
	void (*tg_tgt_local)(struct scst_tg_tgt *old, struct scst_tgt *tgt);
	void (*sess_release)(struct scst_session *sess);
};

extern const struct scst_view_ops *scst_view;
void scst_view_register(const struct scst_view_ops *ops);
void scst_view_unregister(void);

/* scst_tgt.c: targets, sessions, access groups, LUN maps */
int scst_add_acg(struct scst_tgt *tgt, const char *name);
void scst_del_acg(struct scst_acg *acg);
struct scst_acg *scst_find_acg(struct scst_tgt *tgt, const char *name);
int scst_acg_add_lun(struct scst_acg *acg, struct scst_device *dev, u64 lun,
		     bool read_only, bool replace);
int scst_acg_del_lun(struct scst_acg *acg, u64 lun, bool gen_ua);
void scst_acg_clear_luns(struct scst_acg *acg);
int scst_acg_add_acn(struct scst_acg *acg, const char *pattern);
int scst_acg_del_acn(struct scst_acg *acg, const char *pattern);
void scst_acg_clear_acns(struct scst_acg *acg);
void scst_tgt_reassign_sessions(struct scst_tgt *tgt);
void scst_dev_remove_luns(struct scst_device *dev);
void scst_sess_wait_tgt_devs(struct scst_session *sess);
void scst_dev_wait_tgt_devs(struct scst_device *dev);
int scst_tgt_set_enabled(struct scst_tgt *tgt, bool enable);

/* scst_nexus.c: I_T_L nexuses (tgt_devs) for the command path */
int scst_nexus_init(void);
void scst_nexus_exit(void);
void scst_tgt_dev_init_ref(struct scst_tgt_dev *tgt_dev);
void scst_tgt_dev_unmap(struct scst_tgt_dev *tgt_dev);
struct scst_tgt_dev *scst_lookup_tgt_dev(struct scst_session *sess, u64 lun);
struct scst_tgt_dev **scst_sess_get_tgt_devs(struct scst_session *sess,
					     unsigned int *nr);
void scst_put_tgt_dev(struct scst_tgt_dev *tgt_dev);
struct scst_tgt_dev **scst_dev_get_tgt_devs(struct scst_device *dev,
					    unsigned int *nr);

/* scst_cmd.c: the command path */
extern unsigned int scst_max_transfer_kb;	/* module parameter */
int scst_cmd_init(void);
void scst_cmd_exit(void);

/* scst_page_stash.c: pages for data-out buffers */
int scst_stash_init(void);
void scst_stash_exit(void);
struct page *scst_stash_get_page(gfp_t gfp);
void scst_stash_put_page(struct page *page);
void scst_stash_stats(unsigned long *stashed, unsigned long *reused);
void scst_process_cmd(struct scst_cmd *cmd);
void scst_cmd_work_fn(struct work_struct *work);
void scst_dev_task_set_done(struct scst_cmd *cmd);
void scst_free_cmd(struct scst_cmd *cmd);
void scst_set_sense(struct scst_cmd *cmd, u32 sense_code);
void scst_do_exec(struct scst_cmd *cmd);

/* scst_dispatch.c: which CPU runs a command (the adaptive dispatcher) */
int scst_dispatch_init(void);
void scst_dispatch_exit(void);
int scst_dispatch_pick_cpu(struct scst_session *sess, int here, bool direct);
void scst_dispatch_queue(struct scst_cmd *cmd);
void scst_dispatch_run(struct scst_cmd *cmd);
void scst_continue(struct scst_cmd *cmd, enum scst_exec_context ctx);
/* a CPU's dispatcher counters, for the cpu_stats file */
struct scst_dispatch_stats {
	unsigned long runs;	/* state machine runs on the CPU */
	unsigned long yielded;	/* runs handed to its yield thread */
	unsigned int backlog;	/* commands queued to it now */
};

bool scst_dispatch_cpu_stats(int cpu, struct scst_dispatch_stats *st);

/* scst_ua.c: unit attentions */
void scst_tgt_dev_add_ua(struct scst_tgt_dev *tgt_dev, u32 sense_code);
void scst_dev_add_ua(struct scst_device *dev, u32 sense_code,
		     struct scst_tgt_dev *except);
void scst_sess_add_ua(struct scst_session *sess, u32 sense_code);
bool scst_tgt_dev_pop_ua(struct scst_tgt_dev *tgt_dev, u32 *sense_code);
void scst_sess_clear_ua(struct scst_session *sess, u32 sense_code);
void scst_tgt_dev_free_uas(struct scst_tgt_dev *tgt_dev);

/* scst_emul.c: commands the core executes itself */
bool scst_cmd_core_emulated(const struct scst_cmd *cmd);
enum scst_exec_res scst_emulate_cmd(struct scst_cmd *cmd);
void scst_emulate_no_lun(struct scst_cmd *cmd);
bool scst_check_reservation(struct scst_cmd *cmd);

/*
 * ALUA device and target groups (SPC-4 5.16), in three layers: the command
 * path reads them (scst_alua_cmd.c), the model makes and removes them
 * (scst_dg.c), sysfs shows them (scst_sysfs_dg.c). The kobjects are the
 * view's: only scst_sysfs_dg.c touches them.
 */

/* A device group: devices whose target ports are grouped alike. */
struct scst_dg {
	char name[SCST_MAX_NAME];
	struct list_head entry;		/* on scst_dg_list */
	struct list_head dev_list;	/* struct scst_dg_dev */
	struct list_head tg_list;	/* struct scst_tg */
	unsigned int nr_tgs;
	struct kobject kobj;		/* device_groups/<dg> */
	struct kobject *devices_kobj;
	struct kobject *tgs_kobj;
};

struct scst_dg_dev {
	struct list_head entry;		/* on dg->dev_list */
	struct scst_dg *dg;
	struct scst_device *dev;
};

/* A target port group of a device group. */
struct scst_tg {
	struct scst_dg *dg;
	char name[SCST_MAX_NAME];
	struct list_head entry;		/* on dg->tg_list */
	struct list_head tgt_list;	/* struct scst_tg_tgt */
	unsigned int nr_tgts;
	u16 group_id;
	bool preferred;
	u8 state;
	u8 status;			/* RTPG STATUS CODE */
	struct kobject kobj;		/* target_groups/<tg> */
};

/* A target port of a target port group. */
struct scst_tg_tgt {
	struct scst_tg *tg;
	char name[SCST_MAX_NAME];
	struct list_head entry;		/* on tg->tgt_list */
	struct scst_tgt *tgt;		/* a target of this system, or NULL */
	u16 rel_tgt_id;			/* of a target not on this system */
	struct kobject kobj;		/* its directory, when !tgt */
};

/* scst_alua_cmd.c: ALUA in the command path, and the lock it reads under */
extern spinlock_t scst_alua_lock;
void scst_alua_changed(void);
void scst_dg_queue_ua(struct scst_dg *dg, const struct scst_session *except);
bool scst_alua_remote_port(struct scst_device *dev, u16 rel_tgt_id);
void scst_tg_set_state(struct scst_tg *tg, u8 state, u8 status,
		       const struct scst_session *except);
u32 scst_alua_check_cmd(struct scst_cmd *cmd);
bool scst_alua_tpg_cmd(const struct scst_cmd *cmd);
bool scst_alua_emulated(const struct scst_cmd *cmd);
void scst_alua_emulate(struct scst_cmd *cmd);

/*
 * scst_dg.c: the model of the groups. When a device or target goes or
 * comes it tells the view through struct scst_view_ops (SCST_VIEW_DG_DEV,
 * SCST_VIEW_TG_TGT, @tg_tgt_local), under scst_mutex.
 */
struct scst_dg *scst_dg_find(const char *name);
struct scst_dg *scst_dg_first(void);
struct scst_dg *scst_dg_alloc(const char *name);
void scst_dg_publish(struct scst_dg *dg);
void scst_dg_unpublish(struct scst_dg *dg);
struct scst_dg_dev *scst_dg_dev_find(struct scst_dg *dg, const char *name);
struct scst_dg_dev *scst_dg_dev_alloc(struct scst_dg *dg, const char *name);
void scst_dg_dev_publish(struct scst_dg *dg, struct scst_dg_dev *dgd);
void scst_dg_dev_unpublish(struct scst_dg_dev *dgd);
struct scst_tg *scst_tg_find(struct scst_dg *dg, const char *name);
struct scst_tg *scst_tg_alloc(struct scst_dg *dg, const char *name);
void scst_tg_publish(struct scst_tg *tg);
void scst_tg_unpublish(struct scst_tg *tg);
int scst_tg_set_group_id(struct scst_tg *tg, u16 id);
void scst_tg_set_preferred(struct scst_tg *tg, bool v);
void scst_tg_change_state(struct scst_tg *tg, u8 state);
struct scst_tg_tgt *scst_tg_tgt_find(struct scst_tg *tg, const char *name);
struct scst_tg_tgt *scst_tg_tgt_new(struct scst_tg *tg, const char *name,
				    struct scst_tgt *tgt);
struct scst_tg_tgt *scst_tg_tgt_alloc(struct scst_tg *tg, const char *name);
void scst_tg_tgt_publish(struct scst_tg_tgt *t);
void scst_tg_tgt_unpublish(struct scst_tg_tgt *t);
void scst_tg_tgt_replace(struct scst_tg_tgt *old, struct scst_tg_tgt *t);
void scst_tg_tgt_set_rel_tgt_id(struct scst_tg_tgt *t, u16 id);
void scst_dg_dev_removed(struct scst_device *dev);
void scst_dg_tgt_added(struct scst_tgt *tgt);
void scst_dg_tgt_removed(struct scst_tgt *tgt);

/* scst_sysfs_dg.c: device_groups/ */
int scst_sysfs_dg_init(struct kobject *root);
void scst_sysfs_dg_exit(void);
void scst_dg_dev_unlink(struct scst_dg_dev *dgd);
void scst_tg_tgt_remove(struct scst_tg_tgt *t);
void scst_tg_tgt_make_local(struct scst_tg_tgt *old, struct scst_tgt *tgt);

/* scst_tm.c: task management */
extern struct workqueue_struct *scst_tmf_wq;
extern wait_queue_head_t scst_tmf_waitq;
int scst_tm_init(void);
void scst_tm_exit(void);
void scst_abort_sess_cmds_and_wait(struct scst_session *sess);
unsigned int scst_abort_nexuses_and_wait(struct scst_tgt_dev **tds,
					 unsigned int n);

/* scst_pr_dev.c, scst_pr_aptpl.c: persistent reservations */
int scst_pr_dev_init(struct scst_device *dev);
void scst_pr_dev_free(struct scst_device *dev);
void scst_pr_sess_init(struct scst_session *sess);
enum scst_res_verdict scst_pr_cmd_check(struct scst_cmd *cmd);
enum scst_res_verdict scst_res_check(struct scst_cmd *cmd);
void scst_pr_in_exec(struct scst_cmd *cmd);
void scst_pr_out_exec(struct scst_cmd *cmd);
ssize_t scst_pr_dev_show(struct scst_device *dev, char *buf);
void scst_pr_update_active(struct scst_device *dev);
void scst_pr_set_unknown(struct scst_device *dev, const char *fmt, ...)
	__printf(2, 3);
int scst_pr_aptpl_persist(struct scst_device *dev, enum scst_pr_persist what);
void scst_pr_aptpl_load(struct scst_device *dev);
int scst_pr_file_reset(struct scst_device *dev);

/*
 * The I_T_L nexuses a PERSISTENT RESERVE OUT's notices go to: every one
 * of the device's, referenced, and room for the PREEMPT AND ABORT list
 * (scst_pr_dev.c).
 */
struct scst_pr_nexuses {
	struct scst_tgt_dev **tds;	/* referenced; NULL when n == 0 */
	struct scst_tgt_dev **ab;	/* PREEMPT AND ABORT's, from tds */
	unsigned int n;
};

int scst_pr_nexuses_get(struct scst_device *dev, struct scst_pr_nexuses *nx);
void scst_pr_nexuses_put(struct scst_pr_nexuses *nx);
unsigned int scst_pr_apply(struct scst_cmd *cmd,
			   const struct scst_pr_effects *eff,
			   struct scst_pr_nexuses *nx);

/*
 * Whether the device's PR state is not known here: its APTPL file could
 * not be read, or (cluster_mode) this node is not in step with its
 * cluster. pr_lock held, or a racy read that is checked again under it.
 */
static inline bool scst_pr_unknown_now(const struct scst_device *dev)
{
	return dev->pr_unknown || dev->pr_cl_blocked || dev->pr_cl_joining;
}

/*
 * scst_pr_cluster.c: cluster_mode. The cluster module (scst_cluster.ko,
 * over the kernel's DLM) registers these; every op runs in process
 * context and waits for the other nodes for a bounded time only.
 * @join: join the lockspace of the device named @cluster_id in cluster
 *	@cluster_name (NULL: any), take the cluster's state
 *	(scst_pr_cluster_adopt()) or publish this node's when it is the
 *	first; returns the module's object of the device in @cl, or an
 *	errno after logging what is missing
 * @leave: leave it; @cl is gone after
 * @out_begin: a PERSISTENT RESERVE OUT starts: take the cluster-wide PR
 *	lock and bring the state up to date (before pr_mutex); 0, or an
 *	errno (-ETIMEDOUT: try again later) with nothing held
 * @out_publish: make @st, changed from @old by the command whose notices
 *	are @eff (NULL: none), the cluster's (pr_mutex held); 0 or -EIO,
 *	the cluster's state then being @old
 * @out_end: tell the other nodes, wait until each applied what was
 *	published, release the lock; 0, or -ETIMEDOUT when a node did not
 *	confirm in time (it then fails closed when it learns of it)
 */
struct scst_pr_cluster_ops {
	struct module *owner;
	int (*join)(struct scst_device *dev, const char *cluster_id,
		    const char *cluster_name, void **cl);
	void (*leave)(void *cl);
	int (*out_begin)(void *cl);
	int (*out_publish)(void *cl, const struct scst_pr_state *old,
			   const struct scst_pr_state *st,
			   const struct scst_pr_effects *eff);
	int (*out_end)(void *cl);
};

/* The root attribute cluster_name: corosync's totem.cluster_name. */
#define SCST_CLUSTER_NAME_MAX	63

int scst_pr_cluster_register(const struct scst_pr_cluster_ops *ops);
void scst_pr_cluster_unregister(const struct scst_pr_cluster_ops *ops);
void scst_pr_cluster_block(struct scst_device *dev, bool blocked);
void scst_pr_cluster_snapshot(struct scst_device *dev,
			      struct scst_pr_state *st);
unsigned int scst_pr_cluster_adopt(struct scst_device *dev,
				   const struct scst_pr_state *st,
				   const struct scst_pr_effects *eff);
void scst_pr_cluster_dev_gone(struct scst_device *dev);
void scst_cluster_name_get(char *buf, size_t size);
int scst_cluster_name_set(const char *name, size_t len);

/*
 * A reservation changed so that commands may now conflict (or the
 * persistent reservation state became known): commands admitted before
 * are checked again before ->exec(). After the change, so that a command
 * that reads the new generation sees the new state; atomic, as SPC-2
 * RESERVE (dev_lock) and PERSISTENT RESERVE OUT (pr_lock) may bump it at
 * once.
 */
static inline void scst_res_changed(struct scst_device *dev)
{
	/* state, then generation: pairs with scst_res_check()'s smp_rmb() */
	smp_mb__before_atomic();
	atomic_inc(&dev->res_gen);
}

/* Whether @cmd's reservations are to be checked again before ->exec(). */
static inline bool scst_res_changed_since(const struct scst_cmd *cmd)
{
	return atomic_read(&cmd->dev->res_gen) != cmd->res_gen;
}

/* scst_threads.c */
void scst_threads_init(struct scst_cmd_threads *p);
int scst_threads_start(struct scst_cmd_threads *p, unsigned int n,
		       const char *dev_name, const struct cpumask *mask);
void scst_threads_stop(struct scst_cmd_threads *p);
void scst_threads_set_affinity(struct scst_cmd_threads *p,
			       const struct cpumask *mask);
int scst_dev_start_threads(struct scst_device *dev);
void scst_dev_stop_threads(struct scst_device *dev);
int scst_tgt_dev_start_threads(struct scst_tgt_dev *tgt_dev,
			       struct scst_acg *acg);
void scst_tgt_dev_stop_threads(struct scst_tgt_dev *tgt_dev);
void scst_tgt_apply_cpu_mask(struct scst_tgt *tgt);
void scst_sess_cpu_mask(struct scst_session *sess, struct scst_acg *acg,
			cpumask_t *mask);
void scst_dev_queue_exec(struct scst_cmd *cmd);
int scst_dev_set_threads(struct scst_device *dev, int n,
			 enum scst_threads_pool_type type);
void scst_dev_threads_each_pid(struct scst_device *dev,
			       void (*fn)(pid_t pid, void *ctx), void *ctx);
void scst_tgt_dev_threads_each_pid(struct scst_tgt_dev *tgt_dev,
				   void (*fn)(pid_t pid, void *ctx), void *ctx);

/*
 * scst_sysfs_root.c: the root of the tree, the mgmt files' common part,
 * and the view ops (struct scst_view_ops) that the files below implement
 */
int scst_sysfs_init(void);
void scst_sysfs_exit(void);

/**
 * struct scst_mgmt_attr - a mgmt file, run by its table
 * @kattr: the file: SCST_MGMT_KATTR()
 * @table: its commands, and what reading it lists
 * @object: the object its commands act on, found from the file's
 *	directory (NULL: they act on none)
 * @run: runs a parsed line where the file checks the whole line first,
 *	names an owner in its messages, or acts after a command (NULL:
 *	scst_mgmt_run() without an owner)
 * @max_positional: positional words a line may have (0: the most
 *	@table's rows take)
 * @unlocked: run without scst_mutex, for commands that take it
 *	themselves (a driver's or handler's add and del)
 * @help_extra: what reading the file prints after the table's help
 */
struct scst_mgmt_attr {
	struct kobj_attribute kattr;
	const struct scst_mgmt_table *table;
	void *(*object)(struct kobject *kobj);
	int (*run)(const struct scst_mgmt_table *t, struct scst_mgmt_line *line,
		   void *object);
	unsigned int max_positional;
	bool unlocked;
	const char *help_extra;
};

/* The file "mgmt", read by @show (scst_mgmt_attr_show: the table's help). */
#define SCST_MGMT_KATTR(show) __ATTR(mgmt, 0644, show, scst_mgmt_attr_store)

ssize_t scst_mgmt_attr_store(struct kobject *kobj,
			     struct kobj_attribute *kattr,
			     const char *buf, size_t count);
ssize_t scst_mgmt_attr_show(struct kobject *kobj, struct kobj_attribute *kattr,
			    char *buf);
int scst_mgmt_call(const struct scst_mgmt_verb *v, const char *owner,
		   const struct scst_mgmt_line *line, void *ctx);
int scst_mgmt_run(const struct scst_mgmt_table *t, const char *owner,
		  const struct scst_mgmt_line *line, void *ctx);

/* scst_sysfs_tgt.c: targets/: drivers, targets, groups, LUNs, initiators */
int scst_sysfs_tgtt_add(struct scst_tgt_template *tgtt);
void scst_sysfs_tgtt_del(struct scst_tgt_template *tgtt);
int scst_sysfs_tgt_add(struct scst_tgt *tgt);
void scst_sysfs_tgt_del(struct scst_tgt *tgt);
int scst_sysfs_acg_add(struct scst_acg *acg);
void scst_sysfs_acg_del(struct scst_acg *acg);
int scst_sysfs_acg_dev_add(struct scst_acg_dev *acg_dev);
void scst_sysfs_acg_dev_del(struct scst_acg_dev *acg_dev);
int scst_sysfs_acg_dev_check(const struct scst_acg_dev *acg_dev,
			     const struct scst_acg_dev *old);
int scst_sysfs_acn_add(struct scst_acn *acn);
void scst_sysfs_acn_del(struct scst_acn *acn);

/* scst_sysfs_sess.c: targets/<drv>/<tgt>/sessions/ */
int scst_sysfs_sess_add(struct scst_session *sess);
void scst_sysfs_sess_del(struct scst_session *sess);
void scst_sysfs_sess_release(struct scst_session *sess);
void scst_sysfs_sess_update_luns_link(struct scst_session *sess);
void scst_sysfs_sess_sync_luns(struct scst_session *sess);

/* scst_sysfs_dev.c: handlers/ and devices/ */
int scst_sysfs_devt_add(struct scst_dev_type *dt);
void scst_sysfs_devt_del(struct scst_dev_type *dt);
int scst_sysfs_dev_add(struct scst_device *dev);
void scst_sysfs_dev_del(struct scst_device *dev);

/* a thread_pid file's text, built by scst_*_threads_each_pid() calls */
struct scst_pid_list {
	char *buf;		/* the sysfs page */
	ssize_t len;		/* bytes in @buf */
};

void scst_pid_list_add(pid_t pid, void *ctx);

/* measure_latency (scst_latency.c) */
DECLARE_STATIC_KEY_FALSE(scst_lat_key);
enum { SCST_LAT_TS_RX, SCST_LAT_TS_EXEC, SCST_LAT_TS_DONE };

/*
 * Stamp a point of @cmd's life while measure_latency is 1; with it 0
 * this is one patched-out jump (a static key), nothing else.
 */
static inline void scst_lat_stamp(struct scst_cmd *cmd, int point)
{
	if (static_branch_unlikely(&scst_lat_key) && !cmd->lat_ns[point])
		cmd->lat_ns[point] = ktime_get_ns();
}

void scst_lat_cmd_done(struct scst_cmd *cmd);
int scst_lat_set(bool on);
bool scst_lat_on(void);
void scst_lat_sess_init(struct scst_session *sess);
int scst_lat_sess_alloc(struct scst_session *sess);
void scst_lat_sess_free(struct scst_session *sess);

/* scst_sysfs_lat.c: sessions/<sess>/latency/ */
int scst_lat_sysfs_add(struct scst_session *sess);
void scst_lat_sysfs_del(struct scst_session *sess);

/* Current length of sense data: both formats keep it in byte 7 (SPC-4). */
static inline unsigned int scst_sense_len(const u8 *sense, size_t size)
{
	return min_t(size_t, 8 + sense[7], size);
}

static inline bool scst_cmd_is_aborted(const struct scst_cmd *cmd)
{
	return test_bit(SCST_CMD_ABORTED, &cmd->flags);
}

#endif /* __SCST_PRIV_H */
