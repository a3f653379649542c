// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst-affinity: reading the system into struct aff_sys.
 *
 * IRQs come from three places: the MSI/MSI-X vectors of each RDMA
 * device's PCI function (/sys/class/infiniband/DEV/device/msi_irqs, or
 * without those the /proc/interrupts names with its PCI address or its
 * name, as mlx5_comp0@pci:0000:03:00.0), those
 * of the PCI function behind each SCST device's backing block device
 * (vdisk "filename"), and the lines of /proc/interrupts whose name matches
 * an --irq PATTERN (devices without MSI-X, virtio in a VM). The kernel
 * shows whether it manages an IRQ's affinity only in debugfs
 * (CONFIG_GENERIC_IRQ_DEBUGFS, kernel/debug/irq/irqs/N); elsewhere a write
 * to a managed IRQ's smp_affinity fails with EIO, which apply reports as
 * the same skip.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/fileio.h"
#include "affinity.h"

void aff_err(const char *fmt, ...)
{
	va_list ap;

	fputs("scst-affinity: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int aff_read_text(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX * 2];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read_fd_all(fd, buf, len);
	close(fd);
	if (n < 0) {
		buf[0] = '\0';
		return (int)n;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int aff_read_alloc(const char *root, const char *rel, size_t max, char **out)
{
	size_t len = 1 << 16;
	int ret;

	for (;;) {
		char *buf = malloc(len);

		if (!buf)
			return -ENOMEM;
		ret = aff_read_text(root, rel, buf, len);
		if (!ret) {
			*out = buf;
			return 0;
		}
		free(buf);
		if (ret != -EFBIG || len >= max)
			return ret;
		len *= 4;
		if (len > max)
			len = max;
	}
}

int aff_write_text(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	size_t len = strlen(text);
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int aff_pid_info(const struct aff_env *e, int pid, char *comm, size_t clen,
		 struct cpuset *allowed, int *last_cpu)
{
	char rel[64], buf[8192], err[128];
	char *p, *status;
	int field = 1;

	snprintf(rel, sizeof(rel), "%d/comm", pid);
	if (aff_read_text(e->proc, rel, comm, clen))
		return -1;
	snprintf(rel, sizeof(rel), "%d/status", pid);
	cs_zero(allowed);
	/* with 8192 CPUs the masks and lists in it pass 8 KiB */
	if (!aff_read_alloc(e->proc, rel, 1 << 20, &status)) {
		p = strstr(status, "Cpus_allowed_list:");
		if (p) {
			p += strlen("Cpus_allowed_list:");
			p[strcspn(p, "\n")] = '\0';
			cs_parse_list(p, allowed, err, sizeof(err));
		}
		free(status);
	}
	*last_cpu = -1;
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	if (aff_read_text(e->proc, rel, buf, sizeof(buf)))
		return 0;
	/* field 39 "processor"; the comm (field 2) may hold blanks */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	field = 2;
	for (; *p; p++) {
		if (*p != ' ')
			continue;
		if (++field == 39) {
			*last_cpu = atoi(p + 1);
			break;
		}
	}
	return 0;
}

/*
 * One more zeroed element at the end of the array *@arr of *@n elements of
 * @sz bytes; NULL on no memory, with *@arr as it was (still to be freed).
 */
static void *grow_arr(void **arr, unsigned int *n, size_t sz)
{
	char *p;

	if (*n == UINT_MAX)
		return NULL;
	p = reallocarray(*arr, (size_t)*n + 1, sz);
	if (!p)
		return NULL;
	*arr = p;
	memset(p + (size_t)*n * sz, 0, sz);
	return p + (size_t)(*n)++ * sz;
}

#define GROW(arr, n) \
	((__typeof__(arr))grow_arr((void **)&(arr), &(n), sizeof(*(arr))))

/*
 * The next numbered line of /proc/interrupts from *pos ("  24: counts...
 * chip hwirq-edge NAME"): its IRQ and name (the last word). Returns false
 * at the end.
 */
static bool next_interrupt(const char **pos, unsigned int *irq, char *name,
			   size_t len)
{
	const char *l = *pos;

	while (l && *l) {
		const char *end = strchr(l, '\n');
		const char *e2 = end ? end : l + strlen(l);
		char *colon;
		unsigned long n;

		while (*l == ' ')
			l++;
		n = strtoul(l, &colon, 10);
		if (isdigit((unsigned char)*l) && *colon == ':') {
			const char *w = e2;

			while (w > l && w[-1] == ' ')
				w--;
			e2 = w;
			while (w > l && w[-1] != ' ')
				w--;
			snprintf(name, len, "%.*s", (int)(e2 - w), w);
			*irq = (unsigned int)n;
			*pos = end ? end + 1 : NULL;
			return true;
		}
		l = end ? end + 1 : NULL;
	}
	*pos = NULL;
	return false;
}

void aff_irq_name(const char *interrupts, unsigned int irq, char *name,
		     size_t len)
{
	const char *pos = interrupts;
	unsigned int n;

	while (next_interrupt(&pos, &n, name, len))
		if (n == irq)
			return;
	name[0] = '\0';
}

/* "mlx5_comp3@pci:..." -> 3; -1 when the name shows no vector. */
static int vector_of(const char *name)
{
	const char *c = strstr(name, "comp");

	if (!c)
		return -1;
	c += 4;
	if (*c == '-' || *c == '_')
		c++;
	return isdigit((unsigned char)*c) ? atoi(c) : -1;
}

static bool have_irq(const struct aff_sys *sys, unsigned int irq)
{
	for (unsigned int i = 0; i < sys->nirqs; i++)
		if (sys->irqs[i].irq == irq)
			return true;
	return false;
}

static int add_irq(const struct aff_env *e, struct aff_sys *sys,
		   const char *interrupts, unsigned int irq,
		   enum aff_irq_kind kind, const char *owner, int node)
{
	char rel[128], buf[AFF_LIST_MAX], err[128];
	struct aff_irq *q;

	if (have_irq(sys, irq))
		return 0;
	snprintf(rel, sizeof(rel), "irq/%u/smp_affinity_list", irq);
	if (aff_read_text(e->proc, rel, buf, sizeof(buf)))
		return 0;	/* gone, or not an IRQ of this machine */
	q = GROW(sys->irqs, sys->nirqs);
	if (!q)
		return -1;
	q->irq = irq;
	q->kind = kind;
	snprintf(q->owner, sizeof(q->owner), "%s", owner);
	aff_irq_name(interrupts, irq, q->name, sizeof(q->name));
	q->vector = kind == AFF_IRQ_RDMA ? vector_of(q->name) : -1;
	cs_parse_list(buf, &q->req, err, sizeof(err));
	snprintf(rel, sizeof(rel), "irq/%u/effective_affinity_list", irq);
	if (!aff_read_text(e->proc, rel, buf, sizeof(buf)))
		cs_parse_list(buf, &q->eff, err, sizeof(err));
	q->node = node;
	snprintf(rel, sizeof(rel), "irq/%u/node", irq);
	if (node < 0 && !aff_read_text(e->proc, rel, buf, sizeof(buf)))
		q->node = atoi(buf);
	snprintf(rel, sizeof(rel), "kernel/debug/irq/irqs/%u", irq);
	if (!aff_read_text(e->sys, rel, buf, sizeof(buf)))
		q->managed = strstr(buf, "AFFINITY_MANAGED") != NULL;
	return 0;
}

/* The IRQs in @path (an msi_irqs directory). */
static int add_msi_irqs(const struct aff_env *e, struct aff_sys *sys,
			const char *interrupts, const char *path,
			enum aff_irq_kind kind, const char *owner, int node)
{
	struct dirent *d;
	DIR *dh;
	int ret = 0;

	dh = opendir(path);
	if (!dh)
		return 0;
	while ((d = readdir(dh)) && !ret)
		if (isdigit((unsigned char)d->d_name[0]))
			ret = add_irq(e, sys, interrupts,
				      (unsigned int)atoi(d->d_name), kind,
				      owner, node);
	closedir(dh);
	return ret;
}

static int read_node(const struct aff_env *e, const char *rel)
{
	char buf[32];

	return aff_read_text(e->sys, rel, buf, sizeof(buf)) ? -1 : atoi(buf);
}

/* The IRQs whose /proc/interrupts name contains @needle. */
static int irqs_named(const struct aff_env *e, struct aff_sys *sys,
		      const char *interrupts, const char *needle,
		      enum aff_irq_kind kind, const char *owner, int node)
{
	const char *pos = interrupts;
	char name[AFF_NAME_MAX];
	unsigned int n;

	while (next_interrupt(&pos, &n, name, sizeof(name)))
		if (strstr(name, needle) &&
		    add_irq(e, sys, interrupts, n, kind, owner, node))
			return -1;
	return 0;
}

/*
 * Without MSI information (no msi_irqs), the /proc/interrupts names that
 * contain the device's PCI address (mlx5_comp0@pci:0000:03:00.0) or its
 * name.
 */
static int rdma_named_irqs(const struct aff_env *e, struct aff_sys *sys,
			   const char *interrupts, const char *dev, int node)
{
	char path[PATH_MAX * 2], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device", e->sys,
		 dev);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		base = strrchr(link, '/');
		base = base ? base + 1 : link;
		/* only a PCI function's address: dddd:bb:dd.f */
		if (strlen(base) == 12 && base[4] == ':' && base[10] == '.' &&
		    irqs_named(e, sys, interrupts, base, AFF_IRQ_RDMA, dev,
			       node))
			return -1;
	}
	return irqs_named(e, sys, interrupts, dev, AFF_IRQ_RDMA, dev, node);
}

static int read_rdma(const struct aff_env *e, struct aff_sys *sys,
		     const char *interrupts)
{
	char path[PATH_MAX * 2], rel[512];
	struct dirent *d;
	DIR *dh;

	snprintf(path, sizeof(path), "%s/class/infiniband", e->sys);
	dh = opendir(path);
	if (!dh)
		return 0;
	while ((d = readdir(dh))) {
		unsigned int before;
		int node;

		if (d->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "class/infiniband/%s/device/numa_node",
			 d->d_name);
		node = read_node(e, rel);
		snprintf(path, sizeof(path),
			 "%s/class/infiniband/%s/device/msi_irqs", e->sys,
			 d->d_name);
		before = sys->nirqs;
		if (add_msi_irqs(e, sys, interrupts, path, AFF_IRQ_RDMA,
				 d->d_name, node) ||
		    (sys->nirqs == before &&
		     rdma_named_irqs(e, sys, interrupts, d->d_name, node))) {
			closedir(dh);
			return -1;
		}
	}
	closedir(dh);
	return 0;
}

/* The MSI IRQs of the PCI function above a block device. */
static int block_irqs(const struct aff_env *e, struct aff_sys *sys,
		      const char *interrupts, const char *filename)
{
	char path[PATH_MAX * 2], real[PATH_MAX], msi[PATH_MAX + 16];
	char base[256];
	struct stat st;

	if (strncmp(filename, "/dev/", 5) || stat(filename, &st) ||
	    !S_ISBLK(st.st_mode) || !realpath(filename, real))
		return 0;
	snprintf(base, sizeof(base), "%s", strrchr(real, '/') + 1);
	snprintf(path, sizeof(path), "%s/class/block/%s", e->sys, base);
	if (!realpath(path, real))
		return 0;
	for (int up = 0; up < 8; up++) {
		char *slash;

		snprintf(msi, sizeof(msi), "%s/msi_irqs", real);
		if (!access(msi, F_OK))
			return add_msi_irqs(e, sys, interrupts, msi,
					    AFF_IRQ_BLOCK, base, -1);
		slash = strrchr(real, '/');
		if (!slash || slash == real)
			break;
		*slash = '\0';
	}
	return 0;
}

/* --irq PATTERN: the /proc/interrupts lines whose name or number match. */
static int pattern_irqs(const struct aff_env *e, struct aff_sys *sys,
			const char *interrupts)
{
	const char *pos = interrupts;
	char name[AFF_NAME_MAX], num[16];
	unsigned int n;

	while (next_interrupt(&pos, &n, name, sizeof(name))) {
		snprintf(num, sizeof(num), "%u", n);
		for (unsigned int k = 0; k < e->nirq_pats; k++) {
			if (!aff_match(e->irq_pats[k], name) &&
			    !aff_match(e->irq_pats[k], num))
				continue;
			if (add_irq(e, sys, interrupts, n, AFF_IRQ_OTHER,
				    e->irq_pats[k], -1))
				return -1;
			break;
		}
	}
	return 0;
}

/* An SCST attribute (without its [key] line) into @buf; 0 or -errno. */
static int scst_attr(const struct aff_env *e, const char *rel, char *buf,
		     size_t len)
{
	char *v = NULL;
	bool key;
	int ret = sysfs_read_attr(&e->scst, rel, &v, &key);

	if (ret)
		return ret;
	snprintf(buf, len, "%s", v);
	free(v);
	return 0;
}

static int read_targets(const struct aff_env *e, struct aff_sys *sys)
{
	str_vec drv = { 0 };
	int ret = 0;

	sysfs_list(&e->scst, "targets", SYSFS_DIR, &drv);
	for (size_t i = 0; i < drv.n && !ret; i++) {
		char *dp = xasprintf("targets/%s", drv.v[i]);
		str_vec tg = { 0 };

		sysfs_list(&e->scst, dp, SYSFS_DIR, &tg);
		for (size_t j = 0; j < tg.n && !ret; j++) {
			char rel[PATH_MAX], buf[4096], err[200];
			struct aff_target *t;
			unsigned int ti = sys->ntargets;
			str_vec gr = { 0 };

			snprintf(rel, sizeof(rel), "%s/%s/cpu_mask", dp,
				 tg.v[j]);
			if (scst_attr(e, rel, buf, sizeof(buf)))
				continue;	/* not a target */
			t = GROW(sys->targets, sys->ntargets);
			if (!t) {
				ret = -1;
				break;
			}
			snprintf(t->driver, sizeof(t->driver), "%s", drv.v[i]);
			snprintf(t->name, sizeof(t->name), "%s", tg.v[j]);
			t->node = -1;
			t->thread_mode = -1;
			if (cs_parse_mask(buf, &t->cpu_mask, err, sizeof(err)))
				aff_err("%s: %s", rel, err);
			snprintf(rel, sizeof(rel), "%s/%s/comp_v_mask", dp,
				 tg.v[j]);
			if (!scst_attr(e, rel, buf, sizeof(buf)) &&
			    !cs_parse_mask(buf, &t->comp_v_mask, err,
					   sizeof(err))) {
				t->has_comp_v = true;
				/* as wide as the kernel shows it */
				t->comp_v_bits = 0;
				for (const char *c = buf; *c; c++)
					if (*c != ',')
						t->comp_v_bits += 4;
			}
			snprintf(rel, sizeof(rel), "%s/%s/thread_mode", dp,
				 tg.v[j]);
			if (!scst_attr(e, rel, buf, sizeof(buf)))
				t->thread_mode = atoi(buf);
			snprintf(rel, sizeof(rel), "%s/%s/device", dp, tg.v[j]);
			if (!scst_attr(e, rel, buf, sizeof(buf)) && buf[0]) {
				snprintf(t->rdma_dev, sizeof(t->rdma_dev), "%.63s",
					 buf);
				snprintf(rel, sizeof(rel),
					 "class/infiniband/%s/device/numa_node",
					 t->rdma_dev);
				t->node = read_node(e, rel);
			}
			snprintf(rel, sizeof(rel), "%s/%s/ini_groups", dp,
				 tg.v[j]);
			sysfs_list(&e->scst, rel, SYSFS_DIR, &gr);
			for (size_t k = 0; k < gr.n; k++) {
				char grel[PATH_MAX + 300];
				struct aff_group *g;

				snprintf(grel, sizeof(grel), "%s/%s/cpu_mask",
					 rel, gr.v[k]);
				if (scst_attr(e, grel, buf, sizeof(buf)))
					continue;
				g = GROW(sys->groups, sys->ngroups);
				if (!g) {
					ret = -1;
					break;
				}
				g->target = ti;
				snprintf(g->name, sizeof(g->name), "%s",
					 gr.v[k]);
				if (cs_parse_mask(buf, &g->cpu_mask, err,
						  sizeof(err)))
					aff_err("%s: %s", grel, err);
			}
			strs_free(&gr);
		}
		strs_free(&tg);
		free(dp);
	}
	strs_free(&drv);
	return ret;
}

/* A device's thread_pids, all of them (no cap: each is managed). */
static int read_pids(const struct aff_env *e, const char *rel,
		     struct aff_device *d)
{
	char *v = NULL, *tok, *save = NULL;
	bool key;

	if (sysfs_read_attr(&e->scst, rel, &v, &key))
		return 0;	/* none: a device without its own threads */
	for (tok = strtok_r(v, " ,\t\n", &save); tok;
	     tok = strtok_r(NULL, " ,\t\n", &save)) {
		int *pid;

		if (atoi(tok) <= 0)
			continue;
		pid = GROW(d->pids, d->npids);
		if (!pid) {
			free(v);
			return -1;
		}
		*pid = atoi(tok);
	}
	free(v);
	return 0;
}

static int read_devices(const struct aff_env *e, struct aff_sys *sys,
			const char *interrupts)
{
	str_vec dv = { 0 };
	int ret = 0;

	sysfs_list(&e->scst, "devices", SYSFS_DIR, &dv);
	for (size_t i = 0; i < dv.n && !ret; i++) {
		char rel[PATH_MAX], buf[4096];
		struct aff_device *d = GROW(sys->devices, sys->ndevices);

		if (!d) {
			ret = -1;
			break;
		}
		snprintf(d->name, sizeof(d->name), "%s", dv.v[i]);
		snprintf(rel, sizeof(rel), "devices/%s/thread_pids", dv.v[i]);
		ret = read_pids(e, rel, d);
		if (ret)
			break;
		snprintf(rel, sizeof(rel), "devices/%s/filename", dv.v[i]);
		if (!scst_attr(e, rel, buf, sizeof(buf)))
			ret = block_irqs(e, sys, interrupts, buf);
	}
	strs_free(&dv);
	return ret;
}

int aff_read_interrupts(const struct aff_env *e, char **out)
{
	/* one line per IRQ, about 11 bytes per CPU in each */
	int ret = aff_read_alloc(e->proc, "interrupts", AFF_INTERRUPTS_MAX,
				 out);

	if (ret == -ENOENT) {
		*out = xstrdup("");	/* no IRQs to name */
	} else if (ret) {
		aff_err("cannot read %s/interrupts: %s", e->proc,
			strerror(-ret));
		return -1;
	}
	return 0;
}

int aff_read_sys(const struct aff_env *e, struct aff_sys *sys)
{
	char buf[AFF_LIST_MAX], err[256], rel[128];
	char *interrupts;
	struct cpuset possible;
	int ret = -1;

	memset(sys, 0, sizeof(*sys));
	if (aff_read_text(e->sys, "devices/system/cpu/online", buf,
			  sizeof(buf)) ||
	    cs_parse_list(buf, &sys->online, err, sizeof(err))) {
		aff_err("cannot read the online CPUs from %s/devices/system/cpu/online",
			e->sys);
		return -1;
	}
	sys->nr_cpu_ids = cs_width(&sys->online);
	if (!aff_read_text(e->sys, "devices/system/cpu/possible", buf,
			   sizeof(buf)) &&
	    !cs_parse_list(buf, &possible, err, sizeof(err)) &&
	    cs_width(&possible) > sys->nr_cpu_ids)
		sys->nr_cpu_ids = cs_width(&possible);
	for (unsigned int n = 0; n < AFF_MAX_NODES; n++) {
		snprintf(rel, sizeof(rel), "devices/system/node/node%u/cpulist",
			 n);
		if (aff_read_text(e->sys, rel, buf, sizeof(buf)))
			continue;
		if (!cs_parse_list(buf, &sys->node_cpus[n], err, sizeof(err)))
			sys->nnodes = n + 1;
	}
	if (aff_read_interrupts(e, &interrupts))
		return -1;
	if (read_rdma(e, sys, interrupts) || read_targets(e, sys) ||
	    read_devices(e, sys, interrupts) ||
	    pattern_irqs(e, sys, interrupts)) {
		aff_err("out of memory");
		goto out;
	}
	ret = 0;
out:
	free(interrupts);
	return ret;
}

void aff_free_sys(struct aff_sys *sys)
{
	for (unsigned int i = 0; i < sys->ndevices; i++)
		free(sys->devices[i].pids);
	free(sys->irqs);
	free(sys->targets);
	free(sys->groups);
	free(sys->devices);
	memset(sys, 0, sizeof(*sys));
}
