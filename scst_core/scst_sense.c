// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sense data, SPC-4 §4.5: building it for CHECK CONDITION responses and
 * decoding what a device or an initiator handed us.
 *
 * Both formats are supported. Fixed format (§4.5.3) sense built here is
 * always 18 bytes; descriptor format (§4.5.2) sense is an 8-byte header
 * followed by descriptors appended by the scst_sense_set_*() helpers. The
 * length of sense data is always 8 + ADDITIONAL SENSE LENGTH (byte 7), in
 * both formats, so the helpers take the buffer size and read the current
 * length from the data itself.
 */

#include <scst_logic.h>

/* SPC-4 §4.5.3: fixed format byte offsets. */
#define FIXED_VALID		0x80	/* byte 0: INFORMATION is valid */
#define FIXED_KEY		2
#define FIXED_INFO		3
#define FIXED_ADD_LEN		7
#define FIXED_ASC		12
#define FIXED_ASCQ		13
#define FIXED_SKS		15

/* SPC-4 §4.5.2.1: descriptor format header byte offsets. */
#define DESC_KEY		1
#define DESC_ASC		2
#define DESC_ASCQ		3
#define DESC_ADD_LEN		7

/* SPC-4 §4.5.2.2 and §4.5.2.4.1: descriptor lengths, header included. */
#define DESC_INFO_LEN		12
#define DESC_SKS_LEN		8

/* SPC-4 §4.5.2.4.2: field pointer sense key specific data, byte 0. */
#define SKS_SKSV		0x80
#define SKS_CD			0x40
#define SKS_BPV			0x08

/* ADDITIONAL SENSE LENGTH limit, SPC-4 §4.5.2.1 and §4.5.3. */
#define SENSE_MAX_ADD_LEN	(SCST_SENSE_MAX_LEN - 8)

/*
 * Check the header of the sense data in @buf, of which @len bytes are
 * available, and return its format in *@desc and its length as the data
 * states it (8 + ADDITIONAL SENSE LENGTH) in *@total. *@total may exceed
 * @len: sense data returned to an ALLOCATION LENGTH shorter than itself
 * is truncated with its ADDITIONAL SENSE LENGTH unchanged (SPC-4 §4.2.5).
 */
static int scst_sense_check(const u8 *buf, size_t len, bool *desc,
			    size_t *total)
{
	if (len < 8)
		return -EINVAL;
	switch (buf[0] & 0x7f) {
	case SCST_SENSE_FIXED_CURRENT:
	case SCST_SENSE_FIXED_DEFERRED:
		*desc = false;
		break;
	case SCST_SENSE_DESC_CURRENT:
	case SCST_SENSE_DESC_DEFERRED:
		*desc = true;
		break;
	default:
		return -EINVAL;
	}
	if (buf[FIXED_ADD_LEN] > SENSE_MAX_ADD_LEN)
		return -EINVAL;
	*total = 8 + buf[FIXED_ADD_LEN];
	return 0;
}

/*
 * Walk the descriptor list of descriptor format sense data whose stated
 * length is @total, looking at the first @avail bytes only (@avail <=
 * @total). A descriptor that runs past @total is garbage. A negative
 * @type matches no descriptor and checks the whole list.
 *
 * Return: offset of the first descriptor of @type, -ENOENT if there is
 * none among the bytes available, -EINVAL if the list is malformed.
 */
static int scst_sense_find_desc(const u8 *buf, size_t avail, size_t total,
				int type)
{
	size_t off = SCST_SENSE_DESC_HDR_LEN;

	while (off < avail) {
		if (off + 2 > total)
			return -EINVAL;
		if (off + 2 > avail)
			break;
		if (off + 2 + buf[off + 1] > total)
			return -EINVAL;
		if (buf[off] == type)
			return off;
		off += 2 + buf[off + 1];
	}
	return -ENOENT;
}

/*
 * Check sense data about to be modified in place: it must be complete and
 * well-formed, and the caller may only have built it, never truncated it.
 */
static int scst_sense_check_complete(const u8 *buf, size_t buflen, bool *desc,
				     size_t *total)
{
	int ret = scst_sense_check(buf, buflen, desc, total);

	if (ret)
		return ret;
	if (*total > buflen)
		return -EINVAL;
	if (*desc) {
		ret = scst_sense_find_desc(buf, *total, *total, -1);
		if (ret != -ENOENT)
			return -EINVAL;
	}
	return 0;
}

/*
 * Find the descriptor of @type and length @dlen, or append one at the end
 * of the sense data, zeroed but for its header. Return its offset.
 */
static int scst_sense_get_desc(u8 *buf, size_t buflen, size_t total, u8 type,
			       size_t dlen)
{
	int off = scst_sense_find_desc(buf, total, total, type);

	if (off >= 0)
		return buf[off + 1] + 2 == (int)dlen ? off : -EINVAL;
	if (off != -ENOENT)
		return off;
	if (total + dlen > min_t(size_t, buflen, SCST_SENSE_MAX_LEN))
		return -ENOSPC;
	memset(buf + total, 0, dlen);
	buf[total] = type;
	buf[total + 1] = dlen - 2;
	buf[DESC_ADD_LEN] += dlen;
	return total;
}

/**
 * scst_build_sense() - build sense data for a current error
 * @buf: buffer for the sense data
 * @buflen: size of @buf
 * @descriptor_format: build descriptor format sense data (SPC-4 §4.5.2)
 *	rather than fixed format sense data (SPC-4 §4.5.3)
 * @key: SENSE KEY, SPC-4 §4.5.6
 * @asc: ADDITIONAL SENSE CODE
 * @ascq: ADDITIONAL SENSE CODE QUALIFIER
 *
 * Fixed format: response code 70h, ADDITIONAL SENSE LENGTH 10, 18 bytes.
 * Descriptor format: response code 72h, the 8-byte header and no
 * descriptors yet. Only the bytes of the sense data are written.
 *
 * Return: the length of the sense data, -EINVAL if @key is not a sense
 * key, -ENOSPC if @buf is too small.
 */
int scst_build_sense(u8 *buf, size_t buflen, bool descriptor_format,
		     u8 key, u8 asc, u8 ascq)
{
	if (key > 0x0f)
		return -EINVAL;

	if (descriptor_format) {
		if (buflen < SCST_SENSE_DESC_HDR_LEN)
			return -ENOSPC;
		memset(buf, 0, SCST_SENSE_DESC_HDR_LEN);
		buf[0] = SCST_SENSE_DESC_CURRENT;
		buf[DESC_KEY] = key;
		buf[DESC_ASC] = asc;
		buf[DESC_ASCQ] = ascq;
		return SCST_SENSE_DESC_HDR_LEN;
	}

	if (buflen < SCST_SENSE_FIXED_LEN)
		return -ENOSPC;
	memset(buf, 0, SCST_SENSE_FIXED_LEN);
	buf[0] = SCST_SENSE_FIXED_CURRENT;
	buf[FIXED_KEY] = key;
	buf[FIXED_ADD_LEN] = SCST_SENSE_FIXED_LEN - 8;
	buf[FIXED_ASC] = asc;
	buf[FIXED_ASCQ] = ascq;
	return SCST_SENSE_FIXED_LEN;
}
EXPORT_SYMBOL_GPL(scst_build_sense);

/**
 * scst_sense_set_field_pointer() - say which field of a request is invalid
 * @buf: sense data built by scst_build_sense() with ILLEGAL REQUEST
 * @buflen: size of @buf
 * @in_cdb: the field is in the CDB (C/D = 1), not in the parameter data
 * @byte: FIELD POINTER, the offset of the byte holding the field
 * @bit: BIT POINTER, the leftmost bit of the field (0-7), or -1 if the
 *	whole byte is meant (BPV = 0)
 *
 * Sets the field pointer sense key specific data of SPC-4 §4.5.2.4.2 with
 * SKSV = 1: in bytes 15-17 of fixed format sense data, in a sense key
 * specific descriptor (type 02h, §4.5.2.4.1) of descriptor format sense
 * data, replacing the one present or appending one.
 *
 * Return: the new length of the sense data, -EINVAL if the sense data is
 * malformed or not ILLEGAL REQUEST or @bit is out of range, -ENOSPC if a
 * descriptor does not fit in @buf.
 */
int scst_sense_set_field_pointer(u8 *buf, size_t buflen, bool in_cdb,
				 u16 byte, int bit)
{
	size_t total;
	bool desc;
	u8 *sks;
	int ret;

	if (bit < -1 || bit > 7)
		return -EINVAL;
	ret = scst_sense_check_complete(buf, buflen, &desc, &total);
	if (ret)
		return ret;
	if ((buf[desc ? DESC_KEY : FIXED_KEY] & 0x0f) !=
	    SCST_SK_ILLEGAL_REQUEST)
		return -EINVAL;

	if (desc) {
		ret = scst_sense_get_desc(buf, buflen, total,
					  SCST_SENSE_DESC_KEY_SPECIFIC,
					  DESC_SKS_LEN);
		if (ret < 0)
			return ret;
		sks = buf + ret + 4;
	} else {
		if (total < SCST_SENSE_FIXED_LEN)
			return -EINVAL;
		sks = buf + FIXED_SKS;
	}

	sks[0] = SKS_SKSV | (in_cdb ? SKS_CD : 0);
	if (bit >= 0)
		sks[0] |= SKS_BPV | bit;
	put_unaligned_be16(byte, sks + 1);
	return 8 + buf[FIXED_ADD_LEN];
}
EXPORT_SYMBOL_GPL(scst_sense_set_field_pointer);

/**
 * scst_sense_set_information() - set the INFORMATION field of sense data
 * @buf: sense data built by scst_build_sense()
 * @buflen: size of @buf
 * @info: INFORMATION, e.g. the offset of the first miscompare (SBC-3
 *	COMPARE AND WRITE) or the first LBA in error
 *
 * Fixed format (SPC-4 §4.5.3): bytes 3-6 and the VALID bit. Descriptor
 * format: an information descriptor (type 00h, SPC-4 §4.5.2.2) with its
 * VALID bit, replacing the one present or appending one.
 *
 * Return: the new length of the sense data, -EINVAL if the sense data is
 * malformed, -EOVERFLOW if @info needs more than the 32 bits of the fixed
 * format, -ENOSPC if a descriptor does not fit in @buf.
 */
int scst_sense_set_information(u8 *buf, size_t buflen, u64 info)
{
	size_t total;
	bool desc;
	int ret;

	ret = scst_sense_check_complete(buf, buflen, &desc, &total);
	if (ret)
		return ret;

	if (!desc) {
		if (info > U32_MAX)
			return -EOVERFLOW;
		buf[0] |= FIXED_VALID;
		put_unaligned_be32((u32)info, buf + FIXED_INFO);
		return total;
	}

	ret = scst_sense_get_desc(buf, buflen, total,
				  SCST_SENSE_DESC_INFORMATION, DESC_INFO_LEN);
	if (ret < 0)
		return ret;
	buf[ret + 2] = FIXED_VALID;
	put_unaligned_be64(info, buf + ret + 4);
	return 8 + buf[DESC_ADD_LEN];
}
EXPORT_SYMBOL_GPL(scst_sense_set_information);

/**
 * scst_sense_decode() - extract sense key, ASC and ASCQ from sense data
 * @buf: sense data, fixed or descriptor format, current or deferred
 * @len: number of bytes available in @buf
 * @key: if not NULL, receives the SENSE KEY
 * @asc: if not NULL, receives the ADDITIONAL SENSE CODE
 * @ascq: if not NULL, receives the ADDITIONAL SENSE CODE QUALIFIER
 *
 * Sense data cut short by an allocation length (SPC-4 §4.2.5) is accepted
 * as long as the fields decoded are present: 14 bytes of fixed format
 * data whose ADDITIONAL SENSE LENGTH covers the ASCQ, or the 8-byte header
 * of descriptor format data. Unknown response codes, an ADDITIONAL SENSE
 * LENGTH over 244 and descriptors that run past the stated length are
 * rejected.
 *
 * Return: 0 on success, -EINVAL if @buf does not hold valid sense data.
 */
int scst_sense_decode(const u8 *buf, size_t len, u8 *key, u8 *asc, u8 *ascq)
{
	size_t total;
	bool desc;
	int ret;
	u8 k, a, q;

	ret = scst_sense_check(buf, len, &desc, &total);
	if (ret)
		return ret;

	if (desc) {
		ret = scst_sense_find_desc(buf, min(len, total), total, -1);
		if (ret != -ENOENT)
			return -EINVAL;
		k = buf[DESC_KEY];
		a = buf[DESC_ASC];
		q = buf[DESC_ASCQ];
	} else {
		if (len <= FIXED_ASCQ || total <= FIXED_ASCQ)
			return -EINVAL;
		k = buf[FIXED_KEY];
		a = buf[FIXED_ASC];
		q = buf[FIXED_ASCQ];
	}

	if (key)
		*key = k & 0x0f;
	if (asc)
		*asc = a;
	if (ascq)
		*ascq = q;
	return 0;
}
EXPORT_SYMBOL_GPL(scst_sense_decode);
