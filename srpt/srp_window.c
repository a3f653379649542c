// SPDX-License-Identifier: GPL-2.0-only
/*
 * srp_window.c - which entries of a command's scatterlist one memory
 * descriptor's RDMA transfer covers. srpt_alloc_rw_ctxs() gives each
 * descriptor (SRP r16a §5.5.2) the next bytes of the buffer; the window
 * of bytes [off, off + len) is then a run of entries, the first one
 * entered at an offset and the last one perhaps used only in part.
 *
 * Pure logic: the caller hands the entry lengths in order through a
 * callback, so that the kernel walks its (possibly chained) scatterlist
 * and the unit tests an array.
 */
#include "srp_iu.h"

/**
 * srp_sg_window() - find the entries that hold a window of bytes
 * @nents: number of entries
 * @next_len: returns the length of the next entry, first to last; called
 *	at most @nents times
 * @it: passed to @next_len
 * @off: the window's first byte in the buffer
 * @len: its length, not 0
 * @w: receives the window
 *
 * Entries of length 0 before the window are skipped, those inside it
 * counted (the window is a run of consecutive entries); the window ends
 * at the first entry that reaches @off + @len. Offsets are summed in 64
 * bits: no length wraps them.
 *
 * Return: 0; -EINVAL for an empty window, or one not inside the entries.
 */
int srp_sg_window(u32 nents, u32 (*next_len)(void *it), void *it, u32 off,
		  u32 len, struct srp_sg_win *w)
{
	u64 pos = 0, end = (u64)off + len, s_end;
	bool found = false;
	u32 i;

	memset(w, 0, sizeof(*w));
	if (!len)
		return -EINVAL;
	for (i = 0; i < nents; i++, pos = s_end) {
		s_end = pos + next_len(it);
		if (!found && off < s_end) {
			found = true;
			w->first = i;
			w->first_off = (u32)(off - pos);
		}
		if (!found || end > s_end)
			continue;
		w->nents = i - w->first + 1;
		w->last_len = (u32)(end - max_t(u64, pos, off));
		/* entries 0 .. nents - 1, all of them: the list itself */
		w->whole = !off && !w->first && end == s_end;
		return 0;
	}
	memset(w, 0, sizeof(*w));
	return -EINVAL;
}
