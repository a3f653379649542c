/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usr/lib: access to SCST's management tree (/sys/kernel/scst_tgt, or a
 * fake tree in the tests), shared by scstadmin and scst-affinity. Paths
 * are relative to the root. Errors are -errno; what they mean to the
 * user, and the exit status, is the tool's to say.
 */
#ifndef SCST_USR_SYSFS_H
#define SCST_USR_SYSFS_H

#include <stdbool.h>

#include "alloc.h"

#define SCST_DEFAULT_ROOT	"/sys/kernel/scst_tgt"

/* The most of an attribute that is read (sysfs gives a page). */
#define SYSFS_ATTR_MAX		65536

struct sysfs {
	char *root;
	bool is_sysfs;		/* real sysfs (else a fake tree: append) */
	int eagain_timeout_ms;
	bool dry_run;		/* sysfs_write() writes nothing */
};

/* 0, or -errno (-ENOTDIR: not a directory); close it either way. */
int sysfs_open(struct sysfs *s, const char *root);
void sysfs_close(struct sysfs *s);
/* "ROOT/REL", allocated. */
char *sysfs_path(const struct sysfs *s, const char *rel);
bool sysfs_exists(const struct sysfs *s, const char *rel);
/* A regular file with a read permission bit (the kernel has a show). */
bool sysfs_readable(const struct sysfs *s, const char *rel);
/* A regular file with a write permission bit (the kernel has a store). */
bool sysfs_writable(const struct sysfs *s, const char *rel);
/* The whole file (up to SYSFS_ATTR_MAX bytes); NULL with errno set. */
char *sysfs_read_text(const struct sysfs *s, const char *rel);
/*
 * Read an attribute: its value (lines joined with blanks, trailing
 * newlines cut) and whether it ends in a "[key]" line. 0 or -errno.
 */
int sysfs_read_attr(const struct sysfs *s, const char *rel, char **value,
		    bool *is_key);
/*
 * Write "@text\n" to @rel: 0 or -errno. A write that says EAGAIN is
 * still running in the kernel; its result is then the one of
 * sysfs_resolve_eagain().
 */
int sysfs_write(const struct sysfs *s, const char *rel, const char *text);
/*
 * The result of a command whose write() said EAGAIN, from
 * last_sysfs_mgmt_res: 0 or -errno, -ETIMEDOUT if it stays -EAGAIN past
 * eagain_timeout_ms, -EAGAIN if it cannot be read.
 */
int sysfs_resolve_eagain(const struct sysfs *s);

enum sysfs_ent { SYSFS_FILE, SYSFS_DIR, SYSFS_LINK };
/*
 * Append the names in @rel of @kind (hidden entries skipped) to @out, then
 * sort all of @out: two calls list two kinds as one sorted list.
 */
void sysfs_list(const struct sysfs *s, const char *rel, enum sysfs_ent kind,
		str_vec *out);

#endif /* SCST_USR_SYSFS_H */
