// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity sweep: measure layouts against each other.
 *
 * Each (layout, thread mode) pair is one configuration; the runs go round
 * by round over all configurations (ABCABC, not AAABBB) so that drift of
 * the machine (caches, thermal, other load) spreads over all of them
 * evenly. Thread mode takes effect for channels that log in after it
 * changes, so changing it needs --relogin CMD, a command that logs the
 * initiator out and in again (and keeps --filename pointing at the LUN).
 * The state before the sweep is saved to PREFIX.state and restored after
 * the last run, and on SIGINT/SIGTERM/SIGHUP (exit status 130).
 *
 * fio runs with --minimal (terse v3, parsed by stats.c); CPU busy time is
 * taken from /proc/stat around each run, so it covers the target, the
 * initiator and fio when they share the machine.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "affinity.h"
#include "stats.h"

#define MAX_LAYOUTS	16
#define MAX_WORDS	32

static volatile sig_atomic_t sweep_stop;

static void on_signal(int sig)
{
	(void)sig;
	sweep_stop = 1;
}

/* The signals that stop a sweep (and restore the saved state). */
static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

struct layout {
	char text[512];
	char buf[512];
	int nwords;
	const char *words[MAX_WORDS];
};

struct sweep {
	struct layout layouts[MAX_LAYOUTS];
	int nlayouts;
	int modes[2], nmodes;
	unsigned int runs, runtime;
	const char *job, *filename, *relogin, *fio, *out;
	bool png;
	struct aff_layout_opts lo;
};

static int split_layout(struct layout *l, const char *text)
{
	char *save = NULL, *w;

	if (strlen(text) >= sizeof(l->text))
		return -1;
	memmove(l->text, text, strlen(text) + 1);
	memcpy(l->buf, l->text, sizeof(l->buf));
	l->nwords = 0;
	for (w = strtok_r(l->buf, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (l->nwords == MAX_WORDS)
			return -1;
		l->words[l->nwords++] = w;
	}
	return l->nwords ? 0 : -1;
}

/* "busy total" jiffies of all CPUs. */
static int cpu_ticks(const struct aff_env *e, unsigned long long *busy,
		     unsigned long long *total)
{
	unsigned long long v[8] = { 0 };
	char buf[4096];

	if (aff_read_text(e->proc, "stat", buf, sizeof(buf)) ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
		return -1;
	*total = 0;
	for (int i = 0; i < 8; i++)
		*total += v[i];
	*busy = *total - v[3] - v[4];
	return 0;
}

/* Run fio once; its terse line into @out. 0, -1 (failed), 1 (stopped). */
static int run_fio(const struct aff_env *e, const struct sweep *sw,
		   struct aff_run *run)
{
	char rt[32], fn[PATH_MAX + 16], out[65536], err[256];
	unsigned long long b0, t0, b1, t1;
	sigset_t block, old;
	bool killed = false;
	const char *argv[20];
	int argc = 0, fds[2], status;
	size_t len = 0;
	long runtime_ms;
	char *line;
	ssize_t n;
	pid_t pid;

	snprintf(rt, sizeof(rt), "--runtime=%u", sw->runtime);
	argv[argc++] = sw->fio;
	argv[argc++] = "--minimal";
	argv[argc++] = "--group_reporting";
	argv[argc++] = "--time_based";
	argv[argc++] = rt;
	if (sw->job) {
		argv[argc++] = sw->job;
	} else {
		snprintf(fn, sizeof(fn), "--filename=%s", sw->filename);
		argv[argc++] = "--name=sweep";
		argv[argc++] = fn;
		argv[argc++] = "--ioengine=libaio";
		argv[argc++] = "--direct=1";
		argv[argc++] = "--rw=randread";
		argv[argc++] = "--bs=4k";
		argv[argc++] = "--iodepth=32";
		argv[argc++] = "--readonly";
	}
	argv[argc] = NULL;
	if (pipe(fds))
		return -1;
	if (cpu_ticks(e, &b0, &t0))
		b0 = t0 = 0;
	/*
	 * The stop signals stay blocked but inside ppoll(): one that comes
	 * just before it is seen at once, not after the whole fio run.
	 */
	stop_signals(&block);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "scst-affinity: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };

		if (sweep_stop && !killed) {
			kill(pid, SIGTERM);
			killed = true;
		}
		if (ppoll(&pfd, 1, NULL, &old) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		n = read(fds[0], out + len, sizeof(out) - 1 - len);
		if (n > 0) {
			len += (size_t)n;
			if (len == sizeof(out) - 1)
				break;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	out[len] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		kill(pid, SIGTERM);
	if (cpu_ticks(e, &b1, &t1))
		b1 = t1 = 0;
	if (sweep_stop)
		return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		aff_err("fio failed (status %d): %s", status, out);
		return -1;
	}
	line = strstr(out, "3;");
	while (line && line != out && line[-1] != '\n')
		line = strstr(line + 1, "3;");
	if (!line || aff_fio_terse(line, run, &runtime_ms, err, sizeof(err))) {
		aff_err("fio: %s", line ? err : "no terse output line");
		return -1;
	}
	run->busy_pct = t1 > t0 ? 100.0 * (double)(b1 - b0) /
				  (double)(t1 - t0) : 0;
	{
		double ios = run->iops * (double)runtime_ms / 1000;
		double us = (double)(b1 - b0) * 1e6 / (double)sysconf(_SC_CLK_TCK);

		run->cpu_us_per_io = ios > 0 ? us / ios : 0;
	}
	return 0;
}

/*
 * Run --relogin with SCST_AFF_THREAD_MODE set. Not system(): that ignores
 * SIGINT in the caller while it waits, and a Ctrl-C during a re-login
 * must still end the sweep (after the re-login, which leaves the
 * initiator logged in).
 */
static int relogin(const struct sweep *sw, int mode)
{
	char m[16];
	pid_t pid;
	int st;

	snprintf(m, sizeof(m), "%d", mode);
	setenv("SCST_AFF_THREAD_MODE", m, 1);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/*
		 * Its own process group: a Ctrl-C at the terminal stops the
		 * sweep after the re-login, never the re-login half-way.
		 */
		setpgid(0, 0);
		execl("/bin/sh", "sh", "-c", sw->relogin, (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		aff_err("fork: %s", strerror(errno));
		return -1;
	}
	setpgid(pid, pid);	/* either side may run first */
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			aff_err("waitpid: %s", strerror(errno));
			return -1;
		}
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		aff_err("--relogin command failed (status %d)", st);
		return -1;
	}
	return 0;
}

static const char *mode_name(int m)
{
	return m ? "on" : "off";
}

static void print_table(FILE *f, const struct aff_row *rows, unsigned int n)
{
	fprintf(f, "%-4s %-24s %-6s %4s %10s %10s %10s %6s %9s %9s %6s %9s %6s  %s\n",
		"rank", "layout", "thread", "runs", "mean IOPS", "min", "max",
		"var%", "clat us", "p99 us", "busy%", "CPU us/IO", "ratio",
		"note");
	for (unsigned int i = 0; i < n; i++) {
		const struct aff_row *r = &rows[i];

		fprintf(f, "%-4u %-24s %-6s %4u %10.0f %10.0f %10.0f %6.1f %9.1f %9.1f %6.1f %9.1f %6.3f  %s\n",
			i + 1, r->layout, mode_name(r->thread_mode), r->nruns,
			r->mean, r->min, r->max, r->var_pct, r->clat_us,
			r->p99_us, r->busy_pct, r->cpu_us_per_io, r->ratio,
			r->baseline ? "baseline" :
			r->significant ? "" : "not significant");
	}
}

/*
 * An output file, written under a temporary name in its directory and
 * renamed over its own name once whole. mkstemp() creates the temporary
 * file with O_CREAT | O_EXCL, so nothing already there (a symbolic link
 * planted by another user, say) is opened, and rename() replaces a link
 * at the final name itself, never what it points to: the tool runs as
 * root, and fopen(path, "w") would truncate any file a link names. A
 * reader sees the old file or the new one, never half of one.
 */
struct out_file {
	FILE *f;
	char path[PATH_MAX];
	char tmp[PATH_MAX + 16];
};

/* The longest suffix an output file adds to --out (temporary name too). */
#define OUT_SUFFIX_MAX	sizeof(".state.tmpXXXXXX")

static int open_out(const struct sweep *sw, const char *ext,
		    struct out_file *o)
{
	mode_t um;
	int fd;

	/* parse_args() checked that --out leaves room for any suffix */
	snprintf(o->path, sizeof(o->path), "%s%s", sw->out, ext);
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmpXXXXXX", o->path);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		aff_err("%s: %s", o->tmp, strerror(errno));
		return -1;
	}
	/* what fopen() would have made, but never writable by others */
	um = umask(0);
	umask(um);
	o->f = fchmod(fd, 0644 & ~um) ? NULL : fdopen(fd, "w");
	if (!o->f) {
		aff_err("%s: %s", o->tmp, strerror(errno));
		close(fd);
		unlink(o->tmp);
		return -1;
	}
	return 0;
}

/* Finish @o: its temporary file renamed to its name; 0 or -1, said. */
static int close_out(struct out_file *o)
{
	int err = 0;

	errno = EIO;	/* what a bare ferror() reports */
	if (fflush(o->f) || ferror(o->f))
		err = errno;
	if (fclose(o->f) && !err)
		err = errno;
	if (!err && rename(o->tmp, o->path))
		err = errno;
	if (err) {
		aff_err("%s: writing it failed: %s; %s is as it was", o->tmp,
			strerror(err), o->path);
		unlink(o->tmp);
		return -1;
	}
	return 0;
}

static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int write_outputs(const struct sweep *sw, const struct aff_row *rows,
			 unsigned int n)
{
	char set[PATH_MAX + 32];
	struct out_file o, dat, png;
	FILE *f;
	int ret = 0;

	if (open_out(sw, ".txt", &o))
		return -1;
	print_table(o.f, rows, n);
	if (close_out(&o) || open_out(sw, ".csv", &o))
		return -1;
	f = o.f;
	fprintf(f, "rank,layout,thread_mode,runs,mean_iops,min_iops,max_iops,variation_pct,clat_mean_us,clat_p99_us,cpu_busy_pct,cpu_us_per_io,ratio,significant\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct aff_row *r = &rows[i];

		fprintf(f, "%u,", i + 1);
		csv_field(f, r->layout);
		fprintf(f, ",%s,%u,%.0f,%.0f,%.0f,%.2f,%.1f,%.1f,%.1f,%.2f,%.4f,%s\n",
			mode_name(r->thread_mode), r->nruns, r->mean, r->min,
			r->max, r->var_pct, r->clat_us, r->p99_us, r->busy_pct,
			r->cpu_us_per_io, r->ratio,
			r->baseline ? "baseline" :
			r->significant ? "yes" : "no");
	}
	if (close_out(&o))
		return -1;
	if (!sw->png)
		return 0;
	if (open_out(sw, ".dat", &dat))
		return -1;
	f = dat.f;
	for (unsigned int i = 0; i < n; i++) {
		fprintf(f, "%u \"", i);
		for (const char *c = rows[i].layout; *c; c++)
			fputc(*c == '"' ? '\'' : *c, f);
		fprintf(f, "/%s\" %.0f %.0f %.0f\n",
			mode_name(rows[i].thread_mode), rows[i].mean,
			rows[i].min, rows[i].max);
	}
	if (close_out(&dat))
		return -1;
	/*
	 * gnuplot writes the PNG, and would follow a link at PREFIX.png just
	 * as fopen() does: it writes into a temporary file of ours, named in
	 * sweep_png, that is renamed once gnuplot is done. Run by hand, the
	 * script writes PREFIX.png.
	 */
	if (open_out(sw, ".png", &png))
		return -1;
	fclose(png.f);
	if (open_out(sw, ".gp", &o)) {
		unlink(png.tmp);
		return -1;
	}
	/* check_out() keeps anything gnuplot would read out of these */
	fprintf(o.f, "if (!exists(\"sweep_png\")) sweep_png = '%s'\n"
		"set terminal png size 960,540\n"
		"set output sweep_png\n"
		"set title 'scst-affinity sweep: mean IOPS, whiskers min..max'\n"
		"set style fill solid 0.6 border -1\n"
		"set boxwidth 0.6\n"
		"set yrange [0:*]\n"
		"set xtics rotate by -20 nomirror\n"
		"set ylabel 'IOPS'\n"
		"set grid ytics\n"
		"plot '%s' using 1:3:xtic(2) with boxes notitle, \\\n"
		"     '' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0 notitle\n",
		png.path, dat.path);
	if (close_out(&o)) {
		unlink(png.tmp);
		return -1;
	}
	snprintf(set, sizeof(set), "sweep_png='%s'", png.tmp);
	{
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			execlp("gnuplot", "gnuplot", "-e", set, o.path,
			       (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			aff_err("gnuplot %s failed (is gnuplot installed?); no %s",
				o.path, png.path);
			ret = -1;
		} else if (rename(png.tmp, png.path)) {
			aff_err("%s: %s", png.path, strerror(errno));
			ret = -1;
		} else {
			printf("wrote %s\n", png.path);
		}
		if (ret)
			unlink(png.tmp);
	}
	return ret;
}

static void sweep_usage(FILE *f)
{
	fputs("usage: scst-affinity sweep (--filename DEV | --job FILE) [--layout L]...\n"
	      "       [--thread-modes off,on] [--runs N] [--runtime S] [--relogin CMD]\n"
	      "       [--out PREFIX] [--no-png] [--irq PATTERN] [--irq-cpus CPUS] [--fio PATH]\n",
	      f);
}

/*
 * --out goes into the gnuplot script inside single quotes, as the names of
 * the PNG and the data file: a quote would end the string (the rest read
 * as gnuplot commands), and at the start of a file name gnuplot reads '|'
 * (set output) and '<' (plot) as a shell command to run, '$' as a
 * datablock and '~' as the home directory. So none of those there, no
 * quote or backslash anywhere, and no control character (a newline ends
 * a gnuplot command). 0 or -1, said.
 */
static int check_out(const char *out)
{
	const char *why = NULL;

	if (!*out)
		why = "empty";
	else if (strlen(out) + OUT_SUFFIX_MAX > PATH_MAX)
		why = "too long";
	else if (strchr("|<$~", out[0]))
		why = "a leading |, <, $ or ~ means something else to gnuplot";
	for (const char *c = out; *c && !why; c++)
		if (*c == '\'' || *c == '"' || *c == '\\' ||
		    (unsigned char)*c < 0x20 || *c == 0x7f)
			why = "it goes into the gnuplot script: no quotes, backslashes or control characters";
	if (!why)
		return 0;
	aff_err("--out '%s': %s", out, why);
	return -1;
}

static int parse_args(struct aff_env *e, struct sweep *sw, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		{ "layout", required_argument, NULL, 'l' },
		{ "thread-modes", required_argument, NULL, 'm' },
		{ "runs", required_argument, NULL, 'r' },
		{ "runtime", required_argument, NULL, 'R' },
		{ "job", required_argument, NULL, 'j' },
		{ "filename", required_argument, NULL, 'f' },
		{ "relogin", required_argument, NULL, 'L' },
		{ "out", required_argument, NULL, 'o' },
		{ "no-png", no_argument, NULL, 'N' },
		{ "irq", required_argument, NULL, 'i' },
		{ "irq-cpus", required_argument, NULL, 'c' },
		{ "fio", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char err[512], *end;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			if (sw->nlayouts == MAX_LAYOUTS ||
			    split_layout(&sw->layouts[sw->nlayouts++],
					 optarg)) {
				aff_err("--layout '%s': empty, too long or too many",
					optarg);
				return -1;
			}
			break;
		case 'm': {
			char buf[64], *save = NULL, *w;

			snprintf(buf, sizeof(buf), "%s", optarg);
			sw->nmodes = 0;
			for (w = strtok_r(buf, ",", &save); w;
			     w = strtok_r(NULL, ",", &save)) {
				int m = !strcmp(w, "on") ? 1 :
					!strcmp(w, "off") ? 0 : -1;

				if (m < 0 || sw->nmodes == 2 ||
				    (sw->nmodes && sw->modes[0] == m)) {
					aff_err("--thread-modes '%s': off, on or off,on",
						optarg);
					return -1;
				}
				sw->modes[sw->nmodes++] = m;
			}
			if (!sw->nmodes) {
				aff_err("--thread-modes: empty");
				return -1;
			}
			break;
		}
		case 'r':
			sw->runs = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || sw->runs < 1 || sw->runs > 100) {
				aff_err("--runs '%s': a number 1-100", optarg);
				return -1;
			}
			break;
		case 'R':
			sw->runtime = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || sw->runtime < 1 || sw->runtime > 3600) {
				aff_err("--runtime '%s': seconds, 1-3600",
					optarg);
				return -1;
			}
			break;
		case 'j':
			sw->job = optarg;
			break;
		case 'f':
			sw->filename = optarg;
			break;
		case 'L':
			sw->relogin = optarg;
			break;
		case 'o':
			if (check_out(optarg))
				return -1;
			sw->out = optarg;
			break;
		case 'N':
			sw->png = false;
			break;
		case 'i':
			if (aff_add_irq_pat(e, optarg))
				return -1;
			break;
		case 'c':
			if (cs_parse_list(optarg, &sw->lo.irq_cpus, err,
					  sizeof(err))) {
				aff_err("--irq-cpus: %s", err);
				return -1;
			}
			sw->lo.have_irq_cpus = true;
			break;
		case 'F':
			sw->fio = optarg;
			break;
		case 'h':
			sweep_usage(stdout);
			exit(0);
		default:
			sweep_usage(stderr);
			return -1;
		}
	}
	if (optind != argc || !!sw->job == !!sw->filename) {
		aff_err("sweep needs one of --filename DEV or --job FILE");
		sweep_usage(stderr);
		return -1;
	}
	return 0;
}

/* Make "none" and thread mode off part of the sweep: the baseline. */
static void add_baseline(struct sweep *sw)
{
	bool have = false;

	for (int l = 0; l < sw->nlayouts; l++)
		if (!strcmp(sw->layouts[l].text, "none"))
			have = true;
	if (!have && sw->nlayouts < MAX_LAYOUTS) {
		memmove(&sw->layouts[1], &sw->layouts[0],
			sizeof(sw->layouts[0]) * (size_t)sw->nlayouts);
		sw->nlayouts++;
		split_layout(&sw->layouts[0], "none");
		/* the words point into buf: redo the moved ones */
		for (int l = 1; l < sw->nlayouts; l++)
			split_layout(&sw->layouts[l], sw->layouts[l].text);
	}
	if (sw->modes[0] != 0 && (sw->nmodes == 1 || sw->modes[1] != 0)) {
		sw->modes[1] = sw->modes[0];
		sw->modes[0] = 0;
		sw->nmodes = 2;
	}
}

/* Every layout must be valid before anything changes. */
static int check_layouts(const struct aff_env *e, const struct sweep *sw,
			 int *cur_mode)
{
	struct aff_sys sys;
	char err[1024];
	int ret = 0;

	if (aff_read_sys(e, &sys))
		return -1;
	*cur_mode = -1;
	for (unsigned int t = 0; t < sys.ntargets; t++)
		if (sys.targets[t].thread_mode >= 0)
			*cur_mode = sys.targets[t].thread_mode;
	for (int l = 0; l < sw->nlayouts && !ret; l++) {
		struct aff_plan p;

		if (aff_plan_init(&p, &sys)) {
			ret = -1;
			break;
		}
		if (aff_layout(&sys, sw->layouts[l].nwords,
			       sw->layouts[l].words, &sw->lo, &p, err,
			       sizeof(err))) {
			aff_err("--layout '%s': %s; nothing changed",
				sw->layouts[l].text, err);
			ret = -1;
		}
		aff_plan_free(&p);
	}
	aff_free_sys(&sys);
	return ret;
}

static int restore_state(const struct aff_env *e, const char *file)
{
	struct aff_sys sys;
	aff_changes ch = { 0 };
	int ret = AFF_EXIT_SYS;

	if (aff_read_sys(e, &sys))
		return ret;
	ret = aff_restore_changes(e, &sys, file, &ch);
	if (ret == AFF_EXIT_OK)
		ret = aff_do_changes(e, &ch);
	aff_changes_free(&ch);
	aff_free_sys(&sys);
	return ret;
}

int aff_sweep(struct aff_env *e, int argc, char **argv)
{
	struct sweep sw = { .runs = 3, .runtime = 10, .fio = "fio",
			    .out = "sweep", .png = true,
			    .modes = { 0, 1 }, .nmodes = 2,
			    .lo = { .thread_mode = -1 } };
	unsigned int nconf, total, done = 0;
	struct aff_run *runs;
	struct aff_row *rows;
	char state[PATH_MAX + 16];
	struct sigaction sa;
	int cur_mode, orig_mode, ret = AFF_EXIT_OK;
	struct aff_sys sys;

	if (parse_args(e, &sw, argc, argv))
		return AFF_EXIT_USAGE;
	if (!sw.nlayouts) {
		split_layout(&sw.layouts[0], "none");
		split_layout(&sw.layouts[1], "spread");
		split_layout(&sw.layouts[2], "split");
		sw.nlayouts = 3;
	}
	add_baseline(&sw);
	if (check_layouts(e, &sw, &cur_mode))
		return AFF_EXIT_USAGE;
	orig_mode = cur_mode;
	if (!sw.relogin && (sw.nmodes > 1 || cur_mode != sw.modes[0])) {
		aff_err("thread mode applies to channels that log in after it changes: give --relogin CMD, or --thread-modes %s",
			mode_name(cur_mode > 0));
		return AFF_EXIT_USAGE;
	}
	nconf = (unsigned int)(sw.nlayouts * sw.nmodes);
	total = nconf * sw.runs;
	runs = calloc(total, sizeof(*runs));
	rows = calloc(nconf, sizeof(*rows));
	if (!runs || !rows) {
		free(runs);
		free(rows);
		aff_err("out of memory");
		return AFF_EXIT_SYS;
	}
	snprintf(state, sizeof(state), "%s.state", sw.out);
	if (aff_read_sys(e, &sys) || aff_save(e, &sys, state)) {
		ret = AFF_EXIT_SYS;
		goto out;
	}
	aff_free_sys(&sys);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	e->quiet = true;
	/* round r: every configuration once, in the same order */
	for (unsigned int r = 0; r < sw.runs && !sweep_stop; r++) {
		for (int m = 0; m < sw.nmodes && !sweep_stop; m++) {
			for (int l = 0; l < sw.nlayouts && !sweep_stop; l++) {
				unsigned int c = (unsigned int)(m * sw.nlayouts + l);
				struct aff_layout_opts lo = sw.lo;
				struct aff_run *run = &runs[c * sw.runs + r];
				int st;

				lo.thread_mode = sw.modes[m];
				if (aff_apply_layout(e, sw.layouts[l].nwords,
						     sw.layouts[l].words,
						     &lo)) {
					ret = AFF_EXIT_SYS;
					goto restore;
				}
				if (cur_mode != sw.modes[m] && sw.relogin) {
					if (relogin(&sw, sw.modes[m])) {
						ret = AFF_EXIT_SYS;
						goto restore;
					}
					cur_mode = sw.modes[m];
				}
				st = run_fio(e, &sw, run);
				if (st < 0) {
					ret = AFF_EXIT_SYS;
					goto restore;
				}
				if (st > 0)
					break;
				done++;
				printf("run %u/%u: layout '%s' thread mode %s: %.0f IOPS, clat %.1f us, p99 %.1f us, CPU busy %.1f%%\n",
				       done, total, sw.layouts[l].text,
				       mode_name(sw.modes[m]), run->iops,
				       run->clat_us, run->p99_us,
				       run->busy_pct);
				fflush(stdout);
			}
		}
	}
restore:
	e->quiet = false;
	if (restore_state(e, state) != AFF_EXIT_OK) {
		aff_err("restoring %s failed", state);
		ret = AFF_EXIT_SYS;
	} else {
		printf("restored the state from before the sweep (%s)\n", state);
	}
	if (sw.relogin && orig_mode >= 0 && cur_mode != orig_mode &&
	    relogin(&sw, orig_mode))
		ret = AFF_EXIT_SYS;
	if (sweep_stop) {
		aff_err("interrupted after %u of %u runs", done, total);
		ret = AFF_EXIT_INTR;
		goto out;
	}
	if (ret != AFF_EXIT_OK)
		goto out;
	for (unsigned int c = 0; c < nconf; c++) {
		int l = (int)(c % (unsigned int)sw.nlayouts);

		snprintf(rows[c].layout, sizeof(rows[c].layout), "%s",
			 sw.layouts[l].text);
		rows[c].thread_mode = sw.modes[c / (unsigned int)sw.nlayouts];
		aff_row_stats(&rows[c], &runs[c * sw.runs], sw.runs);
	}
	aff_rows_finish(rows, nconf);
	putchar('\n');
	print_table(stdout, rows, nconf);
	if (write_outputs(&sw, rows, nconf))
		ret = AFF_EXIT_SYS;
	else
		printf("wrote %s.txt, %s.csv\n", sw.out, sw.out);
out:
	free(runs);
	free(rows);
	return ret;
}
