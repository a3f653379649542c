/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * srp_hostile - what its files share: the SRP r16a constants, the
 * options, the verdict of a case, connections and IUs, and the cases that
 * the table in srp_hostile.c runs.
 *
 *   srp_hostile.c        options, verdicts, the case table, main
 *   srp_hostile_conn.c   RDMA/CM connections: setup, sends, completions
 *   srp_hostile_iu.c     building IUs, parsing SRP_RSPs, conversations
 *   srp_hostile_login.c  the cases: logins
 *   srp_hostile_cmd.c    the cases: IUs, SRP_CMDs, descriptors, TMFs
 *   srp_hostile_res.c    the cases: bounded resources, send queue, login
 *                        limits
 */
#ifndef SRP_HOSTILE_H
#define SRP_HOSTILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

/* ---------------------------------------------------------------------- */
/* SRP r16a constants, written from the standard                           */
/* ---------------------------------------------------------------------- */

/* §5.1: IU types. */
#define SRP_LOGIN_REQ		0x00
#define SRP_TSK_MGMT		0x01
#define SRP_CMD			0x02
#define SRP_I_LOGOUT		0x03
#define SRP_T_LOGOUT		0x80
#define SRP_CRED_REQ		0x81
#define SRP_AER_REQ		0x82
#define SRP_LOGIN_RSP		0xc0
#define SRP_RSP			0xc1
#define SRP_LOGIN_REJ		0xc2

/* Lengths of the fixed parts (§6). */
#define LOGIN_REQ_RDMA_LEN	56	/* Linux' struct srp_login_req_rdma */
#define LOGIN_RSP_LEN		52
#define LOGIN_REJ_LEN		32
#define T_LOGOUT_LEN		16
#define TSK_MGMT_LEN		48
#define CMD_LEN			48
#define RSP_LEN			36
#define I_LOGOUT_LEN		16
#define DIRECT_DESC_LEN		16
#define INDIRECT_HDR_LEN	20

/* §6.2: REQUIRED BUFFER FORMATS, REQUIRED FLAGS. */
#define BUF_FMT_DIRECT		0x0002
#define BUF_FMT_INDIRECT	0x0004
#define MCA_SINGLE		0x00
#define MCA_MULTI		0x01

/* §6.4: SRP_LOGIN_REJ REASON. */
#define REJ_UNABLE_ESTABLISH	0x00010000
#define REJ_INSUFFICIENT_RES	0x00010001
#define REJ_IT_IU_LEN		0x00010002
#define REJ_UNABLE_ASSOCIATE	0x00010003
#define REJ_UNSUPPORTED_FMT	0x00010004
#define REJ_MULTICHANNEL	0x00010005
#define REJ_CHANNEL_LIMIT	0x00010006

/* §6.6: SRP_T_LOGOUT REASON. */
#define TLO_INVALID_IU_TYPE	0x00000002
#define TLO_BAD_DATA_OUT_FMT	0x00000005
#define TLO_BAD_DATA_IN_FMT	0x00000006
#define TLO_INVALID_IU_LEN	0x00000008

/* §6.8: descriptor formats. */
#define DESC_NONE		0
#define DESC_DIRECT		1
#define DESC_INDIRECT		2

/* §6.7: TASK MANAGEMENT FUNCTION. */
#define TMF_ABORT_TASK		0x01
#define TMF_ABORT_TASK_SET	0x02
#define TMF_CLEAR_TASK_SET	0x04
#define TMF_LUN_RESET		0x08
#define TMF_CLEAR_ACA		0x40

/* §6.9: SRP_RSP flags and RSP_CODE. */
#define RSP_RSPVALID		0x01
#define RSP_SNSVALID		0x02
#define RSP_DIUNDER		0x20
#define RSP_CODE_COMPLETE	0x00
#define RSP_CODE_NOT_SUPPORTED	0x04
#define RSP_CODE_FAILED		0x05

/* SAM-5 status, SPC-4 sense keys. */
#define ST_GOOD			0x00
#define ST_CHECK_CONDITION	0x02
#define ST_BUSY			0x08
#define ST_TASK_SET_FULL	0x28
#define SK_ILLEGAL_REQUEST	0x05
#define SK_UNIT_ATTENTION	0x06

/* IBA: CM REJ reason "consumer defined", which carries the SRP_LOGIN_REJ. */
#define IB_CM_REJ_CONSUMER	28

/* ---------------------------------------------------------------------- */
/* Byte order                                                              */
/* ---------------------------------------------------------------------- */

static inline void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, v >> 16);
	put_be16(p + 2, v);
}

static inline void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

static inline uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)get_be16(p) << 16 | get_be16(p + 2);
}

static inline uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

/* ---------------------------------------------------------------------- */
/* Options, logging                                                        */
/* ---------------------------------------------------------------------- */

/* The command line */
struct hostile_opts {
	struct sockaddr_storage dst, src;
	bool have_src;
	uint64_t id_ext, ioc_guid;
	int timeout_ms;
	bool verbose;
	const char *only[64];
	unsigned int n_only;
	const char *skip[64];
	unsigned int n_skip;
	const char *flip;
	const char *sysfs_tgt;
	unsigned int big_lun;
};

extern struct hostile_opts opt;

void vlog(const char *fmt, ...) __printf(1, 2);
int64_t now_ms(void);

/* ---------------------------------------------------------------------- */
/* Cases: the verdict                                                      */
/* ---------------------------------------------------------------------- */

/**
 * struct tcase - the state of the case being run
 * @name: its name
 * @flip: --flip: every check is inverted, so the case must fail
 * @failed: a check failed
 * @why: why the case failed
 * @did: what the target did, for the PASS line
 */
struct tcase {
	const char *name;
	bool flip;
	bool failed;
	char why[512];
	char did[512];
};

int tfail(struct tcase *t, const char *fmt, ...) __printf(2, 3);
void tdid(struct tcase *t, const char *fmt, ...) __printf(2, 3);
bool check(struct tcase *t, bool ok, const char *fmt, ...)
	__printf(3, 4);

/* A check that ends the case (returns -1) when it fails. */
#define CHECK(t, cond, ...) \
	do { if (!check(t, cond, __VA_ARGS__)) return -1; } while (0)

/* ---------------------------------------------------------------------- */
/* Connections                                                             */
/* ---------------------------------------------------------------------- */

#define NRECV		512		/* receive buffers */
#define RBUF_SIZE	4096		/* each; above any max_ti_iu_len */
#define NSEND		512		/* send slots = send queue depth */
#define SBUF_SIZE	1024		/* each; our IUs are small */
#define DATA_SIZE	(64 * 1024)	/* data-in / data-out buffers */
#define IT_IU_LEN	1024		/* what we ask for at login */
#define WR_RECV		(1ULL << 32)	/* wr_id flag of receives */

/**
 * struct iu - a received information unit
 * @len: its length
 * @buf: its bytes
 */
struct iu {
	uint32_t len;
	uint8_t buf[RBUF_SIZE];
};

/**
 * struct conn - one RDMA channel (or login attempt) to the target
 * @id: the RDMA/CM ID
 * @pd: its protection domain
 * @cc: completion channel of @cq
 * @cq: send and receive completions
 * @mr: registration of @mem
 * @mem: receive buffers, send slots, data area
 * @data: the data area, DATA_SIZE bytes, remotely readable and writable
 * @send_next: next send slot
 * @send_busy: sends posted and not completed
 * @route_ok: RDMA_CM_EVENT_ROUTE_RESOLVED arrived
 * @established: the login was accepted
 * @dead: the QP failed (a flushed or failed completion)
 * @disconnected: RDMA_CM_EVENT_DISCONNECTED arrived
 * @rejected: RDMA_CM_EVENT_REJECTED arrived
 * @cm_error: another CM event ended the connection attempt
 * @cm_status: status of the event that ended the connection attempt
 * @pdata: private data of the ESTABLISHED or REJECTED event
 * @pdata_len: its length
 * @credits: the request limit: granted by SRP_LOGIN_RSP and SRP_RSPs,
 *	less the requests sent
 * @max_ti_iu_len: from SRP_LOGIN_RSP
 * @max_it_iu_len: from SRP_LOGIN_RSP
 */
struct conn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *mem;
	uint8_t *data;
	unsigned int send_next;
	unsigned int send_busy;
	bool route_ok;
	bool established;
	bool dead;
	bool disconnected;
	bool rejected;
	bool cm_error;
	int cm_status;
	uint8_t pdata[256];
	uint8_t pdata_len;
	int32_t credits;
	uint32_t max_ti_iu_len;
	uint32_t max_it_iu_len;
};

extern struct conn *conn;	/* the logged-in channel, if any */
/* conn_prepare() posts no receive buffer (the target's SENDs stall) */
extern bool prepare_no_recv;

/* conn_wait(): what came */
enum { GOT_IU, GOT_DEAD, GOT_TIMEOUT };

int conn_setup(void);
void conn_teardown(void);
void conn_close(struct conn *c);
int post_recv(struct conn *c, unsigned int i);
void conn_destroy(struct conn *c);
struct conn *conn_prepare(struct tcase *t);
int conn_connect(struct tcase *t, struct conn *c, const uint8_t *pdata,
		 uint8_t pdata_len);
int cq_poll_one(struct conn *c, struct iu *iu);
int conn_wait(struct conn *c, int ms, struct iu *iu);
int conn_send(struct tcase *t, struct conn *c, const void *buf, uint32_t len);

/* ---------------------------------------------------------------------- */
/* IUs: building requests, parsing responses, conversations                */
/* ---------------------------------------------------------------------- */

/* The login request, RDMA/CM form (Linux' struct srp_login_req_rdma). */
struct login {
	uint64_t tag;
	uint16_t buf_fmt;
	uint8_t flags;
	uint8_t opcode;
	uint32_t it_iu_len;
	uint64_t id_ext;
	uint64_t ioc_guid;
};

/**
 * struct cmd - an SRP_CMD to build
 * @lun: LOGICAL UNIT NUMBER
 * @cdb: the CDB (16 bytes)
 * @fmt: byte 5: DATA-OUT (bits 7-4) and DATA-IN (bits 3-0) formats
 * @do_cnt: DATA-OUT BUFFER DESCRIPTOR COUNT
 * @di_cnt: DATA-IN BUFFER DESCRIPTOR COUNT
 * @add_cdb: byte 31: ADDITIONAL CDB LENGTH (bits 7-2, in dwords)
 * @tail: what follows the fixed part (additional CDB, descriptors)
 * @tail_len: its length
 * @tag: the TAG, set by cmd_build()
 */
struct cmd {
	unsigned int lun;
	uint8_t cdb[16];
	uint8_t fmt;
	uint8_t do_cnt;
	uint8_t di_cnt;
	uint8_t add_cdb;
	uint8_t tail[256];
	uint32_t tail_len;
	uint64_t tag;
};

/**
 * struct rsp - a parsed SRP_RSP (§6.9)
 * @tag: TAG
 * @delta: REQUEST LIMIT DELTA
 * @flags: byte 18
 * @status: SCSI STATUS
 * @resp: response data (RSPVALID)
 * @resp_len: its length
 * @sense: sense data (SNSVALID)
 * @sense_len: its length
 */
struct rsp {
	uint64_t tag;
	int32_t delta;
	uint8_t flags;
	uint8_t status;
	const uint8_t *resp;
	uint32_t resp_len;
	const uint8_t *sense;
	uint32_t sense_len;
};

extern struct iu *rx;		/* the last IU received */
extern uint64_t next_tag;
extern uint32_t block_len;	/* LUN 0's block length, once known */
extern uint8_t lba1_pattern[4096];
extern bool lba1_written;

void login_default(struct login *l);
void login_build(uint8_t *p, const struct login *l);
void lun_encode(uint8_t *p, unsigned int lun);
uint32_t cmd_build(uint8_t *p, struct cmd *cm);
void desc_put(uint8_t *p, uint64_t va, uint32_t rkey, uint32_t len);
bool rsp_parse(const struct iu *iu, struct rsp *r, char *err, size_t errlen);
bool sense_decode(const struct rsp *r, uint8_t *key, uint8_t *asc,
		  uint8_t *ascq);
void rsp_str(const struct rsp *r, char *buf, size_t len);
int login_valid(struct tcase *t);
void logout(void);
int ensure_conn(struct tcase *t);
int fresh_conn(struct tcase *t);
int request(struct tcase *t, const uint8_t *iu, uint32_t len,
	    uint64_t tag, struct rsp *r);
int command(struct tcase *t, struct cmd *cm, struct rsp *r);
int command_good(struct tcase *t, struct cmd *cm, const char *what);
void cdb_tur(struct cmd *cm, unsigned int lun);
int tur_ok(struct tcase *t);
int tur_pre(struct tcase *t);
void cdb_rw10(struct cmd *cm, bool write, uint32_t lba,
	      uint16_t nblocks, uint64_t va, uint32_t rkey, uint32_t len);
int get_block_len(struct tcase *t);
int read_block(struct tcase *t, uint32_t lba);
int expect_cc(struct tcase *t, const uint8_t *iu, uint32_t len,
	      uint64_t tag, uint8_t key, uint8_t asc, uint8_t ascq);
int cmd_expect_cc(struct tcase *t, struct cmd *cm, uint8_t key,
		  uint8_t asc, uint8_t ascq);
int cmd_expect_invalid_iu(struct tcase *t, struct cmd *cm);
int expect_logout(struct tcase *t, const uint8_t *iu, uint32_t len,
		  const uint32_t *reasons, unsigned int n);

/* ---------------------------------------------------------------------- */
/* The cases (run by the table in srp_hostile.c)                           */
/* ---------------------------------------------------------------------- */

/* srp_hostile_cmd.c, for the cases of srp_hostile_res.c too */
void cdb_ext_table(struct cmd *cm, bool write, uint32_t lba,
		   uint32_t len2, uint32_t rkey);
int tmf(struct tcase *t, uint8_t func, uint64_t task_tag, uint8_t want_code);

/* srp_hostile_login.c */
int c_login_empty(struct tcase *t);
int c_login_trunc12(struct tcase *t);
int c_login_trunc32(struct tcase *t);
int c_login_opcode(struct tcase *t);
int c_login_iu_small(struct tcase *t);
int c_login_iu_large(struct tcase *t);
int c_login_iu_huge(struct tcase *t);
int c_login_buf_fmt(struct tcase *t);
int c_login_id_ext(struct tcase *t);
int c_login_ioc_guid(struct tcase *t);
int c_login_mca2(struct tcase *t);
int c_login_mca3(struct tcase *t);
int c_login_valid(struct tcase *t);
int c_relogin(struct tcase *t);

/* srp_hostile_cmd.c */
int c_rw_valid(struct tcase *t);
int c_iu_unknown(struct tcase *t);
int c_iu_target_type(struct tcase *t);
int c_iu_cmd_short(struct tcase *t);
int c_iu_tmf_short(struct tcase *t);
int c_iu_empty(struct tcase *t);
int c_i_logout(struct tcase *t);
int c_cmd_add_cdb(struct tcase *t);
int c_cmd_add_cdb_max(struct tcase *t);
int c_cmd_desc_missing(struct tcase *t);
int c_cmd_desc_count(struct tcase *t);
int c_cmd_desc_count_nodata(struct tcase *t);
int c_cmd_indirect_past_iu(struct tcase *t);
int c_cmd_indirect_short(struct tcase *t);
int c_cmd_indirect_count(struct tcase *t);
int c_cmd_indirect_table_len(struct tcase *t);
int c_cmd_indirect_total(struct tcase *t);
int c_cmd_indirect_overflow(struct tcase *t);
int c_cmd_reserved_fmt(struct tcase *t);
int c_cmd_bidi(struct tcase *t);
int c_cmd_unmapped_lun(struct tcase *t);
int c_cmd_garbage_lun(struct tcase *t);
int c_cmd_write_bogus_rkey(struct tcase *t);
int c_cmd_read_bogus_rkey(struct tcase *t);
int c_ext_table_valid(struct tcase *t);
int c_ext_table_read_bad(struct tcase *t);
int c_ext_table_write_bad(struct tcase *t);
int c_ext_table_bogus_rkey(struct tcase *t);
int c_tmf_unknown(struct tcase *t);
int c_tmf_abort_none(struct tcase *t);
int c_tmf_abort_task_set(struct tcase *t);
int c_tmf_clear_task_set(struct tcase *t);
int c_tmf_lun_reset(struct tcase *t);
int c_tmf_clear_aca(struct tcase *t);
int c_tmf_lun_reset_unmapped(struct tcase *t);
int c_credit_overrun(struct tcase *t);

/* srp_hostile_res.c */
int c_read16_huge(struct tcase *t);
int c_write16_huge(struct tcase *t);
int c_report_luns_huge(struct tcase *t);
int c_inquiry_huge(struct tcase *t);
int c_read_desc_longer(struct tcase *t);
int c_many_desc(struct tcase *t);
int c_many_desc_ok(struct tcase *t);
int c_sq_full_fetch(struct tcase *t);
int c_sq_too_small(struct tcase *t);
int c_login_flood(struct tcase *t);

#endif /* SRP_HOSTILE_H */
