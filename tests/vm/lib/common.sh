# SPDX-License-Identifier: GPL-2.0-only
# Guest-side helpers shared by every VM test. Source it first.

set -o pipefail

# Modules this repository builds (installed under .../updates in the guest).
OUR_MODULES=(scst scst_vdisk scst_disk scst_local scst_srpt)

log() {
	echo "[$(cut -d' ' -f1 /proc/uptime)] $*"
}

fail() {
	echo "FAIL: $*"
	exit 1
}

# run CMD...: log a command, run it, fail the test if it fails.
run() {
	log "+ $*"
	"$@" || fail "command failed (rc=$?): $*"
}

# expect_fail CMD...: the command must fail.
expect_fail() {
	log "+ (must fail) $*"
	if "$@"; then
		fail "command succeeded but should have failed: $*"
	fi
}

# poll SECONDS CMD...: run CMD every 0.1 s until it succeeds (status 0)
# or SECONDS pass (status 1).
poll() {
	local secs=$1 i
	shift
	for ((i = 0; i < secs * 10; i++)); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# wait_for SECONDS DESCRIPTION CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	local secs=$1 what=$2
	shift 2
	poll "$secs" "$@" || fail "timed out after ${secs}s waiting for $what"
}

# show_blocked: the kernel stacks of the tasks in uninterruptible sleep
# (sysrq w), and what the kernel logged lately: when something did not
# answer, where it waits, even though the console only shows warnings.
show_blocked() {
	echo w > /proc/sysrq-trigger 2> /dev/null || return 0
	sleep 1
	dmesg | tail -n 300 | sed 's/^/dmesg: /'
}

# answered SECONDS CMD...: CMD must end within SECONDS (any status): a
# command of an initiator that never gets an answer hangs it. On a
# timeout the blocked tasks are shown before the test fails.
answered() {
	local secs=$1
	shift
	timeout -k 5 "$secs" "$@" > /dev/null 2>&1
	[ $? -lt 124 ] && return 0
	show_blocked
	fail "no answer within ${secs}s: $*"
}

# assert_eq ACTUAL EXPECTED DESCRIPTION
assert_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# grep_q ARGS...: "grep -q" at the end of a pipeline, but reading all of
# its input: with pipefail, a writer that is still writing when grep -q
# exits on an early match dies of SIGPIPE and fails the pipeline
grep_q() {
	grep "$@" > /dev/null
}

module_loaded() {
	[ -d "/sys/module/$1" ]
}

# io_mb MB: a fio --size for MB megabytes of data, a quarter of it on the
# debug kernel (KASAN, lockdep: I/O runs 5-8 times slower there). The same
# commands and paths run; only the count of I/Os of a verify pass shrinks,
# so that the debug lane fits the time of make check.
io_mb() {
	case $(uname -r) in
	*-scst-debug) echo "$((($1 + 3) / 4))M" ;;
	*) echo "$1M" ;;
	esac
}
