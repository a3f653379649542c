// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_sysfs_lat.c - the sessions/<sess>/latency/ files of SCST's
 * measure_latency: a session's statistics, kept by the command path
 * (scst_latency.c), formatted by scst_lat.c; a write zeroes them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/slab.h>
#include <linux/mm.h>

#include "scst_priv.h"

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
	/* pairs with the release in scst_lat_sess_alloc() */
	s = smp_load_acquire(&sess->lat_stats);
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
