// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity: show, apply, save/restore and measure the CPU affinity
 * of the IRQs and worker threads an SCST target uses (scst-affinity(1),
 * Documentation/tuning.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"

static const char usage_text[] =
"usage: scst-affinity [OPTIONS] show [--json]\n"
"       scst-affinity [OPTIONS] apply [--dry-run] [--thread-mode on|off]\n"
"                     [--irq-cpus CPUS] LAYOUT [MAP-ENTRY...]\n"
"       scst-affinity [OPTIONS] save FILE\n"
"       scst-affinity [OPTIONS] restore [--dry-run] FILE\n"
"       scst-affinity [OPTIONS] sweep [SWEEP-OPTIONS]  (scst-affinity(1))\n"
"LAYOUT: none | spread | split | numa, and/or map entries\n"
"        irq:PATTERN=CPUS target:NAME=CPUS group:TARGET/GROUP=CPUS\n"
"        device:NAME=CPUS (CPUS as 0-3,8)\n"
"OPTIONS: --irq PATTERN (also IRQs whose /proc/interrupts name matches)\n"
"         --sysfs-root DIR --proc-root DIR --sys-root DIR (tests)\n";

static void usage(FILE *f)
{
	fputs(usage_text, f);
}

int aff_apply_layout(const struct aff_env *e, int nwords,
		     const char *const *words,
		     const struct aff_layout_opts *o)
{
	struct aff_sys sys;
	struct aff_plan plan;
	aff_changes ch = { 0 };
	char err[1024];
	int ret;

	if (aff_read_sys(e, &sys))
		return AFF_EXIT_SYS;
	if (aff_plan_init(&plan, &sys)) {
		aff_free_sys(&sys);
		aff_err("out of memory");
		return AFF_EXIT_SYS;
	}
	if (aff_layout(&sys, nwords, words, o, &plan, err, sizeof(err))) {
		aff_err("%s; nothing changed", err);
		ret = AFF_EXIT_USAGE;
		goto out;
	}
	aff_plan_changes(e, &sys, &plan, &ch);
	if (!ch.n && !e->quiet)
		printf("nothing to change\n");
	ret = aff_do_changes(e, &ch);
out:
	free(ch.v);
	aff_plan_free(&plan);
	aff_free_sys(&sys);
	return ret;
}

static int parse_thread_mode(const char *s)
{
	if (!strcmp(s, "on") || !strcmp(s, "1"))
		return 1;
	if (!strcmp(s, "off") || !strcmp(s, "0"))
		return 0;
	return -1;
}

/* Global options argv[1..at-1], then "sweep" and its own options. */
static int run_sweep(struct aff_env *e, const char *scst_root, int at,
		     int argc, char **argv)
{
	int ret;

	for (int i = 1; i + 1 < at; i += 2) {
		if (!strcmp(argv[i], "--irq") && e->nirq_pats < 16)
			e->irq_pats[e->nirq_pats++] = argv[i + 1];
		else if (!strcmp(argv[i], "--sysfs-root"))
			scst_root = argv[i + 1];
		else if (!strcmp(argv[i], "--proc-root"))
			snprintf(e->proc, sizeof(e->proc), "%s", argv[i + 1]);
		else if (!strcmp(argv[i], "--sys-root"))
			snprintf(e->sys, sizeof(e->sys), "%s", argv[i + 1]);
	}
	if (sysfs_open(&e->scst, scst_root && *scst_root ? scst_root :
		       SCST_DEFAULT_ROOT)) {
		aff_err("no SCST sysfs tree at %s (is scst loaded?)",
			e->scst.root);
		sysfs_close(&e->scst);
		return AFF_EXIT_SYS;
	}
	ret = aff_sweep(e, argc - at, argv + at);
	sysfs_close(&e->scst);
	return ret;
}

static void set_root(char *dst, const char *env, const char *def)
{
	const char *v = getenv(env);

	snprintf(dst, PATH_MAX, "%s", v && *v ? v : def);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sysfs-root", required_argument, NULL, 'S' },
		{ "proc-root", required_argument, NULL, 'P' },
		{ "sys-root", required_argument, NULL, 'Y' },
		{ "irq", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "thread-mode", required_argument, NULL, 't' },
		{ "irq-cpus", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct aff_layout_opts lo = { .thread_mode = -1 };
	const char *scst_root = getenv("SCST_SYSFS_ROOT");
	struct aff_env e;
	const char *cmd;
	char err[512];
	int opt, ret;

	memset(&e, 0, sizeof(e));
	set_root(e.proc, "SCST_AFF_PROC_ROOT", "/proc");
	set_root(e.sys, "SCST_AFF_SYS_ROOT", "/sys");
	/* sweep has options of its own: global ones only before it */
	for (int i = 1; i < argc; i++) {
		static const char *const with_arg[] = {
			"--irq", "--sysfs-root", "--proc-root", "--sys-root",
			NULL
		};
		const char *const *w;

		if (!strcmp(argv[i], "sweep"))
			return run_sweep(&e, scst_root, i, argc, argv);
		if (argv[i][0] != '-')
			break;
		for (w = with_arg; *w && strcmp(*w, argv[i]); w++)
			;
		if (*w)
			i++;
	}
	/* GNU getopt: options may come before or after the command */
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'S':
			scst_root = optarg;
			break;
		case 'P':
			snprintf(e.proc, sizeof(e.proc), "%s", optarg);
			break;
		case 'Y':
			snprintf(e.sys, sizeof(e.sys), "%s", optarg);
			break;
		case 'i':
			if (e.nirq_pats == 16) {
				aff_err("at most 16 --irq patterns");
				return AFF_EXIT_USAGE;
			}
			e.irq_pats[e.nirq_pats++] = optarg;
			break;
		case 'j':
			e.json = true;
			break;
		case 'n':
			e.dry_run = true;
			break;
		case 't':
			lo.thread_mode = parse_thread_mode(optarg);
			if (lo.thread_mode < 0) {
				aff_err("--thread-mode '%s' is not on or off",
					optarg);
				return AFF_EXIT_USAGE;
			}
			break;
		case 'c':
			if (cs_parse_list(optarg, &lo.irq_cpus, err,
					  sizeof(err))) {
				aff_err("--irq-cpus: %s", err);
				return AFF_EXIT_USAGE;
			}
			lo.have_irq_cpus = true;
			break;
		case 'h':
			usage(stdout);
			return AFF_EXIT_OK;
		default:
			usage(stderr);
			return AFF_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return AFF_EXIT_USAGE;
	}
	cmd = argv[optind++];
	if (sysfs_open(&e.scst, scst_root && *scst_root ? scst_root :
		       SCST_DEFAULT_ROOT)) {
		aff_err("no SCST sysfs tree at %s (is scst loaded?)",
			e.scst.root);
		sysfs_close(&e.scst);
		return AFF_EXIT_SYS;
	}
	ret = AFF_EXIT_USAGE;
	if (!strcmp(cmd, "show") && optind == argc) {
		struct aff_sys sys;

		ret = AFF_EXIT_SYS;
		if (!aff_read_sys(&e, &sys)) {
			ret = aff_show(&e, &sys);
			aff_free_sys(&sys);
		}
	} else if (!strcmp(cmd, "apply") && optind < argc) {
		ret = aff_apply_layout(&e, argc - optind,
				       (const char *const *)argv + optind,
				       &lo);
	} else if (!strcmp(cmd, "save") && optind + 1 == argc) {
		struct aff_sys sys;

		ret = AFF_EXIT_SYS;
		if (!aff_read_sys(&e, &sys)) {
			ret = aff_save(&e, &sys, argv[optind]);
			aff_free_sys(&sys);
		}
	} else if (!strcmp(cmd, "restore") && optind + 1 == argc) {
		struct aff_sys sys;
		aff_changes ch = { 0 };

		ret = AFF_EXIT_SYS;
		if (!aff_read_sys(&e, &sys)) {
			ret = aff_restore_changes(&e, &sys, argv[optind], &ch);
			if (ret == AFF_EXIT_OK)
				ret = aff_do_changes(&e, &ch);
			free(ch.v);
			aff_free_sys(&sys);
		}
	} else {
		usage(stderr);
	}
	sysfs_close(&e.scst);
	return ret;
}
