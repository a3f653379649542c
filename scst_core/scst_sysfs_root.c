// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_sysfs_root.c - the root of the management tree, /sys/kernel/scst_tgt.
 *
 * The layout and attribute names follow SCST's, so that scstadmin and the
 * administrators' scripts written for SCST keep working.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "scst_priv.h"

struct kobject *scst_root_kobj;

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", SCST_VERSION_STRING);
}

static struct kobj_attribute scst_version_attr = __ATTR_RO(version);

static struct attribute *scst_root_attrs[] = {
	&scst_version_attr.attr,
	NULL,
};

static const struct attribute_group scst_root_group = {
	.attrs = scst_root_attrs,
};

int scst_sysfs_init(void)
{
	int ret;

	scst_root_kobj = kobject_create_and_add(SCST_SYSFS_ROOT_NAME,
						kernel_kobj);
	if (!scst_root_kobj)
		return -ENOMEM;

	ret = sysfs_create_group(scst_root_kobj, &scst_root_group);
	if (ret)
		goto put_root;

	return 0;

put_root:
	kobject_put(scst_root_kobj);
	scst_root_kobj = NULL;
	return ret;
}

void scst_sysfs_exit(void)
{
	sysfs_remove_group(scst_root_kobj, &scst_root_group);
	kobject_put(scst_root_kobj);
	scst_root_kobj = NULL;
}
