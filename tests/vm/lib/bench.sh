# SPDX-License-Identifier: GPL-2.0-only
# What the benchmarks (tests/vm/bench-*.sh) share: their parameters, the
# scsi_debug disk of the pass-through ones, the scheduler setting. The fio
# runs and the "BENCH:" lines are bench_alternate() in fio.sh. Requires
# common.sh and scst.sh.

# scripts/bench passes these on the kernel command line (init's environment)
RUNS=${scst_bench_runs:-3}
SECS=${scst_bench_secs:-10}

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
