/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Common part of the libFuzzer harnesses of the pure-logic files
 * (Documentation/testing.md, "Fuzzing").
 *
 * Every harness compiles the very .c files that go into the kernel modules
 * (through scst_pure.h, like the unit tests) and checks invariants of what
 * they return, not only that they do not crash: FUZZ_CHECK() aborts with
 * the failed condition, which libFuzzer reports as a crash and saves.
 */
#ifndef __SCST_FUZZ_H
#define __SCST_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: invariant failed: %s\n",	\
			__FILE__, __LINE__, #cond);			\
		abort();						\
	}								\
} while (0)

/**
 * struct fuzz_in - the input, consumed from the front
 * @p: next byte
 * @n: bytes left
 *
 * Fixed-size values taken past the end of the input read as zero, so that
 * every input is valid and short inputs mean "mostly zero".
 */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	uint8_t v = 0;

	if (in->n) {
		v = *in->p++;
		in->n--;
	}
	return v;
}

static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
	return (uint16_t)(fuzz_u8(in) << 8 | fuzz_u8(in));
}

static inline uint32_t fuzz_u32(struct fuzz_in *in)
{
	uint32_t hi = fuzz_u16(in);

	return hi << 16 | fuzz_u16(in);
}

static inline uint64_t fuzz_u64(struct fuzz_in *in)
{
	uint64_t hi = fuzz_u32(in);

	return hi << 32 | fuzz_u32(in);
}

/*
 * A copy of @len bytes in a buffer of exactly that size (malloc'ed, so that
 * AddressSanitizer catches any read past it), taken from the input.
 */
static inline uint8_t *fuzz_take(struct fuzz_in *in, size_t len)
{
	uint8_t *b = malloc(len ? len : 1);

	if (!b)
		abort();
	memset(b, 0, len);
	if (len > in->n)
		len = in->n;
	if (len) {
		memcpy(b, in->p, len);
		in->p += len;
		in->n -= len;
	}
	return b;
}

/* @len bytes of the input (fewer at its end) as a string: @len + 1 bytes. */
static inline char *fuzz_take_str(struct fuzz_in *in, size_t len)
{
	uint8_t *b = fuzz_take(in, len), *s = malloc(len + 1);

	if (!s)
		abort();
	memcpy(s, b, len);
	s[len] = '\0';
	free(b);
	return (char *)s;
}

/* The rest of the input, in a buffer of exactly its size. */
static inline uint8_t *fuzz_rest(struct fuzz_in *in, size_t *len)
{
	*len = in->n;
	return fuzz_take(in, in->n);
}

/* Whether @p .. @p + @n lies inside @base .. @base + @size. */
static inline int fuzz_within(const void *base, size_t size, const void *p,
			      size_t n)
{
	const uint8_t *b = base, *q = p;

	return q >= b && (size_t)(q - b) <= size && n <= size - (size_t)(q - b);
}

#endif /* __SCST_FUZZ_H */
