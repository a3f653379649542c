// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reservation rules of a logical unit: SPC-2 RESERVE(6/10) and
 * RELEASE(6/10) (SPC-2 7.17, 7.21). One I_T nexus holds the whole logical
 * unit; element and third-party reservations are not supported.
 * Persistent reservations (SPC-4 5.9) are beside these, in scst_pr.c.
 */

#include <scst_res.h>

/* SPC-2 7.17.1, 7.21.1: RESERVE(10)/RELEASE(10) byte 1 bit 4, 3RDPTY. */
#define SPC2_RES_3RDPTY		0x10

/**
 * scst_spc2_check_cdb() - refuse what the SPC-2 emulation does not do
 * @cdb: a RESERVE or RELEASE CDB, decoded by scst_cdb_decode() (which
 *	refused the extent and LongID bits)
 * @cdb_len: its length
 * @err: receives the error
 *
 * Return: 0, or -EINVAL (INVALID FIELD IN CDB on 3RDPTY) with @err set.
 */
int scst_spc2_check_cdb(const u8 *cdb, unsigned int cdb_len,
			struct scst_cdb_err *err)
{
	if (cdb_len >= 2 &&
	    (cdb[0] == SCST_OP_RESERVE_10 || cdb[0] == SCST_OP_RELEASE_10) &&
	    (cdb[1] & SPC2_RES_3RDPTY))
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 1, 4);
	return 0;
}
EXPORT_SYMBOL_GPL(scst_spc2_check_cdb);

/**
 * scst_spc2_res_conflict() - whether a command meets an SPC-2 reservation
 * @res: the logical unit's reservation
 * @nexus: the I_T nexus the command came through
 * @cdb_flags: the command's SCST_CDB_* flags: the decoder's table marks
 *	with SCST_CDB_RESV_ALLOWED what another nexus may still do (INQUIRY,
 *	REPORT LUNS, REQUEST SENSE, and RELEASE, which then changes nothing)
 *
 * Return: true when the command is to end with RESERVATION CONFLICT.
 */
bool scst_spc2_res_conflict(const struct scst_spc2_res *res,
			    const void *nexus, u32 cdb_flags)
{
	return res->holder && res->holder != nexus &&
	       !(cdb_flags & SCST_CDB_RESV_ALLOWED);
}
EXPORT_SYMBOL_GPL(scst_spc2_res_conflict);

/**
 * scst_spc2_reserve() - RESERVE the logical unit for @nexus
 * @res: the logical unit's reservation
 * @nexus: the I_T nexus asking
 *
 * A nexus may reserve again what it holds (SPC-2 7.21.1).
 *
 * Return: 0, or -EBUSY (RESERVATION CONFLICT) when another nexus holds it.
 */
int scst_spc2_reserve(struct scst_spc2_res *res, const void *nexus)
{
	if (res->holder && res->holder != nexus)
		return -EBUSY;
	res->holder = nexus;
	return 0;
}
EXPORT_SYMBOL_GPL(scst_spc2_reserve);

/**
 * scst_spc2_release() - RELEASE, or the loss of an I_T nexus
 * @res: the logical unit's reservation
 * @nexus: the I_T nexus releasing, or gone
 *
 * Only the holder's release ends the reservation; another nexus's RELEASE
 * is GOOD and changes nothing (SPC-2 7.17.1).
 */
void scst_spc2_release(struct scst_spc2_res *res, const void *nexus)
{
	if (res->holder == nexus)
		res->holder = NULL;
}
EXPORT_SYMBOL_GPL(scst_spc2_release);

/**
 * scst_spc2_res_clear() - a logical unit reset ends the reservation
 * @res: the logical unit's reservation
 *
 * SAM-5 6.3.3, SPC-2 5.5.1.
 */
void scst_spc2_res_clear(struct scst_spc2_res *res)
{
	res->holder = NULL;
}
EXPORT_SYMBOL_GPL(scst_spc2_res_clear);

/**
 * scst_admit_decide() - which condition an arriving command is told of
 * @c: the conditions it meets
 *
 * SAM-5 5.3.2: RESERVATION CONFLICT takes precedence over CHECK
 * CONDITION, so a command that conflicts does not report (and clear) a
 * pending unit attention: the preempted nexus of a PREEMPT gets
 * RESERVATION CONFLICT for its WRITE, and REGISTRATIONS PREEMPTED with
 * its next command that the reservation allows (SPC-4 5.9.11.4; fence
 * agents and failover clusters rely on the WRITE being refused). Among
 * the CHECK CONDITIONs the unit attention comes first (SAM-5 5.14), then
 * the ALUA state of the port (SPC-4 5.16.2.4; it also outranks a
 * conflict, as a standby port refuses the command whoever holds the
 * logical unit), then an error in the CDB; a logical unit whose
 * persistent reservation state is unknown is not ready for any command
 * that passed all of these.
 *
 * Return: SCST_ADMIT_*.
 */
enum scst_admit scst_admit_decide(const struct scst_admit_conds *c)
{
	bool conflict = !c->cdb_err && c->res == SCST_RES_CONFLICT;

	if (c->ua && !conflict)
		return SCST_ADMIT_UA;
	if (c->alua)
		return SCST_ADMIT_ALUA;
	if (c->cdb_err)
		return SCST_ADMIT_CDB_ERR;
	if (conflict)
		return SCST_ADMIT_CONFLICT;
	if (c->res == SCST_RES_NOT_READY)
		return SCST_ADMIT_NOT_READY;
	return SCST_ADMIT_GO;
}
EXPORT_SYMBOL_GPL(scst_admit_decide);
