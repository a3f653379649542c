// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_cluster.c - scst_cluster.ko: cluster_mode's persistent reservations
 * over the kernel's DLM (Documentation/ha.md). The core's side, and what
 * a device in cluster_mode does with what this module moves, is
 * scst_pr_cluster.c; the blocks' encoding is scst_pr_wire.c.
 *
 * One lockspace per device, named after the id every node gives it
 * (t10_dev_id). Its resources:
 *   "pr"        the cluster-wide PR lock, EX around every PERSISTENT
 *               RESERVE OUT (and a node's resynchronisation)
 *   "state"     the header block: the update's sequence number, the
 *               reservation, the count of registrants, their digest
 *   "reg.<i>"   registrant i's block
 *   "note"      the notices of the last update (unit attentions, aborts)
 *   "bell.<n>"  node n's doorbell: n holds it in PR with a blocking AST,
 *               so a writer that asks for EX wakes it
 *   "ack.<n>"   node n's block: the last update it applied
 * Every node keeps a CR lock on each block it read or wrote, so that the
 * blocks outlive any node (DLM recovery rebuilds a lock value block from
 * the survivors' copies). A block is written by converting to PW and back
 * to CR with DLM_LKF_VALBLK, and read by converting CR to PR and back.
 *
 * A PERSISTENT RESERVE OUT on node A: "pr" EX; read "state", and the rest
 * if A is behind; run the command; write the changed registrant blocks,
 * "note", then "state"; ring each other node and wait (bounded) until its
 * "ack" block names the update; release "pr". A rung node reads the
 * update, makes it its state, applies the notices to its own nexuses
 * (PREEMPT AND ABORT's aborts included, waiting for them), writes its
 * "ack", and lets the ringer's EX through. So the command completes when
 * every node enforces the new state.
 *
 * Fail closed: the DLM's recover_prep (a node joined, left or failed, or
 * quorum was lost: dlm_controld then does not finish the recovery) blocks
 * the device's commands that a reservation could restrict; the
 * resynchronisation after recover_done unblocks them.
 *
 * Every wait for the DLM is bounded (SCST_CL_WAIT_MS, then a cancel). A
 * request whose cancel is not answered either (its master is cut off,
 * and the DLM answers only after the membership changed and the node was
 * fenced, which may take minutes) leaves its lock marked lost and the
 * device blocked until the DLM's answer comes: then the lock's mode is
 * what the answer says and the device resynchronises.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/dlm.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/delay.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/ctype.h>

#include "scst_priv.h"

/* One DLM request: generous for guests under TCG and for a recovery. */
#define SCST_CL_WAIT_MS		30000
/*
 * Its cancel: answered at once unless the request's master is cut off,
 * when the answer comes only after the fence (minutes): the lock is
 * then left to its late answer, and a PERSISTENT RESERVE OUT fails
 * before the host's own timeout (sg_persist's 60 s) aborts it.
 */
#define SCST_CL_CANCEL_WAIT_MS	5000
/* Joining a lockspace waits for dlm_controld and the first recovery. */
#define SCST_CL_JOIN_WAIT_MS	60000
/* The ack block: magic, the update's sequence number. */
#define SCST_CL_ACK_MAGIC	0x53505241	/* "SPRA" */

static struct workqueue_struct *scst_cl_wq;

struct scst_cl;

/**
 * struct scst_cl_lk - one lock of this node on a resource
 * @cl: its device's
 * @lksb: the DLM's status block; its LVB pointer is @lvb
 * @lvb: the resource's block as last read or written
 * @done: completed by the AST
 * @name: the resource
 * @mode: the granted mode, DLM_LOCK_IV while none
 * @rqmode: the mode of the last request (DLM_LOCK_IV: an unlock)
 * @lost: a request (or unlock) was neither answered nor cancelled in
 *	time: the lock is not used until the DLM's late answer comes
 *	(scst_cl_late_answer(); guarded by the device's @late_lock)
 * @bell: a blocking AST on it rings this node
 * @abandoned: @lost was set once: a doorbell round's lock is then never
 *	freed (the DLM may still call its AST)
 * @transient: a doorbell round's lock (scst_cl_ring()): nobody waits for
 *	its late answer, which releases it
 * @release_entry: on the device's @late_release list (@late_lock)
 */
struct scst_cl_lk {
	struct scst_cl *cl;
	struct dlm_lksb lksb;
	u8 lvb[SCST_PR_WIRE_LVB_LEN];
	struct completion done;
	char name[DLM_RESNAME_MAXLEN];
	int mode;
	int rqmode;
	bool lost;
	bool abandoned;
	bool bell;
	bool transient;
	struct list_head release_entry;
};

/**
 * struct scst_cl - a device in cluster_mode
 * @dev: the device
 * @ls: its lockspace
 * @ls_name: the lockspace's name
 * @nodeid: this node's DLM node id
 * @pr_mutex: serializes the users of @pr_lk on this node
 * @io_mutex: the block locks, @seq and the scratch space
 * @seq: the update the device's state is (0: none yet)
 * @published: an update the running PERSISTENT RESERVE OUT published
 * @pr_lk: "pr"
 * @state_lk: "state"
 * @note_lk: "note"
 * @bell_lk: this node's doorbell
 * @ack_lk: this node's ack block
 * @reg_lk: "reg.<i>", SCST_PR_MAX_REGISTRANTS of them
 * @rbuf: the registrant blocks as read, for scst_pr_wire_get_state()
 * @st: scratch: a state read
 * @base: scratch: the device's state before an update
 * @eff: scratch: an update's notices
 * @members_lock: guards @members and @nmembers
 * @members: the lockspace's nodes at the last recovery
 * @nmembers: how many
 * @bell_work: the doorbell rang
 * @resync_work: the DLM finished a recovery (again later after a failure)
 * @recovered: completed by the first recover_done (this node's id)
 * @recovering: between recover_prep and the resync after recover_done
 * @ready: joined: a recovery from now on resynchronises the device
 * @dying: the lockspace is being released: the works do nothing
 * @stale_logged: "missed an update" was logged since the last resync
 * @late_lock: the locks' @lost against their ASTs, @late_release
 * @late_release: doorbell rounds' locks granted late, to be released
 * @release_work: releases them (not from the AST: scst_cl_late_answer())
 * @nlost: locks waiting for the DLM's late answer; the device stays
 *	blocked, and the resync waits, while there are any
 */
struct scst_cl {
	struct scst_device *dev;
	dlm_lockspace_t *ls;
	char ls_name[DLM_LOCKSPACE_LEN + 1];
	int nodeid;
	struct mutex pr_mutex;		/* @pr_lk's users */
	struct mutex io_mutex;		/* the block locks, @seq, scratch */
	u64 seq;
	u64 published;
	struct scst_cl_lk pr_lk, state_lk, note_lk, bell_lk, ack_lk;
	struct scst_cl_lk *reg_lk;
	u8 (*rbuf)[SCST_PR_WIRE_LVB_LEN];
	struct scst_pr_state *st, *base;
	struct scst_pr_effects *eff;
	spinlock_t members_lock;	/* @members, @nmembers */
	int *members;
	unsigned int nmembers;
	struct work_struct bell_work;
	struct delayed_work resync_work;
	struct completion recovered;
	bool recovering;
	bool ready;
	bool dying;
	bool stale_logged;
	spinlock_t late_lock;		/* the locks' @lost, @late_release */
	struct list_head late_release;
	struct work_struct release_work;
	atomic_t nlost;
};

/* ---------------------------------------------------------------------- */
/* Locks                                                                  */

/*
 * Release the doorbell rounds' locks that were granted late: nobody holds
 * them for a reason any more. Their unlock's AST completes @done, which
 * nobody waits for.
 */
static void scst_cl_release_workfn(struct work_struct *work)
{
	struct scst_cl *cl = container_of(work, struct scst_cl, release_work);
	struct scst_cl_lk *lk;

	for (;;) {
		spin_lock_bh(&cl->late_lock);
		lk = list_first_entry_or_null(&cl->late_release,
					      struct scst_cl_lk, release_entry);
		if (lk)
			list_del_init(&lk->release_entry);
		spin_unlock_bh(&cl->late_lock);
		if (!lk || READ_ONCE(cl->dying))
			return;
		lk->rqmode = DLM_LOCK_IV;
		if (!dlm_unlock(cl->ls, lk->lksb.sb_lkid, 0, &lk->lksb, lk))
			lk->mode = DLM_LOCK_IV;
	}
}

/*
 * The DLM answered a request its waiter gave up on (scst_cl_wait()): the
 * answer says what the lock is now. A doorbell round's lock is released,
 * in a work item: this is the lockspace's callback context, which the
 * recovery (dlm_recoverd, ls_recover() on 6.1) flushes while it holds
 * the lockspace's recovery lock, so a dlm_unlock() here, which waits for
 * that lock, would deadlock with the next membership change. The last late answer lets the device
 * resynchronise: it stayed blocked since its lock was lost.
 */
static void scst_cl_late_answer(struct scst_cl_lk *lk)
{
	struct scst_cl *cl = lk->cl;
	int status = lk->lksb.sb_status;

	if (!status || status == -DLM_EUNLOCK)
		lk->mode = lk->rqmode;
	pr_info("%s: cluster: the DLM answered lock %s at last (%d): mode %d\n",
		cl->dev->name, lk->name, status, lk->mode);
	if (READ_ONCE(cl->dying))
		return;
	if (lk->transient && lk->mode != DLM_LOCK_IV) {
		spin_lock_bh(&cl->late_lock);
		list_add_tail(&lk->release_entry, &cl->late_release);
		spin_unlock_bh(&cl->late_lock);
		queue_work(scst_cl_wq, &cl->release_work);
	}
	if (atomic_dec_and_test(&cl->nlost) && READ_ONCE(cl->ready))
		mod_delayed_work(scst_cl_wq, &cl->resync_work, 0);
}

static void scst_cl_ast(void *arg)
{
	struct scst_cl_lk *lk = arg;
	struct scst_cl *cl = lk->cl;
	bool late;

	spin_lock_bh(&cl->late_lock);
	late = lk->lost;
	lk->lost = false;
	if (!late)
		complete(&lk->done);
	spin_unlock_bh(&cl->late_lock);
	if (late)
		scst_cl_late_answer(lk);
}

/*
 * @lk's waiter gives up on it: its AST, when it comes, is a late answer.
 * Return false if the AST came meanwhile.
 */
static bool scst_cl_give_up(struct scst_cl_lk *lk)
{
	struct scst_cl *cl = lk->cl;
	bool answered;

	spin_lock_bh(&cl->late_lock);
	answered = completion_done(&lk->done);
	if (!answered) {
		lk->lost = true;
		lk->abandoned = true;
		atomic_inc(&cl->nlost);
	}
	spin_unlock_bh(&cl->late_lock);
	if (answered)
		return false;
	pr_err("%s: cluster: lock %s: no answer from the DLM; the device fails closed until it answers\n",
	       cl->dev->name, lk->name);
	scst_pr_cluster_block(cl->dev, true);
	return true;
}

/* Another node asks for a mode ours blocks: on our doorbell, it rings. */
static void scst_cl_bast(void *arg, int mode)
{
	struct scst_cl_lk *lk = arg;

	queue_work(scst_cl_wq, &lk->cl->bell_work);
}

static void scst_cl_lk_init(struct scst_cl *cl, struct scst_cl_lk *lk,
			    const char *name, int n)
{
	memset(lk, 0, sizeof(*lk));
	lk->cl = cl;
	lk->mode = DLM_LOCK_IV;
	lk->lksb.sb_lvbptr = (char *)lk->lvb;
	init_completion(&lk->done);
	INIT_LIST_HEAD(&lk->release_entry);
	if (n >= 0)
		snprintf(lk->name, sizeof(lk->name), "%s.%d", name, n);
	else
		strscpy(lk->name, name, sizeof(lk->name));
}

/*
 * Wait for @lk's AST, bounded; cancel the request when it does not come.
 * Return its status: 0, -EAGAIN (DLM_LKF_NOQUEUE), -ETIMEDOUT...
 */
static int scst_cl_wait(struct scst_cl_lk *lk)
{
	unsigned long t = msecs_to_jiffies(SCST_CL_WAIT_MS);
	int ret;

	if (wait_for_completion_timeout(&lk->done, t))
		return lk->lksb.sb_status;
	/*
	 * A new lock is not cancelled: the DLM answers the cancel of a
	 * request whose lookup or master a recovery lost with -DLM_ECANCEL
	 * (dlm_recover_waiters_post()) without freeing the resource's
	 * first-lookup slot (res_first_lkid), and every later request of
	 * this node on the resource then waits for ever (seen in ha-split
	 * on 6.1: "pr" after the other node's fence). Left to its late
	 * answer, it is resent to the new master and granted.
	 */
	if (lk->mode == DLM_LOCK_IV) {
		if (scst_cl_give_up(lk))
			return -ETIMEDOUT;
		return lk->lksb.sb_status;
	}
	/* when it was granted meanwhile, the cancel fails: its AST came */
	ret = dlm_unlock(lk->cl->ls, lk->lksb.sb_lkid, DLM_LKF_CANCEL,
			 &lk->lksb, lk);
	pr_warn_ratelimited("%s: cluster: lock %s (from mode %d): no answer from the DLM in %u s; cancelling (%d)\n",
			    lk->cl->dev->name, lk->name, lk->mode,
			    SCST_CL_WAIT_MS / 1000, ret);
	if (!wait_for_completion_timeout(&lk->done,
					 msecs_to_jiffies(SCST_CL_CANCEL_WAIT_MS)) &&
	    scst_cl_give_up(lk))
		return -ETIMEDOUT;
	if (lk->lksb.sb_status == -DLM_ECANCEL)
		return -ETIMEDOUT;
	return lk->lksb.sb_status;
}

/* Take @mode on @lk: a new lock or a conversion, reading or writing its LVB. */
static int scst_cl_lock(struct scst_cl_lk *lk, int mode)
{
	u32 flags = DLM_LKF_VALBLK;
	int ret;

	if (lk->lost)
		return -EIO;
	/* held already: a late answer granted it (scst_cl_late_answer()) */
	if (lk->mode == mode)
		return 0;
	if (lk->mode != DLM_LOCK_IV)
		flags |= DLM_LKF_CONVERT;
	lk->rqmode = mode;
	reinit_completion(&lk->done);
	ret = dlm_lock(lk->cl->ls, mode, &lk->lksb, flags, lk->name,
		       strlen(lk->name), 0, scst_cl_ast, lk,
		       lk->bell ? scst_cl_bast : NULL);
	if (ret)
		return ret;
	ret = scst_cl_wait(lk);
	if (!ret)
		lk->mode = mode;
	return ret;
}

static void scst_cl_unlock(struct scst_cl_lk *lk)
{
	if (lk->lost || lk->mode == DLM_LOCK_IV)
		return;
	lk->rqmode = DLM_LOCK_IV;
	reinit_completion(&lk->done);
	if (!dlm_unlock(lk->cl->ls, lk->lksb.sb_lkid, 0, &lk->lksb, lk) &&
	    !wait_for_completion_timeout(&lk->done,
					 msecs_to_jiffies(SCST_CL_WAIT_MS)) &&
	    scst_cl_give_up(lk))
		return;		/* the late answer sets the mode */
	lk->mode = DLM_LOCK_IV;
}

/*
 * Read @lk's block into @lk->lvb: a new lock in CR reads it, a CR lock
 * reads it going to PR. Return 0, -EBADMSG when the DLM says the block is
 * not valid (the node that was writing it died), or the lock's error.
 */
static int scst_cl_read(struct scst_cl_lk *lk)
{
	int ret;

	if (lk->mode == DLM_LOCK_IV) {
		ret = scst_cl_lock(lk, DLM_LOCK_CR);
	} else {
		/* left in PR by a late answer: its block may be old */
		if (lk->mode == DLM_LOCK_PR) {
			ret = scst_cl_lock(lk, DLM_LOCK_CR);
			if (ret)
				return ret;
		}
		ret = scst_cl_lock(lk, DLM_LOCK_PR);
		if (!ret)
			ret = scst_cl_lock(lk, DLM_LOCK_CR);
	}
	if (!ret && (lk->lksb.sb_flags & DLM_SBF_VALNOTVALID))
		ret = -EBADMSG;
	return ret;
}

/* Write @lvb as @lk's block: PW, then back to CR with the new value. */
static int scst_cl_write(struct scst_cl_lk *lk, const void *lvb)
{
	int ret = scst_cl_lock(lk, DLM_LOCK_PW);

	if (ret)
		return ret;
	memcpy(lk->lvb, lvb, SCST_PR_WIRE_LVB_LEN);
	return scst_cl_lock(lk, DLM_LOCK_CR);
}

/* ---------------------------------------------------------------------- */
/* The state in the blocks; io_mutex held                                 */

/*
 * Read the cluster's state into cl->st, unless it is update cl->seq, the
 * device's already, and @full is false. Return 0, 1 for the device's
 * update, -ENODATA when no node published one yet, -ESTALE/-EPROTO/-EBADMSG
 * for blocks a writer left halfway or the DLM no longer vouches for, or a
 * lock's error.
 *
 * @full: read every block although the header names the device's update.
 * After a recovery the DLM marks a block not valid when its master died
 * and only CR locks on it remain (fs/dlm/recover.c, recover_lvb()): each
 * block of the state must be read to find those, however current the
 * header.
 */
static int scst_cl_read_state(struct scst_cl *cl, struct scst_pr_wire_hdr *hdr,
			      bool full)
{
	unsigned int i;
	int ret;

	ret = scst_cl_read(&cl->state_lk);
	if (ret)
		return ret;
	ret = scst_pr_wire_get_hdr(cl->state_lk.lvb, hdr, cl->st);
	if (ret)
		return ret;
	if (!full && cl->seq && hdr->seq == cl->seq)
		return 1;
	for (i = 0; i < cl->st->nreg; i++) {
		ret = scst_cl_read(&cl->reg_lk[i]);
		if (ret)
			return ret;
		memcpy(cl->rbuf[i], cl->reg_lk[i].lvb, SCST_PR_WIRE_LVB_LEN);
	}
	return scst_pr_wire_get_state(cl->state_lk.lvb, cl->rbuf[0],
				      cl->st->nreg, hdr, cl->st);
}

/*
 * Publish @st as update @seq with the notice block @note: the registrant
 * blocks that changed (@all: every one, to make the DLM's copies valid
 * again after a recovery), the notices, the header last (a reader that
 * sees the new header sees the rest).
 */
static int scst_cl_write_state(struct scst_cl *cl,
			       const struct scst_pr_state *st, u64 seq,
			       const u8 *note, bool all)
{
	u8 *blk = cl->rbuf[0];
	unsigned int i;
	int ret;

	for (i = 0; i < st->nreg; i++) {
		scst_pr_wire_put_reg(&st->reg[i], blk);
		if (!all && cl->reg_lk[i].mode != DLM_LOCK_IV &&
		    !memcmp(cl->reg_lk[i].lvb, blk, SCST_PR_WIRE_LVB_LEN))
			continue;
		ret = scst_cl_write(&cl->reg_lk[i], blk);
		if (ret)
			return ret;
	}
	ret = scst_cl_write(&cl->note_lk, note);
	if (ret)
		return ret;
	scst_pr_wire_put_hdr(st, seq, cl->nodeid, blk);
	return scst_cl_write(&cl->state_lk, blk);
}

/*
 * An update without notices (its notice block names it and nobody), every
 * block written.
 */
static int scst_cl_publish_plain(struct scst_cl *cl,
				 const struct scst_pr_state *st, u64 seq)
{
	static const struct scst_pr_effects none;
	u8 note[SCST_PR_WIRE_LVB_LEN];

	scst_pr_wire_put_notes(st, &none, seq, cl->seq, note);
	return scst_cl_write_state(cl, st, seq, note, true);
}

/*
 * Bring the device up to the cluster's state; "pr" EX held. A state that
 * no node published yet, or one a writer left halfway (it died before
 * its update was confirmed, so no node enforces it), or one the DLM no
 * longer vouches for after a recovery, becomes this node's. @full: as
 * for scst_cl_read_state() (a join and the resync after a recovery).
 */
static int scst_cl_sync(struct scst_cl *cl, bool alone, bool full)
{
	/* zero: a header block that cannot be read names no update */
	struct scst_pr_wire_hdr hdr = { };
	int ret;

	ret = scst_cl_read_state(cl, &hdr, full);
	if (ret == 1 || (!ret && cl->seq && hdr.seq == cl->seq))
		return 0;
	if (!ret) {
		scst_pr_cluster_adopt(cl->dev, cl->st, NULL);
		cl->seq = hdr.seq;
		return 0;
	}
	if (ret != -ENODATA && ret != -ESTALE && ret != -EPROTO &&
	    ret != -EBADMSG)
		return ret;
	if (ret != -ENODATA && !cl->seq && !alone) {
		/* new here and others may know better: do not overwrite */
		pr_err("%s: cluster: the lockspace's state is damaged and this node has none to offer; try again after another node's PERSISTENT RESERVE OUT\n",
		       cl->dev->name);
		return -EAGAIN;
	}
	/* the update this node publishes: after any the header names */
	if (hdr.seq > cl->seq)
		cl->seq = hdr.seq;
	if (ret == -EBADMSG)
		pr_info("%s: cluster: the DLM's recovery left blocks of the state unvouched for (a node died); publishing this node's as update %llu\n",
			cl->dev->name, cl->seq + 1);
	else if (ret != -ENODATA)
		pr_warn("%s: cluster: a writer left the state halfway (%d); publishing this node's as update %llu\n",
			cl->dev->name, ret, cl->seq + 1);
	scst_pr_cluster_snapshot(cl->dev, cl->base);
	ret = scst_cl_publish_plain(cl, cl->base, cl->seq + 1);
	if (!ret)
		cl->seq++;
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Doorbells and acks                                                     */

static bool scst_cl_is_member(struct scst_cl *cl, int nodeid)
{
	bool found = false;
	unsigned int i;

	spin_lock(&cl->members_lock);
	for (i = 0; i < cl->nmembers; i++)
		if (cl->members[i] == nodeid)
			found = true;
	spin_unlock(&cl->members_lock);
	return found;
}

/* This node applied update cl->seq: its ack block says so. */
static int scst_cl_write_ack(struct scst_cl *cl)
{
	u8 blk[SCST_PR_WIRE_LVB_LEN] = { };

	put_unaligned_be32(SCST_CL_ACK_MAGIC, blk);
	put_unaligned_be64(cl->seq, blk + 8);
	return scst_cl_write(&cl->ack_lk, blk);
}

/*
 * Ring node @nodeid until its ack block names update @seq or later, it
 * leaves the lockspace, or @deadline passes. The bell and ack locks are
 * new each round; one whose request was abandoned (no answer to it nor
 * to its cancel) is never freed: the DLM may still answer it, and its
 * late answer releases it (scst_cl_late_answer()).
 */
static int scst_cl_ring(struct scst_cl *cl, int nodeid, u64 seq,
			unsigned long deadline)
{
	struct scst_cl_lk *bell, *ack;
	int ret = -ENOMEM;
	u64 acked = 0;

	bell = kmalloc(sizeof(*bell), GFP_KERNEL);
	ack = kmalloc(sizeof(*ack), GFP_KERNEL);
	if (!bell || !ack)
		goto free;
	for (;;) {
		if (!scst_cl_is_member(cl, nodeid)) {
			ret = 0;
			break;
		}
		scst_cl_lk_init(cl, bell, "bell", nodeid);
		scst_cl_lk_init(cl, ack, "ack", nodeid);
		bell->transient = true;
		ack->transient = true;
		ret = scst_cl_lock(bell, DLM_LOCK_EX);
		if (!ret) {
			ret = scst_cl_lock(ack, DLM_LOCK_CR);
			acked = get_unaligned_be32(ack->lvb) == SCST_CL_ACK_MAGIC ?
				get_unaligned_be64(ack->lvb + 8) : 0;
			scst_cl_unlock(ack);
		}
		scst_cl_unlock(bell);
		if (bell->abandoned || ack->abandoned) {
			/* the DLM may still call them: never freed */
			bell = NULL;
			ack = NULL;
			ret = -ETIMEDOUT;
			break;
		}
		if (!ret && acked >= seq)
			break;
		if (time_after(jiffies, deadline)) {
			ret = -ETIMEDOUT;
			break;
		}
		msleep(20);
	}
free:
	kfree(bell);
	kfree(ack);
	return ret;
}

/* Ring every other node for update @seq; -ETIMEDOUT if one did not ack. */
static int scst_cl_ring_all(struct scst_cl *cl, u64 seq)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(SCST_CL_WAIT_MS);
	unsigned int i, n;
	int *nodes, ret = 0;

	spin_lock(&cl->members_lock);
	n = cl->nmembers;
	nodes = kmemdup(cl->members, n * sizeof(*nodes), GFP_ATOMIC);
	spin_unlock(&cl->members_lock);
	if (n && !nodes)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		int r;

		if (nodes[i] == cl->nodeid)
			continue;
		r = scst_cl_ring(cl, nodes[i], seq, deadline);
		if (r) {
			pr_err("%s: cluster: node %d did not confirm update %llu (%d)\n",
			       cl->dev->name, nodes[i], seq, r);
			ret = -ETIMEDOUT;
		}
	}
	kfree(nodes);
	return ret;
}

/*
 * The doorbell rang: another node published an update and waits. Apply
 * it (its aborts included), say so in the ack block, then let the
 * ringer's EX through and hold the bell again.
 */
static void scst_cl_bell_workfn(struct work_struct *work)
{
	struct scst_cl *cl = container_of(work, struct scst_cl, bell_work);
	struct scst_pr_wire_hdr hdr;
	unsigned int aborted;
	int ret;

	if (READ_ONCE(cl->dying))
		return;
	mutex_lock(&cl->io_mutex);
	ret = scst_cl_read_state(cl, &hdr, false);
	if (!ret) {
		scst_pr_cluster_snapshot(cl->dev, cl->base);
		ret = scst_cl_read(&cl->note_lk);
		if (!ret)
			ret = scst_pr_wire_get_notes(cl->note_lk.lvb, cl->base,
						     cl->seq, hdr.seq, cl->eff);
		if (ret == -ESTALE && !cl->stale_logged) {
			/* e.g. two updates while this node was recovering */
			cl->stale_logged = true;
			pr_warn("%s: cluster: missed an update before %llu: its unit attentions and aborts do not reach this node's nexuses\n",
				cl->dev->name, hdr.seq);
		}
		if (ret)
			cl->eff->n = 0;
		aborted = scst_pr_cluster_adopt(cl->dev, cl->st, cl->eff);
		if (aborted)
			pr_info("%s: cluster: PREEMPT AND ABORT of node %u aborted %u commands here\n",
				cl->dev->name, hdr.node, aborted);
		cl->seq = hdr.seq;
	}
	if (ret == 1)
		ret = 0;
	if (ret)
		pr_err("%s: cluster: cannot read the update the doorbell rang for (%d)\n",
		       cl->dev->name, ret);
	else
		scst_cl_write_ack(cl);
	mutex_unlock(&cl->io_mutex);
	/* the ringer's EX waits for our PR to go; then take it again */
	ret = scst_cl_lock(&cl->bell_lk, DLM_LOCK_NL);
	if (!ret)
		ret = scst_cl_lock(&cl->bell_lk, DLM_LOCK_PR);
	/*
	 * Without PR on it, nobody could ring this node: try again after a
	 * timeout (the ringer held its EX long); any other error would come
	 * back at once, so it blocks the device instead of spinning here.
	 */
	if (ret == -ETIMEDOUT && !cl->bell_lk.lost) {
		queue_work(scst_cl_wq, &cl->bell_work);
	} else if (ret && !cl->bell_lk.lost) {
		pr_err("%s: cluster: cannot hold the doorbell again (%d): the device fails closed until cluster_mode is turned off\n",
		       cl->dev->name, ret);
		scst_pr_cluster_block(cl->dev, true);
	}
}

/* ---------------------------------------------------------------------- */
/* Recovery                                                               */

static void scst_cl_recover_prep(void *arg)
{
	struct scst_cl *cl = arg;

	/* membership changes, or no quorum: fail closed until resynced */
	WRITE_ONCE(cl->recovering, true);
	scst_pr_cluster_block(cl->dev, true);
}

static void scst_cl_recover_slot(void *arg, struct dlm_slot *slot)
{
	struct scst_cl *cl = arg;

	pr_warn("%s: cluster: node %d failed; commands a reservation could restrict wait for the cluster's recovery\n",
		cl->dev->name, slot->nodeid);
}

static void scst_cl_recover_done(void *arg, struct dlm_slot *slots,
				 int num_slots, int our_slot, u32 generation)
{
	struct scst_cl *cl = arg;
	int *members = NULL, i;

	if (num_slots > 0)
		members = kmalloc_array(num_slots, sizeof(*members), GFP_NOFS);
	for (i = 0; i < num_slots; i++) {
		if (members)
			members[i] = slots[i].nodeid;
		if (slots[i].slot == our_slot)
			cl->nodeid = slots[i].nodeid;
	}
	/* without memory the old list stays: a ring of a gone node times out */
	if (members) {
		spin_lock(&cl->members_lock);
		kfree(cl->members);
		cl->members = members;
		cl->nmembers = num_slots;
		spin_unlock(&cl->members_lock);
	}
	complete(&cl->recovered);
	/*
	 * The join takes the state itself, then looks at @recovering: one
	 * of the two sees the other's store (pairs with the join's barrier)
	 */
	smp_mb();
	if (READ_ONCE(cl->ready))
		mod_delayed_work(scst_cl_wq, &cl->resync_work, 0);
}

static void scst_cl_resync_workfn(struct work_struct *work)
{
	struct scst_cl *cl = container_of(to_delayed_work(work), struct scst_cl,
					  resync_work);
	int ret;

	if (READ_ONCE(cl->dying))
		return;
	/* a lock waits for the DLM's late answer, which queues this again */
	if (atomic_read(&cl->nlost))
		return;
	mutex_lock(&cl->pr_mutex);
	ret = scst_cl_lock(&cl->pr_lk, DLM_LOCK_EX);
	if (!ret) {
		mutex_lock(&cl->io_mutex);
		ret = scst_cl_sync(cl, false, true);
		cl->stale_logged = false;
		mutex_unlock(&cl->io_mutex);
		scst_cl_unlock(&cl->pr_lk);
	}
	mutex_unlock(&cl->pr_mutex);
	if (ret) {
		pr_err("%s: cluster: cannot resynchronise after the recovery (%d); retrying\n",
		       cl->dev->name, ret);
		queue_delayed_work(scst_cl_wq, &cl->resync_work, HZ);
		return;
	}
	if (READ_ONCE(cl->bell_lk.mode) != DLM_LOCK_PR ||
	    cl->ack_lk.mode != DLM_LOCK_CR) {
		/*
		 * Nobody could ring this node, or read what it applied (its
		 * doorbell's or ack's lock was lost and answered late): the
		 * doorbell work writes the ack and takes the doorbell again
		 */
		queue_work(scst_cl_wq, &cl->bell_work);
		queue_delayed_work(scst_cl_wq, &cl->resync_work, HZ);
		return;
	}
	WRITE_ONCE(cl->recovering, false);
	scst_pr_cluster_block(cl->dev, false);
}

static const struct dlm_lockspace_ops scst_cl_ls_ops = {
	.recover_prep = scst_cl_recover_prep,
	.recover_slot = scst_cl_recover_slot,
	.recover_done = scst_cl_recover_done,
};

/* ---------------------------------------------------------------------- */
/* Joining and leaving                                                    */

/*
 * dlm_new_lockspace() and dlm_release_lockspace() wait for dlm_controld
 * without a bound: they run in a work item, and the caller waits for a
 * bounded time. One that gave up leaves the rest (and the freeing) to
 * the work.
 */
struct scst_cl_call {
	struct work_struct work;
	struct completion done;
	refcount_t refs;
	struct scst_cl *cl;
	char cluster_name[SCST_CLUSTER_NAME_MAX + 1];
	int ops_result;
	int ret;
	bool join;
	bool abandoned;
};

/* The lockspace is released (or was never there): no callback comes. */
static void scst_cl_free(struct scst_cl *cl)
{
	WRITE_ONCE(cl->dying, true);
	cancel_work_sync(&cl->bell_work);
	cancel_delayed_work_sync(&cl->resync_work);
	cancel_work_sync(&cl->release_work);
	kvfree(cl->reg_lk);
	kvfree(cl->rbuf);
	kvfree(cl->st);
	kvfree(cl->base);
	kvfree(cl->eff);
	kfree(cl->members);
	kfree(cl);
}

static void scst_cl_call_put(struct scst_cl_call *c)
{
	if (!refcount_dec_and_test(&c->refs))
		return;
	/* the waiter gave up: undo a join that succeeded, free what is left */
	if (c->abandoned) {
		if (c->join && !c->ret)
			dlm_release_lockspace(c->cl->ls, 2);
		scst_cl_free(c->cl);
	}
	kfree(c);
}

static void scst_cl_call_workfn(struct work_struct *work)
{
	struct scst_cl_call *c = container_of(work, struct scst_cl_call, work);
	struct scst_cl *cl = c->cl;

	if (c->join)
		c->ret = dlm_new_lockspace(cl->ls_name,
					   c->cluster_name[0] ?
					   c->cluster_name : NULL,
					   DLM_LSFL_NEWEXCL,
					   SCST_PR_WIRE_LVB_LEN,
					   &scst_cl_ls_ops, cl, &c->ops_result,
					   &cl->ls);
	else
		c->ret = dlm_release_lockspace(cl->ls, 2);
	complete(&c->done);
	scst_cl_call_put(c);
}

/* Run the join or the release; -ETIMEDOUT when it did not end in time. */
static int scst_cl_call(struct scst_cl *cl, bool join, const char *cluster,
			int *ops_result)
{
	struct scst_cl_call *c = kzalloc(sizeof(*c), GFP_KERNEL);
	int ret;

	if (!c)
		return -ENOMEM;
	INIT_WORK(&c->work, scst_cl_call_workfn);
	init_completion(&c->done);
	refcount_set(&c->refs, 2);
	c->cl = cl;
	if (cluster)
		strscpy(c->cluster_name, cluster, sizeof(c->cluster_name));
	c->join = join;
	queue_work(system_unbound_wq, &c->work);
	if (!wait_for_completion_timeout(&c->done,
					 msecs_to_jiffies(SCST_CL_JOIN_WAIT_MS))) {
		c->abandoned = true;
		scst_cl_call_put(c);
		return -ETIMEDOUT;
	}
	ret = c->ret;
	if (ops_result)
		*ops_result = c->ops_result;
	scst_cl_call_put(c);
	return ret;
}

/*
 * The lockspace name: "scst-" and the id, characters other than letters,
 * digits, '-', '_' and '.' as '_'; an id that loses characters that way
 * or is too long gets a hash of the whole id, so two ids never share one.
 */
static void scst_cl_ls_name(char *buf, size_t size, const char *id)
{
	size_t n = strlen(id), i, room = size - 1 - strlen("scst-");
	bool exact = n <= room;
	u32 h = 2166136261u;
	char *p;

	for (i = 0; i < n; i++)
		h = (h ^ (u8)id[i]) * 16777619u;
	p = buf + snprintf(buf, size, "scst-");
	for (i = 0; i < n && i < room; i++) {
		bool ok = isalnum(id[i]) || strchr("-_.", id[i]);

		exact &= ok;
		*p++ = ok ? id[i] : '_';
	}
	*p = 0;
	if (!exact)
		snprintf(buf + min(strlen(buf), size - 10), 10, "-%08x", h);
}

static struct scst_cl *scst_cl_alloc(struct scst_device *dev, const char *id)
{
	struct scst_cl *cl = kzalloc(sizeof(*cl), GFP_KERNEL);
	unsigned int i;

	if (!cl)
		return NULL;
	cl->dev = dev;
	mutex_init(&cl->pr_mutex);
	mutex_init(&cl->io_mutex);
	spin_lock_init(&cl->members_lock);
	spin_lock_init(&cl->late_lock);
	INIT_LIST_HEAD(&cl->late_release);
	INIT_WORK(&cl->release_work, scst_cl_release_workfn);
	atomic_set(&cl->nlost, 0);
	INIT_WORK(&cl->bell_work, scst_cl_bell_workfn);
	INIT_DELAYED_WORK(&cl->resync_work, scst_cl_resync_workfn);
	init_completion(&cl->recovered);
	scst_cl_ls_name(cl->ls_name, sizeof(cl->ls_name), id);
	cl->reg_lk = kvcalloc(SCST_PR_MAX_REGISTRANTS, sizeof(*cl->reg_lk),
			      GFP_KERNEL);
	cl->rbuf = kvmalloc_array(SCST_PR_MAX_REGISTRANTS, sizeof(*cl->rbuf),
				  GFP_KERNEL);
	cl->st = kvmalloc(sizeof(*cl->st), GFP_KERNEL);
	cl->base = kvmalloc(sizeof(*cl->base), GFP_KERNEL);
	cl->eff = kvmalloc(sizeof(*cl->eff), GFP_KERNEL);
	if (!cl->reg_lk || !cl->rbuf || !cl->st || !cl->base || !cl->eff) {
		scst_cl_free(cl);
		return NULL;
	}
	scst_cl_lk_init(cl, &cl->pr_lk, "pr", -1);
	scst_cl_lk_init(cl, &cl->state_lk, "state", -1);
	scst_cl_lk_init(cl, &cl->note_lk, "note", -1);
	for (i = 0; i < SCST_PR_MAX_REGISTRANTS; i++)
		scst_cl_lk_init(cl, &cl->reg_lk[i], "reg", i);
	return cl;
}

static void scst_cl_join_error(const char *dev, const char *ls_name,
			       const char *cluster, int err)
{
	switch (err) {
	case -EUNATCH:
		pr_err("%s: cluster_mode: the DLM is not running (start corosync and dlm_controld)\n",
		       dev);
		break;
	case -EEXIST:
		pr_err("%s: cluster_mode: lockspace %s is in use on this node: another device has the same t10_dev_id\n",
		       dev, ls_name);
		break;
	case -EBADR:
		pr_err("%s: cluster_mode: cluster_name %s is not the cluster's (corosync's totem.cluster_name)\n",
		       dev, cluster);
		break;
	case -ETIMEDOUT:
		pr_err("%s: cluster_mode: dlm_controld did not answer in %d s\n",
		       dev, SCST_CL_JOIN_WAIT_MS / 1000);
		break;
	default:
		pr_err("%s: cluster_mode: cannot join lockspace %s (error %d)\n",
		       dev, ls_name, err);
	}
}

/* Release the lockspace (every lock with it) and free @cl. */
static void scst_cl_release(struct scst_cl *cl)
{
	char ls_name[DLM_LOCKSPACE_LEN + 1];
	const char *dev = cl->dev->name;

	strscpy(ls_name, cl->ls_name, sizeof(ls_name));
	/* the works stop touching the lockspace; callbacks may still queue */
	WRITE_ONCE(cl->dying, true);
	cancel_work_sync(&cl->bell_work);
	cancel_delayed_work_sync(&cl->resync_work);
	/* one that saw dying false unlocks before the lockspace goes */
	cancel_work_sync(&cl->release_work);
	if (scst_cl_call(cl, false, NULL, NULL) == -ETIMEDOUT) {
		/* the work frees @cl when the release ends */
		pr_err("%s: cluster: leaving lockspace %s takes longer than %d s; it goes on in the background\n",
		       dev, ls_name, SCST_CL_JOIN_WAIT_MS / 1000);
		return;
	}
	scst_cl_free(cl);
}

static int scst_cl_join(struct scst_device *dev, const char *cluster_id,
			const char *cluster_name, void **out)
{
	struct scst_cl *cl = scst_cl_alloc(dev, cluster_id);
	char ls_name[DLM_LOCKSPACE_LEN + 1];
	int ret, ops_result = 0;
	bool alone;

	if (!cl)
		return -ENOMEM;
	strscpy(ls_name, cl->ls_name, sizeof(ls_name));
	ret = scst_cl_call(cl, true, cluster_name, &ops_result);
	/*
	 * dlm_controld sets the node's address and answers the kernel: the
	 * DLM says ENOTCONN without the one (6.1 starts its comms first),
	 * EUNATCH without the other
	 */
	if (ret == -ENOTCONN)
		ret = -EUNATCH;
	if (ret) {
		/* after a timeout the work owns @cl */
		if (ret != -ETIMEDOUT)
			scst_cl_free(cl);
		scst_cl_join_error(dev->name, ls_name, cluster_name, ret);
		return ret;
	}
	/* dlm_new_lockspace() may return before recover_done() is called */
	if (!ops_result)
		wait_for_completion_timeout(&cl->recovered,
					    msecs_to_jiffies(SCST_CL_WAIT_MS));
	if (ops_result < 0 || !cl->nodeid) {
		/* without them no node could fail closed: refuse */
		pr_err("%s: cluster_mode: the DLM does not report membership changes to the kernel (dlm_controld's recover_callbacks; %d, node %d)\n",
		       dev->name, ops_result, cl->nodeid);
		ret = -EOPNOTSUPP;
		goto release;
	}
	scst_cl_lk_init(cl, &cl->bell_lk, "bell", cl->nodeid);
	cl->bell_lk.bell = true;
	scst_cl_lk_init(cl, &cl->ack_lk, "ack", cl->nodeid);

	mutex_lock(&cl->pr_mutex);
	ret = scst_cl_lock(&cl->pr_lk, DLM_LOCK_EX);
	if (!ret) {
		mutex_lock(&cl->io_mutex);
		spin_lock(&cl->members_lock);
		alone = cl->nmembers <= 1;
		spin_unlock(&cl->members_lock);
		ret = scst_cl_sync(cl, alone, true);
		if (!ret)
			ret = scst_cl_write_ack(cl);
		if (!ret)
			ret = scst_cl_lock(&cl->bell_lk, DLM_LOCK_PR);
		mutex_unlock(&cl->io_mutex);
		scst_cl_unlock(&cl->pr_lk);
	}
	mutex_unlock(&cl->pr_mutex);
	if (ret) {
		pr_err("%s: cluster_mode: cannot take the cluster's state (error %d)\n",
		       dev->name, ret);
		goto release;
	}
	pr_info("%s: cluster: joined lockspace %s as node %d at update %llu\n",
		dev->name, cl->ls_name, cl->nodeid, cl->seq);
	/* a recovery since the state was taken resynchronises again */
	WRITE_ONCE(cl->ready, true);
	smp_mb();	/* pairs with scst_cl_recover_done()'s */
	if (READ_ONCE(cl->recovering))
		mod_delayed_work(scst_cl_wq, &cl->resync_work, 0);
	else
		scst_pr_cluster_block(dev, false);
	*out = cl;
	return 0;
release:
	scst_cl_release(cl);
	return ret;
}

static void scst_cl_leave(void *arg)
{
	struct scst_cl *cl = arg;

	pr_info("%s: cluster: leaving lockspace %s at update %llu\n",
		cl->dev->name, cl->ls_name, cl->seq);
	scst_cl_release(cl);
}

/* ---------------------------------------------------------------------- */
/* PERSISTENT RESERVE OUT                                                 */

static int scst_cl_out_begin(void *arg)
{
	struct scst_cl *cl = arg;
	int ret;

	mutex_lock(&cl->pr_mutex);
	ret = scst_cl_lock(&cl->pr_lk, DLM_LOCK_EX);
	if (ret) {
		mutex_unlock(&cl->pr_mutex);
		return ret;
	}
	mutex_lock(&cl->io_mutex);
	ret = scst_cl_sync(cl, false, false);
	if (ret) {
		mutex_unlock(&cl->io_mutex);
		scst_cl_unlock(&cl->pr_lk);
		mutex_unlock(&cl->pr_mutex);
		return ret;
	}
	cl->published = 0;
	return 0;
}

static int scst_cl_out_publish(void *arg, const struct scst_pr_state *old,
			       const struct scst_pr_state *st,
			       const struct scst_pr_effects *eff)
{
	static const struct scst_pr_effects none;
	struct scst_cl *cl = arg;
	u8 note[SCST_PR_WIRE_LVB_LEN];
	u64 seq = cl->seq + 1;
	int ret;

	ret = scst_pr_wire_put_notes(old, eff ?: &none, seq, cl->seq, note);
	if (ret) {
		pr_err("%s: cluster: the notices of update %llu do not fit (%d): the other nodes apply it without them\n",
		       cl->dev->name, seq, ret);
		scst_pr_wire_put_notes(old, &none, seq, cl->seq, note);
	}
	ret = scst_cl_write_state(cl, st, seq, note, false);
	if (ret) {
		/* the header is the old one: readers see a torn set, and the
		 * next writer publishes its own (the old) state again
		 */
		pr_err("%s: cluster: cannot publish update %llu (%d)\n",
		       cl->dev->name, seq, ret);
		return -EIO;
	}
	cl->seq = seq;
	cl->published = seq;
	return 0;
}

static int scst_cl_out_end(void *arg)
{
	struct scst_cl *cl = arg;
	int ret = 0;

	if (cl->published) {
		ret = scst_cl_write_ack(cl);
		if (!ret)
			ret = scst_cl_ring_all(cl, cl->published);
		cl->published = 0;
	}
	mutex_unlock(&cl->io_mutex);
	scst_cl_unlock(&cl->pr_lk);
	mutex_unlock(&cl->pr_mutex);
	return ret;
}

static const struct scst_pr_cluster_ops scst_cl_ops = {
	.owner = THIS_MODULE,
	.join = scst_cl_join,
	.leave = scst_cl_leave,
	.out_begin = scst_cl_out_begin,
	.out_publish = scst_cl_out_publish,
	.out_end = scst_cl_out_end,
};

static int __init scst_cl_init(void)
{
	int ret;

	scst_cl_wq = alloc_workqueue("scst_cluster", WQ_MEM_RECLAIM, 0);
	if (!scst_cl_wq)
		return -ENOMEM;
	ret = scst_pr_cluster_register(&scst_cl_ops);
	if (ret)
		destroy_workqueue(scst_cl_wq);
	return ret;
}

static void __exit scst_cl_exit(void)
{
	scst_pr_cluster_unregister(&scst_cl_ops);
	destroy_workqueue(scst_cl_wq);
}

module_init(scst_cl_init);
module_exit(scst_cl_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SCST persistent reservations shared by the nodes of a cluster over the DLM");
