// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_latency.c - SCST's measure_latency (root attribute) in the command
 * path: the stamps and the sessions' statistics, shown in the
 * sessions/<sess>/latency/ files (scst_sysfs_lat.c; scst_lat.c formats).
 *
 * Off (the default), the command path costs one static key per stamp, a
 * jump the kernel patches out. On, a command is stamped when it arrives
 * (scst_rx_cmd()), when its execution starts (scst_do_exec()) and ends
 * (the handler's completion), and its times are added to its session's
 * statistics when the driver reports the response sent
 * (scst_tgt_cmd_done()), under the session's own lock: no lock is shared
 * between sessions. A session gets its statistics (5 KiB) when the flag
 * is turned on, or at its start while it is on; turning it off stops the
 * counting and keeps the figures, which a write to any of the session's
 * latency files zeroes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/mm.h>

#include "scst_priv.h"

DEFINE_STATIC_KEY_FALSE(scst_lat_key);

void scst_lat_sess_init(struct scst_session *sess)
{
	spin_lock_init(&sess->lat_lock);
}

/* Under scst_mutex; a session keeps its statistics until it is freed. */
int scst_lat_sess_alloc(struct scst_session *sess)
{
	struct scst_lat_stats *s;

	lockdep_assert_held(&scst_mutex);
	if (sess->lat_stats)
		return 0;
	s = kvzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	/* the command path reads it without scst_mutex */
	smp_store_release(&sess->lat_stats, s);
	return 0;
}

void scst_lat_sess_free(struct scst_session *sess)
{
	kvfree(sess->lat_stats);
	sess->lat_stats = NULL;
}

bool scst_lat_on(void)
{
	return static_key_enabled(&scst_lat_key);
}

/**
 * scst_lat_set() - turn measure_latency on or off
 * @on: the new value
 *
 * Under scst_mutex: every session has its statistics before the first
 * command is stamped.
 *
 * Return: 0, or -ENOMEM (measure_latency stays off).
 */
int scst_lat_set(bool on)
{
	struct scst_tgt_template *tgtt;
	struct scst_session *sess;
	struct scst_tgt *tgt;
	int ret;

	lockdep_assert_held(&scst_mutex);
	if (!on) {
		static_branch_disable(&scst_lat_key);
		return 0;
	}
	list_for_each_entry(tgtt, &scst_template_list, list_entry)
		list_for_each_entry(tgt, &tgtt->tgt_list, tgtt_entry)
			list_for_each_entry(sess, &tgt->sess_list, tgt_entry) {
				ret = scst_lat_sess_alloc(sess);
				if (ret)
					return ret;
			}
	static_branch_enable(&scst_lat_key);
	return 0;
}

/*
 * @cmd's response went out: add the times of its stages. A command
 * stamped only in part (it arrived before measure_latency went on, or
 * ended before it ran) adds the stages it has both ends of.
 */
void scst_lat_cmd_done(struct scst_cmd *cmd)
{
	struct scst_session *sess = cmd->sess;
	/* pairs with the release in scst_lat_sess_alloc() */
	struct scst_lat_stats *s = smp_load_acquire(&sess->lat_stats);
	u64 now = ktime_get_ns(), *t = cmd->lat_ns;
	struct scst_lat_entry *e;
	unsigned long flags;

	if (!s || !cmd->dir_known || !t[SCST_LAT_TS_EXEC] ||
	    !t[SCST_LAT_TS_DONE])
		return;
	e = s->e[cmd->data_direction & 3][scst_lat_bucket(cmd->bufflen)];
	spin_lock_irqsave(&sess->lat_lock, flags);
	if (t[SCST_LAT_TS_RX])
		scst_lat_add(&e[SCST_LAT_INIT],
			     t[SCST_LAT_TS_EXEC] - t[SCST_LAT_TS_RX]);
	scst_lat_add(&e[SCST_LAT_EXEC], t[SCST_LAT_TS_DONE] -
		     t[SCST_LAT_TS_EXEC]);
	scst_lat_add(&e[SCST_LAT_XMIT], now - t[SCST_LAT_TS_DONE]);
	spin_unlock_irqrestore(&sess->lat_lock, flags);
}
