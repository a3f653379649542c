// SPDX-License-Identifier: GPL-2.0-only
/*
 * srp_hostile: the cases about bounded resources: huge transfers and
 * allocation lengths (the guest's MemAvailable watched), thousands of
 * descriptors, a full send queue, login floods beyond the target's
 * limits (the target's sysfs read and written).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "srp_hostile.h"

/* ---------------------------------------------------------------------- */
/* The cases: bounded resources                                            */
/* ---------------------------------------------------------------------- */

/*
 * The guest's MemAvailable (/proc/meminfo, KiB), sampled every 2 ms by a
 * thread while a command is in flight: its lowest value shows an
 * allocation the target made and freed again before answering.
 */
static struct {
	pthread_t thread;
	volatile bool stop;
	int64_t min_kib;
	bool running;
} memwatch;

static int64_t mem_available_kib(void)
{
	char line[128];
	int64_t kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %" SCNd64 " kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void *memwatch_fn(void *arg)
{
	struct timespec ts = { 0, 2000000 };

	(void)arg;
	while (!memwatch.stop) {
		int64_t kib = mem_available_kib();

		if (kib >= 0 && kib < memwatch.min_kib)
			memwatch.min_kib = kib;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* Start sampling; returns MemAvailable now, or -1. */
static int64_t memwatch_start(void)
{
	int64_t kib = mem_available_kib();

	if (kib < 0)
		return -1;
	memwatch.min_kib = kib;
	memwatch.stop = false;
	memwatch.running = !pthread_create(&memwatch.thread, NULL,
					   memwatch_fn, NULL);
	return memwatch.running ? kib : -1;
}

/* Stop sampling; returns the lowest MemAvailable seen. */
static int64_t memwatch_stop(void)
{
	int64_t kib;

	if (memwatch.running) {
		memwatch.stop = true;
		pthread_join(memwatch.thread, NULL);
		memwatch.running = false;
	}
	kib = mem_available_kib();
	if (kib >= 0 && kib < memwatch.min_kib)
		memwatch.min_kib = kib;
	return memwatch.min_kib;
}

/*
 * What "a few MiB" is: the target may allocate a command's own buffers
 * (a sense buffer, a small data-in buffer) and the kernel's other users
 * move MemAvailable too, but nothing in proportion to the lengths on the
 * wire (GiB here).
 */
#define MEM_SLACK_KIB	(16 * 1024)

/* A command that must not be retried blindly: again while it reports a UA. */
static int command_noua(struct tcase *t, struct cmd *cm, struct rsp *r)
{
	uint8_t key = 0, asc = 0, ascq = 0;
	int i;

	for (i = 0; i < 5; i++) {
		if (command(t, cm, r))
			return -1;
		if (r->status == ST_CHECK_CONDITION &&
		    sense_decode(r, &key, &asc, &ascq) &&
		    key == SK_UNIT_ATTENTION) {
			vlog("UNIT ATTENTION %02x/%02x, again", asc, ascq);
			continue;
		}
		return 0;
	}
	return tfail(t, "UNIT ATTENTION five times");
}

/* The data-in residual of the last SRP_RSP (§6.9): DIUNDER and its count. */
static uint32_t rsp_di_under(void)
{
	return rx->buf[18] & RSP_DIUNDER ? get_be32(rx->buf + 24) : 0;
}

/*
 * READ(16) / WRITE(16) of 2^24 blocks (8 GiB of 512-byte blocks) at LBA 0
 * of the big LUN (a 16 GiB vdisk_nullio, so the range is valid), with a
 * descriptor as long as SRP can say (2^32 - 512 bytes: 8 GiB does not fit
 * its 32 bits) and a bogus R_Key. The transfer exceeds any maximum a
 * target can have: CHECK CONDITION, ILLEGAL REQUEST, INVALID FIELD IN CDB
 * (SBC-3 4.4, the Block Limits VPD MAXIMUM TRANSFER LENGTH), decided
 * before any buffer is allocated: MemAvailable does not dip, and the
 * bogus R_Key is never used (using it breaks the channel).
 */
static int huge_rw16(struct tcase *t, bool write)
{
	uint8_t k = 0, a = 0, q = 0;
	int64_t before, low;
	char desc[100];
	struct cmd cm;
	struct rsp r;
	int ret;

	if (ensure_conn(t))
		return -1;
	memset(&cm, 0, sizeof(cm));
	cm.lun = opt.big_lun;
	cm.cdb[0] = write ? 0x8a : 0x88;
	put_be64(cm.cdb + 2, 0);
	put_be32(cm.cdb + 10, 1U << 24);
	cm.fmt = write ? DESC_DIRECT << 4 : DESC_DIRECT;
	desc_put(cm.tail, 0xdead0000beef0000ULL, 0x0badc0de, 0xfffffe00);
	cm.tail_len = DIRECT_DESC_LEN;
	before = memwatch_start();
	ret = command_noua(t, &cm, &r);
	low = memwatch_stop();
	if (ret)
		return -1;
	rsp_str(&r, desc, sizeof(desc));
	CHECK(t, r.status == ST_CHECK_CONDITION,
	      "%s(16) of 2^24 blocks: %s, expected CHECK CONDITION",
	      write ? "WRITE" : "READ", desc);
	CHECK(t, sense_decode(&r, &k, &a, &q) && k == SK_ILLEGAL_REQUEST &&
	      a == 0x24 && q == 0,
	      "%s, expected ILLEGAL REQUEST, INVALID FIELD IN CDB (5/24/00)",
	      desc);
	tdid(t, "SRP_RSP %s", desc);
	CHECK(t, before >= 0, "cannot read MemAvailable");
	CHECK(t, before - low <= MEM_SLACK_KIB,
	      "MemAvailable dropped by %" PRId64 " KiB while the command was in flight",
	      before - low);
	tdid(t, "MemAvailable dipped %" PRId64 " KiB at most", before - low);
	if (tur_ok(t))
		return -1;
	tdid(t, "channel still serves");
	return 0;
}

int c_read16_huge(struct tcase *t)
{
	return huge_rw16(t, false);
}

int c_write16_huge(struct tcase *t)
{
	return huge_rw16(t, true);
}

/*
 * A command with an allocation length (SPC-4 4.2.5.6) and a data-in
 * descriptor of 2^32 - 1 bytes: the target returns what it has (a few
 * bytes), reports the rest as residual (§6.9 DIUNDER), and allocates
 * what it builds, not what the initiator offers. Our MR covers only
 * DATA_SIZE bytes: the target must not write past what it sends.
 */
static int huge_alloc_len(struct tcase *t, struct cmd *cm, const char *what,
			  uint32_t max_len)
{
	int64_t before, low;
	char desc[100];
	uint32_t under;
	struct rsp r;
	int ret;

	if (ensure_conn(t))
		return -1;
	memset(conn->data, 0xee, DATA_SIZE);
	cm->fmt = DESC_DIRECT;
	desc_put(cm->tail, (uintptr_t)conn->data, conn->mr->rkey, 0xffffffff);
	cm->tail_len = DIRECT_DESC_LEN;
	before = memwatch_start();
	ret = command_noua(t, cm, &r);
	low = memwatch_stop();
	if (ret)
		return -1;
	rsp_str(&r, desc, sizeof(desc));
	CHECK(t, r.status == ST_GOOD, "%s: %s, expected GOOD", what, desc);
	under = rsp_di_under();
	CHECK(t, under >= 0xffffffffU - max_len,
	      "%s: data-in residual %u: more than %u bytes sent", what,
	      under, max_len);
	tdid(t, "GOOD, %u bytes sent", 0xffffffffU - under);
	CHECK(t, before >= 0, "cannot read MemAvailable");
	CHECK(t, before - low <= MEM_SLACK_KIB,
	      "MemAvailable dropped by %" PRId64 " KiB while the command was in flight",
	      before - low);
	tdid(t, "MemAvailable dipped %" PRId64 " KiB at most", before - low);
	return 0;
}

/* REPORT LUNS (SPC-4 6.33), ALLOCATION LENGTH 0xffffffff. */
int c_report_luns_huge(struct tcase *t)
{
	uint32_t list_len;
	struct cmd cm;

	memset(&cm, 0, sizeof(cm));
	cm.cdb[0] = 0xa0;
	put_be32(cm.cdb + 6, 0xffffffff);
	if (huge_alloc_len(t, &cm, "REPORT LUNS", 8 + 8 * 16384))
		return -1;
	list_len = get_be32(conn->data);
	CHECK(t, list_len >= 8 && list_len % 8 == 0 && list_len <= 8 * 16384,
	      "LUN LIST LENGTH %u", list_len);
	CHECK(t, rsp_di_under() == 0xffffffffU - 8 - list_len,
	      "%u bytes sent for a LUN list of %u bytes",
	      0xffffffffU - rsp_di_under(), list_len);
	tdid(t, "%u LUNs listed", list_len / 8);
	return 0;
}

/*
 * INQUIRY (SPC-4 6.6): its ALLOCATION LENGTH has 16 bits, so 0xffff is
 * its largest; the descriptor is still 2^32 - 1 bytes.
 */
int c_inquiry_huge(struct tcase *t)
{
	struct cmd cm;

	memset(&cm, 0, sizeof(cm));
	cm.cdb[0] = 0x12;
	put_be16(cm.cdb + 3, 0xffff);
	if (huge_alloc_len(t, &cm, "INQUIRY", 0xffff))
		return -1;
	CHECK(t, (conn->data[0] & 0x1f) == 0 && conn->data[4] >= 31,
	      "standard INQUIRY data: peripheral type 0x%02x, additional length %u",
	      conn->data[0] & 0x1f, conn->data[4]);
	tdid(t, "standard INQUIRY data of %u bytes", conn->data[4] + 5);
	return 0;
}

/*
 * READ(10) of one block with one descriptor of 2^32 - 1 bytes (valid
 * R_Key, our MR much shorter): the target clips the descriptor to the
 * block it sends (SRP r16a 5.5: the descriptor describes a buffer, the
 * CDB what is transferred) and reports the rest as residual.
 */
int c_read_desc_longer(struct tcase *t)
{
	char desc[100];
	struct cmd cm;
	struct rsp r;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	memset(conn->data, 0xee, 2 * block_len);
	cdb_rw10(&cm, false, 1, 1, (uintptr_t)conn->data, conn->mr->rkey,
		 0xffffffff);
	if (command(t, &cm, &r))
		return -1;
	rsp_str(&r, desc, sizeof(desc));
	CHECK(t, r.status == ST_GOOD, "%s, expected GOOD", desc);
	CHECK(t, rsp_di_under() == 0xffffffffU - block_len,
	      "data-in residual %u, expected %u", rsp_di_under(),
	      0xffffffffU - block_len);
	if (lba1_written)
		CHECK(t, !memcmp(conn->data, lba1_pattern, block_len),
		      "LBA 1 read through a long descriptor differs from what was written");
	CHECK(t, conn->data[block_len] == 0xee,
	      "the target wrote past the block it read");
	tdid(t, "GOOD, one block sent, residual %u", rsp_di_under());
	return 0;
}

/*
 * READ(10) of LBA 1 through an external table (SRP r16a 5.5.3) of @nd
 * descriptors of @len bytes each, in our memory at @tbl_off of the data
 * area; the IU carries the first one.
 */
static void cdb_ext_many(struct cmd *cm, uint32_t nd, uint32_t len,
			 size_t tbl_off)
{
	uint8_t *tbl = conn->data + tbl_off;
	uint32_t i;

	cdb_rw10(cm, false, 1, 1, 0, 0, 0);
	cm->fmt = DESC_INDIRECT;
	cm->di_cnt = 1;
	for (i = 0; i < nd; i++)
		desc_put(tbl + (size_t)i * DIRECT_DESC_LEN,
			 (uintptr_t)conn->data + (uint64_t)i * len,
			 conn->mr->rkey, len);
	desc_put(cm->tail, (uintptr_t)tbl, conn->mr->rkey,
		 nd * DIRECT_DESC_LEN);
	put_be32(cm->tail + 16, nd * len);
	memcpy(cm->tail + INDIRECT_HDR_LEN, tbl, DIRECT_DESC_LEN);
	cm->tail_len = INDIRECT_HDR_LEN + DIRECT_DESC_LEN;
}

/*
 * 3000 one-byte descriptors: more than any target should map for one
 * command (ours takes 2048): CHECK CONDITION, INVALID FIELD IN COMMAND
 * INFORMATION UNIT, before the table is even fetched; the channel goes on.
 */
int c_many_desc(struct tcase *t)
{
	struct cmd cm;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	cdb_ext_many(&cm, 3000, 1, 8192);
	return cmd_expect_invalid_iu(t, &cm);
}

/*
 * The control: one block read through a table of block_len / 2 two-byte
 * descriptors (256 for 512-byte blocks), each its own RDMA WRITE: GOOD,
 * and the data is the block's.
 */
int c_many_desc_ok(struct tcase *t)
{
	uint32_t nd;
	struct cmd cm;

	if (ensure_conn(t) || get_block_len(t) || tur_pre(t))
		return -1;
	nd = block_len / 2;
	memset(conn->data, 0xee, 2 * block_len);
	cdb_ext_many(&cm, nd, 2, 16384);
	if (command_good(t, &cm, "READ(10) through many 2-byte descriptors"))
		return -1;
	if (lba1_written)
		CHECK(t, !memcmp(conn->data, lba1_pattern, block_len),
		      "LBA 1 read through %u descriptors differs from what was written",
		      nd);
	tdid(t, "GOOD through %u descriptors%s", nd,
	     lba1_written ? ", data as written" : "");
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The target's sysfs: send queue accounting, login limits                 */
/* ---------------------------------------------------------------------- */

static int sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

static int sysfs_read_long(const char *path, long *v)
{
	char buf[64];

	if (sysfs_read(path, buf, sizeof(buf)))
		return -1;
	*v = strtol(buf, NULL, 0);
	return 0;
}

static int sysfs_write(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(val, f) < 0 ? -1 : 0;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* The directory of the target's only session, in @dir. */
static int sess_dir(struct tcase *t, char *dir, size_t len)
{
	char path[600];
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;

	if (!opt.sysfs_tgt)
		return tfail(t, "this case needs --sysfs-target");
	snprintf(path, sizeof(path), "%s/sessions", opt.sysfs_tgt);
	d = opendir(path);
	if (!d)
		return tfail(t, "cannot open %s: %s", path, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(dir, len, "%s/%s", path, de->d_name) >= (int)len) {
			closedir(d);
			return tfail(t, "session path too long");
		}
		n++;
	}
	closedir(d);
	if (n != 1)
		return tfail(t, "%u sessions on the target, expected only ours", n);
	return 0;
}

/**
 * struct sq_state - a channel's send queue as the target shows it
 * @size: sq_size, entries work requests may use
 * @free: sq_free
 * @waiting: sq_waiting, posts waiting for room
 * @fetching: send contexts in state fetch_table (ioctx_states)
 */
struct sq_state {
	long size, free, waiting, fetching;
};

static int sq_read(struct tcase *t, const char *dir, struct sq_state *sq)
{
	char path[700], buf[512];
	const char *p;

	snprintf(path, sizeof(path), "%s/sq_size", dir);
	if (sysfs_read_long(path, &sq->size))
		return tfail(t, "cannot read %s", path);
	snprintf(path, sizeof(path), "%s/sq_free", dir);
	if (sysfs_read_long(path, &sq->free))
		return tfail(t, "cannot read %s", path);
	snprintf(path, sizeof(path), "%s/sq_waiting", dir);
	if (sysfs_read_long(path, &sq->waiting))
		return tfail(t, "cannot read %s", path);
	snprintf(path, sizeof(path), "%s/ioctx_states", dir);
	if (sysfs_read(path, buf, sizeof(buf)))
		return tfail(t, "cannot read %s", path);
	p = strstr(buf, "fetch_table=");
	sq->fetching = p ? strtol(p + 12, NULL, 10) : -1;
	return 0;
}

/* Wait up to 20 s (a hang detector) until the send queue is idle. */
static int sq_wait_idle(struct tcase *t, const char *dir, struct sq_state *sq)
{
	int64_t end = now_ms() + 20000;

	for (;;) {
		if (sq_read(t, dir, sq))
			return -1;
		if ((sq->free == sq->size && !sq->waiting) || now_ms() > end)
			return 0;
		usleep(20000);
	}
}

/* Send @n TEST UNIT READYs at once; their tags follow @first. */
static int send_turs(struct tcase *t, unsigned int n, uint64_t *first)
{
	uint8_t iu[CMD_LEN];
	struct cmd cm;
	unsigned int i;

	for (i = 0; i < n; i++) {
		cdb_tur(&cm, 0);
		cmd_build(iu, &cm);
		if (!i)
			*first = cm.tag;
		if (conn_send(t, conn, iu, sizeof(iu)))
			return -1;
		conn->credits--;
	}
	return 0;
}

/*
 * Collect @n SRP_RSPs; each must be GOOD or a UNIT ATTENTION, except the
 * one with @tag (0: none), whose status is stored in @status.
 */
static int collect(struct tcase *t, unsigned int n, uint64_t tag,
		   uint8_t *status)
{
	uint8_t key, asc, ascq;
	char err[200], desc[100];
	struct rsp r;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = conn_wait(conn, 2 * opt.timeout_ms, rx);
		CHECK(t, ret == GOT_IU, "%u of %u responses, then %s", i, n,
		      ret == GOT_DEAD ? "the channel failed" : "none");
		CHECK(t, rsp_parse(rx, &r, err, sizeof(err)), "%s", err);
		conn->credits += r.delta;
		if (tag && r.tag == tag) {
			*status = r.status;
			continue;
		}
		rsp_str(&r, desc, sizeof(desc));
		CHECK(t, r.status == ST_GOOD ||
		      (r.status == ST_CHECK_CONDITION &&
		       sense_decode(&r, &key, &asc, &ascq) &&
		       key == SK_UNIT_ATTENTION),
		      "TEST UNIT READY: %s", desc);
	}
	return 0;
}

/* Write LBA 1 and 2 with a known pattern (lba1_pattern for LBA 1). */
static int write_lba12(struct tcase *t)
{
	struct cmd cm;
	uint32_t i;

	for (i = 0; i < 2 * block_len; i++)
		conn->data[i] = (uint8_t)(i * 7 + 0x5a);
	memcpy(lba1_pattern, conn->data, block_len);
	cdb_rw10(&cm, true, 1, 2, (uintptr_t)conn->data, conn->mr->rkey,
		 2 * block_len);
	if (command_good(t, &cm, "WRITE(10) of LBA 1-2"))
		return -1;
	lba1_written = true;
	return 0;
}

/*
 * An external descriptor table fetched while the send queue is full (run
 * against a target with a small send queue, srpt_sq_size=16). The
 * channel posts no receive buffer, so the target's SENDs stall (RNR,
 * retried forever) and hold its send queue; sq_size + 8 TEST UNIT READYs
 * fill it, and then a READ through an external table needs one more entry
 * for the RDMA READ of the table. The target must let that fetch wait
 * (ioctx_states shows it in fetch_table) rather than fail the command;
 * once we post receive buffers everything completes: the READ is GOOD
 * with the data written, and the send queue is back to sq_size free
 * entries, before and after more traffic: no entry was lost.
 */
int c_sq_full_fetch(struct tcase *t)
{
	struct sq_state sq0, sq;
	char dir[600];
	uint64_t first, read_tag;
	uint8_t iu[SBUF_SIZE], status = 0xff;
	struct cmd cm;
	unsigned int n, i;
	int64_t end;
	uint32_t len;

	if (fresh_conn(t) || get_block_len(t) || tur_pre(t) || write_lba12(t))
		return -1;
	logout();
	prepare_no_recv = true;
	i = (unsigned int)ensure_conn(t);
	prepare_no_recv = false;
	if (i || sess_dir(t, dir, sizeof(dir)) || sq_wait_idle(t, dir, &sq0))
		return -1;
	vlog("send queue: %ld entries, %ld free", sq0.size, sq0.free);
	CHECK(t, sq0.free == sq0.size && sq0.size > 0,
	      "idle channel: sq_free %ld, sq_size %ld", sq0.free, sq0.size);
	n = (unsigned int)sq0.size + 8;
	if (n + 1 > (unsigned int)conn->credits || n + 1 > NSEND)
		return tfail(t, "a send queue of %ld entries cannot be filled with %d credits: load the target with a small srpt_sq_size",
			     sq0.size, conn->credits);

	if (send_turs(t, n, &first))
		return -1;
	memset(conn->data, 0xee, 2 * block_len);
	cdb_ext_table(&cm, false, 1, block_len, conn->mr->rkey);
	len = cmd_build(iu, &cm);
	read_tag = cm.tag;
	if (conn_send(t, conn, iu, len))
		return -1;
	conn->credits--;

	/* the fetch must be waiting for room, not failed */
	end = now_ms() + 20000;
	do {
		usleep(20000);
		if (sq_read(t, dir, &sq))
			return -1;
	} while ((sq.fetching != 1 || sq.free > 0) && now_ms() < end);
	vlog("full: sq_free %ld, sq_waiting %ld, fetch_table %ld", sq.free,
	     sq.waiting, sq.fetching);
	CHECK(t, sq.free <= 0 && sq.waiting >= 1,
	      "the send queue never filled (sq_free %ld, sq_waiting %ld)",
	      sq.free, sq.waiting);
	CHECK(t, sq.fetching == 1,
	      "with the send queue full the table fetch is not waiting (fetch_table=%ld)",
	      sq.fetching);
	tdid(t, "queue full (%ld free, %ld waiting), the table fetch waits",
	     sq.free, sq.waiting);

	for (i = 0; i < NRECV; i++)
		if (post_recv(conn, i))
			return tfail(t, "ibv_post_recv failed");
	if (collect(t, n + 1, read_tag, &status))
		return -1;
	CHECK(t, status == ST_GOOD,
	      "the READ whose table was fetched through a full send queue ended with status 0x%02x",
	      status);
	CHECK(t, !memcmp(conn->data, lba1_pattern, block_len),
	      "LBA 1 read through the table differs from what was written");
	tdid(t, "READ GOOD, data as written");
	if (sq_wait_idle(t, dir, &sq))
		return -1;
	CHECK(t, sq.free == sq0.free && !sq.waiting,
	      "after the burst sq_free is %ld (%ld waiting), was %ld: entries lost",
	      sq.free, sq.waiting, sq0.free);

	/* normal traffic, three queues' worth, then idle again */
	for (i = 0; i < 3; i++) {
		if (send_turs(t, n, &first) || collect(t, n, 0, &status))
			return -1;
	}
	if (c_ext_table_valid(t) || sq_wait_idle(t, dir, &sq))
		return -1;
	CHECK(t, sq.free == sq0.free && !sq.waiting,
	      "after more I/O sq_free is %ld (%ld waiting), was %ld: entries lost",
	      sq.free, sq.waiting, sq0.free);
	tdid(t, "sq_free back to %ld of %ld after %u more commands", sq.free,
	     sq.size, 3 * n + 1);
	logout();
	return 0;
}

/*
 * A command whose RDMA WRITEs can never fit the channel's send queue
 * (small srpt_sq_size: a table of 64 descriptors, each its own RDMA
 * WRITE, against 16 entries): refused with CHECK CONDITION, INVALID FIELD
 * IN COMMAND INFORMATION UNIT, not parked at the head of the send queue's
 * wait list, where it would block every later response and TMF.
 */
int c_sq_too_small(struct tcase *t)
{
	struct sq_state sq;
	char dir[600];
	struct cmd cm;

	if (fresh_conn(t) || get_block_len(t) || tur_pre(t) ||
	    sess_dir(t, dir, sizeof(dir)) || sq_read(t, dir, &sq))
		return -1;
	if (sq.size >= 64)
		return tfail(t, "send queue of %ld entries: load the target with a small srpt_sq_size",
			     sq.size);
	cdb_ext_many(&cm, 64, block_len / 64, 16384);
	if (cmd_expect_invalid_iu(t, &cm))
		return -1;
	if (tmf(t, TMF_ABORT_TASK_SET, 0, RSP_CODE_COMPLETE) ||
	    c_ext_table_valid(t))
		return -1;
	tdid(t, "a TMF and a READ through a table still complete");
	return 0;
}

/*
 * A log in of our own (MULTI CHANNEL: the earlier ones stay): 1 if it was
 * accepted (*c keeps the channel), 0 if refused with SRP_LOGIN_REJ
 * INSUFFICIENT RESOURCES (§6.4), -1 for anything else.
 */
static int flood_login(struct tcase *t, struct conn **cp)
{
	uint8_t pd[LOGIN_REQ_RDMA_LEN];
	struct login l;
	struct conn *c;

	*cp = NULL;
	c = conn_prepare(t);
	if (!c)
		return -1;
	login_default(&l);
	l.flags = MCA_MULTI;
	login_build(pd, &l);
	if (conn_connect(t, c, pd, sizeof(pd))) {
		conn_destroy(c);
		return -1;
	}
	if (c->established) {
		*cp = c;
		return 1;
	}
	if (!check(t, c->rejected && c->pdata_len >= LOGIN_REJ_LEN &&
		   c->pdata[0] == SRP_LOGIN_REJ,
		   "login neither accepted nor refused with SRP_LOGIN_REJ (CM status %d)",
		   c->cm_status) ||
	    !check(t, get_be32(c->pdata + 4) == REJ_INSUFFICIENT_RES,
		   "SRP_LOGIN_REJ reason 0x%08x, expected 0x%08x (insufficient resources)",
		   get_be32(c->pdata + 4), REJ_INSUFFICIENT_RES) ||
	    !check(t, get_be64(c->pdata + 8) == l.tag,
		   "SRP_LOGIN_REJ tag 0x%" PRIx64 ", login tag 0x%" PRIx64,
		   get_be64(c->pdata + 8), l.tag)) {
		conn_destroy(c);
		return -1;
	}
	conn_destroy(c);
	return 0;
}

#define FLOOD_N		12

/* Set a target attribute to @val; its old value in @old. */
static int tgt_attr_set(struct tcase *t, const char *name, const char *val,
			char *old, size_t len)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", opt.sysfs_tgt, name);
	if (old && sysfs_read(path, old, len))
		return tfail(t, "cannot read %s", path);
	if (old)
		old[strcspn(old, "\n")] = '\0';
	if (sysfs_write(path, val))
		return tfail(t, "cannot write %s to %s", val, path);
	return 0;
}

/*
 * @limit logins are accepted, the FLOOD_N - @limit beyond them refused
 * with INSUFFICIENT RESOURCES; then all are closed again.
 */
static int flood(struct tcase *t, unsigned int limit, const char *what)
{
	struct conn *held[FLOOD_N] = { NULL };
	unsigned int i, acc = 0, rej = 0;
	int ret = 0, r;

	for (i = 0; i < FLOOD_N && !ret; i++) {
		r = flood_login(t, &held[i]);
		if (r < 0)
			ret = -1;
		else if (r)
			acc++;
		else
			rej++;
	}
	for (i = 0; i < FLOOD_N; i++) {
		if (!held[i])
			continue;
		conn_close(held[i]);
	}
	if (ret)
		return -1;
	CHECK(t, acc == limit && rej == FLOOD_N - limit,
	      "%s %u: %u of %u logins accepted, %u refused", what, limit, acc,
	      FLOOD_N, rej);
	tdid(t, "%s %u: %u accepted, %u refused with 0x%08x", what, limit,
	     acc, rej, REJ_INSUFFICIENT_RES);
	return 0;
}

/*
 * A login flood from one initiator beyond the target's max_sessions, then
 * beyond its max_channels_per_initiator: the logins past the limit get
 * SRP_LOGIN_REJ INSUFFICIENT RESOURCES (SRP r16a 6.4); the limits are
 * restored afterwards and a normal login works.
 */
int c_login_flood(struct tcase *t)
{
	char old_s[32], old_c[32];
	int ret;

	logout();
	if (!opt.sysfs_tgt)
		return tfail(t, "this case needs --sysfs-target");
	if (tgt_attr_set(t, "max_sessions", "4", old_s, sizeof(old_s)))
		return -1;
	ret = flood(t, 4, "max_sessions");
	if (tgt_attr_set(t, "max_sessions", old_s, NULL, 0))
		return -1;
	if (ret)
		return -1;
	if (tgt_attr_set(t, "max_channels_per_initiator", "2", old_c,
			 sizeof(old_c)))
		return -1;
	ret = flood(t, 2, "max_channels_per_initiator");
	if (tgt_attr_set(t, "max_channels_per_initiator", old_c, NULL, 0))
		return -1;
	if (ret || ensure_conn(t) || tur_ok(t))
		return -1;
	tdid(t, "limits restored, a login works");
	return 0;
}
