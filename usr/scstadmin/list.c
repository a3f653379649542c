// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: the -list_* commands, from a tree read with all attributes.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"

static void print_attrs(const attr_vec *a, const char *title)
{
	printf("%-30s %-40s %s\n", "Attribute", "Value", "Key");
	printf("%-30s %-40s %s\n", "---------", "-----", "---");
	for (size_t i = 0; i < a->n; i++)
		printf("%-30s %-40s %s\n", a->v[i].key, a->v[i].value,
		       a->v[i].is_key ? "yes" : "");
	(void)title;
}

static int notfound(const char *fmt, const char *a, const char *b)
{
	fputs("scstadmin: ", stderr);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return EXIT_NOTFOUND;
}

static const struct target *find_tgt(const struct tree *t, const char *drv,
				     const char *tgt, int *ret)
{
	const struct driver *d;
	const struct target *tg;

	if (!drv || !tgt) {
		fprintf(stderr, "scstadmin: needs -driver and -target\n");
		*ret = EXIT_USAGE;
		return NULL;
	}
	d = tree_find_driver(t, drv);
	if (!d) {
		*ret = notfound("target driver '%s' does not exist%s", drv, "");
		return NULL;
	}
	tg = driver_find_target(d, tgt);
	if (!tg)
		*ret = notfound("target '%s' of driver '%s' does not exist",
				tgt, drv);
	return tg;
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
		free(link);
		free(ini);
		free(act);
	}
	closedir(d);
	free(dir);
}

int cmd_list(struct opts *o)
{
	struct tree *t = sysfs_read_tree(&o->sysfs, true);
	const char *c = o->cmd + 5;
	int ret = EXIT_OK;

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
		for (size_t i = 0; i < t->drivers.n; i++) {
			const struct driver *d = t->drivers.v[i];

			if (o->driver && strcmp(o->driver, d->name))
				continue;
			printf("Driver: %s\n", d->name);
			for (size_t j = 0; j < d->targets.n; j++) {
				const struct target *tg = d->targets.v[j];
				const struct attr *en =
					attr_find(&tg->attrs, "enabled");

				if (o->target && strcmp(o->target, tg->name))
					continue;
				printf("\tTarget: %s%s\n", tg->name,
				       en && !strcmp(en->value, "1") ?
				       " (enabled)" : "");
				if (c[0] == 's') {
					char *rel = xasprintf("targets/%s/%s/sessions",
							      d->name, tg->name);

					printf("\t\tSessions: %d\n",
					       tg->nsessions);
					print_sessions(&o->sysfs, rel);
					free(rel);
					continue;
				}
				if (c[0] == 'g') {
					for (size_t k = 0; k < tg->groups.n; k++) {
						const struct group *g =
							tg->groups.v[k];

						printf("\t\tGroup: %s\n", g->name);
						print_luns((const lun_vec *)&g->luns,
							   "\t\t\t");
						for (size_t m = 0;
						     m < g->inits.n; m++)
							printf("\t\t\tINITIATOR %s\n",
							       g->inits.v[m].name);
					}
				} else {
					print_luns((const lun_vec *)&tg->luns,
						   "\t\t");
				}
			}
		}
	} else if (!strcmp(c, "scst_attr")) {
		print_attrs(&t->attrs, "SCST");
	} else if (!strcmp(c, "hnd_attr")) {
		const struct handler *h = tree_find_handler(t, o->arg);

		if (h)
			print_attrs(&h->attrs, h->name);
		else
			ret = notfound("handler '%s' does not exist%s", o->arg,
				       "");
	} else if (!strcmp(c, "dev_attr")) {
		const struct device *d = tree_find_device(t, o->arg, NULL);

		if (d)
			print_attrs(&d->attrs, d->name);
		else
			ret = notfound("device '%s' does not exist%s", o->arg,
				       "");
	} else if (!strcmp(c, "drv_attr")) {
		const struct driver *d = tree_find_driver(t, o->arg);

		if (d)
			print_attrs(&d->attrs, d->name);
		else
			ret = notfound("target driver '%s' does not exist%s",
				       o->arg, "");
	} else if (!strcmp(c, "tgt_attr")) {
		const struct target *tg = find_tgt(t, o->driver, o->arg, &ret);

		if (tg)
			print_attrs(&tg->attrs, tg->name);
	} else if (!strcmp(c, "grp_attr") || !strcmp(c, "lun_attr")) {
		const struct target *tg = find_tgt(t, o->driver, o->target,
						   &ret);
		const struct group *g = NULL;

		if (tg && (c[0] == 'g' || o->group)) {
			g = target_find_group(tg, c[0] == 'g' ? o->arg :
					      o->group);
			if (!g) {
				ret = notfound("group '%s' of target '%s' does not exist",
					       c[0] == 'g' ? o->arg : o->group,
					       tg->name);
				tg = NULL;
			}
		}
		if (tg && c[0] == 'g') {
			print_attrs(&g->attrs, g->name);
		} else if (tg) {
			const struct lun *l = g ?
				group_find_lun(g, strtoul(o->arg, NULL, 10)) :
				target_find_lun(tg, strtoul(o->arg, NULL, 10));

			if (l)
				print_attrs(&l->attrs, o->arg);
			else
				ret = notfound("LUN %s does not exist%s",
					       o->arg, "");
		}
	} else {
		fprintf(stderr, "scstadmin: unknown command -%s\n", o->cmd);
		ret = EXIT_USAGE;
	}
	tree_free(t);
	return ret;
}
