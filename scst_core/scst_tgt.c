// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_tgt.c - targets, sessions, access groups and the LUN maps that tie
 * them to devices.
 *
 * Every configuration change of a target (a LUN added, removed or
 * replaced, a group or initiator pattern added or removed) ends in
 * scst_tgt_reassign_sessions(), which matches each session against the
 * groups again and publishes a new LUN map for it. A map change is seen by
 * the initiator as REPORTED LUNS DATA HAS CHANGED (SPC-4 6.33); a LUN that
 * now names another device reports INQUIRY DATA HAS CHANGED.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "scst_priv.h"

/* ---------------------------------------------------------------------- */
/* access groups                                                          */

static struct scst_acg *scst_alloc_acg(struct scst_tgt *tgt, const char *name,
				       bool is_default)
{
	struct scst_acg *acg;

	acg = kzalloc(sizeof(*acg), GFP_KERNEL);
	if (!acg)
		return NULL;
	acg->tgt = tgt;
	strscpy(acg->name, name, sizeof(acg->name));
	acg->is_default = is_default;
	INIT_LIST_HEAD(&acg->acg_dev_list);
	INIT_LIST_HEAD(&acg->acn_list);
	cpumask_setall(&acg->cpu_mask);
	init_completion(&acg->kobj_released);
	return acg;
}

struct scst_acg *scst_find_acg(struct scst_tgt *tgt, const char *name)
{
	struct scst_acg *acg;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry(acg, &tgt->acg_list, tgt_entry)
		if (strcmp(acg->name, name) == 0)
			return acg;
	return NULL;
}

/* A group of @tgt named @name, with no LUNs or initiators yet. */
int scst_add_acg(struct scst_tgt *tgt, const char *name)
{
	struct scst_acg *acg;
	int ret;

	lockdep_assert_held(&scst_mutex);
	if (scst_find_acg(tgt, name)) {
		pr_err("group %s already exists in %s\n", name, tgt->name);
		return -EEXIST;
	}
	if (strlen(name) >= SCST_MAX_NAME || strchr(name, '/')) {
		pr_err("invalid group name '%s'\n", name);
		return -EINVAL;
	}
	acg = scst_alloc_acg(tgt, name, false);
	if (!acg)
		return -ENOMEM;
	ret = scst_view->add(SCST_VIEW_ACG, acg);
	if (ret) {
		kfree(acg);
		return ret;
	}
	list_add_tail(&acg->tgt_entry, &tgt->acg_list);
	return 0;
}

static struct scst_acg_dev *scst_find_acg_dev(struct scst_acg *acg, u64 lun)
{
	struct scst_acg_dev *ad;

	list_for_each_entry(ad, &acg->acg_dev_list, acg_entry)
		if (ad->lun == lun)
			return ad;
	return NULL;
}

static void scst_free_acg_dev(struct scst_acg_dev *ad)
{
	list_del(&ad->acg_entry);
	list_del(&ad->dev_entry);
	scst_view->del(SCST_VIEW_LUN, ad);
	kfree(ad);
}

/*
 * Add (or, with @replace, replace) a LUN of an access group. The caller
 * reassigns the target's sessions afterwards. A replacement that fails
 * leaves the old LUN as it was.
 */
int scst_acg_add_lun(struct scst_acg *acg, struct scst_device *dev, u64 lun,
		     bool read_only, bool replace)
{
	struct scst_acg_dev *ad, *old, *pos;
	int ret;

	lockdep_assert_held(&scst_mutex);
	if (lun > SCST_MAX_LUN) {
		pr_err("LUN %llu out of range (0-%u)\n", lun, SCST_MAX_LUN);
		return -EINVAL;
	}
	old = scst_find_acg_dev(acg, lun);
	if (old && !replace) {
		pr_err("LUN %llu of %s/%s is already in use by device %s\n",
		       lun, acg->tgt->name, acg->name, old->dev->name);
		return -EEXIST;
	}

	ad = kzalloc(sizeof(*ad), GFP_KERNEL);
	if (!ad)
		return -ENOMEM;
	ad->acg = acg;
	ad->dev = dev;
	ad->lun = lun;
	ad->read_only = read_only;
	init_completion(&ad->kobj_released);
	ret = scst_view->lun_check(ad, old);
	if (ret) {
		kfree(ad);
		return ret;
	}

	/* the new directory takes the old one's name (luns/<lun>) */
	if (old)
		scst_view->del(SCST_VIEW_LUN, old);

	/* keep the list sorted by LUN: REPORT LUNS lists them in order */
	list_for_each_entry(pos, &acg->acg_dev_list, acg_entry)
		if (pos->lun >= lun)
			break;
	list_add_tail(&ad->acg_entry, &pos->acg_entry);
	list_add_tail(&ad->dev_entry, &dev->lun_refs);

	ret = scst_view->add(SCST_VIEW_LUN, ad);
	if (ret) {
		list_del(&ad->acg_entry);
		list_del(&ad->dev_entry);
		kfree(ad);
		if (old)
			goto restore_old;
		return ret;
	}
	if (old) {
		list_del(&old->acg_entry);
		list_del(&old->dev_entry);
		kfree(old);
	}
	return 0;

restore_old:
	pr_err("replace of LUN %llu of %s/%s by %s failed (%d): LUN %llu stays device %s\n",
	       lun, acg->tgt->name, acg->name, dev->name, ret, lun,
	       old->dev->name);
	if (scst_view->add(SCST_VIEW_LUN, old)) {
		/* never a LUN without its directory */
		pr_err("LUN %llu of %s/%s: cannot restore its directory; removed\n",
		       lun, acg->tgt->name, acg->name);
		list_del(&old->acg_entry);
		list_del(&old->dev_entry);
		kfree(old);
	}
	return ret;
}

int scst_acg_del_lun(struct scst_acg *acg, u64 lun, bool gen_ua)
{
	struct scst_acg_dev *ad;

	lockdep_assert_held(&scst_mutex);
	ad = scst_find_acg_dev(acg, lun);
	if (!ad) {
		pr_err("LUN %llu does not exist in %s/%s\n", lun,
		       acg->tgt->name, acg->name);
		return -ENOENT;
	}
	scst_free_acg_dev(ad);
	return 0;
}

void scst_acg_clear_luns(struct scst_acg *acg)
{
	struct scst_acg_dev *ad, *tmp;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry_safe(ad, tmp, &acg->acg_dev_list, acg_entry)
		scst_free_acg_dev(ad);
}

static struct scst_acn *scst_find_acn(struct scst_acg *acg,
				      const char *pattern)
{
	struct scst_acn *acn;

	list_for_each_entry(acn, &acg->acn_list, entry)
		if (strcmp(acn->name, pattern) == 0)
			return acn;
	return NULL;
}

int scst_acg_add_acn(struct scst_acg *acg, const char *pattern)
{
	struct scst_acg *other;
	struct scst_acn *acn;
	int ret;

	lockdep_assert_held(&scst_mutex);
	if (scst_pattern_validate(pattern)) {
		pr_err("invalid initiator name pattern '%s'\n", pattern);
		return -EINVAL;
	}
	list_for_each_entry(other, &acg->tgt->acg_list, tgt_entry) {
		if (scst_find_acn(other, pattern)) {
			pr_err("initiator %s is already in group %s\n",
			       pattern, other->name);
			return -EEXIST;
		}
	}

	acn = kzalloc(sizeof(*acn), GFP_KERNEL);
	if (!acn)
		return -ENOMEM;
	acn->acg = acg;
	strscpy(acn->name, pattern, sizeof(acn->name));
	ret = scst_view->add(SCST_VIEW_ACN, acn);
	if (ret) {
		kfree(acn);
		return ret;
	}
	list_add_tail(&acn->entry, &acg->acn_list);
	return 0;
}

int scst_acg_del_acn(struct scst_acg *acg, const char *pattern)
{
	struct scst_acn *acn;

	lockdep_assert_held(&scst_mutex);
	acn = scst_find_acn(acg, pattern);
	if (!acn) {
		pr_err("initiator %s is not in group %s\n", pattern,
		       acg->name);
		return -ENOENT;
	}
	list_del(&acn->entry);
	scst_view->del(SCST_VIEW_ACN, acn);
	kfree(acn);
	return 0;
}

void scst_acg_clear_acns(struct scst_acg *acg)
{
	struct scst_acn *acn, *tmp;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry_safe(acn, tmp, &acg->acn_list, entry) {
		list_del(&acn->entry);
		scst_view->del(SCST_VIEW_ACN, acn);
		kfree(acn);
	}
}

/*
 * Remove a group with its LUNs and initiators. Its sessions move to the
 * group they match now before it is freed: a session never points at a
 * deleted group, even when its new LUN map cannot be made (it then has
 * none, see scst_sess_update_map()).
 */
void scst_del_acg(struct scst_acg *acg)
{
	lockdep_assert_held(&scst_mutex);
	scst_acg_clear_acns(acg);
	list_del(&acg->tgt_entry);
	if (!acg->is_default)
		scst_tgt_reassign_sessions(acg->tgt);
	scst_acg_clear_luns(acg);
	if (!acg->is_default)
		scst_view->del(SCST_VIEW_ACG, acg);
	kfree(acg);
}

/*
 * The group an initiator belongs to: the first group (in creation order)
 * with a pattern that matches it and no '!' pattern that excludes it; the
 * target's default group otherwise.
 */
static struct scst_acg *scst_match_acg(struct scst_tgt *tgt,
				       const char *initiator)
{
	struct scst_acg *acg;
	struct scst_acn *acn;

	list_for_each_entry(acg, &tgt->acg_list, tgt_entry) {
		bool match = false, excluded = false;

		if (acg->is_default)
			continue;
		list_for_each_entry(acn, &acg->acn_list, entry) {
			switch (scst_pattern_match(acn->name, initiator)) {
			case SCST_PATTERN_MATCH:
				match = true;
				break;
			case SCST_PATTERN_EXCLUDE:
				excluded = true;
				break;
			case SCST_PATTERN_NO_MATCH:
				break;
			}
		}
		if (match && !excluded)
			return acg;
	}
	return tgt->default_acg;
}

/* ---------------------------------------------------------------------- */
/* LUN maps                                                               */

static struct scst_tgt_dev *scst_alloc_tgt_dev(struct scst_session *sess,
					       struct scst_acg *acg,
					       struct scst_acg_dev *ad)
{
	unsigned long flags;
	struct scst_device *dev = ad->dev;
	struct scst_tgt_dev *tgt_dev;
	int ret;

	tgt_dev = kzalloc(sizeof(*tgt_dev), GFP_KERNEL);
	if (!tgt_dev)
		return NULL;
	tgt_dev->dev = dev;
	tgt_dev->sess = sess;
	tgt_dev->lun = ad->lun;
	tgt_dev->read_only = ad->read_only;
	spin_lock_init(&tgt_dev->ua_lock);
	INIT_LIST_HEAD(&tgt_dev->ua_list);
	scst_tgt_dev_init_ref(tgt_dev);	/* the LUN map's reference */

	/* the handler's module stays while a session sees its device */
	if (!try_module_get(dev->handler->owner))
		goto free;
	if (scst_tgt_dev_start_threads(tgt_dev, acg))
		goto put_module;
	if (dev->handler->attach_tgt) {
		ret = dev->handler->attach_tgt(tgt_dev);
		if (ret) {
			pr_err("device %s refused session %s: %d\n", dev->name,
			       sess->sess_name, ret);
			goto stop_threads;
		}
	}
	atomic_inc(&sess->nr_tgt_devs);
	spin_lock_irqsave(&dev->dev_lock, flags);
	list_add_tail(&tgt_dev->dev_entry, &dev->tgt_dev_list);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	return tgt_dev;

stop_threads:
	scst_tgt_dev_stop_threads(tgt_dev);
put_module:
	module_put(dev->handler->owner);
free:
	kfree(tgt_dev);
	return NULL;
}

/* Wait, without scst_mutex, until every nexus of @sess is freed. */
void scst_sess_wait_tgt_devs(struct scst_session *sess)
{
	while (!wait_event_timeout(scst_tmf_waitq,
				   atomic_read(&sess->nr_tgt_devs) == 0,
				   60 * HZ))
		pr_warn("session %s: %d LUNs still held by commands\n",
			sess->sess_name, atomic_read(&sess->nr_tgt_devs));
}

static bool scst_dev_has_tgt_devs(struct scst_device *dev)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&dev->dev_lock, flags);
	ret = !list_empty(&dev->tgt_dev_list);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	return ret;
}

/**
 * scst_dev_wait_tgt_devs() - wait until no session sees a device
 * @dev: the device, already removed from every LUN (scst_dev_remove_luns())
 *
 * Process context, without scst_mutex: the nexuses go when their last
 * commands end, which a stuck backend may delay indefinitely.
 */
void scst_dev_wait_tgt_devs(struct scst_device *dev)
{
	lockdep_assert_not_held(&scst_mutex);
	while (!wait_event_timeout(scst_tmf_waitq,
				   !scst_dev_has_tgt_devs(dev), 60 * HZ))
		pr_warn("device %s: still in use by commands of removed LUNs\n",
			dev->name);
}

static struct scst_tgt_dev *scst_map_find(struct scst_lun_map *map, u64 lun)
{
	unsigned int i;

	if (!map)
		return NULL;
	for (i = 0; i < map->nr; i++)
		if (map->tgt_devs[i]->lun == lun)
			return map->tgt_devs[i];
	return NULL;
}

/*
 * Publish the LUN map of @acg for @sess. Entries that did not change keep
 * their tgt_dev (and its pending unit attentions); the rest are made anew,
 * and the old ones are released once no command uses them.
 *
 * Fails closed: without memory for the new map the session gets no LUNs
 * at all rather than keep ones it may have lost (SPC-4 6.33: its next
 * command reports LOGICAL UNIT NOT SUPPORTED), and a LUN whose nexus
 * cannot be made stays invisible. @sess->acg is @acg in every case, so the
 * session never points at a group that is being deleted.
 */
static int scst_sess_update_map(struct scst_session *sess,
				struct scst_acg *acg, bool initial)
{
	struct scst_lun_map *old, *map;
	struct scst_tgt_dev *t, *prev;
	struct scst_acg_dev *ad;
	unsigned int n = 0, i;
	bool changed = false;
	int ret = 0;

	lockdep_assert_held(&scst_mutex);
	old = rcu_dereference_protected(sess->lun_map,
					lockdep_is_held(&scst_mutex));

	list_for_each_entry(ad, &acg->acg_dev_list, acg_entry)
		n++;
	map = kzalloc(struct_size(map, tgt_devs, n), GFP_KERNEL);
	if (!map) {
		pr_err("session %s: no memory for its LUN map: it loses access to every LUN\n",
		       sess->sess_name);
		ret = -ENOMEM;
		changed = true;
		goto publish;
	}

	list_for_each_entry(ad, &acg->acg_dev_list, acg_entry) {
		prev = scst_map_find(old, ad->lun);
		if (prev && prev->dev == ad->dev &&
		    prev->read_only == ad->read_only) {
			map->tgt_devs[map->nr++] = prev;
			continue;
		}
		t = scst_alloc_tgt_dev(sess, acg, ad);
		if (!t) {
			/* logged; the LUN stays invisible */
			changed = true;
			continue;
		}
		if (initial)
			scst_tgt_dev_add_ua(t, SCST_SENSE_POWER_ON_RESET);
		else if (prev)
			scst_tgt_dev_add_ua(t, SCST_SENSE_INQUIRY_DATA_CHANGED);
		map->tgt_devs[map->nr++] = t;
		changed = true;
	}
	if (old) {
		for (i = 0; i < old->nr; i++)
			if (scst_map_find(map, old->tgt_devs[i]->lun) !=
			    old->tgt_devs[i])
				changed = true;
		if (old->nr != map->nr)
			changed = true;
	}

publish:
	sess->acg = acg;
	scst_sess_cpu_mask(sess, acg, &sess->cpu_mask);
	rcu_assign_pointer(sess->lun_map, map);
	if (!initial && changed)
		scst_sess_add_ua(sess, SCST_SENSE_REPORTED_LUNS_CHANGED);
	/* the lun<N>/ of a nexus goes before the nexus can be released */
	if (!initial)
		scst_view->sess_luns_changed(sess);

	if (old) {
		for (i = 0; i < old->nr; i++)
			if (scst_map_find(map, old->tgt_devs[i]->lun) !=
			    old->tgt_devs[i])
				scst_tgt_dev_unmap(old->tgt_devs[i]);
		kfree_rcu(old, rcu);
	}
	return ret;
}

/* Under scst_mutex; the caller waits with scst_sess_wait_tgt_devs(). */
static void scst_sess_free_map(struct scst_session *sess)
{
	struct scst_lun_map *map;
	unsigned int i;

	map = rcu_dereference_protected(sess->lun_map,
					lockdep_is_held(&scst_mutex));
	RCU_INIT_POINTER(sess->lun_map, NULL);
	if (!map)
		return;
	for (i = 0; i < map->nr; i++)
		scst_tgt_dev_unmap(map->tgt_devs[i]);
	kfree_rcu(map, rcu);
}

/**
 * scst_tgt_reassign_sessions() - apply a configuration change to sessions
 * @tgt: the target whose groups or LUNs changed
 *
 * Never waits for commands: the nexuses a session loses are freed when
 * their commands end (scst_tgt_dev_unmap()).
 */
void scst_tgt_reassign_sessions(struct scst_tgt *tgt)
{
	struct scst_session *sess;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry(sess, &tgt->sess_list, tgt_entry) {
		struct scst_acg *acg = scst_match_acg(tgt,
						      sess->initiator_name);
		bool moved = acg != sess->acg;

		scst_sess_update_map(sess, acg, false);	/* logs failures */
		if (moved)
			scst_view->sess_acg_changed(sess);
	}
}

/* Remove every LUN that exports @dev (the device is going away). */
void scst_dev_remove_luns(struct scst_device *dev)
{
	struct scst_acg_dev *ad, *tmp;
	struct scst_tgt *tgts[8];
	unsigned int ntgts = 0, i;
	bool overflow = false;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry_safe(ad, tmp, &dev->lun_refs, dev_entry) {
		struct scst_tgt *tgt = ad->acg->tgt;

		pr_info("removing LUN %llu of %s/%s: device %s is going away\n",
			ad->lun, tgt->name, ad->acg->name, dev->name);
		for (i = 0; i < ntgts; i++)
			if (tgts[i] == tgt)
				break;
		if (i == ntgts) {
			if (ntgts < ARRAY_SIZE(tgts))
				tgts[ntgts++] = tgt;
			else
				overflow = true;
		}
		scst_free_acg_dev(ad);
	}

	if (overflow) {
		struct scst_tgt_template *tgtt;
		struct scst_tgt *tgt;

		list_for_each_entry(tgtt, &scst_template_list, list_entry)
			list_for_each_entry(tgt, &tgtt->tgt_list, tgtt_entry)
				scst_tgt_reassign_sessions(tgt);
		return;
	}
	for (i = 0; i < ntgts; i++)
		scst_tgt_reassign_sessions(tgts[i]);
}

/* ---------------------------------------------------------------------- */
/* targets                                                                */

static u16 scst_alloc_rel_tgt_id(void)
{
	struct scst_tgt_template *tgtt;
	struct scst_tgt *tgt;
	u16 id;

	/* SPC-4 7.8.6.4: 0 is reserved; ids are unique in the SCSI device */
	for (id = 1; id != 0; id++) {
		bool used = false;

		list_for_each_entry(tgtt, &scst_template_list, list_entry)
			list_for_each_entry(tgt, &tgtt->tgt_list, tgtt_entry)
				if (tgt->rel_tgt_id == id)
					used = true;
		if (!used)
			return id;
	}
	return 0;
}

/**
 * scst_register_target() - register a target port of a driver
 * @tgtt: its driver
 * @name: the target's name, unique within the driver
 *
 * Return: the target or an ERR_PTR (-EINVAL, -EEXIST, -ENOMEM).
 */
struct scst_tgt *scst_register_target(struct scst_tgt_template *tgtt,
				      const char *name)
{
	struct scst_tgt *tgt, *t;
	int ret;

	if (!name[0] || strlen(name) >= SCST_MAX_NAME || strchr(name, '/')) {
		pr_err("invalid target name '%s'\n", name);
		return ERR_PTR(-EINVAL);
	}

	tgt = kzalloc(sizeof(*tgt), GFP_KERNEL);
	if (!tgt)
		return ERR_PTR(-ENOMEM);
	tgt->tgtt = tgtt;
	strscpy(tgt->name, name, sizeof(tgt->name));
	cpumask_setall(&tgt->cpu_mask);
	INIT_LIST_HEAD(&tgt->acg_list);
	INIT_LIST_HEAD(&tgt->sess_list);
	init_completion(&tgt->kobj_released);
	tgt->default_acg = scst_alloc_acg(tgt, name, true);
	if (!tgt->default_acg) {
		ret = -ENOMEM;
		goto free_tgt;
	}

	mutex_lock(&scst_mutex);
	list_for_each_entry(t, &tgtt->tgt_list, tgtt_entry) {
		if (strcmp(t->name, name) == 0) {
			pr_err("target %s/%s already exists\n", tgtt->name,
			       name);
			ret = -EEXIST;
			goto unlock;
		}
	}
	tgt->rel_tgt_id = scst_alloc_rel_tgt_id();
	ret = scst_view->add(SCST_VIEW_TGT, tgt);
	if (ret)
		goto unlock;
	list_add_tail(&tgt->tgtt_entry, &tgtt->tgt_list);
	scst_dg_tgt_added(tgt);
	mutex_unlock(&scst_mutex);
	pr_info("target %s/%s registered\n", tgtt->name, name);
	return tgt;

unlock:
	mutex_unlock(&scst_mutex);
	kfree(tgt->default_acg);
free_tgt:
	kfree(tgt);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(scst_register_target);

/**
 * scst_unregister_target() - unregister a target port
 * @tgt: the target
 *
 * Sessions still open are closed through the driver's ->close_session()
 * and waited for.
 */
void scst_unregister_target(struct scst_tgt *tgt)
{
	struct scst_tgt_template *tgtt = tgt->tgtt;
	struct scst_session *sess;
	struct scst_acg *acg, *tmp;

	/*
	 * Ask the driver to close each session, one at a time and without
	 * scst_mutex: it may unregister the session right away. The driver
	 * may also be unregistering it on its own (a disconnect): the
	 * reference taken under scst_mutex, while the session is still on
	 * sess_list, keeps it from being freed (the view's ->sess_release()
	 * waits for the last one) until ->close_session() has returned.
	 */
	for (;;) {
		struct scst_session *found = NULL;

		mutex_lock(&scst_mutex);
		list_for_each_entry(sess, &tgt->sess_list, tgt_entry) {
			if (!sess->close_requested && !sess->shutting_down) {
				WRITE_ONCE(sess->close_requested, true);
				found = sess;
				break;
			}
		}
		if (found && tgtt->close_session)
			kobject_get(&found->kobj);
		mutex_unlock(&scst_mutex);
		if (!found || !tgtt->close_session)
			break;
		tgtt->close_session(found);
		kobject_put(&found->kobj);
	}
	/*
	 * Not sess_list: a session leaves it before its unregistration is
	 * done with @tgt (scst_finish_unregister_session()).
	 */
	wait_event(scst_tmf_waitq, atomic_read(&tgt->nr_sess) == 0);

	mutex_lock(&scst_mutex);
	list_del(&tgt->tgtt_entry);
	scst_dg_tgt_removed(tgt);
	list_for_each_entry_safe(acg, tmp, &tgt->acg_list, tgt_entry)
		scst_del_acg(acg);
	scst_acg_clear_luns(tgt->default_acg);
	mutex_unlock(&scst_mutex);

	pr_info("target %s/%s unregistered\n", tgtt->name, tgt->name);
	kfree(tgt->default_acg);
	scst_view->del(SCST_VIEW_TGT, tgt);
	kfree(tgt);
}
EXPORT_SYMBOL_GPL(scst_unregister_target);

int scst_tgt_set_enabled(struct scst_tgt *tgt, bool enable)
{
	if (!tgt->tgtt->enable_target)
		return -EOPNOTSUPP;
	return tgt->tgtt->enable_target(tgt, enable);
}

/* ---------------------------------------------------------------------- */
/* sessions                                                               */

static bool scst_sess_name_used(const char *name, void *ctx)
{
	struct scst_tgt *tgt = ctx;
	struct scst_session *s;

	list_for_each_entry(s, &tgt->sess_list, tgt_entry)
		if (strcmp(s->sess_name, name) == 0)
			return true;
	return false;
}

/**
 * scst_register_session() - an initiator logged in to a target
 * @tgt: the target
 * @initiator_name: the name access groups are matched against
 * @tgt_priv: the driver's private data (sess->tgt_priv)
 *
 * Process context. The session directory is named after the initiator;
 * further sessions of the same initiator (more channels) get "_1", "_2"...
 * appended, as SCST does (scst_sess_name_format()), up to
 * SCST_SESS_NAME_MAX_TRIES sessions of one initiator on one target.
 *
 * Return: the session or an ERR_PTR.
 */
struct scst_session *scst_register_session(struct scst_tgt *tgt,
					   const char *initiator_name,
					   void *tgt_priv)
{
	struct scst_session *sess;
	int ret;

	if (!initiator_name[0] || strlen(initiator_name) >= SCST_MAX_NAME) {
		pr_err("invalid initiator name '%s'\n", initiator_name);
		return ERR_PTR(-EINVAL);
	}

	sess = kzalloc(sizeof(*sess), GFP_KERNEL);
	if (!sess)
		return ERR_PTR(-ENOMEM);
	sess->tgt = tgt;
	sess->tgt_priv = tgt_priv;
	strscpy(sess->initiator_name, initiator_name,
		sizeof(sess->initiator_name));
	spin_lock_init(&sess->sess_lock);
	scst_lat_sess_init(sess);
	INIT_LIST_HEAD(&sess->cmd_list);
	init_completion(&sess->kobj_released);
	scst_pr_sess_init(sess);
	sess->yield_probe_at = jiffies;	/* a first look at its depth now */

	mutex_lock(&scst_mutex);
	/*
	 * Before the LUN map publishes the session's nexuses (a PERSISTENT
	 * RESERVE OUT of another session matches them without scst_mutex);
	 * fixed while the target has sessions (rel_tgt_id's store refuses).
	 */
	sess->pr_nexus.rel_tgt_id = tgt->rel_tgt_id;
	ret = scst_sess_name_pick(sess->sess_name, sizeof(sess->sess_name),
				  initiator_name, scst_sess_name_used, tgt);
	if (ret) {
		pr_err_ratelimited("%s/%s: initiator %s already has %u sessions\n",
				   tgt->tgtt->name, tgt->name, initiator_name,
				   SCST_SESS_NAME_MAX_TRIES);
		goto unlock;
	}

	ret = scst_sess_update_map(sess, scst_match_acg(tgt, initiator_name),
				   true);
	if (ret)
		goto free_map;
	ret = scst_view->add(SCST_VIEW_SESS, sess);
	if (ret)
		goto free_map;
	list_add_tail(&sess->tgt_entry, &tgt->sess_list);
	atomic_inc(&tgt->nr_sess);
	mutex_unlock(&scst_mutex);
	pr_info("session %s registered on %s/%s (group %s)\n", sess->sess_name,
		tgt->tgtt->name, tgt->name,
		sess->acg->is_default ? "default" : sess->acg->name);
	return sess;

free_map:
	scst_sess_free_map(sess);
unlock:
	mutex_unlock(&scst_mutex);
	scst_sess_wait_tgt_devs(sess);
	scst_lat_sess_free(sess);
	kfree(sess);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(scst_register_session);

static void scst_finish_unregister_session(struct scst_session *sess)
{
	struct scst_tgt *tgt = sess->tgt;
	void (*done)(struct scst_session *sess) = sess->unreg_done;

	/* I_T nexus loss (SAM-5 6.3.4): every command of it ends here */
	scst_abort_sess_cmds_and_wait(sess);
	wait_event(scst_tmf_waitq, atomic_read(&sess->active_tmfs) == 0);

	/*
	 * The directory goes with the name, under scst_mutex: a session
	 * registering meanwhile may take the name again (a new channel of
	 * the same initiator) and must find the directory gone. (The
	 * session's attributes take no lock, so removing them here cannot
	 * wait on scst_mutex.)
	 */
	mutex_lock(&scst_mutex);
	scst_view->del(SCST_VIEW_SESS, sess);
	list_del(&sess->tgt_entry);
	scst_sess_free_map(sess);
	mutex_unlock(&scst_mutex);
	/* TMFs of other sessions may still hold its nexuses for a while */
	scst_sess_wait_tgt_devs(sess);

	pr_info("session %s unregistered from %s/%s\n", sess->sess_name,
		tgt->tgtt->name, tgt->name);
	if (done)
		done(sess);
	scst_view->sess_release(sess);
	scst_lat_sess_free(sess);
	kfree(sess);
	/*
	 * The last access to @tgt, fully ordered: scst_unregister_target()
	 * may free it once the count reaches 0.
	 */
	if (atomic_dec_and_test(&tgt->nr_sess))
		wake_up_all(&scst_tmf_waitq);
}

static void scst_unregister_session_work(struct work_struct *work)
{
	scst_finish_unregister_session(container_of(work, struct scst_session,
						    unreg_work));
}

/**
 * scst_unregister_session() - an initiator logged out or went away
 * @sess: the session
 * @wait: finish before returning (process context); otherwise finish in
 *	the background
 * @unreg_done: called when the session's commands are all finished and
 *	before it is freed (optional)
 *
 * The commands of the session are aborted (I_T nexus loss); each still
 * reaches the driver's ->xmit_response(), and the driver must complete
 * each with scst_tgt_cmd_done(), or the unregistration does not finish.
 */
void scst_unregister_session(struct scst_session *sess, bool wait,
			     void (*unreg_done)(struct scst_session *sess))
{
	sess->unreg_done = unreg_done;
	WRITE_ONCE(sess->shutting_down, true);
	if (wait) {
		scst_finish_unregister_session(sess);
		return;
	}
	INIT_WORK(&sess->unreg_work, scst_unregister_session_work);
	queue_work(scst_tmf_wq, &sess->unreg_work);
}
EXPORT_SYMBOL_GPL(scst_unregister_session);
