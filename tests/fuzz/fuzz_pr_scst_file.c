// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz scst_core/scst_pr_scst_file.c: the importer of SCST's binary APTPL
 * files. Every length in them is a claim: nothing may be read outside the
 * input (ASan sees the exact-size copy). A file it imports gives a
 * consistent state that our own file format writes and reads back
 * unchanged; a refused one leaves the state empty and names an offset
 * inside the file (0 for an empty one). The choice between <device> and
 * <device>.1 agrees with the parser: a file alone as .1 is taken exactly
 * when the parser takes it, and so is one alone as <device> unless it is
 * in our format.
 *
 * Input: the file's contents.
 */
#include "fuzz.h"
#include <scst_pr.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scst_pr_state st, back, empty;
	static struct scst_pr_scst_choice ch;
	static char text[SCST_PR_FILE_MAX_LEN];
	uint8_t *buf = fuzz_take(&(struct fuzz_in){ data, size }, size);
	struct scst_pr_file_err ferr;
	struct scst_pr_scst_err err;
	int ret, len;

	scst_pr_state_init(&empty);
	ret = scst_pr_scst_file_parse(buf, size, &st, &err);
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL && err.reason);
		FUZZ_CHECK(scst_pr_state_equal(&st, &empty) && !st.nreg);
		FUZZ_CHECK(err.offset < size || (!size && !err.offset));
		FUZZ_CHECK(err.record >= -1 &&
			   err.record <= SCST_PR_MAX_REGISTRANTS);
	} else {
		FUZZ_CHECK(scst_pr_state_valid(&st) && !st.generation);
		len = scst_pr_file_write(&st, text, sizeof(text));
		FUZZ_CHECK(len > 0 && len < (int)sizeof(text));
		FUZZ_CHECK(!scst_pr_file_parse(text, len, &back, &ferr));
		FUZZ_CHECK(scst_pr_state_equal(&st, &back));
		len = scst_pr_scst_res_text(&st, text, sizeof(text));
		FUZZ_CHECK(len > 0 && (size_t)len == strlen(text));
	}

	scst_pr_scst_choose(NULL, 0, buf, size, &back, &ch);
	FUZZ_CHECK(ch.src == (ret ? SCST_PR_SCST_REFUSED : SCST_PR_SCST_BACKUP));
	FUZZ_CHECK(scst_pr_state_equal(&back, ret ? &empty : &st));
	FUZZ_CHECK(!ch.main_refused && ch.bak_refused == !!ret);

	scst_pr_scst_choose(buf, size, NULL, 0, &back, &ch);
	if (ch.src == SCST_PR_SCST_MAIN)
		FUZZ_CHECK(!ret && scst_pr_state_equal(&back, &st));
	else
		FUZZ_CHECK((ch.src == SCST_PR_SCST_OURS ||
			    ch.src == SCST_PR_SCST_REFUSED) &&
			   scst_pr_state_equal(&back, &empty));
	if (ch.src == SCST_PR_SCST_REFUSED)
		FUZZ_CHECK(ret && ch.main_refused);

	/* the same file as both: the main one is taken, or neither */
	scst_pr_scst_choose(buf, size, buf, size, &back, &ch);
	FUZZ_CHECK(ch.src != SCST_PR_SCST_BACKUP &&
		   ch.src != SCST_PR_SCST_NONE);
	free(buf);
	return 0;
}
