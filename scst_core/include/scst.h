/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scst.h - the public interface of the SCST-compatible target core for
 * target drivers and device handlers.
 */
#ifndef __SCST_H
#define __SCST_H

/*
 * Version reported in /sys/kernel/scst_tgt/version. Management tools that
 * were written for SCST parse the leading "major.minor.patch".
 */
#define SCST_VERSION_STRING	"0.1.0"

/* Name of the directory under /sys/kernel that holds the management tree. */
#define SCST_SYSFS_ROOT_NAME	"scst_tgt"

#endif /* __SCST_H */
