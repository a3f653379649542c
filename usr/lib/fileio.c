// SPDX-License-Identifier: GPL-2.0-only
/*
 * usr/lib: reading a whole file (see fileio.h).
 */
#include <errno.h>
#include <unistd.h>

#include "fileio.h"

ssize_t read_fd_all(int fd, char *buf, size_t len)
{
	size_t n = 0;

	for (;;) {
		ssize_t r;
		char more;

		if (n == len - 1) {
			/* full: anything further would be lost */
			r = read(fd, &more, 1);
			if (r > 0) {
				buf[n] = '\0';
				return -EFBIG;
			}
		} else {
			r = read(fd, buf + n, len - 1 - n);
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	return (ssize_t)n;
}
