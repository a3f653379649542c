// SPDX-License-Identifier: GPL-2.0-only
/*
 * srpt_sysfs.c - attributes of ib_srpt targets and sessions.
 *
 * targets/ib_srpt/<gid>/
 *   login_info    what an initiator needs to log in (SCST's format):
 *                 tid_ext=<16 hex>,ioc_guid=<16 hex>,pkey=ffff,
 *                 dgid=<32 hex>,service_id=<16 hex>
 *   device        the RDMA device of the port ("" while port-less)
 *   port_id       TARGET PORT IDENTIFIER logins must name, 0x + 32 hex
 *   link_layer    InfiniBand or Ethernet ("" while port-less)
 *   comp_v_mask   completion vectors new channels may use (hex bitmap)
 *   thread_mode   1: new channels are processed by the target's thread
 *   thread_pid    PID of the target's completion thread, 0 if none (for
 *                 scst-affinity; the thread follows the target's cpu_mask)
 *   max_sessions  most channels (sessions) logged in at once
 *   max_channels_per_initiator  most channels of one initiator at once
 * targets/ib_srpt/<gid>/sessions/<sess>/
 *   req_lim, req_lim_delta, ch_state, comp_vector, thread_pid
 *   ioctx_states  how many send contexts are in each state, and the free
 *                 send queue entries (for diagnosing stuck commands)
 *   sq_size       send queue entries work requests may use (the QP's,
 *                 less two kept for draining it)
 *   sq_free       of those, the free ones: sq_size when nothing is posted
 *   sq_waiting    send contexts waiting for send queue room
 *
 * Non-default values end with a "[key]" line, as SCST's, so that
 * scstadmin -write_config saves them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/bitmap.h>

#include "ib_srpt.h"

static struct srpt_tgt *srpt_kobj_tgt(struct kobject *kobj)
{
	return srpt_tgt_from_scst(scst_kobj_to_tgt(kobj));
}

static ssize_t srpt_login_info_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	u64 guid;

	if (!tgt)
		return -ENODEV;
	guid = srpt_tgt_port_guid(tgt);
	return sysfs_emit(buf,
			  "tid_ext=%016llx,ioc_guid=%016llx,pkey=ffff,dgid=%016llx%016llx,service_id=%016llx\n",
			  guid, guid, get_unaligned_be64(tgt->gid.raw),
			  get_unaligned_be64(tgt->gid.raw + 8),
			  READ_ONCE(srpt_service_guid));
}

static ssize_t srpt_device_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	ssize_t ret;

	if (!tgt)
		return -ENODEV;
	mutex_lock(&srpt_mutex);
	ret = sysfs_emit(buf, "%s\n", tgt->sport ?
			 dev_name(&tgt->sport->sdev->device->dev) : "");
	mutex_unlock(&srpt_mutex);
	return ret;
}

static ssize_t srpt_port_id_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	u64 guid;

	if (!tgt)
		return -ENODEV;
	guid = srpt_tgt_port_guid(tgt);
	return sysfs_emit(buf, "0x%016llx%016llx\n", guid, guid);
}

static ssize_t srpt_link_layer_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	const char *ll = "";
	ssize_t ret;

	if (!tgt)
		return -ENODEV;
	mutex_lock(&srpt_mutex);
	if (tgt->sport)
		ll = tgt->sport->link_layer == IB_LINK_LAYER_ETHERNET ?
		     "Ethernet" : "InfiniBand";
	ret = sysfs_emit(buf, "%s\n", ll);
	mutex_unlock(&srpt_mutex);
	return ret;
}

static ssize_t srpt_comp_v_mask_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	ssize_t len;

	if (!tgt)
		return -ENODEV;
	len = sysfs_emit(buf, "%*pb\n", SRPT_MAX_COMP_VECTORS,
			 tgt->comp_v_mask);
	return scst_sysfs_emit_key(buf, len,
				   !bitmap_full(tgt->comp_v_mask,
						SRPT_MAX_COMP_VECTORS));
}

static ssize_t srpt_comp_v_mask_store(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	DECLARE_BITMAP(mask, SRPT_MAX_COMP_VECTORS);
	int ret;

	if (!tgt)
		return -ENODEV;
	ret = bitmap_parse(buf, count, mask, SRPT_MAX_COMP_VECTORS);
	if (ret || bitmap_empty(mask, SRPT_MAX_COMP_VECTORS)) {
		pr_err("%s: comp_v_mask: '%.*s' is not a non-empty hex bitmap\n",
		       tgt->name, (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	mutex_lock(&srpt_mutex);
	bitmap_copy(tgt->comp_v_mask, mask, SRPT_MAX_COMP_VECTORS);
	mutex_unlock(&srpt_mutex);
	return count;
}

static ssize_t srpt_thread_mode_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	bool on;

	if (!tgt)
		return -ENODEV;
	on = READ_ONCE(tgt->thread_mode);
	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%d\n", on),
				   on != srpt_thread_mode);
}

static ssize_t srpt_thread_mode_store(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	bool on;

	if (!tgt)
		return -ENODEV;
	if (kstrtobool(buf, &on)) {
		pr_err("%s: thread_mode: '%.*s' is not 0 or 1\n", tgt->name,
		       (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	/* applies to channels that log in from now on */
	WRITE_ONCE(tgt->thread_mode, on);
	return count;
}

static ssize_t srpt_tgt_thread_pid_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);

	if (!tgt)
		return -ENODEV;
	return sysfs_emit(buf, "%d\n", READ_ONCE(tgt->thread_pid));
}

/*
 * max_sessions, max_channels_per_initiator: a count 1..65536 in struct
 * srpt_tgt, one show and one store for both.
 */
struct srpt_limit_attr {
	struct kobj_attribute attr;
	size_t offset;
	u32 def;
};

static u32 *srpt_limit(struct srpt_tgt *tgt, struct kobj_attribute *attr)
{
	return (u32 *)((u8 *)tgt + container_of(attr, struct srpt_limit_attr,
						attr)->offset);
}

static ssize_t srpt_limit_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	u32 val;

	if (!tgt)
		return -ENODEV;
	val = READ_ONCE(*srpt_limit(tgt, attr));
	return scst_sysfs_emit_key(buf, sysfs_emit(buf, "%u\n", val),
				   val != container_of(attr,
						       struct srpt_limit_attr,
						       attr)->def);
}

static ssize_t srpt_limit_store(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count)
{
	struct srpt_tgt *tgt = srpt_kobj_tgt(kobj);
	u32 v;

	if (!tgt)
		return -ENODEV;
	if (kstrtou32(buf, 0, &v) || !v || v > SRPT_MAX_MAX_SESSIONS) {
		pr_err("%s: %s: '%.*s' is not a number from 1 to %u\n",
		       tgt->name, attr->attr.name, (int)strcspn(buf, "\n"),
		       buf, SRPT_MAX_MAX_SESSIONS);
		return -EINVAL;
	}
	/* applies to logins from now on; logged-in channels stay */
	mutex_lock(&srpt_mutex);
	*srpt_limit(tgt, attr) = v;
	mutex_unlock(&srpt_mutex);
	return count;
}

static struct srpt_limit_attr srpt_max_sessions_attr = {
	.attr = __ATTR(max_sessions, 0644, srpt_limit_show, srpt_limit_store),
	.offset = offsetof(struct srpt_tgt, max_sessions),
	.def = SRPT_DEF_MAX_SESSIONS,
};

static struct srpt_limit_attr srpt_max_ch_per_ini_attr = {
	.attr = __ATTR(max_channels_per_initiator, 0644, srpt_limit_show,
		       srpt_limit_store),
	.offset = offsetof(struct srpt_tgt, max_ch_per_ini),
	.def = SRPT_DEF_MAX_CH_PER_INI,
};

static struct kobj_attribute srpt_login_info_attr =
	__ATTR(login_info, 0444, srpt_login_info_show, NULL);
static struct kobj_attribute srpt_device_attr =
	__ATTR(device, 0444, srpt_device_show, NULL);
static struct kobj_attribute srpt_port_id_attr =
	__ATTR(port_id, 0444, srpt_port_id_show, NULL);
static struct kobj_attribute srpt_link_layer_attr =
	__ATTR(link_layer, 0444, srpt_link_layer_show, NULL);
static struct kobj_attribute srpt_comp_v_mask_attr =
	__ATTR(comp_v_mask, 0644, srpt_comp_v_mask_show,
	       srpt_comp_v_mask_store);
static struct kobj_attribute srpt_thread_mode_attr =
	__ATTR(thread_mode, 0644, srpt_thread_mode_show,
	       srpt_thread_mode_store);
static struct kobj_attribute srpt_tgt_thread_pid_attr =
	__ATTR(thread_pid, 0444, srpt_tgt_thread_pid_show, NULL);

const struct attribute *srpt_tgt_attrs[] = {
	&srpt_login_info_attr.attr,
	&srpt_device_attr.attr,
	&srpt_port_id_attr.attr,
	&srpt_link_layer_attr.attr,
	&srpt_comp_v_mask_attr.attr,
	&srpt_thread_mode_attr.attr,
	&srpt_tgt_thread_pid_attr.attr,
	&srpt_max_sessions_attr.attr.attr,
	&srpt_max_ch_per_ini_attr.attr.attr,
	NULL,
};

/*
 * Session attributes. The core sets sess->tgt_priv before they appear and
 * removes them before the channel is released.
 */
static struct srpt_rdma_ch *srpt_kobj_ch(struct kobject *kobj)
{
	return scst_kobj_to_sess(kobj)->tgt_priv;
}

static ssize_t srpt_req_lim_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&srpt_kobj_ch(kobj)->req_lim));
}

static ssize_t srpt_req_lim_delta_show(struct kobject *kobj,
				       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&srpt_kobj_ch(kobj)->req_lim_delta));
}

static ssize_t srpt_ch_state_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  srpt_ch_state_name(srpt_ch_state(srpt_kobj_ch(kobj))));
}

static ssize_t srpt_comp_vector_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", srpt_kobj_ch(kobj)->comp_vector);
}

static ssize_t srpt_thread_pid_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	struct srpt_thread *thr = srpt_kobj_ch(kobj)->thread;

	return sysfs_emit(buf, "%d\n", thr ? task_pid_nr(thr->task) : 0);
}

static const char *const srpt_ioctx_state_names[] = {
	[SRPT_IOCTX_FREE]		= "free",
	[SRPT_IOCTX_NEW]		= "new",
	[SRPT_IOCTX_FETCH_TABLE]	= "fetch_table",
	[SRPT_IOCTX_NEED_DATA]		= "need_data",
	[SRPT_IOCTX_DATA_IN]		= "data_in",
	[SRPT_IOCTX_RSP_SENT]		= "rsp_sent",
	[SRPT_IOCTX_MGMT]		= "mgmt",
	[SRPT_IOCTX_MGMT_RSP_SENT]	= "mgmt_rsp_sent",
	[SRPT_IOCTX_LOCAL_RSP_SENT]	= "local_rsp_sent",
	[SRPT_IOCTX_LOGOUT_SENT]	= "logout_sent",
};

static ssize_t srpt_ioctx_states_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	struct srpt_rdma_ch *ch = srpt_kobj_ch(kobj);
	unsigned int cnt[ARRAY_SIZE(srpt_ioctx_state_names)] = { };
	ssize_t len = 0;
	u32 i;

	/* a snapshot without locks: the states move on meanwhile */
	for (i = 0; i < ch->send_ring_size; i++) {
		enum srpt_ioctx_state st = READ_ONCE(ch->send_ring[i]->state);

		if ((unsigned int)st < ARRAY_SIZE(cnt))
			cnt[st]++;
	}
	for (i = 0; i < ARRAY_SIZE(cnt); i++)
		len += sysfs_emit_at(buf, len, "%s=%u ",
				     srpt_ioctx_state_names[i], cnt[i]);
	len += sysfs_emit_at(buf, len, "sq_wr_avail=%d\n",
			     atomic_read(&ch->sq_wr_avail));
	return len;
}

static ssize_t srpt_sq_size_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", srpt_kobj_ch(kobj)->sq_wr_max);
}

static ssize_t srpt_sq_free_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&srpt_kobj_ch(kobj)->sq_wr_avail));
}

static ssize_t srpt_sq_waiting_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	struct srpt_rdma_ch *ch = srpt_kobj_ch(kobj);
	struct list_head *pos;
	unsigned long flags;
	u32 n = 0;

	/* at most the channel's send contexts */
	spin_lock_irqsave(&ch->lock, flags);
	list_for_each(pos, &ch->sq_wait)
		n++;
	spin_unlock_irqrestore(&ch->lock, flags);
	return sysfs_emit(buf, "%u\n", n);
}

static struct kobj_attribute srpt_req_lim_attr =
	__ATTR(req_lim, 0444, srpt_req_lim_show, NULL);
static struct kobj_attribute srpt_req_lim_delta_attr =
	__ATTR(req_lim_delta, 0444, srpt_req_lim_delta_show, NULL);
static struct kobj_attribute srpt_ch_state_attr =
	__ATTR(ch_state, 0444, srpt_ch_state_show, NULL);
static struct kobj_attribute srpt_comp_vector_attr =
	__ATTR(comp_vector, 0444, srpt_comp_vector_show, NULL);
static struct kobj_attribute srpt_thread_pid_attr =
	__ATTR(thread_pid, 0444, srpt_thread_pid_show, NULL);
static struct kobj_attribute srpt_ioctx_states_attr =
	__ATTR(ioctx_states, 0444, srpt_ioctx_states_show, NULL);
static struct kobj_attribute srpt_sq_size_attr =
	__ATTR(sq_size, 0444, srpt_sq_size_show, NULL);
static struct kobj_attribute srpt_sq_free_attr =
	__ATTR(sq_free, 0444, srpt_sq_free_show, NULL);
static struct kobj_attribute srpt_sq_waiting_attr =
	__ATTR(sq_waiting, 0444, srpt_sq_waiting_show, NULL);

const struct attribute *srpt_sess_attrs[] = {
	&srpt_req_lim_attr.attr,
	&srpt_req_lim_delta_attr.attr,
	&srpt_ch_state_attr.attr,
	&srpt_comp_vector_attr.attr,
	&srpt_thread_pid_attr.attr,
	&srpt_ioctx_states_attr.attr,
	&srpt_sq_size_attr.attr,
	&srpt_sq_free_attr.attr,
	&srpt_sq_waiting_attr.attr,
	NULL,
};
