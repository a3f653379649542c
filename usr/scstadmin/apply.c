// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: carry out a list of actions from diff_trees() on the
 * management tree, in order, one line each as it happens.
 *
 * Without -force an action that removes, replaces, moves or disables
 * something live is not made (SCST's -config: "... is not in
 * configuration. Use -force to remove it."), nor are the actions that
 * only make sense with it (forced_part: opening a device again after
 * closing it); the others are. After a failed write without
 * -cont_on_err the actions not attempted are listed.
 */
#include <stdlib.h>
#include <string.h>

#include "scstadmin.h"

bool action_needs_force(const struct action *a)
{
	return a->removal || a->recreate || a->forced_part || a->stops_io;
}

const char *action_force_reason(const struct action *a)
{
	if (a->stops_io)
		return a->stops_io;
	if (a->recreate)
		return "re-opens the device: its initiators lose it meanwhile";
	if (a->forced_part)
		return "goes with the change above";
	if (a->in_use)
		return "in use: a target with sessions";
	if (a->removal)
		return "not in the configuration";
	return NULL;
}

/* A failed write: what, where, why, and where the kernel says more. */
static void report_failure(const struct sysfs *s, const struct action *x,
			   int r)
{
	const char *base = strrchr(x->path, '/');
	bool mgmt = !strcmp(base ? base + 1 : x->path, "mgmt");

	fprintf(stderr,
		"scstadmin: failed to %s: writing %s '%s' to %s/%s: %s (%s)\n",
		x->desc, mgmt ? "mgmt command" : "attribute value", x->text,
		s->root, x->path, strerror(-r),
		s->is_sysfs ?
		"see last_sysfs_mgmt_res and the kernel log (dmesg) for the reason" :
		"see last_sysfs_mgmt_res for the reason");
}

static void not_tried(const action_vec *a, size_t from, bool force,
		      struct apply_result *res)
{
	size_t n = 0;

	for (size_t i = from; i < a->n; i++)
		n += force || !action_needs_force(&a->v[i]);
	if (!n)
		return;
	fprintf(stderr,
		"scstadmin: stopped at the failure (no -cont_on_err); %zu planned change(s) not attempted:\n",
		n);
	for (size_t i = from; i < a->n; i++)
		if (force || !action_needs_force(&a->v[i]))
			fprintf(stderr, "\t%s\n", a->v[i].desc);
	res->not_tried = (int)n;
}

int apply_actions(const struct sysfs *s, const action_vec *a, bool force,
		  bool cont_on_err, struct apply_result *res)
{
	int ret = EXIT_OK;

	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < a->n; i++) {
		const struct action *x = &a->v[i];
		int r;

		if (!force && action_needs_force(x)) {
			res->not_forced++;
			/*
			 * The parts of a forced change go unsaid, but for
			 * attribute writes: the user asked for those values
			 * (a re-created device's), they are held, not lost.
			 */
			if (!x->forced_part || x->is_attr)
				printf("-> not made: %s (%s; use -force to make it)\n",
				       x->desc, action_force_reason(x));
			continue;
		}
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
				res->warned++;
				continue;
			}
		}
		printf("-> %s%s\n", x->desc, s->dry_run ? " (dry run)" : "");
		r = sysfs_write(s, x->path, x->text);
		if (r) {
			report_failure(s, x, r);
			res->failed++;
			ret = EXIT_SYSFS;
			if (!cont_on_err) {
				not_tried(a, i + 1, force, res);
				return ret;
			}
			continue;
		}
		res->done++;
	}
	return ret;
}
