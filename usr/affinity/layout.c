// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity: layout computation (see layout.h and
 * Documentation/tuning.md for what each layout is for).
 *
 * none    every IRQ, target and group on all online CPUs, every
 *         completion vector allowed: the kernel's defaults.
 * spread  IRQ i on online CPU i mod N; each target's worker thread on the
 *         CPU of the IRQ of the completion vector it is given.
 * split   IRQs round-robin over one CPU set (--irq-cpus, default the
 *         first quarter of the online CPUs, at least one), worker threads
 *         on the others: SCST's classic SRP recipe.
 * numa    everything of a device on the CPUs of that device's node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

bool aff_match(const char *pat, const char *s)
{
	const char *star = NULL, *back = NULL;

	while (*s) {
		if (*pat == '*') {
			star = pat++;
			back = s;
		} else if (*pat == '?' || *pat == *s) {
			pat++;
			s++;
		} else if (star) {
			pat = star + 1;
			s = ++back;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

int aff_plan_init(struct aff_plan *p, const struct aff_sys *sys)
{
	memset(p, 0, sizeof(*p));
	p->irqs = calloc(sys->nirqs + 1, sizeof(*p->irqs));
	p->targets = calloc(sys->ntargets + 1, sizeof(*p->targets));
	p->groups = calloc(sys->ngroups + 1, sizeof(*p->groups));
	p->devices = calloc(sys->ndevices + 1, sizeof(*p->devices));
	if (!p->irqs || !p->targets || !p->groups || !p->devices) {
		aff_plan_free(p);
		return -1;
	}
	return 0;
}

void aff_plan_free(struct aff_plan *p)
{
	free(p->irqs);
	free(p->targets);
	free(p->groups);
	free(p->devices);
	memset(p, 0, sizeof(*p));
}

static void one_cpu(struct cpuset *s, int cpu)
{
	cs_zero(s);
	if (cpu >= 0)
		cs_set(s, (unsigned int)cpu);
}

static void want_irq(const struct aff_sys *sys, struct aff_plan *p,
		     unsigned int i, const struct cpuset *cpus)
{
	struct aff_plan_irq *pi = &p->irqs[i];

	pi->set = true;
	pi->cpus = *cpus;
	pi->skip = sys->irqs[i].managed;
	pi->why = pi->skip ?
		  "managed by the kernel (smp_affinity cannot be written)" :
		  NULL;
}

static void all_vectors(const struct aff_target *t, struct cpuset *s)
{
	cs_zero(s);
	for (unsigned int v = 0; v < t->comp_v_bits; v++)
		cs_set(s, v);
}

static void want_target(const struct aff_sys *sys, struct aff_plan *p,
			unsigned int t, const struct cpuset *cpus,
			const struct cpuset *vectors)
{
	struct aff_plan_target *pt = &p->targets[t];

	pt->set_cpu_mask = true;
	pt->cpu_mask = *cpus;
	if (sys->targets[t].has_comp_v) {
		pt->set_comp_v = true;
		if (vectors)
			pt->comp_v_mask = *vectors;
		else
			all_vectors(&sys->targets[t], &pt->comp_v_mask);
	}
	/* a group's sessions' threads follow the group's cpu_mask */
	for (unsigned int g = 0; g < sys->ngroups; g++) {
		if (sys->groups[g].target != t)
			continue;
		p->groups[g].set = true;
		p->groups[g].cpus = *cpus;
	}
}

/* The online CPUs of @node, or all online CPUs if it has none known. */
static void node_cpus(const struct aff_sys *sys, int node, struct cpuset *s)
{
	*s = sys->online;
	if (node < 0 || (unsigned int)node >= sys->nnodes)
		return;
	for (unsigned int i = 0; i < AFF_WORDS; i++)
		s->w[i] = sys->node_cpus[node].w[i] & sys->online.w[i];
	if (cs_empty(s))
		*s = sys->online;
}

static void layout_none(const struct aff_sys *sys, struct aff_plan *p)
{
	for (unsigned int i = 0; i < sys->nirqs; i++)
		want_irq(sys, p, i, &sys->online);
	for (unsigned int t = 0; t < sys->ntargets; t++)
		want_target(sys, p, t, &sys->online, NULL);
	for (unsigned int d = 0; d < sys->ndevices; d++) {
		if (!sys->devices[d].npids)
			continue;
		p->devices[d].set = true;
		p->devices[d].cpus = sys->online;
	}
}

/* Where IRQ @i is wanted, or where it is when the plan leaves it. */
static const struct cpuset *irq_cpus_of(const struct aff_sys *sys,
					const struct aff_plan *p,
					unsigned int i)
{
	if (p->irqs[i].set && !p->irqs[i].skip)
		return &p->irqs[i].cpus;
	return cs_empty(&sys->irqs[i].eff) ? &sys->irqs[i].req :
					     &sys->irqs[i].eff;
}

static void layout_spread(const struct aff_sys *sys, struct aff_plan *p)
{
	unsigned int n = cs_count(&sys->online);
	struct cpuset s;

	for (unsigned int i = 0; i < sys->nirqs; i++) {
		one_cpu(&s, cs_nth(&sys->online, i % n));
		want_irq(sys, p, i, &s);
	}
	for (unsigned int t = 0; t < sys->ntargets; t++) {
		const struct aff_target *tg = &sys->targets[t];
		unsigned int local = 0, nvec = 0, pick;
		struct cpuset vec;
		int anchor = -1;

		/* the how-many-th target of its RDMA device this one is */
		for (unsigned int u = 0; u < t; u++)
			if (tg->rdma_dev[0] &&
			    !strcmp(sys->targets[u].rdma_dev, tg->rdma_dev))
				local++;
		for (unsigned int i = 0; i < sys->nirqs; i++)
			if (tg->rdma_dev[0] &&
			    sys->irqs[i].kind == AFF_IRQ_RDMA &&
			    !strcmp(sys->irqs[i].owner, tg->rdma_dev))
				nvec++;
		pick = nvec ? local % nvec : 0;
		for (unsigned int i = 0; i < sys->nirqs && nvec; i++) {
			if (sys->irqs[i].kind != AFF_IRQ_RDMA ||
			    strcmp(sys->irqs[i].owner, tg->rdma_dev))
				continue;
			if (pick-- == 0) {
				anchor = (int)i;
				break;
			}
		}
		if (anchor < 0) {
			/* no IRQ of its own (Soft-RoCE): spread the threads */
			one_cpu(&s, cs_nth(&sys->online, t % n));
			want_target(sys, p, t, &s, NULL);
			continue;
		}
		one_cpu(&s, cs_nth(irq_cpus_of(sys, p, (unsigned int)anchor),
				   0));
		if (cs_empty(&s) || !cs_subset(&s, &sys->online))
			one_cpu(&s, cs_nth(&sys->online, t % n));
		if (tg->has_comp_v && sys->irqs[anchor].vector >= 0 &&
		    (unsigned int)sys->irqs[anchor].vector < tg->comp_v_bits) {
			one_cpu(&vec, sys->irqs[anchor].vector);
			want_target(sys, p, t, &s, &vec);
		} else {
			want_target(sys, p, t, &s, NULL);
		}
	}
}

static void layout_split(const struct aff_sys *sys,
			 const struct aff_layout_opts *o, struct aff_plan *p)
{
	unsigned int n = cs_count(&sys->online), nirq;
	struct cpuset irqset, rest, s;

	if (o && o->have_irq_cpus) {
		irqset = o->irq_cpus;
	} else {
		cs_zero(&irqset);
		nirq = n / 4 ? n / 4 : 1;
		for (unsigned int k = 0; k < nirq; k++)
			cs_set(&irqset, (unsigned int)cs_nth(&sys->online, k));
	}
	rest = sys->online;
	for (unsigned int i = 0; i < AFF_WORDS; i++)
		rest.w[i] &= ~irqset.w[i];
	if (cs_empty(&rest))
		rest = irqset;
	nirq = cs_count(&irqset);
	for (unsigned int i = 0; i < sys->nirqs; i++) {
		one_cpu(&s, cs_nth(&irqset, i % nirq));
		want_irq(sys, p, i, &s);
	}
	for (unsigned int t = 0; t < sys->ntargets; t++)
		want_target(sys, p, t, &rest, NULL);
}

static void layout_numa(const struct aff_sys *sys, struct aff_plan *p)
{
	struct cpuset s;

	for (unsigned int i = 0; i < sys->nirqs; i++) {
		node_cpus(sys, sys->irqs[i].node, &s);
		want_irq(sys, p, i, &s);
	}
	for (unsigned int t = 0; t < sys->ntargets; t++) {
		node_cpus(sys, sys->targets[t].node, &s);
		want_target(sys, p, t, &s, NULL);
	}
}

static int check_cpus(const struct aff_sys *sys, const char *word,
		      const struct cpuset *s, char *err, size_t errlen)
{
	char on[256];
	int bad;

	if (cs_empty(s)) {
		snprintf(err, errlen, "'%s': empty CPU list", word);
		return -1;
	}
	bad = cs_first_not_in(s, &sys->online);
	if (bad >= 0) {
		cs_format_list(&sys->online, on, sizeof(on));
		snprintf(err, errlen,
			 "'%s': CPU %d is not online (online CPUs: %s)",
			 word, bad, on);
		return -1;
	}
	return 0;
}

static bool target_matches(const struct aff_target *t, const char *pat)
{
	char full[AFF_NAME_MAX + 80];

	snprintf(full, sizeof(full), "%s/%s", t->driver, t->name);
	return aff_match(pat, t->name) || aff_match(pat, full);
}

/* One "kind:NAME=CPUS" entry. */
static int map_entry(const struct aff_sys *sys, const char *word,
		     struct aff_plan *p, char *err, size_t errlen)
{
	const char *colon = strchr(word, ':');
	const char *eq = strrchr(word, '=');
	char kind[16], name[AFF_NAME_MAX * 2];
	unsigned int hits = 0;
	struct cpuset s;
	char lerr[200];
	size_t kl, nl;

	if (!colon || !eq || eq < colon) {
		snprintf(err, errlen,
			 "unknown layout '%s' (none, spread, split, numa, or irq:PATTERN=CPUS, target:NAME=CPUS, group:TARGET/GROUP=CPUS, device:NAME=CPUS)",
			 word);
		return -1;
	}
	kl = (size_t)(colon - word);
	nl = (size_t)(eq - colon - 1);
	if (kl >= sizeof(kind) || nl >= sizeof(name) || !nl) {
		snprintf(err, errlen, "'%s': bad map entry", word);
		return -1;
	}
	memcpy(kind, word, kl);
	kind[kl] = '\0';
	memcpy(name, colon + 1, nl);
	name[nl] = '\0';
	if (cs_parse_list(eq + 1, &s, lerr, sizeof(lerr))) {
		snprintf(err, errlen, "'%s': %s", word, lerr);
		return -1;
	}
	if (check_cpus(sys, word, &s, err, errlen))
		return -1;
	if (!strcmp(kind, "irq")) {
		for (unsigned int i = 0; i < sys->nirqs; i++) {
			char num[16];

			snprintf(num, sizeof(num), "%u", sys->irqs[i].irq);
			if (aff_match(name, num) ||
			    aff_match(name, sys->irqs[i].name) ||
			    aff_match(name, sys->irqs[i].owner)) {
				want_irq(sys, p, i, &s);
				hits++;
			}
		}
	} else if (!strcmp(kind, "target")) {
		for (unsigned int t = 0; t < sys->ntargets; t++) {
			if (!target_matches(&sys->targets[t], name))
				continue;
			p->targets[t].set_cpu_mask = true;
			p->targets[t].cpu_mask = s;
			hits++;
		}
	} else if (!strcmp(kind, "group")) {
		char *slash = strrchr(name, '/');

		if (!slash) {
			snprintf(err, errlen, "'%s': a group is TARGET/GROUP",
				 word);
			return -1;
		}
		*slash = '\0';
		for (unsigned int g = 0; g < sys->ngroups; g++) {
			const struct aff_group *gr = &sys->groups[g];

			if (!target_matches(&sys->targets[gr->target], name) ||
			    !aff_match(slash + 1, gr->name))
				continue;
			p->groups[g].set = true;
			p->groups[g].cpus = s;
			hits++;
		}
		*slash = '/';
	} else if (!strcmp(kind, "device")) {
		for (unsigned int d = 0; d < sys->ndevices; d++) {
			if (!aff_match(name, sys->devices[d].name))
				continue;
			p->devices[d].set = true;
			p->devices[d].cpus = s;
			hits++;
		}
	} else {
		snprintf(err, errlen,
			 "'%s': unknown kind '%s' (irq, target, group, device)",
			 word, kind);
		return -1;
	}
	if (!hits) {
		snprintf(err, errlen, "'%s': no %s named '%s'", word, kind,
			 name);
		return -1;
	}
	return 0;
}

int aff_layout(const struct aff_sys *sys, int nwords,
	       const char *const *words, const struct aff_layout_opts *o,
	       struct aff_plan *p, char *err, size_t errlen)
{
	if (cs_empty(&sys->online)) {
		snprintf(err, errlen, "no online CPU");
		return -1;
	}
	if (nwords < 1) {
		snprintf(err, errlen, "no layout given");
		return -1;
	}
	if (o && o->have_irq_cpus &&
	    check_cpus(sys, "--irq-cpus", &o->irq_cpus, err, errlen))
		return -1;
	for (int k = 0; k < nwords; k++) {
		const char *w = words[k];

		if (!strcmp(w, "none")) {
			layout_none(sys, p);
		} else if (!strcmp(w, "spread")) {
			layout_spread(sys, p);
		} else if (!strcmp(w, "split")) {
			layout_split(sys, o, p);
		} else if (!strcmp(w, "numa")) {
			layout_numa(sys, p);
		} else if (map_entry(sys, w, p, err, errlen)) {
			return -1;
		}
	}
	if (o && o->thread_mode >= 0) {
		for (unsigned int t = 0; t < sys->ntargets; t++) {
			if (!sys->targets[t].has_comp_v)
				continue;
			p->targets[t].set_thread_mode = true;
			p->targets[t].thread_mode = o->thread_mode;
		}
	}
	return 0;
}
