// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdisk_main.c - scst_vdisk.ko: the virtual disk device handlers
 * vdisk_blockio, vdisk_fileio and vdisk_nullio. Module entry points,
 * handler registration, the add_device parameters, the device attributes
 * under devices/<name>/ and the identities reported in INQUIRY data.
 *
 *   echo "add_device disk1 filename=/dev/sdb; blocksize=4096" \
 *	>/sys/kernel/scst_tgt/handlers/vdisk_blockio/mgmt
 *   echo "add_device null1 size_mb=1024" \
 *	>/sys/kernel/scst_tgt/handlers/vdisk_nullio/mgmt
 *   echo "del_device disk1" >/sys/kernel/scst_tgt/handlers/vdisk_blockio/mgmt
 *
 * Attributes read as SCST's: the value, then a "[key]" line when it
 * differs from the default, which is what scstadmin -write_config saves.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crc32.h>
#include <linux/kobject.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/error-injection.h>

#include "vdisk.h"

/* Worker threads per vdisk_fileio device (SCST's default) */
#define VDISK_FILEIO_THREADS	8

/* All vdisk devices, of the three handlers; protected by vdisk_mutex. */
static LIST_HEAD(vdisk_dev_list);
static DEFINE_MUTEX(vdisk_mutex);
/* vdisk_exit() has taken the list: no device is registered any more */
static bool vdisk_exiting;

/* ---------------------------------------------------------------------- */
/* Identities                                                             */
/* ---------------------------------------------------------------------- */

/*
 * As SCST: a 64-bit number from the setup ID and the CRC32C of the device
 * name (with its terminating NUL), so that a device keeps its identity
 * across restarts and a renamed copy gets another; the identity follows
 * from it by SCST's rules (vdisk_identity_defaults()).
 */
static void vdisk_set_identity(struct vdisk_dev *vdev)
{
	u32 crc = __crc32c_le(0, (const u8 *)vdev->name,
			      strlen(vdev->name) + 1);

	/*
	 * setup_id in the upper half: two target systems with devices of the
	 * same name export different serial numbers and designators
	 */
	vdisk_identity_defaults(&vdev->ident, vdev->name,
				(u64)scst_get_setup_id() << 32 | crc,
				vdev->be->vendor);
}

/* ---------------------------------------------------------------------- */
/* add_device parameters                                                  */
/* ---------------------------------------------------------------------- */

/*
 * SCST closes a blockio device while its ALUA state is standby or
 * unavailable when bind_alua_state is 1; we keep it open in every state:
 * say so once per setting instead of ignoring it silently.
 */
static void vdisk_note_bind_alua_state(const struct vdisk_dev *vdev)
{
	pr_info("%s: bind_alua_state=1 recorded: the device stays open in every ALUA state (write 0 to active to release it on a passive node)\n",
		vdev->name);
}

static int vdisk_del_device(const struct vdisk_backend *be, const char *name);

/*
 * cluster_mode on or off (Documentation/ha.md), under cfg_mutex:
 * t10_dev_id, the device's name in the cluster, stays as it is while it
 * is on (vdisk_ident_store()).
 */
static int vdisk_cluster_mode_set(struct scst_device *dev, bool on)
{
	struct vdisk_dev *vdev = dev->dh_priv;
	char id[VDISK_T10_DEV_ID_LEN + 1];
	bool id_set;
	int ret;

	mutex_lock(&vdev->cfg_mutex);
	spin_lock(&vdev->ident_lock);
	memcpy(id, vdev->ident.t10_dev_id, sizeof(id));
	id_set = vdev->ident.set & (1u << VDISK_ID_T10_DEV_ID);
	spin_unlock(&vdev->ident_lock);
	if (on && !id_set) {
		pr_err("%s: cluster_mode: set t10_dev_id first, the same on every node\n",
		       dev->name);
		ret = -EINVAL;
	} else {
		ret = scst_pr_cluster_set(dev, on, id);
	}
	mutex_unlock(&vdev->cfg_mutex);
	return ret;
}

/**
 * vdisk_parse_params() - apply the add_device parameters to a new device
 * @vdev: the device
 * @kind: its handler
 * @line: the parsed mgmt line; its keys are known to the handler
 *
 * vdisk_params_parse() checks them all first: a bad one logs one line
 * naming it, and leaves @vdev as it was.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
static int vdisk_parse_params(struct vdisk_dev *vdev, enum vdisk_kind kind,
			      const struct scst_mgmt_line *line)
{
	struct vdisk_params *p;
	int ret;

	/* not on the stack: the mgmt write path is already deep */
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	ret = vdisk_params_parse(vdev->name, kind, line, p);
	if (ret) {
		pr_err("%s\n", p->err);
		goto free_params;
	}
	if (p->filename) {
		vdev->filename = kstrdup(p->filename, GFP_KERNEL);
		if (!vdev->filename) {
			ret = -ENOMEM;
			goto free_params;
		}
	}
	vdev->backing_size = p->size;
	vdev->size_set = p->size_set;
	vdev->block_size = p->block_size;
	vdev->read_only = p->read_only;
	vdev->nv_cache = p->nv_cache;
	vdev->def_write_through = p->write_through;
	vdev->write_through = p->write_through;
	vdev->o_direct = p->o_direct;
	vdev->async = p->async;
	vdev->thin_provisioned = p->thin_provisioned;
	vdev->thin_set = p->thin_set;
	vdev->rotational = p->rotational;
	vdev->removable = p->removable;
	vdev->active = p->active;
	vdev->bind_alua_state = p->bind_alua_state;
	vdev->numa_node_id = p->numa_node_id;
	vdev->lb_per_pb_exp = p->lb_per_pb_exp;
	vdev->opt_trans_len = p->opt_trans_len;
	vdev->opt_trans_len_set = p->opt_trans_len_set;
	vdev->read_zero = p->read_zero;
	vdev->dummy = p->dummy;
	vdev->cluster_mode_asked = p->cluster_mode;
	vdev->ident = p->ident;
	/* a node this host has: what SCST's numa_node_id names */
	if (vdev->numa_node_id >= 0 &&
	    (vdev->numa_node_id >= MAX_NUMNODES ||
	     !node_possible(vdev->numa_node_id))) {
		pr_err("%s: numa_node_id=%d: no such NUMA node\n", vdev->name,
		       vdev->numa_node_id);
		ret = -EINVAL;
	} else if (vdev->numa_node_id >= 0) {
		pr_info("%s: numa_node_id=%d recorded: the commands run on the core's threads (scst-affinity places them)\n",
			vdev->name, vdev->numa_node_id);
	}
	if (!ret && vdev->bind_alua_state)
		vdisk_note_bind_alua_state(vdev);
free_params:
	kfree(p);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Geometry and size                                                      */
/* ---------------------------------------------------------------------- */

/* The exported size: the backing store's, cut to whole blocks. */
static int vdisk_set_geometry(struct vdisk_dev *vdev)
{
	char err[VDISK_PARAMS_ERR_LEN];
	u64 size;

	if (vdisk_geometry(vdev->name, vdev->filename ?: "size",
			   vdev->backing_size, vdev->block_size,
			   vdev->size_set, &size, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	vdev->block_shift = ilog2(vdev->block_size);
	vdev->size = size;
	return 0;
}

/*
 * thin_provisioned defaults to what the backing store can do for blockio
 * and fileio (as SCST); asking for it where it cannot be done fails.
 */
static int vdisk_set_thin(struct vdisk_dev *vdev)
{
	bool capable = vdev->be->thin_capable(vdev);

	vdev->thin_default = vdev->be->has_filename && capable;
	if (!vdev->thin_set) {
		vdev->thin_provisioned = vdev->thin_default;
	} else if (vdev->thin_provisioned && !capable) {
		pr_err("%s: thin_provisioned=1: %s cannot deallocate blocks\n",
		       vdev->name, vdev->filename);
		return -EINVAL;
	}
	return 0;
}

/**
 * vdisk_resync_size() - re-read the size of the backing store
 * @vdev: the device
 *
 * Return: 1 when the capacity changed, 0 when it did not, or a negative
 * errno.
 */
static int vdisk_resync_size(struct vdisk_dev *vdev)
{
	loff_t backing, size;
	int ret;

	mutex_lock(&vdev->cfg_mutex);
	if (!vdev->active) {
		pr_err("%s: resync_size: the device is not active (active=0)\n",
		       vdev->name);
		ret = -EINVAL;
		goto unlock;
	}
	ret = vdev->be->get_size(vdev, &backing);
	if (ret)
		goto unlock;
	size = round_down(backing, (loff_t)vdev->block_size);
	if (!size) {
		pr_err("%s: %s is now smaller than one block; size kept\n",
		       vdev->name, vdev->filename);
		ret = -EINVAL;
		goto unlock;
	}
	vdev->backing_size = backing;
	vdev->size_set = false;
	if (size != vdev->size) {
		pr_info("%s: size changed from %lld to %lld bytes\n",
			vdev->name, vdev->size, size);
		WRITE_ONCE(vdev->size, size);
		WRITE_ONCE(vdev->dev->nblocks, size >> vdev->block_shift);
		ret = 1;
	}
unlock:
	mutex_unlock(&vdev->cfg_mutex);
	return ret;
}

/* opt_trans_len is whole blocks of the block size the back end picked */
static int vdisk_check_opt_trans_len(struct vdisk_dev *vdev)
{
	if (!(vdev->opt_trans_len & (vdev->block_size - 1)))
		return 0;
	pr_err("%s: opt_trans_len=%u: not a multiple of the block size %u\n",
	       vdev->name, vdev->opt_trans_len, vdev->block_size);
	return -EINVAL;
}

/*
 * Open the backing store of a new device, or of one made active again
 * (then with its block size fixed), and take its geometry. Nothing is
 * left open on failure.
 */
static int vdisk_open_backing(struct vdisk_dev *vdev)
{
	int ret;

	ret = vdev->be->open(vdev);
	if (ret)
		return ret;
	ret = vdisk_set_geometry(vdev) ?: vdisk_set_thin(vdev) ?:
	      vdisk_check_opt_trans_len(vdev);
	if (ret)
		vdev->be->close(vdev);
	return ret;
}

/* A device made with active=0: SCST's geometry until it is opened */
static int vdisk_set_inactive_geometry(struct vdisk_dev *vdev)
{
	if (!vdev->block_size)
		vdev->block_size = VDISK_DEF_BLOCK_SIZE;
	vdev->block_shift = ilog2(vdev->block_size);
	vdev->phys_bs = VDISK_DEF_PHYS_BS;
	vdev->size = 0;
	vdev->thin_default = false;
	if (!vdev->thin_set)
		vdev->thin_provisioned = false;
	return vdisk_check_opt_trans_len(vdev);
}

static void vdisk_media_release(struct percpu_ref *ref)
{
	struct vdisk_dev *vdev = container_of(ref, struct vdisk_dev,
					      media_ref);

	complete(&vdev->media_idle);
}

/*
 * How long a write of active=0 waits, holding the device's cfg_mutex, for
 * the commands still in the backing store: one stuck there (an NFS server
 * gone, a suspended dm table) must not hold the writer, and every other
 * attribute write of the device, for ever.
 */
static unsigned int close_timeout = 30;
module_param(close_timeout, uint, 0644);
MODULE_PARM_DESC(close_timeout,
		 "seconds a write of active=0 waits for the commands in the backing store before it returns EBUSY (default 30; the store closes once they end)");

/*
 * Stop commands from reaching the backing store: from now on they get NOT
 * READY, MEDIUM NOT PRESENT (vdisk_exec()); those that reached it hold
 * media_ref until they are freed.
 */
static void vdisk_media_stop(struct vdisk_dev *vdev)
{
	WRITE_ONCE(vdev->active, false);
	reinit_completion(&vdev->media_idle);
	percpu_ref_kill(&vdev->media_ref);
}

/*
 * Close the backing store of a stopped device once the commands in it are
 * gone, waiting close_timeout seconds at most (killable). Called with
 * cfg_mutex held. Return: 0 when it is closed, -EBUSY when commands still
 * hold it (@media_closing stays set), or -ERESTARTSYS.
 */
static int vdisk_media_close(struct vdisk_dev *vdev)
{
	unsigned long timeout = (unsigned long)READ_ONCE(close_timeout) * HZ;
	long left;

	left = wait_for_completion_killable_timeout(&vdev->media_idle, timeout);
	if (left <= 0) {
		pr_warn("%s: active=0: commands still in %s after %u s; it is closed once they end (write active again to retry)\n",
			vdev->name, vdev->filename, READ_ONCE(close_timeout));
		return left < 0 ? (int)left : -EBUSY;
	}
	vdev->be->close(vdev);
	vdev->media_closing = false;
	pr_info("%s: inactive: %s closed\n", vdev->name, vdev->filename);
	return 0;
}

/**
 * vdisk_set_active() - the active attribute: open or close the backing
 *	store of a live device
 * @vdev: a blockio or fileio device
 * @active: the new state
 *
 * SCST's deferred open for active/passive pairs (DRBD and the like): with
 * active=0 the backing store is closed and not opened again until 1 is
 * written, which opens the file or device named by filename then (it may
 * have been changed meanwhile). The capacity is the new backing store's;
 * every nexus gets CAPACITY DATA HAS CHANGED when it differs (SBC-3
 * 4.10, SPC-4 6.6.2), and INQUIRY DATA HAS CHANGED when thin provisioning
 * (VPD B0h, B2h) does.
 *
 * Return: 0 or a negative errno (the device stays inactive).
 */
static int vdisk_set_active(struct vdisk_dev *vdev, bool active)
{
	struct scst_device *dev = vdev->dev;
	bool size_changed, thin_changed;
	loff_t old_size;
	bool old_thin;
	int ret = 0;

	mutex_lock(&vdev->cfg_mutex);
	/* an earlier active=0 whose commands had not ended: finish it first */
	if (vdev->media_closing) {
		ret = vdisk_media_close(vdev);
		if (ret)
			goto unlock;
	}
	if (active == vdev->active)
		goto unlock;
	if (!active) {
		vdisk_media_stop(vdev);
		vdev->media_closing = true;
		ret = vdisk_media_close(vdev);
		goto unlock;
	}
	old_size = vdev->size;
	old_thin = vdev->thin_provisioned;
	/* the block size stays as created: hosts address by it */
	vdev->size_set = false;
	ret = vdisk_open_backing(vdev);
	if (ret)
		goto unlock;
	WRITE_ONCE(dev->nblocks, vdev->size >> vdev->block_shift);
	/* the store opened may be another file, or a device it was not */
	WRITE_ONCE(dev->dma_align_mask, vdev->dma_align_mask);
	size_changed = vdev->size != old_size;
	thin_changed = vdev->thin_provisioned != old_thin;
	percpu_ref_reinit(&vdev->media_ref);
	WRITE_ONCE(vdev->active, true);
	pr_info("%s: active: %s, %lld MiB\n", vdev->name, vdev->filename,
		vdev->size >> 20);
	mutex_unlock(&vdev->cfg_mutex);
	if (size_changed)
		scst_dev_capacity_changed(dev);
	if (thin_changed)
		scst_dev_inquiry_data_changed(dev);
	return 0;
unlock:
	mutex_unlock(&vdev->cfg_mutex);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Devices                                                                */
/* ---------------------------------------------------------------------- */

/* ->attach(): the core registers the device; give it the geometry */
static int vdisk_attach(struct scst_device *dev)
{
	struct vdisk_dev *vdev = dev->dh_priv;

	vdev->dev = dev;
	dev->block_size = vdev->block_size;
	dev->block_shift = vdev->block_shift;
	dev->nblocks = vdev->size >> vdev->block_shift;
	dev->read_only = vdev->read_only;
	dev->dma_align_mask = vdev->dma_align_mask;
	/* the back ends reorder as they like: SCST's default */
	dev->queue_alg = SCST_QUEUE_ALG_UNRESTRICTED;
	/* one task set per I_T nexus: SCST's vdisk default (DEF_TST) */
	dev->tst = SCST_TST_PER_NEXUS;
	dev->tst_default = SCST_TST_PER_NEXUS;
	return 0;
}

static noinline struct vdisk_dev *vdisk_alloc(const struct vdisk_backend *be,
					      const char *name)
{
	struct vdisk_dev *vdev;

	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	if (!vdev)
		return NULL;
	vdev->be = be;
	strscpy(vdev->name, name, sizeof(vdev->name));
	mutex_init(&vdev->cfg_mutex);
	spin_lock_init(&vdev->ident_lock);
	mutex_init(&vdev->caw_mutex);
	atomic_set(&vdev->writes_inflight, 0);
	init_waitqueue_head(&vdev->caw_wq);
	init_completion(&vdev->media_idle);
	/* killed and brought back by each active=0 and 1 */
	if (percpu_ref_init(&vdev->media_ref, vdisk_media_release,
			    PERCPU_REF_ALLOW_REINIT, GFP_KERNEL)) {
		kfree(vdev);
		return NULL;
	}
	return vdev;
}

ALLOW_ERROR_INJECTION(vdisk_alloc, NULL);

static void vdisk_free(struct vdisk_dev *vdev)
{
	percpu_ref_exit(&vdev->media_ref);
	kfree(vdev->filename);
	kfree(vdev);
}

/**
 * vdisk_add_device() - handlers/<h>/mgmt "add_device NAME k=v;..."
 * @dt: the handler
 * @be: its back end
 * @kind: which of the three handlers
 * @name: the device name
 * @line: the parsed mgmt line
 *
 * Nothing is left behind on failure: the backing store is closed again and
 * the device not registered.
 *
 * Return: 0 or a negative errno, after logging one line.
 */
static int vdisk_add_device(struct scst_dev_type *dt,
			    const struct vdisk_backend *be,
			    enum vdisk_kind kind, const char *name,
			    const struct scst_mgmt_line *line)
{
	struct scst_device *dev;
	struct vdisk_dev *vdev;
	int ret;

	if (strlen(name) >= SCST_MAX_NAME) {
		pr_err("device name %s is longer than %d characters\n", name,
		       SCST_MAX_NAME - 1);
		return -EINVAL;
	}
	/*
	 * A name in use is EEXIST before the backing store is opened (which
	 * would be EBUSY for the same block device); the core checks again.
	 */
	mutex_lock(&vdisk_mutex);
	list_for_each_entry(vdev, &vdisk_dev_list, list_entry) {
		if (strcmp(vdev->name, name) == 0) {
			mutex_unlock(&vdisk_mutex);
			pr_err("device %s already exists\n", name);
			return -EEXIST;
		}
	}
	mutex_unlock(&vdisk_mutex);
	vdev = vdisk_alloc(be, name);
	if (!vdev)
		return -ENOMEM;
	ret = vdisk_parse_params(vdev, kind, line);
	if (ret)
		goto free_vdev;
	if (vdev->active) {
		ret = vdisk_open_backing(vdev);
		if (ret)
			goto free_vdev;
	} else {
		ret = vdisk_set_inactive_geometry(vdev);
		if (ret)
			goto free_vdev;
		/* no command may reach a backing store until active=1 */
		vdisk_media_stop(vdev);
		wait_for_completion(&vdev->media_idle);	/* none was there */
	}
	vdisk_set_identity(vdev);

	mutex_lock(&vdisk_mutex);
	if (vdisk_exiting) {
		ret = -ENODEV;
		goto unlock;
	}
	dev = scst_register_virtual_device(dt, name, vdev);
	if (IS_ERR(dev)) {
		ret = PTR_ERR(dev);
		goto unlock;
	}
	list_add_tail(&vdev->list_entry, &vdisk_dev_list);
	/* before unlocking: a del_device may free @vdev */
	pr_info("%s: %s device, %s%s%s%lld MiB, %llu blocks of %u bytes%s%s%s\n",
		name, be->name, vdev->filename ?: "", vdev->filename ? ", " : "",
		vdev->active ? "" : "inactive (active=0), ",
		vdev->size >> 20, vdev->size >> vdev->block_shift,
		vdev->block_size, vdev->read_only ? ", read-only" : "",
		vdev->thin_provisioned ? ", thin provisioned" : "",
		vdev->nv_cache ? ", nv_cache" :
		vdev->write_through ? ", write through" : "");
	mutex_unlock(&vdisk_mutex);
	/* not under vdisk_mutex: joining the cluster waits for it */
	if (vdev->cluster_mode_asked) {
		ret = vdisk_cluster_mode_set(dev, true);
		if (ret) {
			vdisk_del_device(be, name);
			return ret;
		}
	}
	return 0;

unlock:
	mutex_unlock(&vdisk_mutex);
	if (vdev->active)
		be->close(vdev);
free_vdev:
	vdisk_free(vdev);
	return ret;
}

/* Unregister (waits for the device's commands), then close and free. */
static void vdisk_destroy(struct vdisk_dev *vdev)
{
	scst_unregister_virtual_device(vdev->dev);
	/* no command is left: a close that active=0 left pending ends here */
	if (vdev->active || vdev->media_closing)
		vdev->be->close(vdev);
	vdisk_free(vdev);
}

static int vdisk_del_device(const struct vdisk_backend *be, const char *name)
{
	struct vdisk_dev *vdev;

	mutex_lock(&vdisk_mutex);
	list_for_each_entry(vdev, &vdisk_dev_list, list_entry) {
		if (vdev->be == be && strcmp(vdev->name, name) == 0) {
			list_del(&vdev->list_entry);
			mutex_unlock(&vdisk_mutex);
			vdisk_destroy(vdev);
			return 0;
		}
	}
	mutex_unlock(&vdisk_mutex);
	pr_err("%s: del_device %s: no such device\n", be->name, name);
	return -ENOENT;
}

static struct scst_dev_type vdisk_blockio_devtype;
static struct scst_dev_type vdisk_fileio_devtype;
static struct scst_dev_type vdisk_nullio_devtype;

static int vdisk_blockio_add(const char *name,
			     const struct scst_mgmt_line *line)
{
	return vdisk_add_device(&vdisk_blockio_devtype, &vdisk_blockio_backend,
				VDISK_KIND_BLOCKIO, name, line);
}

static int vdisk_fileio_add(const char *name, const struct scst_mgmt_line *line)
{
	return vdisk_add_device(&vdisk_fileio_devtype, &vdisk_fileio_backend,
				VDISK_KIND_FILEIO, name, line);
}

static int vdisk_nullio_add(const char *name, const struct scst_mgmt_line *line)
{
	return vdisk_add_device(&vdisk_nullio_devtype, &vdisk_nullio_backend,
				VDISK_KIND_NULLIO, name, line);
}

static int vdisk_blockio_del(const char *name)
{
	return vdisk_del_device(&vdisk_blockio_backend, name);
}

static int vdisk_fileio_del(const char *name)
{
	return vdisk_del_device(&vdisk_fileio_backend, name);
}

static int vdisk_nullio_del(const char *name)
{
	return vdisk_del_device(&vdisk_nullio_backend, name);
}

/* ---------------------------------------------------------------------- */
/* Device attributes (devices/<name>/)                                    */
/* ---------------------------------------------------------------------- */

static struct vdisk_dev *vdisk_kobj_vdev(struct kobject *kobj)
{
	return scst_kobj_to_dev(kobj)->dh_priv;
}

/* The "[key]" line of a value that scstadmin -write_config must save */
static ssize_t vdisk_emit_key(char *buf, ssize_t n, bool key)
{
	if (key)
		n += sysfs_emit_at(buf, n, "%s", SCST_SYSFS_KEY_MARK);
	return n;
}

static ssize_t vdisk_emit_str(char *buf, const char *val, bool key)
{
	return vdisk_emit_key(buf, sysfs_emit(buf, "%s\n", val), key);
}

/* A 0/1 attribute: a key when it is not the default */
static ssize_t vdisk_emit_bool(char *buf, bool val, bool def)
{
	return vdisk_emit_key(buf, sysfs_emit(buf, "%d\n", val), val != def);
}

static ssize_t vdisk_read_only_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf, vdisk_kobj_vdev(kobj)->read_only, false);
}

static ssize_t vdisk_nv_cache_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf, vdisk_kobj_vdev(kobj)->nv_cache, false);
}

/* The current state: MODE SELECT may have changed it (caching page WCE) */
static ssize_t vdisk_write_through_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	struct vdisk_dev *vdev = vdisk_kobj_vdev(kobj);

	return vdisk_emit_bool(buf, READ_ONCE(vdev->write_through), false);
}

static ssize_t vdisk_o_direct_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf, vdisk_kobj_vdev(kobj)->o_direct, false);
}

static ssize_t vdisk_async_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf, vdisk_kobj_vdev(kobj)->async, false);
}

static ssize_t vdisk_rotational_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf, vdisk_kobj_vdev(kobj)->rotational, true);
}

static ssize_t vdisk_removable_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf, vdisk_kobj_vdev(kobj)->removable, false);
}

/* A key only when given explicitly and unlike what the device offers. */
static ssize_t vdisk_thin_provisioned_show(struct kobject *kobj,
					   struct kobj_attribute *attr,
					   char *buf)
{
	struct vdisk_dev *vdev = vdisk_kobj_vdev(kobj);
	ssize_t n = sysfs_emit(buf, "%d\n", vdev->thin_provisioned);

	return vdisk_emit_key(buf, n, vdev->thin_set &&
			      vdev->thin_provisioned != vdev->thin_default);
}

static ssize_t vdisk_filename_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct vdisk_dev *vdev = vdisk_kobj_vdev(kobj);
	ssize_t n;

	/* filename may be written meanwhile */
	mutex_lock(&vdev->cfg_mutex);
	n = vdisk_emit_str(buf, vdev->filename, true);
	mutex_unlock(&vdev->cfg_mutex);
	return n;
}

static ssize_t vdisk_blocksize_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	u32 bs = vdisk_kobj_vdev(kobj)->block_size;

	return vdisk_emit_key(buf, sysfs_emit(buf, "%u\n", bs),
			      bs != VDISK_DEF_BLOCK_SIZE);
}

static ssize_t vdisk_size_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct vdisk_dev *vdev = vdisk_kobj_vdev(kobj);
	ssize_t n = sysfs_emit(buf, "%lld\n", READ_ONCE(vdev->size));

	return vdisk_emit_key(buf, n, vdev->size_set);
}

static ssize_t vdisk_size_mb_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	struct vdisk_dev *vdev = vdisk_kobj_vdev(kobj);

	/*
	 * Never "[key]": size (bytes) carries the same setting, and a saved
	 * configuration must not give both (as SCST's scstadmin saves size)
	 */
	return sysfs_emit(buf, "%lld\n", READ_ONCE(vdev->size) >> 20);
}

/*
 * The identity attributes (enum vdisk_id_attr), all writable on a live
 * device as in SCST: a new value is reported from the next INQUIRY on,
 * and every nexus gets INQUIRY DATA HAS CHANGED (SPC-4 6.6.1). Nothing is
 * derived again from a new value: t10_dev_id does not change usn, as in
 * SCST, so that what a host keyed on changes only where it was written.
 */
static ssize_t vdisk_ident_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct vdisk_dev *vdev = vdisk_kobj_vdev(kobj);
	int a = vdisk_id_attr_find(attr->attr.name);
	bool key;
	ssize_t n;

	if (a < 0)
		return a;
	spin_lock(&vdev->ident_lock);
	/* PAGE_SIZE holds the longest value, a SCSI name of 251 bytes */
	n = vdisk_identity_show(&vdev->ident, a, buf, PAGE_SIZE - 8);
	key = vdev->ident.set & 1u << a;
	spin_unlock(&vdev->ident_lock);
	if (n < 0)
		return n;
	n += sysfs_emit_at(buf, n, "\n");
	return vdisk_emit_key(buf, n, key);
}

static ssize_t vdisk_ident_store(struct kobject *kobj,
				 struct kobj_attribute *attr, const char *buf,
				 size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	struct vdisk_dev *vdev = dev->dh_priv;
	int a = vdisk_id_attr_find(attr->attr.name);
	struct vdisk_identity *id;
	char why[64], *val;
	int ret;

	if (a < 0)
		return a;
	/*
	 * one line; the newline echo adds is not part of the value. All
	 * count bytes and a NUL: a NUL inside the write only cuts the value
	 * (kstrndup() would stop there, and val[count - 1] be past it)
	 */
	val = kmemdup_nul(buf, count, GFP_KERNEL);
	id = kmalloc(sizeof(*id), GFP_KERNEL);
	if (!val || !id) {
		ret = -ENOMEM;
		goto free;
	}
	if (count && val[count - 1] == '\n')
		val[count - 1] = '\0';
	mutex_lock(&vdev->cfg_mutex);
	*id = vdev->ident;
	if (a == VDISK_ID_T10_DEV_ID && scst_pr_cluster_on(dev)) {
		ret = -EBUSY;
		strscpy(why, "fixed while cluster_mode is on", sizeof(why));
	} else {
		ret = vdisk_identity_set(id, a, val, why, sizeof(why));
	}
	if (!ret) {
		spin_lock(&vdev->ident_lock);
		vdev->ident = *id;
		spin_unlock(&vdev->ident_lock);
	}
	mutex_unlock(&vdev->cfg_mutex);
	if (ret) {
		pr_err("%s: %s=%.*s: %s\n", dev->name, attr->attr.name,
		       (int)min_t(size_t, count, 64), val, why);
		goto free;
	}
	scst_dev_inquiry_data_changed(dev);
	ret = count;
free:
	kfree(id);
	kfree(val);
	return ret;
}

/*
 * Writing 1 re-reads the size of the backing store (after the file or the
 * block device was resized); when it changed, the initiators get CAPACITY
 * DATA HAS CHANGED.
 */
static ssize_t vdisk_resync_size_store(struct kobject *kobj,
				       struct kobj_attribute *attr,
				       const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	bool val;
	int ret;

	ret = kstrtobool(buf, &val);
	if (ret || !val) {
		pr_err("%s: resync_size: write 1 to re-read the size\n",
		       dev->name);
		return -EINVAL;
	}
	ret = vdisk_resync_size(dev->dh_priv);
	if (ret < 0)
		return ret;
	if (ret)
		scst_dev_capacity_changed(dev);
	return count;
}

/*
 * A written value: all @count bytes and a NUL (a NUL inside only cuts it),
 * without the newline echo adds. NULL without memory.
 */
static char *vdisk_attr_val(const char *buf, size_t count)
{
	char *val = kmemdup_nul(buf, count, GFP_KERNEL);

	if (val && count && val[count - 1] == '\n')
		val[count - 1] = '\0';
	return val;
}

/* A 0/1 value written to @attr, or -EINVAL after one log line */
static int vdisk_attr_bool(struct scst_device *dev, struct kobj_attribute *attr,
			   const char *buf, size_t count, bool *val)
{
	char *v = vdisk_attr_val(buf, count);
	int ret;

	if (!v)
		return -ENOMEM;
	ret = scst_mgmt_parse_bool(v, val);
	if (ret)
		pr_err("%s: %s=%.*s: the value must be 0 or 1\n", dev->name,
		       attr->attr.name, 32, v);
	kfree(v);
	return ret;
}

static ssize_t vdisk_active_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf, READ_ONCE(vdisk_kobj_vdev(kobj)->active),
			       true);
}

static ssize_t vdisk_active_store(struct kobject *kobj,
				  struct kobj_attribute *attr, const char *buf,
				  size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	bool val;
	int ret;

	ret = vdisk_attr_bool(dev, attr, buf, count, &val) ?:
	      vdisk_set_active(dev->dh_priv, val);
	return ret ?: count;
}

/*
 * Recorded and shown, as SCST's: with 1 SCST closes a blockio device's
 * backing store while its ALUA state is standby or unavailable; here it
 * stays open (vdisk.md), and active=0 is the way to release it.
 */
static ssize_t vdisk_bind_alua_state_show(struct kobject *kobj,
					  struct kobj_attribute *attr,
					  char *buf)
{
	return vdisk_emit_bool(buf,
			       READ_ONCE(vdisk_kobj_vdev(kobj)->bind_alua_state),
			       true);
}

static ssize_t vdisk_bind_alua_state_store(struct kobject *kobj,
					   struct kobj_attribute *attr,
					   const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	struct vdisk_dev *vdev = dev->dh_priv;
	bool val;
	int ret;

	ret = vdisk_attr_bool(dev, attr, buf, count, &val);
	if (ret)
		return ret;
	WRITE_ONCE(vdev->bind_alua_state, val);
	if (val)
		vdisk_note_bind_alua_state(vdev);
	return count;
}

static ssize_t vdisk_numa_node_id_show(struct kobject *kobj,
				       struct kobj_attribute *attr, char *buf)
{
	int node = vdisk_kobj_vdev(kobj)->numa_node_id;

	return vdisk_emit_key(buf, sysfs_emit(buf, "%d\n", node), node != -1);
}

/*
 * READ CAPACITY(16)'s LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT (and the
 * Block Limits' OPTIMAL TRANSFER LENGTH GRANULARITY): 1 reports the
 * physical block, 0 one logical block per physical block. A change is
 * CAPACITY DATA HAS CHANGED for every nexus (SBC-3 4.10: the READ
 * CAPACITY(16) data changed).
 */
static ssize_t vdisk_lb_per_pb_exp_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf,
			       READ_ONCE(vdisk_kobj_vdev(kobj)->lb_per_pb_exp),
			       true);
}

static ssize_t vdisk_lb_per_pb_exp_store(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	struct vdisk_dev *vdev = dev->dh_priv;
	bool val, old;
	int ret;

	ret = vdisk_attr_bool(dev, attr, buf, count, &val);
	if (ret)
		return ret;
	mutex_lock(&vdev->cfg_mutex);
	old = vdev->lb_per_pb_exp;
	WRITE_ONCE(vdev->lb_per_pb_exp, val);
	mutex_unlock(&vdev->cfg_mutex);
	if (old != val)
		scst_dev_capacity_changed(dev);
	return count;
}

/*
 * OPTIMAL TRANSFER LENGTH of VPD page B0h in bytes (SCST's unit), whole
 * blocks; a change is INQUIRY DATA HAS CHANGED (SPC-4 6.6.2: VPD data).
 */
static ssize_t vdisk_opt_trans_len_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	struct vdisk_dev *vdev = vdisk_kobj_vdev(kobj);
	ssize_t n = sysfs_emit(buf, "%u\n", READ_ONCE(vdev->opt_trans_len));

	return vdisk_emit_key(buf, n, READ_ONCE(vdev->opt_trans_len_set));
}

static ssize_t vdisk_opt_trans_len_store(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	struct vdisk_dev *vdev = dev->dh_priv;
	char *v = vdisk_attr_val(buf, count);
	const char *why;
	bool changed;
	u32 val;
	int ret;

	if (!v)
		return -ENOMEM;
	ret = vdisk_parse_opt_trans_len(v, vdev->block_size, &val, &why);
	if (ret) {
		pr_err("%s: opt_trans_len=%.*s: %s\n", dev->name, 32, v, why);
		kfree(v);
		return ret;
	}
	kfree(v);
	mutex_lock(&vdev->cfg_mutex);
	changed = val != vdev->opt_trans_len;
	WRITE_ONCE(vdev->opt_trans_len, val);
	WRITE_ONCE(vdev->opt_trans_len_set, true);
	mutex_unlock(&vdev->cfg_mutex);
	if (changed)
		scst_dev_inquiry_data_changed(dev);
	return count;
}

/* nullio: reads return zeros whatever read_zero says (vdisk_nullio.c) */
static ssize_t vdisk_read_zero_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf,
			       READ_ONCE(vdisk_kobj_vdev(kobj)->read_zero),
			       false);
}

static ssize_t vdisk_read_zero_store(struct kobject *kobj,
				     struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	bool val;
	int ret;

	ret = vdisk_attr_bool(dev, attr, buf, count, &val);
	if (ret)
		return ret;
	WRITE_ONCE(((struct vdisk_dev *)dev->dh_priv)->read_zero, val);
	return count;
}

static ssize_t vdisk_dummy_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf, vdisk_kobj_vdev(kobj)->dummy, false);
}

/* cluster_mode (Documentation/ha.md): PR state shared by the cluster */
static ssize_t vdisk_cluster_mode_show(struct kobject *kobj,
				       struct kobj_attribute *attr, char *buf)
{
	return vdisk_emit_bool(buf, scst_pr_cluster_on(scst_kobj_to_dev(kobj)),
			       false);
}

static ssize_t vdisk_cluster_mode_store(struct kobject *kobj,
					struct kobj_attribute *attr,
					const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	char *v = vdisk_attr_val(buf, count);
	bool on;
	int ret;

	if (!v)
		return -ENOMEM;
	ret = kstrtobool(v, &on);
	if (ret)
		pr_err("%s: cluster_mode=%.*s: must be 0 or 1\n", dev->name, 32,
		       v);
	kfree(v);
	if (!ret)
		ret = vdisk_cluster_mode_set(dev, on);
	return ret ?: count;
}

/*
 * As SCST: the backing store is named anew only while the device is
 * inactive (active=0); writing active=1 then opens the new one.
 */
static ssize_t vdisk_filename_store(struct kobject *kobj,
				    struct kobj_attribute *attr,
				    const char *buf, size_t count)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	struct vdisk_dev *vdev = dev->dh_priv;
	char *v = vdisk_attr_val(buf, count), *old;
	const char *why;
	int ret = -EINVAL;

	if (!v)
		return -ENOMEM;
	if (vdisk_check_filename(v, &why)) {
		pr_err("%s: filename=%.*s: %s\n", dev->name, 64, v, why);
		goto free;
	}
	mutex_lock(&vdev->cfg_mutex);
	if (vdev->active || vdev->media_closing) {
		mutex_unlock(&vdev->cfg_mutex);
		pr_err("%s: filename: the device is active or its backing store not closed yet: write 0 to active first, then the filename, then 1 to active\n",
		       dev->name);
		goto free;
	}
	old = vdev->filename;
	vdev->filename = v;
	v = old;
	mutex_unlock(&vdev->cfg_mutex);
	pr_info("%s: filename is now %s\n", dev->name, vdev->filename);
	ret = count;
free:
	kfree(v);
	return ret;
}

/*
 * size and size_mb written: the exported capacity, whole blocks. nullio
 * takes any; blockio and fileio no more than their backing store has
 * (grow that first; resync_size takes all of it). Every nexus gets
 * CAPACITY DATA HAS CHANGED (SBC-3 4.10).
 */
static ssize_t vdisk_size_store_shift(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count,
				      unsigned int shift)
{
	struct scst_device *dev = scst_kobj_to_dev(kobj);
	struct vdisk_dev *vdev = dev->dh_priv;
	char *v = vdisk_attr_val(buf, count);
	loff_t backing;
	const char *why;
	bool changed;
	u64 size;
	int ret;

	if (!v)
		return -ENOMEM;
	ret = vdisk_parse_new_size(v, shift, vdev->block_size, &size, &why);
	if (ret) {
		pr_err("%s: %s=%.*s: %s\n", dev->name, attr->attr.name, 32, v,
		       why);
		kfree(v);
		return ret;
	}
	kfree(v);
	mutex_lock(&vdev->cfg_mutex);
	if (vdev->be->has_filename) {
		ret = -EINVAL;
		if (!vdev->active) {
			pr_err("%s: %s: the device is not active (active=0)\n",
			       dev->name, attr->attr.name);
			goto unlock;
		}
		ret = vdev->be->get_size(vdev, &backing);
		if (ret)
			goto unlock;
		if (size > backing) {
			pr_err("%s: %s: %llu bytes is more than the %lld of %s\n",
			       dev->name, attr->attr.name, size, backing,
			       vdev->filename);
			ret = -EINVAL;
			goto unlock;
		}
	} else {
		vdev->backing_size = size;
	}
	changed = size != vdev->size;
	vdev->size_set = true;
	WRITE_ONCE(vdev->size, size);
	WRITE_ONCE(dev->nblocks, size >> vdev->block_shift);
	mutex_unlock(&vdev->cfg_mutex);
	if (changed) {
		pr_info("%s: size is now %llu bytes\n", dev->name, size);
		scst_dev_capacity_changed(dev);
	}
	return count;
unlock:
	mutex_unlock(&vdev->cfg_mutex);
	return ret;
}

static ssize_t vdisk_size_store(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count)
{
	return vdisk_size_store_shift(kobj, attr, buf, count, 0);
}

static ssize_t vdisk_size_mb_store(struct kobject *kobj,
				   struct kobj_attribute *attr, const char *buf,
				   size_t count)
{
	return vdisk_size_store_shift(kobj, attr, buf, count, 20);
}

static struct kobj_attribute vdisk_read_only_attr =
	__ATTR(read_only, 0444, vdisk_read_only_show, NULL);
static struct kobj_attribute vdisk_nv_cache_attr =
	__ATTR(nv_cache, 0444, vdisk_nv_cache_show, NULL);
static struct kobj_attribute vdisk_write_through_attr =
	__ATTR(write_through, 0444, vdisk_write_through_show, NULL);
static struct kobj_attribute vdisk_o_direct_attr =
	__ATTR(o_direct, 0444, vdisk_o_direct_show, NULL);
static struct kobj_attribute vdisk_async_attr =
	__ATTR(async, 0444, vdisk_async_show, NULL);
static struct kobj_attribute vdisk_rotational_attr =
	__ATTR(rotational, 0444, vdisk_rotational_show, NULL);
static struct kobj_attribute vdisk_removable_attr =
	__ATTR(removable, 0444, vdisk_removable_show, NULL);
static struct kobj_attribute vdisk_thin_provisioned_attr =
	__ATTR(thin_provisioned, 0444, vdisk_thin_provisioned_show, NULL);
static struct kobj_attribute vdisk_filename_attr =
	__ATTR(filename, 0644, vdisk_filename_show, vdisk_filename_store);
static struct kobj_attribute vdisk_blocksize_attr =
	__ATTR(blocksize, 0444, vdisk_blocksize_show, NULL);
static struct kobj_attribute vdisk_size_attr =
	__ATTR(size, 0644, vdisk_size_show, vdisk_size_store);
static struct kobj_attribute vdisk_size_mb_attr =
	__ATTR(size_mb, 0644, vdisk_size_mb_show, vdisk_size_mb_store);
static struct kobj_attribute vdisk_active_attr =
	__ATTR(active, 0644, vdisk_active_show, vdisk_active_store);
static struct kobj_attribute vdisk_bind_alua_state_attr =
	__ATTR(bind_alua_state, 0644, vdisk_bind_alua_state_show,
	       vdisk_bind_alua_state_store);
static struct kobj_attribute vdisk_numa_node_id_attr =
	__ATTR(numa_node_id, 0444, vdisk_numa_node_id_show, NULL);
static struct kobj_attribute vdisk_lb_per_pb_exp_attr =
	__ATTR(lb_per_pb_exp, 0644, vdisk_lb_per_pb_exp_show,
	       vdisk_lb_per_pb_exp_store);
static struct kobj_attribute vdisk_opt_trans_len_attr =
	__ATTR(opt_trans_len, 0644, vdisk_opt_trans_len_show,
	       vdisk_opt_trans_len_store);
static struct kobj_attribute vdisk_read_zero_attr =
	__ATTR(read_zero, 0644, vdisk_read_zero_show, vdisk_read_zero_store);
static struct kobj_attribute vdisk_dummy_attr =
	__ATTR(dummy, 0444, vdisk_dummy_show, NULL);
static struct kobj_attribute vdisk_cluster_mode_attr =
	__ATTR(cluster_mode, 0644, vdisk_cluster_mode_show,
	       vdisk_cluster_mode_store);
#define VDISK_IDENT_ATTR(_name)						\
	static struct kobj_attribute vdisk_##_name##_attr =		\
		__ATTR(_name, 0644, vdisk_ident_show, vdisk_ident_store)
VDISK_IDENT_ATTR(t10_vend_id);
VDISK_IDENT_ATTR(prod_id);
VDISK_IDENT_ATTR(prod_rev_lvl);
VDISK_IDENT_ATTR(t10_dev_id);
VDISK_IDENT_ATTR(usn);
VDISK_IDENT_ATTR(vend_specific_id);
VDISK_IDENT_ATTR(scsi_device_name);
VDISK_IDENT_ATTR(eui64_id);
VDISK_IDENT_ATTR(naa_id);

static struct kobj_attribute vdisk_resync_size_attr =
	__ATTR(resync_size, 0200, NULL, vdisk_resync_size_store);

static const struct attribute *vdisk_blockio_attrs[] = {
	&vdisk_filename_attr.attr,
	&vdisk_blocksize_attr.attr,
	&vdisk_read_only_attr.attr,
	&vdisk_nv_cache_attr.attr,
	&vdisk_write_through_attr.attr,
	&vdisk_thin_provisioned_attr.attr,
	&vdisk_rotational_attr.attr,
	&vdisk_removable_attr.attr,
	&vdisk_t10_vend_id_attr.attr,
	&vdisk_prod_id_attr.attr,
	&vdisk_prod_rev_lvl_attr.attr,
	&vdisk_t10_dev_id_attr.attr,
	&vdisk_usn_attr.attr,
	&vdisk_vend_specific_id_attr.attr,
	&vdisk_scsi_device_name_attr.attr,
	&vdisk_eui64_id_attr.attr,
	&vdisk_naa_id_attr.attr,
	&vdisk_size_attr.attr,
	&vdisk_size_mb_attr.attr,
	&vdisk_resync_size_attr.attr,
	&vdisk_active_attr.attr,
	&vdisk_bind_alua_state_attr.attr,
	&vdisk_numa_node_id_attr.attr,
	&vdisk_lb_per_pb_exp_attr.attr,
	&vdisk_opt_trans_len_attr.attr,
	&vdisk_cluster_mode_attr.attr,
	NULL,
};

static const struct attribute *vdisk_fileio_attrs[] = {
	&vdisk_filename_attr.attr,
	&vdisk_blocksize_attr.attr,
	&vdisk_read_only_attr.attr,
	&vdisk_nv_cache_attr.attr,
	&vdisk_write_through_attr.attr,
	&vdisk_o_direct_attr.attr,
	&vdisk_async_attr.attr,
	&vdisk_thin_provisioned_attr.attr,
	&vdisk_rotational_attr.attr,
	&vdisk_removable_attr.attr,
	&vdisk_t10_vend_id_attr.attr,
	&vdisk_prod_id_attr.attr,
	&vdisk_prod_rev_lvl_attr.attr,
	&vdisk_t10_dev_id_attr.attr,
	&vdisk_usn_attr.attr,
	&vdisk_vend_specific_id_attr.attr,
	&vdisk_scsi_device_name_attr.attr,
	&vdisk_eui64_id_attr.attr,
	&vdisk_naa_id_attr.attr,
	&vdisk_size_attr.attr,
	&vdisk_size_mb_attr.attr,
	&vdisk_resync_size_attr.attr,
	&vdisk_active_attr.attr,
	&vdisk_numa_node_id_attr.attr,
	&vdisk_lb_per_pb_exp_attr.attr,
	&vdisk_opt_trans_len_attr.attr,
	&vdisk_cluster_mode_attr.attr,
	NULL,
};

static const struct attribute *vdisk_nullio_attrs[] = {
	&vdisk_blocksize_attr.attr,
	&vdisk_read_only_attr.attr,
	&vdisk_thin_provisioned_attr.attr,
	&vdisk_rotational_attr.attr,
	&vdisk_removable_attr.attr,
	&vdisk_t10_vend_id_attr.attr,
	&vdisk_prod_id_attr.attr,
	&vdisk_prod_rev_lvl_attr.attr,
	&vdisk_t10_dev_id_attr.attr,
	&vdisk_usn_attr.attr,
	&vdisk_vend_specific_id_attr.attr,
	&vdisk_scsi_device_name_attr.attr,
	&vdisk_eui64_id_attr.attr,
	&vdisk_naa_id_attr.attr,
	&vdisk_size_attr.attr,
	&vdisk_size_mb_attr.attr,
	&vdisk_read_zero_attr.attr,
	&vdisk_dummy_attr.attr,
	&vdisk_numa_node_id_attr.attr,
	&vdisk_lb_per_pb_exp_attr.attr,
	&vdisk_opt_trans_len_attr.attr,
	&vdisk_cluster_mode_attr.attr,
	NULL,
};

/* ---------------------------------------------------------------------- */
/* Handlers                                                               */
/* ---------------------------------------------------------------------- */

/*
 * No ->parse: the core's scst_cdb_parse() decodes the SPC/SBC commands
 * from the shared CDB table, checks the LBA range and refuses medium
 * writes to read-only LUNs.
 */
static struct scst_dev_type vdisk_blockio_devtype = {
	.name = "vdisk_blockio",
	.type = SCST_TYPE_DISK,
	/* bios complete asynchronously; ->exec() only waits for tags */
	.exec_may_sleep = false,
	/*
	 * No fills_data_in: a block driver may end a read successfully
	 * without writing the pages (null_blk without memory_backed,
	 * scsi_debug's fake_rw), which must then read back zeros.
	 */
	.exec = vdisk_exec,
	.on_free_cmd = vdisk_on_free_cmd,
	.add_device = vdisk_blockio_add,
	.del_device = vdisk_blockio_del,
	.attach = vdisk_attach,
	.add_device_parameters = vdisk_blockio_params,
	.dev_attrs = vdisk_blockio_attrs,
	.owner = THIS_MODULE,
};

static struct scst_dev_type vdisk_fileio_devtype = {
	.name = "vdisk_fileio",
	.type = SCST_TYPE_DISK,
	.exec_may_sleep = true,
	/* a short read is an error (fileio_sync_io()) */
	.fills_data_in = true,
	.threads_num = VDISK_FILEIO_THREADS,
	.exec = vdisk_exec,
	.on_free_cmd = vdisk_on_free_cmd,
	.add_device = vdisk_fileio_add,
	.del_device = vdisk_fileio_del,
	.attach = vdisk_attach,
	.add_device_parameters = vdisk_fileio_params,
	.dev_attrs = vdisk_fileio_attrs,
	.owner = THIS_MODULE,
};

static struct scst_dev_type vdisk_nullio_devtype = {
	.name = "vdisk_nullio",
	.type = SCST_TYPE_DISK,
	.exec_may_sleep = false,
	/* nullio_rw() zeroes what a read returns */
	.fills_data_in = true,
	.exec = vdisk_exec,
	.on_free_cmd = vdisk_on_free_cmd,
	.add_device = vdisk_nullio_add,
	.del_device = vdisk_nullio_del,
	.attach = vdisk_attach,
	.add_device_parameters = vdisk_nullio_params,
	.dev_attrs = vdisk_nullio_attrs,
	.owner = THIS_MODULE,
};

static int __init vdisk_init(void)
{
	int ret;

	ret = scst_register_dev_driver(&vdisk_blockio_devtype);
	if (ret)
		return ret;
	ret = scst_register_dev_driver(&vdisk_fileio_devtype);
	if (ret)
		goto unregister_blockio;
	ret = scst_register_dev_driver(&vdisk_nullio_devtype);
	if (ret)
		goto unregister_fileio;
	return 0;

unregister_fileio:
	scst_unregister_dev_driver(&vdisk_fileio_devtype);
unregister_blockio:
	scst_unregister_dev_driver(&vdisk_blockio_devtype);
	return ret;
}

/* The devices left are unregistered first, which removes their LUNs. */
static void __exit vdisk_exit(void)
{
	struct vdisk_dev *vdev, *tmp;
	LIST_HEAD(devs);

	mutex_lock(&vdisk_mutex);
	vdisk_exiting = true;
	list_splice_init(&vdisk_dev_list, &devs);
	mutex_unlock(&vdisk_mutex);
	list_for_each_entry_safe(vdev, tmp, &devs, list_entry) {
		list_del(&vdev->list_entry);
		vdisk_destroy(vdev);
	}

	scst_unregister_dev_driver(&vdisk_nullio_devtype);
	scst_unregister_dev_driver(&vdisk_fileio_devtype);
	scst_unregister_dev_driver(&vdisk_blockio_devtype);
}

module_init(vdisk_init);
module_exit(vdisk_exit);

MODULE_DESCRIPTION("SCST-compatible virtual disk handlers: vdisk_blockio, vdisk_fileio, vdisk_nullio");
MODULE_LICENSE("GPL");
