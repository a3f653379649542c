// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin's SCST behaviours on the fake tree (test_scstadmin_harness.c:
 * ib_srpt target gid1, enabled, LUN 0 = nullio n1, group g1 with
 * initiator 0x12*):
 *
 * - -config never removes without -force: each kind of removal (device,
 *   LUN, group, initiator, enabled target, target, LUN replacement,
 *   initiator move) is left and named without it, and made with it;
 *   -check_config and -dry_run show the same plan;
 * - bad file arguments (directory, missing, unreadable, empty; the
 *   default /etc/scst.conf; -config=FILE);
 * - what SCST writes loads (root attributes, DEVICE_GROUP, HW_TARGET,
 *   HANDLER/TARGET_DRIVER not loaded, \# escapes, quoted blanks, one
 *   initiator in two groups);
 * - every SCST option (ALUA, dynamic attributes, -issue_lip, -no_lip,
 *   -debug, the optional arguments, bare-key -attributes, -version);
 * - output order through one stream, failure messages, -write_config
 *   through a symlink and atomically.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scstadmin_unit.h"

#define TOP	"HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n}\n"
#define TGT0	"TARGET_DRIVER ib_srpt {\n\tTARGET gid1 {\n\t\tenabled 1\n" \
		"\t\trel_tgt_id 1\n"
#define G1INI	"\t\tGROUP g1 {\n\t\t\tINITIATOR 0x12*\n\t\t}\n"
#define END	"\t}\n}\n"
#define SAME	TOP TGT0 "\t\tLUN 0 n1\n" G1INI END
#define IGRPS	"targets/ib_srpt/gid1/ini_groups/mgmt"
#define NULLIO	"handlers/vdisk_nullio/mgmt"
#define FORCE	"use -force to make it"

static void prep_n2(void)
{
	fake_put("devices/n2/size_mb", "32\n[key]\n");
	fake_link("handlers/vdisk_nullio/n2", "../../devices/n2");
}

static void prep_usn(void)
{
	fake_put("devices/n1/usn", "x\n");
}

static void prep_hash_key(void)
{
	fake_put("devices/n1/usn", "a#b c\\d\n[key]\n");
}

static void prep_alua(void)
{
	fake_put("device_groups/mgmt", "");
	fake_put("device_groups/dg1/devices/mgmt", "");
	fake_link("device_groups/dg1/devices/n1", "../../../devices/n1");
	fake_put("device_groups/dg1/target_groups/mgmt", "");
	fake_put("device_groups/dg1/target_groups/tg1/mgmt", "");
	fake_put("device_groups/dg1/target_groups/tg1/group_id", "1\n[key]\n");
	fake_put("device_groups/dg1/target_groups/tg1/gid1/rel_tgt_id", "1\n");
}

/* ALUA and a second device outside every device group */
static void prep_alua_n2(void)
{
	prep_alua();
	prep_n2();
}

static void prep_suspend(void)
{
	fake_put("suspend", "0\n");
	fake_put("devices/n1/active", "1\n");
}

static void prep_drv_enabled(void)
{
	fake_put("targets/ib_srpt/enabled", "1\n");
}

static void prep_dyn(void)
{
	fake_put("targets/ib_srpt/mgmt",
		 "Usage: add_attribute <attribute> <value>\n"
		 "       add_target_attribute <target> <attribute> <value>\n");
}

static const char conf_no_lun[] = TOP TGT0 G1INI END;
static const char conf_no_group[] = TOP TGT0 "\t\tLUN 0 n1\n" END;
static const char conf_no_init[] = TOP TGT0 "\t\tLUN 0 n1\n"
	"\t\tGROUP g1 {\n\t\t}\n" END;
static const char conf_disabled[] = TOP
	"TARGET_DRIVER ib_srpt {\n\tTARGET gid1 {\n\t\tenabled 0\n"
	"\t\trel_tgt_id 1\n\t\tLUN 0 n1\n" G1INI END;
static const char conf_no_dev[] = "HANDLER vdisk_nullio {\n}\n";
static const char conf_no_dev_lun[] = "HANDLER vdisk_nullio {\n}\n"
	TGT0 G1INI END;
static const char conf_replace[] = TOP
	"HANDLER vdisk_nullio {\n\tDEVICE n2 {\n\t\tsize_mb 32\n\t}\n}\n";
static const char conf_move[] = TOP TGT0 "\t\tLUN 0 n1\n"
	"\t\tGROUP g1 {\n\t\t}\n\t\tGROUP g2 {\n\t\t\tINITIATOR 0x12*\n\t\t}\n"
	END;
/* LUN 1 added while LUN 0 goes: the addition is made, the removal not */
static const char conf_swap[] = TOP TGT0 "\t\tLUN 1 n1\n" G1INI END;
static const char conf_more[] = TOP TGT0 "\t\tLUN 0 n1\n\t\tLUN 1 n1\n"
	"\t\tGROUP g1 {\n\t\t\tINITIATOR 0x12*\n\t\t\tINITIATOR 0x34*\n"
	"\t\t}\n" END;

static const struct opt_case cases[] = {
	/* writes that stop I/O are made only with -force */
	{ "suspend from the file", A("-config", "@CONF"), .prep = prep_suspend,
	  .conf = "suspend 1\n" SAME,
	  .out = "-> not made: set SCST attribute suspend=1 (suspends the I/O of every device; " FORCE ")\n" },
	{ "suspend from the file -force", A("-config", "@CONF", "-force"),
	  .prep = prep_suspend, .conf = "suspend 1\n" SAME, .file = "suspend",
	  .content = "1\n" },
	{ "device active 0 from the file", A("-config", "@CONF"),
	  .prep = prep_suspend,
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n\t\tactive 0\n\t}\n}\n"
		  TGT0 "\t\tLUN 0 n1\n" G1INI END,
	  .out = "-> not made: set device n1 attribute active=0 (stops the device's I/O; " FORCE ")\n" },
	/* item 1: each removal, without and with -force */
	{ "device not in the file", A("-config", "@CONF"), .conf = conf_no_dev,
	  .out = "-> not made: remove device n1 (vdisk_nullio), and with it LUN 0 of target gid1 (ib_srpt) (not in the configuration; " FORCE ")\n"
		 "no changes; 1 change(s) not made" },
	{ "device not in the file -force", A("-config", "@CONF", "-force"),
	  .conf = conf_no_dev, .out = "-> remove device n1 (vdisk_nullio), and with it LUN 0 of target gid1 (ib_srpt)\n",
	  .file = NULLIO, .content = "del_device n1\n" },
	{ "device and its LUN not in the file", A("-config", "@CONF"),
	  .conf = conf_no_dev_lun,
	  .out = "-> not made: remove LUN 0 (n1) from target gid1 (not in the configuration; " FORCE ")\n"
		 "-> not made: remove device n1 (vdisk_nullio) (not in" },
	{ "device and its LUN -force", A("-config", "@CONF", "-force"),
	  .conf = conf_no_dev_lun, .out = "2 change(s) made, 0 failed\n",
	  .file = LUNS, .content = "del 0\n" },
	{ "LUN not in the file", A("-config", "@CONF"), .conf = conf_no_lun,
	  .out = "-> not made: remove LUN 0 (n1) from target gid1 (not in the configuration; " FORCE ")\n" },
	{ "LUN not in the file -force", A("-config", "@CONF", "-force"),
	  .conf = conf_no_lun, .file = LUNS, .content = "del 0\n" },
	{ "group not in the file", A("-config", "@CONF"), .conf = conf_no_group,
	  .out = "-> not made: remove group g1 of gid1, and with it initiator 0x12* (not in the configuration; " FORCE ")\n" },
	{ "group not in the file -force", A("-config", "@CONF", "-force"),
	  .conf = conf_no_group, .file = IGRPS, .content = "del g1\n" },
	{ "initiator not in the file", A("-config", "@CONF"),
	  .conf = conf_no_init,
	  .out = "-> not made: remove initiator 0x12* from group g1 of gid1 (not in the configuration; " FORCE ")\n" },
	{ "initiator not in the file -force", A("-config", "@CONF", "-force"),
	  .conf = conf_no_init, .file = G1 "initiators/mgmt",
	  .content = "del 0x12*\n" },
	{ "enabled target disabled by the file", A("-config", "@CONF"),
	  .conf = conf_disabled,
	  .out = "-> not made: disable target gid1 (ib_srpt) (not in the configuration; " FORCE ")\n" },
	{ "enabled target disabled -force", A("-config", "@CONF", "-force"),
	  .conf = conf_disabled, .file = "targets/ib_srpt/gid1/enabled",
	  .content = "0\n" },
	{ "target not in the file", A("-config", "@CONF"), .prep = prep_local,
	  .conf = SAME "TARGET_DRIVER scst_local {\n}\n",
	  .out = "-> not made: remove target loc1 (scst_local) (not in the configuration; " FORCE ")\n" },
	{ "target not in the file -force", A("-config", "@CONF", "-force"),
	  .prep = prep_local, .conf = SAME "TARGET_DRIVER scst_local {\n}\n",
	  .file = "targets/scst_local/mgmt",
	  .content = "Usage: echo \"add_target target_name\" >mgmt\ndel_target loc1\n" },
	{ "LUN of another device", A("-config", "@CONF"), .prep = prep_n2,
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n"
		  "\tDEVICE n2 {\n\t\tsize_mb 32\n\t}\n}\n"
		  TGT0 "\t\tLUN 0 n2\n" G1INI END,
	  .out = "-> not made: replace LUN 0 of target gid1: n1 -> n2 (not in the configuration; " FORCE ")\n" },
	{ "LUN of another device -force", A("-config", "@CONF", "-force"),
	  .prep = prep_n2,
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n"
		  "\tDEVICE n2 {\n\t\tsize_mb 32\n\t}\n}\n"
		  TGT0 "\t\tLUN 0 n2\n" G1INI END,
	  .file = LUNS, .content = "replace n2 0\n" },
	{ "initiator moves", A("-config", "@CONF"), .prep = prep_g2,
	  .conf = conf_move,
	  .out = "-> not made: move initiator 0x12* from group g1 to group g2 of gid1 (not in the configuration; " FORCE ")\n" },
	{ "initiator moves -force", A("-config", "@CONF", "-force"),
	  .prep = prep_g2, .conf = conf_move, .file = G1 "initiators/mgmt",
	  .content = "move 0x12* g2\n" },
	{ "additions made, removals held", A("-config", "@CONF"),
	  .conf = conf_swap, .file = LUNS, .content = "add n1 1\n",
	  .out = "-> not made: remove LUN 0 (n1) from target gid1" },
	{ "check_config marks what needs -force",
	  A("-check_config", "@CONF"), .conf = conf_swap,
	  .out = "would remove LUN 0 (n1) from target gid1 [needs -force: not in the configuration]\n"
		 "would add LUN 1 (n1) to target gid1\n"
		 "would make 2 change(s), 1 of them only with -force\n" },
	{ "dry_run shows the same plan", A("-config", "@CONF", "-dry_run"),
	  .conf = conf_swap,
	  .out = "-> not made: remove LUN 0 (n1) from target gid1 (not in the configuration; " FORCE ")\n"
		 "-> add LUN 1 (n1) to target gid1 (dry run)\n"
		 "dry run: would make 1 change(s); 1 change(s) not made" },
	{ "dry_run -force", A("-config", "@CONF", "-dry_run", "-force"),
	  .conf = conf_swap, .out = "dry run: would make 2 change(s)\n" },
	{ "two HANDLER sections of one handler",
	  A("-config", "@CONF"), .conf = conf_replace, .prep = prep_n2,
	  .rc = EXIT_CONFIG, .err = "duplicate HANDLER 'vdisk_nullio'" },
	/* item 2: file arguments */
	{ "config of a directory", A("-config", "/tmp"), .rc = EXIT_CONFIG,
	  .err = "/tmp: is a directory, expected a configuration file" },
	{ "check_config of a directory", A("-check_config", "/"),
	  .rc = EXIT_CONFIG, .err = "/: is a directory" },
	{ "config of a device file", A("-config", "/dev/null"),
	  .rc = EXIT_CONFIG, .err = "/dev/null: not a regular file" },
	{ "config of an empty file", A("-config", "@CONF"), .conf = "",
	  .rc = EXIT_CONFIG,
	  .err = "the file is empty: as a configuration it removes every device, target, LUN and group; use -force to apply it anyway" },
	/* a check only reports: the plan, exit 0 */
	{ "check_config of a file of comments",
	  A("-check_config", "@CONF"), .conf = "# nothing\n\n",
	  .out = "empty configuration: -config would remove everything, and needs -force\n" },
	{ "check_config of an empty file: the plan",
	  A("-check_config", "@CONF"), .conf = "",
	  .out = "would remove device n1" },
	/* -force with an empty file is -clear_config: it asks the same */
	{ "config of an empty file -force asks and is refused",
	  A("-config", "@CONF", "-force"), .conf = "",
	  .env = { .tty = "n\n" }, .rc = EXIT_INUSE,
	  .out = "Remove all SCST configuration? [y/N] ", .err = "aborted" },
	{ "config of an empty file -force asks and goes on",
	  A("-config", "@CONF", "-force"), .conf = "",
	  .env = { .tty = "y\n" }, .out = "Remove all SCST configuration? [y/N] ",
	  .err = "is empty: with -force this removes the whole configuration",
	  .file = NULLIO, .content = "del_device n1\n" },
	{ "config of an empty file -force", A("-config", "@CONF", "-force"),
	  .conf = "", .err = "is empty: with -force this removes the whole configuration",
	  .out = "-> remove device n1", .file = NULLIO,
	  .content = "del_device n1\n" },
	{ "config defaults to /etc/scst.conf", A("-check_config"),
	  .rc = EXIT_CONFIG, .err = "/etc/scst.conf: " },
	{ "config without a file before a modifier", A("-config", "-dry_run"),
	  .rc = EXIT_CONFIG, .err = "/etc/scst.conf: " },
	{ "config=FILE", A("-config=@CONF"), .conf = conf_swap,
	  .file = LUNS, .content = "add n1 1\n" },
	{ "check_config=FILE", A("--check_config=@CONF"), .conf = SAME,
	  .out = "would make 0 change(s)" },
	{ "=value on a flag", A("-force=1"), .rc = EXIT_USAGE,
	  .err = "-force takes no argument" },
	/* item 3: what SCST writes */
	{ "root attributes", A("-config", "@CONF"),
	  .conf = "setup_id 0x0\ncluster_name c1\nasync_lun_replace 1\n" SAME,
	  .rc = EXIT_WARN, .out = "no changes",
	  .err = "warning: SCST has no attribute 'cluster_name'; ignored" },
	{ "DEVICE_GROUP without ALUA", A("-config", "@CONF"),
	  .conf = SAME "DEVICE_GROUP dg1 {\n\tDEVICE n1\n\n"
		  "\tTARGET_GROUP tg1 {\n\t\tgroup_id 1\n\t\tstate active\n\n"
		  "\t\tTARGET gid1\n\t\tTARGET other {\n\t\t\trel_tgt_id 2\n"
		  "\t\t}\n\t}\n}\n",
	  .rc = EXIT_WARN, .out = "no changes",
	  .err = "warning: ALUA not supported by the running modules (no device_groups in the management tree): DEVICE_GROUP dg1 (line 16) skipped" },
	{ "DEVICE_GROUP of an unknown device", A("-check_config", "@CONF"),
	  .conf = SAME "DEVICE_GROUP dg1 {\n\tDEVICE nodev\n}\n",
	  .rc = EXIT_CONFIG,
	  .err = ".conf:17:2: DEVICE_GROUP 'dg1' names unknown device 'nodev'" },
	{ "HW_TARGET", A("-config", "@CONF"),
	  .conf = TOP "TARGET_DRIVER ib_srpt {\n\tTARGET gid1 {\n\t\tHW_TARGET\n\n"
		  "\t\tenabled 1\n\t\trel_tgt_id 1\n\t\tLUN 0 n1\n" G1INI END,
	  .out = "no changes" },
	{ "HW_TARGET that does not exist", A("-config", "@CONF"),
	  .prep = prep_local,
	  .conf = "TARGET_DRIVER scst_local {\n\tTARGET hw9 {\n\t\tHW_TARGET\n\t}\n}\n",
	  .rc = EXIT_NOTFOUND,
	  .err = "target 'hw9' of driver 'scst_local' does not exist and it is a HW_TARGET" },
	{ "handler not loaded: its LUNs skipped too", A("-config", "@CONF"),
	  .conf = TOP "HANDLER vdisk_fileio {\n\tDEVICE f1\n}\n" TGT0
		  "\t\tLUN 0 n1\n\t\tLUN 1 f1\n" G1INI END,
	  .rc = EXIT_WARN, .out = "no changes",
	  .err = "warning: LUN 1 (f1) of target gid1 skipped: the handler of device 'f1' is not loaded" },
	{ "copy_manager not loaded is a note", A("-config", "@CONF"),
	  .conf = SAME "TARGET_DRIVER copy_manager {\n\tTARGET copy_manager_tgt\n}\n",
	  .out = "no changes", .err = "scstadmin: note: driver 'copy_manager' is not loaded; its section is skipped" },
	{ "quoted value with blanks and \\#", A("-config", "@CONF"),
	  .prep = prep_usn,
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n"
		  "\t\tusn \"a\\#b c\"\n\t}\n}\n" TGT0 "\t\tLUN 0 n1\n" G1INI END,
	  .file = "devices/n1/usn", .content = "a#b c\n" },
	{ "unquoted \\# and \\\\", A("-config", "@CONF"), .prep = prep_usn,
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n"
		  "\t\tusn a\\#b\\\\c # a comment\n\t}\n}\n" TGT0 "\t\tLUN 0 n1\n"
		  G1INI END,
	  .file = "devices/n1/usn", .content = "a#b\\c\n" },
	{ "write_config escapes # and \\ as SCST", A("-write_config", "-"),
	  .prep = prep_hash_key, .out = "\t\tusn \"a\\#b c\\\\d\"\n" },
	{ "creation parameter with a blank", A("-config", "@CONF"),
	  .prep = prep_fileio,
	  .conf = "HANDLER vdisk_fileio {\n\tDEVICE f2 {\n\t\tfilename \"/a b\"\n"
		  "\t}\n}\n",
	  .rc = EXIT_CONFIG,
	  .err = ".conf:3:3: the value of 'filename' ('/a b') contains a blank or ';', which the kernel cannot take in add_device parameters (nothing changed)" },
	{ "initiator in two groups", A("-check_config", "@CONF"),
	  .conf = TOP TGT0 G1INI "\t\tGROUP g2 {\n\t\t\tINITIATOR 0x12*\n\t\t}\n"
		  END,
	  .rc = EXIT_CONFIG,
	  .err = ".conf:14:4: initiator '0x12*' is in GROUP 'g2' and in GROUP 'g1' (line 10) of TARGET 'gid1'" },
	/* item 4: options */
	{ "open_dev bare key is key=1",
	  A("-open_dev", "f2", "-handler", "vdisk_fileio", "-attributes",
	    "filename=/x,read_only"), .prep = prep_fileio,
	  .file = "handlers/vdisk_fileio/mgmt",
	  .content = FAKE_FILEIO_USAGE "add_device f2 filename=/x;read_only=1\n" },
	{ "open_dev unknown parameter",
	  A("-open_dev", "f2", "-handler", "vdisk_fileio", "-attributes",
	    "filename=/x,bogus=1"), .prep = prep_fileio, .rc = EXIT_NOTFOUND,
	  .err = "handler 'vdisk_fileio' has no device parameter 'bogus' (it publishes: filename, blocksize, read_only)" },
	{ "open_dev duplicate parameter",
	  A("-open_dev", "f2", "-handler", "vdisk_fileio", "-attributes",
	    "read_only=1;read_only=0"), .prep = prep_fileio, .rc = EXIT_USAGE,
	  .err = "attribute 'read_only' given twice in -attributes" },
	{ "set_dev_attr duplicate",
	  A("-set_dev_attr", "n1", "-attributes", "blocksize=512,blocksize=4096"),
	  .rc = EXIT_USAGE, .err = "attribute 'blocksize' given twice" },
	{ "add_lun bare key", A("-add_lun", "1", DT, "-device", "n1",
				"-attributes", "read_only"),
	  .file = LUNS, .content = "add n1 1 read_only=1\n" },
	{ "list_dgrp without ALUA", A("-list_dgrp"), .rc = EXIT_NOTSUPP,
	  .err = "-list_dgrp: ALUA (device and target groups) is not supported by the running modules" },
	{ "add_dgrp without ALUA", A("-add_dgrp", "dg1"), .rc = EXIT_NOTSUPP,
	  .err = "is not supported by the running modules" },
	{ "set_ttgt_attr without ALUA",
	  A("-set_ttgt_attr", "gid1", "-dev_group", "dg1", "-tgt_group", "tg1",
	    "-attributes", "rel_tgt_id=2"), .rc = EXIT_NOTSUPP,
	  .err = "is not supported by the running modules" },
	{ "add_dgrp", A("-add_dgrp", "dg2"), .prep = prep_alua,
	  .file = "device_groups/mgmt", .content = "create dg2\n" },
	{ "rem_dgrp", A("-rem_dgrp", "dg1"), .prep = prep_alua,
	  .file = "device_groups/mgmt", .content = "del dg1\n" },
	{ "add_dgrp_dev", A("-add_dgrp_dev", "n2", "-dev_group", "dg1"),
	  .prep = prep_alua_n2, .file = "device_groups/dg1/devices/mgmt",
	  .content = "add n2\n" },
	{ "add_dgrp_dev unknown device",
	  A("-add_dgrp_dev", "nodev", "-dev_group", "dg1"), .prep = prep_alua,
	  .rc = EXIT_NOTFOUND, .err = "device 'nodev' does not exist" },
	{ "rem_dgrp_dev", A("-rem_dgrp_dev", "n1", "-dev_group", "dg1"),
	  .prep = prep_alua, .file = "device_groups/dg1/devices/mgmt",
	  .content = "del n1\n" },
	{ "add_tgrp", A("-add_tgrp", "tg2", "-dev_group", "dg1"),
	  .prep = prep_alua, .file = "device_groups/dg1/target_groups/mgmt",
	  .content = "create tg2\n" },
	{ "rem_tgrp unknown dev_group", A("-rem_tgrp", "tg1", "-dev_group", "x"),
	  .prep = prep_alua, .rc = EXIT_NOTFOUND,
	  .err = "device group 'x' does not exist" },
	{ "rem_tgrp", A("-rem_tgrp", "tg1", "-dev_group", "dg1"),
	  .prep = prep_alua, .file = "device_groups/dg1/target_groups/mgmt",
	  .content = "del tg1\n" },
	{ "add_tgrp_tgt", A("-add_tgrp_tgt", "t2", "-dev_group", "dg1",
			    "-tgt_group", "tg1"), .prep = prep_alua,
	  .file = "device_groups/dg1/target_groups/tg1/mgmt",
	  .content = "add t2\n" },
	{ "rem_tgrp_tgt", A("-rem_tgrp_tgt", "gid1", "-dev_group", "dg1",
			    "-tgt_group", "tg1"), .prep = prep_alua,
	  .file = "device_groups/dg1/target_groups/tg1/mgmt",
	  .content = "del gid1\n" },
	{ "rem_tgrp_tgt without -tgt_group",
	  A("-rem_tgrp_tgt", "gid1", "-dev_group", "dg1"), .prep = prep_alua,
	  .rc = EXIT_USAGE, .err = "-rem_tgrp_tgt needs -tgt_group" },
	{ "list_dgrp", A("-list_dgrp"), .prep = prep_alua,
	  .out = "Device group: dg1\n\tDevice: n1\n\tTarget group: tg1\n" },
	{ "list_tgrp", A("-list_tgrp", "tg1", "-dev_group", "dg1"),
	  .prep = prep_alua, .out = "\tTarget group: tg1\n\t\tTarget: gid1\n" },
	{ "list_dgrp_attr", A("-list_dgrp_attr", "dg1"), .prep = prep_alua,
	  .out = "(none)" },
	{ "list_tgrp_attr", A("-list_tgrp_attr", "tg1", "-dev_group", "dg1"),
	  .prep = prep_alua, .out = "group_id                       1" },
	{ "list_ttgt_attr", A("-list_ttgt_attr", "gid1", "-dev_group", "dg1",
			      "-tgt_group", "tg1", "-nonkey"),
	  .prep = prep_alua, .out = "rel_tgt_id                     1" },
	{ "set_dgrp_attr unknown attribute",
	  A("-set_dgrp_attr", "dg1", "-attributes", "x=1"), .prep = prep_alua,
	  .rc = EXIT_NOTFOUND, .err = "device group 'dg1' has no attribute 'x'" },
	{ "set_tgrp_attr", A("-set_tgrp_attr", "tg1", "-dev_group", "dg1",
			     "-attributes", "group_id=2"), .prep = prep_alua,
	  .file = "device_groups/dg1/target_groups/tg1/group_id",
	  .content = "2\n" },
	{ "set_ttgt_attr", A("-set_ttgt_attr", "gid1", "-dev_group", "dg1",
			     "-tgt_group", "tg1", "-attributes", "rel_tgt_id=3"),
	  .prep = prep_alua,
	  .file = "device_groups/dg1/target_groups/tg1/gid1/rel_tgt_id",
	  .content = "3\n" },
	{ "write_config DEVICE_GROUP", A("-write_config", "-"),
	  .prep = prep_alua,
	  .out = "DEVICE_GROUP dg1 {\n\tDEVICE n1\n\n\tTARGET_GROUP tg1 {\n"
		 "\t\tgroup_id 1\n\t\tTARGET gid1\n\t}\n}\n" },
	{ "config DEVICE_GROUP with ALUA: same", A("-config", "@CONF"),
	  .prep = prep_alua,
	  .conf = SAME "DEVICE_GROUP dg1 {\n\tDEVICE n1\n\tTARGET_GROUP tg1 {\n"
		  "\t\tgroup_id 1\n\t\tTARGET gid1 {\n\t\t\trel_tgt_id 1\n"
		  "\t\t}\n\t}\n}\n",
	  .out = "no changes" },
	{ "config DEVICE_GROUP with ALUA: additions", A("-config", "@CONF"),
	  .prep = prep_alua,
	  .conf = SAME "DEVICE_GROUP dg1 {\n\tDEVICE n1\n\tTARGET_GROUP tg1 {\n"
		  "\t\tgroup_id 1\n\t\tTARGET gid1\n\t}\n"
		  "\tTARGET_GROUP tg2 {\n\t}\n}\n",
	  .out = "-> add target group tg2\n",
	  .file = "device_groups/dg1/target_groups/mgmt",
	  .content = "create tg2\n" },
	{ "config without the live DEVICE_GROUP", A("-config", "@CONF"),
	  .prep = prep_alua, .conf = SAME,
	  .out = "-> not made: remove device group dg1, and with it device(s) n1; target group(s) tg1 (1 target(s)) (not in the configuration; " FORCE ")\n" },
	{ "config without the live TARGET_GROUP", A("-config", "@CONF"),
	  .prep = prep_alua,
	  .conf = SAME "DEVICE_GROUP dg1 {\n\tDEVICE n1\n}\n",
	  .out = "-> not made: remove target group tg1 of device group dg1, and with it target(s) gid1 (not in the configuration; " FORCE ")\n" },
	{ "driver disabled by the file", A("-config", "@CONF"),
	  .prep = prep_drv_enabled,
	  .conf = TOP "TARGET_DRIVER ib_srpt {\n\tenabled 0\n\tTARGET gid1 {\n\t\tenabled 1\n"
		  "\t\trel_tgt_id 1\n\t\tLUN 0 n1\n" G1INI END,
	  .out = "-> not made: set driver ib_srpt enabled=0: its targets stop and their sessions end: gid1 (0 session(s)) (not in the configuration; " FORCE ")\n" },
	{ "config without the live DEVICE_GROUP -force",
	  A("-config", "@CONF", "-force"), .prep = prep_alua, .conf = SAME,
	  .file = "device_groups/mgmt", .content = "del dg1\n" },
	{ "add_drv_attr unsupported",
	  A("-add_drv_attr", "ib_srpt", "-attributes", "x=1"),
	  .rc = EXIT_NOTSUPP,
	  .err = "-add_drv_attr: driver 'ib_srpt' has no dynamic driver attributes (its mgmt does not list add_attribute)" },
	{ "add_drv_attr", A("-add_drv_attr", "ib_srpt", "-attributes", "x=1"),
	  .prep = prep_dyn, .file = "targets/ib_srpt/mgmt",
	  .content = "Usage: add_attribute <attribute> <value>\n"
		     "       add_target_attribute <target> <attribute> <value>\n"
		     "add_attribute x 1\n" },
	{ "rem_drv_attr", A("-rem_drv_attr", "ib_srpt", "-attributes", "x=1"),
	  .prep = prep_dyn, .file = "targets/ib_srpt/mgmt",
	  .content = "Usage: add_attribute <attribute> <value>\n"
		     "       add_target_attribute <target> <attribute> <value>\n"
		     "del_attribute x 1\n" },
	{ "add_tgt_attr", A("-add_tgt_attr", "gid1", "-driver", "ib_srpt",
			    "-attributes", "y=2"), .prep = prep_dyn,
	  .file = "targets/ib_srpt/mgmt",
	  .content = "Usage: add_attribute <attribute> <value>\n"
		     "       add_target_attribute <target> <attribute> <value>\n"
		     "add_target_attribute gid1 y 2\n" },
	{ "rem_tgt_attr unknown target",
	  A("-rem_tgt_attr", "nogid", "-driver", "ib_srpt", "-attributes", "y=2"),
	  .prep = prep_dyn, .rc = EXIT_NOTFOUND,
	  .err = "target 'nogid' does not exist" },
	{ "issue_lip", A("-issue_lip"), .out = "nothing to do" },
	{ "issue_lip target", A("-issue_lip", "gid1", "-driver", "ib_srpt"),
	  .out = "nothing to do" },
	{ "issue_lip unknown driver", A("-issue_lip", "gid1", "-driver", "x"),
	  .rc = EXIT_NOTFOUND, .err = "driver 'x' is not loaded" },
	{ "no_lip", A("-add_lun", "1", DT, "-device", "n1", "-no_lip"),
	  .file = LUNS, .content = "add n1 1\n" },
	{ "debug changes nothing", A("-add_lun", "1", DT, "-device", "n1",
				     "-debug"),
	  .out = "would write 'add n1 1' to " LUNS },
	{ "version", A("-version"),
	  .out = "scstadmin " SCSTADMIN_VERSION " (scst-ng)\nSCST kernel modules: 3.11.0" },
	{ "--version without SCST", A("--version"), .env = NOSCST,
	  .out = "SCST kernel modules: not loaded" },
	{ "list_handler NAME", A("-list_handler", "vdisk_nullio"),
	  .out = "vdisk_nullio             n1\n" },
	{ "list_handler unknown", A("-list_handler", "x"), .rc = EXIT_NOTFOUND,
	  .err = "handler 'x' is not loaded" },
	{ "list_driver NAME", A("-list_driver", "ib_srpt"),
	  .out = "ib_srpt                  gid1\n" },
	{ "list_target NAME", A("-list_target", "gid1", "-driver", "ib_srpt"),
	  .out = "\tTarget: gid1 (enabled)\n\t\tLUN 0     n1\n" },
	{ "list_target NAME unknown",
	  A("-list_target", "nogid", "-driver", "ib_srpt"), .rc = EXIT_NOTFOUND,
	  .err = "target 'nogid' of driver 'ib_srpt' does not exist" },
	{ "list_group NAME", A("-list_group", "g1", DT),
	  .out = "\t\tGroup: g1\n\t\t\tINITIATOR 0x12*\n" },
	{ "list_group NAME without -target", A("-list_group", "g1"),
	  .rc = EXIT_USAGE, .err = "-list_group needs -target" },
	/* item 8: -tsv */
	{ "list_target -tsv", A("-list_target", "-tsv"),
	  .out = "target\tib_srpt\tgid1\t1\nlun\tib_srpt\tgid1\t0\tn1\n" },
	{ "list_group -tsv", A("-list_group", DT, "-tsv"),
	  .out = "group\tib_srpt\tgid1\tg1\ninitiator\tib_srpt\tgid1\tg1\t0x12*\n" },
	{ "list_device -tsv", A("-list_device", "-tsv"),
	  .out = "device\tn1\tvdisk_nullio\n", .not_out = "Handler" },
	{ "list_dev_attr -tsv", A("-list_dev_attr", "n1", "-tsv"),
	  .out = "attr\tsize_mb\t64\t1\t1\n", .not_out = "Attribute" },
	{ "list_handler -tsv", A("-list_handler", "-tsv"),
	  .out = "handler\tvdisk_nullio\t1\n" },
	/* item 6: messages in order, in one stream */
	{ "failure next to its change, not attempted listed",
	  A("-config", "@CONF"), .conf = conf_more, .prep = prep_no_init_mgmt,
	  .env = { .merged = true }, .rc = EXIT_SYSFS,
	  .out = "-> add initiator 0x34* to group g1 of gid1\n"
		 "scstadmin: failed to add initiator 0x34* to group g1 of gid1: writing mgmt command 'add 0x34*' to ",
	  .file = LUNS, .content = "" },
	{ "not attempted after a failure", A("-config", "@CONF"),
	  .conf = conf_more, .prep = prep_no_init_mgmt, .env = { .merged = true },
	  .rc = EXIT_SYSFS,
	  .out = ": No such file or directory (see last_sysfs_mgmt_res for the reason)\n"
		 "scstadmin: stopped at the failure (no -cont_on_err); 1 planned change(s) not attempted:\n"
		 "\tadd LUN 1 (n1) to target gid1\n"
		 "0 change(s) made, 1 failed\n",
	  .file = LUNS, .content = "" },
	{ "single command failure names the command",
	  A("-add_init", "x", DTG), .prep = prep_no_init_mgmt,
	  .rc = EXIT_SYSFS,
	  .err = "writing mgmt command 'add x' to " },
	{ "names checked before any write",
	  A("-add_lun", "1", "-driver", "nodrv", "-target", "t", "-device", "n1"),
	  .rc = EXIT_NOTFOUND, .err = "driver 'nodrv' is not loaded" },
};

/*
 * The runs as nobody (uid 65534) must reach the binary, but the clone may
 * live under a directory nobody cannot enter (/root is 0700 on Debian, so
 * is a mktemp -d): they run a copy in a directory of its own under /tmp
 * (0711: nobody may enter it, not list it), made at the first such run and
 * removed when the tests end. The fake trees are in /tmp already.
 */
static char nobody_dir[64], nobody_path[96];

static const char *nobody_bin(void)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	if (nobody_path[0])
		return nobody_path;
	snprintf(nobody_dir, sizeof(nobody_dir), "/tmp/scstadmin-bin.XXXXXX");
	assert_non_null(mkdtemp(nobody_dir));
	assert_int_equal(chmod(nobody_dir, 0711), 0);
	snprintf(nobody_path, sizeof(nobody_path), "%s/scstadmin", nobody_dir);
	in = open(SCSTADMIN_BIN, O_RDONLY);
	assert_true(in >= 0);
	out = open(nobody_path, O_WRONLY | O_CREAT | O_EXCL, 0755);
	assert_true(out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	assert_int_equal(n, 0);
	close(in);
	assert_int_equal(fchmod(out, 0755), 0);
	assert_int_equal(close(out), 0);
	return nobody_path;
}

static void nobody_bin_remove(void)
{
	if (nobody_path[0])
		unlink(nobody_path);
	if (nobody_dir[0])
		rmdir(nobody_dir);
}

/* -config of a file it may not read: an error, nothing changes. */
static void test_unreadable(void **state)
{
	const char *path = fake_conf(SAME);
	const struct run_env env = { .nobody = true, .bin = nobody_bin() };
	const char *args[] = { "-config", path, NULL };
	struct res r;

	(void)state;
	assert_int_equal(chmod(path, 0), 0);
	r = run_argv(&env, args);
	EXPECT(r, EXIT_CONFIG, ": cannot read it: Permission denied");
	res_free(&r);
}

/* Entries of @dir whose name starts with '.': leftover temporary files. */
static int hidden_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") &&
		     strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* Through a symlink: the target is replaced, mode and owner kept. */
static void test_write_config_symlink(void **state)
{
	char dir[300], real[340], link[340];
	struct stat st;
	struct res r;
	char *text;

	(void)state;
	snprintf(dir, sizeof(dir), "%s.d", fake_root);
	snprintf(real, sizeof(real), "%s/real.conf", dir);
	snprintf(link, sizeof(link), "%s/scst.conf", dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	text = xstrdup("old\n");
	{
		FILE *f = fopen(real, "w");

		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
	assert_int_equal(chmod(real, 0640), 0);
	assert_int_equal(chown(real, 123, 456), 0);
	assert_int_equal(symlink("real.conf", link), 0);
	r = run("-write_config", link, NULL);
	if (r.rc || !strstr(r.out, "configuration written to "))
		fail_msg("rc %d, out '%s', err '%s'", r.rc, r.out, r.err);
	res_free(&r);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(real, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(st.st_uid, 123);
	assert_int_equal(st.st_gid, 456);
	free(text);
	text = slurp(real);
	assert_non_null(strstr(text, "# Automatically generated by scstadmin"));
	assert_non_null(strstr(text, "\tDEVICE n1 {\n"));
	assert_int_equal(hidden_files(dir), 0);
	free(text);
	snprintf(link, sizeof(link), "rm -rf '%s'", dir);
	assert_int_equal(system(link), 0);
}

/*
 * A chain of dangling links (a -> b -> missing): the file at its end is
 * created, every link stays; a loop of links is ELOOP, nothing written.
 */
static void test_write_config_dangling_chain(void **state)
{
	char dir[300], a[340], b[340], end[340], cmd[400];
	struct stat st;
	struct res r;
	char *text;

	(void)state;
	snprintf(dir, sizeof(dir), "%s.d", fake_root);
	snprintf(a, sizeof(a), "%s/a.conf", dir);
	snprintf(b, sizeof(b), "%s/b.conf", dir);
	snprintf(end, sizeof(end), "%s/missing.conf", dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(symlink("b.conf", a), 0);
	assert_int_equal(symlink("missing.conf", b), 0);
	r = run("-write_config", a, NULL);
	if (r.rc || !strstr(r.out, "configuration written to "))
		fail_msg("rc %d, out '%s', err '%s'", r.rc, r.out, r.err);
	res_free(&r);
	assert_int_equal(lstat(a, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(b, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(end, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	text = slurp(end);
	assert_non_null(strstr(text, "\tDEVICE n1 {\n"));
	free(text);
	/* a loop */
	assert_int_equal(unlink(b), 0);
	assert_int_equal(symlink("a.conf", b), 0);
	r = run("-write_config", a, NULL);
	EXPECT(r, EXIT_SYSFS, "Too many levels of symbolic links");
	res_free(&r);
	assert_int_equal(hidden_files(dir), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* ROOT.d (mode @mode) holding scst.conf with "old\n": @dir and @file. */
static void old_conf(char *dir, size_t dlen, char *file, size_t flen,
		     mode_t mode)
{
	FILE *f;

	snprintf(dir, dlen, "%s.d", fake_root);
	snprintf(file, flen, "%s/scst.conf", dir);
	assert_int_equal(mkdir(dir, mode), 0);
	assert_int_equal(chmod(dir, mode), 0);
	f = fopen(file, "w");
	assert_non_null(f);
	fputs("old\n", f);
	fclose(f);
}

/*
 * A user who may not give the new file the old one's group (EPERM): a
 * warning naming the owner it gets, not a failure.
 */
static void test_write_config_owner_eperm(void **state)
{
	char dir[300], file[340], cmd[400];
	const struct run_env env = { .nobody = true, .bin = nobody_bin() };
	const char *args[] = { "-write_config", file, NULL };
	struct stat st;
	struct res r;
	char *text;

	(void)state;
	old_conf(dir, sizeof(dir), file, sizeof(file), 0777);
	assert_int_equal(chown(file, 65534, 123), 0);
	assert_int_equal(chmod(fake_root, 0755), 0);
	r = run_argv(&env, args);
	if (r.rc || !strstr(r.err, "warning: cannot keep the owner 65534:123"))
		fail_msg("rc %d, out '%s', err '%s'", r.rc, r.out, r.err);
	res_free(&r);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_uid, 65534);
	text = slurp(file);
	assert_non_null(strstr(text, "\tDEVICE n1 {\n"));
	free(text);
	assert_int_equal(hidden_files(dir), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* A directory it may not write: the error, and the old file unchanged. */
static void test_write_config_readonly(void **state)
{
	char dir[300], file[340], cmd[400];
	const struct run_env env = { .nobody = true, .bin = nobody_bin() };
	const char *args[] = { "-write_config", file, NULL };
	struct res r;
	char *text;

	(void)state;
	old_conf(dir, sizeof(dir), file, sizeof(file), 0755);
	assert_int_equal(chmod(file, 0666), 0);
	/* nobody must read the tree; not write the directory */
	assert_int_equal(chmod(fake_root, 0755), 0);
	r = run_argv(&env, args);
	EXPECT(r, EXIT_SYSFS, "Permission denied (the file is unchanged)");
	res_free(&r);
	text = slurp(file);
	assert_string_equal(text, "old\n");
	free(text);
	assert_int_equal(hidden_files(dir), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest extra[] = {
		cmocka_unit_test_setup_teardown(test_unreadable, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_write_config_symlink,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_write_config_dangling_chain,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_write_config_owner_eperm,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_write_config_readonly,
						fake_setup, fake_teardown),
	};

	int ret = run_cases("scstadmin_safety", cases,
			    sizeof(cases) / sizeof(cases[0]), extra,
			    sizeof(extra) / sizeof(extra[0]));

	nobody_bin_remove();
	return ret;
}
