// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_pr_cluster.c - cluster_mode, the core's side: persistent
 * reservations (SPC-4 §5.9) that the target nodes of a cluster share, so
 * that a registration or a reservation made through one node is enforced
 * on commands that arrive at another (Documentation/ha.md).
 *
 * The state moves between the nodes in scst_cluster.ko (over the kernel's
 * DLM), which registers struct scst_pr_cluster_ops here; scst.ko itself
 * needs no DLM. A handler's cluster_mode attribute calls
 * scst_pr_cluster_set(). The module calls back with a state another node
 * wrote and the notices it holds for this node's nexuses
 * (scst_pr_cluster_adopt()), and with whether this node may admit the
 * commands a reservation could restrict (scst_pr_cluster_block(): while
 * it cannot know the cluster's state, it fails closed).
 *
 * Locking: dev->pr_cl_mutex serializes turning cluster_mode on and off
 * and the PERSISTENT RESERVE OUTs of a device in cluster_mode; dev->pr_cl
 * and dev->pr_cl_ops change under it and dev->pr_mutex, so either keeps
 * them stable. dev->pr_cl_blocked (the module's) and dev->pr_cl_joining
 * (ours, until the device's first state came from the cluster) change
 * under pr_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/kmod.h>
#include <linux/module.h>

#include "scst_priv.h"

static DEFINE_MUTEX(scst_pr_cl_ops_mutex);
static const struct scst_pr_cluster_ops *scst_pr_cl_ops;

static DEFINE_SPINLOCK(scst_cluster_name_lock);
static char scst_cluster_name[SCST_CLUSTER_NAME_MAX + 1];

/**
 * scst_pr_cluster_register() - the cluster module is there
 * @ops: its operations, until scst_pr_cluster_unregister()
 *
 * Return: 0, or -EBUSY when another module registered.
 */
int scst_pr_cluster_register(const struct scst_pr_cluster_ops *ops)
{
	int ret = 0;

	mutex_lock(&scst_pr_cl_ops_mutex);
	if (scst_pr_cl_ops)
		ret = -EBUSY;
	else
		scst_pr_cl_ops = ops;
	mutex_unlock(&scst_pr_cl_ops_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(scst_pr_cluster_register);

/*
 * The module cannot go while a device uses it: each device in
 * cluster_mode holds a reference on it (try_module_get()).
 */
void scst_pr_cluster_unregister(const struct scst_pr_cluster_ops *ops)
{
	mutex_lock(&scst_pr_cl_ops_mutex);
	if (scst_pr_cl_ops == ops)
		scst_pr_cl_ops = NULL;
	mutex_unlock(&scst_pr_cl_ops_mutex);
}
EXPORT_SYMBOL_GPL(scst_pr_cluster_unregister);

/* The registered ops with a reference on their module, loading it once. */
static const struct scst_pr_cluster_ops *scst_pr_cl_get_ops(void)
{
	const struct scst_pr_cluster_ops *ops;
	bool loaded = false;

again:
	mutex_lock(&scst_pr_cl_ops_mutex);
	ops = scst_pr_cl_ops;
	if (ops && !try_module_get(ops->owner))
		ops = NULL;
	mutex_unlock(&scst_pr_cl_ops_mutex);
	if (!ops && !loaded) {
		loaded = true;
		request_module("scst_cluster");
		goto again;
	}
	return ops;
}

/**
 * scst_cluster_name_get() - the root attribute cluster_name
 * @buf: gets it, NUL-terminated
 * @size: at least SCST_CLUSTER_NAME_MAX + 1
 */
void scst_cluster_name_get(char *buf, size_t size)
{
	spin_lock(&scst_cluster_name_lock);
	strscpy(buf, scst_cluster_name, size);
	spin_unlock(&scst_cluster_name_lock);
}
EXPORT_SYMBOL_GPL(scst_cluster_name_get);

/**
 * scst_cluster_name_set() - set the root attribute cluster_name
 * @name: corosync's totem.cluster_name, or "" for none; the DLM refuses
 *	to join a lockspace of a cluster of another name
 * @len: its length
 *
 * Return: 0, or -EINVAL for a name longer than SCST_CLUSTER_NAME_MAX or
 * with a character other than a letter, a digit, '-', '_' or '.'.
 */
int scst_cluster_name_set(const char *name, size_t len)
{
	size_t i;

	if (len > SCST_CLUSTER_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("-_.", name[i]))
			return -EINVAL;
	spin_lock(&scst_cluster_name_lock);
	memcpy(scst_cluster_name, name, len);
	scst_cluster_name[len] = 0;
	spin_unlock(&scst_cluster_name_lock);
	return 0;
}

static void scst_pr_cl_set_flag(struct scst_device *dev, bool *flag, bool v)
{
	spin_lock(&dev->pr_lock);
	*flag = v;
	scst_pr_update_active(dev);
	spin_unlock(&dev->pr_lock);
	/* commands admitted before a block are checked again before ->exec() */
	scst_res_changed(dev);
}

/**
 * scst_pr_cluster_block() - whether this node knows the cluster's state
 * @dev: a device in cluster_mode
 * @blocked: true while it does not (the DLM's recovery after a node
 *	joined, left or failed; no quorum; a lost lock): every command but
 *	those no reservation restricts (scst_pr_unknown_allows()) then gets
 *	NOT READY; false once the module read the state again
 *
 * Process context.
 */
void scst_pr_cluster_block(struct scst_device *dev, bool blocked)
{
	scst_pr_cl_set_flag(dev, &dev->pr_cl_blocked, blocked);
}
EXPORT_SYMBOL_GPL(scst_pr_cluster_block);

/**
 * scst_pr_cluster_snapshot() - a copy of a device's PR state
 * @dev: the device
 * @st: gets it
 */
void scst_pr_cluster_snapshot(struct scst_device *dev, struct scst_pr_state *st)
{
	spin_lock(&dev->pr_lock);
	memcpy(st, dev->pr, sizeof(*st));
	spin_unlock(&dev->pr_lock);
}
EXPORT_SYMBOL_GPL(scst_pr_cluster_snapshot);

/**
 * scst_pr_cluster_adopt() - a state another node of the cluster wrote
 * @dev: the device
 * @st: the state (valid: scst_pr_wire_get_state() checked it)
 * @eff: the notices of the update for this node's nexuses (unit
 *	attentions, PREEMPT AND ABORT's aborts), or NULL
 *
 * Makes @st the device's, writes or removes this node's APTPL file as
 * @st says, queues the unit attentions and aborts the preempted nexuses'
 * commands, and waits for those (SPC-4 §5.9.11.5: the PREEMPT AND ABORT
 * on the other node completes after this returns). Process context; not
 * under the device's PR OUT (pr_mutex).
 *
 * Return: how many commands were aborted.
 */
unsigned int scst_pr_cluster_adopt(struct scst_device *dev,
				   const struct scst_pr_state *st,
				   const struct scst_pr_effects *eff)
{
	struct scst_pr_nexuses nx = { };
	enum scst_pr_persist persist = SCST_PR_PERSIST_NONE;
	unsigned int aborted = 0;
	bool notices = eff && eff->n;

	mutex_lock(&dev->pr_mutex);
	if (notices && scst_pr_nexuses_get(dev, &nx)) {
		pr_err("%s: cluster: out of memory: the unit attentions and aborts of another node's PERSISTENT RESERVE OUT are lost\n",
		       dev->name);
		notices = false;
	}
	if (st->aptpl)
		persist = scst_pr_state_equal(st, dev->pr) ?
			  SCST_PR_PERSIST_NONE : SCST_PR_PERSIST_SAVE;
	else if (dev->pr->aptpl)
		persist = SCST_PR_PERSIST_REMOVE;
	spin_lock(&dev->pr_lock);
	memcpy(dev->pr, st, sizeof(*st));
	scst_pr_update_active(dev);
	spin_unlock(&dev->pr_lock);
	scst_res_changed(dev);
	/* a file that cannot be written is logged; the cluster's state holds */
	if (persist != SCST_PR_PERSIST_NONE)
		scst_pr_aptpl_persist(dev, persist);
	mutex_unlock(&dev->pr_mutex);
	if (notices)
		aborted = scst_pr_apply(NULL, eff, &nx);
	return aborted;
}
EXPORT_SYMBOL_GPL(scst_pr_cluster_adopt);

/**
 * scst_pr_cluster_set() - turn a device's cluster_mode on or off
 * @dev: the device, registered
 * @on: the new value
 * @cluster_id: the name every node gives the device (the handler's
 *	t10_dev_id, which stays as it is while cluster_mode is on); only
 *	for @on
 *
 * On: joins the device's lockspace and takes the cluster's state, or
 * publishes this node's (its APTPL file) when it is the first; the
 * device fails closed until then. Enable it before the device is
 * exported through target ports. Off: leaves the lockspace; the device
 * keeps the last state it knew. Stop the I/O first. Process context,
 * holding no lock: joining waits for the cluster (bounded).
 *
 * Return: 0; -EINVAL without a @cluster_id; -EOPNOTSUPP without the
 * cluster module (a kernel without the DLM); -EBUSY while the device's
 * state is unknown (pr_state); the module's error (logged) otherwise.
 */
int scst_pr_cluster_set(struct scst_device *dev, bool on,
			const char *cluster_id)
{
	const struct scst_pr_cluster_ops *ops;
	char name[SCST_CLUSTER_NAME_MAX + 1];
	void *cl;
	int ret = 0;

	mutex_lock(&dev->pr_cl_mutex);
	if (on == !!dev->pr_cl)
		goto unlock;
	if (!on) {
		mutex_lock(&dev->pr_mutex);
		cl = dev->pr_cl;
		ops = dev->pr_cl_ops;
		dev->pr_cl = NULL;
		dev->pr_cl_ops = NULL;
		mutex_unlock(&dev->pr_mutex);
		ops->leave(cl);
		scst_pr_cl_set_flag(dev, &dev->pr_cl_blocked, false);
		module_put(ops->owner);
		pr_info("%s: cluster_mode off: the persistent reservations are this node's own now\n",
			dev->name);
		goto unlock;
	}
	if (!cluster_id || !*cluster_id) {
		pr_err("%s: cluster_mode: set t10_dev_id first: the nodes name the device's lockspace after it\n",
		       dev->name);
		ret = -EINVAL;
		goto unlock;
	}
	if (READ_ONCE(dev->pr_unknown)) {
		pr_err("%s: cluster_mode: the persistent reservation state is unknown (pr_state): reset it first\n",
		       dev->name);
		ret = -EBUSY;
		goto unlock;
	}
	ops = scst_pr_cl_get_ops();
	if (!ops) {
		pr_err("%s: cluster_mode: module scst_cluster is not available (a kernel without the DLM?)\n",
		       dev->name);
		ret = -EOPNOTSUPP;
		goto unlock;
	}
	scst_cluster_name_get(name, sizeof(name));
	/* fail closed until the cluster's state is the device's */
	scst_pr_cl_set_flag(dev, &dev->pr_cl_joining, true);
	ret = ops->join(dev, cluster_id, name[0] ? name : NULL, &cl);
	if (ret) {
		scst_pr_cl_set_flag(dev, &dev->pr_cl_blocked, false);
		scst_pr_cl_set_flag(dev, &dev->pr_cl_joining, false);
		module_put(ops->owner);
		goto unlock;
	}
	mutex_lock(&dev->pr_mutex);
	dev->pr_cl = cl;
	dev->pr_cl_ops = ops;
	mutex_unlock(&dev->pr_mutex);
	scst_pr_cl_set_flag(dev, &dev->pr_cl_joining, false);
	pr_info("%s: cluster_mode on (lockspace of %s)\n", dev->name,
		cluster_id);
unlock:
	mutex_unlock(&dev->pr_cl_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(scst_pr_cluster_set);

/* Device removal: leave the cluster before the device goes. */
void scst_pr_cluster_dev_gone(struct scst_device *dev)
{
	if (READ_ONCE(dev->pr_cl))
		scst_pr_cluster_set(dev, false, NULL);
}

/**
 * scst_pr_cluster_on() - whether a device is in cluster_mode
 * @dev: the device
 *
 * Return: true between scst_pr_cluster_set() on and off.
 */
bool scst_pr_cluster_on(struct scst_device *dev)
{
	return READ_ONCE(dev->pr_cl);
}
EXPORT_SYMBOL_GPL(scst_pr_cluster_on);
