// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity: the changes a layout or a saved state makes, made all or
 * none. Every value is checked before the first write; a write that
 * fails (other than a managed IRQ's EIO, which is a skip) undoes the ones
 * made before it.
 *
 * The state file (save/restore) is line based:
 *   irq N CPULIST [managed]
 *   attr PATH VALUE         PATH under /sys/kernel/scst_tgt: a target's
 *                           or group's cpu_mask, comp_v_mask, thread_mode
 *   pid PID CPULIST         a device worker thread (thread_pids)
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affinity.h"

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
	snprintf(c->old, sizeof(c->old), "%s", old);
	snprintf(c->want, sizeof(c->want), "%s", want);
	snprintf(c->what, sizeof(c->what), "%s", what);
}

static void mask_change(const struct aff_sys *sys, aff_changes *out,
			const char *rel, const struct cpuset *old,
			const struct cpuset *want, unsigned int nbits,
			const char *what)
{
	char o[512], w[512];

	if (cs_equal(old, want))
		return;
	cs_format_mask(old, nbits ? nbits : sys->nr_cpu_ids, o, sizeof(o));
	cs_format_mask(want, nbits ? nbits : sys->nr_cpu_ids, w, sizeof(w));
	attr_change(out, rel, o, w, what);
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
	cs_format_list(&cur, c->old, sizeof(c->old));
	cs_format_list(want, c->want, sizeof(c->want));
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
		cs_format_list(&q->req, c->old, sizeof(c->old));
		cs_format_list(&pi->cpus, c->want, sizeof(c->want));
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

int aff_save(const struct aff_env *e, const struct aff_sys *sys,
	     const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "w") : stdout;
	char buf[512];

	if (!f) {
		aff_err("%s: %s", file, strerror(errno));
		return AFF_EXIT_SYS;
	}
	fprintf(f, "# scst-affinity state; scst-affinity restore FILE\n");
	for (unsigned int i = 0; i < sys->nirqs; i++) {
		cs_format_list(&sys->irqs[i].req, buf, sizeof(buf));
		fprintf(f, "irq %u %s%s\n", sys->irqs[i].irq, buf,
			sys->irqs[i].managed ? " managed" : "");
	}
	for (unsigned int t = 0; t < sys->ntargets; t++) {
		const struct aff_target *tg = &sys->targets[t];

		cs_format_mask(&tg->cpu_mask, sys->nr_cpu_ids, buf,
			       sizeof(buf));
		fprintf(f, "attr targets/%s/%s/cpu_mask %s\n", tg->driver,
			tg->name, buf);
		if (tg->has_comp_v) {
			cs_format_mask(&tg->comp_v_mask, tg->comp_v_bits, buf,
				       sizeof(buf));
			fprintf(f, "attr targets/%s/%s/comp_v_mask %s\n",
				tg->driver, tg->name, buf);
		}
		if (tg->thread_mode >= 0)
			fprintf(f, "attr targets/%s/%s/thread_mode %d\n",
				tg->driver, tg->name, tg->thread_mode);
	}
	for (unsigned int g = 0; g < sys->ngroups; g++) {
		const struct aff_group *gr = &sys->groups[g];
		const struct aff_target *tg = &sys->targets[gr->target];

		cs_format_mask(&gr->cpu_mask, sys->nr_cpu_ids, buf,
			       sizeof(buf));
		fprintf(f, "attr targets/%s/%s/ini_groups/%s/cpu_mask %s\n",
			tg->driver, tg->name, gr->name, buf);
	}
	for (unsigned int d = 0; d < sys->ndevices; d++) {
		for (unsigned int k = 0; k < sys->devices[d].npids; k++) {
			struct cpuset cur;
			char comm[64];
			int last;

			if (aff_pid_info(e, sys->devices[d].pids[k], comm,
					 sizeof(comm), &cur, &last))
				continue;
			cs_format_list(&cur, buf, sizeof(buf));
			fprintf(f, "pid %d %s\n", sys->devices[d].pids[k], buf);
		}
	}
	if (f != stdout && fclose(f)) {
		aff_err("%s: %s", file, strerror(errno));
		return AFF_EXIT_SYS;
	}
	return AFF_EXIT_OK;
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

/* One line of a state file into @c (the current value read); 0 or -1. */
static int restore_line(const struct aff_env *e, const struct aff_sys *sys,
			char *line, struct aff_change *c, char *err,
			size_t errlen)
{
	char *save = NULL, *kind, *a, *b, *extra;
	char cur[4096], lerr[256];
	struct cpuset s, now;

	kind = strtok_r(line, " \t", &save);
	a = strtok_r(NULL, " \t", &save);
	b = strtok_r(NULL, " \t", &save);
	extra = strtok_r(NULL, " \t", &save);
	if (!kind || !a || !b) {
		snprintf(err, errlen, "expected 'irq N CPUS', 'attr PATH VALUE' or 'pid PID CPUS'");
		return -1;
	}
	memset(c, 0, sizeof(*c));
	if (!strcmp(kind, "irq") || !strcmp(kind, "pid")) {
		char *end;
		long n = strtol(a, &end, 10);
		int last;

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
		cs_format_list(&s, c->want, sizeof(c->want));
		if (kind[0] == 'p') {
			char comm[64];

			c->kind = AFF_CH_PID;
			c->pid = (int)n;
			snprintf(c->what, sizeof(c->what), "thread %ld", n);
			if (aff_pid_info(e, (int)n, comm, sizeof(comm), &now,
					 &last)) {
				c->skip = true;
				snprintf(c->why, sizeof(c->why),
					 "the thread has exited");
				return 0;
			}
		} else {
			c->kind = AFF_CH_IRQ;
			c->irq = (unsigned int)n;
			snprintf(c->rel, sizeof(c->rel),
				 "irq/%ld/smp_affinity_list", n);
			snprintf(c->what, sizeof(c->what), "irq %ld", n);
			if (aff_read_text(e->proc, c->rel, cur, sizeof(cur)) ||
			    cs_parse_list(cur, &now, lerr, sizeof(lerr))) {
				snprintf(err, errlen, "no IRQ %ld", n);
				return -1;
			}
			if (extra && !strcmp(extra, "managed")) {
				c->skip = true;
				snprintf(c->why, sizeof(c->why),
					 "managed by the kernel");
			}
		}
		cs_format_list(&now, c->old, sizeof(c->old));
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
		snprintf(c->old, sizeof(c->old), "%s", v);
		snprintf(c->want, sizeof(c->want), "%s", b);
		snprintf(c->what, sizeof(c->what), "%s", a);
		if (!strcmp(ak, "thread_mode")) {
			if (strcmp(b, "0") && strcmp(b, "1")) {
				snprintf(err, errlen, "thread_mode '%s' is not 0 or 1",
					 b);
				free(v);
				return -1;
			}
			c->skip = !strcmp(v, b);
		} else {
			if (cs_parse_mask(b, &s, lerr, sizeof(lerr)) ||
			    cs_empty(&s)) {
				snprintf(err, errlen, "%s",
					 cs_empty(&s) ? "empty mask" : lerr);
				free(v);
				return -1;
			}
			if (!strcmp(ak, "cpu_mask") &&
			    !intersects(&s, &sys->online)) {
				snprintf(err, errlen,
					 "cpu_mask %s names no online CPU", b);
				free(v);
				return -1;
			}
			c->skip = !cs_parse_mask(v, &now, lerr, sizeof(lerr)) &&
				  cs_equal(&now, &s);
		}
		free(v);
		return 0;
	}
	snprintf(err, errlen, "unknown line kind '%s'", kind);
	return -1;
}

int aff_restore_changes(const struct aff_env *e, const struct aff_sys *sys,
			const char *file, aff_changes *out)
{
	FILE *f = fopen(file, "r");
	char line[4096], err[512];
	int lineno = 0;

	if (!f) {
		aff_err("%s: %s", file, strerror(errno));
		return AFF_EXIT_SYS;
	}
	while (fgets(line, sizeof(line), f)) {
		struct aff_change c;
		char *p = line;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (restore_line(e, sys, p, &c, err, sizeof(err))) {
			aff_err("%s:%d: %s; nothing changed", file, lineno,
				err);
			fclose(f);
			return AFF_EXIT_USAGE;
		}
		/* equal values need no write; a managed IRQ is reported */
		if (c.skip && !c.why[0])
			continue;
		*vec_push(out) = c;
	}
	fclose(f);
	return AFF_EXIT_OK;
}
