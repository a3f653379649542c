/* SPDX-License-Identifier: GPL-2.0-only */
/* Common includes for the scstadmin unit tests (usr/scstadmin). */
#ifndef SCSTADMIN_UNIT_H
#define SCSTADMIN_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <sys/types.h>

#include "scstadmin.h"

/* test_scstadmin_harness.c: the fake management tree of the CLI tests */
#ifndef SCSTADMIN_BIN
#define SCSTADMIN_BIN "../../usr/scstadmin/scstadmin"
#endif

extern char fake_root[256];

/* cmocka setup/teardown: the standard tree (see the harness) */
int fake_setup(void **state);
int fake_teardown(void **state);

void fake_put(const char *rel, const char *content);
void fake_put_mode(const char *rel, const char *content, mode_t mode);
void fake_link(const char *rel, const char *target);
/* A file's content (empty if it cannot be read); the caller frees it. */
char *slurp(const char *path);
char *fake_get(const char *rel);
/* Fails the test unless the tree's file @rel holds exactly @want. */
void check_file(const char *rel, const char *want);
/* Writes ROOT.conf (removed by fake_teardown); returns its path. */
const char *fake_conf(const char *text);
/* Every path of the tree with its mode and content or link target. */
char *fake_snapshot(void);
/* Fails the test if the tree differs from the snapshot @before. */
void check_unchanged(const char *before);

struct res {
	int rc;
	char *out, *err;
};

/** struct run_env - how run_argv() starts scstadmin (NULL: the usual) */
struct run_env {
	const char *root;	/* another root (NULL: the fake tree) */
	const char *tty;	/* stdin is a terminal where this was typed */
	bool env_root;		/* root in SCST_SYSFS_ROOT, not --sysfs-root */
	bool merged;		/* stdout and stderr into one pipe (r.out) */
	bool nobody;		/* run as uid/gid 65534: permissions apply */
	const char *bin;	/* this binary (NULL: SCSTADMIN_BIN) */
};

/* Run scstadmin --sysfs-root ROOT ARGS... (@args NULL-terminated). */
struct res run_argv(const struct run_env *env, const char *const *args);
/* The same with the arguments listed, NULL last. */
struct res run(const char *arg, ...);
void res_free(struct res *r);

/** struct opt_case - one run of scstadmin and what it must do */
struct opt_case {
	const char *name;
	const char *args[24];	/* "@CONF": the path of @conf */
	void (*prep)(void);	/* adds to the tree before the run */
	const char *conf;	/* configuration file to write */
	int rc;
	const char *out;	/* in stdout */
	const char *not_out;	/* not in stdout */
	const char *err;	/* in stderr (else stderr must be empty) */
	const char *file;	/* this file of the tree must then hold */
	const char *content;	/* exactly this; without @file nothing changes */
	struct run_env env;
};

#define A(...)	{ __VA_ARGS__, NULL }
#define DT	"-driver", "ib_srpt", "-target", "gid1"
#define DTG	DT, "-group", "g1"
#define LUNS	"targets/ib_srpt/gid1/luns/mgmt"
#define G1	"targets/ib_srpt/gid1/ini_groups/g1/"
#define NOSCST	{ .root = "/nonexistent/scst" }

#define FAKE_FILEIO_USAGE "Usage: echo \"add_device NAME filename=...\" >mgmt\n" \
	"The following parameters available: filename, blocksize, read_only\n"

/* Additions to the standard tree (prep of a case). */
void prep_g2(void);		/* group g2 of gid1, empty */
void prep_local(void);		/* scst_local: creates targets; target loc1 */
void prep_fileio(void);		/* vdisk_fileio publishing its parameters */
void prep_no_init_mgmt(void);	/* g1 lost initiators/mgmt: adds fail */

/* cmocka test: runs the struct opt_case in *state and checks it */
void run_case(void **state);
/* The cases as a cmocka group (fake_setup/fake_teardown around each). */
int run_cases(const char *group, const struct opt_case *c, size_t n,
	      const struct CMUnitTest *extra, size_t nextra);

#define EXPECT(r, code, errtext) do {					\
	if ((r).rc != (code) || !strstr((r).err, (errtext)))		\
		fail_msg("rc %d (want %d), stderr '%s' (want '%s'), stdout '%s'", \
			 (r).rc, (code), (r).err, (errtext), (r).out);	\
} while (0)

#endif
