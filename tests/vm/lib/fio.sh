# SPDX-License-Identifier: GPL-2.0-only
# fio wrapper: runs one job, fails the test on any fio or verify error, and
# prints one line with the IOPS, the latency percentiles and the guest CPU
# the run cost.

# cpu_ticks: "busy total" jiffies summed over all CPUs (/proc/stat).
cpu_ticks() {
	awk '/^cpu / { idle = $5 + $6; t = 0;
		       for (i = 2; i <= 9; i++) t += $i;
		       print t - idle, t }' /proc/stat
}

# fio_pct LINE FIELDS PCT: from fio's terse (v3) LINE, the latency
# percentile PCT (50.000000, 99.000000) in µs among FIELDS ("18-37", the
# read percentiles; "59-78", the write ones), written there as
# "50.000000%=123"; found by name, so that a --percentile_list that moves
# it still works. Empty when fio did not report it.
fio_pct() {
	cut -d';' -f"$2" <<< "$1" | tr ';' '\n' | sed -n "s/^$3%=//p"
}

# fio_run NAME FIO-ARGS...: run fio with --minimal output. Sets FIO_READ_IOPS,
# FIO_WRITE_IOPS, FIO_IOPS (sum), FIO_CPU_BUSY (% of all guest CPUs),
# FIO_CPU_US_PER_IO (guest CPU microseconds per I/O, all CPUs together),
# and FIO_P50_US, FIO_P99_US: the latency percentiles (µs) of the job's
# direction (--rw=: reads for read/randread, writes for write/randwrite,
# for a mix the direction with more I/Os). The latency is the whole I/O,
# submission and completion (fio's "lat", --lat_percentiles): a target
# that runs a command inside the submitter's io_submit() spends it in
# the submission, which completion latency ("clat") alone would not
# count, and the comparison with one that completes later would favour
# the inline one.
fio_run() {
	local name=$1 out b0 t0 b1 t1 hz ios arg rw=
	shift
	for arg in "$@"; do
		case $arg in --rw=*) rw=${arg#--rw=} ;; esac
	done

	read -r b0 t0 < <(cpu_ticks)
	log "+ fio --name=$name $*"
	out=$(fio --name="$name" --minimal --group_reporting \
		--lat_percentiles=1 --clat_percentiles=0 "$@" 2>&1)
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
	local pf=18-37
	case $rw in
	read|randread) ;;
	write|randwrite) pf=59-78 ;;
	*) [ "$FIO_WRITE_IOPS" -gt "$FIO_READ_IOPS" ] && pf=59-78 ;;
	esac
	FIO_P50_US=$(fio_pct "$out" "$pf" 50.000000)
	FIO_P99_US=$(fio_pct "$out" "$pf" 99.000000)
	echo "FIO: job=$name iops=$FIO_IOPS read_iops=$FIO_READ_IOPS" \
	     "write_iops=$FIO_WRITE_IOPS cpu_busy=${FIO_CPU_BUSY}%" \
	     "cpu_us_per_io=$FIO_CPU_US_PER_IO" \
	     "p50_us=${FIO_P50_US:-?} p99_us=${FIO_P99_US:-?}"
}

# bench_cv IOPS...: their coefficient of variation (sample standard
# deviation over the mean, as bench-report.awk computes it) in tenths of
# a percent, an integer for the shell to compare.
bench_cv() {
	awk 'BEGIN {
		for (i = 1; i < ARGC; i++) { s += ARGV[i]; q += ARGV[i] ^ 2 }
		n = ARGC - 1; m = n ? s / n : 0
		v = n > 1 ? (q - n * m * m) / (n - 1) : 0
		printf "%d", (m > 0 && v > 0 ? 1000 * sqrt(v) / m : 0) }' "$@"
}

# bench_alternate SIZE SIDE_A DISK_A SIDE_B DISK_B JOB...: each JOB ("RW
# bs=BS qd=N [jobs=J]", J fio jobs of depth N, reported as one group)
# $RUNS times for $SECS s on both disks, A then B, run by run, on the
# first SIZE of each, and again (up to $RUNS_MAX times in all) while
# either side's IOPS vary by more than $BENCH_CV_MAX %: a noisy row gets
# more samples rather than a mean of three outliers. A "BENCH-ENV:"
# line, then one "BENCH:" line per run for scripts/bench
# (bench-report.awk), with the block size in bytes so that the report
# can turn IOPS into bandwidth, and the bench_probe taken just before the
# run (probe_ms); a "BENCH-PROBE:" line after each job's last run gives
# that run the probe after it too.
#
# BENCH_DIRECT_DISK, where set, is the device both sides stand on, reached
# without a target (a twin null_blk device, the scsi_debug disk): every
# run also runs the job there as side "direct", after the two sides. That
# is the row's ceiling, measured in the same boot and under the same host
# load: no target can do more IOPS or spend less CPU per I/O than the
# block layer and the device alone, and the difference in CPU per I/O is
# what the target itself costs (scripts/bench-report.awk). Its IOPS do
# not extend the runs: the ceiling is not what is compared.
# BENCH_TAG, where set, is appended to each job's name ("-l4": the same
# job on four LUNs per side).
# BENCH_RUN, where set, is the function that runs each fio job in place
# of fio_run (bench-srp2's b2_fio_run): it sets what fio_run sets, and
# may set BENCH_CPU_US_PER_IO and BENCH_CPU_BUSY (the CPU columns, when
# they are another guest's) and BENCH_EXTRA (more "NAME=VALUE" fields).
bench_alternate() {
	local size=$1 sa=$2 da=$3 sb=$4 db=$5 job rw bs qd nj name i side disk
	local -a iops_a iops_b sides
	shift 5
	sides=("$sa" "$sb")
	[ -n "${BENCH_DIRECT_DISK:-}" ] && sides+=(direct)
	# what the numbers were measured on, for scripts/bench's results:
	# the guest's own count, whatever the VM was asked for
	echo "BENCH-ENV: vcpus=$(nproc) kernel=$(uname -r) runs=$RUNS secs=$SECS"
	for job in "$@"; do
		read -r rw bs qd nj <<< "$job"
		bs=${bs#bs=} qd=${qd#qd=} nj=${nj:-jobs=1}
		nj=${nj#jobs=}
		name=$rw-$bs-qd$qd
		[ "$nj" = 1 ] || name+=-j$nj
		name+=${BENCH_TAG:-}
		iops_a=() iops_b=()
		for ((i = 1; i <= RUNS_MAX; i++)); do
			if [ "$i" -gt "$RUNS" ] &&
			   [ "$(bench_cv "${iops_a[@]}")" -le $((BENCH_CV_MAX * 10)) ] &&
			   [ "$(bench_cv "${iops_b[@]}")" -le $((BENCH_CV_MAX * 10)) ]; then
				break
			fi
			[ "$i" -le "$RUNS" ] ||
				log "$name: IOPS vary by more than $BENCH_CV_MAX %: run $i"
			for side in "${sides[@]}"; do
				case $side in
				"$sa") disk=$da ;;
				"$sb") disk=$db ;;
				*) disk=$BENCH_DIRECT_DISK ;;
				esac
				# a test may set its side up (bench-lat)
				if declare -F bench_side_hook > /dev/null; then
					bench_side_hook "$side"
				fi
				bench_probe
				"${BENCH_RUN:-fio_run}" "$side-$name" --filename="$disk" \
					--ioengine=libaio --direct=1 --rw="$rw" \
					--bs="$bs" --iodepth="$qd" --numjobs="$nj" \
					--time_based --runtime="$SECS" --size="$size"
				echo "BENCH: job=$name side=$side run=$i" \
				     "bs=$(bench_bytes "$bs") iops=$FIO_IOPS" \
				     "cpu_us_per_io=${BENCH_CPU_US_PER_IO:-$FIO_CPU_US_PER_IO}" \
				     "cpu_busy=${BENCH_CPU_BUSY:-$FIO_CPU_BUSY}" \
				     "p50_us=${FIO_P50_US:-0} p99_us=${FIO_P99_US:-0}" \
				     "probe_ms=$BENCH_PROBE_MS${BENCH_EXTRA:+ $BENCH_EXTRA}"
				case $side in
				"$sa") iops_a+=("$FIO_IOPS") ;;
				"$sb") iops_b+=("$FIO_IOPS") ;;
				esac
			done
		done
		bench_probe_line
	done
}

# bench_bytes SIZE: fio's "4k", "128k", "1m" in bytes.
bench_bytes() {
	local n=${1%[kKmM]}
	case $1 in
	*[kK]) echo $((n * 1024)) ;;
	*[mM]) echo $((n * 1048576)) ;;
	*) echo "$n" ;;
	esac
}
