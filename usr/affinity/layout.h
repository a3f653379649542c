/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scst-affinity: the objects whose affinity the tool sets (IRQs, targets,
 * initiator groups, devices' worker threads) and the computation of a
 * layout's wanted state from them. Pure: the caller reads the system into
 * struct aff_sys and writes the resulting struct aff_plan; this file only
 * computes, so the unit tests run it on made-up machines.
 */
#ifndef SCST_AFF_LAYOUT_H
#define SCST_AFF_LAYOUT_H

#include "cpuset.h"

#define AFF_NAME_MAX	256
#define AFF_MAX_NODES	64

enum aff_irq_kind {
	AFF_IRQ_RDMA,		/* an RDMA device's (HCA completion vectors) */
	AFF_IRQ_BLOCK,		/* a backing block device's (NVMe, HBA) */
	AFF_IRQ_OTHER,		/* chosen by --irq PATTERN (virtio...) */
};

struct aff_irq {
	unsigned int irq;
	char name[AFF_NAME_MAX];	/* the action name, /proc/interrupts */
	char owner[AFF_NAME_MAX];	/* RDMA or block device, or pattern */
	enum aff_irq_kind kind;
	bool managed;			/* kernel-managed: smp_affinity is RO */
	int node;			/* NUMA node, -1 unknown */
	int vector;			/* completion vector index, -1 unknown */
	struct cpuset req;		/* smp_affinity_list */
	struct cpuset eff;		/* effective_affinity_list */
};

struct aff_target {
	char driver[64];
	char name[AFF_NAME_MAX];
	char rdma_dev[64];		/* ib_srpt: its RDMA device, or "" */
	int node;			/* of rdma_dev, -1 unknown */
	struct cpuset cpu_mask;
	bool has_comp_v;		/* ib_srpt: comp_v_mask and thread_mode */
	struct cpuset comp_v_mask;
	unsigned int comp_v_bits;	/* width of comp_v_mask as shown */
	int thread_mode;		/* 0/1, -1 if none */
};

struct aff_group {
	unsigned int target;		/* index into aff_sys.targets */
	char name[AFF_NAME_MAX];
	struct cpuset cpu_mask;
};

struct aff_device {
	char name[AFF_NAME_MAX];
	unsigned int npids;
	int *pids;			/* its worker threads (thread_pids) */
};

struct aff_sys {
	struct cpuset online;
	unsigned int nr_cpu_ids;	/* width of the kernel's CPU masks */
	unsigned int nnodes;
	struct cpuset node_cpus[AFF_MAX_NODES];
	unsigned int nirqs, ntargets, ngroups, ndevices;
	struct aff_irq *irqs;
	struct aff_target *targets;
	struct aff_group *groups;
	struct aff_device *devices;
};

/* What a layout wants; every "set_*" false leaves the thing as it is. */
struct aff_plan_irq {
	bool set;
	bool skip;			/* wanted a change, but cannot */
	const char *why;		/* of skip */
	struct cpuset cpus;
};

struct aff_plan_target {
	bool set_cpu_mask, set_comp_v, set_thread_mode;
	struct cpuset cpu_mask, comp_v_mask;
	int thread_mode;
};

struct aff_plan_cpus {
	bool set;
	struct cpuset cpus;
};

struct aff_plan {
	struct aff_plan_irq *irqs;
	struct aff_plan_target *targets;
	struct aff_plan_cpus *groups;
	struct aff_plan_cpus *devices;
};

struct aff_layout_opts {
	int thread_mode;		/* -1: leave; else 0/1 for every target */
	bool have_irq_cpus;
	struct cpuset irq_cpus;		/* split: where IRQs go */
};

/* Allocate a plan for @sys that changes nothing; aff_plan_free() it. */
int aff_plan_init(struct aff_plan *p, const struct aff_sys *sys);
void aff_plan_free(struct aff_plan *p);

/*
 * Fill @p for the layout named by @words (a named layout "none", "spread",
 * "split", "numa", or explicit map entries "irq:PAT=CPUS",
 * "target:NAME=CPUS", "group:TARGET/GROUP=CPUS", "device:NAME=CPUS").
 * Every CPU must be online, every name must exist. Returns 0, or -1 with
 * a message in @err and @p unspecified (the caller writes nothing).
 */
int aff_layout(const struct aff_sys *sys, int nwords,
	       const char *const *words, const struct aff_layout_opts *o,
	       struct aff_plan *p, char *err, size_t errlen);

/* Shell-style pattern match (* and ?), for IRQ and target names. */
bool aff_match(const char *pat, const char *s);

#endif /* SCST_AFF_LAYOUT_H */
