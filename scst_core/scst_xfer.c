// SPDX-License-Identifier: GPL-2.0-only
/*
 * The expected transfer and the residual (SAM-5 5.4.1): the transport
 * announces a direction and a length (the SRP data descriptors, the SCSI
 * host's buffer), the CDB asks for its own. Where they differ, the core
 * moves no more than either allows and reports the difference as an
 * underflow or overflow residual (SRP r16a 6.9 DIUNDER/DIOVER,
 * DOUNDER/DOOVER).
 */

#include <scst_sam.h>

/**
 * scst_xfer_fit() - the data buffer for what the transport announced
 * @cdb_dir: the direction the CDB asks for (SCST_DATA_*)
 * @cdb_len: the bytes the CDB asks for
 * @exp_dir: the direction the transport announced
 * @exp_len: the bytes the transport announced
 * @exact_out: the data-out must be exactly @cdb_len bytes (WRITE SAME:
 *	SBC-3 §5.42, §5.43 define its Data-Out Buffer as one logical block)
 * @bufflen: receives the length of the data buffer
 *
 * Data-in beyond the expected length is not sent (overflow); with no
 * data-in buffer announced (none, or data-out only) nothing is sent rather
 * than into the wrong buffer. Data-out shorter than the CDB needs, or not
 * announced at all, cannot be executed; a CDB that asks for no data-out (a
 * TRANSFER LENGTH or PARAMETER LIST LENGTH of 0, which SBC-3 §4.2.2 and
 * SPC-4 §4.2.5.5 say is not an error) needs none announced. More data-out
 * than the CDB needs is an underflow (SAM-5 5.4.1), except with
 * @exact_out.
 *
 * Return: 0 with *@bufflen set; -EINVAL when the data-out the CDB needs is
 * not there or, with @exact_out, is not of its size (INVALID FIELD IN
 * CDB); -EOPNOTSUPP for a direction the core does not support,
 * bidirectional (INVALID COMMAND OPERATION CODE).
 */
int scst_xfer_fit(enum scst_data_direction cdb_dir, u32 cdb_len,
		  enum scst_data_direction exp_dir, u32 exp_len,
		  bool exact_out, u32 *bufflen)
{
	*bufflen = cdb_len;
	switch (cdb_dir) {
	case SCST_DATA_READ:
		if (exp_dir != SCST_DATA_READ)
			*bufflen = 0;
		else if (cdb_len > exp_len)
			*bufflen = exp_len;
		return 0;
	case SCST_DATA_WRITE:
		if (!cdb_len)
			return 0;
		if (cdb_len > exp_len || exp_dir != SCST_DATA_WRITE)
			return -EINVAL;
		if (exact_out && cdb_len != exp_len)
			return -EINVAL;
		return 0;
	case SCST_DATA_NONE:
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}
EXPORT_SYMBOL_GPL(scst_xfer_fit);

/**
 * scst_xfer_resid() - the residual count of a finished command
 * @dir: the direction the CDB asked for
 * @cdb_len: the bytes the CDB asked for
 * @exp_len: the bytes the transport announced
 * @bufflen: the data buffer's length (scst_xfer_fit(), or what the handler
 *	allocated): the data-out moved
 * @resp_len: the data-in the command produced
 * @status: the command's SAM status; data-in of a command that did not end
 *	GOOD does not count as moved
 *
 * Computed in 64 bits: every difference of two u32 lengths fits.
 *
 * Return: positive: underflow, the bytes of the expected transfer that did
 * not move; negative: overflow, the bytes the CDB asked for beyond the
 * expected transfer; 0: exactly the expected transfer moved.
 */
s64 scst_xfer_resid(enum scst_data_direction dir, u32 cdb_len, u32 exp_len,
		    u32 bufflen, u32 resp_len, u8 status)
{
	u32 moved;

	if (cdb_len > exp_len)
		return -(s64)(cdb_len - exp_len);
	moved = dir == SCST_DATA_READ ? resp_len :
		dir == SCST_DATA_WRITE ? bufflen : 0;
	if (status != SCST_STATUS_GOOD && dir == SCST_DATA_READ)
		moved = 0;
	return (s64)exp_len - moved;
}
EXPORT_SYMBOL_GPL(scst_xfer_resid);
