// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: carry out a list of actions from diff_trees() on the
 * management tree. Refuses the whole list, before changing anything, if
 * one action removes something in use and -force was not given.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scstadmin.h"

int apply_actions(const struct sysfs *s, const action_vec *a, bool force,
		  bool cont_on_err, struct apply_result *res)
{
	int ret = EXIT_OK;

	memset(res, 0, sizeof(*res));
	if (!force) {
		size_t busy = 0;

		for (size_t i = 0; i < a->n; i++) {
			if (!a->v[i].in_use)
				continue;
			if (!busy++)
				fprintf(stderr,
					"scstadmin: these changes touch targets with sessions; use -force to make them:\n");
			fprintf(stderr, "\t%s\n", a->v[i].desc);
		}
		if (busy)
			return EXIT_INUSE;
	}
	for (size_t i = 0; i < a->n; i++) {
		const struct action *x = &a->v[i];
		int r;

		if (x->is_attr) {
			char *cur = NULL, *p;
			bool key;

			if (!sysfs_read_attr(s, x->path, &cur, &key) &&
			    !strcmp(cur, x->text)) {
				free(cur);
				res->skipped++;
				continue;
			}
			free(cur);
			p = sysfs_path(s, x->path);
			if (!s->dry_run && access(p, W_OK)) {
				fprintf(stderr,
					"scstadmin: warning: cannot %s: %s is %s\n",
					x->desc, x->path,
					errno == ENOENT ? "missing" :
					"read-only");
				free(p);
				res->skipped++;
				continue;
			}
			free(p);
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
