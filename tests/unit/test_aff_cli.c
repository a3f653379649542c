// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity's command line against a fake tree in /tmp (SCST sysfs,
 * /proc and /sys roots): apply writes what the layout wants and reports
 * the managed IRQ as skipped; bad input exits 1 with every file as it
 * was; save/restore returns the exact state.
 */
#include "unit.h"
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], dir[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void get(const char *rel, char *buf, size_t len)
{
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static const char *const files[] = {
	"proc/irq/24/smp_affinity_list", "proc/irq/25/smp_affinity_list",
	"proc/irq/26/smp_affinity_list", "scst/targets/ib_srpt/T1/cpu_mask",
	"scst/targets/ib_srpt/T1/comp_v_mask",
	"scst/targets/ib_srpt/T1/thread_mode",
	"scst/targets/ib_srpt/T1/ini_groups/g1/cpu_mask", NULL
};

/* Every file that the tool may write, in one string. */
static void snapshot(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const char *const *f = files; *f; f++) {
		char v[128];

		get(*f, v, sizeof(v));
		n += (size_t)snprintf(buf + n, len - n, "%s=%s;", *f, v);
	}
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_aff_cli.%d", (int)getpid());
	mkdir(root, 0755);
	put("sys/devices/system/cpu/online", "0-3\n");
	put("sys/devices/system/cpu/possible", "0-3\n");
	put("sys/kernel/debug/irq/irqs/26", "flags: IRQD_AFFINITY_MANAGED\n");
	put("proc/interrupts",
	    "           CPU0       CPU1\n"
	    "  24:   1 2  PCI-MSI 1-edge  virtio0-config\n"
	    "  25:  1 2 PCI-MSI 2-edge virtio0-requests\n"
	    "  26: 3 4 PCI-MSI 3-edge nvme0q1\n"
	    " NMI: 0 0 Non-maskable interrupts\n");
	for (int i = 24; i <= 26; i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "proc/irq/%d/smp_affinity_list", i);
		put(rel, "0-3\n");
	}
	put("scst/targets/ib_srpt/T1/cpu_mask", "f\n");
	put("scst/targets/ib_srpt/T1/comp_v_mask", "ffffffff,ffffffff\n");
	put("scst/targets/ib_srpt/T1/thread_mode", "0\n");
	put("scst/targets/ib_srpt/T1/device", "rxe0\n");
	put("scst/targets/ib_srpt/T1/ini_groups/g1/cpu_mask", "f\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) ? -1 : 0;
}

/* Run the shell command @cmd; its stdout in @out; its exit status. */
static int shell(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n;
	int st;

	assert_non_null(p);
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run the tool with exactly @args; its output in @out; its exit status. */
static int tool_raw(const char *args, char *out, size_t len)
{
	char cmd[16384];

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1 </dev/null", AFF_BIN, args);
	return shell(cmd, out, len);
}

/* @n worker threads of device disk1 (PIDs from 3000001) named @comm. */
static void fake_threads(int n, const char *comm)
{
	char pids[1024] = "", text[128];
	size_t len = 0;

	for (int k = 0; k < n; k++) {
		char rel[64];

		len += (size_t)snprintf(pids + len, sizeof(pids) - len, "%d ",
					3000001 + k);
		snprintf(rel, sizeof(rel), "proc/%d/comm", 3000001 + k);
		snprintf(text, sizeof(text), "%s\n", comm);
		put(rel, text);
		snprintf(rel, sizeof(rel), "proc/%d/status", 3000001 + k);
		snprintf(text, sizeof(text),
			 "Name:\t%s\nCpus_allowed_list:\t0-3\n", comm);
		put(rel, text);
	}
	put("scst/devices/disk1/thread_pids", pids);
}

/* Run the tool on the fake tree with @args. */
static int tool(const char *args, char *out, size_t len)
{
	char cmd[8704];

	snprintf(cmd, sizeof(cmd),
		 "--sysfs-root %s/scst --proc-root %s/proc --sys-root %s/sys --irq 'virtio*' --irq 'nvme*' %s",
		 root, root, root, args);
	return tool_raw(cmd, out, len);
}

static void test_apply(void **state)
{
	char out[8192], v[128];

	(void)state;
	assert_int_equal(tool("apply split", out, sizeof(out)), 0);
	get("proc/irq/24/smp_affinity_list", v, sizeof(v));
	assert_string_equal(v, "0");
	get("proc/irq/25/smp_affinity_list", v, sizeof(v));
	assert_string_equal(v, "0");
	get("scst/targets/ib_srpt/T1/cpu_mask", v, sizeof(v));
	assert_string_equal(v, "e");
	get("scst/targets/ib_srpt/T1/ini_groups/g1/cpu_mask", v, sizeof(v));
	assert_string_equal(v, "e");
	/* the managed IRQ: reported, skipped, unchanged */
	assert_non_null(strstr(out, "skip irq 26 (nvme0q1"));
	assert_non_null(strstr(out, "managed"));
	get("proc/irq/26/smp_affinity_list", v, sizeof(v));
	assert_string_equal(v, "0-3");
	/* --thread-mode */
	assert_int_equal(tool("apply none --thread-mode on", out, sizeof(out)),
			 0);
	get("scst/targets/ib_srpt/T1/thread_mode", v, sizeof(v));
	assert_string_equal(v, "1");
	get("scst/targets/ib_srpt/T1/cpu_mask", v, sizeof(v));
	assert_string_equal(v, "f");
	/* show and --json name what they found */
	assert_int_equal(tool("show --json", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "\"irq\":26,"));
	assert_non_null(strstr(out, "\"managed\":true"));
	assert_non_null(strstr(out, "\"name\":\"T1\""));
}

static void test_bad(void **state)
{
	static const char *const bad[] = {
		"apply bogus", "apply split target:T1=9", "apply 'irq:virtio*=1-'",
		"apply none target:nosuch=1", "apply 'group:T1/nog=1'",
		"apply --thread-mode maybe none", "apply split --irq-cpus 5",
		"apply", "frobnicate", "restore /nonexistent", NULL
	};
	char before[2048], after[2048], out[4096];

	(void)state;
	snapshot(before, sizeof(before));
	for (const char *const *b = bad; *b; b++) {
		int rc = tool(*b, out, sizeof(out));

		if (rc == 0)
			fail_msg("'%s' was accepted: %s", *b, out);
		snapshot(after, sizeof(after));
		assert_string_equal(after, before);
	}
	/* a state file with one bad line: nothing of it is written */
	put("bad.state", "irq 24 1\nattr targets/ib_srpt/T1/cpu_mask 2\n"
	    "attr targets/ib_srpt/T1/enabled 1\n");
	snprintf(out, sizeof(out), "restore %s/bad.state", root);
	assert_int_equal(tool(out, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "bad.state:3:"));
	snapshot(after, sizeof(after));
	assert_string_equal(after, before);
	/* an unknown command is named as such, SCST loaded or not */
	assert_int_equal(tool_raw("--sysfs-root /nonexistent bogus", out,
				  sizeof(out)), 1);
	assert_non_null(strstr(out, "unknown command 'bogus'"));
	assert_null(strstr(out, "no SCST sysfs tree"));
}

static void test_save_restore(void **state)
{
	char before[2048], after[2048], out[4096], cmd[256];

	(void)state;
	assert_int_equal(tool("apply 'irq:24=2' target:T1=3", out, sizeof(out)),
			 0);
	snapshot(before, sizeof(before));
	snprintf(cmd, sizeof(cmd), "save %s/saved", root);
	assert_int_equal(tool(cmd, out, sizeof(out)), 0);
	assert_int_equal(tool("apply spread --thread-mode on", out,
			      sizeof(out)), 0);
	snapshot(after, sizeof(after));
	assert_string_not_equal(after, before);
	snprintf(cmd, sizeof(cmd), "restore --dry-run %s/saved", root);
	assert_int_equal(tool(cmd, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "would set"));
	snprintf(cmd, sizeof(cmd), "restore %s/saved", root);
	assert_int_equal(tool(cmd, out, sizeof(out)), 0);
	snapshot(after, sizeof(after));
	assert_string_equal(after, before);
}

/*
 * The global options before a command are parsed as options (--opt=value
 * too, --dry-run takes no argument): --dry-run or an unknown option before
 * sweep stops it before it opens anything, let alone the real /sys.
 */
static void test_global_opts(void **state)
{
	char before[2048], after[2048], out[4096], args[1024];
	char v[128];

	(void)state;
	snapshot(before, sizeof(before));
	snprintf(args, sizeof(args),
		 "--dry-run --sysfs-root=%s/scst --proc-root=%s/proc --sys-root=%s/sys sweep --filename /dev/null --runs 1 --runtime 1 --fio /bin/false --no-png",
		 root, root, root);
	assert_int_equal(tool_raw(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "--dry-run"));
	snprintf(args, sizeof(args),
		 "--sysfs-root=%s/scst --bogus --proc-root=%s/proc --sys-root=%s/sys sweep --filename /dev/null",
		 root, root, root);
	assert_int_equal(tool_raw(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "bogus"));
	snprintf(args, sizeof(args),
		 "--irq='virtio*' --irq='nvme*' --irq 'a' --irq b --irq c --irq d --irq e --irq f --irq g --irq h --irq i --irq j --irq k --irq l --irq m --irq n --irq o --sysfs-root=%s/scst sweep --filename /dev/null",
		 root);
	assert_int_equal(tool_raw(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "at most 16 --irq"));
	snapshot(after, sizeof(after));
	assert_string_equal(after, before);
	/* --opt=value forms are honoured before a command */
	snprintf(args, sizeof(args),
		 "--sysfs-root=%s/scst --proc-root=%s/proc --sys-root=%s/sys --irq=virtio* --dry-run apply split",
		 root, root, root);
	assert_int_equal(tool_raw(args, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "would set"));
	snapshot(after, sizeof(after));
	assert_string_equal(after, before);
	snprintf(args, sizeof(args),
		 "--sysfs-root=%s/scst --proc-root=%s/proc --sys-root=%s/sys --irq=virtio* apply split",
		 root, root, root);
	assert_int_equal(tool_raw(args, out, sizeof(out)), 0);
	get("proc/irq/24/smp_affinity_list", v, sizeof(v));
	assert_string_equal(v, "0");
}

/*
 * /proc/interrupts is a seq_file that returns about a page per read(): a
 * FIFO that gets a page of other IRQs first, and the ones we manage only
 * after a pause, stands in for it. Also a device with more than 64 worker
 * threads: every one is managed.
 */
static void test_long_reads(void **state)
{
	char path[256], out[65536], line[128];
	pid_t child;
	const char *p;
	int count = 0, st;

	(void)state;
	fake_threads(70, "vdisk_t");
	snprintf(path, sizeof(path), "%s/proc/interrupts", root);
	unlink(path);
	assert_int_equal(mkfifo(path, 0644), 0);
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		FILE *f = fopen(path, "w");

		if (!f)
			_exit(1);
		fputs("           CPU0       CPU1\n", f);
		for (int i = 0; i < 100; i++)
			fprintf(f, " %3d:   0 0  IO-APIC %d-edge  filler%d\n",
				100 + i, i, i);
		fflush(f);
		usleep(300 * 1000);
		fputs("  24:   1 2  PCI-MSI 1-edge  virtio0-config\n"
		      "  25:  1 2 PCI-MSI 2-edge virtio0-requests\n", f);
		fclose(f);
		_exit(0);
	}
	assert_int_equal(tool("apply --dry-run none 'irq:virtio*=2' device:disk1=1",
			      out, sizeof(out)), 0);
	waitpid(child, &st, 0);
	assert_non_null(strstr(out, "would set irq 24 (virtio0-config"));
	assert_non_null(strstr(out, "would set irq 25 (virtio0-requests"));
	for (p = out; (p = strstr(p, "would set thread ")); p++)
		count++;
	snprintf(line, sizeof(line), "%d threads", count);
	assert_string_equal(line, "70 threads");
}

/*
 * More than 1000 CPUs (2048 possible): a list of 550 CPUs and a mask of 64
 * words are written whole (they were cut to 511 characters: a wrong set, a
 * mask without its low words).
 */
static void test_many_cpus(void **state)
{
	static char want[8192], v[8192], arg[8300], mask[1024];
	char out[8192];
	size_t n = 0;

	(void)state;
	put("sys/devices/system/cpu/online", "0-2047\n");
	put("sys/devices/system/cpu/possible", "0-2047\n");
	for (int c = 0; c < 1100; c += 2)
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%s%d",
				      n ? "," : "", c);
	snprintf(arg, sizeof(arg), "apply 'irq:24=%s' target:T1=2047", want);
	assert_int_equal(tool(arg, out, sizeof(out)), 0);
	get("proc/irq/24/smp_affinity_list", v, sizeof(v));
	assert_string_equal(v, want);
	n = (size_t)snprintf(mask, sizeof(mask), "80000000");
	for (int w = 1; w < 64; w++)
		n += (size_t)snprintf(mask + n, sizeof(mask) - n, ",00000000");
	get("scst/targets/ib_srpt/T1/cpu_mask", v, sizeof(v));
	assert_string_equal(v, mask);
}

/*
 * restore sets a saved thread or IRQ only while it still is what was
 * saved: a PID reused by another process, an IRQ number now of another
 * device, is skipped and named.
 */
static void test_restore_reuse(void **state)
{
	char out[8192], cmd[256], v[128];

	(void)state;
	put("proc/3000001/comm", "vdisk_t0\n");
	put("proc/3000001/status", "Name:\tvdisk_t0\nCpus_allowed_list:\t0-3\n");
	put("scst/devices/disk1/thread_pids", "3000001\n");
	snprintf(cmd, sizeof(cmd), "save %s/saved", root);
	assert_int_equal(tool(cmd, out, sizeof(out)), 0);
	/* the thread exits, its PID goes to an unrelated process */
	put("proc/3000001/comm", "sshd\n");
	put("proc/3000001/status", "Name:\tsshd\nCpus_allowed_list:\t1\n");
	put("scst/devices/disk1/thread_pids", "\n");
	/* IRQ 24 now belongs to another device */
	put("proc/interrupts",
	    "           CPU0       CPU1\n"
	    "  24:   1 2  PCI-MSI 1-edge  eth0-rx\n"
	    "  25:  1 2 PCI-MSI 2-edge virtio0-requests\n");
	put("proc/irq/24/smp_affinity_list", "1\n");
	put("proc/irq/25/smp_affinity_list", "1\n");
	snprintf(cmd, sizeof(cmd), "restore %s/saved", root);
	assert_int_equal(tool(cmd, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "skip thread 3000001 (vdisk_t0) of device disk1: PID 3000001 is now 'sshd'"));
	assert_non_null(strstr(out, "skip irq 24 (virtio0-config): it is 'eth0-rx' now"));
	get("proc/irq/24/smp_affinity_list", v, sizeof(v));
	assert_string_equal(v, "1");
	get("proc/irq/25/smp_affinity_list", v, sizeof(v));
	assert_string_equal(v, "0-3");
}

/*
 * save writes a temporary file and renames it: a write that fails (here
 * the file size limit, EFBIG) leaves the old state file whole, and no
 * temporary file behind.
 */
static void test_save_atomic(void **state)
{
	char out[8192], cmd[1024], v[128];

	(void)state;
	/* a state of more than the 1 KiB limit */
	fake_threads(40, "vdisk_thread_with_a_long_name");
	put("state/saved", "OLD\n");
	snprintf(cmd, sizeof(cmd),
		 "sh -c 'trap \"\" XFSZ; ulimit -f 1; exec %s --sysfs-root %s/scst --proc-root %s/proc --sys-root %s/sys save %s/state/saved' 2>&1",
		 AFF_BIN, root, root, root, root);
	assert_int_equal(shell(cmd, out, sizeof(out)), 3);
	assert_non_null(strstr(out, "is as it was"));
	get("state/saved", v, sizeof(v));
	assert_string_equal(v, "OLD");
	snprintf(cmd, sizeof(cmd), "test $(ls %s/state | wc -l) = 1", root);
	assert_int_equal(system(cmd), 0);
	/* and without the limit it is replaced */
	snprintf(cmd, sizeof(cmd), "save %s/state/saved", root);
	assert_int_equal(tool(cmd, out, sizeof(out)), 0);
	get("state/saved", v, sizeof(v));
	assert_string_equal(v, "# scst-affinity state; scst-affinity restore FILE");
}

/*
 * A sweep stopped by SIGHUP (the terminal went away) while fio runs: fio
 * is stopped at once, the saved state restored, exit status 130 (SIGHUP
 * used to kill the tool with the layout left applied).
 */
static void test_sweep_hup(void **state)
{
	char cmd[2048], out[8192], v[128];

	(void)state;
	/* the first run is of layout none, which sets it to f */
	put("scst/targets/ib_srpt/T1/cpu_mask", "3\n");
	put("fio.sh", "#!/bin/sh\ntouch \"$(dirname \"$0\")/started\"\nexec sleep 60\n");
	snprintf(cmd, sizeof(cmd), "%s/fio.sh", root);
	assert_int_equal(chmod(cmd, 0755), 0);
	snprintf(cmd, sizeof(cmd),
		 "%s --sysfs-root %s/scst --proc-root %s/proc --sys-root %s/sys sweep --layout 'target:T1=1' --thread-modes off --filename /dev/null --runs 1 --runtime 1 --no-png --out %s/sw --fio %s/fio.sh & "
		 "for i in $(seq 200); do [ -e %s/started ] && break; sleep 0.1; done; "
		 "kill -HUP $!; wait $!; echo rc=$?",
		 AFF_BIN, root, root, root, root, root, root);
	assert_int_equal(shell(cmd, out, sizeof(out)), 0);
	if (!strstr(out, "rc=130"))
		fail_msg("sweep after SIGHUP: %s", out);
	get("scst/targets/ib_srpt/T1/cpu_mask", v, sizeof(v));
	assert_string_equal(v, "3");
}

/* A terse line of fio 3.33 itself (null engine, randrw, 1 s). */
static const char fio_line[] =
"3;fio-3.33;t;0;0;1480956;1478477;370239;1001;0;0;0.000000;0.000000;0;3041;0.196325;1.827425;1.000000%=0;5.000000%=0;10.000000%=0;20.000000%=0;30.000000%=0;40.000000%=0;50.000000%=0;60.000000%=0;70.000000%=0;80.000000%=0;90.000000%=0;95.000000%=0;99.000000%=1;99.500000%=0;99.900000%=0;99.950000%=0;99.990000%=4;0%=0;0%=0;0%=0;0;3050;0.236893;1.977744;1393432;1393432;92.593946%;1393432.000000;0.000000;1478400;1476399;369599;1001;0;0;0.000000;0.000000;0;2068;0.079169;0.766094;1.000000%=0;5.000000%=0;10.000000%=0;20.000000%=0;30.000000%=0;40.000000%=0;50.000000%=0;60.000000%=0;70.000000%=0;80.000000%=0;90.000000%=0;95.000000%=0;99.000000%=2;99.500000%=0;99.900000%=0;99.950000%=0;99.990000%=4;0%=0;0%=0;0%=0;0;2075;0.118757;0.911022;1394776;1394776;92.683206%;1394776.000000;0.000000;94.900000%;4.800000%;104;0;9;100.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%";

/*
 * A fake fio that prints @fio_line (and leaves "started" behind), and a
 * fake gnuplot in ROOT/bin that writes "PNG" where the script's "set
 * output" (or its -e sweep_png='...') says, as gnuplot would: a sweep
 * that runs to its end, with or without gnuplot installed.
 */
static void fake_fio_gnuplot(void)
{
	char path[256], text[4096];

	snprintf(text, sizeof(text),
		 "#!/bin/sh\ntouch \"$(dirname \"$0\")/started\"\necho '%s'\n",
		 fio_line);
	put("fio.sh", text);
	snprintf(path, sizeof(path), "%s/fio.sh", root);
	assert_int_equal(chmod(path, 0755), 0);
	put("bin/gnuplot", "#!/bin/sh\n"
	    "case $1 in\n"
	    "-e) out=${2#sweep_png=\\'}; out=${out%\\'} ;;\n"
	    "*) out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\") ;;\n"
	    "esac\n"
	    "echo PNG > \"$out\"\n");
	snprintf(path, sizeof(path), "%s/bin/gnuplot", root);
	assert_int_equal(chmod(path, 0755), 0);
}

/*
 * A sweep of one run on the fake tree, output to @out (passed as is, in
 * the environment), from dir ROOT.
 */
static int sweep_to(const char *out, char *res, size_t len)
{
	char cmd[2048];

	assert_int_equal(setenv("AFF_TEST_OUT", out, 1), 0);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && PATH=%s/bin:$PATH %s --sysfs-root %s/scst --proc-root %s/proc --sys-root %s/sys sweep --layout 'target:T1=1' --thread-modes off --filename /dev/null --runs 1 --runtime 1 --fio %s/fio.sh --out \"$AFF_TEST_OUT\" 2>&1 </dev/null",
		 root, root, AFF_BIN, root, root, root, root);
	return shell(cmd, res, len);
}

/*
 * sweep's output files are written under a temporary name and renamed
 * into place: a symbolic link planted at one of them (the tool runs as
 * root) is replaced, its target left alone; a regular file there is
 * replaced by a new one (a hard link to the old one still has the old
 * text), not rewritten in place; no temporary file is left behind.
 */
static void test_sweep_out_safe(void **state)
{
	static const char *const exts[] = { "txt", "csv", "gp", "dat", "png",
					    NULL };
	char out[8192], path[256], lnk[256], v[512];
	struct stat st;
	mode_t um;

	(void)state;
	fake_fio_gnuplot();
	put("victim", "VICTIM\n");
	put("sw.csv", "OLD\n");
	snprintf(path, sizeof(path), "%s/victim", root);
	snprintf(lnk, sizeof(lnk), "%s/sw.txt", root);
	assert_int_equal(symlink(path, lnk), 0);
	snprintf(lnk, sizeof(lnk), "%s/sw.gp", root);
	assert_int_equal(symlink(path, lnk), 0);
	snprintf(lnk, sizeof(lnk), "%s/sw.png", root);
	assert_int_equal(symlink(path, lnk), 0);
	snprintf(path, sizeof(path), "%s/sw.csv", root);
	snprintf(lnk, sizeof(lnk), "%s/old.csv", root);
	assert_int_equal(link(path, lnk), 0);
	snprintf(path, sizeof(path), "%s/sw", root);
	if (sweep_to(path, out, sizeof(out)))
		fail_msg("sweep: %s", out);
	get("victim", v, sizeof(v));
	assert_string_equal(v, "VICTIM");
	get("old.csv", v, sizeof(v));
	assert_string_equal(v, "OLD");
	get("sw.csv", v, sizeof(v));
	assert_string_equal(v, "rank,layout,thread_mode,runs,mean_iops,min_iops,max_iops,variation_pct,clat_mean_us,clat_p99_us,cpu_busy_pct,cpu_us_per_io,ratio,significant");
	get("sw.txt", v, sizeof(v));
	assert_non_null(strstr(v, "mean IOPS"));
	get("sw.png", v, sizeof(v));
	assert_string_equal(v, "PNG");
	um = umask(0);
	umask(um);
	for (const char *const *e = exts; *e; e++) {
		snprintf(path, sizeof(path), "%s/sw.%s", root, *e);
		assert_int_equal(lstat(path, &st), 0);
		if (!S_ISREG(st.st_mode))
			fail_msg("%s is not a regular file", path);
		assert_int_equal(st.st_mode & 0777, 0644 & ~um);
	}
	snprintf(path, sizeof(path), "ls %s | grep -q tmp", root);
	assert_int_not_equal(system(path), 0);
}

/*
 * --out goes into the gnuplot script in single quotes: a prefix with a
 * quote, a backslash or a newline, or one that gnuplot reads as a pipe
 * or a command, is refused before anything runs or is written.
 */
static void test_sweep_out_bad(void **state)
{
	static const char *const bad[] = {
		"a'b", "a\\b", "a\nb", "|x", "<x", "$x", "~x", "", NULL
	};
	char out[8192], path[256], ls[2][4096];

	(void)state;
	fake_fio_gnuplot();
	snprintf(path, sizeof(path), "ls -A %s", root);
	shell(path, ls[0], sizeof(ls[0]));
	for (const char *const *b = bad; *b; b++) {
		if (!sweep_to(*b, out, sizeof(out)))
			fail_msg("--out '%s' was accepted: %s", *b, out);
		if (!strstr(out, "--out") || !strstr(out, *b))
			fail_msg("--out '%s': no message naming it: %s", *b,
				 out);
		snprintf(path, sizeof(path), "%s/started", root);
		if (!access(path, F_OK))
			fail_msg("--out '%s': fio ran", *b);
		snprintf(path, sizeof(path), "ls -A %s", root);
		shell(path, ls[1], sizeof(ls[1]));
		if (strcmp(ls[0], ls[1]))
			fail_msg("--out '%s': a file was written: %s", *b,
				 ls[1]);
	}
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test_setup_teardown(test_apply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_restore, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_global_opts, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_long_reads, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_many_cpus, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_restore_reuse, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_save_atomic, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sweep_hup, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sweep_out_safe, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sweep_out_bad, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("aff_cli", tests, NULL, NULL);
}
