# SPDX-License-Identifier: GPL-2.0-only
# What the profiles (tests/vm/profile-*.sh) share: their parameters, perf
# in the guest, and profile_side(), which runs one fio job on one side
# under "perf record -e cpu-clock -a" (the software clock event: TCG has
# no hardware PMU) and prints the "PROFILE:" lines of
# lib/profile-report.awk. Requires common.sh and fio.sh; the caller sets
# PROFILE_MODS, the modules whose shares and top symbols are always
# listed (any other module sampled is listed after them).
#
# Parameters from the kernel command line (init's environment):
#   scst_profile_job="RW BS QD JOBS"  (default "randread 4k 32 1"; commas
#                                      may stand for the spaces)
#   scst_profile_secs=S               (seconds sampled per side, default 10)
#   scst_profile_freq=HZ              (sampling frequency, default 1000)
#   scst_profile_top=N                (symbols listed per side, default 25)
#   scst_profile_modtop=N             (and per target module, default 10)
#   scst_profile_callers=SYM          (also record call chains, and print
#                                      the chains that lead into SYM:
#                                      "CALLERS:" lines, at most 60)

read -r P_RW P_BS P_QD P_JOBS _ <<< "$(tr ',' ' ' <<< "${scst_profile_job:-randread 4k 32 1}")"
P_SECS=${scst_profile_secs:-10}
P_FREQ=${scst_profile_freq:-1000}
P_TOP=${scst_profile_top:-25}
P_MODTOP=${scst_profile_modtop:-10}
P_JOBS=${P_JOBS:-1}
P_CALLERS=${scst_profile_callers:-}
[ -z "$P_CALLERS" ] || [[ $P_CALLERS =~ ^[A-Za-z_][A-Za-z0-9_.]*$ ]] ||
	fail "bad profile parameter: callers='$P_CALLERS' (one symbol name)"
for v in "$P_QD" "$P_JOBS" "$P_SECS" "$P_FREQ" "$P_TOP" "$P_MODTOP"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] ||
		fail "bad profile parameters: job='$P_RW $P_BS $P_QD $P_JOBS' secs=$P_SECS freq=$P_FREQ top=$P_TOP modtop=$P_MODTOP"
done
JOB=$P_RW-$P_BS-qd$P_QD-j$P_JOBS

# perf must be the real program (tests/vm/profile-*.tools), not a
# wrapper script looking for perf_<version>
perf --version > /dev/null 2>&1 || fail "perf does not run in the guest: $(perf --version 2>&1 | head -n 1)"
log "$(perf --version) on $(uname -r)"
# kernel and module addresses in /proc/kallsyms, and system-wide sampling
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid

# disk_ios DISK: reads and writes completed on a block device
disk_ios() {
	awk '{ print $1 + $5 }' "/sys/block/${1#/dev/}/stat"
}

# io_started DISK COUNT: the disk has completed more than COUNT I/Os
io_started() {
	[ "$(disk_ios "$1")" -gt "$2" ]
}

# profile_side SIDE DISK: fio on DISK, and once its I/O flows,
# perf record of the whole guest for P_SECS s; then the report.
profile_side() {
	local side=$1 disk=$2 before fpid frc

	before=$(disk_ios "$disk")
	# fio runs a few seconds longer than the sampling, which starts
	# only when its I/O flows, so that the profile has no idle tail
	profile_fio "$side" "$disk" $((P_SECS + 5)) &
	fpid=$!
	wait_for 60 "I/O of fio on $disk" io_started "$disk" "$before"
	profile_record "$side"
	wait "$fpid"
	frc=$?
	cat "/tmp/fio-$side.out"
	[ "$frc" = 0 ] || fail "fio on side $side failed"
	profile_report "$side" "$(profile_fio_kv "/tmp/fio-$side.out")"
}

# profile_fio SIDE DISK SECS: the profiled job on DISK for SECS s, its
# output in /tmp/fio-SIDE.out.
profile_fio() {
	fio_run "$1-$P_RW" --filename="$2" --ioengine=libaio \
		--direct=1 --rw="$P_RW" --bs="$P_BS" --iodepth="$P_QD" \
		--numjobs="$P_JOBS" --time_based --runtime="$3" \
		--size=1G > "/tmp/fio-$1.out"
}

# profile_fio_kv FIO-OUT: the FIO: line's key=value words that the
# PROFILE: line repeats
profile_fio_kv() {
	local w kv=

	for w in $(grep '^FIO:' "$1"); do
		case $w in
		iops=*|cpu_us_per_io=*|p50_us=*|p99_us=*) kv+=" $w" ;;
		esac
	done
	echo "$kv"
}

# profile_record SIDE: perf record of the whole guest for P_SECS s, into
# /tmp/perf-SIDE.data.
profile_record() {
	local graph=

	[ -z "$P_CALLERS" ] || graph=-g
	log "+ perf record -e cpu-clock -F $P_FREQ -a $graph -o /tmp/perf-$1.data -- sleep $P_SECS"
	perf record -e cpu-clock -F "$P_FREQ" -a $graph -o "/tmp/perf-$1.data" \
		-- sleep "$P_SECS" 2>&1 | sed 's/^/perf: /'
	[ "${PIPESTATUS[0]}" = 0 ] || fail "perf record failed on side $1"
}

# profile_report SIDE [FIO-KV]: the "PROFILE:" lines of
# /tmp/perf-SIDE.data, FIO-KV (the job's figures) in the first.
profile_report() {
	local side=$1 data=/tmp/perf-$1.data rep=/tmp/perf-$1.txt

	# the symbols of /proc/kallsyms, from a copy: next to /proc/kallsyms
	# perf finds /proc/kcore, maps the whole kernel through it, modules
	# included, and reports every module's symbols as [kernel.kallsyms];
	# without a kcore beside the file it splits them into the modules
	cat /proc/kallsyms > /tmp/kallsyms
	log "+ perf report -i $data --no-children --sort comm,dso,sym --kallsyms=/tmp/kallsyms"
	perf report -i "$data" --stdio --no-children --sort comm,dso,sym -n -q \
		-t '|' --kallsyms=/tmp/kallsyms > "$rep" 2> "/tmp/perf-$side.err" ||
		{ cat "/tmp/perf-$side.err"; fail "perf report failed on side $side"; }
	sed 's/^/perf: /' "/tmp/perf-$side.err" | head -n 20
	[ -s "$rep" ] || fail "perf report of side $side is empty"

	echo "PROFILE: side=$side job=$JOB secs=$P_SECS freq=$P_FREQ${2:-} kernel=$(uname -r)"
	awk -F'|' -v side="$side" -v top="$P_TOP" -v modtop="$P_MODTOP" \
		-v mods="$PROFILE_MODS" -f /tests/lib/profile-report.awk "$rep"
	profile_per_cpu "$side" "$data"
	[ -z "$P_CALLERS" ] || profile_callers "$side" "$data"
}

# profile_per_cpu SIDE DATA: the samples of each CPU by task (the idle
# loop is "swapper"): which CPU a side leaves idle, and who keeps the
# other one busy.
profile_per_cpu() {
	perf report -i "$2" --stdio --no-children --sort cpu,comm -n -q \
		-t '|' 2> /dev/null |
		awk -F'|' -v side="$1" 'NF >= 4 {
			gsub(/^ +| +$/, "", $1); gsub(/^ +| +$/, "", $3)
			gsub(/^ +| +$/, "", $4)
			if ($1 + 0 >= 1)
				printf "PROFILE: side=%s percpu cpu %s %-16s %7s\n", side, $3, $4, $1
		}'
}

# profile_callers SIDE DATA: the call chains of DATA that end in
# P_CALLERS, callers first, down to 1% of that symbol's samples: who
# takes the lock or turns the interrupts back on (under a software clock
# the samples of code that ran with interrupts off land where they are
# turned back on).
profile_callers() {
	log "+ perf report -i $2 --no-children -S $P_CALLERS -G"
	perf report -i "$2" --stdio --no-children -S "$P_CALLERS" \
		-G -g caller,1,callee,function,percent \
		--kallsyms=/tmp/kallsyms 2> /dev/null |
		grep -v '^#' | grep -v '^[[:space:]]*$' | head -n 60 |
		sed "s/^/CALLERS: side=$1 /"
}

# profile_both: after the caller's set-up (which sets ours and lio, the
# two sides' disks), the profile of our side, then of LIO's.
profile_both() {
	log "modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
	profile_side ours "$ours"
	profile_side lio "$lio"
}
