// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: carry out a list of actions from diff_trees() on the
 * management tree. Refuses the whole list, before changing anything, if
 * one action needs -force (it removes something in use, or closes a
 * device to re-open it) and -force was not given.
 */
#include <stdlib.h>
#include <string.h>

#include "scstadmin.h"

const char *action_force_reason(const struct action *a)
{
	if (a->recreate)
		return "re-opens the device: its initiators lose it meanwhile";
	if (a->in_use)
		return "in use: a target with sessions";
	return NULL;
}

int apply_actions(const struct sysfs *s, const action_vec *a, bool force,
		  bool cont_on_err, struct apply_result *res)
{
	int ret = EXIT_OK;

	memset(res, 0, sizeof(*res));
	if (!force) {
		size_t refused = 0;

		for (size_t i = 0; i < a->n; i++) {
			const char *why = action_force_reason(&a->v[i]);

			if (!why)
				continue;
			if (!refused++)
				fprintf(stderr,
					"scstadmin: nothing changed: these changes need -force (use -force to make them):\n");
			fprintf(stderr, "\t%s (%s)\n", a->v[i].desc, why);
		}
		if (refused)
			return EXIT_INUSE;
	}
	for (size_t i = 0; i < a->n; i++) {
		const struct action *x = &a->v[i];
		int r;

		if (x->is_attr) {
			char *cur = NULL;
			bool key;

			if (!sysfs_read_attr(s, x->path, &cur, &key) &&
			    !strcmp(cur, x->text)) {
				free(cur);
				res->skipped++;
				continue;
			}
			free(cur);
			if (!s->dry_run && !sysfs_writable(s, x->path)) {
				fprintf(stderr,
					"scstadmin: warning: cannot %s: %s is %s\n",
					x->desc, x->path,
					sysfs_exists(s, x->path) ? "read-only" :
					"missing");
				res->skipped++;
				continue;
			}
		}
		printf("-> %s%s\n", x->desc, s->dry_run ? " (dry run)" : "");
		r = sysfs_write(s, x->path, x->text);
		if (r) {
			fprintf(stderr,
				"scstadmin: failed to %s: writing '%s' to %s: %s\n",
				x->desc, x->text, x->path, strerror(-r));
			res->failed++;
			ret = EXIT_SYSFS;
			if (!cont_on_err)
				return ret;
			continue;
		}
		res->done++;
	}
	return ret;
}
