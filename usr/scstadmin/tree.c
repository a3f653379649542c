// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: the configuration tree (alloc, lookup, sort, compare). The
 * allocation helpers it builds on are usr/lib/alloc.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scstadmin.h"

struct tree *tree_new(void)
{
	return xcalloc(1, sizeof(struct tree));
}

static void attrs_free(attr_vec *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].key);
		free(a->v[i].value);
	}
	free(a->v);
}

static void lun_free(struct lun *l)
{
	free(l->dev);
	attrs_free(&l->attrs);
	free(l);
}

static void group_free(struct group *g)
{
	for (size_t i = 0; i < g->luns.n; i++)
		lun_free(g->luns.v[i]);
	free(g->luns.v);
	for (size_t i = 0; i < g->inits.n; i++)
		free(g->inits.v[i].name);
	free(g->inits.v);
	attrs_free(&g->attrs);
	free(g->name);
	free(g);
}

static void target_free(struct target *t)
{
	for (size_t i = 0; i < t->luns.n; i++)
		lun_free(t->luns.v[i]);
	free(t->luns.v);
	for (size_t i = 0; i < t->groups.n; i++)
		group_free(t->groups.v[i]);
	free(t->groups.v);
	attrs_free(&t->attrs);
	free(t->name);
	free(t);
}

static void dgroup_free(struct dev_group *g)
{
	for (size_t i = 0; i < g->devices.n; i++)
		free(g->devices.v[i].name);
	free(g->devices.v);
	for (size_t i = 0; i < g->tgroups.n; i++) {
		struct tgt_group *tg = g->tgroups.v[i];

		for (size_t j = 0; j < tg->targets.n; j++)
			target_free(tg->targets.v[j]);
		free(tg->targets.v);
		attrs_free(&tg->attrs);
		free(tg->name);
		free(tg);
	}
	free(g->tgroups.v);
	attrs_free(&g->attrs);
	free(g->name);
	free(g);
}

void tree_free(struct tree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->dgroups.n; i++)
		dgroup_free(t->dgroups.v[i]);
	free(t->dgroups.v);
	free(t->src);
	for (size_t i = 0; i < t->handlers.n; i++) {
		struct handler *h = t->handlers.v[i];

		for (size_t j = 0; j < h->devices.n; j++) {
			attrs_free(&h->devices.v[j]->attrs);
			free(h->devices.v[j]->name);
			free(h->devices.v[j]);
		}
		free(h->devices.v);
		for (size_t j = 0; j < h->params.n; j++)
			free(h->params.v[j]);
		free(h->params.v);
		attrs_free(&h->attrs);
		free(h->name);
		free(h);
	}
	free(t->handlers.v);
	for (size_t i = 0; i < t->drivers.n; i++) {
		struct driver *d = t->drivers.v[i];

		for (size_t j = 0; j < d->targets.n; j++)
			target_free(d->targets.v[j]);
		free(d->targets.v);
		attrs_free(&d->attrs);
		free(d->name);
		free(d);
	}
	free(t->drivers.v);
	attrs_free(&t->attrs);
	free(t);
}

struct attr *attr_add(attr_vec *a, const char *key, const char *value)
{
	struct attr *at = vec_push(a);

	at->key = xstrdup(key);
	at->value = xstrdup(value);
	at->is_key = true;
	return at;
}

const struct attr *attr_find(const attr_vec *a, const char *key)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].key, key) == 0)
			return &a->v[i];
	return NULL;
}

#define FIND(vec, nm) do {						\
	for (size_t i_ = 0; i_ < (vec).n; i_++)				\
		if (strcmp((vec).v[i_]->name, (nm)) == 0)		\
			return (vec).v[i_];				\
	return NULL;							\
} while (0)

#define ADD(vec, type, nm) do {						\
	type *o_ = xcalloc(1, sizeof(type));				\
	o_->name = xstrdup(nm);						\
	*vec_push(&(vec)) = o_;						\
	return o_;							\
} while (0)

struct handler *tree_add_handler(struct tree *t, const char *name)
{
	ADD(t->handlers, struct handler, name);
}

struct handler *tree_find_handler(const struct tree *t, const char *name)
{
	FIND(t->handlers, name);
}

struct device *handler_add_device(struct handler *h, const char *name)
{
	ADD(h->devices, struct device, name);
}

struct device *tree_find_device(const struct tree *t, const char *name,
				struct handler **hp)
{
	for (size_t i = 0; i < t->handlers.n; i++) {
		struct handler *h = t->handlers.v[i];

		for (size_t j = 0; j < h->devices.n; j++) {
			if (strcmp(h->devices.v[j]->name, name) == 0) {
				if (hp)
					*hp = h;
				return h->devices.v[j];
			}
		}
	}
	return NULL;
}

struct driver *tree_add_driver(struct tree *t, const char *name)
{
	ADD(t->drivers, struct driver, name);
}

struct driver *tree_find_driver(const struct tree *t, const char *name)
{
	FIND(t->drivers, name);
}

struct target *driver_add_target(struct driver *d, const char *name)
{
	ADD(d->targets, struct target, name);
}

struct target *driver_find_target(const struct driver *d, const char *name)
{
	FIND(d->targets, name);
}

struct group *target_add_group(struct target *t, const char *name)
{
	ADD(t->groups, struct group, name);
}

struct group *target_find_group(const struct target *t, const char *name)
{
	FIND(t->groups, name);
}

struct dev_group *tree_add_dgroup(struct tree *t, const char *name)
{
	ADD(t->dgroups, struct dev_group, name);
}

struct dev_group *tree_find_dgroup(const struct tree *t, const char *name)
{
	FIND(t->dgroups, name);
}

struct tgt_group *dgroup_add_tgroup(struct dev_group *g, const char *name)
{
	ADD(g->tgroups, struct tgt_group, name);
}

struct tgt_group *dgroup_find_tgroup(const struct dev_group *g,
				     const char *name)
{
	FIND(g->tgroups, name);
}

struct target *tgroup_add_target(struct tgt_group *g, const char *name)
{
	ADD(g->targets, struct target, name);
}

bool tree_is_empty(const struct tree *t)
{
	return !t->attrs.n && !t->handlers.n && !t->drivers.n &&
	       !t->dgroups.n;
}

typedef VEC(struct lun *) lun_vec;

struct lun *lun_add(void *luns_vec, unsigned long num, const char *dev)
{
	lun_vec *v = luns_vec;
	struct lun *l = xcalloc(1, sizeof(*l));

	l->num = num;
	l->dev = xstrdup(dev);
	*vec_push(v) = l;
	return l;
}

static struct lun *find_lun(const lun_vec *v, unsigned long num)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i]->num == num)
			return v->v[i];
	return NULL;
}

struct lun *target_find_lun(const struct target *t, unsigned long num)
{
	return find_lun((const lun_vec *)&t->luns, num);
}

struct lun *group_find_lun(const struct group *g, unsigned long num)
{
	return find_lun((const lun_vec *)&g->luns, num);
}

/* The first LUN of @v that exports @dev, or NULL. */
static const struct lun *lun_of_dev(const lun_vec *v, const char *dev)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->v[i]->dev, dev) == 0)
			return v->v[i];
	return NULL;
}

bool tree_dev_lun(const struct tree *t, const char *dev, bool with_sessions,
		  char *where, size_t len)
{
	for (size_t i = 0; i < t->drivers.n; i++) {
		const struct driver *d = t->drivers.v[i];

		for (size_t j = 0; j < d->targets.n; j++) {
			const struct target *tg = d->targets.v[j];
			const struct lun *l;

			if (with_sessions && !tg->nsessions)
				continue;
			l = lun_of_dev((const lun_vec *)&tg->luns, dev);
			if (l) {
				snprintf(where, len, "LUN %lu of target %s (%s)",
					 l->num, tg->name, d->name);
				return true;
			}
			for (size_t k = 0; k < tg->groups.n; k++) {
				const struct group *g = tg->groups.v[k];

				l = lun_of_dev((const lun_vec *)&g->luns, dev);
				if (l) {
					snprintf(where, len,
						 "LUN %lu of group %s of target %s (%s)",
						 l->num, g->name, tg->name, d->name);
					return true;
				}
			}
		}
	}
	return false;
}

bool group_has_init(const struct group *g, const char *name)
{
	for (size_t i = 0; i < g->inits.n; i++)
		if (strcmp(g->inits.v[i].name, name) == 0)
			return true;
	return false;
}

bool handler_has_param(const struct handler *h, const char *p)
{
	for (size_t i = 0; i < h->params.n; i++)
		if (strcmp(h->params.v[i], p) == 0)
			return true;
	return false;
}

/* ---- sorting ---------------------------------------------------------- */

static int cmp_attr(const void *a, const void *b)
{
	const struct attr *x = a, *y = b;
	int r = strcmp(x->key, y->key);

	return r ? r : strcmp(x->value, y->value);
}

static int cmp_named(const void *a, const void *b)
{
	/* every named object starts with "char *name" */
	return strcmp(**(char *const *const *)a, **(char *const *const *)b);
}

static int cmp_lun(const void *a, const void *b)
{
	const struct lun *x = *(struct lun *const *)a;
	const struct lun *y = *(struct lun *const *)b;

	return x->num < y->num ? -1 : x->num > y->num;
}

static int cmp_init(const void *a, const void *b)
{
	return strcmp(((const struct initiator *)a)->name,
		      ((const struct initiator *)b)->name);
}

#define SORT(vec, cmp) do { if ((vec).n > 1) \
	qsort((vec).v, (vec).n, sizeof(*(vec).v), cmp); } while (0)

static void sort_luns(lun_vec *v)
{
	SORT(*v, cmp_lun);
	for (size_t i = 0; i < v->n; i++)
		SORT(v->v[i]->attrs, cmp_attr);
}

void tree_sort(struct tree *t)
{
	SORT(t->attrs, cmp_attr);
	SORT(t->handlers, cmp_named);
	for (size_t i = 0; i < t->handlers.n; i++) {
		struct handler *h = t->handlers.v[i];

		SORT(h->attrs, cmp_attr);
		SORT(h->devices, cmp_named);
		for (size_t j = 0; j < h->devices.n; j++)
			SORT(h->devices.v[j]->attrs, cmp_attr);
	}
	SORT(t->drivers, cmp_named);
	for (size_t i = 0; i < t->drivers.n; i++) {
		struct driver *d = t->drivers.v[i];

		SORT(d->attrs, cmp_attr);
		SORT(d->targets, cmp_named);
		for (size_t j = 0; j < d->targets.n; j++) {
			struct target *tg = d->targets.v[j];

			SORT(tg->attrs, cmp_attr);
			sort_luns((lun_vec *)&tg->luns);
			SORT(tg->groups, cmp_named);
			for (size_t k = 0; k < tg->groups.n; k++) {
				struct group *g = tg->groups.v[k];

				SORT(g->attrs, cmp_attr);
				sort_luns((lun_vec *)&g->luns);
				SORT(g->inits, cmp_init);
			}
		}
	}
	SORT(t->dgroups, cmp_named);
	for (size_t i = 0; i < t->dgroups.n; i++) {
		struct dev_group *g = t->dgroups.v[i];

		SORT(g->attrs, cmp_attr);
		SORT(g->devices, cmp_init);
		SORT(g->tgroups, cmp_named);
		for (size_t j = 0; j < g->tgroups.n; j++) {
			struct tgt_group *tg = g->tgroups.v[j];

			SORT(tg->attrs, cmp_attr);
			SORT(tg->targets, cmp_named);
			for (size_t k = 0; k < tg->targets.n; k++)
				SORT(tg->targets.v[k]->attrs, cmp_attr);
		}
	}
}

/* ---- comparison (key attributes only; both trees sorted) -------------- */

static bool attrs_equal(const attr_vec *a, const attr_vec *b, const char *where,
			char *why, size_t whylen)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->n && !a->v[i].is_key)
			i++;
		while (j < b->n && !b->v[j].is_key)
			j++;
		if (i == a->n || j == b->n)
			break;
		if (strcmp(a->v[i].key, b->v[j].key) ||
		    strcmp(a->v[i].value, b->v[j].value)) {
			snprintf(why, whylen, "%s: attribute %s '%s' != %s '%s'",
				 where, a->v[i].key, a->v[i].value,
				 b->v[j].key, b->v[j].value);
			return false;
		}
		i++;
		j++;
	}
	if (i != a->n || j != b->n) {
		snprintf(why, whylen, "%s: attribute %s only on one side", where,
			 i != a->n ? a->v[i].key : b->v[j].key);
		return false;
	}
	return true;
}

static bool luns_equal(const lun_vec *a, const lun_vec *b, const char *where,
		       char *why, size_t whylen)
{
	if (a->n != b->n) {
		snprintf(why, whylen, "%s: %zu LUNs != %zu", where, a->n, b->n);
		return false;
	}
	for (size_t i = 0; i < a->n; i++) {
		if (a->v[i]->num != b->v[i]->num ||
		    strcmp(a->v[i]->dev, b->v[i]->dev)) {
			snprintf(why, whylen, "%s: LUN %lu %s != LUN %lu %s",
				 where, a->v[i]->num, a->v[i]->dev,
				 b->v[i]->num, b->v[i]->dev);
			return false;
		}
		if (!attrs_equal(&a->v[i]->attrs, &b->v[i]->attrs, where, why,
				 whylen))
			return false;
	}
	return true;
}

#define SAME_COUNT(x, y, what) do {					\
	if ((x).n != (y).n) {						\
		snprintf(why, whylen, "%s: %zu %s != %zu", where,	\
			 (x).n, what, (y).n);				\
		return false;						\
	}								\
} while (0)

#define SAME_NAME(x, y) do {						\
	if (strcmp((x)->name, (y)->name)) {				\
		snprintf(why, whylen, "%s: '%s' != '%s'", where,	\
			 (x)->name, (y)->name);				\
		return false;						\
	}								\
} while (0)

static bool target_equal(const struct target *a, const struct target *b,
			 char *why, size_t whylen)
{
	const char *where = a->name;

	if (!attrs_equal(&a->attrs, &b->attrs, where, why, whylen) ||
	    !luns_equal((const lun_vec *)&a->luns, (const lun_vec *)&b->luns,
			where, why, whylen))
		return false;
	SAME_COUNT(a->groups, b->groups, "groups");
	for (size_t i = 0; i < a->groups.n; i++) {
		const struct group *x = a->groups.v[i], *y = b->groups.v[i];

		SAME_NAME(x, y);
		if (!attrs_equal(&x->attrs, &y->attrs, x->name, why, whylen) ||
		    !luns_equal((const lun_vec *)&x->luns,
				(const lun_vec *)&y->luns, x->name, why, whylen))
			return false;
		SAME_COUNT(x->inits, y->inits, "initiators");
		for (size_t j = 0; j < x->inits.n; j++)
			SAME_NAME(&x->inits.v[j], &y->inits.v[j]);
	}
	return true;
}

/* DEVICE_GROUP blocks: devices, target groups, their targets. */
static bool dgroups_equal(const struct tree *a, const struct tree *b,
			  char *why, size_t whylen)
{
	const char *where = "device groups";

	SAME_COUNT(a->dgroups, b->dgroups, "device groups");
	for (size_t i = 0; i < a->dgroups.n; i++) {
		const struct dev_group *x = a->dgroups.v[i];
		const struct dev_group *y = b->dgroups.v[i];

		where = "device groups";
		SAME_NAME(x, y);
		where = x->name;
		if (!attrs_equal(&x->attrs, &y->attrs, where, why, whylen))
			return false;
		SAME_COUNT(x->devices, y->devices, "devices");
		for (size_t j = 0; j < x->devices.n; j++)
			SAME_NAME(&x->devices.v[j], &y->devices.v[j]);
		SAME_COUNT(x->tgroups, y->tgroups, "target groups");
		for (size_t j = 0; j < x->tgroups.n; j++) {
			const struct tgt_group *p = x->tgroups.v[j];
			const struct tgt_group *q = y->tgroups.v[j];

			where = x->name;
			SAME_NAME(p, q);
			where = p->name;
			if (!attrs_equal(&p->attrs, &q->attrs, where, why,
					 whylen))
				return false;
			SAME_COUNT(p->targets, q->targets, "targets");
			for (size_t k = 0; k < p->targets.n; k++) {
				SAME_NAME(p->targets.v[k], q->targets.v[k]);
				if (!attrs_equal(&p->targets.v[k]->attrs,
						 &q->targets.v[k]->attrs,
						 p->targets.v[k]->name, why,
						 whylen))
					return false;
			}
		}
	}
	return true;
}

bool tree_equal(const struct tree *a, const struct tree *b,
		char *why, size_t whylen)
{
	const char *where = "scst";

	if (!attrs_equal(&a->attrs, &b->attrs, where, why, whylen))
		return false;
	SAME_COUNT(a->handlers, b->handlers, "handlers");
	for (size_t i = 0; i < a->handlers.n; i++) {
		const struct handler *x = a->handlers.v[i];
		const struct handler *y = b->handlers.v[i];

		where = "handlers";
		SAME_NAME(x, y);
		where = x->name;
		if (!attrs_equal(&x->attrs, &y->attrs, where, why, whylen))
			return false;
		SAME_COUNT(x->devices, y->devices, "devices");
		for (size_t j = 0; j < x->devices.n; j++) {
			SAME_NAME(x->devices.v[j], y->devices.v[j]);
			if (!attrs_equal(&x->devices.v[j]->attrs,
					 &y->devices.v[j]->attrs,
					 x->devices.v[j]->name, why, whylen))
				return false;
		}
	}
	where = "scst";
	SAME_COUNT(a->drivers, b->drivers, "drivers");
	for (size_t i = 0; i < a->drivers.n; i++) {
		const struct driver *x = a->drivers.v[i];
		const struct driver *y = b->drivers.v[i];

		where = "drivers";
		SAME_NAME(x, y);
		where = x->name;
		if (!attrs_equal(&x->attrs, &y->attrs, where, why, whylen))
			return false;
		SAME_COUNT(x->targets, y->targets, "targets");
		for (size_t j = 0; j < x->targets.n; j++) {
			SAME_NAME(x->targets.v[j], y->targets.v[j]);
			if (!target_equal(x->targets.v[j], y->targets.v[j],
					  why, whylen))
				return false;
		}
	}
	return dgroups_equal(a, b, why, whylen);
}
