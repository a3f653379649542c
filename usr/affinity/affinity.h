/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scst-affinity: shared declarations of the parts that touch the system
 * (reading it, show, apply/save/restore, sweep). The pure parts are
 * cpuset.h, layout.h and stats.h.
 */
#ifndef SCST_AFF_H
#define SCST_AFF_H

#include <limits.h>

#include "../lib/alloc.h"
#include "../lib/sysfs.h"
#include "cpuset.h"
#include "layout.h"

/* Exit codes (scst-affinity(1)). */
enum {
	AFF_EXIT_OK	= 0,
	AFF_EXIT_USAGE	= 1,	/* bad command line or bad input */
	AFF_EXIT_SYS	= 3,	/* a write or read failed */
	AFF_EXIT_INTR	= 130,	/* sweep interrupted, state restored */
};

/* usr/lib's allocations end the process with this status when they fail */
_Static_assert(AFF_EXIT_SYS == XALLOC_EXIT_STATUS,
	       "out of memory exits with scst-affinity(1)'s AFF_EXIT_SYS");

#define AFF_MAX_IRQ_PATS	16

struct aff_env {
	struct sysfs scst;		/* /sys/kernel/scst_tgt */
	char proc[PATH_MAX];		/* /proc */
	char sys[PATH_MAX];		/* /sys */
	const char *irq_pats[AFF_MAX_IRQ_PATS];	/* --irq PATTERN */
	unsigned int nirq_pats;
	bool dry_run, json, quiet;
};

void aff_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* sysread.c */
/* Read the whole state; 0 or -1 with a message printed. */
int aff_read_sys(const struct aff_env *e, struct aff_sys *sys);
void aff_free_sys(struct aff_sys *sys);
/* Whole file under a root into @buf (trailing newlines cut); 0 or -errno. */
int aff_read_text(const char *root, const char *rel, char *buf, size_t len);
/* The same into a buffer of its size (up to @max) in *@out, to be freed. */
int aff_read_alloc(const char *root, const char *rel, size_t max, char **out);
/* The largest /proc/interrupts read: 8192 CPUs, thousands of IRQs. */
#define AFF_INTERRUPTS_MAX	(256u << 20)
int aff_write_text(const char *root, const char *rel, const char *text);
/* All of /proc/interrupts ("" if none) in *@out; 0 or -1, said. */
int aff_read_interrupts(const struct aff_env *e, char **out);
/* In the text of /proc/interrupts, the name of IRQ @irq, or "". */
void aff_irq_name(const char *interrupts, unsigned int irq, char *name,
		  size_t len);
/* /proc/PID/status Cpus_allowed_list, comm and the CPU it last ran on. */
int aff_pid_info(const struct aff_env *e, int pid, char *comm, size_t clen,
		 struct cpuset *allowed, int *last_cpu);

/* show.c */
int aff_show(const struct aff_env *e, const struct aff_sys *sys);

/* change.c: changes to make (apply, restore) */
enum aff_change_kind { AFF_CH_IRQ, AFF_CH_ATTR, AFF_CH_PID };

struct aff_change {
	enum aff_change_kind kind;
	unsigned int irq;		/* AFF_CH_IRQ */
	int pid;			/* AFF_CH_PID */
	char rel[PATH_MAX];		/* AFF_CH_ATTR: under the SCST root */
	char *old, *want;		/* the values as written (allocated) */
	char what[AFF_NAME_MAX * 3];	/* for the user */
	bool skip;
	char why[128];
};

typedef VEC(struct aff_change) aff_changes;

void aff_changes_free(aff_changes *c);

/* The changes that make the system what @p wants. */
void aff_plan_changes(const struct aff_env *e, const struct aff_sys *sys,
		      const struct aff_plan *p, aff_changes *out);
/* Print, or make, the changes; on a failure undo those made. */
int aff_do_changes(const struct aff_env *e, aff_changes *c);
/* save: the whole state as lines "irq N LIST", "attr REL VALUE". */
int aff_save(const struct aff_env *e, const struct aff_sys *sys,
	     const char *file);
/* restore: the changes back to a saved file; all checked first. */
int aff_restore_changes(const struct aff_env *e, const struct aff_sys *sys,
			const char *file, aff_changes *out);

/* sweep.c */
int aff_sweep(struct aff_env *e, int argc, char **argv);

/* main.c: apply LAYOUT... (also used by sweep) */
int aff_apply_layout(const struct aff_env *e, int nwords,
		     const char *const *words,
		     const struct aff_layout_opts *o);
/* Add an --irq PATTERN; -1 with a message when there are too many. */
int aff_add_irq_pat(struct aff_env *e, const char *pat);

#endif /* SCST_AFF_H */
