// SPDX-License-Identifier: GPL-2.0-only
/*
 * usr/lib: allocation helpers and string vectors (see alloc.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/*
 * The message names the tool that ran out (program_invocation_short_name
 * is glibc's and musl's), as the library serves more than one.
 */
static _Noreturn void out_of_memory(void)
{
	fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
	exit(XALLOC_EXIT_STATUS);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void vec_reserve(void **v, size_t *cap, size_t want, size_t elsz)
{
	size_t ncap;
	void *p;

	if (want <= *cap)
		return;
	ncap = *cap ? *cap * 2 : 4;
	while (ncap < want)
		ncap *= 2;
	p = realloc(*v, ncap * elsz);
	if (!p)
		out_of_memory();
	memset((char *)p + *cap * elsz, 0, (ncap - *cap) * elsz);
	*v = p;
	*cap = ncap;
}

void strs_free(str_vec *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
	s->cap = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strs_sort(str_vec *s)
{
	if (s->n > 1)
		qsort(s->v, s->n, sizeof(char *), cmp_str);
}
