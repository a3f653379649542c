// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity: the changes a layout or a saved state makes, made all or
 * none. Every value is checked before the first write; a write that
 * fails (other than a managed IRQ's EIO, which is a skip) undoes the ones
 * made before it.
 *
 * The state file (save/restore) is line based:
 *   irq N CPULIST [name=NAME] [managed]
 *                           NAME: its /proc/interrupts name
 *   attr PATH VALUE         PATH under /sys/kernel/scst_tgt: a target's
 *                           or group's cpu_mask, comp_v_mask, thread_mode
 *   pid PID CPULIST DEVICE COMM
 *                           a worker thread of DEVICE (thread_pids)
 *                           whose comm was COMM (the rest of the line)
 * restore sets an IRQ or a thread only if it still is what was saved (a
 * PID reused since, an IRQ number now of another device, is skipped).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "affinity.h"

/* @s as a list or a mask, in a string of its length: never truncated. */
static char *list_str(const struct cpuset *s)
{
	char one[1];
	size_t n = cs_format_list(s, one, sizeof(one));
	char *b = xmalloc(n + 1);

	cs_format_list(s, b, n + 1);
	return b;
}

static char *mask_str(const struct cpuset *s, unsigned int nbits)
{
	char one[1];
	size_t n = cs_format_mask(s, nbits, one, sizeof(one));
	char *b = xmalloc(n + 1);

	cs_format_mask(s, nbits, b, n + 1);
	return b;
}

void aff_changes_free(aff_changes *cv)
{
	for (size_t i = 0; i < cv->n; i++) {
		free(cv->v[i].old);
		free(cv->v[i].want);
	}
	free(cv->v);
	memset(cv, 0, sizeof(*cv));
}

static struct aff_change *new_change(aff_changes *out,
				     enum aff_change_kind kind)
{
	struct aff_change *c = vec_push(out);

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	return c;
}

static void attr_change(aff_changes *out, const char *rel, const char *old,
			const char *want, const char *what)
{
	struct aff_change *c = new_change(out, AFF_CH_ATTR);

	snprintf(c->rel, sizeof(c->rel), "%s", rel);
	c->old = xstrdup(old);
	c->want = xstrdup(want);
	snprintf(c->what, sizeof(c->what), "%s", what);
}

static void mask_change(const struct aff_sys *sys, aff_changes *out,
			const char *rel, const struct cpuset *old,
			const struct cpuset *want, unsigned int nbits,
			const char *what)
{
	struct aff_change *c;

	if (cs_equal(old, want))
		return;
	c = new_change(out, AFF_CH_ATTR);
	snprintf(c->rel, sizeof(c->rel), "%s", rel);
	c->old = mask_str(old, nbits ? nbits : sys->nr_cpu_ids);
	c->want = mask_str(want, nbits ? nbits : sys->nr_cpu_ids);
	snprintf(c->what, sizeof(c->what), "%s", what);
}

static void pid_change(const struct aff_env *e, aff_changes *out, int pid,
		       const struct cpuset *want, const char *owner)
{
	struct cpuset cur;
	char comm[64];
	int last;
	struct aff_change *c;

	if (aff_pid_info(e, pid, comm, sizeof(comm), &cur, &last) ||
	    cs_equal(&cur, want))
		return;
	c = new_change(out, AFF_CH_PID);
	c->pid = pid;
	c->old = list_str(&cur);
	c->want = list_str(want);
	snprintf(c->what, sizeof(c->what), "thread %d (%s) of device %s", pid,
		 comm, owner);
}

void aff_plan_changes(const struct aff_env *e, const struct aff_sys *sys,
		      const struct aff_plan *p, aff_changes *out)
{
	char rel[PATH_MAX], what[AFF_NAME_MAX * 3];

	for (unsigned int i = 0; i < sys->nirqs; i++) {
		const struct aff_irq *q = &sys->irqs[i];
		const struct aff_plan_irq *pi = &p->irqs[i];
		struct aff_change *c;

		if (!pi->set || cs_equal(&q->req, &pi->cpus))
			continue;
		c = new_change(out, AFF_CH_IRQ);
		c->irq = q->irq;
		snprintf(c->rel, sizeof(c->rel), "irq/%u/smp_affinity_list",
			 q->irq);
		c->old = list_str(&q->req);
		c->want = list_str(&pi->cpus);
		snprintf(c->what, sizeof(c->what), "irq %u (%s, %s)", q->irq,
			 q->name, q->owner);
		if (pi->skip) {
			c->skip = true;
			snprintf(c->why, sizeof(c->why), "%s", pi->why);
		}
	}
	for (unsigned int t = 0; t < sys->ntargets; t++) {
		const struct aff_target *tg = &sys->targets[t];
		const struct aff_plan_target *pt = &p->targets[t];

		if (pt->set_cpu_mask) {
			snprintf(rel, sizeof(rel), "targets/%s/%s/cpu_mask",
				 tg->driver, tg->name);
			snprintf(what, sizeof(what), "cpu_mask of target %s",
				 tg->name);
			mask_change(sys, out, rel, &tg->cpu_mask,
				    &pt->cpu_mask, 0, what);
		}
		if (pt->set_comp_v && tg->has_comp_v) {
			snprintf(rel, sizeof(rel), "targets/%s/%s/comp_v_mask",
				 tg->driver, tg->name);
			snprintf(what, sizeof(what), "comp_v_mask of target %s",
				 tg->name);
			mask_change(sys, out, rel, &tg->comp_v_mask,
				    &pt->comp_v_mask, tg->comp_v_bits, what);
		}
		if (pt->set_thread_mode && tg->thread_mode >= 0 &&
		    tg->thread_mode != pt->thread_mode) {
			char o[4], w[4];

			snprintf(rel, sizeof(rel), "targets/%s/%s/thread_mode",
				 tg->driver, tg->name);
			snprintf(what, sizeof(what), "thread_mode of target %s",
				 tg->name);
			snprintf(o, sizeof(o), "%d", tg->thread_mode);
			snprintf(w, sizeof(w), "%d", pt->thread_mode);
			attr_change(out, rel, o, w, what);
		}
	}
	for (unsigned int g = 0; g < sys->ngroups; g++) {
		const struct aff_group *gr = &sys->groups[g];
		const struct aff_target *tg = &sys->targets[gr->target];

		if (!p->groups[g].set)
			continue;
		snprintf(rel, sizeof(rel), "targets/%s/%s/ini_groups/%s/cpu_mask",
			 tg->driver, tg->name, gr->name);
		snprintf(what, sizeof(what), "cpu_mask of group %s/%s",
			 tg->name, gr->name);
		mask_change(sys, out, rel, &gr->cpu_mask, &p->groups[g].cpus, 0,
			    what);
	}
	for (unsigned int d = 0; d < sys->ndevices; d++) {
		if (!p->devices[d].set)
			continue;
		for (unsigned int k = 0; k < sys->devices[d].npids; k++)
			pid_change(e, out, sys->devices[d].pids[k],
				   &p->devices[d].cpus, sys->devices[d].name);
	}
}

static int write_one(const struct aff_env *e, const struct aff_change *c,
		     const char *text)
{
	struct cpuset s;
	char err[200];
	cpu_set_t *set;
	size_t sz;
	int ret;

	switch (c->kind) {
	case AFF_CH_IRQ:
		return aff_write_text(e->proc, c->rel, text);
	case AFF_CH_ATTR:
		return sysfs_write(&e->scst, c->rel, text);
	case AFF_CH_PID:
		if (cs_parse_list(text, &s, err, sizeof(err)))
			return -EINVAL;
		set = CPU_ALLOC(AFF_MAX_CPUS);
		if (!set)
			return -ENOMEM;
		sz = CPU_ALLOC_SIZE(AFF_MAX_CPUS);
		CPU_ZERO_S(sz, set);
		for (unsigned int cpu = 0; cpu < AFF_MAX_CPUS; cpu++)
			if (cs_test(&s, cpu))
				CPU_SET_S(cpu, sz, set);
		ret = sched_setaffinity(c->pid, sz, set) ? -errno : 0;
		CPU_FREE(set);
		return ret;
	}
	return -EINVAL;
}

int aff_do_changes(const struct aff_env *e, aff_changes *cv)
{
	size_t done;

	for (size_t i = 0; i < cv->n; i++) {
		struct aff_change *c = &cv->v[i];

		if (c->skip) {
			printf("skip %s: %s\n", c->what, c->why);
			continue;
		}
		if (e->dry_run)
			printf("would set %s: %s -> %s\n", c->what, c->old,
			       c->want);
	}
	if (e->dry_run)
		return AFF_EXIT_OK;
	for (done = 0; done < cv->n; done++) {
		struct aff_change *c = &cv->v[done];
		int ret;

		if (c->skip)
			continue;
		ret = write_one(e, c, c->want);
		if (ret == -EIO && c->kind == AFF_CH_IRQ) {
			/* irq_can_set_affinity_usr(): managed (or per-CPU) */
			c->skip = true;
			snprintf(c->why, sizeof(c->why),
				 "the kernel refuses (EIO): a managed IRQ");
			printf("skip %s: %s\n", c->what, c->why);
			continue;
		}
		if (ret == -ESRCH && c->kind == AFF_CH_PID) {
			c->skip = true;
			printf("skip %s: the thread has exited\n", c->what);
			continue;
		}
		if (ret) {
			aff_err("setting %s to %s failed: %s; undoing the changes made",
				c->what, c->want, strerror(-ret));
			goto undo;
		}
		if (!e->quiet)
			printf("set %s: %s -> %s\n", c->what, c->old, c->want);
	}
	return AFF_EXIT_OK;
undo:
	while (done-- > 0) {
		struct aff_change *c = &cv->v[done];

		if (!c->skip && write_one(e, c, c->old))
			aff_err("undoing %s (back to %s) failed", c->what,
				c->old);
	}
	return AFF_EXIT_SYS;
}

/* The state as save writes it (the format at the top of this file). */
static void write_state(FILE *f, const struct aff_env *e,
			const struct aff_sys *sys)
{
	char *buf;

	fprintf(f, "# scst-affinity state; scst-affinity restore FILE\n");
	for (unsigned int i = 0; i < sys->nirqs; i++) {
		const struct aff_irq *q = &sys->irqs[i];

		buf = list_str(&q->req);
		/* the name: restore sets it only if the IRQ still has it */
		fprintf(f, "irq %u %s%s%s%s\n", q->irq, buf,
			q->name[0] && !strpbrk(q->name, " \t") ? " name=" : "",
			q->name[0] && !strpbrk(q->name, " \t") ? q->name : "",
			q->managed ? " managed" : "");
		free(buf);
	}
	for (unsigned int t = 0; t < sys->ntargets; t++) {
		const struct aff_target *tg = &sys->targets[t];

		buf = mask_str(&tg->cpu_mask, sys->nr_cpu_ids);
		fprintf(f, "attr targets/%s/%s/cpu_mask %s\n", tg->driver,
			tg->name, buf);
		free(buf);
		if (tg->has_comp_v) {
			buf = mask_str(&tg->comp_v_mask, tg->comp_v_bits);
			fprintf(f, "attr targets/%s/%s/comp_v_mask %s\n",
				tg->driver, tg->name, buf);
			free(buf);
		}
		if (tg->thread_mode >= 0)
			fprintf(f, "attr targets/%s/%s/thread_mode %d\n",
				tg->driver, tg->name, tg->thread_mode);
	}
	for (unsigned int g = 0; g < sys->ngroups; g++) {
		const struct aff_group *gr = &sys->groups[g];
		const struct aff_target *tg = &sys->targets[gr->target];

		buf = mask_str(&gr->cpu_mask, sys->nr_cpu_ids);
		fprintf(f, "attr targets/%s/%s/ini_groups/%s/cpu_mask %s\n",
			tg->driver, tg->name, gr->name, buf);
		free(buf);
	}
	for (unsigned int d = 0; d < sys->ndevices; d++) {
		for (unsigned int k = 0; k < sys->devices[d].npids; k++) {
			struct cpuset cur;
			char comm[64];
			int last;

			if (aff_pid_info(e, sys->devices[d].pids[k], comm,
					 sizeof(comm), &cur, &last))
				continue;
			/* device and comm: restore checks the PID is reused */
			buf = list_str(&cur);
			fprintf(f, "pid %d %s %s %s\n", sys->devices[d].pids[k],
				buf, sys->devices[d].name, comm);
			free(buf);
		}
	}
}

/* fsync the directory that holds @file, so that a rename of it lasts. */
static int sync_dir_of(const char *file)
{
	char *dir = xstrdup(file), *slash = strrchr(dir, '/');
	int fd, ret = 0;

	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fsync(fd))
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	return ret;
}

/*
 * Into a temporary file next to @file, then renamed over it: a failure
 * (a full disk, an I/O error) leaves the old state file as it was.
 */
int aff_save(const struct aff_env *e, const struct aff_sys *sys,
	     const char *file)
{
	char *tmp;
	mode_t um;
	FILE *f;
	int fd, ret;

	if (!strcmp(file, "-")) {
		write_state(stdout, e, sys);
		if (fflush(stdout) || ferror(stdout)) {
			aff_err("writing the state to stdout failed");
			return AFF_EXIT_SYS;
		}
		return AFF_EXIT_OK;
	}
	tmp = xasprintf("%s.tmpXXXXXX", file);
	fd = mkstemp(tmp);
	if (fd < 0) {
		aff_err("%s: %s", tmp, strerror(errno));
		free(tmp);
		return AFF_EXIT_SYS;
	}
	um = umask(0);
	umask(um);
	f = fdopen(fd, "w");
	if (!f || fchmod(fd, 0666 & ~um)) {
		ret = errno;
		if (f)
			fclose(f);
		else
			close(fd);
		goto fail;
	}
	write_state(f, e, sys);
	errno = EIO;	/* what a bare ferror() reports */
	if (fflush(f) || ferror(f) || fsync(fd)) {
		ret = errno;
		fclose(f);
		goto fail;
	}
	if (fclose(f)) {
		ret = errno;
		goto fail;
	}
	if (rename(tmp, file)) {
		ret = errno;
		goto fail;
	}
	free(tmp);
	ret = sync_dir_of(file);
	if (ret) {
		aff_err("%s: syncing its directory: %s", file, strerror(-ret));
		return AFF_EXIT_SYS;
	}
	return AFF_EXIT_OK;
fail:
	aff_err("%s: writing the state failed: %s; %s is as it was", tmp,
		strerror(ret), file);
	unlink(tmp);
	free(tmp);
	return AFF_EXIT_SYS;
}

static bool intersects(const struct cpuset *a, const struct cpuset *b)
{
	for (unsigned int i = 0; i < AFF_WORDS; i++)
		if (a->w[i] & b->w[i])
			return true;
	return false;
}

/* Which attribute a path names, and whether it is a mask. */
static const char *attr_kind(const char *rel)
{
	const char *base = strrchr(rel, '/');

	if (strncmp(rel, "targets/", 8) || strstr(rel, "..") || !base)
		return NULL;
	base++;
	if (!strcmp(base, "cpu_mask") || !strcmp(base, "comp_v_mask") ||
	    !strcmp(base, "thread_mode"))
		return base;
	return NULL;
}

/* Whether @pid is (still) a worker thread of the device named @dev. */
static bool thread_of(const struct aff_sys *sys, const char *dev, int pid)
{
	for (unsigned int d = 0; d < sys->ndevices; d++) {
		if (strcmp(sys->devices[d].name, dev))
			continue;
		for (unsigned int k = 0; k < sys->devices[d].npids; k++)
			if (sys->devices[d].pids[k] == pid)
				return true;
	}
	return false;
}

/* restore of a pid line: skip it unless PID still is the saved thread. */
static void restore_pid(const struct aff_env *e, const struct aff_sys *sys,
			struct aff_change *c, int pid, const char *dev,
			const char *comm, struct cpuset *now)
{
	char cur[64];
	int last;

	c->kind = AFF_CH_PID;
	c->pid = pid;
	snprintf(c->what, sizeof(c->what), "thread %d (%s) of device %s", pid,
		 comm ? comm : "?", dev ? dev : "?");
	if (!dev || !comm || !*comm) {
		c->skip = true;
		snprintf(c->why, sizeof(c->why),
			 "no device and name saved with it (an older state file)");
		return;
	}
	if (aff_pid_info(e, pid, cur, sizeof(cur), now, &last)) {
		c->skip = true;
		snprintf(c->why, sizeof(c->why), "the thread has exited");
		return;
	}
	if (!thread_of(sys, dev, pid) || strcmp(cur, comm)) {
		/* the PID was reused: never touch an unrelated process */
		c->skip = true;
		snprintf(c->why, sizeof(c->why),
			 "PID %d is now '%s', not a thread of %s", pid, cur,
			 dev);
	}
}

/* restore of an irq line: skip it if the IRQ has another name now. */
static int restore_irq(const struct aff_env *e, const char *interrupts,
		       struct aff_change *c, unsigned int irq,
		       const char *name, bool managed, struct cpuset *now,
		       char *err, size_t errlen)
{
	char *cur = xmalloc(AFF_LIST_MAX), lerr[256], have[AFF_NAME_MAX];

	c->kind = AFF_CH_IRQ;
	c->irq = irq;
	snprintf(c->rel, sizeof(c->rel), "irq/%u/smp_affinity_list", irq);
	snprintf(c->what, sizeof(c->what), "irq %u%s%s%s", irq,
		 name ? " (" : "", name ? name : "", name ? ")" : "");
	if (aff_read_text(e->proc, c->rel, cur, AFF_LIST_MAX) ||
	    cs_parse_list(cur, now, lerr, sizeof(lerr))) {
		snprintf(err, errlen, "no IRQ %u", irq);
		free(cur);
		return -1;
	}
	free(cur);
	aff_irq_name(interrupts, irq, have, sizeof(have));
	if (name && strcmp(name, have)) {
		c->skip = true;
		snprintf(c->why, sizeof(c->why), "it is '%.100s' now", have);
	} else if (managed) {
		c->skip = true;
		snprintf(c->why, sizeof(c->why), "managed by the kernel");
	}
	return 0;
}

/* One line of a state file into @c (the current value read); 0 or -1. */
static int restore_line(const struct aff_env *e, const struct aff_sys *sys,
			const char *interrupts, char *line,
			struct aff_change *c, char *err, size_t errlen)
{
	char *save = NULL, *kind, *a, *b;
	char lerr[256];
	struct cpuset s, now;

	memset(c, 0, sizeof(*c));
	kind = strtok_r(line, " \t", &save);
	a = strtok_r(NULL, " \t", &save);
	b = strtok_r(NULL, " \t", &save);
	if (!kind || !a || !b) {
		snprintf(err, errlen, "expected 'irq N CPUS', 'attr PATH VALUE' or 'pid PID CPUS DEVICE COMM'");
		return -1;
	}
	if (!strcmp(kind, "irq") || !strcmp(kind, "pid")) {
		char *end, *w, *name = NULL;
		long n = strtol(a, &end, 10);
		bool managed = false;

		if (*end || n < 0 || n > 1 << 24) {
			snprintf(err, errlen, "'%s' is not a number", a);
			return -1;
		}
		if (cs_parse_list(b, &s, lerr, sizeof(lerr))) {
			snprintf(err, errlen, "%s", lerr);
			return -1;
		}
		/* what save wrote may name possible CPUs that are offline */
		if (!intersects(&s, &sys->online)) {
			snprintf(err, errlen, "CPUs '%s': none is online", b);
			return -1;
		}
		c->want = list_str(&s);
		if (kind[0] == 'p') {
			w = strtok_r(NULL, " \t", &save);
			/* the comm, the rest of the line, may hold blanks */
			if (save)
				save += strspn(save, " \t");
			restore_pid(e, sys, c, (int)n, w, save, &now);
			if (c->skip)
				return 0;	/* with a why: reported */
		} else {
			while ((w = strtok_r(NULL, " \t", &save))) {
				if (!strcmp(w, "managed")) {
					managed = true;
				} else if (!strncmp(w, "name=", 5)) {
					name = w + 5;
				} else {
					snprintf(err, errlen,
						 "'%s' is not name=NAME or managed",
						 w);
					return -1;
				}
			}
			if (restore_irq(e, interrupts, c, (unsigned int)n, name,
					managed, &now, err, errlen))
				return -1;
		}
		c->old = list_str(&now);
		if (cs_equal(&now, &s) && !c->why[0])
			c->skip = true;
		return 0;
	}
	if (!strcmp(kind, "attr")) {
		const char *ak = attr_kind(a);
		char *v = NULL;
		bool key;

		if (!ak) {
			snprintf(err, errlen,
				 "'%s' is not a cpu_mask, comp_v_mask or thread_mode of a target",
				 a);
			return -1;
		}
		if (sysfs_read_attr(&e->scst, a, &v, &key)) {
			snprintf(err, errlen, "no attribute %s", a);
			return -1;
		}
		c->kind = AFF_CH_ATTR;
		snprintf(c->rel, sizeof(c->rel), "%s", a);
		c->old = v;	/* the change owns it now */
		c->want = xstrdup(b);
		snprintf(c->what, sizeof(c->what), "%s", a);
		if (!strcmp(ak, "thread_mode")) {
			if (strcmp(b, "0") && strcmp(b, "1")) {
				snprintf(err, errlen, "thread_mode '%s' is not 0 or 1",
					 b);
				return -1;
			}
			c->skip = !strcmp(v, b);
		} else {
			if (cs_parse_mask(b, &s, lerr, sizeof(lerr)) ||
			    cs_empty(&s)) {
				snprintf(err, errlen, "%s",
					 cs_empty(&s) ? "empty mask" : lerr);
				return -1;
			}
			if (!strcmp(ak, "cpu_mask") &&
			    !intersects(&s, &sys->online)) {
				snprintf(err, errlen,
					 "cpu_mask %s names no online CPU", b);
				return -1;
			}
			c->skip = !cs_parse_mask(v, &now, lerr, sizeof(lerr)) &&
				  cs_equal(&now, &s);
		}
		return 0;
	}
	snprintf(err, errlen, "unknown line kind '%s'", kind);
	return -1;
}

int aff_restore_changes(const struct aff_env *e, const struct aff_sys *sys,
			const char *file, aff_changes *out)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, *interrupts, err[512];
	size_t cap = 0;
	int lineno = 0, ret;

	if (!f) {
		aff_err("%s: %s", file, strerror(errno));
		return AFF_EXIT_SYS;
	}
	if (aff_read_interrupts(e, &interrupts)) {
		fclose(f);
		return AFF_EXIT_SYS;
	}
	ret = AFF_EXIT_OK;
	/* getline: a CPU list of 8192 CPUs is longer than any fixed line */
	while (getline(&line, &cap, f) >= 0) {
		struct aff_change c;
		char *p = line;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (restore_line(e, sys, interrupts, p, &c, err,
				 sizeof(err))) {
			aff_err("%s:%d: %s; nothing changed", file, lineno,
				err);
			free(c.old);
			free(c.want);
			ret = AFF_EXIT_USAGE;
			break;
		}
		/* equal values need no write; a managed IRQ is reported */
		if (c.skip && !c.why[0]) {
			free(c.old);
			free(c.want);
			continue;
		}
		*vec_push(out) = c;
	}
	if (ret == AFF_EXIT_OK && ferror(f)) {
		aff_err("%s: reading failed", file);
		ret = AFF_EXIT_SYS;
	}
	free(line);
	free(interrupts);
	fclose(f);
	return ret;
}
