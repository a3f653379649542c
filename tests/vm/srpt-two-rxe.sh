#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Our SRP target on rxe0 (10.0.0.1), the Linux initiator on rxe1
# (10.0.0.2), the traffic over the veth wire. The session is named by the
# initiator's address and an initiator group naming 10.0.0.2 grants it its
# LUN. Then the target's RDMA device goes away and comes back: the target
# keeps its configuration, port-less, and the initiator reconnects by
# itself.
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
# everyone else sees the nullio disk; the group of 10.0.0.2 the blockio one
mgmt "$T/luns/mgmt" "add disk_null 0"
mgmt "$T/ini_groups/mgmt" "create ini2"
mgmt "$T/ini_groups/ini2/initiators/mgmt" "add $RXE_INITIATOR_IP"
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
[ "$(readlink -f "$S/luns")" = "$(readlink -f "$T/ini_groups/ini2/luns")" ] ||
	fail "session $RXE_INITIATOR_IP is not in group ini2"
grep -q 'Product identification: disk_bio' <<< "$(ua_retry sg_inq "$disk")" ||
	fail "the initiator does not see its group's LUN"

fio_run two-rxe-verify --filename="$disk" --ioengine=libaio --direct=1 \
	--rw=randwrite --bsrange=4k-64k --iodepth=8 --size=16M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
d0=$(($(veth_tx_packets veth0) - tx0))
d1=$(($(veth_tx_packets veth1) - tx1))
log "packets over the wire: veth0 (target) tx $d0, veth1 (initiator) tx $d1"
[ "$d0" -gt 2000 ] || fail "target side sent only $d0 packets over veth0"
[ "$d1" -gt 1000 ] || fail "initiator side sent only $d1 packets over veth1"

# --- the target's device goes away and comes back ---------------------------
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
# ib_srp reconnects by itself
wait_for 150 "session of $RXE_INITIATOR_IP back" test -d "$S"
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
