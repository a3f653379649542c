// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_ua.c - unit attention conditions (SAM-5 5.14, SPC-4 5.14).
 *
 * Each I_T_L nexus (tgt_dev) keeps its pending unit attentions in arrival
 * order; the next command that is not INQUIRY, REPORT LUNS or REQUEST
 * SENSE fails with the oldest one, which is then cleared. A condition
 * that is already pending is not queued twice.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "scst_priv.h"

/* Bound on queued conditions per nexus; older duplicates are coalesced. */
#define SCST_MAX_UA	16

void scst_tgt_dev_add_ua(struct scst_tgt_dev *tgt_dev, u32 sense_code)
{
	struct scst_ua *ua, *pos;
	unsigned int n = 0;
	unsigned long flags;

	ua = kmalloc(sizeof(*ua), GFP_ATOMIC);
	if (!ua)
		return;
	ua->sense_code = sense_code;

	spin_lock_irqsave(&tgt_dev->ua_lock, flags);
	list_for_each_entry(pos, &tgt_dev->ua_list, entry) {
		if (pos->sense_code == sense_code || ++n >= SCST_MAX_UA) {
			spin_unlock_irqrestore(&tgt_dev->ua_lock, flags);
			kfree(ua);
			return;
		}
	}
	list_add_tail(&ua->entry, &tgt_dev->ua_list);
	WRITE_ONCE(tgt_dev->ua_pending, true);
	spin_unlock_irqrestore(&tgt_dev->ua_lock, flags);
}

/*
 * Every nexus of a device (of every session of every target), except
 * @except (the one that caused it) and those being freed.
 */
void scst_dev_add_ua(struct scst_device *dev, u32 sense_code,
		     struct scst_tgt_dev *except)
{
	unsigned long flags;
	struct scst_tgt_dev *tgt_dev;

	spin_lock_irqsave(&dev->dev_lock, flags);
	list_for_each_entry(tgt_dev, &dev->tgt_dev_list, dev_entry)
		if (tgt_dev != except && !tgt_dev->dying)
			scst_tgt_dev_add_ua(tgt_dev, sense_code);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
}

/* Every LUN of a session (an I_T nexus condition, such as a LUN change). */
void scst_sess_add_ua(struct scst_session *sess, u32 sense_code)
{
	struct scst_lun_map *map;
	unsigned int i;

	rcu_read_lock();
	map = rcu_dereference(sess->lun_map);
	for (i = 0; map && i < map->nr; i++)
		scst_tgt_dev_add_ua(map->tgt_devs[i], sense_code);
	rcu_read_unlock();
}

/* Take the oldest pending condition of a nexus. */
bool scst_tgt_dev_pop_ua(struct scst_tgt_dev *tgt_dev, u32 *sense_code)
{
	struct scst_ua *ua = NULL;
	unsigned long flags;

	if (!READ_ONCE(tgt_dev->ua_pending))
		return false;
	spin_lock_irqsave(&tgt_dev->ua_lock, flags);
	ua = list_first_entry_or_null(&tgt_dev->ua_list, struct scst_ua,
				      entry);
	if (ua)
		list_del(&ua->entry);
	WRITE_ONCE(tgt_dev->ua_pending, !list_empty(&tgt_dev->ua_list));
	spin_unlock_irqrestore(&tgt_dev->ua_lock, flags);
	if (!ua)
		return false;
	*sense_code = ua->sense_code;
	kfree(ua);
	return true;
}

static void scst_tgt_dev_clear_ua(struct scst_tgt_dev *tgt_dev,
				  u32 sense_code)
{
	struct scst_ua *ua, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&tgt_dev->ua_lock, flags);
	list_for_each_entry_safe(ua, tmp, &tgt_dev->ua_list, entry) {
		if (ua->sense_code == sense_code) {
			list_del(&ua->entry);
			kfree(ua);
		}
	}
	WRITE_ONCE(tgt_dev->ua_pending, !list_empty(&tgt_dev->ua_list));
	spin_unlock_irqrestore(&tgt_dev->ua_lock, flags);
}

/*
 * SPC-4 6.33: REPORT LUNS clears REPORTED LUNS DATA HAS CHANGED on every
 * LUN of the nexus it was received on.
 */
void scst_sess_clear_ua(struct scst_session *sess, u32 sense_code)
{
	struct scst_lun_map *map;
	unsigned int i;

	rcu_read_lock();
	map = rcu_dereference(sess->lun_map);
	for (i = 0; map && i < map->nr; i++)
		scst_tgt_dev_clear_ua(map->tgt_devs[i], sense_code);
	rcu_read_unlock();
}

void scst_tgt_dev_free_uas(struct scst_tgt_dev *tgt_dev)
{
	struct scst_ua *ua, *tmp;

	list_for_each_entry_safe(ua, tmp, &tgt_dev->ua_list, entry) {
		list_del(&ua->entry);
		kfree(ua);
	}
}

/**
 * scst_dev_capacity_changed() - the device's capacity changed
 * @dev: the device, with its new nblocks set
 *
 * Every nexus gets CAPACITY DATA HAS CHANGED (SBC-3 4.10).
 */
void scst_dev_capacity_changed(struct scst_device *dev)
{
	scst_dev_add_ua(dev, SCST_SENSE_CAPACITY_DATA_CHANGED, NULL);
}
EXPORT_SYMBOL_GPL(scst_dev_capacity_changed);

/**
 * scst_dev_inquiry_data_changed() - a device's INQUIRY data changed
 * @dev: the device
 *
 * SPC-4 6.6.1: every nexus gets INQUIRY DATA HAS CHANGED, so that the
 * hosts read the identity again.
 */
void scst_dev_inquiry_data_changed(struct scst_device *dev)
{
	scst_dev_add_ua(dev, SCST_SENSE_INQUIRY_DATA_CHANGED, NULL);
}
EXPORT_SYMBOL_GPL(scst_dev_inquiry_data_changed);

/**
 * scst_dev_mode_params_changed() - MODE SELECT changed shared parameters
 * @dev: the device
 * @except: the nexus whose MODE SELECT changed them (it knows), or NULL
 *
 * SPC-4 7.5.2: every other nexus gets MODE PARAMETERS CHANGED.
 */
void scst_dev_mode_params_changed(struct scst_device *dev,
				  struct scst_tgt_dev *except)
{
	scst_dev_add_ua(dev, SCST_SENSE_MODE_PARAMS_CHANGED, except);
}
EXPORT_SYMBOL_GPL(scst_dev_mode_params_changed);
