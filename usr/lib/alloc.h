/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usr/lib: allocation that cannot fail, growable arrays and string
 * vectors, shared by scstadmin and scst-affinity. Both are short-lived
 * command-line tools: running out of memory ends the process.
 */
#ifndef SCST_USR_ALLOC_H
#define SCST_USR_ALLOC_H

#include <stddef.h>

/*
 * The exit status when an allocation fails: 3, what both tools document
 * for a failed system read or write (scstadmin's EXIT_SYSFS,
 * scst-affinity's AFF_EXIT_SYS; their headers check they agree).
 */
#define XALLOC_EXIT_STATUS	3

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable array: v[0..n), room for cap; { 0 } is an empty one. */
#define VEC(T)	struct { T *v; size_t n, cap; }
void vec_reserve(void **v, size_t *cap, size_t want, size_t elsz);
/* A pointer to a new zeroed element at the end. */
#define vec_push(vec) \
	(vec_reserve((void **)&(vec)->v, &(vec)->cap, (vec)->n + 1, \
		     sizeof(*(vec)->v)), &(vec)->v[(vec)->n++])

/* Allocated strings (directory listings, messages). */
typedef VEC(char *) str_vec;
/* Free the strings and the array; @s is then empty again. */
void strs_free(str_vec *s);
/* Sort by strcmp(). */
void strs_sort(str_vec *s);

#endif /* SCST_USR_ALLOC_H */
