/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scst.h - the public interface of the SCST-compatible target core for
 * target drivers (transports) and device handlers (backends).
 *
 * Command flow, as seen by a target driver:
 *
 *   scst_rx_cmd()             a new SCSI command arrived on a session
 *   scst_cmd_set_*()          tag, expected transfer, task attribute
 *   scst_cmd_init_done()      hand it to the core
 *     ->rdy_to_xfer()         core: fetch the data-out buffer (writes)
 *   scst_rx_data()            driver: the data-out buffer is filled
 *     ->xmit_response()       core: send data-in (if any) and the status
 *   scst_tgt_cmd_done()       driver: the response went out; the core frees
 *                             the command (->on_free_cmd() first)
 *
 * and for a device handler:
 *
 *     ->parse()               decode the CDB (scst_cdb_parse() does it for
 *                             the SPC/SBC commands the core knows)
 *     ->exec()                execute; complete with scst_cmd_exec_done()
 *
 * Task management: scst_rx_mgmt_fn() -> ->task_mgmt_fn_done(). Every
 * command affected by a TMF still reaches ->xmit_response() exactly once,
 * with scst_cmd_aborted() true, so the driver knows when it may reuse its
 * resources; it must still call scst_tgt_cmd_done().
 */
#ifndef __SCST_H
#define __SCST_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/kobject.h>
#include <linux/scatterlist.h>
#include <linux/sysfs.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/completion.h>

#include <scst_logic.h>
#include <scst_cdb.h>
#include <scst_spc.h>
#include <scst_sam.h>
#include <scst_res.h>
#include <scst_pr.h>

/*
 * Version reported in /sys/kernel/scst_tgt/version. Management tools that
 * were written for SCST parse the leading "major.minor.patch".
 */
#define SCST_VERSION_STRING	"0.1.0"

/* Name of the directory under /sys/kernel that holds the management tree. */
#define SCST_SYSFS_ROOT_NAME	"scst_tgt"

#define SCST_MAX_CDB_SIZE	32
#define SCST_SENSE_BUFFERSIZE	96
#define SCST_MAX_NAME		64
#define SCST_MAX_LUN		16383

/*
 * Where the core may continue processing a command handed to it.
 * SCST_CONTEXT_DIRECT: the caller is in process context and may sleep; the
 * core runs the command as far as it can right now, unless the command's
 * CPU is another one (the current CPU is outside the session's cpu_mask,
 * or spread_direct spread it): then on that CPU's worker.
 * SCST_CONTEXT_ATOMIC: the caller may be in atomic context; the core
 * continues on a worker of the current CPU, or, for a session with a deep
 * queue, of another CPU of its cpu_mask (scst_dispatch.c).
 */
enum scst_exec_context {
	SCST_CONTEXT_DIRECT = 0,
	SCST_CONTEXT_ATOMIC,
};

/* What a device handler's ->exec() did with a command. */
enum scst_exec_res {
	SCST_EXEC_COMPLETED = 0,	/* done, or will call scst_cmd_exec_done() */
	SCST_EXEC_NOT_HANDLED,		/* let the core's SPC emulation do it */
	/*
	 * Nothing done: the command may sleep for long (synchronous I/O, a
	 * wait for another command) and ->exec() was not called where that
	 * is allowed (scst_cmd_may_block() is false). The core calls
	 * ->exec() again from a worker thread.
	 */
	SCST_EXEC_NEED_THREAD,
};

struct scst_cmd;
struct scst_mgmt_cmd;
struct scst_session;
struct scst_sess_lun;
struct scst_tgt;
struct scst_device;
struct scst_tgt_dev;
struct scst_acg;
struct scst_lun_map;
struct scst_ini_pool;
struct scst_pr_cluster_ops;
struct scst_dg;

/* Threads values of devices/<dev>/threads_pool_type */
enum scst_threads_pool_type {
	SCST_THREADS_POOL_PER_INITIATOR = 0,	/* SCST's default */
	SCST_THREADS_POOL_SHARED,
};

/*
 * A pool of threads that run ->exec() for handlers that may sleep: one
 * per device ("shared") or one per nexus ("per_initiator").
 */
struct scst_cmd_threads {
	spinlock_t lock;			/* queue */
	struct list_head queue;
	wait_queue_head_t wq;
	struct list_head threads;
	unsigned int nr;
};

/**
 * struct scst_tgt_template - a target driver (transport)
 * @name: driver name; the directory under targets/ ("ib_srpt")
 * @sg_tablesize: most scatterlist entries the driver can map per command
 *	(0: unlimited)
 * @max_transfer_size: the largest data buffer of one command the driver
 *	can move, in bytes (0: no limit of its own); a device's
 *	max_transfer_kb applies as well, the smaller of the two wins
 * @xmit_response: send the data-in buffer (if any) and the status of @cmd;
 *	the driver calls scst_tgt_cmd_done() once the response is on its way.
 *	Return 0 (the core ignores the value). Called exactly once per
 *	command, aborted ones included, never before ->exec() has returned
 *	(whichever of that return and scst_cmd_exec_done() comes last calls
 *	it), with no lock of the core held, and concurrently for other
 *	commands of the same session on other CPUs. Its context is that of
 *	whoever ends the command, and the core does not say which: process
 *	context when the core's state machine ends it (scst_process_cmd():
 *	the command's CPU's worker on scst_cmd_wq or scst_yield/N, or inline
 *	in the driver's own scst_cmd_init_done(), scst_rx_data() or
 *	scst_rx_data_error() call with SCST_CONTEXT_DIRECT, even from within
 *	->rdy_to_xfer()); the thread that ran ->exec() when the command ended
 *	there (scst_do_exec(): one of those, a device thread, scst_exec_wq);
 *	and, for a handler that completes later, inline in its caller of
 *	scst_cmd_exec_done(), which may be atomic (vdisk_blockio's bio
 *	end_io, the pass-through handler's request end_io). A driver that
 *	must sleep here defers to its own worker. The core touches @cmd no
 *	more once it called this, so the driver may call scst_tgt_cmd_done()
 *	from within.
 * @rdy_to_xfer: fetch the data-out buffer of @cmd into its scatterlist; the
 *	driver calls scst_rx_data() when it has arrived, or with an error
 *	(or scst_rx_data_error()) when it cannot be had; also for a command
 *	a TMF aborted meanwhile (scst_cmd_aborted()): the core waits for
 *	that call. Return 0 (the core ignores the value). Called at most
 *	once per command, for a write with data, from the core's state
 *	machine (scst_process_cmd()) in process context with no lock of the
 *	core held: on the command's CPU's worker (scst_cmd_wq or
 *	scst_yield/N), or inline in the driver's scst_cmd_init_done(...,
 *	SCST_CONTEXT_DIRECT) call on that CPU (ib_srpt's CQ completion work;
 *	scst_local's queuecommand, with memalloc_noio in effect). The core
 *	touches @cmd no more once it called this, so the driver may continue
 *	in this context: it may call scst_rx_data(cmd, 0, SCST_CONTEXT_DIRECT)
 *	from within, and the command may then run on to ->xmit_response()
 *	before this returns.
 * @on_free_cmd: @cmd is about to be freed (optional). Called inline from
 *	the driver's own scst_tgt_cmd_done(), in whatever context that is
 *	called: ib_srpt's CQ completion work,
 *	or within the driver's ->xmit_response() (scst_local always, ib_srpt
 *	for a response it drops), which may be atomic. The driver makes that
 *	call in answer to ->xmit_response() (the core does not check it), so
 *	this comes after that call or nested in it. No lock of the core
 *	held. It comes before the device handler's
 *	->on_free_cmd(), while the data buffer and the nexus are still
 *	there, and before the TMFs and the session unregistration that wait
 *	for @cmd go on (->task_mgmt_fn_done(), unreg_done).
 * @task_mgmt_fn_done: a TMF finished; its response is in the mcmd, which
 *	the core frees when this returns (optional). Called on scst_tmf_wq,
 *	an unbound workqueue: process context, may sleep, no lock of the core
 *	held. Each TMF runs in its own work item, so this may be called
 *	concurrently for several TMFs, of one session too, and not in the
 *	order they arrived. Every command the TMF aborted has been freed (its
 *	->on_free_cmd() returned) before; the session's unregistration waits
 *	for this to return before unreg_done.
 * @enable_target: the administrator wrote the target's enabled attribute
 *	(optional: without it the attribute does not exist). Called from the
 *	attribute's store (scst_tgt_set_enabled()) in the writer's process
 *	context, may sleep, no lock of the core held; the core does not
 *	serialize it with another writer, with ->is_target_enabled(), nor
 *	with scst_unregister_target() until that removes the target's
 *	directory, after its sessions are gone. Its result is the write's.
 * @is_target_enabled: the current state of a target, for a read of the
 *	enabled attribute (the reader's process context, no lock of the core
 *	held). That attribute exists only with @enable_target: without it
 *	this is never called.
 * @close_session: the core asks the driver to close @sess, for one of two
 *	reasons: its target is being unregistered
 *	(scst_sess_tgt_unregistering() is true: the session must go for
 *	good), or the administrator wrote 1 to sessions/<sess>/force_close
 *	(end this I_T nexus; the initiator may log in again, and a driver
 *	whose "initiator" is local, such as scst_local, may open a new
 *	session itself). Process context, no lock of the core held: from
 *	scst_unregister_target(), in its caller's context, one session at a
 *	time, and the driver may unregister the session right away; or from
 *	the force_close store, in the writer's context. There the driver
 *	calls scst_unregister_session() later, from its own context: the
 *	store runs in the session's own sysfs attribute, whose removal waits
 *	for it to return, so it must neither wait for the session to go nor
 *	take a lock held around scst_unregister_session(..., true, ...). The
 *	two callers are not serialized with each other nor with the driver's
 *	own scst_unregister_session(): this may be called more than once for
 *	a session, and after its unregistration began. Without it
 *	force_close fails with -EOPNOTSUPP.
 * @add_target: targets/<driver>/mgmt "add_target NAME [k=v;...]", for
 *	drivers whose targets are made by the administrator (optional)
 * @del_target: targets/<driver>/mgmt "del_target NAME" (optional)
 * @mgmt_cmd: other driver-specific commands of targets/<driver>/mgmt
 *	(optional), such as scst_local's add_session; @line is the parsed
 *	command. Return 0 or an errno, after logging one line naming the bad
 *	token. These three are called from the store of that mgmt file, in
 *	the writer's process context, and may sleep; the core holds none of
 *	its locks (the driver registers and unregisters targets and sessions
 *	from here, which take scst_mutex) and does not serialize writers.
 * @mgmt_help: usage text appended to the driver's mgmt file
 * @get_transport_id: the TransportID (SPC-4 §7.6.4) of the initiator port
 *	of @sess, for persistent reservations; called once, from
 *	scst_register_session() in its caller's process context, before
 *	scst_mutex is taken and before the session is visible anywhere:
 *	@sess has its target, initiator name and tgt_priv, not yet its
 *	sess_name. Return 0, or a negative errno (the session then cannot
 *	register a reservation key). Optional: without it the core uses an
 *	iSCSI-name TransportID made of the session's initiator name
 *	(scst_pr_tid_from_iscsi_name()), as SCST does for scst_local
 * @tgtt_attrs: extra attributes of targets/<driver>/
 * @tgt_attrs: extra attributes of each targets/<driver>/<target>/
 * @sess_attrs: extra attributes of each session directory
 * @owner: THIS_MODULE
 *
 * The core calls no op of a target driver under one of its spinlocks, in
 * an RCU read-side section or under scst_mutex. The ops that a call of
 * the driver into the core runs inline (->rdy_to_xfer() and
 * ->xmit_response() from scst_cmd_init_done(), scst_rx_data() or
 * scst_rx_data_error() with SCST_CONTEXT_DIRECT, ->xmit_response() from a
 * handler's scst_cmd_exec_done(), ->on_free_cmd() from
 * scst_tgt_cmd_done()) run under whatever locks that caller holds.
 */
struct scst_tgt_template {
	const char *name;
	int sg_tablesize;
	u32 max_transfer_size;

	int (*xmit_response)(struct scst_cmd *cmd);
	int (*rdy_to_xfer)(struct scst_cmd *cmd);
	void (*on_free_cmd)(struct scst_cmd *cmd);
	void (*task_mgmt_fn_done)(struct scst_mgmt_cmd *mcmd);
	int (*enable_target)(struct scst_tgt *tgt, bool enable);
	bool (*is_target_enabled)(struct scst_tgt *tgt);
	void (*close_session)(struct scst_session *sess);

	int (*add_target)(const char *name, const struct scst_mgmt_line *line);
	int (*del_target)(const char *name);
	int (*mgmt_cmd)(const struct scst_mgmt_line *line);
	const char *mgmt_help;
	int (*get_transport_id)(struct scst_session *sess,
				struct scst_pr_tid *tid);

	const struct attribute **tgtt_attrs;
	const struct attribute **tgt_attrs;
	const struct attribute **sess_attrs;

	struct module *owner;

	/* private to the core */
	struct list_head list_entry;
	struct kobject kobj;
	struct list_head tgt_list;
};

/**
 * struct scst_dev_type - a device handler (backend)
 * @name: handler name; the directory under handlers/ ("vdisk_blockio")
 * @type: SCSI peripheral device type (SPC-4 6.4.2; 0 = disk)
 * @exec_may_sleep: ->exec() may sleep: the core runs it on the device's
 *	worker threads (threads_num, threads_pool_type); otherwise it runs on
 *	the CPU that received the command
 * @exec_inline_first: with @exec_may_sleep: ->exec() is called first where
 *	the command is, with scst_cmd_may_block() false, as for a handler
 *	that does not sleep; only a command it answers SCST_EXEC_NEED_THREAD
 *	for goes to the device's worker threads, where it is called again.
 *	For a handler whose commands rarely need to sleep (dev_disk: only
 *	when the device's queue has no free tag), so that the others do
 *	not pay a thread hop each
 * @fills_data_in: a medium read (data-in counted in blocks: READ(6), (10),
 *	(12), (16)) that ends with GOOD status has had its first
 *	scst_set_resp_len() bytes written by the handler, whatever its
 *	backend returned; the core may then build its buffer of pages of
 *	earlier commands (scst_page_stash.c) instead of zeroed ones. Not for
 *	a handler that trusts a device's residual (pass-through) or a block
 *	driver's completion (a driver may end a read well without writing
 *	the pages): that would send an earlier command's data
 * @threads_num: default number of worker threads per device when
 *	@exec_may_sleep
 * @parse: decode the CDB: set the data direction, buffer length, LBA; on
 *	error set the sense with scst_set_cmd_error(). Return 0, or -EINVAL
 *	when the command failed (the sense is then already set). Optional:
 *	without it the core calls scst_cdb_parse(). Called once for each
 *	command to a mapped LUN (with a CDB length in range, not aborted on
 *	arrival), before the reservation, unit attention and ALUA checks
 *	(scst_init_cmd()), from the core's state machine in process context
 *	with no lock of the core held, concurrently for other commands of
 *	the device: in the contexts ->rdy_to_xfer() has (the command's CPU's
 *	worker, or inline in the driver's SCST_CONTEXT_DIRECT call, which may
 *	be a completion context other queues share or scst_local's submitter
 *	with memalloc_noio in effect)
 * @exec: execute a parsed command; see enum scst_exec_res. Always called
 *	in process context: on the command's CPU's worker, or inline in the
 *	driver's context (which may be a completion context other queues
 *	share, or scst_local's submitter with memalloc_noio in effect), or
 *	on a device thread when
 *	@exec_may_sleep; a handler that does not set @exec_may_sleep may
 *	still sleep briefly (bio allocation, tags), and returns
 *	SCST_EXEC_NEED_THREAD for a command that may sleep for long while
 *	scst_cmd_may_block() is false; the core then calls it again on
 *	scst_exec_wq. No lock of the core is held, and it runs concurrently
 *	for other commands of the device (several CPUs, several device
 *	threads). Not called for a command aborted before it would start,
 *	nor for the commands the core answers itself (REPORT LUNS, REQUEST
 *	SENSE, reservations, ALUA of a device in a group). The handler may
 *	complete the command (scst_cmd_exec_done()) before ->exec() returns,
 *	from any context; ->xmit_response() follows once both happened.
 * @on_free_cmd: @cmd is about to be freed (optional). Called right after
 *	the target driver's ->on_free_cmd(), in the same context: inline in
 *	the driver's scst_tgt_cmd_done(), which may be atomic; no lock of the
 *	core held. For every command that had a mapped LUN, also those
 *	->exec() never saw (refused at admission, aborted); the data buffer
 *	and @cmd's tgt_dev are still there.
 * @add_device: handlers/<name>/mgmt "add_device NAME k=v;..."; @line is
 *	the parsed command (argv[1] is NAME, params the k=v pairs), already
 *	checked against @add_device_parameters. Return 0 or a negative errno,
 *	after logging one line that names the bad parameter.
 * @del_device: handlers/<name>/mgmt "del_device NAME". This and
 *	@add_device are called from the store of that mgmt file, in the
 *	writer's process context, and may sleep; the core holds none of its
 *	locks (they register and unregister devices, which take scst_mutex)
 *	and does not serialize writers.
 * @attach: a device of this handler was registered (optional). Called
 *	from scst_register_virtual_device() in its caller's process context,
 *	under scst_mutex (so it must not call what takes that mutex), after
 *	the persistent reservation state is loaded and before the device's
 *	threads start and the device is in sysfs or can be a LUN: no command
 *	reaches the device before it returns. A non-zero return fails the
 *	registration, without ->detach().
 * @detach: a device is being unregistered (optional). Called from
 *	scst_unregister_virtual_device() in its caller's process context,
 *	without scst_mutex, once no LUN exports the device, every nexus of it
 *	is gone (each ->detach_tgt() returned, no command left) and its
 *	threads are stopped, but before its sysfs directory, @dev_attrs
 *	included, is removed; and under scst_mutex when
 *	scst_register_virtual_device() fails after ->attach() succeeded.
 * @attach_tgt: @tgt_dev (a device seen through a session) was created
 *	(optional). Called under scst_mutex in process context whenever a
 *	session's LUN map gains the device: in scst_register_session() (the
 *	driver's context) and at configuration changes (writes to the mgmt
 *	files of luns/, ini_groups/ and initiators/, device removal). After
 *	the nexus's threads started and before the nexus is published: no
 *	command of it reaches the device before this returns. A non-zero
 *	return leaves the LUN invisible to that session, without
 *	->detach_tgt().
 * @detach_tgt: @tgt_dev is going away (optional). Called on
 *	scst_release_wq, an unbound workqueue: process context, no lock of
 *	the core held, once the last reference to the nexus is gone (it left
 *	the LUN map an RCU grace period ago, its commands are freed, no TMF
 *	holds it). Before its threads stop and before the session's
 *	unregistration (unreg_done) and ->detach() go on. It should not
 *	wait: TMFs and unregistrations wait for the releases that workqueue
 *	runs. Not serialized with ->attach_tgt() or ->detach_tgt() of other
 *	nexuses of the device, nor with ->exec() of their commands.
 * @task_mgmt_fn: a LUN or target reset reached the device (optional):
 *	called once its commands are marked aborted and before the core
 *	waits for them, so that the handler ends what its backend holds;
 *	process context, no lock held. @fn is SCST_LUN_RESET for both
 *	(CLEAR TASK SET and the aborts do not call it). Called on
 *	scst_tmf_wq, once per device the reset reaches (TARGET RESET: each
 *	device of the session in turn); resets of several sessions may call
 *	it concurrently for one device. ->exec() may run meanwhile: for a
 *	command whose ->exec() began before the mark, and for commands
 *	received after the mark, which are not aborted.
 * @add_device_parameters: names accepted by add_device, for the mgmt help
 * @devt_attrs: extra attributes of handlers/<name>/
 * @dev_attrs: extra attributes of each devices/<dev>/ of this handler
 * @owner: THIS_MODULE
 *
 * The core calls ->attach(), ->attach_tgt() and, on a failed registration,
 * ->detach() under scst_mutex; no other op of a device handler under one
 * of its locks or in an RCU read-side section. ->parse(), ->exec() and
 * ->on_free_cmd() may run under locks of the target driver whose call
 * into the core runs them inline (see struct scst_tgt_template).
 */
struct scst_dev_type {
	const char *name;
	int type;
	bool exec_may_sleep;
	bool exec_inline_first;
	bool fills_data_in;
	int threads_num;

	int (*parse)(struct scst_cmd *cmd);
	enum scst_exec_res (*exec)(struct scst_cmd *cmd);
	void (*on_free_cmd)(struct scst_cmd *cmd);

	int (*add_device)(const char *device_name,
			  const struct scst_mgmt_line *line);
	int (*del_device)(const char *device_name);
	int (*attach)(struct scst_device *dev);
	void (*detach)(struct scst_device *dev);
	int (*attach_tgt)(struct scst_tgt_dev *tgt_dev);
	void (*detach_tgt)(struct scst_tgt_dev *tgt_dev);
	void (*task_mgmt_fn)(struct scst_device *dev, enum scst_tmf fn);

	const char *const *add_device_parameters;
	const struct attribute **devt_attrs;
	const struct attribute **dev_attrs;

	struct module *owner;

	/* private to the core */
	struct list_head list_entry;
	struct kobject kobj;
	struct list_head dev_list;
};

/**
 * struct scst_device - a SCSI logical unit the core can export
 * @name: unique device name (devices/<name>)
 * @handler: its device handler
 * @block_size: logical block size in bytes (disks)
 * @block_shift: log2(@block_size)
 * @nblocks: capacity in logical blocks (disks)
 * @read_only: writes fail with DATA PROTECT
 * @dh_priv: the handler's private data
 * @d_sense: use descriptor-format sense data (control mode page D_SENSE)
 * @swp: software write protect (control mode page SWP)
 * @tst: task set type (control mode page TST; 0 = one task set for all,
 *	1 = one per I_T nexus); devices/<dev>/tst
 * @tst_default: the handler's default @tst (set with it in ->attach())
 * @queue_alg: queue algorithm modifier (control mode page)
 * @max_transfer_kb: the largest data buffer one command may ask for, in
 *	KiB (devices/<dev>/max_transfer_kb; default: the max_transfer_kb
 *	parameter of scst.ko); see scst_cmd_max_transfer()
 * @expl_alua: explicit ALUA (devices/<dev>/expl_alua, SCST's name and
 *	default 0): in a device group, INQUIRY's TPGS is 11b and SET TARGET
 *	PORT GROUPS is taken with 1, 01b (implicit only) and STPG refused
 *	with 0
 * @dma_align_mask: what the backing store needs of a data buffer's memory:
 *	each entry's offset and length a multiple of @dma_align_mask + 1
 *	(0: nothing). Set by the handler in ->attach(), and again when it
 *	reopens the backing store (READ_ONCE() it). A target driver's
 *	own buffer (scst_cmd_set_tgt_sg()) that does not meet it is not
 *	used: the command gets the core's pages and the driver copies
 */
struct scst_device {
	char name[SCST_MAX_NAME];
	struct scst_dev_type *handler;
	u32 block_size;
	u8 block_shift;
	u64 nblocks;
	bool read_only;
	void *dh_priv;

	bool d_sense;
	bool swp;
	u8 tst;
	u8 tst_default;
	u8 queue_alg;
	unsigned int max_transfer_kb;
	bool expl_alua;
	unsigned int dma_align_mask;

	/* private to the core */
	struct list_head list_entry;		/* on scst_dev_list */
	struct list_head handler_entry;		/* on handler->dev_list */
	struct kobject kobj;
	struct kobject *exported_kobj;
	struct list_head tgt_dev_list;		/* tgt_devs of this device */
	struct list_head lun_refs;		/* scst_lun entries using it */
	struct mutex dev_mutex;		/* threads_num changes, ini_pools */
	spinlock_t dev_lock;		/* task set, reservation, tgt_devs */
	/* SPC-2 reservation (RESERVE/RELEASE 6/10); holder: a session */
	struct scst_spc2_res spc2_res;
	/* task set: the enabled commands, and the dormant ones in order */
	struct scst_task_set task_set;
	struct list_head blocked_cmds;
	/* worker threads for handlers whose ->exec() may sleep */
	int threads_num;
	enum scst_threads_pool_type threads_pool_type;
	struct scst_cmd_threads threads;	/* the shared pool */
	struct list_head ini_pools;		/* per_initiator; dev_mutex */
	unsigned int nr_ini_pools;
	unsigned int threads_users;		/* nexuses on @threads; ditto */
	/*
	 * Persistent reservations (scst_pr_dev.c): pr_mutex serializes
	 * PERSISTENT RESERVE OUT and the APTPL file; pr_lock guards @pr
	 * for its readers (PR IN, the conflict check, sysfs), which never
	 * sleep. pr_active (no registration and no reservation, and the
	 * state known, when false) lets the command path skip the check
	 * without a lock. pr_unknown: the APTPL file could not be read, so
	 * the state is not known and commands get NOT READY until the
	 * administrator resets it (pr_unknown_why says why; both change
	 * under pr_mutex and pr_lock).
	 */
	struct scst_pr_state *pr;
	struct mutex pr_mutex;			/* PR OUT, APTPL file */
	spinlock_t pr_lock;			/* @pr for its readers */
	bool pr_active;
	bool pr_unknown;
	char *pr_unknown_why;
	/*
	 * cluster_mode (scst_pr_cluster.c): the cluster module's object of
	 * the device and its ops, NULL when off; pr_cl_blocked and
	 * pr_cl_joining: this node is not in step with the cluster, and
	 * fails closed as for pr_unknown.
	 */
	struct mutex pr_cl_mutex;		/* on/off, PR OUT in a cluster */
	void *pr_cl;
	const struct scst_pr_cluster_ops *pr_cl_ops;
	bool pr_cl_blocked;
	bool pr_cl_joining;
	/*
	 * Bumped after any change of an SPC-2 or persistent reservation
	 * that can make a command conflict: a command admitted before it is
	 * checked again before ->exec() (scst_res_changed_since()).
	 */
	atomic_t res_gen;
	struct completion kobj_released;
	/* ALUA device group (scst_dg.c), NULL: none; scst_alua_lock */
	struct scst_dg *alua_dg;
};

/**
 * struct scst_tgt_dev - a device as seen through one session (an I_T_L
 * nexus): its LUN, its unit attentions, its read-only flag
 * @dev: the device
 * @sess: the session
 * @lun: the LUN it has in that session's LUN map
 * @read_only: the LUN was added with read_only=1
 * @dh_priv: the device handler's private data for this nexus
 */
struct scst_tgt_dev {
	struct scst_device *dev;
	struct scst_session *sess;
	u64 lun;
	bool read_only;
	void *dh_priv;

	/* private to the core */
	struct list_head dev_entry;		/* on dev->tgt_dev_list */
	struct scst_sess_lun *sysfs;		/* sessions/<s>/lun<N>/ */
	struct scst_cmd_threads *threads;	/* the pool its commands use */
	struct scst_ini_pool *ini_pool;		/* per_initiator pool, shared */
	spinlock_t ua_lock;			/* ua_list */
	struct list_head ua_list;		/* pending unit attentions */
	bool ua_pending;			/* ua_list is not empty */
	bool dying;				/* released; dev->dev_lock */
	atomic_t cmd_count;
	struct rcu_work unmap_work;		/* drops the map's reference */
	struct work_struct free_work;		/* runs on the last reference */
	/* ALUA state of its port's group at a generation (scst_alua_cmd.c) */
	unsigned long alua_cache_gen;
	u8 alua_cache_state;
};

/**
 * struct scst_session - an I_T nexus: one initiator logged in to a target
 * @tgt: the target
 * @initiator_name: name the access groups are matched against
 * @sess_name: unique name of the session directory (initiator_name, or
 *	initiator_name_N for further channels of the same initiator)
 * @tgt_priv: the target driver's private data
 */
struct scst_session {
	struct scst_tgt *tgt;
	char initiator_name[SCST_MAX_NAME];
	char sess_name[SCST_MAX_NAME + 8];
	void *tgt_priv;

	/* private to the core */
	struct list_head tgt_entry;		/* on tgt->sess_list */
	struct kobject kobj;
	struct list_head lun_dirs;		/* lun<N>/; scst_mutex */
	struct kobject *luns_link_target;
	struct scst_acg *acg;			/* the access group it matched */
	cpumask_t cpu_mask;			/* its commands run there */
	struct scst_lun_map __rcu *lun_map;	/* its LUNs, RCU-read per cmd */
	spinlock_t sess_lock;			/* cmd_list */
	struct list_head cmd_list;		/* commands in flight */
	atomic_t active_cmds;
	/* scst_dispatch.c: how its queued passes are woken, and why */
	bool yield_wake;			/* to the yielding workers */
	unsigned int shallow_run;		/* arrivals at depth 1 in a row */
	unsigned long yield_probe_at;		/* jiffies: try them again */
	atomic_t active_tmfs;
	atomic_t nr_tgt_devs;			/* not yet freed */
	atomic64_t commands;
	atomic64_t read_cmds, write_cmds, read_bytes, write_bytes;
	atomic64_t bidi_cmds, bidi_bytes, none_cmds, unknown_cmds;
	atomic64_t read_unaligned, write_unaligned, bidi_unaligned;
	struct scst_lat_stats *lat_stats;	/* measure_latency; or NULL */
	spinlock_t lat_lock;			/* lat_stats */
	struct kobject *lat_kobj;		/* sessions/<sess>/latency */
	struct scst_pr_nexus pr_nexus;		/* tid.len 0: none */
	bool shutting_down;
	bool close_requested;
	void (*unreg_done)(struct scst_session *sess);
	struct work_struct unreg_work;
	struct completion kobj_released;
};

/**
 * struct scst_tgt - a target port of a target driver
 * @tgtt: its driver
 * @name: the target name (targets/<driver>/<name>)
 * @tgt_priv: the target driver's private data
 * @rel_tgt_id: relative target port identifier (SPC-4 7.8.6.4)
 * @cpu_mask: CPUs the worker threads serving this target may run on
 * @aen_disabled: SCST's aen_disabled: the driver must not send
 *	asynchronous event notifications (SAM-5 5.15) for this target;
 *	unit attentions are reported through sense data instead
 */
struct scst_tgt {
	struct scst_tgt_template *tgtt;
	char name[SCST_MAX_NAME];
	void *tgt_priv;
	u16 rel_tgt_id;
	cpumask_t cpu_mask;
	bool aen_disabled;
	char *comment;				/* kmalloc'ed; scst_mutex */

	/* private to the core */
	struct list_head tgtt_entry;
	struct kobject kobj;
	struct kobject *luns_kobj, *ini_groups_kobj, *sessions_kobj;
	struct scst_acg *default_acg;		/* the target's own LUNs */
	struct list_head acg_list;		/* its ini_groups */
	struct list_head sess_list;
	atomic_t nr_sess;			/* registered, not yet freed */
	struct completion kobj_released;
};

/**
 * struct scst_cmd - one SCSI command
 * @sess: session it arrived on
 * @tgt_dev: the device it addresses (NULL: LUN not mapped)
 * @dev: @tgt_dev->dev, or NULL
 * @lun: the LUN it addresses
 * @tag: the transport's tag (ABORT TASK names it)
 * @cdb: the CDB; @cdb_len its length
 * @queue_type: task attribute
 * @expected_dir: direction the transport announced
 * @expected_len: data-out or data-in length the transport announced
 * @data_direction: direction the CDB asks for (after parse)
 * @bufflen: length of the data buffer (after parse; the CDB's length cut
 *	to the expected data-in length)
 * @cdb_bufflen: the length the CDB asks for
 * @lba: first LBA (after parse, for commands that have one)
 * @nblocks: number of logical blocks (after parse)
 * @cdb_flags: SCST_CDB_* flags of the command (after parse)
 * @cdb_facts: SCST_OPF_* facts of the command (scst_cdb.h), from its row
 *	of the core's CDB table: set by the parse even when it refuses the
 *	CDB, once the operation code is known; what the core's admission
 *	(unit attention, ALUA, reservations) and a handler's may-sleep
 *	test read instead of the operation code
 * @op_id: enum scst_op_id of the command, from the same row (with
 *	@cdb_facts): the index of a handler's table of executors
 * @fua: the CDB's FUA bit (force unit access, SBC-3 §5.32), after parse
 * @dpo: the CDB's DPO bit (disable page out, SBC-3 §5.10), after parse
 * @sg: the data buffer; @sg_cnt its number of entries. For a data-in
 *	command with an ALLOCATION LENGTH (SCST_CDB_ALLOC_LEN) the core
 *	does not allocate it before ->exec(): scst_copy_to_sg() allocates
 *	what the command built, up to @bufflen (scst_cmd_alloc_data_buf()
 *	for a handler that fills the buffer itself)
 * @tgt_sg: the driver's own buffer, see scst_cmd_set_tgt_sg()
 * @resp_len: bytes of data-in the command produced (<= @bufflen)
 * @status: SAM status
 * @sense: sense data; @sense_len its length (0: none)
 * @tgt_priv: the target driver's private data
 * @dh_priv: the device handler's private data
 * @dh_flags: the device handler's flags, zero when the command is made
 */
struct scst_cmd {
	struct scst_session *sess;
	struct scst_tgt_dev *tgt_dev;
	struct scst_device *dev;
	u64 lun;
	u64 tag;
	u8 cdb[SCST_MAX_CDB_SIZE];
	unsigned int cdb_len;
	enum scst_queue_type queue_type;
	enum scst_data_direction expected_dir;
	u32 expected_len;

	enum scst_data_direction data_direction;
	u32 bufflen;
	u32 cdb_bufflen;
	u64 lba;
	u64 nblocks;
	u32 cdb_flags;
	u32 cdb_facts;
	u8 op_id;
	bool fua;
	bool dpo;

	struct scatterlist *sg;
	int sg_cnt;
	u32 resp_len;
	bool dir_known;		/* the CDB decoded: data_direction is its */
	u64 lat_ns[3];		/* measure_latency: rx, exec, exec done */
	struct scatterlist *tgt_sg;
	int tgt_sg_cnt;

	u8 status;
	u8 sense[SCST_SENSE_BUFFERSIZE];
	unsigned int sense_len;

	void *tgt_priv;
	void *dh_priv;
	unsigned long dh_flags;

	/* private to the core */
	int state;
	unsigned long flags;
	unsigned long rx_jiffies;	/* arrival: the session's oldest_command_ms */
	int cpu;			/* runs its state machine */
	int backlog_cpu;		/* counted queued there; or -1 */
	struct list_head sess_entry;	/* on sess->cmd_list */
	struct list_head queue_entry;	/* on a worker or blocked list */
	struct work_struct work;
	struct llist_node yield_node;	/* on a yielding worker's queue */
	atomic_t exec_refs;
	u64 abort_gen;
	bool counted_on_dev;
	enum scst_queue_type counted_type;	/* as counted in the task set */
	bool may_block;			/* ->exec() runs on a worker thread */
	bool on_exec_wq;		/* ... on scst_exec_wq */
	int res_gen;			/* dev->res_gen at admission */
	struct sg_table sg_table;	/* the buffer the core allocated */
};

/**
 * struct scst_mgmt_cmd - a task management function in progress
 * @sess: session it arrived on
 * @fn: the function
 * @lun: LUN it addresses (LUN-scoped functions)
 * @tag: tag of the command to abort (ABORT TASK)
 * @status: the service response, valid in ->task_mgmt_fn_done()
 * @tgt_priv: the target driver's private data
 */
struct scst_mgmt_cmd {
	struct scst_session *sess;
	enum scst_tmf fn;
	u64 lun;
	u64 tag;
	enum scst_tmf_response status;
	void *tgt_priv;

	/* private to the core */
	struct work_struct work;
};

/* target drivers */
int scst_register_target_template(struct scst_tgt_template *tgtt);
void scst_unregister_target_template(struct scst_tgt_template *tgtt);
struct scst_tgt *scst_register_target(struct scst_tgt_template *tgtt,
				      const char *name);
void scst_unregister_target(struct scst_tgt *tgt);
struct scst_session *scst_register_session(struct scst_tgt *tgt,
					   const char *initiator_name,
					   void *tgt_priv);
/*
 * @unreg_done of scst_unregister_session() is called from
 * scst_finish_unregister_session(): with @wait, in the caller's context
 * before scst_unregister_session() returns; without, on scst_tmf_wq.
 * Either way in process context, with no lock of the core held, and it
 * may sleep. It comes after every command of the session was freed (each
 * ->on_free_cmd() returned), its TMFs finished (->task_mgmt_fn_done()
 * returned), its sysfs directory was removed (no force_close store runs
 * any more) and each of its nexuses was released (->detach_tgt()
 * returned); before the session is freed and before
 * scst_unregister_target() of its target can return.
 */
void scst_unregister_session(struct scst_session *sess, bool wait,
			     void (*unreg_done)(struct scst_session *sess));

struct scst_cmd *scst_rx_cmd(struct scst_session *sess, const u8 *lun,
			     unsigned int lun_len, const u8 *cdb,
			     unsigned int cdb_len, gfp_t gfp);
static inline void scst_cmd_set_tag(struct scst_cmd *cmd, u64 tag)
{
	cmd->tag = tag;
}

static inline void scst_cmd_set_expected(struct scst_cmd *cmd,
					 enum scst_data_direction dir, u32 len)
{
	cmd->expected_dir = dir;
	cmd->expected_len = len;
}

static inline void scst_cmd_set_queue_type(struct scst_cmd *cmd,
					   enum scst_queue_type type)
{
	cmd->queue_type = type;
}

/**
 * scst_cmd_set_tgt_sg() - offer the driver's buffer for the data
 * @cmd: the command, before scst_cmd_init_done()
 * @sg: a scatterlist of exactly the expected transfer length
 * @sg_cnt: its number of entries
 *
 * When the CDB's transfer is exactly the expected one, and @sg meets the
 * device's @dma_align_mask, the core uses @sg as cmd->sg instead of
 * allocating a buffer (zero copy for loopback drivers); it never frees
 * it. The driver then finds cmd->sg == @sg and copies nothing.
 */
static inline void scst_cmd_set_tgt_sg(struct scst_cmd *cmd,
				       struct scatterlist *sg, int sg_cnt)
{
	cmd->tgt_sg = sg;
	cmd->tgt_sg_cnt = sg_cnt;
}

void scst_cmd_init_done(struct scst_cmd *cmd, enum scst_exec_context ctx);
void scst_rx_data(struct scst_cmd *cmd, int status,
		  enum scst_exec_context ctx);
void scst_rx_data_error(struct scst_cmd *cmd, u32 sense_code,
			enum scst_exec_context ctx);
void scst_tgt_cmd_done(struct scst_cmd *cmd);
bool scst_cmd_aborted(const struct scst_cmd *cmd);
/* residual: data-in/out length the transport announced minus what moved */
s64 scst_cmd_resid(const struct scst_cmd *cmd);

struct scst_mgmt_cmd *scst_rx_mgmt_fn(struct scst_session *sess,
				      enum scst_tmf fn, u64 lun, u64 tag,
				      void *tgt_priv, gfp_t gfp);
/* the SAM-5 name of a TMF for the log, "unknown TMF" for any other @fn */
const char *scst_tmf_name(int fn);

/* device handlers */
int scst_register_dev_driver(struct scst_dev_type *dt);
void scst_unregister_dev_driver(struct scst_dev_type *dt);
struct scst_device *scst_register_virtual_device(struct scst_dev_type *dt,
						 const char *name,
						 void *dh_priv);
void scst_unregister_virtual_device(struct scst_device *dev);
void scst_dev_capacity_changed(struct scst_device *dev);
void scst_dev_inquiry_data_changed(struct scst_device *dev);
unsigned int scst_get_setup_id(void);
/*
 * cluster_mode (scst_pr_cluster.c): persistent reservations shared with
 * the other target nodes of a cluster, the device named @cluster_id
 * (its t10_dev_id) on all of them. Process context, no lock held.
 */
int scst_pr_cluster_set(struct scst_device *dev, bool on,
			const char *cluster_id);
bool scst_pr_cluster_on(struct scst_device *dev);
/* ALUA fields of INQUIRY data (scst_alua_cmd.c): TPGS, TARGET PORT GROUP */
void scst_alua_inq_info(struct scst_cmd *cmd, u8 *tpgs, u16 *tpg_id);
void scst_dev_mode_params_changed(struct scst_device *dev,
				  struct scst_tgt_dev *except);

int scst_cdb_parse(struct scst_cmd *cmd);
void scst_cmd_exec_done(struct scst_cmd *cmd);
void scst_set_cmd_error(struct scst_cmd *cmd, u32 sense_code);
void scst_set_cmd_error_field(struct scst_cmd *cmd, u32 sense_code,
			      bool in_cdb, u16 byte, int bit);
void scst_set_cmd_error_status(struct scst_cmd *cmd, u8 status);
void scst_set_cmd_error_from(struct scst_cmd *cmd,
			     const struct scst_cdb_err *err);
void scst_set_resp_len(struct scst_cmd *cmd, u32 len);
/* copy @len bytes at @buf into the command's data-in buffer */
u32 scst_copy_to_sg(struct scst_cmd *cmd, const void *buf, u32 len);
int scst_cmd_alloc_data_buf(struct scst_cmd *cmd, u32 len);
u32 scst_cmd_max_transfer(const struct scst_cmd *cmd);

/**
 * scst_cmd_may_block() - whether ->exec() of @cmd may sleep for long
 * @cmd: the command being executed
 *
 * True on the device's worker threads (handlers with exec_may_sleep) and
 * when the core called ->exec() again after SCST_EXEC_NEED_THREAD; false
 * on the receiving CPU's fast path, which may be a completion context
 * that other queues share (an RDMA CQ worker): there a handler does only
 * non-blocking work and returns SCST_EXEC_NEED_THREAD for the rest.
 */
static inline bool scst_cmd_may_block(const struct scst_cmd *cmd)
{
	return cmd->may_block;
}

/* copy up to @len bytes of the command's data-out buffer to @buf */
u32 scst_copy_from_sg(struct scst_cmd *cmd, void *buf, u32 len);

static inline bool scst_cmd_read_only(const struct scst_cmd *cmd)
{
	return cmd->dev->read_only || cmd->dev->swp ||
	       (cmd->tgt_dev && cmd->tgt_dev->read_only);
}

/* sysfs: the kobject of a device, target or session, for extra attributes */
static inline struct scst_device *scst_kobj_to_dev(struct kobject *kobj)
{
	return container_of(kobj, struct scst_device, kobj);
}

static inline struct scst_tgt *scst_kobj_to_tgt(struct kobject *kobj)
{
	return container_of(kobj, struct scst_tgt, kobj);
}

static inline struct scst_session *scst_kobj_to_sess(struct kobject *kobj)
{
	return container_of(kobj, struct scst_session, kobj);
}

/*
 * In ->close_session(): true when the session's target is being
 * unregistered, false for an administrator's force_close.
 */
static inline bool scst_sess_tgt_unregistering(const struct scst_session *sess)
{
	return READ_ONCE(sess->close_requested);
}

/* The "[key]" line SCST appends to a non-default attribute value. */
#define SCST_SYSFS_KEY_MARK	"[key]\n"

/**
 * scst_sysfs_emit_key() - end an attribute value SCST's way
 * @buf: the sysfs buffer, holding @at bytes of value line
 * @at: length of the value line
 * @non_default: the value differs from the default
 *
 * scstadmin -write_config saves the attributes marked "[key]".
 *
 * Return: the total length.
 */
static inline ssize_t scst_sysfs_emit_key(char *buf, ssize_t at,
					  bool non_default)
{
	if (non_default)
		at += sysfs_emit_at(buf, at, SCST_SYSFS_KEY_MARK);
	return at;
}

#endif /* __SCST_H */
