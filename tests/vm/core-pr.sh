#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Persistent reservations (SPC-4 §5.9) answered by the core: one vdisk
# device (on a slow scsi_debug disk) exported through two scst_local
# sessions, i.e. two I_T nexuses "A" and "B", driven with sg_persist:
#  SPC-2 RESERVE/RELEASE against PR, both ways (SPC-4 §5.9.3);
#  (a) the Windows-cluster sequence: REGISTER both, RESERVE EA from A (B's
#      READ conflicts), WE_RO, PREEMPT from B, RELEASE, CLEAR, with the
#      unit attentions the other nexus gets, RESERVATION CONFLICT before
#      a pending unit attention (SAM-5 5.3.2);
#  (c) READ FULL STATUS: both TransportIDs, keys, holder; (g) pr_state;
#  (f) a LUN RESET keeps registrations and reservation;
#  (d) REGISTER AND MOVE to B's nexus, and to a port that does not exist;
#  (b) fence_scsi: REGISTER AND IGNORE EXISTING KEY on both, WE_RO from A,
#      PREEMPT AND ABORT of B while B has writes in flight: they fail, so
#      do B's later writes (RESERVATION CONFLICT);
#  (e) APTPL: the state comes back after del/add of the device and after
#      unloading every module; a damaged file gives one log line and an
#      unknown state until pr_file_reset; without APTPL nothing is written.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/pr.sh

INI_A=iqn.2026-01.test:nodea
INI_B=iqn.2026-01.test:nodeb
PRDIR=/var/lib/scst/pr
DEV=pr0

run modprobe -a sd_mod sg
# ~100 ms per command at HZ=250: B's writes are in flight for a while
sdebug_load dev_size_mb=64 delay=25
backing=$(sdebug_disk)
log "backing disk $backing"

# setup: the device, tgt1 with LUN 0, sessions A and B; sets sgA sgB sdB
setup() {
	scst_local_load
	mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device $DEV filename=$backing"
	local_target tgt1 "$INI_A" "$DEV 0"
	pr_two_nexuses tgt1 "$INI_B"
	RTP=$(attr_value "$T/rel_tgt_id")
	log "A: $sgA, B: $sgB ($sdB), relative target port $RTP"
}

# relun: LUN 0 added again: find its nodes on both hosts, clear the UAs
relun() {
	wait_lun "$hostA" 0
	wait_lun "$hostB" 0
	sgA=$(lun_sg "$hostA" 0)
	sgB=$(lun_sg "$hostB" 0)
	sdB=$(lun_disk "$hostB" 0)
	clear_ua "$sgA"
	clear_ua "$sgB"
}

# unload: every module of ours, in order
unload() {
	run rmmod scst_local
	run rmmod scst_vdisk
	run rmmod scst
}

T=$SCST/targets/scst_local/tgt1
setup
P=$SCST/devices/$DEV/pr_state

# --- nothing registered ---------------------------------------------------
# a session's nexus keeps its port: rel_tgt_id is fixed while there are any
log "+ (must fail with EBUSY) echo 77 > $T/rel_tgt_id"
out=$(echo 77 2>&1 > "$T/rel_tgt_id") && fail "rel_tgt_id changed under sessions"
grep -qi 'busy' <<< "$out" || fail "rel_tgt_id under sessions: '$out', not EBUSY"
assert_eq "$(attr_value "$T/rel_tgt_id")" "$RTP" "rel_tgt_id after the refused change"
assert_eq "$(keys "$sgA")" "" "keys at start"
assert_eq "$(resv "$sgA")" none "reservation at start"
assert_eq "$(cat $P)" "generation 0
aptpl 0
reservation none
registrants 0" "pr_state at start"
out=$(sg_persist -n --in -c "$sgA") || fail "REPORT CAPABILITIES failed"
grep -qi 'PTPL_C): *1' <<< "$out" ||
	{ echo "$out"; fail "REPORT CAPABILITIES: no PTPL_C"; }
# a service action that does not exist: ILLEGAL REQUEST
out=$(sense_of sg_raw -r 64 "$sgA" 5e 04 00 00 00 00 00 00 40 00)
grep -qi 'invalid field in cdb' <<< "$out" || { echo "$out"; fail "PR IN SA 04h accepted"; }
# RSOC lists PERSISTENT RESERVE OUT's service actions
out=$(sg_opcodes -n "$sgA")
grep -q '5f *7 *Persistent reserve out, register and move' <<< "$out" ||
	grep -qi '5f.*register and move' <<< "$out" || { echo "$out"; fail "RSOC: no PR OUT REGISTER AND MOVE"; }

# --- SPC-2 RESERVE held by B: A's PR IN/OUT conflict (SPC-4 §5.9.3) -------
out=$(sense_of sg_raw "$sgB" 16 00 00 00 00 00)
grep -qi 'status: good' <<< "$out" || { echo "$out"; fail "B's RESERVE(6) failed"; }
out=$(sense_of sg_persist -n --in -k "$sgA")
grep -qi 'reservation conflict' <<< "$out" || { echo "$out"; fail "A's PR IN under B's SPC-2 reservation"; }
prout_fails "$sgA" "reservation conflict" --register --param-sark=0xa
out=$(sense_of sg_raw "$sgB" 17 00 00 00 00 00)
grep -qi 'status: good' <<< "$out" || { echo "$out"; fail "B's RELEASE(6) failed"; }
assert_eq "$(keys "$sgA")" "" "keys after the SPC-2 reservation"

# --- (a) the Windows-cluster sequence -------------------------------------
prout "$sgA" --register --param-sark=0xa
prout "$sgB" --register --param-sark=0xb
assert_eq "$(keys "$sgA" | tr '\n' ' ')" "0xa 0xb " "keys after REGISTER"
assert_eq "$(generation "$sgB")" 0x2 "PRgeneration after two REGISTERs"
# a REGISTER with the wrong key: RESERVATION CONFLICT, nothing changes
prout_fails "$sgB" "reservation conflict" --register --param-rk=0x99 --param-sark=0xc
assert_eq "$(generation "$sgB")" 0x2 "PRgeneration after a refused REGISTER"

prout "$sgA" --reserve --param-rk=0xa --prout-type=3
assert_eq "$(resv "$sgB")" "0xa Exclusive Access" "reservation EA"
assert_eq "$(io "$sgB" read)" conflict "B's READ under A's EA"
assert_eq "$(io "$sgB" write)" conflict "B's WRITE under A's EA"
assert_eq "$(io "$sgA" read)" good "A's READ under its EA"
sg_turs "$sgB" || fail "B's TEST UNIT READY under EA"
# SPC-2 RESERVE with registrations: RESERVATION CONFLICT (SPC-4 §5.9.3)
out=$(sense_of sg_raw "$sgA" 16 00 00 00 00 00)
grep -qi 'reservation conflict' <<< "$out" || { echo "$out"; fail "RESERVE(6) while registered"; }
# another type while holding: RESERVATION CONFLICT (SPC-4 §5.9.9)
prout_fails "$sgA" "reservation conflict" --reserve --param-rk=0xa --prout-type=5
prout "$sgA" --release --param-rk=0xa --prout-type=3
prout "$sgA" --reserve --param-rk=0xa --prout-type=5
assert_eq "$(resv "$sgB")" "0xa Write Exclusive, registrants only" "reservation WE_RO"
assert_eq "$(io "$sgB" write)" good "registrant B's WRITE under WE_RO"

# --- (c) READ FULL STATUS, (g) pr_state ----------------------------------
fs=$(sg_persist -n --in -s "$sgB") || fail "READ FULL STATUS failed"
echo "$fs"
# one block per registrant, from its Key= line to the next
blockA=$(sed -n '/Key=0xa$/,/Key=/p' <<< "$fs")
blockB=$(sed -n '/Key=0xb$/,$p' <<< "$fs")
grep -q 'Relative port address: 0x'"$(printf %x "$RTP")" <<< "$blockA" || fail "full status: A's port"
grep -q '<< Reservation holder >>' <<< "$blockA" || fail "full status: A is not the holder"
grep -q 'type: Write Exclusive, registrants only' <<< "$blockA" || fail "full status: type"
grep -q "$INI_A" <<< "$blockA" || fail "full status: A's TransportID"
grep -q 'not reservation holder' <<< "$blockB" || fail "full status: B is a holder"
grep -q "$INI_B" <<< "$blockB" || fail "full status: B's TransportID"
assert_eq "$(grep -c 'Key=' <<< "$fs")" 2 "full status descriptors"
assert_eq "$(cat $P)" "generation 2
aptpl 0
reservation WE_RO (5) holder 0
registrants 2
registrant 0 key 0x000000000000000a transport_id iscsi:$INI_A rel_tgt_id $RTP all_tg_pt 0
registrant 1 key 0x000000000000000b transport_id iscsi:$INI_B rel_tgt_id $RTP all_tg_pt 0" "pr_state with WE_RO"

# --- (f) LUN RESET keeps registrations and reservation (SPC-4 §5.9.1) ------
run sg_reset -d "$sgA"
clear_ua "$sgA"
clear_ua "$sgB"
assert_eq "$(keys "$sgA" | tr '\n' ' ')" "0xa 0xb " "keys after LUN RESET"
assert_eq "$(resv "$sgB")" "0xa Write Exclusive, registrants only" "reservation after LUN RESET"

# --- (a) continued: PREEMPT from B, RELEASE, CLEAR --------------------------
prout "$sgB" --preempt --param-rk=0xb --param-sark=0xa --prout-type=5
# SAM-5 5.3.2: RESERVATION CONFLICT takes precedence over the unit
# attention, which stays pending for A's next command that is allowed
# (fence_scsi and Windows clusters count on the WRITE being refused)
assert_eq "$(io "$sgA" write)" conflict "preempted A's WRITE with its unit attention pending"
# (sg3_utils names ASC/ASCQ 2Ah/05h "Registrations preempted")
ua_is "$sgA" "registrations preempted"
assert_eq "$(keys "$sgB" | tr '\n' ' ')" "0xb " "keys after PREEMPT"
assert_eq "$(resv "$sgA")" "0xb Write Exclusive, registrants only" "reservation after PREEMPT"
assert_eq "$(io "$sgA" write)" conflict "unregistered A's WRITE under B's WE_RO"
assert_eq "$(io "$sgA" read)" good "unregistered A's READ under B's WE_RO"
prout "$sgB" --release --param-rk=0xb --prout-type=5
assert_eq "$(resv "$sgA")" none "reservation after RELEASE"
assert_eq "$(io "$sgA" write)" good "A's WRITE without a reservation"
prout "$sgA" --register --param-sark=0xa
prout "$sgA" --reserve --param-rk=0xa --prout-type=1
prout "$sgB" --clear --param-rk=0xb
ua_is "$sgA" "reservations preempted"
assert_eq "$(keys "$sgA")" "" "keys after CLEAR"
assert_eq "$(resv "$sgA")" none "reservation after CLEAR"

# --- (d) REGISTER AND MOVE ----------------------------------------------------
prout "$sgA" --register --param-sark=0xa
prout "$sgA" --reserve --param-rk=0xa --prout-type=5
prout_fails "$sgA" "invalid field in parameter list" --register-move \
	--param-rk=0xa --param-sark=0xc --prout-type=5 \
	--relative-target-port=999 --transport-id="$INI_B"
prout "$sgA" --register-move --param-rk=0xa --param-sark=0xc --prout-type=5 \
	--relative-target-port="$RTP" --transport-id="$INI_B"
assert_eq "$(keys "$sgA" | tr '\n' ' ')" "0xa 0xc " "keys after REGISTER AND MOVE"
assert_eq "$(resv "$sgA")" "0xc Write Exclusive, registrants only" "reservation after REGISTER AND MOVE"
grep -q "^registrant 1 key 0x000000000000000c transport_id iscsi:$INI_B " $P ||
	{ cat $P; fail "pr_state: B does not hold key 0xc"; }
grep -q '^reservation WE_RO (5) holder 1$' $P || { cat $P; fail "pr_state: B is not the holder"; }
prout "$sgB" --clear --param-rk=0xc
clear_ua "$sgA"

# --- (b) fence_scsi: PREEMPT AND ABORT with B's writes in flight -----------
fence "$sgA" 0xa "$sgB" 0xb "$sdB"
[ ! -e $PRDIR/$DEV ] || fail "an APTPL file exists without APTPL"

# --- (e) APTPL ---------------------------------------------------------------
prout "$sgA" --register --param-sark=0xa --param-aptpl
prout "$sgB" --register --param-sark=0xb --param-aptpl
prout "$sgA" --reserve --param-rk=0xa --prout-type=5
[ -f $PRDIR/$DEV ] || fail "no APTPL file $PRDIR/$DEV"
[ ! -e $PRDIR/$DEV.tmp ] || fail "$PRDIR/$DEV.tmp left behind"
gen=$(sed -n 's/^generation //p' $P)
expected_file="scst-ng-pr 1
generation $gen
aptpl 1
registrant 0x000000000000000a iscsi:$INI_A $RTP 0
registrant 0x000000000000000b iscsi:$INI_B $RTP 0
reservation 5 0
end"
assert_eq "$(cat $PRDIR/$DEV)" "$expected_file" "APTPL file"
state=$(cat $P)

# the device deleted and added again, by a writer in a mount namespace
# of its own where $PRDIR is an empty tmpfs: the core reads the file of
# the host's $PRDIR all the same (a kworker's root, not the writer's)
mgmt $T/luns/mgmt "del 0"
mgmt $SCST/handlers/vdisk_blockio/mgmt "del_device $DEV"
log "+ (in a mount namespace with an empty $PRDIR) add_device $DEV"
unshare -m sh -c "mount -t tmpfs none $PRDIR && [ ! -e $PRDIR/$DEV ] &&
	echo 'add_device $DEV filename=$backing' > $SCST/handlers/vdisk_blockio/mgmt" ||
	fail "add_device from a mount namespace of its own failed"
assert_eq "$(cat $P)" "$state" "pr_state after del_device/add_device"
dmesg | grep_q "$DEV: 2 persistent reservation registrations restored from $PRDIR/$DEV" ||
	fail "no log line for the restored state"
mgmt $T/luns/mgmt "add $DEV 0"
relun
assert_eq "$(keys "$sgB" | tr '\n' ' ')" "0xa 0xb " "keys after re-adding the device"
assert_eq "$(resv "$sgB")" "0xa Write Exclusive, registrants only" "reservation after re-adding"

# every module unloaded and loaded again
unload
setup
assert_eq "$(cat $P)" "$state" "pr_state after rmmod/modprobe"
assert_eq "$(keys "$sgB" | tr '\n' ' ')" "0xa 0xb " "keys after rmmod/modprobe"
assert_eq "$(resv "$sgB")" "0xa Write Exclusive, registrants only" "reservation after rmmod/modprobe"
assert_eq "$(io "$sgA" write)" good "holder A's WRITE after rmmod/modprobe"

# a damaged file: one log line naming file, line and reason; the state is
# unknown (commands get NOT READY: core-pr-fence) until pr_file_reset moves
# the file aside
mgmt $T/luns/mgmt "del 0"
mgmt $SCST/handlers/vdisk_blockio/mgmt "del_device $DEV"
sed -i "s/^generation $gen\$/generation 0$gen/" $PRDIR/$DEV
grep -q "^generation 0$gen$" $PRDIR/$DEV || fail "could not damage the file"
before=$(dmesg | wc -l)
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device $DEV filename=$backing"
msgs=$(dmesg | tail -n +"$((before + 1))" | grep "$PRDIR/$DEV")
echo "$msgs"
assert_eq "$(dmesg | tail -n +"$((before + 1))" | grep -c "$PRDIR/$DEV")" 1 "log lines about the damaged file"
grep -q "$DEV: $PRDIR/$DEV line 2: .*: persistent reservation state unknown" <<< "$msgs" ||
	fail "the log line does not name the file and line"
grep -q "^state unknown: $PRDIR/$DEV line 2: " $P || { cat $P; fail "pr_state does not say the state is unknown"; }
grep -q "^generation 0$gen$" $PRDIR/$DEV || fail "the damaged file changed"
run sh -c "echo 1 > $SCST/devices/$DEV/pr_file_reset"
grep -q "^generation 0$gen$" $PRDIR/$DEV.bad || fail "the damaged file was not moved to $PRDIR/$DEV.bad"
run rm $PRDIR/$DEV.bad
grep -q '^registrants 0$' $P || { cat $P; fail "state not empty after pr_file_reset"; }
grep -q '^reservation none$' $P || { cat $P; fail "reservation after pr_file_reset"; }

# a REGISTER with APTPL clear removes the file (SPC-4 §5.9.5)
mgmt $T/luns/mgmt "add $DEV 0"
relun
prout "$sgA" --register --param-sark=0xa --param-aptpl
[ -f $PRDIR/$DEV ] || fail "no APTPL file after REGISTER with APTPL"
prout "$sgA" --register --param-rk=0xa --param-sark=0xd
[ ! -e $PRDIR/$DEV ] || fail "APTPL file kept after a REGISTER without APTPL"

# --- a failed APTPL write: the command fails and changes nothing -----------
gen=$(generation "$sgA")
run mount -t tmpfs -o ro none $PRDIR
before=$(dmesg | wc -l)
prout_fails "$sgA" "hardware error" --register --param-rk=0xd --param-sark=0xe --param-aptpl
run umount $PRDIR
assert_eq "$(keys "$sgA" | tr '\n' ' ')" "0xd " "keys after a failed APTPL write"
assert_eq "$(generation "$sgA")" "$gen" "PRgeneration after a failed APTPL write"
grep -q '^aptpl 0$' $P || { cat $P; fail "pr_state: APTPL set by a failed command"; }
dmesg | tail -n +"$((before + 1))" | grep_q "$DEV: cannot write $PRDIR/$DEV: error -30" ||
	fail "no log line naming the file that could not be written"
prout "$sgA" --register --param-rk=0xd --param-sark=0

# --- a session whose initiator name is no iSCSI name: no TransportID --------
INI_X=$'node\xc3\xa9'
mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 $INI_X"
wait_for 10 "host of $INI_X" local_host tgt1 "$INI_X" > /dev/null
hostX=$(local_host tgt1 "$INI_X")
wait_lun "$hostX" 0
sgX=$(lun_sg "$hostX" 0)
clear_ua "$sgX"
dmesg | grep_q "session of $INI_X has no TransportID" || fail "no log line for a session without a TransportID"
prout_fails "$sgX" "insufficient registration resources" --register --param-sark=0xf
assert_eq "$(keys "$sgA")" "" "keys after a registration without a TransportID"
out=$(sg_persist -n --in -k "$sgX") || fail "PR IN from a session without a TransportID: $out"
mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 $INI_X"

unload
log "core-pr: all checks passed"
