/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scstadmin: shared types. The configuration tree is the same for a
 * parsed scst.conf and for a tree read from /sys/kernel/scst_tgt, so the
 * writer, the checker and the reconciliation diff work on both.
 */
#ifndef SCSTADMIN_H
#define SCSTADMIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* allocation, VEC, str_vec, struct sysfs: shared with scst-affinity */
#include "../lib/alloc.h"
#include "../lib/sysfs.h"

/* the packages' and the modules' (scripts/check-deb checks they agree) */
#define SCSTADMIN_VERSION	"0.1.0"
#define SCST_MAX_LUN		16383

/* Exit codes (documented in scstadmin(1)). */
enum {
	EXIT_OK		= 0,
	EXIT_USAGE	= 1,	/* bad command line */
	EXIT_CONFIG	= 2,	/* scst.conf parse or check error */
	EXIT_SYSFS	= 3,	/* a sysfs write or read failed */
	EXIT_NOTFOUND	= 4,	/* no such handler/device/driver/target/... */
	EXIT_INUSE	= 5,	/* refused: in use or needs -force */
	EXIT_NOSCST	= 6,	/* the sysfs root does not exist */
	EXIT_WARN	= 7,	/* done, but something was skipped (warnings) */
	EXIT_NOTSUPP	= 8,	/* the running modules lack this (ALUA...) */
};

/* usr/lib's allocations end the process with this status when they fail */
_Static_assert(EXIT_SYSFS == XALLOC_EXIT_STATUS,
	       "out of memory exits with scstadmin(1)'s EXIT_SYSFS");

#define SCST_DEFAULT_CONF	"/etc/scst.conf"

/** struct attr - one "key value" line or one sysfs attribute file */
struct attr {
	char *key;
	char *value;
	bool is_key;		/* saved by -write_config ([key] line) */
	bool writable;		/* live tree: the file can be written */
	int line, col;		/* parsed tree: where it was */
};
typedef VEC(struct attr) attr_vec;

struct lun {
	unsigned long num;
	char *dev;
	attr_vec attrs;
	int line, col, dev_col;
};

struct initiator {
	char *name;
	int line, col;
};

struct group {
	char *name;
	attr_vec attrs;
	VEC(struct lun *) luns;
	VEC(struct initiator) inits;
	int line, col;
};

struct target {
	char *name;
	attr_vec attrs;
	bool hw_target;		/* HW_TARGET: must exist, never created */
	VEC(struct lun *) luns;
	VEC(struct group *) groups;
	int nsessions;		/* live tree only */
	int line, col;
};

struct driver {
	char *name;
	attr_vec attrs;
	VEC(struct target *) targets;
	bool can_add_target;	/* live: mgmt knows add_target/del_target */
	int line, col;
};

struct device {
	char *name;
	attr_vec attrs;
	int line, col;
};

struct handler {
	char *name;
	attr_vec attrs;
	VEC(struct device *) devices;
	VEC(char *) params;	/* live: add_device parameters from mgmt */
	int line, col;
};

/* ALUA: DEVICE_GROUP name { DEVICE d; TARGET_GROUP tg { TARGET t } } */
struct tgt_group {
	char *name;
	attr_vec attrs;
	VEC(struct target *) targets;	/* name and attributes only */
	int line, col;
};

struct dev_group {
	char *name;
	attr_vec attrs;
	VEC(struct initiator) devices;	/* device names, with their line */
	VEC(struct tgt_group *) tgroups;
	int line, col;
};

struct tree {
	attr_vec attrs;		/* SCST global attributes (setup_id...) */
	VEC(struct handler *) handlers;
	VEC(struct driver *) drivers;
	VEC(struct dev_group *) dgroups;
	bool has_alua;		/* live: device_groups/ exists */
	char *src;		/* parsed: the file's name, for messages */
};

/* tree.c */
struct tree *tree_new(void);
void tree_free(struct tree *t);
struct attr *attr_add(attr_vec *a, const char *key, const char *value);
const struct attr *attr_find(const attr_vec *a, const char *key);
struct handler *tree_add_handler(struct tree *t, const char *name);
struct handler *tree_find_handler(const struct tree *t, const char *name);
struct device *handler_add_device(struct handler *h, const char *name);
struct device *tree_find_device(const struct tree *t, const char *name,
				struct handler **hp);
struct driver *tree_add_driver(struct tree *t, const char *name);
struct driver *tree_find_driver(const struct tree *t, const char *name);
struct target *driver_add_target(struct driver *d, const char *name);
struct target *driver_find_target(const struct driver *d, const char *name);
struct group *target_add_group(struct target *t, const char *name);
struct group *target_find_group(const struct target *t, const char *name);
struct dev_group *tree_add_dgroup(struct tree *t, const char *name);
struct dev_group *tree_find_dgroup(const struct tree *t, const char *name);
struct tgt_group *dgroup_add_tgroup(struct dev_group *g, const char *name);
struct tgt_group *dgroup_find_tgroup(const struct dev_group *g,
				     const char *name);
struct target *tgroup_add_target(struct tgt_group *g, const char *name);
/* Whether a parsed tree says nothing at all (an empty file). */
bool tree_is_empty(const struct tree *t);
struct lun *lun_add(void *luns_vec, unsigned long num, const char *dev);
struct lun *target_find_lun(const struct target *t, unsigned long num);
struct lun *group_find_lun(const struct group *g, unsigned long num);
/*
 * Whether a LUN exports device @dev (only on targets with sessions if
 * @with_sessions); if so @where names the first one ("LUN 0 of target T").
 */
bool tree_dev_lun(const struct tree *t, const char *dev, bool with_sessions,
		  char *where, size_t len);
bool group_has_init(const struct group *g, const char *name);
bool handler_has_param(const struct handler *h, const char *p);
void tree_sort(struct tree *t);
/* Compare key attributes and structure; on difference describe it. */
bool tree_equal(const struct tree *a, const struct tree *b,
		char *why, size_t whylen);

/* parser.c */
/*
 * Parse and check @text (named @fname in messages). On error returns NULL
 * and puts "FILE:LINE:COL: message" into @err.
 */
struct tree *conf_parse(const char *fname, const char *text,
			char *err, size_t errlen);
struct tree *conf_parse_file(const char *fname, char *err, size_t errlen);
/* Semantic checks of a parsed tree; 0 or -1 with @err filled. */
int conf_check(const struct tree *t, const char *fname,
	       char *err, size_t errlen);

/* writer.c */
void conf_write(FILE *f, struct tree *t, bool nonkey);

/* sysfs_tree.c: the live tree, read through usr/lib/sysfs.h */
struct tree *sysfs_read_tree(const struct sysfs *s, bool all_attrs);
int sysfs_read_attrs(const struct sysfs *s, const char *rel, attr_vec *a,
		     bool all);

/* diff.c */
enum phase {
	PH_DISABLE, PH_DEL_INIT, PH_DEL_LUN, PH_DEL_GROUP, PH_DEL_TARGET,
	PH_DEL_DEVICE, PH_GLOBAL_ATTR, PH_ADD_DEVICE, PH_DEV_ATTR,
	PH_DRV_ATTR, PH_ADD_TARGET, PH_ADD_GROUP, PH_ADD_INIT, PH_ADD_LUN,
	PH_ATTR, PH_ENABLE, PH_COUNT
};

struct action {
	enum phase phase;
	char *path;		/* relative to the sysfs root */
	char *text;		/* what is written */
	char *desc;		/* for the user */
	bool is_attr;		/* an attribute write: skipped if equal */
	bool in_use;		/* removes something a session uses */
	bool recreate;		/* closes a device to re-open it */
	bool removal;		/* removes or replaces something live */
	bool forced_part;	/* only made with the -force action before */
	const char *stops_io;	/* why the write stops I/O (-force only) */
};

/* Why an action needs -force, or NULL. */
const char *action_force_reason(const struct action *a);
typedef VEC(struct action) action_vec;

struct diff_opts {
	bool clear;		/* every driver counts as named (-clear_config) */
};

/* Whether an action is made only with -force (-config's safety rule). */
bool action_needs_force(const struct action *a);

/*
 * Actions that turn @live into @want, in a safe order. Pure: only looks
 * at the two trees. Returns 0, or -1 with @err set for a change that
 * cannot be made (handler or driver not loaded...). Warnings about
 * things that are left as they are go to @warnings.
 *
 * A device whose creation parameters (the handler's add_device
 * parameters that are read-only in sysfs) differ from the file is closed
 * and re-opened with the file's (actions marked recreate), and the LUNs
 * that exported it are added again, also on drivers the file leaves
 * alone.
 */
int diff_trees(const struct tree *want, const struct tree *live,
	       const struct diff_opts *o, action_vec *out,
	       str_vec *warnings, char *err, size_t errlen);
void actions_free(action_vec *a);

/* offline.c: -check_config without the modules */
const char *const *offline_dev_attrs(const char *handler);
const char *offline_refusal(const char *key, const char *value);
const char *offline_root_refusal(const char *key, const char *value);
bool root_attr_inert(const char *key, const char *value);
const char *offline_dev_refusal(const char *handler, const char *key,
				const char *value);
int conf_check_offline(const struct tree *t, str_vec *warnings);
int conf_check_refusals(const struct tree *t, str_vec *warnings);

/* apply.c */
struct apply_result {
	int done, skipped, failed;
	int not_forced;		/* left because -force was not given */
	int not_tried;		/* after a failure without -cont_on_err */
	int warned;		/* attributes left with a warning */
};
int apply_actions(const struct sysfs *s, const action_vec *a, bool force,
		  bool cont_on_err, struct apply_result *res);

/* cmds.c */
struct opts;
int run_command(struct opts *o);

#endif /* SCSTADMIN_H */
