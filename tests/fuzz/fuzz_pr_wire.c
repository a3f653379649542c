// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz scst_core/scst_pr_wire.c: the decoder of the DLM lock value blocks
 * that carry a persistent reservation state between the nodes of a
 * cluster (cluster_mode). A block set it accepts gives a consistent
 * state that encodes back to the very same blocks; one it refuses leaves
 * the state empty. A notice block it accepts against that state names
 * its registrants only and encodes back to the same block.
 *
 * Input: the count of registrant blocks read (one byte, modulo 129), the
 * header block, the notice block, then the registrant blocks; missing
 * bytes read as zero.
 */
#include "fuzz.h"
#include <scst_pr.h>

#define LVB	SCST_PR_WIRE_LVB_LEN

static void take_block(struct fuzz_in *in, u8 *lvb)
{
	unsigned int i;

	for (i = 0; i < LVB; i++)
		lvb[i] = fuzz_u8(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u8 hdr_lvb[LVB], note_lvb[LVB], again[LVB];
	static u8 reg_lvb[SCST_PR_MAX_REGISTRANTS][LVB];
	static struct scst_pr_state st, empty;
	static struct scst_pr_effects eff;
	struct fuzz_in in = { data, size };
	struct scst_pr_wire_hdr hdr;
	unsigned int i, nblocks;
	u64 seq;
	int ret;

	nblocks = fuzz_u8(&in) % (SCST_PR_MAX_REGISTRANTS + 1);
	take_block(&in, hdr_lvb);
	take_block(&in, note_lvb);
	for (i = 0; i < nblocks; i++)
		take_block(&in, reg_lvb[i]);

	ret = scst_pr_wire_get_state(hdr_lvb, reg_lvb[0], nblocks, &hdr, &st);
	if (ret) {
		scst_pr_state_init(&empty);
		FUZZ_CHECK(ret == -ENODATA || ret == -EPROTO ||
			   ret == -ESTALE);
		FUZZ_CHECK(scst_pr_state_equal(&st, &empty) && !st.nreg);
		return 0;
	}
	FUZZ_CHECK(scst_pr_state_valid(&st) && st.nreg <= nblocks);
	scst_pr_wire_put_hdr(&st, hdr.seq, hdr.node, again);
	FUZZ_CHECK(!memcmp(again, hdr_lvb, LVB));
	for (i = 0; i < st.nreg; i++) {
		scst_pr_wire_put_reg(&st.reg[i], again);
		FUZZ_CHECK(!memcmp(again, reg_lvb[i], LVB));
	}

	seq = get_unaligned_be64(note_lvb + 8);
	ret = scst_pr_wire_get_notes(note_lvb, &st, hdr.seq, seq, &eff);
	if (ret) {
		FUZZ_CHECK(!eff.n);
		return 0;
	}
	FUZZ_CHECK(eff.n <= st.nreg * SCST_PR_WIRE_MAX_NOTE_GROUPS);
	FUZZ_CHECK(!scst_pr_wire_put_notes(&st, &eff, seq, hdr.seq, again));
	FUZZ_CHECK(!memcmp(again, note_lvb, LVB));
	return 0;
}
