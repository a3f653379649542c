#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark of the core without a transport: our scst_local + vdisk_blockio
# against LIO's tcm_loop + iblock, on twin null_blk devices (one module,
# the same parameters; each target opens its device exclusively), in one
# boot, alternating A and B, and fio directly on a third twin (the
# ceiling). Prints one "BENCH:" line per run; the host's
# scripts/bench turns them into a table and a plot. Never asserts timings.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh
. /tests/lib/bench.sh

bench_local_setup
# each run also on the null_blk twin without a target: the row's ceiling
BENCH_DIRECT_DISK=$direct

# one fio job at QD 1 (latency) and at QD 32 (one submitter), two at QD
# 16 (the same 32 in flight from two submitters), writes, large blocks
bench_alternate 1G ours "$ours" lio "$lio" \
	"randread bs=4k qd=1" "randread bs=4k qd=32" \
	"randread bs=4k qd=16 jobs=2" "randwrite bs=4k qd=32" \
	"read bs=128k qd=8" "write bs=128k qd=8"

exit 0
