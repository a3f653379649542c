/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Persistent reservations, SPC-4 §5.9, §6.15 (PERSISTENT RESERVE IN) and
 * §6.16 (PERSISTENT RESERVE OUT): the state machine as pure logic
 * (scst_pr.c) and its APTPL file (scst_pr_file.c), shared by scst.ko and
 * the userspace unit tests and fuzzers.
 *
 * Model
 * -----
 * One struct scst_pr_state per logical unit holds everything SPC-4 keeps
 * for it: PRgeneration, the APTPL flag, the registrants and the one
 * persistent reservation (scope LU_SCOPE only: SPC-4 made the other scopes
 * obsolete). The caller owns that memory (~31 KiB: allocate it with the
 * device) and serializes every call on one state with its own lock; no
 * function here allocates, sleeps, logs or keeps globals, and none needs
 * more than about 1 KiB of stack (a few TransportIDs on the way).
 *
 * An I_T nexus is named by struct scst_pr_nexus: the initiator port's
 * TransportID (SPC-4 §7.6.4) and the relative target port identifier of
 * the target port it came through. The target driver provides the
 * TransportID (scst_pr_tid_from_srp() for the SRP initiator port
 * identifier, scst_pr_tid_from_iscsi_name() for scst_local, which names
 * its sessions in iSCSI-name form as SCST does); the core computes it once
 * per session and passes the same nexus to every call.
 *
 * A registrant is a reservation key registered for one I_T nexus, or for
 * every target port of one initiator port (ALL_TG_PT). It matches a nexus
 * when the TransportIDs are equal and it was registered through the
 * nexus's target port or with ALL_TG_PT (scst_pr_reg_matches()). We never
 * let two registrants match one nexus: a registration that would overlap
 * another one (e.g. ALL_TG_PT while the initiator port is registered
 * through another target port) is refused.
 *
 * TransportIDs are kept in a canonical form so that equality is memcmp():
 * reserved bits and bytes cleared, and iSCSI names lowercased and padded
 * to the shortest ADDITIONAL LENGTH that holds them (at least 20,
 * SPC-4 §7.6.4.6). iSCSI names thus compare case-insensitively, as RFC
 * 3720 §3.2.6.1 says they are (stringprep maps them to lowercase), and
 * READ FULL STATUS reports them in lowercase. Accepted: FC (protocol 0),
 * SBP (3), SRP (4), SAS (6), each format 00b and 24 bytes long, and iSCSI
 * (5) format 00b (the name alone, at most 223 characters, printable ASCII
 * without blanks); anything else (iSCSI format 01b with an ISID, other
 * protocols) is refused with INVALID FIELD IN PARAMETER LIST.
 *
 * PERSISTENT RESERVE OUT
 * ----------------------
 * scst_pr_out() checks the CDB and the parameter list, then the state, and
 * only then changes the state: on any error (CHECK CONDITION or
 * RESERVATION CONFLICT) the state is exactly as before. What the command
 * implies for other I_T nexuses comes back in struct scst_pr_effects for
 * the core to carry out after dropping nothing but this file's lock:
 * a unit attention per affected registrant (REGISTRATIONS PREEMPTED,
 * RESERVATIONS PREEMPTED or RESERVATIONS RELEASED; SPC-4 never asks for
 * two in one command), which registrants' tasks PREEMPT AND ABORT aborts
 * (SPC-4 §5.9.11.5: the task set of each of their I_T nexuses except the
 * issuer's), and whether the APTPL file must be written or removed. A
 * registrant stands for every I_T nexus it matches: the core applies a
 * notice to each session for which scst_pr_reg_matches() holds.
 *
 * Our choices where SPC-4 leaves room, all tested in tests/unit/test_pr.c:
 *  - PRgeneration is incremented by every REGISTER, REGISTER AND IGNORE
 *    EXISTING KEY, CLEAR, PREEMPT, PREEMPT AND ABORT and REGISTER AND MOVE
 *    that completes with GOOD, including a REGISTER of key 0 from an
 *    unregistered nexus (a no-op otherwise), and never by RESERVE,
 *    RELEASE, PERSISTENT RESERVE IN or a command that fails (SPC-4
 *    §6.15.2). It wraps at 2^32.
 *  - SPEC_I_PT is accepted with REGISTER from an unregistered nexus only
 *    (otherwise INVALID FIELD IN PARAMETER LIST on the bit); each listed
 *    TransportID is registered through the receiving target port, or every
 *    port with ALL_TG_PT; one equal to the issuer's own is skipped; one
 *    already registered, or listed twice, fails the whole command with
 *    INVALID FIELD IN PARAMETER LIST pointing at it.
 *  - REGISTER AND MOVE from a registration made with ALL_TG_PT is refused
 *    with INVALID FIELD IN PARAMETER LIST (no field pointer: it has no
 *    ALL_TG_PT bit of its own); from a non-holder, with no reservation or
 *    with an all registrants reservation, RESERVATION CONFLICT. An already
 *    registered destination keeps its key.
 *  - More than SCST_PR_MAX_REGISTRANTS registrations: INSUFFICIENT
 *    REGISTRATION RESOURCES (55h/04h), nothing registered.
 *  - A parameter list longer than SCST_PR_OUT_MAX_PARAM_LEN: PARAMETER
 *    LIST LENGTH ERROR.
 *
 * PERSISTENT RESERVE IN
 * ---------------------
 * scst_pr_in() (or one builder per service action) writes what fits of
 * the data into the caller's buffer and returns its full length, as the
 * builders of scst_spc.h do (SPC-4 §4.2.5.6). REPORT CAPABILITIES says:
 * CRH 0, SIP_C 1, ATP_C 1, PTPL_C 1, TMV 1, ALLOW COMMANDS 010b (see
 * scst_pr_conflicts()), PTPL_A = the APTPL flag, all six types.
 *
 * Conflicts
 * ---------
 * scst_pr_conflicts() is the check the core makes before a command runs
 * (SPC-4 §5.9.1 table 63 for SPC commands, SBC-3 §4.17 table 13 for block
 * commands): commands that only read are refused to non-holders of
 * Exclusive Access types, commands that change the medium or the LU's
 * state to non-holders of any type, with registrants of the Registrants
 * Only and All Registrants types counting as holders. SPC-2 RESERVE and
 * RELEASE (6 and 10) conflict whenever any registration exists (CRH = 0,
 * SPC-4 §5.9.3, SPC-2 §5.5.1); that an SPC-2 reservation held by another
 * nexus makes PERSISTENT RESERVE IN/OUT conflict is the SPC-2 reservation
 * code's business, which calls scst_pr_has_registrations() for its side.
 * Task management (LUN RESET, I_T nexus loss) keeps the state as SPC-4
 * §5.9.1 says: nothing here needs calling for it. While the core cannot
 * know the state (its APTPL file could not be read), the logical unit
 * answers only what scst_pr_unknown_allows() lets through.
 *
 * APTPL file
 * ----------
 * scst_pr_file_write() and scst_pr_file_parse() convert a state to and
 * from the text kept in /var/lib/scst/pr/<device> (SCST's path; the file
 * I/O itself is the core's). Text, so that an administrator can read it;
 * no checksum, because the file is replaced by rename (never written in
 * place) and the "end" line catches a truncated copy. Version 1:
 *
 *	scst-ng-pr 1
 *	generation 7
 *	aptpl 1
 *	registrant 0x00000000000000ab srp:fe800000000000000002c903000e8acd 1 0
 *	registrant 0x00000000000000cd iscsi:iqn.1994-05.com.redhat:h1 2 1
 *	reservation 5 0
 *	end
 *
 * "registrant KEY TRANSPORTID REL_TGT_ID ALL_TG_PT" in READ KEYS order,
 * KEY as 0x and 16 lowercase hex digits, TRANSPORTID as iscsi:NAME,
 * srp:32 hex digits, fc:, sbp: or sas: 16 hex digits; then at most one
 * "reservation TYPE HOLDER", HOLDER being the index of the holding
 * registrant line (from 0) or "all" for the all registrants types. Every
 * line ends with a newline and its fields are separated by one space; the
 * parser refuses anything else (unknown or repeated lines, out-of-order
 * lines, numbers out of range or with leading zeroes, key 0, overlapping
 * registrants, a holder out of range or of the wrong kind, a missing
 * "end", text after it, a file over SCST_PR_FILE_MAX_LEN) and names the
 * line. SCST's own files (binary, with its own signature) are imported
 * once, when the device starts (scst_pr_scst_file.c, the layout and what
 * is refused described at its top): the core writes ours in their place
 * and keeps SCST's as <device>.scst; one it cannot import leaves the
 * state unknown (fail closed) until the administrator resets it
 * (Documentation/pr.md, Documentation/migrating-from-scst.md).
 */
#ifndef __SCST_PR_H
#define __SCST_PR_H

#include "scst_spc.h"

/* ---------------------------------------------------------------------- */
/* Limits and codes                                                       */
/* ---------------------------------------------------------------------- */

/*
 * Registrations per logical unit. Clusters use one per initiator port and
 * target port, so 128 covers a 16-node cluster with 8 paths each.
 */
#define SCST_PR_MAX_REGISTRANTS		128

/* SPC-4 §7.6.4.6: iSCSI TransportID, 4-byte header and up to 224 bytes. */
#define SCST_PR_TID_MAX_LEN		228
/* SPC-4 §7.6.4: the fixed-size TransportIDs (FC, SBP, SRP, SAS). */
#define SCST_PR_TID_FIXED_LEN		24
/* Longest iSCSI name, the NUL excluded (RFC 3720 §3.2.6.1: 223 bytes). */
#define SCST_PR_ISCSI_NAME_MAX		223

/* SPC-4 §6.16.3: the basic parameter list, and its TransportID list. */
#define SCST_PR_OUT_PARAM_LEN		24
#define SCST_PR_OUT_MAX_PARAM_LEN	32768

/* Longest APTPL file scst_pr_file_write() produces or the parser takes. */
#define SCST_PR_FILE_MAX_LEN		81920

/* SPC-4 §6.16.2 table 180: PERSISTENT RESERVE OUT service actions. */
#define SCST_PR_OUT_REGISTER		0x00
#define SCST_PR_OUT_RESERVE		0x01
#define SCST_PR_OUT_RELEASE		0x02
#define SCST_PR_OUT_CLEAR		0x03
#define SCST_PR_OUT_PREEMPT		0x04
#define SCST_PR_OUT_PREEMPT_AND_ABORT	0x05
#define SCST_PR_OUT_REGISTER_AND_IGNORE	0x06
#define SCST_PR_OUT_REGISTER_AND_MOVE	0x07

/* SPC-4 §6.15.1 table 166: PERSISTENT RESERVE IN service actions. */
#define SCST_PR_IN_READ_KEYS		0x00
#define SCST_PR_IN_READ_RESERVATION	0x01
#define SCST_PR_IN_REPORT_CAPABILITIES	0x02
#define SCST_PR_IN_READ_FULL_STATUS	0x03

/* SPC-4 §6.15.3.3 table 169: persistent reservation types; 0: none. */
#define SCST_PR_TYPE_NONE		0x0
#define SCST_PR_TYPE_WE			0x1
#define SCST_PR_TYPE_EA			0x3
#define SCST_PR_TYPE_WE_RO		0x5
#define SCST_PR_TYPE_EA_RO		0x6
#define SCST_PR_TYPE_WE_AR		0x7
#define SCST_PR_TYPE_EA_AR		0x8

/* SPC-4 §6.15.3.2: LU_SCOPE, the only scope left. */
#define SCST_PR_SCOPE_LU		0x0

/* struct scst_pr_state.holder of an all registrants reservation. */
#define SCST_PR_HOLDER_ALL		(-1)

/* scst_pr_out() return value for RESERVATION CONFLICT status. */
#define SCST_PR_CONFLICT		1

/* ---------------------------------------------------------------------- */
/* TransportIDs, nexuses, state                                           */
/* ---------------------------------------------------------------------- */

/**
 * struct scst_pr_tid - a TransportID in canonical form (see the top)
 * @len: its length in bytes, 0 for none
 * @data: the TransportID, SPC-4 §7.6.4; bytes past @len are zero
 */
struct scst_pr_tid {
	u16 len;
	u8 data[SCST_PR_TID_MAX_LEN];
};

/**
 * struct scst_pr_nexus - an I_T nexus as persistent reservations see it
 * @tid: the initiator port's TransportID
 * @rel_tgt_id: RELATIVE TARGET PORT IDENTIFIER of the target port
 */
struct scst_pr_nexus {
	struct scst_pr_tid tid;
	u16 rel_tgt_id;
};

/**
 * struct scst_pr_registrant - one registration
 * @key: its reservation key, never 0
 * @tid: the initiator port's TransportID
 * @rel_tgt_id: the target port it was registered through
 * @all_tg_pt: registered for every target port (ALL_TG_PT)
 */
struct scst_pr_registrant {
	u64 key;
	struct scst_pr_tid tid;
	u16 rel_tgt_id;
	bool all_tg_pt;
};

/**
 * struct scst_pr_state - the persistent reservation state of one LU
 * @generation: PRgeneration (SPC-4 §6.15.2)
 * @aptpl: activate persist through power loss, from the last REGISTER,
 *	REGISTER AND IGNORE EXISTING KEY or REGISTER AND MOVE
 * @type: SCST_PR_TYPE_* of the reservation, SCST_PR_TYPE_NONE for none
 * @scope: its scope, SCST_PR_SCOPE_LU
 * @holder: index in @reg of the holder, or SCST_PR_HOLDER_ALL for the all
 *	registrants types; meaningless without a reservation
 * @nreg: number of registrants
 * @reg: the registrants, in the order they registered (READ KEYS order)
 *
 * Initialize with scst_pr_state_init(); change only through this API.
 */
struct scst_pr_state {
	u32 generation;
	bool aptpl;
	u8 type;
	u8 scope;
	s16 holder;
	u16 nreg;
	struct scst_pr_registrant reg[SCST_PR_MAX_REGISTRANTS];
};

/**
 * enum scst_pr_persist - what the APTPL file needs after a command
 * @SCST_PR_PERSIST_NONE: nothing
 * @SCST_PR_PERSIST_SAVE: write the state (scst_pr_file_write()); APTPL is
 *	set and the state changed
 * @SCST_PR_PERSIST_REMOVE: APTPL was just cleared: remove the file
 */
enum scst_pr_persist {
	SCST_PR_PERSIST_NONE,
	SCST_PR_PERSIST_SAVE,
	SCST_PR_PERSIST_REMOVE,
};

/**
 * struct scst_pr_notice - what one other registrant's nexuses must get
 * @who: the registrant as it was before the command (it may be gone)
 * @ua: SCST_SENSE_* unit attention to queue, 0 for none
 * @abort: abort the tasks of its I_T nexuses (PREEMPT AND ABORT)
 */
struct scst_pr_notice {
	struct scst_pr_registrant who;
	u32 ua;
	bool abort;
};

/**
 * struct scst_pr_effects - side effects of one PERSISTENT RESERVE OUT
 * @n: number of entries in @notice, at most one per registrant
 * @notice: the unit attentions and aborts, none for the issuing nexus
 * @persist: what to do with the APTPL file
 * @changed: the state changed (the sysfs view needs no refresh otherwise)
 *
 * Meaningful only when scst_pr_out() returns 0; zeroed on any other
 * return.
 */
struct scst_pr_effects {
	unsigned int n;
	struct scst_pr_notice notice[SCST_PR_MAX_REGISTRANTS];
	enum scst_pr_persist persist;
	bool changed;
};

/**
 * struct scst_pr_out_req - one PERSISTENT RESERVE OUT command
 * @nexus: the I_T nexus it came through
 * @cdb: its CDB
 * @cdb_len: length of @cdb, at least 10 bytes
 * @data: the parameter list received
 * @data_len: bytes in @data; fewer than PARAMETER LIST LENGTH is a
 *	PARAMETER LIST LENGTH ERROR, more are ignored
 * @port_exists: REGISTER AND MOVE: whether a target port with this
 *	relative target port identifier exists; NULL: any does
 * @ctx: passed to @port_exists
 */
struct scst_pr_out_req {
	const struct scst_pr_nexus *nexus;
	const u8 *cdb;
	unsigned int cdb_len;
	const u8 *data;
	size_t data_len;
	bool (*port_exists)(u16 rel_tgt_id, void *ctx);
	void *ctx;
};

/**
 * struct scst_pr_file_err - why scst_pr_file_parse() refused a file
 * @line: the line, from 1; 0 for the file as a whole
 * @reason: a static string saying what is wrong with it
 */
struct scst_pr_file_err {
	unsigned int line;
	const char *reason;
};

/* Largest SCST APTPL file scst_pr_scst_file_parse() takes. */
#define SCST_PR_SCST_FILE_MAX_LEN	65536

/**
 * struct scst_pr_scst_err - why scst_pr_scst_file_parse() refused a file
 * @offset: the byte offset at fault
 * @record: the registrant record, from 0; -1 for the header
 * @reason: a static string saying what is wrong
 * @fallback: SCST itself would refuse the file too (and try <file>.1)
 */
struct scst_pr_scst_err {
	size_t offset;
	int record;
	const char *reason;
	bool fallback;
};

/**
 * enum scst_pr_scst_src - what a device starts from (scst_pr_scst_choose())
 * @SCST_PR_SCST_NONE: no file: no registrations
 * @SCST_PR_SCST_OURS: <device> is ours (or nothing SCST's): parse it with
 *	scst_pr_file_parse()
 * @SCST_PR_SCST_MAIN: imported from SCST's <device>
 * @SCST_PR_SCST_BACKUP: imported from SCST's <device>.1
 * @SCST_PR_SCST_REFUSED: SCST's files could not be imported
 */
enum scst_pr_scst_src {
	SCST_PR_SCST_NONE,
	SCST_PR_SCST_OURS,
	SCST_PR_SCST_MAIN,
	SCST_PR_SCST_BACKUP,
	SCST_PR_SCST_REFUSED,
};

/**
 * struct scst_pr_scst_choice - the decision of scst_pr_scst_choose()
 * @src: what the device starts from
 * @main_refused: <device> was tried and refused, @main_err says why
 * @bak_refused: <device>.1 was tried and refused, @bak_err says why
 * @main_err: see @main_refused
 * @bak_err: see @bak_refused
 */
struct scst_pr_scst_choice {
	enum scst_pr_scst_src src;
	bool main_refused;
	bool bak_refused;
	struct scst_pr_scst_err main_err;
	struct scst_pr_scst_err bak_err;
};

/*
 * cluster_mode (scst_pr_wire.c): a state in lock value blocks of this
 * length, the same on every node. A notice block holds this many kinds
 * of notice (a unit attention with or without an abort); a PR OUT makes
 * at most three.
 */
#define SCST_PR_WIRE_LVB_LEN		256
#define SCST_PR_WIRE_MAX_NOTE_GROUPS	11

/**
 * struct scst_pr_wire_hdr - what a header block says besides the state
 * @seq: the update's sequence number, one up per update
 * @digest: of the registrant blocks of that update, in index order
 * @node: the DLM node id of the node that wrote it
 */
struct scst_pr_wire_hdr {
	u64 seq;
	u64 digest;
	u32 node;
};

/* ---------------------------------------------------------------------- */
/* Functions (kerneldoc in scst_pr.c, scst_pr_file.c, scst_pr_scst_file.c,  */
/* scst_pr_wire.c)                                                         */
/* ---------------------------------------------------------------------- */

int scst_pr_tid_parse(const u8 *buf, size_t len, struct scst_pr_tid *out);
int scst_pr_tid_from_iscsi_name(struct scst_pr_tid *out, const char *name);
void scst_pr_tid_from_srp(struct scst_pr_tid *out, const u8 port_id[16]);
bool scst_pr_tid_equal(const struct scst_pr_tid *a,
		       const struct scst_pr_tid *b);
int scst_pr_tid_format(const struct scst_pr_tid *tid, char *buf,
		       size_t size);

void scst_pr_state_init(struct scst_pr_state *st);
bool scst_pr_reg_matches(const struct scst_pr_registrant *reg,
			 const struct scst_pr_nexus *nexus);
bool scst_pr_regs_overlap(const struct scst_pr_registrant *a,
			  const struct scst_pr_registrant *b);
int scst_pr_find(const struct scst_pr_state *st,
		 const struct scst_pr_nexus *nexus);
bool scst_pr_is_holder(const struct scst_pr_state *st,
		       const struct scst_pr_nexus *nexus);
bool scst_pr_has_registrations(const struct scst_pr_state *st);
bool scst_pr_type_valid(u8 type);
bool scst_pr_state_valid(const struct scst_pr_state *st);
bool scst_pr_state_equal(const struct scst_pr_state *a,
			 const struct scst_pr_state *b);

int scst_pr_out(struct scst_pr_state *st, const struct scst_pr_out_req *req,
		struct scst_pr_effects *eff, struct scst_cdb_err *err);

int scst_pr_in(const struct scst_pr_state *st, const u8 *cdb,
	       unsigned int cdb_len, u8 *buf, size_t buflen,
	       struct scst_cdb_err *err);
int scst_pr_build_read_keys(const struct scst_pr_state *st, u8 *buf,
			    size_t buflen);
int scst_pr_build_read_reservation(const struct scst_pr_state *st, u8 *buf,
				   size_t buflen);
int scst_pr_build_report_caps(const struct scst_pr_state *st, u8 *buf,
			      size_t buflen);
int scst_pr_build_full_status(const struct scst_pr_state *st, u8 *buf,
			      size_t buflen);

bool scst_pr_conflicts_facts(const struct scst_pr_state *st,
			     const struct scst_pr_nexus *nexus, u32 facts);
bool scst_pr_conflicts(const struct scst_pr_state *st,
		       const struct scst_pr_nexus *nexus, const u8 *cdb,
		       unsigned int cdb_len);
bool scst_pr_unknown_allows(const u8 *cdb, unsigned int cdb_len);

int scst_pr_file_write(const struct scst_pr_state *st, char *buf,
		       size_t size);
int scst_pr_file_parse(const char *buf, size_t len, struct scst_pr_state *st,
		       struct scst_pr_file_err *err);
int scst_pr_state_show(const struct scst_pr_state *st, char *buf,
		       size_t size);

int scst_pr_scst_file_parse(const u8 *buf, size_t len,
			    struct scst_pr_state *st,
			    struct scst_pr_scst_err *err);
void scst_pr_scst_choose(const u8 *main, size_t main_len, const u8 *bak,
			 size_t bak_len, struct scst_pr_state *st,
			 struct scst_pr_scst_choice *c);
int scst_pr_scst_res_text(const struct scst_pr_state *st, char *buf,
			  size_t size);

void scst_pr_wire_put_reg(const struct scst_pr_registrant *r, u8 *lvb);
int scst_pr_wire_get_reg(const u8 *lvb, struct scst_pr_registrant *r);
void scst_pr_wire_put_hdr(const struct scst_pr_state *st, u64 seq, u32 node,
			  u8 *lvb);
int scst_pr_wire_get_hdr(const u8 *lvb, struct scst_pr_wire_hdr *hdr,
			 struct scst_pr_state *st);
int scst_pr_wire_get_state(const u8 *hdr_lvb, const u8 *reg_lvb,
			   unsigned int nblocks, struct scst_pr_wire_hdr *hdr,
			   struct scst_pr_state *st);
int scst_pr_wire_put_notes(const struct scst_pr_state *base,
			   const struct scst_pr_effects *eff, u64 seq,
			   u64 base_seq, u8 *lvb);
int scst_pr_wire_get_notes(const u8 *lvb, const struct scst_pr_state *base,
			   u64 base_seq, u64 seq, struct scst_pr_effects *eff);

#endif /* __SCST_PR_H */
