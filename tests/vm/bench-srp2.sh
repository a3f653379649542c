#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vm-guests: tgt ini
#
# SRP measured as deployed (scripts/vm/multi bench-srp2; scripts/bench
# bench-srp2): our scst_srpt + vdisk_blockio against LIO's ib_srpt +
# iblock in the guest tgt, each on its own null_blk device of one module,
# logged in to by ib_srp from the guest ini over one Soft-RoCE link; the
# fio jobs of bench-srp alternate between the two run by run. One vCPU
# per guest, so tgt's CPU per I/O is the target's alone: its SCSI target
# stack, its backing device and its side of Soft-RoCE, not the
# initiator's and fio's as in bench-srp's one guest. ini prints the
# "BENCH:" lines (tgt's cpu_us_per_io and cpu_busy, its own as
# ini_cpu_us_per_io and ini_cpu_busy) and then the link's "CEILING:"
# lines (perftest, the server in tgt); tests/vm/lib/bench2.sh says how
# the two guests talk. Never asserts timings.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh
. /tests/lib/lio.sh
. /tests/lib/bench.sh
. /tests/lib/ha.sh
. /tests/lib/bench2.sh

case $VM_GUEST in
tgt)
	b2_tgt_setup
	b2_serve
	b2_rxe_counters
	;;
ini)
	b2_ini_setup
	# bench_alternate, each run between two samples of tgt's CPU
	BENCH_RUN=b2_fio_run
	bench_alternate 200M ours "$ours" lio "$lio" \
		"randread bs=4k qd=1" "randread bs=4k qd=32" \
		"randread bs=4k qd=16 jobs=2" "randread bs=4k qd=64 jobs=2" \
		"randwrite bs=4k qd=32" "read bs=128k qd=8" "write bs=128k qd=8"
	# the link's own ceiling in this boot, after the targets' runs
	# so that a perftest failure costs no measurement: RDMA WRITE
	# carries the data of SRP reads, SEND the IUs
	b2_ceiling ib_write_bw ib_send_bw
	b2_rxe_counters
	b2_ini_logout
	b2_ask finish
	;;
*)
	fail "bench-srp2 runs in the guests tgt and ini (scripts/vm/multi), not '${VM_GUEST:-}'"
	;;
esac
ha_finish 300
exit 0
