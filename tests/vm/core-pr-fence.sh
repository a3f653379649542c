#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Persistent reservations that must fence a node, whatever it had queued
# and whatever happened to the APTPL file. One vdisk_fileio device
# (o_direct, one worker thread per initiator) on a slow scsi_debug disk,
# exported through two scst_local sessions, nexuses "A" and "B":
#  (1) A holds a reservation and has 48 WRITEs queued behind its device
#      thread when B PREEMPTs it: those that had not started must not run
#      (the reservation is checked again before ->exec()), so the pattern
#      B writes over the same blocks after its PREEMPT survives A's queue;
#  (2) an APTPL file that cannot be parsed fences every nexus: the
#      device comes up with its PR state unknown, commands get NOT READY,
#      LOGICAL UNIT NOT READY, MANUAL INTERVENTION REQUIRED (02h/04h/03h),
#      the file is left as it was, and devices/<dev>/pr_file_reset moves it
#      aside (<file>.bad) and restores service with an empty state.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/pr.sh

INI_A=iqn.2026-01.test:fencea
INI_B=iqn.2026-01.test:fenceb
PRDIR=/var/lib/scst/pr
DEV=prf
H=$SCST/handlers/vdisk_fileio

run modprobe -a sd_mod sg
# ~100 ms per command at HZ=250: one worker thread drains 10 a second
sdebug_load dev_size_mb=64 delay=25
backing=$(sdebug_disk)
scst_local_load

add_dev() {
	mgmt $H/mgmt "add_device $DEV filename=$backing o_direct=1"
	run sh -c "echo 1 > $SCST/devices/$DEV/threads_num"
}

# clear_ua_nr SG: TEST UNIT READY until no unit attention is left; NOT
# READY (the unknown PR state) is an answer too
clear_ua_nr() {
	local i out
	for i in 1 2 3 4 5 6 7 8; do
		out=$(sg_raw "$1" 00 00 00 00 00 00 2>&1) && return 0
		grep -qi 'unit attention' <<< "$out" || return 0
	done
	fail "$1 still reports unit attentions"
}

# nodes: find the LUN's nodes of both sessions, consume the unit attentions
nodes() {
	wait_lun "$hostA" 0
	wait_lun "$hostB" 0
	sgA=$(lun_sg "$hostA" 0)
	sgB=$(lun_sg "$hostB" 0)
	sdA=$(lun_disk "$hostA" 0)
	clear_ua_nr "$sgA"
	clear_ua_nr "$sgB"
}

mkdir -p /tmp/pr
head -c 4096 /dev/zero | tr '\0' 'A' > /tmp/pr/patA
head -c 196608 /dev/zero | tr '\0' 'B' > /tmp/pr/patB
add_dev
local_target tgt1 "$INI_A" "$DEV 0"
T=$SCST/targets/scst_local/tgt1
hostA=$host
mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 $INI_B"
wait_for 10 "host of B" local_host tgt1 "$INI_B" > /dev/null
hostB=$(local_host tgt1 "$INI_B")
nodes
P=$SCST/devices/$DEV/pr_state
log "A: $sgA ($sdA), B: $sgB"

# --- (1) A's queued WRITEs after B's PREEMPT --------------------------------
# (FENCE_PART=2 on the kernel command line, scripts/vm/run --append, skips
# to part 2)
if [ "${FENCE_PART:-}" != 2 ]; then
prout "$sgA" --register --param-sark=0xa
prout "$sgB" --register --param-sark=0xb
prout "$sgA" --reserve --param-rk=0xa --prout-type=1
# one command per WRITE: the block layer merges none
run sh -c "echo 2 > /sys/block/${sdA#/dev/}/queue/nomerges"
log "$sdA: 48 WRITEs of 4 KiB (LBA 0-383) in flight, one worker thread"
fio --name=queued --filename="$sdA" --ioengine=libaio --direct=1 \
	--rw=write --bs=4k --size=192k --iodepth=48 --iodepth_batch=48 \
	--buffer_pattern=0x41 --output=/tmp/pr/fio.out > /dev/null 2>&1 &
fio_pid=$!
# admitted (A holds the reservation) and queued behind A's one thread,
# which needs ~100 ms a WRITE: the test proves something only with a queue
queued() {
	[ "$(attr_value "$T/sessions/$INI_A/active_commands")" -ge 24 ]
}
for ((i = 0; i < 300; i++)); do
	queued && break
	sleep 0.1
done
queued || { kill "$fio_pid"; wait; cat /tmp/pr/fio.out
	fail "A never had 24 WRITEs in flight ($(attr_value "$T/sessions/$INI_A/active_commands"))"; }
log "A has $(attr_value "$T/sessions/$INI_A/active_commands") commands in flight"
prout "$sgB" --preempt --param-rk=0xb --param-sark=0xa --prout-type=1
# the WRITE A's thread was executing when the PREEMPT came ends first
sleep 0.5
out=$(sg_raw -s 196608 -i /tmp/pr/patB "$sgB" 2a 00 00 00 00 00 00 01 80 00 2>&1) ||
	{ echo "$out"; fail "B's WRITE after its PREEMPT failed"; }
log "B wrote its pattern; A has $(attr_value "$T/sessions/$INI_A/active_commands") commands in flight"
if wait "$fio_pid"; then
	log "fio of A ended without an error"
else
	log "fio of A ended with an error, as it should"
fi
grep -E 'err=|issued' /tmp/pr/fio.out
run sg_raw -r 196608 -o /tmp/pr/read "$sgB" 28 00 00 00 00 00 00 01 80 00
n=$(cmp -l /tmp/pr/read /tmp/pr/patB | wc -l)
[ "$n" = 0 ] ||
	fail "WRITEs of A queued before B's PREEMPT ran after it: $((n / 4096)) of B's 48 blocks of 4 KiB overwritten"
log "LBA 0-383 hold B's pattern: no queued WRITE of A ran after the PREEMPT"
clear_ua_nr "$sgA"
prout "$sgB" --clear --param-rk=0xb
clear_ua_nr "$sgA"
fi

# --- (2) an APTPL file that cannot be parsed: fail closed -------------------
prout "$sgA" --register --param-sark=0xa --param-aptpl
prout "$sgA" --reserve --param-rk=0xa --prout-type=5
[ -f $PRDIR/$DEV ] || fail "no APTPL file"
mgmt $T/luns/mgmt "del 0"
mgmt $H/mgmt "del_device $DEV"
sed -i 's/^reservation 5 0$/reservation 5 zero/' $PRDIR/$DEV
grep -q '^reservation 5 zero$' $PRDIR/$DEV || fail "could not damage the file"
cp $PRDIR/$DEV /tmp/pr/damaged
before=$(dmesg | wc -l)
add_dev
msgs=$(dmesg | tail -n +"$((before + 1))" | grep "$PRDIR/$DEV")
echo "$msgs"
mgmt $T/luns/mgmt "add $DEV 0"
nodes

nr() {
	local out
	out=$(sense_of "$@")
	grep -qi 'not ready' <<< "$out" && grep -qi 'manual intervention required' <<< "$out" ||
		{ echo "$out"; fail "$*: not NOT READY, MANUAL INTERVENTION REQUIRED"; }
}
log "+ (must fail: NOT READY) WRITE, READ, TEST UNIT READY, PR IN, PR OUT, RESERVE(6) from both nexuses"
for sg in "$sgA" "$sgB"; do
	nr sg_raw -s 4096 -i /tmp/pr/patA "$sg" 2a 00 00 00 00 00 00 00 08 00
	nr sg_raw -r 4096 "$sg" 28 00 00 00 00 00 00 00 08 00
	nr sg_raw "$sg" 00 00 00 00 00 00
	nr sg_persist -n -v --in -k "$sg"
	nr sg_persist -n -v --out --register --param-sark=0xc --param-aptpl "$sg"
	nr sg_persist -n -v --out --register-ignore --param-sark=0xc "$sg"
	nr sg_raw "$sg" 16 00 00 00 00 00
done
run sg_inq "$sgA"
run sg_luns "$sgB"
cmp -s $PRDIR/$DEV /tmp/pr/damaged || fail "the damaged APTPL file was changed"
[ ! -e $PRDIR/$DEV.bad ] || fail "$PRDIR/$DEV.bad exists before the reset"
assert_eq "$(grep -c . <<< "$msgs")" 1 "log lines about the damaged file"
grep -q "$DEV: $PRDIR/$DEV line 5: .*: persistent reservation state unknown" <<< "$msgs" ||
	fail "the log line does not say the state is unknown"
grep -q "^state unknown: $PRDIR/$DEV line 5: " $P || { cat $P; fail "pr_state does not say unknown"; }

# the administrator's way out: the file moves aside, service resumes
log "+ echo 1 > devices/$DEV/pr_file_reset"
echo 1 > $SCST/devices/$DEV/pr_file_reset || fail "pr_file_reset refused"
[ ! -e $PRDIR/$DEV ] || fail "$PRDIR/$DEV still there after the reset"
cmp -s $PRDIR/$DEV.bad /tmp/pr/damaged || fail "$PRDIR/$DEV.bad is not the damaged file"
assert_eq "$(cat $P)" "generation 0
aptpl 0
reservation none
registrants 0" "pr_state after the reset"
dmesg | grep_q "$DEV: persistent reservation state reset by the administrator; $PRDIR/$DEV moved to $PRDIR/$DEV.bad" ||
	fail "no log line for the reset"
clear_ua_nr "$sgA"
clear_ua_nr "$sgB"
assert_eq "$(io "$sgA" write)" good "A's WRITE after the reset"
assert_eq "$(io "$sgB" read)" good "B's READ after the reset"
# a reset while the state is known is refused and changes nothing
log "+ (must fail) echo 1 > devices/$DEV/pr_file_reset"
if echo 1 > $SCST/devices/$DEV/pr_file_reset 2>/dev/null; then
	fail "pr_file_reset accepted while the state is known"
fi
prout "$sgA" --register --param-sark=0xa --param-aptpl
grep -q '^registrant 0x000000000000000a ' $PRDIR/$DEV || fail "no APTPL file written after the reset"
prout "$sgA" --register --param-rk=0xa --param-sark=0

# a file that cannot be opened (a symbolic link: the core opens it with
# O_NOFOLLOW, ELOOP) fences too; removed by the administrator, the reset
# goes on without a file to move
rm -f $PRDIR/$DEV.bad
mgmt $T/luns/mgmt "del 0"
mgmt $H/mgmt "del_device $DEV"
run ln -s /tmp/pr/damaged $PRDIR/$DEV
add_dev
dmesg | tail -n 5 | grep_q "$DEV: cannot read $PRDIR/$DEV: error -40: persistent reservation state unknown" ||
	fail "no log line for the unreadable file"
grep -q "^state unknown: cannot read $PRDIR/$DEV: error -40$" $P || { cat $P; fail "pr_state: no reason"; }
mgmt $T/luns/mgmt "add $DEV 0"
nodes
nr sg_raw -s 4096 -i /tmp/pr/patA "$sgA" 2a 00 00 00 00 00 00 00 08 00
run rm $PRDIR/$DEV
echo 1 > $SCST/devices/$DEV/pr_file_reset || fail "pr_file_reset refused without a file"
dmesg | tail -n 3 | grep_q "$DEV: persistent reservation state reset by the administrator; no $PRDIR/$DEV to move aside" ||
	fail "no log line for the reset without a file"
clear_ua_nr "$sgA"
assert_eq "$(io "$sgA" write)" good "A's WRITE after the reset without a file"

mgmt $T/luns/mgmt "del 0"
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
log "core-pr-fence: all checks passed"
