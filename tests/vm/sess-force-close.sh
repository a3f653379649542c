#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Sessions as an administrator manages them: the per-LUN directories of a
# session (lun<N>/active_commands, thread_pid) follow the LUN map and read
# 0 when idle; force_close refuses bad input; force_close of a scst_local
# session during fio gives the host a new I_T nexus (same host, same disks,
# fio --verify passes: no lost or stuck command); scstadmin -close_session
# does the same; force_close of an SRP session during fio disconnects the
# channel, ib_srp logs in again by itself and fio --verify passes.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/fio.sh
. /tests/lib/scsi.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/srpt.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=2 rd_size=131072
scst_local_load
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=64 status=none

H=$SCST/handlers
mgmt $H/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt $H/vdisk_blockio/mgmt "add_device srp_bio filename=/dev/ram1"
mgmt $H/vdisk_nullio/mgmt "add_device disk_null size_mb=64"
mgmt $H/vdisk_fileio/mgmt "add_device disk_fio filename=/tmp/fileio.img"
local_target tgt1 host1 "disk_bio 0" "disk_null 1" "disk_fio 2"
bio=$(lun_disk "$host" 0)
fio=$(lun_disk "$host" 2)
S=$T/sessions/host1

# lun_dirs SESSION: the lun<N> directories of a session, one a line.
lun_dirs() {
	local d
	for d in "$1"/lun[0-9]*; do
		[ -d "$d" ] && echo "${d##*/}"
	done
}

# wait_idle SESSION: every active_commands of the session reads 0.
sess_idle() {
	local f
	for f in "$1"/active_commands "$1"/lun[0-9]*/active_commands; do
		[ "$(cat "$f")" = 0 ] || return 1
	done
}

# --- per-LUN directories ------------------------------------------------
assert_eq "$(lun_dirs $S | tr '\n' ' ')" "lun0 lun1 lun2 " "lun dirs"
clear_ua "$(lun_sg "$host" 0)"
clear_ua "$(lun_sg "$host" 1)"
clear_ua "$(lun_sg "$host" 2)"
wait_for 10 "idle counters" sess_idle $S
assert_eq "$(cat $S/lun0/active_commands)" 0 "lun0 active_commands when idle"
# vdisk_fileio sleeps: a per-initiator pool (the default) serves the LUN
assert_eq "$(attr_value $SCST/devices/disk_fio/threads_pool_type)" per_initiator "pool type"
pids=$(cat $S/lun2/thread_pid)
[ -n "$pids" ] || fail "lun2/thread_pid is empty"
for p in $pids; do
	[ -d "/proc/$p" ] || fail "lun2/thread_pid: no process $p"
	grep -qw "$p" <<< "$(cat $SCST/devices/disk_fio/thread_pids)" ||
		fail "lun2/thread_pid $p is not a thread of disk_fio"
done
log "lun2 thread_pid: $pids"
# blockio and nullio run on the receiving CPU: no threads of their own
[ ! -e $S/lun0/thread_pid ] || fail "lun0 (blockio) has a thread_pid"
[ ! -e $S/lun1/thread_pid ] || fail "lun1 (nullio) has a thread_pid"
# the directories follow the LUN map
mgmt $T/luns/mgmt "add disk_null 7"
wait_for 5 "lun7 dir" test -d $S/lun7
assert_eq "$(cat $S/lun7/active_commands)" 0 "lun7 active_commands"
mgmt $T/luns/mgmt "del 7"
[ ! -e $S/lun7 ] || fail "lun7 dir left after del 7"
assert_eq "$(lun_dirs $S | tr '\n' ' ')" "lun0 lun1 lun2 " "lun dirs after del"

# --- bad input ------------------------------------------------------------
for bad in 0 2 yes ""; do
	log "+ echo '$bad' > force_close (must fail)"
	if echo "$bad" > $S/force_close 2>/dev/null; then
		fail "force_close accepted '$bad'"
	fi
done
[ -d $S ] || fail "a refused force_close closed the session"

# --- force_close of a scst_local session during fio -------------------------
# commands_of SESSIONS-DIR: the commands of all its sessions together
commands_of() {
	cat "$1"/*/commands | awk '{ n += $1 } END { print n + 0 }'
}

# io_flows SESSIONS-DIR N PID: its sessions' commands went past N, or
# fio (PID) is gone
io_flows() {
	[ "$(commands_of "$1")" -gt "$2" ] || ! kill -0 "$3" 2> /dev/null
}

# close_during_fio WHAT DISK SESSIONS-DIR CMD...: run CMD while fio writes
# and verifies (as it goes) DISK, whose I/O goes through the sessions of
# SESSIONS-DIR; fio must pass.
close_during_fio() {
	local what=$1 disk=$2 sdir=$3 fpid c0
	shift 3
	log "fio on $disk, $what meanwhile"
	c0=$(commands_of "$sdir")
	fio --name="close-$what" --filename="$disk" --ioengine=libaio \
		--direct=1 --rw=randwrite --bs=4k --iodepth=16 --size=16M \
		--time_based --runtime=10 --verify=crc32c --verify_backlog=64 \
		--verify_fatal=1 --minimal > /tmp/fio-$what.out 2>&1 &
	fpid=$!
	# close once fio's I/O flows through the sessions (a hang detector)
	wait_for 30 "fio I/O through ${sdir#"$SCST"/}" io_flows "$sdir" $((c0 + 64)) $fpid
	kill -0 $fpid 2> /dev/null || { cat /tmp/fio-$what.out; fail "fio ($what) ended before the close"; }
	log "active_commands before $what: $(cat "$sdir"/*/active_commands | tr '\n' ' ')"
	"$@"
	# a hang detector, not a timing: fio runs for 10 s
	local i
	for i in $(seq 1 900); do
		kill -0 $fpid 2>/dev/null || break
		sleep 0.2
	done
	kill -0 $fpid 2>/dev/null && { kill $fpid; fail "fio ($what) hung"; }
	wait $fpid || { cat /tmp/fio-$what.out; fail "fio ($what) failed"; }
	grep -q '^3;' /tmp/fio-$what.out || { cat /tmp/fio-$what.out; fail "fio ($what): no result"; }
	assert_eq "$(grep '^3;' /tmp/fio-$what.out | cut -d';' -f5)" 0 "fio ($what) error"
}

nexus_lines() {
	dmesg | grep -c "session host1 has a new I_T nexus"
}

# nexus_more N: more than N new nexuses of host1 were logged
nexus_more() {
	[ "$(nexus_lines)" -gt "$1" ]
}

local_force_close() {
	run sh -c "echo 1 > $S/force_close"
}
n0=$(nexus_lines)
close_during_fio local "$fio" $T/sessions local_force_close
wait_for 20 "new nexus of host1" nexus_more "$n0"
wait_for 10 "session host1 back" test -d $S
assert_eq "$(local_host tgt1 host1)" "$host" "same SCSI host after force_close"
assert_eq "$(lun_disk "$host" 0)" "$bio" "same disk after force_close"
assert_eq "$(lun_disk "$host" 2)" "$fio" "same fileio disk after force_close"
assert_eq "$(lun_dirs $S | tr '\n' ' ')" "lun0 lun1 lun2 " "lun dirs of the new session"
wait_for 10 "idle counters after force_close" sess_idle $S

# --- scstadmin -close_session ----------------------------------------------
command -v scstadmin > /dev/null || fail "scstadmin is not in the guest"
out=$(scstadmin -list_sessions 2>&1) || fail "scstadmin -list_sessions: $out"
echo "$out"
grep -q "LUN 0 .* active command(s)" <<< "$out" || fail "-list_sessions does not show LUN 0 of host1"
n0=$(nexus_lines)
close_during_fio scstadmin "$bio" $T/sessions run scstadmin -close_session host1 \
	-driver scst_local -target tgt1 -noprompt
wait_for 20 "new nexus of host1 (scstadmin)" nexus_more "$n0"
expect_fail scstadmin -close_session nosuch -driver scst_local -target tgt1 -noprompt

# --- force_close of an SRP session during fio --------------------------------
rxe_setup_one
run modprobe scst_srpt rdma_cm_port="$SRP_PORT"
gid=$(rxe_port_gid rxe0)
R=$SRPT/$gid
wait_for 10 "target $gid" test -d "$R"
mgmt "$R/luns/mgmt" "add srp_bio 0"
run sh -c "echo 1 > '$R/enabled'"
id=$(srpt_login_field "$R" tid_ext)
srp_login "$id" "$id"
srpt_wait_lun 0
sdisk=$(srpt_lun_disk 0)
run sh -c "echo 2 > /sys/class/srp_remote_ports/$SRP_RPORT/reconnect_delay"
nsess=$(srpt_nr_sessions "$R")
first=$(srpt_sessions "$R" | head -n 1)
for s in $(srpt_sessions "$R"); do
	[ -d "$R/sessions/$s/lun0" ] || fail "SRP session $s has no lun0"
done

srp_force_close() {
	log "force_close of SRP session $first (of $nsess)"
	run sh -c "echo 1 > '$R/sessions/$first/force_close'"
}
close_during_fio srp "$sdisk" "$R/sessions" srp_force_close
dmesg | grep_q "session $first: force_close: closing it" ||
	fail "no log line of the SRP force_close"
srpt_wait_sessions "$R" "$nsess"
wait_for 60 "SRP disk back" ua_retry sg_turs "$sdisk"
fio_run verify-after-reconnect --filename="$sdisk" --ioengine=libaio \
	--direct=1 --rw=randwrite --bs=16k --iodepth=8 --size=8M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
for s in $(srpt_sessions "$R"); do
	wait_for 10 "idle counters of $s" sess_idle "$R/sessions/$s"
done

srp_logout
srpt_wait_sessions "$R" 0
run rmmod scst_srpt
run rmmod ib_srp
mgmt $SCST/targets/scst_local/mgmt "del_target tgt1"
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
log "sess-force-close passed"
exit 0
