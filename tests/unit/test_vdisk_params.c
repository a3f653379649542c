// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for dev_handlers/vdisk_params.c: the add_device parameters of
 * the vdisk handlers and the geometry rules, through the same steps as a
 * write to handlers/<h>/mgmt: scst_mgmt_parse(), the core's check of the
 * keys against the handler's list, then vdisk_params_parse().
 */
#include "unit.h"
#include "vdisk_params.h"

/* Where a line was refused: the stage, and the message to log. */
enum stage { OK, PARSE, KEYS, PARAMS };

struct run {
	char buf[SCST_MGMT_MAX_LINE + 1];
	struct scst_mgmt_line line;
	struct vdisk_params p;
	const char *bad;
};

static unsigned int count(const char *const *list)
{
	unsigned int n = 0;

	while (list[n])
		n++;
	return n;
}

/* "add_device d1 <params>" written to the mgmt file of handler @kind */
static enum stage run(struct run *r, enum vdisk_kind kind, const char *params)
{
	const char *const *keys = vdisk_kind_params(kind);
	int len;

	len = snprintf(r->buf, sizeof(r->buf), "add_device d1 %s\n", params);
	assert_true(len > 0 && (size_t)len < sizeof(r->buf));
	if (scst_mgmt_parse(r->buf, len, 2, &r->line, &r->bad))
		return PARSE;
	assert_int_equal(r->line.argc, 2);
	if (scst_mgmt_check_params(&r->line, keys, count(keys), &r->bad))
		return KEYS;
	/* poison: a failed parse must say so, a good one clear nothing */
	memset(&r->p, 0xa5, sizeof(r->p));
	if (vdisk_params_parse("d1", kind, &r->line, &r->p)) {
		assert_true(r->p.err[0]);
		assert_non_null(memchr(r->p.err, '\0', sizeof(r->p.err)));
		/* one line, naming the device */
		assert_null(strchr(r->p.err, '\n'));
		assert_memory_equal(r->p.err, "d1: ", 4);
		return PARAMS;
	}
	return OK;
}

static void test_defaults(void **state)
{
	struct run r;

	(void)state;
	assert_int_equal(run(&r, VDISK_KIND_BLOCKIO, "filename=/dev/sdb"), OK);
	assert_string_equal(r.p.filename, "/dev/sdb");
	/* the back end picks the block size: the device's logical one */
	assert_int_equal(r.p.block_size, 0);
	assert_false(r.p.size_set);
	assert_false(r.p.read_only || r.p.nv_cache || r.p.write_through ||
		     r.p.o_direct || r.p.async || r.p.thin_provisioned ||
		     r.p.thin_set || r.p.removable);
	assert_true(r.p.rotational);
	assert_int_equal(r.p.ident.set, 0);
	assert_string_equal(r.p.ident.usn, "");
	assert_int_equal(r.p.ident.eui64_len + r.p.ident.naa_len, 0);

	assert_int_equal(run(&r, VDISK_KIND_NULLIO, ""), OK);
	assert_null(r.p.filename);
	assert_int_equal(r.p.size, VDISK_DEF_NULLIO_MB << 20);
	assert_false(r.p.size_set);
}

static void test_all_given(void **state)
{
	struct run r;

	(void)state;
	assert_int_equal(run(&r, VDISK_KIND_FILEIO,
			     "filename=/var/img; blocksize=4096; read_only=1;"
			     "nv_cache=1;write_through=1 o_direct=1 async=1;"
			     "thin_provisioned=0;rotational=0;removable=1;"
			     "t10_vend_id=ACME;prod_id=Disk_1;"
			     "t10_dev_id=0123456789abcdef012345678;"
			     "usn=01234567890123456789"), OK);
	assert_string_equal(r.p.filename, "/var/img");
	assert_int_equal(r.p.block_size, 4096);
	assert_true(r.p.read_only && r.p.nv_cache && r.p.write_through &&
		    r.p.o_direct && r.p.async && r.p.removable);
	assert_false(r.p.thin_provisioned || r.p.rotational);
	assert_true(r.p.thin_set);
	assert_string_equal(r.p.ident.t10_vend_id, "ACME");
	assert_string_equal(r.p.ident.prod_id, "Disk_1");
	/* exactly the longest of each */
	assert_string_equal(r.p.ident.t10_dev_id, "0123456789abcdef012345678");
	assert_string_equal(r.p.ident.usn, "01234567890123456789");
	assert_int_equal(r.p.ident.set,
			 1u << VDISK_ID_T10_VEND_ID | 1u << VDISK_ID_PROD_ID |
			 1u << VDISK_ID_T10_DEV_ID | 1u << VDISK_ID_USN);
	/* cluster_mode with the t10_dev_id every node names the device by */
	assert_int_equal(run(&r, VDISK_KIND_BLOCKIO,
			     "filename=/dev/vda;cluster_mode=1;t10_dev_id=ha1"),
			 OK);
	assert_true(r.p.cluster_mode);
	assert_string_equal(r.p.ident.t10_dev_id, "ha1");
	/* a value may hold '=' (only the first one splits) */
	assert_int_equal(run(&r, VDISK_KIND_BLOCKIO,
			     "filename=/dev/disk/by-id/a=b"), OK);
	assert_string_equal(r.p.filename, "/dev/disk/by-id/a=b");
}

static void test_nullio_size(void **state)
{
	struct run r;

	(void)state;
	assert_int_equal(run(&r, VDISK_KIND_NULLIO, "size=1048576"), OK);
	assert_true(r.p.size_set);
	assert_int_equal(r.p.size, 1048576);
	assert_int_equal(run(&r, VDISK_KIND_NULLIO, "size=0x100000"), OK);
	assert_int_equal(r.p.size, 1048576);
	assert_int_equal(run(&r, VDISK_KIND_NULLIO, "size_mb=2"), OK);
	assert_int_equal(r.p.size, 2 << 20);
	/* the largest sizes that fit a loff_t */
	assert_int_equal(run(&r, VDISK_KIND_NULLIO,
			     "size=9223372036854775807"), OK);
	assert_int_equal(r.p.size, VDISK_MAX_SIZE);
	assert_int_equal(run(&r, VDISK_KIND_NULLIO,
			     "size_mb=8796093022207"), OK);
	assert_int_equal(r.p.size, 8796093022207ULL << 20);
}

struct bad_case {
	enum vdisk_kind kind;
	const char *params;
	enum stage stage;
	const char *msg;	/* the message, or the bad token */
};

static const struct bad_case bad_cases[] = {
	/* the core: unknown keys, per handler, and the syntax */
	{ VDISK_KIND_BLOCKIO, "filename=/a;size=1", KEYS, "size" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;o_direct=1", KEYS, "o_direct" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;async=1", KEYS, "async" },
	{ VDISK_KIND_NULLIO, "filename=/a", KEYS, "filename" },
	{ VDISK_KIND_NULLIO, "nv_cache=1", KEYS, "nv_cache" },
	{ VDISK_KIND_FILEIO, "filename=/a;size_mb=1", KEYS, "size_mb" },
	{ VDISK_KIND_FILEIO, "filename=/a;Blocksize=512", PARSE,
	  "Blocksize=512" },
	{ VDISK_KIND_FILEIO, "filename=/a;blocksize=512;blocksize=512",
	  PARSE, "blocksize=512" },
	{ VDISK_KIND_FILEIO, "filename=/a;blocksize=", PARSE, "blocksize=" },
	{ VDISK_KIND_FILEIO, "filename=/a;read_only", PARSE, "read_only" },
	/* filename */
	{ VDISK_KIND_BLOCKIO, "", PARAMS, "d1: missing filename" },
	{ VDISK_KIND_FILEIO, "read_only=1", PARAMS, "d1: missing filename" },
	{ VDISK_KIND_FILEIO, "filename=dev/sdb", PARAMS,
	  "d1: filename=dev/sdb: not an absolute path" },
	{ VDISK_KIND_BLOCKIO, "filename=./x", PARAMS,
	  "d1: filename=./x: not an absolute path" },
	/* blocksize: a power of two from 512 to 4096 (SBC-3 4.4) */
	{ VDISK_KIND_BLOCKIO, "filename=/a;blocksize=0", PARAMS,
	  "d1: blocksize=0: must be a power of two from 512 to 4096" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;blocksize=1000", PARAMS,
	  "d1: blocksize=1000: must be a power of two from 512 to 4096" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;blocksize=256", PARAMS,
	  "d1: blocksize=256: must be a power of two from 512 to 4096" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;blocksize=1536", PARAMS,
	  "d1: blocksize=1536: must be a power of two from 512 to 4096" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;blocksize=511", PARAMS,
	  "d1: blocksize=511: must be a power of two from 512 to 4096" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;blocksize=8192", PARAMS,
	  "d1: blocksize=8192: must be a power of two from 512 to 4096" },
	{ VDISK_KIND_NULLIO, "blocksize=4097", PARAMS,
	  "d1: blocksize=4097: must be a power of two from 512 to 4096" },
	/* not octal, as kstrtou64(.., 0, ..) would read it */
	{ VDISK_KIND_NULLIO, "blocksize=01000", PARAMS,
	  "d1: blocksize=01000: must be a power of two from 512 to 4096" },
	{ VDISK_KIND_NULLIO, "blocksize=-512", PARAMS,
	  "d1: blocksize=-512: must be a power of two from 512 to 4096" },
	{ VDISK_KIND_NULLIO, "blocksize=512x", PARAMS,
	  "d1: blocksize=512x: must be a power of two from 512 to 4096" },
	/* 2^64 + 512: no wrap to 512 */
	{ VDISK_KIND_NULLIO, "blocksize=18446744073709552128", PARAMS,
	  "d1: blocksize=18446744073709552128: must be a power of two from 512 to 4096" },
	{ VDISK_KIND_NULLIO, "blocksize=0x10000000000000200", PARAMS,
	  "d1: blocksize=0x10000000000000200: must be a power of two from 512 to 4096" },
	/* booleans */
	{ VDISK_KIND_FILEIO, "filename=/a;read_only=2", PARAMS,
	  "d1: read_only=2: the value must be 0 or 1" },
	{ VDISK_KIND_FILEIO, "filename=/a;nv_cache=yes", PARAMS,
	  "d1: nv_cache=yes: the value must be 0 or 1" },
	{ VDISK_KIND_FILEIO, "filename=/a;write_through=01", PARAMS,
	  "d1: write_through=01: the value must be 0 or 1" },
	{ VDISK_KIND_FILEIO, "filename=/a;o_direct=true", PARAMS,
	  "d1: o_direct=true: the value must be 0 or 1" },
	{ VDISK_KIND_FILEIO, "filename=/a;async=-1", PARAMS,
	  "d1: async=-1: the value must be 0 or 1" },
	{ VDISK_KIND_NULLIO, "thin_provisioned=Y", PARAMS,
	  "d1: thin_provisioned=Y: the value must be 0 or 1" },
	{ VDISK_KIND_NULLIO, "rotational=10", PARAMS,
	  "d1: rotational=10: the value must be 0 or 1" },
	{ VDISK_KIND_NULLIO, "removable=0x1", PARAMS,
	  "d1: removable=0x1: the value must be 0 or 1" },
	/* identity strings: length and printable ASCII (SPC-4 4.4.1) */
	{ VDISK_KIND_NULLIO, "t10_vend_id=123456789", PARAMS,
	  "d1: t10_vend_id=123456789: longer than 8 characters" },
	{ VDISK_KIND_NULLIO, "prod_id=0123456789abcdefg", PARAMS,
	  "d1: prod_id=0123456789abcdefg: longer than 16 characters" },
	{ VDISK_KIND_NULLIO, "t10_dev_id=0123456789abcdef0123456789", PARAMS,
	  "d1: t10_dev_id=0123456789abcdef0123456789: longer than 25 characters" },
	{ VDISK_KIND_NULLIO, "usn=012345678901234567890", PARAMS,
	  "d1: usn=012345678901234567890: longer than 20 characters" },
	{ VDISK_KIND_NULLIO, "usn=abc\xe9", PARAMS,
	  "d1: usn=abc\xe9: not printable ASCII" },
	{ VDISK_KIND_NULLIO, "prod_id=\x80", PARAMS,
	  "d1: prod_id=\x80: not printable ASCII" },
	{ VDISK_KIND_NULLIO, "prod_rev_lvl=12345", PARAMS,
	  "d1: prod_rev_lvl=12345: longer than 4 characters" },
	/* designators in hex: SPC-4 7.8.6.5 EUI-64, 7.8.6.6 NAA */
	{ VDISK_KIND_NULLIO, "eui64_id=0x0011223344556677889", PARAMS,
	  "d1: eui64_id=0x0011223344556677889: not 16, 24 or 32 hex digits" },
	{ VDISK_KIND_NULLIO, "eui64_id=001122334455667g", PARAMS,
	  "d1: eui64_id=001122334455667g: not hex" },
	{ VDISK_KIND_NULLIO, "naa_id=6001122334455667", PARAMS,
	  "d1: naa_id=6001122334455667: NAA 2, 3 or 5 takes 16 hex digits, NAA 6 takes 32" },
	{ VDISK_KIND_NULLIO, "naa_id=500112233445566700112233445566zz", PARAMS,
	  "d1: naa_id=500112233445566700112233445566zz: NAA 2, 3 or 5 takes 16 hex digits, NAA 6 takes 32" },
	{ VDISK_KIND_NULLIO, "naa_id=60011223344556670011223344556z", PARAMS,
	  "d1: naa_id=60011223344556670011223344556z: not 16 or 32 hex digits" },
	{ VDISK_KIND_NULLIO, "naa_id=60011223344556670011223344556zzz", PARAMS,
	  "d1: naa_id=60011223344556670011223344556zzz: not hex" },
	/* nullio size */
	{ VDISK_KIND_NULLIO, "size=1;size_mb=1", PARAMS,
	  "d1: size=1 and size_mb=1: give only one" },
	{ VDISK_KIND_NULLIO, "size=0", PARAMS,
	  "d1: size=0: not a size in bytes" },
	{ VDISK_KIND_NULLIO, "size=1k", PARAMS,
	  "d1: size=1k: not a size in bytes" },
	{ VDISK_KIND_NULLIO, "size=9223372036854775808", PARAMS,
	  "d1: size=9223372036854775808: not a size in bytes" },
	{ VDISK_KIND_NULLIO, "size=18446744073709551616", PARAMS,
	  "d1: size=18446744073709551616: not a size in bytes" },
	{ VDISK_KIND_NULLIO, "size_mb=0", PARAMS,
	  "d1: size_mb=0: not a size in MiB" },
	/* size_mb << 20 must not overflow a loff_t */
	{ VDISK_KIND_NULLIO, "size_mb=8796093022208", PARAMS,
	  "d1: size_mb=8796093022208: not a size in MiB" },
	{ VDISK_KIND_NULLIO, "size_mb=17592186044416", PARAMS,
	  "d1: size_mb=17592186044416: not a size in MiB" },
	/* the SCST knobs: booleans, numbers and their limits */
	{ VDISK_KIND_FILEIO, "filename=/a;active=2", PARAMS,
	  "d1: active=2: the value must be 0 or 1" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;bind_alua_state=on", PARAMS,
	  "d1: bind_alua_state=on: the value must be 0 or 1" },
	{ VDISK_KIND_NULLIO, "lb_per_pb_exp=3", PARAMS,
	  "d1: lb_per_pb_exp=3: the value must be 0 or 1" },
	{ VDISK_KIND_NULLIO, "read_zero=-1", PARAMS,
	  "d1: read_zero=-1: the value must be 0 or 1" },
	{ VDISK_KIND_NULLIO, "dummy=01", PARAMS,
	  "d1: dummy=01: the value must be 0 or 1" },
	{ VDISK_KIND_NULLIO, "numa_node_id=1024", PARAMS,
	  "d1: numa_node_id=1024: not -1 or a NUMA node number" },
	{ VDISK_KIND_NULLIO, "numa_node_id=-2", PARAMS,
	  "d1: numa_node_id=-2: not -1 or a NUMA node number" },
	{ VDISK_KIND_NULLIO, "numa_node_id=x", PARAMS,
	  "d1: numa_node_id=x: not -1 or a NUMA node number" },
	{ VDISK_KIND_NULLIO, "opt_trans_len=4294967296", PARAMS,
	  "d1: opt_trans_len=4294967296: not a length in bytes below 4 GiB" },
	{ VDISK_KIND_NULLIO, "opt_trans_len=-1", PARAMS,
	  "d1: opt_trans_len=-1: not a length in bytes below 4 GiB" },
	{ VDISK_KIND_NULLIO, "blocksize=4096;opt_trans_len=6144", PARAMS,
	  "d1: opt_trans_len=6144: not a multiple of the block size" },
	{ VDISK_KIND_NULLIO, "opt_trans_len=100", PARAMS,
	  "d1: opt_trans_len=100: not a multiple of the block size" },
	/* per handler, as SCST's lists */
	{ VDISK_KIND_NULLIO, "active=1", KEYS, "active" },
	{ VDISK_KIND_FILEIO, "filename=/a;bind_alua_state=1", KEYS,
	  "bind_alua_state" },
	{ VDISK_KIND_FILEIO, "filename=/a;dummy=1", KEYS, "dummy" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;read_zero=1", KEYS, "read_zero" },
	{ VDISK_KIND_NULLIO, "dif_filename=/a", KEYS, "dif_filename" },
	/* cluster_mode: the nodes name the device after its t10_dev_id */
	{ VDISK_KIND_BLOCKIO, "filename=/a;cluster_mode=1", PARAMS,
	  "d1: cluster_mode=1: set t10_dev_id too, the same on every node" },
	{ VDISK_KIND_NULLIO, "cluster_mode=yes", PARAMS,
	  "d1: cluster_mode=yes: the value must be 0 or 1" },
	/* SCST's that cannot be honoured: refused by name, with the reason */
	{ VDISK_KIND_FILEIO, "filename=/a;dif_mode=dev_check", PARAMS,
	  "d1: dif_mode=dev_check: T10 protection information (DIF) is not supported" },
	{ VDISK_KIND_NULLIO, "dif_type=1", PARAMS,
	  "d1: dif_type=1: T10 protection information (DIF) is not supported" },
	{ VDISK_KIND_NULLIO, "dif_static_app_tag=0x1234", PARAMS,
	  "d1: dif_static_app_tag=0x1234: T10 protection information (DIF) is not supported" },
	{ VDISK_KIND_BLOCKIO, "filename=/a;dif_filename=/b", PARAMS,
	  "d1: dif_filename=/b: T10 protection information (DIF) is not supported" },
	/* ... before any other value is looked at */
	{ VDISK_KIND_BLOCKIO, "filename=a;dif_mode=dev_check", PARAMS,
	  "d1: dif_mode=dev_check: T10 protection information (DIF) is not supported" },
	/* the first bad parameter in the handler's order is named */
	{ VDISK_KIND_NULLIO, "usn=\xff;read_only=3", PARAMS,
	  "d1: read_only=3: the value must be 0 or 1" },
};

static void test_bad(void **state)
{
	unsigned int i;
	struct run r;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		enum stage st = run(&r, c->kind, c->params);

		if (st != c->stage)
			fail_msg("case %u '%s': stage %d, expected %d", i,
				 c->params, st, c->stage);
		/* the message, or the token the core names */
		assert_string_equal(st == PARAMS ? r.p.err : r.bad, c->msg);
	}
}

/* A value too long for the message is cut, never written past err[]. */
static void test_long_value(void **state)
{
	static char params[SCST_MGMT_MAX_LINE];
	struct run r;

	(void)state;
	memcpy(params, "filename=", 9);
	memset(params + 9, 'x', 3000);
	params[3009] = '\0';
	assert_int_equal(run(&r, VDISK_KIND_FILEIO, params), PARAMS);
	assert_int_equal(strlen(r.p.err), VDISK_PARAMS_ERR_LEN - 1);
	assert_memory_equal(r.p.err, "d1: filename=xxx", 16);
}

static void test_geometry(void **state)
{
	char err[VDISK_PARAMS_ERR_LEN];
	u64 size;

	(void)state;
	assert_int_equal(vdisk_geometry("d1", "/a", 1 << 20, 512, false,
					&size, err, sizeof(err)), 0);
	assert_int_equal(size, 1 << 20);
	/* a backing file is cut to whole blocks */
	assert_int_equal(vdisk_geometry("d1", "/a", 10000, 4096, false, &size,
					err, sizeof(err)), 0);
	assert_int_equal(size, 8192);
	assert_int_equal(vdisk_geometry("d1", "/a", VDISK_MAX_SIZE, 4096,
					false, &size, err, sizeof(err)), 0);
	assert_int_equal(size, VDISK_MAX_SIZE & ~4095ULL);
	/* a size given must be */
	assert_int_equal(vdisk_geometry("d1", "size", 10000, 4096, true,
					&size, err, sizeof(err)), -EINVAL);
	assert_string_equal(err,
			    "d1: size 10000 is not a multiple of the block size 4096");
	assert_int_equal(vdisk_geometry("d1", "size", 4096, 4096, true, &size,
					err, sizeof(err)), 0);
	assert_int_equal(size, 4096);
	/* less than a block */
	assert_int_equal(vdisk_geometry("d1", "/a", 4095, 4096, false, &size,
					err, sizeof(err)), -EINVAL);
	assert_string_equal(err,
			    "d1: /a is smaller than one block of 4096 bytes");
	assert_int_equal(vdisk_geometry("d1", "/a", 0, 512, false, &size,
					err, sizeof(err)), -EINVAL);
	/* a block size a back end picked: power of two, 512..4096 */
	assert_int_equal(vdisk_geometry("d1", "/a", 1 << 20, 8192, false,
					&size, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "d1: block size 8192 of /a is not supported");
	assert_int_equal(vdisk_geometry("d1", "/a", 1 << 20, 256, false,
					&size, err, sizeof(err)), -EINVAL);
	assert_int_equal(vdisk_geometry("d1", "/a", 1 << 20, 0, false,
					&size, err, sizeof(err)), -EINVAL);
	assert_int_equal(vdisk_geometry("d1", "/a", 1 << 20, 1536, false,
					&size, err, sizeof(err)), -EINVAL);
	assert_int_equal(vdisk_geometry("d1", "/a", 1 << 20, 2048, false,
					&size, err, sizeof(err)), 0);
}

/* The SCST 3.11 knobs: defaults, and good values of each */
static void test_scst_knobs(void **state)
{
	struct run r;

	(void)state;
	assert_int_equal(run(&r, VDISK_KIND_BLOCKIO, "filename=/dev/sdb"), OK);
	/* SCST's defaults */
	assert_true(r.p.active && r.p.bind_alua_state && r.p.lb_per_pb_exp);
	assert_int_equal(r.p.numa_node_id, -1);
	assert_int_equal(r.p.opt_trans_len, 524288);
	assert_false(r.p.opt_trans_len_set || r.p.read_zero || r.p.dummy);
	assert_int_equal(run(&r, VDISK_KIND_BLOCKIO,
			     "filename=/dev/sdb;active=0;bind_alua_state=0;"
			     "numa_node_id=0;lb_per_pb_exp=0;"
			     "opt_trans_len=0x100000;cluster_mode=0"), OK);
	assert_false(r.p.active || r.p.bind_alua_state || r.p.lb_per_pb_exp);
	assert_int_equal(r.p.numa_node_id, 0);
	assert_int_equal(r.p.opt_trans_len, 1 << 20);
	assert_true(r.p.opt_trans_len_set);
	assert_int_equal(run(&r, VDISK_KIND_NULLIO,
			     "read_zero=1;dummy=1;numa_node_id=1023;"
			     "blocksize=2048;opt_trans_len=0"), OK);
	assert_true(r.p.read_zero && r.p.dummy);
	assert_int_equal(r.p.numa_node_id, 1023);
	assert_int_equal(r.p.block_size, 2048);
	assert_int_equal(r.p.opt_trans_len, 0);
	assert_int_equal(run(&r, VDISK_KIND_NULLIO, "blocksize=1024"), OK);
	assert_int_equal(r.p.block_size, 1024);
	/* the largest length in whole blocks of 512 bytes */
	assert_int_equal(run(&r, VDISK_KIND_FILEIO,
			     "filename=/a;opt_trans_len=4294966784"), OK);
	assert_int_equal(r.p.opt_trans_len, U32_MAX & ~511U);
}

/* The checks of the values written to a live device's attributes */
static void test_live_values(void **state)
{
	const char *why = NULL;
	u32 otl = 7;
	u64 size = 7;
	int node = 7;

	(void)state;
	assert_int_equal(vdisk_parse_opt_trans_len("8192", 4096, &otl, &why),
			 0);
	assert_int_equal(otl, 8192);
	assert_int_equal(vdisk_parse_opt_trans_len("4608", 4096, &otl, &why),
			 -EINVAL);
	assert_string_equal(why, "not a multiple of the block size");
	assert_int_equal(otl, 8192);
	assert_int_equal(vdisk_parse_opt_trans_len("", 512, &otl, &why),
			 -EINVAL);
	assert_int_equal(vdisk_parse_numa_node("-1", &node, &why), 0);
	assert_int_equal(node, -1);
	assert_int_equal(vdisk_parse_numa_node("-0", &node, &why), -EINVAL);
	assert_int_equal(node, -1);
	/* size (bytes) and size_mb (MiB): whole blocks, at least one */
	assert_int_equal(vdisk_parse_new_size("1048576", 0, 4096, &size,
					      &why), 0);
	assert_int_equal(size, 1 << 20);
	assert_int_equal(vdisk_parse_new_size("3", 20, 4096, &size, &why), 0);
	assert_int_equal(size, 3 << 20);
	assert_int_equal(vdisk_parse_new_size("1536", 0, 1024, &size, &why),
			 -EINVAL);
	assert_string_equal(why, "not a multiple of the block size");
	assert_int_equal(size, 3 << 20);
	assert_int_equal(vdisk_parse_new_size("0", 0, 512, &size, &why),
			 -EINVAL);
	assert_string_equal(why, "not a size in bytes");
	assert_int_equal(vdisk_parse_new_size("0", 20, 512, &size, &why),
			 -EINVAL);
	assert_string_equal(why, "not a size in MiB");
	assert_int_equal(vdisk_parse_new_size("8796093022207", 20, 512, &size,
					      &why), 0);
	assert_int_equal(vdisk_parse_new_size("8796093022208", 20, 512, &size,
					      &why), -EINVAL);
	assert_int_equal(vdisk_parse_new_size("9223372036854775808", 0, 512,
					      &size, &why), -EINVAL);
	assert_int_equal(vdisk_parse_new_size("1M", 0, 512, &size, &why),
			 -EINVAL);
	/* filename: absolute */
	assert_int_equal(vdisk_check_filename("/srv/a.img", &why), 0);
	assert_int_equal(vdisk_check_filename("a.img", &why), -EINVAL);
	assert_string_equal(why, "not an absolute path");
	assert_int_equal(vdisk_check_filename("", &why), -EINVAL);
	/* what the refusals say, and what is accepted */
	assert_null(vdisk_unsupported_param("cluster_mode"));
	assert_non_null(vdisk_unsupported_param("dif_mode"));
	assert_null(vdisk_unsupported_param("read_zero"));
	assert_int_equal(vdisk_check_block_size(2048), 0);
	assert_int_equal(vdisk_check_block_size(3072), -EINVAL);
	assert_int_equal(vdisk_check_block_size(8192), -EINVAL);
}

/* SBC-3 5.16.2 byte 13, as SCST 3.11 derives it */
static void test_lbppbe(void **state)
{
	(void)state;
	/* fileio and nullio: a 4096-byte physical block is assumed */
	assert_int_equal(vdisk_lbppbe(true, 4096, 512), 3);
	assert_int_equal(vdisk_lbppbe(true, 4096, 1024), 2);
	assert_int_equal(vdisk_lbppbe(true, 4096, 2048), 1);
	assert_int_equal(vdisk_lbppbe(true, 4096, 4096), 0);
	/* blockio: the block device's physical block */
	assert_int_equal(vdisk_lbppbe(true, 512, 512), 0);
	assert_int_equal(vdisk_lbppbe(true, 512, 4096), 0);
	assert_int_equal(vdisk_lbppbe(true, 65536, 512), 7);
	assert_int_equal(vdisk_lbppbe(true, 0, 512), 0);
	assert_int_equal(vdisk_lbppbe(true, 0x80000000U, 512), 15);
	/* lb_per_pb_exp=0: always 0 */
	assert_int_equal(vdisk_lbppbe(false, 4096, 512), 0);
	assert_int_equal(vdisk_lbppbe(true, 4096, 0), 0);
}

static void test_lists(void **state)
{
	(void)state;
	assert_ptr_equal(vdisk_kind_params(VDISK_KIND_BLOCKIO),
			 vdisk_blockio_params);
	assert_ptr_equal(vdisk_kind_params(VDISK_KIND_FILEIO),
			 vdisk_fileio_params);
	assert_ptr_equal(vdisk_kind_params(VDISK_KIND_NULLIO),
			 vdisk_nullio_params);
	assert_null(vdisk_kind_params((enum vdisk_kind)3));
	/* what handlers/<h>/mgmt lists, in SCST's order */
	assert_int_equal(count(vdisk_blockio_params), 27);
	assert_int_equal(count(vdisk_fileio_params), 28);
	assert_int_equal(count(vdisk_nullio_params), 25);
	assert_string_equal(vdisk_fileio_params[5], "o_direct");
}

/*
 * SCST 3.11's identity of a device "disk01" (setup_id 0, CRC32C of
 * "disk01\0" 0x27cddc71): what its hosts key on must not change.
 */
static void test_identity_scst_defaults(void **state)
{
	struct vdisk_identity id = { };
	char buf[80];
	u8 eui[VDISK_DESIG_ID_MAX];

	(void)state;
	vdisk_identity_defaults(&id, "disk01", 0x27cddc71, "SCST_BIO");
	assert_string_equal(id.t10_vend_id, "SCST_BIO");
	assert_string_equal(id.prod_id, "disk01");
	assert_string_equal(id.prod_rev_lvl, "3110");
	assert_string_equal(id.t10_dev_id, "27cddc71-disk01");
	assert_string_equal(id.usn, "27cddc71");
	assert_string_equal(id.vend_specific_id, "27cddc71-disk01");
	assert_string_equal(id.scsi_device_name, "");
	assert_int_equal(id.set, 0);
	/* the "compatibility" EUI-64: the first 8 bytes of t10_dev_id */
	assert_int_equal(vdisk_identity_eui64(&id, eui), 8);
	assert_memory_equal(eui, "27cddc71", 8);

	/* no leading zeros; a setup_id in the upper half */
	memset(&id, 0, sizeof(id));
	vdisk_identity_defaults(&id, "disk03", 0x88ec9f, "SCST_FIO");
	assert_string_equal(id.t10_dev_id, "88ec9f-disk03");
	assert_int_equal(vdisk_identity_eui64(&id, eui), 8);
	assert_memory_equal(eui, "88ec9f-d", 8);
	memset(&id, 0, sizeof(id));
	vdisk_identity_defaults(&id, "disk01", 0x123427cddc71ULL, "SCST_FIO");
	assert_string_equal(id.t10_dev_id, "123427cddc71-disk01");
	assert_string_equal(id.usn, "123427cddc71");

	/* long names: product 16 characters, t10_dev_id 25 */
	memset(&id, 0, sizeof(id));
	vdisk_identity_defaults(&id, "a_very_long_device_name_indeed",
				0xd3123ac5, "SCST_FIO");
	assert_string_equal(id.prod_id, "a_very_long_devi");
	assert_string_equal(id.t10_dev_id, "d3123ac5-a_very_long_devi");

	/* what the user gave stays; vend_specific_id is the default one */
	memset(&id, 0, sizeof(id));
	assert_int_equal(vdisk_identity_set(&id, VDISK_ID_T10_DEV_ID, "abc",
					    buf, sizeof(buf)), 0);
	vdisk_identity_defaults(&id, "disk01", 0x27cddc71, "SCST_BIO");
	assert_string_equal(id.t10_dev_id, "abc");
	assert_string_equal(id.vend_specific_id, "27cddc71-disk01");
	assert_int_equal(id.set, 1u << VDISK_ID_T10_DEV_ID);
	/* shorter than 8: zeros after it */
	assert_int_equal(vdisk_identity_eui64(&id, eui), 8);
	assert_memory_equal(eui, "abc\0\0\0\0\0", 8);
}

static void test_identity_designators(void **state)
{
	static const u8 e8[] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
				 0x77 };
	struct vdisk_identity id = { };
	u8 eui[VDISK_DESIG_ID_MAX];
	char buf[80];

	(void)state;
	vdisk_identity_defaults(&id, "disk01", 0x27cddc71, "SCST_BIO");
	assert_int_equal(vdisk_identity_set(&id, VDISK_ID_EUI64_ID,
					    "0x0011223344556677", buf,
					    sizeof(buf)), 0);
	assert_int_equal(vdisk_identity_eui64(&id, eui), 8);
	assert_memory_equal(eui, e8, 8);
	assert_int_equal(vdisk_identity_show(&id, VDISK_ID_EUI64_ID, buf,
					     sizeof(buf)), 18);
	assert_string_equal(buf, "0x0011223344556677");
	/* 12 and 16 bytes, upper case, no 0x */
	assert_int_equal(vdisk_identity_set(&id, VDISK_ID_EUI64_ID,
					    "00112233445566778899AABB", buf,
					    sizeof(buf)), 0);
	assert_int_equal(id.eui64_len, 12);
	assert_int_equal(id.eui64_id[11], 0xbb);
	/* NAA alone: no EUI-64 at all (SCST) */
	assert_int_equal(vdisk_identity_set(&id, VDISK_ID_EUI64_ID, "", buf,
					    sizeof(buf)), 0);
	assert_false(id.set & 1u << VDISK_ID_EUI64_ID);
	assert_int_equal(vdisk_identity_set(&id, VDISK_ID_NAA_ID,
					    "60014050000000020000000027cddc71",
					    buf, sizeof(buf)), 0);
	assert_int_equal(id.naa_len, 16);
	assert_int_equal(id.naa_id[0], 0x60);
	assert_int_equal(vdisk_identity_eui64(&id, eui), 0);
	assert_int_equal(vdisk_identity_set(&id, VDISK_ID_NAA_ID,
					    "5001122334455667", buf,
					    sizeof(buf)), 0);
	assert_int_equal(id.naa_len, 8);
	vdisk_identity_show(&id, VDISK_ID_NAA_ID, buf, sizeof(buf));
	assert_string_equal(buf, "0x5001122334455667");
	/* a refused value changes nothing */
	assert_int_equal(vdisk_identity_set(&id, VDISK_ID_NAA_ID, "5x", buf,
					    sizeof(buf)), -EINVAL);
	assert_int_equal(id.naa_len, 8);
	assert_int_equal(vdisk_identity_set(&id, VDISK_ID_PROD_ID,
					    "0123456789abcdefg", buf,
					    sizeof(buf)), -EINVAL);
	assert_string_equal(buf, "longer than 16 characters");
	assert_string_equal(id.prod_id, "disk01");
	/* every attribute by name, and back */
	assert_int_equal(vdisk_id_attr_find("scsi_device_name"),
			 VDISK_ID_SCSI_DEVICE_NAME);
	assert_int_equal(vdisk_id_attr_find("filename"), -ENOENT);
	assert_string_equal(vdisk_id_attr_name(VDISK_ID_PROD_REV_LVL),
			    "prod_rev_lvl");
	assert_null(vdisk_id_attr_name(VDISK_ID_NR));
	assert_int_equal(vdisk_identity_set(&id, VDISK_ID_SCSI_DEVICE_NAME,
					    "iqn.2026-12.org.example:d1", buf,
					    sizeof(buf)), 0);
	vdisk_identity_show(&id, VDISK_ID_SCSI_DEVICE_NAME, buf, sizeof(buf));
	assert_string_equal(buf, "iqn.2026-12.org.example:d1");
}

int main(void)
{
	const UNIT_TEST_LIST(tests) = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_identity_scst_defaults),
		cmocka_unit_test(test_identity_designators),
		cmocka_unit_test(test_all_given),
		cmocka_unit_test(test_nullio_size),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_long_value),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_scst_knobs),
		cmocka_unit_test(test_live_values),
		cmocka_unit_test(test_lbppbe),
		cmocka_unit_test(test_lists),
	};

	return cmocka_run_group_tests_name("vdisk_params", tests, NULL, NULL);
}
