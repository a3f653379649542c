// SPDX-License-Identifier: GPL-2.0-only
/*
 * LUN addressing, SAM-5 §4.7: the 8-byte LUN structure of a command's
 * logical unit number and of REPORT LUNS data.
 *
 * We use single level LUNs only: the peripheral device addressing method
 * (SAM-5 §4.7.7, ADDRESS METHOD 00b, BUS IDENTIFIER 0) for LUNs below 256
 * and the flat space addressing method (§4.7.8, 01b) for 256 to 16383,
 * as Linux's int_to_scsilun() does. Bytes 2-7 (the second to fourth level
 * addressing fields) are zero.
 */

#include <scst_spc.h>

/* SAM-5 §4.7.6 table 11: ADDRESS METHOD, bits 7-6 of byte 0. */
#define LUN_AM_MASK		0xc0
#define LUN_AM_PERIPHERAL	0x00
#define LUN_AM_FLAT		0x40

/* Longest LUN structure, SAM-5 §4.7.2. */
#define LUN_LEN			8

/**
 * scst_lun_decode() - decode a single level LUN structure
 * @lun: the LUN structure as received
 * @len: its length: 2 to 8 bytes (missing bytes are taken as zero)
 * @out: receives the logical unit number
 *
 * Accepts the peripheral device addressing method with BUS IDENTIFIER
 * zero and the flat space addressing method. Any other address method
 * (logical unit, extended: well known LUNs included), a non-zero bus
 * identifier and a non-zero second, third or fourth level are refused.
 *
 * Return: 0, or -EINVAL.
 */
int scst_lun_decode(const u8 *lun, unsigned int len, u64 *out)
{
	unsigned int i;

	if (len < 2 || len > LUN_LEN)
		return -EINVAL;
	for (i = 2; i < len; i++)
		if (lun[i])
			return -EINVAL;

	switch (lun[0] & LUN_AM_MASK) {
	case LUN_AM_PERIPHERAL:
		if (lun[0])
			return -EINVAL;
		*out = lun[1];
		return 0;
	case LUN_AM_FLAT:
		*out = (u64)(lun[0] & 0x3f) << 8 | lun[1];
		return 0;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_GPL(scst_lun_decode);

/**
 * scst_lun_encode() - encode a logical unit number as a LUN structure
 * @lun: logical unit number, at most SCST_LUN_FLAT_MAX
 * @out: receives the 8-byte LUN structure
 *
 * Peripheral device addressing below 256, flat space addressing above.
 * Bits of @lun above the 14 of the flat space method are dropped.
 */
void scst_lun_encode(u64 lun, u8 out[8])
{
	memset(out, 0, LUN_LEN);
	if (lun < 256) {
		out[1] = (u8)lun;
		return;
	}
	out[0] = LUN_AM_FLAT | ((lun >> 8) & 0x3f);
	out[1] = (u8)lun;
}
EXPORT_SYMBOL_GPL(scst_lun_encode);
