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

#endif /* __SCST_UNIT_H */
