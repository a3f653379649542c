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

/* The identity attributes, in enum vdisk_id_attr order */
static const char *const vdisk_id_names[VDISK_ID_NR] = {
	[VDISK_ID_T10_VEND_ID] = "t10_vend_id",
	[VDISK_ID_PROD_ID] = "prod_id",
	[VDISK_ID_PROD_REV_LVL] = "prod_rev_lvl",
	[VDISK_ID_T10_DEV_ID] = "t10_dev_id",
	[VDISK_ID_USN] = "usn",
	[VDISK_ID_VEND_SPECIFIC_ID] = "vend_specific_id",
	[VDISK_ID_SCSI_DEVICE_NAME] = "scsi_device_name",
	[VDISK_ID_EUI64_ID] = "eui64_id",
	[VDISK_ID_NAA_ID] = "naa_id",
};

#define VDISK_ID_PARAMS "t10_vend_id", "prod_id", "prod_rev_lvl", \
	"t10_dev_id", "usn", "vend_specific_id", "scsi_device_name", \
	"eui64_id", "naa_id"

/*
 * Accepted only to be refused by name with the reason
 * (vdisk_unsupported_param()), so that a file written for SCST says what
 * is missing rather than "unknown parameter"
 */
#define VDISK_REFUSED_PARAMS "dif_mode", "dif_type", "dif_static_app_tag"

const char *const vdisk_blockio_params[] = {
	"filename", "blocksize", "read_only", "nv_cache", "write_through",
	"thin_provisioned", "rotational", "removable", VDISK_ID_PARAMS,
	"active", "bind_alua_state", "numa_node_id", "lb_per_pb_exp",
	"opt_trans_len", "cluster_mode", VDISK_REFUSED_PARAMS, "dif_filename",
	NULL,
};

const char *const vdisk_fileio_params[] = {
	"filename", "blocksize", "read_only", "nv_cache", "write_through",
	"o_direct", "async", "thin_provisioned", "rotational", "removable",
	VDISK_ID_PARAMS, "active", "numa_node_id", "lb_per_pb_exp",
	"opt_trans_len", "cluster_mode", VDISK_REFUSED_PARAMS, "dif_filename",
	NULL,
};

const char *const vdisk_nullio_params[] = {
	"size", "size_mb", "blocksize", "read_only", "thin_provisioned",
	"rotational", "removable", VDISK_ID_PARAMS, "dummy", "read_zero",
	"numa_node_id", "lb_per_pb_exp", "opt_trans_len", "cluster_mode",
	VDISK_REFUSED_PARAMS, NULL,
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

/* ---------------------------------------------------------------------- */
/* Identity                                                               */
/* ---------------------------------------------------------------------- */

/**
 * vdisk_id_attr_name() - the sysfs and add_device name of an attribute
 * @a: the attribute
 *
 * Return: its name, or NULL for an unknown @a.
 */
const char *vdisk_id_attr_name(enum vdisk_id_attr a)
{
	return (unsigned int)a < VDISK_ID_NR ? vdisk_id_names[a] : NULL;
}

/**
 * vdisk_id_attr_find() - the identity attribute of a name
 * @name: e.g. "t10_dev_id"
 *
 * Return: its enum vdisk_id_attr, or -ENOENT.
 */
int vdisk_id_attr_find(const char *name)
{
	int a;

	for (a = 0; a < VDISK_ID_NR; a++)
		if (!strcmp(vdisk_id_names[a], name))
			return a;
	return -ENOENT;
}

/* The string attributes: where each lives and its longest length */
static char *vdisk_id_str(struct vdisk_identity *id, enum vdisk_id_attr a,
			  size_t *max)
{
	switch (a) {
	case VDISK_ID_T10_VEND_ID:
		*max = VDISK_T10_VEND_ID_LEN;
		return id->t10_vend_id;
	case VDISK_ID_PROD_ID:
		*max = VDISK_PROD_ID_LEN;
		return id->prod_id;
	case VDISK_ID_PROD_REV_LVL:
		*max = VDISK_PROD_REV_LEN;
		return id->prod_rev_lvl;
	case VDISK_ID_T10_DEV_ID:
		*max = VDISK_T10_DEV_ID_LEN;
		return id->t10_dev_id;
	case VDISK_ID_USN:
		*max = VDISK_USN_LEN;
		return id->usn;
	case VDISK_ID_VEND_SPECIFIC_ID:
		*max = VDISK_VEND_SPEC_ID_LEN;
		return id->vend_specific_id;
	case VDISK_ID_SCSI_DEVICE_NAME:
		*max = VDISK_SCSI_NAME_LEN;
		return id->scsi_device_name;
	default:
		return NULL;
	}
}

static int vdisk_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * A designator in hex, "0x" optional, as SCST takes eui64_id and naa_id:
 * EUI-64 (SPC-4 7.8.6.5) 8, 12 or 16 bytes; NAA (SPC-4 7.8.6.6) 8 bytes
 * of NAA 2, 3 or 5 or 16 bytes of NAA 6. Empty: no such designator.
 */
static int vdisk_parse_desig(const char *v, bool naa, u8 *out, u8 *len,
			     const char **why)
{
	size_t n, i;
	int hi, lo;

	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		v += 2;
	n = strlen(v);
	if (!n) {
		*len = 0;
		return 0;
	}
	if (naa ? n != 16 && n != 32 : n != 16 && n != 24 && n != 32) {
		*why = naa ? "not 16 or 32 hex digits" :
			     "not 16, 24 or 32 hex digits";
		return -EINVAL;
	}
	if (naa && (n == 16 ? v[0] != '2' && v[0] != '3' && v[0] != '5' :
			      v[0] != '6')) {
		*why = "NAA 2, 3 or 5 takes 16 hex digits, NAA 6 takes 32";
		return -EINVAL;
	}
	for (i = 0; i < n; i += 2) {
		hi = vdisk_hex_digit(v[i]);
		lo = vdisk_hex_digit(v[i + 1]);
		if (hi < 0 || lo < 0) {
			*why = "not hex";
			return -EINVAL;
		}
		out[i / 2] = (u8)(hi << 4 | lo);
	}
	*len = (u8)(n / 2);
	return 0;
}

/**
 * vdisk_identity_set() - set one identity attribute from its text
 * @id: the identity; unchanged on failure
 * @a: the attribute
 * @val: the value, without a newline: printable ASCII (SPC-4 4.4.1) of at
 *	most the attribute's length, or for eui64_id and naa_id hex digits
 *	("" removes the designator)
 * @err: receives why @val is refused
 * @errlen: size of @err
 *
 * Return: 0 or -EINVAL.
 */
int vdisk_identity_set(struct vdisk_identity *id, enum vdisk_id_attr a,
		       const char *val, char *err, size_t errlen)
{
	u8 desig[VDISK_DESIG_ID_MAX], dlen = 0;
	const char *why = NULL, *c;
	size_t max, n;
	char *str;

	if ((unsigned int)a >= VDISK_ID_NR) {
		snprintf(err, errlen, "unknown attribute");
		return -EINVAL;
	}
	if (a == VDISK_ID_EUI64_ID || a == VDISK_ID_NAA_ID) {
		if (vdisk_parse_desig(val, a == VDISK_ID_NAA_ID, desig, &dlen,
				      &why)) {
			snprintf(err, errlen, "%s", why);
			return -EINVAL;
		}
		if (a == VDISK_ID_EUI64_ID) {
			memcpy(id->eui64_id, desig, dlen);
			id->eui64_len = dlen;
		} else {
			memcpy(id->naa_id, desig, dlen);
			id->naa_len = dlen;
		}
		if (dlen)
			id->set |= 1u << a;
		else
			id->set &= ~(1u << a);
		return 0;
	}
	str = vdisk_id_str(id, a, &max);
	n = strlen(val);
	if (n > max) {
		snprintf(err, errlen, "longer than %zu characters", max);
		return -EINVAL;
	}
	for (c = val; *c; c++) {
		if (*c < 0x20 || *c > 0x7e) {
			snprintf(err, errlen, "not printable ASCII");
			return -EINVAL;
		}
	}
	/* zero-filled: the default EUI-64 takes the first 8 bytes as they are */
	memset(str, 0, max + 1);
	memcpy(str, val, n);
	id->set |= 1u << a;
	return 0;
}

static int vdisk_hex_out(char *buf, size_t len, const u8 *b, u8 n)
{
	int w = 0;
	u8 i;

	if (!n)
		return snprintf(buf, len, "%s", "");
	w = snprintf(buf, len, "0x");
	for (i = 0; i < n && w >= 0 && (size_t)w < len; i++)
		w += snprintf(buf + w, len - w, "%02x", b[i]);
	return w;
}

/**
 * vdisk_identity_show() - the text of one identity attribute
 * @id: the identity
 * @a: the attribute
 * @buf: receives the text, NUL-terminated, no newline
 * @len: size of @buf
 *
 * Return: what snprintf() returns, or -EINVAL for an unknown @a.
 */
int vdisk_identity_show(const struct vdisk_identity *id,
			enum vdisk_id_attr a, char *buf, size_t len)
{
	size_t max;
	const char *str;

	if (a == VDISK_ID_EUI64_ID)
		return vdisk_hex_out(buf, len, id->eui64_id, id->eui64_len);
	if (a == VDISK_ID_NAA_ID)
		return vdisk_hex_out(buf, len, id->naa_id, id->naa_len);
	str = vdisk_id_str((struct vdisk_identity *)id, a, &max);
	if (!str)
		return -EINVAL;
	return snprintf(buf, len, "%s", str);
}

/**
 * vdisk_identity_defaults() - fill what the user did not give, as SCST
 * @id: the identity, with what add_device gave (@id->set)
 * @name: the device name
 * @id_num: the device's number: setup_id << 32 | CRC32C of the name
 * @vendor: the handler's T10 vendor ("SCST_BIO", "SCST_FIO")
 *
 * SCST 3.11's rules, so that a migrated device keeps its identity: the
 * product is the name's first 16 characters, the T10 device ID
 * "<id_num in hex>-<name>" (25 characters at most), the serial number
 * @id_num in hex, and the T10 vendor ID designator's vendor specific part
 * that default T10 device ID, also when t10_dev_id itself was given.
 */
void vdisk_identity_defaults(struct vdisk_identity *id, const char *name,
			     u64 id_num, const char *vendor)
{
	char t10[VDISK_T10_DEV_ID_LEN + 1] = "";
	char usn[VDISK_USN_LEN + 1] = "";
	char err[8];
	const char *def[VDISK_ID_NR] = { };
	char prod[VDISK_PROD_ID_LEN + 1] = "";
	int a;

	snprintf(t10, sizeof(t10), "%llx-%s", (unsigned long long)id_num,
		 name);
	snprintf(usn, sizeof(usn), "%llx", (unsigned long long)id_num);
	snprintf(prod, sizeof(prod), "%s", name);
	def[VDISK_ID_T10_VEND_ID] = vendor;
	def[VDISK_ID_PROD_ID] = prod;
	def[VDISK_ID_PROD_REV_LVL] = VDISK_DEF_PROD_REV;
	def[VDISK_ID_T10_DEV_ID] = t10;
	def[VDISK_ID_USN] = usn;
	def[VDISK_ID_VEND_SPECIFIC_ID] = t10;
	def[VDISK_ID_SCSI_DEVICE_NAME] = "";
	for (a = 0; a < VDISK_ID_NR; a++) {
		if (!def[a] || (id->set & (1u << a)))
			continue;
		/* a name with other than printable ASCII leaves it empty */
		if (vdisk_identity_set(id, a, def[a], err, sizeof(err)))
			vdisk_identity_set(id, a, "", err, sizeof(err));
		id->set &= ~(1u << a);
	}
}

/**
 * vdisk_identity_eui64() - the EUI-64 designator of VPD page 83h
 * @id: the identity
 * @out: receives its bytes
 *
 * eui64_id when set; else, when naa_id is not set either, SCST's
 * "compatibility" EUI-64: the first 8 bytes of t10_dev_id as they are
 * (zeros past its end). Hosts of an SCST target key on that one (udev's
 * scsi_id takes it ahead of the T10 designator), so it stays.
 *
 * Return: its length, 0 for none.
 */
u8 vdisk_identity_eui64(const struct vdisk_identity *id,
			u8 out[VDISK_DESIG_ID_MAX])
{
	if (id->eui64_len) {
		memcpy(out, id->eui64_id, id->eui64_len);
		return id->eui64_len;
	}
	if (id->naa_len)
		return 0;
	memcpy(out, id->t10_dev_id, 8);
	return 8;
}

/* The identity attributes given to add_device */
static int vdisk_params_ident(struct vdisk_params *p, const char *name,
			      const struct scst_mgmt_line *line)
{
	char why[64];
	const char *v;
	int a;

	for (a = 0; a < VDISK_ID_NR; a++) {
		v = scst_mgmt_get_param(line, vdisk_id_names[a]);
		if (v && vdisk_identity_set(&p->ident, a, v, why, sizeof(why)))
			return vdisk_params_fail(p, name, vdisk_id_names[a], v,
						 why);
	}
	return 0;
}

/* The parameters SCST has that we refuse, each with its reason */
static int vdisk_params_refused(struct vdisk_params *p, const char *name,
				const struct scst_mgmt_line *line)
{
	static const char *const keys[] = { VDISK_REFUSED_PARAMS,
					    "dif_filename" };
	const char *v, *why;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		v = scst_mgmt_get_param(line, keys[i]);
		why = v ? vdisk_unsupported_param(keys[i]) : NULL;
		if (why)
			return vdisk_params_fail(p, name, keys[i], v, why);
	}
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
	const char *v, *why;
	u64 bs;
	int ret;

	memset(p, 0, sizeof(*p));
	p->rotational = true;
	p->active = true;
	p->bind_alua_state = true;
	p->numa_node_id = -1;
	p->lb_per_pb_exp = true;
	p->opt_trans_len = VDISK_DEF_OPT_TRANS_LEN;

	ret = vdisk_params_refused(p, name, line);
	if (ret)
		return ret;

	if (kind != VDISK_KIND_NULLIO) {
		v = scst_mgmt_get_param(line, "filename");
		if (!v) {
			snprintf(p->err, sizeof(p->err), "%s: missing filename",
				 name);
			return -EINVAL;
		}
		if (vdisk_check_filename(v, &why))
			return vdisk_params_fail(p, name, "filename", v, why);
		p->filename = v;
	} else {
		ret = vdisk_param_size(p, name, line);
		if (ret)
			return ret;
	}

	v = scst_mgmt_get_param(line, "blocksize");
	if (v) {
		if (scst_mgmt_parse_u64(v, &bs) || vdisk_check_block_size(bs))
			return vdisk_params_fail(p, name, "blocksize", v,
						 "must be a power of two from 512 to 4096");
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
			       NULL) ?:
	      vdisk_param_bool(p, name, line, "active", &p->active, NULL) ?:
	      vdisk_param_bool(p, name, line, "bind_alua_state",
			       &p->bind_alua_state, NULL) ?:
	      vdisk_param_bool(p, name, line, "lb_per_pb_exp",
			       &p->lb_per_pb_exp, NULL) ?:
	      vdisk_param_bool(p, name, line, "read_zero", &p->read_zero,
			       NULL) ?:
	      vdisk_param_bool(p, name, line, "dummy", &p->dummy, NULL) ?:
	      vdisk_param_bool(p, name, line, "cluster_mode", &p->cluster_mode,
			       NULL);
	if (ret)
		return ret;

	v = scst_mgmt_get_param(line, "numa_node_id");
	if (v && vdisk_parse_numa_node(v, &p->numa_node_id, &why))
		return vdisk_params_fail(p, name, "numa_node_id", v, why);
	/*
	 * whole blocks of the smallest size here, of the one the back end
	 * picks when it opens the device
	 */
	v = scst_mgmt_get_param(line, "opt_trans_len");
	if (v) {
		if (vdisk_parse_opt_trans_len(v, p->block_size ?: 512,
					      &p->opt_trans_len, &why))
			return vdisk_params_fail(p, name, "opt_trans_len", v,
						 why);
		p->opt_trans_len_set = true;
	}

	ret = vdisk_params_ident(p, name, line);
	if (ret)
		return ret;
	/* SCST's rule: every node names the device's lockspace after it */
	if (p->cluster_mode && !(p->ident.set & (1u << VDISK_ID_T10_DEV_ID)))
		return vdisk_params_fail(p, name, "cluster_mode", "1",
					 "set t10_dev_id too, the same on every node");
	return 0;
}

/**
 * vdisk_unsupported_param() - why an SCST parameter cannot be honoured
 * @key: the parameter (or attribute) name
 *
 * The dif_* parameters ask for T10 protection information (SBC-3 4.22),
 * which neither the core nor the back ends carry, whatever their value.
 *
 * Return: the reason to log, or NULL when @key is supported.
 */
const char *vdisk_unsupported_param(const char *key)
{
	if (!strncmp(key, "dif_", 4))
		return "T10 protection information (DIF) is not supported";
	return NULL;
}

/**
 * vdisk_check_block_size() - is @bs a logical block size we support
 * @bs: bytes
 *
 * SBC-3 4.4: any power of two from 512 to 4096, as SCST.
 *
 * Return: 0 or -EINVAL.
 */
int vdisk_check_block_size(u64 bs)
{
	if (bs < 512 || bs > 4096 || (bs & (bs - 1)))
		return -EINVAL;
	return 0;
}

/**
 * vdisk_check_filename() - is @v a backing store name
 * @v: the name, without a newline
 * @why: receives why not
 *
 * Return: 0 or -EINVAL.
 */
int vdisk_check_filename(const char *v, const char **why)
{
	if (v[0] != '/') {
		*why = "not an absolute path";
		return -EINVAL;
	}
	if (strlen(v) >= 4096) {
		*why = "longer than 4095 characters";
		return -EINVAL;
	}
	return 0;
}

/**
 * vdisk_parse_opt_trans_len() - the opt_trans_len value
 * @v: bytes, as SCST takes it
 * @block_size: the device's block size; 0 when not known yet (the check
 *	is then made when the device is opened)
 * @out: receives the value
 * @why: receives why @v is refused
 *
 * SBC-3 6.6.4: VPD page B0h reports it in logical blocks, so it must be
 * whole blocks; 0 reports no optimal length.
 *
 * Return: 0 or -EINVAL.
 */
int vdisk_parse_opt_trans_len(const char *v, u32 block_size, u32 *out,
			      const char **why)
{
	u64 val;

	if (scst_mgmt_parse_u64(v, &val) || val > U32_MAX) {
		*why = "not a length in bytes below 4 GiB";
		return -EINVAL;
	}
	if (block_size && (val & (block_size - 1))) {
		*why = "not a multiple of the block size";
		return -EINVAL;
	}
	*out = (u32)val;
	return 0;
}

/**
 * vdisk_parse_numa_node() - the numa_node_id value
 * @v: -1 or a node number
 * @node: receives it
 * @why: receives why @v is refused
 *
 * Return: 0 or -EINVAL.
 */
int vdisk_parse_numa_node(const char *v, int *node, const char **why)
{
	u64 val;

	if (!strcmp(v, "-1")) {
		*node = -1;
		return 0;
	}
	if (scst_mgmt_parse_u64(v, &val) || val >= VDISK_MAX_NUMA_NODES) {
		*why = "not -1 or a NUMA node number";
		return -EINVAL;
	}
	*node = (int)val;
	return 0;
}

/**
 * vdisk_parse_new_size() - a size written to a live device
 * @v: the value of size (@shift 0) or size_mb (@shift 20)
 * @shift: log2 of its unit
 * @block_size: the device's block size
 * @out: receives the size in bytes
 * @why: receives why @v is refused
 *
 * At least one block, whole blocks (SBC-3 4.4), no larger than a loff_t.
 *
 * Return: 0 or -EINVAL.
 */
int vdisk_parse_new_size(const char *v, unsigned int shift, u32 block_size,
			 u64 *out, const char **why)
{
	u64 val;

	if (scst_mgmt_parse_u64(v, &val) || !val ||
	    val > (VDISK_MAX_SIZE >> shift)) {
		*why = shift ? "not a size in MiB" : "not a size in bytes";
		return -EINVAL;
	}
	val <<= shift;
	if (val & (block_size - 1)) {
		*why = "not a multiple of the block size";
		return -EINVAL;
	}
	*out = val;
	return 0;
}

/**
 * vdisk_lbppbe() - LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT
 * @lb_per_pb_exp: the attribute: 0 reports 0
 * @phys_block_size: the backing store's physical block size in bytes
 * @block_size: the logical block size
 *
 * SBC-3 5.16.2 (READ CAPACITY(16) byte 13): log2(physical / logical), 0
 * when the logical block is the larger, as SCST 3.11 computes it.
 *
 * Return: the exponent.
 */
u8 vdisk_lbppbe(bool lb_per_pb_exp, u32 phys_block_size, u32 block_size)
{
	u8 e = 0;

	if (!lb_per_pb_exp || !block_size)
		return 0;
	while (e < 15 && ((u64)block_size << (e + 1)) <= phys_block_size)
		e++;
	return e;
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
	if (vdisk_check_block_size(block_size)) {
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
