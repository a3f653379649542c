// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_sysfs_root.c - the root of the management tree, /sys/kernel/scst_tgt,
 * the handling of "mgmt" files shared by the whole tree, and the view ops
 * through which the model (scst_registry.c, scst_tgt.c) has its objects
 * shown: the model sits below this layer and never calls its files.
 *
 * The layout and attribute names follow SCST's, so that scstadmin and the
 * administrators' scripts written for SCST keep working. Unlike SCST, a
 * rejected mgmt command fails the write with the fitting errno (not always
 * EIO) and logs one line naming the bad token; last_sysfs_mgmt_res holds
 * the result of the last command either way.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/sched/signal.h>

#include "scst_priv.h"

struct kobject *scst_root_kobj;
struct kobject *scst_targets_kobj;
struct kobject *scst_devices_kobj;
struct kobject *scst_handlers_kobj;
int scst_last_mgmt_res;
unsigned int scst_setup_id;

/**
 * scst_mgmt_write() - run one line written to a mgmt file
 * @buf: what was written
 * @count: its length
 * @handler: executes the parsed line
 * @max_positional: positional words the command takes at most
 * @ctx: passed to @handler
 *
 * Return: @count, or the negative errno of a bad line or of @handler.
 */
static int scst_mgmt_write(const char *buf, size_t count,
			   int (*handler)(struct scst_mgmt_line *line, void *ctx),
			   unsigned int max_positional, void *ctx)
{
	struct scst_mgmt_line *line;
	const char *bad = NULL;
	char *copy;
	int ret;

	if (count > SCST_MGMT_MAX_LINE) {
		pr_err("mgmt command longer than %d bytes\n",
		       SCST_MGMT_MAX_LINE);
		ret = -EINVAL;
		goto out;
	}
	copy = kmemdup_nul(buf, count, GFP_KERNEL);
	line = kzalloc(sizeof(*line), GFP_KERNEL);
	if (!copy || !line) {
		ret = -ENOMEM;
		goto free;
	}
	ret = scst_mgmt_parse(copy, count, max_positional, line, &bad);
	if (ret) {
		pr_err("bad mgmt command at '%s': %s\n", bad ? bad : "",
		       line->err_reason ? line->err_reason : "syntax error");
		goto free;
	}
	ret = handler(line, ctx);
free:
	kfree(line);
	kfree(copy);
out:
	WRITE_ONCE(scst_last_mgmt_res, ret);
	return ret ? ret : (int)count;
}

/**
 * scst_locked_mgmt() - scst_mgmt_write() under scst_mutex
 * @buf: what was written
 * @count: its length
 * @handler: executes the parsed line, scst_mutex held
 * @max_positional: positional words the command takes at most
 * @ctx: passed to @handler
 *
 * For the mgmt files whose commands change the configuration, and the
 * reason their stores and other writes that take scst_mutex only try it.
 *
 * Return: as scst_mgmt_write(), or a restart of the write while
 * scst_mutex is held.
 */
static int scst_locked_mgmt(const char *buf, size_t count,
			    int (*handler)(struct scst_mgmt_line *, void *),
			    unsigned int max_positional, void *ctx)
{
	int ret;

	/*
	 * Removing a directory waits for the writers of its files; a writer
	 * blocked on scst_mutex, held by the remover, would never finish.
	 * Restarting the write drops the writer's hold on the file.
	 */
	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();
	ret = scst_mgmt_write(buf, count, handler, max_positional, ctx);
	mutex_unlock(&scst_mutex);
	return ret;
}

/**
 * scst_mgmt_call() - run one row of a mgmt file's table
 * @v: the row the line names
 * @owner: the object logged before the message, or NULL
 * @line: the parsed line
 * @ctx: passed to @v->fn
 *
 * Return: @v->fn's result, or -EINVAL after logging the row's usage when
 * the line does not have the operands it takes.
 */
int scst_mgmt_call(const struct scst_mgmt_verb *v, const char *owner,
		   const struct scst_mgmt_line *line, void *ctx)
{
	if (!scst_mgmt_usage_ok(v, line)) {
		if (owner)
			pr_err("%s: usage: %s\n", owner, v->usage);
		else
			pr_err("usage: %s\n", v->usage);
		return -EINVAL;
	}
	return v->fn(line, ctx);
}

/**
 * scst_mgmt_run() - run a line written to a mgmt file by its table
 * @t: the file's table
 * @owner: as for scst_mgmt_call(); also names an unknown command's owner
 *	when @t has no @what
 * @line: the parsed line
 * @ctx: passed to the row's handler
 *
 * Return: as scst_mgmt_call(), or -EINVAL for a command @t does not have.
 */
int scst_mgmt_run(const struct scst_mgmt_table *t, const char *owner,
		  const struct scst_mgmt_line *line, void *ctx)
{
	const struct scst_mgmt_verb *v = scst_mgmt_find_verb(t, line->argv[0]);

	if (v)
		return scst_mgmt_call(v, owner, line, ctx);
	if (t->what)
		pr_err("unknown %s mgmt command '%s'\n", t->what,
		       line->argv[0]);
	else
		pr_err("%s: unknown mgmt command '%s'\n", owner, line->argv[0]);
	return -EINVAL;
}

/* What one write to a mgmt file runs: the file, and its directory's object. */
struct scst_mgmt_write_target {
	const struct scst_mgmt_attr *ma;
	void *object;
};

static int scst_mgmt_attr_run(struct scst_mgmt_line *line, void *ctx)
{
	const struct scst_mgmt_write_target *t = ctx;
	const struct scst_mgmt_attr *ma = t->ma;

	if (ma->run)
		return ma->run(ma->table, line, t->object);
	return scst_mgmt_run(ma->table, NULL, line, t->object);
}

/**
 * scst_mgmt_attr_store() - the store of every mgmt file
 * @kobj: the file's directory
 * @kattr: the file, inside its struct scst_mgmt_attr
 * @buf: the line written
 * @count: its length
 *
 * Parses the line and runs it by the file's table, under scst_mutex
 * unless the file says its commands take it themselves.
 *
 * Return: @count, or the negative errno of a bad line or of its command.
 */
ssize_t scst_mgmt_attr_store(struct kobject *kobj,
			     struct kobj_attribute *kattr,
			     const char *buf, size_t count)
{
	const struct scst_mgmt_attr *ma =
		container_of(kattr, struct scst_mgmt_attr, kattr);
	struct scst_mgmt_write_target t = {
		.ma = ma,
		.object = ma->object ? ma->object(kobj) : NULL,
	};
	unsigned int max_positional = ma->max_positional ?:
		scst_mgmt_max_positional(ma->table);

	if (ma->unlocked)
		return scst_mgmt_write(buf, count, scst_mgmt_attr_run,
				       max_positional, &t);
	return scst_locked_mgmt(buf, count, scst_mgmt_attr_run, max_positional,
				&t);
}

/**
 * scst_mgmt_attr_show() - the show of a mgmt file whose help is its table's
 * @kobj: the file's directory
 * @kattr: the file, inside its struct scst_mgmt_attr
 * @buf: a page
 *
 * Return: the length of the help: one line per command, then the file's
 * @help_extra.
 */
ssize_t scst_mgmt_attr_show(struct kobject *kobj, struct kobj_attribute *kattr,
			    char *buf)
{
	const struct scst_mgmt_attr *ma =
		container_of(kattr, struct scst_mgmt_attr, kattr);
	ssize_t n = scst_mgmt_help(buf, PAGE_SIZE, ma->table);

	if (ma->help_extra)
		n += sysfs_emit_at(buf, n, "%s", ma->help_extra);
	return n;
}

/**
 * scst_get_setup_id() - the administrator's setup_id
 *
 * Handlers mix it into the identities they derive from device names, so
 * that two target systems with devices of the same name differ.
 *
 * Return: the value of /sys/kernel/scst_tgt/setup_id.
 */
unsigned int scst_get_setup_id(void)
{
	return READ_ONCE(scst_setup_id);
}
EXPORT_SYMBOL_GPL(scst_get_setup_id);

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", SCST_VERSION_STRING);
}

static ssize_t last_sysfs_mgmt_res_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(scst_last_mgmt_res));
}

static ssize_t setup_id_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	unsigned int id = READ_ONCE(scst_setup_id);

	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "0x%x\n", id), id);
}

static ssize_t setup_id_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	unsigned int id;
	int ret;

	ret = kstrtouint(buf, 0, &id);
	if (ret) {
		pr_err("setup_id: '%.*s' is not a number\n", (int)count, buf);
		return ret;
	}
	WRITE_ONCE(scst_setup_id, id);
	return count;
}

/* corosync's totem.cluster_name, for cluster_mode (Documentation/ha.md) */
static ssize_t cluster_name_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	char name[SCST_CLUSTER_NAME_MAX + 1];

	scst_cluster_name_get(name, sizeof(name));
	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%s\n", name),
				   name[0]);
}

static ssize_t cluster_name_store(struct kobject *kobj,
				  struct kobj_attribute *attr, const char *buf,
				  size_t count)
{
	size_t len = count && buf[count - 1] == '\n' ? count - 1 : count;
	int ret = scst_cluster_name_set(buf, len);

	if (ret)
		pr_err("cluster_name: '%.*s': up to %d letters, digits, '-', '_' or '.'\n",
		       (int)min_t(size_t, len, 80), buf, SCST_CLUSTER_NAME_MAX);
	return ret ?: count;
}

static ssize_t threads_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	/* commands run on per-CPU workers: one per online CPU */
	return sysfs_emit(buf, "%u\n", num_online_cpus());
}

/* where the commands' state machines ran (scst_dispatch.c) */
static ssize_t cpu_stats_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct scst_dispatch_stats st;
	ssize_t len = 0;
	int cpu;

	/* one line per CPU that ran or holds commands */
	for_each_possible_cpu(cpu) {
		if (!scst_dispatch_cpu_stats(cpu, &st))
			continue;
		/* sysfs gives one page; the longest line is 82 bytes */
		if (len > PAGE_SIZE - 96)
			break;
		len += sysfs_emit_at(buf, len,
				     "cpu%d runs %lu backlog %u yielded %lu\n",
				     cpu, st.runs, st.backlog, st.yielded);
	}
	return len;
}

/* the data-out buffers' pages kept for reuse (scst_page_stash.c) */
static ssize_t page_stash_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	unsigned long stashed, reused;

	scst_stash_stats(&stashed, &reused);
	return sysfs_emit(buf, "stashed %lu reused %lu\n", stashed, reused);
}

/*
 * measure_latency (SCST's): 1 times every command's stages into its
 * session's latency/ files (scst_latency.c, scst_sysfs_lat.c); 0, the
 * default, costs the command path nothing but a patched-out jump. SCST
 * shows it without a "[key]" line: scstadmin does not save it.
 */
static ssize_t measure_latency_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", scst_lat_on());
}

static ssize_t measure_latency_store(struct kobject *kobj,
				     struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	bool on;
	int ret;

	if (scst_bool01_parse(buf, count, &on)) {
		pr_err("measure_latency: '%.*s' is not 0 or 1\n",
		       (int)min_t(size_t, strcspn(buf, "\n"), 32), buf);
		return -EINVAL;
	}
	if (!mutex_trylock(&scst_mutex))
		return restart_syscall();	/* as the mgmt files */
	ret = scst_lat_set(on);
	mutex_unlock(&scst_mutex);
	if (ret) {
		pr_err("measure_latency: no memory for the sessions' statistics\n");
		return ret;
	}
	return count;
}

static struct kobj_attribute scst_version_attr = __ATTR_RO(version);
static struct kobj_attribute scst_measure_latency_attr =
	__ATTR_RW(measure_latency);
static struct kobj_attribute scst_last_res_attr =
	__ATTR_RO(last_sysfs_mgmt_res);
static struct kobj_attribute scst_setup_id_attr = __ATTR_RW(setup_id);
static struct kobj_attribute scst_cluster_name_attr =
	__ATTR_RW(cluster_name);
static struct kobj_attribute scst_threads_attr = __ATTR_RO(threads);
static struct kobj_attribute scst_cpu_stats_attr = __ATTR_RO(cpu_stats);
static struct kobj_attribute scst_page_stash_attr = __ATTR_RO(page_stash);

static struct attribute *scst_root_attrs[] = {
	&scst_version_attr.attr,
	&scst_last_res_attr.attr,
	&scst_setup_id_attr.attr,
	&scst_cluster_name_attr.attr,
	&scst_threads_attr.attr,
	&scst_cpu_stats_attr.attr,
	&scst_page_stash_attr.attr,
	&scst_measure_latency_attr.attr,
	NULL,
};

static const struct attribute_group scst_root_group = {
	.attrs = scst_root_attrs,
};

/* ---------------------------------------------------------------------- */
/* the view of the model's objects (struct scst_view_ops)                 */

static int scst_sysfs_add(enum scst_view_kind kind, void *obj)
{
	switch (kind) {
	case SCST_VIEW_TGTT:
		return scst_sysfs_tgtt_add(obj);
	case SCST_VIEW_DEVT:
		return scst_sysfs_devt_add(obj);
	case SCST_VIEW_DEV:
		return scst_sysfs_dev_add(obj);
	case SCST_VIEW_TGT:
		return scst_sysfs_tgt_add(obj);
	case SCST_VIEW_SESS:
		return scst_sysfs_sess_add(obj);
	case SCST_VIEW_ACG:
		return scst_sysfs_acg_add(obj);
	case SCST_VIEW_ACN:
		return scst_sysfs_acn_add(obj);
	case SCST_VIEW_LUN:
		return scst_sysfs_acg_dev_add(obj);
	case SCST_VIEW_DG_DEV:
	case SCST_VIEW_TG_TGT:
		break;	/* made by the view's own mgmt verbs */
	}
	WARN_ONCE(1, "view: add of an unknown kind %d\n", kind);
	return -EINVAL;
}

static void scst_sysfs_del(enum scst_view_kind kind, void *obj)
{
	switch (kind) {
	case SCST_VIEW_TGTT:
		scst_sysfs_tgtt_del(obj);
		return;
	case SCST_VIEW_DEVT:
		scst_sysfs_devt_del(obj);
		return;
	case SCST_VIEW_DEV:
		scst_sysfs_dev_del(obj);
		return;
	case SCST_VIEW_TGT:
		scst_sysfs_tgt_del(obj);
		return;
	case SCST_VIEW_SESS:
		scst_sysfs_sess_del(obj);
		return;
	case SCST_VIEW_ACG:
		scst_sysfs_acg_del(obj);
		return;
	case SCST_VIEW_ACN:
		scst_sysfs_acn_del(obj);
		return;
	case SCST_VIEW_LUN:
		scst_sysfs_acg_dev_del(obj);
		return;
	case SCST_VIEW_DG_DEV:
		scst_dg_dev_unlink(obj);
		return;
	case SCST_VIEW_TG_TGT:
		scst_tg_tgt_remove(obj);
		return;
	}
	WARN_ONCE(1, "view: del of an unknown kind %d\n", kind);
}

static const struct scst_view_ops scst_sysfs_view = {
	.add = scst_sysfs_add,
	.del = scst_sysfs_del,
	.lun_check = scst_sysfs_acg_dev_check,
	.sess_luns_changed = scst_sysfs_sess_sync_luns,
	.sess_acg_changed = scst_sysfs_sess_update_luns_link,
	.tg_tgt_local = scst_tg_tgt_make_local,
	.sess_release = scst_sysfs_sess_release,
};

int scst_sysfs_init(void)
{
	int ret = -ENOMEM;

	scst_root_kobj = kobject_create_and_add(SCST_SYSFS_ROOT_NAME,
						kernel_kobj);
	if (!scst_root_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(scst_root_kobj, &scst_root_group);
	if (ret)
		goto put_root;

	ret = -ENOMEM;
	scst_targets_kobj = kobject_create_and_add("targets", scst_root_kobj);
	if (!scst_targets_kobj)
		goto put_root;
	scst_devices_kobj = kobject_create_and_add("devices", scst_root_kobj);
	if (!scst_devices_kobj)
		goto put_targets;
	scst_handlers_kobj = kobject_create_and_add("handlers",
						    scst_root_kobj);
	if (!scst_handlers_kobj)
		goto put_devices;
	ret = scst_sysfs_dg_init(scst_root_kobj);
	if (ret)
		goto put_handlers;
	/* before any driver or handler can register: see scst_view_ops */
	scst_view_register(&scst_sysfs_view);
	return 0;

put_handlers:
	kobject_put(scst_handlers_kobj);
put_devices:
	kobject_put(scst_devices_kobj);
put_targets:
	kobject_put(scst_targets_kobj);
put_root:
	kobject_put(scst_root_kobj);
	scst_root_kobj = NULL;
	return ret;
}

void scst_sysfs_exit(void)
{
	scst_view_unregister();
	scst_sysfs_dg_exit();
	kobject_put(scst_handlers_kobj);
	kobject_put(scst_devices_kobj);
	kobject_put(scst_targets_kobj);
	sysfs_remove_group(scst_root_kobj, &scst_root_group);
	kobject_put(scst_root_kobj);
	scst_root_kobj = NULL;
}
