#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What pass-through costs: one scsi_debug disk (in memory, no delay)
# exported twice through scst_local, as a dev_disk device (its SCSI device)
# and as a vdisk_blockio device (its sd block device), in one boot,
# alternating run by run. Prints one "BENCH:" line per run with
# side=pt (dev_disk) or side=blockio; scripts/bench makes the table.
# Never asserts timings.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh

RUNS=${scst_bench_runs:-3}
SECS=${scst_bench_secs:-10}

run modprobe -a sd_mod sg
run modprobe scsi_debug dev_size_mb=256 max_luns=1 delay=0
wait_for 10 "the scsi_debug disk" sdebug_hctl > /dev/null
hctl=$(sdebug_hctl)
wait_for 10 "the scsi_debug block device" ls /sys/bus/scsi/devices/"$hctl"/block/
local_disk=/dev/$(ls /sys/bus/scsi/devices/"$hctl"/block/)

run modprobe scst
run modprobe scst_vdisk
run modprobe scst_disk
run modprobe scst_local add_default_tgt=0
mgmt $SCST/handlers/dev_disk/mgmt "add_device $hctl"
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device bio filename=$local_disk"
mgmt $SCST/targets/scst_local/mgmt "add_target bench"
mgmt $SCST/targets/scst_local/bench/luns/mgmt "add $hctl 0"
mgmt $SCST/targets/scst_local/bench/luns/mgmt "add bio 1"
mgmt $SCST/targets/scst_local/mgmt "add_session bench host"
wait_for 10 "scst_local host" local_host bench host > /dev/null
host=$(local_host bench host)
wait_lun "$host" 0
wait_lun "$host" 1
pt=$(lun_disk "$host" 0)
blockio=$(lun_disk "$host" 1)
# no scheduler on either path, the local disk BLOCKIO submits to included
for d in "$pt" "$blockio" "$local_disk"; do
	echo none > "/sys/block/${d#/dev/}/queue/scheduler"
done
log "pass-through: $pt, BLOCKIO: $blockio, both on $hctl ($local_disk)"

bench_alternate 200M pt "$pt" blockio "$blockio" \
	"randread bs=4k qd=1" "randread bs=4k qd=32" "read bs=128k qd=8"
exit 0
