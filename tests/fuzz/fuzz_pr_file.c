// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz scst_core/scst_pr_file.c: the strict parser of the APTPL file
 * (include/scst_pr.h). A file it accepts gives a consistent state whose
 * text parses back to the same state and is written the same way again
 * (parse -> write -> parse -> write), and whose pr_state text
 * (scst_pr_state_show()) is the same whole or cut to a page; a file it
 * refuses leaves the state empty and names a line that exists.
 *
 * Input: the file's contents.
 */
#include "fuzz.h"
#include <scst_pr.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scst_pr_state st, back, empty;
	static char text[SCST_PR_FILE_MAX_LEN], again[SCST_PR_FILE_MAX_LEN];
	struct scst_pr_file_err err;
	char *buf = (char *)fuzz_take(&(struct fuzz_in){ data, size }, size);
	unsigned int lines = 0;
	size_t i;
	int len, len2;

	for (i = 0; i < size; i++)
		lines += buf[i] == '\n';
	if (scst_pr_file_parse(buf, size, &st, &err)) {
		scst_pr_state_init(&empty);
		FUZZ_CHECK(scst_pr_state_equal(&st, &empty) && !st.nreg);
		FUZZ_CHECK(err.reason && err.line <= lines + 1);
		goto out;
	}
	FUZZ_CHECK(scst_pr_state_valid(&st));
	len = scst_pr_file_write(&st, text, sizeof(text));
	FUZZ_CHECK(len > 0 && len <= SCST_PR_FILE_MAX_LEN);
	FUZZ_CHECK(!scst_pr_file_parse(text, len, &back, &err));
	FUZZ_CHECK(scst_pr_state_equal(&st, &back));
	len2 = scst_pr_file_write(&back, again, sizeof(again));
	FUZZ_CHECK(len2 == len && !memcmp(text, again, len));
	len = scst_pr_state_show(&st, text, sizeof(text));
	FUZZ_CHECK(len > 0 && len < (int)sizeof(text) &&
		   (size_t)len == strlen(text));
	len2 = scst_pr_state_show(&st, again, 4096);
	FUZZ_CHECK(len2 == len && !memcmp(text, again, min(len, 4096)));
out:
	free(buf);
	return 0;
}
