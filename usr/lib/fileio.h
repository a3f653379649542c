/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usr/lib: reading a whole file, shared by scstadmin (sysfs attributes)
 * and scst-affinity (/proc and sysfs).
 */
#ifndef SCST_USR_FILEIO_H
#define SCST_USR_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Read all of @fd into @buf, up to @len - 1 bytes, and NUL-terminate it
 * (@len >= 1). A seq_file in /proc (interrupts, PID/status) returns about
 * a page per read(), so one read() would miss the rest. Returns the
 * length, -errno, or -EFBIG when the file is longer: @buf then holds its
 * first @len - 1 bytes, for a caller that takes a truncated value.
 */
ssize_t read_fd_all(int fd, char *buf, size_t len);

#endif /* SCST_USR_FILEIO_H */
