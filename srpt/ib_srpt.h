/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ib_srpt.h - private header of scst_srpt, the SCSI RDMA Protocol (SRP)
 * target driver of the SCST-compatible target core.
 *
 * Objects and who owns them:
 *
 *   struct srpt_device    one per RDMA device (ib_client add/remove): its
 *                         PD, optional SRQ, IB CM listener and ports
 *   struct srpt_port      one per port of a device; attached to the target
 *                         named by its GID while the port exists
 *   struct srpt_tgt       one per port GID: the scst target ("ib_srpt"
 *                         driver, targets/ib_srpt/<gid>). It outlives its
 *                         port: when the device goes away the target stays
 *                         registered, port-less, with its LUNs and groups,
 *                         and a port with the same GID re-attaches to it
 *   struct srpt_rdma_ch   one per RDMA channel (login); each has one scst
 *                         session. Multichannel initiators (the Linux
 *                         initiator opens one per CPU) have one per channel
 *   struct srpt_recv_ioctx a receive buffer for one information unit
 *   struct srpt_send_ioctx the state of one SRP request in progress (SCSI
 *                         command, task management function or a response
 *                         built by the driver itself) and its response
 *                         buffer
 *
 * Files: srpt_main.c (module, parameters, ib_client, targets and ports),
 * srpt_cm.c (RDMA/CM and IB CM, logins), srpt_ch.c (channel state machine,
 * queue pairs, completion processing and the per-target thread),
 * srpt_io.c (SRP_CMD data path), srpt_tm.c (task management), srpt_sysfs.c
 * (attributes), srpt_mad.c (the device management MAD agent of InfiniBand
 * ports, for srp_daemon and ibsrpdm); srp_iu.c and srp_dm.c hold the
 * pure-logic IU parsers and builders and the DM MAD answers (srp_iu.h).
 *
 * Locking:
 *   srpt_mutex      the target list, the binding of ports to targets, each
 *                   target's channel list and enabled flag, a device's
 *                   removing flag. Never held across CM calls that wait.
 *   ch->cm_mutex    serializes accepting and disconnecting a connection
 *   ch->lock        (spinlock) a channel's free send contexts and its
 *                   send-queue wait list
 *   Per-command state is owned by whoever holds the command: the
 *   completion handler, the core, or a deferred work item; it needs no lock.
 */
#ifndef __IB_SRPT_H
#define __IB_SRPT_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/wait.h>
#include <linux/completion.h>
#include <linux/sched.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include <scst.h>
#include "srp_iu.h"

/* Name of the target driver: targets/ib_srpt, TARGET_DRIVER ib_srpt. */
#define SRPT_DRV_NAME			"ib_srpt"

/* Length of a port GID written as fe80:0000:0000:0000:xxxx:xxxx:xxxx:xxxx */
#define SRPT_GID_STR_LEN		40

/* Parameter limits and defaults (module parameters, see srpt_main.c). */
enum {
	/*
	 * Largest IU the initiator may send: an SRP_CMD with a 16-byte
	 * additional CDB and 128 indirect descriptors, or the Linux
	 * initiator's 8 KiB of immediate data at offset 80 (SRP-2).
	 */
	SRPT_MIN_MAX_REQ_SIZE		= 996,
	SRPT_DEF_MAX_REQ_SIZE		= 80 + SRP_IU_IMM_DESC_LEN + 8192,
	SRPT_MAX_MAX_REQ_SIZE		= 65536,
	/* SRP_RSP with 4 bytes of response data and room for sense data */
	SRPT_MIN_MAX_RSP_SIZE		= SRP_IU_RSP_LEN + SRP_IU_RSP_DATA_LEN +
					  SCST_SENSE_FIXED_LEN,
	SRPT_DEF_MAX_RSP_SIZE		= 256,
	SRPT_MAX_MAX_RSP_SIZE		= 1024,
	SRPT_MIN_SQ_SIZE		= 16,
	SRPT_DEF_SQ_SIZE		= 4096,
	SRPT_MAX_SQ_SIZE		= 65536,
	SRPT_MIN_RQ_SIZE		= 4,
	SRPT_DEF_RQ_SIZE		= 128,
	SRPT_MAX_RQ_SIZE		= 4096,
	SRPT_MIN_SRQ_SIZE		= 4,
	SRPT_DEF_SRQ_SIZE		= 4095,
	SRPT_MAX_SRQ_SIZE		= 65535,
	/* completion vectors a target's comp_v_mask can name */
	SRPT_MAX_COMP_VECTORS		= 64,
	/* descriptors of an SRP_CMD kept without holding its receive buffer */
	SRPT_INLINE_DESC		= 4,
	/*
	 * Most direct descriptors one SRP_CMD may have (SRP r16a 5.5.3 sets
	 * none): SG_MAX_SEGMENTS, the most Linux' ib_srp sends
	 * (indirect_sg_entries). Each one the transfer touches costs an
	 * rdma_rw context and at least one send queue entry.
	 */
	SRPT_MAX_DESC			= 2048,
	/* largest indirect descriptor table fetched from the initiator */
	SRPT_MAX_EXT_TABLE		= SRPT_MAX_DESC * SRP_IU_DIRECT_DESC_LEN,
	/*
	 * Channels (sessions) per target, and per initiator on a target
	 * (attributes max_sessions, max_channels_per_initiator). A channel
	 * holds about 1.2 MiB with the default parameters; ib_srp opens at
	 * most one per CPU of the initiator.
	 */
	SRPT_DEF_MAX_SESSIONS		= 512,
	SRPT_DEF_MAX_CH_PER_INI		= 64,
	SRPT_MAX_MAX_SESSIONS		= 65536,
	/* completions a thread processes per channel before the next one */
	SRPT_THREAD_BUDGET		= 256,
	SRPT_THREAD_POLL_BATCH		= 16,
};

/* module parameters (srpt_main.c) */
extern u16 srpt_rdma_cm_port;
extern unsigned int srp_max_req_size;
extern unsigned int srp_max_rsp_size;
extern unsigned int srpt_sq_size;
extern unsigned int srpt_rq_size;
extern bool srpt_use_srq;
extern unsigned int srpt_srq_size;
extern u64 srpt_service_guid;
extern bool srpt_thread_mode;

extern struct mutex srpt_mutex;
extern wait_queue_head_t srpt_release_wq;
extern struct workqueue_struct *srpt_wq;
extern struct ib_client srpt_client;
extern struct scst_tgt_template srpt_template;
extern struct kmem_cache *srpt_req_cache, *srpt_rsp_cache;

struct srpt_rdma_ch;
struct srpt_tgt;
struct ib_mad_agent;

/*
 * Immediate data (SRP-2) lands this aligned in a channel's receive
 * buffers, so that a write can hand it to the backend as it is (a block
 * device's DMA wants its logical block size's alignment at most; 512 is
 * what the SCSI midlayer's queues ask by default).
 */
#define SRPT_IMM_ALIGN		512

/**
 * struct srpt_recv_ioctx - a receive buffer for one IU
 * @cqe: completion entry; done = srpt_recv_done()
 * @buf: the buffer, srp_max_req_size bytes, inside @buf_base at the
 *	offset that puts the channel's immediate data at SRPT_IMM_ALIGN
 * @buf_base: the allocation (srpt_req_cache)
 * @dma: its DMA address (DMA_FROM_DEVICE)
 * @byte_len: bytes received in it
 * @ch: the channel that owns it; NULL for a buffer of a device's SRQ
 * @sdev: the device (for the SRQ and the DMA mapping)
 * @wait_entry: on its channel's @recv_wait list while it waits to be
 *	processed (the channel is not LIVE yet, or no send context was free)
 */
struct srpt_recv_ioctx {
	struct ib_cqe cqe;
	void *buf;
	void *buf_base;
	u64 dma;
	u32 byte_len;
	struct srpt_rdma_ch *ch;
	struct srpt_device *sdev;
	struct list_head wait_entry;
};

/**
 * struct srpt_desc - one direct data buffer descriptor (SRP r16a 5.5.2)
 * @va: VIRTUAL ADDRESS in the initiator's memory
 * @rkey: MEMORY HANDLE
 * @len: LENGTH
 */
struct srpt_desc {
	u64 va;
	u32 rkey;
	u32 len;
};

/**
 * struct srpt_rw_ctx - the RDMA READs or WRITEs for one descriptor
 * @rw: the rdma_rw context
 * @sg: the part of the command's buffer it transfers
 * @nents: entries of @sg
 * @sg_owned: @sg was allocated for this window and is freed with it
 */
struct srpt_rw_ctx {
	struct rdma_rw_ctx rw;
	struct scatterlist *sg;
	u32 nents;
	bool sg_owned;
};

/**
 * enum srpt_ioctx_state - where a send context is in its life
 * @SRPT_IOCTX_FREE: on the channel's free list
 * @SRPT_IOCTX_NEW: an SRP_CMD handed to the core
 * @SRPT_IOCTX_FETCH_TABLE: the RDMA READ of its indirect descriptor table
 *	is posted (SRP r16a 5.5.3: not all descriptors were in the IU)
 * @SRPT_IOCTX_NEED_DATA: RDMA READs of the data-out buffer posted (or
 *	waiting for room in the send queue)
 * @SRPT_IOCTX_DATA_IN: the data-out buffer arrived, back in the core
 * @SRPT_IOCTX_RSP_SENT: data-in and SRP_RSP posted (or waiting for room
 *	in the send queue)
 * @SRPT_IOCTX_MGMT: an SRP_TSK_MGMT handed to the core
 * @SRPT_IOCTX_MGMT_RSP_SENT: its SRP_RSP posted
 * @SRPT_IOCTX_LOCAL_RSP_SENT: an IU the driver built itself (an SRP_RSP
 *	to a refused request) posted; no command behind it
 * @SRPT_IOCTX_LOGOUT_SENT: an SRP_T_LOGOUT posted; the channel is
 *	disconnected once its SEND completes
 */
enum srpt_ioctx_state {
	SRPT_IOCTX_FREE,
	SRPT_IOCTX_NEW,
	SRPT_IOCTX_FETCH_TABLE,
	SRPT_IOCTX_NEED_DATA,
	SRPT_IOCTX_DATA_IN,
	SRPT_IOCTX_RSP_SENT,
	SRPT_IOCTX_MGMT,
	SRPT_IOCTX_MGMT_RSP_SENT,
	SRPT_IOCTX_LOCAL_RSP_SENT,
	SRPT_IOCTX_LOGOUT_SENT,
};

/**
 * struct srpt_send_ioctx - one SRP request in progress and its response
 * @send_cqe: completion of the SEND of the response; srpt_send_done()
 * @rdma_cqe: completion of the RDMA READs; srpt_rdma_read_done()
 * @table_cqe: completion of the RDMA READ of an external descriptor
 *	table; srpt_table_read_done()
 * @buf: response buffer, srp_max_rsp_size bytes
 * @dma: its DMA address (DMA_TO_DEVICE)
 * @rsp_len: length of the response built in @buf
 * @ch: its channel
 * @state: see enum srpt_ioctx_state
 * @cmd: the core's command (SRP_CMD)
 * @tag: TAG of the request
 * @sol_not: byte 1 of the request (solicited notification)
 * @dir: SRP_IU_DIR_* of the SRP_CMD's descriptors
 * @data_len: length of the data buffer the descriptors describe
 * @recv: the receive buffer of the request while its descriptors or its
 *	immediate data are still needed; NULL once reposted
 * @ci: the parsed SRP_CMD (valid while @recv is held)
 * @ndesc: number of descriptors in @desc, or 0 when they are read from
 *	@recv
 * @desc: copies of up to SRPT_INLINE_DESC descriptors
 * @imm_sg: the immediate data of a write in @recv, offered to the core as
 *	the command's buffer (zero copy; @recv is then held until the
 *	response)
 * @ext_table: the whole descriptor table fetched from the initiator, when
 *	the IU held only part of it (@ci.table_external)
 * @ext_dma: DMA address of @ext_table while it is being read
 * @ext_ready: @ext_table has arrived and was checked
 * @ext_failed: fetching or checking @ext_table failed
 * @table_wr: the RDMA READ of @ext_table (posted or waiting for room in
 *	the send queue like any other work request)
 * @table_sge: its scatter/gather entry
 * @rw_ctxs: the RDMA contexts of the data transfer; @s_rw_ctx or an array
 * @s_rw_ctx: the context of a transfer with one descriptor
 * @n_rw_ctx: number of initialized contexts in @rw_ctxs
 * @rw_dir: DMA direction of the contexts
 * @n_wr: send queue entries the posted work requests use
 * @send_wr: the SEND of the response
 * @sge: its scatter/gather entry
 * @work: deferred ->rdy_to_xfer() or ->xmit_response(), called in a
 *	context that may not sleep (rdma_rw_ctx_init() may)
 * @work_rdy: @work runs ->rdy_to_xfer() (else ->xmit_response())
 * @wait_entry: on the channel's @sq_wait or @post_partial list, or on its
 *	free list
 */
struct srpt_send_ioctx {
	struct ib_cqe send_cqe;
	struct ib_cqe rdma_cqe;
	struct ib_cqe table_cqe;
	void *buf;
	u64 dma;
	u32 rsp_len;
	struct srpt_rdma_ch *ch;
	enum srpt_ioctx_state state;
	struct scst_cmd *cmd;
	u64 tag;
	u8 sol_not;
	u8 dir;
	u32 data_len;
	struct srpt_recv_ioctx *recv;
	struct srp_cmd_info ci;
	u32 ndesc;
	struct srpt_desc desc[SRPT_INLINE_DESC];
	struct scatterlist imm_sg;
	void *ext_table;
	u64 ext_dma;
	bool ext_ready;
	bool ext_failed;
	struct ib_rdma_wr table_wr;
	struct ib_sge table_sge;
	struct srpt_rw_ctx *rw_ctxs;
	struct srpt_rw_ctx s_rw_ctx;
	u32 n_rw_ctx;
	enum dma_data_direction rw_dir;
	u32 n_wr;
	struct ib_send_wr send_wr;
	struct ib_sge sge;
	struct work_struct work;
	bool work_rdy;
	struct list_head wait_entry;
};

/**
 * enum srpt_ch_state - the life of an RDMA channel
 *
 *   CONNECTING --ESTABLISHED/RTU--> LIVE
 *   CONNECTING, LIVE --disconnect (either side), error, logout,
 *		target disabled, port or module going away--> DISCONNECTING
 *   DISCONNECTING --release work: QP in error, drained--> DRAINING
 *   DRAINING --every command accounted for, session unregistered--> RELEASED
 *
 * @SRPT_CH_CONNECTING: login accepted (or being accepted); IUs that arrive
 *	wait on the channel's receive wait list
 * @SRPT_CH_LIVE: connection established: IUs are processed, responses sent
 * @SRPT_CH_DISCONNECTING: DREQ sent or received, QP in error; the release
 *	work is queued. Nothing new is posted from here on
 * @SRPT_CH_DRAINING: the release work drains the QP: every posted work
 *	request completes (flushed), commands waiting for RDMA READs fail,
 *	and the session is unregistered (the core aborts its commands)
 * @SRPT_CH_RELEASED: the session is gone, the QP destroyed; the channel is
 *	freed with its last reference
 */
enum srpt_ch_state {
	SRPT_CH_CONNECTING,
	SRPT_CH_LIVE,
	SRPT_CH_DISCONNECTING,
	SRPT_CH_DRAINING,
	SRPT_CH_RELEASED,
};

/* bits of srpt_rdma_ch.thread_flags */
enum {
	SRPT_CH_THREAD_PENDING,		/* on its thread's pending list */
};

/**
 * struct srpt_thread - a target's completion thread (thread mode)
 * @task: the kernel thread
 * @tgt: its target
 * @pending: channels whose CQ has completions to process
 * @cpu_mask: the CPU set the thread was last bound to (the target's
 *	cpu_mask)
 */
struct srpt_thread {
	struct task_struct *task;
	struct srpt_tgt *tgt;
	struct llist_head pending;
	cpumask_t cpu_mask;
};

/**
 * struct srpt_rdma_ch - an RDMA channel: one login, one QP, one session
 * @tgt: the target it logged in to
 * @sport: the port it arrived on
 * @sdev: the device of @sport
 * @port_num: port number (1-based)
 * @using_rdma_cm: RDMA/CM connection (else IB CM)
 * @rdma_cm_id: RDMA/CM identifier
 * @ib_cm_id: IB CM identifier
 * @qp: the queue pair
 * @cq: the completion queue of its sends and receives
 * @cq_size: number of CQ entries asked for
 * @cq_pooled: @cq comes from the device's shared CQ pool (default mode);
 *	otherwise it is the channel's own, polled by @thread
 * @comp_vector: completion vector of @cq
 * @thread: the target's thread that polls @cq (thread mode), or NULL
 * @thread_flags: SRPT_CH_THREAD_* bits
 * @thread_node: on @thread->pending
 * @i_port_id: INITIATOR PORT IDENTIFIER of the login
 * @t_port_id: TARGET PORT IDENTIFIER of the login
 * @pkey: partition key of the connection
 * @name: initiator name the session was registered with
 * @ini_name: the initiator's name before the core made it unique (its
 *	address, or its port identifier): the per-initiator channel limit
 *	counts channels by it
 * @sess: the core's session
 * @rq_size: credits: receive buffers (or SRQ share) of the channel
 * @imm_data_offset: SRP-2 immediate data offset granted, 0 if none
 * @max_rsp_len: largest IU the initiator receives (our max_ti_iu_len)
 * @req_lim: credits the initiator holds, as far as the target knows
 * @req_lim_delta: credits to return with the next response (commands
 *	that ended without one)
 * @sq_wr_avail: free send queue entries
 * @sq_wr_max: send queue entries of the QP (less two for ib_drain_qp()):
 *	@sq_wr_avail when nothing is posted. Work requests of one command
 *	that need more can never be posted; such a command is refused
 * @last_wqe: completed by IB_EVENT_QP_LAST_WQE_REACHED (SRQ): the QP takes
 *	no more receive buffers from the SRQ
 * @state: enum srpt_ch_state; only moves forward, with srpt_ch_advance()
 * @lock: protects @free_list, @sq_wait and @post_partial
 * @free_list: free send contexts
 * @sq_wait: send contexts whose work requests wait for send queue room
 * @post_partial: send contexts of which ib_post_send() took only the first
 *	work requests: those run until the QP is drained, so the context and
 *	its buffers wait for the drain (srpt_ch_flush_waiting())
 * @recv_wait: receive buffers waiting to be processed; touched only in
 *	the channel's completion context
 * @send_ring: all send contexts of the channel
 * @send_ring_size: their number
 * @recv_ring: the channel's receive buffers (none with an SRQ)
 * @zw_cqe: completion of the zero-length RDMA WRITE that starts processing
 *	of @recv_wait when the channel goes LIVE
 * @cm_mutex: serializes accepting and disconnecting
 * @close_work: disconnects the channel in process context; delayed while
 *	an SRP_T_LOGOUT is on its way (srpt_logout_and_close())
 * @release_work: drains and releases the channel (DISCONNECTING ->
 *	DRAINING -> RELEASED)
 * @tgt_entry: on @tgt->ch_list (under srpt_mutex)
 * @kref: the channel is freed with its last reference
 */
struct srpt_rdma_ch {
	struct srpt_tgt *tgt;
	struct srpt_port *sport;
	struct srpt_device *sdev;
	u32 port_num;
	bool using_rdma_cm;
	struct rdma_cm_id *rdma_cm_id;
	struct ib_cm_id *ib_cm_id;
	struct ib_qp *qp;
	struct ib_cq *cq;
	u32 cq_size;
	bool cq_pooled;
	int comp_vector;
	struct srpt_thread *thread;
	unsigned long thread_flags;
	struct llist_node thread_node;
	u8 i_port_id[16];
	u8 t_port_id[16];
	u16 pkey;
	char name[SCST_MAX_NAME];
	char ini_name[SCST_MAX_NAME];
	struct scst_session *sess;
	u32 rq_size;
	u32 imm_data_offset;
	u32 max_rsp_len;
	atomic_t req_lim;
	atomic_t req_lim_delta;
	atomic_t sq_wr_avail;
	u32 sq_wr_max;
	struct completion last_wqe;
	enum srpt_ch_state state;
	/* @state changes, @free_list, @sq_wait, @post_partial */
	spinlock_t lock;
	struct list_head free_list;
	struct list_head sq_wait;
	struct list_head post_partial;
	struct list_head recv_wait;
	struct srpt_send_ioctx **send_ring;
	u32 send_ring_size;
	struct srpt_recv_ioctx **recv_ring;
	struct ib_cqe zw_cqe;
	/* accepting vs. disconnecting the connection */
	struct mutex cm_mutex;
	struct delayed_work close_work;
	struct work_struct release_work;
	struct list_head tgt_entry;
	struct kref kref;
};

/**
 * struct srpt_port - one port of an RDMA device
 * @sdev: its device
 * @port: port number (1-based)
 * @gid: GID 0 of the port, which names its target
 * @tgt: the target it serves, or NULL (no GID yet)
 * @link_layer: IB_LINK_LAYER_*
 * @refresh_work: re-reads the GID after a port event and (re)attaches the
 *	port to its target
 * @mad_agent: the device management MAD agent of an InfiniBand port, set
 *	while the port advertises IsDeviceManagementSupported (srpt_mad.c);
 *	NULL on other ports
 */
struct srpt_port {
	struct srpt_device *sdev;
	u32 port;
	union ib_gid gid;
	struct srpt_tgt *tgt;
	enum rdma_link_layer link_layer;
	struct work_struct refresh_work;
	struct ib_mad_agent *mad_agent;
};

/**
 * struct srpt_device - an RDMA device
 * @device: the device
 * @pd: protection domain of all its channels
 * @lkey: local DMA key of @pd
 * @srq: shared receive queue (use_srq), or NULL
 * @srq_size: number of receive buffers of @srq
 * @srq_ring: the receive buffers of @srq
 * @cm_id: IB CM listener for srpt_service_guid, or NULL
 * @event_handler: asynchronous events (port state, GID changes)
 * @removing: the device is going away: no more logins (srpt_mutex)
 * @no_last_wqe: a QP of the device on the SRQ went to the error state
 *	without IB_EVENT_QP_LAST_WQE_REACHED (Soft-RoCE of Linux 6.1 never
 *	reports it): later releases do not wait for it
 * @nr_ch: logins in progress and channels of the device not yet freed
 *	(srpt_remove_one() waits for zero before it frees the PD)
 * @port_cnt: number of ports
 * @ports: the ports, @port_cnt of them
 */
struct srpt_device {
	struct ib_device *device;
	struct ib_pd *pd;
	u32 lkey;
	struct ib_srq *srq;
	u32 srq_size;
	struct srpt_recv_ioctx **srq_ring;
	struct ib_cm_id *cm_id;
	struct ib_event_handler event_handler;
	bool removing;
	bool no_last_wqe;
	atomic_t nr_ch;
	u32 port_cnt;
	struct srpt_port ports[];
};

/**
 * struct srpt_tgt - an SRP target port: one per port GID
 * @scst_tgt: the core's target, targets/ib_srpt/<@name>
 * @name: the GID, fe80:0000:0000:0000:xxxx:xxxx:xxxx:xxxx
 * @gid: the GID
 * @sport: the port it is attached to, or NULL while port-less
 * @enabled: logins are accepted (the "enabled" attribute)
 * @thread_mode: new channels are polled by @thread (attribute
 *	"thread_mode", default the module parameter)
 * @comp_v_mask: completion vectors new channels may use
 *	(attribute "comp_v_mask")
 * @comp_v_next: round-robin position in @comp_v_mask
 * @max_sessions: most channels (sessions) logged in at once (attribute
 *	"max_sessions")
 * @max_ch_per_ini: most channels of one initiator at once (attribute
 *	"max_channels_per_initiator")
 * @thread: the completion thread while it runs (thread mode)
 * @thread_pid: its PID, 0 when none (attribute "thread_pid"; a copy, so
 *	that reading it never touches a thread being stopped)
 * @ch_list: its channels (srpt_mutex)
 * @entry: on srpt_tgt_list (srpt_mutex)
 */
struct srpt_tgt {
	struct scst_tgt *scst_tgt;
	char name[SRPT_GID_STR_LEN];
	union ib_gid gid;
	struct srpt_port *sport;
	bool enabled;
	bool thread_mode;
	DECLARE_BITMAP(comp_v_mask, SRPT_MAX_COMP_VECTORS);
	atomic_t comp_v_next;
	u32 max_sessions;
	u32 max_ch_per_ini;
	struct srpt_thread *thread;
	pid_t thread_pid;
	struct list_head ch_list;
	struct list_head entry;
};

/* srpt_main.c */
void srpt_format_gid(char *buf, size_t len, const union ib_gid *gid);
struct srpt_tgt *srpt_tgt_from_scst(struct scst_tgt *scst_tgt);
u64 srpt_tgt_port_guid(const struct srpt_tgt *tgt);

/* srpt_cm.c */
int srpt_rdma_cm_listen(void);
void srpt_rdma_cm_stop(void);
int srpt_ib_cm_listen(struct srpt_device *sdev);
void srpt_ib_cm_stop(struct srpt_device *sdev);
int srpt_ch_qp_rts(struct srpt_rdma_ch *ch);

/* srpt_ch.c */
const char *srpt_ch_state_name(enum srpt_ch_state state);
bool srpt_ch_advance(struct srpt_rdma_ch *ch, enum srpt_ch_state new);
struct srpt_rdma_ch *srpt_ch_alloc(struct srpt_tgt *tgt,
				   struct srpt_port *sport, u32 rq_size,
				   u32 imm_data_offset);
int srpt_ch_create_ib(struct srpt_rdma_ch *ch);
void srpt_ch_get(struct srpt_rdma_ch *ch);
void srpt_ch_put(struct srpt_rdma_ch *ch);
void srpt_ch_free_unused(struct srpt_rdma_ch *ch);
void srpt_dev_put(struct srpt_device *sdev);
void srpt_ch_establish(struct srpt_rdma_ch *ch);
void srpt_ch_disconnect(struct srpt_rdma_ch *ch);
void srpt_ch_close_async(struct srpt_rdma_ch *ch);
void srpt_ch_close_after(struct srpt_rdma_ch *ch, unsigned long delay);
void srpt_ch_start_release(struct srpt_rdma_ch *ch);
void srpt_tgt_close_channels(struct srpt_tgt *tgt, bool t_logout);
void srpt_tgt_wait_channels(struct srpt_tgt *tgt);
void srpt_dev_wait_channels(struct srpt_device *sdev);
int srpt_thread_start(struct srpt_tgt *tgt);
void srpt_thread_stop(struct srpt_tgt *tgt);
struct srpt_recv_ioctx **srpt_alloc_recv_ring(struct srpt_device *sdev,
					      struct srpt_rdma_ch *ch,
					      u32 n, u32 imm_data_offset);
void srpt_free_recv_ring(struct srpt_device *sdev,
			 struct srpt_recv_ioctx **ring, u32 n);
int srpt_post_recv(struct srpt_recv_ioctx *ioctx);

/* srpt_io.c */
void srpt_recv_done(struct ib_cq *cq, struct ib_wc *wc);
void srpt_send_done(struct ib_cq *cq, struct ib_wc *wc);
void srpt_rdma_read_done(struct ib_cq *cq, struct ib_wc *wc);
void srpt_table_read_done(struct ib_cq *cq, struct ib_wc *wc);
void srpt_process_recv_wait(struct srpt_rdma_ch *ch);
void srpt_process_sq_wait(struct srpt_rdma_ch *ch);
void srpt_ch_flush_waiting(struct srpt_rdma_ch *ch);
struct srpt_send_ioctx *srpt_get_send_ioctx(struct srpt_rdma_ch *ch);
void srpt_put_send_ioctx(struct srpt_send_ioctx *ioctx);
void srpt_put_recv(struct srpt_send_ioctx *ioctx);
int srpt_post_send_iu(struct srpt_send_ioctx *ioctx, u32 len);
void srpt_repost_recv(struct srpt_recv_ioctx *recv);
void srpt_logout_and_close(struct srpt_rdma_ch *ch, u32 reason);
int srpt_rdy_to_xfer(struct scst_cmd *cmd);
int srpt_xmit_response(struct scst_cmd *cmd);
void srpt_ioctx_init(struct srpt_send_ioctx *ioctx);

/* srpt_tm.c */
void srpt_handle_tsk_mgmt(struct srpt_rdma_ch *ch,
			  struct srpt_recv_ioctx *recv,
			  struct srpt_send_ioctx *ioctx);
void srpt_tsk_mgmt_done(struct scst_mgmt_cmd *mcmd);

/* srpt_mad.c */
int srpt_mad_port_init(struct srpt_port *sport);
void srpt_mad_port_exit(struct srpt_port *sport);

/* srpt_sysfs.c */
extern const struct attribute *srpt_tgt_attrs[];
extern const struct attribute *srpt_sess_attrs[];

/**
 * srpt_ch_state() - a channel's state, read without a lock
 * @ch: the channel
 *
 * Return: the state; it may change right after.
 */
static inline enum srpt_ch_state srpt_ch_state(const struct srpt_rdma_ch *ch)
{
	return READ_ONCE(ch->state);
}

#endif /* __IB_SRPT_H */
