// SPDX-License-Identifier: GPL-2.0-only
/*
 * usr/lib: access to the management tree (see sysfs.h).
 *
 * Writing follows SCST's last_sysfs_mgmt_res protocol: a write that fails
 * with EAGAIN is still running in the kernel; poll last_sysfs_mgmt_res
 * until it is no longer -EAGAIN and take that as the result.
 *
 * On a tree that is not sysfs (tests) writes to "mgmt" files are appended,
 * so a test sees every command that was sent; other writes replace the
 * file, as a sysfs store does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "sysfs.h"

#define SYSFS_MAGIC_NR	0x62656572

int sysfs_open(struct sysfs *s, const char *root)
{
	struct statfs sf;
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->root = xstrdup(root);
	s->eagain_timeout_ms = 30000;
	if (stat(root, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	s->is_sysfs = statfs(root, &sf) == 0 &&
		      (unsigned long)sf.f_type == SYSFS_MAGIC_NR;
	return 0;
}

void sysfs_close(struct sysfs *s)
{
	free(s->root);
	s->root = NULL;
}

char *sysfs_path(const struct sysfs *s, const char *rel)
{
	return xasprintf("%s/%s", s->root, rel);
}

bool sysfs_exists(const struct sysfs *s, const char *rel)
{
	char *p = sysfs_path(s, rel);
	bool r = access(p, F_OK) == 0;

	free(p);
	return r;
}

/*
 * Permission bits, not access(2): root may write any file of a fake tree
 * and passes access(W_OK) even on sysfs files that have no store method.
 */
static bool sysfs_mode(const struct sysfs *s, const char *rel, mode_t bits)
{
	char *p = sysfs_path(s, rel);
	struct stat st;
	bool r = stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		 (st.st_mode & bits);

	free(p);
	return r;
}

bool sysfs_readable(const struct sysfs *s, const char *rel)
{
	return sysfs_mode(s, rel, 0444);
}

bool sysfs_writable(const struct sysfs *s, const char *rel)
{
	return sysfs_mode(s, rel, 0222);
}

char *sysfs_read_text(const struct sysfs *s, const char *rel)
{
	char *p = sysfs_path(s, rel);
	int fd = open(p, O_RDONLY);
	int err = errno;
	ssize_t n;
	char *buf;

	free(p);
	if (fd < 0) {
		errno = err;
		return NULL;
	}
	buf = xmalloc(SYSFS_ATTR_MAX + 1);
	n = read_fd_all(fd, buf, SYSFS_ATTR_MAX + 1);
	close(fd);
	/* a longer file is taken as its first SYSFS_ATTR_MAX bytes */
	if (n < 0 && n != -EFBIG) {
		free(buf);
		errno = (int)-n;
		return NULL;
	}
	return buf;
}

int sysfs_read_attr(const struct sysfs *s, const char *rel, char **value,
		    bool *is_key)
{
	char *buf = sysfs_read_text(s, rel);
	char *end;

	if (!buf)
		return -errno;
	*is_key = false;
	end = buf + strlen(buf);
	while (end > buf && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	/* last line "[key]"? */
	if (end - buf >= 5 && strcmp(end - 5, "[key]") == 0 &&
	    (end - 5 == buf || end[-6] == '\n')) {
		*is_key = true;
		end -= 5;
		*end = '\0';
		while (end > buf && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
	}
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
	*value = buf;
	return 0;
}

static long read_mgmt_res(const struct sysfs *s, bool *ok)
{
	char *v = NULL;
	bool key;
	long r;

	*ok = false;
	if (sysfs_read_attr(s, "last_sysfs_mgmt_res", &v, &key))
		return 0;
	r = strtol(v, NULL, 10);
	*ok = true;
	free(v);
	return r;
}

int sysfs_resolve_eagain(const struct sysfs *s)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int waited = 0;
	long r;
	bool ok;

	for (;;) {
		r = read_mgmt_res(s, &ok);
		if (!ok)
			return -EAGAIN;
		if (r != -EAGAIN)
			return (int)r;
		if (waited >= s->eagain_timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&ts, NULL);
		waited += 20;
	}
}

int sysfs_write(const struct sysfs *s, const char *rel, const char *text)
{
	const char *base = strrchr(rel, '/');
	bool mgmt = strcmp(base ? base + 1 : rel, "mgmt") == 0;
	int flags = O_WRONLY;
	char *p, *line;
	ssize_t n;
	int fd, ret = 0;

	if (s->dry_run)
		return 0;
	if (!s->is_sysfs)
		flags |= mgmt ? O_APPEND : O_TRUNC;
	p = sysfs_path(s, rel);
	fd = open(p, flags);
	free(p);
	if (fd < 0)
		return -errno;
	line = xasprintf("%s\n", text);
	n = write(fd, line, strlen(line));
	if (n < 0)
		ret = errno == EAGAIN ? sysfs_resolve_eagain(s) : -errno;
	else if ((size_t)n != strlen(line))
		ret = -EIO;
	free(line);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

void sysfs_list(const struct sysfs *s, const char *rel, enum sysfs_ent kind,
		str_vec *out)
{
	char *p = sysfs_path(s, rel);
	DIR *d = opendir(p);
	struct dirent *e;

	if (!d) {
		free(p);
		return;
	}
	while ((e = readdir(d))) {
		char *ep;
		struct stat st;
		enum sysfs_ent k;

		if (e->d_name[0] == '.')
			continue;
		ep = xasprintf("%s/%s", p, e->d_name);
		if (lstat(ep, &st)) {
			free(ep);
			continue;
		}
		free(ep);
		k = S_ISLNK(st.st_mode) ? SYSFS_LINK :
		    S_ISDIR(st.st_mode) ? SYSFS_DIR : SYSFS_FILE;
		if (k == kind)
			*vec_push(out) = xstrdup(e->d_name);
	}
	closedir(d);
	free(p);
	strs_sort(out);
}
