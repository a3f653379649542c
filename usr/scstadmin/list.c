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

static void print_attrs(const attr_vec *a, bool nonkey)
{
	bool any = false;

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

static void print_luns(const lun_vec *v, const char *ind)
{
	for (size_t i = 0; i < v->n; i++)
		printf("%sLUN %-5lu %s\n", ind, v->v[i]->num, v->v[i]->dev);
}

/* One line a session: name, initiator, commands in flight, LUN set. */
static void print_sessions(const struct sysfs *sys, const char *rel)
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
		printf("\t\t\t%s  initiator %s, %s active command(s), LUNs of group %s\n",
		       e->d_name, ini ? ini : "?", act ? act : "?", group);
		sessions_print_luns(sys, rel, e->d_name);
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
	print_attrs(&a, o->nonkey);
	if (!strcmp(o->cmd, "list_hnd_attr")) {
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

/* -list_target, -list_group, -list_sessions [-driver D] [-target T] */
static int list_targets(struct opts *o, const struct tree *t, char kind)
{
	const struct driver *fd = o->driver ?
				  tree_find_driver(t, o->driver) : NULL;

	if (o->driver && !fd)
		return cmd_fail(EXIT_NOTFOUND,
				"target driver '%s' does not exist", o->driver);
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
		printf("Driver: %s\n", d->name);
		for (size_t j = 0; j < d->targets.n; j++) {
			const struct target *tg = d->targets.v[j];
			const struct attr *en = attr_find(&tg->attrs, "enabled");

			if (o->target && strcmp(o->target, tg->name))
				continue;
			printf("\tTarget: %s%s\n", tg->name,
			       en && !strcmp(en->value, "1") ? " (enabled)" : "");
			if (kind == 's') {
				char *rel = xasprintf("targets/%s/%s/sessions",
						      d->name, tg->name);

				printf("\t\tSessions: %d\n", tg->nsessions);
				print_sessions(&o->sysfs, rel);
				free(rel);
			} else if (kind == 'g') {
				for (size_t k = 0; k < tg->groups.n; k++) {
					const struct group *g = tg->groups.v[k];

					printf("\t\tGroup: %s\n", g->name);
					print_luns((const lun_vec *)&g->luns,
						   "\t\t\t");
					for (size_t m = 0; m < g->inits.n; m++)
						printf("\t\t\tINITIATOR %s\n",
						       g->inits.v[m].name);
				}
			} else {
				print_luns((const lun_vec *)&tg->luns, "\t\t");
			}
		}
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
		printf("%-24s %s\n", "Handler", "Devices");
		for (size_t i = 0; i < t->handlers.n; i++)
			printf("%-24s %zu\n", t->handlers.v[i]->name,
			       t->handlers.v[i]->devices.n);
	} else if (!strcmp(c, "device")) {
		printf("%-24s %s\n", "Device", "Handler");
		for (size_t i = 0; i < t->handlers.n; i++)
			for (size_t j = 0; j < t->handlers.v[i]->devices.n; j++)
				printf("%-24s %s\n",
				       t->handlers.v[i]->devices.v[j]->name,
				       t->handlers.v[i]->name);
	} else if (!strcmp(c, "driver")) {
		printf("%-24s %s\n", "Driver", "Targets");
		for (size_t i = 0; i < t->drivers.n; i++)
			printf("%-24s %zu\n", t->drivers.v[i]->name,
			       t->drivers.v[i]->targets.n);
	} else if (!strcmp(c, "target") || !strcmp(c, "group") ||
		   !strcmp(c, "sessions")) {
		ret = list_targets(o, t, c[0]);
	} else {
		ret = cmd_fail(EXIT_USAGE, "unknown command -%s", o->cmd);
	}
	tree_free(t);
	return ret;
}
