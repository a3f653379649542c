// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_dg.c - ALUA device groups and target port groups (SPC-4 5.16), in
 * SCST's sysfs layout:
 *
 *   device_groups/mgmt                       create DG | del DG
 *   device_groups/<dg>/devices/mgmt          add DEV | del DEV
 *   device_groups/<dg>/devices/<dev>         link to devices/<dev>
 *   device_groups/<dg>/target_groups/mgmt    create TG | del TG
 *   .../target_groups/<tg>/mgmt              add TGT | del TGT
 *   .../target_groups/<tg>/group_id          1-65535
 *   .../target_groups/<tg>/preferred         0 or 1
 *   .../target_groups/<tg>/state             active, nonoptimized, standby,
 *                                            unavailable, offline,
 *                                            transitioning
 *   .../target_groups/<tg>/<tgt>             a target of this system: link
 *                                            to targets/<drv>/<tgt> (whose
 *                                            rel_tgt_id is reported); a
 *                                            target not on this system: a
 *                                            directory with rel_tgt_id
 *
 * and the command side: the per-command state check, REPORT and SET
 * TARGET PORT GROUPS, the INQUIRY fields. The decisions are the pure
 * scst_alua.c's.
 *
 * Locking: configuration changes hold scst_mutex (sysfs writes, device
 * and target removal) and, for what the command path reads, also
 * scst_alua_lock, a spinlock: the lists, group ids, states, and
 * dev->alua_dg. The command path takes only scst_alua_lock, and only for
 * devices in a device group: a command to any other device reads
 * dev->alua_dg and nothing else. For those in a group, each nexus
 * (tgt_dev) caches its group's state with the generation scst_alua_gen it
 * was computed at; every change bumps the generation, so the lock is
 * taken again only after a change. Order: scst_mutex -> scst_alua_lock ->
 * dev->dev_lock -> tgt_dev->ua_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/sched/signal.h>

#include "scst_priv.h"
#include <scst_alua.h>

/* A device group: devices whose target ports are grouped alike. */
struct scst_dg {
	char name[SCST_MAX_NAME];
	struct list_head entry;		/* on scst_dg_list */
	struct list_head dev_list;	/* struct scst_dg_dev */
	struct list_head tg_list;	/* struct scst_tg */
	unsigned int nr_tgs;
	struct kobject kobj;		/* device_groups/<dg> */
	struct kobject *devices_kobj;
	struct kobject *tgs_kobj;
};

struct scst_dg_dev {
	struct list_head entry;		/* on dg->dev_list */
	struct scst_device *dev;
};

/* A target port group of a device group. */
struct scst_tg {
	struct scst_dg *dg;
	char name[SCST_MAX_NAME];
	struct list_head entry;		/* on dg->tg_list */
	struct list_head tgt_list;	/* struct scst_tg_tgt */
	unsigned int nr_tgts;
	u16 group_id;
	bool preferred;
	u8 state;
	u8 status;			/* RTPG STATUS CODE */
	struct kobject kobj;		/* target_groups/<tg> */
};

/* A target port of a target port group. */
struct scst_tg_tgt {
	struct scst_tg *tg;
	char name[SCST_MAX_NAME];
	struct list_head entry;		/* on tg->tgt_list */
	struct scst_tgt *tgt;		/* a target of this system, or NULL */
	u16 rel_tgt_id;			/* of a target not on this system */
	struct kobject kobj;		/* its directory, when !tgt */
};

static DEFINE_SPINLOCK(scst_alua_lock);
static LIST_HEAD(scst_dg_list);		/* scst_mutex and scst_alua_lock */
static unsigned int scst_nr_dgs;
/* bumped under scst_alua_lock at every change a command's state sees */
static unsigned long scst_alua_gen = 1;
static struct kobject *scst_dgs_kobj;

static void scst_alua_changed(void)
{
	lockdep_assert_held(&scst_alua_lock);
	/* never 0, the generation of a nexus that has not looked yet */
	WRITE_ONCE(scst_alua_gen, scst_alua_gen + 1 ?: 1);
}

/* As scst_locked_mgmt() of scst_sysfs_tgt.c: see there why trylock. */
static ssize_t scst_dg_locked_mgmt(const char *buf, size_t count,
				   int (*handler)(struct scst_mgmt_line *,
						  void *),
				   unsigned int max_positional, void *ctx)
{
	int ret;

	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();
	ret = scst_mgmt_write(buf, count, handler, max_positional, ctx);
	mutex_unlock(&scst_mutex);
	return ret;
}

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

static struct scst_dg *scst_dg_find(const char *name)
{
	struct scst_dg *dg;

	list_for_each_entry(dg, &scst_dg_list, entry)
		if (!strcmp(dg->name, name))
			return dg;
	return NULL;
}

static struct scst_tg *scst_tg_find(struct scst_dg *dg, const char *name)
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

/* The group of @tgt's port in @dg; scst_alua_lock or scst_mutex. */
static struct scst_tg *scst_dg_tg_of(struct scst_dg *dg,
				     const struct scst_tgt *tgt)
{
	struct scst_tg_tgt *t;
	struct scst_tg *tg;

	list_for_each_entry(tg, &dg->tg_list, entry)
		list_for_each_entry(t, &tg->tgt_list, entry)
			if (t->tgt == tgt)
				return tg;
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

/*
 * SPC-4 5.16.2.6, 6.44: after a change of a group's state or preferred
 * bit, every I_T nexus to the devices of the group, except the one whose
 * SET TARGET PORT GROUPS made it, gets ASYMMETRIC ACCESS STATE CHANGED.
 */
static void scst_dg_queue_ua(struct scst_dg *dg,
			     const struct scst_session *except)
{
	const u32 ua = SCST_SENSE_ASYM_ACCESS_STATE_CHANGED;
	struct scst_tgt_dev *td;
	struct scst_dg_dev *dgd;

	lockdep_assert_held(&scst_alua_lock);
	list_for_each_entry(dgd, &dg->dev_list, entry) {
		spin_lock(&dgd->dev->dev_lock);
		list_for_each_entry(td, &dgd->dev->tgt_dev_list, dev_entry)
			if (!td->dying && td->sess != except)
				scst_tgt_dev_add_ua(td, ua);
		spin_unlock(&dgd->dev->dev_lock);
	}
}

/* ---------------------------------------------------------------------- */
/* target_groups/<tg>/<tgt>: target ports                                 */

static void scst_tg_tgt_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct scst_tg_tgt, kobj));
}

static ssize_t scst_tg_tgt_rel_tgt_id_show(struct kobject *kobj,
					   struct kobj_attribute *attr,
					   char *buf)
{
	u16 id = READ_ONCE(container_of(kobj, struct scst_tg_tgt,
					kobj)->rel_tgt_id);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%u\n", id), true);
}

static ssize_t scst_tg_tgt_rel_tgt_id_store(struct kobject *kobj,
					    struct kobj_attribute *attr,
					    const char *buf, size_t count)
{
	struct scst_tg_tgt *t = container_of(kobj, struct scst_tg_tgt, kobj);
	unsigned long flags;
	u16 id;

	if (kstrtou16(buf, 0, &id) || id == 0) {
		pr_err("%s: rel_tgt_id: '%.*s' is not in 1-65535\n", t->name,
		       (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	spin_lock_irqsave(&scst_alua_lock, flags);
	WRITE_ONCE(t->rel_tgt_id, id);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	return count;
}

static struct kobj_attribute scst_tg_tgt_rel_tgt_id_attr =
	__ATTR(rel_tgt_id, 0644, scst_tg_tgt_rel_tgt_id_show,
	       scst_tg_tgt_rel_tgt_id_store);

static struct attribute *scst_tg_tgt_attrs[] = {
	&scst_tg_tgt_rel_tgt_id_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(scst_tg_tgt);

static const struct kobj_type scst_tg_tgt_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_tg_tgt_release,
	.default_groups = scst_tg_tgt_groups,
};

/* scst_mutex held. Unpublishes, removes and frees @t. */
static void scst_tg_tgt_del(struct scst_tg_tgt *t)
{
	struct scst_tg *tg = t->tg;
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_del(&t->entry);
	tg->nr_tgts--;
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	if (t->tgt) {
		sysfs_remove_link(&tg->kobj, t->name);
		kfree(t);
	} else {
		kobject_del(&t->kobj);
		kobject_put(&t->kobj);
	}
}

static int scst_tg_add_tgt(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_tg *tg = ctx;
	const char *name = line->argv[1];
	struct scst_tg_tgt *t, *other;
	unsigned long flags;
	int ret;

	ret = scst_dg_check_name("target", name);
	if (ret)
		return ret;
	other = scst_dg_find_tgt(tg->dg, name);
	if (other) {
		pr_err("target %s is already in target group %s of %s\n", name,
		       other->tg->name, tg->dg->name);
		return -EEXIST;
	}
	if (tg->nr_tgts >= SCST_ALUA_MAX_TG_PORTS) {
		pr_err("target group %s has %u targets, the most it may have\n",
		       tg->name, tg->nr_tgts);
		return -ENOSPC;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->tg = tg;
	strscpy(t->name, name, sizeof(t->name));
	t->tgt = scst_dg_find_local_tgt(name);
	if (t->tgt) {
		ret = sysfs_create_link(&tg->kobj, &t->tgt->kobj, t->name);
		if (ret) {
			kfree(t);
			return ret;
		}
	} else {
		/* SCST: a target of another system, with its own id */
		ret = kobject_init_and_add(&t->kobj, &scst_tg_tgt_ktype,
					   &tg->kobj, "%s", t->name);
		if (ret) {
			kobject_put(&t->kobj);
			return ret;
		}
	}
	spin_lock_irqsave(&scst_alua_lock, flags);
	list_add_tail(&t->entry, &tg->tgt_list);
	tg->nr_tgts++;
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	return 0;
}

static int scst_tg_del_tgt(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_tg *tg = ctx;
	struct scst_tg_tgt *t;

	list_for_each_entry(t, &tg->tgt_list, entry) {
		if (!strcmp(t->name, line->argv[1])) {
			scst_tg_tgt_del(t);
			return 0;
		}
	}
	pr_err("target %s is not in target group %s\n", line->argv[1],
	       tg->name);
	return -ENOENT;
}

static const struct scst_mgmt_verb scst_tg_verbs[] = {
	{ "add", 1, false, "add TARGET", "add TARGET_NAME", scst_tg_add_tgt },
	{ "del", 1, false, "del TARGET", "del TARGET_NAME", scst_tg_del_tgt },
};

static const struct scst_mgmt_table scst_tg_mgmt = {
	.verbs = scst_tg_verbs,
	.n = ARRAY_SIZE(scst_tg_verbs),
	.what = "target group",
};

static int scst_tg_mgmt_handler(struct scst_mgmt_line *line, void *ctx)
{
	return scst_mgmt_run(&scst_tg_mgmt, NULL, line, ctx);
}

/* ---------------------------------------------------------------------- */
/* target_groups/<tg>/                                                    */

static struct scst_tg *scst_kobj_to_tg(struct kobject *kobj)
{
	return container_of(kobj, struct scst_tg, kobj);
}

static ssize_t scst_tg_mgmt_store(struct kobject *kobj,
				  struct kobj_attribute *attr,
				  const char *buf, size_t count)
{
	return scst_dg_locked_mgmt(buf, count, scst_tg_mgmt_handler,
				   scst_mgmt_max_positional(&scst_tg_mgmt),
				   scst_kobj_to_tg(kobj));
}

static ssize_t scst_tg_mgmt_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return scst_mgmt_help(buf, PAGE_SIZE, &scst_tg_mgmt);
}

static ssize_t scst_tg_group_id_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	u16 id = READ_ONCE(scst_kobj_to_tg(kobj)->group_id);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%u\n", id), true);
}

static ssize_t scst_tg_group_id_store(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count)
{
	struct scst_tg *tg = scst_kobj_to_tg(kobj), *other;
	unsigned long flags;
	u16 id;
	int ret = 0;

	if (kstrtou16(buf, 0, &id) || id == 0) {
		pr_err("%s/%s: group_id: '%.*s' is not in 1-65535\n",
		       tg->dg->name, tg->name, (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();	/* see scst_dg_locked_mgmt() */
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
	mutex_unlock(&scst_mutex);
	return ret ? ret : count;
}

static ssize_t scst_tg_preferred_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	bool pref = READ_ONCE(scst_kobj_to_tg(kobj)->preferred);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%d\n", pref), true);
}

static ssize_t scst_tg_preferred_store(struct kobject *kobj,
				       struct kobj_attribute *attr,
				       const char *buf, size_t count)
{
	struct scst_tg *tg = scst_kobj_to_tg(kobj);
	unsigned long flags;
	unsigned int v;

	if (kstrtouint(buf, 0, &v) || v > 1) {
		pr_err("%s/%s: preferred: '%.*s' is not 0 or 1\n",
		       tg->dg->name, tg->name, (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();
	spin_lock_irqsave(&scst_alua_lock, flags);
	if (tg->preferred != v) {
		WRITE_ONCE(tg->preferred, v);
		/* as SCST: it ends an initiator's STPG retries (scst_tg.c) */
		scst_dg_queue_ua(tg->dg, NULL);
	}
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	mutex_unlock(&scst_mutex);
	return count;
}

static ssize_t scst_tg_state_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	u8 st = READ_ONCE(scst_kobj_to_tg(kobj)->state);
	const char *name = scst_alua_state_name(st);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%s\n",
						    name ? name : "?"), true);
}

/* scst_alua_lock held. */
static void scst_tg_set_state(struct scst_tg *tg, u8 state, u8 status,
			      const struct scst_session *except)
{
	pr_info("ALUA state of %s/%s: %s -> %s%s\n", tg->dg->name, tg->name,
		scst_alua_state_name(tg->state), scst_alua_state_name(state),
		status == SCST_ALUA_STATUS_BY_STPG ? " (SET TARGET PORT GROUPS)" :
		"");
	WRITE_ONCE(tg->state, state);
	tg->status = status;
	scst_alua_changed();
	scst_dg_queue_ua(tg->dg, except);
}

static ssize_t scst_tg_state_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	struct scst_tg *tg = scst_kobj_to_tg(kobj);
	char word[16];
	size_t len = strcspn(buf, "\n");
	unsigned long flags;
	int st;

	st = -EINVAL;
	if (len < sizeof(word)) {
		memcpy(word, buf, len);
		word[len] = '\0';
		st = scst_alua_state_from_name(word);
	}
	if (st < 0) {
		pr_err("%s/%s: state: '%.*s' is not one of active, nonoptimized, standby, unavailable, offline, transitioning\n",
		       tg->dg->name, tg->name, (int)min_t(size_t, len, 64),
		       buf);
		return -EINVAL;
	}
	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();
	spin_lock_irqsave(&scst_alua_lock, flags);
	if (tg->state != st)
		scst_tg_set_state(tg, st, SCST_ALUA_STATUS_IMPLICIT, NULL);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	mutex_unlock(&scst_mutex);
	return count;
}

static struct kobj_attribute scst_tg_mgmt_attr =
	__ATTR(mgmt, 0644, scst_tg_mgmt_show, scst_tg_mgmt_store);
static struct kobj_attribute scst_tg_group_id_attr =
	__ATTR(group_id, 0644, scst_tg_group_id_show, scst_tg_group_id_store);
static struct kobj_attribute scst_tg_preferred_attr =
	__ATTR(preferred, 0644, scst_tg_preferred_show,
	       scst_tg_preferred_store);
static struct kobj_attribute scst_tg_state_attr =
	__ATTR(state, 0644, scst_tg_state_show, scst_tg_state_store);

static struct attribute *scst_tg_attrs[] = {
	&scst_tg_mgmt_attr.attr,
	&scst_tg_group_id_attr.attr,
	&scst_tg_preferred_attr.attr,
	&scst_tg_state_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(scst_tg);

static void scst_tg_release(struct kobject *kobj)
{
	kfree(scst_kobj_to_tg(kobj));
}

static const struct kobj_type scst_tg_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_tg_release,
	.default_groups = scst_tg_groups,
};

/* scst_mutex held. */
static void scst_tg_del(struct scst_tg *tg)
{
	struct scst_tg_tgt *t, *tmp;
	unsigned long flags;

	list_for_each_entry_safe(t, tmp, &tg->tgt_list, entry)
		scst_tg_tgt_del(t);
	spin_lock_irqsave(&scst_alua_lock, flags);
	list_del(&tg->entry);
	tg->dg->nr_tgs--;
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	kobject_del(&tg->kobj);
	kobject_put(&tg->kobj);
}

/* ---------------------------------------------------------------------- */
/* device_groups/<dg>/target_groups/ and devices/                         */

static struct scst_dg *scst_kobj_to_dg(struct kobject *kobj)
{
	return container_of(kobj, struct scst_dg, kobj);
}

static int scst_tgs_create(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dg *dg = ctx;
	const char *name = line->argv[1];
	unsigned long flags;
	struct scst_tg *tg;
	int ret;

	ret = scst_dg_check_name("target group", name);
	if (ret)
		return ret;
	if (scst_tg_find(dg, name)) {
		pr_err("target group %s already exists in %s\n", name,
		       dg->name);
		return -EEXIST;
	}
	if (dg->nr_tgs >= SCST_ALUA_MAX_TGS) {
		pr_err("device group %s has %u target groups, the most it may have\n",
		       dg->name, dg->nr_tgs);
		return -ENOSPC;
	}
	tg = kzalloc(sizeof(*tg), GFP_KERNEL);
	if (!tg)
		return -ENOMEM;
	tg->dg = dg;
	strscpy(tg->name, name, sizeof(tg->name));
	INIT_LIST_HEAD(&tg->tgt_list);
	tg->state = SCST_ALUA_ACTIVE;
	ret = kobject_init_and_add(&tg->kobj, &scst_tg_ktype, dg->tgs_kobj,
				   "%s", tg->name);
	if (ret) {
		kobject_put(&tg->kobj);
		return ret;
	}
	spin_lock_irqsave(&scst_alua_lock, flags);
	list_add_tail(&tg->entry, &dg->tg_list);
	dg->nr_tgs++;
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	return 0;
}

static int scst_tgs_del(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dg *dg = ctx;
	struct scst_tg *tg = scst_tg_find(dg, line->argv[1]);

	if (!tg) {
		pr_err("target group %s does not exist in %s\n",
		       line->argv[1], dg->name);
		return -ENOENT;
	}
	scst_tg_del(tg);
	return 0;
}

static const struct scst_mgmt_verb scst_tgs_verbs[] = {
	{ "create", 1, false, "create GROUP", "create GROUP_NAME",
	  scst_tgs_create },
	{ "del", 1, false, "del GROUP", "del GROUP_NAME", scst_tgs_del },
};

static const struct scst_mgmt_table scst_tgs_mgmt = {
	.verbs = scst_tgs_verbs,
	.n = ARRAY_SIZE(scst_tgs_verbs),
	.what = "target_groups",
};

static int scst_tgs_mgmt_handler(struct scst_mgmt_line *line, void *ctx)
{
	return scst_mgmt_run(&scst_tgs_mgmt, NULL, line, ctx);
}

static ssize_t scst_tgs_mgmt_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	return scst_dg_locked_mgmt(buf, count, scst_tgs_mgmt_handler,
				   scst_mgmt_max_positional(&scst_tgs_mgmt),
				   scst_kobj_to_dg(kobj->parent));
}

static ssize_t scst_tgs_mgmt_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return scst_mgmt_help(buf, PAGE_SIZE, &scst_tgs_mgmt);
}

static struct kobj_attribute scst_tgs_mgmt_attr =
	__ATTR(mgmt, 0644, scst_tgs_mgmt_show, scst_tgs_mgmt_store);

/* scst_mutex held. */
static void scst_dg_dev_del(struct scst_dg *dg, struct scst_dg_dev *dgd)
{
	unsigned long flags;

	spin_lock_irqsave(&scst_alua_lock, flags);
	list_del(&dgd->entry);
	WRITE_ONCE(dgd->dev->alua_dg, NULL);
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	sysfs_remove_link(dg->devices_kobj, dgd->dev->name);
	kfree(dgd);
}

static int scst_dg_devs_add(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dg *dg = ctx;
	struct scst_device *dev = scst_find_device(line->argv[1]);
	struct scst_dg_dev *dgd;
	unsigned long flags;
	int ret;

	if (!dev) {
		pr_err("device %s does not exist\n", line->argv[1]);
		return -ENOENT;
	}
	if (dev->alua_dg) {
		pr_err("device %s is already in device group %s\n", dev->name,
		       dev->alua_dg->name);
		return -EEXIST;
	}
	if (scst_dg_check_name("device", dev->name))
		return -EINVAL;
	dgd = kzalloc(sizeof(*dgd), GFP_KERNEL);
	if (!dgd)
		return -ENOMEM;
	dgd->dev = dev;
	ret = sysfs_create_link(dg->devices_kobj, &dev->kobj, dev->name);
	if (ret) {
		kfree(dgd);
		return ret;
	}
	spin_lock_irqsave(&scst_alua_lock, flags);
	list_add_tail(&dgd->entry, &dg->dev_list);
	WRITE_ONCE(dev->alua_dg, dg);
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	return 0;
}

static int scst_dg_devs_del(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dg *dg = ctx;
	struct scst_dg_dev *dgd;

	list_for_each_entry(dgd, &dg->dev_list, entry) {
		if (!strcmp(dgd->dev->name, line->argv[1])) {
			scst_dg_dev_del(dg, dgd);
			return 0;
		}
	}
	pr_err("device %s is not in device group %s\n", line->argv[1],
	       dg->name);
	return -ENOENT;
}

static const struct scst_mgmt_verb scst_dg_devs_verbs[] = {
	{ "add", 1, false, "add DEVICE", "add DEVICE_NAME", scst_dg_devs_add },
	{ "del", 1, false, "del DEVICE", "del DEVICE_NAME", scst_dg_devs_del },
};

static const struct scst_mgmt_table scst_dg_devs_mgmt = {
	.verbs = scst_dg_devs_verbs,
	.n = ARRAY_SIZE(scst_dg_devs_verbs),
	.what = "device group devices",
};

static int scst_dg_devs_mgmt_handler(struct scst_mgmt_line *line, void *ctx)
{
	return scst_mgmt_run(&scst_dg_devs_mgmt, NULL, line, ctx);
}

static ssize_t scst_dg_devs_mgmt_store(struct kobject *kobj,
				       struct kobj_attribute *attr,
				       const char *buf, size_t count)
{
	return scst_dg_locked_mgmt(buf, count, scst_dg_devs_mgmt_handler,
				   scst_mgmt_max_positional(&scst_dg_devs_mgmt),
				   scst_kobj_to_dg(kobj->parent));
}

static ssize_t scst_dg_devs_mgmt_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	return scst_mgmt_help(buf, PAGE_SIZE, &scst_dg_devs_mgmt);
}

static struct kobj_attribute scst_dg_devs_mgmt_attr =
	__ATTR(mgmt, 0644, scst_dg_devs_mgmt_show, scst_dg_devs_mgmt_store);

/* ---------------------------------------------------------------------- */
/* device_groups/                                                         */

static void scst_dg_release(struct kobject *kobj)
{
	kfree(scst_kobj_to_dg(kobj));
}

static const struct kobj_type scst_dg_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_dg_release,
};

/* scst_mutex held. Removes @dg with its groups and devices, frees it. */
static void scst_dg_del(struct scst_dg *dg)
{
	struct scst_dg_dev *dgd, *dtmp;
	struct scst_tg *tg, *tmp;
	unsigned long flags;

	list_for_each_entry_safe(dgd, dtmp, &dg->dev_list, entry)
		scst_dg_dev_del(dg, dgd);
	list_for_each_entry_safe(tg, tmp, &dg->tg_list, entry)
		scst_tg_del(tg);
	spin_lock_irqsave(&scst_alua_lock, flags);
	list_del(&dg->entry);
	scst_nr_dgs--;
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	kobject_put(dg->tgs_kobj);
	kobject_put(dg->devices_kobj);
	kobject_del(&dg->kobj);
	kobject_put(&dg->kobj);
}

static int scst_dgs_create(const struct scst_mgmt_line *line, void *ctx)
{
	const char *name = line->argv[1];
	unsigned long flags;
	struct scst_dg *dg;
	int ret;

	ret = scst_dg_check_name("device group", name);
	if (ret)
		return ret;
	if (scst_dg_find(name)) {
		pr_err("device group %s already exists\n", name);
		return -EEXIST;
	}
	if (scst_nr_dgs >= SCST_ALUA_MAX_DGS) {
		pr_err("there are %u device groups, the most there may be\n",
		       scst_nr_dgs);
		return -ENOSPC;
	}
	dg = kzalloc(sizeof(*dg), GFP_KERNEL);
	if (!dg)
		return -ENOMEM;
	strscpy(dg->name, name, sizeof(dg->name));
	INIT_LIST_HEAD(&dg->dev_list);
	INIT_LIST_HEAD(&dg->tg_list);
	ret = kobject_init_and_add(&dg->kobj, &scst_dg_ktype, scst_dgs_kobj,
				   "%s", dg->name);
	if (ret)
		goto put;
	ret = -ENOMEM;
	dg->devices_kobj = kobject_create_and_add("devices", &dg->kobj);
	if (!dg->devices_kobj)
		goto del;
	ret = sysfs_create_file(dg->devices_kobj, &scst_dg_devs_mgmt_attr.attr);
	if (ret)
		goto put_devices;
	ret = -ENOMEM;
	dg->tgs_kobj = kobject_create_and_add("target_groups", &dg->kobj);
	if (!dg->tgs_kobj)
		goto put_devices;
	ret = sysfs_create_file(dg->tgs_kobj, &scst_tgs_mgmt_attr.attr);
	if (ret)
		goto put_tgs;
	spin_lock_irqsave(&scst_alua_lock, flags);
	list_add_tail(&dg->entry, &scst_dg_list);
	scst_nr_dgs++;
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	return 0;

put_tgs:
	kobject_put(dg->tgs_kobj);
put_devices:
	kobject_put(dg->devices_kobj);
del:
	kobject_del(&dg->kobj);
put:
	kobject_put(&dg->kobj);
	return ret;
}

static int scst_dgs_del(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dg *dg = scst_dg_find(line->argv[1]);

	if (!dg) {
		pr_err("device group %s does not exist\n", line->argv[1]);
		return -ENOENT;
	}
	scst_dg_del(dg);
	return 0;
}

static const struct scst_mgmt_verb scst_dgs_verbs[] = {
	{ "create", 1, false, "create GROUP", "create GROUP_NAME",
	  scst_dgs_create },
	{ "del", 1, false, "del GROUP", "del GROUP_NAME", scst_dgs_del },
};

static const struct scst_mgmt_table scst_dgs_mgmt = {
	.verbs = scst_dgs_verbs,
	.n = ARRAY_SIZE(scst_dgs_verbs),
	.what = "device_groups",
};

static int scst_dgs_mgmt_handler(struct scst_mgmt_line *line, void *ctx)
{
	return scst_mgmt_run(&scst_dgs_mgmt, NULL, line, ctx);
}

static ssize_t scst_dgs_mgmt_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	return scst_dg_locked_mgmt(buf, count, scst_dgs_mgmt_handler,
				   scst_mgmt_max_positional(&scst_dgs_mgmt),
				   NULL);
}

static ssize_t scst_dgs_mgmt_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return scst_mgmt_help(buf, PAGE_SIZE, &scst_dgs_mgmt);
}

static struct kobj_attribute scst_dgs_mgmt_attr =
	__ATTR(mgmt, 0644, scst_dgs_mgmt_show, scst_dgs_mgmt_store);

int scst_dg_init(struct kobject *root)
{
	int ret;

	scst_dgs_kobj = kobject_create_and_add("device_groups", root);
	if (!scst_dgs_kobj)
		return -ENOMEM;
	ret = sysfs_create_file(scst_dgs_kobj, &scst_dgs_mgmt_attr.attr);
	if (ret) {
		kobject_put(scst_dgs_kobj);
		scst_dgs_kobj = NULL;
	}
	return ret;
}

/* Module unload: the devices and targets are gone already. */
void scst_dg_exit(void)
{
	struct scst_dg *dg, *tmp;

	mutex_lock(&scst_mutex);
	list_for_each_entry_safe(dg, tmp, &scst_dg_list, entry)
		scst_dg_del(dg);
	mutex_unlock(&scst_mutex);
	kobject_put(scst_dgs_kobj);
	scst_dgs_kobj = NULL;
}

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
			scst_dg_dev_del(dg, dgd);
			return;
		}
	}
}

/*
 * @old, a port of another system named as @tgt is, becomes @tgt's: the
 * directory with its rel_tgt_id makes way for the link to the target,
 * whose own rel_tgt_id is reported from now on. scst_mutex held.
 */
static void scst_tg_tgt_make_local(struct scst_tg_tgt *old,
				   struct scst_tgt *tgt)
{
	struct scst_tg *tg = old->tg;
	struct scst_tg_tgt *t;
	unsigned long flags;
	int ret = -ENOMEM;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		goto fail;
	t->tg = tg;
	strscpy(t->name, old->name, sizeof(t->name));
	t->tgt = tgt;
	kobject_del(&old->kobj);	/* its name is the link's */
	ret = sysfs_create_link(&tg->kobj, &tgt->kobj, t->name);
	if (ret) {
		kfree(t);
		spin_lock_irqsave(&scst_alua_lock, flags);
		list_del(&old->entry);
		tg->nr_tgts--;
		scst_alua_changed();
		spin_unlock_irqrestore(&scst_alua_lock, flags);
		kobject_put(&old->kobj);
		pr_err("target group %s/%s: cannot link target %s (error %d): it left the group\n",
		       tg->dg->name, tg->name, tgt->name, ret);
		return;
	}
	spin_lock_irqsave(&scst_alua_lock, flags);
	list_replace(&old->entry, &t->entry);
	scst_alua_changed();
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	kobject_put(&old->kobj);
	pr_info("target group %s/%s: target %s is a target of this system now\n",
		tg->dg->name, tg->name, tgt->name);
	return;
fail:
	pr_err("target group %s/%s: out of memory: target %s stays a port of another system\n",
	       tg->dg->name, tg->name, tgt->name);
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
					scst_tg_tgt_make_local(t, tgt);
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
				if (t->tgt == tgt)
					scst_tg_tgt_del(t);
}

/* ---------------------------------------------------------------------- */
/* The command side                                                       */

/* The state of the group of @tgt's port for @dev; scst_alua_lock. */
static u8 scst_alua_state_of(const struct scst_device *dev,
			     const struct scst_tgt *tgt)
{
	struct scst_tg *tg;

	if (!dev->alua_dg)
		return SCST_ALUA_ACTIVE;
	tg = scst_dg_tg_of(dev->alua_dg, tgt);
	return tg ? tg->state : SCST_ALUA_ACTIVE;
}

/**
 * scst_alua_check_cmd() - the ALUA admission of a command (SPC-4 5.16.2.4)
 * @cmd: a command to a device in a device group (dev->alua_dg set)
 *
 * Return: 0 when the state of the group of the port @cmd came through
 * admits it, else the sense code to end it with.
 */
u32 scst_alua_check_cmd(struct scst_cmd *cmd)
{
	struct scst_tgt_dev *td = cmd->tgt_dev;
	unsigned long flags;
	u8 st;

	/*
	 * The state is stored before its generation is released: seeing
	 * the current generation means seeing its state (or a newer one).
	 * The generation is a whole unsigned long, not packed with the
	 * state, so that it wraps only after 2^32 changes on 32-bit.
	 */
	if (smp_load_acquire(&td->alua_cache_gen) == READ_ONCE(scst_alua_gen)) {
		st = READ_ONCE(td->alua_cache_state);
	} else {
		spin_lock_irqsave(&scst_alua_lock, flags);
		st = scst_alua_state_of(cmd->dev, cmd->sess->tgt);
		WRITE_ONCE(td->alua_cache_state, st);
		/* pairs with the smp_load_acquire() above: state, then gen */
		smp_store_release(&td->alua_cache_gen, scst_alua_gen);
		spin_unlock_irqrestore(&scst_alua_lock, flags);
	}
	return scst_alua_admit(st, cmd->cdb, cmd->cdb_len);
}

/**
 * scst_alua_inq_info() - the ALUA fields of a command's INQUIRY data
 * @cmd: an INQUIRY
 * @tpgs: receives the TPGS field (SPC-4 6.6.2): for a device in a device
 *	group implicit, and explicit too with expl_alua (SCST_INQ_TPGS_BOTH);
 *	else none
 * @tpg_id: receives the TARGET PORT GROUP of the port @cmd came through
 *	(VPD page 83h, SPC-4 7.8.6.8), 0 when it is in no target group
 */
void scst_alua_inq_info(struct scst_cmd *cmd, u8 *tpgs, u16 *tpg_id)
{
	struct scst_device *dev = cmd->dev;
	unsigned long flags;
	struct scst_tg *tg;

	*tpgs = SCST_INQ_TPGS_NONE;
	*tpg_id = 0;
	if (!dev || !READ_ONCE(dev->alua_dg))
		return;
	spin_lock_irqsave(&scst_alua_lock, flags);
	if (dev->alua_dg) {
		*tpgs = READ_ONCE(dev->expl_alua) ? SCST_INQ_TPGS_BOTH :
						    SCST_INQ_TPGS_IMPLICIT;
		tg = scst_dg_tg_of(dev->alua_dg, cmd->sess->tgt);
		if (tg)
			*tpg_id = tg->group_id;
	}
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}
EXPORT_SYMBOL_GPL(scst_alua_inq_info);

/* scst_alua_lock held: the length of the RTPG data of @dg. */
static size_t scst_rtpg_len(const struct scst_dg *dg, u8 format)
{
	size_t len = format == SCST_RTPG_FMT_EXTENDED ?
		     SCST_RTPG_EXT_HDR_LEN : SCST_RTPG_HDR_LEN;
	struct scst_tg *tg;

	if (dg)
		list_for_each_entry(tg, &dg->tg_list, entry)
			len += SCST_RTPG_DESC_LEN +
			       tg->nr_tgts * SCST_RTPG_PORT_LEN;
	return len;
}

/* SPC-4 6.36: REPORT TARGET PORT GROUPS; the builder is scst_alua.c's. */
static void scst_alua_rtpg(struct scst_cmd *cmd)
{
	struct scst_alua_tpg g;
	struct scst_cdb_err err;
	struct scst_tg_tgt *t;
	unsigned long flags;
	struct scst_tg *tg;
	struct scst_dg *dg;
	size_t len, off;
	u16 *ids, id;
	u32 alloc;
	u8 fmt, *buf;

	if (scst_rtpg_check_cdb(cmd->cdb, cmd->cdb_len, &fmt, &alloc, &err)) {
		scst_set_cmd_error_from(cmd, &err);
		return;
	}
	spin_lock_irqsave(&scst_alua_lock, flags);
	len = scst_rtpg_len(cmd->dev->alua_dg, fmt);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	/*
	 * What is built, never more than the allocation length; no I/O to
	 * reclaim memory with, as vdisk's emulation buffers (GFP_NOIO).
	 */
	len = min_t(size_t, len, alloc);
	buf = kzalloc(max_t(size_t, len, 1), GFP_NOIO);
	ids = kmalloc_array(SCST_ALUA_MAX_TG_PORTS, sizeof(*ids), GFP_NOIO);
	if (!buf || !ids) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		goto free;
	}
	spin_lock_irqsave(&scst_alua_lock, flags);
	dg = cmd->dev->alua_dg;
	off = scst_rtpg_put_header(buf, len, fmt, 0);
	if (dg) {
		list_for_each_entry(tg, &dg->tg_list, entry) {
			g.group_id = tg->group_id;
			g.state = tg->state;
			g.preferred = tg->preferred;
			g.status = tg->status;
			g.nports = 0;
			list_for_each_entry(t, &tg->tgt_list, entry) {
				if (g.nports == SCST_ALUA_MAX_TG_PORTS)
					break;
				id = t->tgt ? READ_ONCE(t->tgt->rel_tgt_id) :
					      t->rel_tgt_id;
				/*
				 * 0 is reserved (SPC-4 7.8.6.7): a port of
				 * another system whose rel_tgt_id is not set
				 * yet is not reported
				 */
				if (id)
					ids[g.nports++] = id;
			}
			g.rel_tgt_ids = ids;
			off = scst_rtpg_put_group(buf, len, off, &g);
		}
	}
	scst_rtpg_finish(buf, len, off);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	scst_copy_to_sg(cmd, buf, min_t(size_t, off, len));
free:
	kfree(ids);
	kfree(buf);
}

/* SPC-4 6.44: SET TARGET PORT GROUPS, applied all or nothing. */
static void scst_alua_stpg(struct scst_cmd *cmd)
{
	struct scst_stpg_desc d[SCST_STPG_MAX_DESCS];
	struct scst_alua_tpg *groups = NULL;
	unsigned int n, ng, i;
	struct scst_cdb_err err;
	unsigned long flags;
	struct scst_tg *tg;
	struct scst_dg *dg;
	u8 *data = NULL;
	u32 len;

	if (!READ_ONCE(cmd->dev->expl_alua)) {
		/* TPGS 01b: SET TARGET PORT GROUPS is not supported */
		scst_cdb_err_set(&err, SCST_SENSE_INVALID_OPCODE, true, 0, -1);
		goto bad;
	}
	if (scst_stpg_check_cdb(cmd->cdb, cmd->cdb_len, &len, &err))
		goto bad;
	if (len == 0)
		return;	/* SPC-4 6.44: no data, no change */
	data = kmalloc(len, GFP_NOIO);
	groups = kmalloc_array(SCST_ALUA_MAX_TGS, sizeof(*groups), GFP_NOIO);
	if (!data || !groups) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		goto free;
	}
	if (scst_copy_from_sg(cmd, data, len) != len) {
		scst_cdb_err_set(&err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false,
				 -1, -1);
		goto bad;
	}
	if (scst_stpg_parse(data, len, d, ARRAY_SIZE(d), &n, &err))
		goto bad;

	spin_lock_irqsave(&scst_alua_lock, flags);
	dg = cmd->dev->alua_dg;
	if (!dg) {
		spin_unlock_irqrestore(&scst_alua_lock, flags);
		/* TPGS 00b: explicit ALUA is not supported (SPC-4 6.6.2) */
		scst_cdb_err_set(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true,
				 1, 4);
		goto bad;
	}
	ng = 0;
	list_for_each_entry(tg, &dg->tg_list, entry) {
		groups[ng].group_id = tg->group_id;
		groups[ng].state = tg->state;
		groups[ng].nports = 0;
		ng++;
	}
	if (scst_stpg_validate(d, n, groups, ng, &err)) {
		spin_unlock_irqrestore(&scst_alua_lock, flags);
		pr_warn_ratelimited("%s: SET TARGET PORT GROUPS for %s refused\n",
				    cmd->sess->sess_name, cmd->dev->name);
		goto bad;
	}
	for (i = 0; i < n; i++)
		list_for_each_entry(tg, &dg->tg_list, entry)
			if (tg->group_id == d[i].group_id &&
			    tg->state != d[i].state)
				scst_tg_set_state(tg, d[i].state,
						  SCST_ALUA_STATUS_BY_STPG,
						  cmd->sess);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	goto free;

bad:
	scst_set_cmd_error_from(cmd, &err);
free:
	kfree(groups);
	kfree(data);
}

/**
 * scst_alua_tpg_cmd() - whether a command is REPORT or SET TARGET PORT
 *	GROUPS
 * @cmd: the command
 */
bool scst_alua_tpg_cmd(const struct scst_cmd *cmd)
{
	return cmd->cdb_len > 1 &&
	       ((cmd->cdb[0] == SCST_OP_MAINTENANCE_IN &&
		 (cmd->cdb[1] & 0x1f) == SCST_MI_REPORT_TPGS) ||
		(cmd->cdb[0] == SCST_OP_MAINTENANCE_OUT &&
		 (cmd->cdb[1] & 0x1f) == SCST_MO_SET_TPGS));
}

/**
 * scst_alua_emulated() - whether the core answers a command as REPORT or
 *	SET TARGET PORT GROUPS
 * @cmd: the command
 *
 * For a device in a device group, whatever its handler; any other device's
 * handler has them (a pass-through device's own ALUA, vdisk's INVALID
 * COMMAND OPERATION CODE: TPGS is 00b).
 */
bool scst_alua_emulated(const struct scst_cmd *cmd)
{
	return scst_alua_tpg_cmd(cmd) && cmd->dev &&
	       READ_ONCE(cmd->dev->alua_dg);
}

/*
 * Executes a command scst_alua_tpg_cmd() is true for. The device may
 * have left its group since scst_alua_emulated(): RTPG then reports no
 * group, STPG is refused.
 */
void scst_alua_emulate(struct scst_cmd *cmd)
{
	if (cmd->cdb[0] == SCST_OP_MAINTENANCE_IN)
		scst_alua_rtpg(cmd);
	else
		scst_alua_stpg(cmd);
}
