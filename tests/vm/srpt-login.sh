#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Our SRP target (scst_srpt) serving Linux' ib_srp over Soft-RoCE with an
# RDMA/CM login: the target per port GID and its attributes, a login
# refused while the target is disabled or for a wrong id_ext, blockio,
# fileio and nullio LUNs checked with the core test's sg3_utils checks
# (lib/scsi.sh) and fio --verify (immediate
# data, RDMA READ and RDMA WRITE paths, 512 B to 1 MiB requests, queue
# depth 1 and 32), task management (LUN reset), a persistent reservation
# with the SRP TransportID held by every channel, disabling the target with
# sessions (they close; the initiator reconnects once it is re-enabled),
# logout, and unloading the target with a live session.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh
. /tests/lib/scsi.sh

run modprobe -a sd_mod sg
run modprobe brd rd_nr=1 rd_size=262144
run dd if=/dev/zero of=/tmp/fileio.img bs=1M count=0 seek=128 status=none
srpt_target_up rxe_setup_one

# --- the target of rxe0's port and its attributes --------------------------
gid=$(rxe_port_gid rxe0)
for a in login_info device port_id link_layer comp_v_mask thread_mode enabled; do
	log "$a: $(tr '\n' ' ' < "$T/$a")"
done
assert_eq "$(attr_value "$T/device")" rxe0 "device"
assert_eq "$(attr_value "$T/link_layer")" Ethernet "link_layer"
assert_eq "$(attr_value "$T/enabled")" 0 "enabled at load"
guid=$(rxe_node_guid_hex rxe0)
id=$(srpt_login_field "$T" tid_ext)
assert_eq "$id" "$guid" "login_info tid_ext (node GUID of rxe0)"
assert_eq "$(srpt_login_field "$T" ioc_guid)" "$guid" "login_info ioc_guid"
assert_eq "$(srpt_login_field "$T" service_id)" "$guid" "login_info service_id"
assert_eq "$(srpt_login_field "$T" pkey)" ffff "login_info pkey"
assert_eq "$(srpt_login_field "$T" dgid)" "$(tr -d ':' <<< "$gid")" "login_info dgid"
assert_eq "$(attr_value "$T/port_id")" "0x$guid$guid" "port_id"

# --- devices and LUNs -------------------------------------------------------
H=$SCST/handlers
mgmt $H/vdisk_blockio/mgmt "add_device disk_bio filename=/dev/ram0"
mgmt $H/vdisk_fileio/mgmt "add_device disk_fio filename=/tmp/fileio.img; thin_provisioned=1"
mgmt $H/vdisk_nullio/mgmt "add_device disk_null size_mb=1024"
mgmt "$T/luns/mgmt" "add disk_bio 0"
mgmt "$T/luns/mgmt" "add disk_fio 1"
mgmt "$T/luns/mgmt" "add disk_null 2 read_only=1"

# --- refused logins ----------------------------------------------------------
srpt_login_fails "$id" "$id"			# target disabled
run sh -c "echo 1 > '$T/enabled'"
assert_eq "$(attr_value "$T/enabled")" 1 "enabled"
srpt_login_fails 0123456789abcdef "$id"		# not our id_ext
assert_eq "$(srpt_nr_sessions "$T")" 0 "sessions after refused logins"

# --- login -------------------------------------------------------------------
srp_login "$id" "$id" "queue_size=128,max_cmd_per_lun=128"
for lun in 0 1 2; do
	srpt_wait_lun $lun
done
bio=$(srpt_lun_disk 0)
fio=$(srpt_lun_disk 1)
null=$(srpt_lun_disk 2)
log "disks: blockio $bio, fileio $fio, nullio $null"
log "sessions: $(srpt_sessions "$T" | tr '\n' ' ')"
# with one rxe device the initiator's address is the target's, 10.0.0.1
S=$T/sessions/$RXE_TARGET_IP
[ -d "$S" ] || fail "no session named $RXE_TARGET_IP"
assert_eq "$(attr_value "$S/initiator_name")" "$RXE_TARGET_IP" "initiator_name"
assert_eq "$(attr_value "$S/ch_state")" live "ch_state"
for a in req_lim req_lim_delta comp_vector thread_pid; do
	log "session $a: $(cat "$S/$a")"
done
nsess=$(srpt_nr_sessions "$T")
[ "$nsess" -ge 1 ] || fail "no session"
for s in $(srpt_sessions "$T"); do
	assert_eq "$(attr_value "$T/sessions/$s/initiator_name")" "$RXE_TARGET_IP" "initiator_name of $s"
done

# --- SCSI: the core test's sg3_utils checks, through SRP -------------------------
# Each channel is an I_T nexus with its own POWER ON unit attention, and
# blk-mq sends a CPU's commands down its own channel: consume them all.
for lun in 0 1 2; do
	srpt_clear_ua_all_channels "$(lun_sg "$SRP_HOST" $lun)"
done
scsi_checks "$bio" "$fio" "$null" "$(lun_sg "$SRP_HOST" 2)"

# --- data ------------------------------------------------------------------------
fio_run verify-qd1 --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=4k --iodepth=1 --size=$(io_mb 8) --verify=crc32c \
	--do_verify=1 --verify_fatal=1
fio_run verify-qd32 --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=4k --iodepth=32 --size=$(io_mb 32) --offset=64M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
fio_run verify-bsrange --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randwrite --bsrange=512-1M --iodepth=32 --size=$(io_mb 64) --offset=128M \
	--verify=crc32c --do_verify=1 --verify_fatal=1
fio_run verify-fileio --filename="$fio" --ioengine=libaio --direct=1 \
	--rw=randrw --bsrange=512-256k --iodepth=16 --size=$(io_mb 32) \
	--verify=crc32c --verify_fatal=1
dd if="$null" bs=1M count=4 iflag=direct status=none | cmp -s - <(head -c 4194304 /dev/zero) ||
	fail "NULLIO reads are not zeros"
fio_run randread-qd32 --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randread --bs=4k --iodepth=32 --time_based --runtime=10 --readonly
echo "SRPT: scst_srpt brd 4k randread qd32 iops=$FIO_IOPS cpu_us_per_io=$FIO_CPU_US_PER_IO"
fio_run randread-null-qd32 --filename="$null" --ioengine=libaio --direct=1 \
	--rw=randread --bs=4k --iodepth=32 --time_based --runtime=5 --readonly
echo "SRPT: scst_srpt nullio 4k randread qd32 iops=$FIO_IOPS cpu_us_per_io=$FIO_CPU_US_PER_IO"

# --- task management: LUN RESET through the SCSI error handler's ioctl -------------
sgdev=$(lun_sg "$SRP_HOST" 0)
run sg_reset -d "$sgdev"
# the other nexuses of the LUN now hold a BUS DEVICE RESET unit attention
run ua_retry sg_turs "$sgdev"

# --- persistent reservations: the SRP TransportID (SPC-4 §7.6.4.5) ---------------
# Every channel of the login is one I_T nexus: one initiator port id.
srpt_clear_ua_all_channels "$sgdev"
run sg_persist -n --out --register --param-sark=0x5a "$sgdev"
P=$SCST/devices/$(readlink "$T/luns/0/device" | sed 's|.*/||')/pr_state
cat "$P"
grep -Eq '^registrant 0 key 0x000000000000005a transport_id srp:[0-9a-f]{32} rel_tgt_id [0-9]+ all_tg_pt 0$' "$P" ||
	fail "pr_state: no SRP TransportID"
grep -q '^registrants 1$' "$P" || fail "pr_state: the channels are not one nexus"
run sg_persist -n --out --reserve --param-rk=0x5a --prout-type=3 "$sgdev"
# reads from every CPU, so down every channel: all are the holder
fio_run pr-holder --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randread --bs=4k --iodepth=8 --numjobs=2 --size=$(io_mb 8) --readonly
run sg_persist -n --out --clear --param-rk=0x5a "$sgdev"
grep -q '^registrants 0$' "$P" || fail "pr_state after CLEAR"

# --- disable with sessions: they close; re-enable: the initiator comes back -------
run sh -c "echo 0 > '$T/enabled'"
assert_eq "$(srpt_nr_sessions "$T")" 0 "sessions after disable"
run sh -c "echo 1 > '$T/enabled'"
# ib_srp reconnects by itself (reconnect_delay)
srpt_wait_sessions "$T" "$nsess"
wait_for 60 "disk back after reconnect" ua_retry sg_turs "$bio"
fio_run verify-after-reconnect --filename="$bio" --ioengine=libaio --direct=1 \
	--rw=randwrite --bs=16k --iodepth=8 --size=$(io_mb 8) --verify=crc32c \
	--do_verify=1 --verify_fatal=1

# --- logout -----------------------------------------------------------------------
srp_logout
srpt_wait_sessions "$T" 0

# --- unload with a live session --------------------------------------------------
# ib_srp forgets the removed target only a moment after its SCSI host went
sleep 3
srp_login "$id" "$id"
srpt_wait_lun 0
srpt_wait_sessions "$T" "$nsess"
expect_fail rmmod scst_vdisk
run rmmod scst_srpt
[ ! -e "$SRPT" ] || fail "$SRPT left after rmmod scst_srpt"
# the initiator lost its target: remove its port
srp_logout
run rmmod ib_srp
run rmmod scst_vdisk
run rmmod scst
log "srpt-login passed"
exit 0
