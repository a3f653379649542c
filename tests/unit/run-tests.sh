#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run cmocka test binaries and sum up their results.
#
# usage: run-tests.sh LOGDIR BINARY...
#
# BINARY is BUILD/<variant>/<test> (variants: plain, asan). Each binary runs
# with cmocka's TAP output; its full output is kept in LOGDIR and shown when
# it fails. A test case is counted once, however many variants run it: it
# passes only if it passed in every variant. A binary that crashes, trips a
# sanitizer or stops before running its whole plan counts as at least one
# failure, along with every case it never reported. Each failure is named
# on a line "UNIT-FAILED: VARIANTS TEST CASE" (VARIANTS: those it failed
# in, comma-separated), or "UNIT-FAILED: VARIANT TEST (why)" for a binary
# that crashed or stopped early, before the last line printed, which is
# "UNIT-SUMMARY: passed=N failed=M"; the exit status is non-zero if M is.

logdir=$1
shift
mkdir -p "$logdir" || exit 1
results=$logdir/results.txt
: > "$results"

ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
CMOCKA_MESSAGE_OUTPUT=TAP
export ASAN_OPTIONS UBSAN_OPTIONS CMOCKA_MESSAGE_OUTPUT

for bin in "$@"; do
	test=$(basename "$bin")
	variant=$(basename "$(dirname "$bin")")
	log=$logdir/$variant-$test.log

	"$bin" > "$log" 2>&1
	rc=$?

	# One "RUN variant test rc plan" line, then "CASE variant test
	# status name" per reported case.
	awk -v v="$variant" -v t="$test" -v rc="$rc" '
		/^1\.\.[0-9]+/ { sub(/^1\.\./, ""); plan = $0 + 0 }
		/^ok [0-9]+ - / {
			sub(/^ok [0-9]+ - /, "")
			print "CASE", v, t, "PASS", $0
		}
		/^not ok [0-9]+ - / {
			sub(/^not ok [0-9]+ - /, "")
			print "CASE", v, t, "FAIL", $0
		}
		END { print "RUN", v, t, rc, (plan == "" ? -1 : plan) }
	' "$log" >> "$results"

	if [ "$rc" -eq 0 ]; then
		echo "PASS $bin"
	else
		echo "FAIL $bin (exit status $rc), output follows:"
		sed 's/^/    /' "$log"
	fi
done

awk '
	$1 == "RUN" {
		key = $3
		if (!(key in tests))
			order[++ntests] = key
		runs[key] = runs[key] " " $2
		rc[$2, key] = $4
		plan[$2, key] = $5
		tests[key] = 1
	}
	$1 == "CASE" {
		key = $3
		name = $5
		for (i = 6; i <= NF; i++)
			name = name " " $i
		status[$2, key, name] = $4
		if (!((key, name) in seen)) {
			seen[key, name] = 1
			ncases[key]++
			names[key, ncases[key]] = name
		}
		if ($4 == "FAIL")
			reported_fail[$2, key] = 1
		reported[$2, key]++
	}
	END {
		passed = 0
		failed = 0
		for (t = 1; t <= ntests; t++) {
			key = order[t]
			nv = split(runs[key], vars, " ")
			bad = 0
			for (i = 1; i <= ncases[key]; i++) {
				where = ""
				for (j = 1; j <= nv; j++)
					if (status[vars[j], key, names[key, i]] != "PASS")
						where = where (where == "" ? "" : ",") vars[j]
				if (where == "") {
					passed++
				} else {
					bad++
					print "UNIT-FAILED:", where, key, names[key, i]
				}
			}
			# Cases no variant ever reported, and crashes.
			extra = 0
			broken = 0
			for (j = 1; j <= nv; j++) {
				v = vars[j]
				if (plan[v, key] - ncases[key] > extra)
					extra = plan[v, key] - ncases[key]
				if (plan[v, key] < 0 ||
				    reported[v, key] + 0 < plan[v, key] ||
				    (rc[v, key] != 0 && !((v, key) in reported_fail))) {
					broken = 1
					printf "UNIT-FAILED: %s %s (exit status %d, %d of %s case(s) reported)\n", \
						v, key, rc[v, key], reported[v, key], \
						(plan[v, key] < 0 ? "an unknown number of" : plan[v, key])
				}
			}
			if (broken && bad + extra == 0)
				extra = 1
			failed += bad + extra
		}
		printf "UNIT-SUMMARY: passed=%d failed=%d\n", passed, failed
		exit failed != 0
	}
' "$results"
