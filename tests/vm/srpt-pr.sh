#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Persistent reservations across two transports (SPC-4 §5.9): one vdisk
# device (on a slow scsi_debug disk) exported through our SRP target
# (nexus "S": the Linux ib_srp initiator, SRP TransportID, every RDMA
# channel of the login one I_T nexus) and through an scst_local target
# (nexus "L": an iSCSI-name TransportID), two target ports with their own
# relative target port identifiers:
#  (a) the Windows-cluster sequence: REGISTER both, RESERVE EA from L (S
#      conflicts), WE_RO, PREEMPT from S, RELEASE, CLEAR, with the unit
#      attentions the other nexus gets (after RESERVATION CONFLICT);
#  (c) READ FULL STATUS and pr_state: both TransportIDs, both ports;
#  (f) SRP logout and login again (I_T nexus loss) and a LUN RESET from
#      L keep registrations and reservation (SPC-4 §5.9.1);
#  (d) REGISTER AND MOVE from S to L's nexus on the other target port;
#  (b) fence_scsi both ways: PREEMPT AND ABORT from S of L with L's writes
#      in flight, and from L of S with S's writes in flight over RDMA;
#      the fenced node's writes fail, later ones with RESERVATION CONFLICT;
#  (e) APTPL with the SRP registrant: kept across del/add of the device.
#
# The script runs on CPU 0 only: blk-mq sends a CPU's commands down its
# own RDMA channel, and each channel has its own unit attentions, so S's
# commands all take one channel and ua_is sees the one it expects.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/srpt.sh
. /tests/lib/pr.sh

INI_L=iqn.2026-01.test:local
PRDIR=/var/lib/scst/pr
DEV=pr0
H=$SCST/handlers

run taskset -p -c 0 $$ > /dev/null
run modprobe -a sd_mod sg
# ~100 ms per command at HZ=250: writes are in flight for a while
sdebug_load dev_size_mb=64 delay=25
backing=$(sdebug_disk)
srpt_target_up rxe_setup_one
TS=$T
run modprobe scst_local add_default_tgt=0
mgmt $H/vdisk_blockio/mgmt "add_device $DEV filename=$backing"
mgmt "$TS/luns/mgmt" "add $DEV 0"
run sh -c "echo 1 > '$TS/enabled'"
P=$SCST/devices/$DEV/pr_state

# srp_up: log in, find S's nodes, consume the unit attentions of every
# channel
srp_up() {
	srp_login "$id" "$id"
	srpt_wait_lun 0
	sgS=$(lun_sg "$SRP_HOST" 0)
	sdS=$(srpt_lun_disk 0)
	srpt_clear_ua_all_channels "$sgS"
	clear_ua "$sgS"
}
srp_up
local_target tgt1 "$INI_L" "$DEV 0"
TL=$T
sgL=$(lun_sg "$host" 0)
sdL=$(lun_disk "$host" 0)
clear_ua "$sgL"
RTP_S=$(attr_value "$TS/rel_tgt_id")
RTP_L=$(attr_value "$TL/rel_tgt_id")
[ "$RTP_S" != "$RTP_L" ] || fail "both targets have relative target port $RTP_S"
log "S: $sgS ($sdS) port $RTP_S; L: $sgL ($sdL) port $RTP_L"

# --- (a) the Windows-cluster sequence, (c) READ FULL STATUS ---------------
prout "$sgL" --register --param-sark=0xa
prout "$sgS" --register --param-sark=0xb
assert_eq "$(keys "$sgS" | tr '\n' ' ')" "0xa 0xb " "keys after REGISTER"
srp_tid=$(sed -n 's/^registrant 1 key 0x000000000000000b transport_id srp:\([0-9a-f]\{32\}\) rel_tgt_id '"$RTP_S"' all_tg_pt 0$/\1/p' $P)
[ -n "$srp_tid" ] || { cat $P; fail "pr_state: no SRP registrant on port $RTP_S"; }
grep -q "^registrant 0 key 0x000000000000000a transport_id iscsi:$INI_L rel_tgt_id $RTP_L all_tg_pt 0$" $P ||
	{ cat $P; fail "pr_state: no iSCSI registrant on port $RTP_L"; }
grep -q '^registrants 2$' $P || { cat $P; fail "pr_state: S's channels are not one nexus"; }

prout "$sgL" --reserve --param-rk=0xa --prout-type=3
assert_eq "$(resv "$sgS")" "0xa Exclusive Access" "reservation EA"
assert_eq "$(io "$sgS" read)" conflict "S's READ under L's EA"
assert_eq "$(io "$sgS" write)" conflict "S's WRITE under L's EA"
assert_eq "$(io "$sgL" write)" good "L's WRITE under its EA"
prout "$sgL" --release --param-rk=0xa --prout-type=3
prout "$sgL" --reserve --param-rk=0xa --prout-type=5
assert_eq "$(io "$sgS" write)" good "registrant S's WRITE under WE_RO"

fs=$(sg_persist -n --in -s "$sgL") || fail "READ FULL STATUS failed"
echo "$fs"
blockL=$(sed -n '/Key=0xa$/,/Key=/p' <<< "$fs")
blockS=$(sed -n '/Key=0xb$/,$p' <<< "$fs")
assert_eq "$(grep -c 'Key=' <<< "$fs")" 2 "full status descriptors"
grep -q '<< Reservation holder >>' <<< "$blockL" || fail "full status: L is not the holder"
grep -q "Relative port address: 0x$(printf %x "$RTP_L")" <<< "$blockL" || fail "full status: L's port"
grep -q "$INI_L" <<< "$blockL" || fail "full status: L's TransportID"
grep -q 'not reservation holder' <<< "$blockS" || fail "full status: S is a holder"
grep -q "Relative port address: 0x$(printf %x "$RTP_S")" <<< "$blockS" || fail "full status: S's port"
grep -Eqi 'SRP|RDMA' <<< "$blockS" || fail "full status: S's TransportID is not SRP's"
# sg_persist prints the 16-byte identifier as a hex dump: "00 00 ... 03 df"
tid_dump=$(sed 's/../& /g; s/ $//; s/^\(.\{23\}\) /\1  /' <<< "$srp_tid")
grep -q "$tid_dump" <<< "$blockS" ||
	fail "full status: S's initiator port identifier is not $tid_dump"

prout "$sgS" --preempt --param-rk=0xb --param-sark=0xa --prout-type=5
# SAM-5 5.3.2: RESERVATION CONFLICT first, the unit attention stays pending
assert_eq "$(io "$sgL" write)" conflict "preempted L's WRITE with its unit attention pending"
ua_is "$sgL" "registrations preempted"
assert_eq "$(keys "$sgL" | tr '\n' ' ')" "0xb " "keys after PREEMPT"
assert_eq "$(resv "$sgL")" "0xb Write Exclusive, registrants only" "reservation after PREEMPT"
assert_eq "$(io "$sgL" write)" conflict "unregistered L's WRITE under S's WE_RO"
assert_eq "$(io "$sgL" read)" good "unregistered L's READ under S's WE_RO"

# --- (f) nexus loss and LUN RESET keep registrations and reservation -------
srp_logout
srpt_wait_sessions "$TS" 0
assert_eq "$(keys "$sgL" | tr '\n' ' ')" "0xb " "keys after S logged out"
assert_eq "$(resv "$sgL")" "0xb Write Exclusive, registrants only" "reservation after S logged out"
sleep 3		# ib_srp forgets the removed target a moment after its host
SRP_LOGIN_TRIES=20 srp_up
assert_eq "$(io "$sgS" write)" good "holder S's WRITE after logging in again"
run sg_reset -d "$sgL"
clear_ua "$sgL"
srpt_clear_ua_all_channels "$sgS"
clear_ua "$sgS"
assert_eq "$(resv "$sgL")" "0xb Write Exclusive, registrants only" "reservation after LUN RESET"
prout "$sgS" --release --param-rk=0xb --prout-type=5
assert_eq "$(resv "$sgL")" none "reservation after RELEASE"
prout "$sgL" --register --param-sark=0xa
prout "$sgL" --reserve --param-rk=0xa --prout-type=1
prout "$sgS" --clear --param-rk=0xb
ua_is "$sgL" "reservations preempted"
assert_eq "$(keys "$sgL")" "" "keys after CLEAR"

# --- (d) REGISTER AND MOVE from S to L, on the other target port ------------
prout "$sgS" --register --param-sark=0xb
prout "$sgS" --reserve --param-rk=0xb --prout-type=5
prout "$sgS" --register-move --param-rk=0xb --param-sark=0xc --prout-type=5 \
	--relative-target-port="$RTP_L" --transport-id="$INI_L"
assert_eq "$(keys "$sgL" | tr '\n' ' ')" "0xb 0xc " "keys after REGISTER AND MOVE"
assert_eq "$(resv "$sgS")" "0xc Write Exclusive, registrants only" "reservation after REGISTER AND MOVE"
grep -q "^registrant 1 key 0x000000000000000c transport_id iscsi:$INI_L rel_tgt_id $RTP_L " $P ||
	{ cat $P; fail "pr_state: L does not hold key 0xc on port $RTP_L"; }
grep -q '^reservation WE_RO (5) holder 1$' $P || { cat $P; fail "pr_state: L is not the holder"; }
prout "$sgL" --clear --param-rk=0xc
srpt_clear_ua_all_channels "$sgS"
clear_ua "$sgS"

# --- (b) fence_scsi: S fences L, L fences S ---------------------------------
fence "$sgS" 0xb "$sgL" 0xa "$sdL"
clear_ua "$sgL"
# S's aborted commands get no response (TAS 0): ib_srp's timeout and error
# handler end them, and the block layer's retry meets the reservation
echo 5 > "/sys/block/${sdS#/dev/}/device/timeout"
fence "$sgL" 0xa "$sgS" 0xb "$sdS"
clear_ua "$sgL"
srpt_clear_ua_all_channels "$sgS"
clear_ua "$sgS"
assert_eq "$(io "$sgS" write)" good "S's WRITE once the fence is cleared"

# --- (e) APTPL with the SRP registrant --------------------------------------
prout "$sgS" --register --param-sark=0xb --param-aptpl
prout "$sgL" --register --param-sark=0xa --param-aptpl
prout "$sgS" --reserve --param-rk=0xb --prout-type=5
grep -q "^registrant 0x000000000000000b srp:$srp_tid $RTP_S 0$" $PRDIR/$DEV ||
	{ cat $PRDIR/$DEV; fail "APTPL file: no SRP registrant"; }
state=$(cat $P)
srp_logout
mgmt "$TS/luns/mgmt" "del 0"
mgmt "$TL/luns/mgmt" "del 0"
mgmt $H/vdisk_blockio/mgmt "del_device $DEV"
mgmt $H/vdisk_blockio/mgmt "add_device $DEV filename=$backing"
assert_eq "$(cat $P)" "$state" "pr_state after del_device/add_device"
mgmt "$TS/luns/mgmt" "add $DEV 0"
sleep 3
SRP_LOGIN_TRIES=20 srp_up
assert_eq "$(resv "$sgS")" "0xb Write Exclusive, registrants only" "reservation after re-adding"
assert_eq "$(io "$sgS" write)" good "holder S's WRITE after re-adding"
prout "$sgS" --register --param-rk=0xb --param-sark=0
[ ! -e $PRDIR/$DEV ] || fail "APTPL file kept after a REGISTER without APTPL"

srp_logout
run rmmod ib_srp
run rmmod scst_srpt
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
log "srpt-pr: all checks passed"
