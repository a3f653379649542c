// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_threads.c - worker threads of devices whose handler may sleep in
 * ->exec() (FILEIO, pass-through). Handlers that never sleep (BLOCKIO,
 * NULLIO) run on the CPU that received the command instead, in
 * scst_process_cmd().
 *
 * As in SCST, a device has threads_num threads either in one pool shared
 * by all its sessions ("shared") or in one pool per session that sees it
 * ("per_initiator", the default: one initiator cannot starve another).
 * Per-initiator threads run on the CPUs of the session's cpu_mask: its
 * group's mask and its target's together.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/sched.h>

#include "scst_priv.h"

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
		while ((cmd = scst_threads_next_cmd(p)))
			scst_do_exec(cmd);
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

void scst_threads_stop(struct scst_cmd_threads *p)
{
	struct scst_cmd_thread *t, *tmp;

	list_for_each_entry_safe(t, tmp, &p->threads, entry) {
		kthread_stop(t->task);
		list_del(&t->entry);
		kfree(t);
	}
	p->nr = 0;
}

/* Start @n threads in @p, on @mask (NULL: all CPUs). */
int scst_threads_start(struct scst_cmd_threads *p, unsigned int n,
		       const char *dev_name, const struct cpumask *mask)
{
	struct scst_cmd_thread *t;
	unsigned int i;

	for (i = 0; i < n; i++) {
		t = kzalloc(sizeof(*t), GFP_KERNEL);
		if (!t)
			goto stop_threads;
		t->task = kthread_create(scst_thread_fn, p, "scst_%.8s_%u",
					 dev_name, i);
		if (IS_ERR(t->task)) {
			pr_err("device %s: cannot start a thread: %ld\n",
			       dev_name, PTR_ERR(t->task));
			kfree(t);
			goto stop_threads;
		}
		if (mask)
			set_cpus_allowed_ptr(t->task, mask);
		wake_up_process(t->task);
		list_add_tail(&t->entry, &p->threads);
		p->nr++;
	}
	return 0;

stop_threads:
	scst_threads_stop(p);
	return -ENOMEM;
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
	if (dev->threads_pool_type != SCST_THREADS_POOL_SHARED)
		return 0;
	return scst_threads_start(&dev->threads, dev->threads_num, dev->name,
				  NULL);
}

void scst_dev_stop_threads(struct scst_device *dev)
{
	scst_threads_stop(&dev->threads);
}

/* The CPUs a session's per-initiator threads run on. */
static void scst_sess_cpu_mask(struct scst_session *sess, cpumask_t *mask)
{
	if (!cpumask_and(mask, &sess->acg->cpu_mask, &sess->tgt->cpu_mask))
		cpumask_copy(mask, &sess->tgt->cpu_mask);
}

/* A nexus of a device that sleeps gets its pool (called before use). */
int scst_tgt_dev_start_threads(struct scst_tgt_dev *tgt_dev,
			       struct scst_acg *acg)
{
	struct scst_device *dev = tgt_dev->dev;
	cpumask_t *mask;
	int ret;

	tgt_dev->threads = &dev->threads;
	scst_threads_init(&tgt_dev->own_threads);
	if (!dev->handler->exec_may_sleep ||
	    dev->threads_pool_type != SCST_THREADS_POOL_PER_INITIATOR)
		return 0;

	mask = kmalloc(sizeof(*mask), GFP_KERNEL);
	if (!mask)
		return -ENOMEM;
	if (!cpumask_and(mask, &acg->cpu_mask, &tgt_dev->sess->tgt->cpu_mask))
		cpumask_copy(mask, &tgt_dev->sess->tgt->cpu_mask);
	ret = scst_threads_start(&tgt_dev->own_threads, dev->threads_num,
				 dev->name, mask);
	kfree(mask);
	if (!ret)
		tgt_dev->threads = &tgt_dev->own_threads;
	return ret;
}

void scst_tgt_dev_stop_threads(struct scst_tgt_dev *tgt_dev)
{
	scst_threads_stop(&tgt_dev->own_threads);
}

/* cpu_mask of a target or group changed: move its sessions' threads. */
void scst_tgt_apply_cpu_mask(struct scst_tgt *tgt)
{
	struct scst_session *sess;
	struct scst_lun_map *map;
	cpumask_t *mask;
	unsigned int i;

	lockdep_assert_held(&scst_mutex);
	mask = kmalloc(sizeof(*mask), GFP_KERNEL);
	if (!mask)
		return;
	list_for_each_entry(sess, &tgt->sess_list, tgt_entry) {
		scst_sess_cpu_mask(sess, mask);
		map = rcu_dereference_protected(sess->lun_map,
						lockdep_is_held(&scst_mutex));
		for (i = 0; map && i < map->nr; i++)
			scst_threads_set_affinity(&map->tgt_devs[i]->own_threads,
						  mask);
	}
	kfree(mask);
}

/*
 * threads_num / threads_pool_type of a device. Changing a per-initiator
 * pool would mean restarting the threads of live sessions: refused while
 * sessions see the device.
 */
int scst_dev_set_threads(struct scst_device *dev, int n,
			 enum scst_threads_pool_type type)
{
	bool in_use;
	unsigned long flags;

	if (!dev->handler->exec_may_sleep)
		return n == 0 ? 0 : -EINVAL;
	if (n < 1 || n > 64)
		return -EINVAL;
	spin_lock_irqsave(&dev->dev_lock, flags);
	in_use = !list_empty(&dev->tgt_dev_list);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	if (in_use && (type != SCST_THREADS_POOL_SHARED ||
		       dev->threads_pool_type != SCST_THREADS_POOL_SHARED))
		return -EBUSY;

	scst_threads_stop(&dev->threads);
	dev->threads_num = n;
	dev->threads_pool_type = type;
	if (type != SCST_THREADS_POOL_SHARED)
		return 0;
	return scst_threads_start(&dev->threads, n, dev->name, NULL);
}

static ssize_t scst_threads_emit_pids(struct scst_cmd_threads *p, char *buf,
				      ssize_t n)
{
	struct scst_cmd_thread *t;

	list_for_each_entry(t, &p->threads, entry)
		n += sysfs_emit_at(buf, n, "%s%d", n ? " " : "",
				   task_pid_nr(t->task));
	return n;
}

/* The PIDs of all threads of a device, shared and per-initiator. */
ssize_t scst_dev_threads_pids(struct scst_device *dev, char *buf)
{
	struct scst_tgt_dev *tgt_dev;
	unsigned long flags;
	ssize_t n;

	n = scst_threads_emit_pids(&dev->threads, buf, 0);
	spin_lock_irqsave(&dev->dev_lock, flags);
	list_for_each_entry(tgt_dev, &dev->tgt_dev_list, dev_entry)
		n = scst_threads_emit_pids(&tgt_dev->own_threads, buf, n);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	n += sysfs_emit_at(buf, n, "\n");
	return n;
}
