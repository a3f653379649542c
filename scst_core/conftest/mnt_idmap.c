// SPDX-License-Identifier: GPL-2.0-only
/* Compiles when mounts have an idmap (6.3 and later): mnt_idmap(). */
#include <linux/fs.h>
#include <linux/mount.h>

struct mnt_idmap *scst_conftest_mnt_idmap(struct vfsmount *mnt);

struct mnt_idmap *scst_conftest_mnt_idmap(struct vfsmount *mnt)
{
	struct renamedata rd = { .old_mnt_idmap = mnt_idmap(mnt) };

	return rd.old_mnt_idmap;
}
