// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_sysfs_tgt.c - targets/ in the management tree:
 *
 *   targets/<drv>/mgmt                      driver commands (add_target...)
 *   targets/<drv>/<tgt>/enabled, rel_tgt_id, cpu_mask, comment,
 *                       aen_disabled, io_grouping_type, SCST's I/O
 *                       counters (sums of the sessions')
 *   targets/<drv>/<tgt>/luns/mgmt           add DEV LUN [read_only=1] |
 *                                           del LUN | replace DEV LUN | clear
 *   targets/<drv>/<tgt>/luns/<lun>/device   link to devices/<dev>
 *   targets/<drv>/<tgt>/ini_groups/mgmt     create G | del G
 *   .../ini_groups/<G>/initiators/mgmt      add P | del P | move P G2 | clear
 *   .../ini_groups/<G>/luns/                as the target's luns/
 *   targets/<drv>/<tgt>/sessions/           see scst_sysfs_sess.c
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/kernfs.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/sched/signal.h>

#include "scst_priv.h"

static const struct kobj_type scst_tgt_ktype;
static const struct kobj_type scst_acg_ktype;

/* ---------------------------------------------------------------------- */
/* targets/<drv>/                                                         */

static void scst_tgtt_release(struct kobject *kobj)
{
	/* the template is static in the driver's module */
}

static struct scst_tgt_template *scst_kobj_to_tgtt(struct kobject *kobj)
{
	return container_of(kobj, struct scst_tgt_template, kobj);
}

static int scst_tgtt_add_target(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_tgt_template *tgtt = ctx;

	return tgtt->add_target(line->argv[1], line);
}

static int scst_tgtt_del_target(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_tgt_template *tgtt = ctx;

	return tgtt->del_target(line->argv[1]);
}

enum { SCST_TGTT_ADD_TARGET, SCST_TGTT_DEL_TARGET };

static const struct scst_mgmt_verb scst_tgtt_verbs[] = {
	[SCST_TGTT_ADD_TARGET] = { "add_target", 1, true,
				   "add_target NAME [k=v;...]",
				   "add_target NAME [parameters]",
				   scst_tgtt_add_target },
	[SCST_TGTT_DEL_TARGET] = { "del_target", 1, false, "del_target NAME",
				   "del_target NAME", scst_tgtt_del_target },
};

static const struct scst_mgmt_table scst_tgtt_mgmt = {
	.verbs = scst_tgtt_verbs,
	.n = ARRAY_SIZE(scst_tgtt_verbs),
	.what = NULL,
};

/*
 * add_target and del_target where the driver has them; any other command
 * (or those, where it has not) goes to the driver's own ->mgmt_cmd().
 */
static int scst_tgtt_mgmt_run(const struct scst_mgmt_table *t,
			      struct scst_mgmt_line *line, void *object)
{
	struct scst_tgt_template *tgtt = object;
	const struct scst_mgmt_verb *v;

	v = scst_mgmt_find_verb(t, line->argv[0]);
	if (v && (v - scst_tgtt_verbs == SCST_TGTT_ADD_TARGET ?
		  !!tgtt->add_target : !!tgtt->del_target))
		return scst_mgmt_call(v, tgtt->name, line, tgtt);
	if (tgtt->mgmt_cmd)
		return tgtt->mgmt_cmd(line);
	pr_err("%s: unknown mgmt command '%s'\n", tgtt->name, line->argv[0]);
	return -EINVAL;
}

static void *scst_tgtt_mgmt_object(struct kobject *kobj)
{
	return scst_kobj_to_tgtt(kobj);
}

static ssize_t scst_tgtt_mgmt_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct scst_tgt_template *tgtt = scst_kobj_to_tgtt(kobj);

	return sysfs_emit(buf, "%s\n", tgtt->mgmt_help ? tgtt->mgmt_help :
			  "This target driver takes no mgmt commands");
}

static struct scst_mgmt_attr scst_tgtt_mgmt_attr = {
	.kattr = SCST_MGMT_KATTR(scst_tgtt_mgmt_show),
	.table = &scst_tgtt_mgmt,
	.object = scst_tgtt_mgmt_object,
	.run = scst_tgtt_mgmt_run,
	/* the driver's own commands may take more words than ours */
	.max_positional = SCST_MGMT_MAX_ARGS,
	/* not under scst_mutex: the driver registers targets itself */
	.unlocked = true,
};

static struct attribute *scst_tgtt_attrs[] = {
	&scst_tgtt_mgmt_attr.kattr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(scst_tgtt);

static const struct kobj_type scst_tgtt_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_tgtt_release,
	.default_groups = scst_tgtt_groups,
};

int scst_sysfs_tgtt_add(struct scst_tgt_template *tgtt)
{
	int ret;

	memset(&tgtt->kobj, 0, sizeof(tgtt->kobj));
	ret = kobject_init_and_add(&tgtt->kobj, &scst_tgtt_ktype,
				   scst_targets_kobj, "%s", tgtt->name);
	if (ret)
		goto put;
	if (tgtt->tgtt_attrs) {
		ret = sysfs_create_files(&tgtt->kobj, tgtt->tgtt_attrs);
		if (ret)
			goto put;
	}
	return 0;
put:
	kobject_put(&tgtt->kobj);
	return ret;
}

void scst_sysfs_tgtt_del(struct scst_tgt_template *tgtt)
{
	kobject_del(&tgtt->kobj);
	kobject_put(&tgtt->kobj);
}

/* ---------------------------------------------------------------------- */
/* luns/ of a target or a group                                           */

/* The group a luns/ directory belongs to (the target's own, or a group). */
static struct scst_acg *scst_luns_kobj_to_acg(struct kobject *luns_kobj)
{
	struct kobject *parent = luns_kobj->parent;

	if (parent->ktype == &scst_tgt_ktype)
		return scst_kobj_to_tgt(parent)->default_acg;
	return container_of(parent, struct scst_acg, kobj);
}

static int scst_parse_lun(const char *s, u64 *lun)
{
	if (scst_mgmt_parse_u64(s, lun) || *lun > SCST_MAX_LUN) {
		pr_err("bad LUN '%s' (0-%u)\n", s, SCST_MAX_LUN);
		return -EINVAL;
	}
	return 0;
}

/* add DEVICE LUN [read_only=1], and replace: the same over a LUN in use */
static int scst_luns_add(const struct scst_mgmt_line *line, bool replace,
			 struct scst_acg *acg)
{
	static const char *const lun_params[] = { "read_only" };
	const char *cmd = line->argv[0], *bad, *ro;
	struct scst_device *dev;
	bool read_only = false;
	u64 lun;
	int ret;

	if (scst_mgmt_check_params(line, lun_params, 1, &bad)) {
		pr_err("%s: unknown parameter '%s'\n", cmd, bad);
		return -EINVAL;
	}
	ro = scst_mgmt_get_param(line, "read_only");
	if (ro && scst_mgmt_parse_bool(ro, &read_only)) {
		pr_err("%s: bad read_only value '%s'\n", cmd, ro);
		return -EINVAL;
	}
	ret = scst_parse_lun(line->argv[2], &lun);
	if (ret)
		return ret;
	dev = scst_find_device(line->argv[1]);
	if (!dev) {
		pr_err("%s: device '%s' does not exist\n", cmd, line->argv[1]);
		return -ENOENT;
	}
	return scst_acg_add_lun(acg, dev, lun, read_only, replace);
}

static int scst_luns_add_lun(const struct scst_mgmt_line *line, void *ctx)
{
	return scst_luns_add(line, false, ctx);
}

static int scst_luns_replace(const struct scst_mgmt_line *line, void *ctx)
{
	return scst_luns_add(line, true, ctx);
}

static int scst_luns_del(const struct scst_mgmt_line *line, void *ctx)
{
	u64 lun;
	int ret;

	ret = scst_parse_lun(line->argv[1], &lun);
	if (ret)
		return ret;
	return scst_acg_del_lun(ctx, lun, true);
}

static int scst_luns_clear(const struct scst_mgmt_line *line, void *ctx)
{
	scst_acg_clear_luns(ctx);
	return 0;
}

static const struct scst_mgmt_verb scst_luns_verbs[] = {
	{ "add", 2, true, "add DEVICE LUN [read_only=1]",
	  "add H:C:I:L|VNAME lun [parameters]", scst_luns_add_lun },
	{ "del", 1, false, "del LUN", "del lun", scst_luns_del },
	{ "replace", 2, true, "replace DEVICE LUN [read_only=1]",
	  "replace H:C:I:L|VNAME lun [parameters]", scst_luns_replace },
	{ "clear", 0, false, "clear", "clear", scst_luns_clear },
};

static const struct scst_mgmt_table scst_luns_mgmt = {
	.verbs = scst_luns_verbs,
	.n = ARRAY_SIZE(scst_luns_verbs),
	.what = "luns",
};

static int scst_luns_mgmt_run(const struct scst_mgmt_table *t,
			      struct scst_mgmt_line *line, void *object)
{
	struct scst_acg *acg = object;
	int ret;

	ret = scst_mgmt_run(t, NULL, line, acg);
	if (!ret)
		scst_tgt_reassign_sessions(acg->tgt);
	return ret;
}

static void *scst_luns_mgmt_object(struct kobject *kobj)
{
	return scst_luns_kobj_to_acg(kobj);
}

static struct scst_mgmt_attr scst_luns_mgmt_attr = {
	.kattr = SCST_MGMT_KATTR(scst_mgmt_attr_show),
	.table = &scst_luns_mgmt,
	.object = scst_luns_mgmt_object,
	.run = scst_luns_mgmt_run,
	.help_extra = "\nThe following parameters available: read_only\n",
};

/* ---------------------------------------------------------------------- */
/* luns/<lun>/                                                            */

static struct scst_acg_dev *scst_kobj_to_acg_dev(struct kobject *kobj)
{
	return container_of(kobj, struct scst_acg_dev, kobj);
}

static void scst_acg_dev_release(struct kobject *kobj)
{
	complete(&scst_kobj_to_acg_dev(kobj)->kobj_released);
}

static ssize_t scst_acg_dev_read_only_show(struct kobject *kobj,
					   struct kobj_attribute *attr,
					   char *buf)
{
	struct scst_acg_dev *ad = scst_kobj_to_acg_dev(kobj);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%d\n", ad->read_only),
				   ad->read_only);
}

static struct kobj_attribute scst_acg_dev_read_only_attr =
	__ATTR(read_only, 0444, scst_acg_dev_read_only_show, NULL);

static struct attribute *scst_acg_dev_attrs[] = {
	&scst_acg_dev_read_only_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(scst_acg_dev);

static const struct kobj_type scst_acg_dev_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_acg_dev_release,
	.default_groups = scst_acg_dev_groups,
};

static void scst_acg_dev_export_name(const struct scst_acg_dev *ad,
				     char *buf, size_t len)
{
	snprintf(buf, len, "export_%s_%s_%llu", ad->acg->tgt->name,
		 ad->acg->is_default ? "" : ad->acg->name, ad->lun);
}

/* Also makes the directory of a deleted @ad again (a failed replace). */
int scst_sysfs_acg_dev_add(struct scst_acg_dev *ad)
{
	char name[3 * SCST_MAX_NAME];
	int ret;

	memset(&ad->kobj, 0, sizeof(ad->kobj));
	reinit_completion(&ad->kobj_released);
	ret = kobject_init_and_add(&ad->kobj, &scst_acg_dev_ktype,
				   ad->acg->luns_kobj, "%llu", ad->lun);
	if (ret)
		goto put;
	ret = sysfs_create_link(&ad->kobj, &ad->dev->kobj, "device");
	if (ret)
		goto del;
	scst_acg_dev_export_name(ad, name, sizeof(name));
	ret = sysfs_create_link(ad->dev->exported_kobj, &ad->kobj, name);
	if (ret)
		goto remove_link;
	return 0;

remove_link:
	sysfs_remove_link(&ad->kobj, "device");
del:
	kobject_del(&ad->kobj);
put:
	kobject_put(&ad->kobj);
	wait_for_completion(&ad->kobj_released);
	return ret;
}

/*
 * Whether the export link of @ad (devices/<dev>/exported/export_T_G_L)
 * can be made: target and group names with '_' can name two LUNs alike
 * (rA_x's own LUN 5 and LUN 5 of group x_ of rA). Checked before a LUN
 * changes, so a refused add or replace leaves everything as it was, and
 * without sysfs's duplicate-name warning. @old is the LUN @ad replaces,
 * whose link goes first.
 */
int scst_sysfs_acg_dev_check(const struct scst_acg_dev *ad,
			     const struct scst_acg_dev *old)
{
	char name[3 * SCST_MAX_NAME];
	struct kernfs_node *kn;

	if (old && old->dev == ad->dev)
		return 0;
	scst_acg_dev_export_name(ad, name, sizeof(name));
	kn = kernfs_find_and_get(ad->dev->exported_kobj->sd, name);
	if (!kn)
		return 0;
	kernfs_put(kn);
	pr_err("LUN %llu of %s/%s: device %s is already exported as %s (another target or group of a similar name)\n",
	       ad->lun, ad->acg->tgt->name, ad->acg->name, ad->dev->name, name);
	return -EEXIST;
}

/* Removes the directory; @ad stays, for the model to free or add again. */
void scst_sysfs_acg_dev_del(struct scst_acg_dev *ad)
{
	char name[3 * SCST_MAX_NAME];

	scst_acg_dev_export_name(ad, name, sizeof(name));
	sysfs_remove_link(ad->dev->exported_kobj, name);
	sysfs_remove_link(&ad->kobj, "device");
	kobject_del(&ad->kobj);
	kobject_put(&ad->kobj);
	wait_for_completion(&ad->kobj_released);
}

/* ---------------------------------------------------------------------- */
/* ini_groups/ and ini_groups/<G>/                                        */

static struct scst_acg *scst_kobj_to_acg(struct kobject *kobj)
{
	return container_of(kobj, struct scst_acg, kobj);
}

static int scst_ini_groups_create(const struct scst_mgmt_line *line,
				  void *ctx)
{
	return scst_add_acg(ctx, line->argv[1]);
}

static int scst_ini_groups_del(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_tgt *tgt = ctx;
	struct scst_acg *acg = scst_find_acg(tgt, line->argv[1]);

	if (!acg) {
		pr_err("group %s does not exist in %s\n", line->argv[1],
		       tgt->name);
		return -ENOENT;
	}
	scst_del_acg(acg);
	scst_tgt_reassign_sessions(tgt);
	return 0;
}

static const struct scst_mgmt_verb scst_ini_groups_verbs[] = {
	{ "create", 1, false, "create GROUP | del GROUP", "create GROUP_NAME",
	  scst_ini_groups_create },
	{ "del", 1, false, "create GROUP | del GROUP", "del GROUP_NAME",
	  scst_ini_groups_del },
};

static const struct scst_mgmt_table scst_ini_groups_mgmt = {
	.verbs = scst_ini_groups_verbs,
	.n = ARRAY_SIZE(scst_ini_groups_verbs),
	.what = "ini_groups",
};

static int scst_ini_groups_mgmt_run(const struct scst_mgmt_table *t,
				    struct scst_mgmt_line *line, void *object)
{
	/* SCST's one usage line for both, whatever the command */
	if (line->argc != 2 || line->nparams) {
		pr_err("usage: create GROUP | del GROUP\n");
		return -EINVAL;
	}
	return scst_mgmt_run(t, NULL, line, object);
}

/* ini_groups/ is a directory of the target */
static void *scst_ini_groups_mgmt_object(struct kobject *kobj)
{
	return scst_kobj_to_tgt(kobj->parent);
}

static struct scst_mgmt_attr scst_ini_groups_mgmt_attr = {
	.kattr = SCST_MGMT_KATTR(scst_mgmt_attr_show),
	.table = &scst_ini_groups_mgmt,
	.object = scst_ini_groups_mgmt_object,
	.run = scst_ini_groups_mgmt_run,
};

static int scst_initiators_add(const struct scst_mgmt_line *line, void *ctx)
{
	return scst_acg_add_acn(ctx, line->argv[1]);
}

static int scst_initiators_del(const struct scst_mgmt_line *line, void *ctx)
{
	return scst_acg_del_acn(ctx, line->argv[1]);
}

static int scst_initiators_move(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_acg *acg = ctx, *to;
	int ret;

	to = scst_find_acg(acg->tgt, line->argv[2]);
	if (!to) {
		pr_err("move: group %s does not exist\n", line->argv[2]);
		return -ENOENT;
	}
	ret = scst_acg_del_acn(acg, line->argv[1]);
	if (!ret) {
		ret = scst_acg_add_acn(to, line->argv[1]);
		if (ret)	/* put it back where it was */
			scst_acg_add_acn(acg, line->argv[1]);
	}
	return ret;
}

static int scst_initiators_clear(const struct scst_mgmt_line *line,
				 void *ctx)
{
	scst_acg_clear_acns(ctx);
	return 0;
}

static const struct scst_mgmt_verb scst_initiators_verbs[] = {
	{ "add", 1, false, "add NAME", "add INITIATOR_NAME",
	  scst_initiators_add },
	{ "del", 1, false, "del NAME", "del INITIATOR_NAME",
	  scst_initiators_del },
	{ "move", 2, false, "move NAME GROUP",
	  "move INITIATOR_NAME DEST_GROUP_NAME", scst_initiators_move },
	{ "clear", 0, false, "clear", "clear", scst_initiators_clear },
};

static const struct scst_mgmt_table scst_initiators_mgmt = {
	.verbs = scst_initiators_verbs,
	.n = ARRAY_SIZE(scst_initiators_verbs),
	.what = "initiators",
};

/* One message for an unknown command and a wrong one, listing them all. */
static int scst_initiators_mgmt_run(const struct scst_mgmt_table *t,
				    struct scst_mgmt_line *line, void *object)
{
	const struct scst_mgmt_verb *v;
	struct scst_acg *acg = object;
	int ret;

	if (line->nparams) {
		pr_err("initiators mgmt takes no parameters ('%s')\n",
		       line->params[0].key);
		return -EINVAL;
	}
	v = scst_mgmt_find_verb(t, line->argv[0]);
	if (!v || !scst_mgmt_usage_ok(v, line)) {
		pr_err("bad initiators mgmt command '%s' (add NAME, del NAME, move NAME GROUP, clear)\n",
		       line->argv[0]);
		return -EINVAL;
	}
	ret = v->fn(line, acg);
	if (!ret)
		scst_tgt_reassign_sessions(acg->tgt);
	return ret;
}

/* initiators/ is a directory of the group */
static void *scst_initiators_mgmt_object(struct kobject *kobj)
{
	return scst_kobj_to_acg(kobj->parent);
}

static struct scst_mgmt_attr scst_initiators_mgmt_attr = {
	.kattr = SCST_MGMT_KATTR(scst_mgmt_attr_show),
	.table = &scst_initiators_mgmt,
	.object = scst_initiators_mgmt_object,
	.run = scst_initiators_mgmt_run,
};

static ssize_t scst_acn_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", attr->attr.name);
}

int scst_sysfs_acn_add(struct scst_acn *acn)
{
	if (strchr(acn->name, '/') || strcmp(acn->name, "mgmt") == 0) {
		pr_err("initiator name '%s' cannot be a file name\n",
		       acn->name);
		return -EINVAL;
	}
	sysfs_attr_init(&acn->attr.attr);
	acn->attr.attr.name = acn->name;
	acn->attr.attr.mode = 0444;
	acn->attr.show = scst_acn_show;
	return sysfs_create_file(acn->acg->initiators_kobj, &acn->attr.attr);
}

void scst_sysfs_acn_del(struct scst_acn *acn)
{
	sysfs_remove_file(acn->acg->initiators_kobj, &acn->attr.attr);
}

static ssize_t scst_cpu_mask_emit(const cpumask_t *mask, char *buf)
{
	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%*pb\n",
						    cpumask_pr_args(mask)),
				   !cpumask_full(mask));
}

static int scst_cpu_mask_parse(const char *buf, size_t count,
			       cpumask_t *mask)
{
	cpumask_var_t m;
	int ret;

	if (!alloc_cpumask_var(&m, GFP_KERNEL))
		return -ENOMEM;
	ret = cpumask_parse(buf, m);
	if (ret || cpumask_empty(m) ||
	    !cpumask_intersects(m, cpu_online_mask)) {
		pr_err("cpu_mask: '%.*s' is not a mask of online CPUs\n",
		       (int)strcspn(buf, "\n"), buf);
		ret = -EINVAL;
	} else {
		cpumask_copy(mask, m);
	}
	free_cpumask_var(m);
	return ret;
}

static ssize_t scst_acg_cpu_mask_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	return scst_cpu_mask_emit(&scst_kobj_to_acg(kobj)->cpu_mask, buf);
}

/* Set a cpu_mask and move the worker threads it governs. */
static ssize_t scst_cpu_mask_store(struct scst_tgt *tgt, cpumask_t *mask,
				   const char *buf, size_t count)
{
	int ret;

	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();	/* see scst_locked_mgmt() */
	ret = scst_cpu_mask_parse(buf, count, mask);
	if (!ret)
		scst_tgt_apply_cpu_mask(tgt);
	mutex_unlock(&scst_mutex);
	return ret ? ret : count;
}

static ssize_t scst_acg_cpu_mask_store(struct kobject *kobj,
				       struct kobj_attribute *attr,
				       const char *buf, size_t count)
{
	struct scst_acg *acg = scst_kobj_to_acg(kobj);

	return scst_cpu_mask_store(acg->tgt, &acg->cpu_mask, buf, count);
}

static struct kobj_attribute scst_acg_cpu_mask_attr =
	__ATTR(cpu_mask, 0644, scst_acg_cpu_mask_show, scst_acg_cpu_mask_store);

/*
 * io_grouping_type of a group (or, through the target's file, of its own
 * LUNs): which nexuses share a per-initiator thread pool of a device,
 * scst_io_grouping_key(). auto, the default, has no "[key]" line.
 */
static ssize_t scst_io_grouping_show(struct scst_acg *acg, char *buf)
{
	int type = READ_ONCE(acg->io_grouping_type);
	char v[24];

	scst_io_grouping_format(v, sizeof(v), type);
	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%s", v),
				   type != SCST_IO_GROUPING_AUTO);
}

static ssize_t scst_io_grouping_store(struct scst_acg *acg, const char *buf,
				      size_t count)
{
	int type;

	if (scst_io_grouping_parse(buf, count, &type)) {
		pr_err("%s%s%s: io_grouping_type '%.*s': expected auto, this_group_only, never or a group number 1-%d\n",
		       acg->tgt->name, acg->is_default ? "" : "/",
		       acg->is_default ? "" : acg->name,
		       (int)min_t(size_t, strcspn(buf, "\n"), 32), buf,
		       SCST_IO_GROUPING_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(acg->io_grouping_type, type);
	return count;
}

static ssize_t scst_acg_io_grouping_type_show(struct kobject *kobj,
					      struct kobj_attribute *attr,
					      char *buf)
{
	return scst_io_grouping_show(scst_kobj_to_acg(kobj), buf);
}

static ssize_t scst_acg_io_grouping_type_store(struct kobject *kobj,
					       struct kobj_attribute *attr,
					       const char *buf, size_t count)
{
	return scst_io_grouping_store(scst_kobj_to_acg(kobj), buf, count);
}

static struct kobj_attribute scst_acg_io_grouping_type_attr =
	__ATTR(io_grouping_type, 0644, scst_acg_io_grouping_type_show,
	       scst_acg_io_grouping_type_store);

/*
 * SCST attributes of targets and groups whose other values we do not
 * implement: each shows SCST's default, which is what we do, and refuses
 * any other value with -EINVAL and a line saying why, so that a
 * configuration that relies on one fails by name instead of running
 * without it.
 */
struct scst_fixed_attr {
	const char *name;
	const char *value;	/* SCST's default, the only one accepted */
	const char *why;
};

static const struct scst_fixed_attr scst_fixed_attrs[] = {
	{ "addr_method", "PERIPHERAL",
	  "LUNs are addressed peripheral below 256, flat above (SAM-5 4.7)" },
	{ "black_hole", "0",
	  "discarding an initiator's commands is not implemented" },
	{ "forward_src", "0", "command forwarding is not implemented" },
	{ "forward_dst", "0", "command forwarding is not implemented" },
	{ "forwarding", "0", "command forwarding is not implemented" },
};

static const struct scst_fixed_attr *scst_fixed_attr_of(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scst_fixed_attrs); i++)
		if (!strcmp(scst_fixed_attrs[i].name, name))
			return &scst_fixed_attrs[i];
	return NULL;
}

static ssize_t scst_fixed_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	const struct scst_fixed_attr *f = scst_fixed_attr_of(attr->attr.name);

	return sysfs_emit(buf, "%s\n", f ? f->value : "");
}

static ssize_t scst_fixed_store(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count)
{
	const struct scst_fixed_attr *f = scst_fixed_attr_of(attr->attr.name);
	size_t n = strcspn(buf, "\n");

	/* SCST compares addr_method without regard to case */
	if (f && n == strlen(f->value) && !strncasecmp(buf, f->value, n) &&
	    n + (buf[n] == '\n') == count)
		return count;
	pr_err("%s: '%.*s' refused: %s (only %s)\n", attr->attr.name,
	       (int)min_t(size_t, n, 32), buf, f ? f->why : "unknown",
	       f ? f->value : "");
	return -EINVAL;
}

#define SCST_FIXED_ATTR(_name)					\
	static struct kobj_attribute scst_fixed_##_name##_attr =	\
		__ATTR(_name, 0644, scst_fixed_show, scst_fixed_store)
SCST_FIXED_ATTR(addr_method);
SCST_FIXED_ATTR(black_hole);
SCST_FIXED_ATTR(forward_src);
SCST_FIXED_ATTR(forward_dst);
SCST_FIXED_ATTR(forwarding);

static struct attribute *scst_acg_attrs[] = {
	&scst_acg_cpu_mask_attr.attr,
	&scst_acg_io_grouping_type_attr.attr,
	&scst_fixed_addr_method_attr.attr,
	&scst_fixed_black_hole_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(scst_acg);

static void scst_acg_release(struct kobject *kobj)
{
	complete(&scst_kobj_to_acg(kobj)->kobj_released);
}

static const struct kobj_type scst_acg_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_acg_release,
	.default_groups = scst_acg_groups,
};

int scst_sysfs_acg_add(struct scst_acg *acg)
{
	int ret;

	ret = kobject_init_and_add(&acg->kobj, &scst_acg_ktype,
				   acg->tgt->ini_groups_kobj, "%s", acg->name);
	if (ret)
		goto put;
	ret = -ENOMEM;
	acg->luns_kobj = kobject_create_and_add("luns", &acg->kobj);
	if (!acg->luns_kobj)
		goto del;
	ret = sysfs_create_file(acg->luns_kobj, &scst_luns_mgmt_attr.kattr.attr);
	if (ret)
		goto put_luns;
	ret = -ENOMEM;
	acg->initiators_kobj = kobject_create_and_add("initiators",
						      &acg->kobj);
	if (!acg->initiators_kobj)
		goto put_luns;
	ret = sysfs_create_file(acg->initiators_kobj,
				&scst_initiators_mgmt_attr.kattr.attr);
	if (ret)
		goto put_initiators;
	return 0;

put_initiators:
	kobject_put(acg->initiators_kobj);
put_luns:
	kobject_put(acg->luns_kobj);
del:
	kobject_del(&acg->kobj);
put:
	kobject_put(&acg->kobj);
	wait_for_completion(&acg->kobj_released);
	return ret;
}

void scst_sysfs_acg_del(struct scst_acg *acg)
{
	kobject_put(acg->initiators_kobj);
	kobject_put(acg->luns_kobj);
	kobject_del(&acg->kobj);
	kobject_put(&acg->kobj);
	wait_for_completion(&acg->kobj_released);
}

/* ---------------------------------------------------------------------- */
/* targets/<drv>/<tgt>/                                                   */

static void scst_tgt_release(struct kobject *kobj)
{
	complete(&scst_kobj_to_tgt(kobj)->kobj_released);
}

static ssize_t scst_tgt_enabled_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	struct scst_tgt *tgt = scst_kobj_to_tgt(kobj);
	bool on = tgt->tgtt->is_target_enabled ?
		  tgt->tgtt->is_target_enabled(tgt) : true;

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%d\n", on), on);
}

static ssize_t scst_tgt_enabled_store(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count)
{
	struct scst_tgt *tgt = scst_kobj_to_tgt(kobj);
	bool on;
	int ret;

	ret = kstrtobool(buf, &on);
	if (ret) {
		pr_err("%s: enabled: '%.*s' is not 0 or 1\n", tgt->name,
		       (int)strcspn(buf, "\n"), buf);
		return ret;
	}
	ret = scst_tgt_set_enabled(tgt, on);
	if (ret) {
		pr_err("%s: %s failed: %d\n", tgt->name,
		       on ? "enable" : "disable", ret);
		return ret;
	}
	return count;
}

static ssize_t scst_tgt_rel_tgt_id_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	struct scst_tgt *tgt = scst_kobj_to_tgt(kobj);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%u\n",
						    tgt->rel_tgt_id), true);
}

static ssize_t scst_tgt_rel_tgt_id_store(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 const char *buf, size_t count)
{
	struct scst_tgt *tgt = scst_kobj_to_tgt(kobj), *t;
	struct scst_tgt_template *tgtt;
	u16 id;
	int ret;

	ret = kstrtou16(buf, 0, &id);
	if (ret || id == 0) {
		pr_err("%s: rel_tgt_id: '%.*s' is not in 1-65535\n", tgt->name,
		       (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();	/* see scst_locked_mgmt() */
	/*
	 * A session's I_T nexus carries the identifier it was created with
	 * (PR registrations, SPC-4 §5.9.2; REPORT TARGET PORT GROUPS): it
	 * changes only while the target has none, as in SCST, where it
	 * changes only while the target is disabled.
	 */
	if (!list_empty(&tgt->sess_list)) {
		pr_err("%s: rel_tgt_id cannot change while the target has sessions\n",
		       tgt->name);
		mutex_unlock(&scst_mutex);
		return -EBUSY;
	}
	list_for_each_entry(tgtt, &scst_template_list, list_entry) {
		list_for_each_entry(t, &tgtt->tgt_list, tgtt_entry) {
			if (t != tgt && t->rel_tgt_id == id) {
				pr_err("%s: rel_tgt_id %u is used by %s\n",
				       tgt->name, id, t->name);
				ret = -EEXIST;
			}
		}
	}
	if (!ret)
		tgt->rel_tgt_id = id;
	mutex_unlock(&scst_mutex);
	return ret ? ret : count;
}

static ssize_t scst_tgt_cpu_mask_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	return scst_cpu_mask_emit(&scst_kobj_to_tgt(kobj)->cpu_mask, buf);
}

static ssize_t scst_tgt_cpu_mask_store(struct kobject *kobj,
				       struct kobj_attribute *attr,
				       const char *buf, size_t count)
{
	struct scst_tgt *tgt = scst_kobj_to_tgt(kobj);

	return scst_cpu_mask_store(tgt, &tgt->cpu_mask, buf, count);
}

static struct kobj_attribute scst_tgt_enabled_attr =
	__ATTR(enabled, 0644, scst_tgt_enabled_show, scst_tgt_enabled_store);
static struct kobj_attribute scst_tgt_rel_tgt_id_attr =
	__ATTR(rel_tgt_id, 0644, scst_tgt_rel_tgt_id_show,
	       scst_tgt_rel_tgt_id_store);
static struct kobj_attribute scst_tgt_cpu_mask_attr =
	__ATTR(cpu_mask, 0644, scst_tgt_cpu_mask_show, scst_tgt_cpu_mask_store);

/*
 * comment: free text for the administrator, kept and shown as written
 * (one line, at most SCST_COMMENT_MAX_LEN bytes); empty without one (no
 * "[key]" line then), as in SCST; an empty write clears it.
 */
static ssize_t scst_tgt_comment_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	struct scst_tgt *tgt = scst_kobj_to_tgt(kobj);
	ssize_t n = 0;

	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();	/* see scst_locked_mgmt() */
	if (tgt->comment)
		n = scst_sysfs_emit_key(buf, sysfs_emit(buf, "%s\n",
							tgt->comment), true);
	mutex_unlock(&scst_mutex);
	return n;
}

static ssize_t scst_tgt_comment_store(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count)
{
	struct scst_tgt *tgt = scst_kobj_to_tgt(kobj);
	char *c = NULL, *old;
	size_t len;

	if (scst_comment_parse(buf, count, &len)) {
		pr_err("%s: comment refused: one line of at most %d printable bytes\n",
		       tgt->name, SCST_COMMENT_MAX_LEN);
		return -EINVAL;
	}
	if (len) {
		c = kmemdup_nul(buf, len, GFP_KERNEL);
		if (!c)
			return -ENOMEM;
	}
	if (!mutex_trylock(&scst_mutex)) {
		kfree(c);
		return restart_syscall();
	}
	old = tgt->comment;
	tgt->comment = c;
	mutex_unlock(&scst_mutex);
	kfree(old);
	return count;
}

/*
 * aen_disabled (SCST's): no asynchronous event notification for this
 * target. Our drivers send none (srpt could send SRP_AER_REQ, SRP r16a
 * 6.12, but does not; scst_local has no AEN path), so every event
 * reaches the initiator as a unit attention whatever the value; a driver
 * that adds AENs must test tgt->aen_disabled first.
 */
static ssize_t scst_tgt_aen_disabled_show(struct kobject *kobj,
					  struct kobj_attribute *attr,
					  char *buf)
{
	bool v = READ_ONCE(scst_kobj_to_tgt(kobj)->aen_disabled);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%d\n", v), v);
}

static ssize_t scst_tgt_aen_disabled_store(struct kobject *kobj,
					   struct kobj_attribute *attr,
					   const char *buf, size_t count)
{
	struct scst_tgt *tgt = scst_kobj_to_tgt(kobj);
	bool v;

	if (scst_bool01_parse(buf, count, &v)) {
		pr_err("%s: aen_disabled '%.*s': expected 0 or 1\n", tgt->name,
		       (int)min_t(size_t, strcspn(buf, "\n"), 32), buf);
		return -EINVAL;
	}
	WRITE_ONCE(tgt->aen_disabled, v);
	return count;
}

static ssize_t scst_tgt_io_grouping_type_show(struct kobject *kobj,
					      struct kobj_attribute *attr,
					      char *buf)
{
	return scst_io_grouping_show(scst_kobj_to_tgt(kobj)->default_acg, buf);
}

static ssize_t scst_tgt_io_grouping_type_store(struct kobject *kobj,
					       struct kobj_attribute *attr,
					       const char *buf, size_t count)
{
	return scst_io_grouping_store(scst_kobj_to_tgt(kobj)->default_acg, buf,
				      count);
}

/*
 * SCST's per-target I/O counters: the sums of its sessions' (sessions
 * that ended take theirs with them, as in SCST); read-only, reset through
 * the sessions' files.
 */
enum scst_io_stat {
	SCST_STAT_READ_CMDS, SCST_STAT_READ_KB, SCST_STAT_WRITE_CMDS,
	SCST_STAT_WRITE_KB, SCST_STAT_BIDI_CMDS, SCST_STAT_BIDI_KB,
	SCST_STAT_NONE_CMDS, SCST_STAT_UNKNOWN_CMDS, SCST_STAT_READ_UNALIGNED,
	SCST_STAT_WRITE_UNALIGNED, SCST_STAT_BIDI_UNALIGNED,
};

static u64 scst_sess_io_stat(struct scst_session *sess, int stat)
{
	switch (stat) {
	case SCST_STAT_READ_CMDS:
		return atomic64_read(&sess->read_cmds);
	case SCST_STAT_READ_KB:
		return atomic64_read(&sess->read_bytes) >> 10;
	case SCST_STAT_WRITE_CMDS:
		return atomic64_read(&sess->write_cmds);
	case SCST_STAT_WRITE_KB:
		return atomic64_read(&sess->write_bytes) >> 10;
	case SCST_STAT_BIDI_CMDS:
		return atomic64_read(&sess->bidi_cmds);
	case SCST_STAT_BIDI_KB:
		return atomic64_read(&sess->bidi_bytes) >> 10;
	case SCST_STAT_NONE_CMDS:
		return atomic64_read(&sess->none_cmds);
	case SCST_STAT_READ_UNALIGNED:
		return atomic64_read(&sess->read_unaligned);
	case SCST_STAT_WRITE_UNALIGNED:
		return atomic64_read(&sess->write_unaligned);
	case SCST_STAT_BIDI_UNALIGNED:
		return atomic64_read(&sess->bidi_unaligned);
	default:
		return atomic64_read(&sess->unknown_cmds);
	}
}

static ssize_t scst_tgt_io_stat_show(struct scst_tgt *tgt, int stat,
				     char *buf)
{
	struct scst_session *sess;
	u64 sum = 0;

	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();
	list_for_each_entry(sess, &tgt->sess_list, tgt_entry)
		sum += scst_sess_io_stat(sess, stat);
	mutex_unlock(&scst_mutex);
	return sysfs_emit(buf, "%llu\n", sum);
}

#define SCST_TGT_STAT_ATTR(_name, _stat)				\
static ssize_t scst_tgt_##_name##_show(struct kobject *kobj,		\
				       struct kobj_attribute *attr,	\
				       char *buf)			\
{									\
	return scst_tgt_io_stat_show(scst_kobj_to_tgt(kobj), _stat, buf); \
}									\
static struct kobj_attribute scst_tgt_##_name##_attr =			\
	__ATTR(_name, 0444, scst_tgt_##_name##_show, NULL)

SCST_TGT_STAT_ATTR(read_cmd_count, SCST_STAT_READ_CMDS);
SCST_TGT_STAT_ATTR(read_io_count_kb, SCST_STAT_READ_KB);
SCST_TGT_STAT_ATTR(write_cmd_count, SCST_STAT_WRITE_CMDS);
SCST_TGT_STAT_ATTR(write_io_count_kb, SCST_STAT_WRITE_KB);
SCST_TGT_STAT_ATTR(bidi_cmd_count, SCST_STAT_BIDI_CMDS);
SCST_TGT_STAT_ATTR(bidi_io_count_kb, SCST_STAT_BIDI_KB);
SCST_TGT_STAT_ATTR(none_cmd_count, SCST_STAT_NONE_CMDS);
SCST_TGT_STAT_ATTR(unknown_cmd_count, SCST_STAT_UNKNOWN_CMDS);
SCST_TGT_STAT_ATTR(read_unaligned_cmd_count, SCST_STAT_READ_UNALIGNED);
SCST_TGT_STAT_ATTR(write_unaligned_cmd_count, SCST_STAT_WRITE_UNALIGNED);
SCST_TGT_STAT_ATTR(bidi_unaligned_cmd_count, SCST_STAT_BIDI_UNALIGNED);

static struct kobj_attribute scst_tgt_comment_attr =
	__ATTR(comment, 0644, scst_tgt_comment_show, scst_tgt_comment_store);
static struct kobj_attribute scst_tgt_aen_disabled_attr =
	__ATTR(aen_disabled, 0644, scst_tgt_aen_disabled_show,
	       scst_tgt_aen_disabled_store);
static struct kobj_attribute scst_tgt_io_grouping_type_attr =
	__ATTR(io_grouping_type, 0644, scst_tgt_io_grouping_type_show,
	       scst_tgt_io_grouping_type_store);

static struct attribute *scst_tgt_attrs[] = {
	&scst_tgt_enabled_attr.attr,
	&scst_tgt_rel_tgt_id_attr.attr,
	&scst_tgt_cpu_mask_attr.attr,
	&scst_tgt_comment_attr.attr,
	&scst_tgt_aen_disabled_attr.attr,
	&scst_tgt_io_grouping_type_attr.attr,
	&scst_fixed_addr_method_attr.attr,
	&scst_fixed_black_hole_attr.attr,
	&scst_fixed_forward_src_attr.attr,
	&scst_fixed_forward_dst_attr.attr,
	&scst_fixed_forwarding_attr.attr,
	&scst_tgt_read_cmd_count_attr.attr,
	&scst_tgt_read_io_count_kb_attr.attr,
	&scst_tgt_write_cmd_count_attr.attr,
	&scst_tgt_write_io_count_kb_attr.attr,
	&scst_tgt_bidi_cmd_count_attr.attr,
	&scst_tgt_bidi_io_count_kb_attr.attr,
	&scst_tgt_none_cmd_count_attr.attr,
	&scst_tgt_unknown_cmd_count_attr.attr,
	&scst_tgt_read_unaligned_cmd_count_attr.attr,
	&scst_tgt_write_unaligned_cmd_count_attr.attr,
	&scst_tgt_bidi_unaligned_cmd_count_attr.attr,
	NULL,
};

/* As in SCST, "enabled" exists only for drivers that can enable targets. */
static umode_t scst_tgt_attr_visible(struct kobject *kobj,
				     struct attribute *attr, int n)
{
	if (attr == &scst_tgt_enabled_attr.attr &&
	    !scst_kobj_to_tgt(kobj)->tgtt->enable_target)
		return 0;
	return attr->mode;
}

static const struct attribute_group scst_tgt_group = {
	.attrs = scst_tgt_attrs,
	.is_visible = scst_tgt_attr_visible,
};

static const struct attribute_group *scst_tgt_groups[] = {
	&scst_tgt_group,
	NULL,
};

static const struct kobj_type scst_tgt_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_tgt_release,
	.default_groups = scst_tgt_groups,
};

int scst_sysfs_tgt_add(struct scst_tgt *tgt)
{
	int ret;

	ret = kobject_init_and_add(&tgt->kobj, &scst_tgt_ktype,
				   &tgt->tgtt->kobj, "%s", tgt->name);
	if (ret)
		goto put;
	ret = -ENOMEM;
	tgt->luns_kobj = kobject_create_and_add("luns", &tgt->kobj);
	if (!tgt->luns_kobj)
		goto del;
	tgt->default_acg->luns_kobj = tgt->luns_kobj;
	ret = sysfs_create_file(tgt->luns_kobj, &scst_luns_mgmt_attr.kattr.attr);
	if (ret)
		goto put_luns;
	ret = -ENOMEM;
	tgt->ini_groups_kobj = kobject_create_and_add("ini_groups",
						      &tgt->kobj);
	if (!tgt->ini_groups_kobj)
		goto put_luns;
	ret = sysfs_create_file(tgt->ini_groups_kobj,
				&scst_ini_groups_mgmt_attr.kattr.attr);
	if (ret)
		goto put_ini_groups;
	ret = -ENOMEM;
	tgt->sessions_kobj = kobject_create_and_add("sessions", &tgt->kobj);
	if (!tgt->sessions_kobj)
		goto put_ini_groups;
	if (tgt->tgtt->tgt_attrs) {
		ret = sysfs_create_files(&tgt->kobj, tgt->tgtt->tgt_attrs);
		if (ret)
			goto put_sessions;
	}
	return 0;

put_sessions:
	kobject_put(tgt->sessions_kobj);
put_ini_groups:
	kobject_put(tgt->ini_groups_kobj);
put_luns:
	kobject_put(tgt->luns_kobj);
del:
	kobject_del(&tgt->kobj);
put:
	kobject_put(&tgt->kobj);
	wait_for_completion(&tgt->kobj_released);
	return ret;
}

/* Removes the directory, and frees the comment its attribute kept. */
void scst_sysfs_tgt_del(struct scst_tgt *tgt)
{
	kobject_put(tgt->sessions_kobj);
	kobject_put(tgt->ini_groups_kobj);
	kobject_put(tgt->luns_kobj);
	kobject_del(&tgt->kobj);
	kobject_put(&tgt->kobj);
	wait_for_completion(&tgt->kobj_released);
	kfree(tgt->comment);
}
