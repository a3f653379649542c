// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdisk_params.c - the add_device parameters of vdisk_blockio,
 * vdisk_fileio and vdisk_nullio, checked before anything is opened or
 * allocated, and the rules that tie the exported size to the block size.
 *
 * The core refuses keys a handler does not list (scst_mgmt_check_params()
 * with the lists below) and duplicate keys (scst_mgmt_parse()) before the
 * handler sees the line; what is left here is each value's syntax, its
 * limits, and the combinations that make no sense. A refused line gets
 * one message naming the bad token and leaves @p for the caller to drop:
 * nothing of it is applied.
 */
#include "vdisk_params.h"

const char *const vdisk_blockio_params[] = {
	"filename", "blocksize", "read_only", "nv_cache", "write_through",
	"thin_provisioned", "rotational", "removable", "t10_vend_id",
	"t10_dev_id", "prod_id", "usn", NULL,
};

const char *const vdisk_fileio_params[] = {
	"filename", "blocksize", "read_only", "nv_cache", "write_through",
	"o_direct", "async", "thin_provisioned", "rotational", "removable",
	"t10_vend_id", "t10_dev_id", "prod_id", "usn", NULL,
};

const char *const vdisk_nullio_params[] = {
	"size", "size_mb", "blocksize", "read_only", "thin_provisioned",
	"rotational", "removable", "t10_vend_id", "t10_dev_id", "prod_id",
	"usn", NULL,
};

/**
 * vdisk_kind_params() - the add_device keys of a handler
 * @kind: the handler
 *
 * Return: a NULL-terminated list, or NULL for an unknown @kind.
 */
const char *const *vdisk_kind_params(enum vdisk_kind kind)
{
	switch (kind) {
	case VDISK_KIND_BLOCKIO:
		return vdisk_blockio_params;
	case VDISK_KIND_FILEIO:
		return vdisk_fileio_params;
	case VDISK_KIND_NULLIO:
		return vdisk_nullio_params;
	}
	return NULL;
}

static int vdisk_params_fail(struct vdisk_params *p, const char *name,
			     const char *key, const char *v, const char *why)
{
	snprintf(p->err, sizeof(p->err), "%s: %s=%s: %s", name, key, v, why);
	return -EINVAL;
}

static int vdisk_param_bool(struct vdisk_params *p, const char *name,
			    const struct scst_mgmt_line *line,
			    const char *key, bool *val, bool *set)
{
	const char *v = scst_mgmt_get_param(line, key);

	if (!v)
		return 0;
	if (scst_mgmt_parse_bool(v, val))
		return vdisk_params_fail(p, name, key, v,
					 "the value must be 0 or 1");
	if (set)
		*set = true;
	return 0;
}

/* An identity string: printable ASCII (SPC-4 4.4.1), at most @size - 1. */
static int vdisk_param_str(struct vdisk_params *p, const char *name,
			   const struct scst_mgmt_line *line,
			   const char *key, char *val, size_t size, bool *set)
{
	const char *v = scst_mgmt_get_param(line, key);
	const char *c;

	if (!v)
		return 0;
	if (strlen(v) >= size) {
		snprintf(p->err, sizeof(p->err),
			 "%s: %s=%s: longer than %zu characters", name, key, v,
			 size - 1);
		return -EINVAL;
	}
	for (c = v; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			return vdisk_params_fail(p, name, key, v,
						 "not printable ASCII");
	memcpy(val, v, strlen(v) + 1);
	*set = true;
	return 0;
}

/* nullio's size: size= in bytes or size_mb= in MiB */
static int vdisk_param_size(struct vdisk_params *p, const char *name,
			    const struct scst_mgmt_line *line)
{
	const char *bytes = scst_mgmt_get_param(line, "size");
	const char *mb = scst_mgmt_get_param(line, "size_mb");
	u64 val;

	p->size = VDISK_DEF_NULLIO_MB << 20;
	if (bytes && mb) {
		snprintf(p->err, sizeof(p->err),
			 "%s: size=%s and size_mb=%s: give only one", name,
			 bytes, mb);
		return -EINVAL;
	}
	if (bytes) {
		if (scst_mgmt_parse_u64(bytes, &val) || !val ||
		    val > VDISK_MAX_SIZE)
			return vdisk_params_fail(p, name, "size", bytes,
						 "not a size in bytes");
	} else if (mb) {
		if (scst_mgmt_parse_u64(mb, &val) || !val ||
		    val > (VDISK_MAX_SIZE >> 20))
			return vdisk_params_fail(p, name, "size_mb", mb,
						 "not a size in MiB");
		val <<= 20;
	} else {
		return 0;
	}
	p->size = val;
	p->size_set = true;
	return 0;
}

/**
 * vdisk_params_parse() - check the add_device parameters of a new device
 * @name: the device name, for the message
 * @kind: the handler
 * @line: the parsed mgmt line; its keys are known to the handler
 * @p: receives the parameters, or the defaults of those not given; a
 *	block size of 0 leaves the choice to the back end
 *
 * Return: 0, or -EINVAL with @p->err saying which token is wrong.
 */
int vdisk_params_parse(const char *name, enum vdisk_kind kind,
		       const struct scst_mgmt_line *line,
		       struct vdisk_params *p)
{
	const char *v;
	u64 bs;
	int ret;

	memset(p, 0, sizeof(*p));
	p->rotational = true;

	if (kind != VDISK_KIND_NULLIO) {
		v = scst_mgmt_get_param(line, "filename");
		if (!v) {
			snprintf(p->err, sizeof(p->err), "%s: missing filename",
				 name);
			return -EINVAL;
		}
		if (v[0] != '/')
			return vdisk_params_fail(p, name, "filename", v,
						 "not an absolute path");
		p->filename = v;
	} else {
		ret = vdisk_param_size(p, name, line);
		if (ret)
			return ret;
	}

	v = scst_mgmt_get_param(line, "blocksize");
	if (v) {
		/* what the INQUIRY and READ CAPACITY code is tested with */
		if (scst_mgmt_parse_u64(v, &bs) || (bs != 512 && bs != 4096))
			return vdisk_params_fail(p, name, "blocksize", v,
						 "must be 512 or 4096");
		p->block_size = (u32)bs;
	}

	ret = vdisk_param_bool(p, name, line, "read_only", &p->read_only,
			       NULL) ?:
	      vdisk_param_bool(p, name, line, "nv_cache", &p->nv_cache, NULL) ?:
	      vdisk_param_bool(p, name, line, "write_through",
			       &p->write_through, NULL) ?:
	      vdisk_param_bool(p, name, line, "o_direct", &p->o_direct, NULL) ?:
	      vdisk_param_bool(p, name, line, "async", &p->async, NULL) ?:
	      vdisk_param_bool(p, name, line, "thin_provisioned",
			       &p->thin_provisioned, &p->thin_set) ?:
	      vdisk_param_bool(p, name, line, "rotational", &p->rotational,
			       NULL) ?:
	      vdisk_param_bool(p, name, line, "removable", &p->removable,
			       NULL);
	if (ret)
		return ret;

	return vdisk_param_str(p, name, line, "t10_vend_id", p->t10_vend_id,
			       sizeof(p->t10_vend_id), &p->t10_vend_id_set) ?:
	       vdisk_param_str(p, name, line, "prod_id", p->prod_id,
			       sizeof(p->prod_id), &p->prod_id_set) ?:
	       vdisk_param_str(p, name, line, "t10_dev_id", p->t10_dev_id,
			       sizeof(p->t10_dev_id), &p->t10_dev_id_set) ?:
	       vdisk_param_str(p, name, line, "usn", p->usn, sizeof(p->usn),
			       &p->usn_set);
}

/**
 * vdisk_geometry() - the exported size of a device
 * @name: the device name, for the message
 * @what: the backing store (its filename), for the message
 * @backing_size: size of the backing store, or the size given (nullio)
 * @block_size: the logical block size in use
 * @size_set: @backing_size was given by the user and must be whole blocks
 * @size: receives @backing_size cut to whole blocks
 * @err: receives the message on failure
 * @errlen: size of @err
 *
 * SBC-3 4.4: a block size the handler supports (512 to 4096, a power of
 * two) and at least one block.
 *
 * Return: 0 or -EINVAL.
 */
int vdisk_geometry(const char *name, const char *what, u64 backing_size,
		   u32 block_size, bool size_set, u64 *size, char *err,
		   size_t errlen)
{
	if (block_size < 512 || block_size > 4096 ||
	    (block_size & (block_size - 1))) {
		snprintf(err, errlen, "%s: block size %u of %s is not supported",
			 name, block_size, what);
		return -EINVAL;
	}
	if (size_set && (backing_size & (block_size - 1))) {
		snprintf(err, errlen,
			 "%s: size %llu is not a multiple of the block size %u",
			 name, backing_size, block_size);
		return -EINVAL;
	}
	*size = backing_size & ~(u64)(block_size - 1);
	if (!*size) {
		snprintf(err, errlen,
			 "%s: %s is smaller than one block of %u bytes", name,
			 what, block_size);
		return -EINVAL;
	}
	return 0;
}
