#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The target core, vdisk handlers and scst_local, without RDMA: devices of
# all three vdisk kinds exported through scst_local, the SCSI commands the
# core and vdisk implement checked with sg3_utils, data verified with fio,
# and the management tree's bad inputs refused with nothing changed.
. /tests/lib/common.sh
. /tests/lib/fio.sh
. /tests/lib/scst.sh
. /tests/lib/scsi.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=262144
scst_local_load
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=256 status=none

H=$SCST/handlers
mgmt $H/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt $H/vdisk_fileio/mgmt "add_device disk_fio filename=/tmp/fileio.img; thin_provisioned=1"
mgmt $H/vdisk_nullio/mgmt "add_device disk_null size_mb=1024"
local_target tgt1 host1 "disk_bio 0" "disk_fio 1" "disk_null 2 read_only=1"
bio=$(lun_disk "$host" 0)
fio=$(lun_disk "$host" 1)
null=$(lun_disk "$host" 2)
log "disks: blockio $bio, fileio $fio, nullio $null"

# --- sysfs tree ---------------------------------------------------------
assert_eq "$(readlink $SCST/devices/disk_bio/handler | sed 's|.*/||')" vdisk_blockio "handler link"
assert_eq "$(attr_value $T/sessions/host1/initiator_name)" host1 "initiator_name"
[ -L $T/sessions/host1/luns ] || fail "sessions/host1/luns is not a link"
assert_eq "$(attr_value $T/luns/2/read_only)" 1 "LUN 2 read_only"
assert_eq "$(sed -n 2p $T/luns/2/read_only)" "[key]" "LUN 2 read_only [key]"
ls $SCST/devices/disk_bio/exported | grep_q . || fail "disk_bio not listed as exported"

# --- the SCSI commands, with sg3_utils ------------------------------------
scsi_checks "$bio" "$fio" "$null" "$(lun_sg "$host" 2)"

# --- data -----------------------------------------------------------------
for disk in "$bio" "$fio"; do
	fio_run "verify-${disk##*/}" --filename="$disk" --ioengine=libaio \
		--direct=1 --rw=randwrite --bs=4k --bsrange=512-64k --iodepth=32 \
		--numjobs=4 --size=$(io_mb 32) --offset_increment=40M --verify=crc32c \
		--do_verify=1 --verify_fatal=1
done
dd if="$null" bs=1M count=16 iflag=direct status=none | cmp -s - <(head -c 16777216 /dev/zero) ||
	fail "NULLIO reads are not zeros"
fio_run nullio-read --filename="$null" --ioengine=libaio --direct=1 \
	--rw=randread --bs=4k --iodepth=32 --runtime=3 --time_based --readonly

# --- bad mgmt input: refused, nothing changed ---------------------------------
before=$(tree_snapshot)
mgmt_bad $H/vdisk_blockio/mgmt "add_device x filename=/nonexistent" -2
mgmt_bad $H/vdisk_blockio/mgmt "add_device x" -22
mgmt_bad $H/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0" -17
mgmt_bad $H/vdisk_blockio/mgmt "add_device x filename=/dev/ram0; blocksize=1000" -22
mgmt_bad $H/vdisk_blockio/mgmt "add_device x filename=/dev/ram0; bogus=1" -22
mgmt_bad $H/vdisk_blockio/mgmt "frobnicate x" -22
mgmt_bad $T/luns/mgmt "add disk_null 0" -17
mgmt_bad $T/luns/mgmt "add no_such_dev 5" -2
mgmt_bad $T/luns/mgmt "add disk_null 99999" -22
mgmt_bad $T/luns/mgmt "add disk_null 5 colour=red" -22
mgmt_bad $T/luns/mgmt "del 7" -2
mgmt_bad $T/ini_groups/mgmt "del nogroup" -2
mgmt_bad $SCST/targets/scst_local/mgmt "add_session nosuchtgt s" -2
after=$(tree_snapshot)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); fail "a refused command changed the tree"; }
[ ! -e /sys/kernel/scst_tgt/handlers/nonexistent ] || fail "handler typo created something"

# --- LUN changes while the session is active: REPORTED LUNS DATA HAS CHANGED
sg=$(lun_sg "$host" 0)
mgmt $T/luns/mgmt "add disk_null 3"
out=$(sense_of sg_turs -v "$sg")
echo "$out"
grep -qi 'reported luns data has changed' <<< "$out" ||
	fail "no REPORTED LUNS DATA HAS CHANGED after adding a LUN"
sg_luns "$sg" | grep_q '^    0003' || fail "LUN 3 not in REPORT LUNS"
mgmt $T/luns/mgmt "del 3"
sg_luns "$sg" | grep_q '^    0003' && fail "LUN 3 still in REPORT LUNS after del"

# --- groups: an initiator in a group sees the group's LUNs only ------------
mgmt $T/ini_groups/mgmt "create g1"
mgmt $T/ini_groups/g1/luns/mgmt "add disk_null 0"
mgmt $T/ini_groups/g1/initiators/mgmt "add host*"
mgmt $T/ini_groups/g1/initiators/mgmt "add !host9"
[ -e "$T/ini_groups/g1/initiators/host*" ] || fail "initiator pattern file missing"
[ "$(readlink -f $T/sessions/host1/luns)" = "$(readlink -f $T/ini_groups/g1/luns)" ] ||
	fail "session host1 did not move to group g1"
sense_of sg_turs "$sg" > /dev/null
sg_luns "$sg" | grep -c '^    000' | grep_q -x 1 || fail "host1 should see exactly one LUN in g1"
mgmt $T/ini_groups/mgmt "del g1"
[ "$(readlink -f $T/sessions/host1/luns)" = "$(readlink -f $T/luns)" ] ||
	fail "session host1 did not return to the default LUNs"

# --- threads: per-initiator pools of the FILEIO device, pinned by cpu_mask --
pool=$(attr_value $SCST/devices/disk_fio/threads_pool_type)
assert_eq "$pool" per_initiator "default threads_pool_type"
nthr=$(attr_value $SCST/devices/disk_fio/threads_num)
pids=$(cat $SCST/devices/disk_fio/thread_pids)
assert_eq "$(wc -w <<< "$pids")" "$nthr" "threads of disk_fio with one session"
mgmt $SCST/targets/scst_local/mgmt "add_session tgt1 host2"
wait_for 10 "scst_local host of tgt1/host2" local_host tgt1 host2 > /dev/null
host2=$(local_host tgt1 host2)
wait_lun "$host2" 0
pids=$(cat $SCST/devices/disk_fio/thread_pids)
assert_eq "$(wc -w <<< "$pids")" "$((2 * nthr))" "threads of disk_fio with two sessions"
run sh -c "echo 1 > $T/cpu_mask"
assert_eq "$(sed -n 2p $T/cpu_mask)" "[key]" "non-default cpu_mask is marked [key]"
for pid in $pids; do
	grep -q '^Cpus_allowed_list:[[:space:]]*0$' /proc/"$pid"/status ||
		fail "thread $pid not pinned to CPU 0: $(grep Cpus_allowed_list /proc/$pid/status)"
done
expect_fail sh -c "echo 0 > $T/cpu_mask" 2>/dev/null
expect_fail sh -c "echo shared > $SCST/devices/disk_fio/threads_pool_type" 2>/dev/null
run sh -c "echo 3 > $T/cpu_mask"

# --- task management: a LUN reset is a unit attention for every nexus ----
# (SAM-5 6.3.3: host2's, and host1's, which asked for it)
sg2=$(lun_sg "$host2" 0)
clear_ua "$sg2"	# its power-on unit attention
clear_ua "$sg"	# INQUIRY DATA HAS CHANGED: LUN 0 named disk_null in g1
run sg_reset -d "$sg"
for s in "$sg2" "$sg"; do
	out=$(sense_of sg_turs -v "$s")
	echo "$out"
	grep -qi 'bus device reset' <<< "$out" || fail "no unit attention on $s after a LUN reset"
done
run sg_reset -t "$sg"
clear_ua "$sg"
clear_ua "$sg2"

# --- SPC-2 RESERVE/RELEASE: the other nexus gets RESERVATION CONFLICT ----
run sg_raw "$sg" 16 00 00 00 00 00
out=$(sense_of sg_raw -r 512 "$sg2" 28 00 00 00 00 00 00 00 01 00)
grep -qi 'reservation conflict' <<< "$out" || fail "no RESERVATION CONFLICT for host2: $out"
run sg_inq "$sg2"	# INQUIRY is allowed through a reservation
run sg_raw "$sg2" 17 00 00 00 00 00	# RELEASE by a non-holder: GOOD, no effect
sense_of sg_raw -r 512 "$sg2" 28 00 00 00 00 00 00 00 01 00 | grep_q -i 'reservation conflict' ||
	fail "a RELEASE from another nexus released the reservation"
run sg_raw "$sg" 17 00 00 00 00 00
run sg_raw -r 512 "$sg2" 28 00 00 00 00 00 00 00 01 00

# --- capacity change: resync_size gives CAPACITY DATA HAS CHANGED -------
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=320 status=none
fsg=$(lun_sg "$host" 1)
clear_ua "$fsg"
run sh -c "echo 1 > $SCST/devices/disk_fio/resync_size"
out=$(sense_of sg_turs -v "$fsg")
grep -qi 'capacity data has changed' <<< "$out" || fail "no CAPACITY DATA HAS CHANGED: $out"
sg_readcap "$fsg" | grep_q 'Number of logical blocks=655360' || fail "new capacity not reported"
fio_run after-reset --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randrw --bs=4k --iodepth=16 --size=$(io_mb 8) --verify=crc32c --verify_fatal=1
mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 host2"

# --- removal in the wrong order ---------------------------------------------
# the core is in use, and so is the handler of devices a session sees; an
# exported device goes away with its LUN, and the session sees the change
expect_fail rmmod scst
expect_fail rmmod scst_vdisk
mgmt $H/vdisk_nullio/mgmt "del_device disk_null"
[ ! -e $T/luns/2 ] || fail "LUN 2 still there after its device was deleted"
[ ! -e $SCST/devices/disk_null ] || fail "disk_null still there"
sense_of sg_turs "$sg" > /dev/null
sg_luns "$sg" | grep_q '^    0002' && fail "REPORT LUNS still lists LUN 2"
mgmt $SCST/targets/scst_local/mgmt "del_session tgt1 host1"
wait_for 10 "host1 gone" test ! -e $T/sessions/host1
# without sessions, unloading the handler removes its devices' LUNs
run rmmod scst_vdisk
[ -z "$(ls $T/luns | grep -v mgmt)" ] || fail "LUNs left after rmmod scst_vdisk: $(ls $T/luns)"
mgmt $SCST/targets/scst_local/mgmt "del_target tgt1"
run rmmod scst_local
run rmmod scst
log "core-local passed"
exit 0
