// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_threads.c - worker threads of devices whose handler may sleep in
 * ->exec() (FILEIO, pass-through). Handlers that never sleep (BLOCKIO,
 * NULLIO) run on the CPU that received the command instead, in
 * scst_process_cmd().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/freezer.h>

#include "scst_priv.h"

static struct scst_cmd *scst_dev_next_cmd(struct scst_device *dev)
{
	unsigned long flags;
	struct scst_cmd *cmd;

	spin_lock_irqsave(&dev->exec_lock, flags);
	cmd = list_first_entry_or_null(&dev->exec_queue, struct scst_cmd,
				       queue_entry);
	if (cmd)
		list_del_init(&cmd->queue_entry);
	spin_unlock_irqrestore(&dev->exec_lock, flags);
	return cmd;
}

static int scst_dev_thread_fn(void *arg)
{
	struct scst_device *dev = arg;
	struct scst_cmd *cmd;

	while (!kthread_should_stop()) {
		wait_event_interruptible(dev->exec_wq,
					 !list_empty_careful(&dev->exec_queue) ||
					 kthread_should_stop());
		while ((cmd = scst_dev_next_cmd(dev)))
			scst_do_exec(cmd);
	}
	return 0;
}

void scst_dev_queue_exec(struct scst_cmd *cmd)
{
	unsigned long flags;
	struct scst_device *dev = cmd->dev;

	spin_lock_irqsave(&dev->exec_lock, flags);
	list_add_tail(&cmd->queue_entry, &dev->exec_queue);
	spin_unlock_irqrestore(&dev->exec_lock, flags);
	wake_up(&dev->exec_wq);
}

int scst_dev_start_threads(struct scst_device *dev)
{
	struct scst_cmd_thread *t;
	int i;

	for (i = 0; i < dev->threads_num; i++) {
		t = kzalloc(sizeof(*t), GFP_KERNEL);
		if (!t)
			goto stop_threads;
		t->task = kthread_run(scst_dev_thread_fn, dev, "scst_%.8s_%d",
				      dev->name, i);
		if (IS_ERR(t->task)) {
			pr_err("device %s: cannot start a thread: %ld\n",
			       dev->name, PTR_ERR(t->task));
			kfree(t);
			goto stop_threads;
		}
		list_add_tail(&t->entry, &dev->threads);
	}
	return 0;

stop_threads:
	scst_dev_stop_threads(dev);
	return -ENOMEM;
}

void scst_dev_stop_threads(struct scst_device *dev)
{
	struct scst_cmd_thread *t, *tmp;

	list_for_each_entry_safe(t, tmp, &dev->threads, entry) {
		kthread_stop(t->task);
		list_del(&t->entry);
		kfree(t);
	}
}

/* Change the number of threads of a device (threads_num attribute). */
int scst_dev_set_threads_num(struct scst_device *dev, int n)
{
	int ret;

	if (!dev->handler->exec_may_sleep)
		return n == 0 ? 0 : -EINVAL;
	if (n < 1 || n > 64)
		return -EINVAL;
	scst_dev_stop_threads(dev);
	dev->threads_num = n;
	ret = scst_dev_start_threads(dev);
	return ret;
}

/* Show the PIDs of a device's threads, space-separated. */
ssize_t scst_dev_threads_pids(struct scst_device *dev, char *buf)
{
	struct scst_cmd_thread *t;
	ssize_t n = 0;

	list_for_each_entry(t, &dev->threads, entry)
		n += sysfs_emit_at(buf, n, "%s%d", n ? " " : "",
				   task_pid_nr(t->task));
	n += sysfs_emit_at(buf, n, "\n");
	return n;
}
