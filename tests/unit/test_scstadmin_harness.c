// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fake management tree the scstadmin CLI tests run the binary on (not
 * a test binary of its own; linked into the test_scstadmin_* tests): the
 * standard tree in a temporary directory (attribute files, plain-file mgmt
 * files that collect what is written, symlinks as in sysfs), helpers to
 * add to it and read it back, a snapshot to prove that nothing changed,
 * and run(), which runs scstadmin on it and collects status and output.
 */
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scstadmin_unit.h"

char fake_root[256];

static void mkparents(char *p, size_t from)
{
	for (char *s = p + from; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
}

void fake_put_mode(const char *rel, const char *content, mode_t mode)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", fake_root, rel);
	mkparents(p, strlen(fake_root) + 1);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
	assert_int_equal(chmod(p, mode), 0);
}

void fake_put(const char *rel, const char *content)
{
	fake_put_mode(rel, content, 0644);
}

void fake_link(const char *rel, const char *target)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", fake_root, rel);
	mkparents(p, strlen(fake_root) + 1);
	assert_int_equal(symlink(target, p), 0);
}

char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = xcalloc(1, 65536);

	if (f) {
		size_t n = fread(buf, 1, 65535, f);

		buf[n] = '\0';
		fclose(f);
	}
	return buf;
}

char *fake_get(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", fake_root, rel);
	return slurp(p);
}

void check_file(const char *rel, const char *want)
{
	char *s = fake_get(rel);

	if (strcmp(s, want))
		fail_msg("%s: got '%s', want '%s'", rel, s, want);
	free(s);
}

const char *fake_conf(const char *text)
{
	static char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s.conf", fake_root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* A tree with one nullio device on an ib_srpt target with one group. */
int fake_setup(void **state)
{
	(void)state;
	strcpy(fake_root, "/tmp/scstadmin-test.XXXXXX");
	assert_non_null(mkdtemp(fake_root));
	fake_put("version", "3.11.0\n");
	fake_put("setup_id", "0x0\n");
	fake_put("last_sysfs_mgmt_res", "0\n");
	fake_put("handlers/vdisk_nullio/mgmt", "");
	fake_put("handlers/vdisk_nullio/type",
		 "0 - Direct-access device (e.g., magnetic disk)\n");
	fake_put("devices/n1/size_mb", "64\n[key]\n");
	fake_put("devices/n1/read_only", "0\n");
	fake_put("devices/n1/blocksize", "512\n");
	fake_link("handlers/vdisk_nullio/n1", "../../devices/n1");
	fake_link("devices/n1/handler", "../../handlers/vdisk_nullio");
	fake_put("targets/ib_srpt/mgmt", "");
	fake_put("targets/ib_srpt/gid1/enabled", "1\n[key]\n");
	fake_put("targets/ib_srpt/gid1/rel_tgt_id", "1\n[key]\n");
	fake_put("targets/ib_srpt/gid1/cpu_mask", "ff\n");
	fake_put("targets/ib_srpt/gid1/luns/mgmt", "");
	fake_put("targets/ib_srpt/gid1/luns/0/read_only", "0\n");
	fake_link("targets/ib_srpt/gid1/luns/0/device",
		  "../../../../../devices/n1");
	fake_put("targets/ib_srpt/gid1/ini_groups/mgmt", "");
	fake_put("targets/ib_srpt/gid1/ini_groups/g1/initiators/mgmt", "");
	fake_put("targets/ib_srpt/gid1/ini_groups/g1/initiators/0x12*", "");
	fake_put("targets/ib_srpt/gid1/ini_groups/g1/luns/mgmt", "");
	fake_put("targets/ib_srpt/gid1/ini_groups/g1/cpu_mask", "ff\n");
	fake_put("targets/ib_srpt/gid1/sessions/.keep", "");
	return 0;
}

int fake_teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s.conf'", fake_root,
		 fake_root);
	return system(cmd) != 0;
}

/* ---- additions to the standard tree, shared by the table tests -------- */

void prep_g2(void)
{
	fake_put("targets/ib_srpt/gid1/ini_groups/g2/initiators/mgmt", "");
	fake_put("targets/ib_srpt/gid1/ini_groups/g2/luns/mgmt", "");
}

void prep_local(void)
{
	fake_put("targets/scst_local/mgmt",
		 "Usage: echo \"add_target target_name\" >mgmt\n");
	fake_put("targets/scst_local/loc1/luns/mgmt", "");
	fake_put("targets/scst_local/loc1/ini_groups/mgmt", "");
}

void prep_fileio(void)
{
	fake_put("handlers/vdisk_fileio/mgmt", FAKE_FILEIO_USAGE);
}

void prep_no_init_mgmt(void)
{
	char p[400];

	snprintf(p, sizeof(p), "%s/" G1 "initiators/mgmt", fake_root);
	assert_int_equal(unlink(p), 0);
}

/* ---- snapshot ---------------------------------------------------------- */

static VEC(char *) snap;

static int snap_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	const char *rel = path + strlen(fake_root);
	char *what;

	(void)ftw;
	if (type == FTW_SL) {
		char buf[512];
		ssize_t n = readlink(path, buf, sizeof(buf) - 1);

		buf[n < 0 ? 0 : n] = '\0';
		what = xasprintf("-> %s", buf);
	} else if (type == FTW_F) {
		what = slurp(path);
	} else {
		what = xstrdup("(dir)");
	}
	*vec_push(&snap) = xasprintf("%s %o %s", rel,
				     (unsigned int)(st->st_mode & 07777), what);
	free(what);
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *fake_snapshot(void)
{
	char *all = xstrdup("");

	assert_int_equal(nftw(fake_root, snap_one, 16, FTW_PHYS), 0);
	qsort(snap.v, snap.n, sizeof(*snap.v), cmp_line);
	for (size_t i = 0; i < snap.n; i++) {
		char *n = xasprintf("%s%s\n", all, snap.v[i]);

		free(all);
		free(snap.v[i]);
		all = n;
	}
	free(snap.v);
	memset(&snap, 0, sizeof(snap));
	return all;
}

void check_unchanged(const char *before)
{
	char *now = fake_snapshot();
	size_t i = 0;

	while (before[i] && before[i] == now[i])
		i++;
	if (before[i] || now[i]) {
		/* the line where they part */
		while (i && before[i - 1] != '\n')
			i--;
		fail_msg("the tree changed: was '%.120s', now '%.120s'",
			 before + i, now + i);
	}
	free(now);
}

/* ---- running scstadmin ------------------------------------------------- */

/*
 * Child: stdin from /dev/null or the terminal @tty, stdout/stderr files,
 * or both into the pipe @pipe_w (merged: what "2>&1 | ..." sees).
 */
static void child(const struct run_env *env, const char *const *argv,
		  const char *out, const char *err, const char *tty,
		  int pipe_w)
{
	int fo = pipe_w >= 0 ? pipe_w :
		 open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int fi = open(tty ? tty : "/dev/null", O_RDONLY);

	dup2(fo, 1);
	dup2(env && env->merged ? fo : fe, 2);
	dup2(fi, 0);
	if (env && env->nobody && (setgid(65534) || setuid(65534)))
		_exit(126);
	if (env && env->env_root)
		setenv("SCST_SYSFS_ROOT", env->root ? env->root : fake_root, 1);
	else
		unsetenv("SCST_SYSFS_ROOT");
	execv(env && env->bin ? env->bin : SCSTADMIN_BIN, (char *const *)argv);
	_exit(127);
}

/* A pseudo-terminal: the master fd; @name gets the slave's path. */
static int open_tty(char *name, size_t len)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);

	assert_true(m >= 0);
	assert_int_equal(grantpt(m), 0);
	assert_int_equal(unlockpt(m), 0);
	assert_int_equal(ptsname_r(m, name, len), 0);
	return m;
}

struct res run_argv(const struct run_env *env, const char *const *args)
{
	const char *argv[40] = { SCSTADMIN_BIN };
	char out[300], err[300], tty[128];
	int n = 1, st, master = -1, slave = -1, pfd[2] = { -1, -1 };
	struct res r;
	pid_t pid;

	if (!env || !env->env_root) {
		argv[n++] = "--sysfs-root";
		argv[n++] = env && env->root ? env->root : fake_root;
	}
	for (; *args && n < 39; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	snprintf(out, sizeof(out), "/tmp/scstadmin-test.%d.out", (int)getpid());
	snprintf(err, sizeof(err), "/tmp/scstadmin-test.%d.err", (int)getpid());
	if (env && env->tty) {
		master = open_tty(tty, sizeof(tty));
		/* held open so that what is typed waits for the reader */
		slave = open(tty, O_RDWR | O_NOCTTY);
		assert_true(slave >= 0);
		assert_int_equal(write(master, env->tty, strlen(env->tty)),
				 (ssize_t)strlen(env->tty));
	}
	if (env && env->merged)
		assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (pfd[0] >= 0)
			close(pfd[0]);
		child(env, argv, out, err, env && env->tty ? tty : NULL,
		      pfd[1]);
	}
	if (pfd[0] >= 0) {
		/* what came through the pipe, in the order it came */
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		char buf[4096];
		ssize_t got;

		close(pfd[1]);
		while ((got = read(pfd[0], buf, sizeof(buf))) > 0)
			assert_int_equal(write(fo, buf, (size_t)got), got);
		close(pfd[0]);
		close(fo);
	}
	waitpid(pid, &st, 0);
	if (master >= 0) {
		close(slave);
		close(master);
	}
	r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	r.out = slurp(out);
	r.err = slurp(err);
	unlink(out);
	unlink(err);
	return r;
}

struct res run(const char *arg, ...)
{
	const char *args[32];
	int n = 0;
	va_list ap;

	va_start(ap, arg);
	for (const char *a = arg; a && n < 31; a = va_arg(ap, const char *))
		args[n++] = a;
	va_end(ap);
	args[n] = NULL;
	return run_argv(NULL, args);
}

void res_free(struct res *r)
{
	free(r->out);
	free(r->err);
}

/* ---- table-driven cases ------------------------------------------------ */

void run_case(void **state)
{
	const struct opt_case *c = *state;
	const char *args[24];
	char *conf_arg[24] = { NULL };
	char *before;
	struct res r;
	size_t i;

	if (c->prep)
		c->prep();
	for (i = 0; c->args[i]; i++) {
		const char *at = strstr(c->args[i], "@CONF");

		/* "@CONF", or "-config=@CONF": the file of c->conf */
		args[i] = c->args[i];
		if (at && !strcmp(at, "@CONF"))
			args[i] = conf_arg[i] = xasprintf("%.*s%s",
				(int)(at - c->args[i]), c->args[i],
				fake_conf(c->conf));
	}
	args[i] = NULL;
	before = fake_snapshot();
	r = run_argv(&c->env, args);
	if (r.rc != c->rc ||
	    (c->err ? !strstr(r.err, c->err) : *r.err != '\0') ||
	    (c->out && !strstr(r.out, c->out)) ||
	    (c->not_out && strstr(r.out, c->not_out)))
		fail_msg("rc %d (want %d)\nstdout '%s' (want '%s', not '%s')\nstderr '%s' (want '%s')",
			 r.rc, c->rc, r.out, c->out ? c->out : "",
			 c->not_out ? c->not_out : "", r.err,
			 c->err ? c->err : "");
	res_free(&r);
	if (c->file)
		check_file(c->file, c->content);
	else
		check_unchanged(before);
	free(before);
	for (i = 0; i < 24; i++)
		free(conf_arg[i]);
}

int run_cases(const char *group, const struct opt_case *c, size_t n,
	      const struct CMUnitTest *extra, size_t nextra)
{
	struct CMUnitTest *tests = xcalloc(n + nextra, sizeof(*tests));
	int ret;

	for (size_t i = 0; i < n; i++)
		tests[i] = (struct CMUnitTest){
			.name = c[i].name, .test_func = run_case,
			.setup_func = fake_setup,
			.teardown_func = fake_teardown,
			.initial_state = (void *)&c[i],
		};
	for (size_t i = 0; i < nextra; i++)
		tests[n + i] = extra[i];
	ret = _cmocka_run_group_tests(group, tests, n + nextra, NULL, NULL);
	free(tests);
	return ret;
}
