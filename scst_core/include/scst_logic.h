/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure-logic helpers of the SCST core: initiator name patterns, sysfs mgmt
 * command parsing and SPC-4 sense data (the SAM-5 codes are in scst_sam.h).
 * Everything declared here works on caller-provided memory only, never
 * sleeps and never allocates, so it is shared verbatim by scst.ko and the
 * userspace unit tests and fuzzers.
 */
#ifndef __SCST_LOGIC_H
#define __SCST_LOGIC_H

#include "scst_pure.h"

/* ---------------------------------------------------------------------- */
/* Initiator name patterns (scst_wildcard.c)                              */
/* ---------------------------------------------------------------------- */

/* Longest pattern accepted by ini_groups/<g>/initiators/mgmt, '!' included. */
#define SCST_PATTERN_MAX_LEN		256

/**
 * enum scst_pattern_result - outcome of matching one ini_groups pattern
 * @SCST_PATTERN_NO_MATCH: the pattern says nothing about the initiator
 * @SCST_PATTERN_MATCH: the initiator belongs to the group
 * @SCST_PATTERN_EXCLUDE: a '!' pattern matched; the initiator is kept out of
 *	the group whatever its other patterns say
 */
enum scst_pattern_result {
	SCST_PATTERN_NO_MATCH,
	SCST_PATTERN_MATCH,
	SCST_PATTERN_EXCLUDE,
};

bool scst_wildcard_match(const char *pattern, const char *name);
bool scst_pattern_is_negated(const char *pattern);
const char *scst_pattern_strip_negation(const char *pattern);
enum scst_pattern_result scst_pattern_match(const char *pattern,
					    const char *name);
int scst_pattern_validate(const char *pattern);

/* ---------------------------------------------------------------------- */
/* sysfs mgmt command lines (scst_mgmt_parse.c)                           */
/* ---------------------------------------------------------------------- */

/* One sysfs write: at most a page, the terminating NUL excluded. */
#define SCST_MGMT_MAX_LINE		4095
#define SCST_MGMT_MAX_ARGS		8
#define SCST_MGMT_MAX_PARAMS		32

/**
 * struct scst_mgmt_param - one key=value parameter of a mgmt command
 * @key: parameter name, [a-z0-9_]+
 * @value: parameter value, never empty; no blanks, no ';'
 */
struct scst_mgmt_param {
	char *key;
	char *value;
};

/**
 * struct scst_mgmt_line - a parsed mgmt command line
 * @argv: positional words, argv[0] being the command
 * @argc: number of entries in @argv
 * @params: key=value parameters, in the order written
 * @nparams: number of entries in @params
 * @err_reason: on failure, a static string saying what is wrong with the
 *	token reported by scst_mgmt_parse(); NULL on success
 *
 * All strings point into the buffer given to scst_mgmt_parse().
 */
struct scst_mgmt_line {
	char *argv[SCST_MGMT_MAX_ARGS];
	unsigned int argc;
	struct scst_mgmt_param params[SCST_MGMT_MAX_PARAMS];
	unsigned int nparams;
	const char *err_reason;
};

int scst_mgmt_parse(char *buf, size_t len, unsigned int max_positional,
		    struct scst_mgmt_line *out, const char **bad_token);
const char *scst_mgmt_get_param(const struct scst_mgmt_line *line,
				const char *key);
int scst_mgmt_check_params(const struct scst_mgmt_line *line,
			   const char *const *allowed, size_t nallowed,
			   const char **bad_token);
int scst_mgmt_parse_u64(const char *s, u64 *val);
int scst_mgmt_parse_bool(const char *s, bool *val);

/**
 * struct scst_mgmt_verb - one command of a mgmt file: a row of its table
 * @name: the command word, argv[0]
 * @nargs: words after it: exactly this many
 * @params: key=value parameters may follow (@fn checks which)
 * @usage: the command and its operands as logged for a wrong line
 *	("usage: <usage>")
 * @help: the same as reading the mgmt file shows it
 *	("echo \"<help>\" >mgmt")
 * @fn: runs the command on the mgmt file's object @ctx
 */
struct scst_mgmt_verb {
	const char *name;
	u8 nargs;
	bool params;
	const char *usage;
	const char *help;
	int (*fn)(const struct scst_mgmt_line *line, void *ctx);
};

/**
 * struct scst_mgmt_table - the commands of one kind of mgmt file
 * @verbs: its rows, in the order reading the file lists them
 * @n: number of rows
 * @what: the file, for "unknown <what> mgmt command" (NULL: the owner's
 *	name prefixes the message instead)
 */
struct scst_mgmt_table {
	const struct scst_mgmt_verb *verbs;
	unsigned int n;
	const char *what;
};

const struct scst_mgmt_verb *
scst_mgmt_find_verb(const struct scst_mgmt_table *t, const char *name);
bool scst_mgmt_usage_ok(const struct scst_mgmt_verb *v,
			const struct scst_mgmt_line *line);
unsigned int scst_mgmt_max_positional(const struct scst_mgmt_table *t);
size_t scst_mgmt_help(char *buf, size_t size, const struct scst_mgmt_table *t);

/* ---------------------------------------------------------------------- */
/* Sense data, SPC-4 §4.5 (scst_sense.c)                                  */
/* ---------------------------------------------------------------------- */

/* SPC-4 §4.5.1: response codes, bits 6..0 of byte 0. */
#define SCST_SENSE_FIXED_CURRENT	0x70
#define SCST_SENSE_FIXED_DEFERRED	0x71
#define SCST_SENSE_DESC_CURRENT		0x72
#define SCST_SENSE_DESC_DEFERRED	0x73

/* SPC-4 §4.5.3: fixed format sense data built by us is 18 bytes long. */
#define SCST_SENSE_FIXED_LEN		18
/* SPC-4 §4.5.2.1: descriptor format header; the list follows. */
#define SCST_SENSE_DESC_HDR_LEN		8
/* SPC-4 §4.5.2.1: ADDITIONAL SENSE LENGTH <= 244, so at most 252 bytes. */
#define SCST_SENSE_MAX_LEN		252

/* SPC-4 §4.5.2.1: sense data descriptor types. */
#define SCST_SENSE_DESC_INFORMATION	0x00
#define SCST_SENSE_DESC_CMD_SPECIFIC	0x01
#define SCST_SENSE_DESC_KEY_SPECIFIC	0x02

/* SPC-4 §4.5.6: sense keys. */
#define SCST_SK_NO_SENSE		0x00
#define SCST_SK_RECOVERED_ERROR		0x01
#define SCST_SK_NOT_READY		0x02
#define SCST_SK_MEDIUM_ERROR		0x03
#define SCST_SK_HARDWARE_ERROR		0x04
#define SCST_SK_ILLEGAL_REQUEST		0x05
#define SCST_SK_UNIT_ATTENTION		0x06
#define SCST_SK_DATA_PROTECT		0x07
#define SCST_SK_BLANK_CHECK		0x08
#define SCST_SK_VENDOR_SPECIFIC		0x09
#define SCST_SK_COPY_ABORTED		0x0a
#define SCST_SK_ABORTED_COMMAND		0x0b
#define SCST_SK_VOLUME_OVERFLOW		0x0d
#define SCST_SK_MISCOMPARE		0x0e

/*
 * A sense code packs a sense key with its ADDITIONAL SENSE CODE and
 * ADDITIONAL SENSE CODE QUALIFIER (SPC-4 §4.5.6) into one value so
 * that the common conditions have one name each; see scst_build_sense_code().
 */
#define SCST_SENSE_CODE(key, asc, ascq) \
	(((u32)(key) << 16) | ((u32)(asc) << 8) | (u32)(ascq))
#define SCST_SENSE_CODE_KEY(code)	((u8)((code) >> 16))
#define SCST_SENSE_CODE_ASC(code)	((u8)((code) >> 8))
#define SCST_SENSE_CODE_ASCQ(code)	((u8)(code))

#define SCST_SENSE_NO_SENSE \
	SCST_SENSE_CODE(SCST_SK_NO_SENSE, 0x00, 0x00)
#define SCST_SENSE_NOT_READY \
	SCST_SENSE_CODE(SCST_SK_NOT_READY, 0x04, 0x00)
/* SPC-4 Annex D: LOGICAL UNIT NOT READY, MANUAL INTERVENTION REQUIRED */
#define SCST_SENSE_NOT_READY_MANUAL \
	SCST_SENSE_CODE(SCST_SK_NOT_READY, 0x04, 0x03)
#define SCST_SENSE_MEDIUM_NOT_PRESENT \
	SCST_SENSE_CODE(SCST_SK_NOT_READY, 0x3a, 0x00)
#define SCST_SENSE_WRITE_ERROR \
	SCST_SENSE_CODE(SCST_SK_MEDIUM_ERROR, 0x0c, 0x00)
#define SCST_SENSE_UNRECOVERED_READ_ERROR \
	SCST_SENSE_CODE(SCST_SK_MEDIUM_ERROR, 0x11, 0x00)
#define SCST_SENSE_HARDWARE_ERROR \
	SCST_SENSE_CODE(SCST_SK_HARDWARE_ERROR, 0x44, 0x00)
#define SCST_SENSE_PARAM_LIST_LEN_ERROR \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x1a, 0x00)
#define SCST_SENSE_INVALID_OPCODE \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x20, 0x00)
#define SCST_SENSE_LBA_OUT_OF_RANGE \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x21, 0x00)
#define SCST_SENSE_INVALID_FIELD_IN_CDB \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x24, 0x00)
#define SCST_SENSE_LUN_NOT_SUPPORTED \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x25, 0x00)
#define SCST_SENSE_INVALID_FIELD_IN_PARAM_LIST \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x26, 0x00)
#define SCST_SENSE_INVALID_RELEASE_OF_PR \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x26, 0x04)
#define SCST_SENSE_SAVING_PARAMS_UNSUP \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x39, 0x00)
#define SCST_SENSE_INSUFFICIENT_REG_RESOURCES \
	SCST_SENSE_CODE(SCST_SK_ILLEGAL_REQUEST, 0x55, 0x04)
#define SCST_SENSE_POWER_ON_RESET \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x29, 0x00)
#define SCST_SENSE_NEXUS_LOSS \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x29, 0x07)
#define SCST_SENSE_MODE_PARAMS_CHANGED \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x2a, 0x01)
#define SCST_SENSE_RESERVATIONS_PREEMPTED \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x2a, 0x03)
#define SCST_SENSE_RESERVATIONS_RELEASED \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x2a, 0x04)
#define SCST_SENSE_REGISTRATIONS_PREEMPTED \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x2a, 0x05)
#define SCST_SENSE_CAPACITY_DATA_CHANGED \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x2a, 0x09)
#define SCST_SENSE_CLEARED_BY_ANOTHER_INI \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x2f, 0x00)
#define SCST_SENSE_INQUIRY_DATA_CHANGED \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x3f, 0x03)
#define SCST_SENSE_REPORTED_LUNS_CHANGED \
	SCST_SENSE_CODE(SCST_SK_UNIT_ATTENTION, 0x3f, 0x0e)
#define SCST_SENSE_WRITE_PROTECTED \
	SCST_SENSE_CODE(SCST_SK_DATA_PROTECT, 0x27, 0x00)
#define SCST_SENSE_SPACE_ALLOC_FAILED_WP \
	SCST_SENSE_CODE(SCST_SK_DATA_PROTECT, 0x27, 0x07)
#define SCST_SENSE_ABORTED_COMMAND \
	SCST_SENSE_CODE(SCST_SK_ABORTED_COMMAND, 0x00, 0x00)
#define SCST_SENSE_GUARD_CHECK_FAILED \
	SCST_SENSE_CODE(SCST_SK_ABORTED_COMMAND, 0x10, 0x01)
#define SCST_SENSE_APP_TAG_CHECK_FAILED \
	SCST_SENSE_CODE(SCST_SK_ABORTED_COMMAND, 0x10, 0x02)
#define SCST_SENSE_REF_TAG_CHECK_FAILED \
	SCST_SENSE_CODE(SCST_SK_ABORTED_COMMAND, 0x10, 0x03)
#define SCST_SENSE_OVERLAPPED_COMMANDS \
	SCST_SENSE_CODE(SCST_SK_ABORTED_COMMAND, 0x4e, 0x00)
#define SCST_SENSE_MISCOMPARE_DURING_VERIFY \
	SCST_SENSE_CODE(SCST_SK_MISCOMPARE, 0x1d, 0x00)

int scst_build_sense(u8 *buf, size_t buflen, bool descriptor_format,
		     u8 key, u8 asc, u8 ascq);
int scst_sense_set_field_pointer(u8 *buf, size_t buflen, bool in_cdb,
				 u16 byte, int bit);
int scst_sense_set_information(u8 *buf, size_t buflen, u64 info);
int scst_sense_decode(const u8 *buf, size_t len, u8 *key, u8 *asc, u8 *ascq);

/**
 * scst_build_sense_code() - scst_build_sense() taking an SCST_SENSE_* code
 * @buf: buffer for the sense data
 * @buflen: size of @buf
 * @descriptor_format: build descriptor format (true) or fixed format sense
 * @code: sense key, ASC and ASCQ packed by SCST_SENSE_CODE()
 *
 * Return: as scst_build_sense().
 */
static inline int scst_build_sense_code(u8 *buf, size_t buflen,
					bool descriptor_format, u32 code)
{
	return scst_build_sense(buf, buflen, descriptor_format,
				SCST_SENSE_CODE_KEY(code),
				SCST_SENSE_CODE_ASC(code),
				SCST_SENSE_CODE_ASCQ(code));
}

/* ---------------------------------------------------------------------- */
/* Session names (scst_sess_name.c)                                       */
/* ---------------------------------------------------------------------- */

/*
 * Most names scst_register_session() tries for one initiator on one
 * target: NAME, NAME_1 ... NAME_(SCST_SESS_NAME_MAX_TRIES - 1).
 */
#define SCST_SESS_NAME_MAX_TRIES	1024

int scst_sess_name_format(char *out, size_t size, const char *initiator,
			  unsigned int n);
int scst_sess_name_pick(char *out, size_t size, const char *initiator,
			bool (*used)(const char *name, void *ctx), void *ctx);

/* ---------------------------------------------------------------------- */
/* Target, group and device attributes (scst_tgt_attr.c)                  */
/* ---------------------------------------------------------------------- */

/* Longest targets/<drv>/<tgt>/comment, its trailing newline excluded. */
#define SCST_COMMENT_MAX_LEN		256

/*
 * io_grouping_type of a target or group, with SCST's values: a number
 * above 0 is an I/O group shared by every group that names it.
 */
#define SCST_IO_GROUPING_AUTO		0
#define SCST_IO_GROUPING_THIS_GROUP_ONLY	(-1)
#define SCST_IO_GROUPING_NEVER		(-2)
/* Largest I/O group number (SCST takes any positive long). */
#define SCST_IO_GROUPING_MAX		0x7fffffff

int scst_comment_parse(const char *buf, size_t count, size_t *len);
int scst_io_grouping_parse(const char *buf, size_t count, int *type);
int scst_io_grouping_format(char *out, size_t size, int type);
int scst_io_grouping_key(char *out, size_t size, int type,
			 const char *initiator, const char *tgt,
			 const char *group, const char *sess);
int scst_tst_parse(const char *buf, size_t count, u8 *tst);
int scst_bool01_parse(const char *buf, size_t count, bool *val);

/* ---------------------------------------------------------------------- */
/* Command latency statistics (scst_lat.c)                                */
/* ---------------------------------------------------------------------- */

/*
 * Stages of a command whose time measure_latency accumulates: INIT from
 * its arrival to the start of its execution (parse, data-out, task set),
 * EXEC the execution, XMIT from its end to the driver's report that the
 * response went out.
 */
enum { SCST_LAT_INIT, SCST_LAT_EXEC, SCST_LAT_XMIT, SCST_LAT_STAGES };
/* By data direction as enum scst_data_direction: n, w, r, b */
#define SCST_LAT_DIRS			4
/* Transfer size buckets as SCST's files: 512 (and less) to 524288 (and more) */
#define SCST_LAT_LOG2_MIN		9
#define SCST_LAT_SIZES			11

/**
 * struct scst_lat_entry - the times of one stage, in units of 100 ns
 * @count: commands
 * @min: shortest
 * @max: longest
 * @sum: their sum
 * @sumsq: the sum of their squares
 */
struct scst_lat_entry {
	u32 count;
	u64 min, max, sum, sumsq;
};

/* struct scst_lat_stats - a session's latency statistics */
struct scst_lat_stats {
	struct scst_lat_entry e[SCST_LAT_DIRS][SCST_LAT_SIZES][SCST_LAT_STAGES];
};

int scst_lat_bucket(u64 bytes);
void scst_lat_add(struct scst_lat_entry *e, u64 ns);
int scst_lat_file_parse(const char *name, unsigned int *dir,
			unsigned int *size);
int scst_lat_format(const struct scst_lat_stats *s, unsigned int dir,
		    unsigned int size, char *buf, size_t len);

#endif /* __SCST_LOGIC_H */
