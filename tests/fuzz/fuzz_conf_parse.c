// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz usr/scstadmin/parser.c (and check.c, tree.c, writer.c): scst.conf
 * as scstadmin reads it. A file that parses must survive a round trip:
 * written back (writer.c, every attribute taken as a key attribute, so
 * that the writer's quoting is exercised too), it parses again into a
 * tree with the same devices, targets, LUNs, groups, initiators,
 * DEVICE_GROUP blocks (devices, target groups, their targets) and
 * attributes, and from then on writing and parsing are exact inverses
 * (the first write drops empty HANDLER and TARGET_DRIVER sections, as
 * SCST's writer does).
 *
 * Input: the file (a NUL byte ends it).
 */
#include "fuzz.h"
#include "scstadmin.h"

static char *write_tree(struct tree *t, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	FUZZ_CHECK(f);
	conf_write(f, t, false);
	FUZZ_CHECK(!fclose(f));
	return text;
}

/* Mark every attribute as a key attribute; count what the tree holds. */
static size_t keys(attr_vec *a)
{
	for (size_t i = 0; i < a->n; i++)
		a->v[i].is_key = true;
	return a->n;
}

static size_t mark_and_count(struct tree *t)
{
	size_t n = keys(&t->attrs);

	for (size_t i = 0; i < t->handlers.n; i++) {
		struct handler *h = t->handlers.v[i];

		n += keys(&h->attrs);
		for (size_t j = 0; j < h->devices.n; j++)
			n += 1000 + keys(&h->devices.v[j]->attrs);
	}
	for (size_t i = 0; i < t->drivers.n; i++) {
		struct driver *d = t->drivers.v[i];

		n += keys(&d->attrs);
		for (size_t j = 0; j < d->targets.n; j++) {
			struct target *tg = d->targets.v[j];

			n += 1000 + keys(&tg->attrs);
			for (size_t k = 0; k < tg->luns.n; k++)
				n += 100 + keys(&tg->luns.v[k]->attrs);
			for (size_t k = 0; k < tg->groups.n; k++) {
				struct group *g = tg->groups.v[k];

				n += 10000 + keys(&g->attrs) +
				     100000 * g->inits.n;
				for (size_t l = 0; l < g->luns.n; l++)
					n += 100 + keys(&g->luns.v[l]->attrs);
			}
		}
	}
	/* DEVICE_GROUP blocks: their devices, target groups and targets */
	for (size_t i = 0; i < t->dgroups.n; i++) {
		struct dev_group *g = t->dgroups.v[i];

		n += 1000000 + keys(&g->attrs) + 100000 * g->devices.n;
		for (size_t j = 0; j < g->tgroups.n; j++) {
			struct tgt_group *tg = g->tgroups.v[j];

			n += 10000 + keys(&tg->attrs);
			for (size_t k = 0; k < tg->targets.n; k++)
				n += 1000 + keys(&tg->targets.v[k]->attrs);
		}
	}
	return n;
}

static struct tree *reparse(const char *name, const char *text)
{
	char err[512];
	struct tree *t = conf_parse(name, text, err, sizeof(err));

	if (!t) {
		fprintf(stderr, "written file does not parse: %s\n%s\n", err,
			text);
		FUZZ_CHECK(t);
	}
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512], why[512];
	char *text = malloc(size + 1), *out1 = NULL, *out2 = NULL;
	struct tree *t1, *t2 = NULL, *t3 = NULL;
	size_t len1, len2, count1;

	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	t1 = conf_parse("fuzz.conf", text, err, sizeof(err));
	if (!t1) {
		/* "FILE:LINE:COL: message" */
		FUZZ_CHECK(!strncmp(err, "fuzz.conf:", 10) && strlen(err) > 14);
		goto out;
	}
	count1 = mark_and_count(t1);
	out1 = write_tree(t1, &len1);
	t2 = reparse("written.conf", out1);
	FUZZ_CHECK(mark_and_count(t2) == count1);
	out2 = write_tree(t2, &len2);
	FUZZ_CHECK(len1 == len2 && !memcmp(out1, out2, len1));
	t3 = reparse("rewritten.conf", out2);
	mark_and_count(t3);
	tree_sort(t3);
	if (!tree_equal(t2, t3, why, sizeof(why))) {
		fprintf(stderr, "round trip differs: %s\n%s\n", why, out1);
		FUZZ_CHECK(0);
	}
out:
	if (t3)
		tree_free(t3);
	if (t2)
		tree_free(t2);
	if (t1)
		tree_free(t1);
	free(out1);
	free(out2);
	free(text);
	return 0;
}
