# SPDX-License-Identifier: GPL-2.0-only
# What the benchmarks (tests/vm/bench-*.sh) share: their parameters, the
# scsi_debug disk of the pass-through ones, the scheduler setting, the
# transport's ceiling. The fio runs and the "BENCH:" lines are
# bench_alternate() in fio.sh. Requires common.sh and scst.sh.

# scripts/bench passes these on the kernel command line (init's environment)
RUNS=${scst_bench_runs:-3}
SECS=${scst_bench_secs:-10}
# a job whose IOPS vary by more than BENCH_CV_MAX % (sample CV) on either
# side after RUNS runs gets more runs of both sides, up to RUNS_MAX
RUNS_MAX=${scst_bench_max_runs:-$RUNS}
BENCH_CV_MAX=10
[ "$RUNS_MAX" -ge "$RUNS" ] 2>/dev/null || RUNS_MAX=$RUNS

# bench_probe: how many ms the guest needs for a fixed amount of CPU
# work (BENCH_PROBE_LOOPS iterations of an awk loop) on every vCPU at
# once; sets BENCH_PROBE_MS. Under TCG a vCPU is a host thread, and this
# host may itself be a virtual machine whose hypervisor does not report
# steal time: when the host runs something else, every guest CPU second
# does less work, and both sides' IOPS and CPU per I/O move with it. One
# probe before each run (about 0.6 s on 2 vCPUs; scripts/bench's report
# compares the probes around each run with the boot's fastest), so a run
# that was slow because the host was busy shows as such rather than as
# run-to-run variation.
BENCH_PROBE_LOOPS=${scst_bench_probe_loops:-150000}
bench_probe() {
	local t0 t1 i n pids=()
	n=$(nproc)
	# bash's microsecond clock: the guest's date has no %N
	t0=${EPOCHREALTIME/./}
	for ((i = 0; i < n; i++)); do
		awk -v n="$BENCH_PROBE_LOOPS" \
			'BEGIN { for (i = 0; i < n; i++) s += i }' &
		pids+=($!)
	done
	wait "${pids[@]}"
	t1=${EPOCHREALTIME/./}
	BENCH_PROBE_MS=$(((t1 - t0) / 1000))
}

# bench_probe_line: a probe that follows the last measurement of a series
# (a job's runs, the ceilings), as a "BENCH-PROBE:" line of its own.
bench_probe_line() {
	bench_probe
	echo "BENCH-PROBE: probe_ms=$BENCH_PROBE_MS"
}

# bench_sdebug: one in-memory scsi_debug disk without delay. Sets hctl
# (its H:C:I:L, the name dev_disk knows it by) and local_disk (its sd
# block device).
bench_sdebug() {
	run modprobe scsi_debug dev_size_mb=256 max_luns=1 delay=0
	wait_for 10 "the scsi_debug disk" sdebug_hctl > /dev/null
	hctl=$(sdebug_hctl)
	wait_for 10 "the scsi_debug block device" ls /sys/bus/scsi/devices/"$hctl"/block/
	local_disk=/dev/$(ls /sys/bus/scsi/devices/"$hctl"/block/)
}

# bench_no_scheduler DISK...: no I/O scheduler on these block devices, so
# that both sides of a comparison submit the same way.
bench_no_scheduler() {
	local d
	for d in "$@"; do
		echo none > "/sys/block/${d#/dev/}/queue/scheduler"
	done
}

# bench_ceiling DEV IP TEST...: what the RDMA link alone carries, for the
# SRP rows to be read against: each perftest TEST (ib_write_bw,
# ib_send_bw) with 4 KiB messages for $SECS s, server and client both in
# this guest on DEV, the client connecting to the server's address IP
# through RDMA/CM (-R), which finds the RoCE GID from the address as
# ib_srp's login does; -F, because a VM's CPU frequency is what it is.
# One "CEILING:" line per test for scripts/bench: MsgRate (Mpps) as
# messages/s, the average bandwidth (perftest's "MB/sec", MiB/s) and the
# bench_probe before it, then a "BENCH-PROBE:" line: a ceiling measured
# while the host was busy is as low as a run would be.
bench_ceiling() {
	local dev=$1 ip=$2 t port=18515 srv out ok try row bw rate
	shift 2
	for t in "$@"; do
		local args=(-d "$dev" -R -F -s 4096 -D "$SECS" -p "$port")
		bench_probe
		log "+ $t ${args[*]} (server); $t ${args[*]} $ip (client)"
		timeout $((SECS + 60)) "$t" "${args[@]}" > "/tmp/$t.server" 2>&1 &
		srv=$!
		# the client is refused until the server listens: retry
		ok=0
		for try in $(seq 1 20); do
			out=$(timeout $((SECS + 60)) "$t" "${args[@]}" "$ip" 2>&1) &&
				{ ok=1; break; }
			sleep 0.5
		done
		if [ "$ok" = 0 ]; then
			kill "$srv" 2>/dev/null
			wait "$srv"
			echo "$out"
			fail "$t client failed $try times"
		fi
		wait "$srv" || { cat "/tmp/$t.server"; fail "$t server failed"; }
		row=$(awk '$1 == 4096 && NF >= 5 { r = $4 " " $5 } END { print r }' <<< "$out")
		[ -n "$row" ] || { echo "$out"; fail "$t: no result line"; }
		read -r bw rate <<< "$row"
		echo "CEILING: test=$t msg=4096" \
		     "mps=$(awk -v r="$rate" 'BEGIN { printf "%.0f", r * 1e6 }')" \
		     "mib_s=$bw probe_ms=$BENCH_PROBE_MS"
		port=$((port + 1))
	done
	bench_probe_line
}

# bench_local_setup: the devices of bench-local and profile-local: twin
# null_blk devices (one module, the same parameters; each target opens
# its device exclusively), ours (scst_local + vdisk_blockio on nullb0) and
# LIO's (tcm_loop + iblock on nullb1), and a third twin, nullb2, that
# fio reaches directly (direct: the ceiling). Sets ours, lio and direct
# (their disks) and LIO (configfs). Requires scst.sh.
LIO=/sys/kernel/config/target

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

bench_local_setup() {
	run modprobe -a sd_mod sg
	# the third is the rows' ceiling, fio on the device without a target
	# (bench_alternate's BENCH_DIRECT_DISK)
	run modprobe null_blk nr_devices=3 gb=4 irqmode=0

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
	wait_for 30 "tcm_loop disk" lio_disk
	lio=$(lio_disk)
	wait_for 10 "$lio" test -b "$lio"

	# the twin without a target: its scheduler is nullb0's and nullb1's
	direct=/dev/nullb2
	bench_no_scheduler "$ours" "$lio"
	log "ours: $ours (scst_local), LIO: $lio (tcm_loop), direct: $direct"
}

# bench_srp_setup: bench-srp's devices. LIO's ib_srpt + iblock on
# /dev/ram1 and our scst_srpt + vdisk_blockio on /dev/ram0 (brd disks of
# the same size), both logged in to by ib_srp over one rxe device. Sets
# ours and lio (their sd disks). Requires rxe.sh, srp.sh, srpt.sh and
# lio.sh besides common.sh and scst.sh.
bench_srp_setup() {
	local guid lio_host ours_host T

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
}
