// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_sysfs_dev.c - handlers/<handler>/ and devices/<device>/ in the
 * management tree.
 *
 *   handlers/<h>/mgmt       add_device NAME k=v;k=v  |  del_device NAME
 *   handlers/<h>/type       SCSI peripheral device type
 *   handlers/<h>/<dev>      link to devices/<dev>
 *   devices/<dev>/handler   link to handlers/<h>
 *   devices/<dev>/exported/ links to the LUNs that export the device
 *   devices/<dev>/type, threads_num, threads_pool_type, thread_pids
 *   devices/<dev>/pr_state  persistent reservations (scst_pr_state_show())
 *   devices/<dev>/pr_file_reset  discard an unreadable APTPL file's state
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>

#include "scst_priv.h"

static const char *scst_dev_type_name(int type)
{
	/* SPC-4 6.6.2 table 141 */
	switch (type) {
	case 0x00: return "Direct-access device (e.g., magnetic disk)";
	case 0x01: return "Sequential-access device (e.g., magnetic tape)";
	case 0x05: return "CD/DVD device";
	case 0x07: return "Optical memory device";
	case 0x08: return "Media changer device";
	default: return "Unknown";
	}
}

/* ---------------------------------------------------------------------- */
/* handlers/<h>/                                                          */

static struct scst_dev_type *scst_kobj_to_devt(struct kobject *kobj)
{
	return container_of(kobj, struct scst_dev_type, kobj);
}

static void scst_devt_release(struct kobject *kobj)
{
	/* the handler's struct is static in its module: nothing to free */
}

static unsigned int scst_count_params(const char *const *params)
{
	unsigned int n = 0;

	while (params && params[n])
		n++;
	return n;
}

static int scst_devt_add_device(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dev_type *dt = ctx;
	unsigned int nparams = scst_count_params(dt->add_device_parameters);
	const char *bad;

	if (!dt->add_device) {
		pr_err("%s: handler does not create devices\n", dt->name);
		return -EOPNOTSUPP;
	}
	if (scst_mgmt_check_params(line, dt->add_device_parameters, nparams,
				   &bad)) {
		pr_err("%s: add_device %s: unknown parameter '%s'\n", dt->name,
		       line->argv[1], bad);
		return -EINVAL;
	}
	return dt->add_device(line->argv[1], line);
}

static int scst_devt_del_device(const struct scst_mgmt_line *line, void *ctx)
{
	struct scst_dev_type *dt = ctx;

	if (!dt->del_device)
		return -EOPNOTSUPP;
	return dt->del_device(line->argv[1]);
}

static const struct scst_mgmt_verb scst_devt_verbs[] = {
	{ "add_device", 1, true, "add_device NAME [k=v;...]",
	  "add_device NAME [parameters]", scst_devt_add_device },
	{ "del_device", 1, false, "del_device NAME", "del_device NAME",
	  scst_devt_del_device },
};

static const struct scst_mgmt_table scst_devt_mgmt = {
	.verbs = scst_devt_verbs,
	.n = ARRAY_SIZE(scst_devt_verbs),
	.what = NULL,
};

/* The handler's name prefixes the messages. */
static int scst_devt_mgmt_run(const struct scst_mgmt_table *t,
			      struct scst_mgmt_line *line, void *object)
{
	struct scst_dev_type *dt = object;

	return scst_mgmt_run(t, dt->name, line, dt);
}

static void *scst_devt_mgmt_object(struct kobject *kobj)
{
	return scst_kobj_to_devt(kobj);
}

static ssize_t scst_devt_mgmt_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct scst_dev_type *dt = scst_kobj_to_devt(kobj);
	const char *const *p;
	ssize_t n;

	n = scst_mgmt_help(buf, PAGE_SIZE, &scst_devt_mgmt);
	if (dt->add_device_parameters) {
		n += sysfs_emit_at(buf, n,
				   "\nThe following parameters available:");
		for (p = dt->add_device_parameters; *p; p++)
			n += sysfs_emit_at(buf, n, " %s%s", *p, p[1] ? "," : "");
		n += sysfs_emit_at(buf, n, "\n");
	}
	return n;
}

static ssize_t scst_devt_type_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct scst_dev_type *dt = scst_kobj_to_devt(kobj);

	return sysfs_emit(buf, "%d - %s\n", dt->type,
			  scst_dev_type_name(dt->type));
}

static struct scst_mgmt_attr scst_devt_mgmt_attr = {
	.kattr = SCST_MGMT_KATTR(scst_devt_mgmt_show),
	.table = &scst_devt_mgmt,
	.object = scst_devt_mgmt_object,
	.run = scst_devt_mgmt_run,
	/*
	 * Not under scst_mutex: the handler's add/del_device register and
	 * unregister devices, which take it themselves.
	 */
	.unlocked = true,
};

static struct kobj_attribute scst_devt_type_attr =
	__ATTR(type, 0444, scst_devt_type_show, NULL);

static struct attribute *scst_devt_attrs[] = {
	&scst_devt_mgmt_attr.kattr.attr,
	&scst_devt_type_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(scst_devt);

static const struct kobj_type scst_devt_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_devt_release,
	.default_groups = scst_devt_groups,
};

int scst_sysfs_devt_add(struct scst_dev_type *dt)
{
	int ret;

	memset(&dt->kobj, 0, sizeof(dt->kobj));
	ret = kobject_init_and_add(&dt->kobj, &scst_devt_ktype,
				   scst_handlers_kobj, "%s", dt->name);
	if (ret)
		goto put;
	if (dt->devt_attrs) {
		ret = sysfs_create_files(&dt->kobj, dt->devt_attrs);
		if (ret)
			goto put;
	}
	return 0;
put:
	kobject_put(&dt->kobj);
	return ret;
}

void scst_sysfs_devt_del(struct scst_dev_type *dt)
{
	kobject_del(&dt->kobj);
	kobject_put(&dt->kobj);
}

/* ---------------------------------------------------------------------- */
/* devices/<dev>/                                                         */

static void scst_dev_release(struct kobject *kobj)
{
	complete(&scst_kobj_to_dev(kobj)->kobj_released);
}

static ssize_t scst_dev_type_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);

	return sysfs_emit(buf, "%d - %s\n", dev->handler->type,
			  scst_dev_type_name(dev->handler->type));
}

static ssize_t scst_dev_threads_num_show(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 char *buf)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	int def = dev->handler->exec_may_sleep ?
		  max(dev->handler->threads_num, 1) : 0;

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%d\n",
						    dev->threads_num),
				   dev->threads_num != def);
}

static ssize_t scst_dev_threads_num_store(struct kobject *kobj,
					  struct kobj_attribute *attr,
					  const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	int n, old, ret;

	ret = kstrtoint(buf, 0, &n);
	if (ret) {
		pr_err("%s: threads_num: '%.*s' is not a number\n", dev->name,
		       (int)count, buf);
		return ret;
	}
	mutex_lock(&dev->dev_mutex);
	old = dev->threads_num;
	ret = scst_dev_set_threads(dev, n, dev->threads_pool_type);
	mutex_unlock(&dev->dev_mutex);
	if (ret == -EBUSY || ret == -EINVAL) {
		pr_err("%s: threads_num %d refused (%s)\n", dev->name, n,
		       ret == -EBUSY ? "sessions use the device" :
		       "1-64; 0 for handlers that do not sleep");
		return ret;
	}
	if (ret) {
		pr_err("%s: threads_num %d: cannot start the threads (%d); it stays %d, its threads running\n",
		       dev->name, n, ret, old);
		return ret;
	}
	return count;
}

static const char *const scst_pool_type_names[] = {
	[SCST_THREADS_POOL_PER_INITIATOR] = "per_initiator",
	[SCST_THREADS_POOL_SHARED] = "shared",
};

static ssize_t scst_dev_threads_pool_type_show(struct kobject *kobj,
					       struct kobj_attribute *attr,
					       char *buf)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	enum scst_threads_pool_type t = dev->threads_pool_type;

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%s\n",
						    scst_pool_type_names[t]),
				   t != SCST_THREADS_POOL_PER_INITIATOR);
}

static ssize_t scst_dev_threads_pool_type_store(struct kobject *kobj,
						struct kobj_attribute *attr,
						const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	int t, ret;

	t = sysfs_match_string(scst_pool_type_names, buf);
	if (t < 0) {
		pr_err("%s: threads_pool_type '%.*s' is not per_initiator or shared\n",
		       dev->name, (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	mutex_lock(&dev->dev_mutex);
	ret = scst_dev_set_threads(dev, dev->threads_num, t);
	mutex_unlock(&dev->dev_mutex);
	if (ret == -EBUSY || ret == -EINVAL) {
		pr_err("%s: threads_pool_type refused (%s)\n", dev->name,
		       ret == -EBUSY ? "sessions use the device" :
		       "the handler does not use threads");
		return ret;
	}
	if (ret) {
		pr_err("%s: threads_pool_type %s: cannot start the threads (%d); the type before stays\n",
		       dev->name, scst_pool_type_names[t], ret);
		return ret;
	}
	return count;
}

/*
 * max_transfer_kb: the largest data buffer one command may ask for
 * (scst_cmd_max_transfer()); commands already received keep their buffer.
 */
static ssize_t scst_dev_max_transfer_kb_show(struct kobject *kobj,
					     struct kobj_attribute *attr,
					     char *buf)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	unsigned int kb = READ_ONCE(dev->max_transfer_kb);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%u\n", kb),
				   kb != SCST_MAX_XFER_KB_DEFAULT);
}

static ssize_t scst_dev_max_transfer_kb_store(struct kobject *kobj,
					      struct kobj_attribute *attr,
					      const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	unsigned int kb;

	if (kstrtouint(buf, 0, &kb) || kb < SCST_MAX_XFER_KB_MIN ||
	    kb > SCST_MAX_XFER_KB_MAX) {
		pr_err("%s: max_transfer_kb '%.*s' is not a number of KiB in %u-%u\n",
		       dev->name, (int)strcspn(buf, "\n"), buf,
		       SCST_MAX_XFER_KB_MIN, SCST_MAX_XFER_KB_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(dev->max_transfer_kb, kb);
	return count;
}

/*
 * tst: the control mode page's TST (SPC-4 7.5.8), which also decides the
 * reach of CLEAR TASK SET (scst_tmf_reach()): 0 one task set shared by
 * every I_T nexus, 1 one per I_T nexus. The handler's default
 * (vdisk: 1, as SCST's DEF_TST) has no "[key]" line. Commands already
 * in the task set are not moved; the next MODE SENSE and TMF see it.
 */
static ssize_t scst_dev_tst_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	u8 tst = READ_ONCE(dev->tst);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%u\n", tst),
				   tst != dev->tst_default);
}

static ssize_t scst_dev_tst_store(struct kobject *kobj,
				  struct kobj_attribute *attr,
				  const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	u8 tst;

	if (scst_tst_parse(buf, count, &tst)) {
		pr_err("%s: tst '%.*s': expected 0 (one task set) or 1 (one per I_T nexus)\n",
		       dev->name, (int)min_t(size_t, strcspn(buf, "\n"), 32),
		       buf);
		return -EINVAL;
	}
	WRITE_ONCE(dev->tst, tst);
	return count;
}

/*
 * expl_alua (SCST's name, default 0): whether a device in a device group
 * supports explicit ALUA, SET TARGET PORT GROUPS (SPC-4 5.16.2.3), as
 * well as implicit. A change raises INQUIRY DATA HAS CHANGED, as TPGS in
 * the standard INQUIRY data changes with it.
 */
static ssize_t scst_dev_expl_alua_show(struct kobject *kobj,
				       struct kobj_attribute *attr, char *buf)
{
	bool on = READ_ONCE(scst_kobj_to_dev(kobj)->expl_alua);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%d\n", on), on);
}

static ssize_t scst_dev_expl_alua_store(struct kobject *kobj,
					struct kobj_attribute *attr,
					const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	bool on;

	if (scst_bool01_parse(buf, count, &on)) {
		pr_err("%s: expl_alua '%.*s': expected 0 (implicit ALUA only) or 1 (implicit and explicit)\n",
		       dev->name, (int)min_t(size_t, strcspn(buf, "\n"), 32),
		       buf);
		return -EINVAL;
	}
	if (xchg(&dev->expl_alua, on) != on)
		scst_dev_inquiry_data_changed(dev);
	return count;
}

/* one PID of a thread_pid file, space-separated (struct scst_pid_list) */
void scst_pid_list_add(pid_t pid, void *ctx)
{
	struct scst_pid_list *pl = ctx;

	pl->len += sysfs_emit_at(pl->buf, pl->len, "%s%d",
				 pl->len ? " " : "", pid);
}

static ssize_t scst_dev_thread_pids_show(struct kobject *kobj,
					 struct kobj_attribute *attr, char *buf)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	struct scst_pid_list pl = { .buf = buf };

	mutex_lock(&dev->dev_mutex);
	scst_dev_threads_each_pid(dev, scst_pid_list_add, &pl);
	mutex_unlock(&dev->dev_mutex);
	return pl.len + sysfs_emit_at(buf, pl.len, "\n");
}

static ssize_t scst_dev_pr_state_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	return scst_pr_dev_show(scst_kobj_to_dev(kobj), buf);
}

/*
 * pr_file_reset: "1" discards a persistent reservation state that is
 * unknown because the APTPL file could not be read (scst_pr_file_reset()).
 */
static ssize_t scst_dev_pr_file_reset_store(struct kobject *kobj,
					    struct kobj_attribute *attr,
					    const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	int ret;

	if (!sysfs_streq(buf, "1")) {
		pr_err("%s: pr_file_reset: '%.*s' is not 1\n", dev->name,
		       (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	ret = scst_pr_file_reset(dev);
	return ret ? ret : count;
}

static struct kobj_attribute scst_dev_type_attr =
	__ATTR(type, 0444, scst_dev_type_show, NULL);
static struct kobj_attribute scst_dev_pr_state_attr =
	__ATTR(pr_state, 0444, scst_dev_pr_state_show, NULL);
static struct kobj_attribute scst_dev_pr_file_reset_attr =
	__ATTR(pr_file_reset, 0200, NULL, scst_dev_pr_file_reset_store);
static struct kobj_attribute scst_dev_threads_num_attr =
	__ATTR(threads_num, 0644, scst_dev_threads_num_show,
	       scst_dev_threads_num_store);
static struct kobj_attribute scst_dev_threads_pool_type_attr =
	__ATTR(threads_pool_type, 0644, scst_dev_threads_pool_type_show,
	       scst_dev_threads_pool_type_store);
static struct kobj_attribute scst_dev_thread_pids_attr =
	__ATTR(thread_pids, 0444, scst_dev_thread_pids_show, NULL);
static struct kobj_attribute scst_dev_max_transfer_kb_attr =
	__ATTR(max_transfer_kb, 0644, scst_dev_max_transfer_kb_show,
	       scst_dev_max_transfer_kb_store);
static struct kobj_attribute scst_dev_expl_alua_attr =
	__ATTR(expl_alua, 0644, scst_dev_expl_alua_show,
	       scst_dev_expl_alua_store);
static struct kobj_attribute scst_dev_tst_attr =
	__ATTR(tst, 0644, scst_dev_tst_show, scst_dev_tst_store);

static struct attribute *scst_dev_attrs[] = {
	&scst_dev_type_attr.attr,
	&scst_dev_threads_num_attr.attr,
	&scst_dev_threads_pool_type_attr.attr,
	&scst_dev_thread_pids_attr.attr,
	&scst_dev_max_transfer_kb_attr.attr,
	&scst_dev_tst_attr.attr,
	&scst_dev_expl_alua_attr.attr,
	&scst_dev_pr_state_attr.attr,
	&scst_dev_pr_file_reset_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(scst_dev);

static const struct kobj_type scst_dev_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_dev_release,
	.default_groups = scst_dev_groups,
};

int scst_sysfs_dev_add(struct scst_device *dev)
{
	struct scst_dev_type *dt = dev->handler;
	int ret;

	ret = kobject_init_and_add(&dev->kobj, &scst_dev_ktype,
				   scst_devices_kobj, "%s", dev->name);
	if (ret)
		goto put;
	dev->exported_kobj = kobject_create_and_add("exported", &dev->kobj);
	if (!dev->exported_kobj) {
		ret = -ENOMEM;
		goto del;
	}
	ret = sysfs_create_link(&dev->kobj, &dt->kobj, "handler");
	if (ret)
		goto put_exported;
	ret = sysfs_create_link(&dt->kobj, &dev->kobj, dev->name);
	if (ret)
		goto remove_handler_link;
	if (dt->dev_attrs) {
		ret = sysfs_create_files(&dev->kobj, dt->dev_attrs);
		if (ret)
			goto remove_dev_link;
	}
	return 0;

remove_dev_link:
	sysfs_remove_link(&dt->kobj, dev->name);
remove_handler_link:
	sysfs_remove_link(&dev->kobj, "handler");
put_exported:
	kobject_put(dev->exported_kobj);
del:
	kobject_del(&dev->kobj);
put:
	kobject_put(&dev->kobj);
	wait_for_completion(&dev->kobj_released);
	return ret;
}

void scst_sysfs_dev_del(struct scst_device *dev)
{
	sysfs_remove_link(&dev->handler->kobj, dev->name);
	sysfs_remove_link(&dev->kobj, "handler");
	kobject_put(dev->exported_kobj);
	kobject_del(&dev->kobj);
	kobject_put(&dev->kobj);
	wait_for_completion(&dev->kobj_released);
}
