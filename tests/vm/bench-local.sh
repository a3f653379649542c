#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark of the core without a transport: our scst_local + vdisk_blockio
# against LIO's tcm_loop + iblock, on twin null_blk devices (one module,
# the same parameters; each target opens its device exclusively), in one
# boot, alternating A and B. Prints one "BENCH:" line per run; the host's
# scripts/bench turns them into a table and a plot. Never asserts timings.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh
. /tests/lib/bench.sh

LIO=/sys/kernel/config/target

run modprobe -a sd_mod sg
run modprobe null_blk nr_devices=2 gb=4 irqmode=0

# ours
scst_local_load
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device nullb filename=/dev/nullb0"
local_target bench host "nullb 0"
ours=$(lun_disk "$host" 0)

# LIO
run modprobe -a target_core_mod target_core_iblock tcm_loop
run mkdir -p $LIO/core/iblock_0/nullb
run sh -c "echo udev_path=/dev/nullb1 > $LIO/core/iblock_0/nullb/control"
run sh -c "echo 1 > $LIO/core/iblock_0/nullb/enable"
tpg=$LIO/loopback/naa.5001405000000001/tpgt_1
# the nexus first: linking the LUN adds its SCSI device through it
run mkdir -p $tpg
run sh -c "echo naa.5001405000000002 > $tpg/nexus"
run mkdir -p $tpg/lun/lun_0
run ln -s $LIO/core/iblock_0/nullb $tpg/lun/lun_0/nullb
# tcm_loop puts its LUNs on SCSI target id 1
lio_disk() {
	local h d
	for h in /sys/class/scsi_host/host*; do
		[ "$(cat "$h/proc_name")" = tcm_loopback ] || continue
		for d in /sys/bus/scsi/devices/"${h##*/host}":0:*:0/block/*; do
			[ -e "$d" ] && { echo "/dev/${d##*/}"; return 0; }
		done
	done
	return 1
}
wait_for 30 "tcm_loop disk" lio_disk
lio=$(lio_disk)
wait_for 10 "$lio" test -b "$lio"

bench_no_scheduler "$ours" "$lio"
log "ours: $ours (scst_local), LIO: $lio (tcm_loop)"

# one fio job at QD 1 (latency) and at QD 32 (one submitter), two at QD
# 16 (the same 32 in flight from two submitters), writes, large blocks
bench_alternate 1G ours "$ours" lio "$lio" \
	"randread bs=4k qd=1" "randread bs=4k qd=32" \
	"randread bs=4k qd=16 jobs=2" "randwrite bs=4k qd=32" \
	"read bs=128k qd=8" "write bs=128k qd=8"

exit 0
