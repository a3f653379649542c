// SPDX-License-Identifier: GPL-2.0-only
/*
 * srp_hostile - a hostile SRP initiator for testing SRP targets.
 *
 * It logs in over RDMA/CM (librdmacm, libibverbs) and sends malformed
 * logins and information units: truncated and invalid SRP_LOGIN_REQs,
 * unknown and truncated IUs, SRP_CMDs whose CDB or descriptors do not fit
 * the IU, descriptors with bogus memory handles, commands to logical units
 * that do not exist, unknown task management functions, more requests
 * than the target granted credits for. Each case states what the target
 * must do (T10 SRP r16a, SPC-4, SAM-5, and where the standard leaves a
 * choice, what our scst_srpt does) and checks that it happened; the
 * target must then still serve a well-behaved login.
 *
 * It writes one line per case, "PASS name - what the target did" or
 * "FAIL name: why", then a summary line, and exits 0 only if every case
 * passed. The IUs are built here from the standard, with none of the
 * target's code, so that a misreading shared with the target cannot hide.
 *
 * Usage: srp_hostile --dest IP:PORT --id-ext HEX16 --ioc-guid HEX16
 *		      [--src IP] [--timeout SECONDS] [--only NAME]...
 *		      [--skip NAME]... [--sysfs-target DIR] [--big-lun LUN]
 *		      [--flip NAME] [--list] [--verbose]
 *
 * It runs in the target's machine (Soft-RoCE in a VM): cases that check
 * resources read the guest's /proc/meminfo, and with --sysfs-target (the
 * target's directory in /sys/kernel/scst_tgt) it reads the session's send
 * queue accounting and sets the target's login limits. --big-lun names a
 * LUN of at least 8 GiB of 512-byte blocks (default 1). Cases marked
 * "(--only)" in --list need a target set up for them and run only when
 * named.
 *
 * --flip NAME inverts the checks of case NAME, which then must fail: it
 * proves that the checks can fail.
 *
 * The files: srp_hostile.h says which holds what.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "srp_hostile.h"

/* ---------------------------------------------------------------------- */
/* Options, logging                                                        */
/* ---------------------------------------------------------------------- */

struct hostile_opts opt = { .timeout_ms = 10000, .big_lun = 1 };

void vlog(const char *fmt, ...)
{
	va_list ap;

	if (!opt.verbose)
		return;
	va_start(ap, fmt);
	fputs("#   ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
	fflush(stdout);
}

int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------------- */
/* Cases: the verdict                                                      */
/* ---------------------------------------------------------------------- */

/* The case failed for a reason that is no check: always a failure. */
int tfail(struct tcase *t, const char *fmt, ...)
{
	va_list ap;

	if (t->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
	t->failed = true;
	return -1;
}

/* Record what the target did (appended, for the PASS line). */
void tdid(struct tcase *t, const char *fmt, ...)
{
	size_t n = strlen(t->did);
	va_list ap;

	if (n && n < sizeof(t->did) - 2) {
		strcpy(t->did + n, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(t->did + n, sizeof(t->did) - n, fmt, ap);
	va_end(ap);
}

/*
 * A check: @ok is what the target must have done. Returns whether the case
 * goes on; records the failure (with --flip, inverted) otherwise.
 */
bool check(struct tcase *t, bool ok, const char *fmt, ...)
{
	va_list ap;
	char msg[400];

	if (t->failed)
		return false;
	if (ok != t->flip)
		return true;
	if (t->flip) {
		snprintf(t->why, sizeof(t->why),
			 "the target did what the case expects, and --flip inverted the check");
	} else {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		snprintf(t->why, sizeof(t->why), "%s", msg);
	}
	t->failed = true;
	return false;
}
/* ---------------------------------------------------------------------- */
/* The table                                                               */
/* ---------------------------------------------------------------------- */

/**
 * struct hcase - one case
 * @name: its name
 * @run: runs it; 0 if the target did what @expect says
 * @expect: what the target must do
 */
struct hcase {
	const char *name;
	int (*run)(struct tcase *t);
	const char *expect;
};

/* Cases that need a target set up for them (a small send queue): --only */
static const char *const explicit_cases[] = {
	"sq-full-table-fetch",
	"sq-cmd-exceeds-queue",
};

static bool case_explicit(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(explicit_cases); i++)
		if (!strcmp(explicit_cases[i], name))
			return true;
	return false;
}

static const struct hcase cases[] = {
	{ "login-empty", c_login_empty,
	  "no private data: SRP_LOGIN_REJ 0x10002 (IU length 0) or 0x10000" },
	{ "login-truncated-12", c_login_trunc12,
	  "12 bytes, IU length cut off: SRP_LOGIN_REJ 0x10002 or 0x10000" },
	{ "login-truncated-32", c_login_trunc32,
	  "32 bytes, target port id cut off: SRP_LOGIN_REJ 0x10003 or 0x10000" },
	{ "login-wrong-opcode", c_login_opcode,
	  "IU type SRP_CMD instead of SRP_LOGIN_REQ: SRP_LOGIN_REJ 0x10000" },
	{ "login-it-iu-len-32", c_login_iu_small,
	  "it_iu_len 32 < 64: SRP_LOGIN_REJ 0x10002 or 0x10000" },
	{ "login-it-iu-len-1M", c_login_iu_large,
	  "it_iu_len 1 MiB: SRP_LOGIN_REJ 0x10002" },
	{ "login-it-iu-len-4G", c_login_iu_huge,
	  "it_iu_len 0xffffffff: SRP_LOGIN_REJ 0x10002" },
	{ "login-buf-fmt-unsupported", c_login_buf_fmt,
	  "only undefined buffer formats required: SRP_LOGIN_REJ 0x10004, supported formats" },
	{ "login-wrong-id-ext", c_login_id_ext,
	  "target port id (id_ext) not the target's: SRP_LOGIN_REJ 0x10003" },
	{ "login-wrong-ioc-guid", c_login_ioc_guid,
	  "target port id (ioc_guid) not the target's: SRP_LOGIN_REJ 0x10003" },
	{ "login-mca-reserved-2", c_login_mca2,
	  "reserved multi-channel action 10b: SRP_LOGIN_REJ 0x10005" },
	{ "login-mca-reserved-3", c_login_mca3,
	  "reserved multi-channel action 11b: SRP_LOGIN_REJ 0x10005" },
	{ "login-valid", c_login_valid,
	  "valid login: SRP_LOGIN_RSP with credits; TEST UNIT READY GOOD" },
	{ "rw-valid", c_rw_valid,
	  "READ CAPACITY, WRITE and READ back of LBA 1 through our memory: GOOD, same data" },
	{ "iu-unknown-type", c_iu_unknown,
	  "IU type 0x7f: SRP_T_LOGOUT reason 2 and disconnect" },
	{ "iu-target-only-type", c_iu_target_type,
	  "an SRP_RSP sent to the target: SRP_T_LOGOUT reason 2 and disconnect" },
	{ "iu-cmd-short", c_iu_cmd_short,
	  "SRP_CMD of 40 bytes: SRP_T_LOGOUT reason 8 and disconnect" },
	{ "iu-tsk-mgmt-short", c_iu_tmf_short,
	  "SRP_TSK_MGMT of 24 bytes: SRP_T_LOGOUT reason 8 and disconnect" },
	{ "iu-empty", c_iu_empty,
	  "a SEND of 0 bytes: SRP_T_LOGOUT reason 8 and disconnect" },
	{ "cmd-add-cdb-past-iu", c_cmd_add_cdb,
	  "additional CDB of 16 bytes in a 48-byte IU: CHECK CONDITION 5/0e/03" },
	{ "cmd-add-cdb-max-past-iu", c_cmd_add_cdb_max,
	  "additional CDB of 252 bytes in a 100-byte IU: CHECK CONDITION 5/0e/03" },
	{ "cmd-direct-desc-missing", c_cmd_desc_missing,
	  "direct data-in descriptor cut short: CHECK CONDITION 5/0e/03" },
	{ "cmd-direct-desc-count", c_cmd_desc_count,
	  "direct format with descriptor count 3: CHECK CONDITION 5/0e/03" },
	{ "cmd-nodata-desc-count", c_cmd_desc_count_nodata,
	  "no data-out format but data-out count 1: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-past-iu", c_cmd_indirect_past_iu,
	  "indirect list of 4 descriptors, IU holds 1: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-header-short", c_cmd_indirect_short,
	  "indirect descriptor header cut short: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-count-gt-table", c_cmd_indirect_count,
	  "2 descriptors carried from a table of 1: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-table-len", c_cmd_indirect_table_len,
	  "table length 20 (not n * 16): CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-total-len", c_cmd_indirect_total,
	  "TOTAL LENGTH 4096, descriptors 512: CHECK CONDITION 5/0e/03" },
	{ "cmd-indirect-len-overflow", c_cmd_indirect_overflow,
	  "descriptor lengths sum past 2^32: CHECK CONDITION 5/0e/03" },
	{ "cmd-reserved-fmt", c_cmd_reserved_fmt,
	  "reserved data-in format 0xf: CHECK CONDITION 5/0e/03" },
	{ "cmd-bidi", c_cmd_bidi,
	  "data-out and data-in buffers: CHECK CONDITION 5/0e/03" },
	{ "cmd-unmapped-lun", c_cmd_unmapped_lun,
	  "TEST UNIT READY to LUN 200: CHECK CONDITION 5/25/00 (LOGICAL UNIT NOT SUPPORTED)" },
	{ "cmd-garbage-lun", c_cmd_garbage_lun,
	  "LUN ff..ff: CHECK CONDITION 5/25/00" },
	{ "tmf-unknown-function", c_tmf_unknown,
	  "SRP_TSK_MGMT function 0x7f: SRP_RSP RSP_CODE 04h (not supported)" },
	{ "tmf-abort-nonexistent", c_tmf_abort_none,
	  "ABORT TASK of an unknown tag: SRP_RSP RSP_CODE 00h (complete)" },
	{ "tmf-abort-task-set", c_tmf_abort_task_set,
	  "ABORT TASK SET: SRP_RSP RSP_CODE 00h (complete)" },
	{ "tmf-clear-task-set", c_tmf_clear_task_set,
	  "CLEAR TASK SET: SRP_RSP RSP_CODE 00h (complete)" },
	{ "tmf-lun-reset", c_tmf_lun_reset,
	  "LUN RESET: SRP_RSP RSP_CODE 00h (complete), then a UNIT ATTENTION" },
	{ "tmf-clear-aca", c_tmf_clear_aca,
	  "CLEAR ACA without ACA support: SRP_RSP RSP_CODE 04h (not supported)" },
	{ "tmf-lun-reset-unmapped", c_tmf_lun_reset_unmapped,
	  "LUN RESET of unmapped LUN 200: SRP_RSP RSP_CODE 05h (failed)" },
	{ "cmd-ext-table-valid", c_ext_table_valid,
	  "READ of 2 blocks through a table fetched from us (control): GOOD, data as written" },
	{ "cmd-ext-table-read-bad-len", c_ext_table_read_bad,
	  "READ, fetched table's lengths != TOTAL LENGTH: CHECK CONDITION 5/0e/03" },
	{ "cmd-ext-table-write-bad-len", c_ext_table_write_bad,
	  "WRITE, fetched table's lengths != TOTAL LENGTH: CHECK CONDITION 5/0e/03, no write" },
	{ "cmd-ext-table-bogus-rkey", c_ext_table_bogus_rkey,
	  "READ, table behind a bogus R_Key: no GOOD; the channel fails" },
	{ "cmd-write-bogus-rkey", c_cmd_write_bogus_rkey,
	  "WRITE with a bogus R_Key: no GOOD; the channel fails" },
	{ "cmd-read-bogus-rkey", c_cmd_read_bogus_rkey,
	  "READ with a bogus R_Key: no GOOD; the channel fails" },
	{ "cmd-read16-huge-bogus-rkey", c_read16_huge,
	  "READ(16) of 2^24 blocks, 4 GiB descriptor, bogus R_Key: CHECK CONDITION 5/24/00, MemAvailable steady" },
	{ "cmd-write16-huge-bogus-rkey", c_write16_huge,
	  "WRITE(16) of 2^24 blocks, 4 GiB descriptor, bogus R_Key: CHECK CONDITION 5/24/00, MemAvailable steady" },
	{ "cmd-report-luns-alloc-4g", c_report_luns_huge,
	  "REPORT LUNS, allocation length and descriptor 2^32-1: GOOD, the LUN list only, MemAvailable steady" },
	{ "cmd-inquiry-alloc-max", c_inquiry_huge,
	  "INQUIRY, allocation length 0xffff, descriptor 2^32-1: GOOD, standard data, MemAvailable steady" },
	{ "cmd-read-desc-longer", c_read_desc_longer,
	  "READ(10) of 1 block, descriptor 2^32-1: GOOD, one block sent, residual the rest" },
	{ "cmd-many-1byte-desc", c_many_desc,
	  "3000 one-byte descriptors in a fetched table: CHECK CONDITION 5/0e/03" },
	{ "cmd-many-desc-ok", c_many_desc_ok,
	  "READ of 1 block through block/2 two-byte descriptors: GOOD, data as written" },
	{ "login-flood", c_login_flood,
	  "12 logins over max_sessions 4, then max_channels_per_initiator 2: SRP_LOGIN_REJ 0x10001 beyond" },
	{ "sq-full-table-fetch", c_sq_full_fetch,
	  "table fetch with the send queue full (srpt_sq_size=16): waits, READ GOOD, sq_free back to sq_size" },
	{ "sq-cmd-exceeds-queue", c_sq_too_small,
	  "64 descriptors against a 16-entry send queue: CHECK CONDITION 5/0e/03, the channel goes on" },
	{ "i-logout", c_i_logout,
	  "SRP_I_LOGOUT: the target disconnects" },
	{ "credit-overrun", c_credit_overrun,
	  "2 x credits + 32 requests at once: all answered or the channel dropped, no hang" },
	{ "relogin-after-all", c_relogin,
	  "a fresh login works, TEST UNIT READY GOOD, LBA 1 unchanged" },
};

/* ---------------------------------------------------------------------- */
/* main                                                                    */
/* ---------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: srp_hostile --dest IP:PORT --id-ext HEX16 --ioc-guid HEX16\n"
		"                   [--src IP] [--timeout SECONDS] [--only NAME]...\n"
		"                   [--skip NAME]... [--sysfs-target DIR] [--big-lun LUN]\n"
		"                   [--flip NAME] [--list] [--verbose]\n"
		"Sends malformed SRP logins and IUs to an SRP target over RDMA/CM and\n"
		"checks that it refuses each one and keeps serving. --flip NAME inverts\n"
		"the checks of case NAME, which must then fail.\n");
}

static int parse_addr(const char *s, struct sockaddr_storage *ss,
		      bool want_port)
{
	char host[128], *colon;
	const char *port = "0";
	struct addrinfo hints = { .ai_family = AF_UNSPEC }, *ai;

	if (strlen(s) >= sizeof(host))
		return -1;
	strcpy(host, s);
	colon = strrchr(host, ':');
	if (want_port) {
		if (!colon)
			return -1;
		*colon = '\0';
		port = colon + 1;
	}
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	if (getaddrinfo(host, port, &hints, &ai))
		return -1;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return 0;
}

static int parse_hex64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || strlen(s) > 16)
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 16);
	return errno || *end ? -1 : 0;
}

static bool selected(const struct hcase *hc)
{
	const char *name = hc->name;
	unsigned int i;

	for (i = 0; i < opt.n_skip; i++)
		if (!strcmp(opt.skip[i], name))
			return false;
	if (!opt.n_only)
		return !case_explicit(name);
	for (i = 0; i < opt.n_only; i++)
		if (!strcmp(opt.only[i], name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "dest", required_argument, NULL, 'd' },
		{ "src", required_argument, NULL, 's' },
		{ "id-ext", required_argument, NULL, 'i' },
		{ "ioc-guid", required_argument, NULL, 'g' },
		{ "timeout", required_argument, NULL, 't' },
		{ "only", required_argument, NULL, 'o' },
		{ "skip", required_argument, NULL, 'S' },
		{ "sysfs-target", required_argument, NULL, 'T' },
		{ "big-lun", required_argument, NULL, 'b' },
		{ "flip", required_argument, NULL, 'f' },
		{ "list", no_argument, NULL, 'l' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool have_dst = false, have_id = false, have_guid = false;
	unsigned int i, passed = 0, failed = 0;
	int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt_long(argc, argv, "d:s:i:g:t:o:S:T:b:f:lvh", lopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			if (parse_addr(optarg, &opt.dst, true)) {
				fprintf(stderr, "srp_hostile: bad --dest %s (IP:PORT)\n",
					optarg);
				return 2;
			}
			have_dst = true;
			break;
		case 's':
			if (parse_addr(optarg, &opt.src, false)) {
				fprintf(stderr, "srp_hostile: bad --src %s\n",
					optarg);
				return 2;
			}
			opt.have_src = true;
			break;
		case 'i':
			if (parse_hex64(optarg, &opt.id_ext)) {
				fprintf(stderr, "srp_hostile: bad --id-ext %s (16 hex digits)\n",
					optarg);
				return 2;
			}
			have_id = true;
			break;
		case 'g':
			if (parse_hex64(optarg, &opt.ioc_guid)) {
				fprintf(stderr, "srp_hostile: bad --ioc-guid %s (16 hex digits)\n",
					optarg);
				return 2;
			}
			have_guid = true;
			break;
		case 't':
			opt.timeout_ms = atoi(optarg) * 1000;
			if (opt.timeout_ms <= 0 || opt.timeout_ms > 600000) {
				fprintf(stderr, "srp_hostile: bad --timeout %s\n",
					optarg);
				return 2;
			}
			break;
		case 'o':
			if (opt.n_only == ARRAY_SIZE(opt.only)) {
				fprintf(stderr, "srp_hostile: too many --only\n");
				return 2;
			}
			opt.only[opt.n_only++] = optarg;
			break;
		case 'S':
			if (opt.n_skip == ARRAY_SIZE(opt.skip)) {
				fprintf(stderr, "srp_hostile: too many --skip\n");
				return 2;
			}
			opt.skip[opt.n_skip++] = optarg;
			break;
		case 'T':
			opt.sysfs_tgt = optarg;
			break;
		case 'b':
			opt.big_lun = (unsigned int)atoi(optarg);
			if (opt.big_lun > 16383) {
				fprintf(stderr, "srp_hostile: bad --big-lun %s\n",
					optarg);
				return 2;
			}
			break;
		case 'f':
			opt.flip = optarg;
			break;
		case 'l':
			for (i = 0; i < ARRAY_SIZE(cases); i++)
				printf("%-28s %s%s\n", cases[i].name,
				       cases[i].expect,
				       case_explicit(cases[i].name) ?
				       " (--only)" : "");
			return 0;
		case 'v':
			opt.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || !have_dst || !have_id || !have_guid) {
		usage(stderr);
		return 2;
	}
	for (i = 0; i < opt.n_only + opt.n_skip; i++) {
		const char *name = i < opt.n_only ? opt.only[i] :
				   opt.skip[i - opt.n_only];
		unsigned int k;

		for (k = 0; k < ARRAY_SIZE(cases); k++)
			if (!strcmp(cases[k].name, name))
				break;
		if (k == ARRAY_SIZE(cases)) {
			fprintf(stderr, "srp_hostile: no case %s (--list)\n",
				name);
			return 2;
		}
	}

	rx = malloc(sizeof(*rx));
	if (conn_setup() || !rx) {
		fprintf(stderr, "srp_hostile: cannot create an RDMA/CM event channel: %s\n",
			strerror(errno));
		return 1;
	}

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct hcase *hc = &cases[i];
		struct tcase t = { .name = hc->name };
		int64_t start = now_ms();
		int ret;

		if (!selected(hc))
			continue;
		t.flip = opt.flip && !strcmp(opt.flip, hc->name);
		vlog("%s: expect %s", hc->name, hc->expect);
		ret = hc->run(&t);
		if (ret && !t.failed)
			tfail(&t, "failed without a reason (a bug of the tool)");
		if (!ret && t.failed)
			ret = -1;
		if (ret) {
			/* leave no half-broken channel to the next case */
			logout();
			printf("FAIL %s: %s\n", hc->name, t.why);
			failed++;
		} else {
			printf("PASS %s - %s (%" PRId64 " ms)\n", hc->name,
			       t.did, now_ms() - start);
			passed++;
		}
	}
	logout();
	conn_teardown();
	free(rx);
	printf("srp_hostile: %u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
