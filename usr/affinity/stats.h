/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scst-affinity sweep: statistics of repeated fio runs and fio's terse
 * (--minimal, version 3) output. Pure, for the unit tests.
 */
#ifndef SCST_AFF_STATS_H
#define SCST_AFF_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct aff_run {
	double iops;
	double clat_us;		/* mean completion latency */
	double p99_us;		/* 99th percentile of completion latency */
	double busy_pct;	/* all CPUs, /proc/stat, during the run */
	double cpu_us_per_io;	/* busy CPU time of all CPUs per I/O */
};

struct aff_row {
	char layout[128];
	int thread_mode;
	unsigned int nruns;
	double mean, min, max, sd, var_pct;	/* IOPS */
	double clat_us, p99_us, busy_pct, cpu_us_per_io;	/* means */
	double ratio;		/* mean / baseline mean */
	bool baseline;		/* "none" with thread mode off */
	bool significant;	/* differs from the baseline by more than
				 * their standard deviations together */
};

/* Mean, min, max, sample standard deviation of @n runs into @r. */
void aff_row_stats(struct aff_row *r, const struct aff_run *runs,
		   unsigned int n);

/*
 * Mark the baseline row (layout "none", thread mode 0; else the first),
 * set each row's ratio and significance, and sort best (highest mean
 * IOPS) first. A row is significant when |mean - base mean| exceeds the
 * sum of the two standard deviations: within that, the runs' own
 * variation could explain the difference.
 */
void aff_rows_finish(struct aff_row *rows, unsigned int n);

/*
 * One line of fio --minimal (terse version 3) output: reads and writes
 * together (IOPS summed, latency weighted by IOPS, p99 the larger).
 * Returns 0, or -1 with @err set (not terse v3, fio reported an error,
 * a field missing or not a number). @runtime_ms gets the longer runtime.
 */
int aff_fio_terse(const char *line, struct aff_run *run, long *runtime_ms,
		  char *err, size_t errlen);

#endif /* SCST_AFF_STATS_H */
