#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What measure_latency costs: scst_local + vdisk_blockio on a null_blk
# device, the same fio jobs with /sys/kernel/scst_tgt/measure_latency 0
# (side "off") and 1 ("on"), alternating run by run on the same disk in
# one boot. Prints "BENCH:" lines for scripts/bench (ratio off/on); never
# asserts timings. Off, the command path has one patched-out static key
# per stamp; on, three clock reads and one session lock per command.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh
. /tests/lib/bench.sh

run modprobe -a sd_mod sg
run modprobe null_blk nr_devices=1 gb=4 irqmode=0
scst_local_load
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device nullb filename=/dev/nullb0"
local_target bench host "nullb 0"
disk=$(lun_disk "$host" 0)
bench_no_scheduler "$disk"

bench_side_hook() {
	case $1 in
	off) echo 0 > $SCST/measure_latency ;;
	on) echo 1 > $SCST/measure_latency ;;
	esac || fail "measure_latency for side $1"
}

bench_alternate 1G off "$disk" on "$disk" \
	"randread bs=4k qd=1" "randread bs=4k qd=32"
log "latency of the 4 KiB reads: $(cat $T/sessions/host/latency/r4096)"

exit 0
