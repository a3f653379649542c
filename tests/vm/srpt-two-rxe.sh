#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Our SRP target on rxe0 (10.0.0.1), the Linux initiator on rxe1
# (10.0.0.2), the traffic over the veth wire. The session is named by the
# initiator's address: a group naming only the target's address (10.0.0.1,
# what SCST and LIO wrongly name RDMA/CM sessions by) grants it nothing, so
# it gets the target's default LUN set while it is in no group, and the
# group naming 10.0.0.2 grants it its LUN once 10.0.0.2 is added to it.
# Then the target's RDMA device goes away and comes back while fio
# verifies: the target keeps its configuration, port-less, the initiator
# reconnects by itself and the verification passes.
#
# (Thread mode and the SRQ are tested in srpt-thread, on one rxe device:
# over the veth wire the extra scheduling of thread mode makes rxe drop
# and retransmit packets, and 6.1's rxe then re-executes the initiator's
# completed FAST_REG work requests on retry: "rxe_reg_fast_mr: mr->lkey =
# ... not free", and ib_srp's QP fails.)
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

veth_tx_packets() {
	cat "/sys/class/net/$1/statistics/tx_packets"
}

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=131072
rxe_setup_two
srpt_load
T=$(srpt_tgt rxe0)
wait_for 10 "target of rxe0" test -d "$T"
wait_for 10 "target of rxe1" test -d "$(srpt_tgt rxe1)"
id=$(srpt_login_field "$T" tid_ext)

H=$SCST/handlers
mgmt $H/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt $H/vdisk_nullio/mgmt "add_device disk_null size_mb=64"
mgmt $H/vdisk_nullio/mgmt "add_device disk_tgt size_mb=32"
# initiators in no group see the nullio disk; group tgt_only names only the
# target's own address; ini2, which will name the initiator's, the blockio
# disk. tgt_only comes first: the first matching group wins.
mgmt "$T/luns/mgmt" "add disk_null 0"
mgmt "$T/ini_groups/mgmt" "create tgt_only"
mgmt "$T/ini_groups/tgt_only/initiators/mgmt" "add $RXE_TARGET_IP"
mgmt "$T/ini_groups/tgt_only/luns/mgmt" "add disk_tgt 0"
mgmt "$T/ini_groups/mgmt" "create ini2"
mgmt "$T/ini_groups/ini2/luns/mgmt" "add disk_bio 0"
run sh -c "echo 1 > '$T/enabled'"

tx0=$(veth_tx_packets veth0)
tx1=$(veth_tx_packets veth1)
srp_login "$id" "$id" "queue_size=64"
srpt_wait_lun 0
disk=$(srpt_lun_disk 0)
S=$T/sessions/$RXE_INITIATOR_IP
[ -d "$S" ] || fail "no session named $RXE_INITIATOR_IP: $(srpt_sessions "$T" | tr '\n' ' ')"
log "sessions: $(srpt_sessions "$T" | tr '\n' ' ')"
[ ! -d "$T/sessions/$RXE_TARGET_IP" ] || fail "a session is named by the target's address"
# in no group yet: the target's own LUN set, not tgt_only's
session_group_is() {
	[ "$(readlink -f "$1/luns")" = "$(readlink -f "$2")" ]
}
session_group_is "$S" "$T/luns" ||
	fail "session $RXE_INITIATOR_IP: LUNs $(readlink -f "$S/luns"), expected the target's"
product_is() {
	grep -q "Product identification: $2\b" <<< "$(ua_retry sg_inq "$1")"
}
product_is "$disk" disk_null ||
	fail "the initiator in no group does not see the default LUN: $(ua_retry sg_inq "$disk")"

# now name the initiator in ini2: its live session moves there
mgmt "$T/ini_groups/ini2/initiators/mgmt" "add $RXE_INITIATOR_IP"
session_group_is "$S" "$T/ini_groups/ini2/luns" ||
	fail "session $RXE_INITIATOR_IP is not in group ini2"
# INQUIRY DATA HAS CHANGED first (ua_retry), then the group's disk
product_is "$disk" disk_bio || fail "the initiator does not see its group's LUN"

fio_run two-rxe-verify --filename="$disk" --ioengine=libaio --direct=1 \
	--rw=randwrite --bsrange=4k-64k --iodepth=8 --size=16M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
d0=$(($(veth_tx_packets veth0) - tx0))
d1=$(($(veth_tx_packets veth1) - tx1))
log "packets over the wire: veth0 (target) tx $d0, veth1 (initiator) tx $d1"
[ "$d0" -gt 2000 ] || fail "target side sent only $d0 packets over veth0"
[ "$d1" -gt 1000 ] || fail "initiator side sent only $d1 packets over veth1"

# --- the target's device goes away and comes back, with fio running ---------
# ib_srp: reconnect every 2 s, and hold the I/O (no fast_io_fail) for 120 s
# rather than failing it after 15 s: the verification must see no error.
rp=/sys/class/srp_remote_ports/$SRP_RPORT
run sh -c "echo 240 > $rp/dev_loss_tmo"
run sh -c "echo 120 > $rp/fast_io_fail_tmo"
run sh -c "echo 2 > $rp/reconnect_delay"
fio --name=verify-across-port-loss --filename="$disk" --ioengine=libaio \
	--direct=1 --rw=randwrite --bsrange=4k-64k --iodepth=16 --size=96M \
	--verify=crc32c --do_verify=1 --verify_fatal=1 --minimal \
	> /tmp/fio-port-loss.log 2>&1 &
fio_pid=$!
# wait until fio has writes in flight
sectors_written() {
	awk '{ print $7 }' "/sys/block/${disk#/dev/}/stat"
}
fio_writing() {
	kill -0 "$fio_pid" ||
		{ cat /tmp/fio-port-loss.log; fail "fio ended before the port loss"; }
	[ "$(sectors_written)" -gt $((w0 + 4096)) ]
}
w0=$(sectors_written)
wait_for 60 "fio writing" fio_writing
run rdma link delete rxe0
tgt_device_is() {
	[ "$(attr_value "$T/device")" = "$1" ]
}
wait_for 30 "target port-less" tgt_device_is ""
[ -d "$T" ] || fail "target gone with its port"
assert_eq "$(srpt_nr_sessions "$T")" 0 "sessions without a port"
assert_eq "$(attr_value "$T/enabled")" 1 "enabled without a port"
[ -e "$T/ini_groups/ini2/luns/0" ] || fail "group LUN lost with the port"
[ -e "$T/luns/0" ] || fail "LUN lost with the port"
run rdma link add rxe0 type rxe netdev veth0
wait_for 10 "rxe0 port ACTIVE" rxe_port_active rxe0
wait_for 10 "target re-attached" tgt_device_is rxe0
# ib_srp reconnects by itself, and the held I/O goes on
wait_for 150 "session of $RXE_INITIATOR_IP back" test -d "$S"
session_group_is "$S" "$T/ini_groups/ini2/luns" ||
	fail "session $RXE_INITIATOR_IP back, but not in group ini2"
if ! wait "$fio_pid"; then
	cat /tmp/fio-port-loss.log
	fail "fio across the port loss failed"
fi
grep '^3;' /tmp/fio-port-loss.log | cut -d';' -f5 | grep_q -x 0 ||
	{ cat /tmp/fio-port-loss.log; fail "fio across the port loss reported an error"; }
log "fio across the port loss: verified, no error"
dmesg | grep_q -i 'reconnect succeeded' || fail "ib_srp did not reconnect"
wait_for 60 "disk back" ua_retry sg_turs "$disk"
fio_run verify-after-port-return --filename="$disk" --ioengine=libaio \
	--direct=1 --rw=randwrite --bs=16k --iodepth=8 --size=8M \
	--verify=crc32c --do_verify=1 --verify_fatal=1

srp_logout
srpt_wait_sessions "$T" 0
run rmmod ib_srp
run rmmod scst_srpt
run rmmod scst_vdisk
run rmmod scst
log "srpt-two-rxe passed"
exit 0
