// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz dev_handlers/vdisk_params.c: the add_device parameters written to
 * handlers/vdisk_<h>/mgmt, through the steps the kernel takes
 * (scst_mgmt_parse(), the core's key check, vdisk_params_parse()), and
 * the geometry rules.
 *
 * Input: the handler (1 byte, mod 3), the block size and the backing size
 * for vdisk_geometry() (4 and 8 bytes), then the parameters as written
 * after "add_device d1 ".
 */
#include "fuzz.h"
#include "vdisk_params.h"

#define PREFIX	"add_device d1 "

/*
 * Every identity attribute: set only when given, printable ASCII within
 * its length (designators of a valid length), and its text set again
 * gives the same identity.
 */
static void check_ident(const struct vdisk_identity *id,
			const struct scst_mgmt_line *line)
{
	struct vdisk_identity again = *id;
	char text[VDISK_SCSI_NAME_LEN * 2 + 8], err[80];
	const char *c;
	int a, n;

	FUZZ_CHECK(id->eui64_len == 0 || id->eui64_len == 8 ||
		   id->eui64_len == 12 || id->eui64_len == 16);
	FUZZ_CHECK(id->naa_len == 0 || id->naa_len == 8 || id->naa_len == 16);
	for (a = 0; a < VDISK_ID_NR; a++) {
		const char *given = scst_mgmt_get_param(line,
							vdisk_id_attr_name(a));

		FUZZ_CHECK(!(id->set & 1u << a) || given);
		n = vdisk_identity_show(id, a, text, sizeof(text));
		FUZZ_CHECK(n >= 0 && (size_t)n < sizeof(text));
		for (c = text; *c; c++)
			FUZZ_CHECK(*c >= 0x20 && *c <= 0x7e);
		if (!(id->set & 1u << a)) {
			FUZZ_CHECK(n == 0);
			continue;
		}
		FUZZ_CHECK(!vdisk_identity_set(&again, a, text, err,
					       sizeof(err)));
	}
	FUZZ_CHECK(!memcmp(&again, id, sizeof(again)));
}

static void check_geometry(struct fuzz_in *in)
{
	char err[VDISK_PARAMS_ERR_LEN];
	u32 bs = fuzz_u32(in);
	u64 backing = fuzz_u64(in), size = 0;
	bool size_set = bs & 1;
	int ret;

	bs &= ~1U;
	err[0] = '\0';
	ret = vdisk_geometry("d1", "/x", backing, bs, size_set, &size, err,
			     sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL && !strncmp(err, "d1: ", 4));
		return;
	}
	FUZZ_CHECK(bs >= 512 && bs <= 4096 && !(bs & (bs - 1)));
	FUZZ_CHECK(size && size <= backing && backing - size < bs);
	FUZZ_CHECK(!(size % bs));
	FUZZ_CHECK(!size_set || size == backing);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	enum vdisk_kind kind = (enum vdisk_kind)(fuzz_u8(&in) % 3);
	const char *const *keys = vdisk_kind_params(kind);
	static struct vdisk_params p;
	struct scst_mgmt_line line;
	size_t len, n = 0, plen;
	const char *bad;
	uint8_t *rest;
	char *buf;
	int ret;

	check_geometry(&in);
	rest = fuzz_rest(&in, &plen);
	len = strlen(PREFIX) + plen;
	/* as kmemdup_nul() of the sysfs store buffer: NUL at buf[len] */
	buf = malloc(len + 1);
	if (!buf)
		abort();
	memcpy(buf, PREFIX, strlen(PREFIX));
	memcpy(buf + strlen(PREFIX), rest, plen);
	buf[len] = '\0';
	free(rest);

	FUZZ_CHECK(keys);
	while (keys[n])
		n++;
	if (scst_mgmt_parse(buf, len, 2, &line, &bad) || line.argc != 2 ||
	    scst_mgmt_check_params(&line, keys, n, &bad))
		goto out;

	memset(&p, 0x5a, sizeof(p));
	ret = vdisk_params_parse("d1", kind, &line, &p);
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK(memchr(p.err, '\0', sizeof(p.err)));
		FUZZ_CHECK(!strncmp(p.err, "d1: ", 4));
		FUZZ_CHECK(!strchr(p.err, '\n'));
		goto out;
	}
	if (kind == VDISK_KIND_NULLIO) {
		FUZZ_CHECK(!p.filename);
		FUZZ_CHECK(p.size && p.size <= VDISK_MAX_SIZE);
		FUZZ_CHECK(p.size_set || p.size == VDISK_DEF_NULLIO_MB << 20);
	} else {
		FUZZ_CHECK(p.filename && p.filename[0] == '/');
		FUZZ_CHECK(p.filename == scst_mgmt_get_param(&line,
							       "filename"));
		FUZZ_CHECK(!p.size_set);
	}
	FUZZ_CHECK(p.block_size == 0 ||
		   (p.block_size >= 512 && p.block_size <= 4096 &&
		    !(p.block_size & (p.block_size - 1))));
	/* whole blocks of the block size given, or of 512 */
	FUZZ_CHECK(!(p.opt_trans_len & ((p.block_size ?: 512) - 1)));
	FUZZ_CHECK(p.opt_trans_len_set ==
		   !!scst_mgmt_get_param(&line, "opt_trans_len"));
	FUZZ_CHECK(p.numa_node_id >= -1 &&
		   p.numa_node_id < VDISK_MAX_NUMA_NODES);
	/* what cannot be honoured never gets through */
	FUZZ_CHECK(!scst_mgmt_get_param(&line, "cluster_mode") ||
		   !strcmp(scst_mgmt_get_param(&line, "cluster_mode"), "0"));
	FUZZ_CHECK(!scst_mgmt_get_param(&line, "dif_mode") &&
		   !scst_mgmt_get_param(&line, "dif_type") &&
		   !scst_mgmt_get_param(&line, "dif_static_app_tag") &&
		   !scst_mgmt_get_param(&line, "dif_filename"));
	FUZZ_CHECK(!p.block_size == !scst_mgmt_get_param(&line, "blocksize"));
	FUZZ_CHECK(p.thin_set == !!scst_mgmt_get_param(&line,
						       "thin_provisioned"));
	check_ident(&p.ident, &line);
out:
	free(buf);
	return 0;
}
