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
	aff_changes_free(&ch);
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

static void set_root(char *dst, const char *env, const char *def)
{
	const char *v = getenv(env);

	snprintf(dst, PATH_MAX, "%s", v && *v ? v : def);
}

int aff_add_irq_pat(struct aff_env *e, const char *pat)
{
	if (e->nirq_pats == AFF_MAX_IRQ_PATS) {
		aff_err("at most %d --irq patterns", AFF_MAX_IRQ_PATS);
		return -1;
	}
	e->irq_pats[e->nirq_pats++] = pat;
	return 0;
}

/* What the options given so far ask for (main's getopt passes). */
struct main_opts {
	struct aff_layout_opts lo;
	const char *scst_root;
	bool cmd_opts;		/* --json, --dry-run, --thread-mode, --irq-cpus */
};

/*
 * One getopt_long pass over argv[0..argc-1] (argv[0] is skipped, as the
 * program name or the command). @stop: stop at the first non-option, the
 * command (the global options before it). 0, 1 on --help, or -1 with a
 * message: a bad option stops the tool before anything is read or written.
 */
static int parse_opts(int argc, char **argv, bool stop, struct aff_env *e,
		      struct main_opts *m)
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
	char err[512];
	int opt;

	optind = 0;	/* glibc: a full re-initialisation for each pass */
	while ((opt = getopt_long(argc, argv, stop ? "+h" : "h", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'S':
			m->scst_root = optarg;
			break;
		case 'P':
			snprintf(e->proc, sizeof(e->proc), "%s", optarg);
			break;
		case 'Y':
			snprintf(e->sys, sizeof(e->sys), "%s", optarg);
			break;
		case 'i':
			if (aff_add_irq_pat(e, optarg))
				return -1;
			break;
		case 'j':
			e->json = true;
			m->cmd_opts = true;
			break;
		case 'n':
			e->dry_run = true;
			m->cmd_opts = true;
			break;
		case 't':
			m->lo.thread_mode = parse_thread_mode(optarg);
			m->cmd_opts = true;
			if (m->lo.thread_mode < 0) {
				aff_err("--thread-mode '%s' is not on or off",
					optarg);
				return -1;
			}
			break;
		case 'c':
			m->cmd_opts = true;
			if (cs_parse_list(optarg, &m->lo.irq_cpus, err,
					  sizeof(err))) {
				aff_err("--irq-cpus: %s", err);
				return -1;
			}
			m->lo.have_irq_cpus = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	return 0;
}

static int open_scst(struct aff_env *e, const char *scst_root)
{
	if (sysfs_open(&e->scst, scst_root && *scst_root ? scst_root :
		       SCST_DEFAULT_ROOT)) {
		aff_err("no SCST sysfs tree at %s (is scst loaded?)",
			e->scst.root);
		sysfs_close(&e->scst);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct main_opts m = { .lo = { .thread_mode = -1 } };
	struct aff_env e;
	const char *cmd;
	int at, ret;

	memset(&e, 0, sizeof(e));
	m.scst_root = getenv("SCST_SYSFS_ROOT");
	set_root(e.proc, "SCST_AFF_PROC_ROOT", "/proc");
	set_root(e.sys, "SCST_AFF_SYS_ROOT", "/sys");
	/* the global options, up to the command */
	ret = parse_opts(argc, argv, true, &e, &m);
	if (ret)
		return ret > 0 ? AFF_EXIT_OK : AFF_EXIT_USAGE;
	if (optind >= argc) {
		usage(stderr);
		return AFF_EXIT_USAGE;
	}
	at = optind;
	if (!strcmp(argv[at], "sweep")) {
		/*
		 * sweep has options of its own and always writes (it
		 * restores the state at the end): an option of the other
		 * commands before it is a mistake, never ignored.
		 */
		if (m.cmd_opts) {
			aff_err("sweep takes no --dry-run, --json, --thread-mode or --irq-cpus before it (see scst-affinity(1)); nothing changed");
			return AFF_EXIT_USAGE;
		}
		if (open_scst(&e, m.scst_root))
			return AFF_EXIT_SYS;
		optind = 0;
		ret = aff_sweep(&e, argc - at, argv + at);
		sysfs_close(&e.scst);
		return ret;
	}
	/* GNU getopt: the other commands take options after them too */
	ret = parse_opts(argc - at, argv + at, false, &e, &m);
	if (ret)
		return ret > 0 ? AFF_EXIT_OK : AFF_EXIT_USAGE;
	argc -= at;
	argv += at;
	cmd = argv[0];
	if (strcmp(cmd, "show") && strcmp(cmd, "apply") && strcmp(cmd, "save") &&
	    strcmp(cmd, "restore")) {
		aff_err("unknown command '%s' (show, apply, save, restore, sweep; see --help)",
			cmd);
		return AFF_EXIT_USAGE;
	}
	if (open_scst(&e, m.scst_root))
		return AFF_EXIT_SYS;
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
				       &m.lo);
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
			aff_changes_free(&ch);
			aff_free_sys(&sys);
		}
	} else {
		usage(stderr);
	}
	sysfs_close(&e.scst);
	return ret;
}
