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
 * it has more than spread_depth. A CPU where another submitter gave the
 * core a new command in the last tick or two is no target: the pass for
 * it would preempt that submitter, which then issues nothing until the
 * pass is done (with a submitter per CPU, each CPU would spend its time
 * on the other's passes). The submitter's own earlier CPU still is one.
 * What the choice reads:
 *
 *   backlog(cpu)  commands queued to the core's worker of that CPU and not
 *                 yet through their state machine pass, per CPU on its own
 *                 cache line; written when queueing to and running on that
 *                 CPU, read only when choosing another
 *   spread_depth  module parameter (0: never spread; commands then stay
 *                 on the receiving CPU unless it is outside the cpu_mask)
 *   arrival_at/by when and by which task (0: interrupt context) the CPU
 *                 last received a new command; written at most once per
 *                 tick and submitter, read only when choosing another
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
#include <linux/llist.h>
#include <linux/smpboot.h>
#include <linux/sched.h>
#include <uapi/linux/sched/types.h>

#include "scst_priv.h"

#define SCST_SPREAD_PROBES	8

/*
 * A CPU that received a new command from another task this long ago or
 * less has a submitter of its own: spreading to it would preempt that
 * submitter.
 */
#define SCST_ARRIVAL_RECENT	1
/* ... and counts as this many commands of backlog more than any other */
#define SCST_SUBMITTER_LOAD	(UINT_MAX / 2)

/*
 * A session whose commands arrived at depth 1 this many times in a row
 * goes back to the preempting workers, and tries the yielding ones again
 * after SCST_YIELD_RETRY (see scst_dispatch_learn()).
 */
#define SCST_YIELD_SHALLOW_RUN	64
#define SCST_YIELD_RETRY	(HZ / 4)

struct scst_cpu_load {
	atomic_t backlog;
	unsigned long arrival_at;	/* jiffies of its latest new command */
	unsigned long arrival_by;	/* ... and scst_submitter() of it */
	unsigned long runs;	/* state machine passes run on this CPU */
	unsigned long yielded;	/* ... of them by its yielding worker */
	struct llist_head yield_queue;	/* for this CPU's yielding worker */
	bool yield_up;		/* that worker takes commands (RCU-read) */
};

static DEFINE_PER_CPU_SHARED_ALIGNED(struct scst_cpu_load, scst_cpu_load);
static DEFINE_PER_CPU(struct task_struct *, scst_yield_task);

/* The preempting workers: a command's passes queued to its CPU. */
static struct workqueue_struct *scst_cmd_wq;

static unsigned int scst_spread_depth = 4;
module_param_named(spread_depth, scst_spread_depth, uint, 0644);
MODULE_PARM_DESC(spread_depth,
		 "Commands in flight on a session above which new ones go to another CPU of the cpu_mask (0: never, default 4)");

static bool scst_spread_direct;
module_param_named(spread_direct, scst_spread_direct, bool, 0644);
MODULE_PARM_DESC(spread_direct,
		 "Spread also the commands a driver could run in its own context (SRP completion work; default N)");

static bool scst_yield_enabled = true;
module_param_named(yield_wake, scst_yield_enabled, bool, 0644);
MODULE_PARM_DESC(yield_wake,
		 "Queue the commands of a session that shows depth to workers that let the submitter run first (default Y)");

static unsigned int scst_backlog(int cpu)
{
	return atomic_read(&per_cpu(scst_cpu_load, cpu).backlog);
}

/*
 * Who submits a new command: the task, compared and never dereferenced;
 * 0 for an interrupt or softirq, which is nobody in particular.
 */
static unsigned long scst_submitter(void)
{
	return in_task() ? (unsigned long)current : 0;
}

/*
 * Another submitter than @me gave @cpu a new command just now or in the
 * tick before. The submitter itself does not count: one that migrated
 * leaves its old CPU idle, and that CPU is the best one to spread to.
 */
static bool scst_cpu_submits(int cpu, unsigned long me)
{
	struct scst_cpu_load *load = per_cpu_ptr(&scst_cpu_load, cpu);
	unsigned long by = READ_ONCE(load->arrival_by);

	return jiffies - READ_ONCE(load->arrival_at) <= SCST_ARRIVAL_RECENT &&
		(by != me || !me);
}

/*
 * Note that @by gave CPU @here a new command: one write per tick and
 * submitter, to a cache line that other CPUs only read when spreading.
 */
static void scst_note_arrival(int here, unsigned long by)
{
	struct scst_cpu_load *load = per_cpu_ptr(&scst_cpu_load, here);
	unsigned long now = jiffies;

	if (READ_ONCE(load->arrival_at) != now ||
	    READ_ONCE(load->arrival_by) != by) {
		WRITE_ONCE(load->arrival_by, by);
		WRITE_ONCE(load->arrival_at, now);
	}
}

/*
 * The least loaded online CPU of @mask other than @here: NUMA-local ones
 * first, the first idle one wins; the backlogs of at most
 * SCST_SPREAD_PROBES are read (skipping a CPU of the wrong node or offline
 * reads none). A CPU with a submitter of its own is no choice while
 * @here_ok, and the last one otherwise: the mask comes first.
 * Return: the CPU, or -1 if @mask has no other online CPU (while
 * @here_ok: none without a submitter).
 */
static int scst_spread_cpu(const struct cpumask *mask, int here,
			   bool here_ok, unsigned long me)
{
	unsigned int load, best_load = UINT_MAX, probes = 0;
	int node = cpu_to_node(here), best = -1, cpu, pass;
	bool submits;

	/* pass 0: CPUs of @here's NUMA node; pass 1: the others */
	for (pass = 0; pass < 2; pass++) {
		for_each_cpu_wrap(cpu, mask, here) {
			if (cpu == here || (cpu_to_node(cpu) == node) != !pass ||
			    !cpu_online(cpu))
				continue;
			submits = scst_cpu_submits(cpu, me);
			if (!(submits && here_ok)) {
				load = scst_backlog(cpu);
				if (submits)
					load += SCST_SUBMITTER_LOAD;
				if (load < best_load) {
					best = cpu;
					best_load = load;
					if (!load)
						return best;
				}
			}
			if (++probes >= SCST_SPREAD_PROBES)
				return best;
		}
	}
	return best;
}

/*
 * Which workers the queued passes of @sess wake, learnt from the depth at
 * which its commands arrive (@active: its commands in flight, this one
 * included).
 *
 * A preempting worker (scst_cmd_wq, WQ_HIGHPRI) runs a command the moment
 * it is queued, ahead of the submitter that queued it. With a fast
 * backend the command is then done before the submitter issues the next
 * one: whatever its queue depth, the session never has more than one
 * command at the target, and spread_depth never sees a queue to spread
 * (performance.md section 2). A yielding worker (SCHED_BATCH, which the
 * scheduler does not let preempt a running task on wakeup) waits until
 * the submitter blocks or its slice ends: a QD1 submitter blocks at once,
 * a deep one first issues what it has, so the depth becomes visible and
 * the commands past spread_depth go to other CPUs.
 *
 * The yielding workers cost a QD1 submitter a sleep and a wakeup per
 * command (it would otherwise find the completion before it blocks), so
 * a session uses them only while it shows depth: SCST_YIELD_SHALLOW_RUN
 * arrivals in a row at depth 1 send it back to the preempting workers,
 * and SCST_YIELD_RETRY later it tries again. Racing updates from
 * several CPUs only delay a switch, so plain ONCE accesses suffice; the
 * counter is written only when it changes, on the line that active_cmds
 * already dirties per command.
 */
static void scst_dispatch_learn(struct scst_session *sess, unsigned int active)
{
	unsigned int run;

	if (!READ_ONCE(scst_yield_enabled)) {
		if (READ_ONCE(sess->yield_wake))
			WRITE_ONCE(sess->yield_wake, false);
		return;
	}
	if (!READ_ONCE(sess->yield_wake)) {
		if (time_before(jiffies, READ_ONCE(sess->yield_probe_at)))
			return;
		WRITE_ONCE(sess->shallow_run, 0);
		WRITE_ONCE(sess->yield_wake, true);
		return;
	}
	run = READ_ONCE(sess->shallow_run);
	if (active > 1) {
		if (run)
			WRITE_ONCE(sess->shallow_run, 0);
		return;
	}
	if (++run < SCST_YIELD_SHALLOW_RUN) {
		WRITE_ONCE(sess->shallow_run, run);
		return;
	}
	WRITE_ONCE(sess->yield_probe_at, jiffies + SCST_YIELD_RETRY);
	WRITE_ONCE(sess->yield_wake, false);
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
int scst_dispatch_pick_cpu(struct scst_session *sess, int here, bool direct)
{
	unsigned int depth = READ_ONCE(scst_spread_depth);
	unsigned int active = atomic_read(&sess->active_cmds);
	bool here_ok = cpumask_test_cpu(here, &sess->cpu_mask);
	unsigned long me = scst_submitter();
	int cpu;

	scst_note_arrival(here, me);

	/*
	 * A DIRECT arrival leaves the mode alone: scst_local on 6.2+ hands
	 * in DIRECT and queued commands of one session, and the queued ones
	 * decide. (So a session that learnt yield mode under spread_direct=Y
	 * keeps it after spread_direct=N, for its queued passes only.)
	 */
	if (direct && !READ_ONCE(scst_spread_direct))
		depth = 0;
	else
		scst_dispatch_learn(sess, active);
	if (here_ok && (!depth || active <= depth))
		return here;
	cpu = scst_spread_cpu(&sess->cpu_mask, here, here_ok, me);
	/*
	 * no other online CPU in the mask (hot-unplug), or while here is in
	 * it only CPUs with submitters of their own: here, not nowhere
	 */
	return cpu >= 0 ? cpu : here;
}

/*
 * Queue @cmd to the yielding worker of @cpu if it takes commands; the RCU
 * read side orders this against scst_yield_park(), which drains the queue
 * only after every queuer that saw yield_up has added its command.
 */
static bool scst_yield_queue(struct scst_cmd *cmd, int cpu)
{
	struct scst_cpu_load *load = per_cpu_ptr(&scst_cpu_load, cpu);
	bool queued = false;

	rcu_read_lock();
	if (READ_ONCE(load->yield_up)) {
		if (llist_add(&cmd->yield_node, &load->yield_queue))
			wake_up_process(per_cpu(scst_yield_task, cpu));
		queued = true;
	}
	rcu_read_unlock();
	return queued;
}

/* Queue @cmd to a worker of cmd->cpu. */
void scst_dispatch_queue(struct scst_cmd *cmd)
{
	int cpu = cmd->cpu;

	cmd->backlog_cpu = cpu;
	atomic_inc(&per_cpu(scst_cpu_load, cpu).backlog);
	/*
	 * Only a pass for this CPU yields: it yields to the submitter that
	 * queued it. A pass for another CPU preempts whatever runs there
	 * (maybe another submitter, that would not let it in until it blocks,
	 * while this CPU idles waiting for the result).
	 */
	if (READ_ONCE(cmd->sess->yield_wake) &&
	    cpu == raw_smp_processor_id() && scst_yield_queue(cmd, cpu))
		return;
	queue_work_on(cpu, scst_cmd_wq, &cmd->work);
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

/**
 * scst_continue() - the dispatcher's entry: carry a command on
 * @cmd: the command, with cmd->cpu chosen (scst_dispatch_pick_cpu())
 * @ctx: the caller's context as the driver gave it
 *
 * Now, in process context, if the caller may and is on the command's
 * CPU; else on the worker of that CPU.
 */
void scst_continue(struct scst_cmd *cmd, enum scst_exec_context ctx)
{
	if (ctx == SCST_CONTEXT_DIRECT && !in_interrupt() &&
	    !irqs_disabled() && cmd->cpu == raw_smp_processor_id()) {
		scst_dispatch_run(cmd);
		return;
	}
	scst_dispatch_queue(cmd);
}

/* ---------------------------------------------------------------------- */
/* the yielding workers: one SCHED_BATCH thread per online CPU             */

static int scst_yield_should_run(unsigned int cpu)
{
	return !llist_empty(&per_cpu(scst_cpu_load, cpu).yield_queue);
}

static void scst_yield_run_queue(unsigned int cpu)
{
	struct llist_node *list;
	struct scst_cmd *cmd, *next;

	list = llist_del_all(&per_cpu(scst_cpu_load, cpu).yield_queue);
	list = llist_reverse_order(list);	/* in the order queued */
	llist_for_each_entry_safe(cmd, next, list, yield_node) {
		this_cpu_inc(scst_cpu_load.yielded);
		scst_dispatch_run(cmd);	/* @cmd may be gone */
		cond_resched();
	}
}

static void scst_yield_setup(unsigned int cpu)
{
	/* SCHED_BATCH: woken, it waits for the running task (see above) */
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_BATCH,
		.sched_nice	= MIN_NICE,
	};
	int ret = sched_setattr_nocheck(current, &attr);

	if (ret)
		pr_warn("scst_yield/%u: SCHED_BATCH refused (%d)\n", cpu, ret);
	WRITE_ONCE(per_cpu(scst_cpu_load, cpu).yield_up, true);
}

/*
 * The CPU goes offline: take no more commands, wait for the queuers that
 * still saw yield_up, and run what they queued here while the CPU still
 * runs tasks. A pass that requeues one of them to this CPU now goes to
 * scst_cmd_wq, which moves its work off a CPU going offline.
 */
static void scst_yield_park(unsigned int cpu)
{
	WRITE_ONCE(per_cpu(scst_cpu_load, cpu).yield_up, false);
	synchronize_rcu();
	scst_yield_run_queue(cpu);
}

static void scst_yield_unpark(unsigned int cpu)
{
	WRITE_ONCE(per_cpu(scst_cpu_load, cpu).yield_up, true);
}

static struct smp_hotplug_thread scst_yield_threads = {
	.store			= &scst_yield_task,
	.thread_should_run	= scst_yield_should_run,
	.thread_fn		= scst_yield_run_queue,
	.setup			= scst_yield_setup,
	.park			= scst_yield_park,
	.unpark			= scst_yield_unpark,
	.thread_comm		= "scst_yield/%u",
};

int scst_dispatch_init(void)
{
	int cpu, ret;

	/* before the yielding workers: a parked one may requeue to it */
	scst_cmd_wq = alloc_workqueue("scst_cmd", WQ_HIGHPRI | WQ_MEM_RECLAIM,
				      0);
	if (!scst_cmd_wq)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		init_llist_head(&per_cpu(scst_cpu_load, cpu).yield_queue);
		per_cpu(scst_cpu_load, cpu).arrival_at = jiffies -
			SCST_ARRIVAL_RECENT - 1;
	}
	ret = smpboot_register_percpu_thread(&scst_yield_threads);
	if (ret)
		destroy_workqueue(scst_cmd_wq);
	return ret;
}

/* No session is left, so no queue holds a command. */
void scst_dispatch_exit(void)
{
	smpboot_unregister_percpu_thread(&scst_yield_threads);
	destroy_workqueue(scst_cmd_wq);
}

/*
 * The counters of @cpu for the cpu_stats file (scst_sysfs_root.c, which
 * formats them: the command path owns no sysfs). Return: whether @cpu ran
 * or holds commands.
 */
bool scst_dispatch_cpu_stats(int cpu, struct scst_dispatch_stats *st)
{
	st->runs = per_cpu(scst_cpu_load, cpu).runs;
	st->yielded = per_cpu(scst_cpu_load, cpu).yielded;
	st->backlog = scst_backlog(cpu);
	return st->runs || st->backlog;
}
