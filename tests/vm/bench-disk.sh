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
. /tests/lib/bench.sh

run modprobe -a sd_mod sg
bench_sdebug

scst_local_load
run modprobe scst_disk
mgmt $SCST/handlers/dev_disk/mgmt "add_device $hctl"
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device bio filename=$local_disk"
local_target bench host "$hctl 0" "bio 1"
pt=$(lun_disk "$host" 0)
blockio=$(lun_disk "$host" 1)
# no scheduler on either path, the local disk BLOCKIO submits to included
bench_no_scheduler "$pt" "$blockio" "$local_disk"
log "pass-through: $pt, BLOCKIO: $blockio, both on $hctl ($local_disk)"

bench_alternate 200M pt "$pt" blockio "$blockio" \
	"randread bs=4k qd=1" "randread bs=4k qd=32" "read bs=128k qd=8"
exit 0
