#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scst_srpt in thread mode with a shared receive queue: the target's
# completion thread polls its channels' CQs and follows the target's
# cpu_mask; thread_mode and comp_v_mask as target attributes; fio --verify
# through it; logout and unload.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=131072
srpt_target_up rxe_setup_one thread_mode=1 use_srq=1

# thread_mode: the module parameter is the default; "[key]" marks others
assert_eq "$(attr_value "$T/thread_mode")" 1 "thread_mode"
run sh -c "echo 0 > '$T/thread_mode'"
assert_eq "$(sed -n 2p "$T/thread_mode")" "[key]" "thread_mode [key]"
run sh -c "echo 1 > '$T/thread_mode'"
# comp_v_mask: a hex bitmap of completion vectors; empty is refused
run sh -c "echo 1 > '$T/comp_v_mask'"
assert_eq "$(sed -n 2p "$T/comp_v_mask")" "[key]" "comp_v_mask [key]"
expect_fail sh -c "echo 0 > '$T/comp_v_mask'"
expect_fail sh -c "echo xyz > '$T/comp_v_mask'"
run sh -c "echo ffffffff,ffffffff > '$T/comp_v_mask'"

mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt "$T/luns/mgmt" "add disk_bio 0"
run sh -c "echo 1 > '$T/enabled'"
srp_login "$id" "$id" "queue_size=64"
srpt_wait_lun 0
disk=$(srpt_lun_disk 0)
S=$T/sessions/$RXE_TARGET_IP
[ -d "$S" ] || fail "no session $RXE_TARGET_IP"

pid=$(cat "$S/thread_pid")
[ "$pid" -gt 0 ] || fail "no completion thread in thread mode (thread_pid $pid)"
log "completion thread $pid: $(cat /proc/$pid/comm)"
grep -q '^srpt_' "/proc/$pid/comm" || fail "thread $pid is not ours"
for s in $(srpt_sessions "$T"); do
	assert_eq "$(cat "$T/sessions/$s/thread_pid")" "$pid" "thread of $s"
done
# pin the target's thread to CPU 1
run sh -c "echo 2 > '$T/cpu_mask'"
fio_run thread-verify --filename="$disk" --ioengine=libaio --direct=1 \
	--rw=randwrite --bsrange=512-128k --iodepth=16 --size=32M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
# the data-out buffers reuse the pages of earlier commands
# (scst_page_stash.c) and fio's verify pass read back what they carried
stash=$(cat $SCST/page_stash)
log "page_stash: $stash"
reused=$(echo "$stash" | sed -n 's/^stashed [0-9]* reused \([0-9]*\)$/\1/p')
[ -n "$reused" ] || fail "page_stash: unexpected '$stash'"
[ "$reused" -gt 0 ] || fail "no data-out page reused after fio's writes: $stash"
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/status")
assert_eq "$cpus" 1 "CPUs of the completion thread after cpu_mask=2"
fio_run thread-randread-qd32 --filename="$disk" --ioengine=libaio \
	--direct=1 --rw=randread --bs=4k --iodepth=32 --time_based \
	--runtime=10 --readonly
echo "SRPT: scst_srpt thread mode brd 4k randread qd32 iops=$FIO_IOPS cpu_us_per_io=$FIO_CPU_US_PER_IO"
for s in $(srpt_sessions "$T"); do
	log "$s: $(cat "$T/sessions/$s/ioctx_states")"
done

srp_logout
srpt_wait_sessions "$T" 0
run rmmod ib_srp
run rmmod scst_srpt
run rmmod scst_vdisk
run rmmod scst
log "srpt-thread passed"
exit 0
