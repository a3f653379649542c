// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz usr/scstadmin/diff.c: the reconciliation of a wanted scst.conf
 * with the live tree. diff_trees() is pure (it only looks at the two
 * trees), so the live tree is made without a sysfs tree: a second file,
 * parsed, then given what only a tree read from sysfs has (which
 * attributes are writable, whether a driver can add targets, sessions,
 * a handler's add_device parameters, whether device_groups/ exists)
 * from a generator seeded by the input.
 *
 * Checked: the actions are in phase order, each with a path relative to
 * the sysfs root that stays inside it, a text and a description; and a
 * file diffed with its own live tree needs no action at all (unless it
 * repeats an attribute, see dup_keys).
 *
 * Input: length of the wanted file (2 bytes), mode (1 byte: 0xff diffs
 * the wanted file with itself, bit 0 -clear_config), the wanted file,
 * then the live one.
 */
#include "fuzz.h"
#include "scstadmin.h"

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * A key given twice (iSCSI's IncomingUser) is one sysfs file per value
 * in a live tree, which a parsed file does not model: self-diffs of such
 * files are not checked.
 */
static bool dup_keys;

static void attrs_live(attr_vec *a, uint32_t *s, bool self)
{
	for (size_t i = 0; i < a->n; i++) {
		a->v[i].writable = self || (rnd(s) & 1);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(a->v[i].key, a->v[j].key))
				dup_keys = true;
	}
}

/* What a tree read from sysfs has that a parsed file does not. */
static void make_live(struct tree *t, uint32_t *s, bool self)
{
	attrs_live(&t->attrs, s, self);
	for (size_t i = 0; i < t->handlers.n; i++) {
		struct handler *h = t->handlers.v[i];

		attrs_live(&h->attrs, s, self);
		for (size_t j = 0; j < h->devices.n; j++) {
			attr_vec *a = &h->devices.v[j]->attrs;

			attrs_live(a, s, self);
			for (size_t k = 0; k < a->n; k++)
				if (!self && (rnd(s) & 3) == 0 &&
				    !handler_has_param(h, a->v[k].key))
					*vec_push(&h->params) =
						xstrdup(a->v[k].key);
		}
	}
	for (size_t i = 0; i < t->drivers.n; i++) {
		struct driver *d = t->drivers.v[i];

		d->can_add_target = self || (rnd(s) & 1);
		attrs_live(&d->attrs, s, self);
		for (size_t j = 0; j < d->targets.n; j++) {
			struct target *tg = d->targets.v[j];

			tg->nsessions = self ? 0 : rnd(s) % 3;
			attrs_live(&tg->attrs, s, self);
			for (size_t k = 0; k < tg->luns.n; k++)
				attrs_live(&tg->luns.v[k]->attrs, s, self);
			for (size_t k = 0; k < tg->groups.n; k++) {
				struct group *g = tg->groups.v[k];

				attrs_live(&g->attrs, s, self);
				for (size_t l = 0; l < g->luns.n; l++)
					attrs_live(&g->luns.v[l]->attrs, s,
						   self);
			}
		}
	}
	/* ALUA: device_groups/ present or not (a self-diff has it) */
	t->has_alua = self || (rnd(s) & 1);
	for (size_t i = 0; i < t->dgroups.n; i++) {
		struct dev_group *g = t->dgroups.v[i];

		attrs_live(&g->attrs, s, self);
		for (size_t j = 0; j < g->tgroups.n; j++) {
			struct tgt_group *tg = g->tgroups.v[j];

			attrs_live(&tg->attrs, s, self);
			for (size_t k = 0; k < tg->targets.n; k++)
				attrs_live(&tg->targets.v[k]->attrs, s, self);
		}
	}
}

static void check_path(const char *p)
{
	const char *c = p;

	FUZZ_CHECK(*p && *p != '/');
	/* No component leaves the sysfs root or is empty. */
	for (;;) {
		size_t n = strcspn(c, "/");

		FUZZ_CHECK(n > 0);
		FUZZ_CHECK(!(n == 2 && !strncmp(c, "..", 2)));
		FUZZ_CHECK(!(n == 1 && *c == '.'));
		if (!c[n])
			break;
		c += n + 1;
	}
}

static struct tree *parse(const uint8_t *p, size_t n)
{
	char *text = malloc(n + 1), err[512];
	struct tree *t;

	memcpy(text, p, n);
	text[n] = '\0';
	t = conf_parse("fuzz.conf", text, err, sizeof(err));
	free(text);
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	size_t want_len = fuzz_u16(&in);
	uint8_t mode = fuzz_u8(&in);
	bool self = mode == 0xff;
	struct diff_opts o = { .clear = !self && (mode & 1) };
	struct tree *want, *live = NULL;
	action_vec acts = { 0 };
	str_vec warns = { 0 };
	uint32_t seed = 0x9e3779b9u ^ size;
	char err[512] = "";
	int ret;

	if (want_len > in.n)
		want_len = in.n;
	want = parse(in.p, want_len);
	if (!want)
		return 0;
	live = self ? parse(in.p, want_len) :
		      parse(in.p + want_len, in.n - want_len);
	if (!live)
		goto out;
	for (size_t i = 0; i < size; i++)
		seed = seed * 31 + data[i];
	if (!seed)
		seed = 1;
	dup_keys = false;
	make_live(live, &seed, self);

	ret = diff_trees(want, live, &o, &acts, &warns, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -1 && *err);
		goto out;
	}
	for (size_t i = 0; i < acts.n; i++) {
		const struct action *a = &acts.v[i];

		FUZZ_CHECK(a->phase < PH_COUNT);
		FUZZ_CHECK(!i || acts.v[i - 1].phase <= a->phase);
		FUZZ_CHECK(a->path && a->text && a->desc && *a->desc);
		check_path(a->path);
		/* An attribute write goes to the attribute, not to mgmt. */
		if (a->is_attr)
			FUZZ_CHECK(strcmp(strrchr(a->path, '/') ?
					  strrchr(a->path, '/') + 1 : a->path,
					  "mgmt"));
		action_force_reason(a);
	}
	for (size_t i = 0; i < warns.n; i++)
		FUZZ_CHECK(warns.v[i] && *warns.v[i]);
	if (self && !dup_keys && acts.n) {
		fprintf(stderr, "self-diff: %zu actions, first %s <- %s\n",
			acts.n, acts.v[0].path, acts.v[0].text);
		FUZZ_CHECK(!acts.n);
	}
out:
	actions_free(&acts);
	strs_free(&warns);
	if (live)
		tree_free(live);
	tree_free(want);
	return 0;
}
