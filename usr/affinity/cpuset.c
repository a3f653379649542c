// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity: CPU set parsing and formatting (see cpuset.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cpuset.h"

void cs_zero(struct cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void cs_set(struct cpuset *s, unsigned int cpu)
{
	if (cpu < AFF_MAX_CPUS)
		s->w[cpu / 32] |= 1u << (cpu % 32);
}

bool cs_test(const struct cpuset *s, unsigned int cpu)
{
	return cpu < AFF_MAX_CPUS && (s->w[cpu / 32] >> (cpu % 32)) & 1;
}

unsigned int cs_count(const struct cpuset *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < AFF_WORDS; i++)
		n += (unsigned int)__builtin_popcount(s->w[i]);
	return n;
}

bool cs_empty(const struct cpuset *s)
{
	for (unsigned int i = 0; i < AFF_WORDS; i++)
		if (s->w[i])
			return false;
	return true;
}

bool cs_equal(const struct cpuset *a, const struct cpuset *b)
{
	return memcmp(a->w, b->w, sizeof(a->w)) == 0;
}

bool cs_subset(const struct cpuset *a, const struct cpuset *of)
{
	for (unsigned int i = 0; i < AFF_WORDS; i++)
		if (a->w[i] & ~of->w[i])
			return false;
	return true;
}

int cs_nth(const struct cpuset *s, unsigned int n)
{
	for (unsigned int c = 0; c < AFF_MAX_CPUS; c++)
		if (cs_test(s, c) && n-- == 0)
			return (int)c;
	return -1;
}

int cs_first_not_in(const struct cpuset *s, const struct cpuset *of)
{
	for (unsigned int c = 0; c < AFF_MAX_CPUS; c++)
		if (cs_test(s, c) && !cs_test(of, c))
			return (int)c;
	return -1;
}

unsigned int cs_width(const struct cpuset *s)
{
	for (unsigned int i = AFF_WORDS; i-- > 0;)
		if (s->w[i])
			return i * 32 + 32 - (unsigned int)__builtin_clz(s->w[i]);
	return 0;
}

/* A decimal CPU number at *p, below AFF_MAX_CPUS; advances *p. */
static int parse_cpu(const char **p, unsigned int *cpu)
{
	unsigned long v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v >= AFF_MAX_CPUS)
			return -1;
		s++;
	}
	*cpu = (unsigned int)v;
	*p = s;
	return 0;
}

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

/* After an element: 1 at the end, 0 past a comma, -1 for anything else. */
static int next_elem(const char **p)
{
	*p = skip_blank(*p);
	if (!**p)
		return 1;
	if (**p != ',')
		return -1;
	(*p)++;
	return 0;
}

int cs_parse_list(const char *str, struct cpuset *s, char *err, size_t errlen)
{
	const char *p = skip_blank(str);
	struct cpuset r;

	cs_zero(&r);
	if (!*p) {
		*s = r;
		return 0;
	}
	for (;;) {
		const char *tok = p;
		unsigned int a, b;
		int toklen, sep;

		if (parse_cpu(&p, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &b) || b < a)
				goto bad;
		}
		for (unsigned int c = a; c <= b; c++)
			cs_set(&r, c);
		sep = next_elem(&p);
		if (sep > 0)
			break;
		if (!sep)
			continue;
bad:
		toklen = (int)strcspn(tok, ",");
		snprintf(err, errlen,
			 "bad CPU list '%s': '%.*s' is not a CPU number or range below %d",
			 str, toklen, tok, AFF_MAX_CPUS);
		return -1;
	}
	*s = r;
	return 0;
}

size_t cs_format_list(const struct cpuset *s, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int c = 0;

	if (len)
		buf[0] = '\0';
	while (c < AFF_MAX_CPUS) {
		unsigned int e;
		int w;

		if (!cs_test(s, c)) {
			c++;
			continue;
		}
		e = c;
		while (e + 1 < AFF_MAX_CPUS && cs_test(s, e + 1))
			e++;
		if (e == c)
			w = snprintf(buf + (n < len ? n : len),
				     n < len ? len - n : 0, "%s%u",
				     n ? "," : "", c);
		else
			w = snprintf(buf + (n < len ? n : len),
				     n < len ? len - n : 0, "%s%u-%u",
				     n ? "," : "", c, e);
		n += (size_t)w;
		c = e + 1;
	}
	return n;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int cs_parse_mask(const char *str, struct cpuset *s, char *err, size_t errlen)
{
	const char *p = skip_blank(str);
	uint32_t words[AFF_WORDS];
	unsigned int nw = 0;
	struct cpuset r;
	const char *tok;

	for (;;) {
		uint32_t v = 0;
		int nd = 0, sep;

		tok = p;
		while (hexval(*p) >= 0) {
			if (++nd > 8)
				goto bad;
			v = v << 4 | (uint32_t)hexval(*p);
			p++;
		}
		if (!nd || nw == AFF_WORDS)
			goto bad;
		words[nw++] = v;
		sep = next_elem(&p);
		if (sep > 0)
			break;
		if (sep < 0)
			goto bad;
	}
	cs_zero(&r);
	for (unsigned int i = 0; i < nw; i++)
		r.w[nw - 1 - i] = words[i];
	*s = r;
	return 0;
bad:
	snprintf(err, errlen,
		 "bad hex mask '%s' at '%.*s' (comma-separated words of 1-8 hex digits, at most %d bits)",
		 str, (int)strcspn(tok, ","), tok, AFF_MAX_CPUS);
	return -1;
}

size_t cs_format_mask(const struct cpuset *s, unsigned int nbits, char *buf,
		      size_t len)
{
	unsigned int chunk, words;
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	if (!nbits)
		return 0;
	if (nbits > AFF_MAX_CPUS)
		nbits = AFF_MAX_CPUS;
	words = (nbits + 31) / 32;
	chunk = nbits % 32 ? nbits % 32 : 32;
	for (unsigned int i = words; i-- > 0;) {
		uint32_t v = s->w[i];
		int w;

		if (chunk < 32)
			v &= (1u << chunk) - 1;
		w = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
			     "%s%0*x", n ? "," : "", (int)(chunk + 3) / 4, v);
		n += (size_t)w;
		chunk = 32;
	}
	return n;
}
