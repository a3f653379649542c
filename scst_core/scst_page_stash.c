// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_page_stash.c - pages of finished commands' data buffers, kept per
 * CPU for the buffers of new ones that are written before they are read.
 *
 * A transport whose data moves by DMA (SRP) needs a buffer per command,
 * and a page from the page allocator is zeroed first wherever
 * init_on_alloc is on (Debian's default): a clear_page() per 4 KiB of
 * every I/O, which profiles of SRP over Soft-RoCE show
 * (Documentation/performance.md section 6e). Two kinds of buffer do not
 * need it (scst_buf_may_reuse() in scst_cmd.c): data-out, since the core
 * executes a data-out command only once the transport received every
 * byte of its buffer (scst_xfer_fit() sizes the buffer to what the
 * transport announced; a failed transfer ends the command), and a medium
 * read's data-in on a device whose handler writes all that it returns
 * (fills_data_in: FILEIO ends a short read in an error, NULLIO zeroes).
 * So what was in a page before never reaches a disk or an initiator.
 * Other data-in buffers still get zeroed pages: emulated commands,
 * pass-through (whose device's residual the core must trust) and BLOCKIO
 * (a block driver may complete a read without writing the pages:
 * null_blk without memory_backed), where a stale page could send one
 * initiator another's data.
 *
 * At most stash_pages pages per CPU (module parameter; 0: none), taken
 * from and given back to the stash of the CPU the caller runs on: any
 * context, interrupts included. Each stash has a spinlock of its own, not
 * a local lock, so that others can empty it: a shrinker gives the pages
 * back under memory pressure (they are free memory the page allocator
 * does not see: up to stash_pages x 4 KiB per CPU, 1 MiB at the default),
 * and a CPU that goes offline has its stash emptied (the stash of a CPU
 * that runs nothing would never be taken from). Besides those two, only
 * a caller that moved to another CPU after it chose its stash contends
 * for the lock, so a command pays an uncontended lock per page. (Such a
 * caller may put a page on a CPU that just went offline: the shrinker
 * frees it.)
 * A stashed page still holds an earlier command's data until it is
 * reused or freed (freeing it is what init_on_free clears).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/shrinker.h>
#include <linux/cpuhotplug.h>

#include "scst_priv.h"

#define SCST_STASH_PAGES_MAX	1024

struct scst_page_stash {
	spinlock_t lock;	/* @n, @reused, @pages; this CPU, the shrinker, cpuhp */
	unsigned int n;
	unsigned long reused;	/* pages handed out of the stash */
	struct page *pages[SCST_STASH_PAGES_MAX];
};

/* allocated, not static: module per-CPU space is a few KiB for all modules */
static struct scst_page_stash __percpu *scst_page_stash;

static unsigned int scst_stash_pages = 256;

static int scst_stash_pages_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (kstrtouint(val, 0, &n) || n > SCST_STASH_PAGES_MAX) {
		pr_err("stash_pages: '%s' is not a number of pages in 0-%u\n",
		       val, SCST_STASH_PAGES_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(scst_stash_pages, n);
	return 0;
}

static const struct kernel_param_ops scst_stash_pages_ops = {
	.set = scst_stash_pages_set,
	.get = param_get_uint,
};
module_param_cb(stash_pages, &scst_stash_pages_ops, &scst_stash_pages, 0644);
MODULE_PARM_DESC(stash_pages,
		 "Pages per CPU kept from finished commands for new data-out and vdisk read buffers (0-1024, default 256)");

/**
 * scst_stash_get_page() - a page for a buffer written before it is read
 * @gfp: allocation flags, for when the stash of this CPU is empty
 *
 * Return: a page whose contents are undefined (a stashed one, or a new
 * one from the page allocator), or NULL without memory.
 */
struct page *scst_stash_get_page(gfp_t gfp)
{
	struct scst_page_stash *stash;
	struct page *page = NULL;
	unsigned long flags;

	/* another CPU's stash, if the caller moves meanwhile: still locked */
	stash = raw_cpu_ptr(scst_page_stash);
	spin_lock_irqsave(&stash->lock, flags);
	if (stash->n) {
		page = stash->pages[--stash->n];
		stash->reused++;
	}
	spin_unlock_irqrestore(&stash->lock, flags);
	return page ?: alloc_page(gfp);
}

/**
 * scst_stash_put_page() - a data buffer's page is free
 * @page: an order-0 page of a data buffer
 *
 * Stashes it on this CPU, or frees it (drops the caller's reference) when
 * that stash is full or someone else still holds a reference to it.
 */
void scst_stash_put_page(struct page *page)
{
	unsigned int max = READ_ONCE(scst_stash_pages);
	struct scst_page_stash *stash;
	unsigned long flags;

	if (page_ref_count(page) != 1) {
		__free_page(page);
		return;
	}
	stash = raw_cpu_ptr(scst_page_stash);
	spin_lock_irqsave(&stash->lock, flags);
	if (stash->n < max) {
		stash->pages[stash->n++] = page;
		page = NULL;
	}
	spin_unlock_irqrestore(&stash->lock, flags);
	if (page)
		__free_page(page);
}

/**
 * scst_stash_stats() - the stash's pages now and those reused so far
 * @stashed: receives the pages stashed on all CPUs
 * @reused: receives the pages handed out of a stash since the load
 *
 * Read without the CPUs' locks: a figure for the page_stash file.
 */
void scst_stash_stats(unsigned long *stashed, unsigned long *reused)
{
	struct scst_page_stash *stash;
	int cpu;

	*stashed = 0;
	*reused = 0;
	for_each_possible_cpu(cpu) {
		stash = per_cpu_ptr(scst_page_stash, cpu);
		*stashed += READ_ONCE(stash->n);
		*reused += READ_ONCE(stash->reused);
	}
}

/*
 * Free up to @max pages of @cpu's stash; returns how many. A page at a
 * time, so that interrupts stay off for one pop only.
 */
static unsigned long scst_stash_drain(int cpu, unsigned long max)
{
	struct scst_page_stash *stash = per_cpu_ptr(scst_page_stash, cpu);
	unsigned long freed = 0;
	struct page *page;
	unsigned long flags;

	while (freed < max) {
		page = NULL;
		spin_lock_irqsave(&stash->lock, flags);
		if (stash->n)
			page = stash->pages[--stash->n];
		spin_unlock_irqrestore(&stash->lock, flags);
		if (!page)
			break;
		__free_page(page);
		freed++;
	}
	return freed;
}

static unsigned long scst_stash_count(struct shrinker *shrinker,
				      struct shrink_control *sc)
{
	unsigned long stashed, reused;

	scst_stash_stats(&stashed, &reused);
	return stashed ?: SHRINK_EMPTY;
}

static unsigned long scst_stash_scan(struct shrinker *shrinker,
				     struct shrink_control *sc)
{
	unsigned long freed = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (freed >= sc->nr_to_scan)
			break;
		freed += scst_stash_drain(cpu, sc->nr_to_scan - freed);
	}
	return freed;
}

#ifdef SCST_HAVE_SHRINKER_ALLOC
static struct shrinker *scst_stash_shrinker;

static int scst_stash_shrinker_add(void)
{
	scst_stash_shrinker = shrinker_alloc(0, "scst-page-stash");
	if (!scst_stash_shrinker)
		return -ENOMEM;
	scst_stash_shrinker->count_objects = scst_stash_count;
	scst_stash_shrinker->scan_objects = scst_stash_scan;
	shrinker_register(scst_stash_shrinker);
	return 0;
}

static void scst_stash_shrinker_del(void)
{
	shrinker_free(scst_stash_shrinker);
}
#else
static struct shrinker scst_stash_shrinker = {
	.count_objects = scst_stash_count,
	.scan_objects = scst_stash_scan,
	.seeks = DEFAULT_SEEKS,
};

static int scst_stash_shrinker_add(void)
{
	return register_shrinker(&scst_stash_shrinker, "scst-page-stash");
}

static void scst_stash_shrinker_del(void)
{
	unregister_shrinker(&scst_stash_shrinker);
}
#endif

/* A CPU went offline (called on another CPU): nothing takes from its stash. */
static int scst_stash_cpu_dead(unsigned int cpu)
{
	scst_stash_drain(cpu, ULONG_MAX);
	return 0;
}

static int scst_stash_cpuhp_state;

int scst_stash_init(void)
{
	int cpu, ret;

	scst_page_stash = alloc_percpu(struct scst_page_stash);
	if (!scst_page_stash)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		spin_lock_init(&per_cpu_ptr(scst_page_stash, cpu)->lock);
	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "scst/stash:dead",
					NULL, scst_stash_cpu_dead);
	if (ret < 0)
		goto free_stash;
	scst_stash_cpuhp_state = ret;
	ret = scst_stash_shrinker_add();
	if (ret)
		goto remove_cpuhp;
	return 0;

remove_cpuhp:
	cpuhp_remove_state_nocalls(scst_stash_cpuhp_state);
free_stash:
	free_percpu(scst_page_stash);
	return ret;
}

/* At module unload, when no command is left: free every stashed page. */
void scst_stash_exit(void)
{
	int cpu;

	scst_stash_shrinker_del();
	cpuhp_remove_state_nocalls(scst_stash_cpuhp_state);
	for_each_possible_cpu(cpu)
		scst_stash_drain(cpu, ULONG_MAX);
	free_percpu(scst_page_stash);
}
