#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Harness self-test of the two-device Soft-RoCE setup: LIO's ib_srpt on
# rxe0 (10.0.0.1), the Linux initiator on rxe1 (10.0.0.2), and the SRP
# traffic must cross the veth wire (checked with the veth packet counters).
. /tests/lib/common.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/lio.sh

veth_tx_packets() {
	cat "/sys/class/net/$1/statistics/tx_packets"
}

run modprobe brd rd_nr=1 rd_size=131072
rxe_setup_two
guid=$(rxe_node_guid_hex rxe0)
lio_srpt_setup rxe0 /dev/ram0 "$RXE_TARGET_IP"

tx0=$(veth_tx_packets veth0)
tx1=$(veth_tx_packets veth1)
srp_login "$guid" "$guid"
srp_wait_disks 1
run sg_inq "$SRP_DISK"
fio_run two-rxe-verify --filename="$SRP_DISK" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=16k --iodepth=8 --size=16M --verify=crc32c \
	--do_verify=1 --verify_fatal=1
d0=$(($(veth_tx_packets veth0) - tx0))
d1=$(($(veth_tx_packets veth1) - tx1))
log "packets over the wire: veth0 (target) tx $d0, veth1 (initiator) tx $d1"
# 16 MiB written and read back in 16 KiB I/Os: over a thousand requests and
# thousands of RoCE data packets each way if the traffic crosses the wire.
[ "$d0" -gt 2000 ] || fail "target side sent only $d0 packets over veth0"
[ "$d1" -gt 2000 ] || fail "initiator side sent only $d1 packets over veth1"

srp_logout
lio_srpt_teardown
log "two-device Soft-RoCE passed"
exit 0
