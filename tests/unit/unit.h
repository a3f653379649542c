/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Common includes for the userspace unit tests of the pure-logic files.
 * cmocka.h needs stdarg.h, stddef.h and setjmp.h before it.
 */
#ifndef __SCST_UNIT_H
#define __SCST_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <scst_logic.h>

/* The array of cases for cmocka_run_group_tests_name(), cmocka's type. */
#define UNIT_TEST_LIST(name)	struct CMUnitTest name[]

/* Deterministic xorshift32 generator for the randomized cases. */
static inline u32 unit_rand(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/*
 * Buffer checks. Tests fill an output buffer with FILL (CANARY) before a
 * call, then check the bytes the call must write and that the ones past
 * them are untouched.
 */
#define FILL	0xa5
#define CANARY	FILL

static inline void fill(u8 *buf, size_t len)
{
	memset(buf, FILL, len);
}

/* Fail at the first of @len bytes of @got that differs from @want. */
static inline void assert_bytes(const u8 *got, const u8 *want, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (got[i] != want[i])
			fail_msg("byte %zu: 0x%02x, expected 0x%02x", i,
				 got[i], want[i]);
}

/* Fail if a byte of @buf in [@from, @to) is no longer FILL. */
static inline void assert_filled(const u8 *buf, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (buf[i] != FILL)
			fail_msg("byte %zu overwritten: 0x%02x", i, buf[i]);
}

/* As assert_bytes() and assert_filled(), naming the table row @what. */
static inline void check_bytes(const char *what, const u8 *got,
			       const u8 *exp, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (got[i] != exp[i])
			fail_msg("%s: byte %zu is %#04x, expected %#04x", what,
				 i, got[i], exp[i]);
}

static inline void check_canary(const char *what, const u8 *buf,
				size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (buf[i] != CANARY)
			fail_msg("%s: byte %zu written (%#04x)", what, i,
				 buf[i]);
}

/* Fail with the table row's name when two integers differ. */
#define CHECK_EQ(what, a, b)						\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b)						\
			fail_msg("%s: %s = %lld (%#llx), expected %lld (%#llx)", \
				 what, #a, _a, (unsigned long long)_a,	\
				 _b, (unsigned long long)_b);		\
	} while (0)

#endif /* __SCST_UNIT_H */
