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

/* cmds.c */
/* Print "scstadmin: MESSAGE" to stderr; returns @code. */
int cmd_fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* EXIT_USAGE with "-CMD needs -NAME" if @val is NULL, else 0. */
int cmd_need(const struct opts *o, const char *val, const char *name);
/* Parse a LUN number (0 to SCST_MAX_LUN); EXIT_USAGE with a message. */
int cmd_lun_number(const char *s, unsigned long *n);
/*
 * The directory (relative to the root) of the object a -set_*_attr or
 * -list_*_attr command names, with @what naming it for messages; NULL
 * with *ret set and a message printed when it does not exist.
 */
char *cmd_attr_owner(const struct opts *o, char **what, int *ret);

/* list.c */
int cmd_list(struct opts *o);

/* sessions.c */
/* The lun<N>/ lines of session @sess of the sessions/ directory @rel. */
void sessions_print_luns(const struct sysfs *sys, const char *rel,
			 const char *sess);
/* -close_session NAME -driver D -target T: sessions/NAME/force_close */
int cmd_close_session(struct opts *o);

#endif
