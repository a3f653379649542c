#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Harness self-test and benchmark baseline: LIO's in-tree ib_srpt exporting
# a brd RAM disk, the Linux ib_srp initiator logging in over Soft-RoCE,
# sg_inq, fio --verify=crc32c, 4K random-read IOPS, logout and teardown.
. /tests/lib/common.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/lio.sh

run modprobe brd rd_nr=1 rd_size=262144
rxe_setup_one
# LIO checks id_ext/ioc_guid against srpt_service_guid, the node GUID of
# the first RDMA device.
guid=$(rxe_node_guid_hex rxe0)
lio_srpt_setup rxe0 /dev/ram0 "$RXE_TARGET_IP"

tx0=$(cat /sys/class/net/veth0/statistics/tx_packets)
srp_login "$guid" "$guid" "queue_size=128,max_cmd_per_lun=128"
srp_wait_disks 1

inq=$(sg_inq "$SRP_DISK") || fail "sg_inq $SRP_DISK failed"
echo "$inq" | grep -E 'Vendor identification|Product identification'
grep -q 'Vendor identification: LIO-ORG' <<< "$inq" ||
	fail "unexpected INQUIRY vendor from LIO"
run sg_readcap "$SRP_DISK"

fio_run verify-write --filename="$SRP_DISK" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=4k --iodepth=16 --size=32M --verify=crc32c \
	--do_verify=1 --verify_fatal=1
fio_run verify-mixed --filename="$SRP_DISK" --ioengine=libaio --direct=1 \
	--rw=randrw --bsrange=512-128k --iodepth=32 --size=64M \
	--verify=crc32c --verify_fatal=1
fio_run randread-qd32 --filename="$SRP_DISK" --ioengine=libaio --direct=1 \
	--rw=randread --bs=4k --iodepth=32 --time_based --runtime=10
echo "BASELINE: lio_ib_srpt brd 4k randread qd32 iops=$FIO_IOPS cpu_us_per_io=$FIO_CPU_US_PER_IO"

# One rxe device loops its traffic back internally; the counter shows it
# (compare lio-srp-two-rxe, where it must be large).
log "veth0 tx packets during the run: $(($(cat /sys/class/net/veth0/statistics/tx_packets) - tx0))"
srp_logout
lio_srpt_teardown
log "LIO SRP baseline passed"
exit 0
