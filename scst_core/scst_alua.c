// SPDX-License-Identifier: GPL-2.0-only
/*
 * Asymmetric logical unit access (SPC-4 5.16), the parts that are
 * computation on bytes: state names, REPORT TARGET PORT GROUPS data
 * (SPC-4 6.36), SET TARGET PORT GROUPS parameter lists (SPC-4 6.44) and
 * the commands each asymmetric access state admits (SPC-4 5.16.2.4).
 * The groups themselves are in the kernel glue: their model in scst_dg.c,
 * their sysfs tree in scst_sysfs_dg.c, their lock and the commands in
 * scst_alua_cmd.c.
 */

#include <scst_alua.h>

/*
 * SCST's words for the states (scst_tg.c of SCST, and scstadmin's
 * DEVICE_GROUP configuration): what device_groups/<dg>/target_groups/<tg>/
 * state shows and takes.
 */
static const struct {
	u8 state;
	const char *name;
} scst_alua_names[] = {
	{ SCST_ALUA_ACTIVE, "active" },
	{ SCST_ALUA_NONOPTIMIZED, "nonoptimized" },
	{ SCST_ALUA_STANDBY, "standby" },
	{ SCST_ALUA_UNAVAILABLE, "unavailable" },
	{ SCST_ALUA_OFFLINE, "offline" },
	{ SCST_ALUA_TRANSITIONING, "transitioning" },
};

/**
 * scst_alua_state_from_name() - the state SCST's word names
 * @name: a NUL-terminated word, e.g. "standby"
 *
 * Return: the SCST_ALUA_* state, or -EINVAL for any other word.
 */
int scst_alua_state_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scst_alua_names); i++)
		if (strcmp(scst_alua_names[i].name, name) == 0)
			return scst_alua_names[i].state;
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(scst_alua_state_from_name);

/**
 * scst_alua_state_name() - SCST's word for a state
 * @state: an SCST_ALUA_* state
 *
 * Return: the word, or NULL for a state we do not support (LBA dependent,
 * reserved values).
 */
const char *scst_alua_state_name(u8 state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scst_alua_names); i++)
		if (scst_alua_names[i].state == state)
			return scst_alua_names[i].name;
	return NULL;
}
EXPORT_SYMBOL_GPL(scst_alua_state_name);

/* ---------------------------------------------------------------------- */
/* REPORT TARGET PORT GROUPS, SPC-4 6.36                                  */
/* ---------------------------------------------------------------------- */

/* SPC-4 6.36.2: byte 1 of a descriptor, the states we support. */
#define RTPG_T_SUP	0x80
#define RTPG_O_SUP	0x40
#define RTPG_U_SUP	0x08
#define RTPG_S_SUP	0x04
#define RTPG_AN_SUP	0x02
#define RTPG_AO_SUP	0x01
#define RTPG_SUPPORTED	(RTPG_T_SUP | RTPG_O_SUP | RTPG_U_SUP | RTPG_S_SUP | \
			 RTPG_AN_SUP | RTPG_AO_SUP)
#define RTPG_PREF	0x80

/**
 * scst_rtpg_check_cdb() - decode a REPORT TARGET PORT GROUPS CDB
 * @cdb: MAINTENANCE IN with service action 0Ah
 * @cdb_len: its length
 * @format: receives the PARAMETER DATA FORMAT (SCST_RTPG_FMT_*)
 * @alloc_len: receives the ALLOCATION LENGTH
 * @err: receives the error
 *
 * Return: 0, or -EINVAL with @err set: a CDB shorter than 12 bytes, or a
 * format other than length only (000b) and extended header (001b):
 * INVALID FIELD IN CDB on byte 1 bit 7.
 */
int scst_rtpg_check_cdb(const u8 *cdb, unsigned int cdb_len, u8 *format,
			u32 *alloc_len, struct scst_cdb_err *err)
{
	if (cdb_len < 12)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 0, -1);
	*format = cdb[1] >> 5;
	if (*format > SCST_RTPG_FMT_EXTENDED)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 1, 7);
	*alloc_len = get_unaligned_be32(cdb + 6);
	return 0;
}
EXPORT_SYMBOL_GPL(scst_rtpg_check_cdb);

static void rtpg_put_u8(u8 *buf, size_t buflen, size_t off, u8 v)
{
	if (off < buflen)
		buf[off] = v;
}

static void rtpg_put_be16(u8 *buf, size_t buflen, size_t off, u16 v)
{
	rtpg_put_u8(buf, buflen, off, v >> 8);
	rtpg_put_u8(buf, buflen, off + 1, v & 0xff);
}

/**
 * scst_rtpg_put_header() - the parameter data header
 * @buf: the data buffer; what does not fit is left out
 * @buflen: its size
 * @format: SCST_RTPG_FMT_LENGTH or SCST_RTPG_FMT_EXTENDED
 * @implicit_transition_time: IMPLICIT TRANSITION TIME in seconds (extended
 *	header only)
 *
 * RETURN DATA LENGTH is written by scst_rtpg_finish().
 *
 * Return: the offset of the first target port group descriptor.
 */
size_t scst_rtpg_put_header(u8 *buf, size_t buflen, u8 format,
			    u8 implicit_transition_time)
{
	size_t i, len = format == SCST_RTPG_FMT_EXTENDED ?
			SCST_RTPG_EXT_HDR_LEN : SCST_RTPG_HDR_LEN;

	for (i = 0; i < len; i++)
		rtpg_put_u8(buf, buflen, i, 0);
	if (format == SCST_RTPG_FMT_EXTENDED) {
		/* SPC-4 6.36.2: FORMAT TYPE 001b in bits 6-4 of byte 4 */
		rtpg_put_u8(buf, buflen, 4, SCST_RTPG_FMT_EXTENDED << 4);
		rtpg_put_u8(buf, buflen, 5, implicit_transition_time);
	}
	return len;
}
EXPORT_SYMBOL_GPL(scst_rtpg_put_header);

/**
 * scst_rtpg_put_group() - one target port group descriptor
 * @buf: the data buffer; what does not fit is left out
 * @buflen: its size
 * @off: where the descriptor starts
 * @g: the group; at most SCST_ALUA_MAX_TG_PORTS ports are described
 *
 * SPC-4 6.36.2: PREF and ASYMMETRIC ACCESS STATE, the supported states
 * (T_SUP, O_SUP, U_SUP, S_SUP, AN_SUP, AO_SUP; not LBD_SUP), TARGET PORT
 * GROUP, STATUS CODE, TARGET PORT COUNT, then a target port descriptor
 * (RELATIVE TARGET PORT IDENTIFIER) per port.
 *
 * Return: the offset after the descriptor.
 */
size_t scst_rtpg_put_group(u8 *buf, size_t buflen, size_t off,
			   const struct scst_alua_tpg *g)
{
	unsigned int i, n = min_t(unsigned int, g->nports,
				  SCST_ALUA_MAX_TG_PORTS);

	rtpg_put_u8(buf, buflen, off, (g->preferred ? RTPG_PREF : 0) |
		    (g->state & 0x0f));
	rtpg_put_u8(buf, buflen, off + 1, RTPG_SUPPORTED);
	rtpg_put_be16(buf, buflen, off + 2, g->group_id);
	rtpg_put_u8(buf, buflen, off + 4, 0);
	rtpg_put_u8(buf, buflen, off + 5, g->status);
	rtpg_put_u8(buf, buflen, off + 6, 0);
	rtpg_put_u8(buf, buflen, off + 7, n);
	off += SCST_RTPG_DESC_LEN;
	for (i = 0; i < n; i++, off += SCST_RTPG_PORT_LEN) {
		rtpg_put_be16(buf, buflen, off, 0);
		rtpg_put_be16(buf, buflen, off + 2, g->rel_tgt_ids[i]);
	}
	return off;
}
EXPORT_SYMBOL_GPL(scst_rtpg_put_group);

/**
 * scst_rtpg_finish() - set RETURN DATA LENGTH
 * @buf: the data buffer
 * @buflen: its size
 * @total: the length of the whole parameter data, header included
 *
 * SPC-4 6.36.2: RETURN DATA LENGTH counts the bytes after the field (the
 * extended header's remaining bytes included), whatever the allocation
 * length lets through.
 */
void scst_rtpg_finish(u8 *buf, size_t buflen, size_t total)
{
	u32 rdl = total >= 4 ? (u32)(total - 4) : 0;

	rtpg_put_u8(buf, buflen, 0, rdl >> 24);
	rtpg_put_u8(buf, buflen, 1, (rdl >> 16) & 0xff);
	rtpg_put_u8(buf, buflen, 2, (rdl >> 8) & 0xff);
	rtpg_put_u8(buf, buflen, 3, rdl & 0xff);
}
EXPORT_SYMBOL_GPL(scst_rtpg_finish);

/**
 * scst_build_rtpg() - REPORT TARGET PORT GROUPS parameter data
 * @groups: the target port groups of the logical unit's device group
 * @ngroups: entries in @groups; at most SCST_ALUA_MAX_TGS are described
 * @format: SCST_RTPG_FMT_LENGTH or SCST_RTPG_FMT_EXTENDED
 * @buf: the data buffer; the data is cut to it (the allocation length,
 *	SPC-4 4.2.5.6)
 * @buflen: its size
 *
 * Return: the length of the whole data, which may exceed @buflen.
 */
int scst_build_rtpg(const struct scst_alua_tpg *groups, unsigned int ngroups,
		    u8 format, u8 *buf, size_t buflen)
{
	size_t off = scst_rtpg_put_header(buf, buflen, format, 0);
	unsigned int i;

	for (i = 0; i < ngroups && i < SCST_ALUA_MAX_TGS; i++)
		off = scst_rtpg_put_group(buf, buflen, off, &groups[i]);
	scst_rtpg_finish(buf, buflen, off);
	return (int)off;
}
EXPORT_SYMBOL_GPL(scst_build_rtpg);

/* ---------------------------------------------------------------------- */
/* SET TARGET PORT GROUPS, SPC-4 6.44                                     */
/* ---------------------------------------------------------------------- */

/**
 * scst_stpg_check_cdb() - decode a SET TARGET PORT GROUPS CDB
 * @cdb: MAINTENANCE OUT with service action 0Ah
 * @cdb_len: its length
 * @len: receives the PARAMETER LIST LENGTH
 * @err: receives the error
 *
 * Return: 0, or -EINVAL with @err set: a CDB shorter than 12 bytes, or a
 * parameter list longer than SCST_STPG_MAX_LEN (more descriptors than a
 * device group has target port groups): INVALID FIELD IN CDB on the
 * length.
 */
int scst_stpg_check_cdb(const u8 *cdb, unsigned int cdb_len, u32 *len,
			struct scst_cdb_err *err)
{
	if (cdb_len < 12)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 0, -1);
	*len = get_unaligned_be32(cdb + 6);
	if (*len > SCST_STPG_MAX_LEN)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 6, -1);
	return 0;
}
EXPORT_SYMBOL_GPL(scst_stpg_check_cdb);

/**
 * scst_stpg_parse() - split a SET TARGET PORT GROUPS parameter list
 * @data: the parameter list
 * @len: its length (the PARAMETER LIST LENGTH)
 * @out: receives the descriptors
 * @max: entries in @out
 * @n: receives how many descriptors there are
 * @err: receives the error
 *
 * SPC-4 6.44: a 4-byte reserved header, then 4-byte descriptors (bits 3-0
 * of byte 0: ASYMMETRIC ACCESS STATE; bytes 2-3: TARGET PORT GROUP). A
 * length of zero changes nothing (*@n = 0).
 *
 * Return: 0, or -EINVAL with @err set: PARAMETER LIST LENGTH ERROR for a
 * list that stops inside the header or a descriptor, INVALID FIELD IN CDB
 * for more descriptors than @max.
 */
int scst_stpg_parse(const u8 *data, size_t len, struct scst_stpg_desc *out,
		    unsigned int max, unsigned int *n,
		    struct scst_cdb_err *err)
{
	size_t off;
	unsigned int i;

	*n = 0;
	if (len == 0)
		return 0;
	if (len < SCST_STPG_HDR_LEN ||
	    (len - SCST_STPG_HDR_LEN) % SCST_STPG_DESC_LEN)
		return scst_cdb_err_set(err, SCST_SENSE_PARAM_LIST_LEN_ERROR,
					false, -1, -1);
	if ((len - SCST_STPG_HDR_LEN) / SCST_STPG_DESC_LEN > max)
		return scst_cdb_err_set(err, SCST_SENSE_INVALID_FIELD_IN_CDB,
					true, 6, -1);
	for (i = 0, off = SCST_STPG_HDR_LEN; off < len;
	     i++, off += SCST_STPG_DESC_LEN) {
		out[i].state = data[off] & 0x0f;
		out[i].group_id = get_unaligned_be16(data + off + 2);
	}
	*n = i;
	return 0;
}
EXPORT_SYMBOL_GPL(scst_stpg_parse);

/**
 * scst_stpg_validate() - whether a SET TARGET PORT GROUPS may be applied
 * @d: the descriptors, from scst_stpg_parse()
 * @n: how many
 * @groups: the target port groups of the device group (ports not needed)
 * @ngroups: entries in @groups
 * @err: receives the error
 *
 * SPC-4 6.44: a state that cannot be set explicitly (LBA dependent, which
 * we do not support, offline, transitioning, reserved values) or a target
 * port group the logical unit does not have is INVALID FIELD IN PARAMETER
 * LIST, with the field pointer on that descriptor's field; a group that is
 * transitioning refuses a change (NOT READY, ASYMMETRIC ACCESS STATE
 * TRANSITION, SPC-4 5.16.2.4.7). Either way nothing is applied.
 *
 * Return: 0, or -EINVAL with @err set.
 */
int scst_stpg_validate(const struct scst_stpg_desc *d, unsigned int n,
		       const struct scst_alua_tpg *groups,
		       unsigned int ngroups, struct scst_cdb_err *err)
{
	unsigned int i, j;
	int off;

	for (i = 0; i < n; i++) {
		off = SCST_STPG_HDR_LEN + i * SCST_STPG_DESC_LEN;
		switch (d[i].state) {
		case SCST_ALUA_ACTIVE:
		case SCST_ALUA_NONOPTIMIZED:
		case SCST_ALUA_STANDBY:
		case SCST_ALUA_UNAVAILABLE:
			break;
		default:
			return scst_cdb_err_set(err,
					SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST,
					false, off, 3);
		}
		for (j = 0; j < ngroups; j++)
			if (groups[j].group_id && groups[j].group_id ==
			    d[i].group_id)
				break;
		if (j == ngroups)
			return scst_cdb_err_set(err,
					SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST,
					false, off + 2, -1);
		if (groups[j].state == SCST_ALUA_TRANSITIONING)
			return scst_cdb_err_set(err,
					SCST_SENSE_ALUA_TRANSITIONING,
					false, -1, -1);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(scst_stpg_validate);

/* ---------------------------------------------------------------------- */
/* Command admission per state, SPC-4 5.16.2.4                            */
/* ---------------------------------------------------------------------- */

/*
 * The classes (SCST_OPF_ALUA_*, scst_cdb.h) each state admits besides
 * the ALWAYS one. "The device server may support other commands"
 * (SCST_OPF_ALUA_INFO): READ CAPACITY and REPORT SUPPORTED OPERATION
 * CODES where the logical unit is reachable at all, so that an initiator
 * can attach it. TEST UNIT READY is not among them, as in SCST and LIO:
 * its 04h/0Bh is how dm-multipath's TUR checker tells a standby path
 * (PATH_GHOST) from a failed one.
 */
#define ADMIT_ANY_CLASS		(SCST_OPF_ALUA_ALWAYS | SCST_OPF_ALUA_STPG | \
				 SCST_OPF_ALUA_STANDBY | SCST_OPF_ALUA_INFO)
#define ADMIT_REACHABLE		(SCST_OPF_ALUA_ALWAYS | SCST_OPF_ALUA_STPG | \
				 SCST_OPF_ALUA_INFO)
#define ADMIT_TRANSITIONING	(SCST_OPF_ALUA_ALWAYS | SCST_OPF_ALUA_INFO)

/**
 * scst_alua_admit_facts() - whether a target port group state admits a
 *	command
 * @state: the SCST_ALUA_* state of the group of the port the command came
 *	through
 * @facts: the command's SCST_OPF_* facts (scst_cdb_decode()): its ALUA
 *	class
 *
 * SPC-4 5.16.2.4: active/optimized and active/non-optimized admit every
 * command; standby (5.16.2.4.4), unavailable (5.16.2.4.5), offline
 * (5.16.2.4.6) and transitioning (5.16.2.4.7) admit the few each lists and
 * refuse the others with NOT READY and their own additional sense code:
 * LOGICAL UNIT NOT ACCESSIBLE, TARGET PORT IN STANDBY STATE (04h/0Bh),
 * TARGET PORT IN UNAVAILABLE STATE (04h/0Ch), ASYMMETRIC ACCESS STATE
 * TRANSITION (04h/0Ah); offline: LOGICAL UNIT NOT READY, OFFLINE
 * (04h/12h), which Linux's scsi_dh_alua takes as an offline port.
 *
 * Return: 0 to admit the command, or the SCST_SENSE_* code to end it with.
 */
u32 scst_alua_admit_facts(u8 state, u32 facts)
{
	switch (state) {
	case SCST_ALUA_ACTIVE:
	case SCST_ALUA_NONOPTIMIZED:
		return 0;
	case SCST_ALUA_STANDBY:
		return facts & ADMIT_ANY_CLASS ? 0 : SCST_SENSE_ALUA_STANDBY;
	case SCST_ALUA_UNAVAILABLE:
		return facts & ADMIT_REACHABLE ? 0 : SCST_SENSE_ALUA_UNAVAILABLE;
	case SCST_ALUA_OFFLINE:
		return facts & ADMIT_REACHABLE ? 0 : SCST_SENSE_LU_OFFLINE;
	case SCST_ALUA_TRANSITIONING:
		return facts & ADMIT_TRANSITIONING ?
		       0 : SCST_SENSE_ALUA_TRANSITIONING;
	default:
		/* a state we never set (LBA dependent, reserved) */
		return SCST_SENSE_ALUA_UNAVAILABLE;
	}
}
EXPORT_SYMBOL_GPL(scst_alua_admit_facts);

/**
 * scst_alua_admit() - scst_alua_admit_facts() for a CDB
 * @state: the SCST_ALUA_* state
 * @cdb: the CDB (at least @cdb_len bytes)
 * @cdb_len: its length; 0 is a command of no class
 *
 * Return: 0 to admit the command, or the SCST_SENSE_* code to end it with.
 */
u32 scst_alua_admit(u8 state, const u8 *cdb, unsigned int cdb_len)
{
	return scst_alua_admit_facts(state, scst_cdb_facts(cdb, cdb_len));
}
EXPORT_SYMBOL_GPL(scst_alua_admit);
