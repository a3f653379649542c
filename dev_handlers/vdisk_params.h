/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vdisk_params.h - the add_device parameters of the vdisk handlers
 * (vdisk_params.c): which keys each handler takes, their syntax and
 * limits, and the size and block size rules. Pure logic: it includes
 * only scst_logic.h, so scst_vdisk.ko, the unit tests and the fuzzer
 * compile the same file.
 */
#ifndef __VDISK_PARAMS_H
#define __VDISK_PARAMS_H

#include <scst_logic.h>

#define VDISK_T10_VEND_ID_LEN	8
#define VDISK_PROD_ID_LEN	16
/* SCST's t10_dev_id buffer: "<id in hex>-<name>" cut to 25 characters */
#define VDISK_T10_DEV_ID_LEN	25
#define VDISK_USN_LEN		20

/* Defaults of the add_device parameters (SCST's). */
#define VDISK_DEF_BLOCK_SIZE	512
#define VDISK_DEF_NULLIO_MB	4096ULL

/* Largest size in bytes: a loff_t */
#define VDISK_MAX_SIZE		(U64_MAX >> 1)

/* The longest message vdisk_params_parse() writes, NUL included */
#define VDISK_PARAMS_ERR_LEN	256

/**
 * enum vdisk_kind - which handler a device is created by
 * @VDISK_KIND_BLOCKIO: vdisk_blockio
 * @VDISK_KIND_FILEIO: vdisk_fileio
 * @VDISK_KIND_NULLIO: vdisk_nullio
 */
enum vdisk_kind {
	VDISK_KIND_BLOCKIO,
	VDISK_KIND_FILEIO,
	VDISK_KIND_NULLIO,
};

extern const char *const vdisk_blockio_params[];
extern const char *const vdisk_fileio_params[];
extern const char *const vdisk_nullio_params[];

/**
 * struct vdisk_params - add_device parameters, checked
 * @filename: filename= (blockio, fileio); points into the mgmt line
 * @size: nullio: size in bytes (size= or size_mb=), or the default
 * @size_set: size= or size_mb= was given
 * @block_size: blocksize=, or VDISK_DEF_BLOCK_SIZE
 * @read_only: read_only=
 * @nv_cache: nv_cache=
 * @write_through: write_through=
 * @o_direct: o_direct=
 * @async: async=
 * @thin_provisioned: thin_provisioned=
 * @thin_set: thin_provisioned= was given
 * @rotational: rotational=, default 1
 * @removable: removable=
 * @t10_vend_id: t10_vend_id=, printable ASCII
 * @prod_id: prod_id=, printable ASCII
 * @t10_dev_id: t10_dev_id=, printable ASCII
 * @usn: usn=, printable ASCII
 * @t10_vend_id_set: t10_vend_id= was given; same for the three others
 * @prod_id_set: see @t10_vend_id_set
 * @t10_dev_id_set: see @t10_vend_id_set
 * @usn_set: see @t10_vend_id_set
 * @err: on failure, the one line to log (without a newline)
 */
struct vdisk_params {
	const char *filename;
	u64 size;
	bool size_set;
	u32 block_size;
	bool read_only;
	bool nv_cache;
	bool write_through;
	bool o_direct;
	bool async;
	bool thin_provisioned;
	bool thin_set;
	bool rotational;
	bool removable;
	char t10_vend_id[VDISK_T10_VEND_ID_LEN + 1];
	char prod_id[VDISK_PROD_ID_LEN + 1];
	char t10_dev_id[VDISK_T10_DEV_ID_LEN + 1];
	char usn[VDISK_USN_LEN + 1];
	bool t10_vend_id_set;
	bool prod_id_set;
	bool t10_dev_id_set;
	bool usn_set;
	char err[VDISK_PARAMS_ERR_LEN];
};

const char *const *vdisk_kind_params(enum vdisk_kind kind);
int vdisk_params_parse(const char *name, enum vdisk_kind kind,
		       const struct scst_mgmt_line *line,
		       struct vdisk_params *p);
int vdisk_geometry(const char *name, const char *what, u64 backing_size,
		   u32 block_size, bool size_set, u64 *size, char *err,
		   size_t errlen);

#endif /* __VDISK_PARAMS_H */
