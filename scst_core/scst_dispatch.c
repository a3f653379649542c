// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_dispatch.c - which CPU carries a command's state machine on.
 *
 * Run to completion on the CPU that received a command is the cheapest
 * path: no wakeup of another CPU, the command's cache lines stay where
 * they are. But one submitter with a deep queue then shares one CPU with
 * the core's work on all its commands and leaves the others idle
 * (Documentation/performance.md). So a new command stays on the receiving
 * CPU while its session has few commands in flight, and goes to the least
 * loaded other CPU of the session's cpu_mask (NUMA-local ones first) once
 * it has more than spread_depth:
 *
 *   backlog(cpu)  commands queued to the core's worker of that CPU and not
 *                 yet through their state machine pass, per CPU on its own
 *                 cache line; written when queueing to and running on that
 *                 CPU, read only when choosing another
 *   spread_depth  module parameter (0: never spread; commands then stay
 *                 on the receiving CPU unless it is outside the cpu_mask)
 *
 * A CPU outside the session's cpu_mask never runs the core's passes of a
 * command (its state machine on the core's workers or inline), except
 * while the mask changes (below) or after the chosen CPU went offline
 * (the workqueue then runs the pass elsewhere); completions run where the
 * backend completes them. The choice reads the backlog of at most
 * SCST_SPREAD_PROBES CPUs, so its cache misses do not grow with the
 * machine. Once chosen, every later stage of the command (after the data
 * arrived, after the task set let it run) continues on that CPU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <linux/percpu.h>

#include "scst_priv.h"

#define SCST_SPREAD_PROBES	8

struct scst_cpu_load {
	atomic_t backlog;
	unsigned long runs;	/* state machine passes run on this CPU */
};

static DEFINE_PER_CPU_SHARED_ALIGNED(struct scst_cpu_load, scst_cpu_load);

static unsigned int scst_spread_depth = 4;
module_param_named(spread_depth, scst_spread_depth, uint, 0644);
MODULE_PARM_DESC(spread_depth,
		 "Commands in flight on a session above which new ones go to another CPU of the cpu_mask (0: never, default 4)");

static bool scst_spread_direct;
module_param_named(spread_direct, scst_spread_direct, bool, 0644);
MODULE_PARM_DESC(spread_direct,
		 "Spread also the commands a driver could run in its own context (SRP completion work; default N)");

static unsigned int scst_backlog(int cpu)
{
	return atomic_read(&per_cpu(scst_cpu_load, cpu).backlog);
}

/*
 * The least loaded online CPU of @mask other than @here: NUMA-local ones
 * first, the first idle one wins; the backlogs of at most
 * SCST_SPREAD_PROBES are read (skipping a CPU of the wrong node or offline
 * reads none).
 * Return: the CPU, or -1 if @mask has no other online CPU.
 */
static int scst_spread_cpu(const struct cpumask *mask, int here)
{
	unsigned int load, best_load = UINT_MAX, probes = 0;
	int node = cpu_to_node(here), best = -1, cpu, pass;

	/* pass 0: CPUs of @here's NUMA node; pass 1: the others */
	for (pass = 0; pass < 2; pass++) {
		for_each_cpu_wrap(cpu, mask, here) {
			if (cpu == here || (cpu_to_node(cpu) == node) != !pass ||
			    !cpu_online(cpu))
				continue;
			load = scst_backlog(cpu);
			if (load < best_load) {
				best = cpu;
				best_load = load;
				if (!load)
					return best;
			}
			if (++probes >= SCST_SPREAD_PROBES)
				return best;
		}
	}
	return best;
}

/*
 * The CPU that carries a new command of @sess on, received on CPU @here;
 * @direct: the caller could run it in its own context (SCST_CONTEXT_DIRECT).
 *
 * A shallow queue (a QD1 submitter, a latency-bound one) stays on @here:
 * handing a command to another CPU costs a wakeup of that CPU, which is
 * all the time saved and more at QD1 (performance.md). A deep one goes to
 * the least loaded other CPU, so that the submitter keeps its CPU and the
 * core's work runs next to it. The depth is the session's commands in
 * flight: the one measure of "more work is coming" that costs nothing to
 * read (the counter's cache line is written per command anyway).
 *
 * A driver that can run commands in its own context (ib_srpt's completion
 * work) already has a worker of its own; spreading its commands cost CPU
 * per I/O and IOPS over Soft-RoCE (performance.md), so it is a choice
 * (spread_direct) rather than the default there.
 *
 * sess->cpu_mask is read without a lock: it changes only by
 * configuration. While it changes, a reader may see some words old and
 * some new, on machines with more than 64 CPUs even no CPU at all; that
 * command then stays on the receiving CPU. Every later one sees the new
 * mask.
 */
int scst_dispatch_pick_cpu(const struct scst_session *sess, int here,
			   bool direct)
{
	unsigned int depth = READ_ONCE(scst_spread_depth);
	bool here_ok = cpumask_test_cpu(here, &sess->cpu_mask);
	int cpu;

	if (direct && !READ_ONCE(scst_spread_direct))
		depth = 0;
	if (here_ok && (!depth || atomic_read(&sess->active_cmds) <= depth))
		return here;
	cpu = scst_spread_cpu(&sess->cpu_mask, here);
	/* no other online CPU in the mask (hot-unplug): here, not nowhere */
	return cpu >= 0 ? cpu : here;
}

/* Queue @cmd to the worker of cmd->cpu. */
void scst_dispatch_queue(struct scst_cmd *cmd)
{
	cmd->backlog_cpu = cmd->cpu;
	atomic_inc(&per_cpu(scst_cpu_load, cmd->cpu).backlog);
	queue_work_on(cmd->cpu, scst_cmd_wq, &cmd->work);
}

/* Run one state machine pass of @cmd here and count it. */
void scst_dispatch_run(struct scst_cmd *cmd)
{
	int queued_on = cmd->backlog_cpu;

	cmd->backlog_cpu = -1;
	this_cpu_inc(scst_cpu_load.runs);
	scst_process_cmd(cmd);	/* @cmd may be gone */
	if (queued_on >= 0)
		atomic_dec(&per_cpu(scst_cpu_load, queued_on).backlog);
}

/* cpu_stats: one line per CPU that ran or holds commands */
ssize_t scst_dispatch_stats_show(char *buf)
{
	ssize_t len = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		unsigned long runs = per_cpu(scst_cpu_load, cpu).runs;
		unsigned int backlog = scst_backlog(cpu);

		if (!runs && !backlog)
			continue;
		if (len > PAGE_SIZE - 64)
			break;	/* sysfs gives one page */
		len += sysfs_emit_at(buf, len, "cpu%d runs %lu backlog %u\n",
				     cpu, runs, backlog);
	}
	return len;
}
