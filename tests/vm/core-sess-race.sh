#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Sessions closed while commands that hold no nexus are in flight: a
# command to an unmapped LUN, or on a session without LUNs, is the
# session's only user, and its end (scst_free_cmd()) must be done with the
# session before the unregistration frees it. Many sg_turs / sg_inq loops
# in parallel run against a LUN removed from under a scst_local session
# and against a session whose target has no LUN left (their SCSI devices
# stay on the host), with sg_dd reads on a mapped LUN, while both sessions
# are force-closed over and over; then the same against an SRP session
# (a LUN removed after login) while its channels are force-closed (ib_srp
# logs in again each time). Every close must finish, the loops must keep getting answers, the sessions must be
# idle afterwards and the kernel quiet. The race is a window of a few
# instructions: the stock kernel shows it only as a crash, if ever; the
# KASAN kernel (--kernel debug) reports the use after free.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/srpt.sh

# how long each phase closes sessions (seconds)
SECS=${RACE_SECS:-60}

run modprobe -a sd_mod sg
scst_local_load
H=$SCST/handlers
for d in n0 n1 n2 n3 n4; do
	mgmt $H/vdisk_nullio/mgmt "add_device $d size_mb=16"
done
L=$SCST/targets/scst_local
local_target tgtA ha "n0 0" "n1 1"
hostA=$host
local_target tgtB hb "n2 0"
hostB=$host
TA=$L/tgtA
TB=$L/tgtB
sgA0=$(lun_sg "$hostA" 0)
sgA1=$(lun_sg "$hostA" 1)
sgB0=$(lun_sg "$hostB" 0)
# the hosts keep the SCSI devices; the target no longer has the LUNs
mgmt $TA/luns/mgmt "del 1"
mgmt $TB/luns/mgmt "del 0"
out=$(sg_turs "$sgB0" 2>&1) && fail "TEST UNIT READY of a session without LUNs succeeded"
log "TUR on the session without LUNs: $(head -n 1 <<< "$out")"

STOP=/tmp/race.stop
rm -f $STOP

# hammer SG KIND N: N loops of KIND (turs, inq, dd) on SG until $STOP;
# each loop counts the commands that got an answer (any status) in
# /tmp/race.<pid>
LOOP_PIDS=()
hammer() {
	local sg=$1 kind=$2 n=$3 k
	for ((k = 0; k < n; k++)); do
		(
			c=0
			while [ ! -e $STOP ]; do
				case $kind in
				turs) sg_turs -n 20 "$sg" > /dev/null 2>&1 ;;
				inq) sg_inq "$sg" > /dev/null 2>&1 ;;
				dd) sg_dd if="$sg" of=/dev/null bs=512 bpt=64 \
					count=2048 > /dev/null 2>&1 ;;
				esac
				# 99: sg3_utils could not reach the device at all
				[ $? -ne 99 ] && c=$((c + 1))
				echo $c > /tmp/race.$BASHPID
			done
		) &
		LOOP_PIDS+=($!)
	done
}

# stop_hammers: end the loops; each must have had answers
stop_hammers() {
	local p c
	touch $STOP
	for p in "${LOOP_PIDS[@]}"; do
		wait_for 60 "command loop $p to end (a command hangs?)" \
			gone "$p"
		c=$(cat /tmp/race.$p 2>/dev/null || echo 0)
		[ "$c" -gt 0 ] || fail "a command loop ($p) never got an answer"
	done
	LOOP_PIDS=()
	rm -f $STOP /tmp/race.*
}

# gone PID: the process has ended
gone() {
	! kill -0 "$1" 2> /dev/null
}

# unreg_lines TGT-NAME: sessions the core unregistered from that target
unreg_lines() {
	dmesg | grep -c "unregistered from .*/$1\$"
}

nexus_lines() {
	dmesg | grep -c "session $1 has a new I_T nexus"
}

# count_above LINES-FN ARG N: LINES-FN ARG prints more than N
count_above() {
	[ "$("$1" "$2")" -gt "$3" ]
}

# sess_idle DIR: the session's active_commands reads 0
sess_idle() {
	[ "$(cat "$1/active_commands")" = 0 ]
}

# --- scst_local ---------------------------------------------------------------
hammer "$sgA1" turs 4
hammer "$sgA1" inq 2
hammer "$sgB0" turs 4
hammer "$sgB0" inq 2
hammer "$sgA0" dd 2
sleep 2
# close as fast as the sessions come back: a close of a session being
# replaced is one of the new one (scst_local coalesces them)
na=$(nexus_lines ha)
nb=$(nexus_lines hb)
end=$((SECONDS + SECS))
while [ $SECONDS -lt $end ]; do
	echo 1 > $TA/sessions/ha/force_close 2> /dev/null
	echo 1 > $TB/sessions/hb/force_close 2> /dev/null
	sleep 0.1
done
wait_for 30 "session ha back" test -d $TA/sessions/ha
wait_for 30 "session hb back" test -d $TB/sessions/hb
na=$(( $(nexus_lines ha) - na ))
nb=$(( $(nexus_lines hb) - nb ))
log "scst_local: $na closes of ha, $nb of hb under load"
[ $na -ge 20 ] && [ $nb -ge 20 ] || fail "too few closes ($na, $nb)"
stop_hammers
wait_for 20 "ha idle" sess_idle $TA/sessions/ha
wait_for 20 "hb idle" sess_idle $TB/sessions/hb
dmesg | grep_q "commands still outstanding" && fail "a close waited for commands"
# the host still works through the last nexus
clear_ua "$sgA0"
run sg_turs "$sgA0"

# --- SRP -------------------------------------------------------------------------
rxe_setup_one
run modprobe scst_srpt rdma_cm_port="$SRP_PORT"
R=$(srpt_tgt rxe0)
wait_for 10 "target of rxe0" test -d "$R"
mgmt "$R/luns/mgmt" "add n3 0"
mgmt "$R/luns/mgmt" "add n4 1"
run sh -c "echo 1 > '$R/enabled'"
id=$(srpt_login_field "$R" tid_ext)
srp_login "$id" "$id"
srpt_wait_lun 0
srpt_wait_lun 1
run sh -c "echo 2 > /sys/class/srp_remote_ports/$SRP_RPORT/reconnect_delay"
nsess=$(srpt_nr_sessions "$R")
srp_sg0=$(lun_sg "$SRP_HOST" 0)
srp_sg1=$(lun_sg "$SRP_HOST" 1)
mgmt "$R/luns/mgmt" "del 1"
hammer "$srp_sg1" turs 4
hammer "$srp_sg1" inq 2
hammer "$srp_sg0" dd 2
sleep 2
end=$((SECONDS + SECS))
for ((i = 1; SECONDS < end; i++)); do
	u=$(unreg_lines "${R##*/}")
	s=$(srpt_sessions "$R" | head -n 1)
	log "close $i: force_close of SRP session $s (of $nsess)"
	echo 1 > "$R/sessions/$s/force_close" ||
		fail "force_close of SRP session $s refused"
	wait_for 60 "an SRP session unregistered (close $i)" \
		count_above unreg_lines "${R##*/}" "$u"
	srpt_wait_sessions "$R" "$nsess"
done
log "SRP: $((i - 1)) closes under load, $(unreg_lines "${R##*/}") sessions unregistered"
stop_hammers
for s in $(srpt_sessions "$R"); do
	wait_for 20 "SRP session $s idle" sess_idle "$R/sessions/$s"
done
dmesg | grep_q "commands still outstanding" && fail "a close waited for commands"

srp_logout
srpt_wait_sessions "$R" 0
run rmmod scst_srpt
run rmmod ib_srp
mgmt $L/mgmt "del_target tgtA"
mgmt $L/mgmt "del_target tgtB"
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
log "core-sess-race passed"
exit 0
