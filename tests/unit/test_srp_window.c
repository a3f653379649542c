// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for srpt/srp_window.c: the scatterlist entries one memory
 * descriptor's RDMA transfer covers (srpt_sg_window()).
 */
#include "unit.h"
#include "srp_iu.h"

struct lens {
	const u32 *len;
	u32 n;		/* entries */
	u32 calls;	/* next_len() calls */
};

static u32 next_len(void *it)
{
	struct lens *l = it;

	/* never past the entries: the kernel's list would end there */
	assert_true(l->calls < l->n);
	return l->len[l->calls++];
}

static int win(const u32 *len, u32 n, u32 off, u32 wlen, struct srp_sg_win *w)
{
	struct lens l = { len, n, 0 };

	return srp_sg_window(n, next_len, &l, off, wlen, w);
}

#define WIN(a, off, len, w)	win(a, ARRAY_SIZE(a), off, len, w)

static void expect(const struct srp_sg_win *w, u32 first, u32 first_off,
		   u32 nents, u32 last_len, bool whole)
{
	assert_int_equal(w->first, first);
	assert_int_equal(w->first_off, first_off);
	assert_int_equal(w->nents, nents);
	assert_int_equal(w->last_len, last_len);
	assert_int_equal(w->whole, whole);
}

static void test_edges(void **state)
{
	static const u32 pages[] = { 4096, 4096, 4096, 4096 };
	struct srp_sg_win w;

	(void)state;
	/* at 0: the first entries exactly are the list itself */
	assert_int_equal(WIN(pages, 0, 4096, &w), 0);
	expect(&w, 0, 0, 1, 4096, true);
	assert_int_equal(WIN(pages, 0, 16384, &w), 0);
	expect(&w, 0, 0, 4, 4096, true);
	/* at 0 but ending inside an entry: a new list */
	assert_int_equal(WIN(pages, 0, 4097, &w), 0);
	expect(&w, 0, 0, 2, 1, false);
	assert_int_equal(WIN(pages, 0, 1, &w), 0);
	expect(&w, 0, 0, 1, 1, false);
	/* starting on an entry boundary after 0 */
	assert_int_equal(WIN(pages, 4096, 8192, &w), 0);
	expect(&w, 1, 0, 2, 4096, false);
	/* crossing entries, entered and left in the middle */
	assert_int_equal(WIN(pages, 100, 8192, &w), 0);
	expect(&w, 0, 100, 3, 100, false);
	assert_int_equal(WIN(pages, 4095, 2, &w), 0);
	expect(&w, 0, 4095, 2, 1, false);
	/* the last byte, and the end */
	assert_int_equal(WIN(pages, 16383, 1, &w), 0);
	expect(&w, 3, 4095, 1, 1, false);
	assert_int_equal(WIN(pages, 12288, 4096, &w), 0);
	expect(&w, 3, 0, 1, 4096, false);
	assert_int_equal(WIN(pages, 16384, 1, &w), -EINVAL);
	assert_int_equal(WIN(pages, 16383, 2, &w), -EINVAL);
	assert_int_equal(WIN(pages, 0, 16385, &w), -EINVAL);
	expect(&w, 0, 0, 0, 0, false);
	/* empty windows and lists */
	assert_int_equal(WIN(pages, 0, 0, &w), -EINVAL);
	assert_int_equal(WIN(pages, 4096, 0, &w), -EINVAL);
	assert_int_equal(win(pages, 0, 0, 1, &w), -EINVAL);
}

/* off + len past 2^32 must not wrap into a window that fits */
static void test_overflow(void **state)
{
	static const u32 big[] = { 0x80000000, 0x7fffffff };
	static const u32 pages[] = { 4096, 4096 };
	struct srp_sg_win w;

	(void)state;
	assert_int_equal(WIN(pages, 0xffffff00, 0x200, &w), -EINVAL);
	assert_int_equal(WIN(pages, 1, 0xffffffff, &w), -EINVAL);
	assert_int_equal(WIN(pages, 0xffffffff, 0xffffffff, &w), -EINVAL);
	/* the largest buffer: 2^32 - 1 bytes */
	assert_int_equal(WIN(big, 0, 0xffffffff, &w), 0);
	expect(&w, 0, 0, 2, 0x7fffffff, true);
	assert_int_equal(WIN(big, 0x7fffffff, 0x80000000, &w), 0);
	expect(&w, 0, 0x7fffffff, 2, 0x7fffffff, false);
	assert_int_equal(WIN(big, 0xfffffffe, 1, &w), 0);
	expect(&w, 1, 0x7ffffffe, 1, 1, false);
	assert_int_equal(WIN(big, 0xfffffffe, 2, &w), -EINVAL);
	assert_int_equal(WIN(big, 0xffffffff, 1, &w), -EINVAL);
}

static void test_zero_length(void **state)
{
	static const u32 lead[] = { 0, 0, 4096, 4096 };
	static const u32 mid[] = { 4096, 0, 4096 };
	static const u32 trail[] = { 4096, 0, 0 };
	static const u32 none[] = { 0, 0 };
	struct srp_sg_win w;

	(void)state;
	/*
	 * Entries of length 0 before the window are not in it: a window
	 * from 0 then is not the list itself, whose first entry is empty.
	 */
	assert_int_equal(WIN(lead, 0, 4096, &w), 0);
	expect(&w, 2, 0, 1, 4096, false);
	assert_int_equal(WIN(lead, 0, 8192, &w), 0);
	expect(&w, 2, 0, 2, 4096, false);
	/* inside it they are: the window is a run of entries */
	assert_int_equal(WIN(mid, 0, 8192, &w), 0);
	expect(&w, 0, 0, 3, 4096, true);
	assert_int_equal(WIN(mid, 4000, 200, &w), 0);
	expect(&w, 0, 4000, 3, 104, false);
	/* the window ends at the first entry that reaches its end */
	assert_int_equal(WIN(mid, 0, 4096, &w), 0);
	expect(&w, 0, 0, 1, 4096, true);
	assert_int_equal(WIN(mid, 4096, 100, &w), 0);
	expect(&w, 2, 0, 1, 100, false);
	assert_int_equal(WIN(trail, 0, 4096, &w), 0);
	expect(&w, 0, 0, 1, 4096, true);
	assert_int_equal(WIN(trail, 4096, 1, &w), -EINVAL);
	assert_int_equal(WIN(none, 0, 1, &w), -EINVAL);
}

/* Every window of small random lists, against the bytes they hold. */
static void test_random(void **state)
{
	u32 seed = 0x5eed, len[8], owner[64], start[8], n, total, off, l, i;
	struct srp_sg_win w;
	int round, ret;

	(void)state;
	for (round = 0; round < 300; round++) {
		n = 1 + unit_rand(&seed) % 8;
		total = 0;
		for (i = 0; i < n; i++) {
			len[i] = unit_rand(&seed) % 4 ? unit_rand(&seed) % 9 : 0;
			start[i] = total;
			for (l = 0; l < len[i]; l++)
				owner[total + l] = i;
			total += len[i];
		}
		for (off = 0; off <= total + 1; off++) {
			for (l = 0; l <= total + 1 - off; l++) {
				u32 first, last;

				ret = win(len, n, off, l, &w);
				if (!l || off + l > total) {
					assert_int_equal(ret, -EINVAL);
					continue;
				}
				assert_int_equal(ret, 0);
				first = owner[off];
				last = owner[off + l - 1];
				assert_int_equal(w.first, first);
				assert_int_equal(w.first_off, off - start[first]);
				assert_int_equal(w.nents, last - first + 1);
				assert_int_equal(w.last_len,
						 off + l - (first == last ? off :
							    start[last]));
				assert_int_equal(w.whole,
						 !off && !first &&
						 off + l == start[last] +
						 len[last]);
			}
		}
	}
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_zero_length),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests_name("srp_window", tests, NULL, NULL);
}
