// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_alua_cmd.c - ALUA in the command path (SPC-4 5.16): the per-command
 * state check, REPORT and SET TARGET PORT GROUPS, the INQUIRY fields, and
 * what they read: scst_alua_lock and the generation scst_alua_gen. The
 * decisions are the pure scst_alua.c's; the groups are made and removed
 * by the model (scst_dg.c), shown by scst_sysfs_dg.c.
 *
 * SET TARGET PORT GROUPS changes a group's state, so the primitive that
 * does (scst_tg_set_state(), with the unit attentions it queues) lives
 * here, in the command path, and the model calls it for a state written
 * to sysfs: the command path calls nothing above itself.
 *
 * Locking: configuration changes hold scst_mutex (sysfs writes, device
 * and target removal) and, for what the command path reads, also
 * scst_alua_lock, a spinlock: the lists, group ids, states, and
 * dev->alua_dg. The command path takes only scst_alua_lock, and only for
 * devices in a device group: a command to any other device reads
 * dev->alua_dg and nothing else. For those in a group, each nexus
 * (tgt_dev) caches its group's state with the generation scst_alua_gen it
 * was computed at; every change bumps the generation, so the lock is
 * taken again only after a change. Order: scst_mutex -> scst_alua_lock ->
 * dev->dev_lock -> tgt_dev->ua_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "scst_priv.h"
#include <scst_alua.h>

DEFINE_SPINLOCK(scst_alua_lock);
/* bumped under scst_alua_lock at every change a command's state sees */
static unsigned long scst_alua_gen = 1;

/* After every change of what commands read; scst_alua_lock held. */
void scst_alua_changed(void)
{
	lockdep_assert_held(&scst_alua_lock);
	/* never 0, the generation of a nexus that has not looked yet */
	WRITE_ONCE(scst_alua_gen, scst_alua_gen + 1 ?: 1);
}

/* The group of @tgt's port in @dg; scst_alua_lock or scst_mutex. */
static struct scst_tg *scst_dg_tg_of(struct scst_dg *dg,
				     const struct scst_tgt *tgt)
{
	struct scst_tg_tgt *t;
	struct scst_tg *tg;

	list_for_each_entry(tg, &dg->tg_list, entry)
		list_for_each_entry(t, &tg->tgt_list, entry)
			if (t->tgt == tgt)
				return tg;
	return NULL;
}

/*
 * SPC-4 5.16.2.6, 6.44: after a change of a group's state or preferred
 * bit, every I_T nexus to the devices of the group, except the one whose
 * SET TARGET PORT GROUPS made it, gets ASYMMETRIC ACCESS STATE CHANGED.
 */
void scst_dg_queue_ua(struct scst_dg *dg, const struct scst_session *except)
{
	const u32 ua = SCST_SENSE_ASYM_ACCESS_STATE_CHANGED;
	struct scst_tgt_dev *td;
	struct scst_dg_dev *dgd;

	lockdep_assert_held(&scst_alua_lock);
	list_for_each_entry(dgd, &dg->dev_list, entry) {
		spin_lock(&dgd->dev->dev_lock);
		list_for_each_entry(td, &dgd->dev->tgt_dev_list, dev_entry)
			if (!td->dying && td->sess != except)
				scst_tgt_dev_add_ua(td, ua);
		spin_unlock(&dgd->dev->dev_lock);
	}
}

/*
 * scst_alua_lock held. Called by SET TARGET PORT GROUPS and by the model
 * for a state written to sysfs (scst_tg_change_state()).
 */
void scst_tg_set_state(struct scst_tg *tg, u8 state, u8 status,
		       const struct scst_session *except)
{
	pr_info("ALUA state of %s/%s: %s -> %s%s\n", tg->dg->name, tg->name,
		scst_alua_state_name(tg->state), scst_alua_state_name(state),
		status == SCST_ALUA_STATUS_BY_STPG ? " (SET TARGET PORT GROUPS)" :
		"");
	WRITE_ONCE(tg->state, state);
	tg->status = status;
	scst_alua_changed();
	scst_dg_queue_ua(tg->dg, except);
}

/**
 * scst_alua_remote_port() - whether the device's ALUA groups name a
 *	target port of another system with this relative target port
 *	identifier
 * @dev: the device
 * @rel_tgt_id: the identifier
 *
 * The other node of an HA pair serves the same logical unit through its
 * own ports (Documentation/ha.md): they are ports of the SCSI target
 * device, e.g. for REGISTER AND MOVE (SPC-4 §5.9.8), though not of this
 * system.
 *
 * Return: true when a remote port of one of its target groups has it.
 */
bool scst_alua_remote_port(struct scst_device *dev, u16 rel_tgt_id)
{
	struct scst_tg_tgt *t;
	struct scst_tg *tg;
	unsigned long flags;
	bool found = false;

	spin_lock_irqsave(&scst_alua_lock, flags);
	if (dev->alua_dg)
		list_for_each_entry(tg, &dev->alua_dg->tg_list, entry)
			list_for_each_entry(t, &tg->tgt_list, entry)
				if (!t->tgt && t->rel_tgt_id == rel_tgt_id)
					found = true;
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	return found;
}

/* ---------------------------------------------------------------------- */
/* The command side                                                       */

/* The state of the group of @tgt's port for @dev; scst_alua_lock. */
static u8 scst_alua_state_of(const struct scst_device *dev,
			     const struct scst_tgt *tgt)
{
	struct scst_tg *tg;

	if (!dev->alua_dg)
		return SCST_ALUA_ACTIVE;
	tg = scst_dg_tg_of(dev->alua_dg, tgt);
	return tg ? tg->state : SCST_ALUA_ACTIVE;
}

/**
 * scst_alua_check_cmd() - the ALUA admission of a command (SPC-4 5.16.2.4)
 * @cmd: a command to a device in a device group (dev->alua_dg set)
 *
 * Return: 0 when the state of the group of the port @cmd came through
 * admits it, else the sense code to end it with.
 */
u32 scst_alua_check_cmd(struct scst_cmd *cmd)
{
	struct scst_tgt_dev *td = cmd->tgt_dev;
	unsigned long flags;
	u8 st;

	/*
	 * The state is stored before its generation is released: seeing
	 * the current generation means seeing its state (or a newer one).
	 * The generation is a whole unsigned long, not packed with the
	 * state, so that it wraps only after 2^32 changes on 32-bit.
	 */
	if (smp_load_acquire(&td->alua_cache_gen) == READ_ONCE(scst_alua_gen)) {
		st = READ_ONCE(td->alua_cache_state);
	} else {
		spin_lock_irqsave(&scst_alua_lock, flags);
		st = scst_alua_state_of(cmd->dev, cmd->sess->tgt);
		WRITE_ONCE(td->alua_cache_state, st);
		/* pairs with the smp_load_acquire() above: state, then gen */
		smp_store_release(&td->alua_cache_gen, scst_alua_gen);
		spin_unlock_irqrestore(&scst_alua_lock, flags);
	}
	return scst_alua_admit_facts(st, cmd->cdb_facts);
}

/**
 * scst_alua_inq_info() - the ALUA fields of a command's INQUIRY data
 * @cmd: an INQUIRY
 * @tpgs: receives the TPGS field (SPC-4 6.6.2): for a device in a device
 *	group implicit, and explicit too with expl_alua (SCST_INQ_TPGS_BOTH);
 *	else none
 * @tpg_id: receives the TARGET PORT GROUP of the port @cmd came through
 *	(VPD page 83h, SPC-4 7.8.6.8), 0 when it is in no target group
 */
void scst_alua_inq_info(struct scst_cmd *cmd, u8 *tpgs, u16 *tpg_id)
{
	struct scst_device *dev = cmd->dev;
	unsigned long flags;
	struct scst_tg *tg;

	*tpgs = SCST_INQ_TPGS_NONE;
	*tpg_id = 0;
	if (!dev || !READ_ONCE(dev->alua_dg))
		return;
	spin_lock_irqsave(&scst_alua_lock, flags);
	if (dev->alua_dg) {
		*tpgs = READ_ONCE(dev->expl_alua) ? SCST_INQ_TPGS_BOTH :
						    SCST_INQ_TPGS_IMPLICIT;
		tg = scst_dg_tg_of(dev->alua_dg, cmd->sess->tgt);
		if (tg)
			*tpg_id = tg->group_id;
	}
	spin_unlock_irqrestore(&scst_alua_lock, flags);
}
EXPORT_SYMBOL_GPL(scst_alua_inq_info);

/* scst_alua_lock held: the length of the RTPG data of @dg. */
static size_t scst_rtpg_len(const struct scst_dg *dg, u8 format)
{
	size_t len = format == SCST_RTPG_FMT_EXTENDED ?
		     SCST_RTPG_EXT_HDR_LEN : SCST_RTPG_HDR_LEN;
	struct scst_tg *tg;

	if (dg)
		list_for_each_entry(tg, &dg->tg_list, entry)
			len += SCST_RTPG_DESC_LEN +
			       tg->nr_tgts * SCST_RTPG_PORT_LEN;
	return len;
}

/* SPC-4 6.36: REPORT TARGET PORT GROUPS; the builder is scst_alua.c's. */
static void scst_alua_rtpg(struct scst_cmd *cmd)
{
	struct scst_alua_tpg g;
	struct scst_cdb_err err;
	struct scst_tg_tgt *t;
	unsigned long flags;
	struct scst_tg *tg;
	struct scst_dg *dg;
	size_t len, off;
	u16 *ids, id;
	u32 alloc;
	u8 fmt, *buf;

	if (scst_rtpg_check_cdb(cmd->cdb, cmd->cdb_len, &fmt, &alloc, &err)) {
		scst_set_cmd_error_from(cmd, &err);
		return;
	}
	spin_lock_irqsave(&scst_alua_lock, flags);
	len = scst_rtpg_len(cmd->dev->alua_dg, fmt);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	/*
	 * What is built, never more than the allocation length; no I/O to
	 * reclaim memory with, as vdisk's emulation buffers (GFP_NOIO).
	 */
	len = min_t(size_t, len, alloc);
	buf = kzalloc(max_t(size_t, len, 1), GFP_NOIO);
	ids = kmalloc_array(SCST_ALUA_MAX_TG_PORTS, sizeof(*ids), GFP_NOIO);
	if (!buf || !ids) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		goto free;
	}
	spin_lock_irqsave(&scst_alua_lock, flags);
	dg = cmd->dev->alua_dg;
	off = scst_rtpg_put_header(buf, len, fmt, 0);
	if (dg) {
		list_for_each_entry(tg, &dg->tg_list, entry) {
			g.group_id = tg->group_id;
			g.state = tg->state;
			g.preferred = tg->preferred;
			g.status = tg->status;
			g.nports = 0;
			list_for_each_entry(t, &tg->tgt_list, entry) {
				if (g.nports == SCST_ALUA_MAX_TG_PORTS)
					break;
				id = t->tgt ? READ_ONCE(t->tgt->rel_tgt_id) :
					      t->rel_tgt_id;
				/*
				 * 0 is reserved (SPC-4 7.8.6.7): a port of
				 * another system whose rel_tgt_id is not set
				 * yet is not reported
				 */
				if (id)
					ids[g.nports++] = id;
			}
			g.rel_tgt_ids = ids;
			off = scst_rtpg_put_group(buf, len, off, &g);
		}
	}
	scst_rtpg_finish(buf, len, off);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	scst_copy_to_sg(cmd, buf, min_t(size_t, off, len));
free:
	kfree(ids);
	kfree(buf);
}

/* SPC-4 6.44: SET TARGET PORT GROUPS, applied all or nothing. */
static void scst_alua_stpg(struct scst_cmd *cmd)
{
	struct scst_stpg_desc d[SCST_STPG_MAX_DESCS];
	struct scst_alua_tpg *groups = NULL;
	unsigned int n, ng, i;
	struct scst_cdb_err err;
	unsigned long flags;
	struct scst_tg *tg;
	struct scst_dg *dg;
	u8 *data = NULL;
	u32 len;

	if (!READ_ONCE(cmd->dev->expl_alua)) {
		/* TPGS 01b: SET TARGET PORT GROUPS is not supported */
		scst_cdb_err_set(&err, SCST_SENSE_INVALID_OPCODE, true, 0, -1);
		goto bad;
	}
	if (scst_stpg_check_cdb(cmd->cdb, cmd->cdb_len, &len, &err))
		goto bad;
	if (len == 0)
		return;	/* SPC-4 6.44: no data, no change */
	data = kmalloc(len, GFP_NOIO);
	groups = kmalloc_array(SCST_ALUA_MAX_TGS, sizeof(*groups), GFP_NOIO);
	if (!data || !groups) {
		scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
		goto free;
	}
	if (scst_copy_from_sg(cmd, data, len) != len) {
		scst_cdb_err_set(&err, SCST_SENSE_PARAM_LIST_LEN_ERROR, false,
				 -1, -1);
		goto bad;
	}
	if (scst_stpg_parse(data, len, d, ARRAY_SIZE(d), &n, &err))
		goto bad;

	spin_lock_irqsave(&scst_alua_lock, flags);
	dg = cmd->dev->alua_dg;
	if (!dg) {
		spin_unlock_irqrestore(&scst_alua_lock, flags);
		/* TPGS 00b: explicit ALUA is not supported (SPC-4 6.6.2) */
		scst_cdb_err_set(&err, SCST_SENSE_INVALID_FIELD_IN_CDB, true,
				 1, 4);
		goto bad;
	}
	ng = 0;
	list_for_each_entry(tg, &dg->tg_list, entry) {
		groups[ng].group_id = tg->group_id;
		groups[ng].state = tg->state;
		groups[ng].nports = 0;
		ng++;
	}
	if (scst_stpg_validate(d, n, groups, ng, &err)) {
		spin_unlock_irqrestore(&scst_alua_lock, flags);
		pr_warn_ratelimited("%s: SET TARGET PORT GROUPS for %s refused\n",
				    cmd->sess->sess_name, cmd->dev->name);
		goto bad;
	}
	for (i = 0; i < n; i++)
		list_for_each_entry(tg, &dg->tg_list, entry)
			if (tg->group_id == d[i].group_id &&
			    tg->state != d[i].state)
				scst_tg_set_state(tg, d[i].state,
						  SCST_ALUA_STATUS_BY_STPG,
						  cmd->sess);
	spin_unlock_irqrestore(&scst_alua_lock, flags);
	goto free;

bad:
	scst_set_cmd_error_from(cmd, &err);
free:
	kfree(groups);
	kfree(data);
}

/**
 * scst_alua_tpg_cmd() - whether a command is REPORT or SET TARGET PORT
 *	GROUPS
 * @cmd: the command
 */
bool scst_alua_tpg_cmd(const struct scst_cmd *cmd)
{
	return cmd->cdb_facts & SCST_OPF_ALUA_TPG;
}

/**
 * scst_alua_emulated() - whether the core answers a command as REPORT or
 *	SET TARGET PORT GROUPS
 * @cmd: the command
 *
 * For a device in a device group, whatever its handler; any other device's
 * handler has them (a pass-through device's own ALUA, vdisk's INVALID
 * COMMAND OPERATION CODE: TPGS is 00b).
 */
bool scst_alua_emulated(const struct scst_cmd *cmd)
{
	return scst_alua_tpg_cmd(cmd) && cmd->dev &&
	       READ_ONCE(cmd->dev->alua_dg);
}

/*
 * Executes a command scst_alua_tpg_cmd() is true for. The device may
 * have left its group since scst_alua_emulated(): RTPG then reports no
 * group, STPG is refused.
 */
void scst_alua_emulate(struct scst_cmd *cmd)
{
	if (cmd->op_id == SCST_OPID_REPORT_TPGS)
		scst_alua_rtpg(cmd);
	else
		scst_alua_stpg(cmd);
}
