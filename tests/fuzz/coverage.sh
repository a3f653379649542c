#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# coverage.sh HARNESS [CORPUS_DIR...] - line and branch coverage of the
# files a harness tests, reached by a corpus (default: corpus/<h> and
# build/corpus/<h>): builds build/cov/fuzz_<h> with clang's source-based
# coverage, runs every input once, prints llvm-cov's report for those
# files and writes their lines never run to build/cov/<h>.uncovered
# ("file:line: source"; a file also holds functions other harnesses test).
set -euo pipefail
cd "$(dirname "$0")"
h=$1
shift
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(corpus/"$h" build/corpus/"$h")
mkdir -p build/cov
srcs=$(make -s print-src H="$h")
flags=$(make -s print-cflags H="$h")
# shellcheck disable=SC2086
clang $flags -fprofile-instr-generate -fcoverage-mapping -fsanitize=fuzzer \
	-o "build/cov/fuzz_$h" "fuzz_$h.c" $srcs
rm -f "build/cov/$h".prof*
existing=()
for d in "${dirs[@]}"; do [ -d "$d" ] && existing+=("$d"); done
LLVM_PROFILE_FILE="build/cov/$h.profraw" "build/cov/fuzz_$h" -runs=0 \
	"${existing[@]}" > "build/cov/$h.log" 2>&1
llvm-profdata merge -sparse "build/cov/$h.profraw" -o "build/cov/$h.profdata"
report=$(llvm-cov report "build/cov/fuzz_$h" \
	-instr-profile="build/cov/$h.profdata")
sed -n '1,2p' <<< "$report"
: > "build/cov/$h.uncovered"
for f in $srcs; do
	grep -F "$f " <<< "$report" || true
	llvm-cov show "build/cov/fuzz_$h" \
		-instr-profile="build/cov/$h.profdata" |
		awk -v file="$(realpath "$f"):" -v name="$f" '
			$0 == file { on = 1; next }
			/^\/.*:$/ { on = 0 }
			on {
				split($0, c, "|")
				n = c[2]; gsub(/ /, "", n)
				if (n == "0")
					print name ":" c[1] + 0 ": " c[3]
			}' >> "build/cov/$h.uncovered"
done
echo "uncovered lines: tests/fuzz/build/cov/$h.uncovered ($(wc -l < "build/cov/$h.uncovered"))"
