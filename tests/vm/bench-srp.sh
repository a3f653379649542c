#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SRP benchmark: our scst_srpt + vdisk_blockio against LIO's ib_srpt +
# iblock, both loaded in one boot and both logged in to by the Linux ib_srp
# initiator over the same Soft-RoCE device, each on its own brd RAM disk
# of the same size; the fio jobs alternate between the two. Prints one
# "BENCH:" line per run and, from perftest on the same rxe device, one
# "CEILING:" line per verb; the host's scripts/bench turns them into a
# table. Never asserts timings.
#
# Both targets listen for RDMA/CM: ours on 5555, LIO's on 5556. LIO's
# ib_srpt listens for IB CM only on InfiniBand ports, so on rxe the two do
# not compete for srpt_service_guid; ib_srp tells the two logins apart by
# initiator_ext, since both targets announce the node GUID as id_ext.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh
. /tests/lib/lio.sh
. /tests/lib/bench.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=2 rd_size=262144
rxe_setup_one
guid=$(rxe_node_guid_hex rxe0)

# LIO on /dev/ram1; its RDMA/CM sessions are named by the target's address
SRP_PORT=5556
lio_srpt_setup rxe0 /dev/ram1 "$RXE_TARGET_IP"
srp_login "$guid" "$guid" "queue_size=128,max_cmd_per_lun=128,initiator_ext=1"
lio_host=$SRP_HOST
wait_lun "$lio_host" 0
lio=$(lun_disk "$lio_host" 0)

# ours on /dev/ram0
SRP_PORT=5555
srpt_load
T=$(srpt_tgt rxe0)
wait_for 10 "target of rxe0" test -d "$T"
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device bench filename=/dev/ram0"
mgmt "$T/luns/mgmt" "add bench 0"
run sh -c "echo 1 > '$T/enabled'"
srp_login "$guid" "$guid" "queue_size=128,max_cmd_per_lun=128"
ours_host=$SRP_HOST
srpt_wait_lun 0
ours=$(srpt_lun_disk 0)

for d in "$ours" "$lio"; do
	run ua_retry sg_turs "$d"
done
bench_no_scheduler "$ours" "$lio"
grep -q 'Vendor identification: LIO-ORG' <<< "$(sg_inq "$lio")" ||
	fail "$lio is not LIO's"
grep -q 'Vendor identification: SCST_BIO' <<< "$(sg_inq "$ours")" ||
	fail "$ours is not ours"
log "ours: $ours (scst_srpt, host $ours_host), LIO: $lio (ib_srpt, host $lio_host)"

# bench-local's jobs, and two jobs at QD 64: 128 commands offered, the
# logins' queue_size
bench_alternate 200M ours "$ours" lio "$lio" \
	"randread bs=4k qd=1" "randread bs=4k qd=32" \
	"randread bs=4k qd=16 jobs=2" "randread bs=4k qd=64 jobs=2" \
	"randwrite bs=4k qd=32" "read bs=128k qd=8" "write bs=128k qd=8"

# the link's own ceiling in this boot, after the targets' runs so that a
# perftest failure costs no measurement: RDMA WRITE carries the data of
# SRP reads, SEND the IUs
bench_ceiling rxe0 "$RXE_TARGET_IP" ib_write_bw ib_send_bw
exit 0
