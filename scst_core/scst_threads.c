// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_threads.c - worker threads of devices whose handler may sleep in
 * ->exec() (FILEIO, pass-through). Handlers that never sleep (BLOCKIO,
 * NULLIO) run on the CPU that received the command instead, in
 * scst_process_cmd().
 *
 * As in SCST, a device has threads_num threads either in one pool shared
 * by all its sessions ("shared") or in one pool per initiator that sees it
 * ("per_initiator", the default: one initiator cannot starve another).
 * A per-initiator pool belongs to an initiator name, not to a session:
 * the channels of one SRP initiator, its reconnects and its sessions on
 * other targets all use the one pool, which lives while any of its nexuses
 * does. A device has at most max_initiator_pools of them (module
 * parameter); initiators beyond that share one further pool of the device,
 * so a login loop with ever new names cannot exhaust kernel threads.
 * Per-initiator threads run on the CPUs of the sessions' cpu_mask: each
 * session's group's mask and its target's together.
 *
 * "Initiator" is SCST's io_grouping_type auto, the default; the group a
 * session matched may say otherwise (this_group_only: one pool for the
 * group; never: one per session; a number: one for every group with that
 * number), see scst_io_grouping_key(). A change applies to the nexuses
 * made afterwards (new sessions, LUNs added); the pools in use stay.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/error-injection.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sched.h>

#include "scst_priv.h"

unsigned int scst_max_initiator_pools = 32;
module_param_named(max_initiator_pools, scst_max_initiator_pools, uint,
		   0644);
MODULE_PARM_DESC(max_initiator_pools,
		 "Per-initiator thread pools a device may have (threads_pool_type per_initiator); further initiators share one (default 32)");

void scst_threads_init(struct scst_cmd_threads *p)
{
	spin_lock_init(&p->lock);
	INIT_LIST_HEAD(&p->queue);
	init_waitqueue_head(&p->wq);
	INIT_LIST_HEAD(&p->threads);
	p->nr = 0;
}

static struct scst_cmd *scst_threads_next_cmd(struct scst_cmd_threads *p)
{
	struct scst_cmd *cmd;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	cmd = list_first_entry_or_null(&p->queue, struct scst_cmd,
				       queue_entry);
	if (cmd)
		list_del_init(&cmd->queue_entry);
	spin_unlock_irqrestore(&p->lock, flags);
	return cmd;
}

static int scst_thread_fn(void *arg)
{
	struct scst_cmd_threads *p = arg;
	struct scst_cmd *cmd;

	while (!kthread_should_stop()) {
		wait_event_interruptible(p->wq,
					 !list_empty_careful(&p->queue) ||
					 kthread_should_stop());
		while ((cmd = scst_threads_next_cmd(p))) {
			/* a device thread: ->exec() may sleep here */
			cmd->may_block = true;
			scst_do_exec(cmd);
		}
	}
	return 0;
}

void scst_dev_queue_exec(struct scst_cmd *cmd)
{
	struct scst_cmd_threads *p = cmd->tgt_dev->threads;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	list_add_tail(&cmd->queue_entry, &p->queue);
	spin_unlock_irqrestore(&p->lock, flags);
	wake_up(&p->wq);
}

/* Stop the threads on @list (of one pool; its queue stays). */
static void scst_threads_stop_list(struct list_head *list)
{
	struct scst_cmd_thread *t, *tmp;

	list_for_each_entry_safe(t, tmp, list, entry) {
		kthread_stop(t->task);
		list_del(&t->entry);
		kfree(t);
	}
}

void scst_threads_stop(struct scst_cmd_threads *p)
{
	scst_threads_stop_list(&p->threads);
	p->nr = 0;
}

/*
 * Start one thread serving @p, number @i, onto @list. Its own function so
 * that the debug kernel's fail_function can make it fail
 * (tests/vm/core-threads.sh): the callers' error paths must leave a
 * device with the threads it had.
 */
static noinline int scst_thread_add(struct scst_cmd_threads *p,
				    struct list_head *list,
				    const char *dev_name, unsigned int i,
				    const struct cpumask *mask)
{
	struct scst_cmd_thread *t;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->task = kthread_create(scst_thread_fn, p, "scst_%.8s_%u",
				 dev_name, i);
	if (IS_ERR(t->task)) {
		int ret = PTR_ERR(t->task);

		kfree(t);
		return ret;
	}
	if (mask)
		set_cpus_allowed_ptr(t->task, mask);
	wake_up_process(t->task);
	list_add_tail(&t->entry, list);
	return 0;
}

ALLOW_ERROR_INJECTION(scst_thread_add, ERRNO);

/*
 * Start @n threads serving @p onto @list, not yet on @p->threads: all of
 * them or, on failure, none (those started are stopped again).
 */
static int scst_threads_spawn(struct scst_cmd_threads *p,
			      struct list_head *list, unsigned int n,
			      const char *dev_name, const struct cpumask *mask)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = scst_thread_add(p, list, dev_name, i, mask);
		if (ret) {
			scst_threads_stop_list(list);
			return ret;
		}
	}
	return 0;
}

/* Start @n threads in the empty pool @p, on @mask (NULL: all CPUs). */
int scst_threads_start(struct scst_cmd_threads *p, unsigned int n,
		       const char *dev_name, const struct cpumask *mask)
{
	LIST_HEAD(list);
	int ret;

	WARN_ON_ONCE(!list_empty(&p->threads));
	ret = scst_threads_spawn(p, &list, n, dev_name, mask);
	if (ret) {
		pr_err("device %s: cannot start its threads: %d\n", dev_name,
		       ret);
		return ret;
	}
	list_splice_tail(&list, &p->threads);
	p->nr = n;
	return 0;
}

/*
 * Replace the threads of @p (if any; commands may be using them) by @n
 * new ones: the new ones run before the old ones stop, so the pool's
 * queue is never without a thread, and on failure the old ones stay. A command queued
 * meanwhile is taken by whichever thread comes first; an old thread
 * empties the queue before it checks that it must stop.
 */
static int scst_threads_restart(struct scst_cmd_threads *p, unsigned int n,
				const char *dev_name)
{
	LIST_HEAD(new);
	LIST_HEAD(old);
	int ret;

	ret = scst_threads_spawn(p, &new, n, dev_name, NULL);
	if (ret)
		return ret;
	list_splice_init(&p->threads, &old);
	list_splice(&new, &p->threads);
	p->nr = n;
	scst_threads_stop_list(&old);
	return 0;
}

void scst_threads_set_affinity(struct scst_cmd_threads *p,
			       const struct cpumask *mask)
{
	struct scst_cmd_thread *t;

	list_for_each_entry(t, &p->threads, entry)
		set_cpus_allowed_ptr(t->task, mask);
}

int scst_dev_start_threads(struct scst_device *dev)
{
	scst_threads_init(&dev->threads);
	INIT_LIST_HEAD(&dev->ini_pools);
	dev->nr_ini_pools = 0;
	dev->threads_users = 0;
	if (dev->threads_pool_type != SCST_THREADS_POOL_SHARED)
		return 0;
	return scst_threads_start(&dev->threads, dev->threads_num, dev->name,
				  NULL);
}

void scst_dev_stop_threads(struct scst_device *dev)
{
	WARN_ON_ONCE(!list_empty(&dev->ini_pools) || dev->threads_users);
	scst_threads_stop(&dev->threads);
}

/*
 * The CPUs a session's commands and per-initiator threads run on. The
 * command path reads sess->cpu_mask without a lock: see
 * scst_dispatch_pick_cpu() for what it may see while this runs.
 */
void scst_sess_cpu_mask(struct scst_session *sess, struct scst_acg *acg,
			cpumask_t *mask)
{
	if (cpumask_intersects(&acg->cpu_mask, &sess->tgt->cpu_mask))
		cpumask_and(mask, &acg->cpu_mask, &sess->tgt->cpu_mask);
	else
		cpumask_copy(mask, &sess->tgt->cpu_mask);
}

static struct scst_ini_pool *scst_find_ini_pool(struct scst_device *dev,
						const char *initiator)
{
	struct scst_ini_pool *pool;

	lockdep_assert_held(&dev->dev_mutex);
	list_for_each_entry(pool, &dev->ini_pools, entry)
		if (strcmp(pool->initiator_name, initiator) == 0)
			return pool;
	return NULL;
}

/*
 * Over max_initiator_pools, further initiators share the device's own
 * pool, started on first use: one initiator name per login must not cost
 * threads_num kernel threads each.
 */
static int scst_tgt_dev_use_overflow_pool(struct scst_tgt_dev *tgt_dev)
{
	struct scst_device *dev = tgt_dev->dev;
	int ret = 0;

	lockdep_assert_held(&dev->dev_mutex);
	if (!dev->threads.nr) {
		ret = scst_threads_start(&dev->threads, dev->threads_num,
					 dev->name, NULL);
		if (ret)
			return ret;
		pr_info_ratelimited("device %s: more than %u initiators; the others share one pool of %d threads\n",
				    dev->name, scst_max_initiator_pools,
				    dev->threads_num);
	}
	tgt_dev->threads = &dev->threads;
	dev->threads_users++;
	return 0;
}

/*
 * A nexus of a device that sleeps gets its pool (called before use):
 * every nexus of one initiator name (its SRP channels, its sessions on
 * other targets) shares one per-initiator pool of the device.
 */
int scst_tgt_dev_start_threads(struct scst_tgt_dev *tgt_dev,
			       struct scst_acg *acg)
{
	struct scst_session *sess = tgt_dev->sess;
	struct scst_device *dev = tgt_dev->dev;
	struct scst_ini_pool *pool;
	cpumask_t *mask;
	char *key;
	int ret = 0;

	tgt_dev->threads = &dev->threads;
	tgt_dev->ini_pool = NULL;
	if (!dev->handler->exec_may_sleep)
		return 0;

	mask = kmalloc(sizeof(*mask), GFP_KERNEL);
	key = kmalloc(SCST_MAX_NAME, GFP_KERNEL);
	if (!mask || !key) {
		kfree(mask);
		kfree(key);
		return -ENOMEM;
	}
	scst_sess_cpu_mask(sess, acg, mask);
	/*
	 * The pool is the one of the nexus's I/O group (io_grouping_type of
	 * the group the session matched, scst_io_grouping_key()); a key too
	 * long for a pool name falls back to auto, the initiator name.
	 */
	if (scst_io_grouping_key(key, SCST_MAX_NAME,
				 READ_ONCE(acg->io_grouping_type),
				 sess->initiator_name, sess->tgt->name,
				 acg->is_default ? "" : acg->name,
				 sess->sess_name))
		strscpy(key, sess->initiator_name, SCST_MAX_NAME);

	/*
	 * The pool type is read, and the nexus counted as a user of the pool
	 * it gets, under dev_mutex: scst_dev_set_threads() must neither
	 * change the type nor stop the shared pool between the two (the
	 * nexus would point at a pool without threads, its commands would
	 * wait forever). It is on dev->tgt_dev_list only later.
	 */
	mutex_lock(&dev->dev_mutex);
	if (dev->threads_pool_type != SCST_THREADS_POOL_PER_INITIATOR) {
		dev->threads_users++;
		goto unlock;
	}
	pool = scst_find_ini_pool(dev, key);
	if (pool) {
		/* its threads may run where any of its sessions may */
		cpumask_or(&pool->cpu_mask, &pool->cpu_mask, mask);
		scst_threads_set_affinity(&pool->threads, &pool->cpu_mask);
		goto use;
	}
	if (dev->nr_ini_pools >= READ_ONCE(scst_max_initiator_pools)) {
		ret = scst_tgt_dev_use_overflow_pool(tgt_dev);
		goto unlock;
	}
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool) {
		ret = -ENOMEM;
		goto unlock;
	}
	strscpy(pool->initiator_name, key, sizeof(pool->initiator_name));
	cpumask_copy(&pool->cpu_mask, mask);
	scst_threads_init(&pool->threads);
	ret = scst_threads_start(&pool->threads, dev->threads_num, dev->name,
				 mask);
	if (ret) {
		kfree(pool);
		goto unlock;
	}
	list_add_tail(&pool->entry, &dev->ini_pools);
	dev->nr_ini_pools++;
use:
	pool->users++;
	tgt_dev->ini_pool = pool;
	tgt_dev->threads = &pool->threads;
unlock:
	mutex_unlock(&dev->dev_mutex);
	kfree(key);
	kfree(mask);
	return ret;
}

/*
 * The last nexus of an initiator's pool stops its threads; the device's
 * own pool (shared, or the overflow one) stays.
 */
void scst_tgt_dev_stop_threads(struct scst_tgt_dev *tgt_dev)
{
	struct scst_ini_pool *pool = tgt_dev->ini_pool;
	struct scst_device *dev = tgt_dev->dev;

	if (!dev->handler->exec_may_sleep)
		return;
	tgt_dev->ini_pool = NULL;
	mutex_lock(&dev->dev_mutex);
	if (!pool) {
		dev->threads_users--;	/* the shared or overflow pool */
	} else if (--pool->users) {
		pool = NULL;
	} else {
		list_del(&pool->entry);
		dev->nr_ini_pools--;
	}
	mutex_unlock(&dev->dev_mutex);
	if (!pool)
		return;
	/* no command uses it any more: its threads are idle or finishing */
	scst_threads_stop(&pool->threads);
	kfree(pool);
}

/*
 * cpu_mask of a target or group changed: move its sessions' commands and
 * threads. A pool shared with sessions of other targets keeps the CPUs
 * they allow.
 */
void scst_tgt_apply_cpu_mask(struct scst_tgt *tgt)
{
	struct scst_session *sess;
	struct scst_lun_map *map;
	struct scst_ini_pool *pool;
	cpumask_t *mask;
	unsigned int i;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry(sess, &tgt->sess_list, tgt_entry) {
		mask = &sess->cpu_mask;
		scst_sess_cpu_mask(sess, sess->acg, mask);
		map = rcu_dereference_protected(sess->lun_map,
						lockdep_is_held(&scst_mutex));
		for (i = 0; map && i < map->nr; i++) {
			struct scst_device *dev = map->tgt_devs[i]->dev;

			mutex_lock(&dev->dev_mutex);
			pool = map->tgt_devs[i]->ini_pool;
			if (pool) {
				if (pool->users == 1)
					cpumask_copy(&pool->cpu_mask, mask);
				else
					cpumask_or(&pool->cpu_mask,
						   &pool->cpu_mask, mask);
				scst_threads_set_affinity(&pool->threads,
							  &pool->cpu_mask);
			}
			mutex_unlock(&dev->dev_mutex);
		}
	}
}

/*
 * threads_num / threads_pool_type of a device, under dev_mutex. Changing
 * a per-initiator pool would mean restarting the threads of live
 * sessions: refused while nexuses use the device's threads. The shared
 * pool of a device in use is replaced while it runs: the new threads
 * start first, and if they cannot, the old ones stay and nothing changes.
 *
 * Return: 0, -EINVAL (bad value), -EBUSY (in use), or why the threads
 * could not start (the device keeps its threads and settings).
 */
int scst_dev_set_threads(struct scst_device *dev, int n,
			 enum scst_threads_pool_type type)
{
	int ret;

	lockdep_assert_held(&dev->dev_mutex);
	if (!dev->handler->exec_may_sleep)
		return n == 0 ? 0 : -EINVAL;
	if (n < 1 || n > 64)
		return -EINVAL;
	if (n == dev->threads_num && type == dev->threads_pool_type)
		return 0;
	if ((dev->threads_users || dev->nr_ini_pools) &&
	    (type != SCST_THREADS_POOL_SHARED ||
	     dev->threads_pool_type != SCST_THREADS_POOL_SHARED))
		return -EBUSY;

	if (type == SCST_THREADS_POOL_SHARED) {
		/* the caller logs a failure, once */
		ret = scst_threads_restart(&dev->threads, n, dev->name);
		if (ret)
			return ret;
	} else {
		/* nobody uses the overflow pool: the next one gets @n */
		scst_threads_stop(&dev->threads);
	}
	dev->threads_num = n;
	dev->threads_pool_type = type;
	return 0;
}

static void scst_threads_each_pid(struct scst_cmd_threads *p,
				  void (*fn)(pid_t pid, void *ctx), void *ctx)
{
	struct scst_cmd_thread *t;

	list_for_each_entry(t, &p->threads, entry)
		fn(task_pid_nr(t->task), ctx);
}

/*
 * The PIDs of all threads of a device, shared and per-initiator, one call
 * of @fn each (the sysfs view formats them; dev_mutex held).
 */
void scst_dev_threads_each_pid(struct scst_device *dev,
			       void (*fn)(pid_t pid, void *ctx), void *ctx)
{
	struct scst_ini_pool *pool;

	lockdep_assert_held(&dev->dev_mutex);
	scst_threads_each_pid(&dev->threads, fn, ctx);
	list_for_each_entry(pool, &dev->ini_pools, entry)
		scst_threads_each_pid(&pool->threads, fn, ctx);
}

/* The PIDs of the per-initiator threads serving one nexus. */
void scst_tgt_dev_threads_each_pid(struct scst_tgt_dev *tgt_dev,
				   void (*fn)(pid_t pid, void *ctx), void *ctx)
{
	struct scst_device *dev = tgt_dev->dev;

	mutex_lock(&dev->dev_mutex);
	if (tgt_dev->ini_pool)
		scst_threads_each_pid(&tgt_dev->ini_pool->threads, fn, ctx);
	mutex_unlock(&dev->dev_mutex);
}
