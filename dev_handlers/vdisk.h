/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vdisk.h - state shared by the files of scst_vdisk.ko: the virtual disk
 * device handlers vdisk_blockio, vdisk_fileio and vdisk_nullio.
 *
 * vdisk_main.c     module, handler registration, sysfs attributes,
 *                  identities
 * vdisk_params.c   the add_device parameters and the geometry rules (pure
 *                  logic, unit tested and fuzzed)
 * vdisk_spc.c      ->exec(): command dispatch and the SPC-4/SBC-3 commands
 *                  emulated on top of the back ends (INQUIRY, MODE SENSE,
 *                  VERIFY, COMPARE AND WRITE, WRITE SAME, UNMAP, ...)
 * vdisk_blockio.c  bios straight to a block device, completed from end_io
 * vdisk_fileio.c   the VFS, synchronously, on the device's worker threads
 * vdisk_nullio.c   no backing store
 */
#ifndef __VDISK_H
#define __VDISK_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/atomic.h>
#include <linux/bvec.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/percpu-refcount.h>

#include <scst.h>

#include "vdisk_compat.h"
#include "vdisk_params.h"

/* T10 VENDOR IDENTIFICATION, as SCST's (users' multipath.conf match it). */
#define VDISK_VENDOR_BIO	"SCST_BIO"
#define VDISK_VENDOR_FIO	"SCST_FIO"

/* Largest number of pages of the bounce buffer of VERIFY / COMPARE AND WRITE */
#define VDISK_BOUNCE_PAGES	32

/* Limits reported in the Block Limits VPD page (SBC-3 6.5.3). */
#define VDISK_MAX_CW_BLOCKS	255
#define VDISK_MAX_UNMAP_DESCS	256
#define VDISK_MAX_WS_BYTES	(64ULL << 20)

struct vdisk_dev;

/**
 * struct vdisk_range - a range of logical blocks
 * @lba: first block
 * @nblocks: number of blocks
 */
struct vdisk_range {
	u64 lba;
	u64 nblocks;
};

/**
 * struct vdisk_backend - how one handler reaches its backing store
 * @name: handler name ("vdisk_blockio")
 * @vendor: default T10 vendor identification
 * @has_filename: the filename parameter is required
 * @lbprz: deallocated blocks read back as zeros (SBC-3 4.7.3.2)
 * @open: open the backing store named by vdev->filename and set
 *	vdev->backing_size; check vdev->block_size against it; log one line
 *	and return an errno on failure
 * @close: release what @open took
 * @get_size: the current size of the backing store in bytes
 * @thin_capable: whether the backing store can deallocate blocks
 * @rw: execute a READ or WRITE over the command's buffer, @len bytes at
 *	@pos; complete the command with vdisk_cmd_done(), maybe later
 * @flush: make the written data durable (SYNCHRONIZE CACHE); complete the
 *	command with vdisk_cmd_done()
 * @unmap: deallocate the @nr @ranges; complete the command with
 *	vdisk_cmd_done(); @ranges is freed when @unmap returns
 * @write_same: write the logical block held by @page to @nblocks blocks
 *	from @lba; own @page (free it when done); complete the command with
 *	vdisk_cmd_done()
 * @write_zeroes: set @nblocks blocks from @lba to zero, deallocating them
 *	if @unmap; synchronous; return 0 or an errno
 * @sync_io: synchronous read or write of @len bytes at @pos to or from
 *	the @nr bio_vecs of @bv; return 0 or an errno
 * @lba_status: the provisioning status of the extent that starts at @lba:
 *	whether it is mapped and how many blocks it spans (*@nblocks holds
 *	the blocks up to the end of the device on entry); optional: all
 *	mapped
 */
struct vdisk_backend {
	const char *name;
	const char *vendor;
	bool has_filename;
	bool lbprz;
	int (*open)(struct vdisk_dev *vdev);
	void (*close)(struct vdisk_dev *vdev);
	int (*get_size)(struct vdisk_dev *vdev, loff_t *size);
	bool (*thin_capable)(struct vdisk_dev *vdev);
	void (*rw)(struct scst_cmd *cmd, bool write, bool fua, loff_t pos,
		   u32 len);
	void (*flush)(struct scst_cmd *cmd);
	void (*unmap)(struct scst_cmd *cmd, const struct vdisk_range *ranges,
		      unsigned int nr);
	void (*write_same)(struct scst_cmd *cmd, struct page *page, u64 lba,
			   u64 nblocks);
	int (*write_zeroes)(struct vdisk_dev *vdev, u64 lba, u64 nblocks,
			    bool unmap);
	int (*sync_io)(struct vdisk_dev *vdev, bool write, bool fua, loff_t pos,
		       struct bio_vec *bv, unsigned int nr, size_t len);
	int (*lba_status)(struct vdisk_dev *vdev, u64 lba, u64 *nblocks,
			  bool *mapped);
};

/**
 * struct vdisk_dev - one virtual disk
 * @list_entry: on vdisk_dev_list
 * @dev: the core's device
 * @be: its back end
 * @name: device name
 * @filename: backing file or block device (blockio, fileio)
 * @bdev: the open block device (blockio)
 * @filp: the open file (fileio)
 * @backing_size: size of the backing store in bytes, as last read
 * @size: exported size in bytes, a multiple of @block_size
 * @block_size: logical block size
 * @block_shift: log2(@block_size)
 * @phys_blocks: logical blocks per physical block of the backing store
 * @phys_bs: the physical block size lb_per_pb_exp reports, as SCST 3.11:
 *	the block device's (blockio), else VDISK_DEF_PHYS_BS
 * @unmap_gran: deallocation granularity of the backing store in blocks
 * @dma_align_mask: what the backing store needs of a buffer's memory
 *	(scst_device.dma_align_mask), set by ->open()
 * @read_only: read_only parameter
 * @nv_cache: SYNCHRONIZE CACHE and FUA are no-ops: the cache does not lose
 *	data on power loss
 * @write_through: writes reach stable storage before they complete; the
 *	caching mode page's WCE bit changes it at run time
 * @def_write_through: @write_through as created (the attribute's default)
 * @o_direct: fileio: O_DIRECT
 * @async: fileio: accepted for SCST compatibility; I/O is synchronous
 * @thin_provisioned: UNMAP and WRITE SAME with UNMAP deallocate blocks
 * @thin_set: thin_provisioned was given explicitly
 * @thin_default: what thin_provisioned would be if not given
 * @rotational: INQUIRY page B1h reports a rotating medium
 * @removable: INQUIRY RMB bit
 * @size_set: the size was given explicitly (nullio) or written
 * @active: the backing store is open and commands may reach it (SCST's
 *	active attribute); changed under cfg_mutex, read locklessly
 * @media_closing: active=0 was written, but commands still held the
 *	backing store when the wait for them ended: the next write of active
 *	(or the device's removal) closes it once they are gone
 * @bind_alua_state: bind_alua_state (blockio): recorded, see vdisk.md
 * @numa_node_id: numa_node_id: recorded, see vdisk.md
 * @lb_per_pb_exp: READ CAPACITY(16) reports @phys_bs (SBC-3 5.16.2)
 * @opt_trans_len: OPTIMAL TRANSFER LENGTH of VPD B0h, in bytes
 * @opt_trans_len_set: @opt_trans_len was given or written
 * @read_zero: nullio: read_zero (reads return zeros either way)
 * @dummy: nullio: INQUIRY reports no device at the LUN (SPC-4 6.6.2)
 * @media_ref: held by each command that reaches the backing store
 *	(vdisk_exec()); killed to close it (active=0)
 * @media_idle: completed when @media_ref dropped to zero once killed
 * @id: source of the NAA and EUI-64 designators (SCST's dev_id_num)
 * @t10_vend_id: T10 vendor identification
 * @prod_id: product identification
 * @t10_dev_id: vendor specific part of the T10 vendor ID designator
 * @usn: unit serial number (VPD page 80h)
 * @t10_vend_id_set: @t10_vend_id was given explicitly; same for the others
 * @prod_id_set: see @t10_vend_id_set
 * @t10_dev_id_set: see @t10_vend_id_set
 * @usn_set: see @t10_vend_id_set
 * @cfg_mutex: serializes resync_size writes and MODE SELECT
 * @caw_mutex: serializes COMPARE AND WRITE commands
 * @caw_active: a COMPARE AND WRITE owns the medium; new writes wait
 * @writes_inflight: medium-modifying commands executing
 * @caw_wq: where writes wait for @caw_active and the COMPARE AND WRITE
 *	for @writes_inflight
 */
struct vdisk_dev {
	struct list_head list_entry;
	struct scst_device *dev;
	const struct vdisk_backend *be;
	char name[SCST_MAX_NAME];
	char *filename;

	struct vdisk_bdev_handle bdev;
	struct file *filp;
	loff_t backing_size;
	loff_t size;

	u32 block_size;
	u8 block_shift;
	u32 phys_blocks;
	u32 phys_bs;
	u32 unmap_gran;
	u32 dma_align_mask;

	bool read_only;
	bool nv_cache;
	bool write_through;
	bool def_write_through;
	bool o_direct;
	bool async;
	bool thin_provisioned;
	bool thin_set;
	bool thin_default;
	bool rotational;
	bool removable;
	bool size_set;
	bool active;
	bool media_closing;
	bool bind_alua_state;
	int numa_node_id;
	bool lb_per_pb_exp;
	u32 opt_trans_len;
	bool opt_trans_len_set;
	bool read_zero;
	bool dummy;
	bool cluster_mode_asked;	/* add_device's cluster_mode=1 */

	struct percpu_ref media_ref;
	struct completion media_idle;

	/*
	 * INQUIRY and VPD 80h/83h: written under cfg_mutex and ident_lock,
	 * read under either (INQUIRY takes a copy under ident_lock)
	 */
	struct vdisk_identity ident;
	spinlock_t ident_lock;		/* ident, against INQUIRY */

	/* resync_size, MODE SELECT, identity writes */
	struct mutex cfg_mutex;
	struct mutex caw_mutex;		/* one COMPARE AND WRITE at a time */
	bool caw_active;
	atomic_t writes_inflight;
	wait_queue_head_t caw_wq;
};

static inline struct vdisk_dev *vdisk_cmd_vdev(const struct scst_cmd *cmd)
{
	return cmd->dev->dh_priv;
}

/* FUA for a write: forced by write_through, meaningless with nv_cache */
static inline bool vdisk_write_fua(const struct vdisk_dev *vdev, bool fua)
{
	if (vdev->nv_cache)
		return false;
	return fua || READ_ONCE(vdev->write_through);
}

/* vdisk_spc.c */
enum scst_exec_res vdisk_exec(struct scst_cmd *cmd);
void vdisk_on_free_cmd(struct scst_cmd *cmd);
/*
 * Code that may sleep for long runs only where the command may block
 * (scst_cmd_may_block()): vdisk_exec() sends such commands to a thread
 * first. A command that reaches it on the fast path is a bug that a
 * WARNING shows (the VM tests fail on it).
 */
#define VDISK_ASSERT_MAY_BLOCK(cmd)	WARN_ON_ONCE(!scst_cmd_may_block(cmd))

void vdisk_write_begin(struct vdisk_dev *vdev);
void vdisk_write_end(struct vdisk_dev *vdev);
void vdisk_cmd_done(struct scst_cmd *cmd, bool write);
void vdisk_set_io_error(struct scst_cmd *cmd, int err, bool write);
unsigned int vdisk_sg_to_bvec(struct scst_cmd *cmd, u32 skip, u32 len,
			      struct bio_vec *bv, unsigned int max);

/* back ends */
extern const struct vdisk_backend vdisk_blockio_backend;
extern const struct vdisk_backend vdisk_fileio_backend;
extern const struct vdisk_backend vdisk_nullio_backend;

#endif /* __VDISK_H */
