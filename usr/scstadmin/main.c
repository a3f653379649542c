// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: command line. Options have SCST's names, one '-' (or two)
 * and an argument in the next word or after '=' (-config=FILE), as
 * SCST's Getopt::Long takes them; exactly one command option per run.
 * Some commands take an optional argument (-config [FILE], -list_device
 * [NAME]): the next word is theirs unless it starts with '-'.
 */
#include <stdlib.h>
#include <string.h>

#include "opts.h"

/** struct optdef - one option: a command (exactly one a run) or a modifier */
struct optdef {
	const char *name;
	const char *arg;	/* its argument's name in -h, NULL: none */
	bool is_cmd;
	bool opt_arg;		/* the argument may be left out */
	size_t off;		/* into struct opts, for modifiers */
	const char *help;
};

#define O(f) offsetof(struct opts, f)
#define CMD(n, a, h) { n, a, true, false, 0, h }
#define CMDO(n, a, h) { n, a, true, true, 0, h }	/* optional argument */
#define MOD(n, a, f, h) { n, a, false, false, O(f), h }

static const struct optdef optdefs[] = {
	CMDO("config", "FILE", "apply FILE: add and change; remove only with -force"),
	CMDO("check_config", "FILE", "parse and check FILE, show what -config would do"),
	CMD("write_config", "FILE", "save the running configuration (key attributes; - for stdout)"),
	CMD("clear_config", NULL, "remove all configuration (needs -force)"),
	CMDO("list_handler", "H", "list handlers, or handler H and its devices"),
	CMDO("list_device", "DEV", "list devices, or device DEV"),
	CMDO("list_driver", "D", "list target drivers, or driver D"),
	CMDO("list_target", "T", "list targets and their LUNs [-driver D]"),
	CMDO("list_group", "G", "list groups [-driver D [-target T]]"),
	CMD("list_sessions", NULL, "list sessions [-driver D [-target T]]"),
	CMD("list_scst_attr", NULL, "list SCST's key attributes (all with -nonkey)"),
	CMD("list_hnd_attr", "H", "list a handler's attributes and device parameters"),
	CMD("list_dev_attr", "DEV", "list a device's attributes"),
	CMD("list_drv_attr", "D", "list a driver's attributes"),
	CMD("list_tgt_attr", "T", "list a target's attributes: -driver D"),
	CMD("list_grp_attr", "G", "list a group's attributes: -driver D -target T"),
	CMD("list_lun_attr", "N", "list a LUN's attributes: -driver D -target T [-group G]"),
	CMD("list_init_attr", "I", "list an initiator's attributes: -driver D -target T -group G"),
	CMD("set_scst_attr", NULL, "set SCST attributes: -attributes k=v,..."),
	CMD("set_hnd_attr", "H", "-attributes k=v,..."),
	CMD("set_dev_attr", "DEV", "-attributes k=v,..."),
	CMD("set_drv_attr", "D", "-attributes k=v,..."),
	CMD("set_tgt_attr", "T", "-driver D -attributes k=v,..."),
	CMD("set_grp_attr", "G", "-driver D -target T -attributes k=v,..."),
	CMD("set_lun_attr", "N", "-driver D -target T [-group G] -attributes k=v,..."),
	CMD("set_init_attr", "I", "-driver D -target T -group G -attributes k=v,..."),
	CMD("open_dev", "NAME", "-handler H [-attributes k=v,...]"),
	CMD("close_dev", "NAME", "-handler H (-force if a LUN exports it)"),
	CMD("resync_dev", "NAME", "re-read the device's size"),
	CMD("add_target", "T", "-driver D"),
	CMD("rem_target", "T", "-driver D"),
	CMD("add_group", "G", "-driver D -target T"),
	CMD("rem_group", "G", "-driver D -target T (-force if not empty)"),
	CMD("add_init", "I", "-driver D -target T -group G"),
	CMD("rem_init", "I", "-driver D -target T -group G"),
	CMD("move_init", "I", "-driver D -target T -group G -to G2"),
	CMD("clear_inits", NULL, "-driver D -target T -group G"),
	CMD("add_lun", "N", "-driver D -target T [-group G] -device DEV [-attributes read_only=1]"),
	CMD("rem_lun", "N", "-driver D -target T [-group G]"),
	CMD("replace_lun", "N", "-driver D -target T [-group G] -device DEV [-attributes]"),
	CMD("clear_luns", NULL, "-driver D -target T [-group G]"),
	CMD("enable_target", "T", "-driver D"),
	CMD("disable_target", "T", "-driver D"),
	CMDO("issue_lip", "T", "[-driver D] Fibre Channel LIP (no driver here has one)"),
	CMD("add_drv_attr", "D", "add dynamic driver attributes: -attributes k=v,..."),
	CMD("rem_drv_attr", "D", "remove dynamic driver attributes: -attributes k=v,..."),
	CMD("add_tgt_attr", "T", "add dynamic target attributes: -driver D -attributes k=v,..."),
	CMD("rem_tgt_attr", "T", "remove dynamic target attributes: -driver D -attributes k=v,..."),
	CMDO("list_dgrp", "DGRP", "ALUA: list device groups, or DGRP"),
	CMDO("list_tgrp", "TGRP", "ALUA: list target groups [-dev_group DGRP]"),
	CMD("list_dgrp_attr", "DGRP", "ALUA: list a device group's attributes"),
	CMD("list_tgrp_attr", "TGRP", "ALUA: list a target group's attributes: -dev_group DGRP"),
	CMD("list_ttgt_attr", "T", "ALUA: list a target group target's attributes: -dev_group DGRP -tgt_group TGRP"),
	CMD("set_dgrp_attr", "DGRP", "ALUA: -attributes k=v,..."),
	CMD("set_tgrp_attr", "TGRP", "ALUA: -dev_group DGRP -attributes group_id=N,preferred=0|1,state=S"),
	CMD("set_ttgt_attr", "T", "ALUA: -dev_group DGRP -tgt_group TGRP -attributes rel_tgt_id=N (another system's target)"),
	CMD("add_dgrp", "DGRP", "ALUA: add a device group"),
	CMD("rem_dgrp", "DGRP", "ALUA: remove a device group"),
	CMD("add_dgrp_dev", "DEV", "ALUA: add device DEV to -dev_group DGRP (one group a device)"),
	CMD("rem_dgrp_dev", "DEV", "ALUA: remove device DEV from -dev_group DGRP"),
	CMD("add_tgrp", "TGRP", "ALUA: add a target group to -dev_group DGRP"),
	CMD("rem_tgrp", "TGRP", "ALUA: remove a target group of -dev_group DGRP"),
	CMD("add_tgrp_tgt", "T", "ALUA: add target T: -dev_group DGRP -tgt_group TGRP"),
	CMD("rem_tgrp_tgt", "T", "ALUA: remove target T: -dev_group DGRP -tgt_group TGRP"),
	CMD("version", NULL, "print scstadmin's version and the kernel modules' (also --version)"),
	CMD("close_session", "NAME", "-driver D -target T: close it (the initiator may log in again)"),
	MOD("handler", "H", handler, "the device handler"),
	MOD("driver", "D", driver, "the target driver"),
	MOD("target", "T", target, "the target"),
	MOD("group", "G", group, "the initiator group"),
	MOD("device", "DEV", device, "the device of a LUN"),
	MOD("attributes", "k=v,...", attributes, "attributes or add_device/LUN parameters"),
	MOD("to", "G2", to, "-move_init: the group to move to"),
	MOD("force", NULL, force, "-config: also remove, replace, re-open, disable or suspend what the file lacks or changes, apply an empty file; -close_dev of an exported device; -rem_group of a non-empty group; -clear_config always"),
	MOD("noprompt", NULL, noprompt, "do not ask for confirmation"),
	MOD("cont_on_err", NULL, cont_on_err, "go on after a failed change (exit status still 3)"),
	MOD("nonkey", NULL, nonkey, "non-key attributes too (-write_config: as comments)"),
	MOD("dry_run", NULL, dry_run, "show the changes without making them"),
	MOD("dev_group", "DGRP", dev_group, "ALUA: the device group"),
	MOD("tgt_group", "TGRP", tgt_group, "ALUA: the target group"),
	MOD("no_lip", NULL, no_lip, "accepted as SCST's; no LIP is ever issued here"),
	MOD("debug", NULL, debug, "SCST's debug mode: change nothing (as -dry_run)"),
	MOD("tsv", NULL, tsv, "-list_*: tab-separated records for scripts (see scstadmin(1))"),
	{ NULL, NULL, false, false, 0, NULL }
};

static void usage_line(FILE *f, const char *name, const char *arg,
		       bool opt, const char *help)
{
	int n = fprintf(f, "  -%s%s%s%s%s", name, arg ? " " : "",
			opt ? "[" : "", arg ? arg : "", opt ? "]" : "");

	fprintf(f, "%*s%s\n", n < 24 ? 24 - n : 1, "", help);
}

void usage(FILE *f)
{
	fprintf(f,
		"usage: scstadmin [--sysfs-root DIR] -COMMAND [ARG] [modifiers]\n"
		"\nCommands:\n");
	for (const struct optdef *d = optdefs; d->name; d++)
		if (d->is_cmd)
			usage_line(f, d->name, d->arg, d->opt_arg, d->help);
	usage_line(f, "h, -help", NULL, false, "show this help");
	fprintf(f, "\nModifiers:\n");
	for (const struct optdef *d = optdefs; d->name; d++)
		if (!d->is_cmd)
			usage_line(f, d->name, d->arg, d->opt_arg, d->help);
	usage_line(f, "sysfs_root", "DIR", false,
		   "the management tree (also --sysfs-root, $SCST_SYSFS_ROOT)");
	fprintf(f,
		"\nThe management tree is %s unless given.\n"
		"-config without FILE reads %s; -config removes nothing the file\n"
		"lacks unless -force is given.\n"
		"Exit status: 0 ok, 1 usage, 2 configuration file error, 3 sysfs\n"
		"write failed, 4 no such object or attribute, 5 refused (in use,\n"
		"needs -force), 6 SCST not loaded, 7 done with warnings (something\n"
		"was skipped), 8 not supported by the running modules.\n"
		"See scstadmin(1).\n",
		SCST_DEFAULT_ROOT, SCST_DEFAULT_CONF);
}

static const struct optdef *find_opt(const char *a, size_t len)
{
	const struct optdef *d;

	for (d = optdefs; d->name; d++)
		if (strlen(d->name) == len && !strncmp(d->name, a, len))
			return d;
	return NULL;
}

static int set_opt(struct opts *o, const struct optdef *d, const char *val)
{
	if (!d->is_cmd) {
		if (d->arg)
			*(const char **)((char *)o + d->off) = val;
		else
			*(bool *)((char *)o + d->off) = true;
		return EXIT_OK;
	}
	if (o->cmd && strcmp(o->cmd, "help")) {
		fprintf(stderr, "scstadmin: -%s and -%s: one command at a time\n",
			o->cmd, d->name);
		return EXIT_USAGE;
	}
	if (!o->cmd)
		o->cmd = d->name;
	o->arg = val;
	return EXIT_OK;
}

static int parse_args(int argc, char **argv, struct opts *o,
		      const char **root)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *val = NULL;
		const struct optdef *d;
		size_t len;

		if (!strcmp(a, "--sysfs-root") || !strcmp(a, "-sysfs_root")) {
			if (++i == argc) {
				fprintf(stderr, "scstadmin: %s needs a directory\n", a);
				return EXIT_USAGE;
			}
			*root = argv[i];
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "-help") ||
		    !strcmp(a, "--help")) {
			o->cmd = "help";
			continue;
		}
		if (a[0] != '-') {
			fprintf(stderr, "scstadmin: unexpected argument '%s'\n", a);
			return EXIT_USAGE;
		}
		a += a[1] == '-' ? 2 : 1;
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		d = find_opt(a, len);
		if (!d) {
			fprintf(stderr, "scstadmin: unknown option '%s' (see -h)\n",
				argv[i]);
			return EXIT_USAGE;
		}
		if (eq && !d->arg) {
			fprintf(stderr, "scstadmin: -%s takes no argument\n",
				d->name);
			return EXIT_USAGE;
		}
		if (eq)
			val = eq + 1;
		else if (d->arg && i + 1 < argc &&
			 (!d->opt_arg || argv[i + 1][0] != '-'))
			val = argv[++i];
		if (d->arg && !d->opt_arg && !val) {
			fprintf(stderr, "scstadmin: -%s needs an argument\n",
				d->name);
			return EXIT_USAGE;
		}
		if (set_opt(o, d, val))
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *root = getenv("SCST_SYSFS_ROOT");
	int ret;

	/* change lines and warnings in the order they happen, in a pipe too */
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = parse_args(argc, argv, &o, &root);
	if (ret)
		return ret;
	if (!o.cmd) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(o.cmd, "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!root || !*root)
		root = SCST_DEFAULT_ROOT;
	o.have_root = sysfs_open(&o.sysfs, root) == 0;
	o.dry_run |= o.debug;
	o.sysfs.dry_run = o.dry_run;
	ret = run_command(&o);
	sysfs_close(&o.sysfs);
	return ret;
}
