// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command latency statistics as SCST's sessions/<sess>/latency/ files
 * show them (measure_latency 1): one file per data direction (n none,
 * r read, w write, b bidirectional) and transfer size (512 to 524288
 * bytes, powers of two), each with a line per stage of the command and
 * a total:
 *
 *   state count min max avg stddev
 *   INIT 12 3.1 9.0 4.2 1.3 us
 *   EXEC 12 ...
 *   XMIT 12 ...
 *   total 12 - - 15.0 2.1 us
 *
 * Times in microseconds with one decimal; the total's average is the sum
 * of the stages' averages, its deviation their count times the deviation
 * of all the stages' times together (SCST's arithmetic). The kernel side
 * (scst_latency.c) stamps the commands and adds their times here.
 */

#include <scst_logic.h>

/* 100 ns units: a second squared is 10^14, 10^5 of them fit in a u64 */
#define SCST_LAT_UNIT_NS	100

static const char *const scst_lat_stage_names[SCST_LAT_STAGES] = {
	[SCST_LAT_INIT] = "INIT",
	[SCST_LAT_EXEC] = "EXEC",
	[SCST_LAT_XMIT] = "XMIT",
};

static const char scst_lat_dir_letters[SCST_LAT_DIRS] = {
	/* by enum scst_data_direction: NONE, WRITE, READ, BIDI */
	'n', 'w', 'r', 'b',
};

/**
 * scst_lat_bucket() - the size bucket of a transfer
 * @bytes: the command's data length
 *
 * Return: 0 for 512 bytes and less, floor(log2(@bytes)) - 9 above, at
 * most SCST_LAT_SIZES - 1.
 */
int scst_lat_bucket(u64 bytes)
{
	int i = 0;

	while (bytes >> (SCST_LAT_LOG2_MIN + i + 1) &&
	       i < SCST_LAT_SIZES - 1)
		i++;
	return i;
}

/**
 * scst_lat_add() - add one command's time of a stage
 * @e: the stage's entry
 * @ns: the time in nanoseconds
 *
 * A count that would wrap leaves the entry as it is.
 */
void scst_lat_add(struct scst_lat_entry *e, u64 ns)
{
	u64 t = ns / SCST_LAT_UNIT_NS;

	if (e->count == U32_MAX || t > U32_MAX)
		return;
	if (!e->count || t < e->min)
		e->min = t;
	if (t > e->max)
		e->max = t;
	e->count++;
	e->sum += t;
	e->sumsq += t * t;
}

/**
 * scst_lat_file_parse() - the direction and size of a latency file name
 * @name: as n512, r4096, w524288, b65536
 * @dir: receives the direction (enum scst_data_direction)
 * @size: receives the size bucket
 *
 * Return: 0, or -EINVAL for a name that is not one of the files.
 */
int scst_lat_file_parse(const char *name, unsigned int *dir,
			unsigned int *size)
{
	unsigned int d, i;
	char want[16];

	for (d = 0; d < SCST_LAT_DIRS; d++)
		if (name[0] == scst_lat_dir_letters[d])
			break;
	if (d == SCST_LAT_DIRS)
		return -EINVAL;
	for (i = 0; i < SCST_LAT_SIZES; i++) {
		snprintf(want, sizeof(want), "%c%u", name[0],
			 1u << (SCST_LAT_LOG2_MIN + i));
		if (!strcmp(want, name)) {
			*dir = d;
			*size = i;
			return 0;
		}
	}
	return -EINVAL;
}

static u64 scst_lat_isqrt(u64 x)
{
	u64 r = 0, b = 1ULL << 62;

	while (b > x)
		b >>= 2;
	while (b) {
		if (x >= r + b) {
			x -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
		b >>= 2;
	}
	return r;
}

/* sqrt((sumsq - sum^2 / count) / count); 0 when rounding goes below */
static u64 scst_lat_stddev(u64 sumsq, u64 sum, u64 count)
{
	u64 mean = sum / count, m2 = sumsq / count;

	return m2 > mean * mean ? scst_lat_isqrt(m2 - mean * mean) : 0;
}

/*
 * Appends to @buf (which has @len bytes) at *@pos, as scnprintf() does:
 * the text is cut at the end of the buffer, which stays terminated.
 */
static void scst_lat_put(char *buf, size_t len, size_t *pos, const char *s)
{
	size_t n = strlen(s);

	if (*pos + 1 >= len)
		return;
	if (n > len - 1 - *pos)
		n = len - 1 - *pos;
	memcpy(buf + *pos, s, n);
	*pos += n;
	buf[*pos] = '\0';
}

static void scst_lat_us(char *out, size_t size, u64 t)
{
	snprintf(out, size, "%llu.%llu", (unsigned long long)(t / 10),
		 (unsigned long long)(t % 10));
}

/**
 * scst_lat_format() - the text of one latency file
 * @s: the session's statistics, or NULL when it has none
 * @dir: the direction
 * @size: the size bucket
 * @buf: the buffer
 * @len: its size (at least 1)
 *
 * Return: the length of the text in @buf.
 */
int scst_lat_format(const struct scst_lat_stats *s, unsigned int dir,
		    unsigned int size, char *buf, size_t len)
{
	u64 sum = 0, sumsq = 0, count = 0, numst = 0;
	char line[160], a[24], b[24], c[24], d[24];
	size_t pos = 0;
	unsigned int k;

	buf[0] = '\0';
	scst_lat_put(buf, len, &pos, "state count min max avg stddev\n");
	if (!s || dir >= SCST_LAT_DIRS || size >= SCST_LAT_SIZES)
		return (int)pos;
	for (k = 0; k < SCST_LAT_STAGES; k++) {
		const struct scst_lat_entry *e = &s->e[dir][size][k];

		if (!e->count)
			continue;
		scst_lat_us(a, sizeof(a), e->min);
		scst_lat_us(b, sizeof(b), e->max);
		scst_lat_us(c, sizeof(c), e->sum / e->count);
		scst_lat_us(d, sizeof(d),
			    scst_lat_stddev(e->sumsq, e->sum, e->count));
		snprintf(line, sizeof(line), "%s %u %s %s %s %s us\n",
			 scst_lat_stage_names[k], e->count, a, b, c, d);
		scst_lat_put(buf, len, &pos, line);
		sum += e->sum;
		sumsq += e->sumsq;
		count += e->count;
		numst++;
	}
	if (count) {
		scst_lat_us(c, sizeof(c), numst * sum / count);
		scst_lat_us(d, sizeof(d),
			    numst * scst_lat_stddev(sumsq, sum, count));
		snprintf(line, sizeof(line), "total %llu - - %s %s us\n",
			 (unsigned long long)(count / numst), c, d);
		scst_lat_put(buf, len, &pos, line);
	}
	return (int)pos;
}
