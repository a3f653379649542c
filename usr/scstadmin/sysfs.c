// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: access to the management tree (/sys/kernel/scst_tgt or a
 * fake tree given with --sysfs-root / SCST_SYSFS_ROOT).
 *
 * Reading builds a struct tree: every regular file of an object is an
 * attribute, those ending in a "[key]" line are key attributes. Writing
 * follows SCST's last_sysfs_mgmt_res protocol: a write that fails with
 * EAGAIN is still running in the kernel; poll last_sysfs_mgmt_res until
 * it is no longer -EAGAIN and take that as the result.
 *
 * On a tree that is not sysfs (tests) writes to "mgmt" files are appended,
 * so a test sees every command that was sent.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "scstadmin.h"

#define SYSFS_MAGIC_NR	0x62656572
#define ATTR_MAX	65536

int sysfs_open(struct sysfs *s, const char *root)
{
	struct statfs sf;
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->root = xstrdup(root);
	s->eagain_timeout_ms = 30000;
	if (stat(root, &st) || !S_ISDIR(st.st_mode))
		return -1;
	s->is_sysfs = statfs(root, &sf) == 0 &&
		      (unsigned long)sf.f_type == SYSFS_MAGIC_NR;
	return 0;
}

void sysfs_close(struct sysfs *s)
{
	free(s->root);
	s->root = NULL;
}

char *sysfs_path(const struct sysfs *s, const char *rel)
{
	return xasprintf("%s/%s", s->root, rel);
}

bool sysfs_exists(const struct sysfs *s, const char *rel)
{
	char *p = sysfs_path(s, rel);
	bool r = access(p, F_OK) == 0;

	free(p);
	return r;
}

/*
 * Permission bits, not access(2): root may write any file of a fake tree
 * and passes access(W_OK) even on sysfs files that have no store method.
 */
static bool sysfs_mode(const struct sysfs *s, const char *rel, mode_t bits)
{
	char *p = sysfs_path(s, rel);
	struct stat st;
	bool r = stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		 (st.st_mode & bits);

	free(p);
	return r;
}

bool sysfs_writable(const struct sysfs *s, const char *rel)
{
	return sysfs_mode(s, rel, 0222);
}

/* Read a whole file, at most ATTR_MAX bytes; NULL with errno on failure. */
static char *read_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t n;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = xmalloc(ATTR_MAX + 1);
	while (len < ATTR_MAX &&
	       (n = read(fd, buf + len, ATTR_MAX - len)) > 0)
		len += (size_t)n;
	if (n < 0) {
		int e = errno;

		close(fd);
		free(buf);
		errno = e;
		return NULL;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

int sysfs_read_attr(const struct sysfs *s, const char *rel, char **value,
		    bool *is_key)
{
	char *p = sysfs_path(s, rel);
	char *buf = read_file(p);
	char *end;

	free(p);
	if (!buf)
		return -errno;
	*is_key = false;
	end = buf + strlen(buf);
	while (end > buf && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	/* last line "[key]"? */
	if (end - buf >= 5 && strcmp(end - 5, "[key]") == 0 &&
	    (end - 5 == buf || end[-6] == '\n')) {
		*is_key = true;
		end -= 5;
		*end = '\0';
		while (end > buf && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
	}
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
	*value = buf;
	return 0;
}

static long read_mgmt_res(const struct sysfs *s, bool *ok)
{
	char *v = NULL;
	bool key;
	long r;

	*ok = false;
	if (sysfs_read_attr(s, "last_sysfs_mgmt_res", &v, &key))
		return 0;
	r = strtol(v, NULL, 10);
	*ok = true;
	free(v);
	return r;
}

/*
 * The result of a command whose write() said EAGAIN: 0 or -errno, or
 * -ETIMEDOUT if last_sysfs_mgmt_res stays -EAGAIN past the timeout.
 */
int sysfs_resolve_eagain(const struct sysfs *s)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int waited = 0;
	long r;
	bool ok;

	for (;;) {
		r = read_mgmt_res(s, &ok);
		if (!ok)
			return -EAGAIN;
		if (r != -EAGAIN)
			return (int)r;
		if (waited >= s->eagain_timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&ts, NULL);
		waited += 20;
	}
}

int sysfs_write(const struct sysfs *s, const char *rel, const char *text)
{
	const char *base = strrchr(rel, '/');
	bool mgmt = strcmp(base ? base + 1 : rel, "mgmt") == 0;
	int flags = O_WRONLY;
	char *p, *line;
	ssize_t n;
	int fd, ret = 0;

	if (s->dry_run)
		return 0;
	if (!s->is_sysfs)
		flags |= mgmt ? O_APPEND : O_TRUNC;
	p = sysfs_path(s, rel);
	fd = open(p, flags);
	free(p);
	if (fd < 0)
		return -errno;
	line = xasprintf("%s\n", text);
	n = write(fd, line, strlen(line));
	if (n < 0)
		ret = errno == EAGAIN ? sysfs_resolve_eagain(s) : -errno;
	else if ((size_t)n != strlen(line))
		ret = -EIO;
	free(line);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* ---- reading the tree ------------------------------------------------- */

enum ent_kind { ENT_FILE, ENT_DIR, ENT_LINK };

typedef VEC(char *) name_vec;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names in @rel of @kind, sorted; hidden entries skipped. */
static void list_dir(const struct sysfs *s, const char *rel,
		     enum ent_kind kind, name_vec *out)
{
	char *p = sysfs_path(s, rel);
	DIR *d = opendir(p);
	struct dirent *e;

	if (!d) {
		free(p);
		return;
	}
	while ((e = readdir(d))) {
		char *ep;
		struct stat st;
		enum ent_kind k;

		if (e->d_name[0] == '.')
			continue;
		ep = xasprintf("%s/%s", p, e->d_name);
		if (lstat(ep, &st)) {
			free(ep);
			continue;
		}
		free(ep);
		k = S_ISLNK(st.st_mode) ? ENT_LINK :
		    S_ISDIR(st.st_mode) ? ENT_DIR : ENT_FILE;
		if (k == kind)
			*vec_push(out) = xstrdup(e->d_name);
	}
	closedir(d);
	free(p);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(char *), cmp_str);
}

static void names_free(name_vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}

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
	name_vec files = { 0 };

	list_dir(s, rel, ENT_FILE, &files);
	for (size_t i = 0; i < files.n; i++) {
		char *ar, *val;
		bool key;
		struct attr *at;

		if (skip_attr(files.v[i]))
			continue;
		ar = xasprintf("%s/%s", rel, files.v[i]);
		/* write-only files (resync_size...) are commands */
		if (!sysfs_mode(s, ar, 0444) ||
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
	names_free(&files);
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
	name_vec v = { 0 };

	list_dir(s, rel, ENT_DIR, &v);
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
	names_free(&v);
}

/* Parse "The following parameters available: a, b, c" from mgmt usage. */
static void read_mgmt_info(const struct sysfs *s, const char *rel,
			   void *params, bool *can_add)
{
	VEC(char *) *pv = params;
	char *p = sysfs_path(s, rel);
	char *buf = read_file(p);
	char *l;

	free(p);
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
	name_vec v = { 0 };

	sysfs_read_attrs(s, rel, &t->attrs, all);
	sub = xasprintf("%s/luns", rel);
	read_luns(s, sub, &t->luns, all);
	free(sub);
	sub = xasprintf("%s/sessions", rel);
	list_dir(s, sub, ENT_DIR, &v);
	t->nsessions = (int)v.n;
	names_free(&v);
	free(sub);
	sub = xasprintf("%s/ini_groups", rel);
	list_dir(s, sub, ENT_DIR, &v);
	for (size_t i = 0; i < v.n; i++) {
		struct group *g = target_add_group(t, v.v[i]);
		char *gr = xasprintf("%s/%s", sub, v.v[i]);
		char *x = xasprintf("%s/luns", gr);
		name_vec in = { 0 };

		sysfs_read_attrs(s, gr, &g->attrs, all);
		read_luns(s, x, &g->luns, all);
		free(x);
		x = xasprintf("%s/initiators", gr);
		list_dir(s, x, ENT_FILE, &in);
		for (size_t j = 0; j < in.n; j++) {
			if (!strcmp(in.v[j], "mgmt"))
				continue;
			vec_push(&g->inits)->name = xstrdup(in.v[j]);
		}
		names_free(&in);
		free(x);
		free(gr);
	}
	names_free(&v);
	free(sub);
	free(rel);
}

/* Entries of @rel that are directories or links (objects), not mgmt. */
static void list_objs(const struct sysfs *s, const char *rel, name_vec *out)
{
	list_dir(s, rel, ENT_DIR, out);
	list_dir(s, rel, ENT_LINK, out);
}

/* device_groups/G/{devices,target_groups/T/TGT} (SCST's ALUA layout) */
static void read_alua(const struct sysfs *s, struct tree *t, bool all)
{
	name_vec v = { 0 };

	t->has_alua = sysfs_exists(s, "device_groups");
	list_dir(s, "device_groups", ENT_DIR, &v);
	for (size_t i = 0; i < v.n; i++) {
		struct dev_group *g = tree_add_dgroup(t, v.v[i]);
		char *rel = xasprintf("device_groups/%s", v.v[i]);
		char *sub = xasprintf("%s/devices", rel);
		name_vec d = { 0 };

		sysfs_read_attrs(s, rel, &g->attrs, all);
		list_objs(s, sub, &d);
		for (size_t j = 0; j < d.n; j++)
			vec_push(&g->devices)->name = xstrdup(d.v[j]);
		names_free(&d);
		free(sub);
		sub = xasprintf("%s/target_groups", rel);
		list_dir(s, sub, ENT_DIR, &d);
		for (size_t j = 0; j < d.n; j++) {
			struct tgt_group *tg = dgroup_add_tgroup(g, d.v[j]);
			char *tr = xasprintf("%s/%s", sub, d.v[j]);
			name_vec tt = { 0 };

			sysfs_read_attrs(s, tr, &tg->attrs, all);
			/*
			 * A target of this system is a link to its targets/
			 * directory: its attributes (rel_tgt_id...) are the
			 * target's own, written in its TARGET_DRIVER section,
			 * so none here (as SCST's scstadmin). Another
			 * system's target is a directory with rel_tgt_id.
			 */
			list_dir(s, tr, ENT_LINK, &tt);
			for (size_t k = 0; k < tt.n; k++)
				tgroup_add_target(tg, tt.v[k]);
			names_free(&tt);
			list_dir(s, tr, ENT_DIR, &tt);
			for (size_t k = 0; k < tt.n; k++) {
				char *x = xasprintf("%s/%s", tr, tt.v[k]);

				sysfs_read_attrs(s, x,
						 &tgroup_add_target(tg, tt.v[k])->attrs,
						 all);
				free(x);
			}
			names_free(&tt);
			free(tr);
		}
		names_free(&d);
		free(sub);
		free(rel);
	}
	names_free(&v);
}

struct tree *sysfs_read_tree(const struct sysfs *s, bool all)
{
	struct tree *t = tree_new();
	name_vec v = { 0 };

	sysfs_read_attrs(s, ".", &t->attrs, all);
	list_dir(s, "handlers", ENT_DIR, &v);
	for (size_t i = 0; i < v.n; i++) {
		struct handler *h = tree_add_handler(t, v.v[i]);
		char *rel = xasprintf("handlers/%s", v.v[i]);
		char *m = xasprintf("%s/mgmt", rel);
		name_vec devs = { 0 };

		sysfs_read_attrs(s, rel, &h->attrs, all);
		read_mgmt_info(s, m, &h->params, NULL);
		list_dir(s, rel, ENT_LINK, &devs);
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
		names_free(&devs);
		free(m);
		free(rel);
	}
	names_free(&v);
	list_dir(s, "targets", ENT_DIR, &v);
	for (size_t i = 0; i < v.n; i++) {
		struct driver *d = tree_add_driver(t, v.v[i]);
		char *rel = xasprintf("targets/%s", v.v[i]);
		char *m = xasprintf("%s/mgmt", rel);
		name_vec tg = { 0 };

		sysfs_read_attrs(s, rel, &d->attrs, all);
		read_mgmt_info(s, m, NULL, &d->can_add_target);
		list_dir(s, rel, ENT_DIR, &tg);
		for (size_t j = 0; j < tg.n; j++)
			read_target(s, d, tg.v[j], all);
		names_free(&tg);
		free(m);
		free(rel);
	}
	names_free(&v);
	read_alua(s, t, all);
	return t;
}
