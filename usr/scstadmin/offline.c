// SPDX-License-Identifier: GPL-2.0-only
/*
 * scstadmin: what -check_config can say about a file while the modules
 * are not loaded (no management tree to compare with): the handlers
 * scst-ng provides and the DEVICE attributes each of them knows, so that
 * a typo ("filenme") is named with its line before the service starts,
 * not after. The lists are scst-ng's own: the add_device parameters of
 * dev_handlers/vdisk_params.c (tests/unit/test_scstadmin_offline.c checks
 * they agree) and the attributes the core gives every device.
 */
#include <string.h>

#include "scstadmin.h"

/* The core's writable device attributes (scst_core/scst_sysfs_dev.c) */
#define CORE_DEV_ATTRS "threads_num", "threads_pool_type", "max_transfer_kb", \
	"tst", "expl_alua"

/* vdisk: the identity, the geometry, the flags every kind has */
#define VDISK_COMMON "blocksize", "read_only", "thin_provisioned", \
	"rotational", "removable", "t10_vend_id", "prod_id", "prod_rev_lvl", \
	"t10_dev_id", "usn", "vend_specific_id", "scsi_device_name", \
	"eui64_id", "naa_id", "size", "size_mb", "lb_per_pb_exp", \
	"opt_trans_len", "numa_node_id", "cluster_mode", VDISK_REFUSED

/*
 * SCST's attributes scst-ng refuses by name, with offline_refusal()'s
 * reason (what vdisk_unsupported_param() in dev_handlers/vdisk_params.c
 * says; tests/unit/test_scstadmin_offline.c checks they agree)
 */
#define VDISK_REFUSED "dif_mode", "dif_type", "dif_static_app_tag"

static const char *const blockio_attrs[] = {
	CORE_DEV_ATTRS, VDISK_COMMON, "filename", "nv_cache", "write_through",
	"active", "bind_alua_state", "dif_filename", NULL,
};

static const char *const fileio_attrs[] = {
	CORE_DEV_ATTRS, VDISK_COMMON, "filename", "nv_cache", "write_through",
	"o_direct", "async", "active", "dif_filename", NULL,
};

static const char *const nullio_attrs[] = {
	CORE_DEV_ATTRS, VDISK_COMMON, "dummy", "read_zero", NULL,
};

static const char *const disk_attrs[] = {
	CORE_DEV_ATTRS, "cluster_mode", NULL,
};

static const struct {
	const char *handler;
	const char *const *attrs;
} known[] = {
	{ "vdisk_blockio", blockio_attrs },
	{ "vdisk_fileio", fileio_attrs },
	{ "vdisk_nullio", nullio_attrs },
	{ "dev_disk", disk_attrs },
};

/**
 * offline_dev_attrs() - the DEVICE attributes scst-ng knows for a handler
 * @handler: its name
 *
 * Return: a NULL-terminated list, or NULL when scst-ng has no such handler.
 */
const char *const *offline_dev_attrs(const char *handler)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].handler, handler))
			return known[i].attrs;
	return NULL;
}

/**
 * offline_refusal() - why scst-ng cannot honour a DEVICE attribute
 * @key: the attribute
 * @value: its value
 *
 * Return: the reason, or NULL when it is supported (or unknown).
 */
const char *offline_refusal(const char *key, const char *value)
{
	(void)value;
	if (!strncmp(key, "dif_", 4))
		return "T10 protection information (DIF) is not supported";
	return NULL;
}

/**
 * offline_root_refusal() - why scst-ng cannot honour an SCST root attribute
 * @key: the attribute (a word at the top of the file)
 * @value: its value
 *
 * setup_id, cluster_name and measure_latency are honoured; SCST's
 * read-only ones (version, last_sysfs_mgmt_res) and a poll_us of 0 (no
 * polling, what the core does) are accepted and change nothing (root_attr_inert()); the
 * others SCST 3.11 has are refused with what to do.
 *
 * Return: the reason, or NULL when it is supported; "unknown" for one
 *	this table does not name.
 */
const char *offline_root_refusal(const char *key, const char *value)
{
	static const struct {
		const char *key;
		const char *why;
	} refused[] = {
		{ "threads", "the core runs one worker per CPU, placed by cpu_mask and scst-affinity; their number is not set: remove the line" },
		{ "max_tasklet_cmd", "commands never run in tasklet context here: remove the line" },
		{ "poll_us", "the core does not poll before it sleeps (its dispatcher spreads work instead, Documentation/tuning.md): remove the line or set 0" },
		{ "suspend", "there is no global suspend: stop a device's I/O with its active attribute" },
		{ "force_global_sgv_pool", "the data buffers come from the page allocator, there is no SGV pool: remove the line" },
	};

	if (!strcmp(key, "setup_id") || !strcmp(key, "cluster_name") ||
	    !strcmp(key, "measure_latency") ||
	    root_attr_inert(key, value))
		return NULL;
	if (!strncmp(key, "trace_", 6))
		return "SCST's trace flags: tracing here is the kernel's dynamic debug (dyndbg): remove the line";
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(key, refused[i].key))
			return refused[i].why;
	return "unknown";
}

/**
 * root_attr_inert() - an SCST root attribute accepted but without effect
 * @key: the attribute
 * @value: its value
 *
 * Return: true for SCST's read-only root attributes, which its
 *	-write_config never writes but a hand-made file may carry, and for a
 *	poll_us of 0.
 */
bool root_attr_inert(const char *key, const char *value)
{
	if (!strcmp(key, "version") || !strcmp(key, "last_sysfs_mgmt_res"))
		return true;
	return !strcmp(key, "poll_us") && !strcmp(value, "0");
}

/* One warning, with the line, for a root attribute that cannot be honoured */
static int root_refusal(const struct tree *t, const struct attr *a,
			str_vec *warnings)
{
	const char *why = offline_root_refusal(a->key, a->value);

	if (!why)
		return 0;
	if (!strcmp(why, "unknown"))
		*vec_push(warnings) = xasprintf(
			"%s:%d: root attribute '%s' is not scst-ng's (a typo, or an SCST attribute without a counterpart here): remove the line",
			t->src, a->line, a->key);
	else
		*vec_push(warnings) = xasprintf(
			"%s:%d: '%s %s' cannot be honoured: %s",
			t->src, a->line, a->key, a->value, why);
	return 1;
}

/**
 * offline_dev_refusal() - why scst-ng cannot honour a DEVICE attribute of
 *	a handler
 * @handler: the HANDLER
 * @key: the attribute
 * @value: its value
 *
 * offline_refusal()'s reasons, and the core's: vdisk_blockio and
 * vdisk_nullio submit their I/O without a thread (the core refuses any
 * threads_num but 0 for them), where SCST ran their commands in a pool.
 *
 * Return: the reason, or NULL when it is supported (or unknown).
 */
const char *offline_dev_refusal(const char *handler, const char *key,
				const char *value)
{
	if (!strcmp(key, "threads_num") && strcmp(value, "0") &&
	    (!strcmp(handler, "vdisk_blockio") ||
	     !strcmp(handler, "vdisk_nullio")))
		return "this handler submits I/O without threads of its own: threads_num must be 0 here";
	return offline_refusal(key, value);
}

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

/* One warning, with the line, for an attribute that cannot be honoured */
static int refusal(const struct tree *t, const struct handler *h,
		   const struct device *d, const struct attr *a,
		   str_vec *warnings)
{
	const char *why = offline_dev_refusal(h->name, a->key, a->value);

	if (!why)
		return 0;
	*vec_push(warnings) = xasprintf(
		"%s:%d: DEVICE %s of %s: '%s %s' cannot be honoured: %s; remove it from the file (the modules refuse the device)",
		t->src, a->line, d->name, h->name, a->key, a->value, why);
	return 1;
}

/*
 * cluster_mode 1 without t10_dev_id: the handlers refuse it (the lockspace
 * is named after the id, the same on every node; Documentation/ha.md)
 */
static int cluster_without_id(const struct tree *t, const struct handler *h,
			      const struct device *d, str_vec *warnings)
{
	const struct attr *mode = NULL;
	bool id = false;

	for (size_t k = 0; k < d->attrs.n; k++) {
		if (!strcmp(d->attrs.v[k].key, "cluster_mode"))
			mode = &d->attrs.v[k];
		else if (!strcmp(d->attrs.v[k].key, "t10_dev_id"))
			id = true;
	}
	if (!mode || id || strcmp(mode->value, "1"))
		return 0;
	*vec_push(warnings) = xasprintf(
		"%s:%d: DEVICE %s of %s: 'cluster_mode 1' needs 't10_dev_id', the same on every node of the cluster (the modules refuse the device)",
		t->src, mode->line, d->name, h->name);
	return 1;
}

/**
 * conf_check_refusals() - the DEVICE attributes of scst-ng's handlers
 *	that cannot be honoured (DIF, cluster_mode 1 without t10_dev_id); a
 *	root attribute the live tree lacks is a warning of the comparison,
 *	with its reason
 * @t: the parsed file
 * @warnings: receives one line each, with its line and the reason
 *
 * Checked before -config changes anything, so that a file SCST accepted
 * fails with the line rather than half applied with a kernel log line.
 *
 * Return: how many were added.
 */
int conf_check_refusals(const struct tree *t, str_vec *warnings)
{
	int n = 0;

	for (size_t i = 0; i < t->handlers.n; i++) {
		const struct handler *h = t->handlers.v[i];
		const char *const *attrs = offline_dev_attrs(h->name);

		for (size_t j = 0; attrs && j < h->devices.n; j++) {
			const struct device *d = h->devices.v[j];

			for (size_t k = 0; k < d->attrs.n; k++)
				if (in_list(attrs, d->attrs.v[k].key))
					n += refusal(t, h, d, &d->attrs.v[k],
						     warnings);
			n += cluster_without_id(t, h, d, warnings);
		}
	}
	return n;
}

/**
 * conf_check_offline() - check a parsed file against scst-ng's handlers
 * @t: the parsed file
 * @warnings: receives one line per root attribute scst-ng cannot honour
 *	or does not know, per handler scst-ng lacks, per DEVICE attribute its
 *	handler does not know and per one it cannot honour (DIF, cluster_mode
 *	1 without t10_dev_id), each with its line
 *
 * Return: how many warnings were added.
 */
int conf_check_offline(const struct tree *t, str_vec *warnings)
{
	int n = 0;

	for (size_t i = 0; i < t->attrs.n; i++)
		n += root_refusal(t, &t->attrs.v[i], warnings);

	for (size_t i = 0; i < t->handlers.n; i++) {
		const struct handler *h = t->handlers.v[i];
		const char *const *attrs = offline_dev_attrs(h->name);

		if (!attrs) {
			*vec_push(warnings) = xasprintf(
				"%s:%d: HANDLER %s is not provided by scst-ng (vdisk_blockio, vdisk_fileio, vdisk_nullio, dev_disk): its devices cannot be created",
				t->src, h->line, h->name);
			n++;
			continue;
		}
		for (size_t j = 0; j < h->devices.n; j++) {
			const struct device *d = h->devices.v[j];

			for (size_t k = 0; k < d->attrs.n; k++) {
				const struct attr *a = &d->attrs.v[k];
				if (in_list(attrs, a->key)) {
					n += refusal(t, h, d, a, warnings);
					continue;
				}
				*vec_push(warnings) = xasprintf(
					"%s:%d: DEVICE %s of %s: unknown attribute '%s' (a typo? the modules would refuse it)",
					t->src, a->line, d->name, h->name,
					a->key);
				n++;
			}
			n += cluster_without_id(t, h, d, warnings);
		}
	}
	return n;
}
