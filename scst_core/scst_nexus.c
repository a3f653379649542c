// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_nexus.c - the I_T_L nexuses (tgt_devs) as the command path sees
 * them: looked up by LUN, referenced, copied, and released when the last
 * reference drops.
 *
 * The model (scst_tgt.c) makes a nexus when a LUN map starts showing it
 * and calls scst_tgt_dev_unmap() when a map stops showing it; everything
 * after that is here, so that commands, TMFs and persistent reservations
 * (command path) reach nexuses without calling the model. The release
 * (scst_tgt_dev_free_work()) stays here too, as it calls only the command
 * path (threads, unit attentions), the pure SPC-2 reservation and the
 * handler's ->detach_tgt(): the model has already removed the nexus's
 * sysfs lun<N>/ before unmapping it (scst_sess_update_map()), so the
 * release owes the model and the sysfs view nothing and needs no ops
 * table to reach them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>

#include "scst_priv.h"

/*
 * Releases of nexuses (tgt_devs): quick, never waiting, so that they run
 * even while TMFs and session removals on scst_tmf_wq wait for them.
 */
static struct workqueue_struct *scst_release_wq;

int scst_nexus_init(void)
{
	scst_release_wq = alloc_workqueue("scst_release",
					  WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	return scst_release_wq ? 0 : -ENOMEM;
}

void scst_nexus_exit(void)
{
	rcu_barrier();	/* queue_rcu_work() callbacks */
	destroy_workqueue(scst_release_wq);
}

/*
 * The last reference is gone: no LUN map holds the nexus and no command,
 * TMF or reader uses it. Runs on scst_release_wq, without scst_mutex:
 * the one who drops the last reference may be a command completing in
 * any context, and nobody waits for a nexus holding a global lock.
 */
static void scst_tgt_dev_free_work(struct work_struct *work)
{
	struct scst_tgt_dev *tgt_dev = container_of(work, struct scst_tgt_dev,
						    free_work);
	struct scst_device *dev = tgt_dev->dev;
	struct scst_session *sess = tgt_dev->sess;
	struct module *owner = dev->handler->owner;
	unsigned long flags;

	spin_lock_irqsave(&dev->dev_lock, flags);
	/* SPC-2: losing the nexus releases its reservation */
	scst_spc2_release(&dev->spc2_res, sess);
	tgt_dev->dying = true;		/* scst_dev_add_ua() passes it by */
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	if (dev->handler->detach_tgt)
		dev->handler->detach_tgt(tgt_dev);
	scst_tgt_dev_stop_threads(tgt_dev);
	scst_tgt_dev_free_uas(tgt_dev);

	/* last: scst_dev_wait_tgt_devs() may free @dev once it is off */
	spin_lock_irqsave(&dev->dev_lock, flags);
	list_del(&tgt_dev->dev_entry);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	kfree(tgt_dev);
	/* and scst_sess_wait_tgt_devs() may free @sess */
	atomic_dec(&sess->nr_tgt_devs);
	wake_up_all(&scst_tmf_waitq);
	module_put(owner);
}

void scst_put_tgt_dev(struct scst_tgt_dev *tgt_dev)
{
	if (atomic_dec_and_test(&tgt_dev->cmd_count))
		queue_work(scst_release_wq, &tgt_dev->free_work);
}

/* After an RCU grace period: no lookup of an old map can find it now. */
static void scst_tgt_dev_unmap_work(struct work_struct *work)
{
	scst_put_tgt_dev(container_of(to_rcu_work(work), struct scst_tgt_dev,
				      unmap_work));
}

/*
 * A LUN map no longer holds @tgt_dev: drop the map's reference once the
 * readers of the old map are gone. Never waits: the nexus is freed when
 * its last command ends (scst_tgt_dev_free_work()), and whoever must see
 * it gone waits for that without scst_mutex (scst_sess_wait_tgt_devs(),
 * scst_dev_wait_tgt_devs()).
 */
void scst_tgt_dev_unmap(struct scst_tgt_dev *tgt_dev)
{
	queue_rcu_work(scst_release_wq, &tgt_dev->unmap_work);
}

/*
 * A new nexus holds one reference, its LUN map's: dropped with
 * scst_tgt_dev_unmap(). Before the nexus is published.
 */
void scst_tgt_dev_init_ref(struct scst_tgt_dev *tgt_dev)
{
	atomic_set(&tgt_dev->cmd_count, 1);
	INIT_RCU_WORK(&tgt_dev->unmap_work, scst_tgt_dev_unmap_work);
	INIT_WORK(&tgt_dev->free_work, scst_tgt_dev_free_work);
}

/**
 * scst_lookup_tgt_dev() - the device behind a LUN of a session
 * @sess: the session
 * @lun: the LUN
 *
 * Lock-free (RCU); the caller owns a reference it drops with
 * scst_put_tgt_dev().
 *
 * Return: the tgt_dev, or NULL when the LUN is not mapped.
 */
struct scst_tgt_dev *scst_lookup_tgt_dev(struct scst_session *sess, u64 lun)
{
	struct scst_tgt_dev *tgt_dev = NULL;
	struct scst_lun_map *map;
	unsigned int lo = 0, hi;

	rcu_read_lock();
	map = rcu_dereference(sess->lun_map);
	if (!map)
		goto unlock;
	hi = map->nr;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		struct scst_tgt_dev *t = map->tgt_devs[mid];

		if (t->lun == lun) {
			tgt_dev = t;
			atomic_inc(&tgt_dev->cmd_count);
			break;
		}
		if (t->lun < lun)
			lo = mid + 1;
		else
			hi = mid;
	}
unlock:
	rcu_read_unlock();
	return tgt_dev;
}

/**
 * scst_sess_get_tgt_devs() - a referenced copy of a session's LUN map
 * @sess: the session
 * @nr: set to the number of entries
 *
 * Process context. Drop each entry with scst_put_tgt_dev() and free the
 * array with kfree().
 *
 * Return: the array (NULL with *@nr == 0 for an empty map), or an
 * ERR_PTR(-ENOMEM).
 */
struct scst_tgt_dev **scst_sess_get_tgt_devs(struct scst_session *sess,
					     unsigned int *nr)
{
	struct scst_tgt_dev **tds = NULL;
	struct scst_lun_map *map;
	unsigned int want, i;

	for (;;) {
		rcu_read_lock();
		map = rcu_dereference(sess->lun_map);
		want = map ? map->nr : 0;
		if (tds && map && map->nr <= *nr) {
			for (i = 0; i < map->nr; i++) {
				tds[i] = map->tgt_devs[i];
				atomic_inc(&tds[i]->cmd_count);
			}
			*nr = map->nr;
			rcu_read_unlock();
			return tds;
		}
		rcu_read_unlock();
		if (!want) {
			kfree(tds);
			*nr = 0;
			return NULL;
		}
		/* the map grew (or this is the first pass): size for it */
		kfree(tds);
		tds = kmalloc_array(want, sizeof(*tds), GFP_KERNEL);
		if (!tds)
			return ERR_PTR(-ENOMEM);
		*nr = want;
	}
}

/**
 * scst_dev_get_tgt_devs() - referenced copy of a device's nexuses
 * @dev: the device
 * @nr: set to the number of entries
 *
 * Every I_T_L nexus of every session of every target that sees @dev (the
 * logical unit's task set, SAM-5 4.6.24), except those being freed.
 * Process context; takes no mutex. Drop each entry with scst_put_tgt_dev()
 * and free the array with kfree().
 *
 * Return: the array (NULL with *@nr == 0 when none), or ERR_PTR(-ENOMEM).
 */
struct scst_tgt_dev **scst_dev_get_tgt_devs(struct scst_device *dev,
					    unsigned int *nr)
{
	struct scst_tgt_dev **tds = NULL, *t;
	unsigned int size = 0, n, want;
	unsigned long flags;

	for (;;) {
		n = 0;
		want = 0;
		spin_lock_irqsave(&dev->dev_lock, flags);
		list_for_each_entry(t, &dev->tgt_dev_list, dev_entry) {
			want++;
			if (n < size && !t->dying &&
			    atomic_inc_not_zero(&t->cmd_count))
				tds[n++] = t;
		}
		spin_unlock_irqrestore(&dev->dev_lock, flags);
		if (want <= size) {
			*nr = n;
			if (!n) {
				kfree(tds);
				return NULL;
			}
			return tds;
		}
		/* the list grew (or this is the first pass): size for it */
		while (n)
			scst_put_tgt_dev(tds[--n]);
		kfree(tds);
		tds = kmalloc_array(want, sizeof(*tds), GFP_KERNEL);
		if (!tds)
			return ERR_PTR(-ENOMEM);
		size = want;
	}
}
