// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_sysfs_dg.c - the sysfs view of the ALUA device groups (the model is
 * scst_dg.c), in SCST's layout:
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
 * A mgmt verb makes the model's object (scst_*_alloc()), then its entry
 * here, then publishes it; it unpublishes an object, then removes its
 * entry, which frees it. The model calls the ops at the end of this file
 * only when a device or target goes or comes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/sched/signal.h>

#include "scst_priv.h"
#include <scst_alua.h>

static struct kobject *scst_dgs_kobj;

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
	u16 id;

	if (kstrtou16(buf, 0, &id) || id == 0) {
		pr_err("%s: rel_tgt_id: '%.*s' is not in 1-65535\n", t->name,
		       (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	scst_tg_tgt_set_rel_tgt_id(t, id);
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

/* scst_mutex held. Removes the entry of the unpublished @t, frees @t. */
void scst_tg_tgt_remove(struct scst_tg_tgt *t)
{
	struct scst_tg *tg = t->tg;

	if (t->tgt) {
		sysfs_remove_link(&tg->kobj, t->name);
		kfree(t);
	} else {
		kobject_del(&t->kobj);
		kobject_put(&t->kobj);
	}
}

/* scst_mutex held. Unpublishes, removes and frees @t. */
static void scst_tg_tgt_del(struct scst_tg_tgt *t)
{
	scst_tg_tgt_unpublish(t);
	scst_tg_tgt_remove(t);
}

static int scst_tg_add_tgt(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_tg *tg = ctx;
	struct scst_tg_tgt *t;
	int ret;

	t = scst_tg_tgt_alloc(tg, line->argv[1]);
	if (IS_ERR(t))
		return PTR_ERR(t);
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
	scst_tg_tgt_publish(t);
	return 0;
}

static int scst_tg_del_tgt(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_tg *tg = ctx;
	struct scst_tg_tgt *t = scst_tg_tgt_find(tg, line->argv[1]);

	if (t) {
		scst_tg_tgt_del(t);
		return 0;
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

/*
 * @old, a port of another system named as @tgt is, becomes @tgt's: the
 * directory with its rel_tgt_id makes way for the link to the target,
 * whose own rel_tgt_id is reported from now on. scst_mutex held.
 */
void scst_tg_tgt_make_local(struct scst_tg_tgt *old, struct scst_tgt *tgt)
{
	struct scst_tg *tg = old->tg;
	struct scst_tg_tgt *t;
	int ret = -ENOMEM;

	t = scst_tg_tgt_new(tg, old->name, tgt);
	if (!t)
		goto fail;
	kobject_del(&old->kobj);	/* its name is the link's */
	ret = sysfs_create_link(&tg->kobj, &tgt->kobj, t->name);
	if (ret) {
		kfree(t);
		scst_tg_tgt_unpublish(old);
		kobject_put(&old->kobj);
		pr_err("target group %s/%s: cannot link target %s (error %d): it left the group\n",
		       tg->dg->name, tg->name, tgt->name, ret);
		return;
	}
	scst_tg_tgt_replace(old, t);
	kobject_put(&old->kobj);
	pr_info("target group %s/%s: target %s is a target of this system now\n",
		tg->dg->name, tg->name, tgt->name);
	return;
fail:
	pr_err("target group %s/%s: out of memory: target %s stays a port of another system\n",
	       tg->dg->name, tg->name, tgt->name);
}

/* ---------------------------------------------------------------------- */
/* target_groups/<tg>/                                                    */

static struct scst_tg *scst_kobj_to_tg(struct kobject *kobj)
{
	return container_of(kobj, struct scst_tg, kobj);
}

static void *scst_tg_mgmt_object(struct kobject *kobj)
{
	return scst_kobj_to_tg(kobj);
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
	struct scst_tg *tg = scst_kobj_to_tg(kobj);
	u16 id;
	int ret;

	if (kstrtou16(buf, 0, &id) || id == 0) {
		pr_err("%s/%s: group_id: '%.*s' is not in 1-65535\n",
		       tg->dg->name, tg->name, (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();	/* see scst_locked_mgmt() */
	ret = scst_tg_set_group_id(tg, id);
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
	unsigned int v;

	if (kstrtouint(buf, 0, &v) || v > 1) {
		pr_err("%s/%s: preferred: '%.*s' is not 0 or 1\n",
		       tg->dg->name, tg->name, (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();
	scst_tg_set_preferred(tg, v);
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

static ssize_t scst_tg_state_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	struct scst_tg *tg = scst_kobj_to_tg(kobj);
	char word[16];
	size_t len = strcspn(buf, "\n");
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
	scst_tg_change_state(tg, st);
	mutex_unlock(&scst_mutex);
	return count;
}

static struct scst_mgmt_attr scst_tg_mgmt_attr = {
	.kattr = SCST_MGMT_KATTR(scst_mgmt_attr_show),
	.table = &scst_tg_mgmt,
	.object = scst_tg_mgmt_object,
};

static struct kobj_attribute scst_tg_group_id_attr =
	__ATTR(group_id, 0644, scst_tg_group_id_show, scst_tg_group_id_store);
static struct kobj_attribute scst_tg_preferred_attr =
	__ATTR(preferred, 0644, scst_tg_preferred_show,
	       scst_tg_preferred_store);
static struct kobj_attribute scst_tg_state_attr =
	__ATTR(state, 0644, scst_tg_state_show, scst_tg_state_store);

static struct attribute *scst_tg_attrs[] = {
	&scst_tg_mgmt_attr.kattr.attr,
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

	list_for_each_entry_safe(t, tmp, &tg->tgt_list, entry)
		scst_tg_tgt_del(t);
	scst_tg_unpublish(tg);
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
	struct scst_tg *tg;
	int ret;

	tg = scst_tg_alloc(dg, line->argv[1]);
	if (IS_ERR(tg))
		return PTR_ERR(tg);
	ret = kobject_init_and_add(&tg->kobj, &scst_tg_ktype, dg->tgs_kobj,
				   "%s", tg->name);
	if (ret) {
		kobject_put(&tg->kobj);
		return ret;
	}
	scst_tg_publish(tg);
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

/* target_groups/ is a directory of the device group */
static void *scst_tgs_mgmt_object(struct kobject *kobj)
{
	return scst_kobj_to_dg(kobj->parent);
}

static struct scst_mgmt_attr scst_tgs_mgmt_attr = {
	.kattr = SCST_MGMT_KATTR(scst_mgmt_attr_show),
	.table = &scst_tgs_mgmt,
	.object = scst_tgs_mgmt_object,
};

/* scst_mutex held. Removes the link of the unpublished @dgd, frees it. */
void scst_dg_dev_unlink(struct scst_dg_dev *dgd)
{
	sysfs_remove_link(dgd->dg->devices_kobj, dgd->dev->name);
	kfree(dgd);
}

/* scst_mutex held. */
static void scst_dg_dev_del(struct scst_dg *dg, struct scst_dg_dev *dgd)
{
	scst_dg_dev_unpublish(dgd);
	scst_dg_dev_unlink(dgd);
}

static int scst_dg_devs_add(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dg *dg = ctx;
	struct scst_dg_dev *dgd;
	int ret;

	dgd = scst_dg_dev_alloc(dg, line->argv[1]);
	if (IS_ERR(dgd))
		return PTR_ERR(dgd);
	ret = sysfs_create_link(dg->devices_kobj, &dgd->dev->kobj,
				dgd->dev->name);
	if (ret) {
		kfree(dgd);
		return ret;
	}
	scst_dg_dev_publish(dg, dgd);
	return 0;
}

static int scst_dg_devs_del(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dg *dg = ctx;
	struct scst_dg_dev *dgd = scst_dg_dev_find(dg, line->argv[1]);

	if (dgd) {
		scst_dg_dev_del(dg, dgd);
		return 0;
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

/* devices/ is a directory of the device group */
static void *scst_dg_devs_mgmt_object(struct kobject *kobj)
{
	return scst_kobj_to_dg(kobj->parent);
}

static struct scst_mgmt_attr scst_dg_devs_mgmt_attr = {
	.kattr = SCST_MGMT_KATTR(scst_mgmt_attr_show),
	.table = &scst_dg_devs_mgmt,
	.object = scst_dg_devs_mgmt_object,
};

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

	list_for_each_entry_safe(dgd, dtmp, &dg->dev_list, entry)
		scst_dg_dev_del(dg, dgd);
	list_for_each_entry_safe(tg, tmp, &dg->tg_list, entry)
		scst_tg_del(tg);
	scst_dg_unpublish(dg);
	kobject_put(dg->tgs_kobj);
	kobject_put(dg->devices_kobj);
	kobject_del(&dg->kobj);
	kobject_put(&dg->kobj);
}

static int scst_dgs_create(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dg *dg;
	int ret;

	dg = scst_dg_alloc(line->argv[1]);
	if (IS_ERR(dg))
		return PTR_ERR(dg);
	ret = kobject_init_and_add(&dg->kobj, &scst_dg_ktype, scst_dgs_kobj,
				   "%s", dg->name);
	if (ret)
		goto put;
	ret = -ENOMEM;
	dg->devices_kobj = kobject_create_and_add("devices", &dg->kobj);
	if (!dg->devices_kobj)
		goto del;
	ret = sysfs_create_file(dg->devices_kobj, &scst_dg_devs_mgmt_attr.kattr.attr);
	if (ret)
		goto put_devices;
	ret = -ENOMEM;
	dg->tgs_kobj = kobject_create_and_add("target_groups", &dg->kobj);
	if (!dg->tgs_kobj)
		goto put_devices;
	ret = sysfs_create_file(dg->tgs_kobj, &scst_tgs_mgmt_attr.kattr.attr);
	if (ret)
		goto put_tgs;
	scst_dg_publish(dg);
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

static struct scst_mgmt_attr scst_dgs_mgmt_attr = {
	.kattr = SCST_MGMT_KATTR(scst_mgmt_attr_show),
	.table = &scst_dgs_mgmt,
};

int scst_sysfs_dg_init(struct kobject *root)
{
	int ret;

	scst_dgs_kobj = kobject_create_and_add("device_groups", root);
	if (!scst_dgs_kobj)
		return -ENOMEM;
	ret = sysfs_create_file(scst_dgs_kobj, &scst_dgs_mgmt_attr.kattr.attr);
	if (ret) {
		kobject_put(scst_dgs_kobj);
		scst_dgs_kobj = NULL;
		return ret;
	}
	return 0;
}

/* Module unload: the devices and targets are gone already. */
void scst_sysfs_dg_exit(void)
{
	struct scst_dg *dg;

	mutex_lock(&scst_mutex);
	while ((dg = scst_dg_first()))
		scst_dg_del(dg);
	mutex_unlock(&scst_mutex);
	kobject_put(scst_dgs_kobj);
	scst_dgs_kobj = NULL;
}
