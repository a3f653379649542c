// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_sysfs_sess.c - sessions in the management tree:
 *
 *   targets/<drv>/<tgt>/sessions/<sess>/
 *       initiator_name, active_commands, commands, read_cmd_count,
 *       write_cmd_count, read_io_count_kb, write_io_count_kb
 *       force_close          write 1: the target driver closes the session
 *       luns                 link to the luns/ of the group it matched
 *       lun<N>/active_commands, lun<N>/thread_pid
 *                            one per LUN of its LUN map (SCST's layout);
 *                            thread_pid only where a per-initiator pool
 *                            serves the nexus
 *
 * Locking: no attribute method here takes scst_mutex. The session's
 * directory and its lun<N>/ directories are removed under scst_mutex
 * (scst_finish_unregister_session(), scst_sess_update_map()), and a
 * removal waits for the methods running in them (kernfs active
 * references): a method that took scst_mutex could deadlock with it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>

#include "scst_priv.h"

/**
 * struct scst_sess_lun - sessions/<sess>/lun<N>/, one nexus of the map
 * @kobj: the directory
 * @entry: on sess->lun_dirs
 * @tgt_dev: the nexus; the LUN map holds it for as long as the directory
 *	exists (the directory goes before the map drops it)
 * @seen: mark of scst_sysfs_sess_sync_luns()
 */
struct scst_sess_lun {
	struct kobject kobj;
	struct list_head entry;
	struct scst_tgt_dev *tgt_dev;
	bool seen;
};

static struct scst_sess_lun *scst_kobj_to_sess_lun(struct kobject *kobj)
{
	return container_of(kobj, struct scst_sess_lun, kobj);
}

/* ---------------------------------------------------------------------- */
/* sessions/<sess>/lun<N>/                                                */

static void scst_sess_lun_release(struct kobject *kobj)
{
	kfree(scst_kobj_to_sess_lun(kobj));
}

/* Commands of the session in flight on this nexus. */
static ssize_t scst_sess_lun_active_commands_show(struct kobject *kobj,
						  struct kobj_attribute *attr,
						  char *buf)
{
	struct scst_tgt_dev *tgt_dev = scst_kobj_to_sess_lun(kobj)->tgt_dev;
	struct scst_session *sess = tgt_dev->sess;
	unsigned int n = 0;
	unsigned long flags;
	struct scst_cmd *cmd;

	spin_lock_irqsave(&sess->sess_lock, flags);
	list_for_each_entry(cmd, &sess->cmd_list, sess_entry)
		if (READ_ONCE(cmd->tgt_dev) == tgt_dev)
			n++;
	spin_unlock_irqrestore(&sess->sess_lock, flags);
	return sysfs_emit(buf, "%u\n", n);
}

static ssize_t scst_sess_lun_thread_pid_show(struct kobject *kobj,
					     struct kobj_attribute *attr,
					     char *buf)
{
	struct scst_pid_list pl = { .buf = buf };

	scst_tgt_dev_threads_each_pid(scst_kobj_to_sess_lun(kobj)->tgt_dev,
				      scst_pid_list_add, &pl);
	return pl.len + sysfs_emit_at(buf, pl.len, "\n");
}

static struct kobj_attribute scst_sess_lun_active_commands_attr =
	__ATTR(active_commands, 0444, scst_sess_lun_active_commands_show,
	       NULL);
static struct kobj_attribute scst_sess_lun_thread_pid_attr =
	__ATTR(thread_pid, 0444, scst_sess_lun_thread_pid_show, NULL);

static struct attribute *scst_sess_lun_attrs[] = {
	&scst_sess_lun_active_commands_attr.attr,
	&scst_sess_lun_thread_pid_attr.attr,
	NULL,
};

/*
 * thread_pid only where threads of this initiator serve the nexus, as in
 * SCST; a nexus keeps its pool for life (the pool type of a device cannot
 * change while sessions see it), so this is decided once.
 */
static umode_t scst_sess_lun_is_visible(struct kobject *kobj,
					struct attribute *attr, int n)
{
	if (attr == &scst_sess_lun_thread_pid_attr.attr &&
	    !scst_kobj_to_sess_lun(kobj)->tgt_dev->ini_pool)
		return 0;
	return attr->mode;
}

static const struct attribute_group scst_sess_lun_group = {
	.attrs = scst_sess_lun_attrs,
	.is_visible = scst_sess_lun_is_visible,
};

static const struct attribute_group *scst_sess_lun_groups[] = {
	&scst_sess_lun_group,
	NULL,
};

static const struct kobj_type scst_sess_lun_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_sess_lun_release,
	.default_groups = scst_sess_lun_groups,
};

static void scst_sess_lun_add(struct scst_session *sess,
			      struct scst_tgt_dev *tgt_dev)
{
	struct scst_sess_lun *sl;

	sl = kzalloc(sizeof(*sl), GFP_KERNEL);
	if (!sl)
		goto fail;
	sl->tgt_dev = tgt_dev;
	if (kobject_init_and_add(&sl->kobj, &scst_sess_lun_ktype, &sess->kobj,
				 "lun%llu", tgt_dev->lun)) {
		kobject_put(&sl->kobj);		/* frees @sl */
		goto fail;
	}
	sl->seen = true;
	tgt_dev->sysfs = sl;
	list_add_tail(&sl->entry, &sess->lun_dirs);
	return;

fail:
	/* the LUN works; only its statistics directory is missing */
	pr_warn("session %s: cannot make its lun%llu directory\n",
		sess->sess_name, tgt_dev->lun);
}

/* No method of the directory runs once this returns. */
static void scst_sess_lun_del(struct scst_sess_lun *sl)
{
	list_del(&sl->entry);
	sl->tgt_dev->sysfs = NULL;
	kobject_del(&sl->kobj);
	kobject_put(&sl->kobj);
}

/**
 * scst_sysfs_sess_sync_luns() - one lun<N>/ per nexus of the LUN map
 * @sess: the session, whose map was just published
 *
 * Under scst_mutex, before the nexuses the map dropped are released: a
 * directory goes before its nexus may be freed. A nexus that stays keeps
 * its directory (and readers their open files).
 */
void scst_sysfs_sess_sync_luns(struct scst_session *sess)
{
	struct scst_sess_lun *sl, *tmp;
	struct scst_lun_map *map;
	unsigned int i;

	lockdep_assert_held(&scst_mutex);
	map = rcu_dereference_protected(sess->lun_map,
					lockdep_is_held(&scst_mutex));
	list_for_each_entry(sl, &sess->lun_dirs, entry)
		sl->seen = false;
	for (i = 0; map && i < map->nr; i++)
		if (map->tgt_devs[i]->sysfs)
			map->tgt_devs[i]->sysfs->seen = true;
	/* first the ones that went: a new nexus may reuse the LUN's name */
	list_for_each_entry_safe(sl, tmp, &sess->lun_dirs, entry)
		if (!sl->seen)
			scst_sess_lun_del(sl);
	for (i = 0; map && i < map->nr; i++)
		if (!map->tgt_devs[i]->sysfs)
			scst_sess_lun_add(sess, map->tgt_devs[i]);
}

static void scst_sysfs_sess_del_luns(struct scst_session *sess)
{
	struct scst_sess_lun *sl, *tmp;

	list_for_each_entry_safe(sl, tmp, &sess->lun_dirs, entry)
		scst_sess_lun_del(sl);
}

/* ---------------------------------------------------------------------- */
/* sessions/<sess>/                                                       */

static void scst_sess_release(struct kobject *kobj)
{
	complete(&scst_kobj_to_sess(kobj)->kobj_released);
}

#define SCST_SESS_COUNTER_ATTR(fname, expr)				\
static ssize_t scst_sess_##fname##_show(struct kobject *kobj,		\
					struct kobj_attribute *attr,	\
					char *buf)			\
{									\
	struct scst_session *sess = scst_kobj_to_sess(kobj);		\
									\
	return sysfs_emit(buf, "%lld\n", (long long)(expr));		\
}									\
static struct kobj_attribute scst_sess_##fname##_attr =		\
	__ATTR(fname, 0444, scst_sess_##fname##_show, NULL)

SCST_SESS_COUNTER_ATTR(active_commands, atomic_read(&sess->active_cmds));
SCST_SESS_COUNTER_ATTR(commands, atomic64_read(&sess->commands));

/*
 * SCST's I/O counters of a session (scst_sess_count_io() counts): a
 * write of anything to one of a direction's files zeroes that
 * direction's command count and bytes, as SCST's do.
 */
static void scst_sess_io_reset(struct scst_session *sess,
			       enum scst_data_direction dir, bool unknown)
{
	if (unknown) {
		atomic64_set(&sess->unknown_cmds, 0);
		return;
	}
	switch (dir) {
	case SCST_DATA_READ:
		atomic64_set(&sess->read_cmds, 0);
		atomic64_set(&sess->read_bytes, 0);
		atomic64_set(&sess->read_unaligned, 0);
		break;
	case SCST_DATA_WRITE:
		atomic64_set(&sess->write_cmds, 0);
		atomic64_set(&sess->write_bytes, 0);
		atomic64_set(&sess->write_unaligned, 0);
		break;
	case SCST_DATA_BIDI:
		atomic64_set(&sess->bidi_cmds, 0);
		atomic64_set(&sess->bidi_bytes, 0);
		atomic64_set(&sess->bidi_unaligned, 0);
		break;
	default:
		atomic64_set(&sess->none_cmds, 0);
		break;
	}
}

#define SCST_SESS_IO_ATTR(fname, expr, dir, unknown)			\
static ssize_t scst_sess_##fname##_show(struct kobject *kobj,		\
					struct kobj_attribute *attr,	\
					char *buf)			\
{									\
	struct scst_session *sess = scst_kobj_to_sess(kobj);		\
									\
	return sysfs_emit(buf, "%lld\n", (long long)(expr));		\
}									\
static ssize_t scst_sess_##fname##_store(struct kobject *kobj,		\
					 struct kobj_attribute *attr,	\
					 const char *buf, size_t count)	\
{									\
	scst_sess_io_reset(scst_kobj_to_sess(kobj), (dir), (unknown));	\
	return count;							\
}									\
static struct kobj_attribute scst_sess_##fname##_attr =		\
	__ATTR(fname, 0644, scst_sess_##fname##_show,			\
	       scst_sess_##fname##_store)

SCST_SESS_IO_ATTR(read_cmd_count, atomic64_read(&sess->read_cmds),
		  SCST_DATA_READ, false);
SCST_SESS_IO_ATTR(read_io_count_kb, atomic64_read(&sess->read_bytes) >> 10,
		  SCST_DATA_READ, false);
SCST_SESS_IO_ATTR(write_cmd_count, atomic64_read(&sess->write_cmds),
		  SCST_DATA_WRITE, false);
SCST_SESS_IO_ATTR(write_io_count_kb, atomic64_read(&sess->write_bytes) >> 10,
		  SCST_DATA_WRITE, false);
SCST_SESS_IO_ATTR(bidi_cmd_count, atomic64_read(&sess->bidi_cmds),
		  SCST_DATA_BIDI, false);
SCST_SESS_IO_ATTR(bidi_io_count_kb, atomic64_read(&sess->bidi_bytes) >> 10,
		  SCST_DATA_BIDI, false);
SCST_SESS_IO_ATTR(read_unaligned_cmd_count,
		  atomic64_read(&sess->read_unaligned), SCST_DATA_READ, false);
SCST_SESS_IO_ATTR(write_unaligned_cmd_count,
		  atomic64_read(&sess->write_unaligned), SCST_DATA_WRITE, false);
SCST_SESS_IO_ATTR(bidi_unaligned_cmd_count,
		  atomic64_read(&sess->bidi_unaligned), SCST_DATA_BIDI, false);
SCST_SESS_IO_ATTR(none_cmd_count, atomic64_read(&sess->none_cmds),
		  SCST_DATA_NONE, false);
SCST_SESS_IO_ATTR(unknown_cmd_count, atomic64_read(&sess->unknown_cmds),
		  SCST_DATA_NONE, true);

/*
 * oldest_command_ms: how long the oldest command of the session has been
 * in the core, 0 without commands. A command the initiator never gets an
 * answer to shows here (the soak test fails on one older than 60 s).
 */
static ssize_t scst_sess_oldest_command_ms_show(struct kobject *kobj,
						struct kobj_attribute *attr,
						char *buf)
{
	struct scst_session *sess = scst_kobj_to_sess(kobj);
	unsigned long now = jiffies, age = 0, flags;
	struct scst_cmd *cmd;

	spin_lock_irqsave(&sess->sess_lock, flags);
	list_for_each_entry(cmd, &sess->cmd_list, sess_entry)
		age = max(age, now - cmd->rx_jiffies);
	spin_unlock_irqrestore(&sess->sess_lock, flags);
	return sysfs_emit(buf, "%u\n", jiffies_to_msecs(age));
}

static struct kobj_attribute scst_sess_oldest_command_ms_attr =
	__ATTR(oldest_command_ms, 0444, scst_sess_oldest_command_ms_show, NULL);

static ssize_t scst_sess_initiator_name_show(struct kobject *kobj,
					     struct kobj_attribute *attr,
					     char *buf)
{
	return sysfs_emit(buf, "%s\n", scst_kobj_to_sess(kobj)->initiator_name);
}

/*
 * force_close: "1" asks the target driver to close the session
 * (->close_session()), as SCST's attribute of that name does: an SRP
 * target disconnects the channel, after which the initiator may log in
 * again. Returns at once: the session ends in the driver's own time, and
 * its directory, this file included, goes with it; waiting here would
 * deadlock with that removal, which waits for this method to return.
 */
static ssize_t scst_sess_force_close_store(struct kobject *kobj,
					   struct kobj_attribute *attr,
					   const char *buf, size_t count)
{
	struct scst_session *sess = scst_kobj_to_sess(kobj);
	struct scst_tgt *tgt = sess->tgt;

	if (!sysfs_streq(buf, "1")) {
		pr_err("%s/%s session %s: force_close '%.*s': only 1 is accepted\n",
		       tgt->tgtt->name, tgt->name, sess->sess_name,
		       (int)min_t(size_t, strcspn(buf, "\n"), 32), buf);
		return -EINVAL;
	}
	if (!tgt->tgtt->close_session) {
		pr_err("%s/%s session %s: force_close: driver %s cannot close sessions\n",
		       tgt->tgtt->name, tgt->name, sess->sess_name,
		       tgt->tgtt->name);
		return -EOPNOTSUPP;
	}
	/* closing already: nothing more to ask for */
	if (READ_ONCE(sess->shutting_down))
		return count;
	pr_info("%s/%s session %s: force_close: closing it\n",
		tgt->tgtt->name, tgt->name, sess->sess_name);
	tgt->tgtt->close_session(sess);
	return count;
}

static struct kobj_attribute scst_sess_initiator_name_attr =
	__ATTR(initiator_name, 0444, scst_sess_initiator_name_show, NULL);
static struct kobj_attribute scst_sess_force_close_attr =
	__ATTR(force_close, 0200, NULL, scst_sess_force_close_store);

static struct attribute *scst_sess_attrs[] = {
	&scst_sess_initiator_name_attr.attr,
	&scst_sess_active_commands_attr.attr,
	&scst_sess_oldest_command_ms_attr.attr,
	&scst_sess_commands_attr.attr,
	&scst_sess_read_cmd_count_attr.attr,
	&scst_sess_write_cmd_count_attr.attr,
	&scst_sess_read_io_count_kb_attr.attr,
	&scst_sess_write_io_count_kb_attr.attr,
	&scst_sess_bidi_cmd_count_attr.attr,
	&scst_sess_bidi_io_count_kb_attr.attr,
	&scst_sess_none_cmd_count_attr.attr,
	&scst_sess_unknown_cmd_count_attr.attr,
	&scst_sess_read_unaligned_cmd_count_attr.attr,
	&scst_sess_write_unaligned_cmd_count_attr.attr,
	&scst_sess_bidi_unaligned_cmd_count_attr.attr,
	&scst_sess_force_close_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(scst_sess);

static const struct kobj_type scst_sess_ktype = {
	.sysfs_ops = &kobj_sysfs_ops,
	.release = scst_sess_release,
	.default_groups = scst_sess_groups,
};

/* sessions/<sess>/luns links to the luns/ of the group it matched. */
void scst_sysfs_sess_update_luns_link(struct scst_session *sess)
{
	sysfs_remove_link(&sess->kobj, "luns");
	if (sysfs_create_link(&sess->kobj, sess->acg->luns_kobj, "luns"))
		pr_warn("%s: cannot link its luns\n", sess->sess_name);
}

/* Under scst_mutex, after the session's first LUN map. */
int scst_sysfs_sess_add(struct scst_session *sess)
{
	struct scst_tgt *tgt = sess->tgt;
	int ret;

	INIT_LIST_HEAD(&sess->lun_dirs);
	ret = kobject_init_and_add(&sess->kobj, &scst_sess_ktype,
				   tgt->sessions_kobj, "%s", sess->sess_name);
	if (ret)
		goto put;
	ret = sysfs_create_link(&sess->kobj, sess->acg->luns_kobj, "luns");
	if (ret)
		goto del;
	if (tgt->tgtt->sess_attrs) {
		ret = sysfs_create_files(&sess->kobj, tgt->tgtt->sess_attrs);
		if (ret)
			goto remove_link;
	}
	ret = scst_lat_sysfs_add(sess);
	if (ret)
		goto remove_link;
	scst_sysfs_sess_sync_luns(sess);
	return 0;

remove_link:
	sysfs_remove_link(&sess->kobj, "luns");
del:
	kobject_del(&sess->kobj);
put:
	kobject_put(&sess->kobj);
	wait_for_completion(&sess->kobj_released);
	return ret;
}

/*
 * Removes the directory, under scst_mutex and before the LUN map goes; no
 * attribute method runs once this returns.
 */
void scst_sysfs_sess_del(struct scst_session *sess)
{
	scst_sysfs_sess_del_luns(sess);
	scst_lat_sysfs_del(sess);
	sysfs_remove_link(&sess->kobj, "luns");
	kobject_del(&sess->kobj);
}

/*
 * After scst_sysfs_sess_del(): drops the directory's own reference and
 * waits for the others' (scst_unregister_target()'s), before the model
 * frees @sess.
 */
void scst_sysfs_sess_release(struct scst_session *sess)
{
	kobject_put(&sess->kobj);
	wait_for_completion(&sess->kobj_released);
}
