// SPDX-License-Identifier: GPL-2.0-only
/*
 * targets/scst_local/ in the core's sysfs tree: the mgmt verbs, the EH
 * statistics and each session's SCSI host.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <scsi/scsi_host.h>

#include "scst_local.h"

/* ---------------------------------------------------------------------- */
/* targets/scst_local/mgmt                                                */
/* ---------------------------------------------------------------------- */

/* Called with scst_local_mutex held by every mgmt command before it acts. */
static int scst_local_check_exiting(const char *cmd)
{
	lockdep_assert_held(&scst_local_mutex);
	if (scst_local_is_exiting()) {
		pr_err("%s: the module is being unloaded\n", cmd);
		return -ENODEV;
	}
	return 0;
}

/**
 * scst_local_mgmt_add_target() - "add_target NAME [session_name=S]"
 * @name: NAME
 * @line: the parsed command, argv[0] being "add_target"
 *
 * Return: 0, -EINVAL for a bad argument, -EEXIST for an existing target or
 * another errno.
 */
int scst_local_mgmt_add_target(const char *name,
			       const struct scst_mgmt_line *line)
{
	static const char *const params[] = { "session_name" };
	const char *bad;
	int ret;

	if (line->argc > 2) {
		pr_err("add_target %s: unexpected argument %s\n", name,
		       line->argv[2]);
		return -EINVAL;
	}
	if (scst_mgmt_check_params(line, params, ARRAY_SIZE(params), &bad)) {
		pr_err("add_target %s: unknown parameter %s\n", name, bad);
		return -EINVAL;
	}

	mutex_lock(&scst_local_mutex);
	ret = scst_local_check_exiting("add_target");
	if (!ret)
		ret = scst_local_add_target(name,
					    scst_mgmt_get_param(line,
								"session_name"));
	mutex_unlock(&scst_local_mutex);
	return ret;
}

/**
 * scst_local_mgmt_del_target() - "del_target NAME"
 * @name: NAME
 *
 * Return: 0 or -ENOENT.
 */
int scst_local_mgmt_del_target(const char *name)
{
	struct scst_local_tgt *tgt;
	int ret;

	mutex_lock(&scst_local_mutex);
	ret = scst_local_check_exiting("del_target");
	if (ret)
		goto unlock;
	tgt = scst_local_find_tgt(name);
	if (!tgt) {
		pr_err("del_target: no target %s\n", name);
		ret = -ENOENT;
		goto unlock;
	}
	scst_local_remove_target(tgt);
unlock:
	mutex_unlock(&scst_local_mutex);
	return ret;
}

/**
 * scst_local_mgmt_cmd() - "add_session TGT SESS", "del_session TGT SESS"
 * @line: the parsed command
 *
 * The core hands us every command but add_target and del_target, and
 * passes our errno on as is; an unknown command is ours to refuse.
 * NEEDS-CORE: scst.h still says @mgmt_cmd returns -ENOENT for an unknown
 * command, which would clash with "no such target"; the core does not
 * treat -ENOENT specially, so only that sentence needs to go.
 *
 * Return: 0; -EINVAL for a bad command line; -ENOENT for an unknown target
 * or session; -EEXIST for an existing session; or another errno.
 */
int scst_local_mgmt_cmd(const struct scst_mgmt_line *line)
{
	const char *cmd = line->argc ? line->argv[0] : "";
	struct scst_local_sess *sess;
	struct scst_local_tgt *tgt;
	bool add;
	int ret;

	if (!strcmp(cmd, "add_session")) {
		add = true;
	} else if (!strcmp(cmd, "del_session")) {
		add = false;
	} else {
		pr_err("unknown command %s\n", cmd);
		return -EINVAL;
	}
	if (line->argc < 3) {
		pr_err("%s: target and session names required\n", cmd);
		return -EINVAL;
	}
	if (line->argc > 3) {
		pr_err("%s: unexpected argument %s\n", cmd, line->argv[3]);
		return -EINVAL;
	}
	if (line->nparams) {
		pr_err("%s: unknown parameter %s\n", cmd, line->params[0].key);
		return -EINVAL;
	}
	if (add) {
		ret = scst_local_check_sess_name(line->argv[2]);
		if (ret)
			return ret;
	}

	mutex_lock(&scst_local_mutex);
	ret = scst_local_check_exiting(cmd);
	if (ret)
		goto unlock;
	tgt = scst_local_find_tgt(line->argv[1]);
	if (!tgt) {
		pr_err("%s: no target %s\n", cmd, line->argv[1]);
		ret = -ENOENT;
		goto unlock;
	}
	if (add) {
		ret = scst_local_add_session(tgt, line->argv[2]);
		goto unlock;
	}
	sess = scst_local_find_sess(tgt, line->argv[2]);
	if (!sess) {
		pr_err("%s: no session %s on target %s\n", cmd, line->argv[2],
		       line->argv[1]);
		ret = -ENOENT;
		goto unlock;
	}
	scst_local_remove_session(sess);
unlock:
	mutex_unlock(&scst_local_mutex);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* sysfs                                                                  */
/* ---------------------------------------------------------------------- */

/* targets/scst_local/stats: error handling counters, as SCST's */
static ssize_t scst_local_stats_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf,
			  "Aborts: %d, Device Resets: %d, Target Resets: %d, Host Resets: %d\n",
			  atomic_read(&scst_local_nr_aborts),
			  atomic_read(&scst_local_nr_lun_resets),
			  atomic_read(&scst_local_nr_target_resets),
			  atomic_read(&scst_local_nr_host_resets));
}

static struct kobj_attribute scst_local_stats_attr =
	__ATTR(stats, 0444, scst_local_stats_show, NULL);

const struct attribute *scst_local_tgtt_attrs[] = {
	&scst_local_stats_attr.attr,
	NULL,
};

/*
 * targets/scst_local/<tgt>/sessions/<sess>/host: the SCSI host of the
 * session, "hostN" (/sys/class/scsi_host/hostN).
 *
 * The core sets sess->tgt_priv before the attributes appear and removes
 * them before scst_unregister_session(.., true, ..) returns; we free the
 * host only after that.
 */
static ssize_t scst_local_host_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	struct scst_local_sess *sess = scst_kobj_to_sess(kobj)->tgt_priv;

	if (!sess)
		return -ENODEV;
	return sysfs_emit(buf, "host%u\n", sess->shost->host_no);
}

static struct kobj_attribute scst_local_host_attr =
	__ATTR(host, 0444, scst_local_host_show, NULL);

const struct attribute *scst_local_sess_attrs[] = {
	&scst_local_host_attr.attr,
	NULL,
};
