#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Where the core runs a command's state machine (scst_core/scst_dispatch.c),
# on 2 vCPUs, seen in /sys/kernel/scst_tgt/cpu_stats ("cpu<N> runs <R>
# backlog <B> yielded <Y>") with fio pinned to one CPU, through scst_local and two
# BLOCKIO LUNs: brd (fast: its I/O completes inside the pass) and
# scsi_debug with a 0.5 ms response delay (slow: commands stay in flight,
# so that the core's queue is deep):
# - a target cpu_mask of one CPU: every pass runs there, none on the CPU
#   that received the commands, at QD 32 and QD 1, reads and verified
#   writes, with spread_depth at its default and 0; the mirror image; a
#   group's cpu_mask governs its sessions (with the target's: AND; when
#   they are disjoint, the target's alone); deleting the group lifts it;
# - a full cpu_mask: at QD 32 with spread_depth 4 the passes spread to
#   the other CPU (with spread_direct=N too where scst_local hands its
#   commands in queued, not where it runs them in the submitter's context:
#   6.2+); with spread_depth 0, above the queue depth (64), or at QD 1
#   they stay on the receiving CPU; with a second session submitting at
#   QD 1 from the other CPU they stay too (a CPU with a submitter of its
#   own is no spread target);
# - the yielding workers (yield_wake): on the fast LUN at QD 32 with one
#   I/O per io_submit() and no I/O scheduler, no pass yields with
#   yield_wake=N; with Y passes yield and the work spreads to the other
#   CPU; QD 1 stays on the receiving CPU;
# - CPU hot-unplug: the other CPU offlined and onlined twice during fio
#   --verify while the work spreads to it (spreading skips it while it is
#   offline); and with the cpu_mask on that CPU alone: I/O goes on on the
#   receiving CPU while it is offline, a cpu_mask of offline CPUs only is
#   refused, and once it is online again the work goes back to it. fio
#   ends without errors, every backlog returns to 0;
# - over SRP (ib_srpt, ib_srp on Soft-RoCE): a cpu_mask of one CPU, both
#   ways round, as above.
# Behaviour only: no check depends on how fast anything ran, except that
# "the work spread" asks for a tenth of the passes on the other CPU.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/srpt.sh

P=/sys/module/scst/parameters
CPU1=/sys/devices/system/cpu/cpu1/online

[ "$(nproc)" = 2 ] || fail "needs 2 vCPUs, has $(nproc)"
[ -e $CPU1 ] || fail "CPU 1 cannot be hot-unplugged"
# scst_local hands its commands to the core with SCST_CONTEXT_DIRECT, run
# in the submitter's context, where queuecommand may sleep (6.2+; its
# build probe); those spread only with spread_direct=Y
read -r kmaj kmin _ <<< "$(uname -r | tr '.' ' ')"
LOCAL_DIRECT=0
[ "$kmaj" -gt 6 ] || { [ "$kmaj" = 6 ] && [ "$kmin" -ge 2 ]; } && LOCAL_DIRECT=1
run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=131072
sdebug_load dev_size_mb=128 ndelay=500000
sdebug=$(sdebug_disk)
scst_local_load
[ -r $SCST/cpu_stats ] || fail "no $SCST/cpu_stats"
assert_eq "$(cat $P/spread_depth)" 4 "default spread_depth"
assert_eq "$(cat $P/spread_direct)" N "default spread_direct"
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device disk0 filename=/dev/ram0"
mgmt $SCST/handlers/vdisk_blockio/mgmt "add_device slow filename=$sdebug"
local_target tgt1 ini1 "disk0 0" "slow 1"
S=$T/sessions/ini1
SESS_DIRS=("$S")	# the sessions whose commands snap counts
# shellcheck disable=SC2154 # host: set by local_target
fast=$(lun_disk "$host" 0)
slow=$(lun_disk "$host" 1)
# no merging: the disks' requests are fio's I/Os, one SCSI command each
for d in "$fast" "$slow"; do
	run sh -c "echo 2 > /sys/block/${d#/dev/}/queue/nomerges"
done
log "brd LUN $fast, scsi_debug LUN $slow; scst_local DIRECT: $LOCAL_DIRECT"
cat $SCST/cpu_stats

BG=	# the pid of fio_bg's fio while it runs

# fio_run runs "fio": this pins the whole of it (parent and job) to
# $FIO_CPU, so that every command reaches the target on that CPU
# (scst_local has a hardware queue per CPU, and blk-mq issues a request
# from its submitter or from kblockd of the submitter's queue's CPU)
fio() {
	taskset -c "$FIO_CPU" fio "$@"
}

# on_disk DEV: the disk measure and fio_bg use
on_disk() {
	disk=$1
	dn=${disk#/dev/}
}

# snap ARRAY: ARRAY=(RUNS0 RUNS1 BACKLOG0 BACKLOG1 COMMANDS IOS YIELDED0
# YIELDED1): cpu_stats (a CPU without a line has 0 everywhere), the
# commands the sessions of SESS_DIRS received, the reads and writes $disk
# completed
snap() {
	# (its locals' names are its own: a nameref to a caller's "b" would
	# see a local "b")
	local -n snap_out=$1
	local snap_r0=0 snap_r1=0 snap_b0=0 snap_b1=0 snap_y0=0 snap_y1=0
	local snap_cpu snap_r snap_b snap_y snap_cmds=0 snap_c snap_s snap_st
	while read -r snap_cpu _ snap_r _ snap_b _ snap_y; do
		case $snap_cpu in
		cpu0) snap_r0=$snap_r snap_b0=$snap_b snap_y0=$snap_y ;;
		cpu1) snap_r1=$snap_r snap_b1=$snap_b snap_y1=$snap_y ;;
		*) fail "cpu_stats: unexpected line '$snap_cpu $snap_r $snap_b $snap_y'" ;;
		esac
	done < $SCST/cpu_stats
	for snap_s in "${SESS_DIRS[@]}"; do
		read -r snap_c < "$snap_s/commands"
		snap_cmds=$((snap_cmds + snap_c))
	done
	read -r -a snap_st < "/sys/block/$dn/stat"
	# shellcheck disable=SC2034 # snap_out: a nameref to the caller's
	snap_out=("$snap_r0" "$snap_r1" "$snap_b0" "$snap_b1" "$snap_cmds"
		  $((snap_st[0] + snap_st[4])) "$snap_y0" "$snap_y1")
}

# JOBS: each as fio arguments (4 KiB blocks; writes to the first 16 MiB
# only). The QD 32 jobs submit and reap 16 I/Os at a time. fio submitting
# one I/O per io_submit() on the CPU whose worker runs the commands keeps
# at most a command or two of the fast LUN in the core at once (brd
# completes inside the pass, and the worker runs before fio's next
# submission): nothing to spread, whatever fio's iodepth. A batch reaches
# the core in one go (the block layer's plug), deeper than spread_depth.
B16="--iodepth_batch_submit=16 --iodepth_batch_complete_min=16"
JOBS=(
	"randread-qd32 --rw=randread --iodepth=32 $B16 --time_based --runtime=2 --size=64M"
	"randread-qd1 --rw=randread --iodepth=1 --time_based --runtime=1 --size=64M"
	"verify-qd32 --rw=randwrite --iodepth=32 $B16 --size=16M --verify=crc32c --do_verify=1 --verify_fatal=1"
	"verify-qd1 --rw=randwrite --iodepth=1 --size=2M --verify=crc32c --do_verify=1 --verify_fatal=1"
)

# measure CPU JOB: fio on $disk pinned to CPU; sets R0 R1 (how much the
# runs of cpu0 and cpu1 grew), Y (how much their yielded passes grew), NC (commands the sessions received), NI
# (I/Os of the disk: fio's) and prints them
measure() {
	local name a b args
	FIO_CPU=$1
	read -r name args <<< "$2"
	snap a
	# shellcheck disable=SC2086 # args: words of JOBS
	fio_run "$name-on-cpu$FIO_CPU" --filename="$disk" --ioengine=libaio \
		--direct=1 --bs=4k $args
	snap b
	R0=$((b[0] - a[0])) R1=$((b[1] - a[1]))
	NC=$((b[4] - a[4])) NI=$((b[5] - a[5]))
	Y=$((b[6] - a[6] + b[7] - a[7]))
	log "DISPATCH: $name on $disk, fio on cpu$FIO_CPU, session cpu_mask" \
	    "$(session_mask), spread_depth $(cat $P/spread_depth)" \
	    "spread_direct $(cat $P/spread_direct)" \
	    "yield_wake $(cat $P/yield_wake): cpu0 runs +$R0," \
	    "cpu1 runs +$R1, yielded +$Y, commands +$NC, disk I/Os +$NI"
	[ "$NI" -gt 0 ] || fail "$name: the disk saw no I/O"
	# (with fio_bg's I/O too, its commands in flight at the first snap
	# count as disk I/Os only)
	[ -n "$BG" ] || [ "$NC" -ge "$NI" ] ||
		fail "$name: $NC commands for $NI disk I/Os"
}

# what governs the session, for the log
session_mask() {
	local g=
	[ -d "$T/ini_groups/g1" ] && g=" group g1 $(attr_value "$T/ini_groups/g1/cpu_mask")"
	echo "target $(attr_value "$T/cpu_mask")$g"
}

# only_on CPU WHAT: every state machine pass of the last measure ran on CPU:
# the other CPU ran none, CPU at least one per command
only_on() {
	local on=$R0 off=$R1
	[ "$1" = 1 ] && { on=$R1; off=$R0; }
	[ "$off" = 0 ] ||
		fail "$2: cpu$((1 - $1)) ran $off passes outside the cpu_mask"
	[ "$on" -ge "$NC" ] ||
		fail "$2: cpu$1 ran $on passes for $NC commands"
}

# Which CPU receives a command is up to the initiator side: fio is pinned
# to CPU 0, and nothing else in this guest sends SCSI commands (a busybox
# userland: no udev, no media polling of a fixed disk), so without
# spreading every pass runs on CPU 0. SLACK allows a handful of commands
# that the kernel might still send from CPU 1 on its own (none seen in
# practice): a dispatch that leaks to CPU 1 would show on a good part of
# tens of thousands of commands, far above it.
SLACK=16
# stays_on0 WHAT: the last measure ran (nearly) all on cpu0
stays_on0() {
	[ "$R1" -le "$SLACK" ] ||
		fail "$1: cpu1 ran $R1 passes (of $NC commands received on cpu0), more than $SLACK"
	[ "$R0" -ge $((NC - R1)) ] ||
		fail "$1: cpu0 ran $R0 passes for $NC commands"
}
# spreads WHAT: the last measure spread from cpu0 to cpu1: cpu1 carries a
# good part of it, cpu0 keeps some; a tenth is far below what cpu1 gets
# (about half or more) and far above the SLACK it gets when it should get
# none; no timing in it otherwise
spreads() {
	[ "$R1" -ge $((NC / 10)) ] ||
		fail "$1: cpu1 ran only $R1 passes of $NC commands: no spreading"
	[ "$R0" -gt 0 ] || fail "$1: cpu0 ran no pass"
	[ $((R0 + R1)) -ge "$NC" ] ||
		fail "$1: $((R0 + R1)) passes for $NC commands"
}

# set_mask FILE HEX: a cpu_mask, read back with its [key] unless full
set_mask() {
	run sh -c "echo $2 > $1"
	assert_eq "$(attr_value "$1")" "$2" "${1#"$SCST"/}"
	if [ "$2" = 3 ]; then
		assert_eq "$(sed -n 2p "$1")" "" "${1#"$SCST"/} of all CPUs: [key]"
	else
		assert_eq "$(sed -n 2p "$1")" "[key]" "${1#"$SCST"/} [key]"
	fi
}

# set_param NAME VALUE: a parameter of the scst module
set_param() {
	run sh -c "echo $2 > $P/$1"
	assert_eq "$(cat "$P/$1")" "$2" "$1"
}

# fio_bg NAME SECONDS: fio --verify (verified as it goes: verify_backlog)
# at QD 32 (batches of 16) pinned to CPU 0 in the background, on the
# second half of $disk (JOBS write only the first), its output in
# /tmp/NAME.log; returns once it has I/O going. wait_bg NAME waits for it
# and fails on its errors.
fio_bg() {
	local c0
	read -r c0 < "$S/commands"
	FIO_CPU=0
	# shellcheck disable=SC2086 # B16: two options
	fio_run "$1" --filename="$disk" --ioengine=libaio --direct=1 --bs=4k \
		--rw=randwrite --iodepth=32 $B16 --offset=64M --size=64M \
		--time_based --runtime="$2" --verify=crc32c \
		--verify_backlog=1024 --verify_fatal=1 > "/tmp/$1.log" 2>&1 &
	BG=$!
	wait_for 60 "fio $1 to start" commands_above $((c0 + 1000))
}
commands_above() {
	sess_commands_above "$S" "$1"
}
# sess_commands_above SESSION_DIR N: the session received more than N
sess_commands_above() {
	local c
	read -r c < "$1/commands"
	[ "$c" -gt "$2" ]
}
wait_bg() {
	local rc=0
	wait "$BG" || rc=$?
	BG=
	cat "/tmp/$1.log"
	[ $rc = 0 ] || fail "fio $1 failed across CPU hot-unplug (rc=$rc)"
}
cpu1_online() {
	run sh -c "echo $1 > $CPU1"
	assert_eq "$(cat $CPU1)" "$1" "cpu1 online"
	log "cpu1 online $1: $(tr '\n' ' ' < $SCST/cpu_stats)"
}
# backlogs_drain WHAT: fio has ended; every CPU's backlog gets back to 0
backlogs_drain() {
	local i c
	for ((i = 0; i < 100; i++)); do
		snap c
		[ "${c[2]}" = 0 ] && [ "${c[3]}" = 0 ] && return 0
		sleep 0.1
	done
	cat $SCST/cpu_stats
	fail "$1: a backlog stays above 0 after fio ended"
}

# --- 1. a cpu_mask of one CPU: no pass anywhere else -----------------------
on_disk "$fast"
for on in 1 0; do
	set_mask "$T/cpu_mask" $((1 << on))
	for depth in 4 0; do
		set_param spread_depth $depth
		jobs=("${JOBS[@]}")
		# QD 1 never spreads: spread_depth 0 changes nothing there
		[ $depth = 0 ] && jobs=("${JOBS[0]}" "${JOBS[2]}")
		for job in "${jobs[@]}"; do
			measure $((1 - on)) "$job"
			only_on $on "target cpu_mask $((1 << on)), ${job%% *}"
		done
	done
done
set_param spread_depth 4
# the slow LUN, where the queue is deep and spreading would move work
on_disk "$slow"
set_mask "$T/cpu_mask" 2
set_param spread_direct Y
measure 0 "${JOBS[0]}"
only_on 1 "target cpu_mask 2, slow LUN, ${JOBS[0]%% *}"
set_param spread_direct N
on_disk "$fast"

# a group's cpu_mask, ANDed with the target's
set_mask "$T/cpu_mask" 3
mgmt "$T/ini_groups/mgmt" "create g1"
mgmt "$T/ini_groups/g1/luns/mgmt" "add disk0 0"
mgmt "$T/ini_groups/g1/luns/mgmt" "add slow 1"
mgmt "$T/ini_groups/g1/initiators/mgmt" "add ini1"
[ "$(readlink -f "$S/luns")" = "$(readlink -f "$T/ini_groups/g1/luns")" ] ||
	fail "session ini1 did not move to group g1"
clear_ua "$(lun_sg "$host" 0)"
clear_ua "$(lun_sg "$host" 1)"
set_mask "$T/ini_groups/g1/cpu_mask" 2
for job in "${JOBS[0]}" "${JOBS[2]}"; do
	measure 0 "$job"
	only_on 1 "group cpu_mask 2, target 3, ${job%% *}"
done
set_mask "$T/ini_groups/g1/cpu_mask" 1
for job in "${JOBS[0]}" "${JOBS[2]}"; do
	measure 1 "$job"
	only_on 0 "group cpu_mask 1, target 3, ${job%% *}"
done
# disjoint masks: the target's governs (scst_sess_cpu_mask(), as for the
# per-initiator threads)
set_mask "$T/cpu_mask" 1
set_mask "$T/ini_groups/g1/cpu_mask" 2
measure 1 "${JOBS[0]}"
only_on 0 "group cpu_mask 2, target 1 (disjoint)"
# the session leaves the group: its mask no longer applies
set_mask "$T/cpu_mask" 3
mgmt "$T/ini_groups/mgmt" "del g1"
[ "$(readlink -f "$S/luns")" = "$(readlink -f "$T/luns")" ] ||
	fail "session ini1 did not return to the target's LUNs"
clear_ua "$(lun_sg "$host" 0)"
clear_ua "$(lun_sg "$host" 1)"
set_param spread_depth 0
measure 0 "${JOBS[0]}"
stays_on0 "spread_depth 0, group g1 deleted"

# --- 2. a full cpu_mask: spreading, on the slow LUN -------------------------
on_disk "$slow"
set_param spread_depth 4
if [ $LOCAL_DIRECT = 0 ]; then
	# queued commands spread with spread_direct=N too
	measure 0 "${JOBS[0]}"
	spreads "spread_depth 4, spread_direct N, QD 32"
else
	# commands run in the submitter's context do not
	measure 0 "${JOBS[0]}"
	stays_on0 "spread_depth 4, spread_direct N, DIRECT, QD 32"
fi
set_param spread_direct Y
measure 0 "${JOBS[0]}"
spreads "spread_depth 4, QD 32"
measure 0 "${JOBS[2]}"
spreads "spread_depth 4, verify QD 32"
# QD 1: a session with one command in flight stays on the receiving CPU
measure 0 "${JOBS[1]}"
stays_on0 "spread_depth 4, QD 1"
measure 0 "${JOBS[3]}"
stays_on0 "spread_depth 4, verify QD 1"
# a depth above the queue's: no spreading either
set_param spread_depth 64
measure 0 "${JOBS[0]}"
stays_on0 "spread_depth 64, QD 32"
set_param spread_depth 0
measure 0 "${JOBS[0]}"
stays_on0 "spread_depth 0, QD 32"
measure 0 "${JOBS[2]}"
stays_on0 "spread_depth 0, verify QD 32"
set_param spread_depth 4

# --- 2a. a CPU with a submitter of its own is no spread target --------------
# A second session, ini2, submits at QD 1 from CPU 1 (its commands stay
# there: one in flight) while ini1's deep queue from CPU 0 would spread to
# CPU 1; its passes there would preempt ini2's fio. So ini1's commands stay
# on CPU 0: all of them, bar a tick or two where TCG stalls ini2 (half is
# the limit; spreading gave CPU 0 a tenth of them in the runs above).
mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 ini2"
wait_for 10 "scst_local host of tgt1/ini2" local_host tgt1 ini2 > /dev/null
host2=$(local_host tgt1 ini2)
wait_lun "$host2" 0
S2=$T/sessions/ini2
fast2=$(lun_disk "$host2" 0)
clear_ua "$(lun_sg "$host2" 0)"
read -r c2a < "$S2/commands"
FIO_CPU=1 fio_run submitter-on-cpu1 --filename="$fast2" --ioengine=libaio \
	--direct=1 --bs=4k --rw=randread --iodepth=1 --time_based \
	--runtime=10 --size=64M > /tmp/submitter-on-cpu1.log 2>&1 &
BG=$!
wait_for 60 "ini2's fio to start" sess_commands_above "$S2" $((c2a + 1000))
read -r c2a < "$S2/commands"
measure 0 "${JOBS[0]}"
read -r c2b < "$S2/commands"
log "ini2 (QD 1 on cpu1) sent $((c2b - c2a)) commands meanwhile"
[ $((c2b - c2a)) -gt 0 ] || fail "ini2's fio sent nothing during the measure"
[ "$R0" -ge $((NC / 2)) ] ||
	fail "submitter on cpu1: cpu0 ran only $R0 passes of $NC commands from cpu0"
rc=0
wait "$BG" || rc=$?
BG=
[ $rc = 0 ] || { cat /tmp/submitter-on-cpu1.log; fail "ini2's fio failed (rc=$rc)"; }
mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 ini2"
wait_for 10 "ini2 gone" test ! -e "$S2"

# --- 2b. yielding workers: a deep queue on the fast LUN ---------------------
# fio at QD 32 with one I/O per io_submit() on brd: with preempting
# workers each command is done before fio issues the next, nothing to
# spread (JOBS above). The yielding workers let fio issue its queue first,
# so the session shows its depth and spreads (performance.md section 2);
# at QD 1 it falls back to the preempting ones and stays where it arrived.
# No I/O scheduler here, as in make bench: mq-deadline hands the requests
# to scst_local from kblockd's worker, which preempts fio itself. (On
# 6.2+ scst_local runs a command in the submitter's context only outside
# a submit_bio(); fio's direct I/O issues from inside one, so it queues.)
on_disk "$fast"
read -r sched < "/sys/block/$dn/queue/scheduler"
sched=${sched#*[} sched=${sched%%]*}
echo none > "/sys/block/$dn/queue/scheduler"
set_param spread_direct N
NOBATCH="randread-qd32-nobatch --rw=randread --iodepth=32 --time_based --runtime=2 --size=64M"
set_param yield_wake N
measure 0 "$NOBATCH"
[ "$Y" = 0 ] || fail "yield_wake N: $Y passes yielded"
set_param yield_wake Y
measure 0 "$NOBATCH"
[ "$Y" -gt 0 ] || fail "yield_wake Y, QD 32 on the fast LUN: no pass yielded"
spreads "yield_wake Y, QD 32 without batches, fast LUN"
measure 0 "${JOBS[1]}"
stays_on0 "yield_wake Y, QD 1, fast LUN"
echo "$sched" > "/sys/block/$dn/queue/scheduler"
on_disk "$slow"
set_param spread_direct Y

# --- 3. CPU hot-unplug during fio --verify ----------------------------------
# fio --verify on the slow LUN in the background, spreading to CPU 1
# (spread_direct is still Y), while CPU 1 goes offline and online
fio_bg hotplug-spread 18
snap a
sleep 2
snap b
log "hotplug-spread: before offline: cpu0 runs +$((b[0] - a[0])), cpu1 runs +$((b[1] - a[1]))"
[ $((b[1] - a[1])) -gt 0 ] || fail "hotplug-spread: no pass on cpu1 before it went offline"
for i in 1 2; do
	cpu1_online 0
	if [ $i = 1 ]; then
		# spreading skips an offline CPU
		measure 0 "${JOBS[2]}"
		only_on 0 "cpu1 offline, target cpu_mask 3, ${JOBS[2]%% *}"
	fi
	sleep 2
	cpu1_online 1
	sleep 2
done
wait_bg hotplug-spread
backlogs_drain hotplug-spread
set_param spread_direct N

# the cpu_mask on CPU 1 alone: while CPU 1 is offline the receiving CPU
# carries the commands on; once it is back they go there again
on_disk "$fast"
set_mask "$T/cpu_mask" 2
fio_bg hotplug-mask 15
sleep 2
cpu1_online 0
# a mask of offline CPUs only is refused, the old one stays
expect_fail sh -c "echo 2 > $T/cpu_mask" 2>/dev/null
assert_eq "$(attr_value "$T/cpu_mask")" 2 "cpu_mask after a refused write"
measure 0 "${JOBS[2]}"
only_on 0 "cpu1 offline, target cpu_mask 2, ${JOBS[2]%% *}"
cpu1_online 1
measure 0 "${JOBS[2]}"
# the background fio's commands received while CPU 1 was offline (32 at
# most, at most 2 passes each) may still have passes to run on cpu0
[ "$R0" -le 64 ] ||
	fail "cpu1 back, target cpu_mask 2: cpu0 ran $R0 passes"
[ "$R1" -ge "$NC" ] ||
	fail "cpu1 back, target cpu_mask 2: cpu1 ran $R1 passes for $NC commands"
kill -0 "$BG" 2>/dev/null || log "(the background fio ended before CPU 1 came back)"
wait_bg hotplug-mask
backlogs_drain hotplug-mask
# and after all that: all on CPU 1
measure 0 "${JOBS[2]}"
only_on 1 "target cpu_mask 2 after hot-unplug, ${JOBS[2]%% *}"
cat $SCST/cpu_stats

set_mask "$T/cpu_mask" 3
mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 ini1"
wait_for 10 "ini1 gone" test ! -e "$S"
mgmt $SCST/targets/scst_local/mgmt "del_target tgt1"
run rmmod scst_local

# --- 4. over SRP: ib_srpt and ib_srp on Soft-RoCE ----------------------------
# The receiving CPU is the one of the target's completion work, which
# pinning fio does not choose: only a cpu_mask of one CPU gives a check.
srpt_target_up rxe_setup_one
mgmt "$T/luns/mgmt" "add disk0 0"
run sh -c "echo 1 > '$T/enabled'"
# shellcheck disable=SC2154 # id: set by srpt_target_up
srp_login "$id" "$id" "queue_size=64"
srpt_wait_lun 0
on_disk "$(srpt_lun_disk 0)"
run sh -c "echo 2 > /sys/block/$dn/queue/nomerges"
srpt_clear_ua_all_channels "$(lun_sg "$SRP_HOST" 0)"
SESS_DIRS=()
for s in $(srpt_sessions "$T"); do
	SESS_DIRS+=("$T/sessions/$s")
done
log "SRP disk $disk, sessions: ${SESS_DIRS[*]##*/}"
for on in 1 0; do
	set_mask "$T/cpu_mask" $((1 << on))
	for job in "${JOBS[0]}" "${JOBS[2]}"; do
		measure $((1 - on)) "$job"
		only_on $on "SRP, target cpu_mask $((1 << on)), ${job%% *}"
	done
done
set_mask "$T/cpu_mask" 3
measure 0 "${JOBS[0]}"
[ $((R0 + R1)) -ge "$NC" ] || fail "SRP: $((R0 + R1)) passes for $NC commands"
cat $SCST/cpu_stats
srp_logout
srpt_wait_sessions "$T" 0
run rmmod ib_srp
run rmmod scst_srpt
run rmmod scst_vdisk
run rmmod scsi_debug
run rmmod scst
log "core-dispatch passed"
exit 0
