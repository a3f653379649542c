// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: command line. Options have SCST's names, one '-' and an
 * argument in the next word; exactly one command option per run.
 */
#include <stdlib.h>
#include <string.h>

#include "opts.h"

enum arg_kind { NOARG, ARG };

struct optdef {
	const char *name;
	enum arg_kind kind;
	bool is_cmd;
	size_t off;		/* into struct opts, for non-commands */
	const char *help;
};

#define O(f) offsetof(struct opts, f)
#define CMD(n, k, h) { n, k, true, 0, h }
#define MOD(n, k, f, h) { n, k, false, O(f), h }

static const struct optdef optdefs[] = {
	CMD("config", ARG, "FILE      apply FILE (only the differences)"),
	CMD("check_config", ARG, "FILE  parse and check FILE, show what -config would do"),
	CMD("write_config", ARG, "FILE  save the running configuration (key attributes)"),
	CMD("clear_config", NOARG, "      remove all configuration (needs -force)"),
	CMD("list_handler", NOARG, "      list handlers"),
	CMD("list_device", NOARG, "       list devices"),
	CMD("list_driver", NOARG, "       list target drivers"),
	CMD("list_target", NOARG, "       list targets [-driver D]"),
	CMD("list_group", NOARG, "        list groups [-driver D] [-target T]"),
	CMD("list_sessions", NOARG, "     list sessions"),
	CMD("list_scst_attr", NOARG, "    list SCST attributes"),
	CMD("list_hnd_attr", ARG, "H      list a handler's attributes"),
	CMD("list_dev_attr", ARG, "DEV    list a device's attributes"),
	CMD("list_drv_attr", ARG, "D      list a driver's attributes"),
	CMD("list_tgt_attr", ARG, "T      list a target's attributes (-driver)"),
	CMD("list_grp_attr", ARG, "G      list a group's attributes (-driver -target)"),
	CMD("list_lun_attr", ARG, "N      list a LUN's attributes (-driver -target [-group])"),
	CMD("set_scst_attr", NOARG, "     -attributes k=v,..."),
	CMD("set_hnd_attr", ARG, "H       -attributes k=v,..."),
	CMD("set_dev_attr", ARG, "DEV     -attributes k=v,..."),
	CMD("set_drv_attr", ARG, "D       -attributes k=v,..."),
	CMD("set_tgt_attr", ARG, "T       -driver D -attributes k=v,..."),
	CMD("set_grp_attr", ARG, "G       -driver D -target T -attributes k=v,..."),
	CMD("set_lun_attr", ARG, "N       -driver D -target T [-group G] -attributes k=v,..."),
	CMD("set_init_attr", ARG, "I      -driver D -target T -group G -attributes k=v,..."),
	CMD("open_dev", ARG, "NAME        -handler H [-attributes k=v,...]"),
	CMD("close_dev", ARG, "NAME       -handler H"),
	CMD("resync_dev", ARG, "NAME      re-read the device's size"),
	CMD("add_target", ARG, "T         -driver D"),
	CMD("rem_target", ARG, "T         -driver D"),
	CMD("add_group", ARG, "G          -driver D -target T"),
	CMD("rem_group", ARG, "G          -driver D -target T"),
	CMD("add_init", ARG, "I           -driver D -target T -group G"),
	CMD("rem_init", ARG, "I           -driver D -target T -group G"),
	CMD("move_init", ARG, "I          -driver D -target T -group G -to G2"),
	CMD("clear_inits", NOARG, "       -driver D -target T -group G"),
	CMD("add_lun", ARG, "N            -driver D -target T [-group G] -device DEV [-attributes]"),
	CMD("rem_lun", ARG, "N            -driver D -target T [-group G]"),
	CMD("replace_lun", ARG, "N        -driver D -target T [-group G] -device DEV"),
	CMD("clear_luns", NOARG, "        -driver D -target T [-group G]"),
	CMD("enable_target", ARG, "T      -driver D"),
	CMD("disable_target", ARG, "T     -driver D"),
	MOD("handler", ARG, handler, "H"),
	MOD("driver", ARG, driver, "D"),
	MOD("target", ARG, target, "T"),
	MOD("group", ARG, group, "G"),
	MOD("device", ARG, device, "DEV"),
	MOD("attributes", ARG, attributes, "k=v,k=v"),
	MOD("to", ARG, to, "G2 (-move_init)"),
	MOD("force", NOARG, force, "   allow removing what is in use"),
	MOD("noprompt", NOARG, noprompt, "do not ask for confirmation"),
	MOD("cont_on_err", NOARG, cont_on_err, "go on after a failed change"),
	MOD("nonkey", NOARG, nonkey, "  -write_config: add non-key attributes as comments"),
	MOD("dry_run", NOARG, dry_run, " show the changes without making them"),
	{ NULL, NOARG, false, 0, NULL }
};

void usage(FILE *f)
{
	fprintf(f,
		"usage: scstadmin [--sysfs-root DIR] -COMMAND [ARG] [modifiers]\n"
		"\nCommands:\n");
	for (const struct optdef *d = optdefs; d->name; d++)
		if (d->is_cmd)
			fprintf(f, "  -%s %s\n", d->name, d->help);
	fprintf(f, "\nModifiers:\n");
	for (const struct optdef *d = optdefs; d->name; d++)
		if (!d->is_cmd)
			fprintf(f, "  -%s %s\n", d->name, d->help);
	fprintf(f,
		"\nThe management tree is %s, or $SCST_SYSFS_ROOT, or --sysfs-root DIR.\n"
		"Exit status: 0 ok, 1 usage, 2 configuration file error, 3 sysfs\n"
		"operation failed, 4 no such object or attribute, 5 refused (in use,\n"
		"needs -force), 6 SCST not loaded. See scstadmin(1).\n",
		SCST_DEFAULT_ROOT);
}

static int parse_args(int argc, char **argv, struct opts *o,
		      const char **root)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct optdef *d;

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
		for (d = optdefs; d->name && strcmp(d->name, a); d++)
			;
		if (!d->name) {
			fprintf(stderr, "scstadmin: unknown option '%s' (see -h)\n",
				argv[i]);
			return EXIT_USAGE;
		}
		if (d->kind == ARG && (i + 1 == argc)) {
			fprintf(stderr, "scstadmin: -%s needs an argument\n",
				d->name);
			return EXIT_USAGE;
		}
		if (d->is_cmd) {
			if (o->cmd && strcmp(o->cmd, "help")) {
				fprintf(stderr,
					"scstadmin: -%s and -%s: one command at a time\n",
					o->cmd, d->name);
				return EXIT_USAGE;
			}
			if (!o->cmd)
				o->cmd = d->name;
			if (d->kind == ARG)
				o->arg = argv[++i];
		} else if (d->kind == ARG) {
			*(const char **)((char *)o + d->off) = argv[++i];
		} else {
			*(bool *)((char *)o + d->off) = true;
		}
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *root = getenv("SCST_SYSFS_ROOT");
	int ret;

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
	o.sysfs.dry_run = o.dry_run;
	ret = run_command(&o);
	sysfs_close(&o.sysfs);
	return ret;
}
