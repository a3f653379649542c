// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz scst_core/scst_alua.c: a device group's target port groups, then a
 * SET TARGET PORT GROUPS CDB and parameter list (SPC-4 6.44) parsed,
 * validated and applied as the kernel glue does (all or nothing), the
 * REPORT TARGET PORT GROUPS data (SPC-4 6.36) of the result at an
 * allocation length from the input, and the admission of a CDB from the
 * input in every state (SPC-4 5.16.2.4).
 *
 * Checked: a refused list changes nothing and its field pointer lies in
 * the list; an accepted one names only groups that exist and only states
 * STPG may set; the RTPG data has the length the groups give, never
 * writes past the allocation length, and is a prefix of the full data;
 * admission is 0 in the active states and one of the state's own sense
 * codes otherwise; state names round-trip.
 *
 * Input: number of groups (1 byte, mod SCST_ALUA_MAX_TGS + 1), per group
 * TARGET PORT GROUP (2), state (1) and port count (1, mod 4); RTPG format
 * (1) and allocation length (2); a 16-byte CDB for the admission; the
 * STPG PARAMETER LIST LENGTH (2); the rest is the parameter list.
 */
#include "fuzz.h"
#include <scst_alua.h>

static const u16 ports[4] = { 1, 2, 0x1234, 0xffff };

static void check_admit(const u8 *cdb)
{
	static const u8 states[] = {
		SCST_ALUA_ACTIVE, SCST_ALUA_NONOPTIMIZED, SCST_ALUA_STANDBY,
		SCST_ALUA_UNAVAILABLE, SCST_ALUA_OFFLINE,
		SCST_ALUA_TRANSITIONING,
	};
	static const u32 refusal[] = {
		0, 0, SCST_SENSE_ALUA_STANDBY, SCST_SENSE_ALUA_UNAVAILABLE,
		SCST_SENSE_LU_OFFLINE, SCST_SENSE_ALUA_TRANSITIONING,
	};
	unsigned int i, len;
	const char *name;
	u32 r;

	for (len = 1; len <= 16; len += 15) {
		for (i = 0; i < ARRAY_SIZE(states); i++) {
			r = scst_alua_admit(states[i], cdb, len);
			FUZZ_CHECK(r == 0 || r == refusal[i]);
			/* what a standby port refuses, the others refuse too */
			if (states[i] > SCST_ALUA_STANDBY &&
			    scst_alua_admit(SCST_ALUA_STANDBY, cdb, len))
				FUZZ_CHECK(r != 0);
			name = scst_alua_state_name(states[i]);
			FUZZ_CHECK(name &&
				   scst_alua_state_from_name(name) == states[i]);
		}
	}
}

static void check_rtpg(const struct scst_alua_tpg *g, unsigned int ng,
		       u8 fmt, size_t alloc)
{
	static u8 full[SCST_RTPG_MAX_LEN], cut[SCST_RTPG_MAX_LEN + 1];
	size_t want = fmt == SCST_RTPG_FMT_EXTENDED ? 8 : 4, i;
	int len;

	for (i = 0; i < ng; i++)
		want += 8 + 4 * g[i].nports;
	len = scst_build_rtpg(g, ng, fmt, full, sizeof(full));
	FUZZ_CHECK(len >= 0 && (size_t)len == want);
	FUZZ_CHECK(get_unaligned_be32(full) == want - 4);
	if (alloc > sizeof(cut) - 1)
		alloc = sizeof(cut) - 1;
	memset(cut, 0xa5, sizeof(cut));
	FUZZ_CHECK(scst_build_rtpg(g, ng, fmt, cut, alloc) == len);
	FUZZ_CHECK(!memcmp(cut, full, min_t(size_t, alloc, (size_t)len)));
	for (i = alloc; i < sizeof(cut); i++)
		FUZZ_CHECK(cut[i] == 0xa5);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct scst_alua_tpg g[SCST_ALUA_MAX_TGS], before[SCST_ALUA_MAX_TGS];
	struct scst_stpg_desc d[SCST_STPG_MAX_DESCS];
	unsigned int ng, i, j, n;
	struct scst_cdb_err err;
	u8 cdb[16], stpg_cdb[12] = { 0xa4, 0x0a };
	u8 fmt, *list;
	size_t alloc, len;
	u32 plen;

	ng = fuzz_u8(&in) % (SCST_ALUA_MAX_TGS + 1);
	memset(g, 0, sizeof(g));
	for (i = 0; i < ng; i++) {
		g[i].group_id = fuzz_u16(&in);
		g[i].state = fuzz_u8(&in) & 0x0f;
		g[i].nports = fuzz_u8(&in) % 4;
		g[i].rel_tgt_ids = ports;
	}
	fmt = fuzz_u8(&in) & 1;
	alloc = fuzz_u16(&in);
	for (i = 0; i < sizeof(cdb); i++)
		cdb[i] = fuzz_u8(&in);
	check_admit(cdb);

	put_unaligned_be32(fuzz_u16(&in), stpg_cdb + 6);
	if (scst_stpg_check_cdb(stpg_cdb, sizeof(stpg_cdb), &plen, &err)) {
		FUZZ_CHECK(err.in_cdb && err.byte == 6);
		FUZZ_CHECK(plen > SCST_STPG_MAX_LEN);
		return 0;
	}
	list = fuzz_rest(&in, &len);
	if (len > plen)
		len = plen;	/* the list is what the length says */
	memcpy(before, g, sizeof(g));
	if (scst_stpg_parse(list, len, d, ARRAY_SIZE(d), &n, &err)) {
		FUZZ_CHECK(n == 0);
	} else if (scst_stpg_validate(d, n, g, ng, &err)) {
		if (err.has_field)
			FUZZ_CHECK(!err.in_cdb && err.byte < len);
	} else {
		FUZZ_CHECK(len == 0 || (len - 4) / 4 == n);
		for (i = 0; i < n; i++) {
			FUZZ_CHECK(d[i].state <= SCST_ALUA_UNAVAILABLE);
			for (j = 0; j < ng; j++)
				if (g[j].group_id && g[j].group_id ==
				    d[i].group_id)
					break;
			FUZZ_CHECK(j < ng);
			FUZZ_CHECK(g[j].state != SCST_ALUA_TRANSITIONING);
			g[j].state = d[i].state;
			g[j].status = SCST_ALUA_STATUS_BY_STPG;
		}
	}
	/* a refusal applied nothing: only the accepted branch writes g */
	if (memcmp(before, g, sizeof(g)))
		FUZZ_CHECK(n > 0);
	check_rtpg(g, ng, fmt, alloc);
	free(list);
	return 0;
}
