// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: the -list_* commands. Listings of objects come from a tree
 * read from the management tree; -list_*_attr reads the attribute files
 * of the one object named, key attributes only unless -nonkey (as SCST's
 * scstadmin), with whether each can be written.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"

static void print_attrs(const attr_vec *a, bool nonkey, bool tsv)
{
	bool any = false;

	if (tsv) {
		for (size_t i = 0; i < a->n; i++)
			if (a->v[i].is_key || nonkey)
				printf("attr\t%s\t%s\t%d\t%d\n", a->v[i].key,
				       a->v[i].value, a->v[i].writable,
				       a->v[i].is_key);
		return;
	}
	printf("%-30s %-40s %-9s %s\n", "Attribute", "Value", "Writable",
	       "Key");
	printf("%-30s %-40s %-9s %s\n", "---------", "-----", "--------",
	       "---");
	for (size_t i = 0; i < a->n; i++) {
		if (!a->v[i].is_key && !nonkey)
			continue;
		printf("%-30s %-40s %-9s %s\n", a->v[i].key,
		       *a->v[i].value ? a->v[i].value : "<not set>",
		       a->v[i].writable ? "yes" : "no",
		       a->v[i].is_key ? "yes" : "no");
		any = true;
	}
	if (!any)
		printf("(none)\n");
}

typedef VEC(struct lun *) lun_vec;

/* @pre: "DRIVER\tTARGET[\tGROUP]" for -tsv, NULL for the table */
static void print_luns(const lun_vec *v, const char *ind, const char *pre)
{
	for (size_t i = 0; i < v->n; i++)
		if (pre)
			printf("lun\t%s\t%lu\t%s\n", pre, v->v[i]->num,
			       v->v[i]->dev);
		else
			printf("%sLUN %-5lu %s\n", ind, v->v[i]->num,
			       v->v[i]->dev);
}

/* One line a session: name, initiator, commands in flight, LUN set. */
/*
 * @pre: "DRIVER\tTARGET" for -tsv records ("session" and "sesslun"), NULL
 * for the table.
 */
static void print_sessions(const struct sysfs *sys, const char *rel,
			   const char *pre)
{
	char *dir = sysfs_path(sys, rel);
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d) {
		free(dir);
		return;
	}
	while ((e = readdir(d))) {
		char *ini = NULL, *act = NULL, *r, *link, target[4096];
		const char *group = "default";
		ssize_t n;
		bool key;

		if (e->d_name[0] == '.')
			continue;
		r = xasprintf("%s/%s/initiator_name", rel, e->d_name);
		sysfs_read_attr(sys, r, &ini, &key);
		free(r);
		r = xasprintf("%s/%s/active_commands", rel, e->d_name);
		sysfs_read_attr(sys, r, &act, &key);
		free(r);
		link = xasprintf("%s/%s/luns", dir, e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			/* .../ini_groups/<group>/luns for a group member */
			if (strstr(target, "ini_groups/")) {
				char *g = strstr(target, "ini_groups/") + 11;
				char *slash = strchr(g, '/');

				if (slash)
					*slash = '\0';
				group = g;
			}
		}
		if (pre)
			printf("session\t%s\t%s\t%s\t%s\t%s\n", pre, e->d_name,
			       ini ? ini : "", act ? act : "", group);
		else
			printf("\t\t\t%s  initiator %s, %s active command(s), LUNs of group %s\n",
			       e->d_name, ini ? ini : "?", act ? act : "?",
			       group);
		sessions_print_luns(sys, rel, e->d_name, pre);
		free(link);
		free(ini);
		free(act);
	}
	closedir(d);
	free(dir);
}

/* -list_*_attr: the attributes of the object named */
static int list_attrs(struct opts *o)
{
	attr_vec a = { 0 };
	char *what = NULL;
	int ret;
	char *dir = cmd_attr_owner(o, &what, &ret);

	if (!dir)
		goto out;
	sysfs_read_attrs(&o->sysfs, dir, &a, true);
	print_attrs(&a, o->nonkey, o->tsv);
	if (!strcmp(o->cmd, "list_hnd_attr") && o->tsv) {
		struct tree *t = sysfs_read_tree(&o->sysfs, false);
		const struct handler *h = tree_find_handler(t, o->arg);

		for (size_t i = 0; h && i < h->params.n; i++)
			printf("param\t%s\n", h->params.v[i]);
		tree_free(t);
	} else if (!strcmp(o->cmd, "list_hnd_attr")) {
		struct tree *t = sysfs_read_tree(&o->sysfs, false);
		const struct handler *h = tree_find_handler(t, o->arg);

		printf("\nDevice creation parameters (-open_dev -attributes):\n");
		for (size_t i = 0; h && i < h->params.n; i++)
			printf("\t%s\n", h->params.v[i]);
		tree_free(t);
	}
	for (size_t i = 0; i < a.n; i++) {
		free(a.v[i].key);
		free(a.v[i].value);
	}
	free(a.v);
out:
	free(dir);
	free(what);
	return ret;
}

static void tsv_groups(const struct driver *d, const struct target *tg,
		       const char *only)
{
	for (size_t k = 0; k < tg->groups.n; k++) {
		const struct group *g = tg->groups.v[k];
		char *pre = xasprintf("%s\t%s\t%s", d->name, tg->name, g->name);

		if (only && strcmp(only, g->name)) {
			free(pre);
			continue;
		}
		printf("group\t%s\n", pre);
		print_luns((const lun_vec *)&g->luns, "", pre);
		for (size_t m = 0; m < g->inits.n; m++)
			printf("initiator\t%s\t%s\n", pre, g->inits.v[m].name);
		free(pre);
	}
}

/* -list_target, -list_group: one target's lines */
static void list_one_target(const struct opts *o, const struct driver *d,
			    const struct target *tg, char kind)
{
	const struct attr *en = attr_find(&tg->attrs, "enabled");
	bool on = en && !strcmp(en->value, "1");
	const char *only = kind == 'g' ? o->arg : NULL;
	char *pre;

	if (o->tsv) {
		pre = xasprintf("%s\t%s", d->name, tg->name);
		if (kind == 'g') {
			tsv_groups(d, tg, only);
		} else {
			printf("target\t%s\t%d\n", pre, on);
			print_luns((const lun_vec *)&tg->luns, "", pre);
		}
		free(pre);
		return;
	}
	printf("\tTarget: %s%s\n", tg->name, on ? " (enabled)" : "");
	if (kind != 'g') {
		print_luns((const lun_vec *)&tg->luns, "\t\t", NULL);
		return;
	}
	for (size_t k = 0; k < tg->groups.n; k++) {
		const struct group *g = tg->groups.v[k];

		if (only && strcmp(only, g->name))
			continue;
		printf("\t\tGroup: %s\n", g->name);
		print_luns((const lun_vec *)&g->luns, "\t\t\t", NULL);
		for (size_t m = 0; m < g->inits.n; m++)
			printf("\t\t\tINITIATOR %s\n", g->inits.v[m].name);
	}
}

/* -list_sessions: one target's sessions and their LUNs */
static void list_target_sessions(const struct opts *o, const struct driver *d,
				 const struct target *tg, bool enabled)
{
	char *rel = xasprintf("targets/%s/%s/sessions", d->name, tg->name);
	char *pre = NULL;

	if (o->tsv) {
		pre = xasprintf("%s\t%s", d->name, tg->name);
	} else {
		printf("\tTarget: %s%s\n", tg->name,
		       enabled ? " (enabled)" : "");
		printf("\t\tSessions: %d\n", tg->nsessions);
	}
	print_sessions(&o->sysfs, rel, pre);
	free(pre);
	free(rel);
}

/* -list_target, -list_group, -list_sessions [-driver D] [-target T] */
static int list_targets(struct opts *o, const struct tree *t, char kind)
{
	const struct driver *fd = o->driver ?
				  tree_find_driver(t, o->driver) : NULL;

	if (kind == 't' && o->arg)
		o->target = o->arg;	/* -list_target T -driver D */
	if (o->driver && !fd)
		return cmd_fail(EXIT_NOTFOUND,
				"driver '%s' is not loaded", o->driver);
	if (kind == 'g' && o->arg && !o->target)
		return cmd_need(o, NULL, "target");
	if (o->target && (!fd || !driver_find_target(fd, o->target)))
		return o->driver ?
			cmd_fail(EXIT_NOTFOUND,
				 "target '%s' of driver '%s' does not exist",
				 o->target, o->driver) :
			cmd_need(o, NULL, "driver");
	for (size_t i = 0; i < t->drivers.n; i++) {
		const struct driver *d = t->drivers.v[i];

		if (fd && fd != d)
			continue;
		if (!o->tsv)
			printf("Driver: %s\n", d->name);
		for (size_t j = 0; j < d->targets.n; j++) {
			const struct target *tg = d->targets.v[j];
			const struct attr *en = attr_find(&tg->attrs, "enabled");

			if (o->target && strcmp(o->target, tg->name))
				continue;
			if (kind != 's') {
				list_one_target(o, d, tg, kind);
				continue;
			}
			list_target_sessions(o, d, tg,
					     en && !strcmp(en->value, "1"));
		}
	}
	return EXIT_OK;
}

/* -list_handler [H] */
static int list_handlers(const struct opts *o, const struct tree *t)
{
	if (o->arg && !tree_find_handler(t, o->arg))
		return cmd_fail(EXIT_NOTFOUND, "handler '%s' is not loaded",
				o->arg);
	if (!o->tsv)
		printf("%-24s %s\n", "Handler", o->arg ? "Device" : "Devices");
	for (size_t i = 0; i < t->handlers.n; i++) {
		const struct handler *h = t->handlers.v[i];

		if (o->arg && strcmp(o->arg, h->name))
			continue;
		if (o->tsv)
			printf("handler\t%s\t%zu\n", h->name, h->devices.n);
		else if (!o->arg)
			printf("%-24s %zu\n", h->name, h->devices.n);
		for (size_t j = 0; o->arg && j < h->devices.n; j++)
			printf(o->tsv ? "device\t%2$s\t%1$s\n" :
			       "%-24s %s\n", h->name, h->devices.v[j]->name);
	}
	return EXIT_OK;
}

/* -list_device [DEV]: the devices, or DEV's handler and attributes */
static int list_devices(const struct opts *o, const struct tree *t)
{
	struct handler *h = NULL;

	if (o->arg && !tree_find_device(t, o->arg, &h))
		return cmd_fail(EXIT_NOTFOUND, "device '%s' does not exist",
				o->arg);
	if (o->arg) {
		char *dir = xasprintf("devices/%s", o->arg);
		attr_vec a = { 0 };

		printf(o->tsv ? "device\t%s\t%s\n" : "Device %s (handler %s)\n",
		       o->arg, h->name);
		sysfs_read_attrs(&o->sysfs, dir, &a, true);
		print_attrs(&a, o->nonkey, o->tsv);
		for (size_t i = 0; i < a.n; i++) {
			free(a.v[i].key);
			free(a.v[i].value);
		}
		free(a.v);
		free(dir);
		return EXIT_OK;
	}
	if (!o->tsv)
		printf("%-24s %s\n", "Device", "Handler");
	for (size_t i = 0; i < t->handlers.n; i++)
		for (size_t j = 0; j < t->handlers.v[i]->devices.n; j++)
			printf(o->tsv ? "device\t%s\t%s\n" : "%-24s %s\n",
			       t->handlers.v[i]->devices.v[j]->name,
			       t->handlers.v[i]->name);
	return EXIT_OK;
}

/* -list_driver [D] */
static int list_drivers(const struct opts *o, const struct tree *t)
{
	if (o->arg && !tree_find_driver(t, o->arg))
		return cmd_fail(EXIT_NOTFOUND, "driver '%s' is not loaded",
				o->arg);
	if (!o->tsv)
		printf("%-24s %s\n", "Driver", o->arg ? "Target" : "Targets");
	for (size_t i = 0; i < t->drivers.n; i++) {
		const struct driver *d = t->drivers.v[i];

		if (o->arg && strcmp(o->arg, d->name))
			continue;
		if (o->tsv)
			printf("driver\t%s\t%zu\n", d->name, d->targets.n);
		else if (!o->arg)
			printf("%-24s %zu\n", d->name, d->targets.n);
		for (size_t j = 0; o->arg && j < d->targets.n; j++)
			printf(o->tsv ? "target\t%s\t%s\n" : "%-24s %s\n",
			       d->name, d->targets.v[j]->name);
	}
	return EXIT_OK;
}

int cmd_list(struct opts *o)
{
	const char *c = o->cmd + 5;
	struct tree *t;
	int ret = EXIT_OK;

	if (strstr(c, "_attr"))
		return list_attrs(o);
	t = sysfs_read_tree(&o->sysfs, false);
	if (!strcmp(c, "handler")) {
		ret = list_handlers(o, t);
	} else if (!strcmp(c, "device")) {
		ret = list_devices(o, t);
	} else if (!strcmp(c, "driver")) {
		ret = list_drivers(o, t);
	} else if (!strcmp(c, "target") || !strcmp(c, "group") ||
		   !strcmp(c, "sessions")) {
		ret = list_targets(o, t, c[0]);
	} else {
		ret = cmd_fail(EXIT_USAGE, "unknown command -%s", o->cmd);
	}
	tree_free(t);
	return ret;
}
