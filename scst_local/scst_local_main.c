// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_local: the module, its parameters, and the two templates that tie
 * it to the SCSI midlayer (an LLD) and to the target core (a target
 * driver). The overview is in scst_local.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include <scsi/scsi.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

#include "scst_local.h"

#define SCST_LOCAL_NAME			"scst_local"
#define SCST_LOCAL_DEFAULT_TGT		"scst_local_tgt"
#define SCST_LOCAL_DEFAULT_SESS		"scst_local_host"

/* Largest command, in 512-byte sectors (2 MiB) */
#define SCST_LOCAL_MAX_SECTORS		4096
/* Enough entries for the largest command even if no two pages merge */
#define SCST_LOCAL_SG_TABLESIZE		(SCST_LOCAL_MAX_SECTORS >> \
					 (PAGE_SHIFT - SECTOR_SHIFT))

static bool scst_local_add_default_tgt = true;
module_param_named(add_default_tgt, scst_local_add_default_tgt, bool, 0444);
MODULE_PARM_DESC(add_default_tgt,
		 "Create target " SCST_LOCAL_DEFAULT_TGT " with session "
		 SCST_LOCAL_DEFAULT_SESS " at load (default: true)");

unsigned int scst_local_can_queue = 256;
module_param_named(can_queue, scst_local_can_queue, uint, 0444);
MODULE_PARM_DESC(can_queue,
		 "Commands in flight per SCSI host, all LUNs together (default: 256)");

unsigned int scst_local_cmd_per_lun = 64;
module_param_named(cmd_per_lun, scst_local_cmd_per_lun, uint, 0444);
MODULE_PARM_DESC(cmd_per_lun, "Initial queue depth of each LUN (default: 64)");

unsigned int scst_local_nr_hw_queues;
module_param_named(nr_hw_queues, scst_local_nr_hw_queues, uint, 0444);
MODULE_PARM_DESC(nr_hw_queues,
		 "blk-mq hardware queues per SCSI host, sharing one tag space (default 0: one per CPU)");

struct device *scst_local_root;

/*
 * The core hands our buffers (zero copy) to back ends that need every
 * segment sector-aligned (bios): make the block layer bounce SG_IO buffers
 * that are not. Newer kernels say so in the host template (probed by
 * Kbuild), older ones on the queue.
 */
#ifndef SCST_HAVE_SHT_DMA_ALIGNMENT
static int scst_local_slave_configure(struct scsi_device *sdev)
{
	blk_queue_dma_alignment(sdev->request_queue, SECTOR_SIZE - 1);
	return 0;
}

#define SCST_LOCAL_DMA_ALIGNMENT .slave_configure = scst_local_slave_configure
#else
#define SCST_LOCAL_DMA_ALIGNMENT .dma_alignment = SECTOR_SIZE - 1
#endif

/* The template is not const: 6.1's scsi_host_alloc() takes it non-const. */
struct scsi_host_template scst_local_sht = {
	.module			= THIS_MODULE,
	.name			= SCST_LOCAL_NAME,
	.proc_name		= SCST_LOCAL_NAME,
	.queuecommand		= scst_local_queuecommand,
	.change_queue_depth	= scsi_change_queue_depth,
	.eh_abort_handler	= scst_local_eh_abort,
	.eh_device_reset_handler = scst_local_eh_device_reset,
	.eh_target_reset_handler = scst_local_eh_target_reset,
	.eh_host_reset_handler	= scst_local_eh_host_reset,
	.this_id		= -1,
	/* overridden per host by the module parameters */
	.can_queue		= 256,
	.cmd_per_lun		= 64,
	.sg_tablesize		= SCST_LOCAL_SG_TABLESIZE,
	.max_sectors		= SCST_LOCAL_MAX_SECTORS,
	/* we copy with the CPU: no DMA boundary, default segment size */
	.cmd_size		= sizeof(struct scst_local_cmd),
	.host_tagset		= 1,
	.track_queue_depth	= 1,
	.skip_settle_delay	= 1,
	SCST_LOCAL_DMA_ALIGNMENT,
#ifdef SCST_HAVE_QUEUECOMMAND_MAY_BLOCK
	/* blk-mq then calls queuecommand where it may sleep (SRCU) */
	.queuecommand_may_block	= 1,
#endif
};

/* scst_local targets need no enabling: they take sessions at once */
static bool scst_local_is_target_enabled(struct scst_tgt *tgt)
{
	return true;
}

struct scst_tgt_template scst_local_tgtt = {
	.name			= SCST_LOCAL_NAME,
	/* we copy the data with the CPU: any scatterlist will do */
	.sg_tablesize		= 0,
	.xmit_response		= scst_local_xmit_response,
	.rdy_to_xfer		= scst_local_rdy_to_xfer,
	.task_mgmt_fn_done	= scst_local_task_mgmt_fn_done,
	.is_target_enabled	= scst_local_is_target_enabled,
	.close_session		= scst_local_close_session,
	.add_target		= scst_local_mgmt_add_target,
	.del_target		= scst_local_mgmt_del_target,
	.mgmt_cmd		= scst_local_mgmt_cmd,
	.mgmt_help		=
		"Usage: echo \"add_target target_name [session_name=name]\" >mgmt\n"
		"       echo \"del_target target_name\" >mgmt\n"
		"       echo \"add_session target_name session_name\" >mgmt\n"
		"       echo \"del_session target_name session_name\" >mgmt\n"
		"\nThe following parameters available: session_name",
	.tgtt_attrs		= scst_local_tgtt_attrs,
	.sess_attrs		= scst_local_sess_attrs,
	.owner			= THIS_MODULE,
};

/* ---------------------------------------------------------------------- */
/* Module                                                                 */
/* ---------------------------------------------------------------------- */

static int scst_local_check_params(void)
{
	if (!scst_local_can_queue || scst_local_can_queue > BLK_MQ_MAX_DEPTH) {
		pr_err("can_queue=%u: must be 1..%u\n", scst_local_can_queue,
		       (unsigned int)BLK_MQ_MAX_DEPTH);
		return -EINVAL;
	}
	if (!scst_local_cmd_per_lun ||
	    scst_local_cmd_per_lun > scst_local_can_queue) {
		pr_err("cmd_per_lun=%u: must be 1..can_queue (%u)\n",
		       scst_local_cmd_per_lun, scst_local_can_queue);
		return -EINVAL;
	}
	return 0;
}

static int __init scst_local_init(void)
{
	int ret;

	ret = scst_local_check_params();
	if (ret)
		return ret;

	scst_local_root = root_device_register(SCST_LOCAL_NAME);
	if (IS_ERR(scst_local_root)) {
		ret = PTR_ERR(scst_local_root);
		pr_err("cannot register root device %s (%d)\n",
		       SCST_LOCAL_NAME, ret);
		return ret;
	}

	ret = scst_register_target_template(&scst_local_tgtt);
	if (ret)
		goto unregister_root;

	if (scst_local_add_default_tgt) {
		mutex_lock(&scst_local_mutex);
		ret = scst_local_add_target(SCST_LOCAL_DEFAULT_TGT,
					    SCST_LOCAL_DEFAULT_SESS);
		mutex_unlock(&scst_local_mutex);
		if (ret)
			goto unregister_template;
	}
	return 0;

unregister_template:
	scst_local_remove_all_targets();
	scst_unregister_target_template(&scst_local_tgtt);
	cancel_work_sync(&scst_local_close_work);
unregister_root:
	root_device_unregister(scst_local_root);
	return ret;
}

static void __exit scst_local_exit(void)
{
	/* refuse new mgmt commands, remove every host and target */
	scst_local_remove_all_targets();
	/* waits for mgmt writes in progress, which now fail at once */
	scst_unregister_target_template(&scst_local_tgtt);
	cancel_work_sync(&scst_local_close_work);
	root_device_unregister(scst_local_root);
}

module_init(scst_local_init);
module_exit(scst_local_exit);

MODULE_DESCRIPTION("SCST loopback target driver: local SCSI hosts for SCST targets");
MODULE_LICENSE("GPL");
