// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_latency.c - SCST's measure_latency (root attribute) and the
 * sessions/<sess>/latency/ files (scst_lat.c formats them).
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
static int scst_lat_sess_alloc(struct scst_session *sess)
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

/* sessions/<sess>/latency/{n,r,w,b}{512..524288} */
static struct scst_session *scst_lat_kobj_to_sess(struct kobject *kobj)
{
	return container_of(kobj->parent, struct scst_session, kobj);
}

static ssize_t scst_lat_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct scst_session *sess = scst_lat_kobj_to_sess(kobj);
	struct scst_lat_stats *copy = NULL, *s;
	unsigned int dir, size;

	if (scst_lat_file_parse(attr->attr.name, &dir, &size))
		return -EINVAL;
	s = smp_load_acquire(&sess->lat_stats);	/* as above */
	if (s) {
		copy = kvmalloc(sizeof(*copy), GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
		spin_lock_irq(&sess->lat_lock);
		memcpy(copy, s, sizeof(*copy));
		spin_unlock_irq(&sess->lat_lock);
	}
	scst_lat_format(copy, dir, size, buf, PAGE_SIZE);
	kvfree(copy);
	return strlen(buf);
}

/* As SCST's: a write of anything zeroes all the session's figures. */
static ssize_t scst_lat_store(struct kobject *kobj,
			      struct kobj_attribute *attr, const char *buf,
			      size_t count)
{
	struct scst_session *sess = scst_lat_kobj_to_sess(kobj);
	/* pairs with the release in scst_lat_sess_alloc() */
	struct scst_lat_stats *s = smp_load_acquire(&sess->lat_stats);

	if (s) {
		spin_lock_irq(&sess->lat_lock);
		memset(s, 0, sizeof(*s));
		spin_unlock_irq(&sess->lat_lock);
	}
	return count;
}

#define SCST_LAT_ATTR(sz)						\
	static struct kobj_attribute scst_lat_n##sz =			\
		__ATTR(n##sz, 0644, scst_lat_show, scst_lat_store);	\
	static struct kobj_attribute scst_lat_r##sz =			\
		__ATTR(r##sz, 0644, scst_lat_show, scst_lat_store);	\
	static struct kobj_attribute scst_lat_w##sz =			\
		__ATTR(w##sz, 0644, scst_lat_show, scst_lat_store);	\
	static struct kobj_attribute scst_lat_b##sz =			\
		__ATTR(b##sz, 0644, scst_lat_show, scst_lat_store)
SCST_LAT_ATTR(512);
SCST_LAT_ATTR(1024);
SCST_LAT_ATTR(2048);
SCST_LAT_ATTR(4096);
SCST_LAT_ATTR(8192);
SCST_LAT_ATTR(16384);
SCST_LAT_ATTR(32768);
SCST_LAT_ATTR(65536);
SCST_LAT_ATTR(131072);
SCST_LAT_ATTR(262144);
SCST_LAT_ATTR(524288);

static const struct attribute *scst_lat_attrs[] = {
	&scst_lat_n512.attr, &scst_lat_r512.attr, &scst_lat_w512.attr,
	&scst_lat_b512.attr,
	&scst_lat_n1024.attr, &scst_lat_r1024.attr, &scst_lat_w1024.attr,
	&scst_lat_b1024.attr,
	&scst_lat_n2048.attr, &scst_lat_r2048.attr, &scst_lat_w2048.attr,
	&scst_lat_b2048.attr,
	&scst_lat_n4096.attr, &scst_lat_r4096.attr, &scst_lat_w4096.attr,
	&scst_lat_b4096.attr,
	&scst_lat_n8192.attr, &scst_lat_r8192.attr, &scst_lat_w8192.attr,
	&scst_lat_b8192.attr,
	&scst_lat_n16384.attr, &scst_lat_r16384.attr, &scst_lat_w16384.attr,
	&scst_lat_b16384.attr,
	&scst_lat_n32768.attr, &scst_lat_r32768.attr, &scst_lat_w32768.attr,
	&scst_lat_b32768.attr,
	&scst_lat_n65536.attr, &scst_lat_r65536.attr, &scst_lat_w65536.attr,
	&scst_lat_b65536.attr,
	&scst_lat_n131072.attr, &scst_lat_r131072.attr, &scst_lat_w131072.attr,
	&scst_lat_b131072.attr,
	&scst_lat_n262144.attr, &scst_lat_r262144.attr, &scst_lat_w262144.attr,
	&scst_lat_b262144.attr,
	&scst_lat_n524288.attr, &scst_lat_r524288.attr, &scst_lat_w524288.attr,
	&scst_lat_b524288.attr,
	NULL,
};

/* Under scst_mutex, from scst_sysfs_sess_add(). */
int scst_lat_sysfs_add(struct scst_session *sess)
{
	int ret;

	if (scst_lat_on() && scst_lat_sess_alloc(sess))
		pr_warn("%s: no memory for its latency statistics\n",
			sess->sess_name);
	sess->lat_kobj = kobject_create_and_add("latency", &sess->kobj);
	if (!sess->lat_kobj)
		return -ENOMEM;
	ret = sysfs_create_files(sess->lat_kobj, scst_lat_attrs);
	if (ret) {
		kobject_put(sess->lat_kobj);
		sess->lat_kobj = NULL;
	}
	return ret;
}

void scst_lat_sysfs_del(struct scst_session *sess)
{
	kobject_put(sess->lat_kobj);
	sess->lat_kobj = NULL;
}
