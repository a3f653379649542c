# SPDX-License-Identifier: GPL-2.0-only
# fio wrapper: runs one job, fails the test on any fio or verify error, and
# prints one line with the IOPS and the guest CPU the run cost.

# cpu_ticks: "busy total" jiffies summed over all CPUs (/proc/stat).
cpu_ticks() {
	awk '/^cpu / { idle = $5 + $6; t = 0;
		       for (i = 2; i <= 9; i++) t += $i;
		       print t - idle, t }' /proc/stat
}

# fio_run NAME FIO-ARGS...: run fio with --minimal output. Sets FIO_READ_IOPS,
# FIO_WRITE_IOPS, FIO_IOPS (sum), FIO_CPU_BUSY (% of all guest CPUs) and
# FIO_CPU_US_PER_IO (guest CPU microseconds per I/O, all CPUs together).
fio_run() {
	local name=$1 out b0 t0 b1 t1 hz ios
	shift

	read -r b0 t0 < <(cpu_ticks)
	log "+ fio --name=$name $*"
	out=$(fio --name="$name" --minimal --group_reporting "$@" 2>&1)
	local rc=$?
	read -r b1 t1 < <(cpu_ticks)
	if [ $rc -ne 0 ] || ! grep -q '^3;' <<< "$out"; then
		echo "$out"
		fail "fio job $name failed (rc=$rc)"
	fi
	out=$(grep '^3;' <<< "$out" | tail -n 1)
	local err
	err=$(cut -d';' -f5 <<< "$out")
	[ "$err" = 0 ] || fail "fio job $name reported error $err"
	FIO_READ_IOPS=$(cut -d';' -f8 <<< "$out")
	FIO_WRITE_IOPS=$(cut -d';' -f49 <<< "$out")
	FIO_IOPS=$((FIO_READ_IOPS + FIO_WRITE_IOPS))
	local rt_r rt_w rt
	rt_r=$(cut -d';' -f9 <<< "$out")
	rt_w=$(cut -d';' -f50 <<< "$out")
	rt=$((rt_r > rt_w ? rt_r : rt_w))
	hz=100 # USER_HZ, the unit of /proc/stat, is 100 on x86
	ios=$((FIO_IOPS * rt / 1000))
	FIO_CPU_BUSY=$(awk -v b=$((b1 - b0)) -v t=$((t1 - t0)) \
		'BEGIN { printf "%.1f", t ? 100 * b / t : 0 }')
	FIO_CPU_US_PER_IO=$(awk -v b=$((b1 - b0)) -v hz="$hz" -v n="$ios" \
		'BEGIN { printf "%.0f", n ? b * 1e6 / hz / n : 0 }')
	echo "FIO: job=$name iops=$FIO_IOPS read_iops=$FIO_READ_IOPS" \
	     "write_iops=$FIO_WRITE_IOPS cpu_busy=${FIO_CPU_BUSY}%" \
	     "cpu_us_per_io=$FIO_CPU_US_PER_IO"
}

# bench_alternate SIZE SIDE_A DISK_A SIDE_B DISK_B JOB...: each JOB ("RW
# bs=BS qd=N") $RUNS times for $SECS s on both disks, A then B, run by
# run, on the first SIZE of each; one "BENCH:" line per run for
# scripts/bench (bench-report.awk).
bench_alternate() {
	local size=$1 sa=$2 da=$3 sb=$4 db=$5 job rw bs qd i side disk
	shift 5
	for job in "$@"; do
		read -r rw bs qd <<< "$job"
		for ((i = 1; i <= RUNS; i++)); do
			for side in "$sa" "$sb"; do
				disk=$da
				[ "$side" = "$sb" ] && disk=$db
				fio_run "$side-$rw" --filename="$disk" --ioengine=libaio \
					--direct=1 --rw="$rw" --"$bs" --iodepth="${qd#qd=}" \
					--numjobs=1 --time_based --runtime="$SECS" \
					--size="$size"
				echo "BENCH: job=$rw-${bs#bs=}-qd${qd#qd=} side=$side run=$i iops=$FIO_IOPS cpu_us_per_io=$FIO_CPU_US_PER_IO"
			done
		done
	done
}
