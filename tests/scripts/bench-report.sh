#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/bench-report.awk on fixed input: the ratios, the shares of the
# link's and the device's ceilings, the target's own CPU per I/O, and a
# line the console broke. Run by scripts/check; exits non-zero on the
# first wrong value, naming it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
awkf=$top/scripts/bench-report.awk
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT

cat > "$raw" <<'RAW'
BENCH-ENV: vcpus=2 kernel=test runs=2 secs=1
BENCH: job=rr side=ours run=1 bs=4096 iops=100 cpu_us_per_io=50 cpu_busy=80 p50_us=10 p99_us=20 probe_ms=600
BENCH: job=rr side=lio run=1 bs=4096 iops=50 cpu_us_per_io=90 cpu_busy=80 p50_us=30 p99_us=40 probe_ms=600
BENCH: job=rr side=direct run=1 bs=4096 iops=200 cpu_us_per_io=20 cpu_busy=80 p50_us=5 p99_us=9 probe_ms=600
BENCH: job=rr side=ours run=2 bs=4096 iops=300 cpu_us_per_io=30 cpu_busy=80 p50_us=10 p99_us=20 probe_ms=600
BENCH: job=rr side=lio run=2 bs=4096 iops=100 cpu_us_per_io=70 cpu_busy=80 p50_us=30 p99_us=40 probe_ms=600
BENCH: job=rr side=direct run=2 bs=4096 iops=200 cpu_us_per_io=20 cpu_busy=80 p50_us=5 p99_us=9 probe_ms=600
BENCH: job=rr side=ours run=3 bs=4096 iops=7[  12.3] WARNING
BENCH-PROBE: probe_ms=600
BENCH: job=big side=ours run=1 bs=131072 iops=80 cpu_us_per_io=100 cpu_busy=80 p50_us=1 p99_us=2 probe_ms=600
BENCH: job=big side=lio run=1 bs=131072 iops=40 cpu_us_per_io=100 cpu_busy=80 p50_us=1 p99_us=2 probe_ms=600
BENCH-PROBE: probe_ms=600
CEILING: test=ib_write_bw msg=4096 mps=1000 mib_s=20 probe_ms=600
RAW

fails=0
# expect FIELD-NAME GOT WANT
expect() {
	if [ "$2" != "$3" ]; then
		echo "bench-report: $1: got '$2', want '$3'"
		fails=$((fails + 1))
	fi
}
csv=$(awk -v fmt=csv -v header=1 -v pre="d,r,k,2,2,1,t" -f "$awkf" "$raw")
col() { # JOB SIDE COLUMN-NAME
	awk -F, -v j="$1" -v s="$2" -v c="$3" 'NR == 1 {
		for (i = 1; i <= NF; i++) if ($i == c) n = i; next }
		$8 == j && $9 == s { print $n }' <<< "$csv"
}
# rr: ours 200 mean against LIO 75 (the broken line dropped), per-run 2 and 3
expect "rr ours runs" "$(col rr ours n)" 2
expect "rr ours IOPS" "$(col rr ours iops_mean)" 200
expect "rr IOPS ratio" "$(col rr ours iops_ratio)" 2.667
expect "rr IOPS ratio min" "$(col rr ours iops_ratio_min)" 2.000
expect "rr IOPS ratio max" "$(col rr ours iops_ratio_max)" 3.000
expect "rr CPU ratio" "$(col rr ours cpu_ratio)" 0.500
# the device's ceiling: 200 IOPS at 20 us per I/O
expect "rr ours of direct" "$(col rr ours direct_share)" 1.000
expect "rr LIO of direct" "$(col rr lio direct_share)" 0.375
expect "rr ours target us" "$(col rr ours target_us_per_io)" 20
expect "rr LIO target us" "$(col rr lio target_us_per_io)" 60
expect "rr direct target us" "$(col rr direct target_us_per_io)" ""
# the link's: 4 KiB at 1000 msg/s; 128 KiB by bandwidth, 80 x 128 KiB = 10 MiB/s of 20
expect "rr ours of ceiling" "$(col rr ours ceiling_share)" 0.200
expect "big ours of ceiling" "$(col big ours ceiling_share)" 0.500
expect "big of direct (none)" "$(col big ours direct_share)" ""
md=$(awk -v fmt=md -f "$awkf" "$raw")
grep -q '^| job | side |.*| of ceiling | of direct | target µs/IO |' <<< "$md" ||
	{ echo "bench-report: md header without the ceiling columns"; fails=$((fails + 1)); }
expect "md direct row" "$(grep -c '^|  | direct |' <<< "$md")" 1
[ "$fails" = 0 ] && echo "bench-report: all values as expected"
[ "$fails" = 0 ]
