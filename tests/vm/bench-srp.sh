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

bench_srp_setup

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
