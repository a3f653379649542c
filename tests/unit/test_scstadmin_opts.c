// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every scstadmin option, one table row a case, each its own cmocka test:
 * at least one run that succeeds (what was written to the fake tree, or
 * what was printed) and one that fails (the documented exit status and a
 * message naming the bad object: unknown device, target, group, LUN,
 * initiator or attribute, missing argument, refusal without -force, no
 * management tree). A run that writes nothing must leave the tree exactly
 * as it was, which is checked on a snapshot.
 *
 * The rows start from the harness's tree (test_scstadmin_harness.c): an
 * ib_srpt target gid1 (enabled, LUN 0 = nullio device n1, group g1 with
 * initiator 0x12*); prep functions add what a row needs.
 */
#include <unistd.h>

#include "scstadmin_unit.h"


/* ---- additions to the tree --------------------------------------------- */

/* A session of initiator 0x12ab that sees group g1's LUNs. */
static void prep_session(void)
{
	fake_put("targets/ib_srpt/gid1/sessions/0x12ab/initiator_name",
		 "0x12ab\n");
	fake_put("targets/ib_srpt/gid1/sessions/0x12ab/active_commands", "2\n");
	fake_link("targets/ib_srpt/gid1/sessions/0x12ab/luns",
		  "../../ini_groups/g1/luns");
}

/* More attributes (writable, read-only, write-only) and a device n2. */
static void prep_more(void)
{
	fake_put("threads", "8\n[key]\n");
	fake_put_mode("version", "3.11.0\n", 0444);
	fake_put("handlers/vdisk_nullio/trace_level", "none\n");
	fake_put("targets/ib_srpt/trace_level", "none\n");
	fake_put("devices/n1/threads_num", "1\n");
	fake_put_mode("devices/n1/t10_dev_id", "n1\n", 0444);
	fake_put_mode("devices/n1/resync_size", "", 0200);
	fake_put("devices/n2/size_mb", "32\n[key]\n");
	fake_link("handlers/vdisk_nullio/n2", "../../devices/n2");
}

static void prep_disabled(void)
{
	fake_put("targets/ib_srpt/gid1/enabled", "0\n");
}

/* An initiator entry that is a directory with an attribute. */
static void prep_init_dir(void)
{
	fake_put(G1 "initiators/iqn.d/read_only", "0\n");
}

static const char conf_same[] =
	"HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n}\n"
	"TARGET_DRIVER ib_srpt {\n\tTARGET gid1 {\n\t\tenabled 1\n"
	"\t\trel_tgt_id 1\n\t\tLUN 0 n1\n"
	"\t\tGROUP g1 {\n\t\t\tINITIATOR 0x12*\n\t\t}\n\t}\n}\n";

/* the live tree, plus LUN 1 and an initiator 0x34* in g1 */
static const char conf_more[] =
	"HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n}\n"
	"TARGET_DRIVER ib_srpt {\n\tTARGET gid1 {\n\t\tenabled 1\n"
	"\t\trel_tgt_id 1\n\t\tLUN 0 n1\n\t\tLUN 1 n1 {\n\t\t\tread_only 1\n"
	"\t\t}\n\t\tGROUP g1 {\n\t\t\tINITIATOR 0x12*\n"
	"\t\t\tINITIATOR 0x34*\n\t\t}\n\t}\n}\n";

static const struct opt_case cases[] = {
	/* -config */
	{ "config applies the differences", A("-config", "@CONF"),
	  .conf = conf_more, .out = "2 change(s) made",
	  .file = LUNS, .content = "add n1 1 read_only=1\n" },
	{ "config of the live state", A("-config", "@CONF"),
	  .conf = conf_same, .out = "no changes" },
	{ "config unknown handler", A("-config", "@CONF"),
	  .conf = "HANDLER vdisk_bogus {\n\tDEVICE d\n}\n",
	  .rc = EXIT_WARN, .out = "no changes",
	  .err = "warning: handler 'vdisk_bogus' is not loaded (no handlers/vdisk_bogus in the management tree): HANDLER vdisk_bogus (line 1) and its 1 device(s) skipped" },
	{ "config unknown driver", A("-config", "@CONF"),
	  .conf = "TARGET_DRIVER iscsi {\n\tTARGET t\n}\n",
	  .rc = EXIT_WARN, .out = "no changes",
	  .err = "warning: target driver 'iscsi' is not loaded (no targets/iscsi in the management tree): TARGET_DRIVER iscsi (line 1) skipped" },
	{ "config unknown target", A("-config", "@CONF"),
	  .conf = "TARGET_DRIVER ib_srpt {\n\tTARGET nogid\n}\n",
	  .rc = EXIT_NOTFOUND,
	  .err = "target 'nogid' of driver 'ib_srpt' does not exist" },
	{ "config unknown attribute", A("-config", "@CONF"),
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tsize_mb 64\n"
		  "\t\tbogus 1\n\t}\n}\n",
	  .out = "no changes", .rc = EXIT_WARN,
	  .err = "warning: device n1 has no attribute 'bogus'; ignored" },
	{ "config syntax error", A("-config", "@CONF"),
	  .conf = "HANDLER vdisk_nullio {\n\tBOGUS x\n}\n",
	  .rc = EXIT_CONFIG, .err = ".conf:2:2: unknown section keyword 'BOGUS'" },
	{ "config missing file", A("-config", "/nonexistent/scst.conf"),
	  .rc = EXIT_CONFIG,
	  .err = "/nonexistent/scst.conf: No such file or directory" },
	/* -check_config */
	{ "check_config lists the changes", A("-check_config", "@CONF"),
	  .conf = conf_more,
	  .out = "would add initiator 0x34* to group g1 of gid1\n"
		 "would add LUN 1 (n1) to target gid1\n"
		 "would make 2 change(s)\n" },
	{ "check_config without SCST", A("-check_config", "@CONF"),
	  .conf = conf_more, .env = NOSCST,
	  .out = "configuration is valid as far as a file can be checked" },
	/* without the modules, a typo is still named with its line */
	{ "check_config without SCST: unknown attribute",
	  A("-check_config", "@CONF"), .env = NOSCST, .rc = EXIT_WARN,
	  .conf = "HANDLER vdisk_fileio {\n\tDEVICE f1 {\n\t\tfilenme /a\n\t}\n}\n",
	  .err = ".conf:3: DEVICE f1 of vdisk_fileio: unknown attribute 'filenme'" },
	/* SCST's attributes scst-ng cannot honour: named, with the reason */
	{ "check_config without SCST: cluster_mode",
	  A("-check_config", "@CONF"), .env = NOSCST,
	  .conf = "cluster_name c1\nHANDLER vdisk_blockio {\n\tDEVICE b1 {\n\t\tfilename /dev/sdb\n\t\tt10_dev_id ha1\n\t\tcluster_mode 1\n\t}\n}\n",
	  .out = "configuration is valid as far as a file can be checked" },
	{ "check_config without SCST: DIF",
	  A("-check_config", "@CONF"), .env = NOSCST, .rc = EXIT_WARN,
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tdif_mode dev_check\n\t}\n}\n",
	  .err = ".conf:3: DEVICE n1 of vdisk_nullio: 'dif_mode dev_check' cannot be honoured: T10 protection information (DIF) is not supported" },
	/* with the modules: refused before anything changes */
	{ "check_config: dif_mode", A("-check_config", "@CONF"),
	  .rc = EXIT_CONFIG,
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n9 {\n\t\tdif_mode dev_check\n\t}\n}\n",
	  .err = ".conf:3: DEVICE n9 of vdisk_nullio: 'dif_mode dev_check' cannot be honoured: T10 protection information (DIF) is not supported" },
	{ "config: dif_type", A("-config", "@CONF"), .rc = EXIT_CONFIG,
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n9 {\n\t\tdif_type 1\n\t}\n}\n",
	  .err = "1 attribute(s) the modules cannot honour (above): nothing changed" },
	/* ... and the ones it honours pass */
	{ "check_config without SCST: SCST 3.11 knobs",
	  A("-check_config", "@CONF"), .env = NOSCST,
	  .conf = "HANDLER vdisk_fileio {\n\tDEVICE f1 {\n\t\tfilename /a\n\t\tactive 0\n\t\tlb_per_pb_exp 0\n\t\topt_trans_len 1048576\n\t\tcluster_mode 0\n\t}\n}\n"
		  "HANDLER vdisk_nullio {\n\tDEVICE n1 {\n\t\tread_zero 1\n\t\tdummy 1\n\t\tnuma_node_id 0\n\t}\n}\n"
		  "HANDLER vdisk_blockio {\n\tDEVICE b1 {\n\t\tfilename /dev/sdb\n\t\tbind_alua_state 0\n\t}\n}\n",
	  .out = "configuration is valid as far as a file can be checked" },
	{ "check_config without SCST: unknown handler",
	  A("-check_config", "@CONF"), .env = NOSCST, .rc = EXIT_WARN,
	  .conf = "HANDLER vcdrom {\n\tDEVICE c1\n}\n",
	  .err = ".conf:1: HANDLER vcdrom is not provided by scst-ng" },
	{ "check_config duplicate device", A("-check_config", "@CONF"),
	  .conf = "HANDLER vdisk_nullio {\n\tDEVICE n1\n\tDEVICE n1\n}\n",
	  .rc = EXIT_CONFIG, .err = ":3:2: duplicate DEVICE 'n1'" },
	/* -write_config */
	{ "write_config key attributes", A("-write_config", "-"),
	  .out = "\tDEVICE n1 {\n\t\tsize_mb 64\n\t}\n",
	  .not_out = "blocksize" },
	{ "write_config -nonkey", A("-write_config", "-", "-nonkey"),
	  .out = "\t\tsize_mb 64\n\n\t\t# Non-key attributes\n"
		 "\t\t# blocksize 512\n\t\t# read_only 0\n\t}\n" },
	{ "write_config unwritable file",
	  A("-write_config", "/nonexistent/dir/scst.conf"), .rc = EXIT_SYSFS,
	  .err = "cannot write /nonexistent/dir/scst.conf: No such file" },
	/* -clear_config */
	{ "clear_config -force -noprompt",
	  A("-clear_config", "-force", "-noprompt"),
	  .file = "handlers/vdisk_nullio/mgmt", .content = "del_device n1\n",
	  .out = "change(s) made" },
	{ "clear_config without -force", A("-clear_config"),
	  .rc = EXIT_INUSE, .err = "add -force" },
	/* listings */
	{ "list_handler", A("-list_handler"), .out = "vdisk_nullio             1\n" },
	{ "list_handler without SCST", A("-list_handler"), .env = NOSCST,
	  .rc = EXIT_NOSCST,
	  .err = "SCST is not loaded: /nonexistent/scst does not exist" },
	{ "list_device", A("-list_device"), .out = "n1                       vdisk_nullio\n" },
	{ "list_device NAME", A("-list_device", "n1"),
	  .out = "Device n1 (handler vdisk_nullio)\n" },
	{ "list_device unknown NAME", A("-list_device", "nodev"),
	  .rc = EXIT_NOTFOUND, .err = "device 'nodev' does not exist" },
	{ "list_device extra argument", A("-list_device", "n1", "n2"),
	  .rc = EXIT_USAGE, .err = "unexpected argument 'n2'" },
	{ "list_driver", A("-list_driver"), .out = "ib_srpt                  1\n" },
	{ "list_driver without SCST", A("-list_driver"),
	  .env = { .root = "/nonexistent/scst", .env_root = true },
	  .rc = EXIT_NOSCST, .err = "/nonexistent/scst does not exist" },
	{ "list_target", A("-list_target", "-driver", "ib_srpt"),
	  .out = "Driver: ib_srpt\n\tTarget: gid1 (enabled)\n\t\tLUN 0     n1\n" },
	{ "list_target unknown driver", A("-list_target", "-driver", "nodrv"),
	  .rc = EXIT_NOTFOUND, .err = "driver 'nodrv' is not loaded" },
	{ "list_group", A("-list_group", DT),
	  .out = "\t\tGroup: g1\n\t\t\tINITIATOR 0x12*\n" },
	{ "list_group unknown target",
	  A("-list_group", "-driver", "ib_srpt", "-target", "nogid"),
	  .rc = EXIT_NOTFOUND,
	  .err = "target 'nogid' of driver 'ib_srpt' does not exist" },
	{ "list_sessions", A("-list_sessions"), .prep = prep_session,
	  .out = "Sessions: 1\n\t\t\t0x12ab  initiator 0x12ab, 2 active command(s), LUNs of group g1\n" },
	{ "list_sessions target without driver",
	  A("-list_sessions", "-target", "gid1"),
	  .rc = EXIT_USAGE, .err = "-list_sessions needs -driver" },
	/* -list_*_attr */
	{ "list_scst_attr key only", A("-list_scst_attr"), .prep = prep_more,
	  .out = "threads", .not_out = "setup_id" },
	{ "list_scst_attr -nonkey", A("-list_scst_attr", "-nonkey"),
	  .out = "setup_id                       0x0" },
	{ "list_scst_attr without SCST", A("-list_scst_attr"), .env = NOSCST,
	  .rc = EXIT_NOSCST, .err = "SCST is not loaded" },
	{ "list_hnd_attr", A("-list_hnd_attr", "vdisk_fileio"),
	  .prep = prep_fileio,
	  .out = "(none)\n\nDevice creation parameters (-open_dev -attributes):\n"
		 "\tfilename\n\tblocksize\n\tread_only\n" },
	{ "list_hnd_attr unknown handler", A("-list_hnd_attr", "nohnd"),
	  .rc = EXIT_NOTFOUND, .err = "handler 'nohnd' is not loaded" },
	{ "list_dev_attr key only", A("-list_dev_attr", "n1"),
	  .out = "size_mb                        64                                       yes       yes\n",
	  .not_out = "blocksize" },
	{ "list_dev_attr -nonkey", A("-list_dev_attr", "n1", "-nonkey"),
	  .prep = prep_more,
	  .out = "t10_dev_id                     n1                                       no        no\n",
	  .not_out = "resync_size" },
	{ "list_dev_attr unknown device", A("-list_dev_attr", "nodev"),
	  .rc = EXIT_NOTFOUND, .err = "device 'nodev' does not exist" },
	{ "list_drv_attr", A("-list_drv_attr", "ib_srpt", "-nonkey"),
	  .prep = prep_more, .out = "trace_level                    none" },
	{ "list_drv_attr unknown driver", A("-list_drv_attr", "nodrv"),
	  .rc = EXIT_NOTFOUND, .err = "driver 'nodrv' is not loaded" },
	{ "list_tgt_attr", A("-list_tgt_attr", "gid1", "-driver", "ib_srpt"),
	  .out = "rel_tgt_id", .not_out = "cpu_mask" },
	{ "list_tgt_attr without -driver", A("-list_tgt_attr", "gid1"),
	  .rc = EXIT_USAGE, .err = "-list_tgt_attr needs -driver" },
	{ "list_grp_attr", A("-list_grp_attr", "g1", DT, "-nonkey"),
	  .out = "cpu_mask                       ff" },
	{ "list_grp_attr unknown group", A("-list_grp_attr", "nogrp", DT),
	  .rc = EXIT_NOTFOUND,
	  .err = "group 'nogrp' of target 'gid1' does not exist" },
	{ "list_lun_attr", A("-list_lun_attr", "0", DT, "-nonkey"),
	  .out = "read_only                      0" },
	{ "list_lun_attr unknown LUN", A("-list_lun_attr", "7", DT),
	  .rc = EXIT_NOTFOUND, .err = "LUN 7 of target 'gid1' does not exist" },
	{ "list_lun_attr bad LUN number", A("-list_lun_attr", "x", DT),
	  .rc = EXIT_USAGE, .err = "bad LUN number 'x'" },
	{ "list_init_attr", A("-list_init_attr", "0x12*", DTG),
	  .out = "(none)" },
	{ "list_init_attr unknown initiator",
	  A("-list_init_attr", "nobody", DTG), .rc = EXIT_NOTFOUND,
	  .err = "initiator 'nobody' of group 'g1' does not exist" },
	/* -set_*_attr */
	{ "set_scst_attr", A("-set_scst_attr", "-attributes", "setup_id=0x7"),
	  .out = "-> SCST: setup_id=0x7", .file = "setup_id",
	  .content = "0x7\n" },
	{ "set_scst_attr unknown attribute",
	  A("-set_scst_attr", "-attributes", "bogus=1"), .rc = EXIT_NOTFOUND,
	  .err = "SCST has no attribute 'bogus'" },
	{ "set_scst_attr read-only attribute",
	  A("-set_scst_attr", "-attributes", "setup_id=1,version=1"),
	  .prep = prep_more, .rc = EXIT_SYSFS,
	  .err = "SCST: attribute 'version' is read-only" },
	{ "set_hnd_attr",
	  A("-set_hnd_attr", "vdisk_nullio", "-attributes", "trace_level=all"),
	  .prep = prep_more, .file = "handlers/vdisk_nullio/trace_level",
	  .content = "all\n", .out = "-> handler 'vdisk_nullio': trace_level=all" },
	{ "set_hnd_attr unknown handler",
	  A("-set_hnd_attr", "nohnd", "-attributes", "a=1"),
	  .rc = EXIT_NOTFOUND, .err = "handler 'nohnd' is not loaded" },
	{ "set_dev_attr", A("-set_dev_attr", "n1", "-attributes", "threads_num=4"),
	  .prep = prep_more, .file = "devices/n1/threads_num", .content = "4\n" },
	{ "set_dev_attr read-only attribute",
	  A("-set_dev_attr", "n1", "-attributes", "threads_num=4,t10_dev_id=x"),
	  .prep = prep_more, .rc = EXIT_SYSFS,
	  .err = "device 'n1': attribute 't10_dev_id' is read-only" },
	{ "set_dev_attr without -attributes", A("-set_dev_attr", "n1"),
	  .rc = EXIT_USAGE, .err = "-set_dev_attr needs -attributes" },
	{ "set_drv_attr",
	  A("-set_drv_attr", "ib_srpt", "-attributes", "trace_level=all"),
	  .prep = prep_more, .file = "targets/ib_srpt/trace_level",
	  .content = "all\n" },
	{ "set_drv_attr unknown driver",
	  A("-set_drv_attr", "nodrv", "-attributes", "a=1"),
	  .rc = EXIT_NOTFOUND, .err = "driver 'nodrv' is not loaded" },
	{ "set_tgt_attr",
	  A("-set_tgt_attr", "gid1", "-driver", "ib_srpt", "-attributes", "cpu_mask=3"),
	  .file = "targets/ib_srpt/gid1/cpu_mask", .content = "3\n" },
	{ "set_tgt_attr unknown target",
	  A("-set_tgt_attr", "nogid", "-driver", "ib_srpt", "-attributes", "cpu_mask=3"),
	  .rc = EXIT_NOTFOUND,
	  .err = "target 'nogid' of driver 'ib_srpt' does not exist" },
	{ "set_grp_attr", A("-set_grp_attr", "g1", DT, "-attributes", "cpu_mask=f"),
	  .file = G1 "cpu_mask", .content = "f\n" },
	{ "set_grp_attr unknown group",
	  A("-set_grp_attr", "nogrp", DT, "-attributes", "cpu_mask=f"),
	  .rc = EXIT_NOTFOUND,
	  .err = "group 'nogrp' of target 'gid1' does not exist" },
	{ "set_lun_attr", A("-set_lun_attr", "0", DT, "-attributes", "read_only=1"),
	  .file = "targets/ib_srpt/gid1/luns/0/read_only", .content = "1\n" },
	{ "set_lun_attr unknown LUN",
	  A("-set_lun_attr", "9", DT, "-attributes", "read_only=1"),
	  .rc = EXIT_NOTFOUND, .err = "LUN 9 of target 'gid1' does not exist" },
	{ "set_lun_attr unknown group LUN",
	  A("-set_lun_attr", "0", DTG, "-attributes", "read_only=1"),
	  .rc = EXIT_NOTFOUND,
	  .err = "LUN 0 of group 'g1' of target 'gid1' does not exist" },
	{ "set_init_attr", A("-set_init_attr", "iqn.d", DTG, "-attributes", "read_only=1"),
	  .prep = prep_init_dir, .file = G1 "initiators/iqn.d/read_only",
	  .content = "1\n" },
	{ "set_init_attr initiator without attributes",
	  A("-set_init_attr", "0x12*", DTG, "-attributes", "read_only=1"),
	  .rc = EXIT_NOTFOUND,
	  .err = "initiator '0x12*' has no attribute 'read_only'" },
	{ "set_init_attr unknown initiator",
	  A("-set_init_attr", "nobody", DTG, "-attributes", "read_only=1"),
	  .rc = EXIT_NOTFOUND, .err = "initiator 'nobody' of group 'g1' does not exist" },
	/* devices */
	{ "open_dev", A("-open_dev", "n2", "-handler", "vdisk_nullio",
			"-attributes", "size_mb=32,read_only=1"),
	  .file = "handlers/vdisk_nullio/mgmt",
	  .content = "add_device n2 size_mb=32;read_only=1\n" },
	{ "open_dev existing device", A("-open_dev", "n1", "-handler", "vdisk_nullio"),
	  .rc = EXIT_SYSFS, .err = "device 'n1' already exists" },
	{ "open_dev unknown handler", A("-open_dev", "n2", "-handler", "nohnd"),
	  .rc = EXIT_NOTFOUND, .err = "handler 'nohnd' is not loaded" },
	{ "close_dev unused device", A("-close_dev", "n2", "-handler", "vdisk_nullio"),
	  .prep = prep_more, .file = "handlers/vdisk_nullio/mgmt",
	  .content = "del_device n2\n" },
	{ "close_dev -force", A("-close_dev", "n1", "-handler", "vdisk_nullio", "-force"),
	  .file = "handlers/vdisk_nullio/mgmt", .content = "del_device n1\n" },
	{ "close_dev in use", A("-close_dev", "n1", "-handler", "vdisk_nullio"),
	  .rc = EXIT_INUSE,
	  .err = "device 'n1' is in use (LUN 0 of target gid1 (ib_srpt)): use -force" },
	{ "close_dev other handler", A("-close_dev", "n1", "-handler", "vdisk_fileio"),
	  .prep = prep_fileio, .rc = EXIT_NOTFOUND,
	  .err = "device 'n1' of handler 'vdisk_fileio' does not exist" },
	{ "resync_dev", A("-resync_dev", "n1"), .prep = prep_more,
	  .file = "devices/n1/resync_size", .content = "1\n" },
	{ "resync_dev unsupported", A("-resync_dev", "n1"), .rc = EXIT_NOTFOUND,
	  .err = "device 'n1' has no attribute 'resync_size'" },
	{ "resync_dev unknown device", A("-resync_dev", "nodev"),
	  .rc = EXIT_NOTFOUND, .err = "device 'nodev' does not exist" },
	/* targets */
	{ "add_target", A("-add_target", "t2", "-driver", "ib_srpt"),
	  .file = "targets/ib_srpt/mgmt", .content = "add_target t2\n" },
	{ "add_target without -driver", A("-add_target", "t2"),
	  .rc = EXIT_USAGE, .err = "-add_target needs -driver" },
	{ "add_target unknown driver", A("-add_target", "t2", "-driver", "nodrv"),
	  .rc = EXIT_NOTFOUND, .err = "driver 'nodrv' is not loaded" },
	{ "rem_target", A("-rem_target", "gid1", "-driver", "ib_srpt"),
	  .file = "targets/ib_srpt/mgmt", .content = "del_target gid1\n" },
	{ "rem_target unknown target", A("-rem_target", "nogid", "-driver", "ib_srpt"),
	  .rc = EXIT_NOTFOUND,
	  .err = "target 'nogid' of driver 'ib_srpt' does not exist" },
	{ "enable_target", A("-enable_target", "gid1", "-driver", "ib_srpt"),
	  .prep = prep_disabled, .file = "targets/ib_srpt/gid1/enabled",
	  .content = "1\n" },
	{ "enable_target without enabled",
	  A("-enable_target", "loc1", "-driver", "scst_local"),
	  .prep = prep_local, .rc = EXIT_NOTFOUND,
	  .err = "target 'loc1' has no attribute 'enabled'" },
	{ "disable_target", A("-disable_target", "gid1", "-driver", "ib_srpt"),
	  .file = "targets/ib_srpt/gid1/enabled", .content = "0\n" },
	{ "disable_target unknown driver",
	  A("-disable_target", "gid1", "-driver", "nodrv"),
	  .rc = EXIT_NOTFOUND, .err = "driver 'nodrv' is not loaded" },
	/* groups and initiators */
	{ "add_group", A("-add_group", "g2", DT),
	  .file = "targets/ib_srpt/gid1/ini_groups/mgmt", .content = "create g2\n" },
	{ "add_group unknown target",
	  A("-add_group", "g2", "-driver", "ib_srpt", "-target", "nogid"),
	  .rc = EXIT_NOTFOUND,
	  .err = "target 'nogid' of driver 'ib_srpt' does not exist" },
	{ "rem_group empty", A("-rem_group", "g2", DT), .prep = prep_g2,
	  .file = "targets/ib_srpt/gid1/ini_groups/mgmt", .content = "del g2\n" },
	{ "rem_group -force", A("-rem_group", "g1", DT, "-force"),
	  .file = "targets/ib_srpt/gid1/ini_groups/mgmt", .content = "del g1\n" },
	{ "rem_group not empty", A("-rem_group", "g1", DT), .rc = EXIT_INUSE,
	  .err = "group 'g1' of target 'gid1' still has 0 LUN(s) and 1 initiator(s): use -force" },
	{ "rem_group unknown group", A("-rem_group", "nogrp", DT, "-force"),
	  .rc = EXIT_NOTFOUND,
	  .err = "group 'nogrp' of target 'gid1' does not exist" },
	{ "add_init", A("-add_init", "iqn.x*", DTG),
	  .file = G1 "initiators/mgmt", .content = "add iqn.x*\n" },
	{ "add_init without -group", A("-add_init", "iqn.x*", DT),
	  .rc = EXIT_USAGE, .err = "-add_init needs -group" },
	{ "rem_init", A("-rem_init", "0x12*", DTG),
	  .file = G1 "initiators/mgmt", .content = "del 0x12*\n" },
	{ "rem_init unknown initiator", A("-rem_init", "nobody", DTG),
	  .rc = EXIT_NOTFOUND, .err = "initiator 'nobody' of group 'g1' does not exist" },
	{ "move_init", A("-move_init", "0x12*", DTG, "-to", "g2"), .prep = prep_g2,
	  .file = G1 "initiators/mgmt", .content = "move 0x12* g2\n" },
	{ "move_init unknown -to group", A("-move_init", "0x12*", DTG, "-to", "nogrp"),
	  .rc = EXIT_NOTFOUND,
	  .err = "group 'nogrp' of target 'gid1' does not exist" },
	{ "move_init without -to", A("-move_init", "0x12*", DTG),
	  .rc = EXIT_USAGE, .err = "-move_init needs -to" },
	{ "clear_inits", A("-clear_inits", DTG),
	  .file = G1 "initiators/mgmt", .content = "clear\n" },
	{ "clear_inits unknown group", A("-clear_inits", DT, "-group", "nogrp"),
	  .rc = EXIT_NOTFOUND,
	  .err = "group 'nogrp' of target 'gid1' does not exist" },
	/* LUNs */
	{ "add_lun", A("-add_lun", "1", DT, "-device", "n1", "-attributes", "read_only=1"),
	  .file = LUNS, .content = "add n1 1 read_only=1\n" },
	{ "add_lun to a group", A("-add_lun", "5", DTG, "-device", "n1"),
	  .file = G1 "luns/mgmt", .content = "add n1 5\n" },
	{ "add_lun unknown device", A("-add_lun", "1", DT, "-device", "nodev"),
	  .rc = EXIT_NOTFOUND, .err = "device 'nodev' does not exist" },
	{ "add_lun bad LUN number", A("-add_lun", "16384", DT, "-device", "n1"),
	  .rc = EXIT_USAGE, .err = "bad LUN number '16384': expected 0 to 16383" },
	{ "rem_lun", A("-rem_lun", "0", DT), .file = LUNS, .content = "del 0\n" },
	{ "rem_lun unknown LUN", A("-rem_lun", "7", DT),
	  .rc = EXIT_NOTFOUND, .err = "LUN 7 of target 'gid1' does not exist" },
	{ "replace_lun", A("-replace_lun", "0", DT, "-device", "n2"),
	  .prep = prep_more, .file = LUNS, .content = "replace n2 0\n" },
	{ "replace_lun unknown device", A("-replace_lun", "0", DT, "-device", "nodev"),
	  .rc = EXIT_NOTFOUND, .err = "device 'nodev' does not exist" },
	{ "replace_lun unknown LUN", A("-replace_lun", "5", DT, "-device", "n1"),
	  .rc = EXIT_NOTFOUND, .err = "LUN 5 of target 'gid1' does not exist" },
	{ "replace_lun without -device", A("-replace_lun", "0", DT),
	  .rc = EXIT_USAGE, .err = "-replace_lun needs -device" },
	{ "clear_luns", A("-clear_luns", DT), .file = LUNS, .content = "clear\n" },
	{ "clear_luns of a group", A("-clear_luns", DTG),
	  .file = G1 "luns/mgmt", .content = "clear\n" },
	{ "clear_luns unknown target",
	  A("-clear_luns", "-driver", "ib_srpt", "-target", "nogid"),
	  .rc = EXIT_NOTFOUND,
	  .err = "target 'nogid' of driver 'ib_srpt' does not exist" },
	/* modifiers that name objects: a success above each, missing value */
	{ "handler without value", A("-open_dev", "n2", "-handler"),
	  .rc = EXIT_USAGE, .err = "-handler needs an argument" },
	{ "driver without value", A("-list_target", "-driver"),
	  .rc = EXIT_USAGE, .err = "-driver needs an argument" },
	{ "target without value", A("-list_target", "-target"),
	  .rc = EXIT_USAGE, .err = "-target needs an argument" },
	{ "group without value", A("-add_init", "x", DT, "-group"),
	  .rc = EXIT_USAGE, .err = "-group needs an argument" },
	{ "device without value", A("-add_lun", "1", DT, "-device"),
	  .rc = EXIT_USAGE, .err = "-device needs an argument" },
	{ "attributes without value", A("-set_dev_attr", "n1", "-attributes"),
	  .rc = EXIT_USAGE, .err = "-attributes needs an argument" },
	{ "attributes without a key", A("-set_dev_attr", "n1", "-attributes", "=x"),
	  .rc = EXIT_USAGE, .err = "bad attribute '=x': expected key=value or key" },
	{ "to without value", A("-move_init", "0x12*", DTG, "-to"),
	  .rc = EXIT_USAGE, .err = "-to needs an argument" },
	/* -noprompt, on a terminal */
	{ "clear_config asks and is refused", A("-clear_config", "-force"),
	  .env = { .tty = "n\n" }, .rc = EXIT_INUSE,
	  .out = "Remove all SCST configuration? [y/N] ", .err = "aborted" },
	{ "clear_config asks and goes on", A("-clear_config", "-force"),
	  .env = { .tty = "y\n" }, .out = "Remove all SCST configuration? [y/N] ",
	  .file = "handlers/vdisk_nullio/mgmt", .content = "del_device n1\n" },
	{ "noprompt does not ask", A("-clear_config", "-force", "-noprompt"),
	  .env = { .tty = "n\n" }, .not_out = "[y/N]",
	  .file = "handlers/vdisk_nullio/mgmt", .content = "del_device n1\n" },
	/* -cont_on_err: the initiator cannot be added, the LUN can */
	{ "config stops at a failed change", A("-config", "@CONF"),
	  .conf = conf_more, .prep = prep_no_init_mgmt, .rc = EXIT_SYSFS,
	  .err = "failed to add initiator 0x34* to group g1 of gid1",
	  .file = LUNS, .content = "" },
	{ "cont_on_err goes on", A("-config", "@CONF", "-cont_on_err"),
	  .conf = conf_more, .prep = prep_no_init_mgmt, .rc = EXIT_SYSFS,
	  .out = "1 change(s) made, 1 failed",
	  .err = "failed to add initiator 0x34* to group g1 of gid1",
	  .file = LUNS, .content = "add n1 1 read_only=1\n" },
	/* -dry_run */
	{ "dry_run writes nothing", A("-add_lun", "1", DT, "-device", "n1", "-dry_run"),
	  .out = "would write 'add n1 1' to " LUNS },
	{ "dry_run config", A("-config", "@CONF", "-dry_run"), .conf = conf_more,
	  .out = "-> add LUN 1 (n1) to target gid1 (dry run)" },
	{ "dry_run still checks", A("-rem_lun", "7", DT, "-dry_run"),
	  .rc = EXIT_NOTFOUND, .err = "LUN 7 of target 'gid1' does not exist" },
	/* -h, the root */
	{ "h", A("-h"), .out = "  -list_init_attr I     list an initiator's attributes" },
	{ "h with a bad option", A("-h", "-bogus"), .rc = EXIT_USAGE,
	  .err = "unknown option '-bogus'" },
	{ "no command", A("-force"), .rc = EXIT_USAGE, .err = "usage: scstadmin" },
	{ "two commands", A("-list_device", "-list_driver"), .rc = EXIT_USAGE,
	  .err = "-list_device and -list_driver: one command at a time" },
	{ "SCST_SYSFS_ROOT", A("-list_device"), .env = { .env_root = true },
	  .out = "n1" },
	{ "sysfs_root without value", A("-list_device", "-sysfs_root"),
	  .rc = EXIT_USAGE, .err = "-sysfs_root needs a directory" },
};

/* Whether @text has @lead followed by the whole option name @opt. */
static bool has_opt(const char *text, const char *lead, const char *opt)
{
	char w[96];
	size_t n = (size_t)snprintf(w, sizeof(w), "%s%s", lead, opt);

	for (const char *p = text; (p = strstr(p, w)); p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz_", p[n]) || !p[n])
			return true;
	return false;
}

/* Every option -h lists is in scstadmin(1), and the other way round. */
static void test_help_matches_man(void **state)
{
	char *man = slurp(SCSTADMIN_MAN);
	struct res r = run("-h", NULL);
	size_t checked = 0;
	char opt[64];

	(void)state;
	assert_int_equal(r.rc, 0);
	for (char *l = r.out; (l = strstr(l, "\n  -")); l++) {
		if (sscanf(l + 4, "%63[a-z_]", opt) != 1)
			continue;
		if (!has_opt(man, "\\-", opt))
			fail_msg("-%s is in -h, not in scstadmin(1)", opt);
		checked++;
	}
	/* \-name in the man page, not \-\-long, a word or \-set_*_attr */
	for (char *m = man; (m = strstr(m, "\\-")); m += 2) {
		if ((m > man && strchr("-_abcdefghijklmnopqrstuvwxyz", m[-1])) ||
		    sscanf(m + 2, "%63[a-z_]", opt) != 1 ||
		    m[2 + strlen(opt)] == '*')
			continue;
		if (!has_opt(r.out, " -", opt))
			fail_msg("\\-%s is in scstadmin(1), not in -h", opt);
		checked++;
	}
	assert_true(checked > 100);
	res_free(&r);
	free(man);
}

int main(void)
{
	const struct CMUnitTest extra[] = {
		cmocka_unit_test_setup_teardown(test_help_matches_man,
						fake_setup, fake_teardown),
	};

	return run_cases("scstadmin_opts", cases,
			 sizeof(cases) / sizeof(cases[0]), extra, 1);
}
