#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Pass-through against pass-through: our dev_disk through scst_local
# against LIO's pscsi through tcm_loop, each on its own logical unit of
# one scsi_debug host (in memory, no delay; the LUs share one store, so
# the same parameters), in one boot, alternating run by run, and fio
# directly on a third LU's sd disk (the ceiling: the SCSI midlayer and
# scsi_debug without a target). Prints one "BENCH:" line per run;
# scripts/bench makes the table. Never asserts timings.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh
. /tests/lib/bench.sh

# sdebug_hctls: the H:C:I:L of every scsi_debug LU, in target order
sdebug_hctls() {
	local d
	for d in /sys/bus/scsi/devices/*:*:*:*; do
		grep -q '^scsi_debug' "$d/model" 2>/dev/null && echo "${d##*/}"
	done | sort -t: -k3,3n
}

# sd_of HCTL: the sd block device of a SCSI device
sd_of() {
	echo "/dev/$(ls "/sys/bus/scsi/devices/$1/block/")"
}

run modprobe -a sd_mod sg
run modprobe scsi_debug dev_size_mb=256 num_tgts=3 max_luns=1 delay=0
wait_for 10 "three scsi_debug LUs" test "$(sdebug_hctls | wc -l)" = 3
mapfile -t hctl < <(sdebug_hctls)
for h in "${hctl[@]}"; do
	wait_for 10 "the block device of $h" ls "/sys/bus/scsi/devices/$h/block/"
done

# ours: dev_disk on the first LU, through scst_local
scst_local_load
run modprobe scst_disk
mgmt $SCST/handlers/dev_disk/mgmt "add_device ${hctl[0]}"
local_target bench host "${hctl[0]} 0"
ours=$(lun_disk "$host" 0)

# LIO: pscsi on the second LU (pscsi opens a disk's block device
# exclusively, by its udev_path), through tcm_loop
IFS=: read -r h c t l <<< "${hctl[1]}"
pdev=$LIO/core/pscsi_0/sdeb
run modprobe -a target_core_mod target_core_pscsi tcm_loop
run mkdir -p "$pdev"
run sh -c "echo scsi_host_id=$h,scsi_channel_id=$c,scsi_target_id=$t,scsi_lun_id=$l > $pdev/control"
run sh -c "echo $(sd_of "${hctl[1]}") > $pdev/udev_path"
run sh -c "echo 1 > $pdev/enable"
tpg=$LIO/loopback/naa.5001405000000001/tpgt_1
run mkdir -p $tpg
run sh -c "echo naa.5001405000000002 > $tpg/nexus"
run mkdir -p $tpg/lun/lun_0
run ln -s "$pdev" $tpg/lun/lun_0/sdeb
wait_for 30 "tcm_loop disk" lio_disk
lio=$(lio_disk)
wait_for 10 "$lio" test -b "$lio"

# the ceiling: the third LU's own sd disk
BENCH_DIRECT_DISK=$(sd_of "${hctl[2]}")
bench_no_scheduler "$ours" "$lio" "$BENCH_DIRECT_DISK" \
	"$(sd_of "${hctl[0]}")" "$(sd_of "${hctl[1]}")"
log "ours: $ours (dev_disk on ${hctl[0]}), LIO: $lio (pscsi on ${hctl[1]}), direct: $BENCH_DIRECT_DISK (${hctl[2]})"

bench_alternate 200M ours "$ours" lio "$lio" \
	"randread bs=4k qd=1" "randread bs=4k qd=32" \
	"randwrite bs=4k qd=32" "read bs=128k qd=8"
exit 0
