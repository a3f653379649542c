#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-fuzz.sh fuzz|check SECONDS HARNESS... - run the libFuzzer harnesses
# built in build/ (see Makefile).
#
#   fuzz   fuzz each harness for SECONDS on build/corpus/<h> (kept between
#          runs, seeded from corpus/<h>); crashes go to build/crashes/<h>/
#   check  run every saved input of regressions/<h>/ once, then fuzz for
#          SECONDS from corpus/<h> into a scratch directory; a crash, an
#          invariant failure, a leak or a timeout fails the harness
#
# Prints one line per harness with its executions and coverage, then
# "FUZZ-FAILED: HARNESS (why)" for each that failed, and ends with
# "FUZZ-SUMMARY: passed=N failed=M"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")" || exit 1

mode=$1
secs=$2
shift 2
passed=0
failed=0
failed_names=()
# A single input taking over 10 s is a hang; none of the parsers loops.
opts=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

# libFuzzer's last status line: "#N DONE cov: C ft: F corp: ..."
stats() {
	sed -n 's/^#\([0-9]*\)[[:space:]]*DONE[[:space:]]*cov: \([0-9]*\) ft: \([0-9]*\).*/execs=\1 cov=\2 ft=\3/p' "$1" | tail -n 1
}

for h in "$@"; do
	bin=build/fuzz_$h
	log=build/logs/$h.$mode.log
	mkdir -p build/logs "build/crashes/$h"
	: > "$log"
	ok=1
	if [ ! -x "$bin" ]; then
		echo "fuzz: $h: $bin not built"
		failed=$((failed + 1))
		failed_names+=("$h (not built)")
		continue
	fi
	if [ "$mode" = check ]; then
		shopt -s nullglob
		regs=(regressions/"$h"/*)
		shopt -u nullglob
		if [ ${#regs[@]} -gt 0 ] &&
		   ! "$bin" "${opts[@]}" "${regs[@]}" >> "$log" 2>&1; then
			echo "fuzz: $h: a regression input fails (log: tests/fuzz/$log)"
			ok=0
		fi
		work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$h.XXXXXX")
		if ! "$bin" "${opts[@]}" -max_total_time="$secs" \
		     -artifact_prefix="build/crashes/$h/" "$work" "corpus/$h" \
		     >> "$log" 2>&1; then
			ok=0
		fi
		rm -rf "$work"
		st_reg=", regressions=${#regs[@]}"
	else
		mkdir -p "build/corpus/$h"
		if ! "$bin" "${opts[@]}" -max_total_time="$secs" \
		     -artifact_prefix="build/crashes/$h/" "build/corpus/$h" \
		     "corpus/$h" >> "$log" 2>&1; then
			ok=0
		fi
		st_reg=
	fi
	st=$(stats "$log")${st_reg}
	if [ $ok = 1 ]; then
		echo "fuzz: $h: ok ($st)"
		passed=$((passed + 1))
	else
		grep -E 'invariant failed|ERROR:|SUMMARY:' "$log" | head -n 5
		echo "fuzz: $h: FAILED ($st; log: tests/fuzz/$log, input in tests/fuzz/build/crashes/$h/)"
		failed=$((failed + 1))
		failed_names+=("$h (log: tests/fuzz/$log)")
	fi
done
for n in "${failed_names[@]}"; do
	echo "FUZZ-FAILED: $n"
done
echo "FUZZ-SUMMARY: passed=$passed failed=$failed"
[ "$failed" = 0 ]
