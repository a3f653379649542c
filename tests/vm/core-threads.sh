#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A device whose commands sleep (vdisk_fileio) never loses its worker
# threads while a session may queue commands to them:
# (a) threads_num of a shared pool changes 40 times during fio --verify
#     through scst_local: every write is taken, thread_pids follows it,
#     fio completes and verifies; per_initiator is refused while the
#     device is in use;
# (b) logins race threads_pool_type changes: a second device, on a
#     second target, has its pool type toggled while sessions log in and
#     out; each session must read its disk (a session given a pool that
#     the toggle stopped waits forever: the dd times out);
# (c) with fail_function (a debug kernel whose kprobes go through
#     ftrace, see below), a threads_num change whose thread start fails
#     (the first thread, then the second) is refused with an error and
#     one log line, the old threads keep running (same PIDs, alive) and
#     I/O completes; a failed switch to shared keeps per_initiator.
#     Elsewhere (c) is skipped, and says why.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/fio.sh

run modprobe -a sd_mod sg
scst_local_load
run dd if=/dev/zero of=/tmp/f1.img bs=1M count=0 seek=64 status=none
run dd if=/dev/zero of=/tmp/f2.img bs=1M count=0 seek=16 status=none

H=$SCST/handlers
D1=$SCST/devices/disk1
D2=$SCST/devices/disk2
mgmt $H/vdisk_fileio/mgmt "add_device disk1 filename=/tmp/f1.img"
mgmt $H/vdisk_fileio/mgmt "add_device disk2 filename=/tmp/f2.img"
# shared before any session sees it (per_initiator cannot change in use)
run sh -c "echo shared > $D1/threads_pool_type"
local_target tgt1 host1 "disk1 0"
disk=$(lun_disk "$host" 0)

# pids_of DEV: its thread PIDs, sorted, one line
pids_of() {
	tr ' ' '\n' < "$1/thread_pids" | sort -n | tr '\n' ' '
}

# nr_pids DEV: how many threads it has
nr_pids() {
	wc -w < "$1/thread_pids"
}

# all_alive PIDS...: every PID is a live process
all_alive() {
	local p
	for p in "$@"; do
		[ -d "/proc/$p" ] || return 1
	done
}

# fio_bg NAME SECONDS: fio --verify on $disk in the background (FPID)
fio_bg() {
	fio --name="$1" --filename="$disk" --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=16 --size=32M --time_based \
		--runtime="$2" --verify=crc32c --verify_backlog=64 \
		--verify_fatal=1 --minimal > "/tmp/fio-$1.out" 2>&1 &
	FPID=$!
}

# fio_done NAME: wait for FPID (a hang detector, not a timing), check it
fio_done() {
	local i
	for i in $(seq 1 600); do
		kill -0 "$FPID" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$FPID" 2>/dev/null && { kill "$FPID"; fail "fio ($1) hung"; }
	wait "$FPID" || { cat "/tmp/fio-$1.out"; fail "fio ($1) failed"; }
	grep -q '^3;' "/tmp/fio-$1.out" || { cat "/tmp/fio-$1.out"; fail "fio ($1): no result"; }
	assert_eq "$(grep '^3;' "/tmp/fio-$1.out" | cut -d';' -f5)" 0 "fio ($1) error"
	log "fio ($1) passed"
}

# --- (a) threads_num under I/O ----------------------------------------------
assert_eq "$(nr_pids $D1)" "$(attr_value $D1/threads_num)" "threads of disk1"
fio_bg resize 20
sleep 2
for i in $(seq 1 40); do
	n=$(( (i * 7) % 8 + 1 ))
	echo "$n" > $D1/threads_num || fail "threads_num $n refused under I/O"
	assert_eq "$(attr_value $D1/threads_num)" "$n" "threads_num after write $i"
	assert_eq "$(nr_pids $D1)" "$n" "threads of disk1 after threads_num $n"
	kill -0 $FPID 2>/dev/null || break
done
log "$i threads_num changes under fio"
expect_fail sh -c "echo per_initiator > $D1/threads_pool_type"
assert_eq "$(attr_value $D1/threads_pool_type)" shared "pool type after a refused change"
fio_done resize
# every thread left is a live one
# shellcheck disable=SC2046
all_alive $(cat $D1/thread_pids) || fail "disk1 lists a thread that is gone"

# --- (b) logins racing threads_pool_type --------------------------------------
mgmt $SCST/targets/scst_local/mgmt "add_target tgt2"
T2=$SCST/targets/scst_local/tgt2
mgmt $T2/luns/mgmt "add disk2 0"

# toggle_until DIR: switch disk2's pool type back and forth until DIR
# (the new session's directory, made after its nexuses) exists: the
# switches land while the session logs in
toggle_until() {
	until [ -d "$1" ]; do
		echo shared > $D2/threads_pool_type
		echo per_initiator > $D2/threads_pool_type
	done 2> /dev/null
}
for i in $(seq 1 40); do
	toggle_until "$T2/sessions/s$i" &
	TPID=$!
	echo "add_session tgt2 s$i" > $SCST/targets/scst_local/mgmt ||
		{ kill $TPID; fail "add_session s$i refused"; }
	wait $TPID
	h=
	# the disk opens: after a session's removal its /dev/sdX node can
	# still be there, and the new disk of the same name not yet added
	for j in $(seq 1 100); do
		h=$(local_host tgt2 "s$i") && lun_ready "$h" 0 &&
			d=$(lun_disk "$h" 0) && { : < "$d"; } 2> /dev/null && break
		sleep 0.1
	done
	d=$(lun_disk "$h" 0) || fail "no disk of session s$i"
	# a command that a worker thread must run (a fileio READ)
	if ! timeout 30 dd if="$d" of=/dev/null bs=4k count=64 iflag=direct \
		status=none; then
		log "session s$i: pool type $(attr_value $D2/threads_pool_type), threads: $(cat $D2/thread_pids)"
		fail "session s$i: a read of $d did not complete (no worker thread?)"
	fi
	echo "del_session tgt2 s$i" > $SCST/targets/scst_local/mgmt ||
		fail "del_session s$i refused"
done
log "40 logins while threads_pool_type switched: each session read its disk"
run sh -c "echo per_initiator > $D2/threads_pool_type"

# --- (c) a thread start that fails -------------------------------------------
FF=/sys/kernel/debug/fail_function
KP=/sys/kernel/debug/kprobes/list
# fail_function hooks scst_thread_add() with a kprobe. Without
# CONFIG_KPROBES_ON_FTRACE that kprobe is an int3, whose handler lockdep
# counts as NMI context, and each injected failure draws a random number
# there (should_fail_ex(): crngs.lock): lockdep reports an inconsistent
# lock state (6.1), a splat that is the kernel's, not ours. So (c) runs
# only where the probe goes through ftrace.
ftrace_probe() {
	local ok=0
	echo scst_thread_add > $FF/inject || return 1
	grep 'scst_thread_add' $KP | grep_q 'FTRACE' && ok=1
	echo > $FF/inject
	[ $ok = 1 ]
}
if [ ! -d $FF ]; then
	log "SKIP (c): no $FF on this kernel (the debug kernel runs it)"
elif ! ftrace_probe; then
	log "SKIP (c): fail_function's kprobe on scst_thread_add is an int3 on this kernel (no CONFIG_KPROBES_ON_FTRACE): an injected failure makes lockdep report crngs.lock in NMI context"
else
	# inject_on INTERVAL: the INTERVAL-th scst_thread_add() call fails,
	# then every INTERVAL-th; no stack dump (the harness counts a
	# "Call Trace:" as a splat)
	inject_on() {
		run sh -c "echo scst_thread_add > $FF/inject"
		run sh -c "printf %#x -12 > $FF/scst_thread_add/retval"
		run sh -c "echo 100 > $FF/probability"
		run sh -c "echo $1 > $FF/interval"
		run sh -c "echo -1 > $FF/times"
		run sh -c "echo 0 > $FF/verbose"
	}
	inject_off() {
		run sh -c "echo > $FF/inject"
	}
	fio_bg inject 15
	sleep 2
	for interval in 1 2; do
		n0=$(attr_value $D1/threads_num)
		p0=$(pids_of $D1)
		inject_on $interval
		n=$((n0 % 8 + 2))
		l0=$(dmesg | grep -c "threads_num $n: cannot start the threads")
		if echo "$n" > $D1/threads_num 2>/dev/null; then
			inject_off
			fail "threads_num $n accepted although its threads could not start (interval $interval)"
		fi
		inject_off
		assert_eq "$(attr_value $D1/threads_num)" "$n0" "threads_num after the failed change"
		assert_eq "$(pids_of $D1)" "$p0" "thread PIDs after the failed change"
		# shellcheck disable=SC2086
		all_alive $p0 || fail "an old thread is gone after the failed change"
		assert_eq "$(dmesg | grep -c "threads_num $n: cannot start the threads")" \
			$((l0 + 1)) "log lines of the failed threads_num $n"
		log "interval $interval: threads_num $n refused, the $n0 threads stay"
	done
	fio_done inject
	# the device still takes a change once threads can start
	run sh -c "echo 3 > $D1/threads_num"
	assert_eq "$(nr_pids $D1)" 3 "threads after a change that works"

	# a failed switch to shared (no session sees disk2) keeps per_initiator
	assert_eq "$(attr_value $D2/threads_pool_type)" per_initiator "disk2 pool type"
	l0=$(dmesg | grep -c "disk2.*cannot start")
	inject_on 1
	if echo shared > $D2/threads_pool_type 2>/dev/null; then
		inject_off
		fail "threads_pool_type shared accepted although its threads could not start"
	fi
	inject_off
	assert_eq "$(attr_value $D2/threads_pool_type)" per_initiator "disk2 pool type after the failed switch"
	assert_eq "$(nr_pids $D2)" 0 "threads of disk2 after the failed switch"
	assert_eq "$(dmesg | grep -c "disk2.*cannot start")" $((l0 + 1)) \
		"log lines of the failed switch"
	log "(c) passed"
fi

mgmt $SCST/targets/scst_local/mgmt "del_target tgt2"
mgmt $SCST/targets/scst_local/mgmt "del_target tgt1"
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
log "core-threads passed"
exit 0
