/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Portability header for the pure-logic files of the SCST core
 * (Documentation/design.md §6 "Pure logic and how it is tested").
 *
 * A file that includes only this header compiles unchanged into the kernel
 * modules and into the userspace unit tests and fuzzers. In the kernel it
 * pulls in the few kernel headers such code needs; in userspace it provides
 * the same names on top of libc. Add nothing here that has no meaning in
 * both worlds.
 */
#ifndef __SCST_PURE_H
#define __SCST_PURE_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/ctype.h>
/* linux/unaligned.h since 6.12, asm/unaligned.h until then */
#if __has_include("linux/unaligned.h")
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#else /* !__KERNEL__ */

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <stdio.h>	/* snprintf(), as the kernel's */
#include <ctype.h>

/* The kernel's own definitions, include/uapi/asm-generic/int-ll64.h */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef signed short s16;
typedef signed int s32;
typedef signed long long s64;
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))

#define min(a, b) ({ typeof(a) _min_a = (a); typeof(b) _min_b = (b); \
		     _min_a < _min_b ? _min_a : _min_b; })
#define max(a, b) ({ typeof(a) _max_a = (a); typeof(b) _max_b = (b); \
		     _max_a > _max_b ? _max_a : _max_b; })
#define min_t(type, a, b) min((type)(a), (type)(b))
#define max_t(type, a, b) max((type)(a), (type)(b))

/* Userspace links the pure-logic objects into each program directly. */
#define EXPORT_SYMBOL_GPL(sym)

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 get_unaligned_be24(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 16 | (u32)b[1] << 8 | b[2];
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline u64 get_unaligned_be64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_be32(b) << 32 | get_unaligned_be32(b + 4);
}

static inline void put_unaligned_be16(u16 val, void *p)
{
	u8 *b = p;

	b[0] = val >> 8;
	b[1] = val;
}

static inline void put_unaligned_be24(u32 val, void *p)
{
	u8 *b = p;

	b[0] = val >> 16;
	b[1] = val >> 8;
	b[2] = val;
}

static inline void put_unaligned_be32(u32 val, void *p)
{
	u8 *b = p;

	b[0] = val >> 24;
	b[1] = val >> 16;
	b[2] = val >> 8;
	b[3] = val;
}

static inline void put_unaligned_be64(u64 val, void *p)
{
	u8 *b = p;

	put_unaligned_be32(val >> 32, b);
	put_unaligned_be32((u32)val, b + 4);
}

#endif /* __KERNEL__ */

#endif /* __SCST_PURE_H */
