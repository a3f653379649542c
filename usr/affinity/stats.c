// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity sweep: statistics and fio terse parsing (see stats.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

void aff_row_stats(struct aff_row *r, const struct aff_run *runs,
		   unsigned int n)
{
	double sum = 0, ss = 0;

	r->nruns = n;
	r->mean = r->min = r->max = r->sd = r->var_pct = 0;
	r->clat_us = r->p99_us = r->busy_pct = r->cpu_us_per_io = 0;
	if (!n)
		return;
	r->min = r->max = runs[0].iops;
	for (unsigned int i = 0; i < n; i++) {
		sum += runs[i].iops;
		if (runs[i].iops < r->min)
			r->min = runs[i].iops;
		if (runs[i].iops > r->max)
			r->max = runs[i].iops;
		r->clat_us += runs[i].clat_us / n;
		r->p99_us += runs[i].p99_us / n;
		r->busy_pct += runs[i].busy_pct / n;
		r->cpu_us_per_io += runs[i].cpu_us_per_io / n;
	}
	r->mean = sum / n;
	for (unsigned int i = 0; i < n && n > 1; i++)
		ss += (runs[i].iops - r->mean) * (runs[i].iops - r->mean);
	r->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	r->var_pct = r->mean > 0 ? 100 * r->sd / r->mean : 0;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct aff_row *x = a, *y = b;

	if (x->mean != y->mean)
		return x->mean < y->mean ? 1 : -1;
	if (x->baseline != y->baseline)
		return x->baseline ? -1 : 1;
	return strcmp(x->layout, y->layout);
}

void aff_rows_finish(struct aff_row *rows, unsigned int n)
{
	const struct aff_row *base = NULL;
	double bmean, bsd;

	if (!n)
		return;
	for (unsigned int i = 0; i < n; i++) {
		rows[i].baseline = false;
		if (!base && !strcmp(rows[i].layout, "none") &&
		    rows[i].thread_mode == 0)
			base = &rows[i];
	}
	if (!base)
		base = &rows[0];
	bmean = base->mean;
	bsd = base->sd;
	rows[base - rows].baseline = true;
	for (unsigned int i = 0; i < n; i++) {
		struct aff_row *r = &rows[i];

		r->ratio = bmean > 0 ? r->mean / bmean : 0;
		r->significant = !r->baseline &&
				 fabs(r->mean - bmean) > r->sd + bsd;
	}
	qsort(rows, n, sizeof(*rows), cmp_rows);
}

#define TERSE_FIELDS	130

/* Field @i (1-based) of @f as a number; -1 if missing or not a number. */
static int num(char **f, int nf, int i, double *v)
{
	char *end;

	if (i > nf || !*f[i - 1])
		return -1;
	*v = strtod(f[i - 1], &end);
	if (*end == '%')
		end++;
	return *end ? -1 : 0;
}

/* The "99.000000%=N" field among the 20 percentile fields from @first. */
static double p99(char **f, int nf, int first)
{
	for (int i = first; i < first + 20 && i <= nf; i++) {
		const char *eq = strchr(f[i - 1], '=');

		if (eq && !strncmp(f[i - 1], "99.000000%", 10))
			return strtod(eq + 1, NULL);
	}
	return 0;
}

int aff_fio_terse(const char *line, struct aff_run *run, long *runtime_ms,
		  char *err, size_t errlen)
{
	double riops, rrt, rclat, wiops, wrt, wclat, ferr;
	char *f[TERSE_FIELDS];
	char *copy, *p;
	int nf = 0;

	copy = strdup(line);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	copy[strcspn(copy, "\n")] = '\0';
	for (p = copy; nf < TERSE_FIELDS;) {
		f[nf++] = p;
		p = strchr(p, ';');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (nf < 89 || strcmp(f[0], "3")) {
		snprintf(err, errlen,
			 "not a line of fio's terse version 3 output (%d fields)",
			 nf);
		goto bad;
	}
	if (num(f, nf, 5, &ferr) || ferr != 0) {
		snprintf(err, errlen, "fio job %s reported error %s", f[2],
			 f[4]);
		goto bad;
	}
	if (num(f, nf, 8, &riops) || num(f, nf, 9, &rrt) ||
	    num(f, nf, 16, &rclat) || num(f, nf, 49, &wiops) ||
	    num(f, nf, 50, &wrt) || num(f, nf, 57, &wclat)) {
		snprintf(err, errlen, "fio terse line: a field is not a number");
		goto bad;
	}
	memset(run, 0, sizeof(*run));
	run->iops = riops + wiops;
	if (run->iops > 0)
		run->clat_us = (riops * rclat + wiops * wclat) / run->iops;
	run->p99_us = riops > 0 ? p99(f, nf, 18) : 0;
	if (wiops > 0 && p99(f, nf, 59) > run->p99_us)
		run->p99_us = p99(f, nf, 59);
	*runtime_ms = (long)(rrt > wrt ? rrt : wrt);
	free(copy);
	return 0;
bad:
	free(copy);
	return -1;
}
