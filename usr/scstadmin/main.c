// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: command line. Options have SCST's names, one '-' and an
 * argument in the next word; exactly one command option per run.
 */
#include <stdlib.h>
#include <string.h>

#include "opts.h"

/** struct optdef - one option: a command (exactly one a run) or a modifier */
struct optdef {
	const char *name;
	const char *arg;	/* its argument's name in -h, NULL: none */
	bool is_cmd;
	size_t off;		/* into struct opts, for modifiers */
	const char *help;
};

#define O(f) offsetof(struct opts, f)
#define CMD(n, a, h) { n, a, true, 0, h }
#define MOD(n, a, f, h) { n, a, false, O(f), h }

static const struct optdef optdefs[] = {
	CMD("config", "FILE", "apply FILE (only the differences)"),
	CMD("check_config", "FILE", "parse and check FILE, show what -config would do"),
	CMD("write_config", "FILE", "save the running configuration (key attributes; - for stdout)"),
	CMD("clear_config", NULL, "remove all configuration (needs -force)"),
	CMD("list_handler", NULL, "list handlers"),
	CMD("list_device", NULL, "list devices"),
	CMD("list_driver", NULL, "list target drivers"),
	CMD("list_target", NULL, "list targets and their LUNs [-driver D [-target T]]"),
	CMD("list_group", NULL, "list groups [-driver D [-target T]]"),
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
	CMD("close_session", "NAME", "-driver D -target T: close it (the initiator may log in again)"),
	MOD("handler", "H", handler, "the device handler"),
	MOD("driver", "D", driver, "the target driver"),
	MOD("target", "T", target, "the target"),
	MOD("group", "G", group, "the initiator group"),
	MOD("device", "DEV", device, "the device of a LUN"),
	MOD("attributes", "k=v,...", attributes, "attributes or add_device/LUN parameters"),
	MOD("to", "G2", to, "-move_init: the group to move to"),
	MOD("force", NULL, force, "remove what is in use; -config: re-open changed devices"),
	MOD("noprompt", NULL, noprompt, "do not ask for confirmation"),
	MOD("cont_on_err", NULL, cont_on_err, "go on after a failed change (exit status still 3)"),
	MOD("nonkey", NULL, nonkey, "non-key attributes too (-write_config: as comments)"),
	MOD("dry_run", NULL, dry_run, "show the changes without making them"),
	{ NULL, NULL, false, 0, NULL }
};

static void usage_line(FILE *f, const char *name, const char *arg,
		       const char *help)
{
	int n = fprintf(f, "  -%s%s%s", name, arg ? " " : "", arg ? arg : "");

	fprintf(f, "%*s%s\n", n < 24 ? 24 - n : 1, "", help);
}

void usage(FILE *f)
{
	fprintf(f,
		"usage: scstadmin [--sysfs-root DIR] -COMMAND [ARG] [modifiers]\n"
		"\nCommands:\n");
	for (const struct optdef *d = optdefs; d->name; d++)
		if (d->is_cmd)
			usage_line(f, d->name, d->arg, d->help);
	usage_line(f, "h, -help", NULL, "show this help");
	fprintf(f, "\nModifiers:\n");
	for (const struct optdef *d = optdefs; d->name; d++)
		if (!d->is_cmd)
			usage_line(f, d->name, d->arg, d->help);
	usage_line(f, "sysfs_root", "DIR",
		   "the management tree (also --sysfs-root, $SCST_SYSFS_ROOT)");
	fprintf(f,
		"\nThe management tree is %s unless given.\n"
		"Exit status: 0 ok, 1 usage, 2 configuration file error, 3 sysfs\n"
		"write failed, 4 no such object or attribute, 5 refused (in use,\n"
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
		if (d->arg && (i + 1 == argc)) {
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
			if (d->arg)
				o->arg = argv[++i];
		} else if (d->arg) {
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
