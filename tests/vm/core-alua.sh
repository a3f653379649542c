#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ALUA (SPC-4 5.16) through SCST's device_groups tree: one nullio device
# exported by two scst_local targets (two SCSI hosts of the guest, two
# paths), both targets in one device group, each in its own target port
# group (ids 1 and 2). Checked: REPORT TARGET PORT GROUPS data byte for
# byte, INQUIRY TPGS, the target port group designator of VPD 83h, what a
# standby path admits and the sense of what it refuses, SET TARGET PORT
# GROUPS (good and bad) with the unit attention on the other path, sysfs
# showing each change, Linux's scsi_dh_alua attaching and following a
# change, bad mgmt input refused with nothing changed, and the clean-up
# when a target and the device go away.
. /tests/lib/common.sh
. /tests/lib/scst.sh

run modprobe -a sd_mod sg
scst_local_load

mgmt $SCST/handlers/vdisk_nullio/mgmt "add_device disk0 size_mb=64"
TA=$SCST/targets/scst_local/tgt_a TB=$SCST/targets/scst_local/tgt_b
for t in tgt_a tgt_b; do
	mgmt $SCST/targets/scst_local/mgmt "add_target $t"
	mgmt $SCST/targets/scst_local/$t/luns/mgmt "add disk0 0"
done
rid_a=$(attr_value "$TA/rel_tgt_id")
rid_b=$(attr_value "$TB/rel_tgt_id")
[ "$rid_a" != "$rid_b" ] || fail "both targets have rel_tgt_id $rid_a"

# --- the tree ---------------------------------------------------------------
# Before the sessions: the initiator reads INQUIRY (TPGS) when it scans.
DG=$SCST/device_groups/dg1
mgmt $SCST/device_groups/mgmt "create dg1"
mgmt $DG/devices/mgmt "add disk0"
# SCST's expl_alua: 0 by default (implicit ALUA only); the SET TARGET PORT
# GROUPS part below needs 1 (0 is checked at the end)
assert_eq "$(cat $SCST/devices/disk0/expl_alua)" 0 "expl_alua default"
expect_fail sh -c "echo 2 > $SCST/devices/disk0/expl_alua"
echo 1 > $SCST/devices/disk0/expl_alua || fail "expl_alua 1 refused"
assert_eq "$(cat $SCST/devices/disk0/expl_alua)" "1
[key]" "expl_alua"
mgmt $DG/target_groups/mgmt "create tg1"
mgmt $DG/target_groups/mgmt "create tg2"
TG1=$DG/target_groups/tg1 TG2=$DG/target_groups/tg2
mgmt $TG1/mgmt "add tgt_a"
mgmt $TG2/mgmt "add tgt_b"
# a target not on this system: a directory with its own rel_tgt_id
mgmt $TG2/mgmt "add remote_tgt"
echo 4660 > $TG2/remote_tgt/rel_tgt_id || fail "remote rel_tgt_id refused"
echo 1 > $TG1/group_id && echo 2 > $TG2/group_id || fail "group_id refused"
echo 1 > $TG1/preferred || fail "preferred refused"

assert_eq "$(readlink -f $DG/devices/disk0)" "$(readlink -f $SCST/devices/disk0)" "devices/disk0 link"
assert_eq "$(readlink -f $TG1/tgt_a)" "$(readlink -f $TA)" "tg1/tgt_a link"
assert_eq "$(attr_value $TG1/tgt_a/rel_tgt_id)" "$rid_a" "tg1/tgt_a/rel_tgt_id"
[ -d $TG2/remote_tgt ] && [ ! -L $TG2/remote_tgt ] || fail "remote_tgt is not a directory"
assert_eq "$(cat $TG2/remote_tgt/rel_tgt_id)" "4660
[key]" "remote rel_tgt_id"
assert_eq "$(cat $TG1/group_id)" "1
[key]" "tg1 group_id"
assert_eq "$(cat $TG1/preferred)" "1
[key]" "tg1 preferred"
assert_eq "$(cat $TG2/preferred)" "0
[key]" "tg2 preferred"
assert_eq "$(cat $TG1/state)" "active
[key]" "tg1 initial state"
assert_eq "$(cat $TG2/state)" "active
[key]" "tg2 initial state"

for t in tgt_a tgt_b; do
	mgmt $SCST/targets/scst_local/mgmt "add_session $t host_${t#tgt_}"
	wait_for 10 "scst_local host of $t" local_host "$t" "host_${t#tgt_}" > /dev/null
done
host_a=$(local_host tgt_a host_a)
host_b=$(local_host tgt_b host_b)
wait_lun "$host_a" 0
wait_lun "$host_b" 0
sg_a=$(lun_sg "$host_a" 0)
sg_b=$(lun_sg "$host_b" 0)
log "path A: host $host_a $sg_a rel_tgt_id $rid_a; path B: host $host_b $sg_b rel_tgt_id $rid_b"

# pending unit attentions of a path, consumed with REQUEST SENSE
pop_uas() {
	local i out all=
	for i in 1 2 3 4 5 6 7 8; do
		out=$(sg_requests "$1" 2>&1) || fail "REQUEST SENSE on $1: $out"
		grep -qi 'no additional sense' <<< "$out" && break
		all+="$out"$'\n'
	done
	echo "$all"
}
expect_ua() {
	grep -qi 'asymmetric access state changed' <<< "$(pop_uas "$1")" ||
		fail "$1: no ASYMMETRIC ACCESS STATE CHANGED unit attention ($2)"
}
expect_no_ua() {
	local u
	u=$(pop_uas "$1")
	! grep -qi 'asymmetric access state changed' <<< "$u" ||
		fail "$1: unexpected ASYMMETRIC ACCESS STATE CHANGED ($2)"
}
# rtpg SG: REPORT TARGET PORT GROUPS data as hex bytes
rtpg() {
	sg_rtpg -r "$@" | od -An -tx1 -v | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}
hex16() {
	printf '%02x %02x' $(($1 >> 8)) $(($1 & 0xff))
}
read10() {
	sg_raw -r 512 "$1" 28 00 00 00 00 00 00 00 01 00 2>&1
}

# --- a state change through sysfs --------------------------------------------
pop_uas "$sg_a" > /dev/null
pop_uas "$sg_b" > /dev/null
echo standby > $TG2/state || fail "state standby refused"
assert_eq "$(cat $TG2/state)" "standby
[key]" "tg2 state after the sysfs write"
expect_ua "$sg_a" "sysfs change, path A"
expect_ua "$sg_b" "sysfs change, path B"

# RTPG: tg1 preferred active, no status; tg2 standby, changed implicitly;
# the ports with their relative target port ids (remote_tgt: 4660 = 1234h)
exp="00 00 00 1c 80 cf 00 01 00 00 00 01 00 00 $(hex16 "$rid_a") 02 cf 00 02 00 02 00 02 00 00 $(hex16 "$rid_b") 00 00 12 34"
for sg in "$sg_a" "$sg_b"; do
	got=$(rtpg "$sg") || fail "RTPG on $sg failed"
	assert_eq "$got" "$exp" "RTPG data on $sg"
done
got=$(rtpg -e "$sg_a")
assert_eq "$got" "00 00 00 20 10 00 00 00 ${exp#00 00 00 1c }" "RTPG extended header"
# the allocation length cuts the data, RETURN DATA LENGTH stays
got=$(sg_raw -r 8 -b "$sg_a" a3 0a 00 00 00 00 00 00 00 08 00 00 2>/dev/null | od -An -tx1 -v | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
assert_eq "$got" "00 00 00 1c 80 cf 00 01" "RTPG with allocation length 8"
sg_rtpg -d "$sg_b"

# INQUIRY and VPD 83h
grep -q 'TPGS=3' <<< "$(sg_inq "$sg_a")" || fail "TPGS is not 3 (implicit and explicit)"
vpd_a=$(sg_vpd -p di "$sg_a") vpd_b=$(sg_vpd -p di "$sg_b")
echo "$vpd_b"
grep -qi 'target port group: 0x1$' <<< "$vpd_a" || fail "VPD 83h of path A: no target port group 1"
grep -qi 'target port group: 0x2$' <<< "$vpd_b" || fail "VPD 83h of path B: no target port group 2"
grep -qi "relative target port: 0x$(printf %x "$rid_b")\$" <<< "$vpd_b" ||
	fail "VPD 83h of path B: no relative target port $rid_b"

# --- the standby path -------------------------------------------------------
out=$(read10 "$sg_b") && fail "READ on the standby path succeeded"
echo "$out"
grep -qi 'not ready' <<< "$out" && grep -qi 'target port in standby state' <<< "$out" ||
	fail "READ on the standby path: not NOT READY / TARGET PORT IN STANDBY STATE"
out=$(sg_raw -s 512 -i /dev/zero "$sg_b" 2a 00 00 00 00 00 00 00 01 00 2>&1) &&
	fail "WRITE on the standby path succeeded"
grep -qi 'target port in standby state' <<< "$out" || fail "WRITE on standby: wrong sense: $out"
out=$(sg_raw "$sg_b" 00 00 00 00 00 00 2>&1) &&
	fail "TEST UNIT READY on the standby path succeeded"
grep -qi 'target port in standby state' <<< "$out" || fail "TUR on standby: wrong sense: $out"
run sg_inq "$sg_b" > /dev/null
run sg_luns "$sg_b" > /dev/null
run sg_rtpg "$sg_b" > /dev/null
run sg_readcap "$sg_b" > /dev/null
read10 "$sg_a" > /dev/null || fail "READ on the active path failed"

# --- SET TARGET PORT GROUPS --------------------------------------------------
# from path A: tg1 -> standby, tg2 -> active/optimized
run sg_stpg --tp=1,2 --state=2,0 "$sg_a"
assert_eq "$(attr_value $TG1/state)" standby "tg1 state after STPG"
assert_eq "$(attr_value $TG2/state)" active "tg2 state after STPG"
expect_ua "$sg_b" "STPG from path A, the other path"
expect_no_ua "$sg_a" "STPG from path A, its own path"
exp="00 00 00 1c 82 cf 00 01 00 01 00 01 00 00 $(hex16 "$rid_a") 00 cf 00 02 00 01 00 02 00 00 $(hex16 "$rid_b") 00 00 12 34"
assert_eq "$(rtpg "$sg_b")" "$exp" "RTPG after STPG"
out=$(read10 "$sg_a") && fail "READ on path A succeeded after it went standby"
grep -qi 'target port in standby state' <<< "$out" || fail "READ on path A: $out"
read10 "$sg_b" > /dev/null || fail "READ on path B failed after it went active"

# stpg_raw SG BYTES...: SET TARGET PORT GROUPS with this parameter list
stpg_raw() {
	local sg=$1 n
	shift
	n=$#
	# shellcheck disable=SC2059
	printf "$(printf '\\x%s' "$@")" > /tmp/stpg.bin
	sg_raw -s "$n" -i /tmp/stpg.bin "$sg" a4 0a 00 00 00 00 00 00 00 "$(printf %02x "$n")" 00 00 2>&1
}
# refused: offline, transitioning, LBA dependent, reserved (with the
# field pointer on the state, bit 3), an unknown group (on the group);
# a list with one bad descriptor changes nothing
for bad in "0e 00 00 02:4 bit 3" "0f 00 00 02:4 bit 3" "04 00 00 02:4 bit 3" \
	   "07 00 00 02:4 bit 3" "00 00 00 07:6" \
	   "01 00 00 02 0f 00 00 01:8 bit 3"; do
	# shellcheck disable=SC2086
	out=$(stpg_raw "$sg_b" 00 00 00 00 ${bad%%:*}) && fail "STPG ${bad%%:*} accepted"
	grep -qi 'invalid field in parameter list' <<< "$out" ||
		fail "STPG ${bad%%:*}: not INVALID FIELD IN PARAMETER LIST: $out"
	grep -qiE "byte ${bad#*:}\b" <<< "$out" ||
		fail "STPG ${bad%%:*}: field pointer is not byte ${bad#*:}: $out"
	assert_eq "$(attr_value $TG1/state)/$(attr_value $TG2/state)" standby/active "states after STPG ${bad%%:*}"
done
expect_no_ua "$sg_a" "refused STPGs"
# good ones through sg_raw too: from the standby path A (SPC-4 admits
# STPG there), then back from path B
stpg_raw "$sg_a" 00 00 00 00 01 00 00 02 > /dev/null || fail "STPG nonoptimized through the standby path refused"
assert_eq "$(attr_value $TG2/state)" nonoptimized "tg2 after STPG nonoptimized"
expect_ua "$sg_b" "STPG from the standby path A"
expect_no_ua "$sg_a" "STPG from the standby path A, its own path"
stpg_raw "$sg_b" 00 00 00 00 00 00 00 02 > /dev/null || fail "STPG active refused"
assert_eq "$(attr_value $TG2/state)" active "tg2 after STPG active"
expect_ua "$sg_a" "STPG from path B"
# a parameter list that stops inside a descriptor
out=$(stpg_raw "$sg_b" 00 00 00 00 00 00 00 01 00 00) &&
	fail "STPG of 10 bytes accepted"
grep -qi 'parameter list length error' <<< "$out" || fail "STPG of 10 bytes: $out"
assert_eq "$(attr_value $TG1/state)" standby "tg1 after the short STPG"

# --- bad mgmt input: refused, nothing changed ----------------------------------
before=$(tree_snapshot; cat $TG1/state $TG2/state $TG1/group_id $TG2/group_id $TG1/preferred)
mgmt_bad $SCST/device_groups/mgmt "del nosuchdg" -2
mgmt_bad $SCST/device_groups/mgmt "create dg1" -17
mgmt_bad $SCST/device_groups/mgmt "create a/b" -22
mgmt_bad $SCST/device_groups/mgmt "create" -22
mgmt_bad $SCST/device_groups/mgmt "frob dg1" -22
mgmt_bad $DG/devices/mgmt "add disk0" -17
mgmt_bad $DG/devices/mgmt "add nosuchdev" -2
mgmt_bad $DG/devices/mgmt "del nosuchdev" -2
mgmt_bad $DG/target_groups/mgmt "create tg1" -17
mgmt_bad $DG/target_groups/mgmt "del tg9" -2
mgmt_bad $TG1/mgmt "add tgt_b" -17
mgmt_bad $TG2/mgmt "add tgt_a" -17
mgmt_bad $TG1/mgmt "del tgt_b" -2
mgmt_bad $TG1/mgmt "add state" -22
for v in bogus Active "" "standby x" 14; do
	expect_fail bash -c "echo '$v' > $TG1/state"
done
for v in 0 65536 -1 x 2; do
	expect_fail bash -c "echo '$v' > $TG1/group_id"
done
expect_fail bash -c "echo 2 > $TG1/preferred"
expect_fail bash -c "echo 0 > $TG2/remote_tgt/rel_tgt_id"
after=$(tree_snapshot; cat $TG1/state $TG2/state $TG1/group_id $TG2/group_id $TG1/preferred)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "a refused command changed the tree"; }
expect_no_ua "$sg_a" "refused sysfs writes"

# --- Linux's scsi_dh_alua -------------------------------------------------------
echo active > $TG1/state && echo standby > $TG2/state || fail "state write refused"
pop_uas "$sg_a" > /dev/null
pop_uas "$sg_b" > /dev/null
run modprobe scsi_dh_alua
sd_a=/sys/class/scsi_device/$host_a:0:0:0/device
sd_b=/sys/class/scsi_device/$host_b:0:0:0/device
for d in $sd_a $sd_b; do
	[ "$(cat $d/dh_state)" = alua ] || echo alua > $d/dh_state || fail "scsi_dh_alua refused $d"
	assert_eq "$(cat $d/dh_state)" alua "dh_state of $d"
done
access() {
	[ "$(cat "$1/access_state")" = "$2" ]
}
# wait_access SECS DEV STATE: the initiator's view of a path, or fail
# showing both paths as it and the target see them
wait_access() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		access "$2" "$3" && return 0
		sleep 0.1
	done
	log "A: $(cat $sd_a/dh_state) $(cat $sd_a/access_state); B: $(cat $sd_b/dh_state) $(cat $sd_b/access_state)"
	sg_rtpg -d "$sg_a" 2>&1
	fail "timed out after $1 s waiting for $2 to be $3"
}
# The handler reads the groups when it attaches; should it not, a
# rescan, then a unit attention (ASYMMETRIC ACCESS STATE CHANGED after a
# change of preferred) make it. Which one did is logged.
seen_b() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		access $sd_b standby && return 0
		sleep 0.1
	done
	return 1
}
if seen_b 10; then
	log "scsi_dh_alua read the groups when it attached"
else
	log "scsi_dh_alua: B is $(cat $sd_b/access_state) 10 s after attaching; rescanning"
	echo 1 > $sd_a/rescan
	echo 1 > $sd_b/rescan
	if seen_b 10; then
		log "scsi_dh_alua read the groups on the rescan"
	else
		log "scsi_dh_alua: B still $(cat $sd_b/access_state); a unit attention"
		echo 0 > $TG1/preferred && echo 1 > $TG1/preferred || fail "preferred refused"
		sg_turs "$sg_a" > /dev/null 2>&1
		sg_turs "$sg_b" > /dev/null 2>&1
	fi
fi
wait_access 30 $sd_b standby
wait_access 30 $sd_a active/optimized
log "access_state: A $(cat $sd_a/access_state), B $(cat $sd_b/access_state)"
assert_eq "$(cat $sd_a/preferred_path)" 1 "path A preferred_path"
# a change through sysfs; the initiator learns it from the unit
# attention or a rescan
echo standby > $TG1/state && echo active > $TG2/state || fail "state write refused"
for d in $sd_a $sd_b; do
	echo 1 > $d/rescan
done
wait_access 30 $sd_a standby
wait_access 30 $sd_b active/optimized
log "access_state: A $(cat $sd_a/access_state), B $(cat $sd_b/access_state)"
dd if=$(lun_disk "$host_b" 0) of=/dev/null bs=4k count=16 iflag=direct status=none ||
	fail "I/O on the active path B failed"

# --- REGISTER AND MOVE to a port of another system ------------------------------
# remote_tgt (4660) is a port of the other node of an HA pair: a port of
# the SCSI target device (SPC-4 §5.9.8), so a move to it is accepted; a
# port nobody has is refused (sg_persist takes the identifier in hex)
echo active > $TG1/state || fail "state write refused"
pop_uas "$sg_a" > /dev/null
run sg_persist -n --out --register --param-sark=0xa "$sg_a"
run sg_persist -n --out --reserve --param-rk=0xa --prout-type=1 "$sg_a"
out=$(sg_persist -n -v --out --register-move --param-rk=0xa --param-sark=0xe --prout-type=1 \
	--relative-target-port=1235 --transport-id=iqn.2026-01.test:elsewhere "$sg_a" 2>&1) &&
	fail "REGISTER AND MOVE to port 4661 (nobody's) accepted"
grep -qi "invalid field in parameter list" <<< "$out" ||
	{ echo "$out"; fail "REGISTER AND MOVE to port 4661: not INVALID FIELD IN PARAMETER LIST"; }
out=$(sg_persist -n -vv --out --register-move --param-rk=0xa --param-sark=0xe --prout-type=1 \
	--relative-target-port=1234 --transport-id=iqn.2026-01.test:elsewhere "$sg_a" 2>&1) ||
	{ echo "$out"; fail "REGISTER AND MOVE to port 4660 (remote_tgt) refused"; }
grep -q "^registrant 1 key 0x000000000000000e transport_id iscsi:iqn.2026-01.test:elsewhere rel_tgt_id 4660 " \
	$SCST/devices/disk0/pr_state || { cat $SCST/devices/disk0/pr_state; fail "pr_state: no registrant on port 4660"; }
run sg_persist -n --out --clear --param-rk=0xa "$sg_a"
pop_uas "$sg_a" > /dev/null
pop_uas "$sg_b" > /dev/null

# --- clean-up when what is grouped goes away -----------------------------------
mgmt $SCST/targets/scst_local/mgmt "del_target tgt_b"
[ ! -e $TG2/tgt_b ] || fail "tg2/tgt_b still there after del_target"
assert_eq "$(ls $TG2 | LC_ALL=C sort | tr '\n' ' ')" "group_id mgmt preferred remote_tgt state " "tg2 after del_target"
# a target named before it exists: a port of another system, not
# reported while its rel_tgt_id is unset (0 is reserved); once a target of
# that name is added it is this system's: a link, its own rel_tgt_id, the
# group's state for its commands
mgmt $TG2/mgmt "add tgt_c"
[ -d $TG2/tgt_c ] && [ ! -L $TG2/tgt_c ] || fail "tg2/tgt_c is not a directory before the target exists"
out=$(sg_rtpg "$sg_a") || fail "RTPG failed"
echo "$out"
grep -qi '^ *0x1234$' <<< "$out" || fail "RTPG: no port 0x1234"
! grep -qi '^ *0x0\+$' <<< "$out" || fail "RTPG reports relative target port 0"
echo standby > $TG2/state || fail "state standby refused"
mgmt $SCST/targets/scst_local/mgmt "add_target tgt_c"
TC=$SCST/targets/scst_local/tgt_c
rid_c=$(attr_value "$TC/rel_tgt_id")
assert_eq "$(readlink -f $TG2/tgt_c)" "$(readlink -f $TC)" "tg2/tgt_c link once the target exists"
mgmt $TC/luns/mgmt "add disk0 0"
mgmt $SCST/targets/scst_local/mgmt "add_session tgt_c host_c"
wait_for 10 "scst_local host of tgt_c" local_host tgt_c host_c > /dev/null
host_c=$(local_host tgt_c host_c)
wait_lun "$host_c" 0
sg_c=$(lun_sg "$host_c" 0)
clear_ua "$sg_c"
out=$(sg_rtpg "$sg_c") || fail "RTPG on tgt_c failed"
grep -qi "^ *$(printf 0x%02x "$rid_c")\$" <<< "$out" || { echo "$out"; fail "RTPG: no port $rid_c of tgt_c"; }
out=$(read10 "$sg_c") && fail "READ through tgt_c, in a standby group, succeeded"
grep -qi 'standby' <<< "$out" || { echo "$out"; fail "tgt_c's READ: not refused as standby"; }
mgmt $SCST/targets/scst_local/mgmt "del_target tgt_c"
[ ! -e $TG2/tgt_c ] || fail "tg2/tgt_c still there after del_target"
echo active > $TG2/state || fail "state write refused"
# expl_alua 0: TPGS 01b (implicit only), INQUIRY DATA HAS CHANGED, and
# SET TARGET PORT GROUPS is not supported
clear_ua "$sg_a"
echo 0 > $SCST/devices/disk0/expl_alua || fail "expl_alua 0 refused"
grep -qi 'inquiry data has changed' <<< "$(pop_uas "$sg_a")" ||
	fail "no INQUIRY DATA HAS CHANGED after expl_alua 0"
grep -q 'TPGS=1' <<< "$(sg_inq "$sg_a")" || fail "TPGS is not 1 with expl_alua 0"
out=$(stpg_raw "$sg_a" 00 00 00 00 00 00 00 01) && fail "STPG with expl_alua 0 succeeded"
grep -qi 'invalid command operation code' <<< "$out" || fail "STPG with expl_alua 0: $out"
run sg_rtpg "$sg_a" > /dev/null
mgmt $DG/devices/mgmt "del disk0"
[ ! -e $DG/devices/disk0 ] || fail "devices/disk0 still there after del"
grep -q 'TPGS=0' <<< "$(sg_inq "$sg_a")" || fail "TPGS not 0 after leaving the device group"
# in no device group, RTPG and STPG are the handler's: vdisk has neither
out=$(sg_raw -r 64 "$sg_a" a3 0a 00 00 00 00 00 00 00 40 00 00 2>&1) &&
	fail "RTPG of a device in no device group succeeded"
grep -qi 'invalid command operation code' <<< "$out" || fail "RTPG in no group: $out"
out=$(stpg_raw "$sg_a" 00 00 00 00 00 00 00 01) && fail "STPG of a device in no device group succeeded"
grep -qi 'invalid command operation code' <<< "$out" || fail "STPG in no group: $out"
read10 "$sg_a" > /dev/null || fail "READ after leaving the device group failed"
mgmt $DG/devices/mgmt "add disk0"
mgmt $SCST/targets/scst_local/mgmt "del_target tgt_a"
mgmt $SCST/handlers/vdisk_nullio/mgmt "del_device disk0"
[ ! -e $DG/devices/disk0 ] || fail "devices/disk0 still there after del_device"
[ ! -e $TG1/tgt_a ] || fail "tg1/tgt_a still there after del_target"
mgmt $SCST/device_groups/mgmt "del dg1"
[ ! -e $DG ] || fail "dg1 still there after del"
assert_eq "$(ls $SCST/device_groups)" mgmt "device_groups after del"
# what is left at unload goes with the module
mgmt $SCST/device_groups/mgmt "create dg2"
mgmt $SCST/device_groups/dg2/target_groups/mgmt "create tgx"
mgmt $SCST/device_groups/dg2/target_groups/tgx/mgmt "add elsewhere"
run rmmod scst_local scst_vdisk scst
log "PASS"
