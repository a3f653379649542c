// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: the SCST options whose kernel side the running modules may
 * lack: ALUA (device_groups/: -add_dgrp ... -list_ttgt_attr), dynamic
 * driver and target attributes (add_attribute / add_target_attribute in
 * a driver's mgmt), -issue_lip (Fibre Channel), and -version. Where the
 * management tree has no such thing the command says so (exit 8), not
 * "unknown option"; where it has, they write SCST's mgmt commands.
 */
#include <stdlib.h>
#include <string.h>

#include "opts.h"

#define DGRPS	"device_groups"

static int no_alua(const struct opts *o)
{
	if (sysfs_exists(&o->sysfs, DGRPS))
		return EXIT_OK;
	return cmd_fail(EXIT_NOTSUPP,
			"-%s: ALUA (device and target groups) is not supported by the running modules: %s/" DGRPS " does not exist",
			o->cmd, o->sysfs.root);
}

/* @rel if it exists, else NULL after "@kind 'name' does not exist". */
static char *must_exist(const struct opts *o, char *rel, const char *kind,
			const char *name, int *ret)
{
	if (sysfs_exists(&o->sysfs, rel))
		return rel;
	*ret = cmd_fail(EXIT_NOTFOUND, "%s '%s' does not exist", kind, name);
	free(rel);
	return NULL;
}

static char *dgrp_dir(const struct opts *o, const char *g, int *ret)
{
	*ret = no_alua(o);
	if (!*ret)
		*ret = cmd_need(o, g, "dev_group");
	if (*ret)
		return NULL;
	return must_exist(o, xasprintf(DGRPS "/%s", g), "device group", g,
			  ret);
}

static char *tgrp_dir(const struct opts *o, const char *t, int *ret)
{
	char *d = dgrp_dir(o, o->dev_group, ret), *p;

	if (d)
		*ret = cmd_need(o, t, "tgt_group");
	if (!d || *ret) {
		free(d);
		return NULL;
	}
	p = xasprintf("%s/target_groups/%s", d, t);
	free(d);
	return must_exist(o, p, "target group", t, ret);
}

char *cmd_alua_dir(const struct opts *o, const char *k, char **what,
		   int *ret)
{
	char *d, *p;

	if (!strcmp(k, "dgrp_attr")) {
		*what = xasprintf("device group '%s'", o->arg);
		return dgrp_dir(o, o->arg, ret);
	}
	if (!strcmp(k, "tgrp_attr")) {
		*what = xasprintf("target group '%s'", o->arg);
		return tgrp_dir(o, o->arg, ret);
	}
	*what = xasprintf("target '%s' of target group '%s'", o->arg,
			  o->tgt_group ? o->tgt_group : "?");
	d = tgrp_dir(o, o->tgt_group, ret);
	if (!d)
		return NULL;
	p = xasprintf("%s/%s", d, o->arg);
	free(d);
	return must_exist(o, p, "target group target", o->arg, ret);
}

static bool dg_has_dev(const struct dev_group *g, const char *dev)
{
	for (size_t i = 0; i < g->devices.n; i++)
		if (!strcmp(g->devices.v[i].name, dev))
			return true;
	return false;
}

static bool tg_has_tgt(const struct tgt_group *g, const char *tgt)
{
	for (size_t i = 0; i < g->targets.n; i++)
		if (!strcmp(g->targets.v[i]->name, tgt))
			return true;
	return false;
}

/*
 * What SCST's scstadmin checks before it writes, so that the message
 * names the problem rather than the kernel's EINVAL or EEXIST: what
 * is added must not be there (a device is in one device group, a target
 * in one target group of a device group), what is removed must be.
 */
static int alua_precheck(const struct opts *o)
{
	struct tree *t = sysfs_read_tree(&o->sysfs, false);
	const char *c = o->cmd, *a = o->arg;
	const struct dev_group *g = NULL;
	const struct tgt_group *tg = NULL;
	int ret = EXIT_OK;

	if (o->dev_group)
		g = tree_find_dgroup(t, o->dev_group);
	if (g && o->tgt_group)
		tg = dgroup_find_tgroup(g, o->tgt_group);
	if (!strcmp(c, "add_dgrp") && tree_find_dgroup(t, a)) {
		ret = cmd_fail(EXIT_SYSFS, "device group '%s' already exists",
			       a);
	} else if (!strcmp(c, "rem_dgrp") && !tree_find_dgroup(t, a)) {
		ret = cmd_fail(EXIT_NOTFOUND, "device group '%s' does not exist",
			       a);
	} else if (!strcmp(c, "add_dgrp_dev")) {
		for (size_t i = 0; !ret && i < t->dgroups.n; i++)
			if (dg_has_dev(t->dgroups.v[i], a))
				ret = cmd_fail(EXIT_SYSFS,
					       "device '%s' is already in device group '%s' (a device belongs to one device group)",
					       a, t->dgroups.v[i]->name);
	} else if (!strcmp(c, "rem_dgrp_dev") && g && !dg_has_dev(g, a)) {
		ret = cmd_fail(EXIT_NOTFOUND,
			       "device '%s' is not in device group '%s'", a,
			       g->name);
	} else if (!strcmp(c, "add_tgrp") && g && dgroup_find_tgroup(g, a)) {
		ret = cmd_fail(EXIT_SYSFS,
			       "target group '%s' of device group '%s' already exists",
			       a, g->name);
	} else if (!strcmp(c, "rem_tgrp") && g && !dgroup_find_tgroup(g, a)) {
		ret = cmd_fail(EXIT_NOTFOUND,
			       "target group '%s' of device group '%s' does not exist",
			       a, g->name);
	} else if (!strcmp(c, "add_tgrp_tgt") && g) {
		for (size_t i = 0; !ret && i < g->tgroups.n; i++)
			if (tg_has_tgt(g->tgroups.v[i], a))
				ret = cmd_fail(EXIT_SYSFS,
					       "target '%s' is already in target group '%s' of device group '%s' (a target belongs to one target group of a device group)",
					       a, g->tgroups.v[i]->name, g->name);
	} else if (!strcmp(c, "rem_tgrp_tgt") && tg && !tg_has_tgt(tg, a)) {
		ret = cmd_fail(EXIT_NOTFOUND,
			       "target '%s' is not in target group '%s'", a,
			       tg->name);
	}
	tree_free(t);
	return ret;
}

/* -add_dgrp ... -rem_tgrp_tgt: one mgmt command each */
static int alua_object(struct opts *o)
{
	static const struct {
		const char *cmd, *verb;
		int level;	/* 0: device_groups, 1: DGRP's, 2: TGRP's */
		const char *sub;	/* under the level's directory */
	} t[] = {
		{ "add_dgrp", "create", 0, "mgmt" },
		{ "rem_dgrp", "del", 0, "mgmt" },
		{ "add_dgrp_dev", "add", 1, "devices/mgmt" },
		{ "rem_dgrp_dev", "del", 1, "devices/mgmt" },
		{ "add_tgrp", "create", 1, "target_groups/mgmt" },
		{ "rem_tgrp", "del", 1, "target_groups/mgmt" },
		{ "add_tgrp_tgt", "add", 2, "mgmt" },
		{ "rem_tgrp_tgt", "del", 2, "mgmt" },
	};
	char *dir = NULL, *rel, *text;
	int ret = EXIT_OK;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].cmd, o->cmd))
			break;
	ret = no_alua(o);
	if (ret)
		return ret;
	if (t[i].level == 0)
		dir = xstrdup(DGRPS);
	else if (t[i].level == 1)
		dir = dgrp_dir(o, o->dev_group, &ret);
	else
		dir = tgrp_dir(o, o->tgt_group, &ret);
	if (!dir)
		return ret;
	if (!strcmp(t[i].cmd, "add_dgrp_dev")) {
		char *dev = xasprintf("devices/%s", o->arg);

		free(must_exist(o, dev, "device", o->arg, &ret));
	}
	if (!ret)
		ret = alua_precheck(o);
	rel = xasprintf("%s/%s", dir, t[i].sub);
	text = xasprintf("%s %s", t[i].verb, o->arg);
	if (!ret)
		ret = cmd_write(o, rel, text);
	if (!ret)
		printf("-> %s: %s\n", rel, text);
	free(text);
	free(rel);
	free(dir);
	return ret;
}

/* -list_dgrp [DGRP], -list_tgrp [TGRP] [-dev_group DGRP] */
static int alua_list(struct opts *o)
{
	struct sysfs *s = &o->sysfs;
	bool tg = !strcmp(o->cmd, "list_tgrp");
	const char *only = tg ? o->dev_group : o->arg;
	int ret = no_alua(o);
	struct tree *t;

	if (ret)
		return ret;
	if (only) {
		char *d = dgrp_dir(o, only, &ret);

		free(d);
		if (ret)
			return ret;
	}
	t = sysfs_read_tree(s, false);
	{
		for (size_t i = 0; i < t->dgroups.n; i++) {
			const struct dev_group *g = t->dgroups.v[i];

			if (only && strcmp(only, g->name))
				continue;
			printf(o->tsv ? "dgrp\t%s\n" : "Device group: %s\n",
			       g->name);
			for (size_t j = 0; !tg && j < g->devices.n; j++)
				printf(o->tsv ? "dev\t%s\t%s\n" :
				       "\tDevice: %s%.0s\n", g->devices.v[j].name,
				       g->name);
			for (size_t j = 0; j < g->tgroups.n; j++) {
				const struct tgt_group *x = g->tgroups.v[j];

				if (tg && o->arg && strcmp(o->arg, x->name))
					continue;
				printf(o->tsv ? "tgrp\t%s\t%s\n" :
				       "\tTarget group: %s%.0s\n", x->name,
				       g->name);
				for (size_t k = 0; tg && k < x->targets.n; k++)
					printf(o->tsv ? "ttgt\t%s\t%s\t%s\n" :
					       "\t\tTarget: %s%.0s%.0s\n",
					       x->targets.v[k]->name, g->name,
					       x->name);
			}
		}
	}
	tree_free(t);
	return EXIT_OK;
}

/* -add_drv_attr, -rem_drv_attr, -add_tgt_attr, -rem_tgt_attr */
static int dyn_attrs(struct opts *o)
{
	bool tgt = strstr(o->cmd, "tgt") != NULL;
	bool add = !strncmp(o->cmd, "add", 3);
	const char *drv = tgt ? o->driver : o->arg;
	const char *verb = tgt ? "target_attribute" : "attribute";
	struct kv_vec kvs = { 0 };
	char *dir, *mgmt, *usage = NULL;
	int ret = EXIT_OK;
	bool key;

	ret = cmd_need(o, drv, "driver");
	if (ret)
		return ret;
	dir = cmd_named_dir(o, "targets", "driver", drv, &ret);
	if (!dir)
		return ret;
	mgmt = xasprintf("%s/mgmt", dir);
	if (tgt) {
		char *t = xasprintf("%s/%s", dir, o->arg);

		free(must_exist(o, t, "target", o->arg, &ret));
	}
	if (!ret)
		ret = cmd_need(o, o->attributes, "attributes");
	if (!ret && (sysfs_read_attr(&o->sysfs, mgmt, &usage, &key) ||
		     !strstr(usage, tgt ? "add_target_attribute" :
			     "add_attribute")))
		ret = cmd_fail(EXIT_NOTSUPP,
			       "-%s: driver '%s' has no dynamic %s attributes (its mgmt does not list add_%s)",
			       o->cmd, drv, tgt ? "target" : "driver", verb);
	if (!ret)
		ret = cmd_parse_kvs(o, &kvs);
	for (size_t i = 0; !ret && i < kvs.n; i++) {
		char *text = tgt ?
			xasprintf("%s_%s %s %s %s", add ? "add" : "del", verb,
				  o->arg, kvs.v[i].key, kvs.v[i].value) :
			xasprintf("%s_%s %s %s", add ? "add" : "del", verb,
				  kvs.v[i].key, kvs.v[i].value);

		ret = cmd_write(o, mgmt, text);
		if (!ret)
			printf("-> %s: %s\n", mgmt, text);
		free(text);
	}
	cmd_kvs_free(&kvs);
	free(usage);
	free(mgmt);
	free(dir);
	return ret;
}

/*
 * -issue_lip [T] [-driver D]: a LIP is a Fibre Channel loop reset that
 * SCST's scstadmin sends through the fc_host of qla2x00t targets. No
 * driver here has one; the names are still checked.
 */
static int issue_lip(struct opts *o)
{
	int ret = EXIT_OK;
	char *d;

	if (o->arg && !o->driver)
		return cmd_need(o, NULL, "driver");
	if (o->driver) {
		d = cmd_named_dir(o, "targets", "driver", o->driver, &ret);
		if (!d)
			return ret;
		if (o->arg) {
			char *t = xasprintf("%s/%s", d, o->arg);

			free(must_exist(o, t, "target", o->arg, &ret));
		}
		free(d);
		if (ret)
			return ret;
	}
	printf("-issue_lip: no target here is on a Fibre Channel loop (no driver issues LIPs); nothing to do\n");
	return EXIT_OK;
}

static int version(const struct opts *o)
{
	char *v = NULL;
	bool key;

	printf("scstadmin %s (scst-ng)\n", SCSTADMIN_VERSION);
	if (o->have_root && !sysfs_read_attr(&o->sysfs, "version", &v, &key))
		printf("SCST kernel modules: %s (%s/version)\n", v,
		       o->sysfs.root);
	else
		printf("SCST kernel modules: not loaded (%s/version cannot be read)\n",
		       o->sysfs.root);
	free(v);
	return EXIT_OK;
}

int cmd_ext(struct opts *o, bool *handled)
{
	const char *c = o->cmd;

	*handled = true;
	if (!strcmp(c, "version"))
		return version(o);
	if (!o->have_root) {
		*handled = false;
		return EXIT_OK;
	}
	if (!strcmp(c, "issue_lip"))
		return issue_lip(o);
	if (!strcmp(c, "list_dgrp") || !strcmp(c, "list_tgrp"))
		return alua_list(o);
	if (strstr(c, "_dgrp") || strstr(c, "_tgrp")) {
		if (strstr(c, "_attr"))
			goto not_mine;
		return alua_object(o);
	}
	if (!strcmp(c, "add_drv_attr") || !strcmp(c, "rem_drv_attr") ||
	    !strcmp(c, "add_tgt_attr") || !strcmp(c, "rem_tgt_attr"))
		return dyn_attrs(o);
not_mine:
	*handled = false;
	return EXIT_OK;
}
