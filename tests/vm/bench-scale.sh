#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How the core scales with submitters and LUNs: bench-local's two sides
# (scst_local + vdisk_blockio against LIO's tcm_loop + iblock) with 16
# LUNs each, every LUN on its own null_blk device of one null_blk module
# (the same parameters), and 16 more twins that fio reaches directly (the
# ceiling). Each job runs 1, 4 or 8 fio jobs of depth 8 spread over the
# first 1, 4 or 16 LUNs of a side (fio's files, round robin), alternating
# ours, LIO's and the direct devices run by run in one boot. Prints one
# "BENCH:" line per run, the job's name ending in -l<LUNs>; scripts/bench
# makes the table and the curve. Never asserts timings.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh
. /tests/lib/bench.sh

NLUNS=16

# lio_disks: tcm_loop's disks in LUN order, one per line
lio_disks() {
	local h d
	for h in /sys/class/scsi_host/host*; do
		[ "$(cat "$h/proc_name")" = tcm_loopback ] || continue
		for d in /sys/bus/scsi/devices/"${h##*/host}":0:*:*; do
			[ -d "$d/block" ] || continue
			echo "${d##*:} /dev/$(ls "$d/block/")"
		done
	done | sort -n | awk '{ print $2 }'
}

lio_disk_count() {
	[ "$(lio_disks | wc -l)" = "$1" ]
}

run modprobe -a sd_mod sg
# nullb0-15 ours, nullb16-31 LIO's, nullb32-47 the ceiling
run modprobe null_blk nr_devices=$((3 * NLUNS)) gb=4 irqmode=0

scst_local_load
luns=()
for ((i = 0; i < NLUNS; i++)); do
	mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device nullb$i filename=/dev/nullb$i"
	luns+=("nullb$i $i")
done
local_target bench host "${luns[@]}"
ours=()
for ((i = 0; i < NLUNS; i++)); do
	ours+=("$(lun_disk "$host" "$i")")
done

run modprobe -a target_core_mod target_core_iblock tcm_loop
tpg=$LIO/loopback/naa.5001405000000001/tpgt_1
run mkdir -p $tpg
run sh -c "echo naa.5001405000000002 > $tpg/nexus"
for ((i = 0; i < NLUNS; i++)); do
	d=$LIO/core/iblock_0/nullb$((NLUNS + i))
	run mkdir -p "$d"
	run sh -c "echo udev_path=/dev/nullb$((NLUNS + i)) > $d/control"
	run sh -c "echo 1 > $d/enable"
	run mkdir -p $tpg/lun/lun_$i
	run ln -s "$d" $tpg/lun/lun_$i/nullb
done
wait_for 30 "$NLUNS tcm_loop disks" lio_disk_count "$NLUNS"
mapfile -t lio < <(lio_disks)

direct=()
for ((i = 0; i < NLUNS; i++)); do
	direct+=("/dev/nullb$((2 * NLUNS + i))")
done
bench_no_scheduler "${ours[@]}" "${lio[@]}"
log "ours: ${ours[*]}; LIO: ${lio[*]}; direct: ${direct[*]}"

# join N DISK...: the first N disks as one fio --filename (colon-separated)
join() {
	local n=$1
	shift
	local IFS=:
	echo "${*:1:$n}"
}

for l in 1 4 16; do
	BENCH_TAG=-l$l
	BENCH_DIRECT_DISK=$(join "$l" "${direct[@]}")
	jobs=("randread bs=4k qd=8 jobs=4" "randread bs=4k qd=8 jobs=8")
	[ "$l" = 1 ] && jobs=("randread bs=4k qd=8" "${jobs[@]}")
	bench_alternate 1G ours "$(join "$l" "${ours[@]}")" \
		lio "$(join "$l" "${lio[@]}")" "${jobs[@]}"
done
exit 0
