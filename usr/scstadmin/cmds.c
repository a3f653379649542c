// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: the commands. Configuration-file commands go through the
 * parser, the diff and apply; single-object commands (a table, one
 * builder per object kind) check that what they name exists, then write
 * one mgmt command; -set_*_attr checks every attribute before writing any.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
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

/*
 * TOP/NAME (handlers/H, targets/D, devices/DEV), which must exist. A
 * handler or driver that is not there is a module that is not loaded.
 */
static char *named_dir(const struct opts *o, const char *top,
		       const char *kind, const char *name, int *ret)
{
	char *p = xasprintf("%s/%s", top, name);

	if (strcmp(top, "devices") && !sysfs_exists(&o->sysfs, p)) {
		*ret = cmd_fail(EXIT_NOTFOUND,
				"%s '%s' is not loaded (no %s in %s)",
				strcmp(top, "handlers") ? "driver" : "handler",
				name, p, o->sysfs.root);
		free(p);
		return NULL;
	}
	return existing(o, p, xasprintf("%s '%s'", kind, name), ret);
}

char *cmd_named_dir(const struct opts *o, const char *top, const char *kind,
		    const char *name, int *ret)
{
	return named_dir(o, top, kind, name, ret);
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
	if (!strcmp(k, "dgrp_attr") || !strcmp(k, "tgrp_attr") ||
	    !strcmp(k, "ttgt_attr"))
		return cmd_alua_dir(o, k, what, ret);
	*what = NULL;
	*ret = cmd_fail(EXIT_USAGE, "unknown command -%s", o->cmd);
	return NULL;
}

/* ---- writes ------------------------------------------------------------ */

int cmd_write(const struct opts *o, const char *rel, const char *text)
{
	int r = sysfs_write(&o->sysfs, rel, text);
	const char *base = strrchr(rel, '/');

	if (r)
		return cmd_fail(EXIT_SYSFS,
				"writing %s '%s' to %s/%s failed: %s (see last_sysfs_mgmt_res%s for the reason)",
				strcmp(base ? base + 1 : rel, "mgmt") ?
				"value" : "mgmt command", text, o->sysfs.root,
				rel, strerror(-r),
				o->sysfs.is_sysfs ? " and the kernel log" : "");
	if (o->dry_run)
		printf("would write '%s' to %s\n", text, rel);
	return EXIT_OK;
}

static int do_write(const struct opts *o, const char *rel, const char *text)
{
	return cmd_write(o, rel, text);
}

void cmd_kvs_free(struct kv_vec *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->v[i].key);
		free(v->v[i].value);
	}
	free(v->v);
	memset(v, 0, sizeof(*v));
}

/*
 * -attributes in SCST's forms: "k=v,k2=v2" (',' or ';' between them), a
 * bare key meaning k=1 (SCST: "read_only" is read_only=1). Empty keys
 * and a key given twice are refused before anything is written.
 */
int cmd_parse_kvs(const struct opts *o, struct kv_vec *out)
{
	char *copy, *save = NULL, *kv;
	int ret = EXIT_OK;

	memset(out, 0, sizeof(*out));
	if (!o->attributes)
		return EXIT_OK;
	copy = xstrdup(o->attributes);
	for (kv = strtok_r(copy, ",;", &save); kv && !ret;
	     kv = strtok_r(NULL, ",;", &save)) {
		char *eq = strchr(kv, '=');
		struct kv *n;

		if (eq)
			*eq = '\0';
		if (!*kv) {
			ret = cmd_fail(EXIT_USAGE,
				       "bad attribute '=%s': expected key=value or key",
				       eq ? eq + 1 : "");
			break;
		}
		for (size_t i = 0; i < out->n; i++)
			if (!strcmp(out->v[i].key, kv))
				ret = cmd_fail(EXIT_USAGE,
					       "attribute '%s' given twice in -attributes",
					       kv);
		n = vec_push(out);
		n->key = xstrdup(kv);
		n->value = xstrdup(eq ? eq + 1 : "1");
	}
	free(copy);
	if (ret)
		cmd_kvs_free(out);
	return ret;
}

/* "k=v;k=v" for a mgmt command line; refuses what its parser splits at */
static int mgmt_params(const struct opts *o, char **out)
{
	struct kv_vec kvs;
	int ret = cmd_parse_kvs(o, &kvs);
	char *s = xstrdup("");

	for (size_t i = 0; !ret && i < kvs.n; i++) {
		char *n;

		if (strpbrk(kvs.v[i].value, " \t")) {
			ret = cmd_fail(EXIT_USAGE,
				       "attribute '%s': the value '%s' has a blank, which a mgmt command cannot carry",
				       kvs.v[i].key, kvs.v[i].value);
			break;
		}
		n = xasprintf("%s%s%s=%s", s, *s ? ";" : "", kvs.v[i].key,
			      kvs.v[i].value);
		free(s);
		s = n;
	}
	cmd_kvs_free(&kvs);
	if (ret) {
		free(s);
		return ret;
	}
	*out = s;
	return EXIT_OK;
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
	struct kv_vec kvs;
	int ret, failed = EXIT_OK;

	ret = cmd_need(o, o->attributes, "attributes");
	if (!ret)
		ret = cmd_parse_kvs(o, &kvs);
	if (ret)
		return ret;
	for (int pass = 0; pass < 2 && !ret; pass++) {
		for (size_t i = 0; i < kvs.n && !ret; i++) {
			char *rel = xasprintf("%s/%s", dir, kvs.v[i].key);

			if (pass == 0) {
				ret = check_attr(o, rel, kvs.v[i].key, what);
			} else {
				ret = do_write(o, rel, kvs.v[i].value);
				if (!ret) {
					printf("-> %s: %s=%s\n", what,
					       kvs.v[i].key, kvs.v[i].value);
				} else if (o->cont_on_err) {
					failed = ret;
					ret = EXIT_OK;
				}
			}
			free(rel);
		}
	}
	cmd_kvs_free(&kvs);
	return ret ? ret : failed;
}

int cmd_set_attrs(const struct opts *o, const char *dir, const char *what)
{
	return set_attrs(o, dir, what);
}

/* ---- configuration file commands -------------------------------------- */

/* Warnings to stderr (notes are not counted); how many were warnings. */
static int print_warnings(const str_vec *w)
{
	int n = 0;

	for (size_t i = 0; i < w->n; i++) {
		bool note = !strncmp(w->v[i], "note: ", 6);

		fprintf(stderr, "scstadmin: %s%s\n", note ? "" : "warning: ",
			w->v[i]);
		n += !note;
	}
	return n;
}

/* -check_config: the plan, each line marked with what needs -force. */
static void print_plan(const action_vec *acts)
{
	size_t forced = 0;

	for (size_t i = 0; i < acts->n; i++) {
		const struct action *x = &acts->v[i];
		bool f = action_needs_force(x);

		forced += f;
		printf("would %s%s%s%s\n", x->desc, f ? " [needs -force: " : "",
		       f ? action_force_reason(x) : "", f ? "]" : "");
	}
	printf("would make %zu change(s)", acts->n);
	if (forced)
		printf(", %zu of them only with -force", forced);
	printf("\n");
}

static void print_summary(const struct opts *o, const struct apply_result *r)
{
	if (o->dry_run)
		printf("dry run: would make %d change(s)", r->done);
	else if (!r->done && !r->failed)
		printf("no changes");
	else
		printf("%d change(s) made, %d failed", r->done, r->failed);
	if (r->not_forced)
		printf("; %d change(s) not made: they remove or replace what the configuration lacks (use -force)",
		       r->not_forced);
	printf("\n");
}

static int reconcile(struct opts *o, struct tree *want, bool clear,
		     bool check_only)
{
	struct diff_opts dopt = { .clear = clear };
	action_vec acts = { 0 };
	str_vec warns = { 0 };
	struct apply_result res;
	struct tree *live;
	char err[1024];
	int ret, nwarn;

	live = sysfs_read_tree(&o->sysfs, true);
	ret = diff_trees(want, live, &dopt, &acts, &warns, err, sizeof(err));
	nwarn = print_warnings(&warns);
	if (ret) {
		bool at_line = want->src &&
			       !strncmp(err, want->src, strlen(want->src));

		ret = cmd_fail(at_line ? EXIT_CONFIG : EXIT_NOTFOUND,
			       "%s%s", err, " (nothing changed)");
		goto out;
	}
	if (check_only) {
		print_plan(&acts);
		ret = nwarn ? EXIT_WARN : EXIT_OK;
		goto out;
	}
	ret = apply_actions(&o->sysfs, &acts, o->force, o->cont_on_err, &res);
	print_summary(o, &res);
	/* warnings of the plan, or attributes left while applying it */
	if (!ret && (nwarn || res.warned))
		ret = EXIT_WARN;
out:
	actions_free(&acts);
	strs_free(&warns);
	tree_free(live);
	return ret;
}

/*
 * Removing everything (-clear_config, -config of an empty file with
 * -force): asked when standard input is a terminal, unless -noprompt.
 */
static bool confirm_clear(const struct opts *o)
{
	char ans[16] = "";

	if (o->noprompt || !isatty(0))
		return true;
	printf("Remove all SCST configuration? [y/N] ");
	fflush(stdout);
	return fgets(ans, sizeof(ans), stdin) &&
	       (ans[0] == 'y' || ans[0] == 'Y');
}

static int cmd_config(struct opts *o, bool check_only)
{
	char err[1024];
	const char *fname = o->arg ? o->arg : SCST_DEFAULT_CONF;
	struct tree *want = conf_parse_file(fname, err, sizeof(err));
	bool empty;
	int ret;

	if (!want) {
		fprintf(stderr, "scstadmin: %s\n", err);
		return EXIT_CONFIG;
	}
	empty = tree_is_empty(want);
	if (empty && check_only) {
		/* a check changes nothing: the plan, not a refusal */
		printf("%s: empty configuration: -config would remove everything, and needs -force\n",
		       fname);
	} else if (empty && !o->force) {
		tree_free(want);
		return cmd_fail(EXIT_CONFIG,
				"%s: the file is empty: as a configuration it removes every device, target, LUN and group; use -force to apply it anyway",
				fname);
	} else if (empty) {
		fprintf(stderr,
			"scstadmin: warning: %s is empty: with -force this removes the whole configuration\n",
			fname);
		/* it is -clear_config: it asks the same way */
		if (!confirm_clear(o)) {
			tree_free(want);
			return cmd_fail(EXIT_INUSE, "aborted");
		}
	}
	if (check_only && !o->have_root) {
		/*
		 * No tree to compare with: the handlers and DEVICE
		 * attributes scst-ng knows, and no claim beyond that
		 */
		str_vec warns = { 0 };
		int nwarn;

		conf_check_offline(want, &warns);
		nwarn = print_warnings(&warns);
		strs_free(&warns);
		tree_free(want);
		if (nwarn)
			printf("%s: %d attribute(s) or handler(s) scst-ng does not know (above)\n",
			       fname, nwarn);
		else if (!empty)
			printf("%s: configuration is valid as far as a file can be checked: SCST is not loaded, so values and the changes are checked when it is\n",
			       fname);
		return nwarn ? EXIT_WARN : EXIT_OK;
	}
	if (check_only && !empty)
		printf("%s: configuration is valid\n", fname);
	if (!o->have_root) {
		tree_free(want);
		return cmd_fail(EXIT_NOSCST,
				"SCST is not loaded: %s does not exist",
				o->sysfs.root);
	}
	{
		str_vec refused = { 0 };
		int nref = conf_check_refusals(want, &refused);

		print_warnings(&refused);
		strs_free(&refused);
		if (nref) {
			tree_free(want);
			return cmd_fail(EXIT_CONFIG,
					"%s: %d attribute(s) the modules cannot honour (above): nothing changed",
					fname, nref);
		}
	}
	ret = reconcile(o, want, empty, check_only);
	tree_free(want);
	return ret;
}

/*
 * Where -write_config FILE really writes: through a symlink to the file it
 * names (so /etc/scst.conf -> /srv/conf/scst.conf stays a link), with the
 * target's mode and owner if it exists (0644 and ours if not).
 */
static char *write_target(const char *path, struct stat *st, bool *exists)
{
	char *real = realpath(path, NULL), *cur;

	*exists = real && !stat(real, st);
	if (real)
		return real;
	/*
	 * A dangling link (or a chain of them): the file the last one
	 * names; a new file: itself. As the kernel, at most 40 links
	 * (ELOOP beyond, also for a loop).
	 */
	cur = xstrdup(path);
	for (int level = 0; level <= 40; level++) {
		char buf[4096], *next;
		ssize_t n = readlink(cur, buf, sizeof(buf));

		if (n < 0)
			return cur;	/* not a link: the file to create */
		if ((size_t)n >= sizeof(buf)) {
			free(cur);
			errno = ENAMETOOLONG;
			return NULL;
		}
		buf[n] = '\0';
		if (buf[0] == '/' || !strchr(cur, '/'))
			next = xstrdup(buf);
		else
			next = xasprintf("%.*s/%s",
					 (int)(strrchr(cur, '/') - cur), cur,
					 buf);
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/*
 * The owner of the file replaced: kept. Nothing to do if it is ours; a
 * user who may not give a file away (EPERM) gets a warning, as the new
 * file is then theirs.
 */
static int keep_owner(int fd, const struct stat *st, const char *real)
{
	if (st->st_uid == geteuid() && st->st_gid == getegid())
		return 0;
	if (!fchown(fd, st->st_uid, st->st_gid))
		return 0;
	if (errno != EPERM)
		return -1;
	fprintf(stderr,
		"scstadmin: warning: cannot keep the owner %u:%u of %s (%s): it is now %u:%u\n",
		(unsigned int)st->st_uid, (unsigned int)st->st_gid, real,
		strerror(errno), (unsigned int)geteuid(),
		(unsigned int)getegid());
	return 0;
}

/*
 * Atomically: a temporary file in the same directory, written, flushed
 * and fsync()ed, then rename()d over the target, and the directory
 * synced; on any failure the temporary file goes and the old file stays
 * as it was.
 */
static int write_atomic(const char *path, struct tree *live, bool nonkey)
{
	struct stat st;
	bool exists;
	char *real = write_target(path, &st, &exists);
	char *slash, *dir, *tmp;
	int fd, dfd, e = 0;
	FILE *f = NULL;

	if (!real)
		return cmd_fail(EXIT_SYSFS, "cannot write %s: %s (the file is unchanged)",
				path, strerror(errno));
	slash = strrchr(real, '/');
	dir = !slash ? xstrdup(".") : slash == real ? xstrdup("/") :
	      xasprintf("%.*s", (int)(slash - real), real);
	tmp = xasprintf("%s/.%s.XXXXXX", dir, slash ? slash + 1 : real);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		goto fail_nofile;
	}
	if (fchmod(fd, exists ? st.st_mode & 07777 : 0644) ||
	    (exists && keep_owner(fd, &st, real)))
		goto fail;
	f = fdopen(fd, "w");
	if (!f)
		goto fail;
	conf_write(f, live, nonkey);
	errno = EIO;	/* when only ferror() trips: no stale errno */
	if (fflush(f) || ferror(f) || fsync(fd))
		goto fail;
	if (fclose(f)) {
		f = NULL;
		fd = -1;
		goto fail;
	}
	f = NULL;
	fd = -1;
	if (rename(tmp, real))
		goto fail;
	/* the rename lasts only once the directory is on disk */
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || fsync(dfd)) {
		e = errno;
		if (dfd >= 0)
			close(dfd);
		cmd_fail(EXIT_SYSFS, "%s written, but syncing %s failed: %s",
			 real, dir, strerror(e));
		free(tmp);
		free(dir);
		free(real);
		return EXIT_SYSFS;
	}
	close(dfd);
	printf("configuration written to %s%s%s\n", path,
	       strcmp(path, real) ? " -> " : "", strcmp(path, real) ? real : "");
	free(tmp);
	free(dir);
	free(real);
	return EXIT_OK;
fail:
	e = errno;
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
	unlink(tmp);
fail_nofile:
	cmd_fail(EXIT_SYSFS, "cannot write %s%s%s: %s (the file is unchanged)",
		 path, strcmp(path, real) ? " -> " : "",
		 strcmp(path, real) ? real : "", strerror(e));
	free(tmp);
	free(dir);
	free(real);
	return EXIT_SYSFS;
}

static int cmd_write_config(struct opts *o)
{
	struct tree *live = sysfs_read_tree(&o->sysfs, o->nonkey);
	int ret = EXIT_OK;

	if (!strcmp(o->arg, "-"))
		conf_write(stdout, live, o->nonkey);
	else
		ret = write_atomic(o->arg, live, o->nonkey);
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
	if (!confirm_clear(o))
		return cmd_fail(EXIT_INUSE, "aborted");
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

/*
 * -open_dev: every -attributes key must be one of the parameters the
 * handler's mgmt publishes ("The following parameters available: ...").
 */
static int known_params(const struct opts *o)
{
	struct tree *t = sysfs_read_tree(&o->sysfs, false);
	const struct handler *h = tree_find_handler(t, o->handler);
	struct kv_vec kvs;
	int ret = cmd_parse_kvs(o, &kvs);

	for (size_t i = 0; !ret && h && h->params.n && i < kvs.n; i++) {
		char *all = xstrdup("");

		if (handler_has_param(h, kvs.v[i].key)) {
			free(all);
			continue;
		}
		for (size_t j = 0; j < h->params.n; j++) {
			char *n = xasprintf("%s%s%s", all, j ? ", " : "",
					    h->params.v[j]);

			free(all);
			all = n;
		}
		ret = cmd_fail(EXIT_NOTFOUND,
			       "handler '%s' has no device parameter '%s' (it publishes: %s)",
			       o->handler, kvs.v[i].key, all);
		free(all);
	}
	cmd_kvs_free(&kvs);
	tree_free(t);
	return ret;
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
	if (!ret)
		ret = known_params(o);
	if (!ret)
		ret = mgmt_params(o, &p);
	if (ret)
		return ret;
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
	ret = mgmt_params(o, &prm);
	if (ret)
		return ret;
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
	bool handled = false;
	int ret;

	if (!strcmp(c, "check_config"))
		return cmd_config(o, true);
	ret = cmd_ext(o, &handled);
	if (handled)
		return ret;
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
