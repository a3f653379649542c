// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: the commands. Configuration-file commands go through the
 * parser, the diff and apply; single-object commands check that what
 * they name exists, then write one mgmt command or attribute.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"

static int fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("scstadmin: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static int need(const struct opts *o, const char *val, const char *name)
{
	if (val)
		return 0;
	return fail(EXIT_USAGE, "-%s needs -%s", o->cmd, name);
}

static int need_dir(const struct opts *o, const char *rel, const char *what)
{
	if (sysfs_exists(&o->sysfs, rel))
		return 0;
	return fail(EXIT_NOTFOUND, "%s does not exist", what);
}

/* ---- path building with existence checks ------------------------------ */

/* targets/D/T, or NULL after printing the error into *ret */
static char *target_dir(const struct opts *o, const char *tgt, int *ret)
{
	char *p;

	if ((*ret = need(o, o->driver, "driver")))
		return NULL;
	p = xasprintf("targets/%s", o->driver);
	*ret = need_dir(o, p, "");
	free(p);
	if (*ret) {
		*ret = fail(EXIT_NOTFOUND, "target driver '%s' does not exist",
			    o->driver);
		return NULL;
	}
	if (!tgt && (*ret = need(o, NULL, "target")))
		return NULL;
	p = xasprintf("targets/%s/%s", o->driver, tgt);
	if (!sysfs_exists(&o->sysfs, p)) {
		*ret = fail(EXIT_NOTFOUND,
			    "target '%s' of driver '%s' does not exist",
			    tgt, o->driver);
		free(p);
		return NULL;
	}
	return p;
}

static char *group_dir(const struct opts *o, const char *grp, int *ret)
{
	char *t = target_dir(o, o->target, ret);
	char *p;

	if (!t)
		return NULL;
	if (!grp) {
		free(t);
		*ret = need(o, NULL, "group");
		return NULL;
	}
	p = xasprintf("%s/ini_groups/%s", t, grp);
	free(t);
	if (!sysfs_exists(&o->sysfs, p)) {
		*ret = fail(EXIT_NOTFOUND,
			    "group '%s' of target '%s' does not exist", grp,
			    o->target);
		free(p);
		return NULL;
	}
	return p;
}

/* the directory whose luns/ a LUN command uses: target or group */
static char *lun_owner_dir(const struct opts *o, int *ret)
{
	return o->group ? group_dir(o, o->group, ret) :
			  target_dir(o, o->target, ret);
}

/* ---- writes ------------------------------------------------------------ */

static int do_write(const struct opts *o, const char *rel, const char *text)
{
	int r = sysfs_write(&o->sysfs, rel, text);

	if (r)
		return fail(EXIT_SYSFS, "writing '%s' to %s/%s failed: %s",
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

/* write each k=v of -attributes to DIR/k */
static int set_attrs(const struct opts *o, const char *dir, const char *what)
{
	char *list, *save = NULL, *kv;
	int ret = EXIT_OK;

	if ((ret = need(o, o->attributes, "attributes")))
		return ret;
	list = xstrdup(o->attributes);
	/* check all before writing any */
	for (int pass = 0; pass < 2 && !ret; pass++) {
		char *copy = xstrdup(list);

		save = NULL;
		for (kv = strtok_r(copy, ",;", &save); kv && !ret;
		     kv = strtok_r(NULL, ",;", &save)) {
			char *eq = strchr(kv, '=');
			char *rel;

			if (!eq || eq == kv) {
				ret = fail(EXIT_USAGE,
					   "bad attribute '%s': expected key=value",
					   kv);
				break;
			}
			*eq = '\0';
			rel = *dir ? xasprintf("%s/%s", dir, kv) : xstrdup(kv);
			if (pass == 0) {
				if (!sysfs_exists(&o->sysfs, rel) ||
				    !strcmp(kv, "mgmt"))
					ret = fail(EXIT_NOTFOUND,
						   "%s has no attribute '%s'",
						   what, kv);
			} else {
				ret = do_write(o, rel, eq + 1);
				if (!ret)
					printf("-> %s: %s=%s\n", what, kv,
					       eq + 1);
				else if (o->cont_on_err)
					ret = EXIT_OK;
			}
			free(rel);
		}
		free(copy);
	}
	free(list);
	return ret;
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
		ret = fail(EXIT_NOTFOUND, "%s", err);
		goto out;
	}
	if (check_only) {
		for (size_t i = 0; i < acts.n; i++)
			printf("would %s%s\n", acts.v[i].desc,
			       acts.v[i].in_use ? " (in use: needs -force)" :
			       "");
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
		return fail(EXIT_NOSCST, "SCST is not loaded: %s does not exist",
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
		ret = fail(EXIT_SYSFS, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	conf_write(f, live, o->nonkey);
	if (!to_stdout) {
		if (fclose(f) || rename(tmp, o->arg)) {
			ret = fail(EXIT_SYSFS, "%s: %s", o->arg,
				   strerror(errno));
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
		return fail(EXIT_INUSE,
			    "-clear_config removes every device, LUN and group: add -force");
	if (!o->noprompt && isatty(0)) {
		char ans[16] = "";

		printf("Remove all SCST configuration? [y/N] ");
		fflush(stdout);
		if (!fgets(ans, sizeof(ans), stdin) ||
		    (ans[0] != 'y' && ans[0] != 'Y'))
			return fail(EXIT_INUSE, "aborted");
	}
	empty = tree_new();
	ret = reconcile(o, empty, true, false);
	tree_free(empty);
	return ret;
}

/* ---- single-object commands -------------------------------------------- */

static int cmd_object(struct opts *o)
{
	const char *c = o->cmd;
	char *dir = NULL, *rel = NULL, *text = NULL, *p = NULL;
	int ret = EXIT_OK;

	if (!strcmp(c, "open_dev") || !strcmp(c, "close_dev")) {
		if ((ret = need(o, o->handler, "handler")))
			return ret;
		dir = xasprintf("handlers/%s", o->handler);
		if (!sysfs_exists(&o->sysfs, dir)) {
			ret = fail(EXIT_NOTFOUND, "handler '%s' does not exist",
				   o->handler);
			goto out;
		}
		rel = xasprintf("%s/mgmt", dir);
		p = xasprintf("devices/%s", o->arg);
		if (c[0] == 'o') {
			char *prm = mgmt_params(o->attributes);

			if (sysfs_exists(&o->sysfs, p)) {
				free(prm);
				ret = fail(EXIT_SYSFS,
					   "device '%s' already exists", o->arg);
				goto out;
			}
			text = xasprintf("add_device %s%s%s", o->arg,
					 *prm ? " " : "", prm);
			free(prm);
		} else {
			if (!sysfs_exists(&o->sysfs, p)) {
				ret = fail(EXIT_NOTFOUND,
					   "device '%s' does not exist", o->arg);
				goto out;
			}
			text = xasprintf("del_device %s", o->arg);
		}
	} else if (!strcmp(c, "resync_dev")) {
		dir = xasprintf("devices/%s", o->arg);
		if (!sysfs_exists(&o->sysfs, dir)) {
			ret = fail(EXIT_NOTFOUND, "device '%s' does not exist",
				   o->arg);
			goto out;
		}
		rel = xasprintf("%s/resync_size", dir);
		text = xstrdup("1");
	} else if (!strcmp(c, "add_target") || !strcmp(c, "rem_target")) {
		if ((ret = need(o, o->driver, "driver")))
			return ret;
		dir = xasprintf("targets/%s", o->driver);
		if (!sysfs_exists(&o->sysfs, dir)) {
			ret = fail(EXIT_NOTFOUND,
				   "target driver '%s' does not exist",
				   o->driver);
			goto out;
		}
		p = xasprintf("%s/%s", dir, o->arg);
		if (c[0] == 'r' && !sysfs_exists(&o->sysfs, p)) {
			ret = fail(EXIT_NOTFOUND,
				   "target '%s' of driver '%s' does not exist",
				   o->arg, o->driver);
			goto out;
		}
		rel = xasprintf("%s/mgmt", dir);
		text = xasprintf("%s %s", c[0] == 'a' ? "add_target" :
				 "del_target", o->arg);
	} else if (!strcmp(c, "enable_target") ||
		   !strcmp(c, "disable_target")) {
		if (!(dir = target_dir(o, o->arg, &ret)))
			goto out;
		rel = xasprintf("%s/enabled", dir);
		text = xstrdup(c[0] == 'e' ? "1" : "0");
	} else if (!strcmp(c, "add_group") || !strcmp(c, "rem_group")) {
		if (!(dir = target_dir(o, o->target, &ret)))
			goto out;
		p = xasprintf("%s/ini_groups/%s", dir, o->arg);
		if (c[0] == 'r' && !sysfs_exists(&o->sysfs, p)) {
			ret = fail(EXIT_NOTFOUND,
				   "group '%s' of target '%s' does not exist",
				   o->arg, o->target);
			goto out;
		}
		rel = xasprintf("%s/ini_groups/mgmt", dir);
		text = xasprintf("%s %s", c[0] == 'a' ? "create" : "del",
				 o->arg);
	} else if (!strcmp(c, "add_init") || !strcmp(c, "rem_init") ||
		   !strcmp(c, "move_init") || !strcmp(c, "clear_inits")) {
		if (!(dir = group_dir(o, o->group, &ret)))
			goto out;
		rel = xasprintf("%s/initiators/mgmt", dir);
		if (c[0] == 'a') {
			text = xasprintf("add %s", o->arg);
		} else if (c[0] == 'c') {
			text = xstrdup("clear");
		} else {
			p = xasprintf("%s/initiators/%s", dir, o->arg);
			if (!sysfs_exists(&o->sysfs, p)) {
				ret = fail(EXIT_NOTFOUND,
					   "initiator '%s' is not in group '%s'",
					   o->arg, o->group);
				goto out;
			}
			if (c[0] == 'r') {
				text = xasprintf("del %s", o->arg);
			} else {
				if ((ret = need(o, o->to, "to")))
					goto out;
				text = xasprintf("move %s %s", o->arg, o->to);
			}
		}
	} else if (!strcmp(c, "add_lun") || !strcmp(c, "rem_lun") ||
		   !strcmp(c, "replace_lun") || !strcmp(c, "clear_luns")) {
		char *end = NULL;
		unsigned long n = 0;

		if (c[0] != 'c') {
			n = strtoul(o->arg, &end, 10);
			if (*end || !*o->arg || n > SCST_MAX_LUN)
				return fail(EXIT_USAGE,
					    "bad LUN number '%s': expected 0 to %d",
					    o->arg, SCST_MAX_LUN);
		}
		if (!(dir = lun_owner_dir(o, &ret)))
			goto out;
		rel = xasprintf("%s/luns/mgmt", dir);
		if (c[0] == 'a' || c[2] == 'p') {
			char *prm;

			if ((ret = need(o, o->device, "device")))
				goto out;
			p = xasprintf("devices/%s", o->device);
			if (!sysfs_exists(&o->sysfs, p)) {
				ret = fail(EXIT_NOTFOUND,
					   "device '%s' does not exist",
					   o->device);
				goto out;
			}
			prm = mgmt_params(o->attributes);
			text = xasprintf("%s %s %lu%s%s",
					 c[0] == 'a' ? "add" : "replace",
					 o->device, n, *prm ? " " : "", prm);
			free(prm);
		} else if (c[0] == 'c') {
			text = xstrdup("clear");
		} else {
			p = xasprintf("%s/luns/%lu", dir, n);
			if (!sysfs_exists(&o->sysfs, p)) {
				ret = fail(EXIT_NOTFOUND,
					   "LUN %lu does not exist", n);
				goto out;
			}
			text = xasprintf("del %lu", n);
		}
	} else {
		return fail(EXIT_USAGE, "-%s is not implemented", c);
	}
	ret = do_write(o, rel, text);
	if (!ret)
		printf("-> %s: %s\n", rel, text);
out:
	free(dir);
	free(rel);
	free(text);
	free(p);
	return ret;
}

static int cmd_set_attr(struct opts *o)
{
	const char *c = o->cmd + 4;	/* after "set_" */
	char *dir = NULL, *what = NULL;
	int ret = EXIT_OK;

	if (!strcmp(c, "scst_attr")) {
		dir = xstrdup("");
		what = xstrdup("SCST");
	} else if (!strcmp(c, "hnd_attr") || !strcmp(c, "dev_attr") ||
		   !strcmp(c, "drv_attr")) {
		const char *kind = c[0] == 'h' ? "handler" :
				   c[1] == 'e' ? "device" : "target driver";

		dir = xasprintf("%s/%s", c[0] == 'h' ? "handlers" :
				c[1] == 'e' ? "devices" : "targets", o->arg);
		what = xasprintf("%s '%s'", kind, o->arg);
		if (!sysfs_exists(&o->sysfs, dir)) {
			ret = fail(EXIT_NOTFOUND, "%s does not exist", what);
			goto out;
		}
	} else if (!strcmp(c, "tgt_attr")) {
		dir = target_dir(o, o->arg, &ret);
		what = xasprintf("target '%s'", o->arg);
	} else if (!strcmp(c, "grp_attr")) {
		dir = group_dir(o, o->arg, &ret);
		what = xasprintf("group '%s'", o->arg);
	} else if (!strcmp(c, "lun_attr")) {
		char *d = lun_owner_dir(o, &ret);

		if (d) {
			dir = xasprintf("%s/luns/%s", d, o->arg);
			free(d);
			if (!sysfs_exists(&o->sysfs, dir)) {
				ret = fail(EXIT_NOTFOUND,
					   "LUN %s does not exist", o->arg);
				goto out;
			}
		}
		what = xasprintf("LUN %s", o->arg);
	} else if (!strcmp(c, "init_attr")) {
		char *d = group_dir(o, o->group, &ret);

		if (d) {
			dir = xasprintf("%s/initiators/%s", d, o->arg);
			free(d);
		}
		what = xasprintf("initiator '%s'", o->arg);
	} else {
		return fail(EXIT_USAGE, "unknown command -%s", o->cmd);
	}
	if (dir)
		ret = set_attrs(o, dir, what);
out:
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
		return fail(EXIT_NOSCST,
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
	return cmd_object(o);
}
