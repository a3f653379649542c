// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz scst_core/scst_spc.c: INQUIRY data and VPD pages (SPC-4 §6.6,
 * §7.8, SBC-3 §6.5) for logical units whose parameters come from the
 * input, MODE SENSE and MODE SELECT (SPC-4 §6.11, §6.13, §7.5), UNMAP
 * parameter lists (SBC-3 §5.28), REPORT LUNS, READ CAPACITY and GET LBA
 * STATUS data.
 *
 * Every builder is called twice, with a buffer large enough and with one
 * of a size from the input: the short result must be the start of the
 * long one (SPC-4 §4.2.5.6: data cut to the ALLOCATION LENGTH, never
 * changed), and the returned length must be the one the data's own
 * length field gives.
 *
 * Input: which command (1 byte), short buffer size (2 bytes), then what
 * that command reads (see the functions below).
 */
#include "fuzz.h"
#include <scst_spc.h>

#define BIG	8192

static const struct fuzz_in no_input;

/* A NUL-terminated string of up to @max bytes from the input, or NULL. */
static char *fuzz_str(struct fuzz_in *in, size_t max)
{
	size_t n = fuzz_u8(in);

	if (n == 0xff)
		return NULL;
	n %= max + 1;
	return fuzz_take_str(in, n);
}

/* Run @build into a big and into a short buffer; compare; return length. */
#define BOTH(ret, small_len, call_big, call_small) do {			\
	u8 *big = calloc(1, BIG);					\
	u8 *small = fuzz_take(&(struct fuzz_in){ no_input.p, 0 },	\
			      small_len);				\
	int r2;								\
	u8 *buf = big;							\
	size_t buflen = BIG;						\
									\
	ret = (call_big);						\
	buf = small;							\
	buflen = small_len;						\
	r2 = (call_small);						\
	(void)buf; (void)buflen;					\
	FUZZ_CHECK(ret == r2);						\
	if (ret > 0) {							\
		FUZZ_CHECK(ret <= BIG);					\
		FUZZ_CHECK(!memcmp(big, small, (size_t)ret < small_len ?	\
				   (size_t)ret : small_len));		\
		memcpy(out, big, ret);					\
	}								\
	free(big);							\
	free(small);							\
} while (0)

static void fuzz_inquiry(struct fuzz_in *in, size_t small_len)
{
	struct scst_inq_params p;
	struct scst_cdb_err err;
	u8 cdb[6], *out = calloc(1, BIG);
	char *strs[7];
	u8 *eui, *naa;
	int ret, i;

	memset(&p, 0, sizeof(p));
	p.dev_type = fuzz_u8(in) & 0x1f;
	if (p.dev_type > 1)
		p.dev_type = SCST_TYPE_DISK;
	i = fuzz_u8(in);
	p.removable = i & 1;
	p.piv = i & 2;
	p.thin_provisioned = i & 4;
	p.rotational = i & 8;
	p.write_cache = i & 16;
	p.lbpu = i & 32;
	p.lbpws = i & 64;
	p.lbprz = i & 128;
	p.lbpws10 = p.lbpu && p.lbpws;
	/* designators: buffers of exactly their length, past the cap of 16 */
	p.eui64_len = fuzz_u8(in) & 0x1f;
	eui = fuzz_take(in, p.eui64_len);
	p.eui64 = eui;
	p.naa_len = fuzz_u8(in) & 0x1f;
	naa = fuzz_take(in, p.naa_len);
	p.naa = naa;
	p.rel_tgt_id = fuzz_u16(in);
	p.tpg_id = fuzz_u16(in);
	p.protocol_id = fuzz_u8(in) & 0xf;
	p.block_size = fuzz_u32(in);
	p.nblocks = fuzz_u64(in);
	p.max_xfer_len = fuzz_u32(in);
	p.opt_xfer_len = fuzz_u32(in);
	p.opt_xfer_gran = fuzz_u16(in);
	p.max_unmap_lba_count = fuzz_u32(in);
	p.max_unmap_desc = fuzz_u32(in);
	p.unmap_gran = fuzz_u32(in);
	p.unmap_gran_align = fuzz_u32(in);
	p.max_ws_len = fuzz_u64(in);
	p.max_cw_len = fuzz_u8(in);
	p.transport_vd = fuzz_u16(in);
	for (i = 0; i < 7; i++)
		strs[i] = fuzz_str(in, i < 3 ? 20 : 300);
	p.vendor = strs[0] ? strs[0] : "SCST_NG";
	p.product = strs[1] ? strs[1] : "fuzz";
	p.revision = strs[2] ? strs[2] : "1";
	p.unit_serial = strs[3];
	p.t10_vend_spec = strs[4];
	p.tgt_port_name = strs[5];
	p.dev_scsi_name = strs[6];
	for (i = 0; i < 6; i++)
		cdb[i] = fuzz_u8(in);
	cdb[0] = SCST_OP_INQUIRY;

	BOTH(ret, small_len,
	     scst_build_inquiry(cdb, sizeof(cdb), &p, buf, buflen, &err),
	     scst_build_inquiry(cdb, sizeof(cdb), &p, buf, buflen, &err));
	if (ret < 0) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK(err.sense_code == SCST_SENSE_INVALID_FIELD_IN_CDB);
		FUZZ_CHECK(!err.has_field || err.byte < sizeof(cdb));
	} else if (cdb[1] & 1) {
		/* VPD: PAGE LENGTH + 4; designators inside the page. */
		FUZZ_CHECK(ret >= 4 && out[1] == cdb[2]);
		FUZZ_CHECK(get_unaligned_be16(out + 2) + 4 == ret);
		FUZZ_CHECK((out[0] & 0x1f) == p.dev_type);
		if (cdb[2] == SCST_VPD_DEVICE_ID) {
			int off = 4;

			while (off < ret) {
				FUZZ_CHECK(off + 4 <= ret);
				off += 4 + out[off + 3];
			}
			FUZZ_CHECK(off == ret);
		}
	} else {
		/* Standard data: ADDITIONAL LENGTH + 5. */
		FUZZ_CHECK(ret == SCST_INQ_STD_LEN && out[4] + 5 == ret);
		FUZZ_CHECK((out[0] & 0x1f) == p.dev_type);
	}
	for (i = 0; i < 7; i++)
		free(strs[i]);
	free(eui);
	free(naa);
	free(out);
}

static void fuzz_mode_params(struct fuzz_in *in, struct scst_mode_params *p)
{
	u8 f = fuzz_u8(in);

	p->wce = f & 1;
	p->rcd = f & 2;
	p->d_sense = f & 4;
	p->swp = f & 8;
	p->tas = f & 16;
	p->read_only = f & 32;
	p->dpofua = f & 64;
	p->def_wce = f & 128;
	f = fuzz_u8(in);
	p->tst = f & 1;
	p->queue_alg = (f >> 1) & 1;
	p->def_queue_alg = (f >> 2) & 1;
	p->def_d_sense = f & 8;
	p->def_swp = f & 16;
	/* LOGICAL BLOCK LENGTH is 24 bits in the block descriptors. */
	p->block_size = fuzz_u32(in) & 0xffffff;
	p->nblocks = fuzz_u64(in);
}

/*
 * MODE SENSE of every current page, changeable fields flipped as the
 * input says, sent back with MODE SELECT: accepted (SPC-4 §6.9: the
 * device server takes what MODE SENSE shows), changing exactly the
 * flipped fields, and MODE SENSE then shows the new data.
 */
static void fuzz_mode_roundtrip(struct fuzz_in *in,
				const struct scst_mode_params *p, bool ten,
				bool dbd)
{
	u8 cdb[10] = { 0 }, *cur = calloc(1, BIG), *chg = calloc(1, BIG);
	u8 *again = calloc(1, BIG);
	struct scst_mode_params q = *p;
	struct scst_cdb_err err;
	size_t hdr = ten ? 8 : 4, off, bdl;
	int len, len2, ret;

	cdb[0] = ten ? SCST_OP_MODE_SENSE_10 : SCST_OP_MODE_SENSE_6;
	cdb[1] = dbd ? 0x08 : 0;
	cdb[2] = SCST_MODE_PAGE_ALL;
	len = scst_build_mode_sense(cdb, sizeof(cdb), p, cur, BIG, &err);
	cdb[2] = 0x40 | SCST_MODE_PAGE_ALL;	/* changeable values */
	len2 = scst_build_mode_sense(cdb, sizeof(cdb), p, chg, BIG, &err);
	FUZZ_CHECK(len > 0 && len == len2);
	bdl = ten ? get_unaligned_be16(cur + 6) : cur[3];
	for (off = hdr + bdl; off < (size_t)len; off += cur[off + 1] + 2) {
		u8 *pg = cur + off, *m = chg + off;
		size_t i;

		FUZZ_CHECK(off + 2 <= (size_t)len &&
			   off + 2 + pg[1] <= (size_t)len);
		for (i = 2; i < (size_t)pg[1] + 2; i++) {
			u8 mask = m[i];

			/* QUEUE ALGORITHM MODIFIER: only 0 and 1 are ours. */
			if ((pg[0] & 0x3f) == SCST_MODE_PAGE_CONTROL && i == 3)
				mask &= 0x10;
			pg[i] ^= fuzz_u8(in) & mask;
		}
	}
	/* MODE DATA LENGTH is reserved in MODE SELECT (SPC-4 §7.5.5). */
	if (ten)
		put_unaligned_be16(0, cur);
	else
		cur[0] = 0;

	memset(cdb, 0, sizeof(cdb));
	cdb[0] = ten ? SCST_OP_MODE_SELECT_10 : SCST_OP_MODE_SELECT_6;
	cdb[1] = 0x10;				/* PF */
	if (ten)
		put_unaligned_be16(len, cdb + 7);
	else
		cdb[4] = len;
	ret = scst_parse_mode_select(cdb, sizeof(cdb), cur, len, &q, &err);
	if (ret < 0)
		fprintf(stderr, "MODE SELECT of MODE SENSE data refused: byte %u bit %d\n",
			err.byte, err.bit);
	FUZZ_CHECK(ret >= 0);
	FUZZ_CHECK(!!(ret & SCST_MODE_CHANGED_WCE) == (p->wce != q.wce));
	FUZZ_CHECK(!!(ret & SCST_MODE_CHANGED_D_SENSE) ==
		   (p->d_sense != q.d_sense));
	FUZZ_CHECK(!!(ret & SCST_MODE_CHANGED_SWP) == (p->swp != q.swp));
	FUZZ_CHECK(!!(ret & SCST_MODE_CHANGED_QUEUE_ALG) ==
		   (p->queue_alg != q.queue_alg));

	memset(cdb, 0, sizeof(cdb));
	cdb[0] = ten ? SCST_OP_MODE_SENSE_10 : SCST_OP_MODE_SENSE_6;
	cdb[1] = dbd ? 0x08 : 0;
	cdb[2] = SCST_MODE_PAGE_ALL;
	FUZZ_CHECK(scst_build_mode_sense(cdb, sizeof(cdb), &q, again, BIG,
					 &err) == len);
	/* The pages (not the header: WP follows SWP) are what was sent. */
	FUZZ_CHECK(!memcmp(again + hdr + bdl, cur + hdr + bdl,
			   len - hdr - bdl));
	free(cur);
	free(chg);
	free(again);
}

static void fuzz_mode(struct fuzz_in *in, size_t small_len)
{
	struct scst_mode_params p, q;
	struct scst_cdb_err err;
	u8 cdb[10], *out = calloc(1, BIG), *data;
	size_t len;
	int ret, i;

	memset(&p, 0, sizeof(p));
	fuzz_mode_params(in, &p);
	for (i = 0; i < 10; i++)
		cdb[i] = fuzz_u8(in);

	if (cdb[0] & 4) {
		fuzz_mode_roundtrip(in, &p, cdb[0] & 2, cdb[0] & 8);
		goto out;
	}
	if (!(cdb[0] & 1)) {
		/* MODE SENSE(6) or (10) */
		cdb[0] = cdb[0] & 2 ? SCST_OP_MODE_SENSE_10 :
			 SCST_OP_MODE_SENSE_6;
		BOTH(ret, small_len,
		     scst_build_mode_sense(cdb, sizeof(cdb), &p, buf, buflen,
					   &err),
		     scst_build_mode_sense(cdb, sizeof(cdb), &p, buf, buflen,
					   &err));
		if (ret < 0) {
			FUZZ_CHECK(ret == -EINVAL && err.byte < sizeof(cdb));
		} else if (cdb[0] == SCST_OP_MODE_SENSE_10) {
			FUZZ_CHECK(get_unaligned_be16(out) + 2 == ret);
			FUZZ_CHECK(8 + get_unaligned_be16(out + 6) <= ret);
		} else {
			FUZZ_CHECK(out[0] + 1 == ret && ret <= 256);
			FUZZ_CHECK(4 + out[3] <= ret);
		}
		goto out;
	}

	/* MODE SELECT(6) or (10), parameter list from the input */
	cdb[0] = cdb[0] & 2 ? SCST_OP_MODE_SELECT_10 : SCST_OP_MODE_SELECT_6;
	data = fuzz_rest(in, &len);
	q = p;
	ret = scst_parse_mode_select(cdb, sizeof(cdb), data, len, &q, &err);
	if (ret < 0) {
		/* Nothing is changed unless the whole list is valid. */
		FUZZ_CHECK(ret == -EINVAL && !memcmp(&p, &q, sizeof(p)));
		if (err.has_field && !err.in_cdb)
			FUZZ_CHECK(err.byte < len);
	} else {
		FUZZ_CHECK(!(ret & ~0xf));
		FUZZ_CHECK(!!(ret & SCST_MODE_CHANGED_WCE) == (p.wce != q.wce));
		FUZZ_CHECK(!!(ret & SCST_MODE_CHANGED_D_SENSE) ==
			   (p.d_sense != q.d_sense));
		FUZZ_CHECK(!!(ret & SCST_MODE_CHANGED_SWP) == (p.swp != q.swp));
		FUZZ_CHECK(!!(ret & SCST_MODE_CHANGED_QUEUE_ALG) ==
			   (p.queue_alg != q.queue_alg));
		FUZZ_CHECK(q.queue_alg <= SCST_QUEUE_ALG_UNRESTRICTED);
		/* Only the changeable fields change. */
		p.wce = q.wce;
		p.d_sense = q.d_sense;
		p.swp = q.swp;
		p.queue_alg = q.queue_alg;
		FUZZ_CHECK(!memcmp(&p, &q, sizeof(p)));
	}
	free(data);
out:
	free(out);
}

static void fuzz_unmap(struct fuzz_in *in)
{
	u64 cap = fuzz_u64(in), lba, total = 0;
	u32 max_descs = fuzz_u8(in), max_lba = fuzz_u32(in), nb;
	struct scst_cdb_err err;
	size_t len;
	u8 *data = fuzz_rest(in, &len);
	int n, i;

	n = scst_parse_unmap(data, len, cap, max_descs, max_lba, &err);
	if (n < 0) {
		FUZZ_CHECK(n == -EINVAL);
		FUZZ_CHECK(!err.in_cdb);
		if (err.has_field)
			FUZZ_CHECK(err.byte < len);
		goto out;
	}
	/* The descriptors counted lie in the list and in the capacity. */
	FUZZ_CHECK(len >= SCST_UNMAP_HDR_LEN + (size_t)n * SCST_UNMAP_DESC_LEN
		   || (!len && !n));
	FUZZ_CHECK(!max_descs || (u32)n <= max_descs);
	for (i = 0; i < n; i++) {
		scst_unmap_desc(data, i, &lba, &nb);
		FUZZ_CHECK(lba <= cap && nb <= cap - lba);
		total += nb;
	}
	FUZZ_CHECK(!max_lba || total <= max_lba);
out:
	free(data);
}

static void fuzz_small_builders(struct fuzz_in *in, size_t small_len)
{
	u8 *out = calloc(1, BIG);
	u32 block_size = fuzz_u32(in);
	u64 nblocks = fuzz_u64(in);
	unsigned int nluns = fuzz_u16(in) % 1000, i;
	u64 *luns = calloc(nluns ? nluns : 1, sizeof(*luns));
	u8 lbppbe = fuzz_u8(in);
	int ret;

	for (i = 0; i < nluns; i++)
		luns[i] = fuzz_u16(in);
	BOTH(ret, small_len,
	     scst_build_read_capacity10(block_size, nblocks, buf, buflen),
	     scst_build_read_capacity10(block_size, nblocks, buf, buflen));
	FUZZ_CHECK(ret == SCST_READ_CAP10_LEN);
	FUZZ_CHECK(get_unaligned_be32(out + 4) == block_size);
	BOTH(ret, small_len,
	     scst_build_read_capacity16(block_size, nblocks, lbppbe, true,
					false, buf, buflen),
	     scst_build_read_capacity16(block_size, nblocks, lbppbe, true,
					false, buf, buflen));
	FUZZ_CHECK(ret == SCST_READ_CAP16_LEN);
	FUZZ_CHECK(get_unaligned_be64(out) == (nblocks ? nblocks - 1 : 0));
	BOTH(ret, small_len,
	     scst_build_report_luns(luns, nluns, buf, buflen),
	     scst_build_report_luns(luns, nluns, buf, buflen));
	FUZZ_CHECK(ret == (int)(8 + nluns * 8));
	FUZZ_CHECK(get_unaligned_be32(out) == nluns * 8);
	BOTH(ret, small_len,
	     scst_build_lba_status(nblocks, block_size, lbppbe & 3, buf,
				   buflen),
	     scst_build_lba_status(nblocks, block_size, lbppbe & 3, buf,
				   buflen));
	FUZZ_CHECK(ret == SCST_LBA_STATUS_LEN);
	FUZZ_CHECK(get_unaligned_be32(out) + 4 == SCST_LBA_STATUS_LEN);
	/* SPC-4 §6.6.2: PERIPHERAL QUALIFIER 011b, no logical unit. */
	BOTH(ret, small_len, scst_build_inquiry_no_lun(buf, buflen),
	     scst_build_inquiry_no_lun(buf, buflen));
	FUZZ_CHECK(ret >= 36 && out[0] == 0x7f && out[4] + 5 == ret);
	free(luns);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	u8 which = fuzz_u8(&in);
	size_t small_len = fuzz_u16(&in) % 1024;

	switch (which & 3) {
	case 0:
		fuzz_inquiry(&in, small_len);
		break;
	case 1:
		fuzz_mode(&in, small_len);
		break;
	case 2:
		fuzz_unmap(&in);
		break;
	default:
		fuzz_small_builders(&in, small_len);
		break;
	}
	return 0;
}
