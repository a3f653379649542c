// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity show: what runs where, as text or JSON (--json).
 *
 * Threads: each ib_srpt target's completion thread (thread mode; the
 * target's thread_pid, moved by its cpu_mask), the channels that use the
 * RDMA core's CQ pool instead (their work runs on ib-comp-wq, on the CPU
 * that took the completion vector's interrupt), and the devices' worker
 * threads (thread_pids; they follow the cpu_mask of the targets and
 * groups whose sessions use them).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"

static const char *const kind_names[] = {
	[AFF_IRQ_RDMA] = "rdma", [AFF_IRQ_BLOCK] = "block",
	[AFF_IRQ_OTHER] = "other",
};

struct thr {
	int pid;
	char comm[64];
	struct cpuset allowed;
	int last_cpu;
	char owner[PATH_MAX];	/* the attribute that sets its affinity */
};

typedef VEC(struct thr) thr_vec;

static void add_thr(const struct aff_env *e, thr_vec *v, int pid,
		    const char *owner)
{
	struct thr t = { .pid = pid };

	if (pid <= 0)
		return;
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i].pid == pid)
			return;
	if (aff_pid_info(e, pid, t.comm, sizeof(t.comm), &t.allowed,
			 &t.last_cpu))
		return;
	snprintf(t.owner, sizeof(t.owner), "%s", owner);
	*vec_push(v) = t;
}

static int scst_int(const struct aff_env *e, const char *rel)
{
	char *v = NULL;
	bool key;
	int n;

	if (sysfs_read_attr(&e->scst, rel, &v, &key))
		return -1;
	n = atoi(v);
	free(v);
	return n;
}

struct sess {
	unsigned int target;
	char name[AFF_NAME_MAX];
	int comp_vector, thread_pid;
};

typedef VEC(struct sess) sess_vec;

static void read_sessions(const struct aff_env *e, const struct aff_sys *sys,
			  sess_vec *sv, thr_vec *tv)
{
	for (unsigned int t = 0; t < sys->ntargets; t++) {
		const struct aff_target *tg = &sys->targets[t];
		char rel[PATH_MAX], owner[PATH_MAX];
		struct dirent *d;
		char *sp;
		DIR *dh;

		snprintf(owner, sizeof(owner), "targets/%s/%s/cpu_mask",
			 tg->driver, tg->name);
		snprintf(rel, sizeof(rel), "targets/%s/%s/thread_pid",
			 tg->driver, tg->name);
		add_thr(e, tv, scst_int(e, rel), owner);
		snprintf(rel, sizeof(rel), "targets/%s/%s/sessions", tg->driver,
			 tg->name);
		sp = sysfs_path(&e->scst, rel);
		dh = opendir(sp);
		free(sp);
		if (!dh)
			continue;
		while ((d = readdir(dh))) {
			struct sess s = { .target = t };
			char r2[PATH_MAX + 300];

			if (d->d_name[0] == '.')
				continue;
			snprintf(s.name, sizeof(s.name), "%s", d->d_name);
			snprintf(r2, sizeof(r2), "%s/%s/comp_vector", rel,
				 d->d_name);
			s.comp_vector = scst_int(e, r2);
			snprintf(r2, sizeof(r2), "%s/%s/thread_pid", rel,
				 d->d_name);
			s.thread_pid = scst_int(e, r2);
			if (s.comp_vector < 0 && s.thread_pid < 0)
				continue;	/* not an ib_srpt channel */
			add_thr(e, tv, s.thread_pid, owner);
			*vec_push(sv) = s;
		}
		closedir(dh);
	}
}

static void read_dev_threads(const struct aff_env *e,
			     const struct aff_sys *sys, thr_vec *tv)
{
	for (unsigned int d = 0; d < sys->ndevices; d++) {
		char owner[PATH_MAX];

		snprintf(owner, sizeof(owner),
			 "devices/%s/thread_pids (cpu_mask of the targets/groups using it)",
			 sys->devices[d].name);
		for (unsigned int k = 0; k < sys->devices[d].npids; k++)
			add_thr(e, tv, sys->devices[d].pids[k], owner);
	}
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_kv(const char *k, const char *v, bool comma)
{
	json_str(k);
	putchar(':');
	json_str(v);
	if (comma)
		putchar(',');
}

static void show_json(const struct aff_sys *sys, const sess_vec *sv,
		      const thr_vec *tv)
{
	char a[AFF_LIST_MAX], b[AFF_LIST_MAX];

	cs_format_list(&sys->online, a, sizeof(a));
	printf("{\"cpus\":{");
	json_kv("online", a, true);
	printf("\"nr_cpu_ids\":%u,\"nodes\":[", sys->nr_cpu_ids);
	for (unsigned int n = 0, first = 1; n < sys->nnodes; n++) {
		if (cs_empty(&sys->node_cpus[n]))
			continue;
		cs_format_list(&sys->node_cpus[n], a, sizeof(a));
		printf("%s{\"node\":%u,", first ? "" : ",", n);
		json_kv("cpus", a, false);
		putchar('}');
		first = 0;
	}
	printf("]},\"irqs\":[");
	for (unsigned int i = 0; i < sys->nirqs; i++) {
		const struct aff_irq *q = &sys->irqs[i];

		cs_format_list(&q->req, a, sizeof(a));
		cs_format_list(&q->eff, b, sizeof(b));
		printf("%s{\"irq\":%u,", i ? "," : "", q->irq);
		json_kv("name", q->name, true);
		json_kv("owner", q->owner, true);
		json_kv("kind", kind_names[q->kind], true);
		json_kv("requested", a, true);
		json_kv("effective", b, true);
		printf("\"node\":%d,\"vector\":%d,\"managed\":%s}", q->node,
		       q->vector, q->managed ? "true" : "false");
	}
	printf("],\"targets\":[");
	for (unsigned int t = 0; t < sys->ntargets; t++) {
		const struct aff_target *tg = &sys->targets[t];
		bool first = true;

		printf("%s{", t ? "," : "");
		json_kv("driver", tg->driver, true);
		json_kv("name", tg->name, true);
		json_kv("rdma_device", tg->rdma_dev, true);
		cs_format_mask(&tg->cpu_mask, sys->nr_cpu_ids, a, sizeof(a));
		cs_format_list(&tg->cpu_mask, b, sizeof(b));
		json_kv("cpu_mask", a, true);
		json_kv("cpus", b, true);
		if (tg->has_comp_v) {
			cs_format_mask(&tg->comp_v_mask, tg->comp_v_bits, a,
				       sizeof(a));
			json_kv("comp_v_mask", a, true);
		}
		if (tg->thread_mode >= 0)
			printf("\"thread_mode\":%d,", tg->thread_mode);
		printf("\"node\":%d,\"groups\":[", tg->node);
		for (unsigned int g = 0; g < sys->ngroups; g++) {
			if (sys->groups[g].target != t)
				continue;
			cs_format_mask(&sys->groups[g].cpu_mask,
				       sys->nr_cpu_ids, a, sizeof(a));
			printf("%s{", first ? "" : ",");
			json_kv("name", sys->groups[g].name, true);
			json_kv("cpu_mask", a, false);
			putchar('}');
			first = false;
		}
		printf("],\"sessions\":[");
		first = true;
		for (size_t s = 0; s < sv->n; s++) {
			if (sv->v[s].target != t)
				continue;
			printf("%s{", first ? "" : ",");
			json_kv("name", sv->v[s].name, true);
			printf("\"comp_vector\":%d,\"thread_pid\":%d,",
			       sv->v[s].comp_vector, sv->v[s].thread_pid);
			json_kv("processed_by", sv->v[s].thread_pid > 0 ?
				"target thread" : "CQ pool (ib-comp-wq)",
				false);
			putchar('}');
			first = false;
		}
		printf("]}");
	}
	printf("],\"threads\":[");
	for (size_t i = 0; i < tv->n; i++) {
		const struct thr *t = &tv->v[i];

		cs_format_list(&t->allowed, a, sizeof(a));
		printf("%s{\"pid\":%d,", i ? "," : "", t->pid);
		json_kv("name", t->comm, true);
		json_kv("allowed_cpus", a, true);
		printf("\"last_cpu\":%d,", t->last_cpu);
		json_kv("set_by", t->owner, false);
		putchar('}');
	}
	printf("]}\n");
}

static void show_text(const struct aff_sys *sys, const sess_vec *sv,
		      const thr_vec *tv)
{
	char a[AFF_LIST_MAX], b[AFF_LIST_MAX];

	cs_format_list(&sys->online, a, sizeof(a));
	printf("CPUs online: %s (nr_cpu_ids %u)\n", a, sys->nr_cpu_ids);
	for (unsigned int n = 0; n < sys->nnodes; n++) {
		if (cs_empty(&sys->node_cpus[n]))
			continue;
		cs_format_list(&sys->node_cpus[n], a, sizeof(a));
		printf("  node %u: %s\n", n, a);
	}
	printf("\nIRQs:\n  %-5s %-24s %-12s %-6s %-10s %-10s %4s %3s %s\n",
	       "IRQ", "NAME", "OWNER", "KIND", "REQUESTED", "EFFECTIVE",
	       "NODE", "VEC", "MANAGED");
	if (!sys->nirqs)
		printf("  (none found: no MSI-X on the RDMA or backing devices; --irq PATTERN names others)\n");
	for (unsigned int i = 0; i < sys->nirqs; i++) {
		const struct aff_irq *q = &sys->irqs[i];

		cs_format_list(&q->req, a, sizeof(a));
		cs_format_list(&q->eff, b, sizeof(b));
		printf("  %-5u %-24s %-12s %-6s %-10s %-10s %4d %3d %s\n", q->irq,
		       q->name, q->owner, kind_names[q->kind], a,
		       b[0] ? b : "-", q->node, q->vector,
		       q->managed ? "yes (smp_affinity read-only)" : "no");
	}
	printf("\nTargets:\n");
	for (unsigned int t = 0; t < sys->ntargets; t++) {
		const struct aff_target *tg = &sys->targets[t];

		cs_format_mask(&tg->cpu_mask, sys->nr_cpu_ids, a, sizeof(a));
		cs_format_list(&tg->cpu_mask, b, sizeof(b));
		printf("  %s/%s\n    cpu_mask %s (CPUs %s)", tg->driver,
		       tg->name, a, b);
		if (tg->has_comp_v) {
			cs_format_mask(&tg->comp_v_mask, tg->comp_v_bits, a,
				       sizeof(a));
			printf("  comp_v_mask %s", a);
		}
		if (tg->thread_mode >= 0)
			printf("  thread_mode %d", tg->thread_mode);
		if (tg->rdma_dev[0])
			printf("  device %s (node %d)", tg->rdma_dev, tg->node);
		putchar('\n');
		for (unsigned int g = 0; g < sys->ngroups; g++) {
			if (sys->groups[g].target != t)
				continue;
			cs_format_list(&sys->groups[g].cpu_mask, b, sizeof(b));
			printf("    group %s: cpu_mask CPUs %s\n",
			       sys->groups[g].name, b);
		}
		for (size_t s = 0; s < sv->n; s++) {
			if (sv->v[s].target != t)
				continue;
			if (sv->v[s].thread_pid > 0)
				printf("    session %s: comp_vector %d, target thread %d\n",
				       sv->v[s].name, sv->v[s].comp_vector,
				       sv->v[s].thread_pid);
			else
				printf("    session %s: comp_vector %d, CQ pool (ib-comp-wq, on the CPU that takes the vector's interrupt)\n",
				       sv->v[s].name, sv->v[s].comp_vector);
		}
	}
	printf("\nThreads:\n  %-7s %-16s %-10s %-8s %s\n", "PID", "NAME",
	       "ALLOWED", "LAST_CPU", "SET BY");
	for (size_t i = 0; i < tv->n; i++) {
		const struct thr *t = &tv->v[i];

		cs_format_list(&t->allowed, a, sizeof(a));
		printf("  %-7d %-16s %-10s %-8d %s\n", t->pid, t->comm, a,
		       t->last_cpu, t->owner);
	}
}

int aff_show(const struct aff_env *e, const struct aff_sys *sys)
{
	sess_vec sv = { 0 };
	thr_vec tv = { 0 };

	read_sessions(e, sys, &sv, &tv);
	read_dev_threads(e, sys, &tv);
	if (e->json)
		show_json(sys, &sv, &tv);
	else
		show_text(sys, &sv, &tv);
	free(sv.v);
	free(tv.v);
	return AFF_EXIT_OK;
}
