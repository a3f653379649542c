// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_dg.c - the model of the ALUA device groups and their target port
 * groups (SPC-4 5.16): making, finding and removing groups, their devices
 * and their target ports, and the attributes a sysfs write sets.
 *
 * An object is made in three steps, by its mgmt verb (scst_sysfs_dg.c):
 * the model allocates and checks it here (scst_*_alloc()), the view adds
 * its sysfs entry, and the model publishes it (scst_*_publish()): to the
 * command path (scst_alua_cmd.c), under scst_alua_lock. Removal is the
 * reverse: unpublish here, then the view removes the entry and frees the
 * object (a kobject's release, or kfree() for a link's object). The model
 * calls the view itself only for the changes that targets and devices
 * coming and going make (scst_dg_dev_removed(), scst_dg_tgt_added(),
 * scst_dg_tgt_removed()), through the view's ops as the rest of the model
 * does (struct scst_view_ops: SCST_VIEW_DG_DEV, SCST_VIEW_TG_TGT,
 * @tg_tgt_local).
 *
 * Locking: everything here runs under scst_mutex but for
 * scst_tg_tgt_set_rel_tgt_id() at the view's init;
 * what the command path reads changes under scst_alua_lock too
 * (scst_alua_cmd.c says why and in which order).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "scst_priv.h"
#include <scst_alua.h>

static LIST_HEAD(scst_dg_list);		/* scst_mutex and scst_alua_lock */
static unsigned int scst_nr_dgs;

/* A name that can be a sysfs entry beside the directory's own files. */
static int scst_dg_check_name(const char *what, const char *name)
{
	if (strlen(name) >= SCST_MAX_NAME || strchr(name, '/') ||
	    !strcmp(name, "mgmt") || !strcmp(name, "group_id") ||
	    !strcmp(name, "preferred") || !strcmp(name, "state") ||
	    !strcmp(name, ".") || !strcmp(name, "..")) {
		pr_err("invalid %s name '%s'\n", what, name);
		return -EINVAL;
	}
	return 0;
}

struct scst_dg *scst_dg_find(const char *name)
{
	struct scst_dg *dg;

	list_for_each_entry(dg, &scst_dg_list, entry)
		if (!strcmp(dg->name, name))
			return dg;
	return NULL;
}

/* The first device group, or NULL: to remove them all (module unload). */
struct scst_dg *scst_dg_first(void)
{
	return list_first_entry_or_null(&scst_dg_list, struct scst_dg, entry);
}

struct scst_tg *scst_tg_find(struct scst_dg *dg, const char *name)
{
	struct scst_tg *tg;

	list_for_each_entry(tg, &dg->tg_list, entry)
		if (!strcmp(tg->name, name))
			return tg;
	return NULL;
}

static struct scst_tg_tgt *scst_dg_find_tgt(struct scst_dg *dg,
					    const char *name)
{
	struct scst_tg_tgt *t;
	struct scst_tg *tg;

	list_for_each_entry(tg, &dg->tg_list, entry)
		list_for_each_entry(t, &tg->tgt_list, entry)
			if (!strcmp(t->name, name))
				return t;
	return NULL;
}

struct scst_tg_tgt *scst_tg_tgt_find(struct scst_tg *tg, const char *name)
{
	struct scst_tg_tgt *t;

	list_for_each_entry(t, &tg->tgt_list, entry)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

struct scst_dg_dev *scst_dg_dev_find(struct scst_dg *dg, const char *name)
{
	struct scst_dg_dev *dgd;

	list_for_each_entry(dgd, &dg->dev_list, entry)
		if (!strcmp(dgd->dev->name, name))
			return dgd;
	return NULL;
}

static struct scst_tgt *scst_dg_find_local_tgt(const char *name)
{
	struct scst_tgt_template *tgtt;
	struct scst_tgt *tgt;

	list_for_each_entry(tgtt, &scst_template_list, list_entry)
		list_for_each_entry(tgt, &tgtt->tgt_list, tgtt_entry)
			if (!strcmp(tgt->name, name))
				return tgt;
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* target ports of a target port group                                    */

/* A port named @name of @tg, @tgt's or (NULL) of another system. */
struct scst_tg_tgt *scst_tg_tgt_new(struct scst_tg *tg, const char *name,
				    struct scst_tgt *tgt)
{
	struct scst_tg_tgt *t;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	t->tg = tg;
	strscpy(t->name, name, sizeof(t->name));
	t->tgt = tgt;
	return t;
}

/* The new port @name of @tg, checked, unpublished; or an ERR_PTR. */
struct scst_tg_tgt *scst_tg_tgt_alloc(struct scst_tg *tg, const char *name)
{
	struct scst_tg_tgt *t, *other;
	int ret;

	ret = scst_dg_check_name("target", name);
	if (ret)
		return ERR_PTR(ret);
	other = scst_dg_find_tgt(tg->dg, name);
	if (other) {
		pr_err("target %s is already in target group %s of %s\n", name,
		       other->tg->name, tg->dg->name);
		return ERR_PTR(-EEXIST);
	}
	if (tg->nr_tgts >= SCST_ALUA_MAX_TG_PORTS) {
		pr_err("target group %s has %u targets, the most it may have\n",
		       tg->name, tg->nr_tgts);
		return ERR_PTR(-ENOSPC);
	}
	t = scst_tg_tgt_new(tg, name, scst_dg_find_local_tgt(name));
	return t ? t : ERR_PTR(-ENOMEM);
}

void scst_tg_tgt_publish(struct scst_tg_tgt *t)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_add_tail(&t->entry, &t->tg->tgt_list);
	t->tg->nr_tgts++;
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

void scst_tg_tgt_unpublish(struct scst_tg_tgt *t)
{
	struct scst_tg *tg = t->tg;
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_del(&t->entry);
	tg->nr_tgts--;
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* @t takes @old's place in its group, at once for the command path. */
void scst_tg_tgt_replace(struct scst_tg_tgt *old, struct scst_tg_tgt *t)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_replace(&old->entry, &t->entry);
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* A port of another system: its rel_tgt_id, without scst_mutex. */
void scst_tg_tgt_set_rel_tgt_id(struct scst_tg_tgt *t, u16 id)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	WRITE_ONCE(t->rel_tgt_id, id);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* ---------------------------------------------------------------------- */
/* target port groups                                                     */

/* The new target group @name of @dg, checked, unpublished; or ERR_PTR. */
struct scst_tg *scst_tg_alloc(struct scst_dg *dg, const char *name)
{
	struct scst_tg *tg;
	int ret;

	ret = scst_dg_check_name("target group", name);
	if (ret)
		return ERR_PTR(ret);
	if (scst_tg_find(dg, name)) {
		pr_err("target group %s already exists in %s\n", name,
		       dg->name);
		return ERR_PTR(-EEXIST);
	}
	if (dg->nr_tgs >= SCST_ALUA_MAX_TGS) {
		pr_err("device group %s has %u target groups, the most it may have\n",
		       dg->name, dg->nr_tgs);
		return ERR_PTR(-ENOSPC);
	}
	tg = kzalloc(sizeof(*tg), GFP_KERNEL);
	if (!tg)
		return ERR_PTR(-ENOMEM);
	tg->dg = dg;
	strscpy(tg->name, name, sizeof(tg->name));
	INIT_LIST_HEAD(&tg->tgt_list);
	tg->state = SCST_ALUA_ACTIVE;
	return tg;
}

void scst_tg_publish(struct scst_tg *tg)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_add_tail(&tg->entry, &tg->dg->tg_list);
	tg->dg->nr_tgs++;
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* @tg, whose ports are gone already. */
void scst_tg_unpublish(struct scst_tg *tg)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_del(&tg->entry);
	tg->dg->nr_tgs--;
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* Return: 0, or -EEXIST when another group of @tg's has @id. */
int scst_tg_set_group_id(struct scst_tg *tg, u16 id)
{
	struct scst_tg *other;
	unsigned long flags;
	int ret = 0;

	list_for_each_entry(other, &tg->dg->tg_list, entry) {
		if (other != tg && other->group_id == id) {
			pr_err("%s/%s: group_id %u is used by %s\n",
			       tg->dg->name, tg->name, id, other->name);
			ret = -EEXIST;
		}
	}
	if (!ret) {
		spin_lock_irqsave(&scst_alua_lock, flags);
		WRITE_ONCE(tg->group_id, id);
		spin_unlock_irqrestore(&scst_alua_lock, flags);
	}
	return ret;
}

void scst_tg_set_preferred(struct scst_tg *tg, bool v)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	if (tg->preferred != v) {
		WRITE_ONCE(tg->preferred, v);
		/* as SCST: it ends an initiator's STPG retries (scst_tg.c) */
		scst_dg_queue_ua(tg->dg, NULL);
	}
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* An administrator's state: the primitive is the command path's. */
void scst_tg_change_state(struct scst_tg *tg, u8 state)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	if (tg->state != state)
		scst_tg_set_state(tg, state, SCST_ALUA_STATUS_IMPLICIT, NULL);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* ---------------------------------------------------------------------- */
/* devices of a device group                                              */

/* The device @name for @dg, checked, unpublished; or an ERR_PTR. */
struct scst_dg_dev *scst_dg_dev_alloc(struct scst_dg *dg, const char *name)
{
	struct scst_device *dev = scst_find_device(name);
	struct scst_dg_dev *dgd;

	if (!dev) {
		pr_err("device %s does not exist\n", name);
		return ERR_PTR(-ENOENT);
	}
	if (dev->alua_dg) {
		pr_err("device %s is already in device group %s\n", dev->name,
		       dev->alua_dg->name);
		return ERR_PTR(-EEXIST);
	}
	if (scst_dg_check_name("device", dev->name))
		return ERR_PTR(-EINVAL);
	dgd = kzalloc(sizeof(*dgd), GFP_KERNEL);
	if (!dgd)
		return ERR_PTR(-ENOMEM);
	dgd->dg = dg;
	dgd->dev = dev;
	return dgd;
}

void scst_dg_dev_publish(struct scst_dg *dg, struct scst_dg_dev *dgd)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_add_tail(&dgd->entry, &dg->dev_list);
	WRITE_ONCE(dgd->dev->alua_dg, dg);
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

void scst_dg_dev_unpublish(struct scst_dg_dev *dgd)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_del(&dgd->entry);
	WRITE_ONCE(dgd->dev->alua_dg, NULL);
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* ---------------------------------------------------------------------- */
/* device groups                                                          */

/* The new device group @name, checked, unpublished; or an ERR_PTR. */
struct scst_dg *scst_dg_alloc(const char *name)
{
	struct scst_dg *dg;
	int ret;

	ret = scst_dg_check_name("device group", name);
	if (ret)
		return ERR_PTR(ret);
	if (scst_dg_find(name)) {
		pr_err("device group %s already exists\n", name);
		return ERR_PTR(-EEXIST);
	}
	if (scst_nr_dgs >= SCST_ALUA_MAX_DGS) {
		pr_err("there are %u device groups, the most there may be\n",
		       scst_nr_dgs);
		return ERR_PTR(-ENOSPC);
	}
	dg = kzalloc(sizeof(*dg), GFP_KERNEL);
	if (!dg)
		return ERR_PTR(-ENOMEM);
	strscpy(dg->name, name, sizeof(dg->name));
	INIT_LIST_HEAD(&dg->dev_list);
	INIT_LIST_HEAD(&dg->tg_list);
	return dg;
}

void scst_dg_publish(struct scst_dg *dg)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_add_tail(&dg->entry, &scst_dg_list);
	scst_nr_dgs++;
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* @dg, whose devices and target groups are gone already. */
void scst_dg_unpublish(struct scst_dg *dg)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_del(&dg->entry);
	scst_nr_dgs--;
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}

/* ---------------------------------------------------------------------- */
/* targets and devices coming and going                                   */

/**
 * scst_dg_dev_removed() - a device is being unregistered
 * @dev: the device
 *
 * Called with scst_mutex held; takes @dev out of its device group.
 */
void scst_dg_dev_removed(struct scst_device *dev)
{
	struct scst_dg_dev *dgd;
	struct scst_dg *dg = dev->alua_dg;

	lockdep_assert_held(&scst_mutex);
	if (!dg)
		return;
	list_for_each_entry(dgd, &dg->dev_list, entry) {
		if (dgd->dev == dev) {
			scst_dg_dev_unpublish(dgd);
			scst_view->del(SCST_VIEW_DG_DEV, dgd);
			return;
		}
	}
}

/**
 * scst_dg_tgt_added() - a target was registered
 * @tgt: the target, on its template's list, its sysfs directory added
 *
 * Called with scst_mutex held. A target group entry made by name before
 * the target existed (a port of another system, as SCST treats unknown
 * names) is this target's from now on, so that its commands see the
 * group's state and REPORT TARGET PORT GROUPS its rel_tgt_id.
 */
void scst_dg_tgt_added(struct scst_tgt *tgt)
{
	struct scst_tg_tgt *t, *tmp;
	struct scst_dg *dg;
	struct scst_tg *tg;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry(dg, &scst_dg_list, entry)
		list_for_each_entry(tg, &dg->tg_list, entry)
			list_for_each_entry_safe(t, tmp, &tg->tgt_list, entry)
				if (!t->tgt && !strcmp(t->name, tgt->name) &&
				    scst_dg_find_local_tgt(t->name) == tgt)
					scst_view->tg_tgt_local(t, tgt);
}

/**
 * scst_dg_tgt_removed() - a target is being unregistered
 * @tgt: the target
 *
 * Called with scst_mutex held; takes @tgt out of every target group, as
 * SCST does.
 */
void scst_dg_tgt_removed(struct scst_tgt *tgt)
{
	struct scst_tg_tgt *t, *tmp;
	struct scst_dg *dg;
	struct scst_tg *tg;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry(dg, &scst_dg_list, entry)
		list_for_each_entry(tg, &dg->tg_list, entry)
			list_for_each_entry_safe(t, tmp, &tg->tgt_list, entry)
				if (t->tgt == tgt) {
					scst_tg_tgt_unpublish(t);
					scst_view->del(SCST_VIEW_TG_TGT, t);
				}
}
