#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dev_disk over SRP: a scsi_debug disk exported through scst_srpt to
# Linux' ib_srp over Soft-RoCE. The initiator sees scsi_debug's own
# INQUIRY and device identification page, fio --verify passes at QD 32
# with 512 B to 1 MiB requests (RDMA READ and WRITE on the core's pages),
# and the device's MEDIUM ERROR arrives with its LBA; logout and unload
# are clean. The scst_local test (dev-disk) covers the rest.
. /tests/lib/common.sh
. /tests/lib/scst.sh
. /tests/lib/rxe.sh
. /tests/lib/srp.sh
. /tests/lib/fio.sh
. /tests/lib/srpt.sh

MERR_LBA=5000

run modprobe -a sd_mod sg
run modprobe scsi_debug dev_size_mb=32 max_luns=1 \
	medium_error_start=$MERR_LBA medium_error_count=8
wait_for 10 "the scsi_debug disk" sdebug_hctl > /dev/null
hctl=$(sdebug_hctl)
wait_for 10 "sg node of $hctl" ls /sys/bus/scsi/devices/"$hctl"/scsi_generic/
local_sg=/dev/$(ls /sys/bus/scsi/devices/"$hctl"/scsi_generic/)
rxe_setup_one
srpt_load
run modprobe scst_disk

T=$(srpt_tgt rxe0)
wait_for 10 "target ${T##*/}" test -d "$T"
mgmt $SCST/handlers/dev_disk/mgmt "add_device $hctl"
mgmt "$T/luns/mgmt" "add $hctl 0"
run sh -c "echo 1 > '$T/enabled'"
id=$(srpt_login_field "$T" tid_ext)
srp_login "$id" "$id" "queue_size=128,max_cmd_per_lun=128"
srpt_wait_lun 0
disk=$(srpt_lun_disk 0)
sg=$(lun_sg "$SRP_HOST" 0)
srpt_clear_ua_all_channels "$sg"
log "scsi_debug $hctl ($local_sg) over SRP: $disk $sg"

# identity, byte for byte
for what in "-r" "-r -p 0x83" "-r -p 0x80"; do
	# shellcheck disable=SC2086
	a=$(sg_vpd $what "$local_sg" 2>&1)
	# shellcheck disable=SC2086
	b=$(ua_retry sg_vpd $what "$sg") || fail "sg_vpd $what over SRP: $b"
	[ "$a" = "$b" ] || fail "sg_vpd $what differs over SRP"
done
a=$(sg_inq -r "$local_sg")
b=$(ua_retry sg_inq -r "$sg") || fail "sg_inq over SRP"
[ "$a" = "$b" ] || fail "standard INQUIRY differs over SRP"
ua_retry sg_inq "$sg" | grep_q 'Product identification: scsi_debug' || fail "product"

fio_run srp-qd32 --filename="$disk" --ioengine=libaio --direct=1 \
	--rw=randwrite --bsrange=512-1M --iodepth=32 --size=8M \
	--verify=crc32c --do_verify=1 --verify_fatal=1

# READ(10) of one block at MERR_LBA + 2
lba=$((MERR_LBA + 2))
echo 2 > /sys/bus/pseudo/drivers/scsi_debug/opts
out=$(sense_of sg_raw -v -r 512 "$sg" 28 00 00 00 \
	"$(printf '%02x' $((lba >> 8)))" "$(printf '%02x' $((lba & 255)))" 00 00 01 00)
echo 0 > /sys/bus/pseudo/drivers/scsi_debug/opts
echo "$out"
grep -qi 'medium error' <<< "$out" || fail "no MEDIUM ERROR over SRP"
grep -qi "info fld=0x$(printf '%x' $lba)" <<< "$out" || fail "MEDIUM ERROR without LBA $lba"

srp_logout
srpt_wait_sessions "$T" 0
run rmmod ib_srp
run rmmod scst_srpt
mgmt $SCST/handlers/dev_disk/mgmt "del_device $hctl"
run rmmod scst_disk
run rmmod scst_vdisk
run rmmod scst
exit 0
