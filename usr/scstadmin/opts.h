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
	const char *dev_group, *tgt_group;
	bool force, noprompt, cont_on_err, nonkey, dry_run;
	bool no_lip, debug, tsv;
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

/* One -attributes entry; a bare key has the value "1". */
struct kv {
	char *key, *value;
};
struct kv_vec {
	struct kv *v;
	size_t n, cap;
};
int cmd_parse_kvs(const struct opts *o, struct kv_vec *out);
void cmd_kvs_free(struct kv_vec *v);
/* Write @text to @rel, or say what failed and where to look; dry runs. */
int cmd_write(const struct opts *o, const char *rel, const char *text);
/* -set_*_attr on the object directory @dir (named @what in messages). */
int cmd_set_attrs(const struct opts *o, const char *dir, const char *what);
/* handlers/H, targets/D ("... is not loaded"), devices/DEV; or NULL. */
char *cmd_named_dir(const struct opts *o, const char *top, const char *kind,
		    const char *name, int *ret);

/* cmds_ext.c: ALUA, dynamic attributes, -issue_lip, -version */
/* EXIT_USAGE if @o->cmd is not one of them, else its status. */
int cmd_ext(struct opts *o, bool *handled);
/*
 * device_groups/DGRP[/target_groups/TGRP[/T]] of -*_dgrp_attr (k
 * "dgrp_attr"), -*_tgrp_attr, -*_ttgt_attr; NULL after a message.
 */
char *cmd_alua_dir(const struct opts *o, const char *k, char **what,
		   int *ret);

/* list.c */
int cmd_list(struct opts *o);

/* sessions.c */
/*
 * The lun<N>/ lines of session @sess of the sessions/ directory @rel;
 * @pre "DRIVER\tTARGET" makes them -tsv "sesslun" records.
 */
void sessions_print_luns(const struct sysfs *sys, const char *rel,
			 const char *sess, const char *pre);
/* -close_session NAME -driver D -target T: sessions/NAME/force_close */
int cmd_close_session(struct opts *o);

#endif
