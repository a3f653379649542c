# SPDX-License-Identifier: GPL-2.0-only
# Helpers for driving our target through its sysfs tree.

SCST=/sys/kernel/scst_tgt

# mgmt FILE LINE: write LINE to a mgmt file; fail the test if refused.
mgmt() {
	log "+ echo '$2' > ${1#"$SCST"/}"
	echo "$2" > "$1" ||
		fail "mgmt command '$2' refused (last_sysfs_mgmt_res $(cat $SCST/last_sysfs_mgmt_res))"
}

# mgmt_bad FILE LINE ERRNO: the write must fail, with that errno in
# last_sysfs_mgmt_res (e.g. -22 for EINVAL), and log one line naming why.
mgmt_bad() {
	local res
	log "+ echo '$2' > ${1#"$SCST"/}   (must fail with $3)"
	if echo "$2" > "$1" 2>/dev/null; then
		fail "mgmt command '$2' was accepted"
	fi
	res=$(cat $SCST/last_sysfs_mgmt_res)
	[ "$res" = "$3" ] || fail "mgmt command '$2': result $res, expected $3"
}

# attr_value FILE: the first line of an attribute (without the [key] line).
attr_value() {
	head -n 1 "$1"
}

# tree_snapshot: a listing of the management tree, to check that a
# refused command changed nothing.
tree_snapshot() {
	(cd $SCST && find . -path ./last_sysfs_mgmt_res -prune -o -print | LC_ALL=C sort)
}

# scst_local_load: the core, vdisk and scst_local without its default
# target.
scst_local_load() {
	run modprobe scst
	run modprobe scst_vdisk
	run modprobe scst_local add_default_tgt=0
}

# local_target TARGET SESSION "DEVICE LUN [PARAMS]"...: an scst_local
# target with these LUNs and one session; waits for the session's SCSI
# host and every LUN on it. Sets T (the target's directory) and host (the
# SCSI host number). With REL_TGT_ID set, the target port gets that
# relative port identifier before its first session.
local_target() {
	local tgt=$1 sess=$2 l lun
	shift 2
	mgmt $SCST/targets/scst_local/mgmt "add_target $tgt"
	T=$SCST/targets/scst_local/$tgt
	[ -z "${REL_TGT_ID:-}" ] || run sh -c "echo $REL_TGT_ID > $T/rel_tgt_id"
	for l in "$@"; do
		mgmt $T/luns/mgmt "add $l"
	done
	mgmt $SCST/targets/scst_local/mgmt "add_session $tgt $sess"
	wait_for 10 "scst_local host of $tgt/$sess" local_host "$tgt" "$sess" > /dev/null
	host=$(local_host "$tgt" "$sess")
	for l in "$@"; do
		read -r _ lun _ <<< "$l"
		wait_lun "$host" "$lun"
	done
}

# local_host TARGET SESSION: the SCSI host number of a scst_local session.
local_host() {
	local h
	for h in /sys/class/scsi_host/host*; do
		[ "$(cat "$h/proc_name" 2>/dev/null)" = scst_local ] || continue
		[ -e "$SCST/targets/scst_local/$1/sessions/$2" ] || continue
		if [ "$(cat "$SCST/targets/scst_local/$1/sessions/$2/host" 2>/dev/null)" = "${h##*/}" ]; then
			echo "${h##*/host}"
			return 0
		fi
	done
	return 1
}

# lun_disk HOST LUN: /dev/sdX of a LUN of a SCSI host (channel 0, id 0).
lun_disk() {
	local d
	for d in /sys/bus/scsi/devices/"$1":0:0:"$2"/block/*; do
		[ -e "$d" ] && { echo "/dev/${d##*/}"; return 0; }
	done
	return 1
}

lun_sg() {
	local d
	for d in /sys/bus/scsi/devices/"$1":0:0:"$2"/scsi_generic/*; do
		[ -e "$d" ] && { echo "/dev/${d##*/}"; return 0; }
	done
	return 1
}

lun_ready() {
	local disk
	disk=$(lun_disk "$1" "$2") && [ -b "$disk" ]
}

# wait_lun HOST LUN: wait for the LUN's disk node (then use lun_disk).
wait_lun() {
	wait_for 30 "LUN $2 of host $1" lun_ready "$1" "$2"
}

# clear_ua SG: consume pending unit attentions of a LUN (TEST UNIT READY
# until it answers anything but UNIT ATTENTION: GOOD, or NOT READY on a
# standby or unavailable ALUA port, which is the port's state).
clear_ua() {
	local i out
	for i in 1 2 3 4 5 6 7 8; do
		out=$(sg_raw "$1" 00 00 00 00 00 00 2>&1) && return 0
		grep -qi 'unit attention' <<< "$out" || {
			grep -qi 'target port in \(standby\|unavailable\) state' <<< "$out" &&
				return 0
			fail "$1: TEST UNIT READY failed: $out"
		}
	done
	fail "$1 still reports unit attentions"
}

# sense_of CMD...: run an sg3_utils command, print its output (it fails).
sense_of() {
	"$@" 2>&1 || true
}

# sdebug_hctl: H:C:I:L of the (first) scsi_debug disk
sdebug_hctl() {
	local d
	for d in /sys/bus/scsi/devices/*:*:*:*; do
		grep -q '^scsi_debug' "$d/model" 2>/dev/null || continue
		echo "${d##*/}"
		return 0
	done
	return 1
}

# sdebug_disk: /dev/sdX of the scsi_debug disk of its first adapter
sdebug_disk() {
	local d
	for d in /sys/bus/pseudo/drivers/scsi_debug/adapter0/host*/target*/*/block/*; do
		[ -e "$d" ] && { echo "/dev/${d##*/}"; return 0; }
	done
	return 1
}

# sdebug_load [MODULE-PARAMS...]: load scsi_debug and wait for its disk.
sdebug_load() {
	run modprobe scsi_debug "$@"
	wait_for 30 "scsi_debug disk" sdebug_disk
}
