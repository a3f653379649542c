// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: semantic checks of a parsed scst.conf, done before anything
 * is changed: duplicate handlers, devices, drivers, targets, groups, LUNs
 * and initiators, LUNs that name a device the file does not define, and
 * names and attribute keys that cannot be what they become: a sysfs path
 * component and a word of a mgmt command line. As in SCST, one initiator
 * in two groups of a target is an error (which group would its session
 * see?). DEVICE_GROUP blocks are checked the same way.
 */
#include <stdarg.h>
#include <string.h>

#include "scstadmin.h"

static int cerr(char *err, size_t errlen, const char *fname, int line,
		int col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int cerr(char *err, size_t errlen, const char *fname, int line,
		int col, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s:%d:%d: ", fname, line, col);

	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Names of handlers, devices, drivers, targets, groups and initiators are
 * directory or file names under the sysfs root and words of mgmt command
 * lines ("add_device NAME ...", "add NAME"): not empty, not "." or "..",
 * no '/', and no blank, ';' or control character, which the kernel's mgmt
 * parser splits at or refuses. Without this check a quoted name such as
 * "../x" or "a b" made scstadmin write outside the tree or send a command
 * that means something else (found by tests/fuzz/fuzz_conf_parse).
 */
static const char *bad_name(const char *s)
{
	if (!*s)
		return "empty";
	if (!strcmp(s, ".") || !strcmp(s, ".."))
		return "not a file name";
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '/')
			return "contains '/'";
		if (c <= ' ' || c == ';' || c == 0x7f)
			return "contains a blank, ';' or a control character";
	}
	return NULL;
}

/* An attribute key is a sysfs file name: [A-Za-z0-9_-]+. */
static bool good_key(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return false;
	return true;
}

static int check_name(const char *kind, const char *name, int line, int col,
		      const char *fname, char *err, size_t errlen)
{
	const char *why = bad_name(name);

	if (!why)
		return 0;
	return cerr(err, errlen, fname, line, col, "bad %s name '%s': %s",
		    kind, name, why);
}

/*
 * Upper-case words in statement position are section keywords (parser.c):
 * a quoted key of that shape would be written back unquoted as one.
 */
static bool keyword_shaped(const char *s)
{
	if (!(*s >= 'A' && *s <= 'Z'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || *s == '_'))
			return false;
	return true;
}

static int check_attrs(const attr_vec *a, const char *fname, char *err,
		       size_t errlen)
{
	for (size_t i = 0; i < a->n; i++) {
		if (!good_key(a->v[i].key))
			return cerr(err, errlen, fname, a->v[i].line,
				    a->v[i].col,
				    "bad attribute name '%s': expected letters, digits, '_' and '-'",
				    a->v[i].key);
		if (keyword_shaped(a->v[i].key))
			return cerr(err, errlen, fname, a->v[i].line,
				    a->v[i].col,
				    "bad attribute name '%s': upper-case words are section keywords",
				    a->v[i].key);
		/* every directory's mgmt is its command file (found by fuzz_conf_diff) */
		if (!strcmp(a->v[i].key, "mgmt"))
			return cerr(err, errlen, fname, a->v[i].line,
				    a->v[i].col,
				    "bad attribute name 'mgmt': it is the management file of its directory");
	}
	return 0;
}

typedef VEC(struct lun *) lun_vec;

static int check_luns(const struct tree *t, const lun_vec *v,
		      const char *owner, const char *fname,
		      char *err, size_t errlen)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct lun *l = v->v[i];

		for (size_t j = 0; j < i; j++)
			if (v->v[j]->num == l->num)
				return cerr(err, errlen, fname, l->line, l->col,
					    "duplicate LUN %lu in %s (first at line %d)",
					    l->num, owner, v->v[j]->line);
		if (check_attrs(&l->attrs, fname, err, errlen))
			return -1;
		if (!tree_find_device(t, l->dev, NULL))
			return cerr(err, errlen, fname, l->line, l->dev_col,
				    "LUN %lu refers to unknown device '%s': expected a DEVICE defined in a HANDLER section",
				    l->num, l->dev);
	}
	return 0;
}

/* An initiator name in two groups of one target (SCST refuses it). */
static int check_init_groups(const struct target *tg, const char *fname,
			     char *err, size_t errlen)
{
	for (size_t k = 0; k < tg->groups.n; k++) {
		const struct group *g = tg->groups.v[k];

		for (size_t m = 0; m < g->inits.n; m++)
			for (size_t j = 0; j < k; j++) {
				const struct group *o = tg->groups.v[j];

				if (group_has_init(o, g->inits.v[m].name))
					return cerr(err, errlen, fname,
						    g->inits.v[m].line,
						    g->inits.v[m].col,
						    "initiator '%s' is in GROUP '%s' and in GROUP '%s' (line %d) of TARGET '%s': an initiator belongs to one group of a target",
						    g->inits.v[m].name, g->name,
						    o->name, o->line, tg->name);
			}
	}
	return 0;
}

/*
 * An ALUA number as SCST's sysfs store takes it (kstrtoul, base 0):
 * decimal or 0x-hex, here without octal (a leading 0 would read as
 * octal there and compare unequal to what the kernel shows here).
 * -1 if it is none or above @max.
 */
static long alua_number(const char *s, long max)
{
	int base = 10;
	long v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1]) {
		return -1;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		v = v * base + d;
		if (v > max)
			return -1;
	}
	return v;
}

/* SCST's target port group states (scst_tg.c), SPC-4 6.37 table 273 */
static const char *const alua_states[] = {
	"active", "nonoptimized", "standby", "unavailable", "offline",
	"transitioning", NULL,
};

/*
 * The attributes of a target group: SCST's sysfs has exactly group_id
 * (the TARGET PORT GROUP field of REPORT TARGET PORT GROUPS, SPC-4
 * 6.37: 1 to 65535; 0 is what a group whose id was never set shows, so
 * a file SCST wrote may hold it), preferred (the PREF bit: 0 or 1) and
 * state. Anything else would fail when written, after other changes.
 */
static int check_tgroup_attr(const struct attr *a, const char *tg,
			     const char *fname, char *err, size_t errlen)
{
	bool ok = true;

	if (!strcmp(a->key, "group_id")) {
		ok = alua_number(a->value, 0xffff) >= 0;
		if (!ok)
			return cerr(err, errlen, fname, a->line, a->col,
				    "bad group_id '%s' of TARGET_GROUP '%s': expected 1 to 65535",
				    a->value, tg);
	} else if (!strcmp(a->key, "preferred")) {
		if (strcmp(a->value, "0") && strcmp(a->value, "1"))
			return cerr(err, errlen, fname, a->line, a->col,
				    "bad preferred '%s' of TARGET_GROUP '%s': expected 0 or 1",
				    a->value, tg);
	} else if (!strcmp(a->key, "state")) {
		ok = false;
		for (const char *const *p = alua_states; *p; p++)
			ok |= !strcmp(*p, a->value);
		if (!ok)
			return cerr(err, errlen, fname, a->line, a->col,
				    "bad state '%s' of TARGET_GROUP '%s': expected active, nonoptimized, standby, unavailable, offline or transitioning",
				    a->value, tg);
	} else {
		return cerr(err, errlen, fname, a->line, a->col,
			    "unknown TARGET_GROUP attribute '%s' in '%s': expected group_id, preferred or state",
			    a->key, tg);
	}
	return 0;
}

/* A target group's target has one attribute: rel_tgt_id, 1 to 65535. */
static int check_ttgt_attr(const struct attr *a, const char *t,
			   const char *fname, char *err, size_t errlen)
{
	if (strcmp(a->key, "rel_tgt_id"))
		return cerr(err, errlen, fname, a->line, a->col,
			    "unknown attribute '%s' of TARGET '%s' in a TARGET_GROUP: expected rel_tgt_id",
			    a->key, t);
	if (alua_number(a->value, 0xffff) < 1)
		return cerr(err, errlen, fname, a->line, a->col,
			    "bad rel_tgt_id '%s' of TARGET '%s': expected 1 to 65535",
			    a->value, t);
	return 0;
}

/*
 * The most targets (ports) a target group can have: REPORT TARGET PORT
 * GROUPS gives their number in the one-byte TARGET PORT COUNT field of
 * the group's descriptor (SPC-4 6.37, table 272).
 */
#define ALUA_MAX_TG_TARGETS	255

/*
 * A name that is also a file next to it in SCST's tree: a target group
 * or device group "mgmt" (beside target_groups/mgmt, device_groups/mgmt),
 * a target group target "mgmt", "group_id", "preferred" or "state".
 */
static int alua_reserved(const char *kind, const char *name, bool tgt,
			 int line, int col, const char *fname, char *err,
			 size_t errlen)
{
	static const char *const files[] = {
		"mgmt", "group_id", "preferred", "state", NULL,
	};

	for (const char *const *p = files; *p && (tgt || p == files); p++)
		if (!strcmp(name, *p))
			return cerr(err, errlen, fname, line, col,
				    "bad %s name '%s': it is the name of a file beside it in the management tree",
				    kind, name);
	return 0;
}

static int check_tgroup(const struct tgt_group *g, const char *fname,
			char *err, size_t errlen)
{
	if (check_name("TARGET_GROUP", g->name, g->line, g->col, fname, err,
		       errlen) ||
	    alua_reserved("TARGET_GROUP", g->name, false, g->line, g->col,
			  fname, err, errlen) ||
	    check_attrs(&g->attrs, fname, err, errlen))
		return -1;
	if (g->targets.n > ALUA_MAX_TG_TARGETS)
		return cerr(err, errlen, fname,
			    g->targets.v[ALUA_MAX_TG_TARGETS]->line,
			    g->targets.v[ALUA_MAX_TG_TARGETS]->col,
			    "TARGET_GROUP '%s' has more than %d targets: REPORT TARGET PORT GROUPS counts them in one byte",
			    g->name, ALUA_MAX_TG_TARGETS);
	for (size_t i = 0; i < g->attrs.n; i++) {
		const struct attr *a = &g->attrs.v[i];

		if (check_tgroup_attr(a, g->name, fname, err, errlen))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(g->attrs.v[j].key, a->key))
				return cerr(err, errlen, fname, a->line, a->col,
					    "duplicate attribute '%s' in TARGET_GROUP '%s' (first at line %d)",
					    a->key, g->name, g->attrs.v[j].line);
	}
	for (size_t i = 0; i < g->targets.n; i++) {
		const struct target *t = g->targets.v[i];

		if (check_name("TARGET", t->name, t->line, t->col, fname, err,
			       errlen) ||
		    alua_reserved("TARGET", t->name, true, t->line, t->col,
				  fname, err, errlen) ||
		    check_attrs(&t->attrs, fname, err, errlen))
			return -1;
		for (size_t j = 0; j < t->attrs.n; j++)
			if (check_ttgt_attr(&t->attrs.v[j], t->name, fname, err,
					    errlen) ||
			    (j && cerr(err, errlen, fname, t->attrs.v[j].line,
				       t->attrs.v[j].col,
				       "duplicate attribute 'rel_tgt_id' of TARGET '%s' (first at line %d)",
				       t->name, t->attrs.v[0].line)))
				return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(g->targets.v[j]->name, t->name))
				return cerr(err, errlen, fname, t->line, t->col,
					    "duplicate TARGET '%s' in TARGET_GROUP '%s'",
					    t->name, g->name);
	}
	return 0;
}

static const struct attr *group_id_of(const struct tgt_group *g)
{
	const struct attr *a = attr_find(&g->attrs, "group_id");

	return a && alua_number(a->value, 0xffff) > 0 ? a : NULL;
}

/*
 * Target group @j of @g against the ones before it: SCST refuses a
 * target in two target groups of one device group (which state would
 * its LUNs have?), and two groups with one group_id would be one target
 * port group to an initiator (SPC-4 6.37: the identifier names the
 * group in REPORT and SET TARGET PORT GROUPS).
 */
static int check_tgroup_overlap(const struct dev_group *g, size_t j,
				const char *fname, char *err, size_t errlen)
{
	const struct tgt_group *tg = g->tgroups.v[j];
	const struct attr *id = group_id_of(tg);

	for (size_t k = 0; k < j; k++) {
		const struct tgt_group *o = g->tgroups.v[k];
		const struct attr *oid = group_id_of(o);

		if (id && oid && alua_number(id->value, 0xffff) ==
				 alua_number(oid->value, 0xffff))
			return cerr(err, errlen, fname, id->line, id->col,
				    "group_id %s of TARGET_GROUP '%s' is also that of TARGET_GROUP '%s' (line %d) in DEVICE_GROUP '%s': expected one per target group",
				    id->value, tg->name, o->name, oid->line,
				    g->name);
		for (size_t m = 0; m < tg->targets.n; m++) {
			const struct target *t = tg->targets.v[m];

			for (size_t n = 0; n < o->targets.n; n++)
				if (!strcmp(o->targets.v[n]->name, t->name))
					return cerr(err, errlen, fname, t->line,
						    t->col,
						    "TARGET '%s' is in TARGET_GROUP '%s' and in TARGET_GROUP '%s' (line %d) of DEVICE_GROUP '%s': a target belongs to one target group of a device group",
						    t->name, tg->name, o->name,
						    o->targets.v[n]->line,
						    g->name);
		}
	}
	return 0;
}

/* A device in device group @i and an earlier one (SCST refuses it). */
static int check_dev_elsewhere(const struct tree *t, size_t i,
			       const char *fname, char *err, size_t errlen)
{
	const struct dev_group *g = t->dgroups.v[i];

	for (size_t j = 0; j < g->devices.n; j++)
		for (size_t k = 0; k < i; k++) {
			const struct dev_group *o = t->dgroups.v[k];

			for (size_t m = 0; m < o->devices.n; m++)
				if (!strcmp(o->devices.v[m].name,
					    g->devices.v[j].name))
					return cerr(err, errlen, fname,
						    g->devices.v[j].line,
						    g->devices.v[j].col,
						    "DEVICE '%s' is in DEVICE_GROUP '%s' and in DEVICE_GROUP '%s' (line %d): a device belongs to one device group",
						    g->devices.v[j].name,
						    g->name, o->name,
						    o->devices.v[m].line);
		}
	return 0;
}

/* DEVICE_GROUP: names, duplicates, and devices the file defines */
static int check_dgroups(const struct tree *t, const char *fname,
			 char *err, size_t errlen)
{
	for (size_t i = 0; i < t->dgroups.n; i++) {
		const struct dev_group *g = t->dgroups.v[i];

		if (check_name("DEVICE_GROUP", g->name, g->line, g->col, fname,
			       err, errlen) ||
		    alua_reserved("DEVICE_GROUP", g->name, false, g->line,
				  g->col, fname, err, errlen) ||
		    check_attrs(&g->attrs, fname, err, errlen))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(t->dgroups.v[j]->name, g->name))
				return cerr(err, errlen, fname, g->line, g->col,
					    "duplicate DEVICE_GROUP '%s' (first at line %d)",
					    g->name, t->dgroups.v[j]->line);
		for (size_t j = 0; j < g->devices.n; j++) {
			const struct initiator *d = &g->devices.v[j];

			if (!tree_find_device(t, d->name, NULL))
				return cerr(err, errlen, fname, d->line, d->col,
					    "DEVICE_GROUP '%s' names unknown device '%s': expected a DEVICE defined in a HANDLER section",
					    g->name, d->name);
			for (size_t k = 0; k < j; k++)
				if (!strcmp(g->devices.v[k].name, d->name))
					return cerr(err, errlen, fname, d->line,
						    d->col,
						    "duplicate DEVICE '%s' in DEVICE_GROUP '%s'",
						    d->name, g->name);
		}
		for (size_t j = 0; j < g->tgroups.n; j++) {
			const struct tgt_group *tg = g->tgroups.v[j];

			if (check_tgroup(tg, fname, err, errlen))
				return -1;
			for (size_t k = 0; k < j; k++)
				if (!strcmp(g->tgroups.v[k]->name, tg->name))
					return cerr(err, errlen, fname, tg->line,
						    tg->col,
						    "duplicate TARGET_GROUP '%s' in DEVICE_GROUP '%s'",
						    tg->name, g->name);
			if (check_tgroup_overlap(g, j, fname, err, errlen))
				return -1;
		}
		if (check_dev_elsewhere(t, i, fname, err, errlen))
			return -1;
	}
	return 0;
}

int conf_check(const struct tree *t, const char *fname,
	       char *err, size_t errlen)
{
	if (check_attrs(&t->attrs, fname, err, errlen) ||
	    check_dgroups(t, fname, err, errlen))
		return -1;
	for (size_t i = 0; i < t->handlers.n; i++) {
		const struct handler *h = t->handlers.v[i];

		if (check_name("HANDLER", h->name, h->line, h->col, fname, err,
			       errlen) ||
		    check_attrs(&h->attrs, fname, err, errlen))
			return -1;

		for (size_t j = 0; j < i; j++)
			if (!strcmp(t->handlers.v[j]->name, h->name))
				return cerr(err, errlen, fname, h->line, h->col,
					    "duplicate HANDLER '%s' (first at line %d)",
					    h->name, t->handlers.v[j]->line);
		for (size_t j = 0; j < h->devices.n; j++) {
			const struct device *d = h->devices.v[j];

			if (check_name("DEVICE", d->name, d->line, d->col,
				       fname, err, errlen) ||
			    check_attrs(&d->attrs, fname, err, errlen))
				return -1;
			/* every device before this one, in any handler */
			for (size_t k = 0; k <= i; k++) {
				const struct handler *o = t->handlers.v[k];
				size_t lim = k == i ? j : o->devices.n;

				for (size_t m = 0; m < lim; m++)
					if (!strcmp(o->devices.v[m]->name,
						    d->name))
						return cerr(err, errlen, fname,
							    d->line, d->col,
							    "duplicate DEVICE '%s' (first at line %d)",
							    d->name,
							    o->devices.v[m]->line);
			}
		}
	}
	for (size_t i = 0; i < t->drivers.n; i++) {
		const struct driver *d = t->drivers.v[i];

		if (check_name("TARGET_DRIVER", d->name, d->line, d->col, fname,
			       err, errlen) ||
		    check_attrs(&d->attrs, fname, err, errlen))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(t->drivers.v[j]->name, d->name))
				return cerr(err, errlen, fname, d->line, d->col,
					    "duplicate TARGET_DRIVER '%s' (first at line %d)",
					    d->name, t->drivers.v[j]->line);
		for (size_t j = 0; j < d->targets.n; j++) {
			const struct target *tg = d->targets.v[j];

			if (check_name("TARGET", tg->name, tg->line, tg->col,
				       fname, err, errlen) ||
			    check_attrs(&tg->attrs, fname, err, errlen))
				return -1;
			for (size_t k = 0; k < j; k++)
				if (!strcmp(d->targets.v[k]->name, tg->name))
					return cerr(err, errlen, fname,
						    tg->line, tg->col,
						    "duplicate TARGET '%s' (first at line %d)",
						    tg->name,
						    d->targets.v[k]->line);
			if (check_luns(t, (const lun_vec *)&tg->luns, tg->name,
				       fname, err, errlen) ||
			    check_init_groups(tg, fname, err, errlen))
				return -1;
			for (size_t k = 0; k < tg->groups.n; k++) {
				const struct group *g = tg->groups.v[k];

				if (check_name("GROUP", g->name, g->line,
					       g->col, fname, err, errlen) ||
				    check_attrs(&g->attrs, fname, err, errlen))
					return -1;
				for (size_t m = 0; m < k; m++)
					if (!strcmp(tg->groups.v[m]->name,
						    g->name))
						return cerr(err, errlen, fname,
							    g->line, g->col,
							    "duplicate GROUP '%s' (first at line %d)",
							    g->name,
							    tg->groups.v[m]->line);
				if (check_luns(t, (const lun_vec *)&g->luns,
					       g->name, fname, err, errlen))
					return -1;
				for (size_t m = 0; m < g->inits.n; m++) {
					if (check_name("INITIATOR",
						       g->inits.v[m].name,
						       g->inits.v[m].line,
						       g->inits.v[m].col, fname,
						       err, errlen))
						return -1;
					for (size_t q = 0; q < m; q++)
						if (!strcmp(g->inits.v[q].name,
							    g->inits.v[m].name))
							return cerr(err, errlen,
								    fname,
								    g->inits.v[m].line,
								    g->inits.v[m].col,
								    "duplicate INITIATOR '%s' in GROUP '%s'",
								    g->inits.v[m].name,
								    g->name);
				}
			}
		}
	}
	return 0;
}
