// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: reading the management tree (/sys/kernel/scst_tgt or a fake
 * tree given with --sysfs-root / SCST_SYSFS_ROOT) into a struct tree,
 * through usr/lib's sysfs access. Every regular file of an object is an
 * attribute, those ending in a "[key]" line are key attributes.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scstadmin.h"

/* Files that are never configuration. */
static bool skip_attr(const char *name)
{
	static const char *const skip[] = {
		"mgmt", "last_sysfs_mgmt_res", "version", NULL
	};

	for (const char *const *p = skip; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

int sysfs_read_attrs(const struct sysfs *s, const char *rel, attr_vec *a,
		     bool all)
{
	str_vec files = { 0 };

	sysfs_list(s, rel, SYSFS_FILE, &files);
	for (size_t i = 0; i < files.n; i++) {
		char *ar, *val;
		bool key;
		struct attr *at;

		if (skip_attr(files.v[i]))
			continue;
		ar = xasprintf("%s/%s", rel, files.v[i]);
		/* write-only files (resync_size...) are commands */
		if (!sysfs_readable(s, ar) ||
		    sysfs_read_attr(s, ar, &val, &key)) {
			free(ar);
			continue;
		}
		if (key || all) {
			at = attr_add(a, files.v[i], val);
			at->is_key = key;
			at->writable = sysfs_writable(s, ar);
		}
		free(val);
		free(ar);
	}
	strs_free(&files);
	return 0;
}

/* The word after the last '/' of a link's target. */
static char *link_base(const struct sysfs *s, const char *rel)
{
	char *p = sysfs_path(s, rel);
	char buf[PATH_MAX];
	ssize_t n = readlink(p, buf, sizeof(buf) - 1);
	char *b;

	free(p);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	b = strrchr(buf, '/');
	return xstrdup(b ? b + 1 : buf);
}

static void read_luns(const struct sysfs *s, const char *rel, void *luns,
		      bool all)
{
	str_vec v = { 0 };

	sysfs_list(s, rel, SYSFS_DIR, &v);
	for (size_t i = 0; i < v.n; i++) {
		char *lr = xasprintf("%s/%s", rel, v.v[i]);
		char *dr = xasprintf("%s/device", lr);
		char *dev = link_base(s, dr);
		char *end;
		unsigned long num = strtoul(v.v[i], &end, 10);

		if (dev && !*end) {
			struct lun *l = lun_add(luns, num, dev);

			sysfs_read_attrs(s, lr, &l->attrs, all);
		}
		free(dev);
		free(dr);
		free(lr);
	}
	strs_free(&v);
}

/* Parse "The following parameters available: a, b, c" from mgmt usage. */
static void read_mgmt_info(const struct sysfs *s, const char *rel,
			   void *params, bool *can_add)
{
	VEC(char *) *pv = params;
	char *buf = sysfs_read_text(s, rel);
	char *l;

	if (!buf)
		return;
	if (can_add)
		*can_add = strstr(buf, "add_target") != NULL;
	l = strstr(buf, "parameters available:");
	if (l && pv) {
		char *save = NULL, *tok;

		l += strlen("parameters available:");
		l[strcspn(l, "\n")] = '\0';
		for (tok = strtok_r(l, ", \t", &save); tok;
		     tok = strtok_r(NULL, ", \t", &save))
			*vec_push(pv) = xstrdup(tok);
	}
	free(buf);
}

static void read_target(const struct sysfs *s, struct driver *d,
			const char *name, bool all)
{
	struct target *t = driver_add_target(d, name);
	char *rel = xasprintf("targets/%s/%s", d->name, name);
	char *sub;
	str_vec v = { 0 };

	sysfs_read_attrs(s, rel, &t->attrs, all);
	sub = xasprintf("%s/luns", rel);
	read_luns(s, sub, &t->luns, all);
	free(sub);
	sub = xasprintf("%s/sessions", rel);
	sysfs_list(s, sub, SYSFS_DIR, &v);
	t->nsessions = (int)v.n;
	strs_free(&v);
	free(sub);
	sub = xasprintf("%s/ini_groups", rel);
	sysfs_list(s, sub, SYSFS_DIR, &v);
	for (size_t i = 0; i < v.n; i++) {
		struct group *g = target_add_group(t, v.v[i]);
		char *gr = xasprintf("%s/%s", sub, v.v[i]);
		char *x = xasprintf("%s/luns", gr);
		str_vec in = { 0 };

		sysfs_read_attrs(s, gr, &g->attrs, all);
		read_luns(s, x, &g->luns, all);
		free(x);
		x = xasprintf("%s/initiators", gr);
		sysfs_list(s, x, SYSFS_FILE, &in);
		for (size_t j = 0; j < in.n; j++) {
			if (!strcmp(in.v[j], "mgmt"))
				continue;
			vec_push(&g->inits)->name = xstrdup(in.v[j]);
		}
		strs_free(&in);
		free(x);
		free(gr);
	}
	strs_free(&v);
	free(sub);
	free(rel);
}

/* Entries of @rel that are directories or links (objects), not mgmt. */
static void list_objs(const struct sysfs *s, const char *rel, str_vec *out)
{
	sysfs_list(s, rel, SYSFS_DIR, out);
	sysfs_list(s, rel, SYSFS_LINK, out);
}

/* device_groups/G/{devices,target_groups/T/TGT} (SCST's ALUA layout) */
static void read_alua(const struct sysfs *s, struct tree *t, bool all)
{
	str_vec v = { 0 };

	t->has_alua = sysfs_exists(s, "device_groups");
	sysfs_list(s, "device_groups", SYSFS_DIR, &v);
	for (size_t i = 0; i < v.n; i++) {
		struct dev_group *g = tree_add_dgroup(t, v.v[i]);
		char *rel = xasprintf("device_groups/%s", v.v[i]);
		char *sub = xasprintf("%s/devices", rel);
		str_vec d = { 0 };

		sysfs_read_attrs(s, rel, &g->attrs, all);
		list_objs(s, sub, &d);
		for (size_t j = 0; j < d.n; j++)
			vec_push(&g->devices)->name = xstrdup(d.v[j]);
		strs_free(&d);
		free(sub);
		sub = xasprintf("%s/target_groups", rel);
		sysfs_list(s, sub, SYSFS_DIR, &d);
		for (size_t j = 0; j < d.n; j++) {
			struct tgt_group *tg = dgroup_add_tgroup(g, d.v[j]);
			char *tr = xasprintf("%s/%s", sub, d.v[j]);
			str_vec tt = { 0 };

			sysfs_read_attrs(s, tr, &tg->attrs, all);
			/*
			 * A target of this system is a link to its targets/
			 * directory: its attributes (rel_tgt_id...) are the
			 * target's own, written in its TARGET_DRIVER section,
			 * so none here (as SCST's scstadmin). Another
			 * system's target is a directory with rel_tgt_id.
			 */
			sysfs_list(s, tr, SYSFS_LINK, &tt);
			for (size_t k = 0; k < tt.n; k++)
				tgroup_add_target(tg, tt.v[k]);
			strs_free(&tt);
			sysfs_list(s, tr, SYSFS_DIR, &tt);
			for (size_t k = 0; k < tt.n; k++) {
				char *x = xasprintf("%s/%s", tr, tt.v[k]);

				sysfs_read_attrs(s, x,
						 &tgroup_add_target(tg, tt.v[k])->attrs,
						 all);
				free(x);
			}
			strs_free(&tt);
			free(tr);
		}
		strs_free(&d);
		free(sub);
		free(rel);
	}
	strs_free(&v);
}

struct tree *sysfs_read_tree(const struct sysfs *s, bool all)
{
	struct tree *t = tree_new();
	str_vec v = { 0 };

	sysfs_read_attrs(s, ".", &t->attrs, all);
	sysfs_list(s, "handlers", SYSFS_DIR, &v);
	for (size_t i = 0; i < v.n; i++) {
		struct handler *h = tree_add_handler(t, v.v[i]);
		char *rel = xasprintf("handlers/%s", v.v[i]);
		char *m = xasprintf("%s/mgmt", rel);
		str_vec devs = { 0 };

		sysfs_read_attrs(s, rel, &h->attrs, all);
		read_mgmt_info(s, m, &h->params, NULL);
		sysfs_list(s, rel, SYSFS_LINK, &devs);
		for (size_t j = 0; j < devs.n; j++) {
			char *dr = xasprintf("devices/%s", devs.v[j]);
			struct device *d;

			if (!sysfs_exists(s, dr)) {
				free(dr);
				continue;
			}
			d = handler_add_device(h, devs.v[j]);
			sysfs_read_attrs(s, dr, &d->attrs, all);
			free(dr);
		}
		strs_free(&devs);
		free(m);
		free(rel);
	}
	strs_free(&v);
	sysfs_list(s, "targets", SYSFS_DIR, &v);
	for (size_t i = 0; i < v.n; i++) {
		struct driver *d = tree_add_driver(t, v.v[i]);
		char *rel = xasprintf("targets/%s", v.v[i]);
		char *m = xasprintf("%s/mgmt", rel);
		str_vec tg = { 0 };

		sysfs_read_attrs(s, rel, &d->attrs, all);
		read_mgmt_info(s, m, NULL, &d->can_add_target);
		sysfs_list(s, rel, SYSFS_DIR, &tg);
		for (size_t j = 0; j < tg.n; j++)
			read_target(s, d, tg.v[j], all);
		strs_free(&tg);
		free(m);
		free(rel);
	}
	strs_free(&v);
	read_alua(s, t, all);
	return t;
}
