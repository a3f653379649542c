#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# One logical unit, many I_T nexuses (issue 9, items 3, 4, 5, 7), with
# scst_local targets only:
# - a LUN RESET through target tA aborts a command of target tB in flight
#   on a slow LUN (scsi_debug with a response delay, behind vdisk_blockio):
#   a LUN RESET reaches every nexus of the logical unit, whatever its TST
#   (vdisk default 1, one task set per nexus, as SCST); both
#   nexuses then report BUS DEVICE RESET FUNCTION OCCURRED;
# - with a command stuck on tA's slow LUN and a LUN RESET waiting for it,
#   a new session on target tC and a mgmt write on tC complete (a hang
#   detector: they used to wait behind the reset, which held scst_mutex);
#   so does deleting the LUN with the stuck command;
# - a LUN replace that fails keeps the old LUN;
# - per-initiator FILEIO pools: one per initiator name, shared by its
#   sessions on several targets, at most max_initiator_pools of them per
#   device, and none left after repeated session add/remove.
. /tests/lib/common.sh
. /tests/lib/scst.sh

SDEBUG=/sys/bus/pseudo/drivers/scsi_debug
# scsi_debug's delay is in jiffies: the kernel's CONFIG_HZ (scripts/vm/run)
HZ=${KERNEL_HZ:-250}
L=$SCST/targets/scst_local
H=$SCST/handlers

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=65536
sdebug_load dev_size_mb=16 delay=0
scst_local_load
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=16 status=none

mgmt $H/vdisk_blockio/mgmt "add_device disk_slow filename=$(sdebug_disk)"
mgmt $H/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt $H/vdisk_nullio/mgmt "add_device disk_null size_mb=16"
mgmt $H/vdisk_fileio/mgmt "add_device disk_fio filename=/tmp/fileio.img"
for t in tA tB tC; do
	mgmt $L/mgmt "add_target $t"
done
mgmt $L/tA/luns/mgmt "add disk_slow 0"
mgmt $L/tA/luns/mgmt "add disk_slow 1"
mgmt $L/tB/luns/mgmt "add disk_slow 0"
mgmt $L/tC/luns/mgmt "add disk_bio 0"
mgmt $L/mgmt "add_session tA iniA"
mgmt $L/mgmt "add_session tB iniB"
wait_for 10 "host of tA/iniA" local_host tA iniA > /dev/null
wait_for 10 "host of tB/iniB" local_host tB iniB > /dev/null
hA=$(local_host tA iniA)
hB=$(local_host tB iniB)
wait_lun "$hA" 0
wait_lun "$hA" 1
wait_lun "$hB" 0
sgA=$(lun_sg "$hA" 0)
sgA1=$(lun_sg "$hA" 1)
sgB=$(lun_sg "$hB" 0)
for sg in "$sgA" "$sgA1" "$sgB"; do
	clear_ua "$sg"	# power on
done

active_cmds() {
	[ "$(attr_value "$L/$1/sessions/$2/active_commands")" -ge 1 ]
}

# --- LUN RESET through tA aborts tB's command: one task set per LU -----
run sh -c "echo $((6 * HZ)) > $SDEBUG/delay"
sg_raw -t 60 -r 512 -o /dev/null "$sgB" 28 00 00 00 00 00 00 00 01 00 \
	> /tmp/readB.log 2>&1 &
readB=$!
wait_for 10 "tB's READ in the core" active_cmds tB iniB
run sg_reset -d "$sgA"
wait "$readB" || true
cat /tmp/readB.log
grep -qi 'abort' /tmp/readB.log ||
	fail "tB's READ did not end aborted: the LUN RESET through tA left it alone"
dmesg | grep_q 'iniA: LUN RESET (LUN 0, tag 0): function complete' ||
	fail "no 'function complete' for the LUN RESET: $(dmesg | grep 'LUN RESET' | tail -n 2)"
run sh -c "echo 0 > $SDEBUG/delay"
for sg in "$sgB" "$sgA"; do
	out=$(sense_of sg_turs -v "$sg")
	echo "$out"
	grep -qi 'bus device reset' <<< "$out" ||
		fail "no BUS DEVICE RESET unit attention on $sg after the LUN RESET"
done
clear_ua "$sgA1"
clear_ua "$sgB"

# --- a stuck command does not stall other targets ----------------------
# tA's LUN 1 READ takes 20 s in the backend; the LUN RESET of it waits for
# it (in the SCSI error handler of tA's host).
run sh -c "echo $((20 * HZ)) > $SDEBUG/delay"
sg_raw -t 120 -r 512 -o /dev/null "$sgA1" 28 00 00 00 00 00 00 00 01 00 \
	> /tmp/readA.log 2>&1 &
readA=$!
wait_for 10 "tA's READ in the core" active_cmds tA iniA
sg_reset -d "$sgA1" > /tmp/resetA.log 2>&1 &
resetA=$!
sleep 2	# the reset is now waiting for the stuck READ
ended() {
	! kill -0 "$1" 2> /dev/null
}
log "+ add_session tC iniC while a LUN RESET waits for a stuck command"
echo "add_session tC iniC" > $L/mgmt &
login=$!
wait_for 10 "the login on tC (it must not wait for the stuck command)" ended "$login"
wait "$login" || fail "add_session tC iniC failed"
log "+ ini_groups/mgmt create gC on tC"
echo "create gC" > $L/tC/ini_groups/mgmt &
w=$!
wait_for 10 "the mgmt write on tC (it must not wait for the stuck command)" ended "$w"
wait "$w" || fail "create gC on tC failed"
log "+ del of tA's LUN 1, its command still stuck"
echo "del 1" > $L/tA/luns/mgmt &
w=$!
wait_for 10 "deleting the LUN with a stuck command" ended "$w"
wait "$w" || fail "del 1 on tA failed"
mgmt $L/tC/ini_groups/mgmt "del gC"
wait_for 10 "host of tC/iniC" local_host tC iniC > /dev/null
hC=$(local_host tC iniC)
wait_lun "$hC" 0
clear_ua "$(lun_sg "$hC" 0)"
run sg_turs "$(lun_sg "$hC" 0)"
# the stuck READ and the reset end when the backend answers
wait_for 60 "the LUN RESET of the stuck LUN" ended "$resetA"
wait "$resetA" || fail "LUN RESET of tA's LUN 1 failed: $(cat /tmp/resetA.log)"
wait_for 60 "the stuck READ" ended "$readA"
run sh -c "echo 0 > $SDEBUG/delay"
wait "$readA" && log "the stuck READ ended GOOD" || log "the stuck READ: $(tr '\n' ' ' < /tmp/readA.log)"
[ ! -e $L/tA/luns/1 ] || fail "tA's LUN 1 still there"
clear_ua "$sgA"
mgmt $L/mgmt "del_session tC iniC"
mgmt $L/mgmt "del_session tA iniA"
mgmt $L/mgmt "del_session tB iniB"

# --- a failed LUN replace keeps the old LUN --------------------------------
# The export link of LUN 5 of target rA_x's own LUNs and that of LUN 5 of
# group x_ of target rA have the same name in the device's exported/:
# replacing group x_'s LUN 5 by disk_bio, exported as rA_x's LUN 5,
# fails there, after the old LUN's directory has been taken down.
mgmt $L/mgmt "add_target rA_x"
mgmt $L/mgmt "add_target rA"
mgmt $L/rA_x/luns/mgmt "add disk_bio 5"
mgmt $L/rA/ini_groups/mgmt "create x_"
mgmt $L/rA/ini_groups/x_/luns/mgmt "add disk_null 5"
mgmt $L/rA/ini_groups/x_/initiators/mgmt "add iniR"
mgmt $L/mgmt "add_session rA iniR"
wait_for 10 "host of rA/iniR" local_host rA iniR > /dev/null
hR=$(local_host rA iniR)
wait_lun "$hR" 5
sgR=$(lun_sg "$hR" 5)
clear_ua "$sgR"
mgmt_bad $L/rA/ini_groups/x_/luns/mgmt "replace disk_bio 5" -17
[ -e $L/rA/ini_groups/x_/luns/5 ] || fail "the failed replace removed LUN 5"
assert_eq "$(basename "$(readlink $L/rA/ini_groups/x_/luns/5/device)")" disk_null \
	"device of LUN 5 after the failed replace"
ls $SCST/devices/disk_null/exported | grep_q 'export_rA_x__5' ||
	fail "disk_null lost its export link: $(ls $SCST/devices/disk_null/exported)"
run sg_turs "$sgR"	# unchanged: no unit attention, the LUN still works
sg_inq "$sgR" | grep_q disk_null || fail "LUN 5 is no longer disk_null: $(sg_inq "$sgR")"
# a replace that works still does
mgmt $L/rA/ini_groups/x_/luns/mgmt "replace disk_fio 5"
assert_eq "$(basename "$(readlink $L/rA/ini_groups/x_/luns/5/device)")" disk_fio \
	"device of LUN 5 after a replace"
out=$(sense_of sg_turs -v "$sgR")
grep -qi 'inquiry data has changed' <<< "$out" || fail "no INQUIRY DATA HAS CHANGED after the replace: $out"
mgmt $L/mgmt "del_session rA iniR"
mgmt $L/mgmt "del_target rA"
mgmt $L/mgmt "del_target rA_x"

# --- per-initiator pools of a FILEIO device ----------------------------------
nthr=$(attr_value $SCST/devices/disk_fio/threads_num)
threads() {
	wc -w < $SCST/devices/disk_fio/thread_pids
}
assert_eq "$(threads)" 0 "disk_fio threads without sessions"
run sh -c "echo 2 > /sys/module/scst/parameters/max_initiator_pools"
mgmt $L/mgmt "add_target tP"
mgmt $L/mgmt "add_target tQ"
mgmt $L/tP/luns/mgmt "add disk_fio 0"
mgmt $L/tQ/luns/mgmt "add disk_fio 0"
# one initiator on two targets: one pool
mgmt $L/mgmt "add_session tP same"
mgmt $L/mgmt "add_session tQ same"
assert_eq "$(threads)" "$nthr" "threads of one initiator's sessions on two targets"
# more initiators than max_initiator_pools: the others share one pool
for i in 1 2 3; do
	mgmt $L/mgmt "add_session tP p$i"
done
assert_eq "$(threads)" "$((3 * nthr))" "threads of 4 initiators with max_initiator_pools=2"
wait_for 10 "host of tP/p3" local_host tP p3 > /dev/null
h3=$(local_host tP p3)
wait_lun "$h3" 0
clear_ua "$(lun_sg "$h3" 0)"
run dd if=/dev/zero of="$(lun_disk "$h3" 0)" bs=4k count=16 oflag=direct status=none
for i in 1 2 3; do
	mgmt $L/mgmt "del_session tP p$i"
done
mgmt $L/mgmt "del_session tQ same"
assert_eq "$(threads)" "$((2 * nthr))" "threads with one initiator left (and the shared pool)"
# a reconnect loop: the pool of the initiator is the same one each time
for cycle in 1 2 3 4 5; do
	mgmt $L/mgmt "add_session tP loop"
	[ "$(threads)" -le "$((3 * nthr))" ] ||
		fail "cycle $cycle: $(threads) threads, more than $((3 * nthr))"
	mgmt $L/mgmt "del_session tP loop"
done
mgmt $L/mgmt "del_session tP same"
assert_eq "$(threads)" "$nthr" "threads without sessions (the shared overflow pool stays)"

for t in tA tB tC tP tQ; do
	mgmt $L/mgmt "del_target $t"
done
run rmmod scst_local
run rmmod scst_vdisk
run rmmod scst
run rmmod scsi_debug
log "core-tmf-scope passed"
exit 0
