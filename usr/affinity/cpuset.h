/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scst-affinity: CPU sets and their two kernel spellings, the list
 * ("0-3,8,10-11", /proc/irq/N/smp_affinity_list, Cpus_allowed_list) and
 * the hex mask of comma-separated 32-bit words, most significant first
 * ("ff,ffffffff", /proc/irq/N/smp_affinity, cpu_mask, comp_v_mask).
 * Pure: no system calls, so the unit tests build this very file.
 */
#ifndef SCST_AFF_CPUSET_H
#define SCST_AFF_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most CPUs (or completion vectors) a set holds: the kernel's NR_CPUS. */
#define AFF_MAX_CPUS	8192
#define AFF_WORDS	(AFF_MAX_CPUS / 32)

/*
 * Buffer sizes (with the NUL) that hold any set of AFF_MAX_CPUS: the
 * longest list is "0-1,3-4,6-7,..." (26568 characters for 8192 CPUs), the
 * longest mask 256 words of 8 digits and their commas.
 */
#define AFF_LIST_MAX	32768
#define AFF_MASK_MAX	(AFF_WORDS * 9)

struct cpuset {
	uint32_t w[AFF_WORDS];
};

void cs_zero(struct cpuset *s);
void cs_set(struct cpuset *s, unsigned int cpu);
bool cs_test(const struct cpuset *s, unsigned int cpu);
unsigned int cs_count(const struct cpuset *s);
bool cs_empty(const struct cpuset *s);
bool cs_equal(const struct cpuset *a, const struct cpuset *b);
bool cs_subset(const struct cpuset *a, const struct cpuset *of);
/* The @n-th (from 0) CPU of @s, or -1 if @s has no more than @n. */
int cs_nth(const struct cpuset *s, unsigned int n);
/* The lowest CPU of @s not in @of, or -1. */
int cs_first_not_in(const struct cpuset *s, const struct cpuset *of);
/* Highest CPU number in @s plus one (0 for an empty set). */
unsigned int cs_width(const struct cpuset *s);

/*
 * "0-3,8" into @s. An empty (or all-blank) string is the empty set.
 * Returns 0, or -1 with a message naming the bad token in @err.
 */
int cs_parse_list(const char *str, struct cpuset *s, char *err, size_t errlen);
/* Write @s as a list; returns the length it needs (as snprintf). */
size_t cs_format_list(const struct cpuset *s, char *buf, size_t len);

/* "ffffffff,00000001" into @s. Returns 0, or -1 with @err set. */
int cs_parse_mask(const char *str, struct cpuset *s, char *err, size_t errlen);
/*
 * Write @s as the kernel does for a bitmap of @nbits bits (%*pb): 32-bit
 * words, the first zero-padded to the hex digits its bits need, the others
 * to 8. Bits of @s at or above @nbits are not written.
 */
size_t cs_format_mask(const struct cpuset *s, unsigned int nbits, char *buf,
		      size_t len);

#endif /* SCST_AFF_CPUSET_H */
