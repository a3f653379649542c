// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: sessions. The per-LUN lines of -list_sessions (the kernel's
 * sessions/<s>/lun<N>/ directories: active_commands, and thread_pid where
 * threads of the initiator serve the LUN) and -close_session, which
 * writes 1 to sessions/<s>/force_close (an extension: SCST's scstadmin has
 * no such option; its users write the attribute themselves).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

/* "lunN" with N a number: its value in *n */
static bool lun_dir_name(const char *name, unsigned long *n)
{
	char *end;

	if (strncmp(name, "lun", 3) || !isdigit((unsigned char)name[3]))
		return false;
	*n = strtoul(name + 3, &end, 10);
	return *end == '\0';
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The LUN numbers of a session's lun<N>/ directories, sorted. */
static size_t session_luns(const struct sysfs *sys, const char *srel,
			   unsigned long **out)
{
	char *dir = sysfs_path(sys, srel);
	DIR *d = opendir(dir);
	VEC(unsigned long) v = { 0 };
	unsigned long n;
	struct dirent *e;

	free(dir);
	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (lun_dir_name(e->d_name, &n))
			*vec_push(&v) = n;	/* exits on no memory */
	closedir(d);
	if (v.n)
		qsort(v.v, v.n, sizeof(*v.v), cmp_ulong);
	*out = v.v;
	return v.n;
}

void sessions_print_luns(const struct sysfs *sys, const char *rel,
			 const char *sess, const char *pre)
{
	char *srel = xasprintf("%s/%s", rel, sess);
	unsigned long *luns;
	size_t n = session_luns(sys, srel, &luns);

	for (size_t i = 0; i < n; i++) {
		char *act = NULL, *pids = NULL, *r;
		bool key;

		r = xasprintf("%s/lun%lu/active_commands", srel, luns[i]);
		sysfs_read_attr(sys, r, &act, &key);
		free(r);
		r = xasprintf("%s/lun%lu/thread_pid", srel, luns[i]);
		if (sysfs_exists(sys, r))
			sysfs_read_attr(sys, r, &pids, &key);
		free(r);
		if (pre)
			printf("sesslun\t%s\t%s\t%lu\t%s\t%s\n", pre, sess,
			       luns[i], act ? act : "", pids ? pids : "");
		else
			printf("\t\t\t\tLUN %-5lu %s active command(s)%s%s\n",
			       luns[i], act ? act : "?",
			       pids && *pids ? ", threads " : "",
			       pids && *pids ? pids : "");
		free(act);
		free(pids);
	}
	free(luns);
	free(srel);
}

/* -close_session NAME -driver D -target T */
int cmd_close_session(struct opts *o)
{
	char *rel, *p;
	int ret;

	ret = cmd_need(o, o->driver, "driver");
	if (!ret)
		ret = cmd_need(o, o->target, "target");
	if (ret)
		return ret;
	p = xasprintf("targets/%s", o->driver);
	ret = sysfs_exists(&o->sysfs, p) ? EXIT_OK :
	      cmd_fail(EXIT_NOTFOUND, "target driver '%s' is not loaded",
		       o->driver);
	free(p);
	if (ret)
		return ret;
	p = xasprintf("targets/%s/%s", o->driver, o->target);
	ret = sysfs_exists(&o->sysfs, p) ? EXIT_OK :
	      cmd_fail(EXIT_NOTFOUND, "target '%s' of driver '%s' does not exist",
		       o->target, o->driver);
	free(p);
	if (ret)
		return ret;
	if (!*o->arg || strchr(o->arg, '/') || !strcmp(o->arg, ".") ||
	    !strcmp(o->arg, ".."))
		return cmd_fail(EXIT_USAGE, "bad session name '%s'", o->arg);
	p = xasprintf("targets/%s/%s/sessions/%s", o->driver, o->target,
		      o->arg);
	if (!sysfs_exists(&o->sysfs, p)) {
		free(p);
		return cmd_fail(EXIT_NOTFOUND,
				"session '%s' of target '%s' (driver %s) does not exist (see -list_sessions)",
				o->arg, o->target, o->driver);
	}
	rel = xasprintf("%s/force_close", p);
	free(p);
	if (!sysfs_exists(&o->sysfs, rel)) {
		ret = cmd_fail(EXIT_NOTFOUND,
			       "session '%s': the running modules have no force_close attribute",
			       o->arg);
		goto out;
	}
	ret = sysfs_write(&o->sysfs, rel, "1");
	if (ret) {
		ret = cmd_fail(EXIT_SYSFS,
			       "closing session '%s' of target '%s': writing 1 to %s/%s failed: %s (the kernel log says why)",
			       o->arg, o->target, o->sysfs.root, rel,
			       strerror(-ret));
		goto out;
	}
	if (o->dry_run)
		printf("would write '1' to %s\n", rel);
	else
		printf("-> %s: 1 (session '%s' of target '%s' is closing; an initiator may log in again)\n",
		       rel, o->arg, o->target);
out:
	free(rel);
	return ret;
}
