// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: the commands. Configuration-file commands go through the
 * parser, the diff and apply; single-object commands (a table, one
 * builder per object kind) check that what they name exists, then write
 * one mgmt command; -set_*_attr checks every attribute before writing any.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"

int cmd_fail(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("scstadmin: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int cmd_need(const struct opts *o, const char *val, const char *name)
{
	if (val)
		return 0;
	return cmd_fail(EXIT_USAGE, "-%s needs -%s", o->cmd, name);
}

int cmd_lun_number(const char *s, unsigned long *n)
{
	char *end = NULL;

	errno = 0;
	*n = strtoul(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || errno || *n > SCST_MAX_LUN)
		return cmd_fail(EXIT_USAGE,
				"bad LUN number '%s': expected 0 to %d", s,
				SCST_MAX_LUN);
	return EXIT_OK;
}

/* ---- path building with existence checks ------------------------------ */

/* Whether a lookup (below) found its object; frees the path it gave. */
static bool found(char *path)
{
	bool ok = path != NULL;

	free(path);
	return ok;
}

/*
 * @path if it exists; else NULL, with *ret set after "@what does not
 * exist". Frees @what, and @path unless it returns it.
 */
static char *existing(const struct opts *o, char *path, char *what, int *ret)
{
	if (!sysfs_exists(&o->sysfs, path)) {
		*ret = cmd_fail(EXIT_NOTFOUND, "%s does not exist", what);
		free(path);
		path = NULL;
	}
	free(what);
	return path;
}

/* TOP/NAME (handlers/H, targets/D, devices/DEV), which must exist */
static char *named_dir(const struct opts *o, const char *top,
		       const char *kind, const char *name, int *ret)
{
	return existing(o, xasprintf("%s/%s", top, name),
			xasprintf("%s '%s'", kind, name), ret);
}

/* targets/D/T of -driver D */
static char *target_dir(const struct opts *o, const char *tgt, int *ret)
{
	*ret = cmd_need(o, o->driver, "driver");
	if (*ret || !found(named_dir(o, "targets", "target driver", o->driver,
				     ret)))
		return NULL;
	*ret = cmd_need(o, tgt, "target");
	if (*ret)
		return NULL;
	return existing(o, xasprintf("targets/%s/%s", o->driver, tgt),
			xasprintf("target '%s' of driver '%s'", tgt, o->driver),
			ret);
}

/* targets/D/T/ini_groups/G of -driver D -target T */
static char *group_dir(const struct opts *o, const char *grp, int *ret)
{
	char *t = target_dir(o, o->target, ret);
	char *p;

	if (t)
		*ret = cmd_need(o, grp, "group");
	if (!t || *ret) {
		free(t);
		return NULL;
	}
	p = xasprintf("%s/ini_groups/%s", t, grp);
	free(t);
	return existing(o, p, xasprintf("group '%s' of target '%s'", grp,
					o->target), ret);
}

/* the directory whose luns/ a LUN command uses: target or group */
static char *lun_owner_dir(const struct opts *o, int *ret)
{
	return o->group ? group_dir(o, o->group, ret) :
			  target_dir(o, o->target, ret);
}

/* .../luns/N of the LUN number @arg, of the target or -group */
static char *lun_dir(const struct opts *o, const char *arg, int *ret)
{
	unsigned long n;
	char *d, *p;

	*ret = cmd_lun_number(arg, &n);
	if (*ret)
		return NULL;
	d = lun_owner_dir(o, ret);
	if (!d)
		return NULL;
	p = xasprintf("%s/luns/%lu", d, n);
	free(d);
	return existing(o, p, o->group ?
			xasprintf("LUN %lu of group '%s' of target '%s'", n,
				  o->group, o->target) :
			xasprintf("LUN %lu of target '%s'", n, o->target),
			ret);
}

/* .../initiators/I of -group G */
static char *init_path(const struct opts *o, const char *ini, int *ret)
{
	char *g = group_dir(o, o->group, ret);
	char *p;

	if (!g)
		return NULL;
	/* the mgmt file is no initiator: "mgmt/" never exists */
	p = xasprintf("%s/initiators/%s%s", g, ini,
		      strcmp(ini, "mgmt") ? "" : "/");
	free(g);
	return existing(o, p, xasprintf("initiator '%s' of group '%s'", ini,
					o->group), ret);
}

/*
 * The directory of the object a -set_*_attr or -list_*_attr command
 * names, and in @what how messages call it; NULL after an error.
 */
char *cmd_attr_owner(const struct opts *o, char **what, int *ret)
{
	const char *k = strchr(o->cmd, '_') + 1;	/* "dev_attr"... */

	*ret = EXIT_OK;
	if (!strcmp(k, "scst_attr")) {
		*what = xstrdup("SCST");
		return xstrdup(".");
	}
	if (!strcmp(k, "hnd_attr")) {
		*what = xasprintf("handler '%s'", o->arg);
		return named_dir(o, "handlers", "handler", o->arg, ret);
	}
	if (!strcmp(k, "drv_attr")) {
		*what = xasprintf("target driver '%s'", o->arg);
		return named_dir(o, "targets", "target driver", o->arg, ret);
	}
	if (!strcmp(k, "dev_attr")) {
		*what = xasprintf("device '%s'", o->arg);
		return named_dir(o, "devices", "device", o->arg, ret);
	}
	if (!strcmp(k, "tgt_attr")) {
		*what = xasprintf("target '%s'", o->arg);
		return target_dir(o, o->arg, ret);
	}
	if (!strcmp(k, "grp_attr")) {
		*what = xasprintf("group '%s'", o->arg);
		return group_dir(o, o->arg, ret);
	}
	if (!strcmp(k, "lun_attr")) {
		*what = xasprintf("LUN %s", o->arg);
		return lun_dir(o, o->arg, ret);
	}
	if (!strcmp(k, "init_attr")) {
		*what = xasprintf("initiator '%s'", o->arg);
		return init_path(o, o->arg, ret);
	}
	*what = NULL;
	*ret = cmd_fail(EXIT_USAGE, "unknown command -%s", o->cmd);
	return NULL;
}

/* ---- writes ------------------------------------------------------------ */

static int do_write(const struct opts *o, const char *rel, const char *text)
{
	int r = sysfs_write(&o->sysfs, rel, text);

	if (r)
		return cmd_fail(EXIT_SYSFS, "writing '%s' to %s/%s failed: %s",
				text, o->sysfs.root, rel, strerror(-r));
	if (o->dry_run)
		printf("would write '%s' to %s\n", text, rel);
	return EXIT_OK;
}

/* "k=v,k=v" (or ';') -> "k=v;k=v" for mgmt parameters */
static char *mgmt_params(const char *attrs)
{
	char *s = xstrdup(attrs ? attrs : "");

	for (char *c = s; *c; c++)
		if (*c == ',')
			*c = ';';
	return s;
}

/* Pass 0 of set_attrs: may DIR/k be written? */
static int check_attr(const struct opts *o, const char *rel, const char *k,
		      const char *what)
{
	if (!sysfs_exists(&o->sysfs, rel) || !strcmp(k, "mgmt"))
		return cmd_fail(EXIT_NOTFOUND, "%s has no attribute '%s'",
				what, k);
	if (!sysfs_writable(&o->sysfs, rel))
		return cmd_fail(EXIT_SYSFS,
				"%s: attribute '%s' is read-only (set when the object is created)",
				what, k);
	return EXIT_OK;
}

/*
 * Write each k=v of -attributes to DIR/k, after checking them all. With
 * -cont_on_err a failed write does not stop the others; the status still
 * says it failed.
 */
static int set_attrs(const struct opts *o, const char *dir, const char *what)
{
	char *save = NULL, *kv;
	int ret, failed = EXIT_OK;

	ret = cmd_need(o, o->attributes, "attributes");
	if (ret)
		return ret;
	for (int pass = 0; pass < 2 && !ret; pass++) {
		char *copy = xstrdup(o->attributes);

		save = NULL;
		for (kv = strtok_r(copy, ",;", &save); kv && !ret;
		     kv = strtok_r(NULL, ",;", &save)) {
			char *eq = strchr(kv, '=');
			char *rel;

			if (!eq || eq == kv) {
				ret = cmd_fail(EXIT_USAGE,
					       "bad attribute '%s': expected key=value",
					       kv);
				break;
			}
			*eq = '\0';
			rel = xasprintf("%s/%s", dir, kv);
			if (pass == 0) {
				ret = check_attr(o, rel, kv, what);
			} else {
				ret = do_write(o, rel, eq + 1);
				if (!ret) {
					printf("-> %s: %s=%s\n", what, kv,
					       eq + 1);
				} else if (o->cont_on_err) {
					failed = ret;
					ret = EXIT_OK;
				}
			}
			free(rel);
		}
		free(copy);
	}
	return ret ? ret : failed;
}

/* ---- configuration file commands -------------------------------------- */

static int reconcile(struct opts *o, struct tree *want, bool clear,
		     bool check_only)
{
	struct diff_opts dopt = { .clear = clear };
	action_vec acts = { 0 };
	str_vec warns = { 0 };
	struct apply_result res;
	struct tree *live;
	char err[512];
	int ret;

	live = sysfs_read_tree(&o->sysfs, true);
	ret = diff_trees(want, live, &dopt, &acts, &warns, err, sizeof(err));
	for (size_t i = 0; i < warns.n; i++)
		fprintf(stderr, "scstadmin: warning: %s\n", warns.v[i]);
	if (ret) {
		ret = cmd_fail(EXIT_NOTFOUND, "%s", err);
		goto out;
	}
	if (check_only) {
		for (size_t i = 0; i < acts.n; i++) {
			const char *why = action_force_reason(&acts.v[i]);

			printf("would %s%s%s%s\n", acts.v[i].desc,
			       why ? " (needs -force: " : "", why ? why : "",
			       why ? ")" : "");
		}
		printf("%zu change(s) would be made\n", acts.n);
		goto out;
	}
	ret = apply_actions(&o->sysfs, &acts, o->force, o->cont_on_err, &res);
	if (ret == EXIT_INUSE)
		goto out;
	if (!res.done && !res.failed)
		printf("no changes\n");
	else
		printf("%d change(s) made, %d failed\n", res.done,
		       res.failed);
out:
	actions_free(&acts);
	strs_free(&warns);
	tree_free(live);
	return ret;
}

static int cmd_config(struct opts *o, bool check_only)
{
	char err[1024];
	struct tree *want = conf_parse_file(o->arg, err, sizeof(err));
	int ret;

	if (!want) {
		fprintf(stderr, "scstadmin: %s\n", err);
		return EXIT_CONFIG;
	}
	if (check_only) {
		printf("%s: configuration is valid\n", o->arg);
		if (!o->have_root) {
			tree_free(want);
			return EXIT_OK;
		}
	}
	if (!o->have_root) {
		tree_free(want);
		return cmd_fail(EXIT_NOSCST,
				"SCST is not loaded: %s does not exist",
				o->sysfs.root);
	}
	ret = reconcile(o, want, false, check_only);
	tree_free(want);
	return ret;
}

static int cmd_write_config(struct opts *o)
{
	struct tree *live = sysfs_read_tree(&o->sysfs, o->nonkey);
	bool to_stdout = !strcmp(o->arg, "-");
	char *tmp = to_stdout ? NULL : xasprintf("%s.tmp", o->arg);
	FILE *f = to_stdout ? stdout : fopen(tmp, "w");
	int ret = EXIT_OK;

	if (!f) {
		ret = cmd_fail(EXIT_SYSFS, "cannot write %s: %s", o->arg,
			       strerror(errno));
		goto out;
	}
	conf_write(f, live, o->nonkey);
	if (!to_stdout) {
		if (fclose(f) || rename(tmp, o->arg)) {
			ret = cmd_fail(EXIT_SYSFS, "cannot write %s: %s",
				       o->arg, strerror(errno));
			unlink(tmp);
			goto out;
		}
		printf("configuration written to %s\n", o->arg);
	}
out:
	free(tmp);
	tree_free(live);
	return ret;
}

static int cmd_clear_config(struct opts *o)
{
	struct tree *empty;
	int ret;

	if (!o->force)
		return cmd_fail(EXIT_INUSE,
				"-clear_config removes every device, LUN and group: add -force");
	if (!o->noprompt && isatty(0)) {
		char ans[16] = "";

		printf("Remove all SCST configuration? [y/N] ");
		fflush(stdout);
		if (!fgets(ans, sizeof(ans), stdin) ||
		    (ans[0] != 'y' && ans[0] != 'Y'))
			return cmd_fail(EXIT_INUSE, "aborted");
	}
	empty = tree_new();
	ret = reconcile(o, empty, true, false);
	tree_free(empty);
	return ret;
}

/* ---- single-object commands -------------------------------------------- */

enum obj_op { OP_ADD, OP_DEL, OP_CLEAR, OP_MOVE, OP_REPLACE };

/* What a single-object command writes (freed by cmd_object). */
struct change {
	char *rel;		/* relative to the root */
	char *text;
};

/* ch->rel = @dir/@leaf, freeing @dir; false if there is no @dir (error) */
static bool set_rel(struct change *ch, char *dir, const char *leaf)
{
	if (!dir)
		return false;
	ch->rel = xasprintf("%s/%s", dir, leaf);
	free(dir);
	return true;
}

/* SCST's -close_dev refuses a device that a LUN exports, unless -force. */
static int dev_unused(const struct opts *o, const char *dev)
{
	struct tree *t = sysfs_read_tree(&o->sysfs, false);
	char where[512];
	bool used = tree_dev_lun(t, dev, false, where, sizeof(where));

	tree_free(t);
	if (!used)
		return EXIT_OK;
	return cmd_fail(EXIT_INUSE,
			"device '%s' is in use (%s): use -force to close it anyway",
			dev, where);
}

/* -open_dev, -close_dev */
static int dev_cmd(const struct opts *o, enum obj_op op, struct change *ch)
{
	int ret = EXIT_OK;
	char *p;

	ret = cmd_need(o, o->handler, "handler");
	if (ret)
		return ret;
	if (!set_rel(ch, named_dir(o, "handlers", "handler", o->handler, &ret),
		     "mgmt"))
		return ret;
	if (op == OP_DEL) {
		p = existing(o, xasprintf("handlers/%s/%s", o->handler, o->arg),
			     xasprintf("device '%s' of handler '%s'", o->arg,
				       o->handler), &ret);
		if (!found(p))
			return ret;
		ret = o->force ? EXIT_OK : dev_unused(o, o->arg);
		if (ret)
			return ret;
		ch->text = xasprintf("del_device %s", o->arg);
		return EXIT_OK;
	}
	p = xasprintf("devices/%s", o->arg);
	ret = sysfs_exists(&o->sysfs, p) ?
	      cmd_fail(EXIT_SYSFS, "device '%s' already exists", o->arg) : 0;
	free(p);
	if (ret)
		return ret;
	p = mgmt_params(o->attributes);
	ch->text = xasprintf("add_device %s%s%s", o->arg, *p ? " " : "", p);
	free(p);
	return EXIT_OK;
}

/* -resync_dev: the handler re-reads the size (SCST's resync_size) */
static int resync_cmd(const struct opts *o, enum obj_op op, struct change *ch)
{
	int ret = EXIT_OK;

	(void)op;
	if (!set_rel(ch, named_dir(o, "devices", "device", o->arg, &ret),
		     "resync_size"))
		return ret;
	if (!sysfs_exists(&o->sysfs, ch->rel))
		return cmd_fail(EXIT_NOTFOUND,
				"device '%s' has no attribute 'resync_size': its handler cannot resync its size",
				o->arg);
	ch->text = xstrdup("1");
	return EXIT_OK;
}

/* -add_target, -rem_target */
static int target_cmd(const struct opts *o, enum obj_op op, struct change *ch)
{
	int ret = EXIT_OK;
	char *d;

	if (op == OP_ADD) {
		ret = cmd_need(o, o->driver, "driver");
		if (ret)
			return ret;
		d = named_dir(o, "targets", "target driver", o->driver, &ret);
	} else {
		d = target_dir(o, o->arg, &ret);
		if (d)
			*strrchr(d, '/') = '\0';
	}
	if (!set_rel(ch, d, "mgmt"))
		return ret;
	ch->text = xasprintf("%s %s", op == OP_ADD ? "add_target" :
			     "del_target", o->arg);
	return EXIT_OK;
}

/* -enable_target, -disable_target */
static int enable_cmd(const struct opts *o, enum obj_op op, struct change *ch)
{
	int ret = EXIT_OK;

	if (!set_rel(ch, target_dir(o, o->arg, &ret), "enabled"))
		return ret;
	if (!sysfs_exists(&o->sysfs, ch->rel))
		return cmd_fail(EXIT_NOTFOUND,
				"target '%s' has no attribute 'enabled': driver '%s' does not enable targets",
				o->arg, o->driver);
	ch->text = xstrdup(op == OP_ADD ? "1" : "0");
	return EXIT_OK;
}

/* SCST's -rem_group refuses a group with LUNs or initiators, unless -force. */
static int group_unused(const struct opts *o)
{
	struct tree *t = sysfs_read_tree(&o->sysfs, false);
	const struct driver *d = tree_find_driver(t, o->driver);
	const struct target *tg = d ? driver_find_target(d, o->target) : NULL;
	const struct group *g = tg ? target_find_group(tg, o->arg) : NULL;
	size_t luns = g ? g->luns.n : 0, inits = g ? g->inits.n : 0;

	tree_free(t);
	if (!luns && !inits)
		return EXIT_OK;
	return cmd_fail(EXIT_INUSE,
			"group '%s' of target '%s' still has %zu LUN(s) and %zu initiator(s): use -force to remove it anyway",
			o->arg, o->target, luns, inits);
}

/* -add_group, -rem_group */
static int group_cmd(const struct opts *o, enum obj_op op, struct change *ch)
{
	int ret = EXIT_OK;

	if (!set_rel(ch, target_dir(o, o->target, &ret), "ini_groups/mgmt"))
		return ret;
	if (op == OP_DEL) {
		if (!found(group_dir(o, o->arg, &ret)))
			return ret;
		ret = o->force ? EXIT_OK : group_unused(o);
		if (ret)
			return ret;
	}
	ch->text = xasprintf("%s %s", op == OP_ADD ? "create" : "del", o->arg);
	return EXIT_OK;
}

/* -add_init, -rem_init, -move_init, -clear_inits */
static int init_cmd(const struct opts *o, enum obj_op op, struct change *ch)
{
	int ret = EXIT_OK;

	if (!set_rel(ch, group_dir(o, o->group, &ret), "initiators/mgmt"))
		return ret;
	if (op == OP_ADD) {
		ch->text = xasprintf("add %s", o->arg);
		return EXIT_OK;
	}
	if (op == OP_CLEAR) {
		ch->text = xstrdup("clear");
		return EXIT_OK;
	}
	if (!found(init_path(o, o->arg, &ret)))
		return ret;
	if (op == OP_DEL) {
		ch->text = xasprintf("del %s", o->arg);
		return EXIT_OK;
	}
	ret = cmd_need(o, o->to, "to");
	if (ret)
		return ret;
	if (!found(group_dir(o, o->to, &ret)))
		return ret;
	ch->text = xasprintf("move %s %s", o->arg, o->to);
	return EXIT_OK;
}

/* -add_lun, -rem_lun, -replace_lun, -clear_luns */
static int lun_cmd(const struct opts *o, enum obj_op op, struct change *ch)
{
	unsigned long n = 0;
	int ret = EXIT_OK;
	char *prm;

	if (op != OP_CLEAR)
		ret = cmd_lun_number(o->arg, &n);
	if (ret)
		return ret;
	if (!set_rel(ch, lun_owner_dir(o, &ret), "luns/mgmt"))
		return ret;
	if (op == OP_CLEAR) {
		ch->text = xstrdup("clear");
		return EXIT_OK;
	}
	if ((op == OP_REPLACE || op == OP_DEL) &&
	    !found(lun_dir(o, o->arg, &ret)))
		return ret;
	if (op == OP_DEL) {
		ch->text = xasprintf("del %lu", n);
		return EXIT_OK;
	}
	ret = cmd_need(o, o->device, "device");
	if (ret)
		return ret;
	if (!found(named_dir(o, "devices", "device", o->device, &ret)))
		return ret;
	prm = mgmt_params(o->attributes);
	ch->text = xasprintf("%s %s %lu%s%s", op == OP_ADD ? "add" : "replace",
			     o->device, n, *prm ? " " : "", prm);
	free(prm);
	return EXIT_OK;
}

static const struct object_cmd {
	const char *cmd;
	int (*build)(const struct opts *o, enum obj_op op, struct change *ch);
	enum obj_op op;
} object_cmds[] = {
	{ "open_dev", dev_cmd, OP_ADD },
	{ "close_dev", dev_cmd, OP_DEL },
	{ "resync_dev", resync_cmd, OP_ADD },
	{ "add_target", target_cmd, OP_ADD },
	{ "rem_target", target_cmd, OP_DEL },
	{ "enable_target", enable_cmd, OP_ADD },
	{ "disable_target", enable_cmd, OP_DEL },
	{ "add_group", group_cmd, OP_ADD },
	{ "rem_group", group_cmd, OP_DEL },
	{ "add_init", init_cmd, OP_ADD },
	{ "rem_init", init_cmd, OP_DEL },
	{ "move_init", init_cmd, OP_MOVE },
	{ "clear_inits", init_cmd, OP_CLEAR },
	{ "add_lun", lun_cmd, OP_ADD },
	{ "rem_lun", lun_cmd, OP_DEL },
	{ "replace_lun", lun_cmd, OP_REPLACE },
	{ "clear_luns", lun_cmd, OP_CLEAR },
	{ NULL, NULL, OP_ADD }
};

static int cmd_object(struct opts *o)
{
	const struct object_cmd *c;
	struct change ch = { 0 };
	int ret;

	for (c = object_cmds; c->cmd && strcmp(c->cmd, o->cmd); c++)
		;
	if (!c->cmd)
		return cmd_fail(EXIT_USAGE, "-%s is not implemented", o->cmd);
	ret = c->build(o, c->op, &ch);
	if (!ret)
		ret = do_write(o, ch.rel, ch.text);
	if (!ret)
		printf("-> %s: %s\n", ch.rel, ch.text);
	free(ch.rel);
	free(ch.text);
	return ret;
}

static int cmd_set_attr(struct opts *o)
{
	char *what = NULL;
	int ret;
	char *dir = cmd_attr_owner(o, &what, &ret);

	if (dir)
		ret = set_attrs(o, dir, what);
	free(dir);
	free(what);
	return ret;
}

int run_command(struct opts *o)
{
	const char *c = o->cmd;

	if (!strcmp(c, "check_config"))
		return cmd_config(o, true);
	if (!o->have_root)
		return cmd_fail(EXIT_NOSCST,
				"SCST is not loaded: %s does not exist (use --sysfs-root or SCST_SYSFS_ROOT for another tree)",
				o->sysfs.root);
	if (!strcmp(c, "config"))
		return cmd_config(o, false);
	if (!strcmp(c, "write_config"))
		return cmd_write_config(o);
	if (!strcmp(c, "clear_config"))
		return cmd_clear_config(o);
	if (!strncmp(c, "list_", 5))
		return cmd_list(o);
	if (!strncmp(c, "set_", 4))
		return cmd_set_attr(o);
	if (!strcmp(c, "close_session"))
		return cmd_close_session(o);
	return cmd_object(o);
}
