#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Our SRP target (scst_srpt) under the initiator's task management and
# session churn:
# - fio --verify at queue depth 128 over a 128-credit login;
# - aborts driven by the initiator's command timeouts against a
#   deliberately slow LUN (scsi_debug with a 3 s response delay, exported
#   through vdisk_blockio): ib_srp's abort handler sends SRP_TSK_MGMT
#   ABORT TASK, the core waits for the backend and answers "function
#   complete" within ib_srp's 5 s, so the error handler never escalates to
#   a LUN or host reset;
# - LUN reset, and a host reset (ib_srp reconnects its channels);
# - 20 logout/login cycles with I/O in each, no sessions or per-session
#   (fileio) worker threads left behind.
# SRP r16a defines no TARGET RESET function, and ib_srp has no target reset
# handler: sg_reset -t cannot reach a target over SRP.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

SDEBUG=/sys/bus/pseudo/drivers/scsi_debug
# scsi_debug's delay is in jiffies: the kernel's CONFIG_HZ (scripts/vm/run)
HZ=${KERNEL_HZ:-250}

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=262144
sdebug_load dev_size_mb=64 delay=0
slow_backend=$(sdebug_disk)

srpt_target_up rxe_setup_one
H=$SCST/handlers
mgmt $H/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt $H/vdisk_blockio/mgmt "add_device disk_slow filename=$slow_backend"
mgmt "$T/luns/mgmt" "add disk_bio 0"
mgmt "$T/luns/mgmt" "add disk_slow 1"
# fileio runs on per-session worker threads: a leaked session leaks them
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=32 status=none
mgmt $H/vdisk_fileio/mgmt "add_device disk_fio filename=/tmp/fileio.img"
mgmt "$T/luns/mgmt" "add disk_fio 2"
run sh -c "echo 1 > '$T/enabled'"

# scst_<...> worker threads of the core (kernel threads have no cmdline)
core_threads() {
	grep -l '^scst_' /proc/[0-9]*/comm 2>/dev/null | wc -l
}
threads_before=$(core_threads)
# per-session threads start with a session's first command to a LUN
core_threads_more() {
	[ "$(core_threads)" -gt "$threads_before" ]
}

srp_login "$id" "$id" "queue_size=128,max_cmd_per_lun=128"
srpt_wait_lun 0
srpt_wait_lun 1
bio=$(srpt_lun_disk 0)
slow_sg=$(lun_sg "$SRP_HOST" 1)
nsess=$(srpt_nr_sessions "$T")
log "disks: $bio, slow LUN $slow_sg; $nsess session(s); core threads: $threads_before before the login, $(core_threads) now"
run ua_retry sg_turs "$bio"
run ua_retry sg_turs "$slow_sg"
srpt_wait_lun 2
run ua_retry sg_turs "$(srpt_lun_disk 2)"
wait_for 10 "per-session fileio threads" core_threads_more
log "core threads with $nsess session(s): $(core_threads)"

# --- queue depth 128 -------------------------------------------------------------
fio_run verify-qd128 --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randwrite --bsrange=4k-64k --iodepth=128 --size=$(io_mb 64) \
	--verify=crc32c --do_verify=1 --verify_fatal=1

# --- aborts by initiator timeout --------------------------------------------------
count_in_dmesg() {
	dmesg | grep -c -- "$1"
}
# Each channel is an I_T nexus with its own POWER ON unit attention: clear
# them all (blk-mq maps each CPU to its own channel), or a READ below could
# end with that UA instead of its timeout.
srpt_clear_ua_all_channels "$slow_sg"
aborts_answered() {
	[ "$(count_in_dmesg 'ABORT TASK (LUN 1, tag')" -ge "$1" ]
}
aborts_before=$(count_in_dmesg 'ABORT TASK (LUN 1, tag')
run sh -c "echo $((3 * HZ)) > $SDEBUG/delay"
# Three READ(10)s of one block each, one after the other (the SCSI error
# handler runs aborts one at a time), with a 1 s timeout: each times out in
# the initiator, whose error handler sends ABORT TASK.
for i in 1 2 3; do
	if sg_raw -t 1 -r 512 -o /dev/null "$slow_sg" 28 00 00 00 00 0$i 00 00 01 00 \
		> /tmp/abort.log 2>&1; then
		cat /tmp/abort.log
		fail "READ $i on the slow LUN completed in spite of its 1 s timeout"
	fi
	log "READ $i: $(grep -iE 'status|abort|time' /tmp/abort.log | tr '\n' ' ')"
	wait_for 20 "abort $i answered" aborts_answered $((aborts_before + i))
done
aborted=$(dmesg | grep -- 'ABORT TASK (LUN 1, tag' | tail -n 3)
echo "$aborted"
grep -q -v 'function complete' <<< "$aborted" &&
	fail "an ABORT TASK was not answered 'function complete': $aborted"
run sh -c "echo 0 > $SDEBUG/delay"
dmesg | grep_q 'SRP abort called' || fail "ib_srp sent no abort"
dmesg | grep -Eq 'SRP reset_device called|SRP reset_host called' &&
	fail "an abort failed: ib_srp escalated to a reset"
for s in $(srpt_sessions "$T"); do
	assert_eq "$(attr_value "$T/sessions/$s/ch_state")" live "ch_state of $s after aborts"
done
run ua_retry sg_turs "$slow_sg"
run sg_raw -t 10 -r 512 -o /dev/null "$slow_sg" 28 00 00 00 00 00 00 00 01 00
fio_run verify-after-aborts --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=4k --iodepth=32 --size=$(io_mb 8) \
	--verify=crc32c --do_verify=1 --verify_fatal=1

# --- LUN reset, then a host reset: ib_srp reconnects its channels ------------------
run sg_reset -d "$(lun_sg "$SRP_HOST" 0)"
run ua_retry sg_turs "$bio"
run sg_reset -H "$(lun_sg "$SRP_HOST" 0)"
srpt_wait_sessions "$T" "$nsess"
wait_for 60 "disk after host reset" ua_retry sg_turs "$bio"
fio_run verify-after-host-reset --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=16k --iodepth=16 --size=$(io_mb 8) \
	--verify=crc32c --do_verify=1 --verify_fatal=1

# --- 20 logout/login cycles -------------------------------------------------------
SRP_LOGIN_TRIES=50
for cycle in $(seq 1 20); do
	srp_logout
	srpt_wait_sessions "$T" 0
	srp_login "$id" "$id" "queue_size=32"
	srpt_wait_lun 0
	bio=$(srpt_lun_disk 0)
	srpt_wait_sessions "$T" "$nsess"
	run ua_retry sg_turs "$bio"
	dd if=/dev/urandom of=/tmp/block bs=4k count=1 status=none
	dd if=/tmp/block of="$bio" bs=4k seek="$cycle" oflag=direct status=none ||
		fail "write in cycle $cycle"
	cmp -s /tmp/block <(dd if="$bio" bs=4k skip="$cycle" count=1 iflag=direct status=none) ||
		fail "read back in cycle $cycle differs"
done
log "20 logout/login cycles done"
fio_run verify-after-cycles --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randwrite --bsrange=4k-128k --iodepth=16 --size=$(io_mb 16) \
	--verify=crc32c --do_verify=1 --verify_fatal=1
srp_logout
srpt_wait_sessions "$T" 0
# per-initiator threads end with their sessions
threads_are() {
	[ "$(core_threads)" -eq "$1" ]
}
wait_for 10 "core threads back to $threads_before" threads_are "$threads_before"

run rmmod ib_srp
run rmmod scst_srpt
run rmmod scst_vdisk
run rmmod scst
run rmmod scsi_debug
log "srpt-tmf passed"
exit 0
