/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * disk.h - state shared by the files of scst_disk.ko, the SCSI
 * pass-through disk handler dev_disk.
 *
 * disk_main.c  module, handler registration, add_device/del_device of a
 *              Linux SCSI disk by H:C:I:L, device attributes
 * disk_exec.c  ->parse() and ->exec(): each command becomes a block-layer
 *              passthrough request on the SCSI device, completed through
 *              its end_io; task management and device removal
 * disk_cdb.c   pure logic: commands outside the core's CDB table, Block
 *              Limits VPD rewrite, the ALUA fields of INQUIRY data
 */
#ifndef __DISK_H
#define __DISK_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <scst.h>

#include "disk_cdb.h"

struct scsi_device;

/* Worker threads per device: they only build and submit requests */
#define DISK_THREADS_NUM	2

/**
 * struct disk_dev - one exported SCSI disk
 * @list_entry: on disk_dev_list
 * @dev: the core's device
 * @sdev: the Linux SCSI device; a reference (scsi_device_get()) is held
 *	from add_device to del_device, so its request queue stays valid
 *	after a hot removal
 * @name: "H:C:I:L"
 * @block_size: logical block length, from READ CAPACITY at add_device
 * @max_bytes: the largest transfer the device's queue takes in one
 *	request built from the core's page-sized chunks: max_hw_sectors,
 *	max_segments pages, the bio's vector limit, in whole blocks; the
 *	limit is the smaller of this and max_transfer_kb (disk_max_transfer())
 * @lock: @inflight
 * @inflight: passthrough requests submitted and not yet ended
 * @nr_inflight: their number; del_device waits for 0 (the core already
 *	waited for the commands, this covers the request's own completion)
 * @idle_wq: where that wait happens
 * @abort_work: a logical unit reset's requests that had not started in
 *	the device when it came are aborted once they start
 *	(disk_task_mgmt_fn())
 */
struct disk_dev {
	struct list_head list_entry;
	struct scst_device *dev;
	struct scsi_device *sdev;
	char name[SCST_MAX_NAME];
	u32 block_size;
	u32 max_bytes;

	spinlock_t lock;		/* inflight */
	struct list_head inflight;
	atomic_t nr_inflight;
	wait_queue_head_t idle_wq;
	struct delayed_work abort_work;
};

static inline struct disk_dev *disk_cmd_ddev(const struct scst_cmd *cmd)
{
	return cmd->dev->dh_priv;
}

/* disk_exec.c */
int disk_parse(struct scst_cmd *cmd);
enum scst_exec_res disk_exec(struct scst_cmd *cmd);
void disk_task_mgmt_fn(struct scst_device *dev, enum scst_tmf fn);
void disk_abort_work(struct work_struct *work);
int disk_read_capacity(struct disk_dev *ddev);
bool disk_sdev_gone(const struct disk_dev *ddev);

#endif /* __DISK_H */
