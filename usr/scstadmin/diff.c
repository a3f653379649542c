// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: the reconciliation diff. Pure: compares the tree wanted (a
 * parsed scst.conf) with the live tree (read from sysfs with all
 * attributes) and lists the mgmt commands and attribute writes that turn
 * one into the other, in a safe order (enum phase): removals first
 * (targets disabled, initiators, LUNs, groups, targets, devices), then
 * SCST and handler attributes, devices, driver attributes, targets,
 * groups, initiators, LUNs, other attributes, and targets enabled last.
 * ALUA (device_groups/) goes in the group phases: its removals before
 * targets and devices are deleted, its device groups, members and
 * target groups after devices and targets exist and before LUNs are
 * added, their attributes with the other attributes.
 *
 * SCST's rule for -config: it adds and changes what the file says, and
 * removes nothing live that the file lacks unless -force is given. Every
 * action that removes, replaces, moves or disables something live is
 * marked removal (action_needs_force()); its description names what goes
 * with it (the LUNs of a device, the LUNs, groups and sessions of a
 * target, the LUNs and initiators of a group), so the plan that
 * -check_config, -dry_run and a -config without -force print says what
 * -force would take away.
 *
 * Devices are reconciled globally. Targets are reconciled for the drivers
 * the file names (all drivers for -clear_config); drivers it does not name
 * are left alone. A HANDLER or TARGET_DRIVER that is not loaded is skipped
 * with a warning, as SCST does, and so are the LUNs of its devices.
 *
 * A device whose creation parameters differ is closed and re-opened
 * (marked recreate, a removal). Closing it drops every LUN that exported
 * it, so those LUNs count as gone: the file's are added again, and so are
 * the live ones of drivers the file leaves alone (forced_part: made only
 * together with the close).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "scstadmin.h"

/* Drivers an SCST-written file may name that need not be loaded here. */
static const char *const optional_drivers[] = { "copy_manager", NULL };

struct dctx {
	const struct tree *want, *live;
	const struct diff_opts *o;
	action_vec *out;
	str_vec *warn;
	str_vec recreated;	/* devices closed to be re-opened */
	str_vec skipped;	/* devices of handlers that are not loaded */
	char *err;		/* first error (diff_trees() fails with it) */
	size_t errlen;
	bool failed;
};

static struct action *act(struct dctx *c, enum phase ph, bool in_use,
			  bool is_attr, char *path, char *text, char *desc)
{
	struct action *a = vec_push(c->out);

	a->phase = ph;
	a->path = path;
	a->text = text;
	a->desc = desc;
	a->in_use = in_use;
	a->is_attr = is_attr;
	return a;
}

/* An action that removes, replaces or disables something live. */
static struct action *rm_act(struct dctx *c, enum phase ph, bool in_use,
			     char *path, char *text, char *desc)
{
	struct action *a = act(c, ph, in_use, false, path, text, desc);

	a->removal = true;
	return a;
}

static bool in_strs(const str_vec *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

static bool is_recreated(const struct dctx *c, const char *dev)
{
	return in_strs(&c->recreated, dev);
}

/* "@s, @add" (or "@add" if @s is empty), freeing @s and @add. */
static char *join(char *s, char *add)
{
	char *n = *s ? xasprintf("%s, %s", s, add) : xstrdup(add);

	free(s);
	free(add);
	return n;
}

static void warn(struct dctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct dctx *c, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	*vec_push(c->warn) = xstrdup(buf);
}

/*
 * Writes that stop I/O, made only with -force like a removal: SCST's root
 * "suspend" (every device's I/O waits until it is written back), a
 * device's "active 0". NULL for the others.
 */
static const char *stops_io(const char *dir, const char *key,
			    const char *value)
{
	if (!*dir && !strcmp(key, "suspend") && strcmp(value, "0") &&
	    strcmp(value, "-1"))
		return "suspends the I/O of every device";
	if (!strncmp(dir, "devices/", 8) && !strchr(dir + 8, '/') &&
	    !strcmp(key, "active") && !strcmp(value, "0"))
		return "stops the device's I/O";
	return NULL;
}

/*
 * Attributes: each wanted attribute that differs from the live one is
 * written (@live NULL: the object is new, write unconditionally; apply
 * skips writes of equal values). @skip: attributes handled elsewhere.
 */
static void diff_attrs(struct dctx *c, const attr_vec *want,
		       const attr_vec *live, const char *dir, const char *what,
		       enum phase ph, bool (*skip)(const char *, const void *),
		       const void *arg)
{
	for (size_t i = 0; i < want->n; i++) {
		const struct attr *w = &want->v[i];
		const struct attr *l = live ? attr_find(live, w->key) : NULL;

		if (skip && skip(w->key, arg))
			continue;
		if (live && !l) {
			const char *why = *dir ? NULL :
				offline_root_refusal(w->key, w->value);

			if (why && !strcmp(why, "unknown"))
				why = NULL;
			warn(c, "%s has no attribute '%s'; ignored%s%s", what,
			     w->key, why ? ": " : "", why ? why : "");
			continue;
		}
		if (l && !strcmp(l->value, w->value))
			continue;
		if (l && !l->writable) {
			warn(c, "%s: attribute '%s' is read-only (is '%s', file says '%s'); ignored",
			     what, w->key, l->value, w->value);
			continue;
		}
		act(c, ph, false, true,
		    *dir ? xasprintf("%s/%s", dir, w->key) : xstrdup(w->key),
		    xstrdup(w->value),
		    xasprintf("set %s attribute %s=%s", what, w->key,
			      w->value))->stops_io = stops_io(dir, w->key,
							      w->value);
	}
}

static bool skip_param(const char *key, const void *arg)
{
	return handler_has_param(arg, key);
}

static bool skip_enabled(const char *key, const void *arg)
{
	(void)arg;
	return !strcmp(key, "enabled");
}

static bool dev_exported_busy(const struct tree *live, const char *dev)
{
	char where[256];

	return tree_dev_lun(live, dev, true, where, sizeof(where));
}

/*
 * "k=v;k=v" of the key attributes (all of a parsed file's) that are
 * parameters of @h (all if !h or its parameters are unknown).
 */
static char *params_of(const attr_vec *a, const struct handler *h)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < a->n; i++) {
		char *n;

		if (!a->v[i].is_key ||
		    (h && h->params.n && !handler_has_param(h, a->v[i].key)))
			continue;
		n = xasprintf("%s%s%s=%s", s, *s ? ";" : "", a->v[i].key,
			      a->v[i].value);
		free(s);
		s = n;
	}
	return s;
}

/*
 * The creation parameters the file sets for @wd that differ from the live
 * device @ld and cannot be written there, as "k 'old' -> 'new', ...", or
 * NULL. Only closing and re-opening the device changes them.
 */
static char *param_changes(const struct device *wd, const struct device *ld,
			   const struct handler *lh)
{
	char *s = NULL;

	for (size_t i = 0; i < wd->attrs.n; i++) {
		const struct attr *w = &wd->attrs.v[i];
		const struct attr *l = attr_find(&ld->attrs, w->key);
		char *n;

		/*
		 * a vdisk's filename is writable only while the device is
		 * inactive (active=0): a new one still means re-opening
		 */
		if (!l || (l->writable && strcmp(w->key, "filename")) ||
		    !handler_has_param(lh, w->key) ||
		    !strcmp(l->value, w->value))
			continue;
		n = xasprintf("%s%s%s '%s' -> '%s'", s ? s : "", s ? ", " : "",
			      w->key, l->value, w->value);
		free(s);
		s = n;
	}
	return s;
}

/*
 * A creation parameter goes into a mgmt command line ("add_device NAME
 * k=v;k=v", "add DEV N k=v"), whose parser (scst_mgmt_parse.c) splits at
 * blanks and ';': a value with one cannot be passed. Say so at the line
 * of the file rather than send a command that means something else.
 */
static int check_params(struct dctx *c, const attr_vec *a,
			const struct handler *h, const char *cmd)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct attr *at = &a->v[i];

		if (!at->is_key ||
		    (h && h->params.n && !handler_has_param(h, at->key)) ||
		    !strpbrk(at->value, " \t;"))
			continue;
		if (c->failed)
			return -1;
		c->failed = true;
		snprintf(c->err, c->errlen,
			 "%s:%d:%d: the value of '%s' ('%s') contains a blank or ';', which the kernel cannot take in %s",
			 c->want->src ? c->want->src : "(configuration)",
			 at->line, at->col, at->key, at->value, cmd);
		return -1;
	}
	return 0;
}

static int new_device(struct dctx *c, const struct device *wd,
		      const struct handler *lh, bool forced_part)
{
	char *p, *dir, *what;
	size_t n;

	if (check_params(c, &wd->attrs, lh, "add_device parameters"))
		return -1;
	p = params_of(&wd->attrs, lh);
	dir = xasprintf("devices/%s", wd->name);
	what = xasprintf("device %s", wd->name);
	act(c, PH_ADD_DEVICE, false, false,
	    xasprintf("handlers/%s/mgmt", lh->name),
	    xasprintf("add_device %s%s%s", wd->name, *p ? " " : "", p),
	    xasprintf("add device %s (%s)", wd->name, lh->name))->forced_part =
		forced_part;
	n = c->out->n;
	if (lh->params.n)
		diff_attrs(c, &wd->attrs, NULL, dir, what, PH_DEV_ATTR,
			   skip_param, lh);
	for (; n < c->out->n; n++)
		c->out->v[n].forced_part = forced_part;
	free(what);
	free(dir);
	free(p);
	return 0;
}

/*
 * The LUNs that closing @dev takes away without an action of their own:
 * those of drivers the file leaves alone (the file's drivers are
 * reconciled LUN by LUN). "" if none.
 */
static char *luns_taken(const struct dctx *c, const char *dev)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < c->live->drivers.n; i++) {
		const struct driver *d = c->live->drivers.v[i];

		if (c->o->clear || tree_find_driver(c->want, d->name))
			continue;
		for (size_t j = 0; j < d->targets.n; j++) {
			const struct target *t = d->targets.v[j];

			for (size_t k = 0; k < t->luns.n; k++)
				if (!strcmp(t->luns.v[k]->dev, dev))
					s = join(s, xasprintf("LUN %lu of target %s (%s)",
							      t->luns.v[k]->num,
							      t->name, d->name));
			for (size_t g = 0; g < t->groups.n; g++) {
				const struct group *gr = t->groups.v[g];

				for (size_t k = 0; k < gr->luns.n; k++)
					if (!strcmp(gr->luns.v[k]->dev, dev))
						s = join(s, xasprintf("LUN %lu of group %s of target %s (%s)",
								      gr->luns.v[k]->num,
								      gr->name, t->name,
								      d->name));
			}
		}
	}
	return s;
}

static int diff_device(struct dctx *c, const struct handler *lh,
		       const struct device *wd)
{
	struct handler *oh = NULL;
	const struct device *ld = tree_find_device(c->live, wd->name, &oh);
	char *why, *dir, *what;

	if (ld && oh != lh) {
		snprintf(c->err, c->errlen,
			 "device '%s' exists with handler '%s', the file puts it under '%s'",
			 wd->name, oh->name, lh->name);
		return -1;
	}
	why = ld ? param_changes(wd, ld, lh) : NULL;
	if (why) {
		char *taken = luns_taken(c, wd->name);

		rm_act(c, PH_DEL_DEVICE, false,
		       xasprintf("handlers/%s/mgmt", lh->name),
		       xasprintf("del_device %s", wd->name),
		       xasprintf("close device %s (%s) to re-open it: %s%s%s",
				 wd->name, lh->name, why,
				 *taken ? "; meanwhile it takes " : "",
				 taken))->recreate = true;
		free(taken);
		*vec_push(&c->recreated) = xstrdup(wd->name);
		free(why);
		return new_device(c, wd, lh, true);
	}
	if (!ld)
		return new_device(c, wd, lh, false);
	what = xasprintf("device %s", wd->name);
	dir = xasprintf("devices/%s", wd->name);
	diff_attrs(c, &wd->attrs, &ld->attrs, dir, what, PH_DEV_ATTR, NULL,
		   NULL);
	free(what);
	free(dir);
	return 0;
}

static int diff_devices(struct dctx *c)
{
	for (size_t i = 0; i < c->want->handlers.n; i++) {
		const struct handler *wh = c->want->handlers.v[i];
		const struct handler *lh = tree_find_handler(c->live, wh->name);
		char *dir;

		if (!lh) {
			warn(c, "handler '%s' is not loaded (no handlers/%s in the management tree): HANDLER %s (line %d) and its %zu device(s) skipped",
			     wh->name, wh->name, wh->name, wh->line,
			     wh->devices.n);
			for (size_t j = 0; j < wh->devices.n; j++)
				*vec_push(&c->skipped) =
					xstrdup(wh->devices.v[j]->name);
			continue;
		}
		dir = xasprintf("handlers/%s", wh->name);
		diff_attrs(c, &wh->attrs, &lh->attrs, dir, wh->name,
			   PH_GLOBAL_ATTR, NULL, NULL);
		free(dir);
		for (size_t j = 0; j < wh->devices.n; j++)
			if (diff_device(c, lh, wh->devices.v[j]))
				return -1;
	}
	for (size_t i = 0; i < c->live->handlers.n; i++) {
		const struct handler *lh = c->live->handlers.v[i];

		for (size_t j = 0; j < lh->devices.n; j++) {
			const char *name = lh->devices.v[j]->name;
			char *taken;

			if (tree_find_device(c->want, name, NULL))
				continue;
			taken = luns_taken(c, name);
			rm_act(c, PH_DEL_DEVICE, dev_exported_busy(c->live, name),
			       xasprintf("handlers/%s/mgmt", lh->name),
			       xasprintf("del_device %s", name),
			       xasprintf("remove device %s (%s)%s%s", name,
					 lh->name, *taken ? ", and with it " : "",
					 taken));
			free(taken);
		}
	}
	return 0;
}

typedef VEC(struct lun *) lun_vec;

static char *lun_params(const struct lun *l)
{
	char *p = params_of(&l->attrs, NULL);
	char *s = xasprintf("%s%s", *p ? " " : "", p);

	free(p);
	return s;
}

/*
 * "add DEV N params" to @mgmt; @how says why ("add", "re-add": made only
 * together with closing the re-created device).
 */
static void add_lun(struct dctx *c, const char *mgmt, const struct lun *l,
		    const char *owner, const char *how)
{
	char *p;

	if (in_strs(&c->skipped, l->dev)) {
		warn(c, "LUN %lu (%s) of %s skipped: the handler of device '%s' is not loaded",
		     l->num, l->dev, owner, l->dev);
		return;
	}
	if (check_params(c, &l->attrs, NULL, "LUN parameters"))
		return;
	p = lun_params(l);
	act(c, PH_ADD_LUN, false, false, xstrdup(mgmt),
	    xasprintf("add %s %lu%s", l->dev, l->num, p),
	    xasprintf("%s LUN %lu (%s) to %s", how, l->num, l->dev,
		      owner))->forced_part = !strcmp(how, "re-add");
	free(p);
}

/* The live LUNs of @v that closing a re-created device drops, again. */
static void restore_luns(struct dctx *c, const lun_vec *v, const char *dir,
			 const char *owner)
{
	char *mgmt = xasprintf("%s/luns/mgmt", dir);

	for (size_t i = 0; i < v->n; i++)
		if (is_recreated(c, v->v[i]->dev))
			add_lun(c, mgmt, v->v[i], owner, "re-add");
	free(mgmt);
}

static bool lun_differs(const struct lun *w, const struct lun *l)
{
	if (strcmp(w->dev, l->dev))
		return true;
	for (size_t k = 0; k < w->attrs.n; k++) {
		const struct attr *la = attr_find(&l->attrs, w->attrs.v[k].key);

		if (!la || strcmp(la->value, w->attrs.v[k].value))
			return true;
	}
	return false;
}

static void diff_luns(struct dctx *c, const lun_vec *want, const lun_vec *live,
		      const char *dir, const char *owner, bool busy)
{
	char *mgmt = xasprintf("%s/luns/mgmt", dir);

	for (size_t i = 0; live && i < live->n; i++) {
		const struct lun *l = live->v[i];
		bool found = false;

		for (size_t j = 0; want && j < want->n; j++)
			found |= want->v[j]->num == l->num;
		if (!found)
			rm_act(c, PH_DEL_LUN, busy, xstrdup(mgmt),
			       xasprintf("del %lu", l->num),
			       xasprintf("remove LUN %lu (%s) from %s", l->num,
					 l->dev, owner));
	}
	for (size_t i = 0; want && i < want->n; i++) {
		const struct lun *w = want->v[i];
		const struct lun *l = NULL;
		char *p;

		for (size_t j = 0; live && j < live->n; j++)
			if (live->v[j]->num == w->num)
				l = live->v[j];
		if (!l || is_recreated(c, l->dev)) {
			/* closing a re-created device drops its LUNs */
			add_lun(c, mgmt, w, owner, l ? "re-add" : "add");
		} else if (lun_differs(w, l) &&
			   !check_params(c, &w->attrs, NULL, "LUN parameters")) {
			/* SCST: "configured differently", re-assigned */
			p = lun_params(w);
			rm_act(c, PH_ADD_LUN, busy, xstrdup(mgmt),
			       xasprintf("replace %s %lu%s", w->dev, w->num, p),
			       xasprintf("replace LUN %lu of %s: %s -> %s%s%s",
					 w->num, owner, l->dev, w->dev,
					 *p ? " with" : "", p));
			free(p);
		}
	}
	free(mgmt);
}

/* ", and with it LUN 3 (d1), initiator a" of a group, or "". */
static char *group_contents(const struct group *g)
{
	char *s = xstrdup(""), *r;

	for (size_t i = 0; i < g->luns.n; i++)
		s = join(s, xasprintf("LUN %lu (%s)", g->luns.v[i]->num,
				      g->luns.v[i]->dev));
	for (size_t i = 0; i < g->inits.n; i++)
		s = join(s, xasprintf("initiator %s", g->inits.v[i].name));
	r = *s ? xasprintf(", and with it %s", s) : xstrdup("");
	free(s);
	return r;
}

/* The live group of @lt other than @not that holds initiator @ini. */
static const struct group *init_group(const struct target *lt,
				      const struct group *not, const char *ini)
{
	for (size_t i = 0; lt && i < lt->groups.n; i++)
		if (lt->groups.v[i] != not &&
		    group_has_init(lt->groups.v[i], ini))
			return lt->groups.v[i];
	return NULL;
}

struct tpair {
	const struct target *w, *l;	/* wanted and live (either NULL) */
	const char *dir, *name;
	bool busy;
};

/*
 * An initiator the file puts in @w that the live tree has in another
 * group @from: SCST moves it (with -force). If @from stays, one "move";
 * if it goes, the add waits for the group's removal (forced_part).
 */
static void move_init(struct dctx *c, const struct tpair *tp,
		      const struct group *w, const struct group *from,
		      const char *ini, const char *owner, const char *imgmt)
{
	if (tp->w && target_find_group(tp->w, from->name)) {
		rm_act(c, PH_ADD_INIT, tp->busy,
		       xasprintf("%s/ini_groups/%s/initiators/mgmt", tp->dir,
				 from->name),
		       xasprintf("move %s %s", ini, w->name),
		       xasprintf("move initiator %s from group %s to %s", ini,
				 from->name, owner));
		return;
	}
	act(c, PH_ADD_INIT, false, false, xstrdup(imgmt),
	    xasprintf("add %s", ini),
	    xasprintf("add initiator %s to %s (it leaves group %s, which goes)",
		      ini, owner, from->name))->forced_part = true;
}

static void diff_group(struct dctx *c, const struct group *w,
		       const struct group *l, const struct tpair *tp)
{
	char *dir = xasprintf("%s/ini_groups/%s", tp->dir,
			      w ? w->name : l->name);
	char *owner = xasprintf("group %s of %s", w ? w->name : l->name,
				tp->name);
	char *imgmt = xasprintf("%s/initiators/mgmt", dir);

	if (!w) {
		char *with = group_contents(l);

		rm_act(c, PH_DEL_GROUP, tp->busy,
		       xasprintf("%s/ini_groups/mgmt", tp->dir),
		       xasprintf("del %s", l->name),
		       xasprintf("remove %s%s", owner, with));
		free(with);
		goto out;
	}
	if (!l)
		act(c, PH_ADD_GROUP, false, false,
		    xasprintf("%s/ini_groups/mgmt", tp->dir),
		    xasprintf("create %s", w->name),
		    xasprintf("add %s", owner));
	for (size_t i = 0; l && i < l->inits.n; i++) {
		const char *ini = l->inits.v[i].name;
		bool moves = false;

		for (size_t k = 0; tp->w && k < tp->w->groups.n; k++)
			moves |= group_has_init(tp->w->groups.v[k], ini);
		if (!group_has_init(w, ini) && !moves)
			rm_act(c, PH_DEL_INIT, tp->busy, xstrdup(imgmt),
			       xasprintf("del %s", ini),
			       xasprintf("remove initiator %s from %s", ini,
					 owner));
	}
	for (size_t i = 0; i < w->inits.n; i++) {
		const char *ini = w->inits.v[i].name;
		const struct group *from;

		if (l && group_has_init(l, ini))
			continue;
		from = init_group(tp->l, l, ini);
		if (from)
			move_init(c, tp, w, from, ini, owner, imgmt);
		else
			act(c, PH_ADD_INIT, false, false, xstrdup(imgmt),
			    xasprintf("add %s", ini),
			    xasprintf("add initiator %s to %s", ini, owner));
	}
	diff_luns(c, (const lun_vec *)&w->luns,
		  l ? (const lun_vec *)&l->luns : NULL, dir, owner, tp->busy);
	diff_attrs(c, &w->attrs, l ? &l->attrs : NULL, dir, owner, PH_ATTR,
		   NULL, NULL);
out:
	free(imgmt);
	free(owner);
	free(dir);
}

static bool attr_is(const attr_vec *a, const char *k, const char *v)
{
	const struct attr *at = attr_find(a, k);

	return at && !strcmp(at->value, v);
}

/* @w NULL: the target stays (it cannot be removed) but is emptied. */
static void diff_target(struct dctx *c, const struct driver *drv,
			const struct target *w, const struct target *l)
{
	const char *name = w ? w->name : l->name;
	char *dir = xasprintf("targets/%s/%s", drv->name, name);
	char *owner = xasprintf("target %s", name);
	struct tpair tp = {
		.w = w, .l = l, .dir = dir, .name = name,
		.busy = l && l->nsessions > 0,
	};
	const struct attr *we = w ? attr_find(&w->attrs, "enabled") : NULL;

	diff_luns(c, w ? (const lun_vec *)&w->luns : NULL,
		  l ? (const lun_vec *)&l->luns : NULL, dir, owner, tp.busy);
	for (size_t i = 0; l && i < l->groups.n; i++)
		if (!w || !target_find_group(w, l->groups.v[i]->name))
			diff_group(c, NULL, l->groups.v[i], &tp);
	for (size_t i = 0; w && i < w->groups.n; i++)
		diff_group(c, w->groups.v[i],
			   l ? target_find_group(l, w->groups.v[i]->name) : NULL,
			   &tp);
	if (w)
		diff_attrs(c, &w->attrs, l ? &l->attrs : NULL, dir, owner,
			   PH_ATTR, skip_enabled, NULL);
	/* enabling last, disabling first */
	if (we && strcmp(we->value, "0") &&
	    !(l && attr_is(&l->attrs, "enabled", we->value)))
		act(c, PH_ENABLE, false, false, xasprintf("%s/enabled", dir),
		    xstrdup(we->value), xasprintf("enable %s", owner));
	else if ((!we || !strcmp(we->value, "0")) && l &&
		 attr_is(&l->attrs, "enabled", "1"))
		rm_act(c, PH_DISABLE, tp.busy, xasprintf("%s/enabled", dir),
		       xstrdup("0"),
		       xasprintf("disable %s (%s)%s", owner, drv->name,
				 tp.busy ? ": its sessions end" : ""));
	free(owner);
	free(dir);
}

/* ", and with it 2 LUN(s), group g, 1 session(s)" of a live target. */
static char *target_contents(const struct target *t)
{
	char *s = xstrdup(""), *r;

	if (t->luns.n)
		s = join(s, xasprintf("%zu LUN(s)", t->luns.n));
	for (size_t i = 0; i < t->groups.n; i++)
		s = join(s, xasprintf("group %s", t->groups.v[i]->name));
	if (t->nsessions)
		s = join(s, xasprintf("%d session(s)", t->nsessions));
	r = *s ? xasprintf(", and with it %s", s) : xstrdup("");
	free(s);
	return r;
}

static bool is_optional_driver(const char *name)
{
	for (const char *const *p = optional_drivers; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}


/*
 * "set driver D enabled=V"; disabling a driver disables all its targets:
 * their sessions end ("..., ending the sessions of targets T1 (2), T2").
 */
static char *drv_enable_desc(const char *drv, const char *value,
			     const struct driver *l, bool off)
{
	char *s = xasprintf("set driver %s enabled=%s", drv, value);
	char *list = xstrdup("");

	for (size_t j = 0; off && j < l->targets.n; j++)
		list = join(list, xasprintf("%s (%d session(s))",
					    l->targets.v[j]->name,
					    l->targets.v[j]->nsessions));
	if (*list) {
		char *n = xasprintf("%s: its targets stop and their sessions end: %s",
				    s, list);

		free(s);
		s = n;
	}
	free(list);
	return s;
}

static int diff_driver(struct dctx *c, const struct driver *w,
		       const struct driver *l)
{
	const struct driver *drv = w ? w : l;
	char *dir = xasprintf("targets/%s", drv->name);

	if (w) {
		diff_attrs(c, &w->attrs, &l->attrs, dir, drv->name,
			   PH_DRV_ATTR, skip_enabled, NULL);
		for (size_t i = 0; i < w->targets.n; i++) {
			const struct target *wt = w->targets.v[i];
			const struct target *lt =
				driver_find_target(l, wt->name);

			if (!lt && (wt->hw_target || !l->can_add_target)) {
				snprintf(c->err, c->errlen,
					 "target '%s' of driver '%s' does not exist and %s",
					 wt->name, drv->name, wt->hw_target ?
					 "it is a HW_TARGET: hardware targets cannot be created" :
					 "the driver cannot create targets");
				free(dir);
				return -1;
			}
			if (!lt)
				act(c, PH_ADD_TARGET, false, false,
				    xasprintf("%s/mgmt", dir),
				    xasprintf("add_target %s", wt->name),
				    xasprintf("add target %s (%s)", wt->name,
					      drv->name));
			diff_target(c, drv, wt, lt);
		}
		{
			const struct attr *we = attr_find(&w->attrs, "enabled");

			if (we && !attr_is(&l->attrs, "enabled", we->value)) {
				bool off = !strcmp(we->value, "0");
				char *desc = drv_enable_desc(drv->name,
							     we->value, l, off);
				size_t nsess = 0;

				for (size_t j = 0; off && j < l->targets.n; j++)
					nsess += (size_t)l->targets.v[j]->nsessions;
				act(c, off ? PH_DISABLE : PH_ENABLE, nsess > 0,
				    false, xasprintf("%s/enabled", dir),
				    xstrdup(we->value), desc)->removal = off;
			}
		}
	}
	for (size_t i = 0; i < l->targets.n; i++) {
		const struct target *lt = l->targets.v[i];

		if (w && driver_find_target(w, lt->name))
			continue;
		if (l->can_add_target) {
			char *with = target_contents(lt);

			rm_act(c, PH_DEL_TARGET, lt->nsessions > 0,
			       xasprintf("%s/mgmt", dir),
			       xasprintf("del_target %s", lt->name),
			       xasprintf("remove target %s (%s)%s", lt->name,
					 drv->name, with));
			free(with);
		} else
			diff_target(c, drv, NULL, lt);
	}
	free(dir);
	return 0;
}


/* LUNs of drivers the file leaves alone that a re-created device drops. */
static void restore_other_luns(struct dctx *c)
{
	for (size_t i = 0; i < c->live->drivers.n && c->recreated.n; i++) {
		const struct driver *d = c->live->drivers.v[i];

		if (tree_find_driver(c->want, d->name))
			continue;
		for (size_t j = 0; j < d->targets.n; j++) {
			const struct target *t = d->targets.v[j];
			char *dir = xasprintf("targets/%s/%s", d->name, t->name);
			char *owner = xasprintf("target %s", t->name);

			restore_luns(c, (const lun_vec *)&t->luns, dir, owner);
			for (size_t k = 0; k < t->groups.n; k++) {
				const struct group *g = t->groups.v[k];
				char *gdir = xasprintf("%s/ini_groups/%s", dir,
						       g->name);
				char *gown = xasprintf("group %s of %s",
						       g->name, t->name);

				restore_luns(c, (const lun_vec *)&g->luns,
					     gdir, gown);
				free(gown);
				free(gdir);
			}
			free(owner);
			free(dir);
		}
	}
}

static bool has_name(const struct initiator *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return true;
	return false;
}

/* The live device group other than @not that holds device @dev. */
static const struct dev_group *live_dgroup_of(const struct dctx *c,
					      const char *dev,
					      const struct dev_group *not)
{
	for (size_t i = 0; i < c->live->dgroups.n; i++) {
		const struct dev_group *g = c->live->dgroups.v[i];

		if (g != not && has_name(g->devices.v, g->devices.n, dev))
			return g;
	}
	return NULL;
}

/*
 * The members of device group @w (live @l, or NULL): each one @l lacks
 * is added, each one the file lacks removed (with -force). SCST keeps a
 * device in one device group: one that moves from another is added
 * only together with its removal there (forced_part), and so is one
 * that closing and re-opening takes out of its group (SCST drops a
 * device from its group when it is unregistered).
 */
static void diff_dg_devices(struct dctx *c, const struct dev_group *w,
			    const struct dev_group *l, const char *mgmt)
{
	for (size_t i = 0; i < w->devices.n; i++) {
		const char *dev = w->devices.v[i].name;
		bool here = l && has_name(l->devices.v, l->devices.n, dev);
		const struct dev_group *from = live_dgroup_of(c, dev, l);

		if (in_strs(&c->skipped, dev)) {
			warn(c, "device %s of device group %s skipped: its handler is not loaded",
			     dev, w->name);
			continue;
		}
		if (is_recreated(c, dev) && (here || from)) {
			act(c, PH_ADD_GROUP, false, false, xstrdup(mgmt),
			    xasprintf("add %s", dev),
			    xasprintf("re-add device %s to device group %s",
				      dev, w->name))->forced_part = true;
			continue;
		}
		if (here)
			continue;
		act(c, PH_ADD_GROUP, false, false, xstrdup(mgmt),
		    xasprintf("add %s", dev),
		    from ? xasprintf("add device %s to device group %s (it leaves device group %s)",
				     dev, w->name, from->name) :
		    xasprintf("add device %s to device group %s", dev,
			      w->name))->forced_part = from != NULL;
	}
	for (size_t i = 0; l && i < l->devices.n; i++)
		if (!has_name(w->devices.v, w->devices.n, l->devices.v[i].name))
			rm_act(c, PH_DEL_GROUP, false, xstrdup(mgmt),
			       xasprintf("del %s", l->devices.v[i].name),
			       xasprintf("remove device %s from device group %s",
					 l->devices.v[i].name, w->name));
}

static const struct target *tg_target(const struct tgt_group *g,
				      const char *name)
{
	for (size_t i = 0; g && i < g->targets.n; i++)
		if (!strcmp(g->targets.v[i]->name, name))
			return g->targets.v[i];
	return NULL;
}

/*
 * Target @name of this system (a driver's, live or in the file), or
 * NULL; @found says whether there is one.
 */
static const struct target *local_target(const struct dctx *c,
					 const char *name, bool *found)
{
	const struct tree *t[2] = { c->live, c->want };

	*found = false;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < t[k]->drivers.n; i++) {
			const struct target *x =
				driver_find_target(t[k]->drivers.v[i], name);

			if (x) {
				*found = true;
				return x;
			}
		}
	return NULL;
}

/*
 * A target group's target's attributes (rel_tgt_id). Those of a target
 * of this system are its own (the tree has a link to its directory, as
 * SCST's sysfs): set in its TARGET_DRIVER section, not here.
 */
static void diff_ttgt_attrs(struct dctx *c, const struct target *wt,
			    const struct target *lt, const char *tdir,
			    const char *tw)
{
	const struct target *own;
	bool local;

	if (!wt->attrs.n)
		return;
	own = local_target(c, wt->name, &local);
	if (local) {
		const struct attr *w = &wt->attrs.v[0];
		const struct attr *a = attr_find(&own->attrs, w->key);
		const struct attr *b = lt ? attr_find(&lt->attrs, w->key) :
				       NULL;

		/* silent where it says what the target has anyway */
		if ((a && !strcmp(a->value, w->value)) ||
		    (b && !strcmp(b->value, w->value)))
			return;
		warn(c, "%s: attribute %s=%s ignored: %s is a target of this system, whose rel_tgt_id is set in its TARGET_DRIVER section",
		     tw, w->key, w->value, wt->name);
		return;
	}
	diff_attrs(c, &wt->attrs, lt ? &lt->attrs : NULL, tdir, tw, PH_ATTR,
		   NULL, NULL);
}

/* Whether @name is a target of a TARGET_DRIVER that is not loaded. */
static bool skipped_driver_target(const struct dctx *c, const char *name)
{
	for (size_t i = 0; i < c->want->drivers.n; i++) {
		const struct driver *d = c->want->drivers.v[i];

		if (!tree_find_driver(c->live, d->name) &&
		    driver_find_target(d, name))
			return true;
	}
	return false;
}

/*
 * group_id 0 is what a target group never given one shows (and what
 * -write_config then saves); SCST's store refuses 0, so it is not
 * written.
 */
static bool skip_group_id0(const char *key, const void *arg)
{
	const struct tgt_group *w = arg;
	const struct attr *a = attr_find(&w->attrs, key);

	return !strcmp(key, "group_id") && a && !strcmp(a->value, "0");
}

/* One target group: created, its targets added/removed, attributes. */
static void diff_tgroup(struct dctx *c, const char *gdir,
			const struct dev_group *lg, const struct tgt_group *w,
			const struct tgt_group *l)
{
	char *dir = xasprintf("%s/target_groups/%s", gdir, w->name);
	char *mgmt = xasprintf("%s/mgmt", dir);
	char *what = xasprintf("target group %s", w->name);

	if (!l)
		act(c, PH_ADD_GROUP, false, false,
		    xasprintf("%s/target_groups/mgmt", gdir),
		    xasprintf("create %s", w->name), xasprintf("add %s", what));
	for (size_t i = 0; i < w->targets.n; i++) {
		const struct target *wt = w->targets.v[i];
		const struct target *lt = tg_target(l, wt->name);
		const struct tgt_group *from = NULL;
		char *tdir = xasprintf("%s/%s", dir, wt->name);
		char *tw = xasprintf("target %s of %s", wt->name, what);

		/*
		 * A target of a driver the file names but that is not
		 * loaded: added now, SCST would take it for another
		 * system's target, and keep it so once the driver loads.
		 */
		if (!lt && skipped_driver_target(c, wt->name)) {
			warn(c, "%s skipped: its target driver is not loaded",
			     tw);
			free(tw);
			free(tdir);
			continue;
		}
		/* SCST: a target is in one target group of a device group */
		for (size_t j = 0; !lt && lg && j < lg->tgroups.n; j++)
			if (lg->tgroups.v[j] != l &&
			    tg_target(lg->tgroups.v[j], wt->name))
				from = lg->tgroups.v[j];
		if (!lt && from)
			act(c, PH_ADD_GROUP, false, false, xstrdup(mgmt),
			    xasprintf("add %s", wt->name),
			    xasprintf("add %s (it leaves target group %s)", tw,
				      from->name))->forced_part = true;
		else if (!lt)
			act(c, PH_ADD_GROUP, false, false, xstrdup(mgmt),
			    xasprintf("add %s", wt->name),
			    xasprintf("add %s", tw));
		diff_ttgt_attrs(c, wt, lt, tdir, tw);
		free(tw);
		free(tdir);
	}
	for (size_t j = 0; l && j < l->targets.n; j++)
		if (!tg_target(w, l->targets.v[j]->name))
			rm_act(c, PH_DEL_GROUP, false, xstrdup(mgmt),
			       xasprintf("del %s", l->targets.v[j]->name),
			       xasprintf("remove target %s from %s",
					 l->targets.v[j]->name, what));
	{
		const struct attr *gid = attr_find(&w->attrs, "group_id");
		const struct attr *lid = l ? attr_find(&l->attrs, "group_id") :
					 NULL;

		if (gid && !strcmp(gid->value, "0") && lid &&
		    strcmp(lid->value, "0"))
			warn(c, "%s: group_id 0 (never set) cannot be written; left at %s",
			     what, lid->value);
	}
	diff_attrs(c, &w->attrs, l ? &l->attrs : NULL, dir, what, PH_ATTR,
		   skip_group_id0, w);
	free(what);
	free(mgmt);
	free(dir);
}

/*
 * ALUA (DEVICE_GROUP, TARGET_GROUP) lives under device_groups/ in SCST's
 * layout. While the running modules have none, the blocks (checked by
 * conf_check) are skipped with one warning each; where it exists they
 * are reconciled like the rest (removals only with -force).
 */
/*
 * What goes with a removed ALUA group, as ", and with it ...": its
 * target members; for a device group its devices and target groups too.
 * A static buffer: used once per message.
 */
/* Append @name to @buf (@n used): after @first if it is the first. */
static size_t add_name(char *buf, size_t size, size_t n, const char *first,
		       const char *name, size_t ntargets)
{
	if (n >= size)
		return n;	/* full: the message is cut, nothing else */
	if (ntargets != (size_t)-1)
		return n + (size_t)snprintf(buf + n, size - n, "%s%s (%zu target(s))",
					    first ? first : ", ", name,
					    ntargets);
	return n + (size_t)snprintf(buf + n, size - n, "%s%s",
				    first ? first : ", ", name);
}

static const char *tgroup_with(const struct tgt_group *g)
{
	static char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < g->targets.n; i++)
		n = add_name(buf, sizeof(buf), n,
			     i ? NULL : ", and with it target(s) ",
			     g->targets.v[i]->name, (size_t)-1);
	return buf;
}

static const char *dgroup_with(const struct dev_group *g)
{
	static char buf[2048];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < g->devices.n; i++)
		n = add_name(buf, sizeof(buf), n,
			     i ? NULL : ", and with it device(s) ",
			     g->devices.v[i].name, (size_t)-1);
	for (size_t i = 0; i < g->tgroups.n; i++)
		n = add_name(buf, sizeof(buf), n,
			     i ? NULL : n ? "; target group(s) " :
			     ", and with it target group(s) ",
			     g->tgroups.v[i]->name, g->tgroups.v[i]->targets.n);
	return buf;
}

static void diff_alua(struct dctx *c)
{
	for (size_t i = 0; !c->live->has_alua && i < c->want->dgroups.n; i++)
		warn(c, "ALUA not supported by the running modules (no device_groups in the management tree): DEVICE_GROUP %s (line %d) skipped",
		     c->want->dgroups.v[i]->name, c->want->dgroups.v[i]->line);
	for (size_t i = 0; c->live->has_alua && i < c->want->dgroups.n; i++) {
		const struct dev_group *w = c->want->dgroups.v[i];
		const struct dev_group *l = tree_find_dgroup(c->live, w->name);
		char *dir = xasprintf("device_groups/%s", w->name);
		char *dmgmt = xasprintf("%s/devices/mgmt", dir);

		if (!l)
			act(c, PH_ADD_GROUP, false, false,
			    xstrdup("device_groups/mgmt"),
			    xasprintf("create %s", w->name),
			    xasprintf("add device group %s", w->name));
		diff_dg_devices(c, w, l, dmgmt);
		for (size_t j = 0; j < w->tgroups.n; j++)
			diff_tgroup(c, dir, l, w->tgroups.v[j],
				    l ? dgroup_find_tgroup(l, w->tgroups.v[j]->name) :
				    NULL);
		for (size_t j = 0; l && j < l->tgroups.n; j++)
			if (!dgroup_find_tgroup(w, l->tgroups.v[j]->name))
				rm_act(c, PH_DEL_GROUP, false,
				       xasprintf("%s/target_groups/mgmt", dir),
				       xasprintf("del %s", l->tgroups.v[j]->name),
				       xasprintf("remove target group %s of device group %s%s",
						 l->tgroups.v[j]->name, w->name,
						 tgroup_with(l->tgroups.v[j])));
		diff_attrs(c, &w->attrs, l ? &l->attrs : NULL, dir, w->name,
			   PH_ATTR, NULL, NULL);
		free(dmgmt);
		free(dir);
	}
	for (size_t i = 0; i < c->live->dgroups.n; i++)
		if (!tree_find_dgroup(c->want, c->live->dgroups.v[i]->name))
			rm_act(c, PH_DEL_GROUP, false,
			       xstrdup("device_groups/mgmt"),
			       xasprintf("del %s", c->live->dgroups.v[i]->name),
			       xasprintf("remove device group %s%s",
					 c->live->dgroups.v[i]->name,
					 dgroup_with(c->live->dgroups.v[i])));
}

/* SCST root attributes of the file accepted without effect (offline.c) */
static bool root_inert_skip(const char *key, const void *arg)
{
	const struct attr *a = attr_find(arg, key);

	return a && root_attr_inert(key, a->value);
}

static int diff_all(struct dctx *c)
{
	const struct tree *want = c->want, *live = c->live;

	diff_attrs(c, &want->attrs, &live->attrs, "", "SCST", PH_GLOBAL_ATTR,
		   root_inert_skip, &want->attrs);
	if (diff_devices(c))
		return -1;
	for (size_t i = 0; i < want->drivers.n; i++) {
		const struct driver *w = want->drivers.v[i];
		const struct driver *l = tree_find_driver(live, w->name);

		if (!l) {
			if (is_optional_driver(w->name))
				warn(c, "note: driver '%s' is not loaded; its section is skipped",
				     w->name);
			else
				warn(c, "target driver '%s' is not loaded (no targets/%s in the management tree): TARGET_DRIVER %s (line %d) skipped",
				     w->name, w->name, w->name, w->line);
			continue;
		}
		if (diff_driver(c, w, l))
			return -1;
	}
	diff_alua(c);
	if (!c->o->clear) {
		restore_other_luns(c);
		return 0;
	}
	for (size_t i = 0; i < live->drivers.n; i++) {
		const struct driver *l = live->drivers.v[i];

		if (is_optional_driver(l->name) ||
		    tree_find_driver(want, l->name))
			continue;
		if (diff_driver(c, NULL, l))
			return -1;
	}
	return 0;
}

int diff_trees(const struct tree *want, const struct tree *live,
	       const struct diff_opts *o, action_vec *out,
	       str_vec *warnings, char *err, size_t errlen)
{
	static const struct diff_opts none;
	struct dctx c = {
		.want = want, .live = live, .o = o ? o : &none,
		.out = out, .warn = warnings, .err = err, .errlen = errlen,
	};
	int ret;

	if (errlen)
		err[0] = '\0';
	ret = diff_all(&c);
	strs_free(&c.recreated);
	strs_free(&c.skipped);
	if (ret || c.failed)
		return -1;
	/* qsort is not stable: sort pointers' order by phase, then index */
	if (out->n > 1) {
		struct action *tmp = xmalloc(out->n * sizeof(*tmp));
		size_t k = 0;

		for (int ph = 0; ph < PH_COUNT; ph++)
			for (size_t i = 0; i < out->n; i++)
				if (out->v[i].phase == (enum phase)ph)
					tmp[k++] = out->v[i];
		memcpy(out->v, tmp, out->n * sizeof(*tmp));
		free(tmp);
	}
	return 0;
}

void actions_free(action_vec *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].path);
		free(a->v[i].text);
		free(a->v[i].desc);
	}
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}
