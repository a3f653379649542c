#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# cluster_mode on one node (Documentation/ha.md): persistent reservations
# kept in the kernel's DLM, with corosync and dlm_controld from Debian's
# packages running in the guest as a one-node cluster. A vdisk_nullio
# device exported through two scst_local sessions (nexuses A and B):
#  - refused with what is missing: cluster_mode=1 without t10_dev_id,
#    and without the DLM running (nothing is created, the device keeps
#    serving); a bad cluster_name;
#  - on: the device joins lockspace scst-<t10_dev_id> and publishes the
#    registration it had; t10_dev_id is fixed while on; REGISTER,
#    RESERVE, PREEMPT AND ABORT through the cluster path, enforced as
#    without it;
#  - off leaves the lockspace and keeps the state; on again publishes it
#    again; a second device of the same t10_dev_id is refused (a
#    lockspace clash); del_device leaves; the modules unload;
#  - a dev_disk (pass-through, scsi_debug) device: cluster_mode on joins
#    the lockspace named after its logical unit's NAA designator, PR
#    through it; off leaves.
# Two nodes: tests/vm/ha-* (ha-pr in make check, all in make check-ha).
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/pr.sh
. /tests/lib/cluster.sh

INI_A=iqn.2026-01.test:nodea
INI_B=iqn.2026-01.test:nodeb
DEV=ha0
D=$SCST/devices/$DEV
H=$SCST/handlers/vdisk_nullio/mgmt

# logged KEYWORDS: the kernel logged a line with KEYWORDS since the mark
mark() { dmesg | wc -l > /tmp/mark; }
logged() {
	tail -n +"$(($(cat /tmp/mark) + 1))" <(dmesg) | grep_q -F "$1" ||
		{ dmesg | tail -n 20; fail "not logged: $1"; }
}

run modprobe -a sd_mod sg
scst_local_load
run modprobe scst_cluster

# --- refused, with what is missing ----------------------------------------
mark
mgmt_bad $H "add_device $DEV size_mb=16;cluster_mode=1" -22
logged "cluster_mode=1: set t10_dev_id too, the same on every node"
[ -e $D ] && fail "$DEV created without t10_dev_id"

mark
mgmt_bad $H "add_device $DEV size_mb=16;t10_dev_id=ha1;cluster_mode=1" -49
logged "cluster_mode: the DLM is not running (start corosync and dlm_controld)"
[ -e $D ] && fail "$DEV left behind by a refused cluster_mode"

mgmt $H "add_device $DEV size_mb=16;t10_dev_id=ha1"
mark
expect_fail sh -c "echo 1 > $D/cluster_mode"
logged "the DLM is not running"
assert_eq "$(attr_value $D/cluster_mode)" 0 "cluster_mode after a refusal"

expect_fail sh -c "echo 'a b' > $SCST/cluster_name"
run sh -c "echo $CLUSTER_NAME > $SCST/cluster_name"
assert_eq "$(attr_value $SCST/cluster_name)" "$CLUSTER_NAME" "cluster_name"

# --- the sessions, and a registration made before the cluster -------------
local_target tgt1 "$INI_A" "$DEV 0"
pr_two_nexuses tgt1 "$INI_B"
prout "$sgA" --register --param-sark=0xa

# --- a one-node cluster ----------------------------------------------------
# corosync's address: one end of a veth pair (knet does not bind loopback)
run ip link add cl0 type veth peer name cl1
run ip addr add 192.168.77.1/24 dev cl0
run ip link set cl0 up
run ip link set cl1 up
cluster_conf "1 192.168.77.1"
cluster_start

log "dlm configfs: $(cd /sys/kernel/config/dlm/cluster && grep -H . recover_callbacks cluster_name 2>&1 | tr "\\n" " ")"
mark
run sh -c "echo 1 > $D/cluster_mode"
assert_eq "$(attr_value $D/cluster_mode)" 1 "cluster_mode"
logged "$DEV: cluster: joined lockspace scst-ha1 as node 1 at update 1"
lockspaces | grep_q -x scst-ha1 || { dlm_tool ls; fail "no lockspace scst-ha1"; }
assert_eq "$(keys "$sgA")" 0xa "keys after joining"
mark
expect_fail sh -c "echo other > $D/t10_dev_id"
logged "t10_dev_id=other: fixed while cluster_mode is on"

# PR OUT through the cluster: each publishes an update
prout "$sgB" --register --param-sark=0xb
prout "$sgA" --reserve --param-rk=0xa --prout-type=1
assert_eq "$(resv "$sgB")" "0xa Write Exclusive" "reservation"
assert_eq "$(io "$sgB" write)" conflict "B's write under A's Write Exclusive"
assert_eq "$(io "$sgB" read)" good "B's read under A's Write Exclusive"
prout "$sgA" --preempt-abort --param-rk=0xa --param-sark=0xb --prout-type=1
assert_eq "$(keys "$sgA")" 0xa "keys after PREEMPT AND ABORT"
ua_is "$sgB" "registrations preempted"
assert_eq "$(io "$sgB" write)" conflict "B's write after PREEMPT AND ABORT"
dlm_tool lockdebug scst-ha1 > /tmp/locks 2>&1
for r in pr state note reg.0 "bell.1" "ack.1"; do
	grep_q -F "\"$r\"" /tmp/locks ||
		{ cat /tmp/locks; fail "no lock on resource $r"; }
done

# --- off and on again ------------------------------------------------------
mark
run sh -c "echo 0 > $D/cluster_mode"
logged "$DEV: cluster_mode off"
lockspaces | grep_q -x scst-ha1 && fail "lockspace scst-ha1 left after off"
assert_eq "$(resv "$sgA")" "0xa Write Exclusive" "reservation after off"
mark
run sh -c "echo 1 > $D/cluster_mode"
logged "joined lockspace scst-ha1 as node 1 at update 1"
assert_eq "$(keys "$sgA")" 0xa "keys after on again"
assert_eq "$(io "$sgB" write)" conflict "B's write after on again"

# a second device named ha1 in the cluster: the lockspace is taken
mark
mgmt_bad $H "add_device ha2 size_mb=16;t10_dev_id=ha1;cluster_mode=1" -17
logged "lockspace scst-ha1 is in use on this node: another device has the same t10_dev_id"
[ -e $SCST/devices/ha2 ] && fail "ha2 left behind"

# --- dev_disk: named by its logical unit's designator (VPD page 0x83) ------
# A pass-through device has no t10_dev_id: the lockspace is named after
# the SCSI device's own designator, which scsi_debug reports as NAA.
sdebug_load dev_size_mb=16
hctl=$(sdebug_hctl)
run modprobe scst_disk
mgmt $SCST/handlers/dev_disk/mgmt "add_device $hctl"
DD=$SCST/devices/$hctl
mgmt $SCST/targets/scst_local/tgt1/luns/mgmt "add $hctl 1"
run sh -c "echo '- - -' > /sys/class/scsi_host/host$host/scan"
wait_lun "$host" 1
sgD=$(lun_sg "$host" 1)
clear_ua "$sgD"
prout "$sgD" --register --param-sark=0xd
expect_fail sh -c "echo maybe > $DD/cluster_mode"
mark
run sh -c "echo 1 > $DD/cluster_mode"
assert_eq "$(attr_value $DD/cluster_mode)" 1 "dev_disk cluster_mode"
logged "$hctl: cluster_mode on (lockspace of naa."
lsd=$(lockspaces | grep '^scst-naa\.') || { dlm_tool ls; fail "no lockspace scst-naa.* for $hctl"; }
log "dev_disk $hctl: lockspace $lsd"
assert_eq "$(keys "$sgD")" 0xd "dev_disk keys after joining"
prout "$sgD" --reserve --param-rk=0xd --prout-type=1
assert_eq "$(resv "$sgD")" "0xd Write Exclusive" "dev_disk reservation through the DLM"
mark
run sh -c "echo 0 > $DD/cluster_mode"
logged "$hctl: cluster_mode off"
lockspaces | grep_q -x "$lsd" && fail "lockspace $lsd left after off"
prout "$sgD" --clear --param-rk=0xd
mgmt $SCST/targets/scst_local/tgt1/luns/mgmt "del 1"
mgmt $SCST/handlers/dev_disk/mgmt "del_device $hctl"
run rmmod scst_disk

# --- del_device leaves the lockspace; everything unloads -------------------
mgmt $SCST/targets/scst_local/mgmt "del_target tgt1"
mgmt $H "del_device $DEV"
lockspaces | grep_q -x scst-ha1 && fail "lockspace scst-ha1 left after del_device"
run rmmod scst_cluster
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
run rmmod scsi_debug
cluster_stop
log "cluster_mode on one node: refusals, join, PR through the DLM, off/on, clash, removal"
exit 0
