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

/* The identity attributes' longest values, as SCST's */
#define VDISK_T10_VEND_ID_LEN	8
#define VDISK_PROD_ID_LEN	16
#define VDISK_PROD_REV_LEN	4
/* SCST's t10_dev_id buffer: "<id in hex>-<name>" cut to 25 characters */
#define VDISK_T10_DEV_ID_LEN	25
#define VDISK_USN_LEN		20
#define VDISK_VEND_SPEC_ID_LEN	128
/*
 * A SCSI name string designator holds 252 bytes at most (a one-byte
 * length, a multiple of 4, with at least one NUL): 251 characters
 */
#define VDISK_SCSI_NAME_LEN	251
/* eui64_id: 8, 12 or 16 bytes; naa_id: 8 or 16 (SPC-4 7.8.6.5, 7.8.6.6) */
#define VDISK_DESIG_ID_MAX	16

/*
 * PRODUCT REVISION LEVEL by default: SCST 3.11's ("3110"), so that a host
 * that keys on it (multipath.conf, a storage array whitelist) sees the
 * same device after a migration.
 */
#define VDISK_DEF_PROD_REV	"3110"

/* Defaults of the add_device parameters (SCST's). */
#define VDISK_DEF_BLOCK_SIZE	512
#define VDISK_DEF_NULLIO_MB	4096ULL
/* OPTIMAL TRANSFER LENGTH in bytes (SCST 3.11's DEF_OPT_TRANS_LEN) */
#define VDISK_DEF_OPT_TRANS_LEN	524288U
/*
 * The physical block size lb_per_pb_exp=1 reports where the back end has
 * no block device to ask (fileio, nullio): SCST 3.11 assumes 4096
 */
#define VDISK_DEF_PHYS_BS	4096U
/* numa_node_id: -1 (none, the default) or a node below this (MAX_NUMNODES) */
#define VDISK_MAX_NUMA_NODES	1024

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
 * enum vdisk_id_attr - the identity attributes of a vdisk device (SCST's
 *	names), each an add_device parameter and a writable sysfs file
 * @VDISK_ID_T10_VEND_ID: T10 VENDOR IDENTIFICATION (INQUIRY, VPD 83h)
 * @VDISK_ID_PROD_ID: PRODUCT IDENTIFICATION
 * @VDISK_ID_PROD_REV_LVL: PRODUCT REVISION LEVEL
 * @VDISK_ID_T10_DEV_ID: the device's T10 ID, source of the default
 *	EUI-64 designator
 * @VDISK_ID_USN: PRODUCT SERIAL NUMBER of VPD page 80h
 * @VDISK_ID_VEND_SPECIFIC_ID: the vendor specific part of the T10 vendor
 *	ID designator
 * @VDISK_ID_SCSI_DEVICE_NAME: a SCSI name string designator (target
 *	device), none when empty
 * @VDISK_ID_EUI64_ID: an EUI-64 designator, hex
 * @VDISK_ID_NAA_ID: an NAA designator, hex
 * @VDISK_ID_NR: how many there are
 */
enum vdisk_id_attr {
	VDISK_ID_T10_VEND_ID,
	VDISK_ID_PROD_ID,
	VDISK_ID_PROD_REV_LVL,
	VDISK_ID_T10_DEV_ID,
	VDISK_ID_USN,
	VDISK_ID_VEND_SPECIFIC_ID,
	VDISK_ID_SCSI_DEVICE_NAME,
	VDISK_ID_EUI64_ID,
	VDISK_ID_NAA_ID,
	VDISK_ID_NR,
};

/**
 * struct vdisk_identity - what a vdisk device reports as its identity
 * @t10_vend_id: see enum vdisk_id_attr, printable ASCII, NUL-terminated
 * @prod_id: ditto
 * @prod_rev_lvl: ditto
 * @t10_dev_id: ditto
 * @usn: ditto
 * @vend_specific_id: ditto
 * @scsi_device_name: ditto
 * @eui64_id: the EUI-64 designator's bytes, @eui64_len of them (0: none)
 * @eui64_len: 0, 8, 12 or 16
 * @naa_id: the NAA designator's bytes, @naa_len of them (0: none)
 * @naa_len: 0, 8 or 16
 * @set: BIT(enum vdisk_id_attr) of the attributes the user gave
 */
struct vdisk_identity {
	char t10_vend_id[VDISK_T10_VEND_ID_LEN + 1];
	char prod_id[VDISK_PROD_ID_LEN + 1];
	char prod_rev_lvl[VDISK_PROD_REV_LEN + 1];
	char t10_dev_id[VDISK_T10_DEV_ID_LEN + 1];
	char usn[VDISK_USN_LEN + 1];
	char vend_specific_id[VDISK_VEND_SPEC_ID_LEN + 1];
	char scsi_device_name[VDISK_SCSI_NAME_LEN + 1];
	u8 eui64_id[VDISK_DESIG_ID_MAX];
	u8 eui64_len;
	u8 naa_id[VDISK_DESIG_ID_MAX];
	u8 naa_len;
	u16 set;
};

const char *vdisk_id_attr_name(enum vdisk_id_attr a);
int vdisk_id_attr_find(const char *name);
int vdisk_identity_set(struct vdisk_identity *id, enum vdisk_id_attr a,
		       const char *val, char *err, size_t errlen);
int vdisk_identity_show(const struct vdisk_identity *id,
			enum vdisk_id_attr a, char *buf, size_t len);
void vdisk_identity_defaults(struct vdisk_identity *id, const char *name,
			     u64 id_num, const char *vendor);
u8 vdisk_identity_eui64(const struct vdisk_identity *id,
			u8 out[VDISK_DESIG_ID_MAX]);

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
 * @active: active=, default 1: 0 creates the device without opening
 *	@filename (SCST's deferred open for active/passive pairs)
 * @bind_alua_state: bind_alua_state=, default 1 (blockio)
 * @numa_node_id: numa_node_id=, default -1 (no node)
 * @lb_per_pb_exp: lb_per_pb_exp=, default 1: READ CAPACITY(16) reports
 *	the physical block size (0: reports one block per physical block)
 * @opt_trans_len: opt_trans_len= in bytes, default VDISK_DEF_OPT_TRANS_LEN
 * @opt_trans_len_set: opt_trans_len= was given
 * @read_zero: read_zero= (nullio)
 * @dummy: dummy= (nullio): INQUIRY reports no device at this LUN
 * @ident: the identity attributes given (@ident.set says which)
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
	bool active;
	bool bind_alua_state;
	int numa_node_id;
	bool lb_per_pb_exp;
	u32 opt_trans_len;
	bool opt_trans_len_set;
	bool read_zero;
	bool dummy;
	bool cluster_mode;
	struct vdisk_identity ident;
	char err[VDISK_PARAMS_ERR_LEN];
};

const char *const *vdisk_kind_params(enum vdisk_kind kind);
int vdisk_params_parse(const char *name, enum vdisk_kind kind,
		       const struct scst_mgmt_line *line,
		       struct vdisk_params *p);
int vdisk_check_block_size(u64 bs);
int vdisk_check_filename(const char *v, const char **why);
int vdisk_parse_opt_trans_len(const char *v, u32 block_size, u32 *out,
			      const char **why);
int vdisk_parse_numa_node(const char *v, int *node, const char **why);
int vdisk_parse_new_size(const char *v, unsigned int shift, u32 block_size,
			 u64 *out, const char **why);
u8 vdisk_lbppbe(bool lb_per_pb_exp, u32 phys_block_size, u32 block_size);
const char *vdisk_unsupported_param(const char *key);
int vdisk_geometry(const char *name, const char *what, u64 backing_size,
		   u32 block_size, bool size_set, u64 *size, char *err,
		   size_t errlen);

#endif /* __VDISK_PARAMS_H */
