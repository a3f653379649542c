/* SPDX-License-Identifier: GPL-2.0-only */
/* scstadmin: the parsed command line. */
#ifndef SCSTADMIN_OPTS_H
#define SCSTADMIN_OPTS_H

#include "scstadmin.h"

struct opts {
	const char *cmd;	/* the command option, without '-' */
	const char *arg;	/* its argument */
	const char *handler, *driver, *target, *group, *device;
	const char *attributes, *to;
	bool force, noprompt, cont_on_err, nonkey, dry_run;
	struct sysfs sysfs;
	bool have_root;
};

void usage(FILE *f);
int cmd_list(struct opts *o);

#endif
