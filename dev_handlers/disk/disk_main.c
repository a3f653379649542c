// SPDX-License-Identifier: GPL-2.0-only
/*
 * disk_main.c - scst_disk.ko: the SCSI pass-through disk handler
 * dev_disk. Module entry points, handler registration and the devices,
 * named after the Linux SCSI device they pass to (SCST's naming):
 *
 *   echo "add_device 2:0:0:0" >/sys/kernel/scst_tgt/handlers/dev_disk/mgmt
 *   echo "del_device 2:0:0:0" >/sys/kernel/scst_tgt/handlers/dev_disk/mgmt
 *
 * Only direct-access devices (peripheral device type 00h, SPC-4 §6.4.2)
 * are taken. The device keeps being what it is to the Linux host (sd may
 * stay bound); the core adds its own LUN mapping, reservations and unit
 * attentions in front of it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_proto.h>

#include "disk.h"

/* All dev_disk devices; protected by disk_mutex. */
static LIST_HEAD(disk_dev_list);
static DEFINE_MUTEX(disk_mutex);
/* disk_exit() has taken the list: add_device registers nothing more */
static bool disk_exiting;

static struct scst_dev_type disk_devtype;

/* "H:C:I:L" in decimal, nothing else (SCST's device name of dev_disk) */
static int disk_parse_hctl(const char *name, unsigned int *h, unsigned int *c,
			   unsigned int *i, u64 *l)
{
	unsigned long long lun;
	int n = 0;

	if (sscanf(name, "%u:%u:%u:%llu%n", h, c, i, &lun, &n) != 4 ||
	    name[n] || !isdigit(name[0]))
		return -EINVAL;
	*l = lun;
	return 0;
}

/*
 * @name printed back as the SCSI midlayer names the device (its
 * sdev_gendev, "%d:%d:%d:%llu"), so that "2:0:0:00" and "2:0:0:0" are one
 * device name.
 */
static int disk_canon_name(const char *name, char *buf, size_t size)
{
	unsigned int h, c, i;
	u64 l;

	if (disk_parse_hctl(name, &h, &c, &i, &l))
		return -EINVAL;
	snprintf(buf, size, "%u:%u:%u:%llu", h, c, i, l);
	return 0;
}

static const char *disk_type_name(int type)
{
	switch (type) {
	case TYPE_TAPE:
		return "tape";
	case TYPE_PROCESSOR:
		return "processor";
	case TYPE_ROM:
		return "CD/DVD";
	case TYPE_MEDIUM_CHANGER:
		return "medium changer";
	case TYPE_ENCLOSURE:
		return "enclosure";
	case TYPE_ZBC:
		return "host-managed zoned";
	case TYPE_RAID:
		return "RAID controller";
	default:
		return "not a disk";
	}
}

/*
 * The largest transfer one request can carry when built from the core's
 * buffer, whose chunks are a page each (scst_cmd_alloc_data_buf()): the
 * queue's max_hw_sectors, max_segments such chunks (fewer when a segment
 * may not hold a page), and the vector count of one bio.
 */
static u32 disk_queue_max_bytes(struct scsi_device *sdev)
{
	struct request_queue *q = sdev->request_queue;
	u64 hw = (u64)queue_max_hw_sectors(q) << SECTOR_SHIFT;
	u32 seg = min_t(u32, queue_max_segment_size(q), PAGE_SIZE);
	u64 segs = (u64)queue_max_segments(q) * seg;
	u64 vecs = (u64)BIO_MAX_VECS * PAGE_SIZE;

	return (u32)min3(hw, segs, min_t(u64, vecs, U32_MAX));
}

static int disk_attach(struct scst_device *dev)
{
	struct disk_dev *ddev = dev->dh_priv;

	ddev->dev = dev;
	dev->block_size = ddev->block_size;
	dev->block_shift = ilog2(ddev->block_size);
	/*
	 * The device checks the LBA range itself and answers as it does
	 * (LOGICAL BLOCK ADDRESS OUT OF RANGE, its own capacity changes):
	 * the core's range check never fires.
	 */
	dev->nblocks = U64_MAX;
	dev->queue_alg = SCST_QUEUE_ALG_UNRESTRICTED;
	return 0;
}

static struct disk_dev *disk_find(const char *name)
{
	struct disk_dev *ddev;

	lockdep_assert_held(&disk_mutex);
	list_for_each_entry(ddev, &disk_dev_list, list_entry)
		if (strcmp(ddev->name, name) == 0)
			return ddev;
	return NULL;
}

/* The device exporting @sdev, whatever name it was added under */
static struct disk_dev *disk_find_sdev(const struct scsi_device *sdev)
{
	struct disk_dev *ddev;

	lockdep_assert_held(&disk_mutex);
	list_for_each_entry(ddev, &disk_dev_list, list_entry)
		if (ddev->sdev == sdev)
			return ddev;
	return NULL;
}

/* The Linux SCSI device H:C:I:L, with a reference, or an ERR_PTR */
static struct scsi_device *disk_get_sdev(const char *name)
{
	unsigned int h, c, i;
	struct Scsi_Host *shost;
	struct scsi_device *sdev;
	u64 l;

	if (disk_parse_hctl(name, &h, &c, &i, &l)) {
		pr_err("add_device %s: the name must be H:C:I:L of a SCSI device\n",
		       name);
		return ERR_PTR(-EINVAL);
	}
	shost = scsi_host_lookup(h);
	if (!shost) {
		pr_err("add_device %s: no SCSI host %u\n", name, h);
		return ERR_PTR(-ENODEV);
	}
	sdev = scsi_device_lookup(shost, c, i, l);
	scsi_host_put(shost);
	if (!sdev) {
		pr_err("add_device %s: no such SCSI device\n", name);
		return ERR_PTR(-ENODEV);
	}
	if (sdev->type != TYPE_DISK) {
		pr_err("add_device %s: peripheral device type %#x (%s); dev_disk passes to direct-access devices (type 0) only\n",
		       name, sdev->type, disk_type_name(sdev->type));
		scsi_device_put(sdev);
		return ERR_PTR(-EINVAL);
	}
	return sdev;
}

static int disk_add_device(const char *arg, const struct scst_mgmt_line *line)
{
	char name[SCST_MAX_NAME];
	struct scsi_device *sdev;
	struct scst_device *dev;
	struct disk_dev *ddev;
	bool dup;
	int ret;

	if (disk_canon_name(arg, name, sizeof(name))) {
		pr_err("add_device %s: the name must be H:C:I:L of a SCSI device\n",
		       arg);
		return -EINVAL;
	}
	/* early, before READ CAPACITY; checked again at registration */
	mutex_lock(&disk_mutex);
	dup = disk_find(name);
	mutex_unlock(&disk_mutex);
	if (dup) {
		pr_err("add_device %s: already exported\n", name);
		return -EEXIST;
	}

	sdev = disk_get_sdev(name);
	if (IS_ERR(sdev))
		return PTR_ERR(sdev);
	ddev = kzalloc(sizeof(*ddev), GFP_KERNEL);
	if (!ddev) {
		ret = -ENOMEM;
		goto put_sdev;
	}
	ddev->sdev = sdev;
	strscpy(ddev->name, name, sizeof(ddev->name));
	spin_lock_init(&ddev->lock);
	INIT_LIST_HEAD(&ddev->inflight);
	init_waitqueue_head(&ddev->idle_wq);
	INIT_DELAYED_WORK(&ddev->abort_work, disk_abort_work);
	ddev->max_bytes = disk_queue_max_bytes(sdev);
	ret = disk_read_capacity(ddev);
	if (ret)
		goto free_ddev;
	ddev->max_bytes = round_down(ddev->max_bytes, ddev->block_size);
	if (ddev->max_bytes < ddev->block_size) {
		pr_err("add_device %s: the queue takes %u bytes per request, less than a block of %u\n",
		       name, ddev->max_bytes, ddev->block_size);
		ret = -EINVAL;
		goto free_ddev;
	}

	/*
	 * The SCSI device, not the name, is what may be exported once: a
	 * concurrent add_device of it passed the check above too.
	 */
	mutex_lock(&disk_mutex);
	if (disk_exiting) {
		ret = -ENODEV;
		goto unlock;
	}
	if (disk_find_sdev(sdev)) {
		pr_err("add_device %s: already exported\n", name);
		ret = -EEXIST;
		goto unlock;
	}
	dev = scst_register_virtual_device(&disk_devtype, name, ddev);
	if (IS_ERR(dev)) {
		ret = PTR_ERR(dev);
		goto unlock;
	}
	list_add_tail(&ddev->list_entry, &disk_dev_list);
	/* before unlocking: a del_device may free @ddev and drop @sdev */
	pr_info("%s: %.8s %.16s, blocks of %u bytes, at most %u KiB per command\n",
		name, sdev->vendor, sdev->model, ddev->block_size,
		min(dev->max_transfer_kb, ddev->max_bytes >> 10));
	mutex_unlock(&disk_mutex);
	return 0;

unlock:
	mutex_unlock(&disk_mutex);
free_ddev:
	kfree(ddev);
put_sdev:
	scsi_device_put(sdev);
	return ret;
}

/*
 * Unregister (the core removes the LUNs and waits for the device's
 * commands; a command on a removed SCSI device ends with an error, so
 * this ends too), then drop the SCSI device.
 */
static void disk_destroy(struct disk_dev *ddev)
{
	scst_unregister_virtual_device(ddev->dev);
	wait_event(ddev->idle_wq, !atomic_read(&ddev->nr_inflight));
	/* nothing in flight: the work finds nothing and stops */
	cancel_delayed_work_sync(&ddev->abort_work);
	scsi_device_put(ddev->sdev);
	kfree(ddev);
}

static int disk_del_device(const char *arg)
{
	char name[SCST_MAX_NAME];
	struct disk_dev *ddev;

	/* the name add_device registered; anything else is no device */
	if (disk_canon_name(arg, name, sizeof(name)))
		strscpy(name, arg, sizeof(name));
	mutex_lock(&disk_mutex);
	ddev = disk_find(name);
	if (ddev)
		list_del(&ddev->list_entry);
	mutex_unlock(&disk_mutex);
	if (!ddev) {
		pr_err("del_device %s: no such device\n", name);
		return -ENOENT;
	}
	disk_destroy(ddev);
	return 0;
}

/* devices/<H:C:I:L>/ attributes of the handler (the core adds its own) */
static ssize_t disk_scsi_device_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	struct disk_dev *ddev = scst_kobj_to_dev(kobj)->dh_priv;

	return sysfs_emit(buf, "%s\n", dev_name(&ddev->sdev->sdev_gendev));
}

static ssize_t disk_state_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct disk_dev *ddev = scst_kobj_to_dev(kobj)->dh_priv;

	return sysfs_emit(buf, "%s\n", disk_sdev_gone(ddev) ? "removed" :
			  "running");
}

static ssize_t disk_blocksize_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct disk_dev *ddev = scst_kobj_to_dev(kobj)->dh_priv;

	return sysfs_emit(buf, "%u\n", ddev->block_size);
}

static ssize_t disk_max_hw_kb_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct disk_dev *ddev = scst_kobj_to_dev(kobj)->dh_priv;

	return sysfs_emit(buf, "%u\n", ddev->max_bytes >> 10);
}

/*
 * cluster_mode (Documentation/ha.md): the persistent reservations of the
 * device shared by the target nodes of a cluster. A pass-through device
 * has no t10_dev_id to set: its name in the cluster is its logical unit's
 * own designator (VPD page 0x83, as scsi_vpd_lun_id() writes it:
 * "naa.<hex>", "eui.<hex>", "t10.<text>"), which every node that sees the
 * shared disk reads alike.
 */
#define DISK_CLUSTER_ID_LEN 256

static ssize_t disk_cluster_mode_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", scst_pr_cluster_on(scst_kobj_to_dev(kobj)));
}

static ssize_t disk_cluster_mode_store(struct kobject *kobj,
				       struct kobj_attribute *attr,
				       const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	struct disk_dev *ddev = dev->dh_priv;
	char *id = NULL;
	bool on;
	int ret;

	if (kstrtobool(buf, &on)) {
		pr_err("%s: cluster_mode=%.*s: must be 0 or 1\n", dev->name,
		       (int)min_t(size_t, count, 32), buf);
		return -EINVAL;
	}
	if (on) {
		id = kzalloc(DISK_CLUSTER_ID_LEN, GFP_KERNEL);
		if (!id)
			return -ENOMEM;
		ret = scsi_vpd_lun_id(ddev->sdev, id, DISK_CLUSTER_ID_LEN);
		if (ret <= 0 || ret >= DISK_CLUSTER_ID_LEN) {
			pr_err("%s: cluster_mode: the SCSI device reports no logical unit designator (VPD page 0x83) to name it in the cluster\n",
			       dev->name);
			kfree(id);
			return -EINVAL;
		}
	}
	ret = scst_pr_cluster_set(dev, on, id);
	kfree(id);
	return ret ?: count;
}

static struct kobj_attribute disk_scsi_device_attr =
	__ATTR(scsi_device, 0444, disk_scsi_device_show, NULL);
static struct kobj_attribute disk_state_attr =
	__ATTR(state, 0444, disk_state_show, NULL);
static struct kobj_attribute disk_blocksize_attr =
	__ATTR(blocksize, 0444, disk_blocksize_show, NULL);
static struct kobj_attribute disk_max_hw_kb_attr =
	__ATTR(max_hw_kb, 0444, disk_max_hw_kb_show, NULL);
static struct kobj_attribute disk_cluster_mode_attr =
	__ATTR(cluster_mode, 0644, disk_cluster_mode_show,
	       disk_cluster_mode_store);

static const struct attribute *disk_dev_attrs[] = {
	&disk_scsi_device_attr.attr,
	&disk_state_attr.attr,
	&disk_blocksize_attr.attr,
	&disk_max_hw_kb_attr.attr,
	&disk_cluster_mode_attr.attr,
	NULL,
};

/* add_device takes no parameters: everything comes from the device */
static const char *const disk_params[] = { NULL };

static struct scst_dev_type disk_devtype = {
	.name = "dev_disk",
	.type = SCST_TYPE_DISK,
	/*
	 * ->exec() may wait for a request tag: on the device's threads, but
	 * only when the queue has none free (disk_exec())
	 */
	.exec_may_sleep = true,
	.exec_inline_first = true,
	.threads_num = DISK_THREADS_NUM,
	.parse = disk_parse,
	.exec = disk_exec,
	.add_device = disk_add_device,
	.del_device = disk_del_device,
	.attach = disk_attach,
	.task_mgmt_fn = disk_task_mgmt_fn,
	.add_device_parameters = disk_params,
	.dev_attrs = disk_dev_attrs,
	.owner = THIS_MODULE,
};

static int __init disk_init(void)
{
	return scst_register_dev_driver(&disk_devtype);
}

static void __exit disk_exit(void)
{
	struct disk_dev *ddev, *tmp;
	LIST_HEAD(devs);

	mutex_lock(&disk_mutex);
	disk_exiting = true;
	list_splice_init(&disk_dev_list, &devs);
	mutex_unlock(&disk_mutex);
	list_for_each_entry_safe(ddev, tmp, &devs, list_entry) {
		list_del(&ddev->list_entry);
		disk_destroy(ddev);
	}
	scst_unregister_dev_driver(&disk_devtype);
}

module_init(disk_init);
module_exit(disk_exit);

MODULE_DESCRIPTION("SCST-compatible SCSI pass-through disk handler dev_disk");
MODULE_LICENSE("GPL");
